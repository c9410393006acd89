//! Whether a form schema agrees with itself (Section 12.3).
//!
//! Rule: `mcpdesc.elicitation.form-schema.consistency`, independent of the
//! revision. Only the keywords involved are read, whether or not the property
//! is valid vocabulary: `required` against `properties`; `enumNames` against
//! `enum`; `default` against `enum`, `oneOf` constants, or (for an array
//! default) `items.enum` and `items.anyOf` constants; each minimum against
//! its maximum.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::component::Site;
use crate::report::Report;
use crate::rule;
use crate::value::{self, Choices};

/// Bound keywords, each minimum with the maximum it must not exceed.
const BOUNDS: [(&str, &str); 3] = [
    ("minimum", "maximum"),
    ("minLength", "maxLength"),
    ("minItems", "maxItems"),
];

/// Checks `required` and every property that is an object.
pub(super) fn check(schema: &Map<String, Value>, site: &Site, report: &mut Report) {
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(Value::Array(required)) = schema.get("required") {
        let unknown = required.iter().find_map(|entry| {
            let name = entry.as_str()?;
            (!properties.is_some_and(|properties| properties.contains_key(name))).then_some(name)
        });
        if let Some(name) = unknown {
            report.error(
                rule::ELICITATION_FORM_SCHEMA_CONSISTENCY,
                &site.required(),
                format!("`required` names `{name}`, which is not a declared property"),
            );
        }
    }
    for (name, property) in properties.into_iter().flatten() {
        if let Value::Object(property) = property
            && let Some(message) = property_problem(property)
        {
            report.error(
                rule::ELICITATION_FORM_SCHEMA_CONSISTENCY,
                &site.property(name),
                message,
            );
        }
    }
}

/// The first inconsistency in one property, if any.
fn property_problem(property: &Map<String, Value>) -> Option<String> {
    let get = |keyword| property.get(keyword);

    if let (Some(Value::Array(values)), Some(Value::Array(names))) = (get("enum"), get("enumNames"))
        && values.len() != names.len()
    {
        return Some(format!(
            "`enumNames` has {} names for {} `enum` values",
            names.len(),
            values.len()
        ));
    }

    if let Some(default) = get("default") {
        if let Some(Value::Array(values)) = get("enum")
            && !values.iter().collect::<Choices<'_>>().contains(default)
        {
            return Some("`default` is not one of the `enum` values".to_owned());
        }
        if let Some(Value::Array(options)) = get("oneOf")
            && !constants(options).contains(default)
        {
            return Some("`default` is not one of the `oneOf` constants".to_owned());
        }
        if let (Some(Value::Object(items)), Value::Array(defaults)) = (get("items"), default) {
            let lists = [
                items
                    .get("enum")
                    .and_then(Value::as_array)
                    .map(|values| values.iter().collect::<Choices<'_>>()),
                items
                    .get("anyOf")
                    .and_then(Value::as_array)
                    .map(|options| constants(options)),
            ];
            for choices in lists.iter().flatten() {
                if !defaults.iter().all(|value| choices.contains(value)) {
                    return Some("a `default` value is not one of the item choices".to_owned());
                }
            }
        }
    }

    for (minimum, maximum) in BOUNDS {
        if let (Some(Value::Number(low)), Some(Value::Number(high))) = (get(minimum), get(maximum))
            && value::compare(low, high) == Some(Ordering::Greater)
        {
            return Some(format!("`{minimum}` {low} exceeds `{maximum}` {high}"));
        }
    }
    None
}

/// The `const` values of titled options that are objects with one.
fn constants(options: &[Value]) -> Choices<'_> {
    options
        .iter()
        .filter_map(|option| option.as_object()?.get("const"))
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        ELICITATION_FORM_SCHEMA_CONSISTENCY as CONSISTENCY,
        ELICITATION_FORM_SCHEMA_VOCABULARY as VOCABULARY,
    };
    use crate::tests::{E, P, check_schema, form, prompt_with, property};

    const REQUIRED: &str = "/prompts/0/elicitations/0/requestedSchema/required";

    #[test]
    fn required_names_must_be_declared() {
        check_schema(
            json!({"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"]}),
            &[],
        );
        check_schema(
            json!({"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a", "A"]}),
            &[(CONSISTENCY, REQUIRED)],
        );
    }

    #[test]
    fn without_properties_every_required_name_is_unknown() {
        check_schema(
            json!({"type": "object", "required": ["a"]}),
            &[
                (CONSISTENCY, REQUIRED),
                (VOCABULARY, "/prompts/0/elicitations/0/requestedSchema"),
            ],
        );
        check_schema(
            json!({"type": "object", "required": []}),
            &[(VOCABULARY, "/prompts/0/elicitations/0/requestedSchema")],
        );
        // `properties` that is not an object declares nothing either.
        check_schema(
            json!({"type": "object", "properties": [{"a": {"type": "string"}}], "required": ["a"]}),
            &[
                (CONSISTENCY, REQUIRED),
                (VOCABULARY, "/prompts/0/elicitations/0/requestedSchema"),
            ],
        );
    }

    #[test]
    fn enum_names_match_enum_values_one_to_one() {
        check_schema(
            property(json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]})),
            &[],
        );
        for names in [json!(["A"]), json!(["A", "B", "C"]), json!([])] {
            check_schema(
                property(json!({"type": "string", "enum": ["a", "b"], "enumNames": names})),
                &[(CONSISTENCY, P)],
            );
        }
    }

    #[test]
    fn single_select_defaults_lie_within_the_choices() {
        check_schema(
            property(json!({"type": "string", "enum": ["a"], "default": "a"})),
            &[],
        );
        check_schema(
            property(json!({"type": "string", "enum": ["a"], "default": "b"})),
            &[(CONSISTENCY, P)],
        );
        check_schema(
            property(
                json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "a"}),
            ),
            &[],
        );
        check_schema(
            property(
                json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "A"}),
            ),
            &[(CONSISTENCY, P)],
        );
    }

    #[test]
    fn multi_select_defaults_lie_within_the_item_choices() {
        let untitled = |default: Value| {
            property(json!({
                "type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "default": default
            }))
        };
        check_schema(untitled(json!(["x", "y"])), &[]);
        check_schema(untitled(json!([])), &[]);
        check_schema(untitled(json!(["x", "z"])), &[(CONSISTENCY, P)]);
        let titled = |default: Value| {
            property(json!({
                "type": "array",
                "items": {"anyOf": [{"const": "x", "title": "X"}]},
                "default": default
            }))
        };
        check_schema(titled(json!(["x"])), &[]);
        check_schema(titled(json!(["X"])), &[(CONSISTENCY, P)]);
    }

    #[test]
    fn minimums_must_not_exceed_maximums() {
        for (low, high) in [
            ("minimum", "maximum"),
            ("minLength", "maxLength"),
            ("minItems", "maxItems"),
        ] {
            let mut p = json!({"type": "string"});
            if let Some(p) = p.as_object_mut() {
                p.insert(low.into(), json!(2.5));
                p.insert(high.into(), json!(2));
            }
            let found = prompt_with(vec![form(json!({"requestedSchema": property(p)}))]);
            let triples = crate::tests::findings(&found, R2025_11_25);
            assert!(
                triples.contains(&(CONSISTENCY.to_owned(), P.to_owned(), E)),
                "{low}/{high}: {triples:?}"
            );
        }
        check_schema(
            property(json!({"type": "number", "minimum": 1, "maximum": 1})),
            &[],
        );
        check_schema(
            property(json!({"type": "number", "minimum": 1.5, "maximum": 2})),
            &[],
        );
        check_schema(
            property(json!({"type": "integer", "minimum": 10, "maximum": 1})),
            &[(CONSISTENCY, P)],
        );
    }

    #[test]
    fn inconsistency_is_found_whatever_the_vocabulary() {
        // A number with string bounds, an enum on a boolean: the keywords
        // involved still have to agree.
        check_schema(
            property(json!({"type": "number", "minLength": 5, "maxLength": 1})),
            &[(CONSISTENCY, P), (VOCABULARY, P)],
        );
        check_schema(
            property(json!({"type": "boolean", "enum": [true], "default": false})),
            &[(CONSISTENCY, P), (VOCABULARY, P)],
        );
    }

    #[test]
    fn non_numeric_bounds_are_not_compared() {
        check_schema(
            property(json!({"type": "number", "minimum": "9", "maximum": 1})),
            &[(VOCABULARY, P)],
        );
    }
}
