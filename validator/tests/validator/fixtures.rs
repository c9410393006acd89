//! Every JSON fixture of the suite, checked against its folder class with the
//! reference validator; and the seed examples at exactly their seed pointers.
//!
//! A fixture runs under every known revision its root `protocolVersions`
//! names, or under all five when it names none. In `expected-valid` it must
//! have no error under any of them; in `expected-invalid` an error under at
//! least one. YAML fixtures are left to the harness, which owns the loader.
//! A JSON serialization case whose text the strict loader refuses is sent
//! as text, as the harness sends it, and must have an error under every
//! revision (it has no `protocolVersions` to read).

use std::fs;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use mcpdesc_protocol::{
    Diagnostic, Reply, Revision, SPECIFICATION_VERSION, Severity, Source, SourceFormat,
    ValidateRequest, Validator,
};
use mcpdesc_validator::{ReferenceValidator, rule, suite_revisions, validate};
use serde_json::Value;

/// The suite's fixture tree, beside this crate.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Every file below `dir`, sorted, without following anything but folders.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            let kind = entry.file_type().unwrap_or_else(|e| panic!("{e}"));
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

fn load(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn show(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| {
            format!(
                "    {} {} at {:?}: {}\n",
                d.severity,
                d.rule,
                d.path,
                d.message.as_deref().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn every_json_fixture_matches_its_folder_class() {
    let root = fixtures();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in files(&root) {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => {}
            // YAML fixtures are the harness's, and so is a statement file:
            // the sentence of a fixture whose root is not an object, which
            // cannot hold an `x-test` member (checked below).
            Some("yaml" | "x-test") => continue,
            _ => panic!("{name}: fixtures are .json or .yaml files (and .x-test statements)"),
        }
        let valid = match name.split('/').nth(1) {
            Some("expected-valid") => true,
            Some("expected-invalid") => false,
            _ => panic!("{name}: not under <suite>/expected-valid or <suite>/expected-invalid"),
        };
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Ok(loaded) = mcpdesc_source::load(&name, text.as_bytes(), mcpdesc_source::Format::Json)
        else {
            check_refused_text(&path, &name, valid, &text, &mut failures);
            checked += 1;
            continue;
        };
        let document = Arc::unwrap_or_clone(loaded.value);
        if document.is_object() {
            assert!(
                document.get("x-test").is_some_and(Value::is_string),
                "{name}: needs an `x-test` sentence"
            );
        } else {
            assert!(
                has_statement_file(&path),
                "{name}: its root is not an object, so it needs its sentence in `{name}.x-test`"
            );
        }
        let mut errors = 0;
        let mut listing = String::new();
        let known = suite_revisions();
        for revision in known.of_document(&document) {
            let diagnostics = validate(&document, revision, &known);
            errors += diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            listing.push_str(&format!("  under {revision}:\n{}", show(&diagnostics)));
        }
        if valid != (errors == 0) {
            let expected = if valid { "no error" } else { "an error" };
            failures.push(format!("{name}: expected {expected}\n{listing}"));
        }
        checked += 1;
    }
    assert!(checked > 0, "no fixture found below {}", root.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether the fixture at `path` has its sentence in a statement file
/// beside it (`<fixture>.x-test`), for when it cannot hold an `x-test`.
fn has_statement_file(path: &Path) -> bool {
    let mut statement = path.to_path_buf().into_os_string();
    statement.push(".x-test");
    !fs::read_to_string(&statement)
        .unwrap_or_default()
        .trim()
        .is_empty()
}

/// A JSON text the strict loader refuses: an invalid serialization case,
/// with its sentence in a statement file, that the reference validator,
/// sent the text, finds an error in under every known revision.
fn check_refused_text(
    path: &Path,
    name: &str,
    valid: bool,
    text: &str,
    failures: &mut Vec<String>,
) {
    if valid {
        failures.push(format!("{name}: a valid fixture must load"));
        return;
    }
    assert!(
        has_statement_file(path),
        "{name}: its text does not load, so it needs its sentence in `{name}.x-test`"
    );
    let validator = ReferenceValidator::new();
    for revision in suite_revisions().iter() {
        let request = ValidateRequest {
            case: name.to_owned(),
            specification: SPECIFICATION_VERSION.to_owned(),
            revision,
            document: Arc::new(Value::Null),
            source: Some(Source {
                format: SourceFormat::Json,
                text: Arc::from(text),
            }),
        };
        let errors = match validator.validate(&request) {
            Reply::Diagnostics(found) => found
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count(),
            _ => 0,
        };
        if errors == 0 {
            failures.push(format!("{name}: expected an error under {revision}"));
        }
    }
}

/// The seed examples: (fixture, rule, pointer, revisions it fires under).
/// The fixture must produce exactly these findings under its revisions.
const SEEDS: &[(&str, &str, &str, &[Revision])] = &[
    (
        "elicitation/expected-invalid/elicitation-version-mismatch.json",
        rule::ELICITATION_PROTOCOL_VERSION,
        "/tools/0/elicitations/0",
        &[Revision::of("2025-06-18")],
    ),
    (
        "elicitation/expected-invalid/invalid-tool-interaction-example-semantics.json",
        rule::ELICITATION_PROTOCOL_VERSION,
        "/tools/0/interactionExamples/broken/steps/0/request",
        &[Revision::of("2025-06-18")],
    ),
    (
        "elicitation/expected-invalid/elicitation-form-semantics.json",
        rule::ELICITATION_FORM_SCHEMA_CONSISTENCY,
        "/prompts/0/elicitations/0/requestedSchema/required",
        &[
            Revision::of("2025-06-18"),
            Revision::of("2025-11-25"),
            Revision::of("2026-07-28"),
        ],
    ),
    (
        "elicitation/expected-invalid/elicitation-form-invalid-range.json",
        rule::ELICITATION_FORM_SCHEMA_CONSISTENCY,
        "/prompts/0/elicitations/0/requestedSchema/properties/count",
        &[
            Revision::of("2025-06-18"),
            Revision::of("2025-11-25"),
            Revision::of("2026-07-28"),
        ],
    ),
    (
        "elicitation/expected-invalid/elicitation-form-schema-2025-06-18.json",
        rule::ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE,
        "/prompts/0/elicitations/0/requestedSchema",
        &[Revision::of("2025-06-18")],
    ),
];

#[test]
fn seed_examples_fire_exactly_at_their_seed_pointers() {
    for &(name, rule, pointer, firing) in SEEDS {
        let document = load(&fixtures().join(name));
        assert!(
            document.pointer(pointer).is_some(),
            "{name}: {pointer} does not resolve"
        );
        let known = suite_revisions();
        for revision in known.of_document(&document) {
            let found: Vec<_> = validate(&document, revision, &known)
                .into_iter()
                .map(|d| (d.rule, d.path, d.severity))
                .collect();
            let expected = if firing.contains(&revision) {
                vec![(rule.to_owned(), pointer.to_owned(), Severity::Error)]
            } else {
                Vec::new()
            };
            assert_eq!(found, expected, "{name} under {revision}");
        }
    }
}

#[test]
fn seed_values_are_kept_exactly() {
    let at = |name: &str, pointer: &str| {
        load(&fixtures().join(name))
            .pointer(pointer)
            .cloned()
            .unwrap_or_else(|| panic!("{name}: {pointer} does not resolve"))
    };
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        at(
            "elicitation/expected-invalid/elicitation-version-mismatch.json",
            "/tools/0/elicitations/0"
        ),
        parse(
            r#"{"name": "authorize", "mode": "url", "message": "Authorize access.",
                "url": "https://auth.example.com/authorize"}"#
        )
    );
    assert_eq!(
        at(
            "elicitation/expected-invalid/invalid-tool-interaction-example-semantics.json",
            "/tools/0/interactionExamples/broken/steps/0/request"
        ),
        parse(
            r#"{"mode": "url", "message": "Authorize publication.",
                "url": "https://mcp.example.com/release/connect"}"#
        )
    );
    assert_eq!(
        at(
            "elicitation/expected-invalid/elicitation-form-semantics.json",
            "/prompts/0/elicitations/0/requestedSchema/required"
        ),
        parse(r#"["missing"]"#)
    );
    assert_eq!(
        at(
            "elicitation/expected-invalid/elicitation-form-invalid-range.json",
            "/prompts/0/elicitations/0/requestedSchema/properties/count"
        ),
        parse(r#"{"type": "integer", "minimum": 10, "maximum": 1}"#)
    );
    assert_eq!(
        at(
            "elicitation/expected-invalid/elicitation-form-schema-2025-06-18.json",
            "/prompts/0/elicitations/0/requestedSchema"
        ),
        parse(
            r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": {
                  "colors": {"type": "array", "items": {"type": "string", "enum": ["red", "blue"]}},
                  "label": {"type": "string", "default": "main"}}}"#
        )
    );
    assert_eq!(
        at(
            "elicitation/expected-valid/elicitation-declarations.json",
            "/tools/0/elicitations"
        ),
        parse(
            r#"[
              {"name": "choose_assignee", "mode": "form", "message": "Who should own this issue?",
               "requestedSchema": {"type": "object",
                 "properties": {"assignee": {"type": "string", "title": "Assignee", "minLength": 1}},
                 "required": ["assignee"]}},
              {"name": "authorize_tracker", "mode": "url",
               "message": "Authorize access to the issue tracker.",
               "when": "The current authorization grant is insufficient.",
               "url": "https://auth.example.com/authorize",
               "protocolVersions": ["2025-11-25", "2026-07-28"]},
              {"name": "choose_labels", "mode": "form", "message": "Choose labels for this issue.",
               "requestedSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                 "type": "object",
                 "properties": {"labels": {"type": "array", "title": "Labels",
                   "items": {"type": "string", "enum": ["bug", "feature"]}, "default": ["bug"]}}},
               "protocolVersions": ["2025-11-25", "2026-07-28"]}
            ]"#
        )
    );
}
