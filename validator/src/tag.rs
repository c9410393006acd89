//! Tags: the root catalogue and the tag lists of primitives (Section 13).
//!
//! Rules: `mcpdesc.tag.catalogue`, `mcpdesc.tag.name-unique`,
//! `mcpdesc.tag.reference-list` and `mcpdesc.tag.declared`. None depends on
//! the MCP revision: the catalogue is not protocol-scoped, and every
//! primitive's tags are checked against it whatever the primitive's scope.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::document::Document;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::value::is_extension;

/// The member that holds the catalogue at the root and the references on a
/// primitive.
const MEMBER: &str = "tags";

/// Every member a Tag Object may have besides `x-` extensions.
const TAG_MEMBERS: [&str; 2] = ["name", "description"];

/// Runs the tag rules on `document`.
pub(crate) fn check(document: &Document<'_>, report: &mut Report) {
    let Some(root) = document.root else {
        return;
    };
    let catalogue = root
        .get(MEMBER)
        .and_then(|tags| check_catalogue(tags, &Pointer::root().key(MEMBER), report));
    for primitive in &document.primitives {
        if let Some(tags) = primitive.object.get(MEMBER) {
            let at = primitive.pointer.key(MEMBER);
            check_references(tags, &at, catalogue.as_ref(), report);
        }
    }
}

/// `mcpdesc.tag.catalogue` and `mcpdesc.tag.name-unique` on the root
/// `tags`. Returns the declared names when `tags` is an array (a
/// catalogue, however malformed its entries), `None` when it declares
/// nothing checkable.
fn check_catalogue<'a>(
    tags: &'a Value,
    at: &Pointer,
    report: &mut Report,
) -> Option<HashSet<&'a str>> {
    let Value::Array(entries) = tags else {
        report.error(rule::TAG_CATALOGUE, at, "the root `tags` must be an array");
        return None;
    };
    if entries.is_empty() {
        report.error(
            rule::TAG_CATALOGUE,
            at,
            "the root `tags` must hold at least one tag; leave it out when there is none",
        );
    }
    let mut declared = HashSet::new();
    for (index, entry) in entries.iter().enumerate() {
        let at = at.index(index);
        let Value::Object(tag) = entry else {
            report.error(rule::TAG_CATALOGUE, &at, "a tag must be an object");
            continue;
        };
        check_tag(tag, &at, report);
        if let Some(Value::String(name)) = tag.get("name")
            && !declared.insert(name.as_str())
        {
            report.error(
                rule::TAG_NAME_UNIQUE,
                &at.key("name"),
                format!("an earlier tag of the catalogue is already named `{name}`"),
            );
        }
    }
    Some(declared)
}

/// The members of one Tag Object (`mcpdesc.tag.catalogue`).
fn check_tag(tag: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    match tag.get("name") {
        None => report.error(rule::TAG_CATALOGUE, at, "a tag's `name` is missing"),
        Some(Value::String(name)) if name.is_empty() => report.error(
            rule::TAG_CATALOGUE,
            &at.key("name"),
            "a tag's `name` must not be empty",
        ),
        Some(Value::String(_)) => {}
        Some(_) => report.error(
            rule::TAG_CATALOGUE,
            &at.key("name"),
            "a tag's `name` must be a string",
        ),
    }
    if let Some(description) = tag.get("description")
        && !description.is_string()
    {
        report.error(
            rule::TAG_CATALOGUE,
            &at.key("description"),
            "a tag's `description` must be a string",
        );
    }
    for member in tag.keys() {
        if !TAG_MEMBERS.contains(&member.as_str()) && !is_extension(member) {
            report.error(
                rule::TAG_CATALOGUE,
                &at.key(member),
                format!("a Tag Object has no member `{member}`"),
            );
        }
    }
}

/// `mcpdesc.tag.reference-list` and `mcpdesc.tag.declared` on one
/// primitive's `tags`, at `at`.
fn check_references(
    tags: &Value,
    at: &Pointer,
    catalogue: Option<&HashSet<&str>>,
    report: &mut Report,
) {
    let Value::Array(entries) = tags else {
        report.error(
            rule::TAG_REFERENCE_LIST,
            at,
            "a primitive's `tags` must be an array of tag names",
        );
        return;
    };
    if entries.is_empty() {
        report.error(
            rule::TAG_REFERENCE_LIST,
            at,
            "a primitive's `tags` must name at least one tag; leave it out when there is none",
        );
    }
    let mut seen = HashSet::new();
    for (index, entry) in entries.iter().enumerate() {
        let at = at.index(index);
        let Value::String(name) = entry else {
            report.error(
                rule::TAG_REFERENCE_LIST,
                &at,
                "a tag reference must be a string",
            );
            continue;
        };
        if !seen.insert(name.as_str()) {
            report.error(
                rule::TAG_REFERENCE_LIST,
                &at,
                format!("`{name}` is already listed in this primitive's `tags`"),
            );
        }
        if let Some(declared) = catalogue
            && !declared.contains(name.as_str())
        {
            report.error(
                rule::TAG_DECLARED,
                &at,
                format!("the root `tags` catalogue declares no tag named `{name}`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::rule::{
        TAG_CATALOGUE as CATALOGUE, TAG_DECLARED as DECLARED, TAG_NAME_UNIQUE as UNIQUE,
        TAG_REFERENCE_LIST as LIST,
    };
    use crate::tests::revisions::*;
    use crate::tests::{E, assert_findings, tool, with};

    #[test]
    fn a_catalogue_and_declared_references_pass() {
        let doc = with(json!({
            "tags": [{"name": "a", "description": "A.", "x-order": 1}, {"name": "b"}],
            "tools": [tool(json!({"tags": ["a", "b"]}))],
            "prompts": [{"name": "p", "tags": ["b"]}, {"name": "q"}]
        }));
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn the_catalogue_is_a_non_empty_array_of_tag_objects() {
        for (tags, at) in [(json!([]), "/tags"), (json!({"a": {}}), "/tags")] {
            assert_findings(
                &with(json!({"tags": tags})),
                R2026_07_28,
                &[(CATALOGUE, at, E)],
            );
        }
        let doc = with(json!({"tags": [
            "a",
            {"description": "no name"},
            {"name": 7},
            {"name": ""},
            {"name": "b", "description": 1},
            {"name": "c", "protocolVersions": ["2026-07-28"], "X-upper": 1, "x-fine": 2},
            {"name": " "}
        ]}));
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (CATALOGUE, "/tags/0", E),
                (CATALOGUE, "/tags/1", E),
                (CATALOGUE, "/tags/2/name", E),
                (CATALOGUE, "/tags/3/name", E),
                (CATALOGUE, "/tags/4/description", E),
                (CATALOGUE, "/tags/5/X-upper", E),
                (CATALOGUE, "/tags/5/protocolVersions", E),
            ],
        );
    }

    #[test]
    fn each_repeat_of_a_catalogue_name_is_reported_case_sensitively() {
        let doc = with(json!({"tags": [
            {"name": "a"}, {"name": "A"}, {"name": "a"}, {"name": 1}, {"name": 1}, {"name": "a"}
        ]}));
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (CATALOGUE, "/tags/3/name", E),
                (CATALOGUE, "/tags/4/name", E),
                (UNIQUE, "/tags/2/name", E),
                (UNIQUE, "/tags/5/name", E),
            ],
        );
    }

    #[test]
    fn reference_lists_are_non_empty_arrays_of_distinct_strings() {
        // No catalogue: the strings are free, the list is still a set.
        let doc = with(json!({
            "tools": [
                tool(json!({"name": "t0", "tags": []})),
                tool(json!({"name": "t1", "tags": "a"})),
                tool(json!({"name": "t2", "tags": [1, "a", "b", "a", "a", {"x": 1}]}))
            ],
            "resources": [{"uri": "file:///r", "name": "r", "tags": ["any", "thing"]}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (LIST, "/tools/0/tags", E),
                (LIST, "/tools/1/tags", E),
                (LIST, "/tools/2/tags/0", E),
                (LIST, "/tools/2/tags/3", E),
                (LIST, "/tools/2/tags/4", E),
                (LIST, "/tools/2/tags/5", E),
            ],
        );
    }

    #[test]
    fn with_a_catalogue_every_reference_is_declared() {
        let doc = with(json!({
            "tags": [{"name": "a"}, "b", {"name": 7}, {"name": "c"}],
            "protocolVersions": ["2025-06-18", "2025-11-25"],
            "tools": [tool(json!({"tags": ["a", "b", "7", "A", "c"]}))],
            "resourceTemplates": [{
                "uriTemplate": "file:///{x}", "name": "t",
                "tags": ["d", "d"], "protocolVersions": ["2025-06-18"]
            }]
        }));
        // The template is outside 2025-11-25 and still checked: tags are
        // not protocol-scoped.
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (CATALOGUE, "/tags/1", E),
                (CATALOGUE, "/tags/2/name", E),
                (DECLARED, "/resourceTemplates/0/tags/0", E),
                (DECLARED, "/resourceTemplates/0/tags/1", E),
                (DECLARED, "/tools/0/tags/1", E),
                (DECLARED, "/tools/0/tags/2", E),
                (DECLARED, "/tools/0/tags/3", E),
                (LIST, "/resourceTemplates/0/tags/1", E),
            ],
        );
    }

    #[test]
    fn an_empty_catalogue_declares_nothing_and_a_non_array_one_is_not_consulted() {
        let doc = with(json!({"tags": [], "tools": [tool(json!({"tags": ["a"]}))]}));
        assert_findings(
            &doc,
            R2026_07_28,
            &[(CATALOGUE, "/tags", E), (DECLARED, "/tools/0/tags/0", E)],
        );
        let doc = with(json!({"tags": {"a": {}}, "tools": [tool(json!({"tags": ["a", "z"]}))]}));
        assert_findings(&doc, R2026_07_28, &[(CATALOGUE, "/tags", E)]);
    }

    #[test]
    fn primitives_that_are_not_objects_carry_no_tags() {
        let doc = with(json!({"tags": [{"name": "a"}], "tools": [["tags", "z"]]}));
        assert_findings(
            &doc,
            R2026_07_28,
            &[(crate::rule::PRIMITIVE_SHAPE, "/tools/0", E)],
        );
    }
}
