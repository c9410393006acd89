//! Serialization (Section 15): a case that carries the document's text is
//! decoded here under the restricted rules of JSON and YAML, and a text
//! that breaks them is one finding of the rule it breaks.

use mcpdesc_protocol::{Diagnostic, Reply, Severity, Skip, Source, SourceFormat};
use mcpdesc_source::{Format, LoadErrorKind};
use serde_json::Value;

use crate::rule;

/// The document `source` decodes to, or the reply for a text that does not
/// decode: one error of the serialization rule it breaks, at the pointer of
/// the value at fault (the root for a fault of the whole text), or a skip
/// for a text beyond the validator's own limits, which no rule judges.
pub(crate) fn decode(source: &Source) -> Result<Value, Reply> {
    let format = match source.format {
        SourceFormat::Json => Format::Json,
        SourceFormat::Yaml => Format::Yaml,
    };
    // RFC 8259 lets a parser ignore a byte-order mark and YAML 1.2 allows
    // one before the stream; the suite judges neither, so it is dropped.
    let text = source.text.strip_prefix('\u{feff}').unwrap_or(&source.text);
    let error = match mcpdesc_source::load("source", text.as_bytes(), format) {
        Ok(document) => return Ok(std::sync::Arc::unwrap_or_clone(document.value)),
        Err(error) => error,
    };
    let rule = match error.kind {
        LoadErrorKind::Syntax => rule::SERIALIZATION_SYNTAX,
        LoadErrorKind::DocumentCount => rule::SERIALIZATION_DOCUMENT_COUNT,
        LoadErrorKind::KeyType => rule::SERIALIZATION_KEY_TYPE,
        LoadErrorKind::DuplicateKey => rule::SERIALIZATION_DUPLICATE_KEY,
        LoadErrorKind::NonFinite => rule::SERIALIZATION_NON_FINITE_NUMBER,
        LoadErrorKind::Tag => rule::SERIALIZATION_TAG,
        LoadErrorKind::Alias => rule::SERIALIZATION_ALIAS,
        LoadErrorKind::String => rule::SERIALIZATION_LONE_SURROGATE,
        // Size, depth and (through a text contract) encoding are the
        // validator's limits of Section 15.8, not rules of the format.
        _ => {
            return Err(Reply::Skipped(Skip {
                reason: format!(
                    "the text is beyond this validator's input limits: {}",
                    error.message
                ),
                issue: None,
            }));
        }
    };
    let message = format!(
        "line {}, column {}: {}",
        error.position.line, error.position.column, error.message
    );
    let path = error.pointer.unwrap_or_default();
    Err(Reply::Diagnostics(vec![
        Diagnostic::new(rule, path, Severity::Error).with_message(message),
    ]))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn decoded(format: SourceFormat, text: &str) -> Result<Value, Reply> {
        decode(&Source {
            format,
            text: Arc::from(text),
        })
    }

    /// The (rule, path) of the one finding a text that does not decode has.
    #[track_caller]
    fn refusal(format: SourceFormat, text: &str) -> (String, String) {
        match decoded(format, text) {
            Err(Reply::Diagnostics(found)) if found.len() == 1 => {
                assert_eq!(found[0].severity, Severity::Error);
                (found[0].rule.clone(), found[0].path.clone())
            }
            other => panic!("expected one finding for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn a_text_that_decodes_is_its_value() {
        let value = serde_json::json!({"a": [1, "yes", "2025-01-01"]});
        let yaml = "a:\n  - 1\n  - yes\n  - 2025-01-01\n";
        assert_eq!(decoded(SourceFormat::Yaml, yaml).unwrap(), value);
        let json = "\u{feff}{\"a\": [1, \"yes\", \"2025-01-01\"]}";
        assert_eq!(decoded(SourceFormat::Json, json).unwrap(), value);
    }

    #[test]
    fn each_fault_is_one_finding_of_its_rule_at_its_value() {
        use SourceFormat::{Json, Yaml};
        let cases = [
            (Json, "{\"a\": }", rule::SERIALIZATION_SYNTAX, ""),
            (Json, "{\"a\": NaN}", rule::SERIALIZATION_SYNTAX, ""),
            (
                Json,
                "{\"a\": {\"b\": 1, \"b\": 2}}",
                rule::SERIALIZATION_DUPLICATE_KEY,
                "/a/b",
            ),
            (
                Json,
                "{\"a\": [1e400]}",
                rule::SERIALIZATION_NON_FINITE_NUMBER,
                "/a/0",
            ),
            (
                Json,
                "{\"a\": \"\\ud800\"}",
                rule::SERIALIZATION_LONE_SURROGATE,
                "/a",
            ),
            (
                Yaml,
                "a: 1\n---\nb: 2\n",
                rule::SERIALIZATION_DOCUMENT_COUNT,
                "",
            ),
            (Yaml, "a:\n  1: x\n", rule::SERIALIZATION_KEY_TYPE, "/a"),
            (
                Yaml,
                "a:\n  b: 1\n  'b': 2\n",
                rule::SERIALIZATION_DUPLICATE_KEY,
                "/a/b",
            ),
            (
                Yaml,
                "a: [.inf]\n",
                rule::SERIALIZATION_NON_FINITE_NUMBER,
                "/a/0",
            ),
            (Yaml, "a: !secret x\n", rule::SERIALIZATION_TAG, "/a"),
            (Yaml, "a: &x 1\nb: *x\n", rule::SERIALIZATION_ALIAS, "/b"),
            (
                Yaml,
                "a: \"\\ud800\"\n",
                rule::SERIALIZATION_LONE_SURROGATE,
                "/a",
            ),
            (Yaml, "a: [\n", rule::SERIALIZATION_SYNTAX, ""),
        ];
        for (format, text, rule, path) in cases {
            assert_eq!(
                refusal(format, text),
                (rule.to_owned(), path.to_owned()),
                "{format} {text:?}"
            );
        }
    }

    #[test]
    fn a_text_beyond_the_limits_is_skipped_not_judged() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(
            decoded(SourceFormat::Json, &deep),
            Err(Reply::Skipped(_))
        ));
    }
}
