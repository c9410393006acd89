//! Named examples (Sections 10.4.6, 11.3 and 11.4): the example maps of
//! every primitive, and the entries of Prompt examples and of completion
//! examples with the completed results they hold.
//!
//! An example has no protocol scope of its own: its revision-dependent
//! rules apply under a revision its primitive's effective scope includes.
//! A Prompt example may be a Reference Object; what it resolves to is
//! checked where it is used, and every finding inside a referenced example
//! is reported at the use site (the `reference-site` convention).

mod completion;
mod content;
mod expansion;
mod prompt;
mod resource;
mod tool;

pub(crate) use content::{Blocks, check as check_content_block};

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::component::Namespace;
use crate::document::Document;
use crate::meta::{self, Holder};
use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive};
use crate::report::Report;
use crate::rule;
use crate::value::is_local_name;

/// The first revision whose results carry `resultType`.
const RESULT_TYPE: Revision = Revision::of("2026-07-28");

/// The members of a JSON-RPC message (the envelope of a response, the
/// members of a request and of an error) and the task of an unfinished
/// call: none belongs in a completed result (Sections 10.4.4, 11.3 and
/// 11.4).
const NOT_COMPLETED: [&str; 6] = ["jsonrpc", "id", "method", "params", "error", "task"];

/// Where one example is and how its findings are placed.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// The example's entry in its map: `<primitive>/<map>/<name>`.
    pub(crate) entry: Pointer,
    /// Whether the entry is a Reference Object, so that every finding
    /// inside it is reported at [`Place::entry`].
    pub(crate) referenced: bool,
}

impl Place {
    /// A place inside the example, `inside` the entry's own pointer; the
    /// entry when the example is referenced.
    pub(crate) fn within(&self, inside: impl FnOnce(Pointer) -> Pointer) -> Pointer {
        if self.referenced {
            self.entry.clone()
        } else {
            inside(self.entry.clone())
        }
    }

    /// Runs `check` on what the example holds: into `report` when the
    /// example is written inline, and with every finding moved to the
    /// entry when it is referenced.
    pub(crate) fn judge(&self, report: &mut Report, check: impl FnOnce(&mut Report)) {
        if self.referenced {
            let mut inside = Report::default();
            check(&mut inside);
            report.absorb_at(inside, &self.entry);
        } else {
            check(report);
        }
    }

    /// The `_meta` rules on the `_meta` of a `holder` at `at` in the
    /// example, under a `revision` its primitive applies to.
    pub(crate) fn check_meta(
        &self,
        meta: &Value,
        holder: Holder,
        at: &Pointer,
        revision: Revision,
        report: &mut Report,
    ) {
        self.judge(report, |report| {
            meta::check_meta(meta, holder, at, revision, report);
        });
    }
}

/// Runs the example rules under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for primitive in &document.primitives {
        let in_scope = primitive.scope.includes(revision);
        // The map rules run on every kind's `examples`, then the rules of
        // its kind's examples.
        if let Some(examples) = entries(primitive, "examples", report) {
            match primitive.kind {
                Kind::Prompt => {
                    prompt::check(primitive, examples, document, revision, in_scope, report);
                }
                Kind::Tool => {
                    tool::check(primitive, examples, document, revision, in_scope, report)
                }
                Kind::Resource | Kind::ResourceTemplate => {
                    resource::check(primitive, examples, document, revision, in_scope, report);
                }
            }
        }
        if matches!(primitive.kind, Kind::Prompt | Kind::ResourceTemplate)
            && let Some(examples) = entries(primitive, "completionExamples", report)
        {
            completion::check(primitive, examples, revision, in_scope, report);
        }
    }
}

/// `mcpdesc.example.map` and `mcpdesc.example.name` on the example map
/// `member` of `primitive`: a non-empty object whose every name is a local
/// name. Returns its entries when it is an object.
fn entries<'a>(
    primitive: &Primitive<'a>,
    member: &str,
    report: &mut Report,
) -> Option<&'a Map<String, Value>> {
    let map = primitive.object.get(member)?;
    let at = primitive.pointer.key(member);
    let Value::Object(entries) = map else {
        report.error(
            rule::EXAMPLE_MAP,
            &at,
            format!("`{member}` must be an object from example names to examples"),
        );
        return None;
    };
    if entries.is_empty() {
        report.error(
            rule::EXAMPLE_MAP,
            &at,
            format!("`{member}` must name at least one example; leave it out when there is none"),
        );
    }
    for name in entries.keys().filter(|name| !is_local_name(name)) {
        report.error(
            rule::EXAMPLE_NAME,
            &at.key(name),
            "an example name is made of ASCII letters, digits, `.`, `_` and `-`",
        );
    }
    Some(entries)
}

/// The entries of the example map `examples` of `primitive`, each resolved
/// in `namespace` and paired with its place. An entry whose reference does
/// not resolve is the reference rules' to report and is skipped; one that
/// is not an object is reported with `shape` (`what` names the kind) when it
/// is written inline, and left to `mcpdesc.component.structure` when it is
/// a component.
fn resolved<'a>(
    primitive: &Primitive<'a>,
    examples: &'a Map<String, Value>,
    document: &Document<'a>,
    namespace: Namespace,
    (shape, what): (&'static str, &str),
    report: &mut Report,
) -> Vec<(Place, &'a Map<String, Value>)> {
    let mut found = Vec::new();
    for (name, written) in examples {
        let place = Place {
            entry: primitive.pointer.key("examples").key(name),
            referenced: written.get("$componentRef").is_some(),
        };
        let Some(example) = document.components.resolve(written, namespace) else {
            continue;
        };
        match example {
            Value::Object(example) => found.push((place, example)),
            _ if place.referenced => {}
            _ => report.error(
                shape,
                &place.entry,
                format!("a {what} example is an object"),
            ),
        }
    }
    found
}

/// The rules every completed result shares, on an example's `result`
/// object under `revision` (`in_scope`: whether the primitive applies to
/// it): `mcpdesc.example.completed-result` and `mcp.example.result-type`.
fn check_completed(
    result: &Map<String, Value>,
    at: &Place,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let result_at = |member: &str| at.within(|entry| entry.key("result").key(member));
    for member in NOT_COMPLETED
        .iter()
        .filter(|member| result.contains_key(**member))
    {
        report.error(
            rule::EXAMPLE_COMPLETED_RESULT,
            &result_at(member),
            format!("`{member}` belongs to a JSON-RPC message or an unfinished call, not to a completed result"),
        );
    }
    if !in_scope {
        return;
    }
    if let Some(meta) = result.get("_meta") {
        let meta_at = at.entry.key("result").key("_meta");
        at.check_meta(meta, Holder::Result, &meta_at, revision, report);
    }
    let typed = revision >= RESULT_TYPE;
    match (result.get("resultType"), typed) {
        (Some(Value::String(kind)), true) if kind == "complete" => {}
        (None, false) => {}
        (None, true) => report.error(
            rule::EXAMPLE_RESULT_TYPE,
            &at.within(|entry| entry.key("result")),
            format!("under MCP {revision} a completed result has `resultType` \"complete\""),
        ),
        // One finding, at the member, whether the value is wrong or the
        // member should not be there at all.
        (Some(_), _) => report.error(
            rule::EXAMPLE_RESULT_TYPE,
            &result_at("resultType"),
            if typed {
                "a completed result's `resultType` is \"complete\"".to_owned()
            } else {
                format!("MCP {revision} defines no `resultType`")
            },
        ),
    }
}

/// Whether `text` is base64 as RFC 4648 Section 4 writes it: the standard
/// alphabet, padded with `=` to a multiple of four characters, nothing
/// else (no line breaks). The unused bits of the last group are not
/// judged.
pub(crate) fn is_base64(text: &str) -> bool {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|byte| **byte == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/'))
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use super::is_base64;
    use crate::rule::{
        EXAMPLE_COMPLETED_RESULT as COMPLETED, EXAMPLE_MAP as MAP, EXAMPLE_NAME as NAME,
        EXAMPLE_RESULT_TYPE as RESULT_TYPE,
    };
    use crate::tests::{E, assert_findings, assert_findings_beside_legacy, with};

    #[test]
    fn base64_is_the_padded_standard_alphabet() {
        for good in ["", "QQ==", "QUI=", "QUJD", "a+/9", "QR=="] {
            assert!(is_base64(good), "{good:?}");
        }
        for bad in [
            "Q", "QQ=", "QQ", "Q===", "QU JD", "QUJD\n", "QU-_", "=QUJ", "QQ=A",
        ] {
            assert!(!is_base64(bad), "{bad:?}");
        }
    }

    #[test]
    fn example_maps_are_non_empty_objects_of_local_names() {
        let doc = with(json!({
            "tools": [{"name": "t", "inputSchema": {"type": "object"}, "examples": {}}],
            "resources": [{"uri": "file:///a", "name": "a", "examples": []}],
            "resourceTemplates": [{"uriTemplate": "file:///{x}", "name": "x", "completionExamples": 3}],
            "prompts": [{"name": "p", "examples": {"bad name": {"result": {"messages": []}}, "ok.1_-": {"result": {"messages": []}}}}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (NAME, "/prompts/0/examples/bad name", E),
                (MAP, "/resourceTemplates/0/completionExamples", E),
                (MAP, "/resources/0/examples", E),
                (MAP, "/tools/0/examples", E),
            ],
        );
    }

    #[test]
    fn completed_results_have_no_envelope_and_their_result_type_by_revision() {
        let doc = |result: serde_json::Value| {
            with(json!({
                "protocolVersions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
                "prompts": [{"name": "p", "examples": {"e": {"result": result}}}]
            }))
        };
        let at = "/prompts/0/examples/e/result";
        assert_findings(
            &doc(json!({"messages": [], "jsonrpc": "2.0", "id": 1, "task": {}})),
            R2025_11_25,
            &[
                (COMPLETED, &format!("{at}/id"), E),
                (COMPLETED, &format!("{at}/jsonrpc"), E),
                (COMPLETED, &format!("{at}/task"), E),
            ],
        );
        let complete = doc(json!({"messages": [], "resultType": "complete"}));
        assert_findings(&complete, R2026_07_28, &[]);
        for revision in [R2025_06_18, R2025_11_25] {
            assert_findings(
                &complete,
                revision,
                &[(RESULT_TYPE, &format!("{at}/resultType"), E)],
            );
        }
        assert_findings_beside_legacy(
            &complete,
            R2025_03_26,
            &[(RESULT_TYPE, &format!("{at}/resultType"), E)],
        );
        assert_findings(
            &doc(json!({"messages": []})),
            R2026_07_28,
            &[(RESULT_TYPE, at, E)],
        );
        assert_findings(
            &doc(json!({"messages": [], "resultType": "input_required"})),
            R2026_07_28,
            &[(RESULT_TYPE, &format!("{at}/resultType"), E)],
        );
    }

    #[test]
    fn revision_rules_apply_only_within_the_primitives_scope() {
        let doc = with(json!({"prompts": [{
            "name": "p", "protocolVersions": ["2026-07-28"],
            "examples": {"e": {"result": {"messages": [], "resultType": "complete"}}}
        }]}));
        assert_findings(&doc, R2025_11_25, &[]);
    }
}
