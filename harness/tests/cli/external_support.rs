//! Helpers for the tests that run Python validators (`python3` must be on
//! PATH, as it is in CI):
//! a small fixed suite tree, running the harness on it and reading back
//! every case's outcome, and looking for processes left behind.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcpdesc_conformance::case::Selection;
use mcpdesc_conformance::compare::Level;
use mcpdesc_conformance::failure::FailureKind;
use mcpdesc_conformance::runner::Outcome;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::tree::SuiteTree;
use serde_json::{Value, json};

use super::*;

/// A file under `harness/tests/support/`.
pub fn support(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(name)
}

/// A text no other process on the machine has in its command line.
pub fn marker() -> String {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.subsec_nanos());
    format!(
        "mcpdesc-test-marker-{}-{}-{nanos}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    )
}

/// The fixtures of the small suite, each with its expectation file.
const FIXTURES: [&str; 4] = [
    "document/expected-invalid/unknown-protocol-version.json",
    "document/expected-valid/legacy-revisions.json",
    "document/expected-valid/minimal.json",
    "document/expected-valid/primitives.yaml",
];

/// Its cases, in run order.
pub const CASES: [&str; 7] = [
    "document/expected-invalid/unknown-protocol-version.json@2025-06-18",
    "document/expected-valid/legacy-revisions.json@2024-11-05",
    "document/expected-valid/legacy-revisions.json@2025-03-26",
    "document/expected-valid/minimal.json@2025-11-25",
    "document/expected-valid/primitives.yaml@2025-06-18",
    "document/expected-valid/primitives.yaml@2025-11-25",
    "document/expected-valid/primitives.yaml@2026-07-28",
];

/// A small suite tree that does not grow with the real one: the
/// `document` catalog (without its examples, whose fixtures are not
/// copied) and four of its fixtures with their expectations; and an
/// answers file holding, for each case, the findings its expectation
/// lists, for the misbehaving validator to give back.
pub struct MiniSuite {
    pub dir: tempfile::TempDir,
    pub answers: PathBuf,
}

impl MiniSuite {
    pub fn new() -> MiniSuite {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let catalog = workspace().join("suites/document.yaml");
        let mut catalog: Value =
            mcpdesc_source::parse_yaml("document.yaml", &fs::read(&catalog).unwrap()).unwrap();
        for rule in catalog["rules"].as_array_mut().unwrap() {
            rule.as_object_mut().unwrap().remove("examples");
        }
        fs::create_dir_all(root.join("suites")).unwrap();
        // JSON is YAML too.
        fs::write(
            root.join("suites/document.yaml"),
            serde_json::to_string_pretty(&catalog).unwrap(),
        )
        .unwrap();
        for fixture in FIXTURES {
            for (from, to) in [
                (format!("fixtures/{fixture}"), format!("fixtures/{fixture}")),
                (
                    format!("expected/{fixture}.yaml"),
                    format!("expected/{fixture}.yaml"),
                ),
            ] {
                let target = root.join(to);
                fs::create_dir_all(target.parent().unwrap()).unwrap();
                fs::copy(workspace().join(from), target).unwrap();
            }
        }
        let set = SuiteSet::load(SuiteTree::from_dir(root).unwrap());
        assert_eq!(set.problems, [], "the small suite tree does not load");
        let cases = Selection::default().cases(&set);
        let ids: Vec<String> = cases.iter().map(|case| case.id()).collect();
        assert_eq!(
            ids, CASES,
            "the copied fixtures changed the small suite's cases; update CASES"
        );
        let mut answers = serde_json::Map::new();
        for case in &cases {
            let findings = case
                .entry
                .expectation
                .as_ref()
                .unwrap()
                .findings(case.revision)
                .unwrap();
            let diagnostics: Vec<Value> = findings
                .iter()
                .map(|finding| {
                    json!({"rule": finding.rule, "path": finding.path,
                           "severity": finding.severity.as_str()})
                })
                .collect();
            answers.insert(case.id(), Value::Array(diagnostics));
        }
        let answers_path = root.join("answers.json");
        fs::write(&answers_path, Value::Object(answers).to_string()).unwrap();
        MiniSuite {
            dir,
            answers: answers_path,
        }
    }

    /// The command line of the misbehaving validator with `arguments`.
    pub fn validator(&self, marker: &str, arguments: &str) -> String {
        format!(
            "python3 '{}' --answers '{}' --marker {marker} {arguments}",
            support("misbehaving_validator.py").display(),
            self.answers.display()
        )
    }
}

/// What one `mcpdesc-conformance run` did.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `mcpdesc-conformance run ARGS` on the small suite.
pub fn run(suite: &MiniSuite, args: &[&str]) -> Run {
    let started = Instant::now();
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(suite.dir.path())
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    Run {
        code: output.status.code(),
        stdout: stdout_of(&output),
        stderr: stderr_of(&output),
        elapsed: started.elapsed(),
    }
}

/// Each case's outcome as the human report tells it, one per case of
/// `CASES`, in order: `pass` for a case without a FAIL block (none of
/// these is skipped), otherwise what its FAIL block says (`crashed`,
/// `timeout`, `protocol error`, `not run`, `validator error`, `suite
/// error`, or `fail LEVELS` for a wrong answer). Also checks that no
/// case has two FAIL blocks and that the summary counts agree.
pub fn outcomes(run: &Run) -> Vec<String> {
    let mut found: BTreeMap<String, String> = BTreeMap::new();
    let blocks = run.stdout.split("\nFAIL ").skip(1);
    for block in blocks {
        let mut lines = block.lines();
        let header = lines.next().unwrap();
        let (case, levels) = header.split_once(" (").unwrap();
        let case = case.replacen(" under ", "@", 1);
        let outcome = lines
            .find_map(|line| {
                let line = line.strip_prefix("  ")?;
                [
                    ("crashed:", "crashed"),
                    ("timed out:", "timeout"),
                    ("protocol error:", "protocol error"),
                    ("not run:", "not run"),
                    ("the validator reported an error:", "validator error"),
                    ("suite error:", "suite error"),
                    ("--- expected", "compared"),
                    ("wrong whatever the expectation:", "compared"),
                ]
                .into_iter()
                .find(|(label, _)| line.starts_with(label))
                .map(|(_, outcome)| outcome.to_owned())
            })
            .unwrap_or_else(|| panic!("no outcome in the FAIL block of {case}:\n{block}"));
        let outcome = if outcome == "compared" {
            let failing: Vec<&str> = Level::ALL
                .iter()
                .filter(|level| levels.contains(&format!("{level}: FAIL")))
                .map(|level| level.as_str())
                .collect();
            format!("fail {}", failing.join("/"))
        } else {
            outcome
        };
        assert!(CASES.contains(&case.as_str()), "unknown case {case}");
        let earlier = found.insert(case.clone(), outcome);
        assert!(earlier.is_none(), "two outcomes for {case}\n{}", run.stdout);
    }
    let failed = found.len();
    assert_contains(
        &run.stdout,
        &[&format!(
            "{} cases: {} passed and {failed} failed at the exact level, 0 skipped",
            CASES.len(),
            CASES.len() - failed
        )],
    );
    CASES
        .iter()
        .map(|case| found.remove(*case).unwrap_or_else(|| "pass".to_owned()))
        .collect()
}

/// The processes whose command line holds `marker`, after waiting up
/// to five seconds for killed ones to go.
pub fn left_behind(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let found = processes_with(marker);
        if found.is_empty() || Instant::now() >= deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The processes whose command line holds `marker` now, as `PID: COMMAND`.
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|name| name.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(marker) {
            found.push(format!("{pid}: {cmdline}"));
        }
    }
    found
}

/// One word for an outcome, as the snapshots and tables of these tests
/// spell it.
pub fn word(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Compared(comparison) => {
            let failing: Vec<&str> = Level::ALL
                .iter()
                .filter(|level| !comparison.passes(**level))
                .map(|level| level.as_str())
                .collect();
            if failing.is_empty() {
                "pass".to_owned()
            } else {
                format!("fail {}", failing.join("/"))
            }
        }
        Outcome::Skipped(_) => "skipped".to_owned(),
        Outcome::ValidatorError { .. } => "validator error".to_owned(),
        Outcome::Failed(failure) => match failure.kind {
            FailureKind::Crashed(_) => "crashed".to_owned(),
            FailureKind::TimedOut { .. } => "timeout".to_owned(),
            FailureKind::Protocol(_) => "protocol error".to_owned(),
            FailureKind::NotStarted { .. } => "not started".to_owned(),
            _ => "failed".to_owned(),
        },
        Outcome::NotRun(_) => "not run".to_owned(),
        Outcome::SuiteError(_) => "suite error".to_owned(),
        Outcome::Interrupted => "interrupted".to_owned(),
        _ => "unknown".to_owned(),
    }
}
