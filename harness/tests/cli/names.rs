//! Case names: every output names a case by the ID `list` prints, and each
//! name pasted into `--filter` selects exactly that case.

use std::collections::BTreeSet;

use serde_json::Value;

use super::*;

/// The case IDs of the failing cases, as each output of one failing run
/// names them.
struct Named {
    human: BTreeSet<String>,
    annotations: BTreeSet<String>,
    junit: BTreeSet<String>,
    markdown: BTreeSet<String>,
    compare: BTreeSet<String>,
    report: BTreeSet<String>,
}

/// The `name` attribute of each JUnit `testcase` that holds a `failure`.
fn junit_failures(xml: &str) -> BTreeSet<String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut current = None;
    let mut failing = BTreeSet::new();
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(element) | quick_xml::events::Event::Empty(element) => {
                match element.name().as_ref() {
                    b"testcase" => {
                        current = element
                            .try_get_attribute("name")
                            .unwrap()
                            .map(|name| String::from_utf8(name.value.into_owned()).unwrap());
                    }
                    b"failure" | b"error" => failing.extend(current.clone()),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    failing
}

/// The text between `open` and the next `close`, for every `open` in
/// `text`.
fn between(text: &str, open: &str, close: &str) -> BTreeSet<String> {
    text.split(open)
        .skip(1)
        .filter_map(|rest| rest.split(close).next())
        .map(str::to_owned)
        .collect()
}

fn failing_run(dir: &Path, out: &Path) -> Named {
    let (report, junit, markdown, html) = (
        out.join("report.json"),
        out.join("junit.xml"),
        out.join("summary.md"),
        out.join("compare.html"),
    );
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(dir)
        .args(["--annotations", "github", "--report"])
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .arg("--markdown")
        .arg(&markdown)
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let compared = harness()
        .arg("compare")
        .arg(&report)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    stdout_of_success(&compared);
    let human = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("FAIL "))
        .map(|rest| rest.split(' ').next().unwrap().to_owned())
        .collect();
    // `::error file=…,line=…,title=…::<case>: …`
    let annotations = stdout
        .lines()
        .filter(|line| line.starts_with("::error "))
        .map(|line| {
            let message = line.split_once("::").unwrap().1.split_once("::").unwrap().1;
            message.split(": ").next().unwrap().to_owned()
        })
        .collect();
    let page = fs::read_to_string(&html).unwrap();
    let compare = page
        .split("<tr")
        .filter(|row| row.contains("<small>fails</small>"))
        .flat_map(|row| between(row, "<th class=\"case\"><code title=\"", "\""))
        .collect();
    let report: Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    let report = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["passes"]["exact"] == Value::Bool(false))
        .map(|case| case["id"].as_str().unwrap().to_owned())
        .collect();
    Named {
        human,
        annotations,
        junit: junit_failures(&fs::read_to_string(&junit).unwrap()),
        markdown: between(
            &fs::read_to_string(&markdown).unwrap(),
            "<details><summary><code>",
            "</code></summary>",
        ),
        compare,
        report,
    }
}

/// The IDs of the cases `run --filter NAME` runs, from its report.
fn selected_by(dir: &Path, name: &str) -> Vec<String> {
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("report.json");
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(dir)
        .args(["--quiet", "--filter", name, "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let report: Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_output_names_a_failing_case_by_an_id_that_filter_selects_exactly() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let out = tempfile::tempdir().unwrap();
    let named = failing_run(dir.path(), out.path());
    let failing = named.report.clone();
    assert!(!failing.is_empty(), "the edited pointer fails no case");
    for (output, names) in [
        ("the human report", &named.human),
        ("the annotations", &named.annotations),
        ("JUnit", &named.junit),
        ("the Markdown summary", &named.markdown),
        ("the compare page", &named.compare),
    ] {
        assert_eq!(
            names, &failing,
            "{output} names the failing cases otherwise"
        );
    }
    for name in &failing {
        assert_eq!(
            selected_by(dir.path(), name),
            std::slice::from_ref(name),
            "--filter {name}"
        );
    }
}
