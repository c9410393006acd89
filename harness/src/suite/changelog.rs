//! The suite's version and its changelog (`suites/changelog.yaml`): every
//! version of the suite, newest first, with the cases it added, the cases
//! whose expectations (or the way they are judged) it changed, and the
//! cases it removed. Reports, statements and badges carry the newest
//! version, so that an implementer's CI tells a new rule from a
//! regression: a case that fails after the suite's version moved is looked
//! up here before it is called a regression.
//!
//! ```yaml
//! - version: 0.2.0
//!   date: 2026-12-02
//!   summary: What changed, in a sentence or two.
//!   added: ["elicitation/expected-invalid/new-case.json"]
//!   changed: ["document/expected-valid/legacy-revisions.json@2025-03-26"]
//!   removed: []
//! ```
//!
//! Case lists take what `run --filter` takes: a case ID, a fixture ID for
//! every revision, or a pattern with `*` and `?`.

use std::fmt;

use serde::Deserialize;

use crate::suite::case;

/// Where a suite tree keeps its changelog.
pub const CHANGELOG_FILE: &str = "suites/changelog.yaml";

/// The suite's versions, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Changelog {
    /// Every version, newest first.
    pub releases: Vec<Release>,
}

/// One version of the suite and what it changed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Release {
    /// Its semantic version (`MAJOR.MINOR.PATCH`).
    pub version: String,
    /// The day it was made (`YYYY-MM-DD`).
    pub date: String,
    /// What changed, for people.
    pub summary: String,
    /// Cases it added.
    #[serde(default)]
    pub added: Vec<String>,
    /// Cases whose expectations, or the way they are judged, it changed.
    #[serde(default)]
    pub changed: Vec<String>,
    /// Cases it removed.
    #[serde(default)]
    pub removed: Vec<String>,
}

/// What is wrong with a changelog.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChangelogProblem {
    /// It lists no version.
    #[error(
        "the changelog lists no version: give the suite one (`- version: 0.1.0`, with its date and summary)"
    )]
    Empty,
    /// A version that is not `MAJOR.MINOR.PATCH`.
    #[error("`{0}` is not a semantic version (MAJOR.MINOR.PATCH, each a number)")]
    NotSemantic(String),
    /// A date that is not `YYYY-MM-DD`.
    #[error("version {version}: `{date}` is not a date (YYYY-MM-DD)")]
    BadDate {
        /// The version.
        version: String,
        /// The date as written.
        date: String,
    },
    /// Versions not newest first, or one listed twice.
    #[error(
        "version {later} comes after {earlier}, but is not older: list versions newest first, each once"
    )]
    OutOfOrder {
        /// The version listed first.
        earlier: String,
        /// The version listed after it.
        later: String,
    },
}

/// A semantic version, as three numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Semantic(u64, u64, u64);

impl Semantic {
    fn parse(text: &str) -> Option<Semantic> {
        let mut parts = text.split('.').map(|part| {
            (!part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()))
                .then(|| part.parse::<u64>().ok())
                .flatten()
        });
        let version = Semantic(parts.next()??, parts.next()??, parts.next()??);
        parts.next().is_none().then_some(version)
    }
}

impl fmt::Display for Semantic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

impl Changelog {
    /// The suite's version: the newest one listed (`0.0.0` for an empty
    /// changelog, which is a suite problem).
    pub fn version(&self) -> &str {
        self.releases
            .first()
            .map_or("0.0.0", |release| release.version.as_str())
    }

    /// The newest version, when there is one.
    pub fn newest(&self) -> Option<&Release> {
        self.releases.first()
    }

    /// What is wrong with the changelog, in order.
    pub fn problems(&self) -> Vec<ChangelogProblem> {
        let mut problems = Vec::new();
        if self.releases.is_empty() {
            problems.push(ChangelogProblem::Empty);
        }
        let mut previous: Option<(Semantic, &str)> = None;
        for release in &self.releases {
            let Some(version) = Semantic::parse(&release.version) else {
                problems.push(ChangelogProblem::NotSemantic(release.version.clone()));
                continue;
            };
            if !is_date(&release.date) {
                problems.push(ChangelogProblem::BadDate {
                    version: release.version.clone(),
                    date: release.date.clone(),
                });
            }
            if let Some((earlier, text)) = previous
                && version >= earlier
            {
                problems.push(ChangelogProblem::OutOfOrder {
                    earlier: text.to_owned(),
                    later: release.version.clone(),
                });
            }
            previous = Some((version, &release.version));
        }
        problems
    }
}

impl Release {
    /// Whether this version lists the case `id` (`<fixture ID>@<revision>`)
    /// among those it added, changed or removed.
    pub fn lists(&self, id: &str) -> bool {
        self.added
            .iter()
            .chain(&self.changed)
            .chain(&self.removed)
            .any(|pattern| lists(pattern, id))
    }
}

/// Whether a changelog `pattern` covers the case `id`, as `--filter` would
/// select it: a pattern without `@` covers the fixture under every
/// revision.
fn lists(pattern: &str, id: &str) -> bool {
    match (pattern.contains('@'), id.split_once('@')) {
        (false, Some((fixture, _))) => case::matches(pattern, fixture),
        _ => case::matches(pattern, id),
    }
}

fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(index, byte)| index == 4 || index == 7 || byte.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(version: &str, date: &str) -> Release {
        Release {
            version: version.into(),
            date: date.into(),
            summary: "s".into(),
            added: vec![],
            changed: vec!["document/expected-valid/*".into()],
            removed: vec![],
        }
    }

    #[test]
    fn the_newest_version_is_the_suites() {
        let log = Changelog {
            releases: vec![
                release("0.10.0", "2026-12-02"),
                release("0.9.1", "2026-01-01"),
            ],
        };
        assert_eq!(log.version(), "0.10.0");
        assert_eq!(log.problems(), []);
        assert!(log.releases[0].lists("document/expected-valid/minimal.json@2025-06-18"));
        assert!(!log.releases[0].lists("document/expected-invalid/missing-info.json@2025-06-18"));
        // A removed fixture is listed too: its expectation file goes with it.
        let mut removing = release("0.11.0", "2026-12-03");
        removing.removed = vec!["document/expected-invalid/missing-info.json".into()];
        assert!(removing.lists("document/expected-invalid/missing-info.json@2025-06-18"));
    }

    #[test]
    fn versions_dates_and_order_are_checked() {
        let log = Changelog {
            releases: vec![
                release("0.2.0", "2026-12-02"),
                release("0.2.0", "2026-12-01"),
                release("1.0", "yesterday"),
                release("0.1.0", "2026-13"),
            ],
        };
        assert_eq!(
            log.problems(),
            [
                ChangelogProblem::OutOfOrder {
                    earlier: "0.2.0".into(),
                    later: "0.2.0".into()
                },
                ChangelogProblem::NotSemantic("1.0".into()),
                ChangelogProblem::BadDate {
                    version: "0.1.0".into(),
                    date: "2026-13".into()
                },
            ]
        );
        assert_eq!(Changelog::default().problems(), [ChangelogProblem::Empty]);
        assert_eq!(Semantic::parse("01.2.3"), Some(Semantic(1, 2, 3)));
        assert_eq!(Semantic::parse("1.2.3.4"), None);
        assert_eq!(Semantic::parse("1.2.x"), None);
    }
}
