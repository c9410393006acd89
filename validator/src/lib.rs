//! The reference validator for MCP Description (mcpdesc) documents.
//!
//! [`validate`] checks one document, given as JSON, for one MCP protocol
//! revision and returns every finding as a [`Diagnostic`]: the ID of the rule
//! that is broken (see [`rule`]), an RFC 6901 pointer to where, and a
//! severity. [`ReferenceValidator`] wraps it in the harness's [`Validator`]
//! trait, and can switch single rules off.
//!
//! The validator never panics and never recurses on the document's
//! structure, whatever JSON it is given, and never accesses any URL it reads.

#![warn(missing_docs)]

mod capability;
mod client_requirements;
mod component;
mod document;
mod elicitation;
mod example;
mod icon;
mod interaction;
mod kind;
mod meta;
pub mod pointer;
mod primitive;
mod prompt;
mod protocol;
mod report;
mod resource;
pub mod rule;
mod scope;
mod security;
mod serialization;
mod tag;
mod tool;
mod transport;
mod value;

use std::collections::BTreeSet;

use mcpdesc_protocol::{
    Diagnostic, Implementation, Reply, Revision, Revisions, SPECIFICATION_VERSION, Skip,
    SourceFormat, SourceTextSupport, ValidateRequest, Validator,
};
use serde_json::Value;

use crate::document::Document;
use crate::report::Report;

/// Every diagnostic for `document` served under `revision`, sorted by
/// (rule, path, severity), each such triple once. `known` is the list of
/// MCP revisions a document may name (usually the suite's, from
/// [`suite_revisions`]); it also says which revisions are legacy.
///
/// Revision-independent rules report the same findings under every revision.
/// Revision-dependent rules compare `revision` with the dates their rules
/// start or stop at, so a revision added after the newest one is validated
/// like the newest one.
pub fn validate(document: &Value, revision: Revision, known: &Revisions) -> Vec<Diagnostic> {
    let mut report = Report::default();
    document::check(document, &mut report);
    protocol::check_known(document, known, &mut report);
    protocol::check_legacy(document, revision, known, &mut report);
    let model = Document::read(document, known);
    if let Some(root) = model.root {
        primitive::check(root, model.scope, &mut report);
    }
    elicitation::check(&model, revision, &mut report);
    meta::check(&model, revision, &mut report);
    tag::check(&model, &mut report);
    component::check(&model, &mut report);
    icon::check(&model, &mut report);
    interaction::check(&model, revision, &mut report);
    transport::check(&model, revision, &mut report);
    security::check(&model, &mut report);
    capability::check(&model, revision, &mut report);
    client_requirements::check(&model, revision, &mut report);
    primitive::check_variants(&model.primitives, revision, &mut report);
    primitive::check_availability(&model.primitives, revision, &mut report);
    tool::check(&model, revision, &mut report);
    resource::check(&model.primitives, revision, &mut report);
    prompt::check(&model.primitives, &mut report);
    example::check(&model, revision, &mut report);
    report.finish()
}

/// The MCP revisions of the suite this validator was built with
/// (`suites/revisions.yaml` of the `mcpdesc-suite` crate): what it knows
/// when nobody tells it otherwise.
///
/// It reads the file's compiled twin (`compiled/suites/revisions.yaml.json`)
/// when that was made from the file's current bytes, as the harness does,
/// and the YAML file otherwise: a test process that runs one case makes one
/// of these, and JSON is read several times faster.
pub fn suite_revisions() -> Revisions {
    const PATH: &str = "suites/revisions.yaml";
    let yaml = mcpdesc_suite::REVISIONS.as_bytes();
    let from_twin = || {
        let mut twin = twin_head(mcpdesc_suite::twin(PATH)?)?;
        (twin.get("source")?.as_str()? == mcpdesc_suite::file_hash(PATH)?)
            .then(|| serde_json::from_value(twin.get_mut("value")?.take()).ok())?
    };
    from_twin().unwrap_or_else(|| {
        mcpdesc_source::parse_yaml(PATH, yaml)
            // The suite's own tests load this file; a broken one never ships.
            .expect("the suite's revisions.yaml is valid")
    })
}

/// The first of the two JSON values of a compiled twin (its `source` and
/// `value`; its `locations` follow, unread).
fn twin_head(text: &[u8]) -> Option<Value> {
    serde_json::Deserializer::from_slice(text)
        .into_iter()
        .next()?
        .ok()
}

/// The reference validator, as a [`Validator`] the harness can run in process.
///
/// By default every rule in [`rule::ALL`] is on; [`ReferenceValidator::without_rule`]
/// switches one off. It knows the revisions of [`suite_revisions`] unless
/// built [`with_revisions`](ReferenceValidator::with_revisions) (the harness
/// hands it the list of the suite it runs).
#[derive(Debug, Clone)]
pub struct ReferenceValidator {
    /// The rules switched off.
    disabled: BTreeSet<String>,
    /// The revisions a document may name; all of them are announced.
    revisions: Revisions,
}

impl Default for ReferenceValidator {
    fn default() -> Self {
        ReferenceValidator {
            disabled: BTreeSet::new(),
            revisions: suite_revisions(),
        }
    }
}

impl ReferenceValidator {
    /// A validator with every rule on, knowing [`suite_revisions`].
    pub fn new() -> Self {
        Self::default()
    }

    /// The same validator knowing `revisions` instead: it announces them
    /// and accepts them in `protocolVersions`.
    pub fn with_revisions(mut self, revisions: Revisions) -> Self {
        self.revisions = revisions;
        self
    }

    /// The same validator with rule `id` switched off: its diagnostics are
    /// dropped and it is no longer announced.
    pub fn without_rule(mut self, id: &str) -> Self {
        self.disabled.insert(id.to_owned());
        self
    }

    /// The IDs of the rules that are on, sorted.
    fn enabled_rules(&self) -> impl Iterator<Item = &'static str> + '_ {
        rule::ALL
            .iter()
            .copied()
            .filter(|id| !self.disabled.contains(*id))
    }
}

impl Validator for ReferenceValidator {
    fn implementation(&self) -> Implementation {
        Implementation {
            name: "mcpdesc-reference".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            language: "rust".to_owned(),
            homepage: None,
            issues: None,
            specifications: vec![SPECIFICATION_VERSION.to_owned()],
            revisions: self
                .revisions
                .iter()
                .map(|revision| revision.as_str().to_owned())
                .collect(),
            rules: Some(self.enabled_rules().map(str::to_owned).collect()),
            source_text: Some(SourceTextSupport::of(&[
                SourceFormat::Json,
                SourceFormat::Yaml,
            ])),
            other: Default::default(),
        }
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        if request.specification != SPECIFICATION_VERSION {
            return Reply::Skipped(Skip {
                reason: format!(
                    "the reference validator checks MCP Description {SPECIFICATION_VERSION} only, not `{}`",
                    request.specification
                ),
                issue: None,
            });
        }
        // A serialization case carries the text: it is decoded first, and
        // a text that does not decode is judged by the rule it breaks.
        let mut diagnostics = match &request.source {
            None => validate(&request.document, request.revision, &self.revisions),
            Some(source) => match serialization::decode(source) {
                Ok(document) => validate(&document, request.revision, &self.revisions),
                Err(Reply::Diagnostics(diagnostics)) => diagnostics,
                Err(reply) => return reply,
            },
        };
        diagnostics.retain(|diagnostic| !self.disabled.contains(&diagnostic.rule));
        Reply::Diagnostics(diagnostics)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Shared builders for the unit tests, and the tests of the entry points.

    use mcpdesc_protocol::{Severity, Validator};

    pub(crate) use revisions::*;
    use serde_json::{Map, Value, json};

    use super::*;

    /// The revisions the unit tests name: the suite's list, and the
    /// revisions whose rules differ, by name.
    pub(crate) mod revisions {
        use mcpdesc_protocol::Revision;

        /// A legacy revision.
        pub(crate) const R2024_11_05: Revision = Revision::of("2024-11-05");
        /// The other legacy revision.
        pub(crate) const R2025_03_26: Revision = Revision::of("2025-03-26");
        /// The first revision with elicitation.
        pub(crate) const R2025_06_18: Revision = Revision::of("2025-06-18");
        /// The first revision with URL mode.
        pub(crate) const R2025_11_25: Revision = Revision::of("2025-11-25");
        /// A later revision.
        pub(crate) const R2026_07_28: Revision = Revision::of("2026-07-28");

        /// The five revisions of the suite as a document's root
        /// `protocolVersions` writes them, oldest first.
        pub(crate) const FIVE: [&str; 5] = [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28",
        ];

        /// Every revision of the suite, oldest first.
        pub(crate) fn all() -> Vec<Revision> {
            super::suite_revisions().iter().collect()
        }
    }

    /// Short for [`Severity::Error`].
    pub(crate) const E: Severity = Severity::Error;
    /// Short for [`Severity::Warning`].
    pub(crate) const W: Severity = Severity::Warning;

    /// A clean document scoped to the three complete revisions.
    pub(crate) fn base() -> Value {
        json!({
            "mcpdesc": "0.9.0",
            "info": {"name": "test", "version": "1.0.0"},
            "protocolVersions": ["2025-06-18", "2025-11-25", "2026-07-28"]
        })
    }

    /// `object` with `extra`'s members added or replaced; a `null` member of
    /// `extra` removes that member instead.
    pub(crate) fn merge(mut object: Value, extra: Value) -> Value {
        if let (Value::Object(object), Value::Object(extra)) = (&mut object, extra) {
            for (name, value) in extra {
                if value.is_null() {
                    object.remove(&name);
                } else {
                    object.insert(name, value);
                }
            }
        }
        object
    }

    /// [`base`] merged with `members`.
    pub(crate) fn with(members: Value) -> Value {
        merge(base(), members)
    }

    /// A clean Tool merged with `extra`.
    pub(crate) fn tool(extra: Value) -> Value {
        merge(
            json!({"name": "tool", "inputSchema": {"type": "object"}}),
            extra,
        )
    }

    /// A clean form-mode declaration named `form` merged with `extra`.
    pub(crate) fn form(extra: Value) -> Value {
        let declaration = json!({
            "name": "form",
            "mode": "form",
            "message": "Fill this in.",
            "requestedSchema": {
                "type": "object",
                "properties": {"answer": {"type": "string"}},
                "required": ["answer"]
            }
        });
        merge(declaration, extra)
    }

    /// A clean URL-mode declaration named `link` merged with `extra`.
    pub(crate) fn url(extra: Value) -> Value {
        let declaration = json!({
            "name": "link",
            "mode": "url",
            "message": "Open this.",
            "url": "https://example.com/authorize"
        });
        merge(declaration, extra)
    }

    /// [`base`] with one prompt holding `declarations`.
    pub(crate) fn prompt_with(declarations: Vec<Value>) -> Value {
        with(json!({"prompts": [{"name": "prompt", "elicitations": declarations}]}))
    }

    /// Where a finding about the property of [`property`] is reported when
    /// its schema is the requested schema of [`prompt_with`]'s only
    /// declaration.
    pub(crate) const P: &str = "/prompts/0/elicitations/0/requestedSchema/properties/p";

    /// A form schema whose only property, `p`, is `schema`.
    pub(crate) fn property(schema: Value) -> Value {
        json!({"type": "object", "properties": {"p": schema}})
    }

    /// Asserts that a prompt whose only form declaration requests `schema`
    /// has exactly the errors `expected`, as (rule, path) pairs, under
    /// 2025-11-25, where no revision-dependent schema rule applies.
    #[track_caller]
    pub(crate) fn check_schema(schema: Value, expected: &[(&str, &str)]) {
        let doc = prompt_with(vec![form(json!({"requestedSchema": schema}))]);
        let expected: Vec<_> = expected
            .iter()
            .map(|&(rule, path)| (rule, path, E))
            .collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    /// The (rule, path, severity) triples found, in the validator's order.
    pub(crate) fn findings(
        document: &Value,
        revision: Revision,
    ) -> Vec<(String, String, Severity)> {
        validate(document, revision, &suite_revisions())
            .into_iter()
            .map(|d| (d.rule, d.path, d.severity))
            .collect()
    }

    /// As [`assert_findings`], with the legacy warning at `/protocolVersions`
    /// expected too under a legacy revision.
    #[track_caller]
    pub(crate) fn assert_findings_beside_legacy(
        document: &Value,
        revision: Revision,
        expected: &[(&str, &str, Severity)],
    ) {
        let mut expected = expected.to_vec();
        if suite_revisions().is_legacy(revision) {
            expected.push((
                crate::rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
                "/protocolVersions",
                W,
            ));
        }
        assert_findings(document, revision, &expected);
    }

    /// Asserts that exactly `expected` is found, in any order.
    #[track_caller]
    pub(crate) fn assert_findings(
        document: &Value,
        revision: Revision,
        expected: &[(&str, &str, Severity)],
    ) {
        let mut expected: Vec<_> = expected
            .iter()
            .map(|&(rule, path, severity)| (rule.to_owned(), path.to_owned(), severity))
            .collect();
        expected.sort();
        expected.dedup();
        assert_eq!(
            findings(document, revision),
            expected,
            "under {revision}:\n{document:#}"
        );
    }

    #[test]
    fn diagnostics_are_sorted_deduplicated_and_explained() {
        let doc = with(json!({
            "protocolVersions": ["2025-06-18", "nope", "nope"],
            "tools": [tool(json!({"elicitations": [
                form(json!({"name": "x y"})),
                form(json!({"name": "x y"}))
            ]}))]
        }));
        let diagnostics = validate(&doc, R2025_06_18, &suite_revisions());
        let triples: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.rule.clone(), d.path.clone(), d.severity))
            .collect();
        let mut sorted = triples.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(triples, sorted);
        assert!(
            diagnostics
                .iter()
                .all(|d| d.message.as_deref().is_some_and(|m| !m.is_empty()))
        );
    }

    #[test]
    fn the_validator_announces_itself() {
        let implementation = ReferenceValidator::new().implementation();
        assert_eq!(implementation.name, "mcpdesc-reference");
        assert_eq!(implementation.language, "rust");
        assert_eq!(implementation.specifications, ["0.9.0"]);
        assert_eq!(
            implementation.revisions,
            [
                "2024-11-05",
                "2025-03-26",
                "2025-06-18",
                "2025-11-25",
                "2026-07-28"
            ]
        );
        assert_eq!(
            implementation.rules.as_deref(),
            Some(&*rule::ALL.iter().map(|r| r.to_string()).collect::<Vec<_>>())
        );
    }

    fn request(specification: &str, document: Value) -> ValidateRequest {
        ValidateRequest {
            case: "test".to_owned(),
            specification: specification.to_owned(),
            revision: R2024_11_05,
            document: document.into(),
            source: None,
        }
    }

    /// The built-in revisions come from the compiled twin, and are the
    /// YAML file's: a stale twin would be skipped, so this also fails when
    /// the twin is not used.
    #[test]
    fn the_suite_revisions_are_read_from_the_twin_and_are_the_yaml_files() {
        let yaml = mcpdesc_suite::REVISIONS.as_bytes();
        let twin = twin_head(mcpdesc_suite::twin("suites/revisions.yaml").unwrap()).unwrap();
        assert_eq!(twin["source"], mcpdesc_suite::source_hash(yaml).as_str());
        let parsed: Revisions = mcpdesc_source::parse_yaml("suites/revisions.yaml", yaml).unwrap();
        assert_eq!(suite_revisions(), parsed);
        assert!(parsed.iter().count() >= 5);
    }

    #[test]
    fn other_specifications_are_skipped() {
        let reply = ReferenceValidator::new().validate(&request("0.9.0-rc.3", base()));
        assert!(matches!(reply, Reply::Skipped(_)), "{reply:?}");
    }

    #[test]
    fn switched_off_rules_are_dropped_and_not_announced() {
        let validator =
            ReferenceValidator::new().without_rule(rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE);
        let rules = validator.implementation().rules.unwrap_or_default();
        assert!(
            !rules
                .iter()
                .any(|r| r == rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE)
        );
        assert_eq!(rules.len(), rule::ALL.len() - 1);
        let doc = with(json!({"info": {"name": ""}}));
        let Reply::Diagnostics(diagnostics) = validator.validate(&request("0.9.0", doc.clone()))
        else {
            panic!("expected diagnostics")
        };
        let triples: Vec<_> = diagnostics
            .into_iter()
            .map(|d| (d.rule, d.path, d.severity))
            .collect();
        assert_eq!(
            triples,
            [
                (rule::DOCUMENT_SHAPE.to_owned(), "/info".to_owned(), E),
                (rule::DOCUMENT_SHAPE.to_owned(), "/info/name".to_owned(), E),
            ]
        );
        let Reply::Diagnostics(all) = ReferenceValidator::new().validate(&request("0.9.0", doc))
        else {
            panic!("expected diagnostics")
        };
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn wrong_types_everywhere_do_not_panic() {
        let odd = [
            json!(null),
            json!(true),
            json!(-1.5),
            json!("s"),
            json!([]),
            json!({}),
            json!([{}]),
            json!({"": {}}),
        ];
        let slots = [
            "/mcpdesc",
            "/info",
            "/protocolVersions",
            "/tools",
            "/tools/0",
            "/tools/0/elicitations",
            "/tools/0/elicitations/0",
            "/tools/0/elicitations/0/requestedSchema",
            "/tools/0/elicitations/0/requestedSchema/properties",
            "/tools/0/elicitations/0/requestedSchema/properties/p",
            "/tools/0/elicitations/0/requestedSchema/properties/p/items",
            "/tools/0/elicitations/0/requestedSchema/properties/p/oneOf",
            "/tools/0/elicitations/0/protocolVersions",
            "/tools/0/protocolVersions",
            "/tools/0/interactionExamples",
            "/tools/0/interactionExamples/e",
            "/tools/0/interactionExamples/e/steps",
            "/tools/0/interactionExamples/e/steps/0",
            "/tools/0/interactionExamples/e/steps/0/request",
            "/components",
            "/components/schemas",
            "/components/schemas/c",
        ];
        let full = with(json!({
            "components": {"schemas": {"c": {"$componentRef": "#/components/schemas/c"}}},
            "tools": [tool(json!({
                "protocolVersions": ["2025-06-18"],
                "elicitations": [form(json!({
                    "protocolVersions": ["2025-06-18"],
                    "requestedSchema": {"type": "object", "properties": {"p": {
                        "type": "array", "items": {"anyOf": []}, "oneOf": [], "default": []
                    }}}
                }))],
                "interactionExamples": {"e": {"steps": [{"type": "elicitation", "request": {"mode": "url"}}]}}
            }))]
        }));
        for slot in slots {
            for value in &odd {
                let mut doc = full.clone();
                // A slot that names nothing would silently test nothing.
                let target = doc
                    .pointer_mut(slot)
                    .unwrap_or_else(|| panic!("slot `{slot}` names nothing in the document"));
                *target = value.clone();
                for revision in all() {
                    let _ = validate(&doc, revision, &suite_revisions());
                }
            }
        }
    }

    /// A small deterministic generator of JSON made of the words the rules
    /// look at, so that random documents reach deep into the rules.
    struct Noise(u64);

    impl Noise {
        fn next(&mut self, bound: usize) -> usize {
            // xorshift64
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % bound as u64) as usize
        }

        fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
            words[self.next(words.len())]
        }

        fn value(&mut self, depth: usize) -> Value {
            const KEYS: &[&str] = &[
                "mcpdesc",
                "info",
                "name",
                "version",
                "protocolVersions",
                "tools",
                "resources",
                "resourceTemplates",
                "prompts",
                "inputSchema",
                "uri",
                "uriTemplate",
                "elicitations",
                "mode",
                "message",
                "when",
                "requestedSchema",
                "url",
                "onDecline",
                "onCancel",
                "$componentRef",
                "components",
                "schemas",
                "type",
                "properties",
                "required",
                "enum",
                "enumNames",
                "oneOf",
                "items",
                "anyOf",
                "const",
                "title",
                "default",
                "minimum",
                "maximum",
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "format",
                "$schema",
                "interactionExamples",
                "steps",
                "request",
                "x-a",
                "a/b~c",
                "a",
            ];
            const WORDS: &[&str] = &[
                "form",
                "url",
                "object",
                "string",
                "number",
                "integer",
                "boolean",
                "array",
                "elicitation",
                "2024-11-05",
                "2025-03-26",
                "2025-06-18",
                "2025-11-25",
                "2026-07-28",
                "0.9.0",
                "#/components/schemas/a",
                "#/components/schemas/a~1b~0c",
                "#/components/schemas/a~2",
                "https://e.example/x",
                "",
                "a",
                "email",
                "\u{1F600}",
            ];
            let choice = if depth == 0 {
                self.next(4)
            } else {
                self.next(7)
            };
            match choice {
                0 => Value::String(self.pick(WORDS).to_owned()),
                1 => json!(self.next(7) as i64 - 3),
                2 => json!(self.next(2) == 0),
                3 => Value::Null,
                4 | 5 => {
                    let mut object = Map::new();
                    for _ in 0..self.next(6) {
                        let key = self.pick(KEYS).to_owned();
                        object.insert(key, self.value(depth - 1));
                    }
                    Value::Object(object)
                }
                _ => Value::Array((0..self.next(4)).map(|_| self.value(depth - 1)).collect()),
            }
        }
    }

    #[test]
    fn random_documents_do_not_panic() {
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3_000 {
            let mut doc = noise.value(7);
            if noise.next(2) == 0 {
                doc = merge(
                    with(
                        json!({"components": {"schemas": {"a": noise.value(4), "a/b~c": noise.value(4)}}}),
                    ),
                    json!({"tools": [noise.value(6)], "prompts": [noise.value(6)]}),
                );
            }
            for revision in all() {
                for diagnostic in validate(&doc, revision, &suite_revisions()) {
                    assert!(
                        diagnostic.path.is_empty() || doc.pointer(&diagnostic.path).is_some(),
                        "{} does not resolve in {doc:#}",
                        diagnostic.path
                    );
                }
            }
        }
    }

    /// A value nested `depth` levels deep, built without recursion.
    fn deep(depth: usize) -> Value {
        let mut value = json!("leaf");
        for _ in 0..depth {
            let mut object = Map::new();
            object.insert("a".to_owned(), Value::Array(vec![value]));
            value = Value::Object(object);
        }
        value
    }

    /// Takes `value` apart without recursion: dropping it whole would recurse.
    fn dismantle(value: Value) {
        let mut pending = vec![value];
        while let Some(value) = pending.pop() {
            match value {
                Value::Array(items) => pending.extend(items),
                Value::Object(members) => pending.extend(members.into_iter().map(|(_, v)| v)),
                _ => {}
            }
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        const DEPTH: usize = 50_000;
        // `json!` would copy embedded values recursively, so the deep values
        // are put in place afterwards.
        let mut doc = with(json!({
            "x-deep": 0,
            "protocolVersions": [0, "2025-06-18", 0],
            "tools": [tool(json!({
                "elicitations": [form(json!({"requestedSchema": {"type": "object", "properties": {
                    "p": {"type": "string", "enum": [0], "default": 0},
                    "q": {"type": "array", "items": {"type": "string", "enum": [0]}, "default": [0]}
                }}}))],
                "interactionExamples": {"e": {"steps": [0]}}
            }))]
        }));
        let properties = "/tools/0/elicitations/0/requestedSchema/properties";
        for slot in [
            "/x-deep".to_owned(),
            "/protocolVersions/0".to_owned(),
            "/protocolVersions/2".to_owned(),
            format!("{properties}/p/enum/0"),
            format!("{properties}/p/default"),
            format!("{properties}/q/items/enum/0"),
            format!("{properties}/q/default/0"),
            "/tools/0/interactionExamples/e/steps/0".to_owned(),
        ] {
            match doc.pointer_mut(&slot) {
                Some(target) => *target = deep(DEPTH),
                None => panic!("no slot {slot}"),
            }
        }
        for revision in all() {
            let _ = validate(&doc, revision, &suite_revisions());
        }
        dismantle(doc);
    }
}
