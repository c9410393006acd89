//! Comparing JSON values the way the rules need: as JSON, without recursion;
//! and the one check many member tables share, a map whose values all have
//! one type.
//!
//! Documents are untrusted and may nest arbitrarily deep, so nothing here
//! recurses on the document's structure.

use std::cmp::Ordering;
use std::collections::HashSet;

use serde_json::{Number, Value};

use crate::pointer::Pointer;
use crate::report::Report;

/// Whether `member` names a specification extension (Sections 3.7 and
/// 14.1): it starts with `x-`, compared case-sensitively, so `X-a` is an
/// ordinary (and, on a closed object, unknown) member.
pub(crate) fn is_extension(member: &str) -> bool {
    member.starts_with("x-")
}

/// Checks for `rule` that `value`, at `at`, is an object whose every value
/// `fits`: one that is no object is reported at `at` with `not_object`, and
/// each value that does not fit at `<at>/<key>` with `misfit`.
pub(crate) fn check_map_of(
    value: &Value,
    at: &Pointer,
    fits: fn(&Value) -> bool,
    rule: &'static str,
    [not_object, misfit]: [&str; 2],
    report: &mut Report,
) {
    let Value::Object(entries) = value else {
        report.error(rule, at, not_object);
        return;
    };
    for (key, entry) in entries {
        if !fits(entry) {
            report.error(rule, &at.key(key), misfit);
        }
    }
}

/// Whether `text` matches the RFC 3986 `URI` rule: a scheme, ASCII only,
/// percent signs followed by two hex digits; a fragment is allowed. The URI
/// is only parsed, never accessed.
pub(crate) fn is_uri(text: &str) -> bool {
    fluent_uri::Uri::parse(text).is_ok()
}

/// Whether `name` is a local name, `^[A-Za-z0-9._-]+$` matched against
/// the whole name: Elicitation Declaration names (Section 12.2) and
/// component names (Section 17.1).
pub(crate) fn is_local_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Whether `value` is an array whose entries are all strings (the
/// specification's `array<string>`).
pub(crate) fn is_string_array(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|entries| entries.iter().all(Value::is_string))
}

/// Whether two JSON values are equal as JSON: numbers by mathematical value
/// (`1` equals `1.0`), objects regardless of member order.
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) if compare(x, y) == Some(Ordering::Equal) => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (name, value) in x {
                    match y.get(name) {
                        Some(other) => pending.push((value, other)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// Compares two JSON numbers by value; `None` only for incomparable floats.
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return Some(x.cmp(&y));
    }
    // One is a float, or one is negative and the other above `i64::MAX`.
    match (a.as_u64(), b.as_i64(), a.as_i64(), b.as_u64()) {
        (Some(_), Some(_), None, None) => return Some(Ordering::Greater),
        (None, None, Some(_), Some(_)) => return Some(Ordering::Less),
        _ => {}
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

/// A set of JSON values that answers "is this value one of them?".
///
/// Strings, by far the common case, are looked up in a hash set; other values
/// are compared one by one.
#[derive(Debug, Default)]
pub(crate) struct Choices<'a> {
    strings: HashSet<&'a str>,
    others: Vec<&'a Value>,
}

impl<'a> Choices<'a> {
    /// Adds one value to the set.
    pub(crate) fn insert(&mut self, value: &'a Value) {
        match value {
            Value::String(text) => {
                self.strings.insert(text);
            }
            other => self.others.push(other),
        }
    }

    /// Whether `value` equals one of the values in the set.
    pub(crate) fn contains(&self, value: &Value) -> bool {
        match value {
            Value::String(text) => self.strings.contains(text.as_str()),
            other => self.others.iter().any(|choice| same(choice, other)),
        }
    }
}

impl<'a> FromIterator<&'a Value> for Choices<'a> {
    fn from_iter<I: IntoIterator<Item = &'a Value>>(values: I) -> Self {
        let mut choices = Choices::default();
        for value in values {
            choices.insert(value);
        }
        choices
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        assert!(same(&json!(1), &json!(1.0)));
        assert!(!same(&json!(1), &json!(2)));
        let big = json!(u64::MAX);
        let negative = json!(-1);
        let (Value::Number(big), Value::Number(negative)) = (&big, &negative) else {
            unreachable!()
        };
        assert_eq!(compare(big, negative), Some(Ordering::Greater));
        assert_eq!(compare(negative, big), Some(Ordering::Less));
    }

    #[test]
    fn objects_ignore_member_order() {
        assert!(same(
            &json!({"a": 1, "b": [true]}),
            &json!({"b": [true], "a": 1})
        ));
        assert!(!same(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!same(&json!({"a": 1, "c": 2}), &json!({"a": 1, "b": 2})));
        assert!(!same(&json!([1, 2]), &json!([2, 1])));
        assert!(!same(&json!("1"), &json!(1)));
    }

    #[test]
    fn deep_values_do_not_recurse() {
        let mut a = json!(0);
        let mut b = json!(0);
        for _ in 0..10_000 {
            a = Value::Array(vec![a]);
            b = Value::Array(vec![b]);
        }
        assert!(same(&a, &b));
        // Take the values apart iteratively: dropping them whole would recurse.
        for value in [a, b] {
            let mut value = value;
            while let Value::Array(mut items) = value {
                value = items.pop().unwrap_or(Value::Null);
            }
        }
    }

    #[test]
    fn choices_hold_strings_and_other_values() {
        let values = [json!("a"), json!(2), json!({"k": null})];
        let choices: Choices<'_> = values.iter().collect();
        assert!(choices.contains(&json!("a")));
        assert!(choices.contains(&json!(2.0)));
        assert!(choices.contains(&json!({"k": null})));
        assert!(!choices.contains(&json!("b")));
        assert!(!choices.contains(&json!(null)));
    }
}
