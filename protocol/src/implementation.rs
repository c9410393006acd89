//! What a validator says about itself.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::SourceTextSupport;

/// Metadata a validator announces before it validates anything: who it is,
/// and which specifications, revisions and rules it covers.
///
/// `revisions` and `rules` are kept as strings so that a validator announcing
/// a revision this harness does not know is not rejected for it. Members the
/// contract does not define (`x-` extensions, and members of a later
/// contract version) are kept in [`Implementation::other`], so that a report
/// carries the validator's whole announced identity.
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
    /// Whether it parses documents' source text itself, and which formats
    /// (`sourceText` on the wire): serialization cases are sent only to a
    /// validator that announces their format, and skipped for any other.
    #[serde(
        default,
        rename = "sourceText",
        skip_serializing_if = "Option::is_none"
    )]
    pub source_text: Option<SourceTextSupport>,
    /// Every other member it announced, by name, as given: `x-` extension
    /// members (such as `"x-build": "debug"`, which tells two configurations
    /// of one validator apart) and members this contract version does not
    /// define. None of them changes how cases are run or judged.
    #[serde(flatten, default, skip_serializing_if = "BTreeMap::is_empty")]
    pub other: BTreeMap<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_the_contract_does_not_define_are_kept_as_announced() {
        let announced = json!({
            "name": "v", "version": "1", "revisions": ["2025-06-18"],
            "x-build": {"profile": "debug", "features": ["a"]}, "license": "MIT"
        });
        let implementation: Implementation = serde_json::from_value(announced.clone()).unwrap();
        assert_eq!(implementation.name, "v");
        assert_eq!(
            implementation.other.keys().collect::<Vec<_>>(),
            ["license", "x-build"]
        );
        let mut written = serde_json::to_value(&implementation).unwrap();
        // The defined members are written out in full; the others as given.
        for defined in ["language", "specifications"] {
            written.as_object_mut().unwrap().remove(defined);
        }
        assert_eq!(written, announced);
        let bare = serde_json::to_value(Implementation::default()).unwrap();
        assert!(bare.get("other").is_none(), "{bare}");
    }
}
