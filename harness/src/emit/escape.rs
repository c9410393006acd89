//! Making untrusted text safe to print: what a validator or a fixture says
//! reaches the terminal only as visible characters.
//!
//! A validator's rule IDs, pointers, messages, name and stderr, and a
//! fixture's lines and statements, could otherwise carry terminal escape
//! sequences, NUL bytes, bidirectional overrides that make text read
//! differently from what it is, or line breaks that forge a line of the
//! report (such as its summary). Every such character is written as a
//! visible escape instead: `\n`, `\r`, `\t`, `\0`, `\x1b`, `\u{202e}`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` on one line: every control character (line breaks included) and
/// every bidirectional override escaped.
pub fn line(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// `text` with its line breaks (`\n`, and the `\r` of a `\r\n`) kept as
/// line structure, for a caller that indents every line it prints (such as
/// a stderr tail under a failure); every other control character and every
/// bidirectional override escaped.
pub fn lines(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

/// `text` for an XML 1.0 document (the JUnit file): every character XML
/// 1.0 does not allow, even as a character reference (the C0 controls but
/// tab, line feed and carriage return, and U+FFFE and U+FFFF), written as
/// a visible escape (`\x01`, `\u{fffe}`), so that the file still parses.
/// What XML allows is left to the XML writer.
pub fn xml(text: &str) -> Cow<'_, str> {
    let forbidden = |c: char| matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}');
    if !text.chars().any(forbidden) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if forbidden(c) {
            push_visible(&mut escaped, c);
        } else {
            escaped.push(c);
        }
    }
    Cow::Owned(escaped)
}

/// Writes `c` as a visible escape: `\xNN` for ASCII, `\u{N}` beyond.
fn push_visible(escaped: &mut String, c: char) {
    if u32::from(c) < 0x80 {
        let _ = write!(escaped, "\\x{:02x}", u32::from(c));
    } else {
        let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
    }
}

/// Whether `c` must not reach a terminal as it is: C0 controls, DEL, C1
/// controls, and the bidirectional embeddings, overrides and isolates.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape(text: &str, keep_line_breaks: bool) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if keep_line_breaks => escaped.push('\n'),
            '\r' if keep_line_breaks && chars.peek() == Some(&'\n') => {}
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            '\0' => escaped.push_str("\\0"),
            c if is_unsafe(c) => push_visible(&mut escaped, c),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        let text = "mcpdesc.tools.name at \"/tools/0/name\": é, 名前, emoji 🙂, backslash \\";
        assert!(matches!(line(text), Cow::Borrowed(t) if t == text));
        assert!(matches!(lines(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn controls_and_bidi_overrides_become_visible_escapes() {
        let text = "a\u{1b}[31mred\0\u{7f}\u{85}\u{9b}\t\u{202a}\u{202e}\u{2066}\u{2069}z";
        assert_eq!(
            line(text),
            "a\\x1b[31mred\\0\\x7f\\u{85}\\u{9b}\\t\\u{202a}\\u{202e}\\u{2066}\\u{2069}z"
        );
        // Characters next to the escaped ranges stay as they are.
        assert_eq!(
            line("\u{2029}\u{202f}\u{2065}\u{206a}\u{a0}"),
            "\u{2029}\u{202f}\u{2065}\u{206a}\u{a0}"
        );
    }

    #[test]
    fn a_forged_line_cannot_start_a_line() {
        let forged = "oops\n\n370 cases: 370 passed\r\nx\ry";
        assert_eq!(line(forged), "oops\\n\\n370 cases: 370 passed\\r\\nx\\ry");
        assert!(!line(forged).contains('\n'));
        // Where line structure is kept, only line breaks survive; the
        // caller indents every line.
        assert_eq!(lines(forged), "oops\n\n370 cases: 370 passed\nx\\ry");
    }

    #[test]
    fn what_xml_cannot_hold_becomes_visible_escapes() {
        assert_eq!(
            xml("a\u{fffe}\u{ffff}\u{1}\0\u{1f}b"),
            "a\\u{fffe}\\u{ffff}\\x01\\x00\\x1fb"
        );
        // Tab and line breaks are XML; so are ESC's neighbours above U+1F,
        // and U+FFFD.
        let allowed = "a\tb\nc\rd \u{7f}\u{fffd}\u{10000}";
        assert!(matches!(xml(allowed), Cow::Borrowed(t) if t == allowed));
    }

    #[test]
    fn escaping_twice_changes_nothing_more() {
        let text = "\u{1b}]0;title\u{7}\n\u{202e}";
        assert_eq!(line(&line(text)), line(text));
        assert_eq!(lines(&lines(text)), lines(text));
    }
}
