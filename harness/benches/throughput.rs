//! Throughput of the harness, printed as ratios against the product targets.
//!
//! `cargo bench -p mcpdesc-conformance` builds a deterministic corpus from
//! the built-in suite (its fixtures repeated under new names, with
//! expectations from the reference validator) and measures, on one worker:
//!
//! - calling the reference validator directly on every case, the baseline;
//! - the harness running the same cases in process (target: at most 10 %
//!   slower than the baseline);
//! - session mode through `mcpdesc-validate --stdio`, one process, with one
//!   request in flight and with [`PIPELINE`] in flight (target: at least half the
//!   in-process throughput);
//! - one-shot mode through `mcpdesc-validate --oneshot` on a sample
//!   (target: session mode at least 10 times faster);
//! - time per case at 1,000 and at 20,000 cases (target: within 20 %), and
//!   peak memory after the 20,000-case run (target: under 150 MB);
//! - one trial of the `cargo test` binary in its own process, as
//!   cargo-nextest runs it, in the debug profile (target: under 20 ms), and
//!   the whole suite under `cargo nextest run` against `cargo test` (target:
//!   at most three times as long), when cargo-nextest is installed.
//!
//! `MCPDESC_BENCH_CASES=N` changes the large corpus size. Nothing here
//! asserts a time: it prints numbers.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use mcpdesc_conformance::backend::external::{self, ExternalValidator, Mode};
use mcpdesc_conformance::backend::schedule::{self, InProcess, Schedule};
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::{Case, Selection};
use mcpdesc_conformance::suite::expectation::{Expectation, Finding};
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_validator::ReferenceValidator;

/// The requests in flight of the pipelined session runs (also their
/// consecutive-failure cutoff, which bounds the cases in flight).
const PIPELINE: usize = 32;

fn main() {
    // `cargo bench` passes `--bench`; this binary takes no options.
    let large: usize = std::env::var("MCPDESC_BENCH_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(20_000);
    let small = 1_000.min(large);
    let binary = reference_binary();

    let corpus = build_corpus(small);
    let cases = Selection::default().cases(&corpus);
    let known = &corpus.revisions;
    let direct = time(|| {
        for case in &cases {
            if let Ok(document) = &case.entry.fixture.document {
                std::hint::black_box(mcpdesc_validator::validate(
                    &document.value,
                    case.revision,
                    known,
                ));
            }
        }
    });
    let validator = ReferenceValidator::new();
    let backend = InProcess::new(&validator);
    let one_worker = Schedule {
        jobs: 1,
        ..Schedule::default()
    };
    let in_process_run = |cases: &[Case<'_>], rules, schedule: &Schedule| {
        schedule::run(cases, rules, &backend, schedule, &|_, _| {});
    };
    let in_process = time(|| {
        in_process_run(&cases, &corpus.rules, &one_worker);
    });
    let session_with = |cases: &[Case<'_>], rules, pipeline: usize| {
        time(|| {
            let mut validator = ExternalValidator::new(
                vec![binary.clone(), "--stdio".into()],
                Mode::Session,
                corpus.revisions.clone(),
            );
            validator.jobs = 1;
            validator.pipeline = pipeline;
            validator.max_consecutive_failures = PIPELINE;
            let run = external::run(cases, rules, &validator);
            assert_eq!(
                run.unavailable, None,
                "mcpdesc-validate --stdio did not start"
            );
        })
    };
    let session = session_with(&cases, &corpus.rules, 1);
    let pipelined = session_with(&cases, &corpus.rules, PIPELINE);
    let sample = &cases[..cases.len().min(200)];
    let oneshot = time(|| {
        let mut validator = ExternalValidator::new(
            vec![binary.clone(), "--oneshot".into()],
            Mode::Oneshot,
            corpus.revisions.clone(),
        );
        validator.jobs = 1;
        external::run(sample, &corpus.rules, &validator);
    });

    let large_corpus = build_corpus(large);
    let large_cases = Selection::default().cases(&large_corpus);
    let large_run = time(|| {
        in_process_run(&large_cases, &large_corpus.rules, &one_worker);
    });

    // The same small run once more, now that the large corpus has pushed it
    // out of the caches, so the two sizes are compared on equal terms.
    let small_cold = time_once(|| {
        in_process_run(&cases, &corpus.rules, &one_worker);
    });
    let large_cold = time_once(|| {
        in_process_run(&large_cases, &large_corpus.rules, &one_worker);
    });
    let all_cores = time(|| {
        in_process_run(&large_cases, &large_corpus.rules, &Schedule::default());
    });
    // Read before the session run below, whose results add to it: the
    // target is about the in-process run.
    let peak = peak_memory();
    // Steady state: a session's start and stop cost a few milliseconds,
    // a fair part of a 1,000-case run at this speed.
    let large_pipelined = session_with(&large_cases, &large_corpus.rules, PIPELINE);

    let per_case = |total: Duration, count: usize| total.as_secs_f64() * 1e6 / count.max(1) as f64;
    let direct_us = per_case(direct, cases.len());
    let in_process_us = per_case(in_process, cases.len());
    let session_us = per_case(session, cases.len());
    let pipelined_us = per_case(pipelined, cases.len());
    let oneshot_us = per_case(oneshot, sample.len());
    let small_us = per_case(small_cold, cases.len());
    let large_us = per_case(large_cold, large_cases.len());
    let mut text = String::new();
    let _ = writeln!(
        text,
        "corpus: {} cases (small), {} cases (large); one worker unless said",
        cases.len(),
        large_cases.len()
    );
    let _ = writeln!(
        text,
        "{:<44} {:>12} {:>10} {:>10}",
        "measure", "µs per case", "ratio", "target"
    );
    let row = |text: &mut String, name: &str, micros: f64, ratio: String, target: &str| {
        let _ = writeln!(text, "{name:<44} {micros:>12.1} {ratio:>10} {target:>10}");
    };
    row(
        &mut text,
        "validator called directly",
        direct_us,
        "1.00".into(),
        "",
    );
    row(
        &mut text,
        "harness, in process (overhead)",
        in_process_us,
        format!("{:.2}", in_process_us / direct_us),
        "<= 1.10",
    );
    row(
        &mut text,
        "session, 1 in flight (in-process / session)",
        session_us,
        format!("{:.2}", in_process_us / session_us),
        "",
    );
    row(
        &mut text,
        &format!("session, {PIPELINE} in flight (in-process / session)"),
        pipelined_us,
        format!("{:.2}", in_process_us / pipelined_us),
        ">= 0.50",
    );
    row(
        &mut text,
        &format!("the same at {} cases", large_cases.len()),
        per_case(large_pipelined, large_cases.len()),
        format!(
            "{:.2}",
            per_case(large_run, large_cases.len()) / per_case(large_pipelined, large_cases.len())
        ),
        ">= 0.50",
    );
    row(
        &mut text,
        &format!("one-shot mode (one-shot / session, {PIPELINE} in flight)"),
        oneshot_us,
        format!("{:.1}", oneshot_us / pipelined_us),
        ">= 10",
    );
    row(
        &mut text,
        &format!("in process at {} cases (vs small)", large_cases.len()),
        large_us,
        format!("{:.2}", large_us / small_us),
        "<= 1.20",
    );
    row(
        &mut text,
        "in process, every core, large corpus",
        per_case(all_cores, large_cases.len()),
        format!(
            "{:.2}",
            per_case(all_cores, large_cases.len()) / per_case(large_run, large_cases.len())
        ),
        "",
    );
    let _ = writeln!(
        text,
        "peak memory (VmHWM) after the in-process runs: {peak} (target < 150 MB)"
    );
    let trial = one_trial_process();
    let _ = writeln!(
        text,
        "one trial in its own process, debug profile: {:.1} ms best, {:.1} ms median of 21 (target < 20 ms)",
        trial.0, trial.1
    );
    let _ = writeln!(text, "{}", diff_speed(&binary));
    let _ = writeln!(text, "{}", nextest_against_cargo_test());
    print!("{text}");
}

/// `diff`'s documents per second, on every core: the reference validator
/// in process against itself, and against `mcpdesc-validate --stdio`.
fn diff_speed(binary: &str) -> String {
    use mcpdesc_conformance::diff::{self, Options};
    use mcpdesc_conformance::outcome::comparison::Level;
    let set = SuiteSet::load(SuiteTree::embedded());
    let options = Options {
        seed: 1,
        documents: 2_000,
        time: None,
        level: Level::Exact,
        jobs: Schedule::default().jobs,
        max_consecutive_failures: 10,
        max_shrunk: diff::MAX_SHRUNK,
    };
    let reference = InProcess::new(ReferenceValidator::new());
    let in_process = diff::diff(&set, &reference, &reference, &options);
    let session = external::Pool::start(ExternalValidator::new(
        vec![binary.to_owned(), "--stdio".into()],
        Mode::Session,
        set.revisions.clone(),
    ))
    .expect("mcpdesc-validate --stdio starts");
    let over_stdio = diff::diff(&set, &session, &reference, &options);
    let rate = |run: &diff::DiffRun| run.documents as f64 / run.elapsed.as_secs_f64();
    format!(
        "diff, {} documents: {:.0} documents/s in process against itself, {:.0} documents/s for --stdio against in process",
        options.documents,
        rate(&in_process),
        rate(&over_stdio)
    )
}

/// The whole suite's `conformance` test binary (debug profile) under
/// `cargo nextest run`, which runs each trial in a process of its own,
/// against `cargo test`, which runs them all in one: the best of three
/// wall times of each, cargo's own start included in both. Says so when
/// cargo-nextest is not installed.
fn nextest_against_cargo_test() -> String {
    // Cargo with `args`, its output dropped: whether it succeeded.
    let quietly = |args: &[&str]| {
        std::process::Command::new(env!("CARGO"))
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    let cargo = |args: &[&str]| {
        quietly(
            &[
                args,
                &["-p", "mcpdesc-conformance", "--test", "conformance"],
            ]
            .concat(),
        )
    };
    if !quietly(&["nextest", "--version"]) {
        return "cargo nextest run against cargo test: not measured (cargo-nextest is not \
                installed: cargo install --locked cargo-nextest)"
            .to_owned();
    }
    let best = |args: &[&str]| {
        (0..3)
            .map(|_| {
                let started = Instant::now();
                assert!(cargo(args), "cargo {args:?} failed");
                started.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let nextest = best(&["nextest", "run"]);
    let test = best(&["test", "--quiet"]);
    format!(
        "whole suite, debug: cargo nextest run {nextest:.2} s, cargo test {test:.2} s, \
         ratio {:.1} (target <= 3; nextest's own cost per process is the floor, see \
         docs/performance.md)",
        nextest / test
    )
}

/// The best and the median time, in milliseconds, of the debug-profile
/// `conformance` test binary running one case by its exact name, as
/// cargo-nextest runs every trial.
fn one_trial_process() -> (f64, f64) {
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "test",
            "--quiet",
            "--no-run",
            "--message-format",
            "json",
            "-p",
            "mcpdesc-conformance",
            "--test",
            "conformance",
        ])
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "building the test binary failed");
    // Cargo's JSON messages name the test executable it built.
    let binary = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| {
            (message["target"]["name"] == "conformance")
                .then(|| message["executable"].as_str().map(str::to_owned))
                .flatten()
        })
        .expect("cargo names the conformance test binary");
    let mut times: Vec<f64> = (0..21)
        .map(|_| {
            let started = Instant::now();
            let status = std::process::Command::new(&binary)
                .args(["--exact", "document/expected-valid/minimal.json@2025-06-18"])
                .stdout(std::process::Stdio::null())
                .status()
                .expect("the test binary runs");
            assert!(status.success(), "the trial failed");
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[0], times[times.len() / 2])
}

/// One run of `work`.
fn time_once(work: impl FnOnce()) -> Duration {
    let started = Instant::now();
    work();
    started.elapsed()
}

/// The best of three runs of `work`: the least disturbed by the machine.
fn time(mut work: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The built-in suite's fixtures repeated under new names until the corpus
/// has at least `cases` cases, each with its expectation from the reference
/// validator. Deterministic: the same size gives the same corpus.
fn build_corpus(cases: usize) -> SuiteSet {
    let base = SuiteSet::load(SuiteTree::embedded());
    let mut files: Vec<(String, Vec<u8>)> = base
        .tree
        .under("suites/")
        .map(|(name, bytes)| (name.to_owned(), bytes.to_vec()))
        .collect();
    let entries: Vec<_> = base
        .suites
        .iter()
        .flat_map(|suite| &suite.entries)
        .collect();
    let mut count = 0;
    let mut copy = 0;
    while count < cases {
        for entry in &entries {
            let fixture = &entry.fixture;
            let Ok(document) = &fixture.document else {
                continue;
            };
            let (folder, file) = fixture.name.split_once('/').unwrap_or(("", &fixture.name));
            let name = format!("{folder}/copy{copy:05}-{file}");
            let id = format!("{}/{name}", fixture.suite);
            let revisions = fixture.revisions();
            count += revisions.len();
            let expectation = Expectation {
                fixture: id,
                revisions: revisions
                    .iter()
                    .map(|&revision| {
                        let findings =
                            mcpdesc_validator::validate(&document.value, revision, &base.revisions);
                        (revision, findings.iter().map(Finding::of).collect())
                    })
                    .collect(),
            };
            files.push((
                format!("fixtures/{}/{name}", fixture.suite),
                fixture.text.clone().into_bytes(),
            ));
            files.push((
                format!("expected/{}/{name}.yaml", fixture.suite),
                expectation.render().into_bytes(),
            ));
            if count >= cases {
                break;
            }
        }
        copy += 1;
    }
    SuiteSet::load(SuiteTree::from_files(files))
}

/// `mcpdesc-validate` in release mode, built if needed.
fn reference_binary() -> String {
    let status = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--release",
            "-p",
            "mcpdesc-validator",
            "--bin",
            "mcpdesc-validate",
        ])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building mcpdesc-validate failed");
    let exe = std::env::current_exe().expect("the bench knows where it is");
    let release = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/release/deps/<bench>");
    release
        .join(format!("mcpdesc-validate{}", std::env::consts::EXE_SUFFIX))
        .display()
        .to_string()
}

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .map(|line| line["VmHWM:".len()..].trim().to_owned())
        })
        .unwrap_or_else(|| "unknown (no /proc/self/status)".to_owned())
}
