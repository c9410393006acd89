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

/// The JSON type an identity member must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Type {
    String,
    Object,
}

impl Type {
    fn admits(self, value: &Value) -> bool {
        match self {
            Type::String => value.is_string(),
            Type::Object => value.is_object(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Type::String => "a string",
            Type::Object => "an object",
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

    use crate::rule::{
        PRIMITIVE_PROTOCOL_SCOPE as SCOPE, PRIMITIVE_SHAPE as SHAPE,
        PRIMITIVE_VARIANT_OVERLAP as OVERLAP,
    };
    use crate::tests::{E, assert_findings, with};

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
                {"inputSchema": {}}
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
    fn the_types_of_other_primitive_members_are_not_checked() {
        let doc = with(json!({
            "tools": [{"name": "t", "inputSchema": {}, "description": 5, "x-y": []}],
        }));
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn primitives_are_closed_but_for_their_tables_and_extensions() {
        let doc = with(json!({
            "tools": [{
                "name": "t", "inputSchema": {}, "outputSchema": {}, "execution": {},
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
                "name": "p", "arguments": [], "title": "P", "deprecated": true,
                "inputSchema": {}, "mimeType": "text/plain"
            }]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
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
