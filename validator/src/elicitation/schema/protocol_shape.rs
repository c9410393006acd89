//! What MCP 2025-06-18 leaves out of the form vocabulary (Section 12.3).
//!
//! Rule: `mcp.elicitation.form-schema.protocol-shape`, applicable under
//! 2025-06-18 only, to declarations whose effective scope includes it. It
//! flags a root `$schema`, a property of type `"array"`, a property with
//! `oneOf`, and a `default` on a property whose type is not `"boolean"`: one
//! finding per declaration, at its `requestedSchema`. Legacy `enum` with
//! `enumNames` is allowed.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::component::Site;
use crate::report::Report;
use crate::rule;

/// The one revision whose form vocabulary this rule checks: later revisions
/// widened it.
const ONLY: Revision = Revision::of("2025-06-18");

/// Checks one resolved schema of a declaration in scope of `revision`.
pub(super) fn check(
    schema: &Map<String, Value>,
    site: &Site,
    revision: Revision,
    report: &mut Report,
) {
    if revision != ONLY {
        return;
    }
    if let Some(message) = problem(schema) {
        report.error(
            rule::ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE,
            &site.schema,
            format!("MCP 2025-06-18 forms do not support {message}"),
        );
    }
}

/// The first construct 2025-06-18 does not define, described for a person.
fn problem(schema: &Map<String, Value>) -> Option<String> {
    if schema.contains_key("$schema") {
        return Some("`$schema`".to_owned());
    }
    let properties = schema.get("properties").and_then(Value::as_object)?;
    properties.iter().find_map(|(name, property)| {
        let property = property.as_object()?;
        let kind = property.get("type").and_then(Value::as_str);
        if kind == Some("array") {
            Some(format!("array properties such as `{name}`"))
        } else if property.contains_key("oneOf") {
            Some(format!("titled `oneOf` enums such as `{name}`"))
        } else if property.contains_key("default") && kind != Some("boolean") {
            Some(format!("a `default` on the non-boolean property `{name}`"))
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE as PROTOCOL_SHAPE;
    use crate::tests::{E, assert_findings, form, prompt_with};

    const AT: &str = "/prompts/0/elicitations/0/requestedSchema";

    fn property(schema: Value) -> Value {
        json!({"type": "object", "properties": {"p": schema}})
    }

    fn flagged_only_under_2025_06_18(schema: Value) {
        let doc = prompt_with(vec![form(json!({"requestedSchema": schema}))]);
        for revision in [R2025_06_18, R2025_11_25, R2026_07_28] {
            let expected: &[_] = if revision == R2025_06_18 {
                &[(PROTOCOL_SHAPE, AT, E)]
            } else {
                &[]
            };
            assert_findings(&doc, revision, expected);
        }
    }

    #[test]
    fn later_additions_are_flagged_under_2025_06_18() {
        flagged_only_under_2025_06_18(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {}
        }));
        flagged_only_under_2025_06_18(property(
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}),
        ));
        flagged_only_under_2025_06_18(property(
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}),
        ));
        for default in [
            json!({"type": "string", "default": "a"}),
            json!({"type": "number", "default": 1}),
            json!({"type": "string", "enum": ["a"], "default": "a"}),
        ] {
            flagged_only_under_2025_06_18(property(default));
        }
    }

    #[test]
    fn one_finding_per_declaration() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "a": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
                "b": {"type": "string", "default": "x"}
            }
        });
        flagged_only_under_2025_06_18(schema);
    }

    #[test]
    fn the_2025_06_18_vocabulary_passes() {
        let doc = prompt_with(vec![form(json!({"requestedSchema": {
            "type": "object",
            "properties": {
                "s": {"type": "string", "minLength": 1, "format": "date"},
                "n": {"type": "integer", "maximum": 4},
                "b": {"type": "boolean", "default": true},
                "e": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}
            },
            "required": ["s"]
        }}))]);
        for revision in all().into_iter().skip(2) {
            assert_findings(&doc, revision, &[]);
        }
    }
}
