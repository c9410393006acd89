//! Embeds the suite (catalogs, fixtures, expectations) into this data
//! crate, so that whatever depends on it runs from any directory, after
//! `cargo install`, and from a packaged crate.
//!
//! The generated files list every regular file under `suites/`, `fixtures/`
//! and `expected/` of this package, and apart from them under `compiled/`, in a sorted order, with its bytes
//! included at compile time. Nothing outside the package is read. Cargo
//! re-runs this script when anything under those folders changes (a new
//! file included), so the embedded suite never goes stale.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "src/hash.rs"]
mod hash;

const PARTS: [&str; 3] = ["suites", "fixtures", "expected"];

/// The folder of the suite's compiled form: a JSON twin of each YAML file,
/// written by `mcpdesc-conformance bless`.
const COMPILED: &str = "compiled";

fn main() {
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest;
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("embedded_suite.rs"), embed(&root, &PARTS)).expect("OUT_DIR is writable");
    fs::write(out.join("embedded_compiled.rs"), embed(&root, &[COMPILED]))
        .expect("OUT_DIR is writable");
    fs::write(out.join("embedded_hashes.rs"), hashes(&root, &PARTS)).expect("OUT_DIR is writable");
}

/// The Rust expression of a `&[(&str, &str)]` giving the
/// [`hash::source_hash`] of every YAML file under the folders `parts` of
/// `root`, sorted by path: a test process then tells an up-to-date twin
/// without hashing the file at run time.
fn hashes(root: &Path, parts: &[&str]) -> String {
    let mut hashes: Vec<(String, String)> = files(root, parts)
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "yaml")
        })
        .map(|path| {
            let bytes = fs::read(&path).expect("the suite tree is readable");
            (relative_name(root, &path), hash::source_hash(&bytes))
        })
        .collect();
    hashes.sort();
    let mut generated = String::from("&[\n");
    for (name, hash) in hashes {
        writeln!(generated, "    ({name:?}, {hash:?}),").expect("writing to a String");
    }
    generated.push(']');
    generated
}

/// Every regular file under the folders `parts` of `root`, in order of
/// `parts` and sorted by path within each.
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

/// The Rust expression of a `&[(&str, &[u8])]` listing every regular file
/// under the folders `parts` of `root`, sorted by path within each.
fn embed(root: &Path, parts: &[&str]) -> String {
    let mut generated = String::from("&[\n");
    for path in files(root, parts) {
        let relative = relative_name(root, &path);
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
