//! A validator that misbehaves in one chosen way, against the small suite:
//! every case gets exactly one outcome, the right one; the run ends in time;
//! and no process is left behind.

use std::time::Duration;

use super::external_support::{MiniSuite, left_behind, marker, outcomes, run};
use super::*;

const PASS: &str = "pass";

/// Runs the misbehaving validator with `arguments` in session mode,
/// with `--jobs 1`, a two-second `--timeout`, a 64 KiB line limit and
/// the `extra` options; checks the exit status, each case's outcome,
/// that the run ended within a generous bound (30 s, and 10 s more for
/// each of the `timeouts` it must wait out; a hang guard, not a
/// measurement: a busy machine must not fail it), and that no process
/// was left behind. Returns the report.
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
        ("--timeout", "2"),
        ("--start-timeout", "10"),
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
    let bound = Duration::from_secs(30 + 10 * u64::from(timeouts));
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
            "timed out: no reply to the request within 2.0s",
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
        3,
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
        3,
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
    check("slow-start 3", &[], 0, [PASS; 7], 1);
}

#[test]
fn a_start_slower_than_the_start_timeout_exits_3() {
    let suite = MiniSuite::new();
    let marker = marker();
    let validator = suite.validator(&marker, "slow-start 20");
    let run = run(
        &suite,
        &[
            "--validator",
            &validator,
            "--start-timeout",
            "2",
            "--jobs",
            "1",
        ],
    );
    assert_eq!(run.code, Some(3), "{}\n{}", run.stdout, run.stderr);
    assert_contains(
        &run.stderr,
        &["error: the validator could not be started: no reply to `start` within 2.0s"],
    );
    assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
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
        &["--validator", &validator, "--jobs", "3", "--timeout", "2"],
    );
    assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
    let outcomes = outcomes(&run);
    assert!(
        outcomes.iter().all(|o| o == "pass" || o == "crashed"),
        "{outcomes:?}"
    );
    assert!(outcomes.iter().any(|o| o == "crashed"), "{outcomes:?}");
    assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
    assert_eq!(left_behind(&marker), Vec::<String>::new());
}
