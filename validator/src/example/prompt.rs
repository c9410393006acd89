//! Named Prompt examples (Section 11.3): one `prompts/get` call, its
//! arguments and its completed result.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::{Place, check_completed, content, resolved};
use crate::component::Namespace;
use crate::document::Document;
use crate::pointer::Pointer;
use crate::primitive::Primitive;
use crate::report::Report;
use crate::rule;
use crate::value::is_extension;

/// The members of a Prompt Example Object besides `x-` extensions.
const MEMBERS: [&str; 2] = ["arguments", "result"];

/// The roles of a Prompt message.
const ROLES: [&str; 2] = ["user", "assistant"];

/// A Prompt's declared arguments: each string `name`, and whether it is
/// required.
pub(super) fn declared<'a>(prompt: &Primitive<'a>) -> Vec<(&'a str, bool)> {
    let Some(Value::Array(arguments)) = prompt.object.get("arguments") else {
        return Vec::new();
    };
    arguments
        .iter()
        .filter_map(Value::as_object)
        .filter_map(|argument| {
            let name = argument.get("name")?.as_str()?;
            Some((name, argument.get("required") == Some(&Value::Bool(true))))
        })
        .collect()
}

/// The Prompt example rules on the `examples` entries of `prompt`.
pub(super) fn check(
    prompt: &Primitive<'_>,
    examples: &Map<String, Value>,
    document: &Document<'_>,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let arguments = declared(prompt);
    for (place, example) in resolved(
        prompt,
        examples,
        document,
        Namespace::PromptExamples,
        (rule::PROMPT_EXAMPLE_SHAPE, "Prompt"),
        report,
    ) {
        check_members(example, &place, report);
        if let Some(given) = example.get("arguments") {
            check_arguments(given, &arguments, &place, report);
        } else {
            check_required(&Map::new(), &arguments, &place.entry, report);
        }
        match example.get("result") {
            None => {}
            Some(Value::Object(result)) => {
                check_completed(result, &place, revision, in_scope, report);
                check_result(result, &place, revision, in_scope, report);
            }
            Some(_) => report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &place.within(|entry| entry.key("result")),
                "`result` must be an object",
            ),
        }
    }
}

/// `mcpdesc.prompt-example.shape` on the members of one example: `result`
/// is present, and nothing but `arguments`, `result` and `x-` extensions
/// is.
fn check_members(example: &Map<String, Value>, place: &Place, report: &mut Report) {
    if !example.contains_key("result") {
        report.error(
            rule::PROMPT_EXAMPLE_SHAPE,
            &place.entry,
            "`result` is missing",
        );
    }
    for member in example
        .keys()
        .filter(|member| !MEMBERS.contains(&member.as_str()) && !is_extension(member))
    {
        report.error(
            rule::PROMPT_EXAMPLE_SHAPE,
            &place.within(|entry| entry.key(member)),
            format!("no member `{member}` is defined on a Prompt Example Object"),
        );
    }
}

/// `mcpdesc.prompt-example.shape` on `arguments` (an object of strings)
/// and `mcpdesc.prompt-example.arguments` on its names.
fn check_arguments(given: &Value, declared: &[(&str, bool)], place: &Place, report: &mut Report) {
    let at = place.within(|entry| entry.key("arguments"));
    let Value::Object(given) = given else {
        report.error(
            rule::PROMPT_EXAMPLE_SHAPE,
            &at,
            "`arguments` must be an object from argument names to strings",
        );
        return;
    };
    for (name, value) in given {
        let here = place.within(|_| at.key(name));
        if !value.is_string() {
            report.error(
                rule::PROMPT_EXAMPLE_SHAPE,
                &here,
                "an argument's value is a string",
            );
        }
        if !declared.iter().any(|(declared, _)| declared == name) {
            report.error(
                rule::PROMPT_EXAMPLE_ARGUMENTS,
                &here,
                format!("the Prompt declares no argument `{name}`"),
            );
        }
    }
    check_required(given, declared, &at, report);
}

/// `mcpdesc.prompt-example.arguments`: every required argument is given,
/// else reported at `at` (the `arguments` map, or the example without
/// one).
fn check_required(
    given: &Map<String, Value>,
    declared: &[(&str, bool)],
    at: &Pointer,
    report: &mut Report,
) {
    for (name, _) in declared
        .iter()
        .filter(|(name, required)| *required && !given.contains_key(*name))
    {
        report.error(
            rule::PROMPT_EXAMPLE_ARGUMENTS,
            at,
            format!("the required argument `{name}` is not given"),
        );
    }
}

/// `mcp.prompt-example.result` on a result object: an array of `messages`,
/// each with a role and a content block (`mcp.content-block`), and a
/// string `description` when there is one.
fn check_result(
    result: &Map<String, Value>,
    place: &Place,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let at = place.within(|entry| entry.key("result"));
    if let Some(description) = result.get("description")
        && !description.is_string()
    {
        report.error(
            rule::PROMPT_EXAMPLE_RESULT,
            &place.within(|_| at.key("description")),
            "`description` must be a string",
        );
    }
    let messages = match result.get("messages") {
        Some(Value::Array(messages)) => messages,
        Some(_) => {
            report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &place.within(|_| at.key("messages")),
                "`messages` must be an array",
            );
            return;
        }
        None => {
            report.error(rule::PROMPT_EXAMPLE_RESULT, &at, "`messages` is missing");
            return;
        }
    };
    for (index, message) in messages.iter().enumerate() {
        let message_at = at.key("messages").index(index);
        let here = |member: &str| place.within(|_| message_at.key(member));
        let Value::Object(message) = message else {
            report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &place.within(|_| message_at.clone()),
                "a Prompt message is an object",
            );
            continue;
        };
        for member in message
            .keys()
            .filter(|member| !matches!(member.as_str(), "role" | "content"))
        {
            report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &here(member),
                format!("no member `{member}` is defined on a Prompt message"),
            );
        }
        match message.get("role") {
            Some(Value::String(role)) if ROLES.contains(&role.as_str()) => {}
            Some(_) => report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &here("role"),
                "`role` is \"user\" or \"assistant\"",
            ),
            None => report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &place.within(|_| message_at.clone()),
                "`role` is missing",
            ),
        }
        match message.get("content") {
            Some(block) => content::check(
                block,
                content::Blocks::Content,
                place,
                &message_at.key("content"),
                revision,
                in_scope,
                report,
            ),
            None => report.error(
                rule::PROMPT_EXAMPLE_RESULT,
                &place.within(|_| message_at.clone()),
                "`content` is missing",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{
        CONTENT_BLOCK as BLOCK, EXAMPLE_RESULT_TYPE as RESULT_TYPE,
        PROMPT_EXAMPLE_ARGUMENTS as ARGUMENTS, PROMPT_EXAMPLE_RESULT as RESULT,
        PROMPT_EXAMPLE_SHAPE as SHAPE,
    };
    use crate::tests::{E, assert_findings, with};

    const AT: &str = "/prompts/0/examples/e";

    fn doc(example: serde_json::Value) -> serde_json::Value {
        with(
            json!({"protocolVersions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"], "prompts": [{
                "name": "p",
                "arguments": [{"name": "city", "required": true}, {"name": "audience"}],
                "examples": {"e": example}
            }]}),
        )
    }

    fn text(text: &str) -> serde_json::Value {
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})
    }

    #[test]
    fn an_example_is_closed_and_gives_string_arguments_the_prompt_declares() {
        let example = json!({
            "arguments": {"city": "Paris", "audience": 3, "weather": "rain"},
            "result": text("hi"), "jsonrpc": "2.0", "x-note": 1
        });
        assert_findings(
            &doc(example),
            R2025_11_25,
            &[
                (ARGUMENTS, &format!("{AT}/arguments/weather"), E),
                (SHAPE, &format!("{AT}/arguments/audience"), E),
                (SHAPE, &format!("{AT}/jsonrpc"), E),
            ],
        );
        assert_findings(
            &doc(json!({"arguments": {"audience": "ops"}, "result": text("hi")})),
            R2025_11_25,
            &[(ARGUMENTS, &format!("{AT}/arguments"), E)],
        );
        assert_findings(
            &doc(json!({"result": text("hi")})),
            R2025_11_25,
            &[(ARGUMENTS, AT, E)],
        );
        assert_findings(
            &doc(json!({"arguments": ["Paris"]})),
            R2025_11_25,
            &[(SHAPE, AT, E), (SHAPE, &format!("{AT}/arguments"), E)],
        );
        assert_findings(&doc(json!([])), R2025_11_25, &[(SHAPE, AT, E)]);
    }

    #[test]
    fn a_result_holds_messages_of_a_role_and_a_content_block() {
        let example = |result: serde_json::Value| {
            doc(json!({"arguments": {"city": "Rome"}, "result": result}))
        };
        let at = format!("{AT}/result");
        assert_findings(&example(json!({})), R2025_11_25, &[(RESULT, &at, E)]);
        assert_findings(&example(json!(7)), R2025_11_25, &[(RESULT, &at, E)]);
        assert_findings(
            &example(json!({"messages": {}, "description": 1})),
            R2025_11_25,
            &[
                (RESULT, &format!("{at}/description"), E),
                (RESULT, &format!("{at}/messages"), E),
            ],
        );
        assert_findings(
            &example(json!({"messages": [
                1,
                {"content": {"type": "text", "text": "a"}},
                {"role": "system", "content": {"type": "text", "text": "a"}},
                {"role": "user"},
                {"role": "user", "content": {"type": "text", "text": "a"}, "name": "n"}
            ]})),
            R2025_11_25,
            &[
                (RESULT, &format!("{at}/messages/4/name"), E),
                (RESULT, &format!("{at}/messages/0"), E),
                (RESULT, &format!("{at}/messages/1"), E),
                (RESULT, &format!("{at}/messages/2/role"), E),
                (RESULT, &format!("{at}/messages/3"), E),
            ],
        );
    }

    #[test]
    fn content_blocks_have_their_members_and_types_by_revision() {
        let blocks = json!([
            {"type": "text"},
            {"type": "image", "data": "QQ=", "mimeType": "image/png"},
            {"type": "audio", "data": "QQ==", "mimeType": 1},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "a", "blob": "QQ=="}},
            {"type": "resource", "resource": {"uri": 1, "blob": "%%"}},
            {"type": "video"},
            {"text": "a"},
            {"type": "resource"},
            "text",
            {"type": "text", "text": "a", "annotations": {}, "_meta": {}, "data": "QQ=="},
            {"type": "resource_link", "uri": "not a uri", "name": "a"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "a", "size": 1}}
        ]);
        let messages: Vec<_> = blocks
            .as_array()
            .unwrap()
            .iter()
            .map(|block| json!({"role": "assistant", "content": block}))
            .collect();
        let document =
            doc(json!({"arguments": {"city": "Oslo"}, "result": {"messages": messages}}));
        let at = |index: usize, rest: &str| format!("{AT}/result/messages/{index}/content{rest}");
        let always = [
            (BLOCK, at(0, ""), E),
            (BLOCK, at(1, "/data"), E),
            (BLOCK, at(2, "/mimeType"), E),
            (BLOCK, at(4, "/resource"), E),
            (BLOCK, at(5, "/resource/blob"), E),
            (BLOCK, at(5, "/resource/uri"), E),
            (BLOCK, at(6, "/type"), E),
            (BLOCK, at(7, ""), E),
            (BLOCK, at(8, ""), E),
            (BLOCK, at(9, ""), E),
            (BLOCK, at(10, "/data"), E),
            (BLOCK, at(11, "/uri"), E),
            (BLOCK, at(12, "/resource/size"), E),
        ];
        let expected = |extra: &[(&'static str, String, _)]| {
            let mut all: Vec<_> = always.iter().chain(extra).cloned().collect();
            all.sort();
            all
        };
        let as_refs = |list: &[(&'static str, String, mcpdesc_protocol::Severity)]| {
            list.iter()
                .map(|(r, p, s)| (*r, p.clone(), *s))
                .collect::<Vec<_>>()
        };
        let check = |revision, extra: &[(&'static str, String, mcpdesc_protocol::Severity)]| {
            let owned = as_refs(&expected(extra));
            let borrowed: Vec<_> = owned.iter().map(|(r, p, s)| (*r, p.as_str(), *s)).collect();
            crate::tests::assert_findings_beside_legacy(&document, revision, &borrowed);
        };
        // A block's `_meta` comes with 2025-06-18.
        let meta = (crate::rule::META_PROTOCOL_VERSION, at(10, "/_meta"), E);
        check(R2025_06_18, &[]);
        check(
            R2025_03_26,
            &[
                (BLOCK, at(3, "/type"), E),
                (BLOCK, at(11, "/type"), E),
                meta.clone(),
            ],
        );
        check(
            R2024_11_05,
            &[
                (BLOCK, at(2, "/type"), E),
                (BLOCK, at(3, "/type"), E),
                (BLOCK, at(11, "/type"), E),
                meta,
            ],
        );
    }

    #[test]
    fn a_referenced_example_is_judged_where_it_is_used() {
        let document = crate::tests::merge(
            doc(json!({"$componentRef": "#/components/promptExamples/shared"})),
            json!({"components": {"promptExamples": {"shared": {
                "arguments": {"town": "Paris"},
                "result": {"messages": [{"role": "bot", "content": {"type": "text", "text": "a"}}], "resultType": "complete"}
            }}}}),
        );
        assert_findings(
            &document,
            R2025_11_25,
            &[(ARGUMENTS, AT, E), (RESULT, AT, E), (RESULT_TYPE, AT, E)],
        );
    }
}
