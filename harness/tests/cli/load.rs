//! Loading a suite working tree: files that cannot be taken into it are
//! suite problems, each reported once, and the rest still loads.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::time::Duration;

use super::*;

/// Runs `mcpdesc-conformance list --suite-dir DIR`, killed after a generous
/// bound so that a load that hangs fails the test instead.
fn list_tree(dir: &Path) -> std::process::Output {
    harness()
        .arg("list")
        .arg("--suite-dir")
        .arg(dir)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

const VALID: &str = "fixtures/document/expected-valid";

#[test]
fn a_huge_sparse_fixture_is_one_suite_problem_and_is_never_read() {
    let dir = suite_copy();
    let huge = dir.path().join(VALID).join("huge.json");
    fs::File::create(&huge).unwrap().set_len(2 << 30).unwrap();
    // Under a 1.5 GB address-space limit, reading the 2 GiB file whole (as
    // the loader once did) aborts; checking its size first does not.
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1500000 && exec \"$0\" list --suite-dir \"$1\"")
        .arg(snapbox::cmd::cargo_bin!("mcpdesc-conformance"))
        .arg(dir.path())
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_eq!(
        problem_lines(&output),
        [format!(
            "suite error: {}: the file is 2147483648 bytes; the limit is 8388608",
            huge.display()
        )]
    );
    assert_contains(
        &stdout_of(&output),
        &["document/expected-valid/minimal.json@2025-11-25"],
    );
}

#[test]
fn files_that_are_not_regular_are_reported_as_stray_and_never_opened() {
    let dir = suite_copy();
    let valid = dir.path().join(VALID);
    let fifo = valid.join("pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let folder = valid.join("folder.json");
    fs::create_dir(&folder).unwrap();
    fs::copy(valid.join("minimal.json"), folder.join("inner.json")).unwrap();
    let socket = valid.join("socket.yaml");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let output = list_tree(dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    let mut problems = problem_lines(&output);
    problems.sort();
    assert_eq!(
        problems,
        [
            format!(
                "suite error: {}: a folder is not a regular file; a suite holds only regular files",
                folder.display()
            ),
            format!(
                "suite error: {}: a FIFO is not a regular file; a suite holds only regular files",
                fifo.display()
            ),
            format!(
                "suite error: {}: a socket is not a regular file; a suite holds only regular files",
                socket.display()
            ),
        ]
    );
    assert_contains(
        &stdout_of(&output),
        &["document/expected-valid/minimal.json@2025-11-25"],
    );
}

#[test]
fn names_that_are_not_utf8_or_hold_control_characters_are_refused_with_bytes_escaped() {
    let dir = suite_copy();
    let valid = dir.path().join(VALID);
    let minimal = fs::read(valid.join("minimal.json")).unwrap();
    // Both names decode lossily to `a\u{fffd}.json`: they must not become
    // one case.
    for name in [&b"a\xff.json"[..], b"a\xfe.json", b"b\x1b[31m.json"] {
        fs::write(valid.join(OsStr::from_bytes(name)), &minimal).unwrap();
    }
    let output = list_tree(dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    let base = valid.display();
    let mut problems = problem_lines(&output);
    problems.sort();
    assert_eq!(
        problems,
        [
            format!("suite error: {base}/a\\xfe.json: the name is not valid UTF-8; rename it"),
            format!("suite error: {base}/a\\xff.json: the name is not valid UTF-8; rename it"),
            format!(
                "suite error: {base}/b\\x1b[31m.json: the name contains a control character; rename it"
            ),
        ]
    );
    let stdout = stdout_of(&output);
    assert!(!stdout.contains("/a\u{fffd}.json"), "{stdout}");
    assert_contains(
        &stdout,
        &["document/expected-valid/minimal.json@2025-11-25"],
    );
}

#[test]
fn a_link_is_one_suite_problem_and_the_rest_still_loads() {
    let dir = suite_copy();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("secret.json");
    fs::write(&target, "{}").unwrap();
    let link = dir.path().join(VALID).join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let output = list_tree(dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_eq!(
        problem_lines(&output),
        [format!(
            "suite error: {}: a link is not followed in a suite tree; copy the file instead",
            link.display()
        )]
    );
    assert_contains(
        &stdout_of(&output),
        &["document/expected-valid/minimal.json@2025-11-25"],
    );
}
