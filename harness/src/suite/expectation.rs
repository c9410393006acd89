//! Expectations: for one fixture, the findings expected under each revision.
//!
//! One YAML file per fixture, at `expected/<suite>/<fixture name>.yaml`, so a
//! review shows exactly which (rule, pointer, severity) changed under which
//! revision. Files are written only by `bless`, in one canonical layout:
//!
//! ```yaml
//! fixture: elicitation/expected-invalid/elicitation-version-mismatch.json
//! revisions:
//!   2025-06-18:
//!     - {severity: error, rule: mcp.elicitation.protocol-version, path: "/tools/0/elicitations/0"}
//!   2025-11-25: []
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use mcpdesc_protocol::{Diagnostic, Revision, Severity};
use mcpdesc_source::LoadError;
use serde::Deserialize;

use crate::suite::fixture::Fixture;

/// What is compared: a rule broken at a pointer, with a severity. The
/// message of a diagnostic is not part of it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    /// The rule ID.
    pub rule: String,
    /// The RFC 6901 pointer.
    pub path: String,
    /// The severity.
    pub severity: Severity,
}

impl Finding {
    /// The finding a diagnostic stands for.
    pub fn of(diagnostic: &Diagnostic) -> Finding {
        Finding {
            rule: diagnostic.rule.clone(),
            path: diagnostic.path.clone(),
            severity: diagnostic.severity,
        }
    }
}

/// The set of findings of one case, sorted; repeats count once.
pub type Findings = BTreeSet<Finding>;

/// The expectation file of one fixture.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// The fixture's ID (`<suite>/<name>`), which must match the file's place.
    pub fixture: String,
    /// The expected findings under each revision the fixture runs under.
    pub revisions: BTreeMap<Revision, Vec<Finding>>,
}

impl Expectation {
    /// The expected findings under `revision`, if the file lists it.
    pub fn findings(&self, revision: Revision) -> Option<Findings> {
        self.revisions
            .get(&revision)
            .map(|list| list.iter().cloned().collect())
    }

    /// Parses an expectation file.
    ///
    /// # Errors
    ///
    /// A [`LoadError`] with line and column for text that is not strict YAML
    /// or not in the expectation layout.
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Expectation, LoadError> {
        mcpdesc_source::parse_yaml(file, bytes)
    }

    /// The file's text in the canonical layout: revisions in order, findings
    /// sorted and without repeats, pointers quoted.
    pub fn render(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "# Expected findings per MCP revision; written by `mcpdesc-conformance bless`."
        );
        let _ = writeln!(text, "fixture: {}", quote(&self.fixture));
        let _ = writeln!(text, "revisions:");
        for (revision, findings) in &self.revisions {
            let findings: Findings = findings.iter().cloned().collect();
            if findings.is_empty() {
                let _ = writeln!(text, "  {revision}: []");
                continue;
            }
            let _ = writeln!(text, "  {revision}:");
            for finding in findings {
                let _ = writeln!(
                    text,
                    "    - {{severity: {}, rule: {}, path: {}}}",
                    finding.severity,
                    quote(&finding.rule),
                    quote(&finding.path)
                );
            }
        }
        text
    }
}

/// A YAML double-quoted scalar: JSON string syntax is a subset of it.
fn quote(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// Where the expectation file of `fixture` lives in the suite tree.
pub(crate) fn path_of(fixture: &Fixture) -> String {
    format!("expected/{}/{}.yaml", fixture.suite, fixture.name)
}

/// The name `bless` gives its temporary files begins with this; the rest is
/// the target's file name, a random part and [`TEMPORARY_SUFFIX`].
pub(crate) const TEMPORARY_PREFIX: &str = ".";

/// The name `bless` gives its temporary files ends with this.
pub(crate) const TEMPORARY_SUFFIX: &str = ".tmp";

/// Whether `path` (a path in the suite tree) is a temporary file that a
/// `bless` writes beside an expectation before renaming it into place:
/// `.<name>.yaml.<random>.tmp`, or `<name>.yaml.tmp` from earlier versions.
/// One left behind by an interrupted `bless` is no expectation, and the
/// next `bless` removes it.
pub(crate) fn is_temporary(path: &str) -> bool {
    let Some(name) = path
        .strip_prefix("expected/")
        .map(|rest| rest.rsplit('/').next().unwrap_or(rest))
    else {
        return false;
    };
    name.ends_with(".yaml.tmp")
        || (name.starts_with(TEMPORARY_PREFIX) && name.ends_with(TEMPORARY_SUFFIX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: &str, path: &str, severity: Severity) -> Finding {
        Finding {
            rule: rule.into(),
            path: path.into(),
            severity,
        }
    }

    #[test]
    fn renders_canonically_and_parses_back() {
        let expectation = Expectation {
            fixture: "s/expected-invalid/x.json".into(),
            revisions: BTreeMap::from([
                (Revision::of("2025-11-25"), vec![]),
                (
                    Revision::of("2025-06-18"),
                    vec![
                        finding("b.rule", "/a b/~0\"q\"", Severity::Error),
                        finding("a.rule", "", Severity::Warning),
                        finding("a.rule", "", Severity::Warning),
                    ],
                ),
            ]),
        };
        let text = expectation.render();
        insta::assert_snapshot!(text, @r#"
        # Expected findings per MCP revision; written by `mcpdesc-conformance bless`.
        fixture: "s/expected-invalid/x.json"
        revisions:
          2025-06-18:
            - {severity: warning, rule: "a.rule", path: ""}
            - {severity: error, rule: "b.rule", path: "/a b/~0\"q\""}
          2025-11-25: []
        "#);
        let parsed = Expectation::parse("x.yaml", text.as_bytes()).unwrap();
        assert_eq!(parsed.fixture, expectation.fixture);
        assert_eq!(
            parsed.findings(Revision::of("2025-06-18")),
            expectation.findings(Revision::of("2025-06-18"))
        );
        assert_eq!(
            parsed.findings(Revision::of("2025-11-25")),
            Some(Findings::new())
        );
        assert_eq!(parsed.findings(Revision::of("2024-11-05")), None);
    }

    #[test]
    fn temporary_files_of_bless_are_told_apart_from_expectations() {
        for path in [
            "expected/s/expected-valid/a.json.yaml.tmp",
            "expected/s/expected-valid/.a.json.yaml.x1Y2z3.tmp",
        ] {
            assert!(is_temporary(path), "{path}");
        }
        for path in [
            "expected/s/expected-valid/a.json.yaml",
            "expected/s/expected-valid/a.tmp.yaml",
            "fixtures/s/expected-valid/.a.json.yaml.x1Y2z3.tmp",
            "expected/s/expected-valid/a.json.tmp",
        ] {
            assert!(!is_temporary(path), "{path}");
        }
    }

    #[test]
    fn refuses_unknown_members_revisions_and_severities_with_place() {
        let cases = [
            ("fixture: a\nrevisions: {}\nextra: 1\n", 3),
            ("fixture: a\nrevisions:\n  2025-6-18: []\n", 3),
            (
                "fixture: a\nrevisions:\n  2025-06-18:\n    - {severity: fatal, rule: r, path: \"\"}\n",
                4,
            ),
            (
                "fixture: a\nrevisions:\n  2025-06-18: []\n  2025-06-18: []\n",
                4,
            ),
        ];
        for (text, line) in cases {
            let error = Expectation::parse("e.yaml", text.as_bytes()).unwrap_err();
            assert_eq!(error.position.line, line, "{error}");
            assert!(error.to_string().starts_with("e.yaml:"), "{error}");
        }
    }
}
