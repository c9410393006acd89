//! The processes of an external validator: what runs them
//! ([`ExternalValidator`]), the [`Pool`] that serves many callers and is
//! the scheduler's [`Backend`], and [`run`], a whole selection at once.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use mcpdesc_protocol::{Implementation, Reply, Revisions, SourceTextSupport, ValidateRequest};

use super::oneshot::oneshot;
use super::session::{self, Session};
use super::{Mode, Unavailable};
use crate::backend::process::Process;
use crate::backend::schedule::{self, Backend, Schedule};
use crate::backend::wire;
use crate::outcome::failure::{Failure, FailureKind};
use crate::outcome::{CaseResult, NotRun, Outcome};
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;

/// An external validator and the limits it runs under. Needs the
/// `external` feature.
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
    /// Session mode: how many requests each process has in flight at most
    /// (replies matched by `seq`), so that `jobs × pipeline` cases run at
    /// once. 1, the default, gives each process one request at a time and
    /// exact blame whatever the validator does; more hides the round trip
    /// to the process (see `docs/performance.md`). Ignored in one-shot
    /// mode.
    pub pipeline: usize,
    /// After this many validator failures in a row (crash, timeout, protocol
    /// error), the remaining cases are reported as not run.
    pub max_consecutive_failures: usize,
    /// How long, after each session reply, to wait for output nobody asked
    /// for, so that it is blamed on the case that wrote it rather than on
    /// the next one (`smoke` waits; a run does not, since the next request
    /// finds such output anyway).
    pub extra_output_wait: Duration,
    /// The MCP revisions of the suite being run, sent in `start` (and in
    /// `MCPDESC_REVISIONS` in one-shot mode) so that the validator learns
    /// them rather than hard-coding them.
    pub revisions: Revisions,
    /// The source text it is taken to read (`--source-text`), replacing
    /// what it announces in `start`; `None` keeps the announcement. A
    /// one-shot validator announces nothing, so without this it reads no
    /// source text and its serialization cases are skipped.
    pub source_text: Option<SourceTextSupport>,
}

impl ExternalValidator {
    /// A validator run by `argv` in `mode`, with the default limits, for a
    /// suite of `revisions` (`SuiteSet::revisions`): they are what it is
    /// told in `start`, so they must be those of the suite being run.
    pub fn new(argv: Vec<String>, mode: Mode, revisions: Revisions) -> ExternalValidator {
        ExternalValidator {
            argv,
            mode,
            timeout: Duration::from_secs(5),
            start_timeout: Duration::from_secs(10),
            max_line: 16 * 1024 * 1024,
            max_diagnostics: wire::DEFAULT_MAX_DIAGNOSTICS,
            jobs: thread::available_parallelism().map_or(1, usize::from),
            pipeline: 1,
            max_consecutive_failures: 10,
            extra_output_wait: Duration::ZERO,
            revisions,
            source_text: None,
        }
    }
}

impl ExternalValidator {
    /// What a one-shot validator is taken to be, since it says nothing about
    /// itself: named after its command, supporting every revision of the
    /// suite, and reading the source text [`ExternalValidator::source_text`]
    /// says (none unless it is given).
    pub fn oneshot_implementation(&self) -> Implementation {
        Implementation {
            name: self.argv.join(" "),
            revisions: self
                .revisions
                .iter()
                .map(|revision| revision.as_str().to_owned())
                .collect(),
            source_text: self.source_text.clone(),
            ..Implementation::default()
        }
    }
}

impl Failure {
    pub(super) fn of(kind: FailureKind, process: Option<&Process>) -> Failure {
        Failure {
            kind,
            stderr: process.map(Process::stderr_tail).unwrap_or_default(),
        }
    }

    pub(super) fn not_started(argv: &[String], error: &std::io::Error) -> Failure {
        Failure::of(
            FailureKind::NotStarted {
                command: argv.join(" "),
                error: error.to_string(),
            },
            None,
        )
    }
}

/// External validator processes shared by many callers: in session mode up
/// to [`ExternalValidator::jobs`] sessions, each call sent to the least
/// busy one (a new session is started while all have
/// [`ExternalValidator::pipeline`] calls); in one-shot mode every call
/// starts its own process. Needs the `external` feature.
#[derive(Debug)]
pub struct Pool {
    validator: Arc<ExternalValidator>,
    implementation: Implementation,
    sessions: Mutex<Vec<Arc<Session>>>,
}

impl Pool {
    /// Starts the first session (in session mode) to learn what the
    /// validator supports. A one-shot validator says nothing about itself:
    /// it is named after its command and supports every revision. Either
    /// way, [`ExternalValidator::source_text`], when given, replaces the
    /// source text it announces.
    ///
    /// # Errors
    ///
    /// Why the validator could not be started, with its stderr tail.
    pub fn start(validator: ExternalValidator) -> Result<Pool, Unavailable> {
        let validator = Arc::new(validator);
        let mut sessions = Vec::new();
        let implementation = match validator.mode {
            Mode::Session => {
                let session = Session::new(Arc::clone(&validator));
                let mut implementation = session.start().map_err(Unavailable::Failed)?;
                sessions.push(Arc::new(session));
                if let Some(support) = &validator.source_text {
                    implementation.source_text = Some(support.clone());
                }
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
            sessions: Mutex::new(sessions),
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

    /// Stops every session, as dropping the pool does, and returns how each
    /// ended: its exit status when it exited by itself after `stop`, `None`
    /// when it had to be killed. A session whose process a failure ended is
    /// started again first, so that every session's answer to `stop` is
    /// seen (`smoke` checks it); one that cannot be started is left out.
    pub fn stop(self) -> Vec<Option<std::process::ExitStatus>> {
        let mut sessions = self.take_sessions();
        sessions.retain(|session| session.start().is_ok());
        session::stop_all(&sessions)
    }

    fn take_sessions(&self) -> Vec<Arc<Session>> {
        std::mem::take(
            &mut *self
                .sessions
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// The session for `count` more requests, its load counted: the least
    /// busy if they fit within `pipeline` there, else a new one while there
    /// are fewer than `jobs`, else the least busy all the same.
    fn session(&self, count: usize) -> Arc<Session> {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let least = sessions.iter().min_by_key(|session| session.load());
        match least {
            Some(session)
                if session.load() + count <= self.validator.pipeline.max(1)
                    || sessions.len() >= self.validator.jobs.max(1) =>
            {
                session.load.fetch_add(count, Ordering::SeqCst);
                Arc::clone(session)
            }
            _ => {
                let session = Arc::new(Session::new(Arc::clone(&self.validator)));
                session.load.fetch_add(count, Ordering::SeqCst);
                sessions.push(Arc::clone(&session));
                session
            }
        }
    }

    /// Validates one case on a session (see [`Pool`]), or in a fresh
    /// process in one-shot mode.
    ///
    /// # Errors
    ///
    /// The validator's [`Failure`] on this case.
    pub fn call(&self, request: &ValidateRequest) -> Result<Reply, Failure> {
        match self.validator.mode {
            Mode::Oneshot => oneshot(&self.validator, request),
            Mode::Session => {
                let session = self.session(1);
                let reply = session.validate(request);
                session.load.fetch_sub(1, Ordering::SeqCst);
                reply
            }
        }
    }

    /// Validates several cases, in session mode on one session with their
    /// requests in flight together, in one-shot mode one after another.
    /// The results come in the order of `requests`.
    pub fn call_many(&self, requests: &[&ValidateRequest]) -> Vec<Result<Reply, Failure>> {
        match self.validator.mode {
            Mode::Oneshot => requests
                .iter()
                .map(|request| oneshot(&self.validator, request))
                .collect(),
            Mode::Session => {
                let session = self.session(requests.len());
                let replies = session.validate_many(requests);
                session.load.fetch_sub(requests.len(), Ordering::SeqCst);
                replies
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        session::stop_all(&self.take_sessions());
    }
}

/// The outcome of running a selection against an external validator.
/// Needs the `external` feature.
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
/// and tests that want the results only. Needs the `external` feature.
pub fn run(cases: &[Case<'_>], rules: &RuleIndex, validator: &ExternalValidator) -> ExternalRun {
    let pool = match Pool::start(validator.clone()) {
        Ok(pool) => pool,
        Err(unavailable) => {
            let results = cases
                .iter()
                .map(|case| CaseResult::unasked(case, Outcome::NotRun(NotRun::Unavailable)))
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
    /// How cases are scheduled, and when to give up. With one request in
    /// flight per process, one worker per process asks about one case at a
    /// time. With `pipeline` N > 1, two workers per process each ask about
    /// N / 2 cases at once: one judges its replies while the process works
    /// on the other's requests, and a worker wakes once per batch rather
    /// than once per case, which is what makes it fast.
    pub fn schedule(&self) -> Schedule {
        let jobs = self.jobs.max(1);
        match (self.mode, self.pipeline) {
            (Mode::Session, pipeline) if pipeline > 1 => Schedule {
                jobs: jobs.saturating_mul(2),
                batch: pipeline / 2,
                max_consecutive_failures: self.max_consecutive_failures,
            },
            _ => Schedule {
                jobs,
                batch: 1,
                max_consecutive_failures: self.max_consecutive_failures,
            },
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

    fn call_many(&self, requests: &[&ValidateRequest]) -> Vec<Result<Reply, Failure>> {
        Pool::call_many(self, requests)
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
