//! The MCP Description conformance suite, as data: every rule catalog
//! (`suites/`), fixture (`fixtures/`) and expectation (`expected/`) of this
//! package, embedded at compile time.
//!
//! The harness (`mcpdesc-conformance`) loads and checks these files; this
//! crate only carries them, so that the suite travels with any build of the
//! harness (a clone, `cargo install`, a packaged crate) and one version of
//! the suite is one version of this crate.

#![warn(missing_docs)]

/// Every file of the suite, as `(path, bytes)` with `/`-separated paths
/// relative to the package root (`suites/document.yaml`,
/// `fixtures/document/expected-valid/minimal.json`, …), sorted by path
/// within each of the three folders.
pub const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));

/// The suite's list of MCP protocol revisions (`suites/revisions.yaml`, also
/// one of [`FILES`]): for a validator that needs the known revisions
/// without loading the rest of the suite.
pub const REVISIONS: &str = include_str!("../suites/revisions.yaml");

/// The suite's compiled form (`compiled/`, written by `mcpdesc-conformance
/// bless`): a JSON twin of each YAML file of [`FILES`], at
/// `compiled/<path>.json`, with the value, where each value starts in the
/// YAML text, and a hash of the bytes it was made from. The harness reads
/// a twin instead of its YAML file when the hash matches, so that it can
/// run the built-in suite without a YAML parser.
pub const COMPILED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_compiled.rs"));
