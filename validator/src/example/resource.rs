//! Named Resource and Resource Template examples (Section 10.4): one
//! `resources/read` of the Resource's URI, or of a concrete URI the
//! template expands to, and its completed result.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::content::check_resource_contents;
use super::expansion::expands_to;
use super::{Place, RESULT_TYPE, check_completed, is_base64, resolved};
use crate::component::Namespace;
use crate::document::Document;
use crate::meta::Holder;
use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive};
use crate::report::Report;
use crate::rule;
use crate::value::{is_extension, is_uri};

/// The values of `cacheScope`.
const CACHE_SCOPES: [&str; 2] = ["public", "private"];

/// What the containing declaration says of the example.
struct Declared<'a> {
    /// The requested URI of a static Resource's examples.
    uri: Option<&'a str>,
    /// The declaration's `mimeType`.
    mime_type: Option<&'a str>,
    /// A static Resource's `size`.
    size: Option<f64>,
    /// A Resource Template's `uriTemplate`.
    template: Option<&'a str>,
}

/// The Resource example rules on the `examples` entries of `primitive` (a
/// Resource or a Resource Template).
pub(super) fn check(
    primitive: &Primitive<'_>,
    examples: &Map<String, Value>,
    document: &Document<'_>,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let templated = primitive.kind == Kind::ResourceTemplate;
    let text = |member: &str| primitive.object.get(member).and_then(Value::as_str);
    let declared = Declared {
        uri: text("uri").filter(|_| !templated),
        mime_type: text("mimeType"),
        size: primitive
            .object
            .get("size")
            .and_then(Value::as_f64)
            .filter(|_| !templated),
        template: text("uriTemplate").filter(|_| templated),
    };
    let namespace = if templated {
        Namespace::ResourceTemplateExamples
    } else {
        Namespace::ResourceExamples
    };
    for (place, example) in resolved(
        primitive,
        examples,
        document,
        namespace,
        (rule::RESOURCE_EXAMPLE_SHAPE, "Resource"),
        report,
    ) {
        let requested = check_members(example, templated, &declared, &place, report);
        match example.get("result") {
            None => {}
            Some(Value::Object(result)) => {
                check_completed(result, &place, revision, in_scope, report);
                check_cache_fields(result, &place, revision, in_scope, report);
                let scope = (revision, in_scope);
                check_contents(result, requested, &declared, &place, scope, report);
            }
            Some(_) => report.error(
                rule::RESOURCE_EXAMPLE_RESULT,
                &place.within(|entry| entry.key("result")),
                "`result` must be an object",
            ),
        }
    }
}

/// `mcpdesc.resource-example.shape` on the members of one example: a
/// `result`, a URI `uri` on a template's example and none on a static
/// Resource's, nothing else but `x-` extensions; then
/// `mcpdesc.resource-template-example.expansion` on a template example's
/// `uri`. Returns the URI the example reads.
fn check_members<'a>(
    example: &'a Map<String, Value>,
    templated: bool,
    declared: &Declared<'a>,
    place: &Place,
    report: &mut Report,
) -> Option<&'a str> {
    if !example.contains_key("result") {
        report.error(
            rule::RESOURCE_EXAMPLE_SHAPE,
            &place.entry,
            "`result` is missing",
        );
    }
    for member in example.keys().filter(|member| {
        !(member.as_str() == "result"
            || (templated && member.as_str() == "uri")
            || is_extension(member))
    }) {
        report.error(
            rule::RESOURCE_EXAMPLE_SHAPE,
            &place.within(|entry| entry.key(member)),
            format!(
                "no member `{member}` is defined on this Resource example (a static Resource's names no `uri`: the Resource gives it)"
            ),
        );
    }
    if !templated {
        return declared.uri;
    }
    let at = place.within(|entry| entry.key("uri"));
    let uri = match example.get("uri") {
        None => {
            report.error(
                rule::RESOURCE_EXAMPLE_SHAPE,
                &place.entry,
                "`uri` is missing: a template's example names the concrete URI it reads",
            );
            return None;
        }
        Some(Value::String(uri)) if is_uri(uri) => uri.as_str(),
        Some(_) => {
            report.error(rule::RESOURCE_EXAMPLE_SHAPE, &at, "`uri` must be a URI");
            return None;
        }
    };
    if let Some(template) = declared.template
        && expands_to(template, uri) == Some(false)
    {
        report.error(
            rule::RESOURCE_TEMPLATE_EXAMPLE_EXPANSION,
            &at,
            format!("`{uri}` is not an expansion of the template `{template}`"),
        );
    }
    Some(uri)
}

/// `mcp.resource-example.cache-fields`, under a revision the declaration
/// applies to: from 2026-07-28 a non-negative number `ttlMs` and a
/// `cacheScope` of "public" or "private"; before it neither.
fn check_cache_fields(
    result: &Map<String, Value>,
    place: &Place,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    if !in_scope {
        return;
    }
    let at = place.within(|entry| entry.key("result"));
    let member = |member: &str| place.within(|_| at.key(member));
    if revision < RESULT_TYPE {
        for present in ["ttlMs", "cacheScope"]
            .into_iter()
            .filter(|name| result.contains_key(*name))
        {
            report.error(
                rule::RESOURCE_EXAMPLE_CACHE_FIELDS,
                &member(present),
                format!("MCP {revision} defines no `{present}` on a read result"),
            );
        }
        return;
    }
    match result.get("ttlMs") {
        None => report.error(
            rule::RESOURCE_EXAMPLE_CACHE_FIELDS,
            &at,
            format!("under MCP {revision} a read result has `ttlMs`"),
        ),
        Some(Value::Number(ttl)) if ttl.as_f64().is_some_and(|ttl| ttl >= 0.0) => {}
        Some(_) => report.error(
            rule::RESOURCE_EXAMPLE_CACHE_FIELDS,
            &member("ttlMs"),
            "`ttlMs` is a non-negative number",
        ),
    }
    match result.get("cacheScope") {
        None => report.error(
            rule::RESOURCE_EXAMPLE_CACHE_FIELDS,
            &at,
            format!("under MCP {revision} a read result has `cacheScope`"),
        ),
        Some(Value::String(scope)) if CACHE_SCOPES.contains(&scope.as_str()) => {}
        Some(_) => report.error(
            rule::RESOURCE_EXAMPLE_CACHE_FIELDS,
            &member("cacheScope"),
            "`cacheScope` is \"public\" or \"private\"",
        ),
    }
}

/// `mcp.resource-example.result` on the `contents` of a result: a
/// non-empty array of Resource Contents, each an object with a URI `uri`
/// and exactly one of a string `text` and a base64 `blob`, and nothing
/// else but `mimeType` and `_meta`; with the warnings on the entries that
/// name the `requested` URI.
fn check_contents(
    result: &Map<String, Value>,
    requested: Option<&str>,
    declared: &Declared<'_>,
    place: &Place,
    (revision, in_scope): (Revision, bool),
    report: &mut Report,
) {
    let at = place.within(|entry| entry.key("result"));
    let contents = match result.get("contents") {
        None => {
            report.error(rule::RESOURCE_EXAMPLE_RESULT, &at, "`contents` is missing");
            return;
        }
        Some(Value::Array(contents)) if !contents.is_empty() => contents,
        Some(_) => {
            report.error(
                rule::RESOURCE_EXAMPLE_RESULT,
                &place.within(|_| at.key("contents")),
                "`contents` is a non-empty array of Resource Contents",
            );
            return;
        }
    };
    for (index, entry) in contents.iter().enumerate() {
        let entry_at = at.key("contents").index(index);
        let here = |member: Option<&str>| {
            place.within(|_| match member {
                Some(member) => entry_at.key(member),
                None => entry_at.clone(),
            })
        };
        let Value::Object(entry) = entry else {
            report.error(
                rule::RESOURCE_EXAMPLE_RESULT,
                &here(None),
                "a contents entry is an object",
            );
            continue;
        };
        check_resource_contents(entry, rule::RESOURCE_EXAMPLE_RESULT, &here, report);
        if in_scope && let Some(meta) = entry.get("_meta") {
            place.check_meta(
                meta,
                Holder::Content,
                &entry_at.key("_meta"),
                revision,
                report,
            );
        }
        if requested.is_some() && entry.get("uri").and_then(Value::as_str) == requested {
            check_consistency(entry, declared, &here, report);
        }
    }
}

/// The warnings on an entry that names the requested URI:
/// `mcpdesc.resource-example.mime-type` when its MIME type is not the
/// declaration's, and `mcpdesc.resource-example.size` when a static
/// Resource's `size` is not its byte count.
fn check_consistency(
    entry: &Map<String, Value>,
    declared: &Declared<'_>,
    here: &dyn Fn(Option<&str>) -> Pointer,
    report: &mut Report,
) {
    if let (Some(declared), Some(Value::String(returned))) =
        (declared.mime_type, entry.get("mimeType"))
        && essence(declared) != essence(returned)
    {
        report.warning(
            rule::RESOURCE_EXAMPLE_MIME_TYPE,
            &here(Some("mimeType")),
            format!("the declaration's MIME type is `{declared}`"),
        );
    }
    let Some(size) = declared.size else {
        return;
    };
    let bytes = match (entry.get("text"), entry.get("blob")) {
        (Some(Value::String(text)), None) => text.len(),
        (None, Some(Value::String(blob))) if is_base64(blob) => decoded_length(blob),
        _ => return,
    };
    if bytes as f64 != size {
        report.warning(
            rule::RESOURCE_EXAMPLE_SIZE,
            &here(None),
            format!("the Resource declares {size} bytes; this entry has {bytes}"),
        );
    }
}

/// A MIME type's type and subtype, lower-cased, without parameters.
fn essence(mime_type: &str) -> String {
    mime_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// How many bytes the base64 text `blob` decodes to.
fn decoded_length(blob: &str) -> usize {
    let padding = blob.bytes().rev().take_while(|byte| *byte == b'=').count();
    blob.len() / 4 * 3 - padding
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use super::decoded_length;
    use crate::rule::{
        EXAMPLE_RESULT_TYPE as RESULT_TYPE, RESOURCE_EXAMPLE_CACHE_FIELDS as CACHE,
        RESOURCE_EXAMPLE_MIME_TYPE as MIME, RESOURCE_EXAMPLE_RESULT as RESULT,
        RESOURCE_EXAMPLE_SHAPE as SHAPE, RESOURCE_EXAMPLE_SIZE as SIZE,
        RESOURCE_TEMPLATE_EXAMPLE_EXPANSION as EXPANSION,
    };
    use crate::tests::{E, W, assert_findings, with};

    fn doc(resource: Value) -> Value {
        with(json!({"resources": [resource]}))
    }

    fn contents(entries: Value) -> Value {
        json!({"contents": entries})
    }

    #[test]
    fn blob_lengths_are_decoded_lengths() {
        assert_eq!(decoded_length("QUJD"), 3);
        assert_eq!(decoded_length("QUI="), 2);
        assert_eq!(decoded_length("QQ=="), 1);
        assert_eq!(decoded_length(""), 0);
    }

    #[test]
    fn static_examples_have_a_result_and_no_uri_of_their_own() {
        let document = doc(json!({
            "uri": "chess://ratings", "name": "ratings", "protocolVersions": ["2025-11-25"],
            "examples": {
                "e": {"uri": "chess://ratings", "result": contents(json!([{"uri": "chess://ratings", "text": "1850"}])), "x-a": 1},
                "f": {"summary": "s"},
                "g": 3
            }
        }));
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (SHAPE, "/resources/0/examples/e/uri", E),
                (SHAPE, "/resources/0/examples/f", E),
                (SHAPE, "/resources/0/examples/f/summary", E),
                (SHAPE, "/resources/0/examples/g", E),
            ],
        );
    }

    #[test]
    fn contents_are_non_empty_and_each_entry_is_text_or_blob_at_a_uri() {
        let at = "/resources/0/examples/e/result";
        let judged = |result: Value| {
            doc(
                json!({"uri": "chess://r", "name": "r", "protocolVersions": ["2025-11-25"], "examples": {"e": {"result": result}}}),
            )
        };
        assert_findings(&judged(json!({})), R2025_11_25, &[(RESULT, at, E)]);
        assert_findings(
            &judged(contents(json!([]))),
            R2025_11_25,
            &[(RESULT, &format!("{at}/contents"), E)],
        );
        assert_findings(
            &judged(contents(json!([
                {"uri": "chess://r", "text": "a", "blob": "QQ=="},
                {"text": "a"},
                {"uri": "not a uri", "blob": "Q"},
                {"uri": "chess://r", "text": 1, "annotations": {}},
                "entry"
            ]))),
            R2025_11_25,
            &[
                (RESULT, &format!("{at}/contents/0"), E),
                (RESULT, &format!("{at}/contents/1"), E),
                (RESULT, &format!("{at}/contents/2/blob"), E),
                (RESULT, &format!("{at}/contents/2/uri"), E),
                (RESULT, &format!("{at}/contents/3/annotations"), E),
                (RESULT, &format!("{at}/contents/3/text"), E),
                (RESULT, &format!("{at}/contents/4"), E),
            ],
        );
    }

    #[test]
    fn cache_fields_and_result_type_belong_to_2026_07_28_alone() {
        let at = "/resources/0/examples/e/result";
        let judged = |scope: &str, result: Value| {
            doc(
                json!({"uri": "chess://r", "name": "r", "protocolVersions": [scope], "examples": {"e": {"result": result}}}),
            )
        };
        let entry = json!([{"uri": "chess://r", "text": "a"}]);
        assert_findings(
            &judged(
                "2026-07-28",
                json!({"contents": entry, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}),
            ),
            R2026_07_28,
            &[],
        );
        assert_findings(
            &judged("2026-07-28", json!({"contents": entry})),
            R2026_07_28,
            &[(CACHE, at, E), (RESULT_TYPE, at, E)],
        );
        assert_findings(
            &judged(
                "2026-07-28",
                json!({"contents": entry, "resultType": "complete", "ttlMs": -1, "cacheScope": "shared"}),
            ),
            R2026_07_28,
            &[
                (CACHE, &format!("{at}/cacheScope"), E),
                (CACHE, &format!("{at}/ttlMs"), E),
            ],
        );
        assert_findings(
            &judged(
                "2025-11-25",
                json!({"contents": entry, "ttlMs": 10, "cacheScope": "public"}),
            ),
            R2025_11_25,
            &[
                (CACHE, &format!("{at}/cacheScope"), E),
                (CACHE, &format!("{at}/ttlMs"), E),
            ],
        );
    }

    #[test]
    fn template_examples_read_an_expansion_of_the_template() {
        let document = with(json!({"resourceTemplates": [{
            "uriTemplate": "chess://players/{id}", "name": "player", "protocolVersions": ["2025-11-25"],
            "examples": {
                "good": {"uri": "chess://players/p7", "result": contents(json!([{"uri": "chess://players/p7", "text": "p7"}]))},
                "other": {"uri": "chess://games/g1", "result": contents(json!([{"uri": "chess://games/g1", "text": "g1"}]))},
                "none": {"result": contents(json!([{"uri": "chess://players/p7", "text": "p7"}]))},
                "bad": {"uri": "not a uri", "result": contents(json!([{"uri": "chess://players/p7", "text": "p7"}]))}
            }
        }]}));
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (SHAPE, "/resourceTemplates/0/examples/bad/uri", E),
                (SHAPE, "/resourceTemplates/0/examples/none", E),
                (EXPANSION, "/resourceTemplates/0/examples/other/uri", E),
            ],
        );
    }

    #[test]
    fn the_entry_for_the_requested_uri_is_compared_with_the_declaration() {
        let document = doc(json!({
            "uri": "chess://r", "name": "r", "mimeType": "text/plain", "size": 4,
            "protocolVersions": ["2025-11-25"],
            "examples": {"e": {"result": contents(json!([
                {"uri": "chess://r", "mimeType": "Text/Plain; charset=utf-8", "text": "abcd"},
                {"uri": "chess://r", "mimeType": "application/json", "blob": "QUJD"},
                {"uri": "chess://other", "mimeType": "image/png", "blob": "QQ=="}
            ]))}}
        }));
        let at = "/resources/0/examples/e/result/contents";
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (MIME, &format!("{at}/1/mimeType"), W),
                (SIZE, &format!("{at}/1"), W),
            ],
        );
    }
}
