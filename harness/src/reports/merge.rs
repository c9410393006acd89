//! Merging shard reports (`run --partition hash:M/N --report FILE`, one per
//! CI machine) into the run they are parts of: the cases are rebuilt from
//! the suite the reports name (checked against their content hash), each
//! result is read back into the harness's own [`CaseResult`], and the
//! whole is fed, as a run of its own, to the emitters a `run` uses, so a
//! merged report, JUnit file, Markdown summary and badges are those of the
//! unsharded run.
//!
//! What may differ between shards, and is taken from the first report: the
//! timings, the number of jobs (one CI machine has more cores than
//! another) and the suite's source folder (it is checked by its hash). The
//! partition is dropped from the merged run's selection.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use crate::emit::Emitter;
use crate::event::{Event, RunFinished, RunOptions, RunStarted, SuiteIdentity};
use crate::exit::{RunEnd, Status};
use crate::judge::runner;
use crate::judge::summary::Summary;
use crate::outcome::claims::Claims;
use crate::outcome::mark::Mark;
use crate::outcome::{CaseResult, NotRun, Outcome};
use crate::reports::{CaseRecord, Report, RunRecord};
use crate::run::Finished;
use crate::suite::SuiteSet;
use crate::suite::case::{Case, Partition, Selection, UnknownWord};

/// One report to merge, with the file it was read from.
#[derive(Debug, Clone)]
pub struct Shard {
    /// The file.
    pub path: PathBuf,
    /// Its report.
    pub report: Report,
}

/// Why reports cannot be merged. Each names the file, and what was
/// expected of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// No report was given.
    #[error("no report to merge")]
    NoReports,
    /// A report is of another suite than the one at hand.
    #[error(
        "{}: the report is of the suite {found}, but the suite here ({source_name}) is {expected}; \
         merge with the suite the shards ran (--suite-dir DIR, or the harness built with it)",
        path.display()
    )]
    Suite {
        /// The report.
        path: PathBuf,
        /// The suite's hash here.
        expected: String,
        /// The hash the report has.
        found: String,
        /// Where the suite here comes from.
        source_name: String,
    },
    /// A report of another run than the first: another implementation,
    /// level, mode or option.
    #[error(
        "{}: its {what} is {found}, but {} has {expected}; only shards of one run can be merged",
        path.display(), first.display()
    )]
    Differs {
        /// The report.
        path: PathBuf,
        /// The first report, which it is compared with.
        first: PathBuf,
        /// What differs.
        what: &'static str,
        /// The first report's value.
        expected: String,
        /// This report's value.
        found: String,
    },
    /// A report's selection has a word `run` does not write.
    #[error("{}: the run's selection has `{word}`, which this harness does not know", path.display())]
    Selection {
        /// The report.
        path: PathBuf,
        /// The word.
        word: String,
    },
    /// Some reports say which shard they are and others do not, or they
    /// split the run in different numbers of shards.
    #[error(
        "{}: it is {found}, but {} is {expected}; merge the N shards of one `--partition hash:M/N` \
         split",
        path.display(), first.display()
    )]
    Partition {
        /// The report.
        path: PathBuf,
        /// The first report.
        first: PathBuf,
        /// The first report's partition.
        expected: String,
        /// This report's.
        found: String,
    },
    /// Two reports are the same shard.
    #[error("{} and {} are both shard {shard} of {count}", first.display(), second.display())]
    SameShard {
        /// One report.
        first: PathBuf,
        /// The other.
        second: PathBuf,
        /// The shard.
        shard: u64,
        /// Of how many.
        count: u64,
    },
    /// Shards are missing.
    #[error(
        "shard(s) {} of {count} missing: the reports given are shards {}",
        list(missing),
        list(given)
    )]
    MissingShards {
        /// The missing shards.
        missing: Vec<u64>,
        /// The shards given.
        given: Vec<u64>,
        /// Of how many.
        count: u64,
    },
    /// Two reports have the same case: they overlap.
    #[error("{} and {} both have the case {case}: the reports overlap", first.display(), second.display())]
    Overlap {
        /// The case ID.
        case: String,
        /// One report.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A report has a case the run's selection does not take.
    #[error("{}: the case {case} is not one the run's selection takes from the suite", path.display())]
    UnknownCase {
        /// The report.
        path: PathBuf,
        /// The case ID.
        case: String,
    },
    /// Cases of the run are in no report.
    #[error("{count} case(s) of the run are in no report (the first: {first}); a shard is missing")]
    MissingCases {
        /// How many.
        count: usize,
        /// The first one.
        first: String,
    },
    /// A report says the suite could not judge a case that it judges.
    #[error(
        "{}: the case {case} is a suite error in the report, but the suite judges it",
        path.display()
    )]
    SuiteErrorMismatch {
        /// The report.
        path: PathBuf,
        /// The case ID.
        case: String,
    },
}

fn list(numbers: &[u64]) -> String {
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A run rebuilt from its shards: what it was, its cases, their results,
/// and how it ended.
#[derive(Debug)]
pub struct Merged<'s> {
    /// The run, as its start event tells it.
    pub started: RunStarted,
    /// Its cases, in case order.
    pub cases: Vec<Case<'s>>,
    /// Their results, in case order.
    pub results: Vec<CaseResult>,
    /// How it ended.
    pub end: RunEnd,
}

/// The selection a report's `selection` words stand for, and its words
/// without the partition (the merged run is not a shard).
fn selection(path: &Path, words: &[String]) -> Result<(Selection, Vec<String>), MergeError> {
    let selection =
        Selection::from_words(words).map_err(|UnknownWord(word)| MergeError::Selection {
            path: path.to_path_buf(),
            word,
        })?;
    let kept = Selection {
        partition: None,
        ..selection.clone()
    }
    .words();
    Ok((selection, kept))
}

/// What must be the same in every shard of one run, named for errors.
fn same_run(run: &RunRecord, words: &[String]) -> Vec<(&'static str, String)> {
    let options = &run.options;
    vec![
        ("harness version", run.harness.version.clone()),
        (
            "implementation",
            format!("{} {}", run.implementation.name, run.implementation.version),
        ),
        (
            "implementation metadata",
            serde_json::to_string(&run.implementation).unwrap_or_default(),
        ),
        ("mode", run.mode.clone()),
        ("level", options.level.to_string()),
        ("timeout", format!("{:?} ms", options.timeout_ms)),
        (
            "diagnostics limit",
            format!("{:?}", options.max_diagnostics),
        ),
        (
            "consecutive-failure cutoff",
            options.max_consecutive_failures.to_string(),
        ),
        ("selection", format!("{words:?}")),
        (
            "claims",
            format!("{} of {}", run.claims.claimed, run.claims.catalog),
        ),
    ]
}

/// Checks that `shards` are the shards of one run on `set` (whose source
/// is named `source_name` in errors), and rebuilds that run.
///
/// # Errors
///
/// The first reason the reports cannot be merged: another suite, another
/// run, overlapping or missing shards.
pub fn merge<'s>(
    shards: &[Shard],
    set: &'s SuiteSet,
    source_name: &str,
) -> Result<Merged<'s>, MergeError> {
    let first = shards.first().ok_or(MergeError::NoReports)?;
    let hash = set.tree.content_hash();
    let mut parsed = Vec::new();
    for shard in shards {
        let run = &shard.report.run;
        if run.suite.hash != hash {
            return Err(MergeError::Suite {
                path: shard.path.clone(),
                expected: hash,
                found: run.suite.hash.clone(),
                source_name: source_name.to_owned(),
            });
        }
        parsed.push(selection(&shard.path, &run.options.selection)?);
    }
    let (selection, words) = parsed[0].clone();
    let reference = same_run(&first.report.run, &words);
    for (shard, (other, other_words)) in shards.iter().zip(&parsed).skip(1) {
        let found = same_run(&shard.report.run, other_words);
        for ((what, expected), (_, found)) in reference.iter().zip(found) {
            if *expected != found {
                return Err(MergeError::Differs {
                    path: shard.path.clone(),
                    first: first.path.clone(),
                    what,
                    expected: expected.clone(),
                    found,
                });
            }
        }
        let name = |partition: Option<Partition>| {
            partition.map_or_else(|| "not a shard".to_owned(), |p| format!("shard {p}"))
        };
        let same_split = match (selection.partition, other.partition) {
            (Some(a), Some(b)) => a.count == b.count,
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same_split {
            return Err(MergeError::Partition {
                path: shard.path.clone(),
                first: first.path.clone(),
                expected: name(selection.partition),
                found: name(other.partition),
            });
        }
    }
    if let Some(Partition { count, .. }) = selection.partition {
        let mut given: BTreeMap<u64, &Path> = BTreeMap::new();
        for (shard, (other, _)) in shards.iter().zip(&parsed) {
            let number = other.partition.map_or(0, |p| p.shard);
            if let Some(before) = given.insert(number, &shard.path) {
                return Err(MergeError::SameShard {
                    first: before.to_path_buf(),
                    second: shard.path.clone(),
                    shard: number,
                    count,
                });
            }
        }
        let missing: Vec<u64> = (1..=count).filter(|n| !given.contains_key(n)).collect();
        if !missing.is_empty() {
            return Err(MergeError::MissingShards {
                missing,
                given: given.into_keys().collect(),
                count,
            });
        }
    }
    let whole = Selection {
        partition: None,
        ..selection
    };
    let cases = whole.cases(set);
    let order: BTreeMap<String, usize> = cases
        .iter()
        .enumerate()
        .map(|(index, case)| (case.id(), index))
        .collect();
    let mut found: Vec<Option<(&Path, &CaseRecord)>> = vec![None; cases.len()];
    for shard in shards {
        for record in &shard.report.cases {
            let index = *order
                .get(&record.id)
                .ok_or_else(|| MergeError::UnknownCase {
                    path: shard.path.clone(),
                    case: record.id.clone(),
                })?;
            if let Some((before, _)) = found[index] {
                return Err(MergeError::Overlap {
                    case: record.id.clone(),
                    first: before.to_path_buf(),
                    second: shard.path.clone(),
                });
            }
            found[index] = Some((&shard.path, record));
        }
    }
    let absent: Vec<usize> = (0..cases.len()).filter(|i| found[*i].is_none()).collect();
    if let Some(&first_absent) = absent.first() {
        return Err(MergeError::MissingCases {
            count: absent.len(),
            first: cases[first_absent].id(),
        });
    }
    let mut results = Vec::with_capacity(cases.len());
    for (case, found) in cases.iter().zip(found) {
        let Some((path, record)) = found else {
            continue;
        };
        let outcome = match record.outcome.clone().outcome(record.passes) {
            Some(outcome) => outcome,
            None => suite_error(case, set).ok_or_else(|| MergeError::SuiteErrorMismatch {
                path: path.to_path_buf(),
                case: record.id.clone(),
            })?,
        };
        results.push(CaseResult {
            entry: case.index,
            revision: case.revision,
            outcome,
            duration: record.duration(),
            baseline: record.baseline.clone().map(Mark::from),
        });
    }
    let run = &first.report.run;
    let end = RunEnd {
        gave_up: shards.iter().any(|shard| shard.report.gave_up),
        interrupted: shards
            .iter()
            .find_map(|shard| shard.report.interrupted)
            .map(|record| record.interruption()),
    };
    let started = RunStarted {
        harness_version: run.harness.version.clone(),
        suite: SuiteIdentity {
            source: run.suite.source.clone(),
            hash: run.suite.hash.clone(),
            version: run.suite.version.clone(),
        },
        implementation: run.implementation.clone(),
        mode: run.run_mode().ok_or_else(|| MergeError::Selection {
            path: first.path.clone(),
            word: format!("mode {}", run.mode),
        })?,
        options: RunOptions {
            level: run.options.level,
            jobs: run.options.jobs,
            timeout: run.options.timeout_ms.map(crate::reports::millis),
            max_diagnostics: run.options.max_diagnostics,
            max_consecutive_failures: run.options.max_consecutive_failures,
            selection: words,
        },
        cases: cases.len(),
        claims: Claims {
            listed: run.claims.listed.clone(),
            claimed: run.claims.claimed,
            catalog: run.claims.catalog,
        },
        // The first shard's, until the caller says which command merged them.
        command_line: run.command_line.clone(),
    };
    Ok(Merged {
        started,
        cases,
        results,
        end,
    })
}

/// The suite's own verdict on `case`, when it cannot judge it.
fn suite_error(case: &Case<'_>, set: &SuiteSet) -> Option<Outcome> {
    let implementation = mcpdesc_protocol::Implementation::default();
    let result = runner::judge(case, &set.rules, &implementation, |_| {
        Err(Outcome::NotRun(NotRun::Lost))
    });
    matches!(result.outcome, Outcome::SuiteError(_)).then_some(result.outcome)
}

impl Merged<'_> {
    /// Feeds the merged run to `emitter` as a run's events: it starts,
    /// each case finishes in case order, it ends; the tallies and the exit
    /// status are computed as a run computes them.
    ///
    /// # Errors
    ///
    /// The first error of writing an output.
    pub fn replay(&self, emitter: &mut dyn Emitter) -> io::Result<Finished> {
        emitter.emit(&Event::RunStarted(&self.started))?;
        for (index, (case, result)) in self.cases.iter().zip(&self.results).enumerate() {
            emitter.emit(&Event::CaseFinished {
                index,
                case,
                result,
            })?;
        }
        let summary = Summary::of(&self.results);
        let status = Status::of_run(
            &self.results,
            &summary,
            self.end,
            self.started.options.level,
        );
        emitter.emit(&Event::RunFinished(RunFinished {
            cases: &self.cases,
            results: &self.results,
            summary: &summary,
            end: self.end,
            status,
        }))?;
        Ok(Finished {
            results: self.results.clone(),
            summary,
            end: self.end,
            status,
        })
    }
}
