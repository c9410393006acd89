//! JSON documents: strict parsing, and the start of every value.

use serde::Deserialize;
use serde_json::Value;

use crate::value::StrictValue;
use std::collections::HashSet;

use crate::{LoadError, LoadErrorKind, Locations, MAX_DEPTH, Position, pointer};

/// Parses `text` strictly and maps every pointer to where its value starts.
pub(crate) fn load(file: &str, text: &str) -> Result<(Value, Locations), LoadError> {
    // The scanner goes first: it never fails, and besides every value's
    // start it finds the first fault that serde_json reports only as a
    // message and a place (a repeated key, a number beyond the double range,
    // a lone surrogate), with the pointer of the value it belongs to.
    let mut scanner = Scanner {
        text: text.as_bytes(),
        offset: 0,
        position: Position::START,
        locations: Locations::default(),
        fault: None,
    };
    scanner.value(&mut String::new(), 0);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed = StrictValue::deserialize(&mut deserializer).and_then(|value| {
        deserializer.end()?;
        Ok(value)
    });
    let StrictValue(value) = parsed.map_err(|error| {
        let position = Position {
            line: error.line().max(1),
            column: error.column().max(1),
        };
        let message = json_message(&error);
        // A fault the scanner met no later than serde_json stopped is what
        // stopped it; anything else is a syntax error.
        let fault = scanner.fault.take().filter(|fault| fault.at <= position);
        if message.contains("recursion limit") {
            return too_deep(file, position);
        }
        // serde_json calls a lone surrogate "unexpected end of hex escape"
        // or "lone leading surrogate": name it, and say where it is.
        if (message.contains("hex escape") || message.contains("surrogate"))
            && let Some((escape, position)) = lone_surrogate(text, position)
        {
            return LoadError::of(
                file,
                position,
                LoadErrorKind::String,
                fault.map(|fault| fault.pointer),
                format!(
                    "a lone surrogate {escape} is not allowed in a JSON string; a character \
                         beyond U+FFFF is written as a high and a low surrogate together \
                         (as in \\ud83d\\ude00)"
                ),
            );
        }
        match fault {
            Some(fault) => LoadError::of(
                file,
                fault.at,
                fault.kind,
                Some(fault.pointer),
                fault.message,
            ),
            None => LoadError::new(file, position, message),
        }
    })?;
    if scanner.depth_exceeded() {
        return Err(too_deep(file, Position::START));
    }
    Ok((value, scanner.locations))
}

/// The refusal of a document nested deeper than [`MAX_DEPTH`], which
/// serde_json or the scanner may be the one to notice.
fn too_deep(file: &str, position: Position) -> LoadError {
    LoadError::of(
        file,
        position,
        LoadErrorKind::Depth,
        None,
        format!("document nests deeper than {MAX_DEPTH} levels"),
    )
}

/// A fault the scanner found: its kind, place, value and message.
struct Fault {
    kind: LoadErrorKind,
    at: Position,
    pointer: String,
    message: String,
}

/// serde_json's message without the " at line L column C" it appends, since
/// the error already carries the position.
fn json_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

/// The `\\uXXXX` surrogate escape nearest before the error at `at` (serde_json
/// stops on it or just after it), as written, with its own position.
fn lone_surrogate(text: &str, at: Position) -> Option<(&str, Position)> {
    let line = text.split('\n').nth(at.line - 1)?;
    // serde_json counts columns in bytes; stay on a character boundary.
    let mut end = at.column.min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut before = &line[..end];
    while let Some(start) = before.rfind("\\u") {
        let backslashes = before[..start]
            .bytes()
            .rev()
            .take_while(|&byte| byte == b'\\')
            .count();
        let escape = line.get(start..start + 6);
        let unit = escape.and_then(|escape| u16::from_str_radix(&escape[2..], 16).ok());
        if backslashes % 2 == 0 && unit.is_some_and(|unit| (0xD800..=0xDFFF).contains(&unit)) {
            let column = line[..start].chars().count() + 1;
            return Some((
                escape?,
                Position {
                    line: at.line,
                    column,
                },
            ));
        }
        before = &before[..start];
    }
    None
}

/// Walks text that serde_json has already accepted, recording where each
/// value starts. It never fails: on anything unexpected it stops early and
/// keeps what it has.
struct Scanner<'a> {
    text: &'a [u8],
    offset: usize,
    position: Position,
    locations: Locations,
    /// The first fault met, if any.
    fault: Option<Fault>,
}

/// A sentinel pointer recorded when nesting goes past [`MAX_DEPTH`].
const TOO_DEEP: &str = "\u{0}too-deep";

impl Scanner<'_> {
    fn found(&mut self, kind: LoadErrorKind, at: Position, pointer: &str, message: String) {
        if self.fault.is_none() {
            self.fault = Some(Fault {
                kind,
                at,
                pointer: pointer.to_owned(),
                message,
            });
        }
    }

    fn depth_exceeded(&self) -> bool {
        self.locations.get(TOO_DEEP).is_some()
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.offset).copied()
    }

    fn bump(&mut self) {
        if let Some(byte) = self.peek() {
            if byte == b'\n' {
                self.position.line += 1;
                self.position.column = 1;
            } else if byte & 0xC0 != 0x80 {
                self.position.column += 1;
            }
            self.offset += 1;
        }
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.bump();
        }
    }

    fn value(&mut self, at: &mut String, depth: usize) -> Option<()> {
        self.skip_whitespace();
        if depth > MAX_DEPTH {
            self.locations.insert(TOO_DEEP, self.position);
            return None;
        }
        self.locations.insert(at, self.position);
        match self.peek()? {
            b'{' => self.object(at, depth),
            b'[' => self.array(at, depth),
            b'"' => self.string(at).map(drop),
            _ => {
                let (start, offset) = (self.position, self.offset);
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n')
                ) {
                    self.bump();
                }
                // A character no value starts with (a stray `}` in an array):
                // serde_json reports it; the scan stops rather than loop.
                if self.offset == offset {
                    return None;
                }
                // A JSON number is any size; the data model's are doubles,
                // so one that overflows a double is as non-finite as `.inf`.
                let token = std::str::from_utf8(&self.text[offset..self.offset]).unwrap_or("");
                if token.starts_with(|c: char| c == '-' || c.is_ascii_digit())
                    && token.parse::<f64>().is_ok_and(|number| !number.is_finite())
                {
                    let message = format!(
                        "`{token}` is beyond the range of a double; numbers must be finite"
                    );
                    self.found(LoadErrorKind::NonFinite, start, at, message);
                }
                Some(())
            }
        }
    }

    fn object(&mut self, at: &mut String, depth: usize) -> Option<()> {
        self.bump();
        let mut keys = HashSet::new();
        loop {
            self.skip_whitespace();
            match self.peek()? {
                b'}' => {
                    self.bump();
                    return Some(());
                }
                b',' => self.bump(),
                _ => {
                    let start = self.position;
                    let key = self.string(at)?;
                    if !keys.insert(key.clone()) {
                        let message =
                            format!("duplicate key `{key}`; each key may appear once in an object");
                        let member = pointer::child(at, &key);
                        self.found(LoadErrorKind::DuplicateKey, start, &member, message);
                    }
                    self.skip_whitespace();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.bump();
                    let length = at.len();
                    at.push('/');
                    at.push_str(&pointer::escape(&key));
                    self.value(at, depth + 1)?;
                    at.truncate(length);
                }
            }
        }
    }

    fn array(&mut self, at: &mut String, depth: usize) -> Option<()> {
        self.bump();
        let mut index = 0usize;
        loop {
            self.skip_whitespace();
            match self.peek()? {
                b']' => {
                    self.bump();
                    return Some(());
                }
                b',' => self.bump(),
                _ => {
                    let length = at.len();
                    at.push('/');
                    at.push_str(&index.to_string());
                    self.value(at, depth + 1)?;
                    at.truncate(length);
                    index += 1;
                }
            }
        }
    }

    /// Consumes a string literal and returns its decoded text; a literal
    /// that does not decode (a lone surrogate) is a fault of the value at
    /// `at` (for a key, its object).
    fn string(&mut self, at: &str) -> Option<String> {
        let (start, position) = (self.offset, self.position);
        self.bump();
        loop {
            match self.peek()? {
                b'"' => {
                    self.bump();
                    break;
                }
                b'\\' => {
                    self.bump();
                    self.bump();
                }
                _ => self.bump(),
            }
        }
        let literal = std::str::from_utf8(&self.text[start..self.offset]).ok()?;
        match serde_json::from_str(literal) {
            Ok(text) => Some(text),
            Err(error) => {
                let message = error.to_string();
                if message.contains("surrogate") || message.contains("hex escape") {
                    let message = "a lone surrogate is not allowed in a string".to_owned();
                    self.found(LoadErrorKind::String, position, at, message);
                    // Go on with the rest of the text, as serde_json would
                    // not: the fault is already recorded.
                    return Some(String::from_utf8_lossy(literal.as_bytes()).into_owned());
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Option<Position> {
        Some(Position { line, column })
    }

    #[test]
    fn maps_every_value_to_its_start() {
        let text = "{\n  \"a\": [1, {\"b/c\": true}],\n  \"é\": \"x\"\n}";
        let (_, locations) = load("t.json", text).unwrap();
        assert_eq!(locations.get(""), at(1, 1));
        assert_eq!(locations.get("/a"), at(2, 8));
        assert_eq!(locations.get("/a/0"), at(2, 9));
        assert_eq!(locations.get("/a/1"), at(2, 12));
        assert_eq!(locations.get("/a/1/b~1c"), at(2, 20));
        assert_eq!(locations.get("/é"), at(3, 8));
        assert_eq!(locations.get("/missing"), None);
        assert_eq!(locations.nearest("/a/1/missing/deeper"), at(2, 12));
    }

    #[test]
    fn escaped_keys_are_decoded_before_escaping_as_pointer_tokens() {
        let (_, locations) = load("t.json", r#"{"a\u007eb": 1, "q\"": 2}"#).unwrap();
        assert_eq!(locations.get("/a~0b"), at(1, 14));
        assert_eq!(locations.get("/q\""), at(1, 24));
    }

    #[test]
    fn duplicate_keys_are_refused_with_their_place() {
        let error = load("dup.json", "{\n  \"a\": 1,\n  \"a\": 2\n}").unwrap_err();
        assert_eq!(error.file, "dup.json");
        assert_eq!(error.position.line, 3);
        assert!(error.message.contains("duplicate key `a`"), "{error}");
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let error = load("bad.json", "{\n  \"a\": 1 2\n}").unwrap_err();
        assert_eq!((error.position.line, error.position.column), (2, 10));
        assert!(error.to_string().starts_with("bad.json:2:10: "), "{error}");
    }

    #[test]
    fn a_lone_surrogate_is_named_as_such_with_its_place() {
        let cases = [
            ("[\"\\ud800\"]", "\\ud800", 3),
            ("[\"\\uDC00\"]", "\\uDC00", 3),
            ("[\"ab\\ud800c\"]", "\\ud800", 5),
            ("{\"é\": \"\\ud800\\u0041\"}", "\\ud800", 8),
            ("{\"k\\ud800\": 1}", "\\ud800", 4),
        ];
        for (text, escape, column) in cases {
            let error = load("s.json", text).unwrap_err();
            assert_eq!(
                error.message.split(" is not allowed").next(),
                Some(format!("a lone surrogate {escape}").as_str()),
                "{text}: {error}"
            );
            assert_eq!(
                error.position,
                Position { line: 1, column },
                "{text}: {error}"
            );
        }
        let (value, _) = load("s.json", "[\"\\ud83d\\ude00\", \"\\\\ud800\"]").unwrap();
        assert_eq!(value, serde_json::json!(["😀", "\\ud800"]));
    }

    #[test]
    fn non_finite_and_trailing_text_are_refused() {
        assert!(load("t.json", "[1e400]").is_err());
        assert!(load("t.json", "[NaN]").is_err());
        assert!(load("t.json", "{} {}").is_err());
    }

    #[test]
    fn depth_is_limited() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let error = load("deep.json", &deep).unwrap_err();
        assert!(
            error.message.contains("recursion") || error.message.contains("deeper"),
            "{error}"
        );
    }
}
