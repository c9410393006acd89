//! The rules on a Tool's `inputSchema` and `outputSchema` (Section 9.2):
//! the object root, the dialect, validity under it, the shape earlier
//! revisions define, and references that cannot be resolved offline.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::subschema;
use super::{Role, ToolSchema};
use crate::report::Report;
use crate::rule;

/// The first revision that defines `$schema` on Tool schemas and judges
/// them as JSON Schema under a dialect (JSON Schema 2020-12 by default).
pub(super) const DIALECTS: Revision = Revision::of("2025-11-25");

/// The first revision that lets `outputSchema` have any root.
const ANY_OUTPUT_ROOT: Revision = Revision::of("2026-07-28");

/// The first revision that defines `outputSchema` at all.
const OUTPUT: Revision = Revision::of("2025-06-18");

/// The schema deeper than which the meta-schema is not applied: the
/// JSON Schema engine recurses on the schema, and the validator never does
/// on what it is given. A parsed document is never this deep (its parser
/// stops at 128 levels); a value built in memory may be.
pub(super) const DEEPEST: usize = 256;

/// A dialect this validator supports: JSON Schema 2020-12, the default,
/// and draft-07, which Tool schemas written for earlier tools often declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    Draft202012,
    Draft7,
}

impl Dialect {
    /// The dialect a schema declares with `$schema`, or the default; `None`
    /// when it declares one this validator does not support.
    pub(super) fn of(schema: &Map<String, Value>) -> Option<Dialect> {
        let Some(declared) = schema.get("$schema") else {
            return Some(Dialect::Draft202012);
        };
        // An empty fragment names the same resource.
        match declared
            .as_str()?
            .strip_suffix('#')
            .unwrap_or(declared.as_str()?)
        {
            "https://json-schema.org/draft/2020-12/schema" => Some(Dialect::Draft202012),
            "http://json-schema.org/draft-07/schema" => Some(Dialect::Draft7),
            _ => None,
        }
    }

    /// Whether `schema` is valid against this dialect's meta-schema.
    pub(super) fn admits(self, schema: &Value) -> bool {
        match self {
            Dialect::Draft202012 => jsonschema::draft202012::meta::is_valid(schema),
            Dialect::Draft7 => jsonschema::draft7::meta::is_valid(schema),
        }
    }
}

/// Runs the schema rules on one Tool schema under `revision`; `in_scope`
/// says whether the Tool applies to it.
pub(super) fn check(
    schema: &ToolSchema<'_>,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    if schema.role == Role::Input {
        check_input_root(schema, report);
    }
    if !in_scope {
        return;
    }
    if schema.role == Role::Output && (OUTPUT..ANY_OUTPUT_ROOT).contains(&revision) {
        check_output_root(schema, report);
    }
    // Before 2025-11-25 `outputSchema` is either not defined (and that is
    // `mcp.primitive.protocol-version`'s finding) or has the legacy shape.
    if schema.role == Role::Output && revision < OUTPUT {
        return;
    }
    if revision < DIALECTS {
        check_legacy_dialect(schema, report);
        check_legacy_shape(schema, report);
    } else {
        check_dialect(schema, report);
        check_external_references(schema, report);
    }
}

/// `mcp.tool.input-schema.root`: `type` is `"object"`.
fn check_input_root(schema: &ToolSchema<'_>, report: &mut Report) {
    check_object_root(rule::TOOL_INPUT_SCHEMA_ROOT, schema, report);
}

/// `mcp.tool.output-schema.root`, under a revision that defines
/// `outputSchema` but not yet any root: `type` is `"object"`.
fn check_output_root(schema: &ToolSchema<'_>, report: &mut Report) {
    check_object_root(rule::TOOL_OUTPUT_SCHEMA_ROOT, schema, report);
}

/// `rule` when the schema's `type` is missing (at the schema) or is not
/// exactly `"object"` (at `type`).
fn check_object_root(rule: &'static str, schema: &ToolSchema<'_>, report: &mut Report) {
    let member = schema.role.member();
    match schema.schema.get("type") {
        None => report.error(
            rule,
            &schema.site.schema,
            format!("`{member}` must have `type: \"object\"`"),
        ),
        Some(Value::String(text)) if text == "object" => {}
        Some(_) => report.error(
            rule,
            &schema.site.within(|at| at.key("type")),
            format!("the root of `{member}` must be of `type` \"object\""),
        ),
    }
}

/// `mcp.tool.schema-dialect` before 2025-11-25: no `$schema` at the root.
fn check_legacy_dialect(schema: &ToolSchema<'_>, report: &mut Report) {
    if schema.schema.contains_key("$schema") {
        report.error(
            rule::TOOL_SCHEMA_DIALECT,
            &schema.site.within(|at| at.key("$schema")),
            "Tool schemas declare a dialect only from MCP 2025-11-25 on",
        );
    }
}

/// `mcp.tool.schema-dialect` from 2025-11-25 on: a declared dialect is one
/// this validator supports; then `mcp.tool.schema-valid`: the schema is
/// valid against its dialect's meta-schema.
fn check_dialect(schema: &ToolSchema<'_>, report: &mut Report) {
    let Some(dialect) = Dialect::of(schema.schema) else {
        report.error(
            rule::TOOL_SCHEMA_DIALECT,
            &schema.site.within(|at| at.key("$schema")),
            "`$schema` names a JSON Schema dialect this validator does not support",
        );
        return;
    };
    if depth(schema.schema) > DEEPEST {
        return;
    }
    let value = Value::Object(schema.schema.clone());
    if !dialect.admits(&value) {
        report.error(
            rule::TOOL_SCHEMA_VALID,
            &schema.site.schema,
            format!(
                "`{}` is not a valid JSON Schema under its dialect",
                schema.role.member()
            ),
        );
    }
}

/// How many levels of objects and arrays `schema` nests, counted without
/// recursion.
pub(super) fn depth(schema: &Map<String, Value>) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = schema.values().map(|value| (value, 2)).collect();
    while let Some((value, level)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(object) => Box::new(object.values()),
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        deepest = deepest.max(level);
        stack.extend(children.map(|child| (child, level + 1)));
    }
    deepest.max(1)
}

/// `mcp.tool.schema-legacy-shape`: `properties` an object of objects and
/// `required` an array of strings, every other keyword left alone.
fn check_legacy_shape(schema: &ToolSchema<'_>, report: &mut Report) {
    let rule = rule::TOOL_SCHEMA_LEGACY_SHAPE;
    let member = schema.role.member();
    match schema.schema.get("properties") {
        None => {}
        Some(Value::Object(properties)) => {
            for (name, _) in properties.iter().filter(|(_, value)| !value.is_object()) {
                report.error(
                    rule,
                    &schema.site.property(name),
                    format!("property `{name}` of `{member}` must be an object"),
                );
            }
        }
        Some(_) => report.error(
            rule,
            &schema.site.within(|at| at.key("properties")),
            format!("`properties` of `{member}` must be an object"),
        ),
    }
    match schema.schema.get("required") {
        None => {}
        Some(Value::Array(names)) => {
            for (index, _) in names
                .iter()
                .enumerate()
                .filter(|(_, name)| !name.is_string())
            {
                report.error(
                    rule,
                    &schema.site.within(|at| at.key("required").index(index)),
                    format!("`required` of `{member}` must hold strings only"),
                );
            }
        }
        Some(_) => report.error(
            rule,
            &schema.site.required(),
            format!("`required` of `{member}` must be an array of strings"),
        ),
    }
}

/// `mcpdesc.tool.schema-external-ref` (a warning): a `$ref` whose target
/// lies outside the schema, which the validator never retrieves, so the
/// schema cannot be completely validated. A reference is inside when it is
/// a fragment (`#…`) or its part before `#` is, as written, the `$id` of a
/// subschema.
fn check_external_references(schema: &ToolSchema<'_>, report: &mut Report) {
    let subschemas = subschema::walk(schema.schema, schema.site.schema.clone());
    let ids: Vec<&str> = subschemas
        .iter()
        .filter_map(|found| found.schema.get("$id")?.as_str())
        .map(|id| id.strip_suffix('#').unwrap_or(id))
        .collect();
    for found in &subschemas {
        let Some(Value::String(target)) = found.schema.get("$ref") else {
            continue;
        };
        let resource = target
            .split_once('#')
            .map_or(target.as_str(), |(base, _)| base);
        if resource.is_empty() || ids.contains(&resource) {
            continue;
        }
        let at = found.at.clone();
        report.warning(
            rule::TOOL_SCHEMA_EXTERNAL_REF,
            &schema.site.within(|_| at.key("$ref")),
            format!(
                "`{}` refers outside itself; the target is never retrieved, so the schema is not completely validated",
                schema.role.member()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use super::depth;
    use crate::rule::{
        PRIMITIVE_PROTOCOL_VERSION as AVAILABLE, TOOL_INPUT_SCHEMA_ROOT as INPUT_ROOT,
        TOOL_OUTPUT_SCHEMA_ROOT as OUTPUT_ROOT, TOOL_SCHEMA_DIALECT as DIALECT,
        TOOL_SCHEMA_EXTERNAL_REF as EXTERNAL, TOOL_SCHEMA_LEGACY_SHAPE as LEGACY,
        TOOL_SCHEMA_VALID as VALID,
    };
    use crate::tests::{E, W, assert_findings_beside_legacy as assert_findings, with};

    /// A document whose only Tool, scoped to every revision, has `input`
    /// and, when given, `output`.
    fn doc(input: Value, output: Option<Value>) -> Value {
        let mut tool = json!({"name": "t", "inputSchema": input});
        if let Some(output) = output {
            tool["outputSchema"] = output;
        }
        let mut document = with(json!({"tools": [tool]}));
        document["protocolVersions"] = json!(FIVE);
        document
    }

    #[test]
    fn the_input_root_is_of_type_object_under_every_revision() {
        for revision in [R2024_11_05, R2025_06_18, R2026_07_28] {
            assert_findings(
                &doc(json!({"properties": {}}), None),
                revision,
                &[(INPUT_ROOT, "/tools/0/inputSchema", E)],
            );
            assert_findings(
                &doc(json!({"type": ["object"]}), None),
                revision,
                &[(INPUT_ROOT, "/tools/0/inputSchema/type", E)],
            );
        }
    }

    #[test]
    fn the_output_root_is_an_object_from_2025_06_18_until_2026_07_28() {
        let document = doc(json!({"type": "object"}), Some(json!({"type": "array"})));
        for (revision, expected) in [
            (
                R2025_06_18,
                vec![(OUTPUT_ROOT, "/tools/0/outputSchema/type", E)],
            ),
            (
                R2025_11_25,
                vec![(OUTPUT_ROOT, "/tools/0/outputSchema/type", E)],
            ),
            (R2026_07_28, vec![]),
        ] {
            assert_findings(&document, revision, &expected);
        }
        let missing = doc(json!({"type": "object"}), Some(json!({})));
        assert_findings(
            &missing,
            R2025_11_25,
            &[(OUTPUT_ROOT, "/tools/0/outputSchema", E)],
        );
    }

    #[test]
    fn dialects_are_declared_from_2025_11_25_and_must_be_supported() {
        let declared = |dialect: &str| doc(json!({"$schema": dialect, "type": "object"}), None);
        let twenty = "https://json-schema.org/draft/2020-12/schema";
        let seven = "http://json-schema.org/draft-07/schema#";
        let unknown = "https://example.com/dialect";
        let at = "/tools/0/inputSchema/$schema";
        for revision in [R2024_11_05, R2025_03_26, R2025_06_18] {
            for dialect in [twenty, seven, unknown] {
                assert_findings(&declared(dialect), revision, &[(DIALECT, at, E)]);
            }
        }
        for revision in [R2025_11_25, R2026_07_28] {
            assert_findings(&declared(twenty), revision, &[]);
            assert_findings(&declared(&format!("{twenty}#")), revision, &[]);
            assert_findings(&declared(seven), revision, &[]);
            assert_findings(&declared(unknown), revision, &[(DIALECT, at, E)]);
            let not_a_string = doc(json!({"$schema": 7, "type": "object"}), None);
            assert_findings(&not_a_string, revision, &[(DIALECT, at, E)]);
        }
    }

    #[test]
    fn schemas_are_valid_under_their_dialect_from_2025_11_25() {
        // A boolean property is valid JSON Schema but not the legacy shape;
        // a numeric `minLength` is neither.
        let boolean = doc(json!({"type": "object", "properties": {"a": true}}), None);
        let broken = doc(
            json!({"type": "object", "properties": {"a": {"minLength": "two"}}}),
            Some(json!({"type": "object", "required": "a"})),
        );
        for revision in [R2025_11_25, R2026_07_28] {
            assert_findings(&boolean, revision, &[]);
            assert_findings(
                &broken,
                revision,
                &[
                    (VALID, "/tools/0/inputSchema", E),
                    (VALID, "/tools/0/outputSchema", E),
                ],
            );
        }
        // draft-07 judges by its own meta-schema: `prefixItems` means
        // nothing there, `items` as an array is its tuple form.
        let seven = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"a": {"items": [{"type": "string"}]}}
        });
        assert_findings(&doc(seven, None), R2025_11_25, &[]);
        let seven_broken = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"a": {"exclusiveMinimum": true}}
        });
        assert_findings(
            &doc(seven_broken, None),
            R2025_11_25,
            &[(VALID, "/tools/0/inputSchema", E)],
        );
    }

    #[test]
    fn earlier_revisions_check_the_legacy_shape_only() {
        let document = doc(
            json!({
                "type": "object",
                "properties": {"a": true, "b": {"minLength": "two"}},
                "required": ["a", 1]
            }),
            Some(json!({"type": "object", "properties": [], "required": "a"})),
        );
        let input = [
            (LEGACY, "/tools/0/inputSchema/properties/a", E),
            (LEGACY, "/tools/0/inputSchema/required/1", E),
        ];
        let output = [
            (LEGACY, "/tools/0/outputSchema/properties", E),
            (LEGACY, "/tools/0/outputSchema/required", E),
        ];
        // Under 2024-11-05 and 2025-03-26 `outputSchema` is not defined,
        // which another rule says.
        let unavailable = (AVAILABLE, "/tools/0/outputSchema", E);
        let early: Vec<_> = input.iter().copied().chain([unavailable]).collect();
        assert_findings(&document, R2024_11_05, &early);
        assert_findings(&document, R2025_03_26, &early);
        let both: Vec<_> = input.iter().chain(&output).copied().collect();
        assert_findings(&document, R2025_06_18, &both);
        let valid = [
            (VALID, "/tools/0/inputSchema", E),
            (VALID, "/tools/0/outputSchema", E),
        ];
        assert_findings(&document, R2025_11_25, &valid);
    }

    #[test]
    fn a_tool_out_of_scope_is_judged_by_the_revision_independent_rules_only() {
        let mut document = doc(
            json!({"properties": 5, "$schema": "x"}),
            Some(json!({"type": "array"})),
        );
        document["tools"][0]["protocolVersions"] = json!(["2026-07-28"]);
        for revision in [R2024_11_05, R2025_06_18, R2025_11_25] {
            assert_findings(
                &document,
                revision,
                &[(INPUT_ROOT, "/tools/0/inputSchema", E)],
            );
        }
    }

    #[test]
    fn references_outside_the_schema_are_warned_about_from_2025_11_25() {
        let input = json!({
            "$id": "https://example.com/tool",
            "type": "object",
            "properties": {
                "local": {"$ref": "#/$defs/d"},
                "anchor": {"$ref": "#here"},
                "own": {"$ref": "https://example.com/tool#/$defs/d"},
                "far": {"$ref": "https://example.com/other.json"},
                "relative": {"$ref": "other.json#/x"},
                "data": {"enum": [{"$ref": "https://example.com/x"}]},
                "number": {"$ref": 5}
            },
            "$defs": {"d": {"$anchor": "here", "$ref": "more.json"}}
        });
        let document = doc(input, None);
        let at = "/tools/0/inputSchema";
        let warned = [
            (EXTERNAL, &*format!("{at}/properties/far/$ref"), W),
            (EXTERNAL, &*format!("{at}/properties/relative/$ref"), W),
            (EXTERNAL, &*format!("{at}/$defs/d/$ref"), W),
        ];
        assert_findings(
            &document,
            R2025_11_25,
            &[warned.as_slice(), &[(VALID, at, E)]].concat(),
        );
        for revision in [R2024_11_05, R2025_06_18] {
            assert_findings(&document, revision, &[]);
        }
    }

    #[test]
    fn a_referenced_schema_is_judged_at_its_use_site() {
        let mut document = doc(
            json!({"$componentRef": "#/components/schemas/in"}),
            Some(json!({"$componentRef": "#/components/schemas/out"})),
        );
        document["components"] = json!({"schemas": {
            "in": {"type": "string", "properties": {"a": 1}},
            "out": {"type": "object", "properties": {"b": {"$ref": "https://example.com/b"}}}
        }});
        let input = "/tools/0/inputSchema";
        let output = "/tools/0/outputSchema";
        assert_findings(
            &document,
            R2025_06_18,
            &[(INPUT_ROOT, input, E), (LEGACY, input, E)],
        );
        assert_findings(
            &document,
            R2026_07_28,
            &[
                (INPUT_ROOT, input, E),
                (VALID, input, E),
                (EXTERNAL, output, W),
            ],
        );
    }

    #[test]
    fn depth_counts_levels_of_nesting() {
        let value = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(depth(&value(json!({}))), 1);
        assert_eq!(depth(&value(json!({"a": 1}))), 1);
        assert_eq!(depth(&value(json!({"a": {}}))), 2);
        assert_eq!(depth(&value(json!({"a": [{"b": []}]}))), 4);
    }
}
