use super::*;

#[test]
fn lists_one_case_per_fixture_and_revision() {
    let output = harness().arg("list").output().unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(
        &stdout,
        &[
            "elicitation/expected-invalid/elicitation-version-mismatch.json@",
            "document/expected-valid/minimal.json@2025-11-25",
        ],
    );
    let lines = stdout.lines().count();
    assert_contains(&stderr_of(&output), &[&format!("{lines} cases")]);
}

#[test]
fn applies_the_same_filters_as_run() {
    let output = harness()
        .args([
            "list",
            "--suite",
            "document",
            "--revision",
            "2025-11-25",
            "--filter",
            "minimal",
        ])
        .output()
        .unwrap();
    assert_eq!(
        stdout_of(&output),
        "document/expected-valid/minimal.json@2025-11-25\n"
    );
}

/// A revision is any date on the command line, but the suite must list it.
#[test]
fn a_revision_outside_the_suite_is_refused_with_the_suite_s_list() {
    for command in ["list", "run"] {
        let output = harness()
            .args([command, "--revision", "2027-03-01"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert_contains(
            &stderr_of(&output),
            &["the suite has no MCP revision 2027-03-01 (its revisions are: 2024-11-05, "],
        );
    }
    let output = harness()
        .args(["list", "--revision", "2027-3-1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["`2027-3-1` is not an MCP protocol revision (expected a date written YYYY-MM-DD)"],
    );
}

/// `--partition hash:M/N` splits the cases into N shards that together
/// take every case exactly once, in the suite's order, and a case's shard
/// depends on its ID alone: a fixture added to the suite moves no other
/// case to another shard.
#[test]
fn shards_take_every_case_once_and_keep_their_cases_as_the_suite_grows() {
    let listed = |dir: &Path, extra: &[&str]| -> Vec<String> {
        let output = harness()
            .args(["list", "--suite-dir"])
            .arg(dir)
            .args(extra)
            .output()
            .unwrap();
        stdout_of_success(&output)
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let dir = suite_copy();
    let all = listed(dir.path(), &[]);
    let shards: Vec<Vec<String>> = (1..=3)
        .map(|shard| listed(dir.path(), &["--partition", &format!("hash:{shard}/3")]))
        .collect();
    let mut together: Vec<String> = shards.concat();
    assert_eq!(together.len(), all.len(), "every case exactly once");
    together.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(together, sorted);
    for shard in &shards {
        assert!(!shard.is_empty());
        let in_order: Vec<&String> = all.iter().filter(|id| shard.contains(id)).collect();
        assert_eq!(in_order, shard.iter().collect::<Vec<_>>(), "suite order");
    }
    // One more fixture: the old cases stay in their shards.
    fs::write(
        dir.path()
            .join("fixtures/document/expected-valid/zz-added.json"),
        fs::read(
            dir.path()
                .join("fixtures/document/expected-valid/minimal.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let blessed = harness()
        .args(["bless", "--filter", "*zz-added*", "--suite-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    stdout_of_success(&blessed);
    for (index, shard) in shards.iter().enumerate() {
        let grown = listed(
            dir.path(),
            &["--partition", &format!("hash:{}/3", index + 1)],
        );
        let kept: Vec<&String> = grown.iter().filter(|id| !id.contains("zz-added")).collect();
        assert_eq!(kept, shard.iter().collect::<Vec<_>>());
    }
}

#[test]
fn a_partition_that_is_not_hash_m_of_n_is_a_usage_error() {
    for wrong in ["hash:0/3", "hash:4/3", "3/3", "hash:a/3", "hash:1/0"] {
        let output = harness()
            .args(["list", "--partition", wrong])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{wrong}");
        assert_contains(
            &stderr_of(&output),
            &["is not a partition: give `hash:M/N`"],
        );
    }
}
