//! The MCP revisions a document names, and the legacy-revision warning.

use std::collections::HashSet;

use mcpdesc_protocol::{Revision, Revisions};
use serde_json::Value;

use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::scope;

/// `mcpdesc.protocol-versions.known`: the root `protocolVersions` array is
/// non-empty and lists each known revision at most once. Every entry that is
/// not a string, names no revision, or repeats an earlier entry is reported
/// at its index. A missing or non-array member is a shape problem.
pub(crate) fn check_known(value: &Value, known: &Revisions, report: &mut Report) {
    let Some(entries) = value
        .as_object()
        .and_then(|root| root.get(scope::MEMBER))
        .and_then(Value::as_array)
    else {
        return;
    };
    let at = Pointer::root().key(scope::MEMBER);
    if entries.is_empty() {
        report.error(
            rule::PROTOCOL_VERSIONS_KNOWN,
            &at,
            "`protocolVersions` must list at least one revision",
        );
        return;
    }
    let mut seen = HashSet::new();
    for (index, entry) in entries.iter().enumerate() {
        let message = match entry {
            Value::String(text) if known.get(text).is_none() => {
                format!("`{text}` is not a known MCP revision")
            }
            Value::String(text) if !seen.insert(text.as_str()) => {
                format!("`{text}` is listed more than once")
            }
            Value::String(_) => continue,
            _ => "a revision must be a string".to_owned(),
        };
        report.error(rule::PROTOCOL_VERSIONS_KNOWN, &at.index(index), message);
    }
}

/// `mcpdesc.protocol.legacy-validation-incomplete`: under a legacy revision,
/// whatever the document holds, a warning at the root `protocolVersions`, or
/// at the root when there is no such member.
pub(crate) fn check_legacy(
    value: &Value,
    revision: Revision,
    known: &Revisions,
    report: &mut Report,
) {
    if !known.is_legacy(revision) {
        return;
    }
    let has_member = value
        .as_object()
        .is_some_and(|root| root.contains_key(scope::MEMBER));
    let at = if has_member {
        Pointer::root().key(scope::MEMBER)
    } else {
        Pointer::root()
    };
    report.warning(
        rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
        &at,
        format!("MCP {revision} is a legacy revision: only structural and selected checks ran"),
    );
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use mcpdesc_protocol::{Revision, Revisions};
    use serde_json::json;

    use crate::rule::{
        DOCUMENT_SHAPE as SHAPE, PROTOCOL_LEGACY_VALIDATION_INCOMPLETE as LEGACY,
        PROTOCOL_VERSIONS_KNOWN as KNOWN,
    };
    use crate::tests::{E, W, assert_findings, with};

    #[test]
    fn unknown_non_string_and_repeated_entries_point_at_their_index() {
        let doc = with(json!({"protocolVersions": [
            "2025-06-18", "2025-09-01", 20250618, "2025-06-18", "2025-09-01", "2025-11-25"
        ]}));
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (KNOWN, "/protocolVersions/1", E),
                (KNOWN, "/protocolVersions/2", E),
                (KNOWN, "/protocolVersions/3", E),
                (KNOWN, "/protocolVersions/4", E),
            ],
        );
    }

    #[test]
    fn an_empty_list_points_at_the_member() {
        let doc = with(json!({"protocolVersions": []}));
        assert_findings(&doc, R2025_06_18, &[(KNOWN, "/protocolVersions", E)]);
    }

    #[test]
    fn a_non_array_is_a_shape_error_only() {
        let doc = with(json!({"protocolVersions": {"2025-06-18": true}}));
        assert_findings(&doc, R2025_06_18, &[(SHAPE, "/protocolVersions", E)]);
    }

    #[test]
    fn legacy_warning_under_legacy_revisions_only() {
        let doc = with(json!({"protocolVersions": ["2024-11-05", "2025-03-26"]}));
        for revision in all() {
            // The suite's list marks these two legacy; the validator reads
            // that from the list, not from its own knowledge.
            let expected: &[_] = if [R2024_11_05, R2025_03_26].contains(&revision) {
                &[(LEGACY, "/protocolVersions", W)]
            } else {
                &[]
            };
            assert_findings(&doc, revision, expected);
        }
    }

    #[test]
    fn legacy_warning_whatever_the_document_lists() {
        let doc = with(json!({"protocolVersions": ["2025-11-25"]}));
        assert_findings(&doc, R2024_11_05, &[(LEGACY, "/protocolVersions", W)]);
        let doc = with(json!({"protocolVersions": "2025-11-25"}));
        assert_findings(
            &doc,
            R2025_03_26,
            &[
                (SHAPE, "/protocolVersions", E),
                (LEGACY, "/protocolVersions", W),
            ],
        );
    }

    #[test]
    fn legacy_warning_at_the_root_without_protocol_versions() {
        let doc = with(json!({"protocolVersions": null}));
        assert_findings(&doc, R2025_03_26, &[(SHAPE, "", E), (LEGACY, "", W)]);
        assert_findings(&json!([1]), R2024_11_05, &[(SHAPE, "", E), (LEGACY, "", W)]);
    }

    /// The suite's list with `extra` appended.
    fn suite_list_and(extra: mcpdesc_protocol::KnownRevision) -> mcpdesc_protocol::Revisions {
        let mut entries = crate::suite_revisions().entries().to_vec();
        entries.push(extra);
        entries.try_into().unwrap()
    }

    fn found(
        doc: &serde_json::Value,
        revision: Revision,
        known: &Revisions,
    ) -> Vec<(String, String)> {
        crate::validate(doc, revision, known)
            .into_iter()
            .map(|d| (d.rule, d.path))
            .collect()
    }

    #[test]
    fn the_known_revisions_are_the_list_the_validator_is_given() {
        let later = Revision::of("2027-03-01");
        let doc = with(json!({"protocolVersions": ["2026-07-28", "2027-03-01"]}));
        let suite = crate::suite_revisions();
        assert_eq!(
            found(&doc, R2026_07_28, &suite),
            [(KNOWN.to_owned(), "/protocolVersions/1".to_owned())]
        );
        let grown = suite_list_and(mcpdesc_protocol::KnownRevision {
            revision: later,
            legacy: false,
        });
        assert_eq!(found(&doc, R2026_07_28, &grown), []);
        assert_eq!(found(&doc, later, &grown), []);
        // Legacy is what the list says, too.
        let legacy = suite_list_and(mcpdesc_protocol::KnownRevision {
            revision: later,
            legacy: true,
        });
        assert_eq!(
            found(&doc, later, &legacy),
            [(LEGACY.to_owned(), "/protocolVersions".to_owned())]
        );
    }
}
