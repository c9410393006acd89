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

/// [`merge`] with the options `args` besides.
fn merge_with(dir: &Path, name: &str, reports: &[&str], args: &[&str]) -> std::process::Output {
    harness()
        .current_dir(dir)
        .arg("merge")
        .args(reports)
        .args(args)
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
    // The shards' baseline marks are not taken: the baseline is given to
    // the merge, as to the run.
    let baseline: Vec<&str> = args
        .iter()
        .position(|arg| *arg == "--baseline")
        .map_or(&[][..], |at| &args[at..at + 2])
        .to_vec();
    let merged = merge_with(dir, "merged", &shards, &baseline);
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

/// Reads the report at `path`, lets `edit` change it, and writes it back.
fn edit_report(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut report: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut report);
    fs::write(path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
}

/// The index of the first case of `report` whose suite expects a finding.
fn first_with_findings(report: &Value) -> usize {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .position(|case| !case["outcome"]["expected"].as_array().unwrap().is_empty())
        .unwrap()
}

/// `merge ARGS` in `dir`, without outputs.
fn merge_args(dir: &Path, args: &[&str]) -> std::process::Output {
    harness()
        .current_dir(dir)
        .arg("merge")
        .args(args)
        .output()
        .unwrap()
}

/// A shard is judged again from the findings it records, with the suite's
/// expectations: its `passes` and its baseline marks are not its word to
/// give (they used to let a failing run merge to exit 0), an expectation it
/// makes up is refused, and `merge --baseline` excuses known failures as
/// `run --baseline` does.
#[test]
fn a_shard_is_judged_again_from_its_findings_and_the_suites_expectations() {
    let dir = three_shards();
    let dir = dir.path();
    // A missed finding, with `passes` still saying that the case passes.
    edit_report(&dir.join("shard1.json"), |report| {
        let index = first_with_findings(report);
        let case = &mut report["cases"][index];
        let finding = case["outcome"]["expected"][0].clone();
        case["outcome"]["missing"] = Value::Array(vec![finding]);
        case["outcome"]["reportedCount"] = Value::from(0);
    });
    let shards = ["shard1.json", "shard2.json", "shard3.json"];
    let output = merge_args(dir, &shards);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    // Marked a known failure by the shard: no baseline was given to merge.
    let mut id = String::new();
    edit_report(&dir.join("shard1.json"), |report| {
        let index = first_with_findings(report);
        let case = &mut report["cases"][index];
        id = case["id"].as_str().unwrap().to_owned();
        case["passes"] = serde_json::json!({"verdict": true, "rules": true, "exact": false});
        case["baseline"] =
            serde_json::json!({"mark": "known-failure", "reason": null, "link": null});
    });
    let output = merge_args(dir, &shards);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    // With the baseline that lists it, the failure is known.
    fs::write(
        dir.join("baseline.yaml"),
        format!("failures:\n  - case: \"{id}\"\n"),
    )
    .unwrap();
    let output = merge_args(
        dir,
        &[
            &shards[..],
            &["--baseline", "baseline.yaml", "--report", "known.json"],
        ]
        .concat(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let known: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("known.json")).unwrap()).unwrap();
    let case = known["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|case| case["id"] == id.as_str())
        .unwrap();
    assert_eq!(case["baseline"]["mark"], "known-failure");
    assert_eq!(case["passes"]["exact"], false);
    // A made-up expectation is refused, naming the file and the case.
    edit_report(&dir.join("shard2.json"), |report| {
        let case = &mut report["cases"][0];
        case["outcome"]["expected"] = serde_json::json!([
            {"rule": "mcpdesc.document.shape", "path": "/made-up", "severity": "error"}
        ]);
        case["outcome"]["missing"] = case["outcome"]["expected"].clone();
    });
    let made_up = fs::read_to_string(dir.join("shard2.json")).unwrap();
    let made_up: Value = serde_json::from_str(&made_up).unwrap();
    let output = merge_args(dir, &shards);
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_contains(
        &stderr_of(&output),
        &[
            "shard2.json: ",
            made_up["cases"][0]["id"].as_str().unwrap(),
            "the suite expects",
        ],
    );
}

/// `interrupted.signal` is one of the signals the harness records a run
/// interrupted by (SIGHUP, SIGINT, SIGTERM), or the shard is refused: any
/// other number made an exit status of its own (-128 gave 0).
#[test]
fn an_interruption_by_a_signal_the_harness_does_not_record_is_refused() {
    let dir = three_shards();
    let dir = dir.path();
    let shards = ["shard1.json", "shard2.json", "shard3.json"];
    for signal in [-128_i64, -127, 0, 9, 2_147_483_647] {
        edit_report(&dir.join("shard3.json"), |report| {
            report["interrupted"] = serde_json::json!({ "signal": signal });
        });
        let output = merge_args(dir, &shards);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{signal}: {}",
            stderr_of(&output)
        );
        assert_contains(
            &stderr_of(&output),
            &[&format!(
                "shard3.json: the run is interrupted by signal {signal}"
            )],
        );
    }
    edit_report(&dir.join("shard3.json"), |report| {
        report["interrupted"] = serde_json::json!({ "signal": 15 });
    });
    let output = merge_args(dir, &shards);
    assert_eq!(output.status.code(), Some(143), "{}", stderr_of(&output));
}

/// A split into more shards than the selection has cases is refused before
/// anything is counted (2^64 - 1 shards used to abort on a 4 GB
/// allocation), and a list of missing shards is cut short.
#[test]
fn a_partition_larger_than_the_selection_is_refused_and_missing_shards_are_listed_briefly() {
    let dir = three_shards();
    let dir = dir.path();
    let partitioned = |count: &str| {
        edit_report(&dir.join("shard1.json"), |report| {
            report["run"]["options"]["selection"] =
                serde_json::json!([format!("--partition=hash:1/{count}")]);
        });
        harness()
            .current_dir(dir)
            .args(["merge", "shard1.json"])
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap()
    };
    for count in ["18446744073709551615", "100000000", "1000000"] {
        let output = partitioned(count);
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{count}: {stderr}");
        assert_contains(
            &stderr,
            &[&format!(
                "shard1.json: it is shard hash:1/{count}, but the selection has only "
            )],
        );
        assert!(stderr.len() < 1000, "{count}: {} bytes", stderr.len());
    }
    let output = partitioned("300");
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &["shard(s) 2, 3, 4, ", " and 289 more of 300 missing"],
    );
    assert!(stderr.len() < 1000, "{} bytes: {stderr}", stderr.len());
}

/// Gives compared cases of `report` `count` reported findings the suite
/// does not expect, spread over `rules` rules no catalog defines, at
/// pointers of about `pad` bytes that name nothing: what a run records of
/// a validator flooding it (the findings kept whole when `count` is at most
/// the 100 a report keeps).
///
/// The first compared cases are flooded, at most 414 (as many as the suite
/// had when these sizes were chosen) and no more than keep the report,
/// written pretty, at about 60 MB: under the 64 MiB a report may be,
/// however large the suite grows.
pub(super) fn flood(report: &mut Value, count: usize, rules: usize, pad: usize) {
    const BUDGET: usize = 60_000_000;
    let size = |value: &Value| serde_json::to_string_pretty(value).unwrap().len();
    let base = size(report);
    let Some(first) = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|case| case["outcome"]["kind"] == "compared")
    else {
        return;
    };
    let mut sample = first.clone();
    flood_case(&mut sample, count, rules, pad);
    let growth = size(&sample) - size(first);
    let flooded = BUDGET.saturating_sub(base) / growth;
    let compared = report["cases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .filter(|case| case["outcome"]["kind"] == "compared")
        .take(flooded.min(414));
    for case in compared {
        flood_case(case, count, rules, pad);
    }
}

/// Gives one compared `case` the findings of [`flood`].
fn flood_case(case: &mut Value, count: usize, rules: usize, pad: usize) {
    let padding = "x".repeat(pad);
    let mut findings: Vec<(String, String)> = (0..count)
        .map(|n| {
            (
                format!("x.flood.{}", n % rules),
                format!("/flood/{padding}/{n}"),
            )
        })
        .collect();
    findings.sort();
    let finding = |(rule, path): &(String, String)| serde_json::json!({"rule": rule, "path": path, "severity": "error"});
    let problems: Vec<Value> = findings
        .iter()
        .flat_map(|found| {
            ["unknown-rule", "unresolved-pointer"]
                .map(|problem| serde_json::json!({"finding": finding(found), "problem": problem}))
        })
        .take(100)
        .collect();
    let outcome = &mut case["outcome"];
    let expected = outcome["expected"].as_array().unwrap().len();
    outcome["unexpected"] = findings.iter().map(finding).collect();
    outcome["unexpectedCount"] = Value::from(count);
    outcome["reportedCount"] = Value::from(expected + count);
    outcome["problems"] = Value::Array(problems);
    outcome["problemCount"] = Value::from(2 * count);
    let error = outcome["expected"]
        .as_array()
        .unwrap()
        .iter()
        .any(|finding| finding["severity"] == "error");
    case["passes"] = serde_json::json!({"verdict": error, "rules": false, "exact": false});
}

/// A report of the whole suite of about 60 MB (its cases flooded with a
/// hundred findings at long pointers) merges in well under 300 MB: merge
/// used to keep about 20 times a report's size.
#[test]
fn merging_a_60_mb_report_stays_under_300_mb() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let output = harness()
        .current_dir(dir)
        .args(["run", "--quiet", "--report", "small.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let mut report: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("small.json")).unwrap()).unwrap();
    flood(&mut report, 100, 1, 600);
    fs::write(
        dir.join("big.json"),
        serde_json::to_string_pretty(&report).unwrap(),
    )
    .unwrap();
    drop(report);
    let size = fs::metadata(dir.join("big.json")).unwrap().len();
    assert!(size > 55_000_000, "{size} bytes");
    let (peak_kib, output) = super::external_support::peak_memory(
        dir,
        &["merge", "big.json", "--report", "merged.json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert!(
        peak_kib < 300 * 1024,
        "peak memory {} MiB, over 300 MB",
        peak_kib / 1024
    );
    let merged: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("merged.json")).unwrap()).unwrap();
    assert_eq!(merged["cases"][0]["outcome"]["unexpectedCount"], 100);
}

/// `merge --report FILE` with FILE one of the shards would overwrite it:
/// refused, as is any output that is an input under another name.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = three_shards();
    let dir = dir.path();
    let before = fs::read_to_string(dir.join("shard1.json")).unwrap();
    std::os::unix::fs::symlink(dir.join("shard2.json"), dir.join("link.json")).unwrap();
    fs::create_dir(dir.join("sub")).unwrap();
    for (option, file) in [
        ("--report", "shard1.json"),
        ("--report", "./shard1.json"),
        ("--junit", "sub/../shard3.json"),
        ("--markdown", "link.json"),
    ] {
        let output = merge_args(
            dir,
            &["shard1.json", "shard2.json", "shard3.json", option, file],
        );
        assert_eq!(
            output.status.code(),
            Some(2),
            "{option} {file}: {}",
            stderr_of(&output)
        );
        assert_contains(
            &stderr_of(&output),
            &[&format!("{option} {file}"), "is also an input"],
        );
    }
    assert_eq!(fs::read_to_string(dir.join("shard1.json")).unwrap(), before);
    // A hard link is the same file too.
    fs::hard_link(dir.join("shard1.json"), dir.join("hard.json")).unwrap();
    let output = merge_args(
        dir,
        &[
            "shard1.json",
            "shard2.json",
            "shard3.json",
            "--report",
            "hard.json",
        ],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
}
