//! Resources and Resource Templates (Section 10): Resource Annotations and
//! the RFC 6570 syntax of `uriTemplate`.

use iri_string::template::UriTemplateString;
use mcpdesc_protocol::Revision;
use serde_json::{Map, Value};

use crate::pointer::Pointer;
use crate::primitive::{Kind, Primitive};
use crate::report::Report;
use crate::rule;

/// The audiences a Resource Annotation may name (Section 10.3).
const AUDIENCES: [&str; 2] = ["user", "assistant"];

/// The first revision that defines `annotations.lastModified`.
const LAST_MODIFIED: Revision = Revision::of("2025-06-18");

/// Runs the Resource and Resource Template rules under `revision`.
pub(crate) fn check(primitives: &[Primitive<'_>], revision: Revision, report: &mut Report) {
    for primitive in primitives {
        if !matches!(primitive.kind, Kind::Resource | Kind::ResourceTemplate) {
            continue;
        }
        if let Some(annotations) = primitive.object.get("annotations") {
            let at = primitive.pointer.key("annotations");
            let in_scope = primitive.scope.includes(revision);
            check_resource_annotations(annotations, &at, revision, in_scope, report);
        }
        if primitive.kind == Kind::ResourceTemplate {
            check_template(primitive.object, &primitive.pointer, report);
        }
    }
}

/// The Resource Annotations rules on `annotations` at `at`, of a
/// declaration or a content block, under `revision`; `in_scope` says
/// whether the declaration (or the primitive whose example holds the
/// block) applies to it.
pub(crate) fn check_resource_annotations(
    annotations: &Value,
    at: &Pointer,
    revision: Revision,
    in_scope: bool,
    report: &mut Report,
) {
    check_annotations(annotations, at, report);
    if in_scope && revision < LAST_MODIFIED {
        check_last_modified_available(annotations, at, revision, report);
    }
}

/// `mcp.resource.annotations`: an object whose `audience` is an array of
/// `"user"` and `"assistant"`, whose `priority` is a number from 0 to 1 and
/// whose `lastModified` is an ISO 8601 date and time; other members are
/// open (forward compatibility).
fn check_annotations(annotations: &Value, at: &Pointer, report: &mut Report) {
    let rule = rule::RESOURCE_ANNOTATIONS;
    let Value::Object(annotations) = annotations else {
        report.error(rule, at, "`annotations` must be an object");
        return;
    };
    if let Some(audience) = annotations.get("audience") {
        let at = at.key("audience");
        match audience {
            Value::Array(items) => {
                for (index, _) in items.iter().enumerate().filter(|(_, item)| {
                    !item.as_str().is_some_and(|text| AUDIENCES.contains(&text))
                }) {
                    report.error(
                        rule,
                        &at.index(index),
                        "an audience is \"user\" or \"assistant\"",
                    );
                }
            }
            _ => report.error(rule, &at, "`audience` must be an array"),
        }
    }
    if let Some(priority) = annotations.get("priority")
        && !priority
            .as_f64()
            .is_some_and(|number| (0.0..=1.0).contains(&number))
    {
        report.error(
            rule,
            &at.key("priority"),
            "`priority` must be a number from 0 to 1",
        );
    }
    if let Some(modified) = annotations.get("lastModified")
        && !modified.as_str().is_some_and(is_date_time)
    {
        report.error(
            rule,
            &at.key("lastModified"),
            "`lastModified` must be an ISO 8601 date and time",
        );
    }
}

/// `mcp.resource.annotations.protocol-version` under a revision before
/// 2025-06-18: no `lastModified`, whatever its value.
fn check_last_modified_available(
    annotations: &Value,
    at: &Pointer,
    revision: Revision,
    report: &mut Report,
) {
    if annotations
        .as_object()
        .is_some_and(|annotations| annotations.contains_key("lastModified"))
    {
        report.error(
            rule::RESOURCE_ANNOTATIONS_PROTOCOL_VERSION,
            &at.key("lastModified"),
            format!("MCP {revision} defines no `lastModified` in Resource Annotations"),
        );
    }
}

/// Whether `text` is an ISO 8601 date and time in its extended format with
/// a time zone, the profile RFC 3339 and MCP's examples use:
/// `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`, each field in range.
fn is_date_time(text: &str) -> bool {
    let Some((date, time)) = text.split_once(['T', 't']) else {
        return false;
    };
    let (clock, zone) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => time.split_at(at),
        None => return false,
    };
    is_date(date) && is_clock(clock) && is_zone(zone)
}

/// `YYYY-MM-DD`, with the month's days (leap years counted).
fn is_date(date: &str) -> bool {
    let Some([year, month, day]) = fields::<3>(date, '-', &[4, 2, 2]) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `hh:mm:ss` with an optional fraction; a leap second (`:60`) allowed.
fn is_clock(clock: &str) -> bool {
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let Some([hour, minute, second]) = fields::<3>(whole, ':', &[2, 2, 2]) else {
        return false;
    };
    !fraction.is_empty()
        && fraction.bytes().all(|byte| byte.is_ascii_digit())
        && hour <= 23
        && minute <= 59
        && second <= 60
}

/// `Z`, or `+hh:mm` / `-hh:mm`.
fn is_zone(zone: &str) -> bool {
    if zone.eq_ignore_ascii_case("z") {
        return true;
    }
    let Some(offset) = zone.strip_prefix(['+', '-']) else {
        return false;
    };
    fields::<2>(offset, ':', &[2, 2]).is_some_and(|[hour, minute]| hour <= 23 && minute <= 59)
}

/// The `N` fields of `text` split at `separator`, each all digits of the
/// given width, as numbers.
fn fields<const N: usize>(text: &str, separator: char, widths: &[usize; N]) -> Option<[u32; N]> {
    let mut values = [0; N];
    let mut parts = text.split(separator);
    for (value, &width) in values.iter_mut().zip(widths) {
        let part = parts.next()?;
        if part.len() != width || !part.bytes().all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        *value = part.parse().ok()?;
    }
    parts.next().is_none().then_some(values)
}

/// `mcpdesc.resource-template.uri-template`: a string `uriTemplate` is an
/// RFC 6570 URI Template (any level).
fn check_template(template: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    let Some(Value::String(text)) = template.get("uriTemplate") else {
        return;
    };
    if uri_template(text).is_none() || !prefixes_in_range(text) {
        report.error(
            rule::RESOURCE_TEMPLATE_URI_TEMPLATE,
            &at.key("uriTemplate"),
            "`uriTemplate` is not an RFC 6570 URI Template",
        );
    }
}

/// `text` as an RFC 6570 URI Template, `None` when it is not one. The
/// parser (iri-string 0.7) takes ASCII only, while RFC 6570 (Section 2.1)
/// lets a literal hold the characters an IRI may (`ucschar`, `iprivate`):
/// each of those in a literal is given to it percent-encoded, as an
/// expansion writes it; any other character outside ASCII is refused.
pub(crate) fn uri_template(text: &str) -> Option<UriTemplateString> {
    let mut ascii = String::with_capacity(text.len());
    let mut in_expression = false;
    for character in text.chars() {
        match character {
            '{' => in_expression = true,
            '}' => in_expression = false,
            _ => {}
        }
        if character.is_ascii() || in_expression {
            ascii.push(character);
        } else if is_iri_literal(character) {
            let mut octets = [0; 4];
            for octet in character.encode_utf8(&mut octets).bytes() {
                ascii.push_str(&format!("%{octet:02X}"));
            }
        } else {
            return None;
        }
    }
    UriTemplateString::try_from(ascii).ok()
}

/// Whether `character`, outside ASCII, is RFC 3987's `ucschar` or
/// `iprivate`.
fn is_iri_literal(character: char) -> bool {
    let code = u32::from(character);
    let (plane, in_plane) = (code >> 16, code & 0xFFFF);
    match plane {
        // `ucschar` up to the surrogates, then `iprivate` and `ucschar`
        // around the noncharacters U+FDD0 to U+FDEF.
        0 => matches!(code, 0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0xFFEF),
        // Planes 1 to 13 and the private planes 15 and 16, less each
        // plane's last two code points; plane 14 from U+E1000.
        14 => (0x1000..=0xFFFD).contains(&in_plane),
        _ => in_plane <= 0xFFFD,
    }
}

/// Whether every prefix modifier (`{var:N}`) of a template that parsed is
/// RFC 6570's `max-length`: 1 to 9999, without a leading zero. The parser
/// (iri-string 0.7) takes any one to five digits, `:0` among them.
fn prefixes_in_range(template: &str) -> bool {
    template
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(expression, _)| expression))
        .flat_map(|expression| expression.split(','))
        .filter_map(|varspec| varspec.split_once(':').map(|(_, length)| length))
        .all(|length| {
            length.len() <= 4
                && !length.starts_with('0')
                && length.bytes().all(|byte| byte.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use super::is_date_time;
    use crate::rule::{
        RESOURCE_ANNOTATIONS as ANNOTATIONS,
        RESOURCE_ANNOTATIONS_PROTOCOL_VERSION as LAST_MODIFIED,
        RESOURCE_TEMPLATE_URI_TEMPLATE as TEMPLATE,
    };
    use crate::tests::{E, assert_findings, assert_findings_beside_legacy, with};

    #[test]
    fn dates_and_times_are_the_extended_format_with_a_zone() {
        for good in [
            "2025-01-12T15:00:58Z",
            "2025-01-12t15:00:58z",
            "2024-02-29T00:00:00.123+01:00",
            "1999-12-31T23:59:60-05:30",
        ] {
            assert!(is_date_time(good), "{good}");
        }
        for bad in [
            "2025-01-12",
            "2025-01-12T15:00:58",
            "2025-01-12 15:00:58Z",
            "2025-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2025-04-31T00:00:00Z",
            "2025-01-00T00:00:00Z",
            "2025-01-12T24:00:00Z",
            "2025-01-12T15:60:00Z",
            "2025-01-12T15:00:61Z",
            "2025-01-12T15:00:58.Z",
            "2025-01-12T15:00:58+0100",
            "2025-01-12T15:00:58+24:00",
            "25-01-12T15:00:58Z",
            "2025-1-12T15:00:58Z",
            "2025-01-12T15:00Z",
            "yesterday",
            "",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
        assert!(is_date_time("2000-02-29T00:00:00Z"));
        assert!(!is_date_time("1900-02-29T00:00:00Z"));
    }

    #[test]
    fn resource_annotations_have_their_types_and_ranges() {
        let doc = with(json!({
            "resources": [{"uri": "file:///a", "name": "a", "annotations": {
                "audience": ["user", "model", 3, "assistant"],
                "priority": 1.5,
                "lastModified": "last week",
                "readOnlyHint": "x",
                "x-a": 1
            }}, {"uri": "file:///b", "name": "b", "annotations": {
                "audience": "user", "priority": -0.1
            }}, {"uri": "file:///c", "name": "c", "annotations": {
                "audience": [], "priority": 0, "lastModified": "2025-01-12T15:00:58Z"
            }}, {"uri": "file:///d", "name": "d", "annotations": {"priority": 1}}],
            "resourceTemplates": [{"uriTemplate": "file:///{x}", "name": "x", "annotations": 5}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (ANNOTATIONS, "/resourceTemplates/0/annotations", E),
                (ANNOTATIONS, "/resources/0/annotations/audience/1", E),
                (ANNOTATIONS, "/resources/0/annotations/audience/2", E),
                (ANNOTATIONS, "/resources/0/annotations/lastModified", E),
                (ANNOTATIONS, "/resources/0/annotations/priority", E),
                (ANNOTATIONS, "/resources/1/annotations/audience", E),
                (ANNOTATIONS, "/resources/1/annotations/priority", E),
            ],
        );
    }

    #[test]
    fn last_modified_only_from_2025_06_18() {
        let mut doc = with(json!({
            "resources": [
                {"uri": "file:///a", "name": "a", "annotations": {"lastModified": "2025-01-12T15:00:58Z"}},
                {"uri": "file:///b", "name": "b", "protocolVersions": ["2025-06-18"],
                 "annotations": {"lastModified": "2025-01-12T15:00:58Z"}}
            ],
            "resourceTemplates": [{"uriTemplate": "file:///{x}", "name": "x",
                "annotations": {"lastModified": 7}}]
        }));
        doc["protocolVersions"] = json!(FIVE);
        for revision in [R2024_11_05, R2025_03_26] {
            assert_findings_beside_legacy(
                &doc,
                revision,
                &[
                    (
                        LAST_MODIFIED,
                        "/resourceTemplates/0/annotations/lastModified",
                        E,
                    ),
                    (LAST_MODIFIED, "/resources/0/annotations/lastModified", E),
                    (
                        ANNOTATIONS,
                        "/resourceTemplates/0/annotations/lastModified",
                        E,
                    ),
                ],
            );
        }
        assert_findings(
            &doc,
            R2025_06_18,
            &[(
                ANNOTATIONS,
                "/resourceTemplates/0/annotations/lastModified",
                E,
            )],
        );
    }

    #[test]
    fn templates_are_rfc_6570() {
        let templates = [
            ("file:///{path}", true),
            ("chess://games/{id}{?moves,limit}", true),
            ("https://example.com{/segments*}{#frag}", true),
            ("repo://{+path}/{owner,repo}/{id:3}", true),
            ("file:///static", true),
            ("file:///{path", false),
            ("file:///{}", false),
            ("file:///{a b}", false),
            ("file:///a b", false),
            ("file:///{id:0}", false),
            ("file:///{id:01}", false),
            ("file:///{id:10000}", false),
            ("file:///{id:9999}", true),
            ("file:///{a,id:1}", true),
            ("file:///{=id}", false),
            ("file:///}", false),
        ];
        let items: Vec<_> = templates
            .iter()
            .enumerate()
            .map(|(index, (template, _))| {
                json!({"uriTemplate": template, "name": format!("t{index}")})
            })
            .collect();
        let doc = with(json!({"resourceTemplates": items}));
        let broken: Vec<String> = templates
            .iter()
            .enumerate()
            .filter(|(_, (_, valid))| !valid)
            .map(|(index, _)| format!("/resourceTemplates/{index}/uriTemplate"))
            .collect();
        let expected: Vec<_> = broken.iter().map(|at| (TEMPLATE, at.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }
}
