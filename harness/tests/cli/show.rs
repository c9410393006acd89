//! `show CASE`: one case of the suite, and with `--validator` what that
//! validator reports about it.

use super::*;

fn show(args: &[&str]) -> std::process::Output {
    harness().arg("show").args(args).output().unwrap()
}

/// The output of `show` cut into one block per ID asked for: each starts
/// with its `fixture:` line (the fixture itself is printed with line
/// numbers, so no line of it starts so).
fn fixture_blocks(stdout: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in stdout.lines() {
        if line.starts_with("fixture:   ") || blocks.is_empty() {
            blocks.push(String::new());
        }
        let block = blocks.last_mut().unwrap();
        block.push_str(line);
        block.push('\n');
    }
    blocks
}

fn python_example() -> String {
    format!(
        "python3 {}",
        workspace()
            .join("examples/python-validator/validator.py")
            .display()
    )
}

/// Every case ID `list` prints, and every fixture ID in it, is shown, with
/// the expectation of each revision it names: every hand-written fixture,
/// and one in eight of the fixtures the matrices generate (hundreds of
/// documents whose IDs differ only in their file name, each shown by a
/// process of its own, which made this the longest test of the binary).
#[test]
fn show_works_for_every_case_and_fixture_that_list_prints() {
    let listed = stdout_of_success(&harness().arg("list").output().unwrap());
    let all: Vec<&str> = listed.lines().collect();
    assert!(all.len() > 100, "{listed}");
    let mut generated = 0;
    let mut last_generated = "";
    let cases: Vec<&str> = all
        .into_iter()
        .filter(|case| {
            let fixture = case.rsplit_once('@').unwrap().0;
            if !fixture.contains("/generated/") {
                return true;
            }
            if fixture != last_generated {
                last_generated = fixture;
                generated += 1;
            }
            generated % 8 == 1
        })
        .collect();
    assert!(generated > 100, "{listed}");
    let mut fixtures: Vec<(&str, Vec<&str>)> = Vec::new();
    for case in &cases {
        let (fixture, revision) = case.rsplit_once('@').unwrap();
        match fixtures.last_mut() {
            Some((last, revisions)) if *last == fixture => revisions.push(revision),
            _ => fixtures.push((fixture, vec![revision])),
        }
    }
    let mut asked: Vec<(String, &str, Vec<&str>)> = cases
        .iter()
        .map(|case| {
            let (fixture, revision) = case.rsplit_once('@').unwrap();
            ((*case).to_owned(), fixture, vec![revision])
        })
        .collect();
    asked.extend(
        fixtures
            .iter()
            .map(|(fixture, revisions)| ((*fixture).to_owned(), *fixture, revisions.clone())),
    );
    // Many IDs per `show`, so that the test costs a few processes rather
    // than one per case; two threads: the machine's cores, shared.
    let chunks: Vec<_> = asked.chunks(asked.len().div_ceil(8)).collect();
    let (left, right) = chunks.split_at(chunks.len() / 2);
    std::thread::scope(|scope| {
        for part in [left, right] {
            scope.spawn(move || {
                for chunk in part {
                    let ids: Vec<&str> = chunk.iter().map(|(id, _, _)| id.as_str()).collect();
                    let stdout = stdout_of_success(&show(&ids));
                    let blocks = fixture_blocks(&stdout);
                    assert_eq!(blocks.len(), chunk.len(), "{stdout}");
                    for ((id, fixture, revisions), block) in chunk.iter().zip(blocks) {
                        assert!(
                            block.starts_with(&format!("fixture:   {fixture}\n")),
                            "show {id}:\n{block}"
                        );
                        let shown: Vec<&str> = block
                            .lines()
                            .filter_map(|line| line.strip_prefix("expected under "))
                            .map(|rest| rest.split(':').next().unwrap())
                            .collect();
                        assert_eq!(&shown, revisions, "show {id}:\n{block}");
                    }
                }
            });
        }
    });
}

/// The whole output for one case: where the fixture is, its revisions and
/// `x-test`, its text numbered as written, and the expected findings with
/// the lines they name.
#[test]
fn show_prints_the_fixture_numbered_and_the_expectation() {
    let case = "document/expected-invalid/empty-info-name.yaml@2025-11-25";
    let output = show(&[case]);
    let stdout = stdout_of_success(&output);
    let text = fs::read_to_string(
        workspace().join("fixtures/document/expected-invalid/empty-info-name.yaml"),
    )
    .unwrap();
    let mut expected = String::from(
        "fixture:   document/expected-invalid/empty-info-name.yaml\n\
         file:      built in, as fixtures/document/expected-invalid/empty-info-name.yaml\n\
         revisions: 2025-11-25\n\
         x-test:    A YAML description whose info name is present but an empty string.\n\n",
    );
    let width = text.lines().count().to_string().len();
    for (index, line) in text.lines().enumerate() {
        expected.push_str(&format!("  {:>width$} | {line}\n", index + 1));
    }
    expected.push_str(
        "\nexpected under 2025-11-25: 1 finding\n    \
         error mcpdesc.document.shape \"/info/name\"  (line 4: name: \"\")\n",
    );
    assert_eq!(stdout, expected);
    assert_eq!(stderr_of(&output), "");
}

/// With `--validator`: what it reports and the diff; the status says
/// whether the case passes at `--level`.
#[test]
fn show_with_a_validator_prints_its_findings_and_the_diff() {
    let validator = python_example();
    let failing = "document/expected-invalid/empty-info-name.yaml@2025-11-25";
    let output = show(&[failing, "--validator", &validator]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert_contains(
        &stdout,
        &[
            "expected under 2025-11-25: 1 finding\n",
            "python-example 0.1.0 under 2025-11-25: FAILS at the exact level \
             (verdict: FAIL, rules: FAIL, exact: FAIL)\n  reports no finding\n",
            "  --- expected\n  +++ actual\n",
            "  -error mcpdesc.document.shape \"/info/name\"  (line 4: name: \"\")\n",
        ],
    );
    let passing = "document/expected-valid/minimal.json@2025-11-25";
    let output = show(&[passing, "--validator", &validator]);
    let stdout = stdout_of_success(&output);
    assert_contains(
        &stdout,
        &["python-example 0.1.0 under 2025-11-25: passes at the exact level"],
    );
    assert!(!stdout.contains("--- expected"), "{stdout}");
    // An adapter that breaks the contract at `start`: status 3, as `run`.
    let output = show(&[passing, "--validator", "python3 -c print(1)"]);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(3),
        "{stdout}{}",
        stderr_of(&output)
    );
}

#[test]
fn an_unknown_case_exits_2_naming_the_nearest() {
    for (asked, nearest) in [
        (
            "document/expected-valid/minimal.json@2024-11-05",
            "document/expected-valid/minimal.json@2025-11-25",
        ),
        (
            "document/expected-valid/minimall.json",
            "document/expected-valid/minimal.json",
        ),
    ] {
        let output = show(&[asked]);
        assert_eq!(output.status.code(), Some(2), "{}", stdout_of(&output));
        assert_eq!(stdout_of(&output), "");
        assert_contains(
            &stderr_of(&output),
            &[&format!(
                "error: no case `{asked}` in the suite; the nearest:\n  {nearest}\n"
            )],
        );
    }
}

/// A working tree's fixture is shown from its file, named by its path.
#[test]
fn show_takes_a_working_tree() {
    let dir = suite_copy();
    let file = dir
        .path()
        .join("fixtures/document/expected-valid/minimal.json");
    fs::write(
        &file,
        "{\n  \"x-test\": {\"made\": \"here\"},\n  \"mcpdesc\": \"0.9.0\"\n}\n",
    )
    .unwrap();
    let output = harness()
        .args(["show", "document/expected-valid/minimal.json"])
        .arg("--suite-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_contains(
        &stdout,
        &[
            &format!("file:      {}\n", file.display()),
            "x-test:    {\"made\":\"here\"}\n",
            "  2 |   \"x-test\": {\"made\": \"here\"},\n",
        ],
    );
}

/// The README's "First things to do" commands of the harness run as
/// written and succeed.
#[test]
fn the_first_things_to_do_run_as_written() {
    let block = readme_block("## First things to do", "sh");
    let commands: Vec<Vec<String>> = block
        .lines()
        .filter_map(|line| line.strip_prefix("mcpdesc-conformance "))
        .map(|line| {
            let line = line.split(" #").next().unwrap();
            line.split_whitespace()
                .map(|word| word.trim_matches('\'').to_owned())
                .collect()
        })
        .collect();
    assert!(commands.iter().any(|words| words[0] == "show"), "{block}");
    for words in commands {
        let output = harness()
            .args(&words)
            .current_dir(workspace())
            .output()
            .unwrap();
        stdout_of_success(&output);
    }
}

#[test]
fn several_ids_are_shown_in_order_and_an_unknown_one_shows_nothing() {
    let listed = stdout_of_success(&harness().arg("list").output().unwrap());
    let first = listed.lines().next().unwrap();
    let last = listed.lines().last().unwrap();
    let fixture = last.rsplit_once('@').unwrap().0;
    let output = show(&[last, first, fixture]);
    let stdout = stdout_of_success(&output);
    let blocks = fixture_blocks(&stdout);
    let heads: Vec<&str> = blocks.iter().map(|b| b.lines().next().unwrap()).collect();
    assert_eq!(
        heads,
        [
            format!("fixture:   {fixture}"),
            format!("fixture:   {}", first.rsplit_once('@').unwrap().0),
            format!("fixture:   {fixture}"),
        ],
        "{stdout}"
    );

    let output = show(&[
        first,
        "tools/expected-valid/no-such-fixture.json@2025-11-25",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert_eq!(
        stdout_of(&output),
        "",
        "nothing is shown before the unknown ID"
    );
    assert!(
        stderr_of(&output)
            .contains("no case `tools/expected-valid/no-such-fixture.json@2025-11-25`"),
        "{}",
        stderr_of(&output)
    );
}
