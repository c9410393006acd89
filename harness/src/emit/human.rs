//! The human report on stdout: the header at once, each failure as it
//! completes (with its diff), then the per-revision and per-rule tables.

use std::io::{self, Write};

use indicatif::ProgressBar;

use crate::emit::escape;
use crate::emit::text;
use crate::event::{Event, RunMode};
use crate::judge::compare::Level;
use crate::suite::SuiteSet;

use super::Emitter;

/// The human report, written to `out`.
pub struct Human<'s, W> {
    out: W,
    set: &'s SuiteSet,
    level: Level,
    quiet: bool,
    progress: Option<ProgressBar>,
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
            progress: None,
        }
    }

    /// Shows `progress` (a progress line on stderr) while the run goes on;
    /// the report's own lines are written around it.
    pub fn with_progress(mut self, progress: Option<ProgressBar>) -> Human<'s, W> {
        self.progress = progress;
        self
    }

    fn write(&mut self) -> impl FnMut(&str) -> io::Result<()> + '_ {
        let (out, progress) = (&mut self.out, &self.progress);
        move |text: &str| match progress {
            Some(bar) => bar.suspend(|| writeln!(out, "{text}").and_then(|()| out.flush())),
            None => writeln!(out, "{text}").and_then(|()| out.flush()),
        }
    }
}

impl<W: Write> Emitter for Human<'_, W> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) => {
                if self.quiet {
                    return Ok(());
                }
                let how = match started.mode {
                    RunMode::InProcess => "in-process",
                    RunMode::Session => "session mode",
                    RunMode::Oneshot => "one-shot mode",
                };
                let header = format!(
                    "mcpdesc-conformance {}: suite {}; validator {} {} ({how}); {} cases",
                    started.harness_version,
                    started.suite.source,
                    escape::line(&started.implementation.name),
                    escape::line(&started.implementation.version),
                    started.cases
                );
                self.write()(&header)
            }
            Event::CaseFinished { result, .. } => {
                if let Some(bar) = &self.progress {
                    bar.inc(1);
                }
                if self.quiet {
                    return Ok(());
                }
                match text::failure(self.set, result, self.level) {
                    Some(text) => self.write()(&format!("\n{}", text.trim_end())),
                    None => Ok(()),
                }
            }
            Event::RunFinished(finished) => {
                if let Some(bar) = self.progress.take() {
                    bar.finish_and_clear();
                }
                let mut text = format!("\n{}", text::summary(finished.summary, self.level));
                let rules = text::rules(finished.summary, self.level);
                if !rules.is_empty() {
                    text.push('\n');
                    text.push_str(&rules);
                }
                if let Some(interruption) = finished.end.interrupted {
                    text.push_str(&format!(
                        "\ninterrupted by {}: {} of {} cases finished\n",
                        interruption.name(),
                        finished.summary.total.cases,
                        finished.results.len()
                    ));
                }
                write!(self.out, "{text}")?;
                self.out.flush()
            }
        }
    }
}
