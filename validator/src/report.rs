//! The findings of one validation run, collected as the rules report them.

use mcpdesc_protocol::{Diagnostic, Severity};
use serde_json::{Map, Value};

use crate::pointer::Pointer;

/// Diagnostics gathered from every rule, in the order they were found.
#[derive(Debug, Default)]
pub(crate) struct Report {
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Records that `rule` is broken at `at`.
    pub(crate) fn error(&mut self, rule: &'static str, at: &Pointer, message: impl Into<String>) {
        self.push(rule, at, Severity::Error, message.into());
    }

    /// Records a warning of `rule` at `at`.
    pub(crate) fn warning(&mut self, rule: &'static str, at: &Pointer, message: impl Into<String>) {
        self.push(rule, at, Severity::Warning, message.into());
    }

    /// Records that the `type` of `object` (at `at`, a `what` such as a
    /// transport) names none of `kinds`: at the object when `type` is
    /// missing, at `type` otherwise. Transports and security schemes are
    /// judged by their kind's table, so one with no kind is reported there
    /// alone.
    pub(crate) fn unknown_kind(
        &mut self,
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
        self.error(rule, &place, message);
    }

    fn push(&mut self, rule: &'static str, at: &Pointer, severity: Severity, message: String) {
        self.diagnostics
            .push(Diagnostic::new(rule, at.as_str(), severity).with_message(message));
    }

    /// The findings sorted by (rule, path, severity), each triple once.
    pub(crate) fn finish(mut self) -> Vec<Diagnostic> {
        self.diagnostics
            .sort_by(|a, b| (&a.rule, &a.path, a.severity).cmp(&(&b.rule, &b.path, b.severity)));
        self.diagnostics.dedup_by(|later, earlier| {
            later.rule == earlier.rule
                && later.path == earlier.path
                && later.severity == earlier.severity
        });
        self.diagnostics
    }
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
        let mut report = Report::default();
        for object in [json!({"type": "ws"}), json!({}), json!({"type": 7})] {
            let object = object.as_object().unwrap();
            report.unknown_kind("r", object, &at, "transport", &["a", "b", "c"]);
        }
        let one = json!({"type": "x"});
        report.unknown_kind("s", one.as_object().unwrap(), &at, "scheme", &["only"]);
        let found: Vec<(String, String)> = report
            .diagnostics
            .iter()
            .map(|d| (d.path.clone(), d.message.clone().unwrap_or_default()))
            .collect();
        let expected = [
            (
                "/transports/0/type",
                "`ws` is not a transport type: `a`, `b` or `c`",
            ),
            ("/transports/0", "`type` is missing"),
            ("/transports/0/type", "`type` must be a string"),
            ("/transports/0/type", "`x` is not a scheme type: `only`"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(path, message)| ((*path).to_owned(), (*message).to_owned()))
            .collect();
        assert_eq!(found, expected);
    }
}
