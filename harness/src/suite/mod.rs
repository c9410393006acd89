//! A loaded suite tree: catalogs, fixtures and expectations, checked against
//! one another, with every problem found on the way.

pub mod case;
pub mod catalog;
pub mod changelog;
pub mod check;
pub mod compiled;
pub mod coverage;
pub mod expectation;
pub mod fixture;
pub mod matrices;
pub mod requirements;
pub mod tree;

use std::collections::BTreeSet;
use std::fmt;

use mcpdesc_protocol::{Revision, Revisions, Severity};
use mcpdesc_source::Position;

use crate::suite::catalog::{Catalog, RuleIndex};
use crate::suite::tree::SuiteTree;
use expectation::Expectation;
use fixture::{Class, Fixture};

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
#[non_exhaustive]
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

/// Where an [`Entry`] sits in its [`SuiteSet`]: the suite's place and the
/// fixture's place in it. Results carry it, so that whoever reports on a
/// result reaches its fixture directly, not by looking a name up again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryIndex {
    /// The suite's index in [`SuiteSet::suites`].
    pub suite: usize,
    /// The entry's index in that suite's [`Suite::entries`].
    pub entry: usize,
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
    /// The MCP revisions of `suites/revisions.yaml`, oldest first: those a
    /// document may name and its cases run under. When that file is broken
    /// (a suite problem), those built into this harness.
    pub revisions: Revisions,
    /// The suite's versions, newest first (`suites/changelog.yaml`): the
    /// newest is the suite's version. Empty when that file is broken (a
    /// suite problem).
    pub changelog: Changelog,
    /// The requirements inventory (`suites/requirements.yaml`): every
    /// normative statement of the specification and the rules that check
    /// it. Empty when that file is missing or broken, which `check` and
    /// `docs` report and `run` does not need.
    pub requirements: requirements::Inventory,
    /// What is wrong with the suite tree; a non-empty list is a suite error.
    pub problems: Vec<SuiteProblem>,
}

impl SuiteSet {
    /// Loads every suite of `tree`: each `suites/<name>.yaml` catalog, its
    /// fixtures under `fixtures/<name>/` and their expectations under
    /// `expected/<name>/`. Loading never stops at a problem; each is recorded
    /// and the rest is loaded.
    pub fn load(tree: SuiteTree) -> SuiteSet {
        SuiteSet::load_selected(tree, None)
    }

    /// Loads the catalogs of `tree` and only the fixtures whose IDs
    /// (`<suite>/<name>`) are in `fixtures`, with their expectations: what a
    /// test binary asked to run one case needs, and no more. The checks
    /// that need the whole tree (orphan expectation files, the catalogs'
    /// examples) are left to a full load and to `check`.
    pub fn load_only(tree: SuiteTree, fixtures: &[&str]) -> SuiteSet {
        SuiteSet::load_selected(tree, Some(fixtures))
    }

    fn load_selected(tree: SuiteTree, only: Option<&[&str]>) -> SuiteSet {
        // Files left out of the tree are reported once, here; later stages
        // see them as absent and must not blame that on something else.
        let mut problems: Vec<SuiteProblem> = tree
            .refused()
            .map(|(name, refusal)| problem(&tree.display_path(name), &refusal.to_string()))
            .collect();
        let revisions = match load_revisions(&tree) {
            Ok(revisions) => revisions,
            Err(error) => {
                problems.push(error);
                builtin_revisions()
            }
        };
        let changelog = load_changelog(&tree).unwrap_or_else(|error| {
            problems.push(error);
            Changelog::default()
        });
        // Judging needs no inventory: a suite tree without one still runs,
        // and `check` and `docs` report it (`requirements::problems`).
        let inventory = requirements::load(&tree).unwrap_or_default();
        // Catalogs first, all of them: checking an expectation needs every
        // rule of every suite.
        let mut catalogs = Vec::new();
        // Suites whose catalog did not load: their expectation files are
        // not orphans, and the catalog's own problem says what is wrong.
        let mut broken: BTreeSet<String> = tree
            .refused()
            .filter_map(|(name, _)| catalog_stem(name))
            .map(str::to_owned)
            .collect();
        for (path, bytes) in tree.under("suites/") {
            if DATA_FILES.contains(&path) {
                continue;
            }
            let display = tree.display_path(path);
            let Some(stem) = catalog_stem(path) else {
                problems.push(problem(
                    &display,
                    "only `<suite>.yaml` catalogs, `revisions.yaml`, `changelog.yaml`, \
                     `matrices.yaml` and `requirements.yaml` belong in `suites/`",
                ));
                continue;
            };
            let catalog = tree.yaml_data(path, bytes);
            match load_catalog(&display, stem, catalog, &revisions) {
                Ok((catalog, catalog_problems)) => {
                    problems.extend(catalog_problems);
                    catalogs.push(catalog);
                }
                Err(error) => {
                    problems.push(error);
                    broken.insert(stem.to_owned());
                }
            }
        }
        problems.extend(
            catalog::convention_problems(&catalogs, broken.is_empty())
                .into_iter()
                .map(|(suite, p)| {
                    problem(
                        &tree.display_path(&format!("suites/{suite}.yaml")),
                        &p.to_string(),
                    )
                }),
        );
        let rules = RuleIndex::new(&catalogs);
        // With a catalog missing, a rule outside the loaded ones may well be
        // that catalog's: only the catalog's own problem is reported then.
        let known = KnownRules {
            rules: &rules,
            complete: broken.is_empty(),
        };
        let mut suites = Vec::new();
        let mut claimed: BTreeSet<String> = BTreeSet::new();
        for catalog in catalogs {
            let keep = |id: &str| only.is_none_or(|only| only.contains(&id));
            let (fixtures, strays) =
                fixture::discover(&tree, &catalog.suite, catalog.input, &revisions, &keep);
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
                    if let Some(error) = fixture.load_problem() {
                        problems.push(error.clone().into());
                    }
                    let expectation = match load_expectation(&tree, &path, &fixture, &known) {
                        Ok(expectation) => Ok(expectation),
                        Err(mut found) => {
                            let first = found.remove(0);
                            // Already reported with the tree's refusals.
                            if tree.refusal(&path).is_none() {
                                problems.push(first.clone());
                                problems.extend(found);
                            }
                            Err(first)
                        }
                    };
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
        // A partial load claims only the expectations of the fixtures it
        // took: the others are not orphans, and the examples may name
        // fixtures it left out.
        let whole = only.is_none();
        for (path, _) in tree.under("expected/").filter(|_| whole) {
            let Some(name) = path.strip_prefix("expected/") else {
                continue;
            };
            let of_broken_catalog = name
                .split_once('/')
                .is_some_and(|(suite, _)| broken.contains(suite));
            // The expectation of a fixture left out of the tree is not an
            // orphan either: the fixture's own problem says what is wrong.
            let of_refused_fixture = name
                .strip_suffix(".yaml")
                .is_some_and(|fixture| tree.refusal(&format!("fixtures/{fixture}")).is_some());
            // A temporary file is what an interrupted `bless` left behind,
            // not an expectation; the next `bless` removes it.
            if !claimed.contains(path)
                && !of_broken_catalog
                && !of_refused_fixture
                && !expectation::is_temporary(path)
            {
                problems.push(
                    problem(&tree.display_path(path), "expectation file has no fixture")
                        .of_kind(SuiteProblemKind::OrphanExpectation),
                );
            }
        }
        for suite in suites.iter().filter(|_| whole) {
            problems.extend(example_problems(&tree, suite));
        }
        SuiteSet {
            tree,
            suites,
            rules,
            revisions,
            changelog,
            requirements: inventory,
            problems,
        }
    }

    /// The entry at `index`, if this set has one there.
    pub fn get(&self, index: EntryIndex) -> Option<&Entry> {
        self.suites.get(index.suite)?.entries.get(index.entry)
    }

    /// Where the fixture with ID `id` (`<suite>/<name>`) sits, if the set
    /// has it: for tools that start from an ID a person typed.
    pub fn find(&self, id: &str) -> Option<EntryIndex> {
        let (suite_name, name) = id.split_once('/')?;
        let suite = self
            .suites
            .iter()
            .position(|suite| suite.catalog.suite == suite_name)?;
        let entry = self.suites[suite]
            .entries
            .iter()
            .position(|entry| entry.fixture.name == name)?;
        Some(EntryIndex { suite, entry })
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

/// Where a suite tree lists its MCP revisions.
pub const REVISIONS_FILE: &str = "suites/revisions.yaml";

/// The files of `suites/` that are the suite's data, not catalogs: every
/// other `suites/<name>.yaml` is the catalog of suite `<name>`.
pub(crate) const DATA_FILES: [&str; 4] = [
    REVISIONS_FILE,
    CHANGELOG_FILE,
    matrices::MATRICES_FILE,
    requirements::REQUIREMENTS_FILE,
];

pub use changelog::CHANGELOG_FILE;
use changelog::Changelog;

/// The MCP revisions of the suite built into this harness.
pub fn builtin_revisions() -> Revisions {
    tree::builtin_yaml_data(REVISIONS_FILE, mcpdesc_suite::REVISIONS.as_bytes())
        // A test loads the built-in suite and finds no problem with it.
        .expect("the built-in suites/revisions.yaml is valid")
}

/// Reads the tree's list of MCP revisions: present, and a non-empty list of
/// dates, oldest first, each once.
fn load_revisions(tree: &SuiteTree) -> Result<Revisions, SuiteProblem> {
    let display = tree.display_path(REVISIONS_FILE);
    let Some(bytes) = tree.get(REVISIONS_FILE) else {
        return Err(problem(
            &display,
            "the suite lists no MCP revisions: this file is missing (a list of \
             `- revision: YYYY-MM-DD`, oldest first, with `legacy: true` on legacy ones); \
             the revisions built into this harness are used instead",
        ));
    };
    Ok(tree.yaml_data(REVISIONS_FILE, bytes)?)
}

/// Reads the tree's changelog: present, and a list of versions newest
/// first (see [`changelog`]).
fn load_changelog(tree: &SuiteTree) -> Result<Changelog, SuiteProblem> {
    let display = tree.display_path(CHANGELOG_FILE);
    let Some(bytes) = tree.get(CHANGELOG_FILE) else {
        return Err(problem(
            &display,
            "the suite has no version: this file is missing (a list of versions, newest \
             first, each `- version: MAJOR.MINOR.PATCH` with its `date` and `summary`)",
        ));
    };
    let changelog: Changelog = tree.yaml_data(CHANGELOG_FILE, bytes)?;
    match changelog.problems().first() {
        Some(first) => Err(problem(&display, &first.to_string())),
        None => Ok(changelog),
    }
}

/// The suite name a catalog path stands for: `suites/<stem>.yaml`.
fn catalog_stem(path: &str) -> Option<&str> {
    path.strip_prefix("suites/")
        .and_then(|name| name.strip_suffix(".yaml"))
        .filter(|stem| !stem.contains('/'))
}

/// Whether `name` is a plain suite name: lowercase ASCII letters, digits
/// and `-`, starting with a letter. It names folders and starts case IDs,
/// so nothing else is safe in it.
pub fn is_plain_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Loads the catalog `suites/<stem>.yaml`. It fails, with one problem, when
/// no suite can be built from it: it does not parse, its `suite:` is not a
/// plain name or not its file's name, or it lists no rule. Otherwise it
/// comes with the problems found inside it.
fn load_catalog(
    display: &str,
    stem: &str,
    catalog: Result<Catalog, mcpdesc_source::LoadError>,
    revisions: &Revisions,
) -> Result<(Catalog, Vec<SuiteProblem>), SuiteProblem> {
    let catalog = catalog?;
    if !is_plain_name(&catalog.suite) {
        return Err(problem(
            display,
            &format!(
                "the catalog names suite {:?}, which is not a plain name: a suite name is \
                 lowercase ASCII letters, digits and `-`, starting with a letter",
                catalog.suite
            ),
        ));
    }
    if catalog.suite != stem {
        return Err(problem(
            display,
            &format!(
                "catalog names suite `{}` but its file is `{stem}.yaml`",
                catalog.suite
            ),
        ));
    }
    if catalog.rules.is_empty() {
        return Err(problem(
            display,
            "the catalog lists no rule (`rules: []`); a suite checks at least one",
        ));
    }
    let problems = catalog
        .problems(revisions)
        .into_iter()
        .map(|p| problem(display, &p.to_string()))
        .collect();
    Ok((catalog, problems))
}

/// The rules an expectation may use: those of the catalogs that loaded.
struct KnownRules<'a> {
    rules: &'a RuleIndex,
    /// Whether every catalog loaded, so that a rule outside `rules` is in
    /// no catalog at all.
    complete: bool,
}

/// Loads and checks the expectation file of `fixture`: it must exist, parse,
/// name its fixture, list exactly the fixture's revisions, agree with the
/// fixture's folder class, and hold only findings a validator can match:
/// rules of the catalogs (`known`) that apply under the revision, with
/// their catalog severity, and pointers that name something in the
/// fixture. Every problem found is returned (at least one), so that a
/// broken expectation is the suite's problem, never a validator's failure.
fn load_expectation(
    tree: &SuiteTree,
    path: &str,
    fixture: &Fixture,
    known: &KnownRules<'_>,
) -> Result<Expectation, Vec<SuiteProblem>> {
    let display = tree.display_path(path);
    let fail = |message: &str, kind| vec![problem(&display, message).of_kind(kind)];
    if let Some(refusal) = tree.refusal(path) {
        return Err(fail(&refusal.to_string(), SuiteProblemKind::Broken));
    }
    let Some(bytes) = tree.get(path) else {
        return Err(fail(
            &format!(
                "missing expectation for `{}`; run `mcpdesc-conformance bless` and review it",
                fixture.id()
            ),
            SuiteProblemKind::MissingExpectation,
        ));
    };
    let expectation: Expectation = tree
        .yaml_data(path, bytes)
        .map_err(|error| vec![error.into()])?;
    if expectation.fixture != fixture.id() {
        return Err(fail(
            &format!(
                "names fixture `{}` but belongs to `{}`",
                expectation.fixture,
                fixture.id()
            ),
            SuiteProblemKind::StaleExpectation,
        ));
    }
    // A fixture that does not load has its own problem; what it would run
    // under is unknown, so its expectation is not compared with it. A
    // serialization case whose text does not load runs under every known
    // revision, so that much is compared; its pointers name nothing the
    // harness could read.
    let document = fixture.document.as_ref().ok();
    if document.is_some() || fixture.source.is_some() {
        let wanted: BTreeSet<Revision> = fixture.revisions().iter().copied().collect();
        let listed: BTreeSet<Revision> = expectation.revisions.keys().copied().collect();
        if wanted != listed {
            let names = |set: &BTreeSet<Revision>| {
                set.iter()
                    .map(|r| r.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(fail(
                &format!(
                    "lists revisions [{}] but the fixture runs under [{}]",
                    names(&listed),
                    names(&wanted)
                ),
                SuiteProblemKind::StaleExpectation,
            ));
        }
    }
    let has_error = |findings: &Vec<expectation::Finding>| {
        findings.iter().any(|f| f.severity == Severity::Error)
    };
    let any_error = expectation.revisions.values().any(has_error);
    match fixture.class {
        Class::Valid if any_error => {
            return Err(fail(
                "expects an error, but its fixture is in `expected-valid/`",
                SuiteProblemKind::StaleExpectation,
            ));
        }
        Class::Invalid if !any_error => {
            return Err(fail(
                "expects no error under any revision, but its fixture is in `expected-invalid/`",
                SuiteProblemKind::StaleExpectation,
            ));
        }
        _ => {}
    }
    // Where each finding is in the file, for the messages below: read
    // only for a file that has a problem, which is rare.
    let locations = std::cell::OnceCell::new();
    let locations = || {
        locations.get_or_init(|| {
            tree.document(path, bytes, mcpdesc_source::Format::Yaml)
                .map(|document| document.locations)
                .unwrap_or_default()
        })
    };
    let mut problems = Vec::new();
    for (revision, findings) in &expectation.revisions {
        for (index, finding) in findings.iter().enumerate() {
            let mut report = |message: String| {
                problems.push(SuiteProblem {
                    file: display.clone(),
                    position: locations().get(&format!("/revisions/{revision}/{index}")),
                    message: format!(
                        "{revision}: {} at {:?}: {message}",
                        finding.rule, finding.path
                    ),
                    // Blessing rewrites the findings from the validator.
                    kind: SuiteProblemKind::StaleExpectation,
                });
            };
            match known.rules.get(&finding.rule) {
                None if !known.complete => {}
                None => report("the rule is in no catalog".into()),
                Some(rule) if !rule.applicability.applies_to(*revision) => {
                    report("the rule does not apply under this revision".into())
                }
                Some(rule) if rule.severity != finding.severity => {
                    report(format!("the rule's severity is {}", rule.severity))
                }
                Some(rule) if rule.cannot_fire_under.contains(revision) => {
                    report("the catalog says the rule cannot fire under this revision".into())
                }
                Some(_) => {}
            }
            if let Some(document) = document
                && mcpdesc_source::pointer::resolve(&document.value, &finding.path).is_none()
            {
                report("the pointer does not resolve in the fixture".into());
            }
        }
    }
    if problems.is_empty() {
        Ok(expectation)
    } else {
        Err(problems)
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
                let path = format!("fixtures/{}/{}", suite.catalog.suite, example.source);
                // A fixture left out of the tree has its own problem.
                if tree.refusal(&path).is_none() {
                    report("no such fixture".into(), SuiteProblemKind::Broken);
                }
                continue;
            };
            // A fixture that does not load has its own problem; a
            // serialization case whose text does not load has no value for
            // the pointer to name, and its expectation is all there is.
            match &entry.fixture.document {
                Ok(document) => {
                    if mcpdesc_source::pointer::resolve(&document.value, &example.selected)
                        .is_none()
                    {
                        report(
                            format!(
                                "selected pointer `{}` does not resolve in the fixture",
                                example.selected
                            ),
                            SuiteProblemKind::Broken,
                        );
                        continue;
                    }
                }
                Err(_) if entry.fixture.source.is_none() => continue,
                Err(_) => {}
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

/// Suite sets for the harness's own unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::SuiteSet;
    use crate::suite::tree::SuiteTree;

    /// The text of the serialization case: `info` twice, which the
    /// harness's strict loader refuses.
    pub(crate) const DUPLICATE: &str = "mcpdesc: 0.9.0\ninfo: {name: x, version: \"1\"}\n\
                         info: {name: y, version: \"1\"}\nprotocolVersions: [\"2025-06-18\"]\n";

    /// A suite tree of one `input: source` suite: a YAML fixture whose
    /// text does not load (its statement in a file beside it), under every
    /// revision, which its rule's catalog example shows, and a JSON one
    /// that loads, under one.
    pub(crate) fn source_suite() -> SuiteSet {
        let embedded = SuiteTree::embedded();
        let mut files: Vec<(String, Vec<u8>)> = ["suites/revisions.yaml", "suites/changelog.yaml"]
            .into_iter()
            .map(|name| (name.to_owned(), embedded.get(name).unwrap().to_vec()))
            .collect();
        let rule = "mcpdesc.serialization.duplicate-key";
        let every = |finding: &str| {
            crate::suite::builtin_revisions()
                .iter()
                .map(|revision| format!("  {revision}: [{finding}]\n"))
                .collect::<String>()
        };
        for (name, text) in [
        (
            "suites/serialization.yaml".to_owned(),
            format!(
                "suite: serialization\ntitle: t\ndescription: d\nspecification: 0.9.0\n\
                 input: source\nrules:\n  - {{id: {rule}, title: t, summary: s, \
                 requirement: r, owner: mcpdesc, surface: s, path: p, kind: k, level: must, \
                 severity: error, status: internal, enforcement: internal, \
                 applicability: independent, exercised-at: [\"\"], examples: [{{class: invalid, \
                 source: expected-invalid/duplicate-key.yaml, selected: /info}}]}}\n"
            ),
        ),
        (
            "fixtures/serialization/expected-invalid/duplicate-key.yaml".to_owned(),
            DUPLICATE.to_owned(),
        ),
        (
            "fixtures/serialization/expected-invalid/duplicate-key.yaml.x-test".to_owned(),
            "The root names `info` twice.\n".to_owned(),
        ),
        (
            "expected/serialization/expected-invalid/duplicate-key.yaml.yaml".to_owned(),
            format!(
                "fixture: serialization/expected-invalid/duplicate-key.yaml\nrevisions:\n{}",
                every(&format!("{{severity: error, rule: {rule}, path: /info}}"))
            ),
        ),
        (
            "fixtures/serialization/expected-valid/minimal.json".to_owned(),
            "{\"x-test\": \"Written once each.\", \"mcpdesc\": \"0.9.0\", \
             \"info\": {\"name\": \"x\", \"version\": \"1\"}, \
             \"protocolVersions\": [\"2025-06-18\"]}"
                .to_owned(),
        ),
        (
            "expected/serialization/expected-valid/minimal.json.yaml".to_owned(),
            "fixture: serialization/expected-valid/minimal.json\nrevisions:\n  2025-06-18: []\n"
                .to_owned(),
        ),
    ] {
        files.push((name, text.into_bytes()));
    }
        SuiteSet::load(SuiteTree::from_files(files))
    }
}

#[cfg(test)]
mod tests {
    use super::is_plain_name;

    #[test]
    fn plain_suite_names_are_lowercase_ascii_digits_and_dashes_from_a_letter() {
        for name in ["document", "elicitation", "a", "x-2", "r2d2-"] {
            assert!(is_plain_name(name), "{name}");
        }
        for name in ["", "Document", "2fa", "-x", "a_b", "a b", "a/b", "é", "a.b"] {
            assert!(!is_plain_name(name), "{name}");
        }
    }
}
