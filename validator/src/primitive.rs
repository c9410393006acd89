//! Tools, resources, resource templates and prompts: the primitive collections.

use std::collections::HashSet;

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::scope::{self, Scope};
use crate::value::is_extension;

/// The members every kind of primitive may hold (Sections 9.1, 10.1.1,
/// 10.2.1 and 11.1), besides its own and `x-` extensions.
const COMMON_MEMBERS: [&str; 10] = [
    "protocolVersions",
    "title",
    "description",
    "icons",
    "tags",
    "elicitations",
    "deprecated",
    "_meta",
    "security",
    "clientRequirements",
];

/// The four kinds of primitive a description can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// A member of `tools`.
    Tool,
    /// A member of `resources`.
    Resource,
    /// A member of `resourceTemplates`.
    ResourceTemplate,
    /// A member of `prompts`.
    Prompt,
}

/// The JSON type a member must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    String,
    Object,
    Boolean,
    Number,
}

impl Type {
    /// Whether `value` has this type.
    pub(crate) fn admits(self, value: &Value) -> bool {
        match self {
            Type::String => value.is_string(),
            Type::Object => value.is_object(),
            Type::Boolean => value.is_boolean(),
            Type::Number => value.is_number(),
        }
    }

    /// The type as a message names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Type::String => "a string",
            Type::Object => "an object",
            Type::Boolean => "a boolean",
            Type::Number => "a number",
        }
    }
}

impl Kind {
    /// Every kind, in the order their collections are walked.
    pub(crate) const ALL: [Kind; 4] = [
        Kind::Tool,
        Kind::Resource,
        Kind::ResourceTemplate,
        Kind::Prompt,
    ];

    /// The root member that holds primitives of this kind.
    pub(crate) fn collection(self) -> &'static str {
        match self {
            Kind::Tool => "tools",
            Kind::Resource => "resources",
            Kind::ResourceTemplate => "resourceTemplates",
            Kind::Prompt => "prompts",
        }
    }

    /// The members only this kind of primitive may hold, its identity
    /// members among them.
    fn own_members(self) -> &'static [&'static str] {
        match self {
            Kind::Tool => &[
                "name",
                "inputSchema",
                "outputSchema",
                "annotations",
                "execution",
                "examples",
                "interactionExamples",
            ],
            Kind::Resource => &["uri", "name", "mimeType", "size", "annotations", "examples"],
            Kind::ResourceTemplate => &[
                "uriTemplate",
                "name",
                "mimeType",
                "annotations",
                "examples",
                "completionExamples",
            ],
            Kind::Prompt => &["name", "arguments", "examples", "completionExamples"],
        }
    }

    /// Whether a primitive of this kind may hold `member`.
    fn defines(self, member: &str) -> bool {
        is_extension(member)
            || COMMON_MEMBERS.contains(&member)
            || self.own_members().contains(&member)
    }

    /// The member whose value names the primitive a declaration of this
    /// kind declares: declarations with the same value are variants of one
    /// primitive (Sections 9.5, 10.5 and 11.1).
    fn key(self) -> &'static str {
        match self {
            Kind::Tool | Kind::Prompt => "name",
            Kind::Resource => "uri",
            Kind::ResourceTemplate => "uriTemplate",
        }
    }

    /// The members that identify a primitive of this kind, with their types.
    fn identity(self) -> &'static [(&'static str, Type)] {
        match self {
            Kind::Tool => &[("name", Type::String), ("inputSchema", Type::Object)],
            Kind::Resource => &[("uri", Type::String), ("name", Type::String)],
            Kind::ResourceTemplate => &[("uriTemplate", Type::String), ("name", Type::String)],
            Kind::Prompt => &[("name", Type::String)],
        }
    }
}

/// One primitive that is an object, with where it is and what it applies to.
#[derive(Debug)]
pub(crate) struct Primitive<'a> {
    /// Which collection it is in.
    pub(crate) kind: Kind,
    /// Where it is: `/<collection>/<index>`.
    pub(crate) pointer: Pointer,
    /// Its members.
    pub(crate) object: &'a Map<String, Value>,
    /// Its effective protocol scope.
    pub(crate) scope: Scope<'a>,
}

/// `mcpdesc.primitive.variant-overlap` under `revision`: among the
/// declarations of one kind whose effective scope includes `revision`, each
/// one after the first with the same key (a string `name`, `uri` or
/// `uriTemplate`) is reported, at its `protocolVersions` when it has that
/// member, else at the declaration, which inherits the root scope.
pub(crate) fn check_variants(
    primitives: &[Primitive<'_>],
    revision: Revision,
    report: &mut Report,
) {
    let mut seen: HashSet<(Kind, &str)> = HashSet::new();
    for primitive in primitives {
        let Some(key) = primitive
            .object
            .get(primitive.kind.key())
            .and_then(Value::as_str)
        else {
            continue;
        };
        if !primitive.scope.includes(revision) || seen.insert((primitive.kind, key)) {
            continue;
        }
        report.error(
            rule::PRIMITIVE_VARIANT_OVERLAP,
            &scope::overlap_pointer(primitive.object, &primitive.pointer),
            format!(
                "another declaration with {} `{key}` already applies to MCP {revision}",
                primitive.kind.key()
            ),
        );
    }
}

/// The members of the kinds' tables (Sections 9.1, 10.1.1, 10.2.1, 11.1)
/// that `mcpdesc.primitive.members` types, with the kinds that hold them;
/// the others have rules of their own.
const TYPED_MEMBERS: [(&str, &[Kind], Type); 6] = [
    ("title", &Kind::ALL, Type::String),
    ("description", &Kind::ALL, Type::String),
    ("deprecated", &Kind::ALL, Type::Boolean),
    (
        "mimeType",
        &[Kind::Resource, Kind::ResourceTemplate],
        Type::String,
    ),
    ("size", &[Kind::Resource], Type::Number),
    ("outputSchema", &[Kind::Tool], Type::Object),
];

/// `mcpdesc.primitive.members`: each typed member of the kind's table that
/// is present has its type.
fn check_members(kind: Kind, object: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    for &(member, kinds, expected) in &TYPED_MEMBERS {
        let Some(value) = object.get(member) else {
            continue;
        };
        if kinds.contains(&kind) && !expected.admits(value) {
            report.error(
                rule::PRIMITIVE_MEMBERS,
                &at.key(member),
                format!("`{member}` must be {}", expected.name()),
            );
        }
    }
}

/// The revisions that define a member: from `first` on, and before `end`
/// when it is given.
#[derive(Debug, Clone, Copy)]
struct Defined {
    first: Revision,
    end: Option<Revision>,
}

impl Defined {
    const fn from(first: &str) -> Self {
        Defined {
            first: Revision::of(first),
            end: None,
        }
    }

    const fn only(revision: &str, next: &str) -> Self {
        Defined {
            first: Revision::of(revision),
            end: Some(Revision::of(next)),
        }
    }

    fn contains(self, revision: Revision) -> bool {
        self.first <= revision && self.end.is_none_or(|end| revision < end)
    }
}

/// The primitive members that not every revision defines (the "Since MCP"
/// notes of the tables of Sections 9.1, 10.1.1, 10.2.1 and 11.1; `_meta`
/// has `mcp.meta.protocol-version`, elicitations theirs).
const AVAILABILITY: [(&str, &[Kind], Defined); 5] = [
    ("title", &Kind::ALL, Defined::from("2025-06-18")),
    ("outputSchema", &[Kind::Tool], Defined::from("2025-06-18")),
    ("annotations", &[Kind::Tool], Defined::from("2025-03-26")),
    (
        "execution",
        &[Kind::Tool],
        Defined::only("2025-11-25", "2026-07-28"),
    ),
    ("icons", &Kind::ALL, Defined::from("2025-11-25")),
];

/// A Prompt Argument's `title` (Section 11.2).
const ARGUMENT_TITLE: Defined = Defined::from("2025-06-18");

/// `mcp.primitive.protocol-version` under `revision`: each member of a
/// primitive in scope that `revision` does not define, whatever its value.
pub(crate) fn check_availability(
    primitives: &[Primitive<'_>],
    revision: Revision,
    report: &mut Report,
) {
    for primitive in primitives.iter().filter(|p| p.scope.includes(revision)) {
        for &(member, kinds, defined) in &AVAILABILITY {
            if kinds.contains(&primitive.kind)
                && primitive.object.contains_key(member)
                && !defined.contains(revision)
            {
                report.error(
                    rule::PRIMITIVE_PROTOCOL_VERSION,
                    &primitive.pointer.key(member),
                    format!("MCP {revision} defines no `{member}` on this primitive"),
                );
            }
        }
        if primitive.kind != Kind::Prompt || ARGUMENT_TITLE.contains(revision) {
            continue;
        }
        let Some(Value::Array(arguments)) = primitive.object.get("arguments") else {
            continue;
        };
        let at = primitive.pointer.key("arguments");
        for (index, argument) in arguments.iter().enumerate() {
            if argument
                .as_object()
                .is_some_and(|a| a.contains_key("title"))
            {
                report.error(
                    rule::PRIMITIVE_PROTOCOL_VERSION,
                    &at.index(index).key("title"),
                    format!("MCP {revision} defines no `title` on a Prompt Argument"),
                );
            }
        }
    }
}

/// Every primitive that is an object, in document order; collections that are
/// not arrays and items that are not objects are left to [`check`].
pub(crate) fn collect<'a>(
    root: &'a Map<String, Value>,
    root_scope: Scope<'a>,
) -> Vec<Primitive<'a>> {
    let mut primitives = Vec::new();
    for kind in Kind::ALL {
        let Some(Value::Array(items)) = root.get(kind.collection()) else {
            continue;
        };
        let at = Pointer::root().key(kind.collection());
        for (index, item) in items.iter().enumerate() {
            if let Value::Object(object) = item {
                primitives.push(Primitive {
                    kind,
                    pointer: at.index(index),
                    object,
                    scope: root_scope.narrowed_by(object),
                });
            }
        }
    }
    primitives
}

/// `mcpdesc.primitive.shape` and `mcpdesc.primitive.protocol-scope`.
pub(crate) fn check(root: &Map<String, Value>, root_scope: Scope<'_>, report: &mut Report) {
    for kind in Kind::ALL {
        let Some(collection) = root.get(kind.collection()) else {
            continue;
        };
        let at = Pointer::root().key(kind.collection());
        let name = kind.collection();
        let items = match collection {
            Value::Array(items) if items.is_empty() => {
                report.error(
                    rule::PRIMITIVE_SHAPE,
                    &at,
                    format!("`{name}` must not be empty"),
                );
                continue;
            }
            Value::Array(items) => items,
            _ => {
                report.error(
                    rule::PRIMITIVE_SHAPE,
                    &at,
                    format!("`{name}` must be an array"),
                );
                continue;
            }
        };
        for (index, item) in items.iter().enumerate() {
            let at = at.index(index);
            let Value::Object(object) = item else {
                report.error(
                    rule::PRIMITIVE_SHAPE,
                    &at,
                    format!("every member of `{name}` must be an object"),
                );
                continue;
            };
            for &(member, expected) in kind.identity() {
                match object.get(member) {
                    None => {
                        report.error(rule::PRIMITIVE_SHAPE, &at, format!("`{member}` is missing"))
                    }
                    Some(value) if !expected.admits(value) => report.error(
                        rule::PRIMITIVE_SHAPE,
                        &at.key(member),
                        format!("`{member}` must be {}", expected.name()),
                    ),
                    Some(_) => {}
                }
            }
            check_members(kind, object, &at, report);
            // Closed (Section 3.8): each member the kind's table leaves out.
            for member in object.keys().filter(|member| !kind.defines(member)) {
                report.error(
                    rule::PRIMITIVE_SHAPE,
                    &at.key(member),
                    format!("no member `{member}` is defined on this primitive"),
                );
            }
            scope::check_top_level(
                rule::PRIMITIVE_PROTOCOL_SCOPE,
                object,
                &at,
                root_scope,
                report,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{PRIMITIVE_MEMBERS as MEMBERS, PRIMITIVE_PROTOCOL_VERSION as AVAILABLE};
    use crate::rule::{
        PRIMITIVE_PROTOCOL_SCOPE as SCOPE, PRIMITIVE_SHAPE as SHAPE,
        PRIMITIVE_VARIANT_OVERLAP as OVERLAP,
    };
    use crate::tests::{E, assert_findings, assert_findings_beside_legacy, with};

    /// Variants of one primitive may not share a revision: each later one
    /// in scope is reported, per kind and per key, at its scope or, when
    /// it inherits the root scope, at the declaration.
    #[test]
    fn variants_of_one_primitive_have_disjoint_scopes() {
        let tool = |name: &str, scope: Option<&[&str]>| {
            let mut tool = json!({"name": name, "inputSchema": {"type": "object"}});
            if let Some(scope) = scope {
                tool["protocolVersions"] = json!(scope);
            }
            tool
        };
        let doc = with(json!({
            "tools": [
                tool("a", Some(&["2025-06-18"])),
                tool("a", Some(&["2025-11-25"])),
                tool("b", None),
                tool("b", Some(&["2026-07-28"])),
                tool("c", None),
                {"name": 7, "inputSchema": {"type": "object"}},
                {"name": 7, "inputSchema": {"type": "object"}}
            ],
            "prompts": [{"name": "a"}, {"name": "c"}, {"name": "c", "protocolVersions": "x"}],
            "resources": [
                {"uri": "file:///a", "name": "a"},
                {"uri": "file:///a", "name": "other"},
                {"uri": "file:///b", "name": "a"}
            ],
            "resourceTemplates": [
                {"uriTemplate": "file:///{x}", "name": "x", "protocolVersions": ["2025-11-25"]},
                {"uriTemplate": "file:///{x}", "name": "y", "protocolVersions": ["2025-11-25", "2026-07-28"]}
            ]
        }));
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (SCOPE, "/prompts/2/protocolVersions", E),
                (SHAPE, "/tools/5/name", E),
                (SHAPE, "/tools/6/name", E),
                (OVERLAP, "/prompts/2/protocolVersions", E),
                (OVERLAP, "/resources/1", E),
            ],
        );
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SCOPE, "/prompts/2/protocolVersions", E),
                (SHAPE, "/tools/5/name", E),
                (SHAPE, "/tools/6/name", E),
                (OVERLAP, "/prompts/2/protocolVersions", E),
                (OVERLAP, "/resourceTemplates/1/protocolVersions", E),
                (OVERLAP, "/resources/1", E),
            ],
        );
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (SCOPE, "/prompts/2/protocolVersions", E),
                (SHAPE, "/tools/5/name", E),
                (SHAPE, "/tools/6/name", E),
                (OVERLAP, "/prompts/2/protocolVersions", E),
                (OVERLAP, "/resources/1", E),
                (OVERLAP, "/tools/3/protocolVersions", E),
            ],
        );
    }

    #[test]
    fn every_kind_with_its_identity_is_clean() {
        let doc = with(json!({
            "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
            "resources": [{"uri": "file:///a", "name": "a"}],
            "resourceTemplates": [{"uriTemplate": "file:///{x}", "name": "x"}],
            "prompts": [{"name": "p"}]
        }));
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn collections_must_be_non_empty_arrays() {
        let doc = with(json!({
            "tools": [],
            "resources": {"uri": "file:///a", "name": "a"},
            "resourceTemplates": false,
            "prompts": "p"
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/prompts", E),
                (SHAPE, "/resourceTemplates", E),
                (SHAPE, "/resources", E),
                (SHAPE, "/tools", E),
            ],
        );
    }

    #[test]
    fn items_must_be_objects_with_identity_members() {
        let doc = with(json!({
            "tools": [
                "t",
                {"name": "t"},
                {"name": 1, "inputSchema": true},
                {"inputSchema": {"type": "object"}}
            ],
            "resources": [{"uri": "file:///a"}, {"uri": 7, "name": "n"}],
            "resourceTemplates": [{"name": "x"}, {"uriTemplate": ["x"], "name": "x"}],
            "prompts": [{}, {"name": null}, [], {"name": ""}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/prompts/0", E),
                (SHAPE, "/prompts/1/name", E),
                (SHAPE, "/prompts/2", E),
                (SHAPE, "/resourceTemplates/0", E),
                (SHAPE, "/resourceTemplates/1/uriTemplate", E),
                (SHAPE, "/resources/0", E),
                (SHAPE, "/resources/1/uri", E),
                (SHAPE, "/tools/0", E),
                (SHAPE, "/tools/1", E),
                (SHAPE, "/tools/2/inputSchema", E),
                (SHAPE, "/tools/2/name", E),
                (SHAPE, "/tools/3", E),
            ],
        );
    }

    #[test]
    fn common_members_have_their_types_on_the_kinds_that_hold_them() {
        let doc = with(json!({
            "tools": [{
                "name": "t", "inputSchema": {"type": "object"}, "title": 1,
                "description": 5, "deprecated": "no", "outputSchema": true, "x-y": []
            }],
            "resources": [
                {"uri": "file:///a", "name": "a", "mimeType": 1, "size": "1"},
                {"uri": "file:///b", "name": "b", "mimeType": "text/plain", "size": -1.5}
            ],
            "resourceTemplates": [{"uriTemplate": "file:///{x}", "name": "x", "mimeType": [], "title": "T"}],
            "prompts": [{"name": "p", "description": null, "deprecated": false}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (MEMBERS, "/prompts/0/description", E),
                (MEMBERS, "/resourceTemplates/0/mimeType", E),
                (MEMBERS, "/resources/0/mimeType", E),
                (MEMBERS, "/resources/0/size", E),
                (MEMBERS, "/tools/0/deprecated", E),
                (MEMBERS, "/tools/0/description", E),
                (MEMBERS, "/tools/0/outputSchema", E),
                (MEMBERS, "/tools/0/title", E),
            ],
        );
    }

    #[test]
    fn members_are_held_only_under_the_revisions_that_define_them() {
        let mut doc = with(json!({
            "tools": [{
                "name": "t", "inputSchema": {"type": "object"}, "title": "T",
                "outputSchema": {"type": "object"}, "annotations": {},
                "execution": {}, "icons": [{"src": "https://example.com/i.png"}]
            }],
            "resources": [{"uri": "file:///a", "name": "a", "title": "A", "annotations": {}}],
            "prompts": [{"name": "p", "arguments": [{"name": "a", "title": "A"}, {"name": "b"}]}]
        }));
        doc["protocolVersions"] = json!(FIVE);
        let members = |revision| -> Vec<&str> {
            let mut at = vec![];
            if revision < R2025_06_18 {
                at.extend([
                    "/tools/0/title",
                    "/tools/0/outputSchema",
                    "/resources/0/title",
                    "/prompts/0/arguments/0/title",
                ]);
            }
            if revision < R2025_03_26 {
                at.push("/tools/0/annotations");
            }
            if revision != R2025_11_25 {
                at.push("/tools/0/execution");
            }
            if revision < R2025_11_25 {
                at.push("/tools/0/icons");
            }
            at
        };
        for revision in FIVE.map(|r| r.parse().unwrap()) {
            let expected: Vec<_> = members(revision)
                .into_iter()
                .map(|at| (AVAILABLE, at, E))
                .collect();
            assert_findings_beside_legacy(&doc, revision, &expected);
        }
        // A primitive out of the revision's scope is not judged under it.
        doc["tools"][0]["protocolVersions"] = json!(["2025-11-25"]);
        doc["resources"][0]["protocolVersions"] = json!(["2025-11-25"]);
        doc["prompts"][0]["protocolVersions"] = json!(["2025-11-25"]);
        assert_findings_beside_legacy(&doc, R2024_11_05, &[]);
    }

    #[test]
    fn primitives_are_closed_but_for_their_tables_and_extensions() {
        let doc = with(json!({
            "tools": [{
                "name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}, "execution": {},
                "interactionExamples": {}, "uri": "file:///a", "X-y": 1, "x-z": 2
            }],
            "resources": [{
                "uri": "file:///a", "name": "a", "size": 1, "mimeType": "text/plain",
                "uriTemplate": "file:///{x}", "completionExamples": {}
            }],
            "resourceTemplates": [{
                "uriTemplate": "file:///{x}", "name": "x", "completionExamples": {},
                "size": 1, "interactionExamples": {}
            }],
            "prompts": [{
                "name": "p", "arguments": [{"name": "a"}], "title": "P", "deprecated": true,
                "inputSchema": {}, "mimeType": "text/plain"
            }]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                // A Resource Template's member, but an empty map.
                (
                    crate::rule::EXAMPLE_MAP,
                    "/resourceTemplates/0/completionExamples",
                    E,
                ),
                (SHAPE, "/prompts/0/inputSchema", E),
                (SHAPE, "/prompts/0/mimeType", E),
                (SHAPE, "/resourceTemplates/0/interactionExamples", E),
                (SHAPE, "/resourceTemplates/0/size", E),
                (SHAPE, "/resources/0/completionExamples", E),
                (SHAPE, "/resources/0/uriTemplate", E),
                (SHAPE, "/tools/0/X-y", E),
                (SHAPE, "/tools/0/uri", E),
                // A Tool's member, but an empty map of scenarios.
                (
                    crate::rule::INTERACTION_SHAPE,
                    "/tools/0/interactionExamples",
                    E,
                ),
            ],
        );
    }
}
