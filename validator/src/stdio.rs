//! The stdio contract, validator side: session mode (one JSON object per
//! line, many cases per process) and one-shot mode (one case per process).

use std::io::{self, BufRead, Read, Write};

use mcpdesc_protocol::{
    Command, PROTOCOL_VERSION, Reply, ReplyMessage, Revision, Revisions, SPECIFICATION_VERSION,
    Source, SourceFormat, StartReply, ValidateRequest, Validator, ValidatorError,
};
use mcpdesc_validator::ReferenceValidator;
use serde_json::Value;
use serde_json::value::RawValue;
use std::sync::Arc;

/// Serves a session on stdin and stdout until `stop` or the end of input.
///
/// The revisions `start` lists are the ones the validator knows and
/// announces; without a list it knows the suite's it was built with.
///
/// A line that is not a command is answered with an `error` reply when it
/// carries a `seq`, and reported on stderr otherwise; the session goes on.
///
/// Replies are written in order, and flushed whenever no more input is
/// waiting: a harness with several requests in flight gets their replies
/// in one write, and one waiting for its only reply gets it at once.
pub fn session() -> anyhow::Result<()> {
    let mut validator = ReferenceValidator::new();
    let mut stdin = io::BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut line = String::new();
    let mut last = LastDocument::default();
    loop {
        // Before a read that may block: a harness waiting for these
        // replies sends nothing more until it has them.
        if stdin.buffer().is_empty() {
            stdout.flush()?;
        }
        line.clear();
        if stdin.read_line(&mut line)? == 0 {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        if let Some((seq, request)) = validate_line(&line, &mut last) {
            let reply = ReplyMessage {
                seq,
                reply: validator.validate(&request),
            };
            serde_json::to_writer(&mut stdout, &reply)?;
            stdout.write_all(b"\n")?;
            continue;
        }
        let reply = match serde_json::from_str::<Command>(&line) {
            Ok(Command::Start { revisions, .. }) => {
                if let Some(revisions) = revisions {
                    validator = validator.with_revisions(revisions);
                }
                serde_json::to_string(&StartReply {
                    protocol: PROTOCOL_VERSION,
                    implementation: validator.implementation(),
                })?
            }
            Ok(Command::Validate { seq, request }) => serde_json::to_string(&ReplyMessage {
                seq,
                reply: validator.validate(&request),
            })?,
            Ok(Command::Stop) => {
                stdout.flush()?;
                return Ok(());
            }
            Err(error) => {
                let seq = serde_json::from_str::<Value>(&line)
                    .ok()
                    .and_then(|value| value.get("seq")?.as_u64());
                let Some(seq) = seq else {
                    eprintln!("mcpdesc-validate: ignoring a line that is not a command: {error}");
                    continue;
                };
                serde_json::to_string(&ReplyMessage {
                    seq,
                    reply: Reply::Error(ValidatorError {
                        message: format!("cannot read the request: {error}"),
                    }),
                })?
            }
        };
        writeln!(stdout, "{reply}")?;
    }
    stdout.flush()?;
    Ok(())
}

/// The document of the last `validate` line: its JSON text and its value.
///
/// A harness asks about each document once per revision, one request after
/// the other, and reading the document is most of a request's cost (more
/// than validating it): a document whose text is the same as the last one's
/// is not read again.
#[derive(Debug, Default)]
struct LastDocument {
    text: String,
    value: Option<Arc<Value>>,
}

impl LastDocument {
    /// The value of the document whose JSON text is `text`.
    fn value_of(&mut self, text: &str) -> Option<Arc<Value>> {
        match &self.value {
            Some(value) if self.text == text => Some(Arc::clone(value)),
            _ => {
                let value = Arc::new(serde_json::from_str::<Value>(text).ok()?);
                self.text.clear();
                self.text.push_str(text);
                self.value = Some(Arc::clone(&value));
                Some(value)
            }
        }
    }
}

/// The members of a `validate` line, the document left as JSON text.
/// Other members are ignored, as in a [`Command`].
#[derive(Debug, serde::Deserialize)]
struct ValidateLine<'a> {
    cmd: String,
    seq: u64,
    case: String,
    specification: String,
    revision: String,
    #[serde(borrow)]
    document: &'a RawValue,
    /// A serialization case's text; its `document` is `null`.
    #[serde(default)]
    source: Option<Source>,
}

/// A `validate` line read in one pass, or `None` for any other line (read
/// again as a [`Command`], which also explains what is wrong). Reading it
/// as a `Command` costs more than twice as much: its `cmd` tag and
/// flattened request make serde buffer the whole line, document included,
/// before reading it again, and the document is read even when it is the
/// one the line before sent.
fn validate_line(line: &str, last: &mut LastDocument) -> Option<(u64, ValidateRequest)> {
    let line: ValidateLine<'_> = serde_json::from_str(line).ok()?;
    if line.cmd != "validate" {
        return None;
    }
    let revision = line.revision.parse().ok()?;
    let document = last.value_of(line.document.get())?;
    Some((
        line.seq,
        ValidateRequest {
            case: line.case,
            specification: line.specification,
            revision,
            document,
            source: line.source,
        },
    ))
}

/// Validates the JSON document on stdin under `MCPDESC_REVISION` and prints
/// one reply; `Ok(true)` when the document has no error. With
/// `MCPDESC_SOURCE_FORMAT` set (a serialization case), stdin is the
/// document's text in that format instead. The known
/// revisions are `MCPDESC_REVISIONS` (the JSON list `start` carries) when
/// it is set, else the suite's this validator was built with.
pub fn oneshot() -> anyhow::Result<bool> {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text)?;
    let reply = match request(&text).and_then(|request| Ok((request, known()?))) {
        Ok((request, known)) => ReferenceValidator::new()
            .with_revisions(known)
            .validate(&request),
        Err(message) => Reply::Error(ValidatorError { message }),
    };
    let clean = match &reply {
        Reply::Diagnostics(diagnostics) => diagnostics
            .iter()
            .all(|diagnostic| diagnostic.severity != mcpdesc_protocol::Severity::Error),
        _ => true,
    };
    println!("{}", serde_json::to_string(&reply)?);
    Ok(clean)
}

fn request(text: &str) -> Result<ValidateRequest, String> {
    let revision =
        std::env::var("MCPDESC_REVISION").map_err(|_| "MCPDESC_REVISION is not set".to_owned())?;
    let revision: Revision = revision
        .parse()
        .map_err(|error: mcpdesc_protocol::InvalidRevision| error.to_string())?;
    let specification =
        std::env::var("MCPDESC_SPECIFICATION").unwrap_or_else(|_| SPECIFICATION_VERSION.to_owned());
    let (document, source) = match std::env::var("MCPDESC_SOURCE_FORMAT") {
        Ok(format) => {
            let format = SourceFormat::from_name(&format).ok_or_else(|| {
                format!("MCPDESC_SOURCE_FORMAT is `{format}`; expected `json` or `yaml`")
            })?;
            let source = Source {
                format,
                text: Arc::from(text),
            };
            (Arc::new(Value::Null), Some(source))
        }
        Err(_) => {
            let document = serde_json::from_str(text)
                .map_err(|error| format!("the document on stdin is not JSON: {error}"))?;
            (document, None)
        }
    };
    Ok(ValidateRequest {
        case: "stdin".to_owned(),
        specification,
        revision,
        document,
        source,
    })
}

/// The known revisions of a one-shot run: `MCPDESC_REVISIONS` or the
/// suite's.
fn known() -> Result<Revisions, String> {
    match std::env::var("MCPDESC_REVISIONS") {
        Ok(list) => serde_json::from_str(&list)
            .map_err(|error| format!("MCPDESC_REVISIONS is not a list of revisions: {error}")),
        Err(_) => Ok(mcpdesc_validator::suite_revisions()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seq: u64, revision: &str, document: &str) -> String {
        format!(
            r#"{{"cmd":"validate","seq":{seq},"case":"c","specification":"0.9.0","revision":"{revision}","extra":[1],"document":{document}}}"#
        )
    }

    #[test]
    fn a_document_sent_again_is_read_once_and_any_other_is_read_anew() {
        let mut last = LastDocument::default();
        let (seq, first) =
            validate_line(&line(1, "2025-06-18", r#"{"a": [1]}"#), &mut last).unwrap();
        assert_eq!(seq, 1);
        assert_eq!(*first.document, serde_json::json!({"a": [1]}));
        assert_eq!(first.revision.to_string(), "2025-06-18");
        let (_, again) = validate_line(&line(2, "2025-11-25", r#"{"a": [1]}"#), &mut last).unwrap();
        assert!(Arc::ptr_eq(&first.document, &again.document));
        let (_, other) = validate_line(&line(3, "2025-11-25", r#"{"a": [2]}"#), &mut last).unwrap();
        assert_eq!(*other.document, serde_json::json!({"a": [2]}));
        // The same value written otherwise is another text, read anew.
        let (_, spaced) = validate_line(&line(4, "2025-11-25", r#"{"a":[2]}"#), &mut last).unwrap();
        assert!(!Arc::ptr_eq(&other.document, &spaced.document));
        assert_eq!(other.document, spaced.document);
    }

    #[test]
    fn a_serialization_case_keeps_its_text() {
        let mut last = LastDocument::default();
        let text = r#"{"cmd":"validate","seq":7,"case":"c","specification":"0.9.0","revision":"2025-06-18","document":null,"source":{"format":"yaml","text":"a: 1\n"}}"#;
        let (seq, request) = validate_line(text, &mut last).unwrap();
        assert_eq!(seq, 7);
        assert_eq!(*request.document, Value::Null);
        let source = request.source.unwrap();
        assert_eq!(source.format, SourceFormat::Yaml);
        assert_eq!(&*source.text, "a: 1\n");
    }

    #[test]
    fn other_lines_are_left_to_the_command_reader() {
        let mut last = LastDocument::default();
        for text in [
            r#"{"cmd":"start","protocol":1}"#,
            r#"{"cmd":"validate","seq":-1,"case":"c","specification":"0.9.0","revision":"2025-06-18","document":{}}"#,
            r#"{"cmd":"validate","seq":1,"case":"c","specification":"0.9.0","revision":"June","document":{}}"#,
            r#"{"cmd":"validate","seq":1,"case":"c","specification":"0.9.0","revision":"2025-06-18"}"#,
            r#"{"cmd":"validate","seq":1,"case":"c","specification":"0.9.0","revision":"2025-06-18","document":{"a":}}"#,
            "[]",
        ] {
            assert!(validate_line(text, &mut last).is_none(), "{text}");
        }
    }
}
