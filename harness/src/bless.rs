//! Accepting expectations: computing them from the reference validator,
//! showing what changes, and writing them atomically on request.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

use mcpdesc_protocol::{Reply, SPECIFICATION_VERSION, ValidateRequest, Validator};
use similar::TextDiff;

use crate::expectation::{self, Expectation, Finding};
use crate::suite::SuiteSet;

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

/// What blessing would do: the changed files, and the fixtures it could not
/// compute an expectation for (with why).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Files whose text would change, in path order.
    pub changes: Vec<Change>,
    /// Fixtures left as they are, and why.
    pub refused: Vec<(String, String)>,
}

/// Computes every expectation of `set` from `validator` and compares it with
/// the file in the tree. Only fixtures whose ID matches `keep` are
/// considered; orphan expectation files are removed only when `keep` keeps
/// everything.
pub fn plan(set: &SuiteSet, validator: &dyn Validator, keep: &dyn Fn(&str) -> bool) -> Plan {
    let mut plan = Plan::default();
    let mut wanted: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut everything = true;
    for suite in &set.suites {
        for entry in &suite.entries {
            let fixture = &entry.fixture;
            let path = expectation::path_of(fixture);
            if !keep(&fixture.id()) {
                everything = false;
                wanted.insert(path.clone(), current(set, &path));
                continue;
            }
            let document = match &fixture.document {
                Ok(document) => document,
                Err(error) => {
                    plan.refused
                        .push((fixture.id(), format!("fixture does not load: {error}")));
                    wanted.insert(path.clone(), current(set, &path));
                    continue;
                }
            };
            let mut revisions = BTreeMap::new();
            for revision in fixture.revisions() {
                let request = ValidateRequest {
                    case: fixture.id(),
                    specification: SPECIFICATION_VERSION.to_owned(),
                    revision,
                    document: document.value.clone(),
                };
                match validator.validate(&request) {
                    Reply::Diagnostics(diagnostics) => {
                        let mut findings: Vec<Finding> =
                            diagnostics.iter().map(Finding::of).collect();
                        findings.sort();
                        findings.dedup();
                        revisions.insert(revision, findings);
                    }
                    Reply::Skipped(skip) => {
                        plan.refused.push((
                            fixture.id(),
                            format!("{revision}: validator skipped: {}", skip.reason),
                        ));
                    }
                    Reply::Error(error) => {
                        plan.refused.push((
                            fixture.id(),
                            format!("{revision}: validator error: {}", error.message),
                        ));
                    }
                }
            }
            let expectation = Expectation {
                fixture: fixture.id(),
                revisions,
            };
            wanted.insert(path, Some(expectation.render()));
        }
    }
    let mut paths: Vec<String> = wanted.keys().cloned().collect();
    if everything {
        paths.extend(set.tree.under("expected/").map(|(path, _)| path.to_owned()));
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
    plan
}

fn current(set: &SuiteSet, path: &str) -> Option<String> {
    set.tree
        .get(path)
        .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
}

/// Writes `changes` below `root`. Each file is written to a temporary file
/// beside it and renamed into place, so an interrupted bless leaves no
/// partial file.
///
/// # Errors
///
/// The first I/O error, with the path it concerns.
pub fn apply(root: &Path, changes: &[Change]) -> io::Result<()> {
    for change in changes {
        let target = root.join(&change.path);
        let with_path = |error: io::Error| {
            io::Error::new(error.kind(), format!("{}: {error}", target.display()))
        };
        match &change.new {
            Some(text) => {
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent).map_err(with_path)?;
                }
                let temporary = target.with_extension("yaml.tmp");
                fs::write(&temporary, text).map_err(with_path)?;
                fs::rename(&temporary, &target).map_err(with_path)?;
            }
            None => fs::remove_file(&target).map_err(with_path)?,
        }
    }
    Ok(())
}

/// Whether the environment says this is CI, where blessing is refused.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}
