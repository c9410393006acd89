//! Files the harness reads, under one policy: the suite's fixtures,
//! expectations and catalogs, compiled twins, baselines, reports,
//! statements and rule lists.
//!
//! Every one of them is untrusted, so each is read the same way:
//!
//! - **Only regular files.** What a path names is looked at before it is
//!   opened, so a FIFO (which would wait forever for a writer), a device
//!   such as `/dev/zero` (which never ends) or a folder is refused by what
//!   it is, and what was opened is looked at again in case the path changed
//!   in between. A link given on the command line is followed to its file;
//!   the suite tree refuses links itself, before it gets here.
//! - **A size cap per kind of file, applied while reading.** The size the
//!   file system gives is checked first, and the read stops one byte past
//!   the cap anyway, so a file that grows while it is read costs no more
//!   than the cap.
//! - **UTF-8 without a byte-order mark** for text, with the same message as
//!   a suite file gets, at the line and column of the first bad byte.

use std::fs::{self, File};
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use mcpdesc_source::{LoadError, MAX_DOCUMENT_BYTES};

/// What a file is read as: it decides the size cap, and names the file in
/// errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputKind {
    /// A file of a suite tree: a fixture, an expectation, a catalog, the
    /// changelog, or a compiled twin.
    Suite,
    /// A baseline of known failures (`--baseline`, `baseline --output`).
    Baseline,
    /// A run's report (`merge`, `compare`, `certify --check-report`).
    Report,
    /// A conformance statement (`certify --check`).
    Statement,
    /// A list of rule IDs (`--rules FILE`).
    Rules,
    /// A file the harness wrote and reads back: a committed rule page, a
    /// `diff` folder's manifest.
    Written,
}

impl InputKind {
    /// The largest file of this kind that is read, in bytes.
    ///
    /// A suite file is a document or close to one, so it gets a document's
    /// limit. A report of the whole suite with every diagnostic a validator
    /// may send is the largest input by far; 64 MiB holds ten times the
    /// largest report of the built-in suite seen, and keeps `merge` and
    /// `compare` of the largest one within a few hundred megabytes.
    pub const fn limit(self) -> u64 {
        match self {
            InputKind::Suite | InputKind::Baseline | InputKind::Written => {
                MAX_DOCUMENT_BYTES as u64
            }
            InputKind::Report | InputKind::Statement => 64 * 1024 * 1024,
            InputKind::Rules => 1024 * 1024,
        }
    }

    /// The file's kind, as errors name it.
    pub const fn noun(self) -> &'static str {
        match self {
            InputKind::Suite => "suite file",
            InputKind::Baseline => "baseline",
            InputKind::Report => "report",
            InputKind::Statement => "statement",
            InputKind::Rules => "rule list",
            InputKind::Written => "file written by the harness",
        }
    }
}

/// Why an input was not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// A FIFO, a socket, a device or a folder: never read (a FIFO could
    /// wait forever, a device never end).
    #[error("{}: {what} is not a regular file; a {} is read only from a regular file", path.display(), kind.noun())]
    NotRegular {
        /// The path, as given.
        path: PathBuf,
        /// What it is instead (e.g. `a FIFO`).
        what: &'static str,
        /// What it was to be read as.
        kind: InputKind,
    },
    /// Larger than files of its kind may be.
    #[error("{}: the file is {size} bytes; the limit for a {} is {}", path.display(), kind.noun(), kind.limit())]
    TooLarge {
        /// The path, as given.
        path: PathBuf,
        /// Its size in bytes, or the bytes read before the read stopped.
        size: u64,
        /// What it was to be read as.
        kind: InputKind,
    },
    /// Not UTF-8, or it starts with a byte-order mark: with the line and
    /// column.
    #[error(transparent)]
    Encoding(#[from] LoadError),
    /// It could not be opened or read.
    #[error("{}: cannot be read: {source}", path.display())]
    Io {
        /// The path, as given.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: io::Error,
    },
}

impl InputError {
    /// Whether the file is not there at all (which some readers take as
    /// an empty input).
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

/// What the file type `file_type` is, as errors name it.
pub(crate) fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    if file_type.is_dir() {
        return "a folder";
    }
    "a special file"
}

/// Reads the regular file at `path` (a link is followed) as `kind`, at
/// most [`InputKind::limit`] bytes of it.
///
/// # Errors
///
/// [`InputError`]: not a regular file, too large, or unreadable.
pub fn read_bytes(path: &Path, kind: InputKind) -> Result<Vec<u8>, InputError> {
    let io = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let refuse = |metadata: &fs::Metadata| -> Result<(), InputError> {
        if !metadata.is_file() {
            return Err(InputError::NotRegular {
                path: path.to_path_buf(),
                what: kind_of(metadata.file_type()),
                kind,
            });
        }
        if metadata.len() > kind.limit() {
            return Err(InputError::TooLarge {
                path: path.to_path_buf(),
                size: metadata.len(),
                kind,
            });
        }
        Ok(())
    };
    // Before opening: opening a FIFO waits for a writer.
    refuse(&fs::metadata(path).map_err(io)?)?;
    let file = File::open(path).map_err(io)?;
    // What was opened, in case the path was changed in between.
    let metadata = file.metadata().map_err(io)?;
    refuse(&metadata)?;
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(kind.limit() + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > kind.limit() {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
            kind,
        });
    }
    Ok(bytes)
}

/// Reads the regular file at `path` as [`read_bytes`] does, as UTF-8 text
/// without a byte-order mark.
///
/// # Errors
///
/// As for [`read_bytes`], and [`InputError::Encoding`] with the line and
/// column of the first byte that is not UTF-8, or of the byte-order mark.
pub fn read_text(path: &Path, kind: InputKind) -> Result<String, InputError> {
    let bytes = read_bytes(path, kind)?;
    mcpdesc_source::text(&path.display().to_string(), &bytes)?;
    // Checked just above: this cannot fail, and copies nothing.
    String::from_utf8(bytes).map_err(|error| {
        InputError::Encoding(LoadError::new(
            &path.display().to_string(),
            mcpdesc_source::Position::START,
            error.to_string(),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_within_the_limit_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        fs::write(&path, "rule.one\n").unwrap();
        assert_eq!(read_text(&path, InputKind::Rules).unwrap(), "rule.one\n");
    }

    #[test]
    fn what_is_not_a_regular_file_is_refused_by_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_bytes(dir.path(), InputKind::Report).unwrap_err();
        assert!(
            matches!(
                error,
                InputError::NotRegular {
                    what: "a folder",
                    ..
                }
            ),
            "{error}"
        );
        #[cfg(unix)]
        {
            let error = read_bytes(Path::new("/dev/zero"), InputKind::Report).unwrap_err();
            assert!(error.to_string().contains("a character device"), "{error}");
        }
    }

    #[test]
    fn a_file_over_the_limit_is_refused_without_being_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        let file = File::create(&path).unwrap();
        // Sparse: no bytes are written, only the size.
        file.set_len(InputKind::Rules.limit() + 1).unwrap();
        let error = read_bytes(&path, InputKind::Rules).unwrap_err();
        assert!(matches!(error, InputError::TooLarge { .. }), "{error}");
    }

    #[test]
    fn a_byte_order_mark_and_bad_utf8_are_named_with_their_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.yaml");
        fs::write(&path, "\u{feff}failures: []\n").unwrap();
        let error = read_text(&path, InputKind::Baseline).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("a byte-order mark is not allowed"),
            "{error}"
        );
        fs::write(&path, b"failures:\n  - \xff\n").unwrap();
        let error = read_text(&path, InputKind::Baseline).unwrap_err();
        assert!(error.to_string().contains(":2:5:"), "{error}");
    }
}
