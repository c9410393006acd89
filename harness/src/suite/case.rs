//! Cases: one fixture under one revision, and how a run selects them.

use mcpdesc_protocol::Revision;

use crate::suite::{Entry, EntryIndex, SuiteSet};

/// One fixture validated under one MCP revision.
#[derive(Debug, Clone, Copy)]
pub struct Case<'s> {
    /// The fixture and its expectation.
    pub entry: &'s Entry,
    /// Where that entry sits in its suite set.
    pub index: EntryIndex,
    /// The revision it is validated under.
    pub revision: Revision,
}

impl Case<'_> {
    /// The case's ID: `<suite>/<fixture name>@<revision>`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.entry.fixture.id(), self.revision)
    }
}

/// Which cases a run takes: every filter that is set must match.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only these suites (all when empty).
    pub suites: Vec<String>,
    /// Only these revisions (all when empty).
    pub revisions: Vec<Revision>,
    /// Only cases that match one of these patterns (all when empty). See
    /// [`Selection::takes`].
    pub filters: Vec<String>,
    /// Only the cases of this shard (all when `None`).
    pub partition: Option<Partition>,
}

/// A selection word (`--suite=…`, `--revision=…`, `--filter=…`,
/// `--partition=…`) this harness does not know, or with a value it cannot
/// read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the selection has `{0}`, which this harness does not know")]
pub struct UnknownWord(pub String);

impl Selection {
    /// The selection as words, as reports and statements record it
    /// (`--suite=elicitation`, `--revision=2025-06-18`, `--filter=…`,
    /// `--partition=hash:1/3`), in that order.
    pub fn words(&self) -> Vec<String> {
        let suites = self.suites.iter().map(|suite| format!("--suite={suite}"));
        let revisions = self
            .revisions
            .iter()
            .map(|revision| format!("--revision={revision}"));
        let filters = self
            .filters
            .iter()
            .map(|filter| format!("--filter={filter}"));
        let partition = self
            .partition
            .map(|partition| format!("--partition={partition}"));
        suites
            .chain(revisions)
            .chain(filters)
            .chain(partition)
            .collect()
    }

    /// The selection that [`Selection::words`] wrote.
    ///
    /// # Errors
    ///
    /// The first word that is not one of those, or whose value does not
    /// read (a revision that is not a date, a partition not `hash:M/N`).
    pub fn from_words(words: &[String]) -> Result<Selection, UnknownWord> {
        let mut selection = Selection::default();
        for word in words {
            let unknown = || UnknownWord(word.clone());
            let (option, value) = word.split_once('=').ok_or_else(unknown)?;
            match option {
                "--suite" => selection.suites.push(value.to_owned()),
                "--revision" => selection
                    .revisions
                    .push(value.parse().map_err(|_| unknown())?),
                "--filter" => selection.filters.push(value.to_owned()),
                "--partition" => {
                    selection.partition = Some(value.parse().map_err(|_| unknown())?);
                }
                _ => return Err(unknown()),
            }
        }
        Ok(selection)
    }
}

/// One shard of a run split across machines (`--partition hash:M/N`): the
/// cases whose ID hashes to shard `M` of `N`. A case's shard depends on its
/// ID alone, so adding cases to the suite moves no other case to another
/// shard, and the shards together take every case exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    /// This shard, from 1.
    pub shard: u64,
    /// How many shards there are.
    pub count: u64,
}

/// A `--partition` value that is not `hash:M/N` with `1 <= M <= N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a partition: give `hash:M/N`, shard M of N, with 1 <= M <= N")]
pub struct PartitionError(pub String);

impl std::str::FromStr for Partition {
    type Err = PartitionError;

    fn from_str(text: &str) -> Result<Partition, PartitionError> {
        let error = || PartitionError(text.to_owned());
        let (shard, count) = text
            .strip_prefix("hash:")
            .and_then(|rest| rest.split_once('/'))
            .ok_or_else(error)?;
        let (shard, count) = (
            shard.parse::<u64>().map_err(|_| error())?,
            count.parse::<u64>().map_err(|_| error())?,
        );
        if shard == 0 || shard > count {
            return Err(error());
        }
        Ok(Partition { shard, count })
    }
}

impl std::fmt::Display for Partition {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "hash:{}/{}", self.shard, self.count)
    }
}

impl Partition {
    /// Whether the case with ID `id` belongs to this shard.
    pub fn takes(&self, id: &str) -> bool {
        stable_hash(id) % self.count == self.shard - 1
    }
}

/// FNV-1a over the bytes of `text`: a hash that is the same on every
/// machine, build and Rust version (unlike the standard library's, which is
/// randomly seeded), which is all a shard assignment needs.
fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Selection {
    /// The selected cases of `set`, in suite, fixture and revision order.
    pub fn cases<'s>(&self, set: &'s SuiteSet) -> Vec<Case<'s>> {
        let mut cases = Vec::new();
        for (suite_index, suite) in set.suites.iter().enumerate() {
            if !self.suites.is_empty() && !self.suites.contains(&suite.catalog.suite) {
                continue;
            }
            for (entry_index, entry) in suite.entries.iter().enumerate() {
                let index = EntryIndex {
                    suite: suite_index,
                    entry: entry_index,
                };
                for &revision in entry.fixture.revisions() {
                    let case = Case {
                        entry,
                        index,
                        revision,
                    };
                    if (self.revisions.is_empty() || self.revisions.contains(&revision))
                        && self.takes(&case)
                    {
                        cases.push(case);
                    }
                }
            }
        }
        cases
    }

    /// Whether `case` matches one of the filters (or there are none). A
    /// filter with `@` is matched against the whole case ID
    /// (`<suite>/<class>/<file>@<revision>`), so an ID that `list` prints
    /// selects exactly that case; any other filter is matched against the
    /// fixture ID (`<suite>/<class>/<file>`). See [`matches()`].
    pub fn takes(&self, case: &Case<'_>) -> bool {
        if let Some(partition) = self.partition
            && !partition.takes(&case.id())
        {
            return false;
        }
        self.filters.is_empty()
            || self.filters.iter().any(|pattern| {
                if pattern.contains('@') {
                    let id = case.id();
                    if pattern.contains(['*', '?']) {
                        matches(pattern, &id)
                    } else {
                        *pattern == id
                    }
                } else {
                    matches(pattern, &case.entry.fixture.id())
                }
            })
    }
}

/// A `--filter` pattern that selects no case, with the IDs nearest to it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`--filter {}` matches no case{}",
    crate::emit::escape::line(.pattern),
    nearest_text(.nearest)
)]
pub struct NoMatch {
    /// The pattern as given.
    pub pattern: String,
    /// The IDs nearest to the pattern, best first (none when nothing is
    /// near).
    pub nearest: Vec<String>,
}

fn nearest_text(nearest: &[String]) -> String {
    if nearest.is_empty() {
        return "; `list` prints the case IDs".to_owned();
    }
    let mut text = String::from("; the nearest:");
    for id in nearest {
        text.push_str("\n  ");
        text.push_str(&crate::emit::escape::line(id));
    }
    text
}

/// How many IDs a [`NoMatch`] suggests at most.
pub const SUGGESTIONS: usize = 5;

impl Selection {
    /// The filters that select no case of `set` within this selection's
    /// suites and revisions (the partition aside: a filter whose cases all
    /// fall in other shards is not a mistake), each with the IDs nearest to
    /// it among those cases.
    pub fn unmatched(&self, set: &SuiteSet) -> Vec<NoMatch> {
        let within = Selection {
            suites: self.suites.clone(),
            revisions: self.revisions.clone(),
            filters: Vec::new(),
            partition: None,
        };
        let cases = within.cases(set);
        self.filters
            .iter()
            .filter(|pattern| {
                let alone = Selection {
                    filters: vec![(*pattern).clone()],
                    ..Selection::default()
                };
                !cases.iter().any(|case| alone.takes(case))
            })
            .map(|pattern| NoMatch {
                pattern: pattern.clone(),
                nearest: nearest_cases(pattern, &cases),
            })
            .collect()
    }
}

/// The IDs of `cases` nearest to `pattern`, best first: case IDs when the
/// pattern names a revision (`@`), fixture IDs otherwise, as
/// [`Selection::takes`] matches them.
pub fn nearest_cases(pattern: &str, cases: &[Case<'_>]) -> Vec<String> {
    let ids: std::collections::BTreeSet<String> = cases
        .iter()
        .map(|case| {
            if pattern.contains('@') {
                case.id()
            } else {
                case.entry.fixture.id()
            }
        })
        .collect();
    nearest(pattern, ids.iter().map(String::as_str))
}

/// The few `candidates` nearest to `pattern`, best first, as a filter
/// would take it: a pattern without wildcards matches anywhere in an ID,
/// so its distance to an ID is its edit distance to the closest part of
/// the ID; a pattern with `@` and no wildcard must equal a case ID, so it
/// is measured against the whole ID. Wildcards are left out of the
/// measure. Candidates further than a quarter of the pattern's length (or
/// 2), or further than the best candidate and one more edit, are not
/// suggested.
pub fn nearest<'a>(pattern: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let whole = pattern.contains('@') && !pattern.contains(['*', '?']);
    let bare: Vec<char> = pattern
        .chars()
        .filter(|c| !matches!(c, '*' | '?'))
        .collect();
    let limit = (bare.len() / 4).max(2);
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|id| (distance(&bare, id, whole), id))
        .filter(|(distance, _)| *distance <= limit)
        .collect();
    scored.sort_unstable();
    // Only the best and the nearly as good: a long list of loose matches
    // hides the one meant.
    let best = scored.first().map_or(0, |(distance, _)| *distance);
    scored
        .into_iter()
        .take_while(|(distance, _)| *distance <= best + 1)
        .take(SUGGESTIONS)
        .map(|(_, id)| id.to_owned())
        .collect()
}

/// The edit distance (insertions, deletions, substitutions) between `a`
/// and `b`, whole: how far a misspelt name is from the one meant.
pub fn edit_distance(a: &str, b: &str) -> usize {
    distance(&a.chars().collect::<Vec<_>>(), b, true)
}

/// The edit distance (insertions, deletions, substitutions) from `pattern`
/// to `text`, or, unless `whole`, to the substring of `text` it is closest
/// to (the pattern may start and end anywhere in the text for free).
fn distance(pattern: &[char], text: &str, whole: bool) -> usize {
    let text: Vec<char> = text.chars().collect();
    // One row per pattern character, over the text's positions.
    let mut row: Vec<usize> = if whole {
        (0..=text.len()).collect()
    } else {
        vec![0; text.len() + 1]
    };
    for (i, &p) in pattern.iter().enumerate() {
        let mut next = vec![i + 1; text.len() + 1];
        for (j, &t) in text.iter().enumerate() {
            let substitute = row[j] + usize::from(p != t);
            next[j + 1] = substitute.min(row[j + 1] + 1).min(next[j] + 1);
        }
        row = next;
    }
    if whole {
        row[text.len()]
    } else {
        row.into_iter().min().unwrap_or(pattern.len())
    }
}

/// Whether `text` matches `pattern`. A pattern with `*` (any run of
/// characters, `/` included) or `?` (one character) must match the whole
/// text; a pattern without them matches any text that contains it.
pub fn matches(pattern: &str, text: &str) -> bool {
    if !pattern.contains(['*', '?']) {
        return text.contains(pattern);
    }
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // Classic two-pointer wildcard matching with backtracking to the last `*`.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::{Partition, Selection, UnknownWord, matches, nearest};
    use mcpdesc_protocol::Revision;

    /// What `words` writes, `from_words` reads back; anything else is
    /// refused with the word named.
    #[test]
    fn selection_words_read_back() {
        let selection = Selection {
            suites: vec!["document".into()],
            revisions: vec![Revision::of("2025-06-18")],
            filters: vec!["*name*".into(), "a=b".into()],
            partition: Some(Partition { shard: 2, count: 3 }),
        };
        let words = selection.words();
        assert_eq!(
            words,
            [
                "--suite=document",
                "--revision=2025-06-18",
                "--filter=*name*",
                "--filter=a=b",
                "--partition=hash:2/3"
            ]
        );
        assert_eq!(Selection::from_words(&words).unwrap().words(), words);
        for bad in [
            "--level=exact",
            "--suite",
            "--revision=soon",
            "--partition=3/2",
        ] {
            assert_eq!(
                Selection::from_words(&[bad.to_owned()]).unwrap_err(),
                UnknownWord(bad.to_owned())
            );
        }
    }

    #[test]
    fn the_nearest_ids_come_best_first_and_far_ones_are_left_out() {
        let ids = [
            "elicitation/expected-invalid/elicitation-version-mismatch.json",
            "elicitation/expected-invalid/elicitation-form-invalid-range.json",
            "document/expected-valid/minimal.json",
        ];
        assert_eq!(nearest("version-mismach", ids), [ids[0]]);
        assert_eq!(nearest("*minimall*", ids), [ids[2]]);
        assert!(nearest("zzzz-qqqq", ids).is_empty());
        let cases = [
            "document/expected-valid/minimal.json@2025-06-18",
            "document/expected-valid/minimal.json@2025-11-25",
        ];
        // A wrong revision: the whole ID is measured, the closest only.
        assert_eq!(
            nearest("document/expected-valid/minimal.json@2025-11-26", cases),
            [cases[1]]
        );
        assert_eq!(
            nearest("document/expected-valid/minimal.jsn@2025-06-18", cases),
            [cases[0]]
        );
    }

    #[test]
    fn globs_match_whole_ids_and_plain_text_matches_inside() {
        assert!(matches(
            "elicitation/*",
            "elicitation/expected-valid/a.json"
        ));
        assert!(matches(
            "*valid/a.json",
            "elicitation/expected-valid/a.json"
        ));
        assert!(matches(
            "*/expected-invalid/*.yaml",
            "document/expected-invalid/x.yaml"
        ));
        assert!(!matches(
            "*/expected-invalid/*.yaml",
            "document/expected-invalid/x.json"
        ));
        assert!(matches("d?c*", "document/x"));
        assert!(!matches("document", "elicitation/x"));
        assert!(matches(
            "range",
            "elicitation/expected-invalid/elicitation-form-invalid-range.json"
        ));
        assert!(!matches("a*b", "a/c"));
    }
}
