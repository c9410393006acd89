//! Differential testing (`mcpdesc-conformance diff`): documents made from
//! the suite's fixtures by seeded mutation ([`mutation`]) go to two
//! validators under every revision both check; where their findings differ
//! at the chosen level ([`disagreement`]), the document is kept, and each
//! distinct disagreement is shrunk to the smallest document that still
//! disagrees the same way ([`shrinking`]). Generation runs on a thread of
//! its own beside the validation workers.

pub mod disagreement;
pub mod mutation;
pub(crate) mod random;
pub mod shrinking;

use std::collections::BTreeMap;
use std::collections::BTreeSet;
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

/// What bounds and shapes a `diff` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The seed: the same seed makes the same documents.
    pub seed: u64,
    /// How many documents to make.
    pub documents: u64,
    /// When to stop making documents, if before `documents`.
    pub time: Option<Duration>,
    /// The level the two validators' findings are compared at.
    pub level: Level,
    /// How many documents are validated at once.
    pub jobs: usize,
    /// After this many failures of either validator in a row (crashes,
    /// timeouts, broken replies), no more documents are made.
    pub max_consecutive_failures: usize,
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
    pub validator: Vec<Diagnostic>,
    /// The other side's findings.
    pub against: Vec<Diagnostic>,
    /// What only one of them reported.
    pub differences: Vec<Difference>,
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
    /// The distinct disagreements, in the order their first document was
    /// made.
    pub disagreements: Vec<Disagreement>,
    /// Why making documents stopped early, if it did.
    pub stopped: Option<Stop>,
    /// How long the run took, shrinking included.
    pub elapsed: Duration,
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

/// What one document came to.
struct Checked {
    index: u64,
    compared: u64,
    found: Vec<Found>,
    not_compared: Vec<NotCompared>,
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
                if options.time.is_some_and(|time| started.elapsed() >= time) {
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
        (made, stopped) = maker.join().unwrap_or((0, None));
    });
    let mut checked: Vec<Checked> = checked_out.into_iter().collect();
    checked.sort_by_key(|checked| checked.index);
    let compared = checked.iter().map(|checked| checked.compared).sum();
    let not_compared = checked
        .iter_mut()
        .flat_map(|checked| std::mem::take(&mut checked.not_compared))
        .collect();
    // Distinct disagreements, in the order their first document was made.
    let mut groups: BTreeMap<Difference, (usize, usize, Found)> = BTreeMap::new();
    for found in checked.into_iter().flat_map(|checked| checked.found) {
        for difference in &found.differences {
            let order = groups.len();
            groups
                .entry(difference.shape())
                .and_modify(|(_, count, _)| *count += 1)
                .or_insert_with(|| (order, 1, found.clone()));
        }
    }
    let mut ordered: Vec<(Difference, usize, usize, Found)> = groups
        .into_iter()
        .map(|(shape, (order, count, first))| (shape, order, count, first))
        .collect();
    ordered.sort_by_key(|(_, order, _, _)| *order);
    let disagreements = ordered
        .into_iter()
        .map(|(shape, _, count, first)| {
            // Interrupted: report what was found, unshrunk, at once.
            let shrunk = match stopped {
                Some(Stop::Interrupted(_)) => first.clone(),
                _ => shrink(&asker, known, &shape, &first, options.level),
            };
            Disagreement {
                shape,
                first,
                count,
                shrunk,
            }
        })
        .collect();
    DiffRun {
        options: options.clone(),
        documents: made,
        compared,
        not_compared,
        disagreements,
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
                    checked.found.push(Found {
                        index,
                        revision,
                        document: (*document).clone(),
                        validator,
                        against,
                        differences,
                    });
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
/// not this one may go; they are disagreements of their own.
fn shrink(
    asker: &Asker<'_>,
    known: &Revisions,
    shape: &Difference,
    first: &Found,
    level: Level,
) -> Found {
    let revision = first.revision;
    let mut last = None;
    let mut keeps = |candidate: &Value| -> bool {
        // A signal ends the shrink with what it has.
        if interrupt::received().is_some() || !known.of_document(candidate).contains(&revision) {
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
        last = Some((candidate.clone(), validator, against, differences));
        true
    };
    let shrunk = shrinking::shrink(first.document.clone(), &mut keeps);
    match last {
        Some((document, validator, against, differences)) if document == shrunk => Found {
            index: first.index,
            revision,
            document,
            validator,
            against,
            differences,
        },
        // Nothing could be taken away: the first document is the smallest.
        _ => Found {
            document: shrunk,
            ..first.clone()
        },
    }
}
