//! Running cases against a validator and comparing each reply.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use mcpdesc_protocol::{
    Implementation, Reply, Revision, SPECIFICATION_VERSION, ValidateRequest, Validator,
};
use mcpdesc_source::Document;

use crate::outcome::comparison::Comparison;
use crate::outcome::failure::{Crash, Failure, FailureKind};
use crate::outcome::{CaseResult, Outcome, Skip, Unclaimed, Unjudgeable};
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;
use crate::suite::expectation::Finding;
use crate::suite::fixture::Fixture;

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
        source: None,
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
/// revisions `implementation` announces) get their outcome without a call.
/// When the implementation lists the `rules` it claims, only the findings of
/// those rules are judged ([`Comparison::claimed`]); a case left with
/// nothing to judge is [`Outcome::Unclaimed`].
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
        return Err(Box::new(CaseResult::unasked(
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
            let comparison = Comparison::claimed(
                expected.iter().cloned().collect(),
                &diagnostics,
                rules,
                &document.value,
                case.revision,
                implementation.rules.as_deref(),
            );
            // Nothing of the case is judged: the suite expects findings of
            // rules the validator does not claim only, and it reported
            // nothing it is judged on. A case with judged findings on
            // either side, or one that expects nothing, is compared.
            if !expected.is_empty()
                && comparison.expected.is_empty()
                && comparison.actual_count == 0
            {
                Outcome::Unclaimed(Box::new(Unclaimed {
                    rules: comparison.set_aside.clone(),
                    comparison,
                }))
            } else {
                Outcome::Compared(Box::new(comparison))
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
        ..CaseResult::unasked(case, outcome)
    }
}

/// The document of `case` and its expected findings, or its suite error
/// (boxed: it is rare, and large).
fn inputs<'c>(case: &'c Case<'_>) -> Result<(&'c Document, &'c [Finding]), Box<CaseResult>> {
    let unjudgeable = |why| {
        Err(Box::new(CaseResult::unasked(
            case,
            Outcome::SuiteError(why),
        )))
    };
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

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-text panic payload".to_owned())
}
