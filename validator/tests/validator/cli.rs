//! `mcpdesc-validate FILE [--revision R]...`: findings at file:line:column,
//! and its exit statuses.

use std::path::{Path, PathBuf};

use snapbox::cmd::{Command, cargo_bin};

fn validate() -> Command {
    Command::new(cargo_bin!("mcpdesc-validate"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(name)
}

fn output_of(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let output = validate().args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn reports_each_finding_at_its_line_and_column_with_its_revisions() {
    let path = fixture("elicitation/expected-invalid/form-before-2025-06-18.json");
    let (code, stdout, _) = output_of(&[path.as_os_str()]);
    assert_eq!(code, Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].contains("form-before-2025-06-18.json:8:23: warning[mcpdesc.protocol.legacy-validation-incomplete]"), "{stdout}");
    assert!(
        lines[0].ends_with("(at \"/protocolVersions\"; under 2025-03-26)"),
        "{stdout}"
    );
    assert!(
        lines[1]
            .contains("form-before-2025-06-18.json:22:9: error[mcp.elicitation.protocol-version]"),
        "{stdout}"
    );
}

#[test]
fn yaml_positions_and_chosen_revisions() {
    let path = fixture("document/expected-invalid/empty-info-name.yaml");
    let revision = std::ffi::OsStr::new("--revision");
    let (code, stdout, stderr) = output_of(&[
        path.as_os_str(),
        revision,
        "2025-06-18".as_ref(),
        revision,
        "2024-11-05".as_ref(),
    ]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("empty-info-name.yaml:4:9: error[mcpdesc.document.shape]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(at \"/info/name\"; under 2024-11-05, 2025-06-18)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("2 finding(s) under 2024-11-05, 2025-06-18"),
        "{stderr}"
    );
}

#[test]
fn a_valid_document_exits_0_even_with_warnings() {
    for name in [
        "document/expected-valid/minimal.json",
        "document/expected-valid/legacy-revisions.json",
    ] {
        let path = fixture(name);
        let (code, stdout, _) = output_of(&[path.as_os_str()]);
        assert_eq!(code, Some(0), "{name}: {stdout}");
    }
}

#[test]
fn unreadable_input_and_usage_errors_exit_2_with_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let duplicate = dir.path().join("dup.yaml");
    std::fs::write(
        &duplicate,
        "mcpdesc: 0.9.0\ninfo: {name: a, version: b}\nmcpdesc: 0.9.0\n",
    )
    .unwrap();
    let (code, _, stderr) = output_of(&[duplicate.as_os_str()]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("dup.yaml:3:"), "{stderr}");

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "{}").unwrap();
    let (code, _, stderr) = output_of(&[text.as_os_str()]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("name the file .json, .yaml or .yml"),
        "{stderr}"
    );

    let missing = dir.path().join("missing.json");
    assert_eq!(output_of(&[missing.as_os_str()]).0, Some(2));

    let minimal = fixture("document/expected-valid/minimal.json");
    let (code, _, stderr) = output_of(&[
        minimal.as_os_str(),
        "--revision".as_ref(),
        "2025-13-01".as_ref(),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("`2025-13-01` is not an MCP protocol revision"),
        "{stderr}"
    );
    let (code, _, stderr) = output_of(&[
        minimal.as_os_str(),
        "--revision".as_ref(),
        "2027-03-01".as_ref(),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("unknown MCP revision 2027-03-01 (the suite knows 2024-11-05, "),
        "{stderr}"
    );
}

/// The suite's revisions with 2027-03-01 after them, as `start` and
/// `MCPDESC_REVISIONS` carry them.
fn grown_revisions() -> serde_json::Value {
    let mut list = serde_json::to_value(mcpdesc_validator::suite_revisions()).unwrap();
    list.as_array_mut()
        .unwrap()
        .push(serde_json::json!({"revision": "2027-03-01"}));
    list
}

/// A document that names the new revision only.
fn naming_the_new_revision() -> serde_json::Value {
    serde_json::json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "a", "version": "1"},
        "protocolVersions": ["2027-03-01"]
    })
}

#[test]
fn a_session_knows_and_announces_the_revisions_start_lists() {
    let start = serde_json::json!({
        "cmd": "start", "protocol": 1, "harness": {"name": "t", "version": "0"},
        "revisions": grown_revisions(),
    });
    let request = serde_json::json!({
        "cmd": "validate", "seq": 1, "case": "c", "specification": "0.9.0",
        "revision": "2027-03-01", "document": naming_the_new_revision(),
    });
    let output = validate()
        .arg("--stdio")
        .stdin(format!("{start}\n{request}\n{{\"cmd\":\"stop\"}}\n"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let announced = &lines[0]["implementation"]["revisions"];
    assert_eq!(announced.as_array().unwrap().last().unwrap(), "2027-03-01");
    assert_eq!(lines[1], serde_json::json!({"seq": 1, "diagnostics": []}));
}

#[test]
fn one_shot_knows_the_revisions_of_mcpdesc_revisions() {
    let run = |known: Option<String>| {
        let mut command = validate()
            .arg("--oneshot")
            .env("MCPDESC_REVISION", "2027-03-01")
            .stdin(naming_the_new_revision().to_string());
        if let Some(known) = known {
            command = command.env("MCPDESC_REVISIONS", known);
        }
        let output = command.output().unwrap();
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    assert_eq!(
        run(Some(grown_revisions().to_string())),
        serde_json::json!({"diagnostics": []})
    );
    // Without the list, the suite's revisions: the new one is unknown.
    let reply = run(None);
    assert_eq!(
        reply["diagnostics"][0]["rule"], "mcpdesc.protocol-versions.known",
        "{reply}"
    );
    let reply = run(Some("[]".into()));
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MCPDESC_REVISIONS is not a list of revisions"),
        "{reply}"
    );
}
