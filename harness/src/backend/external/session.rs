//! Session mode: one long-lived validator process answering one request
//! at a time, restarted after each failure, and stopped with its peers at
//! once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpdesc_protocol::{
    Command, HarnessInfo, Implementation, PROTOCOL_VERSION, Reply, ValidateRequest,
};

use super::ExternalValidator;
use crate::backend::failure::{Awaiting, Crash, Failure, FailureKind, ProtocolProblem};
use crate::backend::interrupt;
use crate::backend::process::{Output, Process};
use crate::backend::wire;

/// One session-mode validator process, restarted after each failure.
#[derive(Debug)]
pub struct Session {
    validator: Arc<ExternalValidator>,
    process: Option<Process>,
    implementation: Option<Implementation>,
    seq: u64,
}

impl Session {
    /// A session that starts its process on first use.
    pub fn new(validator: Arc<ExternalValidator>) -> Session {
        Session {
            validator,
            process: None,
            implementation: None,
            seq: 0,
        }
    }

    /// Starts the process if none runs, and sends `start`: returns what the
    /// validator says about itself.
    ///
    /// # Errors
    ///
    /// A [`Failure`] when the program cannot be started or does not answer
    /// `start` as the contract says; the process is killed.
    pub fn start(&mut self) -> Result<Implementation, Failure> {
        if let (Some(_), Some(implementation)) = (&self.process, &self.implementation) {
            return Ok(implementation.clone());
        }
        let process = Process::spawn(&self.validator.argv, &[], self.validator.max_line)
            .map_err(|error| Failure::not_started(&self.validator.argv, &error))?;
        let start = Command::Start {
            protocol: PROTOCOL_VERSION,
            harness: HarnessInfo {
                name: "mcpdesc-conformance".to_owned(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
            },
            revisions: Some(self.validator.revisions.clone()),
        };
        process.send(line_of(&start));
        let deadline = Instant::now() + self.validator.start_timeout;
        let line = read_reply(
            &process,
            deadline,
            self.validator.start_timeout,
            Awaiting::Start,
        )?;
        let implementation = wire::decode_start(&line).map_err(|error| {
            protocol(
                ProtocolProblem::Reply {
                    awaiting: Awaiting::Start,
                    error,
                },
                &process,
            )
        })?;
        self.process = Some(process);
        self.implementation = Some(implementation.clone());
        Ok(implementation)
    }

    /// Validates one case, starting (or restarting) the process first when
    /// needed.
    ///
    /// # Errors
    ///
    /// A [`Failure`]; the process is then killed, and the next call starts a
    /// fresh one and replays `start`.
    pub fn validate(&mut self, request: &ValidateRequest) -> Result<Reply, Failure> {
        self.start()?;
        let result = self.exchange(request);
        if result.is_err() {
            self.discard();
        }
        result
    }

    fn exchange(&mut self, request: &ValidateRequest) -> Result<Reply, Failure> {
        let Some(process) = &self.process else {
            // `start` succeeded, so there is a process; kept as a failure
            // rather than a panic all the same.
            return Err(Failure::of(
                FailureKind::Crashed(Crash::OutputEnded {
                    awaiting: Awaiting::Start,
                    partial: None,
                }),
                None,
            ));
        };
        // Output between replies would otherwise be read as the next reply
        // and blamed on it with a puzzling `seq` mismatch.
        refuse_unrequested(process, false)?;
        self.seq += 1;
        let seq = self.seq;
        process.send(line_of(&Command::Validate {
            seq,
            request: request.clone(),
        }));
        let deadline = Instant::now() + self.validator.timeout;
        let line = read_reply(process, deadline, self.validator.timeout, Awaiting::Reply)?;
        let reply = wire::decode_reply_within(&line, Some(seq), self.validator.max_diagnostics)
            .map_err(|error| {
                protocol(
                    ProtocolProblem::Reply {
                        awaiting: Awaiting::Reply,
                        error,
                    },
                    process,
                )
            })?;
        if !self.validator.extra_output_wait.is_zero() {
            std::thread::sleep(self.validator.extra_output_wait);
            refuse_unrequested(process, true)?;
        }
        Ok(reply)
    }

    /// Kills the process; the next case starts a fresh one.
    fn discard(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.implementation = None;
    }

    /// Sends `stop` and gives the process [`STOP_GRACE`] to exit; kills its
    /// group either way, so nothing it started is left behind. Returns the
    /// exit status when it exited by itself (`None` also when no process ran).
    pub fn stop(&mut self) -> Option<std::process::ExitStatus> {
        let mut process = self.send_stop()?;
        process.finish(stop_deadline())
    }

    /// Sends `stop` and hands over the process, for the caller to wait for
    /// (so that many sessions can be stopped at once).
    fn send_stop(&mut self) -> Option<Process> {
        let process = self.process.take()?;
        self.implementation = None;
        process.send(line_of(&Command::Stop));
        Some(process)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The exit status of a session dropped without a stop matters to no one.
        let _ = self.stop();
    }
}

/// How long a validator may take to exit after `stop` before its process
/// group is killed.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// When validators sent `stop` now must have exited: after [`STOP_GRACE`],
/// or at once when the run is interrupted (their groups are being killed).
fn stop_deadline() -> Instant {
    if interrupt::received().is_some() {
        Instant::now()
    } else {
        Instant::now() + STOP_GRACE
    }
}

/// Stops `sessions` all at once: `stop` to every one, one shared grace,
/// then every group still alive is killed. So shutting down takes at most
/// [`STOP_GRACE`] however many sessions ignore `stop`. Returns the exit
/// status of each process that exited by itself (`None` for one killed).
pub(super) fn stop_all(sessions: Vec<Session>) -> Vec<Option<std::process::ExitStatus>> {
    let mut processes: Vec<Process> = sessions
        .into_iter()
        .filter_map(|mut session| session.send_stop())
        .map(|mut process| {
            process.close_input();
            process
        })
        .collect();
    let deadline = stop_deadline();
    processes
        .iter_mut()
        .map(|process| process.finish(deadline))
        .collect()
}

/// A protocol failure when `process` has written output that no request
/// asked for (noticed right after a reply, or before the next request).
fn refuse_unrequested(process: &Process, after_reply: bool) -> Result<(), Failure> {
    match process.unread_output() {
        Some(Output::Line(line) | Output::Partial(line)) => Err(protocol(
            ProtocolProblem::Unrequested {
                excerpt: wire::excerpt(&line),
                after_reply,
            },
            process,
        )),
        _ => Ok(()),
    }
}

fn line_of(command: &Command) -> Vec<u8> {
    // Serializing these types cannot fail: every key is a string.
    let mut line = serde_json::to_vec(command).unwrap_or_default();
    line.push(b'\n');
    line
}

/// Waits for the reply line the harness is `awaiting`, turning every other
/// ending into a failure.
pub(super) fn read_reply(
    process: &Process,
    deadline: Instant,
    limit: Duration,
    awaiting: Awaiting,
) -> Result<String, Failure> {
    let fail = |kind| Err(Failure::of(kind, Some(process)));
    match process.next_output(deadline) {
        Some(Output::Line(line)) => Ok(line),
        None => fail(FailureKind::TimedOut {
            after: limit,
            awaiting,
        }),
        Some(Output::TooLong) => fail(FailureKind::Protocol(ProtocolProblem::TooLong {
            awaiting,
            limit: process.max_line(),
        })),
        Some(Output::Partial(text)) => fail(FailureKind::Crashed(Crash::OutputEnded {
            awaiting,
            partial: Some(wire::excerpt(&text)),
        })),
        Some(Output::End) => fail(FailureKind::Crashed(Crash::OutputEnded {
            awaiting,
            partial: None,
        })),
        Some(Output::Failed(error)) => fail(FailureKind::Crashed(Crash::ReadFailed { error })),
    }
}

/// A protocol failure, with the process's stderr.
pub(super) fn protocol(problem: ProtocolProblem, process: &Process) -> Failure {
    Failure::of(FailureKind::Protocol(problem), Some(process))
}
