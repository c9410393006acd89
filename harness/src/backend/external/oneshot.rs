//! One-shot mode: a fresh process per case, the document on stdin, one
//! reply on stdout, judged by its reply and its exit status.

use std::time::Instant;

use mcpdesc_protocol::{Reply, ValidateRequest};

use super::ExternalValidator;
use super::session::protocol;
use crate::backend::failure::{Awaiting, Crash, Failure, FailureKind, ProtocolProblem};
use crate::backend::process::{Output, Process};
use crate::backend::wire;

/// Validates one case in a fresh process (one-shot mode): the document on
/// stdin, the revision and specification in `MCPDESC_REVISION` and
/// `MCPDESC_SPECIFICATION`, one reply on stdout, exit status 0 or 1.
///
/// # Errors
///
/// A [`Failure`] for a program that cannot start, times out, exits with
/// another status or a signal, or replies outside the contract.
pub fn oneshot(validator: &ExternalValidator, request: &ValidateRequest) -> Result<Reply, Failure> {
    let env = [
        ("MCPDESC_REVISION", request.revision.as_str().to_owned()),
        ("MCPDESC_SPECIFICATION", request.specification.clone()),
        ("MCPDESC_CASE", request.case.clone()),
    ];
    let mut process = Process::spawn(&validator.argv, &env, validator.max_line)
        .map_err(|error| Failure::not_started(&validator.argv, &error))?;
    let fail = |kind, process: &Process| Err(Failure::of(kind, Some(process)));
    process.send(serde_json::to_vec(&request.document).unwrap_or_default());
    process.close_input();
    let deadline = Instant::now() + validator.timeout;
    let mut reply: Option<String> = None;
    loop {
        match process.next_output(deadline) {
            Some(Output::Line(line)) | Some(Output::Partial(line)) => {
                if line.trim().is_empty() {
                    continue;
                }
                if let Some(first) = &reply {
                    let explanation = extra_line(first, &line, validator.max_diagnostics);
                    return Err(protocol(
                        ProtocolProblem::ExtraLine { explanation },
                        &process,
                    ));
                }
                reply = Some(line);
            }
            Some(Output::End) => break,
            None => {
                let kind = FailureKind::TimedOut {
                    after: validator.timeout,
                    awaiting: Awaiting::OneshotReply,
                };
                return fail(kind, &process);
            }
            Some(Output::TooLong) => {
                let kind = FailureKind::Protocol(ProtocolProblem::TooLong {
                    awaiting: Awaiting::OneshotReply,
                    limit: validator.max_line,
                });
                return fail(kind, &process);
            }
            Some(Output::Failed(error)) => {
                return fail(FailureKind::Crashed(Crash::ReadFailed { error }), &process);
            }
        }
    }
    let status = process.finish(deadline);
    let Some(status) = status else {
        let kind = FailureKind::TimedOut {
            after: validator.timeout,
            awaiting: Awaiting::Exit,
        };
        return fail(kind, &process);
    };
    if !matches!(status.code(), Some(0 | 1)) {
        let kind = FailureKind::Crashed(Crash::AbnormalExit {
            code: status.code(),
            signal: std::os::unix::process::ExitStatusExt::signal(&status),
        });
        return fail(kind, &process);
    }
    let Some(reply) = reply else {
        return fail(FailureKind::Crashed(Crash::NoReply), &process);
    };
    wire::decode_reply_within(&reply, None, validator.max_diagnostics).map_err(|explanation| {
        protocol(
            ProtocolProblem::Reply {
                awaiting: Awaiting::OneshotReply,
                explanation,
            },
            &process,
        )
    })
}

/// Explains a one-shot validator's second line on stdout, blaming the line
/// that is not a reply (a log line, most often) rather than the reply.
fn extra_line(first: &str, second: &str, max_diagnostics: usize) -> String {
    let is_reply = |line: &str| wire::decode_reply_within(line, None, max_diagnostics).is_ok();
    let rule = "in one-shot mode stdout carries exactly one line, the reply; \
                write logs and anything else on stderr";
    match (is_reply(first), is_reply(second)) {
        (true, false) => format!(
            "after its reply the validator wrote another line on stdout: {}; {rule}",
            wire::excerpt(second)
        ),
        (false, true) => format!(
            "before its reply the validator wrote another line on stdout: {}; {rule}",
            wire::excerpt(first)
        ),
        (true, true) => format!(
            "the validator wrote two replies on stdout, the second: {}; {rule}",
            wire::excerpt(second)
        ),
        (false, false) => format!(
            "the validator wrote two lines on stdout and neither is a reply: {}, then {}; {rule}",
            wire::excerpt(first),
            wire::excerpt(second)
        ),
    }
}
