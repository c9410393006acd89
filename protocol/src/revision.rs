//! MCP protocol revisions: the closed, ordered set a description can name.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One MCP protocol revision, in release order.
///
/// The set is closed: a string outside it is not a revision, and parsing it
/// fails with [`UnknownRevision`]. The derived ordering is chronological, so
/// "before 2025-06-18" is `revision < Revision::R2025_06_18`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Revision {
    /// MCP 2024-11-05, a legacy compatibility revision.
    R2024_11_05,
    /// MCP 2025-03-26, a legacy compatibility revision.
    R2025_03_26,
    /// MCP 2025-06-18: the first with elicitation (form mode only).
    R2025_06_18,
    /// MCP 2025-11-25: adds URL-mode elicitation and a wider form vocabulary.
    R2025_11_25,
    /// MCP 2026-07-28.
    R2026_07_28,
}

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 5] = [
        Revision::R2024_11_05,
        Revision::R2025_03_26,
        Revision::R2025_06_18,
        Revision::R2025_11_25,
        Revision::R2026_07_28,
    ];

    /// The revision's date string, as it appears in documents and messages.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::R2024_11_05 => "2024-11-05",
            Revision::R2025_03_26 => "2025-03-26",
            Revision::R2025_06_18 => "2025-06-18",
            Revision::R2025_11_25 => "2025-11-25",
            Revision::R2026_07_28 => "2026-07-28",
        }
    }

    /// The revisions a document is validated under: the known revisions its
    /// root `protocolVersions` names, oldest first and without repeats, or
    /// every revision when it names none (or has no such array).
    pub fn of_document(document: &serde_json::Value) -> Vec<Revision> {
        let mut named: Vec<Revision> = document
            .get("protocolVersions")
            .and_then(serde_json::Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| item.as_str()?.parse().ok())
                    .collect()
            })
            .unwrap_or_default();
        named.sort();
        named.dedup();
        if named.is_empty() {
            Revision::ALL.to_vec()
        } else {
            named
        }
    }

    /// Whether this is a legacy compatibility revision, for which validation
    /// is structural only and never claims complete semantic conformance.
    pub const fn is_legacy(self) -> bool {
        matches!(self, Revision::R2024_11_05 | Revision::R2025_03_26)
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that names no MCP protocol revision.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown MCP protocol revision `{0}` (expected one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)"
)]
pub struct UnknownRevision(pub String);

impl FromStr for Revision {
    type Err = UnknownRevision;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Revision::ALL
            .into_iter()
            .find(|revision| revision.as_str() == text)
            .ok_or_else(|| UnknownRevision(text.to_owned()))
    }
}

impl Serialize for Revision {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Revision {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_revision_in_order() {
        let parsed: Vec<Revision> = Revision::ALL
            .iter()
            .map(|r| r.as_str().parse().unwrap())
            .collect();
        assert_eq!(parsed, Revision::ALL);
        assert!(Revision::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rejects_near_misses() {
        for text in ["2025-06-19", "2025-6-18", " 2025-06-18", "latest", ""] {
            assert_eq!(text.parse::<Revision>(), Err(UnknownRevision(text.into())));
        }
    }

    #[test]
    fn a_document_runs_under_the_known_revisions_it_names_or_all() {
        let of = |value| Revision::of_document(&value);
        use serde_json::json;
        assert_eq!(
            of(json!({"protocolVersions": ["2025-11-25", "x", 3, "2025-06-18", "2025-11-25"]})),
            [Revision::R2025_06_18, Revision::R2025_11_25]
        );
        assert_eq!(of(json!({"protocolVersions": ["x"]})), Revision::ALL);
        assert_eq!(of(json!({"protocolVersions": "2025-06-18"})), Revision::ALL);
        assert_eq!(of(json!([])), Revision::ALL);
    }

    #[test]
    fn legacy_is_exactly_the_first_two() {
        let legacy: Vec<_> = Revision::ALL
            .into_iter()
            .filter(|r| r.is_legacy())
            .collect();
        assert_eq!(legacy, [Revision::R2024_11_05, Revision::R2025_03_26]);
    }
}
