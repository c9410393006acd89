//! Tools (Section 9): their input and output schemas, `x-mcp-header`,
//! annotations and execution.
//!
//! A schema written as a Reference Object is resolved first; a reference
//! that does not resolve is reported by the reference rules
//! (`crate::component`) alone, and the schema rules pass that schema over.
//! Everything found inside a referenced schema is reported at the use site
//! (`<tool>/inputSchema` or `<tool>/outputSchema`).

mod evaluation;
mod header;
mod schema;
mod subschema;

pub(crate) use evaluation::{Verdict, accepts, evaluate};

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::component::{Namespace, Site};
use crate::document::Document;
use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive};
use crate::report::Report;
use crate::rule;

/// The two schemas a Tool may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// `inputSchema`: the arguments of `tools/call`.
    Input,
    /// `outputSchema`: the structured content of a result.
    Output,
}

impl Role {
    /// The Tool member that holds the schema.
    fn member(self) -> &'static str {
        match self {
            Role::Input => "inputSchema",
            Role::Output => "outputSchema",
        }
    }
}

/// One Tool schema that is an object after resolution.
#[derive(Debug)]
pub(crate) struct ToolSchema<'a> {
    /// Which of the two it is.
    pub(crate) role: Role,
    /// Its members, after resolution.
    pub(crate) schema: &'a Map<String, Value>,
    /// Where its findings are reported.
    pub(crate) site: Site,
}

/// The Tool's schemas that are objects once resolved, input first.
pub(crate) fn schemas<'a>(document: &Document<'a>, tool: &Primitive<'a>) -> Vec<ToolSchema<'a>> {
    [Role::Input, Role::Output]
        .into_iter()
        .filter_map(|role| {
            let written = tool.object.get(role.member())?;
            let Value::Object(schema) = document.components.resolve(written, Namespace::Schemas)?
            else {
                return None;
            };
            Some(ToolSchema {
                role,
                schema,
                site: Site::of(written, tool.pointer.key(role.member())),
            })
        })
        .collect()
}

/// Runs the Tool rules under `revision`.
pub(crate) fn check(document: &Document<'_>, revision: Revision, report: &mut Report) {
    for tool in document.primitives.iter().filter(|p| p.kind == Kind::Tool) {
        let in_scope = tool.scope.includes(revision);
        for schema in schemas(document, tool) {
            schema::check(&schema, revision, in_scope, report);
            if schema.role == Role::Input {
                header::check(&schema, revision, in_scope, report);
            }
        }
        check_annotations(tool.object, &tool.pointer, report);
        check_execution(tool.object, &tool.pointer, report);
    }
}

/// The boolean hints of Tool Annotations (Section 9.6).
const HINTS: [&str; 4] = [
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// `mcp.tool.annotations`: an object whose `title` is a string and whose
/// hints are booleans; other members are open (forward compatibility).
fn check_annotations(tool: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    let Some(annotations) = tool.get("annotations") else {
        return;
    };
    let at = at.key("annotations");
    let Value::Object(annotations) = annotations else {
        report.error(
            rule::TOOL_ANNOTATIONS,
            &at,
            "`annotations` must be an object",
        );
        return;
    };
    for (member, value) in annotations {
        let wrong = match member.as_str() {
            "title" => (!value.is_string()).then_some("a string"),
            hint if HINTS.contains(&hint) => (!value.is_boolean()).then_some("a boolean"),
            _ => None,
        };
        if let Some(expected) = wrong {
            report.error(
                rule::TOOL_ANNOTATIONS,
                &at.key(member),
                format!("`{member}` must be {expected}"),
            );
        }
    }
}

/// The values of `execution.taskSupport` (Section 9.7).
const TASK_SUPPORT: [&str; 3] = ["forbidden", "optional", "required"];

/// `mcp.tool.execution`: an object holding at most `taskSupport`, one of
/// its three values. The Execution Object is MCP's, carried as is, so it
/// takes no `x-` extension (Section 14.2).
fn check_execution(tool: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    let Some(execution) = tool.get("execution") else {
        return;
    };
    let at = at.key("execution");
    let Value::Object(execution) = execution else {
        report.error(rule::TOOL_EXECUTION, &at, "`execution` must be an object");
        return;
    };
    for (member, value) in execution {
        if member != "taskSupport" {
            report.error(
                rule::TOOL_EXECUTION,
                &at.key(member),
                format!("no member `{member}` is defined on an Execution Object"),
            );
        } else if !value
            .as_str()
            .is_some_and(|text| TASK_SUPPORT.contains(&text))
        {
            report.error(
                rule::TOOL_EXECUTION,
                &at.key(member),
                "`taskSupport` must be \"forbidden\", \"optional\" or \"required\"",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{TOOL_ANNOTATIONS as ANNOTATIONS, TOOL_EXECUTION as EXECUTION};
    use crate::tests::{E, assert_findings, tool, with};

    #[test]
    fn annotations_are_an_open_object_of_a_title_and_boolean_hints() {
        let mut bad = tool(json!({}));
        bad["annotations"] = json!({
            "title": 1, "readOnlyHint": "yes", "destructiveHint": null,
            "idempotentHint": 0, "openWorldHint": true, "audience": 5, "x-a": 1
        });
        let mut not_object = tool(json!({}));
        not_object["name"] = json!("other");
        not_object["annotations"] = json!([]);
        let document = with(json!({"tools": [bad, not_object]}));
        let at = "/tools/0/annotations";
        assert_findings(
            &document,
            R2025_06_18,
            &[
                (ANNOTATIONS, &format!("{at}/destructiveHint"), E),
                (ANNOTATIONS, &format!("{at}/idempotentHint"), E),
                (ANNOTATIONS, &format!("{at}/readOnlyHint"), E),
                (ANNOTATIONS, &format!("{at}/title"), E),
                (ANNOTATIONS, "/tools/1/annotations", E),
            ],
        );
    }

    #[test]
    fn execution_is_a_closed_object_with_one_of_three_task_supports() {
        let mut document = with(json!({"tools": []}));
        for (index, execution) in [
            json!({"taskSupport": "sometimes", "x-a": 1, "other": true}),
            json!({"taskSupport": 1}),
            json!("required"),
            json!({}),
        ]
        .into_iter()
        .enumerate()
        {
            let mut item = tool(json!({}));
            item["name"] = json!(format!("t{index}"));
            item["execution"] = execution;
            document["tools"].as_array_mut().unwrap().push(item);
        }
        for ok in TASK_SUPPORTS {
            let mut item = tool(json!({}));
            item["name"] = json!(ok);
            item["execution"] = json!({"taskSupport": ok});
            document["tools"].as_array_mut().unwrap().push(item);
        }
        assert_findings(
            &document,
            R2025_11_25,
            &[
                (EXECUTION, "/tools/0/execution/other", E),
                (EXECUTION, "/tools/0/execution/taskSupport", E),
                (EXECUTION, "/tools/0/execution/x-a", E),
                (EXECUTION, "/tools/1/execution/taskSupport", E),
                (EXECUTION, "/tools/2/execution", E),
            ],
        );
    }

    const TASK_SUPPORTS: [&str; 3] = ["forbidden", "optional", "required"];
}
