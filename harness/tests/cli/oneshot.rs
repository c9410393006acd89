//! One-shot mode: a process per case, judged by its reply and exit status.

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
            "2",
        ],
    );
    let report = format!("{mode}\n{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(code), "{report}");
    assert_eq!(
        outcomes(&run),
        [PASS, PASS, PASS, fourth, PASS, PASS, PASS],
        "{report}"
    );
    // A hang guard, not a measurement: generous for a busy machine.
    let bound = Duration::from_secs(30 + 10 * u64::from(timeouts));
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
    assert_contains(&report, &["timed out: no complete reply within 2.0s"]);
}

#[test]
fn two_reply_lines_are_a_protocol_error() {
    let report = check("two-lines", 1, "protocol error", 0);
    assert_contains(
        &report,
        &[
            "protocol error: the validator wrote two replies on stdout, the second: \"{\\\"diagnostics\\\": []}\"; in one-shot mode stdout carries exactly one line, the reply",
        ],
    );
}

/// A log line on stdout is blamed, not the reply beside it.
#[test]
fn a_log_line_beside_the_reply_is_blamed_on_the_log_line() {
    let report = check("log-line", 1, "protocol error", 0);
    assert_contains(
        &report,
        &[
            "protocol error: before its reply the validator wrote another line on stdout: \"validating document/expected-valid/minimal.json\"; in one-shot mode stdout carries exactly one line, the reply; write logs and anything else on stderr",
        ],
    );
}

/// Smoke in one-shot mode explains a crash in one-shot terms, never in
/// terms of a session.
#[test]
fn smoke_explains_a_one_shot_crash_in_one_shot_terms() {
    let suite = MiniSuite::new();
    let validator = suite.validator(&marker(), "--oneshot exit-2 minimal.json");
    let output = harness()
        .args([
            "smoke",
            "--oneshot",
            "--timeout",
            "2",
            "--validator",
            &validator,
        ])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "in one-shot mode the adapter prints exactly one reply line on stdout and exits with status 0 or 1",
        ],
    );
    assert!(!stdout.contains("session"), "{stdout}");
}

/// A helper the validator leaves running with its stdout open does not
/// make a finished case time out, and is killed.
#[test]
fn a_grandchild_holding_stdout_is_killed_and_the_reply_counts() {
    check("--grandchild none", 0, PASS, 0);
}
