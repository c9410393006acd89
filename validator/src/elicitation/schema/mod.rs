//! The `requestedSchema` of a form-mode declaration (Section 12.3).
//!
//! The schema rules run only when `mode` is exactly `"form"` and
//! `requestedSchema` is an object. A Reference Object is resolved first; a
//! reference that cannot be resolved is reported by the reference rules
//! (`crate::component`) and the schema rules skip the declaration.
//! Everything found inside a referenced schema is reported at the
//! reference site.

mod consistency;
mod protocol_shape;
mod vocabulary;

use mcpdesc_protocol::Revision;
use serde_json::Value;

use super::{Declaration, Mode};
use crate::component::{self, Namespace, Site};
use crate::document::Document;
use crate::report::Report;

/// The declaration member that holds the schema.
const MEMBER: &str = "requestedSchema";

/// Runs the schema rules on one declaration under `revision`.
pub(super) fn check(
    document: &Document<'_>,
    declaration: &Declaration<'_>,
    revision: Revision,
    report: &mut Report,
) {
    if declaration.mode != Mode::Form {
        return;
    }
    let Some(written @ Value::Object(_)) = declaration.object.get(MEMBER) else {
        return;
    };
    let at = declaration.pointer.key(MEMBER);
    let components = &document.components;
    component::check_reference(written, Namespace::Schemas, &at, components, report);
    // A reference that does not resolve, or resolves to a component that
    // is not an object, is reported by the component rules alone.
    let Some(Value::Object(schema)) = components.resolve(written, Namespace::Schemas) else {
        return;
    };
    let site = Site::of(written, at);
    vocabulary::check(schema, &site, report);
    consistency::check(schema, &site, report);
    if declaration.scope.includes(revision) {
        protocol_shape::check(schema, &site, revision, report);
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{
        ELICITATION_FORM_SCHEMA_CONSISTENCY as CONSISTENCY,
        ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE as PROTOCOL_SHAPE,
        ELICITATION_FORM_SCHEMA_VOCABULARY as VOCABULARY, ELICITATION_MODE as MODE,
        ELICITATION_MODE_MEMBERS as MEMBERS, ELICITATION_SHAPE as SHAPE,
    };
    use crate::tests::{E, assert_findings, form, prompt_with, url};

    const AT: &str = "/prompts/0/elicitations/0/requestedSchema";

    /// A schema that breaks vocabulary, consistency and the 2025-06-18 shape.
    fn broken() -> serde_json::Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"n": {"type": "number", "minimum": 2, "maximum": 1, "format": "x"}},
            "required": ["gone"]
        })
    }

    #[test]
    fn schema_rules_run_in_form_mode() {
        let doc = prompt_with(vec![form(json!({"requestedSchema": broken()}))]);
        let all = [
            (
                CONSISTENCY,
                "/prompts/0/elicitations/0/requestedSchema/properties/n",
                E,
            ),
            (
                CONSISTENCY,
                "/prompts/0/elicitations/0/requestedSchema/required",
                E,
            ),
            (
                VOCABULARY,
                "/prompts/0/elicitations/0/requestedSchema/properties/n",
                E,
            ),
        ];
        assert_findings(&doc, R2025_11_25, &all);
        let mut with_shape = all.to_vec();
        with_shape.push((PROTOCOL_SHAPE, AT, E));
        assert_findings(&doc, R2025_06_18, &with_shape);
    }

    #[test]
    fn schema_rules_do_not_run_in_url_mode() {
        let doc = prompt_with(vec![url(json!({"requestedSchema": broken()}))]);
        assert_findings(&doc, R2025_11_25, &[(MEMBERS, AT, E)]);
    }

    #[test]
    fn schema_rules_do_not_run_without_a_valid_mode() {
        for mode in [json!(null), json!("FORM"), json!(1)] {
            let doc = prompt_with(vec![form(
                json!({"mode": mode, "requestedSchema": broken()}),
            )]);
            let found = crate::tests::findings(&doc, R2025_06_18);
            assert!(found.iter().all(|(rule, _, _)| rule == MODE), "{found:?}");
        }
    }

    #[test]
    fn a_non_object_inline_schema_is_a_shape_error_only() {
        for schema in [json!([]), json!("object"), json!(true)] {
            let doc = prompt_with(vec![form(json!({"requestedSchema": schema}))]);
            assert_findings(&doc, R2025_06_18, &[(SHAPE, AT, E)]);
        }
    }

    #[test]
    fn protocol_shape_needs_the_declaration_in_scope() {
        let doc = prompt_with(vec![form(json!({
            "protocolVersions": ["2025-11-25"],
            "requestedSchema": {
                "type": "object",
                "properties": {"s": {"type": "string", "default": "x"}}
            }
        }))]);
        assert_findings(&doc, R2025_06_18, &[]);
        assert_findings(&doc, R2025_11_25, &[]);
    }
}
