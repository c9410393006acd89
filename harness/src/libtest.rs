//! A `cargo test` binary for any validator: one trial per case.

use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use mcpdesc_protocol::{Reply, Revision, ValidateRequest, Validator};

use crate::case::{Case, Selection};
use crate::compare::Level;
use crate::external::{ExternalValidator, Mode, Pool};
use crate::process::split_command;
use crate::report;
use crate::runner::{self, Outcome};
use crate::suite::SuiteSet;
use crate::tree::SuiteTree;

/// The environment variable that points the test binary at a suite working
/// tree instead of the suite built into the harness.
pub const SUITE_DIR_VARIABLE: &str = "MCPDESC_SUITE_DIR";

/// The environment variable that names an external validator's command line;
/// when set, the test binary runs it (in session mode) instead of the
/// in-process validator.
pub const VALIDATOR_VARIABLE: &str = "MCPDESC_VALIDATOR";

/// Set to `1` beside [`VALIDATOR_VARIABLE`] to run the external validator in
/// one-shot mode.
pub const ONESHOT_VARIABLE: &str = "MCPDESC_VALIDATOR_ONESHOT";

/// Runs the whole suite against `validator` as a libtest-compatible test
/// binary, and exits: one trial per case, named by its case ID
/// (`<suite>/<class>/<file>@<revision>`, as `mcpdesc-conformance list`
/// prints it), so `cargo test`, `cargo nextest`, name filters, `--list`,
/// `--exact` and `--skip` all work. A trial passes when the
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
/// Environment: `MCPDESC_SUITE_DIR` runs a suite working tree instead of the
/// built-in suite; `MCPDESC_VALIDATOR="CMD ARGS"` runs that external
/// validator in session mode instead of `validator` (with
/// `MCPDESC_VALIDATOR_ONESHOT=1`, in one-shot mode). Problems in the suite
/// itself fail a trial of their own, `suite::problems`.
pub fn main(validator: impl Validator + 'static) -> ! {
    let arguments = Arguments::from_args();
    let target = match std::env::var(VALIDATOR_VARIABLE) {
        Ok(line) if !line.trim().is_empty() => external_target(&line),
        _ => Ok(Target::InProcess(Arc::new(validator))),
    };
    let trials = match target {
        Ok(target) => trials(Arc::new(target), load_suite()),
        Err(message) => vec![Trial::test("validator::start", move || {
            Err(Failed::from(message))
        })],
    };
    libtest_mimic::run(&arguments, trials).exit()
}

fn external_target(line: &str) -> Result<Target, String> {
    let argv = split_command(line)?;
    let oneshot = std::env::var(ONESHOT_VARIABLE).is_ok_and(|value| value == "1");
    let mode = if oneshot {
        Mode::Oneshot
    } else {
        Mode::Session
    };
    Pool::start(ExternalValidator::new(argv, mode))
        .map(|pool| Target::External(Arc::new(pool)))
        .map_err(|unavailable| report::unavailable(&unavailable))
}

fn load_suite() -> Result<SuiteSet, String> {
    let dir = std::env::var_os(SUITE_DIR_VARIABLE).map(std::path::PathBuf::from);
    SuiteTree::open(dir.as_deref())
        .map(SuiteSet::load)
        .map_err(|error| error.to_string())
}

/// The validator the trials call.
pub enum Target {
    /// A validator in this process.
    InProcess(Arc<dyn Validator>),
    /// An external validator's processes.
    External(Arc<Pool>),
}

impl Target {
    /// The revisions the validator supports.
    pub fn supported(&self) -> Vec<String> {
        match self {
            Target::InProcess(validator) => validator.implementation().revisions,
            Target::External(pool) => pool.implementation().revisions.clone(),
        }
    }

    /// Asks the validator about one case.
    ///
    /// # Errors
    ///
    /// The outcome of a validator that failed in itself (a panic, a crash, a
    /// timeout, a protocol error).
    pub fn call(&self, request: &ValidateRequest) -> Result<Reply, Outcome> {
        match self {
            Target::InProcess(validator) => {
                runner::ask(validator.as_ref(), request).map_err(Outcome::Failed)
            }
            Target::External(pool) => pool.call(request).map_err(|failure| failure.into_outcome()),
        }
    }
}

/// The trials for `target` over `set`: one per case, and one for the suite's
/// own problems when it has any.
pub fn trials(target: Arc<Target>, set: Result<SuiteSet, String>) -> Vec<Trial> {
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
    let supported = Arc::new(target.supported());
    for case in Selection::default().cases(&set) {
        // The case ID, as `list` prints it and `--filter` takes it, so one
        // spelling selects a case everywhere.
        let name = case.id();
        let fixture = case.entry.fixture.id();
        let revision = case.revision;
        let (set, target, supported) = (
            Arc::clone(&set),
            Arc::clone(&target),
            Arc::clone(&supported),
        );
        let trial = Trial::test(name, move || {
            check_case(&set, &fixture, revision, &target, &supported).map_err(Failed::from)
        });
        trials.push(trial);
    }
    trials
}

/// What one trial does: runs the case of fixture `fixture` under `revision`
/// against `target` (which supports the revisions `supported`) and returns
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
    target: &Target,
    supported: &[String],
) -> Result<(), String> {
    let entry = set
        .entry(fixture)
        .ok_or_else(|| format!("no fixture `{fixture}` in the suite"))?;
    let case = Case { entry, revision };
    let result = runner::judge(&case, &set.rules, supported, |request| target.call(request));
    match report::failure(set, &result, Level::Exact) {
        Some(text) => Err(text),
        None => Ok(()),
    }
}
