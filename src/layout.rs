//! How a compiled twin is tied to its YAML file: where it lives, and the
//! hash of the bytes it was made from. Shared by the library and its build
//! script (which hashes every embedded YAML file once, at build time), and
//! used by the harness's `bless`, which writes the twins.

/// The folder of the suite's compiled form, beside `suites/`, `fixtures/`
/// and `expected/`: a JSON twin of each YAML file.
pub const TWIN_FOLDER: &str = "compiled";

/// The path of the twin of the YAML file `path` (a package path such as
/// `suites/document.yaml`): `compiled/suites/document.yaml.json`.
pub fn twin_path(path: &str) -> String {
    format!("{TWIN_FOLDER}/{path}.json")
}

/// The YAML file a twin at `twin` (a package path) stands for, if `twin` is
/// a twin's path: the inverse of [`twin_path`].
pub fn source_of(twin: &str) -> Option<&str> {
    twin.strip_prefix(TWIN_FOLDER)?
        .strip_prefix('/')?
        .strip_suffix(".json")
}

/// A short, stable hash of a YAML file's bytes, as a twin's `source` field
/// holds it: 64-bit FNV-1a, as `fnv1a64:` and 16 hex digits. It only tells
/// a twin made from these bytes from one made from others, so it needs no
/// cryptographic strength, only to be the same on every machine and Rust
/// release.
pub fn source_hash(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}
