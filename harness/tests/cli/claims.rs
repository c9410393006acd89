//! Claims: a validator that lists the rules it checks is judged on those
//! rules' findings alone; a claim never excuses a wrong finding.

use std::collections::BTreeSet;

use mcpdesc_conformance::backend::schedule;
use mcpdesc_conformance::judge::summary::Summary;
use mcpdesc_conformance::outcome::Outcome;
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_protocol::{Implementation, Reply, ValidateRequest, Validator};
use mcpdesc_validator::{ReferenceValidator, rule};

/// The reference validator without one rule, which says so: its
/// implementation lists every other rule.
struct AllBut {
    reference: ReferenceValidator,
    left_out: &'static str,
}

impl Validator for AllBut {
    fn implementation(&self) -> Implementation {
        let mut implementation = self.reference.implementation();
        implementation.rules = Some(
            rule::ALL
                .iter()
                .filter(|id| **id != self.left_out)
                .map(|id| (*id).to_owned())
                .collect(),
        );
        implementation
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        self.reference.validate(request)
    }
}

/// The cases of the left-out rule are judged on the other rules, and pass;
/// those that expect findings of that rule alone are unclaimed.
#[test]
fn an_unclaimed_rule_is_set_aside_and_the_rest_judged() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let cases = Selection::default().cases(&set);
    let left_out = "mcpdesc.elicitation.name";
    let validator = AllBut {
        reference: ReferenceValidator::new().without_rule(left_out),
        left_out,
    };
    let results = schedule::run_in_process(&cases, &set.rules, &validator);
    let mut unclaimed = 0;
    let mut in_part = 0;
    for (case, result) in cases.iter().zip(&results) {
        let expected = case
            .entry
            .expectation
            .as_ref()
            .unwrap()
            .findings(case.revision)
            .unwrap();
        let involves = expected.iter().any(|finding| finding.rule == left_out);
        let only = involves && expected.iter().all(|finding| finding.rule == left_out);
        match &result.outcome {
            Outcome::Unclaimed(outcome) => {
                assert!(only, "{}", case.id());
                unclaimed += 1;
                assert_eq!(
                    outcome.rules.iter().collect::<Vec<_>>(),
                    [left_out],
                    "{}",
                    case.id()
                );
                assert_eq!(result.outcome.passes(Level::Exact), None);
            }
            Outcome::Compared(comparison) => {
                assert!(!only, "{}", case.id());
                assert_eq!(
                    result.outcome.passes(Level::Exact),
                    Some(true),
                    "{}",
                    case.id()
                );
                let set_aside: Vec<&String> = comparison.set_aside.iter().collect();
                if involves {
                    in_part += 1;
                    assert_eq!(set_aside, [left_out], "{}", case.id());
                    assert!(
                        comparison
                            .expected
                            .iter()
                            .all(|finding| finding.rule != left_out),
                        "{}",
                        case.id()
                    );
                } else {
                    assert!(set_aside.is_empty(), "{}", case.id());
                }
            }
            other => panic!("{}: {other:?}", case.id()),
        }
    }
    assert!(
        unclaimed > 0 && in_part > 0,
        "{unclaimed} unclaimed, {in_part} in part"
    );
    let total = Summary::of(&results).total;
    assert_eq!(total.unclaimed, unclaimed);
    assert_eq!(total.judged(), cases.len() - unclaimed);
    assert_eq!(total.failed_at(Level::Exact), 0);
    assert_eq!(total.passed_at(Level::Exact), total.judged());
}

/// A validator that lists no `rules`, and so claims every rule, whatever
/// it checks.
pub(super) struct ClaimsAll<V>(pub V);

impl<V: Validator> Validator for ClaimsAll<V> {
    fn implementation(&self) -> Implementation {
        Implementation {
            rules: None,
            ..self.0.implementation()
        }
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        self.0.validate(request)
    }
}

/// Without a `rules` list every rule is claimed: the same validator that
/// silently lacks a rule fails its cases instead.
#[test]
fn without_a_rules_list_a_missing_rule_fails() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let cases = Selection::default().cases(&set);
    let validator = ClaimsAll(ReferenceValidator::new().without_rule("mcpdesc.elicitation.name"));
    let total = Summary::of(&schedule::run_in_process(&cases, &set.rules, &validator)).total;
    assert_eq!(total.unclaimed, 0);
    assert!(total.failed_at(Level::Exact) > 0);
}

/// What `run` did with the claiming adapter playing `trick`: its exit
/// status, its streams, and its JSON report (when it wrote one).
struct Tricked {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    report: Option<serde_json::Value>,
}

fn tricked(trick: &str, options: &[&str]) -> Tricked {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let output = super::harness()
        .args(["run", "--validator"])
        .arg(super::external_support::python(
            "claiming_adapter.py",
            trick,
        ))
        .arg("--report")
        .arg(&report)
        .args(options)
        .output()
        .unwrap();
    Tricked {
        code: output.status.code(),
        stdout: super::stdout_of(&output),
        stderr: super::stderr_of(&output),
        report: std::fs::read_to_string(&report)
            .ok()
            .map(|text| serde_json::from_str(&text).unwrap()),
    }
}

impl Tricked {
    fn report(&self) -> &serde_json::Value {
        self.report
            .as_ref()
            .unwrap_or_else(|| panic!("no report\n{}\n{}", self.stdout, self.stderr))
    }

    /// `summary.<path>` of the report, as a count.
    fn count(&self, path: &str) -> u64 {
        self.report()["summary"]
            .pointer(path)
            .and_then(serde_json::Value::as_u64)
            .unwrap_or_else(|| panic!("no count at {path}"))
    }
}

/// Reporting a claimed rule's findings under another, catalogued rule
/// that the validator does not claim (as warnings) hides nothing: the
/// claimed rule's findings are missing, and its cases fail.
#[test]
fn a_finding_reported_under_another_rule_fails_the_claimed_rule() {
    let run = tricked("renamed", &["--quiet"]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let known = "/perRule/mcpdesc.protocol-versions.known";
    assert!(run.count(&format!("{known}/cases")) > 0);
    assert_eq!(
        run.count(&format!("{known}/levels/exact/failed")),
        run.count(&format!("{known}/cases"))
    );
    // The rule it reported them under is set aside, not judged.
    assert!(
        run.report()["summary"]["perRule"]
            .get("mcpdesc.primitive.shape")
            .is_none()
    );
}

/// A rule ID in no catalog is judged whatever the validator claims: one
/// such warning on every document fails every judged case at the rules and
/// exact levels, and the report names it.
#[test]
fn an_unknown_rule_on_every_document_fails_every_judged_case() {
    let run = tricked("vendor-extra", &[]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let judged = run.count("/total/cases") - run.count("/total/skipped");
    assert_eq!(run.count("/total/unclaimed"), 0);
    assert_eq!(run.count("/total/levels/exact/failed"), judged);
    assert_eq!(run.count("/total/levels/rules/failed"), judged);
    assert_eq!(
        run.count("/perRule/vendor.extra/levels/exact/failed"),
        judged
    );
    assert!(
        run.stdout
            .contains("warning vendor.extra \"\": rule is not in any catalog"),
        "{}",
        run.stdout
    );
}

/// A claim of a rule ID that no catalog defines is refused before any case
/// runs (exit status 3, the validator's `start` reply is wrong), naming the
/// ID and the rule it likely means; `smoke` says the same.
#[test]
fn a_misspelt_claim_is_refused_before_any_case() {
    let run = tricked("misspelt", &[]);
    assert_eq!(run.code, Some(3), "{}{}", run.stdout, run.stderr);
    assert!(run.report.is_none());
    assert!(
        run.stderr.contains(
            "`mcpdesc.protocol-versions.knwon` (did you mean `mcpdesc.protocol-versions.known`?)"
        ),
        "{}",
        run.stderr
    );
    let smoke = super::harness()
        .args(["smoke", "--validator"])
        .arg(super::external_support::python(
            "claiming_adapter.py",
            "misspelt",
        ))
        .output()
        .unwrap();
    let stdout = super::stdout_of(&smoke);
    assert_eq!(smoke.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("`mcpdesc.protocol-versions.knwon`"),
        "{stdout}"
    );
    assert!(
        !stdout.contains(mcpdesc_conformance::smoke::NO_PROBLEM),
        "{stdout}"
    );
}

/// A validator that claims the rules it checks, but not the legacy
/// warning, is still judged under the legacy revisions it announces: the
/// warning is owed under them (`claim: implied`), so no legacy case is left
/// unclaimed, and a validator that leaves the warning out fails them.
#[test]
fn legacy_revisions_are_judged_for_a_validator_that_claims_what_it_checks() {
    let legacy = "/perRule/mcpdesc.protocol.legacy-validation-incomplete";
    let honest = tricked("honest", &["--quiet", "--revision", "2025-03-26"]);
    // Cases left unclaimed are those that expect rules the example does
    // not check (elicitation findings under a root without a scope), never
    // for want of the legacy warning: the silent validator leaves out the
    // same ones.
    let unclaimed = honest.count("/total/unclaimed");
    assert!(honest.count("/total/levels/exact/passed") > 0);
    assert!(honest.count(&format!("{legacy}/cases")) > 0);
    assert_eq!(honest.count(&format!("{legacy}/levels/exact/failed")), 0);
    let silent = tricked("silent-legacy", &["--quiet", "--revision", "2025-03-26"]);
    assert_eq!(silent.code, Some(1));
    assert_eq!(silent.count("/total/unclaimed"), unclaimed);
    assert_eq!(silent.count("/total/levels/exact/passed"), 0);
    assert_eq!(
        silent.count(&format!("{legacy}/levels/exact/failed")),
        honest.count(&format!("{legacy}/cases"))
    );
}

/// A one-shot validator cannot answer `start`; `--rules` claims its rules,
/// as a list or a file, with the same verdicts as the same validator
/// claiming them in session mode.
#[test]
fn oneshot_claims_come_from_the_command_line() {
    // One shard of one suite under one revision: one-shot mode starts a
    // Python process per case, and about fifty cases tell the claims apart
    // as well as the suite's hundreds.
    let select = [
        "--quiet",
        "--suite",
        "document",
        "--revision",
        "2025-06-18",
        "--partition",
        "hash:1/6",
    ];
    let session = tricked("honest", &select);
    let rules = "mcpdesc.document.shape,mcpdesc.document.specification-version,\
                 mcpdesc.protocol-versions.known";
    let oneshot = tricked(
        "honest --oneshot",
        &[&select[..], &["--oneshot", "--rules", rules]].concat(),
    );
    assert_eq!(oneshot.code, session.code, "{}", oneshot.stderr);
    assert_eq!(
        oneshot.report()["run"]["claims"]["listed"],
        serde_json::json!(rules.split(',').collect::<Vec<_>>())
    );
    for count in [
        "/total/unclaimed",
        "/total/levels/exact/passed",
        "/total/levels/exact/failed",
    ] {
        assert_eq!(oneshot.count(count), session.count(count), "{count}");
    }
    assert!(oneshot.count("/total/unclaimed") > 0);
    // The same claims from a file, comments and blank lines allowed.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rules.txt");
    std::fs::write(
        &file,
        format!("# what we check\n\n{}\n", rules.replace(',', "\n")),
    )
    .unwrap();
    let from_file = tricked(
        "honest --oneshot",
        &[
            &select[..],
            &["--oneshot", "--rules", file.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(
        from_file.report()["run"]["claims"],
        oneshot.report()["run"]["claims"]
    );
    // Without --rules a one-shot validator lists nothing, and every rule
    // is judged.
    let unlisted = tricked("honest --oneshot", &[&select[..], &["--oneshot"]].concat());
    assert_eq!(
        unlisted.report()["run"]["claims"]["listed"],
        serde_json::Value::Null
    );
    assert_eq!(unlisted.count("/total/unclaimed"), 0);
}

/// A `--rules` that names a rule no catalog defines is a command-line
/// error (exit status 2), named with its likely meaning.
#[test]
fn an_unknown_rule_on_the_command_line_is_refused() {
    let run = tricked(
        "honest",
        &["--rules", "mcpdesc.document.shape,mcpdesc.elicitation.uri"],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--rules names a rule that no catalog defines: `mcpdesc.elicitation.uri` (did you mean `mcpdesc.elicitation.url`?)"),
        "{}",
        run.stderr
    );
}

/// Five listed rules, and the legacy warning that announcing the legacy
/// revisions claims: six of the twenty.
const SIX: &str = "mcpdesc.elicitation.name,mcpdesc.elicitation.name-unique,\
                   mcpdesc.elicitation.mode,mcpdesc.elicitation.text,mcpdesc.elicitation.url";

/// A run judged on six of the twenty rules says so in every output that
/// shows a rate: the badges, the Markdown summary, the human report, the
/// JSON report and the events, with the same count of unclaimed cases.
#[test]
fn every_output_states_the_claimed_rules_and_the_unclaimed_cases() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let output = super::harness()
        .args(["run", "--rules", SIX, "--report"])
        .arg(at("report.json"))
        .arg("--markdown")
        .arg(at("summary.md"))
        .arg("--badge-dir")
        .arg(at("badges"))
        .output()
        .unwrap();
    let human = super::stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{human}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(at("report.json")).unwrap()).unwrap();
    let claims = &report["run"]["claims"];
    let (_, rules) = super::suite_version_and_rules();
    assert_eq!(
        (&claims["claimed"], &claims["catalog"]),
        (&6.into(), &rules.into())
    );
    let mut listed: Vec<&str> = SIX.split(',').collect();
    listed.sort_unstable();
    assert_eq!(claims["listed"], serde_json::json!(listed));
    let total = &report["summary"]["total"];
    let unclaimed = total["unclaimed"].as_u64().unwrap();
    let cases = total["cases"].as_u64().unwrap();
    assert!(unclaimed > 0 && unclaimed < cases, "{unclaimed} of {cases}");
    // Only the judged rules have per-rule figures.
    let judged: BTreeSet<&str> = report["summary"]["perRule"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut six: BTreeSet<&str> = SIX.split(',').collect();
    six.insert("mcpdesc.protocol.legacy-validation-incomplete");
    assert_eq!(judged, six);

    let statement = format!(
        "on 6 of the {rules} rules (those the validator claims); {unclaimed} of {cases} cases unclaimed"
    );
    assert!(human.contains(&statement), "{human}");
    assert!(
        human.contains(&format!(", {unclaimed} unclaimed\n")),
        "{human}"
    );
    // The per-revision tables count them in a column of their own.
    let all: Vec<&str> = human
        .lines()
        .find(|line| line.starts_with("all "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        all[1..4],
        [cases.to_string(), "0".to_owned(), unclaimed.to_string()],
        "{human}"
    );
    let markdown = std::fs::read_to_string(at("summary.md")).unwrap();
    assert!(markdown.contains(&statement), "{markdown}");
    assert!(
        markdown.contains(&format!(", {unclaimed} unclaimed.**")),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!("| **all** | {cases} | 0 | {unclaimed} | 0 |")),
        "{markdown}"
    );
    let badge: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(at("badges/exact.json")).unwrap()).unwrap();
    let message = badge["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("100.0% · 6/{rules} rules · suite ")),
        "{message}"
    );
    assert_eq!(badge["color"], "blue");

    // The events carry the same counts.
    let events = super::harness()
        .args(["run", "--rules", SIX, "--format", "json"])
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = super::stdout_of(&events)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let started = lines
        .iter()
        .find(|line| line["event"] == "run-started")
        .unwrap();
    assert_eq!(&started["claims"], claims);
    let finished = lines
        .iter()
        .find(|line| line["event"] == "run-finished")
        .unwrap();
    assert_eq!(&finished["summary"]["total"], total);
}

/// A selection whose every case is unclaimed judges nothing, and the
/// error says why: not that the validator skipped them.
#[test]
fn a_run_with_every_case_unclaimed_says_so() {
    let output = super::harness()
        .args([
            "run",
            "--rules",
            "mcpdesc.elicitation.name",
            "--filter",
            "document/expected-invalid/missing-info.json@2025-06-18",
        ])
        .output()
        .unwrap();
    let stderr = super::stderr_of(&output);
    assert!(
        stderr.contains(
            "no case was judged: 1 of the selected cases expect findings only of rules the \
             validator does not claim, and it skipped the other 0"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("skipped every selected case"), "{stderr}");
}
