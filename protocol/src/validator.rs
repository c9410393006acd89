//! The in-process face of a validator.

use crate::{Implementation, Reply, ValidateRequest};

/// A validator the harness can call directly, in the same process.
///
/// The reference validator implements it, and so can any Rust validator; the
/// harness then compares its replies exactly as it compares those of an
/// external process. Implementations must not panic on any document: every
/// JSON value is a possible input (a panic fails the one case it happened
/// on).
///
/// - **Rule IDs.** Each [`Diagnostic`](crate::Diagnostic) names a rule by
///   the ID its suite catalog gives it: the catalogs are the files under
///   `suites/` of the `mcpdesc-suite` crate (`suites/document.yaml`,
///   `suites/elicitation.yaml`), one `id` per rule, with the revisions it
///   applies to and where its findings point. A rule ID that is in no
///   catalog, or reported under a revision it does not apply to, fails the
///   case.
/// - **Paths.** A diagnostic's `path` is an RFC 6901 JSON pointer into
///   [`ValidateRequest::document`] (`""` for the root).
/// - **Revisions.** The harness asks about a case only under the revisions
///   that [`Implementation::revisions`] announces (spelled as the
///   specification names them, `2025-06-18`); every other case is skipped,
///   never failed. A case the validator cannot judge after all is answered
///   with [`Reply::Skipped`], which is skipped too.
///
/// # Example
///
/// A validator that checks one rule, announcing two revisions:
///
/// ```
/// use mcpdesc_protocol::{
///     Diagnostic, Implementation, Reply, Severity, ValidateRequest, Validator,
/// };
///
/// struct InfoNameChecker;
///
/// impl Validator for InfoNameChecker {
///     fn implementation(&self) -> Implementation {
///         Implementation {
///             name: "info-name-checker".into(),
///             version: "0.1.0".into(),
///             language: "rust".into(),
///             specifications: vec!["0.9.0".into()],
///             // Cases under other revisions are skipped, not failed.
///             revisions: vec!["2025-06-18".into(), "2025-11-25".into()],
///             ..Implementation::default()
///         }
///     }
///
///     fn validate(&self, request: &ValidateRequest) -> Reply {
///         let name = request.document.pointer("/info/name");
///         let mut diagnostics = Vec::new();
///         if !name.is_some_and(|name| name.as_str().is_some_and(|name| !name.is_empty())) {
///             diagnostics.push(
///                 Diagnostic::new("mcpdesc.document.shape", "/info", Severity::Error)
///                     .with_message("`info.name` must be a non-empty string"),
///             );
///         }
///         Reply::Diagnostics(diagnostics)
///     }
/// }
///
/// let request = ValidateRequest {
///     case: "example".into(),
///     specification: "0.9.0".into(),
///     revision: "2025-06-18".parse().unwrap(),
///     document: std::sync::Arc::new(serde_json::json!({"info": {"name": ""}})),
///     source: None,
/// };
/// let Reply::Diagnostics(found) = InfoNameChecker.validate(&request) else {
///     unreachable!()
/// };
/// assert_eq!(found[0].rule, "mcpdesc.document.shape");
/// ```
///
/// To run the whole suite against it as `cargo test`, hand it to
/// `mcpdesc_conformance::libtest::main` in a test target without the
/// default harness (see that function).
pub trait Validator: Send + Sync {
    /// Who this validator is and what it covers: above all the
    /// [`revisions`](Implementation::revisions) it validates for, which
    /// decide the cases it is asked about.
    fn implementation(&self) -> Implementation;

    /// Validates one document under one revision: the findings, a skip, or
    /// an error.
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
