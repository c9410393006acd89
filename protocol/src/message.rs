//! One validation exchange: the request a validator gets and the reply it gives.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use serde_json::Value;

use crate::{Diagnostic, Implementation, Revision, Revisions, Source};

/// "Is this document conforming when served under this revision?"
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidateRequest {
    /// The case's name, for the validator's own logs (e.g.
    /// `elicitation/expected-invalid/x.json`).
    pub case: String,
    /// The MCP Description version the document is checked against.
    pub specification: String,
    /// The MCP protocol revision the document is checked for.
    pub revision: Revision,
    /// The document, as JSON (YAML fixtures are converted before sending).
    /// Shared, so that handing the same fixture to a validator for each of
    /// its revisions copies nothing. `null` in a serialization case, which
    /// carries [`source`](Self::source) instead.
    pub document: Arc<Value>,
    /// The document's text, in a serialization case only: the validator
    /// parses it itself under the restricted serialization rules, and
    /// `document` is `null`. Sent only to validators that announce they read
    /// text of its format ([`Implementation::source_text`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

/// Why a validator declined a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    /// A sentence saying why.
    pub reason: String,
    /// A link to the tracking issue, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
}

/// The validator failed on a case (its own fault, not the document's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidatorError {
    /// What went wrong.
    pub message: String,
}

/// A validator's answer to one [`ValidateRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reply {
    /// The findings; an empty list means the document conforms.
    Diagnostics(Vec<Diagnostic>),
    /// The validator does not handle this case.
    Skipped(Skip),
    /// The validator failed on this case.
    Error(ValidatorError),
}

/// Who is asking, as the harness introduces itself in `start`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HarnessInfo {
    /// The harness's name.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// A line the harness sends to a validator in session mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "lowercase")]
pub enum Command {
    /// The first line of a session: the contract version and the harness.
    Start {
        /// The contract version, [`crate::PROTOCOL_VERSION`].
        protocol: u32,
        /// The harness.
        harness: HarnessInfo,
        /// The MCP revisions the suite knows, oldest first, with which are
        /// legacy: the revisions a document may name. A validator announces
        /// the ones it checks; one that learns the list here needs no change
        /// when the suite adds a revision. Absent from older harnesses.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        revisions: Option<Revisions>,
    },
    /// One case to validate.
    Validate {
        /// The sequence number the reply must carry.
        seq: u64,
        /// The case.
        #[serde(flatten)]
        request: ValidateRequest,
    },
    /// The end of the session: the validator exits with status 0, no reply.
    Stop,
}

/// A validator's reply to `start`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartReply {
    /// The contract version it speaks, [`crate::PROTOCOL_VERSION`].
    pub protocol: u32,
    /// Who it is and what it covers.
    pub implementation: Implementation,
}

/// A validator's reply to one `validate` line in session mode (one-shot
/// replies are the same without `seq`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplyMessage {
    /// The `seq` of the request it answers.
    pub seq: u64,
    /// The answer.
    #[serde(flatten)]
    pub reply: Reply,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use serde_json::json;

    #[test]
    fn commands_have_the_documented_shape() {
        let validate = Command::Validate {
            seq: 17,
            request: ValidateRequest {
                case: "s/expected-invalid/x.json".into(),
                specification: "0.9.0".into(),
                revision: Revision::of("2025-06-18"),
                document: Arc::new(json!({"a": 1})),
                source: None,
            },
        };
        assert_eq!(
            serde_json::to_value(&validate).unwrap(),
            json!({"cmd": "validate", "seq": 17, "case": "s/expected-invalid/x.json",
                   "specification": "0.9.0", "revision": "2025-06-18", "document": {"a": 1}})
        );
        assert_eq!(
            serde_json::to_value(Command::Stop).unwrap(),
            json!({"cmd": "stop"})
        );
        let start: Command = serde_json::from_value(json!({
            "cmd": "start", "protocol": 1, "harness": {"name": "h", "version": "1"}, "extra": true
        }))
        .unwrap();
        assert!(matches!(start, Command::Start { protocol: 1, .. }));
    }

    #[test]
    fn replies_carry_seq_beside_one_outcome_and_ignore_unknown_members() {
        let reply = ReplyMessage {
            seq: 3,
            reply: Reply::Diagnostics(vec![Diagnostic::new("r", "/a", Severity::Error)]),
        };
        assert_eq!(
            serde_json::to_value(&reply).unwrap(),
            json!({"seq": 3, "diagnostics": [{"rule": "r", "path": "/a", "severity": "error"}]})
        );
        let parsed: ReplyMessage =
            serde_json::from_value(json!({"seq": 4, "note": "x", "skipped": {"reason": "no"}}))
                .unwrap();
        assert_eq!(
            parsed.reply,
            Reply::Skipped(Skip {
                reason: "no".into(),
                issue: None
            })
        );
    }
}
