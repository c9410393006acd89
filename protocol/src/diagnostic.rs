//! What a validator reports: a rule broken at a place, with a severity.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How serious a diagnostic is. Only errors make a document non-conforming.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The document does not conform.
    Error,
    /// Worth knowing, but the document still conforms.
    Warning,
}

impl Severity {
    /// The lower-case name used on the wire and in expectation files.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: `rule` is broken at the RFC 6901 JSON pointer `path`.
///
/// `message` is for people and is never compared; two diagnostics that agree
/// on rule, path and severity are the same finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The catalog ID of the rule, e.g. `mcp.elicitation.protocol-version`.
    pub rule: String,
    /// Where in the document, as an RFC 6901 JSON pointer (`""` is the root).
    pub path: String,
    /// How serious the finding is.
    pub severity: Severity,
    /// Free text for a person reading the report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without a message.
    pub fn new(rule: impl Into<String>, path: impl Into<String>, severity: Severity) -> Self {
        Diagnostic {
            rule: rule.into(),
            path: path.into(),
            severity,
            message: None,
        }
    }

    /// The same diagnostic with a message for people.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}
