//! A run's conformance statement ([`crate::reports::statement`]): made
//! from the run's events by [`Certify`], written as JSON and rendered as
//! Markdown for a README to link to.

use std::fmt::Write as _;
use std::io;

use crate::baseline::Entry;
use crate::emit::markdown;
use crate::event::{Event, RunStarted};
use crate::judge::summary::Percent;
use crate::reports::statement::{Counts, Profile, Statement};

use super::Emitter;

/// Makes the statement of a run from its events, into `out`.
pub struct Certify<'a> {
    baseline: Vec<Entry>,
    started: Option<RunStarted>,
    out: &'a mut Option<Statement>,
}

impl<'a> Certify<'a> {
    /// The statement of a run whose baseline lists `baseline`, made into
    /// `out` when the run finishes.
    pub fn new(baseline: Vec<Entry>, out: &'a mut Option<Statement>) -> Certify<'a> {
        Certify {
            baseline,
            started: None,
            out,
        }
    }
}

impl Emitter for Certify<'_> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::RunStarted(started) => self.started = Some((*started).clone()),
            Event::RunFinished(finished) => {
                if let Some(started) = &self.started {
                    *self.out = Some(Statement::of(started, finished, &self.baseline));
                }
            }
            Event::CaseFinished { .. } => {}
        }
        Ok(())
    }
}

/// Writes `statement` as JSON at `path`, and as Markdown at `markdown`
/// when given, each replaced whole or not at all.
///
/// # Errors
///
/// The file that could not be written, and why.
pub fn write(
    statement: &Statement,
    path: Option<&std::path::Path>,
    markdown: Option<&std::path::Path>,
) -> Result<(), crate::file::FileError> {
    if let Some(path) = path {
        crate::file::write_output(path, &json(statement))?;
    }
    if let Some(markdown) = markdown {
        crate::file::write_output(markdown, &render(statement))?;
    }
    Ok(())
}

/// The statement as JSON, pretty-printed with a final line break.
pub fn json(statement: &Statement) -> String {
    let mut text = serde_json::to_string_pretty(statement).unwrap_or_default();
    text.push('\n');
    text
}

/// The statement as Markdown: what it certifies in a sentence, its facts in
/// a table, the results per revision and per rule, the known failures, and
/// the command that checks it.
pub fn render(statement: &Statement) -> String {
    // Every value from the statement is untrusted (a validator's name,
    // a report's rule IDs): names and prose through `markdown::text`,
    // identifiers as code spans.
    let cell = markdown::text;
    let implementation = &statement.implementation;
    let name = format!("{} {}", implementation.name, implementation.version);
    let mut text = format!("# Conformance statement: {}\n\n", cell(&name));
    let claims = &statement.claims;
    let what = match statement.profile {
        Profile::Full => format!(
            "every one of the suite's {} rules claimed, and every case of the suite judged \
             passes at the exact level",
            claims.catalog
        ),
        Profile::Partial => format!(
            "every judged case passes at the {} level or is a declared known failure, on {} of \
             the suite's {} rules",
            statement.level, claims.claimed, claims.catalog
        ),
        Profile::Failing => {
            "some judged case fails that no known failure declares: this statement certifies its \
             figures only"
                .to_owned()
        }
    };
    let _ = writeln!(
        text,
        "**Profile: {}**: {what}.\n",
        statement.profile.as_str()
    );
    let selection = if statement.selection.is_empty() {
        "the whole suite".to_owned()
    } else {
        cell(&statement.selection.join(" "))
    };
    let rules = match &claims.listed {
        None => format!(
            "{}/{} (the validator lists none: all are judged)",
            claims.claimed, claims.catalog
        ),
        Some(listed) => format!(
            "{}/{} ({})",
            claims.claimed,
            claims.catalog,
            listed
                .iter()
                .map(|rule| markdown::code_cell(rule))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    // Each value as Markdown, ready for its cell.
    let rows = [
        ("implementation", cell(&name)),
        ("language", cell(&implementation.language)),
        (
            "harness",
            cell(&format!(
                "{} {}",
                statement.harness.name, statement.harness.version
            )),
        ),
        (
            "suite",
            format!(
                "{} ({})",
                cell(&statement.suite.version),
                markdown::code_cell(&statement.suite.hash)
            ),
        ),
        (
            "specification",
            format!("MCP Description {}", cell(&statement.specification)),
        ),
        (
            "MCP revisions judged",
            cell(&statement.revisions.join(", ")),
        ),
        ("level", cell(&statement.level)),
        ("rules", rules),
        ("selection", selection),
        ("known failures", statement.known_failures.len().to_string()),
    ];
    let _ = writeln!(text, "| | |\n|---|---|");
    for (key, value) in rows {
        let _ = writeln!(text, "| {key} | {value} |");
    }
    // `name` shows a row's name: a revision as text, a rule ID as code.
    let table = |text: &mut String,
                 title: &str,
                 name: fn(&str) -> String,
                 rows: &mut dyn Iterator<Item = (&str, &Counts)>| {
        let _ = writeln!(
            text,
            "\n## {title}\n\n| | cases | judged | passed | failed | skipped | unclaimed | rate |\n|---|--:|--:|--:|--:|--:|--:|--:|"
        );
        for (row, counts) in rows {
            let name = name(row);
            let rate = Percent::of(counts.passed, counts.judged)
                .map_or_else(|| "-".to_owned(), |percent| percent.to_string());
            let _ = writeln!(
                text,
                "| {name} | {} | {} | {} | {} | {} | {} | {rate} |",
                counts.cases,
                counts.judged,
                counts.passed,
                counts.failed,
                counts.skipped,
                counts.unclaimed
            );
        }
    };
    let results = &statement.results;
    table(
        &mut text,
        "Per MCP revision",
        markdown::text,
        &mut results
            .per_revision
            .iter()
            .map(|(revision, counts)| (revision.as_str(), counts))
            .chain([("all", &results.total)]),
    );
    table(
        &mut text,
        "Per rule",
        markdown::code_cell,
        &mut results
            .per_rule
            .iter()
            .map(|(rule, counts)| (rule.as_str(), counts)),
    );
    if !statement.known_failures.is_empty() {
        let _ = writeln!(text, "\n## Known failures\n");
        for failure in &statement.known_failures {
            let case = match &failure.revision {
                Some(revision) => format!("{}@{revision}", failure.case),
                None => failure.case.clone(),
            };
            let _ = write!(
                text,
                "- {}: {}",
                markdown::code(&case),
                cell(failure.reason.as_deref().unwrap_or("(no reason given)"))
            );
            if let Some(link) = &failure.link {
                let _ = write!(text, " ({})", cell(link));
            }
            text.push('\n');
        }
    }
    let _ = writeln!(
        text,
        "\n## Checking it\n\n```sh\nmcpdesc-conformance certify --check statement.json --validator \"…\"\n```\n\n\
         re-runs the stated selection against the validator and says whether every figure above \
         still holds (exit status 0) or where it no longer does (1)."
    );
    text
}
