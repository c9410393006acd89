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
