//! The files of a suite: catalogs, fixtures and expectations, by relative path.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Bound;
use std::path::{Path, PathBuf};

use mcpdesc_source::{Document, Format, LoadError, MAX_DOCUMENT_BYTES};
use serde::de::DeserializeOwned;

use crate::SuiteError;
use crate::input::{self, InputError, InputKind, kind_of};
use crate::suite::compiled::{self, Candidate};

/// The top-level folders that make up a suite tree.
pub const PARTS: [&str; 3] = ["suites", "fixtures", "expected"];

/// Every file of a suite, keyed by its `/`-separated path relative to the
/// suite root (e.g. `fixtures/document/expected-valid/minimal.json`).
///
/// A tree is read once, up front; later stages never touch the file system.
#[derive(Debug, Clone, Default)]
pub struct SuiteTree {
    /// Where the tree was read from: a folder, or `None` for the built-in one.
    pub root: Option<PathBuf>,
    /// The built-in suite's files, names and bytes, are borrowed from the
    /// binary, not copied: a test process that runs one case builds this
    /// tree too.
    files: BTreeMap<Cow<'static, str>, Cow<'static, [u8]>>,
    /// Files left out, by escaped name: looked up for every fixture and
    /// expectation, so not a list.
    refused: BTreeMap<String, FileProblem>,
    /// The compiled twins of YAML files, by the YAML file's name: only the
    /// built-in suite has them (see [`compiled`]).
    twins: BTreeMap<&'static str, Candidate<'static>>,
}

/// Why a file of a suite folder was left out of its tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileProblem {
    /// Larger than any suite file may be ([`MAX_DOCUMENT_BYTES`]); its size
    /// was read from its metadata, so it was never read.
    #[error("the file is {size} bytes; the limit is {limit}")]
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The largest size accepted.
        limit: usize,
    },
    /// A FIFO, a socket, a device, or a folder named like a document: never
    /// opened, since opening a FIFO can wait forever.
    #[error("{kind} is not a regular file; a suite holds only regular files")]
    NotRegular {
        /// What it is instead (e.g. `a FIFO`).
        kind: &'static str,
    },
    /// Its name is not UTF-8, so it has no single spelling in case IDs (two
    /// such names could decode to the same text).
    #[error("the name is not valid UTF-8; rename it")]
    NameNotUtf8,
    /// Its name holds a control character, which would reach terminals and
    /// reports as is.
    #[error("the name contains a control character; rename it")]
    NameHasControl,
    /// A symbolic link: links are not followed, so nothing outside the
    /// suite folder is ever read.
    #[error("a link is not followed in a suite tree; copy the file instead")]
    Link,
    /// It could not be read.
    #[error("cannot be read: {0}")]
    Unreadable(String),
}

/// The suite this harness was built with: the files of the
/// `mcpdesc-suite` data crate.
const EMBEDDED: &[(&str, &[u8])] = mcpdesc_suite::FILES;

/// The compiled twins built in, by the name of their YAML file, each with
/// the hash of that file worked out when the data crate was built.
fn builtin_twins() -> impl Iterator<Item = (&'static str, Candidate<'static>)> {
    mcpdesc_suite::twins().filter_map(|(source, bytes)| {
        let candidate = Candidate {
            text: bytes,
            current: mcpdesc_suite::file_hash(source)?,
        };
        Some((source, candidate))
    })
}

/// Reads the built-in YAML file `name` (one of the data crate's files) into
/// `T`, from its twin when it has an up-to-date one, as
/// [`SuiteTree::yaml_data`] does, without building the whole tree.
pub(crate) fn builtin_yaml_data<T: DeserializeOwned>(
    name: &str,
    bytes: &[u8],
) -> Result<T, LoadError> {
    let twin = builtin_twins().find_map(|(source, twin)| (source == name).then_some(twin));
    compiled::yaml_data(name, twin, bytes)
}

impl SuiteTree {
    /// The suite built into this binary.
    pub fn embedded() -> SuiteTree {
        SuiteTree {
            root: None,
            files: EMBEDDED
                .iter()
                .map(|(name, bytes)| (Cow::Borrowed(*name), Cow::Borrowed(*bytes)))
                .collect(),
            refused: BTreeMap::new(),
            twins: builtin_twins().collect(),
        }
    }

    /// The suite in the folder `root` (which holds `suites/`, `fixtures/` and
    /// `expected/`).
    ///
    /// A file that cannot be taken into the tree does not stop the others:
    /// it is kept in [`SuiteTree::refused`] with why. Such are files larger
    /// than [`MAX_DOCUMENT_BYTES`] (judged from their metadata, and read
    /// through a bounded reader, so a huge file costs no memory), anything
    /// that is not a regular file (never opened), names that are not UTF-8
    /// or hold control characters, links (never followed, so nothing
    /// outside the folder is read) and files that cannot be read.
    ///
    /// # Errors
    ///
    /// [`SuiteError::NotASuite`] when `root` has no `suites/` folder.
    pub fn from_dir(root: &Path) -> Result<SuiteTree, SuiteError> {
        if !root.join("suites").is_dir() {
            return Err(SuiteError::NotASuite(root.to_path_buf()));
        }
        let mut files = BTreeMap::new();
        let mut refused = BTreeMap::new();
        for part in PARTS {
            let dir = root.join(part);
            if !dir.is_dir() {
                continue;
            }
            let mut walk = walkdir::WalkDir::new(&dir)
                .sort_by_file_name()
                .follow_links(false)
                .into_iter();
            while let Some(entry) = walk.next() {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(error) => {
                        refused.insert(
                            escaped_name(root, error.path().unwrap_or(&dir)),
                            FileProblem::Unreadable(error.to_string()),
                        );
                        continue;
                    }
                };
                let is_dir = entry.file_type().is_dir();
                let mut refuse = |problem| {
                    refused.insert(escaped_name(root, entry.path()), problem);
                };
                if let Err(problem) = check_name(entry.file_name().as_encoded_bytes()) {
                    refuse(problem);
                    if is_dir {
                        walk.skip_current_dir();
                    }
                    continue;
                }
                if entry.path_is_symlink() {
                    refuse(FileProblem::Link);
                    continue;
                }
                if is_dir {
                    if entry.depth() > 0 && Format::from_path(entry.file_name()).is_some() {
                        refuse(FileProblem::NotRegular { kind: "a folder" });
                        walk.skip_current_dir();
                    }
                    continue;
                }
                if !entry.file_type().is_file() {
                    refuse(FileProblem::NotRegular {
                        kind: kind_of(entry.file_type()),
                    });
                    continue;
                }
                match read_bounded(entry.path()) {
                    Ok(bytes) => {
                        files.insert(
                            Cow::Owned(relative_name(root, entry.path())),
                            Cow::Owned(bytes),
                        );
                    }
                    Err(problem) => refuse(problem),
                }
            }
        }
        Ok(SuiteTree {
            root: Some(root.to_path_buf()),
            files,
            refused,
            // A working tree is read as it is: its YAML files are what
            // a person edits, and its twins may lag behind until `bless`.
            twins: BTreeMap::new(),
        })
    }

    /// The suite in the folder `dir` when one is given, else the built-in
    /// suite.
    ///
    /// # Errors
    ///
    /// As for [`SuiteTree::from_dir`].
    pub fn open(dir: Option<&Path>) -> Result<SuiteTree, SuiteError> {
        match dir {
            Some(dir) => SuiteTree::from_dir(dir),
            None => Ok(SuiteTree::embedded()),
        }
    }

    /// A tree made of the given files, for tests and tools.
    pub fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> SuiteTree {
        SuiteTree {
            root: None,
            files: files
                .into_iter()
                .map(|(name, bytes)| (Cow::Owned(name), Cow::Owned(bytes)))
                .collect(),
            refused: BTreeMap::new(),
            twins: BTreeMap::new(),
        }
    }

    /// This tree as it will be once `changes` are written: each file
    /// given new text replaced or added, each given none removed. For
    /// `bless`, which plans expectations from the fixtures it is about to
    /// write (and, dry, does not write).
    pub fn with_changes<'a>(
        mut self,
        changes: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
    ) -> SuiteTree {
        for (path, text) in changes {
            match text {
                Some(text) => {
                    self.files.insert(
                        Cow::Owned(path.to_owned()),
                        Cow::Owned(text.as_bytes().to_vec()),
                    );
                }
                None => {
                    self.files.remove(path);
                }
            }
        }
        self
    }

    /// The files and folders left out of the tree, in path order, each
    /// with why. A name is `/`-separated and relative to the suite root, with
    /// bytes that are not UTF-8 shown as `\xNN` and control characters
    /// escaped.
    pub fn refused(&self) -> impl Iterator<Item = (&str, &FileProblem)> {
        self.refused
            .iter()
            .map(|(name, problem)| (name.as_str(), problem))
    }

    /// Why the file at `name` was left out of the tree, if it was.
    pub fn refusal(&self, name: &str) -> Option<&FileProblem> {
        self.refused.get(name)
    }

    /// A content hash of the whole tree, `sha256:<hex>`: over every file's
    /// name and bytes, in name order, so that two runs on the same catalogs,
    /// fixtures and expectations carry the same identity, and any change to
    /// one of them gives another. It covers what is read: a compiled twin
    /// read in its YAML file's place that says something else (see
    /// [`SuiteTree::twin_disagreements`]) is hashed too, so that a suite
    /// changed by hand-editing a twin has another identity; honest twins
    /// add nothing, so the built-in suite has the identity of its files,
    /// as a working tree of them has.
    #[cfg(feature = "reports")]
    pub fn content_hash(&self) -> String {
        use sha2::Digest as _;
        let mut hasher = sha2::Sha256::new();
        // Lengths first, so that no two different trees hash alike by
        // moving bytes between a name and its content.
        let mut file = |name: &str, bytes: &[u8]| {
            hasher.update((name.len() as u64).to_le_bytes());
            hasher.update(name.as_bytes());
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        for (name, bytes) in &self.files {
            file(name, bytes);
        }
        for (name, _) in self.twin_disagreements() {
            if let Some(twin) = self.twins.get(name) {
                // Under the twin's name, which no file of the tree has.
                file(&compiled::twin_path(name), twin.text);
            }
        }
        let digest = hasher.finalize();
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        format!("sha256:{hex}")
    }

    /// The YAML files of the tree read from a compiled twin that says
    /// something else than the file (edited by hand, its `source` hash
    /// kept), by the file's name, in name order. Only the built-in suite
    /// reads twins. Parses every YAML file that has a twin read in its
    /// place, which the twins exist to avoid: for `check` and the content
    /// hash, not for loading.
    #[cfg(feature = "yaml")]
    pub fn twin_disagreements(&self) -> Vec<(&str, compiled::Disagreement)> {
        self.twins
            .iter()
            .filter_map(|(name, twin)| {
                let bytes = self.get(name)?;
                let disagreement = compiled::disagreement(name, *twin, bytes)?;
                Some((*name, disagreement))
            })
            .collect()
    }

    /// The bytes of the file at `name`, if the tree has it.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(|bytes| &**bytes)
    }

    /// The files whose path starts with `prefix`, in path order.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a [u8])> + 'a {
        self.files
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(move |(name, _)| name.starts_with(prefix))
            .map(|(name, bytes)| (&**name, &**bytes))
    }

    /// Reads the YAML file `name` of the tree (whose bytes are `bytes`)
    /// into `T`: from its compiled twin when it has an up-to-date one, else
    /// with the strict YAML reader.
    ///
    /// # Errors
    ///
    /// A [`LoadError`] with file, line and column.
    pub(crate) fn yaml_data<T: DeserializeOwned>(
        &self,
        name: &str,
        bytes: &[u8],
    ) -> Result<T, LoadError> {
        compiled::yaml_data(
            &self.display_path(name),
            self.twins.get(name).copied(),
            bytes,
        )
    }

    /// Loads the document `name` of the tree (whose bytes are `bytes`): a
    /// YAML one from its compiled twin when it has an up-to-date one.
    ///
    /// # Errors
    ///
    /// A [`LoadError`] with file, line and column.
    pub(crate) fn document(
        &self,
        name: &str,
        bytes: &[u8],
        format: Format,
    ) -> Result<Document, LoadError> {
        if format == Format::Yaml
            && let Some(document) = self
                .twins
                .get(name)
                .and_then(|twin| compiled::document(*twin))
        {
            return Ok(document);
        }
        mcpdesc_source::load(&self.display_path(name), bytes, format)
    }

    /// Whether the YAML file `name` has a twin made from its current bytes
    /// (only the built-in suite's files have twins).
    #[cfg(all(test, feature = "reports"))]
    pub(crate) fn has_current_twin(&self, name: &str) -> bool {
        let (Some(twin), Some(bytes)) = (self.twins.get(name), self.get(name)) else {
            return false;
        };
        twin.current == compiled::source_hash(bytes) && compiled::document(*twin).is_some()
    }

    /// This tree with the twin of the YAML file `name` replaced by `text`,
    /// still taken for made from the file's current bytes: a twin edited by
    /// hand, its `source` hash kept.
    #[cfg(all(test, feature = "reports"))]
    pub(crate) fn with_twin_text(mut self, name: &str, text: &'static [u8]) -> SuiteTree {
        let twin = self
            .twins
            .get_mut(name)
            .unwrap_or_else(|| panic!("{name} has no twin"));
        twin.text = text;
        self
    }

    /// Where the tree comes from, as reports name it: its folder, or
    /// `built in`.
    pub fn source(&self) -> String {
        self.root
            .as_ref()
            .map_or_else(|| "built in".to_owned(), |root| root.display().to_string())
    }

    /// Where a file of the tree is on disk (for messages and for writing
    /// expectations), or its tree name for the built-in suite.
    pub fn display_path(&self, name: &str) -> String {
        match &self.root {
            Some(root) => root.join(name).display().to_string(),
            None => name.to_owned(),
        }
    }
}

/// The `/`-separated path of `path` below `root`; only called for paths
/// whose every component passed [`check_name`].
fn relative_name(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|component| component.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The `/`-separated path of `path` below `root`, with every byte that is
/// not UTF-8 shown as `\xNN`, control characters escaped and `\` doubled,
/// so that two different names never print alike.
fn escaped_name(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|component| escape(component.as_os_str().as_encoded_bytes()))
        .collect::<Vec<_>>()
        .join("/")
}

fn escape(bytes: &[u8]) -> String {
    let mut text = String::new();
    for chunk in bytes.utf8_chunks() {
        for character in chunk.valid().chars() {
            match character {
                '\\' => text.push_str("\\\\"),
                c if c.is_ascii_control() => {
                    let _ = write!(text, "\\x{:02x}", u32::from(c));
                }
                c if c.is_control() => {
                    let _ = write!(text, "\\u{{{:04x}}}", u32::from(c));
                }
                c => text.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}

/// A file or folder name must be UTF-8 without control characters: it
/// becomes part of case IDs and of every report line about it.
fn check_name(name: &[u8]) -> Result<(), FileProblem> {
    let name = std::str::from_utf8(name).map_err(|_| FileProblem::NameNotUtf8)?;
    if name.chars().any(char::is_control) {
        return Err(FileProblem::NameHasControl);
    }
    Ok(())
}

/// Reads the regular file at `path` as every input is read
/// ([`crate::input`]): its size is checked before it is read, and the read
/// is bounded anyway in case it grows.
fn read_bounded(path: &Path) -> Result<Vec<u8>, FileProblem> {
    input::read_bytes(path, InputKind::Suite).map_err(|error| match error {
        InputError::NotRegular { what, .. } => FileProblem::NotRegular { kind: what },
        InputError::TooLarge { size, .. } => FileProblem::TooLarge {
            size,
            limit: MAX_DOCUMENT_BYTES,
        },
        InputError::Io { source, .. } => FileProblem::Unreadable(source.to_string()),
        other => FileProblem::Unreadable(other.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_names_print_every_byte_distinctly() {
        assert_eq!(escape(b"a\xff.json"), "a\\xff.json");
        assert_eq!(escape(b"a\\xff.json"), "a\\\\xff.json");
        assert_eq!(
            escape("b\u{1b}[1m\u{85}é.json".as_bytes()),
            "b\\x1b[1m\\u{0085}é.json"
        );
        assert_eq!(check_name(b"ok-\xc3\xa9.json"), Ok(()));
        assert_eq!(check_name(b"a\xff.json"), Err(FileProblem::NameNotUtf8));
        assert_eq!(check_name(b"a\n.json"), Err(FileProblem::NameHasControl));
        assert_eq!(
            check_name("a\u{85}.json".as_bytes()),
            Err(FileProblem::NameHasControl)
        );
    }
}
