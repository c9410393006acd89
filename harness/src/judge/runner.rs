//! Running cases against a validator and comparing each reply.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpdesc_protocol::{
    Implementation, Reply, Revision, SPECIFICATION_VERSION, SourceFormat, ValidateRequest,
    Validator,
};
use mcpdesc_source::LoadError;
use serde_json::Value;

use crate::outcome::comparison::Comparison;
use crate::outcome::failure::{Crash, Failure, FailureKind};
use crate::outcome::{CaseResult, Outcome, Skip, Unclaimed, Unjudgeable};
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;
use crate::suite::expectation::Finding;
use crate::suite::fixture::Fixture;

/// The request that asks about `fixture` under `revision`: the one way
/// every caller builds one. A serialization case ([`Fixture::source`])
/// carries the fixture's text and a `null` document; any other case carries
/// the loaded document. Either is shared, not copied: every case of a
/// fixture sends the same value.
///
/// # Errors
///
/// The load error of a fixture that is not a serialization case and does
/// not load: there is nothing to send.
pub(crate) fn request(
    fixture: &Fixture,
    revision: Revision,
) -> Result<ValidateRequest, &LoadError> {
    let (document, source) = match (&fixture.source, &fixture.document) {
        (Some(source), _) => (Arc::new(Value::Null), Some(source.clone())),
        (None, Ok(document)) => (Arc::clone(&document.value), None),
        (None, Err(error)) => return Err(error),
    };
    Ok(ValidateRequest {
        case: fixture.id(),
        specification: SPECIFICATION_VERSION.to_owned(),
        revision,
        document,
        source,
    })
}

/// The format of `fixture`'s text when `implementation` is not to be sent
/// its cases: a serialization case written in a format whose source text
/// it does not announce that it reads (see
/// [`SourceTextSupport::reads`](mcpdesc_protocol::SourceTextSupport::reads):
/// another version of the extension is no support either). `None` when
/// its cases may be sent.
pub(crate) fn unread_source(
    fixture: &Fixture,
    implementation: &Implementation,
) -> Option<SourceFormat> {
    let format = fixture.source.as_ref()?.format;
    let reads = implementation
        .source_text
        .as_ref()
        .is_some_and(|support| support.reads(format));
    (!reads).then_some(format)
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
/// revisions `implementation` announces, and for a serialization case the
/// formats of source text it announces) get their outcome without a call.
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
/// The case's result when it needs no call (a suite error, a revision the
/// validator does not announce, or a serialization case in a format whose
/// source text it does not announce that it reads).
pub(crate) fn prepare(
    case: &Case<'_>,
    implementation: &Implementation,
) -> Result<ValidateRequest, Box<CaseResult>> {
    inputs(case)?;
    let skipped = |skip| Err(Box::new(CaseResult::unasked(case, Outcome::Skipped(skip))));
    if !implementation
        .revisions
        .iter()
        .any(|revision| revision == case.revision.as_str())
    {
        return skipped(Skip::Unannounced);
    }
    let fixture = &case.entry.fixture;
    if let Some(format) = unread_source(fixture, implementation) {
        return skipped(Skip::SourceTextUnannounced { format });
    }
    request(fixture, case.revision).map_err(|error| {
        // `inputs` has refused a fixture that does not load.
        Box::new(CaseResult::unasked(
            case,
            Outcome::SuiteError(Unjudgeable::Broken(error.clone().into())),
        ))
    })
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
                document,
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

/// The document of `case` that reported pointers must name values in,
/// and its expected findings; or its suite error (boxed: it is rare, and
/// large). A serialization case whose text does not load has no document:
/// its pointers are not checked against one.
fn inputs<'c>(case: &'c Case<'_>) -> Result<(Option<&'c Value>, &'c [Finding]), Box<CaseResult>> {
    let unjudgeable = |why| {
        Err(Box::new(CaseResult::unasked(
            case,
            Outcome::SuiteError(why),
        )))
    };
    let fixture = &case.entry.fixture;
    if let Some(error) = fixture.load_problem() {
        return unjudgeable(Unjudgeable::Broken(error.clone().into()));
    }
    let document = fixture
        .document
        .as_ref()
        .ok()
        .map(|document| &*document.value);
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use mcpdesc_protocol::{Diagnostic, Severity, SourceTextSupport};

    use super::*;
    use crate::backend::schedule::run_in_process;
    use crate::suite::case::Selection;
    use crate::suite::testing::{DUPLICATE, source_suite};

    /// A validator that announces `support` and records every request: it
    /// reports the duplicate key where the suite expects it.
    struct Reading {
        support: Option<SourceTextSupport>,
        asked: Mutex<Vec<ValidateRequest>>,
    }

    impl Validator for Reading {
        fn implementation(&self) -> Implementation {
            Implementation {
                name: "reading".into(),
                version: "1".into(),
                revisions: crate::suite::builtin_revisions()
                    .iter()
                    .map(|revision| revision.as_str().to_owned())
                    .collect(),
                source_text: self.support.clone(),
                ..Implementation::default()
            }
        }

        fn validate(&self, request: &ValidateRequest) -> Reply {
            self.asked.lock().unwrap().push(request.clone());
            let duplicate = request
                .source
                .as_ref()
                .is_some_and(|source| source.text.contains("info: {name: y"));
            Reply::Diagnostics(if duplicate {
                vec![Diagnostic::new(
                    "mcpdesc.serialization.duplicate-key",
                    "/info",
                    Severity::Error,
                )]
            } else {
                Vec::new()
            })
        }
    }

    fn run(support: Option<SourceTextSupport>) -> (Vec<(String, Outcome)>, Vec<ValidateRequest>) {
        let set = source_suite();
        assert_eq!(set.problems, [], "the source suite does not load");
        let cases = Selection::default().cases(&set);
        let validator = Reading {
            support,
            asked: Mutex::new(Vec::new()),
        };
        let results = run_in_process(&cases, &set.rules, &validator);
        let outcomes = cases
            .iter()
            .zip(results)
            .map(|(case, result)| (case.id(), result.outcome))
            .collect();
        let mut asked = validator.asked.into_inner().unwrap();
        asked.sort_by_key(|request| (request.case.clone(), request.revision));
        (outcomes, asked)
    }

    /// In process, a validator that announces it reads YAML gets each
    /// YAML serialization case as its text with a `null` document, the
    /// text shared by the fixture's revisions, and is judged on its
    /// findings though the harness cannot load the text; the JSON case,
    /// whose format it does not announce, is skipped unasked.
    #[test]
    fn a_validator_that_reads_yaml_gets_the_yaml_text_and_no_document() {
        let (outcomes, asked) = run(Some(SourceTextSupport::of(&[SourceFormat::Yaml])));
        assert_eq!(outcomes.len(), 6, "{outcomes:?}");
        for (id, outcome) in &outcomes {
            if id.contains("duplicate-key.yaml@") {
                assert_eq!(
                    outcome.passes(crate::outcome::Level::Exact),
                    Some(true),
                    "{id}: {outcome:?}"
                );
            } else {
                assert_eq!(
                    *outcome,
                    Outcome::Skipped(Skip::SourceTextUnannounced {
                        format: SourceFormat::Json
                    }),
                    "{id}"
                );
            }
        }
        assert_eq!(asked.len(), 5, "{asked:?}");
        for request in &asked {
            assert_eq!(
                request.case,
                "serialization/expected-invalid/duplicate-key.yaml"
            );
            assert_eq!(*request.document, Value::Null);
            let source = request.source.as_ref().unwrap();
            assert_eq!(source.format, SourceFormat::Yaml);
            assert_eq!(&*source.text, DUPLICATE);
            assert!(
                Arc::ptr_eq(&source.text, &asked[0].source.as_ref().unwrap().text),
                "each revision's request copies the text"
            );
        }
    }

    /// A validator that announces nothing, or another version of the
    /// extension, is asked nothing about a serialization case: each is
    /// skipped, saying which format.
    #[test]
    fn without_support_of_this_version_every_source_case_is_skipped() {
        let later = SourceTextSupport {
            version: 2,
            ..SourceTextSupport::of(&[SourceFormat::Json, SourceFormat::Yaml])
        };
        for support in [None, Some(later), Some(SourceTextSupport::of(&[]))] {
            let (outcomes, asked) = run(support.clone());
            assert_eq!(asked, [], "{support:?}");
            for (id, outcome) in outcomes {
                let format = if id.contains(".yaml@") {
                    SourceFormat::Yaml
                } else {
                    SourceFormat::Json
                };
                assert_eq!(
                    outcome,
                    Outcome::Skipped(Skip::SourceTextUnannounced { format }),
                    "{id} with {support:?}"
                );
            }
        }
    }

    /// A serialization case that loads is judged as any case is: a
    /// reported pointer must name a value of the loaded document.
    #[test]
    fn a_source_case_that_loads_keeps_its_document_for_judging() {
        let set = source_suite();
        let cases = Selection::default().cases(&set);
        let case = cases
            .iter()
            .find(|case| case.entry.fixture.name == "expected-valid/minimal.json")
            .unwrap();
        let fixture = &case.entry.fixture;
        assert!(fixture.document.is_ok() && fixture.source.is_some());
        assert_eq!(fixture.statement(), Some("Written once each."));
        let implementation = Implementation {
            revisions: vec!["2025-06-18".into()],
            source_text: Some(SourceTextSupport::of(&[SourceFormat::Json])),
            ..Implementation::default()
        };
        let nowhere = vec![Diagnostic::new(
            "mcpdesc.serialization.duplicate-key",
            "/nowhere",
            Severity::Error,
        )];
        let result = judge(case, &set.rules, &implementation, |request| {
            assert_eq!(*request.document, Value::Null);
            assert_eq!(
                request.source.as_ref().unwrap().text,
                fixture.source.as_ref().unwrap().text
            );
            Ok(Reply::Diagnostics(nowhere.clone()))
        });
        let Outcome::Compared(comparison) = result.outcome else {
            panic!("{:?}", result.outcome);
        };
        assert_eq!(
            comparison
                .problems
                .iter()
                .map(|problem| problem.kind)
                .collect::<Vec<_>>(),
            [crate::outcome::comparison::ProblemKind::UnresolvedPointer]
        );
    }
}
