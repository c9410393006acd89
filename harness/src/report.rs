//! Human-readable output: failures with diffs, suite problems, and the
//! summary of pass rates. Everything here formats results it is given; it
//! never reads a file.

use std::fmt::Write as _;

use mcpdesc_protocol::Revision;
use similar::TextDiff;

use crate::compare::Level;
use crate::escape;
use crate::expectation::{Finding, Findings};
use crate::fixture::Fixture;
use crate::runner::{CaseResult, Outcome};
use crate::suite::{SuiteProblem, SuiteSet};
use crate::summary::{Summary, Tally};

/// The longest fixture line quoted beside a pointer.
const QUOTE_WIDTH: usize = 72;

/// The failure report of `result`, or `None` when it passes at `level` (or
/// was skipped).
pub fn failure(set: &SuiteSet, result: &CaseResult, level: Level) -> Option<String> {
    if result.outcome.passes(level) != Some(false) {
        return None;
    }
    let entry = set.entry(&result.fixture);
    let fixture = entry.map(|entry| &entry.fixture);
    let mut text = String::new();
    let verdicts = Level::ALL
        .iter()
        .map(|level| {
            let word = match result.outcome.passes(*level) {
                Some(true) => "pass",
                Some(false) => "FAIL",
                None => "skip",
            };
            format!("{level}: {word}")
        })
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(
        text,
        "FAIL {} under {} ({verdicts})",
        escape::line(&result.fixture),
        result.revision
    );
    if let Some(fixture) = fixture {
        let _ = writeln!(
            text,
            "  fixture: {}",
            escape::line(&set.tree.display_path(&fixture.tree_path()))
        );
        if let Some(statement) = fixture.statement() {
            let _ = writeln!(text, "  tests:   {}", escape::line(statement));
        }
    }
    match &result.outcome {
        Outcome::Compared(comparison) => {
            let expected = finding_lines(&comparison.expected, fixture);
            let actual = finding_lines(&comparison.reported(), fixture);
            if expected != actual {
                let diff = TextDiff::from_lines(&expected, &actual);
                let unified = diff
                    .unified_diff()
                    .context_radius(3)
                    .header("expected", "actual")
                    .to_string();
                for line in unified.lines() {
                    let _ = writeln!(text, "  {line}");
                }
            }
            let hidden = comparison.unexpected_count - comparison.unexpected.len();
            if hidden > 0 {
                let _ = writeln!(
                    text,
                    "  … and {hidden} more unexpected findings ({} reported in all)",
                    comparison.actual_count
                );
            }
            for problem in &comparison.problems {
                let _ = writeln!(
                    text,
                    "  wrong whatever the expectation: {}: {}",
                    line_of(&problem.finding),
                    problem.kind
                );
            }
            let hidden = comparison.problem_count - comparison.problems.len();
            if hidden > 0 {
                let _ = writeln!(
                    text,
                    "  … and {hidden} more findings wrong whatever the expectation"
                );
            }
        }
        Outcome::Skipped(reason) => {
            let _ = writeln!(text, "  skipped: {}", escape::line(reason));
        }
        Outcome::ValidatorError(message) => {
            let _ = writeln!(
                text,
                "  the validator reported an error: {}",
                escape::line(message)
            );
        }
        Outcome::Crashed(message) => indented(&mut text, "crashed", message),
        Outcome::Timeout(message) => indented(&mut text, "timed out", message),
        Outcome::ProtocolError(message) => indented(&mut text, "protocol error", message),
        Outcome::NotRun(message) => indented(&mut text, "not run", message),
        Outcome::SuiteError(message) => {
            let _ = writeln!(text, "  suite error: {}", escape::line(message));
        }
        Outcome::Interrupted => {
            let _ = writeln!(
                text,
                "  interrupted: the run stopped before this case finished"
            );
        }
    }
    Some(text)
}

/// `label: message`, with the message's later lines (a stderr tail)
/// indented under it, so that none of them can pass for a line of the
/// report.
fn indented(text: &mut String, label: &str, message: &str) {
    let message = escape::lines(message);
    let mut lines = message.lines();
    let _ = writeln!(text, "  {label}: {}", lines.next().unwrap_or_default());
    for line in lines {
        let _ = writeln!(text, "    {line}");
    }
}

/// One line per finding: severity, rule, quoted pointer, and where the
/// pointer lands in the fixture with that line's text.
fn finding_lines(findings: &Findings, fixture: Option<&Fixture>) -> String {
    let mut text = String::new();
    for finding in findings {
        let _ = write!(text, "{}", line_of(finding));
        if let Some(fixture) = fixture {
            let _ = write!(text, "  {}", place(fixture, &finding.path));
        }
        text.push('\n');
    }
    text
}

fn line_of(finding: &Finding) -> String {
    let pointer = serde_json::Value::String(finding.path.clone()).to_string();
    format!(
        "{} {} {}",
        finding.severity,
        escape::line(&finding.rule),
        escape::line(&pointer)
    )
}

/// Where `pointer` lands in `fixture`: `(line 12: "name": "x",)`.
fn place(fixture: &Fixture, pointer: &str) -> String {
    let Ok(document) = &fixture.document else {
        return String::new();
    };
    match document.locations.get(pointer) {
        Some(position) => {
            let quoted = fixture
                .line(position.line)
                .map(str::trim)
                .unwrap_or_default();
            let quoted: String = if quoted.chars().count() > QUOTE_WIDTH {
                quoted.chars().take(QUOTE_WIDTH).chain(['…']).collect()
            } else {
                quoted.to_owned()
            };
            format!("(line {}: {})", position.line, escape::line(&quoted))
        }
        None => "(names nothing in the fixture)".to_owned(),
    }
}

/// The suite's own problems, one per line.
pub fn problems(problems: &[SuiteProblem]) -> String {
    let mut text = String::new();
    for problem in problems {
        let _ = writeln!(text, "suite error: {}", escape::line(&problem.to_string()));
    }
    text
}

/// The table of pass rates per revision and level, and the totals.
pub fn summary(summary: &Summary, decisive: Level) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<12} {:>6} {:>8} {:>8} {:>9} {:>9} {:>9}",
        "revision", "cases", "skipped", "errors", "verdict", "rules", "exact"
    );
    let row = |text: &mut String, name: &str, tally: &Tally| {
        let rate = |level| match tally.rate(level) {
            Some(rate) => format!("{rate:.1}%"),
            None => "-".to_owned(),
        };
        let _ = writeln!(
            text,
            "{name:<12} {:>6} {:>8} {:>8} {:>9} {:>9} {:>9}",
            tally.cases,
            tally.skipped,
            tally.errors,
            rate(Level::Verdict),
            rate(Level::Rules),
            rate(Level::Exact)
        );
    };
    for revision in Revision::ALL {
        if let Some(tally) = summary.per_revision.get(&revision) {
            row(&mut text, revision.as_str(), tally);
        }
    }
    row(&mut text, "all", &summary.total);
    let total = &summary.total;
    let _ = writeln!(
        text,
        "\n{} cases: {} passed and {} failed at the {decisive} level, {} skipped",
        total.cases,
        total.passed_at(decisive),
        total.failed_at(decisive),
        total.skipped
    );
    text
}
