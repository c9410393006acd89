//! The stdio contract, validator side: session mode (one JSON object per
//! line, many cases per process) and one-shot mode (one case per process).

use std::io::{self, BufRead, Read, Write};

use mcpdesc_protocol::{
    Command, PROTOCOL_VERSION, Reply, ReplyMessage, Revision, SPECIFICATION_VERSION, StartReply,
    ValidateRequest, Validator, ValidatorError,
};
use mcpdesc_validator::ReferenceValidator;
use serde_json::Value;

/// Serves a session on stdin and stdout until `stop` or the end of input.
///
/// A line that is not a command is answered with an `error` reply when it
/// carries a `seq`, and reported on stderr otherwise; the session goes on.
pub fn session() -> anyhow::Result<()> {
    let validator = ReferenceValidator::new();
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    for line in stdin.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Command>(&line) {
            Ok(Command::Start { .. }) => serde_json::to_string(&StartReply {
                protocol: PROTOCOL_VERSION,
                implementation: validator.implementation(),
            })?,
            Ok(Command::Validate { seq, request }) => serde_json::to_string(&ReplyMessage {
                seq,
                reply: validator.validate(&request),
            })?,
            Ok(Command::Stop) => return Ok(()),
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
        stdout.flush()?;
    }
    Ok(())
}

/// Validates the JSON document on stdin under `MCPDESC_REVISION` and prints
/// one reply; `Ok(true)` when the document has no error.
pub fn oneshot() -> anyhow::Result<bool> {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text)?;
    let reply = match request(&text) {
        Ok(request) => ReferenceValidator::new().validate(&request),
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
        .map_err(|error: mcpdesc_protocol::UnknownRevision| error.to_string())?;
    let specification =
        std::env::var("MCPDESC_SPECIFICATION").unwrap_or_else(|_| SPECIFICATION_VERSION.to_owned());
    let document = serde_json::from_str(text)
        .map_err(|error| format!("the document on stdin is not JSON: {error}"))?;
    Ok(ValidateRequest {
        case: "stdin".to_owned(),
        specification,
        revision,
        document,
    })
}
