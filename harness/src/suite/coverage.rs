//! Coverage: for each rule and revision, how many invalid cases trigger the
//! rule and how many valid cases exercise the places it looks at.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcpdesc_protocol::Revision;

use crate::suite::SuiteSet;
use crate::suite::fixture::Class;

/// One cell of the coverage table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// The rule does not apply under this revision.
    NotApplicable,
    /// The rule applies but no document can break it here; only valid
    /// cases are counted.
    CannotFire {
        /// Valid cases that exercise the rule.
        valid: usize,
    },
    /// The rule applies.
    Counted {
        /// Invalid cases whose expectation reports the rule.
        invalid: usize,
        /// Valid cases that exercise the rule.
        valid: usize,
    },
}

impl Cell {
    /// Whether an invalid case is missing where one is needed.
    pub fn lacks_invalid(self) -> bool {
        matches!(self, Cell::Counted { invalid: 0, .. })
    }

    fn valid(self) -> usize {
        match self {
            Cell::NotApplicable => 0,
            Cell::CannotFire { valid } | Cell::Counted { valid, .. } => valid,
        }
    }
}

/// The coverage of one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCoverage {
    /// The rule ID.
    pub rule: String,
    /// One cell per revision.
    pub cells: BTreeMap<Revision, Cell>,
}

impl RuleCoverage {
    /// Whether no valid case exercises the rule under any revision.
    pub fn lacks_valid(&self) -> bool {
        self.cells.values().all(|cell| cell.valid() == 0)
    }
}

/// The rule-by-revision coverage of a suite set, rules in catalog order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// The suite's revisions, oldest first: the table's columns.
    pub revisions: Vec<Revision>,
    /// One row per rule.
    pub rows: Vec<RuleCoverage>,
}

impl Coverage {
    /// Computes the coverage of `set` from its expectations (invalid cases)
    /// and from where its valid fixtures have values (valid cases).
    pub fn of(set: &SuiteSet) -> Coverage {
        let mut rows = Vec::new();
        for suite in &set.suites {
            for rule in &suite.catalog.rules {
                let mut cells = BTreeMap::new();
                for revision in set.revisions.iter() {
                    let cell = if !rule.applicability.applies_to(revision) {
                        Cell::NotApplicable
                    } else {
                        let (mut invalid, mut valid) = (0, 0);
                        for entry in set.suites.iter().flat_map(|suite| &suite.entries) {
                            // A serialization case whose text does not load
                            // counts where it is invalid; where a valid one
                            // exercises a rule needs its values.
                            let (Ok(expectation), None) =
                                (&entry.expectation, entry.fixture.load_problem())
                            else {
                                continue;
                            };
                            let Some(findings) = expectation.revisions.get(&revision) else {
                                continue;
                            };
                            match (entry.fixture.class, &entry.fixture.document) {
                                (Class::Invalid, _) => {
                                    if findings.iter().any(|finding| finding.rule == rule.id) {
                                        invalid += 1;
                                    }
                                }
                                (Class::Valid, Ok(document)) => {
                                    if rule.exercised_by(document.locations.pointers()) {
                                        valid += 1;
                                    }
                                }
                                (Class::Valid, Err(_)) => {}
                            }
                        }
                        if rule.cannot_fire_under.contains(&revision) {
                            Cell::CannotFire { valid }
                        } else {
                            Cell::Counted { invalid, valid }
                        }
                    };
                    cells.insert(revision, cell);
                }
                rows.push(RuleCoverage {
                    rule: rule.id.clone(),
                    cells,
                });
            }
        }
        Coverage {
            revisions: set.revisions.iter().collect(),
            rows,
        }
    }

    /// The gaps, one sentence each: applicable (rule, revision) pairs that no
    /// invalid case triggers, and rules that no valid case exercises.
    pub fn gaps(&self) -> Vec<String> {
        let mut gaps = Vec::new();
        for row in &self.rows {
            for (revision, cell) in &row.cells {
                if cell.lacks_invalid() {
                    gaps.push(format!(
                        "no invalid case triggers `{}` under {revision}",
                        row.rule
                    ));
                }
            }
            if row.lacks_valid() {
                gaps.push(format!("no valid case exercises `{}`", row.rule));
            }
        }
        gaps
    }

    /// The table, with a legend: each cell is `invalid/valid` case counts,
    /// `n/a` where the rule does not apply, `-` for the invalid count where
    /// it cannot fire, and `!` after a count that must not be zero.
    pub fn render(&self) -> String {
        let width = self
            .rows
            .iter()
            .map(|row| row.rule.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut text = String::new();
        let _ = write!(text, "{:<width$}", "rule");
        for revision in &self.revisions {
            let _ = write!(text, " {revision:>10}");
        }
        text.push('\n');
        for row in &self.rows {
            let _ = write!(text, "{:<width$}", row.rule);
            let no_valid = row.lacks_valid();
            for revision in &self.revisions {
                let cell = row
                    .cells
                    .get(revision)
                    .copied()
                    .unwrap_or(Cell::NotApplicable);
                let valid_mark = if no_valid { "!" } else { "" };
                let shown = match cell {
                    Cell::NotApplicable => "n/a".to_owned(),
                    Cell::CannotFire { valid } => format!("-/{valid}{valid_mark}"),
                    Cell::Counted { invalid, valid } => {
                        let invalid_mark = if invalid == 0 { "!" } else { "" };
                        format!("{invalid}{invalid_mark}/{valid}{valid_mark}")
                    }
                };
                let _ = write!(text, " {shown:>10}");
            }
            text.push('\n');
        }
        let _ = writeln!(
            text,
            "\ncells: invalid cases that trigger the rule / valid cases that exercise it; \
             n/a: the rule does not apply; -: the rule cannot fire there; !: a gap"
        );
        text
    }
}
