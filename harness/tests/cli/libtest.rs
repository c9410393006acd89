//! The `cargo test` entry point: its trials, and what one trial checks, on a
//! changed copy of the suite (as `MCPDESC_SUITE_DIR` would point it there).

use std::ffi::OsString;
use std::sync::Arc;

use libtest_mimic::{Arguments, Conclusion, Trial};
use mcpdesc_conformance::backend::external::Mode;
use mcpdesc_conformance::libtest::{
    Checked, Settings, Target, check_case, trials, trials_from_environment,
};
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_protocol::{
    Implementation, Reply, Revision, Skip, SourceFormat, SourceTextSupport, ValidateRequest,
    Validator,
};
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
        Arc::new(Target::in_process(Arc::new(ReferenceValidator::new()))),
        Ok(SuiteSet::load(SuiteTree::embedded())),
        Level::Exact,
    );
    let names: Vec<String> = trials.iter().map(|t| t.name().to_owned()).collect();
    assert!(names.contains(&"document/expected-valid/minimal.json@2025-11-25".to_owned()));
    let listed = harness().arg("list").output().unwrap();
    let listed: Vec<String> = stdout_of(&listed).lines().map(str::to_owned).collect();
    assert_eq!(names, listed);
}

/// Runs the trials named exactly `name` as the test binary would, and
/// returns how many passed and failed, with what the run printed.
fn run_trials(trials: Vec<Trial>, name: &str) -> (u64, u64, String) {
    let arguments = Arguments {
        filter: Some(name.to_owned()),
        exact: true,
        ..Arguments::default()
    };
    let (conclusion, printed) = run_with(trials, arguments);
    (conclusion.num_passed, conclusion.num_failed, printed)
}

/// Runs `trials` as the test binary would with `arguments` (on one thread,
/// into a log file), and returns the counts with what the run printed.
fn run_with(trials: Vec<Trial>, arguments: Arguments) -> (Conclusion, String) {
    let log = tempfile::tempdir().unwrap();
    let logfile = log.path().join("trials.log");
    let arguments = Arguments {
        test_threads: Some(1),
        logfile: Some(logfile.display().to_string()),
        ..arguments
    };
    let conclusion = libtest_mimic::run(&arguments, trials);
    let printed = fs::read_to_string(&logfile).unwrap();
    (conclusion, printed)
}

fn reference() -> Arc<Target> {
    Arc::new(Target::in_process(Arc::new(ReferenceValidator::new())))
}

/// Environment variables, as `std::env::vars_os` gives them.
fn variables(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    pairs
        .iter()
        .map(|(name, value)| (OsString::from(name), OsString::from(value)))
        .collect()
}

#[test]
fn a_suite_problem_is_a_failing_trial_of_its_own() {
    let target = reference;
    let nowhere = tempfile::tempdir().unwrap();
    let unreadable = trials(
        target(),
        SuiteTree::from_dir(nowhere.path()).map(SuiteSet::load),
        Level::Exact,
    );
    assert_eq!(unreadable.len(), 1);
    let (passed, failed, printed) = run_trials(unreadable, "suite::load");
    assert_eq!((passed, failed), (0, 1), "{printed}");
    assert_contains(&printed, &["suite::load", "not a suite tree"]);

    let dir = suite_copy();
    fs::remove_file(dir.path().join(EDITED_EXPECTATION)).unwrap();
    let broken = trials(target(), Ok(load(dir.path())), Level::Exact);
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

    let sound = trials(
        target(),
        Ok(SuiteSet::load(SuiteTree::embedded())),
        Level::Exact,
    );
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
    let validator = Target::in_process(Arc::new(ReferenceValidator::new()));
    let fixture = "elicitation/expected-invalid/declaration-name-pattern.json";
    let set = load(dir.path());
    let check = |set: &SuiteSet, level| {
        let case = Selection {
            filters: vec![format!("{fixture}@{}", Revision::of("2024-11-05"))],
            ..Selection::default()
        }
        .cases(set)
        .pop()
        .unwrap();
        check_case(set, &case, &validator, level)
    };
    assert_eq!(check(&set, Level::Exact), Checked::Passed);
    edit_one_pointer(dir.path());
    let set = load(dir.path());
    assert_eq!(check(&set, Level::Rules), Checked::Passed);
    let Checked::Failed(failure) = check(&set, Level::Exact) else {
        panic!("an edited pointer must fail the exact level");
    };
    assert_contains(
        &failure,
        &[
            "FAIL elicitation/expected-invalid/declaration-name-pattern.json@2024-11-05 (",
            "-error mcpdesc.elicitation.name \"/tools/0/elicitations\"",
            "+error mcpdesc.elicitation.name \"/tools/0/elicitations/0/name\"",
        ],
    );
}

/// The reference validator, except that it does not announce `declined`
/// and answers `skipped` under `skipped`.
struct Choosy {
    declined: Revision,
    skipped: Revision,
    inner: ReferenceValidator,
}

impl Choosy {
    fn new(declined: Revision, skipped: Revision) -> Self {
        Choosy {
            declined,
            skipped,
            inner: ReferenceValidator::new(),
        }
    }
}

impl Validator for Choosy {
    fn implementation(&self) -> Implementation {
        let mut implementation = self.inner.implementation();
        implementation
            .revisions
            .retain(|revision| revision != self.declined.as_str());
        implementation
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        if request.revision == self.skipped {
            return Reply::Skipped(Skip {
                reason: "not written yet".to_owned(),
                issue: None,
            });
        }
        self.inner.validate(request)
    }
}

/// A case the validator does not take is ignored, never passed: marked
/// ignored up front when its revision is not announced (and still ignored
/// when run anyway), ignored at run time when the validator answers
/// `skipped`, with a reason naming the revision.
#[test]
fn a_declined_or_skipped_revision_is_ignored_not_passed() {
    let (declined, skipped) = (Revision::of("2024-11-05"), Revision::of("2025-06-18"));
    let fixture = "elicitation/expected-valid/url-declarations.json";
    let make = || {
        let target = Target::in_process(Arc::new(Choosy::new(declined, skipped)));
        trials(
            Arc::new(target),
            Ok(SuiteSet::load(SuiteTree::embedded())),
            Level::Exact,
        )
    };
    let cases: Vec<String> = make()
        .iter()
        .map(|trial| trial.name().to_owned())
        .filter(|name| name.starts_with(&format!("{fixture}@")))
        .collect();
    let under = |revision: Revision| format!("{fixture}@{revision}");
    assert!(cases.contains(&under(declined)), "{cases:?}");
    assert!(cases.contains(&under(skipped)), "{cases:?}");
    let declined_trial = make()
        .into_iter()
        .find(|trial| trial.name() == under(declined))
        .unwrap();
    assert!(declined_trial.has_ignored_flag());

    for include_ignored in [false, true] {
        let arguments = Arguments {
            filter: Some(format!("{fixture}@")),
            include_ignored,
            ..Arguments::default()
        };
        let (conclusion, printed) = run_with(make(), arguments);
        let counts = (
            conclusion.num_passed,
            conclusion.num_ignored,
            conclusion.num_failed,
        );
        assert_eq!(counts, (cases.len() as u64 - 2, 2, 0), "{printed}");
        assert_contains(
            &printed,
            &[&format!(
                "test {} ... ignored (under {skipped}: not written yet)",
                under(skipped)
            )],
        );
        if include_ignored {
            assert_contains(
                &printed,
                &[&format!(
                    "test {} ... ignored (under {declined}: the validator does not announce this revision)",
                    under(declined)
                )],
            );
        }
    }
}

/// `MCPDESC_LEVEL` chooses the level: a case that fails only at the exact
/// level passes at `rules`, and fails at `exact` and by default.
#[test]
fn the_level_variable_chooses_the_level_a_trial_is_judged_at() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let suite = dir.path().to_str().unwrap();
    let case = "elicitation/expected-invalid/declaration-name-pattern.json@2024-11-05";
    let run = |level: Option<&str>| {
        let mut pairs = vec![("MCPDESC_SUITE_DIR", suite), ("PATH", "/bin")];
        pairs.extend(level.map(|level| ("MCPDESC_LEVEL", level)));
        let trials =
            trials_from_environment(Arc::new(ReferenceValidator::new()), variables(&pairs));
        run_trials(trials, case)
    };
    for level in [None, Some("exact"), Some("")] {
        let (passed, failed, printed) = run(level);
        assert_eq!((passed, failed), (0, 1), "{level:?}\n{printed}");
        assert_contains(
            &printed,
            &[&format!("---- {case} ----"), &format!("FAIL {case} (")],
        );
    }
    for level in ["rules", "verdict"] {
        let (passed, failed, printed) = run(Some(level));
        assert_eq!((passed, failed), (1, 0), "{level}\n{printed}");
    }
}

#[test]
fn settings_come_from_the_mcpdesc_variables() {
    assert_eq!(
        Settings::from_variables(variables(&[("HOME", "/root")])),
        Ok(Settings::default())
    );
    assert_eq!(
        Settings::from_variables(variables(&[
            ("MCPDESC_SUITE_DIR", "/tmp/suite"),
            ("MCPDESC_VALIDATOR", "my-validator --stdio"),
            ("MCPDESC_VALIDATOR_ONESHOT", "1"),
            ("MCPDESC_LEVEL", "verdict"),
            ("MCPDESC_SOURCE_TEXT", "yaml, json"),
        ])),
        Ok(Settings {
            suite_dir: Some("/tmp/suite".into()),
            validator: Some("my-validator --stdio".to_owned()),
            mode: Mode::Oneshot,
            level: Level::Verdict,
            source_text: Some(SourceTextSupport::of(&[
                SourceFormat::Json,
                SourceFormat::Yaml
            ])),
        })
    );
}

/// A value the binary cannot take, or a `MCPDESC_*` name it does not know,
/// is one failing trial named after the variable, saying what was given and
/// what is accepted; no case runs.
#[test]
fn a_wrong_variable_is_a_failing_trial_naming_it() {
    assert_one_failing_trial(
        &[("MCPDESC_LEVEL", "strict")],
        "environment::MCPDESC_LEVEL",
        &["`strict` is not a level", "`verdict`, `rules` or `exact`"],
    );
    assert_one_failing_trial(
        &[
            ("MCPDESC_VALIDATOR", "v"),
            ("MCPDESC_VALIDATOR_ONESHOT", "yes"),
        ],
        "environment::MCPDESC_VALIDATOR_ONESHOT",
        &["`yes` is neither `1` (one-shot mode) nor `0` (session mode)"],
    );
    assert_one_failing_trial(
        &[("MCPDESC_VALIDATOR_ONESHOT", "1")],
        "environment::MCPDESC_VALIDATOR_ONESHOT",
        &["MCPDESC_VALIDATOR names no external validator"],
    );
    assert_one_failing_trial(
        &[("MCPDESC_VALIDATR", "my-validator --stdio")],
        "environment::MCPDESC_VALIDATR",
        &[
            "not a variable the test binary reads",
            "MCPDESC_SUITE_DIR, MCPDESC_VALIDATOR, MCPDESC_VALIDATOR_ONESHOT, MCPDESC_LEVEL, \
             MCPDESC_SOURCE_TEXT",
        ],
    );
    assert_one_failing_trial(
        &[("MCPDESC_VALIDATOR", "v"), ("MCPDESC_SOURCE_TEXT", "toml")],
        "environment::MCPDESC_SOURCE_TEXT",
        &["`toml`: `toml` is not a source format: give `json`, `yaml` or `json,yaml`"],
    );
    assert_one_failing_trial(
        &[("MCPDESC_SOURCE_TEXT", "json")],
        "environment::MCPDESC_SOURCE_TEXT",
        &["MCPDESC_VALIDATOR names none; an in-process validator announces"],
    );
    assert_one_failing_trial(
        &[("MCPDESC_LEVEL", "exact\u{1b}[2J")],
        "environment::MCPDESC_LEVEL",
        &["`exact\\x1b[2J` is not a level"],
    );

    let trials = trials_from_environment(
        Arc::new(ReferenceValidator::new()),
        variables(&[("MCPDESC_LEVEL", "loose"), ("MCPDESC_SUIT_DIR", "/tmp")]),
    );
    let names: Vec<&str> = trials.iter().map(Trial::name).collect();
    assert_eq!(
        names,
        [
            "environment::MCPDESC_LEVEL",
            "environment::MCPDESC_SUIT_DIR"
        ]
    );
}

/// Asserts that the environment `pairs` make exactly one trial, `name`,
/// which fails saying each of `messages`, with no control character.
#[track_caller]
fn assert_one_failing_trial(pairs: &[(&str, &str)], name: &str, messages: &[&str]) {
    let trials = trials_from_environment(Arc::new(ReferenceValidator::new()), variables(pairs));
    let names: Vec<&str> = trials.iter().map(Trial::name).collect();
    assert_eq!(names, [name], "{pairs:?}");
    let (passed, failed, printed) = run_trials(trials, name);
    assert_eq!((passed, failed), (0, 1), "{printed}");
    assert_contains(&printed, messages);
    assert!(!printed.contains('\u{1b}'), "{printed}");
}

/// The reference validator claiming a rule ID that no catalog defines.
struct Misspelt(ReferenceValidator);

impl Validator for Misspelt {
    fn implementation(&self) -> Implementation {
        let mut implementation = self.0.implementation();
        implementation.rules = Some(vec![
            "mcpdesc.document.shape".to_owned(),
            "mcpdesc.elicitation.uri".to_owned(),
        ]);
        implementation
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        self.0.validate(request)
    }
}

/// A claim of an unknown rule is a failing trial of its own, naming it, as
/// `run` refuses it.
#[test]
fn a_claim_of_an_unknown_rule_is_a_failing_trial() {
    let target = Arc::new(Target::in_process(Arc::new(Misspelt(
        ReferenceValidator::new(),
    ))));
    let set = SuiteSet::load(SuiteTree::embedded());
    let trials = mcpdesc_conformance::libtest::trials(target, Ok(set), Level::Exact);
    let (passed, failed, printed) = run_trials(trials, "validator::claims");
    assert_eq!((passed, failed), (0, 1), "{printed}");
    assert!(printed.contains("`mcpdesc.elicitation.uri`"), "{printed}");
}

/// A one-shot validator announces nothing, so its serialization cases are
/// ignored trials, until `MCPDESC_SOURCE_TEXT` says which texts it reads;
/// then they run and pass (the reference reads both).
#[test]
fn the_source_text_variable_runs_a_one_shot_validators_serialization_cases() {
    let reference = format!("{} --oneshot", super::modes::reference_binary().display());
    let serialization = |extra: &[(&str, &str)]| {
        let mut pairs = vec![
            ("MCPDESC_VALIDATOR", reference.as_str()),
            ("MCPDESC_VALIDATOR_ONESHOT", "1"),
        ];
        pairs.extend_from_slice(extra);
        let trials =
            trials_from_environment(Arc::new(ReferenceValidator::new()), variables(&pairs));
        let arguments = Arguments {
            filter: Some("serialization/expected-invalid/json-duplicate-root-member.json@".into()),
            include_ignored: true,
            ..Arguments::default()
        };
        let (conclusion, printed) = run_with(trials, arguments);
        let counts = (
            conclusion.num_passed,
            conclusion.num_failed,
            conclusion.num_ignored,
        );
        (counts, printed)
    };
    // It runs under every known revision, since its text does not load.
    let revisions = mcpdesc_conformance::suite::builtin_revisions()
        .iter()
        .count() as u64;
    let (counts, printed) = serialization(&[]);
    assert_eq!(counts, (0, 0, revisions), "{printed}");
    assert!(
        printed.contains("the validator does not announce that it reads json source text"),
        "{printed}"
    );
    let (counts, printed) = serialization(&[("MCPDESC_SOURCE_TEXT", "json,yaml")]);
    assert_eq!(counts, (revisions, 0, 0), "{printed}");
}
