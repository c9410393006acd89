//! The suite's compiled form: a JSON twin of each YAML file, so that the
//! built-in suite loads without a YAML parser.
//!
//! The twin of `fixtures/x/expected-valid/a.yaml` is
//! `compiled/fixtures/x/expected-valid/a.yaml.json`: two JSON objects one
//! after the other (as `jq` reads them). The first holds a hash of the YAML
//! bytes the twin was made from (`source`) and the file's value as JSON
//! (`value`); the second, the line and column of every value in the YAML
//! text (`locations`), so that messages point into the file a person edits.
//! `bless` writes the twins of a working tree; the data crate embeds them
//! beside the YAML files; the built-in tree reads a twin instead of its
//! YAML file whenever the hash matches.
//!
//! The locations come second, in a value of their own, so that a reader of
//! typed data (a catalog, an expectation), which does not need them, stops
//! before them: skipping them was about a third of the work of a test
//! process that runs one case.
//!
//! Why: a crate that uses the harness only for its libtest entry point then
//! compiles no YAML parser (about fifteen packages), and a test process
//! that runs one case reads JSON, several times faster than strict YAML.
//! A twin whose hash does not match (a YAML file edited without `bless`) is
//! never used: the YAML file is read instead, or, in a build without the
//! `yaml` feature, the file fails to load with a message that says so. A
//! test keeps the committed twins equal to what `bless` would write.

use std::sync::Arc;

use mcpdesc_source::{Document, Format, LoadError, Locations, Position};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The folder of the twins, beside `suites/`, `fixtures/` and `expected/`,
/// and the path of the twin of a YAML file: the data crate's layout, which
/// it embeds and `bless` writes.
pub use mcpdesc_suite::{TWIN_FOLDER as FOLDER, twin_path};

/// Whether the tree file `name` is one that has a twin: a YAML file.
pub fn has_twin(name: &str) -> bool {
    Format::from_path(name) == Some(Format::Yaml)
}

/// A twin's first value: what typed data needs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Head<V> {
    /// [`source_hash`] of the YAML bytes it was made from.
    source: String,
    /// The YAML file's value.
    value: V,
}

/// A twin's second value, which only a [`Document`] needs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tail {
    /// Where each value starts in the YAML text.
    locations: Locations,
}

/// The head of the twin `text`, its tail left unread.
fn head<V: DeserializeOwned>(text: &[u8]) -> serde_json::Result<Head<V>> {
    Head::deserialize(&mut serde_json::Deserializer::from_slice(text))
}

/// A short, stable hash of a YAML file's bytes, as a twin's `source`
/// holds it (the data crate's, which the reference validator uses too).
pub use mcpdesc_suite::source_hash;

/// The text of the twin of the YAML file `display` with these bytes.
///
/// # Errors
///
/// The file's [`LoadError`] when it is not a strict YAML document (it then
/// has no twin; loading it reports the same error).
#[cfg(feature = "yaml")]
pub fn compile(display: &str, bytes: &[u8]) -> Result<String, LoadError> {
    use std::fmt::Write as _;

    let document = mcpdesc_source::load(display, bytes, Format::Yaml)?;
    // Written by hand around serde's pretty printing, for reviewable diffs:
    // the value indented as serde writes it, a location per line.
    // Serializing JSON values and strings into strings cannot fail.
    let value = serde_json::to_string_pretty(&*document.value).unwrap_or_default();
    let mut text = String::new();
    let _ = writeln!(text, "{{\n  \"source\": \"{}\",", source_hash(bytes));
    let _ = writeln!(text, "  \"value\": {}\n}}", value.replace('\n', "\n  "));
    text.push_str("{\n  \"locations\": {");
    let locations = serde_json::to_value(&document.locations).unwrap_or_default();
    let entries = locations.as_object().into_iter().flatten();
    for (index, (pointer, position)) in entries.enumerate() {
        let separator = if index == 0 { "" } else { "," };
        let pointer = serde_json::to_string(pointer).unwrap_or_default();
        let position = serde_json::to_string(position).unwrap_or_default();
        let _ = write!(text, "{separator}\n    {pointer}: {position}");
    }
    text.push_str("\n  }\n}\n");
    Ok(text)
}

/// A YAML file's twin, with the hash of the file's current bytes that the
/// twin must have been made from to be read in the file's place.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate<'a> {
    /// The twin's text.
    pub(crate) text: &'a [u8],
    /// [`source_hash`] of the YAML file's current bytes (for the built-in
    /// suite, worked out when the data crate was built).
    pub(crate) current: &'a str,
}

/// The document of a YAML file, read from its twin, or `None` when the
/// twin was made from other bytes (or is unreadable, which a test rules
/// out for the built-in suite): the caller then reads the YAML itself.
pub(crate) fn document(candidate: Candidate<'_>) -> Option<Document> {
    let mut reader = serde_json::Deserializer::from_slice(candidate.text);
    let head = Head::<Value>::deserialize(&mut reader).ok()?;
    if head.source != candidate.current {
        return None;
    }
    let tail = Tail::deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(Document {
        value: Arc::new(head.value),
        format: Format::Yaml,
        locations: tail.locations,
    })
}

/// Reads the YAML file `display` (whose bytes are `bytes`) into `T`: from
/// its `twin` when it has an up-to-date one, else with the strict YAML
/// reader.
///
/// # Errors
///
/// A [`LoadError`] with file, line and column.
pub(crate) fn yaml_data<T: DeserializeOwned>(
    display: &str,
    twin: Option<Candidate<'_>>,
    bytes: &[u8],
) -> Result<T, LoadError> {
    twin.and_then(|twin| data(display, twin))
        .unwrap_or_else(|| mcpdesc_source::parse_yaml(display, bytes))
}

/// The typed data of a YAML file (a catalog, an expectation), read from its
/// twin: `None` as for [`document`], `Some(Err)` when the value does not
/// have the shape `T` expects (placed at the file's start: the YAML
/// reader, which the fallback uses, gives the exact place).
fn data<T: DeserializeOwned>(
    display: &str,
    candidate: Candidate<'_>,
) -> Option<Result<T, LoadError>> {
    // The common case in one pass, straight into `T`: a test process that
    // runs one case reads every catalog this way, and building a `Value`
    // first was about a fifth of its time (debug profile).
    if let Ok(read) = head::<T>(candidate.text) {
        return (read.source == candidate.current).then_some(Ok(read.value));
    }
    // Not of the shape `T` expects, or not a twin at all: which one decides
    // between an error and reading the YAML file instead.
    let twin = head::<Value>(candidate.text).ok()?;
    if twin.source != candidate.current {
        return None;
    }
    Some(
        serde_json::from_value(twin.value)
            .map_err(|error| LoadError::new(display, Position::START, error.to_string())),
    )
}

/// Whether the tree reads the twin `candidate` in its YAML file's place,
/// for typed data at least: its first value reads and was made from the
/// file's current bytes.
#[cfg(feature = "yaml")]
fn is_read(candidate: Candidate<'_>) -> bool {
    head::<serde::de::IgnoredAny>(candidate.text).is_ok_and(|head| head.source == candidate.current)
}

/// How a twin that the tree reads in its YAML file's place says something
/// other than the file: it was edited by hand, its `source` hash kept, so
/// it changes the suite unseen by anyone who reads the YAML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Disagreement {
    /// Its value is not the file's.
    #[error(
        "its value is not its YAML file's, though its `source` hash says it was made from the file"
    )]
    Value,
    /// Its locations are not those of the file's values, or do not read.
    #[error("its locations are not those of its YAML file's values")]
    Locations,
    /// The file does not load at all (no twin is made from such a file).
    #[error("its YAML file does not load, though its `source` hash says it was made from the file")]
    YamlBroken,
}

/// How the twin `candidate` of the YAML file `display` (whose bytes are
/// `yaml`) disagrees with the file, or `None` when it agrees or is not read
/// in the file's place (made from other bytes: the file itself is read
/// then). Parses the YAML file, which is what the twin exists to avoid, so
/// only `check` and the content hash ask.
#[cfg(feature = "yaml")]
pub(crate) fn disagreement(
    display: &str,
    candidate: Candidate<'_>,
    yaml: &[u8],
) -> Option<Disagreement> {
    if !is_read(candidate) {
        return None;
    }
    let Ok(loaded) = mcpdesc_source::load(display, yaml, Format::Yaml) else {
        return Some(Disagreement::YamlBroken);
    };
    match head::<Value>(candidate.text) {
        Ok(head) if head.value == *loaded.value => {}
        _ => return Some(Disagreement::Value),
    }
    match document(candidate) {
        Some(twin) if twin.locations == loaded.locations => None,
        _ => Some(Disagreement::Locations),
    }
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;

    #[test]
    fn a_twin_reads_back_as_its_yaml_and_only_for_the_same_bytes() {
        let yaml = b"a: 1\nlist:\n  - x\n  - 'on'\n";
        let twin = compile("f.yaml", yaml).unwrap();
        let loaded = mcpdesc_source::load("f.yaml", yaml, Format::Yaml).unwrap();
        let made_from = |bytes: &[u8]| source_hash(bytes);
        let (this, other) = (made_from(yaml), made_from(b"a: 2\n"));
        let candidate = |current| Candidate {
            text: twin.as_bytes(),
            current,
        };
        assert_eq!(document(candidate(&this)), Some(loaded));
        assert_eq!(document(candidate(&other)), None);
        let value: Option<Result<Value, _>> = data("f.yaml", candidate(&this));
        assert_eq!(
            value,
            Some(Ok(serde_json::json!({"a": 1, "list": ["x", "on"]})))
        );
        assert!(data::<Value>("f.yaml", candidate(&other)).is_none());
    }

    /// A twin edited by hand, its `source` hash kept, is read in its file's
    /// place: `disagreement` tells it from an honest or a stale one.
    #[test]
    fn a_hand_edited_twin_disagrees_with_its_yaml_file() {
        let yaml = b"a: 1\nb: [x]\n";
        let honest = compile("f.yaml", yaml).unwrap();
        let current = source_hash(yaml);
        let candidate = |text: &'static str| Candidate {
            text: text.as_bytes(),
            current: Box::leak(current.clone().into_boxed_str()),
        };
        let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
        let honest = leak(honest);
        assert_eq!(disagreement("f.yaml", candidate(honest), yaml), None);
        let value = leak(honest.replace("\"a\": 1", "\"a\": 2"));
        assert_ne!(value, honest);
        assert_eq!(
            disagreement("f.yaml", candidate(value), yaml),
            Some(Disagreement::Value)
        );
        let locations = leak(honest.replace("\"/a\": [1,4]", "\"/a\": [7,4]"));
        assert_ne!(locations, honest, "{honest}");
        assert_eq!(
            disagreement("f.yaml", candidate(locations), yaml),
            Some(Disagreement::Locations)
        );
        // Made from other bytes: not read, so it cannot mislead.
        let stale = leak(value.replace(&current, &source_hash(b"a: 2\n")));
        assert_eq!(disagreement("f.yaml", candidate(stale), yaml), None);
    }

    /// Typed data is read from the first value alone: a broken second value
    /// (the locations) spoils the document, which needs it, not the data.
    #[test]
    fn typed_data_stops_before_the_locations() {
        let yaml = b"a: 1\n";
        let twin = compile("f.yaml", yaml).unwrap();
        let (head, tail) = twin.split_at(twin.find("\n{").unwrap() + 1);
        assert!(tail.starts_with("{\n  \"locations\": {"), "{twin}");
        let broken = format!("{head}{{\"locations\": [oops");
        let current = source_hash(yaml);
        let candidate = Candidate {
            text: broken.as_bytes(),
            current: &current,
        };
        assert_eq!(document(candidate), None);
        let value: Option<Result<Value, _>> = data("f.yaml", candidate);
        assert_eq!(value, Some(Ok(serde_json::json!({"a": 1}))));
    }
}

/// The built-in suite's compiled form against its YAML files.
#[cfg(all(test, feature = "reports"))]
mod builtin {
    use std::path::Path;

    use crate::suite::SuiteSet;
    use crate::suite::tree::SuiteTree;

    fn workspace() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the harness is a workspace member")
    }

    #[test]
    fn the_committed_compiled_form_is_what_bless_writes() {
        let changes = crate::bless::compiled_plan(workspace(), &[]).unwrap();
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert!(
            paths.is_empty(),
            "the compiled form is stale in {paths:?}: run `cargo run -p mcpdesc-conformance -- bless` \
             (with a `compiled/` folder at the repository root)"
        );
    }

    #[test]
    fn every_built_in_yaml_file_is_read_from_an_up_to_date_twin() {
        let tree = SuiteTree::embedded();
        let yaml: Vec<&str> = tree
            .under("")
            .map(|(name, _)| name)
            .filter(|name| super::has_twin(name))
            .collect();
        assert!(yaml.len() > 100, "{}", yaml.len());
        // A serialization case whose text the strict loader refuses has
        // no value to compile (bless writes no twin for what `compile`
        // refuses): it is read from its YAML, and refused there.
        let compiles =
            |name: &str| super::compile(name, tree.get(name).unwrap_or_default()).is_ok();
        let without: Vec<&str> = yaml
            .into_iter()
            .filter(|name| !tree.has_current_twin(name) && compiles(name))
            .collect();
        assert_eq!(without, Vec::<&str>::new());
    }

    /// A fixture's document, or its refusal without the file name.
    fn refusal(
        document: &Result<mcpdesc_source::Document, mcpdesc_source::LoadError>,
    ) -> Result<&mcpdesc_source::Document, impl PartialEq + std::fmt::Debug + '_> {
        document
            .as_ref()
            .map_err(|error| (error.position, &error.message, error.kind, &error.pointer))
    }

    #[test]
    fn the_built_in_suite_is_the_same_from_its_twins_as_from_its_yaml() {
        let compiled = SuiteSet::load(SuiteTree::embedded());
        let read = SuiteSet::load(SuiteTree::from_dir(workspace()).unwrap());
        assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        assert_eq!(compiled.revisions, read.revisions);
        assert_eq!(compiled.suites.len(), read.suites.len());
        for (compiled, read) in compiled.suites.iter().zip(&read.suites) {
            assert_eq!(compiled.catalog, read.catalog);
            assert_eq!(compiled.entries.len(), read.entries.len());
            for (compiled, read) in compiled.entries.iter().zip(&read.entries) {
                let id = compiled.fixture.id();
                assert_eq!(id, read.fixture.id());
                // A refusal names the file as each tree spells it (a
                // relative name, a path); everything else must agree.
                assert_eq!(
                    refusal(&compiled.fixture.document),
                    refusal(&read.fixture.document),
                    "{id}"
                );
                assert_eq!(compiled.expectation, read.expectation, "{id}");
            }
        }
    }
}
