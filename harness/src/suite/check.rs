//! Linting the suite itself: what `mcpdesc-conformance check` reports.

use mcpdesc_source::Position;

use crate::suite::coverage::Coverage;
use crate::suite::{SuiteProblem, SuiteProblemKind, SuiteSet};

/// The longest rule ID that names its page file as it is, in bytes: the
/// bound of the harness's other file names made from untrusted text
/// (`file::bounded_name`), well under the 255 bytes most file systems
/// allow for a name, with room for the page's `.md` and a temporary
/// file's affixes.
pub const MAX_RULE_ID_BYTES: usize = 120;

/// Whether the rule ID `id` can name its page file as it is, on every
/// system: at most [`MAX_RULE_ID_BYTES`] bytes of ASCII letters, digits,
/// `.`, `_` and `-`, not starting with `.`.
pub fn names_a_file(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_RULE_ID_BYTES
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// A problem for each rule ID that cannot name its page file
/// ([`names_a_file`]), at the ID in its catalog when the catalog can be
/// read for positions. `docs` refuses to write any page while there is
/// one, so that it never stops half-way through the pages.
pub fn rule_id_problems(set: &SuiteSet) -> Vec<SuiteProblem> {
    let mut problems = Vec::new();
    for suite in &set.suites {
        let catalog = &suite.catalog;
        let path = format!("suites/{}.yaml", catalog.suite);
        // Positions are looked up only when a rule needs one: most
        // catalogs have no such rule, and reading locations costs a parse.
        let locations = std::cell::OnceCell::new();
        for (index, rule) in catalog.rules.iter().enumerate() {
            if names_a_file(&rule.id) {
                continue;
            }
            let locations = locations.get_or_init(|| {
                set.tree.get(&path).and_then(|bytes| {
                    set.tree
                        .document(&path, bytes, mcpdesc_source::Format::Yaml)
                        .ok()
                        .map(|document| document.locations)
                })
            });
            problems.push(SuiteProblem {
                file: set.tree.display_path(&path),
                position: locations
                    .as_ref()
                    .and_then(|locations| locations.get(&format!("/rules/{index}/id"))),
                message: format!(
                    "rule `{}` cannot name a page file: a rule ID for pages is at most \
                     {MAX_RULE_ID_BYTES} bytes of ASCII letters, digits, `.`, `_` and `-`, \
                     not starting with `.` (this one is {} bytes)",
                    rule.id,
                    rule.id.len()
                ),
                kind: SuiteProblemKind::Broken,
            });
        }
    }
    problems
}

/// Everything wrong with the suite: the problems found while loading it
/// (which include expectations that use rules outside the catalogs or
/// outside their revision, or pointers that name nothing), fixtures that do
/// not say what they test, and coverage gaps.
pub fn lint(set: &SuiteSet, coverage: &Coverage) -> Vec<SuiteProblem> {
    let mut problems = set.problems.clone();
    problems.extend(rule_id_problems(set));
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
