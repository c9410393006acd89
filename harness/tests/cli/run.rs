use super::*;

#[test]
fn the_built_in_suite_passes_with_rates_per_level_and_revision() {
    let output = harness().arg("run").output().unwrap();
    let stdout = stdout_of_success(&output);
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
            "FAIL elicitation/expected-invalid/declaration-name-pattern.json@",
            "exact: FAIL",
            "--- expected",
            "+++ actual",
            "-error mcpdesc.elicitation.name \"/tools/0/elicitations\"",
            "+error mcpdesc.elicitation.name \"/tools/0/elicitations/0/name\"",
            "(line ",
        ],
    );
    // The lines around each differing pointer, numbered, the pointed one
    // marked.
    assert_contains(
        &stdout,
        &[
            "  line 29: \"/tools/0/elicitations\" expected, not reported\n      27 |",
            "    > 29 |       \"elicitations\": [\n      30 |         {\n",
            "  line 31: \"/tools/0/elicitations/0/name\" reported, not expected\n",
            "    > 31 |           \"name\": \"confirm delete\",\n",
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
fn a_broken_fixture_is_a_suite_error_and_nothing_is_judged() {
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
    assert_contains(&stderr, &["no case was judged"]);
    assert!(!stdout.contains("cases:"), "{stdout}");
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
