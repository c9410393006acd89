//! Helpers for the tests that run Python validators (`python3` must be on
//! PATH, as it is in CI):
//! a small fixed suite tree, running the harness on it and reading back
//! every case's outcome, and looking for processes left behind.

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcpdesc_conformance::outcome::Outcome;
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::outcome::failure::FailureKind;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use serde_json::{Value, json};

use super::schemas::{assert_valid, schemas};
use super::*;

/// A file under `harness/tests/support/`.
pub fn support(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(name)
}

/// The command line that runs the Python script `script` of
/// `harness/tests/support/` with `arguments`.
pub fn python(script: &str, arguments: &str) -> String {
    format!("python3 '{}' {arguments}", support(script).display())
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
        for file in ["suites/revisions.yaml", "suites/changelog.yaml"] {
            fs::copy(workspace().join(file), root.join(file)).unwrap();
        }
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
    /// The JSON report the run wrote (`Null` when it wrote none, as when
    /// the validator could not be started).
    pub report: Value,
}

/// Runs `mcpdesc-conformance run ARGS --report FILE` on the small suite.
pub fn run(suite: &MiniSuite, args: &[&str]) -> Run {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let file = suite.dir.path().join(format!(
        "report-{}.json",
        COUNT.fetch_add(1, Ordering::SeqCst)
    ));
    let started = Instant::now();
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(suite.dir.path())
        .args(args)
        .arg("--report")
        .arg(&file)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let report = fs::read_to_string(&file)
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap_or(Value::Null);
    // Every report these runs write, whatever the validator did, must
    // match its published schema: the misbehaviour tests cover each kind
    // of outcome that way.
    if !report.is_null() {
        static SCHEMAS: OnceLock<BTreeMap<&'static str, jsonschema::Validator>> = OnceLock::new();
        assert_valid(SCHEMAS.get_or_init(schemas), "report", &report);
    }
    Run {
        code: output.status.code(),
        stdout: stdout_of(&output),
        stderr: stderr_of(&output),
        elapsed: started.elapsed(),
        report,
    }
}

/// Each case's outcome, one per case of `CASES`, in order, read from the
/// run's JSON report: `pass`, `fail LEVELS` for a wrong answer, or what
/// ended the case (`crashed`, `timeout`, `protocol error`, `not started`,
/// `not run`, `validator error`, `suite error`, `skipped`, `interrupted`).
/// Also checks that the report lists exactly the cases of `CASES` and that
/// its summary agrees with them.
pub fn outcomes(run: &Run) -> Vec<String> {
    let cases = run.report["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("no report\n{}\n{}", run.stdout, run.stderr));
    let ids: Vec<&str> = cases
        .iter()
        .map(|case| case["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, CASES, "the report's cases");
    let words: Vec<String> = cases.iter().map(word_of).collect();
    let failed = words.iter().filter(|word| *word != "pass").count();
    let exact = &run.report["summary"]["total"]["levels"]["exact"];
    assert_eq!(
        (exact["passed"].as_u64(), exact["failed"].as_u64()),
        (Some((CASES.len() - failed) as u64), Some(failed as u64)),
        "{:#}",
        run.report["summary"]
    );
    words
}

/// One word for a case of a JSON report, as [`word`] spells outcomes.
fn word_of(case: &Value) -> String {
    let outcome = &case["outcome"];
    match outcome["kind"].as_str().unwrap() {
        "compared" => {
            let failing: Vec<&str> = Level::ALL
                .iter()
                .map(|level| level.as_str())
                .filter(|level| case["passes"][level] == false)
                .collect();
            if failing.is_empty() {
                "pass".to_owned()
            } else {
                format!("fail {}", failing.join("/"))
            }
        }
        "timed-out" => "timeout".to_owned(),
        other => other.replace('-', " "),
    }
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
        Outcome::Unclaimed(_) => "unclaimed".to_owned(),
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

/// The peak resident memory, in KiB, of the harness run with `args` in
/// `dir` (through `peak_memory.py`), and its output.
pub(crate) fn peak_memory(dir: &Path, args: &[&str]) -> (u64, std::process::Output) {
    let peak_file = dir.join("peak");
    let output = std::process::Command::new("python3")
        .current_dir(dir)
        .arg(support("peak_memory.py"))
        .arg(&peak_file)
        .arg(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap();
    let peak = fs::read_to_string(&peak_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    (peak, output)
}
