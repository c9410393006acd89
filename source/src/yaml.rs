//! YAML documents: restricted YAML 1.2, and the start of every value.
//!
//! Two passes over the text. The first walks the parser's events: it records
//! where every value starts and refuses, with their place, what the
//! restricted serialization forbids but a YAML parser accepts (more or fewer
//! than one document, anchors and aliases, custom tags, keys that are not
//! strings, nesting past the limit). The second deserializes the value with
//! serde-saphyr in strict mode, which also refuses duplicate keys and
//! non-finite numbers and keeps `on`, `yes` and `0755` as strings.

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, Span, Tag};
use serde_saphyr::{DuplicateKeyPolicy, MergeKeyPolicy, NonFiniteFloatPolicy};

use crate::value::StrictValue;
use std::collections::HashSet;

use crate::{LoadError, LoadErrorKind, Locations, MAX_DEPTH, Position, pointer};

/// Parses `text` strictly and maps every pointer to where its value starts.
pub(crate) fn load(file: &str, text: &str) -> Result<(Value, Locations), LoadError> {
    let locations = walk(text).map_err(|fault| fault.into_error(file))?;
    let StrictValue(value) = deserialize(file, text)?;
    Ok((value, locations))
}

/// Parses `text` strictly into `T`, for the suite's own YAML files
/// (catalogs, expectations), whose shape serde checks.
pub(crate) fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    walk(text).map_err(|fault| fault.into_error(file))?;
    deserialize(file, text)
}

fn deserialize<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    let options = serde_saphyr::options! {
        duplicate_keys: DuplicateKeyPolicy::Error,
        // `<<` is an ordinary key in mcpdesc YAML; a merge through an alias is
        // refused anyway, because aliases are.
        merge_keys: MergeKeyPolicy::AsOrdinary,
        strict_booleans: true,
        legacy_octal_numbers: false,
        leading_zero_numbers_as_strings: true,
        reject_unsupported_tags: true,
        non_finite_float_policy: NonFiniteFloatPolicy::Reject,
        with_snippet: false,
    };
    serde_saphyr::from_str_with_options::<T>(text, options).map_err(|error| {
        let position = error
            .location()
            .map(|location| Position {
                line: usize::try_from(location.line())
                    .unwrap_or(usize::MAX)
                    .max(1),
                column: usize::try_from(location.column())
                    .unwrap_or(usize::MAX)
                    .max(1),
            })
            .unwrap_or(Position::START);
        LoadError::new(file, position, saphyr_message(&error))
    })
}

/// serde-saphyr's message without the position it may append, since the
/// error already carries it. Messages that give advice to a program using
/// the library ("set DuplicateKeyPolicy in Options") are rewritten into what
/// the author of the file can do.
fn saphyr_message(error: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error;
    match error.without_snippet() {
        Error::DuplicateMappingKey { key: Some(key), .. } => {
            return format!("duplicate key `{key}`; each key may appear once in a mapping");
        }
        Error::DuplicateMappingKey { key: None, .. } => {
            return "duplicate key; each key may appear once in a mapping".to_owned();
        }
        Error::NonFiniteFloat { value, .. } => {
            return format!(
                "`{value}` is not a finite number; numbers must be finite (no infinity or NaN)"
            );
        }
        Error::NullIntoString { .. } => {
            return "expected a string, found null; write the text, quoted if need be".to_owned();
        }
        _ => {}
    }
    let text = error.without_snippet().to_string();
    let first = text.lines().next().unwrap_or("invalid YAML").trim();
    match first.rfind(" at line ") {
        Some(cut) => first[..cut].to_owned(),
        None => first.to_owned(),
    }
}

/// What an alias is told, wherever it stands.
const ALIAS: &str = "aliases are not allowed in mcpdesc YAML; write the value out";

/// A fault the walk found: its kind, place, value and message.
struct Fault {
    kind: LoadErrorKind,
    at: Position,
    pointer: Option<String>,
    message: String,
}

impl Fault {
    fn new(kind: LoadErrorKind, at: Position, pointer: Option<&str>, message: String) -> Self {
        Fault {
            kind,
            at,
            pointer: pointer.map(str::to_owned),
            message,
        }
    }

    fn into_error(self, file: &str) -> LoadError {
        LoadError::of(file, self.at, self.kind, self.pointer, self.message)
    }
}

fn start_of(span: &Span) -> Position {
    Position {
        line: span.start.line().max(1),
        column: span.start.col() + 1,
    }
}

/// Where the walk stands inside one collection.
enum Frame {
    /// A mapping; `key` holds the key whose value comes next, if one was
    /// read, and `keys` every key read so far.
    Mapping {
        at: String,
        key: Option<String>,
        keys: HashSet<String>,
    },
    /// A sequence; `next` is the index of its next item.
    Sequence { at: String, next: usize },
}

fn walk(text: &str) -> Result<Locations, Fault> {
    use LoadErrorKind::{Alias, Depth, DocumentCount, DuplicateKey, KeyType, NonFinite, Syntax};
    let mut locations = Locations::default();
    let mut frames: Vec<Frame> = Vec::new();
    let mut documents = 0usize;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|error| {
            let marker = error.marker();
            let position = Position {
                line: marker.line().max(1),
                column: marker.col() + 1,
            };
            // The parser refuses a lone surrogate escape while it reads the
            // scalar, before the walk sees the node: it is the next node.
            if error.info().contains("surrogate") {
                let message = "a lone surrogate is not allowed in a string; a character beyond \
                               U+FFFF is written as one escape (as in \\U0001F600)";
                return Fault::new(
                    LoadErrorKind::String,
                    position,
                    Some(&next_node(&frames)),
                    message.into(),
                );
            }
            Fault::new(Syntax, position, None, error.info().to_owned())
        })?;
        let position = start_of(&span);
        match &event {
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    let message = "expected exactly one YAML document, found a second".into();
                    return Err(Fault::new(DocumentCount, position, None, message));
                }
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                frames.pop();
                continue;
            }
            Event::Alias(_)
            | Event::UnresolvedAlias(_)
            | Event::Scalar(..)
            | Event::SequenceStart(..)
            | Event::MappingStart(..) => {}
            _ => continue,
        }
        // `event` is a node. Inside a mapping with no pending key, it is a key.
        if let Some(Frame::Mapping {
            at,
            key: key @ None,
            keys,
        }) = frames.last_mut()
        {
            match &event {
                Event::Scalar(text, style, _, tag) => {
                    if let Some(tag) = tag {
                        check_tag(tag, position, at)?;
                    }
                    let untagged_plain = *style == ScalarStyle::Plain && tag.is_none();
                    if untagged_plain && !plain_is_string(text) {
                        let message = format!(
                            "mapping keys must be strings; quote `{text}` to use it as a key"
                        );
                        return Err(Fault::new(KeyType, position, Some(at), message));
                    }
                    if tag
                        .as_ref()
                        .is_some_and(|tag| tag.core_suffix() != Some("str"))
                    {
                        let message =
                            format!("mapping keys must be strings, not `{text}` tagged otherwise");
                        return Err(Fault::new(KeyType, position, Some(at), message));
                    }
                    // Keys are strings by now, so two keys are the same key
                    // exactly when their texts are: `a`, `'a'` and `"a"`.
                    if !keys.insert(text.to_string()) {
                        let message = format!(
                            "duplicate key `{text}`; each key may appear once in a mapping"
                        );
                        let member = pointer::child(at, text);
                        return Err(Fault::new(DuplicateKey, position, Some(&member), message));
                    }
                    *key = Some(text.to_string());
                    continue;
                }
                Event::Alias(_) | Event::UnresolvedAlias(_) => {
                    return Err(Fault::new(Alias, position, Some(at), ALIAS.into()));
                }
                _ => {
                    let message = "mapping keys must be strings, not collections".into();
                    return Err(Fault::new(KeyType, position, Some(at), message));
                }
            }
        }
        let at = match frames.last_mut() {
            None => String::new(),
            Some(Frame::Mapping { at, key, .. }) => {
                pointer::child(at, &key.take().unwrap_or_default())
            }
            Some(Frame::Sequence { at, next }) => {
                *next += 1;
                format!("{at}/{}", *next - 1)
            }
        };
        locations.insert(&at, position);
        match &event {
            Event::Alias(_) | Event::UnresolvedAlias(_) => {
                return Err(Fault::new(Alias, position, Some(&at), ALIAS.into()));
            }
            // An anchor that no alias uses changes nothing the document
            // says: Section 15.3.5 forbids aliases, so only they are refused.
            Event::Scalar(text, style, _, tag) => {
                if let Some(tag) = tag {
                    check_tag(tag, position, &at)?;
                }
                let as_number = match tag {
                    None => *style == ScalarStyle::Plain,
                    Some(tag) => tag.core_suffix() == Some("float"),
                };
                if as_number && is_non_finite(text) {
                    let message = format!(
                        "`{text}` is not a finite number; numbers must be finite (no infinity or NaN)"
                    );
                    return Err(Fault::new(NonFinite, position, Some(&at), message));
                }
            }
            Event::MappingStart(_, _, tag) | Event::SequenceStart(_, _, tag) => {
                if let Some(tag) = tag {
                    check_tag(tag, position, &at)?;
                }
            }
            _ => {}
        }
        match event {
            Event::MappingStart(..) => frames.push(Frame::Mapping {
                at,
                key: None,
                keys: HashSet::new(),
            }),
            Event::SequenceStart(..) => frames.push(Frame::Sequence { at, next: 0 }),
            _ => {}
        }
        if frames.len() > MAX_DEPTH {
            let message = format!("document nests deeper than {MAX_DEPTH} levels");
            return Err(Fault::new(Depth, position, None, message));
        }
    }
    if documents == 0 {
        let message = "expected exactly one YAML document, found none".into();
        return Err(Fault::new(DocumentCount, Position::START, None, message));
    }
    Ok(locations)
}

/// The pointer of the node the parser reads next: the value of a pending
/// key, the next item, or (for a key) its mapping.
fn next_node(frames: &[Frame]) -> String {
    match frames.last() {
        None => String::new(),
        Some(Frame::Mapping {
            at, key: Some(key), ..
        }) => pointer::child(at, key),
        Some(Frame::Mapping { at, key: None, .. }) => at.clone(),
        Some(Frame::Sequence { at, next }) => format!("{at}/{next}"),
    }
}

/// Whether a scalar read as a number would be infinite or NaN: the core
/// schema's spellings of them.
fn is_non_finite(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN")
}

/// Only the core schema's tags for JSON-compatible values are allowed.
fn check_tag(tag: &Tag, position: Position, at: &str) -> Result<(), Fault> {
    const CORE: [&str; 7] = ["str", "int", "float", "bool", "null", "seq", "map"];
    match tag.core_suffix() {
        Some(suffix) if CORE.contains(&suffix) => Ok(()),
        _ => Err(Fault::new(
            LoadErrorKind::Tag,
            position,
            Some(at),
            format!(
                "custom tag `{}` is not allowed in mcpdesc YAML",
                tag.original()
            ),
        )),
    }
}

/// Whether a plain scalar resolves to a string under the YAML 1.2 core
/// schema (that is, it is not a null, a boolean or a number).
fn plain_is_string(text: &str) -> bool {
    let non_string = matches!(
        text,
        "" | "~"
            | "null"
            | "Null"
            | "NULL"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
            | ".nan"
            | ".NaN"
            | ".NAN"
    );
    !non_string && !is_core_number(text)
}

fn is_core_number(text: &str) -> bool {
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    if let Some(octal) = text.strip_prefix("0o") {
        return digits(octal, 8);
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return digits(hex, 16);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(cut) => (&unsigned[..cut], Some(&unsigned[cut + 1..])),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (whole.is_empty() || digits(whole, 10))
                && (fraction.is_empty() || digits(fraction, 10))
                && !(whole.is_empty() && fraction.is_empty())
        }
        None => digits(mantissa, 10),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e), 10));
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error_of(text: &str) -> LoadError {
        match load("f.yaml", text) {
            Ok((value, _)) => panic!("expected an error, loaded {value}"),
            Err(error) => error,
        }
    }

    #[test]
    fn loads_json_compatible_scalars_with_strings_kept() {
        let text = "a: on\nb: yes\nc: 0755\nd: 12\ne: 1.5\nf: true\ng: null\nh: 'x'\n\"<<\": 1\n";
        let (value, _) = load("f.yaml", text).unwrap();
        assert_eq!(
            value,
            json!({"a": "on", "b": "yes", "c": "0755", "d": 12, "e": 1.5, "f": true, "g": null, "h": "x", "<<": 1})
        );
    }

    #[test]
    fn merge_key_is_an_ordinary_key() {
        let (value, _) = load("f.yaml", "<<: {a: 1}\nb: 2\n").unwrap();
        assert_eq!(value, json!({"<<": {"a": 1}, "b": 2}));
    }

    #[test]
    fn maps_every_value_to_its_start() {
        let text = "info:\n  name: x\nlist:\n  - a\n  - {k/1: v}\n";
        let (_, locations) = load("f.yaml", text).unwrap();
        let at = |line, column| Some(Position { line, column });
        assert_eq!(locations.get(""), at(1, 1));
        assert_eq!(locations.get("/info"), at(2, 3));
        assert_eq!(locations.get("/info/name"), at(2, 9));
        assert_eq!(locations.get("/list/0"), at(4, 5));
        assert_eq!(locations.get("/list/1"), at(5, 5));
        assert_eq!(locations.get("/list/1/k~11"), at(5, 11));
    }

    #[test]
    fn duplicate_keys_are_refused_with_their_place() {
        let error = error_of("a: 1\nb: 2\na: 3\n");
        assert_eq!(error.position.line, 3, "{error}");
        assert!(
            error.message.to_lowercase().contains("duplicate"),
            "{error}"
        );
    }

    #[test]
    fn messages_say_what_the_author_can_do_not_how_to_configure_the_parser() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Named {
            name: String,
        }
        let error = error_of("a:\n  x: 1\n  x: 2\n");
        assert_eq!(
            (error.position.line, error.position.column),
            (3, 3),
            "{error}"
        );
        assert_eq!(
            error.message,
            "duplicate key `x`; each key may appear once in a mapping"
        );
        let error = parse::<Named>("f.yaml", "name: a\nname: b\n").unwrap_err();
        assert_eq!(error.position.line, 2, "{error}");
        assert!(
            error.message.starts_with("duplicate key `name`;"),
            "{error}"
        );
        let error = error_of("a: .nan\n");
        assert!(error.message.contains("not a finite number"), "{error}");
        let error = parse::<Named>("f.yaml", "name: null\n").unwrap_err();
        assert!(error.message.starts_with("expected a string"), "{error}");
        let errors = [
            error_of("a: 1\na: 2\n"),
            error_of("a: -.inf\n"),
            parse::<Named>("f.yaml", "name:\n").unwrap_err(),
        ];
        for error in errors {
            for hint in ["Options", "policy", "Policy", "Option<"] {
                assert!(!error.message.contains(hint), "{error}");
            }
        }
    }

    #[test]
    fn aliases_are_refused_where_they_stand_and_unused_anchors_are_not() {
        let error = error_of("a: &x 1\nb: *x\n");
        assert_eq!(error.position.line, 2, "{error}");
        assert_eq!(error.kind, LoadErrorKind::Alias);
        assert_eq!(error.pointer.as_deref(), Some("/b"));
        let error = error_of("base: &b {a: 1}\nother:\n  <<: *b\n");
        assert_eq!(error.kind, LoadErrorKind::Alias);
        assert_eq!(error.pointer.as_deref(), Some("/other/<<"));
        let (value, _) = load("f.yaml", "a: &x 1\nb: &y [2]\n").unwrap();
        assert_eq!(value, json!({"a": 1, "b": [2]}));
    }

    #[test]
    fn each_fault_has_its_kind_and_the_pointer_of_its_value() {
        use LoadErrorKind::*;
        let cases: [(&str, LoadErrorKind, Option<&str>); 12] = [
            (
                "info:\n  name: a\n  'name': b\n",
                DuplicateKey,
                Some("/info/name"),
            ),
            ("a:\n  - {k: 1, \"k\": 2}\n", DuplicateKey, Some("/a/0/k")),
            ("info:\n  1: a\n", KeyType, Some("/info")),
            ("info:\n  !!int '1': a\n", KeyType, Some("/info")),
            ("a:\n  b: .inf\n", NonFinite, Some("/a/b")),
            ("a: [1, -.Inf]\n", NonFinite, Some("/a/1")),
            ("a: !!float .nan\n", NonFinite, Some("/a")),
            ("a:\n  b: !secret x\n", Tag, Some("/a/b")),
            ("a: !!binary aGk=\n", Tag, Some("/a")),
            ("a: 1\n---\nb: 2\n", DocumentCount, None),
            ("# nothing\n", DocumentCount, None),
            ("a: [1\n", Syntax, None),
        ];
        for (text, kind, pointer) in cases {
            let error = error_of(text);
            assert_eq!(
                (error.kind, error.pointer.as_deref()),
                (kind, pointer),
                "{text:?}: {error}"
            );
        }
    }

    #[test]
    fn quoted_infinities_are_strings() {
        let (value, _) = load("f.yaml", "a: '.inf'\nb: \".nan\"\nc: !!str .inf\n").unwrap();
        assert_eq!(value, json!({"a": ".inf", "b": ".nan", "c": ".inf"}));
    }

    #[test]
    fn a_lone_surrogate_escape_is_refused() {
        let cases = [
            ("a: \"\\ud800\"\n", "/a"),
            ("a: [x, \"\\udc00\"]\n", "/a/1"),
            ("a:\n  \"\\ud800\": 1\n", "/a"),
        ];
        for (text, pointer) in cases {
            let error = error_of(text);
            assert_eq!(error.kind, LoadErrorKind::String, "{error}");
            assert_eq!(error.pointer.as_deref(), Some(pointer), "{error}");
            assert!(error.message.starts_with("a lone surrogate"), "{error}");
        }
    }

    #[test]
    fn custom_tags_are_refused_core_tags_allowed() {
        let error = error_of("a: !secret x\n");
        assert_eq!(error.position.line, 1, "{error}");
        assert!(error.message.contains("custom tag `!secret`"), "{error}");
        let (value, _) = load("f.yaml", "a: !!str 12\n").unwrap();
        assert_eq!(value, json!({"a": "12"}));
    }

    #[test]
    fn non_finite_numbers_are_refused() {
        for text in ["a: .inf\n", "a: -.Inf\n", "a: .nan\n"] {
            let error = error_of(text);
            assert_eq!(error.position.line, 1, "{error}");
        }
    }

    #[test]
    fn keys_must_be_strings() {
        assert!(error_of("1: a\n").message.contains("keys must be strings"));
        assert!(
            error_of("true: a\n")
                .message
                .contains("keys must be strings")
        );
        assert!(
            error_of("? [a]\n: b\n")
                .message
                .contains("keys must be strings")
        );
        let (value, _) = load("f.yaml", "'1': a\non: b\n").unwrap();
        assert_eq!(value, json!({"1": "a", "on": "b"}));
    }

    #[test]
    fn exactly_one_document() {
        assert!(error_of("a: 1\n---\nb: 2\n").message.contains("second"));
        assert!(error_of("").message.contains("none"));
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let error = error_of("a:\n  b: [1, 2\n");
        assert!(error.position.line >= 2, "{error}");
        assert!(error.to_string().starts_with("f.yaml:"), "{error}");
    }

    #[test]
    fn core_numbers_are_recognised() {
        for number in [
            "0", "-1", "+2", "1.5", ".5", "1.", "1e3", "1.5E-3", "0o17", "0x1F",
        ] {
            assert!(is_core_number(number), "{number}");
        }
        for text in ["1.2.3", "0x", "e3", ".", "1e", "abc", "1_000"] {
            assert!(!is_core_number(text), "{text}");
        }
    }
}
