//! Lines and columns, and the map from JSON pointers to them.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A place in a source text: 1-based line and 1-based column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, counted in characters.
    pub column: usize,
}

impl Position {
    /// The first character of a text.
    pub const START: Position = Position { line: 1, column: 1 };

    /// The position of byte `offset` in `bytes` (counting columns in UTF-8
    /// characters, and invalid bytes as one each).
    pub fn of_offset(bytes: &[u8], offset: usize) -> Position {
        let mut position = Position::START;
        for &byte in bytes.iter().take(offset) {
            if byte == b'\n' {
                position.line += 1;
                position.column = 1;
            } else if byte & 0xC0 != 0x80 {
                position.column += 1;
            }
        }
        position
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Where each value of a document starts, keyed by its RFC 6901 JSON pointer
/// (`""` for the root).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locations {
    starts: HashMap<String, Position>,
}

impl Locations {
    pub(crate) fn insert(&mut self, pointer: &str, position: Position) {
        self.starts.entry(pointer.to_owned()).or_insert(position);
    }

    /// Where the value at `pointer` starts, if the pointer names a value.
    pub fn get(&self, pointer: &str) -> Option<Position> {
        self.starts.get(pointer).copied()
    }

    /// Where the value at `pointer` starts or, when it names nothing, where
    /// its nearest existing ancestor starts.
    pub fn nearest(&self, pointer: &str) -> Option<Position> {
        let mut current = pointer;
        loop {
            if let Some(position) = self.get(current) {
                return Some(position);
            }
            current = &current[..current.rfind('/')?];
        }
    }

    /// Every pointer that names a value, in no particular order.
    pub fn pointers(&self) -> impl Iterator<Item = &str> {
        self.starts.keys().map(String::as_str)
    }

    /// How many values are mapped.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether no value is mapped.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}

/// As a JSON object from pointer to `[line, column]`, sorted by pointer so
/// that the same document always writes the same text (the harness's
/// compiled suite is committed).
impl serde::Serialize for Locations {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let sorted: BTreeMap<&str, (usize, usize)> = self
            .starts
            .iter()
            .map(|(pointer, position)| (pointer.as_str(), (position.line, position.column)))
            .collect();
        sorted.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Locations {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let starts = HashMap::<String, (usize, usize)>::deserialize(deserializer)?;
        Ok(Locations {
            starts: starts
                .into_iter()
                .map(|(pointer, (line, column))| (pointer, Position { line, column }))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_sorted_by_pointer_and_reads_back() {
        let mut locations = Locations::default();
        locations.insert("/b", Position { line: 3, column: 5 });
        locations.insert("", Position::START);
        locations.insert("/a/0", Position { line: 2, column: 7 });
        let text = serde_json::to_string(&locations).unwrap();
        assert_eq!(text, r#"{"":[1,1],"/a/0":[2,7],"/b":[3,5]}"#);
        let back: Locations = serde_json::from_str(&text).unwrap();
        assert_eq!(back, locations);
    }
}
