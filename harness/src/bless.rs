//! Accepting expectations: computing them from the reference validator,
//! showing what changes, and writing them atomically on request.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

use mcpdesc_protocol::{Reply, Revision};
use similar::TextDiff;

use crate::backend::schedule::Backend;
use crate::file::{self, FileError, at};
use crate::suite::SuiteSet;
use crate::suite::compiled;
use crate::suite::expectation::{self, Expectation, Finding};
use crate::suite::fixture::Fixture;
use crate::suite::tree::SuiteTree;

/// One expectation file to write or remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The file's path in the suite tree.
    pub path: String,
    /// Its current text, if it exists.
    pub old: Option<String>,
    /// Its new text, or `None` to remove an orphan.
    pub new: Option<String>,
}

impl Change {
    /// A unified diff of the change, for review.
    pub fn diff(&self) -> String {
        let old = self.old.as_deref().unwrap_or("");
        let new = self.new.as_deref().unwrap_or("");
        let (from, to) = match (&self.old, &self.new) {
            (None, _) => ("/dev/null".to_owned(), format!("b/{}", self.path)),
            (_, None) => (format!("a/{}", self.path), "/dev/null".to_owned()),
            _ => (format!("a/{}", self.path), format!("b/{}", self.path)),
        };
        TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header(&from, &to)
            .to_string()
    }
}

/// What blessing would do: the changed files, the fixtures it could not
/// compute an expectation for (with why), and the temporary files an
/// interrupted bless left behind; or that it was interrupted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The signal that interrupted the planning, if one did: the plan is
    /// then incomplete (the fixtures after it were not judged, the one it
    /// cut short is refused), and none of it is to be written.
    pub interrupted: Option<crate::backend::interrupt::Interruption>,
    /// Files whose text would change, in path order.
    pub changes: Vec<Change>,
    /// Fixtures whose expectation file is left as it is (by fixture ID),
    /// and why.
    pub refused: Vec<(String, Refusal)>,
    /// Temporary files of an earlier, interrupted bless, to remove.
    pub stale: Vec<String>,
}

/// Why `bless` leaves a fixture's expectation file as it is: an expectation
/// is only ever computed whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The fixture does not load.
    #[error("the fixture does not load: {0}")]
    Broken(crate::suite::SuiteProblem),
    /// The fixture is a serialization case, and the validator does not
    /// announce that it reads source text of its format.
    #[error("the validator does not announce that it reads {format} source text")]
    SourceTextUnannounced {
        /// The format of the fixture's text.
        format: mcpdesc_protocol::SourceFormat,
    },
    /// The validator failed in itself under a revision (a panic).
    #[error("{revision}: {}", crate::emit::text::failure_text(&.failure.kind))]
    Failed {
        /// The revision.
        revision: Revision,
        /// How the validator failed.
        failure: crate::outcome::failure::Failure,
    },
    /// The validator skipped the fixture under a revision.
    #[error("{revision}: the validator skipped it: {reason}")]
    Skipped {
        /// The revision.
        revision: Revision,
        /// The validator's reason.
        reason: String,
    },
    /// The validator replied with an error under a revision.
    #[error("{revision}: the validator replied with an error: {message}")]
    Errored {
        /// The revision.
        revision: Revision,
        /// The validator's message.
        message: String,
    },
}

/// Computes every expectation of `set` from `validator` and compares it with
/// the file in the tree. Only fixtures whose ID matches `keep` are
/// considered; orphan expectation files are removed only when `keep` keeps
/// everything.
///
/// `backend` is the validator, reached as a run reaches it: the reference
/// validator in process ([`InProcess`]), or an external one's [`Pool`].
///
/// The expectation file of a fixture that does not load, or under one of
/// whose revisions the validator does not judge it (it skips, replies with
/// an error, panics, crashes, times out or breaks the contract), is left as
/// it is and the fixture is listed in [`Plan::refused`]: an expectation is
/// only ever computed whole.
///
/// Once the harness is interrupted (see [`crate::backend::interrupt`]), no
/// further fixture is judged and [`Plan::interrupted`] says so.
///
/// [`InProcess`]: crate::backend::schedule::InProcess
/// [`Pool`]: crate::backend::external::Pool
pub fn plan(set: &SuiteSet, backend: &dyn Backend, keep: &dyn Fn(&str) -> bool) -> Plan {
    let mut plan = Plan::default();
    let mut wanted: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut everything = true;
    for suite in &set.suites {
        for entry in &suite.entries {
            plan.interrupted = crate::backend::interrupt::received();
            if plan.interrupted.is_some() {
                return plan;
            }
            let fixture = &entry.fixture;
            let path = expectation::path_of(fixture);
            if !keep(&fixture.id()) {
                everything = false;
                wanted.insert(path.clone(), current(set, &path));
                continue;
            }
            let computed = match fixture.load_problem() {
                None => judge(fixture, backend),
                Some(error) => Err(Refusal::Broken(error.clone().into())),
            };
            match computed {
                Ok(revisions) => {
                    let expectation = Expectation {
                        fixture: fixture.id(),
                        revisions,
                    };
                    wanted.insert(path, Some(expectation.render()));
                }
                Err(reason) => {
                    plan.refused.push((fixture.id(), reason));
                    wanted.insert(path.clone(), current(set, &path));
                }
            }
        }
    }
    let mut paths: Vec<String> = wanted.keys().cloned().collect();
    if everything {
        paths.extend(
            set.tree
                .under("expected/")
                .map(|(path, _)| path.to_owned())
                .filter(|path| !expectation::is_temporary(path)),
        );
    }
    paths.sort();
    paths.dedup();
    for path in paths {
        let old = current(set, &path);
        let new = wanted.get(&path).cloned().flatten();
        if old != new {
            plan.changes.push(Change { path, old, new });
        }
    }
    plan.stale = set
        .tree
        .under("expected/")
        .map(|(path, _)| path)
        .filter(|path| expectation::is_temporary(path))
        .map(str::to_owned)
        .collect();
    // The last fixture's answers may have been cut short by the signal.
    plan.interrupted = crate::backend::interrupt::received();
    plan
}

/// The findings of `fixture` (which is judgeable: see
/// [`Fixture::load_problem`]) under each of its revisions, or why the
/// validator did not judge it under one of them. A serialization case is
/// sent as a run sends it, its text and a `null` document, and only to a
/// validator that announces it reads the text's format.
fn judge(
    fixture: &Fixture,
    backend: &dyn Backend,
) -> Result<BTreeMap<Revision, Vec<Finding>>, Refusal> {
    use crate::judge::runner;
    if let Some(format) = runner::unread_source(fixture, backend.implementation()) {
        return Err(Refusal::SourceTextUnannounced { format });
    }
    // A failure (an in-process panic, an external crash) refuses the one
    // fixture, so the bless does not end half-way and the other
    // expectations are still written.
    let mut revisions = BTreeMap::new();
    for &revision in fixture.revisions() {
        let request = runner::request(fixture, revision)
            .map_err(|error| Refusal::Broken(error.clone().into()))?;
        let reply = backend
            .call(&request)
            .map_err(|failure| Refusal::Failed { revision, failure })?;
        match reply {
            Reply::Diagnostics(diagnostics) => {
                let mut findings: Vec<Finding> = diagnostics.iter().map(Finding::of).collect();
                findings.sort();
                findings.dedup();
                revisions.insert(revision, findings);
            }
            Reply::Skipped(skip) => {
                return Err(Refusal::Skipped {
                    revision,
                    reason: skip.reason,
                });
            }
            Reply::Error(error) => {
                return Err(Refusal::Errored {
                    revision,
                    message: error.message,
                });
            }
        }
    }
    Ok(revisions)
}

fn current(set: &SuiteSet, path: &str) -> Option<String> {
    set.tree
        .get(path)
        .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
}

/// The changes that bring the generated fixtures of `tree` (see
/// [`matrices`](crate::suite::matrices)) up to date with its table
/// (`suites/matrices.yaml`): each file a matrix makes that is missing or
/// differs, and each file of a generated folder that no matrix makes, in
/// path order.
///
/// # Errors
///
/// When the table does not make its fixtures (it does not load, or names
/// a place its base document lacks).
pub fn generated_plan(
    tree: &SuiteTree,
) -> Result<Vec<Change>, crate::suite::matrices::MatrixError> {
    use crate::suite::matrices;
    let generated = matrices::generate(tree)?;
    Ok(matrices::differences(tree, &generated)
        .into_iter()
        .map(|difference| Change {
            path: difference.path,
            old: difference.old,
            new: difference.new,
        })
        .collect())
}

/// The changes that bring the compiled form of the tree at `root` (the
/// JSON twins under `compiled/`, see [`compiled`]) up to date with its
/// YAML files, once `pending` (the expectation changes of this bless) are
/// made: a twin for each YAML file that loads, and no other file under
/// `compiled/` (a twin whose YAML file is gone or broken, a temporary file
/// of an interrupted bless). In path order. A tree without a `compiled/`
/// folder has no compiled form, and gets none: only the data crate's tree,
/// which embeds it, keeps one.
///
/// # Errors
///
/// When the tree or a file under `compiled/` cannot be read.
pub fn compiled_plan(root: &Path, pending: &[Change]) -> Result<Vec<Change>, CompileError> {
    let folder = root.join(compiled::FOLDER);
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let tree = SuiteTree::from_dir(root)?;
    // The tree's YAML files as they will be once `pending` is written.
    let mut sources: BTreeMap<&str, &[u8]> = tree
        .under("")
        .filter(|(name, _)| compiled::has_twin(name))
        .collect();
    for change in pending
        .iter()
        .filter(|change| compiled::has_twin(&change.path))
    {
        match &change.new {
            Some(text) => sources.insert(&change.path, text.as_bytes()),
            None => sources.remove(change.path.as_str()),
        };
    }
    let wanted: BTreeMap<String, String> = sources
        .into_iter()
        .filter_map(|(name, bytes)| {
            let twin = compiled::compile(&tree.display_path(name), bytes).ok()?;
            Some((compiled::twin_path(name), twin))
        })
        .collect();
    let mut present = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&folder).sort_by_file_name() {
        let entry = entry.map_err(|error| {
            let path = error.path().unwrap_or(&folder).to_path_buf();
            at(&path)(error.into())
        })?;
        if !entry.file_type().is_dir() {
            let name = entry
                .path()
                .strip_prefix(root)
                .unwrap_or(entry.path())
                .components()
                .map(|part| part.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            // A twin is a suite file: read as every input is, and a link
            // is not followed out of the folder.
            if entry.path_is_symlink() {
                return Err(CompileError::Link(entry.path().to_path_buf()));
            }
            let text = crate::input::read_bytes(entry.path(), crate::input::InputKind::Suite)?;
            present.insert(name, String::from_utf8_lossy(&text).into_owned());
        }
    }
    let mut changes = Vec::new();
    for (path, old) in &present {
        if !wanted.contains_key(path) {
            changes.push(Change {
                path: path.clone(),
                old: Some(old.clone()),
                new: None,
            });
        }
    }
    for (path, new) in wanted {
        let old = present.get(&path).cloned();
        if old.as_deref() != Some(new.as_str()) {
            changes.push(Change {
                path,
                old,
                new: Some(new),
            });
        }
    }
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}

/// Why the compiled form of a tree could not be planned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// The folder holds no suite tree.
    #[error(transparent)]
    Tree(#[from] crate::SuiteError),
    /// A file under `compiled/` could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file under `compiled/` is not a regular file, or too large.
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    /// A link under `compiled/`: not followed, as in the rest of the tree.
    #[error("{}: a link is not followed in a suite tree; copy the file instead", .0.display())]
    Link(std::path::PathBuf),
}

/// Writes `changes` below `root`, then removes the `stale` temporary files.
/// Each file is written to a temporary file of its own (a unique name in the
/// same folder) and renamed into place, so an interrupted bless leaves no
/// partial expectation, and two blesses at once never share a temporary
/// file. A file to remove that is already gone is not an error.
///
/// # Errors
///
/// The first I/O error, with the path it concerns.
pub fn apply(root: &Path, changes: &[Change], stale: &[String]) -> Result<(), FileError> {
    for change in changes {
        let target = root.join(&change.path);
        match &change.new {
            Some(text) => {
                // Named after the file, so that a leftover shows whose it was
                // and the loader knows it for a temporary file.
                let name = target
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let prefix = format!("{}{name}.", expectation::TEMPORARY_PREFIX);
                file::replace(&target, text, &prefix, expectation::TEMPORARY_SUFFIX)?;
            }
            None => remove(&target)?,
        }
    }
    for path in stale {
        remove(&root.join(path))?;
    }
    Ok(())
}

fn remove(path: &Path) -> Result<(), FileError> {
    match fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(at(path)(error)),
        _ => Ok(()),
    }
}

/// Holds the suite tree's bless lock until dropped.
#[derive(Debug)]
pub struct TreeLock {
    _folder: fs::File,
}

/// Takes the lock that keeps blesses of one tree from interleaving:
/// exclusive to write, shared for a dry run. It is an advisory lock on the
/// tree's folder itself, so it leaves no file behind. Calls `waiting` when
/// another bless holds it, then waits.
///
/// # Errors
///
/// When the folder cannot be opened or locked.
pub fn lock(root: &Path, exclusive: bool, waiting: impl FnOnce()) -> Result<TreeLock, FileError> {
    let folder = fs::File::open(root).map_err(at(root))?;
    let attempt = if exclusive {
        folder.try_lock()
    } else {
        folder.try_lock_shared()
    };
    match attempt {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            waiting();
            if exclusive {
                folder.lock()
            } else {
                folder.lock_shared()
            }
            .map_err(at(root))?;
        }
        Err(fs::TryLockError::Error(error)) => return Err(at(root)(error)),
    }
    Ok(TreeLock { _folder: folder })
}

/// Whether the environment says this is CI, where blessing is refused.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::schedule::InProcess;
    use crate::suite::tree::SuiteTree;
    use mcpdesc_protocol::{Implementation, Skip, ValidateRequest, Validator, ValidatorError};
    use mcpdesc_validator::ReferenceValidator;

    const PANICS: &str = "document/expected-valid/minimal.json";
    const SKIPS_LATER: &str = "document/expected-invalid/missing-info.json";
    const ERRS: &str = "elicitation/expected-invalid/elicitation-version-mismatch.json";
    const BLESSED: &str = "elicitation/expected-valid/elicitation-declarations.json";

    /// The reference validator, except on three fixtures.
    struct Unreliable {
        reference: ReferenceValidator,
        first_revision_of_skipper: Revision,
    }

    impl Validator for Unreliable {
        fn implementation(&self) -> Implementation {
            self.reference.implementation()
        }

        fn validate(&self, request: &ValidateRequest) -> Reply {
            match request.case.as_str() {
                PANICS => panic!("boom"),
                SKIPS_LATER if request.revision != self.first_revision_of_skipper => {
                    Reply::Skipped(Skip {
                        reason: "not today".into(),
                        issue: None,
                    })
                }
                ERRS => Reply::Error(ValidatorError {
                    message: "out of cheese".into(),
                }),
                _ => self.reference.validate(request),
            }
        }
    }

    /// Answers a serialization case from its text alone: the duplicate
    /// key, where a text writes `info` twice.
    struct TextReader {
        support: Option<mcpdesc_protocol::SourceTextSupport>,
    }

    impl Validator for TextReader {
        fn implementation(&self) -> Implementation {
            Implementation {
                revisions: crate::suite::builtin_revisions()
                    .iter()
                    .map(|revision| revision.as_str().to_owned())
                    .collect(),
                source_text: self.support.clone(),
                ..Implementation::default()
            }
        }

        fn validate(&self, request: &ValidateRequest) -> Reply {
            assert_eq!(*request.document, serde_json::Value::Null);
            let text = &request.source.as_ref().unwrap().text;
            Reply::Diagnostics(if text.matches("\ninfo:").count() > 1 {
                vec![mcpdesc_protocol::Diagnostic::new(
                    "mcpdesc.serialization.duplicate-key",
                    "/y",
                    mcpdesc_protocol::Severity::Error,
                )]
            } else {
                Vec::new()
            })
        }
    }

    /// A serialization case's expectation is computed from its text, by a
    /// validator that announces it reads the format, even when the text
    /// does not load; a validator that does not announce it leaves the
    /// file as it is, saying why.
    #[test]
    fn a_serialization_case_is_blessed_from_its_text_by_a_validator_that_reads_it() {
        use mcpdesc_protocol::{SourceFormat, SourceTextSupport};
        let set = crate::suite::testing::source_suite();
        let reads = TextReader {
            support: Some(SourceTextSupport::of(&[
                SourceFormat::Json,
                SourceFormat::Yaml,
            ])),
        };
        let blessed = plan(&set, &InProcess::new(reads), &|_| true);
        assert_eq!(blessed.refused, []);
        let changed: Vec<&str> = blessed.changes.iter().map(|c| c.path.as_str()).collect();
        // Both files are written as `bless` writes them; the text that
        // does not load gets the validator's findings under every revision.
        assert_eq!(
            changed,
            [
                "expected/serialization/expected-invalid/duplicate-key.yaml.yaml",
                "expected/serialization/expected-valid/minimal.json.yaml"
            ],
            "{blessed:#?}"
        );
        let new = blessed.changes[0].new.as_deref().unwrap();
        assert_eq!(new.matches("path: \"/y\"").count(), 5, "{new}");
        let new = blessed.changes[1].new.as_deref().unwrap();
        assert!(new.contains("\n  2025-06-18: []\n"), "{new}");
        let yaml_only = TextReader {
            support: Some(SourceTextSupport::of(&[SourceFormat::Yaml])),
        };
        let partial = plan(&set, &InProcess::new(yaml_only), &|_| true);
        let refused: Vec<(&str, String)> = partial
            .refused
            .iter()
            .map(|(id, reason)| (id.as_str(), reason.to_string()))
            .collect();
        assert_eq!(
            refused,
            [(
                "serialization/expected-valid/minimal.json",
                "the validator does not announce that it reads json source text".to_owned()
            )]
        );
    }

    fn expectation_path(id: &str) -> String {
        let (suite, rest) = id.split_once('/').unwrap();
        format!("expected/{suite}/{rest}.yaml")
    }

    #[test]
    fn a_fixture_the_validator_does_not_judge_keeps_its_expectation_file() {
        let embedded = SuiteTree::embedded();
        let removed = [PANICS, SKIPS_LATER, BLESSED].map(expectation_path);
        let edited = expectation_path(ERRS);
        let files = embedded
            .under("")
            .filter(|(path, _)| !removed.iter().any(|removed| removed == path))
            .map(|(path, bytes)| {
                let bytes = if *path == edited {
                    b"fixture: edited\n".to_vec()
                } else {
                    bytes.to_vec()
                };
                (path.to_owned(), bytes)
            });
        let set = SuiteSet::load(SuiteTree::from_files(files));
        let skipper = set
            .get(set.find(SKIPS_LATER).unwrap())
            .unwrap()
            .fixture
            .revisions();
        assert!(
            skipper.len() > 1,
            "the skip must come after a judged revision"
        );
        let validator = Unreliable {
            reference: ReferenceValidator::new(),
            first_revision_of_skipper: skipper[0],
        };
        let plan = plan(&set, &InProcess::new(validator), &|_| true);
        let changed: Vec<&str> = plan.changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(changed, [expectation_path(BLESSED)], "{plan:#?}");
        let refused: Vec<(&str, String)> = plan
            .refused
            .iter()
            .map(|(id, reason)| (id.as_str(), reason.to_string()))
            .collect();
        assert_eq!(refused.len(), 3, "{refused:?}");
        for (id, because) in [
            (PANICS, "the validator panicked: boom"),
            (SKIPS_LATER, "the validator skipped it: not today"),
            (ERRS, "the validator replied with an error: out of cheese"),
        ] {
            assert!(
                refused
                    .iter()
                    .any(|(refused, reason)| *refused == id && reason.contains(because)),
                "{id}: {refused:?}"
            );
        }
    }
}
