//! Session mode: one long-lived validator process shared by several
//! callers, each with one request in flight ([`ExternalValidator::pipeline`]
//! of them at most, as the pool hands them out). Replies are matched to
//! requests by `seq`, in whatever order they come.
//!
//! There is no reading thread of its own: the callers take turns reading
//! (one at a time; a caller whose reply has come hands the turn to another
//! that still waits), and whoever reads a reply hands it to its caller.
//!
//! When the process fails, one request is charged with the failure and
//! every other request in flight is sent again to a fresh process (see
//! [`Session::validate`]), so that no case is lost, counted twice, or
//! failed for another's fault.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mcpdesc_protocol::{
    Command, HarnessInfo, Implementation, PROTOCOL_VERSION, Reply, ValidateRequest,
};

use super::ExternalValidator;
use crate::backend::interrupt;
use crate::backend::lock;
use crate::backend::process::{Output, Process};
use crate::backend::wire::{self, Seq};
use crate::outcome::failure::WireError;
use crate::outcome::failure::{Awaiting, Crash, Failure, FailureKind, ProtocolProblem};

/// One session-mode validator process, restarted after each failure,
/// shared by the callers the pool sends to it.
#[derive(Debug)]
pub struct Session {
    validator: Arc<ExternalValidator>,
    state: Mutex<State>,
    /// Woken when a start ends, for the callers waiting for a process.
    started: Condvar,
    /// How many calls the pool has given the session and not yet seen end:
    /// what it balances (counted by the pool, under its lock, so that two
    /// callers never both take the last free place).
    pub(super) load: AtomicUsize,
}

#[derive(Debug, Default)]
struct State {
    live: Option<Live>,
    /// Whether a caller is starting a process now (without the lock held).
    starting: bool,
    /// The last `seq` sent; counting goes on across restarts, so that a
    /// late line from a killed process can never match a new request.
    seq: u64,
    /// The requests sent to the live process and not yet answered, oldest
    /// (lowest `seq`) first.
    pending: BTreeMap<u64, Pending>,
    /// What became of requests whose callers have not yet collected it.
    resolved: HashMap<u64, Resolution>,
    /// Whether a caller is reading the process's output now.
    reading: bool,
}

#[derive(Debug)]
struct Live {
    process: Arc<Process>,
    implementation: Implementation,
}

#[derive(Debug)]
struct Pending {
    /// When the request times out: its sending plus `--timeout`.
    deadline: Instant,
    /// Wakes its caller.
    wake: Arc<Condvar>,
}

#[derive(Debug)]
enum Resolution {
    /// The reply, or the failure the request is charged with.
    Answered(Result<Reply, Failure>),
    /// The process failed through another request's fault: send it again.
    Resend,
}

/// Which requests in flight a failure of the process is charged to.
#[derive(Debug, Clone, Copy)]
enum Blame {
    /// The oldest: the one a validator that answers in order was working
    /// on when it crashed or wrote something that names no request.
    Oldest,
    /// The request whose `seq` the bad reply carries.
    Request(u64),
    /// The oldest, whose deadline has passed: deadlines follow `seq`, so
    /// it is the first to time out; the others, sent later, get their own
    /// full time again on a fresh process (a validator that answers in
    /// order cannot answer them while it hangs on the oldest).
    Late,
}

impl Session {
    /// A session that starts its process on first use.
    pub fn new(validator: Arc<ExternalValidator>) -> Session {
        Session {
            validator,
            state: Mutex::new(State::default()),
            started: Condvar::new(),
            load: AtomicUsize::new(0),
        }
    }

    /// How many callers are using the session now.
    pub fn load(&self) -> usize {
        self.load.load(Ordering::SeqCst)
    }

    /// Starts the process if none runs, and sends `start`: returns what the
    /// validator says about itself.
    ///
    /// # Errors
    ///
    /// A [`Failure`] when the program cannot be started or does not answer
    /// `start` as the contract says; the process is killed.
    pub fn start(&self) -> Result<Implementation, Failure> {
        let (state, live) = self.ensure_started(lock(&self.state));
        live?;
        Ok(state
            .live
            .as_ref()
            .map(|live| live.implementation.clone())
            .unwrap_or_default())
    }

    /// Validates one case, starting (or restarting) the process first when
    /// needed; other callers may have their requests in flight on the same
    /// process meanwhile.
    ///
    /// When the process fails (a crash, a timeout, a broken contract), the
    /// failure is charged to one request: for a malformed reply that
    /// carries the `seq` of a request in flight, that request; for anything
    /// else (a timeout, a crash, a line too long, a line that names no
    /// request), the oldest request in flight: the one a validator that
    /// answers in order was working on, and the first whose time (measured
    /// from its sending) runs out. The process group is killed, and
    /// every other request in flight is sent again to a fresh process, as
    /// often as that happens (each failure charges one case, so this ends).
    /// After an interruption nothing is sent again: every request in
    /// flight gets the failure.
    ///
    /// # Errors
    ///
    /// The [`Failure`] charged to this request.
    pub fn validate(&self, request: &ValidateRequest) -> Result<Reply, Failure> {
        self.validate_many(&[request])
            .pop()
            .unwrap_or_else(|| Err(lost()))
    }

    /// Validates several cases at once, as [`Session::validate`] does one:
    /// their requests go out together, and the results come back in the
    /// order of `requests`. A failure to start a process is charged to the
    /// first case still to be sent; the others try a fresh start.
    pub fn validate_many(&self, requests: &[&ValidateRequest]) -> Vec<Result<Reply, Failure>> {
        let wake = Arc::new(Condvar::new());
        let mut results: Vec<Option<Result<Reply, Failure>>> =
            requests.iter().map(|_| None).collect();
        let mut todo: Vec<usize> = (0..requests.len()).collect();
        let mut last = None;
        let mut state = lock(&self.state);
        while let Some(&first) = todo.first() {
            let live;
            (state, live) = self.ensure_started(state);
            let process = match live {
                Ok(process) => process,
                Err(failure) => {
                    results[first] = Some(Err(failure));
                    todo.remove(0);
                    continue;
                }
            };
            if state.pending.is_empty() && !state.reading {
                // Output while no request is in flight would otherwise be
                // read as the next reply and blamed on it with a puzzling
                // `seq` mismatch.
                if let Some(failure) = unrequested(&process, false) {
                    discard(&mut state, &process);
                    results[first] = Some(Err(failure));
                    todo.remove(0);
                    continue;
                }
            }
            let deadline = Instant::now() + self.validator.timeout;
            let mut lines = RequestLines::default();
            let mut sent = Vec::with_capacity(todo.len());
            for index in todo.drain(..) {
                state.seq += 1;
                let seq = state.seq;
                state.pending.insert(
                    seq,
                    Pending {
                        deadline,
                        wake: Arc::clone(&wake),
                    },
                );
                lines.push(seq, requests[index]);
                sent.push((seq, index));
            }
            // Sent under the lock, so that requests reach the process in
            // the order of their `seq` (the oldest is the one blamed); in
            // one piece, so that the writer wakes once for them all.
            process.send(lines.bytes);
            for (seq, index) in sent {
                let resolution;
                (state, resolution) = self.wait(state, seq, &wake);
                match resolution {
                    Resolution::Resend => todo.push(index),
                    Resolution::Answered(result) => results[index] = Some(result),
                }
            }
            last = Some(process);
        }
        drop(state);
        if let ([Some(Ok(_))], false, Some(process)) = (
            results.as_slice(),
            self.validator.extra_output_wait.is_zero(),
            &last,
        ) && let Some(failure) = self.after_reply(process)
        {
            results[0] = Some(Err(failure));
        }
        results
            .into_iter()
            .map(|result| result.unwrap_or_else(|| Err(lost())))
            .collect()
    }

    /// `smoke` waits a moment after each reply for output nobody asked for,
    /// so that it is blamed on the case that wrote it (with one request in
    /// flight, as `smoke` runs).
    fn after_reply(&self, process: &Arc<Process>) -> Option<Failure> {
        std::thread::sleep(self.validator.extra_output_wait);
        let mut state = lock(&self.state);
        let same = state
            .live
            .as_ref()
            .is_some_and(|live| Arc::ptr_eq(&live.process, process));
        if same
            && state.pending.is_empty()
            && !state.reading
            && let Some(failure) = unrequested(process, true)
        {
            discard(&mut state, process);
            return Some(failure);
        }
        None
    }

    /// Waits until the request `seq` is resolved, reading the process's
    /// output meanwhile whenever no other caller does.
    fn wait<'a>(
        &'a self,
        mut state: MutexGuard<'a, State>,
        seq: u64,
        wake: &Condvar,
    ) -> (MutexGuard<'a, State>, Resolution) {
        loop {
            if let Some(resolution) = state.resolved.remove(&seq) {
                if !state.reading
                    && let Some(next) = state.pending.values().next()
                    // This caller reads on for a request of its own batch;
                    // waking itself would be a system call for nothing.
                    && !std::ptr::eq(&*next.wake, wake)
                {
                    // Someone must read for the requests still in flight.
                    next.wake.notify_one();
                }
                return (state, resolution);
            }
            let Some(deadline) = state.pending.get(&seq).map(|pending| pending.deadline) else {
                // Neither in flight nor resolved cannot happen; sending it
                // again is the answer that loses nothing.
                return (state, Resolution::Resend);
            };
            if state.reading {
                let now = Instant::now();
                // Past its deadline the reader (whose deadline is the
                // oldest's, so no later) is about to notice; look again soon.
                let wait = deadline
                    .saturating_duration_since(now)
                    .max(Duration::from_millis(10));
                state = wake
                    .wait_timeout(state, wait)
                    .map_or_else(|poisoned| poisoned.into_inner().0, |(state, _)| state);
                continue;
            }
            state = self.read_once(state);
        }
    }

    /// Reads one thing from the process's output, without the lock, until
    /// the oldest request's deadline at most, and applies it.
    fn read_once<'a>(&'a self, mut state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        let (Some(live), Some(oldest)) = (&state.live, state.pending.values().next()) else {
            return state;
        };
        let process = Arc::clone(&live.process);
        let deadline = oldest.deadline;
        state.reading = true;
        drop(state);
        let output = process.next_output(deadline);
        // Decoded without the lock: a reply may be megabytes.
        let event = match output {
            Some(Output::Line(text)) => Event::Line(wire::decode_session_reply(
                &text,
                self.validator.max_diagnostics,
            )),
            None => Event::Broken(
                Blame::Late,
                Failure::of(
                    FailureKind::TimedOut {
                        after: self.validator.timeout,
                        awaiting: Awaiting::Reply,
                    },
                    Some(&process),
                ),
            ),
            Some(other) => Event::Broken(
                Blame::Oldest,
                Failure::of(ended(other, &process, Awaiting::Reply), Some(&process)),
            ),
        };
        let mut state = lock(&self.state);
        state.reading = false;
        let current = state
            .live
            .as_ref()
            .is_some_and(|live| Arc::ptr_eq(&live.process, &process));
        if current {
            match event {
                Event::Line(decoded) => self.apply_line(&mut state, &process, decoded),
                Event::Broken(blame, failure) => fail(&mut state, &process, blame, &failure),
            }
        }
        state
    }

    /// Hands a reply line to its request, or fails the process when the
    /// line is no reply to a request in flight.
    fn apply_line(
        &self,
        state: &mut State,
        process: &Process,
        decoded: Result<(Seq, Result<Reply, WireError>), WireError>,
    ) {
        let oldest = state.pending.keys().next().copied().unwrap_or_default();
        let (blame, error) = match decoded {
            Ok((Seq::Number(seq), answer)) if state.pending.contains_key(&seq) => match answer {
                Ok(reply) => {
                    if let Some(pending) = state.pending.remove(&seq) {
                        state.resolved.insert(seq, Resolution::Answered(Ok(reply)));
                        // Its caller collects a batch's replies in one go:
                        // woken for each, it would sleep again at once, a
                        // pair of context switches per case for nothing.
                        let batch_done = !state
                            .pending
                            .values()
                            .any(|other| Arc::ptr_eq(&other.wake, &pending.wake));
                        if batch_done {
                            pending.wake.notify_one();
                        }
                    }
                    return;
                }
                Err(error) => (Blame::Request(seq), error),
            },
            Ok((Seq::Missing, _)) => (Blame::Oldest, WireError::NoSeq { expected: oldest }),
            Ok((seq, _)) => {
                let given = match seq {
                    Seq::Number(given) => given.to_string(),
                    Seq::Other(given) => given,
                    Seq::Missing => String::new(),
                };
                let error = if state.pending.len() == 1 {
                    WireError::WrongSeq {
                        expected: oldest,
                        given,
                    }
                } else {
                    WireError::UnknownSeq {
                        given,
                        in_flight: state.pending.len(),
                    }
                };
                (Blame::Oldest, error)
            }
            Err(error) => (Blame::Oldest, error),
        };
        let failure = protocol(
            ProtocolProblem::Reply {
                awaiting: Awaiting::Reply,
                error,
            },
            process,
        );
        fail(state, process, blame, &failure);
    }

    /// Returns the live process, starting one (and waiting for its `start`
    /// reply, without the lock) when there is none; waits for a start
    /// another caller is making.
    fn ensure_started<'a>(
        &'a self,
        mut state: MutexGuard<'a, State>,
    ) -> (MutexGuard<'a, State>, Result<Arc<Process>, Failure>) {
        loop {
            if let Some(live) = &state.live {
                let process = Arc::clone(&live.process);
                return (state, Ok(process));
            }
            if state.starting {
                state = self
                    .started
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            state.starting = true;
            drop(state);
            let started = start_process(&self.validator);
            state = lock(&self.state);
            state.starting = false;
            self.started.notify_all();
            return match started {
                Ok(live) => {
                    let process = Arc::clone(&live.process);
                    state.live = Some(live);
                    (state, Ok(process))
                }
                // Charged to the caller that started it; the others waiting
                // try a start of their own.
                Err(failure) => (state, Err(failure)),
            };
        }
    }

    /// Sends `stop` and gives the process [`STOP_GRACE`] to exit; kills its
    /// group either way, so nothing it started is left behind. Returns the
    /// exit status when it exited by itself (`None` also when no process ran).
    pub fn stop(&self) -> Option<std::process::ExitStatus> {
        let process = self.send_stop()?;
        process.finish(stop_deadline())
    }

    /// Sends `stop` and hands over the process, for the caller to wait for
    /// (so that many sessions can be stopped at once).
    fn send_stop(&self) -> Option<Arc<Process>> {
        let live = lock(&self.state).live.take()?;
        live.process.send(line_of(&Command::Stop));
        Some(live.process)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The exit status of a session dropped without a stop matters to no one.
        let _ = self.stop();
    }
}

/// The failure of a request that got no result, which cannot happen (every
/// request sent is answered, charged or sent again); a crash rather than a
/// panic, all the same.
fn lost() -> Failure {
    Failure::of(
        FailureKind::Crashed(Crash::OutputEnded {
            awaiting: Awaiting::Reply,
            partial: None,
        }),
        None,
    )
}

/// What a reader saw, decoded without the lock.
enum Event {
    Line(Result<(Seq, Result<Reply, WireError>), WireError>),
    Broken(Blame, Failure),
}

/// Kills the process and settles every request in flight: the ones
/// `blame` names get `failure`, the others are to be sent again (or get
/// `failure` too once the run is interrupted: nothing more is sent then).
fn fail(state: &mut State, process: &Process, blame: Blame, failure: &Failure) {
    discard(state, process);
    let interrupted = interrupt::received().is_some();
    let oldest = state.pending.keys().next().copied();
    for (seq, pending) in std::mem::take(&mut state.pending) {
        let blamed = match blame {
            Blame::Oldest | Blame::Late => Some(seq) == oldest,
            Blame::Request(culprit) => seq == culprit,
        };
        let resolution = if blamed || interrupted {
            Resolution::Answered(Err(failure.clone()))
        } else {
            Resolution::Resend
        };
        state.resolved.insert(seq, resolution);
        pending.wake.notify_one();
    }
}

/// Kills the process when it is still the live one; the next request
/// starts a fresh one.
fn discard(state: &mut State, process: &Process) {
    if state
        .live
        .as_ref()
        .is_some_and(|live| std::ptr::eq(Arc::as_ptr(&live.process), process))
    {
        state.live = None;
    }
    process.kill();
}

/// Starts a process and asks it `start`.
fn start_process(validator: &ExternalValidator) -> Result<Live, Failure> {
    let process = Process::spawn(&validator.argv, &[], validator.max_line, validator.pipeline)
        .map_err(|error| Failure::not_started(&validator.argv, &error))?;
    let start = Command::Start {
        protocol: PROTOCOL_VERSION,
        harness: HarnessInfo {
            name: "mcpdesc-conformance".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        },
        revisions: Some(validator.revisions.clone()),
    };
    process.send(line_of(&start));
    let deadline = Instant::now() + validator.start_timeout;
    let line = read_reply(&process, deadline, validator.start_timeout, Awaiting::Start)?;
    let implementation = wire::decode_start(&line).map_err(|error| {
        protocol(
            ProtocolProblem::Reply {
                awaiting: Awaiting::Start,
                error,
            },
            &process,
        )
    })?;
    Ok(Live {
        process: Arc::new(process),
        implementation,
    })
}

/// How long a validator may take to exit after `stop` before its process
/// group is killed. Needs the `external` feature.
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
pub(super) fn stop_all(sessions: &[Arc<Session>]) -> Vec<Option<std::process::ExitStatus>> {
    let processes: Vec<Arc<Process>> = sessions
        .iter()
        .filter_map(|session| session.send_stop())
        .inspect(|process| process.close_input())
        .collect();
    let deadline = stop_deadline();
    processes
        .iter()
        .map(|process| process.finish(deadline))
        .collect()
}

/// The protocol failure, when `process` has written output that no request
/// asked for (noticed right after a reply, or before the next request).
fn unrequested(process: &Process, after_reply: bool) -> Option<Failure> {
    match process.unread_output() {
        Some(Output::Line(line) | Output::Partial(line)) => Some(protocol(
            ProtocolProblem::Unrequested {
                excerpt: wire::excerpt(&line),
                after_reply,
            },
            process,
        )),
        _ => None,
    }
}

/// The `validate` lines of a batch, in one buffer: each is the line
/// serde writes for [`Command::Validate`], without cloning the request, and
/// a document or source text sent again (a fixture goes out once per
/// revision, and batches hold consecutive cases) is copied from the line
/// before instead of being serialized again, the costliest part of sending.
#[derive(Debug, Default)]
struct RequestLines<'a> {
    bytes: Vec<u8>,
    /// The last document written and where its JSON is in `bytes`.
    last: Option<(&'a Arc<serde_json::Value>, std::ops::Range<usize>)>,
    /// The last source text written and where its `source` object is in
    /// `bytes`.
    last_source: Option<(&'a Arc<str>, std::ops::Range<usize>)>,
}

impl<'a> RequestLines<'a> {
    fn push(&mut self, seq: u64, request: &'a ValidateRequest) {
        // Serializing strings into a vector cannot fail.
        let bytes = &mut self.bytes;
        bytes.extend_from_slice(br#"{"cmd":"validate","seq":"#);
        bytes.extend_from_slice(seq.to_string().as_bytes());
        bytes.extend_from_slice(br#","case":"#);
        let _ = serde_json::to_writer(&mut *bytes, &request.case);
        bytes.extend_from_slice(br#","specification":"#);
        let _ = serde_json::to_writer(&mut *bytes, &request.specification);
        bytes.extend_from_slice(br#","revision":"#);
        let _ = serde_json::to_writer(&mut *bytes, &request.revision);
        bytes.extend_from_slice(br#","document":"#);
        match &self.last {
            Some((document, range)) if Arc::ptr_eq(document, &request.document) => {
                bytes.extend_from_within(range.clone());
            }
            _ => {
                let start = bytes.len();
                let _ = serde_json::to_writer(&mut *bytes, &*request.document);
                self.last = Some((&request.document, start..bytes.len()));
            }
        }
        if let Some(source) = &request.source {
            bytes.extend_from_slice(br#","source":"#);
            match &self.last_source {
                Some((text, range)) if Arc::ptr_eq(text, &source.text) => {
                    bytes.extend_from_within(range.clone());
                }
                _ => {
                    let start = bytes.len();
                    let _ = serde_json::to_writer(&mut *bytes, source);
                    self.last_source = Some((&source.text, start..bytes.len()));
                }
            }
        }
        bytes.extend_from_slice(b"}\n");
    }
}

fn line_of(command: &Command) -> Vec<u8> {
    // Serializing these types cannot fail: every key is a string.
    let mut line = serde_json::to_vec(command).unwrap_or_default();
    line.push(b'\n');
    line
}

/// What an output other than a line means while the harness is
/// `awaiting` a reply.
fn ended(output: Output, process: &Process, awaiting: Awaiting) -> FailureKind {
    match output {
        Output::TooLong => FailureKind::Protocol(ProtocolProblem::TooLong {
            awaiting,
            limit: process.max_line(),
        }),
        Output::Partial(text) => FailureKind::Crashed(Crash::OutputEnded {
            awaiting,
            partial: Some(wire::excerpt(&text)),
        }),
        // A line is handled by the caller; as an ending it would be a bug.
        Output::End | Output::Line(_) => FailureKind::Crashed(Crash::OutputEnded {
            awaiting,
            partial: None,
        }),
        Output::Failed(error) => FailureKind::Crashed(Crash::ReadFailed { error }),
    }
}

/// Waits for the reply line the harness is `awaiting`, turning every other
/// ending into a failure.
pub(super) fn read_reply(
    process: &Process,
    deadline: Instant,
    limit: Duration,
    awaiting: Awaiting,
) -> Result<String, Failure> {
    match process.next_output(deadline) {
        Some(Output::Line(line)) => Ok(line),
        None => Err(Failure::of(
            FailureKind::TimedOut {
                after: limit,
                awaiting,
            },
            Some(process),
        )),
        Some(other) => Err(Failure::of(ended(other, process, awaiting), Some(process))),
    }
}

/// A protocol failure, with the process's stderr.
pub(super) fn protocol(problem: ProtocolProblem, process: &Process) -> Failure {
    Failure::of(FailureKind::Protocol(problem), Some(process))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdesc_protocol::{Source, SourceFormat};

    #[test]
    fn a_batch_is_the_lines_serde_writes_with_shared_documents_sent_in_full() {
        let shared = Arc::new(serde_json::json!({"b": [1, "two\n", {"c": null}], "a": "é\u{1}"}));
        let other = Arc::new(serde_json::json!({"x": 1}));
        let request =
            |case: &str, revision: &str, document: &Arc<serde_json::Value>| ValidateRequest {
                case: case.to_owned(),
                specification: "0.9.0".to_owned(),
                revision: revision.parse().unwrap(),
                document: Arc::clone(document),
                source: None,
            };
        // A serialization case: a `null` document and the text, shared by
        // its revisions.
        let text: Arc<str> = Arc::from("a: 1\na: \"two\"\r\n--- !tag\n");
        let source = |revision: &str| ValidateRequest {
            source: Some(Source {
                format: SourceFormat::Yaml,
                text: Arc::clone(&text),
            }),
            ..request("source.yaml", revision, &Arc::new(serde_json::Value::Null))
        };
        let requests = [
            request("a \"quoted\" case.json", "2025-06-18", &shared),
            request("a \"quoted\" case.json", "2025-11-25", &shared),
            source("2025-06-18"),
            source("2025-11-25"),
            request("other.yaml", "2025-11-25", &other),
            request("a \"quoted\" case.json", "2026-07-28", &shared),
        ];
        let mut lines = RequestLines::default();
        let mut expected = Vec::new();
        for (seq, request) in (7..).zip(&requests) {
            lines.push(seq, request);
            expected.extend(line_of(&Command::Validate {
                seq,
                request: request.clone(),
            }));
        }
        let written = String::from_utf8(lines.bytes).unwrap();
        assert_eq!(written, String::from_utf8(expected).unwrap());
        let third: serde_json::Value =
            serde_json::from_str(written.lines().nth(2).unwrap()).unwrap();
        assert_eq!(third["document"], serde_json::Value::Null);
        assert_eq!(
            third["source"],
            serde_json::json!({"format": "yaml", "text": "a: 1\na: \"two\"\r\n--- !tag\n"})
        );
    }
}
