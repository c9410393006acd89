//! The human report on stdout: the header at once, each failure as it
//! completes (with its diff), then the per-revision and per-rule tables.

use std::io::{self, Write};

use crate::compare::Level;
use crate::escape;
use crate::event::{Event, RunMode};
use crate::report;
use crate::suite::SuiteSet;

use super::Emitter;

/// The human report, written to `out`.
pub struct Human<'s, W> {
    out: W,
    set: &'s SuiteSet,
    level: Level,
    quiet: bool,
}

impl<'s, W: Write> Human<'s, W> {
    /// A report on `set`'s run, judged at `level`; `quiet` leaves out the
    /// header and the failures, keeping the summary.
    pub fn new(out: W, set: &'s SuiteSet, level: Level, quiet: bool) -> Human<'s, W> {
        Human {
            out,
            set,
            level,
            quiet,
        }
    }
}

impl<W: Write> Emitter for Human<'_, W> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) if !self.quiet => {
                let how = match started.mode {
                    RunMode::InProcess => "in-process",
                    RunMode::Session => "session mode",
                    RunMode::Oneshot => "one-shot mode",
                };
                writeln!(
                    self.out,
                    "mcpdesc-conformance {}: suite {}; validator {} {} ({how}); {} cases",
                    started.harness_version,
                    started.suite.source,
                    escape::line(&started.implementation.name),
                    escape::line(&started.implementation.version),
                    started.cases
                )?;
            }
            Event::CaseFinished { result, .. } if !self.quiet => {
                if let Some(text) = report::failure(self.set, result, self.level) {
                    writeln!(self.out, "\n{text}")?;
                }
            }
            Event::RunFinished(finished) => {
                writeln!(
                    self.out,
                    "\n{}",
                    report::summary(finished.summary, self.level)
                )?;
                let rules = report::rules(finished.summary, self.level);
                if !rules.is_empty() {
                    writeln!(self.out, "{rules}")?;
                }
                if let Some(interruption) = finished.end.interrupted {
                    writeln!(
                        self.out,
                        "interrupted by {}: {} of {} cases finished",
                        interruption.name(),
                        finished.summary.total.cases,
                        finished.results.len()
                    )?;
                }
            }
            _ => {}
        }
        self.out.flush()
    }
}
