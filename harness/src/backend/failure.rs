//! How a validator failed on a case, as data: what went wrong, and what it
//! left on stderr. The human report, smoke and (later) the machine-readable
//! outputs each make their own text from it.

use crate::backend::wire::WireError;
use std::time::Duration;

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
