//! The project's structural JSON Schema of an MCP Description 0.9.0
//! document (`docs/schemas/mcp-description-0.9.0.json`) as a second oracle:
//! written from the specification's tables, apart from the reference
//! validator, it must accept every expected-valid fixture and reject every
//! fixture whose expected findings are all structural, where they point.
//! Where the two disagree, one of them is wrong by the text; the lists
//! below name each known disagreement with the section that settles it, so
//! that settling one (or a new one) fails this test until the list says so.

use std::collections::BTreeSet;

use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use mcpdesc_conformance::suite::catalog::Input;
use mcpdesc_conformance::suite::fixture::Class;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_conformance::suite::{Suite, SuiteSet};
use mcpdesc_protocol::Severity;
use serde_json::Value;

use super::*;

/// The rules whose findings a structural schema can show: member types,
/// required members, closed objects, enumerations, patterns, non-empty
/// collections.
const STRUCTURAL_RULES: [&str; 47] = [
    "mcpdesc.document.shape",
    "mcpdesc.document.specification-version",
    "mcpdesc.protocol-versions.known",
    "mcpdesc.primitive.shape",
    "mcpdesc.elicitation.declarations",
    "mcpdesc.elicitation.shape",
    "mcpdesc.elicitation.name",
    "mcpdesc.elicitation.mode",
    "mcpdesc.elicitation.text",
    "mcpdesc.elicitation.mode-members",
    "mcpdesc.elicitation.url",
    "mcp.elicitation.form-schema.vocabulary",
    "mcpdesc.tag.catalogue",
    "mcpdesc.tag.reference-list",
    "mcpdesc.component.structure",
    "mcpdesc.component.name",
    "mcpdesc.reference.syntax",
    "mcpdesc.reference.namespace",
    "mcpdesc.icon.shape",
    "mcpdesc.value.uri",
    "mcp.meta.key",
    "mcpdesc.interaction.shape",
    "mcpdesc.interaction.name",
    "mcpdesc.interaction.response",
    "mcpdesc.transport.shape",
    "mcpdesc.security.scheme-shape",
    "mcpdesc.security.scheme-name",
    "mcpdesc.security.oauth-flows",
    "mcpdesc.security.requirement-shape",
    "mcpdesc.capabilities.shape",
    "mcp.extensions.identifier",
    "mcpdesc.client-requirements.shape",
    "mcpdesc.primitive.members",
    "mcp.tool.input-schema.root",
    "mcp.tool.annotations",
    "mcp.tool.execution",
    "mcp.resource.annotations",
    "mcpdesc.prompt.arguments",
    "mcpdesc.example.map",
    "mcpdesc.example.name",
    "mcpdesc.prompt-example.shape",
    "mcp.prompt-example.result",
    "mcpdesc.completion-example.shape",
    "mcp.completion-example.result",
    "mcpdesc.tool-example.shape",
    "mcpdesc.resource-example.shape",
    "mcp.resource-example.result",
];

/// Expected-valid fixtures that the MCP Description 0.8.0 text (and its
/// published schema, normative with it by Section 2.3) makes invalid, each
/// with the section that does. None is left: the last two (interaction
/// steps whose sampling and roots payloads broke Section 9.4) were
/// corrected when the `interaction` suite came, and the step they held
/// typed `Elicitation` became one of its invalid fixtures.
const VALID_BUT_INVALID_BY_THE_TEXT: [(&str, &str); 0] = [];

/// Structural findings a schema cannot place where the suite does: the
/// suite reports what a reference resolves to at the reference site, and a
/// schema does not resolve `$componentRef`. Each names the fixture, the
/// finding's pointer and why; the fixture's other findings are compared.
const OUT_OF_A_SCHEMAS_REACH: [(&str, &str, &str); 10] = [
    (
        "examples/expected-invalid/tool-example-shapes.json",
        "/tools/0/examples/shared",
        "a referenced Tool example's undefined member, which the suite reports at the reference site",
    ),
    (
        "examples/expected-invalid/resource-example-shapes.json",
        "/resources/0/examples/shared",
        "a referenced Resource example's `uri`, which the suite reports at the reference site",
    ),
    (
        "interaction/expected-invalid/response-content-against-schema.json",
        "/tools/0/interactionExamples/no-seats/steps/0/response/content",
        "accepted content against the request's own schema: an evaluation across fields",
    ),
    (
        "interaction/expected-invalid/response-content-against-schema.json",
        "/tools/0/interactionExamples/on-the-roof/steps/0/response/content",
        "accepted content against the request's own schema: an evaluation across fields",
    ),
    (
        "interaction/expected-invalid/response-content-against-schema.json",
        "/tools/0/interactionExamples/seats-as-text/steps/0/response/content",
        "accepted content against the request's own schema: an evaluation across fields",
    ),
    (
        "interaction/expected-invalid/response-content-against-schema.json",
        "/tools/0/interactionExamples/short-name/steps/0/response/content",
        "accepted content against the request's own schema: an evaluation across fields",
    ),
    (
        "interaction/expected-invalid/response-content-against-schema.json",
        "/tools/0/interactionExamples/too-many/steps/0/response/content",
        "accepted content against the request's own schema: an evaluation across fields",
    ),
    (
        "elicitation/expected-invalid/referenced-schema-breaks-vocabulary.json",
        "/tools/0/elicitations/0/requestedSchema",
        "the referenced schema breaks the form vocabulary only once resolved",
    ),
    (
        "tools/expected-invalid/input-schema-roots.json",
        "/tools/3/inputSchema",
        "the referenced component is a string schema, which shows only once resolved",
    ),
    (
        "examples/expected-invalid/prompt-example-shapes.json",
        "/prompts/0/examples/shared",
        "the schema rejects the referenced Prompt example where the component is",
    ),
];

fn structural_schema() -> Validator {
    let path = workspace().join("docs/schemas/mcp-description-0.9.0.json");
    let schema: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::options()
        .offline()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Where the schema rejects `document`, as JSON pointers. A name that
/// `propertyNames` rejects has no place of its own in the document; the
/// schema reports it at the map, and the suite at the member the name
/// introduces (`/components/schemas/<name>`), which is where it is put here.
fn rejected_at(schema: &Validator, document: &Value) -> Vec<String> {
    schema
        .iter_errors(document)
        .map(|error| {
            let at = error.instance_path().to_string();
            match error.kind() {
                ValidationErrorKind::PropertyNames { error } => match error.instance().as_ref() {
                    Value::String(name) => {
                        format!("{at}/{}", mcpdesc_source::pointer::escape(name.as_str()))
                    }
                    _ => at,
                },
                _ => at,
            }
        })
        .collect()
}

/// Whether a schema error at `error` shows a finding at `expected`: at it,
/// below it (the schema names the keyword the suite reports the property
/// or schema for), or at the list holding it (uniqueness is a property of
/// the list).
fn shows(error: &str, expected: &str) -> bool {
    let below = error == expected
        || (error.starts_with(expected) && error[expected.len()..].starts_with('/'));
    let holder = expected
        .rsplit_once('/')
        .is_some_and(|(parent, last)| parent == error && last.parse::<usize>().is_ok());
    below || holder
}

/// The suites whose fixtures are documents: a schema judges a decoded
/// value, and the fixtures of a suite of serialization cases (`input:
/// source`) are about how a text is written, which may not even decode.
fn document_suites(set: &SuiteSet) -> impl Iterator<Item = &Suite> {
    set.suites
        .iter()
        .filter(|suite| suite.catalog.input == Input::Document)
}

#[test]
fn the_structural_schema_is_what_its_script_writes() {
    let output = std::process::Command::new("python3")
        .arg(workspace().join("scripts/structural-schema"))
        .arg("--check")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        stdout_of(&output),
        stderr_of(&output)
    );
}

#[test]
fn the_structural_schema_accepts_every_expected_valid_fixture_but_the_listed_ones() {
    let schema = structural_schema();
    let set = SuiteSet::load(SuiteTree::embedded());
    let mut rejected = BTreeSet::new();
    let mut details = String::new();
    let mut valid = 0;
    for suite in document_suites(&set) {
        for entry in &suite.entries {
            let fixture = &entry.fixture;
            if fixture.class != Class::Valid {
                continue;
            }
            valid += 1;
            let document = &fixture.document.as_ref().unwrap().value;
            let errors = rejected_at(&schema, document);
            if !errors.is_empty() {
                details.push_str(&format!("{}: {}\n", fixture.id(), errors.join(", ")));
                rejected.insert(fixture.id());
            }
        }
    }
    assert!(valid > 30, "{valid} valid fixtures");
    let listed: BTreeSet<String> = VALID_BUT_INVALID_BY_THE_TEXT
        .iter()
        .map(|(id, _)| (*id).to_owned())
        .collect();
    assert_eq!(
        rejected, listed,
        "the expected-valid fixtures the schema rejects are not the listed ones; decide each \
         from the text and fix the fixture, the schema or the list:\n{details}"
    );
}

#[test]
fn the_structural_schema_rejects_every_structural_finding_where_the_suite_reports_it() {
    let schema = structural_schema();
    let set = SuiteSet::load(SuiteTree::embedded());
    let exempt: BTreeSet<(&str, &str)> = OUT_OF_A_SCHEMAS_REACH
        .iter()
        .map(|(id, at, _)| (*id, *at))
        .collect();
    let mut compared = 0;
    let mut problems = Vec::new();
    for suite in document_suites(&set) {
        for entry in &suite.entries {
            let fixture = &entry.fixture;
            let Ok(expectation) = &entry.expectation else {
                panic!("{}: no expectation", fixture.id());
            };
            let errors: Vec<_> = expectation
                .revisions
                .values()
                .flatten()
                .filter(|finding| finding.severity == Severity::Error)
                .collect();
            let structural = !errors.is_empty()
                && errors
                    .iter()
                    .all(|finding| STRUCTURAL_RULES.contains(&finding.rule.as_str()));
            if fixture.class != Class::Invalid || !structural {
                continue;
            }
            let id = fixture.id();
            let rejected = rejected_at(&schema, &fixture.document.as_ref().unwrap().value);
            compared += 1;
            let pointers: BTreeSet<&str> = errors
                .iter()
                .map(|finding| finding.path.as_str())
                .filter(|at| !exempt.contains(&(id.as_str(), *at)))
                .collect();
            for pointer in pointers {
                if !rejected.iter().any(|error| shows(error, pointer)) {
                    problems.push(format!(
                        "{id}: expected at {pointer:?}, the schema rejects at {rejected:?}"
                    ));
                }
            }
        }
    }
    assert!(compared > 250, "only {compared} structural fixtures");
    assert!(
        problems.is_empty(),
        "{} structural findings the schema does not show:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_listed_disagreements_name_fixtures_of_the_suite() {
    let set = SuiteSet::load(SuiteTree::embedded());
    for (id, reason) in VALID_BUT_INVALID_BY_THE_TEXT {
        assert!(set.find(id).is_some(), "{id} ({reason}) is not a fixture");
    }
    for (id, at, reason) in OUT_OF_A_SCHEMAS_REACH {
        let Some(index) = set.find(id) else {
            panic!("{id} ({reason}) is not a fixture");
        };
        let entry = &set.suites[index.suite].entries[index.entry];
        let expectation = entry.expectation.as_ref().unwrap();
        assert!(
            expectation
                .revisions
                .values()
                .flatten()
                .any(|finding| finding.path == at),
            "{id} expects no finding at {at} ({reason})"
        );
    }
}
