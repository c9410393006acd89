//! Serialization cases: a suite whose catalog says `input: source` hands a
//! validator each fixture's text, with a `null` document, and only when it
//! announces that it reads the text's format (`sourceText`, or
//! `--source-text`); every other validator has those cases skipped, in
//! session, one-shot and in-process runs alike.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};

use super::external_support::python;
use super::schemas::{assert_valid, schemas};
use super::*;

/// The serialization case's text: `info` twice, which the harness's strict
/// loader refuses.
const DUPLICATE: &str = "mcpdesc: 0.9.0\ninfo: {name: x, version: \"1\"}\n\
                         info: {name: y, version: \"1\"}\nprotocolVersions: [\"2025-06-18\"]\n";

/// A document written plainly, which loads.
const MINIMAL: &str = "{\"x-test\": \"Each key written once.\", \"mcpdesc\": \"0.9.0\", \
                       \"info\": {\"name\": \"x\", \"version\": \"1\"}, \
                       \"protocolVersions\": [\"2025-06-18\"]}";

const DUPLICATE_ID: &str = "serialization/expected-invalid/duplicate-key.yaml";
const SOURCE_MINIMAL_ID: &str = "serialization/expected-valid/minimal.json";
const PLAIN_ID: &str = "plain/expected-valid/minimal.json";

/// The cases of the tree, in run order: a document suite's one, then the
/// source suite's (the text that does not load runs under every revision).
const CASES: [&str; 7] = [
    "plain/expected-valid/minimal.json@2025-06-18",
    "serialization/expected-invalid/duplicate-key.yaml@2024-11-05",
    "serialization/expected-invalid/duplicate-key.yaml@2025-03-26",
    "serialization/expected-invalid/duplicate-key.yaml@2025-06-18",
    "serialization/expected-invalid/duplicate-key.yaml@2025-11-25",
    "serialization/expected-invalid/duplicate-key.yaml@2026-07-28",
    "serialization/expected-valid/minimal.json@2025-06-18",
];

/// A catalog of one rule, `rule`, in suite `suite`, with `input` (a line,
/// or nothing).
fn catalog(suite: &str, input: &str, rule: &str) -> String {
    format!(
        "suite: {suite}\ntitle: t\ndescription: d\nspecification: 0.9.0\n{input}rules:\n  - \
         {{id: {rule}, title: t, summary: s, requirement: r, owner: mcpdesc, surface: s, \
         path: p, kind: k, level: must, severity: error, status: internal, \
         enforcement: internal, applicability: independent, exercised-at: [\"\"]}}\n"
    )
}

/// A suite tree of two suites: `plain`, of documents, with one fixture;
/// and `serialization` (`input: source`), with a YAML text that does not
/// load (its statement in its `.x-test` file) and a JSON one that does.
fn source_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let every = crate_revisions()
        .iter()
        .map(|revision| {
            format!(
                "  {revision}: [{{severity: error, rule: mcpdesc.serialization.duplicate-key, \
                 path: /info}}]\n"
            )
        })
        .collect::<String>();
    let files = [
        (
            "suites/plain.yaml",
            catalog("plain", "", "mcpdesc.plain.anything"),
        ),
        (
            "suites/serialization.yaml",
            catalog(
                "serialization",
                "input: source\n",
                "mcpdesc.serialization.duplicate-key",
            ),
        ),
        ("fixtures/plain/expected-valid/minimal.json", MINIMAL.into()),
        (
            "expected/plain/expected-valid/minimal.json.yaml",
            format!("fixture: {PLAIN_ID}\nrevisions:\n  2025-06-18: []\n"),
        ),
        (
            "fixtures/serialization/expected-invalid/duplicate-key.yaml",
            DUPLICATE.into(),
        ),
        (
            "fixtures/serialization/expected-invalid/duplicate-key.yaml.x-test",
            "The root names `info` twice.\n".into(),
        ),
        (
            "expected/serialization/expected-invalid/duplicate-key.yaml.yaml",
            format!("fixture: {DUPLICATE_ID}\nrevisions:\n{every}"),
        ),
        (
            "fixtures/serialization/expected-valid/minimal.json",
            MINIMAL.into(),
        ),
        (
            "expected/serialization/expected-valid/minimal.json.yaml",
            format!("fixture: {SOURCE_MINIMAL_ID}\nrevisions:\n  2025-06-18: []\n"),
        ),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    for name in ["suites/revisions.yaml", "suites/changelog.yaml"] {
        fs::copy(workspace().join(name), dir.path().join(name)).unwrap();
    }
    dir
}

/// The revisions of the built-in suite, which the tree copies.
fn crate_revisions() -> Vec<String> {
    mcpdesc_conformance::suite::builtin_revisions()
        .iter()
        .map(|revision| revision.as_str().to_owned())
        .collect()
}

/// What one run on the tree did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// The JSON report, checked against its schema.
    report: Value,
    /// The JUnit file.
    junit: String,
}

impl Run {
    /// Each case's outcome in the report, by case ID.
    fn outcomes(&self) -> BTreeMap<String, Value> {
        let cases = self.report["cases"]
            .as_array()
            .unwrap_or_else(|| panic!("no report\n{}\n{}", self.stdout, self.stderr));
        let outcomes: BTreeMap<String, Value> = cases
            .iter()
            .map(|case| {
                (
                    case["id"].as_str().unwrap().to_owned(),
                    case["outcome"].clone(),
                )
            })
            .collect();
        assert_eq!(
            outcomes.keys().collect::<Vec<_>>(),
            CASES.iter().collect::<Vec<_>>()
        );
        outcomes
    }

    /// How many cases the summary counts as skipped, and its counts at
    /// the exact level (passed, failed).
    fn counts(&self) -> (u64, u64, u64) {
        let total = &self.report["summary"]["total"];
        (
            total["skipped"].as_u64().unwrap(),
            total["levels"]["exact"]["passed"].as_u64().unwrap(),
            total["levels"]["exact"]["failed"].as_u64().unwrap(),
        )
    }
}

/// Runs `mcpdesc-conformance run --jobs 1 ARGS` on `tree`, with a JSON
/// report and a JUnit file, the harness's environment holding `env`.
fn run(tree: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = tempfile::tempdir().unwrap();
    let (report, junit) = (out.path().join("report.json"), out.path().join("junit.xml"));
    let mut command = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(tree)
        .args(["--jobs", "1"])
        .args(args)
        .arg("--report")
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .timeout(Duration::from_secs(120));
    for (name, value) in env {
        command = command.env(name, value);
    }
    let output = command.output().unwrap();
    let report = fs::read_to_string(&report)
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap_or(Value::Null);
    if !report.is_null() {
        assert_valid(&schemas(), "report", &report);
    }
    Run {
        code: output.status.code(),
        stdout: stdout_of(&output),
        stderr: stderr_of(&output),
        report,
        junit: fs::read_to_string(&junit).unwrap_or_default(),
    }
}

/// What the recording validator wrote into `dir`: one JSON value per case
/// it was asked about, by case ID.
fn records(dir: &Path) -> BTreeMap<String, Value> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
                .replace("__", "/");
            let value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
            (name, value)
        })
        .collect()
}

/// The session-mode recording validator, announcing `support` as its
/// `sourceText` (`none`: nothing), recording into `dir`.
fn session_validator(dir: &Path, support: &str) -> String {
    python(
        "source_validator.py",
        &format!("session '{}' '{support}'", dir.display()),
    )
}

/// The one-shot recording validator, recording into `dir`.
fn oneshot_validator(dir: &Path) -> String {
    python(
        "source_validator.py",
        &format!("oneshot '{}'", dir.display()),
    )
}

fn skipped_for(format: &str) -> Value {
    json!({"kind": "skipped", "reason": "unannounced-source-text", "format": format})
}

/// The duplicate key, where the suite expects it: the pointer names
/// nothing the harness could load, and is judged against the expectation.
fn passes(outcome: &Value) -> bool {
    outcome["kind"] == "compared"
        && outcome["missing"] == json!([])
        && outcome["unexpected"] == json!([])
        && outcome["problems"] == json!([])
}

/// (a) A session validator announcing source text version 1 in YAML gets
/// each YAML serialization case as its text, exactly as the fixture holds
/// it, with a null document, and is judged on its findings; the JSON
/// serialization case, whose format it does not announce, is skipped
/// unasked; a document suite's case still carries its document.
#[test]
fn a_validator_that_reads_yaml_gets_the_yaml_text_and_a_null_document() {
    let tree = source_tree();
    let recorded = tempfile::tempdir().unwrap();
    let validator = session_validator(recorded.path(), r#"{"version":1,"formats":["yaml"]}"#);
    let run = run(tree.path(), &["--validator", &validator], &[]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let outcomes = run.outcomes();
    for (id, outcome) in &outcomes {
        if id.starts_with(SOURCE_MINIMAL_ID) {
            assert_eq!(*outcome, skipped_for("json"), "{id}");
        } else {
            assert!(passes(outcome), "{id}: {outcome}");
        }
    }
    assert_eq!(run.counts(), (1, 6, 0));
    assert_eq!(
        run.report["run"]["implementation"]["sourceText"],
        json!({"version": 1, "formats": ["yaml"]})
    );
    let records = records(recorded.path());
    let asked: Vec<&str> = records.keys().map(String::as_str).collect();
    assert_eq!(asked, CASES[..6], "{records:#?}");
    for (id, request) in &records {
        if id.starts_with(DUPLICATE_ID) {
            assert_eq!(request["document"], Value::Null, "{id}");
            assert_eq!(
                request["source"],
                json!({"format": "yaml", "text": DUPLICATE}),
                "{id}"
            );
        } else {
            let document: Value = serde_json::from_str(MINIMAL).unwrap();
            assert_eq!(request["document"], document, "{id}");
            assert!(request.get("source").is_none(), "{id}: {request}");
        }
    }
}

/// (b, c) A validator that announces no source text, an empty list, or
/// another version of the extension (taken as no support) is asked about
/// no serialization case: each is skipped, saying which format it is
/// written in, and counted as skipped, never failed; the document case
/// still runs and passes.
#[test]
fn without_support_of_this_version_each_serialization_case_is_skipped() {
    let tree = source_tree();
    for support in [
        "none",
        r#"{"version":1,"formats":[]}"#,
        r#"{"version":2,"formats":["json","yaml"]}"#,
    ] {
        let recorded = tempfile::tempdir().unwrap();
        let validator = session_validator(recorded.path(), support);
        let run = run(tree.path(), &["--validator", &validator], &[]);
        assert_eq!(
            run.code,
            Some(0),
            "{support}: {}\n{}",
            run.stdout,
            run.stderr
        );
        for (id, outcome) in run.outcomes() {
            let expected = if id.starts_with(DUPLICATE_ID) {
                skipped_for("yaml")
            } else if id.starts_with(SOURCE_MINIMAL_ID) {
                skipped_for("json")
            } else {
                assert!(passes(&outcome), "{support}: {id}: {outcome}");
                continue;
            };
            assert_eq!(outcome, expected, "{support}: {id}");
        }
        assert_eq!(run.counts(), (6, 1, 0), "{support}");
        assert_contains(&run.stdout, &["7 cases", "6 skipped"]);
        assert_eq!(
            records(recorded.path()).keys().collect::<Vec<_>>(),
            [&CASES[0]],
            "{support}"
        );
        for format in ["yaml", "json"] {
            let skipped = format!(
                "<skipped message=\"the validator does not announce that it reads {format} \
                 source text\"/>"
            );
            assert_contains(&run.junit, &[&skipped]);
        }
        assert_eq!(
            run.junit
                .matches("does not announce that it reads yaml source text")
                .count(),
            5,
            "{}",
            run.junit
        );
    }
}

/// `show` says why a serialization case is skipped, and shows the case:
/// its statement from its `.x-test` file, and that it is sent as text.
#[test]
fn show_says_why_a_serialization_case_is_skipped() {
    let tree = source_tree();
    let recorded = tempfile::tempdir().unwrap();
    let case = format!("{DUPLICATE_ID}@2025-06-18");
    let show = |support: &str| {
        harness()
            .args(["show", &case, "--suite-dir"])
            .arg(tree.path())
            .args(["--validator", &session_validator(recorded.path(), support)])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap()
    };
    let output = show("none");
    let stdout = stdout_of_success(&output);
    assert_contains(
        &stdout,
        &[
            "x-test:    The root names `info` twice.",
            "source:    a serialization case: validators that read yaml source text get it",
            "(the harness's strict loader refuses it:",
            "not judged at the exact level",
            "skipped: the validator does not announce that it reads yaml source text",
        ],
    );
    let output = show(r#"{"version":1,"formats":["yaml"]}"#);
    let stdout = stdout_of_success(&output);
    assert_contains(
        &stdout,
        &[
            "passes at the exact level",
            "error mcpdesc.serialization.duplicate-key \"/info\"",
        ],
    );
    assert!(!stdout.contains("skipped:"), "{stdout}");
}

/// (d) One-shot mode: with `--source-text yaml` each YAML serialization
/// case gets its text on stdin as written and `MCPDESC_SOURCE_FORMAT=yaml`,
/// while a document case gets its JSON and no such variable, even when the
/// harness's own environment has one; the JSON serialization case is
/// skipped. Without the option a one-shot validator reads no source text;
/// with `json,yaml` it gets both.
#[test]
fn one_shot_gets_the_text_on_stdin_and_its_format_in_the_environment() {
    let tree = source_tree();
    let stray = [("MCPDESC_SOURCE_FORMAT", "stray")];
    let recorded = tempfile::tempdir().unwrap();
    let validator = oneshot_validator(recorded.path());
    let yaml = run(
        tree.path(),
        &[
            "--oneshot",
            "--source-text",
            "yaml",
            "--validator",
            &validator,
        ],
        &stray,
    );
    assert_eq!(yaml.code, Some(0), "{}\n{}", yaml.stdout, yaml.stderr);
    assert_eq!(yaml.outcomes()[CASES[6]], skipped_for("json"));
    assert_eq!(yaml.counts(), (1, 6, 0));
    assert_eq!(
        yaml.report["run"]["implementation"]["sourceText"],
        json!({"version": 1, "formats": ["yaml"]})
    );
    let received = records(recorded.path());
    assert_eq!(
        received.keys().map(String::as_str).collect::<Vec<_>>(),
        CASES[..6]
    );
    for (id, received) in &received {
        if id.starts_with(DUPLICATE_ID) {
            assert_eq!(
                *received,
                json!({"stdin": DUPLICATE, "format": "yaml"}),
                "{id}"
            );
        } else {
            assert_eq!(received["format"], Value::Null, "{id}: {received}");
            let document: Value =
                serde_json::from_str(received["stdin"].as_str().unwrap()).unwrap();
            assert_eq!(document, serde_json::from_str::<Value>(MINIMAL).unwrap());
        }
    }

    let recorded = tempfile::tempdir().unwrap();
    let validator = oneshot_validator(recorded.path());
    let none = run(tree.path(), &["--oneshot", "--validator", &validator], &[]);
    assert_eq!(none.code, Some(0), "{}\n{}", none.stdout, none.stderr);
    assert_eq!(none.counts(), (6, 1, 0));
    assert_eq!(none.outcomes()[CASES[3]], skipped_for("yaml"));
    assert_eq!(
        records(recorded.path()).keys().collect::<Vec<_>>(),
        [&CASES[0]]
    );

    let recorded = tempfile::tempdir().unwrap();
    let validator = oneshot_validator(recorded.path());
    let both = run(
        tree.path(),
        &[
            "--oneshot",
            "--source-text",
            "json,yaml",
            "--validator",
            &validator,
        ],
        &[],
    );
    assert_eq!(both.code, Some(0), "{}\n{}", both.stdout, both.stderr);
    assert_eq!(both.counts(), (0, 7, 0));
    assert_eq!(
        records(recorded.path())[CASES[6]],
        json!({"stdin": MINIMAL, "format": "json"})
    );
}

/// `--source-text` replaces what a session validator announces, as
/// `--rules` replaces its claims: `none` takes away the YAML it reads.
#[test]
fn source_text_replaces_what_a_session_validator_announces() {
    let tree = source_tree();
    let recorded = tempfile::tempdir().unwrap();
    let validator = session_validator(recorded.path(), r#"{"version":1,"formats":["yaml"]}"#);
    let run = run(
        tree.path(),
        &["--source-text", "none", "--validator", &validator],
        &[],
    );
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.counts(), (6, 1, 0));
    assert_eq!(
        run.report["run"]["implementation"]["sourceText"],
        json!({"version": 1, "formats": []})
    );
}

/// A `--source-text` value names formats of the contract, or `none`; the
/// option needs a validator, and `diff`, which sends no source text,
/// refuses it.
#[test]
fn source_text_values_are_checked() {
    for (value, why) in [
        ("toml", "`toml` is not a source format"),
        ("yaml,none", "`none` is not a source format"),
        (
            "yaml,",
            "the list of formats is empty or has an empty entry",
        ),
    ] {
        let output = harness()
            .args(["run", "--validator", "v", "--source-text", value])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{value}");
        let stderr = stderr_of(&output);
        assert_contains(
            &stderr,
            &[
                &format!("invalid value '{value}' for '--source-text <FORMATS>'"),
                why,
            ],
        );
    }
    let output = harness()
        .args(["diff", "--validator", "v", "--source-text", "yaml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_contains(&stderr_of(&output), &["--source-text does nothing here"]);
}

/// `check` takes a serialization case whose text does not load for what
/// it is, not a problem; such a case says what it tests in its `.x-test`
/// file, and one without it is named.
#[test]
fn check_asks_a_text_that_does_not_load_for_its_statement_file() {
    let tree = source_tree();
    let problems = |output: &std::process::Output| -> Vec<String> {
        stderr_of(output)
            .lines()
            .filter(|line| line.contains("fixtures/serialization/"))
            .map(str::to_owned)
            .collect()
    };
    let output = on_tree("check", tree.path());
    assert_eq!(
        problems(&output),
        Vec::<String>::new(),
        "{}",
        stderr_of(&output)
    );
    assert_contains(
        &stdout_of(&output),
        &["2 suites, 2 rules, 3 fixtures, 7 cases"],
    );
    fs::remove_file(
        tree.path()
            .join("fixtures/serialization/expected-invalid/duplicate-key.yaml.x-test"),
    )
    .unwrap();
    let output = on_tree("check", tree.path());
    let found = problems(&output);
    assert_eq!(found.len(), 1, "{}", stderr_of(&output));
    assert_contains(
        &found[0],
        &[
            "duplicate-key.yaml:1:1: the fixture does not say what it tests: its text does not \
             load (a serialization case), so the sentence goes in the file",
        ],
    );
}

/// A report of skipped serialization cases reads back: `merge` rebuilds
/// the run from it with each skip and its format, and `compare` takes it.
#[test]
fn a_report_of_source_skips_merges_and_compares() {
    let tree = source_tree();
    let out = tempfile::tempdir().unwrap();
    let recorded = tempfile::tempdir().unwrap();
    let shard = out.path().join("shard.json");
    let output = harness()
        .arg("run")
        .arg("--suite-dir")
        .arg(tree.path())
        .args(["--jobs", "1", "--validator"])
        .arg(session_validator(recorded.path(), "none"))
        .arg("--report")
        .arg(&shard)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    stdout_of_success(&output);
    let merged = out.path().join("merged.json");
    let output = harness()
        .arg("merge")
        .arg(&shard)
        .arg("--suite-dir")
        .arg(tree.path())
        .arg("--report")
        .arg(&merged)
        .output()
        .unwrap();
    stdout_of_success(&output);
    let read = |path: &Path| -> Value {
        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
    };
    let (shard, merged) = (read(&shard), read(&merged));
    assert_valid(&schemas(), "report", &merged);
    let outcomes = |report: &Value| -> Vec<Value> {
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|case| case["outcome"].clone())
            .collect()
    };
    assert_eq!(outcomes(&merged), outcomes(&shard));
    assert_eq!(outcomes(&merged)[1], skipped_for("yaml"));
    assert_eq!(outcomes(&merged)[6], skipped_for("json"));
    assert_eq!(merged["summary"]["total"]["skipped"], 6);
    let output = harness()
        .arg("compare")
        .arg(out.path().join("merged.json"))
        .output()
        .unwrap();
    assert_contains(
        &stdout_of_success(&output),
        &["| 1 | source\\-recording | 0 |"],
    );
}
