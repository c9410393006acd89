//! The human report on stdout: the header at once, each failure as it
//! completes (with its diff), then the per-revision and per-rule tables.

use std::collections::BTreeSet;
use std::io::{self, Write};

use crate::emit::escape;
use crate::emit::paint::{Palette, Style};
use crate::emit::text;
use crate::event::{Event, RunMode, RunStarted};
use crate::outcome::comparison::Level;
use crate::outcome::mark::Mark;
use crate::suite::SuiteSet;
use crate::suite::case::Case;

use super::Emitter;

/// A progress display shown beside the human report (the command line
/// draws a progress bar on a terminal); the report's lines are written
/// around it.
pub trait Progress {
    /// One more case has finished.
    fn advance(&self);
    /// Runs `write` with the display out of the way, so that the line
    /// written does not tear it.
    ///
    /// # Errors
    ///
    /// The error of `write`.
    fn suspend(&self, write: &mut dyn FnMut() -> io::Result<()>) -> io::Result<()>;
    /// The run has ended: the display goes away.
    fn finish(&self);
}

/// The human report, written to `out`.
pub struct Human<'s, W> {
    out: W,
    set: &'s SuiteSet,
    level: Level,
    quiet: bool,
    progress: Option<Box<dyn Progress + 's>>,
    /// What the run said of itself, for the summary's coverage line.
    started: Option<RunStarted>,
    paint: Palette,
    /// The cases whose STALE line is written: the others the run's end
    /// marks stale (those of entries that match several cases) are written
    /// with the summary.
    shown_stale: BTreeSet<usize>,
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
            started: None,
            paint: Palette::PLAIN,
            shown_stale: BTreeSet::new(),
        }
    }

    /// Shows `progress` (a progress line on stderr) while the run goes on;
    /// the report's own lines are written around it.
    pub fn with_progress(mut self, progress: Option<Box<dyn Progress + 's>>) -> Human<'s, W> {
        self.progress = progress;
        self
    }

    /// Colours the report with `paint` (plain unless asked: the caller
    /// knows whether `out` is a terminal).
    pub fn with_palette(mut self, paint: Palette) -> Human<'s, W> {
        self.paint = paint;
        self
    }

    fn write(&mut self) -> impl FnMut(&str) -> io::Result<()> + '_ {
        let (out, progress) = (&mut self.out, &self.progress);
        move |text: &str| {
            let mut line = || writeln!(out, "{text}").and_then(|()| out.flush());
            match progress {
                Some(display) => display.suspend(&mut line),
                None => line(),
            }
        }
    }
}

impl<W: Write> Emitter for Human<'_, W> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) => {
                self.started = Some((*started).clone());
                if self.quiet {
                    return Ok(());
                }
                let how = match started.mode {
                    RunMode::InProcess => "in-process",
                    RunMode::Session => "session mode",
                    RunMode::Oneshot => "one-shot mode",
                };
                let mut header = format!(
                    "mcpdesc-conformance {}: suite {} {}; validator {} {} ({how}); {} cases",
                    started.harness_version,
                    started.suite.version,
                    started.suite.source,
                    escape::line(&started.implementation.name),
                    escape::line(&started.implementation.version),
                    started.cases
                );
                let claims = &started.claims;
                if claims.claimed < claims.catalog {
                    header.push_str(&format!(
                        "; it claims {} of the {} rules",
                        claims.claimed, claims.catalog
                    ));
                }
                self.write()(&header)
            }
            Event::CaseFinished {
                index,
                case,
                result,
            } => {
                if let Some(display) = &self.progress {
                    display.advance();
                }
                if self.quiet {
                    return Ok(());
                }
                match &result.baseline {
                    // Tolerated: the summary counts them.
                    Some(Mark::Known { .. }) => Ok(()),
                    Some(Mark::Stale { reason }) => {
                        self.shown_stale.insert(*index);
                        let line = stale_line(case, reason.as_deref(), self.paint);
                        self.write()(&line)
                    }
                    _ => match text::failure(self.set, result, self.level, self.paint) {
                        Some(text) => self.write()(&format!("\n{}", text.trim_end())),
                        None => Ok(()),
                    },
                }
            }
            Event::RunFinished(finished) => {
                if let Some(display) = self.progress.take() {
                    display.finish();
                }
                let mut text = String::new();
                if !self.quiet {
                    for (index, (case, result)) in
                        finished.cases.iter().zip(finished.results).enumerate()
                    {
                        if let Some(Mark::Stale { reason }) = &result.baseline
                            && !self.shown_stale.contains(&index)
                        {
                            text.push_str(&stale_line(case, reason.as_deref(), self.paint));
                            text.push('\n');
                        }
                    }
                }
                text.push_str(&format!(
                    "\n{}",
                    text::summary(finished.summary, self.level, self.paint)
                ));
                if let Some(started) = &self.started {
                    text.push_str(&text::coverage(
                        started,
                        &finished.summary.total,
                        self.level,
                    ));
                    text.push('\n');
                }
                let summary = finished.summary;
                if summary.known_failures > 0 || summary.stale > 0 {
                    text.push_str(&format!(
                        "baseline: {} known failure(s) tolerated, {} passing case(s) of stale entries\n",
                        summary.known_failures, summary.stale,
                    ));
                }
                let rules = text::rules(finished.summary, self.level, self.paint);
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

/// The line that says `case` passes though a stale entry lists it.
fn stale_line(case: &Case<'_>, reason: Option<&str>, paint: Palette) -> String {
    let reason = reason.map_or_else(String::new, |reason| format!(" ({})", escape::line(reason)));
    format!(
        "\n{} {}: listed as a known failure{reason}, but it passes",
        paint.paint(Style::Stale, "STALE"),
        escape::line(&case.id())
    )
}
