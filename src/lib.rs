//! The MCP Description conformance suite, as data: every rule catalog
//! (`suites/`), fixture (`fixtures/`) and expectation (`expected/`) of this
//! package, embedded at compile time.
//!
//! The harness (`mcpdesc-conformance`) loads and checks these files; this
//! crate only carries them, so that the suite travels with any build of the
//! harness (a clone, `cargo install`, a packaged crate) and one version of
//! the suite is one version of this crate.

#![warn(missing_docs)]

/// Every file of the suite, as `(path, bytes)` with `/`-separated paths
/// relative to the package root (`suites/document.yaml`,
/// `fixtures/document/expected-valid/minimal.json`, …), sorted by path.
pub const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));

/// The suite's list of MCP protocol revisions (`suites/revisions.yaml`, also
/// one of [`FILES`]): for a validator that needs the known revisions
/// without loading the rest of the suite.
pub const REVISIONS: &str = include_str!("../suites/revisions.yaml");

/// The suite's compiled form (`compiled/`, written by `mcpdesc-conformance
/// bless`): a JSON twin of each YAML file of [`FILES`], at
/// `compiled/<path>.json`: a JSON object with a hash of the bytes it was
/// made from (`source`) and the value (`value`), then a second one with
/// where each value starts in the YAML text (`locations`). The harness reads
/// a twin instead of its YAML file when the hash matches, so that it can
/// run the built-in suite without a YAML parser. The twins are embedded
/// without the whitespace between their tokens (the files are indented for
/// people to read): the same JSON in a quarter fewer bytes.
pub const COMPILED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_compiled.rs"));

/// The twin of the YAML file `path` of [`FILES`] (such as
/// `suites/revisions.yaml`) in [`COMPILED`], if it has one. Whether the twin
/// is up to date is for the reader to check: its `source` field must be
/// [`source_hash`] of the YAML file's bytes.
pub fn twin(path: &str) -> Option<&'static [u8]> {
    twins().find_map(|(source, twin)| (source == path).then_some(twin))
}

/// Every twin of [`COMPILED`], by the path of its YAML file in [`FILES`]
/// (`compiled/suites/revisions.yaml.json` is the twin of
/// `suites/revisions.yaml`).
pub fn twins() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    COMPILED
        .iter()
        .filter_map(|(name, bytes)| Some((source_of(name)?, *bytes)))
}

/// [`source_hash`] of the YAML file `path` of [`FILES`], worked out when
/// this crate was built, so that a reader can tell an up-to-date twin
/// without hashing the file each time it starts.
pub fn file_hash(path: &str) -> Option<&'static str> {
    FILE_HASHES
        .binary_search_by(|(name, _)| (*name).cmp(path))
        .ok()
        .map(|found| FILE_HASHES[found].1)
}

/// `(path, source_hash)` of every YAML file of [`FILES`], sorted by path.
const FILE_HASHES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/embedded_hashes.rs"));

mod layout;
pub use layout::{TWIN_FOLDER, source_hash, source_of, twin_path};

// The build script's; compiled here for its tests.
#[cfg(test)]
mod compact;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_hash_is_fnv1a_64_of_the_bytes() {
        // Values worked out from FNV-1a's definition (offset basis, prime).
        assert_eq!(source_hash(b""), "fnv1a64:cbf29ce484222325");
        assert_eq!(source_hash(b"a"), "fnv1a64:af63dc4c8601ec8c");
    }

    #[test]
    fn every_yaml_file_has_its_twin_and_nothing_else_has_one() {
        for (name, bytes) in FILES {
            // A YAML text the strict loader refuses (a serialization case)
            // has no value to compile, and so no twin.
            let compiles =
                || mcpdesc_source::load(name, bytes, mcpdesc_source::Format::Yaml).is_ok();
            assert_eq!(
                twin(name).is_some(),
                name.ends_with(".yaml") && compiles(),
                "{name}"
            );
        }
        assert_eq!(twin("suites/nothing.yaml"), None);
        let path = "fixtures/x/expected-valid/a.yaml";
        assert_eq!(
            twin_path(path),
            "compiled/fixtures/x/expected-valid/a.yaml.json"
        );
        assert_eq!(source_of(&twin_path(path)), Some(path));
        assert_eq!(source_of("fixtures/x/a.yaml"), None);
    }

    #[test]
    fn compact_json_drops_the_whitespace_between_tokens_only() {
        let compact =
            |text: &str| String::from_utf8(compact::compact_json(text.as_bytes())).unwrap();
        assert_eq!(
            compact("{\n  \"a b\": [1, true,\r\n\t null],\n  \"c\": {}\n}\n{ \"d\": 2 }\n"),
            "{\"a b\":[1,true,null],\"c\":{}}{\"d\":2}"
        );
        // Strings are copied whole: escaped quotes do not end them.
        assert_eq!(
            compact(r#"[ "x \" y \\", " z " ]"#),
            r#"["x \" y \\"," z "]"#
        );
        // Tokens that would run together keep one space: not JSON stays so.
        assert_eq!(compact("[1  2, true\nfalse]"), "[1 2,true false]");
    }

    #[test]
    fn the_files_and_the_twins_are_sorted_by_path() {
        for list in [FILES, COMPILED] {
            let names: Vec<&str> = list.iter().map(|(name, _)| *name).collect();
            assert!(names.is_sorted(), "{names:?}");
        }
    }

    #[test]
    fn every_embedded_twin_is_its_file_compacted() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(COMPILED.len() > 100, "{}", COMPILED.len());
        for (name, bytes) in COMPILED {
            let file = std::fs::read(root.join(name)).unwrap();
            assert!(bytes.len() < file.len(), "{name}");
            assert_eq!(*bytes, compact::compact_json(&file).as_slice(), "{name}");
        }
    }

    #[test]
    fn the_built_hashes_are_those_of_the_embedded_yaml_files() {
        let mut yaml = 0;
        for (name, bytes) in FILES {
            let expected = name.ends_with(".yaml").then(|| source_hash(bytes));
            assert_eq!(file_hash(name).map(str::to_owned), expected, "{name}");
            yaml += usize::from(expected.is_some());
        }
        assert!(yaml > 100, "{yaml}");
    }
}
