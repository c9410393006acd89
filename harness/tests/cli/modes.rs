//! The reference validator reached three ways gives the same outcome for
//! every case.

use std::path::PathBuf;
use std::sync::OnceLock;

use mcpdesc_conformance::backend::external::{self, ExternalValidator, Mode};
use mcpdesc_conformance::backend::schedule;
use mcpdesc_conformance::outcome::{CaseResult, Outcome};
use mcpdesc_conformance::suite::EntryIndex;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_protocol::{SourceFormat, SourceTextSupport};
use mcpdesc_validator::ReferenceValidator;

/// `mcpdesc-validate`, built in this test binary's own profile and target
/// folder: it belongs to another package, so Cargo does not build it for
/// this one's tests by itself, and `cargo test --release` must never run a
/// stale debug (or stale release) binary.
pub(super) fn reference_binary() -> &'static PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        // This test binary is <target>/<profile folder>/deps/cli-<hash>.
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
        let target_dir = profile_dir.parent().unwrap();
        let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
            Some("debug") => "dev".to_owned(),
            Some(other) => other.to_owned(),
            None => panic!("no profile folder in {}", exe.display()),
        };
        let status = std::process::Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "-p",
                "mcpdesc-validator",
                "--bin",
                "mcpdesc-validate",
                "--profile",
                &profile,
                "--target-dir",
            ])
            .arg(target_dir)
            .status()
            .unwrap();
        assert!(status.success());
        profile_dir.join(format!("mcpdesc-validate{}", std::env::consts::EXE_SUFFIX))
    })
}

fn outcomes(results: &[CaseResult]) -> Vec<(EntryIndex, String, Outcome)> {
    results
        .iter()
        .map(|result| {
            (
                result.entry,
                result.revision.to_string(),
                result.outcome.clone(),
            )
        })
        .collect()
}

#[test]
fn in_process_session_and_oneshot_agree_case_by_case() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let cases = Selection::default().cases(&set);
    let in_process = outcomes(&schedule::run_in_process(
        &cases,
        &set.rules,
        &ReferenceValidator::new(),
    ));
    assert_eq!(in_process.len(), cases.len());
    let binary = reference_binary().display().to_string();
    for (flag, mode) in [("--stdio", Mode::Session), ("--oneshot", Mode::Oneshot)] {
        let mut validator = ExternalValidator::new(
            vec![binary.clone(), flag.to_owned()],
            mode,
            set.revisions.clone(),
        );
        // A one-shot validator announces nothing: it is told, as
        // `--source-text json,yaml` tells it, that it reads both texts,
        // which the reference does in every mode.
        if mode == Mode::Oneshot {
            validator.source_text = Some(SourceTextSupport::of(&[
                SourceFormat::Json,
                SourceFormat::Yaml,
            ]));
        }
        let run = external::run(&cases, &set.rules, &validator);
        assert_eq!(run.unavailable, None);
        let external = outcomes(&run.results);
        for (left, right) in in_process.iter().zip(&external) {
            assert_eq!(left, right, "{flag}");
        }
        assert_eq!(in_process.len(), external.len());
    }
}

/// A document whose root is not an object (its statement in a file beside
/// it) reaches a validator as it is written, in session and one-shot mode
/// alike, and the in-process request carries the same value: nothing is
/// wrapped around it or added to it.
#[test]
fn a_document_whose_root_is_not_an_object_arrives_unchanged_in_every_mode() {
    let pattern = "document/expected-invalid/generated/root/*";
    let folder = super::workspace().join("fixtures/document/expected-invalid/generated/root");
    let fixtures: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    assert!(fixtures.len() >= 5, "{fixtures:?}");
    let written = |path: &PathBuf| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    for fixture in &fixtures {
        assert!(!written(fixture).is_object(), "{}", fixture.display());
    }
    let script = super::workspace().join("harness/tests/support/recording_validator.py");
    for mode in ["session", "oneshot"] {
        let dir = tempfile::tempdir().unwrap();
        let line = format!(
            "python3 {} {mode} {}",
            script.display(),
            dir.path().display()
        );
        let mut command = super::harness();
        command = command.args(["run", "--quiet", "--validator", &line, "--filter", pattern]);
        if mode == "oneshot" {
            command = command.arg("--oneshot");
        }
        let output = command.output().unwrap();
        // Every case expects a finding that this validator never reports.
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let mut seen = 0;
        for fixture in &fixtures {
            let name = fixture.file_name().unwrap().to_str().unwrap();
            let case = format!("document__expected-invalid__generated__root__{name}");
            let recorded: Vec<PathBuf> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .filter(|path| {
                    let file = path.file_name().unwrap().to_str().unwrap();
                    file.starts_with(&format!("{case}@"))
                })
                .collect();
            assert!(!recorded.is_empty(), "{mode}: {case} never arrived");
            for path in recorded {
                assert_eq!(
                    written(&path),
                    written(fixture),
                    "{mode}: {}",
                    path.display()
                );
                seen += 1;
            }
        }
        assert!(seen >= fixtures.len(), "{mode}: {seen}");
    }
    let set = SuiteSet::load(SuiteTree::embedded());
    for fixture in &fixtures {
        let name = fixture.file_name().unwrap().to_str().unwrap();
        let id = format!("document/expected-invalid/generated/root/{name}");
        let entry = set.get(set.find(&id).unwrap()).unwrap();
        let document = entry.fixture.document.as_ref().unwrap();
        assert_eq!(*document.value, written(fixture), "{id}");
        assert!(
            entry.fixture.statement().is_some_and(|s| !s.is_empty()),
            "{id}"
        );
    }
}
