//! The documented exit statuses of `mcpdesc-conformance`.

use std::process::ExitCode;

use crate::compare::Level;
use crate::runner::{CaseResult, Outcome};
use crate::summary::Summary;

/// Why the harness exits. Scripts and CI rely on these numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// 0: every required case passes at the chosen level.
    Success = 0,
    /// 1: at least one case fails at the chosen level.
    Failures = 1,
    /// 2: the command line is wrong, or the suite itself is broken.
    UsageOrSuite = 2,
    /// 3: the validator could not be run at all.
    ValidatorUnavailable = 3,
}

impl Status {
    /// The status of a run that gave `results` (summarised in `summary`) on
    /// a suite with `suite_problems` problems, judged at `level`. A broken
    /// suite wins over failures; a run that judged nothing (every case
    /// skipped) is not a pass.
    pub fn of_run(
        results: &[CaseResult],
        summary: &Summary,
        suite_problems: usize,
        level: Level,
    ) -> Status {
        let suite_errors = results
            .iter()
            .any(|result| matches!(result.outcome, Outcome::SuiteError(_)));
        if suite_errors || suite_problems > 0 {
            Status::UsageOrSuite
        } else if summary.total.failed_at(level) > 0 || summary.total.judged() == 0 {
            Status::Failures
        } else {
            Status::Success
        }
    }

    /// The process exit code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}
