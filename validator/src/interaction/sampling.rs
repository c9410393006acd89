//! `mcp.interaction.sampling-step` (Section 9.4): a sampling step's
//! request holds the native `sampling/createMessage` parameters, and its
//! response the native completed result, of every revision the Tool
//! applies to; their content blocks are `mcp.content-block`'s.
//!
//! The members and their types follow the MCP schema of each revision and
//! the published 0.8.0 schema, which closes both objects.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::example::{Blocks, Place, check_content_block};
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;

/// The members of a request.
const REQUEST_MEMBERS: [&str; 10] = [
    "messages",
    "modelPreferences",
    "systemPrompt",
    "includeContext",
    "temperature",
    "maxTokens",
    "stopSequences",
    "metadata",
    "tools",
    "toolChoice",
];

/// The members of a response.
const RESPONSE_MEMBERS: [&str; 4] = ["role", "content", "model", "stopReason"];

/// The members of model preferences; the three priorities range from 0 to 1.
const PRIORITIES: [&str; 3] = ["costPriority", "speedPriority", "intelligencePriority"];

/// The members of a tool offered to the model.
const TOOL_MEMBERS: [&str; 5] = ["name", "title", "description", "inputSchema", "annotations"];

/// The values of `includeContext`, and of `toolChoice.mode`.
const CONTEXTS: [&str; 3] = ["none", "thisServer", "allServers"];
const TOOL_CHOICES: [&str; 3] = ["auto", "required", "none"];

/// The first revision whose sampling offers the model tools and lets a
/// message hold several content blocks.
const TOOLS: Revision = Revision::of("2025-11-25");

/// How one step is judged: under which revision, and whether its Tool
/// applies to it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Judged {
    pub(super) revision: Revision,
    pub(super) in_scope: bool,
}

/// The rule on a sampling step's `request` and `response`, each when it is
/// an object, at `<step>/request` and `<step>/response`.
pub(super) fn check(
    request: Option<&Map<String, Value>>,
    response: Option<&Map<String, Value>>,
    at: &Pointer,
    judged: Judged,
    report: &mut Report,
) {
    if let Some(request) = request {
        check_request(request, &at.key("request"), judged, report);
    }
    if let Some(response) = response {
        check_response(response, &at.key("response"), judged, report);
    }
}

fn error(report: &mut Report, at: &Pointer, message: impl Into<String>) {
    report.error(rule::INTERACTION_SAMPLING_STEP, at, message);
}

/// The members no object of `allowed` defines, each reported.
fn closed(
    object: &Map<String, Value>,
    allowed: &[&str],
    what: &str,
    at: &Pointer,
    report: &mut Report,
) {
    for member in object
        .keys()
        .filter(|member| !allowed.contains(&member.as_str()))
    {
        error(
            report,
            &at.key(member),
            format!("no member `{member}` is defined on {what}"),
        );
    }
}

fn check_request(request: &Map<String, Value>, at: &Pointer, judged: Judged, report: &mut Report) {
    closed(request, &REQUEST_MEMBERS, "sampling parameters", at, report);
    match request.get("messages") {
        None => error(report, at, "`messages` is missing"),
        Some(Value::Array(messages)) if !messages.is_empty() => {
            for (index, message) in messages.iter().enumerate() {
                check_message(message, &at.key("messages").index(index), judged, report);
            }
        }
        Some(_) => error(
            report,
            &at.key("messages"),
            "`messages` is a non-empty array",
        ),
    }
    match request.get("maxTokens") {
        None => error(report, at, "`maxTokens` is missing"),
        Some(Value::Number(tokens)) if tokens.as_u64().is_some_and(|tokens| tokens >= 1) => {}
        Some(_) => error(
            report,
            &at.key("maxTokens"),
            "`maxTokens` is a positive integer",
        ),
    }
    for member in ["systemPrompt"] {
        if request.get(member).is_some_and(|value| !value.is_string()) {
            error(
                report,
                &at.key(member),
                format!("`{member}` must be a string"),
            );
        }
    }
    if request
        .get("temperature")
        .is_some_and(|value| !value.is_number())
    {
        error(
            report,
            &at.key("temperature"),
            "`temperature` must be a number",
        );
    }
    if request
        .get("metadata")
        .is_some_and(|value| !value.is_object())
    {
        error(report, &at.key("metadata"), "`metadata` must be an object");
    }
    if let Some(context) = request.get("includeContext")
        && !context
            .as_str()
            .is_some_and(|context| CONTEXTS.contains(&context))
    {
        error(
            report,
            &at.key("includeContext"),
            "`includeContext` is \"none\", \"thisServer\" or \"allServers\"",
        );
    }
    if let Some(stops) = request.get("stopSequences")
        && !stops
            .as_array()
            .is_some_and(|stops| stops.iter().all(Value::is_string))
    {
        error(
            report,
            &at.key("stopSequences"),
            "`stopSequences` is an array of strings",
        );
    }
    if let Some(preferences) = request.get("modelPreferences") {
        check_preferences(preferences, &at.key("modelPreferences"), report);
    }
    for member in ["tools", "toolChoice"] {
        if judged.in_scope && judged.revision < TOOLS && request.contains_key(member) {
            error(
                report,
                &at.key(member),
                format!("MCP {} defines no `{member}` in sampling", judged.revision),
            );
        }
    }
    if let Some(tools) = request.get("tools") {
        check_tools(tools, &at.key("tools"), report);
    }
    if let Some(choice) = request.get("toolChoice") {
        let at = at.key("toolChoice");
        match choice {
            Value::Object(choice) => {
                closed(choice, &["mode"], "a tool choice", &at, report);
                match choice.get("mode") {
                    Some(Value::String(mode)) if TOOL_CHOICES.contains(&mode.as_str()) => {}
                    Some(_) => error(
                        report,
                        &at.key("mode"),
                        "`mode` is \"auto\", \"required\" or \"none\"",
                    ),
                    None => error(report, &at, "`mode` is missing"),
                }
            }
            _ => error(report, &at, "`toolChoice` must be an object"),
        }
    }
}

/// `modelPreferences`: an object of `hints` (a non-empty array of objects
/// with a non-empty string `name`) and three priorities from 0 to 1.
fn check_preferences(preferences: &Value, at: &Pointer, report: &mut Report) {
    let Value::Object(preferences) = preferences else {
        error(report, at, "`modelPreferences` must be an object");
        return;
    };
    let mut allowed = vec!["hints"];
    allowed.extend(PRIORITIES);
    closed(preferences, &allowed, "model preferences", at, report);
    for priority in PRIORITIES {
        if let Some(value) = preferences.get(priority)
            && !value
                .as_f64()
                .is_some_and(|value| (0.0..=1.0).contains(&value))
        {
            error(
                report,
                &at.key(priority),
                format!("`{priority}` is a number from 0 to 1"),
            );
        }
    }
    let Some(hints) = preferences.get("hints") else {
        return;
    };
    let at = at.key("hints");
    let Some(hints) = hints.as_array().filter(|hints| !hints.is_empty()) else {
        error(report, &at, "`hints` is a non-empty array");
        return;
    };
    for (index, hint) in hints.iter().enumerate() {
        let at = at.index(index);
        let Value::Object(hint) = hint else {
            error(report, &at, "a hint is an object");
            continue;
        };
        closed(hint, &["name"], "a model hint", &at, report);
        let named = hint.get("name").and_then(Value::as_str).unwrap_or_default();
        if named.is_empty() {
            error(report, &at, "a hint has a non-empty string `name`");
        }
    }
}

/// `tools`: a non-empty array of objects, each with a string `name` and an
/// object `inputSchema`.
fn check_tools(tools: &Value, at: &Pointer, report: &mut Report) {
    let Some(tools) = tools.as_array().filter(|tools| !tools.is_empty()) else {
        error(report, at, "`tools` is a non-empty array");
        return;
    };
    for (index, tool) in tools.iter().enumerate() {
        let at = at.index(index);
        let Value::Object(tool) = tool else {
            error(report, &at, "a tool is an object");
            continue;
        };
        closed(tool, &TOOL_MEMBERS, "a sampling tool", &at, report);
        if !tool.get("name").is_some_and(Value::is_string)
            || !tool.get("inputSchema").is_some_and(Value::is_object)
        {
            error(
                report,
                &at,
                "a tool has a string `name` and an object `inputSchema`",
            );
        }
    }
}

/// One message: a `role` of "user" or "assistant" and a `content`.
fn check_message(message: &Value, at: &Pointer, judged: Judged, report: &mut Report) {
    let Value::Object(message) = message else {
        error(report, at, "a message is an object");
        return;
    };
    closed(
        message,
        &["role", "content"],
        "a sampling message",
        at,
        report,
    );
    match message.get("role") {
        None => error(report, at, "`role` is missing"),
        Some(Value::String(role)) if role == "user" || role == "assistant" => {}
        Some(_) => error(
            report,
            &at.key("role"),
            "`role` is \"user\" or \"assistant\"",
        ),
    }
    check_content(message.get("content"), at, judged, report);
}

/// The completed result: the assistant's `content`, the `model` and a
/// string `stopReason` when there is one.
fn check_response(
    response: &Map<String, Value>,
    at: &Pointer,
    judged: Judged,
    report: &mut Report,
) {
    closed(response, &RESPONSE_MEMBERS, "a sampling result", at, report);
    match response.get("role") {
        None => error(report, at, "`role` is missing"),
        Some(Value::String(role)) if role == "assistant" => {}
        Some(_) => error(
            report,
            &at.key("role"),
            "a sampling result's `role` is \"assistant\"",
        ),
    }
    match response.get("model") {
        None => error(report, at, "`model` is missing"),
        Some(Value::String(_)) => {}
        Some(_) => error(report, &at.key("model"), "`model` must be a string"),
    }
    if response
        .get("stopReason")
        .is_some_and(|value| !value.is_string())
    {
        error(
            report,
            &at.key("stopReason"),
            "`stopReason` must be a string",
        );
    }
    check_content(response.get("content"), at, judged, report);
}

/// A message's or result's `content` at `<at>/content`: one content block,
/// or from 2025-11-25 a non-empty array of them.
fn check_content(content: Option<&Value>, at: &Pointer, judged: Judged, report: &mut Report) {
    let place = Place {
        entry: at.clone(),
        referenced: false,
    };
    let content_at = at.key("content");
    let block = |block: &Value, block_at: &Pointer, report: &mut Report| {
        check_content_block(
            block,
            Blocks::Sampling,
            &place,
            block_at,
            judged.revision,
            judged.in_scope,
            report,
        );
    };
    match content {
        None => error(report, at, "`content` is missing"),
        Some(Value::Array(blocks)) if !blocks.is_empty() => {
            if judged.in_scope && judged.revision < TOOLS {
                error(
                    report,
                    &content_at,
                    format!(
                        "under MCP {} `content` is one content block",
                        judged.revision
                    ),
                );
            }
            for (index, inner) in blocks.iter().enumerate() {
                block(inner, &content_at.index(index), report);
            }
        }
        Some(Value::Array(_)) => error(
            report,
            &content_at,
            "`content` is a content block or a non-empty array of them",
        ),
        Some(single) => block(single, &content_at, report),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{CONTENT_BLOCK as BLOCK, INTERACTION_SAMPLING_STEP as SAMPLING};
    use crate::tests::{E, assert_findings, assert_findings_beside_legacy, with};

    const STEP: &str = "/tools/0/interactionExamples/s/steps/0";

    fn doc(scope: &[&str], request: Value, response: Value) -> Value {
        with(json!({
            "protocolVersions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
            "tools": [{
                "name": "t", "protocolVersions": scope, "inputSchema": {"type": "object"},
                "interactionExamples": {"s": {"input": {}, "result": {"content": []},
                    "steps": [{"type": "sampling", "request": request, "response": response}]}}
            }]
        }))
    }

    fn text() -> Value {
        json!({"type": "text", "text": "t"})
    }

    fn answer() -> Value {
        json!({"role": "assistant", "content": text(), "model": "m", "stopReason": "endTurn"})
    }

    fn at(path: &str) -> String {
        format!("{STEP}/{path}")
    }

    #[test]
    fn requests_hold_the_native_parameters() {
        let request = json!({
            "messages": [{"role": "system", "content": text(), "name": "n"}, 3],
            "maxTokens": 0,
            "modelPreferences": {"hints": [{"name": ""}], "costPriority": 2, "speed": 1},
            "systemPrompt": 1, "includeContext": "everything", "temperature": "hot",
            "stopSequences": ["a", 1], "metadata": [], "sessionId": "x"
        });
        let expected: Vec<String> = [
            "request/maxTokens",
            "request/messages/0/name",
            "request/messages/0/role",
            "request/messages/1",
            "request/metadata",
            "request/modelPreferences/costPriority",
            "request/modelPreferences/hints/0",
            "request/modelPreferences/speed",
            "request/includeContext",
            "request/sessionId",
            "request/stopSequences",
            "request/systemPrompt",
            "request/temperature",
        ]
        .map(at)
        .to_vec();
        let expected: Vec<_> = expected
            .iter()
            .map(|path| (SAMPLING, path.as_str(), E))
            .collect();
        assert_findings(
            &doc(&["2025-11-25"], request, answer()),
            R2025_11_25,
            &expected,
        );
        assert_findings(
            &doc(
                &["2025-11-25"],
                json!({}),
                json!({"role": "user", "content": text(), "extra": 1}),
            ),
            R2025_11_25,
            &[
                (SAMPLING, &at("request"), E),
                (SAMPLING, &at("response"), E),
                (SAMPLING, &at("response/extra"), E),
                (SAMPLING, &at("response/role"), E),
            ],
        );
    }

    #[test]
    fn tools_and_block_lists_come_with_2025_11_25() {
        let request = json!({
            "messages": [{"role": "user", "content": [text(), {"type": "tool_result", "toolUseId": "u1", "content": text()}]}],
            "maxTokens": 10,
            "tools": [{"name": "lookup", "inputSchema": {"type": "object"}}],
            "toolChoice": {"mode": "auto"}
        });
        let response = json!({"role": "assistant", "model": "m",
            "content": [{"type": "tool_use", "id": "u2", "name": "lookup", "input": {}}]});
        let document = doc(&["2025-06-18", "2025-11-25"], request, response);
        assert_findings(&document, R2025_11_25, &[]);
        assert_findings(
            &document,
            R2025_06_18,
            &[
                (BLOCK, &at("request/messages/0/content/1/type"), E),
                (BLOCK, &at("response/content/0/type"), E),
                (SAMPLING, &at("request/messages/0/content"), E),
                (SAMPLING, &at("request/toolChoice"), E),
                (SAMPLING, &at("request/tools"), E),
                (SAMPLING, &at("response/content"), E),
            ],
        );
    }

    #[test]
    fn sampled_blocks_are_the_sampling_family() {
        let request = json!({"messages": [{"role": "user", "content": {"type": "resource_link", "uri": "file:///a", "name": "a"}}], "maxTokens": 1});
        let response = json!({"role": "assistant", "model": "m", "content": {"type": "tool_use", "id": 1, "name": "x", "input": []}});
        assert_findings_beside_legacy(
            &doc(&["2024-11-05"], request, response),
            R2024_11_05,
            &[
                (BLOCK, &at("request/messages/0/content/type"), E),
                (BLOCK, &at("response/content/id"), E),
                (BLOCK, &at("response/content/input"), E),
                (BLOCK, &at("response/content/type"), E),
            ],
        );
    }
}
