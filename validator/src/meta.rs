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
use crate::report::Report;
use crate::rule;

/// The member, on each of the four primitives.
const MEMBER: &str = "_meta";

/// The first revision whose Tool, Resource, ResourceTemplate and Prompt
/// carry `_meta`.
const FIRST: Revision = Revision::of("2025-06-18");

/// The first revision that reserves a prefix by its second label only.
const SECOND_LABEL_RULE: Revision = Revision::of("2026-07-28");

/// The labels that make a prefix MCP's.
const RESERVED_LABELS: [&str; 2] = ["modelcontextprotocol", "mcp"];

/// Checks the `_meta` of every primitive in scope under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for primitive in &document.primitives {
        if !primitive.scope.includes(revision) {
            continue;
        }
        let Some(meta) = primitive.object.get(MEMBER) else {
            continue;
        };
        let at = primitive.pointer.key(MEMBER);
        if revision < FIRST {
            report.error(
                rule::META_PROTOCOL_VERSION,
                &at,
                format!("MCP {revision} has no `_meta` on this object; it starts with {FIRST}"),
            );
            continue;
        }
        let Value::Object(keys) = meta else {
            report.error(rule::META_KEY, &at, "`_meta` must be an object");
            continue;
        };
        for key in keys.keys() {
            match Key::parse(key) {
                None => report.error(
                    rule::META_KEY,
                    &at.key(key),
                    "a `_meta` key is an optional prefix of dot-separated labels and `/`, \
                     then a name that starts and ends with a letter or digit",
                ),
                Some(parsed) if parsed.reserved_under(revision) => report.warning(
                    rule::META_RESERVED_KEY,
                    &at.key(key),
                    format!(
                        "`{key}` is under a prefix MCP {revision} reserves, and is not a key \
                         this validator recognizes"
                    ),
                ),
                Some(_) => {}
            }
        }
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
    fn reserved_prefixes_changed_with_2026_07_28() {
        let reserved = |key: &str, revision| Key::parse(key).unwrap().reserved_under(revision);
        // (key, reserved before 2026-07-28, reserved from it)
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
            assert_eq!(reserved(key, R2025_11_25), before, "{key} before");
            assert_eq!(reserved(key, R2025_06_18), before, "{key} before");
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
