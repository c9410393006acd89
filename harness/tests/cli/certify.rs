//! The README's "Certify your validator in CI" workflow: it is valid YAML
//! of the shape GitHub Actions reads, and its harness commands, run as
//! written (with the harness just built on `PATH`), pass with the Python
//! example's baseline and write every output the later steps upload.

use std::process::Command as StdCommand;

use serde_json::Value;

use super::*;

/// The first ```yaml block of the README's CI section, parsed.
fn readme_workflow() -> Value {
    let block = readme_block("#### Certify your validator in CI", "yaml");
    mcpdesc_source::parse_yaml("README.md", block.as_bytes()).unwrap()
}

/// The `run` lines of a job's steps, in order.
fn run_lines(job: &Value) -> Vec<String> {
    job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|step| step["run"].as_str())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_workflow_runs_as_written() {
    let workflow = readme_workflow();
    let job = &workflow["jobs"]["conformance"];
    let uses: Vec<&str> = job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|step| step["uses"].as_str())
        .collect();
    for action in [
        "actions/checkout@",
        "actions/upload-artifact@",
        "actions/upload-pages-artifact@",
    ] {
        assert!(
            uses.iter().any(|used| used.starts_with(action)),
            "{action} in {uses:?}"
        );
    }
    let badges = &workflow["jobs"]["badges"];
    assert_eq!(badges["needs"], "conformance");
    assert!(
        badges["steps"][0]["uses"]
            .as_str()
            .unwrap()
            .starts_with("actions/deploy-pages@")
    );

    let lines = run_lines(job);
    let install = lines
        .iter()
        .find(|line| line.starts_with("cargo install "))
        .expect("a step installs the harness");
    assert_contains(install, &["--locked", "mcpdesc-conformance"]);

    // The checkout: the files the workflow names, in a folder of their own.
    let checkout = tempfile::tempdir().unwrap();
    let example = checkout.path().join("examples/python-validator");
    fs::create_dir_all(&example).unwrap();
    for file in ["validator.py", "baseline.yaml"] {
        fs::copy(
            workspace().join("examples/python-validator").join(file),
            example.join(file),
        )
        .unwrap();
    }
    // The harness as installed: this build, by its name, first on PATH.
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_mcpdesc-conformance"),
        bin.path().join("mcpdesc-conformance"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let summary = checkout.path().join("step-summary.md");
    for line in lines
        .iter()
        .filter(|line| !line.starts_with("cargo install "))
    {
        let mut command = StdCommand::new("sh");
        command
            .args(["-c", line])
            .current_dir(checkout.path())
            .env("PATH", &path)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env_remove("CI")
            .env_remove("GITHUB_ACTIONS");
        for (name, value) in workflow["env"].as_object().unwrap() {
            command.env(name, value.as_str().unwrap());
        }
        let output = command.output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "`{line}`\n--- stdout\n{}\n--- stderr\n{}",
            stdout_of(&output),
            stderr_of(&output)
        );
    }

    // Everything the upload steps take is there.
    let out = checkout.path().join("out");
    let report: Value =
        serde_json::from_str(&fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["run"]["implementation"]["name"], "python-example");
    assert!(
        report["summary"]["knownFailures"].as_u64().unwrap() > 0,
        "{}",
        report["summary"]
    );
    assert!(
        fs::read_to_string(out.join("junit.xml"))
            .unwrap()
            .contains("<testsuites")
    );
    for badge in ["exact.json", "exact.svg", "rules.svg", "verdict.svg"] {
        assert!(out.join("badges").join(badge).is_file(), "{badge}");
    }
    let shown = fs::read_to_string(&summary).unwrap();
    assert_eq!(shown, fs::read_to_string(out.join("summary.md")).unwrap());
}
