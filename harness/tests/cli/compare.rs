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
use super::*;

/// The rule the broken variant never reports.
const DROPPED: &str = "mcpdesc.document.shape";

/// The name the broken variant gives itself.
const HOSTILE: &str = "broken <script>alert(1)</script>";

/// A session-mode wrapper around `mcpdesc-validate --stdio` that drops
/// [`DROPPED`]'s findings and renames the implementation [`HOSTILE`].
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
        reply["implementation"]["name"] = sys.argv[3]
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
    assert!(markdown.contains("&lt;script&gt;"), "{markdown}");

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
