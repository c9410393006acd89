//! Shrinking a disagreement: the smallest document, found by removing and
//! simplifying one part at a time, on which the two validators still
//! disagree in the same way; and the repairs of a document's skeleton
//! tried before, so that a shrunk document is a fixture of its
//! disagreement and not of a missing `info` as well.

use serde_json::{Value, json};

use super::disagreement::PRIMITIVE_COLLECTIONS;

use super::mutation::{get_mut, remove, walk};

/// The most times a shrink asks whether a candidate still disagrees: a
/// bound on the time one disagreement may take, far above what the
/// suite's documents need.
const MAX_TRIES: usize = 20_000;

/// Every path in `value`, level by level: parents before children, and
/// the members of one level in order.
fn paths(value: &Value) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    walk(value, &mut Vec::new(), &mut |path, _| {
        found.push(path.to_vec())
    });
    // A stable sort of the depth-first order by depth is breadth-first.
    found.sort_by_key(Vec::len);
    found
}

fn node<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(value, |node, token| match node {
        Value::Object(members) => members.get(token),
        Value::Array(items) => items.get(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Simpler values to put in the place of `value`, simplest first.
fn simpler(value: &Value) -> Vec<Value> {
    match value {
        Value::Object(members) if !members.is_empty() => vec![Value::Object(Default::default())],
        Value::Array(items) if !items.is_empty() => vec![Value::Array(Vec::new())],
        Value::String(text) if text.chars().count() > 1 => {
            vec![Value::String(String::new()), Value::String("a".into())]
        }
        _ => Vec::new(),
    }
}

/// The value a Component Reference object (`{"$componentRef": "#/..."}`,
/// Section 12's form) points to in `document`, when it resolves to a
/// value that holds no reference itself.
///
/// Putting that value in the reference's place lets the shrink drop a
/// chain of components (`Form` referring to `form` referring to
/// `ShelfForm`) that no removal can take apart, since removing any link
/// leaves a dangling reference. Only reference-free targets are inlined,
/// so each inlining removes one reference and the shrink ends, also on
/// cyclic components.
fn inlined(document: &Value, value: &Value) -> Option<Value> {
    let Value::Object(members) = value else {
        return None;
    };
    let pointer = members.get("$componentRef")?.as_str()?.strip_prefix('#')?;
    let target = document.pointer(pointer)?;
    let mut referring = false;
    walk(target, &mut Vec::new(), &mut |path, _| {
        referring |= path.last().is_some_and(|token| token == "$componentRef");
    });
    (!referring).then(|| target.clone())
}

/// What a shrink came to.
#[derive(Debug, Clone, PartialEq)]
pub struct Shrunk {
    /// The smallest document found.
    pub document: Value,
    /// Whether the shrink went to its end; `false` when `stop` cut it
    /// short, so that the document may not be the smallest.
    pub complete: bool,
}

/// The smallest document reached from `document` by removing members and
/// elements (parents first) and simplifying values (an empty object, array
/// or string, or a reference replaced by what it points to), one change at a time,
/// each kept only when `keeps` says the candidate still disagrees in the
/// same way. `keeps(document)` is assumed. `stop` is asked before each
/// candidate: once it says so, the shrink ends with what it has (a
/// signal, or the run's time running out, must not wait for a shrink
/// that asks a slow validator thousands of times).
pub fn shrink(
    document: Value,
    keeps: &mut dyn FnMut(&Value) -> bool,
    stop: &dyn Fn() -> bool,
) -> Shrunk {
    let mut current = document;
    let mut tries = 0;
    let cut = |document| Shrunk {
        document,
        complete: false,
    };
    let done = |document| Shrunk {
        document,
        complete: true,
    };
    loop {
        let mut changed = false;
        // Removals: a pass over the places, parents first; after a removal
        // the places are listed again and the pass goes on where it was.
        let mut at = 1; // 0 is the root
        loop {
            let places = paths(&current);
            let Some(path) = places.get(at) else { break };
            if stop() {
                return cut(current);
            }
            let mut candidate = current.clone();
            tries += 1;
            if remove(&mut candidate, path) && keeps(&candidate) {
                current = candidate;
                changed = true;
            } else {
                at += 1;
            }
            if tries >= MAX_TRIES {
                return done(current);
            }
        }
        // Simplifications, once removals find nothing more.
        for path in paths(&current) {
            let Some(value) = node(&current, &path) else {
                continue;
            };
            let replacements = simpler(value).into_iter().chain(inlined(&current, value));
            for replacement in replacements {
                if stop() {
                    return cut(current);
                }
                let mut candidate = current.clone();
                if let Some(slot) = get_mut(&mut candidate, &path) {
                    *slot = replacement;
                }
                tries += 1;
                if keeps(&candidate) {
                    current = candidate;
                    changed = true;
                    break;
                }
            }
            if tries >= MAX_TRIES {
                return done(current);
            }
        }
        if !changed {
            return done(current);
        }
    }
}

/// One change that mends a document's skeleton: `value` put at `path`
/// (a member added or replaced).
#[derive(Debug, Clone, PartialEq)]
pub struct Repair {
    /// Where, as tokens: the member's object, then its name.
    pub path: Vec<String>,
    /// What is put there.
    pub value: Value,
}

impl Repair {
    /// `document` with the repair made; as it is when the place's parent
    /// is not an object.
    pub fn applied(&self, document: &Value) -> Value {
        let mut changed = document.clone();
        if let Some((name, parent)) = self.path.split_last()
            && let Some(Value::Object(members)) = get_mut(&mut changed, parent)
        {
            members.insert(name.clone(), self.value.clone());
        }
        changed
    }
}

fn is_text(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|text| !text.is_empty())
}

/// The identity members of a primitive of `collection` with a value to
/// give each that is missing or of the wrong type, as `mcpdesc.primitive.shape`
/// requires them.
fn identity(collection: &str) -> Vec<(&'static str, Value)> {
    let name = |text: &str| ("name", json!(text));
    match collection {
        "tools" => vec![
            name("example-tool"),
            ("inputSchema", json!({"type": "object"})),
        ],
        "resources" => vec![
            ("uri", json!("file:///example.txt")),
            name("example-resource"),
        ],
        "resourceTemplates" => vec![
            ("uriTemplate", json!("file:///{name}.txt")),
            name("example-template"),
        ],
        _ => vec![name("example-prompt")],
    }
}

/// The repairs a document's skeleton may need, in order: the root members
/// `mcpdesc`, `info` (with `name` and `version`) and `protocolVersions` (a
/// list of `revision`, the one the disagreement shows under; an empty list
/// validates under every revision and hides which one it is about), the
/// identity members of each primitive, and the `name` and `message` of
/// each Elicitation Declaration, each where it is missing or of the wrong
/// type. Each is tried on its own and kept only when the disagreement
/// stays and nothing agreed is added: when the disagreement is about that
/// member, it stays broken.
pub fn repairs(document: &Value, revision: &str, specification: &str) -> Vec<Repair> {
    let mut found = Vec::new();
    let Value::Object(root) = document else {
        return found;
    };
    let mut put = |path: &[&str], value: Value| {
        found.push(Repair {
            path: path.iter().map(|token| (*token).to_owned()).collect(),
            value,
        });
    };
    if !root.get("mcpdesc").is_some_and(Value::is_string) {
        put(&["mcpdesc"], json!(specification));
    }
    match root.get("info") {
        Some(Value::Object(info)) => {
            if !is_text(info.get("name")) {
                put(&["info", "name"], json!("example-server"));
            }
            if !is_text(info.get("version")) {
                put(&["info", "version"], json!("1.0.0"));
            }
        }
        _ => put(
            &["info"],
            json!({"name": "example-server", "version": "1.0.0"}),
        ),
    }
    let scoped = root
        .get("protocolVersions")
        .and_then(Value::as_array)
        .is_some_and(|list| !list.is_empty());
    if !scoped {
        put(&["protocolVersions"], json!([revision]));
    }
    for collection in PRIMITIVE_COLLECTIONS {
        let Some(items) = root.get(collection).and_then(Value::as_array) else {
            continue;
        };
        for (at, primitive) in items.iter().enumerate() {
            let Some(primitive) = primitive.as_object() else {
                continue;
            };
            let at = at.to_string();
            for (member, value) in identity(collection) {
                let fits = match member {
                    "inputSchema" => primitive.get(member).is_some_and(Value::is_object),
                    _ => primitive.get(member).is_some_and(Value::is_string),
                };
                if !fits {
                    put(&[collection, &at, member], value);
                }
            }
            let Some(declarations) = primitive.get("elicitations").and_then(Value::as_array) else {
                continue;
            };
            for (place, declaration) in declarations.iter().enumerate() {
                let Some(declaration) = declaration.as_object() else {
                    continue;
                };
                let place_text = place.to_string();
                let path = [collection, at.as_str(), "elicitations", place_text.as_str()];
                if !declaration.get("name").is_some_and(Value::is_string) {
                    // Names are unique within a primitive.
                    let name = format!("confirm-{place}");
                    put(&[&path[..], &["name"]].concat(), json!(name));
                }
                if !is_text(declaration.get("message")) {
                    put(
                        &[&path[..], &["message"]].concat(),
                        json!("Please confirm."),
                    );
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_only_what_the_property_needs() {
        let document = json!({
            "a": [1, 2, {"bad": "value", "other": [3, 4]}],
            "b": {"c": "long text", "d": null},
            "e": "x"
        });
        // "Disagrees" while some object holds `bad`.
        let mut keeps = |value: &Value| value.to_string().contains("\"bad\"");
        let shrunk = shrink(document, &mut keeps, &|| false);
        assert_eq!(shrunk.document, json!({"a": [{"bad": ""}]}));
        assert!(shrunk.complete);
    }

    #[test]
    fn a_document_nothing_can_be_taken_from_stays() {
        let document = json!({"k": 1});
        let mut keeps = |value: &Value| value == &json!({"k": 1});
        assert_eq!(
            shrink(document.clone(), &mut keeps, &|| false).document,
            document
        );
    }

    #[test]
    fn a_stop_ends_the_shrink_with_what_it_has_and_says_so() {
        let document = json!({"a": 1, "b": 2, "c": 3, "d": 4});
        let asked = std::cell::Cell::new(0);
        let mut keeps = |_: &Value| {
            asked.set(asked.get() + 1);
            true
        };
        // Two candidates, then a stop.
        let shrunk = shrink(document, &mut keeps, &|| asked.get() >= 2);
        assert!(!shrunk.complete);
        assert_eq!(asked.get(), 2);
        assert_eq!(shrunk.document, json!({"c": 3, "d": 4}));
    }

    /// A skeleton missing `info`, the Tool's `inputSchema` and a
    /// declaration's `message`, with an empty root scope, is mended member
    /// by member; what is whole is left alone.
    #[test]
    fn repairs_mend_the_skeleton_and_only_what_is_broken() {
        let document = json!({
            "mcpdesc": "0.9.0",
            "protocolVersions": [],
            "tools": [{"name": "t", "elicitations": [{"name": "n", "mode": "form"}]}],
            "prompts": [{"name": "p"}]
        });
        let found = repairs(&document, "2025-06-18", "0.9.0");
        let paths: Vec<String> = found.iter().map(|repair| repair.path.join("/")).collect();
        assert_eq!(
            paths,
            [
                "info",
                "protocolVersions",
                "tools/0/inputSchema",
                "tools/0/elicitations/0/message"
            ]
        );
        let mended = found
            .iter()
            .fold(document, |document, repair| repair.applied(&document));
        assert_eq!(mended["protocolVersions"], json!(["2025-06-18"]));
        assert_eq!(mended["info"]["name"], "example-server");
        assert_eq!(mended["tools"][0]["inputSchema"], json!({"type": "object"}));
        assert_eq!(mended["tools"][0]["name"], "t");
        assert!(repairs(&mended, "2025-06-18", "0.9.0").is_empty());
    }

    /// A chain of references that no removal can break is inlined link by
    /// link, innermost first, and the components it left go; a cycle of
    /// references is never inlined, so the shrink ends.
    #[test]
    fn a_chain_of_references_is_inlined_and_its_components_dropped() {
        let document = json!({
            "use": {"$componentRef": "#/components/schemas/A"},
            "components": {"schemas": {
                "A": {"$componentRef": "#/components/schemas/B"},
                "B": {"type": "object", "title": "kept"},
                "C": {"$componentRef": "#/components/schemas/D"},
                "D": {"items": {"$componentRef": "#/components/schemas/C"}}
            }}
        });
        // "Disagrees" while `use` resolves, through any references, to the
        // object titled `kept`.
        let mut keeps = |value: &Value| {
            let mut at = &value["use"];
            for _ in 0..8 {
                match at.get("$componentRef").and_then(Value::as_str) {
                    Some(reference) => match value.pointer(reference.trim_start_matches('#')) {
                        Some(target) => at = target,
                        None => return false,
                    },
                    None => break,
                }
            }
            at.get("title") == Some(&json!("kept"))
        };
        let shrunk = shrink(document, &mut keeps, &|| false);
        assert_eq!(shrunk.document, json!({"use": {"title": "kept"}}));
        assert!(shrunk.complete);
        let cycle = json!({"$componentRef": "#/D"});
        let document = json!({"D": {"items": {"$componentRef": "#/D"}}});
        assert_eq!(inlined(&document, &cycle), None);
    }

    #[test]
    fn parents_come_before_children() {
        let listed = paths(&json!({"a": {"b": [1]}, "c": 2}));
        let lengths: Vec<usize> = listed.iter().map(Vec::len).collect();
        assert_eq!(lengths, [0, 1, 1, 2, 3]);
    }
}
