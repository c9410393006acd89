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
