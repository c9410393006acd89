//! Session mode with several requests in flight per process
//! (`--pipeline N`): replies matched by `seq` in any order, and every
//! failure charged to the one case it happened on, whatever the number of
//! processes and requests in flight; no case lost, none counted twice,
//! nothing left behind.

use std::time::Duration;

use serde_json::Value;

use super::external_support::{CASES, MiniSuite, left_behind, marker, outcomes, run};
use super::*;

/// What a pipelined run against the misbehaving validator did.
struct Pipelined {
    /// `run`'s exit status.
    code: Option<i32>,
    /// Each case's outcome, as [`outcomes`] spells them, in case order.
    outcomes: Vec<String>,
    /// The report, for messages.
    text: String,
    /// Each case's report entry.
    cases: Vec<Value>,
}

/// Runs the misbehaving validator with `arguments` at `--pipeline
/// pipeline --jobs jobs`, a two-second timeout and a 64 KiB line limit,
/// plus `extra`; checks that it ended within a generous bound (a hang
/// guard: 60 s, and 10 s more for each of the `timeouts` it must wait out)
/// and that no process was left behind.
fn pipelined(
    arguments: &str,
    pipeline: usize,
    jobs: usize,
    extra: &[&str],
    timeouts: u32,
) -> Pipelined {
    let suite = MiniSuite::new();
    let marker = marker();
    let validator = suite.validator(&marker, arguments);
    let (pipeline, jobs) = (pipeline.to_string(), jobs.to_string());
    let mut args = vec![
        "--validator",
        &validator,
        "--pipeline",
        &pipeline,
        "--jobs",
        &jobs,
        "--timeout",
        "2",
        "--max-line-bytes",
        "65536",
    ];
    args.extend_from_slice(extra);
    let run = run(&suite, &args);
    let text = format!(
        "`{arguments}` --pipeline {pipeline} --jobs {jobs} {extra:?}\n{}\n{}",
        run.stdout, run.stderr
    );
    let bound = Duration::from_secs(60 + 10 * u64::from(timeouts));
    assert!(run.elapsed < bound, "took {:?}\n{text}", run.elapsed);
    let left = left_behind(&marker);
    assert!(left.is_empty(), "left behind: {left:?}\n{text}");
    Pipelined {
        code: run.code,
        outcomes: outcomes(&run),
        cases: run.report["cases"].as_array().cloned().unwrap_or_default(),
        text,
    }
}

impl Pipelined {
    fn count(&self, outcome: &str) -> usize {
        self.outcomes.iter().filter(|word| *word == outcome).count()
    }

    /// Checks that every case is `pass` or `failed`, and that the
    /// validator's stderr on each failed case says it misbehaved on that
    /// very case (`misbehaving_validator: <what> on request N (<case>)`),
    /// not on another in flight beside it.
    fn assert_blamed_exactly(&self, failed: &str, what: &str) {
        for (case, (word, entry)) in CASES.iter().zip(self.outcomes.iter().zip(&self.cases)) {
            match word.as_str() {
                "pass" => {}
                word if word == failed => {
                    let stderr = entry["outcome"]["stderr"].as_str().unwrap_or_default();
                    assert!(
                        stderr.contains(&format!("{what} on request 2 ({case})")),
                        "{case} was charged with another case's failure: {stderr:?}\n{}",
                        self.text
                    );
                }
                other => panic!("{case}: {other}\n{}", self.text),
            }
        }
    }
}

/// A well-behaved validator passes every case at every depth.
#[test]
fn a_well_behaved_validator_passes_every_case_at_every_depth() {
    for (pipeline, jobs) in [(2, 1), (8, 1), (3, 2)] {
        let run = pipelined("none", pipeline, jobs, &[], 0);
        assert_eq!(run.code, Some(0), "{}", run.text);
        assert_eq!(run.outcomes, ["pass"; 7], "{}", run.text);
    }
}

/// Replies in another order than the requests are matched by `seq`: a
/// validator that answers each batch last request first passes every
/// case. Its log shows that batches of more than one were reversed, so
/// the test saw replies out of order.
#[test]
fn replies_out_of_order_are_matched_by_seq() {
    for (pipeline, jobs) in [(4, 1), (3, 2)] {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("batches");
        let arguments = format!("--log '{}' reverse {pipeline}", log.display());
        let run = pipelined(&arguments, pipeline, jobs, &[], 0);
        assert_eq!(run.code, Some(0), "{}", run.text);
        assert_eq!(run.outcomes, ["pass"; 7], "{}", run.text);
        let batches = fs::read_to_string(&log).unwrap();
        let reversed = batches.lines().any(|line| {
            let seqs: Vec<u64> = line.split(' ').map(|seq| seq.parse().unwrap()).collect();
            seqs.len() > 1 && seqs.windows(2).all(|pair| pair[0] > pair[1])
        });
        assert!(reversed, "no batch was answered out of order: {batches}");
    }
}

/// Each fresh process crashes on its second request while others are in
/// flight: that case alone fails, with the stderr tail that names it; the
/// others in flight are sent again to a fresh process. With one process
/// the count is as at depth 1: every process answers one case and dies
/// on the next, so 3 of the 7 cases crash.
#[test]
fn a_crash_with_several_in_flight_fails_only_the_case_it_died_on() {
    let run = pipelined("crash 2", 4, 1, &[], 0);
    assert_eq!(run.code, Some(1), "{}", run.text);
    assert_eq!(
        (run.count("pass"), run.count("crashed")),
        (4, 3),
        "{}",
        run.text
    );
    run.assert_blamed_exactly("crashed", "crashing");
}

/// Every case gets exactly one outcome, and each crash is charged to the
/// case it happened on, at every depth and number of processes (a
/// grandchild holding the pipes changes nothing).
#[test]
fn every_case_gets_one_outcome_at_every_depth_and_jobs() {
    for pipeline in [1, 2, 3, 8] {
        for jobs in [1, 2, 3] {
            let run = pipelined("--grandchild crash 2", pipeline, jobs, &[], 0);
            assert_eq!(run.code, Some(1), "{}", run.text);
            assert!(run.count("crashed") >= 1, "{}", run.text);
            run.assert_blamed_exactly("crashed", "crashing");
        }
    }
}

/// A hang on one request times that one out (its time counted from its
/// sending); the requests behind it are sent again to a fresh process
/// with their full time, not timed out with it.
#[test]
fn a_hang_with_several_in_flight_times_out_only_that_case() {
    let run = pipelined("hang 2", 4, 1, &[], 3);
    assert_eq!(run.code, Some(1), "{}", run.text);
    assert_eq!(
        (run.count("pass"), run.count("timeout")),
        (4, 3),
        "{}",
        run.text
    );
    run.assert_blamed_exactly("timeout", "hanging");
    assert_contains(
        &run.text,
        &["timed out: no reply to the request within 2.0s"],
    );
}

/// A line longer than `--max-line-bytes`, and a reply whose `seq` is no
/// request's in flight, are protocol errors charged to the oldest request
/// in flight (the one a validator answering in order was answering).
#[test]
fn an_oversized_line_or_an_unknown_seq_is_a_protocol_error_for_that_case() {
    let run = pipelined("oversized 2", 4, 1, &[], 0);
    assert_eq!(
        (run.count("pass"), run.count("protocol error")),
        (4, 3),
        "{}",
        run.text
    );
    assert_contains(
        &run.text,
        &["protocol error: the reply to the request is a line longer than the limit"],
    );
    let run = pipelined("wrong-seq 2", 4, 1, &[], 0);
    assert_eq!(
        (run.count("pass"), run.count("protocol error")),
        (4, 3),
        "{}",
        run.text
    );
    // Which of the two words depends on how many requests were in flight
    // when the reply came: one, or several.
    assert!(
        run.text.contains("which is the `seq` of none of the")
            || run.text.contains("but answers the request with"),
        "{}",
        run.text
    );
}

/// The consecutive-failure cutoff stays exact: innocent requests sent
/// again are no failures, and each crash charges one case.
#[test]
fn the_cutoff_stays_exact_with_several_in_flight() {
    let run = pipelined("crash 1", 4, 2, &["--max-consecutive-failures", "2"], 0);
    assert_eq!(run.code, Some(3), "{}", run.text);
    assert_eq!(
        (run.count("crashed"), run.count("not run")),
        (2, 5),
        "{}",
        run.text
    );
}
