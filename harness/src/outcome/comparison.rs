//! A case's comparison as data: the level it is judged at, the findings
//! it missed or added, and the reported findings that are wrong in
//! themselves. [`crate::judge::compare`] makes one from a reply.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use mcpdesc_protocol::Severity;

use crate::suite::expectation::{Finding, Findings};

/// How closely actual output must match the expectation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Errors or none, as expected.
    Verdict,
    /// The same set of rule IDs.
    Rules,
    /// The same set of (rule, pointer, severity).
    Exact,
}

impl Level {
    /// Every level, loosest first.
    pub const ALL: [Level; 3] = [Level::Verdict, Level::Rules, Level::Exact];

    /// The level's name on the command line and in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Verdict => "verdict",
            Level::Rules => "rules",
            Level::Exact => "exact",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|level| level.as_str() == text)
            .ok_or_else(|| format!("unknown level `{text}` (expected verdict, rules or exact)"))
    }
}

/// What is wrong with one reported finding, whatever the expectation says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    /// No catalog defines the rule.
    UnknownRule,
    /// The rule's catalog entry says it does not apply under the revision.
    NotApplicable,
    /// The pointer names nothing in the document.
    UnresolvedPointer,
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProblemKind::UnknownRule => "rule is not in any catalog",
            ProblemKind::NotApplicable => "rule does not apply under this revision",
            ProblemKind::UnresolvedPointer => "pointer does not resolve in the document",
        })
    }
}

/// A reported finding that is wrong in itself.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct OutputProblem {
    /// The finding.
    pub finding: Finding,
    /// What is wrong with it.
    pub kind: ProblemKind,
}

/// How many findings of each kind of difference a comparison keeps for the
/// report (unexpected findings, findings wrong in themselves); the rest are
/// counted. A validator may answer each case with thousands of findings,
/// and a run keeps the comparison of every case until it ends.
pub const KEPT_DIFFERENCES: usize = 100;

/// The outcome of comparing one case's actual findings with its expected
/// ones: the verdict at each level, and what a report shows of the
/// differences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// What the suite expects.
    pub expected: Findings,
    /// Expected findings the validator did not report.
    pub missing: Findings,
    /// Findings the validator reported that the suite does not expect: the
    /// first [`KEPT_DIFFERENCES`] of them, in order.
    pub unexpected: Findings,
    /// How many distinct findings the validator reported that the suite
    /// does not expect, kept or not.
    pub unexpected_count: usize,
    /// How many distinct findings the validator reported (repeats removed,
    /// messages dropped).
    pub actual_count: usize,
    /// Findings that are wrong whatever the expectation says: the first
    /// [`KEPT_DIFFERENCES`] of them.
    pub problems: Vec<OutputProblem>,
    /// How many findings are wrong whatever the expectation says, kept or
    /// not.
    pub problem_count: usize,
    /// The catalogued rules whose findings (expected or reported) were set
    /// aside, not judged, because the validator does not claim them; empty
    /// when it claims every rule involved.
    pub set_aside: BTreeSet<String>,
    /// Whether the case passes at each level, in [`Level::ALL`] order (set
    /// by the comparison, or read back from a report).
    pub(crate) passes: [bool; 3],
}

impl Comparison {
    /// Whether the case passes at `level`:
    ///
    /// - **verdict**: the validator reports an error exactly when the suite
    ///   expects one (warnings do not count);
    /// - **rules**: the set of reported rule IDs is the expected set, and
    ///   every reported rule is in a catalog and applies under the case's
    ///   revision; pointers are not looked at;
    /// - **exact**: the set of (rule, pointer, severity) findings is the
    ///   expected set, and every reported pointer names something in the
    ///   document.
    pub fn passes(&self, level: Level) -> bool {
        self.passes[level as usize]
    }

    /// The reported findings that were kept: every expected one the
    /// validator reported, and the unexpected ones kept. All of them when
    /// `unexpected_count` does not exceed [`KEPT_DIFFERENCES`].
    pub fn reported(&self) -> Findings {
        reported(&self.expected, &self.missing, &self.unexpected)
    }

    /// The judged rules of the case: those of its judged expected and
    /// reported findings (kept ones), and of its findings wrong in
    /// themselves, in order.
    pub fn rules(&self) -> BTreeSet<&str> {
        self.expected
            .iter()
            .chain(&self.unexpected)
            .chain(self.problems.iter().map(|problem| &problem.finding))
            .map(|finding| finding.rule.as_str())
            .collect()
    }

    /// Whether `rule`'s own findings agree at each level, in
    /// [`Level::ALL`] order, whatever the other rules of the case do: the
    /// rule's expected and reported findings hold an error alike
    /// (verdict); both are empty or neither, and none of its reported
    /// findings is wrong in itself as a rule (rules); they are the same
    /// set, and none is wrong in itself (exact). A per-rule rate counts
    /// this, so that one rule's failure is not charged to every rule of
    /// the case.
    pub fn rule_passes(&self, rule: &str) -> [bool; 3] {
        let of_rule = |findings: &Findings| -> Findings {
            findings
                .iter()
                .filter(|finding| finding.rule == rule)
                .cloned()
                .collect()
        };
        let expected = of_rule(&self.expected);
        let reported = of_rule(&self.reported());
        let problems = || {
            self.problems
                .iter()
                .filter(|problem| problem.finding.rule == rule)
        };
        let rule_problem = problems().any(|problem| problem.kind != ProblemKind::UnresolvedPointer);
        [
            has_error(&expected) == has_error(&reported),
            !rule_problem && expected.is_empty() == reported.is_empty(),
            problems().next().is_none() && expected == reported,
        ]
    }
}

impl Comparison {
    /// [`Comparison::rule_passes`] of every rule of [`Comparison::rules`],
    /// found in one pass over the findings instead of one per rule (a case
    /// may involve hundreds of rules).
    pub fn rules_passes(&self) -> BTreeMap<&str, [bool; 3]> {
        #[derive(Default)]
        struct Parts<'a> {
            expected: Findings,
            reported: Vec<&'a Finding>,
            rule_problem: bool,
            problem: bool,
        }
        let mut parts: BTreeMap<&str, Parts<'_>> = BTreeMap::new();
        for finding in &self.expected {
            let part = parts.entry(finding.rule.as_str()).or_default();
            part.expected.insert(finding.clone());
        }
        let missing = &self.missing;
        for finding in self
            .expected
            .iter()
            .filter(|finding| !missing.contains(*finding))
            .chain(&self.unexpected)
        {
            parts
                .entry(finding.rule.as_str())
                .or_default()
                .reported
                .push(finding);
        }
        for problem in &self.problems {
            let part = parts.entry(problem.finding.rule.as_str()).or_default();
            part.problem = true;
            part.rule_problem |= problem.kind != ProblemKind::UnresolvedPointer;
        }
        parts
            .into_iter()
            .map(|(rule, part)| {
                let reported: Findings = part.reported.into_iter().cloned().collect();
                let passes = [
                    has_error(&part.expected) == has_error(&reported),
                    !part.rule_problem && part.expected.is_empty() == reported.is_empty(),
                    !part.problem && part.expected == reported,
                ];
                (rule, passes)
            })
            .collect()
    }
}

/// Whether `findings` hold an error (warnings do not count).
pub(crate) fn has_error(findings: &Findings) -> bool {
    findings
        .iter()
        .any(|finding| finding.severity == Severity::Error)
}

/// The findings a validator reported, rebuilt from a comparison's parts:
/// the expected ones it did not miss, and the unexpected ones.
pub(crate) fn reported(expected: &Findings, missing: &Findings, unexpected: &Findings) -> Findings {
    expected
        .difference(missing)
        .chain(unexpected)
        .cloned()
        .collect()
}
