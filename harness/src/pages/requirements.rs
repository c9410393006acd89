//! The requirements page: the inventory of the specification's normative
//! statements, by section, each with the rules that check it or why
//! nothing does yet, and the coverage figures per section.

use std::fmt::Write as _;

use super::{head, page_of};
use crate::emit::markdown::{cell, code, html, inline, link_target, link_text};
use crate::suite::SuiteSet;
use crate::suite::requirements::{
    Counts, Inventory, REQUIREMENTS_FILE, Requirement, Section, State,
};

/// The requirements page's name, beside the index of all suites.
pub(super) const PAGE: &str = "requirements.md";

/// The requirements page of `set`.
pub(super) fn render(set: &SuiteSet) -> String {
    let inventory = &set.requirements;
    let mut page = head(
        "Specification requirements",
        "Every normative statement of the specification, and the rules that check it.",
        REQUIREMENTS_FILE,
    );
    let total = inventory.coverage().total;
    let _ = write!(
        page,
        "\n# Specification requirements\n\n{}\n\nA requirement is *checkable* when a finding on one \
         document (or, for serialization, its text) can show it broken; the others constrain \
         running servers and clients, producers of documents, or readers beyond any one \
         finding, and are listed so that nothing is left out. A *pending* requirement says \
         why no rule covers it: findings are compared as a set, so the suite reports nothing \
         the text does not ask for, and a SHOULD for which the text defines no diagnostic \
         stays pending. Section 12 is taken from the \
         MCP Description 0.9.0 draft, every other section from the newest published text \
         (0.8.0).\n\n",
        summary(&total),
    );
    page.push_str(
        "| Section | Edition | Requirements | Checkable | Covered | Partly | Pending |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let coverage = inventory.coverage();
    for (number, counts) in &coverage.sections {
        let Some(section) = inventory.section(number) else {
            continue;
        };
        let _ = writeln!(
            page,
            "| [{}](#{}) | {} | {} | {} | {} | {} | {} |",
            cell(&heading(section)),
            anchor_of(section),
            cell(&section.edition),
            counts.requirements,
            counts.checkable,
            counts.covered,
            counts.partial,
            counts.pending,
        );
    }
    let _ = writeln!(
        page,
        "| **All** | | {} | {} | {} | {} | {} |",
        total.requirements, total.checkable, total.covered, total.partial, total.pending,
    );
    for section in &inventory.sections {
        let requirements: Vec<&Requirement> = inventory
            .requirements
            .iter()
            .filter(|requirement| requirement.top_section() == section.number)
            .collect();
        let _ = write!(page, "\n## {}\n\n", inline(&heading(section)));
        if requirements.is_empty() {
            page.push_str("No normative statement.\n");
            continue;
        }
        page.push_str(
            "| Requirement | § | Keywords | Statement | Kind | Coverage |\n\
             | --- | --- | --- | --- | --- | --- |\n",
        );
        for requirement in requirements {
            let keywords: Vec<String> = requirement
                .keywords
                .iter()
                .map(ToString::to_string)
                .collect();
            let _ = writeln!(
                page,
                "| <a id=\"{}\"></a>{} | {} | {} | {} | {} | {} |",
                html(&requirement.id),
                code(&requirement.id),
                cell(&requirement.section),
                keywords.join(", "),
                cell(&requirement.statement),
                requirement.kind,
                coverage_cell(set, requirement),
            );
        }
    }
    page
}

/// One sentence with the overall figures.
pub(super) fn summary(total: &Counts) -> String {
    format!(
        "{} requirements, {} of them checkable on a document: {} covered by rules ({:.1} %), {} \
         partly, {} pending.",
        total.requirements,
        total.checkable,
        total.covered,
        total.percent_covered(),
        total.partial,
        total.pending,
    )
}

/// `12. Elicitation Declarations`, or `Appendix A. Icon Object`.
fn heading(section: &Section) -> String {
    if section.number.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{}. {}", section.number, section.title)
    } else {
        format!("Appendix {}. {}", section.number, section.title)
    }
}

/// The anchor forges give the section's heading.
fn anchor_of(section: &Section) -> String {
    heading(section)
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() => Some(c),
            ' ' | '-' => Some('-'),
            _ => None,
        })
        .collect()
}

/// What covers `requirement`: its rules and accepting fixtures, linked, and
/// its pending reason.
fn coverage_cell(set: &SuiteSet, requirement: &Requirement) -> String {
    let mut parts: Vec<String> = Vec::new();
    for id in &requirement.rules {
        match (set.rules.get(id), set.rules.suite_of(id)) {
            (Some(rule), Some(suite)) => parts.push(format!(
                "[{}]({})",
                cell(&code(id)),
                link_target(&format!("{suite}/{}", page_of(rule)))
            )),
            _ => parts.push(cell(&code(id))),
        }
    }
    for fixture in &requirement.accepted_by {
        parts.push(format!("accepted by {}", cell(&code(fixture))));
    }
    match requirement.state() {
        State::Partial | State::Pending => {
            let reason = requirement.pending.as_deref().unwrap_or_default();
            parts.push(format!("*{}:* {}", requirement.state(), cell(reason)));
        }
        State::NotCheckable => parts.push("not checkable on a document".to_owned()),
        State::Unstated => parts.push("*unstated*".to_owned()),
        State::Covered => {}
    }
    parts.join("; ")
}

/// The "Required by" entries of `rule`, in the shape of the
/// specification's rule pages: a heading per edition of MCP Description
/// the requirements are taken from (the suite's own, `specification`,
/// first), naming their sections, then each requirement that names the
/// rule, with its section's title, its ID linked to its row on the
/// requirements page (`up` leads from the rule's page to that page's
/// folder), and what it requires. Empty when no requirement names the
/// rule.
pub(super) fn required_by(
    inventory: &Inventory,
    rule: &str,
    specification: &str,
    up: &str,
) -> String {
    // Per edition, in first-seen order with the suite's own first: its
    // sections and its lines.
    let mut groups: Vec<(&str, Vec<&str>, Vec<String>)> = Vec::new();
    for requirement in inventory.requiring(rule) {
        let section = inventory.section(requirement.top_section());
        let edition = section.map_or(specification, |section| section.edition.as_str());
        let title = section.map_or(String::new(), |section| {
            format!(
                "{}: ",
                inline(&format!("{}. {}", section.number, section.title))
            )
        });
        let line = format!(
            "  * {title}[{}]({up}{PAGE}#{}) — {}\n",
            link_text(&requirement.id),
            link_target(&requirement.id),
            inline(&requirement.statement)
        );
        let index = match groups.iter().position(|(name, _, _)| *name == edition) {
            Some(index) => index,
            None => {
                groups.push((edition, Vec::new(), Vec::new()));
                groups.len() - 1
            }
        };
        let (_, sections, lines) = &mut groups[index];
        if !sections.contains(&requirement.section.as_str()) {
            sections.push(&requirement.section);
        }
        lines.push(line);
    }
    groups.sort_by_key(|(edition, _, _)| *edition != specification);
    let mut text = String::new();
    for (edition, sections, lines) in groups {
        let sections = match sections.split_last() {
            Some((only, [])) => format!("Section {only}"),
            Some((last, rest)) => format!("Sections {} and {last}", rest.join(", ")),
            None => String::new(),
        };
        let _ = writeln!(
            text,
            "* **{}**",
            inline(&format!("MCP Description {edition}, {sections}"))
        );
        text.extend(lines);
    }
    text
}
