//! Effective protocol scopes, and the rules on explicit ones.
//!
//! The root `protocolVersions` scopes the whole document. A primitive's own
//! `protocolVersions` replaces it for that primitive, and a declaration's own
//! `protocolVersions` replaces its primitive's. An explicit scope is used as
//! declared even when it breaks a rule. A `protocolVersions` that is not an
//! array is reported by its own rule and otherwise treated as absent; a
//! missing or non-array root scope means "every known revision", so a
//! nested scope naming an unknown revision is still outside it.

use std::collections::HashSet;

use mcpdesc_protocol::{Revision, Revisions};
use serde_json::{Map, Value};

use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;

/// The name of the member that holds a scope, at every level.
pub(crate) const MEMBER: &str = "protocolVersions";

/// The MCP revisions something applies to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scope<'a> {
    /// Every known revision: the root scope is missing or not an array.
    /// The list is the validator's known revisions, which is what a nested
    /// scope's entries are checked against.
    All(&'a Revisions),
    /// The revisions named in this array. Entries compare as strings: an
    /// entry that is not a string names no revision.
    Listed(&'a [Value]),
}

impl<'a> Scope<'a> {
    /// The scope of the document root, given the revisions a document may
    /// name.
    pub(crate) fn of_root(root: &'a Map<String, Value>, known: &'a Revisions) -> Self {
        Scope::All(known).narrowed_by(root)
    }

    /// The effective scope of something inside this scope: its own array when
    /// it has one, else this scope.
    pub(crate) fn narrowed_by(self, object: &'a Map<String, Value>) -> Self {
        match object.get(MEMBER) {
            Some(Value::Array(entries)) => Scope::Listed(entries),
            _ => self,
        }
    }

    /// Whether `revision` is in this scope.
    pub(crate) fn includes(self, revision: Revision) -> bool {
        match self {
            Scope::All(_) => true,
            Scope::Listed(entries) => entries
                .iter()
                .any(|entry| entry.as_str() == Some(revision.as_str())),
        }
    }

    /// What is wrong with an explicit scope declared inside this one, if
    /// anything: it must be non-empty, name each revision once, and its
    /// strings must be entries of this scope. Entries that are not strings
    /// are left to the caller, since which rule owns them depends on the
    /// level. Inside [`Scope::All`] the allowed entries are the known
    /// revisions.
    fn problem_with(self, explicit: &[Value]) -> Option<&'static str> {
        if explicit.is_empty() {
            return Some("an explicit protocolVersions must not be empty");
        }
        let mut seen = HashSet::new();
        if !explicit
            .iter()
            .filter_map(Value::as_str)
            .all(|text| seen.insert(text))
        {
            return Some("an explicit protocolVersions names a revision twice");
        }
        let outside = match self {
            Scope::All(known) => explicit
                .iter()
                .filter_map(Value::as_str)
                .any(|text| known.get(text).is_none()),
            Scope::Listed(container) => {
                let allowed: HashSet<&str> = container.iter().filter_map(Value::as_str).collect();
                explicit
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|text| !allowed.contains(text))
            }
        };
        outside.then_some("protocolVersions names a revision outside the containing scope")
    }
}

/// Where a scope overlap of the declaration `object` at `at` is reported:
/// at its `protocolVersions` when it has that member (whatever its type),
/// else at the declaration, which inherits its parent's scope. Capabilities
/// Objects and primitive variants share this convention.
pub(crate) fn overlap_pointer(object: &Map<String, Value>, at: &Pointer) -> Pointer {
    if object.contains_key(MEMBER) {
        at.key(MEMBER)
    } else {
        at.clone()
    }
}

/// A top-level declaration's explicit scope (Section 4.10): an array of
/// strings, non-empty, naming each revision once, and a subset of the root
/// scope. `rule` names the declaration's own rule
/// (`mcpdesc.primitive.protocol-scope`, `mcpdesc.transport.protocol-scope`),
/// which owns the scope's type too, because the declaration's shape rule
/// does not check it; a non-string entry is reported whatever the root
/// scope is.
pub(crate) fn check_top_level(
    rule: &'static str,
    object: &Map<String, Value>,
    at: &Pointer,
    root: Scope<'_>,
    report: &mut Report,
) {
    let problem = match object.get(MEMBER) {
        None => None,
        Some(Value::Array(entries)) if !entries.iter().all(Value::is_string) => {
            Some("an explicit protocolVersions must list revisions as strings")
        }
        Some(Value::Array(entries)) => root.problem_with(entries),
        Some(_) => Some("an explicit protocolVersions must be an array"),
    };
    if let Some(message) = problem {
        report.error(rule, &at.key(MEMBER), message);
    }
}

/// `mcpdesc.elicitation.protocol-scope`: a declaration's explicit scope is
/// non-empty and its strings are a subset of its primitive's effective
/// scope. A non-array scope, or an entry that is not a string, is a shape
/// problem, not this rule's.
pub(crate) fn check_declaration(
    object: &Map<String, Value>,
    at: &Pointer,
    primitive: Scope<'_>,
    report: &mut Report,
) {
    if let Some(Value::Array(entries)) = object.get(MEMBER)
        && let Some(message) = primitive.problem_with(entries)
    {
        report.error(rule::ELICITATION_PROTOCOL_SCOPE, &at.key(MEMBER), message);
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use super::Scope;
    use crate::rule::{ELICITATION_PROTOCOL_SCOPE as DECL, PRIMITIVE_PROTOCOL_SCOPE as PRIM};
    use crate::tests::{E, assert_findings, form, tool, with};

    #[test]
    fn subsets_of_the_containing_scope_pass() {
        let doc = with(json!({"tools": [tool(json!({
            "protocolVersions": ["2025-11-25", "2026-07-28"],
            "elicitations": [form(json!({"protocolVersions": ["2025-11-25"]}))]
        }))]}));
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn primitive_scope_outside_root_empty_or_not_array() {
        let doc = with(json!({
            "protocolVersions": ["2025-11-25"],
            "tools": [
                tool(json!({"name": "t0", "protocolVersions": ["2025-06-18"]})),
                tool(json!({"name": "t1", "protocolVersions": []})),
                tool(json!({"name": "t2", "protocolVersions": "2025-11-25"})),
                tool(json!({"name": "t3", "protocolVersions": [20251125]})),
                tool(json!({"name": "t4", "protocolVersions": ["2025-11-25", "2025-11-25"]}))
            ],
            "prompts": [{"name": "p", "protocolVersions": ["2025-11-25", "2099-01-01"]}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (PRIM, "/prompts/0/protocolVersions", E),
                (PRIM, "/tools/0/protocolVersions", E),
                (PRIM, "/tools/1/protocolVersions", E),
                (PRIM, "/tools/2/protocolVersions", E),
                (PRIM, "/tools/3/protocolVersions", E),
                (PRIM, "/tools/4/protocolVersions", E),
            ],
        );
    }

    #[test]
    fn without_a_root_array_the_container_is_every_known_revision() {
        // Missing, not an array: either way a nested entry naming no known
        // revision is outside, as it would be outside a root that exists.
        for root in [json!(null), json!("2025-06-18")] {
            let doc = with(json!({
                "protocolVersions": root,
                "tools": [
                    tool(json!({"protocolVersions": ["2099-01-01"]})),
                    tool(json!({"protocolVersions": []})),
                    tool(json!({"protocolVersions": ["2024-11-05", "2026-07-28"]})),
                    tool(json!({"protocolVersions": [""]})),
                    tool(json!({"elicitations": [
                        form(json!({"name": "a", "protocolVersions": ["2025-11-25"]})),
                        form(json!({"name": "b", "protocolVersions": ["2025-11-25", "2025-13-01"]}))
                    ]}))
                ]
            }));
            let shape = if root.is_null() {
                ""
            } else {
                "/protocolVersions"
            };
            assert_findings(
                &doc,
                R2025_06_18,
                &[
                    (DECL, "/tools/4/elicitations/1/protocolVersions", E),
                    (crate::rule::DOCUMENT_SHAPE, shape, E),
                    (PRIM, "/tools/0/protocolVersions", E),
                    (PRIM, "/tools/1/protocolVersions", E),
                    (PRIM, "/tools/3/protocolVersions", E),
                ],
            );
        }
    }

    #[test]
    fn declaration_scope_is_checked_against_the_primitive() {
        let doc = with(json!({
            "tools": [tool(json!({
                "protocolVersions": ["2025-11-25"],
                "elicitations": [
                    form(json!({"name": "a", "protocolVersions": ["2025-11-25"]})),
                    form(json!({"name": "b", "protocolVersions": ["2026-07-28"]})),
                    form(json!({"name": "c", "protocolVersions": []})),
                    form(json!({"name": "d", "protocolVersions": ["2025-11-25", "2025-11-25"]})),
                    form(json!({"name": "e"})),
                    // Only strings can repeat a revision; a non-string
                    // entry is a shape problem, and the string is listed once.
                    form(json!({"name": "f", "protocolVersions": [1, 1, "2025-11-25"]}))
                ]
            }))]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (DECL, "/tools/0/elicitations/1/protocolVersions", E),
                (DECL, "/tools/0/elicitations/2/protocolVersions", E),
                (DECL, "/tools/0/elicitations/3/protocolVersions", E),
                (
                    crate::rule::ELICITATION_SHAPE,
                    "/tools/0/elicitations/5/protocolVersions",
                    E,
                ),
            ],
        );
    }

    #[test]
    fn declarations_inherit_the_root_through_their_primitive() {
        let doc = with(json!({
            "protocolVersions": ["2025-11-25"],
            "tools": [tool(json!({"elicitations": [
                form(json!({"protocolVersions": ["2025-06-18"]}))
            ]}))]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(DECL, "/tools/0/elicitations/0/protocolVersions", E)],
        );
    }

    #[test]
    fn a_non_array_primitive_scope_is_treated_as_absent() {
        let doc = with(json!({
            "protocolVersions": ["2025-11-25"],
            "tools": [tool(json!({
                "protocolVersions": "all",
                "elicitations": [form(json!({"protocolVersions": ["2025-06-18"]}))]
            }))]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (DECL, "/tools/0/elicitations/0/protocolVersions", E),
                (PRIM, "/tools/0/protocolVersions", E),
            ],
        );
    }

    #[test]
    fn non_string_entries_of_a_primitive_scope_are_this_rules_whatever_the_root() {
        let doc = with(json!({
            "protocolVersions": null,
            "tools": [tool(json!({"protocolVersions": [["2025-06-18"], "2026-07-28"]}))]
        }));
        assert_findings(
            &doc,
            R2026_07_28,
            &[
                (crate::rule::DOCUMENT_SHAPE, "", E),
                (PRIM, "/tools/0/protocolVersions", E),
            ],
        );
    }

    #[test]
    fn non_string_entries_of_a_declaration_scope_are_a_shape_error_only() {
        let doc = with(json!({"tools": [tool(json!({
            "elicitations": [form(json!({"protocolVersions": [["2025-06-18"], "2026-07-28"]}))]
        }))]}));
        let at = "/tools/0/elicitations/0/protocolVersions";
        assert_findings(
            &doc,
            R2026_07_28,
            &[(crate::rule::ELICITATION_SHAPE, at, E)],
        );
        // The scope is used as declared: the string entry alone is in it.
        let doc = with(json!({"tools": [tool(json!({
            "elicitations": [crate::tests::url(json!({"protocolVersions": [7, "2025-06-18"]}))]
        }))]}));
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (
                    crate::rule::ELICITATION_PROTOCOL_VERSION,
                    "/tools/0/elicitations/0",
                    E,
                ),
                (crate::rule::ELICITATION_SHAPE, at, E),
            ],
        );
    }

    #[test]
    fn a_non_array_declaration_scope_is_a_shape_error_only() {
        let doc = with(json!({"tools": [tool(json!({
            "elicitations": [form(json!({"protocolVersions": "2025-11-25"}))]
        }))]}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(
                crate::rule::ELICITATION_SHAPE,
                "/tools/0/elicitations/0/protocolVersions",
                E,
            )],
        );
    }

    #[test]
    fn a_non_array_declaration_scope_falls_back_to_the_primitive_scope() {
        let doc = with(json!({"tools": [tool(json!({
            "elicitations": [crate::tests::url(json!({"protocolVersions": "2025-11-25"}))]
        }))]}));
        let shape = (
            crate::rule::ELICITATION_SHAPE,
            "/tools/0/elicitations/0/protocolVersions",
            E,
        );
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                shape,
                (
                    crate::rule::ELICITATION_PROTOCOL_VERSION,
                    "/tools/0/elicitations/0",
                    E,
                ),
            ],
        );
        assert_findings(&doc, R2025_11_25, &[shape]);
    }

    #[test]
    fn scopes_narrow_and_include() {
        let root = json!({"protocolVersions": ["2025-06-18", 7]});
        let inner = json!({"protocolVersions": ["2026-07-28"]});
        let odd = json!({"protocolVersions": {"2026-07-28": true}});
        let (Some(root), Some(inner), Some(odd)) =
            (root.as_object(), inner.as_object(), odd.as_object())
        else {
            unreachable!()
        };
        let known = crate::suite_revisions();
        let scope = Scope::of_root(root, &known);
        assert!(scope.includes(R2025_06_18));
        assert!(!scope.includes(R2025_11_25));
        assert!(scope.narrowed_by(inner).includes(R2026_07_28));
        assert!(!scope.narrowed_by(odd).includes(R2026_07_28));
        assert!(Scope::All(&known).includes(R2024_11_05));
        let empty = Value::Array(Vec::new());
        let Value::Array(empty) = &empty else {
            unreachable!()
        };
        assert!(!Scope::Listed(empty).includes(R2025_06_18));
    }
}
