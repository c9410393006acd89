//! The in-process face of a validator.

use crate::{Implementation, Reply, ValidateRequest};

/// A validator the harness can call directly, in the same process.
///
/// The reference validator implements it, and so can any Rust validator; the
/// harness then compares its replies exactly as it compares those of an
/// external process. Implementations must not panic on any document: every
/// JSON value is a possible input.
pub trait Validator: Send + Sync {
    /// Who this validator is and what it covers.
    fn implementation(&self) -> Implementation;

    /// Validates one document under one revision.
    fn validate(&self, request: &ValidateRequest) -> Reply;
}
