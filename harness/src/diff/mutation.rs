//! Documents for `diff`: the suite's fixtures, changed by seeded,
//! structure-aware mutations. A mutation knows where mcpdesc puts what
//! (protocol scopes at three levels, declaration modes, form schemas,
//! component references, interaction steps) and aims there most of the
//! time, and elsewhere at any member or element.

use serde_json::{Map, Value, json};

use super::random::Random;

/// Makes the documents of a `diff` run from seed documents.
#[derive(Debug, Clone)]
pub struct Mutator {
    /// The fixtures' documents, without their `x-test` sentence.
    seeds: Vec<Value>,
    /// The suite's revisions, as they are written in documents.
    revisions: Vec<String>,
}

/// Keys a renamed or added member may take: mcpdesc's own, then form-schema
/// keywords, then names nothing knows.
const KEYS: &[&str] = &[
    "name",
    "mode",
    "message",
    "url",
    "requestedSchema",
    "protocolVersions",
    "elicitations",
    "description",
    "type",
    "properties",
    "required",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "items",
    "default",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "pattern",
    "const",
    "title",
    "$schema",
    "$componentRef",
    "additionalProperties",
    "x-extra",
    "unknownMember",
];

/// Property schemas a form may be given, valid under some revision or
/// none.
fn property_schemas() -> [Value; 12] {
    [
        json!({"type": "string"}),
        json!({"type": "string", "format": "email", "minLength": 3, "maxLength": 1}),
        json!({"type": "number", "minimum": 1, "maximum": 0}),
        json!({"type": "integer", "default": 2}),
        json!({"type": "boolean", "default": true}),
        json!({"type": "string", "enum": ["a", "b"]}),
        json!({"type": "string", "enum": ["a"], "enumNames": ["A", "B"]}),
        json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}),
        json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}),
        json!({"type": "object"}),
        json!({"type": "string", "default": 1}),
        json!({"$componentRef": "#/components/schemas/missing"}),
    ]
}

/// A value of some JSON type, for retyping and for new members.
fn any_value(random: &mut Random) -> Value {
    match random.below(12) {
        0 => Value::Null,
        1 => Value::Bool(random.chance(50)),
        2 => json!(0),
        3 => json!(-1),
        4 => json!(1.5),
        5 => json!(""),
        6 => json!("x"),
        7 => json!("form"),
        8 => json!([]),
        9 => json!({}),
        10 => json!(["x"]),
        _ => json!({"type": "string"}),
    }
}

/// The kind of a place in a document, as mutations aim at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The root, a primitive, a transport or a declaration: it may hold a
    /// scope.
    Scope,
    /// An elicitation declaration (in `elicitations`).
    Declaration,
    /// A form schema or one of its property schemas.
    Schema,
    /// An interaction step, or its `request`.
    Step,
    /// Anything else.
    Other,
}

/// Visits every node of `value`, whose path is `path`, and below it, depth
/// first, each parent before its children: a path is a list of tokens.
pub(crate) fn walk(
    value: &Value,
    path: &mut Vec<String>,
    visit: &mut dyn FnMut(&[String], &Value),
) {
    visit(path, value);
    match value {
        Value::Object(members) => {
            for (key, child) in members {
                path.push(key.clone());
                walk(child, path, visit);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                path.push(index.to_string());
                walk(child, path, visit);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Every place in `value` below `path`, with its kind.
fn places(value: &Value, path: &[String]) -> Vec<(Vec<String>, Place)> {
    let mut found = Vec::new();
    walk(value, &mut path.to_vec(), &mut |path, node| {
        found.push((path.to_vec(), kind_of(path, node)));
    });
    found
}

fn kind_of(path: &[String], value: &Value) -> Place {
    if !value.is_object() {
        return Place::Other;
    }
    let parent = |back: usize| path.len().checked_sub(back).map(|at| path[at].as_str());
    const SCOPED: [&str; 5] = [
        "tools",
        "prompts",
        "resources",
        "resourceTemplates",
        "transports",
    ];
    if path.is_empty() || (path.len() == 2 && SCOPED.contains(&path[0].as_str())) {
        Place::Scope
    } else if parent(2) == Some("elicitations") {
        Place::Declaration
    } else if parent(1) == Some("requestedSchema")
        || parent(2) == Some("properties")
        || parent(2) == Some("schemas")
    {
        Place::Schema
    } else if parent(2) == Some("steps") || parent(1) == Some("request") {
        Place::Step
    } else {
        Place::Other
    }
}

/// The node at `path` (tokens), if there is one.
pub(crate) fn get_mut<'v>(value: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, token| match node {
        Value::Object(members) => members.get_mut(token),
        Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Removes the node at `path` (not the root); whether there was one.
pub(crate) fn remove(value: &mut Value, path: &[String]) -> bool {
    let Some((last, parent)) = path.split_last() else {
        return false;
    };
    match get_mut(value, parent) {
        Some(Value::Object(members)) => members.shift_remove(last).is_some(),
        Some(Value::Array(items)) => match last.parse::<usize>() {
            Ok(index) if index < items.len() => {
                items.remove(index);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

impl Mutator {
    /// A mutator over `seeds` (each a fixture's document; its `x-test` is
    /// dropped) for a suite of `revisions`.
    pub fn new(seeds: impl IntoIterator<Item = Value>, revisions: Vec<String>) -> Mutator {
        let seeds = seeds
            .into_iter()
            .map(|mut seed| {
                if let Value::Object(members) = &mut seed {
                    members.shift_remove("x-test");
                }
                seed
            })
            .collect();
        Mutator { seeds, revisions }
    }

    /// Document `index` of the run seeded with `seed`: a seed document
    /// with one to three mutations. The seed documents are taken in turn,
    /// from a place the seed chooses, so that every one of them seeds a
    /// document in each run of as many documents as there are seeds: a
    /// rule with a single fixture is not left out by the luck of the draw.
    /// The same seed, index and seed documents give the same document on
    /// any machine.
    pub fn document(&self, seed: u64, index: u64) -> Value {
        let mut random = Random::for_document(seed, index);
        let Some(base) = self.base(seed, index) else {
            return Value::Null;
        };
        let mut document = self.seeds[base].clone();
        for _ in 0..1 + random.below(3) {
            self.mutate(&mut document, &mut random);
        }
        document
    }

    /// Which seed document document `index` of the run seeded with `seed`
    /// starts from: the next in turn after the one before it, the first
    /// chosen by the seed; `None` when there is none.
    fn base(&self, seed: u64, index: u64) -> Option<usize> {
        let count = self.seeds.len();
        (count > 0).then(|| {
            let start = Random::for_document(seed, u64::MAX).below(count);
            (start + (index % count as u64) as usize) % count
        })
    }

    fn mutate(&self, document: &mut Value, random: &mut Random) {
        let all = places(document, &[]);
        let of_kind = |kind| -> Vec<Vec<String>> {
            all.iter()
                .filter(|(_, place)| *place == kind)
                .map(|(path, _)| path.clone())
                .collect()
        };
        // Aim at what mcpdesc's rules look at most of the time; fall back
        // on any place when the document has none of the kind drawn.
        let aimed = match random.below(10) {
            0 | 1 => Some((Place::Scope, of_kind(Place::Scope))),
            2 | 3 => Some((Place::Declaration, of_kind(Place::Declaration))),
            4 | 5 => Some((Place::Schema, of_kind(Place::Schema))),
            6 => Some((Place::Step, of_kind(Place::Step))),
            _ => None,
        };
        match aimed {
            Some((kind, targets)) if !targets.is_empty() => {
                let target = random.pick(&targets).clone();
                match kind {
                    Place::Scope => self.rescope(document, &target, random),
                    Place::Declaration => self.redeclare(document, &target, random),
                    Place::Schema => reshape_schema(document, &target, random),
                    _ => anywhere(document, &target, random),
                }
            }
            _ => {
                let target = random.pick(&all).0.clone();
                anywhere(document, &target, random);
            }
        }
    }

    /// Sets or removes the `protocolVersions` of a scope holder; now and
    /// then gives a transport another kind instead, since what a kind may
    /// serve depends on the revision (Section 6.2).
    fn rescope(&self, document: &mut Value, target: &[String], random: &mut Random) {
        if target
            .first()
            .is_some_and(|collection| collection == "transports")
            && random.chance(50)
        {
            if let Some(Value::Object(members)) = get_mut(document, target) {
                let kind = *random.pick(&["stdio", "sse", "streamable-http", "websocket"]);
                members.insert("type".into(), json!(kind));
            }
            return;
        }
        let scope = self.scope(random);
        if let Some(Value::Object(members)) = get_mut(document, target) {
            match scope {
                Some(scope) => {
                    members.insert("protocolVersions".into(), scope);
                }
                None => {
                    members.shift_remove("protocolVersions");
                }
            }
        }
    }

    /// A `protocolVersions` value: mostly a list of known revisions, now and
    /// then with an unknown one, a repeat, a non-string, or not a list.
    fn scope(&self, random: &mut Random) -> Option<Value> {
        let mut listed: Vec<Value> = self
            .revisions
            .iter()
            .filter(|_| random.chance(50))
            .map(|revision| json!(revision))
            .collect();
        match random.below(10) {
            0 => return None,
            1 => listed.push(json!("2099-01-01")),
            2 => listed.push(json!("latest")),
            3 => {
                if let Some(first) = listed.first().cloned() {
                    listed.push(first);
                }
            }
            4 => listed.push(json!(7)),
            5 => return Some(json!(self.revisions.last().cloned().unwrap_or_default())),
            6 => listed.clear(),
            _ => {}
        }
        Some(Value::Array(listed))
    }

    /// Changes a declaration: its mode, its scope, its members, or a copy
    /// of it beside it.
    fn redeclare(&self, document: &mut Value, target: &[String], random: &mut Random) {
        match random.below(5) {
            0 => {
                if let Some(Value::Object(members)) = get_mut(document, target) {
                    let mode = random.pick(&["form", "url", "Form", "", "both"]).to_owned();
                    members.insert("mode".into(), json!(mode));
                }
            }
            1 => self.rescope(document, target, random),
            2 => {
                // A copy beside it: the same name twice in one list.
                let Some((last, parent)) = target.split_last() else {
                    return;
                };
                let copy = get_mut(document, target).cloned();
                if let (Some(copy), Some(Value::Array(items)), Ok(index)) =
                    (copy, get_mut(document, parent), last.parse::<usize>())
                {
                    items.insert((index + 1).min(items.len()), copy);
                }
            }
            3 => {
                if let Some(Value::Object(members)) = get_mut(document, target) {
                    let reference = if random.chance(50) {
                        "#/components/schemas/missing".to_owned()
                    } else {
                        "components/schemas/x".to_owned()
                    };
                    members.insert(
                        "requestedSchema".into(),
                        json!({ "$componentRef": reference }),
                    );
                }
            }
            _ => {
                let inner = get_mut(document, target)
                    .map(|node| places(node, target))
                    .unwrap_or_default();
                if let Some((path, _)) = (!inner.is_empty()).then(|| random.pick(&inner)) {
                    let path = path.clone();
                    anywhere(document, &path, random);
                }
            }
        }
    }
}

/// Changes a form schema or property schema: a keyword added, dropped or
/// retyped, a property added or dropped, a required name added.
fn reshape_schema(document: &mut Value, target: &[String], random: &mut Random) {
    let Some(Value::Object(schema)) = get_mut(document, target) else {
        return;
    };
    match random.below(6) {
        0 => {
            let key = *random.pick(KEYS);
            schema.insert(key.into(), any_value(random));
        }
        1 => {
            let keys: Vec<String> = schema.keys().cloned().collect();
            if !keys.is_empty() {
                let key = random.pick(&keys).clone();
                schema.shift_remove(&key);
            }
        }
        2 => {
            let properties = schema
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(properties) = properties {
                let name = random.pick(&["p", "q", "answer", "a b"]).to_owned();
                let schemas = property_schemas();
                properties.insert(name.to_owned(), random.pick(&schemas).clone());
            }
        }
        3 => {
            let required = schema
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(required) = required {
                let name = random.pick(&["p", "answer", "nothing"]).to_owned();
                required.push(json!(name));
            }
        }
        4 => {
            // A schema component may be made to reference itself, the
            // shortest cycle; otherwise a reference that does not resolve,
            // one that is malformed, or one into a chain of the seeds.
            let component = match target {
                [.., namespace, name] if namespace == "schemas" => Some(name),
                _ => None,
            };
            let reference = match component {
                Some(name) if random.chance(50) => format!(
                    "#/components/schemas/{}",
                    mcpdesc_source::pointer::escape(name)
                ),
                _ => random
                    .pick(&[
                        "#/components/schemas/missing",
                        "#/components/schemas/branch",
                        "#/components/schemas/git~1branch-name",
                        "#/definitions/x",
                    ])
                    .to_string(),
            };
            schema.insert("$componentRef".into(), json!(reference));
        }
        _ => {
            let keys: Vec<String> = schema.keys().cloned().collect();
            if !keys.is_empty() {
                let key = random.pick(&keys).clone();
                let value = any_value(random);
                schema.insert(key, value);
            }
        }
    }
}

/// A generic change at `target`: removed, retyped, renamed, duplicated, or
/// given a new member. The root is neither removed nor retyped but given a
/// member instead: a document that is not an object says one thing (the
/// suite has fixtures of it), and would throw away the only seed some
/// rules have (about one document in fifty was lost so).
fn anywhere(document: &mut Value, target: &[String], random: &mut Random) {
    match random.below(5) {
        0 if !target.is_empty() => {
            remove(document, target);
        }
        1 if !target.is_empty() => {
            if let Some(node) = get_mut(document, target) {
                *node = any_value(random);
            }
        }
        2 => {
            let Some((last, parent)) = target.split_last() else {
                return;
            };
            if let Some(Value::Object(members)) = get_mut(document, parent)
                && let Some(value) = members.shift_remove(last)
            {
                members.insert((*random.pick(KEYS)).to_owned(), value);
            }
        }
        3 => match get_mut(document, target) {
            Some(Value::Array(items)) if !items.is_empty() => {
                let copy = random.pick(items).clone();
                items.push(copy);
            }
            Some(Value::Object(members)) => {
                members.insert((*random.pick(KEYS)).to_owned(), any_value(random));
            }
            _ => {}
        },
        _ => {
            if let Some(Value::Object(members)) = get_mut(document, target) {
                members.insert((*random.pick(KEYS)).to_owned(), any_value(random));
            } else if let Some(node) = get_mut(document, target) {
                *node = any_value(random);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutator() -> Mutator {
        Mutator::new(
            [
                json!({"x-test": "t", "mcpdesc": "0.9.0", "protocolVersions": ["2025-06-18"],
                       "tools": [{"name": "t", "elicitations": [{"name": "d", "mode": "form",
                       "message": "m", "requestedSchema": {"type": "object",
                       "properties": {"p": {"type": "string"}}}}]}]}),
            ],
            vec!["2025-06-18".into(), "2025-11-25".into()],
        )
    }

    #[test]
    fn the_same_seed_and_index_give_the_same_document() {
        let mutator = mutator();
        for index in 0..50 {
            assert_eq!(mutator.document(3, index), mutator.document(3, index));
        }
        let distinct: std::collections::BTreeSet<String> = (0..200)
            .map(|index| mutator.document(3, index).to_string())
            .collect();
        assert!(distinct.len() > 50, "{}", distinct.len());
    }

    #[test]
    fn every_seed_document_seeds_one_document_in_each_turn() {
        let seeds: Vec<Value> = (0..7).map(|n| json!({"n": n})).collect();
        let mutator = Mutator::new(seeds, vec!["2025-06-18".into()]);
        let mut starts = std::collections::BTreeSet::new();
        for seed in 0..20 {
            for turn in [0, 7, 700] {
                let bases: std::collections::BTreeSet<usize> = (turn..turn + 7)
                    .map(|index| mutator.base(seed, index).unwrap())
                    .collect();
                assert_eq!(bases.len(), 7, "seed {seed}, from document {turn}");
            }
            starts.insert(mutator.base(seed, 0).unwrap());
        }
        // The seed chooses where the turn starts.
        assert!(starts.len() > 2, "{starts:?}");
        assert_eq!(Mutator::new([], vec![]).base(1, 0), None);
    }

    #[test]
    fn documents_lose_the_x_test_sentence_and_differ_from_the_seed() {
        let mutator = mutator();
        let seed = &mutator.seeds[0];
        assert!(seed.get("x-test").is_none());
        let changed = (0..100)
            .filter(|index| &mutator.document(9, *index) != seed)
            .count();
        assert!(changed > 80, "{changed}");
    }

    #[test]
    fn mutations_reach_scopes_modes_schemas_and_references() {
        let mutator = mutator();
        let texts: Vec<String> = (0..2000)
            .map(|index| mutator.document(1, index).to_string())
            .collect();
        for needle in [
            "2099-01-01",
            "\"mode\":\"url\"",
            "\"enumNames\"",
            "#/components/schemas/missing",
            "\"protocolVersions\":[]",
        ] {
            assert!(
                texts.iter().any(|text| text.contains(needle)),
                "no document has {needle}"
            );
        }
    }

    #[test]
    fn a_document_made_from_an_object_stays_an_object() {
        // Small seeds, whose root is often the place drawn.
        let seeds = [json!({"a": 1}), json!({"mcpdesc": "0.9.0", "info": {}})];
        let mutator = Mutator::new(seeds.clone(), vec!["2025-06-18".into()]);
        let mut grown = 0;
        for index in 0..2000 {
            let document = mutator.document(5, index);
            assert!(document.is_object(), "document {index}: {document}");
            grown += usize::from(document.as_object().unwrap().len() > 2);
        }
        // The root still gets new members.
        assert!(grown > 100, "{grown}");
    }

    #[test]
    fn remove_takes_members_and_elements() {
        let mut value = json!({"a": [1, 2, 3], "b": {"c": 1}});
        assert!(remove(&mut value, &["a".into(), "1".into()]));
        assert!(remove(&mut value, &["b".into(), "c".into()]));
        assert!(!remove(&mut value, &["b".into(), "c".into()]));
        assert!(!remove(&mut value, &[]));
        assert_eq!(value, json!({"a": [1, 3], "b": {}}));
    }
}
