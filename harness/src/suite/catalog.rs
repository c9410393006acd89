//! Suite catalogs: the rules a suite checks, with everything known about them.
//!
//! One YAML file per suite under `suites/`. A catalog entry carries every field
//! of a published rule page (requirement, owner, surface, path, kind,
//! requirement level, severity, status, enforcement, protocol applicability,
//! the requirements it implements, what it is based on, the decisions taken
//! where the specification leaves room, and examples), so rule pages can be
//! generated from it and actual output can be checked against it.

use std::collections::BTreeMap;
use std::fmt;

use mcpdesc_protocol::{Revision, Revisions, Severity};
use serde::{Deserialize, de};

use crate::suite::fixture::Class;

/// One suite's catalog, as read from `suites/<suite>.yaml`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Catalog {
    /// The suite's name, which is also its fixture and expectation folder.
    pub suite: String,
    /// A short title.
    pub title: String,
    /// What the suite covers, in a paragraph.
    pub description: String,
    /// The MCP Description version whose rules it holds (e.g. `0.9.0`).
    pub specification: String,
    /// What its cases hand a validator: the decoded document (`document`,
    /// the default), or the fixture's text as written (`source`: every
    /// fixture is a serialization case). See [`Input`].
    #[serde(default)]
    pub input: Input,
    /// The rules, in the order their pages are listed.
    pub rules: Vec<Rule>,
    /// Pointer conventions this catalog introduces: kinds of finding and
    /// where their diagnostics point. Decisions of any catalog name them in
    /// their `conventions`, and the conventions page gathers each with the
    /// decisions that apply it.
    #[serde(default)]
    pub conventions: Vec<Convention>,
}

/// What the cases of a suite hand a validator (`input:` in its catalog).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    /// The document, decoded by the harness's strict loader and sent as
    /// JSON: a fixture that does not load is a problem of the suite.
    #[default]
    Document,
    /// The fixture's text, as written (a serialization case: duplicate
    /// keys, YAML tags and aliases, several YAML documents, non-finite
    /// numbers...), sent only to validators that announce they read its
    /// format. A fixture whose text the strict loader refuses is the point
    /// of such a suite, not a problem; bytes that are not UTF-8 still are.
    Source,
}

/// A pointer convention: one kind of finding and where its diagnostic
/// points, shared by the rules whose decisions name it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Convention {
    /// A plain name (lowercase ASCII letters, digits and `-`) that decisions
    /// use to name it; unique across every catalog of a suite tree.
    pub id: String,
    /// The kind of finding (e.g. `A required member is missing`).
    pub finding: String,
    /// Where its diagnostic points, in a few words (e.g. `the object that
    /// lacks it`).
    pub points_at: String,
    /// More about it, in a paragraph.
    #[serde(default)]
    pub explanation: Option<String>,
}

/// How the suite settles one question the specification leaves open for a
/// rule. In a catalog it is either a string, or `{text, conventions}` when
/// it applies pointer conventions.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The decision, in a sentence or two of Markdown.
    pub text: String,
    /// The IDs of the pointer conventions ([`Convention`]) it applies.
    pub conventions: Vec<String>,
}

/// A decision with its conventions, as a catalog writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaggedDecision {
    text: String,
    conventions: Vec<String>,
}

/// A catalog writes a decision as its text alone, when it applies no
/// convention, or as a map of `text` and `conventions`. Told apart by the
/// value's type, so that nothing is read twice (as an untagged enum would,
/// through a copy) and a mistake says what was expected.
impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Decision, D::Error> {
        struct Form;
        impl<'de> de::Visitor<'de> for Form {
            type Value = Decision;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a decision: its text, or a map of `text` and `conventions`")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Decision, E> {
                Ok(Decision {
                    text: text.to_owned(),
                    conventions: Vec::new(),
                })
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Decision, A::Error> {
                let TaggedDecision { text, conventions } =
                    TaggedDecision::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Decision { text, conventions })
            }
        }
        deserializer.deserialize_any(Form)
    }
}

/// Everything known about one rule.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Rule {
    /// The stable rule ID that diagnostics carry.
    pub id: String,
    /// The rule page's title: what an author should do.
    pub title: String,
    /// Why the rule exists, in a short paragraph.
    pub summary: String,
    /// The requirement, in one sentence.
    pub requirement: String,
    /// Who owns the requirement: `mcp` (the protocol) or `mcpdesc` (the format).
    pub owner: Owner,
    /// The surface the rule constrains (e.g. `Elicitation Declaration`).
    pub surface: String,
    /// The member of that surface it looks at (e.g. `requestedSchema`).
    pub path: String,
    /// The kind of check (e.g. `structural`, `mcpdesc-semantic`).
    pub kind: String,
    /// The requirement level (`must`, `should`).
    pub level: String,
    /// The severity of its diagnostics.
    pub severity: Severity,
    /// The rule's publication status.
    pub status: String,
    /// How the rule is enforced.
    pub enforcement: String,
    /// Under which revisions the rule applies.
    pub applicability: Applicability,
    /// Whether a validator chooses to claim the rule (`listed`, the
    /// default) or owes it under every revision it applies under
    /// (`implied`): see [`Claim`].
    #[serde(default)]
    pub claim: Claim,
    /// JSON pointer patterns of the places the rule looks at: a valid case
    /// exercises the rule when its fixture has a value at a matching pointer
    /// and the rule applies under its revision. In a pattern, `*` stands for
    /// any one token and `<primitive>` for `tools`, `resources`,
    /// `resourceTemplates` or `prompts`.
    #[serde(default)]
    pub exercised_at: Vec<String>,
    /// Revisions under which the rule applies but no document can break it
    /// (say why in a decision); coverage asks for no invalid case there.
    #[serde(default)]
    pub cannot_fire_under: Vec<Revision>,
    /// The normative sources it is based on.
    #[serde(default)]
    pub based_on: Vec<BasedOn>,
    /// How the suite settles what the specification leaves open for this
    /// rule; every validator is measured against these.
    #[serde(default)]
    pub decisions: Vec<Decision>,
    /// Examples: a fixture and the pointer of the part it shows.
    #[serde(default)]
    pub examples: Vec<Example>,
}

/// How a rule enters a validator's claims.
///
/// A validator may list the rules it checks (`implementation.rules`, or
/// `run --rules`), and is then judged on those alone. A rule that is a
/// duty of validating under a revision rather than a check of the document
/// (the warning that validation under a legacy revision is incomplete,
/// reported whatever the document holds) is `implied`: a validator that
/// announces a revision the rule applies under is judged on it whatever it
/// lists, since taking the revision's cases is taking on the duty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    /// Judged when the validator lists it, or lists no rules at all.
    #[default]
    Listed,
    /// Judged under every revision the rule applies under that the
    /// validator announces, whatever it lists.
    Implied,
}

/// Who owns a rule's requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    /// The MCP protocol; rule IDs start with `mcp.`.
    Mcp,
    /// The MCP Description format; rule IDs start with `mcpdesc.`.
    Mcpdesc,
}

impl Owner {
    /// The rule ID prefix of this owner.
    pub const fn prefix(self) -> &'static str {
        match self {
            Owner::Mcp => "mcp.",
            Owner::Mcpdesc => "mcpdesc.",
        }
    }
}

/// Under which revisions a rule applies.
#[derive(Debug, Clone, PartialEq)]
pub enum Applicability {
    /// Reported identically under every revision.
    Independent(IndependentMarker),
    /// Applies under the revisions marked `applies`.
    PerRevision(BTreeMap<Revision, Applies>),
}

/// A catalog writes `independent`, or a map from revisions to `applies` or
/// `not-applicable`: told apart by the value's type, as for [`Decision`].
impl<'de> Deserialize<'de> for Applicability {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Applicability, D::Error> {
        struct Form;
        impl<'de> de::Visitor<'de> for Form {
            type Value = Applicability;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "`independent`, or a map from revisions to `applies` or `not-applicable`",
                )
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Applicability, E> {
                IndependentMarker::deserialize(de::value::StrDeserializer::<E>::new(text))
                    .map(Applicability::Independent)
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Applicability, A::Error> {
                BTreeMap::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(Applicability::PerRevision)
            }
        }
        deserializer.deserialize_any(Form)
    }
}

/// The word `independent`, in a catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IndependentMarker {
    /// Independent of the MCP protocol revision.
    Independent,
}

/// Whether a rule applies under one revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applies {
    /// The rule applies.
    Applies,
    /// The rule does not apply; a diagnostic for it is wrong.
    NotApplicable,
}

impl Applicability {
    /// Whether the rule applies under `revision`.
    pub fn applies_to(&self, revision: Revision) -> bool {
        match self {
            Applicability::Independent(_) => true,
            Applicability::PerRevision(table) => table.get(&revision) == Some(&Applies::Applies),
        }
    }

    /// Whether the rule is independent of the revision.
    pub fn is_independent(&self) -> bool {
        matches!(self, Applicability::Independent(_))
    }
}

/// A normative source a rule is based on.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BasedOn {
    /// The tier of the source (e.g. `Tier 1 — MCP schema.ts and normative
    /// specification text`).
    pub tier: String,
    /// What in that source the rule rests on.
    pub basis: String,
    /// Pinned references into the source.
    #[serde(default)]
    pub references: Vec<String>,
}

/// An example: a fixture of the suite and the part of it that shows the rule.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Example {
    /// The fixture's class, which must match its folder.
    pub class: Class,
    /// The fixture, relative to `fixtures/<suite>/` (e.g.
    /// `expected-invalid/elicitation-form-semantics.json`).
    pub source: String,
    /// The JSON pointer of the part shown; for an invalid example, where the
    /// rule's diagnostic is reported.
    pub selected: String,
}

/// Every rule of every loaded suite, by ID.
#[derive(Debug, Clone, Default)]
pub struct RuleIndex {
    rules: BTreeMap<String, (String, Rule)>,
}

impl RuleIndex {
    /// Indexes the rules of `catalogs`.
    pub fn new<'a>(catalogs: impl IntoIterator<Item = &'a Catalog>) -> RuleIndex {
        let mut rules = BTreeMap::new();
        for catalog in catalogs {
            for rule in &catalog.rules {
                rules
                    .entry(rule.id.clone())
                    .or_insert_with(|| (catalog.suite.clone(), rule.clone()));
            }
        }
        RuleIndex { rules }
    }

    /// The rule with this ID, if a catalog defines it.
    pub fn get(&self, id: &str) -> Option<&Rule> {
        self.rules.get(id).map(|(_, rule)| rule)
    }

    /// The suite that defines the rule with this ID.
    pub fn suite_of(&self, id: &str) -> Option<&str> {
        self.rules.get(id).map(|(suite, _)| suite.as_str())
    }

    /// Every rule, by ID.
    pub fn iter(&self) -> impl Iterator<Item = &Rule> {
        self.rules.values().map(|(_, rule)| rule)
    }
}

/// Something wrong inside a catalog that its YAML shape does not catch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogProblem {
    /// The rule concerned, when it is about one.
    pub rule: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CatalogProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rule {
            Some(rule) => write!(f, "rule `{rule}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl Rule {
    /// Whether any of `pointers` matches one of the rule's `exercised-at`
    /// patterns.
    pub fn exercised_by<'a>(&self, mut pointers: impl Iterator<Item = &'a str>) -> bool {
        pointers.any(|pointer| {
            self.exercised_at
                .iter()
                .any(|pattern| pointer_matches(pattern, pointer))
        })
    }
}

/// The collections that `<primitive>` stands for in a pointer pattern.
const PRIMITIVE_COLLECTIONS: [&str; 4] = ["tools", "resources", "resourceTemplates", "prompts"];

/// Whether `pointer` matches `pattern` token by token (`*` is any one token,
/// `<primitive>` a primitive collection); `""` matches only the root.
pub fn pointer_matches(pattern: &str, pointer: &str) -> bool {
    if pattern.is_empty() || pointer.is_empty() {
        return pattern.is_empty() && pointer.is_empty();
    }
    let mut wanted = pattern.split('/');
    let mut tokens = pointer.split('/');
    loop {
        match (wanted.next(), tokens.next()) {
            (None, None) => return true,
            (Some("*"), Some(_)) => {}
            (Some("<primitive>"), Some(token)) if PRIMITIVE_COLLECTIONS.contains(&token) => {}
            (Some(want), Some(token)) if want == token => {}
            _ => return false,
        }
    }
}

impl Catalog {
    /// Checks what the YAML shape cannot: unique IDs, ID prefixes that match
    /// the owner, applicability tables with one row per known revision
    /// (`revisions`) and no other, and example paths that stay inside the
    /// suite's fixture folders.
    pub fn problems(&self, revisions: &Revisions) -> Vec<CatalogProblem> {
        let mut problems = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        let problem = |rule: &Rule, message: String| CatalogProblem {
            rule: Some(rule.id.clone()),
            message,
        };
        for rule in &self.rules {
            if !seen.insert(rule.id.as_str()) {
                problems.push(problem(rule, "is defined twice".into()));
            }
            if !rule.id.starts_with(rule.owner.prefix()) {
                problems.push(problem(
                    rule,
                    format!(
                        "owner is {:?} but the ID does not start with `{}`",
                        rule.owner,
                        rule.owner.prefix()
                    ),
                ));
            }
            for revision in &rule.cannot_fire_under {
                if !revisions.contains(*revision) {
                    problems.push(problem(
                        rule,
                        format!(
                            "cannot-fire-under lists {revision}, which is not in suites/revisions.yaml ({})",
                            revisions.names()
                        ),
                    ));
                } else if !rule.applicability.applies_to(*revision) {
                    problems.push(problem(
                        rule,
                        format!("cannot-fire-under lists {revision}, where the rule does not apply anyway"),
                    ));
                }
            }
            if rule.exercised_at.is_empty() {
                problems.push(problem(rule, "lists no exercised-at pattern".into()));
            }
            if let Applicability::PerRevision(table) = &rule.applicability {
                for revision in revisions.iter() {
                    if !table.contains_key(&revision) {
                        problems.push(problem(
                            rule,
                            format!(
                                "applicability table lacks {revision}: give it a row \
                                 `{revision}: applies` or `{revision}: not-applicable`"
                            ),
                        ));
                    }
                }
                for revision in table.keys().filter(|r| !revisions.contains(**r)) {
                    problems.push(problem(
                        rule,
                        format!(
                            "applicability table names {revision}, which is not in \
                             suites/revisions.yaml ({})",
                            revisions.names()
                        ),
                    ));
                }
                if !table.values().any(|applies| *applies == Applies::Applies) {
                    problems.push(problem(rule, "applies under no revision".into()));
                }
            }
            for example in &rule.examples {
                let folder = example.class.folder();
                let inside = example
                    .source
                    .strip_prefix(folder)
                    .and_then(|rest| rest.strip_prefix('/'))
                    .is_some_and(|rest| {
                        !rest.is_empty()
                            && !rest.split('/').any(|part| part == ".." || part.is_empty())
                    });
                if !inside {
                    problems.push(problem(
                        rule,
                        format!(
                            "example `{}` must be a file under `{folder}/`",
                            example.source
                        ),
                    ));
                }
            }
        }
        problems
    }
}

/// Checks the pointer conventions of a suite tree's catalogs together:
/// each convention ID is a plain name defined once across all of them, and
/// every convention a decision names is defined in one of them. Each
/// problem comes with the suite of the catalog it is in. When `complete`
/// is false (a catalog of the tree did not load), a convention no loaded
/// catalog defines may well be that catalog's, so undefined names are not
/// reported: the broken catalog's own problem says what is wrong.
pub fn convention_problems(catalogs: &[Catalog], complete: bool) -> Vec<(String, CatalogProblem)> {
    let mut problems = Vec::new();
    let mut defined: BTreeMap<&str, &str> = BTreeMap::new();
    for catalog in catalogs {
        for convention in &catalog.conventions {
            let mut report = |message: String| {
                problems.push((
                    catalog.suite.clone(),
                    CatalogProblem {
                        rule: None,
                        message,
                    },
                ));
            };
            if !crate::suite::is_plain_name(&convention.id) {
                report(format!(
                    "convention `{}`: an ID is lowercase ASCII letters, digits and `-`, \
                     starting with a letter",
                    convention.id
                ));
            }
            if let Some(first) = defined.insert(&convention.id, &catalog.suite) {
                report(format!(
                    "convention `{}` is already defined in suite `{first}`",
                    convention.id
                ));
            }
        }
    }
    if !complete {
        return problems;
    }
    for catalog in catalogs {
        for rule in &catalog.rules {
            for decision in &rule.decisions {
                for id in &decision.conventions {
                    if !defined.contains_key(id.as_str()) {
                        problems.push((
                            catalog.suite.clone(),
                            CatalogProblem {
                                rule: Some(rule.id.clone()),
                                message: format!(
                                    "a decision names convention `{id}`, which no catalog defines"
                                ),
                            },
                        ));
                    }
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::{
        Applicability, Applies, Catalog, Decision, IndependentMarker, Input, pointer_matches,
    };
    use mcpdesc_protocol::Revision;

    fn read<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
        serde_json::from_str(json).map_err(|error| error.to_string())
    }

    #[test]
    fn a_decision_is_its_text_or_a_map_of_text_and_conventions() {
        let plain = Decision {
            text: "t".into(),
            conventions: vec![],
        };
        assert_eq!(read::<Decision>(r#""t""#), Ok(plain));
        assert_eq!(
            read::<Decision>(r#"{"text": "t", "conventions": ["pointers"]}"#),
            Ok(Decision {
                text: "t".into(),
                conventions: vec!["pointers".into()],
            })
        );
        let wrong = read::<Decision>("1").unwrap_err();
        assert!(
            wrong.starts_with(
                "invalid type: integer `1`, expected a decision: its text, or a map of `text` and `conventions`"
            ),
            "{wrong}"
        );
        let unknown = read::<Decision>(r#"{"text": "t", "conventions": [], "why": "w"}"#);
        assert!(unknown.unwrap_err().starts_with("unknown field `why`"));
        let missing = read::<Decision>(r#"{"text": "t"}"#);
        assert!(
            missing
                .unwrap_err()
                .starts_with("missing field `conventions`")
        );
    }

    #[test]
    fn an_applicability_is_independent_or_a_table_of_revisions() {
        assert_eq!(
            read::<Applicability>(r#""independent""#),
            Ok(Applicability::Independent(IndependentMarker::Independent))
        );
        assert_eq!(
            read::<Applicability>(r#"{"2025-06-18": "applies", "2024-11-05": "not-applicable"}"#),
            Ok(Applicability::PerRevision(
                [
                    (Revision::of("2025-06-18"), Applies::Applies),
                    (Revision::of("2024-11-05"), Applies::NotApplicable),
                ]
                .into()
            ))
        );
        let typo = read::<Applicability>(r#""indepedent""#).unwrap_err();
        assert!(
            typo.starts_with("unknown variant `indepedent`, expected `independent`"),
            "{typo}"
        );
        let wrong = read::<Applicability>("[]").unwrap_err();
        assert!(
            wrong.starts_with(
                "invalid type: sequence, expected `independent`, or a map from revisions to `applies` or `not-applicable`"
            ),
            "{wrong}"
        );
        let value = read::<Applicability>(r#"{"2025-06-18": "maybe"}"#).unwrap_err();
        assert!(value.starts_with("unknown variant `maybe`"), "{value}");
    }

    #[test]
    fn a_suites_input_is_its_documents_or_their_source_text() {
        assert_eq!(read::<Input>(r#""document""#), Ok(Input::Document));
        assert_eq!(read::<Input>(r#""source""#), Ok(Input::Source));
        assert_eq!(Input::default(), Input::Document);
        let wrong = read::<Input>(r#""text""#).unwrap_err();
        assert!(
            wrong.starts_with("unknown variant `text`, expected `document` or `source`"),
            "{wrong}"
        );
        let catalog = |input: &str| {
            mcpdesc_source::parse_yaml::<Catalog>(
                "c.yaml",
                format!(
                    "suite: s\ntitle: t\ndescription: d\nspecification: 0.9.0\n{input}rules: []\n"
                )
                .as_bytes(),
            )
            .map(|catalog| catalog.input)
        };
        assert_eq!(catalog(""), Ok(Input::Document));
        assert_eq!(catalog("input: source\n"), Ok(Input::Source));
        assert!(catalog("input: yaml\n").is_err());
    }

    #[test]
    fn pointer_patterns_match_token_by_token() {
        assert!(pointer_matches("", ""));
        assert!(!pointer_matches("", "/a"));
        assert!(pointer_matches(
            "/<primitive>/*/elicitations",
            "/resourceTemplates/3/elicitations"
        ));
        assert!(!pointer_matches(
            "/<primitive>/*/elicitations",
            "/components/3/elicitations"
        ));
        assert!(!pointer_matches(
            "/<primitive>/*/elicitations",
            "/tools/0/elicitations/0"
        ));
        assert!(pointer_matches("/tools/*/x~1y", "/tools/0/x~1y"));
        assert!(!pointer_matches("/tools/*", "/tools"));
    }
}
