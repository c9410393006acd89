//! The requirements inventory (`suites/requirements.yaml`): what `check`
//! prints of it, what it refuses, and the "Required by" of rule pages.

use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::requirements::{Kind, Requirement};
use mcpdesc_conformance::suite::tree::SuiteTree;

use super::*;

fn built_in() -> SuiteSet {
    SuiteSet::load(SuiteTree::embedded())
}

/// The numbers of a line of the section table, after its label.
fn numbers_of(line: &str) -> Vec<usize> {
    line.split_whitespace()
        .rev()
        .take(6)
        .filter_map(|word| word.parse().ok())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

/// Counted here from the requirements themselves, apart from the
/// harness's own tally: every requirement, the checkable ones, and those
/// with rules and no pending reason.
fn tally<'a>(requirements: impl Iterator<Item = &'a Requirement>) -> [usize; 3] {
    let mut counts = [0; 3];
    for requirement in requirements {
        counts[0] += 1;
        if matches!(requirement.kind, Kind::Document | Kind::Serialization) {
            counts[1] += 1;
            if (!requirement.rules.is_empty() || !requirement.accepted_by.is_empty())
                && requirement.pending.is_none()
            {
                counts[2] += 1;
            }
        }
    }
    counts
}

#[test]
fn check_prints_the_coverage_of_every_section_and_the_totals() {
    let set = built_in();
    let output = harness().arg("check").output().unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|line| !line.starts_with("requirements by section"))
        .take_while(|line| !line.is_empty())
        .collect();
    assert!(!table.is_empty(), "no section table:\n{stdout}");
    assert_eq!(
        table.len(),
        set.requirements.sections.len() + 2,
        "a header, a row per section and the totals:\n{stdout}"
    );
    for section in &set.requirements.sections {
        let row = table
            .iter()
            .find(|row| {
                row.trim_start()
                    .starts_with(&format!("{} {}", section.number, section.title))
            })
            .unwrap_or_else(|| panic!("no row for section {}:\n{stdout}", section.number));
        let numbers = numbers_of(row);
        let expected = tally(set.requirements.requirements.iter().filter(|requirement| {
            requirement.section == section.number
                || requirement
                    .section
                    .starts_with(&format!("{}.", section.number))
        }));
        assert_eq!(numbers[..3], expected, "{row}");
    }
    let all = tally(set.requirements.requirements.iter());
    let totals = table.last().unwrap();
    assert!(totals.starts_with("all sections"), "{totals}");
    assert_eq!(numbers_of(totals)[..3], all, "{totals}");
    assert_contains(
        &stdout,
        &[&format!(
            "{} requirements, {} checkable on a document: {} covered",
            all[0], all[1], all[2]
        )],
    );
    // The whole specification is inventoried, and Section 12 is covered.
    assert!(all[0] > 300, "{totals}");
    let elicitation = table
        .iter()
        .find(|row| row.trim_start().starts_with("12 Elicitation Declarations"))
        .unwrap();
    let numbers = numbers_of(elicitation);
    assert_eq!(
        numbers[1], numbers[2],
        "Section 12 is not wholly covered: {elicitation}"
    );
}

#[test]
fn check_lists_every_requirement_with_its_state_when_asked() {
    let set = built_in();
    let output = harness()
        .args(["check", "--requirements"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    for requirement in &set.requirements.requirements {
        let line = stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(requirement.id.as_str()))
            .unwrap_or_else(|| panic!("{} is not listed:\n{stdout}", requirement.id));
        let state = requirement.state().to_string();
        assert!(
            line.contains(&format!(" {state} ")) || line.ends_with(&state),
            "{line}"
        );
        for rule in &requirement.rules {
            assert!(line.contains(rule.as_str()), "{line}");
        }
        if let Some(reason) = &requirement.pending {
            assert!(line.contains(reason.trim()), "{line}");
        }
    }
    let consistency = stdout
        .lines()
        .find(|line| line.starts_with("req-elicitation-form-ranges "))
        .unwrap();
    assert_contains(
        consistency,
        &[
            "12.3",
            "document",
            "covered",
            "mcpdesc.elicitation.form-schema.consistency",
        ],
    );
    // Without the flag, no requirement line.
    let plain = stdout_of(&harness().arg("check").output().unwrap());
    assert!(!plain.contains("req-elicitation-form-ranges"), "{plain}");
}

/// Each way an inventory can be wrong is one problem, at its place in the
/// file (or, for a rule that no requirement names, at the rule).
#[test]
fn check_refuses_an_inventory_that_leaves_something_unsaid() {
    let dir = suite_copy();
    let path = dir.path().join("suites/requirements.yaml");
    let text = fs::read_to_string(&path).unwrap();
    // Every requirement that names name-unique names name instead: then no
    // requirement names name-unique.
    let renamed = text.replace(
        "mcpdesc.elicitation.name-unique",
        "mcpdesc.elicitation.name",
    );
    assert_ne!(
        renamed, text,
        "no requirement names the rule any more: update this test"
    );
    let added = [
        "  - id: req-test-unsaid",
        "    section: \"3.2\"",
        "    keywords: [MUST]",
        "    statement: Something a finding could show.",
        "    kind: document",
        "  - id: req-test-unknown-rule",
        "    section: \"3.2\"",
        "    keywords: [MUST]",
        "    statement: Something else.",
        "    kind: document",
        "    rules: [mcpdesc.no-such-rule]",
        "  - id: req-test-runtime",
        "    section: \"99.1\"",
        "    keywords: [SHOULD]",
        "    statement: A server behaves.",
        "    kind: runtime",
        "    pending: later",
        "  - id: req-test-accepted",
        "    section: \"3.2\"",
        "    keywords: [MUST]",
        "    statement: Validators accept it.",
        "    kind: document",
        "    accepted-by: [document/expected-invalid/missing-info.json]",
        "  - id: req-test-unsaid",
        "    section: \"3.2\"",
        "    keywords: []",
        "    statement: Twice.",
        "    kind: document",
        "    pending: \"\"",
    ];
    let appended = format!("{renamed}{}\n", added.join("\n"));
    fs::write(&path, &appended).unwrap();
    let line_of = |id_occurrence: &str, nth: usize| {
        appended
            .lines()
            .enumerate()
            .filter(|(_, line)| line.contains(id_occurrence))
            .nth(nth)
            .map(|(index, _)| index + 1)
            .unwrap()
    };
    let output = on_tree("check", dir.path());
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let file = path.display().to_string();
    assert_contains(
        &stderr,
        &[
            &format!(
                "{file}:{}:5: `req-test-unsaid` is checkable on a document (document) but names \
                 no rule, no accepting fixture and no pending reason",
                line_of("id: req-test-unsaid", 0)
            ),
            &format!(
                "{file}:{}:13: `req-test-unknown-rule` names rule `mcpdesc.no-such-rule`, which \
                 is in no catalog",
                line_of("rules: [mcpdesc.no-such-rule]", 0)
            ),
            "`req-test-runtime`: section 99.1 is not under any listed section",
            "`req-test-runtime` constrains a runtime behaviour, which no finding on a document can show",
            "`req-test-accepted` is accepted by `document/expected-invalid/missing-info.json`, \
             which is an expected-invalid fixture",
            &format!(
                "{file}:{}:9: `req-test-unsaid` is listed twice",
                line_of("id: req-test-unsaid", 1)
            ),
            "`req-test-unsaid` names no requirement keyword",
            "`req-test-unsaid` is pending without a reason",
            "rule `mcpdesc.elicitation.name-unique` is named by no requirement of \
             suites/requirements.yaml",
        ],
    );
    let catalog = dir.path().join("suites/elicitation.yaml");
    let catalog_text = fs::read_to_string(&catalog).unwrap();
    let rule_line = catalog_text
        .lines()
        .position(|line| line == "  - id: mcpdesc.elicitation.name-unique")
        .unwrap()
        + 1;
    assert_contains(
        &stderr,
        &[&format!(
            "{}:{rule_line}:9: rule `mcpdesc.elicitation.name-unique`",
            catalog.display()
        )],
    );
}

#[test]
fn a_suite_without_an_inventory_says_what_is_missing() {
    let dir = suite_copy();
    fs::remove_file(dir.path().join("suites/requirements.yaml")).unwrap();
    let output = on_tree("check", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_contains(
        &stderr_of(&output),
        &["requirements.yaml: the suite has no requirements inventory: this file is missing"],
    );
}

/// A rule page's "Required by" lists each requirement that names the rule,
/// under the sections they are stated in, linked to the requirements page;
/// that page has a row, with an anchor, for every requirement.
#[test]
fn rule_pages_are_required_by_the_inventory_and_the_requirements_page_lists_it() {
    let set = built_in();
    let out = tempfile::tempdir().unwrap();
    let output = harness()
        .args(["docs", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let page = fs::read_to_string(
        out.path()
            .join("elicitation/mcpdesc.elicitation.form-schema.consistency.md"),
    )
    .unwrap();
    assert_contains(
        &page,
        &[
            "\n## Required by\n\n* **MCP Description 0.9.0, Section 12.3**\n  * 12\\. Elicitation Declarations: [req-elicitation-form-required]",
            "  * 12\\. Elicitation Declarations: [req-elicitation-form-required](../requirements.md#req-elicitation-form-required) — ",
            "  * 12\\. Elicitation Declarations: [req-elicitation-form-enum-names](../requirements.md#req-elicitation-form-enum-names) — ",
            "  * 12\\. Elicitation Declarations: [req-elicitation-form-defaults](../requirements.md#req-elicitation-form-defaults) — ",
            "  * 12\\. Elicitation Declarations: [req-elicitation-form-ranges](../requirements.md#req-elicitation-form-ranges) — ",
        ],
    );
    let requirements = fs::read_to_string(out.path().join("requirements.md")).unwrap();
    for requirement in &set.requirements.requirements {
        assert!(
            requirements.contains(&format!(
                "<a id=\"{}\"></a>`{}`",
                requirement.id, requirement.id
            )),
            "{} has no row",
            requirement.id
        );
    }
    let index = fs::read_to_string(out.path().join("README.md")).unwrap();
    let [all, checkable, covered] = tally(set.requirements.requirements.iter());
    assert_contains(
        &index,
        &[&format!(
            "{all} requirements, {checkable} of them checkable on a document: {covered} covered by rules"
        )],
    );
}

/// `1412` as the README writes it: `1,412`.
fn thousands(number: usize) -> String {
    let digits = number.to_string();
    let mut text = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The README's description of the suite is the suite's: its version,
/// rules, fixtures, cases and generated fixtures, and the inventory's
/// figures, computed here from the data.
#[test]
fn the_readme_states_the_suites_size_and_coverage_as_the_data_gives_them() {
    use mcpdesc_conformance::suite::case::Selection;

    let set = built_in();
    let readme = fs::read_to_string(workspace().join("README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let fixtures: usize = set.suites.iter().map(|suite| suite.entries.len()).sum();
    let generated = set
        .suites
        .iter()
        .flat_map(|suite| &suite.entries)
        .filter(|entry| entry.fixture.name.contains("/generated/"))
        .count();
    let cases = Selection::default().cases(&set).len();
    let [all, checkable, covered] = tally(set.requirements.requirements.iter());
    let total = set.requirements.coverage().total;
    let expected = format!(
        "The suite (version {}) holds {} rules, {} fixtures and {} cases (a case is a fixture \
         under one MCP revision); {generated} of the fixtures are generated from the tables of \
         `suites/matrices.yaml`. Its requirements inventory, `suites/requirements.yaml`, lists \
         every normative statement of the specification: {} requirements, {} of them checkable \
         on a document, of which {} are covered by rules ({:.1} %), {} partly and {} pending,",
        set.changelog.version(),
        set.rules.iter().count(),
        thousands(fixtures),
        thousands(cases),
        thousands(all),
        checkable,
        covered,
        total.percent_covered(),
        total.partial,
        total.pending,
    );
    assert!(
        readme.contains(&expected),
        "the README's description of the suite is stale; it should read:\n{expected}"
    );
}
