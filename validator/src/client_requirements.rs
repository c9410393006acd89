//! Client capability requirements (Section 8.5): the `clientRequirements`
//! of a Tool, Resource, Resource Template or Prompt, the minimum MCP client
//! capabilities that using it needs, judged against the `ClientCapabilities`
//! of each revision in the primitive's effective scope.
//!
//! Rules: `mcpdesc.client-requirements.shape`, which does not depend on the
//! revision (the object, the types of the members the table of Section 8.5
//! names, and no `protocolVersions`); `mcp.client-requirements.protocol-version`
//! and the warning `mcp.client-requirements.deprecated`, which judge, under
//! revision R, only the primitives whose effective scope includes R. An
//! `extensions` map is `mcp.extensions.identifier`'s, as on a Capabilities
//! Object.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::capability;
use crate::document::Document;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::scope;
use crate::value::{self, is_extension};

/// The primitive member that holds the requirements.
const MEMBER: &str = "clientRequirements";

/// The revision that makes `roots` an empty, deprecated marker and
/// deprecates `sampling.context` and `sampling.tools` (Section 8.5).
const DEPRECATIONS_FROM: Revision = Revision::of("2026-07-28");

/// What a member of the table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// An object (a capability marker or settings).
    Object,
    /// A boolean flag (`roots.listChanged`).
    Boolean,
    /// An object of objects (`experimental`).
    ObjectOfObjects,
    /// An extension map, `mcp.extensions.identifier`'s (`extensions`).
    Extensions,
}

/// One place of the table of Section 8.5: a path of member names below
/// `clientRequirements`, what it holds, and the revisions that define it,
/// from `from` to `until` (inclusive; open when `None`).
struct Place {
    path: &'static [&'static str],
    holds: Holds,
    from: Revision,
    until: Option<Revision>,
}

impl Place {
    const fn new(
        path: &'static [&'static str],
        holds: Holds,
        from: &str,
        until: Option<&str>,
    ) -> Place {
        Place {
            path,
            holds,
            from: Revision::of(from),
            until: match until {
                Some(until) => Some(Revision::of(until)),
                None => None,
            },
        }
    }

    /// Whether `revision`'s `ClientCapabilities` define this place.
    fn defined_in(&self, revision: Revision) -> bool {
        self.from <= revision && self.until.is_none_or(|until| revision <= until)
    }
}

/// Every capability and nested member the table of Section 8.5 names,
/// parents before children. A name no revision defines is an unknown entry
/// of an open MCP type, accepted with an object value at the top level and
/// not inspected below it.
const TABLE: [Place; 18] = [
    Place::new(&["roots"], Holds::Object, "2024-11-05", None),
    Place::new(
        &["roots", "listChanged"],
        Holds::Boolean,
        "2024-11-05",
        Some("2025-11-25"),
    ),
    Place::new(&["sampling"], Holds::Object, "2024-11-05", None),
    Place::new(&["sampling", "context"], Holds::Object, "2025-11-25", None),
    Place::new(&["sampling", "tools"], Holds::Object, "2025-11-25", None),
    Place::new(&["elicitation"], Holds::Object, "2025-06-18", None),
    Place::new(&["elicitation", "form"], Holds::Object, "2025-11-25", None),
    Place::new(&["elicitation", "url"], Holds::Object, "2025-11-25", None),
    Place::new(&["tasks"], Holds::Object, "2025-11-25", Some("2025-11-25")),
    Place::new(
        &["tasks", "list"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["tasks", "cancel"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["tasks", "requests"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["tasks", "requests", "sampling"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["tasks", "requests", "sampling", "createMessage"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["tasks", "requests", "elicitation"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["tasks", "requests", "elicitation", "create"],
        Holds::Object,
        "2025-11-25",
        Some("2025-11-25"),
    ),
    Place::new(
        &["experimental"],
        Holds::ObjectOfObjects,
        "2024-11-05",
        None,
    ),
    Place::new(&["extensions"], Holds::Extensions, "2026-07-28", None),
];

/// The members deprecated from [`DEPRECATIONS_FROM`] on, as paths.
const DEPRECATED: [&[&str]; 3] = [&["roots"], &["sampling", "context"], &["sampling", "tools"]];

/// Runs every client requirement rule on the document under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for primitive in &document.primitives {
        let Some(value) = primitive.object.get(MEMBER) else {
            continue;
        };
        let at = primitive.pointer.key(MEMBER);
        let Some(requirements) = check_shape(value, &at, report) else {
            continue;
        };
        if primitive.scope.includes(revision) {
            check_revision(requirements, &at, revision, report);
        }
    }
}

/// `mcpdesc.client-requirements.shape`: a non-empty object without
/// `protocolVersions`, whose capabilities are objects and whose members of
/// the table have their types. Returns the object when it is one.
fn check_shape<'a>(
    value: &'a Value,
    at: &Pointer,
    report: &mut Report,
) -> Option<&'a Map<String, Value>> {
    let Value::Object(requirements) = value else {
        report.error(
            rule::CLIENT_REQUIREMENTS_SHAPE,
            at,
            "`clientRequirements` must be an object of client capabilities",
        );
        return None;
    };
    if requirements.is_empty() {
        report.error(
            rule::CLIENT_REQUIREMENTS_SHAPE,
            at,
            "`clientRequirements` must name at least one capability; leave it out when there is none",
        );
    }
    for (member, value) in requirements {
        let inner = at.key(member);
        if member == scope::MEMBER {
            report.error(
                rule::CLIENT_REQUIREMENTS_SHAPE,
                &inner,
                "client requirements take the primitive's scope and have no `protocolVersions`",
            );
        } else if !is_extension(member)
            && !TABLE.iter().any(|place| place.path == [member.as_str()])
        {
            // An unknown capability of the open MCP type: a marker or
            // settings object, not inspected further.
            check_holds(value, Holds::Object, &inner, report);
        }
    }
    for place in &TABLE {
        if let Some((value, inner)) = find(requirements, place.path, at) {
            check_holds(value, place.holds, &inner, report);
        }
    }
    Some(requirements)
}

/// Checks that `value`, at `at`, holds what `holds` says.
fn check_holds(value: &Value, holds: Holds, at: &Pointer, report: &mut Report) {
    let message = match holds {
        Holds::Object if !value.is_object() => {
            "a client capability or its settings must be an object"
        }
        Holds::Boolean if !value.is_boolean() => "this flag must be a boolean",
        Holds::ObjectOfObjects => {
            value::check_map_of(
                value,
                at,
                Value::is_object,
                rule::CLIENT_REQUIREMENTS_SHAPE,
                [
                    "`experimental` must be an object of capability objects",
                    "an experimental capability must be an object",
                ],
                report,
            );
            return;
        }
        Holds::Extensions => {
            capability::check_extensions(value, at, report);
            return;
        }
        _ => return,
    };
    report.error(rule::CLIENT_REQUIREMENTS_SHAPE, at, message);
}

/// The value at `path` below `requirements`, with its pointer, when every
/// member on the way is there (the last one of any type).
fn find<'a>(
    requirements: &'a Map<String, Value>,
    path: &[&str],
    at: &Pointer,
) -> Option<(&'a Value, Pointer)> {
    let (last, parents) = path.split_last()?;
    let mut object = requirements;
    let mut at = at.clone();
    for member in parents {
        object = object.get(*member)?.as_object()?;
        at = at.key(member);
    }
    Some((object.get(*last)?, at.key(last)))
}

/// `mcp.client-requirements.protocol-version` and
/// `mcp.client-requirements.deprecated` on one primitive's requirements
/// that apply to `revision`.
fn check_revision(
    requirements: &Map<String, Value>,
    at: &Pointer,
    revision: Revision,
    report: &mut Report,
) {
    for place in &TABLE {
        // Reported where the revision stops defining the path: a member
        // below an undefined capability is that capability's finding.
        let parent_defined = TABLE
            .iter()
            .filter(|parent| parent.path.len() < place.path.len())
            .filter(|parent| place.path.starts_with(parent.path))
            .all(|parent| parent.defined_in(revision));
        if place.defined_in(revision) || !parent_defined {
            continue;
        }
        if let Some((_, inner)) = find(requirements, place.path, at) {
            report.error(
                rule::CLIENT_REQUIREMENTS_PROTOCOL_VERSION,
                &inner,
                format!(
                    "the client capabilities of MCP {revision} define no `{}`",
                    place.path.join(".")
                ),
            );
        }
    }
    if revision < DEPRECATIONS_FROM {
        return;
    }
    // `roots` stays, deprecated and empty: whatever it holds is more than
    // the revision defines.
    if let Some(Value::Object(roots)) = requirements.get("roots") {
        let at = at.key("roots");
        for member in roots.keys() {
            report.error(
                rule::CLIENT_REQUIREMENTS_PROTOCOL_VERSION,
                &at.key(member),
                format!("in MCP {revision} a required `roots` capability must be empty"),
            );
        }
    }
    for path in DEPRECATED {
        if let Some((_, inner)) = find(requirements, path, at) {
            report.warning(
                rule::CLIENT_REQUIREMENTS_DEPRECATED,
                &inner,
                format!("`{}` is deprecated in MCP {revision}", path.join(".")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::rule::{
        CLIENT_REQUIREMENTS_DEPRECATED as DEPRECATED,
        CLIENT_REQUIREMENTS_PROTOCOL_VERSION as VERSION, CLIENT_REQUIREMENTS_SHAPE as SHAPE,
        EXTENSIONS_IDENTIFIER as IDENTIFIER, PROTOCOL_LEGACY_VALIDATION_INCOMPLETE as LEGACY,
    };
    use crate::tests::revisions::*;
    use crate::tests::{E, W, assert_findings, tool, with};

    /// A document for every revision whose one Tool requires `requirements`.
    fn requiring(requirements: Value) -> Value {
        let tool = tool(json!({"clientRequirements": requirements}));
        with(json!({"protocolVersions": FIVE, "tools": [tool]}))
    }

    const AT: &str = "/tools/0/clientRequirements";

    fn at(rest: &str) -> String {
        format!("{AT}/{rest}")
    }

    #[test]
    fn the_object_is_non_empty_without_a_scope() {
        for value in [json!([]), json!("sampling"), json!({})] {
            assert_findings(&requiring(value), R2025_11_25, &[(SHAPE, AT, E)]);
        }
        let doc = requiring(json!({"protocolVersions": ["2025-11-25"], "sampling": {}}));
        assert_findings(&doc, R2025_11_25, &[(SHAPE, &at("protocolVersions"), E)]);
        // An extension alone makes the object non-empty.
        assert_findings(&requiring(json!({"x-note": 1})), R2025_11_25, &[]);
    }

    #[test]
    fn capabilities_and_settings_are_objects() {
        let doc = requiring(json!({
            "sampling": {"context": true, "tools": {}, "x-open": 1},
            "roots": {"listChanged": "yes"},
            "elicitation": {"form": {}, "url": []},
            "experimental": {"a": {}, "b": 7},
            "futureCapability": 7,
            "otherFuture": {"anything": 1}
        }));
        let expected = [
            at("elicitation/url"),
            at("experimental/b"),
            at("futureCapability"),
            at("roots/listChanged"),
            at("sampling/context"),
        ];
        let expected: Vec<_> = expected.iter().map(|p| (SHAPE, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
        let doc = requiring(json!({"experimental": [], "tasks": {"requests": {"sampling": 1}}}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, &at("experimental"), E),
                (SHAPE, &at("tasks/requests/sampling"), E),
            ],
        );
    }

    #[test]
    fn members_per_revision() {
        let doc = requiring(json!({
            "roots": {"listChanged": true},
            "sampling": {"context": {}},
            "elicitation": {"url": {}},
            "tasks": {"list": {}},
            "extensions": {"io.example/a": {}}
        }));
        let legacy = (LEGACY, "/protocolVersions", W);
        let (elicitation, url, tasks, extensions, context, list_changed, roots) = (
            at("elicitation"),
            at("elicitation/url"),
            at("tasks"),
            at("extensions"),
            at("sampling/context"),
            at("roots/listChanged"),
            at("roots"),
        );
        let early = [
            (VERSION, elicitation.as_str(), E),
            (VERSION, extensions.as_str(), E),
            (VERSION, context.as_str(), E),
            (VERSION, tasks.as_str(), E),
        ];
        for revision in [R2024_11_05, R2025_03_26] {
            let mut expected = early.to_vec();
            expected.push(legacy);
            assert_findings(&doc, revision, &expected);
        }
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (VERSION, &url, E),
                (VERSION, &extensions, E),
                (VERSION, &context, E),
                (VERSION, &tasks, E),
            ],
        );
        assert_findings(&doc, R2025_11_25, &[(VERSION, &extensions, E)]);
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (DEPRECATED, &roots, W),
                (DEPRECATED, &context, W),
                (VERSION, &list_changed, E),
                (VERSION, &tasks, E),
            ],
        );
    }

    #[test]
    fn roots_is_empty_and_deprecated_in_2026_07_28() {
        let doc = requiring(json!({"roots": {"x-a": 1, "other": {}}, "sampling": {"tools": {}}}));
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (DEPRECATED, &at("roots"), W),
                (DEPRECATED, &at("sampling/tools"), W),
                (VERSION, &at("roots/other"), E),
                (VERSION, &at("roots/x-a"), E),
            ],
        );
        // Earlier, `roots` is open: unknown members are accepted.
        assert_findings(&doc, R2025_11_25, &[]);
        let doc = requiring(json!({"roots": {}}));
        assert_findings(&doc, R2026_07_28, &[(DEPRECATED, &at("roots"), W)]);
    }

    #[test]
    fn only_primitives_in_scope_are_judged_by_revision() {
        let tool = tool(json!({
            "protocolVersions": ["2025-11-25"],
            "clientRequirements": {"tasks": {}, "extensions": {}}
        }));
        let doc = with(json!({"protocolVersions": FIVE, "tools": [tool]}));
        // The shape of the extension map is judged under every revision.
        assert_findings(&doc, R2026_07_28, &[(IDENTIFIER, &at("extensions"), E)]);
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (IDENTIFIER, &at("extensions"), E),
                (VERSION, &at("extensions"), E),
            ],
        );
    }

    #[test]
    fn every_kind_of_primitive_is_judged() {
        let requirements = json!({"elicitation": {}});
        let doc = with(json!({
            "protocolVersions": ["2025-03-26"],
            "prompts": [{"name": "p", "clientRequirements": requirements}],
            "resources": [{"name": "r", "uri": "file:///r.txt", "clientRequirements": requirements}],
            "resourceTemplates": [{"name": "t", "uriTemplate": "file:///{n}.txt", "clientRequirements": requirements}]
        }));
        assert_findings(
            &doc,
            R2025_03_26,
            &[
                (VERSION, "/prompts/0/clientRequirements/elicitation", E),
                (
                    VERSION,
                    "/resourceTemplates/0/clientRequirements/elicitation",
                    E,
                ),
                (VERSION, "/resources/0/clientRequirements/elicitation", E),
                (LEGACY, "/protocolVersions", W),
            ],
        );
    }
}
