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

/// Runs the trials named exactly `name` as the test binary would, and
/// returns how many passed and failed, with what the run printed.
fn run_trials(trials: Vec<libtest_mimic::Trial>, name: &str) -> (u64, u64, String) {
    let log = tempfile::tempdir().unwrap();
    let logfile = log.path().join("trials.log");
    let arguments = libtest_mimic::Arguments {
        filter: Some(name.to_owned()),
        exact: true,
        test_threads: Some(1),
        logfile: Some(logfile.display().to_string()),
        ..libtest_mimic::Arguments::default()
    };
    let conclusion = libtest_mimic::run(&arguments, trials);
    let printed = fs::read_to_string(&logfile).unwrap();
    (conclusion.num_passed, conclusion.num_failed, printed)
}

#[test]
fn a_suite_problem_is_a_failing_trial_of_its_own() {
    let target = || Arc::new(Target::InProcess(Arc::new(ReferenceValidator::new())));
    let unreadable = trials(target(), Err("cannot read the suite".into()));
    assert_eq!(unreadable.len(), 1);
    let (passed, failed, printed) = run_trials(unreadable, "suite::load");
    assert_eq!((passed, failed), (0, 1), "{printed}");
    assert_contains(&printed, &["suite::load", "cannot read the suite"]);

    let dir = suite_copy();
    fs::remove_file(dir.path().join(EDITED_EXPECTATION)).unwrap();
    let broken = trials(target(), Ok(load(dir.path())));
    let (passed, failed, printed) = run_trials(broken, "suite::problems");
    assert_eq!((passed, failed), (0, 1), "{printed}");
    assert_contains(
        &printed,
        &[
            "suite::problems",
            "suite error: ",
            "missing expectation for `elicitation/expected-invalid/declaration-name-pattern.json`",
        ],
    );

    let sound = trials(target(), Ok(SuiteSet::load(SuiteTree::embedded())));
    let (passed, failed, printed) = run_trials(sound, "suite::problems");
    assert_eq!(
        (passed, failed),
        (0, 0),
        "a sound suite has no such trial\n{printed}"
    );
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
