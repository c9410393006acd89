//! A JSON report read back (`run --report FILE`), for `merge` and
//! `compare`: the reading side of [`crate::emit::json`], typed after
//! `docs/schemas/report.json`.
//!
//! Only what a reader needs is read; what a report derives (the summary,
//! the matrix, each case's `passes` beside its outcome) is computed again
//! from the outcomes, so a reader never trusts two copies of one fact.
//! An outcome reads back into the harness's own [`Outcome`], so that the
//! emitters that wrote a run's outputs write them again from a report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use mcpdesc_protocol::{Implementation, Revision, SourceFormat};
use serde::Deserialize;

use crate::backend::interrupt::Interruption;
use crate::emit::json::REPORT_VERSION;
use crate::event::RunMode;
use crate::outcome::comparison::{Comparison, Level, OutputProblem, ProblemKind};
use crate::outcome::failure::WireError;
use crate::outcome::failure::{Awaiting, Crash, ExtraLine, Failure, FailureKind, ProtocolProblem};
use crate::outcome::mark::Mark;
use crate::outcome::{NotRun, Outcome, Skip, Unclaimed};
use crate::suite::expectation::{Finding, Findings};

pub mod matrix;
pub mod merge;
pub mod regression;
pub mod statement;

/// A report that cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be read: it is not a regular file, too large, not
    /// UTF-8, or unreadable (as for every input, [`crate::input`]).
    #[error(transparent)]
    Unreadable(#[from] crate::input::InputError),
    /// The file is not a report: bad JSON, or JSON of another shape.
    #[error("{}:{line}:{column}: not a report of this harness: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line of the problem, from 1.
        line: usize,
        /// The column of the problem, from 1.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// A report of another layout.
    #[error(
        "{}: reportVersion is {found}, but this harness reads reportVersion {REPORT_VERSION} \
         (merge and compare reports written by a matching harness)",
        path.display()
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it has, as JSON.
        found: String,
    },
}

/// One report, as `run --report` writes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Report {
    /// What the run was.
    pub run: RunRecord,
    /// Every case, in case order.
    pub cases: Vec<CaseRecord>,
    /// The signal that interrupted the run.
    pub interrupted: Option<InterruptionRecord>,
    /// Whether the run gave up on the validator.
    pub gave_up: bool,
}

/// The `run` member: what a run is, told before any case.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RunRecord {
    /// The harness that wrote the report.
    pub harness: HarnessRecord,
    /// The suite it ran.
    pub suite: SuiteRecord,
    /// The validator.
    pub implementation: Implementation,
    /// How the validator was reached, as [`RunMode::as_str`] names it.
    pub mode: String,
    /// The options that shaped the run.
    pub options: OptionsRecord,
    /// How many cases the run took.
    pub cases: usize,
    /// The validator's claims.
    pub claims: ClaimsRecord,
    /// The command line of the harness that wrote the report (empty in a
    /// report from a harness that did not record it).
    #[serde(default)]
    pub command_line: Vec<String>,
}

impl RunRecord {
    /// The run's mode, when it is one this harness knows.
    pub fn run_mode(&self) -> Option<RunMode> {
        [RunMode::InProcess, RunMode::Session, RunMode::Oneshot]
            .into_iter()
            .find(|mode| mode.as_str() == self.mode)
    }
}

/// The harness that wrote a report.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct HarnessRecord {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// The suite a report is of.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct SuiteRecord {
    /// A folder, or `built in`.
    pub source: String,
    /// `sha256:<hex>` over the suite's content.
    pub hash: String,
    /// The suite's version (empty in reports of harnesses before suites
    /// had one).
    #[serde(default)]
    pub version: String,
}

/// A run's options.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OptionsRecord {
    /// The level that decided the exit status.
    #[serde(deserialize_with = "level")]
    pub level: Level,
    /// How many cases ran at once.
    pub jobs: usize,
    /// The time one case could take, in milliseconds.
    pub timeout_ms: Option<f64>,
    /// The most diagnostics one reply could carry.
    pub max_diagnostics: Option<usize>,
    /// The consecutive-failure cutoff.
    pub max_consecutive_failures: usize,
    /// The selection's options, as given (`--suite=…`, `--partition=…`).
    pub selection: Vec<String>,
}

/// A validator's claims.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ClaimsRecord {
    /// The rule IDs it lists, `null` when it lists none (and is judged on
    /// every rule).
    #[serde(default)]
    pub listed: Option<BTreeSet<String>>,
    /// Rules of the catalogs it claims.
    pub claimed: usize,
    /// Rules in the catalogs.
    pub catalog: usize,
}

/// The signal that interrupted a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct InterruptionRecord {
    /// The signal's number.
    pub signal: i32,
}

impl InterruptionRecord {
    /// The interruption it records.
    pub fn interruption(self) -> Interruption {
        Interruption {
            signal: self.signal,
        }
    }
}

/// One case's result.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CaseRecord {
    /// The case ID, `<suite>/<class>/<file>@<revision>`.
    pub id: String,
    /// The revision it ran under.
    pub revision: Revision,
    /// Whether it passes at each level (`null`: neither passes nor fails).
    pub passes: PassesRecord,
    /// How long the validator took, in milliseconds.
    pub duration_ms: f64,
    /// What the run's baseline said about it.
    pub baseline: Option<MarkRecord>,
    /// What happened.
    pub outcome: OutcomeRecord,
}

impl CaseRecord {
    /// How long the validator took.
    pub fn duration(&self) -> Duration {
        millis(self.duration_ms)
    }
}

/// A baseline's mark on a case.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "mark", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum MarkRecord {
    /// A listed failure.
    KnownFailure {
        /// The entry's reason, when it gives one.
        reason: Option<String>,
        /// The entry's link.
        link: Option<String>,
    },
    /// A listed case that passes.
    Stale {
        /// The entry's reason, when it gives one.
        reason: Option<String>,
    },
}

impl From<MarkRecord> for Mark {
    fn from(record: MarkRecord) -> Mark {
        match record {
            MarkRecord::KnownFailure { reason, link } => Mark::Known { reason, link },
            MarkRecord::Stale { reason } => Mark::Stale { reason },
        }
    }
}

/// A case's outcome, by `kind`.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum OutcomeRecord {
    /// Findings compared with the expectation.
    Compared(ComparisonRecord),
    /// Findings of a case that involves rules the validator does not claim.
    #[serde(rename_all = "camelCase")]
    Unclaimed {
        /// The comparison all the same.
        #[serde(flatten)]
        comparison: ComparisonRecord,
        /// The unclaimed rules.
        unclaimed_rules: BTreeSet<String>,
    },
    /// Not judged, and why.
    Skipped(SkipRecord),
    /// The validator replied that it failed.
    ValidatorError {
        /// Its message.
        message: String,
    },
    /// Not run at all.
    #[serde(rename_all = "camelCase")]
    NotRun {
        /// Why.
        reason: NotRunReason,
        /// The cutoff reached, when the harness gave up.
        failures_in_a_row: Option<usize>,
    },
    /// The suite could not judge the case.
    SuiteError {
        /// What was wrong.
        message: String,
    },
    /// The run was interrupted before the case finished.
    Interrupted,
    /// The validator could not be started.
    NotStarted {
        /// The command line.
        command: String,
        /// Why it could not be started.
        error: String,
        /// Its stderr.
        stderr: String,
    },
    /// The validator did not answer in time.
    #[serde(rename_all = "camelCase")]
    TimedOut {
        /// The limit that passed, in milliseconds.
        after_ms: f64,
        /// What the harness was waiting for.
        awaiting: AwaitingRecord,
        /// Its stderr.
        stderr: String,
    },
    /// The validator crashed.
    Crashed {
        /// How.
        #[serde(flatten)]
        cause: CrashRecord,
        /// Its stderr.
        stderr: String,
    },
    /// The validator broke the contract.
    ProtocolError {
        /// How.
        #[serde(flatten)]
        problem: ProtocolRecord,
        /// Its stderr.
        stderr: String,
    },
}

/// Why a case was skipped, by its `reason`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum SkipRecord {
    /// The validator does not announce the revision.
    UnannouncedRevision,
    /// The case is a serialization case, and the validator does not
    /// announce that it reads source text of its format.
    UnannouncedSourceText {
        /// The format of the case's text.
        format: SourceFormat,
    },
    /// The validator declined the case.
    Declined {
        /// The validator's reason.
        #[serde(default)]
        message: Option<String>,
        /// The issue it linked.
        #[serde(default)]
        issue: Option<String>,
    },
}

/// Why a case was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum NotRunReason {
    /// The validator could not be started.
    Unavailable,
    /// The harness gave up on it.
    GaveUp,
    /// The harness lost the case.
    Lost,
}

/// What the harness was waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum AwaitingRecord {
    /// The reply to `start`.
    Start,
    /// The reply to `validate`.
    Reply,
    /// A one-shot reply.
    OneshotReply,
    /// A one-shot process's exit.
    Exit,
}

impl From<AwaitingRecord> for Awaiting {
    fn from(record: AwaitingRecord) -> Awaiting {
        match record {
            AwaitingRecord::Start => Awaiting::Start,
            AwaitingRecord::Reply => Awaiting::Reply,
            AwaitingRecord::OneshotReply => Awaiting::OneshotReply,
            AwaitingRecord::Exit => Awaiting::Exit,
        }
    }
}

/// How a validator crashed, by `cause`.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "cause", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum CrashRecord {
    /// Its output ended before the reply.
    OutputEnded {
        /// What the harness was waiting for.
        awaiting: AwaitingRecord,
        /// An unfinished line.
        partial: Option<String>,
    },
    /// A one-shot process exited abnormally.
    #[serde(rename_all = "camelCase")]
    AbnormalExit {
        /// Its exit code.
        exit_code: Option<i32>,
        /// The signal that killed it.
        signal: Option<i32>,
    },
    /// A one-shot process exited without a reply.
    NoReply,
    /// Reading its output failed.
    ReadFailed {
        /// The operating system's error.
        error: String,
    },
    /// An in-process validator panicked.
    Panicked {
        /// What it panicked with.
        message: String,
    },
}

/// How a validator broke the contract, by `problem`.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ProtocolRecord {
    /// A line that is not a reply.
    BadReply {
        /// What the harness was waiting for.
        awaiting: AwaitingRecord,
        /// What is wrong with the line.
        explanation: String,
    },
    /// A line over the limit.
    #[serde(rename_all = "camelCase")]
    LineTooLong {
        /// What the harness was waiting for.
        awaiting: AwaitingRecord,
        /// The limit, in bytes.
        limit_bytes: usize,
    },
    /// A line no request asked for.
    #[serde(rename_all = "camelCase")]
    UnrequestedLine {
        /// The start of the line.
        excerpt: String,
        /// Whether it came right after a reply.
        after_reply: bool,
    },
    /// A one-shot validator wrote two lines.
    ExtraLine {
        /// Which lines are replies: `first`, `second`, `both`, `neither`.
        reply: ExtraLineRecord,
        /// The first line.
        first: String,
        /// The second line.
        second: String,
    },
}

/// Which of two one-shot lines are replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ExtraLineRecord {
    /// The first.
    First,
    /// The second.
    Second,
    /// Both.
    Both,
    /// Neither.
    Neither,
}

/// A comparison of findings with the expectation.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ComparisonRecord {
    /// What the suite expects.
    pub expected: Findings,
    /// Expected findings not reported.
    pub missing: Findings,
    /// Reported findings not expected (the first ones kept).
    pub unexpected: Findings,
    /// How many unexpected findings, kept or not.
    pub unexpected_count: usize,
    /// How many distinct findings were reported.
    pub reported_count: usize,
    /// Findings wrong in themselves (the first ones kept).
    pub problems: Vec<ProblemRecord>,
    /// How many findings are wrong in themselves.
    pub problem_count: usize,
    /// The rules set aside because the validator does not claim them
    /// (absent from reports of harnesses before claims were judged so).
    #[serde(default)]
    pub set_aside: BTreeSet<String>,
}

impl ComparisonRecord {
    /// The findings the validator reported, as far as the report keeps
    /// them: the expected ones it did not miss, and the unexpected ones.
    pub fn reported(&self) -> Findings {
        crate::outcome::comparison::reported(&self.expected, &self.missing, &self.unexpected)
    }

    /// Whether the report kept every reported finding.
    pub fn complete(&self) -> bool {
        self.unexpected.len() == self.unexpected_count
    }
}

/// Whether a case passes at each level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct PassesRecord {
    /// At the verdict level.
    pub verdict: Option<bool>,
    /// At the rules level.
    pub rules: Option<bool>,
    /// At the exact level.
    pub exact: Option<bool>,
}

impl PassesRecord {
    /// Whether the case passes at `level`.
    pub fn at(&self, level: Level) -> Option<bool> {
        match level {
            Level::Verdict => self.verdict,
            Level::Rules => self.rules,
            Level::Exact => self.exact,
        }
    }
}

/// A finding wrong in itself.
#[derive(Debug, Clone, Deserialize)]
#[non_exhaustive]
pub struct ProblemRecord {
    /// The finding.
    pub finding: Finding,
    /// What is wrong with it.
    pub problem: ProblemKindRecord,
}

/// What is wrong with a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ProblemKindRecord {
    /// No catalog defines the rule.
    UnknownRule,
    /// The rule does not apply under the revision.
    NotApplicable,
    /// The pointer resolves to nothing.
    UnresolvedPointer,
}

impl ComparisonRecord {
    /// The comparison it records, which passes at each level as `passes`
    /// says (what decides it is not all in the report: the findings wrong
    /// in themselves are kept only in part).
    pub fn comparison(self, passes: PassesRecord) -> Comparison {
        let problems = self
            .problems
            .into_iter()
            .map(|problem| OutputProblem {
                finding: problem.finding,
                kind: match problem.problem {
                    ProblemKindRecord::UnknownRule => ProblemKind::UnknownRule,
                    ProblemKindRecord::NotApplicable => ProblemKind::NotApplicable,
                    ProblemKindRecord::UnresolvedPointer => ProblemKind::UnresolvedPointer,
                },
            })
            .collect();
        Comparison {
            expected: self.expected,
            missing: self.missing,
            unexpected: self.unexpected,
            unexpected_count: self.unexpected_count,
            actual_count: self.reported_count,
            problems,
            problem_count: self.problem_count,
            set_aside: self.set_aside,
            passes: Level::ALL.map(|level| passes.at(level) == Some(true)),
        }
    }
}

impl OutcomeRecord {
    /// The outcome it records, for a case that passes at each level as
    /// `passes` says; `None` for a suite error, whose outcome depends on
    /// the suite alone (the reader judges it again from the suite).
    pub fn outcome(self, passes: PassesRecord) -> Option<Outcome> {
        let failed = |kind, stderr| Outcome::Failed(Failure { kind, stderr });
        Some(match self {
            OutcomeRecord::Compared(comparison) => {
                Outcome::Compared(Box::new(comparison.comparison(passes)))
            }
            OutcomeRecord::Unclaimed {
                comparison,
                unclaimed_rules,
            } => Outcome::Unclaimed(Box::new(Unclaimed {
                rules: unclaimed_rules,
                comparison: comparison.comparison(passes),
            })),
            OutcomeRecord::Skipped(skip) => Outcome::Skipped(match skip {
                SkipRecord::UnannouncedRevision => Skip::Unannounced,
                SkipRecord::UnannouncedSourceText { format } => {
                    Skip::SourceTextUnannounced { format }
                }
                SkipRecord::Declined { message, issue } => Skip::Declined {
                    reason: message.unwrap_or_default(),
                    issue,
                },
            }),
            OutcomeRecord::ValidatorError { message } => Outcome::ValidatorError { message },
            OutcomeRecord::NotRun {
                reason,
                failures_in_a_row,
            } => Outcome::NotRun(match reason {
                NotRunReason::Unavailable => NotRun::Unavailable,
                NotRunReason::GaveUp => NotRun::GaveUp {
                    failures: failures_in_a_row.unwrap_or_default(),
                },
                NotRunReason::Lost => NotRun::Lost,
            }),
            OutcomeRecord::SuiteError { .. } => return None,
            OutcomeRecord::Interrupted => Outcome::Interrupted,
            OutcomeRecord::NotStarted {
                command,
                error,
                stderr,
            } => failed(FailureKind::NotStarted { command, error }, stderr),
            OutcomeRecord::TimedOut {
                after_ms,
                awaiting,
                stderr,
            } => failed(
                FailureKind::TimedOut {
                    after: millis(after_ms),
                    awaiting: awaiting.into(),
                },
                stderr,
            ),
            OutcomeRecord::Crashed { cause, stderr } => {
                let crash = match cause {
                    CrashRecord::OutputEnded { awaiting, partial } => Crash::OutputEnded {
                        awaiting: awaiting.into(),
                        partial,
                    },
                    CrashRecord::AbnormalExit { exit_code, signal } => Crash::AbnormalExit {
                        code: exit_code,
                        signal,
                    },
                    CrashRecord::NoReply => Crash::NoReply,
                    CrashRecord::ReadFailed { error } => Crash::ReadFailed { error },
                    CrashRecord::Panicked { message } => Crash::Panicked { message },
                };
                failed(FailureKind::Crashed(crash), stderr)
            }
            OutcomeRecord::ProtocolError { problem, stderr } => {
                let problem = match problem {
                    ProtocolRecord::BadReply {
                        awaiting,
                        explanation,
                    } => ProtocolProblem::Reply {
                        awaiting: awaiting.into(),
                        error: WireError::Recorded { explanation },
                    },
                    ProtocolRecord::LineTooLong {
                        awaiting,
                        limit_bytes,
                    } => ProtocolProblem::TooLong {
                        awaiting: awaiting.into(),
                        limit: limit_bytes,
                    },
                    ProtocolRecord::UnrequestedLine {
                        excerpt,
                        after_reply,
                    } => ProtocolProblem::Unrequested {
                        excerpt,
                        after_reply,
                    },
                    ProtocolRecord::ExtraLine {
                        reply,
                        first,
                        second,
                    } => ProtocolProblem::ExtraLine {
                        replies: match reply {
                            ExtraLineRecord::First => ExtraLine::AfterReply,
                            ExtraLineRecord::Second => ExtraLine::BeforeReply,
                            ExtraLineRecord::Both => ExtraLine::TwoReplies,
                            ExtraLineRecord::Neither => ExtraLine::NoReply,
                        },
                        first,
                        second,
                    },
                };
                failed(FailureKind::Protocol(problem), stderr)
            }
        })
    }

    /// The outcome's `kind`, as the report names it.
    pub fn kind(&self) -> &'static str {
        match self {
            OutcomeRecord::Compared(_) => "compared",
            OutcomeRecord::Unclaimed { .. } => "unclaimed",
            OutcomeRecord::Skipped(_) => "skipped",
            OutcomeRecord::ValidatorError { .. } => "validator-error",
            OutcomeRecord::NotRun { .. } => "not-run",
            OutcomeRecord::SuiteError { .. } => "suite-error",
            OutcomeRecord::Interrupted => "interrupted",
            OutcomeRecord::NotStarted { .. } => "not-started",
            OutcomeRecord::TimedOut { .. } => "timed-out",
            OutcomeRecord::Crashed { .. } => "crashed",
            OutcomeRecord::ProtocolError { .. } => "protocol-error",
        }
    }

    /// The comparison of a compared or unclaimed case.
    pub fn comparison(&self) -> Option<&ComparisonRecord> {
        match self {
            OutcomeRecord::Compared(comparison) | OutcomeRecord::Unclaimed { comparison, .. } => {
                Some(comparison)
            }
            _ => None,
        }
    }
}

/// A report as `compare` is given it: the file it came from, and the label
/// it was given (`--label NAME=FILE`), if any.
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    /// The file it was read from, as given.
    pub path: &'a Path,
    /// The report.
    pub report: &'a Report,
    /// The label it was given.
    pub label: Option<&'a str>,
}

impl<'a> Named<'a> {
    /// The report's cases by ID, to put cases of two reports side by side.
    pub fn by_id(self) -> BTreeMap<&'a str, &'a CaseRecord> {
        self.report
            .cases
            .iter()
            .map(|case| (case.id.as_str(), case))
            .collect()
    }
}

/// The heading each report goes by in a comparison, one per report in
/// order: its label when it has one, else the implementation's name and
/// version; a heading two reports share is told apart by the report's file
/// (then by its position, for a file given twice), so that two runs of one
/// validator are never two columns of the same name.
pub fn headings(reports: &[Named<'_>]) -> Vec<String> {
    let base: Vec<String> = reports
        .iter()
        .map(|named| match named.label {
            Some(label) => label.to_owned(),
            None => {
                let implementation = &named.report.run.implementation;
                format!("{} {}", implementation.name, implementation.version)
            }
        })
        .collect();
    let shared = |headings: &[String], index: usize| {
        headings
            .iter()
            .enumerate()
            .any(|(other, heading)| other != index && *heading == headings[index])
    };
    let with_files: Vec<String> = (0..reports.len())
        .map(|index| {
            if shared(&base, index) {
                format!("{} ({})", base[index], reports[index].path.display())
            } else {
                base[index].clone()
            }
        })
        .collect();
    (0..reports.len())
        .map(|index| {
            if shared(&with_files, index) {
                format!("{} #{}", with_files[index], index + 1)
            } else {
                with_files[index].clone()
            }
        })
        .collect()
}

/// Just the version, read before the rest, so that a report of another
/// layout is refused for its version, not for a field it lacks.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Version {
    report_version: Option<serde_json::Value>,
}

/// Reads the report at `path`.
///
/// # Errors
///
/// The file cannot be read, is not JSON (with the line and column), is a
/// report of another `reportVersion`, or is not shaped as a report.
pub fn read(path: &Path) -> Result<Report, ReadError> {
    let text = crate::input::read_text(path, crate::input::InputKind::Report)?;
    let malformed = |error: serde_json::Error| ReadError::Malformed {
        path: path.to_path_buf(),
        line: error.line(),
        column: error.column(),
        // The position is given apart, as `file:line:column`.
        message: error
            .to_string()
            .trim_end_matches(&format!(
                " at line {} column {}",
                error.line(),
                error.column()
            ))
            .to_owned(),
    };
    let version: Version = serde_json::from_str(&text).map_err(malformed)?;
    match version.report_version {
        Some(serde_json::Value::Number(number)) if number.as_u64() == Some(REPORT_VERSION) => {}
        found => {
            return Err(ReadError::Version {
                path: path.to_path_buf(),
                found: found.map_or_else(|| "missing".to_owned(), |value| value.to_string()),
            });
        }
    }
    serde_json::from_str(&text).map_err(malformed)
}

fn level<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// A duration given in milliseconds, as reports write them.
pub(crate) fn millis(millis: f64) -> Duration {
    Duration::try_from_secs_f64(millis / 1000.0).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every kind of skip, as the JSON report writes it, reads back into
    /// the same outcome: a merged run says why each case was skipped as
    /// the shard did.
    #[test]
    fn every_skip_reads_back_as_written() {
        let passes: PassesRecord =
            serde_json::from_value(json!({"verdict": null, "rules": null, "exact": null})).unwrap();
        for skip in [
            Skip::Unannounced,
            Skip::SourceTextUnannounced {
                format: SourceFormat::Yaml,
            },
            Skip::SourceTextUnannounced {
                format: SourceFormat::Json,
            },
            Skip::Declined {
                reason: "not yet".into(),
                issue: Some("https://example.invalid/1".into()),
            },
        ] {
            let written = crate::emit::json::outcome(&Outcome::Skipped(skip.clone()));
            let record: OutcomeRecord = serde_json::from_value(written.clone())
                .unwrap_or_else(|error| panic!("{written}: {error}"));
            assert_eq!(record.kind(), "skipped");
            assert_eq!(
                record.outcome(passes),
                Some(Outcome::Skipped(skip)),
                "{written}"
            );
        }
        let written =
            json!({"kind": "skipped", "reason": "unannounced-source-text", "format": "yaml"});
        assert_eq!(
            crate::emit::json::outcome(&Outcome::Skipped(Skip::SourceTextUnannounced {
                format: SourceFormat::Yaml
            })),
            written
        );
        // A source-text skip that does not say its format is no record.
        let unnamed = json!({"kind": "skipped", "reason": "unannounced-source-text"});
        assert!(serde_json::from_value::<OutcomeRecord>(unnamed).is_err());
    }
}
