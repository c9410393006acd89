//! Whether a Tool schema accepts a value (Sections 9.2 and 9.3): a Tool
//! example's `input` against `inputSchema`, its structured content against
//! `outputSchema`.
//!
//! From MCP 2025-11-25 a Tool schema is JSON Schema under its declared or
//! default dialect, and a value is evaluated against it by a JSON Schema
//! engine. Earlier revisions define only the object-rooted shape, so only
//! what that shape says is enforced (the `required` names), and an
//! evaluation of a schema that says more is incomplete: inventing a
//! dialect for it is what the text forbids.

use jsonschema::Draft;
use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::schema::{DEEPEST, DIALECTS, Dialect, depth};

/// What evaluating a value against a Tool schema under one revision found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The schema rejects the value.
    pub(crate) rejected: bool,
    /// The evaluation could not take every constraint of the schema into
    /// account, so an acceptance is not a complete one.
    pub(crate) incomplete: bool,
}

impl Verdict {
    /// A complete evaluation's outcome.
    fn complete(rejected: bool) -> Self {
        Verdict {
            rejected,
            incomplete: false,
        }
    }

    /// An evaluation that could not be made at all.
    const IMPOSSIBLE: Verdict = Verdict {
        rejected: false,
        incomplete: true,
    };
}

/// The members of a Tool schema that every revision's shape defines, and
/// that say all a schema before 2025-11-25 can say without a dialect.
const SHAPE: [&str; 3] = ["type", "properties", "required"];

/// Evaluates `value` against the Tool schema `schema` under `revision`;
/// `None` when the schema is itself in error under that revision (a
/// dialect this validator does not support, a schema its dialect's
/// meta-schema rejects), which the schema rules report and which leaves
/// nothing to judge the value against.
pub(crate) fn evaluate(
    schema: &Map<String, Value>,
    value: &Value,
    revision: Revision,
) -> Option<Verdict> {
    if revision < DIALECTS {
        return Some(evaluate_shape(schema, value));
    }
    evaluate_json_schema(schema, value)
}

/// Whether the JSON Schema `schema` accepts `value`, evaluated under its
/// declared or default dialect as from 2025-11-25; `None` when that cannot
/// be told in full (the schema is in error, or cannot be compiled). The
/// accepted `content` of a form elicitation step is judged so.
pub(crate) fn accepts(schema: &Map<String, Value>, value: &Value) -> Option<bool> {
    let verdict = evaluate_json_schema(schema, value)?;
    (!verdict.incomplete).then_some(!verdict.rejected)
}

/// The evaluation from 2025-11-25 on, as [`evaluate`] describes it.
fn evaluate_json_schema(schema: &Map<String, Value>, value: &Value) -> Option<Verdict> {
    let dialect = Dialect::of(schema)?;
    if depth(schema) > DEEPEST {
        return Some(Verdict::IMPOSSIBLE);
    }
    let schema = Value::Object(schema.clone());
    if !dialect.admits(&schema) {
        return None;
    }
    let draft = match dialect {
        Dialect::Draft202012 => Draft::Draft202012,
        Dialect::Draft7 => Draft::Draft7,
    };
    // A reference the engine cannot resolve (outside the schema, which is
    // never retrieved, or to a place the schema lacks) leaves the schema
    // uncompiled, and the value unjudged.
    match jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(false)
        .build(&schema)
    {
        Ok(validator) => Some(Verdict::complete(!validator.is_valid(value))),
        Err(_) => Some(Verdict::IMPOSSIBLE),
    }
}

/// The evaluation before 2025-11-25: an object `value` gives every name the
/// schema's `required` lists; it is complete only when the schema says
/// nothing else (members beyond `type`, `properties` and `required`, or a
/// property whose schema is not empty, constrain values in a dialect the
/// revision does not name).
fn evaluate_shape(schema: &Map<String, Value>, value: &Value) -> Verdict {
    let rejected = match (schema.get("required"), value) {
        (Some(Value::Array(names)), Value::Object(given)) => names
            .iter()
            .filter_map(Value::as_str)
            .any(|name| !given.contains_key(name)),
        _ => false,
    };
    let only_shape = schema.keys().all(|member| SHAPE.contains(&member.as_str()));
    let bare_properties = match schema.get("properties") {
        None => true,
        Some(Value::Object(properties)) => properties
            .values()
            .all(|property| property.as_object().is_some_and(Map::is_empty)),
        Some(_) => false,
    };
    Verdict {
        rejected,
        incomplete: !(only_shape && bare_properties),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use super::{Verdict, evaluate};

    fn verdict(schema: Value, value: Value, revision: mcpdesc_protocol::Revision) -> Verdict {
        let Value::Object(schema) = schema else {
            panic!("a schema object")
        };
        evaluate(&schema, &value, revision).expect("a schema to judge against")
    }

    const ACCEPTED: Verdict = Verdict {
        rejected: false,
        incomplete: false,
    };
    const REJECTED: Verdict = Verdict {
        rejected: true,
        incomplete: false,
    };

    #[test]
    fn from_2025_11_25_the_schema_is_evaluated_as_json_schema() {
        let schema = json!({
            "type": "object",
            "properties": {"pgn": {"type": "string"}, "depth": {"type": "integer", "maximum": 40}},
            "required": ["pgn"],
            "additionalProperties": false
        });
        for revision in [R2025_11_25, R2026_07_28] {
            assert_eq!(
                verdict(schema.clone(), json!({"pgn": "e4"}), revision),
                ACCEPTED
            );
            for bad in [
                json!({}),
                json!({"pgn": "e4", "depth": 41}),
                json!({"pgn": "e4", "depth": "deep"}),
                json!({"pgn": "e4", "extra": 1}),
            ] {
                assert_eq!(verdict(schema.clone(), bad, revision), REJECTED);
            }
        }
    }

    #[test]
    fn formats_are_annotations_and_local_references_are_followed() {
        let schema = json!({
            "type": "object",
            "$defs": {"mail": {"type": "string", "format": "email"}},
            "properties": {"to": {"$ref": "#/$defs/mail"}}
        });
        assert_eq!(
            verdict(schema.clone(), json!({"to": "not an address"}), R2025_11_25),
            ACCEPTED
        );
        assert_eq!(verdict(schema, json!({"to": 3}), R2025_11_25), REJECTED);
    }

    #[test]
    fn a_reference_that_cannot_be_resolved_leaves_the_evaluation_incomplete() {
        for target in [
            "https://example.com/s.json",
            "#/$defs/missing",
            "other.json",
        ] {
            let schema = json!({"type": "object", "properties": {"a": {"$ref": target}}});
            assert_eq!(
                verdict(schema, json!({"a": 1}), R2026_07_28),
                Verdict::IMPOSSIBLE,
                "{target}"
            );
        }
    }

    #[test]
    fn a_schema_in_error_leaves_nothing_to_judge() {
        for schema in [
            json!({"type": "object", "$schema": "https://example.com/dialect"}),
            json!({"type": "object", "properties": 3}),
        ] {
            let Value::Object(schema) = schema else {
                unreachable!()
            };
            assert_eq!(evaluate(&schema, &json!({}), R2025_11_25), None);
        }
    }

    #[test]
    fn before_2025_11_25_only_required_names_are_enforced() {
        let bare = json!({"type": "object", "properties": {"pgn": {}}, "required": ["pgn"]});
        let typed = json!({"type": "object", "properties": {"pgn": {"type": "string"}}, "required": ["pgn"]});
        for revision in [R2024_11_05, R2025_03_26, R2025_06_18] {
            assert_eq!(verdict(bare.clone(), json!({"pgn": 1}), revision), ACCEPTED);
            assert_eq!(verdict(bare.clone(), json!({}), revision), REJECTED);
            assert_eq!(
                verdict(typed.clone(), json!({"pgn": 1}), revision),
                Verdict {
                    rejected: false,
                    incomplete: true
                }
            );
            assert_eq!(
                verdict(typed.clone(), json!({"other": 1}), revision),
                Verdict {
                    rejected: true,
                    incomplete: true
                }
            );
            for more in [
                json!({"type": "object", "additionalProperties": false}),
                json!({"type": "object", "properties": 1}),
                json!({"type": "object", "properties": {"a": true}}),
            ] {
                assert!(verdict(more, json!({}), revision).incomplete);
            }
            assert_eq!(
                verdict(json!({"type": "object"}), json!({}), revision),
                ACCEPTED
            );
        }
    }
}
