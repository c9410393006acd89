//! External validators: any program that speaks the stdio contract, in
//! session mode (a pool of long-lived processes) or one-shot mode (one
//! process per case). Every failure of the program becomes the outcome of the
//! one case it happened on; the process group is killed, a fresh process is
//! started, and the run goes on.
//!
//! A private `pool` module holds the [`ExternalValidator`] settings, the
//! [`Pool`] of processes that serves many callers and is the scheduler's
//! [`Backend`], and [`run`]; a private `session` module holds the
//! session-mode process and a private `oneshot` module the one-shot call.
//! They, and [`split_command`], need the `external` feature (on by
//! default). This module holds what the reports and the `libtest` settings
//! say of an external validator, plain data that is there whatever the
//! features: [`Mode`], [`Unavailable`], [`CommandError`].
//!
//! [`Backend`]: crate::backend::schedule::Backend

#[cfg(feature = "external")]
mod oneshot;
#[cfg(feature = "external")]
mod pool;
#[cfg(feature = "external")]
mod session;

use std::collections::BTreeSet;

use mcpdesc_protocol::{SourceFormat, SourceTextSupport};

use crate::outcome::failure::Failure;

#[cfg(feature = "external")]
pub use crate::backend::process::split_command;
#[cfg(feature = "external")]
pub use pool::{ExternalRun, ExternalValidator, Pool, run};
#[cfg(feature = "external")]
pub use session::STOP_GRACE;

/// The environment variable in which one-shot mode names the format of a
/// serialization case's text, which stdin then holds as written (`json` or
/// `yaml`); absent for any other case.
pub const SOURCE_FORMAT_VARIABLE: &str = "MCPDESC_SOURCE_FORMAT";

/// How the harness talks to the validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Long-lived processes, [`ExternalValidator::jobs`] of them, each
    /// with up to [`ExternalValidator::pipeline`] requests in flight.
    Session,
    /// One process per case.
    Oneshot,
}

/// Why an external validator could not be run at all.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unavailable {
    /// The first session process could not be started, or did not answer
    /// `start` as the contract says.
    Failed(Failure),
    /// A one-shot program that names no file, or a name on no `PATH` folder.
    NotFound {
        /// The program, as given.
        program: String,
    },
}

/// A validator command line that does not split into words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// It has no words at all.
    #[error("the validator command is empty")]
    Empty,
    /// A quote is not closed, or the line ends in a lone backslash.
    #[error("`{0}` has a quote that is not closed or ends in a lone backslash")]
    Unbalanced(String),
}

/// A `--source-text` value that does not say which formats a validator
/// reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SourceTextError {
    /// A word that names no format of the contract.
    #[error(
        "`{0}` is not a source format: give `json`, `yaml` or `json,yaml`, or `none` for \
         a validator that reads no source text"
    )]
    UnknownFormat(String),
    /// No word at all, or an empty one between commas.
    #[error(
        "the list of formats is empty or has an empty entry: give `json`, `yaml` or \
         `json,yaml`, or `none`"
    )]
    Empty,
}

/// Reads the formats of source text a validator is taken to read (`run
/// --source-text`): `json`, `yaml`, both comma-separated (`json,yaml`), or
/// `none`. The support is at this harness's
/// [`SOURCE_TEXT_VERSION`](mcpdesc_protocol::SOURCE_TEXT_VERSION), each
/// format named once, in format order.
///
/// # Errors
///
/// A word that names no format, or an empty list or entry.
pub fn parse_source_text(text: &str) -> Result<SourceTextSupport, SourceTextError> {
    if text.trim() == "none" {
        return Ok(SourceTextSupport::of(&[]));
    }
    let mut formats = BTreeSet::new();
    for word in text.split(',').map(str::trim) {
        if word.is_empty() {
            return Err(SourceTextError::Empty);
        }
        let format = SourceFormat::from_name(word)
            .ok_or_else(|| SourceTextError::UnknownFormat(word.to_owned()))?;
        formats.insert(format);
    }
    Ok(SourceTextSupport::of(
        &formats.into_iter().collect::<Vec<_>>(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_text_formats_read_as_a_list_or_none() {
        let reads = |text: &str| {
            let support = parse_source_text(text).unwrap();
            assert_eq!(support.version, mcpdesc_protocol::SOURCE_TEXT_VERSION);
            [SourceFormat::Json, SourceFormat::Yaml].map(|format| support.reads(format))
        };
        assert_eq!(reads("yaml"), [false, true]);
        assert_eq!(reads("json"), [true, false]);
        assert_eq!(reads(" yaml , json,yaml"), [true, true]);
        assert_eq!(reads("none"), [false, false]);
        assert_eq!(
            parse_source_text("yaml,json").unwrap().formats,
            ["json", "yaml"]
        );
        assert_eq!(
            parse_source_text("toml"),
            Err(SourceTextError::UnknownFormat("toml".into()))
        );
        assert_eq!(
            parse_source_text("yaml,none"),
            Err(SourceTextError::UnknownFormat("none".into()))
        );
        assert_eq!(
            parse_source_text("YAML"),
            Err(SourceTextError::UnknownFormat("YAML".into()))
        );
        for empty in ["", " ", "yaml,", ",json"] {
            assert_eq!(
                parse_source_text(empty),
                Err(SourceTextError::Empty),
                "{empty:?}"
            );
        }
    }
}
