//! The suite has teeth: a validator that lacks any one rule fails it.

use mcpdesc_conformance::backend::schedule;
use mcpdesc_conformance::judge::summary::Summary;
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::suite::case::Selection;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_validator::{ReferenceValidator, rule};

use super::claims::ClaimsAll;

#[test]
fn the_catalogs_hold_exactly_the_rules_the_reference_validator_checks() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let mut catalog: Vec<&str> = set.rules.iter().map(|rule| rule.id.as_str()).collect();
    catalog.sort_unstable();
    let mut implemented = rule::ALL.to_vec();
    implemented.sort_unstable();
    assert_eq!(catalog, implemented);
}

#[test]
fn switching_off_any_one_rule_fails_the_suite_at_the_exact_level() {
    let set = SuiteSet::load(SuiteTree::embedded());
    let cases = Selection::default().cases(&set);
    for id in rule::ALL {
        // Silently: a validator that says it leaves the rule out is not
        // judged on its cases (see the claims tests).
        let validator = ClaimsAll(ReferenceValidator::new().without_rule(id));
        let summary = Summary::of(&schedule::run_in_process(&cases, &set.rules, &validator));
        assert!(
            summary.total.failed_at(Level::Exact) > 0,
            "a validator without `{id}` still passes every case"
        );
    }
}
