//! The requirements inventory (`suites/requirements.yaml`): every normative
//! statement of the specification, with the rules that check it, so that
//! the suite can say how much of the specification it covers and a rule
//! can say which requirements it rests on.
//!
//! ```yaml
//! sections:
//!   - number: "12"
//!     title: Elicitation Declarations
//!     edition: "0.9.0"
//! requirements:
//!   - id: req-elicitation-form-ranges
//!     section: "12.3"
//!     keywords: [MUST NOT]
//!     statement: No minimum constraint exceeds its maximum.
//!     kind: document
//!     rules: [mcpdesc.elicitation.form-schema.consistency]
//! ```
//!
//! A requirement is *checkable* when its [`Kind`] is `document` or
//! `serialization`: a finding on one document (or its text) can show it
//! broken. A checkable requirement is covered by `rules` (or, when it asks
//! validators to accept something, by the valid fixtures of `accepted-by`),
//! `pending` with the reason it is not yet, or both (partly covered).
//! `check` fails on a checkable requirement that says none of these, and on
//! a rule that no requirement names.

use std::collections::BTreeSet;
use std::fmt;
use std::fmt::Write as _;

use serde::Deserialize;

use crate::emit::escape::line;

use crate::suite::fixture::Class;
use crate::suite::tree::SuiteTree;
use crate::suite::{SuiteProblem, SuiteProblemKind, SuiteSet};

/// Where a suite tree keeps its requirements inventory.
pub const REQUIREMENTS_FILE: &str = "suites/requirements.yaml";

/// The requirements inventory of a suite tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inventory {
    /// The specification's sections, in order.
    pub sections: Vec<Section>,
    /// Every requirement, in section order.
    pub requirements: Vec<Requirement>,
}

/// A top-level section of the specification.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// Its number (`3`, `12`; `A` for an appendix).
    pub number: String,
    /// Its title.
    pub title: String,
    /// The edition of MCP Description whose text the section's
    /// requirements are taken from (`0.9.0` for the seeds' draft, `0.8.0`
    /// for the newest published text).
    pub edition: String,
}

/// One normative statement of the specification.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Requirement {
    /// Its stable ID (`req-elicitation-form-ranges`).
    pub id: String,
    /// The section it is stated in (`12.3`).
    pub section: String,
    /// The requirement keywords of the statement.
    pub keywords: Vec<Keyword>,
    /// What holds when it is met, in one line.
    pub statement: String,
    /// What it constrains, and so whether a finding can show it broken.
    pub kind: Kind,
    /// The rules that check it.
    #[serde(default)]
    pub rules: Vec<String>,
    /// For a requirement that validators accept something: the valid
    /// fixtures (`<suite>/expected-valid/<file>`) that show it accepted.
    #[serde(default)]
    pub accepted_by: Vec<String>,
    /// Why it is not (fully) covered yet, and what will cover it.
    #[serde(default)]
    pub pending: Option<String>,
    /// The earlier requirement this one restates, if any.
    #[serde(default)]
    pub restates: Option<String>,
    /// A remark for maintainers.
    #[serde(default)]
    pub note: Option<String>,
}

/// A requirement keyword (RFC 2119, in capitals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum Keyword {
    /// `MUST`.
    #[serde(rename = "MUST")]
    Must,
    /// `MUST NOT`.
    #[serde(rename = "MUST NOT")]
    MustNot,
    /// `REQUIRED`.
    #[serde(rename = "REQUIRED")]
    Required,
    /// `SHALL`.
    #[serde(rename = "SHALL")]
    Shall,
    /// `SHALL NOT`.
    #[serde(rename = "SHALL NOT")]
    ShallNot,
    /// `SHOULD`.
    #[serde(rename = "SHOULD")]
    Should,
    /// `SHOULD NOT`.
    #[serde(rename = "SHOULD NOT")]
    ShouldNot,
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Keyword::Must => "MUST",
            Keyword::MustNot => "MUST NOT",
            Keyword::Required => "REQUIRED",
            Keyword::Shall => "SHALL",
            Keyword::ShallNot => "SHALL NOT",
            Keyword::Should => "SHOULD",
            Keyword::ShouldNot => "SHOULD NOT",
        })
    }
}

/// What a requirement constrains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A parsed document: a finding on one document can show it broken.
    Document,
    /// A document's text (duplicate keys, YAML tags, several documents):
    /// checkable when the validator sees the text.
    Serialization,
    /// A running server or client.
    Runtime,
    /// A tool that writes, projects, merges or publishes documents.
    Producer,
    /// An implementation that reads documents, beyond any one finding
    /// (it works offline, ignores member order, preserves what it reads).
    Consumer,
}

impl Kind {
    /// Whether a finding on one document (or its text) can show the
    /// requirement broken.
    pub fn checkable(self) -> bool {
        matches!(self, Kind::Document | Kind::Serialization)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Document => "document",
            Kind::Serialization => "serialization",
            Kind::Runtime => "runtime",
            Kind::Producer => "producer",
            Kind::Consumer => "consumer",
        })
    }
}

/// How far the suite covers a requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum State {
    /// Rules (or accepting fixtures) check all of it.
    Covered,
    /// Rules check part of it; the rest is pending.
    Partial,
    /// Nothing checks it yet.
    Pending,
    /// No finding on a document can show it broken.
    NotCheckable,
    /// A checkable requirement that names neither coverage nor a pending
    /// reason: a problem of the inventory.
    Unstated,
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            State::Covered => "covered",
            State::Partial => "partial",
            State::Pending => "pending",
            State::NotCheckable => "not checkable",
            State::Unstated => "unstated",
        })
    }
}

impl Requirement {
    /// How far the suite covers it.
    pub fn state(&self) -> State {
        if !self.kind.checkable() {
            return State::NotCheckable;
        }
        let covered = !self.rules.is_empty() || !self.accepted_by.is_empty();
        match (covered, self.pending.is_some()) {
            (true, false) => State::Covered,
            (true, true) => State::Partial,
            (false, true) => State::Pending,
            (false, false) => State::Unstated,
        }
    }

    /// The number of its top-level section (`12` for `12.3`).
    pub fn top_section(&self) -> &str {
        self.section
            .split_once('.')
            .map_or(self.section.as_str(), |(top, _)| top)
    }
}

impl Inventory {
    /// The section numbered `number`, if listed.
    pub fn section(&self, number: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|section| section.number == number)
    }

    /// The requirements that name `rule`, in inventory order.
    pub fn requiring(&self, rule: &str) -> impl Iterator<Item = &Requirement> {
        self.requirements
            .iter()
            .filter(move |requirement| requirement.rules.iter().any(|named| named == rule))
    }

    /// The coverage counts of every listed section, in order, and of all.
    pub fn coverage(&self) -> RequirementCoverage {
        let mut sections: Vec<(String, Counts)> = self
            .sections
            .iter()
            .map(|section| (section.number.clone(), Counts::default()))
            .collect();
        let mut total = Counts::default();
        for requirement in &self.requirements {
            let state = requirement.state();
            total.add(state);
            if let Some((_, counts)) = sections
                .iter_mut()
                .find(|(number, _)| number == requirement.top_section())
            {
                counts.add(state);
            }
        }
        RequirementCoverage { sections, total }
    }
}

/// How many requirements are in each [`State`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every requirement.
    pub requirements: usize,
    /// Those a finding can show broken.
    pub checkable: usize,
    /// Checkable and fully covered.
    pub covered: usize,
    /// Checkable and partly covered.
    pub partial: usize,
    /// Checkable and not covered (pending, or unstated, which `check`
    /// reports as a problem).
    pub pending: usize,
}

impl Counts {
    fn add(&mut self, state: State) {
        self.requirements += 1;
        if state != State::NotCheckable {
            self.checkable += 1;
        }
        match state {
            State::Covered => self.covered += 1,
            State::Partial => self.partial += 1,
            State::Pending | State::Unstated => self.pending += 1,
            State::NotCheckable => {}
        }
    }

    /// The covered share of the checkable requirements, in percent (100
    /// when there is none to cover).
    pub fn percent_covered(&self) -> f64 {
        if self.checkable == 0 {
            100.0
        } else {
            self.covered as f64 * 100.0 / self.checkable as f64
        }
    }
}

/// The coverage of the specification by the suite, per section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequirementCoverage {
    /// Each listed section's number and counts, in order.
    pub sections: Vec<(String, Counts)>,
    /// The counts over every requirement.
    pub total: Counts,
}

impl Inventory {
    /// The coverage table by section, for `check`: each section's
    /// requirements, checkable ones, and those covered, partly covered and
    /// pending, then the totals.
    pub fn render_sections(&self) -> String {
        let coverage = self.coverage();
        let label = |number: &str| {
            self.section(number)
                .map_or(line(number).into_owned(), |section| {
                    format!("{:>2} {}", line(&section.number), line(&section.title))
                })
        };
        let width = coverage
            .sections
            .iter()
            .map(|(number, _)| label(number).chars().count())
            .max()
            .unwrap_or(0)
            .max("requirements by section".len());
        let mut text = String::new();
        let row = |text: &mut String, name: &str, counts: &Counts| {
            let _ = writeln!(
                text,
                "{name:<width$} {:>5} {:>9} {:>7} {:>6} {:>7}",
                counts.requirements,
                counts.checkable,
                counts.covered,
                counts.partial,
                counts.pending
            );
        };
        let _ = writeln!(
            text,
            "{:<width$} {:>5} {:>9} {:>7} {:>6} {:>7}",
            "requirements by section", "all", "checkable", "covered", "partly", "pending"
        );
        for (number, counts) in &coverage.sections {
            row(&mut text, &label(number), counts);
        }
        row(&mut text, "all sections", &coverage.total);
        text
    }

    /// Every requirement on a line of its own (untrusted text escaped), for `check --requirements`:
    /// its ID, section, kind and state, and what covers it or why nothing
    /// does yet.
    pub fn render_requirements(&self) -> String {
        let width = self
            .requirements
            .iter()
            .map(|requirement| line(&requirement.id).chars().count())
            .max()
            .unwrap_or(0);
        let mut text = String::new();
        for requirement in &self.requirements {
            let state = requirement.state();
            let mut what: Vec<String> = requirement
                .rules
                .iter()
                .map(|rule| line(rule).into_owned())
                .collect();
            what.extend(
                requirement
                    .accepted_by
                    .iter()
                    .map(|fixture| format!("accepted by {}", line(fixture))),
            );
            if let Some(reason) = &requirement.pending
                && matches!(state, State::Partial | State::Pending)
            {
                what.push(line(reason).into_owned());
            }
            let _ = writeln!(
                text,
                "{:<width$} {:>5} {:<13} {:<13} {}",
                line(&requirement.id),
                line(&requirement.section),
                requirement.kind.to_string(),
                state.to_string(),
                what.join("; ")
            );
        }
        text
    }
}

/// Reads `tree`'s inventory.
///
/// # Errors
///
/// The problem that says why there is none: the file is missing, or does
/// not load (with its line and column).
pub fn load(tree: &SuiteTree) -> Result<Inventory, SuiteProblem> {
    let Some(bytes) = tree.get(REQUIREMENTS_FILE) else {
        return Err(SuiteProblem {
            file: tree.display_path(REQUIREMENTS_FILE),
            position: None,
            message: "the suite has no requirements inventory: this file is missing (`sections` \
                      and `requirements`, every normative statement with the rules that check it)"
                .into(),
            kind: SuiteProblemKind::Broken,
        });
    };
    Ok(tree.yaml_data(REQUIREMENTS_FILE, bytes)?)
}

/// What is wrong with the inventory of `set`, each at its place in the
/// file: a missing file or one that does not load (alone: nothing else is
/// checked then), malformed or repeated IDs and sections, a checkable requirement
/// with neither coverage nor a pending reason, coverage on one that no
/// finding can show, rules and fixtures that are not in the suite, and
/// every rule that no requirement names.
pub fn problems(set: &SuiteSet) -> Vec<SuiteProblem> {
    let inventory = &set.requirements;
    let tree = &set.tree;
    let file = tree.display_path(REQUIREMENTS_FILE);
    let locations = std::cell::OnceCell::new();
    let locate = |pointer: &str| {
        locations
            .get_or_init(|| {
                tree.get(REQUIREMENTS_FILE).and_then(|bytes| {
                    tree.document(REQUIREMENTS_FILE, bytes, mcpdesc_source::Format::Yaml)
                        .ok()
                        .map(|document| document.locations)
                })
            })
            .as_ref()
            .and_then(|locations| locations.get(pointer))
    };
    if let Err(problem) = load(tree) {
        return vec![problem];
    }
    let catalogs_complete = every_catalog_loaded(set);
    let mut problems = Vec::new();
    let mut report = |pointer: String, message: String| {
        problems.push(SuiteProblem {
            file: file.clone(),
            position: locate(&pointer),
            message,
            kind: SuiteProblemKind::Broken,
        });
    };
    let mut numbers = BTreeSet::new();
    for (index, section) in inventory.sections.iter().enumerate() {
        if !numbers.insert(section.number.as_str()) {
            report(
                format!("/sections/{index}/number"),
                format!("section {} is listed twice", section.number),
            );
        }
    }
    let ids: BTreeSet<&str> = inventory
        .requirements
        .iter()
        .map(|requirement| requirement.id.as_str())
        .collect();
    let mut seen = BTreeSet::new();
    for (index, requirement) in inventory.requirements.iter().enumerate() {
        let at = format!("/requirements/{index}");
        let id = &requirement.id;
        if !is_requirement_id(id) {
            report(
                format!("{at}/id"),
                format!(
                    "{id:?} is not a requirement ID: `req-` and lowercase words of ASCII \
                     letters and digits joined by `-`"
                ),
            );
        }
        if !seen.insert(id.as_str()) {
            report(format!("{at}/id"), format!("`{id}` is listed twice"));
        }
        if !numbers.contains(requirement.top_section()) {
            report(
                format!("{at}/section"),
                format!(
                    "`{id}`: section {} is not under any listed section (`sections`)",
                    requirement.section
                ),
            );
        }
        if requirement.keywords.is_empty() {
            report(
                format!("{at}/keywords"),
                format!("`{id}` names no requirement keyword (MUST, SHOULD, ...)"),
            );
        }
        if requirement.statement.trim().is_empty() {
            report(
                format!("{at}/statement"),
                format!("`{id}` does not say what it requires"),
            );
        }
        if requirement
            .pending
            .as_deref()
            .is_some_and(|reason| reason.trim().is_empty())
        {
            report(
                format!("{at}/pending"),
                format!("`{id}` is pending without a reason: say what will cover it, and when"),
            );
        }
        match requirement.state() {
            State::Unstated => report(
                at.clone(),
                format!(
                    "`{id}` is checkable on a document ({}) but names no rule, no accepting \
                     fixture and no pending reason",
                    requirement.kind
                ),
            ),
            State::NotCheckable
                if !requirement.rules.is_empty()
                    || !requirement.accepted_by.is_empty()
                    || requirement.pending.is_some() =>
            {
                report(
                    at.clone(),
                    format!(
                        "`{id}` constrains a {} behaviour, which no finding on a document can \
                         show: it takes no `rules`, `accepted-by` or `pending` (or is its kind \
                         wrong?)",
                        requirement.kind
                    ),
                )
            }
            _ => {}
        }
        for (rule_index, rule) in requirement.rules.iter().enumerate() {
            // With a catalog that did not load, its rules are unknown here;
            // that catalog's own problem says what is wrong.
            if catalogs_complete && set.rules.get(rule).is_none() {
                report(
                    format!("{at}/rules/{rule_index}"),
                    format!("`{id}` names rule `{rule}`, which is in no catalog"),
                );
            }
        }
        // Likewise for the fixtures of a suite whose catalog did not load.
        let accepted_by = requirement.accepted_by.iter().filter(|_| catalogs_complete);
        for (fixture_index, fixture) in accepted_by.enumerate() {
            let valid = set
                .find(fixture)
                .and_then(|index| set.get(index))
                .map(|entry| entry.fixture.class);
            let message = match valid {
                Some(Class::Valid) => continue,
                Some(Class::Invalid) => format!(
                    "`{id}` is accepted by `{fixture}`, which is an expected-invalid fixture"
                ),
                None => format!("`{id}` is accepted by `{fixture}`, which is no fixture"),
            };
            report(format!("{at}/accepted-by/{fixture_index}"), message);
        }
        if let Some(restated) = &requirement.restates
            && !ids.contains(restated.as_str())
        {
            report(
                format!("{at}/restates"),
                format!("`{id}` restates `{restated}`, which is not in the inventory"),
            );
        }
    }
    if catalogs_complete {
        problems.extend(unrequired_rules(set));
    }
    problems
}

/// Whether every catalog file of the tree (`suites/<suite>.yaml`, beside
/// the suite's other data files) became a suite of `set`.
fn every_catalog_loaded(set: &SuiteSet) -> bool {
    let catalogs = set
        .tree
        .under("suites/")
        .filter(|(path, _)| !crate::suite::DATA_FILES.contains(path))
        .count();
    let refused = set
        .tree
        .refused()
        .filter(|(path, _)| path.starts_with("suites/"))
        .count();
    refused == 0 && catalogs == set.suites.len()
}

/// A problem, at the rule in its catalog, for each rule that no
/// requirement names: a rule checks something the specification requires,
/// and the inventory says what.
fn unrequired_rules(set: &SuiteSet) -> Vec<SuiteProblem> {
    let named: BTreeSet<&str> = set
        .requirements
        .requirements
        .iter()
        .flat_map(|requirement| requirement.rules.iter().map(String::as_str))
        .collect();
    let mut problems = Vec::new();
    for suite in &set.suites {
        let path = format!("suites/{}.yaml", suite.catalog.suite);
        for (index, rule) in suite.catalog.rules.iter().enumerate() {
            if named.contains(rule.id.as_str()) {
                continue;
            }
            let position = set.tree.get(&path).and_then(|bytes| {
                set.tree
                    .document(&path, bytes, mcpdesc_source::Format::Yaml)
                    .ok()
                    .and_then(|document| document.locations.get(&format!("/rules/{index}/id")))
            });
            problems.push(SuiteProblem {
                file: set.tree.display_path(&path),
                position,
                message: format!(
                    "rule `{}` is named by no requirement of {REQUIREMENTS_FILE}: add it to the \
                     `rules` of the requirements it checks",
                    rule.id
                ),
                kind: SuiteProblemKind::Broken,
            });
        }
    }
    problems
}

/// Whether `id` is a requirement ID: `req-`, then words of lowercase ASCII
/// letters and digits joined by single `-`.
pub fn is_requirement_id(id: &str) -> bool {
    id.strip_prefix("req-").is_some_and(|rest| {
        !rest.is_empty()
            && rest.split('-').all(|word| {
                !word.is_empty()
                    && word
                        .bytes()
                        .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requirement(kind: Kind, rules: &[&str], pending: Option<&str>) -> Requirement {
        Requirement {
            id: "req-a-b".into(),
            section: "3.2".into(),
            keywords: vec![Keyword::Must],
            statement: "Something holds.".into(),
            kind,
            rules: rules.iter().map(|rule| (*rule).to_owned()).collect(),
            accepted_by: Vec::new(),
            pending: pending.map(str::to_owned),
            restates: None,
            note: None,
        }
    }

    #[test]
    fn the_state_follows_the_kind_the_rules_and_the_reason() {
        let rule = &["mcpdesc.document.shape"];
        assert_eq!(
            requirement(Kind::Document, rule, None).state(),
            State::Covered
        );
        assert_eq!(
            requirement(Kind::Serialization, rule, Some("part")).state(),
            State::Partial
        );
        assert_eq!(
            requirement(Kind::Document, &[], Some("later")).state(),
            State::Pending
        );
        assert_eq!(
            requirement(Kind::Document, &[], None).state(),
            State::Unstated
        );
        for kind in [Kind::Runtime, Kind::Producer, Kind::Consumer] {
            assert_eq!(requirement(kind, &[], None).state(), State::NotCheckable);
        }
    }

    #[test]
    fn counts_share_the_covered_among_the_checkable() {
        let inventory = Inventory {
            sections: vec![Section {
                number: "3".into(),
                title: "Document Structure".into(),
                edition: "0.8.0".into(),
            }],
            requirements: vec![
                requirement(Kind::Document, &["r"], None),
                requirement(Kind::Document, &["r"], Some("rest")),
                requirement(Kind::Document, &[], Some("later")),
                requirement(Kind::Runtime, &[], None),
            ],
        };
        let coverage = inventory.coverage();
        let expected = Counts {
            requirements: 4,
            checkable: 3,
            covered: 1,
            partial: 1,
            pending: 1,
        };
        assert_eq!(coverage.total, expected);
        assert_eq!(coverage.sections, vec![("3".to_owned(), expected)]);
        assert!((expected.percent_covered() - 100.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn requirement_ids_are_req_and_kebab_words() {
        for id in ["req-a", "req-elicitation-form-ranges", "req-info-name2"] {
            assert!(is_requirement_id(id), "{id}");
        }
        for id in [
            "",
            "req-",
            "req--a",
            "req-a-",
            "req-A",
            "elicitation-x",
            "req-a_b",
        ] {
            assert!(!is_requirement_id(id), "{id}");
        }
    }
}
