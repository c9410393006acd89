//! Reading what an external validator writes: strict decoding of `start`
//! replies and case replies, with explanations in plain words.
//!
//! Every error says what was wrong and what the contract expects, because
//! adapter authors read these (in failure reports and in `smoke`).

use mcpdesc_protocol::{
    Diagnostic, Implementation, PROTOCOL_VERSION, Reply, Severity, Skip, ValidatorError,
};
use std::cell::Cell;

use serde_json::{Map, Value};

use crate::outcome::failure::{DiagnosticProblem, Line, PointerProblem, WireError};

/// Decodes the reply to `start`.
///
/// # Errors
///
/// What is wrong with the line.
pub fn decode_start(line: &str) -> Result<Implementation, WireError> {
    let object = object_of(line, Line::Start)?;
    match object.get("protocol") {
        Some(Value::Number(number)) if number.as_u64() == Some(u64::from(PROTOCOL_VERSION)) => {}
        Some(other) => {
            return Err(WireError::WrongProtocol {
                given: other.to_string(),
            });
        }
        None => return Err(WireError::NoProtocol),
    }
    let implementation = object
        .get("implementation")
        .ok_or(WireError::NoImplementation)?;
    let implementation: Implementation =
        serde_json::from_value(implementation.clone()).map_err(|error| {
            WireError::BadImplementation {
                error: error.to_string(),
            }
        })?;
    if implementation.revisions.is_empty() {
        return Err(WireError::NoRevisions);
    }
    Ok(implementation)
}

/// The most diagnostics a reply may carry unless the run says otherwise.
pub const DEFAULT_MAX_DIAGNOSTICS: usize = 10_000;

/// Decodes a reply to one case, carrying at most
/// [`DEFAULT_MAX_DIAGNOSTICS`] diagnostics. In session mode `seq` is the
/// request's sequence number, which the reply must echo; one-shot replies
/// have none.
///
/// # Errors
///
/// What is wrong with the reply.
pub fn decode_reply(text: &str, seq: Option<u64>) -> Result<Reply, WireError> {
    decode_reply_within(text, seq, DEFAULT_MAX_DIAGNOSTICS)
}

/// Decodes a reply to one case, as [`decode_reply`] does, refusing a reply
/// with more than `max_diagnostics` diagnostics. Decoding stops at the first
/// diagnostic beyond the limit, so an enormous reply costs no more memory
/// than the limit allows.
///
/// # Errors
///
/// What is wrong with the reply.
pub(crate) fn decode_reply_within(
    text: &str,
    seq: Option<u64>,
    max_diagnostics: usize,
) -> Result<Reply, WireError> {
    let object = bounded_object_of(text, max_diagnostics)?;
    if let Some(expected) = seq {
        match seq_of(&object) {
            Seq::Missing => return Err(WireError::NoSeq { expected }),
            Seq::Number(given) if given == expected => {}
            Seq::Number(_) | Seq::Other(_) => {
                return Err(WireError::WrongSeq {
                    expected,
                    given: object["seq"].to_string(),
                });
            }
        }
    }
    decode_answer(&object)
}

/// The `seq` of a session reply, as far as it can be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seq {
    /// There is none.
    Missing,
    /// A plain non-negative integer.
    Number(u64),
    /// Something else, as JSON.
    Other(String),
}

fn seq_of(object: &Map<String, Value>) -> Seq {
    match object.get("seq") {
        None => Seq::Missing,
        Some(Value::Number(number)) if number.as_u64().is_some() => {
            Seq::Number(number.as_u64().unwrap_or_default())
        }
        Some(other) => Seq::Other(other.to_string()),
    }
}

/// Decodes a session reply when several requests may be in flight: its
/// `seq`, which tells whose reply it is, and apart from it the answer (or
/// what is wrong with it), so that a malformed answer is charged to the
/// request it names.
///
/// # Errors
///
/// What is wrong with the line when it is not a reply object at all (not
/// JSON, not an object, too many diagnostics): then it names no request.
#[cfg(feature = "external")]
pub(crate) fn decode_session_reply(
    text: &str,
    max_diagnostics: usize,
) -> Result<(Seq, Result<Reply, WireError>), WireError> {
    if let Some(common) = common_reply(text, max_diagnostics) {
        return Ok(common);
    }
    let object = bounded_object_of(text, max_diagnostics)?;
    Ok((seq_of(&object), decode_answer(&object)))
}

/// A session reply in its common form, read in one pass: a plain `seq` and
/// `diagnostics` that all pass the checks, and neither `skipped` nor
/// `error`. Anything else (a duplicate key, a bad diagnostic, more than
/// `max_diagnostics`) gives `None`, and the strict reading above, which
/// explains what is wrong, decides: this only skips building the reply as
/// a JSON value first, the costliest part of reading a good reply.
#[cfg(feature = "external")]
fn common_reply(text: &str, max_diagnostics: usize) -> Option<(Seq, Result<Reply, WireError>)> {
    /// Whether a member is there, whatever its value (even `null`).
    #[derive(Default)]
    struct Present(bool);

    impl<'de> serde::Deserialize<'de> for Present {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            serde::de::IgnoredAny::deserialize(deserializer).map(|_| Present(true))
        }
    }

    #[derive(serde::Deserialize)]
    struct CommonReply {
        seq: u64,
        diagnostics: Vec<CommonDiagnostic>,
        #[serde(default)]
        skipped: Present,
        #[serde(default)]
        error: Present,
    }

    #[derive(serde::Deserialize)]
    struct CommonDiagnostic {
        rule: String,
        path: String,
        severity: Severity,
        #[serde(default)]
        message: Option<String>,
    }

    let reply: CommonReply = serde_json::from_str(text).ok()?;
    if reply.skipped.0 || reply.error.0 || reply.diagnostics.len() > max_diagnostics {
        return None;
    }
    let diagnostics = reply
        .diagnostics
        .into_iter()
        .map(|diagnostic| {
            check_pointer(&diagnostic.path).ok()?;
            Some(Diagnostic {
                rule: diagnostic.rule,
                path: diagnostic.path,
                severity: diagnostic.severity,
                message: diagnostic.message,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((Seq::Number(reply.seq), Ok(Reply::Diagnostics(diagnostics))))
}

/// The one answer of a case reply: `diagnostics`, `skipped` or `error`.
fn decode_answer(object: &Map<String, Value>) -> Result<Reply, WireError> {
    let present: Vec<&'static str> = ["diagnostics", "skipped", "error"]
        .into_iter()
        .filter(|key| object.contains_key(*key))
        .collect();
    match present.as_slice() {
        ["diagnostics"] => decode_diagnostics(&object["diagnostics"]).map(Reply::Diagnostics),
        ["skipped"] => {
            let skip: Skip =
                serde_json::from_value(object["skipped"].clone()).map_err(|error| {
                    WireError::BadSkip {
                        error: error.to_string(),
                    }
                })?;
            Ok(Reply::Skipped(skip))
        }
        ["error"] => {
            let error: ValidatorError =
                serde_json::from_value(object["error"].clone()).map_err(|error| {
                    WireError::BadError {
                        error: error.to_string(),
                    }
                })?;
            Ok(Reply::Error(error))
        }
        [] => Err(WireError::NoAnswer),
        _ => Err(WireError::SeveralAnswers { keys: present }),
    }
}

fn object_of(text: &str, line: Line) -> Result<Map<String, Value>, WireError> {
    let value: Value = serde_json::from_str(text).map_err(|error| WireError::NotJson {
        line,
        error: error.to_string(),
        excerpt: excerpt(text),
    })?;
    match value {
        Value::Object(object) => Ok(object),
        other => Err(WireError::NotAnObject {
            line,
            kind: kind(&other),
            excerpt: excerpt(text),
        }),
    }
}

/// Parses a reply line into its members, keeping at most `max_diagnostics`
/// items of its `diagnostics` array: decoding stops at the first one beyond.
fn bounded_object_of(text: &str, max_diagnostics: usize) -> Result<Map<String, Value>, WireError> {
    let refusal = Cell::new(None);
    let seed = BoundedReply {
        max_diagnostics,
        refusal: &refusal,
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed = serde::de::DeserializeSeed::deserialize(seed, &mut deserializer)
        .and_then(|object| deserializer.end().map(|()| object));
    match (parsed, refusal.get()) {
        (Ok(object), _) => Ok(object),
        (Err(_), Some(Refusal::TooMany)) => Err(WireError::TooManyDiagnostics {
            limit: max_diagnostics,
        }),
        (Err(_), Some(Refusal::NotAnObject(kind))) => Err(WireError::NotAnObject {
            line: Line::Reply,
            kind,
            excerpt: excerpt(text),
        }),
        (Err(error), None) => Err(WireError::NotJson {
            line: Line::Reply,
            error: error.to_string(),
            excerpt: excerpt(text),
        }),
    }
}

/// Why [`BoundedReply`] stopped decoding, beside the decoder's own errors.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    /// `diagnostics` has more items than allowed.
    TooMany,
    /// The reply is JSON of this kind, not an object.
    NotAnObject(&'static str),
}

/// Deserializes a reply object, counting the items of `diagnostics` as
/// they come.
struct BoundedReply<'a> {
    max_diagnostics: usize,
    refusal: &'a Cell<Option<Refusal>>,
}

impl BoundedReply<'_> {
    fn refuse<T, E: serde::de::Error>(&self, kind: &'static str) -> Result<T, E> {
        self.refusal.set(Some(Refusal::NotAnObject(kind)));
        Err(E::custom("not an object"))
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for BoundedReply<'_> {
    type Value = Map<String, Value>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        // `any`, not `map`: so that a reply of another kind reaches the
        // visitor, which names the kind.
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for BoundedReply<'_> {
    type Value = Map<String, Value>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a reply object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut access: A,
    ) -> Result<Self::Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = if key == "diagnostics" {
                access.next_value_seed(BoundedArray {
                    max: self.max_diagnostics,
                    refusal: self.refusal,
                })?
            } else {
                access.next_value::<Value>()?
            };
            object.insert(key, value);
        }
        Ok(object)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        self.refuse("array")
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Self::Value, E> {
        self.refuse("string")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Self::Value, E> {
        self.refuse("boolean")
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Self::Value, E> {
        self.refuse("number")
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Self::Value, E> {
        self.refuse("number")
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
        self.refuse("number")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        self.refuse("null")
    }
}

/// An array of at most `max` items, or any other JSON value as it is.
struct BoundedArray<'a> {
    max: usize,
    refusal: &'a Cell<Option<Refusal>>,
}

impl<'de> serde::de::DeserializeSeed<'de> for BoundedArray<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for BoundedArray<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = access.next_element::<Value>()? {
            if items.len() == self.max {
                self.refusal.set(Some(Refusal::TooMany));
                return Err(serde::de::Error::custom("too many diagnostics"));
            }
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, access: A) -> Result<Value, A::Error> {
        serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(access))
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

fn decode_diagnostics(value: &Value) -> Result<Vec<Diagnostic>, WireError> {
    let Value::Array(items) = value else {
        return Err(WireError::DiagnosticsNotArray { kind: kind(value) });
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            decode_diagnostic(item).map_err(|problem| WireError::Diagnostic { index, problem })
        })
        .collect()
}

fn decode_diagnostic(value: &Value) -> Result<Diagnostic, DiagnosticProblem> {
    let Value::Object(object) = value else {
        return Err(DiagnosticProblem::NotAnObject(kind(value)));
    };
    let text = |key: &'static str| match object.get(key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(DiagnosticProblem::NotAString {
            key,
            kind: kind(other),
        }),
        None => Err(DiagnosticProblem::Missing(key)),
    };
    let rule = text("rule")?;
    let path = text("path")?;
    if let Err(problem) = check_pointer(&path) {
        return Err(DiagnosticProblem::NotAPointer {
            path: Value::String(path).to_string(),
            problem,
        });
    }
    let severity = match text("severity")?.as_str() {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        other => {
            return Err(DiagnosticProblem::Severity(
                Value::String(other.to_owned()).to_string(),
            ));
        }
    };
    let message = match object.get("message") {
        None | Some(Value::Null) => None,
        Some(Value::String(message)) => Some(message.clone()),
        Some(other) => {
            return Err(DiagnosticProblem::NotAString {
                key: "message",
                kind: kind(other),
            });
        }
    };
    Ok(Diagnostic {
        rule,
        path,
        severity,
        message,
    })
}

/// Whether `pointer` is syntactically an RFC 6901 JSON pointer (whether it
/// resolves is checked later, against the document).
fn check_pointer(pointer: &str) -> Result<(), PointerProblem> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(PointerProblem::NoLeadingSlash);
    }
    let mut chars = pointer.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return Err(PointerProblem::BadEscape);
        }
    }
    Ok(())
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The start of `text`, for quoting in an explanation.
pub(crate) fn excerpt(text: &str) -> String {
    const WIDTH: usize = 120;
    let trimmed = text.trim_end();
    if trimmed.chars().count() > WIDTH {
        format!("{:?}…", trimmed.chars().take(WIDTH).collect::<String>())
    } else {
        format!("{trimmed:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_each_reply_form_and_ignores_unknown_members() {
        let reply = decode_reply(
            r#"{"seq": 3, "extra": 1, "diagnostics": [{"rule": "r", "path": "/a~1b", "severity": "warning", "message": "m"}]}"#,
            Some(3),
        );
        assert_eq!(
            reply,
            Ok(Reply::Diagnostics(vec![
                Diagnostic::new("r", "/a~1b", Severity::Warning).with_message("m")
            ]))
        );
        assert!(matches!(
            decode_reply(r#"{"skipped": {"reason": "no"}}"#, None),
            Ok(Reply::Skipped(_))
        ));
        assert!(matches!(
            decode_reply(r#"{"error": {"message": "x"}}"#, None),
            Ok(Reply::Error(_))
        ));
    }

    #[test]
    fn explains_each_mistake() {
        let cases = [
            ("not json", Some(1), "is not JSON"),
            ("[1]", Some(1), "is a JSON array, not an object"),
            (r#"{"diagnostics": []}"#, Some(1), "has no `seq`"),
            (
                r#"{"seq": 2, "diagnostics": []}"#,
                Some(1),
                "says `\"seq\": 2` but answers the request with `\"seq\": 1`",
            ),
            (
                r#"{"seq": 1}"#,
                Some(1),
                "none of `diagnostics`, `skipped` or `error`",
            ),
            (
                r#"{"seq": 1, "diagnostics": [], "error": {"message": "x"}}"#,
                Some(1),
                "exactly one of",
            ),
            (
                r#"{"seq": 1, "diagnostics": {}}"#,
                Some(1),
                "`diagnostics` is a JSON object, not an array",
            ),
            (
                r#"{"seq": 1, "diagnostics": [{"rule": "r", "path": "tools/0", "severity": "error"}]}"#,
                Some(1),
                "diagnostic 0: `path` \"tools/0\" is not an RFC 6901 JSON pointer",
            ),
            (
                r#"{"seq": 1, "diagnostics": [{"rule": "r", "path": "/a~2", "severity": "error"}]}"#,
                Some(1),
                "`~` must be followed by `0` or `1`",
            ),
            (
                r#"{"seq": 1, "diagnostics": [{"rule": "r", "path": "", "severity": "fatal"}]}"#,
                Some(1),
                "`severity` is \"fatal\"; use \"error\" or \"warning\"",
            ),
            (
                r#"{"seq": 1, "diagnostics": [{"path": ""}]}"#,
                Some(1),
                "diagnostic 0: has no `rule`",
            ),
        ];
        for (line, seq, phrase) in cases {
            let error = decode_reply(line, seq).unwrap_err().to_string();
            assert!(
                error.contains(phrase),
                "{line}\n  gave: {error}\n  wanted: {phrase}"
            );
        }
    }

    #[test]
    fn start_replies_need_protocol_1_and_revisions() {
        let good = r#"{"protocol": 1, "implementation": {"name": "v", "version": "1", "revisions": ["2025-06-18"]}}"#;
        assert_eq!(decode_start(good).unwrap().name, "v");
        let cases = [
            (
                r#"{"protocol": 2, "implementation": {}}"#,
                "this harness speaks protocol 1",
            ),
            (r#"{"implementation": {}}"#, "has no `protocol` member"),
            (r#"{"protocol": 1}"#, "has no `implementation` object"),
            (
                r#"{"protocol": 1, "implementation": {"name": "v", "version": "1"}}"#,
                "lists no `revisions`",
            ),
            ("ready", "is not JSON"),
        ];
        for (line, phrase) in cases {
            let error = decode_start(line).unwrap_err().to_string();
            assert!(
                error.contains(phrase),
                "{line}\n  gave: {error}\n  wanted: {phrase}"
            );
        }
    }

    proptest::proptest! {
        /// Whatever a validator writes, decoding gives a reply or an
        /// explanation; never a panic.
        #[test]
        fn arbitrary_lines_never_panic(line in ".{0,300}", seq in proptest::option::of(0u64..4)) {
            let _ = decode_reply(&line, seq);
            let _ = decode_start(&line);
        }

        /// Lines that look like replies, with every member in doubt.
        #[test]
        fn reply_shaped_lines_never_panic(
            seq in "(1|\"1\"|-1|1.5|null)",
            body in "(\\[\\]|\\{\\}|\\[\\{\"rule\":1\\}\\]|\\[\\{\"rule\":\"r\",\"path\":\"~\",\"severity\":\"error\"\\}\\]|null|\"x\")",
            key in "(diagnostics|skipped|error|other)",
        ) {
            let line = format!("{{\"seq\":{seq},\"{key}\":{body}}}");
            let _ = decode_reply(&line, Some(1));
        }
    }
}

#[cfg(all(test, feature = "external"))]
mod common {
    use super::*;

    /// The strict reading alone, as before the common form was read apart.
    fn strict(text: &str, max: usize) -> Result<(Seq, Result<Reply, WireError>), WireError> {
        let object = bounded_object_of(text, max)?;
        Ok((seq_of(&object), decode_answer(&object)))
    }

    #[test]
    fn the_common_form_reads_as_the_strict_reading_does_and_only_it() {
        let read_apart = [
            r#"{"seq": 4, "diagnostics": []}"#,
            r#"{"diagnostics": [{"rule": "r", "path": "", "severity": "error"}], "seq": 4}"#,
            r#"{"seq": 4, "extra": {"x": [1]}, "diagnostics": [{"rule": "r", "path": "/a~1b/0", "severity": "warning", "message": "m", "more": 1}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "ré", "path": "/a", "severity": "error", "message": null}]}"#,
        ];
        let left_to_strict = [
            r#"{"seq": 4, "diagnostics": [], "skipped": null}"#,
            r#"{"seq": 4, "diagnostics": [], "error": {"message": "m"}}"#,
            r#"{"seq": 4, "seq": 5, "diagnostics": []}"#,
            r#"{"seq": 4.0, "diagnostics": []}"#,
            r#"{"seq": -4, "diagnostics": []}"#,
            r#"{"seq": "4", "diagnostics": []}"#,
            r#"{"diagnostics": []}"#,
            r#"{"seq": 4, "diagnostics": {}}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "r", "path": "a", "severity": "error"}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "r", "path": "/~2", "severity": "error"}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "r", "path": "/a", "severity": "Error"}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": 1, "path": "/a", "severity": "error"}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "r", "path": "/a", "severity": "error", "message": 2}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "r", "rule": "s", "path": "/a", "severity": "error"}]}"#,
            r#"{"seq": 4, "diagnostics": [{"rule": "r", "path": "/a", "severity": "error"}, {"rule": "r", "path": "/b", "severity": "error"}, {"rule": "r", "path": "/c", "severity": "error"}]}"#,
            r#"{"seq": 4, "skipped": {"reason": "no"}}"#,
            r#"{"seq": 4, "diagnostics": []} x"#,
            "[]",
        ];
        for text in read_apart {
            let common = common_reply(text, 2);
            assert!(common.is_some(), "{text}");
            assert_eq!(Ok(common.unwrap()), strict(text, 2), "{text}");
            assert_eq!(decode_session_reply(text, 2), strict(text, 2), "{text}");
        }
        for text in left_to_strict {
            assert!(common_reply(text, 2).is_none(), "{text}");
            assert_eq!(decode_session_reply(text, 2), strict(text, 2), "{text}");
        }
    }
}

#[cfg(test)]
mod limits {
    use super::*;

    fn reply_with(count: usize) -> String {
        let diagnostic = r#"{"rule": "r", "path": "/a", "severity": "error"}"#;
        format!(
            r#"{{"seq": 1, "diagnostics": [{}]}}"#,
            vec![diagnostic; count].join(",")
        )
    }

    #[test]
    fn a_reply_at_the_diagnostic_limit_is_accepted_and_one_beyond_is_refused() {
        match decode_reply_within(&reply_with(5), Some(1), 5) {
            Ok(Reply::Diagnostics(diagnostics)) => assert_eq!(diagnostics.len(), 5),
            other => panic!("expected 5 diagnostics, got {other:?}"),
        }
        let error = decode_reply_within(&reply_with(6), Some(1), 5).unwrap_err();
        assert_eq!(error, WireError::TooManyDiagnostics { limit: 5 });
        let error = error.to_string();
        assert!(
            error.contains("more than 5 diagnostics") && error.contains("--max-diagnostics"),
            "{error}"
        );
    }

    #[test]
    fn the_default_limit_is_ten_thousand() {
        assert!(decode_reply(&reply_with(10_000), Some(1)).is_ok());
        assert_eq!(
            decode_reply(&reply_with(10_001), Some(1)),
            Err(WireError::TooManyDiagnostics { limit: 10_000 })
        );
    }

    #[test]
    fn a_reply_that_is_not_an_object_is_named_by_its_kind() {
        for (line, kind) in [
            ("[1, 2]", "array"),
            ("\"x\"", "string"),
            ("7", "number"),
            ("-7", "number"),
            ("1.5", "number"),
            ("true", "boolean"),
            ("null", "null"),
        ] {
            let error = decode_reply(line, None).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!("the reply is a JSON {kind}, not an object")),
                "{line}: {error}"
            );
        }
        let error = decode_reply(r#"{"seq": 1} trailing"#, Some(1)).unwrap_err();
        assert!(matches!(error, WireError::NotJson { .. }), "{error}");
    }
}
