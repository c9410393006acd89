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

/// Runs `mcpdesc-conformance COMMAND --suite-dir DIR`.
fn on_tree(command: &str, dir: &Path) -> std::process::Output {
    harness()
        .arg(command)
        .arg("--suite-dir")
        .arg(dir)
        .output()
        .unwrap()
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
        let output = on_tree("run", dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    }

    #[test]
    fn an_edited_pointer_fails_naming_fixture_revision_rule_and_pointer_with_a_diff() {
        let dir = suite_copy();
        edit_one_pointer(dir.path());
        let output = on_tree("run", dir.path());
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
        let output = on_tree("run", dir.path());
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
        let output = on_tree("check", dir.path());
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
        let output = on_tree("bless", dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        assert_contains(
            &stdout_of(&output),
            &[
                "--- /dev/null",
                "+++ b/expected/elicitation/expected-invalid/declaration-name-pattern.json.yaml",
            ],
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), original);
        let again = on_tree("bless", dir.path());
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
        let output = on_tree("run", dir.path());
        assert_eq!(output.status.code(), Some(2));
        assert_contains(
            &stderr_of(&output),
            &["gone.json.yaml: expectation file has no fixture"],
        );
        let output = on_tree("bless", dir.path());
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
        let output = on_tree("run", dir.path());
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
        let cases: [(&str, &[&str]); 10] = [
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
            (
                "extra-line",
                &[
                    "after its reply the validator wrote another line nobody asked for: \"{\\\"progress\\\": \\\"done\\\"}\"",
                ],
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
    fn a_run_in_which_every_case_is_skipped_is_not_a_pass() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/faulty_adapter.py");
        let command = format!("python3 '{}' future-revisions-only", script.display());
        let output = harness()
            .args(["run", "--suite", "document", "--validator", &command])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", stdout_of(&output));
        assert_contains(
            &stderr_of(&output),
            &["no case was judged: the validator skipped every selected case"],
        );
    }

    #[test]
    fn a_oneshot_program_that_does_not_exist_exits_3() {
        for program in ["/nonexistent/validator", "no-such-validator-on-path"] {
            let output = harness()
                .args(["run", "--oneshot", "--validator", program])
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(3), "{program}");
            assert_contains(&stderr_of(&output), &[&format!("cannot find `{program}`")]);
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
    pub(super) fn reference_binary() -> &'static PathBuf {
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

/// The JSON Schemas of `docs/schemas/` describe what really goes over the
/// wire, and the harness's strict decoder agrees with them.
mod schemas {
    use std::collections::BTreeMap;

    use jsonschema::{Registry, Validator};
    use mcpdesc_conformance::wire;
    use mcpdesc_protocol::{
        Command as Message, Diagnostic, HarnessInfo, Implementation, PROTOCOL_VERSION, Reply,
        ReplyMessage, Revision, Severity, Skip, StartReply, ValidateRequest, ValidatorError,
    };
    use serde_json::{Value, json};

    use super::*;

    const NAMES: [&str; 8] = [
        "start",
        "start-reply",
        "validate",
        "reply",
        "oneshot-reply",
        "stop",
        "diagnostic",
        "implementation",
    ];

    /// Every schema, compiled offline: the `$ref`s between them resolve
    /// through a registry of the files themselves, never the network.
    fn schemas() -> BTreeMap<&'static str, Validator> {
        let dir = workspace().join("docs/schemas");
        let mut documents = Vec::new();
        for name in NAMES {
            let path = dir.join(format!("{name}.json"));
            let text = fs::read_to_string(&path).unwrap();
            let schema: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(
                schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{name}"
            );
            if let Err(error) = jsonschema::meta::validate(&schema) {
                panic!("{name}.json is not a valid draft 2020-12 schema: {error}");
            }
            let id = schema["$id"].as_str().unwrap().to_owned();
            assert!(id.ends_with(&format!("/{name}.json")), "{name}: $id {id}");
            documents.push((name, id, schema));
        }
        let mut registry = Registry::new();
        for (_, id, schema) in &documents {
            registry = registry.add(id, schema.clone()).unwrap();
        }
        let registry = registry.prepare().unwrap();
        documents
            .iter()
            .map(|(name, _, schema)| {
                let validator = jsonschema::options()
                    .offline()
                    .with_registry(&registry)
                    .build(schema)
                    .unwrap_or_else(|error| panic!("{name}.json: {error}"));
                (*name, validator)
            })
            .collect()
    }

    #[track_caller]
    fn assert_valid(schemas: &BTreeMap<&str, Validator>, name: &str, message: &Value) {
        let errors: Vec<String> = schemas[name]
            .iter_errors(message)
            .map(|error| format!("{} at {}", error, error.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{message}\ndoes not match {name}.json:\n{}",
            errors.join("\n")
        );
    }

    fn lines(path: &Path) -> Vec<Value> {
        fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// A real session, recorded on both sides of the reference validator
    /// with `tee`: everything the harness sends and everything the
    /// validator answers matches its schema.
    #[test]
    fn a_recorded_session_matches_the_schemas() {
        let schemas = schemas();
        let dir = tempfile::tempdir().unwrap();
        let sent = dir.path().join("sent.jsonl");
        let answered = dir.path().join("answered.jsonl");
        let validator = format!(
            "sh -c 'tee \"$0\" | \"$1\" --stdio | tee \"$2\"' '{}' '{}' '{}'",
            sent.display(),
            super::modes::reference_binary().display(),
            answered.display()
        );
        let output = harness()
            .args(["run", "--jobs", "1", "--validator", &validator])
            .args(["--filter", "document/expected-valid/minimal.json"])
            .args(["--filter", "document/expected-valid/legacy-revisions.json"])
            .args([
                "--filter",
                "document/expected-invalid/unknown-protocol-version.json",
            ])
            .args(["--filter", "*.yaml"])
            .args([
                "--filter",
                "elicitation/expected-invalid/elicitation-version-mismatch.json",
            ])
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let stdout = stdout_of(&output);
        // Whether the suite passes does not matter here (it may be mid-edit).
        assert!(
            matches!(output.status.code(), Some(0..=2)),
            "{stdout}\n{}",
            stderr_of(&output)
        );
        let sent = lines(&sent);
        let answered = lines(&answered);
        let (first, rest) = sent.split_first().unwrap();
        let (last, requests) = rest.split_last().unwrap();
        assert_valid(&schemas, "start", first);
        assert_valid(&schemas, "stop", last);
        assert!(requests.len() > 5, "{requests:?}");
        for request in requests {
            assert_valid(&schemas, "validate", request);
        }
        let (start_reply, replies) = answered.split_first().unwrap();
        assert_valid(&schemas, "start-reply", start_reply);
        assert_valid(&schemas, "implementation", &start_reply["implementation"]);
        assert_eq!(replies.len(), requests.len());
        let mut diagnostics = 0;
        for (request, reply) in requests.iter().zip(replies) {
            assert_valid(&schemas, "reply", reply);
            assert_eq!(reply["seq"], request["seq"]);
            for diagnostic in reply["diagnostics"].as_array().unwrap() {
                assert_valid(&schemas, "diagnostic", diagnostic);
                diagnostics += 1;
            }
        }
        assert!(diagnostics > 0, "{replies:?}");
        assert_contains(&stdout, &[&format!("; {} cases", requests.len())]);
    }

    /// The reply forms a plain run does not produce: an `error` reply from
    /// the reference validator's session mode, one-shot replies, and
    /// `skipped`, serialized from the contract types.
    #[test]
    fn every_reply_form_matches_the_schemas() {
        let schemas = schemas();
        let binary = super::modes::reference_binary();
        let session = Command::new(binary)
            .arg("--stdio")
            .stdin(
                "{\"cmd\":\"start\",\"protocol\":1,\"harness\":{\"name\":\"t\",\"version\":\"0\"}}\n\
                 {\"cmd\":\"validate\",\"seq\":5,\"revision\":\"1999-01-01\"}\n\
                 {\"cmd\":\"stop\"}\n",
            )
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        let replies: Vec<Value> = stdout_of(&session)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(replies.len(), 2, "{replies:?}");
        assert_valid(&schemas, "start-reply", &replies[0]);
        assert_valid(&schemas, "reply", &replies[1]);
        assert_eq!(replies[1]["seq"], 5);
        assert!(replies[1]["error"]["message"].is_string(), "{}", replies[1]);

        for (document, revision) in [
            (
                "{\"mcpdesc\":\"0.9.0\",\"info\":{\"name\":\"x\",\"version\":\"1\"},\"protocolVersions\":[\"2025-06-18\"]}",
                "2025-06-18",
            ),
            ("{\"protocolVersions\":[\"2025-03-26\", 7]}", "2025-03-26"),
            ("not json", "2025-06-18"),
        ] {
            let output = Command::new(binary)
                .arg("--oneshot")
                .env("MCPDESC_REVISION", revision)
                .env("MCPDESC_SPECIFICATION", "0.9.0")
                .env("MCPDESC_CASE", "by-hand")
                .stdin(document)
                .timeout(std::time::Duration::from_secs(30))
                .output()
                .unwrap();
            let reply: Value = serde_json::from_str(stdout_of(&output).trim()).unwrap();
            assert_valid(&schemas, "oneshot-reply", &reply);
        }

        let skipped = ReplyMessage {
            seq: 3,
            reply: Reply::Skipped(Skip {
                reason: "not yet".into(),
                issue: Some("https://example.invalid/1".into()),
            }),
        };
        assert_valid(&schemas, "reply", &serde_json::to_value(&skipped).unwrap());
        for reply in [
            Reply::Diagnostics(vec![
                Diagnostic::new("r", "/a~1b", Severity::Warning).with_message("m"),
            ]),
            Reply::Skipped(Skip {
                reason: "no".into(),
                issue: None,
            }),
            Reply::Error(ValidatorError {
                message: "boom".into(),
            }),
        ] {
            assert_valid(
                &schemas,
                "oneshot-reply",
                &serde_json::to_value(&reply).unwrap(),
            );
            let message = ReplyMessage { seq: 9, reply };
            assert_valid(&schemas, "reply", &serde_json::to_value(&message).unwrap());
        }
    }

    /// The contract types, as the harness serializes them, match the
    /// schemas of the messages it sends.
    #[test]
    fn the_contract_types_match_the_schemas() {
        let schemas = schemas();
        let start = Message::Start {
            protocol: PROTOCOL_VERSION,
            harness: HarnessInfo {
                name: "mcpdesc-conformance".into(),
                version: "0.1.0".into(),
            },
        };
        assert_valid(&schemas, "start", &serde_json::to_value(&start).unwrap());
        for revision in Revision::ALL {
            let validate = Message::Validate {
                seq: u64::MAX,
                request: ValidateRequest {
                    case: "document/expected-valid/x.json".into(),
                    specification: "0.9.0".into(),
                    revision,
                    document: json!(["any", "JSON"]).into(),
                },
            };
            assert_valid(
                &schemas,
                "validate",
                &serde_json::to_value(&validate).unwrap(),
            );
        }
        assert_valid(
            &schemas,
            "stop",
            &serde_json::to_value(Message::Stop).unwrap(),
        );
        let reply = StartReply {
            protocol: PROTOCOL_VERSION,
            implementation: Implementation {
                name: "v".into(),
                version: "1".into(),
                revisions: vec!["2025-06-18".into()],
                ..Implementation::default()
            },
        };
        assert_valid(
            &schemas,
            "start-reply",
            &serde_json::to_value(&reply).unwrap(),
        );
    }

    /// Replies to a request with `"seq": 7`: whether the contract allows
    /// each. The session-mode schema and `wire::decode_reply` must both say
    /// so; with the `seq` taken away where there is one, so must the
    /// one-shot schema and the one-shot decoder.
    const REPLIES: &[(&str, bool)] = &[
        (r#"{"seq":7,"diagnostics":[]}"#, true),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"error"}]}"#,
            true,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/a~0b/~1/0","severity":"warning","message":"m"}]}"#,
            true,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/","severity":"error","message":null}]}"#,
            true,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/ü/😀/ x","severity":"error","extra":[1]}]}"#,
            true,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"","path":"//","severity":"error"}]}"#,
            true,
        ),
        (
            r#"{"seq":7,"diagnostics":[],"note":{"anything":[1,2]}}"#,
            true,
        ),
        (r#"{"seq":7,"skipped":{"reason":"no"}}"#, true),
        (
            r#"{"seq":7,"skipped":{"reason":"no","issue":"https://x"}}"#,
            true,
        ),
        (
            r#"{"seq":7,"skipped":{"reason":"no","issue":null,"more":1}}"#,
            true,
        ),
        (r#"{"seq":7,"error":{"message":"boom"}}"#, true),
        (r#"{"error":{"message":"boom","code":3},"seq":7}"#, true),
        ("not json", false),
        ("", false),
        ("[]", false),
        ("\"reply\"", false),
        ("7", false),
        ("null", false),
        (r#"{"seq":7,"diagnostics":[]} trailing"#, false),
        (r#"{"seq":7}"#, false),
        (
            r#"{"seq":7,"diagnostics":[],"error":{"message":"x"}}"#,
            false,
        ),
        (
            r#"{"seq":7,"skipped":{"reason":"x"},"error":{"message":"x"}}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[],"skipped":{"reason":"x"}}"#,
            false,
        ),
        (r#"{"seq":7,"diagnostics":{}}"#, false),
        (r#"{"seq":7,"diagnostics":null}"#, false),
        (r#"{"seq":7,"diagnostics":"none"}"#, false),
        (r#"{"seq":7,"diagnostics":[null]}"#, false),
        (r#"{"seq":7,"diagnostics":[[]]}"#, false),
        (
            r#"{"seq":7,"diagnostics":[{"path":"","severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":1,"path":"","severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":3,"severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"a/b","severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"~1","severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/a~2","severity":"error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/a~","severity":"error"}]}"#,
            false,
        ),
        (r#"{"seq":7,"diagnostics":[{"rule":"r","path":""}]}"#, false),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"fatal"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"Error"}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":null}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"error","message":3}]}"#,
            false,
        ),
        (
            r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"error","message":["m"]}]}"#,
            false,
        ),
        (r#"{"seq":7,"skipped":{}}"#, false),
        (r#"{"seq":7,"skipped":"because"}"#, false),
        (r#"{"seq":7,"skipped":null}"#, false),
        (r#"{"seq":7,"skipped":{"reason":3}}"#, false),
        (r#"{"seq":7,"skipped":{"reason":"x","issue":3}}"#, false),
        (r#"{"seq":7,"error":"boom"}"#, false),
        (r#"{"seq":7,"error":{}}"#, false),
        (r#"{"seq":7,"error":{"message":null}}"#, false),
        (r#"{"seq":7,"error":null}"#, false),
    ];

    /// Session-mode replies whose only fault is their `seq`.
    const SEQS: &[(&str, bool)] = &[
        (r#"{"diagnostics":[]}"#, false),
        (r#"{"seq":"7","diagnostics":[]}"#, false),
        (r#"{"seq":null,"diagnostics":[]}"#, false),
        (r#"{"seq":-7,"diagnostics":[]}"#, false),
        (r#"{"seq":7.5,"diagnostics":[]}"#, false),
        (r#"{"seq":true,"diagnostics":[]}"#, false),
        (r#"{"seq":[7],"diagnostics":[]}"#, false),
    ];

    /// Where the schema cannot say what the decoder checks: a `seq` written
    /// with a fraction or an exponent is the integer 7 to JSON Schema, but
    /// the harness wants it written as a plain integer (the schema says so
    /// in words).
    const SEQ_SPELLINGS: &[&str] = &[
        r#"{"seq":7.0,"diagnostics":[]}"#,
        r#"{"seq":7e0,"diagnostics":[]}"#,
    ];

    fn schema_accepts(validator: &Validator, line: &str) -> bool {
        serde_json::from_str::<Value>(line).is_ok_and(|value| validator.is_valid(&value))
    }

    /// The same line without its `seq` member, when it is an object.
    fn without_seq(line: &str) -> Option<String> {
        let mut value: Value = serde_json::from_str(line).ok()?;
        value.as_object_mut()?.remove("seq")?;
        Some(value.to_string())
    }

    #[test]
    fn the_decoder_and_the_schemas_agree_on_replies() {
        let schemas = schemas();
        let mut disagreements = Vec::new();
        let mut check = |what: &str,
                         line: &str,
                         wanted: bool,
                         schema: bool,
                         decoder: Result<Reply, String>| {
            if schema != wanted || decoder.is_ok() != wanted {
                disagreements.push(format!(
                    "{what} {line}\n    wanted {wanted}; schema says {schema}; decoder says {decoder:?}"
                ));
            }
        };
        for &(line, wanted) in REPLIES.iter().chain(SEQS) {
            check(
                "session",
                line,
                wanted,
                schema_accepts(&schemas["reply"], line),
                wire::decode_reply(line, Some(7)),
            );
        }
        for &(line, wanted) in REPLIES {
            let line = without_seq(line).unwrap_or_else(|| line.to_owned());
            check(
                "one-shot",
                &line,
                wanted,
                schema_accepts(&schemas["oneshot-reply"], &line),
                wire::decode_reply(&line, None),
            );
        }
        // In one-shot mode `seq` means nothing, whatever it holds.
        for &(line, _) in SEQS {
            check(
                "one-shot",
                line,
                true,
                schema_accepts(&schemas["oneshot-reply"], line),
                wire::decode_reply(line, None),
            );
        }
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
        for line in SEQ_SPELLINGS {
            assert!(schema_accepts(&schemas["reply"], line), "{line}");
            assert!(wire::decode_reply(line, Some(7)).is_err(), "{line}");
        }
    }

    /// Replies to `start`: whether the contract allows each.
    const START_REPLIES: &[(&str, bool)] = &[
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
            true,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","language":"go","homepage":"https://h","issues":"https://i","specifications":["0.9.0"],"revisions":["2025-06-18","2025-11-25"],"rules":["mcpdesc.document.shape"]}}"#,
            true,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","homepage":null,"issues":null,"rules":null,"revisions":["2099-01-01"]}}"#,
            true,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"","version":"","revisions":["x"],"extra":{}},"extra":true}"#,
            true,
        ),
        ("ready", false),
        ("[]", false),
        (
            r#"{"implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
            false,
        ),
        (
            r#"{"protocol":2,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
            false,
        ),
        (
            r#"{"protocol":"1","implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
            false,
        ),
        (r#"{"protocol":1}"#, false),
        (r#"{"protocol":1,"implementation":"v"}"#, false),
        (
            r#"{"protocol":1,"implementation":{"version":"1","revisions":["2025-06-18"]}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","revisions":["2025-06-18"]}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":3,"version":"1","revisions":["2025-06-18"]}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1"}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":[]}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":"2025-06-18"}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":[20250618]}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"language":null}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"specifications":null}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"rules":"all"}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"rules":[1]}}"#,
            false,
        ),
        (
            r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"homepage":3}}"#,
            false,
        ),
    ];

    #[test]
    fn the_decoder_and_the_schema_agree_on_start_replies() {
        let schemas = schemas();
        let mut disagreements = Vec::new();
        for &(line, wanted) in START_REPLIES {
            let schema = schema_accepts(&schemas["start-reply"], line);
            let decoder = wire::decode_start(line);
            if schema != wanted || decoder.is_ok() != wanted {
                disagreements.push(format!(
                    "{line}\n    wanted {wanted}; schema says {schema}; decoder says {decoder:?}"
                ));
            }
        }
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    }
}

/// Helpers for the tests that run Python validators (`python3` must be on
/// PATH, as it is in CI):
/// a small fixed suite tree, running the harness on it and reading back
/// every case's outcome, and looking for processes left behind.
mod external_support {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use mcpdesc_conformance::case::Selection;
    use mcpdesc_conformance::compare::Level;
    use mcpdesc_conformance::runner::Outcome;
    use mcpdesc_conformance::suite::SuiteSet;
    use mcpdesc_conformance::tree::SuiteTree;
    use serde_json::{Value, json};

    use super::*;

    /// A file under `harness/tests/support/`.
    pub fn support(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/support")
            .join(name)
    }

    /// A text no other process on the machine has in its command line.
    pub fn marker() -> String {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.subsec_nanos());
        format!(
            "mcpdesc-test-marker-{}-{}-{nanos}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        )
    }

    /// The fixtures of the small suite, each with its expectation file.
    const FIXTURES: [&str; 4] = [
        "document/expected-invalid/unknown-protocol-version.json",
        "document/expected-valid/legacy-revisions.json",
        "document/expected-valid/minimal.json",
        "document/expected-valid/primitives.yaml",
    ];

    /// Its cases, in run order.
    pub const CASES: [&str; 7] = [
        "document/expected-invalid/unknown-protocol-version.json@2025-06-18",
        "document/expected-valid/legacy-revisions.json@2024-11-05",
        "document/expected-valid/legacy-revisions.json@2025-03-26",
        "document/expected-valid/minimal.json@2025-11-25",
        "document/expected-valid/primitives.yaml@2025-06-18",
        "document/expected-valid/primitives.yaml@2025-11-25",
        "document/expected-valid/primitives.yaml@2026-07-28",
    ];

    /// A small suite tree that does not grow with the real one: the
    /// `document` catalog (without its examples, whose fixtures are not
    /// copied) and four of its fixtures with their expectations; and an
    /// answers file holding, for each case, the findings its expectation
    /// lists, for the misbehaving validator to give back.
    pub struct MiniSuite {
        pub dir: tempfile::TempDir,
        pub answers: PathBuf,
    }

    impl MiniSuite {
        pub fn new() -> MiniSuite {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            let catalog = workspace().join("suites/document.yaml");
            let mut catalog: Value =
                mcpdesc_source::parse_yaml("document.yaml", &fs::read(&catalog).unwrap()).unwrap();
            for rule in catalog["rules"].as_array_mut().unwrap() {
                rule.as_object_mut().unwrap().remove("examples");
            }
            fs::create_dir_all(root.join("suites")).unwrap();
            // JSON is YAML too.
            fs::write(
                root.join("suites/document.yaml"),
                serde_json::to_string_pretty(&catalog).unwrap(),
            )
            .unwrap();
            for fixture in FIXTURES {
                for (from, to) in [
                    (format!("fixtures/{fixture}"), format!("fixtures/{fixture}")),
                    (
                        format!("expected/{fixture}.yaml"),
                        format!("expected/{fixture}.yaml"),
                    ),
                ] {
                    let target = root.join(to);
                    fs::create_dir_all(target.parent().unwrap()).unwrap();
                    fs::copy(workspace().join(from), target).unwrap();
                }
            }
            let set = SuiteSet::load(SuiteTree::from_dir(root).unwrap());
            assert_eq!(set.problems, [], "the small suite tree does not load");
            let cases = Selection::default().cases(&set);
            let ids: Vec<String> = cases.iter().map(|case| case.id()).collect();
            assert_eq!(
                ids, CASES,
                "the copied fixtures changed the small suite's cases; update CASES"
            );
            let mut answers = serde_json::Map::new();
            for case in &cases {
                let findings = case
                    .entry
                    .expectation
                    .as_ref()
                    .unwrap()
                    .findings(case.revision)
                    .unwrap();
                let diagnostics: Vec<Value> = findings
                    .iter()
                    .map(|finding| {
                        json!({"rule": finding.rule, "path": finding.path,
                               "severity": finding.severity.as_str()})
                    })
                    .collect();
                answers.insert(case.id(), Value::Array(diagnostics));
            }
            let answers_path = root.join("answers.json");
            fs::write(&answers_path, Value::Object(answers).to_string()).unwrap();
            MiniSuite {
                dir,
                answers: answers_path,
            }
        }

        /// The command line of the misbehaving validator with `arguments`.
        pub fn validator(&self, marker: &str, arguments: &str) -> String {
            format!(
                "python3 '{}' --answers '{}' --marker {marker} {arguments}",
                support("misbehaving_validator.py").display(),
                self.answers.display()
            )
        }
    }

    /// What one `mcpdesc-conformance run` did.
    #[derive(Debug)]
    pub struct Run {
        pub code: Option<i32>,
        pub stdout: String,
        pub stderr: String,
        pub elapsed: Duration,
    }

    /// Runs `mcpdesc-conformance run ARGS` on the small suite.
    pub fn run(suite: &MiniSuite, args: &[&str]) -> Run {
        let started = Instant::now();
        let output = harness()
            .arg("run")
            .arg("--suite-dir")
            .arg(suite.dir.path())
            .args(args)
            .timeout(Duration::from_secs(300))
            .output()
            .unwrap();
        Run {
            code: output.status.code(),
            stdout: stdout_of(&output),
            stderr: stderr_of(&output),
            elapsed: started.elapsed(),
        }
    }

    /// Each case's outcome as the human report tells it, one per case of
    /// `CASES`, in order: `pass` for a case without a FAIL block (none of
    /// these is skipped), otherwise what its FAIL block says (`crashed`,
    /// `timeout`, `protocol error`, `not run`, `validator error`, `suite
    /// error`, or `fail LEVELS` for a wrong answer). Also checks that no
    /// case has two FAIL blocks and that the summary counts agree.
    pub fn outcomes(run: &Run) -> Vec<String> {
        let mut found: BTreeMap<String, String> = BTreeMap::new();
        let blocks = run.stdout.split("\nFAIL ").skip(1);
        for block in blocks {
            let mut lines = block.lines();
            let header = lines.next().unwrap();
            let (case, levels) = header.split_once(" (").unwrap();
            let case = case.replacen(" under ", "@", 1);
            let outcome = lines
                .find_map(|line| {
                    let line = line.strip_prefix("  ")?;
                    [
                        ("crashed:", "crashed"),
                        ("timed out:", "timeout"),
                        ("protocol error:", "protocol error"),
                        ("not run:", "not run"),
                        ("the validator reported an error:", "validator error"),
                        ("suite error:", "suite error"),
                        ("--- expected", "compared"),
                        ("wrong whatever the expectation:", "compared"),
                    ]
                    .into_iter()
                    .find(|(label, _)| line.starts_with(label))
                    .map(|(_, outcome)| outcome.to_owned())
                })
                .unwrap_or_else(|| panic!("no outcome in the FAIL block of {case}:\n{block}"));
            let outcome = if outcome == "compared" {
                let failing: Vec<&str> = Level::ALL
                    .iter()
                    .filter(|level| levels.contains(&format!("{level}: FAIL")))
                    .map(|level| level.as_str())
                    .collect();
                format!("fail {}", failing.join("/"))
            } else {
                outcome
            };
            assert!(CASES.contains(&case.as_str()), "unknown case {case}");
            let earlier = found.insert(case.clone(), outcome);
            assert!(earlier.is_none(), "two outcomes for {case}\n{}", run.stdout);
        }
        let failed = found.len();
        assert_contains(
            &run.stdout,
            &[&format!(
                "{} cases: {} passed and {failed} failed at the exact level, 0 skipped",
                CASES.len(),
                CASES.len() - failed
            )],
        );
        CASES
            .iter()
            .map(|case| found.remove(*case).unwrap_or_else(|| "pass".to_owned()))
            .collect()
    }

    /// The processes whose command line holds `marker`, after waiting up
    /// to three seconds for killed ones to go.
    pub fn left_behind(marker: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let mut found = Vec::new();
            for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
                let name = entry.file_name();
                let Some(pid) = name
                    .to_str()
                    .filter(|name| name.bytes().all(|b| b.is_ascii_digit()))
                else {
                    continue;
                };
                let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
                    continue;
                };
                let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                if cmdline.contains(marker) {
                    found.push(format!("{pid}: {cmdline}"));
                }
            }
            if found.is_empty() || Instant::now() >= deadline {
                return found;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// One word for an outcome, as the snapshots and tables of these tests
    /// spell it.
    pub fn word(outcome: &Outcome) -> String {
        match outcome {
            Outcome::Compared(comparison) => {
                let failing: Vec<&str> = Level::ALL
                    .iter()
                    .filter(|level| !comparison.passes(**level))
                    .map(|level| level.as_str())
                    .collect();
                if failing.is_empty() {
                    "pass".to_owned()
                } else {
                    format!("fail {}", failing.join("/"))
                }
            }
            Outcome::Skipped(_) => "skipped".to_owned(),
            Outcome::ValidatorError(_) => "validator error".to_owned(),
            Outcome::Crashed(_) => "crashed".to_owned(),
            Outcome::Timeout(_) => "timeout".to_owned(),
            Outcome::ProtocolError(_) => "protocol error".to_owned(),
            Outcome::NotRun(_) => "not run".to_owned(),
            Outcome::SuiteError(_) => "suite error".to_owned(),
        }
    }
}

/// `examples/python-validator`: the whole built-in suite against it, case
/// by case, kept in a snapshot.
///
/// The snapshot changes whenever the suite does. Regenerate it with
/// `INSTA_UPDATE=always cargo test -p mcpdesc-conformance --test cli python_example`
/// (or `cargo insta test --review`) and review the diff like an expectation
/// change.
mod python_example {
    use std::fmt::Write as _;
    use std::time::Duration;

    use mcpdesc_conformance::case::Selection;
    use mcpdesc_conformance::compare::Level;
    use mcpdesc_conformance::external::{self, ExternalValidator, Mode};
    use mcpdesc_conformance::suite::SuiteSet;
    use mcpdesc_conformance::summary::Summary;
    use mcpdesc_conformance::tree::SuiteTree;
    use serde_json::Value;

    use super::external_support::word;
    use super::*;

    fn script() -> PathBuf {
        workspace().join("examples/python-validator/validator.py")
    }

    #[test]
    fn its_outcome_on_the_built_in_suite_case_by_case() {
        let set = SuiteSet::load(SuiteTree::embedded());
        let cases = Selection::default().cases(&set);
        let validator = ExternalValidator::new(
            vec!["python3".to_owned(), script().display().to_string()],
            Mode::Session,
        );
        let run = external::run(&cases, &set.rules, &validator);
        assert_eq!(run.unavailable, None);
        assert_eq!(run.implementation.name, "python-example");
        assert_eq!(run.results.len(), cases.len());
        let mut text = String::new();
        for (case, result) in cases.iter().zip(&run.results) {
            assert_eq!(
                (result.fixture.as_str(), result.revision),
                (case.entry.fixture.id().as_str(), case.revision)
            );
            let _ = writeln!(text, "{} {}", case.id(), word(&result.outcome));
        }
        let summary = Summary::of(&run.results);
        let total = &summary.total;
        let _ = writeln!(
            text,
            "\n{} cases, {} skipped, {} errors; passed: verdict {}, rules {}, exact {}",
            total.cases,
            total.skipped,
            total.errors,
            total.passed_at(Level::Verdict),
            total.passed_at(Level::Rules),
            total.passed_at(Level::Exact)
        );
        insta::assert_snapshot!("outcomes", text);

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
        input.extend_from_slice(
            b"{\"cmd\":\"start\",\"protocol\":1,\"harness\":{\"name\":\"t\",\"version\":\"0\"}}\n\
              {\"cmd\":\"validate\",\"seq\":8,\"case\":\"c\",\"specification\":\"0.9.0\",\"revision\":\"2025-06-18\",\"document\":{\"mcpdesc\":\"0.8.0\",\"info\":{},\"protocolVersions\":[\"2025-06-18\",\"2025-09-01\"]}}\n\
              {\"cmd\":\"stop\"}\n\
              {\"cmd\":\"validate\",\"seq\":9}\n",
        );
        let output = Command::new("python3")
            .arg(script())
            .stdin(input)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stdout = stdout_of(&output);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{stdout}\n{}",
            stderr_of(&output)
        );
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
}

/// A validator that misbehaves in one chosen way, against the small suite:
/// every case gets exactly one outcome, the right one; the run ends in time;
/// and no process is left behind.
mod misbehaviour {
    use std::time::Duration;

    use super::external_support::{MiniSuite, left_behind, marker, outcomes, run};
    use super::*;

    const PASS: &str = "pass";

    /// Runs the misbehaving validator with `arguments` in session mode,
    /// with `--jobs 1`, a one-second `--timeout`, a 64 KiB line limit and
    /// the `extra` options; checks the exit status, each case's outcome,
    /// that the run took less than `timeouts` one-second timeouts plus 15 s
    /// for the rest, and that no process was left behind. Returns the
    /// report.
    fn check(
        arguments: &str,
        extra: &[(&str, &str)],
        code: i32,
        expected: [&str; 7],
        timeouts: u32,
    ) -> String {
        let suite = MiniSuite::new();
        let marker = marker();
        let validator = suite.validator(&marker, arguments);
        let mut options = vec![
            ("--validator", validator.as_str()),
            ("--jobs", "1"),
            ("--timeout", "1"),
            ("--start-timeout", "5"),
            ("--max-line-bytes", "65536"),
        ];
        for &(name, value) in extra {
            match options.iter_mut().find(|(known, _)| *known == name) {
                Some(option) => option.1 = value,
                None => options.push((name, value)),
            }
        }
        let args: Vec<&str> = options
            .iter()
            .flat_map(|&(name, value)| [name, value])
            .collect();
        let run = run(&suite, &args);
        let report = format!("`{arguments}` {extra:?}\n{}\n{}", run.stdout, run.stderr);
        assert_eq!(run.code, Some(code), "{report}");
        assert_eq!(outcomes(&run), expected, "{report}");
        let bound = Duration::from_secs(u64::from(timeouts) + 15);
        assert!(
            run.elapsed < bound,
            "took {:?}, more than {bound:?}\n{report}",
            run.elapsed
        );
        let left = left_behind(&marker);
        assert!(left.is_empty(), "left behind: {left:?}\n{report}");
        report
    }

    /// Cases 2, 4 and 6: each fresh process misbehaves on its second request.
    const EVERY_SECOND: [&str; 7] = [PASS, "X", PASS, "X", PASS, "X", PASS];

    fn every_second(outcome: &'static str) -> [&'static str; 7] {
        EVERY_SECOND.map(|word| if word == "X" { outcome } else { word })
    }

    #[test]
    fn a_well_behaved_validator_passes_every_case() {
        check("none", &[], 0, [PASS; 7], 0);
    }

    #[test]
    fn a_crash_fails_that_case_with_the_stderr_tail_and_the_run_goes_on() {
        let report = check("crash 2", &[], 1, every_second("crashed"), 0);
        assert_contains(
            &report,
            &[
                "crashed: the validator exited (closed its output) before answering the request",
                "misbehaving_validator: crashing on request 2 (document/expected-valid/legacy-revisions.json@2024-11-05)",
                "misbehaving_validator: crashing on request 2 (document/expected-valid/minimal.json@2025-11-25)",
                "misbehaving_validator: crashing on request 2 (document/expected-valid/primitives.yaml@2025-11-25)",
            ],
        );
    }

    #[test]
    fn a_hang_is_a_timeout() {
        let report = check("hang 2", &[], 1, every_second("timeout"), 3);
        assert_contains(
            &report,
            &[
                "timed out: no reply to the request within 1.0s",
                "misbehaving_validator: hanging on request 2",
            ],
        );
    }

    #[test]
    fn garbage_is_a_protocol_error() {
        let report = check("garbage 2", &[], 1, every_second("protocol error"), 0);
        assert_contains(
            &report,
            &[
                "protocol error: the reply is not JSON",
                "\"this is not JSON\"",
            ],
        );
    }

    #[test]
    fn a_wrong_seq_is_a_protocol_error() {
        let report = check("wrong-seq 2", &[], 1, every_second("protocol error"), 0);
        assert_contains(
            &report,
            &[
                "protocol error: the reply says `\"seq\": 1002` but answers the request with `\"seq\": 2`",
            ],
        );
    }

    #[test]
    fn an_oversized_line_is_a_protocol_error() {
        let report = check("oversized 2", &[], 1, every_second("protocol error"), 0);
        assert_contains(
            &report,
            &["protocol error: the reply to the request is a line longer than the limit"],
        );
        // The same replies fit under the default limit.
        check(
            "oversized 2",
            &[("--max-line-bytes", "16777216")],
            0,
            [PASS; 7],
            0,
        );
    }

    #[test]
    fn half_a_line_then_exit_is_a_crash() {
        let report = check("partial 2", &[], 1, every_second("crashed"), 0);
        assert_contains(
            &report,
            &[
                "crashed: the validator wrote \"{\\\"seq\\\": 2,\" without a line break and closed its output",
                "misbehaving_validator: writing half a reply and exiting",
            ],
        );
    }

    #[test]
    fn exiting_after_start_crashes_each_case_until_the_cutoff() {
        let report = check(
            "exit-after-start",
            &[("--max-consecutive-failures", "3")],
            1,
            [
                "crashed", "crashed", "crashed", "not run", "not run", "not run", "not run",
            ],
            0,
        );
        assert_contains(
            &report,
            &[
                "misbehaving_validator: exiting right after start",
                "not run: gave up on the validator after 3 failures in a row",
            ],
        );
    }

    #[test]
    fn the_cutoff_counts_failures_in_a_row_only() {
        // Every fresh process crashes on its first request: two in a row
        // reach the cutoff.
        check(
            "crash 1",
            &[("--max-consecutive-failures", "2")],
            1,
            [
                "crashed", "crashed", "not run", "not run", "not run", "not run", "not run",
            ],
            0,
        );
        // A crash every second case never makes two in a row.
        check(
            "crash 2",
            &[("--max-consecutive-failures", "2")],
            1,
            every_second("crashed"),
            0,
        );
    }

    #[test]
    fn a_stderr_flood_does_not_disturb_the_run() {
        // About 4 MB of stderr per case, 28 MB in all.
        check("stderr-flood 4", &[], 0, [PASS; 7], 0);
    }

    #[test]
    fn a_slow_start_within_the_start_timeout_is_fine() {
        // Longer than --timeout, shorter than --start-timeout.
        check("slow-start 1.5", &[], 0, [PASS; 7], 2);
    }

    #[test]
    fn a_start_slower_than_the_start_timeout_exits_3() {
        let suite = MiniSuite::new();
        let marker = marker();
        let validator = suite.validator(&marker, "slow-start 3");
        let run = run(
            &suite,
            &[
                "--validator",
                &validator,
                "--start-timeout",
                "1",
                "--jobs",
                "1",
            ],
        );
        assert_eq!(run.code, Some(3), "{}\n{}", run.stdout, run.stderr);
        assert_contains(
            &run.stderr,
            &["error: the validator could not be started: no reply to `start` within 1.0s"],
        );
        assert!(run.elapsed < Duration::from_secs(15), "{:?}", run.elapsed);
        assert_eq!(left_behind(&marker), Vec::<String>::new());
    }

    #[test]
    fn a_validator_that_cannot_start_exits_3() {
        let suite = MiniSuite::new();
        for (validator, message) in [
            (
                "/nonexistent/validator --stdio".to_owned(),
                "error: the validator could not be started: cannot start `/nonexistent/validator --stdio`",
            ),
            (
                suite.validator(&marker(), "bad-start"),
                "error: the validator could not be started: the reply to `start` says `\"protocol\": 2`",
            ),
        ] {
            let run = run(&suite, &["--validator", &validator]);
            assert_eq!(
                run.code,
                Some(3),
                "{validator}\n{}\n{}",
                run.stdout,
                run.stderr
            );
            assert_contains(&run.stderr, &[message]);
            assert!(!run.stdout.contains("FAIL"), "{}", run.stdout);
        }
    }

    /// A process the validator started, holding its stdout and stderr, must
    /// neither turn a crash into a timeout nor outlive the run.
    #[test]
    fn a_grandchild_holding_the_pipes_changes_nothing_and_is_killed() {
        check("--grandchild none", &[], 0, [PASS; 7], 0);
        let report = check("--grandchild crash 2", &[], 1, every_second("crashed"), 0);
        assert_contains(&report, &["misbehaving_validator: crashing on request 2"]);
        check("--grandchild hang 2", &[], 1, every_second("timeout"), 3);
        check("--grandchild partial 2", &[], 1, every_second("crashed"), 0);
    }

    /// With several processes the order is not fixed, but every case still
    /// gets one outcome and nothing is left behind.
    #[test]
    fn several_workers_give_every_case_one_outcome() {
        let suite = MiniSuite::new();
        let marker = marker();
        let validator = suite.validator(&marker, "--grandchild crash 2");
        let run = run(
            &suite,
            &["--validator", &validator, "--jobs", "3", "--timeout", "1"],
        );
        assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
        let outcomes = outcomes(&run);
        assert!(
            outcomes.iter().all(|o| o == "pass" || o == "crashed"),
            "{outcomes:?}"
        );
        assert!(outcomes.iter().any(|o| o == "crashed"), "{outcomes:?}");
        assert!(run.elapsed < Duration::from_secs(15), "{:?}", run.elapsed);
        assert_eq!(left_behind(&marker), Vec::<String>::new());
    }
}

/// One-shot mode: a process per case, judged by its reply and exit status.
mod oneshot {
    use std::time::Duration;

    use super::external_support::{MiniSuite, left_behind, marker, outcomes, run};
    use super::*;

    const PASS: &str = "pass";

    /// Runs the misbehaving validator in one-shot mode; the cases of
    /// `minimal.json` (the fourth case) misbehave as `mode` says.
    fn check(mode: &str, code: i32, fourth: &str, timeouts: u32) -> String {
        let suite = MiniSuite::new();
        let marker = marker();
        let validator = suite.validator(&marker, &format!("--oneshot {mode} minimal.json"));
        let run = run(
            &suite,
            &[
                "--oneshot",
                "--validator",
                &validator,
                "--jobs",
                "1",
                "--timeout",
                "1",
            ],
        );
        let report = format!("{mode}\n{}\n{}", run.stdout, run.stderr);
        assert_eq!(run.code, Some(code), "{report}");
        assert_eq!(
            outcomes(&run),
            [PASS, PASS, PASS, fourth, PASS, PASS, PASS],
            "{report}"
        );
        let bound = Duration::from_secs(u64::from(timeouts) + 15);
        assert!(run.elapsed < bound, "took {:?}\n{report}", run.elapsed);
        let left = left_behind(&marker);
        assert!(left.is_empty(), "left behind: {left:?}\n{report}");
        report
    }

    #[test]
    fn a_well_behaved_validator_passes_every_case() {
        check("none", 0, PASS, 0);
    }

    #[test]
    fn exit_status_2_with_a_valid_reply_is_a_crash() {
        let report = check("exit-2", 1, "crashed", 0);
        assert_contains(
            &report,
            &["crashed: the validator ended with exit status: 2 (only 0 and 1 are normal)"],
        );
    }

    #[test]
    fn no_reply_is_a_crash() {
        let report = check("no-reply", 1, "crashed", 0);
        assert_contains(&report, &["crashed: the validator exited without a reply"]);
    }

    #[test]
    fn a_hang_is_a_timeout() {
        let report = check("hang", 1, "timeout", 1);
        assert_contains(&report, &["timed out: no complete reply within 1.0s"]);
    }

    #[test]
    fn two_reply_lines_are_a_protocol_error() {
        let report = check("two-lines", 1, "protocol error", 0);
        assert_contains(&report, &["protocol error: more than one reply line"]);
    }

    /// A helper the validator leaves running with its stdout open does not
    /// make a finished case time out, and is killed.
    #[test]
    fn a_grandchild_holding_stdout_is_killed_and_the_reply_counts() {
        check("--grandchild none", 0, PASS, 0);
    }
}
