//! A broken suite is the suite's problem: found while loading, reported once
//! at its root cause, and never judged against a validator.

use super::*;

/// Replaces `from` by `to` in the file at `relative` below `root`.
fn edit(root: &Path, relative: &str, from: &str, to: &str) {
    let path = root.join(relative);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{relative}: {from:?} not in\n{text}");
    fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Asserts that `run` refused to judge: exit 2, the problems and the
/// refusal on stderr, no case report and no summary on stdout.
#[track_caller]
fn assert_run_refuses(output: &std::process::Output, needles: &[&str]) {
    let (stdout, stderr) = (stdout_of(output), stderr_of(output));
    assert_eq!(output.status.code(), Some(2), "{stdout}\n{stderr}");
    assert_contains(&stderr, needles);
    assert_contains(&stderr, &["no case was judged"]);
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(!stdout.contains("cases:"), "{stdout}");
}

const MINIMAL_EXPECTATION: &str = "expected/document/expected-valid/minimal.json.yaml";

#[test]
fn run_refuses_to_judge_when_an_expectation_names_a_rule_in_no_catalog() {
    let dir = suite_copy();
    edit(
        dir.path(),
        "expected/document/expected-invalid/missing-info.json.yaml",
        "mcpdesc.document.shape",
        "mcpdesc.document.no-such-rule",
    );
    let output = on_tree("run", dir.path());
    assert_run_refuses(
        &output,
        &["missing-info.json.yaml:", "the rule is in no catalog"],
    );
}

#[test]
fn run_refuses_to_judge_when_an_expectation_uses_a_rule_outside_its_revisions() {
    let dir = suite_copy();
    edit(
        dir.path(),
        MINIMAL_EXPECTATION,
        "2025-11-25: []",
        "2025-11-25:\n    - {severity: warning, rule: \"mcpdesc.protocol.legacy-validation-incomplete\", path: \"\"}",
    );
    let output = on_tree("run", dir.path());
    assert_run_refuses(
        &output,
        &[
            "minimal.json.yaml:5:7: 2025-11-25: mcpdesc.protocol.legacy-validation-incomplete at \"\": \
           the rule does not apply under this revision",
        ],
    );
}

#[test]
fn check_reports_a_broken_expectation_once() {
    let dir = suite_copy();
    edit(
        dir.path(),
        MINIMAL_EXPECTATION,
        "2025-11-25: []",
        "2025-11-25:\n    - {severity: warning, rule: \"mcpdesc.no-such-rule\", path: \"/nowhere\"}",
    );
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    let problems: Vec<String> = problem_lines(&output)
        .into_iter()
        .filter(|line| line.contains("minimal.json.yaml"))
        .collect();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert_contains(
        &problems.join("\n"),
        &[
            "the rule is in no catalog",
            "the pointer does not resolve in the fixture",
        ],
    );
}

#[test]
fn a_catalog_without_rules_is_one_suite_problem_and_run_judges_nothing() {
    let dir = suite_copy();
    let catalog = dir.path().join("suites/document.yaml");
    let text = fs::read_to_string(&catalog).unwrap();
    let cut = text.find("\nrules:").unwrap();
    fs::write(&catalog, format!("{}\nrules: []\n", &text[..cut])).unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    let problems = problem_lines(&output);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_contains(&problems[0], &["document.yaml: the catalog lists no rule"]);
    assert_run_refuses(
        &on_tree("run", dir.path()),
        &["document.yaml: the catalog lists no rule"],
    );
}

#[test]
fn a_fixture_that_does_not_load_is_one_problem_not_a_revision_mismatch_too() {
    let dir = suite_copy();
    // Its expectation lists two revisions; a fixture that does not load
    // runs under all five, which must not be reported as a mismatch.
    let fixture = dir
        .path()
        .join("fixtures/document/expected-valid/legacy-revisions.json");
    fs::write(&fixture, "{\n  \"a\": 1,\n  \"a\": 2\n}\n").unwrap();
    for command in ["check", "run"] {
        let output = on_tree(command, dir.path());
        assert_eq!(output.status.code(), Some(2), "{command}");
        let problems: Vec<String> = problem_lines(&output)
            .into_iter()
            .filter(|line| line.contains("legacy-revisions"))
            .collect();
        // The repeated key is reported where it starts.
        assert_eq!(
            problems,
            [format!(
                "suite error: {}:3:3: duplicate key `a`; each key may appear once in an object",
                fixture.display()
            )],
            "{command}"
        );
    }
}

#[test]
fn a_catalog_that_does_not_parse_is_one_problem_and_its_expectations_are_not_orphans() {
    let dir = suite_copy();
    let catalog = dir.path().join("suites/document.yaml");
    fs::write(&catalog, "suite: document\ntitle: [unclosed\n").unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    // Not its 98 expectation files as orphans, nor the other suite's
    // expectations that use its rules as "in no catalog": the parse error.
    let problems = problem_lines(&output);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_contains(&problems[0], &["document.yaml:2:8: unclosed bracket"]);
}

#[test]
fn a_catalog_naming_another_suite_is_one_problem_and_its_expectations_are_not_orphans() {
    let dir = suite_copy();
    edit(
        dir.path(),
        "suites/document.yaml",
        "suite: document",
        "suite: documents",
    );
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    let problems = problem_lines(&output);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_contains(
        &problems[0],
        &["catalog names suite `documents` but its file is `document.yaml`"],
    );
}

#[test]
fn a_suite_name_that_is_not_plain_is_refused() {
    let dir = suite_copy();
    let text = fs::read_to_string(dir.path().join("suites/document.yaml")).unwrap();
    let renamed = text
        .replacen("suite: document", "suite: Doc_2", 1)
        .replace("mcpdesc.", "mcpdesc.other.");
    fs::write(dir.path().join("suites/Doc_2.yaml"), renamed).unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    let problems = problem_lines(&output);
    let about_catalog: Vec<&String> = problems
        .iter()
        .filter(|line| line.contains("Doc_2"))
        .collect();
    assert_eq!(about_catalog.len(), 1, "{problems:#?}");
    assert_contains(
        about_catalog[0],
        &["Doc_2.yaml: the catalog names suite \"Doc_2\", which is not a plain name"],
    );
}

#[test]
fn load_errors_say_what_the_author_can_do_with_file_line_and_column() {
    let dir = suite_copy();
    edit(
        dir.path(),
        MINIMAL_EXPECTATION,
        "revisions:",
        "fixture: \"document/expected-valid/minimal.json\"\nrevisions:",
    );
    let bom = dir
        .path()
        .join("fixtures/document/expected-valid/all-five-revisions.json");
    let text = fs::read_to_string(&bom).unwrap();
    fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let surrogate = dir
        .path()
        .join("fixtures/document/expected-valid/minimal.json");
    let text = fs::read_to_string(&surrogate).unwrap();
    fs::write(
        &surrogate,
        text.replacen('{', "{\"x-lone\": \"\\ud800\",", 1),
    )
    .unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert_contains(
        &stderr,
        &[
            "minimal.json.yaml:3:1: duplicate key `fixture`; each key may appear once in a mapping",
            "all-five-revisions.json:1:1: a byte-order mark is not allowed",
            "minimal.json:1:13: a lone surrogate \\ud800 is not allowed",
        ],
    );
    assert!(!stderr.contains("DuplicateKeyPolicy"), "{stderr}");
}

#[test]
fn the_revisions_list_must_exist_and_be_oldest_first() {
    let dir = suite_copy();
    fs::remove_file(dir.path().join("suites/revisions.yaml")).unwrap();
    let output = on_tree("run", dir.path());
    assert_run_refuses(
        &output,
        &["revisions.yaml: the suite lists no MCP revisions: this file is missing"],
    );

    let dir = suite_copy();
    edit(
        dir.path(),
        "suites/revisions.yaml",
        "- revision: 2025-06-18\n",
        "- revision: 2025-06-18\n- revision: 2025-04-01\n",
    );
    let output = on_tree("run", dir.path());
    assert_run_refuses(
        &output,
        &[
            "revisions.yaml:",
            "MCP revisions are listed oldest first, each once, but `2025-04-01` comes after `2025-06-18`",
        ],
    );

    let dir = suite_copy();
    edit(
        dir.path(),
        "suites/revisions.yaml",
        "- revision: 2025-06-18\n",
        "- revision: 2025-6-18\n",
    );
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "revisions.yaml:",
            "`2025-6-18` is not an MCP protocol revision",
        ],
    );
}

#[test]
fn an_applicability_table_names_only_listed_revisions() {
    let dir = suite_copy();
    edit(
        dir.path(),
        "suites/document.yaml",
        "      2026-07-28: not-applicable\n",
        "      2026-07-28: not-applicable\n      2031-01-01: applies\n",
    );
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "applicability table names 2031-01-01, which is not in suites/revisions.yaml (2024-11-05, ",
        ],
    );
}
