//! One validation exchange: the request a validator gets and the reply it gives.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Diagnostic, Revision};

/// "Is this document conforming when served under this revision?"
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidateRequest {
    /// The case's name, for the validator's own logs (e.g.
    /// `elicitation/expected-invalid/x.json`).
    pub case: String,
    /// The MCP Description version the document is checked against.
    pub specification: String,
    /// The MCP protocol revision the document is checked for.
    pub revision: Revision,
    /// The document, as JSON (YAML fixtures are converted before sending).
    pub document: Value,
}

/// Why a validator declined a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    /// A sentence saying why.
    pub reason: String,
    /// A link to the tracking issue, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
}

/// The validator failed on a case (its own fault, not the document's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidatorError {
    /// What went wrong.
    pub message: String,
}

/// A validator's answer to one [`ValidateRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reply {
    /// The findings; an empty list means the document conforms.
    Diagnostics(Vec<Diagnostic>),
    /// The validator does not handle this case.
    Skipped(Skip),
    /// The validator failed on this case.
    Error(ValidatorError),
}
