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
        // Files left out of the tree are reported once, here; later stages
        // see them as absent and must not blame that on something else.
        let mut problems: Vec<SuiteProblem> = tree
            .refused()
            .iter()
            .map(|refused| {
                problem(
                    &tree.display_path(&refused.name),
                    &refused.problem.to_string(),
                )
            })
            .collect();
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
                    match &expectation {
                        // Already reported with the tree's refusals.
                        Err(_) if tree.refusal(&path).is_some() => {}
                        Err(error) => problems.push(error.clone()),
                        Ok(_) => {}
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
            // The expectation of a fixture left out of the tree is not an
            // orphan: the fixture's own problem says what is wrong.
            let fixture_refused = path
                .strip_prefix("expected/")
                .and_then(|rest| rest.strip_suffix(".yaml"))
                .is_some_and(|name| tree.refusal(&format!("fixtures/{name}")).is_some());
            if !claimed.contains(path) && !fixture_refused {
                problems.push(problem(
                    &tree.display_path(path),
                    "expectation file has no fixture",
                ));
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
    if let Some(refusal) = tree.refusal(path) {
        return Err(problem(&display, &refusal.to_string()));
    }
    let Some(bytes) = tree.get(path) else {
        return Err(problem(
            &display,
            &format!(
                "missing expectation for `{}`; run `mcpdesc-conformance bless` and review it",
                fixture.id()
            ),
        ));
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
        ));
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
        ));
    }
    let has_error = |findings: &Vec<expectation::Finding>| {
        findings.iter().any(|f| f.severity == Severity::Error)
    };
    let any_error = expectation.revisions.values().any(has_error);
    match fixture.class {
        Class::Valid if any_error => Err(problem(
            &display,
            "expects an error, but its fixture is in `expected-valid/`",
        )),
        Class::Invalid if !any_error => Err(problem(
            &display,
            "expects no error under any revision, but its fixture is in `expected-invalid/`",
        )),
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
            let mut report = |message: String| {
                problems.push(problem(
                    &catalog_path,
                    &format!(
                        "rule `{}`, example `{}`: {message}",
                        rule.id, example.source
                    ),
                ));
            };
            let Some(entry) = suite
                .entries
                .iter()
                .find(|entry| entry.fixture.name == example.source)
            else {
                report("no such fixture".into());
                continue;
            };
            let Ok(document) = &entry.fixture.document else {
                continue;
            };
            if mcpdesc_source::pointer::resolve(&document.value, &example.selected).is_none() {
                report(format!(
                    "selected pointer `{}` does not resolve in the fixture",
                    example.selected
                ));
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
                    report(format!(
                        "the expectation never reports this rule at the selected pointer `{}`",
                        example.selected
                    ));
                }
            }
        }
    }
    problems
}
