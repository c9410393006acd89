//! What `show` prints about one case of the suite: the fixture as written,
//! with line numbers, its `x-test` member, the findings expected under
//! each revision asked for, and, when a validator was asked too, what it
//! reports and how that differs from the expectation.

use crate::emit::paint::Palette;
use std::fmt::Write as _;

use mcpdesc_protocol::Revision;

use crate::emit::{escape, text};
use crate::outcome::comparison::Level;
use crate::outcome::{CaseResult, Outcome};
use crate::suite::fixture::STATEMENT_MEMBER;
use crate::suite::{Entry, SuiteSet};

/// The fixture of `entry`: its ID, where it is, its revisions, its
/// `x-test` member and its text, numbered, as written (JSON or YAML).
pub fn fixture(set: &SuiteSet, entry: &Entry) -> String {
    let fixture = &entry.fixture;
    let mut out = String::new();
    let _ = writeln!(out, "fixture:   {}", escape::line(&fixture.id()));
    let place = match &set.tree.root {
        Some(_) => set.tree.display_path(&fixture.tree_path()),
        None => format!("built in, as {}", fixture.tree_path()),
    };
    let _ = writeln!(out, "file:      {}", escape::line(&place));
    let revisions: Vec<&str> = fixture.revisions().iter().map(Revision::as_str).collect();
    let _ = writeln!(out, "revisions: {}", revisions.join(", "));
    match (&fixture.document, &fixture.source) {
        (Ok(document), _) => {
            // Any JSON value may stand there; a sentence is shown as is.
            let member = match document.value.get(STATEMENT_MEMBER) {
                None => "(none)".to_owned(),
                Some(serde_json::Value::String(statement)) => statement.clone(),
                Some(other) => other.to_string(),
            };
            let _ = writeln!(out, "{STATEMENT_MEMBER}:    {}", escape::line(&member));
        }
        (Err(_), Some(_)) => {
            let statement = fixture.statement().unwrap_or("(none)");
            let _ = writeln!(out, "{STATEMENT_MEMBER}:    {}", escape::line(statement));
        }
        (Err(error), None) => {
            let _ = writeln!(
                out,
                "error:     the fixture does not load: {}",
                escape::line(&error.to_string())
            );
        }
    }
    if let Some(source) = &fixture.source {
        let _ = writeln!(
            out,
            "source:    a serialization case: validators that read {} source text get it as \
             written, with a null document",
            source.format
        );
        if let Err(error) = &fixture.document {
            let _ = writeln!(
                out,
                "           (the harness's strict loader refuses it: {})",
                escape::line(&error.to_string())
            );
        }
    }
    out.push('\n');
    out.push_str(&text::numbered(fixture, 1..=usize::MAX, None, None, ""));
    out
}

/// The findings the suite expects of `entry` under `revision`, each with
/// the line its pointer names, or why there is no expectation.
pub fn expected(entry: &Entry, revision: Revision) -> String {
    let mut out = String::new();
    match &entry.expectation {
        Ok(expectation) => match expectation.findings(revision) {
            Some(findings) => {
                let _ = writeln!(out, "expected under {revision}: {}", count(findings.len()));
                indent(
                    &mut out,
                    &text::finding_lines(&findings, Some(&entry.fixture)),
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "expected under {revision}: not known (the expectation file lists no such revision)"
                );
            }
        },
        Err(problem) => {
            let _ = writeln!(
                out,
                "expected under {revision}: not known ({})",
                escape::line(&problem.to_string())
            );
        }
    }
    out
}

/// What the validator `name` reported about `result`'s case, its verdict
/// at each level (`level` decides), and the diff against the expectation
/// as the human report shows it.
pub fn judged(set: &SuiteSet, name: &str, result: &CaseResult, level: Level) -> String {
    let fixture = set.get(result.entry).map(|entry| &entry.fixture);
    let mut out = String::new();
    let verdict = match result.outcome.passes(level) {
        Some(true) => "passes",
        Some(false) => "FAILS",
        None => "not judged",
    };
    let _ = writeln!(
        out,
        "{} under {}: {verdict} at the {level} level ({})",
        escape::line(name),
        result.revision,
        text::verdicts(&result.outcome, Palette::PLAIN)
    );
    if let Outcome::Compared(comparison) = &result.outcome {
        let reported = comparison.reported();
        let _ = writeln!(out, "  reports {}", count(comparison.actual_count));
        indent(&mut out, &text::finding_lines(&reported, fixture));
        if reported.len() < comparison.actual_count {
            let _ = writeln!(
                out,
                "    … and {} more",
                comparison.actual_count - reported.len()
            );
        }
    }
    // The document is printed whole above: no excerpts of it.
    out.push_str(&text::body(&result.outcome, fixture, false, Palette::PLAIN));
    out
}

fn count(findings: usize) -> String {
    match findings {
        0 => "no finding".to_owned(),
        1 => "1 finding".to_owned(),
        n => format!("{n} findings"),
    }
}

fn indent(out: &mut String, lines: &str) {
    for line in lines.lines() {
        let _ = writeln!(out, "    {line}");
    }
}
