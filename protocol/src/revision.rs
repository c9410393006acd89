//! MCP protocol revisions: an open, validated type for one revision, and the
//! ordered set of revisions a suite knows.
//!
//! Which revisions exist is data, not code: the suite lists them in
//! `suites/revisions.yaml`, the harness hands that list to validators (in the
//! `start` message, or to an in-process validator when it is built), and a
//! new revision is added by editing the list.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One MCP protocol revision, named by its release date (`2025-06-18`).
///
/// Any well-formed date is a revision value; whether a suite or a validator
/// *knows* it is a question for [`Revisions`]. Ordering is chronological, so
/// "from 2025-06-18 on" is `revision >= Revision::of("2025-06-18")`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Revision {
    // `YYYY-MM-DD` in ASCII: byte order is date order.
    date: [u8; 10],
}

impl Revision {
    /// The revision named by `text`, checked when the program is compiled:
    /// for the fixed dates a validator's rules depend on
    /// (`const FIRST_WITH_URL: Revision = Revision::of("2025-11-25");`).
    ///
    /// # Panics
    ///
    /// When `text` is not a date `YYYY-MM-DD` (at compile time in a
    /// `const`).
    pub const fn of(text: &str) -> Revision {
        match Revision::checked(text.as_bytes()) {
            Some(revision) => revision,
            None => panic!("an MCP revision is a date written YYYY-MM-DD"),
        }
    }

    const fn checked(bytes: &[u8]) -> Option<Revision> {
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let mut date = [0u8; 10];
        let mut i = 0;
        while i < 10 {
            if i != 4 && i != 7 && !bytes[i].is_ascii_digit() {
                return None;
            }
            date[i] = bytes[i];
            i += 1;
        }
        let (year, month, day) = (
            number(bytes, 0, 4),
            number(bytes, 5, 7),
            number(bytes, 8, 10),
        );
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if day == 0 || day > days {
            return None;
        }
        Some(Revision { date })
    }

    /// The revision's date string, as it appears in documents and messages.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits and dashes are ever stored.
        std::str::from_utf8(&self.date).unwrap_or_default()
    }
}

/// The decimal number the ASCII digits `bytes[from..to]` spell.
const fn number(bytes: &[u8], from: usize, to: usize) -> u32 {
    let mut value = 0u32;
    let mut i = from;
    while i < to {
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Revision({})", self.as_str())
    }
}

/// A string that is not an MCP revision: revisions are dates, `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an MCP protocol revision (expected a date written YYYY-MM-DD)")]
pub struct InvalidRevision(pub String);

impl FromStr for Revision {
    type Err = InvalidRevision;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Revision::checked(text.as_bytes()).ok_or_else(|| InvalidRevision(text.to_owned()))
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

/// One entry of a [`Revisions`] list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownRevision {
    /// The revision.
    pub revision: Revision,
    /// Whether it is a legacy compatibility revision, for which validation
    /// is structural only and never claims complete semantic conformance.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legacy: bool,
}

/// The MCP revisions a suite knows, oldest first, each once: the revisions
/// a description may name in `protocolVersions`.
///
/// It is read from the suite's `suites/revisions.yaml` and sent to
/// validators in `start`; in JSON and YAML it is a list of
/// [`KnownRevision`]s, `[{"revision": "2024-11-05", "legacy": true}, …]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<KnownRevision>", into = "Vec<KnownRevision>")]
pub struct Revisions {
    known: Vec<KnownRevision>,
}

/// Why a list of revisions is not a [`Revisions`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RevisionsError {
    /// The list is empty.
    #[error("the list of MCP revisions is empty")]
    Empty,
    /// An entry is not later than the one before it.
    #[error(
        "MCP revisions are listed oldest first, each once, but `{later}` comes after `{earlier}`"
    )]
    OutOfOrder {
        /// The entry before.
        earlier: Revision,
        /// The entry that should have been later.
        later: Revision,
    },
}

impl TryFrom<Vec<KnownRevision>> for Revisions {
    type Error = RevisionsError;

    fn try_from(known: Vec<KnownRevision>) -> Result<Self, Self::Error> {
        if known.is_empty() {
            return Err(RevisionsError::Empty);
        }
        if let Some(pair) = known
            .windows(2)
            .find(|pair| pair[0].revision >= pair[1].revision)
        {
            return Err(RevisionsError::OutOfOrder {
                earlier: pair[0].revision,
                later: pair[1].revision,
            });
        }
        Ok(Revisions { known })
    }
}

impl From<Revisions> for Vec<KnownRevision> {
    fn from(revisions: Revisions) -> Self {
        revisions.known
    }
}

impl Revisions {
    /// Every known revision, oldest first.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Revision> + '_ {
        self.known.iter().map(|known| known.revision)
    }

    /// Every known revision with whether it is legacy, oldest first.
    pub fn entries(&self) -> &[KnownRevision] {
        &self.known
    }

    /// How many revisions are known.
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Never true: a [`Revisions`] holds at least one revision.
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// Whether `revision` is one of these.
    pub fn contains(&self, revision: Revision) -> bool {
        self.entry(revision).is_some()
    }

    /// The known revision `text` names, if it names one.
    pub fn get(&self, text: &str) -> Option<Revision> {
        self.iter().find(|revision| revision.as_str() == text)
    }

    /// Whether `revision` is a known legacy revision.
    pub fn is_legacy(&self, revision: Revision) -> bool {
        self.entry(revision).is_some_and(|known| known.legacy)
    }

    fn entry(&self, revision: Revision) -> Option<&KnownRevision> {
        self.known.iter().find(|known| known.revision == revision)
    }

    /// The revisions a document is validated under: the known revisions its
    /// root `protocolVersions` names, oldest first and without repeats, or
    /// every known revision when it names none (or has no such array).
    pub fn of_document(&self, document: &serde_json::Value) -> Vec<Revision> {
        let named: Vec<&str> = document
            .get("protocolVersions")
            .and_then(serde_json::Value::as_array)
            .map(|items| items.iter().filter_map(serde_json::Value::as_str).collect())
            .unwrap_or_default();
        let listed: Vec<Revision> = self
            .iter()
            .filter(|revision| named.contains(&revision.as_str()))
            .collect();
        if listed.is_empty() {
            self.iter().collect()
        } else {
            listed
        }
    }

    /// The names of the known revisions, oldest first, joined by `, `: for
    /// messages that say what was expected.
    pub fn names(&self) -> String {
        self.iter()
            .map(|revision| revision.as_str().to_owned())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn revisions(list: &[(&str, bool)]) -> Result<Revisions, RevisionsError> {
        list.iter()
            .map(|(text, legacy)| KnownRevision {
                revision: text.parse().unwrap(),
                legacy: *legacy,
            })
            .collect::<Vec<_>>()
            .try_into()
    }

    #[test]
    fn a_revision_is_any_calendar_date_and_orders_by_date() {
        for text in [
            "2024-11-05",
            "2027-03-01",
            "2028-02-29",
            "2000-02-29",
            "1999-12-31",
        ] {
            assert_eq!(text.parse::<Revision>().unwrap().as_str(), text);
        }
        assert!(Revision::of("2025-06-18") < Revision::of("2025-11-25"));
        assert!(Revision::of("2025-12-01") < Revision::of("2026-01-01"));
        assert_eq!(
            format!("{:?}", Revision::of("2025-06-18")),
            "Revision(2025-06-18)"
        );
    }

    #[test]
    fn rejects_what_is_not_a_date() {
        for text in [
            "2025-6-18",
            " 2025-06-18",
            "2025-06-18 ",
            "latest",
            "",
            "2025-13-01",
            "2025-00-10",
            "2025-06-00",
            "2025-06-31",
            "2100-02-29",
            "2025-02-29",
            "2025/06/18",
            "２０２５-06-18",
        ] {
            assert_eq!(
                text.parse::<Revision>(),
                Err(InvalidRevision(text.into())),
                "{text}"
            );
        }
    }

    #[test]
    fn serde_uses_the_date_string_and_checks_it() {
        let revision = Revision::of("2026-07-28");
        assert_eq!(serde_json::to_value(revision).unwrap(), json!("2026-07-28"));
        assert_eq!(
            serde_json::from_value::<Revision>(json!("2026-07-28")).unwrap(),
            revision
        );
        assert!(serde_json::from_value::<Revision>(json!("2026-7-28")).is_err());
    }

    #[test]
    fn a_list_is_non_empty_and_strictly_oldest_first() {
        assert_eq!(revisions(&[]), Err(RevisionsError::Empty));
        let repeat = revisions(&[("2025-06-18", false), ("2025-06-18", false)]);
        assert!(matches!(repeat, Err(RevisionsError::OutOfOrder { .. })));
        let backwards = revisions(&[("2025-11-25", false), ("2025-06-18", false)]);
        assert_eq!(
            backwards.unwrap_err().to_string(),
            "MCP revisions are listed oldest first, each once, but `2025-06-18` comes after `2025-11-25`"
        );
    }

    #[test]
    fn a_list_reads_and_writes_as_entries() {
        let parsed: Revisions = serde_json::from_value(json!([
            {"revision": "2025-03-26", "legacy": true},
            {"revision": "2025-06-18"}
        ]))
        .unwrap();
        assert!(parsed.is_legacy(Revision::of("2025-03-26")));
        assert!(!parsed.is_legacy(Revision::of("2025-06-18")));
        assert!(!parsed.is_legacy(Revision::of("2024-11-05")));
        assert_eq!(
            serde_json::to_value(&parsed).unwrap(),
            json!([{"revision": "2025-03-26", "legacy": true}, {"revision": "2025-06-18"}])
        );
        assert!(serde_json::from_value::<Revisions>(json!([])).is_err());
        assert!(
            serde_json::from_value::<Revisions>(json!([{"revision": "2025-06-18", "x": 1}]))
                .is_err()
        );
    }

    #[test]
    fn lookups_answer_for_known_revisions_only() {
        let known = revisions(&[("2025-06-18", false), ("2025-11-25", false)]).unwrap();
        assert_eq!(known.get("2025-11-25"), Some(Revision::of("2025-11-25")));
        assert_eq!(known.get("2026-07-28"), None);
        assert!(known.contains(Revision::of("2025-06-18")));
        assert!(!known.contains(Revision::of("2027-03-01")));
        assert_eq!(known.len(), 2);
        assert!(!known.is_empty());
        assert_eq!(known.names(), "2025-06-18, 2025-11-25");
    }

    #[test]
    fn a_document_runs_under_the_known_revisions_it_names_or_all() {
        let known = revisions(&[
            ("2025-03-26", true),
            ("2025-06-18", false),
            ("2025-11-25", false),
        ])
        .unwrap();
        let of = |value| known.of_document(&value);
        let all: Vec<Revision> = known.iter().collect();
        assert_eq!(
            of(json!({"protocolVersions": ["2025-11-25", "x", 3, "2025-06-18", "2025-11-25"]})),
            [Revision::of("2025-06-18"), Revision::of("2025-11-25")]
        );
        assert_eq!(of(json!({"protocolVersions": ["2027-03-01"]})), all);
        assert_eq!(of(json!({"protocolVersions": "2025-06-18"})), all);
        assert_eq!(of(json!([])), all);
    }
}
