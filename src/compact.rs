//! JSON without the whitespace between its tokens: the form in which the
//! build script embeds the compiled twins, which `bless` writes indented
//! for people to read. A test process parses the twin of every catalog it
//! loads, and in a debug build stepping over a byte of indentation costs
//! about as much as reading a byte of a value; a quarter of the twins'
//! bytes are indentation.

/// `json` with the whitespace outside strings removed. A run of whitespace
/// between two tokens that would otherwise run together (`1 2`, `true
/// false`) becomes one space instead, so that text that is not JSON does
/// not become JSON. Strings, escapes included, are copied as they are.
pub fn compact_json(json: &[u8]) -> Vec<u8> {
    let mut compact = Vec::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut after_space = false;
    for &byte in json {
        if in_string {
            compact.push(byte);
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
            after_space = true;
            continue;
        }
        if after_space && compact.last().is_some_and(|&last| joins(last)) && joins(byte) {
            compact.push(b' ');
        }
        after_space = false;
        in_string = byte == b'"';
        compact.push(byte);
    }
    compact
}

/// Whether a token that ends or starts with `byte` would run into a
/// neighbour with no space between: anything but a structural character
/// or a quote.
fn joins(byte: u8) -> bool {
    !matches!(byte, b'{' | b'}' | b'[' | b']' | b',' | b':' | b'"')
}
