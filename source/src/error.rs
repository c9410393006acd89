//! Why a document could not be loaded, and where.

use crate::Position;

/// A document that could not be loaded: the file, the place and what was
/// expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", position.line, position.column)]
pub struct LoadError {
    /// The file, as the caller named it.
    pub file: String,
    /// Where the problem was found (1-based line and column).
    pub position: Position,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl LoadError {
    /// A load error at `position` in `file`.
    pub fn new(file: &str, position: Position, message: impl Into<String>) -> Self {
        LoadError {
            file: file.to_owned(),
            position,
            message: message.into(),
        }
    }
}
