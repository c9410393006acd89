//! A whole run, from its first event to its last: the scheduler asks the
//! backend about each case on worker threads, and this thread hands every
//! event to the emitters as it happens, so the header appears at once and
//! each case's outcome as soon as it has one.

use std::io;
use std::sync::mpsc;

use crate::backend::interrupt;
use crate::backend::schedule::{self, Backend, Schedule};
use crate::baseline::Baseline;
use crate::emit::Emitter;
use crate::event::{Event, RunFinished, RunStarted};
use crate::exit::{RunEnd, Status};
use crate::judge::summary::Summary;
use crate::outcome::CaseResult;
use crate::suite::case::Case;
use crate::suite::catalog::RuleIndex;

/// How a run ended: every result in case order, their tallies, and the
/// exit status.
#[derive(Debug, Clone)]
pub struct Finished {
    /// One result per case, in case order.
    pub results: Vec<CaseResult>,
    /// Their tallies.
    pub summary: Summary,
    /// Whether the run gave up or was interrupted.
    pub end: RunEnd,
    /// The exit status the run ends with.
    pub status: Status,
}

/// Runs `cases` (judged with `rules`) against `backend` on `schedule`,
/// feeding `emitter` the events: `started`, each case as it finishes, and
/// the end. The backend is dropped before the end is told, so that external
/// validators are stopped (all at once) before the summary.
///
/// # Errors
///
/// The first error of writing an output; the run stops there.
pub fn run(
    started: &RunStarted,
    cases: &[Case<'_>],
    rules: &RuleIndex,
    backend: Box<dyn Backend + '_>,
    schedule: &Schedule,
    baseline: Option<&Baseline>,
    emitter: &mut dyn Emitter,
) -> io::Result<Finished> {
    let level = started.options.level;
    // What the baseline says of a case as it ends follows from its outcome
    // alone; the final results are marked again when the run has ended
    // (`Baseline::marks`).
    let mark = |result: &mut CaseResult, case: &Case<'_>| {
        result.baseline = baseline.and_then(|baseline| baseline.mark(case, &result.outcome, level));
    };
    emitter.emit(&Event::RunStarted(started))?;
    // The scheduler runs on its own thread and hands each result over as it
    // finishes, so that every output can show it at once.
    let run = std::thread::scope(|scope| -> io::Result<schedule::Run> {
        let (sender, finished) = mpsc::channel::<(usize, CaseResult)>();
        let backend = backend.as_ref();
        let worker = scope.spawn(move || {
            schedule::run(cases, rules, backend, schedule, &move |index, result| {
                // The receiver lives until the run ends.
                let _ = sender.send((index, result.clone()));
            })
        });
        for (index, mut result) in finished {
            mark(&mut result, &cases[index]);
            emitter.emit(&Event::CaseFinished {
                index,
                case: &cases[index],
                result: &result,
            })?;
        }
        worker
            .join()
            .map_err(|_| io::Error::other("the scheduler panicked (a bug: please report it)"))
    })?;
    drop(backend);
    let mut run = run;
    // Now that every case has ended, entries that match several cases can
    // be told stale or not.
    if let Some(baseline) = baseline {
        let marks = baseline.marks(cases, &run.results, level);
        for (result, mark) in run.results.iter_mut().zip(marks) {
            result.baseline = mark;
        }
    }
    let summary = Summary::of(&run.results);
    let end = RunEnd {
        gave_up: run.gave_up,
        interrupted: interrupt::received(),
    };
    let status = Status::of_run(&run.results, &summary, end, started.options.level);
    emitter.emit(&Event::RunFinished(RunFinished {
        cases,
        results: &run.results,
        summary: &summary,
        end,
        status,
    }))?;
    Ok(Finished {
        results: run.results,
        summary,
        end,
        status,
    })
}
