//! A `cargo test` binary for any validator: one trial per case.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
#[cfg(feature = "external")]
use mcpdesc_protocol::Revisions;
use mcpdesc_protocol::{Implementation, Reply, SourceTextSupport, ValidateRequest, Validator};

use crate::SuiteError;
use crate::backend::external::{CommandError, Mode, SourceTextError, parse_source_text};
#[cfg(feature = "external")]
use crate::backend::external::{ExternalValidator, Pool, Unavailable, split_command};
use crate::backend::schedule::{Backend, InProcess};
use crate::emit::escape;
use crate::emit::text;
use crate::judge::runner;
use crate::outcome::Outcome;
use crate::outcome::claims::Claims;
use crate::outcome::comparison::Level;
use crate::suite::SuiteSet;
use crate::suite::case::{Case, Selection};
use crate::suite::tree::SuiteTree;

/// The environment variable that points the test binary at a suite working
/// tree instead of the suite built into the harness.
pub const SUITE_DIR_VARIABLE: &str = "MCPDESC_SUITE_DIR";

/// The environment variable that names an external validator's command line;
/// when set, the test binary runs it (in session mode) instead of the
/// in-process validator. That needs the harness's `external` feature:
/// without it, setting the variable is an error
/// ([`EnvironmentProblem::ExternalFeatureOff`]), never ignored.
pub const VALIDATOR_VARIABLE: &str = "MCPDESC_VALIDATOR";

/// Set to `1` beside [`VALIDATOR_VARIABLE`] to run the external validator in
/// one-shot mode (`0`, or not set, for session mode).
pub const ONESHOT_VARIABLE: &str = "MCPDESC_VALIDATOR_ONESHOT";

/// The level a trial is judged at: `verdict`, `rules` or `exact` (the
/// default).
pub const LEVEL_VARIABLE: &str = "MCPDESC_LEVEL";

/// Beside [`VALIDATOR_VARIABLE`], the formats of source text the external
/// validator reads, replacing what it announces, as `run --source-text`
/// takes them: `json`, `yaml`, `json,yaml` or `none`. A one-shot validator
/// announces nothing, so without it its serialization cases are ignored.
pub const SOURCE_TEXT_VARIABLE: &str = "MCPDESC_SOURCE_TEXT";

/// Every `MCPDESC_*` variable the test binary reads. Any other variable
/// whose name starts with `MCPDESC_` is an error, as a typo would be.
pub const VARIABLES: [&str; 5] = [
    SUITE_DIR_VARIABLE,
    VALIDATOR_VARIABLE,
    ONESHOT_VARIABLE,
    LEVEL_VARIABLE,
    SOURCE_TEXT_VARIABLE,
];

/// Runs the whole suite against `validator` as a libtest-compatible test
/// binary, and exits: one trial per case, named by its case ID
/// (`<suite>/<class>/<file>@<revision>`, as `mcpdesc-conformance list`
/// prints it), so `cargo test`, `cargo nextest`, name filters, `--list`,
/// `--exact`, `--skip`, `--ignored` and `--include-ignored` all work.
///
/// A trial passes when the case passes at the chosen level (`exact` unless
/// `MCPDESC_LEVEL` says otherwise); a failing one prints the diff, under a
/// first line that names the fixture and the revision. A case the validator
/// does not take is **ignored**, never passed: one under a revision that
/// its [`implementation`](Validator::implementation) does not announce (or
/// a serialization case in a format whose source text it does not announce
/// that it reads, `source_text`) is marked ignored before the run (`--include-ignored` runs it, and it is
/// still ignored, with the reason), and one it answers with `skipped` is
/// ignored when it answers, with its reason.
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
/// Environment (see [`Settings`]): `MCPDESC_SUITE_DIR` runs a suite working
/// tree instead of the built-in suite; `MCPDESC_VALIDATOR="CMD ARGS"` runs
/// that external validator in session mode instead of `validator` (with
/// `MCPDESC_VALIDATOR_ONESHOT=1`, in one-shot mode); `MCPDESC_LEVEL` is
/// `verdict`, `rules` or `exact`. Running an external validator needs the
/// harness's `external` feature (on by default; a dev-dependency with
/// `default-features = false` adds `features = ["external"]`). A value the
/// binary cannot take (among them an external validator without that
/// feature), or a `MCPDESC_*` variable it does not know, is a failing trial
/// of its own, `environment::<VARIABLE>`, and no case runs. Problems in the suite
/// itself fail a trial of their own, `suite::problems`.
///
/// A run of one case by its exact name (`--exact NAME`, as cargo-nextest
/// runs each trial in a process of its own) loads the catalogs and that
/// case's fixture and expectation only, so each such process starts fast.
pub fn main(validator: impl Validator + 'static) -> ! {
    run_main(validator, Taking::Announced)
}

/// As [`main`], for a validator that takes every case of the suite, such
/// as the reference validator: a case it would leave ignored (under a
/// revision, or in a source format, that it does not announce; answered
/// `skipped`; or with nothing it claims to judge) is a failing trial that
/// says why. A validator that answers `skipped` where it should answer
/// cannot then pass.
pub fn main_taking_every_case(validator: impl Validator + 'static) -> ! {
    run_main(validator, Taking::Every)
}

/// Which cases a validator is held to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Taking {
    /// Those it announces; the others are ignored trials.
    Announced,
    /// Every case; one it does not take fails.
    Every,
}

fn run_main(validator: impl Validator + 'static, taking: Taking) -> ! {
    let arguments = Arguments::from_args();
    let (trials, suite) = trials_for(
        Arc::new(validator),
        std::env::vars_os(),
        one_fixture(&arguments).as_deref(),
        taking,
    );
    let conclusion = libtest_mimic::run(&arguments, trials);
    // The suite is left to the end of the process rather than freed piece
    // by piece: under cargo-nextest every trial is a process of its own,
    // and freeing the catalogs was a tenth of one.
    std::mem::forget(suite);
    conclusion.exit()
}

/// The fixture ID of the one case that `arguments` select by its exact
/// name, when they select exactly one and do not list.
fn one_fixture(arguments: &Arguments) -> Option<String> {
    if !arguments.exact || arguments.list {
        return None;
    }
    let (fixture, _revision) = arguments.filter.as_deref()?.rsplit_once('@')?;
    Some(fixture.to_owned())
}

/// The trials [`main`] runs, for the environment `variables` (as
/// [`std::env::vars_os`] gives them): the cases of the suite against
/// `validator` (or the external validator the variables name), or, when a
/// variable is wrong, one failing trial per wrong variable, named
/// `environment::<VARIABLE>`, and nothing else.
pub fn trials_from_environment(
    validator: Arc<dyn Validator>,
    variables: impl IntoIterator<Item = (OsString, OsString)>,
) -> Vec<Trial> {
    trials_for(validator, variables, None, Taking::Announced).0
}

/// The trials of [`trials_from_environment`], of the fixture with ID
/// `only` alone when it is given (the suite is then loaded only as far as
/// that fixture needs; see [`SuiteSet::load_only`]), and the suite they
/// share, when it loaded.
fn trials_for(
    validator: Arc<dyn Validator>,
    variables: impl IntoIterator<Item = (OsString, OsString)>,
    only: Option<&str>,
    taking: Taking,
) -> (Vec<Trial>, Option<Arc<SuiteSet>>) {
    let settings = match Settings::from_variables(variables) {
        Ok(settings) => settings,
        Err(errors) => {
            let trials = errors
                .into_iter()
                .map(|error| {
                    let name = format!("environment::{}", error.variable);
                    let message = error.to_string();
                    Trial::test(name, move || Err(Failed::from(message)))
                })
                .collect();
            return (trials, None);
        }
    };
    let tree = SuiteTree::open(settings.suite_dir.as_deref());
    let set = match only {
        Some(fixture) => tree.map(|tree| SuiteSet::load_only(tree, &[fixture])),
        None => tree.map(SuiteSet::load),
    };
    match target(validator, &settings, &set) {
        Ok(target) => {
            let set = set.map(Arc::new);
            let suite = set.as_ref().ok().map(Arc::clone);
            let trials = shared_trials(Arc::new(target), set, settings.level, taking);
            (trials, suite)
        }
        Err(trial) => (vec![trial], None),
    }
}

/// The validator the trials call: the external one that `settings` name,
/// else `validator`; or, when the external one cannot be used, the one
/// failing trial `validator::start` that says why.
#[cfg(feature = "external")]
fn target(
    validator: Arc<dyn Validator>,
    settings: &Settings,
    set: &Result<SuiteSet, SuiteError>,
) -> Result<Target, Trial> {
    let Some(line) = &settings.validator else {
        return Ok(Target::in_process(validator));
    };
    let revisions = match set {
        Ok(set) => set.revisions.clone(),
        Err(_) => crate::suite::builtin_revisions(),
    };
    external_target(line, settings, revisions).map_err(|error| {
        let message = match error {
            TargetError::Command(error) => error.to_string(),
            TargetError::Unavailable(unavailable) => text::unavailable(&unavailable),
        };
        Trial::test("validator::start", move || Err(Failed::from(message)))
    })
}

/// Without the `external` feature the trials call `validator`:
/// [`Settings::from_variables`] refuses an external validator
/// ([`EnvironmentProblem::ExternalFeatureOff`]), so no settings that get
/// this far name one.
#[cfg(not(feature = "external"))]
fn target(
    validator: Arc<dyn Validator>,
    settings: &Settings,
    _set: &Result<SuiteSet, SuiteError>,
) -> Result<Target, Trial> {
    debug_assert!(settings.validator.is_none(), "{settings:?}");
    Ok(Target::in_process(validator))
}

/// What the test binary takes from its environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `MCPDESC_SUITE_DIR`: the suite working tree to run, or `None` for the
    /// built-in suite.
    pub suite_dir: Option<PathBuf>,
    /// `MCPDESC_VALIDATOR`: an external validator's command line, or `None`
    /// for the in-process validator. Only the `external` feature runs one.
    pub validator: Option<String>,
    /// `MCPDESC_VALIDATOR_ONESHOT`: how the external validator runs.
    pub mode: Mode,
    /// `MCPDESC_LEVEL`: the level a trial is judged at.
    pub level: Level,
    /// `MCPDESC_SOURCE_TEXT`: the source text the external validator is
    /// taken to read, or `None` to keep what it announces.
    pub source_text: Option<SourceTextSupport>,
}

impl Default for Settings {
    /// The built-in suite, the in-process validator, judged at the exact
    /// level.
    fn default() -> Self {
        Settings {
            suite_dir: None,
            validator: None,
            mode: Mode::Session,
            level: Level::Exact,
            source_text: None,
        }
    }
}

/// An environment variable the test binary cannot take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{variable}: {problem}")]
pub struct EnvironmentError {
    /// The variable's name, with control characters escaped.
    pub variable: String,
    /// What is wrong with it.
    pub problem: EnvironmentProblem,
}

/// What is wrong with an environment variable: what was given (with
/// control characters escaped) and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EnvironmentProblem {
    /// A `MCPDESC_*` name that is not one of [`VARIABLES`].
    #[error(
        "not a variable the test binary reads (it reads {known}); a misspelt name would be \
         silently ignored, so it is an error",
        known = VARIABLES.join(", ")
    )]
    Unknown,
    /// The value is not UTF-8.
    #[error("{0} is not UTF-8")]
    NotUtf8(String),
    /// An external validator is named, but the harness was built without
    /// its `external` feature, which runs them.
    #[error(
        "`{0}` names an external validator, but mcpdesc-conformance was built without its \
         `external` feature, which runs them: add `features = [\"external\"]` to its \
         dev-dependency in Cargo.toml"
    )]
    ExternalFeatureOff(String),
    /// The validator command line does not split into words.
    #[error("`{given}`: {error}")]
    Command {
        /// The value.
        given: String,
        /// Why it does not split.
        error: CommandError,
    },
    /// The one-shot switch is neither `0` nor `1`.
    #[error("`{0}` is neither `1` (one-shot mode) nor `0` (session mode)")]
    NotASwitch(String),
    /// One-shot mode is asked for without an external validator.
    #[error(
        "`1` asks for one-shot mode, but {VALIDATOR_VARIABLE} names no external validator to \
         run that way"
    )]
    OneshotWithoutValidator,
    /// The level is not one of the three.
    #[error("`{0}` is not a level: give `verdict`, `rules` or `exact`")]
    NotALevel(String),
    /// The source-text formats do not read as a list of formats.
    #[error("`{given}`: {error}")]
    SourceText {
        /// The value.
        given: String,
        /// Why it does not read.
        error: SourceTextError,
    },
    /// Source-text formats are given without an external validator: the
    /// in-process validator announces its own.
    #[error(
        "formats of source text are for an external validator, but {VALIDATOR_VARIABLE} names \
         none; an in-process validator announces the formats it reads itself"
    )]
    SourceTextWithoutValidator,
}

impl Settings {
    /// Reads the settings from environment `variables`, such as
    /// [`std::env::vars_os`] gives. A variable set to the empty string
    /// counts as not set.
    ///
    /// # Errors
    ///
    /// Every variable that is wrong, in the order given: a `MCPDESC_*`
    /// variable that is not one of [`VARIABLES`], a value that is not
    /// UTF-8 (except a suite folder), a level that is not `verdict`,
    /// `rules` or `exact`, a one-shot switch that is not `0` or `1` (or is
    /// `1` with no external validator), a validator command line that does
    /// not split into words, or any validator command line when the harness
    /// is built without its `external` feature.
    pub fn from_variables(
        variables: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> Result<Settings, Vec<EnvironmentError>> {
        let mut settings = Settings::default();
        let mut errors = Vec::new();
        let mut oneshot = false;
        for (name, value) in variables {
            let lossy = name.to_string_lossy();
            if !lossy.starts_with("MCPDESC_") || value.is_empty() {
                continue;
            }
            let variable = escape::line(&lossy).into_owned();
            let read = match variable.as_str() {
                SUITE_DIR_VARIABLE => {
                    settings.suite_dir = Some(PathBuf::from(value));
                    Ok(())
                }
                VALIDATOR_VARIABLE | ONESHOT_VARIABLE | LEVEL_VARIABLE | SOURCE_TEXT_VARIABLE => {
                    match value.to_str() {
                        Some(given) => settings.read(&variable, given, &mut oneshot),
                        None => Err(EnvironmentProblem::NotUtf8(format!("{value:?}"))),
                    }
                }
                _ => Err(EnvironmentProblem::Unknown),
            };
            if let Err(problem) = read {
                errors.push(EnvironmentError { variable, problem });
            }
        }
        if oneshot {
            if settings.validator.is_some() {
                settings.mode = Mode::Oneshot;
            } else {
                errors.push(EnvironmentError {
                    variable: ONESHOT_VARIABLE.to_owned(),
                    problem: EnvironmentProblem::OneshotWithoutValidator,
                });
            }
        }
        if settings.source_text.is_some() && settings.validator.is_none() {
            errors.push(EnvironmentError {
                variable: SOURCE_TEXT_VARIABLE.to_owned(),
                problem: EnvironmentProblem::SourceTextWithoutValidator,
            });
        }
        if errors.is_empty() {
            Ok(settings)
        } else {
            Err(errors)
        }
    }

    /// Takes `given`, the value of `variable` (one of the text variables),
    /// into the settings; a one-shot switch goes to `oneshot`, to be checked
    /// against the validator once every variable is read.
    fn read(
        &mut self,
        variable: &str,
        given: &str,
        oneshot: &mut bool,
    ) -> Result<(), EnvironmentProblem> {
        // What the messages quote, with control characters escaped.
        let text = || escape::line(given).into_owned();
        match variable {
            VALIDATOR_VARIABLE if given.trim().is_empty() => {}
            #[cfg(feature = "external")]
            VALIDATOR_VARIABLE => match split_command(given) {
                Ok(_) => self.validator = Some(given.to_owned()),
                Err(error) => {
                    return Err(EnvironmentProblem::Command {
                        given: text(),
                        error,
                    });
                }
            },
            #[cfg(not(feature = "external"))]
            VALIDATOR_VARIABLE => {
                // Kept all the same, so that a one-shot switch beside it is
                // not also reported as naming no validator: settings are
                // never returned with an error.
                self.validator = Some(given.to_owned());
                return Err(EnvironmentProblem::ExternalFeatureOff(text()));
            }
            ONESHOT_VARIABLE => match given {
                "1" => *oneshot = true,
                "0" => *oneshot = false,
                _ => return Err(EnvironmentProblem::NotASwitch(text())),
            },
            LEVEL_VARIABLE => match given.parse::<Level>() {
                Ok(level) => self.level = level,
                Err(_) => return Err(EnvironmentProblem::NotALevel(text())),
            },
            SOURCE_TEXT_VARIABLE => match parse_source_text(given) {
                Ok(support) => self.source_text = Some(support),
                Err(error) => {
                    return Err(EnvironmentProblem::SourceText {
                        given: text(),
                        error,
                    });
                }
            },
            _ => return Err(EnvironmentProblem::Unknown),
        }
        Ok(())
    }
}

/// Why the external validator a test binary was pointed at cannot be used.
#[cfg(feature = "external")]
enum TargetError {
    Command(CommandError),
    Unavailable(Unavailable),
}

#[cfg(feature = "external")]
fn external_target(
    line: &str,
    settings: &Settings,
    revisions: Revisions,
) -> Result<Target, TargetError> {
    let argv = split_command(line).map_err(TargetError::Command)?;
    let mut validator = ExternalValidator::new(argv, settings.mode, revisions);
    validator.source_text = settings.source_text.clone();
    Pool::start(validator)
        .map(Target::external)
        .map_err(TargetError::Unavailable)
}

/// The validator the trials call: any [`Backend`], the same one `run`
/// uses.
pub struct Target(Box<dyn Backend>);

impl Target {
    /// A validator in this process; a panic fails its one case.
    pub fn in_process(validator: Arc<dyn Validator>) -> Target {
        Target(Box::new(InProcess::new(validator)))
    }

    /// An external validator's processes (with the `external` feature).
    #[cfg(feature = "external")]
    pub fn external(pool: Pool) -> Target {
        Target(Box::new(pool))
    }

    /// What the validator says about itself: among the rest, the revisions
    /// it supports and the rules it claims.
    pub fn implementation(&self) -> &Implementation {
        self.0.implementation()
    }

    /// Asks the validator about one case.
    ///
    /// # Errors
    ///
    /// The outcome of a validator that failed in itself (a panic, a crash, a
    /// timeout, a protocol error).
    pub fn call(&self, request: &ValidateRequest) -> Result<Reply, Outcome> {
        self.0.call(request).map_err(Outcome::Failed)
    }
}

/// The trials for `target` over `set`, judged at `level`: one per case, and
/// one for the suite's own problems when it has any.
///
/// A case under a revision that `target` does not announce, or a
/// serialization case in a format whose source text it does not announce
/// that it reads, is marked ignored: it does not run unless libtest is
/// asked for ignored tests, and then it ends ignored too (see
/// [`check_case`]).
pub fn trials(target: Arc<Target>, set: Result<SuiteSet, SuiteError>, level: Level) -> Vec<Trial> {
    shared_trials(target, set.map(Arc::new), level, Taking::Announced)
}

/// [`trials`] over a suite shared with the caller.
fn shared_trials(
    target: Arc<Target>,
    set: Result<Arc<SuiteSet>, SuiteError>,
    level: Level,
    taking: Taking,
) -> Vec<Trial> {
    let set = match set {
        Ok(set) => set,
        Err(error) => {
            let message = error.to_string();
            return vec![Trial::test("suite::load", move || {
                Err(Failed::from(message))
            })];
        }
    };
    let mut trials = Vec::new();
    if !set.problems.is_empty() {
        let text = text::problems(&set.problems);
        trials.push(Trial::test("suite::problems", move || {
            Err(Failed::from(text))
        }));
    }
    // A claim of a rule no catalog defines would judge nothing: `run`
    // refuses it, and here it is a failing trial of its own.
    let unknown = Claims::of(target.implementation(), &set.rules).unknown(&set.rules);
    if !unknown.is_empty() {
        let message = format!(
            "the implementation claims {}; list the catalogs' rule IDs in \
             `implementation().rules`, exactly as they are spelt",
            text::unknown_rules(&unknown, &set.rules)
        );
        trials.push(Trial::test("validator::claims", move || {
            Err(Failed::from(message))
        }));
    }
    for case in Selection::default().cases(&set) {
        // The case ID, as `list` prints it and `--filter` takes it, so one
        // spelling selects a case everywhere.
        let name = case.id();
        let (index, revision) = (case.index, case.revision);
        let implementation = target.implementation();
        let announced = implementation
            .revisions
            .iter()
            .any(|name| name == revision.as_str())
            && runner::unread_source(&case.entry.fixture, implementation).is_none();
        let (set, target) = (Arc::clone(&set), Arc::clone(&target));
        let trial = Trial::ignorable_test(name, move || {
            let Some(entry) = set.get(index) else {
                return Err(Failed::from("the case is gone from the suite (a bug)"));
            };
            let case = Case {
                entry,
                index,
                revision,
            };
            match check_case(&set, &case, &target, level) {
                Checked::Passed => Ok(Completion::Completed),
                Checked::Ignored(reason) if taking == Taking::Every => Err(Failed::from(format!(
                    "{}: the validator is held to take every case, and did not take this \
                     one: {reason}",
                    escape::line(&case.id())
                ))),
                Checked::Ignored(reason) => Ok(Completion::ignored_with(reason)),
                Checked::Failed(report) => Err(Failed::from(report)),
            }
        });
        trials.push(trial.with_ignored_flag(!announced && taking == Taking::Announced));
    }
    trials
}

/// How one trial ended, with the text libtest shows for it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Checked {
    /// It passed at the level asked for.
    Passed,
    /// The validator did not take it: it does not announce the case's
    /// revision (or, for a serialization case, that it reads its format),
    /// it answered `skipped`, or nothing of the case is judged (it expects
    /// findings of rules the validator does not claim only). The reason
    /// names the revision.
    Ignored(String),
    /// It failed: the failure report, as `run` prints it (its first line
    /// names the fixture and the revision).
    Failed(String),
}

/// What one trial does: runs `case` of `set` against `target` and judges
/// it at `level`.
pub fn check_case(set: &SuiteSet, case: &Case<'_>, target: &Target, level: Level) -> Checked {
    let implementation = target.implementation();
    let result = runner::judge(case, &set.rules, implementation, |request| {
        target.call(request)
    });
    let ignored = match &result.outcome {
        Outcome::Skipped(reason) => Some(text::skip_text(reason)),
        Outcome::Unclaimed(unclaimed) => Some(text::unclaimed_text(unclaimed)),
        _ => None,
    };
    if let Some(reason) = ignored {
        return Checked::Ignored(format!(
            "under {}: {}",
            case.revision,
            escape::line(&reason)
        ));
    }
    match result.outcome.passes(level) {
        Some(true) => Checked::Passed,
        // Interrupted is the one outcome that neither passes nor fails and
        // is not a skip; a trial cannot be interrupted, but it must not pass.
        _ => Checked::Failed(
            text::failure(set, &result, level, crate::emit::paint::Palette::PLAIN).unwrap_or_else(
                || {
                    format!(
                        "FAIL {}: not judged ({:?})",
                        escape::line(&case.id()),
                        result.outcome
                    )
                },
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments(line: &[&str]) -> Arguments {
        Arguments::from_iter(std::iter::once("conformance").chain(line.iter().copied()))
    }

    /// A validator that reads YAML source text and nothing else.
    struct ReadsYaml;

    impl Validator for ReadsYaml {
        fn implementation(&self) -> Implementation {
            Implementation {
                revisions: crate::suite::builtin_revisions()
                    .iter()
                    .map(|revision| revision.as_str().to_owned())
                    .collect(),
                source_text: Some(mcpdesc_protocol::SourceTextSupport::of(&[
                    mcpdesc_protocol::SourceFormat::Yaml,
                ])),
                ..Implementation::default()
            }
        }

        fn validate(&self, request: &ValidateRequest) -> Reply {
            let text = &request.source.as_ref().expect("a serialization case").text;
            Reply::Diagnostics(if text.matches("\ninfo:").count() > 1 {
                vec![mcpdesc_protocol::Diagnostic::new(
                    "mcpdesc.serialization.duplicate-key",
                    "/info",
                    mcpdesc_protocol::Severity::Error,
                )]
            } else {
                Vec::new()
            })
        }
    }

    /// A serialization case in a format the validator does not announce
    /// reading is an ignored trial before the run, and says why when asked
    /// to run; one in a format it reads runs and passes.
    /// The trials of the source suite against [`ReadsYaml`], held to the
    /// cases `taking` says, with the suite and the target they share.
    fn reads_yaml_trials(taking: Taking) -> (Arc<SuiteSet>, Arc<Target>, Vec<Trial>) {
        let set = Arc::new(crate::suite::testing::source_suite());
        let target = Arc::new(Target::in_process(Arc::new(ReadsYaml)));
        let trials = shared_trials(
            Arc::clone(&target),
            Ok(Arc::clone(&set)),
            Level::Exact,
            taking,
        );
        (set, target, trials)
    }

    #[test]
    fn a_serialization_case_is_a_trial_only_for_a_validator_that_reads_its_format() {
        let (set, target, trials) = reads_yaml_trials(Taking::Announced);
        let flags: Vec<(&str, bool)> = trials
            .iter()
            .map(|trial| (trial.name(), trial.has_ignored_flag()))
            .collect();
        assert_eq!(flags.len(), 6, "{flags:?}");
        for (name, ignored) in flags {
            assert_eq!(ignored, name.contains(".json@"), "{name}");
        }
        for case in Selection::default().cases(&set) {
            let checked = check_case(&set, &case, &target, Level::Exact);
            if case.id().contains(".json@") {
                assert_eq!(
                    checked,
                    Checked::Ignored(
                        "under 2025-06-18: the validator does not announce that it reads json \
                         source text"
                            .into()
                    )
                );
            } else {
                assert_eq!(checked, Checked::Passed, "{}", case.id());
            }
        }
    }

    /// Held to take every case, the same validator fails the cases it
    /// does not announce instead of leaving them ignored.
    #[test]
    fn a_validator_held_to_every_case_fails_the_ones_it_does_not_take() {
        let (set, _, trials) = reads_yaml_trials(Taking::Every);
        assert!(trials.iter().all(|trial| !trial.has_ignored_flag()));
        // Into a log file, so that the failing trials do not look like
        // this test's failures.
        let log = tempfile::tempdir().unwrap();
        let arguments = Arguments {
            test_threads: Some(1),
            logfile: Some(log.path().join("trials.log").display().to_string()),
            ..Arguments::default()
        };
        let conclusion = libtest_mimic::run(&arguments, trials);
        let printed = std::fs::read_to_string(log.path().join("trials.log")).unwrap();
        assert!(
            printed.contains("is held to take every case, and did not take this one"),
            "{printed}"
        );
        let json = Selection::default()
            .cases(&set)
            .iter()
            .filter(|case| case.id().contains(".json@"))
            .count() as u64;
        assert!(json > 0);
        assert_eq!(
            (
                conclusion.num_failed,
                conclusion.num_passed,
                conclusion.num_ignored
            ),
            (json, 6 - json, 0)
        );
    }

    #[test]
    fn only_an_exact_case_name_narrows_the_load() {
        let name = "document/expected-valid/minimal.json@2025-06-18";
        assert_eq!(
            one_fixture(&arguments(&["--exact", name])).as_deref(),
            Some("document/expected-valid/minimal.json")
        );
        assert_eq!(one_fixture(&arguments(&[name])), None, "a substring filter");
        assert_eq!(one_fixture(&arguments(&["--exact", "--list", name])), None);
        assert_eq!(
            one_fixture(&arguments(&["--exact", "suite::problems"])),
            None
        );
        assert_eq!(one_fixture(&arguments(&[])), None);
    }

    /// Without the `external` feature, an external validator in the
    /// environment is an error that says how to turn the feature on, not a
    /// variable the binary ignores (and runs the in-process validator in
    /// its place); the one-shot switch beside it is not blamed too.
    #[cfg(not(feature = "external"))]
    #[test]
    fn an_external_validator_without_the_external_feature_says_how_to_turn_it_on() {
        let variables = || {
            [
                (VALIDATOR_VARIABLE, "./adapter --stdio"),
                (ONESHOT_VARIABLE, "1"),
            ]
            .map(|(name, value)| (OsString::from(name), OsString::from(value)))
        };
        let errors = Settings::from_variables(variables()).unwrap_err();
        assert_eq!(
            errors,
            [EnvironmentError {
                variable: VALIDATOR_VARIABLE.to_owned(),
                problem: EnvironmentProblem::ExternalFeatureOff("./adapter --stdio".to_owned()),
            }]
        );
        assert_eq!(
            errors[0].to_string(),
            "MCPDESC_VALIDATOR: `./adapter --stdio` names an external validator, but \
             mcpdesc-conformance was built without its `external` feature, which runs them: \
             add `features = [\"external\"]` to its dev-dependency in Cargo.toml"
        );
        let validator: Arc<dyn Validator> = Arc::new(mcpdesc_validator::ReferenceValidator::new());
        let names: Vec<String> = trials_for(validator, variables(), None, Taking::Announced)
            .0
            .iter()
            .map(|trial| trial.name().to_owned())
            .collect();
        assert_eq!(names, ["environment::MCPDESC_VALIDATOR"]);
    }

    /// A process that runs one case builds that fixture's trials alone,
    /// named and judged as in a whole run.
    #[test]
    fn the_trials_of_one_fixture_are_those_of_the_whole_suite() {
        let validator: Arc<dyn Validator> = Arc::new(mcpdesc_validator::ReferenceValidator::new());
        let fixture = "elicitation/expected-invalid/declaration-name-pattern.json";
        let names = |trials: Vec<Trial>| -> Vec<String> {
            trials.iter().map(|trial| trial.name().to_owned()).collect()
        };
        let all = names(trials_for(Arc::clone(&validator), [], None, Taking::Announced).0);
        let (one, suite) = trials_for(Arc::clone(&validator), [], Some(fixture), Taking::Announced);
        // The suite the trials share is handed back, for `main` to keep.
        assert!(suite.is_some_and(|suite| suite.find(fixture).is_some()));
        let one = names(one);
        let expected: Vec<String> = all
            .into_iter()
            .filter(|name| name.starts_with(&format!("{fixture}@")))
            .collect();
        assert!(expected.len() > 1, "{expected:?}");
        assert_eq!(one, expected);
        let conclusion = libtest_mimic::run(
            &arguments(&["--quiet", "--test-threads", "1"]),
            trials_for(validator, [], Some(fixture), Taking::Announced).0,
        );
        assert_eq!(
            (conclusion.num_passed, conclusion.num_failed),
            (expected.len() as u64, 0)
        );
    }
}
