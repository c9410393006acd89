//! The outputs of `diff`: the summary for people, grouped by rule, and the
//! folder of disagreements (`--out DIR`), one per distinct disagreement,
//! each with its shrunk document as a ready-to-add fixture and the data
//! that reproduces and explains it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mcpdesc_protocol::{Diagnostic, Implementation, Severity};
use serde_json::{Map, Value, json};

use crate::diff::disagreement::{Difference, Side};
use crate::diff::{DiffRun, Disagreement, Found, Stop, Unanswered};
use crate::emit::escape;
use crate::emit::text;
use crate::file::{self, FileError};
use crate::suite::SuiteSet;

/// The two implementations compared, for naming them in outputs.
#[derive(Debug, Clone, Copy)]
pub struct Sides<'a> {
    /// The validator under test.
    pub validator: &'a Implementation,
    /// The one it is compared with.
    pub against: &'a Implementation,
}

impl Sides<'_> {
    fn name(&self, side: Side) -> String {
        let implementation = match side {
            Side::Validator => self.validator,
            Side::Against => self.against,
        };
        format!("{} {}", implementation.name, implementation.version)
    }
}

fn difference_text(difference: &Difference) -> String {
    let mut text = difference.rule.clone();
    if let Some(path) = &difference.path {
        let _ = write!(text, " at {}", Value::String(path.clone()));
    }
    if let Some(severity) = difference.severity {
        let _ = write!(text, " ({severity})");
    }
    text
}

/// What each side reported that the other did not, as one sentence per
/// side that has any.
fn differences_text(differences: &[Difference], sides: Sides<'_>) -> Vec<String> {
    [Side::Validator, Side::Against]
        .into_iter()
        .filter_map(|side| {
            let listed: Vec<String> = differences
                .iter()
                .filter(|difference| difference.side == side)
                .map(difference_text)
                .collect();
            (!listed.is_empty()).then(|| {
                let other = match side {
                    Side::Validator => Side::Against,
                    Side::Against => Side::Validator,
                };
                format!(
                    "{} reports {} and {} does not",
                    sides.name(side),
                    listed.join(", "),
                    sides.name(other)
                )
            })
        })
        .collect()
}

/// The compact JSON size of a document, the measure of "smaller".
pub fn size(document: &Value) -> usize {
    document.to_string().len()
}

/// The summary of a run: the counts, then each distinct disagreement under
/// each rule it involves.
pub fn summary(run: &DiffRun, sides: Sides<'_>, out: Option<&Path>) -> String {
    let mut text = String::new();
    let options = &run.options;
    let _ = writeln!(
        text,
        "diff: {} against {}, seed {}, {} level",
        escape::line(&sides.name(Side::Validator)),
        escape::line(&sides.name(Side::Against)),
        options.seed,
        options.level
    );
    let _ = writeln!(
        text,
        "{} documents, {} comparisons (document and revision), {} not compared, {} distinct disagreements, {:.1} s",
        run.documents,
        run.compared,
        run.not_compared.len(),
        run.disagreements.len(),
        run.elapsed.as_secs_f64()
    );
    match run.stopped {
        Some(Stop::Time) => {
            let _ = writeln!(text, "stopped making documents when --time ran out");
        }
        Some(Stop::Interrupted(interruption)) => {
            let _ = writeln!(
                text,
                "interrupted by {}; the disagreements found are not shrunk",
                interruption.name()
            );
        }
        Some(Stop::GaveUp) => {
            let _ = writeln!(
                text,
                "stopped after {} failures in a row (--max-consecutive-failures)",
                options.max_consecutive_failures
            );
        }
        None => {}
    }
    let mut by_rule: BTreeMap<&str, Vec<(usize, &Disagreement)>> = BTreeMap::new();
    for (number, disagreement) in run.disagreements.iter().enumerate() {
        by_rule
            .entry(disagreement.rule())
            .or_default()
            .push((number + 1, disagreement));
    }
    for (rule, disagreements) in &by_rule {
        let documents: usize = disagreements.iter().map(|(_, d)| d.count).sum();
        let _ = writeln!(
            text,
            "\n{} ({} distinct, {documents} documents)",
            escape::line(rule),
            disagreements.len()
        );
        for (number, disagreement) in disagreements {
            let shrunk = &disagreement.shrunk;
            let _ = writeln!(
                text,
                "  #{number} {}: first in document {} under {}, shrunk from {} to {} bytes",
                escape::line(
                    &differences_text(std::slice::from_ref(&disagreement.shape), sides).join("; ")
                ),
                disagreement.first.index,
                shrunk.revision,
                size(&disagreement.first.document),
                size(&shrunk.document)
            );
        }
    }
    let failures: Vec<_> = run
        .not_compared
        .iter()
        .filter_map(|not| match &not.answer {
            Unanswered::Failed(failure) => Some((not, failure)),
            _ => None,
        })
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(
            text,
            "\nvalidator failures ({}, the first 10 shown):",
            failures.len()
        );
        for (not, failure) in failures.iter().take(10) {
            let _ = writeln!(
                text,
                "  {} failed on document {} under {}: {}",
                escape::line(&sides.name(not.side)),
                not.index,
                not.revision,
                escape::line(&text::failure_with_stderr(failure))
            );
        }
    }
    if let Some(dir) = out.filter(|_| !run.disagreements.is_empty()) {
        let _ = writeln!(
            text,
            "\neach disagreement is in {}: its shrunk document as a fixture, and disagreement.json",
            escape::line(&dir.display().to_string())
        );
    }
    text
}

/// Where a disagreement's fixture belongs in a suite tree, with its
/// suite, class folder and file name.
pub fn destination(set: &SuiteSet, run: &DiffRun, disagreement: &Disagreement) -> String {
    let suite = set
        .rules
        .suite_of(disagreement.rule())
        .or_else(|| set.suites.first().map(|suite| suite.catalog.suite.as_str()))
        .unwrap_or("document");
    let class = if has_error(&disagreement.shrunk.against) {
        "expected-invalid"
    } else {
        "expected-valid"
    };
    format!(
        "fixtures/{suite}/{class}/diff-{}-{}.json",
        run.options.seed, disagreement.first.index
    )
}

fn has_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error)
}

/// The shrunk document with its `x-test` sentence first: what differs, and
/// how to make the document again.
pub fn fixture(run: &DiffRun, disagreement: &Disagreement, sides: Sides<'_>) -> Value {
    let shrunk = &disagreement.shrunk;
    let sentence = format!(
        "Found by mcpdesc-conformance diff (seed {}, document {}) under {} at the {} level: {}.",
        run.options.seed,
        shrunk.index,
        shrunk.revision,
        run.options.level,
        differences_text(&shrunk.differences, sides).join("; ")
    );
    let mut members = Map::new();
    members.insert("x-test".into(), Value::String(sentence));
    match &shrunk.document {
        Value::Object(rest) => {
            for (key, value) in rest {
                if key != "x-test" {
                    members.insert(key.clone(), value.clone());
                }
            }
            Value::Object(members)
        }
        // A document that is not an object keeps its shape; its sentence
        // is in disagreement.json.
        other => other.clone(),
    }
}

fn difference_value(difference: &Difference) -> Value {
    json!({
        "side": match difference.side {
            Side::Validator => "validator",
            Side::Against => "against",
        },
        "rule": difference.rule,
        "path": difference.path,
        "severity": difference.severity,
    })
}

fn findings(diagnostics: &[Diagnostic]) -> Value {
    serde_json::to_value(diagnostics).unwrap_or_default()
}

fn found_value(found: &Found) -> Value {
    json!({
        "revision": found.revision,
        "document": found.document,
        "validator": findings(&found.validator),
        "against": findings(&found.against),
    })
}

/// Writes one folder per distinct disagreement into `dir`: the shrunk
/// document as a fixture named for its place in the suite, and
/// `disagreement.json` with the seed and index that make the first
/// document again, the level, both sides' findings on the first and the
/// shrunk document, and where the fixture belongs. Returns the folders.
///
/// # Errors
///
/// The first file that cannot be written.
pub fn write(
    dir: &Path,
    set: &SuiteSet,
    run: &DiffRun,
    sides: Sides<'_>,
) -> Result<Vec<PathBuf>, FileError> {
    let mut written = Vec::new();
    for (number, disagreement) in run.disagreements.iter().enumerate() {
        let rule = disagreement.rule();
        let slug = file::bounded_name(rule);
        let folder = dir.join(format!("{:03}-{slug}", number + 1));
        let destination = destination(set, run, disagreement);
        let name = destination.rsplit('/').next().unwrap_or("fixture.json");
        let fixture = fixture(run, disagreement, sides);
        let pretty = serde_json::to_string_pretty(&fixture).unwrap_or_default() + "\n";
        file::replace(&folder.join(name), &pretty, ".", ".tmp")?;
        let record = json!({
            "seed": run.options.seed,
            "index": disagreement.first.index,
            "level": run.options.level.as_str(),
            "validator": {"name": sides.validator.name, "version": sides.validator.version},
            "against": {"name": sides.against.name, "version": sides.against.version},
            "rule": disagreement.rule(),
            "shape": difference_value(&disagreement.shape),
            "documents": disagreement.count,
            "fixture": destination,
            "differences": disagreement.shrunk.differences.iter().map(difference_value).collect::<Vec<_>>(),
            "first": found_value(&disagreement.first),
            "shrunk": found_value(&disagreement.shrunk),
        });
        let pretty = serde_json::to_string_pretty(&record).unwrap_or_default() + "\n";
        file::replace(&folder.join("disagreement.json"), &pretty, ".", ".tmp")?;
        written.push(folder);
    }
    Ok(written)
}
