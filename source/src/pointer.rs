//! RFC 6901 JSON pointers: building them from tokens and resolving them.

use std::borrow::Cow;

use serde_json::Value;

/// Escapes one reference token (`~` becomes `~0`, `/` becomes `~1`),
/// borrowing the token when it needs no escape.
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// `parent` extended by one unescaped `token`.
pub fn child(parent: &str, token: &str) -> String {
    format!("{parent}/{}", escape(token))
}

/// The value `pointer` names in `document`, or `None` when the pointer is
/// malformed or names nothing (including array indexes with leading zeros,
/// and `-`).
pub fn resolve<'v>(document: &'v Value, pointer: &str) -> Option<&'v Value> {
    let pointer = jsonptr::Pointer::parse(pointer).ok()?;
    pointer.resolve(document).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_tilde_before_slash() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(escape("~1"), "~01");
        assert_eq!(child("/x", "a/b"), "/x/a~1b");
    }

    #[test]
    fn resolves_escaped_and_indexed_tokens() {
        let document = json!({"a/b": {"c~d": [10, 20]}, "": 1});
        assert_eq!(resolve(&document, ""), Some(&document));
        assert_eq!(resolve(&document, "/a~1b/c~0d/1"), Some(&json!(20)));
        assert_eq!(resolve(&document, "/"), Some(&json!(1)));
    }

    #[test]
    fn refuses_what_does_not_resolve() {
        let document = json!({"a": [1, 2], "b~1": 3});
        for pointer in ["/a/2", "/a/01", "/a/-", "/a/x", "a", "/c", "/b~1", "/a/~2"] {
            assert_eq!(resolve(&document, pointer), None, "{pointer}");
        }
        assert_eq!(resolve(&document, "/b~01"), Some(&json!(3)));
    }
}
