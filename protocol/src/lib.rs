//! Contract types shared by mcpdesc validators and the conformance harness.
//!
//! Everything that crosses the boundary between a validator and the harness is
//! defined here, once: the MCP protocol [`Revision`]s (and the
//! [`Revisions`] a suite knows), a validator's
//! [`Diagnostic`]s and their [`Severity`], the [`Implementation`] metadata a
//! validator announces, the [`ValidateRequest`] it answers and the [`Reply`] it
//! gives. The same types serve the in-process [`Validator`] trait and the JSON
//! messages of the stdio contract (see `docs/protocol.md`), so a validator
//! reached either way is compared in exactly the same terms.

#![warn(missing_docs)]

mod diagnostic;
mod implementation;
mod message;
mod revision;
mod source;
mod validator;

pub use diagnostic::{Diagnostic, Severity};
pub use implementation::Implementation;
pub use message::{
    Command, HarnessInfo, Reply, ReplyMessage, Skip, StartReply, ValidateRequest, ValidatorError,
};
pub use revision::{InvalidRevision, KnownRevision, Revision, Revisions, RevisionsError};
pub use source::{SOURCE_TEXT_VERSION, Source, SourceFormat, SourceTextSupport};
pub use validator::Validator;

/// The version of the stdio contract these types describe.
pub const PROTOCOL_VERSION: u32 = 1;

/// The MCP Description specification version the first suites target.
pub const SPECIFICATION_VERSION: &str = "0.9.0";
