//! Comparing what a validator reported with what the suite expects.

use std::collections::BTreeSet;

use mcpdesc_protocol::{Diagnostic, Revision};
use serde_json::Value;

use crate::outcome::claims;
use crate::outcome::comparison::{
    Comparison, KEPT_DIFFERENCES, OutputProblem, ProblemKind, has_error,
};
use crate::suite::catalog::RuleIndex;
use crate::suite::expectation::{Finding, Findings};

impl Comparison {
    /// Compares `actual` with `expected` for a case of `document` under
    /// `revision`, and checks each actual finding against the catalogs:
    /// every rule is judged. Each reported pointer must name a value in
    /// `document`; with no document (a serialization case whose text the
    /// harness cannot load), pointers are compared with the expectation
    /// only.
    pub fn new(
        expected: Findings,
        actual: &[Diagnostic],
        rules: &RuleIndex,
        document: Option<&Value>,
        revision: Revision,
    ) -> Comparison {
        Comparison::claimed(expected, actual, rules, document, revision, None)
    }

    /// [`Comparison::new`] for a validator that lists the rules it claims
    /// (`None`: it lists none, and every rule is judged). The findings of
    /// catalogued rules it does not claim are set aside on both sides and
    /// named in [`Comparison::set_aside`]; a reported rule that is in no
    /// catalog, or does not apply under `revision`, is judged whatever it
    /// claims (see [`crate::outcome::claims`]).
    pub fn claimed(
        expected: Findings,
        actual: &[Diagnostic],
        rules: &RuleIndex,
        document: Option<&Value>,
        revision: Revision,
        listed: Option<&[String]>,
    ) -> Comparison {
        let mut set_aside = BTreeSet::new();
        let mut judged = |finding: &Finding| {
            let judged = claims::judges(listed, &finding.rule, rules, revision);
            if !judged {
                set_aside.insert(finding.rule.clone());
            }
            judged
        };
        let expected: Findings = if listed.is_none() {
            expected
        } else {
            expected
                .into_iter()
                .filter(|finding| judged(finding))
                .collect()
        };
        let actual: Findings = actual
            .iter()
            .map(Finding::of)
            .filter(|finding| judged(finding))
            .collect();
        let mut problems = Vec::new();
        let mut problem_count = 0;
        // Problems with the rule itself (unknown, or not under this
        // revision) fail the rules level; a pointer that names nothing is
        // an exact-level matter, as pointers are.
        let mut rule_problems = 0;
        let mut report = |finding: &Finding, kind| {
            problem_count += 1;
            if kind != ProblemKind::UnresolvedPointer {
                rule_problems += 1;
            }
            // Counted all, kept few: this outlives the run's every case.
            if problems.len() < KEPT_DIFFERENCES {
                problems.push(OutputProblem {
                    finding: finding.clone(),
                    kind,
                });
            }
        };
        for finding in &actual {
            match rules.get(&finding.rule) {
                None => report(finding, ProblemKind::UnknownRule),
                Some(rule) if !rule.applicability.applies_to(revision) => {
                    report(finding, ProblemKind::NotApplicable);
                }
                Some(_) => {}
            }
            if let Some(document) = document
                && mcpdesc_source::pointer::resolve(document, &finding.path).is_none()
            {
                report(finding, ProblemKind::UnresolvedPointer);
            }
        }
        // Most cases match exactly; then the rule sets match too, and need
        // not be built.
        let same = expected == actual;
        let passes = [
            same || has_error(&expected) == has_error(&actual),
            rule_problems == 0 && (same || rule_ids(&expected) == rule_ids(&actual)),
            problem_count == 0 && same,
        ];
        let missing: Findings = expected.difference(&actual).cloned().collect();
        let unexpected_count = actual.difference(&expected).count();
        let unexpected: Findings = actual
            .difference(&expected)
            .take(KEPT_DIFFERENCES)
            .cloned()
            .collect();
        Comparison {
            actual_count: actual.len(),
            expected,
            missing,
            unexpected,
            unexpected_count,
            problems,
            problem_count,
            set_aside,
            passes,
        }
    }
}

fn rule_ids(findings: &Findings) -> std::collections::BTreeSet<&str> {
    findings
        .iter()
        .map(|finding| finding.rule.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::comparison::Level;
    use crate::suite::catalog::Catalog;
    use mcpdesc_protocol::Severity;
    use serde_json::json;

    fn rules() -> RuleIndex {
        let catalog: Catalog = mcpdesc_source::parse_yaml(
            "c.yaml",
            br#"
suite: s
title: t
description: d
specification: 0.9.0
rules:
  - {id: mcpdesc.a, title: t, summary: s, requirement: r, owner: mcpdesc, surface: s, path: p, kind: k,
     level: must, severity: error, status: internal, enforcement: internal, applicability: independent,
     exercised-at: [""]}
  - id: mcpdesc.b
    title: t
    summary: s
    requirement: r
    owner: mcpdesc
    surface: s
    path: p
    kind: k
    level: must
    severity: warning
    status: internal
    enforcement: internal
    applicability: {2024-11-05: applies, 2025-03-26: applies, 2025-06-18: not-applicable,
                    2025-11-25: not-applicable, 2026-07-28: not-applicable}
    exercised-at: [""]
"#,
        )
        .unwrap();
        assert_eq!(catalog.problems(&crate::suite::builtin_revisions()), []);
        RuleIndex::new([&catalog])
    }

    fn finding(rule: &str, path: &str, severity: Severity) -> Finding {
        Finding {
            rule: rule.into(),
            path: path.into(),
            severity,
        }
    }

    fn diagnostic(rule: &str, path: &str, severity: Severity) -> Diagnostic {
        Diagnostic::new(rule, path, severity).with_message("ignored")
    }

    fn compare(expected: &[Finding], actual: &[Diagnostic], revision: Revision) -> Comparison {
        let document = json!({"a": [1, {"b/c": 2}]});
        Comparison::new(
            expected.iter().cloned().collect(),
            actual,
            &rules(),
            Some(&document),
            revision,
        )
    }

    fn levels(comparison: &Comparison) -> [bool; 3] {
        Level::ALL.map(|level| comparison.passes(level))
    }

    const R: Revision = Revision::of("2025-06-18");

    /// The per-rule verdicts found in one pass are those found rule by
    /// rule.
    #[test]
    fn every_rules_verdict_at_once_is_each_rules_verdict() {
        let expected = [
            finding("mcpdesc.a", "/a/0", Severity::Error),
            finding("mcpdesc.a", "/a/1", Severity::Error),
            finding("mcpdesc.b", "/a/0", Severity::Warning),
        ];
        let actual = [
            diagnostic("mcpdesc.a", "/a/0", Severity::Error),
            diagnostic("mcpdesc.b", "/nothing", Severity::Warning),
            diagnostic("mcpdesc.unknown", "/a/0", Severity::Error),
        ];
        for revision in [R, Revision::of("2024-11-05")] {
            let comparison = compare(&expected, &actual, revision);
            let all = comparison.rules_passes();
            assert_eq!(
                all.keys().copied().collect::<BTreeSet<_>>(),
                comparison.rules()
            );
            for (rule, passes) in all {
                assert_eq!(passes, comparison.rule_passes(rule), "{rule}");
            }
        }
    }

    #[test]
    fn identical_sets_pass_every_level_and_repeats_count_once() {
        let expected = [finding("mcpdesc.a", "/a/1/b~1c", Severity::Error)];
        let actual = [
            diagnostic("mcpdesc.a", "/a/1/b~1c", Severity::Error),
            diagnostic("mcpdesc.a", "/a/1/b~1c", Severity::Error),
        ];
        assert_eq!(levels(&compare(&expected, &actual, R)), [true, true, true]);
    }

    #[test]
    fn another_pointer_fails_only_exact() {
        let expected = [finding("mcpdesc.a", "/a/0", Severity::Error)];
        let actual = [diagnostic("mcpdesc.a", "/a/1", Severity::Error)];
        assert_eq!(levels(&compare(&expected, &actual, R)), [true, true, false]);
    }

    #[test]
    fn a_missing_rule_fails_rules_and_exact_but_not_the_verdict() {
        let expected = [
            finding("mcpdesc.a", "/a/0", Severity::Error),
            finding("mcpdesc.a", "/a/1", Severity::Error),
        ];
        let actual = [diagnostic("mcpdesc.a", "/a/0", Severity::Error)];
        assert_eq!(levels(&compare(&expected, &actual, R)), [true, true, false]);
        let actual = [diagnostic("mcpdesc.b", "/a/0", Severity::Error)];
        let comparison = compare(&expected, &actual, Revision::of("2024-11-05"));
        assert_eq!(levels(&comparison), [true, false, false]);
    }

    /// Pointers are an exact-level matter: at the rules level a pointer
    /// that names nothing does not fail a case whose rule IDs agree, even
    /// when the expectation lists the same finding.
    #[test]
    fn a_pointer_that_names_nothing_fails_only_exact() {
        let expected = [finding("mcpdesc.a", "/a/0", Severity::Error)];
        let actual = [diagnostic("mcpdesc.a", "/nothing", Severity::Error)];
        assert_eq!(levels(&compare(&expected, &actual, R)), [true, true, false]);
        let expected = [finding("mcpdesc.a", "/nothing", Severity::Error)];
        assert_eq!(levels(&compare(&expected, &actual, R)), [true, true, false]);
        // A rule outside its revision still fails the rules level.
        let actual = [diagnostic("mcpdesc.b", "/a/0", Severity::Warning)];
        let expected = [finding("mcpdesc.b", "/a/0", Severity::Warning)];
        assert_eq!(
            levels(&compare(&expected, &actual, R)),
            [true, false, false]
        );
    }

    /// A serialization case whose text does not load has no document:
    /// its pointers are not checked against one, only compared with the
    /// expectation, and a rule problem still counts.
    #[test]
    fn without_a_document_pointers_are_compared_but_not_resolved() {
        let without = |expected: &[Finding], actual: &[Diagnostic]| {
            Comparison::new(
                expected.iter().cloned().collect(),
                actual,
                &rules(),
                None,
                R,
            )
        };
        let expected = [finding("mcpdesc.a", "/nothing", Severity::Error)];
        let actual = [diagnostic("mcpdesc.a", "/nothing", Severity::Error)];
        let comparison = without(&expected, &actual);
        assert_eq!(levels(&comparison), [true, true, true]);
        assert_eq!(comparison.problem_count, 0, "{comparison:?}");
        // With the document, the same finding names nothing.
        assert_eq!(levels(&compare(&expected, &actual, R)), [true, true, false]);
        let elsewhere = [diagnostic("mcpdesc.a", "/else", Severity::Error)];
        assert_eq!(levels(&without(&expected, &elsewhere)), [true, true, false]);
        let unknown = [diagnostic("mcpdesc.unknown", "/nothing", Severity::Error)];
        let comparison = without(&[], &unknown);
        assert_eq!(levels(&comparison), [false, false, false]);
        assert_eq!(
            comparison
                .problems
                .iter()
                .map(|problem| problem.kind)
                .collect::<Vec<_>>(),
            [ProblemKind::UnknownRule]
        );
    }

    #[test]
    fn a_warning_is_not_an_error_verdict() {
        let expected = [finding("mcpdesc.a", "/a", Severity::Error)];
        let actual = [diagnostic("mcpdesc.a", "/a", Severity::Warning)];
        assert_eq!(
            levels(&compare(&expected, &actual, R)),
            [false, true, false]
        );
        assert_eq!(levels(&compare(&[], &[], R)), [true, true, true]);
    }

    #[test]
    fn catalog_checks_report_wrong_findings_whatever_is_expected() {
        let actual = [
            diagnostic("mcpdesc.unknown", "", Severity::Error),
            diagnostic("mcpdesc.b", "/a", Severity::Warning),
            diagnostic("mcpdesc.a", "/a/2", Severity::Error),
            diagnostic("mcpdesc.a", "/a/1/b/c", Severity::Error),
        ];
        let expected: Vec<Finding> = actual.iter().map(Finding::of).collect();
        let comparison = compare(&expected, &actual, R);
        let kinds: Vec<_> = comparison
            .problems
            .iter()
            .map(|p| (p.finding.path.as_str(), p.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("/a/1/b/c", ProblemKind::UnresolvedPointer),
                ("/a/2", ProblemKind::UnresolvedPointer),
                ("/a", ProblemKind::NotApplicable),
                ("", ProblemKind::UnknownRule),
            ]
        );
        assert_eq!(levels(&comparison), [true, false, false]);
    }

    #[test]
    fn a_flood_of_findings_is_judged_on_all_and_keeps_only_what_a_report_shows() {
        let expected = [finding("mcpdesc.a", "/a/0", Severity::Error)];
        let mut actual = vec![diagnostic("mcpdesc.a", "/a/0", Severity::Error)];
        let flood = 3 * KEPT_DIFFERENCES;
        actual.extend(
            (0..flood).map(|n| diagnostic("mcpdesc.a", &format!("/x{n}"), Severity::Error)),
        );
        let comparison = compare(&expected, &actual, R);
        // The same rule everywhere: only the pointers are wrong.
        assert_eq!(levels(&comparison), [true, true, false]);
        assert_eq!(comparison.actual_count, flood + 1);
        assert_eq!(comparison.unexpected_count, flood);
        assert_eq!(comparison.unexpected.len(), KEPT_DIFFERENCES);
        assert_eq!(comparison.problem_count, flood);
        assert_eq!(comparison.problems.len(), KEPT_DIFFERENCES);
        assert_eq!(comparison.missing, Findings::new());
        assert_eq!(comparison.reported().len(), KEPT_DIFFERENCES + 1);
    }
}
