//! `diff`: documents made from the fixtures by seeded mutation, two
//! validators compared on each, every distinct disagreement shrunk and
//! written as a fixture to adjudicate.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use mcpdesc_conformance::backend::external::{ExternalValidator, Mode, Pool};
use mcpdesc_conformance::diff::disagreement::pointer_shape;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::catalog::Input;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_protocol::Revision;
use serde_json::Value;

use super::modes::reference_binary;
use super::*;

fn script() -> String {
    workspace()
        .join("examples/python-validator/validator.py")
        .display()
        .to_string()
}

fn python_example() -> String {
    format!("python3 {}", script())
}

/// `diff ARGS` with a generous hang bound.
fn diff(args: &[&str]) -> std::process::Output {
    harness()
        .arg("diff")
        .args(args)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap()
}

/// Every `disagreement.json` under `dir`, by folder name (the manifest
/// beside them left out).
fn disagreements(dir: &Path) -> BTreeMap<String, Value> {
    fs::read_dir(dir)
        .unwrap()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| {
            let record = fs::read_to_string(entry.path().join("disagreement.json")).unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                serde_json::from_str(&record).unwrap(),
            )
        })
        .collect()
}

/// The compact JSON size of a document without its `x-test` sentence.
fn size(document: &Value) -> usize {
    let mut document = document.clone();
    if let Value::Object(members) = &mut document {
        members.shift_remove("x-test");
    }
    document.to_string().len()
}

/// For each rule and place, the size of the smallest fixture that reports
/// that rule and nothing else under any revision, every finding under one
/// parent: a witness of that rule there, which a disagreement on that rule
/// alone, one shape under the same parent, can be shrunk to. (A fixture
/// with other rules' findings beside it is no bound: the shrinker may not
/// drop what would add a disagreement, such as a step's `response` that
/// the interaction rules require. Nor is one of the same rule elsewhere:
/// shrinking keeps the kind of object a finding sits on, so an unknown
/// member of a Tool keeps the Tool's `inputSchema`, which an empty
/// collection of Resources does not need.)
fn smallest_fixture_per_rule() -> BTreeMap<(String, String), usize> {
    let set = SuiteSet::load(SuiteTree::embedded());
    let mut smallest: BTreeMap<(String, String), usize> = BTreeMap::new();
    for entry in set.suites.iter().flat_map(|suite| &suite.entries) {
        let (Ok(document), Ok(expectation)) = (&entry.fixture.document, &entry.expectation) else {
            continue;
        };
        let places: BTreeSet<(&str, String)> = expectation
            .revisions
            .values()
            .flatten()
            .map(|finding| (finding.rule.as_str(), parent_shape(&finding.path)))
            .collect();
        if let [(rule, parent)] = &places.into_iter().collect::<Vec<_>>()[..] {
            let slot = smallest
                .entry(((*rule).to_owned(), parent.clone()))
                .or_insert(usize::MAX);
            *slot = (*slot).min(size(&document.value));
        }
    }
    smallest
}

/// The shape of the member that holds the place `pointer` names.
fn parent_shape(pointer: &str) -> String {
    let shape = pointer_shape(pointer);
    shape
        .rsplit_once('/')
        .map_or(String::new(), |(parent, _)| parent.to_owned())
}

#[test]
fn against_the_python_example_every_rule_it_leaves_out_disagrees_on_a_small_document() {
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &python_example(),
        "--seed",
        "1",
        "--cases",
        "2000",
        // Every distinct disagreement kept: one group per set of differing
        // findings makes about a thousand, and a rule may show only in
        // groups past the default cap.
        "--max-shrunk",
        "5000",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    // The rules it does not claim, from what it says in `start`.
    let pool = Pool::start(ExternalValidator::new(
        vec!["python3".into(), script()],
        Mode::Session,
        mcpdesc_conformance::suite::builtin_revisions(),
    ))
    .unwrap();
    let claimed: BTreeSet<String> = pool
        .implementation()
        .rules
        .clone()
        .unwrap()
        .into_iter()
        .collect();
    let set = SuiteSet::load(SuiteTree::embedded());
    // Differential testing generates documents, not texts: the rules of a
    // suite of serialization cases (`input: source`) cannot disagree.
    let of_texts: BTreeSet<&str> = set
        .suites
        .iter()
        .filter(|suite| suite.catalog.input == Input::Source)
        .flat_map(|suite| suite.catalog.rules.iter().map(|rule| rule.id.as_str()))
        .collect();
    assert!(!of_texts.is_empty());
    let left_out: BTreeSet<String> = set
        .rules
        .iter()
        .map(|rule| rule.id.clone())
        .filter(|id| !claimed.contains(id) && !of_texts.contains(id.as_str()))
        .collect();
    // The example checks four rules and leaves out all the others.
    assert_eq!(claimed.len(), 4, "{claimed:?}");
    assert_eq!(
        left_out.len(),
        set.rules.iter().count() - 4 - of_texts.len(),
        "{left_out:?}"
    );

    let found = disagreements(out.path());
    let smallest = smallest_fixture_per_rule();
    let mut rules_found = BTreeSet::new();
    let mut bounded = BTreeSet::new();
    for (folder, record) in &found {
        let rules: Vec<&str> = record["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|rule| rule.as_str().unwrap())
            .collect();
        rules_found.extend(rules.iter().map(|rule| (*rule).to_owned()));
        // The summary numbers each disagreement as its folder is, with its
        // rules.
        let number = folder.split('-').next().unwrap().trim_start_matches('0');
        // The summary names five rules and counts the rest.
        let mut named: Vec<String> = rules
            .iter()
            .take(5)
            .map(|rule| (*rule).to_owned())
            .collect();
        if rules.len() > 5 {
            named.push(format!("{} more rules", rules.len() - 5));
        }
        assert_contains(&stdout, &[&format!("\n#{number} {} (", named.join(", "))]);
        // A disagreement on one finding shape of one rule the example
        // leaves out is no bigger than the smallest fixture of that rule
        // alone, skeleton and all. (A group is a set of shapes: one whose set
        // holds several, such as a wrong identity member in each of the
        // four collections, needs each of them, and may be bigger.)
        let witness = record["shapes"]
            .as_array()
            .filter(|shapes| shapes.len() == 1)
            .and_then(|shapes| shapes[0]["path"].as_str())
            .zip(rules.first())
            .and_then(|(path, rule)| smallest.get(&((*rule).to_owned(), parent_shape(path))));
        if let ([rule], Some(&witness)) = (&rules[..], witness)
            && left_out.contains(*rule)
        {
            bounded.insert(*rule);
            let shrunk = size(&record["shrunk"]["document"]);
            // Shrinking drops members and shortens values but never
            // renames a member, so the name a mutation planted (say
            // `unknownMember`, where a fixture says `x`) may lengthen the
            // witness by that name.
            let planted = record["differences"][0]["path"]
                .as_str()
                .and_then(|path| path.rsplit('/').next())
                .map_or(0, str::len);
            assert!(
                shrunk <= witness + planted,
                "{folder}: shrunk to {shrunk} bytes, the smallest fixture of {rule} there has \
                 {witness} (and the planted name {planted})"
            );
        }
        // The shrunk document still shows exactly the disagreement it was
        // kept for: the same shapes, neither fewer nor more.
        let shapes: BTreeSet<String> = record["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        let shown: BTreeSet<String> = record["differences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|difference| {
                let mut difference = difference.clone();
                let path = difference["path"].as_str().map(pointer_shape);
                difference["path"] = path.into();
                difference.to_string()
            })
            .collect();
        assert_eq!(shown, shapes, "{folder}: {record}");
    }
    // A rule that can be broken only under revisions the example declines
    // (it skips the oldest) cannot disagree: no comparison is made there.
    let checked: Vec<Revision> = pool
        .implementation()
        .revisions
        .iter()
        .map(|revision| revision.parse().unwrap())
        .collect();
    let breakable: BTreeSet<String> = set
        .rules
        .iter()
        .filter(|rule| left_out.contains(&rule.id))
        .filter(|rule| {
            checked.iter().any(|revision| {
                rule.applicability.applies_to(*revision)
                    && !rule.cannot_fire_under.contains(revision)
            })
        })
        .map(|rule| rule.id.clone())
        .collect();
    assert!(breakable.len() + 2 > left_out.len(), "{breakable:?}");
    let missing: Vec<&String> = breakable.difference(&rules_found).collect();
    assert!(
        missing.is_empty(),
        "no disagreement on {missing:?}\n{stdout}"
    );
    // The size bound was checked for a good share of the rules the example
    // leaves out (16 of 34 when written; 29 of 88 once the witness had to
    // sit where the disagreement does; the others show only in groups of
    // shapes, or have no fixture that reports them alone there), not for a
    // handful that happened to have a witness fixture.
    assert!(
        bounded.len() * 4 > left_out.len(),
        "the size bound checked only {bounded:?} of {} rules left out",
        left_out.len()
    );
}

#[test]
fn the_reference_over_stdio_and_in_process_agree_on_20000_documents() {
    let validator = format!("{} --stdio", reference_binary().display());
    // Four requests in flight per process, as a user in a hurry runs it.
    let output = diff(&[
        "--validator",
        &validator,
        "--seed",
        "7",
        "--cases",
        "20000",
        "--pipeline",
        "4",
        "--max-consecutive-failures",
        "8",
    ]);
    let stdout = stdout_of_success(&output);
    assert_contains(
        &stdout,
        &[
            "20000 documents,",
            " 0 not compared, 0 distinct disagreements",
        ],
    );
}

#[test]
fn a_seed_makes_the_same_findings_and_another_seed_other_ones() {
    let run = |seed: &str| {
        let out = tempfile::tempdir().unwrap();
        let output = diff(&[
            "--validator",
            &python_example(),
            "--seed",
            seed,
            "--cases",
            "150",
            "--jobs",
            "3",
            "--out",
            out.path().to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
        disagreements(out.path())
    };
    let first = run("11");
    assert!(!first.is_empty());
    assert_eq!(first, run("11"));
    assert_ne!(first, run("12"));
}

#[test]
fn a_shrunk_document_becomes_a_fixture_that_blesses_and_passes() {
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &python_example(),
        "--cases",
        "100",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let (folder, record) = disagreements(out.path()).into_iter().next().unwrap();
    let destination = record["fixture"].as_str().unwrap();
    let name = destination.rsplit('/').next().unwrap();
    let tree = suite_copy();
    let target = tree.path().join(destination);
    fs::copy(out.path().join(&folder).join(name), &target).unwrap();
    let fixture: Value = serde_json::from_str(&fs::read_to_string(&target).unwrap()).unwrap();
    assert_contains(
        fixture["x-test"].as_str().unwrap(),
        &["Draft from mcpdesc-conformance diff (seed 1, document "],
    );

    let blessed = harness()
        .args(["bless", "--suite-dir"])
        .arg(tree.path())
        .output()
        .unwrap();
    assert_contains(&stdout_of_success(&blessed), &[name]);
    let id = destination.trim_start_matches("fixtures/");
    let listed = harness()
        .args(["list", "--suite-dir"])
        .arg(tree.path())
        .args(["--filter", id])
        .output()
        .unwrap();
    assert!(!stdout_of_success(&listed).is_empty());
    let run = harness()
        .args(["run", "--quiet", "--suite-dir"])
        .arg(tree.path())
        .output()
        .unwrap();
    stdout_of_success(&run);
    // Against the validator it was found with, the new case fails.
    let example = harness()
        .args(["run", "--quiet", "--suite-dir"])
        .arg(tree.path())
        .args(["--validator", &python_example(), "--filter", id])
        .output()
        .unwrap();
    assert_eq!(example.status.code(), Some(1), "{}", stdout_of(&example));
}

#[test]
fn time_bounds_the_run_and_a_missing_validator_exits_3() {
    let output = diff(&[
        "--validator",
        &python_example(),
        "--cases",
        "100000000",
        "--time",
        "1s",
    ]);
    assert_contains(
        &stdout_of(&output),
        &["stopped making documents when --time ran out"],
    );
    let output = diff(&["--validator", "/no/such/validator"]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    let output = diff(&[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_contains(&stderr_of(&output), &["--validator"]);
}

#[test]
fn a_validator_that_keeps_failing_stops_the_run_and_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("answers_start_then_exits.py");
    fs::write(
        &script,
        "import json, sys\n\
         sys.stdin.readline()\n\
         print(json.dumps({'protocol': 1, 'implementation': {'name': 'quitter', \
         'version': '1', 'revisions': ['2025-06-18', '2025-11-25']}}), flush=True)\n",
    )
    .unwrap();
    let validator = format!("python3 '{}'", script.display());
    let output = diff(&[
        "--validator",
        &validator,
        "--cases",
        "100000",
        "--jobs",
        "1",
    ]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(3),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert_contains(
        &stdout,
        &[
            "stopped after 10 failures in a row",
            "validator failures (",
            // Under the first revision that both check in document 0's
            // scope, which depends on the documents the seed draws.
            "  quitter 1 failed on document 0 under ",
            ": the validator exited (closed its output) before answering the request",
        ],
    );
}

/// The command line of `diffing_validator.py` with `arguments`.
fn diffing(arguments: &str) -> String {
    super::external_support::python("diffing_validator.py", arguments)
}

/// The number before ` distinct disagreements` in a summary.
fn distinct(stdout: &str) -> usize {
    let (before, _) = stdout
        .split_once(" distinct disagreements")
        .unwrap_or_else(|| panic!("no count of distinct disagreements in\n{stdout}"));
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

/// Rule IDs as long as the contract allows, and in other scripts than
/// ASCII, name folders of at most 255 bytes that still tell them apart;
/// each record keeps the rule as it is.
#[test]
fn long_and_multibyte_rule_ids_make_folders_of_bounded_names() {
    let long = "r".repeat(300);
    let accented = "règle.é€/".repeat(20);
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &diffing(&format!("--rule {long} --rule '{accented}'")),
        "--cases",
        "2",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    let found = disagreements(out.path());
    let mut rules = BTreeSet::new();
    for (folder, record) in &found {
        assert!(folder.len() <= 255 && folder.is_ascii(), "{folder}");
        for rule in record["rules"].as_array().unwrap() {
            rules.insert(rule.as_str().unwrap().to_owned());
        }
    }
    assert!(
        rules.contains(&long) && rules.contains(&accented),
        "{rules:?}"
    );
    assert_eq!(found.len(), distinct(&stdout), "{stdout}");
    assert_contains(&stdout, &[&long, &accented]);
}

/// The summary is printed before any file is written, and a folder that
/// cannot be made is an error of its own after it (exit status 2), not the
/// loss of the whole run. (`--out` is checked before the run; the test
/// puts a file in its place while the run shrinks.)
#[test]
fn the_summary_comes_before_the_files_and_survives_a_folder_that_cannot_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("shrinking");
    let out = dir.path().join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
        .arg("diff")
        .arg("--validator")
        .arg(diffing(&format!(
            "--rule x.always --slow-repeat 1 --mark '{}'",
            mark.display()
        )))
        .args(["--cases", "2", "--jobs", "1", "--out"])
        .arg(&out)
        .env_remove("CI")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !mark.exists() {
        assert!(started.elapsed() < Duration::from_secs(120), "no shrinking");
        std::thread::sleep(Duration::from_millis(10));
    }
    fs::write(&out, "not a folder\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert_contains(&stdout, &["distinct disagreements", "\n#1 ", "x.always"]);
    assert_contains(&stderr, &["error: cannot write ", "out"]);
    assert_eq!(fs::read_to_string(&out).unwrap(), "not a folder\n");
    // Refused at once when it is already so.
    let output = diff(&[
        "--validator",
        &diffing("--rule x.always"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_contains(&stderr_of(&output), &["not a folder"]);
    assert!(stdout_of(&output).is_empty());
}

/// Every file under `dir`, relative to it, with its contents.
fn tree_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let name = entry.path().strip_prefix(dir).unwrap();
            (name.display().to_string(), fs::read(entry.path()).unwrap())
        })
        .collect()
}

/// `--out` into the folder of an earlier `diff` is refused (exit 2, before
/// anything runs, the folder left as it is); with `--force`, the earlier
/// run's files are replaced and the folder holds only the new run's. A
/// folder with files `diff` did not write is refused with `--force` too,
/// and nothing in it is removed.
#[test]
fn an_out_folder_in_use_is_refused_and_force_replaces_only_the_earlier_run() {
    let out = tempfile::tempdir().unwrap();
    let run = |seed: &str, cases: &str, rule: &str, force: bool| {
        let mut args = vec![
            "--validator".to_owned(),
            diffing(&format!("--rule {rule}")),
            "--seed".to_owned(),
            seed.to_owned(),
            "--cases".to_owned(),
            cases.to_owned(),
            "--out".to_owned(),
            out.path().to_str().unwrap().to_owned(),
        ];
        if force {
            args.push("--force".to_owned());
        }
        diff(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let first = run("5", "12", "x.one", false);
    assert_eq!(first.status.code(), Some(1), "{}", stderr_of(&first));
    let before = tree_of(out.path());
    assert!(disagreements(out.path()).len() > 1);

    // Used, without --force: refused, nothing written nor removed.
    let refused = run("6", "1", "x.two", false);
    let stderr = stderr_of(&refused);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &["holds the disagreements of an earlier diff", "--force"],
    );
    assert!(stdout_of(&refused).is_empty());
    assert_eq!(tree_of(out.path()), before);

    // With --force: only the new run's files.
    let second = run("6", "1", "x.two", true);
    let stdout = stdout_of(&second);
    assert_eq!(second.status.code(), Some(1), "{}", stderr_of(&second));
    let found = disagreements(out.path());
    assert_eq!(found.len(), distinct(&stdout), "{stdout}");
    for (folder, record) in &found {
        assert_eq!(record["seed"], 6, "{folder}");
        assert!(
            !record["rules"]
                .as_array()
                .unwrap()
                .contains(&Value::from("x.one"))
        );
    }
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(out.path().join("mcpdesc-diff.json")).unwrap())
            .unwrap();
    let mut listed: Vec<String> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file.as_str().unwrap().to_owned())
        .collect();
    listed.push("mcpdesc-diff.json".to_owned());
    listed.sort();
    let files: Vec<String> = tree_of(out.path()).into_keys().collect();
    assert_eq!(files, listed);

    // A file of someone else's beside an earlier run's: refused, --force
    // or not, and neither it nor the run's files are removed.
    fs::write(out.path().join("notes.txt"), "mine\n").unwrap();
    let inside = found.keys().next().unwrap();
    fs::write(out.path().join(inside).join("review.md"), "keep\n").unwrap();
    let before = tree_of(out.path());
    for force in [false, true] {
        let output = run("7", "1", "x.three", force);
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_contains(&stderr, &["notes.txt", "review.md", "not written by diff"]);
        assert!(stdout_of(&output).is_empty());
        assert_eq!(tree_of(out.path()), before);
    }

    // --force into a new or empty folder is no different from without.
    let empty = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &diffing("--rule x.one"),
        "--cases",
        "1",
        "--force",
        "--out",
        empty.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert!(!disagreements(empty.path()).is_empty());
}

/// A signal while shrinking stops it: the run says it was interrupted,
/// exits with 128 + the signal's number, and a document shrunk partway is
/// not written as shrunk.
#[test]
fn an_interruption_while_shrinking_stops_it_and_marks_what_it_cut() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    use std::io::Read as _;
    use std::process::Stdio;
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("shrinking");
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
        .arg("diff")
        .arg("--validator")
        .arg(diffing(&format!(
            "--rule x.always --slow-repeat 200 --mark '{}'",
            mark.display()
        )))
        .args(["--cases", "3", "--jobs", "1", "--out"])
        .arg(&out)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let bound = Duration::from_secs(120);
    let started = Instant::now();
    while !mark.exists() {
        assert!(started.elapsed() < bound, "shrinking did not start");
        if child.try_wait().unwrap().is_some() {
            panic!("diff ended before shrinking");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap());
    kill(pid, Signal::SIGINT).unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            panic!("diff did not end after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}{stderr}");
    assert_contains(&stdout, &["interrupted by SIGINT"]);
    let found = disagreements(&out);
    assert!(!found.is_empty(), "{stdout}");
    let cut: Vec<&Value> = found
        .values()
        .filter(|record| record["shrinking"] != "complete")
        .collect();
    assert!(!cut.is_empty(), "{stdout}");
    for record in cut {
        assert_eq!(record["cut"], "interrupted", "{record}");
        assert!(
            record["shrinking"] == "partial" || record["shrinking"] == "none",
            "{record}"
        );
    }
    assert!(
        stdout.contains("not shrunk (interrupted)") || stdout.contains("shrunk partway"),
        "{stdout}"
    );
}

/// `--time` bounds shrinking as well as making documents: against a
/// validator that reports a new rule on every call (so no shrink ever
/// succeeds, and every document is disagreements of its own), `--time 2s`
/// ends well within the hang bound, shrinks at most `--max-shrunk` of them
/// and counts the rest.
#[test]
fn time_bounds_shrinking_and_the_disagreements_over_the_cap_are_counted() {
    let started = std::time::Instant::now();
    let output = diff(&[
        "--validator",
        &diffing("--new-rule"),
        "--cases",
        "100000000",
        "--time",
        "2s",
        "--max-shrunk",
        "20",
    ]);
    let elapsed = started.elapsed();
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert!(elapsed < Duration::from_secs(90), "{elapsed:?}\n{stdout}");
    assert_contains(
        &stdout,
        &[
            "stopped making documents when --time ran out",
            "more distinct disagreements not shrunk nor written (over --max-shrunk 20)",
        ],
    );
    let listed = stdout.lines().filter(|line| line.starts_with('#')).count();
    assert_eq!(listed, 20, "{stdout}");
}

/// Thirty documents whose every reply is 10,000 diagnostics, about 7.5 MB:
/// the harness keeps one example per disagreement, with its first findings
/// and counts of the rest, so its peak memory stays under 300 MB (it kept
/// every disagreeing reply, 1.5 GB).
#[test]
fn thirty_documents_with_big_replies_stay_under_300_mb() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let validator = diffing("--flood 7500000");
    let (peak_kib, output) = super::external_support::peak_memory(
        dir.path(),
        &[
            "diff",
            "--validator",
            &validator,
            "--cases",
            "30",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let stdout = stdout_of(&output);
    let report = format!("{stdout}\n{}", stderr_of(&output));
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_contains(&stdout, &["30 documents,", "x.flood-29"]);
    assert!(
        peak_kib < 300 * 1024,
        "peak memory {} MiB, over 300 MB\n{report}",
        peak_kib / 1024
    );
    // The record keeps the first findings and counts the rest.
    let record = disagreements(&out)
        .into_values()
        .find(|record| {
            record["rules"]
                .as_array()
                .unwrap()
                .contains(&Value::from("x.flood-0"))
        })
        .unwrap();
    assert_eq!(record["first"]["validator"].as_array().unwrap().len(), 100);
    assert_eq!(record["first"]["validator_more"], 9_900);
}

/// The rule the reference-but-one validator of these tests leaves out: it
/// is reported at one shape only, `/<primitive>/*/protocolVersions`,
/// under every collection of primitives.
const DROPPED: &str = "mcpdesc.primitive.protocol-scope";

/// `diffing_validator.py` as the reference validator that never reports
/// [`DROPPED`]: one cause of disagreement and no other.
fn reference_but_one() -> String {
    diffing(&format!(
        "--reference '{}' --drop {DROPPED}",
        reference_binary().display()
    ))
}

/// The number before `label` in a summary (`label` with its leading
/// space).
fn figure(stdout: &str, label: &str) -> u64 {
    let (before, _) = stdout
        .split_once(label)
        .unwrap_or_else(|| panic!("no `{label}` in\n{stdout}"));
    before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A validator that disagrees on one cause (it never reports one rule,
/// whichever primitive collection it is about) gives one group, with the
/// collections folded as the catalogs write them; the summary and the
/// manifest count documents, comparisons and disagreeing comparisons
/// apart, and the group counts every disagreeing comparison.
#[test]
fn one_cause_gives_one_group_and_the_summary_counts_documents_comparisons_and_disagreements() {
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &reference_but_one(),
        "--seed",
        "1",
        "--cases",
        "600",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert_eq!(distinct(&stdout), 1, "{stdout}");
    let found = disagreements(out.path());
    assert_eq!(found.len(), 1, "{stdout}");
    let record = found.values().next().unwrap();
    assert_eq!(record["rules"], serde_json::json!([DROPPED]));
    assert_eq!(
        record["shapes"],
        serde_json::json!([{
            "side": "against",
            "rule": DROPPED,
            "path": "/<primitive>/*/protocolVersions",
            "severity": "error",
        }])
    );

    let documents = figure(&stdout, " documents, ");
    let comparisons = figure(&stdout, " comparisons (");
    let disagreeing = figure(&stdout, " disagreeing comparisons");
    assert_eq!(documents, 600, "{stdout}");
    // Most documents are compared under several revisions.
    assert!(comparisons > documents, "{stdout}");
    assert!(disagreeing > 0 && disagreeing < comparisons, "{stdout}");
    assert_eq!(record["comparisons"], disagreeing, "{stdout}");
    assert_contains(
        &stdout,
        &[&format!(
            "\n#1 {DROPPED} ({disagreeing} comparisons): first in document "
        )],
    );
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(out.path().join("mcpdesc-diff.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["documents"], documents);
    assert_eq!(manifest["comparisons"], comparisons);
    assert_eq!(manifest["disagreeing_comparisons"], disagreeing);
}

/// The shrunk document of a one-cause disagreement, copied where the
/// README says and blessed on a copy of the repository's suite, has only
/// that disagreement's findings in its expectation, under the one revision
/// its root scope names (not legacy, not every revision); its `x-test` is
/// a draft of that behaviour. The reference passes it, the validator it
/// was found with fails it.
#[test]
fn a_one_cause_fixture_blessed_expects_only_the_disagreement() {
    let out = tempfile::tempdir().unwrap();
    let output = diff(&[
        "--validator",
        &reference_but_one(),
        "--cases",
        "300",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let found = disagreements(out.path());
    assert_eq!(found.len(), 1, "{}", stdout_of(&output));
    let (folder, record) = found.into_iter().next().unwrap();
    let destination = record["fixture"].as_str().unwrap();
    assert!(
        destination.starts_with("fixtures/document/expected-invalid/diff-1-"),
        "{destination}"
    );
    let name = destination.rsplit('/').next().unwrap();

    let tree = tempfile::tempdir().unwrap();
    for part in ["suites", "fixtures", "expected", "compiled"] {
        copy_part(part, tree.path());
    }
    // `cp disagreements/001-*/diff-1-*.json fixtures/document/expected-invalid/`
    let target = tree.path().join(destination);
    fs::copy(out.path().join(&folder).join(name), &target).unwrap();
    let fixture: Value = serde_json::from_str(&fs::read_to_string(&target).unwrap()).unwrap();
    let revision = record["shrunk"]["revision"].as_str().unwrap();
    assert_eq!(fixture["protocolVersions"], serde_json::json!([revision]));
    let set = SuiteSet::load(SuiteTree::embedded());
    let known = set.revisions.get(revision).unwrap();
    assert!(!set.revisions.is_legacy(known), "{fixture}");
    for member in ["mcpdesc", "info"] {
        assert!(fixture.get(member).is_some(), "{fixture}");
    }
    let x_test = fixture["x-test"].as_str().unwrap();
    assert_contains(
        x_test,
        &[
            &format!("Under {revision}, {DROPPED} (\"Scope a primitive to revisions"),
            " is reported at \"/",
            "/protocolVersions\"",
            "edit it",
        ],
    );

    let blessed = on_tree("bless", tree.path());
    assert_contains(&stdout_of_success(&blessed), &[name]);
    let expectation = tree
        .path()
        .join("expected/document/expected-invalid")
        .join(format!("{name}.yaml"));
    let text = fs::read_to_string(&expectation).unwrap();
    let expectation = mcpdesc_conformance::suite::expectation::Expectation::parse(
        &expectation.display().to_string(),
        text.as_bytes(),
    )
    .unwrap();
    let expected: Vec<(String, String)> = record["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|difference| {
            assert_eq!(difference["side"], "against", "{record}");
            (
                difference["rule"].as_str().unwrap().to_owned(),
                difference["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let blessed: BTreeMap<String, Vec<(String, String)>> = expectation
        .revisions
        .iter()
        .map(|(revision, findings)| {
            let findings = findings
                .iter()
                .map(|finding| (finding.rule.clone(), finding.path.clone()))
                .collect();
            (revision.to_string(), findings)
        })
        .collect();
    assert_eq!(
        blessed,
        BTreeMap::from([(revision.to_owned(), expected)]),
        "{text}"
    );

    let id = destination.trim_start_matches("fixtures/");
    let passes = harness()
        .args(["run", "--quiet", "--suite-dir"])
        .arg(tree.path())
        .args(["--filter", id])
        .output()
        .unwrap();
    stdout_of_success(&passes);
    let fails = harness()
        .args(["run", "--quiet", "--suite-dir"])
        .arg(tree.path())
        .args(["--validator", &reference_but_one(), "--filter", id])
        .output()
        .unwrap();
    assert_eq!(fails.status.code(), Some(1), "{}", stdout_of(&fails));
}
