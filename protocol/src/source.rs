//! Source text: what a validator reads when a case is about how a document
//! is written rather than what it says.
//!
//! Most cases hand a validator the decoded document. A serialization case
//! (Section 15 of the specification: duplicate keys, YAML tags, aliases,
//! several YAML documents, non-finite numbers) cannot: once decoded, the
//! fault is gone. Such a case carries the fixture's text instead, and is
//! only sent to a validator that announced, in
//! [`Implementation::source_text`](crate::Implementation::source_text), that
//! it reads text of that format. Every other validator has the case
//! skipped, never failed.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// The version of the source-text extension these types describe: the
/// shape of [`Source`] and of [`SourceTextSupport`]. The harness sends
/// source text only to a validator announcing this version.
pub const SOURCE_TEXT_VERSION: u32 = 1;

/// A serialization of MCP Description documents (Section 15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceFormat {
    /// JSON (RFC 8259, UTF-8).
    Json,
    /// YAML 1.2.2 within the specification's restricted profile.
    Yaml,
}

impl SourceFormat {
    /// Every format, in the contract's order.
    pub const ALL: [SourceFormat; 2] = [SourceFormat::Json, SourceFormat::Yaml];

    /// The name the contract spells it with: `json` or `yaml`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SourceFormat::Json => "json",
            SourceFormat::Yaml => "yaml",
        }
    }

    /// The format the contract spells `name`, exactly (`json` or `yaml`).
    pub fn from_name(name: &str) -> Option<SourceFormat> {
        SourceFormat::ALL
            .into_iter()
            .find(|format| format.as_str() == name)
    }
}

impl fmt::Display for SourceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A document as written: its format and its text, exactly as the fixture
/// holds it (the harness only refuses bytes that are not UTF-8, since the
/// contract carries text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// How the text is written.
    pub format: SourceFormat,
    /// The text. Shared, so that each revision's request for one fixture
    /// copies nothing.
    pub text: Arc<str>,
}

/// What a validator announces about reading source text: the version of
/// this extension it speaks and the formats it parses itself.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SourceTextSupport {
    /// The extension's version, [`SOURCE_TEXT_VERSION`]; any other value is
    /// taken as no support, so a case is skipped rather than sent in a
    /// shape the validator may not expect.
    pub version: u32,
    /// The formats whose text it parses and judges (`json`, `yaml`), kept
    /// as strings so that a name this harness does not know rejects
    /// nothing.
    #[serde(default)]
    pub formats: Vec<String>,
}

impl SourceTextSupport {
    /// Support for `formats` at [`SOURCE_TEXT_VERSION`].
    pub fn of(formats: &[SourceFormat]) -> Self {
        SourceTextSupport {
            version: SOURCE_TEXT_VERSION,
            formats: formats.iter().map(|f| f.as_str().to_owned()).collect(),
        }
    }

    /// Whether a case written in `format` may be sent: this version, and
    /// `format` among the formats.
    pub fn reads(&self, format: SourceFormat) -> bool {
        self.version == SOURCE_TEXT_VERSION
            && self.formats.iter().any(|name| name == format.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_source_is_its_format_and_text() {
        let source = Source {
            format: SourceFormat::Yaml,
            text: "a: 1\n".into(),
        };
        assert_eq!(
            serde_json::to_value(&source).unwrap(),
            json!({"format": "yaml", "text": "a: 1\n"})
        );
    }

    #[test]
    fn a_format_is_named_exactly_as_the_contract_spells_it() {
        for format in SourceFormat::ALL {
            assert_eq!(SourceFormat::from_name(format.as_str()), Some(format));
            let serialized = serde_json::to_value(format).unwrap();
            assert_eq!(serialized, json!(format.as_str()));
        }
        for other in ["JSON", "yml", "", " json", "toml"] {
            assert_eq!(SourceFormat::from_name(other), None, "{other:?}");
        }
    }

    #[test]
    fn support_needs_this_version_and_the_format() {
        let support: SourceTextSupport =
            serde_json::from_value(json!({"version": 1, "formats": ["yaml", "toml"]})).unwrap();
        assert!(support.reads(SourceFormat::Yaml));
        assert!(!support.reads(SourceFormat::Json));
        let later = SourceTextSupport {
            version: 2,
            ..support
        };
        assert!(!later.reads(SourceFormat::Yaml));
        assert!(SourceTextSupport::of(&[SourceFormat::Json]).reads(SourceFormat::Json));
    }
}
