//! Differential testing (`mcpdesc-conformance diff`): documents made from
//! the suite's fixtures by seeded mutation ([`mutation`]) go to two
//! validators under every revision both check; where their findings differ
//! at the chosen level ([`disagreement`]), the first document to show each
//! distinct disagreement is kept (for the first [`MAX_SHRUNK`] of them;
//! the others, and every later document, are only counted), and each kept
//! one is shrunk to the smallest document that still disagrees the same
//! way ([`shrinking`]), within the run's time. Generation runs on a thread
//! of its own beside the validation workers.

pub mod disagreement;
pub mod mutation;
pub(crate) mod random;
pub mod shrinking;

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcpdesc_protocol::{Diagnostic, Reply, Revision, Revisions, ValidateRequest};
use serde_json::Value;

use crate::backend::interrupt::{self, Interruption};
use crate::backend::lock;
use crate::backend::schedule::Backend;
use crate::outcome::comparison::Level;
use crate::outcome::failure::Failure;
use crate::suite::SuiteSet;

use disagreement::{Difference, Side};
use mutation::Mutator;

/// How many distinct disagreements a run shrinks and keeps by default
/// (`--max-shrunk`): the rest are counted. A validator that reports
/// something new on every document would otherwise have thousands shrunk,
/// each asking it hundreds of times, and kept.
pub const MAX_SHRUNK: usize = 100;

/// How many findings of each side, and how many differences, a kept
/// document holds; the rest are counted. A reply may carry 10,000
/// findings of several hundred bytes each: keeping them whole for every
/// disagreement took gigabytes.
pub const MAX_KEPT: usize = 100;

/// What bounds and shapes a `diff` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The seed: the same seed makes the same documents.
    pub seed: u64,
    /// How many documents to make.
    pub documents: u64,
    /// How long the whole run may take, shrinking included: documents are
    /// made for at most half of it, so that time is left to shrink what
    /// they showed.
    pub time: Option<Duration>,
    /// The level the two validators' findings are compared at.
    pub level: Level,
    /// How many documents are validated at once.
    pub jobs: usize,
    /// After this many failures of either validator in a row (crashes,
    /// timeouts, broken replies), no more documents are made.
    pub max_consecutive_failures: usize,
    /// How many distinct disagreements are shrunk and kept, the first
    /// ones in the order their documents were made ([`MAX_SHRUNK`] by
    /// default); the others are only counted.
    pub max_shrunk: usize,
}

/// What one side answered when it gave no findings to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unanswered {
    /// It declined the case.
    Skipped(String),
    /// It replied with an error.
    Error(String),
    /// It failed: crashed, timed out, broke the contract.
    Failed(Failure),
}

/// A document on which one side gave no findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotCompared {
    /// The document's index.
    pub index: u64,
    /// The revision asked about.
    pub revision: Revision,
    /// Who did not answer.
    pub side: Side,
    /// What it said instead.
    pub answer: Unanswered,
}

/// One side's findings on a document: the first [`MAX_KEPT`], and how
/// many more there were.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Findings {
    /// The first findings, in the order the side gave them.
    pub kept: Vec<Diagnostic>,
    /// How many more it gave.
    pub more: usize,
    /// Whether any of them all is an error.
    pub any_error: bool,
}

impl Findings {
    /// Keeps the first [`MAX_KEPT`] of `all`.
    pub fn of(mut all: Vec<Diagnostic>) -> Findings {
        let any_error = all
            .iter()
            .any(|diagnostic| diagnostic.severity == mcpdesc_protocol::Severity::Error);
        let more = all.len().saturating_sub(MAX_KEPT);
        all.truncate(MAX_KEPT);
        all.shrink_to_fit();
        Findings {
            kept: all,
            more,
            any_error,
        }
    }
}

/// A document on which the two validators disagree, under one revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The document's index in the run.
    pub index: u64,
    /// The revision.
    pub revision: Revision,
    /// The document.
    pub document: Value,
    /// The validator's findings.
    pub validator: Findings,
    /// The other side's findings.
    pub against: Findings,
    /// What only one of them reported: the first [`MAX_KEPT`].
    pub differences: Vec<Difference>,
    /// How many more differences there were.
    pub more_differences: usize,
}

impl Found {
    /// A document's findings, with only the first [`MAX_KEPT`] of each
    /// list kept.
    fn new(
        index: u64,
        revision: Revision,
        document: Value,
        (validator, against): (Vec<Diagnostic>, Vec<Diagnostic>),
        mut differences: Vec<Difference>,
    ) -> Found {
        let more_differences = differences.len().saturating_sub(MAX_KEPT);
        differences.truncate(MAX_KEPT);
        differences.shrink_to_fit();
        Found {
            index,
            revision,
            document,
            validator: Findings::of(validator),
            against: Findings::of(against),
            differences,
            more_differences,
        }
    }
}

/// What cut a shrink short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// `--time` ran out.
    Time,
    /// A signal asked the harness to stop.
    Interrupted,
}

/// How far a disagreement was shrunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shrinking {
    /// To its end: nothing more can be taken away.
    Complete,
    /// Partway: the shrunk document may not be the smallest.
    Partial(Cut),
    /// Not at all: the shrunk document is the first.
    NotShrunk(Cut),
}

/// One distinct disagreement: a finding one side reports and the other
/// does not, by rule and pointer shape ([`Difference::shape`]); the first
/// document that showed it, how many showed it, and the shrunk document.
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement {
    /// What makes it this disagreement: who reports which rule, at what
    /// shape of pointer.
    pub shape: Difference,
    /// The first document (in index order) that showed it.
    pub first: Found,
    /// How many (document, revision) pairs showed it.
    pub count: usize,
    /// The smallest document found that still shows it, with both sides'
    /// findings on it.
    pub shrunk: Found,
    /// Whether `shrunk` is as small as shrinking gets.
    pub shrinking: Shrinking,
}

impl Disagreement {
    /// The rule it is about.
    pub fn rule(&self) -> &str {
        &self.shape.rule
    }
}

/// Why document-making stopped before the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// `--time` ran out.
    Time,
    /// A signal asked the harness to stop.
    Interrupted(Interruption),
    /// A validator failed on `max_consecutive_failures` documents in a row.
    GaveUp,
}

/// What a `diff` run found.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffRun {
    /// The options it ran with.
    pub options: Options,
    /// How many documents were made and validated.
    pub documents: u64,
    /// How many (document, revision) pairs both sides gave findings for.
    pub compared: u64,
    /// The pairs one side gave no findings for, in index order.
    pub not_compared: Vec<NotCompared>,
    /// The distinct disagreements shrunk and kept (at most
    /// `options.max_shrunk`), in the order their first document was made.
    pub disagreements: Vec<Disagreement>,
    /// The distinct disagreements over `options.max_shrunk`, only
    /// counted.
    pub not_kept: NotKept,
    /// Why making documents stopped early, if it did.
    pub stopped: Option<Stop>,
    /// How long the run took, shrinking included.
    pub elapsed: Duration,
}

/// The distinct disagreements a run counted but did not keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NotKept {
    /// How many.
    pub distinct: usize,
    /// How many (document, revision) pairs showed them.
    pub count: usize,
}

impl DiffRun {
    /// How many distinct disagreements were found, kept or not.
    pub fn distinct(&self) -> usize {
        self.disagreements.len() + self.not_kept.distinct
    }
}

/// The documents of the suite's fixtures that loaded, in suite order: the
/// seeds of every `diff` document.
pub fn seeds(set: &SuiteSet) -> Vec<Value> {
    set.suites
        .iter()
        .flat_map(|suite| &suite.entries)
        .filter_map(|entry| entry.fixture.document.as_ref().ok())
        .map(|document| (*document.value).clone())
        .collect()
}

/// Both sides' findings on `document` under `revision`, or who did not
/// give any.
struct Asker<'a> {
    validator: &'a dyn Backend,
    against: &'a dyn Backend,
    specification: String,
    seed: u64,
}

impl Asker<'_> {
    fn ask(
        &self,
        index: u64,
        revision: Revision,
        document: &Arc<Value>,
    ) -> Result<(Vec<Diagnostic>, Vec<Diagnostic>), NotCompared> {
        let request = ValidateRequest {
            case: format!("diff/{}/{index}", self.seed),
            specification: self.specification.clone(),
            revision,
            document: Arc::clone(document),
        };
        let answer = |side: Side, reply: Result<Reply, Failure>| match reply {
            Ok(Reply::Diagnostics(found)) => Ok(found),
            Ok(Reply::Skipped(skip)) => Err((side, Unanswered::Skipped(skip.reason))),
            Ok(Reply::Error(error)) => Err((side, Unanswered::Error(error.message))),
            Err(failure) => Err((side, Unanswered::Failed(failure))),
        };
        let not_compared = |(side, answer)| NotCompared {
            index,
            revision,
            side,
            answer,
        };
        let ours = answer(Side::Validator, self.validator.call(&request)).map_err(not_compared)?;
        let theirs = answer(Side::Against, self.against.call(&request)).map_err(not_compared)?;
        Ok((ours, theirs))
    }
}

/// The revisions a document is asked about: those it runs under that both
/// sides check.
fn in_scope(known: &Revisions, both: &BTreeSet<String>, document: &Value) -> Vec<Revision> {
    known
        .of_document(document)
        .into_iter()
        .filter(|revision| both.contains(revision.as_str()))
        .collect()
}

/// What one document came to: each revision it disagrees under, with the
/// distinct shapes of its differences (all of them, which the kept
/// [`Found`] may not hold).
struct Checked {
    index: u64,
    compared: u64,
    found: Vec<(Found, BTreeSet<Difference>)>,
    not_compared: Vec<NotCompared>,
}

/// Where a disagreement first showed: its document's index, the place of
/// the revision among the document's disagreeing ones, and the place of
/// the shape among that revision's. The same however the workers' replies
/// arrive, so that a seed makes the same disagreements.
type Order = (u64, usize, usize);

/// One distinct disagreement while documents are checked.
struct Group {
    first: Order,
    count: usize,
    /// Held only while `first` is among the `cap` earliest of all groups.
    example: Option<Arc<Found>>,
}

/// The distinct disagreements, each with a count, and an example kept
/// only for the `cap` that showed first: memory stays bounded however many
/// documents disagree, however big their replies.
struct Groups {
    cap: usize,
    all: HashMap<Difference, Group>,
    /// The groups holding an example, by first showing; every other group
    /// showed after all of these.
    kept: BTreeMap<Order, Difference>,
}

impl Groups {
    fn new(cap: usize) -> Groups {
        Groups {
            cap,
            all: HashMap::new(),
            kept: BTreeMap::new(),
        }
    }

    /// Counts `found`, which shows `shape` at `order`.
    fn add(&mut self, order: Order, shape: &Difference, found: &Arc<Found>) {
        let group = self.all.entry(shape.clone()).or_insert(Group {
            first: order,
            count: 0,
            example: None,
        });
        group.count += 1;
        if group.count > 1 && order >= group.first {
            return;
        }
        // A new group, or an earlier first showing of one.
        if group.example.take().is_some() {
            self.kept.remove(&group.first);
        }
        group.first = order;
        let room = self.kept.len() < self.cap
            || self
                .kept
                .last_key_value()
                .is_some_and(|(last, _)| order < *last);
        if !room {
            return;
        }
        group.example = Some(Arc::clone(found));
        self.kept.insert(order, shape.clone());
        if self.kept.len() > self.cap
            && let Some((_, later)) = self.kept.pop_last()
            && let Some(later) = self.all.get_mut(&later)
        {
            later.example = None;
        }
    }

    /// The kept groups in the order they first showed, and what the
    /// others came to.
    fn into_kept(mut self) -> (Vec<(Difference, usize, Found)>, NotKept) {
        let mut kept = Vec::new();
        for shape in std::mem::take(&mut self.kept).into_values() {
            if let Some(group) = self.all.remove(&shape)
                && let Some(example) = group.example
            {
                let example = Arc::try_unwrap(example).unwrap_or_else(|shared| (*shared).clone());
                kept.push((shape, group.count, example));
            }
        }
        let not_kept = NotKept {
            distinct: self.all.len(),
            count: self.all.values().map(|group| group.count).sum(),
        };
        (kept, not_kept)
    }
}

/// Makes `options.documents` documents from the fixtures of `set`, asks
/// `validator` and `against` about each under every revision both check,
/// and shrinks each distinct disagreement.
pub fn diff(
    set: &SuiteSet,
    validator: &dyn Backend,
    against: &dyn Backend,
    options: &Options,
) -> DiffRun {
    let started = Instant::now();
    // One budget for the whole run: half of it to make documents, the
    // rest (and whatever making them left) to shrink.
    let deadline = options.time.map(|time| started + time);
    let making_ends = options.time.map(|time| started + time / 2);
    let known = &set.revisions;
    let mutator = Mutator::new(
        seeds(set),
        known.iter().map(|revision| revision.to_string()).collect(),
    );
    let announced = |backend: &dyn Backend| -> BTreeSet<String> {
        backend.implementation().revisions.iter().cloned().collect()
    };
    let both: BTreeSet<String> = announced(validator)
        .intersection(&announced(against))
        .cloned()
        .collect();
    let asker = Asker {
        validator,
        against,
        specification: set
            .suites
            .first()
            .map(|suite| suite.catalog.specification.clone())
            .unwrap_or_else(|| mcpdesc_protocol::SPECIFICATION_VERSION.to_owned()),
        seed: options.seed,
    };
    let jobs = options.jobs.max(1);
    let (documents_in, documents_out) = mpsc::sync_channel::<(u64, Value)>(jobs * 8);
    let documents_out = Mutex::new(documents_out);
    let (checked_in, checked_out) = mpsc::channel::<Checked>();
    let mut stopped = None;
    let mut made = 0;
    let mut compared = 0;
    let mut not_compared = Vec::new();
    let mut groups = Groups::new(options.max_shrunk);
    // Failures of either side in a row, across workers.
    let failing = AtomicUsize::new(0);
    let gave_up = || failing.load(Ordering::Relaxed) >= options.max_consecutive_failures.max(1);
    std::thread::scope(|scope| {
        let maker = scope.spawn(|| {
            let mut stopped = None;
            let mut made = 0;
            for index in 0..options.documents {
                if gave_up() {
                    stopped = Some(Stop::GaveUp);
                    break;
                }
                if let Some(interruption) = interrupt::received() {
                    stopped = Some(Stop::Interrupted(interruption));
                    break;
                }
                if making_ends.is_some_and(|end| Instant::now() >= end) {
                    stopped = Some(Stop::Time);
                    break;
                }
                if documents_in
                    .send((index, mutator.document(options.seed, index)))
                    .is_err()
                {
                    break;
                }
                made += 1;
            }
            drop(documents_in);
            (made, stopped)
        });
        for _ in 0..jobs {
            let checked_in = checked_in.clone();
            let (documents_out, asker, both, failing) = (&documents_out, &asker, &both, &failing);
            scope.spawn(move || {
                loop {
                    let next = lock(documents_out).recv();
                    let Ok((index, document)) = next else { break };
                    let checked = check(asker, known, both, index, document, options.level);
                    let failed = checked
                        .not_compared
                        .iter()
                        .any(|not| matches!(not.answer, Unanswered::Failed(_)));
                    if failed {
                        failing.fetch_add(1, Ordering::Relaxed);
                    } else if checked.compared > 0 {
                        failing.store(0, Ordering::Relaxed);
                    }
                    if checked_in.send(checked).is_err() {
                        break;
                    }
                }
            });
        }
        drop(checked_in);
        // Each document is counted as it comes, and its replies dropped
        // unless it is the first to show a disagreement.
        for checked in checked_out {
            compared += checked.compared;
            not_compared.extend(checked.not_compared);
            for (place, (found, shapes)) in checked.found.into_iter().enumerate() {
                let found = Arc::new(found);
                for (rank, shape) in shapes.iter().enumerate() {
                    groups.add((checked.index, place, rank), shape, &found);
                }
            }
        }
        (made, stopped) = maker.join().unwrap_or((0, None));
    });
    not_compared.sort_by_key(|not: &NotCompared| not.index);
    let (kept, not_kept) = groups.into_kept();
    let out_of_time = || deadline.is_some_and(|end| Instant::now() >= end);
    let cut = || {
        if interrupt::received().is_some() {
            Some(Cut::Interrupted)
        } else if out_of_time() {
            Some(Cut::Time)
        } else {
            None
        }
    };
    let disagreements = kept
        .into_iter()
        .map(|(shape, count, first)| {
            let (shrunk, shrinking) = match cut() {
                Some(cut) => (first.clone(), Shrinking::NotShrunk(cut)),
                None => {
                    let (shrunk, complete) =
                        shrink(&asker, known, &shape, &first, options.level, &|| {
                            cut().is_some()
                        });
                    if complete {
                        (shrunk, Shrinking::Complete)
                    } else {
                        // Only a cut stops a shrink before its end.
                        (shrunk, Shrinking::Partial(cut().unwrap_or(Cut::Time)))
                    }
                }
            };
            Disagreement {
                shape,
                first,
                count,
                shrunk,
                shrinking,
            }
        })
        .collect();
    // A signal while shrinking interrupts the run as one while making
    // documents does.
    if let Some(interruption) = interrupt::received() {
        stopped = Some(Stop::Interrupted(interruption));
    }
    DiffRun {
        options: options.clone(),
        documents: made,
        compared,
        not_compared,
        disagreements,
        not_kept,
        stopped,
        elapsed: started.elapsed(),
    }
}

/// Asks both sides about one document under each revision in scope.
fn check(
    asker: &Asker<'_>,
    known: &Revisions,
    both: &BTreeSet<String>,
    index: u64,
    document: Value,
    level: Level,
) -> Checked {
    let revisions = in_scope(known, both, &document);
    let document = Arc::new(document);
    let mut checked = Checked {
        index,
        compared: 0,
        found: Vec::new(),
        not_compared: Vec::new(),
    };
    for revision in revisions {
        match asker.ask(index, revision, &document) {
            Ok((validator, against)) => {
                checked.compared += 1;
                let differences = disagreement::differences(&validator, &against, level);
                if !differences.is_empty() {
                    let shapes = differences.iter().map(Difference::shape).collect();
                    let found = Found::new(
                        index,
                        revision,
                        (*document).clone(),
                        (validator, against),
                        differences,
                    );
                    checked.found.push((found, shapes));
                }
            }
            Err(not_compared) => checked.not_compared.push(not_compared),
        }
    }
    checked
}

/// The smallest document reached from `first` that still runs under its
/// revision and on which one side still reports what the other does not,
/// with the same rule and pointer shape (`shape`). Differences that are
/// not this one may go; they are disagreements of their own. Whether it
/// went to its end: `stop`, asked before each candidate, may cut it short.
fn shrink(
    asker: &Asker<'_>,
    known: &Revisions,
    shape: &Difference,
    first: &Found,
    level: Level,
    stop: &dyn Fn() -> bool,
) -> (Found, bool) {
    let revision = first.revision;
    let mut last = None;
    let mut keeps = |candidate: &Value| -> bool {
        if !known.of_document(candidate).contains(&revision) {
            return false;
        }
        let document = Arc::new(candidate.clone());
        let Ok((validator, against)) = asker.ask(first.index, revision, &document) else {
            return false;
        };
        let differences = disagreement::differences(&validator, &against, level);
        if !differences
            .iter()
            .any(|difference| &difference.shape() == shape)
        {
            return false;
        }
        // Only the last kept candidate's findings are needed, and only
        // their first ones.
        last = Some(Found::new(
            first.index,
            revision,
            candidate.clone(),
            (validator, against),
            differences,
        ));
        true
    };
    let shrunk = shrinking::shrink(first.document.clone(), &mut keeps, stop);
    let found = match last {
        Some(found) if found.document == shrunk.document => found,
        // Nothing could be taken away: the first document is the smallest.
        _ => Found {
            document: shrunk.document,
            ..first.clone()
        },
    };
    (found, shrunk.complete)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(rule: &str) -> Difference {
        Difference {
            side: Side::Validator,
            rule: rule.into(),
            path: None,
            severity: None,
        }
    }

    fn found(index: u64) -> Arc<Found> {
        Arc::new(Found::new(
            index,
            Revision::of("2025-06-18"),
            Value::Null,
            (Vec::new(), Vec::new()),
            Vec::new(),
        ))
    }

    /// However the replies arrive, the groups kept are the first `cap` to
    /// show, each with its first document, and the others are counted.
    #[test]
    fn groups_keep_the_first_shown_and_count_the_rest() {
        let mut groups = Groups::new(2);
        // Documents 3, 1, 2, 0 arrive in that order.
        groups.add((3, 0, 0), &shape("d"), &found(3));
        groups.add((1, 0, 0), &shape("b"), &found(1));
        groups.add((2, 0, 0), &shape("c"), &found(2));
        groups.add((2, 0, 1), &shape("b"), &found(2));
        groups.add((0, 0, 0), &shape("c"), &found(0));
        let (kept, not_kept) = groups.into_kept();
        let kept: Vec<(&str, usize, u64)> = kept
            .iter()
            .map(|(shape, count, first)| (shape.rule.as_str(), *count, first.index))
            .collect();
        assert_eq!(kept, [("c", 2, 0), ("b", 2, 1)]);
        assert_eq!(
            not_kept,
            NotKept {
                distinct: 1,
                count: 1
            }
        );
    }

    #[test]
    fn a_found_keeps_the_first_findings_and_counts_the_rest() {
        let many = |rule: &str| {
            (0..MAX_KEPT + 7)
                .map(|n| Diagnostic::new(rule, format!("/{n}"), mcpdesc_protocol::Severity::Error))
                .collect::<Vec<_>>()
        };
        let found = Found::new(
            0,
            Revision::of("2025-06-18"),
            Value::Null,
            (many("a"), Vec::new()),
            disagreement::differences(&many("a"), &[], Level::Exact),
        );
        assert_eq!(
            (found.validator.kept.len(), found.validator.more),
            (MAX_KEPT, 7)
        );
        assert!(found.validator.any_error && !found.against.any_error);
        assert_eq!(
            (found.differences.len(), found.more_differences),
            (MAX_KEPT, 7)
        );
    }
}
