//! Elicitation Declarations (Section 12) and Tool interaction steps.
//!
//! One walk collects, per primitive, the declarations that are objects with
//! their effective scopes and modes; every elicitation rule then works on
//! that list.

mod declaration;
mod schema;
mod version;

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::pointer::Pointer;
use crate::primitive::Primitive;
use crate::report::Report;
use crate::rule;
use crate::scope::{self, Scope};

/// The member of a primitive that holds its declarations.
const MEMBER: &str = "elicitations";

/// A declaration's mode, as far as the mode-dependent rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `mode` is exactly `"form"`.
    Form,
    /// `mode` is exactly `"url"`.
    Url,
    /// `mode` is missing, not a string, or another string.
    Invalid,
}

impl Mode {
    /// The mode a `mode` member (or its absence) stands for.
    pub(crate) fn of(value: Option<&Value>) -> Self {
        match value.and_then(Value::as_str) {
            Some("form") => Mode::Form,
            Some("url") => Mode::Url,
            _ => Mode::Invalid,
        }
    }
}

/// One Elicitation Declaration that is an object.
#[derive(Debug)]
pub(crate) struct Declaration<'a> {
    /// Where it is: `<primitive>/elicitations/<index>`.
    pub(crate) pointer: Pointer,
    /// Its members.
    pub(crate) object: &'a Map<String, Value>,
    /// Its effective protocol scope.
    pub(crate) scope: Scope<'a>,
    /// Its mode.
    pub(crate) mode: Mode,
}

/// Runs every elicitation rule on the document under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for primitive in &document.primitives {
        let declarations = collect(primitive, report);
        declaration::check(&declarations, report);
        for declaration in &declarations {
            scope::check_declaration(
                declaration.object,
                &declaration.pointer,
                primitive.scope,
                report,
            );
            schema::check(document, declaration, revision, report);
            version::check_declaration(declaration, revision, report);
        }
    }
    version::check_steps(document, revision, report);
}

/// The declarations of one primitive that are objects. Reports
/// `mcpdesc.elicitation.declarations` on the way.
fn collect<'a>(primitive: &Primitive<'a>, report: &mut Report) -> Vec<Declaration<'a>> {
    let Some(member) = primitive.object.get(MEMBER) else {
        return Vec::new();
    };
    let at = primitive.pointer.key(MEMBER);
    let items = match member {
        Value::Array(items) if !items.is_empty() => items,
        Value::Array(_) => {
            report.error(
                rule::ELICITATION_DECLARATIONS,
                &at,
                "`elicitations` must hold at least one declaration",
            );
            return Vec::new();
        }
        _ => {
            report.error(
                rule::ELICITATION_DECLARATIONS,
                &at,
                "`elicitations` must be an array",
            );
            return Vec::new();
        }
    };
    let mut declarations = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let at = at.index(index);
        match item {
            Value::Object(object) => declarations.push(Declaration {
                pointer: at,
                object,
                scope: primitive.scope.narrowed_by(object),
                mode: Mode::of(object.get("mode")),
            }),
            _ => report.error(
                rule::ELICITATION_DECLARATIONS,
                &at,
                "a declaration must be an object",
            ),
        }
    }
    declarations
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use serde_json::Value;

    use crate::rule::{
        ELICITATION_DECLARATIONS as DECLARATIONS,
        ELICITATION_FORM_SCHEMA_CONSISTENCY as CONSISTENCY,
        ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE as PROTOCOL_SHAPE,
        ELICITATION_PROTOCOL_VERSION as VERSION,
    };
    use crate::tests::{E, assert_findings, form, tool, with};

    /// A document holding one prompt with one form declaration of `schema`.
    fn prompt_form(schema: Value) -> Value {
        with(json!({"prompts": [{
            "name": "seed",
            "elicitations": [{
                "name": "seed", "mode": "form", "message": "Seed form.",
                "requestedSchema": schema
            }]
        }]}))
    }

    #[test]
    fn seed_url_declaration_before_2025_11_25() {
        let doc = with(json!({
            "protocolVersions": ["2025-06-18"],
            "tools": [tool(json!({"elicitations": [{
                "name": "authorize", "mode": "url", "message": "Authorize access.",
                "url": "https://auth.example.com/authorize"
            }]}))]
        }));
        assert_findings(
            &doc,
            R2025_06_18,
            &[(VERSION, "/tools/0/elicitations/0", E)],
        );
    }

    #[test]
    fn seed_url_interaction_step_before_2025_11_25() {
        let doc = with(json!({
            "protocolVersions": ["2025-06-18", "2025-11-25"],
            "tools": [tool(json!({"interactionExamples": {"broken": {
                "input": {},
                "steps": [{
                    "type": "elicitation",
                    "request": {
                        "mode": "url", "message": "Authorize publication.",
                        "url": "https://mcp.example.com/release/connect"
                    },
                    "response": {"action": "accept"}
                }],
                "result": {"content": []}
            }}}))]
        }));
        assert_findings(
            &doc,
            R2025_06_18,
            &[(
                VERSION,
                "/tools/0/interactionExamples/broken/steps/0/request",
                E,
            )],
        );
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn seed_valid_declarations() {
        let doc = with(json!({"tools": [tool(json!({"elicitations": [
            {
                "name": "choose_assignee", "mode": "form", "message": "Who should own this issue?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"assignee": {"type": "string", "title": "Assignee", "minLength": 1}},
                    "required": ["assignee"]
                }
            },
            {
                "name": "authorize_tracker", "mode": "url",
                "message": "Authorize access to the issue tracker.",
                "when": "The current authorization grant is insufficient.",
                "url": "https://auth.example.com/authorize",
                "protocolVersions": ["2025-11-25", "2026-07-28"]
            },
            {
                "name": "choose_labels", "mode": "form", "message": "Choose labels for this issue.",
                "requestedSchema": {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "object",
                    "properties": {"labels": {
                        "type": "array", "title": "Labels",
                        "items": {"type": "string", "enum": ["bug", "feature"]},
                        "default": ["bug"]
                    }}
                },
                "protocolVersions": ["2025-11-25", "2026-07-28"]
            }
        ]}))]}));
        for revision in [R2025_06_18, R2025_11_25, R2026_07_28] {
            assert_findings(&doc, revision, &[]);
        }
    }

    #[test]
    fn seed_unknown_required_name() {
        let doc = prompt_form(json!({
            "type": "object",
            "properties": {"present": {"type": "string"}},
            "required": ["missing"]
        }));
        for revision in [R2025_06_18, R2025_11_25, R2026_07_28] {
            assert_findings(
                &doc,
                revision,
                &[(
                    CONSISTENCY,
                    "/prompts/0/elicitations/0/requestedSchema/required",
                    E,
                )],
            );
        }
    }

    #[test]
    fn seed_inverted_range() {
        let doc = prompt_form(json!({
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 10, "maximum": 1}}
        }));
        for revision in [R2025_06_18, R2025_11_25, R2026_07_28] {
            assert_findings(
                &doc,
                revision,
                &[(
                    CONSISTENCY,
                    "/prompts/0/elicitations/0/requestedSchema/properties/count",
                    E,
                )],
            );
        }
    }

    #[test]
    fn seed_schema_beyond_2025_06_18() {
        let doc = prompt_form(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "colors": {"type": "array", "items": {"type": "string", "enum": ["red", "blue"]}},
                "label": {"type": "string", "default": "main"}
            }
        }));
        for revision in all().into_iter().skip(2) {
            let expected: &[_] = if revision == R2025_06_18 {
                &[(
                    PROTOCOL_SHAPE,
                    "/prompts/0/elicitations/0/requestedSchema",
                    E,
                )]
            } else {
                &[]
            };
            assert_findings(&doc, revision, expected);
        }
    }

    #[test]
    fn declarations_must_be_a_non_empty_array_of_objects() {
        let doc = with(json!({
            "tools": [
                tool(json!({"name": "t0", "elicitations": []})),
                tool(json!({"name": "t1", "elicitations": form(json!({}))})),
                tool(json!({"name": "t2", "elicitations": [form(json!({})), "later", null]}))
            ],
            "resources": [{"uri": "file:///a", "name": "a", "elicitations": null}],
            "resourceTemplates": [
                {"uriTemplate": "file:///{x}", "name": "x", "elicitations": [form(json!({}))]}
            ],
            "prompts": [{"name": "p", "elicitations": [form(json!({}))]}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (DECLARATIONS, "/resources/0/elicitations", E),
                (DECLARATIONS, "/tools/0/elicitations", E),
                (DECLARATIONS, "/tools/1/elicitations", E),
                (DECLARATIONS, "/tools/2/elicitations/1", E),
                (DECLARATIONS, "/tools/2/elicitations/2", E),
            ],
        );
    }
}
