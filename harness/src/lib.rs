//! The conformance harness for MCP Description validators.
//!
//! The folders follow the pipeline, one way:
//!
//! - [`suite`] — discover and load: a [`suite::tree::SuiteTree`] (the
//!   built-in suite or a working tree) is loaded into a [`suite::SuiteSet`]
//!   of catalogs, fixtures and expectations, with every problem found on the
//!   way; a [`suite::case::Selection`] picks the cases; [`suite::check`] and
//!   [`suite::coverage`] lint the suite itself.
//! - [`backend`] — run: [`backend::schedule`] asks any
//!   [`backend::schedule::Backend`] (in process, or an external validator
//!   over the stdio contract) about each case on worker threads.
//! - [`judge`] — judge: each reply is compared with its expectation into an
//!   [`outcome::Outcome`], and outcomes are tallied per level,
//!   revision and rule. The outcome types are data of their own
//!   ([`outcome`]), below every stage, so that each stage reads them and
//!   none reaches up.
//! - [`run`] ties them together: it feeds the events of a whole run to the
//!   emitters as they happen.
//! - [`event`] and [`emit`] — report: the run's events (started, each case
//!   finished, finished) feed every output: the human report, JSON lines,
//!   the JSON report, JUnit, Markdown, GitHub annotations and badges; only
//!   the human report is ever coloured ([`emit::paint`]).
//!
//! Beside the pipeline: [`bless`] writes expectations from the reference
//! validator, [`pages`] writes the rule reference pages from the catalogs
//! (and tells `check` when committed ones are stale), [`smoke`] checks an
//! adapter in plain words, [`reports`] reads a JSON report back,
//! [`reports::merge`] rebuilds one run from its shards' reports and
//! [`reports::matrix`] compares implementations from their reports; [`libtest`] turns
//! any in-process validator into a `cargo test` binary, and [`exit`] holds
//! the documented exit statuses.
//!
//! Cargo features, all on by default: `cli` (the command line; it implies
//! the other three), `reports` (the files a run writes, `bless`, `diff`,
//! `pages`, `reports`; it implies `yaml`), `external`
//! (running external validators: their processes, the signal handler that
//! kills them, `smoke`, and `MCPDESC_VALIDATOR` in [`libtest`]) and `yaml`
//! (reading YAML: suite working trees, baselines; the built-in suite loads
//! from its compiled JSON form without it, see [`suite::compiled`]). A
//! crate that runs its own validator through [`libtest`] turns them off.

#![warn(missing_docs)]
// The crate's documentation links to what its default features add (the
// command line's modules, external validators); with one of them off, those
// links have nothing to point at. They are checked, warnings denied, in the
// default build (`.ci/run`), so a link broken there still fails.
#![cfg_attr(
    not(all(
        feature = "cli",
        feature = "external",
        feature = "reports",
        feature = "yaml"
    )),
    allow(rustdoc::broken_intra_doc_links)
)]

pub mod backend;
pub mod baseline;
#[cfg(feature = "reports")]
pub mod bless;
#[cfg(feature = "reports")]
pub mod diff;
pub mod emit;
pub mod event;
pub mod exit;
#[cfg(feature = "reports")]
pub mod file;
pub mod input;
pub mod judge;
pub mod libtest;
pub mod outcome;
#[cfg(feature = "reports")]
pub mod pages;
#[cfg(feature = "reports")]
pub mod reports;
pub mod run;
#[cfg(feature = "external")]
pub mod smoke;
pub mod suite;

use std::path::PathBuf;

/// A suite tree that cannot be read at all. (A file inside it that cannot
/// be read is not such an error: see [`suite::tree::FileProblem`].)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SuiteError {
    /// The folder has no `suites/` inside.
    #[error("{0}: not a suite tree (no `suites/` folder)")]
    NotASuite(PathBuf),
}
