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
//!     reason: "defaults are not checked yet"
//!     link: "https://example.org/issues/12"   # optional
//! ```
//!
//! `case` is matched as `run --filter` matches: a case ID
//! (`<suite>/<class>/<file>@<revision>`) selects that case, a pattern
//! without `@` is matched against the fixture ID, and `*` and `?` are
//! wildcards.

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
    /// Why the validator fails it.
    pub reason: String,
    /// Where to read more (an issue), when given.
    #[serde(default)]
    pub link: Option<String>,
}

/// A baseline file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BaselineError {
    /// The file cannot be read.
    #[error("{file}: cannot be read: {error}")]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        error: String,
    },
    /// The file does not parse, or does not have the documented shape.
    #[error("{0}")]
    Malformed(mcpdesc_source::LoadError),
    /// Entries that match no case of the suite (a typo, or a fixture that
    /// is gone): an error, since such an entry would silently tolerate
    /// nothing.
    #[error(
        "{file}: no case of the suite matches {}: {}",
        if .cases.len() == 1 { "this entry" } else { "these entries" },
        .cases.iter().map(|case| format!("`{case}`")).collect::<Vec<_>>().join(", ")
    )]
    Unmatched {
        /// The file.
        file: String,
        /// The entries' `case` (with `@revision` when they name one).
        cases: Vec<String>,
    },
}

impl Baseline {
    /// Reads the baseline at `path`, and checks that each entry matches
    /// at least one of `cases` (every case of the suite, not only the
    /// selected ones, so that a narrower run does not call entries stale).
    ///
    /// # Errors
    ///
    /// [`BaselineError`] for a file that cannot be read or parsed (with
    /// line and column), or entries that match no case.
    pub fn load(path: &Path, cases: &[Case<'_>]) -> Result<Baseline, BaselineError> {
        let file = path.display().to_string();
        let baseline = Baseline::read(path)?;
        let unmatched: Vec<String> = baseline
            .failures
            .iter()
            .filter(|entry| !cases.iter().any(|case| entry.matches(case)))
            .map(|entry| match entry.revision {
                Some(revision) => format!("{}@{revision}", entry.case),
                None => entry.case.clone(),
            })
            .collect();
        if unmatched.is_empty() {
            Ok(baseline)
        } else {
            Err(BaselineError::Unmatched {
                file,
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
        let bytes = std::fs::read(path).map_err(|error| BaselineError::Unreadable {
            file: file.clone(),
            error: error.to_string(),
        })?;
        mcpdesc_source::parse_yaml(&file, &bytes).map_err(BaselineError::Malformed)
    }

    /// The first entry that matches `case`.
    pub fn entry(&self, case: &Case<'_>) -> Option<&Entry> {
        self.failures.iter().find(|entry| entry.matches(case))
    }

    /// What the baseline says about `case`, which ended as `outcome`,
    /// judged at `level`: known when it fails, stale when it passes,
    /// nothing when it is not listed or neither passes nor fails.
    pub fn mark(&self, case: &Case<'_>, outcome: &Outcome, level: Level) -> Option<Mark> {
        let entry = self.entry(case)?;
        match outcome.passes(level)? {
            false => Some(Mark::Known {
                reason: entry.reason.clone(),
                link: entry.link.clone(),
            }),
            true => Some(Mark::Stale {
                reason: entry.reason.clone(),
            }),
        }
    }

    /// The baseline of a run: the entries of `self` that still hold (each
    /// matches a failing case of `cases` at `level`, and no passing one) are
    /// kept as they
    /// are, patterns and reasons included; every other failing case gets an
    /// entry of its own, by case ID, with the reason and link of the entry
    /// of `self` that listed it, if one did (a fresh entry's reason says it
    /// still needs one).
    pub fn of_run(&self, cases: &[Case<'_>], results: &[CaseResult], level: Level) -> Baseline {
        let fails = |result: &CaseResult| result.outcome.passes(level) == Some(false);
        // An entry holds when it matches a failing case and no passing one
        // (skipped and unclaimed cases neither pass nor fail).
        let holds = |entry: &Entry| {
            let matched = || {
                cases
                    .iter()
                    .zip(results)
                    .filter(|(case, _)| entry.matches(case))
                    .map(|(_, result)| result.outcome.passes(level))
            };
            matched().any(|passes| passes == Some(false))
                && matched().all(|passes| passes != Some(true))
        };
        let mut failures: Vec<Entry> = self
            .failures
            .iter()
            .filter(|entry| holds(entry))
            .cloned()
            .collect();
        let kept = failures.len();
        for (case, _) in cases
            .iter()
            .zip(results)
            .filter(|(_, result)| fails(result))
        {
            if failures[..kept].iter().any(|entry| entry.matches(case)) {
                continue;
            }
            let earlier = self.entry(case);
            failures.push(Entry {
                case: case.id(),
                revision: None,
                reason: earlier.map_or_else(
                    || format!("fails at the {level} level (no reason given yet)"),
                    |entry| entry.reason.clone(),
                ),
                link: earlier.and_then(|entry| entry.link.clone()),
            });
        }
        Baseline { failures }
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
    /// that it reads back as written.
    pub fn render(&self) -> String {
        let quote = |text: &str| serde_json::Value::String(text.to_owned()).to_string();
        let mut text = String::from(
            "# Known failures, as `mcpdesc-conformance baseline` writes them; reasons and\n\
             # links are kept when it writes the file again.\n",
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
            let _ = writeln!(text, "    reason: {}", quote(&entry.reason));
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
}
