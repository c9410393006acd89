//! Reference Objects: `{"$componentRef": "#/components/schemas/<name>"}`.
//!
//! Rule: `mcpdesc.elicitation.form-schema.reference`. Only `requestedSchema`
//! itself may be a Reference Object; members beside `$componentRef` are
//! ignored. Chains are followed until a schema that is not a Reference Object
//! is reached; meeting a component twice is a cycle.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::pointer;

/// The member that makes an object a Reference Object.
pub(super) const MEMBER: &str = "$componentRef";

/// The only place a `requestedSchema` reference may point into.
const PREFIX: &str = "#/components/schemas/";

/// What a `requestedSchema` stands for.
#[derive(Debug)]
pub(super) enum Target<'a> {
    /// The schema is written in place.
    Inline,
    /// The schema is this component, reached through one or more references.
    Component(&'a Value),
}

/// Resolves `schema` against `components.schemas`; the error says why the
/// reference does not resolve.
pub(super) fn resolve<'a>(
    schema: &'a Map<String, Value>,
    schemas: Option<&'a Map<String, Value>>,
) -> Result<Target<'a>, String> {
    let Some(mut reference) = schema.get(MEMBER) else {
        return Ok(Target::Inline);
    };
    let mut visited = HashSet::new();
    loop {
        let Value::String(text) = reference else {
            return Err("`$componentRef` must be a string".to_owned());
        };
        let Some(token) = text.strip_prefix(PREFIX) else {
            return Err(format!("`{text}` does not target `{PREFIX}<name>`"));
        };
        let Some(name) = pointer::unescape(token) else {
            return Err(format!(
                "`{text}` must end in exactly one JSON pointer token (`~0` for `~`, `~1` for `/`)"
            ));
        };
        let Some(target) = schemas.and_then(|schemas| schemas.get(&name)) else {
            return Err(format!("`{text}` names no schema component"));
        };
        if !visited.insert(name) {
            return Err(format!("`{text}` is part of a reference cycle"));
        }
        match target.as_object().and_then(|object| object.get(MEMBER)) {
            Some(next) => reference = next,
            None => return Ok(Target::Component(target)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        ELICITATION_FORM_SCHEMA_CONSISTENCY as CONSISTENCY,
        ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE as PROTOCOL_SHAPE,
        ELICITATION_FORM_SCHEMA_REFERENCE as REFERENCE,
        ELICITATION_FORM_SCHEMA_VOCABULARY as VOCABULARY,
    };
    use crate::tests::{E, assert_findings, form, prompt_with, with};

    const AT: &str = "/prompts/0/elicitations/0/requestedSchema";

    /// A document whose single form declaration's schema is `schema`, with
    /// `components.schemas` set to `schemas`.
    fn doc(schema: Value, schemas: Value) -> Value {
        let mut doc = prompt_with(vec![form(json!({"requestedSchema": schema}))]);
        if let Some(root) = doc.as_object_mut() {
            root.insert("components".into(), json!({"schemas": schemas}));
        }
        doc
    }

    fn valid() -> Value {
        json!({"type": "object", "properties": {"ok": {"type": "boolean", "default": true}}})
    }

    fn reference(name: &str) -> Value {
        json!({"$componentRef": format!("#/components/schemas/{name}")})
    }

    #[test]
    fn references_and_chains_resolve() {
        let schemas = json!({"a": reference("b"), "b": reference("c"), "c": valid()});
        assert_findings(&doc(reference("a"), schemas), R2025_11_25, &[]);
    }

    #[test]
    fn members_beside_the_reference_are_ignored() {
        let schema = json!({"$componentRef": "#/components/schemas/c", "type": 5, "bogus": []});
        assert_findings(&doc(schema, json!({"c": valid()})), R2025_06_18, &[]);
    }

    #[test]
    fn escaped_names_resolve() {
        let schemas = json!({"a/b~c": valid()});
        let schema = json!({"$componentRef": "#/components/schemas/a~1b~0c"});
        assert_findings(&doc(schema, schemas), R2025_11_25, &[]);
    }

    #[test]
    fn malformed_targets_are_reference_errors() {
        let schemas = json!({"a/b": valid(), "a~b": valid(), "a": {"b": valid()}, "c": valid()});
        for target in [
            json!("#/components/schemas/a/b"),
            json!("#/components/schemas/a~b"),
            json!("#/components/schemas/a~2b"),
            json!("#/components/prompts/c"),
            json!("#/components/schemas"),
            json!("components/schemas/c"),
            json!("https://example.com/schemas.json#/components/schemas/c"),
            json!("#/components/schemas/missing"),
            json!(7),
            json!({"c": true}),
        ] {
            let schema = json!({"$componentRef": target});
            assert_findings(
                &doc(schema, schemas.clone()),
                R2025_11_25,
                &[(REFERENCE, AT, E)],
            );
        }
    }

    #[test]
    fn references_need_components_schemas() {
        let mut document = prompt_with(vec![form(json!({"requestedSchema": reference("c")}))]);
        assert_findings(&document, R2025_11_25, &[(REFERENCE, AT, E)]);
        if let Some(root) = document.as_object_mut() {
            root.insert("components".into(), json!([{"schemas": {"c": valid()}}]));
        }
        // A `components` that is not an object is also a document shape error.
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (crate::rule::DOCUMENT_SHAPE, "/components", E),
                (REFERENCE, AT, E),
            ],
        );
    }

    #[test]
    fn cycles_are_reference_errors() {
        let self_loop = json!({"a": reference("a")});
        assert_findings(
            &doc(reference("a"), self_loop),
            R2025_11_25,
            &[(REFERENCE, AT, E)],
        );
        let ring = json!({"a": reference("b"), "b": reference("c"), "c": reference("a")});
        assert_findings(
            &doc(reference("b"), ring),
            R2025_11_25,
            &[(REFERENCE, AT, E)],
        );
        let broken_tail = json!({"a": reference("b"), "b": reference("nowhere")});
        assert_findings(
            &doc(reference("a"), broken_tail),
            R2025_11_25,
            &[(REFERENCE, AT, E)],
        );
    }

    #[test]
    fn long_chains_do_not_recurse() {
        let mut schemas = serde_json::Map::new();
        for i in 0..5_000 {
            schemas.insert(format!("s{i}"), reference(&format!("s{}", i + 1)));
        }
        schemas.insert("s5000".into(), valid());
        let schemas = Value::Object(schemas);
        assert_findings(&doc(reference("s0"), schemas.clone()), R2025_11_25, &[]);
        let mut cyclic = schemas;
        if let Some(schemas) = cyclic.as_object_mut() {
            schemas.insert("s5000".into(), reference("s0"));
        }
        assert_findings(
            &doc(reference("s0"), cyclic),
            R2025_11_25,
            &[(REFERENCE, AT, E)],
        );
    }

    #[test]
    fn a_non_object_target_is_a_vocabulary_error() {
        for target in [json!(true), json!([]), json!("schema")] {
            let found = doc(reference("c"), json!({"c": target}));
            assert_findings(&found, R2025_11_25, &[(VOCABULARY, AT, E)]);
        }
    }

    #[test]
    fn findings_in_a_referenced_schema_are_reported_at_the_reference_site() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 3, "maximum": 1},
                "deep": {"type": "object"}
            },
            "required": ["absent"]
        });
        let found = doc(reference("c"), json!({"c": schema}));
        assert_findings(
            &found,
            R2025_06_18,
            &[
                (CONSISTENCY, AT, E),
                (PROTOCOL_SHAPE, AT, E),
                (VOCABULARY, AT, E),
            ],
        );
    }

    #[test]
    fn only_the_schema_itself_may_be_a_reference() {
        let schema = json!({
            "type": "object",
            "properties": {"p": {"$componentRef": "#/components/schemas/c"}}
        });
        assert_findings(
            &doc(schema, json!({"c": {"type": "string"}})),
            R2025_11_25,
            &[(
                VOCABULARY,
                "/prompts/0/elicitations/0/requestedSchema/properties/p",
                E,
            )],
        );
    }

    #[test]
    fn unreferenced_components_are_not_checked() {
        let document =
            with(json!({"components": {"schemas": {"junk": {"type": "object", "properties": 3}}}}));
        assert_findings(&document, R2025_11_25, &[]);
    }
}
