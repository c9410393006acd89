//! Bounded time and memory against a validator that floods the harness
//! with diagnostics, and the consecutive-failure cutoff.

use std::time::Duration;

use super::external_support::{MiniSuite, left_behind, marker, outcomes, python, run};
use super::*;

/// The command line of the flooding validator, answering `count`
/// diagnostics to every case.
fn flooding(count: usize) -> String {
    python("flooding_validator.py", &count.to_string())
}

/// The whole suite against a validator answering every case with 10,000
/// distinct wrong findings (as many as a reply may carry by default): every
/// case fails, and the harness's peak memory stays under 300 MB (it used to
/// keep every finding of every failing case until the run ended).
#[test]
fn a_whole_suite_run_flooded_with_diagnostics_stays_under_300_mb() {
    let dir = tempfile::tempdir().unwrap();
    let (peak_kib, output) = super::external_support::peak_memory(
        dir.path(),
        &["run", "--validator", &flooding(10_000)],
    );
    let stdout = stdout_of(&output);
    let tail: String = stdout.lines().rev().take(12).collect::<Vec<_>>().join("\n");
    let report = format!("{tail}\n{}", stderr_of(&output));
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_contains(
        &stdout,
        &[
            " cases: 0 passed and ",
            "… and 9900 more unexpected findings",
        ],
    );
    assert!(!stdout.contains("protocol error:"), "{report}");
    assert!(
        peak_kib < 300 * 1024,
        "peak memory {} MiB, over 300 MB\n{report}",
        peak_kib / 1024
    );
}

#[test]
fn a_reply_with_more_diagnostics_than_max_diagnostics_is_a_protocol_error() {
    let suite = MiniSuite::new();
    let run = run(
        &suite,
        &["--validator", &flooding(6), "--max-diagnostics", "5"],
    );
    let report = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(1), "{report}");
    assert_eq!(outcomes(&run), ["protocol error"; 7], "{report}");
    assert_contains(
        &run.stdout,
        &[
            "protocol error: the reply carries more than 5 diagnostics, the most one reply may carry (raise it with --max-diagnostics)",
        ],
    );
    // At the limit, the replies are judged.
    let run = super::external_support::run(
        &suite,
        &["--validator", &flooding(5), "--max-diagnostics", "5"],
    );
    let outcomes = outcomes(&run);
    assert!(
        outcomes.iter().all(|outcome| outcome.starts_with("fail ")),
        "{outcomes:?}\n{}",
        run.stdout
    );
}

/// With eight workers, a validator that crashes on every case is given up
/// on after exactly `--max-consecutive-failures` crashes (it used to record
/// as many as the workers had in flight, 17 for 10); the run prints every
/// case that ran and exits 3.
#[test]
fn the_consecutive_failure_cutoff_stops_at_exactly_n_and_exits_3() {
    let marker = marker();
    let validator = python(
        "misbehaving_validator.py",
        &format!("--marker {marker} crash 1"),
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.json");
    let output = harness()
        .args([
            "run",
            "--validator",
            &validator,
            "--jobs",
            "8",
            "--max-consecutive-failures",
            "10",
            "--format",
            "json",
            "--report",
        ])
        .arg(&file)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    let text = format!("{}\n{}", stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert_eq!(report["gaveUp"], true);
    let count = |kind: &str, reason: Option<&str>| {
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|case| {
                case["outcome"]["kind"] == kind
                    && reason.is_none_or(|reason| case["outcome"]["reason"] == reason)
            })
            .count()
    };
    // Every case of the built-in suite is in the report, counted from the
    // suite so that adding a fixture changes nothing here.
    let total = mcpdesc_conformance::suite::case::Selection::default()
        .cases(&mcpdesc_conformance::suite::SuiteSet::load(
            mcpdesc_conformance::suite::tree::SuiteTree::embedded(),
        ))
        .len();
    // The validator announces no source text, so serialization cases are
    // skipped before the cutoff can leave them unrun.
    let unannounced = count("skipped", Some("unannounced-source-text"));
    assert!(unannounced > 0, "{text}");
    assert_eq!(
        (
            count("crashed", None),
            count("not-run", Some("gave-up")) + unannounced
        ),
        (10, total - 10),
        "{text}"
    );
    // Every case that ran is still printed: one case-finished event each.
    let events = stdout_of(&output)
        .lines()
        .filter(|line| line.starts_with("{\"event\":\"case-finished\""))
        .count();
    assert_eq!(events, total);
    assert_contains(
        &stderr_of(&output),
        &["error: gave up on the validator after 10 failures in a row"],
    );
    assert!(left_behind(&marker).is_empty());
}
