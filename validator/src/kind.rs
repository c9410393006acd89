//! The `type` member that selects the table an object is judged by:
//! Transport Objects (Section 6.2) and Security Scheme Objects (Section 7.2).

use serde_json::{Map, Value};

use crate::pointer::Pointer;
use crate::report::Report;

/// Records that the `type` of `object` (at `at`, a `what` such as a
/// transport) names none of `kinds`: at the object when `type` is
/// missing, at `type` otherwise. Transports and security schemes are
/// judged by their kind's table, so one with no kind is reported there
/// alone.
pub(crate) fn unknown_kind(
    report: &mut Report,
    rule: &'static str,
    object: &Map<String, Value>,
    at: &Pointer,
    what: &str,
    kinds: &[&str],
) {
    let (place, message) = match object.get("type") {
        None => (at.clone(), "`type` is missing".to_owned()),
        Some(Value::String(name)) => {
            let quoted: Vec<String> = kinds.iter().map(|kind| format!("`{kind}`")).collect();
            let listed = match quoted.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            };
            (
                at.key("type"),
                format!("`{name}` is not a {what} type: {listed}"),
            )
        }
        Some(_) => (at.key("type"), "`type` must be a string".to_owned()),
    };
    report.error(rule, &place, message);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// An unknown kind is reported at `type` with the kinds listed, a
    /// missing `type` at the object, and a `type` of another JSON type at
    /// `type`.
    #[test]
    fn an_unknown_kind_names_the_kinds_there_are() {
        let at = Pointer::root().key("transports").index(0);
        let reported = |object: serde_json::Value, kinds: &[&str]| {
            let mut report = Report::default();
            unknown_kind(
                &mut report,
                "r",
                object.as_object().unwrap(),
                &at,
                "transport",
                kinds,
            );
            let found = report.finish();
            assert_eq!(found.len(), 1, "{found:?}");
            (
                found[0].path.clone(),
                found[0].message.clone().unwrap_or_default(),
            )
        };
        let cases = [
            (
                json!({"type": "ws"}),
                &["a", "b", "c"][..],
                "/transports/0/type",
                "`ws` is not a transport type: `a`, `b` or `c`",
            ),
            (json!({}), &["a"][..], "/transports/0", "`type` is missing"),
            (
                json!({"type": 7}),
                &["a"][..],
                "/transports/0/type",
                "`type` must be a string",
            ),
            (
                json!({"type": "x"}),
                &["only"][..],
                "/transports/0/type",
                "`x` is not a transport type: `only`",
            ),
        ];
        for (object, kinds, path, message) in cases {
            assert_eq!(
                reported(object, kinds),
                (path.to_owned(), message.to_owned())
            );
        }
    }
}
