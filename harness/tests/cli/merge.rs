//! `merge`: shard reports combine into the unsharded run's report and
//! outputs, and reports that are not the shards of one run are refused.
//!
//! What legitimately differs between a merged report and the unsharded
//! one is removed before comparing: each case's `durationMs` (timings),
//! and `run.options.selection`'s partition, which the merged run drops
//! (the unsharded run never had one, so nothing is removed there), and
//! `run.commandLine`, which is each command's own (checked apart). The
//! job count would differ when shards ran on other machines; here every
//! run uses the same default.

use std::fs;

use serde_json::Value;

use super::schemas::{assert_valid, schemas};
use super::*;

/// Every file output, named after `name`.
fn outputs(name: &str) -> [String; 8] {
    [
        "--report".into(),
        format!("{name}.json"),
        "--markdown".into(),
        format!("{name}.md"),
        "--junit".into(),
        format!("{name}.xml"),
        "--badge-dir".into(),
        format!("{name}-badges"),
    ]
}

/// `run ARGS` in `dir` with `--report NAME` and the other outputs named
/// after it; returns its exit status.
fn run_with_outputs(dir: &Path, name: &str, args: &[&str]) -> Option<i32> {
    harness()
        .current_dir(dir)
        .arg("run")
        .arg("--quiet")
        .args(args)
        .args(outputs(name))
        .output()
        .unwrap()
        .status
        .code()
}

/// `merge REPORTS` in `dir`, writing every output named after `name`.
fn merge(dir: &Path, name: &str, reports: &[&str]) -> std::process::Output {
    harness()
        .current_dir(dir)
        .arg("merge")
        .args(reports)
        .args(outputs(name))
        .output()
        .unwrap()
}

/// A report without what differs from run to run: the timings, and the
/// command line that made it.
fn without_timings(path: &Path) -> Value {
    let mut report: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    report["run"]
        .as_object_mut()
        .unwrap()
        .remove("commandLine")
        .unwrap();
    for case in report["cases"].as_array_mut().unwrap() {
        case.as_object_mut().unwrap().remove("durationMs").unwrap();
    }
    report
}

/// JUnit XML without its `time` attributes.
fn junit_without_timings(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find(" time=\"") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 7..];
        rest = &after[after.find('"').unwrap() + 1..];
    }
    out.push_str(rest);
    out
}

/// The files of a folder, by name.
fn files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                fs::read_to_string(entry.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Runs `args` unsharded and as three shards, merges the shards, and
/// checks that the merged outputs are the unsharded ones; returns the
/// unsharded run's exit status.
fn shards_merge_into_the_whole(args: &[&str]) -> Option<i32> {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let whole = run_with_outputs(dir, "whole", args);
    let mut shards = Vec::new();
    for shard in 1..=3 {
        let partition = format!("hash:{shard}/3");
        let code = run_with_outputs(
            dir,
            &format!("shard{shard}"),
            &[args, &["--partition", &partition]].concat(),
        );
        assert!(matches!(code, Some(0 | 1)), "shard {shard}: {code:?}");
        shards.push(format!("shard{shard}.json"));
    }
    // Each shard has some of the cases, and none has them all.
    let sizes: Vec<usize> = shards
        .iter()
        .map(|shard| {
            without_timings(&dir.join(shard))["cases"]
                .as_array()
                .unwrap()
                .len()
        })
        .collect();
    let total = without_timings(&dir.join("whole.json"))["cases"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(sizes.iter().sum::<usize>(), total, "{sizes:?}");
    assert!(
        sizes.iter().all(|size| *size > 0 && *size < total),
        "{sizes:?}"
    );
    // Given in another order than the shards' numbers: the case order
    // comes from the suite, not from the files.
    let shards: Vec<&str> = vec![&shards[2], &shards[0], &shards[1]];
    let merged = merge(dir, "merged", &shards);
    assert_eq!(
        merged.status.code(),
        whole,
        "{}{}",
        stdout_of(&merged),
        stderr_of(&merged)
    );
    let report: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("merged.json")).unwrap()).unwrap();
    assert_valid(&schemas(), "report", &report);
    // The merged report was made by `merge`, not by the first shard's run.
    let command_line: Vec<&str> = report["run"]["commandLine"]
        .as_array()
        .unwrap()
        .iter()
        .map(|word| word.as_str().unwrap())
        .collect();
    assert_eq!(command_line[1..4], ["merge", shards[0], shards[1]]);
    assert_eq!(
        without_timings(&dir.join("merged.json")),
        without_timings(&dir.join("whole.json"))
    );
    assert_eq!(
        fs::read_to_string(dir.join("merged.md")).unwrap(),
        fs::read_to_string(dir.join("whole.md")).unwrap()
    );
    assert_eq!(
        junit_without_timings(&dir.join("merged.xml")),
        junit_without_timings(&dir.join("whole.xml"))
    );
    let badges = files(&dir.join("merged-badges"));
    assert!(!badges.is_empty());
    assert_eq!(badges, files(&dir.join("whole-badges")));
    whole
}

#[test]
fn shards_of_the_reference_validator_merge_into_the_unsharded_run() {
    assert_eq!(shards_merge_into_the_whole(&[]), Some(0));
}

#[test]
fn failures_skips_and_unclaimed_cases_survive_the_round_trip() {
    let script = workspace().join("examples/python-validator/validator.py");
    let command = format!("python3 {}", script.display());
    // The Python example fails many cases, skips a revision and leaves
    // rules unclaimed; judged at the rules level, with its baseline, the
    // marks and the stale count go through the merge too.
    let baseline = workspace().join("examples/python-validator/baseline.yaml");
    let status = shards_merge_into_the_whole(&[
        "--validator",
        &command,
        "--baseline",
        baseline.to_str().unwrap(),
    ]);
    assert!(matches!(status, Some(0 | 1)), "{status:?}");
}

/// Three shard reports of the reference validator, in a folder.
fn three_shards() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for shard in 1..=3 {
        let partition = format!("hash:{shard}/3");
        let code = run_with_outputs(
            dir.path(),
            &format!("shard{shard}"),
            &["--partition", &partition],
        );
        assert_eq!(code, Some(0));
    }
    dir
}

#[test]
fn reports_that_are_not_the_shards_of_one_run_are_refused() {
    let dir = three_shards();
    let dir = dir.path();
    let refused = |reports: &[&str], needles: &[&str]| {
        let output = merge(dir, "refused", reports);
        assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
        assert_contains(&stderr_of(&output), needles);
        assert!(!dir.join("refused.json").exists());
    };
    refused(
        &["shard1.json", "shard2.json"],
        &["shard(s) 3 of 3 missing", "shards 1, 2"],
    );
    refused(
        &["shard1.json", "shard2.json", "shard3.json", "shard2.json"],
        &["shard2.json and shard2.json are both shard 2 of 3"],
    );
    // The same cases under another name: an overlap.
    fs::copy(dir.join("shard1.json"), dir.join("copy.json")).unwrap();
    let unsharded = harness()
        .current_dir(dir)
        .args(["run", "--quiet", "--report", "whole.json"])
        .output()
        .unwrap();
    assert_eq!(unsharded.status.code(), Some(0));
    refused(
        &["whole.json", "shard1.json"],
        &["shard1.json: it is shard hash:1/3, but whole.json is not a shard"],
    );
    refused(
        &["whole.json", "whole.json"],
        &["both have the case", "overlap"],
    );
    // Another level is another run.
    let strict = harness()
        .current_dir(dir)
        .args([
            "run",
            "--quiet",
            "--level",
            "rules",
            "--partition",
            "hash:3/3",
        ])
        .args(["--report", "rules3.json"])
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(0));
    refused(
        &["shard1.json", "shard2.json", "rules3.json"],
        &["rules3.json: its level is rules, but shard1.json has exact"],
    );
    // Another report layout.
    let text = fs::read_to_string(dir.join("shard3.json")).unwrap();
    fs::write(
        dir.join("future.json"),
        text.replacen("\"reportVersion\": 1", "\"reportVersion\": 2", 1),
    )
    .unwrap();
    refused(
        &["shard1.json", "shard2.json", "future.json"],
        &["future.json: reportVersion is 2, but this harness reads reportVersion 1"],
    );
}

#[test]
fn a_truncated_report_is_refused_with_its_line_and_column() {
    let dir = three_shards();
    let dir = dir.path();
    let text = fs::read_to_string(dir.join("shard2.json")).unwrap();
    // Cut inside the tenth line: the parser stops at the end of the file.
    let cut: usize = text
        .lines()
        .take(9)
        .map(|line| line.len() + 1)
        .sum::<usize>()
        + 3;
    fs::write(dir.join("cut.json"), &text[..cut]).unwrap();
    let output = merge(dir, "refused", &["shard1.json", "cut.json", "shard3.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_contains(&stderr_of(&output), &["error: cut.json:10:3: ", "EOF"]);
}

#[test]
fn a_report_of_another_suite_is_refused() {
    let dir = three_shards();
    let tree = suite_copy();
    edit_one_pointer(tree.path());
    let output = harness()
        .current_dir(dir.path())
        .args([
            "merge",
            "shard1.json",
            "shard2.json",
            "shard3.json",
            "--suite-dir",
        ])
        .arg(tree.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "shard1.json: the report is of the suite sha256:",
            "--suite-dir",
        ],
    );
}
