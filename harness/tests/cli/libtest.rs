//! The `cargo test` entry point: its trials, and what one trial checks, on a
//! changed copy of the suite (as `MCPDESC_SUITE_DIR` would point it there).

use std::sync::Arc;

use mcpdesc_conformance::libtest::{Target, check_case, trials};
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::tree::SuiteTree;
use mcpdesc_protocol::{Revision, Validator};
use mcpdesc_validator::ReferenceValidator;

use super::*;

fn load(root: &Path) -> SuiteSet {
    SuiteSet::load(SuiteTree::from_dir(root).unwrap())
}

/// One spelling for a case everywhere: each trial is named by the case ID
/// that `list` prints, in the same order.
#[test]
fn one_trial_per_case_named_by_the_case_id_that_list_prints() {
    let trials = trials(
        Arc::new(Target::InProcess(Arc::new(ReferenceValidator::new()))),
        Ok(SuiteSet::load(SuiteTree::embedded())),
    );
    let names: Vec<String> = trials.iter().map(|t| t.name().to_owned()).collect();
    assert!(names.contains(&"document/expected-valid/minimal.json@2025-11-25".to_owned()));
    let listed = harness().arg("list").output().unwrap();
    let listed: Vec<String> = stdout_of(&listed).lines().map(str::to_owned).collect();
    assert_eq!(names, listed);
}

#[test]
fn a_suite_problem_is_a_failing_trial_of_its_own() {
    let trials = trials(
        Arc::new(Target::InProcess(Arc::new(ReferenceValidator::new()))),
        Err("cannot read".into()),
    );
    assert_eq!(trials.len(), 1);
    assert_eq!(trials[0].name(), "suite::load");
}

#[test]
fn an_edited_pointer_fails_the_trial_naming_revision_rule_and_pointer() {
    let dir = suite_copy();
    let validator = ReferenceValidator::new();
    let supported = validator.implementation().revisions;
    let validator = Target::InProcess(Arc::new(validator));
    let fixture = "elicitation/expected-invalid/declaration-name-pattern.json";
    let set = load(dir.path());
    assert_eq!(
        check_case(&set, fixture, Revision::R2024_11_05, &validator, &supported),
        Ok(())
    );
    edit_one_pointer(dir.path());
    let set = load(dir.path());
    let failure =
        check_case(&set, fixture, Revision::R2024_11_05, &validator, &supported).unwrap_err();
    assert_contains(
        &failure,
        &[
            "FAIL elicitation/expected-invalid/declaration-name-pattern.json under 2024-11-05",
            "-error mcpdesc.elicitation.name \"/tools/0/elicitations\"",
            "+error mcpdesc.elicitation.name \"/tools/0/elicitations/0/name\"",
        ],
    );
}
