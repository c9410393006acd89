//! Linting the suite itself: what `mcpdesc-conformance check` reports.

use mcpdesc_source::Position;

use crate::suite::coverage::Coverage;
use crate::suite::{SuiteProblem, SuiteProblemKind, SuiteSet};

/// Everything wrong with the suite: the problems found while loading it
/// (which include expectations that use rules outside the catalogs or
/// outside their revision, or pointers that name nothing), fixtures that do
/// not say what they test, and coverage gaps.
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
                    file: fixture_path,
                    position: document.locations.get("").or(Some(Position::START)),
                    message: format!(
                        "the fixture does not say what it tests (a root `{}` string)",
                        crate::suite::fixture::STATEMENT_MEMBER
                    ),
                    kind: SuiteProblemKind::Broken,
                });
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
