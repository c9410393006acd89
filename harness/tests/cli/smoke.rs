//! `smoke` explains adapter mistakes in plain words.

use super::*;

fn smoke(mistake: &str) -> (Option<i32>, String) {
    let command = super::external_support::python("faulty_adapter.py", mistake);
    let output = harness()
        .args([
            "smoke",
            "--start-timeout",
            "2",
            "--timeout",
            "2",
            "--validator",
            &command,
        ])
        .output()
        .unwrap();
    (output.status.code(), stdout_of(&output))
}

#[test]
fn a_correct_adapter_passes() {
    let (code, stdout) = smoke("none");
    assert_eq!(code, Some(0), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "ok    start: protocol 1, `faulty` 0 (python)",
            "ok    elicitation/expected-invalid/enum-default-outside-choices.json under 2025-06-18: 0 diagnostic(s)",
            "ok    stop: exited with status 0",
            "\nno contract problem found (smoke checks how the adapter speaks the contract, \
             not whether its findings are right: use `run` for that)\n",
        ],
    );
}

#[test]
fn an_adapter_announcing_no_revision_of_the_smoke_cases_fails_as_nothing_was_sent() {
    let (code, stdout) = smoke("no-revisions-in-suite");
    assert_eq!(code, Some(1), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "FAIL  cases",
            "no case was sent, so nothing of the contract beyond `start` was checked",
            "announces the revisions [2023-01-01]",
            "(they run under [2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28])",
            "1 contract problem found",
        ],
    );
    assert!(!stdout.contains("no contract problem"), "{stdout}");
}

/// Runs the faulty adapter making `mistake` on the cases of `fixture`.
fn run_adapter(mistake: &str, fixture: &str) -> (Option<i32>, String) {
    let command = super::external_support::python("faulty_adapter.py", mistake);
    let output = harness()
        .args([
            "run",
            "--jobs",
            "1",
            "--timeout",
            "5",
            "--validator",
            &command,
        ])
        .args(["--filter", fixture])
        .output()
        .unwrap();
    (output.status.code(), stdout_of(&output))
}

#[test]
fn a_rule_reported_where_it_does_not_apply_fails_smoke_as_it_fails_run() {
    let (code, stdout) = smoke("rule-not-applicable");
    assert_eq!(code, Some(1), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "FAIL  document/expected-invalid/missing-info.json under 2024-11-05",
            "rule `mcp.elicitation.form-schema.protocol-shape` does not apply under 2024-11-05",
        ],
    );
    let (code, report) = run_adapter("rule-not-applicable", "document/*/minimal.json");
    assert_eq!(code, Some(1), "{report}");
    assert_contains(&report, &["rule does not apply under this revision"]);
}

#[test]
fn a_pointer_that_names_nothing_deep_in_the_document_fails_smoke_as_it_fails_run() {
    let (code, stdout) = smoke("bad-nested-pointer");
    assert_eq!(code, Some(1), "{stdout}");
    assert_contains(
        &stdout,
        &[
            "FAIL  elicitation/expected-invalid/enum-default-outside-choices.json under 2025-06-18",
            "a diagnostic's `path` \"/tools/0/elicitations/0/requestedSchema/properties.severity\" names nothing",
        ],
    );
    let (code, report) = run_adapter("bad-nested-pointer", "*/enum-default-outside-choices.json");
    assert_eq!(code, Some(1), "{report}");
    assert_contains(&report, &["pointer does not resolve in the document"]);
}

#[test]
fn each_mistake_is_explained() {
    let cases: [(&str, &[&str]); 10] = [
        (
            "silent-start",
            &["no reply to `start` within 2.0s", "then flush stdout"],
        ),
        (
            "protocol-2",
            &["says `\"protocol\": 2`, but this harness speaks protocol 1"],
        ),
        (
            "not-json",
            &[
                "the reply is not JSON",
                "anything else (logs, progress) on stderr",
            ],
        ),
        (
            "no-seq",
            &["the reply has no `seq`; echo the request's `\"seq\": "],
        ),
        ("wrong-seq", &["but answers the request with `\"seq\": "]),
        (
            "diagnostics-object",
            &["`diagnostics` is a JSON object, not an array"],
        ),
        (
            "relative-path",
            &[
                "`path` \"info\" is not an RFC 6901 JSON pointer: it must be empty (the document root) or start with `/`",
            ],
        ),
        (
            "fatal-severity",
            &["`severity` is \"fatal\"; use \"error\" or \"warning\""],
        ),
        (
            "unknown-rule",
            &["rule `my.own.rule` is in no catalog of the suite"],
        ),
        (
            "extra-line",
            &[
                "after its reply the validator wrote another line nobody asked for: \"{\\\"progress\\\": \\\"done\\\"}\"",
            ],
        ),
    ];
    for (mistake, explanations) in cases {
        let (code, stdout) = smoke(mistake);
        assert_eq!(code, Some(1), "{mistake}\n{stdout}");
        assert_contains(&stdout, &["FAIL"]);
        assert_contains(&stdout, explanations);
    }
}

#[test]
fn a_run_in_which_every_case_is_skipped_is_not_a_pass() {
    let command = super::external_support::python("faulty_adapter.py", "future-revisions-only");
    let output = harness()
        .args(["run", "--suite", "document", "--validator", &command])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stdout_of(&output));
    assert_contains(
        &stderr_of(&output),
        &["no case was judged: the validator skipped every selected case"],
    );
}

#[test]
fn a_oneshot_program_that_does_not_exist_exits_3() {
    for program in ["/nonexistent/validator", "no-such-validator-on-path"] {
        let output = harness()
            .args(["run", "--oneshot", "--validator", program])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(3), "{program}");
        assert_contains(&stderr_of(&output), &[&format!("cannot find `{program}`")]);
    }
}

#[test]
fn an_adapter_that_cannot_start_exits_3() {
    let output = harness()
        .args(["smoke", "--validator", "/nonexistent/adapter --stdio"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert_contains(
        &stdout_of(&output),
        &["cannot start `/nonexistent/adapter --stdio`"],
    );
}
