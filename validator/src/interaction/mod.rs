//! Tool interaction examples (Section 9.4): named scenarios of one Tool
//! invocation with the client-input steps it shows.
//!
//! Rules: `mcpdesc.interaction.shape` (the map, each scenario, each step and
//! the elicitation and roots payloads), `mcpdesc.interaction.name`,
//! `mcpdesc.interaction.response` (an elicitation response agrees with its
//! request's mode and its action), `mcpdesc.interaction.declaration` (a
//! step naming a declaration of its Tool agrees with it) and the warning
//! `mcpdesc.interaction.client-requirements` (a step needs a capability the
//! Tool's explicit requirements leave out, in `requirements`);
//! `mcpdesc.value.uri` on a URL-mode request's `url` and on each root's
//! `uri`; and `mcp.interaction.sampling-step` (`sampling`), whose
//! revision-dependent members are judged under the revisions of the Tool's
//! scope. The others do not depend on the MCP revision: what a revision
//! lets an elicitation step carry is `mcp.elicitation.protocol-version`'s.

mod requirements;
mod sampling;

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use self::sampling::Judged;
use crate::component::Namespace;
use crate::document::Document;
use crate::elicitation::Mode;
use crate::icon::check_uri;
use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive};
use crate::report::Report;
use crate::rule;
use crate::tool::accepts;
use crate::value::{is_extension, is_local_name, is_uri, same};

/// The Tool member that holds the scenarios.
const MEMBER: &str = "interactionExamples";

/// The members of a scenario, all required, besides `x-` extensions.
const SCENARIO_MEMBERS: [&str; 3] = ["input", "steps", "result"];

/// The members every step must have.
const STEP_REQUIRED: [&str; 3] = ["type", "request", "response"];

/// The three kinds of step of Section 9.4's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StepKind {
    Elicitation,
    Sampling,
    Roots,
}

impl StepKind {
    /// The kind a `type` value names, compared exactly.
    fn named(name: &str) -> Option<Self> {
        match name {
            "elicitation" => Some(StepKind::Elicitation),
            "sampling" => Some(StepKind::Sampling),
            "roots" => Some(StepKind::Roots),
            _ => None,
        }
    }

    /// Every member a step of this kind may have besides `x-` extensions.
    fn members(self) -> &'static [&'static str] {
        match self {
            StepKind::Elicitation => &["type", "declaration", "request", "response"],
            StepKind::Sampling | StepKind::Roots => &STEP_REQUIRED,
        }
    }

    /// Its `type` value.
    fn name(self) -> &'static str {
        match self {
            StepKind::Elicitation => "elicitation",
            StepKind::Sampling => "sampling",
            StepKind::Roots => "roots",
        }
    }
}

/// Runs the interaction rules on every Tool of `document` under
/// `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for tool in &document.primitives {
        if tool.kind != Kind::Tool {
            continue;
        }
        let Some(scenarios) = tool.object.get(MEMBER) else {
            continue;
        };
        let at = tool.pointer.key(MEMBER);
        let scenarios = match scenarios {
            Value::Object(scenarios) if !scenarios.is_empty() => scenarios,
            Value::Object(_) => {
                report.error(
                    rule::INTERACTION_SHAPE,
                    &at,
                    "`interactionExamples` must name at least one scenario; leave it out when there is none",
                );
                continue;
            }
            _ => {
                report.error(
                    rule::INTERACTION_SHAPE,
                    &at,
                    "`interactionExamples` must be an object from scenario names to scenarios",
                );
                continue;
            }
        };
        for (name, scenario) in scenarios {
            let at = at.key(name);
            if !is_local_name(name) {
                report.error(
                    rule::INTERACTION_NAME,
                    &at,
                    "a scenario name holds only ASCII letters, digits, `.`, `_` and `-`",
                );
            }
            let judged = Judged {
                revision,
                in_scope: tool.scope.includes(revision),
            };
            check_scenario(document, tool, scenario, &at, judged, report);
        }
    }
}

/// One scenario: an object with an object `input`, a non-empty `steps`
/// array and an object `result`, and nothing else but `x-` extensions.
fn check_scenario(
    document: &Document<'_>,
    tool: &Primitive<'_>,
    scenario: &Value,
    at: &Pointer,
    judged: Judged,
    report: &mut Report,
) {
    let Value::Object(scenario) = scenario else {
        report.error(rule::INTERACTION_SHAPE, at, "a scenario must be an object");
        return;
    };
    require(scenario, &SCENARIO_MEMBERS, at, report);
    for (member, value) in scenario {
        let at = at.key(member);
        match member.as_str() {
            "input" | "result" => expect_object(value, member, &at, report),
            "steps" => match value {
                Value::Array(steps) if !steps.is_empty() => {
                    for (index, step) in steps.iter().enumerate() {
                        check_step(document, tool, step, &at.index(index), judged, report);
                    }
                }
                Value::Array(_) => report.error(
                    rule::INTERACTION_SHAPE,
                    &at,
                    "`steps` must hold at least one step",
                ),
                _ => report.error(rule::INTERACTION_SHAPE, &at, "`steps` must be an array"),
            },
            other if is_extension(other) => {}
            other => report.error(
                rule::INTERACTION_SHAPE,
                &at,
                format!("a scenario has no member `{other}`"),
            ),
        }
    }
}

/// One step: `type`, `request` and `response`, with the members of its
/// kind. A step whose `type` is missing or names no kind is judged no
/// further than its required members and their types: which other members
/// it may hold depends on the kind.
fn check_step(
    document: &Document<'_>,
    tool: &Primitive<'_>,
    step: &Value,
    at: &Pointer,
    judged: Judged,
    report: &mut Report,
) {
    let Value::Object(step) = step else {
        report.error(rule::INTERACTION_SHAPE, at, "a step must be an object");
        return;
    };
    require(step, &STEP_REQUIRED, at, report);
    for member in ["request", "response"] {
        if let Some(value) = step.get(member) {
            expect_object(value, member, &at.key(member), report);
        }
    }
    let kind = match step.get("type") {
        None => None,
        Some(Value::String(name)) => StepKind::named(name),
        Some(_) => None,
    };
    let Some(kind) = kind else {
        if step.contains_key("type") {
            report.error(
                rule::INTERACTION_SHAPE,
                &at.key("type"),
                "`type` must be `elicitation`, `sampling` or `roots`",
            );
        }
        return;
    };
    for member in step.keys() {
        if !is_extension(member) && !kind.members().contains(&member.as_str()) {
            report.error(
                rule::INTERACTION_SHAPE,
                &at.key(member),
                format!("a {} step has no member `{member}`", kind.name()),
            );
        }
    }
    let request = step.get("request").and_then(Value::as_object);
    let response = step.get("response").and_then(Value::as_object);
    requirements::check(tool, kind, request, at, report);
    match kind {
        StepKind::Elicitation => {
            let mode = request.map(|request| check_elicitation_request(request, at, report));
            if let Some(response) = response {
                let schema = request
                    .and_then(|request| request.get("requestedSchema"))
                    .and_then(Value::as_object);
                check_elicitation_response(response, mode, schema, &at.key("response"), report);
            }
            check_declaration(document, tool, step, request, at, report);
        }
        StepKind::Roots => {
            if let Some(request) = request {
                for member in request.keys() {
                    report.error(
                        rule::INTERACTION_SHAPE,
                        &at.key("request").key(member),
                        "a roots step's request is an empty object",
                    );
                }
            }
            if let Some(response) = response {
                check_roots(response, &at.key("response"), report);
            }
        }
        StepKind::Sampling => sampling::check(request, response, at, judged, report),
    }
}

/// An elicitation step's request: the canonical fields of its explicit
/// mode. Returns the mode, [`Mode::Invalid`] when it is missing or unknown.
fn check_elicitation_request(
    request: &Map<String, Value>,
    at: &Pointer,
    report: &mut Report,
) -> Mode {
    let at = at.key("request");
    let mode = Mode::of(request.get("mode"));
    let members: &[&str] = match mode {
        Mode::Form => &["mode", "message", "requestedSchema"],
        Mode::Url => &["mode", "message", "url"],
        Mode::Invalid => {
            if request.contains_key("mode") {
                report.error(
                    rule::INTERACTION_SHAPE,
                    &at.key("mode"),
                    "`mode` must be `form` or `url`",
                );
            } else {
                report.error(
                    rule::INTERACTION_SHAPE,
                    &at,
                    "`mode` is missing: a step's request states its mode, as a declaration does",
                );
            }
            return mode;
        }
    };
    require(request, members, &at, report);
    for (member, value) in request {
        let at = at.key(member);
        match member.as_str() {
            "mode" => {}
            "message" => {
                if value.as_str().is_none_or(str::is_empty) {
                    report.error(
                        rule::INTERACTION_SHAPE,
                        &at,
                        "`message` must be a non-empty string",
                    );
                }
            }
            "requestedSchema" if mode == Mode::Form => {
                expect_object(value, member, &at, report);
            }
            "url" if mode == Mode::Url => match value {
                Value::String(_) => check_uri(Some(value), &at, report),
                _ => report.error(rule::INTERACTION_SHAPE, &at, "`url` must be a string"),
            },
            other => report.error(
                rule::INTERACTION_SHAPE,
                &at,
                format!("a {} request has no member `{other}`", mode_name(mode)),
            ),
        }
    }
    mode
}

/// An elicitation step's response: an `action`, an object `content` when
/// present, nothing else; and `mcpdesc.interaction.response` on whether
/// `content` belongs there, once mode and action are known. A `content`
/// that may not be there at all is that rule's finding alone, whatever its
/// value, as a member a mode forbids is in a declaration. An accepted
/// form's `content` is also one the request's `schema` accepts, when the
/// schema can be evaluated in full.
fn check_elicitation_response(
    response: &Map<String, Value>,
    mode: Option<Mode>,
    schema: Option<&Map<String, Value>>,
    at: &Pointer,
    report: &mut Report,
) {
    let action = match response.get("action") {
        None => {
            report.error(rule::INTERACTION_SHAPE, at, "`action` is missing");
            None
        }
        Some(Value::String(text)) if matches!(text.as_str(), "accept" | "decline" | "cancel") => {
            Some(text.as_str())
        }
        Some(_) => {
            report.error(
                rule::INTERACTION_SHAPE,
                &at.key("action"),
                "`action` must be `accept`, `decline` or `cancel`",
            );
            None
        }
    };
    let judged = mode.zip(action);
    let content_allowed = match judged {
        Some((Mode::Form, "accept")) | None | Some((Mode::Invalid, _)) => true,
        Some(_) => false,
    };
    for (member, value) in response {
        match member.as_str() {
            "action" => {}
            "content" if !content_allowed => report.error(
                rule::INTERACTION_RESPONSE,
                &at.key(member),
                match judged {
                    Some((Mode::Url, _)) => "a URL-mode response has no `content`: the user's input goes to the URL, not the client".to_owned(),
                    _ => format!("a response with action `{}` has no `content`", action.unwrap_or_default()),
                },
            ),
            "content" if !value.is_object() => report.error(
                rule::INTERACTION_SHAPE,
                &at.key(member),
                "`content` must be an object",
            ),
            "content" => {
                if let Some(schema) = schema
                    && judged == Some((Mode::Form, "accept"))
                    && accepts(schema, value) == Some(false)
                {
                    report.error(
                        rule::INTERACTION_RESPONSE,
                        &at.key(member),
                        "the request's `requestedSchema` does not accept this `content`",
                    );
                }
            }
            other => report.error(
                rule::INTERACTION_SHAPE,
                &at.key(other),
                format!("an elicitation response has no member `{other}`"),
            ),
        }
    }
    if judged == Some((Mode::Form, "accept")) && !response.contains_key("content") {
        report.error(
            rule::INTERACTION_RESPONSE,
            at,
            "an accepted form response holds the `content` the user entered",
        );
    }
}

/// A roots step's response: a `roots` array and nothing else, of roots
/// that each hold a `file://` URI `uri` and perhaps a string `name`, and
/// nothing else: the members the published 0.8.0 schema gives the
/// semantic roots result (no `_meta`, as on every step payload).
fn check_roots(response: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    report_unknown(response, &["roots"], at, report);
    let Some(roots) = response.get("roots") else {
        report.error(rule::INTERACTION_SHAPE, at, "`roots` is missing");
        return;
    };
    let at = at.key("roots");
    let Value::Array(roots) = roots else {
        report.error(rule::INTERACTION_SHAPE, &at, "`roots` must be an array");
        return;
    };
    for (index, root) in roots.iter().enumerate() {
        let at = at.index(index);
        let Value::Object(root) = root else {
            report.error(rule::INTERACTION_SHAPE, &at, "a root must be an object");
            continue;
        };
        report_unknown(root, &["uri", "name"], &at, report);
        match root.get("uri") {
            None => report.error(rule::INTERACTION_SHAPE, &at, "`uri` is missing"),
            Some(Value::String(uri)) if is_uri(uri) && !has_file_scheme(uri) => report.error(
                rule::INTERACTION_SHAPE,
                &at.key("uri"),
                "a root's `uri` starts with `file://`, as MCP requires",
            ),
            Some(uri @ Value::String(_)) => check_uri(Some(uri), &at.key("uri"), report),
            Some(_) => report.error(
                rule::INTERACTION_SHAPE,
                &at.key("uri"),
                "`uri` must be a string",
            ),
        }
        if let Some(name) = root.get("name")
            && !name.is_string()
        {
            report.error(
                rule::INTERACTION_SHAPE,
                &at.key("name"),
                "`name` must be a string",
            );
        }
    }
}

/// The scheme every root's URI has (MCP's `Root`: "for now").
const FILE_SCHEME: &str = "file://";

/// Whether `uri` starts with `file://`, the scheme compared without case
/// as RFC 3986 compares schemes.
fn has_file_scheme(uri: &str) -> bool {
    uri.get(..FILE_SCHEME.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(FILE_SCHEME))
}

/// Each member of `object` outside `members`, at that member.
fn report_unknown(
    object: &Map<String, Value>,
    members: &[&str],
    at: &Pointer,
    report: &mut Report,
) {
    for member in object
        .keys()
        .filter(|member| !members.contains(&member.as_str()))
    {
        report.error(
            rule::INTERACTION_SHAPE,
            &at.key(member),
            format!("no member `{member}` is defined here"),
        );
    }
}

/// `mcpdesc.interaction.declaration`: a step's `declaration` names an
/// Elicitation Declaration of the same Tool, and the request agrees with
/// it: the same mode and, after local references are resolved, the same
/// form schema (the declaration's resolved through its Reference Object),
/// or the declaration's URL when it gives one. "Compatible" (Section 9.4)
/// is read as equal as JSON values: the text gives no other measure.
fn check_declaration(
    document: &Document<'_>,
    tool: &Primitive<'_>,
    step: &Map<String, Value>,
    request: Option<&Map<String, Value>>,
    at: &Pointer,
    report: &mut Report,
) {
    let Some(named) = step.get("declaration") else {
        return;
    };
    let at_declaration = at.key("declaration");
    let Value::String(name) = named else {
        report.error(
            rule::INTERACTION_SHAPE,
            &at_declaration,
            "`declaration` must be a string, the name of a declaration of this Tool",
        );
        return;
    };
    let declaration = tool
        .object
        .get("elicitations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .find(|declaration| declaration.get("name").and_then(Value::as_str) == Some(name));
    let Some(declaration) = declaration else {
        report.error(
            rule::INTERACTION_DECLARATION,
            &at_declaration,
            format!("this Tool declares no elicitation named `{name}`"),
        );
        return;
    };
    let Some(request) = request else {
        return;
    };
    let at = at.key("request");
    let declared = Mode::of(declaration.get("mode"));
    let shown = Mode::of(request.get("mode"));
    if declared == Mode::Invalid || shown == Mode::Invalid {
        return;
    }
    if declared != shown {
        report.error(
            rule::INTERACTION_DECLARATION,
            &at.key("mode"),
            format!(
                "the declaration `{name}` is in {} mode",
                mode_name(declared)
            ),
        );
        return;
    }
    let (member, what) = match shown {
        Mode::Form => ("requestedSchema", "form schema"),
        _ => ("url", "URL"),
    };
    let (Some(declared_value), Some(shown_value)) = (declaration.get(member), request.get(member))
    else {
        return;
    };
    // A declaration's `requestedSchema` may be a Reference Object; a
    // step's is never one (Section 17.3 lists the places), so only the
    // declared side is resolved.
    let resolved = if shown == Mode::Form {
        document
            .components
            .resolve(declared_value, Namespace::Schemas)
            .map(|declared_value| (declared_value, shown_value))
    } else {
        Some((declared_value, shown_value))
    };
    // Only values of the member's type are compared: a schema that is not
    // an object, or a URL that is not a string, is the shape rules' finding.
    let comparable = |value: &Value| match shown {
        Mode::Form => value.is_object(),
        _ => value.is_string(),
    };
    if let Some((declared_value, shown_value)) = resolved
        && comparable(declared_value)
        && comparable(shown_value)
        && !same(declared_value, shown_value)
    {
        report.error(
            rule::INTERACTION_DECLARATION,
            &at.key(member),
            format!("this {what} differs from the one the declaration `{name}` gives"),
        );
    }
}

/// Reports each of `members` that `object` lacks, at the object.
fn require(object: &Map<String, Value>, members: &[&str], at: &Pointer, report: &mut Report) {
    for member in members {
        if !object.contains_key(*member) {
            report.error(
                rule::INTERACTION_SHAPE,
                at,
                format!("`{member}` is missing"),
            );
        }
    }
}

/// Reports `value`, the member `member` at `at`, unless it is an object.
fn expect_object(value: &Value, member: &str, at: &Pointer, report: &mut Report) {
    if !value.is_object() {
        report.error(
            rule::INTERACTION_SHAPE,
            at,
            format!("`{member}` must be an object"),
        );
    }
}

/// A known mode's name in messages.
fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Form => "form",
        Mode::Url => "URL",
        Mode::Invalid => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::rule::{
        INTERACTION_DECLARATION as DECLARATION, INTERACTION_NAME as NAME,
        INTERACTION_RESPONSE as RESPONSE, INTERACTION_SAMPLING_STEP as SAMPLING,
        INTERACTION_SHAPE as SHAPE, VALUE_URI as URI,
    };
    use crate::tests::revisions::*;
    use crate::tests::{E, assert_findings, form, tool, url, with};

    /// A document whose one Tool declares `declarations` and shows `steps`
    /// in its scenario `s`.
    fn scenario(declarations: Vec<Value>, steps: Value) -> Value {
        let mut extra = json!({"interactionExamples": {
            "s": {"input": {}, "steps": steps, "result": {"content": []}}
        }});
        if !declarations.is_empty() {
            extra["elicitations"] = Value::Array(declarations);
        }
        with(json!({"tools": [tool(extra)]}))
    }

    /// A form step showing [`form`]'s request, answered with `response`.
    fn form_step(response: Value) -> Value {
        let declaration = form(json!({}));
        json!({
            "type": "elicitation",
            "request": {
                "mode": "form",
                "message": "Fill this in.",
                "requestedSchema": declaration["requestedSchema"]
            },
            "response": response
        })
    }

    /// A URL step showing [`url`]'s request, answered with `response`.
    fn url_step(response: Value) -> Value {
        json!({
            "type": "elicitation",
            "request": {"mode": "url", "message": "Open this.", "url": "https://example.com/authorize"},
            "response": response
        })
    }

    const STEP: &str = "/tools/0/interactionExamples/s/steps/0";

    #[test]
    fn every_step_kind_in_its_shape_passes() {
        let mut named = form_step(json!({"action": "accept", "content": {"answer": "yes"}}));
        named["declaration"] = json!("form");
        let mut linked = url_step(json!({"action": "accept"}));
        linked["declaration"] = json!("link");
        linked["x-note"] = json!(1);
        let doc = scenario(
            vec![form(json!({})), url(json!({}))],
            json!([
                named,
                linked,
                form_step(json!({"action": "decline"})),
                url_step(json!({"action": "cancel"})),
                {"type": "sampling",
                 "request": {"messages": [{"role": "user", "content": {"type": "text", "text": "t"}}], "maxTokens": 5},
                 "response": {"role": "assistant", "content": {"type": "text", "text": "t"}, "model": "m"}},
                {"type": "roots", "request": {}, "response": {"roots": [{"uri": "file:///a", "name": "A"}]}}
            ]),
        );
        for revision in [R2025_11_25, R2026_07_28] {
            assert_findings(&doc, revision, &[]);
        }
    }

    #[test]
    fn the_map_and_its_scenarios_have_their_shapes() {
        for (map, at) in [
            (json!({}), "/tools/0/interactionExamples"),
            (json!([]), "/tools/0/interactionExamples"),
            (json!({"ok": 1}), "/tools/0/interactionExamples/ok"),
            (json!({"ok": {"x-a": 1}}), "/tools/0/interactionExamples/ok"),
        ] {
            let doc = with(json!({"tools": [tool(json!({"interactionExamples": map}))]}));
            assert_findings(&doc, R2025_11_25, &[(SHAPE, at, E)]);
        }
        let doc = with(json!({"tools": [tool(json!({"interactionExamples": {
            "a": {"input": [], "steps": [], "result": 1, "protocolVersions": [], "X-b": 1},
            "b": {"input": {}, "steps": {}, "result": {}}
        }}))]}));
        let at = |path: &str| format!("/tools/0/interactionExamples/{path}");
        let paths = [
            "a/input",
            "a/steps",
            "a/result",
            "a/protocolVersions",
            "a/X-b",
            "b/steps",
        ]
        .map(at);
        let expected: Vec<_> = paths.iter().map(|p| (SHAPE, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn scenario_names_follow_the_pattern() {
        let steps = json!([{"type": "roots", "request": {}, "response": {"roots": []}}]);
        let good = json!({"input": {}, "steps": steps, "result": {}});
        let doc = with(json!({"tools": [tool(json!({"interactionExamples": {
            "a b": good, "a/b": good, "ok.name_1-2": good
        }}))]}));
        assert_findings(
            &doc,
            R2024_11_05,
            &[
                (NAME, "/tools/0/interactionExamples/a b", E),
                (NAME, "/tools/0/interactionExamples/a~1b", E),
                (
                    crate::rule::PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
                    "/protocolVersions",
                    crate::tests::W,
                ),
            ],
        );
    }

    #[test]
    fn steps_hold_their_kinds_members() {
        let doc = scenario(
            vec![],
            json!([
                "step",
                {},
                {"type": "Elicitation", "declaration": "x", "request": 1, "response": {}},
                {"type": "sampling", "declaration": "x", "request": {}, "response": [], "x-a": 1},
                {"type": "roots", "request": {"mode": "url"}, "response": {"roots": [1, {}, {"uri": 2}, {"uri": "rel"}]}},
                {"type": "roots", "request": {}, "response": {"roots": {}}},
                {"type": "roots", "request": {}, "response": {}}
            ]),
        );
        let s = |path: &str| format!("/tools/0/interactionExamples/s/steps/{path}");
        let shape = [
            "0",
            "1",
            "2/type",
            "2/request",
            "3/declaration",
            "3/response",
            "4/request/mode",
            "4/response/roots/0",
            "4/response/roots/1",
            "4/response/roots/2/uri",
            "5/response/roots",
            "6/response",
        ]
        .map(s);
        let uri = s("4/response/roots/3/uri");
        let sampling = s("3/request");
        let mut expected: Vec<_> = shape.iter().map(|p| (SHAPE, p.as_str(), E)).collect();
        expected.push((URI, uri.as_str(), E));
        // The empty request lacks `messages` and `maxTokens`.
        expected.push((SAMPLING, sampling.as_str(), E));
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn elicitation_requests_hold_the_fields_of_their_mode() {
        let doc = scenario(
            vec![],
            json!([
                {"type": "elicitation", "request": {"message": "m"}, "response": {"action": "accept"}},
                {"type": "elicitation", "request": {"mode": "URL", "other": 1}, "response": {"action": "decline"}},
                {"type": "elicitation", "request": {"mode": "form", "url": "https://a.example"}, "response": {"action": "decline"}},
                {"type": "elicitation", "request": {"mode": "url", "message": "", "url": "no uri", "elicitationId": "e"}, "response": {"action": "cancel"}},
                {"type": "elicitation", "request": {"mode": "form", "message": 1, "requestedSchema": true}, "response": {"action": "cancel"}},
                {"type": "elicitation", "request": {"mode": "url", "message": "m", "url": 1}, "response": {"action": "cancel"}}
            ]),
        );
        let s = |path: &str| format!("/tools/0/interactionExamples/s/steps/{path}");
        let shape = [
            "0/request",
            "1/request/mode",
            "2/request",
            "2/request/url",
            "3/request/message",
            "3/request/elicitationId",
            "4/request/message",
            "4/request/requestedSchema",
            "5/request/url",
        ]
        .map(s);
        let uri = s("3/request/url");
        let mut expected: Vec<_> = shape.iter().map(|p| (SHAPE, p.as_str(), E)).collect();
        expected.push((URI, uri.as_str(), E));
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn responses_agree_with_their_mode_and_action() {
        let doc = scenario(
            vec![],
            json!([
                form_step(json!({"action": "accept"})),
                form_step(json!({"action": "decline", "content": 1})),
                form_step(json!({"action": "cancel", "content": {}})),
                url_step(json!({"action": "accept", "content": null})),
                form_step(json!({"action": "accept", "content": "yes", "why": 1})),
                form_step(json!({"content": {}})),
                form_step(json!({"action": "ACCEPT"})),
                {"type": "elicitation", "request": {"mode": "Form"}, "response": {"action": "accept"}}
            ]),
        );
        let s = |path: &str| format!("/tools/0/interactionExamples/s/steps/{path}");
        let response = [
            "0/response",
            "1/response/content",
            "2/response/content",
            "3/response/content",
        ]
        .map(s);
        let shape = [
            "4/response/content",
            "4/response/why",
            "5/response",
            "6/response/action",
            "7/request/mode",
        ]
        .map(s);
        let mut expected: Vec<_> = response.iter().map(|p| (RESPONSE, p.as_str(), E)).collect();
        expected.extend(shape.iter().map(|p| (SHAPE, p.as_str(), E)));
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn a_step_repeats_the_declaration_it_names() {
        let named = |mut step: Value, name: Value| {
            step["declaration"] = name;
            step
        };
        let mut other_schema = form_step(json!({"action": "decline"}));
        other_schema["request"]["requestedSchema"]["required"] = json!([]);
        let mut other_url = url_step(json!({"action": "accept"}));
        other_url["request"]["url"] = json!("https://example.com/other");
        let mut broken_schema = form_step(json!({"action": "decline"}));
        broken_schema["request"]["requestedSchema"] = json!([]);
        let doc = scenario(
            vec![
                form(json!({})),
                url(json!({})),
                url(json!({"name": "open", "url": null})),
            ],
            json!([
                named(form_step(json!({"action": "decline"})), json!("missing")),
                named(form_step(json!({"action": "decline"})), json!(1)),
                named(url_step(json!({"action": "accept"})), json!("form")),
                named(other_schema, json!("form")),
                named(other_url.clone(), json!("link")),
                named(other_url, json!("open")),
                named(broken_schema, json!("form")),
                named(form_step(json!({"action": "decline"})), json!("Form"))
            ]),
        );
        let s = |path: &str| format!("/tools/0/interactionExamples/s/steps/{path}");
        let declaration = [
            "0/declaration",
            "2/request/mode",
            "3/request/requestedSchema",
            "4/request/url",
            "7/declaration",
        ]
        .map(s);
        let shape = ["1/declaration", "6/request/requestedSchema"].map(s);
        let mut expected: Vec<_> = declaration
            .iter()
            .map(|p| (DECLARATION, p.as_str(), E))
            .collect();
        expected.extend(shape.iter().map(|p| (SHAPE, p.as_str(), E)));
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn a_declared_schema_is_compared_once_resolved() {
        let schema = form(json!({}))["requestedSchema"].clone();
        let mut step = form_step(json!({"action": "decline"}));
        step["declaration"] = json!("form");
        let mut doc = scenario(
            vec![form(
                json!({"requestedSchema": {"$componentRef": "#/components/schemas/s"}}),
            )],
            json!([step]),
        );
        doc["components"] = json!({"schemas": {"s": schema}});
        assert_findings(&doc, R2025_11_25, &[]);
        doc["components"]["schemas"]["s"]["required"] = json!([]);
        assert_findings(
            &doc,
            R2025_11_25,
            &[(
                DECLARATION,
                "/tools/0/interactionExamples/s/steps/0/request/requestedSchema",
                E,
            )],
        );
        // A reference that does not resolve is the reference rules' finding.
        doc["components"] = json!({"schemas": {"other": {"type": "object", "properties": {}}}});
        let findings = crate::tests::findings(&doc, R2025_11_25);
        assert!(
            findings.iter().all(|(rule, _, _)| rule != DECLARATION),
            "{findings:?}"
        );
    }

    #[test]
    fn other_primitives_are_not_judged_and_tools_are_whatever_their_scope() {
        let doc = with(json!({
            "tools": [tool(json!({
                "protocolVersions": ["2026-07-28"],
                "interactionExamples": {"s": {"input": {}, "steps": [form_step(json!({"action": "accept"}))], "result": {}}}
            }))],
            "prompts": [{"name": "p", "interactionExamples": {}}]
        }));
        let at = format!("{STEP}/response");
        assert_findings(
            &doc,
            R2025_06_18,
            &[
                (RESPONSE, at.as_str(), E),
                (
                    crate::rule::PRIMITIVE_SHAPE,
                    "/prompts/0/interactionExamples",
                    E,
                ),
            ],
        );
    }
}
