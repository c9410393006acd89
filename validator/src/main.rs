//! `mcpdesc-validate`: checks one MCP Description file with the reference
//! validator and prints each finding with its file, line and column.
//!
//! With `--stdio` it serves the harness's session mode on stdin and stdout;
//! with `--oneshot` it validates the one JSON document on stdin under
//! `MCPDESC_REVISION` (see `docs/protocol.md`).
//!
//! Exit status: 0 when no revision has an error, 1 when some revision has,
//! 2 when the file cannot be read or loaded or the command line is wrong.

mod stdio;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Parser;
use mcpdesc_protocol::{Revision, Severity};
use mcpdesc_source::{Document, Format};

#[derive(Debug, Parser)]
#[command(name = "mcpdesc-validate", version, about)]
struct Cli {
    /// The description to check (`.json`, `.yaml` or `.yml`).
    #[arg(required_unless_present_any = ["stdio", "oneshot"])]
    file: Option<PathBuf>,
    /// Serve the harness's session mode on stdin and stdout.
    #[arg(long, conflicts_with_all = ["file", "oneshot", "revisions"])]
    stdio: bool,
    /// Validate the JSON document on stdin under $MCPDESC_REVISION and print
    /// one reply (the harness's one-shot mode).
    #[arg(long, conflicts_with_all = ["file", "revisions"])]
    oneshot: bool,
    /// Check under this MCP revision (repeatable). By default, under every
    /// known revision the document's root `protocolVersions` names, or under
    /// all of them when it names none.
    #[arg(long = "revision", value_name = "REVISION")]
    revisions: Vec<Revision>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = if cli.stdio {
        stdio::session().map(|()| true)
    } else if cli.oneshot {
        stdio::oneshot()
    } else {
        run(cli)
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Validates the file and prints findings; `Ok(true)` when it has no error.
fn run(cli: Cli) -> anyhow::Result<bool> {
    let file = cli.file.context("name the file to check")?;
    let name = file.display().to_string();
    let format = Format::from_path(&file).with_context(|| {
        format!("{name}: cannot tell the format; name the file .json, .yaml or .yml")
    })?;
    let bytes = std::fs::read(&file).with_context(|| format!("{name}: cannot read"))?;
    let document = mcpdesc_source::load(&name, &bytes, format)?;
    let known = mcpdesc_validator::suite_revisions();
    if let Some(unknown) = cli.revisions.iter().find(|r| !known.contains(**r)) {
        anyhow::bail!(
            "unknown MCP revision {unknown} (the suite knows {})",
            known.names()
        );
    }
    let revisions = if cli.revisions.is_empty() {
        known.of_document(&document.value)
    } else {
        let mut chosen = cli.revisions;
        chosen.sort();
        chosen.dedup();
        chosen
    };
    // One line per distinct finding, with the revisions it appears under.
    let mut findings: BTreeMap<(String, String, Severity, String), Vec<Revision>> = BTreeMap::new();
    for revision in &revisions {
        for diagnostic in mcpdesc_validator::validate(&document.value, *revision, &known) {
            let key = (
                diagnostic.path.clone(),
                diagnostic.rule.clone(),
                diagnostic.severity,
                diagnostic.message.clone().unwrap_or_default(),
            );
            findings.entry(key).or_default().push(*revision);
        }
    }
    let mut ok = true;
    for ((path, rule, severity, message), under) in &findings {
        ok &= *severity != Severity::Error;
        let under: Vec<&str> = under.iter().map(|revision| revision.as_str()).collect();
        println!(
            "{}: {severity}[{rule}] {message} (at {}; under {})",
            place(&name, &document, path),
            serde_json::Value::String(path.clone()),
            under.join(", ")
        );
    }
    let revisions: Vec<&str> = revisions.iter().map(|revision| revision.as_str()).collect();
    eprintln!(
        "{name}: {} finding(s) under {}",
        findings.len(),
        revisions.join(", ")
    );
    Ok(ok)
}

/// `file:line:column` of the value a pointer names (or its nearest ancestor).
fn place(name: &str, document: &Document, pointer: &str) -> String {
    match document.locations.nearest(pointer) {
        Some(position) => format!("{name}:{position}"),
        None => name.to_owned(),
    }
}
