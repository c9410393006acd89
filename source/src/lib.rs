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
mod yaml;

pub use error::LoadError;
pub use format::Format;
pub use location::{Locations, Position};

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
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let position = Position::of_offset(bytes, error.valid_up_to());
        LoadError::new(file, position, "file is not valid UTF-8")
    })?;
    yaml::parse(file, text)
}

/// A loaded document: its JSON value and where each of its values starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The document as JSON.
    pub value: Value,
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
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(LoadError::new(
            file,
            Position::START,
            format!(
                "document is {} bytes; the limit is {MAX_DOCUMENT_BYTES}",
                bytes.len()
            ),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let position = Position::of_offset(bytes, error.valid_up_to());
        LoadError::new(file, position, "document is not valid UTF-8")
    })?;
    let (value, locations) = match format {
        Format::Json => json::load(file, text)?,
        Format::Yaml => yaml::load(file, text)?,
    };
    Ok(Document {
        value,
        format,
        locations,
    })
}
