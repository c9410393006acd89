//! Outcome: what a case ended as, as data every stage reads. The runner
//! makes [`Outcome`]s and [`CaseResult`]s, the baseline marks them
//! ([`mark::Mark`]), the emitters and the report reader consume them. It
//! sits below the stages, so that imports run one way: suite → outcome →
//! backend → judge → emit.
//!
//! - [`comparison`]: a reply compared with its expectation, per [`Level`];
//! - [`failure`]: how a validator failed in itself (crash, time limit,
//!   broken contract);
//! - [`mark`]: what a baseline says about a finished case;
//! - [`claims`]: which rules a validator claims to check.

pub mod claims;
pub mod comparison;
pub mod failure;
pub mod mark;

use std::collections::BTreeSet;
use std::time::Duration;

use mcpdesc_protocol::{Revision, SourceFormat};

pub use comparison::{Comparison, Level};
use failure::Failure;
use mark::Mark;

use crate::suite::case::Case;
use crate::suite::{EntryIndex, SuiteProblem};

/// What happened to one case. Every case gets exactly one. The variants
/// carry data; the emitters make text of it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The validator replied with diagnostics, compared with the expectation.
    Compared(Box<Comparison>),
    /// The validator replied with diagnostics, but the case involves rules
    /// it does not claim to check (its implementation metadata lists
    /// `rules`): neither passed nor failed, counted apart.
    Unclaimed(Box<Unclaimed>),
    /// Not judged: the validator declined the case, or does not announce its
    /// revision (or, for a serialization case, that it reads its format).
    Skipped(Skip),
    /// The validator replied that it failed on this case.
    ValidatorError {
        /// Its message.
        message: String,
    },
    /// The validator failed in itself: it could not be started, crashed,
    /// timed out, or broke the stdio contract.
    Failed(Failure),
    /// Not run at all.
    NotRun(NotRun),
    /// The suite cannot judge this case: its fixture or expectation is broken.
    SuiteError(Unjudgeable),
    /// Not finished: the run was interrupted by a signal before this case
    /// had its answer. It neither passes nor fails.
    Interrupted,
}

/// Why the suite cannot judge a case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unjudgeable {
    /// The fixture or its expectation file is broken: the problem says
    /// where and how.
    #[error("{0}")]
    Broken(SuiteProblem),
    /// The expectation file lists no findings for the case's revision.
    #[error("the expectation lists no findings for {0}")]
    NoExpectationFor(Revision),
}

/// A case that involves rules the validator does not claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclaimed {
    /// The unclaimed rules among the expected and the reported findings.
    pub rules: BTreeSet<String>,
    /// The comparison all the same, for reports.
    pub comparison: Comparison,
}

/// Why a case was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skip {
    /// The validator does not announce the case's revision; it was not asked.
    Unannounced,
    /// The case is a serialization case written in `format`, and the
    /// validator does not announce that it reads source text of that format
    /// (`sourceText` in its reply to `start`, or `--source-text`); it was
    /// not asked.
    SourceTextUnannounced {
        /// The format of the case's text.
        format: SourceFormat,
    },
    /// The validator answered `skipped`.
    Declined {
        /// Its reason.
        reason: String,
        /// The issue it links to, if any.
        issue: Option<String>,
    },
}

/// Why a case was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotRun {
    /// The validator could not be started at all.
    Unavailable,
    /// The harness gave up on the validator after this many failures in a
    /// row.
    GaveUp {
        /// The cutoff that was reached.
        failures: usize,
    },
    /// The harness lost the case: a bug in the harness.
    Lost,
}

impl Outcome {
    /// Whether the validator failed in itself on this case (a crash, a
    /// timeout, a broken contract), as opposed to answering.
    pub fn is_validator_failure(&self) -> bool {
        matches!(self, Outcome::Failed(_))
    }

    /// Whether the case passes at `level`; `None` for a skipped or
    /// interrupted case, which neither passes nor fails. A crash or error is
    /// never a pass.
    pub fn passes(&self, level: Level) -> Option<bool> {
        match self {
            Outcome::Compared(comparison) => Some(comparison.passes(level)),
            Outcome::Skipped(_) | Outcome::Unclaimed(_) | Outcome::Interrupted => None,
            _ => Some(false),
        }
    }
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResult {
    /// Where the case's fixture sits in the suite set it was run from.
    pub entry: EntryIndex,
    /// The revision the case ran under.
    pub revision: Revision,
    /// What happened.
    pub outcome: Outcome,
    /// How long the validator took.
    pub duration: Duration,
    /// What the run's baseline says about the case, if it lists it.
    pub baseline: Option<Mark>,
}

impl CaseResult {
    /// The result of `case`, which ended as `outcome` without the
    /// validator being asked (a suite error, an unannounced revision, an
    /// interrupted or lost case).
    pub fn unasked(case: &Case<'_>, outcome: Outcome) -> CaseResult {
        CaseResult {
            entry: case.index,
            revision: case.revision,
            outcome,
            duration: Duration::ZERO,
            baseline: None,
        }
    }
}
