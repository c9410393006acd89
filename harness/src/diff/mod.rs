//! Differential testing (`mcpdesc-conformance diff`): documents made from
//! the suite's fixtures by seeded mutation ([`mutation`]) go to two
//! validators under every revision both check; where their findings differ
//! at the chosen level ([`disagreement`]), the comparison's set of
//! differences (as shapes) is its distinct disagreement. The first
//! document to show each is kept (for the first [`MAX_SHRUNK`] of them;
//! the others, and every later document, are only counted), and each kept
//! one is shrunk to the smallest document that still disagrees the same
//! way and on which the two agree on no more than before ([`shrinking`]),
//! within the run's time, so that it is a fixture of that disagreement and
//! of nothing else. Generation runs on a thread of its own beside the
//! validation workers.

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
use crate::suite::catalog::Input;

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

/// One distinct disagreement: the set of findings one side reports and
/// the other does not on a comparison, by rule and pointer shape
/// ([`Difference::shape`]); the first document that showed it, how many
/// comparisons showed it, and the shrunk document. A comparison belongs to
/// one disagreement only: a validator that stops after its first error
/// misses many rules at once, and counting each rule on its own made one
/// cause look like seven.
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement {
    /// What makes it this disagreement: who reports which rule, at what
    /// shape of pointer, sorted, without repeats, never empty.
    pub shapes: Vec<Difference>,
    /// The first document (in index order) that showed it.
    pub first: Found,
    /// How many comparisons ((document, revision) pairs) showed it.
    pub count: usize,
    /// The smallest document found that still shows it, with both sides'
    /// findings on it.
    pub shrunk: Found,
    /// Whether `shrunk` is as small as shrinking gets.
    pub shrinking: Shrinking,
}

impl Disagreement {
    /// The rules it is about, by ID, without repeats.
    pub fn rules(&self) -> Vec<&str> {
        let rules: BTreeSet<&str> = self
            .shapes
            .iter()
            .map(|shape| shape.rule.as_str())
            .collect();
        rules.into_iter().collect()
    }

    /// The first of its rules by ID, which names its folder.
    pub fn rule(&self) -> &str {
        self.rules().first().copied().unwrap_or_default()
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
    /// How many comparisons ((document, revision) pairs) both sides gave
    /// findings for: a document is compared under every revision in its
    /// scope that both check.
    pub compared: u64,
    /// How many of those comparisons disagreed, kept or not.
    pub disagreeing: u64,
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
    /// How many comparisons showed them.
    pub count: usize,
}

impl DiffRun {
    /// How many distinct disagreements were found, kept or not.
    pub fn distinct(&self) -> usize {
        self.disagreements.len() + self.not_kept.distinct
    }
}

/// The documents of the suite's fixtures that loaded, in suite order: the
/// seeds of every `diff` document. Suites of serialization cases
/// (`input: source`) are left out: what they test is how a text is
/// written, which a mutated JSON value no longer shows.
pub fn seeds(set: &SuiteSet) -> Vec<Value> {
    set.suites
        .iter()
        .filter(|suite| suite.catalog.input == Input::Document)
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
            source: None,
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
/// set of the shapes of its differences (all of them, which the kept
/// [`Found`] may not hold): its distinct disagreement.
struct Checked {
    index: u64,
    compared: u64,
    found: Vec<(Found, BTreeSet<Difference>)>,
    not_compared: Vec<NotCompared>,
}

/// Where a disagreement first showed: its document's index and the place
/// of the revision among the document's disagreeing ones. The same however
/// the workers' replies arrive, so that a seed makes the same
/// disagreements.
type Order = (u64, usize);

/// What makes a distinct disagreement: the shapes of a comparison's
/// differences.
type Shapes = BTreeSet<Difference>;

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
    all: HashMap<Shapes, Group>,
    /// The groups holding an example, by first showing; every other group
    /// showed after all of these.
    kept: BTreeMap<Order, Shapes>,
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
    fn add(&mut self, order: Order, shape: &Shapes, found: &Arc<Found>) {
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
    fn into_kept(mut self) -> (Vec<(Shapes, usize, Found)>, NotKept) {
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
    let mut disagreeing = 0;
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
                disagreeing += 1;
                groups.add((checked.index, place), &shapes, &Arc::new(found));
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
        .map(|(shapes, count, first)| {
            let (shrunk, shrinking) = match cut() {
                Some(cut) => (first.clone(), Shrinking::NotShrunk(cut)),
                None => {
                    let shrinker = Shrinker {
                        asker: &asker,
                        known,
                        both: &both,
                        shapes: &shapes,
                        level: options.level,
                    };
                    let (shrunk, complete) = shrinker.shrink(&first, &|| cut().is_some());
                    if complete {
                        (shrunk, Shrinking::Complete)
                    } else {
                        // Only a cut stops a shrink before its end.
                        (shrunk, Shrinking::Partial(cut().unwrap_or(Cut::Time)))
                    }
                }
            };
            Disagreement {
                shapes: shapes.into_iter().collect(),
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
        disagreeing,
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

/// How many findings both sides report on a document (as (rule, pointer,
/// severity) triples): what a fixture of the disagreement would test
/// besides it. A shrink never lets it grow, so that taking away `info`, a
/// Tool's `name` or the last root revision, which both sides then report,
/// is not mistaken for making the document smaller.
fn agreed(validator: &[Diagnostic], against: &[Diagnostic]) -> usize {
    let triples =
        |diagnostics: &[Diagnostic]| -> BTreeSet<(String, String, mcpdesc_protocol::Severity)> {
            diagnostics
                .iter()
                .map(|d| (d.rule.clone(), d.path.clone(), d.severity))
                .collect()
        };
    triples(validator).intersection(&triples(against)).count()
}

/// A candidate that still disagrees the same way, with both sides'
/// findings on it and how many of them agree.
struct Asked {
    found: Found,
    agreed: usize,
}

/// Shrinks one distinct disagreement.
struct Shrinker<'a> {
    asker: &'a Asker<'a>,
    known: &'a Revisions,
    /// The revisions both sides check.
    both: &'a BTreeSet<String>,
    /// The disagreement: the set of shapes every candidate must show,
    /// neither fewer nor more.
    shapes: &'a Shapes,
    level: Level,
}

/// Where a shrink is: the document kept so far and what was asked about
/// it.
struct Current {
    found: Found,
    agreed: usize,
}

impl Shrinker<'_> {
    /// Both sides' findings on `candidate` under `revision`, when it runs
    /// under it and shows exactly the disagreement's shapes.
    fn ask(&self, index: u64, revision: Revision, candidate: &Value) -> Option<Asked> {
        if !self.known.of_document(candidate).contains(&revision) {
            return None;
        }
        let document = Arc::new(candidate.clone());
        let (validator, against) = self.asker.ask(index, revision, &document).ok()?;
        let differences = disagreement::differences(&validator, &against, self.level);
        let shapes: Shapes = differences.iter().map(Difference::shape).collect();
        if &shapes != self.shapes {
            return None;
        }
        let agreed = agreed(&validator, &against);
        Some(Asked {
            found: Found::new(
                index,
                revision,
                candidate.clone(),
                (validator, against),
                differences,
            ),
            agreed,
        })
    }

    /// Takes `candidate` in place of `current` when it shows the same
    /// disagreement under the same revision with no more agreed findings.
    fn try_candidate(&self, current: &mut Current, candidate: &Value) -> bool {
        let (index, revision) = (current.found.index, current.found.revision);
        match self.ask(index, revision, candidate) {
            Some(asked) if asked.agreed <= current.agreed => {
                *current = Current {
                    found: asked.found,
                    agreed: asked.agreed,
                };
                true
            }
            _ => false,
        }
    }

    /// The smallest document reached from `first` that still runs under a
    /// revision both check and on which the two sides still disagree in
    /// exactly the same way (the same set of shapes), with no more
    /// findings they agree on than `first` has: first the skeleton is
    /// mended ([`shrinking::repairs`]), then the document shrunk, then the
    /// root scope moved to the one revision under which the fewest agreed
    /// findings remain (a legacy revision adds its warning), and shrunk
    /// again if it moved. Whether it went to its end: `stop`, asked before
    /// each candidate, may cut it short.
    fn shrink(&self, first: &Found, stop: &dyn Fn() -> bool) -> (Found, bool) {
        let mut current = match self.ask(first.index, first.revision, &first.document) {
            Some(asked) => Current {
                found: asked.found,
                agreed: asked.agreed,
            },
            // Asked again, the sides no longer disagree so (a validator
            // that is not deterministic): nothing can be shrunk for sure.
            None => {
                return (first.clone(), true);
            }
        };
        for repair in shrinking::repairs(
            &current.found.document,
            current.found.revision.as_str(),
            &self.asker.specification,
        ) {
            if stop() {
                return (current.found, false);
            }
            let candidate = repair.applied(&current.found.document);
            self.try_candidate(&mut current, &candidate);
        }
        // At most two shrinks: moving the scope may free what the first
        // revision needed.
        for pass in 0..2 {
            let document = current.found.document.clone();
            // A smaller document may trade findings the two sides agree on
            // for others (the root's `protocolVersions` entries for "it is
            // missing"), so the count alone lets a shrink break the
            // skeleton the repairs mended: a candidate that needs more
            // repairs than the current document is never kept.
            let mut keeps = |candidate: &Value| {
                let needed = |document: &Value| {
                    shrinking::repairs(
                        document,
                        current.found.revision.as_str(),
                        &self.asker.specification,
                    )
                    .len()
                };
                needed(candidate) <= needed(&current.found.document)
                    && self.try_candidate(&mut current, candidate)
            };
            if !shrinking::shrink(document, &mut keeps, stop).complete {
                return (current.found, false);
            }
            if pass == 1 {
                break;
            }
            match self.move_scope(&mut current, stop) {
                Some(true) => {}
                Some(false) => break,
                None => return (current.found, false),
            }
        }
        (current.found, true)
    }

    /// Moves the root `protocolVersions` of `current` to the one revision,
    /// newest first, under which the same disagreement shows with fewer
    /// agreed findings; whether it moved, or `None` when `stop` cut it
    /// short.
    fn move_scope(&self, current: &mut Current, stop: &dyn Fn() -> bool) -> Option<bool> {
        let Value::Object(_) = &current.found.document else {
            return Some(false);
        };
        let mut best: Option<Asked> = None;
        let revisions: Vec<Revision> = self
            .known
            .iter()
            .filter(|revision| self.both.contains(revision.as_str()))
            .filter(|revision| *revision != current.found.revision)
            .collect();
        for revision in revisions.into_iter().rev() {
            if stop() {
                return None;
            }
            let mut candidate = current.found.document.clone();
            if let Value::Object(members) = &mut candidate {
                members.insert(
                    "protocolVersions".into(),
                    Value::Array(vec![Value::String(revision.as_str().to_owned())]),
                );
            }
            let lowest = best.as_ref().map_or(current.agreed, |best| best.agreed);
            if let Some(asked) = self.ask(current.found.index, revision, &candidate)
                && asked.agreed < lowest
            {
                best = Some(asked);
            }
        }
        let moved = best.is_some();
        if let Some(asked) = best {
            *current = Current {
                found: asked.found,
                agreed: asked.agreed,
            };
        }
        Some(moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a suite of serialization cases tests is how its texts are
    /// written: none of its fixtures seeds a document, even one whose text
    /// loads; the same fixtures in a document suite do.
    #[test]
    fn the_fixtures_of_a_source_suite_seed_nothing() {
        let set = crate::suite::testing::source_suite();
        assert!(
            set.suites[0]
                .entries
                .iter()
                .any(|entry| entry.fixture.document.is_ok())
        );
        assert_eq!(seeds(&set), Vec::<Value>::new());
        let mut documents = set.clone();
        documents.suites[0].catalog.input = Input::Document;
        assert_eq!(seeds(&documents).len(), 1);
    }

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

    fn shapes(rules: &[&str]) -> Shapes {
        rules.iter().map(|rule| shape(rule)).collect()
    }

    /// However the replies arrive, the groups kept are the first `cap` to
    /// show, each with its first document, and the others are counted.
    /// A group is a comparison's whole set of shapes: `{b}` and `{b, c}`
    /// are two groups, and a comparison is counted in one only.
    #[test]
    fn groups_keep_the_first_shown_and_count_the_rest() {
        let mut groups = Groups::new(2);
        // Documents 3, 1, 2, 0 arrive in that order.
        groups.add((3, 0), &shapes(&["d"]), &found(3));
        groups.add((1, 0), &shapes(&["b"]), &found(1));
        groups.add((2, 0), &shapes(&["b", "c"]), &found(2));
        groups.add((2, 1), &shapes(&["b"]), &found(2));
        groups.add((0, 0), &shapes(&["b", "c"]), &found(0));
        let (kept, not_kept) = groups.into_kept();
        let kept: Vec<(usize, usize, u64)> = kept
            .iter()
            .map(|(shapes, count, first)| (shapes.len(), *count, first.index))
            .collect();
        assert_eq!(kept, [(2, 2, 0), (1, 2, 1)]);
        assert_eq!(
            not_kept,
            NotKept {
                distinct: 1,
                count: 1
            }
        );
    }

    /// The reference validator without one rule: a validator that
    /// disagrees with the reference on that rule and nothing else.
    struct Without(mcpdesc_validator::ReferenceValidator, &'static str);

    impl mcpdesc_protocol::Validator for Without {
        fn implementation(&self) -> mcpdesc_protocol::Implementation {
            self.0.implementation()
        }

        fn validate(&self, request: &ValidateRequest) -> Reply {
            match self.0.validate(request) {
                Reply::Diagnostics(found) => Reply::Diagnostics(
                    found
                        .into_iter()
                        .filter(|diagnostic| diagnostic.rule != self.1)
                        .collect(),
                ),
                other => other,
            }
        }
    }

    /// A document with a broken skeleton (no `info`), a legacy revision
    /// in its root scope, an unrelated broken Prompt and clutter, on which
    /// the validator misses only the primitive scope rule: shrunk, it keeps
    /// a whole skeleton (`info` mended, `mcpdesc`, a root scope of one
    /// revision that is not legacy, the Tool's identity members), and the
    /// reference reports on it only what the validator misses.
    #[test]
    fn a_shrink_keeps_a_valid_skeleton_and_only_the_disagreement() {
        use crate::backend::schedule::InProcess;
        use crate::suite::tree::SuiteTree;
        use mcpdesc_validator::ReferenceValidator;

        const RULE: &str = "mcpdesc.primitive.protocol-scope";
        let set = SuiteSet::load(SuiteTree::embedded());
        let reference = || ReferenceValidator::new().with_revisions(set.revisions.clone());
        let validator = InProcess::new(Without(reference(), RULE));
        let against = InProcess::new(reference());
        let asker = Asker {
            validator: &validator,
            against: &against,
            specification: "0.9.0".into(),
            seed: 0,
        };
        let document = serde_json::json!({
            "mcpdesc": "0.9.0",
            "protocolVersions": ["2024-11-05", "2025-06-18"],
            "x-clutter": {"a": [1, 2, 3]},
            "tools": [
                {"name": "search", "description": "Finds things.", "inputSchema": {"type": "object"},
                 "protocolVersions": ["2025-11-25"]},
                {"name": "other", "inputSchema": {"type": "object"}}
            ],
            "prompts": [{"description": "no name"}]
        });
        let revision = Revision::of("2024-11-05");
        let (validator_found, against_found) =
            asker.ask(0, revision, &Arc::new(document.clone())).unwrap();
        let differences = disagreement::differences(&validator_found, &against_found, Level::Exact);
        let shapes: Shapes = differences.iter().map(Difference::shape).collect();
        assert_eq!(shapes.len(), 1, "{differences:?}");
        let first = Found::new(
            0,
            revision,
            document,
            (validator_found, against_found),
            differences,
        );
        let both = set
            .revisions
            .iter()
            .map(|revision| revision.to_string())
            .collect();
        let shrinker = Shrinker {
            asker: &asker,
            known: &set.revisions,
            both: &both,
            shapes: &shapes,
            level: Level::Exact,
        };
        let (shrunk, complete) = shrinker.shrink(&first, &|| false);
        assert!(complete);
        let document = &shrunk.document;
        assert_eq!(document["mcpdesc"], "0.9.0", "{document}");
        assert!(document["info"]["name"].is_string(), "{document}");
        assert!(document["info"]["version"].is_string(), "{document}");
        assert!(document["tools"][0]["name"].is_string(), "{document}");
        assert!(
            document["tools"][0]["inputSchema"].is_object(),
            "{document}"
        );
        assert!(document.get("prompts").is_none() && document.get("x-clutter").is_none());
        let scope = document["protocolVersions"].as_array().unwrap();
        assert_eq!(scope.len(), 1, "{document}");
        assert!(!set.revisions.is_legacy(shrunk.revision), "{document}");
        assert_eq!(scope[0], shrunk.revision.as_str());
        // All the reference reports is the finding the validator misses.
        let reported: Vec<(&str, &str)> = shrunk
            .against
            .kept
            .iter()
            .map(|finding| (finding.rule.as_str(), finding.path.as_str()))
            .collect();
        assert_eq!(
            reported,
            [(RULE, "/tools/0/protocolVersions")],
            "{document}"
        );
        assert!(shrunk.validator.kept.is_empty(), "{:?}", shrunk.validator);
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
