//! The index pages: one per suite, and one of all suites.

use std::fmt::Write as _;

use super::rule::applicability_cell;
use super::{CONVENTIONS, INDEX, TREE_ROOT_FROM_SUITE_FOLDER, head, page_of};
use crate::emit::markdown::{cell, code, inline, link_target, link_text, one_line};
use crate::suite::catalog::Catalog;
use crate::suite::requirements::Inventory;

/// The index of one suite: what it covers and a table of its rules.
pub(super) fn suite(catalog: &Catalog) -> String {
    let catalog_file = format!("suites/{}.yaml", catalog.suite);
    let mut page = head(&catalog.title, &catalog.description, &catalog_file);
    let _ = write!(
        page,
        "\n# {}\n\n{}\n\nSuite `{}`, MCP Description {}, from the catalog [{}]({TREE_ROOT_FROM_SUITE_FOLDER}{}). \
         Where findings point: [conventions](../{CONVENTIONS}).\n\n",
        inline(&catalog.title),
        inline(&catalog.description),
        catalog.suite,
        one_line(&catalog.specification),
        link_text(&catalog_file),
        link_target(&catalog_file),
    );
    page.push_str("| Rule | Title | Severity | Protocol versions |\n| --- | --- | --- | --- |\n");
    for rule in &catalog.rules {
        let _ = writeln!(
            page,
            "| [{}]({}) | {} | {} | {} |",
            cell(&code(&rule.id)),
            link_target(&page_of(rule)),
            cell(&rule.title),
            rule.severity,
            applicability_cell(rule),
        );
    }
    page
}

/// The index of every suite, with the conventions page.
pub(super) fn all(catalogs: &[&Catalog], inventory: &Inventory) -> String {
    let mut page = head(
        "Rule reference",
        "Every rule of the conformance suites, by suite, and where their findings point.",
        "suites/*.yaml",
    );
    page.push_str(
        "\n# Rule reference\n\nOne page per rule, generated from the suite catalogs. \
         [Where findings point](conventions.md) gathers the pointer conventions that all \
         rules share.\n\n| Suite | Title | Rules |\n| --- | --- | --- |\n",
    );
    for catalog in catalogs {
        let _ = writeln!(
            page,
            "| [{}]({}/{INDEX}) | {} | {} |",
            cell(&code(&catalog.suite)),
            link_target(&catalog.suite),
            cell(&catalog.title),
            catalog.rules.len(),
        );
    }
    let _ = write!(
        page,
        "\n## Specification coverage\n\n{} [The requirements](requirements.md) lists each \
         one, by section, with the rules that check it.\n",
        super::requirements::summary(&inventory.coverage().total)
    );
    page
}
