//! What `check` says about a suite tree's committed pages: they must be
//! exactly what `docs` would write, so that they never drift from the
//! catalogs.

use std::fmt;
use std::path::{Path, PathBuf};

use super::sync::{self, Drift};
use super::{PAGES_DIR, Pages};
use crate::suite::{SuiteProblem, SuiteProblemKind, SuiteSet};

/// The verdict on a suite tree's committed pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Committed {
    /// The pages were not compared, for this reason.
    NotChecked(Unchecked),
    /// The pages in `dir` were compared with the `pages` generated ones;
    /// each difference is a problem (none when they are up to date).
    Checked {
        /// The folder compared.
        dir: PathBuf,
        /// How many pages were generated.
        pages: usize,
        /// A problem per stale, missing or extra page, or one saying why
        /// the pages could not be generated or read.
        problems: Vec<SuiteProblem>,
    },
}

/// Why committed pages were not compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unchecked {
    /// The built-in suite carries catalogs, fixtures and expectations only.
    BuiltIn,
    /// The tree has no `docs/rules/` folder (such as a copy of the suite
    /// folders alone).
    NoPagesFolder(PathBuf),
    /// The suite has problems that leave its pages incomplete (a catalog
    /// that does not load, say); those are reported instead.
    SuiteProblems,
}

impl fmt::Display for Unchecked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unchecked::BuiltIn => f.write_str(
                "the built-in suite has no rule pages; give --suite-dir to check a working tree's",
            ),
            Unchecked::NoPagesFolder(dir) => write!(
                f,
                "{} does not exist; `mcpdesc-conformance docs --out` writes them",
                dir.display()
            ),
            Unchecked::SuiteProblems => {
                f.write_str("the suite's problems (below) must be fixed first")
            }
        }
    }
}

/// Compares the pages committed under the suite tree's `docs/rules/` with
/// those [`Pages::generate`] makes from it. Only a tree read from a folder
/// that has `docs/rules/`, and whose catalogs and fixtures load, is
/// compared.
pub fn check(set: &SuiteSet) -> Committed {
    let Some(root) = &set.tree.root else {
        return Committed::NotChecked(Unchecked::BuiltIn);
    };
    let dir = root.join(PAGES_DIR);
    if !dir.is_dir() {
        return Committed::NotChecked(Unchecked::NoPagesFolder(dir));
    }
    // A rule ID that cannot name its page is a problem of `check` itself
    // (`suite::check::rule_id_problems`), reported with its position.
    if set
        .problems
        .iter()
        .any(|problem| problem.kind == SuiteProblemKind::Broken)
        || !crate::suite::check::rule_id_problems(set).is_empty()
    {
        return Committed::NotChecked(Unchecked::SuiteProblems);
    }
    let regenerate = regenerate_command(root);
    let problem = |file: &Path, message: String| SuiteProblem {
        file: file.display().to_string(),
        position: None,
        message,
        kind: SuiteProblemKind::Broken,
    };
    let pages = match Pages::generate(set) {
        Ok(pages) => pages,
        Err(error) => {
            return Committed::Checked {
                problems: vec![problem(
                    &dir,
                    format!("the pages cannot be generated: {error}"),
                )],
                dir,
                pages: 0,
            };
        }
    };
    let problems = match sync::compare(&pages, &dir) {
        Ok(drift) => drift
            .iter()
            .map(|drift| {
                let what = match drift {
                    Drift::Stale(_) => "stale: differs from what `docs` writes from the suite",
                    Drift::Missing(_) => "missing: `docs` writes this page",
                    Drift::Extra(_) => "extra: a generated page that `docs` no longer writes",
                };
                problem(
                    &dir.join(drift.path()),
                    format!("rule page {what}; regenerate the pages with `{regenerate}`"),
                )
            })
            .collect(),
        Err(error) => vec![problem(&dir, format!("the pages cannot be read: {error}"))],
    };
    Committed::Checked {
        dir,
        pages: pages.len(),
        problems,
    }
}

/// The command that rewrites the pages of the tree at `root`.
fn regenerate_command(root: &Path) -> String {
    let root = root.display().to_string();
    let quoted = if root
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        root
    } else {
        format!("'{}'", root.replace('\'', r"'\''"))
    };
    format!("mcpdesc-conformance docs --suite-dir {quoted} --out {quoted}/{PAGES_DIR}")
}
