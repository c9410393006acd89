//! `diff`: documents made from the fixtures by seeded mutation, two
//! validators compared on each, every distinct disagreement shrunk and
//! written as a fixture to adjudicate.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use mcpdesc_conformance::backend::external::{ExternalValidator, Mode, Pool};
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::tree::SuiteTree;
use serde_json::Value;

use super::modes::reference_binary;
use super::*;

fn script() -> String {
    workspace()
        .join("examples/python-validator/validator.py")
        .display()
        .to_string()
}

fn python_example() -> String {
    format!("python3 {}", script())
}

/// `diff ARGS` with a generous hang bound.
fn diff(args: &[&str]) -> std::process::Output {
    harness()
        .arg("diff")
        .args(args)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap()
}

/// Every `disagreement.json` under `dir`, by folder name.
fn disagreements(dir: &Path) -> BTreeMap<String, Value> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let record = fs::read_to_string(entry.path().join("disagreement.json")).unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                serde_json::from_str(&record).unwrap(),
            )
        })
        .collect()
}

/// The compact JSON size of a document without its `x-test` sentence.
fn size(document: &Value) -> usize {
    let mut document = document.clone();
    if let Value::Object(members) = &mut document {
        members.shift_remove("x-test");
    }
    document.to_string().len()
}

/// For each rule, the size of the smallest fixture whose expectation
/// reports it under some revision.
fn smallest_fixture_per_rule() -> BTreeMap<String, usize> {
    let set = SuiteSet::load(SuiteTree::embedded());
    let mut smallest: BTreeMap<String, usize> = BTreeMap::new();
    for entry in set.suites.iter().flat_map(|suite| &suite.entries) {
        let (Ok(document), Ok(expectation)) = (&entry.fixture.document, &entry.expectation) else {
            continue;
        };
        let rules: BTreeSet<&str> = expectation
            .revisions
            .values()
            .flatten()
            .map(|finding| finding.rule.as_str())
            .collect();
        let bytes = size(&document.value);
        for rule in rules {
            let slot = smallest.entry(rule.to_owned()).or_insert(usize::MAX);
            *slot = (*slot).min(bytes);
        }
    }
    smallest
}

#[test]
fn against_the_python_example_every_rule_it_leaves_out_disagrees_on_a_small_document() {
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &python_example(),
        "--seed",
        "1",
        "--cases",
        "2000",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    // The rules it does not claim, from what it says in `start`.
    let pool = Pool::start(ExternalValidator::new(
        vec!["python3".into(), script()],
        Mode::Session,
        mcpdesc_conformance::suite::builtin_revisions(),
    ))
    .unwrap();
    let claimed: BTreeSet<String> = pool
        .implementation()
        .rules
        .clone()
        .unwrap()
        .into_iter()
        .collect();
    let set = SuiteSet::load(SuiteTree::embedded());
    let left_out: BTreeSet<String> = set
        .rules
        .iter()
        .map(|rule| rule.id.clone())
        .filter(|id| !claimed.contains(id))
        .collect();
    assert_eq!(left_out.len(), 16, "{left_out:?}");

    let found = disagreements(out.path());
    let smallest = smallest_fixture_per_rule();
    let mut rules_found = BTreeSet::new();
    for (folder, record) in &found {
        let rule = record["rule"].as_str().unwrap();
        rules_found.insert(rule.to_owned());
        // The summary groups by rule and numbers each disagreement.
        assert_contains(&stdout, &[&format!("\n{rule} (")]);
        if left_out.contains(rule) {
            let shrunk = size(&record["shrunk"]["document"]);
            assert!(
                shrunk <= smallest[rule],
                "{folder}: shrunk to {shrunk} bytes, the smallest fixture of {rule} has {}",
                smallest[rule]
            );
        }
        // The shrunk document still shows the disagreement it was kept for.
        let shape = &record["shape"];
        assert!(
            record["differences"]
                .as_array()
                .unwrap()
                .iter()
                .any(|difference| {
                    difference["rule"] == shape["rule"] && difference["side"] == shape["side"]
                }),
            "{folder}: {record}"
        );
    }
    let missing: Vec<&String> = left_out.difference(&rules_found).collect();
    assert!(
        missing.is_empty(),
        "no disagreement on {missing:?}\n{stdout}"
    );
}

#[test]
fn the_reference_over_stdio_and_in_process_agree_on_20000_documents() {
    let validator = format!("{} --stdio", reference_binary().display());
    // Four requests in flight per process, as a user in a hurry runs it.
    let output = diff(&[
        "--validator",
        &validator,
        "--seed",
        "7",
        "--cases",
        "20000",
        "--pipeline",
        "4",
        "--max-consecutive-failures",
        "8",
    ]);
    let stdout = stdout_of_success(&output);
    assert_contains(
        &stdout,
        &[
            "20000 documents,",
            " 0 not compared, 0 distinct disagreements",
        ],
    );
}

#[test]
fn a_seed_makes_the_same_findings_and_another_seed_other_ones() {
    let run = |seed: &str| {
        let out = tempfile::tempdir().unwrap();
        let output = diff(&[
            "--validator",
            &python_example(),
            "--seed",
            seed,
            "--cases",
            "150",
            "--jobs",
            "3",
            "--out",
            out.path().to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
        disagreements(out.path())
    };
    let first = run("11");
    assert!(!first.is_empty());
    assert_eq!(first, run("11"));
    assert_ne!(first, run("12"));
}

#[test]
fn a_shrunk_document_becomes_a_fixture_that_blesses_and_passes() {
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &python_example(),
        "--cases",
        "100",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let (folder, record) = disagreements(out.path()).into_iter().next().unwrap();
    let destination = record["fixture"].as_str().unwrap();
    let name = destination.rsplit('/').next().unwrap();
    let tree = suite_copy();
    let target = tree.path().join(destination);
    fs::copy(out.path().join(&folder).join(name), &target).unwrap();
    let fixture: Value = serde_json::from_str(&fs::read_to_string(&target).unwrap()).unwrap();
    assert_contains(
        fixture["x-test"].as_str().unwrap(),
        &["Found by mcpdesc-conformance diff (seed 1, document "],
    );

    let blessed = harness()
        .args(["bless", "--suite-dir"])
        .arg(tree.path())
        .output()
        .unwrap();
    assert_contains(&stdout_of_success(&blessed), &[name]);
    let id = destination.trim_start_matches("fixtures/");
    let listed = harness()
        .args(["list", "--suite-dir"])
        .arg(tree.path())
        .args(["--filter", id])
        .output()
        .unwrap();
    assert!(!stdout_of_success(&listed).is_empty());
    let run = harness()
        .args(["run", "--quiet", "--suite-dir"])
        .arg(tree.path())
        .output()
        .unwrap();
    stdout_of_success(&run);
    // Against the validator it was found with, the new case fails.
    let example = harness()
        .args(["run", "--quiet", "--suite-dir"])
        .arg(tree.path())
        .args(["--validator", &python_example(), "--filter", id])
        .output()
        .unwrap();
    assert_eq!(example.status.code(), Some(1), "{}", stdout_of(&example));
}

#[test]
fn time_bounds_the_run_and_a_missing_validator_exits_3() {
    let output = diff(&[
        "--validator",
        &python_example(),
        "--cases",
        "100000000",
        "--time",
        "1s",
    ]);
    assert_contains(
        &stdout_of(&output),
        &["stopped making documents when --time ran out"],
    );
    let output = diff(&["--validator", "/no/such/validator"]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    let output = diff(&[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_contains(&stderr_of(&output), &["--validator"]);
}

#[test]
fn a_validator_that_keeps_failing_stops_the_run_and_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("answers_start_then_exits.py");
    fs::write(
        &script,
        "import json, sys\n\
         sys.stdin.readline()\n\
         print(json.dumps({'protocol': 1, 'implementation': {'name': 'quitter', \
         'version': '1', 'revisions': ['2025-06-18', '2025-11-25']}}), flush=True)\n",
    )
    .unwrap();
    let validator = format!("python3 '{}'", script.display());
    let output = diff(&[
        "--validator",
        &validator,
        "--cases",
        "100000",
        "--jobs",
        "1",
    ]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(3),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert_contains(
        &stdout,
        &[
            "stopped after 10 failures in a row",
            "validator failures (",
            "  quitter 1 failed on document 0 under 2025-06-18: the validator exited",
        ],
    );
}
