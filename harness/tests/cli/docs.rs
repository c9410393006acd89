//! `docs`: the rule pages, and `check` keeping the committed ones in step
//! with the catalogs.

use mcpdesc_conformance::pages::Pages;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::tree::SuiteTree;

use super::*;

/// A copy of the suite tree with its committed pages (`docs/rules/`).
pub(crate) fn suite_copy_with_pages() -> tempfile::TempDir {
    let dir = suite_copy();
    copy_folder(
        &workspace().join("docs/rules"),
        &dir.path().join("docs/rules"),
    );
    dir
}

/// Copies the folder `from` to `to`, recursively.
pub(crate) fn copy_folder(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs `docs --suite-dir DIR --out DIR/docs/rules`.
pub(crate) fn write_pages(dir: &Path) -> std::process::Output {
    harness()
        .args(["docs", "--suite-dir"])
        .arg(dir)
        .arg("--out")
        .arg(dir.join("docs/rules"))
        .output()
        .unwrap()
}

/// Every file below `dir`, by relative path, with its text.
fn files_below(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            (
                entry
                    .path()
                    .strip_prefix(dir)
                    .unwrap()
                    .display()
                    .to_string(),
                fs::read_to_string(entry.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// `docs --out DIR` on the built-in suite.
fn docs_into(dir: &Path) -> std::process::Output {
    harness().args(["docs", "--out"]).arg(dir).output().unwrap()
}

#[test]
fn writes_a_page_per_rule_an_index_per_suite_the_conventions_and_the_requirements() {
    let out = tempfile::tempdir().unwrap();
    let output = docs_into(out.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let set = SuiteSet::load(SuiteTree::embedded());
    let mut wanted = vec![
        "README.md".to_owned(),
        "conventions.md".to_owned(),
        "requirements.md".to_owned(),
    ];
    for suite in &set.suites {
        let name = &suite.catalog.suite;
        wanted.push(format!("{name}/README.md"));
        for rule in &suite.catalog.rules {
            wanted.push(format!("{name}/{}.md", rule.id));
            let index = fs::read_to_string(out.path().join(name).join("README.md")).unwrap();
            assert_contains(&index, &[&format!("[`{}`]({}.md)", rule.id, rule.id)]);
        }
    }
    wanted.sort();
    let written: Vec<String> = files_below(out.path())
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(written, wanted);
    assert_contains(
        &stderr_of(&output),
        &[&format!(
            "{} rule pages: {} written, 0 unchanged, 0 removed",
            wanted.len(),
            wanted.len()
        )],
    );

    // The same suite gives the same pages, byte for byte, and a second run
    // rewrites nothing.
    let first = files_below(out.path());
    let again = docs_into(out.path());
    assert_eq!(again.status.code(), Some(0));
    assert_contains(
        &stderr_of(&again),
        &[&format!("{} unchanged, 0 removed", wanted.len())],
    );
    assert_eq!(files_below(out.path()), first);
}

/// A seed rule's page has every part of the published page, with the
/// example JSON taken from the fixture at the selected pointer.
#[test]
fn a_rule_page_has_the_shape_of_the_published_pages() {
    let out = tempfile::tempdir().unwrap();
    let output = docs_into(out.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let page = fs::read_to_string(
        out.path()
            .join("elicitation/mcp.elicitation.protocol-version.md"),
    )
    .unwrap();
    assert!(
        page.starts_with("---\ntitle: \"Use elicitation only in revisions that define it\"\n"),
        "{page}"
    );
    let parts = [
        "\n## Requirement\n",
        "**Rule ID:** `mcp.elicitation.protocol-version`  \n**Owner:** mcp  \n**Surface:** ElicitRequest · **Path:** `mode`  \n**Kind:** structural  \n**Requirement level:** must  \n**Severity:** error  \n**Status:** internal · **Enforcement:** internal\n",
        "\n## Protocol version applicability\n\n| 2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 | 2026-07-28 |\n| --- | --- | --- | --- | --- |\n| applies | applies | applies | applies | applies |\n",
        // The seed page names Sections 9.4 and 12.5 of the 0.9.0 draft; the
        // suite has Section 12 of that draft and the rest from 0.8.0.
        "\n## Required by\n\n* **MCP Description 0.9.0, Section 12.5**\n  * 12\\. Elicitation Declarations: [req-elicitation-protocol-versions](../requirements.md#req-elicitation-protocol-versions) — ",
        "\n* **MCP Description 0.8.0, Sections 9.4, ",
        "\n## Based on\n\n* **Tier 1 — MCP schema.ts and normative specification text:** MCP 2025-03-26 schema.ts",
        "\n## Decisions\n",
        "(conventions: [finding-count](../conventions.md#finding-count), [interaction-step](../conventions.md#interaction-step))",
        "\n### Invalid example\n\nSource: [expected-invalid/elicitation-version-mismatch.json](../../../fixtures/elicitation/expected-invalid/elicitation-version-mismatch.json) · Selected: `/tools/0/elicitations/0`\n\n```json\n{\n  \"name\": \"authorize\",\n  \"mode\": \"url\",\n  \"message\": \"Authorize access.\",\n  \"url\": \"https://auth.example.com/authorize\"\n}\n```\n",
        "Selected: `/tools/0/interactionExamples/broken/steps/0/request`",
        "\n### Valid example\n",
        "\n## Rule Source Code\n\n[elicitation.yaml](../../../suites/elicitation.yaml)",
    ];
    let mut from = 0;
    for part in parts {
        let at = page[from..]
            .find(part)
            .unwrap_or_else(|| panic!("missing or out of order:\n{part}\nin\n{page}"));
        from += at + part.len();
    }
    // A revision-independent rule says so among its details, with no table.
    let independent = fs::read_to_string(
        out.path()
            .join("elicitation/mcpdesc.elicitation.form-schema.consistency.md"),
    )
    .unwrap();
    assert_contains(
        &independent,
        &["**Protocol versions:** independent of the MCP protocol version  \n"],
    );
    assert!(!independent.contains("## Protocol version applicability"));
}

/// `check --suite-dir` on the repository: the committed pages are exactly
/// what `docs` writes, so they cannot drift from the catalogs.
#[test]
fn the_committed_pages_are_up_to_date() {
    let output = on_tree("check", &workspace());
    let stdout = stdout_of_success(&output);
    let pages = Pages::generate(&SuiteSet::load(SuiteTree::embedded())).unwrap();
    assert_contains(
        &stdout,
        &[&format!(
            "rule pages: {} generated, 0 differ from ",
            pages.len()
        )],
    );
}

#[test]
fn check_fails_on_a_stale_page_until_docs_runs_again() {
    let dir = suite_copy_with_pages();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));

    let catalog = dir.path().join("suites/elicitation.yaml");
    let text = fs::read_to_string(&catalog).unwrap();
    let title = "title: State the elicitation mode explicitly";
    assert!(text.contains(title));
    fs::write(
        &catalog,
        text.replace(title, "title: Always state the mode | form or url"),
    )
    .unwrap();

    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stdout_of(&output));
    let problems = problem_lines(&output);
    let regenerate = format!(
        "regenerate the pages with `mcpdesc-conformance docs --suite-dir {0} --out {0}/docs/rules`",
        dir.path().display()
    );
    // The rule's page and its suite's index, and nothing else.
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert_contains(
        &problems.join("\n"),
        &[
            &format!(
                "{}: rule page stale: differs from what `docs` writes from the suite; {regenerate}",
                dir.path()
                    .join("docs/rules/elicitation/mcpdesc.elicitation.mode.md")
                    .display()
            ),
            &format!(
                "{}: rule page stale",
                dir.path()
                    .join("docs/rules/elicitation/README.md")
                    .display()
            ),
        ],
    );
    assert_contains(&stdout_of(&output), &["differ from ", "; 2 problems"]);

    let output = write_pages(dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(&stderr_of(&output), &["2 written"]);
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    // The pipe in the new title is escaped in the index's table.
    let index = fs::read_to_string(dir.path().join("docs/rules/elicitation/README.md")).unwrap();
    assert_contains(&index, &["| Always state the mode \\| form or url |"]);
}

#[test]
fn check_names_missing_and_extra_pages_and_docs_repairs_only_its_own() {
    let dir = suite_copy_with_pages();
    let pages = dir.path().join("docs/rules");
    let removed = pages.join("document/mcpdesc.document.shape.md");
    let page = fs::read_to_string(&removed).unwrap();
    fs::remove_file(&removed).unwrap();
    // A generated page of a rule that no longer exists, in a suite that no
    // longer exists, and a hand-written note beside the pages.
    fs::create_dir_all(pages.join("retired")).unwrap();
    fs::write(pages.join("retired/mcpdesc.retired.rule.md"), &page).unwrap();
    fs::write(
        pages.join("document/notes.md"),
        "# Notes\n\nWritten by hand.\n",
    )
    .unwrap();

    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    let problems = problem_lines(&output);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert_contains(
        &problems.join("\n"),
        &[
            &format!("{}: rule page missing", removed.display()),
            &format!(
                "{}: rule page extra: a generated page that `docs` no longer writes",
                pages.join("retired/mcpdesc.retired.rule.md").display()
            ),
        ],
    );

    let output = write_pages(dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(&stderr_of(&output), &["1 written", "1 removed"]);
    assert_eq!(fs::read_to_string(&removed).unwrap(), page);
    assert!(!pages.join("retired").exists());
    assert!(pages.join("document/notes.md").exists());
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}

#[test]
fn pages_are_not_checked_where_there_are_none() {
    let output = harness().arg("check").output().unwrap();
    assert_contains(
        &stdout_of(&output),
        &["rule pages: not checked: the built-in suite has no rule pages; give --suite-dir"],
    );
    let dir = suite_copy();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_contains(
        &stdout_of(&output),
        &[&format!(
            "rule pages: not checked: {} does not exist",
            dir.path().join("docs/rules").display()
        )],
    );
}

#[test]
fn docs_refuses_to_write_from_a_broken_suite() {
    let dir = suite_copy_with_pages();
    fs::write(dir.path().join("suites/elicitation.yaml"), "suite: [").unwrap();
    let before = files_below(&dir.path().join("docs/rules"));
    let output = write_pages(dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["refusing to write rule pages", "no file was changed"],
    );
    assert_eq!(files_below(&dir.path().join("docs/rules")), before);
    // `check` reports the catalog, not a flood of pages.
    let output = on_tree("check", dir.path());
    assert_contains(
        &stdout_of(&output),
        &["rule pages: not checked: the suite's problems (below) must be fixed first"],
    );
    assert!(
        problem_lines(&output)
            .iter()
            .all(|line| !line.contains("rule page")),
        "{}",
        stderr_of(&output)
    );
}

#[test]
fn a_decision_naming_an_undefined_convention_is_a_suite_problem() {
    let dir = suite_copy();
    let catalog = dir.path().join("suites/elicitation.yaml");
    let text = fs::read_to_string(&catalog).unwrap();
    let tag = "conventions: [reference-site]";
    assert!(text.contains(tag));
    fs::write(
        &catalog,
        text.replacen(tag, "conventions: [refrence-site]", 1),
    )
    .unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &problem_lines(&output).join("\n"),
        &["a decision names convention `refrence-site`, which no catalog defines"],
    );
}

/// A rule ID that cannot name a file (here with a `/` and a terminal
/// escape) stops `docs` with the reason, printed escaped, and `check`
/// reports it instead of comparing pages.
#[test]
fn a_rule_id_that_cannot_name_a_page_is_reported() {
    let dir = suite_copy_with_pages();
    let catalog = dir.path().join("suites/elicitation.yaml");
    let text = fs::read_to_string(&catalog).unwrap();
    let id = "id: mcpdesc.elicitation.mode\n";
    assert!(text.contains(id));
    fs::write(
        &catalog,
        text.replace(id, "id: \"mcpdesc.elicitation/mode\\e[31m\"\n"),
    )
    .unwrap();
    let before = files_below(&dir.path().join("docs/rules"));

    let output = write_pages(dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["rule `mcpdesc.elicitation/mode\\x1b[31m` cannot name a page file"],
    );
    assert!(!stderr_of(&output).contains('\x1b'));
    assert_eq!(files_below(&dir.path().join("docs/rules")), before);

    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    // The ID's line in the catalog, found rather than typed, so that
    // decisions added above it do not move the expectation.
    let line = text
        .lines()
        .position(|line| line.ends_with(id.trim_end()))
        .unwrap()
        + 1;
    assert_contains(
        &problem_lines(&output).join("\n"),
        &[&format!(
            "elicitation.yaml:{line}:9: rule `mcpdesc.elicitation/mode\\x1b[31m` cannot name a page file"
        )],
    );
}

/// A rule ID too long to name a file (the validator contract allows 300
/// characters) stops `docs` before it writes anything, and `check` names
/// the rule where the catalog gives it, as it does other suite problems.
#[test]
fn a_rule_id_too_long_for_a_file_name_is_refused_before_anything_is_written() {
    let dir = suite_copy_with_pages();
    let catalog = dir.path().join("suites/elicitation.yaml");
    let text = fs::read_to_string(&catalog).unwrap();
    let id = "  - id: mcpdesc.elicitation.mode\n";
    let line = text[..text.find(id).unwrap()].lines().count() + 1;
    let long = format!("mcpdesc.elicitation.{}", "m".repeat(280));
    fs::write(&catalog, text.replace(id, &format!("  - id: {long}\n"))).unwrap();
    let before = files_below(&dir.path().join("docs/rules"));

    let output = write_pages(dir.path());
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &[
            &format!("elicitation.yaml:{line}:9: rule `{long}` cannot name a page file"),
            "refusing to write rule pages",
        ],
    );
    assert_eq!(files_below(&dir.path().join("docs/rules")), before);

    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stdout_of(&output));
    let problems = problem_lines(&output);
    assert_contains(
        &problems.join("\n"),
        &[&format!(
            "elicitation.yaml:{line}:9: rule `{long}` cannot name a page file"
        )],
    );
    // The pages are not compared while the rule cannot have one.
    assert!(
        problems.iter().all(|line| !line.contains("rule page")),
        "{problems:#?}"
    );
}

/// A folder under `--out` that is a link to a folder elsewhere is refused:
/// nothing is written through it. The `--out` folder itself may be a link
/// (the user named it).
#[cfg(unix)]
#[test]
fn docs_refuses_a_link_under_its_out_folder() {
    let out = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("README.md"), "mine\n").unwrap();
    let before = files_below(outside.path());
    std::os::unix::fs::symlink(outside.path(), out.path().join("document")).unwrap();

    let output = docs_into(out.path());
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_contains(&stderr, &["symbolic link", "document"]);
    assert_eq!(files_below(outside.path()), before);
    // Nothing was written beside it either: all or nothing.
    assert_eq!(fs::read_dir(out.path()).unwrap().count(), 1);

    // A link to a file is refused too, and not replaced.
    let out = tempfile::tempdir().unwrap();
    let target = outside.path().join("README.md");
    std::os::unix::fs::symlink(&target, out.path().join("README.md")).unwrap();
    let output = docs_into(out.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert!(
        fs::symlink_metadata(out.path().join("README.md"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(files_below(outside.path()), before);

    // The --out folder itself may be a link.
    let real = tempfile::tempdir().unwrap();
    let holder = tempfile::tempdir().unwrap();
    let linked = holder.path().join("pages");
    std::os::unix::fs::symlink(real.path(), &linked).unwrap();
    let output = docs_into(&linked);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(real.path().join("README.md").is_file());
}
