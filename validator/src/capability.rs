//! Server capabilities (Section 8.1 to 8.4 and 8.6): the root
//! `capabilities`, a list of protocol-scoped Capabilities Objects.
//!
//! Rules: `mcpdesc.capabilities.shape`, `mcpdesc.capabilities.protocol-scope`
//! and `mcp.extensions.identifier`, which do not depend on the revision;
//! `mcpdesc.capabilities.scope-overlap`, `mcp.capabilities.protocol-version`
//! and the warnings `mcp.capabilities.extensions-pre-standard` and
//! `mcp.capabilities.logging-deprecated`, which judge, under revision R,
//! only the Capabilities Objects whose effective scope includes R.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::meta;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::scope::{self, Scope};
use crate::value::is_extension;

/// The root member that lists the Capabilities Objects.
const MEMBER: &str = "capabilities";

/// The first revision that defines `completions` (Section 8.2).
const COMPLETIONS_FROM: Revision = Revision::of("2025-03-26");

/// The only revision that defines core `tasks` (Sections 8.2 and 8.3).
const TASKS_IN: Revision = Revision::of("2025-11-25");

/// The first revision that defines formal `extensions` and deprecates
/// `logging` (Section 8.4).
const EXTENSIONS_FROM: Revision = Revision::of("2026-07-28");

/// The capability declaration objects MCP Description defines, each with
/// its boolean members; they are closed but for `x-` extensions (8.4).
const DECLARATIONS: [(&str, &[&str]); 3] = [
    ("tools", &["listChanged"]),
    ("resources", &["subscribe", "listChanged"]),
    ("prompts", &["listChanged"]),
];

/// The capabilities whose value is any object: MCP-native markers and
/// payloads whose content this format does not define.
const MARKERS: [&str; 3] = ["completions", "logging", "experimental"];

/// One Capabilities Object, with where it is and what it applies to.
#[derive(Debug)]
struct Capabilities<'a> {
    /// Where it is: `/capabilities/<index>`.
    pointer: Pointer,
    /// Its members.
    object: &'a Map<String, Value>,
    /// Its effective protocol scope.
    scope: Scope<'a>,
}

/// Runs every capability rule on the document under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    let Some(root) = document.root else {
        return;
    };
    let Some(list) = root.get(MEMBER) else {
        return;
    };
    let at = Pointer::root().key(MEMBER);
    let items = match list {
        Value::Array(items) if !items.is_empty() => items,
        Value::Array(_) => {
            report.error(
                rule::CAPABILITIES_SHAPE,
                &at,
                "`capabilities` must hold at least one Capabilities Object; leave it out when there is none",
            );
            return;
        }
        _ => {
            report.error(
                rule::CAPABILITIES_SHAPE,
                &at,
                "`capabilities` must be an array of Capabilities Objects",
            );
            return;
        }
    };
    let mut applying = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let at = at.index(index);
        let Value::Object(object) = item else {
            report.error(
                rule::CAPABILITIES_SHAPE,
                &at,
                "every member of `capabilities` must be an object",
            );
            continue;
        };
        let capabilities = Capabilities {
            pointer: at,
            object,
            scope: document.scope.narrowed_by(object),
        };
        check_shape(&capabilities, report);
        scope::check_top_level(
            rule::CAPABILITIES_PROTOCOL_SCOPE,
            object,
            &capabilities.pointer,
            document.scope,
            report,
        );
        if capabilities.scope.includes(revision) {
            check_revision(&capabilities, revision, report);
            applying.push(capabilities);
        }
    }
    check_overlap(&applying, revision, report);
}

/// `mcpdesc.capabilities.shape` on one Capabilities Object: each member
/// of the table of Section 8.2 with its type, the closed declaration
/// objects and `tasks`, and nothing else but `protocolVersions` and `x-`
/// extensions. `extensions` is `mcp.extensions.identifier`'s.
fn check_shape(capabilities: &Capabilities<'_>, report: &mut Report) {
    for (member, value) in capabilities.object {
        let at = capabilities.pointer.key(member);
        if let Some((_, flags)) = DECLARATIONS.iter().find(|(name, _)| name == member) {
            check_declaration(value, flags, &at, report);
        } else if MARKERS.contains(&member.as_str()) {
            if !value.is_object() {
                report.error(
                    rule::CAPABILITIES_SHAPE,
                    &at,
                    format!("`{member}` must be an object"),
                );
            }
        } else if member == "tasks" {
            check_tasks(value, &at, report);
        } else if member == "extensions" {
            check_extensions(value, &at, report);
        } else if member != scope::MEMBER && !is_extension(member) {
            report.error(
                rule::CAPABILITIES_SHAPE,
                &at,
                format!("a Capabilities Object has no member `{member}`"),
            );
        }
    }
}

/// `tools`, `resources` or `prompts`: an object whose `flags` are booleans,
/// closed but for `x-` extensions.
fn check_declaration(value: &Value, flags: &[&str], at: &Pointer, report: &mut Report) {
    let Value::Object(declaration) = value else {
        report.error(
            rule::CAPABILITIES_SHAPE,
            at,
            "this capability must be an object",
        );
        return;
    };
    for (member, value) in declaration {
        let at = at.key(member);
        if flags.contains(&member.as_str()) {
            if !value.is_boolean() {
                report.error(
                    rule::CAPABILITIES_SHAPE,
                    &at,
                    format!("`{member}` must be a boolean"),
                );
            }
        } else if !is_extension(member) {
            report.error(
                rule::CAPABILITIES_SHAPE,
                &at,
                format!("this capability has no member `{member}`"),
            );
        }
    }
}

/// Core `tasks` (Section 8.3): an object of `list`, `cancel` and
/// `requests`, each an object, and `requests.tools.call` an object; every
/// level closed, as the published 0.8.0 schema has it. It is a carried MCP
/// payload, not an extension location, so `x-` members are unknown too.
fn check_tasks(value: &Value, at: &Pointer, report: &mut Report) {
    // Each level to look at, with the members it allows; a walk with a
    // stack rather than recursion, as everywhere in the validator.
    let top: &[&str] = &["list", "cancel", "requests"];
    let mut pending: Vec<(Pointer, &Value, &[&str])> = vec![(at.clone(), value, top)];
    while let Some((at, value, members)) = pending.pop() {
        let Value::Object(object) = value else {
            report.error(
                rule::CAPABILITIES_SHAPE,
                &at,
                "this member must be an object",
            );
            continue;
        };
        for (member, value) in object {
            let inner = at.key(member);
            if !members.contains(&member.as_str()) {
                report.error(
                    rule::CAPABILITIES_SHAPE,
                    &inner,
                    format!("`{member}` is not a member of this part of `tasks`"),
                );
                continue;
            }
            let below: &[&str] = match member.as_str() {
                "requests" => &["tools"],
                "tools" => &["call"],
                _ => {
                    if !value.is_object() {
                        report.error(
                            rule::CAPABILITIES_SHAPE,
                            &inner,
                            "this member must be an object",
                        );
                    }
                    continue;
                }
            };
            pending.push((inner, value, below));
        }
    }
}

/// The official MCP extensions this validator recognizes, the extension
/// catalogue Section 8.4 lets a validator use: the identifiers
/// <https://modelcontextprotocol.io/extensions/overview> lists as official
/// on 2026-09-04, its effective date. It lists no experimental extension.
/// The suite pins the same catalogue in the decisions of
/// `mcpdesc.extensions.reserved-identifier`.
const OFFICIAL_EXTENSIONS: [&str; 4] = [
    "io.modelcontextprotocol/enterprise-managed-authorization",
    "io.modelcontextprotocol/oauth-client-credentials",
    "io.modelcontextprotocol/tasks",
    "io.modelcontextprotocol/ui",
];

/// `mcp.extensions.identifier` on an `extensions` map: a non-empty object
/// whose keys are `prefix/name` identifiers and whose values are objects;
/// and `mcpdesc.extensions.reserved-identifier`, the warning for a
/// well-formed identifier under a prefix MCP reserves that the catalogue
/// does not list.
pub(crate) fn check_extensions(value: &Value, at: &Pointer, report: &mut Report) {
    let Value::Object(map) = value else {
        report.error(
            rule::EXTENSIONS_IDENTIFIER,
            at,
            "`extensions` must be an object mapping extension identifiers to objects",
        );
        return;
    };
    if map.is_empty() {
        report.error(
            rule::EXTENSIONS_IDENTIFIER,
            at,
            "`extensions` must name at least one extension; leave it out when there is none",
        );
    }
    for (identifier, settings) in map {
        let at = at.key(identifier);
        if !meta::is_extension_identifier(identifier) {
            report.error(
                rule::EXTENSIONS_IDENTIFIER,
                &at,
                "an extension identifier is `prefix/name`: dot-separated labels, `/`, and a name",
            );
        } else if meta::has_reserved_prefix(identifier)
            && !OFFICIAL_EXTENSIONS.contains(&identifier.as_str())
        {
            report.warning(
                rule::EXTENSIONS_RESERVED_IDENTIFIER,
                &at,
                format!(
                    "`{identifier}` is under a prefix MCP reserves, and the extension catalogue \
                     of 2026-09-04 does not list it"
                ),
            );
        }
        if !settings.is_object() {
            report.error(
                rule::EXTENSIONS_IDENTIFIER,
                &at,
                "an extension's settings must be an object",
            );
        }
    }
}

/// `mcp.capabilities.protocol-version` and the two warnings, on one
/// Capabilities Object that applies to `revision`.
fn check_revision(capabilities: &Capabilities<'_>, revision: Revision, report: &mut Report) {
    let object = capabilities.object;
    let at = |member: &str| capabilities.pointer.key(member);
    if object.contains_key("completions") && revision < COMPLETIONS_FROM {
        report.error(
            rule::CAPABILITIES_PROTOCOL_VERSION,
            &at("completions"),
            format!(
                "MCP {revision} defines no `completions` capability; it begins with 2025-03-26"
            ),
        );
    }
    if object.contains_key("tasks") && revision != TASKS_IN {
        report.error(
            rule::CAPABILITIES_PROTOCOL_VERSION,
            &at("tasks"),
            format!("MCP {revision} defines no core `tasks` capability; only 2025-11-25 does"),
        );
    }
    if object.contains_key("extensions") && revision < EXTENSIONS_FROM {
        report.warning(
            rule::CAPABILITIES_EXTENSIONS_PRE_STANDARD,
            &at("extensions"),
            format!(
                "MCP {revision} does not define `extensions`; the map is kept as a pre-standard convention"
            ),
        );
    }
    if object.contains_key("logging") && revision >= EXTENSIONS_FROM {
        report.warning(
            rule::CAPABILITIES_LOGGING_DEPRECATED,
            &at("logging"),
            format!("`logging` is deprecated in MCP {revision}"),
        );
    }
}

/// `mcpdesc.capabilities.scope-overlap`: at most one Capabilities Object
/// applies to `revision` (Section 8.6). Every one after the first is
/// reported, at its `protocolVersions` when it has one, else at the object.
fn check_overlap(applying: &[Capabilities<'_>], revision: Revision, report: &mut Report) {
    for capabilities in applying.iter().skip(1) {
        report.error(
            rule::CAPABILITIES_SCOPE_OVERLAP,
            &scope::overlap_pointer(capabilities.object, &capabilities.pointer),
            format!("another Capabilities Object already applies to MCP {revision}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        CAPABILITIES_EXTENSIONS_PRE_STANDARD as PRE_STANDARD,
        CAPABILITIES_LOGGING_DEPRECATED as LOGGING, CAPABILITIES_PROTOCOL_SCOPE as SCOPE,
        CAPABILITIES_PROTOCOL_VERSION as VERSION, CAPABILITIES_SCOPE_OVERLAP as OVERLAP,
        CAPABILITIES_SHAPE as SHAPE, EXTENSIONS_IDENTIFIER as IDENTIFIER,
        EXTENSIONS_RESERVED_IDENTIFIER as RESERVED,
        PROTOCOL_LEGACY_VALIDATION_INCOMPLETE as LEGACY,
    };
    use crate::tests::{E, W, assert_findings, with};

    fn capabilities(list: Value) -> Value {
        with(json!({"capabilities": list}))
    }

    #[test]
    fn the_specifications_example_is_clean() {
        let doc = capabilities(json!([
            {
                "protocolVersions": ["2025-11-25"],
                "tools": {"listChanged": true},
                "resources": {"subscribe": true, "listChanged": true},
                "prompts": {"listChanged": false},
                "completions": {},
                "logging": {},
                "tasks": {"requests": {"tools": {"call": {}}}, "list": {}, "cancel": {}}
            },
            {
                "protocolVersions": ["2026-07-28"],
                "tools": {"listChanged": true, "x-note": 1},
                "extensions": {"io.example/tasks": {}},
                "experimental": {"anything": [1]},
                "x-owner": "team"
            }
        ]));
        for revision in [R2025_06_18, R2025_11_25, R2026_07_28] {
            assert_findings(&doc, revision, &[]);
        }
    }

    #[test]
    fn the_list_is_a_non_empty_array_of_objects() {
        for list in [json!([]), json!({"tools": {}})] {
            assert_findings(
                &capabilities(list),
                R2025_11_25,
                &[(SHAPE, "/capabilities", E)],
            );
        }
        let doc = capabilities(json!([
            "tools",
            {"protocolVersions": ["2025-06-18"]},
            {"protocolVersions": ["2025-11-25"]}
        ]));
        assert_findings(&doc, R2025_11_25, &[(SHAPE, "/capabilities/0", E)]);
    }

    #[test]
    fn member_types_and_closed_tables() {
        let doc = capabilities(json!([{
            "tools": {"listChanged": "yes", "subscribe": true},
            "resources": [],
            "prompts": {"listChanged": false, "X-a": 1},
            "completions": true,
            "logging": null,
            "experimental": "on",
            "sampling": {},
            "X-upper": 1
        }]));
        let at = |rest: &str| format!("/capabilities/0/{rest}");
        let expected = [
            at("X-upper"),
            at("completions"),
            at("experimental"),
            at("logging"),
            at("prompts/X-a"),
            at("resources"),
            at("sampling"),
            at("tools/listChanged"),
            at("tools/subscribe"),
        ];
        let expected: Vec<_> = expected.iter().map(|p| (SHAPE, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_06_18, &expected);
    }

    #[test]
    fn tasks_is_closed_at_every_level() {
        let doc = capabilities(json!([{
            "protocolVersions": ["2025-11-25"],
            "tasks": {
                "list": true,
                "cancel": {},
                "requests": {"tools": {"call": [], "list": {}}, "sampling": {}},
                "x-vendor": {}
            }
        }, {
            "protocolVersions": ["2026-07-28"],
            "tasks": {"requests": "all"}
        }]));
        let at = |rest: &str| format!("/capabilities/0/tasks/{rest}");
        let expected = [
            at("list"),
            at("requests/sampling"),
            at("requests/tools/call"),
            at("requests/tools/list"),
            at("x-vendor"),
            "/capabilities/1/tasks/requests".to_owned(),
        ];
        let expected: Vec<_> = expected.iter().map(|p| (SHAPE, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
        let doc = capabilities(json!([{"tasks": 7}]));
        assert_findings(&doc, R2025_11_25, &[(SHAPE, "/capabilities/0/tasks", E)]);
    }

    #[test]
    fn extension_identifiers_and_settings() {
        let doc = capabilities(json!([
            {"protocolVersions": ["2025-11-25"], "extensions": {}},
            {"protocolVersions": ["2026-07-28"], "extensions": {
                "io.example/tasks": {},
                "tasks": {},
                "x-vendor": {},
                "io.example/": {},
                "/name": {},
                "io..example/a": {},
                "9io/a": {},
                "io.example/a/b": {},
                "io.example/ok": true,
                "io.ex-ample.a1/n.a_m-e": {"setting": 1}
            }}
        ]));
        let at = |rest: &str| format!("/capabilities/1/extensions/{rest}");
        let mut expected: Vec<_> = [
            at("tasks"),
            at("x-vendor"),
            at("io.example~1"),
            at("~1name"),
            at("io..example~1a"),
            at("9io~1a"),
            at("io.example~1a~1b"),
            at("io.example~1ok"),
        ]
        .into_iter()
        .map(|p| (IDENTIFIER, p, E))
        .collect();
        expected.push((IDENTIFIER, "/capabilities/0/extensions".to_owned(), E));
        let expected: Vec<_> = expected
            .iter()
            .map(|(r, p, s)| (*r, p.as_str(), *s))
            .collect();
        assert_findings(&doc, R2026_07_28, &expected);
        let doc = capabilities(json!([{"extensions": ["io.example/a"]}]));
        assert_findings(
            &doc,
            R2026_07_28,
            &[(IDENTIFIER, "/capabilities/0/extensions", E)],
        );
    }

    #[test]
    fn reserved_identifiers_outside_the_catalogue_are_warned_about() {
        let doc = capabilities(json!([{"extensions": {
            "io.modelcontextprotocol/ui": {},
            "io.modelcontextprotocol/tasks": {},
            "io.modelcontextprotocol/future-capability": {},
            "dev.mcp/beta": {},
            "mcp.example/a": {},
            "com.example/mcp": {},
            "io.ModelContextProtocol/a": {},
            "io.modelcontextprotocol/": {},
            "io.mcp.example/a": true
        }}]));
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (
                    IDENTIFIER,
                    "/capabilities/0/extensions/io.mcp.example~1a",
                    E,
                ),
                (
                    IDENTIFIER,
                    "/capabilities/0/extensions/io.modelcontextprotocol~1",
                    E,
                ),
                (RESERVED, "/capabilities/0/extensions/dev.mcp~1beta", W),
                (RESERVED, "/capabilities/0/extensions/io.mcp.example~1a", W),
                (
                    RESERVED,
                    "/capabilities/0/extensions/io.modelcontextprotocol~1future-capability",
                    W,
                ),
            ],
        );
    }

    #[test]
    fn explicit_scopes_are_subsets_of_the_root() {
        let doc = capabilities(json!([
            {"protocolVersions": ["2024-11-05"]},
            {"protocolVersions": []},
            {"protocolVersions": "2025-06-18"},
            {"protocolVersions": ["2026-07-28", "2026-07-28"]},
            {"protocolVersions": [7]}
        ]));
        let expected: Vec<_> = (0..5)
            .map(|index| format!("/capabilities/{index}/protocolVersions"))
            .collect();
        let mut expected: Vec<_> = expected.iter().map(|p| (SCOPE, p.as_str(), E)).collect();
        // The non-array scope is treated as absent: that object applies to
        // every root revision, beside the repeated one under 2026-07-28.
        expected.push((OVERLAP, "/capabilities/3/protocolVersions", E));
        assert_findings(&doc, R2026_07_28, &expected);
    }

    #[test]
    fn at_most_one_capabilities_object_applies_to_a_revision() {
        let doc = with(json!({
            "protocolVersions": FIVE,
            "capabilities": [
                {"protocolVersions": ["2025-06-18", "2025-11-25"], "tools": {}},
                {"protocolVersions": ["2025-11-25", "2026-07-28"], "prompts": {}},
                {"resources": {}},
                {"protocolVersions": ["2024-11-05"]}
            ]
        }));
        let legacy = (LEGACY, "/protocolVersions", W);
        assert_findings(
            &doc,
            R2024_11_05,
            &[(OVERLAP, "/capabilities/3/protocolVersions", E), legacy],
        );
        assert_findings(&doc, R2025_03_26, &[legacy]);
        assert_findings(&doc, R2025_06_18, &[(OVERLAP, "/capabilities/2", E)]);
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (OVERLAP, "/capabilities/1/protocolVersions", E),
                (OVERLAP, "/capabilities/2", E),
            ],
        );
        assert_findings(&doc, R2026_07_28, &[(OVERLAP, "/capabilities/2", E)]);
    }

    #[test]
    fn members_per_revision() {
        let doc = with(json!({
            "protocolVersions": FIVE,
            "capabilities": [{
                "completions": {},
                "tasks": {},
                "extensions": {"io.example/a": {}},
                "logging": {}
            }]
        }));
        let at = |member: &str| format!("/capabilities/0/{member}");
        let (completions, tasks, extensions, logging) = (
            at("completions"),
            at("tasks"),
            at("extensions"),
            at("logging"),
        );
        let legacy = (LEGACY, "/protocolVersions", W);
        assert_findings(
            &doc,
            R2024_11_05,
            &[
                (PRE_STANDARD, &extensions, W),
                (VERSION, &completions, E),
                (VERSION, &tasks, E),
                legacy,
            ],
        );
        assert_findings(
            &doc,
            R2025_03_26,
            &[(PRE_STANDARD, &extensions, W), (VERSION, &tasks, E), legacy],
        );
        assert_findings(
            &doc,
            R2025_06_18,
            &[(PRE_STANDARD, &extensions, W), (VERSION, &tasks, E)],
        );
        assert_findings(&doc, R2025_11_25, &[(PRE_STANDARD, &extensions, W)]);
        assert_findings(
            &doc,
            R2026_07_28,
            &[(LOGGING, &logging, W), (VERSION, &tasks, E)],
        );
        // Out of scope, nothing is judged by revision.
        let doc = with(json!({
            "protocolVersions": FIVE,
            "capabilities": [{"protocolVersions": ["2025-11-25"], "tasks": {}, "logging": {}}]
        }));
        assert_findings(&doc, R2026_07_28, &[]);
    }
}
