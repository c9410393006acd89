//! Embeds the suite (catalogs, fixtures, expectations) into the harness, so
//! the built binary runs from any directory and after `cargo install`.
//!
//! The generated file lists every regular file under `suites/`, `fixtures/`
//! and `expected/` at the workspace root, in a sorted order, with its bytes
//! included at compile time. Cargo re-runs this script when anything under
//! those folders changes, so the embedded suite never goes stale.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

const PARTS: [&str; 3] = ["suites", "fixtures", "expected"];

fn main() {
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest
        .parent()
        .expect("the harness lives inside the workspace")
        .to_path_buf();
    let mut generated = String::from("&[\n");
    for part in PARTS {
        let dir = root.join(part);
        println!("cargo:rerun-if-changed={}", dir.display());
        if !dir.is_dir() {
            continue;
        }
        let walk = walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .follow_links(false);
        for entry in walk {
            let entry = entry.expect("the suite tree is readable");
            if !entry.file_type().is_file() {
                continue;
            }
            let relative = relative_name(&root, entry.path());
            let absolute = entry.path().display().to_string();
            writeln!(
                generated,
                "    ({relative:?}, include_bytes!({absolute:?})),"
            )
            .expect("writing to a String");
        }
    }
    generated.push(']');
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("embedded_suite.rs"), generated).expect("OUT_DIR is writable");
}

fn relative_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).expect("walked below the root");
    relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
