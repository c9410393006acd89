//! Where outputs go: a regular file is replaced whole; a FIFO, a
//! process's own `/dev/stdout` or a process substitution is written
//! straight; a link stays a link; the leftovers of a harness killed while
//! writing are removed, and an interrupted command leaves none.

use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;

use super::*;

/// Asserts that `text` is a whole report.
#[track_caller]
fn assert_report(text: &str) {
    let report: Value = serde_json::from_str(text)
        .unwrap_or_else(|error| panic!("not a whole report ({error}):\n{text}"));
    assert!(report["reportVersion"].is_u64(), "{text}");
}

/// The report JSON at the end of `stdout`, after the human report.
fn report_in(stdout: &str) -> &str {
    let start = stdout.find("{\n").expect("no report on stdout");
    &stdout[start..]
}

/// `run --report FIFO`: the reader gets the whole report, and the FIFO is
/// still a FIFO.
#[test]
fn a_report_into_a_fifo_reaches_its_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    let made = StdCommand::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let output = harness()
        .args(["run", "--quiet", "--report"])
        .arg(&fifo)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_report(&reader.join().unwrap());
    use std::os::unix::fs::FileTypeExt as _;
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

/// `--report /dev/stdout` adds the report to stdout beside the summary,
/// whether stdout is a pipe or a file, and replaces nothing.
#[test]
fn a_report_to_dev_stdout_follows_the_summary() {
    let output = harness()
        .args(["run", "--quiet", "--report", "/dev/stdout"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let stdout = stdout_of(&output);
    assert_report(report_in(&stdout));
    // Into a file the shell opened: the summary stays, the report follows.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let status = StdCommand::new(cargo_bin!("mcpdesc-conformance"))
        .args(["run", "--quiet", "--report", "/dev/stdout"])
        .stdout(fs::File::create(&file).unwrap())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let text = fs::read_to_string(&file).unwrap();
    assert_report(report_in(&text));
    assert!(
        text.starts_with(&stdout[..stdout.find("{\n").unwrap()]),
        "the summary was overwritten:\n{text}"
    );
    assert!(
        fs::symlink_metadata("/dev/stdout")
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// `--report >(cat > FILE)`: a process substitution's `/dev/fd/N` gets
/// the report.
#[test]
fn a_report_into_a_process_substitution_reaches_it() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "{} run --quiet --report >(cat > got.json); status=$?; wait; exit $status",
        shlex_quote(&cargo_bin!("mcpdesc-conformance").display().to_string())
    );
    let output = StdCommand::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    // `wait` does not wait for a process substitution in every bash.
    let got = dir.path().join("got.json");
    for _ in 0..600 {
        if fs::read_to_string(&got).is_ok_and(|text| serde_json::from_str::<Value>(&text).is_ok()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_report(&fs::read_to_string(&got).unwrap());
}

fn shlex_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// An output path that is a link stays a link: the file it names gets the
/// report.
#[test]
fn a_link_stays_a_link_and_its_file_gets_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.json");
    fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let output = harness()
        .args(["run", "--quiet", "--report"])
        .arg(&link)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_report(&fs::read_to_string(&target).unwrap());
}

/// The temporary file of a harness that was killed while writing is
/// removed by the next one that writes into the same folder; one of a
/// harness still alive is left alone.
#[test]
fn leftovers_of_a_killed_harness_are_removed_by_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    // No process has this ID: it is above Linux's largest.
    let dead = dir
        .path()
        .join(".mcpdesc-conformance-4294967295-Ab12Cd.tmp");
    let alive = dir.path().join(format!(
        ".mcpdesc-conformance-{}-Ef34Gh.tmp",
        std::process::id()
    ));
    let unrelated = dir.path().join(".mcpdesc-conformance-notes.tmp");
    for file in [&dead, &alive, &unrelated] {
        fs::write(file, "half a report").unwrap();
    }
    let output = harness()
        .args(["run", "--quiet", "--report"])
        .arg(dir.path().join("report.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(!dead.exists(), "the dead harness's leftover stays");
    assert!(alive.exists(), "a live harness's file was removed");
    assert!(
        unrelated.exists(),
        "a file not named by a harness was removed"
    );
}

/// `merge` interrupted at any moment leaves no temporary file, and each
/// output is either whole or absent.
#[test]
fn an_interrupted_merge_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let made = harness()
        .current_dir(dir.path())
        .args(["run", "--quiet", "--report", "shard.json"])
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0), "{}", stderr_of(&made));
    for delay in [0, 5, 20, 50, 100, 200, 400] {
        let out = tempfile::tempdir().unwrap();
        let mut child = StdCommand::new(cargo_bin!("mcpdesc-conformance"))
            .arg("merge")
            .arg(dir.path().join("shard.json"))
            .arg("--report")
            .arg(out.path().join("merged.json"))
            .arg("--junit")
            .arg(out.path().join("merged.xml"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let pid = Pid::from_raw(i32::try_from(child.id()).unwrap());
        let _ = kill(pid, Signal::SIGINT);
        // A second one after a pause: one that ends the harness at once.
        std::thread::sleep(Duration::from_millis(1500));
        let _ = kill(pid, Signal::SIGINT);
        let status = child.wait().unwrap();
        let names: Vec<String> = fs::read_dir(out.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|name| !name.ends_with(".tmp")),
            "after SIGINT at {delay} ms ({status}): {names:?}"
        );
        if let Ok(text) = fs::read_to_string(out.path().join("merged.json")) {
            assert_report(&text);
        }
    }
}
