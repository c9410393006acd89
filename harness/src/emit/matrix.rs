//! The comparison of implementations ([`crate::reports::matrix::Matrix`]) as one
//! self-contained HTML page and as Markdown tables.
//!
//! The page needs nothing outside itself (no script, font or stylesheet
//! is fetched) and reads without JavaScript: the tables are plain tables,
//! each rule links to its cases in a `<details>` block. A few lines of
//! inline script only re-sort the matrix's rows. The same matrix always
//! gives the same bytes: nothing in it depends on the time or the machine.
//! Everything that came from a report (names, rule IDs, case IDs,
//! pointers) is escaped by `markdown::html`, the one HTML escape, on the
//! page, and by `markdown::text` or `markdown::code` in the Markdown,
//! which `compare` may print on a terminal.

use crate::judge::summary::Percent;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::emit::markdown::{self, html};
use crate::file::FileError;
use crate::reports::matrix::{Answer, Cell, Matrix};
use crate::suite::expectation::Finding;

/// How many disagreeing cases the Markdown lists per rule.
const MARKDOWN_CASES: usize = 10;

/// Writes the HTML page of `matrix` to `path`.
///
/// # Errors
///
/// The error of writing the file.
pub fn write_html(matrix: &Matrix, path: &Path) -> Result<(), FileError> {
    crate::file::write_output(path, &page(matrix))
}

/// Writes the Markdown tables of `matrix` to `path`.
///
/// # Errors
///
/// The error of writing the file.
pub fn write_markdown(matrix: &Matrix, path: &Path) -> Result<(), FileError> {
    crate::file::write_output(path, &tables(matrix))
}

/// A cell's text: `87.5% (7/8)`, or `-` when nothing was judged.
pub fn cell_text(cell: &Cell) -> String {
    match Percent::of(cell.passed, cell.judged) {
        Some(percent) => format!("{percent} ({}/{})", cell.passed, cell.judged),
        None => "-".to_owned(),
    }
}

/// A column's heading: the report's label, or the implementation's name
/// and version, told apart by the report's file where two are alike.
fn heading(matrix: &Matrix, column: usize) -> &str {
    &matrix.headings[column]
}

/// The `id` of a rule's section, `rule-<rule ID>`, the same on every page
/// made of the rule (so a link to it survives regeneration). A rule ID is
/// untrusted text and an `id` holds no space: every byte outside
/// `[A-Za-z0-9.-]` is written `_XX` (its hex), which keeps IDs apart.
pub fn rule_anchor(rule: &str) -> String {
    let mut anchor = String::from("rule-");
    for byte in rule.bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'.' || byte == b'-' {
            anchor.push(char::from(byte));
        } else {
            let _ = write!(anchor, "_{byte:02X}");
        }
    }
    anchor
}

/// The `x-` members an implementation announced, as `name: JSON` lines.
fn extensions(implementation: &mcpdesc_protocol::Implementation) -> Vec<String> {
    implementation
        .other
        .iter()
        .filter(|(name, _)| name.starts_with("x-"))
        .map(|(name, value)| format!("{name}: {value}"))
        .collect()
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#111}\
table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}\
td.rate{text-align:right;white-space:nowrap}\
td.none{color:#777;text-align:center}\
tr.disagree>th{background:#fde2b8}\
code{font-size:.9em}ul{margin:0;padding-left:1.1em}\
.missing{color:#a00}.extra{color:#a00;font-weight:bold}\
details{margin:.3em 0}summary{cursor:pointer}\
.scroll{overflow-x:auto;max-width:100%}\
th.case{white-space:nowrap}th.case details{white-space:normal;max-width:40em}\
pre.document{max-height:24em;overflow:auto;background:#f6f6f6;padding:.4em;white-space:pre}";

const SCRIPT: &str = "document.querySelectorAll('button[data-sort]').forEach(function(b){\
b.hidden=false;b.addEventListener('click',function(){\
var body=document.getElementById('matrix').tBodies[0],k=b.getAttribute('data-sort');\
var rows=Array.prototype.slice.call(body.rows);\
rows.sort(function(x,y){var rx=x.getAttribute('data-rule'),ry=y.getAttribute('data-rule');\
var byRule=rx<ry?-1:rx>ry?1:0;if(k==='rule')return byRule;\
var a=parseFloat(x.getAttribute('data-'+k)),c=parseFloat(y.getAttribute('data-'+k));\
if(k==='disagreements')return (c-a)||byRule;\
if(isNaN(a))a=1000;if(isNaN(c))c=1000;return (a-c)||byRule;});\
rows.forEach(function(r){body.appendChild(r);});});});";

/// A cell of the HTML matrix, coloured from red (0 %) to green (100 %).
fn html_cell(cell: &Cell) -> String {
    match cell.rate() {
        Some(rate) => {
            let hue = (rate * 1.2).round();
            format!(
                "<td class=\"rate\" style=\"background:hsl({hue},70%,82%)\">{}</td>",
                cell_text(cell)
            )
        }
        None => "<td class=\"none\">-</td>".to_owned(),
    }
}

fn html_findings(findings: &BTreeSet<Finding>, expected: Option<&BTreeSet<Finding>>) -> String {
    if findings.is_empty() {
        return "none".to_owned();
    }
    let mut text = String::from("<ul>");
    for finding in findings {
        let class = match expected {
            Some(expected) if !expected.contains(finding) => " class=\"extra\"",
            _ => "",
        };
        let _ = write!(
            text,
            "<li{class}><code>{}</code> {}</li>",
            html(&pointer(&finding.path)),
            html(finding.severity.as_str())
        );
    }
    text.push_str("</ul>");
    text
}

/// A pointer as shown: the empty pointer as `""`.
fn pointer(path: &str) -> String {
    if path.is_empty() {
        "\"\"".to_owned()
    } else {
        path.to_owned()
    }
}

/// The HTML page of `matrix`.
pub fn page(matrix: &Matrix) -> String {
    let mut out = String::new();
    let columns = matrix.implementations.len();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>mcpdesc conformance: implementations compared</title>\n<style>{STYLE}</style>\n\
         </head>\n<body>\n<h1>mcpdesc conformance: implementations compared</h1>\n\
         <p>Suite <code>{}</code>. Each cell is the pass rate at the <strong>{}</strong> level \
         over the judged cases that involve the rule (the suite expects it, or that \
         implementation reported it), with passed/judged; <em>-</em> when none was judged. \
         A disagreement is a case where implementations report different findings of the \
         rule.</p>\n",
        html(&matrix.suite),
        matrix.level
    );
    // The implementations.
    out.push_str(
        "<h2 id=\"implementations\">Implementations</h2>\n<table id=\"implementations-table\">\n\
         <thead><tr><th>#</th><th>column</th><th>name</th><th>version</th><th>language</th>\
         <th>announced</th><th>report</th><th>command line</th></tr></thead>\n<tbody>\n",
    );
    for (index, implementation) in matrix.implementations.iter().enumerate() {
        let announced: Vec<String> = extensions(implementation)
            .iter()
            .map(|line| format!("<code>{}</code>", html(line)))
            .collect();
        let command_line = matrix.command_lines[index]
            .iter()
            .map(|word| html(word))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td><code>{}</code></td><td><code>{command_line}</code></td></tr>",
            index + 1,
            html(heading(matrix, index)),
            html(&implementation.name),
            html(&implementation.version),
            html(&implementation.language),
            announced.join("<br>"),
            html(&matrix.files[index].display().to_string()),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    // The matrix.
    out.push_str("<h2 id=\"rules\">Rules</h2>\n<p>");
    out.push_str("<button type=\"button\" data-sort=\"rule\" hidden>sort by rule</button> ");
    out.push_str(
        "<button type=\"button\" data-sort=\"disagreements\" hidden>sort by disagreement</button>",
    );
    for column in 0..columns {
        let _ = write!(
            out,
            " <button type=\"button\" data-sort=\"impl-{column}\" hidden>sort by {}</button>",
            html(heading(matrix, column))
        );
    }
    out.push_str("</p>\n<table id=\"matrix\">\n<thead><tr><th>rule</th><th>disagreements</th>");
    for column in 0..columns {
        let _ = write!(out, "<th>{}</th>", html(heading(matrix, column)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &matrix.rules {
        let class = if row.disagreements > 0 {
            " class=\"disagree\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr{class} data-rule=\"{}\" data-disagreements=\"{}\"",
            html(&row.rule),
            row.disagreements
        );
        for (column, cell) in row.cells.iter().enumerate() {
            let rate = cell
                .rate()
                .map_or_else(String::new, |rate| format!("{rate}"));
            let _ = write!(out, " data-impl-{column}=\"{rate}\"");
        }
        let _ = write!(
            out,
            "><th><a href=\"#{}\">{}</a></th><td>{}</td>",
            rule_anchor(&row.rule),
            html(&row.rule),
            row.disagreements
        );
        for cell in &row.cells {
            out.push_str(&html_cell(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    // Per revision.
    out.push_str(
        "<h2 id=\"revisions\">Rules by revision</h2>\n<table id=\"by-revision\">\n\
         <thead><tr><th>rule</th><th>revision</th>",
    );
    for column in 0..columns {
        let _ = write!(out, "<th>{}</th>", html(heading(matrix, column)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &matrix.rules {
        for (revision, cells) in &row.per_revision {
            let _ = write!(
                out,
                "<tr><th><a href=\"#{}\">{}</a></th><td>{}</td>",
                rule_anchor(&row.rule),
                html(&row.rule),
                html(revision.as_str())
            );
            for cell in cells {
                out.push_str(&html_cell(cell));
            }
            out.push_str("</tr>\n");
        }
    }
    out.push_str("</tbody>\n</table>\n");
    // Each rule's cases.
    out.push_str("<h2 id=\"cases\">Cases by rule</h2>\n");
    if !matrix
        .rules
        .iter()
        .flat_map(|row| &row.cases)
        .any(|case| case.fixture.is_some())
    {
        out.push_str(
            "<p>The fixtures are not shown: this page was made without the suite the reports \
             ran.</p>\n",
        );
    }
    for row in &matrix.rules {
        let _ = write!(
            out,
            "<details id=\"{}\"><summary><code>{}</code>: {} case(s), {} disagreement(s)\
             </summary>\n<div class=\"scroll\"><table class=\"cases\">\n<thead><tr><th>case</th>\
             <th>expected</th>",
            rule_anchor(&row.rule),
            html(&row.rule),
            row.cases.len(),
            row.disagreements
        );
        for column in 0..columns {
            let _ = write!(out, "<th>{}</th>", html(heading(matrix, column)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for case in &row.cases {
            let class = if case.disagreement {
                " class=\"disagree\""
            } else {
                ""
            };
            let expected = case.expected.as_ref().map_or_else(
                || "not known".to_owned(),
                |expected| html_findings(expected, None),
            );
            let fixture = case.fixture.as_ref().map_or_else(String::new, |fixture| {
                let statement = fixture.statement.as_deref().map_or_else(
                    || "<p><em>no <code>x-test</code></em></p>".to_owned(),
                    |statement| format!("<p>{}</p>", html(statement)),
                );
                format!(
                    "<details><summary>fixture</summary>{statement}\
                     <pre class=\"document\">{}</pre></details>",
                    html(&fixture.text)
                )
            });
            let _ = write!(
                out,
                "<tr{class}><th class=\"case\"><code title=\"{id}\">{id}</code>{fixture}</th>\
                 <td>{expected}</td>",
                id = html(&case.id)
            );
            for answer in &case.answers {
                let text = match answer {
                    Answer::Findings {
                        findings,
                        complete,
                        passes,
                        failing_rules,
                    } => {
                        let mut text = html_findings(findings, case.expected.as_ref());
                        if let Some(expected) = &case.expected {
                            let missed: BTreeSet<&Finding> =
                                expected.difference(findings).collect();
                            for finding in missed {
                                let _ = write!(
                                    text,
                                    "<div class=\"missing\">missed <code>{}</code> {}</div>",
                                    html(&pointer(&finding.path)),
                                    html(finding.severity.as_str())
                                );
                            }
                        }
                        if !complete {
                            text.push_str("<div>(the report keeps only some findings)</div>");
                        }
                        let verdict = match passes {
                            Some(true) => "passes",
                            Some(false) => "fails",
                            None => "not judged",
                        };
                        let _ = write!(text, "<div><small>{verdict}</small></div>");
                        if !failing_rules.is_empty() {
                            let _ = write!(
                                text,
                                "<div class=\"cause\"><small>the case fails on {}</small></div>",
                                failing_rules
                                    .iter()
                                    .map(|rule| format!("<code>{}</code>", html(rule)))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            );
                        }
                        text
                    }
                    Answer::Other(kind) if kind == "unclaimed" => {
                        "<em>unclaimed: the validator does not claim this rule</em>".to_owned()
                    }
                    Answer::Other(kind) => format!("<em>{}</em>", html(kind)),
                    Answer::Absent => "<em>not in its report</em>".to_owned(),
                };
                let _ = write!(out, "<td>{text}</td>");
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table></div>\n</details>\n");
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// The Markdown tables of `matrix`.
pub fn tables(matrix: &Matrix) -> String {
    let mut out = String::new();
    let columns = matrix.implementations.len();
    let _ = writeln!(
        out,
        "## mcpdesc conformance: implementations compared at the {} level\n",
        matrix.level
    );
    let _ = writeln!(
        out,
        "Suite {}. Each cell is the pass rate over the judged cases that involve the rule \
         (the suite expects it, or that implementation reported it), with passed/judged.\n",
        markdown::code(&matrix.suite)
    );
    let _ = writeln!(out, "| # | implementation | version | language |");
    let _ = writeln!(out, "|--:|---|---|---|");
    for (index, implementation) in matrix.implementations.iter().enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            index + 1,
            markdown::text(&implementation.name),
            markdown::text(&implementation.version),
            markdown::text(&implementation.language)
        );
    }
    let headings: String = (0..columns)
        .map(|column| format!(" {} |", markdown::text(heading(matrix, column))))
        .collect();
    let aligns = "--:|".repeat(columns);
    let _ = writeln!(out, "\n### Rules\n");
    let _ = writeln!(out, "| rule | disagreements |{headings}");
    let _ = writeln!(out, "|---|--:|{aligns}");
    // One row of a table: its first two cells, then a rate per
    // implementation.
    let row_of = |out: &mut String, first: &str, second: &str, cells: &[Cell]| {
        let cells: String = cells
            .iter()
            .map(|cell| format!(" {} |", cell_text(cell)))
            .collect();
        let _ = writeln!(out, "| {first} | {second} |{cells}");
    };
    for row in &matrix.rules {
        let disagreements = row.disagreements.to_string();
        row_of(&mut out, &rule_cell(&row.rule), &disagreements, &row.cells);
    }
    let _ = writeln!(out, "\n### Rules by revision\n");
    let _ = writeln!(out, "| rule | revision |{headings}");
    let _ = writeln!(out, "|---|---|{aligns}");
    for row in &matrix.rules {
        for (revision, cells) in &row.per_revision {
            // A revision is a checked date: nothing in it to escape.
            row_of(&mut out, &rule_cell(&row.rule), revision.as_str(), cells);
        }
    }
    let disagreeing: Vec<_> = matrix
        .rules
        .iter()
        .filter(|row| row.disagreements > 0)
        .collect();
    if !disagreeing.is_empty() {
        let _ = writeln!(out, "\n### Disagreements\n");
        for row in disagreeing {
            let cases: Vec<String> = row
                .cases
                .iter()
                .filter(|case| case.disagreement)
                .take(MARKDOWN_CASES)
                .map(|case| markdown::code(&case.id))
                .collect();
            let more = row.disagreements.saturating_sub(MARKDOWN_CASES);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "- {}: {}{more}",
                markdown::code(&row.rule),
                cases.join(", ")
            );
        }
    }
    out
}

/// A rule ID in a table cell, as the run's Markdown summary shows it.
fn rule_cell(rule: &str) -> String {
    markdown::code_cell(rule)
}

#[cfg(test)]
mod tests {
    use super::rule_anchor;

    #[test]
    fn a_rule_anchor_is_the_rule_id_with_every_other_byte_spelled_out() {
        assert_eq!(
            rule_anchor("mcpdesc.document.shape"),
            "rule-mcpdesc.document.shape"
        );
        // No space, quote or markup survives; `_` is spelled out too, so
        // two rule IDs never share an anchor.
        assert_eq!(rule_anchor("a b\"<x>"), "rule-a_20b_22_3Cx_3E");
        assert_ne!(rule_anchor("a_20"), rule_anchor("a "));
    }
}
