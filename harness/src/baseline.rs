//! Known failures: a baseline file lists the cases a validator is known to
//! fail, so that its CI stays green while its authors work, and turns red
//! the moment a listed case passes (the entry is stale) or a new case fails.
//!
//! The file is YAML:
//!
//! ```yaml
//! failures:
//!   - case: "elicitation/expected-invalid/enum-default-outside-choices.json"
//!     revision: "2025-11-25"        # optional: every revision when absent
//!     reason: "defaults are not checked yet"   # optional
//!     link: "https://example.org/issues/12"   # optional
//! ```
//!
//! `case` is matched as `run --filter` matches: a case ID
//! (`<suite>/<class>/<file>@<revision>`) selects that case, a pattern
//! without `@` is matched against the fixture ID, and `*` and `?` are
//! wildcards.
//!
//! When an entry is stale depends on how many cases of the suite it
//! matches. An entry that names exactly one case is stale when that case
//! passes. An entry that matches several (a pattern with `*` or `?`, or a
//! fixture without `@revision` that runs under several revisions) covers an
//! area: it is stale only when none of its cases fails and one passes, and
//! only in a run that took all of its cases (a narrower run, or one shard,
//! cannot tell whether the cases it did not take still fail). A stale entry
//! fails the run, and `baseline --output` leaves it out; every other entry
//! that matches a case of the suite is kept as it is.

use std::fmt::Write as _;
use std::path::Path;

use mcpdesc_protocol::Revision;
use serde::Deserialize;

use crate::outcome::comparison::Level;
use crate::outcome::mark::Mark;
use crate::outcome::{CaseResult, Outcome};
use crate::suite::case::{Case, Selection};

/// A baseline: the known failures of one validator.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The entries, in file order.
    pub failures: Vec<Entry>,
    /// How many cases of the suite each entry matches, in entry order, as
    /// [`Baseline::load`] measured them; empty for a baseline that was not
    /// loaded against a suite, whose entries are then each taken to name
    /// one case (every listed case judged alone).
    #[serde(skip)]
    widths: Vec<usize>,
}

/// One known failure.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A case ID, or a pattern as `--filter` takes it.
    pub case: String,
    /// Only under this revision, when given.
    #[serde(default)]
    pub revision: Option<Revision>,
    /// Why the validator fails it, when given.
    #[serde(default)]
    pub reason: Option<String>,
    /// Where to read more (an issue), when given.
    #[serde(default)]
    pub link: Option<String>,
}

/// A baseline file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BaselineError {
    /// The file cannot be read: it is not a regular file, too large, or
    /// unreadable (as for every input, [`crate::input`]).
    #[error(transparent)]
    Unreadable(#[from] crate::input::InputError),
    /// The file does not parse, or does not have the documented shape.
    #[error("{0}")]
    Malformed(mcpdesc_source::LoadError),
    /// Entries that match no case of the suite (a typo, or a fixture that
    /// is gone): an error, since such an entry would silently tolerate
    /// nothing.
    // The entries come from the file, which may hold anything: escaped,
    // since the message goes to a terminal.
    #[error(
        "{}: no case of the suite matches {}: {}",
        crate::emit::escape::line(.file),
        if .cases.len() == 1 { "this entry" } else { "these entries" },
        .cases
            .iter()
            .map(|case| format!("`{}`", crate::emit::escape::line(case)))
            .collect::<Vec<_>>()
            .join(", ")
    )]
    Unmatched {
        /// The file.
        file: String,
        /// The entries' `case` (with `@revision` when they name one).
        cases: Vec<String>,
    },
}

impl Baseline {
    /// A baseline of `failures`, not measured against a suite.
    pub fn new(failures: Vec<Entry>) -> Baseline {
        Baseline {
            failures,
            widths: Vec::new(),
        }
    }

    /// Reads the baseline at `path`, and measures each entry against
    /// `cases` (every case of the suite, not only the selected ones, so
    /// that a narrower run does not call entries unmatched or stale): each
    /// must match at least one.
    ///
    /// # Errors
    ///
    /// [`BaselineError`] for a file that cannot be read or parsed (with
    /// line and column), or entries that match no case.
    pub fn load(path: &Path, cases: &[Case<'_>]) -> Result<Baseline, BaselineError> {
        Baseline::read(path)?.matched(&path.display().to_string(), cases)
    }

    /// This baseline (from `file`, for errors), with each entry measured
    /// against `cases` as [`Baseline::load`] measures a file's.
    ///
    /// # Errors
    ///
    /// [`BaselineError::Unmatched`] for entries that match no case.
    pub fn matched(self, file: &str, cases: &[Case<'_>]) -> Result<Baseline, BaselineError> {
        let baseline = self.measured(cases);
        let unmatched: Vec<String> = baseline
            .failures
            .iter()
            .zip(&baseline.widths)
            .filter(|(_, width)| **width == 0)
            .map(|(entry, _)| entry.label())
            .collect();
        if unmatched.is_empty() {
            Ok(baseline)
        } else {
            Err(BaselineError::Unmatched {
                file: file.to_owned(),
                cases: unmatched,
            })
        }
    }

    /// Reads the baseline at `path` as it is, without matching its entries
    /// against a suite (for rewriting it).
    ///
    /// # Errors
    ///
    /// [`BaselineError`] for a file that cannot be read or parsed.
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let file = path.display().to_string();
        let bytes = crate::input::read_bytes(path, crate::input::InputKind::Baseline)?;
        mcpdesc_source::parse_yaml(&file, &bytes).map_err(BaselineError::Malformed)
    }

    /// This baseline, with each entry measured against `suite` (every case
    /// of the suite): how many of its cases it matches.
    fn measured(mut self, suite: &[Case<'_>]) -> Baseline {
        self.widths = self
            .failures
            .iter()
            .map(|entry| suite.iter().filter(|case| entry.matches(case)).count())
            .collect();
        self
    }

    /// Whether the entry at `index` names exactly one case of the suite
    /// (or was not measured), so that its case alone decides whether it is
    /// stale.
    fn names_one_case(&self, index: usize) -> bool {
        self.widths.get(index).is_none_or(|width| *width <= 1)
    }

    /// The first entry that matches `case`.
    pub fn entry(&self, case: &Case<'_>) -> Option<&Entry> {
        self.failures.iter().find(|entry| entry.matches(case))
    }

    /// What the baseline says about `case` as soon as it has ended as
    /// `outcome`, judged at `level`: known when it fails; stale when it
    /// passes and an entry that names it alone lists it; nothing otherwise.
    /// Whether an entry that matches several cases is stale is known only
    /// when they have all ended: [`Baseline::marks`] says it.
    pub fn mark(&self, case: &Case<'_>, outcome: &Outcome, level: Level) -> Option<Mark> {
        match outcome.passes(level)? {
            false => self.entry(case).map(Entry::known),
            true => self
                .failures
                .iter()
                .enumerate()
                .find(|(index, entry)| self.names_one_case(*index) && entry.matches(case))
                .map(|(_, entry)| entry.stale()),
        }
    }

    /// What the baseline says about each of a run's `cases`, which ended
    /// as `results` (in the same order), judged at `level`: known for a
    /// listed case that fails, stale for a passing case that a stale entry
    /// lists ([`Baseline::stale`]), nothing otherwise.
    pub fn marks(
        &self,
        cases: &[Case<'_>],
        results: &[CaseResult],
        level: Level,
    ) -> Vec<Option<Mark>> {
        let stale = self.stale_entries(cases, results, level);
        cases
            .iter()
            .zip(results)
            .map(|(case, result)| match result.outcome.passes(level)? {
                false => self.entry(case).map(Entry::known),
                true => self
                    .failures
                    .iter()
                    .zip(&stale)
                    .find(|(entry, stale)| **stale && entry.matches(case))
                    .map(|(entry, _)| entry.stale()),
            })
            .collect()
    }

    /// The entries a run of `cases`, which ended as `results`, shows to be
    /// stale at `level`: one that names exactly one case, when that case
    /// passes; one that matches several, when the run took and finished all
    /// of them, none fails and one passes.
    pub fn stale(&self, cases: &[Case<'_>], results: &[CaseResult], level: Level) -> Vec<&Entry> {
        self.failures
            .iter()
            .zip(self.stale_entries(cases, results, level))
            .filter(|(_, stale)| *stale)
            .map(|(entry, _)| entry)
            .collect()
    }

    /// For each entry, in order, whether it is stale ([`Baseline::stale`]).
    fn stale_entries(&self, cases: &[Case<'_>], results: &[CaseResult], level: Level) -> Vec<bool> {
        self.failures
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let (mut taken, mut passed, mut failed) = (0, false, false);
                for (_, result) in cases
                    .iter()
                    .zip(results)
                    .filter(|(case, _)| entry.matches(case))
                {
                    // A case the run did not finish was not taken.
                    if matches!(result.outcome, Outcome::Interrupted) {
                        continue;
                    }
                    taken += 1;
                    match result.outcome.passes(level) {
                        Some(true) => passed = true,
                        Some(false) => failed = true,
                        // Skipped, unclaimed or interrupted: no evidence
                        // either way.
                        None => {}
                    }
                }
                if self.names_one_case(index) {
                    passed
                } else {
                    let all = self.widths.get(index).is_some_and(|width| taken == *width);
                    all && passed && !failed
                }
            })
            .collect()
    }

    /// The baseline a run of `cases` (out of `suite`, every case of the
    /// suite) leaves, which ended as `results` judged at `level`: the
    /// entries of `self` that match a case of the suite and are not stale
    /// ([`Baseline::stale`]) are kept as they are, patterns, reasons and
    /// links included (so are the entries of cases the run did not take);
    /// every failing case that no kept entry lists gets an entry of its
    /// own, by case ID, without a reason.
    pub fn of_run(
        &self,
        suite: &[Case<'_>],
        cases: &[Case<'_>],
        results: &[CaseResult],
        level: Level,
    ) -> Baseline {
        let measured = self.clone().measured(suite);
        let stale = measured.stale_entries(cases, results, level);
        let mut failures: Vec<Entry> = measured
            .failures
            .iter()
            .zip(&measured.widths)
            .zip(&stale)
            .filter(|((_, width), stale)| **width > 0 && !**stale)
            .map(|((entry, _), _)| entry.clone())
            .collect();
        let kept = failures.len();
        for (case, _) in cases
            .iter()
            .zip(results)
            .filter(|(_, result)| result.outcome.passes(level) == Some(false))
        {
            if failures[..kept].iter().any(|entry| entry.matches(case)) {
                continue;
            }
            failures.push(Entry {
                case: case.id(),
                revision: None,
                reason: None,
                link: None,
            });
        }
        Baseline::new(failures)
    }

    /// Writes the file at `path` (its text is [`Baseline::render`]),
    /// replacing it whole or not at all.
    ///
    /// # Errors
    ///
    /// The file that could not be written, and why.
    #[cfg(feature = "reports")]
    pub fn write(&self, path: &Path) -> Result<(), crate::file::FileError> {
        crate::file::write_output(path, &self.render())
    }

    /// The file's text, as `baseline` writes it: every string quoted, so
    /// that it reads back as written; an entry without a reason is written
    /// without one.
    pub fn render(&self) -> String {
        let quote = |text: &str| serde_json::Value::String(text.to_owned()).to_string();
        let mut text = String::from(
            "# Known failures, as `mcpdesc-conformance baseline` writes them. An entry may\n\
             # say why (`reason:`) and where to read more (`link:`); both are kept when it\n\
             # writes the file again.\n",
        );
        if self.failures.is_empty() {
            text.push_str("failures: []\n");
            return text;
        }
        text.push_str("failures:\n");
        for entry in &self.failures {
            let _ = writeln!(text, "  - case: {}", quote(&entry.case));
            if let Some(revision) = entry.revision {
                let _ = writeln!(text, "    revision: {}", quote(revision.as_str()));
            }
            if let Some(reason) = &entry.reason {
                let _ = writeln!(text, "    reason: {}", quote(reason));
            }
            if let Some(link) = &entry.link {
                let _ = writeln!(text, "    link: {}", quote(link));
            }
        }
        text
    }
}

impl Entry {
    /// Whether this entry names `case`.
    pub fn matches(&self, case: &Case<'_>) -> bool {
        self.revision
            .is_none_or(|revision| revision == case.revision)
            && Selection {
                filters: vec![self.case.clone()],
                ..Selection::default()
            }
            .takes(case)
    }

    /// The entry as messages name it: its `case`, with `@revision` when it
    /// gives one.
    pub fn label(&self) -> String {
        match self.revision {
            Some(revision) => format!("{}@{revision}", self.case),
            None => self.case.clone(),
        }
    }

    fn known(&self) -> Mark {
        Mark::Known {
            reason: self.reason.clone(),
            link: self.link.clone(),
        }
    }

    fn stale(&self) -> Mark {
        Mark::Stale {
            reason: self.reason.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::NotRun;
    use crate::outcome::comparison::Comparison;
    use crate::suite::SuiteSet;
    use crate::suite::catalog::RuleIndex;
    use crate::suite::tree::SuiteTree;

    fn entry(case: &str) -> Entry {
        Entry {
            case: case.to_owned(),
            revision: None,
            reason: None,
            link: None,
        }
    }

    /// A result of `case` that passes (`Some(true)`), fails
    /// (`Some(false)`) or was interrupted (`None`).
    fn result(case: &Case<'_>, passes: Option<bool>) -> CaseResult {
        let outcome = match passes {
            Some(true) => Outcome::Compared(Box::new(Comparison::new(
                Vec::new().into_iter().collect(),
                &[],
                &RuleIndex::default(),
                Some(&serde_json::Value::Null),
                case.revision,
            ))),
            Some(false) => Outcome::NotRun(NotRun::Unavailable),
            None => Outcome::Interrupted,
        };
        CaseResult::unasked(case, outcome)
    }

    /// The stale entries of `baseline` after a run of the suite's cases
    /// matching `selected`, where the cases matching `failing` fail, those
    /// matching `interrupted` did not finish, and the others pass.
    fn stale(
        baseline: &[&str],
        selected: &str,
        failing: &str,
        interrupted: &str,
    ) -> (Vec<String>, Baseline) {
        let set = SuiteSet::load(SuiteTree::embedded());
        let suite = Selection::default().cases(&set);
        let baseline =
            Baseline::new(baseline.iter().map(|case| entry(case)).collect()).measured(&suite);
        let selection = |pattern: &str| Selection {
            filters: vec![pattern.to_owned()],
            ..Selection::default()
        };
        let cases = selection(selected).cases(&set);
        let results: Vec<CaseResult> = cases
            .iter()
            .map(|case| {
                if selection(failing).takes(case) {
                    result(case, Some(false))
                } else if selection(interrupted).takes(case) {
                    result(case, None)
                } else {
                    result(case, Some(true))
                }
            })
            .collect();
        let names = baseline
            .stale(&cases, &results, Level::Exact)
            .into_iter()
            .map(Entry::label)
            .collect();
        let rewritten = baseline.of_run(&suite, &cases, &results, Level::Exact);
        (names, rewritten)
    }

    const PATTERN: &str = "document/expected-valid/*";
    const ONE: &str = "document/expected-valid/minimal.json@2025-11-25";
    const NONE: &str = "no such case";

    #[test]
    fn an_entry_naming_one_case_is_stale_when_it_passes() {
        let (names, rewritten) = stale(&[ONE], ONE, NONE, NONE);
        assert_eq!(names, [ONE]);
        assert!(rewritten.failures.is_empty());
        let (names, rewritten) = stale(&[ONE], ONE, ONE, NONE);
        assert!(names.is_empty());
        assert_eq!(rewritten.failures, [entry(ONE)]);
    }

    #[test]
    fn a_pattern_is_stale_only_when_none_of_its_cases_fails() {
        let (names, rewritten) = stale(&[PATTERN], "document/*", ONE, NONE);
        assert!(names.is_empty(), "{names:?}");
        assert_eq!(rewritten.failures, [entry(PATTERN)]);
        let (names, rewritten) = stale(&[PATTERN], "document/*", NONE, NONE);
        assert_eq!(names, [PATTERN]);
        assert!(rewritten.failures.is_empty());
    }

    #[test]
    fn a_pattern_is_not_stale_in_a_run_that_did_not_take_or_finish_all_its_cases() {
        // A narrower run: the cases it left out may still fail.
        let (names, rewritten) = stale(&[PATTERN], ONE, NONE, NONE);
        assert!(names.is_empty(), "{names:?}");
        assert_eq!(rewritten.failures, [entry(PATTERN)]);
        // An interrupted one.
        let (names, _) = stale(&[PATTERN], "document/*", NONE, "*minimal.json*");
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn a_rewrite_adds_failing_cases_no_entry_covers_and_drops_unmatched_entries() {
        let (_, rewritten) = stale(&[NONE, PATTERN], "document/*", ONE, NONE);
        assert_eq!(rewritten.failures, [entry(PATTERN)]);
        let (_, rewritten) = stale(&[], "document/*", ONE, NONE);
        assert_eq!(rewritten.failures, [entry(ONE)]);
    }

    #[test]
    fn a_missing_reason_is_written_as_none() {
        let text = Baseline::new(vec![entry(ONE)]).render();
        assert!(
            text.ends_with(&format!("failures:\n  - case: \"{ONE}\"\n")),
            "{text}"
        );
    }
}
