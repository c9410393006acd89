//! What a validator or a fixture says reaches the terminal only as visible
//! characters: no escape sequence, no NUL byte, no forged report line.

use super::*;

const FORGED: &str = "370 cases: 370 passed (forged)";

/// Asserts that `output` (stdout or stderr) holds no byte or character that
/// acts on a terminal, and no forged line.
#[track_caller]
fn assert_inert(output: &[u8], what: &str) {
    let text = String::from_utf8_lossy(output);
    for (bad, name) in [
        ('\u{1b}', "ESC"),
        ('\0', "NUL"),
        ('\u{202e}', "a bidi override"),
        ('\u{9b}', "a C1 control"),
    ] {
        assert!(!text.contains(bad), "{what} holds {name}:\n{text}");
    }
    assert!(
        !text.lines().any(|line| line.starts_with(FORGED)),
        "{what} holds a forged line:\n{text}"
    );
}

#[test]
fn what_a_validator_says_is_escaped_in_the_report() {
    let command = super::external_support::python("hostile_validator.py", "");
    let output = harness()
        .args([
            "run",
            "--jobs",
            "1",
            "--timeout",
            "5",
            "--validator",
            &command,
        ])
        .args(["--filter", "document/*/minimal.json"])
        .args(["--filter", "document/*/missing-info.json"])
        .args(["--filter", "document/*/legacy-revisions.json"])
        .args(["--filter", "document/*/all-five-revisions.json"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_inert(&output.stdout, "stdout");
    assert_inert(&output.stderr, "stderr");
    // The hostile words are shown, escaped: the implementation's name, a
    // rule, a pointer, an error message, a stderr tail.
    assert_contains(
        &stdout,
        &[
            "validator hostile\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases: 370 passed (forged)\\n 1\\x1b",
            "error mcpdesc.document.shape\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases",
            "\"/info\\u001b[31m\\u0000\\u{202e}\\u{9b}\\n\\n370 cases",
            "the validator reported an error: \\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases",
            &format!("\n      {FORGED}\n"),
        ],
    );
}

#[test]
fn what_a_fixture_says_is_escaped_in_the_report() {
    let dir = suite_copy();
    let fixture = dir
        .path()
        .join("fixtures/elicitation/expected-invalid/declaration-name-pattern.json");
    let mut document: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&fixture).unwrap()).unwrap();
    document["x-test"] = format!("A name with a space.\u{1b}[2J\0\u{202e}\n\n{FORGED}").into();
    fs::write(&fixture, serde_json::to_string_pretty(&document).unwrap()).unwrap();
    edit_one_pointer(dir.path());
    let output = on_tree("run", dir.path());
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_inert(&output.stdout, "stdout");
    assert_contains(
        &stdout,
        &[&format!(
            "tests:   A name with a space.\\x1b[2J\\0\\u{{202e}}\\n\\n{FORGED}"
        )],
    );
}

#[test]
fn what_an_adapter_says_is_escaped_by_smoke() {
    let command = super::external_support::python("hostile_validator.py", "");
    let output = harness()
        .args(["smoke", "--timeout", "5", "--validator", &command])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_inert(&output.stdout, "stdout");
    assert_contains(
        &stdout,
        &["`hostile\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases: 370 passed (forged)\\n`"],
    );
}
