//! The documented exit statuses of `mcpdesc-conformance`.

use std::process::ExitCode;

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
