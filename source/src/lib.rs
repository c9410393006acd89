//! Strict loading of mcpdesc documents, and where each part of them stands.
//!
//! Fixtures, expectation files and documents handed to the reference
//! validator's binary are untrusted. This crate turns their bytes into a
//! [`serde_json::Value`] under the restricted serialization rules of MCP
//! Description: JSON, or YAML 1.2 limited to one document of JSON-compatible
//! scalars with string keys, no duplicate keys, no anchors or aliases, no
//! custom tags and finite numbers only (`on` and `yes` stay strings, `0755`
//! is not an octal number, `<<` is an ordinary key). Every refusal is a
//! [`LoadError`] naming the file, line and column.
//!
//! Alongside the value it keeps a [`Locations`] map from every JSON pointer in
//! the document to the line and column where that value starts, so a report
//! can show the fixture line that a diagnostic's pointer names.

#![warn(missing_docs)]

mod error;
mod format;
mod json;
mod location;
pub mod pointer;
mod value;
#[cfg(feature = "yaml")]
mod yaml;

pub use error::{LoadError, LoadErrorKind};
pub use format::Format;
pub use location::{Locations, Position};

use std::sync::Arc;

use serde_json::Value;

/// The largest document accepted, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 8 * 1024 * 1024;

/// The deepest nesting of arrays and objects accepted.
pub const MAX_DEPTH: usize = 128;

/// Parses the YAML text `bytes` of `file` into `T` under the same strict
/// rules as documents: for the suite's own files, whose shape `T` checks.
///
/// # Errors
///
/// A [`LoadError`] with file, line and column, as for [`load`], or where the
/// text does not have the shape `T` expects.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(
    file: &str,
    bytes: &[u8],
) -> Result<T, LoadError> {
    check_size(file, bytes)?;
    let text = decode(file, bytes, "file")?;
    #[cfg(feature = "yaml")]
    return yaml::parse(file, text);
    #[cfg(not(feature = "yaml"))]
    return Err(without_yaml(file, text));
}

/// The text of `bytes` read from `file` (a name used only in error
/// messages): UTF-8 without a byte-order mark, refused with the same
/// message, line and column as a suite file, for any file read as text.
///
/// # Errors
///
/// A [`LoadError`] at the first byte that is not UTF-8, or at the
/// byte-order mark.
pub fn text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, LoadError> {
    decode(file, bytes, "file")
}

/// The error of a build that cannot read YAML.
#[cfg(not(feature = "yaml"))]
fn without_yaml(file: &str, _text: &str) -> LoadError {
    LoadError::new(
        file,
        Position::START,
        "this build cannot read YAML: it was compiled without the `yaml` feature \
         (of mcpdesc-conformance or mcpdesc-source)",
    )
}

/// The text of `bytes`, which must be UTF-8 without a byte-order mark
/// (`what` names the input in the message: a file or a document).
fn decode<'a>(file: &str, bytes: &'a [u8], what: &str) -> Result<&'a str, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let position = Position::of_offset(bytes, error.valid_up_to());
        LoadError::of(
            file,
            position,
            LoadErrorKind::Encoding,
            None,
            format!("{what} is not valid UTF-8"),
        )
    })?;
    // JSON forbids a byte-order mark and the restricted YAML does too, so
    // that both serializations of a document start the same way; without
    // this check JSON said "expected value" and YAML silently accepted it.
    if text.starts_with('\u{feff}') {
        return Err(LoadError::of(
            file,
            Position::START,
            LoadErrorKind::Encoding,
            None,
            "a byte-order mark is not allowed; save the file as UTF-8 without one",
        ));
    }
    Ok(text)
}

fn check_size(file: &str, bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(LoadError::of(
            file,
            Position::START,
            LoadErrorKind::Size,
            None,
            format!(
                "the file is {} bytes; the limit is {MAX_DOCUMENT_BYTES}",
                bytes.len()
            ),
        ));
    }
    Ok(())
}

/// A loaded document: its JSON value and where each of its values starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The document as JSON, shared so that every case of a fixture can
    /// hand it to a validator without copying it.
    pub value: Arc<Value>,
    /// The serialization it was read from.
    pub format: Format,
    /// Where each JSON pointer's value starts in the source text.
    pub locations: Locations,
}

/// Loads `bytes` read from `file` (a name used only in error messages) as
/// `format`, strictly.
///
/// # Errors
///
/// A [`LoadError`] for text that is not UTF-8, too large or too deep, not
/// well-formed, or outside the restricted serialization rules.
pub fn load(file: &str, bytes: &[u8], format: Format) -> Result<Document, LoadError> {
    check_size(file, bytes)?;
    let text = decode(file, bytes, "document")?;
    let (value, locations) = match format {
        Format::Json => json::load(file, text)?,
        #[cfg(feature = "yaml")]
        Format::Yaml => yaml::load(file, text)?,
        #[cfg(not(feature = "yaml"))]
        Format::Yaml => return Err(without_yaml(file, text)),
    };
    Ok(Document {
        value: Arc::new(value),
        format,
        locations,
    })
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Any bytes, in either format, load or fail with a place; never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            for format in [Format::Json, Format::Yaml] {
                if let Err(error) = load("fuzz", &bytes, format) {
                    prop_assert!(error.position.line >= 1 && error.position.column >= 1);
                }
            }
        }

        /// Text made of the characters that matter to both grammars.
        #[test]
        fn structured_noise_never_panics(text in "[-{}\\[\\]:,\"'&*!#|>?~0-9a-z \n\t.]{0,200}") {
            for format in [Format::Json, Format::Yaml] {
                let _ = load("fuzz", text.as_bytes(), format);
            }
        }

        /// Every pointer the location map holds resolves in the loaded value.
        #[test]
        fn mapped_pointers_resolve(value in json_value()) {
            let text = serde_json::to_string_pretty(&value).unwrap_or_default();
            let document = load("gen.json", text.as_bytes(), Format::Json).unwrap();
            prop_assert_eq!(&*document.value, &value);
            for pointer in document.locations.pointers() {
                prop_assert!(pointer::resolve(&document.value, pointer).is_some(), "{}", pointer);
            }
        }
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            "[a-z~/ é]{0,6}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map("[a-z~/ ]{0,4}", inner, 0..6)
                    .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_refused_by_name_in_json_and_yaml() {
        let cases = [
            (Format::Json, "\u{feff}{}"),
            (Format::Yaml, "\u{feff}a: 1\n"),
        ];
        for (format, text) in cases {
            let error = load("bom", text.as_bytes(), format).unwrap_err();
            assert_eq!(error.position, Position::START, "{error}");
            assert!(
                error
                    .message
                    .starts_with("a byte-order mark is not allowed"),
                "{format}: {error}"
            );
        }
        let error =
            parse_yaml::<serde_json::Value>("bom.yaml", "\u{feff}a: 1\n".as_bytes()).unwrap_err();
        assert!(
            error
                .message
                .starts_with("a byte-order mark is not allowed"),
            "{error}"
        );
    }
}
