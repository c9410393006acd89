//! `compare`: three implementations (the reference validator, the Python
//! example, and the reference validator behind a wrapper that drops one
//! rule's findings and calls itself `<script>…`) compared from their
//! reports. The HTML page's tables are parsed (with `scraper`) and checked
//! cell by cell against rates taken from the reports' own per-rule and
//! rule × revision tallies; the Markdown is snapshot-tested on a few
//! fixtures, so that adding a fixture to the suite changes no snapshot.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;

use scraper::{ElementRef, Html, Selector};
use serde_json::Value;

use super::modes::reference_binary;
use super::schemas::{assert_valid, schemas};
use super::*;

/// The rule the broken variant never reports.
const DROPPED: &str = "mcpdesc.document.shape";

/// The name the broken variant gives itself.
const HOSTILE: &str = "broken <script>alert(1)</script>";

/// A session-mode wrapper around `mcpdesc-validate --stdio` that drops the
/// findings of the rule its second argument names and renames the
/// implementation after its third (an empty argument: neither), and adds
/// the members of the JSON object its fourth argument holds, if any, to
/// the implementation.
const WRAPPER: &str = r#"
import json, subprocess, sys
inner = subprocess.Popen([sys.argv[1], "--stdio"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    inner.stdin.write(line)
    inner.stdin.flush()
    if json.loads(line).get("cmd") == "stop":
        break
    reply = json.loads(inner.stdout.readline())
    if "implementation" in reply:
        if sys.argv[3]:
            reply["implementation"]["name"] = sys.argv[3]
        if len(sys.argv) > 4:
            reply["implementation"].update(json.loads(sys.argv[4]))
    if "diagnostics" in reply:
        reply["diagnostics"] = [d for d in reply["diagnostics"] if d["rule"] != sys.argv[2]]
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
inner.stdin.close()
inner.wait()
"#;

/// The three implementations' reports in `dir`, from runs with `args`.
fn three_reports(dir: &Path, args: &[&str]) -> [String; 3] {
    fs::write(dir.join("wrapper.py"), WRAPPER).unwrap();
    let python = format!(
        "python3 {}",
        workspace()
            .join("examples/python-validator/validator.py")
            .display()
    );
    let broken = shlex::try_join([
        "python3",
        dir.join("wrapper.py").to_str().unwrap(),
        reference_binary().to_str().unwrap(),
        DROPPED,
        HOSTILE,
    ])
    .unwrap();
    let runs: [(&str, Vec<&str>); 3] = [
        ("reference.json", vec![]),
        ("python.json", vec!["--validator", &python]),
        ("broken.json", vec!["--validator", &broken]),
    ];
    for (name, validator) in &runs {
        let output = harness()
            .current_dir(dir)
            .args(["run", "--quiet", "--report", name])
            .args(validator)
            .args(args)
            .output()
            .unwrap();
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{name}: {}",
            stderr_of(&output)
        );
    }
    runs.map(|(name, _)| name.to_owned())
}

fn compare(dir: &Path, reports: &[String], outputs: &[&str]) {
    let output = harness()
        .current_dir(dir)
        .arg("compare")
        .args(reports)
        .args(outputs)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// A cell's text from a report's tally at the exact level.
fn expected_cell(tally: Option<&Value>) -> String {
    let Some(tally) = tally else {
        return "-".to_owned();
    };
    let exact = &tally["levels"]["exact"];
    let passed = exact["passed"].as_u64().unwrap();
    let judged = passed + exact["failed"].as_u64().unwrap();
    if judged == 0 {
        return "-".to_owned();
    }
    // Rounded down to a tenth, as every output rounds.
    let permille = passed * 1000 / judged;
    format!("{}.{}% ({passed}/{judged})", permille / 10, permille % 10)
}

fn text(element: ElementRef<'_>) -> String {
    element.text().collect::<String>().trim().to_owned()
}

/// The rows of the table `id`: each row's header and data cells' texts.
fn rows(page: &Html, id: &str) -> Vec<Vec<String>> {
    let row = Selector::parse(&format!("table#{id} > tbody > tr")).unwrap();
    let cell = Selector::parse("th, td").unwrap();
    page.select(&row)
        .map(|row| row.select(&cell).map(text).collect())
        .collect()
}

#[test]
fn the_page_shows_each_implementations_rates_rule_by_rule() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let reports = three_reports(dir, &[]);
    compare(
        dir,
        &reports,
        &["--html", "page.html", "--markdown", "page.md"],
    );
    let html = fs::read_to_string(dir.join("page.html")).unwrap();
    let page = Html::parse_document(&html);
    let documents: Vec<Value> = reports
        .iter()
        .map(|name| read_json(&dir.join(name)))
        .collect();

    // The column headings name the implementations, escaped.
    let heading = Selector::parse("table#matrix > thead th").unwrap();
    let headings: Vec<String> = page.select(&heading).map(text).collect();
    assert_eq!(
        headings,
        [
            "rule",
            "disagreements",
            "mcpdesc-reference 0.1.0",
            "python-example 0.1.0",
            &format!("{HOSTILE} 0.1.0"),
        ]
    );

    // Rules × implementations, against each report's per-rule tallies.
    let rules: BTreeSet<String> = documents
        .iter()
        .flat_map(|document| {
            document["summary"]["perRule"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
        })
        .collect();
    let matrix = rows(&page, "matrix");
    assert_eq!(
        matrix.iter().map(|row| row[0].clone()).collect::<Vec<_>>(),
        rules.iter().cloned().collect::<Vec<_>>()
    );
    for row in &matrix {
        for (column, document) in documents.iter().enumerate() {
            assert_eq!(
                row[2 + column],
                expected_cell(document["summary"]["perRule"].get(&row[0])),
                "{} in column {column}",
                row[0]
            );
        }
    }
    // The dropped rule: the reference passes it all, the broken variant
    // does not, and they disagree.
    let dropped = matrix.iter().find(|row| row[0] == DROPPED).unwrap();
    assert!(dropped[2].starts_with("100.0% "), "{dropped:?}");
    assert!(!dropped[4].starts_with("100.0% "), "{dropped:?}");
    assert_ne!(dropped[1], "0", "{dropped:?}");

    // Rules × revisions × implementations, against the reports' matrices.
    let tallies: Vec<BTreeMap<(String, String), Value>> = documents
        .iter()
        .map(|document| {
            document["matrix"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| {
                    let key = (
                        row["rule"].as_str().unwrap().to_owned(),
                        row["revision"].as_str().unwrap().to_owned(),
                    );
                    (key, row.clone())
                })
                .collect()
        })
        .collect();
    let keys: BTreeSet<&(String, String)> = tallies.iter().flat_map(BTreeMap::keys).collect();
    let by_revision = rows(&page, "by-revision");
    assert_eq!(by_revision.len(), keys.len());
    for row in &by_revision {
        let key = (row[0].clone(), row[1].clone());
        assert!(keys.contains(&key), "{key:?}");
        for (column, tallies) in tallies.iter().enumerate() {
            assert_eq!(
                row[2 + column],
                expected_cell(tallies.get(&key)),
                "{key:?} in column {column}"
            );
        }
    }

    // Each rule links to its cases, which show the expected findings.
    let details = Selector::parse("details[id^=rule-]").unwrap();
    assert_eq!(page.select(&details).count(), rules.len());
    let link = Selector::parse("a[href]").unwrap();
    for anchor in page.select(&link) {
        let target = anchor.value().attr("href").unwrap();
        let id = target
            .strip_prefix('#')
            .expect("only links inside the page");
        let by_id = Selector::parse(&format!("[id=\"{id}\"]")).unwrap();
        assert_eq!(page.select(&by_id).count(), 1, "{target}");
    }

    // Self-contained, and the hostile name is text, not markup.
    let external = Selector::parse("link, img, iframe, object, embed, [src]").unwrap();
    assert_eq!(page.select(&external).count(), 0);
    let scripts = Selector::parse("script").unwrap();
    assert_eq!(page.select(&scripts).count(), 1, "only the sorting script");
    assert!(!html.contains("<script>alert"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let markdown = fs::read_to_string(dir.join("page.md")).unwrap();
    assert!(!markdown.contains("<script>"), "{markdown}");
    assert!(markdown.contains("\\<script\\>"), "{markdown}");

    // The same reports give the same bytes.
    compare(
        dir,
        &reports,
        &["--html", "again.html", "--markdown", "again.md"],
    );
    assert_eq!(fs::read(dir.join("again.html")).unwrap(), html.as_bytes());
    assert_eq!(fs::read_to_string(dir.join("again.md")).unwrap(), markdown);
}

#[test]
fn the_markdown_tables() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let filters = [
        "--filter",
        "document/expected-invalid/missing-info.json",
        "--filter",
        "document/expected-valid/minimal.json",
        "--filter",
        "elicitation/expected-invalid/declaration-name-pattern.json",
        "--filter",
        "elicitation/expected-valid/form-and-url.yaml",
    ];
    let reports = three_reports(dir, &filters);
    compare(dir, &reports, &["--markdown", "tables.md"]);
    let text = fs::read_to_string(dir.join("tables.md")).unwrap();
    let hash = read_json(&dir.join(&reports[0]))["run"]["suite"]["hash"]
        .as_str()
        .unwrap()
        .to_owned();
    insta::assert_snapshot!("markdown", text.replace(&hash, "[suite hash]"));
}

#[test]
fn reports_of_different_suites_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let tree = suite_copy();
    edit_one_pointer(tree.path());
    for (name, suite) in [("built-in.json", None), ("edited.json", Some(tree.path()))] {
        let mut command = harness()
            .current_dir(dir)
            .args(["run", "--quiet", "--report", name]);
        if let Some(suite) = suite {
            command = command.arg("--suite-dir").arg(suite);
        }
        let output = command.output().unwrap();
        assert!(matches!(output.status.code(), Some(0 | 1)));
    }
    let output = harness()
        .current_dir(dir)
        .args([
            "compare",
            "built-in.json",
            "edited.json",
            "--html",
            "x.html",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "edited.json: the report is of the suite sha256:",
            "built-in.json is of",
        ],
    );
    assert!(!dir.join("x.html").exists());
}

/// The fixtures the regression and identity tests run: two that involve
/// [`DROPPED`], and one that does not.
const FEW: [&str; 6] = [
    "--filter",
    "document/expected-invalid/missing-info.json",
    "--filter",
    "document/expected-valid/minimal.json",
    "--filter",
    "elicitation/expected-invalid/declaration-name-pattern.json",
];

/// Runs the reference validator behind the wrapper into the report `name`
/// in `dir`: dropping `dropped`'s findings (none when empty), with the
/// implementation's `extra` members, on `args`.
fn wrapped_report(dir: &Path, name: &str, dropped: &str, extra: &str, args: &[&str]) {
    fs::write(dir.join("wrapper.py"), WRAPPER).unwrap();
    let validator = shlex::try_join([
        "python3",
        dir.join("wrapper.py").to_str().unwrap(),
        reference_binary().to_str().unwrap(),
        dropped,
        "",
        extra,
    ])
    .unwrap();
    let output = harness()
        .current_dir(dir)
        .args([
            "run",
            "--quiet",
            "--report",
            name,
            "--validator",
            &validator,
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{name}: {}",
        stderr_of(&output)
    );
}

fn compare_output(dir: &Path, args: &[&str]) -> std::process::Output {
    harness()
        .current_dir(dir)
        .arg("compare")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_regression_view_exits_1_on_a_new_failure_and_names_it_by_rule_and_revision() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    wrapped_report(dir, "good.json", "", "{}", &FEW);
    wrapped_report(dir, "bad.json", DROPPED, "{}", &FEW);
    let bad: Value = read_json(&dir.join("bad.json"));
    let failing: BTreeSet<String> = bad["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["passes"]["exact"] == false)
        .map(|case| case["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(!failing.is_empty());

    // Good to bad: new failures, exit 1, on stdout.
    let output = compare_output(dir, &["--before", "good.json", "--after", "bad.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let markdown = stdout_of(&output);
    assert_contains(
        &markdown,
        &[
            &format!("**New failures**: {} new failures, 0 fixed", failing.len()),
            "### By rule and revision",
            &format!("### New failures ({})", failing.len()),
            "| report | `good.json` | `bad.json` |",
        ],
    );
    for id in &failing {
        // Each new failure is a row under the dropped rule, with what the
        // new report misses of it.
        let row = markdown
            .lines()
            .find(|line| line.contains(&format!("`{id}`")))
            .unwrap_or_else(|| panic!("{id} not in\n{markdown}"));
        assert!(row.starts_with(&format!("| `{DROPPED}` |")), "{row}");
        assert_contains(row, &["| passed | failed |", "missing `"]);
    }
    assert!(!markdown.contains("### Fixed"), "{markdown}");

    // Bad to good: the same cases fixed, exit 0, into a file.
    let output = compare_output(
        dir,
        &[
            "--before",
            "bad.json",
            "--after",
            "good.json",
            "--markdown",
            "fixed.md",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(
        &stdout_of(&output),
        &[&format!("0 new failures, {} fixed", failing.len())],
    );
    let fixed = fs::read_to_string(dir.join("fixed.md")).unwrap();
    assert_contains(
        &fixed,
        &[
            "**No new failure**",
            &format!("### Fixed ({})", failing.len()),
        ],
    );

    // A report against itself: nothing changed.
    let output = compare_output(dir, &["--before", "good.json", "--after", "good.json"]);
    assert_eq!(output.status.code(), Some(0));
    assert_contains(&stdout_of(&output), &["No case changed."]);

    // At the verdict level the dropped warnings-or-errors may not matter,
    // but the view is still judged from the reports' own `passes`.
    let output = compare_output(
        dir,
        &[
            "--before",
            "good.json",
            "--after",
            "bad.json",
            "--level",
            "verdict",
        ],
    );
    let verdict_failing = bad["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["passes"]["verdict"] == false)
        .count();
    assert_eq!(
        output.status.code(),
        Some(if verdict_failing > 0 { 1 } else { 0 })
    );
    assert_contains(&stdout_of(&output), &["at the verdict level"]);
}

#[test]
fn the_regression_view_lists_added_and_removed_cases_and_changed_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    wrapped_report(dir, "few.json", "", "{}", &FEW[..4]);
    wrapped_report(dir, "more.json", "", "{}", &FEW);
    // A case added to the selection is listed, and is not a new failure.
    let output = compare_output(dir, &["--before", "few.json", "--after", "more.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let markdown = stdout_of(&output);
    assert_contains(
        &markdown,
        &[
            "### Added (",
            "declaration-name-pattern.json@",
            "| (not in the report) | passed |",
        ],
    );
    let output = compare_output(dir, &["--before", "more.json", "--after", "few.json"]);
    assert_eq!(output.status.code(), Some(0));
    assert_contains(&stdout_of(&output), &["### Removed ("]);

    // A crash where there was a pass: a new failure whose kind is named.
    let crashing = dir.join("crash.py");
    fs::write(
        &crashing,
        "import json, sys\n\
         sys.stdin.readline()\n\
         print(json.dumps({'protocol': 1, 'implementation': {'name': 'mcpdesc-reference', \
         'version': '0.1.0', 'revisions': ['2024-11-05', '2025-03-26', '2025-06-18', \
         '2025-11-25', '2026-07-28']}}), flush=True)\n\
         sys.stdin.readline()\n\
         sys.exit(1)\n",
    )
    .unwrap();
    let output = harness()
        .current_dir(dir)
        .args(["run", "--quiet", "--report", "crashed.json", "--validator"])
        .arg(format!("python3 {}", crashing.display()))
        .args(&FEW[..4])
        .output()
        .unwrap();
    assert!(output.status.code().is_some(), "{}", stderr_of(&output));
    let output = compare_output(dir, &["--before", "few.json", "--after", "crashed.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let markdown = stdout_of(&output);
    assert_contains(&markdown, &["### New failures (", "| passed | crashed |"]);
}

#[test]
fn the_regression_view_refuses_what_it_cannot_read_and_says_aloud_when_suites_differ() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    wrapped_report(dir, "a.json", "", "{}", &FEW[..2]);
    wrapped_report(dir, "b.json", "", "{}", &FEW[2..4]);
    fs::write(dir.join("broken.json"), "{\"reportVersion\": 1, ").unwrap();
    // Unreadable, missing, not a report: exit 2, naming the file.
    for (file, said) in [
        ("broken.json", "broken.json:1:"),
        ("absent.json", "absent.json: cannot be read"),
    ] {
        let output = compare_output(dir, &["--before", "a.json", "--after", file]);
        assert_eq!(output.status.code(), Some(2), "{file}");
        assert_contains(&stderr_of(&output), &[said]);
    }
    // No case in common: nothing to say, exit 2.
    let output = compare_output(dir, &["--before", "a.json", "--after", "b.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_contains(&stderr_of(&output), &["have no case in common"]);
    // --before needs --after, and does not mix with REPORT or --html.
    for args in [
        &["--before", "a.json"][..],
        &["--before", "a.json", "--after", "a.json", "b.json"],
        &[
            "--before", "a.json", "--after", "a.json", "--html", "x.html",
        ],
    ] {
        assert_eq!(compare_output(dir, args).status.code(), Some(2), "{args:?}");
    }

    // Another suite: compared case by case all the same, said on stderr
    // and at the top of the Markdown.
    let tree = suite_copy();
    edit_one_pointer(tree.path());
    let output = harness()
        .current_dir(dir)
        .args(["run", "--quiet", "--report", "edited.json", "--suite-dir"])
        .arg(tree.path())
        .output()
        .unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)));
    wrapped_report(dir, "all.json", "", "{}", &[]);
    let output = compare_output(
        dir,
        &[
            "--before",
            "all.json",
            "--after",
            "edited.json",
            "--markdown",
            "view.md",
        ],
    );
    assert!(matches!(output.status.code(), Some(0 | 1)));
    assert_contains(
        &stderr_of(&output),
        &["warning: the reports are of different suites"],
    );
    let markdown = fs::read_to_string(dir.join("view.md")).unwrap();
    assert_contains(
        &markdown,
        &["> [!WARNING]\n> the reports are of different suites"],
    );
}

#[test]
fn two_configurations_of_one_validator_are_told_apart_by_file_label_and_x_members() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    wrapped_report(dir, "debug.json", "", r#"{"x-build": "debug"}"#, &FEW);
    wrapped_report(
        dir,
        "strict.json",
        DROPPED,
        r#"{"x-build": "strict", "license": "MIT"}"#,
        &FEW,
    );
    // The report keeps every member announced.
    let strict = read_json(&dir.join("strict.json"));
    assert_eq!(strict["run"]["implementation"]["x-build"], "strict");
    assert_eq!(strict["run"]["implementation"]["license"], "MIT");
    assert_valid(&schemas(), "report", &strict);

    let headings = |page: &Html| -> Vec<String> {
        let heading = Selector::parse("table#matrix > thead th").unwrap();
        page.select(&heading).skip(2).map(text).collect()
    };
    // Alike by name and version: the file tells them apart.
    compare(
        dir,
        &["debug.json".into(), "strict.json".into()],
        &["--html", "files.html"],
    );
    let page = Html::parse_document(&fs::read_to_string(dir.join("files.html")).unwrap());
    assert_eq!(
        headings(&page),
        [
            "mcpdesc-reference 0.1.0 (debug.json)",
            "mcpdesc-reference 0.1.0 (strict.json)"
        ]
    );
    // The implementations table shows the x- members and the command line.
    let implementations = rows(&page, "implementations-table");
    assert!(
        implementations[0][5].contains("x-build: \"debug\""),
        "{implementations:?}"
    );
    assert!(
        implementations[1][5].contains("x-build: \"strict\""),
        "{implementations:?}"
    );
    assert!(
        !implementations[1][5].contains("license"),
        "{implementations:?}"
    );
    assert_eq!(implementations[1][6], "strict.json");
    assert!(implementations[1][7].contains("run --quiet --report strict.json"));

    // Labels head the columns, in the matrix and in the regression view.
    compare(
        dir,
        &["debug.json".into(), "strict.json".into()],
        &[
            "--label",
            "debug build=debug.json",
            "--label",
            "strict=strict.json",
            "--html",
            "labels.html",
            "--markdown",
            "labels.md",
        ],
    );
    let page = Html::parse_document(&fs::read_to_string(dir.join("labels.html")).unwrap());
    assert_eq!(headings(&page), ["debug build", "strict"]);
    assert_contains(
        &fs::read_to_string(dir.join("labels.md")).unwrap(),
        &["| rule | disagreements | debug build | strict |"],
    );
    let output = compare_output(
        dir,
        &[
            "--before",
            "debug.json",
            "--after",
            "strict.json",
            "--label",
            "strict=strict.json",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_contains(
        &stdout_of(&output),
        &[
            "## mcpdesc conformance: strict against mcpdesc\\-reference 0\\.1\\.0 at the exact level",
        ],
    );
    // A label for a report not given is refused.
    let output = compare_output(dir, &["debug.json", "--label", "x=other.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_contains(&stderr_of(&output), &["no report other.json is given"]);
}

#[test]
fn the_page_shows_each_cases_fixture_with_stable_anchors_and_unwrapped_ids() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    wrapped_report(dir, "a.json", "", "{}", &FEW);
    wrapped_report(dir, "b.json", DROPPED, "{}", &FEW);
    compare(
        dir,
        &["a.json".into(), "b.json".into()],
        &["--html", "page.html"],
    );
    let html = fs::read_to_string(dir.join("page.html")).unwrap();
    let page = Html::parse_document(&html);
    // A rule's section is at `rule-<rule ID>`, and the matrix links there.
    let section = Selector::parse(&format!("details[id=\"rule-{DROPPED}\"]")).unwrap();
    let section = page
        .select(&section)
        .next()
        .expect("the dropped rule's section");
    let link = Selector::parse(&format!("a[href=\"#rule-{DROPPED}\"]")).unwrap();
    assert_eq!(
        page.select(&link).count(),
        1 + section_revisions(&page, DROPPED)
    );
    // Each case row holds its fixture: the x-test and the document, as text.
    let case = Selector::parse("th.case").unwrap();
    let cases: Vec<ElementRef<'_>> = section.select(&case).collect();
    assert!(!cases.is_empty());
    let missing_info = workspace().join("fixtures/document/expected-invalid/missing-info.json");
    let source = fs::read_to_string(&missing_info).unwrap();
    let statement = serde_json::from_str::<Value>(&source).unwrap()["x-test"]
        .as_str()
        .unwrap()
        .to_owned();
    let row = cases
        .iter()
        .find(|cell| text(**cell).contains("missing-info.json@"))
        .expect("missing-info under the dropped rule");
    let code = Selector::parse("code[title]").unwrap();
    let id = row.select(&code).next().unwrap();
    assert_eq!(id.value().attr("title"), Some(text(id).as_str()));
    let paragraph = Selector::parse("details > p").unwrap();
    assert_eq!(text(row.select(&paragraph).next().unwrap()), statement);
    let document = Selector::parse("details > pre.document").unwrap();
    assert_eq!(
        row.select(&document)
            .next()
            .unwrap()
            .text()
            .collect::<String>(),
        source
    );
    // Case IDs do not wrap; the case tables scroll instead.
    assert_contains(
        &html,
        &["th.case{white-space:nowrap}", ".scroll{overflow-x:auto"],
    );
    let scrolling = Selector::parse("div.scroll > table.cases").unwrap();
    assert!(section.select(&scrolling).next().is_some());

    // Made against another suite, the page shows no fixture, and says so.
    let tree = suite_copy();
    edit_one_pointer(tree.path());
    let output = harness()
        .current_dir(dir)
        .args([
            "compare",
            "a.json",
            "b.json",
            "--html",
            "other.html",
            "--suite-dir",
        ])
        .arg(tree.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_contains(
        &stderr_of(&output),
        &["warning: the fixtures are not shown"],
    );
    let other = fs::read_to_string(dir.join("other.html")).unwrap();
    assert!(!other.contains("pre class=\"document\""));
    assert_contains(&other, &["The fixtures are not shown"]);
}

/// How many rows of the rules-by-revision table are `rule`'s.
fn section_revisions(page: &Html, rule: &str) -> usize {
    rows(page, "by-revision")
        .iter()
        .filter(|row| row[0] == rule)
        .count()
}

/// The README's regression command, as written, on two reports of those
/// names: it writes the comment and exits 1 for the new failures.
#[test]
fn the_readme_regression_command_runs_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    wrapped_report(dir, "main.json", "", "{}", &FEW);
    wrapped_report(dir, "branch.json", DROPPED, "{}", &FEW);
    let block = readme_block("#### What a change did: the regression view", "sh");
    let words = shlex::split(block.trim()).unwrap();
    assert_eq!(words[0], "mcpdesc-conformance", "{block}");
    let output = harness()
        .current_dir(dir)
        .args(&words[1..])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert_contains(
        &fs::read_to_string(dir.join("comment.md")).unwrap(),
        &["### New failures ("],
    );
}

/// Where a case fails because of another rule, the page says which; a
/// rule the validator does not claim is said to be unclaimed.
#[test]
fn the_page_names_the_cause_and_the_unclaimed() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let reports = three_reports(dir, &[]);
    compare(dir, &reports, &["--html", "page.html"]);
    let html = fs::read_to_string(dir.join("page.html")).unwrap();
    let section = |rule: &str| {
        let start = html
            .find(&format!("id=\"rule-{rule}\""))
            .unwrap_or_else(|| panic!("no section for {rule}"));
        let rest = &html[start..];
        rest[..rest.find("</table>").unwrap()].to_owned()
    };
    let row = |section: &str, case: &str| {
        let start = section
            .find(&format!("title=\"{case}\""))
            .unwrap_or_else(|| panic!("no row for {case}"));
        let rest = &section[start..];
        let cells: Vec<String> = rest[..rest.find("</tr>").unwrap()]
            .split("<td>")
            .skip(1)
            .map(str::to_owned)
            .collect();
        cells
    };
    // The broken variant drops the shape findings: under the legacy rule
    // it agrees, and the case fails on the shape rule.
    let legacy = section("mcpdesc.protocol.legacy-validation-incomplete");
    let cells = row(
        &legacy,
        "document/expected-invalid/missing-info.json@2024-11-05",
    );
    // expected, reference, python example, broken
    assert_eq!(cells.len(), 4, "{cells:?}");
    assert!(cells[3].contains("<small>passes</small>"), "{}", cells[3]);
    assert!(
        cells[3].contains(&format!("the case fails on <code>{DROPPED}</code>")),
        "{}",
        cells[3]
    );
    assert!(!cells[1].contains("the case fails on"), "{}", cells[1]);
    // The Python example claims no elicitation rule.
    let name = section("mcpdesc.elicitation.name");
    let cells = row(
        &name,
        "elicitation/expected-invalid/declaration-name-pattern.json@2025-06-18",
    );
    assert!(
        cells[2].contains("unclaimed: the validator does not claim this rule"),
        "{}",
        cells[2]
    );
}

/// The reference validator's report of the whole suite, in `dir`.
fn whole_report(dir: &Path, name: &str) {
    let output = harness()
        .current_dir(dir)
        .args(["run", "--quiet", "--report", name])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}

/// A case listed twice in one report is refused, naming the file and the
/// case: it was counted twice (4/18 instead of 2/9).
#[test]
fn a_case_listed_twice_in_one_report_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    whole_report(dir, "reference.json");
    let mut report = read_json(&dir.join("reference.json"));
    let cases = report["cases"].as_array_mut().unwrap();
    let twice = cases[5].clone();
    cases.push(twice.clone());
    fs::write(dir.join("twice.json"), report.to_string()).unwrap();
    let id = twice["id"].as_str().unwrap();
    for args in [
        &["reference.json", "twice.json"][..],
        &["--before", "reference.json", "--after", "twice.json"],
    ] {
        let output = compare_output(dir, args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr_of(&output)
        );
        assert_contains(
            &stderr_of(&output),
            &[&format!("twice.json: the case {id} is listed twice")],
        );
    }
}

/// 800 findings per case, over twenty rules, are compared in one pass per
/// case: it used to recompute a case's reported findings for every rule
/// and every other rule of it (100 findings over 40 rules took two
/// minutes).
#[test]
fn eight_hundred_findings_per_case_are_compared_in_a_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    whole_report(dir, "reference.json");
    let mut report = read_json(&dir.join("reference.json"));
    super::merge::flood(&mut report, 800, 20, 0);
    fs::write(dir.join("flooded.json"), report.to_string()).unwrap();
    let output = harness()
        .current_dir(dir)
        .args([
            "compare",
            "reference.json",
            "flooded.json",
            "--html",
            "c.html",
            "--markdown",
            "c.md",
        ])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(
        &fs::read_to_string(dir.join("c.md")).unwrap(),
        &["x.flood.19"],
    );
}

/// The HTML page and the Markdown of a report of about 60 MB are made in
/// well under 300 MB.
#[test]
fn comparing_a_60_mb_report_stays_under_300_mb() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    whole_report(dir, "reference.json");
    let mut report = read_json(&dir.join("reference.json"));
    super::merge::flood(&mut report, 100, 1, 600);
    fs::write(
        dir.join("big.json"),
        serde_json::to_string_pretty(&report).unwrap(),
    )
    .unwrap();
    drop(report);
    let (peak_kib, output) = super::external_support::peak_memory(
        dir,
        &[
            "compare",
            "reference.json",
            "big.json",
            "--html",
            "c.html",
            "--markdown",
            "c.md",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        peak_kib < 300 * 1024,
        "peak memory {} MiB, over 300 MB",
        peak_kib / 1024
    );
}

/// An output of `compare` that is one of its reports is refused.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    whole_report(dir, "a.json");
    let before = fs::read_to_string(dir.join("a.json")).unwrap();
    for args in [
        &["a.json", "--html", "a.json"][..],
        &["a.json", "--markdown", "./a.json"],
        &[
            "--before",
            "a.json",
            "--after",
            "a.json",
            "--markdown",
            "a.json",
        ],
    ] {
        let output = compare_output(dir, args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr_of(&output)
        );
        assert_contains(&stderr_of(&output), &["is also an input"]);
    }
    assert_eq!(fs::read_to_string(dir.join("a.json")).unwrap(), before);
}
