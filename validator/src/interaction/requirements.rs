//! `mcpdesc.interaction.client-requirements` (a warning, Section 9.4): a
//! scenario step that uses a client capability the Tool's explicit
//! `clientRequirements` leaves out.
//!
//! A Tool that declares its client requirements states what a call needs
//! from the client; a scenario of that call whose steps need more
//! contradicts the statement. A Tool that declares none states nothing,
//! and nothing is inferred from its scenarios (Sections 8.5 and 9.4).

use serde_json::{Map, Value};

use super::StepKind;
use crate::pointer::Pointer;
use crate::primitive::Primitive;
use crate::report::Report;
use crate::rule;

/// The `includeContext` values that ask the client for context, which
/// `sampling.context` declares.
const CONTEXTS: [&str; 2] = ["thisServer", "allServers"];

/// The warning on one step of `kind` at `at`, with its `request` when that
/// is an object.
pub(super) fn check(
    tool: &Primitive<'_>,
    kind: StepKind,
    request: Option<&Map<String, Value>>,
    at: &Pointer,
    report: &mut Report,
) {
    let Some(Value::Object(required)) = tool.object.get("clientRequirements") else {
        return;
    };
    let capability = match kind {
        StepKind::Elicitation => "elicitation",
        StepKind::Sampling => "sampling",
        StepKind::Roots => "roots",
    };
    let Some(declared) = required.get(capability) else {
        report.warning(
            rule::INTERACTION_CLIENT_REQUIREMENTS,
            &at.key("type"),
            format!(
                "the Tool's `clientRequirements` leave out `{capability}`, which this step needs from the client"
            ),
        );
        return;
    };
    let (Some(request), Some(declared)) = (request, declared.as_object()) else {
        return;
    };
    let warn = |member: &str, setting: &str, report: &mut Report| {
        report.warning(
            rule::INTERACTION_CLIENT_REQUIREMENTS,
            &at.key("request").key(member),
            format!(
                "the Tool's `clientRequirements` declare `{capability}` without `{setting}`, which this step needs"
            ),
        );
    };
    match kind {
        StepKind::Elicitation => match request.get("mode").and_then(Value::as_str) {
            // An elicitation capability without settings declares form mode
            // alone (MCP 2025-11-25); one that names `url` but not `form`
            // leaves form mode out.
            Some("form") if declared.contains_key("url") && !declared.contains_key("form") => {
                warn("mode", "form", report);
            }
            Some("url") if !declared.contains_key("url") => warn("mode", "url", report),
            _ => {}
        },
        StepKind::Sampling => {
            if request
                .get("tools")
                .is_some_and(|tools| tools.as_array().is_some_and(|tools| !tools.is_empty()))
                && !declared.contains_key("tools")
            {
                warn("tools", "tools", report);
            }
            if request
                .get("includeContext")
                .and_then(Value::as_str)
                .is_some_and(|context| CONTEXTS.contains(&context))
                && !declared.contains_key("context")
            {
                warn("includeContext", "context", report);
            }
        }
        StepKind::Roots => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::INTERACTION_CLIENT_REQUIREMENTS as CONTRADICTED;
    use crate::tests::{W, assert_findings, with};

    const STEPS: &str = "/tools/0/interactionExamples/s/steps";

    fn doc(requirements: Option<Value>, steps: Value) -> Value {
        let mut tool = json!({
            "name": "t", "inputSchema": {"type": "object"},
            "interactionExamples": {"s": {"input": {}, "steps": steps, "result": {"content": []}}}
        });
        if let Some(requirements) = requirements {
            tool["clientRequirements"] = requirements;
        }
        with(json!({"tools": [tool]}))
    }

    fn sampling(extra: Value) -> Value {
        let mut request = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "t"}}], "maxTokens": 1});
        for (key, value) in extra.as_object().unwrap() {
            request[key] = value.clone();
        }
        json!({"type": "sampling", "request": request, "response": {"role": "assistant", "content": {"type": "text", "text": "t"}, "model": "m"}})
    }

    fn roots() -> Value {
        json!({"type": "roots", "request": {}, "response": {"roots": []}})
    }

    #[test]
    fn a_step_beyond_explicit_requirements_is_warned_about_and_none_is_inferred() {
        let steps = json!([sampling(json!({})), roots()]);
        assert_findings(&doc(None, steps.clone()), R2025_11_25, &[]);
        assert_findings(
            &doc(Some(json!({"elicitation": {}})), steps.clone()),
            R2025_11_25,
            &[
                (CONTRADICTED, &format!("{STEPS}/0/type"), W),
                (CONTRADICTED, &format!("{STEPS}/1/type"), W),
            ],
        );
        assert_findings(
            &doc(Some(json!({"sampling": {}, "roots": {}})), steps),
            R2025_11_25,
            &[],
        );
    }

    #[test]
    fn settings_a_step_needs_are_looked_for_in_the_declared_capability() {
        let steps = json!([
            sampling(
                json!({"tools": [{"name": "x", "inputSchema": {"type": "object"}}], "includeContext": "allServers"})
            ),
            sampling(json!({"includeContext": "none"}))
        ]);
        assert_findings(
            &doc(Some(json!({"sampling": {}})), steps.clone()),
            R2025_11_25,
            &[
                (
                    CONTRADICTED,
                    &format!("{STEPS}/0/request/includeContext"),
                    W,
                ),
                (CONTRADICTED, &format!("{STEPS}/0/request/tools"), W),
            ],
        );
        assert_findings(
            &doc(
                Some(json!({"sampling": {"tools": {}, "context": {}}})),
                steps,
            ),
            R2025_11_25,
            &[],
        );
    }
}
