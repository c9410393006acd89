//! The conventions page: where each kind of finding points, gathered from
//! every catalog's `conventions` and the decisions that name them.

use std::fmt::Write as _;

use super::{head, page_of};
use crate::emit::markdown::{cell, code, inline, link_target, one_line};
use crate::suite::catalog::Catalog;

/// The conventions page of `catalogs`: a table of every convention, then
/// a section for each, with the decisions of every rule that applies it.
pub(super) fn render(catalogs: &[&Catalog]) -> String {
    let mut page = head(
        "Where findings point",
        "The pointer conventions of the conformance suites: for each kind of finding, the JSON pointer its diagnostic carries.",
        "the `conventions` of suites/*.yaml and the decisions that name them",
    );
    page.push_str(
        "\n# Where findings point\n\nA validator is compared on the set of (rule, pointer, severity) it reports, \
         so where a finding points matters as much as which rule it names. This page gathers, for each kind of \
         finding, where the suites expect its pointer, and lists the decisions of every rule that applies the \
         convention. It is generated from the catalogs' `conventions` and from the decisions tagged with them.\n\n\
         | Finding | Points at |\n| --- | --- |\n",
    );
    let conventions = catalogs.iter().flat_map(|catalog| &catalog.conventions);
    for convention in conventions.clone() {
        let _ = writeln!(
            page,
            "| [{}](#{}) | {} |",
            cell(&convention.finding),
            link_target(&convention.id),
            cell(&convention.points_at),
        );
    }
    for convention in conventions {
        let _ = write!(
            page,
            "\n<a id=\"{}\"></a>\n\n## {}\n\n**Points at:** {}\n",
            link_target(&convention.id),
            one_line(&convention.finding),
            one_line(&convention.points_at),
        );
        if let Some(explanation) = &convention.explanation {
            let _ = write!(page, "\n{}\n", inline(explanation));
        }
        let mut applied = String::new();
        for catalog in catalogs {
            for rule in &catalog.rules {
                for decision in &rule.decisions {
                    if decision.conventions.contains(&convention.id) {
                        let _ = writeln!(
                            applied,
                            "* [{}]({}/{}): {}",
                            code(&rule.id),
                            link_target(&catalog.suite),
                            link_target(&page_of(rule)),
                            one_line(&decision.text),
                        );
                    }
                }
            }
        }
        if !applied.is_empty() {
            let _ = write!(page, "\nDecisions that apply it:\n\n{applied}");
        }
    }
    page
}
