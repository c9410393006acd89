//! `x-mcp-header` on the properties of a Tool's `inputSchema` (Section 9.2):
//! a value that can be an HTTP field name, on a property it can map,
//! unique within the schema, and only under a revision that defines it.

use std::collections::HashMap;

use mcpdesc_protocol::Revision;
use serde_json::Value;

use super::ToolSchema;
use super::subschema::{self, Reach, Subschema};
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;

/// The annotation.
const MEMBER: &str = "x-mcp-header";

/// The first revision that defines the annotation.
const FIRST: Revision = Revision::of("2026-07-28");

/// The property types a header can carry.
const TYPES: [&str; 3] = ["string", "integer", "boolean"];

/// One `x-mcp-header` found at a schema position.
struct Header<'a> {
    /// The subschema that carries it.
    on: &'a Subschema<'a>,
    /// Where findings about it are reported.
    at: Pointer,
    /// Its value.
    value: &'a Value,
}

/// Runs the header rules on an `inputSchema` under `revision`; `in_scope`
/// says whether the Tool applies to it.
pub(super) fn check(
    schema: &ToolSchema<'_>,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let subschemas = subschema::walk(schema.schema, schema.site.schema.clone());
    let headers: Vec<Header<'_>> = subschemas
        .iter()
        .filter_map(|on| {
            let value = on.schema.get(MEMBER)?;
            let at = on.at.key(MEMBER);
            Some(Header {
                on,
                at: schema.site.within(|_| at),
                value,
            })
        })
        .collect();
    for header in &headers {
        if let Some(problem) = problem(header) {
            report.error(rule::TOOL_MCP_HEADER, &header.at, problem);
        }
        if in_scope && revision < FIRST {
            report.error(
                rule::TOOL_MCP_HEADER_PROTOCOL_VERSION,
                &header.at,
                format!("`{MEMBER}` is defined from MCP {FIRST} on, not in {revision}"),
            );
        }
    }
    check_unique(&headers, report);
}

/// What is wrong with one header, if anything: its value, where it is, or
/// the type of its property.
fn problem(header: &Header<'_>) -> Option<&'static str> {
    if !header.value.as_str().is_some_and(is_token) {
        return Some("`x-mcp-header` must be a non-empty HTTP field-name token");
    }
    if header.on.reach != Reach::Property {
        return Some(
            "`x-mcp-header` belongs on a property reached from the root through `properties` alone",
        );
    }
    let typed = header.on.schema.get("type").and_then(Value::as_str);
    if !typed.is_some_and(|typed| TYPES.contains(&typed)) {
        return Some("`x-mcp-header` belongs on a property of type string, integer or boolean");
    }
    None
}

/// Whether `name` is an RFC 9110 token: one or more `tchar`.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
}

/// `mcp.tool.mcp-header.unique`: every header whose string value another
/// header of the schema repeats, compared case-insensitively, is reported;
/// which one came first is not asked, so walk order never matters.
fn check_unique(headers: &[Header<'_>], report: &mut Report) {
    let mut by_name: HashMap<String, Vec<&Header<'_>>> = HashMap::new();
    for header in headers {
        if let Some(name) = header.value.as_str().filter(|name| !name.is_empty()) {
            by_name
                .entry(name.to_ascii_lowercase())
                .or_default()
                .push(header);
        }
    }
    for (name, group) in by_name.iter().filter(|(_, group)| group.len() > 1) {
        for header in group {
            report.error(
                rule::TOOL_MCP_HEADER_UNIQUE,
                &header.at,
                format!("{} properties map to the header `{name}`", group.len()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use super::is_token;
    use crate::rule::{
        TOOL_MCP_HEADER as HEADER, TOOL_MCP_HEADER_PROTOCOL_VERSION as VERSION,
        TOOL_MCP_HEADER_UNIQUE as UNIQUE,
    };
    use crate::tests::{E, assert_findings_beside_legacy as assert_findings, with};

    fn doc(input: Value) -> Value {
        let mut document = with(json!({"tools": [{"name": "t", "inputSchema": input}]}));
        document["protocolVersions"] = json!(["2026-07-28"]);
        document
    }

    const AT: &str = "/tools/0/inputSchema";

    #[test]
    fn tokens_are_rfc_9110_tchars() {
        for good in ["X-Region", "a", "!#$%&'*+-.^_`|~09", "x"] {
            assert!(is_token(good), "{good}");
        }
        for bad in ["", "X Region", "X:Region", "Ä", "a\"b", "(a)", "a/b", "a@b"] {
            assert!(!is_token(bad), "{bad}");
        }
    }

    #[test]
    fn headers_sit_on_scalar_properties_reached_through_properties() {
        let input = json!({
            "type": "object",
            "x-mcp-header": "Root",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "X-Region"},
                "count": {"type": "integer", "x-mcp-header": "X-Count"},
                "flag": {"type": "boolean", "x-mcp-header": "X-Flag"},
                "nested": {"type": "object", "properties": {
                    "deep": {"type": "string", "x-mcp-header": "X-Deep"}
                }},
                "ratio": {"type": "number", "x-mcp-header": "X-Ratio"},
                "untyped": {"x-mcp-header": "X-Untyped"},
                "either": {"type": ["string", "null"], "x-mcp-header": "X-Either"},
                "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "X-Item"}},
                "bad name": {"type": "string", "x-mcp-header": "X Bad"},
                "empty": {"type": "string", "x-mcp-header": ""},
                "number": {"type": "string", "x-mcp-header": 5}
            },
            "anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "X-Any"}}}],
            "$defs": {"d": {"type": "string", "x-mcp-header": "X-Def"}}
        });
        let broken = [
            "",
            "/properties/ratio",
            "/properties/untyped",
            "/properties/either",
            "/properties/list/items",
            "/properties/bad name",
            "/properties/empty",
            "/properties/number",
            "/anyOf/0/properties/a",
            "/$defs/d",
        ];
        let expected: Vec<(&str, String, _)> = broken
            .iter()
            .map(|at| (HEADER, format!("{AT}{at}/x-mcp-header"), E))
            .collect();
        let expected: Vec<_> = expected
            .iter()
            .map(|(r, p, s)| (*r, p.as_str(), *s))
            .collect();
        assert_findings(&doc(input), R2026_07_28, &expected);
    }

    #[test]
    fn every_header_of_a_repeated_name_is_reported_whatever_its_case() {
        let input = json!({
            "type": "object",
            "properties": {
                "a": {"type": "string", "x-mcp-header": "X-Region"},
                "b": {"type": "string", "x-mcp-header": "x-region"},
                "c": {"type": "string", "x-mcp-header": "X-Other"},
                "d": {"type": "object", "properties": {
                    "e": {"type": "string", "x-mcp-header": "X-REGION"}
                }},
                "f": {"type": "string", "x-mcp-header": "X-Other2"}
            }
        });
        assert_findings(
            &doc(input),
            R2026_07_28,
            &[
                (UNIQUE, &format!("{AT}/properties/a/x-mcp-header"), E),
                (UNIQUE, &format!("{AT}/properties/b/x-mcp-header"), E),
                (
                    UNIQUE,
                    &format!("{AT}/properties/d/properties/e/x-mcp-header"),
                    E,
                ),
            ],
        );
    }

    #[test]
    fn headers_are_defined_from_2026_07_28_on_for_tools_in_scope() {
        let input = json!({
            "type": "object",
            "properties": {"a": {"type": "string", "x-mcp-header": "X-A"}},
            "not": {"x-mcp-header": "X-B"}
        });
        let mut document = doc(input);
        document["protocolVersions"] = json!(FIVE);
        let a = format!("{AT}/properties/a/x-mcp-header");
        let b = format!("{AT}/not/x-mcp-header");
        for revision in [R2024_11_05, R2025_03_26, R2025_06_18, R2025_11_25] {
            assert_findings(
                &document,
                revision,
                &[(HEADER, &b, E), (VERSION, &a, E), (VERSION, &b, E)],
            );
        }
        assert_findings(&document, R2026_07_28, &[(HEADER, &b, E)]);
        // A Tool for 2026-07-28 alone is not judged under other revisions.
        document["tools"][0]["protocolVersions"] = json!(["2026-07-28"]);
        assert_findings(&document, R2025_11_25, &[(HEADER, &b, E)]);
    }

    #[test]
    fn output_schemas_and_referenced_input_schemas() {
        let mut document = with(json!({"tools": [{
            "name": "t",
            "inputSchema": {"$componentRef": "#/components/schemas/in"},
            "outputSchema": {"type": "object", "properties": {"o": {"type": "number", "x-mcp-header": "X O"}}}
        }]}));
        document["protocolVersions"] = json!(["2026-07-28"]);
        document["components"] = json!({"schemas": {"in": {
            "type": "object",
            "properties": {
                "a": {"type": "string", "x-mcp-header": "X-A"},
                "b": {"type": "string", "x-mcp-header": "x-a"}
            }
        }}});
        assert_findings(&document, R2026_07_28, &[(UNIQUE, AT, E)]);
    }
}
