//! Colour in the human report: `--color auto|always|never`, `NO_COLOR` and
//! `CLICOLOR_FORCE`; never in files or JSON; escaping intact under it.

use super::*;

const ESC: char = '\u{1b}';

/// The words of a `run` of the Python example on one case it fails (a
/// missing finding in the diff).
fn example_failing_args() -> Vec<String> {
    let validator = format!(
        "python3 {}",
        workspace()
            .join("examples/python-validator/validator.py")
            .display()
    );
    [
        "run",
        "--validator",
        &validator,
        "--jobs",
        "1",
        "--filter",
        "document/expected-invalid/mcpdesc-not-string.json@2025-06-18",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// That run, with `extra` words.
fn example_failing(extra: &[&str]) -> Command {
    harness().args(example_failing_args()).args(extra)
}

/// `text` without any SGR sequence (`ESC [ digits and ; m`).
fn strip_sgr(text: &str) -> String {
    let mut plain = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("\u{1b}[") {
        plain.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        if after[end..].starts_with('m') {
            rest = &after[end + 1..];
        } else {
            // Not an SGR sequence: kept, so that the comparison shows it.
            plain.push_str(&rest[start..start + 2]);
            rest = after;
        }
    }
    plain.push_str(rest);
    plain
}

#[track_caller]
fn assert_plain(text: &str, what: &str) {
    assert!(!text.contains(ESC), "{what} is coloured:\n{text}");
}

#[track_caller]
fn assert_coloured(text: &str) {
    assert_contains(
        text,
        &[
            "\u{1b}[1;31mFAIL\u{1b}[0m document/expected-invalid/mcpdesc-not-string.json",
            "\u{1b}[31m-error mcpdesc.document.shape \"/mcpdesc\"",
            "\u{1b}[31m     0.0%\u{1b}[0m",
            "\u{1b}[1;31m1 failed\u{1b}[0m",
        ],
    );
}

/// Off on a pipe (auto, the default) and with `never`; on with `always`,
/// where the colour is all that differs.
#[test]
fn colour_is_off_on_a_pipe_and_on_with_always() {
    let plain = example_failing(&[]).output().unwrap();
    assert_eq!(plain.status.code(), Some(1), "{}", stderr_of(&plain));
    assert_plain(&stdout_of(&plain), "the default report on a pipe");
    let never = example_failing(&["--color", "never"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert_plain(&stdout_of(&never), "--color never");
    let always = example_failing(&["--color", "always"]).output().unwrap();
    assert_eq!(always.status.code(), Some(1));
    let coloured = stdout_of(&always);
    assert_coloured(&coloured);
    assert_eq!(strip_sgr(&coloured), stdout_of(&plain));
    assert_plain(&stderr_of(&always), "stderr");
}

/// Under `auto`, a non-empty `NO_COLOR` turns colour off even where
/// `CLICOLOR_FORCE` would turn it on; an empty one does not count;
/// `always` beats it.
#[test]
fn no_color_turns_auto_off_and_always_beats_it() {
    let forced = example_failing(&[])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert_coloured(&stdout_of(&forced));
    let no_color = example_failing(&["--color", "auto"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_plain(&stdout_of(&no_color), "auto under NO_COLOR");
    let empty = example_failing(&[])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "")
        .output()
        .unwrap();
    assert_coloured(&stdout_of(&empty));
    let always = example_failing(&["--color", "always"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_coloured(&stdout_of(&always));
}

/// Files, JSON lines and annotations are never coloured, whatever
/// `--color` says.
#[test]
fn files_and_json_are_never_coloured() {
    let dir = tempfile::tempdir().unwrap();
    let badges = dir.path().join("badges");
    let output = example_failing(&["--color", "always", "--annotations", "github"])
        .arg("--report")
        .arg(dir.path().join("report.json"))
        .arg("--junit")
        .arg(dir.path().join("junit.xml"))
        .arg("--markdown")
        .arg(dir.path().join("summary.md"))
        .arg("--badge-dir")
        .arg(&badges)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let stdout = stdout_of(&output);
    assert_coloured(&stdout);
    let annotations: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("::"))
        .collect();
    assert!(!annotations.is_empty(), "{stdout}");
    for line in annotations {
        assert_plain(line, "an annotation");
    }
    for file in ["report.json", "junit.xml", "summary.md"] {
        let text = fs::read_to_string(dir.path().join(file)).unwrap();
        assert_plain(&text, file);
    }
    for badge in fs::read_dir(&badges).unwrap() {
        let path = badge.unwrap().path();
        assert_plain(
            &fs::read_to_string(&path).unwrap(),
            &path.display().to_string(),
        );
    }
    let json = example_failing(&["--color", "always", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(1));
    let stdout = stdout_of(&json);
    assert_plain(&stdout, "JSON lines");
    for line in stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
}

/// An escape sequence in a fixture, and in what a validator says, is still
/// shown escaped with colour on: the colour is all that differs from the
/// plain report, which holds no escape character.
#[test]
fn untrusted_escape_sequences_stay_escaped_with_colour_on() {
    let dir = suite_copy();
    let fixture = dir
        .path()
        .join("fixtures/elicitation/expected-invalid/declaration-name-pattern.json");
    let mut document: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&fixture).unwrap()).unwrap();
    document["x-test"] = "A name.\u{1b}[2J\u{1b}[31m\0\u{202e}".into();
    fs::write(&fixture, serde_json::to_string_pretty(&document).unwrap()).unwrap();
    edit_one_pointer(dir.path());
    let run = |color: &str| {
        harness()
            .args(["run", "--jobs", "1", "--color", color, "--suite-dir"])
            .arg(dir.path())
            .args([
                "--filter",
                "elicitation/expected-invalid/declaration-name-pattern.json",
            ])
            .output()
            .unwrap()
    };
    let (plain, coloured) = (run("never"), run("always"));
    assert_eq!(coloured.status.code(), Some(1), "{}", stderr_of(&coloured));
    let (plain, coloured) = (stdout_of(&plain), stdout_of(&coloured));
    assert_plain(&plain, "the plain report");
    assert!(coloured.contains(ESC));
    assert_eq!(strip_sgr(&coloured), plain);
    assert_contains(
        &coloured,
        &["tests:   A name.\\x1b[2J\\x1b[31m\\0\\u{202e}"],
    );

    let command = super::external_support::python("hostile_validator.py", "");
    let run = |color: &str| {
        harness()
            .args(["run", "--jobs", "1", "--timeout", "5", "--color", color])
            .args(["--validator", &command])
            .args(["--filter", "document/*/minimal.json"])
            .args(["--filter", "document/*/missing-info.json"])
            .output()
            .unwrap()
    };
    let (plain, coloured) = (run("never"), run("always"));
    assert_eq!(coloured.status.code(), Some(1), "{}", stderr_of(&coloured));
    let (plain, coloured) = (stdout_of(&plain), stdout_of(&coloured));
    assert_plain(&plain, "the plain report");
    assert_eq!(strip_sgr(&coloured), plain);
    assert_contains(
        &coloured,
        &["error mcpdesc.document.shape\\x1b[31m\\0\\u{202e}\\u{9b}\\n\\n370 cases"],
    );
}

/// `baseline`, `smoke` and `merge` print coloured reports too.
#[test]
fn baseline_smoke_and_merge_take_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let output = example_failing(&[])
        .arg("--report")
        .arg(dir.path().join("shard.json"))
        .args(["--partition", "hash:1/1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let merged = harness()
        .arg("merge")
        .arg(dir.path().join("shard.json"))
        .args(["--color", "always"])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(1), "{}", stderr_of(&merged));
    assert_contains(&stdout_of(&merged), &["\u{1b}[1;31m1 failed\u{1b}[0m"]);

    let validator = format!(
        "python3 {}",
        workspace()
            .join("examples/python-validator/validator.py")
            .display()
    );
    let baseline = harness()
        .args(["baseline", "--validator", &validator, "--color", "always"])
        .args([
            "--filter",
            "document/expected-invalid/mcpdesc-not-string.json@2025-06-18",
            "--output",
        ])
        .arg(dir.path().join("baseline.yaml"))
        .output()
        .unwrap();
    assert_eq!(baseline.status.code(), Some(0), "{}", stderr_of(&baseline));
    assert_coloured(&stdout_of(&baseline));
    assert_plain(
        &fs::read_to_string(dir.path().join("baseline.yaml")).unwrap(),
        "the baseline file",
    );

    let smoke = |color: &str| {
        harness()
            .args(["smoke", "--timeout", "5", "--color", color, "--validator"])
            .arg(super::external_support::python("hostile_validator.py", ""))
            .output()
            .unwrap()
    };
    let (plain, coloured) = (smoke("never"), smoke("always"));
    assert_eq!(coloured.status.code(), Some(1));
    let (plain, coloured) = (stdout_of(&plain), stdout_of(&coloured));
    assert_plain(&plain, "smoke");
    assert_contains(&coloured, &["  \u{1b}[1;31mFAIL \u{1b}[0m "]);
    assert_eq!(strip_sgr(&coloured), plain);
}

/// Runs `command` with its stdout on a pseudo-terminal (stderr a pipe, so
/// no progress bar): what it wrote there.
#[cfg(unix)]
fn on_a_terminal(env: &[(&str, &str)]) -> String {
    use std::io::Read as _;
    let pty = nix::pty::openpty(None, None).unwrap();
    let mut command = std::process::Command::new(cargo_bin!("mcpdesc-conformance"));
    command
        .args(example_failing_args())
        .env_remove("CI")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::from(pty.slave))
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    // The child holds the only other end: reading stops when it exits.
    drop(command);
    let mut master = fs::File::from(pty.master);
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        // Linux ends a terminal whose other end closed with EIO.
        let _ = master.read_to_end(&mut bytes);
        bytes
    });
    let status = child.wait().unwrap();
    let bytes = reader.join().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    String::from_utf8_lossy(&bytes).replace("\r\n", "\n")
}

/// `auto` colours a terminal, unless `NO_COLOR` is set or `TERM` is dumb.
#[cfg(unix)]
#[test]
fn auto_colours_a_terminal() {
    assert_coloured(&on_a_terminal(&[("TERM", "xterm")]));
    let no_color = on_a_terminal(&[("TERM", "xterm"), ("NO_COLOR", "1")]);
    assert_plain(&no_color, "a terminal under NO_COLOR");
    assert!(no_color.contains("FAIL document/"), "{no_color}");
    assert_plain(&on_a_terminal(&[("TERM", "dumb")]), "a dumb terminal");
}
