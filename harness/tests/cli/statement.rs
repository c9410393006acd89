//! `certify`: the conformance statement a run writes, its schema, its
//! Markdown, and `certify --check`, which holds while the validator does
//! what the statement says and fails once it does not.

use serde_json::Value;

use super::schemas::{assert_valid, schemas};
use super::*;

/// The Python example's command line, with `script` in place of its
/// validator when given.
fn python_example(script: Option<&Path>) -> String {
    let path = script.map_or_else(
        || workspace().join("examples/python-validator/validator.py"),
        Path::to_path_buf,
    );
    format!("python3 '{}'", path.display())
}

fn certify(dir: &Path, args: &[&str]) -> std::process::Output {
    harness()
        .current_dir(dir)
        .args(["certify", "--quiet"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_python_examples_statement_is_valid_and_holds_until_one_finding_changes() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let validator = python_example(None);
    let baseline = workspace().join("examples/python-validator/baseline.yaml");
    let baseline = baseline.to_str().unwrap();
    let output = certify(
        dir,
        &[
            "--validator",
            &validator,
            "--baseline",
            baseline,
            "--statement",
            "statement.json",
            "--statement-markdown",
            "statement.md",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let statement: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("statement.json")).unwrap()).unwrap();
    assert_valid(&schemas(), "statement", &statement);
    assert_eq!(statement["profile"], "partial");
    assert_eq!(statement["implementation"]["name"], "python-example");
    assert_eq!(statement["claims"]["claimed"], 4);
    let (version, rules) = suite_version_and_rules();
    assert_eq!(statement["suite"]["version"], version.as_str());
    let known = statement["knownFailures"].as_array().unwrap();
    assert!(!known.is_empty());
    assert!(
        known
            .iter()
            .all(|entry| entry["reason"].as_str().is_some_and(|r| !r.is_empty()))
    );
    // The example declines 2024-11-05: it is not among the judged revisions.
    assert_eq!(
        statement["revisions"],
        serde_json::json!(["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"])
    );
    let markdown = fs::read_to_string(dir.join("statement.md")).unwrap();
    assert_contains(
        &markdown,
        &[
            "# Conformance statement: python\\-example 0\\.1\\.0",
            "**Profile: partial**",
            &format!("| rules | 4/{rules} ("),
            "## Known failures",
            "certify --check statement.json",
        ],
    );

    let check = |validator: &str| {
        certify(
            dir,
            &["--check", "statement.json", "--validator", validator],
        )
    };
    let holds = check(&validator);
    assert_eq!(holds.status.code(), Some(0), "{}", stdout_of(&holds));
    assert_contains(
        &stdout_of(&holds),
        &[&format!(
            "the statement holds: python-example 0.1.0, partial profile, suite {version}, 4 of {rules} rules at the exact level"
        )],
    );

    // The same validator, but its legacy warning points at the root.
    let source =
        fs::read_to_string(workspace().join("examples/python-validator/validator.py")).unwrap();
    let changed = source.replace(
        "        at = pointer(\"protocolVersions\")\n",
        "        pass\n",
    );
    assert_ne!(
        changed, source,
        "the example's legacy warning moved: update this test"
    );
    let script = dir.join("changed.py");
    fs::write(&script, changed).unwrap();
    let broken = check(&python_example(Some(&script)));
    let stdout = stdout_of(&broken);
    assert_eq!(broken.status.code(), Some(1), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "the statement no longer holds:",
            "- profile: stated partial, now failing",
            "- rule mcpdesc.protocol.legacy-validation-incomplete: stated",
            "document/expected-invalid/missing-info.json@2025-03-26 fails now, and the statement says it passes",
        ],
    );
}

/// The reference validator claims every rule and passes the whole suite at
/// the exact level: the full profile. Judged on part of the rules, or at
/// a looser level, the same validator is partial.
#[test]
fn only_every_rule_at_the_exact_level_is_the_full_profile() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let profile = |args: &[&str]| {
        let output = certify(dir, &[&["--statement", "s.json"], args].concat());
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        let statement: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
        assert_valid(&schemas(), "statement", &statement);
        statement["profile"].as_str().unwrap().to_owned()
    };
    assert_eq!(profile(&[]), "full");
    assert_eq!(profile(&["--rules", "mcpdesc.document.shape"]), "partial");
    assert_eq!(profile(&["--level", "rules"]), "partial");
    assert_eq!(profile(&["--suite", "document"]), "partial");
    // And the partial statement holds on a check, its claims included.
    let output = certify(dir, &["--check", "s.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
}

/// A file that is not a statement is refused, naming it.
#[test]
fn a_broken_statement_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("s.json"), "{\"statementVersion\": 1}").unwrap();
    let output = certify(dir.path(), &["--check", "s.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["s.json: not a conformance statement of layout 1: missing field"],
    );
}

/// `--check-report` checks a statement against a report instead of a
/// run: the reference's report holds up its statement, and another
/// validator's report does not.
#[test]
fn a_statement_is_checked_against_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let run = |args: &[&str]| {
        harness()
            .current_dir(dir)
            .args(["run", "--quiet"])
            .args(args)
            .output()
            .unwrap()
    };
    assert_eq!(run(&["--report", "reference.json"]).status.code(), Some(0));
    let python = python_example(None);
    run(&["--validator", &python, "--report", "python.json"]);
    let output = certify(dir, &["--statement", "s.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let check = |report: &str| certify(dir, &["--check", "s.json", "--check-report", report]);
    let holds = check("reference.json");
    assert_eq!(
        holds.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&holds),
        stderr_of(&holds)
    );
    assert_contains(
        &stdout_of(&holds),
        &["the statement holds: mcpdesc-reference"],
    );
    let other = check("python.json");
    assert_eq!(other.status.code(), Some(1), "{}", stdout_of(&other));
    assert_contains(
        &stdout_of(&other),
        &[
            "the statement no longer holds:",
            "- profile: stated full, now failing",
            "- implementation: stated",
        ],
    );
}
