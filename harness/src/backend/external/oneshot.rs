//! One-shot mode: a fresh process per case, the document on stdin, one
//! reply on stdout, judged by its reply and its exit status.

use std::time::Instant;

use mcpdesc_protocol::{Reply, ValidateRequest};

use super::session::protocol;
use super::{ExternalValidator, SOURCE_FORMAT_VARIABLE};
use crate::backend::process::{Output, Process};
use crate::backend::wire;
use crate::outcome::failure::{Awaiting, Crash, ExtraLine, Failure, FailureKind, ProtocolProblem};

/// Validates one case in a fresh process (one-shot mode): the document on
/// stdin, the revision and specification in `MCPDESC_REVISION` and
/// `MCPDESC_SPECIFICATION`, the suite's revisions as JSON in
/// `MCPDESC_REVISIONS`, one reply on stdout, exit status 0 or 1. A
/// serialization case puts the fixture's text on stdin as it is written,
/// and its format in `MCPDESC_SOURCE_FORMAT` ([`SOURCE_FORMAT_VARIABLE`]),
/// which any other case removes from the environment.
///
/// # Errors
///
/// A [`Failure`] for a program that cannot start, times out, exits with
/// another status or a signal, or replies outside the contract.
pub fn oneshot(validator: &ExternalValidator, request: &ValidateRequest) -> Result<Reply, Failure> {
    let env = [
        (
            "MCPDESC_REVISION",
            Some(request.revision.as_str().to_owned()),
        ),
        ("MCPDESC_SPECIFICATION", Some(request.specification.clone())),
        ("MCPDESC_CASE", Some(request.case.clone())),
        (
            "MCPDESC_REVISIONS",
            Some(serde_json::to_string(&validator.revisions).unwrap_or_default()),
        ),
        (
            SOURCE_FORMAT_VARIABLE,
            request
                .source
                .as_ref()
                .map(|source| source.format.as_str().to_owned()),
        ),
    ];
    let process = Process::spawn(&validator.argv, &env, validator.max_line, 1)
        .map_err(|error| Failure::not_started(&validator.argv, &error))?;
    let fail = |kind, process: &Process| Err(Failure::of(kind, Some(process)));
    let input = match &request.source {
        Some(source) => source.text.as_bytes().to_vec(),
        None => serde_json::to_vec(&request.document).unwrap_or_default(),
    };
    process.send(input);
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
                    let problem = extra_line(first, &line, validator.max_diagnostics);
                    return Err(protocol(problem, &process));
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
    wire::decode_reply_within(&reply, None, validator.max_diagnostics).map_err(|error| {
        protocol(
            ProtocolProblem::Reply {
                awaiting: Awaiting::OneshotReply,
                error,
            },
            &process,
        )
    })
}

/// The problem of a one-shot validator's second line on stdout, saying
/// which line is the reply, so that the report blames the other one.
fn extra_line(first: &str, second: &str, max_diagnostics: usize) -> ProtocolProblem {
    let is_reply = |line: &str| wire::decode_reply_within(line, None, max_diagnostics).is_ok();
    let replies = match (is_reply(first), is_reply(second)) {
        (true, false) => ExtraLine::AfterReply,
        (false, true) => ExtraLine::BeforeReply,
        (true, true) => ExtraLine::TwoReplies,
        (false, false) => ExtraLine::NoReply,
    };
    ProtocolProblem::ExtraLine {
        replies,
        first: wire::excerpt(first),
        second: wire::excerpt(second),
    }
}
