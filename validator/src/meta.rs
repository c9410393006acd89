//! MCP `_meta` on Tools, Resources, Resource Templates and Prompts
//! (Section 3.5): which revisions define it, the MCP key grammar, and the
//! warning for a reserved key this validator does not recognize.
//!
//! Rules, under revision R, for each primitive whose effective scope
//! includes R:
//! - `mcp.meta.protocol-version`: R is before 2025-06-18, which has no
//!   `_meta` on these objects; nothing else is said about that `_meta`.
//! - `mcp.meta.key`: `_meta` is an object, and each key is an optional
//!   prefix (dot-separated labels and a `/`) and a name.
//! - `mcp.meta.reserved-key`: a warning for each well-formed key whose
//!   prefix R reserves for MCP. No revision defines a reserved key for the
//!   `_meta` of a declaration, so every such key is unrecognized here.

use mcpdesc_protocol::Revision;
use serde_json::Value;

use crate::document::Document;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;

/// The member, on each of the four primitives.
const MEMBER: &str = "_meta";

/// The first revision whose Tool, Resource, ResourceTemplate and Prompt
/// carry `_meta`.
const FIRST: Revision = Revision::of("2025-06-18");

/// The first revision that reserves a prefix by its second label only.
const SECOND_LABEL_RULE: Revision = Revision::of("2025-11-25");

/// The labels that make a prefix MCP's.
const RESERVED_LABELS: [&str; 2] = ["modelcontextprotocol", "mcp"];

/// The objects of a description that may carry MCP `_meta`, as their MCP
/// types define it (Section 3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holder {
    /// A Tool, Resource, Resource Template or Prompt declaration.
    Declaration,
    /// A named example's completed result: MCP's `Result`, which has had
    /// `_meta` from the first revision.
    Result,
    /// A content block, Resource Contents or a root in an example.
    Content,
}

impl Holder {
    /// The first revision that defines `_meta` on this object.
    fn since(self) -> Revision {
        match self {
            Holder::Result => Revision::of("2024-11-05"),
            Holder::Declaration | Holder::Content => FIRST,
        }
    }
}

/// Checks the `_meta` of every primitive in scope under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for primitive in &document.primitives {
        if !primitive.scope.includes(revision) {
            continue;
        }
        if let Some(meta) = primitive.object.get(MEMBER) {
            check_meta(
                meta,
                Holder::Declaration,
                &primitive.pointer.key(MEMBER),
                revision,
                report,
            );
        }
    }
}

/// The `_meta` rules on `meta`, the `_meta` of a `holder` at `at`, under a
/// `revision` its declaration applies to: whether the revision defines it
/// there, its type, the key grammar (from 2025-06-18, which gave keys
/// one) and the reserved keys.
pub(crate) fn check_meta(
    meta: &Value,
    holder: Holder,
    at: &Pointer,
    revision: Revision,
    report: &mut Report,
) {
    let since = holder.since();
    if revision < since {
        report.error(
            rule::META_PROTOCOL_VERSION,
            at,
            format!("MCP {revision} has no `_meta` on this object; it starts with {since}"),
        );
        return;
    }
    let Value::Object(keys) = meta else {
        report.error(rule::META_KEY, at, "`_meta` must be an object");
        return;
    };
    for (key, value) in keys {
        let at = at.key(key);
        if let Some(known) = Known::of(key, revision) {
            check_known(known, value, holder, &at, revision, report);
            continue;
        }
        if revision < FIRST {
            // Before 2025-06-18 keys had no grammar and no prefix was
            // reserved.
            continue;
        }
        match Key::parse(key) {
            None => report.error(
                rule::META_KEY,
                &at,
                "a `_meta` key is an optional prefix of dot-separated labels and `/`, \
                 then a name that starts and ends with a letter or digit",
            ),
            Some(parsed) if parsed.reserved_under(revision) => report.warning(
                rule::META_RESERVED_KEY,
                &at,
                format!(
                    "`{key}` is under a prefix MCP {revision} reserves, and is not a key \
                     this validator recognizes"
                ),
            ),
            Some(_) => {}
        }
    }
}

/// Where MCP uses a `_meta` key it defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Used {
    /// Only in requests or notifications, never on an object a description
    /// holds.
    Elsewhere,
    /// On results: a completed result may carry it, a declaration or a
    /// content object may not.
    OnResults,
}

/// What a known key's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// An MCP `Implementation`: an object with a string `name` and a string
    /// `version`.
    Implementation,
    /// An object with a string `taskId`.
    Task,
}

/// A `_meta` key some MCP revision defines, with where it is used and what
/// its value is (judged only where it may stand).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    used: Used,
    shape: Option<Shape>,
}

/// The `_meta` keys MCP defines, with the revisions that define them:
/// `progressToken` asks for progress in a request from 2025-06-18 (the
/// first revision that gave `_meta` keys rules); 2025-11-25 ties a result
/// to a task; 2026-07-28 names the server on each result and carries the
/// client's revision, identity, capabilities and log level on each request
/// and the subscription on notifications.
const KNOWN: [(&str, Revision, Known); 8] = [
    ("progressToken", FIRST, ELSEWHERE),
    (
        "io.modelcontextprotocol/related-task",
        Revision::of("2025-11-25"),
        Known {
            used: Used::OnResults,
            shape: Some(Shape::Task),
        },
    ),
    (
        "io.modelcontextprotocol/serverInfo",
        STATELESS,
        Known {
            used: Used::OnResults,
            shape: Some(Shape::Implementation),
        },
    ),
    (
        "io.modelcontextprotocol/protocolVersion",
        STATELESS,
        ELSEWHERE,
    ),
    ("io.modelcontextprotocol/clientInfo", STATELESS, ELSEWHERE),
    (
        "io.modelcontextprotocol/clientCapabilities",
        STATELESS,
        ELSEWHERE,
    ),
    ("io.modelcontextprotocol/logLevel", STATELESS, ELSEWHERE),
    (
        "io.modelcontextprotocol/subscriptionId",
        STATELESS,
        ELSEWHERE,
    ),
];

/// A key of requests or notifications.
const ELSEWHERE: Known = Known {
    used: Used::Elsewhere,
    shape: None,
};

/// The revision whose requests carry what a session used to hold.
const STATELESS: Revision = Revision::of("2026-07-28");

impl Known {
    /// The key `key` as `revision` defines it, if it does.
    fn of(key: &str, revision: Revision) -> Option<Known> {
        KNOWN
            .iter()
            .find(|(name, since, _)| *name == key && revision >= *since)
            .map(|(_, _, known)| *known)
    }
}

/// `mcp.meta.reserved-key-use` on the known key at `at` with `value`, on a
/// `holder`: it stands only where MCP uses it, with the value MCP gives it.
fn check_known(
    known: Known,
    value: &Value,
    holder: Holder,
    at: &Pointer,
    revision: Revision,
    report: &mut Report,
) {
    let rule = rule::META_RESERVED_KEY_USE;
    match (known.used, holder) {
        (Used::OnResults, Holder::Result) => {}
        (Used::OnResults, _) => {
            report.error(
                rule,
                at,
                format!("MCP {revision} uses this key on results, not on this object"),
            );
            return;
        }
        (Used::Elsewhere, _) => {
            report.error(
                rule,
                at,
                format!(
                    "MCP {revision} uses this key in requests or notifications, which a \
                     description does not hold"
                ),
            );
            return;
        }
    }
    let strings: &[&str] = match known.shape {
        Some(Shape::Implementation) => &["name", "version"],
        Some(Shape::Task) => &["taskId"],
        None => return,
    };
    let fits = value.as_object().is_some_and(|object| {
        strings
            .iter()
            .all(|member| object.get(*member).is_some_and(Value::is_string))
    });
    if !fits {
        report.error(
            rule,
            at,
            format!(
                "the value is an object with a string {}",
                strings
                    .iter()
                    .map(|member| format!("`{member}`"))
                    .collect::<Vec<_>>()
                    .join(" and a string ")
            ),
        );
    }
}

/// A well-formed key: the labels of its prefix (none without one).
#[derive(Debug, PartialEq)]
struct Key<'a> {
    labels: Vec<&'a str>,
}

impl<'a> Key<'a> {
    /// The key's prefix labels, or `None` when the key is not well formed.
    fn parse(key: &'a str) -> Option<Self> {
        let (labels, name) = match key.split_once('/') {
            Some((prefix, name)) => (prefix.split('.').collect(), name),
            None => (Vec::new(), key),
        };
        (labels.iter().all(|label| is_label(label)) && is_name(name)).then_some(Key { labels })
    }

    /// Whether MCP `revision` reserves this key's prefix.
    ///
    /// From 2026-07-28, a prefix whose second label is reserved; before,
    /// a prefix with a reserved label followed by at least one more label.
    fn reserved_under(&self, revision: Revision) -> bool {
        let reserved = |label: &&str| RESERVED_LABELS.contains(label);
        if revision >= SECOND_LABEL_RULE {
            self.labels.get(1).is_some_and(reserved)
        } else {
            let before_last = self.labels.len().saturating_sub(1);
            self.labels[..before_last].iter().any(reserved)
        }
    }
}

/// Whether `identifier` is an MCP extension identifier (Section 8.4): the
/// mandatory-prefix form of a `_meta` key, `prefix/name` with at least one
/// label and a non-empty name.
pub(crate) fn is_extension_identifier(identifier: &str) -> bool {
    identifier.split_once('/').is_some_and(|(prefix, name)| {
        !name.is_empty() && prefix.split('.').all(is_label) && is_name(name)
    })
}

/// Whether the prefix of the extension identifier `identifier` is
/// reserved for MCP (Section 8.4): its second label is `modelcontextprotocol`
/// or `mcp`, compared exactly, as for `_meta` keys from 2026-07-28 on.
pub(crate) fn has_reserved_prefix(identifier: &str) -> bool {
    Key::parse(identifier).is_some_and(|key| key.reserved_under(SECOND_LABEL_RULE))
}

/// A prefix label: a letter, then letters, digits or hyphens, ending with
/// a letter or digit.
fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|byte| byte.is_ascii_alphanumeric() || *byte == b'-')
        }
        _ => false,
    }
}

/// A name: empty, or starting and ending with a letter or digit with
/// letters, digits, `-`, `_` and `.` between.
fn is_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, None) => true,
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|byte| byte.is_ascii_alphanumeric() || b"-_.".contains(byte))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tests::*;

    #[test]
    fn the_key_grammar() {
        for good in [
            "",
            "x",
            "owner",
            "x-not-an-extension",
            "a.b_c-d9",
            "com.example/",
            "com.example/owner",
            "a/1",
            "a-b.c9/x.y_z-1",
        ] {
            assert!(Key::parse(good).is_some(), "{good:?}");
        }
        for bad in [
            "-x",
            "x_",
            ".x",
            "/x",
            "com..example/x",
            "1com/x",
            "com-/x",
            "com_x/y",
            "a/b/c",
            "has space",
            "ключ",
            "com.example//x",
            "x/-y",
        ] {
            assert!(Key::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn reserved_prefixes_changed_with_2025_11_25() {
        let reserved = |key: &str, revision| Key::parse(key).unwrap().reserved_under(revision);
        // (key, reserved under 2025-06-18, reserved from 2025-11-25)
        for (key, before, from) in [
            ("modelcontextprotocol.io/k", true, false),
            ("tools.mcp.com/k", true, true),
            ("io.modelcontextprotocol/k", false, true),
            ("dev.mcp/k", false, true),
            ("org.modelcontextprotocol.api/k", true, true),
            ("com.example.mcp/k", false, false),
            ("mcp/k", false, false),
            ("k", false, false),
        ] {
            assert_eq!(reserved(key, R2025_06_18), before, "{key} before");
            assert_eq!(reserved(key, R2025_11_25), from, "{key} from");
            assert_eq!(reserved(key, R2026_07_28), from, "{key} from");
        }
    }

    #[test]
    fn only_revisions_in_scope_and_with_meta_judge_it() {
        let doc = with(json!({
            "protocolVersions": ["2025-03-26", "2025-06-18", "2026-07-28"],
            "tools": [tool(json!({"_meta": {"a/b/c": 1, "dev.mcp/k": 2}}))],
            "prompts": [{"name": "p", "protocolVersions": ["2025-06-18"], "_meta": []}]
        }));
        assert_findings(
            &doc,
            R2025_03_26,
            &[
                (rule::META_PROTOCOL_VERSION, "/tools/0/_meta", E),
                (
                    rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
                    "/protocolVersions",
                    W,
                ),
            ],
        );
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (rule::META_KEY, "/tools/0/_meta/a~1b~1c", E),
                (rule::META_KEY, "/prompts/0/_meta", E),
            ],
        );
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (rule::META_KEY, "/tools/0/_meta/a~1b~1c", E),
                (rule::META_RESERVED_KEY, "/tools/0/_meta/dev.mcp~1k", W),
            ],
        );
    }
}
