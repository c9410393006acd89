//! A loaded suite tree: catalogs, fixtures and expectations, checked against
//! one another, with every problem found on the way.

use std::collections::BTreeSet;
use std::fmt;

use mcpdesc_protocol::{Revision, Severity};
use mcpdesc_source::Position;

use crate::catalog::{Catalog, RuleIndex};
use crate::expectation::{self, Expectation};
use crate::fixture::{self, Class, Fixture};
use crate::tree::SuiteTree;

/// Something wrong with the suite itself (not with a validator): a file that
/// does not load, a stray file, an expectation that contradicts its fixture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteProblem {
    /// The file, as a path in the suite tree or on disk.
    pub file: String,
    /// Where in the file, when known.
    pub position: Option<Position>,
    /// What is wrong and what was expected.
    pub message: String,
    /// What sort of problem it is, so that tools can tell the problems
    /// `bless` repairs from those it must not act on.
    pub kind: SuiteProblemKind,
}

/// The sort of a [`SuiteProblem`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SuiteProblemKind {
    /// A file of the suite is broken or does not belong: a catalog, fixture
    /// or expectation that does not load, a stray file, a catalog that
    /// contradicts itself or its file name. Nothing computed from such a
    /// suite can be trusted to be complete.
    Broken,
    /// A fixture has no expectation file.
    MissingExpectation,
    /// An expectation file loads but contradicts its fixture: it names
    /// another fixture, lists other revisions, or expects errors (or none)
    /// against the fixture's class.
    StaleExpectation,
    /// An expectation file whose fixture does not exist.
    OrphanExpectation,
    /// A catalog example whose rule the expectation of its fixture never
    /// reports at the example's pointer.
    ExampleNotExpected,
}

impl SuiteProblemKind {
    /// Whether writing expectations from the reference validator (`bless`)
    /// is the repair: the problem is with an expectation file only, and the
    /// rest of the suite is sound enough to compute the expectation from.
    pub fn bless_repairs(self) -> bool {
        !matches!(self, SuiteProblemKind::Broken)
    }
}

impl fmt::Display for SuiteProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(position) => write!(f, "{}:{position}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl From<mcpdesc_source::LoadError> for SuiteProblem {
    fn from(error: mcpdesc_source::LoadError) -> Self {
        SuiteProblem {
            file: error.file,
            position: Some(error.position),
            message: error.message,
            kind: SuiteProblemKind::Broken,
        }
    }
}

/// A fixture with its expectation file, when that is usable.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The fixture.
    pub fixture: Fixture,
    /// Its expectation, or why there is none to compare with.
    pub expectation: Result<Expectation, SuiteProblem>,
}

/// One suite: its catalog and its fixtures.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The catalog.
    pub catalog: Catalog,
    /// Its fixtures in path order, each with its expectation.
    pub entries: Vec<Entry>,
}

/// Every suite of a tree, loaded.
#[derive(Debug, Clone)]
pub struct SuiteSet {
    /// The tree the suites were read from.
    pub tree: SuiteTree,
    /// The suites, in catalog file order.
    pub suites: Vec<Suite>,
    /// Every rule of every catalog.
    pub rules: RuleIndex,
    /// What is wrong with the suite tree; a non-empty list is a suite error.
    pub problems: Vec<SuiteProblem>,
}

impl SuiteSet {
    /// Loads every suite of `tree`: each `suites/<name>.yaml` catalog, its
    /// fixtures under `fixtures/<name>/` and their expectations under
    /// `expected/<name>/`. Loading never stops at a problem; each is recorded
    /// and the rest is loaded.
    pub fn load(tree: SuiteTree) -> SuiteSet {
        let mut problems = Vec::new();
        let mut suites = Vec::new();
        let mut claimed: BTreeSet<String> = BTreeSet::new();
        for (path, bytes) in tree.under("suites/") {
            let display = tree.display_path(path);
            let Some(stem) = path
                .strip_prefix("suites/")
                .and_then(|name| name.strip_suffix(".yaml"))
                .filter(|stem| !stem.contains('/'))
            else {
                problems.push(problem(
                    &display,
                    "only `<suite>.yaml` catalogs belong in `suites/`",
                ));
                continue;
            };
            let catalog: Catalog = match mcpdesc_source::parse_yaml(&display, bytes) {
                Ok(catalog) => catalog,
                Err(error) => {
                    problems.push(error.into());
                    continue;
                }
            };
            if catalog.suite != stem {
                problems.push(problem(
                    &display,
                    &format!(
                        "catalog names suite `{}` but its file is `{stem}.yaml`",
                        catalog.suite
                    ),
                ));
            }
            problems.extend(
                catalog
                    .problems()
                    .into_iter()
                    .map(|p| problem(&display, &p.to_string())),
            );
            let (fixtures, strays) = fixture::discover(&tree, &catalog.suite);
            problems.extend(
                strays
                    .into_iter()
                    .map(|stray| problem(&tree.display_path(&stray.path), &stray.reason)),
            );
            let entries = fixtures
                .into_iter()
                .map(|fixture| {
                    let path = expectation::path_of(&fixture);
                    claimed.insert(path.clone());
                    let expectation = load_expectation(&tree, &path, &fixture);
                    if let Err(error) = &fixture.document {
                        problems.push(error.clone().into());
                    }
                    if let Err(error) = &expectation {
                        problems.push(error.clone());
                    }
                    Entry {
                        fixture,
                        expectation,
                    }
                })
                .collect();
            suites.push(Suite { catalog, entries });
        }
        if suites.is_empty() && problems.is_empty() {
            problems.push(problem("suites/", "no suite catalog found"));
        }
        for (path, _) in tree.under("expected/") {
            // A temporary file is what an interrupted `bless` left behind,
            // not an expectation; the next `bless` removes it.
            if !claimed.contains(path) && !expectation::is_temporary(path) {
                problems.push(
                    problem(&tree.display_path(path), "expectation file has no fixture")
                        .of_kind(SuiteProblemKind::OrphanExpectation),
                );
            }
        }
        for suite in &suites {
            problems.extend(example_problems(&tree, suite));
        }
        let rules = RuleIndex::new(suites.iter().map(|suite| &suite.catalog));
        SuiteSet {
            tree,
            suites,
            rules,
            problems,
        }
    }

    /// The fixture with ID `id` (`<suite>/<name>`), with its expectation.
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        let (suite, name) = id.split_once('/')?;
        let suite = self.suites.iter().find(|s| s.catalog.suite == suite)?;
        suite
            .entries
            .iter()
            .find(|entry| entry.fixture.name == name)
    }
}

fn problem(file: &str, message: &str) -> SuiteProblem {
    SuiteProblem {
        file: file.to_owned(),
        position: None,
        message: message.to_owned(),
        kind: SuiteProblemKind::Broken,
    }
}

impl SuiteProblem {
    fn of_kind(mut self, kind: SuiteProblemKind) -> SuiteProblem {
        self.kind = kind;
        self
    }
}

/// Loads and checks the expectation file of `fixture`: it must exist, parse,
/// name its fixture, list exactly the fixture's revisions, and agree with the
/// fixture's folder class.
fn load_expectation(
    tree: &SuiteTree,
    path: &str,
    fixture: &Fixture,
) -> Result<Expectation, SuiteProblem> {
    let display = tree.display_path(path);
    let Some(bytes) = tree.get(path) else {
        return Err(problem(
            &display,
            &format!(
                "missing expectation for `{}`; run `mcpdesc-conformance bless` and review it",
                fixture.id()
            ),
        )
        .of_kind(SuiteProblemKind::MissingExpectation));
    };
    let expectation = Expectation::parse(&display, bytes)?;
    if expectation.fixture != fixture.id() {
        return Err(problem(
            &display,
            &format!(
                "names fixture `{}` but belongs to `{}`",
                expectation.fixture,
                fixture.id()
            ),
        )
        .of_kind(SuiteProblemKind::StaleExpectation));
    }
    let wanted: BTreeSet<Revision> = fixture.revisions().into_iter().collect();
    let listed: BTreeSet<Revision> = expectation.revisions.keys().copied().collect();
    if wanted != listed {
        let names = |set: &BTreeSet<Revision>| {
            set.iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(problem(
            &display,
            &format!(
                "lists revisions [{}] but the fixture runs under [{}]",
                names(&listed),
                names(&wanted)
            ),
        )
        .of_kind(SuiteProblemKind::StaleExpectation));
    }
    let has_error = |findings: &Vec<expectation::Finding>| {
        findings.iter().any(|f| f.severity == Severity::Error)
    };
    let any_error = expectation.revisions.values().any(has_error);
    match fixture.class {
        Class::Valid if any_error => Err(problem(
            &display,
            "expects an error, but its fixture is in `expected-valid/`",
        )
        .of_kind(SuiteProblemKind::StaleExpectation)),
        Class::Invalid if !any_error => Err(problem(
            &display,
            "expects no error under any revision, but its fixture is in `expected-invalid/`",
        )
        .of_kind(SuiteProblemKind::StaleExpectation)),
        _ => Ok(expectation),
    }
}

/// Checks each catalog example against the suite: its fixture exists and
/// loads, its selected pointer resolves there, and an invalid example's
/// expectation reports the rule at exactly that pointer under at least one
/// revision. So a published example can never drift from the suite.
fn example_problems(tree: &SuiteTree, suite: &Suite) -> Vec<SuiteProblem> {
    let catalog_path = tree.display_path(&format!("suites/{}.yaml", suite.catalog.suite));
    let mut problems = Vec::new();
    for rule in &suite.catalog.rules {
        for example in &rule.examples {
            let mut report = |message: String, kind: SuiteProblemKind| {
                problems.push(
                    problem(
                        &catalog_path,
                        &format!(
                            "rule `{}`, example `{}`: {message}",
                            rule.id, example.source
                        ),
                    )
                    .of_kind(kind),
                );
            };
            let Some(entry) = suite
                .entries
                .iter()
                .find(|entry| entry.fixture.name == example.source)
            else {
                report("no such fixture".into(), SuiteProblemKind::Broken);
                continue;
            };
            let Ok(document) = &entry.fixture.document else {
                continue;
            };
            if mcpdesc_source::pointer::resolve(&document.value, &example.selected).is_none() {
                report(
                    format!(
                        "selected pointer `{}` does not resolve in the fixture",
                        example.selected
                    ),
                    SuiteProblemKind::Broken,
                );
                continue;
            }
            let Ok(expectation) = &entry.expectation else {
                continue;
            };
            if example.class == Class::Invalid {
                let shown = expectation
                    .revisions
                    .values()
                    .flatten()
                    .any(|finding| finding.rule == rule.id && finding.path == example.selected);
                if !shown {
                    report(
                        format!(
                            "the expectation never reports this rule at the selected pointer `{}`",
                            example.selected
                        ),
                        SuiteProblemKind::ExampleNotExpected,
                    );
                }
            }
        }
    }
    problems
}
