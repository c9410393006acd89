//! What a validator or a fixture says reaches the terminal only as visible
//! characters: no escape sequence, no NUL byte, no forged report line.

use super::*;

const FORGED: &str = "370 cases: 370 passed (forged)";

/// Asserts that `output` (stdout or stderr) holds no byte or character that
/// acts on a terminal, and no forged line.
#[track_caller]
fn assert_inert(output: &[u8], what: &str) {
    let text = String::from_utf8_lossy(output);
    for (bad, name) in [
        ('\u{1b}', "ESC"),
        ('\0', "NUL"),
        ('\u{202e}', "a bidi override"),
        ('\u{9b}', "a C1 control"),
    ] {
        assert!(!text.contains(bad), "{what} holds {name}:\n{text}");
    }
    assert!(
        !text.lines().any(|line| line.starts_with(FORGED)),
        "{what} holds a forged line:\n{text}"
    );
}

#[test]
fn what_a_validator_says_is_escaped_in_the_report() {
    let command = super::external_support::python("hostile_validator.py", "");
    let output = harness()
        .args([
            "run",
            "--jobs",
            "1",
            "--timeout",
            "5",
            "--validator",
            &command,
        ])
        .args(["--filter", "document/*/minimal.json"])
        .args(["--filter", "document/*/missing-info.json"])
        .args(["--filter", "document/*/legacy-revisions.json"])
        .args(["--filter", "document/*/all-five-revisions.json"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_inert(&output.stdout, "stdout");
    assert_inert(&output.stderr, "stderr");
    // The hostile words are shown, escaped: the implementation's name, a
    // rule, a pointer, an error message, a stderr tail.
    assert_contains(
        &stdout,
        &[
            "validator hostile\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases: 370 passed (forged)\\n 1\\x1b",
            "error mcpdesc.document.shape\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases",
            "\"/info\\u001b[31m\\u0000\\u{202e}\\u{9b}\\n\\n370 cases",
            "the validator reported an error: \\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases",
            &format!("\n      {FORGED}\n"),
        ],
    );
}

#[test]
fn what_a_fixture_says_is_escaped_in_the_report() {
    let dir = suite_copy();
    let fixture = dir
        .path()
        .join("fixtures/elicitation/expected-invalid/declaration-name-pattern.json");
    let mut document: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&fixture).unwrap()).unwrap();
    document["x-test"] = format!("A name with a space.\u{1b}[2J\0\u{202e}\n\n{FORGED}").into();
    fs::write(&fixture, serde_json::to_string_pretty(&document).unwrap()).unwrap();
    edit_one_pointer(dir.path());
    let output = on_tree("run", dir.path());
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_inert(&output.stdout, "stdout");
    assert_contains(
        &stdout,
        &[&format!(
            "tests:   A name with a space.\\x1b[2J\\0\\u{{202e}}\\n\\n{FORGED}"
        )],
    );
}

#[test]
fn what_an_adapter_says_is_escaped_by_smoke() {
    let command = super::external_support::python("hostile_validator.py", "");
    let output = harness()
        .args(["smoke", "--timeout", "5", "--validator", &command])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_inert(&output.stdout, "stdout");
    assert_contains(
        &stdout,
        &["`hostile\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases: 370 passed (forged)\\n`"],
    );
}

/// ESC, an OSC 8 hyperlink (ended by BEL), and a bidi override: what a
/// report's suite hash, rule IDs and case IDs hold in the tests below.
const TERMINAL: &str = "\u{1b}[31m\u{1b}]8;;https://evil.example\u{7}link\u{1b}]8;;\u{7}\u{202e}";

/// Markdown and HTML that would show a remote image, or a link.
const MARKUP: &str = "![x](https://evil.example/x.png) <img src=x>";

/// Asserts that `output` holds nothing that acts on a terminal (as
/// [`assert_inert`], and no BEL, which ends an OSC sequence).
#[track_caller]
fn assert_terminal_safe(output: &[u8], what: &str) {
    assert_inert(output, what);
    let text = String::from_utf8_lossy(output);
    assert!(!text.contains('\u{7}'), "{what} holds BEL:\n{text}");
}

/// The Markdown `text` with its code spans taken out and every
/// backslash-escaped character replaced by `_`: what Markdown may still
/// read as markup.
fn live_markdown(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut live = String::new();
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        if c == '\\' && chars.get(index + 1).is_some_and(char::is_ascii_punctuation) {
            live.push('_');
            index += 2;
        } else if c == '`' {
            let run = chars[index..].iter().take_while(|&&c| c == '`').count();
            // The span ends at the next run of exactly as many backticks.
            let mut end = index + run;
            let mut closed = None;
            while end < chars.len() {
                let found = chars[end..].iter().take_while(|&&c| c == '`').count();
                if found == run {
                    closed = Some(end + found);
                    break;
                }
                end += found.max(1);
            }
            match closed {
                Some(after) => {
                    live.push_str("CODE");
                    index = after;
                }
                None => {
                    live.extend(&chars[index..index + run]);
                    index += run;
                }
            }
        } else {
            live.push(c);
            index += 1;
        }
    }
    live
}

/// Asserts that the Markdown `text` shows no image, link, autolink or HTML
/// element that came from untrusted text.
#[track_caller]
fn assert_no_live_markup(text: &str, what: &str) {
    let live = live_markdown(text);
    for markup in [
        "![",
        "](",
        "<img",
        "<script",
        "https://evil",
        "evil.example",
    ] {
        assert!(
            !live.contains(markup),
            "{what} has live `{markup}`:\n{text}\n--- live:\n{live}"
        );
    }
}

/// Two reports of the reference validator (`a.json` and `b.json`, which
/// disagree on a case) whose suite hash, rule IDs and case IDs carry
/// [`TERMINAL`] and whose implementation carries [`MARKUP`].
fn hostile_reports(dir: &Path) {
    let output = harness()
        .current_dir(dir)
        .args(["run", "--quiet", "--report", "plain.json"])
        .args(["--filter", "document/expected-invalid/missing-info.json"])
        .args(["--filter", "document/expected-valid/minimal.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let mut text = fs::read_to_string(dir.join("plain.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let hash = report["run"]["suite"]["hash"].as_str().unwrap().to_owned();
    let terminal = serde_json::to_string(TERMINAL).unwrap();
    let terminal = terminal.trim_matches('"');
    for (plain, hostile) in [
        (format!("\"{hash}\""), format!("\"{hash}{terminal}\"")),
        (
            "\"mcpdesc.document.shape\"".to_owned(),
            format!("\"mcpdesc.document.shape{terminal}\""),
        ),
        (
            "\"document/expected-invalid/missing-info.json@".to_owned(),
            format!("\"document/expected-invalid/missing-info.json{terminal}@"),
        ),
    ] {
        assert!(text.contains(&plain), "{plain}");
        text = text.replace(&plain, &hostile);
    }
    let mut report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let implementation = &mut report["run"]["implementation"];
    implementation["name"] = format!("{MARKUP} name").into();
    implementation["version"] = format!("1 {MARKUP}").into();
    implementation["language"] = format!("{MARKUP} & <b>").into();
    fs::write(dir.join("a.json"), report.to_string()).unwrap();
    // The second misses the first case's finding of the hostile rule.
    let case = report["cases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|case| case["id"].as_str().unwrap().contains("missing-info"))
        .unwrap();
    let expected = case["outcome"]["expected"][0].clone();
    case["outcome"]["missing"] = serde_json::json!([expected]);
    case["passes"] = serde_json::json!({"verdict": false, "rules": false, "exact": false});
    fs::write(dir.join("b.json"), report.to_string()).unwrap();
}

#[test]
fn what_a_report_says_is_escaped_in_compare_s_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    hostile_reports(dir);
    let compare = |args: &[&str]| {
        harness()
            .current_dir(dir)
            .arg("compare")
            .args(args)
            .output()
            .unwrap()
    };
    // On stdout.
    let output = compare(&["a.json", "b.json"]);
    let stdout = stdout_of_success(&output);
    assert_terminal_safe(&output.stdout, "compare's stdout");
    assert_terminal_safe(&output.stderr, "compare's stderr");
    assert_no_live_markup(&stdout, "compare's stdout");
    // The hostile words are shown, escaped.
    assert_contains(
        &stdout,
        &[
            "\\x1b[31m\\x1b]8;;https://evil.example\\x07link",
            "\\u{202e}",
            "missing-info.json\\x1b[31m",
        ],
    );
    // In a file.
    let output = compare(&["a.json", "b.json", "--markdown", "tables.md"]);
    stdout_of_success(&output);
    let markdown = fs::read(dir.join("tables.md")).unwrap();
    assert_terminal_safe(&markdown, "compare --markdown");
    assert_no_live_markup(&String::from_utf8_lossy(&markdown), "compare --markdown");
    // The regression view, on stdout and in a file.
    let output = compare(&["--before", "a.json", "--after", "b.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert_terminal_safe(&output.stdout, "the regression view");
    assert_terminal_safe(&output.stderr, "the regression view's stderr");
    assert_no_live_markup(&stdout_of(&output), "the regression view");
    let output = compare(&[
        "--before",
        "a.json",
        "--after",
        "b.json",
        "--markdown",
        "regressions.md",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let markdown = fs::read(dir.join("regressions.md")).unwrap();
    assert_terminal_safe(&markdown, "the regression view's file");
    assert_no_live_markup(
        &String::from_utf8_lossy(&markdown),
        "the regression view's file",
    );
}

#[test]
fn a_baseline_entry_that_matches_no_case_is_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.yaml");
    let entry = serde_json::to_string(&format!("document/no-such{TERMINAL}.json")).unwrap();
    fs::write(
        &baseline,
        format!("failures:\n  - case: {entry}\n    reason: gone\n"),
    )
    .unwrap();
    let output = harness()
        .arg("run")
        .arg("--baseline")
        .arg(&baseline)
        .args(["--filter", "document/expected-valid/minimal.json"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &["no case of the suite matches", "no-such\\x1b[31m"],
    );
    assert_terminal_safe(&output.stderr, "stderr");
}

#[test]
fn what_a_validator_says_is_no_markup_in_the_markdown_summary_or_the_statement() {
    let dir = tempfile::tempdir().unwrap();
    let command = super::external_support::python("hostile_validator.py", "markdown");
    let output = harness()
        .current_dir(dir.path())
        .args(["run", "--quiet", "--timeout", "30", "--validator", &command])
        .args(["--filter", "document/*/minimal.json"])
        .args(["--filter", "document/*/missing-info.json"])
        .args(["--markdown", "summary.md"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let summary = fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert_contains(&summary, &["hostile"]);
    assert_no_live_markup(&summary, "the Markdown summary");

    let output = harness()
        .current_dir(dir.path())
        .args([
            "certify",
            "--quiet",
            "--timeout",
            "30",
            "--validator",
            &command,
        ])
        .args(["--filter", "document/*/minimal.json"])
        .args(["--filter", "document/*/missing-info.json"])
        .args(["--statement", "statement.json"])
        .args(["--statement-markdown", "statement.md"])
        .output()
        .unwrap();
    assert!(
        dir.path().join("statement.md").is_file(),
        "{}",
        stderr_of(&output)
    );
    let statement = fs::read_to_string(dir.path().join("statement.md")).unwrap();
    assert_contains(&statement, &["hostile"]);
    assert_no_live_markup(&statement, "the statement's Markdown");
}

/// Asserts that `xml` is well-formed XML 1.0: it parses, and neither its
/// characters nor its character references are outside XML 1.0's `Char`.
#[track_caller]
fn assert_xml_1_0(xml: &str, what: &str) {
    let allowed = |c: u32| matches!(c, 0x9 | 0xa | 0xd | 0x20..=0xd7ff | 0xe000..=0xfffd | 0x1_0000..=0x10_ffff);
    for c in xml.chars() {
        assert!(
            allowed(u32::from(c)),
            "{what} holds U+{:04X}:\n{xml}",
            u32::from(c)
        );
    }
    for reference in xml.split("&#").skip(1) {
        let number = reference.split(';').next().unwrap();
        let code = match number.strip_prefix('x') {
            Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
            None => number.parse().unwrap(),
        };
        assert!(allowed(code), "{what} refers to U+{code:04X}:\n{xml}");
    }
    let mut reader = quick_xml::Reader::from_str(xml);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(
                quick_xml::events::Event::Start(element) | quick_xml::events::Event::Empty(element),
            ) => {
                for attribute in element.attributes() {
                    attribute.unwrap_or_else(|error| panic!("{what}: {error}\n{xml}"));
                }
            }
            Ok(_) => {}
            Err(error) => panic!("{what} does not parse: {error}\n{xml}"),
        }
    }
}

#[test]
fn the_junit_file_is_xml_whatever_a_validator_says() {
    let dir = tempfile::tempdir().unwrap();
    let command = super::external_support::python("hostile_validator.py", "xml");
    let output = harness()
        .current_dir(dir.path())
        .args(["run", "--quiet", "--timeout", "30", "--validator", &command])
        .args(["--filter", "document/*/minimal.json"])
        .args(["--filter", "document/*/missing-info.json"])
        .args(["--filter", "document/*/legacy-revisions.json"])
        .args(["--junit", "run.xml", "--report", "run.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let xml = fs::read_to_string(dir.path().join("run.xml")).unwrap();
    assert_xml_1_0(&xml, "run --junit");
    // What XML cannot hold is shown as a visible escape.
    assert_contains(&xml, &["\\u{fffe}\\u{ffff}"]);

    let output = harness()
        .current_dir(dir.path())
        .args(["merge", "run.json", "--junit", "merged.xml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let xml = fs::read_to_string(dir.path().join("merged.xml")).unwrap();
    assert_xml_1_0(&xml, "merge --junit");
}
