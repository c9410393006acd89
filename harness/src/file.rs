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

/// The longest file name [`bounded_name`] makes, in bytes: well under the
/// 255 bytes most file systems allow, leaving room for a prefix and an
/// extension the caller adds.
pub(crate) const MAX_NAME_BYTES: usize = 120;

/// A file name made from untrusted `text` (a rule ID, a pointer, a case
/// ID): the characters safe on every system (ASCII letters, digits, `.`,
/// `_`, `-`) kept, every other one turned into `_`, never starting with
/// `.`. A name that had to change, or that would be longer than
/// [`MAX_NAME_BYTES`], is cut and ends with a hash of the whole text, so
/// that two texts never share a name however long they are or however
/// alike they look once escaped.
pub(crate) fn bounded_name(text: &str) -> String {
    let mut name: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with('.') {
        name.replace_range(..1, "_");
    }
    if name == text && !name.is_empty() && name.len() <= MAX_NAME_BYTES {
        return name;
    }
    // FNV-1a: stable across builds and platforms, which a name must be.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let suffix = format!("-{hash:016x}");
    // Every kept character is ASCII, so any byte index is a boundary.
    name.truncate(MAX_NAME_BYTES - suffix.len());
    name + &suffix
}

/// A file or folder a command writes, named by its option.
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    /// The option that names it (`--report`).
    pub option: &'a str,
    /// Where it is written.
    pub path: &'a Path,
    /// Whether it is a folder the command writes files into (`--badge-dir`).
    pub folder: bool,
}

/// An output of a command that is one of its inputs.
#[derive(Debug, thiserror::Error)]
#[error(
    "{option} {}: the file is also an input ({}); an output must not overwrite what the \
     command reads",
    output.display(),
    input.display()
)]
pub struct Overwrite {
    /// The output's option.
    pub option: String,
    /// The output, as given.
    pub output: PathBuf,
    /// The input it is, as given.
    pub input: PathBuf,
}

/// Refuses `outputs` that are one of `inputs`: the same file however it is
/// named (`./a.json`, `sub/../a.json`, a symbolic or hard link), or, for a
/// folder, one that holds an input. A command writes its outputs after it
/// has read its inputs, so an output over an input would lose it.
///
/// # Errors
///
/// The first output that is an input.
pub fn refuse_overwrite(inputs: &[&Path], outputs: &[Written<'_>]) -> Result<(), Overwrite> {
    for output in outputs {
        let Some(target) = resolved(output.path) else {
            continue;
        };
        for input in inputs {
            let Some(source) = resolved(input) else {
                continue;
            };
            let same = if output.folder {
                source.starts_with(&target)
            } else {
                source == target || same_file(input, output.path)
            };
            if same {
                return Err(Overwrite {
                    option: output.option.to_owned(),
                    output: output.path.to_path_buf(),
                    input: input.to_path_buf(),
                });
            }
        }
    }
    Ok(())
}

/// `path` with its links and `.`/`..` resolved, as far as it exists: a
/// file not written yet is its resolved folder and its name.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(path) = std::fs::canonicalize(path) {
        return Some(path);
    }
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

/// Whether two existing paths are one file (a hard link is another name
/// of it).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether two existing paths are one file (resolved paths are all there
/// is to compare here).
#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_under_another_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("a.json");
        std::fs::write(&input, "{}").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let refused = |path: &Path, folder| {
            let output = Written {
                option: "--report",
                path,
                folder,
            };
            refuse_overwrite(&[&input], &[output]).is_err()
        };
        assert!(refused(&dir.path().join("sub/../a.json"), false));
        assert!(refused(dir.path(), true));
        assert!(!refused(&dir.path().join("b.json"), false));
        assert!(!refused(&dir.path().join("sub"), true));
        #[cfg(unix)]
        {
            std::fs::hard_link(&input, dir.path().join("hard.json")).unwrap();
            assert!(refused(&dir.path().join("hard.json"), false));
        }
    }

    #[test]
    fn plain_names_stay_as_they_are() {
        assert_eq!(
            bounded_name("document.name-required"),
            "document.name-required"
        );
    }

    #[test]
    fn changed_or_long_names_are_cut_and_told_apart_by_a_hash() {
        let long = "r".repeat(300);
        let name = bounded_name(&long);
        assert!(name.len() <= MAX_NAME_BYTES, "{name}");
        assert_ne!(name, bounded_name(&format!("{long}x")));
        let accented = "règle/é".repeat(60);
        let name = bounded_name(&accented);
        assert!(name.len() <= MAX_NAME_BYTES && name.is_ascii(), "{name}");
        assert_ne!(bounded_name("a/b"), bounded_name("a_b"));
        assert_ne!(bounded_name("a/b"), bounded_name("a:b"));
        assert!(!bounded_name(".hidden").starts_with('.'));
        assert!(!bounded_name("").is_empty());
    }
}
