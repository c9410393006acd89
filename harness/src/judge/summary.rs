//! Counting results: pass rates per level, per revision and overall.

use std::collections::BTreeMap;

use mcpdesc_protocol::Revision;

use crate::outcome::comparison::Level;
use crate::outcome::mark::Mark;
use crate::outcome::{CaseResult, Outcome};

/// Counts for one group of cases (one revision, or all).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases run or attempted.
    pub cases: usize,
    /// Cases skipped; they count neither as passes nor as failures.
    pub skipped: usize,
    /// Cases that involve rules the validator does not claim; they count
    /// neither as passes nor as failures.
    pub unclaimed: usize,
    /// Cases that ended without a comparison: a crash, a timeout, a
    /// protocol error, a validator error, not run, or a suite error.
    pub errors: usize,
    /// Passes at each level, in [`Level::ALL`] order.
    pub passed: [usize; 3],
    /// Cases the run did not finish because it was interrupted; they are
    /// not counted in `cases`.
    pub interrupted: usize,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        if *outcome == Outcome::Interrupted {
            self.interrupted += 1;
            return;
        }
        self.cases += 1;
        match outcome {
            Outcome::Skipped(_) => self.skipped += 1,
            Outcome::Unclaimed(_) => self.unclaimed += 1,
            Outcome::Compared(_) => {}
            _ => self.errors += 1,
        }
        for (index, level) in Level::ALL.into_iter().enumerate() {
            if outcome.passes(level) == Some(true) {
                self.passed[index] += 1;
            }
        }
    }

    /// Counts one case for one rule whose own findings agree at each level
    /// as `passes` says ([`crate::outcome::Comparison::rule_passes`]).
    fn add_rule(&mut self, passes: [bool; 3]) {
        self.cases += 1;
        for (passed, passes) in self.passed.iter_mut().zip(passes) {
            *passed += usize::from(passes);
        }
    }

    /// Cases that count towards pass rates (all but the skipped and the
    /// unclaimed).
    pub fn judged(&self) -> usize {
        self.cases - self.skipped - self.unclaimed
    }

    /// Passes at `level`.
    pub fn passed_at(&self, level: Level) -> usize {
        self.passed[level as usize]
    }

    /// Failures at `level`.
    pub fn failed_at(&self, level: Level) -> usize {
        self.judged() - self.passed_at(level)
    }

    /// The pass rate at `level` as every output writes it, `None` when
    /// nothing was judged.
    pub fn percent(&self, level: Level) -> Option<Percent> {
        Percent::of(self.passed_at(level), self.judged())
    }

    /// The pass rate at `level` in percent, `None` when nothing was judged.
    pub fn rate(&self, level: Level) -> Option<f64> {
        let judged = self.judged();
        (judged > 0).then(|| 100.0 * self.passed_at(level) as f64 / judged as f64)
    }
}

/// A pass rate as every output writes it (tables, summaries, badges, the
/// comparison page, statements): in percent, **rounded down** to a tenth,
/// so that a rate never reads higher than it is: 141 of 414 is `34.0%`,
/// 9996 of 10000 is `99.9%`, and `100.0%` means that every case passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Percent {
    /// Tenths of a percent, rounded down.
    permille: u128,
}

impl Percent {
    /// The rate of `passed` out of `judged`; `None` when `judged` is 0.
    pub fn of(passed: usize, judged: usize) -> Option<Percent> {
        let (passed, judged) = (passed.min(judged) as u128, judged as u128);
        (judged > 0).then(|| Percent {
            permille: passed * 1000 / judged,
        })
    }

    /// Whether it is `100.0%`: every case passed.
    pub fn is_whole(self) -> bool {
        self.permille == 1000
    }
}

impl std::fmt::Display for Percent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = format!("{}.{}%", self.permille / 10, self.permille % 10);
        // Padding and alignment as for any text, for the tables.
        f.pad(&text)
    }
}

/// Tallies per revision, per rule and overall.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// One tally per revision that had cases, in revision order.
    pub per_revision: BTreeMap<Revision, Tally>,
    /// One tally per rule, over the compared cases whose judged findings
    /// involve it (the suite expects it, or the validator reported it),
    /// each counted as passing where the rule's own findings agree, in rule
    /// order.
    pub per_rule: BTreeMap<String, Tally>,
    /// The same per rule and revision: the rule × revision matrix.
    pub per_rule_revision: BTreeMap<(String, Revision), Tally>,
    /// All cases together.
    pub total: Tally,
    /// Failing cases the run's baseline lists: they do not fail the run.
    pub known_failures: usize,
    /// Passing cases the run's baseline lists as failures: stale entries,
    /// which fail the run.
    pub stale: usize,
}

impl Summary {
    /// The rules in the order a report lists them: the most failures at
    /// `level` first, then by name.
    pub fn rules_by_failures(&self, level: Level) -> Vec<(&str, &Tally)> {
        let mut rules: Vec<(&str, &Tally)> = self
            .per_rule
            .iter()
            .map(|(rule, tally)| (rule.as_str(), tally))
            .collect();
        rules.sort_by(|a, b| {
            b.1.failed_at(level)
                .cmp(&a.1.failed_at(level))
                .then_with(|| a.0.cmp(b.0))
        });
        rules
    }

    /// Tallies `results`.
    pub fn of(results: &[CaseResult]) -> Summary {
        let mut summary = Summary::default();
        for result in results {
            match result.baseline {
                Some(Mark::Known { .. }) => summary.known_failures += 1,
                Some(Mark::Stale { .. }) => summary.stale += 1,
                _ => {}
            }
            if result.outcome == Outcome::Interrupted {
                // Counted once, overall: a revision with no finished case
                // gets no row.
                summary.total.add(&result.outcome);
                continue;
            }
            summary
                .per_revision
                .entry(result.revision)
                .or_default()
                .add(&result.outcome);
            summary.total.add(&result.outcome);
            // A rule is judged on its own findings: the case's other rules
            // do not charge it with their failures, and the rules set aside
            // (not claimed) are not counted at all.
            if let Outcome::Compared(comparison) = &result.outcome {
                for rule in comparison.rules() {
                    let passes = comparison.rule_passes(rule);
                    summary
                        .per_rule
                        .entry(rule.to_owned())
                        .or_default()
                        .add_rule(passes);
                    summary
                        .per_rule_revision
                        .entry((rule.to_owned(), result.revision))
                        .or_default()
                        .add_rule(passes);
                }
            }
        }
        summary
    }
}
