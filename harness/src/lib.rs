//! The conformance harness for MCP Description validators.
//!
//! Data flows one way: a [`tree::SuiteTree`] (the built-in suite or a working
//! tree) is loaded into a [`suite::SuiteSet`] of catalogs, fixtures and
//! expectations; a [`case::Selection`] picks the cases; the [`runner`] runs
//! each against a validator and [`compare`]s the reply; [`summary`] and
//! [`report`] turn results into numbers and text, with what validators and
//! fixtures said passed through [`escape`]. [`bless`] writes
//! expectations from the reference validator, [`check`] and [`coverage`]
//! lint the suite itself, and [`libtest`] turns any
//! in-process validator into a `cargo test` binary.

#![warn(missing_docs)]

pub mod badge;
pub mod bless;
pub mod case;
pub mod catalog;
pub mod check;
pub mod compare;
pub mod coverage;
pub mod emit;
pub mod escape;
pub mod event;
pub mod exit;
pub mod expectation;
pub mod external;
pub mod failure;
pub mod fixture;
pub mod interrupt;
pub mod libtest;
pub mod process;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod smoke;
pub mod suite;
pub mod summary;
pub mod tree;
pub mod wire;

use std::path::PathBuf;

/// A suite tree that cannot be read at all. (A file inside it that cannot
/// be read is not such an error: see [`tree::FileProblem`].)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    /// The folder has no `suites/` inside.
    #[error("{0}: not a suite tree (no `suites/` folder)")]
    NotASuite(PathBuf),
}
