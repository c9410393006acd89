//! Embeds the suite (catalogs, fixtures, expectations) into this data
//! crate, so that whatever depends on it runs from any directory, after
//! `cargo install`, and from a packaged crate.
//!
//! The generated files list every regular file under `suites/`, `fixtures/`
//! and `expected/` of this package, and apart from them under `compiled/`,
//! sorted by path, with its bytes included at compile time (a twin's
//! without the whitespace between its tokens: see `src/compact.rs`); and
//! the hash of every YAML file among the first, read in the same walk.
//! Nothing outside the package is read. Cargo re-runs this script when anything
//! under those folders changes (a new file included), so the embedded suite
//! never goes stale.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "src/layout.rs"]
#[allow(dead_code)] // the script needs the folder and the hash only
mod layout;

#[path = "src/compact.rs"]
mod compact;

const PARTS: [&str; 3] = ["suites", "fixtures", "expected"];

fn main() {
    let root =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Sorted by their names as strings (a folder walk puts `a/b` before
    // `a-c`): the tree that a test process builds from them then finds
    // them already in order.
    let sorted = |mut paths: Vec<PathBuf>| {
        paths.sort_by_cached_key(|path| relative_name(&root, path));
        paths
    };
    let suite = sorted(files(&root, &PARTS).collect());
    let twins = sorted(files(&root, &[layout::TWIN_FOLDER]).collect());
    let write = |name: &str, generated: String| {
        fs::write(out.join(name), generated).expect("OUT_DIR is writable");
    };
    write("embedded_suite.rs", embed(&root, &suite));
    // The twins are embedded from compact copies under `OUT_DIR`.
    let compacted: Vec<PathBuf> = twins
        .iter()
        .map(|twin| {
            let copy = out.join(twin.strip_prefix(&root).expect("walked below the root"));
            let bytes = fs::read(twin).expect("the compiled form is readable");
            fs::create_dir_all(copy.parent().expect("a file has a folder"))
                .expect("OUT_DIR is writable");
            fs::write(&copy, compact::compact_json(&bytes)).expect("OUT_DIR is writable");
            copy
        })
        .collect();
    write("embedded_compiled.rs", embed(&out, &compacted));
    write("embedded_hashes.rs", hashes(&root, &suite));
}

/// The Rust expression of a `&[(&str, &str)]` giving the
/// [`layout::source_hash`] of every YAML file among `files` (below `root`,
/// sorted by path, which the library's binary search needs): a test
/// process then tells an up-to-date twin without hashing the file at run
/// time.
fn hashes(root: &Path, files: &[PathBuf]) -> String {
    let hashes: Vec<(String, String)> = files
        .iter()
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "yaml")
        })
        .map(|path| {
            let bytes = fs::read(path).expect("the suite tree is readable");
            (relative_name(root, path), layout::source_hash(&bytes))
        })
        .collect();
    let mut generated = String::from("&[\n");
    for (name, hash) in hashes {
        writeln!(generated, "    ({name:?}, {hash:?}),").expect("writing to a String");
    }
    generated.push(']');
    generated
}

/// Every regular file under the folders `parts` of `root`.
fn files<'a>(root: &'a Path, parts: &'a [&str]) -> impl Iterator<Item = PathBuf> + 'a {
    parts.iter().flat_map(move |part| {
        let dir = root.join(part);
        println!("cargo:rerun-if-changed={}", dir.display());
        dir.is_dir()
            .then(|| {
                walkdir::WalkDir::new(&dir)
                    .sort_by_file_name()
                    .follow_links(false)
                    .into_iter()
                    .map(|entry| entry.expect("the suite tree is readable"))
                    .filter(|entry| entry.file_type().is_file())
                    .map(walkdir::DirEntry::into_path)
            })
            .into_iter()
            .flatten()
    })
}

/// The Rust expression of a `&[(&str, &[u8])]` listing `files` (below
/// `root`) in their order, each with its bytes included at compile time.
fn embed(root: &Path, files: &[PathBuf]) -> String {
    let mut generated = String::from("&[\n");
    for path in files {
        let relative = relative_name(root, path);
        let absolute = path.display().to_string();
        writeln!(
            generated,
            "    ({relative:?}, include_bytes!({absolute:?})),"
        )
        .expect("writing to a String");
    }
    generated.push(']');
    generated
}

fn relative_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).expect("walked below the root");
    relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
