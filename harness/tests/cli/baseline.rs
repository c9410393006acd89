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
    // A fresh entry has no reason: the file says nothing it was not told.
    assert!(!text.contains("\n    reason:"), "{text}");
    let first = text
        .lines()
        .find(|line| line.starts_with("  - case: "))
        .unwrap();
    let given = text.replacen(
        &format!("{first}\n"),
        &format!("{first}\n    reason: \"the reason a person wrote\"\n"),
        1,
    );
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

/// A listed case that passes is stale: the run fails and prints the
/// command that rewrites the file, which, pasted into a shell, does; the
/// same run then passes.
#[test]
fn a_stale_entry_fails_the_run_with_the_command_that_rewrites_the_file() {
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
    assert_contains(
        &stderr,
        &[
            "error: 1 entry of the baseline is stale (listed as known failures, its cases pass now):\n  \
             document/expected-valid/minimal.json@2025-11-25\n",
            "rewrite the baseline (it keeps the entries that still hold) with:\n",
        ],
    );
    // The command: the run's own options (the report it wrote is an
    // output, left out), the file in place of `--baseline`, and words
    // quoted as a shell needs them.
    let command = rewrite_command(&stderr);
    let program = std::path::PathBuf::from(cargo_bin!("mcpdesc-conformance"));
    let quoted = |word: &str| shlex::try_quote(word).unwrap().into_owned();
    assert_eq!(
        command,
        format!(
            "{} baseline --validator {} --output {}",
            quoted(program.to_str().unwrap()),
            quoted(&example()),
            quoted(file.to_str().unwrap())
        )
    );
    let rewritten = shell(&command, dir.path());
    assert_eq!(
        rewritten.status.code(),
        Some(0),
        "{}",
        stderr_of(&rewritten)
    );
    let text = fs::read_to_string(&file).unwrap();
    assert!(!text.contains("minimal.json"), "{text}");
    let (code, stdout, stderr, _) =
        run_example(&["--baseline", file.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
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

/// The command a stale run's stderr says rewrites the baseline.
#[track_caller]
fn rewrite_command(stderr: &str) -> String {
    stderr
        .split("rewrite the baseline (it keeps the entries that still hold) with:\n  ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("no rewrite command in\n{stderr}"))
        .to_owned()
}

/// Runs `command` with `sh -c` in `dir`, as a pasted line runs.
fn shell(command: &str, dir: &Path) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// A pattern covers an area: one of its cases passing does not make it
/// stale while another fails, in `run --baseline` (no stale count, no
/// stale message) and in `baseline --output` (kept as written). An entry
/// needs no reason: reports say it has none.
#[test]
fn a_pattern_with_a_failing_case_is_not_stale_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.yaml");
    // The example fails some of these fixtures and passes others.
    let written = "failures:\n  - case: \"document/expected-invalid/*\"\n";
    fs::write(&file, written).unwrap();
    let select = ["--filter", "document/*"];
    let (code, stdout, stderr, report) = run_example(
        &[&select[..], &["--baseline", file.to_str().unwrap()]].concat(),
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert_eq!(report["summary"]["stale"], 0);
    assert!(!stderr.contains("stale"), "{stderr}");
    assert!(!stdout.contains("STALE"), "{stdout}");
    let cases = report["cases"].as_array().unwrap();
    let passing = cases
        .iter()
        .filter(|case| {
            case["fixture"]
                .as_str()
                .unwrap()
                .starts_with("document/expected-invalid/")
                && case["passes"]["exact"] == true
        })
        .count();
    assert!(passing > 0, "the pattern matches passing cases too");
    let known: Vec<&Value> = cases
        .iter()
        .filter(|case| case["baseline"]["mark"] == "known-failure")
        .collect();
    assert!(!known.is_empty());
    for case in known {
        assert_eq!(case["baseline"]["reason"], Value::Null, "{case}");
    }
    let output = harness()
        .args(["baseline", "--quiet", "--validator", &example()])
        .args(select)
        .arg("--output")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let text = fs::read_to_string(&file).unwrap();
    let entries: Vec<&str> = text.lines().filter(|line| !line.starts_with('#')).collect();
    assert_eq!(entries, written.lines().collect::<Vec<_>>(), "{text}");
}

/// A pattern none of whose cases fails is stale, but only in a run that
/// takes all of its cases: a narrower run cannot tell. Its passing cases
/// are marked stale when the run ends; an entry without a reason is shown
/// without one. The printed command rewrites the file without it.
#[test]
fn a_pattern_is_stale_only_when_none_of_its_cases_fails() {
    let dir = tempfile::tempdir().unwrap();
    let committed =
        fs::read_to_string(workspace().join("examples/python-validator/baseline.yaml")).unwrap();
    let file = dir.path().join("baseline.yaml");
    fs::write(
        &file,
        format!("{committed}  - case: \"document/expected-valid/*\"\n"),
    )
    .unwrap();
    let baseline = ["--baseline", file.to_str().unwrap()];
    // One of its cases only: not stale.
    let (code, stdout, stderr, report) = run_example(
        &[
            &["--filter", "document/expected-valid/minimal.json"][..],
            &baseline,
        ]
        .concat(),
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert_eq!(report["summary"]["stale"], 0);
    // All of them: stale, each passing case marked.
    let (code, stdout, stderr, report) = run_example(
        &[&["--filter", "document/*"][..], &baseline].concat(),
        dir.path(),
    );
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    let marked: Vec<&Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["baseline"]["mark"] == "stale")
        .collect();
    assert!(marked.len() > 1, "{}", marked.len());
    assert_eq!(report["summary"]["stale"], marked.len());
    assert!(
        marked
            .iter()
            .all(|case| case["baseline"]["reason"].is_null())
    );
    assert!(
        stdout.contains("STALE document/expected-valid/minimal.json@2025-11-25: listed as a known failure, but it passes"),
        "{stdout}"
    );
    assert_contains(
        &stderr,
        &[
            "error: 1 entry of the baseline is stale (listed as known failures, its cases pass now):\n  \
           document/expected-valid/*\n",
        ],
    );
    let command = rewrite_command(&stderr);
    assert!(command.contains(" --filter 'document/*' "), "{command}");
    let rewritten = shell(&command, dir.path());
    assert_eq!(
        rewritten.status.code(),
        Some(0),
        "{}",
        stderr_of(&rewritten)
    );
    let entries = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.starts_with('#'))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        entries(&fs::read_to_string(&file).unwrap()),
        entries(&committed)
    );
    let (code, stdout, stderr, _) = run_example(
        &[&["--filter", "document/*"][..], &baseline].concat(),
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
}

/// A rewrite by a narrower run (one suite, one shard) keeps every entry of
/// the cases it did not take as it was, reason and link included: the
/// next full run with the file still passes.
#[test]
fn a_narrower_rewrite_keeps_the_entries_it_did_not_take() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.yaml");
    let write = |narrowing: &[&str]| {
        let output = harness()
            .args(["baseline", "--quiet", "--validator", &example(), "--output"])
            .arg(&file)
            .args(narrowing)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    };
    write(&[]);
    // Every entry gets a reason and a link a person wrote.
    let text = fs::read_to_string(&file).unwrap();
    let mut given = String::new();
    for line in text.lines() {
        given.push_str(line);
        given.push('\n');
        if line.starts_with("  - case: ") {
            given.push_str("    reason: \"a person's reason\"\n");
            given.push_str("    link: \"https://example.org/issues/1\"\n");
        }
    }
    let entries = given.matches("  - case: ").count();
    assert!(entries > 3, "{given}");
    for narrowing in [
        &["--suite", "elicitation"][..],
        &["--suite", "document"][..],
        &["--partition", "hash:1/3"][..],
        &["--partition", "hash:3/3"][..],
        &[
            "--filter",
            "document/expected-invalid/mcpdesc-not-string.json",
        ][..],
    ] {
        fs::write(&file, &given).unwrap();
        write(narrowing);
        let rewritten = fs::read_to_string(&file).unwrap();
        assert_eq!(
            rewritten.matches("  - case: ").count(),
            entries,
            "{narrowing:?} lost entries:\n{rewritten}"
        );
        assert_eq!(
            rewritten
                .matches("    reason: \"a person's reason\"\n")
                .count(),
            entries,
            "{narrowing:?} lost reasons:\n{rewritten}"
        );
        assert_eq!(
            rewritten
                .matches("    link: \"https://example.org/issues/1\"\n")
                .count(),
            entries,
            "{narrowing:?} lost links:\n{rewritten}"
        );
        let (code, stdout, stderr, _) =
            run_example(&["--baseline", file.to_str().unwrap()], dir.path());
        assert_eq!(code, Some(0), "after {narrowing:?}:\n{stdout}\n{stderr}");
    }
}

/// The baseline `baseline --output` rewrites is read before the run: a
/// broken one is refused with its line and column before any validator
/// starts, and one with a byte-order mark gets the suite's message.
#[test]
fn the_baseline_to_rewrite_is_read_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.yaml");
    let started = dir.path().join("started");
    let validator = format!("sh -c 'touch {}; exec {}'", started.display(), example());
    for (text, said) in [
        ("failures:\n  - case: [\n", "baseline.yaml:"),
        (
            "\u{feff}failures: []\n",
            "baseline.yaml:1:1: a byte-order mark is not allowed",
        ),
        ("failure: []\n", "unknown field `failure`"),
    ] {
        fs::write(&file, text).unwrap();
        let output = harness()
            .args(["baseline", "--quiet", "--validator", &validator, "--output"])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
        assert_contains(&stderr_of(&output), &[said]);
        assert!(!started.exists(), "the validator was started for {text:?}");
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            text,
            "the file was changed"
        );
    }
}
