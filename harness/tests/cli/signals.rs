//! Interruption: a signal to the harness stops the run, kills every
//! validator process group (children included), reports what finished
//! and exits with 128 + the signal's number.

use std::io::{BufRead as _, BufReader, Read as _};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::external_support::{MiniSuite, left_behind, marker, processes_with};
use super::*;

/// Polls `child` until it exits, at most `bound`; kills it and fails past
/// that.
fn wait_at_most(child: &mut Child, bound: Duration) -> ExitStatus {
    let deadline = Instant::now() + bound;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            panic!("the harness did not exit within {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls `condition` until it holds, at most `bound`.
fn wait_until(what: &str, bound: Duration, condition: impl Fn() -> bool) {
    let deadline = Instant::now() + bound;
    while !condition() {
        assert!(Instant::now() < deadline, "{what}: not within {bound:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts a session-mode run whose validators each answer two cases, then
/// hang with a grandchild holding their pipes, with `pipeline` requests in
/// flight per process; sends `signal` once they run; checks the exit
/// status, the report, and that nothing is left.
fn interrupt_with(signal: Signal, pipeline: &str) {
    let suite = MiniSuite::new();
    let marker = marker();
    let validator = suite.validator(&marker, "--grandchild hang 3");
    let report_file = suite.dir.path().join("report.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
        .arg("run")
        .arg("--suite-dir")
        .arg(suite.dir.path())
        .args(["--validator", &validator, "--jobs", "2", "--timeout", "10m"])
        .args(["--pipeline", pipeline])
        .arg("--report")
        .arg(&report_file)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The header comes once the validator has answered `start`; then two
    // validators and their two grandchildren run.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    stdout.read_line(&mut header).unwrap();
    assert!(header.starts_with("mcpdesc-conformance "), "{header}");
    wait_until("four validator processes", Duration::from_secs(60), || {
        processes_with(&marker).len() >= 4
    });
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap());
    kill(pid, signal).unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(30));
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (header + &rest, stderr_of(&output));
    let report = format!("{signal}: {status:?}\n{stdout}\n{stderr}");
    assert_eq!(status.code(), Some(128 + signal as i32), "{report}");
    assert_contains(
        &stdout,
        &[
            &format!("interrupted by {signal}: "),
            " of 7 cases finished",
            "revision      cases",
        ],
    );
    // Cut short is not failed: no case is reported as crashed, in the
    // report file written at the end.
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report_file).unwrap()).unwrap();
    assert_eq!(written["interrupted"]["signal"], signal as i32, "{report}");
    let kinds: Vec<&str> = written["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["outcome"]["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"interrupted"), "{kinds:?}");
    assert!(!kinds.contains(&"crashed"), "{kinds:?}");
    let left = left_behind(&marker);
    assert!(left.is_empty(), "left behind: {left:?}\n{report}");
}

#[test]
fn sigint_kills_every_validator_group_and_exits_130() {
    interrupt_with(Signal::SIGINT, "1");
}

/// With several requests in flight per process, every one of them is
/// interrupted, none sent again, none counted as crashed.
#[test]
fn sigint_with_several_requests_in_flight_interrupts_them_all() {
    interrupt_with(Signal::SIGINT, "3");
}

#[test]
fn sigterm_kills_every_validator_group_and_exits_143() {
    interrupt_with(Signal::SIGTERM, "1");
}

#[test]
fn sighup_kills_every_validator_group_and_exits_129() {
    interrupt_with(Signal::SIGHUP, "1");
}

/// Sessions are stopped all at once: twenty validators that ignore `stop`
/// cost one grace period, not twenty (which took 40 s).
#[test]
fn validators_that_ignore_stop_are_killed_together_after_one_grace() {
    let marker = marker();
    let validator = super::external_support::python(
        "misbehaving_validator.py",
        &format!("--marker {marker} ignore-stop"),
    );
    let started = Instant::now();
    let output = harness()
        .args(["run", "--validator", &validator, "--jobs", "20"])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let report = format!("{}\n{}", stdout_of(&output), stderr_of(&output));
    // It answers no finding at all: many cases fail, none crashes.
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(!report.contains("crashed:"), "{report}");
    assert!(
        elapsed < Duration::from_secs(30),
        "took {elapsed:?}: were the sessions stopped one after another?\n{report}"
    );
    let left = left_behind(&marker);
    assert!(left.is_empty(), "left behind: {left:?}");
}
