//! The form vocabulary that some MCP revision defines (Section 12.3).
//!
//! Rule: `mcp.elicitation.form-schema.vocabulary`, independent of the
//! revision: the union of every revision's vocabulary. Each property must be
//! exactly one primitive form, with only that form's keywords and with values
//! of MCP's types. Problems at the schema root are reported at the schema,
//! problems in a property at the property.

use std::fmt;

use serde_json::{Map, Value};

use crate::component::Site;
use crate::report::Report;
use crate::rule;
use crate::value::is_string_array;

/// The string formats MCP forms support.
const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

/// The primitive forms a property can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `type: "string"` without `enum` or `oneOf`.
    Text,
    /// `type: "number"` or `"integer"`.
    Number,
    /// `type: "boolean"`.
    Boolean,
    /// `type: "string"` with `enum` (and optional `enumNames`).
    Enum,
    /// `type: "string"` with `oneOf` titled options.
    TitledEnum,
    /// `type: "array"` with `items` holding `enum` or `anyOf` titled options.
    MultiSelect,
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Form::Text => "string",
            Form::Number => "number",
            Form::Boolean => "boolean",
            Form::Enum => "enum",
            Form::TitledEnum => "titled single-select enum",
            Form::MultiSelect => "multi-select enum",
        })
    }
}

/// Checks the schema root and every property.
pub(super) fn check(schema: &Map<String, Value>, site: &Site, report: &mut Report) {
    if let Some(message) = root_problem(schema) {
        report.error(
            rule::ELICITATION_FORM_SCHEMA_VOCABULARY,
            &site.schema,
            message,
        );
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, property) in properties {
            if let Some(message) = property_problem(property) {
                report.error(
                    rule::ELICITATION_FORM_SCHEMA_VOCABULARY,
                    &site.property(name),
                    message,
                );
            }
        }
    }
}

/// The root admits `$schema`, `type: "object"`, `properties` (an object,
/// required) and `required` (an array of strings), nothing else.
fn root_problem(schema: &Map<String, Value>) -> Option<String> {
    for (keyword, value) in schema {
        let valid = match keyword.as_str() {
            "$schema" => value.is_string(),
            "type" => value.as_str() == Some("object"),
            "properties" => value.is_object(),
            "required" => is_string_array(value),
            _ => {
                return Some(format!(
                    "`{keyword}` is not allowed at the root of a form schema"
                ));
            }
        };
        if !valid {
            return Some(format!(
                "`{keyword}` has a value a form schema does not allow"
            ));
        }
    }
    for needed in ["type", "properties"] {
        if !schema.contains_key(needed) {
            return Some(format!("a form schema needs `{needed}`"));
        }
    }
    None
}

/// What is wrong with one property schema, if anything.
fn property_problem(property: &Value) -> Option<String> {
    let Value::Object(property) = property else {
        return Some("a property schema must be an object".to_owned());
    };
    let form = match property.get("type") {
        None => return Some("a property schema needs `type`".to_owned()),
        Some(Value::String(name)) => match name.as_str() {
            "string" => match (
                property.contains_key("enum"),
                property.contains_key("oneOf"),
            ) {
                (true, true) => return Some("`enum` and `oneOf` cannot be combined".to_owned()),
                (true, false) => Form::Enum,
                (false, true) => Form::TitledEnum,
                (false, false) => Form::Text,
            },
            "number" | "integer" => Form::Number,
            "boolean" => Form::Boolean,
            "array" => Form::MultiSelect,
            other => {
                return Some(format!(
                    "`{other}` is not a property type MCP forms support"
                ));
            }
        },
        Some(_) => return Some("`type` must be a string".to_owned()),
    };
    for (keyword, value) in property {
        let valid = match (form, keyword.as_str()) {
            (_, "type") => true,
            (_, "title" | "description") => value.is_string(),
            (Form::Text, "minLength" | "maxLength") => value.is_number(),
            (Form::Text, "format") => value.as_str().is_some_and(|f| FORMATS.contains(&f)),
            (Form::Text | Form::Enum | Form::TitledEnum, "default") => value.is_string(),
            (Form::Number, "minimum" | "maximum" | "default") => value.is_number(),
            (Form::Boolean, "default") => value.is_boolean(),
            (Form::Enum, "enum" | "enumNames") => is_string_array(value),
            (Form::TitledEnum, "oneOf") => is_titled_options(value),
            (Form::MultiSelect, "minItems" | "maxItems") => value.is_number(),
            (Form::MultiSelect, "items") => is_choice_items(value),
            (Form::MultiSelect, "default") => is_string_array(value),
            _ => return Some(format!("`{keyword}` is not allowed in a {form} property")),
        };
        if !valid {
            return Some(format!(
                "`{keyword}` has a value a {form} property does not allow"
            ));
        }
    }
    if form == Form::MultiSelect && !property.contains_key("items") {
        return Some("a multi-select property needs `items`".to_owned());
    }
    None
}

/// An array of `{const: string, title: string}` objects, nothing more.
fn is_titled_options(value: &Value) -> bool {
    value.as_array().is_some_and(|options| {
        options.iter().all(|option| {
            option.as_object().is_some_and(|option| {
                option.len() == 2
                    && option.get("const").is_some_and(Value::is_string)
                    && option.get("title").is_some_and(Value::is_string)
            })
        })
    })
}

/// Multi-select `items`: exactly `{type: "string", enum: [strings]}` or
/// exactly `{anyOf: [titled options]}`.
fn is_choice_items(value: &Value) -> bool {
    let Some(items) = value.as_object() else {
        return false;
    };
    let untitled = items.len() == 2
        && items.get("type").and_then(Value::as_str) == Some("string")
        && items.get("enum").is_some_and(is_string_array);
    let titled = items.len() == 1 && items.get("anyOf").is_some_and(is_titled_options);
    untitled || titled
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::rule::{
        ELICITATION_FORM_SCHEMA_CONSISTENCY as CONSISTENCY,
        ELICITATION_FORM_SCHEMA_VOCABULARY as VOCABULARY,
    };
    use crate::tests::{P, check_schema, property};

    const AT: &str = "/prompts/0/elicitations/0/requestedSchema";

    #[test]
    fn every_form_of_every_revision_is_accepted() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "text": {"type": "string", "title": "T", "description": "D",
                         "minLength": 1, "maxLength": 9, "format": "email", "default": "a@b.c"},
                "uri": {"type": "string", "format": "uri"},
                "date": {"type": "string", "format": "date"},
                "stamp": {"type": "string", "format": "date-time"},
                "n": {"type": "number", "minimum": 0.5, "maximum": 2, "default": 1},
                "i": {"type": "integer", "minimum": -3, "maximum": 3, "default": 0},
                "b": {"type": "boolean", "default": false, "title": "B"},
                "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"], "default": "a"},
                "single": {"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "a"},
                "many": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]},
                         "minItems": 0, "maxItems": 2, "default": ["x"]},
                "titled": {"type": "array", "title": "M",
                           "items": {"anyOf": [{"const": "x", "title": "X"}]}, "default": []}
            },
            "required": ["text", "b"]
        });
        check_schema(schema, &[]);
    }

    #[test]
    fn root_problems_point_at_the_schema() {
        for schema in [
            json!({"properties": {}}),
            json!({"type": "object"}),
            json!({"type": "array", "properties": {}}),
            json!({"type": ["object"], "properties": {}}),
            json!({"type": "object", "properties": []}),
            json!({"type": "object", "properties": {}, "required": "a"}),
            json!({"type": "object", "properties": {}, "required": [1]}),
            json!({"type": "object", "properties": {}, "$schema": 2020}),
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            json!({"type": "object", "properties": {}, "title": "Form"}),
            json!({"type": "object", "properties": {}, "x-extra": 1}),
        ] {
            check_schema(schema, &[(VOCABULARY, AT)]);
        }
    }

    #[test]
    fn property_problems_point_at_the_property() {
        for schema in [
            json!("string"),
            json!({}),
            json!({"title": "no type"}),
            json!({"type": "object", "properties": {}}),
            json!({"type": "null"}),
            json!({"type": ["string", "null"]}),
            json!({"type": "number", "minLength": 1}),
            json!({"type": "string", "minimum": 1}),
            json!({"type": "string", "format": "hostname"}),
            json!({"type": "string", "format": "Email"}),
            json!({"type": "string", "enum": ["a"], "format": "email"}),
            json!({"type": "string", "pattern": "^a$"}),
            json!({"type": "string", "x-note": 1}),
            json!({"type": "string", "$schema": "s"}),
            json!({"type": "string", "title": 1}),
            json!({"type": "string", "description": null}),
            json!({"type": "string", "maxLength": "3"}),
            json!({"type": "string", "default": 3}),
            json!({"type": "boolean", "default": "true"}),
            json!({"type": "number", "default": "1"}),
            json!({"type": "integer", "maximum": true}),
            json!({"type": "string", "enum": "a"}),
            json!({"type": "string", "enum": [1]}),
            json!({"type": "string", "enum": ["a"], "enumNames": [1]}),
            json!({"type": "string", "enumNames": ["A"]}),
            json!({"type": "boolean", "enum": [true]}),
            json!({"type": "string", "oneOf": [{"const": "a"}]}),
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A", "description": "d"}]}),
            json!({"type": "string", "oneOf": [{"const": 1, "title": "A"}]}),
            json!({"type": "string", "oneOf": {"const": "a", "title": "A"}}),
            json!({"type": "array"}),
            json!({"type": "array", "items": {"type": "string"}}),
            json!({"type": "array", "items": {"type": "number", "enum": [1]}}),
            json!({"type": "array", "items": {"enum": ["a"]}}),
            json!({"type": "array", "items": {"type": "string", "enum": ["a"], "title": "t"}}),
            json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}], "type": "string"}}),
            json!({"type": "array", "items": {"oneOf": [{"const": "a", "title": "A"}]}}),
            json!({"type": "array", "items": [{"type": "string", "enum": ["a"]}]}),
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "minItems": "1"}),
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "uniqueItems": true}),
        ] {
            check_schema(property(schema), &[(VOCABULARY, P)]);
        }
    }

    #[test]
    fn enum_beside_one_of_is_a_vocabulary_error() {
        let schema = property(json!({
            "type": "string", "enum": ["a"], "oneOf": [{"const": "a", "title": "A"}]
        }));
        check_schema(schema, &[(VOCABULARY, P)]);
    }

    #[test]
    fn a_wrongly_typed_enum_default_is_also_inconsistent() {
        let schema = property(json!({"type": "string", "enum": ["1"], "default": 1}));
        check_schema(schema, &[(CONSISTENCY, P), (VOCABULARY, P)]);
    }

    #[test]
    fn property_names_are_escaped() {
        let schema = json!({"type": "object", "properties": {"a/b~c": {"type": "date"}}});
        check_schema(
            schema,
            &[(
                VOCABULARY,
                "/prompts/0/elicitations/0/requestedSchema/properties/a~1b~0c",
            )],
        );
    }
}
