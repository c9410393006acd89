//! `adequacy/independent-validator`: the Python validator written from the
//! specification material alone, whose mutants measure the suite
//! independently of the reference's code (adequacy/README.md). It must pass
//! the whole built-in suite at the exact level, so that a fixture added
//! later that it disagrees with is noticed here, where either the validator
//! or the expectation is then corrected; and its mutation tool must keep
//! enumerating mutants with unique IDs, since `equivalent.txt` names them.

use std::collections::HashSet;
use std::time::Duration;

use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_protocol::SourceFormat;

use super::*;

#[test]
fn it_passes_every_case_of_the_built_in_suite_at_the_exact_level() {
    let output = harness()
        .current_dir(workspace())
        .args([
            "run",
            "--validator",
            "python3 adequacy/independent-validator/validator.py",
            "--level",
            "exact",
            "--color",
            "never",
        ])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        stderr_of(&output)
    );
    // It reads JSON text but not YAML (Python's standard library has no
    // YAML parser): exactly the YAML serialization cases are skipped.
    let set = SuiteSet::load(SuiteTree::embedded());
    let yaml_texts = Selection::default()
        .cases(&set)
        .iter()
        .filter(|case| {
            case.entry
                .fixture
                .source
                .as_ref()
                .is_some_and(|source| source.format == SourceFormat::Yaml)
        })
        .count();
    assert!(yaml_texts > 0);
    let skipped = format!("passed and 0 failed at the exact level, {yaml_texts} skipped");
    assert_contains(
        &stdout,
        &[
            "validator mcpdesc-independent 0.1.0 (session mode)",
            &skipped,
            // Judged on every rule of the catalogs: a rule added later
            // that it does not claim shows here as `20/21 rules`.
            "at the exact level, on all ",
        ],
    );
}

#[test]
fn its_mutation_tool_lists_many_mutants_with_unique_ids() {
    let output = Command::new("python3")
        .current_dir(workspace())
        .args(["adequacy/mutate.py", "--list"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = stdout_of_success(&output);
    let ids: Vec<&str> = stdout.lines().collect();
    assert!(ids.len() > 300, "only {} mutants:\n{stdout}", ids.len());
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "repeated IDs:\n{stdout}");
    // Every operator the tool promises is at work on today's rules.
    for operator in [
        "compare@", "boolop@", "not@", "if@", "jump@", "delete@", "return@", "int@",
    ] {
        assert!(
            ids.iter().any(|id| id.starts_with(operator)),
            "no `{operator}` mutant:\n{stdout}"
        );
    }
    // The filter narrows the listing to the matching IDs.
    let filtered = Command::new("python3")
        .current_dir(workspace())
        .args([
            "adequacy/mutate.py",
            "--list",
            "--filter",
            "compare@*",
            "--limit",
            "5",
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let filtered = stdout_of_success(&filtered);
    let lines: Vec<&str> = filtered.lines().collect();
    assert_eq!(lines.len(), 5, "{filtered}");
    assert!(
        lines.iter().all(|id| id.starts_with("compare@")),
        "{filtered}"
    );
}

/// Every exclusion names a mutant that exists, with a reason: a stale
/// entry after an edit of rules.py must be renamed or dropped.
#[test]
fn its_equivalent_mutants_name_existing_mutants() {
    let listed = Command::new("python3")
        .current_dir(workspace())
        .args(["adequacy/mutate.py", "--list"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let listed = stdout_of_success(&listed);
    let ids: HashSet<&str> = listed.lines().collect();
    let equivalent = fs::read_to_string(workspace().join("adequacy/equivalent.txt")).unwrap();
    for line in equivalent.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, reason) = line.split_once(' ').unwrap_or((line, ""));
        assert!(
            ids.contains(id),
            "`{id}` in adequacy/equivalent.txt names no mutant"
        );
        assert!(!reason.trim().is_empty(), "`{id}` has no reason");
    }
}
