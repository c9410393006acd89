//! The subschemas of one embedded JSON Schema, found by keyword.
//!
//! Only places where a keyword of JSON Schema 2020-12 (or draft-07, for the
//! keywords that draft spells differently) takes a schema are visited: a
//! property *named* `$ref` or `x-mcp-header`, or an object inside `enum`,
//! `const`, `default` or `examples`, is data, not a schema. The walk keeps its
//! own stack, so a deeply nested schema never deepens the call stack.

use serde_json::{Map, Value};

use crate::pointer::Pointer;

/// Keywords whose value is one schema.
const ONE: [&str; 12] = [
    "additionalProperties",
    "additionalItems",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is a map from names to schemas.
const MAP: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value is an array of schemas (`items` as an array is
/// draft-07's tuple form).
const LIST: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// How a subschema is reached from the schema root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// It is the root.
    Root,
    /// It is a property, reached from the root through `properties` alone.
    Property,
    /// It is reached through anything else: array items, composition,
    /// conditionals, definitions that a `$ref` points at, or a property of
    /// one of those.
    Nested,
}

/// One subschema that is an object.
#[derive(Debug)]
pub(crate) struct Subschema<'a> {
    /// Where it is, under the pointer the walk started from.
    pub(crate) at: Pointer,
    /// Its members.
    pub(crate) schema: &'a Map<String, Value>,
    /// How it is reached.
    pub(crate) reach: Reach,
}

/// Every object subschema of `root` (itself first), in document order:
/// a schema before what it holds, members in the order written.
pub(crate) fn walk<'a>(root: &'a Map<String, Value>, at: Pointer) -> Vec<Subschema<'a>> {
    let mut found = Vec::new();
    let mut stack = vec![Subschema {
        at,
        schema: root,
        reach: Reach::Root,
    }];
    while let Some(subschema) = stack.pop() {
        let mut children = Vec::new();
        for (keyword, value) in subschema.schema {
            let via_properties = keyword == "properties" && subschema.reach != Reach::Nested;
            let reach = if via_properties {
                Reach::Property
            } else {
                Reach::Nested
            };
            let at = subschema.at.key(keyword);
            match value {
                Value::Object(object) if ONE.contains(&keyword.as_str()) => {
                    children.push(Subschema {
                        at,
                        schema: object,
                        reach,
                    });
                }
                Value::Object(map) if MAP.contains(&keyword.as_str()) => {
                    children.extend(map.iter().filter_map(|(name, value)| {
                        Some(Subschema {
                            at: at.key(name),
                            schema: value.as_object()?,
                            reach,
                        })
                    }));
                }
                Value::Array(items) if LIST.contains(&keyword.as_str()) => {
                    children.extend(items.iter().enumerate().filter_map(|(index, value)| {
                        Some(Subschema {
                            at: at.index(index),
                            schema: value.as_object()?,
                            reach,
                        })
                    }));
                }
                _ => {}
            }
        }
        found.push(subschema);
        // Reversed, so the first child is popped first.
        stack.extend(children.into_iter().rev());
    }
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Reach, walk};
    use crate::pointer::Pointer;

    fn walked(schema: serde_json::Value) -> Vec<(String, Reach)> {
        let schema = schema.as_object().unwrap().clone();
        walk(&schema, Pointer::root().key("s"))
            .into_iter()
            .map(|found| (found.at.as_str().to_owned(), found.reach))
            .collect()
    }

    #[test]
    fn properties_chains_are_properties_and_everything_else_is_nested() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"b": {"type": "string"}}},
                "c": {"type": "array", "items": {"properties": {"d": {}}}}
            },
            "allOf": [{"properties": {"e": {}}}, true],
            "$defs": {"f": {"type": "string"}},
            "if": {}, "then": {}, "else": {}, "not": {},
            "additionalProperties": {"properties": {"g": {}}},
            "patternProperties": {"^h": {}},
            "prefixItems": [{}], "contains": {}, "dependentSchemas": {"i": {}},
            "propertyNames": {}, "unevaluatedItems": {}, "unevaluatedProperties": {},
            "contentSchema": {}, "definitions": {"j": {}}, "dependencies": {"k": {}, "l": ["a"]},
            "additionalItems": {}, "anyOf": [{}], "oneOf": [{}]
        });
        let found = walked(schema);
        let reach = |at: &str| {
            found
                .iter()
                .find(|(pointer, _)| pointer == at)
                .unwrap_or_else(|| panic!("{at} not walked: {found:?}"))
                .1
        };
        assert_eq!(reach("/s"), Reach::Root);
        assert_eq!(reach("/s/properties/a"), Reach::Property);
        assert_eq!(reach("/s/properties/a/properties/b"), Reach::Property);
        assert_eq!(reach("/s/properties/c"), Reach::Property);
        for nested in [
            "/s/properties/c/items",
            "/s/properties/c/items/properties/d",
            "/s/allOf/0",
            "/s/allOf/0/properties/e",
            "/s/$defs/f",
            "/s/if",
            "/s/then",
            "/s/else",
            "/s/not",
            "/s/additionalProperties",
            "/s/additionalProperties/properties/g",
            "/s/patternProperties/^h",
            "/s/prefixItems/0",
            "/s/contains",
            "/s/dependentSchemas/i",
            "/s/propertyNames",
            "/s/unevaluatedItems",
            "/s/unevaluatedProperties",
            "/s/contentSchema",
            "/s/definitions/j",
            "/s/dependencies/k",
            "/s/additionalItems",
            "/s/anyOf/0",
            "/s/oneOf/0",
        ] {
            assert_eq!(reach(nested), Reach::Nested, "{nested}");
        }
        // Boolean schemas and non-schema values are not walked.
        assert_eq!(found.len(), 28, "{found:?}");
    }

    #[test]
    fn data_that_looks_like_a_schema_is_not_walked() {
        let schema = json!({
            "enum": [{"properties": {"a": {}}}],
            "const": {"items": {}},
            "default": {"not": {}},
            "examples": [{"allOf": [{}]}],
            "properties": {"$ref": {"x-mcp-header": "A"}}
        });
        let found = walked(schema);
        let at: Vec<&str> = found.iter().map(|(at, _)| at.as_str()).collect();
        assert_eq!(at, ["/s", "/s/properties/$ref"]);
    }

    #[test]
    fn order_is_the_document_order() {
        let schema = json!({
            "properties": {"a": {"properties": {"b": {}}}, "c": {}},
            "items": {}
        });
        let at: Vec<String> = walked(schema).into_iter().map(|(at, _)| at).collect();
        assert_eq!(
            at,
            [
                "/s",
                "/s/properties/a",
                "/s/properties/a/properties/b",
                "/s/properties/c",
                "/s/items"
            ]
        );
    }

    #[test]
    fn a_deep_schema_does_not_deepen_the_stack() {
        let mut schema = json!({});
        for _ in 0..3_000 {
            schema = json!({"not": schema});
        }
        let object = schema.as_object().unwrap();
        assert_eq!(walk(object, Pointer::root()).len(), 3_001);
        // Dropping a value this deep recurses in serde_json; leak it instead.
        std::mem::forget(schema);
    }
}
