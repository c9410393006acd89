//! The document as a whole: its root members, and the rules on them.
//!
//! [`Document::read`] walks the root once and keeps what the other rule
//! families share: the root scope, the primitives with their effective
//! scopes, the transports with theirs, and the components Reference Objects
//! resolve in.

use mcpdesc_protocol::Revisions;
use serde_json::{Map, Value};

use crate::component::Components;
use crate::pointer::Pointer;
use crate::primitive::{self, Primitive};
use crate::report::Report;
use crate::rule;
use crate::scope::{self, Scope};
use crate::transport::{self, Transport};
use crate::value::is_extension;

/// The MCP Description version this validator targets.
pub(crate) const SPECIFICATION: &str = mcpdesc_protocol::SPECIFICATION_VERSION;

/// What the rule families need to know about a document.
#[derive(Debug)]
pub(crate) struct Document<'a> {
    /// The root, when it is an object.
    pub(crate) root: Option<&'a Map<String, Value>>,
    /// The root scope.
    pub(crate) scope: Scope<'a>,
    /// Every primitive that is an object, in document order.
    pub(crate) primitives: Vec<Primitive<'a>>,
    /// The namespaces of `components` that Reference Objects resolve in.
    pub(crate) components: Components<'a>,
    /// Every transport that is an object, in document order.
    pub(crate) transports: Vec<Transport<'a>>,
}

impl<'a> Document<'a> {
    /// Reads what the rules share from `value`; never fails.
    /// `known` is the list of revisions a document may name, which a missing
    /// root scope stands for.
    pub(crate) fn read(value: &'a Value, known: &'a Revisions) -> Self {
        let root = value.as_object();
        let scope = root.map_or(Scope::All(known), |root| Scope::of_root(root, known));
        let primitives = root.map_or_else(Vec::new, |root| primitive::collect(root, scope));
        let transports = root.map_or_else(Vec::new, |root| transport::collect(root, scope));
        Document {
            root,
            scope,
            primitives,
            components: Components::read(root),
            transports,
        }
    }
}

/// `mcpdesc.document.shape` and `mcpdesc.document.specification-version`.
pub(crate) fn check(value: &Value, report: &mut Report) {
    let at = Pointer::root();
    let Some(root) = value.as_object() else {
        report.error(
            rule::DOCUMENT_SHAPE,
            &at,
            "the document must be a JSON object",
        );
        return;
    };

    match root.get("mcpdesc") {
        None => report.error(rule::DOCUMENT_SHAPE, &at, "`mcpdesc` is missing"),
        Some(Value::String(version)) if version != SPECIFICATION => report.error(
            rule::DOCUMENT_SPECIFICATION_VERSION,
            &at.key("mcpdesc"),
            format!("this validator targets MCP Description {SPECIFICATION}, not `{version}`"),
        ),
        Some(Value::String(_)) => {}
        Some(_) => report.error(
            rule::DOCUMENT_SHAPE,
            &at.key("mcpdesc"),
            "`mcpdesc` must be a string",
        ),
    }

    match root.get("info") {
        None => report.error(rule::DOCUMENT_SHAPE, &at, "`info` is missing"),
        Some(Value::Object(info)) => check_info(info, &at.key("info"), report),
        Some(_) => report.error(
            rule::DOCUMENT_SHAPE,
            &at.key("info"),
            "`info` must be an object",
        ),
    }

    match root.get(scope::MEMBER) {
        None => report.error(rule::DOCUMENT_SHAPE, &at, "`protocolVersions` is missing"),
        Some(Value::Array(_)) => {}
        Some(_) => report.error(
            rule::DOCUMENT_SHAPE,
            &at.key(scope::MEMBER),
            "`protocolVersions` must be an array",
        ),
    }

    check_components(root, &at, report);
    check_root_members(root, report);
}

/// Every member the root may hold (Section 3.2), besides `x-` extensions.
const ROOT_MEMBERS: [&str; 15] = [
    "$schema",
    "mcpdesc",
    "info",
    "protocolVersions",
    "instructions",
    "transports",
    "securitySchemes",
    "security",
    "components",
    "capabilities",
    "tools",
    "resources",
    "resourceTemplates",
    "prompts",
    "tags",
];

/// The root is closed (Section 3.8): a member outside the table of Section
/// 3.2 that is not an `x-` extension is an error at that member; `$schema`
/// and `instructions` are strings.
fn check_root_members(root: &Map<String, Value>, report: &mut Report) {
    let at = Pointer::root();
    for (member, value) in root {
        if !is_extension(member) && !ROOT_MEMBERS.contains(&member.as_str()) {
            report.error(
                rule::DOCUMENT_SHAPE,
                &at.key(member),
                format!("the document root has no member `{member}`"),
            );
        }
        if matches!(member.as_str(), "$schema" | "instructions") && !value.is_string() {
            report.error(
                rule::DOCUMENT_SHAPE,
                &at.key(member),
                format!("`{member}` must be a string"),
            );
        }
    }
}

/// `components`, when present, is an object; what it holds is the
/// component rules' business.
fn check_components(root: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    if let Some(components) = root.get("components")
        && !components.is_object()
    {
        report.error(
            rule::DOCUMENT_SHAPE,
            &at.key("components"),
            "`components` must be an object",
        );
    }
}

/// The Info Object (Section 5): `name` and `version` present, strings, not
/// empty; the optional members of the table with their types; `contact` and
/// `license` as their tables say; nothing else but `x-` extensions.
/// `icons` is `mcpdesc.icon.shape`'s, and whether a URI member holds a URI
/// is `mcpdesc.value.uri`'s.
fn check_info(info: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    for member in ["name", "version"] {
        match info.get(member) {
            None => report.error(
                rule::DOCUMENT_SHAPE,
                at,
                format!("`info.{member}` is missing"),
            ),
            Some(Value::String(text)) if !text.is_empty() => {}
            Some(Value::String(_)) => report.error(
                rule::DOCUMENT_SHAPE,
                &at.key(member),
                format!("`info.{member}` must not be empty"),
            ),
            Some(_) => report.error(
                rule::DOCUMENT_SHAPE,
                &at.key(member),
                format!("`info.{member}` must be a string"),
            ),
        }
    }
    for (member, value) in info {
        let problem = match member.as_str() {
            "name" | "version" | "icons" => None,
            "title" | "description" | "id" | "websiteUrl" => {
                (!value.is_string()).then(|| format!("`info.{member}` must be a string"))
            }
            "contact" => match value {
                Value::Object(contact) => {
                    check_closed(
                        contact,
                        &at.key(member),
                        &["name", "url", "email"],
                        &[],
                        report,
                    );
                    None
                }
                _ => Some("`info.contact` must be an object".to_owned()),
            },
            "license" => match value {
                Value::Object(license) => {
                    check_closed(
                        license,
                        &at.key(member),
                        &["name", "url"],
                        &["name"],
                        report,
                    );
                    None
                }
                _ => Some("`info.license` must be an object".to_owned()),
            },
            _ if is_extension(member) => None,
            _ => Some(format!("the Info Object has no member `{member}`")),
        };
        if let Some(problem) = problem {
            report.error(rule::DOCUMENT_SHAPE, &at.key(member), problem);
        }
    }
}

/// A closed object whose members are all strings: the Contact and License
/// Objects (Sections 5.2, 5.3). A missing required member is reported at
/// the object, a member of another type or not in `members` (and not an
/// `x-` extension) at the member.
fn check_closed(
    object: &Map<String, Value>,
    at: &Pointer,
    members: &[&str],
    required: &[&str],
    report: &mut Report,
) {
    for member in required {
        if !object.contains_key(*member) {
            report.error(rule::DOCUMENT_SHAPE, at, format!("`{member}` is missing"));
        }
    }
    for (member, value) in object {
        if members.contains(&member.as_str()) {
            if !value.is_string() {
                report.error(
                    rule::DOCUMENT_SHAPE,
                    &at.key(member),
                    format!("`{member}` must be a string"),
                );
            }
        } else if !is_extension(member) {
            report.error(
                rule::DOCUMENT_SHAPE,
                &at.key(member),
                format!("no member `{member}` is defined here"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{DOCUMENT_SHAPE as SHAPE, DOCUMENT_SPECIFICATION_VERSION as VERSION};
    use crate::tests::{E, assert_findings, base, with};

    #[test]
    fn the_base_document_is_clean() {
        assert_findings(&base(), R2025_06_18, &[]);
    }

    #[test]
    fn non_object_roots_are_shape_errors_at_the_root() {
        for root in [
            json!(null),
            json!([]),
            json!("0.9.0"),
            json!(1),
            json!(true),
        ] {
            assert_findings(&root, R2025_11_25, &[(SHAPE, "", E)]);
        }
    }

    #[test]
    fn missing_members_point_at_the_root() {
        assert_findings(&json!({"x-test": true}), R2025_11_25, &[(SHAPE, "", E)]);
        assert_findings(&with(json!({"info": null})), R2025_11_25, &[(SHAPE, "", E)]);
    }

    #[test]
    fn wrongly_typed_members_point_at_the_member() {
        let doc = with(json!({"mcpdesc": 0.9, "info": [], "protocolVersions": "2025-11-25"}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/info", E),
                (SHAPE, "/mcpdesc", E),
                (SHAPE, "/protocolVersions", E),
            ],
        );
    }

    #[test]
    fn info_name_and_version() {
        let doc = with(json!({"info": {"name": "", "version": 1}}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(SHAPE, "/info/name", E), (SHAPE, "/info/version", E)],
        );
        let doc = with(json!({"info": {"name": " "}}));
        assert_findings(&doc, R2025_11_25, &[(SHAPE, "/info", E)]);
    }

    #[test]
    fn specification_version_compares_exactly() {
        for version in ["0.9.0-rc.3", "0.9", "", "0.9.0 "] {
            let doc = with(json!({"mcpdesc": version}));
            assert_findings(&doc, R2025_11_25, &[(VERSION, "/mcpdesc", E)]);
        }
    }

    #[test]
    fn components_must_be_an_object() {
        for components in [json!([]), json!("schemas"), json!(null)] {
            // `with` drops null members, so the member is set directly.
            let mut doc = base();
            doc["components"] = components;
            assert_findings(&doc, R2025_11_25, &[(SHAPE, "/components", E)]);
        }
    }

    #[test]
    fn the_root_is_closed_but_for_extensions() {
        let doc = with(json!({
            "x-anything": {"deep": [1]},
            "transports": 5,
            "security": "whatever",
            "somethingElse": 0,
            "X-upper": 1,
            "$schema": 7,
            "instructions": "Ask first."
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/$schema", E),
                (SHAPE, "/X-upper", E),
                (SHAPE, "/somethingElse", E),
                // What `transports` and `security` hold is their own
                // rules' business.
                (crate::rule::SECURITY_REQUIREMENT_SHAPE, "/security", E),
                (crate::rule::TRANSPORT_SHAPE, "/transports", E),
            ],
        );
    }

    #[test]
    fn info_members_contact_and_license() {
        let doc = with(json!({"info": {
            "name": "n", "version": "1", "title": 1, "description": "d", "id": [],
            "websiteUrl": "https://example.com", "x-a": 1, "summary": "s",
            "contact": {"name": "c", "email": 3, "phone": "1", "x-b": 2},
            "license": {"url": "https://example.com"}
        }}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (SHAPE, "/info/contact/email", E),
                (SHAPE, "/info/contact/phone", E),
                (SHAPE, "/info/id", E),
                (SHAPE, "/info/license", E),
                (SHAPE, "/info/summary", E),
                (SHAPE, "/info/title", E),
            ],
        );
        let doc =
            with(json!({"info": {"name": "n", "version": "1", "contact": [], "license": "MIT"}}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[(SHAPE, "/info/contact", E), (SHAPE, "/info/license", E)],
        );
    }
}
