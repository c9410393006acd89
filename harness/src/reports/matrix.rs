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
use crate::reports::{ComparisonRecord, Named, OutcomeRecord, PassesRecord, Report};
use crate::suite::SuiteSet;
use crate::suite::expectation::Finding;

/// Reports that cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatrixError {
    /// No report was given.
    #[error("no report to compare")]
    NoReports,
    /// A report lists a case twice: it would be counted twice.
    #[error("{}: the case {case} is listed twice; a report has each case once", path.display())]
    Duplicate {
        /// The report.
        path: PathBuf,
        /// The case ID.
        case: String,
    },
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
        for Named { path, report, .. } in reports {
            if let Some(case) = duplicate(report) {
                return Err(MatrixError::Duplicate {
                    path: path.to_path_buf(),
                    case: case.to_owned(),
                });
            }
        }
        let count = reports.len();
        // Each case of each report is judged once, rule by rule: a case
        // may have hundreds of findings of hundreds of rules, and judging
        // it again for each rule made the matrix quadratic in them.
        let mut views: Vec<BTreeMap<&str, View>> = vec![BTreeMap::new(); count];
        // Per rule: cells per implementation, overall and per revision, and
        // the IDs of the cases that involve it.
        let mut rules: BTreeMap<String, RuleRow> = BTreeMap::new();
        let mut involved: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
        for (column, Named { report, .. }) in reports.iter().enumerate() {
            for case in &report.cases {
                let Some(comparison) = case.outcome.comparison() else {
                    continue;
                };
                let view = View::of(comparison, case.passes, level);
                let judged = matches!(case.outcome, OutcomeRecord::Compared(_));
                // Each rule is judged on its own findings, as `run` counts
                // it: a case that fails on one rule is not a failure of
                // the others.
                for (rule, passes) in &view.passes {
                    involved.entry(rule.clone()).or_default().insert(&case.id);
                    let row = rules.entry(rule.clone()).or_insert_with(|| RuleRow {
                        rule: rule.clone(),
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
                            cell.passed += usize::from(*passes);
                        }
                    }
                }
                views[column].insert(&case.id, view);
            }
        }
        // Each report's cases by ID, to put answers side by side.
        let by_id: Vec<BTreeMap<&str, &crate::reports::CaseRecord>> =
            reports.iter().map(|named| named.by_id()).collect();
        for (rule, row) in &mut rules {
            for id in involved.get(rule.as_str()).into_iter().flatten() {
                let mut expected = None;
                let answers: Vec<Answer> = by_id
                    .iter()
                    .zip(&mut views)
                    .map(|(cases, views)| match cases.get(id) {
                        None => Answer::Absent,
                        // A rule it does not claim to check: its silence is
                        // no disagreement.
                        Some(case) if unclaims(&case.outcome, rule) => {
                            Answer::Other("unclaimed".to_owned())
                        }
                        Some(case) => match (case.outcome.comparison(), views.get_mut(id)) {
                            (Some(comparison), Some(view)) => {
                                if expected.is_none() {
                                    expected = Some(
                                        comparison
                                            .expected
                                            .iter()
                                            .filter(|finding| finding.rule == *rule)
                                            .cloned()
                                            .collect(),
                                    );
                                }
                                view.answer(rule)
                            }
                            _ => Answer::Other(case.outcome.kind().to_owned()),
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

/// A case ID that `report` lists more than once, if any.
pub(crate) fn duplicate(report: &Report) -> Option<&str> {
    let mut seen = BTreeSet::new();
    report
        .cases
        .iter()
        .map(|case| case.id.as_str())
        .find(|id| !seen.insert(*id))
}

/// One report's compared or unclaimed case, judged once for every rule it
/// involves.
#[derive(Debug, Clone, Default)]
struct View {
    /// Whether each rule's own findings agree at the matrix's level.
    passes: BTreeMap<String, bool>,
    /// The rules whose findings disagree at the level, when the case is
    /// judged (empty otherwise).
    failing: Vec<String>,
    /// Whether the case is judged at the level.
    judged: bool,
    /// The reported findings, by rule; each is taken by the one answer
    /// that shows it.
    reported: BTreeMap<String, BTreeSet<Finding>>,
    /// Whether the report kept all its findings.
    complete: bool,
}

impl View {
    fn of(comparison: &ComparisonRecord, passes: PassesRecord, level: Level) -> View {
        let judged = passes.at(level).is_some();
        let whole = comparison.clone().comparison(passes);
        let passes: BTreeMap<String, bool> = whole
            .rules_passes()
            .into_iter()
            .map(|(rule, passes)| (rule.to_owned(), passes[level as usize]))
            .collect();
        let failing = passes
            .iter()
            .filter(|(_, passes)| judged && !**passes)
            .map(|(rule, _)| rule.clone())
            .collect();
        let mut reported: BTreeMap<String, BTreeSet<Finding>> = BTreeMap::new();
        for finding in whole.reported() {
            reported
                .entry(finding.rule.clone())
                .or_default()
                .insert(finding);
        }
        View {
            passes,
            failing,
            judged,
            reported,
            complete: comparison.complete(),
        }
    }

    /// The answer of the case as far as `rule` goes (asked once per rule).
    fn answer(&mut self, rule: &str) -> Answer {
        Answer::Findings {
            findings: self.reported.remove(rule).unwrap_or_default(),
            complete: self.complete,
            // A rule without findings on either side agrees.
            passes: self
                .judged
                .then(|| self.passes.get(rule).copied().unwrap_or(true)),
            failing_rules: self
                .failing
                .iter()
                .filter(|other| *other != rule)
                .cloned()
                .collect(),
        }
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
