//! Fixtures: the documents of a suite, each expected to be valid or invalid.

use std::fmt;
use std::sync::{Arc, OnceLock};

use mcpdesc_protocol::{Revision, Revisions, Source, SourceFormat};
use mcpdesc_source::{Document, Format, LoadError};
use serde::Deserialize;

use crate::suite::catalog::Input;
use crate::suite::tree::SuiteTree;

/// The root member in which a fixture states, in one sentence, what it tests.
pub const STATEMENT_MEMBER: &str = "x-test";

/// What a fixture's file name is followed by to name the file that says
/// what it tests when its root is not an object (`root-is-array.json` and
/// `root-is-array.json.x-test`): such a document has no member to hold the
/// sentence, and wrapping it would change what validators receive, so the
/// sentence lives beside it, as UTF-8 text.
pub const STATEMENT_SUFFIX: &str = ".x-test";

/// Which folder a fixture is in, and so what is expected of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// `expected-valid/`: no error under any of its revisions.
    Valid,
    /// `expected-invalid/`: at least one error under at least one revision.
    Invalid,
}

impl Class {
    /// The folder name of the class.
    pub const fn folder(self) -> &'static str {
        match self {
            Class::Valid => "expected-valid",
            Class::Invalid => "expected-invalid",
        }
    }

    fn from_folder(folder: &str) -> Option<Class> {
        [Class::Valid, Class::Invalid]
            .into_iter()
            .find(|class| class.folder() == folder)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.folder())
    }
}

/// One fixture document, loaded.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The suite it belongs to.
    pub suite: String,
    /// Its folder class.
    pub class: Class,
    /// Its path below `fixtures/<suite>/` (e.g. `expected-valid/minimal.json`).
    pub name: String,
    /// The document, or why it could not be loaded. For a serialization
    /// case ([`Fixture::source`]) a load error is no problem of the suite:
    /// see [`Fixture::load_problem`].
    pub document: Result<Document, LoadError>,
    /// Its text as a serialization case sends it, when it is one: a
    /// fixture of a suite whose catalog says `input: source`
    /// ([`Input::Source`]) whose bytes are UTF-8. The text is shared by
    /// every case of the fixture, so that each revision's request copies
    /// nothing. `None` for any other fixture.
    pub source: Option<Source>,
    /// The revisions it runs under, decided when it was discovered.
    revisions: Vec<Revision>,
    /// Its source text (lossily decoded), to show the line a pointer names.
    pub text: String,
    /// The text of its statement file (`<name>.x-test`, see
    /// [`STATEMENT_SUFFIX`]) when it has one, lossily decoded, without
    /// its final line break.
    pub statement_file: Option<String>,
    /// The byte offset where each line of `text` starts, built on first use:
    /// a failing case may quote thousands of lines, and finding each by
    /// rescanning the text from its start made reports quadratic.
    line_starts: OnceLock<Vec<usize>>,
}

impl Fixture {
    /// The fixture's ID: `<suite>/<name>`.
    pub fn id(&self) -> String {
        format!("{}/{}", self.suite, self.name)
    }

    /// Its path in the suite tree: `fixtures/<suite>/<name>`.
    pub fn tree_path(&self) -> String {
        format!("fixtures/{}/{}", self.suite, self.name)
    }

    /// The revisions it runs under: the suite's known revisions its root
    /// `protocolVersions` names, in order, or every known revision when it
    /// names none (or could not be loaded).
    pub fn revisions(&self) -> &[Revision] {
        &self.revisions
    }

    /// Why the fixture cannot be judged, if it cannot: its load error,
    /// unless it is a serialization case ([`Fixture::source`]), whose text
    /// validators read themselves and the harness's strict loader may well
    /// refuse (that is what such a case is about).
    pub fn load_problem(&self) -> Option<&LoadError> {
        match &self.document {
            Err(error) if self.source.is_none() => Some(error),
            _ => None,
        }
    }

    /// What the fixture says it tests: its root `x-test` member, or, for
    /// a document whose root is not an object and for a serialization case
    /// whose text does not load, its statement file (see
    /// [`STATEMENT_SUFFIX`]).
    pub fn statement(&self) -> Option<&str> {
        let value = match &self.document {
            Ok(document) => &document.value,
            Err(_) if self.source.is_some() => return self.statement_file.as_deref(),
            Err(_) => return None,
        };
        match &**value {
            serde_json::Value::Object(members) => members.get(STATEMENT_MEMBER)?.as_str(),
            _ => self.statement_file.as_deref(),
        }
    }

    /// The path in the suite tree of its statement file, which only a
    /// fixture whose root is not an object, or a serialization case whose
    /// text does not load, may have.
    pub fn statement_path(&self) -> String {
        format!("{}{STATEMENT_SUFFIX}", self.tree_path())
    }

    /// The source line `line` (1-based), without its line break (`\n` or
    /// `\r\n`), found through an index of line starts built once.
    pub fn line(&self, line: usize) -> Option<&str> {
        let starts = self.line_starts();
        let index = line.checked_sub(1)?;
        let start = *starts.get(index)?;
        let end = starts.get(index + 1).copied().unwrap_or(self.text.len());
        let text = &self.text[start..end];
        let text = text.strip_suffix('\n').unwrap_or(text);
        Some(text.strip_suffix('\r').unwrap_or(text))
    }

    /// The byte offset where each line of the text starts, in order; like
    /// [`str::lines`], a final line break does not start another line.
    pub(crate) fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = Vec::new();
            if !self.text.is_empty() {
                starts.push(0);
            }
            starts.extend(
                self.text
                    .match_indices('\n')
                    .map(|(offset, _)| offset + 1)
                    .filter(|&start| start < self.text.len()),
            );
            starts
        })
    }
}

/// A file under `fixtures/` that is not a fixture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrayFile {
    /// Its path in the suite tree.
    pub path: String,
    /// Why it is not taken as a fixture.
    pub reason: String,
}

/// The contract's name for a document serialization.
pub fn source_format(format: Format) -> SourceFormat {
    match format {
        Format::Json => SourceFormat::Json,
        Format::Yaml => SourceFormat::Yaml,
    }
}

/// Finds the fixtures of `suite` in `tree` whose IDs `keep` takes, in path
/// order, loading each; files that are not fixtures are returned beside
/// them. In a suite of serialization cases (`input` is [`Input::Source`])
/// each fixture whose bytes are UTF-8 also keeps its text to send.
pub(crate) fn discover(
    tree: &SuiteTree,
    suite: &str,
    input: Input,
    known: &Revisions,
    keep: &dyn Fn(&str) -> bool,
) -> (Vec<Fixture>, Vec<StrayFile>) {
    let prefix = format!("fixtures/{suite}/");
    let mut fixtures = Vec::new();
    let mut strays = Vec::new();
    for (path, bytes) in tree.under(&prefix) {
        let name = &path[prefix.len()..];
        // A statement file goes with the fixture it is named after; one
        // beside nothing is a stray.
        if let Some(fixture) = path.strip_suffix(STATEMENT_SUFFIX) {
            if tree.get(fixture).is_none() || Format::from_path(fixture).is_none() {
                strays.push(StrayFile {
                    path: path.to_owned(),
                    reason: format!(
                        "a `{STATEMENT_SUFFIX}` file says what the fixture it is named after \
                         tests, and there is no fixture `{}`",
                        &fixture[prefix.len()..]
                    ),
                });
            }
            continue;
        }
        let folder = name.split('/').next().unwrap_or_default();
        let Some(class) = Class::from_folder(folder).filter(|_| name.contains('/')) else {
            strays.push(StrayFile {
                path: path.to_owned(),
                reason: "fixtures live in `expected-valid/` or `expected-invalid/`".into(),
            });
            continue;
        };
        let Some(format) = Format::from_path(name) else {
            strays.push(StrayFile {
                path: path.to_owned(),
                reason: "a fixture's name ends in `.json`, `.yaml` or `.yml`".into(),
            });
            continue;
        };
        if !keep(&format!("{suite}/{name}")) {
            continue;
        }
        let document = tree.document(path, bytes, format);
        let revisions = match &document {
            Ok(document) => known.of_document(&document.value),
            Err(_) => known.iter().collect(),
        };
        // Text that is not UTF-8 cannot travel in the contract: such a
        // fixture stays a load problem, as in any suite.
        let source = match input {
            Input::Source => std::str::from_utf8(bytes).ok().map(|text| Source {
                format: source_format(format),
                text: Arc::from(text),
            }),
            Input::Document => None,
        };
        fixtures.push(Fixture {
            suite: suite.to_owned(),
            class,
            name: name.to_owned(),
            document,
            source,
            revisions,
            text: String::from_utf8_lossy(bytes).into_owned(),
            statement_file: tree.get(&format!("{path}{STATEMENT_SUFFIX}")).map(|bytes| {
                let text = String::from_utf8_lossy(bytes);
                let text = text.strip_suffix('\n').unwrap_or(&text);
                text.strip_suffix('\r').unwrap_or(text).to_owned()
            }),
            line_starts: OnceLock::new(),
        });
    }
    (fixtures, strays)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Revisions {
        crate::suite::builtin_revisions()
    }

    fn tree(files: &[(&str, &str)]) -> SuiteTree {
        SuiteTree::from_files(
            files
                .iter()
                .map(|(name, text)| ((*name).to_owned(), text.as_bytes().to_vec())),
        )
    }

    #[test]
    fn discovers_in_path_order_with_classes_and_strays() {
        let tree = tree(&[
            ("fixtures/s/expected-valid/b.yaml", "mcpdesc: 0.9.0\n"),
            ("fixtures/s/expected-invalid/a.json", "{}"),
            (
                "fixtures/s/expected-valid/a.json",
                "{\"protocolVersions\": [\"2025-11-25\", \"2025-06-18\", \"x\", \"2025-06-18\"]}",
            ),
            ("fixtures/s/notes.md", "hello"),
            ("fixtures/s/expected-valid/c.txt", "hello"),
            ("fixtures/other/expected-valid/a.json", "{}"),
        ]);
        let (fixtures, strays) = discover(&tree, "s", Input::Document, &known(), &|_| true);
        let names: Vec<_> = fixtures
            .iter()
            .map(|f| (f.class, f.name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                (Class::Invalid, "expected-invalid/a.json"),
                (Class::Valid, "expected-valid/a.json"),
                (Class::Valid, "expected-valid/b.yaml"),
            ]
        );
        assert_eq!(
            fixtures[1].revisions(),
            [Revision::of("2025-06-18"), Revision::of("2025-11-25")]
        );
        assert_eq!(fixtures[0].revisions(), known().iter().collect::<Vec<_>>());
        let stray: Vec<_> = strays.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            stray,
            ["fixtures/s/expected-valid/c.txt", "fixtures/s/notes.md"]
        );
    }

    #[test]
    fn lines_are_found_through_an_index_built_once() {
        let text = "{\"a\": 1,\r\n\n  \"b\": 2\n}";
        let (fixtures, _) = discover(
            &tree(&[("fixtures/s/expected-valid/a.json", text)]),
            "s",
            Input::Document,
            &known(),
            &|_| true,
        );
        let fixture = &fixtures[0];
        let expected: Vec<&str> = text.lines().collect();
        for (index, line) in expected.iter().enumerate() {
            assert_eq!(fixture.line(index + 1), Some(*line), "line {}", index + 1);
        }
        assert_eq!(fixture.line(0), None);
        assert_eq!(fixture.line(expected.len() + 1), None);
        let first = fixture.line_starts().as_ptr();
        assert_eq!(
            fixture.line_starts().as_ptr(),
            first,
            "the index is rebuilt"
        );
        assert_eq!(fixture.line_starts().len(), expected.len());
        for text in ["", "\n", "a", "a\n", "a\n\nb"] {
            let (fixtures, _) = discover(
                &tree(&[("fixtures/s/expected-valid/a.json", text)]),
                "s",
                Input::Document,
                &known(),
                &|_| true,
            );
            let lines: Vec<_> = (1..=text.len() + 1)
                .map_while(|line| fixtures[0].line(line))
                .collect();
            assert_eq!(lines, text.lines().collect::<Vec<_>>(), "{text:?}");
        }
    }

    /// In a suite of serialization cases each UTF-8 fixture keeps its text
    /// as written; one the strict loader refuses is no problem, runs under
    /// every revision and says what it tests in its statement file; bytes
    /// that are not UTF-8 stay a problem.
    #[test]
    fn a_source_suite_keeps_each_fixtures_text() {
        let duplicate = "a: 1\na: 2\n";
        let tree = SuiteTree::from_files(
            [
                ("expected-invalid/duplicate.yaml", duplicate.as_bytes()),
                (
                    "expected-invalid/duplicate.yaml.x-test",
                    b"Key a twice.\r\n",
                ),
                ("expected-invalid/latin1.yaml", b"a: caf\xe9\n"),
                (
                    "expected-valid/once.json",
                    b"{\"x-test\": \"once\", \"protocolVersions\": [\"2025-06-18\"]}",
                ),
                ("expected-valid/z.yml", b"a: 1"),
            ]
            .map(|(name, bytes)| (format!("fixtures/s/{name}"), bytes.to_vec())),
        );
        let (fixtures, strays) = discover(&tree, "s", Input::Source, &known(), &|_| true);
        assert_eq!(strays, []);
        let [duplicated, latin1, once, z] = &fixtures[..] else {
            panic!("{fixtures:?}");
        };
        let source = duplicated.source.as_ref().unwrap();
        assert_eq!(
            (source.format, &*source.text),
            (SourceFormat::Yaml, duplicate)
        );
        assert!(duplicated.document.is_err());
        assert_eq!(duplicated.load_problem(), None);
        assert_eq!(duplicated.statement(), Some("Key a twice."));
        assert_eq!(duplicated.revisions(), known().iter().collect::<Vec<_>>());
        assert_eq!(latin1.source, None);
        assert!(latin1.load_problem().unwrap().message.contains("UTF-8"));
        assert_eq!(latin1.statement(), None);
        assert_eq!(once.source.as_ref().unwrap().format, SourceFormat::Json);
        assert_eq!(once.statement(), Some("once"));
        assert_eq!(once.revisions(), [Revision::of("2025-06-18")]);
        assert_eq!(z.source.as_ref().unwrap().format, SourceFormat::Yaml);
        // The same files in a document suite: no text kept, and the
        // refused one is a problem.
        let (fixtures, _) = discover(&tree, "s", Input::Document, &known(), &|_| true);
        assert!(fixtures.iter().all(|fixture| fixture.source.is_none()));
        assert!(fixtures[0].load_problem().is_some());
        assert_eq!(fixtures[0].statement(), None);
    }

    #[test]
    fn a_broken_fixture_is_kept_with_its_error() {
        let tree = tree(&[("fixtures/s/expected-valid/bad.json", "{\"a\": 1, \"a\": 2}")]);
        let (fixtures, _) = discover(&tree, "s", Input::Document, &known(), &|_| true);
        let error = fixtures[0].document.as_ref().unwrap_err();
        assert!(error.message.contains("duplicate key"), "{error}");
        assert_eq!(fixtures[0].revisions(), known().iter().collect::<Vec<_>>());
    }
}
