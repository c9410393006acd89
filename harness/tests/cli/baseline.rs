//! Known failures: `run --baseline FILE` and the `baseline` command, with
//! the Python example validator and its committed baseline.

use serde_json::Value;

use super::schemas::{assert_valid, schemas};
use super::*;

fn example() -> String {
    format!(
        "python3 {}",
        workspace()
            .join("examples/python-validator/validator.py")
            .display()
    )
}

/// `run` against the Python example with `args`, writing a report; the exit
/// status, stdout, stderr and the report.
fn run_example(args: &[&str], dir: &Path) -> (Option<i32>, String, String, Value) {
    let report = dir.join("report.json");
    let _ = fs::remove_file(&report);
    let output = harness()
        .args(["run", "--validator", &example(), "--report"])
        .arg(&report)
        .args(args)
        .output()
        .unwrap();
    let report = fs::read_to_string(&report)
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap_or(Value::Null);
    if !report.is_null() {
        assert_valid(&schemas(), "report", &report);
    }
    (
        output.status.code(),
        stdout_of(&output),
        stderr_of(&output),
        report,
    )
}

/// The committed baseline tolerates exactly the example's failures: the
/// run passes, and says how many it tolerated.
#[test]
fn the_python_example_passes_with_its_committed_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let committed = workspace().join("examples/python-validator/baseline.yaml");
    let (code, stdout, stderr, report) =
        run_example(&["--baseline", committed.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let known = report["summary"]["knownFailures"].as_u64().unwrap();
    assert!(known > 0);
    assert_eq!(report["summary"]["stale"], 0);
    assert_eq!(
        report["summary"]["total"]["levels"]["exact"]["failed"].as_u64(),
        Some(known),
        "every failure is a known one"
    );
    assert!(
        stdout.contains(&format!("baseline: {known} known failure(s) tolerated")),
        "{stdout}"
    );
    // Without it, the same run fails.
    let (code, ..) = run_example(&[], dir.path());
    assert_eq!(code, Some(1));
}

/// `baseline` writes the failures of a run; written again, it keeps the
/// entries that still hold as they are, patterns and reasons included.
#[test]
fn baseline_writes_the_failures_and_keeps_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.yaml");
    let write = || {
        harness()
            .args(["baseline", "--quiet", "--validator", &example(), "--output"])
            .arg(&file)
            .output()
            .unwrap()
    };
    let output = write();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let text = fs::read_to_string(&file).unwrap();
    let entries = text.matches("  - case: ").count();
    let (_, _, _, report) = run_example(&[], dir.path());
    assert_eq!(
        Some(entries as u64),
        report["summary"]["total"]["levels"]["exact"]["failed"].as_u64()
    );
    let given = text.replacen("(no reason given yet)", "(the reason a person wrote)", 1);
    fs::write(&file, &given).unwrap();
    let output = write();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(fs::read_to_string(&file).unwrap(), given);
    // The committed file's patterns hold: rewriting it changes no entry.
    let committed =
        fs::read_to_string(workspace().join("examples/python-validator/baseline.yaml")).unwrap();
    let entries = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.starts_with('#'))
            .map(str::to_owned)
            .collect()
    };
    fs::write(&file, &committed).unwrap();
    let output = write();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        entries(&fs::read_to_string(&file).unwrap()),
        entries(&committed)
    );
    let (code, stdout, stderr, _) =
        run_example(&["--baseline", file.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
}

/// A listed case that passes is stale: the run fails and says how to
/// update the file.
#[test]
fn a_stale_entry_fails_the_run_with_the_update_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.yaml");
    let committed =
        fs::read_to_string(workspace().join("examples/python-validator/baseline.yaml")).unwrap();
    fs::write(
        &file,
        format!(
            "{committed}  - case: \"document/expected-valid/minimal.json@2025-11-25\"\n    reason: \"once broken\"\n"
        ),
    )
    .unwrap();
    let (code, stdout, stderr, report) =
        run_example(&["--baseline", file.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert_eq!(report["summary"]["stale"], 1);
    assert!(
        stdout.contains("STALE document/expected-valid/minimal.json@2025-11-25: listed as a known failure (once broken), but it passes"),
        "{stdout}"
    );
    assert!(
        stderr.contains("update the baseline with `mcpdesc-conformance baseline --output FILE`"),
        "{stderr}"
    );
    let stale = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["baseline"]["mark"] == "stale")
        .count();
    assert_eq!(stale, 1);
}

/// An entry that matches no case of the suite is an error: nothing runs.
#[test]
fn an_entry_that_matches_no_case_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.yaml");
    fs::write(
        &file,
        "failures:\n  - case: \"document/expected-valid/no-such-fixture.json\"\n    reason: \"typo\"\n",
    )
    .unwrap();
    let (code, stdout, stderr, report) =
        run_example(&["--baseline", file.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(2), "{stdout}\n{stderr}");
    assert!(report.is_null(), "nothing ran");
    assert!(
        stderr.contains(
            "no case of the suite matches this entry: `document/expected-valid/no-such-fixture.json`"
        ),
        "{stderr}"
    );
    // A malformed file says where.
    fs::write(&file, "failures:\n  - case: 1\n    reson: \"typo\"\n").unwrap();
    let (code, _, stderr, _) = run_example(&["--baseline", file.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(2));
    assert!(stderr.contains("baseline.yaml:3:"), "{stderr}");
}
