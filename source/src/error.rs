//! Why a document could not be loaded, and where.

use crate::Position;

/// A document that could not be loaded: the file, the place and what was
/// expected there, with the kind of fault and, where the fault sits inside
/// a value the text does decode, that value's JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", position.line, position.column)]
pub struct LoadError {
    /// The file, as the caller named it.
    pub file: String,
    /// Where the problem was found (1-based line and column).
    pub position: Position,
    /// What is wrong, and what was expected.
    pub message: String,
    /// Which rule of the serializations the text breaks.
    pub kind: LoadErrorKind,
    /// The JSON pointer of the value the fault belongs to, when there is
    /// one: the repeated member for a duplicate key, the mapping for a key
    /// that is not a string, the node for a tag, an alias or a non-finite
    /// number, the lone surrogate's string. `None` for faults of the whole
    /// text (syntax, encoding, size, depth, the number of YAML documents).
    pub pointer: Option<String>,
}

/// The kinds of fault that stop a text from decoding to a document, after
/// Section 15 of the specification (and the loader's own limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The text is not well-formed JSON or YAML.
    Syntax,
    /// The bytes are not UTF-8, or start with a byte-order mark.
    Encoding,
    /// The text is larger than [`crate::MAX_DOCUMENT_BYTES`].
    Size,
    /// The document nests deeper than [`crate::MAX_DEPTH`].
    Depth,
    /// A YAML stream holds no document, or more than one.
    DocumentCount,
    /// A YAML mapping key that does not resolve to a string.
    KeyType,
    /// A mapping with the same key twice.
    DuplicateKey,
    /// A number that is infinite or not a number, as written or once read
    /// as a double.
    NonFinite,
    /// A YAML tag other than the core tags of JSON-compatible values.
    Tag,
    /// A YAML alias.
    Alias,
    /// A string holding a lone UTF-16 surrogate.
    String,
}

impl LoadError {
    /// A syntax error at `position` in `file`.
    pub fn new(file: &str, position: Position, message: impl Into<String>) -> Self {
        LoadError::of(file, position, LoadErrorKind::Syntax, None, message)
    }

    /// An error of `kind` at `position` in `file`, inside the value at
    /// `pointer` when there is one.
    pub fn of(
        file: &str,
        position: Position,
        kind: LoadErrorKind,
        pointer: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        LoadError {
            file: file.to_owned(),
            position,
            message: message.into(),
            kind,
            pointer,
        }
    }
}
