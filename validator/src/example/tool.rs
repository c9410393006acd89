//! Named Tool examples (Section 9.3): one `tools/call`, its arguments
//! against the Tool's input schema, and its completed result, whose
//! structured content the output schema judges.

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use super::{Place, check_completed, content, resolved};
use crate::component::Namespace;
use crate::document::Document;
use crate::pointer::Pointer;
use crate::primitive::Primitive;
use crate::report::Report;
use crate::rule;
use crate::tool::{Role, Verdict, evaluate, schemas};
use crate::value::is_extension;

/// The members of a Tool Example Object besides `x-` extensions; both are
/// required.
const MEMBERS: [&str; 2] = ["input", "result"];

/// The first revision whose Tool results carry `structuredContent` (and
/// whose Tools declare `outputSchema`).
const STRUCTURED: Revision = Revision::of("2025-06-18");

/// The first revision whose `structuredContent` may be any JSON value (as
/// its `outputSchema` may have any root); before it, an object.
const ANY_STRUCTURED: Revision = Revision::of("2026-07-28");

/// The Tool's schemas once resolved, each when it is an object.
struct Schemas<'a> {
    input: Option<&'a Map<String, Value>>,
    output: Option<&'a Map<String, Value>>,
}

/// The Tool example rules on the `examples` entries of `tool`.
pub(super) fn check(
    tool: &Primitive<'_>,
    examples: &Map<String, Value>,
    document: &Document<'_>,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let tool_schemas = schemas(document, tool);
    let role = |role: Role| {
        tool_schemas
            .iter()
            .find(|schema| schema.role == role)
            .map(|schema| schema.schema)
    };
    let schemas = Schemas {
        input: role(Role::Input),
        output: role(Role::Output),
    };
    for (place, example) in resolved(
        tool,
        examples,
        document,
        Namespace::ToolExamples,
        (rule::TOOL_EXAMPLE_SHAPE, "Tool"),
        report,
    ) {
        check_members(example, &place, report);
        if let Some(input) = example.get("input") {
            check_input(input, schemas.input, &place, revision, in_scope, report);
        }
        match example.get("result") {
            None => {}
            Some(Value::Object(result)) => {
                check_completed(result, &place, revision, in_scope, report);
                let shaped = check_result(result, &place, revision, in_scope, report);
                let output = schemas.output.filter(|_| shaped && in_scope);
                check_structured(result, output, &place, revision, report);
            }
            Some(_) => report.error(
                rule::TOOL_EXAMPLE_RESULT,
                &place.within(|entry| entry.key("result")),
                "`result` must be an object",
            ),
        }
    }
}

/// `mcpdesc.tool-example.shape` on the members of one example: `input` and
/// `result` are present, and nothing but them and `x-` extensions is.
fn check_members(example: &Map<String, Value>, place: &Place, report: &mut Report) {
    for member in MEMBERS
        .iter()
        .filter(|member| !example.contains_key(**member))
    {
        report.error(
            rule::TOOL_EXAMPLE_SHAPE,
            &place.entry,
            format!("`{member}` is missing; a call without arguments has `input: {{}}`"),
        );
    }
    for member in example
        .keys()
        .filter(|member| !MEMBERS.contains(&member.as_str()) && !is_extension(member))
    {
        report.error(
            rule::TOOL_EXAMPLE_SHAPE,
            &place.within(|entry| entry.key(member)),
            format!("no member `{member}` is defined on a Tool Example Object"),
        );
    }
}

/// `mcpdesc.tool-example.shape` on `input` (an object), then, under a
/// revision the Tool applies to, `mcpdesc.tool-example.input` and
/// `mcpdesc.tool-example.incomplete-validation` on what its input schema
/// says of it.
fn check_input(
    input: &Value,
    schema: Option<&Map<String, Value>>,
    place: &Place,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    let at = place.within(|entry| entry.key("input"));
    if !input.is_object() {
        report.error(
            rule::TOOL_EXAMPLE_SHAPE,
            &at,
            "`input` is the object of the call's arguments",
        );
        return;
    }
    if let Some(schema) = schema
        && in_scope
    {
        judge(
            schema,
            input,
            &at,
            revision,
            rule::TOOL_EXAMPLE_INPUT,
            "`inputSchema`",
            report,
        );
    }
}

/// Reports what evaluating `value` (at `at`) against `schema` under
/// `revision` finds: `rule` when the schema rejects it, and
/// `mcpdesc.tool-example.incomplete-validation` when the evaluation could
/// not be complete.
fn judge(
    schema: &Map<String, Value>,
    value: &Value,
    at: &Pointer,
    revision: Revision,
    rule: &'static str,
    named: &str,
    report: &mut Report,
) {
    let Some(Verdict {
        rejected,
        incomplete,
    }) = evaluate(schema, value, revision)
    else {
        return;
    };
    if rejected {
        report.error(rule, at, format!("{named} does not accept this value"));
    }
    if incomplete {
        report.warning(
            rule::TOOL_EXAMPLE_INCOMPLETE_VALIDATION,
            at,
            format!(
                "under MCP {revision} {named} could not be applied in full (a constraint without a dialect, or a reference that is not resolved), so this value is not completely validated"
            ),
        );
    }
}

/// `mcp.tool-example.result` on a result object: an array of `content`
/// blocks (each judged by `mcp.content-block`), a boolean `isError`, and
/// `structuredContent` only where the revision defines it, as an object
/// before 2026-07-28. Returns whether `structuredContent` is absent or of
/// the revision's shape, so that the output schema may judge it.
fn check_result(
    result: &Map<String, Value>,
    place: &Place,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) -> bool {
    let at = place.within(|entry| entry.key("result"));
    let member = |member: &str| place.within(|_| at.key(member));
    match result.get("content") {
        None => report.error(
            rule::TOOL_EXAMPLE_RESULT,
            &at,
            "`content` is missing; a result has unstructured content even with `structuredContent`",
        ),
        Some(Value::Array(blocks)) => {
            for (index, block) in blocks.iter().enumerate() {
                content::check(
                    block,
                    content::Blocks::Content,
                    place,
                    &at.key("content").index(index),
                    revision,
                    in_scope,
                    report,
                );
            }
        }
        Some(_) => report.error(
            rule::TOOL_EXAMPLE_RESULT,
            &member("content"),
            "`content` must be an array of content blocks",
        ),
    }
    if let Some(flag) = result.get("isError")
        && !flag.is_boolean()
    {
        report.error(
            rule::TOOL_EXAMPLE_RESULT,
            &member("isError"),
            "`isError` must be a boolean",
        );
    }
    let Some(structured) = result.get("structuredContent") else {
        return true;
    };
    if !in_scope {
        return true;
    }
    if revision < STRUCTURED {
        report.error(
            rule::TOOL_EXAMPLE_RESULT,
            &member("structuredContent"),
            format!("MCP {revision} defines no `structuredContent`"),
        );
        return false;
    }
    if revision < ANY_STRUCTURED && !structured.is_object() {
        report.error(
            rule::TOOL_EXAMPLE_RESULT,
            &member("structuredContent"),
            format!("under MCP {revision} `structuredContent` is an object"),
        );
        return false;
    }
    true
}

/// `mcpdesc.tool-example.structured-content`: an execution error
/// (`isError: true`) has no `structuredContent`; a success has
/// `structuredContent` that `schema` accepts (with
/// `mcpdesc.tool-example.incomplete-validation` when that cannot be told in
/// full), where `schema` is the Tool's `outputSchema` when the Tool applies
/// to `revision` and the result's `structuredContent` has the revision's
/// shape.
fn check_structured(
    result: &Map<String, Value>,
    schema: Option<&Map<String, Value>>,
    place: &Place,
    revision: Revision,
    report: &mut Report,
) {
    let at = place.within(|entry| entry.key("result"));
    let structured_at = place.within(|_| at.key("structuredContent"));
    let structured = result.get("structuredContent");
    match result.get("isError") {
        Some(Value::Bool(true)) => {
            if structured.is_some() {
                report.error(
                    rule::TOOL_EXAMPLE_STRUCTURED_CONTENT,
                    &structured_at,
                    "an execution error has no `structuredContent`; `outputSchema` does not describe errors",
                );
            }
            return;
        }
        None | Some(Value::Bool(false)) => {}
        // Neither a success nor an error: `mcp.tool-example.result` says so.
        Some(_) => return,
    }
    let Some(schema) = schema else {
        return;
    };
    // Before 2025-06-18 `outputSchema` is not defined, which
    // `mcp.primitive.protocol-version` reports.
    if revision < STRUCTURED {
        return;
    }
    match structured {
        None => report.error(
            rule::TOOL_EXAMPLE_STRUCTURED_CONTENT,
            &at,
            "the Tool declares `outputSchema`, so a successful result has `structuredContent`",
        ),
        Some(value) => judge(
            schema,
            value,
            &structured_at,
            revision,
            rule::TOOL_EXAMPLE_STRUCTURED_CONTENT,
            "`outputSchema`",
            report,
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        CONTENT_BLOCK as BLOCK, EXAMPLE_RESULT_TYPE as RESULT_TYPE,
        TOOL_EXAMPLE_INCOMPLETE_VALIDATION as INCOMPLETE, TOOL_EXAMPLE_INPUT as INPUT,
        TOOL_EXAMPLE_RESULT as RESULT, TOOL_EXAMPLE_SHAPE as SHAPE,
        TOOL_EXAMPLE_STRUCTURED_CONTENT as STRUCTURED,
    };
    use crate::tests::{E, W, assert_findings, assert_findings_beside_legacy, with};

    const AT: &str = "/tools/0/examples/e";

    /// A document of one Tool, in `scope`, with a typed input schema, the
    /// output schema `output` and the example `e`.
    fn doc(scope: &[&str], output: Option<Value>, example: Value) -> Value {
        let mut tool = json!({
            "name": "t",
            "protocolVersions": scope,
            "inputSchema": {
                "type": "object",
                "properties": {"depth": {"type": "integer", "maximum": 40}},
                "required": ["depth"]
            },
            "examples": {"e": example}
        });
        if let Some(output) = output {
            tool["outputSchema"] = output;
        }
        with(json!({
            "protocolVersions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
            "tools": [tool]
        }))
    }

    fn text() -> Value {
        json!([{"type": "text", "text": "done"}])
    }

    #[test]
    fn an_example_is_closed_and_has_an_object_input_and_a_result() {
        let scope = &["2025-11-25"];
        assert_findings(
            &doc(
                scope,
                None,
                json!({"input": [], "summary": "s", "x-note": 1}),
            ),
            R2025_11_25,
            &[
                (SHAPE, AT, E),
                (SHAPE, &format!("{AT}/input"), E),
                (SHAPE, &format!("{AT}/summary"), E),
            ],
        );
        assert_findings(
            &doc(scope, None, json!({"result": {"content": text()}})),
            R2025_11_25,
            &[(SHAPE, AT, E)],
        );
        assert_findings(
            &doc(scope, None, json!({"input": {"depth": 3}, "result": []})),
            R2025_11_25,
            &[(RESULT, &format!("{AT}/result"), E)],
        );
    }

    #[test]
    fn input_is_evaluated_against_the_input_schema_from_2025_11_25() {
        for (scope, revision) in [(["2025-11-25"], R2025_11_25), (["2026-07-28"], R2026_07_28)] {
            let result = if revision == R2026_07_28 {
                json!({"content": text(), "resultType": "complete"})
            } else {
                json!({"content": text()})
            };
            let example = |input: Value| json!({"input": input, "result": result.clone()});
            assert_findings(
                &doc(&scope, None, example(json!({"depth": 3}))),
                revision,
                &[],
            );
            for bad in [json!({}), json!({"depth": 41}), json!({"depth": "deep"})] {
                assert_findings(
                    &doc(&scope, None, example(bad)),
                    revision,
                    &[(INPUT, &format!("{AT}/input"), E)],
                );
            }
        }
    }

    #[test]
    fn before_2025_11_25_required_names_are_enforced_and_the_rest_is_warned_about() {
        let scope = &["2024-11-05", "2025-03-26", "2025-06-18"];
        let input = format!("{AT}/input");
        for revision in [R2024_11_05, R2025_03_26] {
            assert_findings_beside_legacy(
                &doc(
                    scope,
                    None,
                    json!({"input": {"depth": "deep"}, "result": {"content": text()}}),
                ),
                revision,
                &[(INCOMPLETE, &input, W)],
            );
        }
        assert_findings(
            &doc(
                scope,
                None,
                json!({"input": {}, "result": {"content": text()}}),
            ),
            R2025_06_18,
            &[(INPUT, &input, E), (INCOMPLETE, &input, W)],
        );
    }

    #[test]
    fn results_hold_content_blocks_a_boolean_is_error_and_structured_content_by_revision() {
        let all = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
        let result = format!("{AT}/result");
        let example = |result: Value| json!({"input": {"depth": 1}, "result": result});
        assert_findings(
            &doc(all, None, example(json!({"isError": "no"}))),
            R2025_11_25,
            &[
                (RESULT, &result, E),
                (RESULT, &format!("{result}/isError"), E),
            ],
        );
        assert_findings(
            &doc(
                all,
                None,
                example(json!({"content": {"type": "text", "text": "t"}})),
            ),
            R2025_11_25,
            &[(RESULT, &format!("{result}/content"), E)],
        );
        assert_findings_beside_legacy(
            &doc(
                all,
                None,
                example(
                    json!({"content": [{"type": "audio", "data": "QQ==", "mimeType": "audio/wav"}]}),
                ),
            ),
            R2024_11_05,
            &[
                (BLOCK, &format!("{result}/content/0/type"), E),
                (INCOMPLETE, &format!("{AT}/input"), W),
            ],
        );
        let listed = doc(
            all,
            None,
            example(json!({"content": text(), "structuredContent": [1]})),
        );
        let input = format!("{AT}/input");
        let listed_at = format!("{result}/structuredContent");
        assert_findings_beside_legacy(
            &listed,
            R2025_03_26,
            &[(RESULT, &listed_at, E), (INCOMPLETE, &input, W)],
        );
        assert_findings(
            &listed,
            R2025_06_18,
            &[(RESULT, &listed_at, E), (INCOMPLETE, &input, W)],
        );
        assert_findings(&listed, R2025_11_25, &[(RESULT, &listed_at, E)]);
        let any = doc(
            &["2026-07-28"],
            None,
            example(json!({"content": text(), "structuredContent": [1], "resultType": "complete"})),
        );
        assert_findings(&any, R2026_07_28, &[]);
    }

    #[test]
    fn structured_content_follows_the_output_schema_and_errors_have_none() {
        let scope = &["2025-06-18", "2025-11-25"];
        let output = json!({"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]});
        let result = format!("{AT}/result");
        let structured = format!("{result}/structuredContent");
        let example = |result: Value| json!({"input": {"depth": 1}, "result": result});
        let missing = doc(
            scope,
            Some(output.clone()),
            example(json!({"content": text()})),
        );
        assert_findings(&missing, R2025_11_25, &[(STRUCTURED, &result, E)]);
        let wrong = doc(
            scope,
            Some(output.clone()),
            example(json!({"content": text(), "structuredContent": {"score": "high"}})),
        );
        assert_findings(&wrong, R2025_11_25, &[(STRUCTURED, &structured, E)]);
        // 2025-06-18 enforces `required` only, and says what it could not.
        assert_findings(
            &wrong,
            R2025_06_18,
            &[
                (INCOMPLETE, &structured, W),
                (INCOMPLETE, &format!("{AT}/input"), W),
            ],
        );
        let failed = doc(
            scope,
            Some(output),
            example(json!({"content": text(), "isError": true, "structuredContent": {"score": 1}})),
        );
        assert_findings(&failed, R2025_11_25, &[(STRUCTURED, &structured, E)]);
        let without_schema = doc(
            &["2024-11-05"],
            None,
            example(json!({"content": text(), "isError": true, "structuredContent": {}})),
        );
        assert_findings_beside_legacy(
            &without_schema,
            R2024_11_05,
            &[
                (INCOMPLETE, &format!("{AT}/input"), W),
                (RESULT, &structured, E),
                (STRUCTURED, &structured, E),
            ],
        );
    }

    #[test]
    fn a_referenced_example_is_judged_at_its_use_site_against_each_tool() {
        let document = with(json!({
            "tools": [{
                "name": "t", "protocolVersions": ["2025-11-25"],
                "inputSchema": {"type": "object", "required": ["q"]},
                "examples": {"e": {"$componentRef": "#/components/toolExamples/shared"}}
            }, {
                "name": "u", "protocolVersions": ["2026-07-28"],
                "inputSchema": {"type": "object"},
                "examples": {"e": {"$componentRef": "#/components/toolExamples/shared"}}
            }],
            "components": {"toolExamples": {"shared": {"input": {}, "result": {"content": []}}}}
        }));
        assert_findings(&document, R2025_11_25, &[(INPUT, AT, E)]);
        assert_findings(
            &document,
            R2026_07_28,
            &[(RESULT_TYPE, "/tools/1/examples/e", E)],
        );
    }
}
