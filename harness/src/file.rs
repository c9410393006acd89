//! Files the harness writes (expectations, reports, badges): each written
//! whole to a temporary file of its own beside it and renamed into place,
//! so that a reader, an interrupted run or a second writer never sees half
//! a file; what is not a regular file (a FIFO, `/dev/stdout`) is written
//! straight.

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

impl From<crate::input::InputError> for FileError {
    fn from(error: crate::input::InputError) -> FileError {
        use crate::input::InputError;
        match error {
            InputError::Io { path, source } => FileError { path, source },
            InputError::NotRegular { ref path, .. } | InputError::TooLarge { ref path, .. } => {
                FileError {
                    path: path.clone(),
                    source: io::Error::new(io::ErrorKind::InvalidData, error.to_string()),
                }
            }
            InputError::Encoding(ref load) => FileError {
                path: PathBuf::from(&load.file),
                source: io::Error::new(io::ErrorKind::InvalidData, error.to_string()),
            },
        }
    }
}

/// Turns an I/O error about `path` into a [`FileError`].
pub(crate) fn at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |source| FileError {
        path: path.to_path_buf(),
        source,
    }
}

/// Replaces `target` with `text`, creating its folder when missing.
///
/// A regular file (or a path where nothing is yet) is replaced whole: the
/// text goes to a temporary file named `PREFIX<random>SUFFIX` in the same
/// folder (so that the rename is atomic and its leftovers recognisable),
/// readable as the umask allows, which is then renamed onto it. A link is
/// followed, and the file it names is replaced, so the link stays a link.
/// Anything else (a FIFO, a terminal, `/dev/stdout`, a process
/// substitution's `/dev/fd/N`) cannot be replaced by a rename and has a
/// reader waiting on it: the text is written straight to it.
///
/// While the temporary file exists it is known to the signal handler,
/// which removes it if a second signal ends the harness at once; a first
/// signal lets the write finish, and the caller decides.
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
    let target = match Destination::of(target)? {
        Destination::Stream => return write_straight(target, text),
        Destination::File(path) => path,
    };
    let target = target.as_path();
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
    let _known = Temporary::register(temporary.path());
    temporary
        .write_all(text.as_bytes())
        .and_then(|()| temporary.flush())
        .map_err(at(temporary.path()))?;
    temporary
        .persist(target)
        .map_err(|error| at(target)(error.error))?;
    Ok(())
}

/// Where [`replace`] puts its text.
enum Destination {
    /// A regular file, or nothing yet, at this path (a link's target when
    /// the path was a link): replaced by a rename.
    File(PathBuf),
    /// Something that is not a regular file: written straight.
    Stream,
}

impl Destination {
    fn of(target: &Path) -> Result<Destination, FileError> {
        // `/dev/stdout` and `/dev/fd/N` name this process's descriptors:
        // even when one leads to a regular file, renaming onto that file
        // would leave the descriptor's reader with the old one.
        if target.starts_with("/dev") || target.starts_with("/proc") {
            return Ok(Destination::Stream);
        }
        let link = match std::fs::symlink_metadata(target) {
            Ok(metadata) => metadata.file_type().is_symlink(),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Ok(Destination::File(target.to_path_buf()));
            }
            Err(error) => return Err(at(target)(error)),
        };
        match std::fs::metadata(target) {
            Ok(metadata) if metadata.is_file() => Ok(Destination::File(if link {
                std::fs::canonicalize(target).map_err(at(target))?
            } else {
                target.to_path_buf()
            })),
            Ok(_) => Ok(Destination::Stream),
            // A link to nothing: writing through it creates what it names.
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Destination::Stream),
            Err(error) => Err(at(target)(error)),
        }
    }
}

/// Writes `text` to `target` as it is opened, without replacing it: at
/// its end, since `/dev/stdout` may lead to a file that already holds the
/// human report.
fn write_straight(target: &Path, text: &str) -> Result<(), FileError> {
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(target)
        .map_err(at(target))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(at(target))
}

/// The temporary files being written now, for the signal handler to
/// remove when the harness is ended at once.
static TEMPORARIES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file known to the signal handler while this lives.
struct Temporary(PathBuf);

impl Temporary {
    fn register(path: &Path) -> Temporary {
        if let Ok(mut known) = TEMPORARIES.lock() {
            known.push(path.to_path_buf());
        }
        Temporary(path.to_path_buf())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Ok(mut known) = TEMPORARIES.lock() {
            known.retain(|path| *path != self.0);
        }
    }
}

/// Removes the temporary files being written now: called by the signal
/// handler just before it ends the harness at once, since nothing else
/// would.
// Without `external` no signal handler is installed to call it.
#[cfg_attr(not(feature = "external"), allow(dead_code))]
pub(crate) fn remove_temporaries() {
    // `try_lock`: the handler must not wait on a writer that holds it.
    if let Ok(known) = TEMPORARIES.try_lock() {
        for path in known.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The prefix of the temporary files of outputs: the process ID follows,
/// so that a leftover can be told from the file of a harness still
/// writing.
const OUTPUT_PREFIX: &str = ".mcpdesc-conformance-";

/// Replaces a file an output of the harness writes (`--report`,
/// `--junit`, `--markdown`, badges), first removing the leftovers of
/// harnesses that were killed while writing into the same folder.
///
/// # Errors
///
/// As for [`replace`].
pub(crate) fn write_output(target: &Path, text: &str) -> Result<(), FileError> {
    remove_leftovers(target.parent());
    let prefix = format!("{OUTPUT_PREFIX}{}-", std::process::id());
    replace(target, text, &prefix, ".tmp")
}

/// Removes from `folder` the temporary output files of processes that are
/// gone: a harness killed while writing leaves one (it may be as large as
/// the report), and nothing else would ever remove it.
fn remove_leftovers(folder: Option<&Path>) {
    let folder = match folder {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(OUTPUT_PREFIX))
            .filter(|rest| rest.ends_with(".tmp"))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let regular = entry.file_type().is_ok_and(|kind| kind.is_file());
        if regular && pid != std::process::id() && !is_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether the process `pid` is alive. Only Linux says so without
/// signalling it (through `/proc`); elsewhere every process is taken to be
/// alive, and leftovers are left.
fn is_alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
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
