//! The two serializations of a document.

use std::fmt;
use std::path::Path;

/// The serialization of a document, chosen by its file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// JSON (`.json`).
    Json,
    /// Restricted YAML 1.2 (`.yaml` or `.yml`).
    Yaml,
}

impl Format {
    /// The format a file's extension names, if it names one.
    pub fn from_path(path: impl AsRef<Path>) -> Option<Format> {
        match path.as_ref().extension()?.to_str()? {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
        })
    }
}
