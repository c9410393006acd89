//! The pages on disk: writing them (`docs`) and telling how a folder of
//! committed pages differs from what would be written (`check`).

use std::fs;
use std::path::{Path, PathBuf};

use super::{GENERATED_MARKER, Pages};
use crate::file::{self, FileError};
use crate::input::{self, InputKind};

/// How a folder of pages differs from the generated pages.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Drift {
    /// The page exists with other content.
    Stale(String),
    /// The page does not exist.
    Missing(String),
    /// A generated page (one carrying the generated marker) that would no
    /// longer be written, such as the page of a renamed rule.
    Extra(String),
}

impl Drift {
    /// The page's path, relative to the pages' folder.
    pub fn path(&self) -> &str {
        match self {
            Drift::Stale(path) | Drift::Missing(path) | Drift::Extra(path) => path,
        }
    }
}

/// What [`write()`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Pages created or replaced, by relative path.
    pub changed: Vec<String>,
    /// Pages already up to date, left untouched.
    pub unchanged: usize,
    /// Generated pages removed because no rule has them any more.
    pub removed: Vec<String>,
}

/// How the pages in `dir` differ from `pages`: every page that is stale or
/// missing, and every generated page there that `pages` no longer holds,
/// sorted by path. Files without the generated marker that `pages` does
/// not hold are not looked at.
///
/// # Errors
///
/// A page or folder that exists but cannot be read.
pub fn compare(pages: &Pages, dir: &Path) -> Result<Vec<Drift>, FileError> {
    let mut drift = Vec::new();
    for (path, text) in pages.iter() {
        let file = dir.join(path);
        match input::read_bytes(&file, InputKind::Written) {
            Ok(bytes) if bytes == text.as_bytes() => {}
            Ok(_) => drift.push(Drift::Stale(path.to_owned())),
            Err(error) if error.is_not_found() => {
                drift.push(Drift::Missing(path.to_owned()));
            }
            Err(error) => return Err(error.into()),
        }
    }
    for path in generated_on_disk(dir)? {
        if pages.get(&path).is_none() {
            drift.push(Drift::Extra(path));
        }
    }
    drift.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(drift)
}

/// Why [`write()`] did not write the pages.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A symbolic link below the pages' folder, where a page or its folder
    /// goes: writing through it would write outside that folder.
    #[error(
        "{}: a symbolic link below the pages' folder; no page is written through a link \
         (remove it, or give the folder it points to as --out)",
        .0.display()
    )]
    Link(PathBuf),
    /// An I/O error, with its path.
    #[error(transparent)]
    File(#[from] FileError),
}

/// Writes `pages` into `dir`, each page atomically and only when its
/// content changes, and removes the generated pages there that `pages` no
/// longer holds (with their folder, when that leaves it empty). Nothing
/// else in `dir` is touched. `dir` itself may be a link (the caller named
/// it); nothing below it may be, where a page goes.
///
/// # Errors
///
/// A symbolic link where a page or its folder goes, found before anything
/// is written (and looked for again before each page, in case one
/// appeared since); else the first I/O error, with its path. Pages
/// written before an error stay.
pub fn write(pages: &Pages, dir: &Path) -> Result<Written, WriteError> {
    for (path, _) in pages.iter() {
        refuse_links(dir, path)?;
    }
    let mut written = Written::default();
    for (path, text) in pages.iter() {
        let file = dir.join(path);
        refuse_links(dir, path)?;
        if input::read_bytes(&file, InputKind::Written).is_ok_and(|bytes| bytes == text.as_bytes())
        {
            written.unchanged += 1;
            continue;
        }
        file::replace(&file, text, ".mcpdesc-conformance-docs-", ".tmp")?;
        written.changed.push(path.to_owned());
    }
    for path in generated_on_disk(dir)? {
        if pages.get(&path).is_some() {
            continue;
        }
        let file = dir.join(&path);
        fs::remove_file(&file).map_err(file::at(&file))?;
        if let Some(folder) = file.parent().filter(|folder| *folder != dir) {
            // Only an empty folder is removed; one with other files stays.
            let _ = fs::remove_dir(folder);
        }
        written.removed.push(path);
    }
    Ok(written)
}

/// Fails on the first symbolic link among the folders and the file that
/// the page `path` (relative, `/`-separated) goes through below `dir`;
/// what does not exist yet is no link.
fn refuse_links(dir: &Path, path: &str) -> Result<(), WriteError> {
    let mut at = dir.to_path_buf();
    for part in path.split('/') {
        at.push(part);
        match fs::symlink_metadata(&at) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                return Err(WriteError::Link(at));
            }
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(error) => return Err(file::at(&at)(error).into()),
        }
    }
    Ok(())
}

/// The generated pages in `dir` and its immediate subfolders (where
/// [`Pages`] puts them): regular `.md` files, not links, that carry the
/// generated marker. Paths are relative to `dir`, `/`-separated, sorted.
fn generated_on_disk(dir: &Path) -> Result<Vec<String>, FileError> {
    let mut found = Vec::new();
    if !dir.is_dir() {
        return Ok(found);
    }
    let mut folders: Vec<(PathBuf, String)> = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        for entry in fs::read_dir(&folder).map_err(file::at(&folder))? {
            let entry = entry.map_err(file::at(&folder))?;
            let kind = entry.file_type().map_err(file::at(&entry.path()))?;
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                continue;
            };
            if kind.is_dir() && prefix.is_empty() {
                folders.push((entry.path(), format!("{name}/")));
            } else if kind.is_file()
                && name.ends_with(".md")
                && input::read_bytes(&entry.path(), InputKind::Written)?
                    .windows(GENERATED_MARKER.len())
                    .any(|window| window == GENERATED_MARKER.as_bytes())
            {
                found.push(format!("{prefix}{name}"));
            }
        }
    }
    found.sort();
    Ok(found)
}
