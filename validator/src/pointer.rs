//! RFC 6901 JSON pointers, built one reference token at a time.

use std::fmt;

/// An RFC 6901 JSON pointer into a document; the empty pointer is the root.
///
/// Pointers are built from the root by appending member names and array
/// indexes, so every token is escaped exactly once (`~` as `~0`, `/` as `~1`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pointer(String);

impl Pointer {
    /// The pointer to the whole document (`""`).
    pub fn root() -> Self {
        Pointer(String::new())
    }

    /// The pointer to member `name` of the object this pointer names.
    pub fn key(&self, name: &str) -> Self {
        let mut text = String::with_capacity(self.0.len() + name.len() + 1);
        text.push_str(&self.0);
        text.push('/');
        text.push_str(&escape(name));
        Pointer(text)
    }

    /// The pointer to item `index` of the array this pointer names.
    pub fn index(&self, index: usize) -> Self {
        Pointer(format!("{}/{index}", self.0))
    }

    /// The pointer as RFC 6901 text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<Pointer> for String {
    fn from(pointer: Pointer) -> Self {
        pointer.0
    }
}

/// Escapes one reference token; the one definition lives with the loader,
/// whose location map must spell pointers exactly as diagnostics do.
pub use mcpdesc_source::pointer::escape;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_empty() {
        assert_eq!(Pointer::root().as_str(), "");
    }

    #[test]
    fn builds_members_and_indexes() {
        let pointer = Pointer::root().key("tools").index(0).key("elicitations");
        assert_eq!(pointer.as_str(), "/tools/0/elicitations");
    }

    #[test]
    fn escapes_tilde_before_slash() {
        let pointer = Pointer::root().key("a/b").key("c~d").key("~1").key("");
        assert_eq!(pointer.as_str(), "/a~1b/c~0d/~01/");
    }
}
