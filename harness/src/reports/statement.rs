//! A conformance statement: what a run certifies about a validator, in a
//! form a third party can check (`certify --check`) and a README can link
//! to (its Markdown rendering, [`crate::emit::statement`]). Its JSON
//! Schema is `docs/schemas/statement.json`.
//!
//! A statement names the implementation as it announced itself, the
//! harness, the suite (version and content hash), the specification and
//! the MCP revisions judged, the level, the claimed rules, the known
//! failures declared (the baseline, with reasons), the results per
//! revision and per rule, the failing cases, and a [`Profile`].

use std::collections::{BTreeMap, BTreeSet};

use mcpdesc_protocol::{Implementation, SPECIFICATION_VERSION};
use serde::{Deserialize, Serialize};

use crate::baseline::Entry;
use crate::event::{RunFinished, RunStarted};
use crate::judge::summary::{Summary, Tally};
use crate::outcome::comparison::Level;

/// The version of the statement document's layout.
pub const STATEMENT_VERSION: u64 = 1;

/// What a statement certifies, named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Every rule of the suite claimed, the whole suite run at the exact
    /// level, and every judged case passing, none excused by a baseline.
    Full,
    /// Every judged case passes, or is a declared known failure, on the
    /// claimed rules, the level and the selection the statement names.
    Partial,
    /// Some case fails that no known failure declares, or the run did not
    /// finish: the statement certifies nothing beyond its figures.
    Failing,
}

impl Profile {
    /// The profile's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Profile::Full => "full",
            Profile::Partial => "partial",
            Profile::Failing => "failing",
        }
    }
}

/// A conformance statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Statement {
    /// The layout's version ([`STATEMENT_VERSION`]).
    pub statement_version: u64,
    /// What it certifies.
    pub profile: Profile,
    /// The implementation, as it announced itself.
    pub implementation: Implementation,
    /// The harness that judged it.
    pub harness: Harness,
    /// The suite it was judged on.
    pub suite: SuiteStated,
    /// The MCP Description version the suite's cases are of.
    pub specification: String,
    /// The MCP revisions under which some case was judged, oldest first.
    pub revisions: Vec<String>,
    /// The level the results are at.
    pub level: String,
    /// The selection, as `run` takes it (empty: the whole suite).
    pub selection: Vec<String>,
    /// The rules it is judged on.
    pub claims: ClaimsStated,
    /// The known failures it declares (the baseline's entries, with their
    /// reasons).
    pub known_failures: Vec<KnownFailure>,
    /// The results at the level.
    pub results: Results,
    /// The case IDs that fail at the level, known failures included.
    pub failing: Vec<String>,
}

/// The harness that made a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Harness {
    /// `mcpdesc-conformance`.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// The suite a statement is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteStated {
    /// Its semantic version.
    pub version: String,
    /// `sha256:<hex>` over its content.
    pub hash: String,
}

/// The rules a statement is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimsStated {
    /// The rule IDs the validator lists, `null` when it lists none.
    pub listed: Option<BTreeSet<String>>,
    /// Rules judged.
    pub claimed: usize,
    /// Rules in the suite's catalogs.
    pub catalog: usize,
}

/// A known failure a statement declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailure {
    /// A case ID or a pattern, as the baseline gives it.
    pub case: String,
    /// Only under this revision, when given.
    pub revision: Option<String>,
    /// Why it fails, when the baseline says.
    pub reason: Option<String>,
    /// Where to read more.
    pub link: Option<String>,
}

impl KnownFailure {
    /// The known failure a baseline's `entry` declares.
    pub fn of(entry: &Entry) -> KnownFailure {
        KnownFailure {
            case: entry.case.clone(),
            revision: entry.revision.map(|revision| revision.as_str().to_owned()),
            reason: entry.reason.clone(),
            link: entry.link.clone(),
        }
    }

    /// The baseline entry that declares it, or `None` when its revision is
    /// not an MCP revision's date.
    pub fn entry(&self) -> Option<Entry> {
        Some(Entry {
            case: self.case.clone(),
            revision: match &self.revision {
                Some(revision) => Some(revision.parse().ok()?),
                None => None,
            },
            reason: self.reason.clone(),
            link: self.link.clone(),
        })
    }
}

/// Results per revision and per rule, and overall.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Results {
    /// Every case.
    pub total: Counts,
    /// Per MCP revision.
    pub per_revision: BTreeMap<String, Counts>,
    /// Per rule, each judged on its own findings.
    pub per_rule: BTreeMap<String, Counts>,
}

/// The counts of a group of cases at the statement's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Cases run or attempted.
    pub cases: usize,
    /// Cases judged (neither skipped nor unclaimed).
    pub judged: usize,
    /// Judged cases that pass.
    pub passed: usize,
    /// Judged cases that fail.
    pub failed: usize,
    /// Cases skipped.
    pub skipped: usize,
    /// Cases unclaimed.
    pub unclaimed: usize,
}

impl Counts {
    fn of(tally: &Tally, level: Level) -> Counts {
        Counts {
            cases: tally.cases,
            judged: tally.judged(),
            passed: tally.passed_at(level),
            failed: tally.failed_at(level),
            skipped: tally.skipped,
            unclaimed: tally.unclaimed,
        }
    }
}

impl Statement {
    /// The statement of the run that `started` and `finished` describe,
    /// with the known failures of `baseline`.
    pub fn of(started: &RunStarted, finished: &RunFinished<'_>, baseline: &[Entry]) -> Statement {
        let level = started.options.level;
        let summary: &Summary = finished.summary;
        let results = Results {
            total: Counts::of(&summary.total, level),
            per_revision: summary
                .per_revision
                .iter()
                .map(|(revision, tally)| (revision.as_str().to_owned(), Counts::of(tally, level)))
                .collect(),
            per_rule: summary
                .per_rule
                .iter()
                .map(|(rule, tally)| (rule.clone(), Counts::of(tally, level)))
                .collect(),
        };
        let failing: Vec<String> = finished
            .cases
            .iter()
            .zip(finished.results)
            .filter(|(_, result)| result.outcome.passes(level) == Some(false))
            .map(|(case, _)| case.id())
            .collect();
        let finished_whole = finished.end.interrupted.is_none() && !finished.end.gave_up;
        let new_failures = failing.len() - summary.known_failures.min(failing.len());
        let profile = if !finished_whole || new_failures > 0 || summary.stale > 0 {
            Profile::Failing
        } else if started.claims.is_full()
            && level == Level::Exact
            && started.options.selection.is_empty()
            && failing.is_empty()
        {
            Profile::Full
        } else {
            Profile::Partial
        };
        Statement {
            statement_version: STATEMENT_VERSION,
            profile,
            implementation: started.implementation.clone(),
            harness: Harness {
                name: "mcpdesc-conformance".to_owned(),
                version: started.harness_version.clone(),
            },
            suite: SuiteStated {
                version: started.suite.version.clone(),
                hash: started.suite.hash.clone(),
            },
            specification: SPECIFICATION_VERSION.to_owned(),
            revisions: summary
                .per_revision
                .iter()
                .filter(|(_, tally)| tally.judged() > 0)
                .map(|(revision, _)| revision.as_str().to_owned())
                .collect(),
            level: level.as_str().to_owned(),
            selection: started.options.selection.clone(),
            claims: ClaimsStated {
                listed: started.claims.listed.clone(),
                claimed: started.claims.claimed,
                catalog: started.claims.catalog,
            },
            known_failures: baseline.iter().map(KnownFailure::of).collect(),
            results,
            failing,
        }
    }

    /// Where `now` (a statement of a fresh run) differs from this one, in
    /// plain words, one line each; empty when the statement still holds.
    /// The harness's version is not compared: a statement is about the
    /// validator and the suite.
    pub fn differences(&self, now: &Statement) -> Vec<String> {
        let mut differences = Vec::new();
        let mut compare = |what: &str, stated: String, found: String| {
            if stated != found {
                differences.push(format!("{what}: stated {stated}, now {found}"));
            }
        };
        compare(
            "profile",
            self.profile.as_str().into(),
            now.profile.as_str().into(),
        );
        compare(
            "implementation",
            json(&self.implementation),
            json(&now.implementation),
        );
        compare("suite", json(&self.suite), json(&now.suite));
        compare(
            "specification",
            self.specification.clone(),
            now.specification.clone(),
        );
        compare(
            "revisions judged",
            json(&self.revisions),
            json(&now.revisions),
        );
        compare("level", self.level.clone(), now.level.clone());
        compare("selection", json(&self.selection), json(&now.selection));
        compare("claims", json(&self.claims), json(&now.claims));
        compare(
            "known failures",
            json(&self.known_failures),
            json(&now.known_failures),
        );
        compare("total", json(&self.results.total), json(&now.results.total));
        for (name, stated, found) in [
            (
                "revision",
                &self.results.per_revision,
                &now.results.per_revision,
            ),
            ("rule", &self.results.per_rule, &now.results.per_rule),
        ] {
            let keys: BTreeSet<&String> = stated.keys().chain(found.keys()).collect();
            for key in keys {
                let text =
                    |counts: Option<&Counts>| counts.map_or_else(|| "nothing".to_owned(), json);
                compare(
                    &format!("{name} {key}"),
                    text(stated.get(key)),
                    text(found.get(key)),
                );
            }
        }
        let (stated, found): (BTreeSet<&String>, BTreeSet<&String>) =
            (self.failing.iter().collect(), now.failing.iter().collect());
        for case in found.difference(&stated) {
            differences.push(format!(
                "{case} fails now, and the statement says it passes"
            ));
        }
        for case in stated.difference(&found) {
            differences.push(format!(
                "{case} passes now (or is not judged), and the statement says it fails"
            ));
        }
        differences
    }
}

/// Compact JSON of a statement's part, for the differences' text.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// What is wrong with a statement file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StatementError {
    /// It cannot be read: it is not a regular file, too large, not UTF-8,
    /// or unreadable (as for every input, [`crate::input`]).
    #[error(transparent)]
    Unreadable(#[from] crate::input::InputError),
    /// A known failure's revision is not an MCP revision's date.
    #[error(
        "{file}: the known failure `{case}` names the revision `{revision}`, which is not a date"
    )]
    BadRevision {
        /// The file.
        file: String,
        /// The entry's case.
        case: String,
        /// Its revision, as written.
        revision: String,
    },
    /// It is not a statement of this layout.
    #[error("{file}: not a conformance statement of layout {STATEMENT_VERSION}: {error}")]
    Malformed {
        /// The file.
        file: String,
        /// Why, with line and column.
        error: serde_json::Error,
    },
}

/// Reads the statement at `path`.
///
/// # Errors
///
/// A [`StatementError`] for a file that cannot be read or is not a
/// statement.
pub fn read(path: &std::path::Path) -> Result<Statement, StatementError> {
    let file = path.display().to_string();
    let text = crate::input::read_text(path, crate::input::InputKind::Statement)?;
    let statement: Statement =
        serde_json::from_str(&text).map_err(|error| StatementError::Malformed {
            file: file.clone(),
            error,
        })?;
    // Every declared failure must read as a baseline entry, since a check
    // runs with them.
    if let Some(bad) = statement
        .known_failures
        .iter()
        .find(|failure| failure.entry().is_none())
    {
        return Err(StatementError::BadRevision {
            file,
            case: bad.case.clone(),
            revision: bad.revision.clone().unwrap_or_default(),
        });
    }
    Ok(statement)
}

impl Statement {
    /// The baseline entries of the known failures it declares (each reads:
    /// [`read`] checks it).
    pub fn baseline_entries(&self) -> Vec<Entry> {
        self.known_failures
            .iter()
            .filter_map(KnownFailure::entry)
            .collect()
    }
}
