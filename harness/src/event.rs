//! The events of a run, in the order they happen: the run starts, each case
//! finishes (in the order cases finish, which with several jobs is not the
//! case order), the run finishes. Every output is made from these by an
//! [`crate::emit::Emitter`]; the runner never formats text.

use std::time::Duration;

use mcpdesc_protocol::Implementation;

use crate::backend::external::Mode;
use crate::exit::{RunEnd, Status};
use crate::judge::summary::Summary;
use crate::outcome::CaseResult;
use crate::outcome::claims::Claims;
use crate::outcome::comparison::Level;
use crate::suite::case::Case;

/// What a run is, told before any case finishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunStarted {
    /// The harness's version.
    pub harness_version: String,
    /// Which suite runs.
    pub suite: SuiteIdentity,
    /// What the validator says about itself.
    pub implementation: Implementation,
    /// How the validator is reached.
    pub mode: RunMode,
    /// The options that shape the verdicts.
    pub options: RunOptions,
    /// How many cases the run takes.
    pub cases: usize,
    /// How many of the catalogs' rules the validator claims to check.
    pub claims: Claims,
    /// The harness's command line (its arguments, the program first), as
    /// data: how to make the run again.
    pub command_line: Vec<String>,
}

/// Which suite a run is on: where it came from, and a hash of its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteIdentity {
    /// A folder, or `built in`.
    pub source: String,
    /// `sha256:<hex>` over every catalog, fixture and expectation.
    pub hash: String,
    /// The suite's version, the newest in its changelog.
    pub version: String,
}

/// How a run reaches its validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunMode {
    /// A validator in the harness's own process.
    InProcess,
    /// External processes, each answering many cases.
    Session,
    /// One external process per case.
    Oneshot,
}

impl From<Mode> for RunMode {
    fn from(mode: Mode) -> RunMode {
        match mode {
            Mode::Session => RunMode::Session,
            Mode::Oneshot => RunMode::Oneshot,
        }
    }
}

impl RunMode {
    /// The mode's name in reports: `in-process`, `session`, `oneshot`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunMode::InProcess => "in-process",
            RunMode::Session => "session",
            RunMode::Oneshot => "oneshot",
        }
    }
}

/// The options of a run that shape its verdicts and its pace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// The level that decides the exit status.
    pub level: Level,
    /// How many cases run at once.
    pub jobs: usize,
    /// How long one case may take (external validators).
    pub timeout: Option<Duration>,
    /// The most diagnostics one reply may carry (external validators).
    pub max_diagnostics: Option<usize>,
    /// The consecutive-failure cutoff.
    pub max_consecutive_failures: usize,
    /// The selection's filters, suites and revisions, as given.
    pub selection: Vec<String>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy)]
pub struct RunFinished<'a> {
    /// Every case, in case order.
    pub cases: &'a [Case<'a>],
    /// Every result, in case order: `results[i]` is the result of
    /// `cases[i]`.
    pub results: &'a [CaseResult],
    /// Their tallies.
    pub summary: &'a Summary,
    /// Whether the run gave up or was interrupted.
    pub end: RunEnd,
    /// The exit status the run ends with.
    pub status: Status,
}

/// One event of a run.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Event<'a> {
    /// The run starts.
    RunStarted(&'a RunStarted),
    /// A case has its outcome.
    CaseFinished {
        /// The case's index in the run's case order.
        index: usize,
        /// The case.
        case: &'a Case<'a>,
        /// Its result.
        result: &'a CaseResult,
    },
    /// The run has ended.
    RunFinished(RunFinished<'a>),
}
