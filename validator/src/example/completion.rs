//! Completion examples of Prompts and Resource Templates (Sections 11.4
//! and 10.4.6): one `completion/complete` request for an argument of the
//! containing declaration, and its completed result. They are always
//! inline: the containing declaration is the completion's target.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::{Place, check_completed};
use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive};
use crate::report::Report;
use crate::resource::uri_template;
use crate::rule;
use crate::value::is_extension;

/// The members of a Completion Example Object besides `x-` extensions.
const MEMBERS: [&str; 3] = ["argument", "context", "result"];

/// The first revision that defines a completion request's `context`.
const CONTEXT: Revision = Revision::of("2025-06-18");

/// The most candidates one completion result may hold (MCP's
/// `CompleteResult`, every revision).
const MOST_VALUES: usize = 100;

/// What a completion example may name: the containing declaration's
/// arguments, or `None` when they cannot be known (a `uriTemplate` that is
/// missing or does not parse, which other rules report).
fn targets(primitive: &Primitive<'_>) -> Option<Vec<String>> {
    match primitive.kind {
        Kind::ResourceTemplate => {
            let text = primitive.object.get("uriTemplate")?.as_str()?;
            let template = uri_template(text)?;
            Some(
                template
                    .variables()
                    .map(|name| name.as_str().to_owned())
                    .collect(),
            )
        }
        _ => Some(
            super::prompt::declared(primitive)
                .into_iter()
                .map(|(name, _)| name.to_owned())
                .collect(),
        ),
    }
}

/// The completion example rules on the `completionExamples` entries of
/// `primitive` under `revision`.
pub(super) fn check(
    primitive: &Primitive<'_>,
    examples: &Map<String, Value>,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let targets = targets(primitive);
    for (name, example) in examples {
        let place = Place {
            entry: primitive.pointer.key("completionExamples").key(name),
            referenced: false,
        };
        let at = &place.entry;
        let Value::Object(example) = example else {
            report.error(
                rule::COMPLETION_EXAMPLE_SHAPE,
                at,
                "a completion example is an object",
            );
            continue;
        };
        check_members(example, at, report);
        let completed = check_argument(example.get("argument"), at, report);
        let context = example
            .get("context")
            .and_then(|context| check_context(context, &at.key("context"), report));
        if let Some(targets) = &targets {
            let targets: Vec<&str> = targets.iter().map(String::as_str).collect();
            check_targets(completed, context, &targets, at, report);
        }
        if in_scope && revision < CONTEXT && example.contains_key("context") {
            report.error(
                rule::COMPLETION_EXAMPLE_PROTOCOL_VERSION,
                &at.key("context"),
                format!("MCP {revision} defines no completion `context`"),
            );
        }
        match example.get("result") {
            None => {}
            Some(Value::Object(result)) => {
                check_completed(result, &place, revision, in_scope, report);
                check_result(result, &at.key("result"), report);
            }
            Some(_) => report.error(
                rule::COMPLETION_EXAMPLE_RESULT,
                &at.key("result"),
                "`result` must be an object",
            ),
        }
    }
}

/// `mcpdesc.completion-example.shape` on the members of one example:
/// `argument` and `result` are present, and nothing but them, `context`
/// and `x-` extensions is.
fn check_members(example: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    for required in ["argument", "result"] {
        if !example.contains_key(required) {
            report.error(
                rule::COMPLETION_EXAMPLE_SHAPE,
                at,
                format!("`{required}` is missing"),
            );
        }
    }
    for member in example
        .keys()
        .filter(|member| !MEMBERS.contains(&member.as_str()) && !is_extension(member))
    {
        report.error(
            rule::COMPLETION_EXAMPLE_SHAPE,
            &at.key(member),
            format!("no member `{member}` is defined on a Completion Example Object"),
        );
    }
}

/// `mcpdesc.completion-example.shape` on `argument`: an object with a
/// string `name` and a string `value`. Returns the name when there is one.
fn check_argument<'a>(
    argument: Option<&'a Value>,
    example: &Pointer,
    report: &mut Report,
) -> Option<&'a str> {
    let at = example.key("argument");
    let Value::Object(argument) = argument? else {
        report.error(
            rule::COMPLETION_EXAMPLE_SHAPE,
            &at,
            "`argument` must be an object with a `name` and a `value`",
        );
        return None;
    };
    for member in argument
        .keys()
        .filter(|member| !matches!(member.as_str(), "name" | "value") && !is_extension(member))
    {
        report.error(
            rule::COMPLETION_EXAMPLE_SHAPE,
            &at.key(member),
            format!("no member `{member}` is defined on a completion `argument`"),
        );
    }
    for member in ["name", "value"] {
        match argument.get(member) {
            Some(Value::String(_)) => {}
            Some(_) => report.error(
                rule::COMPLETION_EXAMPLE_SHAPE,
                &at.key(member),
                format!("`{member}` must be a string"),
            ),
            None => report.error(
                rule::COMPLETION_EXAMPLE_SHAPE,
                &at,
                format!("`argument` has no `{member}`"),
            ),
        }
    }
    argument.get("name").and_then(Value::as_str)
}

/// `mcpdesc.completion-example.shape` on `context` (at `at`): an object
/// whose `arguments` is a non-empty object of strings. Returns that map
/// when it is an object.
fn check_context<'a>(
    context: &'a Value,
    at: &Pointer,
    report: &mut Report,
) -> Option<&'a Map<String, Value>> {
    let rule = rule::COMPLETION_EXAMPLE_SHAPE;
    let Value::Object(context) = context else {
        report.error(rule, at, "`context` must be an object");
        return None;
    };
    for member in context
        .keys()
        .filter(|member| *member != "arguments" && !is_extension(member))
    {
        report.error(
            rule,
            &at.key(member),
            format!("no member `{member}` is defined on a completion `context`"),
        );
    }
    let Some(arguments) = context.get("arguments") else {
        report.error(
            rule,
            at,
            "`context` holds `arguments`; leave an empty context out",
        );
        return None;
    };
    let at = at.key("arguments");
    let Value::Object(arguments) = arguments else {
        report.error(rule, &at, "`arguments` must be an object of strings");
        return None;
    };
    if arguments.is_empty() {
        report.error(
            rule,
            &at,
            "`arguments` names at least one argument; leave an empty context out",
        );
    }
    for (name, _) in arguments.iter().filter(|(_, value)| !value.is_string()) {
        report.error(
            rule,
            &at.key(name),
            "a context argument's value is a string",
        );
    }
    Some(arguments)
}

/// `mcpdesc.completion-example.target`: the completed argument and every
/// context argument are among `targets`, and the completed one is not in
/// the context.
fn check_targets(
    completed: Option<&str>,
    context: Option<&Map<String, Value>>,
    targets: &[&str],
    at: &Pointer,
    report: &mut Report,
) {
    if let Some(name) = completed
        && !targets.contains(&name)
    {
        report.error(
            rule::COMPLETION_EXAMPLE_TARGET,
            &at.key("argument").key("name"),
            format!("`{name}` is not an argument of the containing declaration"),
        );
    }
    let Some(context) = context else {
        return;
    };
    let context_at = at.key("context").key("arguments");
    for name in context.keys() {
        let problem = if Some(name.as_str()) == completed {
            "the completed argument is not also in the context"
        } else if !targets.contains(&name.as_str()) {
            "a context argument is an argument of the containing declaration"
        } else {
            continue;
        };
        report.error(
            rule::COMPLETION_EXAMPLE_TARGET,
            &context_at.key(name),
            problem,
        );
    }
}

/// `mcp.completion-example.result` on a result object at `at`: a
/// `completion` object with an array of at most 100 string `values`, an
/// integer `total` and a boolean `hasMore` when they are there.
fn check_result(result: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    let rule = rule::COMPLETION_EXAMPLE_RESULT;
    let completion = match result.get("completion") {
        Some(Value::Object(completion)) => completion,
        Some(_) => {
            report.error(
                rule,
                &at.key("completion"),
                "`completion` must be an object",
            );
            return;
        }
        None => {
            report.error(rule, at, "`completion` is missing");
            return;
        }
    };
    let at = at.key("completion");
    match completion.get("values") {
        Some(Value::Array(values)) => {
            if values.len() > MOST_VALUES {
                report.error(
                    rule,
                    &at.key("values"),
                    "a completion result holds at most 100 values",
                );
            }
            for (index, _) in values
                .iter()
                .enumerate()
                .filter(|(_, value)| !value.is_string())
            {
                report.error(rule, &at.key("values").index(index), "a value is a string");
            }
        }
        Some(_) => report.error(
            rule,
            &at.key("values"),
            "`values` must be an array of strings",
        ),
        None => report.error(rule, &at, "`values` is missing"),
    }
    if let Some(total) = completion.get("total")
        && !is_count(total)
    {
        report.error(
            rule,
            &at.key("total"),
            "`total` must be a non-negative integer",
        );
    }
    if let Some(more) = completion.get("hasMore")
        && !more.is_boolean()
    {
        report.error(rule, &at.key("hasMore"), "`hasMore` must be a boolean");
    }
}

/// Whether `value` is a non-negative number with no fractional part (`3`
/// and `3.0` alike, as JSON Schema's `integer`).
fn is_count(value: &Value) -> bool {
    value
        .as_f64()
        .is_some_and(|number| number >= 0.0 && number.fract() == 0.0)
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{
        COMPLETION_EXAMPLE_PROTOCOL_VERSION as CONTEXT, COMPLETION_EXAMPLE_RESULT as RESULT,
        COMPLETION_EXAMPLE_SHAPE as SHAPE, COMPLETION_EXAMPLE_TARGET as TARGET,
    };
    use crate::tests::{E, assert_findings, assert_findings_beside_legacy, with};

    const PROMPT: &str = "/prompts/0/completionExamples/e";
    const TEMPLATE: &str = "/resourceTemplates/0/completionExamples/e";

    fn values() -> serde_json::Value {
        json!({"completion": {"values": ["a"]}})
    }

    fn prompt(example: serde_json::Value) -> serde_json::Value {
        with(
            json!({"protocolVersions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"], "prompts": [{
                "name": "p",
                "arguments": [{"name": "city"}, {"name": "country"}],
                "completionExamples": {"e": example}
            }]}),
        )
    }

    fn template(uri_template: &str, example: serde_json::Value) -> serde_json::Value {
        with(json!({"resourceTemplates": [{
            "uriTemplate": uri_template, "name": "t",
            "completionExamples": {"e": example}
        }]}))
    }

    #[test]
    fn an_example_is_closed_with_an_argument_and_a_result() {
        assert_findings(&prompt(json!({})), R2025_11_25, &[(SHAPE, PROMPT, E)]);
        assert_findings(&prompt(json!("e")), R2025_11_25, &[(SHAPE, PROMPT, E)]);
        assert_findings(
            &prompt(json!({
                "argument": {"name": 1}, "result": values(), "params": {}, "x-a": 1
            })),
            R2025_11_25,
            &[
                (SHAPE, &format!("{PROMPT}/argument"), E),
                (SHAPE, &format!("{PROMPT}/argument/name"), E),
                (SHAPE, &format!("{PROMPT}/params"), E),
            ],
        );
        assert_findings(
            &prompt(json!({"argument": "city", "result": values()})),
            R2025_11_25,
            &[(SHAPE, &format!("{PROMPT}/argument"), E)],
        );
        assert_findings(
            &prompt(json!({
                "argument": {"name": "city", "value": "P", "ref": "p", "x-a": 1},
                "context": {"arguments": {"country": "FR"}, "prompt": "p", "x-b": 2},
                "result": values()
            })),
            R2025_11_25,
            &[
                (SHAPE, &format!("{PROMPT}/argument/ref"), E),
                (SHAPE, &format!("{PROMPT}/context/prompt"), E),
            ],
        );
    }

    #[test]
    fn a_context_is_a_non_empty_map_of_strings() {
        let with_context = |context: serde_json::Value| {
            prompt(json!({
                "argument": {"name": "city", "value": "Pa"}, "context": context, "result": values()
            }))
        };
        let at = format!("{PROMPT}/context");
        for (context, expected) in [
            (json!({}), at.clone()),
            (json!([]), at.clone()),
            (json!({"arguments": {}}), format!("{at}/arguments")),
            (json!({"arguments": []}), format!("{at}/arguments")),
            (
                json!({"arguments": {"country": 1}}),
                format!("{at}/arguments/country"),
            ),
        ] {
            assert_findings(
                &with_context(context),
                R2025_11_25,
                &[(SHAPE, &expected, E)],
            );
        }
        assert_findings(
            &with_context(json!({"arguments": {"country": "FR"}})),
            R2025_11_25,
            &[],
        );
    }

    #[test]
    fn a_context_exists_from_2025_06_18() {
        let document = prompt(json!({
            "argument": {"name": "city", "value": "Pa"},
            "context": {"arguments": {"country": "FR"}}, "result": values()
        }));
        let at = format!("{PROMPT}/context");
        assert_findings(&document, R2025_06_18, &[]);
        for revision in [R2024_11_05, R2025_03_26] {
            assert_findings_beside_legacy(&document, revision, &[(CONTEXT, &at, E)]);
        }
    }

    #[test]
    fn the_target_and_context_are_other_arguments_of_the_prompt() {
        let document = prompt(json!({
            "argument": {"name": "town", "value": "Pa"},
            "context": {"arguments": {"country": "FR", "planet": "Earth"}}, "result": values()
        }));
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (TARGET, &format!("{PROMPT}/argument/name"), E),
                (TARGET, &format!("{PROMPT}/context/arguments/planet"), E),
            ],
        );
        let repeated = prompt(json!({
            "argument": {"name": "city", "value": "Pa"},
            "context": {"arguments": {"city": "Paris"}}, "result": values()
        }));
        assert_findings(
            &repeated,
            R2025_11_25,
            &[(TARGET, &format!("{PROMPT}/context/arguments/city"), E)],
        );
        let bare = with(json!({"prompts": [{
            "name": "p",
            "completionExamples": {"e": {"argument": {"name": "city", "value": ""}, "result": values()}}
        }]}));
        assert_findings(
            &bare,
            R2025_11_25,
            &[(TARGET, "/prompts/0/completionExamples/e/argument/name", E)],
        );
    }

    #[test]
    fn a_template_completes_its_variables_whatever_their_operators() {
        let example = |name: &str, context: &str| {
            json!({
                "argument": {"name": name, "value": "x"},
                "context": {"arguments": {context: "y"}}, "result": values()
            })
        };
        let uri_template = "file:///{+path}/{id:3}{?owner,repository*}";
        for (name, context) in [("path", "id"), ("owner", "repository"), ("id", "path")] {
            assert_findings(
                &template(uri_template, example(name, context)),
                R2025_11_25,
                &[],
            );
        }
        assert_findings(
            &template(uri_template, example("+path", "id:3")),
            R2025_11_25,
            &[
                (TARGET, &format!("{TEMPLATE}/argument/name"), E),
                (TARGET, &format!("{TEMPLATE}/context/arguments/id:3"), E),
            ],
        );
        // A template that does not parse names no variables anyone can
        // agree on; only the template rule reports it.
        assert_findings(
            &template("file:///{a", example("a", "b")),
            R2025_11_25,
            &[(
                crate::rule::RESOURCE_TEMPLATE_URI_TEMPLATE,
                "/resourceTemplates/0/uriTemplate",
                E,
            )],
        );
    }

    #[test]
    fn a_result_completes_with_at_most_100_string_values() {
        let with_result = |result: serde_json::Value| {
            prompt(json!({"argument": {"name": "city", "value": "P"}, "result": result}))
        };
        let at = format!("{PROMPT}/result");
        let cases = [
            (json!(1), at.clone()),
            (json!({}), at.clone()),
            (json!({"completion": []}), format!("{at}/completion")),
            (json!({"completion": {}}), format!("{at}/completion")),
            (
                json!({"completion": {"values": "a"}}),
                format!("{at}/completion/values"),
            ),
            (
                json!({"completion": {"values": ["a", 2]}}),
                format!("{at}/completion/values/1"),
            ),
            (
                json!({"completion": {"values": vec!["v"; 101]}}),
                format!("{at}/completion/values"),
            ),
            (
                json!({"completion": {"values": [], "total": 2.5}}),
                format!("{at}/completion/total"),
            ),
            (
                json!({"completion": {"values": [], "total": -1}}),
                format!("{at}/completion/total"),
            ),
            (
                json!({"completion": {"values": [], "total": "2"}}),
                format!("{at}/completion/total"),
            ),
            (
                json!({"completion": {"values": [], "hasMore": "no"}}),
                format!("{at}/completion/hasMore"),
            ),
        ];
        for (result, expected) in cases {
            assert_findings(&with_result(result), R2025_11_25, &[(RESULT, &expected, E)]);
        }
        assert_findings(
            &with_result(
                json!({"completion": {"values": vec!["v"; 100], "total": 3.0, "hasMore": true, "other": 1}}),
            ),
            R2025_11_25,
            &[],
        );
    }
}
