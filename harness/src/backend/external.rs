//! External validators: any program that speaks the stdio contract, in
//! session mode (a pool of long-lived processes) or one-shot mode (one
//! process per case). Every failure of the program becomes the outcome of the
//! one case it happened on; the process group is killed, a fresh process is
//! started, and the run goes on.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use mcpdesc_protocol::{
    Command, HarnessInfo, Implementation, PROTOCOL_VERSION, Reply, Revision, ValidateRequest,
};

use crate::backend::failure::{Awaiting, Crash, Failure, FailureKind, ProtocolProblem};
use crate::backend::interrupt;
use crate::backend::process::{Output, Process};
use crate::backend::schedule::{self, Backend, Schedule};
use crate::backend::wire;
use crate::judge::runner::{CaseResult, NotRun, Outcome};
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;

/// How the harness talks to the validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One long-lived process per worker, one request in flight each.
    Session,
    /// One process per case.
    Oneshot,
}

/// An external validator and the limits it runs under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalValidator {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// Session or one-shot.
    pub mode: Mode,
    /// How long one case may take.
    pub timeout: Duration,
    /// How long a fresh process may take to answer `start`.
    pub start_timeout: Duration,
    /// The longest reply line accepted, in bytes.
    pub max_line: usize,
    /// The most diagnostics one reply may carry.
    pub max_diagnostics: usize,
    /// How many processes run at once.
    pub jobs: usize,
    /// After this many validator failures in a row (crash, timeout, protocol
    /// error), the remaining cases are reported as not run.
    pub max_consecutive_failures: usize,
}

impl ExternalValidator {
    /// A validator run by `argv` in `mode`, with the default limits.
    pub fn new(argv: Vec<String>, mode: Mode) -> ExternalValidator {
        ExternalValidator {
            argv,
            mode,
            timeout: Duration::from_secs(5),
            start_timeout: Duration::from_secs(10),
            max_line: 16 * 1024 * 1024,
            max_diagnostics: wire::DEFAULT_MAX_DIAGNOSTICS,
            jobs: thread::available_parallelism().map_or(1, usize::from),
            max_consecutive_failures: 10,
        }
    }
}

impl ExternalValidator {
    /// What a one-shot validator is taken to be, since it says nothing about
    /// itself: named after its command, supporting every revision.
    pub fn oneshot_implementation(&self) -> Implementation {
        Implementation {
            name: self.argv.join(" "),
            revisions: Revision::ALL
                .iter()
                .map(|revision| revision.as_str().to_owned())
                .collect(),
            ..Implementation::default()
        }
    }
}

impl Failure {
    fn of(kind: FailureKind, process: Option<&Process>) -> Failure {
        Failure {
            kind,
            stderr: process.map(Process::stderr_tail).unwrap_or_default(),
        }
    }

    fn not_started(argv: &[String], error: &std::io::Error) -> Failure {
        Failure::of(
            FailureKind::NotStarted {
                command: argv.join(" "),
                error: error.to_string(),
            },
            None,
        )
    }

    /// The case outcome this failure gives.
    pub fn into_outcome(self) -> Outcome {
        Outcome::Failed(self)
    }
}

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
        };
        process.send(line_of(&start));
        let deadline = Instant::now() + self.validator.start_timeout;
        let line = read_reply(
            &process,
            deadline,
            self.validator.start_timeout,
            Awaiting::Start,
        )?;
        let implementation = wire::decode_start(&line).map_err(|explanation| {
            protocol(
                ProtocolProblem::Reply {
                    awaiting: Awaiting::Start,
                    explanation,
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
        if let Some(Output::Line(line) | Output::Partial(line)) = process.unread_output() {
            return Err(protocol(
                ProtocolProblem::Unrequested {
                    excerpt: wire::excerpt(&line),
                },
                process,
            ));
        }
        self.seq += 1;
        let seq = self.seq;
        process.send(line_of(&Command::Validate {
            seq,
            request: request.clone(),
        }));
        let deadline = Instant::now() + self.validator.timeout;
        let line = read_reply(process, deadline, self.validator.timeout, Awaiting::Reply)?;
        wire::decode_reply_within(&line, Some(seq), self.validator.max_diagnostics).map_err(
            |explanation| {
                protocol(
                    ProtocolProblem::Reply {
                        awaiting: Awaiting::Reply,
                        explanation,
                    },
                    process,
                )
            },
        )
    }

    /// A line the validator wrote that no request asked for, if one waits
    /// (used by `smoke` after a short pause, to catch extra output).
    pub fn unread_line(&self) -> Option<String> {
        match self.process.as_ref()?.unread_output()? {
            Output::Line(line) | Output::Partial(line) => Some(line),
            _ => None,
        }
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
/// [`STOP_GRACE`] however many sessions ignore `stop`.
fn stop_all(sessions: Vec<Session>) {
    let mut processes: Vec<Process> = sessions
        .into_iter()
        .filter_map(|mut session| session.send_stop())
        .map(|mut process| {
            process.close_input();
            process
        })
        .collect();
    let deadline = stop_deadline();
    for process in &mut processes {
        process.finish(deadline);
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
fn read_reply(
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
fn protocol(problem: ProtocolProblem, process: &Process) -> Failure {
    Failure::of(FailureKind::Protocol(problem), Some(process))
}

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

/// External validator processes shared by many callers: idle sessions are
/// kept and reused, one caller per session at a time; in one-shot mode every
/// call starts its own process.
#[derive(Debug)]
pub struct Pool {
    validator: Arc<ExternalValidator>,
    implementation: Implementation,
    idle: Mutex<Vec<Session>>,
}

impl Pool {
    /// Starts the first session (in session mode) to learn what the
    /// validator supports. A one-shot validator says nothing about itself:
    /// it is named after its command and supports every revision.
    ///
    /// # Errors
    ///
    /// Why the validator could not be started, with its stderr tail.
    pub fn start(validator: ExternalValidator) -> Result<Pool, Unavailable> {
        let validator = Arc::new(validator);
        let mut idle = Vec::new();
        let implementation = match validator.mode {
            Mode::Session => {
                let mut session = Session::new(Arc::clone(&validator));
                let implementation = session.start().map_err(Unavailable::Failed)?;
                idle.push(session);
                implementation
            }
            Mode::Oneshot => {
                if let Some(program) = validator.argv.first()
                    && !program_exists(program)
                {
                    return Err(Unavailable::NotFound {
                        program: program.clone(),
                    });
                }
                validator.oneshot_implementation()
            }
        };
        Ok(Pool {
            validator,
            implementation,
            idle: Mutex::new(idle),
        })
    }

    /// What the validator said about itself.
    pub fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    /// The validator's settings.
    pub fn validator(&self) -> &ExternalValidator {
        &self.validator
    }

    /// Validates one case on an idle session (or a new one), or in a fresh
    /// process in one-shot mode.
    ///
    /// # Errors
    ///
    /// The validator's [`Failure`] on this case.
    pub fn call(&self, request: &ValidateRequest) -> Result<Reply, Failure> {
        match self.validator.mode {
            Mode::Oneshot => oneshot(&self.validator, request),
            Mode::Session => {
                let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
                let mut session = idle.unwrap_or_else(|| Session::new(Arc::clone(&self.validator)));
                let reply = session.validate(request);
                if let Ok(mut idle) = self.idle.lock() {
                    idle.push(session);
                }
                reply
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let sessions = std::mem::take(
            &mut *self
                .idle
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        stop_all(sessions);
    }
}

/// The outcome of running a selection against an external validator.
#[derive(Debug, Clone)]
pub struct ExternalRun {
    /// What the validator said about itself.
    pub implementation: Implementation,
    /// One result per case, in case order.
    pub results: Vec<CaseResult>,
    /// Why the validator could not be run at all, when it could not.
    pub unavailable: Option<Unavailable>,
    /// Whether the run gave up on the validator after too many failures in
    /// a row (the remaining cases are not run).
    pub gave_up: bool,
}

/// Starts `validator` and runs `cases` against it with the one scheduler
/// ([`schedule::run`]), `validator.jobs` at a time: a convenience for tools
/// and tests that want the results only.
pub fn run(cases: &[Case<'_>], rules: &RuleIndex, validator: &ExternalValidator) -> ExternalRun {
    let pool = match Pool::start(validator.clone()) {
        Ok(pool) => pool,
        Err(unavailable) => {
            let results = cases
                .iter()
                .map(|case| CaseResult {
                    fixture: case.entry.fixture.id(),
                    revision: case.revision,
                    outcome: Outcome::NotRun(NotRun::Unavailable),
                    duration: Duration::ZERO,
                })
                .collect();
            return ExternalRun {
                implementation: Implementation {
                    name: validator.argv.join(" "),
                    ..Implementation::default()
                },
                results,
                unavailable: Some(unavailable),
                gave_up: false,
            };
        }
    };
    let run = schedule::run(cases, rules, &pool, &validator.schedule(), &|_, _| {});
    ExternalRun {
        implementation: pool.implementation().clone(),
        results: run.results,
        unavailable: None,
        gave_up: run.gave_up,
    }
}

impl ExternalValidator {
    /// How many cases run at once, and when to give up.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            jobs: self.jobs,
            max_consecutive_failures: self.max_consecutive_failures,
        }
    }
}

impl Backend for Pool {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    fn call(&self, request: &ValidateRequest) -> Result<Reply, Failure> {
        Pool::call(self, request)
    }
}

/// Whether `program` names an existing file (when it holds a `/`) or a file
/// in a `PATH` folder, as spawning it would look it up.
fn program_exists(program: &str) -> bool {
    let path = std::path::Path::new(program);
    if program.contains('/') {
        return path.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}
