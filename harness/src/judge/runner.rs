//! Running cases against a validator and comparing each reply.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use mcpdesc_protocol::{
    Implementation, Reply, Revision, SPECIFICATION_VERSION, ValidateRequest, Validator,
};
use mcpdesc_source::Document;

use crate::backend::failure::{Crash, Failure, FailureKind};
use crate::baseline::Mark;
use crate::judge::compare::{Comparison, Level};
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;
use crate::suite::expectation::Finding;
use crate::suite::fixture::Fixture;
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
    /// revision.
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

/// The request that asks about `fixture` (whose loaded document is
/// `document`) under `revision`: the one way every caller builds one.
pub(crate) fn request(
    fixture: &Fixture,
    document: &Document,
    revision: Revision,
) -> ValidateRequest {
    ValidateRequest {
        case: fixture.id(),
        specification: SPECIFICATION_VERSION.to_owned(),
        revision,
        // Shared, not copied: every case of a fixture sends the same value.
        document: std::sync::Arc::clone(&document.value),
    }
}

/// Asks an in-process `validator` about one request. A panic is caught, so
/// that it fails the one case instead of the run: the error says what the
/// validator panicked with.
///
/// # Errors
///
/// A [`Crash::Panicked`] failure when it panicked.
pub(crate) fn ask(validator: &dyn Validator, request: &ValidateRequest) -> Result<Reply, Failure> {
    catch_unwind(AssertUnwindSafe(|| validator.validate(request))).map_err(|panic| Failure {
        kind: FailureKind::Crashed(Crash::Panicked {
            message: panic_message(panic.as_ref()),
        }),
        stderr: String::new(),
    })
}

/// Runs one case through `call`, which reaches the validator however it is
/// reached, and compares the reply. Cases that cannot be judged (a broken
/// fixture or expectation) or that the validator does not support (the
/// revisions `implementation` announces) get their outcome without a call;
/// a case that involves a rule the implementation does not claim (when it
/// lists its `rules`) is [`Outcome::Unclaimed`].
pub fn judge(
    case: &Case<'_>,
    rules: &RuleIndex,
    implementation: &Implementation,
    call: impl FnOnce(&ValidateRequest) -> Result<Reply, Outcome>,
) -> CaseResult {
    let request = match prepare(case, implementation) {
        Ok(request) => request,
        Err(result) => return *result,
    };
    let started = Instant::now();
    let reply = call(&request);
    conclude(case, rules, implementation, reply, started.elapsed())
}

/// The first half of [`judge`], for a caller that asks about several cases
/// at once: the request for `case`, or the result it gets without a call.
///
/// # Errors
///
/// The case's result when it needs no call (a suite error, or a revision
/// the validator does not announce).
pub(crate) fn prepare(
    case: &Case<'_>,
    implementation: &Implementation,
) -> Result<ValidateRequest, Box<CaseResult>> {
    let (document, _) = inputs(case)?;
    if !implementation
        .revisions
        .iter()
        .any(|revision| revision == case.revision.as_str())
    {
        return Err(Box::new(without_call(
            case,
            Outcome::Skipped(Skip::Unannounced),
        )));
    }
    Ok(request(&case.entry.fixture, document, case.revision))
}

/// The second half of [`judge`]: compares the `reply` to a case that
/// [`prepare`] made a request for, which took `duration`.
pub(crate) fn conclude(
    case: &Case<'_>,
    rules: &RuleIndex,
    implementation: &Implementation,
    reply: Result<Reply, Outcome>,
    duration: Duration,
) -> CaseResult {
    let (document, expected) = match inputs(case) {
        Ok(inputs) => inputs,
        Err(result) => return *result,
    };
    let outcome = match reply {
        Ok(Reply::Diagnostics(diagnostics)) => {
            let comparison = Comparison::new(
                expected.iter().cloned().collect(),
                &diagnostics,
                rules,
                &document.value,
                case.revision,
            );
            match unclaimed(&comparison, implementation) {
                Some(rules) => Outcome::Unclaimed(Box::new(Unclaimed { rules, comparison })),
                None => Outcome::Compared(Box::new(comparison)),
            }
        }
        Ok(Reply::Skipped(skip)) => Outcome::Skipped(Skip::Declined {
            reason: skip.reason,
            issue: skip.issue,
        }),
        Ok(Reply::Error(error)) => Outcome::ValidatorError {
            message: error.message,
        },
        Err(outcome) => outcome,
    };
    CaseResult {
        duration,
        ..without_call(case, outcome)
    }
}

/// The document of `case` and its expected findings, or its suite error
/// (boxed: it is rare, and large).
fn inputs<'c>(case: &'c Case<'_>) -> Result<(&'c Document, &'c [Finding]), Box<CaseResult>> {
    let unjudgeable = |why| Err(Box::new(without_call(case, Outcome::SuiteError(why))));
    let document = match &case.entry.fixture.document {
        Ok(document) => document,
        Err(error) => return unjudgeable(Unjudgeable::Broken(error.clone().into())),
    };
    match &case.entry.expectation {
        Ok(expectation) => match expectation.revisions.get(&case.revision) {
            Some(findings) => Ok((document, findings)),
            None => unjudgeable(Unjudgeable::NoExpectationFor(case.revision)),
        },
        Err(problem) => unjudgeable(Unjudgeable::Broken(problem.clone())),
    }
}

/// The rules of `comparison` (expected or reported) that `implementation`
/// does not claim, when it lists the rules it claims and there are any.
fn unclaimed(comparison: &Comparison, implementation: &Implementation) -> Option<BTreeSet<String>> {
    let claimed = implementation.rules.as_ref()?;
    let findings = || comparison.expected.iter().chain(&comparison.unexpected);
    // Most cases involve claimed rules only: nothing is built for them.
    if findings().all(|finding| claimed.contains(&finding.rule)) {
        return None;
    }
    Some(
        findings()
            .map(|finding| &finding.rule)
            .filter(|rule| !claimed.contains(rule))
            .cloned()
            .collect(),
    )
}

/// The result of `case` that ended as `outcome` without a call.
pub(crate) fn without_call(case: &Case<'_>, outcome: Outcome) -> CaseResult {
    CaseResult {
        entry: case.index,
        revision: case.revision,
        outcome,
        duration: Duration::ZERO,
        baseline: None,
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-text panic payload".to_owned())
}
