//! The one scheduler: runs cases against any [`Backend`] on `jobs` worker
//! threads, hands each result to a callback as it finishes, and returns
//! every result in case order whatever the number of workers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use mcpdesc_protocol::{Implementation, Reply, ValidateRequest, Validator};

use crate::backend::interrupt;
use crate::backend::lock;
use crate::judge::runner;
use crate::outcome::failure::Failure;
use crate::outcome::{CaseResult, NotRun, Outcome};
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;

/// A validator the harness can ask about a case, however it is reached:
/// in this process, through a pool of session processes, or one process
/// per case.
pub trait Backend: Send + Sync {
    /// What the validator says about itself (for a one-shot program, what
    /// the harness takes it to be).
    fn implementation(&self) -> &Implementation;

    /// Asks about one case.
    ///
    /// # Errors
    ///
    /// The validator's [`Failure`] on this case: a panic, a crash, a
    /// timeout, a broken contract.
    fn call(&self, request: &ValidateRequest) -> Result<Reply, Failure>;

    /// Asks about several cases at once, the results in the order of
    /// `requests` (one each): a backend that can have several requests in
    /// flight sends them together. By default, one call after another.
    fn call_many(&self, requests: &[&ValidateRequest]) -> Vec<Result<Reply, Failure>> {
        requests.iter().map(|request| self.call(request)).collect()
    }
}

/// An in-process validator as a [`Backend`]; a panic fails its one case.
/// `V` may be the validator itself, a reference to it, or an `Arc`.
pub struct InProcess<V> {
    validator: V,
    implementation: Implementation,
}

impl<V: Validator> InProcess<V> {
    /// The backend of `validator`.
    pub fn new(validator: V) -> InProcess<V> {
        let implementation = validator.implementation();
        InProcess {
            validator,
            implementation,
        }
    }
}

impl<V> std::fmt::Debug for InProcess<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InProcess")
            .field("implementation", &self.implementation.name)
            .finish()
    }
}

impl<V: Validator> Backend for InProcess<V> {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    fn call(&self, request: &ValidateRequest) -> Result<Reply, Failure> {
        runner::ask(&self.validator, request)
    }
}

/// A backend judged on the rules claimed for it on the command line
/// (`run --rules`) instead of those it announces: a one-shot validator
/// cannot announce any, and a session validator's list is replaced. The
/// rest of its announced identity is kept.
pub struct Claimed<'a> {
    backend: Box<dyn Backend + 'a>,
    implementation: Implementation,
}

impl<'a> Claimed<'a> {
    /// `backend`, claiming `rules`.
    pub fn new(backend: Box<dyn Backend + 'a>, rules: Vec<String>) -> Claimed<'a> {
        let implementation = Implementation {
            rules: Some(rules),
            ..backend.implementation().clone()
        };
        Claimed {
            backend,
            implementation,
        }
    }
}

impl Backend for Claimed<'_> {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    fn call(&self, request: &ValidateRequest) -> Result<Reply, Failure> {
        self.backend.call(request)
    }

    fn call_many(&self, requests: &[&ValidateRequest]) -> Vec<Result<Reply, Failure>> {
        self.backend.call_many(requests)
    }
}

/// Runs `cases` against an in-process `validator` with [`run`], one worker
/// per CPU, and returns one result per case in the order of `cases`: a
/// convenience for tools and tests.
pub fn run_in_process(
    cases: &[Case<'_>],
    rules: &RuleIndex,
    validator: &dyn Validator,
) -> Vec<CaseResult> {
    let backend = InProcess::new(validator);
    run(cases, rules, &backend, &Schedule::default(), &|_, _| {}).results
}

/// How a run is scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// How many workers run at once.
    pub jobs: usize,
    /// How many cases a worker asks about at once (with
    /// [`Backend::call_many`]); 1 asks about one at a time.
    pub batch: usize,
    /// After this many validator failures in a row (crash, timeout,
    /// protocol error), the remaining cases are not run.
    pub max_consecutive_failures: usize,
}

impl Default for Schedule {
    /// As many jobs as CPUs, one case at a time each; give up after 10
    /// failures in a row.
    fn default() -> Schedule {
        Schedule {
            jobs: thread::available_parallelism().map_or(1, usize::from),
            batch: 1,
            max_consecutive_failures: 10,
        }
    }
}

/// The results of a run, in case order.
#[derive(Debug, Clone)]
pub struct Run {
    /// One result per case, in case order.
    pub results: Vec<CaseResult>,
    /// Whether the run gave up on the validator after too many failures in
    /// a row (the remaining cases are not run).
    pub gave_up: bool,
}

/// Runs `cases` against `backend`, `schedule.jobs` at a time, calling
/// `finished` with each case's index and result as soon as it has one (on
/// the worker's thread).
///
/// After `schedule.max_consecutive_failures` failures in a row the
/// remaining cases are not run; so that the cutoff is exact whatever the
/// number of workers, a call starts only while the failures in a row plus
/// the calls in flight stay below the limit. An interruption
/// ([`crate::backend::interrupt`]) stops scheduling at once; the cases it cut short
/// are [`Outcome::Interrupted`].
pub fn run(
    cases: &[Case<'_>],
    rules: &RuleIndex,
    backend: &dyn Backend,
    schedule: &Schedule,
    finished: &(dyn Fn(usize, &CaseResult) + Sync),
) -> Run {
    let implementation = backend.implementation();
    let next = AtomicUsize::new(0);
    let gate = Gate::new(schedule.max_consecutive_failures);
    let slots: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; cases.len()]);
    let workers = schedule.jobs.clamp(1, cases.len().max(1));
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let store = |index: usize, result: CaseResult| {
                    finished(index, &result);
                    if let Ok(mut slots) = slots.lock()
                        && let Some(slot) = slots.get_mut(index)
                    {
                        *slot = Some(result);
                    }
                };
                if schedule.batch > 1 {
                    let batch = Batch {
                        cases,
                        rules,
                        backend,
                        gate: &gate,
                    };
                    loop {
                        let first = next.fetch_add(schedule.batch, Ordering::SeqCst);
                        if first >= cases.len() {
                            break;
                        }
                        let last = cases.len().min(first.saturating_add(schedule.batch));
                        batch.run(first..last, &store);
                    }
                    return;
                }
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = cases.get(index) else {
                        break;
                    };
                    let result = if interrupt::received().is_some() {
                        CaseResult::unasked(case, Outcome::Interrupted)
                    } else {
                        runner::judge(case, rules, implementation, |request| {
                            gate.enter(1)?;
                            let reply = backend.call(request);
                            gate.leave(reply.is_ok());
                            outcome_of(reply)
                        })
                    };
                    store(index, result);
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_default();
    let results = cases
        .iter()
        .zip(slots)
        .map(|(case, slot)| {
            slot.unwrap_or_else(|| CaseResult::unasked(case, Outcome::NotRun(NotRun::Lost)))
        })
        .collect();
    Run {
        results,
        gave_up: gate.gave_up(),
    }
}

/// A failed call's outcome: killed by an interruption is not failed.
fn outcome_of(reply: Result<Reply, Failure>) -> Result<Reply, Outcome> {
    match reply {
        Ok(reply) => Ok(reply),
        Err(_) if interrupt::received().is_some() => Err(Outcome::Interrupted),
        Err(failure) => Err(Outcome::Failed(failure)),
    }
}

/// What a worker needs to run a batch of cases.
struct Batch<'a, 'c> {
    cases: &'a [Case<'c>],
    rules: &'a RuleIndex,
    backend: &'a dyn Backend,
    gate: &'a Gate,
}

impl Batch<'_, '_> {
    /// Runs the cases of `range` with as few calls to
    /// [`Backend::call_many`] as the gate allows (each call takes the
    /// cases the gate admits at once), and stores each result in order.
    fn run(&self, range: std::ops::Range<usize>, store: &dyn Fn(usize, CaseResult)) {
        let implementation = self.backend.implementation();
        let mut calls = Vec::new();
        let mut results: Vec<(usize, Option<CaseResult>)> = Vec::new();
        for index in range {
            let case = &self.cases[index];
            let result = if interrupt::received().is_some() {
                Some(CaseResult::unasked(case, Outcome::Interrupted))
            } else {
                match runner::prepare(case, implementation) {
                    Ok(request) => {
                        calls.push((results.len(), request));
                        None
                    }
                    Err(result) => Some(*result),
                }
            };
            results.push((index, result));
        }
        let mut rest = calls.as_slice();
        while !rest.is_empty() {
            match self.gate.enter(rest.len()) {
                Err(outcome) => {
                    for (at, _) in rest {
                        let (index, slot) = &mut results[*at];
                        *slot = Some(CaseResult::unasked(&self.cases[*index], outcome.clone()));
                    }
                    rest = &[];
                }
                Ok(admitted) => {
                    let (group, after) = rest.split_at(admitted.min(rest.len()));
                    let requests: Vec<&ValidateRequest> =
                        group.iter().map(|(_, request)| request).collect();
                    let started = Instant::now();
                    let replies = self.backend.call_many(&requests);
                    let duration = started.elapsed();
                    for ((at, _), reply) in group.iter().zip(replies) {
                        self.gate.leave(reply.is_ok());
                        let (index, slot) = &mut results[*at];
                        *slot = Some(runner::conclude(
                            &self.cases[*index],
                            self.rules,
                            implementation,
                            outcome_of(reply),
                            duration,
                        ));
                    }
                    rest = after;
                }
            }
        }
        for (index, result) in results {
            // A case without a result is reported as lost by `run`.
            if let Some(result) = result {
                store(index, result);
            }
        }
    }
}

/// Admits validator calls so that the consecutive-failure cutoff is exact:
/// failures in a row plus calls in flight never exceed the limit, so the run
/// gives up after exactly that many failures in a row, however many workers
/// it has.
#[derive(Debug)]
struct Gate {
    limit: usize,
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct GateState {
    failures_in_a_row: usize,
    in_flight: usize,
    gave_up: bool,
    /// Workers waiting for room.
    waiting: usize,
}

impl Gate {
    fn new(limit: usize) -> Gate {
        Gate {
            limit: limit.max(1),
            state: Mutex::new(GateState::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, GateState> {
        lock(&self.state)
    }

    /// Waits for room for one more call, and admits up to `wanted` (at
    /// least one): how many it admitted, or the outcome to give the cases
    /// instead when the run gave up or was interrupted.
    fn enter(&self, wanted: usize) -> Result<usize, Outcome> {
        let mut state = self.lock();
        loop {
            if state.gave_up {
                return Err(Outcome::NotRun(NotRun::GaveUp {
                    failures: self.limit,
                }));
            }
            if interrupt::received().is_some() {
                return Err(Outcome::Interrupted);
            }
            let busy = state.failures_in_a_row + state.in_flight;
            if busy < self.limit {
                let admitted = wanted.clamp(1, self.limit - busy);
                state.in_flight += admitted;
                return Ok(admitted);
            }
            // Woken when a call ends; the timeout notices an interruption.
            state.waiting += 1;
            state = self
                .changed
                .wait_timeout(state, Duration::from_millis(50))
                .map_or_else(|poisoned| poisoned.into_inner().0, |(state, _)| state);
            state.waiting -= 1;
        }
    }

    /// Records the end of a call that succeeded or failed.
    fn leave(&self, succeeded: bool) {
        let mut state = self.lock();
        state.in_flight -= 1;
        if succeeded {
            state.failures_in_a_row = 0;
        } else {
            state.failures_in_a_row += 1;
            if state.failures_in_a_row >= self.limit {
                state.gave_up = true;
            }
        }
        // Waking costs a system call; most calls end with nobody waiting.
        let waiting = state.waiting > 0;
        drop(state);
        if waiting {
            self.changed.notify_all();
        }
    }

    fn gave_up(&self) -> bool {
        self.lock().gave_up
    }
}
