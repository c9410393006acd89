//! Outputs written to files when the run finishes: JUnit XML, a Markdown
//! summary, and badges.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::{Map, Value};

use crate::emit::badge;
use crate::emit::escape;
// Files are never coloured, whatever `--color` says.
use crate::emit::json;
use crate::emit::markdown;
use crate::emit::paint::Palette;
use crate::emit::text;
use crate::event::{Event, RunFinished, RunStarted};
use crate::outcome::comparison::Level;
use crate::outcome::mark::Mark;
use crate::outcome::{CaseResult, Outcome};
use crate::suite::SuiteSet;

use super::Emitter;

/// The JSON report document, written to a file when the run finishes.
pub struct ReportFile {
    path: PathBuf,
    run: Option<Map<String, Value>>,
}

impl ReportFile {
    /// A report to be written at `path`.
    pub fn new(path: PathBuf) -> ReportFile {
        ReportFile { path, run: None }
    }
}

impl Emitter for ReportFile {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) => self.run = Some(json::run(started)),
            Event::RunFinished(finished) => {
                let run = self.run.take().unwrap_or_default();
                let document = json::report(run, finished);
                let mut text = serde_json::to_string_pretty(&document)?;
                text.push('\n');
                crate::file::write_output(&self.path, &text).map_err(io::Error::other)?;
            }
            Event::CaseFinished { .. } => {}
        }
        Ok(())
    }
}

/// JUnit XML: one `testsuite` per suite and revision, one `testcase` per
/// case (named by its case ID, as `list` prints it and `--filter` takes
/// it, with the suite as class name), the failure report in a failing
/// case's text.
pub struct Junit<'s> {
    path: PathBuf,
    set: &'s SuiteSet,
    level: Level,
}

impl<'s> Junit<'s> {
    /// A JUnit file at `path` for a run on `set` judged at `level`.
    pub fn new(path: PathBuf, set: &'s SuiteSet, level: Level) -> Junit<'s> {
        Junit { path, set, level }
    }

    fn document(&self, finished: &RunFinished<'_>) -> Result<String, quick_junit::SerializeError> {
        let mut suites: BTreeMap<(String, String), TestSuite> = BTreeMap::new();
        for (case, result) in finished.cases.iter().zip(finished.results) {
            let (suite, name) = (&case.entry.fixture.suite, &case.entry.fixture.name);
            let key = (suite.to_owned(), result.revision.as_str().to_owned());
            let testsuite = suites
                .entry(key)
                .or_insert_with(|| TestSuite::new(xml(&format!("{suite}@{}", result.revision))));
            testsuite.add_test_case(self.case(result, suite, name));
        }
        let mut report = Report::new("mcpdesc-conformance");
        report.add_test_suites(suites.into_values());
        report.to_string()
    }

    fn case(&self, result: &CaseResult, suite: &str, name: &str) -> TestCase {
        let status = match (&result.outcome, result.outcome.passes(self.level)) {
            // A known failure is tolerated, as a skipped test is.
            (_, Some(false)) if matches!(result.baseline, Some(Mark::Known { .. })) => {
                let mut status = TestCaseStatus::skipped();
                if let Some(Mark::Known { reason, .. }) = &result.baseline {
                    status.set_message(match reason {
                        Some(reason) => xml(&format!("known failure: {}", escape::line(reason))),
                        None => "known failure (the baseline gives no reason)".to_owned(),
                    });
                }
                status
            }
            (_, Some(true)) if matches!(result.baseline, Some(Mark::Stale { .. })) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(
                    "listed as a known failure, but it passes: the baseline entry is stale",
                );
                status
            }
            (_, Some(true)) => TestCaseStatus::success(),
            (Outcome::Compared(_), Some(false)) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(format!("fails at the {} level", self.level));
                if let Some(text) = text::failure(self.set, result, self.level, Palette::PLAIN) {
                    status.set_description(xml(&text));
                }
                status
            }
            (_, Some(false)) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
                let text =
                    text::failure(self.set, result, self.level, Palette::PLAIN).unwrap_or_default();
                let line = text::outcome_line(&result.outcome)
                    .unwrap_or_else(|| "the validator did not answer".to_owned());
                status.set_message(xml(&line));
                status.set_description(xml(&text));
                status
            }
            (outcome, None) => {
                let mut status = TestCaseStatus::skipped();
                let message = match outcome {
                    Outcome::Skipped(skip) => escape::line(&text::skip_text(skip)).into_owned(),
                    Outcome::Unclaimed(unclaimed) => {
                        escape::line(&text::unclaimed_text(unclaimed)).into_owned()
                    }
                    _ => "interrupted".to_owned(),
                };
                status.set_message(xml(&message));
                status
            }
        };
        let mut case = TestCase::new(xml(&format!("{suite}/{name}@{}", result.revision)), status);
        case.set_classname(xml(suite));
        case.set_time(result.duration);
        case
    }
}

impl Emitter for Junit<'_> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        if let Event::RunFinished(finished) = event {
            let text = self.document(finished).map_err(io::Error::other)?;
            write_file(&self.path, &text)?;
        }
        Ok(())
    }
}

/// Badges for each level, overall and per revision, as shields.io endpoint
/// JSON and as SVG ([`crate::emit::badge`]); not written for an interrupted run,
/// whose rates would misstate the validator.
pub struct Badges {
    dir: PathBuf,
    scope: Option<badge::Scope>,
}

impl Badges {
    /// Badges written into `dir`.
    pub fn new(dir: PathBuf) -> Badges {
        Badges { dir, scope: None }
    }
}

impl Emitter for Badges {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) => {
                self.scope = Some(badge::Scope::of(&started.claims, &started.suite.version));
            }
            Event::RunFinished(finished) if finished.end.interrupted.is_none() => {
                if let Some(scope) = &self.scope {
                    badge::write(&self.dir, finished.summary, scope).map_err(io::Error::other)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// `text` for the JUnit file: what XML 1.0 cannot hold, even as a
/// character reference, as visible escapes. Every text the file holds
/// goes through it; a validator's words (in a failure's text) may hold
/// anything.
fn xml(text: &str) -> String {
    escape::xml(text).into_owned()
}

/// How many failures a Markdown summary shows with their diffs.
const MARKDOWN_FAILURES: usize = 20;

/// A Markdown summary fit for `$GITHUB_STEP_SUMMARY`: the totals, the
/// per-revision and per-rule tables, and the first failures, each folded.
pub struct Markdown<'s> {
    path: PathBuf,
    set: &'s SuiteSet,
    level: Level,
    started: Option<RunStarted>,
}

impl<'s> Markdown<'s> {
    /// A summary at `path` for a run on `set` judged at `level`.
    pub fn new(path: PathBuf, set: &'s SuiteSet, level: Level) -> Markdown<'s> {
        Markdown {
            path,
            set,
            level,
            started: None,
        }
    }

    /// The summary's text.
    fn document(&self, finished: &RunFinished<'_>) -> String {
        let total = &finished.summary.total;
        let summary = finished.summary;
        let mut text = String::new();
        let implementation = self.started.as_ref().map_or_else(String::new, |started| {
            format!(
                "{} {}",
                started.implementation.name, started.implementation.version
            )
        });
        let _ = writeln!(
            text,
            "## mcpdesc conformance: {}\n",
            markdown::text(&implementation)
        );
        // Known failures are failures the baseline tolerates: counted and
        // named as such, not as new failures, as the exit status has it.
        let known = summary.known_failures;
        let failed = total.failed_at(self.level);
        let _ = write!(
            text,
            "**{} cases: {} passed and {} failed at the {} level",
            total.cases,
            total.passed_at(self.level),
            failed - known.min(failed),
            self.level,
        );
        if known > 0 {
            let _ = write!(text, ", {known} known failures (the baseline)");
        }
        if summary.stale > 0 {
            let _ = write!(text, ", {} stale baseline entries", summary.stale);
        }
        let _ = write!(text, ", {} skipped", total.skipped);
        if total.unclaimed > 0 {
            let _ = write!(text, ", {} unclaimed", total.unclaimed);
        }
        let _ = writeln!(text, ".**\n");
        if let Some(started) = &self.started {
            // The sentence is the harness's; only the suite's version in
            // it is untrusted (it comes from a report, for `merge`).
            let mut shown = started.clone();
            shown.suite.version = markdown::text(&started.suite.version);
            let _ = writeln!(
                text,
                "{}.\n",
                upper_first(&text::coverage(&shown, total, self.level))
            );
        }
        if let Some(interruption) = finished.end.interrupted {
            let _ = writeln!(
                text,
                "The run was interrupted by {}; only the cases that finished are counted.\n",
                interruption.name()
            );
        }
        let rate = text::percent;
        // The unclaimed column only when some case is, as in the human
        // report.
        let unclaimed = total.unclaimed > 0;
        let _ = writeln!(
            text,
            "| revision | cases | skipped |{} errors | verdict | rules | exact |\n|---|--:|--:|{}--:|--:|--:|--:|",
            if unclaimed { " unclaimed |" } else { "" },
            if unclaimed { "--:|" } else { "" }
        );
        let rows = finished
            .summary
            .per_revision
            .iter()
            .map(|(revision, tally)| (revision.as_str().to_owned(), tally))
            .chain([("**all**".to_owned(), total)]);
        for (name, tally) in rows {
            let _ = writeln!(
                text,
                "| {name} | {} | {} |{} {} | {} | {} | {} |",
                tally.cases,
                tally.skipped,
                if unclaimed {
                    format!(" {} |", tally.unclaimed)
                } else {
                    String::new()
                },
                tally.errors,
                rate(tally, Level::Verdict),
                rate(tally, Level::Rules),
                rate(tally, Level::Exact)
            );
        }
        let rules = finished.summary.rules_by_failures(self.level);
        if !rules.is_empty() {
            let _ = writeln!(
                text,
                "\n| rule | cases | failed | verdict | rules | exact |"
            );
            let _ = writeln!(text, "|---|--:|--:|--:|--:|--:|");
            for (rule, tally) in rules {
                let _ = writeln!(
                    text,
                    "| {} | {} | {} | {} | {} | {} |",
                    markdown::code_cell(rule),
                    tally.cases,
                    tally.failed_at(self.level),
                    rate(tally, Level::Verdict),
                    rate(tally, Level::Rules),
                    rate(tally, Level::Exact)
                );
            }
        }
        let (known, failures): (Vec<_>, Vec<_>) = finished
            .cases
            .iter()
            .zip(finished.results)
            .filter_map(|(case, result)| {
                text::failure(self.set, result, self.level, Palette::PLAIN)
                    .map(|text| (case, result, text))
            })
            .partition(|(_, result, _)| matches!(result.baseline, Some(Mark::Known { .. })));
        if !failures.is_empty() {
            let _ = writeln!(text, "\n### Failures\n");
            for (case, _, failure) in failures.iter().take(MARKDOWN_FAILURES) {
                let fence = markdown::fence(failure);
                let _ = writeln!(
                    text,
                    "<details><summary><code>{}</code></summary>\n\n{fence}diff\n{}{fence}\n\n</details>\n",
                    markdown::html(&escape::line(&case.id())),
                    failure
                );
            }
            if failures.len() > MARKDOWN_FAILURES {
                let _ = writeln!(
                    text,
                    "… and {} more failures (the human report and `--report` have them all).",
                    failures.len() - MARKDOWN_FAILURES
                );
            }
        }
        if !known.is_empty() {
            let _ = writeln!(
                text,
                "\n### Known failures\n\nListed in the baseline, so they do not fail the run:\n"
            );
            for (case, result, _) in known.iter().take(MARKDOWN_FAILURES) {
                let reason = match &result.baseline {
                    Some(Mark::Known {
                        reason: Some(reason),
                        ..
                    }) => reason.as_str(),
                    _ => "(the baseline gives no reason)",
                };
                let _ = writeln!(
                    text,
                    "- {}: {}",
                    markdown::code(&case.id()),
                    markdown::text(reason)
                );
            }
            if known.len() > MARKDOWN_FAILURES {
                let _ = writeln!(text, "- … and {} more", known.len() - MARKDOWN_FAILURES);
            }
        }
        text
    }
}

impl Emitter for Markdown<'_> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) => self.started = Some((*started).clone()),
            Event::RunFinished(finished) => write_file(&self.path, &self.document(finished))?,
            Event::CaseFinished { .. } => {}
        }
        Ok(())
    }
}

/// `text` with its first letter in upper case, to open a sentence.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn write_file(path: &Path, text: &str) -> io::Result<()> {
    crate::file::write_output(path, text).map_err(io::Error::other)
}
