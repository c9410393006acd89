//! Fixture matrices: fixture sets generated from one table in the suite's
//! data (`suites/matrices.yaml`), so that a class of cases that is a
//! matrix (each typed member × each wrong JSON type, each collection ×
//! {not an array, empty, a wrong entry first}) stays complete as members
//! are added, instead of depending on someone remembering every cell.
//!
//! A matrix is a base document and a list of *slots*: places in it (JSON
//! pointers), each with the JSON type it holds and the *variants* to make
//! of it. Every variant of every slot is one fixture, written by `bless`
//! under `fixtures/<suite>/<class>/generated/<matrix>/` with an `x-test`
//! sentence made from the matrix's template, and judged like any other
//! fixture; `check` fails while a generated file differs from what the
//! table makes. A variant that leaves a root that is not an object gets
//! its sentence in a statement file beside it
//! ([`STATEMENT_SUFFIX`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::suite::fixture::{Class, STATEMENT_MEMBER, STATEMENT_SUFFIX};
use crate::suite::tree::SuiteTree;
use crate::suite::{SuiteProblem, SuiteProblemKind, is_plain_name};

/// Where a suite tree keeps its fixture matrices.
pub const MATRICES_FILE: &str = "suites/matrices.yaml";

/// The folder, below a fixture class folder, that holds generated
/// fixtures: everything in it is written by `bless` from
/// [`MATRICES_FILE`], and nothing else may be there.
pub const GENERATED_FOLDER: &str = "generated";

/// The table: every matrix of every suite.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Table {
    /// The matrices, each making one folder of fixtures.
    pub matrices: Vec<Matrix>,
}

/// One base document and the places in it to vary.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Matrix {
    /// Names the folder of its fixtures: a plain name.
    pub id: String,
    /// The suite whose fixtures it makes.
    pub suite: String,
    /// Whether its fixtures are expected valid or invalid.
    pub class: Class,
    /// The `x-test` sentence of each fixture, with `{slot}` standing for
    /// the slot's label and `{change}` for what the variant did to it.
    pub statement: String,
    /// The document every fixture starts from (without `x-test`).
    pub base: Value,
    /// The places to vary.
    pub slots: Vec<Slot>,
}

/// One place in a matrix's base document.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Slot {
    /// Names its fixtures: a plain name, unique in the matrix.
    pub name: String,
    /// What the sentence calls it (Markdown code allowed).
    pub label: String,
    /// Where it is: an RFC 6901 pointer into the base document. For the
    /// `missing` variant its parent must exist; for the others, it must.
    pub at: String,
    /// The JSON type its value has in a valid document.
    #[serde(rename = "type")]
    pub kind: JsonType,
    /// The JSON type of its entries, for the `entries` variant of an
    /// array slot.
    #[serde(default)]
    pub entry: Option<JsonType>,
    /// The variants to make of it.
    #[serde(default)]
    pub variants: Vec<Variant>,
    /// Other values to put in its place, each with what it is.
    #[serde(default)]
    pub values: Vec<Replacement>,
}

/// A value a slot takes in one fixture, named for its file and sentence.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Replacement {
    /// Names its fixture, after the slot's name.
    pub name: String,
    /// The value.
    pub value: Value,
    /// What the value is, completing "{slot} is ...".
    pub says: String,
}

/// The JSON types, by the names JSON Schema gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum JsonType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    const ALL: [JsonType; 6] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Number,
        JsonType::String,
        JsonType::Array,
        JsonType::Object,
    ];

    /// The value a fixture puts where a value of another type belongs:
    /// one per type, neither empty nor zero, so that it tests the type and
    /// nothing else.
    fn sample(self) -> Value {
        match self {
            JsonType::Null => Value::Null,
            JsonType::Boolean => Value::Bool(true),
            JsonType::Number => json!(7),
            JsonType::String => json!("seven"),
            JsonType::Array => json!(["seven"]),
            JsonType::Object => json!({"seven": 7}),
        }
    }

    /// The empty value of the type, for the `empty` variant.
    fn empty(self) -> Option<Value> {
        match self {
            JsonType::String => Some(json!("")),
            JsonType::Array => Some(json!([])),
            JsonType::Object => Some(json!({})),
            _ => None,
        }
    }

    /// Its name in file names (`number`).
    fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    /// Its name with an article, in sentences (`a number`).
    fn phrase(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "a boolean",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "an array",
            JsonType::Object => "an object",
        }
    }
}

/// What a matrix makes of one slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Variant {
    /// One fixture per JSON type other than the slot's.
    WrongType,
    /// The slot's type, empty (`""`, `[]`, `{}`).
    Empty,
    /// The slot removed from its object.
    Missing,
    /// For an array slot: one fixture per JSON type other than its
    /// entries', with an entry of that type put first, before the
    /// entries the base holds (which are still to be checked).
    Entries,
}

/// A fixture file a matrix makes: its path in the suite tree and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Generated {
    /// The path in the suite tree.
    pub path: String,
    /// The whole text of the file.
    pub text: String,
}

/// Why a table makes no fixtures.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatrixError {
    /// The table does not load.
    #[error(transparent)]
    Load(#[from] mcpdesc_source::LoadError),
    /// A matrix or slot is wrong, at a pointer into the table.
    #[error("{file}: at {at} of the table: {message}")]
    Invalid {
        /// The table's file.
        file: String,
        /// A JSON pointer into the table naming the matrix or slot.
        at: String,
        /// What is wrong.
        message: String,
    },
}

/// The fixture files `tree`'s table makes, in path order; none when the
/// tree has no table.
///
/// # Errors
///
/// When the table does not load, or names a place its base document does
/// not have, or makes two files of one name.
pub(crate) fn generate(tree: &SuiteTree) -> Result<Vec<Generated>, MatrixError> {
    let Some(bytes) = tree.get(MATRICES_FILE) else {
        return Ok(Vec::new());
    };
    let table: Table = tree.yaml_data(MATRICES_FILE, bytes)?;
    let file = tree.display_path(MATRICES_FILE);
    let mut made = BTreeMap::new();
    for (index, matrix) in table.matrices.iter().enumerate() {
        let invalid = |at: String, message: String| MatrixError::Invalid {
            file: file.clone(),
            at,
            message,
        };
        let at = format!("/matrices/{index}");
        for (what, name) in [("matrix", &matrix.id), ("suite", &matrix.suite)] {
            if !is_plain_name(name) {
                return Err(invalid(
                    at.clone(),
                    format!("the {what} name {name:?} is not a plain name (a-z, 0-9, `-`)"),
                ));
            }
        }
        for (slot_index, slot) in matrix.slots.iter().enumerate() {
            let slot_at = format!("{at}/slots/{slot_index}");
            for fixture in matrix
                .fixtures(slot)
                .map_err(|message| invalid(slot_at.clone(), message))?
            {
                for generated in fixture {
                    if made.insert(generated.path.clone(), generated).is_some() {
                        return Err(invalid(
                            slot_at.clone(),
                            "two variants make a fixture of the same name".into(),
                        ));
                    }
                }
            }
        }
    }
    Ok(made.into_values().collect())
}

impl Matrix {
    /// The folder its fixtures go in.
    fn folder(&self) -> String {
        format!(
            "fixtures/{}/{}/{GENERATED_FOLDER}/{}",
            self.suite,
            self.class.folder(),
            self.id
        )
    }

    /// The fixtures of `slot`, each as its files (the document, and its
    /// statement file when its root is not an object).
    fn fixtures(&self, slot: &Slot) -> Result<Vec<Vec<Generated>>, String> {
        if !is_plain_name(&slot.name) {
            return Err(format!(
                "the slot name {:?} is not a plain name (a-z, 0-9, `-`)",
                slot.name
            ));
        }
        if slot.variants.is_empty() && slot.values.is_empty() {
            return Err("the slot has neither `variants` nor `values`".into());
        }
        let mut fixtures = Vec::new();
        let mut add = |suffix: String, document: Value, change: String| {
            fixtures.push(self.files(&format!("{}-{suffix}", slot.name), document, slot, &change));
        };
        for variant in &slot.variants {
            match variant {
                Variant::WrongType => {
                    for kind in JsonType::ALL.into_iter().filter(|&kind| kind != slot.kind) {
                        let document = self.replaced(&slot.at, kind.sample())?;
                        let change = format!(
                            "is {} ({}) instead of {}",
                            kind.phrase(),
                            kind.sample(),
                            slot.kind.phrase()
                        );
                        add(kind.name().to_owned(), document, change);
                    }
                }
                Variant::Empty => {
                    let empty = slot.kind.empty().ok_or_else(|| {
                        format!("a value of type {} cannot be empty", slot.kind.name())
                    })?;
                    let change = format!("is empty ({empty})");
                    add("empty".into(), self.replaced(&slot.at, empty)?, change);
                }
                Variant::Missing => {
                    add(
                        "missing".into(),
                        self.removed(&slot.at)?,
                        "is missing".into(),
                    );
                }
                Variant::Entries => {
                    let entry = match (slot.kind, slot.entry) {
                        (JsonType::Array, Some(entry)) => entry,
                        _ => {
                            return Err(
                                "the `entries` variant needs an array slot with an `entry` type"
                                    .into(),
                            );
                        }
                    };
                    for kind in JsonType::ALL.into_iter().filter(|&kind| kind != entry) {
                        let document = self.prepended(&slot.at, kind.sample())?;
                        let change = format!(
                            "starts with {} entry ({}) instead of {}, before the entries \
                             that follow it",
                            kind.phrase(),
                            kind.sample(),
                            entry.phrase()
                        );
                        add(format!("entry-{}", kind.name()), document, change);
                    }
                    // And one after them: a check that looks at the first
                    // entry only, or stops before the last, misses it.
                    let last = [JsonType::String, JsonType::Number]
                        .into_iter()
                        .find(|&kind| kind != entry)
                        .expect("two types differ from one");
                    let document = self.appended(&slot.at, last.sample())?;
                    let change = format!(
                        "ends with {} entry ({}) instead of {}, after its good entries",
                        last.phrase(),
                        last.sample(),
                        entry.phrase()
                    );
                    add("entry-last".into(), document, change);
                }
            }
        }
        for replacement in &slot.values {
            if !is_plain_name(&replacement.name) {
                return Err(format!(
                    "the value name {:?} is not a plain name (a-z, 0-9, `-`)",
                    replacement.name
                ));
            }
            let document = self.replaced(&slot.at, replacement.value.clone())?;
            let change = format!("is {} ({})", replacement.says, replacement.value);
            add(replacement.name.clone(), document, change);
        }
        Ok(fixtures)
    }

    /// The files of one fixture named `name`: the document with its
    /// sentence first, or, when its root is not an object, the document
    /// and a statement file beside it.
    fn files(&self, name: &str, document: Value, slot: &Slot, change: &str) -> Vec<Generated> {
        let sentence = self
            .statement
            .replace("{slot}", &slot.label)
            .replace("{change}", change);
        let path = format!("{}/{name}.json", self.folder());
        match document {
            Value::Object(members) => {
                let mut ordered = Map::new();
                ordered.insert(STATEMENT_MEMBER.into(), Value::String(sentence));
                ordered.extend(members);
                vec![Generated {
                    path,
                    text: pretty(&Value::Object(ordered)),
                }]
            }
            other => vec![
                Generated {
                    path: format!("{path}{STATEMENT_SUFFIX}"),
                    text: format!("{sentence}\n"),
                },
                Generated {
                    path,
                    text: pretty(&other),
                },
            ],
        }
    }

    /// The base document with the value at `at` replaced by `value`.
    fn replaced(&self, at: &str, value: Value) -> Result<Value, String> {
        let mut document = self.base.clone();
        if at.is_empty() {
            return Ok(value);
        }
        *document
            .pointer_mut(at)
            .ok_or_else(|| format!("the base document has nothing at {at:?}"))? = value;
        Ok(document)
    }

    /// The base document without the member at `at`.
    fn removed(&self, at: &str) -> Result<Value, String> {
        let mut document = self.base.clone();
        let (parent, key) = split(at)?;
        let Some(Value::Object(members)) = document.pointer_mut(parent) else {
            return Err(format!("the base document has no object at {parent:?}"));
        };
        members
            .shift_remove(&key)
            .ok_or_else(|| format!("the base document has nothing at {at:?}"))?;
        Ok(document)
    }

    /// The base document with `entry` put first in the array at `at`.
    fn prepended(&self, at: &str, entry: Value) -> Result<Value, String> {
        self.inserted(at, entry, |_| 0)
    }

    /// The base document with `entry` put last in the array at `at`.
    fn appended(&self, at: &str, entry: Value) -> Result<Value, String> {
        self.inserted(at, entry, |len| len)
    }

    /// The base document with `entry` inserted in the array at `at`, at
    /// the index `index` gives for its length.
    fn inserted(
        &self,
        at: &str,
        entry: Value,
        index: impl Fn(usize) -> usize,
    ) -> Result<Value, String> {
        let mut document = self.base.clone();
        let Some(Value::Array(entries)) = document.pointer_mut(at) else {
            return Err(format!("the base document has no array at {at:?}"));
        };
        entries.insert(index(entries.len()), entry);
        Ok(document)
    }
}

/// The parent pointer and the last token (unescaped) of a non-root
/// pointer.
fn split(at: &str) -> Result<(&str, String), String> {
    let (parent, token) = at
        .rsplit_once('/')
        .ok_or_else(|| format!("{at:?} is not a JSON pointer below the root"))?;
    Ok((parent, token.replace("~1", "/").replace("~0", "~")))
}

/// A value as generated fixtures are written: two-space indentation, a
/// final line break.
fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// How a generated file of the tree differs from what the table makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Difference {
    /// The file's path in the tree.
    pub path: String,
    /// Its text in the tree, when it is there.
    pub old: Option<String>,
    /// What the table makes of it, or `None` when it makes no such file.
    pub new: Option<String>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (&self.old, &self.new) {
            (None, _) => "the generated fixture file is missing",
            (Some(_), None) => "no matrix makes this file, and a generated folder holds only what one makes",
            (Some(_), Some(_)) => "the generated fixture file is not what its matrix makes (edited by hand, or the table changed since)",
        })
    }
}

/// The files under the generated folders of `tree` that differ from what
/// its table makes (`generated`), in path order.
pub(crate) fn differences(tree: &SuiteTree, generated: &[Generated]) -> Vec<Difference> {
    let mut wanted: BTreeMap<&str, &str> = generated
        .iter()
        .map(|file| (file.path.as_str(), file.text.as_str()))
        .collect();
    let mut differences = Vec::new();
    for (path, bytes) in tree.under("fixtures/") {
        if !is_generated(path) {
            continue;
        }
        let old = String::from_utf8_lossy(bytes).into_owned();
        match wanted.remove(path) {
            Some(new) if new == old => {}
            new => differences.push(Difference {
                path: path.to_owned(),
                old: Some(old),
                new: new.map(str::to_owned),
            }),
        }
    }
    differences.extend(wanted.into_iter().map(|(path, new)| Difference {
        path: path.to_owned(),
        old: None,
        new: Some(new.to_owned()),
    }));
    differences.sort_by(|a, b| a.path.cmp(&b.path));
    differences
}

/// Whether `path` (a suite tree path) is in a generated folder:
/// `fixtures/<suite>/<class>/generated/...`.
pub(crate) fn is_generated(path: &str) -> bool {
    let mut parts = path.split('/');
    parts.next() == Some("fixtures")
        && parts.next().is_some()
        && parts.next().is_some()
        && parts.next() == Some(GENERATED_FOLDER)
        && parts.next().is_some()
}

/// The problems `check` reports for the table of `tree`: one when it does
/// not make its fixtures, else one per generated file that differs.
pub(crate) fn problems(tree: &SuiteTree) -> Vec<SuiteProblem> {
    let problem = |file: String, message: String| SuiteProblem {
        file,
        position: None,
        message,
        kind: SuiteProblemKind::Broken,
    };
    match generate(tree) {
        Err(MatrixError::Load(error)) => vec![SuiteProblem {
            file: error.file,
            position: Some(error.position),
            message: error.message,
            kind: SuiteProblemKind::Broken,
        }],
        Err(MatrixError::Invalid { file, at, message }) => {
            vec![problem(file, format!("at {at} of the table: {message}"))]
        }
        Ok(generated) => differences(tree, &generated)
            .into_iter()
            .map(|difference| {
                problem(
                    tree.display_path(&difference.path),
                    format!(
                        "{difference}; `mcpdesc-conformance bless` writes the fixtures of \
                         {MATRICES_FILE} again"
                    ),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(table: &str, files: &[(&str, &str)]) -> SuiteTree {
        SuiteTree::from_files(
            std::iter::once((MATRICES_FILE.to_owned(), table.as_bytes().to_vec())).chain(
                files
                    .iter()
                    .map(|(name, text)| ((*name).to_owned(), text.as_bytes().to_vec())),
            ),
        )
    }

    const TABLE: &str = r#"
matrices:
  - id: info
    suite: document
    class: invalid
    statement: "{slot} {change}."
    base: {mcpdesc: "0.9.0", info: {name: a, version: "1"}, tags: [{name: t}]}
    slots:
      - {name: name, label: "`info.name`", at: /info/name, type: string, variants: [wrong-type, empty, missing]}
      - {name: tags, label: "`tags`", at: /tags, type: array, entry: object, variants: [entries]}
      - name: root
        label: the root
        at: ""
        type: object
        values: [{name: list, value: [1], says: "an array"}]
"#;

    #[test]
    fn every_variant_of_every_slot_is_one_fixture_with_its_sentence_first() {
        let generated = generate(&tree(TABLE, &[])).unwrap();
        let names: Vec<&str> = generated
            .iter()
            .map(|file| {
                file.path
                    .strip_prefix("fixtures/document/expected-invalid/generated/info/")
                    .unwrap()
            })
            .collect();
        assert_eq!(
            names,
            [
                "name-array.json",
                "name-boolean.json",
                "name-empty.json",
                "name-missing.json",
                "name-null.json",
                "name-number.json",
                "name-object.json",
                "root-list.json",
                "root-list.json.x-test",
                "tags-entry-array.json",
                "tags-entry-boolean.json",
                "tags-entry-last.json",
                "tags-entry-null.json",
                "tags-entry-number.json",
                "tags-entry-string.json",
            ]
        );
        let text = |name: &str| {
            &generated
                .iter()
                .find(|file| file.path.ends_with(name))
                .unwrap()
                .text
        };
        assert_eq!(
            text("/name-number.json"),
            "{\n  \"x-test\": \"`info.name` is a number (7) instead of a string.\",\n  \
             \"mcpdesc\": \"0.9.0\",\n  \"info\": {\n    \"name\": 7,\n    \"version\": \"1\"\n  },\n  \
             \"tags\": [\n    {\n      \"name\": \"t\"\n    }\n  ]\n}\n"
        );
        let missing: Value = serde_json::from_str(text("/name-missing.json")).unwrap();
        assert_eq!(missing["info"], json!({"version": "1"}));
        let entries: Value = serde_json::from_str(text("/tags-entry-string.json")).unwrap();
        assert_eq!(entries["tags"], json!(["seven", {"name": "t"}]));
        let last: Value = serde_json::from_str(text("/tags-entry-last.json")).unwrap();
        assert_eq!(last["tags"], json!([{"name": "t"}, "seven"]));
        assert_eq!(text("/root-list.json"), "[\n  1\n]\n");
        assert_eq!(
            text("/root-list.json.x-test"),
            "the root is an array ([1]).\n"
        );
    }

    #[test]
    fn a_slot_the_base_lacks_is_an_error_at_the_slot() {
        let table = TABLE.replace("at: /info/name", "at: /info/title");
        let error = generate(&tree(&table, &[])).unwrap_err();
        let MatrixError::Invalid { at, message, .. } = &error else {
            panic!("{error:?}");
        };
        assert_eq!(at, "/matrices/0/slots/0");
        assert!(message.contains("/info/title"), "{message}");
        let table = TABLE.replace("variants: [entries]", "variants: [empty, empty]");
        let error = generate(&tree(&table, &[])).unwrap_err().to_string();
        assert!(error.contains("same name"), "{error}");
    }

    #[test]
    fn differences_name_missing_changed_and_foreign_generated_files() {
        let folder = "fixtures/document/expected-invalid/generated/info";
        let tree_of = |files: &[(&str, &str)]| tree(TABLE, files);
        let generated = generate(&tree_of(&[])).unwrap();
        let all: Vec<(String, String)> = generated
            .iter()
            .map(|file| (file.path.clone(), file.text.clone()))
            .collect();
        let whole = SuiteTree::from_files(
            std::iter::once((MATRICES_FILE.to_owned(), TABLE.as_bytes().to_vec())).chain(
                all.iter()
                    .map(|(path, text)| (path.clone(), text.as_bytes().to_vec())),
            ),
        );
        assert_eq!(differences(&whole, &generated), []);
        assert_eq!(problems(&whole), []);
        let edited = SuiteTree::from_files(
            std::iter::once((MATRICES_FILE.to_owned(), TABLE.as_bytes().to_vec()))
                .chain(all.iter().skip(1).map(|(path, text)| {
                    let text = if path.ends_with("name-boolean.json") {
                        text.replace("true", "false")
                    } else {
                        text.clone()
                    };
                    (path.clone(), text.into_bytes())
                }))
                .chain(std::iter::once((
                    format!("{folder}/by-hand.json"),
                    b"{}".to_vec(),
                ))),
        );
        let found: Vec<(String, bool, bool)> = differences(&edited, &generated)
            .into_iter()
            .map(|d| (d.path, d.old.is_some(), d.new.is_some()))
            .collect();
        assert_eq!(
            found,
            [
                (format!("{folder}/by-hand.json"), true, false),
                (format!("{folder}/name-array.json"), false, true),
                (format!("{folder}/name-boolean.json"), true, true),
            ]
        );
        // Files outside generated folders are not the table's business.
        assert!(!is_generated("fixtures/document/expected-invalid/a.json"));
        assert!(is_generated(&format!("{folder}/a.json")));
    }
}
