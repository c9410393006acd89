//! End-to-end tests of the `mcpdesc-conformance` command line, grouped by
//! command. Each test runs the built binary, on the built-in suite or on a
//! copy of the working tree that the test changes.

use std::fs;
use std::path::{Path, PathBuf};

use snapbox::cmd::{Command, cargo_bin};

fn harness() -> Command {
    // The environment of whoever runs the tests decides neither CI
    // behaviour nor colour.
    Command::new(cargo_bin!("mcpdesc-conformance"))
        .env_remove("CI")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
}

/// The repository root, which holds the suite tree.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The built-in suite's version (its changelog's newest) and its number of
/// rules, which reports, statements and reminders carry: read from the
/// suite, so that growing it does not rewrite these tests.
fn suite_version_and_rules() -> (String, usize) {
    use mcpdesc_conformance::suite::{SuiteSet, tree::SuiteTree};
    let set = SuiteSet::load(SuiteTree::embedded());
    (set.changelog.version().to_owned(), set.rules.iter().count())
}

/// A fresh copy of the suite tree (suites/, fixtures/, expected/).
fn suite_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["suites", "fixtures", "expected"] {
        copy_part(part, dir.path());
    }
    dir
}

/// Copies the repository's folder `part` (e.g. `compiled`) into `dir`.
fn copy_part(part: &str, dir: &Path) {
    for entry in walkdir::WalkDir::new(workspace().join(part)) {
        let entry = entry.unwrap();
        let target = dir.join(entry.path().strip_prefix(workspace()).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs `mcpdesc-conformance COMMAND --suite-dir DIR`.
fn on_tree(command: &str, dir: &Path) -> std::process::Output {
    harness()
        .arg(command)
        .arg("--suite-dir")
        .arg(dir)
        .output()
        .unwrap()
}

/// The first fenced block in `language` after the README heading
/// `heading`: what a reader copies from that section.
fn readme_block(heading: &str, language: &str) -> String {
    let readme = fs::read_to_string(workspace().join("README.md")).unwrap();
    let section = readme
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("the README has no section `{heading}`"));
    section
        .split(&format!("```{language}\n"))
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_else(|| panic!("`{heading}` gives no {language} block"))
        .to_owned()
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The stdout of a command that must have exited with status 0; otherwise
/// the test fails showing both streams.
#[track_caller]
fn stdout_of_success(output: &std::process::Output) -> String {
    let stdout = stdout_of(output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        stderr_of(output)
    );
    stdout
}

/// The `suite error:` lines of a command's stderr.
fn problem_lines(output: &std::process::Output) -> Vec<String> {
    stderr_of(output)
        .lines()
        .filter(|line| line.starts_with("suite error: "))
        .map(str::to_owned)
        .collect()
}

/// Asserts that `text` contains every one of `needles`, showing all of it
/// when one is missing.
#[track_caller]
fn assert_contains(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(
            text.contains(needle),
            "expected to find\n  {needle}\nin\n{text}"
        );
    }
}

/// The expectation file and pointer that the edit tests change (one that no
/// catalog example shows, so the edit is a plain expectation mismatch).
const EDITED_EXPECTATION: &str =
    "expected/elicitation/expected-invalid/declaration-name-pattern.json.yaml";
const EDITED_POINTER: &str = "\"/tools/0/elicitations/0/name\"";

fn edit_one_pointer(root: &Path) {
    let path = root.join(EDITED_EXPECTATION);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(EDITED_POINTER), "{text}");
    fs::write(
        &path,
        text.replacen(EDITED_POINTER, "\"/tools/0/elicitations\"", 1),
    )
    .unwrap();
}

mod baseline;
mod bless;
mod certify;
mod check;
mod claims;
mod color;
mod compare;
mod diff;
mod docs;
mod downstream;
mod escaping;
mod external_support;
mod guides;
mod independent_validator;
mod inputs;
mod libtest;
mod limits;
mod list;
#[cfg(target_os = "linux")]
mod load;
mod merge;
mod misbehaviour;
mod modes;
mod mutation;
mod names;
mod oneshot;
mod options;
mod outputs;
mod pipelining;
mod python_example;
mod requirements;
mod run;
mod schemas;
mod seed;
mod show;
mod signals;
mod smoke;
mod source_text;
mod statement;
mod structural_schema;
mod suite_problems;
mod writing;
