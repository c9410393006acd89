//! Shrinking a disagreement: the smallest document, found by removing and
//! simplifying one part at a time, on which the two validators still
//! disagree in the same way.

use serde_json::Value;

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
/// elements (parents first) and simplifying values, one change at a time,
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
            for replacement in simpler(value) {
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

    #[test]
    fn parents_come_before_children() {
        let listed = paths(&json!({"a": {"b": [1]}, "c": 2}));
        let lengths: Vec<usize> = listed.iter().map(Vec::len).collect();
        assert_eq!(lengths, [0, 1, 1, 2, 3]);
    }
}
