//! Linting the suite itself: what `mcpdesc-conformance check` reports.

use mcpdesc_source::Position;

use crate::coverage::Coverage;
use crate::expectation;
use crate::suite::{SuiteProblem, SuiteProblemKind, SuiteSet};

/// Everything wrong with the suite: the problems found while loading it,
/// fixtures that do not say what they test, expectations that use rules
/// outside the catalog or outside their revision or pointers that name
/// nothing, and coverage gaps.
pub fn lint(set: &SuiteSet, coverage: &Coverage) -> Vec<SuiteProblem> {
    let mut problems = set.problems.clone();
    for suite in &set.suites {
        for entry in &suite.entries {
            let fixture = &entry.fixture;
            let fixture_path = set.tree.display_path(&fixture.tree_path());
            let Ok(document) = &fixture.document else {
                continue;
            };
            if fixture
                .statement()
                .is_none_or(|statement| statement.trim().is_empty())
            {
                problems.push(SuiteProblem {
                    file: fixture_path.clone(),
                    position: document.locations.get("").or(Some(Position::START)),
                    message: format!(
                        "the fixture does not say what it tests (a root `{}` string)",
                        crate::fixture::STATEMENT_MEMBER
                    ),
                    kind: SuiteProblemKind::Broken,
                });
            }
            let Ok(expectation) = &entry.expectation else {
                continue;
            };
            let expectation_path = set.tree.display_path(&expectation::path_of(fixture));
            for (revision, findings) in &expectation.revisions {
                for finding in findings {
                    let mut report = |message: String| {
                        problems.push(SuiteProblem {
                            file: expectation_path.clone(),
                            position: None,
                            message: format!(
                                "{revision}: {} at {:?}: {message}",
                                finding.rule, finding.path
                            ),
                            kind: SuiteProblemKind::StaleExpectation,
                        });
                    };
                    match set.rules.get(&finding.rule) {
                        None => report("the rule is in no catalog".into()),
                        Some(rule) if !rule.applicability.applies_to(*revision) => {
                            report("the rule does not apply under this revision".into())
                        }
                        Some(rule) if rule.severity != finding.severity => {
                            report(format!("the rule's severity is {}", rule.severity))
                        }
                        Some(rule) if rule.cannot_fire_under.contains(revision) => report(
                            "the catalog says the rule cannot fire under this revision".into(),
                        ),
                        Some(_) => {}
                    }
                    if mcpdesc_source::pointer::resolve(&document.value, &finding.path).is_none() {
                        report("the pointer does not resolve in the fixture".into());
                    }
                }
            }
        }
    }
    for gap in coverage.gaps() {
        problems.push(SuiteProblem {
            file: "coverage".into(),
            position: None,
            message: gap,
            kind: SuiteProblemKind::Broken,
        });
    }
    problems
}
