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

/// A reference to a validator is a validator, so that code taking one by
/// value (the harness's in-process backend) also takes a borrowed one.
impl<V: Validator + ?Sized> Validator for &V {
    fn implementation(&self) -> Implementation {
        (**self).implementation()
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        (**self).validate(request)
    }
}

/// A shared validator is a validator.
impl<V: Validator + ?Sized> Validator for std::sync::Arc<V> {
    fn implementation(&self) -> Implementation {
        (**self).implementation()
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        (**self).validate(request)
    }
}
