//! Files the harness writes (expectations, reports, badges): each written
//! whole to a temporary file of its own beside it and renamed into place,
//! so that a reader, an interrupted run or a second writer never sees half
//! a file.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// An I/O error, with the path it concerns.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The file or folder.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: io::Error,
}

/// Turns an I/O error about `path` into a [`FileError`].
pub(crate) fn at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |source| FileError {
        path: path.to_path_buf(),
        source,
    }
}

/// Replaces `target` with `text`, creating its folder when missing. The
/// temporary file is named `PREFIX<random>SUFFIX` in the same folder (so
/// that the rename is atomic and its leftovers recognisable), and the file
/// is readable as the umask allows, not private like a temporary file.
///
/// # Errors
///
/// The first I/O error, with its path.
pub(crate) fn replace(
    target: &Path,
    text: &str,
    prefix: &str,
    suffix: &str,
) -> Result<(), FileError> {
    let parent = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(at(parent))?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(suffix);
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temporary = builder.tempfile_in(parent).map_err(at(parent))?;
    temporary
        .write_all(text.as_bytes())
        .and_then(|()| temporary.flush())
        .map_err(at(temporary.path()))?;
    temporary
        .persist(target)
        .map_err(|error| at(target)(error.error))?;
    Ok(())
}

/// Replaces a file an output of the harness writes (`--report`,
/// `--junit`, `--markdown`, badges).
///
/// # Errors
///
/// As for [`replace`].
pub(crate) fn write_output(target: &Path, text: &str) -> Result<(), FileError> {
    replace(target, text, ".mcpdesc-conformance-", ".tmp")
}
