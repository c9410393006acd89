//! The comparison of implementations (`compare`): from the JSON reports of
//! several validators on one suite, a matrix of rules × implementations
//! (and × revisions), each cell a pass rate, with each rule's cases and
//! every implementation's findings side by side. This is data; the HTML
//! page and the Markdown tables are made from it by
//! [`crate::emit::matrix`].
//!
//! A cell counts as the run's own per-rule tallies do: the compared cases
//! that involve the rule (the suite expects it, or that implementation
//! reported it), and of those the ones that pass at the chosen level;
//! skipped and unclaimed cases are not judged, and a crash involves no
//! rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use mcpdesc_protocol::{Implementation, Revision};

use crate::outcome::comparison::Level;
use crate::reports::{Named, OutcomeRecord};
use crate::suite::SuiteSet;
use crate::suite::expectation::Finding;

/// Reports that cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatrixError {
    /// No report was given.
    #[error("no report to compare")]
    NoReports,
    /// A report is of another suite than the first.
    #[error(
        "{}: the report is of the suite {found}, but {} is of {expected}; compare reports of one suite",
        path.display(), first.display()
    )]
    Suite {
        /// The report.
        path: PathBuf,
        /// The first report.
        first: PathBuf,
        /// The first report's suite hash.
        expected: String,
        /// This report's.
        found: String,
    },
}

/// Why the fixtures cannot be shown beside the cases.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UnshownFixtures {
    /// The suite at hand is not the one the reports ran.
    #[error(
        "the fixtures are not shown: the reports are of the suite {reports}, but the suite \
         here ({source_name}) is {here}; give the suite they ran with --suite-dir"
    )]
    OtherSuite {
        /// The reports' suite hash.
        reports: String,
        /// The suite's at hand.
        here: String,
        /// Where the suite at hand comes from: a folder, or `built in`.
        source_name: String,
    },
}

/// A case's fixture, as the page shows it beside the case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFixture {
    /// What it says it tests (its `x-test` member).
    pub statement: Option<String>,
    /// Its source text, JSON or YAML as the suite holds it.
    pub text: String,
}

/// Passes out of judged cases: one cell of the matrix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cell {
    /// Cases that pass at the matrix's level.
    pub passed: usize,
    /// Cases judged.
    pub judged: usize,
}

impl Cell {
    /// The pass rate in percent, `None` when nothing was judged.
    pub fn rate(&self) -> Option<f64> {
        (self.judged > 0).then(|| 100.0 * self.passed as f64 / self.judged as f64)
    }
}

/// What one implementation answered on one case, as far as one rule goes.
/// A case that involves a rule the implementation does not claim is
/// `Other("unclaimed")` for that rule.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Answer {
    /// Its findings of the rule (compared or unclaimed case).
    Findings {
        /// The findings of the rule it reported.
        findings: BTreeSet<Finding>,
        /// Whether the report kept all its findings (a report keeps only
        /// the first unexpected ones).
        complete: bool,
        /// Whether the rule's own findings agree at the level (`None`: the
        /// case is not judged).
        passes: Option<bool>,
        /// The case's other rules whose findings disagree at the level: why
        /// the case fails when this rule does not make it fail.
        failing_rules: Vec<String>,
    },
    /// Another outcome, by the report's `kind` (`skipped`, `crashed`, …).
    Other(String),
    /// Its report does not have the case.
    Absent,
}

/// One case of a rule, with every implementation's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRow {
    /// The case ID.
    pub id: String,
    /// The findings of the rule the suite expects, when a report says.
    pub expected: Option<BTreeSet<Finding>>,
    /// One answer per implementation, in the reports' order.
    pub answers: Vec<Answer>,
    /// Whether implementations that answered with findings disagree.
    pub disagreement: bool,
    /// Its fixture, once [`Matrix::show_fixtures`] found it.
    pub fixture: Option<CaseFixture>,
}

/// One rule: its cells, overall and per revision, and its cases.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleRow {
    /// The rule ID.
    pub rule: String,
    /// One cell per implementation.
    pub cells: Vec<Cell>,
    /// Per revision, one cell per implementation.
    pub per_revision: BTreeMap<Revision, Vec<Cell>>,
    /// The cases where implementations disagree.
    pub disagreements: usize,
    /// Every case that involves the rule for some implementation, by ID.
    pub cases: Vec<CaseRow>,
}

/// The comparison of several implementations on one suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    /// The level the cells count passes at.
    pub level: Level,
    /// The suite's content hash.
    pub suite: String,
    /// The implementations, in the reports' order.
    pub implementations: Vec<Implementation>,
    /// Each column's heading, in the reports' order (see
    /// [`crate::reports::headings`]).
    pub headings: Vec<String>,
    /// Each report's file, as given, in the reports' order.
    pub files: Vec<PathBuf>,
    /// Each report's harness command line, in the reports' order.
    pub command_lines: Vec<Vec<String>>,
    /// Every rule that some implementation was judged or reported on, by
    /// rule ID.
    pub rules: Vec<RuleRow>,
}

impl Matrix {
    /// The matrix of `reports` (each with the file it came from) at
    /// `level`.
    ///
    /// # Errors
    ///
    /// No report, or reports of different suites.
    pub fn of(reports: &[Named<'_>], level: Level) -> Result<Matrix, MatrixError> {
        let Named {
            path: first_path,
            report: first,
            ..
        } = reports.first().ok_or(MatrixError::NoReports)?;
        for Named { path, report, .. } in reports {
            if report.run.suite.hash != first.run.suite.hash {
                return Err(MatrixError::Suite {
                    path: path.to_path_buf(),
                    first: first_path.to_path_buf(),
                    expected: first.run.suite.hash.clone(),
                    found: report.run.suite.hash.clone(),
                });
            }
        }
        let count = reports.len();
        // Per rule: cells per implementation, overall and per revision, and
        // the IDs of the cases that involve it.
        let mut rules: BTreeMap<String, RuleRow> = BTreeMap::new();
        let mut involved: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (column, Named { report, .. }) in reports.iter().enumerate() {
            for case in &report.cases {
                let Some(comparison) = case.outcome.comparison() else {
                    continue;
                };
                let judged = matches!(case.outcome, OutcomeRecord::Compared(_));
                // Each rule is judged on its own findings, as `run` counts
                // it: a case that fails on one rule is not a failure of
                // the others.
                let whole = comparison.clone().comparison(case.passes);
                let touched: BTreeSet<&str> = comparison
                    .expected
                    .iter()
                    .chain(&comparison.unexpected)
                    .chain(comparison.problems.iter().map(|problem| &problem.finding))
                    .map(|finding| finding.rule.as_str())
                    .collect();
                for rule in touched {
                    let passes = whole.rule_passes(rule)[level as usize];
                    involved.entry(rule).or_default().insert(&case.id);
                    let row = rules.entry(rule.to_owned()).or_insert_with(|| RuleRow {
                        rule: rule.to_owned(),
                        cells: vec![Cell::default(); count],
                        per_revision: BTreeMap::new(),
                        disagreements: 0,
                        cases: Vec::new(),
                    });
                    let by_revision = row
                        .per_revision
                        .entry(case.revision)
                        .or_insert_with(|| vec![Cell::default(); count]);
                    if judged {
                        for cell in [&mut row.cells[column], &mut by_revision[column]] {
                            cell.judged += 1;
                            cell.passed += usize::from(passes);
                        }
                    }
                }
            }
        }
        // Each report's cases by ID, to put answers side by side.
        let by_id: Vec<BTreeMap<&str, &crate::reports::CaseRecord>> =
            reports.iter().map(|named| named.by_id()).collect();
        for (rule, row) in &mut rules {
            for id in involved.get(rule.as_str()).into_iter().flatten() {
                let of_rule = |findings: &mut dyn Iterator<Item = &Finding>| {
                    findings
                        .filter(|finding| finding.rule == *rule)
                        .cloned()
                        .collect::<BTreeSet<_>>()
                };
                let mut expected = None;
                let answers: Vec<Answer> = by_id
                    .iter()
                    .map(|cases| match cases.get(id) {
                        None => Answer::Absent,
                        // A rule it does not claim to check: its silence is
                        // no disagreement.
                        Some(case) if unclaims(&case.outcome, rule) => {
                            Answer::Other("unclaimed".to_owned())
                        }
                        Some(case) => match case.outcome.comparison() {
                            Some(comparison) => {
                                if expected.is_none() {
                                    expected = Some(of_rule(&mut comparison.expected.iter()));
                                }
                                // Whether the rule's own findings agree,
                                // whatever the case's other rules do, and
                                // which other rules make the case fail.
                                let whole = comparison.clone().comparison(case.passes);
                                let judged = case.passes.at(level).is_some();
                                let passes =
                                    judged.then(|| whole.rule_passes(rule)[level as usize]);
                                let failing_rules = whole
                                    .rules()
                                    .into_iter()
                                    .filter(|other| {
                                        judged
                                            && *other != rule.as_str()
                                            && !whole.rule_passes(other)[level as usize]
                                    })
                                    .map(str::to_owned)
                                    .collect();
                                Answer::Findings {
                                    findings: of_rule(&mut comparison.reported().iter()),
                                    complete: comparison.complete(),
                                    passes,
                                    failing_rules,
                                }
                            }
                            None => Answer::Other(case.outcome.kind().to_owned()),
                        },
                    })
                    .collect();
                let mut answered = answers.iter().filter_map(|answer| match answer {
                    Answer::Findings { findings, .. } => Some(findings),
                    _ => None,
                });
                let disagreement = answered
                    .next()
                    .is_some_and(|first| answered.any(|other| other != first));
                row.disagreements += usize::from(disagreement);
                row.cases.push(CaseRow {
                    id: (*id).to_owned(),
                    expected,
                    answers,
                    disagreement,
                    fixture: None,
                });
            }
        }
        Ok(Matrix {
            level,
            suite: first.run.suite.hash.clone(),
            implementations: reports
                .iter()
                .map(|named| named.report.run.implementation.clone())
                .collect(),
            headings: crate::reports::headings(reports),
            files: reports
                .iter()
                .map(|named| named.path.to_path_buf())
                .collect(),
            command_lines: reports
                .iter()
                .map(|named| named.report.run.command_line.clone())
                .collect(),
            rules: rules.into_values().collect(),
        })
    }

    /// Puts each case's fixture from `set` beside it, when `set` is the
    /// suite the reports ran (by content hash): a fixture of another suite
    /// could say something other than what was judged.
    ///
    /// # Errors
    ///
    /// `set` is another suite; no fixture is shown then.
    pub fn show_fixtures(&mut self, set: &SuiteSet) -> Result<(), UnshownFixtures> {
        let here = set.tree.content_hash();
        if here != self.suite {
            return Err(UnshownFixtures::OtherSuite {
                reports: self.suite.clone(),
                here,
                source_name: set.tree.source(),
            });
        }
        for case in self.rules.iter_mut().flat_map(|row| &mut row.cases) {
            let fixture = case
                .id
                .split_once('@')
                .map_or(case.id.as_str(), |(id, _)| id);
            case.fixture = set
                .find(fixture)
                .and_then(|index| set.get(index))
                .map(|entry| CaseFixture {
                    statement: entry.fixture.statement().map(str::to_owned),
                    text: entry.fixture.text.clone(),
                });
        }
        Ok(())
    }

    /// Every revision some rule has a cell under, in revision order.
    pub fn revisions(&self) -> BTreeSet<Revision> {
        self.rules
            .iter()
            .flat_map(|row| row.per_revision.keys().copied())
            .collect()
    }
}

/// Whether `outcome` sets `rule` aside: an unclaimed case whose unclaimed
/// rules hold it, or a compared one judged without it.
fn unclaims(outcome: &OutcomeRecord, rule: &str) -> bool {
    match outcome {
        OutcomeRecord::Unclaimed {
            unclaimed_rules, ..
        } => unclaimed_rules.contains(rule),
        OutcomeRecord::Compared(comparison) => comparison.set_aside.contains(rule),
        _ => false,
    }
}
