//! Prompts (Section 11): the list of Prompt Arguments.

use serde_json::Value;

use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive, Type};
use crate::report::Report;
use crate::rule;
use crate::value::is_extension;

/// The members of a Prompt Argument and the type each must have (Section
/// 11.2); `name` is required.
const MEMBERS: [(&str, Type); 4] = [
    ("name", Type::String),
    ("title", Type::String),
    ("description", Type::String),
    ("required", Type::Boolean),
];

/// `mcpdesc.prompt.arguments`: a present `arguments` is a non-empty array
/// of Prompt Argument Objects, each with a string `name`, members of their
/// types and nothing else but `x-` extensions.
pub(crate) fn check(primitives: &[Primitive<'_>], report: &mut Report) {
    for prompt in primitives.iter().filter(|p| p.kind == Kind::Prompt) {
        let Some(arguments) = prompt.object.get("arguments") else {
            continue;
        };
        let at = prompt.pointer.key("arguments");
        match arguments {
            Value::Array(items) if !items.is_empty() => {
                for (index, item) in items.iter().enumerate() {
                    check_argument(item, &at.index(index), report);
                }
            }
            _ => report.error(
                rule::PROMPT_ARGUMENTS,
                &at,
                "`arguments` must be a non-empty array",
            ),
        }
    }
}

/// One Prompt Argument.
fn check_argument(argument: &Value, at: &Pointer, report: &mut Report) {
    let Value::Object(argument) = argument else {
        report.error(
            rule::PROMPT_ARGUMENTS,
            at,
            "every Prompt Argument must be an object",
        );
        return;
    };
    if !argument.contains_key("name") {
        report.error(rule::PROMPT_ARGUMENTS, at, "`name` is missing");
    }
    for (member, value) in argument {
        let problem = match MEMBERS.iter().find(|(name, _)| name == member) {
            Some((_, expected)) if !expected.admits(value) => {
                format!("`{member}` must be {}", expected.name())
            }
            Some(_) => continue,
            None if is_extension(member) => continue,
            None => format!("no member `{member}` is defined on a Prompt Argument"),
        };
        report.error(rule::PROMPT_ARGUMENTS, &at.key(member), problem);
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::PROMPT_ARGUMENTS as ARGUMENTS;
    use crate::tests::{E, assert_findings, with};

    #[test]
    fn arguments_are_a_non_empty_list_of_closed_argument_objects() {
        let doc = with(json!({"prompts": [
            {"name": "a", "arguments": []},
            {"name": "b", "arguments": {"name": "x"}},
            {"name": "c", "arguments": [
                "x",
                {"description": "no name"},
                {"name": 5, "title": 1, "description": null, "required": "yes"},
                {"name": "ok", "title": "OK", "description": "d", "required": true, "x-a": 1},
                {"name": "extra", "default": "x", "X-b": 2}
            ]},
            {"name": "d", "arguments": [{"name": "same"}, {"name": "same"}]}
        ]}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (ARGUMENTS, "/prompts/0/arguments", E),
                (ARGUMENTS, "/prompts/1/arguments", E),
                (ARGUMENTS, "/prompts/2/arguments/0", E),
                (ARGUMENTS, "/prompts/2/arguments/1", E),
                (ARGUMENTS, "/prompts/2/arguments/2/description", E),
                (ARGUMENTS, "/prompts/2/arguments/2/name", E),
                (ARGUMENTS, "/prompts/2/arguments/2/required", E),
                (ARGUMENTS, "/prompts/2/arguments/2/title", E),
                (ARGUMENTS, "/prompts/2/arguments/4/X-b", E),
                (ARGUMENTS, "/prompts/2/arguments/4/default", E),
            ],
        );
    }
}
