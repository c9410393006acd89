//! The command line itself: how limits are written, which options need
//! which, one spelling for a case, empty selections and closed pipes.

use std::io::Read;
use std::process::{Command as StdCommand, Stdio};

use super::*;

/// `run --validator X ARGS`, with a selection that matches nothing, so
/// only the arguments are at stake: a refused argument exits 2 naming it,
/// an accepted one reaches "no case matches".
fn arguments(args: &[&str]) -> (Option<i32>, String) {
    let output = harness()
        .args(["run", "--filter", "no-such-fixture"])
        .args(args)
        .output()
        .unwrap();
    (output.status.code(), stderr_of(&output))
}

#[test]
fn timeouts_take_durations_as_people_write_them() {
    for value in ["5", "1.5", "500ms", "2s", "1m", "1m 30s"] {
        for option in ["--timeout", "--start-timeout"] {
            let (code, stderr) = arguments(&["--validator", "v", option, value]);
            assert_eq!(code, Some(2), "{option} {value}: {stderr}");
            assert_contains(&stderr, &["error: no case matches the selection"]);
        }
    }
}

#[test]
fn zero_negative_nan_and_absurd_timeouts_are_refused_clearly() {
    for (value, why) in [
        ("0", "is not a positive duration"),
        ("-1", "is not a positive duration"),
        ("-0.5", "is not a positive duration"),
        ("NaN", "is not a number"),
        ("1ns", "is too short to be a time limit"),
        ("0.001", "is too short to be a time limit"),
        ("2d", "is too long to be a time limit"),
        ("5 parsecs", "is not a duration"),
    ] {
        let (code, stderr) = arguments(&["--validator", "v", "--timeout", value]);
        assert_eq!(code, Some(2), "{value}: {stderr}");
        assert_contains(
            &stderr,
            &[
                &format!("invalid value '{value}' for '--timeout <DURATION>'"),
                why,
            ],
        );
        assert!(!stderr.contains("unexpected argument"), "{stderr}");
    }
}

#[test]
fn a_line_limit_of_zero_is_refused() {
    let (code, stderr) = arguments(&["--validator", "v", "--max-line-bytes", "0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_contains(&stderr, &["'--max-line-bytes <BYTES>'"]);
    let (code, stderr) = arguments(&["--validator", "v", "--max-diagnostics", "0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_contains(&stderr, &["'--max-diagnostics <N>'"]);
    let (code, stderr) = arguments(&["--validator", "v", "--pipeline", "0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_contains(&stderr, &["'--pipeline <N>'"]);
}

#[test]
fn pipeline_is_refused_with_oneshot() {
    let (code, stderr) = arguments(&["--validator", "v", "--oneshot", "--pipeline", "4"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &["'--oneshot' cannot be used with '--pipeline <N>'"],
    );
}

#[test]
fn validator_options_without_a_validator_are_refused() {
    for args in [
        &["--oneshot"][..],
        &["--timeout", "5"],
        &["--start-timeout", "5"],
        &["--max-line-bytes", "100"],
        &["--max-diagnostics", "100"],
        &["--max-consecutive-failures", "3"],
        &["--pipeline", "4"],
        &["--source-text", "yaml"],
    ] {
        let (code, stderr) = arguments(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_contains(&stderr, &["--validator <CMD>"]);
    }
    // --jobs sizes the built-in validator's threads too.
    let (code, stderr) = arguments(&["--jobs", "1"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_contains(&stderr, &["error: no case matches the selection"]);
}

#[test]
fn jobs_sizes_the_in_process_run() {
    let output = harness()
        .args(["run", "--suite", "document", "--jobs", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}

#[test]
fn list_with_an_empty_selection_exits_2_as_run_does() {
    for command in ["list", "run"] {
        let output = harness()
            .args([command, "--filter", "no-such-fixture"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert_contains(
            &stderr_of(&output),
            &["error: no case matches the selection"],
        );
    }
}

/// Each ID that `list` prints, given to `--filter`, selects exactly that
/// case, for `list` and for `run`.
#[test]
fn a_listed_case_id_pasted_into_filter_selects_exactly_that_case() {
    let listed = stdout_of(&harness().arg("list").output().unwrap());
    let ids: Vec<&str> = listed.lines().collect();
    assert!(ids.len() > 100, "{listed}");
    // Two dozen IDs spread over the list, however long the suite grows.
    for id in ids.iter().step_by(ids.len() / 24) {
        let output = harness().args(["list", "--filter", id]).output().unwrap();
        assert_eq!(stdout_of(&output), format!("{id}\n"), "{id}");
        let output = harness().args(["run", "--filter", id]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{id}");
        assert_contains(&stdout_of(&output), &["; 1 cases\n", "1 cases: 1 passed"]);
    }
    // Wildcards in a case ID match whole IDs; a fixture ID takes every
    // revision.
    let output = harness()
        .args(["list", "--filter", "document/*@2024-11-05"])
        .output()
        .unwrap();
    let selected = stdout_of(&output);
    assert!(!selected.is_empty());
    assert!(
        selected
            .lines()
            .all(|id| id.starts_with("document/") && id.ends_with("@2024-11-05")),
        "{selected}"
    );
    let output = harness()
        .args([
            "list",
            "--filter",
            "document/expected-valid/primitives.yaml",
        ])
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).lines().count() > 1,
        "{}",
        stdout_of(&output)
    );
}

/// `run | head -1`: once the reader has gone, the harness ends quietly
/// with 0, like ripgrep, instead of failing with "Broken pipe".
#[test]
fn a_closed_stdout_pipe_ends_the_command_quietly_with_0() {
    for args in [&["run"][..], &["list"]] {
        let mut child = StdCommand::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
            .args(args)
            .env_remove("CI")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the harness writes anything.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A filter that selects nothing names the IDs it was probably meant to
/// be, in every command that takes `--filter`, and stops the command
/// (even when another filter selects cases).
#[test]
fn a_filter_that_matches_nothing_suggests_the_nearest_ids() {
    let baseline = tempfile::tempdir().unwrap();
    let output = baseline.path().join("baseline.yaml");
    let output = output.to_str().unwrap();
    let fixture = "elicitation/expected-invalid/elicitation-version-mismatch.json";
    for args in [
        &["list", "--filter", "version-mismach"][..],
        &["run", "--filter", "version-mismach"],
        &["run", "--filter", "minimal", "--filter", "version-mismach"],
        &[
            "baseline",
            "--output",
            output,
            "--filter",
            "version-mismach",
        ],
        &["bless", "--dry-run", "--filter", "version-mismach"],
    ] {
        let run = harness()
            .args(args)
            .current_dir(workspace())
            .output()
            .unwrap();
        let stderr = stderr_of(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}\n{stderr}");
        assert_contains(
            &stderr,
            &[&format!(
                "`--filter version-mismach` matches no case; the nearest:\n  {fixture}\n"
            )],
        );
    }
    // A case ID under a revision its fixture does not run under: the
    // fixture's nearest case.
    let run = harness()
        .args([
            "list",
            "--filter",
            "document/expected-valid/minimal.json@2024-11-05",
        ])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert_contains(
        &stderr_of(&run),
        &["the nearest:\n  document/expected-valid/minimal.json@2025-11-25\n"],
    );
    // Nothing near: where to look instead.
    let run = harness()
        .args(["list", "--filter", "zzzzzzzz"])
        .output()
        .unwrap();
    assert_contains(
        &stderr_of(&run),
        &["`--filter zzzzzzzz` matches no case; `list` prints the case IDs"],
    );
}
