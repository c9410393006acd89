//! The maintainer guides (`docs/adding-a-*.md`), followed step by step on
//! a copy of the repository.
//!
//! Each guide is read as it is published: a code block whose first line
//! names a language, a file and an action is applied to the copy
//! (`create` a file, `append` to one, or `after <line>`: insert after the
//! one line that reads exactly so), and every line of a `sh` block is run
//! from the copy's root, expecting the status a `# exits N` comment gives
//! (0 otherwise). A guide that drifts from the repository fails here.
//!
//! The commands are `cargo run -q -p mcpdesc-conformance -- ARGS`. When a
//! guide has changed Rust sources, the harness is built from the copy (as
//! `cargo run` would), into this test binary's own target folder so that
//! every dependency is already built: the copy's crates compile in some
//! seconds (about 15 on two cores; a separate target folder would first
//! build every dependency, over four minutes). The copy's crates get a
//! version of their own and its binary another name, so that no build
//! file of the copy is ever taken for one of this workspace (or of
//! another guide's copy). When a guide changes only suite data, the copy's
//! harness would be this one, so the built binary runs it.

use std::path::PathBuf;
use std::process::Output;

use super::docs::copy_folder;
use super::*;

/// What a guide asks for, in order.
#[derive(Debug)]
enum Step {
    /// Change a file of the copy.
    Edit {
        path: String,
        action: String,
        body: String,
    },
    /// Run one command line, expecting this status.
    Run { line: String, status: i32 },
}

/// The steps of `docs/<name>`.
fn steps_of(name: &str) -> Vec<Step> {
    let text = fs::read_to_string(workspace().join("docs").join(name)).unwrap();
    let mut steps = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let fence = if line.starts_with("```") {
            "```"
        } else if line.starts_with("~~~") {
            "~~~"
        } else {
            continue;
        };
        let info = &line[fence.len()..];
        let mut body = String::new();
        for line in lines.by_ref() {
            if line == fence {
                break;
            }
            body.push_str(line);
            body.push('\n');
        }
        let (language, rest) = info.split_once(' ').unwrap_or((info, ""));
        if language == "sh" {
            for command in body.lines() {
                let command = command.trim();
                if command.is_empty() || command.starts_with('#') {
                    continue;
                }
                let (line, comment) = command.split_once("  #").unwrap_or((command, ""));
                let status = comment
                    .trim()
                    .strip_prefix("# exits ")
                    .or_else(|| comment.trim().strip_prefix("exits "))
                    .map_or(0, |n| n.trim().parse().unwrap());
                steps.push(Step::Run {
                    line: line.trim().to_owned(),
                    status,
                });
            }
        } else if let Some((path, action)) = rest.trim().split_once(' ') {
            steps.push(Step::Edit {
                path: path.to_owned(),
                action: action.to_owned(),
                body,
            });
        }
    }
    steps
}

/// A copy of the repository (sources, suite and docs) to follow a guide on.
struct Checkout {
    root: PathBuf,
    /// The name the copy's harness binary is built under.
    binary: String,
    /// Whether a guide has changed a Rust source or manifest.
    sources_changed: bool,
    /// Each command a guide ran, with what it printed, in order.
    ran: Vec<(String, Output)>,
}

impl Checkout {
    /// A fresh copy in this test target's temporary folder, named after the
    /// guide: the same path every run, so the copy's crates do not pile up
    /// in the target folder under new names.
    fn new(guide: &str) -> Checkout {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("guides")
            .join(guide);
        if root.exists() {
            fs::remove_dir_all(&root).unwrap();
        }
        // Everything but the build output and the history: the workspace's
        // manifests, every crate, the suite and the docs.
        fs::create_dir_all(&root).unwrap();
        for entry in fs::read_dir(workspace()).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if name == "target" || name == ".git" {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                copy_folder(&entry.path(), &root.join(&name));
            } else {
                fs::copy(entry.path(), root.join(&name)).unwrap();
            }
        }
        // Cargo names a path crate's build after its name, version and
        // path relative to the workspace root, so the copy's crates would
        // share their build files with this workspace's (and a build of one
        // would pass for a build of the other): a version of their own
        // keeps them apart.
        let manifest = root.join("Cargo.toml");
        let text = fs::read_to_string(&manifest).unwrap();
        assert!(text.contains("\"0.1.0\""), "{text}");
        fs::write(
            &manifest,
            text.replace("\"0.1.0\"", &format!("\"0.1.0-guide.{guide}\"")),
        )
        .unwrap();
        let binary = format!("guide-{guide}-mcpdesc-conformance");
        let manifest = root.join("harness/Cargo.toml");
        let text = fs::read_to_string(&manifest).unwrap();
        let bin = "[[bin]]\nname = \"mcpdesc-conformance\"";
        assert!(text.contains(bin), "{text}");
        fs::write(
            &manifest,
            text.replace(bin, &format!("[[bin]]\nname = \"{binary}\"")),
        )
        .unwrap();
        Checkout {
            root,
            binary,
            sources_changed: false,
            ran: Vec::new(),
        }
    }

    fn follow(&mut self, guide: &str) {
        let steps = steps_of(guide);
        assert!(
            steps.iter().any(|step| matches!(step, Step::Run { .. })),
            "{guide} has no command"
        );
        for step in steps {
            match step {
                Step::Edit { path, action, body } => self.edit(&path, &action, &body),
                Step::Run { line, status } => {
                    let output = self.run(&line);
                    assert_eq!(
                        output.status.code(),
                        Some(status),
                        "{guide}: `{line}`\n--- stdout\n{}\n--- stderr\n{}",
                        stdout_of(&output),
                        stderr_of(&output)
                    );
                    self.ran.push((line, output));
                }
            }
        }
    }

    fn edit(&mut self, path: &str, action: &str, body: &str) {
        let file = self.root.join(path);
        if !["suites/", "fixtures/", "expected/", "docs/"]
            .iter()
            .any(|data| path.starts_with(data))
        {
            self.sources_changed = true;
        }
        match action {
            _ if action.starts_with("widen-root-protocol-versions ") => {
                let words: Vec<&str> = action.split(' ').collect();
                let [_, after, new] = words[..] else {
                    panic!("{path}: `{action}` names the revision to follow and the new one");
                };
                widen_root_protocol_versions(&file, after, new);
            }
            "create" => {
                assert!(!file.exists(), "{path} exists already");
                fs::create_dir_all(file.parent().unwrap()).unwrap();
                fs::write(&file, body).unwrap();
            }
            "append" => {
                let mut text = fs::read_to_string(&file).unwrap();
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(body);
                fs::write(&file, text).unwrap();
            }
            _ => {
                let (verb, anchor) = action.split_once(' ').unwrap_or((action, ""));
                let text = fs::read_to_string(&file).unwrap();
                let lines: Vec<&str> = text.lines().collect();
                let found: Vec<usize> = (0..lines.len())
                    .filter(|&i| lines[i].trim() == anchor)
                    .collect();
                match (verb, found.len()) {
                    ("after" | "replace", 1) | ("after-each", 1..) => {}
                    _ => panic!(
                        "{path}: `{verb}` found {} lines reading `{anchor}`",
                        found.len()
                    ),
                }
                let mut edited: Vec<&str> = Vec::new();
                for (index, line) in lines.iter().enumerate() {
                    let at = found.contains(&index);
                    if !(at && verb == "replace") {
                        edited.push(line);
                    }
                    if at {
                        edited.extend(body.lines());
                    }
                }
                fs::write(&file, edited.join("\n") + "\n").unwrap();
            }
        }
    }

    /// Runs one command line of a guide in the copy's root.
    fn run(&self, line: &str) -> Output {
        let words = mcpdesc_conformance::backend::external::split_command(line).unwrap();
        let prefix = ["cargo", "run", "-q", "-p", "mcpdesc-conformance", "--"];
        assert!(
            words.starts_with(&prefix.map(str::to_owned)),
            "a command this test does not know: {line}"
        );
        let program = if self.sources_changed {
            self.build()
        } else {
            PathBuf::from(snapbox::cmd::cargo_bin!("mcpdesc-conformance"))
        };
        Command::new(program)
            .env_remove("CI")
            .current_dir(&self.root)
            .args(&words[prefix.len()..])
            .output()
            .unwrap()
    }

    /// Builds the copy's harness as `cargo run` would, in this test
    /// binary's profile and target folder, and returns its path.
    fn build(&self) -> PathBuf {
        // This test binary is <target>/<profile folder>/deps/cli-<hash>.
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().and_then(Path::parent).unwrap();
        let target_dir = profile_dir.parent().unwrap();
        let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
            Some("debug") => "dev".to_owned(),
            Some(other) => other.to_owned(),
            None => panic!("no profile folder in {}", exe.display()),
        };
        let output = std::process::Command::new(env!("CARGO"))
            .current_dir(&self.root)
            .args(["build", "--quiet", "--offline", "-p"])
            .args(["mcpdesc-conformance", "--bin", &self.binary])
            .args(["--profile", &profile, "--target-dir"])
            .arg(target_dir)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr_of(&output));
        profile_dir.join(format!("{}{}", self.binary, std::env::consts::EXE_SUFFIX))
    }
}

/// In every JSON fixture below `folder` whose root `protocolVersions`
/// lists `after`, lists `new` right after it (the file is written back
/// pretty-printed, as the fixtures are).
fn widen_root_protocol_versions(folder: &Path, after: &str, new: &str) {
    let mut widened = 0;
    for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry
            .path()
            .extension()
            .is_none_or(|extension| extension != "json")
        {
            continue;
        }
        let text = fs::read_to_string(entry.path()).unwrap();
        // A serialization case whose text the strict loader refuses runs
        // under every revision already, and must keep its text as written.
        let name = entry.path().display().to_string();
        if mcpdesc_source::load(&name, text.as_bytes(), mcpdesc_source::Format::Json).is_err() {
            continue;
        }
        let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
        let Some(versions) = document
            .get_mut("protocolVersions")
            .and_then(serde_json::Value::as_array_mut)
        else {
            continue;
        };
        if let Some(at) = versions.iter().position(|version| version == after)
            && !versions.iter().any(|version| version == new)
        {
            versions.insert(at + 1, new.into());
            fs::write(
                entry.path(),
                serde_json::to_string_pretty(&document).unwrap() + "\n",
            )
            .unwrap();
            widened += 1;
        }
    }
    assert!(
        widened > 0,
        "no fixture below {} lists {after}",
        folder.display()
    );
}

#[test]
fn adding_a_fixture() {
    let mut checkout = Checkout::new("fixture");
    checkout.follow("adding-a-fixture.md");
    let expectation = fs::read_to_string(
        checkout
            .root
            .join("expected/elicitation/expected-invalid/url-with-space.json.yaml"),
    )
    .unwrap();
    assert_contains(
        &expectation,
        &["rule: \"mcpdesc.elicitation.url\", path: \"/tools/0/elicitations/0/url\""],
    );
    // The guide changed suite data only, so the built harness ran it.
    assert!(!checkout.sources_changed);
}

#[test]
fn adding_a_rule() {
    let mut checkout = Checkout::new("rule");
    checkout.follow("adding-a-rule.md");
    assert!(checkout.sources_changed);
    let expectation = fs::read_to_string(
        checkout
            .root
            .join("expected/elicitation/expected-invalid/declaration-name-too-long.json.yaml"),
    )
    .unwrap();
    for revision in mcpdesc_conformance::suite::builtin_revisions().iter() {
        assert_contains(
            &expectation,
            &[&format!(
                "  {revision}:\n    - {{severity: error, rule: \"mcpdesc.elicitation.name-length\", path: \"/tools/0/elicitations/0/name\"}}"
            )],
        );
    }
    let page = fs::read_to_string(
        checkout
            .root
            .join("docs/rules/elicitation/mcpdesc.elicitation.name-length.md"),
    )
    .unwrap();
    assert_contains(
        &page,
        &[
            "# Keep declaration names short",
            "```json\n\"confirm_the_deletion_of_the_branch_and_of_every_commit_only_on_i\"\n```",
        ],
    );
}

#[test]
fn adding_a_revision() {
    let mut checkout = Checkout::new("revision");
    checkout.follow("adding-a-revision.md");
    // Data and `bless` only: the harness built from this repository ran
    // every command, and its reference validator learnt the revision from
    // the suite.
    assert!(!checkout.sources_changed);
    // Before the tables had their rows, `check` said what lacked the
    // revision.
    let (_, first_check) = checkout
        .ran
        .iter()
        .find(|(line, _)| line.contains(" check "))
        .unwrap();
    let said = format!("{}{}", stdout_of(first_check), stderr_of(first_check));
    assert_contains(
        &said,
        &[
            "rule `mcp.elicitation.protocol-version`: applicability table lacks 2027-03-01",
            "rule `mcpdesc.protocol.legacy-validation-incomplete`: applicability table lacks 2027-03-01",
            "missing-protocol-versions.json.yaml: lists revisions [2024-11-05, 2025-03-26, \
             2025-06-18, 2025-11-25, 2026-07-28] but the fixture runs under [2024-11-05, \
             2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, 2027-03-01]",
            "no invalid case triggers `mcpdesc.document.shape` under 2027-03-01",
        ],
    );
    // A fixture that names no revision gained the new one, with the
    // findings of the newest revision before it.
    let expectation = fs::read_to_string(
        checkout
            .root
            .join("expected/document/expected-invalid/missing-protocol-versions.json.yaml"),
    )
    .unwrap();
    let findings_under = |revision: &str| -> String {
        let start = expectation
            .find(&format!("\n  {revision}:"))
            .unwrap_or_else(|| panic!("no {revision} in\n{expectation}"));
        let block = &expectation[start + 1..];
        let body = block.split_once('\n').map_or("", |(_, rest)| rest);
        body.lines()
            .take_while(|line| line.starts_with("    "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(findings_under("2027-03-01"), findings_under("2026-07-28"));
    let page = fs::read_to_string(
        checkout
            .root
            .join("docs/rules/elicitation/mcp.elicitation.protocol-version.md"),
    )
    .unwrap();
    assert_contains(
        &page,
        &["| 2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 | 2026-07-28 | 2027-03-01 |"],
    );
    // The last command ran the suite, new revision included, and passed.
    let (line, run) = checkout.ran.last().unwrap();
    assert!(line.contains(" run "), "{line}");
    assert_contains(&stdout_of(run), &["2027-03-01"]);
}
