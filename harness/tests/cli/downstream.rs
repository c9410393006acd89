//! What a Rust implementer compiles and runs: the `Cargo.toml` lines and the
//! test target the README gives for using the `libtest` entry point, in a
//! fresh crate.

use std::path::Path;
use std::process::Command as StdCommand;

use super::*;

/// Packages that only the command lines, the file outputs and external
/// validators' processes need; a crate that follows the README compiles
/// none of them.
const NOT_FOR_A_TEST: &[&str] = &[
    "anyhow",
    "indicatif",
    "humantime",
    "mcpdesc-validator",
    "fluent-uri",
    "quick-junit",
    "sha2",
    "tempfile",
    "process-wrap",
    "nix",
    "signal-hook",
    "shlex",
    // The built-in suite is read from its compiled JSON form.
    "serde-saphyr",
];

/// The issue's bound on what a crate following the README compiles.
const MOST_PACKAGES: usize = 45;

/// Writes, in `dir`, a crate named `my-validator` (so that the README's
/// `my_validator::MyValidator` names its library) with the README's
/// `Cargo.toml` lines, this `lib.rs`, the README's `tests/conformance.rs`,
/// and the workspace's lock file, so that the same versions resolve,
/// offline.
fn downstream_crate(dir: &Path, lib: &str) {
    let manifest = format!(
        "[package]\nname = \"my-validator\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{}",
        readme_manifest_lines()
    );
    fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::create_dir_all(dir.join("tests")).unwrap();
    fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let test = readme_block("### Certifying a Rust validator", "rust");
    fs::write(dir.join("tests/conformance.rs"), test).unwrap();
    fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

/// The first ```toml block of the README's "Certifying a Rust validator"
/// section, with its paths pointed at this workspace.
fn readme_manifest_lines() -> String {
    readme_block("### Certifying a Rust validator", "toml").replace(
        "../mcpdesc-conformance/",
        &format!("{}/", workspace().display()),
    )
}

#[test]
fn a_crate_following_the_readme_compiles_no_command_line_dependency() {
    let dir = tempfile::tempdir().unwrap();
    downstream_crate(dir.path(), "");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = StdCommand::new(cargo)
        .args([
            "tree",
            "--offline",
            "--edges",
            "normal,build,dev",
            "--prefix",
            "none",
        ])
        .args(["--format", "{p}"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let mut packages: Vec<String> = stdout_of(&output)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    packages.sort();
    packages.dedup();
    // Printed for the record (`cargo test -- --nocapture`).
    println!(
        "a crate following the README compiles {} packages (itself included)",
        packages.len()
    );
    assert!(
        packages.len() <= MOST_PACKAGES,
        "{} packages, more than {MOST_PACKAGES}: {packages:?}",
        packages.len()
    );
    let unwanted: Vec<&&str> = NOT_FOR_A_TEST
        .iter()
        .filter(|name| packages.iter().any(|package| package == *name))
        .collect();
    assert!(
        unwanted.is_empty(),
        "compiled for a test: {unwanted:?}\n{packages:?}"
    );
    assert!(packages.iter().any(|package| package == "libtest-mimic"));
}

/// A validator that finds nothing: every valid case passes, every invalid
/// one fails with the findings it missed.
const FINDS_NOTHING: &str = r#"
use mcpdesc_protocol::{Implementation, Reply, ValidateRequest, Validator};

#[derive(Default)]
pub struct MyValidator;

impl Validator for MyValidator {
    fn implementation(&self) -> Implementation {
        Implementation {
            name: "finds-nothing".into(),
            version: "0.1.0".into(),
            language: "rust".into(),
            specifications: vec!["0.9.0".into()],
            revisions: vec!["2025-11-25".into()],
            ..Implementation::default()
        }
    }

    fn validate(&self, _: &ValidateRequest) -> Reply {
        Reply::Diagnostics(Vec::new())
    }
}
"#;

#[test]
fn a_crate_following_the_readme_runs_the_built_in_suite_without_yaml_or_processes() {
    let dir = tempfile::tempdir().unwrap();
    downstream_crate(dir.path(), FINDS_NOTHING);
    // Built in this test binary's target folder, where most of what it
    // compiles already is.
    let exe = std::env::current_exe().unwrap();
    let target_dir = exe.parent().and_then(Path::parent).and_then(Path::parent);
    let test = |variables: &[(&str, &Path)]| {
        let mut command = StdCommand::new(env!("CARGO"));
        command
            .current_dir(dir.path())
            .args(["test", "--quiet", "--offline", "--test", "conformance"])
            .arg("--target-dir")
            .arg(target_dir.unwrap())
            .env_remove("CI");
        for (name, value) in variables {
            command.env(name, value);
        }
        command.output().unwrap()
    };

    let output = test(&[]);
    let stdout = stdout_of(&output);
    assert!(!output.status.success(), "{stdout}");
    let summary = stdout
        .lines()
        .find(|line| line.starts_with("test result:"))
        .unwrap_or_else(|| panic!("no summary\n{stdout}\n{}", stderr_of(&output)));
    println!("the crate's conformance test: {summary}");
    let count = |word: &str| -> usize {
        let before = summary.split(&format!(" {word}")).next().unwrap();
        before.rsplit(' ').next().unwrap().parse().unwrap()
    };
    // Every case of the suite is a trial: those under the one announced
    // revision run (valid ones pass, invalid ones fail), the others are
    // ignored.
    let cases = mcpdesc_conformance::suite::SuiteSet::load(
        mcpdesc_conformance::suite::tree::SuiteTree::embedded(),
    );
    let all = mcpdesc_conformance::suite::case::Selection::default()
        .cases(&cases)
        .len();
    assert_eq!(
        count("passed") + count("failed") + count("ignored"),
        all,
        "{summary}"
    );
    assert!(count("passed") > 0 && count("failed") > 0, "{summary}");
    // A missed finding in a YAML fixture is placed on its line, read from
    // the compiled form.
    let failure = stdout
        .split("---- ")
        .find(|block| {
            block.starts_with("document/expected-invalid/empty-info-name.yaml@2025-11-25")
        })
        .unwrap_or_else(|| panic!("no failure for the YAML fixture\n{stdout}"));
    assert!(failure.contains("(line "), "{failure}");
    assert!(!stdout.contains("cannot read YAML"), "{stdout}");

    // A working tree is YAML, which this build cannot read: the run says
    // so instead of running anything.
    let output = test(&[("MCPDESC_SUITE_DIR", &workspace())]);
    let stdout = stdout_of(&output);
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains("this build cannot read YAML"), "{stdout}");
    assert!(stdout.contains("`yaml` feature"), "{stdout}");
}
