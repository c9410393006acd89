//! End-to-end tests of the `mcpdesc-conformance` command line, grouped by
//! command. Each test runs the built binary, on the built-in suite or on a
//! copy of the working tree that the test changes.

use std::fs;
use std::path::{Path, PathBuf};

use snapbox::cmd::{Command, cargo_bin};

fn harness() -> Command {
    Command::new(cargo_bin!("mcpdesc-conformance")).env_remove("CI")
}

/// The repository root, which holds the suite tree.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A fresh copy of the suite tree (suites/, fixtures/, expected/).
fn suite_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["suites", "fixtures", "expected"] {
        for entry in walkdir::WalkDir::new(workspace().join(part)) {
            let entry = entry.unwrap();
            let target = dir
                .path()
                .join(entry.path().strip_prefix(workspace()).unwrap());
            if entry.file_type().is_dir() {
                fs::create_dir_all(&target).unwrap();
            } else {
                fs::copy(entry.path(), &target).unwrap();
            }
        }
    }
    dir
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that `text` contains every one of `needles`, showing all of it
/// when one is missing.
#[track_caller]
fn assert_contains(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(
            text.contains(needle),
            "expected to find\n  {needle}\nin\n{text}"
        );
    }
}

/// The expectation file and pointer that the edit tests change (one that no
/// catalog example shows, so the edit is a plain expectation mismatch).
const EDITED_EXPECTATION: &str =
    "expected/elicitation/expected-invalid/declaration-name-pattern.json.yaml";
const EDITED_POINTER: &str = "\"/tools/0/elicitations/0/name\"";

fn edit_one_pointer(root: &Path) {
    let path = root.join(EDITED_EXPECTATION);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(EDITED_POINTER), "{text}");
    fs::write(
        &path,
        text.replacen(EDITED_POINTER, "\"/tools/0/elicitations\"", 1),
    )
    .unwrap();
}

mod run {
    use super::*;

    #[test]
    fn the_built_in_suite_passes_with_rates_per_level_and_revision() {
        let output = harness().arg("run").output().unwrap();
        let stdout = stdout_of(&output);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{stdout}\n{}",
            stderr_of(&output)
        );
        assert_contains(
            &stdout,
            &[
                "revision",
                "verdict",
                "rules",
                "exact",
                "2024-11-05",
                "2025-03-26",
                "2025-06-18",
                "2025-11-25",
                "2026-07-28",
                "all ",
            ],
        );
        assert!(!stdout.contains("FAIL"), "{stdout}");
        assert_contains(&stdout, &["failed at the exact level"]);
        assert_contains(&stdout, &[" 0 failed at the exact level"]);
    }

    #[test]
    fn a_working_tree_copy_passes_too() {
        let dir = suite_copy();
        let output = harness()
            .arg("run")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    }

    #[test]
    fn an_edited_pointer_fails_naming_fixture_revision_rule_and_pointer_with_a_diff() {
        let dir = suite_copy();
        edit_one_pointer(dir.path());
        let output = harness()
            .arg("run")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        let stdout = stdout_of(&output);
        assert_eq!(output.status.code(), Some(1), "{stdout}");
        assert_contains(
            &stdout,
            &[
                "FAIL elicitation/expected-invalid/declaration-name-pattern.json under ",
                "exact: FAIL",
                "--- expected",
                "+++ actual",
                "-error mcpdesc.elicitation.name \"/tools/0/elicitations\"",
                "+error mcpdesc.elicitation.name \"/tools/0/elicitations/0/name\"",
                "(line ",
            ],
        );
    }

    #[test]
    fn the_level_option_decides_the_exit_status() {
        let dir = suite_copy();
        edit_one_pointer(dir.path());
        for (level, code) in [("verdict", 0), ("rules", 0), ("exact", 1)] {
            let output = harness()
                .args(["run", "--level", level, "--suite-dir"])
                .arg(dir.path())
                .output()
                .unwrap();
            assert_eq!(
                output.status.code(),
                Some(code),
                "--level {level}\n{}",
                stdout_of(&output)
            );
        }
    }

    #[test]
    fn a_broken_fixture_is_a_suite_error_and_the_rest_still_runs() {
        let dir = suite_copy();
        let broken = dir
            .path()
            .join("fixtures/document/expected-valid/broken.json");
        fs::write(
            &broken,
            "{\n  \"mcpdesc\": \"0.9.0\",\n  \"mcpdesc\": \"0.9.0\"\n}\n",
        )
        .unwrap();
        let output = harness()
            .arg("run")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        let (stdout, stderr) = (stdout_of(&output), stderr_of(&output));
        assert_eq!(output.status.code(), Some(2), "{stdout}\n{stderr}");
        assert_contains(&stderr, &["broken.json:3:", "duplicate key `mcpdesc`"]);
        assert_contains(&stdout, &[" passed and 5 failed at the exact level"]);
    }

    #[test]
    fn usage_errors_exit_2() {
        for args in [
            &["run", "--revision", "2025-06-19"][..],
            &["run", "--suite", "nonexistent"],
            &["run", "--level", "strict"],
            &["run", "--filter", "no-such-fixture-anywhere"],
            &["nonsense"],
        ] {
            let output = harness().args(args).output().unwrap();
            assert_eq!(
                output.status.code(),
                Some(2),
                "{args:?}\n{}",
                stderr_of(&output)
            );
        }
    }

    #[test]
    fn filters_narrow_the_run() {
        let output = harness()
            .args([
                "run",
                "--suite",
                "document",
                "--revision",
                "2025-11-25",
                "--filter",
                "*minimal*",
            ])
            .output()
            .unwrap();
        let stdout = stdout_of(&output);
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        assert_contains(&stdout, &["; 1 cases", "1 cases: 1 passed and 0 failed"]);
    }
}

mod list {
    use super::*;

    #[test]
    fn lists_one_case_per_fixture_and_revision() {
        let output = harness().arg("list").output().unwrap();
        let stdout = stdout_of(&output);
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        assert_contains(
            &stdout,
            &[
                "elicitation/expected-invalid/elicitation-version-mismatch.json@",
                "document/expected-valid/minimal.json@2025-11-25",
            ],
        );
        let lines = stdout.lines().count();
        assert_contains(&stderr_of(&output), &[&format!("{lines} cases")]);
    }

    #[test]
    fn applies_the_same_filters_as_run() {
        let output = harness()
            .args([
                "list",
                "--suite",
                "document",
                "--revision",
                "2025-11-25",
                "--filter",
                "minimal",
            ])
            .output()
            .unwrap();
        assert_eq!(
            stdout_of(&output),
            "document/expected-valid/minimal.json@2025-11-25\n"
        );
    }
}

mod check {
    use super::*;

    #[test]
    fn prints_the_rule_by_revision_coverage_table() {
        let output = harness().arg("check").output().unwrap();
        let stdout = stdout_of(&output);
        let header = stdout.lines().next().unwrap_or_default();
        assert!(header.starts_with("rule "), "{stdout}");
        assert_contains(
            header,
            &[
                "2024-11-05",
                "2025-03-26",
                "2025-06-18",
                "2025-11-25",
                "2026-07-28",
            ],
        );
        assert_contains(
            &stdout,
            &[
                "mcp.elicitation.form-schema.protocol-shape ",
                " n/a ",
                "cells: invalid cases",
            ],
        );
        for rule in mcpdesc_validator::rule::ALL {
            assert!(
                stdout
                    .lines()
                    .any(|line| line.starts_with(&format!("{rule} "))),
                "{rule} missing\n{stdout}"
            );
        }
    }

    #[test]
    fn the_built_in_suite_is_clean_with_full_coverage() {
        let output = harness().arg("check").output().unwrap();
        let (stdout, stderr) = (stdout_of(&output), stderr_of(&output));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        let table: Vec<&str> = stdout.lines().take_while(|line| !line.is_empty()).collect();
        assert!(table.len() > 20, "{stdout}");
        assert!(
            table.iter().all(|row| !row.contains('!')),
            "a coverage gap:\n{stdout}"
        );
        let totals = stdout.lines().last().unwrap_or_default();
        let numbers: Vec<usize> = totals
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|word| word.parse().ok())
            .collect();
        let [suites, rules, fixtures, cases, problems] = numbers[..] else {
            panic!("unexpected totals line: {totals}");
        };
        assert_eq!(
            (suites, rules, problems),
            (2, mcpdesc_validator::rule::ALL.len(), 0)
        );
        assert!(fixtures >= 60 && cases >= 150, "{totals}");
    }

    #[test]
    fn reports_what_is_wrong_with_a_suite_tree() {
        let dir = suite_copy();
        let fixture = dir
            .path()
            .join("fixtures/document/expected-valid/minimal.json");
        let text = fs::read_to_string(&fixture).unwrap();
        let without_statement: serde_json::Value = {
            let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
            value.as_object_mut().unwrap().remove("x-test");
            value
        };
        fs::write(
            &fixture,
            serde_json::to_string_pretty(&without_statement).unwrap(),
        )
        .unwrap();
        let expectation = dir
            .path()
            .join("expected/document/expected-invalid/missing-info.json.yaml");
        let text = fs::read_to_string(&expectation).unwrap();
        fs::write(
            &expectation,
            text.replace("mcpdesc.document.shape", "mcpdesc.document.no-such-rule"),
        )
        .unwrap();
        let output = harness()
            .arg("check")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_contains(
            &stderr_of(&output),
            &[
                "minimal.json:1:1: the fixture does not say what it tests",
                "missing-info.json.yaml: 2025-06-18: mcpdesc.document.no-such-rule at \"\": the rule is in no catalog",
            ],
        );
    }
}

mod bless {
    use super::*;

    #[test]
    fn restores_a_deleted_expectation_identically() {
        let dir = suite_copy();
        let path = dir.path().join(EDITED_EXPECTATION);
        let original = fs::read_to_string(&path).unwrap();
        fs::remove_file(&path).unwrap();
        let output = harness()
            .arg("bless")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        assert_contains(
            &stdout_of(&output),
            &[
                "--- /dev/null",
                "+++ b/expected/elicitation/expected-invalid/declaration-name-pattern.json.yaml",
            ],
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), original);
        let again = harness()
            .arg("bless")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_contains(&stderr_of(&again), &["0 expectation files changed"]);
    }

    #[test]
    fn shows_the_diff_of_an_edit_and_dry_run_writes_nothing() {
        let dir = suite_copy();
        edit_one_pointer(dir.path());
        let edited = fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap();
        let output = harness()
            .args(["bless", "--dry-run", "--suite-dir"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_contains(
            &stdout_of(&output),
            &[
                "-    - {severity: error, rule: \"mcpdesc.elicitation.name\", path: \"/tools/0/elicitations\"}",
                "+    - {severity: error, rule: \"mcpdesc.elicitation.name\", path: \"/tools/0/elicitations/0/name\"}",
            ],
        );
        assert_eq!(
            fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap(),
            edited
        );
    }

    #[test]
    fn refuses_in_ci_and_writes_nothing() {
        let dir = suite_copy();
        edit_one_pointer(dir.path());
        let edited = fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap();
        let output = harness()
            .env("CI", "true")
            .arg("bless")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_contains(
            &stderr_of(&output),
            &["refusing to bless expectations in CI"],
        );
        assert_eq!(
            fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap(),
            edited
        );
    }

    #[test]
    fn removes_orphan_expectations() {
        let dir = suite_copy();
        let orphan = dir
            .path()
            .join("expected/document/expected-valid/gone.json.yaml");
        fs::write(
            &orphan,
            "fixture: document/expected-valid/gone.json\nrevisions: {}\n",
        )
        .unwrap();
        let output = harness()
            .arg("run")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_contains(
            &stderr_of(&output),
            &["gone.json.yaml: expectation file has no fixture"],
        );
        let output = harness()
            .arg("bless")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert!(!orphan.exists());
    }
}

/// The `cargo test` entry point: its trials, and what one trial checks, on a
/// changed copy of the suite (as `MCPDESC_SUITE_DIR` would point it there).
mod libtest {
    use std::sync::Arc;

    use mcpdesc_conformance::libtest::{Target, check_case, trials};
    use mcpdesc_conformance::suite::SuiteSet;
    use mcpdesc_conformance::tree::SuiteTree;
    use mcpdesc_protocol::{Revision, Validator};
    use mcpdesc_validator::ReferenceValidator;

    use super::*;

    fn load(root: &Path) -> SuiteSet {
        SuiteSet::load(SuiteTree::from_dir(root).unwrap())
    }

    #[test]
    fn one_trial_per_case_with_the_revision_as_kind() {
        let trials = trials(
            Arc::new(Target::InProcess(Arc::new(ReferenceValidator::new()))),
            Ok(SuiteSet::load(SuiteTree::embedded())),
        );
        let names: Vec<(String, String)> = trials
            .iter()
            .map(|t| (t.kind().to_owned(), t.name().to_owned()))
            .collect();
        assert!(names.contains(&(
            "2025-11-25".to_owned(),
            "document/expected-valid/minimal.json".to_owned()
        )));
        let listed = harness().arg("list").output().unwrap();
        let listed: Vec<String> = stdout_of(&listed).lines().map(str::to_owned).collect();
        let from_trials: Vec<String> = names
            .iter()
            .map(|(kind, name)| format!("{name}@{kind}"))
            .collect();
        assert_eq!(from_trials, listed);
    }

    #[test]
    fn a_suite_problem_is_a_failing_trial_of_its_own() {
        let trials = trials(
            Arc::new(Target::InProcess(Arc::new(ReferenceValidator::new()))),
            Err("cannot read".into()),
        );
        assert_eq!(trials.len(), 1);
        assert_eq!(trials[0].name(), "suite::load");
    }

    #[test]
    fn an_edited_pointer_fails_the_trial_naming_revision_rule_and_pointer() {
        let dir = suite_copy();
        let validator = ReferenceValidator::new();
        let supported = validator.implementation().revisions;
        let validator = Target::InProcess(Arc::new(validator));
        let fixture = "elicitation/expected-invalid/declaration-name-pattern.json";
        let set = load(dir.path());
        assert_eq!(
            check_case(&set, fixture, Revision::R2024_11_05, &validator, &supported),
            Ok(())
        );
        edit_one_pointer(dir.path());
        let set = load(dir.path());
        let failure =
            check_case(&set, fixture, Revision::R2024_11_05, &validator, &supported).unwrap_err();
        assert_contains(
            &failure,
            &[
                "FAIL elicitation/expected-invalid/declaration-name-pattern.json under 2024-11-05",
                "-error mcpdesc.elicitation.name \"/tools/0/elicitations\"",
                "+error mcpdesc.elicitation.name \"/tools/0/elicitations/0/name\"",
            ],
        );
    }
}

/// The examples of the seed rule pages, which the suite must reproduce
/// exactly: (fixture, rule, selected pointer) for the invalid ones.
mod seed {
    use mcpdesc_conformance::case::Selection;
    use mcpdesc_conformance::compare::Level;
    use mcpdesc_conformance::runner::{self, Outcome};
    use mcpdesc_conformance::suite::SuiteSet;
    use mcpdesc_conformance::tree::SuiteTree;
    use mcpdesc_validator::ReferenceValidator;

    use super::*;

    const INVALID: [(&str, &str, &str); 5] = [
        (
            "elicitation/expected-invalid/elicitation-version-mismatch.json",
            "mcp.elicitation.protocol-version",
            "/tools/0/elicitations/0",
        ),
        (
            "elicitation/expected-invalid/invalid-tool-interaction-example-semantics.json",
            "mcp.elicitation.protocol-version",
            "/tools/0/interactionExamples/broken/steps/0/request",
        ),
        (
            "elicitation/expected-invalid/elicitation-form-semantics.json",
            "mcpdesc.elicitation.form-schema.consistency",
            "/prompts/0/elicitations/0/requestedSchema/required",
        ),
        (
            "elicitation/expected-invalid/elicitation-form-invalid-range.json",
            "mcpdesc.elicitation.form-schema.consistency",
            "/prompts/0/elicitations/0/requestedSchema/properties/count",
        ),
        (
            "elicitation/expected-invalid/elicitation-form-schema-2025-06-18.json",
            "mcp.elicitation.form-schema.protocol-shape",
            "/prompts/0/elicitations/0/requestedSchema",
        ),
    ];

    #[test]
    fn every_seed_example_is_reported_by_the_reference_validator_and_expected() {
        let set = SuiteSet::load(SuiteTree::embedded());
        assert_eq!(set.problems, []);
        let validator = ReferenceValidator::new();
        for (fixture, rule, pointer) in INVALID {
            let selection = Selection {
                filters: vec![fixture.to_owned()],
                ..Selection::default()
            };
            let cases = selection.cases(&set);
            let results = runner::run_in_process(&cases, &set.rules, &validator);
            let mut revisions = Vec::new();
            for result in &results {
                let Outcome::Compared(comparison) = &result.outcome else {
                    panic!("{fixture}: {:?}", result.outcome);
                };
                assert!(
                    comparison.passes(Level::Exact),
                    "{fixture} under {}",
                    result.revision
                );
                if comparison
                    .actual
                    .iter()
                    .any(|f| f.rule == rule && f.path == pointer)
                {
                    revisions.push(result.revision);
                }
            }
            assert!(
                !revisions.is_empty(),
                "{fixture}: {rule} at {pointer} under no revision"
            );
        }
    }

    #[test]
    fn the_seed_valid_example_is_valid_under_every_revision_it_runs_under() {
        let set = SuiteSet::load(SuiteTree::embedded());
        let entry = set
            .entry("elicitation/expected-valid/elicitation-declarations.json")
            .unwrap();
        let expectation = entry.expectation.as_ref().unwrap();
        assert!(
            expectation
                .revisions
                .contains_key(&mcpdesc_protocol::Revision::R2025_06_18)
        );
        assert!(
            expectation.revisions.values().all(Vec::is_empty),
            "{expectation:?}"
        );
    }

    #[test]
    fn a_catalog_example_that_drifts_from_the_suite_is_a_suite_error() {
        let dir = suite_copy();
        let catalog = dir.path().join("suites/elicitation.yaml");
        let text = fs::read_to_string(&catalog).unwrap();
        let drifted = text.replacen(
            "selected: /prompts/0/elicitations/0/requestedSchema/properties/count",
            "selected: /prompts/0/elicitations/0/requestedSchema/properties",
            1,
        );
        assert_ne!(text, drifted);
        fs::write(&catalog, drifted).unwrap();
        let output = harness()
            .arg("run")
            .arg("--suite-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_contains(
            &stderr_of(&output),
            &[
                "example `expected-invalid/elicitation-form-invalid-range.json`: the expectation never reports this rule",
            ],
        );
    }
}

/// The suite has teeth: a validator that lacks any one rule fails it.
mod mutation {
    use mcpdesc_conformance::case::Selection;
    use mcpdesc_conformance::compare::Level;
    use mcpdesc_conformance::runner;
    use mcpdesc_conformance::suite::SuiteSet;
    use mcpdesc_conformance::summary::Summary;
    use mcpdesc_conformance::tree::SuiteTree;
    use mcpdesc_validator::{ReferenceValidator, rule};

    #[test]
    fn the_catalogs_hold_exactly_the_rules_the_reference_validator_checks() {
        let set = SuiteSet::load(SuiteTree::embedded());
        let mut catalog: Vec<&str> = set.rules.iter().map(|rule| rule.id.as_str()).collect();
        catalog.sort_unstable();
        let mut implemented = rule::ALL.to_vec();
        implemented.sort_unstable();
        assert_eq!(catalog, implemented);
    }

    #[test]
    fn switching_off_any_one_rule_fails_the_suite_at_the_exact_level() {
        let set = SuiteSet::load(SuiteTree::embedded());
        let cases = Selection::default().cases(&set);
        for id in rule::ALL {
            let validator = ReferenceValidator::new().without_rule(id);
            let summary = Summary::of(&runner::run_in_process(&cases, &set.rules, &validator));
            assert!(
                summary.total.failed_at(Level::Exact) > 0,
                "a validator without `{id}` still passes every case"
            );
        }
    }
}

/// `smoke` explains adapter mistakes in plain words.
mod smoke {
    use super::*;

    fn smoke(mistake: &str) -> (Option<i32>, String) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/faulty_adapter.py");
        let command = format!("python3 '{}' {mistake}", script.display());
        let output = harness()
            .args([
                "smoke",
                "--start-timeout",
                "2",
                "--timeout",
                "2",
                "--validator",
                &command,
            ])
            .output()
            .unwrap();
        (output.status.code(), stdout_of(&output))
    }

    #[test]
    fn a_correct_adapter_passes() {
        let (code, stdout) = smoke("none");
        assert_eq!(code, Some(0), "{stdout}");
        assert_contains(
            &stdout,
            &[
                "ok    start: protocol 1, `faulty` 0 (python)",
                "ok    stop: exited with status 0",
                "no problem found",
            ],
        );
    }

    #[test]
    fn each_mistake_is_explained() {
        let cases: [(&str, &[&str]); 9] = [
            (
                "silent-start",
                &["no reply to `start` within 2.0s", "then flush stdout"],
            ),
            (
                "protocol-2",
                &["says `\"protocol\": 2`, but this harness speaks protocol 1"],
            ),
            (
                "not-json",
                &[
                    "the reply is not JSON",
                    "anything else (logs, progress) on stderr",
                ],
            ),
            (
                "no-seq",
                &["the reply has no `seq`; echo the request's `\"seq\": "],
            ),
            ("wrong-seq", &["but answers the request with `\"seq\": "]),
            (
                "diagnostics-object",
                &["`diagnostics` is a JSON object, not an array"],
            ),
            (
                "relative-path",
                &[
                    "`path` \"info\" is not an RFC 6901 JSON pointer: it must be empty (the document root) or start with `/`",
                ],
            ),
            (
                "fatal-severity",
                &["`severity` is \"fatal\"; use \"error\" or \"warning\""],
            ),
            (
                "unknown-rule",
                &["rule `my.own.rule` is in no catalog of the suite"],
            ),
        ];
        for (mistake, explanations) in cases {
            let (code, stdout) = smoke(mistake);
            assert_eq!(code, Some(1), "{mistake}\n{stdout}");
            assert_contains(&stdout, &["FAIL"]);
            assert_contains(&stdout, explanations);
        }
    }

    #[test]
    fn an_adapter_that_cannot_start_exits_3() {
        let output = harness()
            .args(["smoke", "--validator", "/nonexistent/adapter --stdio"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(3));
        assert_contains(
            &stdout_of(&output),
            &["cannot start `/nonexistent/adapter --stdio`"],
        );
    }
}

/// The reference validator reached three ways gives the same outcome for
/// every case.
mod modes {
    use std::path::PathBuf;
    use std::sync::OnceLock;

    use mcpdesc_conformance::case::Selection;
    use mcpdesc_conformance::external::{self, ExternalValidator, Mode};
    use mcpdesc_conformance::runner::{self, CaseResult, Outcome};
    use mcpdesc_conformance::suite::SuiteSet;
    use mcpdesc_conformance::tree::SuiteTree;
    use mcpdesc_validator::ReferenceValidator;

    /// `mcpdesc-validate`, built for this test run: it belongs to another
    /// package, so Cargo does not build it for this one's tests by itself.
    fn reference_binary() -> &'static PathBuf {
        static BINARY: OnceLock<PathBuf> = OnceLock::new();
        BINARY.get_or_init(|| {
            let status = std::process::Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "mcpdesc-validator",
                    "--bin",
                    "mcpdesc-validate",
                ])
                .status()
                .unwrap();
            assert!(status.success());
            // This test binary is target/<profile>/deps/cli-<hash>.
            let exe = std::env::current_exe().unwrap();
            let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
            profile_dir.join(format!("mcpdesc-validate{}", std::env::consts::EXE_SUFFIX))
        })
    }

    fn outcomes(results: &[CaseResult]) -> Vec<(String, String, Outcome)> {
        results
            .iter()
            .map(|result| {
                (
                    result.fixture.clone(),
                    result.revision.to_string(),
                    result.outcome.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn in_process_session_and_oneshot_agree_case_by_case() {
        let set = SuiteSet::load(SuiteTree::embedded());
        let cases = Selection::default().cases(&set);
        let in_process = outcomes(&runner::run_in_process(
            &cases,
            &set.rules,
            &ReferenceValidator::new(),
        ));
        assert_eq!(in_process.len(), cases.len());
        let binary = reference_binary().display().to_string();
        for (flag, mode) in [("--stdio", Mode::Session), ("--oneshot", Mode::Oneshot)] {
            let validator = ExternalValidator::new(vec![binary.clone(), flag.to_owned()], mode);
            let run = external::run(&cases, &set.rules, &validator);
            assert_eq!(run.unavailable, None);
            let external = outcomes(&run.results);
            for (left, right) in in_process.iter().zip(&external) {
                assert_eq!(left, right, "{flag}");
            }
            assert_eq!(in_process.len(), external.len());
        }
    }
}
