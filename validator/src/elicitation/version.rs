//! Which MCP revisions have elicitation at all, and which have URL mode.
//!
//! Rule: `mcp.elicitation.protocol-version`, applicable under every revision.
//! Under revision R, a declaration or a Tool interaction elicitation step
//! whose effective scope includes R is an error when R is before 2025-06-18,
//! and also, when its mode is exactly `"url"`, when R is before 2025-11-25.

use mcpdesc_protocol::Revision;
use serde_json::Value;

use super::{Declaration, Mode};
use crate::document::Document;
use crate::pointer::Pointer;
use crate::primitive::Kind;
use crate::report::Report;
use crate::rule;

/// The first revision with elicitation (form mode only).
const FIRST: Revision = Revision::of("2025-06-18");

/// The first revision with URL-mode elicitation.
const FIRST_WITH_URL: Revision = Revision::of("2025-11-25");

/// Why `revision` cannot carry an elicitation in `mode`, if it cannot.
fn problem(revision: Revision, mode: Mode) -> Option<String> {
    if revision < FIRST {
        Some(format!(
            "MCP {revision} has no elicitation; it starts with {FIRST}"
        ))
    } else if mode == Mode::Url && revision < FIRST_WITH_URL {
        Some(format!(
            "MCP {revision} has no URL-mode elicitation; it starts with {FIRST_WITH_URL}"
        ))
    } else {
        None
    }
}

/// Checks one declaration, when its scope includes `revision`.
pub(super) fn check_declaration(
    declaration: &Declaration<'_>,
    revision: Revision,
    report: &mut Report,
) {
    if !declaration.scope.includes(revision) {
        return;
    }
    if let Some(message) = problem(revision, declaration.mode) {
        report.error(
            rule::ELICITATION_PROTOCOL_VERSION,
            &declaration.pointer,
            message,
        );
    }
}

/// Checks the elicitation steps of every Tool interaction example, for Tools
/// whose scope includes `revision` (examples have no scope of their own).
///
/// Only steps whose `type` is exactly `"elicitation"` count. Examples and
/// steps that are malformed are skipped, but a step's type alone says that
/// the tool elicits, so its request only decides the mode: a request that is
/// not an object, or has no `mode`, is form mode. The finding is at the
/// step's `request`, or at the step when it has none.
pub(super) fn check_steps(document: &Document<'_>, revision: Revision, report: &mut Report) {
    let tools = document
        .primitives
        .iter()
        .filter(|primitive| primitive.kind == Kind::Tool && primitive.scope.includes(revision));
    for tool in tools {
        let Some(Value::Object(examples)) = tool.object.get("interactionExamples") else {
            continue;
        };
        let at = tool.pointer.key("interactionExamples");
        for (name, example) in examples {
            let Some(Value::Array(steps)) = example.as_object().and_then(|e| e.get("steps")) else {
                continue;
            };
            let at = at.key(name).key("steps");
            for (index, step) in steps.iter().enumerate() {
                if let Some((at, mode)) = elicitation_step(step, at.index(index))
                    && let Some(message) = problem(revision, mode)
                {
                    report.error(rule::ELICITATION_PROTOCOL_VERSION, &at, message);
                }
            }
        }
    }
}

/// Where an elicitation step is reported and its mode; `None` for steps of
/// other types and steps that are not objects.
fn elicitation_step(step: &Value, at: Pointer) -> Option<(Pointer, Mode)> {
    let step = step.as_object()?;
    if step.get("type").and_then(Value::as_str) != Some("elicitation") {
        return None;
    }
    match step.get("request") {
        None => Some((at, Mode::Form)),
        Some(Value::Object(request)) => {
            let mode = match request.get("mode") {
                None => Mode::Form,
                present => Mode::of(present),
            };
            Some((at.key("request"), mode))
        }
        Some(_) => Some((at.key("request"), Mode::Form)),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use mcpdesc_protocol::Revision;
    use serde_json::{Value, json};

    use crate::rule::{
        ELICITATION_MODE as MODE, ELICITATION_PROTOCOL_VERSION as VERSION,
        PROTOCOL_LEGACY_VALIDATION_INCOMPLETE as LEGACY,
    };
    use crate::tests::{E, W, assert_findings, findings, form, tool, url, with};

    const ALL_FIVE: [&str; 5] = [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ];

    fn version_findings(doc: &Value, revision: Revision) -> Vec<String> {
        findings(doc, revision)
            .into_iter()
            .filter(|(rule, _, _)| rule == VERSION)
            .map(|(_, path, _)| path)
            .collect()
    }

    #[test]
    fn form_declarations_need_2025_06_18_and_url_ones_2025_11_25() {
        let doc = with(json!({
            "protocolVersions": ALL_FIVE,
            "tools": [tool(json!({"elicitations": [form(json!({})), url(json!({"name": "u"}))]}))]
        }));
        let at = |i: usize| format!("/tools/0/elicitations/{i}");
        assert_eq!(version_findings(&doc, R2024_11_05), [at(0), at(1)]);
        assert_eq!(version_findings(&doc, R2025_03_26), [at(0), at(1)]);
        assert_eq!(version_findings(&doc, R2025_06_18), [at(1)]);
        assert_eq!(version_findings(&doc, R2025_11_25), Vec::<String>::new());
        assert_eq!(version_findings(&doc, R2026_07_28), Vec::<String>::new());
    }

    #[test]
    fn only_declarations_in_scope_are_checked() {
        let doc = with(json!({
            "protocolVersions": ALL_FIVE,
            "tools": [tool(json!({"elicitations": [
                url(json!({"protocolVersions": ["2025-11-25", "2026-07-28"]})),
                form(json!({"name": "f", "protocolVersions": ["2025-06-18"]}))
            ]}))]
        }));
        for revision in all() {
            assert_eq!(
                version_findings(&doc, revision),
                Vec::<String>::new(),
                "{revision}"
            );
        }
    }

    #[test]
    fn declarations_inherit_the_primitive_scope() {
        let doc = with(json!({
            "protocolVersions": ALL_FIVE,
            "tools": [tool(json!({
                "protocolVersions": ["2025-06-18"],
                "elicitations": [url(json!({}))]
            }))]
        }));
        assert_eq!(version_findings(&doc, R2024_11_05), Vec::<String>::new());
        assert_eq!(
            version_findings(&doc, R2025_06_18),
            ["/tools/0/elicitations/0"]
        );
        assert_eq!(version_findings(&doc, R2025_11_25), Vec::<String>::new());
    }

    #[test]
    fn an_invalid_mode_is_checked_against_the_first_threshold_only() {
        let doc = with(json!({
            "protocolVersions": ALL_FIVE,
            "tools": [tool(json!({"elicitations": [url(json!({"mode": "URL"}))]}))]
        }));
        assert_eq!(
            version_findings(&doc, R2025_03_26),
            ["/tools/0/elicitations/0"]
        );
        assert_eq!(version_findings(&doc, R2025_06_18), Vec::<String>::new());
        assert_findings(
            &doc,
            R2025_06_18,
            &[(MODE, "/tools/0/elicitations/0/mode", E)],
        );
    }

    #[test]
    fn legacy_documents_get_the_warning_and_the_error() {
        let doc = with(json!({
            "protocolVersions": ["2024-11-05"],
            "prompts": [{"name": "p", "elicitations": [form(json!({}))]}]
        }));
        assert_findings(
            &doc,
            R2024_11_05,
            &[
                (VERSION, "/prompts/0/elicitations/0", E),
                (LEGACY, "/protocolVersions", W),
            ],
        );
    }

    fn steps(steps: Value) -> Value {
        json!({"example": {"input": {}, "steps": steps, "result": {"content": []}}})
    }

    #[test]
    fn interaction_steps_follow_the_same_thresholds() {
        let doc = with(json!({
            "protocolVersions": ALL_FIVE,
            "tools": [tool(json!({"interactionExamples": steps(json!([
                {"type": "elicitation", "request": {"mode": "url", "message": "m", "url": "https://a.example"}},
                {"type": "elicitation", "request": {"mode": "form", "message": "m", "requestedSchema": {}}},
                {"type": "elicitation", "request": {"message": "no mode is form mode"}},
                {"type": "elicitation"},
                {"type": "sampling", "request": {"mode": "url"}},
                {"type": "Elicitation", "request": {"mode": "url"}},
                {"type": "elicitation", "request": "malformed"},
                "malformed",
                {"type": "elicitation", "request": {"mode": 5}}
            ]))}))]
        }));
        let at = |i: usize, request: bool| {
            let step = format!("/tools/0/interactionExamples/example/steps/{i}");
            if request {
                format!("{step}/request")
            } else {
                step
            }
        };
        let legacy = [
            at(0, true),
            at(1, true),
            at(2, true),
            at(3, false),
            at(6, true),
            at(8, true),
        ];
        assert_eq!(version_findings(&doc, R2024_11_05), legacy);
        assert_eq!(version_findings(&doc, R2025_06_18), [at(0, true)]);
        assert_eq!(version_findings(&doc, R2025_11_25), Vec::<String>::new());
    }

    #[test]
    fn steps_take_the_tool_scope() {
        let doc = with(json!({
            "protocolVersions": ["2025-06-18", "2025-11-25"],
            "tools": [
                tool(json!({
                    "protocolVersions": ["2025-11-25"],
                    "interactionExamples": steps(json!([{"type": "elicitation", "request": {"mode": "url"}}]))
                })),
                tool(json!({
                    "interactionExamples": steps(json!([{"type": "elicitation", "request": {"mode": "url"}}]))
                }))
            ]
        }));
        assert_eq!(
            version_findings(&doc, R2025_06_18),
            ["/tools/1/interactionExamples/example/steps/0/request"]
        );
        assert_eq!(version_findings(&doc, R2025_11_25), Vec::<String>::new());
    }

    #[test]
    fn interaction_examples_of_other_primitives_and_malformed_ones_are_ignored() {
        let doc = with(json!({
            "protocolVersions": ["2024-11-05"],
            "prompts": [{"name": "p", "interactionExamples": steps(json!([{"type": "elicitation"}]))}],
            "tools": [
                tool(json!({"interactionExamples": [{"steps": [{"type": "elicitation"}]}]})),
                tool(json!({"interactionExamples": {"a": "x", "b": {"steps": {"0": {"type": "elicitation"}}}}}))
            ]
        }));
        assert_eq!(version_findings(&doc, R2024_11_05), Vec::<String>::new());
    }

    #[test]
    fn example_names_are_escaped() {
        let doc = with(json!({
            "protocolVersions": ["2025-06-18"],
            "tools": [tool(json!({"interactionExamples": {
                "a/b~c": {"steps": [{"type": "elicitation", "request": {"mode": "url"}}]}
            }}))]
        }));
        assert_eq!(
            version_findings(&doc, R2025_06_18),
            ["/tools/0/interactionExamples/a~1b~0c/steps/0/request"]
        );
    }
}
