use super::*;

#[test]
fn prints_the_rule_by_revision_coverage_table() {
    let output = harness().arg("check").output().unwrap();
    let stdout = stdout_of(&output);
    let header = stdout.lines().next().unwrap_or_default();
    assert!(header.starts_with("rule "), "{stdout}");
    let revisions: Vec<String> = mcpdesc_conformance::suite::builtin_revisions()
        .iter()
        .map(|revision| revision.to_string())
        .collect();
    let revisions: Vec<&str> = revisions.iter().map(String::as_str).collect();
    assert_contains(header, &revisions);
    assert_contains(
        &stdout,
        &[
            "mcp.elicitation.form-schema.protocol-shape ",
            " n/a ",
            "cells: invalid cases",
        ],
    );
    for rule in mcpdesc_validator::rule::ALL {
        assert!(
            stdout
                .lines()
                .any(|line| line.starts_with(&format!("{rule} "))),
            "{rule} missing\n{stdout}"
        );
    }
}

#[test]
fn the_built_in_suite_is_clean_with_full_coverage() {
    let output = harness().arg("check").output().unwrap();
    let (stdout, stderr) = (stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let table: Vec<&str> = stdout.lines().take_while(|line| !line.is_empty()).collect();
    assert!(table.len() > 20, "{stdout}");
    assert!(
        table.iter().all(|row| !row.contains('!')),
        "a coverage gap:\n{stdout}"
    );
    let totals = stdout.lines().last().unwrap_or_default();
    let numbers: Vec<usize> = totals
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|word| word.parse().ok())
        .collect();
    let [suites, rules, fixtures, cases, problems] = numbers[..] else {
        panic!("unexpected totals line: {totals}");
    };
    let catalogs = {
        use mcpdesc_conformance::suite::{SuiteSet, tree::SuiteTree};
        SuiteSet::load(SuiteTree::embedded()).suites.len()
    };
    assert!(
        catalogs >= 3,
        "the document, elicitation and tags suites at least"
    );
    assert_eq!(
        (suites, rules, problems),
        (catalogs, mcpdesc_validator::rule::ALL.len(), 0)
    );
    assert!(fixtures >= 60 && cases >= 150, "{totals}");
}

#[test]
fn reports_what_is_wrong_with_a_suite_tree() {
    let dir = suite_copy();
    let fixture = dir
        .path()
        .join("fixtures/document/expected-valid/minimal.json");
    let text = fs::read_to_string(&fixture).unwrap();
    let without_statement: serde_json::Value = {
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value.as_object_mut().unwrap().remove("x-test");
        value
    };
    fs::write(
        &fixture,
        serde_json::to_string_pretty(&without_statement).unwrap(),
    )
    .unwrap();
    let expectation = dir
        .path()
        .join("expected/document/expected-invalid/missing-info.json.yaml");
    let text = fs::read_to_string(&expectation).unwrap();
    fs::write(
        &expectation,
        text.replace("mcpdesc.document.shape", "mcpdesc.document.no-such-rule"),
    )
    .unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "minimal.json:1:1: the fixture does not say what it tests",
            "missing-info.json.yaml:11:7: 2025-06-18: mcpdesc.document.no-such-rule at \"\": the rule is in no catalog",
        ],
    );
}

/// A working tree with a compiled form (`compiled/`, which a build of the
/// data crate embeds): a twin edited by hand, its `source` hash kept, is a
/// problem of `check` naming the twin, and `bless --dry-run` would write it
/// again. The tree itself is read from its YAML files (twins are only read
/// in the built-in suite), so a run on it is judged, and identified, by
/// the YAML.
#[test]
fn a_hand_edited_twin_in_a_working_tree_is_a_problem() {
    let dir = suite_copy();
    let twin =
        "compiled/expected/document/expected-invalid/unknown-protocol-version.json.yaml.json";
    copy_part("compiled", dir.path());
    let honest = on_tree("check", dir.path());
    assert_eq!(honest.status.code(), Some(0), "{}", stderr_of(&honest));
    let hash = |dir: &Path| {
        let output = harness()
            .args([
                "run",
                "--quiet",
                "--format",
                "json",
                "--filter",
                "unknown-protocol",
            ])
            .arg("--suite-dir")
            .arg(dir)
            .output()
            .unwrap();
        let first: serde_json::Value =
            serde_json::from_str(stdout_of(&output).lines().next().unwrap()).unwrap();
        first["suite"]["hash"].as_str().unwrap().to_owned()
    };
    let before = hash(dir.path());

    let path = dir.path().join(twin);
    let text = fs::read_to_string(&path).unwrap();
    let edited = text.replace("/protocolVersions/1", "/protocolVersions/0");
    assert_ne!(edited, text);
    fs::write(&path, edited).unwrap();

    let check = on_tree("check", dir.path());
    let stderr = stderr_of(&check);
    assert_eq!(check.status.code(), Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &[&format!(
            "{}: the compiled twin is not what `bless` writes",
            dir.path().join(twin).display()
        )],
    );
    let dry_run = harness()
        .args(["bless", "--dry-run", "--suite-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_contains(
        &stderr_of(&dry_run),
        &["1 files of the compiled form (compiled/) would change"],
    );
    assert_eq!(hash(dir.path()), before);
}
