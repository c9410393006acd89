//! Transports (Section 6): how the server is reached, and which MCP
//! revisions each way serves.
//!
//! Rules: `mcpdesc.transport.shape`, `mcpdesc.transport.protocol-scope`,
//! `mcpdesc.transport.coverage`, `mcp.transport.protocol-version` and the
//! warning `mcp.transport.legacy-sse`. The first two do not depend on the
//! revision; the last three judge, under revision R, only what applies to R.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::icon;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::scope::{self, Scope};
use crate::value::{self, is_extension};

/// The root member that lists the transports.
pub(crate) const MEMBER: &str = "transports";

/// The first revision that defines Streamable HTTP, and from which SSE is
/// the legacy remote transport (Sections 6.2.1 and 6.2.3).
const STREAMABLE_HTTP_FROM: Revision = Revision::of("2025-03-26");

/// The members every Transport Object may hold besides its type's own and
/// `x-` extensions (Section 6.2). Their values are other rules' business:
/// `protocolVersions` is `mcpdesc.transport.protocol-scope`'s, `security`
/// the security rules'.
const COMMON_MEMBERS: [&str; 3] = ["type", "protocolVersions", "security"];

/// The three transport types of Section 6.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `streamable-http` (6.2.1).
    StreamableHttp,
    /// `stdio` (6.2.2).
    Stdio,
    /// `sse`, the legacy remote transport (6.2.3).
    Sse,
}

impl Kind {
    /// Every kind with the `type` value that names it.
    const NAMED: [(&'static str, Kind); 3] = [
        ("streamable-http", Kind::StreamableHttp),
        ("stdio", Kind::Stdio),
        ("sse", Kind::Sse),
    ];

    /// The kind a `type` value names, compared exactly.
    fn of(value: Option<&Value>) -> Option<Kind> {
        let value = value?.as_str()?;
        Kind::NAMED
            .iter()
            .find(|(name, _)| *name == value)
            .map(|(_, kind)| *kind)
    }

    /// The `type` value that names this kind.
    fn name(self) -> &'static str {
        Kind::NAMED
            .iter()
            .find(|(_, kind)| *kind == self)
            .map_or("", |(name, _)| name)
    }

    /// The member this kind requires besides `type`: where the server is.
    fn required(self) -> &'static str {
        match self {
            Kind::StreamableHttp | Kind::Sse => "url",
            Kind::Stdio => "command",
        }
    }

    /// The members only this kind defines.
    fn own_members(self) -> &'static [&'static str] {
        match self {
            Kind::StreamableHttp | Kind::Sse => &["url"],
            Kind::Stdio => &["command", "args", "env"],
        }
    }
}

/// One transport that is an object, with where it is and what it serves.
#[derive(Debug)]
pub(crate) struct Transport<'a> {
    /// Where it is: `/transports/<index>`.
    pub(crate) pointer: Pointer,
    /// Its members.
    pub(crate) object: &'a Map<String, Value>,
    /// Its effective protocol scope.
    pub(crate) scope: Scope<'a>,
    /// Its type, when `type` names one of the three.
    kind: Option<Kind>,
}

/// Every transport that is an object, in document order; a `transports`
/// that is not an array yields none (that is [`check`]'s to report).
pub(crate) fn collect<'a>(
    root: &'a Map<String, Value>,
    root_scope: Scope<'a>,
) -> Vec<Transport<'a>> {
    let Some(Value::Array(items)) = root.get(MEMBER) else {
        return Vec::new();
    };
    let at = Pointer::root().key(MEMBER);
    items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| {
            let object = item.as_object()?;
            Some(Transport {
                pointer: at.index(index),
                object,
                scope: root_scope.narrowed_by(object),
                kind: Kind::of(object.get("type")),
            })
        })
        .collect()
}

/// Runs every transport rule on the document under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    let Some(root) = document.root else {
        return;
    };
    check_list(root, report);
    for transport in &document.transports {
        check_shape(transport, report);
        scope::check_top_level(
            rule::TRANSPORT_PROTOCOL_SCOPE,
            transport.object,
            &transport.pointer,
            document.scope,
            report,
        );
        check_revision(transport, revision, report);
    }
    check_coverage(root, document, revision, report);
}

/// `mcpdesc.transport.shape` on the list itself: a non-empty array whose
/// items are objects.
fn check_list(root: &Map<String, Value>, report: &mut Report) {
    let Some(list) = root.get(MEMBER) else {
        return;
    };
    let at = Pointer::root().key(MEMBER);
    match list {
        Value::Array(items) if items.is_empty() => report.error(
            rule::TRANSPORT_SHAPE,
            &at,
            "`transports` must hold at least one transport; leave it out when none is declared",
        ),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                if !item.is_object() {
                    report.error(
                        rule::TRANSPORT_SHAPE,
                        &at.index(index),
                        "every transport must be an object",
                    );
                }
            }
        }
        _ => report.error(rule::TRANSPORT_SHAPE, &at, "`transports` must be an array"),
    }
}

/// `mcpdesc.transport.shape` on one Transport Object: its `type`, its
/// kind's required member, the types of its kind's members, and nothing
/// outside its kind's table but the common members and `x-` extensions.
/// A transport whose `type` names no kind is reported at `type` alone: with
/// no table to judge them by, its other members draw nothing.
fn check_shape(transport: &Transport<'_>, report: &mut Report) {
    let (object, at) = (transport.object, &transport.pointer);
    let Some(kind) = transport.kind else {
        let kinds = Kind::NAMED.map(|(name, _)| name);
        crate::kind::unknown_kind(
            report,
            rule::TRANSPORT_SHAPE,
            object,
            at,
            "transport",
            &kinds,
        );
        return;
    };
    if !object.contains_key(kind.required()) {
        report.error(
            rule::TRANSPORT_SHAPE,
            at,
            format!("`{}` is missing", kind.required()),
        );
    }
    for (member, value) in object {
        let at = at.key(member);
        match member.as_str() {
            "url" | "command" if kind.own_members().contains(&member.as_str()) => {
                if value.is_string() {
                    if member == "url" {
                        icon::check_uri(Some(value), &at, report);
                    }
                } else {
                    report.error(
                        rule::TRANSPORT_SHAPE,
                        &at,
                        format!("`{member}` must be a string"),
                    );
                }
            }
            "args" if kind == Kind::Stdio => check_args(value, &at, report),
            "env" if kind == Kind::Stdio => check_env(value, &at, report),
            _ if COMMON_MEMBERS.contains(&member.as_str()) || is_extension(member) => {}
            _ => report.error(
                rule::TRANSPORT_SHAPE,
                &at,
                format!("a `{}` transport has no member `{member}`", kind.name()),
            ),
        }
    }
}

/// A stdio transport's `args`: an array of strings, each entry judged.
fn check_args(value: &Value, at: &Pointer, report: &mut Report) {
    let Value::Array(entries) = value else {
        report.error(
            rule::TRANSPORT_SHAPE,
            at,
            "`args` must be an array of strings",
        );
        return;
    };
    for (index, entry) in entries.iter().enumerate() {
        if !entry.is_string() {
            report.error(
                rule::TRANSPORT_SHAPE,
                &at.index(index),
                "every command argument must be a string",
            );
        }
    }
}

/// A stdio transport's `env`: an object whose values are strings, each
/// variable judged.
fn check_env(value: &Value, at: &Pointer, report: &mut Report) {
    value::check_map_of(
        value,
        at,
        Value::is_string,
        rule::TRANSPORT_SHAPE,
        [
            "`env` must be an object",
            "every environment variable's value must be a string",
        ],
        report,
    );
}

/// `mcp.transport.protocol-version` and `mcp.transport.legacy-sse`: under
/// `revision`, a transport that applies to it and that it does not define
/// (Streamable HTTP before 2025-03-26), or that it keeps only for backward
/// compatibility (SSE from 2025-03-26 on).
fn check_revision(transport: &Transport<'_>, revision: Revision, report: &mut Report) {
    if !transport.scope.includes(revision) {
        return;
    }
    let at = transport.pointer.key("type");
    match transport.kind {
        Some(Kind::StreamableHttp) if revision < STREAMABLE_HTTP_FROM => report.error(
            rule::TRANSPORT_PROTOCOL_VERSION,
            &at,
            format!(
                "MCP {revision} defines no Streamable HTTP transport; it begins with 2025-03-26"
            ),
        ),
        Some(Kind::Sse) if revision >= STREAMABLE_HTTP_FROM => report.warning(
            rule::TRANSPORT_LEGACY_SSE,
            &at,
            format!(
                "SSE is the legacy transport under MCP {revision}; Streamable HTTP replaces it"
            ),
        ),
        _ => {}
    }
}

/// `mcpdesc.transport.coverage`: under `revision`, when the root lists it
/// and `transports` holds at least one transport, some transport's
/// effective scope includes it (Section 6.5). Reported at the root entry
/// that names the revision, its first one when it is repeated.
fn check_coverage(
    root: &Map<String, Value>,
    document: &Document<'_>,
    revision: Revision,
    report: &mut Report,
) {
    // No list, an empty one or one of the wrong type is the shape rule's
    // finding; coverage is judged only for a list that declares something.
    if !matches!(root.get(MEMBER), Some(Value::Array(items)) if !items.is_empty()) {
        return;
    }
    let Some(Value::Array(entries)) = root.get(scope::MEMBER) else {
        return;
    };
    let Some(index) = entries
        .iter()
        .position(|entry| entry.as_str() == Some(revision.as_str()))
    else {
        return;
    };
    if !document
        .transports
        .iter()
        .any(|transport| transport.scope.includes(revision))
    {
        report.error(
            rule::TRANSPORT_COVERAGE,
            &Pointer::root().key(scope::MEMBER).index(index),
            format!("no transport serves MCP {revision}, which the document describes"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        TRANSPORT_COVERAGE as COVERAGE, TRANSPORT_LEGACY_SSE as SSE,
        TRANSPORT_PROTOCOL_SCOPE as SCOPE, TRANSPORT_PROTOCOL_VERSION as VERSION,
        TRANSPORT_SHAPE as SHAPE, VALUE_URI,
    };
    use crate::tests::{E, W, assert_findings, with};

    fn transports(list: Value) -> Value {
        with(json!({"transports": list}))
    }

    #[test]
    fn every_kind_with_its_members_is_clean() {
        let doc = transports(json!([
            {"type": "streamable-http", "url": "https://example.com/mcp", "security": [], "x-region": "eu"},
            {"type": "stdio", "command": "server", "args": ["--quiet", ""], "env": {"HOME": "/tmp"}},
            {"type": "stdio", "command": "", "args": [], "env": {}},
            {"type": "sse", "url": "https://example.com/sse", "protocolVersions": ["2025-06-18"]}
        ]));
        // SSE applies to 2025-06-18: the warning, and nothing else.
        assert_findings(&doc, R2025_11_25, &[]);
        assert_findings(&doc, R2025_06_18, &[(SSE, "/transports/3/type", W)]);
    }

    #[test]
    fn the_list_is_a_non_empty_array_of_objects() {
        for (list, at) in [
            (json!([]), "/transports"),
            (json!({"type": "stdio"}), "/transports"),
        ] {
            assert_findings(&transports(list), R2025_11_25, &[(SHAPE, at, E)]);
        }
        let doc = transports(json!([7, {"type": "stdio", "command": "s"}, null]));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(SHAPE, "/transports/0", E), (SHAPE, "/transports/2", E)],
        );
    }

    #[test]
    fn type_missing_unknown_or_not_a_string() {
        let doc = transports(json!([
            {"command": "s"},
            {"type": "Stdio", "command": "s", "whatever": 1},
            {"type": ["stdio"], "command": "s"},
            {"type": "stdio", "command": "s"}
        ]));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/transports/0", E),
                (SHAPE, "/transports/1/type", E),
                (SHAPE, "/transports/2/type", E),
            ],
        );
    }

    #[test]
    fn required_members_and_their_types() {
        let doc = transports(json!([
            {"type": "stdio", "args": ["a"]},
            {"type": "streamable-http"},
            {"type": "sse", "url": 443},
            {"type": "stdio", "command": ["server"], "args": "--quiet", "env": ["A=1"]},
            {"type": "stdio", "command": "s", "args": ["a", 1, null], "env": {"A": "1", "B": 2, "C": null}}
        ]));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/transports/0", E),
                (SHAPE, "/transports/1", E),
                (SHAPE, "/transports/2/url", E),
                (SHAPE, "/transports/3/args", E),
                (SHAPE, "/transports/3/command", E),
                (SHAPE, "/transports/3/env", E),
                (SHAPE, "/transports/4/args/1", E),
                (SHAPE, "/transports/4/args/2", E),
                (SHAPE, "/transports/4/env/B", E),
                (SHAPE, "/transports/4/env/C", E),
                (SSE, "/transports/2/type", W),
            ],
        );
    }

    #[test]
    fn each_kind_is_closed_to_the_members_of_the_others() {
        let doc = transports(json!([
            {"type": "stdio", "command": "s", "url": "https://example.com/mcp"},
            {"type": "streamable-http", "url": "https://example.com/mcp", "command": "s", "args": [], "env": {}},
            {"type": "streamable-http", "url": "https://example.com/mcp", "headers": {}, "X-up": 1}
        ]));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/transports/0/url", E),
                (SHAPE, "/transports/1/args", E),
                (SHAPE, "/transports/1/command", E),
                (SHAPE, "/transports/1/env", E),
                (SHAPE, "/transports/2/X-up", E),
                (SHAPE, "/transports/2/headers", E),
            ],
        );
    }

    #[test]
    fn a_url_is_a_uri() {
        let doc = transports(json!([
            {"type": "streamable-http", "url": "/mcp"},
            {"type": "streamable-http", "url": "https://example.com/mcp"}
        ]));
        assert_findings(&doc, R2025_11_25, &[(VALUE_URI, "/transports/0/url", E)]);
    }

    #[test]
    fn explicit_scopes_are_subsets_of_the_root() {
        let doc = transports(json!([
            {"type": "stdio", "command": "s"},
            {"type": "stdio", "command": "s", "protocolVersions": ["2024-11-05"]},
            {"type": "stdio", "command": "s", "protocolVersions": []},
            {"type": "stdio", "command": "s", "protocolVersions": "2025-11-25"},
            {"type": "stdio", "command": "s", "protocolVersions": ["2025-11-25", "2025-11-25"]},
            {"type": "stdio", "command": "s", "protocolVersions": [2025]},
            {"type": "stdio", "command": "s", "protocolVersions": ["2025-11-25"]}
        ]));
        let findings: Vec<_> = (1..=5)
            .map(|index| format!("/transports/{index}/protocolVersions"))
            .collect();
        let expected: Vec<_> = findings.iter().map(|at| (SCOPE, at.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn coverage_is_judged_per_revision_at_the_root_entry() {
        let doc = with(json!({
            "protocolVersions": FIVE,
            "transports": [
                {"type": "stdio", "command": "s", "protocolVersions": ["2025-06-18", "2025-11-25"]},
                {"type": "stdio", "command": "s", "protocolVersions": ["2025-11-25"]},
                {"type": "stdio", "protocolVersions": ["2025-03-26"]}
            ]
        }));
        let legacy = (
            crate::rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
            "/protocolVersions",
            W,
        );
        assert_findings(
            &doc,
            R2024_11_05,
            &[
                (COVERAGE, "/protocolVersions/0", E),
                legacy,
                (SHAPE, "/transports/2", E),
            ],
        );
        // A transport that breaks its shape still serves its scope.
        assert_findings(&doc, R2025_03_26, &[legacy, (SHAPE, "/transports/2", E)]);
        assert_findings(&doc, R2025_06_18, &[(SHAPE, "/transports/2", E)]);
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (COVERAGE, "/protocolVersions/4", E),
                (SHAPE, "/transports/2", E),
            ],
        );
    }

    #[test]
    fn coverage_needs_a_declared_list_and_a_root_entry() {
        // No transports, an empty list, a list of the wrong type: nothing
        // to judge coverage by; a revision outside the root: nothing to
        // cover.
        for list in [Value::Null, json!([]), json!("stdio")] {
            let doc = with(json!({"transports": list}));
            let expected: &[_] = if list.is_null() {
                &[]
            } else {
                &[(SHAPE, "/transports", E)]
            };
            assert_findings(&doc, R2025_11_25, expected);
        }
        let doc = with(json!({
            "protocolVersions": ["2025-11-25", "2025-11-25"],
            "transports": [{"type": "stdio", "command": "s", "protocolVersions": ["2026-07-28"]}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (COVERAGE, "/protocolVersions/0", E),
                (
                    crate::rule::PROTOCOL_VERSIONS_KNOWN,
                    "/protocolVersions/1",
                    E,
                ),
                (SCOPE, "/transports/0/protocolVersions", E),
            ],
        );
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (
                    crate::rule::PROTOCOL_VERSIONS_KNOWN,
                    "/protocolVersions/1",
                    E,
                ),
                (SCOPE, "/transports/0/protocolVersions", E),
            ],
        );
        // Without a root list, no entry can be uncovered.
        let doc = with(json!({
            "protocolVersions": null,
            "transports": [{"type": "stdio", "command": "s", "protocolVersions": ["2026-07-28"]}]
        }));
        assert_findings(&doc, R2025_11_25, &[(crate::rule::DOCUMENT_SHAPE, "", E)]);
    }

    #[test]
    fn streamable_http_starts_with_2025_03_26_and_sse_is_legacy_after() {
        let doc = with(json!({
            "protocolVersions": FIVE,
            "transports": [
                {"type": "streamable-http", "url": "https://example.com/mcp"},
                {"type": "sse", "url": "https://example.com/sse"},
                {"type": "streamable-http", "url": "https://example.com/new", "protocolVersions": ["2026-07-28"]},
                {"type": "sse", "url": "https://example.com/old", "protocolVersions": ["2024-11-05"]}
            ]
        }));
        let legacy = (
            crate::rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
            "/protocolVersions",
            W,
        );
        assert_findings(
            &doc,
            R2024_11_05,
            &[legacy, (VERSION, "/transports/0/type", E)],
        );
        assert_findings(&doc, R2025_03_26, &[legacy, (SSE, "/transports/1/type", W)]);
        assert_findings(&doc, R2025_11_25, &[(SSE, "/transports/1/type", W)]);
        assert_findings(&doc, R2026_07_28, &[(SSE, "/transports/1/type", W)]);
    }
}
