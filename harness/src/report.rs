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

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use mcpdesc_protocol::Severity;

    use super::*;
    use crate::catalog::{Catalog, RuleIndex};
    use crate::compare::Comparison;
    use crate::suite::{Entry, Suite};
    use crate::tree::SuiteTree;

    /// A set holding one fixture of about 1 MB: `padding` short lines, then
    /// `items` array items, one per line, each with a `name` to point at.
    fn set_with_big_fixture(padding: usize, items: usize) -> SuiteSet {
        let mut text = String::from("{\"x-test\": \"many findings\",\n\"pad\": [\n");
        for _ in 0..padding {
            text.push_str("  0,\n");
        }
        text.push_str("  0],\n\"items\": [\n");
        for index in 0..items {
            let comma = if index + 1 < items { "," } else { "" };
            text.push_str(&format!("  {{\"name\": \"i-{index:08}\"}}{comma}\n"));
        }
        text.push_str("]}\n");
        let tree = SuiteTree::from_files([(
            "fixtures/s/expected-invalid/big.json".to_owned(),
            text.into_bytes(),
        )]);
        let (fixtures, _) = crate::fixture::discover(&tree, "s");
        let catalog = Catalog {
            suite: "s".into(),
            title: "t".into(),
            description: "d".into(),
            specification: "0.9.0".into(),
            rules: Vec::new(),
        };
        let entries = fixtures
            .into_iter()
            .map(|fixture| Entry {
                fixture,
                expectation: Err(SuiteProblem {
                    file: "unused".into(),
                    position: None,
                    message: "unused".into(),
                    kind: crate::suite::SuiteProblemKind::Broken,
                }),
            })
            .collect();
        SuiteSet {
            tree,
            suites: vec![Suite { catalog, entries }],
            rules: RuleIndex::default(),
            problems: Vec::new(),
        }
    }

    #[test]
    fn a_case_with_20000_findings_on_a_1_mb_fixture_renders_without_rescanning_the_fixture() {
        const FINDINGS: usize = 20_000;
        const PADDING: usize = 100_000;
        let set = set_with_big_fixture(PADDING, FINDINGS);
        let fixture = &set.suites[0].entries[0].fixture;
        assert!(fixture.text.len() >= 1_000_000, "{}", fixture.text.len());
        // Expected and never reported: every one is quoted with its line
        // (a report keeps all the expected findings, however many).
        let expected: Findings = (0..FINDINGS)
            .map(|index| Finding {
                rule: "mcpdesc.x".into(),
                path: format!("/items/{index}/name"),
                severity: Severity::Error,
            })
            .collect();
        let document = fixture.document.as_ref().unwrap().value.clone();
        let comparison = Comparison::new(
            expected,
            &[],
            &RuleIndex::default(),
            &document,
            Revision::R2025_06_18,
        );
        let result = CaseResult {
            fixture: fixture.id(),
            revision: Revision::R2025_06_18,
            outcome: Outcome::Compared(Box::new(comparison)),
            duration: Duration::ZERO,
        };
        // Rendering runs on its own thread so that a regression fails the
        // test instead of hanging it; the bound is a hang guard, not a
        // timing claim (the quadratic version took minutes here).
        let (sender, receiver) = mpsc::channel();
        let started = Instant::now();
        std::thread::spawn(move || {
            let text = failure(&set, &result, Level::Exact);
            let _ = sender.send(text);
        });
        let text = receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("rendering 20,000 findings must not take 30 seconds")
            .expect("the case fails");
        eprintln!("rendered in {:?}", started.elapsed());
        let last = FINDINGS - 1;
        let line = PADDING + 4 + FINDINGS;
        let wanted = format!(
            "-error mcpdesc.x \"/items/{last}/name\"  (line {line}: {{\"name\": \"i-{last:08}\"}})"
        );
        assert!(text.contains(&wanted), "{wanted} not in the report");
    }
}
