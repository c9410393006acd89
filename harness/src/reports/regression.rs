//! The regression view (`compare --before OLD --after NEW`): what changed
//! between two reports of one validator, case by case (matched by case ID),
//! at one level. This is data; the Markdown is made from it by
//! [`crate::emit::regression`].
//!
//! Each case in both reports is in one of five states at the level: it
//! passes, fails, or is not judged (skipped, unclaimed, interrupted), and
//! the report names its outcome's kind. A case *newly fails* when it fails
//! after and did not before, and is *fixed* when it passes after and failed
//! before; a case whose outcome kind or judgement changed otherwise (a
//! failure that became a crash, a pass that became a skip) has *changed*.
//! Cases in one report only are *added* or *removed*; they are listed, and
//! never count as new failures: they come from another selection or another
//! suite, not from the validator. How a case was judged is the report's
//! word; nothing is judged again here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use mcpdesc_protocol::{Implementation, Revision};

use crate::outcome::comparison::Level;
use crate::reports::{CaseRecord, Named, OutcomeRecord};
use crate::suite::expectation::{Finding, Findings};

/// Two reports that cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegressionError {
    /// A report lists a case twice: which of its results counts?
    #[error("{}: the case {case} is listed twice; a report has each case once", path.display())]
    Duplicate {
        /// The report.
        path: PathBuf,
        /// The case ID.
        case: String,
    },
    /// The reports have no case in common: nothing could be said.
    #[error(
        "{} and {} have no case in common (another suite, or disjoint selections): \
         there is nothing to compare",
        before.display(), after.display()
    )]
    NothingInCommon {
        /// The report before.
        before: PathBuf,
        /// The report after.
        after: PathBuf,
    },
}

/// How a case changed from the report before to the report after, in the
/// order the view lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Change {
    /// It fails after and did not fail before.
    NewFailure,
    /// It passes after and failed before.
    Fixed,
    /// Its outcome's kind or judgement changed otherwise.
    Changed,
    /// It is in the report after only.
    Added,
    /// It is in the report before only.
    Removed,
}

impl Change {
    /// Every change, in the order the view lists them.
    pub const ALL: [Change; 5] = [
        Change::NewFailure,
        Change::Fixed,
        Change::Changed,
        Change::Added,
        Change::Removed,
    ];

    /// Its name in a heading: `new failures`, `fixed`, ….
    pub fn title(self) -> &'static str {
        match self {
            Change::NewFailure => "new failures",
            Change::Fixed => "fixed",
            Change::Changed => "changed outcome",
            Change::Added => "added",
            Change::Removed => "removed",
        }
    }
}

/// A case's state in one report, at the view's level.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct State {
    /// The outcome's `kind`, as the report names it (`compared`,
    /// `crashed`, …).
    pub kind: &'static str,
    /// Whether it passes at the level (`None`: neither passes nor fails).
    pub passes: Option<bool>,
}

impl State {
    fn of(case: &CaseRecord, level: Level) -> State {
        State {
            kind: case.outcome.kind(),
            passes: case.passes.at(level),
        }
    }

    /// How the view names it: `passed` or `failed` for a compared case,
    /// else the outcome's kind (`crashed`, `skipped`, `unclaimed`, …).
    pub fn name(&self) -> &'static str {
        match (self.kind, self.passes) {
            ("compared", Some(true)) => "passed",
            ("compared", Some(false)) => "failed",
            (kind, _) => kind,
        }
    }

    fn fails(&self) -> bool {
        self.passes == Some(false)
    }
}

/// One case that changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CaseChange {
    /// The case ID.
    pub id: String,
    /// The revision it runs under.
    pub revision: Revision,
    /// How it changed.
    pub change: Change,
    /// Its state before (`None`: added).
    pub before: Option<State>,
    /// Its state after (`None`: removed).
    pub after: Option<State>,
    /// The rules it is listed under: those whose findings the failing side
    /// got wrong, else those the case involves; empty when no report says
    /// (a crash on both sides, say).
    pub rules: BTreeSet<String>,
    /// The findings the failing side missed (after for a new failure,
    /// before for a fix; the side after otherwise).
    pub missing: Findings,
    /// The findings the failing side reported and the suite does not expect.
    pub unexpected: Findings,
}

/// One side of the comparison.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Side {
    /// The report's file, as given.
    pub path: PathBuf,
    /// The heading it goes by (see [`crate::reports::headings`]).
    pub heading: String,
    /// The validator, as the report names it.
    pub implementation: Implementation,
    /// The suite's content hash.
    pub suite: String,
    /// The harness version that wrote the report.
    pub harness: String,
    /// The level the run's exit status was decided at.
    pub run_level: Level,
    /// How many cases the report has.
    pub cases: usize,
}

/// What the view says aloud before the changes: differences between the
/// reports that bear on how to read them, though they do not stop the
/// comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// The reports are of different suites: a case may have changed with
    /// its fixture or expectation, not with the validator.
    Suite,
    /// The reports name different implementations.
    Implementation,
    /// The reports were written by different harness versions.
    Harness,
}

/// The regression view of two reports.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Regressions {
    /// The level cases are judged at.
    pub level: Level,
    /// The report before.
    pub before: Side,
    /// The report after.
    pub after: Side,
    /// What differs between the reports beside the cases.
    pub warnings: Vec<Warning>,
    /// Every case that changed, by change, then rule, revision and ID.
    pub changes: Vec<CaseChange>,
    /// Per rule (`None`: a change no report names a rule of) and revision,
    /// how many cases changed each way, in [`Change::ALL`]'s order.
    pub groups: BTreeMap<(Option<String>, Revision), [usize; 5]>,
    /// How many cases are in both reports and did not change.
    pub unchanged: usize,
}

impl Regressions {
    /// The view of `before` and `after` at `level`.
    ///
    /// # Errors
    ///
    /// A report lists a case twice, or the reports have no case in
    /// common.
    pub fn of(
        before: Named<'_>,
        after: Named<'_>,
        level: Level,
    ) -> Result<Regressions, RegressionError> {
        for named in [before, after] {
            if let Some(case) = crate::reports::matrix::duplicate(named.report) {
                return Err(RegressionError::Duplicate {
                    path: named.path.to_path_buf(),
                    case: case.to_owned(),
                });
            }
        }
        let headings = crate::reports::headings(&[before, after]);
        let old: BTreeMap<&str, &CaseRecord> = before.by_id();
        let new: BTreeMap<&str, &CaseRecord> = after.by_id();
        if !old.is_empty() && !new.is_empty() && !old.keys().any(|id| new.contains_key(id)) {
            return Err(RegressionError::NothingInCommon {
                before: before.path.to_path_buf(),
                after: after.path.to_path_buf(),
            });
        }
        let ids: BTreeSet<&str> = old.keys().chain(new.keys()).copied().collect();
        let mut changes = Vec::new();
        let mut unchanged = 0;
        for id in ids {
            let (was, is) = (old.get(id).copied(), new.get(id).copied());
            let states = (
                was.map(|case| State::of(case, level)),
                is.map(|case| State::of(case, level)),
            );
            let change = match &states {
                (None, _) => Change::Added,
                (_, None) => Change::Removed,
                (Some(was), Some(is)) if is.fails() && !was.fails() => Change::NewFailure,
                (Some(was), Some(is)) if was.fails() && is.passes == Some(true) => Change::Fixed,
                (Some(was), Some(is)) if was != is => Change::Changed,
                _ => {
                    unchanged += 1;
                    continue;
                }
            };
            // The side whose findings explain the change.
            let failing = match change {
                Change::Fixed | Change::Removed => was,
                _ => is,
            };
            let mut rules = failing.map(wrong_rules).unwrap_or_default();
            if rules.is_empty() {
                rules = [was, is].into_iter().flatten().flat_map(involved).collect();
            }
            let comparison = failing.and_then(|case| case.outcome.comparison());
            let (missing, unexpected) = comparison.map_or_else(Default::default, |comparison| {
                (comparison.missing.clone(), comparison.unexpected.clone())
            });
            let revision = failing.or(was).or(is).map(|case| case.revision);
            let Some(revision) = revision else { continue };
            changes.push(CaseChange {
                id: id.to_owned(),
                revision,
                change,
                before: states.0,
                after: states.1,
                rules,
                missing,
                unexpected,
            });
        }
        let mut groups: BTreeMap<(Option<String>, Revision), [usize; 5]> = BTreeMap::new();
        for change in &changes {
            let slot = Change::ALL
                .iter()
                .position(|kind| *kind == change.change)
                .unwrap_or_default();
            let rules: Vec<Option<String>> = if change.rules.is_empty() {
                vec![None]
            } else {
                change.rules.iter().cloned().map(Some).collect()
            };
            for rule in rules {
                groups.entry((rule, change.revision)).or_default()[slot] += 1;
            }
        }
        changes.sort_by(|a, b| {
            (a.change, a.rules.first(), a.revision, &a.id).cmp(&(
                b.change,
                b.rules.first(),
                b.revision,
                &b.id,
            ))
        });
        let (old_run, new_run) = (&before.report.run, &after.report.run);
        let mut warnings = Vec::new();
        if old_run.suite.hash != new_run.suite.hash {
            warnings.push(Warning::Suite);
        }
        // A new version is what the view is for; a new name is not.
        if old_run.implementation.name != new_run.implementation.name {
            warnings.push(Warning::Implementation);
        }
        if old_run.harness.version != new_run.harness.version {
            warnings.push(Warning::Harness);
        }
        let side = |named: Named<'_>, heading: &String| Side {
            path: named.path.to_path_buf(),
            heading: heading.clone(),
            implementation: named.report.run.implementation.clone(),
            suite: named.report.run.suite.hash.clone(),
            harness: named.report.run.harness.version.clone(),
            run_level: named.report.run.options.level,
            cases: named.report.cases.len(),
        };
        Ok(Regressions {
            level,
            before: side(before, &headings[0]),
            after: side(after, &headings[1]),
            warnings,
            changes,
            groups,
            unchanged,
        })
    }

    /// How many cases changed `change`'s way.
    pub fn count(&self, change: Change) -> usize {
        self.changes
            .iter()
            .filter(|case| case.change == change)
            .count()
    }

    /// Whether some case newly fails: the view's exit status is 1 then.
    pub fn regressed(&self) -> bool {
        self.count(Change::NewFailure) > 0
    }
}

/// The rules whose findings a compared case got wrong (missed, unexpected,
/// or wrong in themselves).
fn wrong_rules(case: &CaseRecord) -> BTreeSet<String> {
    let Some(comparison) = case.outcome.comparison() else {
        return BTreeSet::new();
    };
    comparison
        .missing
        .iter()
        .chain(&comparison.unexpected)
        .chain(comparison.problems.iter().map(|problem| &problem.finding))
        .map(|finding: &Finding| finding.rule.clone())
        .collect()
}

/// The rules a case involves: the expected ones, those reported, and the
/// unclaimed ones of an unclaimed case.
fn involved(case: &CaseRecord) -> BTreeSet<String> {
    let mut rules: BTreeSet<String> = case
        .outcome
        .comparison()
        .map(|comparison| {
            comparison
                .expected
                .iter()
                .chain(&comparison.unexpected)
                .map(|finding| finding.rule.clone())
                .collect()
        })
        .unwrap_or_default();
    if let OutcomeRecord::Unclaimed {
        unclaimed_rules, ..
    } = &case.outcome
    {
        rules.extend(unclaimed_rules.iter().cloned());
    }
    rules
}
