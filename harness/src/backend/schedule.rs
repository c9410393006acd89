//! The one scheduler: runs cases against any [`Backend`] on `jobs` worker
//! threads, hands each result to a callback as it finishes, and returns
//! every result in case order whatever the number of workers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use mcpdesc_protocol::{Implementation, Reply, ValidateRequest, Validator};

use crate::backend::failure::Failure;
use crate::backend::interrupt;
use crate::judge::runner::{self, CaseResult, NotRun, Outcome};
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
    /// How many cases run at once.
    pub jobs: usize,
    /// After this many validator failures in a row (crash, timeout,
    /// protocol error), the remaining cases are not run.
    pub max_consecutive_failures: usize,
}

impl Default for Schedule {
    /// As many jobs as CPUs; give up after 10 failures in a row.
    fn default() -> Schedule {
        Schedule {
            jobs: thread::available_parallelism().map_or(1, usize::from),
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
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = cases.get(index) else {
                        break;
                    };
                    let result = if interrupt::received().is_some() {
                        runner::without_call(case, Outcome::Interrupted)
                    } else {
                        runner::judge(case, rules, implementation, |request| {
                            gate.enter()?;
                            let reply = backend.call(request);
                            gate.leave(reply.is_ok());
                            match reply {
                                Ok(reply) => Ok(reply),
                                // Killed by the interruption, not failed.
                                Err(_) if interrupt::received().is_some() => {
                                    Err(Outcome::Interrupted)
                                }
                                Err(failure) => Err(Outcome::Failed(failure)),
                            }
                        })
                    };
                    finished(index, &result);
                    if let Ok(mut slots) = slots.lock()
                        && let Some(slot) = slots.get_mut(index)
                    {
                        *slot = Some(result);
                    }
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_default();
    let results = cases
        .iter()
        .zip(slots)
        .map(|(case, slot)| {
            slot.unwrap_or_else(|| runner::without_call(case, Outcome::NotRun(NotRun::Lost)))
        })
        .collect();
    Run {
        results,
        gave_up: gate.gave_up(),
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
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits for room for one more call; the outcome to give the case
    /// instead when the run gave up or was interrupted.
    fn enter(&self) -> Result<(), Outcome> {
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
            if state.failures_in_a_row + state.in_flight < self.limit {
                state.in_flight += 1;
                return Ok(());
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
