//! How a validator failed on a case, as data: what went wrong, what it
//! left on stderr, and what was wrong with a line it wrote. The human
//! report, smoke and the machine-readable outputs each make their own text
//! from it.

use std::time::Duration;

use mcpdesc_protocol::PROTOCOL_VERSION;

/// A validator's failure on one case: the kind, and the tail of what the
/// process wrote on stderr (empty for an in-process validator).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailureKind,
    /// The last of what the process wrote on stderr.
    pub stderr: String,
}

/// What went wrong when the harness asked a validator about a case.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// The program could not be started at all.
    NotStarted {
        /// The command line, as given.
        command: String,
        /// Why the operating system refused it.
        error: String,
    },
    /// The validator ended, or its output did, before a complete reply.
    Crashed(Crash),
    /// It did not answer in time.
    TimedOut {
        /// The limit that passed.
        after: Duration,
        /// What the harness was waiting for.
        awaiting: Awaiting,
    },
    /// It answered something the contract does not allow.
    Protocol(ProtocolProblem),
}

/// How a validator crashed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Crash {
    /// Its output ended before the reply to `awaiting` (it exited, or
    /// closed stdout); `partial` holds what it wrote of an unfinished line.
    OutputEnded {
        /// What the harness was waiting for.
        awaiting: Awaiting,
        /// The start of a line the validator never finished, if any.
        partial: Option<String>,
    },
    /// A one-shot validator ended with an exit status other than 0 or 1, or
    /// was killed by a signal.
    AbnormalExit {
        /// The exit code, when it exited.
        code: Option<i32>,
        /// The signal that killed it, when one did.
        signal: Option<i32>,
    },
    /// A one-shot validator exited normally without a reply.
    NoReply,
    /// Reading its output failed.
    ReadFailed {
        /// The operating system's error.
        error: String,
    },
    /// An in-process validator panicked.
    Panicked {
        /// What it panicked with.
        message: String,
    },
}

impl FailureKind {
    /// What the harness was waiting for when the failure happened, when
    /// the failure says.
    pub fn awaiting(&self) -> Option<Awaiting> {
        match self {
            FailureKind::TimedOut { awaiting, .. }
            | FailureKind::Crashed(Crash::OutputEnded { awaiting, .. })
            | FailureKind::Protocol(
                ProtocolProblem::Reply { awaiting, .. } | ProtocolProblem::TooLong { awaiting, .. },
            ) => Some(*awaiting),
            _ => None,
        }
    }

    /// Whether the failure happened while starting a process: it could not
    /// be started, or did not answer `start`.
    pub fn while_starting(&self) -> bool {
        matches!(self, FailureKind::NotStarted { .. }) || self.awaiting() == Some(Awaiting::Start)
    }
}

/// What the harness was waiting for when a validator failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Awaiting {
    /// The reply to `start` (from a fresh or restarted session process).
    Start,
    /// The reply to a `validate` request (session mode).
    Reply,
    /// The one reply line of a one-shot process, and the end of its output.
    OneshotReply,
    /// A one-shot process's exit, after its reply.
    Exit,
}

/// A reply that breaks the contract.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProtocolProblem {
    /// A line that is not a reply.
    Reply {
        /// What the harness was waiting for.
        awaiting: Awaiting,
        /// What is wrong with the line.
        error: WireError,
    },
    /// A reply line longer than the limit.
    TooLong {
        /// What the harness was waiting for.
        awaiting: Awaiting,
        /// The limit, in bytes.
        limit: usize,
    },
    /// A session-mode line that no request asked for.
    Unrequested {
        /// The start of the line.
        excerpt: String,
        /// When it was noticed: `true` right after a reply (smoke waits a
        /// moment for such lines), `false` before the next request.
        after_reply: bool,
    },
    /// A one-shot validator wrote more than one line on stdout.
    ExtraLine {
        /// Which of the two lines decode as replies.
        replies: ExtraLine,
        /// The start of the first line.
        first: String,
        /// The start of the second line.
        second: String,
    },
}

/// Which of a one-shot validator's two stdout lines are replies: what
/// decides which line a report blames (a log line, most often).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraLine {
    /// The first is the reply; the second is extra.
    AfterReply,
    /// The second is the reply; the first is extra.
    BeforeReply,
    /// Both are replies.
    TwoReplies,
    /// Neither is a reply.
    NoReply,
}

/// Which line of the contract a [`WireError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// The reply to `start`.
    Start,
    /// The reply to one case.
    Reply,
}

impl std::fmt::Display for Line {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(match self {
            Line::Start => "the reply to `start`",
            Line::Reply => "the reply",
        })
    }
}

/// What is wrong with a line a validator wrote. Its text says what was
/// wrong and what the contract expects, for adapter authors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// A problem read back from a report (`merge`): its explanation, as
    /// the report gave it.
    #[error("{explanation}")]
    Recorded {
        /// The explanation.
        explanation: String,
    },
    /// The line does not parse as JSON.
    #[error(
        "{line} is not JSON ({error}): {excerpt}; write exactly one JSON object per line on \
         stdout, and anything else (logs, progress) on stderr"
    )]
    NotJson {
        /// Which line.
        line: Line,
        /// The parser's message.
        error: String,
        /// The start of the line, quoted.
        excerpt: String,
    },
    /// The line is JSON, but not an object.
    #[error("{line} is a JSON {kind}, not an object: {excerpt}")]
    NotAnObject {
        /// Which line.
        line: Line,
        /// The kind of JSON value it is.
        kind: &'static str,
        /// The start of the line, quoted.
        excerpt: String,
    },
    /// The `start` reply names another protocol version.
    #[error(
        "the reply to `start` says `\"protocol\": {given}`, but this harness speaks protocol \
         {PROTOCOL_VERSION}; answer with `\"protocol\": {PROTOCOL_VERSION}`"
    )]
    WrongProtocol {
        /// The value given, as JSON.
        given: String,
    },
    /// The `start` reply has no `protocol`.
    #[error(
        "the reply to `start` has no `protocol` member; answer with `\"protocol\": \
         {PROTOCOL_VERSION}`"
    )]
    NoProtocol,
    /// The `start` reply has no `implementation`.
    #[error(
        "the reply to `start` has no `implementation` object; describe the validator there \
         (name, version, language, specifications, revisions)"
    )]
    NoImplementation,
    /// The `implementation` does not have the documented members.
    #[error(
        "the `implementation` in the reply to `start` does not have the documented members: \
         {error}"
    )]
    BadImplementation {
        /// The decoder's message.
        error: String,
    },
    /// The `implementation` lists no revisions.
    #[error(
        "the `implementation` lists no `revisions`; list the MCP revisions the validator \
         supports (e.g. [\"2025-06-18\", \"2025-11-25\"]); cases under other revisions are \
         skipped"
    )]
    NoRevisions,
    /// The reply carries more diagnostics than the run allows.
    #[error(
        "the reply carries more than {limit} diagnostics, the most one reply may carry (raise \
         it with --max-diagnostics)"
    )]
    TooManyDiagnostics {
        /// The limit.
        limit: usize,
    },
    /// A session reply without `seq`.
    #[error("the reply has no `seq`; echo the request's `\"seq\": {expected}` in the reply")]
    NoSeq {
        /// The request's `seq`.
        expected: u64,
    },
    /// A session reply, with several requests in flight, whose `seq` is
    /// none of theirs.
    #[error(
        "the reply says `\"seq\": {given}`, which is the `seq` of none of the {in_flight} \
         requests in flight (answered already, or never sent); reply to each request once, \
         echoing its `seq`"
    )]
    UnknownSeq {
        /// The value given, as JSON.
        given: String,
        /// How many requests were in flight.
        in_flight: usize,
    },
    /// A session reply whose `seq` is not the request's.
    #[error(
        "the reply says `\"seq\": {given}` but answers the request with `\"seq\": \
         {expected}`; reply to each request once, in order, echoing its `seq`"
    )]
    WrongSeq {
        /// The request's `seq`.
        expected: u64,
        /// The value given, as JSON.
        given: String,
    },
    /// `skipped` is not an object with a `reason`.
    #[error(
        "`skipped` must be an object with a `reason` string (and an optional `issue`): {error}"
    )]
    BadSkip {
        /// The decoder's message.
        error: String,
    },
    /// `error` is not an object with a `message`.
    #[error("`error` must be an object with a `message` string: {error}")]
    BadError {
        /// The decoder's message.
        error: String,
    },
    /// The reply has none of the three answers.
    #[error(
        "the reply has none of `diagnostics`, `skipped` or `error`; answer with \
         `\"diagnostics\": [...]` (an empty array when the document conforms)"
    )]
    NoAnswer,
    /// The reply has more than one of the three answers.
    #[error(
        "the reply has {}; give exactly one of `diagnostics`, `skipped` or `error`",
        .keys.iter().map(|key| format!("`{key}`")).collect::<Vec<_>>().join(" and ")
    )]
    SeveralAnswers {
        /// The answers it has.
        keys: Vec<&'static str>,
    },
    /// `diagnostics` is not an array.
    #[error(
        "`diagnostics` is a JSON {kind}, not an array; send `\"diagnostics\": [{{\"rule\": \
         ..., \"path\": ..., \"severity\": ...}}]`"
    )]
    DiagnosticsNotArray {
        /// The kind of JSON value it is.
        kind: &'static str,
    },
    /// One diagnostic is malformed.
    #[error("diagnostic {index}: {problem}")]
    Diagnostic {
        /// Its index in `diagnostics`.
        index: usize,
        /// What is wrong with it.
        problem: DiagnosticProblem,
    },
}

/// What is wrong with one diagnostic of a reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiagnosticProblem {
    /// It is not an object.
    #[error("is a JSON {0}, not an object")]
    NotAnObject(&'static str),
    /// A required member is missing.
    #[error("has no `{0}`")]
    Missing(&'static str),
    /// A member that must be a string is not.
    #[error("`{key}` is a JSON {kind}, not a string")]
    NotAString {
        /// The member.
        key: &'static str,
        /// The kind of JSON value it is.
        kind: &'static str,
    },
    /// `path` is not a JSON pointer.
    #[error("`path` {path} is not an RFC 6901 JSON pointer: {problem}")]
    NotAPointer {
        /// The path, quoted as JSON.
        path: String,
        /// Why.
        problem: PointerProblem,
    },
    /// `severity` is neither `error` nor `warning`.
    #[error("`severity` is {0}; use \"error\" or \"warning\"")]
    Severity(String),
}

/// Why a text is not an RFC 6901 JSON pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PointerProblem {
    /// It is neither empty nor starts with `/`.
    #[error("it must be empty (the document root) or start with `/`")]
    NoLeadingSlash,
    /// A `~` not followed by `0` or `1`.
    #[error("`~` must be followed by `0` or `1`")]
    BadEscape,
}
