//! The examples of the seed rule pages, which the suite must reproduce
//! exactly: (fixture, rule, selected pointer) for the invalid ones.

use mcpdesc_conformance::backend::schedule;
use mcpdesc_conformance::outcome::Outcome;
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_validator::ReferenceValidator;

use super::*;

const INVALID: [(&str, &str, &str); 5] = [
    (
        "elicitation/expected-invalid/elicitation-version-mismatch.json",
        "mcp.elicitation.protocol-version",
        "/tools/0/elicitations/0",
    ),
    (
        "elicitation/expected-invalid/invalid-tool-interaction-example-semantics.json",
        "mcp.elicitation.protocol-version",
        "/tools/0/interactionExamples/broken/steps/0/request",
    ),
    (
        "elicitation/expected-invalid/elicitation-form-semantics.json",
        "mcpdesc.elicitation.form-schema.consistency",
        "/prompts/0/elicitations/0/requestedSchema/required",
    ),
    (
        "elicitation/expected-invalid/elicitation-form-invalid-range.json",
        "mcpdesc.elicitation.form-schema.consistency",
        "/prompts/0/elicitations/0/requestedSchema/properties/count",
    ),
    (
        "elicitation/expected-invalid/elicitation-form-schema-2025-06-18.json",
        "mcp.elicitation.form-schema.protocol-shape",
        "/prompts/0/elicitations/0/requestedSchema",
    ),
];

#[test]
fn every_seed_example_is_reported_by_the_reference_validator_and_expected() {
    let set = SuiteSet::load(SuiteTree::embedded());
    assert_eq!(set.problems, []);
    let validator = ReferenceValidator::new();
    for (fixture, rule, pointer) in INVALID {
        let selection = Selection {
            filters: vec![fixture.to_owned()],
            ..Selection::default()
        };
        let cases = selection.cases(&set);
        let results = schedule::run_in_process(&cases, &set.rules, &validator);
        let mut revisions = Vec::new();
        for result in &results {
            let Outcome::Compared(comparison) = &result.outcome else {
                panic!("{fixture}: {:?}", result.outcome);
            };
            assert!(
                comparison.passes(Level::Exact),
                "{fixture} under {}",
                result.revision
            );
            if comparison
                .reported()
                .iter()
                .any(|f| f.rule == rule && f.path == pointer)
            {
                revisions.push(result.revision);
            }
        }
        assert!(
            !revisions.is_empty(),
            "{fixture}: {rule} at {pointer} under no revision"
        );
    }
}

#[test]
fn the_seed_valid_example_is_valid_under_every_revision_it_runs_under() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let index = set
        .find("elicitation/expected-valid/elicitation-declarations.json")
        .unwrap();
    let entry = set.get(index).unwrap();
    let expectation = entry.expectation.as_ref().unwrap();
    assert!(
        expectation
            .revisions
            .contains_key(&mcpdesc_protocol::Revision::of("2025-06-18"))
    );
    assert!(
        expectation.revisions.values().all(Vec::is_empty),
        "{expectation:?}"
    );
}

#[test]
fn a_catalog_example_that_drifts_from_the_suite_is_a_suite_error() {
    let dir = suite_copy();
    let catalog = dir.path().join("suites/elicitation.yaml");
    let text = fs::read_to_string(&catalog).unwrap();
    let drifted = text.replacen(
        "selected: /prompts/0/elicitations/0/requestedSchema/properties/count",
        "selected: /prompts/0/elicitations/0/requestedSchema/properties",
        1,
    );
    assert_ne!(text, drifted);
    fs::write(&catalog, drifted).unwrap();
    let output = on_tree("run", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "example `expected-invalid/elicitation-form-invalid-range.json`: the expectation never reports this rule",
        ],
    );
}
