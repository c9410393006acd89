//! What a validator says about itself.

use serde::{Deserialize, Serialize};

/// Metadata a validator announces before it validates anything: who it is,
/// and which specifications, revisions and rules it covers.
///
/// `revisions` and `rules` are kept as strings so that a validator announcing
/// a revision this harness does not know is not rejected for it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Implementation {
    /// The implementation's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The language it is written in.
    #[serde(default)]
    pub language: String,
    /// Where to read about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    /// Where to report problems with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issues: Option<String>,
    /// MCP Description versions it validates (e.g. `0.9.0`).
    #[serde(default)]
    pub specifications: Vec<String>,
    /// MCP protocol revisions it validates for; cases under any other
    /// revision are skipped, never failed.
    #[serde(default)]
    pub revisions: Vec<String>,
    /// Rule IDs it claims to check, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<String>>,
}
