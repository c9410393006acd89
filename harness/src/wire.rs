//! Reading what an external validator writes: strict decoding of `start`
//! replies and case replies, with explanations in plain words.
//!
//! Every error says what was wrong and what the contract expects, because
//! adapter authors read these (in failure reports and in `smoke`).

use mcpdesc_protocol::{
    Diagnostic, Implementation, PROTOCOL_VERSION, Reply, Severity, Skip, ValidatorError,
};
use serde_json::{Map, Value};

/// Decodes the reply to `start`.
///
/// # Errors
///
/// An explanation of what is wrong with the line.
pub fn decode_start(line: &str) -> Result<Implementation, String> {
    let object = object_of(line, "the reply to `start`")?;
    match object.get("protocol") {
        Some(Value::Number(number)) if number.as_u64() == Some(u64::from(PROTOCOL_VERSION)) => {}
        Some(other) => {
            return Err(format!(
                "the reply to `start` says `\"protocol\": {other}`, but this harness speaks protocol {PROTOCOL_VERSION}; \
                 answer with `\"protocol\": {PROTOCOL_VERSION}`"
            ));
        }
        None => {
            return Err(format!(
                "the reply to `start` has no `protocol` member; answer with `\"protocol\": {PROTOCOL_VERSION}`"
            ));
        }
    }
    let implementation = object.get("implementation").ok_or_else(|| {
        "the reply to `start` has no `implementation` object; describe the validator there \
         (name, version, language, specifications, revisions)"
            .to_owned()
    })?;
    let implementation: Implementation = serde_json::from_value(implementation.clone()).map_err(|error| {
        format!("the `implementation` in the reply to `start` does not have the documented members: {error}")
    })?;
    if implementation.revisions.is_empty() {
        return Err("the `implementation` lists no `revisions`; list the MCP revisions the validator supports \
                    (e.g. [\"2025-06-18\", \"2025-11-25\"]); cases under other revisions are skipped"
            .to_owned());
    }
    Ok(implementation)
}

/// Decodes a reply to one case. In session mode `seq` is the request's
/// sequence number, which the reply must echo; one-shot replies have none.
///
/// # Errors
///
/// An explanation of what is wrong with the reply.
pub fn decode_reply(text: &str, seq: Option<u64>) -> Result<Reply, String> {
    let object = object_of(text, "the reply")?;
    if let Some(expected) = seq {
        match object.get("seq") {
            None => {
                return Err(format!(
                    "the reply has no `seq`; echo the request's `\"seq\": {expected}` in the reply"
                ));
            }
            Some(Value::Number(number)) if number.as_u64() == Some(expected) => {}
            Some(other) => {
                return Err(format!(
                    "the reply says `\"seq\": {other}` but answers the request with `\"seq\": {expected}`; \
                     reply to each request once, in order, echoing its `seq`"
                ));
            }
        }
    }
    let present: Vec<&str> = ["diagnostics", "skipped", "error"]
        .into_iter()
        .filter(|key| object.contains_key(*key))
        .collect();
    match present.as_slice() {
        ["diagnostics"] => decode_diagnostics(&object["diagnostics"]).map(Reply::Diagnostics),
        ["skipped"] => {
            let skip: Skip = serde_json::from_value(object["skipped"].clone()).map_err(|error| {
                format!("`skipped` must be an object with a `reason` string (and an optional `issue`): {error}")
            })?;
            Ok(Reply::Skipped(skip))
        }
        ["error"] => {
            let error: ValidatorError =
                serde_json::from_value(object["error"].clone()).map_err(|error| {
                    format!("`error` must be an object with a `message` string: {error}")
                })?;
            Ok(Reply::Error(error))
        }
        [] => Err(
            "the reply has none of `diagnostics`, `skipped` or `error`; \
                   answer with `\"diagnostics\": [...]` (an empty array when the document conforms)"
                .to_owned(),
        ),
        several => Err(format!(
            "the reply has {}; give exactly one of `diagnostics`, `skipped` or `error`",
            several
                .iter()
                .map(|key| format!("`{key}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        )),
    }
}

fn object_of(text: &str, what: &str) -> Result<Map<String, Value>, String> {
    let value: Value = serde_json::from_str(text).map_err(|error| {
        format!(
            "{what} is not JSON ({error}): {}; write exactly one JSON object per line on stdout, \
             and anything else (logs, progress) on stderr",
            excerpt(text)
        )
    })?;
    match value {
        Value::Object(object) => Ok(object),
        other => Err(format!(
            "{what} is a JSON {}, not an object: {}",
            kind(&other),
            excerpt(text)
        )),
    }
}

fn decode_diagnostics(value: &Value) -> Result<Vec<Diagnostic>, String> {
    let Value::Array(items) = value else {
        return Err(format!(
            "`diagnostics` is a JSON {}, not an array; send `\"diagnostics\": [{{\"rule\": ..., \"path\": ..., \"severity\": ...}}]`",
            kind(value)
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            decode_diagnostic(item).map_err(|problem| format!("diagnostic {index}: {problem}"))
        })
        .collect()
}

fn decode_diagnostic(value: &Value) -> Result<Diagnostic, String> {
    let Value::Object(object) = value else {
        return Err(format!("is a JSON {}, not an object", kind(value)));
    };
    let text = |key: &str| match object.get(key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(format!("`{key}` is a JSON {}, not a string", kind(other))),
        None => Err(format!("has no `{key}`")),
    };
    let rule = text("rule")?;
    let path = text("path")?;
    if let Err(problem) = check_pointer(&path) {
        return Err(format!(
            "`path` {} is not an RFC 6901 JSON pointer: {problem}",
            Value::String(path)
        ));
    }
    let severity = match text("severity")?.as_str() {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        other => {
            return Err(format!(
                "`severity` is {}; use \"error\" or \"warning\"",
                Value::String(other.to_owned())
            ));
        }
    };
    let message = match object.get("message") {
        None | Some(Value::Null) => None,
        Some(Value::String(message)) => Some(message.clone()),
        Some(other) => return Err(format!("`message` is a JSON {}, not a string", kind(other))),
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
fn check_pointer(pointer: &str) -> Result<(), String> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err("it must be empty (the document root) or start with `/`".to_owned());
    }
    let mut chars = pointer.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return Err("`~` must be followed by `0` or `1`".to_owned());
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
pub fn excerpt(text: &str) -> String {
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
            let error = decode_reply(line, seq).unwrap_err();
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
            let error = decode_start(line).unwrap_err();
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
