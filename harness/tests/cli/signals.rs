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
pub(super) fn wait_at_most(child: &mut Child, bound: Duration) -> ExitStatus {
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
pub(super) fn wait_until(what: &str, bound: Duration, condition: impl Fn() -> bool) {
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

/// Sets or clears `O_NONBLOCK` on the pipe `writer` writes to (for every
/// process that writes to it: the flag belongs to the pipe's open file).
fn set_nonblocking(writer: &std::io::PipeWriter, on: bool) {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    let flags = OFlag::from_bits_truncate(fcntl(writer, FcntlArg::F_GETFL).unwrap());
    let flags = if on {
        flags | OFlag::O_NONBLOCK
    } else {
        flags - OFlag::O_NONBLOCK
    };
    fcntl(writer, FcntlArg::F_SETFL(flags)).unwrap();
}

/// Fills the pipe `writer` writes to, so that the harness's next write to
/// it blocks until the test reads: the harness is then still running, at a
/// known point, when the next signal comes. Only while the harness writes
/// nothing to it (it is non-blocking meanwhile).
fn fill(writer: &std::io::PipeWriter) {
    use std::io::Write as _;
    set_nonblocking(writer, true);
    // Whole pages first, then bytes: a write of a page into a pipe with
    // less room than that fails whole.
    for chunk in [&[b'\n'; 4096][..], b"\n"] {
        loop {
            match (&mut &*writer).write(chunk) {
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(error) => panic!("filling the pipe: {error}"),
            }
        }
    }
    set_nonblocking(writer, false);
}

/// The processes whose command line holds `marker` but the harness
/// (whose `processes_with` lines start with `harness`): its command line
/// names the validator, marker included.
fn validators(marker: &str, harness: &str) -> Vec<String> {
    processes_with(marker)
        .into_iter()
        .filter(|process| !process.starts_with(harness))
        .collect()
}

/// A run of the small suite, in a process group of its own (so that a
/// signal can go to the group, as GNU `timeout` sends it) and with its
/// stdout full once its validators hang, so that it cannot finish before
/// the test reads it.
struct Stuck {
    suite: MiniSuite,
    marker: String,
    report: PathBuf,
    child: Child,
    stdout: BufReader<std::io::PipeReader>,
    header: String,
}

impl Stuck {
    fn start() -> Stuck {
        use std::os::unix::process::CommandExt as _;
        let suite = MiniSuite::new();
        let marker = marker();
        let validator = suite.validator(&marker, "--grandchild hang 3");
        let report = suite.dir.path().join("report.json");
        let (reader, writer) = std::io::pipe().unwrap();
        let ours = writer.try_clone().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
            .arg("run")
            .arg("--suite-dir")
            .arg(suite.dir.path())
            .args(["--validator", &validator, "--jobs", "2", "--timeout", "10m"])
            .arg("--report")
            .arg(&report)
            .env_remove("CI")
            .process_group(0)
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(reader);
        let mut header = String::new();
        stdout.read_line(&mut header).unwrap();
        assert!(header.starts_with("mcpdesc-conformance "), "{header}");
        let harness = format!("{}: ", child.id());
        wait_until("four validator processes", Duration::from_secs(60), || {
            validators(&marker, &harness).len() >= 4
        });
        // Every case that can finish has finished, and a passing case
        // prints nothing: the harness writes to stdout only once the run
        // ends.
        fill(&ours);
        drop(ours);
        Stuck {
            suite,
            marker,
            report,
            child,
            stdout,
            header,
        }
    }

    fn pid(&self) -> Pid {
        Pid::from_raw(i32::try_from(self.child.id()).unwrap())
    }

    /// Sends `signal` to the harness, and waits until it has killed the
    /// validators: the handler has taken the signal.
    fn interrupt(&self, signal: Signal) {
        kill(self.pid(), signal).unwrap();
        let harness = format!("{}: ", self.child.id());
        wait_until("the validators killed", Duration::from_secs(60), || {
            validators(&self.marker, &harness).is_empty()
        });
    }

    /// Reads stdout to its end, waits for the exit (at most `bound`), and
    /// gives the exit status, stdout after the header, and stderr.
    fn finish(mut self, bound: Duration) -> (ExitStatus, String, String, Self) {
        let mut rest = Vec::new();
        let reading = std::thread::scope(|scope| {
            let reader = scope.spawn(|| self.stdout.read_to_end(&mut rest));
            let status = wait_at_most(&mut self.child, bound);
            reader.join().unwrap().unwrap();
            status
        });
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let stdout = String::from_utf8_lossy(&rest)
            .trim_start_matches('\n')
            .to_owned();
        (reading, stdout, stderr, self)
    }
}

/// GNU `timeout -s TERM` signals the harness and then its process group:
/// the same SIGTERM twice, a moment apart. That is one interruption: the
/// summary and the report are written, and the exit status is 143.
#[test]
fn sigterm_to_the_harness_and_then_its_group_is_one_interruption() {
    let stuck = Stuck::start();
    stuck.interrupt(Signal::SIGTERM);
    nix::sys::signal::killpg(stuck.pid(), Signal::SIGTERM).unwrap();
    // Time for the handler to take the second signal before the harness
    // can finish; the harness passes however long this takes, but a
    // harness that ends at once on it shows it only after this.
    std::thread::sleep(Duration::from_millis(300));
    let (status, stdout, stderr, stuck) = stuck.finish(Duration::from_secs(60));
    let report = format!("{status:?}\n{}{stdout}\n{stderr}", stuck.header);
    assert_eq!(status.code(), Some(143), "{report}");
    assert_contains(
        &stdout,
        &["interrupted by SIGTERM: ", " of 7 cases finished"],
    );
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stuck.report).unwrap()).unwrap();
    assert_eq!(written["interrupted"]["signal"], 15, "{report}");
    let left = left_behind(&stuck.marker);
    assert!(left.is_empty(), "left behind: {left:?}\n{report}");
    drop(stuck.suite);
}

/// Ctrl-C pressed again, later than the first one's repeat window, means
/// "out now": the harness ends at once, though it has not finished.
#[test]
fn a_second_sigint_after_the_repeat_window_ends_the_harness_at_once() {
    let mut stuck = Stuck::start();
    stuck.interrupt(Signal::SIGINT);
    // Well past the window, which opened before the validators were
    // killed; the harness cannot finish meanwhile (its stdout is full).
    std::thread::sleep(2 * mcpdesc_conformance::backend::interrupt::REPEAT_WINDOW);
    assert_eq!(stuck.child.try_wait().unwrap(), None, "it did not wait");
    kill(stuck.pid(), Signal::SIGINT).unwrap();
    // Without reading its stdout: ended at once, not finished.
    let status = wait_at_most(&mut stuck.child, Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
}

/// Another signal ends the harness at once, however soon it comes.
#[test]
fn a_different_second_signal_ends_the_harness_at_once() {
    let mut stuck = Stuck::start();
    stuck.interrupt(Signal::SIGTERM);
    kill(stuck.pid(), Signal::SIGINT).unwrap();
    // Without reading its stdout: ended at once, not finished.
    let status = wait_at_most(&mut stuck.child, Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
}
