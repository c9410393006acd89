//! A `cargo test` binary for any in-process validator: one trial per case.

use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use mcpdesc_protocol::{Revision, Validator};

use crate::case::{Case, Selection};
use crate::compare::Level;
use crate::report;
use crate::runner;
use crate::suite::SuiteSet;
use crate::tree::SuiteTree;

/// The environment variable that points the test binary at a suite working
/// tree instead of the suite built into the harness.
pub const SUITE_DIR_VARIABLE: &str = "MCPDESC_SUITE_DIR";

/// Runs the whole suite against `validator` as a libtest-compatible test
/// binary, and exits: one trial per case, named after the fixture, with the
/// revision as the trial's kind, so `cargo test`, `cargo nextest`, name
/// filters, `--list`, `--exact` and `--skip` all work. A trial passes when the
/// case passes at the exact level; a failing one prints the diff.
///
/// In a third-party crate, add `mcpdesc-conformance` as a dev-dependency and
/// a test target without the default harness:
///
/// ```toml
/// [[test]]
/// name = "conformance"
/// harness = false
/// ```
///
/// then write `tests/conformance.rs`:
///
/// ```no_run
/// # mod my_validator { pub use mcpdesc_validator::ReferenceValidator as MyValidator; }
/// use my_validator::MyValidator;
///
/// fn main() {
///     mcpdesc_conformance::libtest::main(MyValidator::default());
/// }
/// ```
///
/// Set `MCPDESC_SUITE_DIR` to run a suite working tree instead of the
/// built-in suite. Problems in the suite itself fail a trial of their own,
/// `suite::problems`.
pub fn main(validator: impl Validator + 'static) -> ! {
    let arguments = Arguments::from_args();
    let trials = trials(Arc::new(validator), load_suite());
    libtest_mimic::run(&arguments, trials).exit()
}

fn load_suite() -> Result<SuiteSet, String> {
    match std::env::var_os(SUITE_DIR_VARIABLE) {
        Some(dir) => SuiteTree::from_dir(dir.as_ref())
            .map(SuiteSet::load)
            .map_err(|error| error.to_string()),
        None => Ok(SuiteSet::load(SuiteTree::embedded())),
    }
}

/// The trials for `validator` over `set`: one per case, and one for the
/// suite's own problems when it has any.
pub fn trials(validator: Arc<dyn Validator>, set: Result<SuiteSet, String>) -> Vec<Trial> {
    let set = match set {
        Ok(set) => Arc::new(set),
        Err(message) => {
            return vec![Trial::test("suite::load", move || {
                Err(Failed::from(message))
            })];
        }
    };
    let mut trials = Vec::new();
    if !set.problems.is_empty() {
        let text = report::problems(&set.problems);
        trials.push(Trial::test("suite::problems", move || {
            Err(Failed::from(text))
        }));
    }
    let supported = Arc::new(validator.implementation().revisions);
    for case in Selection::default().cases(&set) {
        let name = case.entry.fixture.id();
        let revision = case.revision;
        let (set, validator, supported) = (
            Arc::clone(&set),
            Arc::clone(&validator),
            Arc::clone(&supported),
        );
        let trial = Trial::test(name.clone(), move || {
            check_case(&set, &name, revision, validator.as_ref(), &supported).map_err(Failed::from)
        })
        .with_kind(revision.as_str())
        .with_ignored_flag(false);
        trials.push(trial);
    }
    trials
}

/// What one trial does: runs the case of fixture `fixture` under `revision`
/// against `validator` (which supports the revisions `supported`) and returns
/// the failure report when it does not pass at the exact level.
///
/// # Errors
///
/// The failure report, as `run` prints it, or a note that the fixture is not
/// in the suite.
pub fn check_case(
    set: &SuiteSet,
    fixture: &str,
    revision: Revision,
    validator: &dyn Validator,
    supported: &[String],
) -> Result<(), String> {
    let entry = set
        .entry(fixture)
        .ok_or_else(|| format!("no fixture `{fixture}` in the suite"))?;
    let case = Case { entry, revision };
    let result = runner::run_case(&case, &set.rules, validator, supported);
    match report::failure(set, &result, Level::Exact) {
        Some(text) => Err(text),
        None => Ok(()),
    }
}
