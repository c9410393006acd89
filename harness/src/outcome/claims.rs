//! Claims: the rules a validator says it checks, and what that means for
//! what is judged.
//!
//! A claim narrows what is *judged*, never what is *excused*. For a case,
//! the findings of claimed rules are compared (expected ∩ claimed against
//! reported ∩ claimed); the findings of catalogued rules the validator does
//! not claim are set aside on both sides. A reported rule ID that no
//! catalog defines, or that does not apply under the case's revision, is
//! never set aside: it is an *unknown rule*, and fails the case at the
//! rules and exact levels whatever the validator claims. A rule whose
//! catalog entry says `claim: implied` (the legacy warning) is judged under
//! every revision it applies under, claimed or not.

use std::collections::BTreeSet;

use mcpdesc_protocol::{Implementation, Revision};

use crate::suite::catalog::{Claim, RuleIndex};

/// Which rules a validator is judged on, as a run states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    /// The rule IDs the validator lists (in its `start` reply, or on the
    /// command line with `--rules`); `None` when it lists none, and is
    /// judged on every rule.
    pub listed: Option<BTreeSet<String>>,
    /// Rules of the catalogs that the validator is judged on: those it
    /// lists and those it owes under the revisions it announces, or all
    /// when it lists none.
    pub claimed: usize,
    /// Rules in the catalogs.
    pub catalog: usize,
}

impl Claims {
    /// The claims of `implementation` over the catalogs' `rules`: the rules
    /// it lists, and those it owes under a revision it announces
    /// ([`Claim::Implied`]), or every rule when it lists none.
    pub fn of(implementation: &Implementation, rules: &RuleIndex) -> Claims {
        let catalog = rules.iter().count();
        let claimed = match &implementation.rules {
            None => catalog,
            Some(listed) => rules
                .iter()
                .filter(|rule| {
                    listed.contains(&rule.id)
                        || (rule.claim == Claim::Implied
                            && implementation.revisions.iter().any(|name| {
                                name.parse::<Revision>()
                                    .is_ok_and(|revision| rule.applicability.applies_to(revision))
                            }))
                })
                .count(),
        };
        Claims {
            listed: implementation
                .rules
                .as_ref()
                .map(|rules| rules.iter().cloned().collect()),
            claimed,
            catalog,
        }
    }

    /// Whether every rule of the catalogs is judged: the only claims under
    /// which a run can certify full conformance.
    pub fn is_full(&self) -> bool {
        self.claimed == self.catalog
    }

    /// Listed rule IDs that no catalog defines, in order: a claim of
    /// these is refused before any case runs, since it would judge nothing.
    pub fn unknown(&self, rules: &RuleIndex) -> Vec<String> {
        self.listed
            .iter()
            .flatten()
            .filter(|id| rules.get(id).is_none())
            .cloned()
            .collect()
    }
}

/// Whether a finding of `rule` is judged for a validator that lists
/// `listed` (every rule when `None`), in a case under `revision`.
///
/// Judged: a rule the validator lists; a rule it owes under the revision
/// ([`Claim::Implied`]); and a rule that is wrong in itself (in no catalog,
/// or not applying under the revision), which is never set aside.
pub(crate) fn judges(
    listed: Option<&[String]>,
    rule: &str,
    rules: &RuleIndex,
    revision: Revision,
) -> bool {
    let Some(listed) = listed else {
        return true;
    };
    if listed.iter().any(|id| id == rule) {
        return true;
    }
    match rules.get(rule) {
        None => true,
        Some(entry) => !entry.applicability.applies_to(revision) || entry.claim == Claim::Implied,
    }
}
