//! The regression view ([`crate::reports::regression::Regressions`]) as
//! Markdown for a pull-request comment: the counts, what differs between
//! the two reports (said first, and loudly, when they are of different
//! suites), a table of changes per rule and revision, then each changed
//! case with what its failing side got wrong.
//!
//! Everything that came from a report (names, rule IDs, case IDs,
//! pointers, file names) is escaped for Markdown and for a terminal, as
//! the view may be printed on stdout.

use std::fmt::Write as _;
use std::path::Path;

use crate::emit::markdown::{code_cell, text};
use crate::file::FileError;
use crate::reports::regression::{CaseChange, Change, Regressions, State, Warning};
use crate::suite::expectation::Finding;

/// How many cases each section lists; a pull-request comment has a size
/// limit, and the counts above say how many there are in all.
const MARKDOWN_CASES: usize = 100;

/// How many findings a case's row shows of each kind (missing, unexpected).
const FINDINGS_PER_CASE: usize = 5;

/// Writes the Markdown of `view` to `path`.
///
/// # Errors
///
/// The error of writing the file.
pub fn write_markdown(view: &Regressions, path: &Path) -> Result<(), FileError> {
    crate::file::write_output(path, &markdown(view))
}

/// One line that sums the view up: `1 new failure, 2 fixed, …`.
pub fn summary(view: &Regressions) -> String {
    let counts: Vec<String> = Change::ALL
        .iter()
        .map(|change| match (change, view.count(*change)) {
            (Change::NewFailure, 1) => "1 new failure".to_owned(),
            (change, count) => format!("{count} {}", change.title()),
        })
        .collect();
    format!("{}; {} unchanged", counts.join(", "), view.unchanged)
}

/// What each warning says, in plain words, for the page and for stderr.
pub fn warning_text(view: &Regressions, warning: &Warning) -> String {
    let (before, after) = (&view.before, &view.after);
    match warning {
        Warning::Suite => format!(
            "the reports are of different suites: {} of {}, {} of {}. Cases are compared by \
             ID; a case whose fixture or expectation changed may have changed with the suite, \
             not with the validator",
            before.path.display(),
            before.suite,
            after.path.display(),
            after.suite
        ),
        Warning::Implementation => format!(
            "the reports name different implementations: {} in {}, {} in {}",
            before.implementation.name,
            before.path.display(),
            after.implementation.name,
            after.path.display()
        ),
        Warning::Harness => format!(
            "the reports were written by different harness versions: {} and {}",
            before.harness, after.harness
        ),
    }
}

fn state_cell(state: Option<&State>) -> &'static str {
    state.map_or("(not in the report)", State::name)
}

/// What the failing side of `case` got wrong about `rule` (every rule when
/// `None`), as a cell.
fn differs(case: &CaseChange, rule: Option<&str>) -> String {
    let of_rule = |finding: &&Finding| rule.is_none_or(|rule| finding.rule == rule);
    let mut parts = Vec::new();
    for (word, findings) in [("missing", &case.missing), ("unexpected", &case.unexpected)] {
        let shown: Vec<&Finding> = findings.iter().filter(of_rule).collect();
        for finding in shown.iter().take(FINDINGS_PER_CASE) {
            let rule = if rule.is_some() {
                String::new()
            } else {
                format!("{} ", code_cell(&finding.rule))
            };
            parts.push(format!(
                "{word} {rule}{} {}",
                code_cell(&finding.path),
                finding.severity.as_str()
            ));
        }
        if shown.len() > FINDINGS_PER_CASE {
            parts.push(format!(
                "and {} more {word}",
                shown.len() - FINDINGS_PER_CASE
            ));
        }
    }
    if parts.is_empty() {
        "-".to_owned()
    } else {
        parts.join("; ")
    }
}

/// The rule of a group or a row, as a cell.
fn rule_cell(rule: Option<&str>) -> String {
    rule.map_or_else(|| "(no rule named)".to_owned(), code_cell)
}

/// The Markdown of `view`.
pub fn markdown(view: &Regressions) -> String {
    let mut out = String::new();
    let (before, after) = (&view.before, &view.after);
    let _ = writeln!(
        out,
        "## mcpdesc conformance: {} against {} at the {} level\n",
        text(&after.heading),
        text(&before.heading),
        view.level
    );
    let verdict = if view.count(Change::NewFailure) > 0 {
        "**New failures**"
    } else {
        "**No new failure**"
    };
    let _ = writeln!(out, "{verdict}: {}.\n", summary(view));
    for warning in &view.warnings {
        let _ = writeln!(
            out,
            "> [!WARNING]\n> {}.\n",
            text(&warning_text(view, warning))
        );
    }
    let _ = writeln!(out, "| | before | after |\n|---|---|---|");
    let rows: [(&str, String, String); 5] = [
        ("report", code_cell(&before.path.display().to_string()), {
            code_cell(&after.path.display().to_string())
        }),
        (
            "implementation",
            text(&format!(
                "{} {}",
                before.implementation.name, before.implementation.version
            )),
            text(&format!(
                "{} {}",
                after.implementation.name, after.implementation.version
            )),
        ),
        ("suite", code_cell(&before.suite), code_cell(&after.suite)),
        ("harness", text(&before.harness), text(&after.harness)),
        ("cases", before.cases.to_string(), after.cases.to_string()),
    ];
    for (what, old, new) in rows {
        let _ = writeln!(out, "| {what} | {old} | {new} |");
    }
    if view.changes.is_empty() {
        let _ = writeln!(out, "\nNo case changed.");
        return out;
    }
    let _ = writeln!(out, "\n### By rule and revision\n");
    let titles: String = Change::ALL
        .iter()
        .map(|change| format!(" {} |", change.title()))
        .collect();
    let _ = writeln!(out, "| rule | revision |{titles}");
    let _ = writeln!(out, "|---|---|{}", "--:|".repeat(Change::ALL.len()));
    for ((rule, revision), counts) in &view.groups {
        let counts: String = counts.iter().map(|count| format!(" {count} |")).collect();
        let _ = writeln!(
            out,
            "| {} | {} |{counts}",
            rule_cell(rule.as_deref()),
            revision.as_str()
        );
    }
    for change in Change::ALL {
        let count = view.count(change);
        if count == 0 {
            continue;
        }
        let title = change.title();
        let mut title = title.to_owned();
        if let Some(first) = title.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        let _ = writeln!(out, "\n### {title} ({count})\n");
        let _ = writeln!(
            out,
            "| rule | revision | case | before | after | what differs |\n\
             |---|---|---|---|---|---|"
        );
        // One row per case and rule it is listed under, so that the rows
        // of one rule and revision stand together.
        let mut rows: Vec<(Option<&str>, &CaseChange)> = view
            .changes
            .iter()
            .filter(|case| case.change == change)
            .flat_map(|case| {
                let rules: Vec<Option<&str>> = if case.rules.is_empty() {
                    vec![None]
                } else {
                    case.rules.iter().map(|rule| Some(rule.as_str())).collect()
                };
                rules.into_iter().map(move |rule| (rule, case))
            })
            .collect();
        rows.sort_by(|(a_rule, a), (b_rule, b)| {
            (a_rule, a.revision, &a.id).cmp(&(b_rule, b.revision, &b.id))
        });
        let total = rows.len();
        for (rule, case) in rows.into_iter().take(MARKDOWN_CASES) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                rule_cell(rule),
                case.revision.as_str(),
                code_cell(&case.id),
                state_cell(case.before.as_ref()),
                state_cell(case.after.as_ref()),
                differs(case, rule)
            );
        }
        if total > MARKDOWN_CASES {
            let _ = writeln!(out, "\nand {} more rows.", total - MARKDOWN_CASES);
        }
    }
    out
}
