//! The outputs of `diff`: the summary for people, one entry per distinct
//! disagreement, and the folder of disagreements (`--out DIR`), one per
//! distinct disagreement, each with its shrunk document as a ready-to-add
//! fixture (its `x-test` a draft of the behaviour it tests) and the data
//! that reproduces and explains it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mcpdesc_protocol::Implementation;
use serde_json::{Map, Value, json};

use crate::diff::disagreement::{Difference, Side};
use crate::diff::{Cut, DiffRun, Disagreement, Findings, Found, Shrinking, Stop, Unanswered};
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

/// How many findings of one side the summary names for a disagreement;
/// the rest are counted.
const LISTED: usize = 10;

/// What each side reported that the other did not, as one sentence per
/// side that has any, naming the first [`LISTED`] and counting the rest.
fn differences_text(differences: &[Difference], sides: Sides<'_>) -> Vec<String> {
    [Side::Validator, Side::Against]
        .into_iter()
        .filter_map(|side| {
            let all: Vec<&Difference> = differences
                .iter()
                .filter(|difference| difference.side == side)
                .collect();
            let mut listed: Vec<String> = all
                .iter()
                .take(LISTED)
                .map(|difference| difference_text(difference))
                .collect();
            if all.len() > LISTED {
                listed.push(format!("{} more", all.len() - LISTED));
            }
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

fn cut_text(cut: Cut) -> &'static str {
    match cut {
        Cut::Time => "--time ran out",
        Cut::Interrupted => "interrupted",
    }
}

/// How far a disagreement was shrunk, in the words of the summary.
fn shrinking_text(disagreement: &Disagreement) -> String {
    let (first, shrunk) = (
        size(&disagreement.first.document),
        size(&disagreement.shrunk.document),
    );
    match disagreement.shrinking {
        Shrinking::Complete => format!("shrunk from {first} to {shrunk} bytes"),
        Shrinking::Partial(cut) => format!(
            "shrunk partway from {first} to {shrunk} bytes ({})",
            cut_text(cut)
        ),
        Shrinking::NotShrunk(cut) => format!("{first} bytes, not shrunk ({})", cut_text(cut)),
    }
}

/// The summary of a run: the counts (documents, comparisons, disagreeing
/// comparisons), then each distinct disagreement kept, in the order it
/// first showed, numbered as its folder is. It is printed before any file
/// of `--out` is written, so it says nothing about them ([`written`]
/// does).
pub fn summary(run: &DiffRun, sides: Sides<'_>) -> String {
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
        "{} documents, {} comparisons (a document under each revision both check), {} disagreeing comparisons, {} not compared, {} distinct disagreements, {:.1} s",
        run.documents,
        run.compared,
        run.disagreeing,
        run.not_compared.len(),
        run.distinct(),
        run.elapsed.as_secs_f64()
    );
    if run.not_kept.distinct > 0 {
        let _ = writeln!(
            text,
            "{} more distinct disagreements not shrunk nor written (over --max-shrunk {}), shown by {} comparisons",
            run.not_kept.distinct, options.max_shrunk, run.not_kept.count
        );
    }
    let cut_by_time = run
        .disagreements
        .iter()
        .filter(|d| {
            matches!(
                d.shrinking,
                Shrinking::Partial(Cut::Time) | Shrinking::NotShrunk(Cut::Time)
            )
        })
        .count();
    match run.stopped {
        Some(Stop::Time) => {
            let _ = writeln!(text, "stopped making documents when --time ran out");
        }
        Some(Stop::Interrupted(interruption)) => {
            let _ = writeln!(
                text,
                "interrupted by {}; disagreements not shrunk, or shrunk partway, say so",
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
    if cut_by_time > 0 {
        let _ = writeln!(
            text,
            "--time ran out while shrinking: {cut_by_time} disagreements not shrunk or shrunk partway"
        );
    }
    for (number, disagreement) in run.disagreements.iter().enumerate() {
        let rules = disagreement.rules();
        let mut named: Vec<String> = rules
            .iter()
            .take(5)
            .map(|rule| escape::line(rule).into_owned())
            .collect();
        if rules.len() > 5 {
            named.push(format!("{} more rules", rules.len() - 5));
        }
        let _ = writeln!(
            text,
            "\n#{} {} ({} comparisons): first in document {} under {}, {}",
            number + 1,
            named.join(", "),
            disagreement.count,
            disagreement.first.index,
            disagreement.shrunk.revision,
            shrinking_text(disagreement)
        );
        for sentence in differences_text(&disagreement.shapes, sides) {
            let _ = writeln!(text, "  {}", escape::line(&sentence));
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
    text
}

/// What `--out` came to, after the summary: where the disagreements
/// written are, and each file that could not be written.
pub fn written(dir: &Path, written: &Written) -> (String, String) {
    let mut out = String::new();
    if !written.folders.is_empty() {
        let _ = writeln!(
            out,
            "\n{} disagreements are in {}: each its shrunk document as a fixture, and disagreement.json",
            written.folders.len(),
            escape::line(&dir.display().to_string())
        );
    }
    let mut errors = String::new();
    for error in &written.errors {
        let _ = writeln!(
            errors,
            "error: cannot write {}",
            escape::line(&error.to_string())
        );
    }
    (out, errors)
}

/// Where a disagreement's fixture belongs in a suite tree, with its
/// suite, class folder and file name: the suite whose catalog defines its
/// rules (those the expected side, `--against`, reports first), and
/// `expected-invalid` when the expected side reports an error on the
/// shrunk document, `expected-valid` when not.
pub fn destination(set: &SuiteSet, run: &DiffRun, disagreement: &Disagreement) -> String {
    let (expected, others): (Vec<&Difference>, Vec<&Difference>) = disagreement
        .shapes
        .iter()
        .partition(|shape| shape.side == Side::Against);
    let suite = expected
        .into_iter()
        .chain(others)
        .find_map(|shape| set.rules.suite_of(&shape.rule))
        .or_else(|| set.suites.first().map(|suite| suite.catalog.suite.as_str()))
        .unwrap_or("document");
    let class = if disagreement.shrunk.against.any_error {
        "expected-invalid"
    } else {
        "expected-valid"
    };
    format!(
        "fixtures/{suite}/{class}/diff-{}-{}.json",
        run.options.seed, disagreement.first.index
    )
}

/// What a rule is called in a draft: its ID and catalog title, or the ID
/// alone when no catalog defines it.
fn rule_text(set: &SuiteSet, rule: &str) -> String {
    match set.rules.get(rule) {
        Some(found) => format!(
            "{rule} ({})",
            Value::String(found.title.trim_end_matches('.').to_owned())
        ),
        None => rule.to_owned(),
    }
}

/// The behaviour the shrunk document tests, as a draft for the maintainer
/// to edit: what the expected side (`--against`) reports that the other
/// does not is reported; what only the validator under test reports is
/// not.
fn behaviour(set: &SuiteSet, shrunk: &Found) -> String {
    let at = |difference: &Difference| match &difference.path {
        Some(path) => format!(" at {}", Value::String(path.clone())),
        None => String::new(),
    };
    let clauses: Vec<String> = shrunk
        .differences
        .iter()
        .map(|difference| match difference.side {
            Side::Against => format!(
                "{} is reported{}",
                rule_text(set, &difference.rule),
                at(difference)
            ),
            Side::Validator => format!(
                "nothing of {} is reported{}",
                rule_text(set, &difference.rule),
                at(difference)
            ),
        })
        .collect();
    let mut text = clauses.join("; ");
    if shrunk.more_differences > 0 {
        let _ = write!(text, "; and {} more", shrunk.more_differences);
    }
    text
}

/// The shrunk document with its `x-test` sentence first: a draft of the
/// behaviour it tests (`behaviour`), under which revision, and how to
/// make the document again.
pub fn fixture(
    set: &SuiteSet,
    run: &DiffRun,
    disagreement: &Disagreement,
    sides: Sides<'_>,
) -> Value {
    let shrunk = &disagreement.shrunk;
    let mut sentence = format!(
        "Under {}, {}. Draft from mcpdesc-conformance diff (seed {}, document {}, {} level), where {} and {} disagree: edit it to say what the fixture tests.",
        shrunk.revision,
        behaviour(set, shrunk),
        run.options.seed,
        shrunk.index,
        run.options.level,
        sides.name(Side::Validator),
        sides.name(Side::Against),
    );
    match disagreement.shrinking {
        Shrinking::Complete => {}
        Shrinking::Partial(cut) => {
            let _ = write!(sentence, " Shrunk partway ({}).", cut_text(cut));
        }
        Shrinking::NotShrunk(cut) => {
            let _ = write!(sentence, " Not shrunk ({}).", cut_text(cut));
        }
    }
    let mut members = Map::new();
    members.insert("x-test".into(), Value::String(sentence));
    match &shrunk.document {
        Value::Object(rest) => {
            // The root members in the order the fixtures write them, then
            // the rest as they were: a member mended while shrinking was
            // added last.
            let first = ["mcpdesc", "info", "protocolVersions"];
            for key in first {
                if let Some(value) = rest.get(key) {
                    members.insert(key.into(), value.clone());
                }
            }
            for (key, value) in rest {
                if key != "x-test" && !first.contains(&key.as_str()) {
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

fn findings(findings: &Findings) -> Value {
    serde_json::to_value(&findings.kept).unwrap_or_default()
}

/// A document and both sides' findings on it: the first ones of each
/// side, and how many more (`validator_more`, `against_more`).
fn found_value(found: &Found) -> Value {
    json!({
        "revision": found.revision,
        "document": found.document,
        "validator": findings(&found.validator),
        "validator_more": found.validator.more,
        "against": findings(&found.against),
        "against_more": found.against.more,
    })
}

/// `shrinking` and `cut` of a record: how far it was shrunk (`complete`,
/// `partial`, `none`) and what cut it short (`time`, `interrupted`).
fn shrinking_value(shrinking: Shrinking) -> (&'static str, Option<&'static str>) {
    let cut = |cut: Cut| match cut {
        Cut::Time => "time",
        Cut::Interrupted => "interrupted",
    };
    match shrinking {
        Shrinking::Complete => ("complete", None),
        Shrinking::Partial(by) => ("partial", Some(cut(by))),
        Shrinking::NotShrunk(by) => ("none", Some(cut(by))),
    }
}

/// The file `diff --out DIR` writes into DIR first: which files the run
/// writes there, so that the next run into DIR with `--force` takes them
/// away (and only them) before writing its own, and refuses a folder
/// holding anything else.
pub const MANIFEST: &str = "mcpdesc-diff.json";

/// What the manifest says it is, so that a file that happens to have its
/// name is not taken for one.
const MANIFEST_FORMAT: &str = "mcpdesc-conformance diff --out";

/// Why `--out DIR` cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OutError {
    /// It is there and is not a folder.
    #[error("--out {}: not a folder", dir.display())]
    NotAFolder {
        /// The folder asked for.
        dir: PathBuf,
    },
    /// It holds what an earlier `diff` wrote, and `--force` was not given:
    /// its disagreements would be lost, or mixed with this run's, without
    /// anyone asking for it.
    #[error(
        "--out {}: holds the disagreements of an earlier diff; name a new or empty folder, or pass --force to replace them",
        dir.display()
    )]
    Used {
        /// The folder asked for.
        dir: PathBuf,
    },
    /// It holds files an earlier `diff` did not write: a run never mixes
    /// with them, nor deletes them, `--force` or not.
    #[error(
        "--out {}: holds files not written by diff ({}); name a new or empty folder (--force replaces only what an earlier diff wrote)",
        dir.display(),
        names.join(", ")
    )]
    Foreign {
        /// The folder asked for.
        dir: PathBuf,
        /// The first few such files, relative to it.
        names: Vec<String>,
    },
    /// It could not be read.
    #[error(transparent)]
    File(#[from] FileError),
}

/// What an earlier `diff` wrote into an `--out` folder, by its manifest:
/// the files to take away before this run writes its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Previous {
    /// The files, relative to the folder: `FOLDER/FILE` each.
    files: Vec<PathBuf>,
    /// Whether the folder holds a manifest.
    manifest: bool,
}

/// The files a manifest lists that are safe to take away: `FOLDER/FILE`
/// with two plain parts each, so that a manifest written by hand cannot
/// name a file outside the folder.
fn listed(manifest: &Value) -> Option<Vec<PathBuf>> {
    if manifest["format"] != MANIFEST_FORMAT {
        return None;
    }
    let files = manifest["files"].as_array()?;
    files
        .iter()
        .map(|file| {
            let path = PathBuf::from(file.as_str()?);
            let parts = path.components().count();
            let plain = path
                .components()
                .all(|part| matches!(part, std::path::Component::Normal(_)));
            (parts == 2 && plain).then_some(path)
        })
        .collect()
}

/// Checks that `dir` may take this run's disagreements: missing or empty,
/// or, with `force`, holding only what an earlier `diff` wrote there (by
/// its manifest), with the temporary files an interrupted write of it may
/// have left.
///
/// # Errors
///
/// `dir` is not a folder, holds other files, holds an earlier run's
/// without `force`, or cannot be read.
pub fn prepare(dir: &Path, force: bool) -> Result<Previous, OutError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // Made when written; a path that cannot be one fails then, after
        // the summary, as any file that cannot be written does.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Previous::default());
        }
        Err(_) if dir.exists() && !dir.is_dir() => {
            return Err(OutError::NotAFolder {
                dir: dir.to_path_buf(),
            });
        }
        Err(error) => return Err(file::at(dir)(error).into()),
    };
    let manifest_path = dir.join(MANIFEST);
    let previous = match crate::input::read_text(&manifest_path, crate::input::InputKind::Written) {
        Ok(text) => Previous {
            files: serde_json::from_str(&text)
                .ok()
                .as_ref()
                .and_then(listed)
                .unwrap_or_default(),
            manifest: true,
        },
        Err(error) if error.is_not_found() => Previous::default(),
        Err(error) => return Err(crate::file::FileError::from(error).into()),
    };
    let folders: std::collections::BTreeSet<&Path> = previous
        .files
        .iter()
        .filter_map(|file| file.parent())
        .collect();
    let mut foreign = Vec::new();
    for entry in entries {
        let entry = entry.map_err(file::at(dir))?;
        let name = PathBuf::from(entry.file_name());
        if previous.manifest && name == Path::new(MANIFEST) {
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
        if !(is_dir && folders.contains(name.as_path())) {
            foreign.push(name);
            continue;
        }
        for inner in std::fs::read_dir(entry.path()).map_err(file::at(&entry.path()))? {
            let inner = inner.map_err(file::at(&entry.path()))?;
            let path = name.join(inner.file_name());
            let leftover = inner
                .file_name()
                .to_str()
                .is_some_and(|inner| inner.starts_with('.') && inner.ends_with(".tmp"));
            if !leftover && !previous.files.contains(&path) {
                foreign.push(path);
            }
        }
    }
    if foreign.is_empty() {
        if previous.manifest && !force {
            return Err(OutError::Used {
                dir: dir.to_path_buf(),
            });
        }
        Ok(previous)
    } else {
        foreign.sort();
        let more = foreign.len().saturating_sub(5);
        let mut names: Vec<String> = foreign
            .iter()
            .take(5)
            .map(|name| name.display().to_string())
            .collect();
        if more > 0 {
            names.push(format!("and {more} more"));
        }
        Err(OutError::Foreign {
            dir: dir.to_path_buf(),
            names,
        })
    }
}

/// Takes away what an earlier `diff` wrote into `dir`: the files its
/// manifest lists and the temporary files beside them, then their folders
/// once empty. Nothing else is touched.
fn clear(dir: &Path, previous: &Previous, errors: &mut Vec<FileError>) {
    let mut folders = std::collections::BTreeSet::new();
    for file in &previous.files {
        let path = dir.join(file);
        match std::fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                errors.push(file::at(&path)(error));
            }
            _ => {}
        }
        if let Some(folder) = file.parent() {
            folders.insert(dir.join(folder));
        }
    }
    for folder in folders {
        let leftovers = std::fs::read_dir(&folder).into_iter().flatten().flatten();
        for leftover in leftovers {
            let name = leftover.file_name();
            if name
                .to_str()
                .is_some_and(|name| name.starts_with('.') && name.ends_with(".tmp"))
            {
                let _ = std::fs::remove_file(leftover.path());
            }
        }
        // Left when something else is in it: not ours to delete.
        let _ = std::fs::remove_dir(&folder);
    }
}

/// What [`write()`] did.
#[derive(Debug, Default)]
pub struct Written {
    /// The folders written whole.
    pub folders: Vec<PathBuf>,
    /// Each file that could not be written (or taken away), in order.
    pub errors: Vec<FileError>,
}

/// Writes one folder per distinct disagreement into `dir`: the shrunk
/// document as a fixture named for its place in the suite, and
/// `disagreement.json` with the seed and index that make the first
/// document again, the level, both sides' findings on the first and the
/// shrunk document, how far it was shrunk, and where the fixture belongs.
/// First, what `previous` (from [`prepare`]) says an earlier run wrote is
/// taken away, and the manifest ([`MANIFEST`]) of this run is written,
/// listing every file it writes and what it counted but did not keep.
///
/// A file that cannot be written is recorded in [`Written::errors`] and
/// the others are still written; only a manifest that cannot be written
/// stops it, since files it does not list would make the folder one the
/// next run refuses.
pub fn write(
    dir: &Path,
    previous: &Previous,
    set: &SuiteSet,
    run: &DiffRun,
    sides: Sides<'_>,
) -> Written {
    let mut written = Written::default();
    clear(dir, previous, &mut written.errors);
    let planned: Vec<(PathBuf, String)> = run
        .disagreements
        .iter()
        .enumerate()
        .map(|(number, disagreement)| {
            let folder = format!(
                "{:03}-{}",
                number + 1,
                file::bounded_name(disagreement.rule())
            );
            let destination = destination(set, run, disagreement);
            // The fixture's name is made here, of numbers; bounded all
            // the same, as every name made for a file is.
            let name = file::bounded_name(destination.rsplit('/').next().unwrap_or("fixture.json"));
            (PathBuf::from(folder), name)
        })
        .collect();
    let files: Vec<String> = planned
        .iter()
        .flat_map(|(folder, name)| {
            [folder.join(name), folder.join("disagreement.json")]
                .map(|path| path.display().to_string())
        })
        .collect();
    let manifest = json!({
        "format": MANIFEST_FORMAT,
        "seed": run.options.seed,
        "level": run.options.level.as_str(),
        "documents": run.documents,
        "comparisons": run.compared,
        "disagreeing_comparisons": run.disagreeing,
        "not_compared": run.not_compared.len(),
        "distinct": run.distinct(),
        "written": run.disagreements.len(),
        "not_kept": {
            "distinct": run.not_kept.distinct,
            "comparisons": run.not_kept.count,
            "max_shrunk": run.options.max_shrunk,
        },
        "files": files,
    });
    let pretty = serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n";
    if let Err(error) = file::replace(&dir.join(MANIFEST), &pretty, ".", ".tmp") {
        written.errors.push(error);
        return written;
    }
    for (disagreement, (folder, name)) in run.disagreements.iter().zip(planned) {
        let folder = dir.join(folder);
        match write_one(&folder, &name, set, run, disagreement, sides) {
            Ok(()) => written.folders.push(folder),
            Err(error) => written.errors.push(error),
        }
    }
    written
}

/// One disagreement's folder.
fn write_one(
    folder: &Path,
    name: &str,
    set: &SuiteSet,
    run: &DiffRun,
    disagreement: &Disagreement,
    sides: Sides<'_>,
) -> Result<(), FileError> {
    let fixture = fixture(set, run, disagreement, sides);
    let pretty = serde_json::to_string_pretty(&fixture).unwrap_or_default() + "\n";
    file::replace(&folder.join(name), &pretty, ".", ".tmp")?;
    let (shrinking, cut) = shrinking_value(disagreement.shrinking);
    let record = json!({
        "seed": run.options.seed,
        "index": disagreement.first.index,
        "level": run.options.level.as_str(),
        "validator": {"name": sides.validator.name, "version": sides.validator.version},
        "against": {"name": sides.against.name, "version": sides.against.version},
        "rules": disagreement.rules(),
        "shapes": disagreement.shapes.iter().map(difference_value).collect::<Vec<_>>(),
        "comparisons": disagreement.count,
        "fixture": destination(set, run, disagreement),
        "shrinking": shrinking,
        "cut": cut,
        "differences": disagreement.shrunk.differences.iter().map(difference_value).collect::<Vec<_>>(),
        "more_differences": disagreement.shrunk.more_differences,
        "first": found_value(&disagreement.first),
        "shrunk": found_value(&disagreement.shrunk),
    });
    let pretty = serde_json::to_string_pretty(&record).unwrap_or_default() + "\n";
    file::replace(&folder.join("disagreement.json"), &pretty, ".", ".tmp")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{NotKept, Options};
    use crate::outcome::comparison::Level;
    use crate::suite::tree::SuiteTree;
    use mcpdesc_protocol::{Diagnostic, Revision, Severity};

    fn disagreement(rule: &str, index: u64) -> Disagreement {
        let shape = Difference {
            side: Side::Validator,
            rule: rule.into(),
            path: Some(String::new()),
            severity: Some(Severity::Error),
        };
        let found = Found {
            index,
            revision: Revision::of("2025-06-18"),
            document: json!({"mcpdesc": "0.9.0"}),
            validator: Findings::of(vec![Diagnostic::new(rule, "", Severity::Error)]),
            against: Findings::default(),
            differences: vec![shape.clone()],
            more_differences: 0,
        };
        Disagreement {
            shapes: vec![shape],
            first: found.clone(),
            count: 1,
            shrunk: found,
            shrinking: Shrinking::Complete,
        }
    }

    fn run(disagreements: Vec<Disagreement>) -> DiffRun {
        DiffRun {
            options: Options {
                seed: 1,
                documents: 2,
                time: None,
                level: Level::Exact,
                jobs: 1,
                max_consecutive_failures: 10,
                max_shrunk: 100,
            },
            documents: 2,
            compared: 2,
            disagreeing: 2,
            not_compared: Vec::new(),
            disagreements,
            not_kept: NotKept::default(),
            stopped: None,
            elapsed: std::time::Duration::ZERO,
        }
    }

    /// A folder that cannot be written is an error of its own: the ones
    /// after it are still written, and the manifest lists them all.
    #[test]
    fn a_folder_that_cannot_be_written_does_not_lose_the_others() {
        let dir = tempfile::tempdir().unwrap();
        // Where the first disagreement's folder goes, a file.
        std::fs::write(dir.path().join("001-x.first"), "in the way\n").unwrap();
        let set = SuiteSet::load(SuiteTree::embedded());
        let implementation = Implementation::default();
        let sides = Sides {
            validator: &implementation,
            against: &implementation,
        };
        let run = run(vec![
            disagreement("x.first", 0),
            disagreement("x.second", 1),
        ]);
        let written = write(dir.path(), &Previous::default(), &set, &run, sides);
        assert_eq!(written.errors.len(), 1, "{:?}", written.errors);
        assert_eq!(written.folders, [dir.path().join("002-x.second")]);
        assert!(dir.path().join("002-x.second/disagreement.json").is_file());
        let (_, errors) = super::written(dir.path(), &written);
        assert!(errors.starts_with("error: cannot write "), "{errors}");
        assert!(errors.contains("001-x.first"), "{errors}");
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(MANIFEST)).unwrap())
                .unwrap();
        assert_eq!(manifest["files"].as_array().unwrap().len(), 4);
    }

    /// A manifest names only files inside its folder: one written by hand
    /// to name others is not followed.
    #[test]
    fn a_manifest_cannot_name_files_outside_its_folder() {
        let listed_of = |files: Value| listed(&json!({"format": MANIFEST_FORMAT, "files": files}));
        assert_eq!(
            listed_of(json!(["001-a/disagreement.json"])),
            Some(vec![PathBuf::from("001-a/disagreement.json")])
        );
        for bad in ["../x/y", "/etc/passwd", "a/../b", "a", "a/b/c"] {
            assert_eq!(listed_of(json!([bad])), None, "{bad}");
        }
        assert_eq!(listed(&json!({"files": []})), None);
    }
}
