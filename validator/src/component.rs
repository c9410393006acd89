//! Reusable components and Reference Objects (Section 17).
//!
//! Rules: `mcpdesc.component.structure`, `mcpdesc.component.name`,
//! `mcpdesc.reference.syntax`, `mcpdesc.reference.namespace`,
//! `mcpdesc.reference.target` and `mcpdesc.reference.cycle`. None depends on
//! the MCP revision: components have no scope of their own.
//!
//! A chain of references is reported where it breaks, once: every Reference
//! Object is checked against its own target only, and a cycle at each
//! component on it, so a place whose chain breaks further on has no finding
//! of its own. [`Components::resolve`] follows a use site's chain for the
//! rules that check what it stands for, and reports nothing.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::document::Document;
use crate::pointer::Pointer;
use crate::primitive::Kind;
use crate::report::Report;
use crate::rule;
use crate::value::{is_extension, is_local_name};

/// The root member that holds the components.
const MEMBER: &str = "components";

/// The member that makes an object a Reference Object.
pub(crate) const REFERENCE: &str = "$componentRef";

/// What every well-formed `$componentRef` starts with.
const PREFIX: &str = "#/components/";

/// The five namespaces of the Components Object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Namespace {
    /// `schemas`: JSON Schema objects.
    Schemas,
    /// `toolExamples`.
    ToolExamples,
    /// `resourceExamples`.
    ResourceExamples,
    /// `resourceTemplateExamples`.
    ResourceTemplateExamples,
    /// `promptExamples`.
    PromptExamples,
}

impl Namespace {
    /// Every namespace, in the order the specification lists them.
    const ALL: [Namespace; 5] = [
        Namespace::Schemas,
        Namespace::ToolExamples,
        Namespace::ResourceExamples,
        Namespace::ResourceTemplateExamples,
        Namespace::PromptExamples,
    ];

    /// Its member name in `components`.
    fn member(self) -> &'static str {
        match self {
            Namespace::Schemas => "schemas",
            Namespace::ToolExamples => "toolExamples",
            Namespace::ResourceExamples => "resourceExamples",
            Namespace::ResourceTemplateExamples => "resourceTemplateExamples",
            Namespace::PromptExamples => "promptExamples",
        }
    }

    /// The namespace a member name of `components` stands for.
    fn named(member: &str) -> Option<Namespace> {
        Namespace::ALL
            .into_iter()
            .find(|namespace| namespace.member() == member)
    }

    /// The namespace of the examples of a primitive of `kind`.
    fn examples_of(kind: Kind) -> Namespace {
        match kind {
            Kind::Tool => Namespace::ToolExamples,
            Kind::Resource => Namespace::ResourceExamples,
            Kind::ResourceTemplate => Namespace::ResourceTemplateExamples,
            Kind::Prompt => Namespace::PromptExamples,
        }
    }
}

/// One component: its namespace and name.
type Key<'a> = (Namespace, &'a str);

/// Why a `$componentRef` names no component.
#[derive(Debug, PartialEq, Eq)]
enum Broken {
    /// It is not a string of the form `#/components/<namespace>/<name>`.
    Malformed,
    /// It names another namespace than its place takes.
    Namespace,
}

/// The namespace maps of a document's `components`, those that are objects,
/// with every component's chain followed once.
#[derive(Debug, Default)]
pub(crate) struct Components<'a> {
    maps: Vec<(Namespace, &'a Map<String, Value>)>,
    /// What each component stands for at the end of its chain; `None` when
    /// the chain breaks or cycles.
    resolved: HashMap<Key<'a>, Option<&'a Value>>,
    /// The components on a cycle.
    cycles: HashSet<Key<'a>>,
}

impl<'a> Components<'a> {
    /// Reads the namespaces of the `components` of `root`; any part that is
    /// missing or not an object holds no component.
    pub(crate) fn read(root: Option<&'a Map<String, Value>>) -> Self {
        let Some(Value::Object(components)) = root.and_then(|root| root.get(MEMBER)) else {
            return Components::default();
        };
        let maps = Namespace::ALL
            .into_iter()
            .filter_map(|namespace| match components.get(namespace.member()) {
                Some(Value::Object(map)) => Some((namespace, map)),
                _ => None,
            })
            .collect();
        let mut read = Components {
            maps,
            ..Components::default()
        };
        read.follow_chains();
        read
    }

    /// Follows every component's chain, each link once in all (a component
    /// has at most one reference, so the chains form a functional graph):
    /// a walk stops at a component already settled, or at one already on
    /// its own path, which closes a cycle. Without recursion, and in time
    /// linear in the number of components, however long the chains.
    fn follow_chains(&mut self) {
        let keys: Vec<Key<'a>> = self
            .maps
            .iter()
            .flat_map(|(namespace, map)| map.keys().map(|name| (*namespace, name.as_str())))
            .collect();
        for start in keys {
            let mut path: Vec<Key<'a>> = Vec::new();
            let mut on_path: HashMap<Key<'a>, usize> = HashMap::new();
            let mut key = start;
            let end = loop {
                if let Some(settled) = self.resolved.get(&key) {
                    break *settled;
                }
                if let Some(&at) = on_path.get(&key) {
                    self.cycles.extend(&path[at..]);
                    break None;
                }
                on_path.insert(key, path.len());
                path.push(key);
                let Some(value) = self.get(key) else {
                    break None;
                };
                match reference_of(value) {
                    None => break Some(value),
                    // A missing target ends the walk at the next turn.
                    Some(target) => match parse(target, key.0) {
                        Ok(next) => key = next,
                        Err(_) => break None,
                    },
                }
            };
            for key in path {
                self.resolved.insert(key, end);
            }
        }
    }

    /// The component `name` of `namespace`.
    fn get(&self, (namespace, name): Key<'_>) -> Option<&'a Value> {
        self.maps
            .iter()
            .find(|(held, _)| *held == namespace)
            .and_then(|(_, map)| map.get(name))
    }

    /// What `value`, standing where a value of `namespace` is taken, stands
    /// for: itself when it is not a Reference Object, the value at the end
    /// of its chain when every link resolves, `None` when the chain breaks
    /// or cycles (which the rules of this module report).
    pub(crate) fn resolve(&self, value: &'a Value, namespace: Namespace) -> Option<&'a Value> {
        let Some(target) = reference_of(value) else {
            return Some(value);
        };
        let key = parse(target, namespace).ok()?;
        self.resolved.get(&key).copied().flatten()
    }

    /// Whether following the chain from component `key` comes back to it.
    fn on_cycle(&self, key: Key<'_>) -> bool {
        self.cycles.contains(&key)
    }
}

/// Where findings inside one schema, reached at a use site, are reported
/// (the `reference-site` convention).
#[derive(Debug)]
pub(crate) struct Site {
    /// The use site: the member that holds the schema or its Reference
    /// Object (`<declaration>/requestedSchema`, `<tool>/inputSchema`).
    pub(crate) schema: Pointer,
    /// Whether the schema was reached through a Reference Object, in which
    /// case every finding is reported at [`Site::schema`].
    pub(crate) referenced: bool,
}

impl Site {
    /// The site of the schema written at `at` as `written`.
    pub(crate) fn of(written: &Value, at: Pointer) -> Self {
        Site {
            referenced: reference_of(written).is_some(),
            schema: at,
        }
    }

    /// A place inside the schema, `inside` the schema's own pointer; the
    /// use site when the schema is referenced.
    pub(crate) fn within(&self, inside: impl FnOnce(Pointer) -> Pointer) -> Pointer {
        if self.referenced {
            self.schema.clone()
        } else {
            inside(self.schema.clone())
        }
    }

    /// The schema's `required` member.
    pub(crate) fn required(&self) -> Pointer {
        self.within(|schema| schema.key("required"))
    }

    /// The property named `name`.
    pub(crate) fn property(&self, name: &str) -> Pointer {
        self.within(|schema| schema.key("properties").key(name))
    }
}

/// The `$componentRef` of `value`, when it is a Reference Object.
fn reference_of(value: &Value) -> Option<&Value> {
    value.as_object()?.get(REFERENCE)
}

/// The component `target` names, for a place that takes `namespace`.
fn parse(target: &Value, namespace: Namespace) -> Result<Key<'_>, Broken> {
    let Value::String(text) = target else {
        return Err(Broken::Malformed);
    };
    let (named, name) = text
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.split_once('/'))
        .ok_or(Broken::Malformed)?;
    let named = Namespace::named(named).ok_or(Broken::Malformed)?;
    if !is_local_name(name) {
        return Err(Broken::Malformed);
    }
    if named != namespace {
        return Err(Broken::Namespace);
    }
    Ok((named, name))
}

/// Runs the component and reference rules on `document`.
pub(crate) fn check(document: &Document<'_>, report: &mut Report) {
    let components = &document.components;
    if let Some(Value::Object(object)) = document.root.and_then(|root| root.get(MEMBER)) {
        check_components(object, components, report);
    }
    for primitive in &document.primitives {
        if primitive.kind == Kind::Tool {
            for member in ["inputSchema", "outputSchema"] {
                if let Some(value) = primitive.object.get(member) {
                    let at = primitive.pointer.key(member);
                    check_reference(value, Namespace::Schemas, &at, components, report);
                }
            }
        }
        if let Some(Value::Object(examples)) = primitive.object.get("examples") {
            let namespace = Namespace::examples_of(primitive.kind);
            let at = primitive.pointer.key("examples");
            for (name, example) in examples {
                check_reference(example, namespace, &at.key(name), components, report);
            }
        }
    }
}

/// `mcpdesc.component.structure` and `mcpdesc.component.name` on the
/// Components Object, and the reference rules on the components that are
/// Reference Objects.
fn check_components(object: &Map<String, Value>, components: &Components<'_>, report: &mut Report) {
    let at = Pointer::root().key(MEMBER);
    if object.is_empty() {
        report.error(
            rule::COMPONENT_STRUCTURE,
            &at,
            "`components` must hold at least one namespace; leave it out when there is none",
        );
    }
    for (member, map) in object {
        let at = at.key(member);
        let Some(namespace) = Namespace::named(member) else {
            if !is_extension(member) {
                report.error(
                    rule::COMPONENT_STRUCTURE,
                    &at,
                    format!("`components` has no member `{member}`"),
                );
            }
            continue;
        };
        let map = match map {
            Value::Object(map) if !map.is_empty() => map,
            Value::Object(_) => {
                report.error(
                    rule::COMPONENT_STRUCTURE,
                    &at,
                    format!("`components.{member}` must hold at least one component"),
                );
                continue;
            }
            _ => {
                report.error(
                    rule::COMPONENT_STRUCTURE,
                    &at,
                    format!("`components.{member}` must be an object"),
                );
                continue;
            }
        };
        for (name, value) in map {
            let at = at.key(name);
            if !is_local_name(name) {
                report.error(
                    rule::COMPONENT_NAME,
                    &at,
                    "a component name uses only letters, digits, `.`, `_` and `-`, at least one",
                );
            }
            check_component(value, namespace, &at, report);
            check_reference(value, namespace, &at, components, report);
            if components.on_cycle((namespace, name)) {
                report.error(
                    rule::REFERENCE_CYCLE,
                    &at,
                    "following the references from this component leads back to it",
                );
            }
        }
    }
}

/// `mcpdesc.component.structure` on one component's value.
fn check_component(value: &Value, namespace: Namespace, at: &Pointer, report: &mut Report) {
    let Value::Object(object) = value else {
        report.error(
            rule::COMPONENT_STRUCTURE,
            at,
            "a component must be an object",
        );
        return;
    };
    if namespace != Namespace::Schemas
        && !object.contains_key(REFERENCE)
        && object.contains_key(crate::scope::MEMBER)
    {
        report.error(
            rule::COMPONENT_STRUCTURE,
            &at.key(crate::scope::MEMBER),
            "a component takes its protocol scope from where it is used, never its own",
        );
    }
}

/// The reference rules on `value`, standing at `at` where a value of
/// `namespace` is taken, when it is a Reference Object: its siblings, its
/// form, its namespace and its direct target. What lies beyond the target
/// is the target's own business.
pub(crate) fn check_reference(
    value: &Value,
    namespace: Namespace,
    at: &Pointer,
    components: &Components<'_>,
    report: &mut Report,
) {
    let Value::Object(object) = value else {
        return;
    };
    let Some(target) = object.get(REFERENCE) else {
        return;
    };
    for member in object.keys().filter(|member| *member != REFERENCE) {
        report.error(
            rule::REFERENCE_SYNTAX,
            &at.key(member),
            format!("a Reference Object holds `{REFERENCE}` alone, not `{member}`"),
        );
    }
    let key = match parse(target, namespace) {
        Ok(key) => key,
        Err(Broken::Malformed) => {
            report.error(
                rule::REFERENCE_SYNTAX,
                at,
                format!(
                    "`{REFERENCE}` must be a string `{PREFIX}<namespace>/<name>` naming one of the five namespaces and a component name"
                ),
            );
            return;
        }
        Err(_) => {
            report.error(
                rule::REFERENCE_NAMESPACE,
                at,
                format!(
                    "this place takes a value of `components.{}`",
                    namespace.member()
                ),
            );
            return;
        }
    };
    if components.get(key).is_none() {
        report.error(
            rule::REFERENCE_TARGET,
            at,
            format!(
                "`components.{}` has no component `{}`",
                namespace.member(),
                key.1
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        COMPONENT_NAME as NAME, COMPONENT_STRUCTURE as STRUCTURE,
        ELICITATION_FORM_SCHEMA_CONSISTENCY as CONSISTENCY,
        ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE as PROTOCOL_SHAPE,
        ELICITATION_FORM_SCHEMA_VOCABULARY as VOCABULARY, REFERENCE_CYCLE as CYCLE,
        REFERENCE_NAMESPACE as NAMESPACE, REFERENCE_SYNTAX as SYNTAX, REFERENCE_TARGET as TARGET,
        TOOL_EXAMPLE_SHAPE as TOOL_EXAMPLE,
    };
    use crate::tests::{E, assert_findings, form, prompt_with, tool, with};

    const AT: &str = "/prompts/0/elicitations/0/requestedSchema";

    /// A document whose single form declaration's schema is `schema`, with
    /// `components.schemas` set to `schemas`.
    fn doc(schema: Value, schemas: Value) -> Value {
        let mut doc = prompt_with(vec![form(json!({"requestedSchema": schema}))]);
        if let Some(root) = doc.as_object_mut() {
            root.insert("components".into(), json!({"schemas": schemas}));
        }
        doc
    }

    fn valid() -> Value {
        json!({"type": "object", "properties": {"ok": {"type": "boolean", "default": true}}})
    }

    fn reference(name: &str) -> Value {
        json!({"$componentRef": format!("#/components/schemas/{name}")})
    }

    #[test]
    fn references_and_chains_resolve() {
        let schemas = json!({"a": reference("b"), "b": reference("c"), "c": valid()});
        assert_findings(&doc(reference("a"), schemas), R2025_11_25, &[]);
    }

    #[test]
    fn members_beside_the_reference_are_reported_and_the_reference_followed() {
        let schema = json!({"$componentRef": "#/components/schemas/c", "type": 5, "x-a": 1});
        assert_findings(
            &doc(schema, json!({"c": {"type": "object"}})),
            R2025_06_18,
            &[
                (SYNTAX, &format!("{AT}/type"), E),
                (SYNTAX, &format!("{AT}/x-a"), E),
                (VOCABULARY, AT, E),
            ],
        );
    }

    #[test]
    fn malformed_pointers_are_syntax_errors_at_the_reference() {
        let schemas = json!({"a/b": valid(), "a~b": valid(), "a": {"b": valid()}, "c": valid()});
        for target in [
            json!("#/components/schemas/a/b"),
            json!("#/components/schemas/a~1b"),
            json!("#/components/schemas/a~b"),
            json!("#/components/prompts/c"),
            json!("#/components/schemas"),
            json!("#/components/schemas/"),
            json!("components/schemas/c"),
            json!("#/components/Schemas/c"),
            json!("https://example.com/schemas.json#/components/schemas/c"),
            json!(7),
            json!({"c": true}),
        ] {
            let schema = json!({"$componentRef": target});
            let found = doc(schema, schemas.clone());
            let mut expected = vec![(SYNTAX, AT, E)];
            // The components named outside the pattern are errors of their own.
            expected.extend([
                (NAME, "/components/schemas/a~0b", E),
                (NAME, "/components/schemas/a~1b", E),
            ]);
            assert_findings(&found, R2025_11_25, &expected);
        }
    }

    #[test]
    fn another_namespace_and_a_missing_component_are_told_apart() {
        let wrong = json!({"$componentRef": "#/components/toolExamples/c"});
        assert_findings(
            &doc(wrong, json!({"c": valid()})),
            R2025_11_25,
            &[(NAMESPACE, AT, E)],
        );
        assert_findings(
            &doc(reference("missing"), json!({"c": valid()})),
            R2025_11_25,
            &[(TARGET, AT, E)],
        );
        // Without components, nothing exists.
        let document = prompt_with(vec![form(json!({"requestedSchema": reference("c")}))]);
        assert_findings(&document, R2025_11_25, &[(TARGET, AT, E)]);
    }

    #[test]
    fn a_chain_is_reported_where_it_breaks() {
        let broken_tail = json!({"a": reference("b"), "b": reference("nowhere")});
        assert_findings(
            &doc(reference("a"), broken_tail),
            R2025_11_25,
            &[(TARGET, "/components/schemas/b", E)],
        );
        let wrong_tail = json!({"a": {"$componentRef": "#/components/promptExamples/a"}});
        assert_findings(
            &doc(reference("a"), wrong_tail),
            R2025_11_25,
            &[(NAMESPACE, "/components/schemas/a", E)],
        );
    }

    #[test]
    fn cycles_are_reported_at_each_component_on_them() {
        let self_loop = json!({"a": reference("a")});
        assert_findings(
            &doc(reference("a"), self_loop),
            R2025_11_25,
            &[(CYCLE, "/components/schemas/a", E)],
        );
        // `d` leads into the ring without being on it.
        let ring = json!({
            "a": reference("b"), "b": reference("c"), "c": reference("a"), "d": reference("a")
        });
        assert_findings(
            &doc(reference("d"), ring),
            R2025_11_25,
            &[
                (CYCLE, "/components/schemas/a", E),
                (CYCLE, "/components/schemas/b", E),
                (CYCLE, "/components/schemas/c", E),
            ],
        );
    }

    #[test]
    fn long_chains_do_not_recurse() {
        let mut schemas = serde_json::Map::new();
        for i in 0..2_000 {
            schemas.insert(format!("s{i}"), reference(&format!("s{}", i + 1)));
        }
        schemas.insert("s2000".into(), valid());
        let schemas = Value::Object(schemas);
        assert_findings(&doc(reference("s0"), schemas.clone()), R2025_11_25, &[]);
        let mut cyclic = schemas;
        if let Some(schemas) = cyclic.as_object_mut() {
            schemas.insert("s2000".into(), reference("s0"));
        }
        let found = crate::tests::findings(&doc(reference("s0"), cyclic), R2025_11_25);
        assert_eq!(found.len(), 2_001);
        assert!(found.iter().all(|(rule, _, _)| rule == CYCLE));
    }

    #[test]
    fn a_non_object_component_is_reported_where_it_is_stored() {
        for target in [json!(true), json!([]), json!("schema")] {
            let found = doc(reference("c"), json!({"c": target}));
            assert_findings(
                &found,
                R2025_11_25,
                &[(STRUCTURE, "/components/schemas/c", E)],
            );
        }
    }

    #[test]
    fn findings_in_a_referenced_schema_are_reported_at_the_reference_site() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 3, "maximum": 1},
                "deep": {"type": "object"}
            },
            "required": ["absent"]
        });
        let found = doc(reference("c"), json!({"c": schema}));
        assert_findings(
            &found,
            R2025_06_18,
            &[
                (CONSISTENCY, AT, E),
                (PROTOCOL_SHAPE, AT, E),
                (VOCABULARY, AT, E),
            ],
        );
    }

    #[test]
    fn only_the_schema_itself_may_be_a_reference() {
        let schema = json!({
            "type": "object",
            "properties": {"p": {"$componentRef": "#/components/schemas/c"}}
        });
        assert_findings(
            &doc(schema, json!({"c": {"type": "string"}})),
            R2025_11_25,
            &[(VOCABULARY, &format!("{AT}/properties/p"), E)],
        );
    }

    #[test]
    fn the_components_object_is_closed_and_its_namespaces_non_empty() {
        let document = with(json!({"components": {}}));
        assert_findings(&document, R2025_11_25, &[(STRUCTURE, "/components", E)]);
        let document = with(json!({"components": {
            "x-vendor": {"anything": []},
            "examples": {"a": {}},
            "schemas": {},
            "toolExamples": [],
            "promptExamples": {"x-p": 3, "ok": {"protocolVersions": ["2025-11-25"]}},
            "resourceExamples": {"r": {"$componentRef": "#/components/resourceExamples/r2"}, "r2": {}}
        }}));
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (STRUCTURE, "/components/examples", E),
                (
                    STRUCTURE,
                    "/components/promptExamples/ok/protocolVersions",
                    E,
                ),
                (STRUCTURE, "/components/promptExamples/x-p", E),
                (STRUCTURE, "/components/schemas", E),
                (STRUCTURE, "/components/toolExamples", E),
            ],
        );
        // A schema component's `protocolVersions` is a JSON Schema keyword.
        let document = with(json!({"components": {"schemas": {"s": {"protocolVersions": 1}}}}));
        assert_findings(&document, R2025_11_25, &[]);
    }

    #[test]
    fn tool_schemas_and_examples_are_use_sites() {
        let document = with(json!({
            "tools": [tool(json!({
                "inputSchema": {"$componentRef": "#/components/schemas/in"},
                "outputSchema": {"$componentRef": "#/components/toolExamples/out"},
                "examples": {
                    "good": {"$componentRef": "#/components/toolExamples/e"},
                    "bad": {"$componentRef": "#/components/toolExamples/none"},
                    "inline": {"protocolVersions": 1}
                }
            }))],
            "components": {
                "schemas": {"in": {"type": "object"}},
                "toolExamples": {"e": {"input": {}, "result": {"content": []}}}
            }
        }));
        // The inline entry is an example, not a reference: the Tool example
        // rules judge it.
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (NAMESPACE, "/tools/0/outputSchema", E),
                (TARGET, "/tools/0/examples/bad", E),
                (TOOL_EXAMPLE, "/tools/0/examples/inline", E),
                (TOOL_EXAMPLE, "/tools/0/examples/inline/protocolVersions", E),
            ],
        );
    }
}
