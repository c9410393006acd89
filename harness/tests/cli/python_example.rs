//! `examples/python-validator`: the whole built-in suite against it. What
//! holds for every case (it declines the oldest revision and nothing else,
//! never crashes, and `run` prints the same totals) is checked on every
//! case. Which cases it fails is not kept here: its committed baseline,
//! `examples/python-validator/baseline.yaml`, lists them, and
//! `baseline.rs` and CI run it, failing on any new failure and on any
//! entry that no longer fails.

use std::time::Duration;

use mcpdesc_conformance::backend::external::{self, ExternalValidator, Mode};
use mcpdesc_conformance::judge::summary::Summary;
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use serde_json::Value;

use super::external_support::word;
use super::*;

fn script() -> PathBuf {
    workspace().join("examples/python-validator/validator.py")
}

#[test]
fn it_answers_every_case_of_the_built_in_suite() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let cases = Selection::default().cases(&set);
    let validator = ExternalValidator::new(
        vec!["python3".to_owned(), script().display().to_string()],
        Mode::Session,
        set.revisions.clone(),
    );
    let run = external::run(&cases, &set.rules, &validator);
    assert_eq!(run.unavailable, None);
    assert_eq!(run.implementation.name, "python-example");
    assert_eq!(run.results.len(), cases.len());
    let oldest = set.revisions.iter().next().unwrap();
    for (case, result) in cases.iter().zip(&run.results) {
        assert_eq!((result.entry, result.revision), (case.index, case.revision));
        // It announces every revision but the oldest and no source text,
        // and answers every case it is sent; it lists the rules it checks,
        // so a case of another rule is unclaimed.
        let skipped = case.revision == oldest || case.entry.fixture.source.is_some();
        let word = word(&result.outcome);
        assert!(
            if skipped {
                word == "skipped"
            } else {
                word == "pass" || word == "unclaimed" || word.starts_with("fail ")
            },
            "{} {word}",
            case.id()
        );
    }
    let summary = Summary::of(&run.results);
    let total = &summary.total;
    assert_eq!(total.errors, 0);

    // The README's command gives the same totals and exit status 1.
    let output = harness()
        .current_dir(workspace())
        .args([
            "run",
            "--validator",
            "python3 examples/python-validator/validator.py",
        ])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "validator python-example 0.1.0 (session mode)",
            &format!(
                "{} cases: {} passed and {} failed at the exact level, {} skipped",
                total.cases,
                total.passed_at(Level::Exact),
                total.failed_at(Level::Exact),
                total.skipped
            ),
        ],
    );
}

/// Whatever it reads, it answers or logs, and goes on.
#[test]
fn it_survives_any_input() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut input: Vec<u8> = Vec::new();
    for line in [
        "not json",
        "[1, 2]",
        "null",
        "\"validate\"",
        "{}",
        "{\"cmd\": \"validate\"}",
        "{\"cmd\": \"validate\", \"seq\": 1}",
        "{\"cmd\": \"validate\", \"seq\": 2, \"revision\": \"2025-06-18\", \"document\": [1]}",
        "{\"cmd\": \"validate\", \"seq\": 3, \"revision\": [\"x\"], \"document\": {}}",
        "{\"cmd\": \"validate\", \"seq\": 4, \"revision\": \"2025-06-18\", \"specification\": 7, \"document\": {\"mcpdesc\": {}, \"protocolVersions\": [null, {}, [], \"2025-06-18\", \"2025-06-18\"]}}",
        "{\"cmd\": \"bogus\", \"seq\": 5}",
        "{\"cmd\": \"validate\", \"seq\": 6, \"revision\": \"2025-03-26\", \"document\": {\"protocolVersions\": {\"~/\": 1}}}",
        "{\"cmd\": \"validate\", \"seq\": 7, \"revision\": \"2025-06-18\", \"document\": \"\\ud800\"}",
        &deep,
        "",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\xfe{\"cmd\": \"validate\"\n");
    // The validator learns the revisions from `start`, as the harness sends
    // them.
    let start = serde_json::json!({
        "cmd": "start", "protocol": 1, "harness": {"name": "t", "version": "0"},
        "revisions": mcpdesc_conformance::suite::builtin_revisions(),
    });
    input.extend_from_slice(format!("{start}\n").as_bytes());
    input.extend_from_slice(
        b"{\"cmd\":\"validate\",\"seq\":8,\"case\":\"c\",\"specification\":\"0.9.0\",\"revision\":\"2025-06-18\",\"document\":{\"mcpdesc\":\"0.8.0\",\"info\":{},\"protocolVersions\":[\"2025-06-18\",\"2025-09-01\"]}}\n\
          {\"cmd\":\"stop\"}\n\
          {\"cmd\":\"validate\",\"seq\":9}\n",
    );
    let output = Command::new("python3")
        .arg(script())
        .stdin(input)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = stdout_of_success(&output);
    let replies: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let seqs: Vec<&Value> = replies
        .iter()
        .filter_map(|reply| reply.get("seq"))
        .collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5, 6, 7, 8], "{stdout}");
    assert!(replies.iter().all(Value::is_object), "{stdout}");
    let last = replies.last().unwrap();
    let found: Vec<(&str, &str)> = last["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["rule"].as_str().unwrap(), d["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("mcpdesc.document.specification-version", "/mcpdesc"),
            ("mcpdesc.protocol-versions.known", "/protocolVersions/1"),
        ],
        "{last}"
    );
    assert!(replies[0].get("implementation").is_none());
}
