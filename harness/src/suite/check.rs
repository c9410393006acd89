//! Linting the suite itself: what `mcpdesc-conformance check` reports.

use mcpdesc_source::{Document, Position};

use crate::suite::coverage::Coverage;
use crate::suite::fixture::{Fixture, STATEMENT_MEMBER};
#[cfg(feature = "reports")]
use crate::suite::tree::SuiteTree;
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
/// not say what they test, coverage gaps, the requirements inventory's
/// problems ([`crate::suite::requirements::problems`]), and the compiled
/// form's problems ([`compiled_form`]).
pub fn lint(set: &SuiteSet, coverage: &Coverage) -> Vec<SuiteProblem> {
    let mut problems = set.problems.clone();
    #[cfg(feature = "reports")]
    problems.extend(compiled_form(&set.tree));
    problems.extend(rule_id_problems(set));
    problems.extend(crate::suite::matrices::problems(&set.tree));
    problems.extend(crate::suite::requirements::problems(set));
    for suite in &set.suites {
        for entry in &suite.entries {
            let fixture = &entry.fixture;
            let fixture_path = set.tree.display_path(&fixture.tree_path());
            // A fixture that does not load has its own problem; a
            // serialization case whose text does not load says what it
            // tests in its statement file.
            let document = match &fixture.document {
                Ok(document) => Some(document),
                Err(_) if fixture.source.is_some() => None,
                Err(_) => continue,
            };
            problems.extend(statement_problem(set, fixture, document, fixture_path));
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

/// What is wrong with how `fixture` (loaded as `document`, found at
/// `fixture_path`) says what it tests, if anything: an object root says it
/// in its `x-test` member and has no statement file; any other root, and a
/// serialization case whose text does not load (no `document`), says it in
/// its statement file, as UTF-8 text that is not blank.
fn statement_problem(
    set: &SuiteSet,
    fixture: &Fixture,
    document: Option<&Document>,
    fixture_path: String,
) -> Option<SuiteProblem> {
    let broken = |file: String, position: Option<Position>, message: String| SuiteProblem {
        file,
        position,
        message,
        kind: SuiteProblemKind::Broken,
    };
    let statement_path = fixture.statement_path();
    let statement_file = set.tree.get(&statement_path);
    let in_member = document.is_some_and(|document| document.value.is_object());
    if in_member {
        if statement_file.is_some() {
            return Some(broken(
                set.tree.display_path(&statement_path),
                None,
                format!(
                    "the fixture's root is an object, so its `{STATEMENT_MEMBER}` member says \
                     what it tests; a statement file is only for a document whose root is not \
                     an object, or a serialization case whose text does not load: remove this one"
                ),
            ));
        }
    } else if let Some(bytes) = statement_file
        && let Err(error) = std::str::from_utf8(bytes)
    {
        return Some(broken(
            set.tree.display_path(&statement_path),
            None,
            format!("the statement file is not UTF-8 text ({error})"),
        ));
    }
    if fixture
        .statement()
        .is_none_or(|statement| statement.trim().is_empty())
    {
        let message = if in_member {
            format!("the fixture does not say what it tests (a root `{STATEMENT_MEMBER}` string)")
        } else if document.is_none() {
            format!(
                "the fixture does not say what it tests: its text does not load (a \
                 serialization case), so the sentence goes in the file `{}` beside it",
                set.tree.display_path(&statement_path)
            )
        } else {
            format!(
                "the fixture does not say what it tests: its root is not an object, so the \
                 sentence goes in the file `{}` beside it",
                set.tree.display_path(&statement_path)
            )
        };
        return Some(broken(
            fixture_path,
            document
                .and_then(|document| document.locations.get(""))
                .or(Some(Position::START)),
            message,
        ));
    }
    None
}

/// The problems of the compiled form of `tree` (the JSON twins of its YAML
/// files, see [`crate::suite::compiled`]): each twin read in its YAML
/// file's place that says something else than the file (edited by hand,
/// its `source` hash kept, it would change the suite unseen by anyone
/// reading the YAML); and, for a working tree with a `compiled/` folder
/// (which a build embeds), each twin that is not what `bless` writes from
/// its YAML file. Each names the twin's file.
#[cfg(feature = "reports")]
pub fn compiled_form(tree: &SuiteTree) -> Vec<SuiteProblem> {
    use crate::suite::compiled;

    let problem = |file: String, message: String| SuiteProblem {
        file,
        position: None,
        message,
        kind: SuiteProblemKind::Broken,
    };
    let mut problems: Vec<SuiteProblem> = tree
        .twin_disagreements()
        .into_iter()
        .map(|(name, disagreement)| {
            problem(
                tree.display_path(&compiled::twin_path(name)),
                format!(
                    "the compiled twin of {}: {disagreement}; write it again with \
                     `mcpdesc-conformance bless` and rebuild",
                    tree.display_path(name)
                ),
            )
        })
        .collect();
    let Some(root) = &tree.root else {
        return problems;
    };
    match crate::bless::compiled_plan(root, &[]) {
        Ok(changes) => problems.extend(changes.into_iter().map(|change| {
            let why = match (&change.old, &change.new) {
                (None, _) => "is missing",
                (Some(_), None) => "is the twin of no YAML file that loads",
                (Some(_), Some(_)) => {
                    "is not what `bless` writes from its YAML file (edited by hand, \
                     or the file changed since)"
                }
            };
            problem(
                tree.display_path(&change.path),
                format!("the compiled twin {why}; `mcpdesc-conformance bless` writes the compiled form again"),
            )
        })),
        Err(error) => problems.push(problem(
            tree.display_path(compiled::FOLDER),
            format!("the compiled form cannot be checked: {error}"),
        )),
    }
    problems
}

#[cfg(all(test, feature = "reports"))]
mod tests {
    use super::*;

    const EXPECTATION: &str =
        "expected/document/expected-invalid/unknown-protocol-version.json.yaml";

    /// The built-in suite with its twin of [`EXPECTATION`] edited by hand:
    /// another pointer, the `source` hash kept.
    fn tampered() -> SuiteTree {
        let honest = SuiteTree::embedded();
        let twin = mcpdesc_suite::twin(EXPECTATION).unwrap();
        let text = String::from_utf8(twin.to_vec()).unwrap();
        let edited = text.replace("/protocolVersions/1", "/protocolVersions/0");
        assert_ne!(edited, text, "the twin no longer holds the pointer: {text}");
        honest.with_twin_text(
            EXPECTATION,
            Box::leak(edited.into_bytes().into_boxed_slice()),
        )
    }

    #[test]
    fn the_built_in_twins_agree_with_their_yaml_files() {
        assert_eq!(compiled_form(&SuiteTree::embedded()), []);
    }

    /// The edit changes what the suite expects (the set loads the twin),
    /// so `check` names the twin, and the suite's identity changes.
    #[test]
    fn a_hand_edited_twin_is_a_problem_and_changes_the_content_hash() {
        let tampered = tampered();
        let set = SuiteSet::load(tampered.clone());
        let entry = set
            .get(
                set.find("document/expected-invalid/unknown-protocol-version.json")
                    .unwrap(),
            )
            .unwrap();
        let expectation = format!("{:?}", entry.expectation);
        assert!(expectation.contains("/protocolVersions/0"), "{expectation}");
        let problems = compiled_form(&tampered);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(
            problems[0].file,
            format!("compiled/{EXPECTATION}.json"),
            "{problems:?}"
        );
        assert!(
            problems[0]
                .message
                .contains("its value is not its YAML file's"),
            "{}",
            problems[0].message
        );
        let coverage = Coverage::of(&set);
        assert!(lint(&set, &coverage).contains(&problems[0]));
        let honest = SuiteTree::embedded();
        assert_ne!(tampered.content_hash(), honest.content_hash());
        // Honest twins add nothing: the built-in suite has the identity of
        // its files.
        let files = SuiteTree::from_files(
            honest
                .under("")
                .map(|(name, bytes)| (name.to_owned(), bytes.to_vec())),
        );
        assert_eq!(files.content_hash(), honest.content_hash());
    }
}
