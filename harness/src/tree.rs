//! The files of a suite: catalogs, fixtures and expectations, by relative path.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::SuiteError;

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
    files: BTreeMap<String, Vec<u8>>,
}

const EMBEDDED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));

impl SuiteTree {
    /// The suite built into this binary.
    pub fn embedded() -> SuiteTree {
        SuiteTree {
            root: None,
            files: EMBEDDED
                .iter()
                .map(|(name, bytes)| ((*name).to_owned(), bytes.to_vec()))
                .collect(),
        }
    }

    /// The suite in the folder `root` (which holds `suites/`, `fixtures/` and
    /// `expected/`). Links are not followed, so nothing outside the folder is
    /// read.
    ///
    /// # Errors
    ///
    /// [`SuiteError::Io`] when the folder or a file cannot be read, and
    /// [`SuiteError::Link`] for a link inside it.
    pub fn from_dir(root: &Path) -> Result<SuiteTree, SuiteError> {
        if !root.join("suites").is_dir() {
            return Err(SuiteError::NotASuite(root.to_path_buf()));
        }
        let mut files = BTreeMap::new();
        for part in PARTS {
            let dir = root.join(part);
            if !dir.is_dir() {
                continue;
            }
            for entry in walkdir::WalkDir::new(&dir)
                .sort_by_file_name()
                .follow_links(false)
            {
                let entry = entry.map_err(|error| SuiteError::Io {
                    path: error.path().unwrap_or(&dir).to_path_buf(),
                    message: error.to_string(),
                })?;
                if entry.path_is_symlink() {
                    return Err(SuiteError::Link(entry.path().to_path_buf()));
                }
                if !entry.file_type().is_file() {
                    continue;
                }
                let bytes = fs::read(entry.path()).map_err(|error| SuiteError::Io {
                    path: entry.path().to_path_buf(),
                    message: error.to_string(),
                })?;
                files.insert(relative_name(root, entry.path()), bytes);
            }
        }
        Ok(SuiteTree {
            root: Some(root.to_path_buf()),
            files,
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
            files: files.into_iter().collect(),
        }
    }

    /// The bytes of the file at `name`, if the tree has it.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(Vec::as_slice)
    }

    /// The files whose path starts with `prefix`, in path order.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a [u8])> + 'a {
        self.files
            .range(prefix.to_owned()..)
            .take_while(move |(name, _)| name.starts_with(prefix))
            .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
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

fn relative_name(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|component| component.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
