//! The members of an Elicitation Declaration (Section 12.2 to 12.4).
//!
//! Rules: `shape`, `name`, `name-unique`, `mode`, `text`, `mode-members` and
//! `url`. None depends on the revision.

use std::collections::HashSet;

use serde_json::Value;

use super::{Declaration, Mode};
use crate::report::Report;
use crate::rule;
use crate::value::is_string_array;

/// The JSON type a declaration member must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Type {
    /// Checked by `mcpdesc.elicitation.mode` alone.
    Mode,
    String,
    Object,
    /// An array whose entries are all strings (`array<string>` in 12.2).
    Strings,
}

/// Every member a declaration may have besides `x-` extensions.
const MEMBERS: [(&str, Type); 9] = [
    ("name", Type::String),
    ("mode", Type::Mode),
    ("message", Type::String),
    ("when", Type::String),
    ("requestedSchema", Type::Object),
    ("url", Type::String),
    ("onDecline", Type::String),
    ("onCancel", Type::String),
    ("protocolVersions", Type::Strings),
];

/// The members that must not be empty when they are strings.
const TEXTS: [&str; 4] = ["message", "when", "onDecline", "onCancel"];

/// Runs the member rules on the declarations of one primitive.
pub(super) fn check(declarations: &[Declaration<'_>], report: &mut Report) {
    let mut names = HashSet::new();
    for declaration in declarations {
        check_shape(declaration, report);
        check_name(declaration, report);
        if let Some(Value::String(name)) = declaration.object.get("name")
            && !names.insert(name.as_str())
        {
            report.error(
                rule::ELICITATION_NAME_UNIQUE,
                &declaration.pointer.key("name"),
                format!("another declaration of this primitive is already named `{name}`"),
            );
        }
        check_mode(declaration, report);
        check_texts(declaration, report);
        check_mode_members(declaration, report);
        check_url(declaration, report);
    }
}

/// `mcpdesc.elicitation.shape`.
fn check_shape(declaration: &Declaration<'_>, report: &mut Report) {
    let at = &declaration.pointer;
    for required in ["name", "message"] {
        if !declaration.object.contains_key(required) {
            report.error(
                rule::ELICITATION_SHAPE,
                at,
                format!("`{required}` is missing"),
            );
        }
    }
    for (member, value) in declaration.object {
        // A member the mode forbids is a `mode-members` problem alone: it
        // must not be there at all, so its type says nothing more, and one
        // mistake is one finding (the catalog's decision for both modes).
        let forbidden = match declaration.mode {
            Mode::Form => member == "url",
            Mode::Url => member == "requestedSchema",
            Mode::Invalid => false,
        };
        if forbidden {
            continue;
        }
        let expected = MEMBERS
            .iter()
            .find_map(|&(name, expected)| (name == member).then_some(expected));
        let problem = match expected {
            None if crate::value::is_extension(member) => None,
            None => Some(format!("`{member}` is not a declaration member")),
            Some(Type::Mode) => None,
            Some(Type::String) if !value.is_string() => {
                Some(format!("`{member}` must be a string"))
            }
            Some(Type::Object) if !value.is_object() => Some(format!(
                "`{member}` must be an object or a Reference Object"
            )),
            Some(Type::Strings) if !is_string_array(value) => {
                Some(format!("`{member}` must be an array of strings"))
            }
            Some(_) => None,
        };
        if let Some(message) = problem {
            report.error(rule::ELICITATION_SHAPE, &at.key(member), message);
        }
    }
}

/// `mcpdesc.elicitation.name`: the whole name matches `^[A-Za-z0-9._-]+$`.
fn check_name(declaration: &Declaration<'_>, report: &mut Report) {
    let Some(Value::String(name)) = declaration.object.get("name") else {
        return;
    };
    if !crate::value::is_local_name(name) {
        report.error(
            rule::ELICITATION_NAME,
            &declaration.pointer.key("name"),
            "a declaration name uses only letters, digits, `.`, `_` and `-`, at least one",
        );
    }
}

/// `mcpdesc.elicitation.mode`: every problem with `mode`, and only this rule.
fn check_mode(declaration: &Declaration<'_>, report: &mut Report) {
    if declaration.mode != Mode::Invalid {
        return;
    }
    match declaration.object.get("mode") {
        None => report.error(
            rule::ELICITATION_MODE,
            &declaration.pointer,
            "`mode` is missing",
        ),
        Some(_) => report.error(
            rule::ELICITATION_MODE,
            &declaration.pointer.key("mode"),
            "`mode` must be exactly \"form\" or \"url\"",
        ),
    }
}

/// `mcpdesc.elicitation.text`: text members hold at least one character.
fn check_texts(declaration: &Declaration<'_>, report: &mut Report) {
    for member in TEXTS {
        if let Some(Value::String(text)) = declaration.object.get(member)
            && text.is_empty()
        {
            report.error(
                rule::ELICITATION_TEXT,
                &declaration.pointer.key(member),
                format!("`{member}` must not be empty"),
            );
        }
    }
}

/// `mcpdesc.elicitation.mode-members`: form mode has a `requestedSchema` and
/// no `url`; URL mode has no `requestedSchema`. Values do not matter here.
fn check_mode_members(declaration: &Declaration<'_>, report: &mut Report) {
    let at = &declaration.pointer;
    let has = |member| declaration.object.contains_key(member);
    match declaration.mode {
        Mode::Form => {
            if !has("requestedSchema") {
                report.error(
                    rule::ELICITATION_MODE_MEMBERS,
                    at,
                    "a form-mode declaration needs `requestedSchema`",
                );
            }
            if has("url") {
                report.error(
                    rule::ELICITATION_MODE_MEMBERS,
                    &at.key("url"),
                    "a form-mode declaration has no `url`",
                );
            }
        }
        Mode::Url => {
            if has("requestedSchema") {
                report.error(
                    rule::ELICITATION_MODE_MEMBERS,
                    &at.key("requestedSchema"),
                    "a URL-mode declaration has no `requestedSchema`",
                );
            }
        }
        Mode::Invalid => {}
    }
}

/// `mcpdesc.elicitation.url`: in URL mode, a string `url` is an RFC 3986
/// `URI`. The URL is only parsed, never accessed.
fn check_url(declaration: &Declaration<'_>, report: &mut Report) {
    if declaration.mode != Mode::Url {
        return;
    }
    if let Some(Value::String(url)) = declaration.object.get("url")
        && !crate::value::is_uri(url)
    {
        report.error(
            rule::ELICITATION_URL,
            &declaration.pointer.key("url"),
            "`url` must be an absolute RFC 3986 URI with a scheme",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        ELICITATION_MODE as MODE, ELICITATION_MODE_MEMBERS as MEMBERS, ELICITATION_NAME as NAME,
        ELICITATION_NAME_UNIQUE as UNIQUE, ELICITATION_SHAPE as SHAPE, ELICITATION_TEXT as TEXT,
        ELICITATION_URL as URL,
    };
    use crate::tests::{E, assert_findings, form, tool, url, with};
    use crate::value::is_uri;

    fn one(declaration: Value) -> Value {
        with(json!({"tools": [tool(json!({"elicitations": [declaration]}))]}))
    }

    const AT: &str = "/tools/0/elicitations/0";

    #[test]
    fn complete_declarations_are_clean() {
        let doc = with(json!({"tools": [tool(json!({"elicitations": [
            form(json!({
                "when": "w", "onDecline": "d", "onCancel": "c",
                "protocolVersions": ["2025-11-25"], "x-note": {"any": 1}
            })),
            url(json!({"name": "u", "url": "https://example.com/a?b=c#d"})),
            url(json!({"name": "v", "url": null})),
        ]}))]}));
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn missing_name_and_message_point_at_the_declaration() {
        let doc = one(form(json!({"name": null, "message": null})));
        assert_findings(&doc, R2025_11_25, &[(SHAPE, AT, E)]);
    }

    #[test]
    fn wrong_types_and_unknown_members_point_at_the_member() {
        let doc = one(form(json!({
            "name": 1, "message": [], "when": false, "onDecline": {}, "onCancel": 0,
            "requestedSchema": "schema", "protocolVersions": "2025-11-25",
            "title": "t", "X-upper": 1
        })));
        let expected: Vec<(&str, String, _)> = [
            "name",
            "message",
            "when",
            "onDecline",
            "onCancel",
            "requestedSchema",
            "protocolVersions",
            "title",
            "X-upper",
        ]
        .into_iter()
        .map(|member| (SHAPE, format!("{AT}/{member}"), E))
        .collect();
        let expected: Vec<_> = expected
            .iter()
            .map(|(r, p, s)| (*r, p.as_str(), *s))
            .collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn url_mode_wrong_url_type_is_shape_only() {
        let doc = one(url(json!({"url": 5})));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(SHAPE, "/tools/0/elicitations/0/url", E)],
        );
    }

    #[test]
    fn names_match_the_whole_pattern() {
        for bad in [
            "",
            "has space",
            "a/b",
            "é",
            "a\nb",
            "tab\t",
            "trailing\n",
            "\u{0}",
        ] {
            let doc = one(form(json!({"name": bad})));
            assert_findings(
                &doc,
                R2025_11_25,
                &[(NAME, "/tools/0/elicitations/0/name", E)],
            );
        }
        for good in ["a", "A.b_c-9", "-", "..."] {
            assert_findings(&one(form(json!({"name": good}))), R2025_11_25, &[]);
        }
    }

    #[test]
    fn repeated_names_are_reported_after_the_first() {
        let doc = with(json!({
            "tools": [tool(json!({"elicitations": [
                form(json!({"name": "a"})),
                form(json!({"name": "A"})),
                form(json!({"name": "a"})),
                form(json!({"name": "bad name"})),
                form(json!({"name": "bad name"})),
                form(json!({"name": 3})),
                form(json!({"name": 3})),
                form(json!({"name": "a"}))
            ]}))],
            "prompts": [{"name": "p", "elicitations": [form(json!({"name": "a"}))]}]
        }));
        let at = |i: usize, m: &str| format!("/tools/0/elicitations/{i}/{m}");
        let expected = [
            (NAME, at(3, "name")),
            (NAME, at(4, "name")),
            (UNIQUE, at(2, "name")),
            (UNIQUE, at(4, "name")),
            (UNIQUE, at(7, "name")),
            (SHAPE, at(5, "name")),
            (SHAPE, at(6, "name")),
        ];
        let expected: Vec<_> = expected.iter().map(|(r, p)| (*r, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn every_mode_problem_is_a_mode_error_only() {
        let missing = one(form(json!({"mode": null})));
        assert_findings(&missing, R2025_11_25, &[(MODE, AT, E)]);
        for bad in [
            json!("Form"),
            json!("URL"),
            json!(""),
            json!(1),
            json!(["form"]),
        ] {
            let doc = one(form(json!({"mode": bad})));
            assert_findings(
                &doc,
                R2025_11_25,
                &[(MODE, "/tools/0/elicitations/0/mode", E)],
            );
        }
    }

    #[test]
    fn texts_need_one_character_and_whitespace_passes() {
        let doc = one(form(
            json!({"message": "", "when": "", "onDecline": "", "onCancel": " "}),
        ));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (TEXT, "/tools/0/elicitations/0/message", E),
                (TEXT, "/tools/0/elicitations/0/onDecline", E),
                (TEXT, "/tools/0/elicitations/0/when", E),
            ],
        );
    }

    #[test]
    fn form_mode_needs_a_schema_and_no_url() {
        let doc = one(form(json!({"requestedSchema": null, "url": "not a url"})));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (MEMBERS, AT, E),
                (MEMBERS, "/tools/0/elicitations/0/url", E),
            ],
        );
    }

    #[test]
    fn a_member_the_mode_forbids_is_not_type_checked() {
        let doc = one(form(json!({"url": 5})));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(MEMBERS, "/tools/0/elicitations/0/url", E)],
        );
        let doc =
            one(json!({"name": "n", "mode": "?", "message": "m", "url": 5, "requestedSchema": 5}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (MODE, "/tools/0/elicitations/0/mode", E),
                (SHAPE, "/tools/0/elicitations/0/requestedSchema", E),
                (SHAPE, "/tools/0/elicitations/0/url", E),
            ],
        );
    }

    #[test]
    fn url_mode_has_no_schema_whatever_its_value() {
        for schema in [
            json!({"type": "object", "properties": {}}),
            json!(7),
            json!({"$componentRef": "#/x"}),
        ] {
            let doc = one(url(json!({"requestedSchema": schema})));
            assert_findings(
                &doc,
                R2025_11_25,
                &[(MEMBERS, "/tools/0/elicitations/0/requestedSchema", E)],
            );
        }
    }

    #[test]
    fn mode_members_and_url_do_not_run_without_a_valid_mode() {
        let doc = one(json!({"name": "n", "mode": "other", "message": "m", "url": "::"}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(MODE, "/tools/0/elicitations/0/mode", E)],
        );
    }

    #[test]
    fn url_syntax_in_url_mode() {
        let doc = one(url(json!({"url": "//example.com/no-scheme"})));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(URL, "/tools/0/elicitations/0/url", E)],
        );
    }

    #[test]
    fn uri_syntax_follows_rfc_3986() {
        for good in [
            "https://example.com",
            "https://example.com/a/b?c=d#frag",
            "urn:a:b",
            "mailto:x",
            "x:",
            "https://example.com/%7Euser",
            "https://[::1]:8080/",
        ] {
            assert!(is_uri(good), "{good}");
        }
        for bad in [
            "",
            "example.com",
            "/relative",
            "//example.com",
            "https://example.com/a b",
            "https://example.com/%zz",
            "https://example.com/%7",
            "https://bücher.example/",
            "1http://example.com",
            "https://example.com/#a#b",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }
}
