//! One rule's page, in the shape of the specification's published rule
//! pages.

use std::fmt::Write as _;

use super::{CONVENTIONS, Selected, Shown, TREE_ROOT_FROM_SUITE_FOLDER, head};
use crate::emit::markdown::{cell, code, fenced, inline, link_target, link_text, one_line};
use crate::suite::catalog::{Applicability, Applies, Catalog, Rule};
use crate::suite::fixture::Class;
use crate::suite::requirements::Inventory;

/// The page of `rule` from `catalog`, with its examples resolved.
pub(super) fn render(
    catalog: &Catalog,
    rule: &Rule,
    examples: &[Shown<'_>],
    inventory: &Inventory,
) -> String {
    let catalog_file = format!("suites/{}.yaml", catalog.suite);
    let mut page = head(&rule.title, &rule.summary, &catalog_file);
    // Writing to a String cannot fail.
    let _ = write!(
        page,
        "\n# {}\n\n{}\n",
        inline(&rule.title),
        inline(&rule.summary)
    );
    let _ = write!(page, "\n## Requirement\n\n{}\n", inline(&rule.requirement));
    details(&mut page, rule);
    applicability(&mut page, rule);
    let required =
        super::requirements::required_by(inventory, &rule.id, &catalog.specification, "../");
    if !required.is_empty() {
        let _ = write!(page, "\n## Required by\n\n{required}");
    }
    based_on(&mut page, rule);
    decisions(&mut page, catalog, rule);
    if !examples.is_empty() {
        page.push_str("\n## Examples\n");
        for shown in examples {
            example(&mut page, catalog, shown);
        }
    }
    let _ = write!(
        page,
        "\n## Rule Source Code\n\n[{}]({TREE_ROOT_FROM_SUITE_FOLDER}{}), the catalog of the `{}` suite (MCP Description {}).\n",
        link_text(&format!("{}.yaml", catalog.suite)),
        link_target(&catalog_file),
        catalog.suite,
        one_line(&catalog.specification),
    );
    page
}

/// The "Details" block: one bold label per field, lines ended by two
/// spaces (a Markdown line break) as on the published pages.
fn details(page: &mut String, rule: &Rule) {
    let path = if rule.path.is_empty() {
        "(the surface itself)".to_owned()
    } else {
        code(&rule.path)
    };
    let mut lines = vec![
        format!("**Rule ID:** {}", code(&rule.id)),
        format!("**Owner:** {}", rule.owner.prefix().trim_end_matches('.')),
        format!(
            "**Surface:** {} · **Path:** {path}",
            one_line(&rule.surface)
        ),
        format!("**Kind:** {}", one_line(&rule.kind)),
        format!("**Requirement level:** {}", one_line(&rule.level)),
        format!("**Severity:** {}", rule.severity),
    ];
    if rule.applicability.is_independent() {
        lines.push("**Protocol versions:** independent of the MCP protocol version".to_owned());
    }
    lines.push(format!(
        "**Status:** {} · **Enforcement:** {}",
        one_line(&rule.status),
        one_line(&rule.enforcement)
    ));
    let _ = write!(page, "\n## Details\n\n{}\n", lines.join("  \n"));
}

/// The per-revision table, for a rule that is not revision-independent.
fn applicability(page: &mut String, rule: &Rule) {
    let Applicability::PerRevision(table) = &rule.applicability else {
        return;
    };
    let word = |applies: &Applies| match applies {
        Applies::Applies => "applies",
        Applies::NotApplicable => "not-applicable",
    };
    let revisions: Vec<String> = table.keys().map(ToString::to_string).collect();
    let _ = write!(
        page,
        "\n## Protocol version applicability\n\n| {} |\n|{}|\n| {} |\n",
        revisions.join(" | "),
        vec![" --- "; revisions.len()].join("|"),
        table.values().map(word).collect::<Vec<_>>().join(" | "),
    );
    if !rule.cannot_fire_under.is_empty() {
        let under: Vec<String> = rule
            .cannot_fire_under
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = write!(
            page,
            "\nThe rule applies under {} but no document can break it there (see the decisions).\n",
            under.join(", ")
        );
    }
}

fn based_on(page: &mut String, rule: &Rule) {
    if rule.based_on.is_empty() {
        return;
    }
    page.push_str("\n## Based on\n\n");
    for basis in &rule.based_on {
        let _ = writeln!(
            page,
            "* **{}:** {}",
            one_line(&basis.tier),
            one_line(&basis.basis)
        );
        for reference in &basis.references {
            let _ = writeln!(page, "  * {}", code(reference));
        }
    }
}

/// The decisions, each with links to the conventions it applies.
fn decisions(page: &mut String, catalog: &Catalog, rule: &Rule) {
    if rule.decisions.is_empty() {
        return;
    }
    let _ = write!(
        page,
        "\n## Decisions\n\nWhere the specification leaves room, the `{}` suite settles it so; every validator is measured against these.\n\n",
        catalog.suite
    );
    for decision in &rule.decisions {
        let _ = write!(page, "* {}", inline(&decision.text));
        if !decision.conventions.is_empty() {
            let links: Vec<String> = decision
                .conventions
                .iter()
                .map(|id| format!("[{}](../{CONVENTIONS}#{})", link_text(id), link_target(id)))
                .collect();
            let _ = write!(page, " (conventions: {})", links.join(", "));
        }
        page.push('\n');
    }
}

/// One example: its fixture, the selected pointer, and the selected JSON;
/// for a serialization case, the fixture's whole text as written.
fn example(page: &mut String, catalog: &Catalog, shown: &Shown<'_>) {
    let heading = match shown.example.class {
        Class::Valid => "Valid example",
        Class::Invalid => "Invalid example",
    };
    let fixture = format!("fixtures/{}/{}", catalog.suite, shown.example.source);
    let shown_text = match &shown.selected {
        // A Value always serialises.
        Selected::Value(value) => fenced(
            "json",
            &serde_json::to_string_pretty(value).unwrap_or_default(),
        ),
        Selected::Source(source) => fenced(source.format.as_str(), &source.text),
    };
    let _ = write!(
        page,
        "\n### {heading}\n\nSource: [{}]({TREE_ROOT_FROM_SUITE_FOLDER}{}) · Selected: {}\n\n{}",
        link_text(&shown.example.source),
        link_target(&fixture),
        code(&shown.example.selected),
        shown_text,
    );
}

/// A rule's applicability in a few words, for index tables.
pub(super) fn applicability_cell(rule: &Rule) -> String {
    match &rule.applicability {
        Applicability::Independent(_) => "independent".to_owned(),
        Applicability::PerRevision(table) => cell(
            &table
                .iter()
                .filter(|(_, applies)| **applies == Applies::Applies)
                .map(|(revision, _)| revision.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ),
    }
}
