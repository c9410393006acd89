//! Claims: a validator that lists the rules it checks is not judged on the
//! cases of the others.

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

#[test]
fn cases_of_an_unclaimed_rule_are_unclaimed_and_the_rest_pass() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let cases = Selection::default().cases(&set);
    let left_out = "mcpdesc.elicitation.name";
    let validator = AllBut {
        reference: ReferenceValidator::new().without_rule(left_out),
        left_out,
    };
    let results = schedule::run_in_process(&cases, &set.rules, &validator);
    // The cases that involve the rule: the suite expects it there.
    let involving: Vec<bool> = cases
        .iter()
        .map(|case| {
            case.entry
                .expectation
                .as_ref()
                .unwrap()
                .findings(case.revision)
                .unwrap()
                .iter()
                .any(|finding| finding.rule == left_out)
        })
        .collect();
    let expected_unclaimed = involving.iter().filter(|involves| **involves).count();
    assert!(expected_unclaimed > 0);
    for ((case, result), involves) in cases.iter().zip(&results).zip(&involving) {
        match &result.outcome {
            Outcome::Unclaimed(unclaimed) => {
                assert!(involves, "{}", case.id());
                assert_eq!(
                    unclaimed.rules.iter().collect::<Vec<_>>(),
                    [left_out],
                    "{}",
                    case.id()
                );
                assert_eq!(result.outcome.passes(Level::Exact), None);
            }
            other => {
                assert!(!involves, "{}: {other:?}", case.id());
                assert_eq!(other.passes(Level::Exact), Some(true), "{}", case.id());
            }
        }
    }
    let total = Summary::of(&results).total;
    assert_eq!(total.unclaimed, expected_unclaimed);
    assert_eq!(total.judged(), cases.len() - expected_unclaimed);
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
