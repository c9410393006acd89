//! MCP content blocks inside named examples (the `content` of a Prompt
//! message and of a Tool result): which block types a revision defines,
//! and the members each type needs.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::{Place, is_base64};
use crate::meta::Holder;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::resource::check_resource_annotations;
use crate::rule;
use crate::value::is_uri;

/// The members every content block may carry besides its type's own.
const COMMON: [&str; 3] = ["type", "annotations", "_meta"];

/// The members of each block type besides [`COMMON`]; blocks are closed,
/// as the published 0.8.0 schema has them.
const MEMBERS: [(&str, &[&str]); 7] = [
    ("text", &["text"]),
    ("tool_use", &["id", "name", "input"]),
    (
        "tool_result",
        &["toolUseId", "content", "isError", "structuredContent"],
    ),
    ("image", &["data", "mimeType"]),
    ("audio", &["data", "mimeType"]),
    ("resource", &["resource"]),
    (
        "resource_link",
        &[
            "uri",
            "name",
            "title",
            "description",
            "mimeType",
            "size",
            "icons",
        ],
    ),
];

/// The members of the `resource` of an embedded resource block (MCP's
/// `TextResourceContents` and `BlobResourceContents`), closed.
const RESOURCE_MEMBERS: [&str; 5] = ["uri", "mimeType", "text", "blob", "_meta"];

/// The block types of a Prompt message and of a Tool result (the two share
/// MCP's `ContentBlock`) and the first revision that defines each: text,
/// image and embedded resources from the first, audio from 2025-03-26,
/// resource links from 2025-06-18.
const TYPES: [(&str, Revision); 5] = [
    ("text", Revision::of("2024-11-05")),
    ("image", Revision::of("2024-11-05")),
    ("resource", Revision::of("2024-11-05")),
    ("audio", Revision::of("2025-03-26")),
    ("resource_link", Revision::of("2025-06-18")),
];

/// The block types of a sampling message (MCP's `SamplingContent`) and
/// the first revision that defines each: text and images from the first,
/// audio from 2025-03-26, a tool's use and its result from 2025-11-25.
const SAMPLING_TYPES: [(&str, Revision); 5] = [
    ("text", Revision::of("2024-11-05")),
    ("image", Revision::of("2024-11-05")),
    ("audio", Revision::of("2025-03-26")),
    ("tool_use", Revision::of("2025-11-25")),
    ("tool_result", Revision::of("2025-11-25")),
];

/// Which family of content blocks a place holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blocks {
    /// MCP's `ContentBlock`: a Prompt message's, a Tool result's, and a
    /// sampled tool result's content.
    Content,
    /// MCP's `SamplingContent`: a sampling message's content.
    Sampling,
}

impl Blocks {
    /// Its block types, each with the first revision that defines it.
    fn types(self) -> &'static [(&'static str, Revision)] {
        match self {
            Blocks::Content => &TYPES,
            Blocks::Sampling => &SAMPLING_TYPES,
        }
    }
}

/// `mcp.content-block` on the content block `block` of the family
/// `blocks`, at `block_at` in the example at `place`, under `revision`;
/// `in_scope` says whether the primitive applies to the revision, without
/// which only the members of the block are checked, not whether its type
/// exists yet.
pub(crate) fn check(
    block: &Value,
    blocks: Blocks,
    place: &Place,
    block_at: &Pointer,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let at = |member: Option<&str>| {
        place.within(|_| match member {
            Some(member) => block_at.key(member),
            None => block_at.clone(),
        })
    };
    let Value::Object(block) = block else {
        report.error(
            rule::CONTENT_BLOCK,
            &at(None),
            "a content block is an object",
        );
        return;
    };
    let kind = match block.get("type") {
        None => {
            report.error(rule::CONTENT_BLOCK, &at(None), "`type` is missing");
            return;
        }
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => {
            report.error(
                rule::CONTENT_BLOCK,
                &at(Some("type")),
                "`type` must be a string",
            );
            return;
        }
    };
    let Some((_, since)) = blocks.types().iter().find(|(name, _)| *name == kind) else {
        report.error(
            rule::CONTENT_BLOCK,
            &at(Some("type")),
            format!("`{kind}` is not a content block type"),
        );
        return;
    };
    if in_scope && revision < *since {
        report.error(
            rule::CONTENT_BLOCK,
            &at(Some("type")),
            format!("MCP {revision} defines no `{kind}` content block"),
        );
    }
    if let Some(annotations) = block.get("annotations") {
        place.judge(report, |report| {
            check_resource_annotations(
                annotations,
                &block_at.key("annotations"),
                revision,
                in_scope,
                report,
            );
        });
    }
    if in_scope && let Some(meta) = block.get("_meta") {
        place.check_meta(
            meta,
            Holder::Content,
            &block_at.key("_meta"),
            revision,
            report,
        );
    }
    let own = MEMBERS
        .iter()
        .find(|(name, _)| *name == kind)
        .map_or(&[][..], |(_, members)| *members);
    for member in block
        .keys()
        .filter(|member| !COMMON.contains(&member.as_str()) && !own.contains(&member.as_str()))
    {
        report.error(
            rule::CONTENT_BLOCK,
            &at(Some(member)),
            format!("no member `{member}` is defined on a `{kind}` block"),
        );
    }
    let missing = |member: &str| format!("a `{kind}` block has a string `{member}`");
    match kind {
        "text" => require_strings(block, &["text"], &at, &missing, report),
        "image" | "audio" => {
            require_strings(block, &["data", "mimeType"], &at, &missing, report);
            if let Some(Value::String(data)) = block.get("data")
                && !is_base64(data)
            {
                report.error(
                    rule::CONTENT_BLOCK,
                    &at(Some("data")),
                    "`data` is not base64",
                );
            }
        }
        "resource_link" => {
            require_strings(block, &["uri", "name"], &at, &missing, report);
            check_uri(block, &|member| at(Some(member)), report);
        }
        "resource" => {
            check_embedded(block, &at, report);
            if in_scope
                && let Some(Value::Object(resource)) = block.get("resource")
                && let Some(meta) = resource.get("_meta")
            {
                let meta_at = block_at.key("resource").key("_meta");
                place.check_meta(meta, Holder::Content, &meta_at, revision, report);
            }
        }
        "tool_use" => {
            require_strings(block, &["id", "name"], &at, &missing, report);
            match block.get("input") {
                Some(Value::Object(_)) => {}
                Some(_) => report.error(
                    rule::CONTENT_BLOCK,
                    &at(Some("input")),
                    "`input` is the object of the tool's arguments",
                ),
                None => report.error(
                    rule::CONTENT_BLOCK,
                    &at(None),
                    "a `tool_use` block has an `input` object",
                ),
            }
        }
        _ => check_tool_result(block, place, block_at, revision, in_scope, &at, report),
    }
}

/// A `tool_result` block: a string `toolUseId`, a `content` that is one
/// content block or a non-empty array of them, and a boolean `isError`
/// when there is one.
fn check_tool_result(
    block: &Map<String, Value>,
    place: &Place,
    block_at: &Pointer,
    revision: Revision,
    in_scope: bool,
    at: &dyn Fn(Option<&str>) -> Pointer,
    report: &mut Report,
) {
    let missing = |member: &str| format!("a `tool_result` block has a string `{member}`");
    require_strings(block, &["toolUseId"], at, &missing, report);
    let content_at = block_at.key("content");
    match block.get("content") {
        None => report.error(
            rule::CONTENT_BLOCK,
            &at(None),
            "a `tool_result` block has the `content` the tool returned",
        ),
        Some(Value::Array(inner)) if !inner.is_empty() => {
            for (index, inner) in inner.iter().enumerate() {
                let inner_at = content_at.index(index);
                check(
                    inner,
                    Blocks::Content,
                    place,
                    &inner_at,
                    revision,
                    in_scope,
                    report,
                );
            }
        }
        Some(inner @ Value::Object(_)) => {
            check(
                inner,
                Blocks::Content,
                place,
                &content_at,
                revision,
                in_scope,
                report,
            );
        }
        Some(_) => report.error(
            rule::CONTENT_BLOCK,
            &at(Some("content")),
            "`content` is a content block or a non-empty array of them",
        ),
    }
    if let Some(flag) = block.get("isError")
        && !flag.is_boolean()
    {
        report.error(
            rule::CONTENT_BLOCK,
            &at(Some("isError")),
            "`isError` must be a boolean",
        );
    }
}

/// Each of `members` is a string member of `block`: a missing one is
/// reported at the block, one of another type at the member.
fn require_strings(
    block: &Map<String, Value>,
    members: &[&str],
    at: &dyn Fn(Option<&str>) -> Pointer,
    message: &dyn Fn(&str) -> String,
    report: &mut Report,
) {
    for member in members {
        match block.get(*member) {
            Some(Value::String(_)) => {}
            Some(_) => report.error(rule::CONTENT_BLOCK, &at(Some(member)), message(member)),
            None => report.error(rule::CONTENT_BLOCK, &at(None), message(member)),
        }
    }
}

/// The `resource` of an embedded resource block: an object with a string
/// `uri` and exactly one of a string `text` and a base64 `blob`.
fn check_embedded(
    block: &Map<String, Value>,
    at: &dyn Fn(Option<&str>) -> Pointer,
    report: &mut Report,
) {
    let Some(resource) = block.get("resource") else {
        report.error(
            rule::CONTENT_BLOCK,
            &at(None),
            "a `resource` block has a `resource` object",
        );
        return;
    };
    let Value::Object(resource) = resource else {
        report.error(
            rule::CONTENT_BLOCK,
            &at(Some("resource")),
            "`resource` must be an object",
        );
        return;
    };
    let resource_at = at(Some("resource"));
    check_resource_contents(
        resource,
        rule::CONTENT_BLOCK,
        &|member| match member {
            Some(member) => resource_at.key(member),
            None => resource_at.clone(),
        },
        report,
    );
}

/// MCP's Resource Contents (`TextResourceContents`, `BlobResourceContents`),
/// an embedded resource's or a Resource example's entry, under `rule`: a
/// URI `uri`, exactly one of a string `text` and a base64 `blob`, a string
/// `mimeType` when there is one, and no other member but `_meta`. A
/// missing member, or both or neither of `text` and `blob`, is reported at
/// `at(None)`, a wrong one at `at(Some(member))`.
pub(super) fn check_resource_contents(
    contents: &Map<String, Value>,
    rule: &'static str,
    at: &dyn Fn(Option<&str>) -> Pointer,
    report: &mut Report,
) {
    for member in contents
        .keys()
        .filter(|member| !RESOURCE_MEMBERS.contains(&member.as_str()))
    {
        report.error(
            rule,
            &at(Some(member)),
            format!("no member `{member}` is defined on Resource Contents"),
        );
    }
    match contents.get("uri") {
        None => report.error(rule, &at(None), "Resource Contents have a `uri`"),
        Some(Value::String(uri)) if is_uri(uri) => {}
        Some(_) => report.error(rule, &at(Some("uri")), "`uri` must be a URI"),
    }
    if let Some(mime_type) = contents.get("mimeType")
        && !mime_type.is_string()
    {
        report.error(rule, &at(Some("mimeType")), "`mimeType` must be a string");
    }
    match (contents.get("text"), contents.get("blob")) {
        (Some(_), Some(_)) | (None, None) => report.error(
            rule,
            &at(None),
            "Resource Contents have exactly one of `text` and `blob`",
        ),
        (Some(Value::String(_)), None) => {}
        (Some(_), None) => report.error(rule, &at(Some("text")), "`text` must be a string"),
        (None, Some(Value::String(blob))) if is_base64(blob) => {}
        (None, Some(_)) => report.error(rule, &at(Some("blob")), "`blob` must be a base64 string"),
    }
}

/// A string `uri` of `object` is a URI (RFC 3986), reported at `at("uri")`
/// when it is not.
fn check_uri(object: &Map<String, Value>, at: &dyn Fn(&str) -> Pointer, report: &mut Report) {
    if let Some(Value::String(uri)) = object.get("uri")
        && !is_uri(uri)
    {
        report.error(rule::CONTENT_BLOCK, &at("uri"), "`uri` is not a URI");
    }
}
