//! Running cases against a validator and comparing each reply.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use mcpdesc_protocol::{Reply, Revision, SPECIFICATION_VERSION, ValidateRequest, Validator};
use rayon::prelude::*;

use crate::case::Case;
use crate::catalog::RuleIndex;
use crate::compare::{Comparison, Level};

/// What happened to one case. Every case gets exactly one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The validator replied with diagnostics, compared with the expectation.
    Compared(Comparison),
    /// Not run: the validator declined it or does not support its revision.
    Skipped(String),
    /// The validator replied that it failed on this case.
    ValidatorError(String),
    /// The validator crashed (for an in-process one, panicked).
    Crashed(String),
    /// The suite cannot judge this case: its fixture or expectation is broken.
    SuiteError(String),
}

impl Outcome {
    /// Whether the case passes at `level`; `None` for a skipped case, which
    /// neither passes nor fails. A crash or error is never a pass.
    pub fn passes(&self, level: Level) -> Option<bool> {
        match self {
            Outcome::Compared(comparison) => Some(comparison.passes(level)),
            Outcome::Skipped(_) => None,
            Outcome::ValidatorError(_) | Outcome::Crashed(_) | Outcome::SuiteError(_) => {
                Some(false)
            }
        }
    }
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResult {
    /// The fixture's ID (`<suite>/<name>`).
    pub fixture: String,
    /// The revision the case ran under.
    pub revision: Revision,
    /// What happened.
    pub outcome: Outcome,
    /// How long the validator took.
    pub duration: Duration,
}

/// Runs `cases` against an in-process `validator`, in parallel, and returns
/// one result per case in the order of `cases`.
pub fn run_in_process(
    cases: &[Case<'_>],
    rules: &RuleIndex,
    validator: &dyn Validator,
) -> Vec<CaseResult> {
    let supported = validator.implementation().revisions;
    cases
        .par_iter()
        .map(|case| run_case(case, rules, validator, &supported))
        .collect()
}

/// Runs one case against an in-process `validator` that supports the
/// revisions `supported`.
pub fn run_case(
    case: &Case<'_>,
    rules: &RuleIndex,
    validator: &dyn Validator,
    supported: &[String],
) -> CaseResult {
    let fixture = &case.entry.fixture;
    let result = |outcome, duration| CaseResult {
        fixture: fixture.id(),
        revision: case.revision,
        outcome,
        duration,
    };
    let document = match &fixture.document {
        Ok(document) => document,
        Err(error) => {
            return result(
                Outcome::SuiteError(format!("fixture does not load: {error}")),
                Duration::ZERO,
            );
        }
    };
    let expected = match &case.entry.expectation {
        Ok(expectation) => match expectation.findings(case.revision) {
            Some(findings) => findings,
            None => {
                let message = format!("expectation lists no findings for {}", case.revision);
                return result(Outcome::SuiteError(message), Duration::ZERO);
            }
        },
        Err(problem) => return result(Outcome::SuiteError(problem.to_string()), Duration::ZERO),
    };
    if !supported
        .iter()
        .any(|revision| revision == case.revision.as_str())
    {
        let message = format!("the validator does not support revision {}", case.revision);
        return result(Outcome::Skipped(message), Duration::ZERO);
    }
    let request = ValidateRequest {
        case: fixture.id(),
        specification: SPECIFICATION_VERSION.to_owned(),
        revision: case.revision,
        document: document.value.clone(),
    };
    let started = Instant::now();
    let reply = catch_unwind(AssertUnwindSafe(|| validator.validate(&request)));
    let duration = started.elapsed();
    let outcome = match reply {
        Ok(Reply::Diagnostics(diagnostics)) => Outcome::Compared(Comparison::new(
            expected,
            &diagnostics,
            rules,
            &document.value,
            case.revision,
        )),
        Ok(Reply::Skipped(skip)) => Outcome::Skipped(skip.reason),
        Ok(Reply::Error(error)) => Outcome::ValidatorError(error.message),
        Err(panic) => Outcome::Crashed(panic_message(panic.as_ref())),
    };
    result(outcome, duration)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-text panic payload".to_owned());
    format!("the validator panicked: {text}")
}
