//! The outputs made from a run's events: the JSON report and its schema,
//! the JSON lines, and the human report's pace.

use std::io::{BufRead as _, BufReader};
use std::process::{Command as StdCommand, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use super::external_support::{MiniSuite, marker};
use super::schemas::{assert_valid, schemas};
use super::*;

/// Runs `run ARGS --format json` on the small suite and returns the exit
/// status, the report it wrote and the events it printed.
fn report_of(suite: &MiniSuite, args: &[&str]) -> (Option<i32>, Value, Vec<Value>) {
    let run = super::external_support::run(suite, &[args, &["--format", "json"]].concat());
    let events: Vec<Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{error}: {line}")))
        .collect();
    (run.code, run.report, events)
}

/// What each case's outcome is, by kind, from a report.
fn kinds(report: &Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["outcome"]["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_report_and_the_events_say_the_same_and_match_the_schema() {
    let schemas = schemas();
    let suite = MiniSuite::new();
    let runs = [
        // Passes, compared failures, crashes, timeouts, protocol errors,
        // the cutoff and its cases not run.
        (suite.validator(&marker(), "none"), vec!["compared"; 7], 0),
        (
            suite.validator(&marker(), "crash 2"),
            ["compared", "crashed"]
                .repeat(3)
                .into_iter()
                .chain(["compared"])
                .collect(),
            1,
        ),
        (
            suite.validator(&marker(), "garbage 2"),
            ["compared", "protocol-error"]
                .repeat(3)
                .into_iter()
                .chain(["compared"])
                .collect(),
            1,
        ),
        (
            suite.validator(&marker(), "exit-after-start"),
            vec![
                "crashed", "crashed", "crashed", "not-run", "not-run", "not-run", "not-run",
            ],
            3,
        ),
    ];
    for (validator, expected, code) in runs {
        let (status, report, events) = report_of(
            &suite,
            &[
                "--validator",
                &validator,
                "--jobs",
                "1",
                "--max-consecutive-failures",
                "3",
            ],
        );
        assert_eq!(status, Some(code), "{validator}\n{report:#}");
        assert_valid(&schemas, "report", &report);
        assert_eq!(kinds(&report), expected, "{validator}");
        assert_eq!(report["exitStatus"], code);
        assert_eq!(report["summary"]["total"]["cases"], 7);
        // The events: the run's start, one per case, the run's end, and
        // the same data as the report.
        assert_eq!(events.len(), 9, "{events:#?}");
        assert_eq!(events[0]["event"], "run-started");
        assert_eq!(events[0]["implementation"], report["run"]["implementation"]);
        assert_eq!(events[0]["suite"], report["run"]["suite"]);
        assert_eq!(events[0]["commandLine"], report["run"]["commandLine"]);
        assert_eq!(events[8]["event"], "run-finished");
        assert_eq!(events[8]["summary"], report["summary"]);
        for (index, event) in events[1..8].iter().enumerate() {
            assert_eq!(event["event"], "case-finished");
            let mut case = event.clone();
            case.as_object_mut().unwrap().remove("event");
            let mut expected = report["cases"][index].clone();
            // Timings are the only thing that may differ... and they are
            // the same measurement.
            expected["durationMs"] = case["durationMs"].clone();
            assert_eq!(case, expected);
        }
    }
    // The built-in suite against the built-in validator.
    let file = suite.dir.path().join("built-in.json");
    let output = harness()
        .args(["run", "--quiet", "--report"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let report: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_valid(&schemas, "report", &report);
    assert_eq!(report["run"]["mode"], "in-process");
    // The command line that made it, as data: the program, then each
    // argument as given.
    let command_line = report["run"]["commandLine"].as_array().unwrap();
    assert!(
        command_line[0]
            .as_str()
            .unwrap()
            .contains("mcpdesc-conformance"),
        "{command_line:?}"
    );
    assert_eq!(
        command_line[1..],
        ["run", "--quiet", "--report", file.to_str().unwrap()]
    );
    assert!(
        report["run"]["suite"]["hash"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    let rules = report["summary"]["perRule"].as_object().unwrap();
    assert!(rules.len() >= 10, "{rules:?}");
    assert!(
        rules
            .values()
            .all(|tally| tally["levels"]["exact"]["rate"] == 100.0)
    );
    assert!(!report["matrix"].as_array().unwrap().is_empty());
}

/// The suite's identity changes with any byte of it.
#[test]
fn the_suite_hash_changes_with_the_suite() {
    let hash = |dir: Option<&Path>| {
        let mut args = vec!["run", "--quiet", "--format", "json", "--filter", "minimal"];
        if let Some(dir) = dir.and_then(Path::to_str) {
            args.extend(["--suite-dir", dir]);
        }
        let output = harness().args(args).output().unwrap();
        let first: Value =
            serde_json::from_str(stdout_of(&output).lines().next().unwrap()).unwrap();
        first["suite"]["hash"].as_str().unwrap().to_owned()
    };
    let dir = suite_copy();
    assert_eq!(hash(None), hash(Some(dir.path())));
    edit_one_pointer(dir.path());
    assert_ne!(hash(None), hash(Some(dir.path())));
}

/// The header is printed as soon as the validator has started, before any
/// case finishes: here no case can finish before the test, having read the
/// header, lets the validator answer.
#[test]
fn the_first_line_of_the_human_report_comes_before_the_first_case_finishes() {
    let suite = MiniSuite::new();
    let gate = suite.dir.path().join("answer-now");
    let validator = suite.validator(&marker(), &format!("wait-for '{}'", gate.display()));
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
        .arg("run")
        .arg("--suite-dir")
        .arg(suite.dir.path())
        .args(["--validator", &validator, "--timeout", "2m"])
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (sender, first) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    let header = first.recv_timeout(Duration::from_secs(60));
    fs::write(&gate, "").unwrap();
    let status = child.wait().unwrap();
    let header = header.expect("no header while every case was waiting");
    assert!(
        header.starts_with("mcpdesc-conformance ") && header.contains("7 cases"),
        "{header}"
    );
    assert_eq!(status.code(), Some(0));
}

/// The progress line is for people watching a terminal: it is drawn on
/// stderr when stderr is one (here a pseudo-terminal made by util-linux
/// `script`), and never when stderr is a pipe or `--quiet` is given.
#[test]
fn the_progress_line_appears_on_a_terminal_only() {
    let program = env!("CARGO_BIN_EXE_mcpdesc-conformance");
    let on_terminal = |extra: &str| {
        let output = StdCommand::new("script")
            .args(["--quiet", "--return", "--command"])
            .arg(format!("'{program}' run --suite document {extra}"))
            .arg("/dev/null")
            .env_remove("CI")
            .stdin(Stdio::null())
            .output()
            .expect("util-linux `script` runs the harness on a pseudo-terminal");
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let cases = stdout_of(
        &harness()
            .args(["list", "--suite", "document"])
            .output()
            .unwrap(),
    )
    .lines()
    .count();
    let progress = format!("{cases}/{cases} cases, ");
    let progress_start = format!("/{cases} cases, ");
    let shown = on_terminal("");
    assert!(
        shown.contains(&progress_start),
        "no progress line on a terminal:\n{shown}"
    );
    let quiet = on_terminal("--quiet");
    assert!(
        !quiet.contains(&progress_start),
        "a progress line under --quiet:\n{quiet}"
    );
    let piped = harness()
        .args(["run", "--suite", "document"])
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    let stderr = stderr_of(&piped);
    assert!(
        !stderr.contains(&progress_start) && !stderr.contains(&progress),
        "{stderr}"
    );
}

/// `text` with the temporary folder `dir` written as `<suite>`, so that a
/// snapshot does not change from run to run.
/// `text` with what changes as the suite grows (its folder, its version,
/// its number of rules) replaced by placeholders, so that a snapshot
/// changes only when the output's form does.
fn portable(text: &str, dir: &Path) -> String {
    let (version, rules) = suite_version_and_rules();
    let escaped = version.replace('.', "\\.");
    text.replace(&dir.display().to_string(), "<suite>")
        .replace(&format!("suite {version}"), "suite <version>")
        .replace(&format!("suite {escaped}"), "suite <version>")
        .replace(&format!("all {rules} rules"), "all <rules> rules")
}

/// Every output at once, from one run on a suite copy with one edited
/// expectation pointer: the JSON lines on stdout, the report, JUnit XML,
/// the Markdown summary and the badges.
///
/// The run takes three named fixtures (the edited one, a valid one, and
/// one of a revision-dependent rule), so that adding a fixture to the
/// suite changes neither the counts nor the snapshot; the counts are
/// computed from the selection.
#[test]
fn one_run_writes_every_output() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let filters = [
        "elicitation/expected-invalid/declaration-name-pattern.json",
        "elicitation/expected-invalid/elicitation-form-schema-2025-06-18.json",
        "document/expected-valid/minimal.json",
    ];
    let set = mcpdesc_conformance::suite::SuiteSet::load(
        mcpdesc_conformance::suite::tree::SuiteTree::from_dir(dir.path()).unwrap(),
    );
    let selection = mcpdesc_conformance::suite::case::Selection {
        filters: filters.map(str::to_owned).to_vec(),
        ..Default::default()
    };
    let selected = selection.cases(&set);
    let groups: std::collections::BTreeSet<(String, String)> = selected
        .iter()
        .map(|case| (case.entry.fixture.suite.clone(), case.revision.to_string()))
        .collect();
    let revisions: std::collections::BTreeSet<&String> =
        groups.iter().map(|(_, revision)| revision).collect();
    let out = tempfile::tempdir().unwrap();
    let (report, junit, markdown, badges) = (
        out.path().join("r.json"),
        out.path().join("j.xml"),
        out.path().join("m.md"),
        out.path().join("b"),
    );
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(dir.path())
        .args(["--format", "json", "--report"])
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .arg("--markdown")
        .arg(&markdown)
        .arg("--badge-dir")
        .arg(&badges)
        .args(filters.iter().flat_map(|filter| ["--filter", filter]))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert_eq!(stdout_of(&output).lines().count(), selected.len() + 2);
    let report: Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_valid(&schemas(), "report", &report);
    assert_eq!(report["summary"]["total"]["levels"]["exact"]["failed"], 1);

    // The JUnit file parses, and counts what the run counted.
    let xml = fs::read_to_string(&junit).unwrap();
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut suites, mut cases, mut failures) = (0, 0, 0);
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(element) | quick_xml::events::Event::Empty(element) => {
                match element.name().as_ref() {
                    b"testsuite" => suites += 1,
                    b"testcase" => cases += 1,
                    b"failure" => failures += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    // A testsuite per suite and revision.
    assert_eq!(
        (suites, cases, failures),
        (groups.len(), selected.len(), 1),
        "{xml}"
    );
    assert!(
        xml.contains("-error mcpdesc.elicitation.name &quot;/tools/0/elicitations&quot;"),
        "{xml}"
    );

    insta::assert_snapshot!(
        "markdown",
        portable(&fs::read_to_string(&markdown).unwrap(), dir.path())
    );
    let mut names: Vec<String> = fs::read_dir(&badges)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // Per level: overall and per revision run, as JSON and SVG.
    assert_eq!(names.len(), 3 * (1 + revisions.len()) * 2, "{names:?}");
    let exact: Value =
        serde_json::from_str(&fs::read_to_string(badges.join("exact.json")).unwrap()).unwrap();
    // Rounded down, so that a rate below 100 % never reads as 100.0%.
    // One rule for every output: the badge, the Markdown table and the
    // human table say the same rate.
    let rate = (1000.0 * (selected.len() - 1) as f64 / selected.len() as f64).floor() / 10.0;
    let version = &report["run"]["suite"]["version"].as_str().unwrap();
    assert_eq!(
        exact["message"],
        format!(
            "{rate:.1}% · {rules}/{rules} rules · suite {version}",
            rules = suite_version_and_rules().1
        )
    );
    let markdown = fs::read_to_string(&markdown).unwrap();
    assert!(markdown.contains(&format!(" {rate:.1}% |\n")), "{markdown}");
    assert_eq!(exact["schemaVersion"], 1);
}

/// Under GitHub Actions one edited pointer is one annotation, at the line
/// of the fixture where the suite expects the finding.
#[test]
fn under_github_actions_one_edited_pointer_is_one_annotation_at_its_line() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(dir.path())
        .env("GITHUB_ACTIONS", "true")
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    let annotations: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("::"))
        .collect();
    let fixture = dir
        .path()
        .join("fixtures/elicitation/expected-invalid/declaration-name-pattern.json");
    // The pointer the edit wrote, `/tools/0/elicitations`, names line 29.
    let text = fs::read_to_string(&fixture).unwrap();
    let line = text
        .lines()
        .position(|line| line.contains("\"elicitations\""))
        .unwrap()
        + 1;
    assert_eq!(annotations.len(), 1, "{stdout}");
    assert!(
        annotations[0].starts_with(&format!(
            "::error file={},line={line},title=",
            fixture.display()
        )),
        "{}",
        annotations[0]
    );
    // Without GitHub Actions, none.
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(dir.path())
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert!(!stdout_of(&output).contains("::error"));
}

/// The human report of a run where every second case crashes, in full.
#[test]
fn the_human_report_of_a_crashing_validator() {
    let suite = MiniSuite::new();
    let validator = suite.validator("snapshot", "crash 2");
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(suite.dir.path())
        .args(["--validator", &validator, "--jobs", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = portable(&stdout_of(&output), suite.dir.path());
    let text = text.replace(
        &super::external_support::support("misbehaving_validator.py")
            .display()
            .to_string(),
        "<validator>",
    );
    insta::assert_snapshot!("human_crashing", text);
}

/// A built-in fixture is in no file of the repository being checked: its
/// annotations name no file, and they and the human report's `fixture:`
/// line name the case and the command that shows it.
#[test]
fn a_built_in_case_is_named_with_the_command_that_shows_it() {
    let case = "document/expected-invalid/empty-info-name.yaml@2025-11-25";
    let validator = format!(
        "python3 {}",
        workspace()
            .join("examples/python-validator/validator.py")
            .display()
    );
    let output = harness()
        .args(["run", "--annotations", "github", "--filter", case])
        .args(["--validator", &validator])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let show = format!("`mcpdesc-conformance show {case}` shows it");
    assert_contains(&stdout, &[&format!("  fixture: built in; {show}\n")]);
    let annotations: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("::error"))
        .collect();
    assert_eq!(annotations.len(), 1, "{stdout}");
    assert!(
        annotations[0].starts_with("::error title="),
        "{}",
        annotations[0]
    );
    assert!(
        annotations[0].ends_with(&format!("::{case}: expected, not reported: error mcpdesc.document.shape at \"/info/name\" (built-in case; {show})")),
        "{}",
        annotations[0]
    );
}

/// An output of `run` (or `certify`) that is one of its inputs (the
/// baseline, the rules file, the statement checked) is refused before
/// anything runs; `baseline --output` may rewrite the baseline it reads.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    fs::write(dir.join("baseline.yaml"), "failures: []\n").unwrap();
    fs::write(dir.join("rules.txt"), "mcpdesc.document.shape\n").unwrap();
    for args in [
        &[
            "run",
            "--baseline",
            "baseline.yaml",
            "--junit",
            "baseline.yaml",
        ][..],
        &["run", "--rules", "rules.txt", "--report", "./rules.txt"],
        &[
            "certify",
            "--rules",
            "rules.txt",
            "--statement",
            "rules.txt",
        ],
    ] {
        let output = harness().current_dir(dir).args(args).output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr_of(&output)
        );
        assert_contains(&stderr_of(&output), &["is also an input"]);
    }
    assert_eq!(
        fs::read_to_string(dir.join("baseline.yaml")).unwrap(),
        "failures: []\n"
    );
    let output = harness()
        .current_dir(dir)
        .args([
            "baseline",
            "--baseline",
            "baseline.yaml",
            "--output",
            "baseline.yaml",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}
