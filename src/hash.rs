//! The hash that ties a compiled twin to the YAML bytes it was made from,
//! shared by the library and its build script (which hashes every embedded
//! YAML file once, at build time).

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
