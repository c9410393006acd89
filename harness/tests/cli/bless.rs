use super::*;

#[test]
fn restores_a_deleted_expectation_identically() {
    let dir = suite_copy();
    let path = dir.path().join(EDITED_EXPECTATION);
    let original = fs::read_to_string(&path).unwrap();
    fs::remove_file(&path).unwrap();
    let output = on_tree("bless", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(
        &stdout_of(&output),
        &[
            "--- /dev/null",
            "+++ b/expected/elicitation/expected-invalid/declaration-name-pattern.json.yaml",
        ],
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    let again = on_tree("bless", dir.path());
    assert_contains(&stderr_of(&again), &["0 expectation files changed"]);
}

#[test]
fn shows_the_diff_of_an_edit_and_dry_run_writes_nothing() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let edited = fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap();
    let output = harness()
        .args(["bless", "--dry-run", "--suite-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_contains(
        &stdout_of(&output),
        &[
            "-    - {severity: error, rule: \"mcpdesc.elicitation.name\", path: \"/tools/0/elicitations\"}",
            "+    - {severity: error, rule: \"mcpdesc.elicitation.name\", path: \"/tools/0/elicitations/0/name\"}",
        ],
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap(),
        edited
    );
}

#[test]
fn refuses_in_ci_and_writes_nothing() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let edited = fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap();
    let output = harness()
        .env("CI", "true")
        .arg("bless")
        .arg("--suite-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["refusing to bless expectations in CI"],
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap(),
        edited
    );
}

#[test]
fn removes_orphan_expectations() {
    let dir = suite_copy();
    let orphan = dir
        .path()
        .join("expected/document/expected-valid/gone.json.yaml");
    fs::write(
        &orphan,
        "fixture: document/expected-valid/gone.json\nrevisions: {}\n",
    )
    .unwrap();
    let output = on_tree("run", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["gone.json.yaml: expectation file has no fixture"],
    );
    let output = on_tree("bless", dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert!(!orphan.exists());
}

/// Every file under `expected/`, with its text, to show that nothing changed.
fn expectations(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    walkdir::WalkDir::new(root.join("expected"))
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| (entry.path().to_path_buf(), fs::read(entry.path()).unwrap()))
        .collect()
}

/// A way to break a suite: what it is, what it does to a tree, and what
/// the refusal must show.
type Breakage = (&'static str, fn(&Path), &'static str);

#[test]
fn refuses_a_suite_with_load_problems_and_changes_no_file() {
    let breakages: [Breakage; 4] = [
        (
            "a catalog that does not parse",
            |root| {
                let path = root.join("suites/elicitation.yaml");
                let text = fs::read_to_string(&path).unwrap();
                fs::write(&path, format!("{text}\n: [unclosed\n")).unwrap();
            },
            "suites/elicitation.yaml:",
        ),
        (
            "a catalog naming another suite",
            |root| {
                let path = root.join("suites/elicitation.yaml");
                let text = fs::read_to_string(&path).unwrap();
                assert!(text.contains("suite: elicitation\n"), "{text}");
                fs::write(
                    &path,
                    text.replacen("suite: elicitation\n", "suite: elicitations\n", 1),
                )
                .unwrap();
            },
            "catalog names suite `elicitations` but its file is `elicitation.yaml`",
        ),
        (
            "a fixture that does not load",
            |root| {
                fs::write(
                    root.join("fixtures/document/expected-valid/minimal.json"),
                    "{\"x-test\": ",
                )
                .unwrap();
            },
            "minimal.json:",
        ),
        (
            "a stray file",
            |root| {
                fs::write(root.join("fixtures/document/expected-valid/notes.txt"), "").unwrap();
            },
            "notes.txt",
        ),
    ];
    for (what, breakage, shown) in breakages {
        let dir = suite_copy();
        // Something bless would otherwise change, to show it is not done.
        fs::remove_file(dir.path().join(EDITED_EXPECTATION)).unwrap();
        breakage(dir.path());
        let before = expectations(dir.path());
        for dry_run in [true, false] {
            let mut command = harness().arg("bless").arg("--suite-dir").arg(dir.path());
            if dry_run {
                command = command.arg("--dry-run");
            }
            let output = command.output().unwrap();
            let stderr = stderr_of(&output);
            assert_eq!(output.status.code(), Some(2), "{what}\n{stderr}");
            assert_contains(
                &stderr,
                &[
                    "suite error: ",
                    shown,
                    "refusing to bless",
                    "no file was changed",
                ],
            );
            assert_eq!(stdout_of(&output), "", "{what}: no diff is shown");
            assert!(before == expectations(dir.path()), "{what}: a file changed");
        }
    }
}

#[test]
fn stale_temporary_files_are_no_expectations_and_bless_removes_them() {
    let dir = suite_copy();
    let folder = dir.path().join("expected/elicitation/expected-invalid");
    // What an interrupted bless leaves: the old name (beside the very file
    // bless is about to rewrite) and the unique name it uses now.
    let legacy = dir.path().join(format!("{EDITED_EXPECTATION}.tmp"));
    let unique = folder.join(".declaration-name-pattern.json.yaml.AbC123.tmp");
    fs::write(&legacy, "fixture: half writ").unwrap();
    fs::write(&unique, "").unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let original = fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap();
    edit_one_pointer(dir.path());
    let output = on_tree("bless", dir.path());
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_contains(
        &stderr,
        &[
            "removed 2 temporary file(s) left by an interrupted bless",
            "1 expectation files changed",
        ],
    );
    assert!(!legacy.exists() && !unique.exists());
    assert_eq!(
        fs::read_to_string(dir.path().join(EDITED_EXPECTATION)).unwrap(),
        original
    );
    let leftovers: Vec<_> = fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert_eq!(leftovers, Vec::<String>::new());
}

#[test]
fn two_blesses_at_once_both_finish_with_the_blessed_tree() {
    let dir = suite_copy();
    let originals = expectations(dir.path());
    let bless = || {
        std::process::Command::new(cargo_bin!("mcpdesc-conformance"))
            .env_remove("CI")
            .arg("bless")
            .arg("--suite-dir")
            .arg(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    // Every file to write, and a few rounds, so that the two runs overlap
    // even when one of them starts late.
    for _ in 0..3 {
        for (path, _) in &originals {
            fs::remove_file(path).unwrap();
        }
        let (first, second) = (bless(), bless());
        // Each child's stderr is drained while the other runs: waiting on
        // one before reading the other would leave the other blocked on a
        // full pipe while it holds the tree's lock, and the first waiting
        // for that lock (bless's note can name a thousand fixtures).
        let waiting: Vec<_> = [first, second]
            .into_iter()
            .map(|child| std::thread::spawn(move || child.wait_with_output().unwrap()))
            .collect();
        for waiter in waiting {
            let output = waiter.join().unwrap();
            assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        }
        assert!(
            expectations(dir.path()) == originals,
            "the tree is not the blessed one"
        );
    }
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}

/// An expectation naming a rule outside every catalog is a suite problem
/// that `run` refuses to judge, and one that `bless` is there to fix: it
/// rewrites the file from the reference validator.
#[test]
fn an_expectation_naming_an_unknown_rule_is_refused_by_run_and_fixed_by_bless() {
    let dir = suite_copy();
    let path = dir.path().join(EDITED_EXPECTATION);
    let original = fs::read_to_string(&path).unwrap();
    let broken = original.replace("mcpdesc.elicitation.name", "mcpdesc.elicitation.nope");
    assert_ne!(broken, original);
    fs::write(&path, &broken).unwrap();
    let run = on_tree("run", dir.path());
    assert_eq!(run.status.code(), Some(2), "{}", stderr_of(&run));
    assert_contains(
        &stderr_of(&run),
        &["the rule is in no catalog", "no case was judged"],
    );
    let bless = on_tree("bless", dir.path());
    assert_eq!(bless.status.code(), Some(0), "{}", stderr_of(&bless));
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    assert_eq!(on_tree("check", dir.path()).status.code(), Some(0));
}

/// `bless --validator CMD` computes the expectations with an external
/// validator: the reference validator over the stdio contract writes what
/// the built-in one writes, and one that cannot start changes nothing.
#[test]
fn blesses_from_an_external_validator() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let expectation = dir.path().join(EDITED_EXPECTATION);
    let edited = fs::read_to_string(&expectation).unwrap();

    let output = harness()
        .args([
            "bless",
            "--validator",
            "/no/such/validator --stdio",
            "--suite-dir",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    assert_eq!(fs::read_to_string(&expectation).unwrap(), edited);

    let validator = format!("{} --stdio", super::modes::reference_binary().display());
    let output = harness()
        .args(["bless", "--validator", &validator, "--suite-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(&stderr_of(&output), &["1 expectation files changed"]);
    let original = fs::read_to_string(workspace().join(EDITED_EXPECTATION)).unwrap();
    assert_eq!(fs::read_to_string(&expectation).unwrap(), original);
}

/// A changed expectation that the suite's newest version does not list is
/// named in a reminder; once the changelog lists it, bless says nothing.
#[test]
fn reminds_of_the_changelog_when_an_expectation_changes_unlisted() {
    let dir = suite_copy();
    edit_one_pointer(dir.path());
    let fixture = "elicitation/expected-invalid/declaration-name-pattern.json";
    let dry_run = |dir: &Path| {
        harness()
            .args(["bless", "--dry-run", "--suite-dir"])
            .arg(dir)
            .output()
            .unwrap()
    };
    let output = dry_run(dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(
        &stderr_of(&output),
        &[
            &format!(
                "note: the expectations of 1 fixture(s) changed, and suites/changelog.yaml (the suite's newest version, {}) does not list them",
                suite_version_and_rules().0
            ),
            &format!("`{fixture}`"),
        ],
    );
    let changelog = dir.path().join("suites/changelog.yaml");
    let text = fs::read_to_string(&changelog).unwrap();
    // Listed in the newest version, the first in the file.
    let listed = text.replacen("  added:\n", &format!("  added:\n    - \"{fixture}\"\n"), 1);
    assert_ne!(listed, text);
    fs::write(&changelog, listed).unwrap();
    let output = dry_run(dir.path());
    assert!(
        !stderr_of(&output).contains("note:"),
        "{}",
        stderr_of(&output)
    );
}

/// A suite without a valid changelog has no version: a suite problem that
/// says what the file must hold.
#[test]
fn a_suite_without_a_version_is_a_suite_problem() {
    let dir = suite_copy();
    let changelog = dir.path().join("suites/changelog.yaml");
    fs::write(
        &changelog,
        "- version: 1.0\n  date: 2026-12-02\n  summary: s\n",
    )
    .unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &[
            "suites/changelog.yaml: `1.0` is not a semantic version (MAJOR.MINOR.PATCH, each a number)",
        ],
    );
    fs::remove_file(&changelog).unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["suites/changelog.yaml: the suite has no version: this file is missing"],
    );
}

/// `bless --validator` handles SIGINT, SIGTERM and SIGHUP as `run` does:
/// the validator's process group is killed (its grandchild too), no file
/// is written (not even the expectations computed before the signal), and
/// the exit status is 128 + the signal's number.
#[test]
fn an_interrupted_bless_kills_the_validator_and_writes_nothing() {
    use std::io::Read as _;
    use std::process::Stdio;
    use std::time::Duration;

    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    use super::external_support::{MiniSuite, left_behind, marker};
    use super::signals::{wait_at_most, wait_until};

    let suite = MiniSuite::new();
    // Its first fixture's expectation, which the validator answers before
    // it hangs, is one that bless would rewrite.
    let edited = suite
        .dir
        .path()
        .join("expected/document/expected-invalid/unknown-protocol-version.json.yaml");
    let text = fs::read_to_string(&edited).unwrap() + "# edited by hand\n";
    fs::write(&edited, &text).unwrap();
    let before = expectations(suite.dir.path());
    let marker = marker();
    let log = suite.dir.path().join("validator.log");
    let validator = suite.validator(
        &marker,
        &format!("--grandchild --log '{}' hang 3", log.display()),
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mcpdesc-conformance"))
        .args(["bless", "--validator", &validator, "--suite-dir"])
        .arg(suite.dir.path())
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once it hangs, the first fixture's expectation has been computed.
    wait_until("the validator hanging", Duration::from_secs(60), || {
        fs::read_to_string(&log).is_ok_and(|log| log.contains("hanging"))
    });
    kill(
        Pid::from_raw(i32::try_from(child.id()).unwrap()),
        Signal::SIGTERM,
    )
    .unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(60));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let left = left_behind(&marker);
    assert!(
        left.is_empty(),
        "left behind: {left:?}\n{status:?}\n{stderr}"
    );
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert_contains(&stderr, &["interrupted by SIGTERM", "no file was changed"]);
    assert_eq!(expectations(suite.dir.path()), before, "{stderr}");
}
