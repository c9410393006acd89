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

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mcpdesc_protocol::{Diagnostic, Implementation, Reply};

use crate::backend::interrupt::Interruption;
use crate::baseline::{Baseline, Entry};
use crate::emit::Emitter;
use crate::event::{Event, RunFinished, RunOptions, RunStarted, SuiteIdentity};
use crate::exit::{RunEnd, Status};
use crate::judge::runner;
use crate::judge::summary::Summary;
use crate::outcome::claims::{self, Claims};
use crate::outcome::comparison::{ProblemKind, has_error};
use crate::outcome::{CaseResult, NotRun, Outcome, Unclaimed};
use crate::reports::{
    CaseRecord, ComparisonRecord, OutcomeRecord, PassesRecord, Report, RunRecord,
};
use crate::run::Finished;
use crate::suite::SuiteSet;
use crate::suite::case::{Case, Partition, Selection, UnknownWord};
use crate::suite::expectation::Findings;

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
        brief(missing),
        brief(given)
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
    /// A report says a run was interrupted by a signal that the harness
    /// does not handle, and so never records.
    #[error(
        "{}: the run is interrupted by signal {signal}, which is not one a run records \
         (SIGHUP, SIGINT or SIGTERM)",
        path.display()
    )]
    Signal {
        /// The report.
        path: PathBuf,
        /// The signal's number.
        signal: i32,
    },
    /// A report is a shard of a split into more shards than the
    /// selection has cases, which `run` cannot make (an empty shard is
    /// refused).
    #[error(
        "{}: it is shard {partition}, but the selection has only {cases} case(s); \
         merge the shards of one `--partition hash:M/N` split",
        path.display()
    )]
    TooManyShards {
        /// The report.
        path: PathBuf,
        /// Its partition.
        partition: String,
        /// How many cases the selection has.
        cases: usize,
    },
    /// A report expects other findings of a case than the suite does.
    #[error(
        "{}: the case {case} expects {found} finding(s) in the report, which are not the \
         {expected} the suite expects; merge with the suite the shards ran",
        path.display()
    )]
    Expected {
        /// The report.
        path: PathBuf,
        /// The case ID.
        case: String,
        /// How many findings the report expects.
        found: usize,
        /// How many the suite expects.
        expected: usize,
    },
    /// A report compares findings of a case that the suite cannot judge.
    #[error(
        "{}: the case {case} is compared in the report, but the suite cannot judge it",
        path.display()
    )]
    Unjudgeable {
        /// The report.
        path: PathBuf,
        /// The case ID.
        case: String,
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

/// How many shard numbers an error lists before it says how many more.
const LISTED_SHARDS: usize = 10;

/// `numbers` for an error: the first [`LISTED_SHARDS`], and how many more.
fn brief(numbers: &[u64]) -> String {
    let listed = numbers
        .iter()
        .take(LISTED_SHARDS)
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match numbers.len().saturating_sub(LISTED_SHARDS) {
        0 => listed,
        more => format!("{listed} and {more} more"),
    }
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
    /// The entries of the baseline given to the merge that the merged
    /// results show to be stale ([`Baseline::stale`]).
    pub stale: Vec<Entry>,
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
/// is named `source_name` in errors), and rebuilds that run, each case
/// judged again (`rejudged`); `baseline`, when given, marks the merged
/// results as `run --baseline` marks a run's (a shard's own marks are not
/// taken: which failures are known is the merge's to say). Each shard is
/// consumed as its cases are rebuilt, so that a report is not kept twice.
///
/// # Errors
///
/// The first reason the reports cannot be merged: another suite, another
/// run, overlapping or missing shards, or a case the suite judges
/// otherwise than the report.
pub fn merge<'s>(
    shards: Vec<Shard>,
    set: &'s SuiteSet,
    source_name: &str,
    baseline: Option<&Baseline>,
) -> Result<Merged<'s>, MergeError> {
    let first = shards.first().ok_or(MergeError::NoReports)?;
    let hash = set.tree.content_hash();
    let mut parsed = Vec::new();
    for shard in &shards {
        let run = &shard.report.run;
        if run.suite.hash != hash {
            return Err(MergeError::Suite {
                path: shard.path.clone(),
                expected: hash,
                found: run.suite.hash.clone(),
                source_name: source_name.to_owned(),
            });
        }
        // Only a signal the harness handles can have interrupted a run; any
        // other number would make an exit status of its own.
        if let Some(record) = shard.report.interrupted
            && !Interruption::handled(record.signal)
        {
            return Err(MergeError::Signal {
                path: shard.path.clone(),
                signal: record.signal,
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
    let whole = Selection {
        partition: None,
        ..selection.clone()
    };
    let cases = whole.cases(set);
    if let Some(partition @ Partition { count, .. }) = selection.partition {
        // `run` refuses an empty shard, so no split of the selection has
        // more shards than cases; checked before the shards are counted,
        // which a made-up count of 2^64 - 1 would make endless.
        if usize::try_from(count).map_or(true, |count| count > cases.len()) {
            return Err(MergeError::TooManyShards {
                path: first.path.clone(),
                partition: partition.to_string(),
                cases: cases.len(),
            });
        }
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
    let run = first.report.run.clone();
    let listed: Option<Vec<String>> = run
        .claims
        .listed
        .as_ref()
        .map(|listed| listed.iter().cloned().collect());
    let order: BTreeMap<String, usize> = cases
        .iter()
        .enumerate()
        .map(|(index, case)| (case.id(), index))
        .collect();
    let end = RunEnd {
        gave_up: shards.iter().any(|shard| shard.report.gave_up),
        interrupted: shards
            .iter()
            .find_map(|shard| shard.report.interrupted)
            .map(|record| record.interruption()),
    };
    // Each case's result, with the shard it came from (for overlaps).
    let mut found: Vec<Option<(usize, CaseResult)>> = vec![None; cases.len()];
    let mut paths = Vec::with_capacity(shards.len());
    for (number, shard) in shards.into_iter().enumerate() {
        let Shard { path, report } = shard;
        for record in report.cases {
            let Some(&index) = order.get(&record.id) else {
                return Err(MergeError::UnknownCase {
                    path,
                    case: record.id,
                });
            };
            if let Some((before, _)) = &found[index] {
                return Err(MergeError::Overlap {
                    case: record.id,
                    first: paths.get(*before).cloned().unwrap_or_else(|| path.clone()),
                    second: path,
                });
            }
            let result = result_of(&cases[index], set, listed.as_deref(), &path, record)?;
            found[index] = Some((number, result));
        }
        paths.push(path);
    }
    let absent: Vec<usize> = (0..cases.len()).filter(|i| found[*i].is_none()).collect();
    if let Some(&first_absent) = absent.first() {
        return Err(MergeError::MissingCases {
            count: absent.len(),
            first: cases[first_absent].id(),
        });
    }
    let mut results: Vec<CaseResult> = found
        .into_iter()
        .flatten()
        .map(|(_, result)| result)
        .collect();
    let level = run.options.level;
    let stale = match baseline {
        Some(baseline) => {
            let marks = baseline.marks(&cases, &results, level);
            for (result, mark) in results.iter_mut().zip(marks) {
                result.baseline = mark;
            }
            baseline
                .stale(&cases, &results, level)
                .into_iter()
                .cloned()
                .collect()
        }
        None => Vec::new(),
    };
    let mode = run.run_mode().ok_or_else(|| MergeError::Selection {
        path: paths[0].clone(),
        word: format!("mode {}", run.mode),
    })?;
    let started = RunStarted {
        harness_version: run.harness.version,
        suite: SuiteIdentity {
            source: run.suite.source,
            hash: run.suite.hash,
            version: run.suite.version,
        },
        mode,
        implementation: run.implementation,
        options: RunOptions {
            level,
            jobs: run.options.jobs,
            timeout: run.options.timeout_ms.map(crate::reports::millis),
            max_diagnostics: run.options.max_diagnostics,
            max_consecutive_failures: run.options.max_consecutive_failures,
            selection: words,
        },
        cases: cases.len(),
        claims: Claims {
            listed: run.claims.listed,
            claimed: run.claims.claimed,
            catalog: run.claims.catalog,
        },
        // The first shard's, until the caller says which command merged them.
        command_line: run.command_line,
    };
    Ok(Merged {
        started,
        cases,
        results,
        end,
        stale,
    })
}

/// The result of `case` that `record` (read from `path`) holds: its
/// findings judged again ([`rejudged`]), or its other outcome as recorded
/// (a crash or a skip is the validator's doing, which nothing here can
/// check); its baseline mark is dropped.
fn result_of(
    case: &Case<'_>,
    set: &SuiteSet,
    listed: Option<&[String]>,
    path: &Path,
    record: CaseRecord,
) -> Result<CaseResult, MergeError> {
    let duration = record.duration();
    let CaseRecord {
        id,
        passes,
        outcome,
        ..
    } = record;
    let outcome = match outcome {
        OutcomeRecord::Compared(comparison) | OutcomeRecord::Unclaimed { comparison, .. } => {
            rejudged(case, set, listed, path, &id, comparison, passes)?
        }
        OutcomeRecord::SuiteError { .. } => {
            suite_error(case, set).ok_or_else(|| MergeError::SuiteErrorMismatch {
                path: path.to_path_buf(),
                case: id.clone(),
            })?
        }
        other => other
            .outcome(passes)
            .ok_or_else(|| MergeError::SuiteErrorMismatch {
                path: path.to_path_buf(),
                case: id.clone(),
            })?,
    };
    Ok(CaseResult {
        entry: case.index,
        revision: case.revision,
        outcome,
        duration,
        baseline: None,
    })
}

/// The outcome of `case` judged again, as `run` judges a reply under the
/// run's claims (`listed`), from the findings `record` says the validator
/// reported: the suite's expected ones it did not miss, and the unexpected
/// ones. A report's `passes` is not taken: it is derived, and a shard that
/// could say it would make a failing run pass.
///
/// A record that kept only some of its unexpected findings (a report keeps
/// [`crate::outcome::comparison::KEPT_DIFFERENCES`]) cannot be judged
/// whole. It fails the exact level (it has unexpected findings); at the
/// verdict and rules levels the kept findings decide when they can (an
/// error reported makes the verdict that of the expectation; a rule not
/// expected, or a rule wrong in itself, fails the rules level), and only
/// otherwise is the report's word taken. Its counts are the report's, when
/// they exceed what is kept.
///
/// # Errors
///
/// The report expects other findings than the suite, or the suite cannot
/// judge the case.
fn rejudged(
    case: &Case<'_>,
    set: &SuiteSet,
    listed: Option<&[String]>,
    path: &Path,
    id: &str,
    record: ComparisonRecord,
    passes: PassesRecord,
) -> Result<Outcome, MergeError> {
    let complete = record.complete();
    let diagnostics: Vec<Diagnostic> = record
        .reported()
        .into_iter()
        .map(|finding| Diagnostic::new(finding.rule, finding.path, finding.severity))
        .collect();
    let implementation = Implementation {
        rules: listed.map(<[String]>::to_vec),
        ..Implementation::default()
    };
    let result = runner::conclude(
        case,
        &set.rules,
        &implementation,
        Ok(Reply::Diagnostics(diagnostics)),
        Duration::ZERO,
    );
    let (mut comparison, unclaimed) = match result.outcome {
        Outcome::Compared(comparison) => (*comparison, false),
        Outcome::Unclaimed(unclaimed) => (unclaimed.comparison, true),
        _ => {
            return Err(MergeError::Unjudgeable {
                path: path.to_path_buf(),
                case: id.to_owned(),
            });
        }
    };
    if comparison.expected != record.expected {
        return Err(MergeError::Expected {
            path: path.to_path_buf(),
            case: id.to_owned(),
            found: record.expected.len(),
            expected: comparison.expected.len(),
        });
    }
    // The rules of reported findings set aside are not in the report; the
    // report names them, and a rule the claims do set aside is taken.
    comparison.set_aside.extend(
        record
            .set_aside
            .into_iter()
            .filter(|rule| !claims::judges(listed, rule, &set.rules, case.revision)),
    );
    if !complete {
        let reported = comparison.reported();
        let rules_of = |findings: &Findings| -> BTreeSet<String> {
            findings
                .iter()
                .map(|finding| finding.rule.clone())
                .collect()
        };
        let [verdict, _, _] = comparison.passes;
        let verdict = if has_error(&reported) {
            verdict
        } else {
            passes.verdict == Some(true)
        };
        let fails_rules = comparison
            .problems
            .iter()
            .any(|problem| problem.kind != ProblemKind::UnresolvedPointer)
            || !rules_of(&reported).is_subset(&rules_of(&comparison.expected));
        let rules = !fails_rules && passes.rules == Some(true);
        comparison.passes = [verdict, rules, false];
        comparison.unexpected_count = comparison.unexpected_count.max(record.unexpected_count);
        comparison.actual_count = comparison.actual_count.max(record.reported_count);
        comparison.problem_count = comparison.problem_count.max(record.problem_count);
    }
    // A case with unexpected findings beyond the kept ones reported
    // something judged: it is compared.
    Ok(if unclaimed && complete {
        Outcome::Unclaimed(Box::new(Unclaimed {
            rules: comparison.set_aside.clone(),
            comparison,
        }))
    } else {
        Outcome::Compared(Box::new(comparison))
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
    pub fn replay(self, emitter: &mut dyn Emitter) -> io::Result<Finished> {
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
            results: self.results,
            summary,
            end: self.end,
            status,
        })
    }
}
