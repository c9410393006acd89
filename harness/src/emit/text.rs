//! Human-readable output: failures with diffs, suite problems, and the
//! summary of pass rates. Everything here formats results it is given; it
//! never reads a file.

use std::fmt::Write as _;

use similar::TextDiff;

use crate::backend::external::Unavailable;
use crate::emit::escape;
use crate::emit::paint::{Palette, Style};
use crate::event::RunStarted;
use crate::judge::summary::{Summary, Tally};
use crate::outcome::comparison::Level;
use crate::outcome::failure::{Awaiting, Crash, ExtraLine, FailureKind, ProtocolProblem};
use crate::outcome::{CaseResult, NotRun, Outcome, Skip, Unclaimed};
use crate::suite::catalog::RuleIndex;
use crate::suite::expectation::{Finding, Findings};
use crate::suite::fixture::Fixture;
use crate::suite::{SuiteProblem, SuiteSet};

/// The longest fixture line quoted beside a pointer.
const QUOTE_WIDTH: usize = 72;

/// The failure report of `result`, or `None` when it passes at `level` (or
/// was skipped), coloured by `paint`.
pub fn failure(
    set: &SuiteSet,
    result: &CaseResult,
    level: Level,
    paint: Palette,
) -> Option<String> {
    if result.outcome.passes(level) != Some(false) {
        return None;
    }
    let fixture = set.get(result.entry).map(|entry| &entry.fixture);
    // A result from another suite set is a caller's bug; the report still
    // says what it can. The case ID, as `list` prints it, pastes into
    // `--filter` to select exactly this case.
    let id = fixture.map_or_else(
        || "(a case outside this suite)".to_owned(),
        |fixture| format!("{}@{}", fixture.id(), result.revision),
    );
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} {} ({})",
        paint.paint(Style::Fail, "FAIL"),
        escape::line(&id),
        verdicts(&result.outcome, paint)
    );
    if let Some(fixture) = fixture {
        // A built-in fixture is in no folder the reader has (a third-party
        // repository has no `fixtures/`): the command that shows it is.
        let place = match &set.tree.root {
            Some(_) => set.tree.display_path(&fixture.tree_path()),
            None => format!("built in; `{}` shows it", show_command(&id)),
        };
        let _ = writeln!(text, "  fixture: {}", escape::line(&place));
        if let Some(statement) = fixture.statement() {
            let _ = writeln!(text, "  tests:   {}", escape::line(statement));
        }
    }
    text.push_str(&body(&result.outcome, fixture, true, paint));
    Some(text)
}

/// The verdict at each level: `verdict: pass, rules: pass, exact: FAIL`
/// (`skip` where the outcome is not judged), coloured by `paint`.
pub(crate) fn verdicts(outcome: &Outcome, paint: Palette) -> String {
    Level::ALL
        .iter()
        .map(|level| {
            let word = match outcome.passes(*level) {
                Some(true) => paint.paint(Style::Pass, "pass"),
                Some(false) => paint.paint(Style::Fail, "FAIL"),
                None => Palette::PLAIN.paint(Style::Pass, "skip"),
            };
            format!("{level}: {word}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a report says under a case's first lines: the diff of expected and
/// reported findings (with the fixture's lines around each difference when
/// `with_excerpts`), or why there is no comparison; each line indented,
/// coloured by `paint`.
pub(crate) fn body(
    outcome: &Outcome,
    fixture: Option<&Fixture>,
    with_excerpts: bool,
    paint: Palette,
) -> String {
    let mut text = String::new();
    match outcome {
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
                // The lines are made of escaped text: colour goes around
                // them, never inside.
                for line in unified.lines() {
                    let _ = writeln!(text, "  {}", paint.diff_line(line));
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
            if let Some(fixture) = fixture.filter(|_| with_excerpts) {
                text.push_str(&excerpts(fixture, comparison));
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
        Outcome::Unclaimed(unclaimed) => {
            let _ = writeln!(text, "  {}", escape::line(&unclaimed_text(unclaimed)));
        }
        Outcome::Skipped(skip) => {
            let _ = writeln!(text, "  skipped: {}", escape::line(&skip_text(skip)));
        }
        Outcome::ValidatorError { message } => {
            let _ = writeln!(
                text,
                "  the validator reported an error: {}",
                escape::line(message)
            );
        }
        Outcome::Failed(failure) => {
            // On a case, a failure to start is that of a restart: the first
            // start was made before any case ran.
            let what = if failure.kind.while_starting() {
                format!(
                    "while (re)starting the validator: {}",
                    failure_text(&failure.kind)
                )
            } else {
                failure_text(&failure.kind)
            };
            indented(
                &mut text,
                failure_label(&failure.kind),
                &what,
                &failure.stderr,
            );
        }
        Outcome::NotRun(why) => indented(&mut text, "not run", &not_run_text(*why), ""),
        Outcome::SuiteError(why) => {
            let _ = writeln!(text, "  suite error: {}", escape::line(&why.to_string()));
        }
        Outcome::Interrupted => {
            let _ = writeln!(
                text,
                "  interrupted: the run stopped before this case finished"
            );
        }
    }
    text
}

/// The command that shows the case `id` (`mcpdesc-conformance show ID`),
/// the ID quoted for a shell when it holds anything but the characters of
/// plain names.
pub fn show_command(id: &str) -> String {
    let plain = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/@-+".contains(c));
    if plain {
        format!("mcpdesc-conformance show {id}")
    } else {
        format!("mcpdesc-conformance show '{}'", id.replace('\'', "'\\''"))
    }
}

/// `label: message`, and the last lines of `stderr` indented under it, so
/// that none of them can pass for a line of the report.
fn indented(text: &mut String, label: &str, message: &str, stderr: &str) {
    let _ = writeln!(text, "  {label}: {}", escape::line(message));
    let stderr = escape::lines(stderr.trim_end());
    if stderr.is_empty() {
        return;
    }
    let _ = writeln!(text, "    stderr (last lines):");
    for line in last_lines(&stderr) {
        let _ = writeln!(text, "      {line}");
    }
}

/// The last [`STDERR_LINES`] lines of a validator's stderr.
fn last_lines(stderr: &str) -> impl Iterator<Item = &str> {
    let count = stderr.lines().count();
    stderr.lines().skip(count.saturating_sub(STDERR_LINES))
}

/// How many of the last lines of a validator's stderr a report quotes.
const STDERR_LINES: usize = 20;

/// The word for a failure's kind in a report: `crashed`, `timed out`,
/// `protocol error`, `not started`.
pub(crate) fn failure_label(kind: &FailureKind) -> &'static str {
    match kind {
        FailureKind::NotStarted { .. } => "not started",
        FailureKind::Crashed(_) => "crashed",
        FailureKind::TimedOut { .. } => "timed out",
        FailureKind::Protocol(_) => "protocol error",
    }
}

/// What went wrong, in plain words, for adapter authors (without the
/// stderr tail).
pub(crate) fn failure_text(kind: &FailureKind) -> String {
    let awaited = |awaiting: &Awaiting| match awaiting {
        Awaiting::Start => "`start`",
        Awaiting::Reply => "the request",
        Awaiting::OneshotReply => "the document",
        Awaiting::Exit => "the document (and exiting)",
    };
    match kind {
        FailureKind::NotStarted { command, error } => format!("cannot start `{command}`: {error}"),
        FailureKind::TimedOut { after, awaiting } => {
            let limit = format!("{:.1}s", after.as_secs_f64());
            match awaiting {
                Awaiting::OneshotReply => format!("no complete reply within {limit}"),
                Awaiting::Exit => format!("the validator did not exit within {limit}"),
                other => format!("no reply to {} within {limit}", awaited(other)),
            }
        }
        FailureKind::Crashed(crash) => match crash {
            Crash::OutputEnded {
                partial: Some(partial),
                ..
            } => format!(
                "the validator wrote {partial} without a line break and closed its output (it exited mid-reply)"
            ),
            Crash::OutputEnded { awaiting, .. } => format!(
                "the validator exited (closed its output) before answering {}",
                awaited(awaiting)
            ),
            Crash::AbnormalExit {
                code: Some(code), ..
            } => {
                format!("the validator ended with exit status: {code} (only 0 and 1 are normal)")
            }
            Crash::AbnormalExit { signal, .. } => format!(
                "the validator was killed by {} (only exit statuses 0 and 1 are normal)",
                signal.map_or_else(
                    || "a signal".to_owned(),
                    |signal| format!("signal {signal}")
                )
            ),
            Crash::NoReply => "the validator exited without a reply".to_owned(),
            Crash::ReadFailed { error } => format!("cannot read the validator's output: {error}"),
            Crash::Panicked { message } => format!("the validator panicked: {message}"),
        },
        FailureKind::Protocol(problem) => match problem {
            ProtocolProblem::Reply { error, .. } => error.to_string(),
            ProtocolProblem::ExtraLine {
                replies,
                first,
                second,
            } => {
                let rule = "in one-shot mode stdout carries exactly one line, the reply; \
                            write logs and anything else on stderr";
                match replies {
                    ExtraLine::AfterReply => format!(
                        "after its reply the validator wrote another line on stdout: {second}; {rule}"
                    ),
                    ExtraLine::BeforeReply => format!(
                        "before its reply the validator wrote another line on stdout: {first}; {rule}"
                    ),
                    ExtraLine::TwoReplies => format!(
                        "the validator wrote two replies on stdout, the second: {second}; {rule}"
                    ),
                    ExtraLine::NoReply => format!(
                        "the validator wrote two lines on stdout and neither is a reply: {first}, \
                         then {second}; {rule}"
                    ),
                }
            }
            ProtocolProblem::TooLong { awaiting, limit } => format!(
                "the reply to {} is a line longer than the limit ({limit} bytes)",
                awaited(awaiting)
            ),
            ProtocolProblem::Unrequested {
                excerpt,
                after_reply,
            } => format!(
                "{} line nobody asked for: {excerpt}; \
                 write exactly one line per request on stdout, and everything else on stderr",
                if *after_reply {
                    "after its reply the validator wrote another"
                } else {
                    "before this request the validator wrote a"
                }
            ),
        },
    }
}

/// One line saying why a case that got no comparison failed (`crashed:
/// …`, `not run: …`); `None` for a compared, skipped or interrupted case.
pub(crate) fn outcome_line(outcome: &Outcome) -> Option<String> {
    let line = match outcome {
        Outcome::Failed(failure) => format!(
            "{}: {}",
            failure_label(&failure.kind),
            failure_text(&failure.kind)
        ),
        Outcome::ValidatorError { message } => {
            format!("the validator reported an error: {message}")
        }
        Outcome::NotRun(why) => format!("not run: {}", not_run_text(*why)),
        Outcome::SuiteError(problem) => format!("suite error: {problem}"),
        Outcome::Compared(_)
        | Outcome::Skipped(_)
        | Outcome::Unclaimed(_)
        | Outcome::Interrupted => return None,
    };
    Some(escape::line(&line).into_owned())
}

/// What went wrong, and the last lines of the validator's stderr under it
/// (for `smoke`, which indents the whole, and `diff`).
#[cfg(any(feature = "external", feature = "reports"))]
pub(crate) fn failure_with_stderr(failure: &crate::outcome::failure::Failure) -> String {
    let mut text = failure_text(&failure.kind);
    let stderr = failure.stderr.trim_end();
    if !stderr.is_empty() {
        text.push_str("\nstderr (last lines):");
        for line in last_lines(stderr) {
            text.push_str("\n  ");
            text.push_str(line);
        }
    }
    text
}

/// Why a case involving unclaimed rules is not judged, in words.
pub(crate) fn unclaimed_text(unclaimed: &Unclaimed) -> String {
    let rules: Vec<&str> = unclaimed.rules.iter().map(String::as_str).collect();
    format!(
        "unclaimed: the case involves {} the validator does not claim to check: {}",
        if rules.len() == 1 { "a rule" } else { "rules" },
        rules.join(", ")
    )
}

/// Why a case was skipped, in words.
pub(crate) fn skip_text(skip: &Skip) -> String {
    match skip {
        Skip::Unannounced => "the validator does not announce this revision".to_owned(),
        Skip::SourceTextUnannounced { format } => {
            format!("the validator does not announce that it reads {format} source text")
        }
        Skip::Declined {
            reason,
            issue: Some(issue),
        } => format!("{reason} ({issue})"),
        Skip::Declined { reason, .. } => reason.clone(),
    }
}

/// Why a case was not run, in words.
pub(crate) fn not_run_text(why: NotRun) -> String {
    match why {
        NotRun::Unavailable => "the validator could not be started".to_owned(),
        NotRun::GaveUp { failures } => {
            format!("gave up on the validator after {failures} failures in a row")
        }
        NotRun::Lost => "the harness lost this case (a bug: please report it)".to_owned(),
    }
}

/// Why an external validator could not be run at all, with the last lines
/// of its stderr indented under it.
pub fn unavailable(unavailable: &Unavailable) -> String {
    match unavailable {
        Unavailable::Failed(failure) => {
            let mut text = String::new();
            indented(
                &mut text,
                "the validator could not be started",
                &failure_text(&failure.kind),
                &failure.stderr,
            );
            text.trim_start().to_owned()
        }
        Unavailable::NotFound { program } => format!(
            "the validator could not be started: cannot find `{}` (give a path, or a program on PATH)",
            escape::line(program)
        ),
    }
}

/// One line per finding: severity, rule, quoted pointer, and where the
/// pointer lands in the fixture with that line's text.
pub(crate) fn finding_lines(findings: &Findings, fixture: Option<&Fixture>) -> String {
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

/// How many lines an excerpt shows on each side of the line a pointer
/// names.
const EXCERPT_RADIUS: usize = 2;

/// How many excerpts one failure shows at most: a validator that reports
/// thousands of wrong findings must not bury the report under them.
pub const MAX_EXCERPTS: usize = 5;

/// The widest excerpt line shown whole (a minified fixture is one long
/// line).
const EXCERPT_WIDTH: usize = 120;

/// The lines of the fixture around each missed or unexpected finding's
/// pointer, the pointed line marked with `>`: one excerpt per line pointed
/// at, in line order, at most [`MAX_EXCERPTS`], the rest counted.
fn excerpts(fixture: &Fixture, comparison: &crate::outcome::comparison::Comparison) -> String {
    let Ok(document) = &fixture.document else {
        return String::new();
    };
    // The pointers on each line, each said once with how it differs.
    let mut lines: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    let differences = comparison
        .missing
        .iter()
        .map(|finding| (finding, "expected, not reported"))
        .chain(
            comparison
                .unexpected
                .iter()
                .map(|finding| (finding, "reported, not expected")),
        );
    for (finding, how) in differences {
        if let Some(position) = document.locations.get(&finding.path) {
            let pointer = serde_json::Value::String(finding.path.clone()).to_string();
            let said = format!("{} {how}", escape::line(&pointer));
            let pointers = lines.entry(position.line).or_default();
            if !pointers.contains(&said) {
                pointers.push(said);
            }
        }
    }
    let mut text = String::new();
    for (line, pointers) in lines.iter().take(MAX_EXCERPTS) {
        let _ = writeln!(text, "  line {line}: {}", pointers.join(", "));
        let first = line.saturating_sub(EXCERPT_RADIUS).max(1);
        text.push_str(&numbered(
            fixture,
            first..=line + EXCERPT_RADIUS,
            Some(*line),
            Some(EXCERPT_WIDTH),
            "    ",
        ));
    }
    let hidden = lines.len().saturating_sub(MAX_EXCERPTS);
    if hidden > 0 {
        let _ = writeln!(
            text,
            "  … and {hidden} more lines of the fixture with differences (at most {MAX_EXCERPTS} shown)"
        );
    }
    text
}

/// The fixture's lines in `lines` (those that exist), each escaped, after
/// `indent` and its number, the `marked` one flagged with `>`; lines wider
/// than `width` characters are cut.
pub(crate) fn numbered(
    fixture: &Fixture,
    lines: std::ops::RangeInclusive<usize>,
    marked: Option<usize>,
    width: Option<usize>,
    indent: &str,
) -> String {
    let digits = fixture.line_starts().len().max(1).to_string().len();
    let mut text = String::new();
    for number in lines {
        let Some(line) = fixture.line(number) else {
            break;
        };
        let line = escape::line(line);
        let line: String = match width {
            Some(width) if line.chars().count() > width => {
                line.chars().take(width).chain(['…']).collect()
            }
            _ => line.into_owned(),
        };
        let mark = if marked == Some(number) { '>' } else { ' ' };
        let _ = writeln!(text, "{indent}{mark} {number:>digits$} | {line}");
    }
    text
}

/// The suite's own problems, one per line.
pub fn problems(problems: &[SuiteProblem]) -> String {
    let mut text = String::new();
    for problem in problems {
        let _ = writeln!(text, "suite error: {}", escape::line(&problem.to_string()));
    }
    text
}

/// The table of pass rates per revision and level, and the totals,
/// coloured by `paint`.
pub(crate) fn summary(summary: &Summary, decisive: Level, paint: Palette) -> String {
    let mut text = String::new();
    // The unclaimed column only when some case is: most validators claim
    // every rule, and their table stays as it was.
    let unclaimed = summary.total.unclaimed > 0;
    let _ = writeln!(
        text,
        "{:<12} {:>6} {:>8}{} {:>8} {:>9} {:>9} {:>9}",
        "revision",
        "cases",
        "skipped",
        if unclaimed { " unclaimed" } else { "" },
        "errors",
        "verdict",
        "rules",
        "exact"
    );
    let row = |text: &mut String, name: &str, tally: &Tally| {
        let rate = |level| paint.rate(tally, level);
        let _ = writeln!(
            text,
            "{name:<12} {:>6} {:>8}{} {:>8} {:>9} {:>9} {:>9}",
            tally.cases,
            tally.skipped,
            if unclaimed {
                format!(" {:>9}", tally.unclaimed)
            } else {
                String::new()
            },
            tally.errors,
            rate(Level::Verdict),
            rate(Level::Rules),
            rate(Level::Exact)
        );
    };
    // Oldest first: the map's order.
    for (revision, tally) in &summary.per_revision {
        row(&mut text, revision.as_str(), tally);
    }
    row(&mut text, "all", &summary.total);
    let total = &summary.total;
    let (passed, failed) = (total.passed_at(decisive), total.failed_at(decisive));
    let _ = write!(
        text,
        "\n{} cases: {} and {} at the {decisive} level, {} skipped",
        total.cases,
        paint.paint_if(passed > 0, Style::Pass, format!("{passed} passed")),
        paint.paint_if(failed > 0, Style::Fail, format!("{failed} failed")),
        total.skipped
    );
    // Said only when there are any: most validators claim every rule.
    if total.unclaimed > 0 {
        let _ = write!(text, ", {} unclaimed", total.unclaimed);
    }
    text.push('\n');
    text
}

/// Claimed rule IDs that no catalog defines, in words: `a rule that no
/// catalog defines: `x` (did you mean `y`?)`, naming the catalogued rule
/// each is likely a misspelling of.
pub fn unknown_rules(unknown: &[String], rules: &RuleIndex) -> String {
    let nearest = |id: &str| {
        rules
            .iter()
            .map(|rule| (crate::suite::case::edit_distance(id, &rule.id), &rule.id))
            .filter(|(distance, _)| *distance <= 3.max(id.len() / 5))
            .min()
            .map_or_else(String::new, |(_, rule)| {
                format!(" (did you mean `{rule}`?)")
            })
    };
    format!(
        "{} that no catalog defines: {}",
        if unknown.len() == 1 {
            "a rule"
        } else {
            "rules"
        },
        unknown
            .iter()
            .map(|id| format!("`{}`{}", escape::line(id), nearest(id)))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// What a run's rates are rates of, in one line: the suite's version, the
/// level, the rules the validator is judged on (of all the catalogs'), and
/// the cases left unclaimed. Every output that shows a rate says it.
pub(crate) fn coverage(started: &RunStarted, total: &Tally, level: Level) -> String {
    let claims = &started.claims;
    // A validator that lists no rules is judged on all of them.
    let rules = if claims.is_full() {
        format!("all {} rules", claims.catalog)
    } else {
        format!(
            "{} of the {} rules (those the validator claims)",
            claims.claimed, claims.catalog
        )
    };
    let mut text = format!(
        "rates of suite {} at the {level} level, on {rules}",
        started.suite.version
    );
    if total.unclaimed > 0 {
        let _ = write!(
            text,
            "; {} of {} cases unclaimed (they expect findings of other rules only), not judged",
            total.unclaimed, total.cases
        );
    }
    text
}

/// The per-rule table: for each rule, the compared cases that involve it
/// (the suite expects it or the validator reported it) and the pass rate
/// at each level; the rules that fail most at `decisive` first; coloured by
/// `paint`.
pub(crate) fn rules(summary: &Summary, decisive: Level, paint: Palette) -> String {
    let rows = summary.rules_by_failures(decisive);
    if rows.is_empty() {
        return String::new();
    }
    // Rule IDs may come from the validator: escaped, and cut to a width.
    let names: Vec<String> = rows
        .iter()
        .map(|(rule, _)| {
            let rule = escape::line(rule);
            if rule.chars().count() > RULE_WIDTH {
                rule.chars().take(RULE_WIDTH - 1).chain(['…']).collect()
            } else {
                rule.into_owned()
            }
        })
        .collect();
    let width = names
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<width$} {:>6} {:>8} {:>9} {:>9} {:>9}",
        "rule", "cases", "failed", "verdict", "rules", "exact"
    );
    for (name, (_, tally)) in names.iter().zip(&rows) {
        let rate = |level| paint.rate(tally, level);
        let _ = writeln!(
            text,
            "{name:<width$} {:>6} {:>8} {:>9} {:>9} {:>9}",
            tally.cases,
            tally.failed_at(decisive),
            rate(Level::Verdict),
            rate(Level::Rules),
            rate(Level::Exact)
        );
    }
    text
}

/// The pass rate of `tally` at `level` as a table shows it: `97.3%`, or
/// `-` when no case was judged.
pub(crate) fn percent(tally: &Tally, level: Level) -> String {
    tally
        .percent(level)
        .map_or_else(|| "-".to_owned(), |percent| percent.to_string())
}

/// The widest rule ID the per-rule table shows whole.
const RULE_WIDTH: usize = 60;

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use mcpdesc_protocol::Severity;

    use super::*;
    use crate::outcome::comparison::Comparison;
    use crate::suite::catalog::{Catalog, RuleIndex};
    use crate::suite::tree::SuiteTree;
    use crate::suite::{Entry, Suite};

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
        let revisions = crate::suite::builtin_revisions();
        let (fixtures, _) = crate::suite::fixture::discover(
            &tree,
            "s",
            crate::suite::catalog::Input::Document,
            &revisions,
            &|_| true,
        );
        let catalog = Catalog {
            suite: "s".into(),
            title: "t".into(),
            description: "d".into(),
            specification: "0.9.0".into(),
            input: crate::suite::catalog::Input::Document,
            rules: Vec::new(),
            conventions: Vec::new(),
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
            revisions,
            changelog: Default::default(),
            requirements: Default::default(),
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
            Some(&document),
            mcpdesc_protocol::Revision::of("2025-06-18"),
        );
        let result = CaseResult {
            entry: crate::suite::EntryIndex { suite: 0, entry: 0 },
            revision: mcpdesc_protocol::Revision::of("2025-06-18"),
            outcome: Outcome::Compared(Box::new(comparison)),
            duration: Duration::ZERO,
            baseline: None,
        };
        // Rendering runs on its own thread so that a regression fails the
        // test instead of hanging it; the bound is a hang guard, not a
        // timing claim (the quadratic version took minutes here).
        let (sender, receiver) = mpsc::channel();
        let started = Instant::now();
        std::thread::spawn(move || {
            let text = failure(&set, &result, Level::Exact, Palette::PLAIN);
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
        // The excerpts are capped, and the rest counted.
        assert_eq!(
            text.matches("\n    > ").count(),
            MAX_EXCERPTS,
            "{}",
            &text[..2000]
        );
        let left_out = FINDINGS - MAX_EXCERPTS;
        let wanted = format!("  … and {left_out} more lines of the fixture with differences");
        assert!(text.contains(&wanted), "{wanted} not in the report");
        let first = PADDING + 5;
        let wanted = format!(
            "  line {first}: \"/items/0/name\" expected, not reported\n      {} |   0],\n",
            PADDING + 3
        );
        assert!(
            text.contains(&wanted),
            "{wanted} not in\n{}",
            &text[text.len() - 3000..]
        );
    }
}
