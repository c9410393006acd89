//! Every file the harness reads follows one policy (size, file type,
//! encoding): each kind of hostile file, tried on each reader, is refused
//! promptly with the file's name and what is wrong, and never hangs nor
//! grows without bound.

use std::time::Duration;

use super::*;

/// A hostile file, and what the refusal of it says.
#[derive(Debug, Clone, Copy)]
enum Hostile {
    /// A FIFO nobody writes to: opening it would wait forever.
    Fifo,
    /// A link to `/dev/zero`: reading it would never end.
    Zero,
    /// A folder.
    Folder,
    /// A sparse file larger than any input may be.
    Huge,
    /// UTF-8 text starting with a byte-order mark.
    ByteOrderMark,
    /// Bytes that are not UTF-8, on the second line.
    NotUtf8,
}

impl Hostile {
    const ALL: [Hostile; 6] = [
        Hostile::Fifo,
        Hostile::Zero,
        Hostile::Folder,
        Hostile::Huge,
        Hostile::ByteOrderMark,
        Hostile::NotUtf8,
    ];

    /// Makes the file at `path`.
    fn make(self, path: &Path) {
        let _ = fs::remove_file(path);
        match self {
            Hostile::Fifo => {
                let made = std::process::Command::new("mkfifo")
                    .arg(path)
                    .status()
                    .unwrap();
                assert!(made.success());
            }
            Hostile::Zero => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
            Hostile::Folder => fs::create_dir(path).unwrap(),
            Hostile::Huge => {
                let file = fs::File::create(path).unwrap();
                // Past every cap (the largest is a report's 64 MiB), and
                // sparse: nothing is written.
                file.set_len(65 * 1024 * 1024).unwrap();
            }
            Hostile::ByteOrderMark => fs::write(path, "\u{feff}{}\n").unwrap(),
            Hostile::NotUtf8 => fs::write(path, b"{\n  \"a\xff\": 1}\n").unwrap(),
        }
    }

    /// What the refusal says, besides the file's name.
    fn said(self) -> &'static [&'static str] {
        match self {
            Hostile::Fifo => &["a FIFO is not a regular file"],
            Hostile::Zero => &["a character device is not a regular file"],
            Hostile::Folder => &["a folder is not a regular file"],
            Hostile::Huge => &["the limit"],
            Hostile::ByteOrderMark => &[":1:1: a byte-order mark is not allowed"],
            Hostile::NotUtf8 => &[":2:5: ", "is not valid UTF-8"],
        }
    }

    /// What the suite tree says of it, where that differs: a link is
    /// refused as a link, before what it names is looked at.
    fn said_by_the_tree(self) -> &'static [&'static str] {
        match self {
            Hostile::Zero => &["a link is not followed"],
            other => other.said(),
        }
    }
}

/// A command that reads the file named by its last argument.
struct Reader {
    /// What it reads, for the failure message.
    name: &'static str,
    /// The arguments before the file.
    args: &'static [&'static str],
    /// The arguments after it.
    after: &'static [&'static str],
}

const READERS: [Reader; 7] = [
    Reader {
        name: "a baseline (run --baseline)",
        args: &["run", "--quiet", "--baseline"],
        after: &[],
    },
    Reader {
        name: "the baseline to rewrite (baseline --output)",
        args: &["baseline", "--quiet", "--output"],
        after: &[],
    },
    Reader {
        name: "a shard (merge)",
        args: &["merge"],
        after: &[],
    },
    Reader {
        name: "a report (compare)",
        args: &["compare"],
        after: &["good.json"],
    },
    Reader {
        name: "a statement (certify --check)",
        args: &["certify", "--check"],
        after: &[],
    },
    Reader {
        name: "a report (certify --check-report)",
        args: &[
            "certify",
            "--check",
            "good.statement.json",
            "--check-report",
        ],
        after: &[],
    },
    Reader {
        name: "a rule list (run --rules)",
        args: &["run", "--quiet", "--rules"],
        after: &[],
    },
];

/// Runs the harness in `dir`, bounded: a reader that hangs fails the test
/// instead of stalling it.
fn bounded(dir: &Path, args: &[&str]) -> std::process::Output {
    harness()
        .current_dir(dir)
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

#[test]
fn every_reader_refuses_every_hostile_file_by_name() {
    let dir = tempfile::tempdir().unwrap();
    // The good files the readers need beside the hostile one.
    let made = bounded(dir.path(), &["run", "--quiet", "--report", "good.json"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr_of(&made));
    let made = bounded(
        dir.path(),
        &["certify", "--quiet", "--statement", "good.statement.json"],
    );
    assert_eq!(made.status.code(), Some(0), "{}", stderr_of(&made));
    let mut wrong = Vec::new();
    for reader in &READERS {
        for hostile in Hostile::ALL {
            let name = format!("hostile-{hostile:?}.input");
            let path = dir.path().join(&name);
            if path.is_dir() {
                fs::remove_dir(&path).unwrap();
            }
            hostile.make(&path);
            let mut args = reader.args.to_vec();
            args.push(&name);
            args.extend(reader.after);
            let output = bounded(dir.path(), &args);
            let stderr = stderr_of(&output);
            let named = stderr.lines().any(|line| {
                line.contains(&name) && hostile.said().iter().all(|said| line.contains(said))
            });
            if output.status.code() != Some(2) || !named {
                wrong.push(format!(
                    "{} given {hostile:?}: exit {:?}, expected 2 and a line naming the file with {:?}; \
                     stderr:\n{stderr}",
                    reader.name,
                    output.status.code(),
                    hostile.said()
                ));
            }
            if path.is_dir() {
                fs::remove_dir(&path).unwrap();
            } else {
                fs::remove_file(&path).unwrap();
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The suite tree's readers (a fixture, an expectation, a catalog) refuse
/// the same files with the same words, each as a suite problem of its
/// own.
#[test]
fn the_suite_tree_refuses_every_hostile_file_by_name() {
    let files = [
        "fixtures/document/expected-valid/minimal.json",
        "expected/document/expected-valid/minimal.json.yaml",
        "suites/elicitation.yaml",
    ];
    let mut wrong = Vec::new();
    for hostile in Hostile::ALL {
        let tree = suite_copy();
        for file in files {
            let path = tree.path().join(file);
            hostile.make(&path);
        }
        let output = harness()
            .args(["check", "--suite-dir"])
            .arg(tree.path())
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        for file in files {
            let said = hostile.said_by_the_tree();
            let named = stderr
                .lines()
                .any(|line| line.contains(file) && said.iter().all(|said| line.contains(said)));
            if output.status.code() != Some(2) || !named {
                wrong.push(format!(
                    "{file} as {hostile:?}: exit {:?}, expected 2 and a line with {said:?}; \
                     stderr:\n{stderr}",
                    output.status.code()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
