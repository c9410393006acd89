//! External validators: any program that speaks the stdio contract, in
//! session mode (a pool of long-lived processes) or one-shot mode (one
//! process per case). Every failure of the program becomes the outcome of the
//! one case it happened on; the process group is killed, a fresh process is
//! started, and the run goes on.
//!
//! A private `pool` module holds the [`ExternalValidator`] settings, the
//! [`Pool`] of processes that serves many callers and is the scheduler's
//! [`Backend`], and [`run`]; a private `session` module holds the
//! session-mode process and a private `oneshot` module the one-shot call.
//! They, and [`split_command`], need the `external` feature (on by
//! default). This module holds what the reports and the `libtest` settings
//! say of an external validator, plain data that is there whatever the
//! features: [`Mode`], [`Unavailable`], [`CommandError`].
//!
//! [`Backend`]: crate::backend::schedule::Backend

#[cfg(feature = "external")]
mod oneshot;
#[cfg(feature = "external")]
mod pool;
#[cfg(feature = "external")]
mod session;

use crate::outcome::failure::Failure;

#[cfg(feature = "external")]
pub use crate::backend::process::split_command;
#[cfg(feature = "external")]
pub use pool::{ExternalRun, ExternalValidator, Pool, run};
#[cfg(feature = "external")]
pub use session::STOP_GRACE;

/// How the harness talks to the validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Long-lived processes, [`ExternalValidator::jobs`] of them, each
    /// with up to [`ExternalValidator::pipeline`] requests in flight.
    Session,
    /// One process per case.
    Oneshot,
}

/// Why an external validator could not be run at all.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unavailable {
    /// The first session process could not be started, or did not answer
    /// `start` as the contract says.
    Failed(Failure),
    /// A one-shot program that names no file, or a name on no `PATH` folder.
    NotFound {
        /// The program, as given.
        program: String,
    },
}

/// A validator command line that does not split into words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// It has no words at all.
    #[error("the validator command is empty")]
    Empty,
    /// A quote is not closed, or the line ends in a lone backslash.
    #[error("`{0}` has a quote that is not closed or ends in a lone backslash")]
    Unbalanced(String),
}
