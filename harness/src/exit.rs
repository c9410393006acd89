//! The documented exit statuses of `mcpdesc-conformance`.

use std::process::ExitCode;

use crate::backend::interrupt::Interruption;
use crate::judge::summary::Summary;
use crate::outcome::comparison::Level;
use crate::outcome::{CaseResult, Outcome};

/// Why the harness exits. Scripts and CI rely on these numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// 0: every required case passes at the chosen level.
    Success,
    /// 1: at least one case fails at the chosen level.
    Failures,
    /// 2: the command line is wrong, or the suite itself is broken.
    UsageOrSuite,
    /// 3: the validator could not be run at all, or the run gave up on it
    /// after too many failures in a row.
    ValidatorUnavailable,
    /// 128 + the signal's number: the run was interrupted (130 for Ctrl-C).
    Interrupted(Interruption),
}

/// What a run ended with, beyond its results, for [`Status::of_run`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunEnd {
    /// Whether the run gave up on the validator after too many failures in
    /// a row.
    pub gave_up: bool,
    /// The signal that interrupted the run, if one did.
    pub interrupted: Option<Interruption>,
}

impl Status {
    /// The status of a run that gave `results` (summarised in `summary`),
    /// judged at `level`, that ended as `end` says. An interruption wins over
    /// everything, then a case the suite could not judge, then a validator
    /// given up on, then failures that the run's baseline does not list and
    /// stale baseline entries; a run that judged nothing (every case
    /// skipped) is not a pass.
    pub fn of_run(results: &[CaseResult], summary: &Summary, end: RunEnd, level: Level) -> Status {
        let suite_errors = results
            .iter()
            .any(|result| matches!(result.outcome, Outcome::SuiteError(_)));
        if let Some(interruption) = end.interrupted {
            Status::Interrupted(interruption)
        } else if suite_errors {
            Status::UsageOrSuite
        } else if end.gave_up {
            Status::ValidatorUnavailable
        } else if summary.total.failed_at(level) > summary.known_failures
            || summary.stale > 0
            || summary.total.judged() == 0
        {
            Status::Failures
        } else {
            Status::Success
        }
    }

    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Failures => 1,
            Status::UsageOrSuite => 2,
            Status::ValidatorUnavailable => 3,
            Status::Interrupted(interruption) => interruption.exit_code(),
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}
