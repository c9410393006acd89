//! Writing text into Markdown without breaking it: the rule pages, the
//! run's Markdown summary, the statement and `compare` use these.
//!
//! Untrusted text (from a validator, a report, a baseline) goes through
//! [`text`] (prose and names) or [`code`] (identifiers: rule IDs, case IDs,
//! hashes, pointers): either way nothing in it is read as markup, and
//! nothing in it acts on a terminal, where the Markdown may be printed.
//!
//! Catalog texts (titles, summaries, requirements, decisions) are authored
//! as one-paragraph Markdown (they use backticks for code), so they are
//! kept as they are, except for what would change the page's structure
//! where they are placed: line breaks inside a list item or a table cell,
//! `|` inside a table cell, and a start that Markdown would read as a list
//! marker, a heading or a quote. Text that is not Markdown (pointers, file
//! names, fixture JSON) goes into code spans and fences long enough that
//! nothing inside can close them.

use std::borrow::Cow;

/// `text` on one line: each run of whitespace that holds a line break
/// becomes one space, so that the text stays inside its list item or
/// paragraph.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r']) {
        return Cow::Borrowed(text.trim());
    }
    Cow::Owned(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// `text` as the start of a list item or a paragraph: on one line, with a
/// leading `12.`, `12)`, `#`, `>`, `-`, `+` or `*` escaped so that it is
/// not read as an ordered list, a heading, a quote or a nested list.
pub(crate) fn inline(text: &str) -> String {
    let text = one_line(text);
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after_digits = text[digits..].chars().next();
    if digits > 0 && matches!(after_digits, Some('.' | ')')) {
        return format!("{}\\{}", &text[..digits], &text[digits..]);
    }
    match text.chars().next() {
        Some('#' | '>' | '-' | '+' | '*') => format!("\\{text}"),
        _ => text.into_owned(),
    }
}

/// `text` for a table cell: as [`inline`], with every `|` escaped.
pub(crate) fn cell(text: &str) -> String {
    inline(text).replace('|', "\\|")
}

/// The characters [`text`] escapes: each one that can start or end
/// Markdown's markup (emphasis, code, links, images, autolinks with their
/// `:` and `@`, HTML and entities, GFM strikethrough and math, table
/// cells) or a block where the text starts a line (headings, lists,
/// quotes).
const ACTIVE: &[char] = &[
    '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '.', '!', '|', '<', '>', '&',
    '~', ':', '@', '$',
];

/// Untrusted text (from a validator, a report, a baseline) for anywhere in
/// a Markdown line: a heading, a paragraph, a list item or a table cell.
/// Its line breaks become spaces; its control characters and
/// bidirectional overrides become visible escapes, as on a terminal (the
/// Markdown may be printed on one); and each of Markdown's active
/// characters is backslash-escaped, so that the text shows as itself and
/// no image, link, autolink, HTML element or emphasis is made of it.
pub(crate) fn text(text: &str) -> String {
    let text = one_line(text);
    let text = crate::emit::escape::line(&text);
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if ACTIVE.contains(&c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Untrusted text as a code span in a table cell: as [`code`], with every
/// `|` escaped, since GFM ends a cell at one even inside a code span.
pub(crate) fn code_cell(text: &str) -> String {
    code(text).replace('|', "\\|")
}

/// Text for HTML: the five special characters as entities.
pub(crate) fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `text` as a code span, delimited by more backticks than any run inside
/// it, and padded with a space where it starts or ends with a backtick. An
/// empty text is shown as `""`, the empty JSON pointer's spelling. A code
/// span shows its text as it is, so untrusted text is safe in one once its
/// line breaks (which would end a table cell or a list item) and its
/// control characters and bidirectional overrides are visible escapes.
pub(crate) fn code(text: &str) -> String {
    if text.is_empty() {
        return "`\"\"`".to_owned();
    }
    let text = crate::emit::escape::line(text);
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Line breaks in a code span would end a table cell or a list item; they
/// become visible `\n` (a pointer or file name holding one is rare, and
/// must still be told apart from a space).
fn one_line_keep_spaces(text: &str) -> Cow<'_, str> {
    if text.contains(['\n', '\r']) {
        Cow::Owned(text.replace('\r', "\\r").replace('\n', "\\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// The fence for a code block holding `text`: more backticks than any run
/// inside it, and at least three.
pub(crate) fn fence(text: &str) -> String {
    "`".repeat((longest_run(text, '`') + 1).max(3))
}

/// A fenced code block of `language` holding `text`, fenced by more
/// backticks than any run inside it (at least three).
pub(crate) fn fenced(language: &str, text: &str) -> String {
    let fence = fence(text);
    let text = text.strip_suffix('\n').unwrap_or(text);
    format!("{fence}{language}\n{text}\n{fence}\n")
}

/// `text` as a double-quoted YAML scalar for a page's front matter (JSON
/// string syntax, which YAML reads the same way).
pub(crate) fn yaml_string(text: &str) -> String {
    serde_json::Value::String(one_line(text).into_owned()).to_string()
}

/// The path of a link target, with what Markdown would misread escaped:
/// spaces, parentheses, `<`, `>` and control characters, percent-encoded.
pub(crate) fn link_target(path: &str) -> String {
    let mut target = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            ' ' | '(' | ')' | '<' | '>' | '%' | '[' | ']' | '`' | '|' => {
                target.push_str(&format!("%{:02X}", u32::from(c)));
            }
            c if c.is_control() => {
                let mut buffer = [0; 4];
                for byte in c.encode_utf8(&mut buffer).bytes() {
                    target.push_str(&format!("%{byte:02X}"));
                }
            }
            c => target.push(c),
        }
    }
    target
}

/// Link text for a file name: what would end the text (`]`) or start
/// emphasis or code is escaped.
pub(crate) fn link_text(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in one_line_keep_spaces(text).chars() {
        if matches!(c, '[' | ']' | '*' | '_' | '`' | '\\' | '<' | '|') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// The length of the longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut current) = (0, 0);
    for found in text.chars() {
        if found == c {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_text_stays_one_line_and_is_not_read_as_a_block() {
        assert_eq!(inline("a\n  b\r\nc"), "a b c");
        assert_eq!(
            inline("12. Elicitation Declarations: req-x"),
            "12\\. Elicitation Declarations: req-x"
        );
        assert_eq!(inline("3) three"), "3\\) three");
        assert_eq!(inline("2025-06-18 only"), "2025-06-18 only");
        assert_eq!(inline("# not a heading"), "\\# not a heading");
        assert_eq!(inline("- not a list"), "\\- not a list");
        assert_eq!(inline("`code` first"), "`code` first");
    }

    #[test]
    fn a_cell_escapes_pipes() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
    }

    #[test]
    fn code_spans_outlast_the_backticks_inside() {
        assert_eq!(code("/tools/0"), "`/tools/0`");
        assert_eq!(code(""), "`\"\"`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
        assert_eq!(code("a\nb"), "`a\\nb`");
        assert_eq!(code("a\u{1b}[31m\u{202e}"), "`a\\x1b[31m\\u{202e}`");
        assert_eq!(code_cell("a|b"), "`a\\|b`");
    }

    #[test]
    fn untrusted_text_makes_no_markup() {
        assert_eq!(
            text("![x](https://evil.example/x.png) <img src=x>"),
            "\\!\\[x\\]\\(https\\://evil\\.example/x\\.png\\) \\<img src=x\\>"
        );
        assert_eq!(
            text("a\n\nb | *c* &amp; `d`"),
            "a b \\| \\*c\\* \\&amp; \\`d\\`"
        );
        assert_eq!(
            text("# 1. - x@y ~~z~~ $m$"),
            "\\# 1\\. \\- x\\@y \\~\\~z\\~\\~ \\$m\\$"
        );
        // Controls are visible, and their backslash shows as one.
        assert_eq!(text("a\u{1b}[31m\u{202e}"), "a\\\\x1b\\[31m\\\\u\\{202e\\}");
    }

    #[test]
    fn fences_outlast_the_backticks_inside() {
        assert_eq!(fenced("json", "{}\n"), "```json\n{}\n```\n");
        assert_eq!(fenced("json", "\"````\""), "`````json\n\"````\"\n`````\n");
    }

    #[test]
    fn front_matter_strings_are_quoted() {
        assert_eq!(yaml_string("say \"hi\": now"), "\"say \\\"hi\\\": now\"");
    }

    #[test]
    fn link_targets_and_texts_cannot_end_early() {
        assert_eq!(link_target("a b(1).json"), "a%20b%281%29.json");
        assert_eq!(link_text("a]b_c"), "a\\]b\\_c");
    }
}
