//! What two validators disagree on about one document under one revision,
//! at a level, and the shape of a disagreement that tells one bug from
//! another.

use std::collections::BTreeSet;

use mcpdesc_protocol::{Diagnostic, Severity};

use crate::outcome::comparison::Level;

/// Which of the two validators reported a finding the other did not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// The validator under test (`--validator`).
    Validator,
    /// The one it is compared with (`--against`, by default the reference
    /// validator).
    Against,
}

/// One finding only one side reported, at the run's level: at the exact
/// level a (rule, pointer, severity); at the rules level a rule; at the
/// verdict level an error rule of the side that found errors when the
/// other found none.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Difference {
    /// Who reported it.
    pub side: Side,
    /// The rule.
    pub rule: String,
    /// The pointer (exact level only).
    pub path: Option<String>,
    /// The severity (exact level only).
    pub severity: Option<Severity>,
}

impl Difference {
    /// The difference with its pointer reduced to a shape
    /// ([`pointer_shape`]), so that the same bug at another place has the
    /// same shape.
    pub fn shape(&self) -> Difference {
        Difference {
            path: self.path.as_deref().map(pointer_shape),
            ..self.clone()
        }
    }
}

/// The root members that hold primitives, folded into [`PRIMITIVE`] in a
/// shape.
pub const PRIMITIVE_COLLECTIONS: [&str; 4] = ["tools", "resources", "resourceTemplates", "prompts"];

/// What a primitive collection is written as in a shape: the catalogs'
/// spelling (`exercised-at: "/<primitive>/*/elicitations/*"`), so that a
/// shape reads as the rule pages do.
pub const PRIMITIVE: &str = "<primitive>";

/// The members whose keys are names an author chooses: a JSON Schema's
/// `properties`, the component namespaces, the named example maps of a
/// primitive, and the argument maps of examples.
const MAPS: [&str; 10] = [
    "properties",
    "schemas",
    "interactionExamples",
    "examples",
    "completionExamples",
    "toolExamples",
    "resourceExamples",
    "resourceTemplateExamples",
    "promptExamples",
    "arguments",
];

/// `pointer` with its variable tokens replaced by `*` (array indices, and
/// the names under `properties`, `schemas`, the other component
/// namespaces, the example maps and the argument maps of examples), and
/// a root primitive collection by [`PRIMITIVE`]: a validator that gets
/// prompts wrong almost always gets tools wrong the same way, and four
/// groups for one bug hid how few causes there were. Interaction examples
/// belong to Tools only, and the catalogs write them so
/// (`/tools/*/interactionExamples/*/steps/*/request`): there `tools` stays.
pub fn pointer_shape(pointer: &str) -> String {
    let mut shaped = String::new();
    let mut after_map = false;
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let tool_example =
        tokens.first() == Some(&"tools") && tokens.get(2) == Some(&"interactionExamples");
    for (place, token) in tokens.into_iter().enumerate() {
        shaped.push('/');
        if place == 0 && PRIMITIVE_COLLECTIONS.contains(&token) && !tool_example {
            shaped.push_str(PRIMITIVE);
        } else if after_map
            || (!token.is_empty() && token.bytes().all(|byte| byte.is_ascii_digit()))
        {
            shaped.push('*');
        } else {
            shaped.push_str(token);
        }
        // A key of a map is a name, whatever it spells: a property called
        // `examples` holds a schema, not a map of names.
        after_map = !after_map && MAPS.contains(&token);
    }
    shaped
}

/// What only one of `validator` and `against` reported, at `level`; empty
/// when they agree.
pub fn differences(
    validator: &[Diagnostic],
    against: &[Diagnostic],
    level: Level,
) -> Vec<Difference> {
    let mut found = Vec::new();
    match level {
        Level::Verdict => {
            let errors = |diagnostics: &[Diagnostic]| -> BTreeSet<String> {
                diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .map(|d| d.rule.clone())
                    .collect()
            };
            let (ours, theirs) = (errors(validator), errors(against));
            if ours.is_empty() != theirs.is_empty() {
                let (side, rules) = if ours.is_empty() {
                    (Side::Against, theirs)
                } else {
                    (Side::Validator, ours)
                };
                found.extend(rules.into_iter().map(|rule| Difference {
                    side,
                    rule,
                    path: None,
                    severity: None,
                }));
            }
        }
        Level::Rules => {
            let rules = |diagnostics: &[Diagnostic]| -> BTreeSet<String> {
                diagnostics.iter().map(|d| d.rule.clone()).collect()
            };
            let (ours, theirs) = (rules(validator), rules(against));
            for (side, mine, other) in [
                (Side::Validator, &ours, &theirs),
                (Side::Against, &theirs, &ours),
            ] {
                found.extend(mine.difference(other).map(|rule| Difference {
                    side,
                    rule: rule.clone(),
                    path: None,
                    severity: None,
                }));
            }
        }
        Level::Exact => {
            let triples = |diagnostics: &[Diagnostic]| -> BTreeSet<(String, String, Severity)> {
                diagnostics
                    .iter()
                    .map(|d| (d.rule.clone(), d.path.clone(), d.severity))
                    .collect()
            };
            let (ours, theirs) = (triples(validator), triples(against));
            for (side, mine, other) in [
                (Side::Validator, &ours, &theirs),
                (Side::Against, &theirs, &ours),
            ] {
                found.extend(
                    mine.difference(other)
                        .map(|(rule, path, severity)| Difference {
                            side,
                            rule: rule.clone(),
                            path: Some(path.clone()),
                            severity: Some(*severity),
                        }),
                );
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(rule: &str, path: &str, severity: Severity) -> Diagnostic {
        Diagnostic::new(rule, path, severity)
    }

    #[test]
    fn each_level_compares_what_it_judges() {
        let ours = [
            d("r", "/a/0", Severity::Error),
            d("w", "", Severity::Warning),
        ];
        let theirs = [d("r", "/a/1", Severity::Error)];
        assert!(differences(&ours, &theirs, Level::Verdict).is_empty());
        let rules = differences(&ours, &theirs, Level::Rules);
        assert_eq!(rules.len(), 1);
        assert_eq!(
            (rules[0].side, rules[0].rule.as_str()),
            (Side::Validator, "w")
        );
        let exact = differences(&ours, &theirs, Level::Exact);
        assert_eq!(exact.len(), 3, "{exact:?}");
        let verdict = differences(&[], &theirs, Level::Verdict);
        assert_eq!(verdict.len(), 1);
        assert_eq!(verdict[0].side, Side::Against);
    }

    #[test]
    fn shapes_forget_indices_and_map_keys() {
        assert_eq!(pointer_shape(""), "");
        assert_eq!(
            pointer_shape("/tools/3/elicitations/0/requestedSchema/properties/a~1b/type"),
            "/<primitive>/*/elicitations/*/requestedSchema/properties/*/type"
        );
        assert_eq!(
            pointer_shape("/components/schemas/x"),
            "/components/schemas/*"
        );
        assert_eq!(
            pointer_shape("/prompts/0/examples/paris weather/arguments/city"),
            "/<primitive>/*/examples/*/arguments/*"
        );
        assert_eq!(
            pointer_shape("/resourceTemplates/1/completionExamples/a/context/arguments/owner"),
            "/<primitive>/*/completionExamples/*/context/arguments/*"
        );
        assert_eq!(
            pointer_shape("/components/promptExamples/shared/result"),
            "/components/promptExamples/*/result"
        );
        assert_eq!(
            pointer_shape("/tools/0/inputSchema/properties/examples/type"),
            "/<primitive>/*/inputSchema/properties/*/type"
        );
        assert_eq!(
            pointer_shape("/tools/0/inputSchema/properties/properties/properties/a"),
            "/<primitive>/*/inputSchema/properties/*/properties/*"
        );
        let ours = [d("r", "/tools/0/name", Severity::Error)];
        let other = [d("r", "/prompts/5/name", Severity::Error)];
        assert_eq!(
            differences(&ours, &[], Level::Exact)[0].shape(),
            differences(&other, &[], Level::Exact)[0].shape()
        );
    }

    /// Every primitive collection folds into the catalogs' `<primitive>`,
    /// at the root only: a member of that name deeper down, or a root
    /// member that only starts like one, stays as it is, and so do a Tool's
    /// interaction examples, which the catalogs write under `/tools`.
    #[test]
    fn primitive_collections_fold_as_the_catalogs_write_them() {
        for collection in PRIMITIVE_COLLECTIONS {
            assert_eq!(
                pointer_shape(&format!("/{collection}/2/elicitations/0")),
                "/<primitive>/*/elicitations/*"
            );
            assert_eq!(pointer_shape(&format!("/{collection}")), "/<primitive>");
        }
        assert_eq!(
            pointer_shape("/tools/1/interactionExamples/ex/steps/0/request"),
            "/tools/*/interactionExamples/*/steps/*/request"
        );
        assert_eq!(pointer_shape("/info/tools"), "/info/tools");
        assert_eq!(pointer_shape("/toolsets/0"), "/toolsets/*");
        assert_eq!(pointer_shape("/protocolVersions/1"), "/protocolVersions/*");
    }
}
