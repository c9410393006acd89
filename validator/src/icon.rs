//! Icons (Appendix A) and the URI-typed members of the document's metadata.
//!
//! Rules: `mcpdesc.icon.shape` on every `icons` list (the Info Object's and
//! each primitive's) and `mcpdesc.value.uri` on the members the
//! specification types as URIs here: `info.websiteUrl`, `info.contact.url`,
//! `info.license.url` and every icon's `src`. Neither depends on the MCP
//! revision: Info is unscoped (Section 5), and an icon's shape is the same
//! wherever it is.

use serde_json::{Map, Value};

use crate::document::Document;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::value::{is_extension, is_uri};

/// The member that holds a list of icons.
const MEMBER: &str = "icons";

/// The two themes an icon may be designed for.
const THEMES: [&str; 2] = ["light", "dark"];

/// Runs the icon and URI rules on `document`.
pub(crate) fn check(document: &Document<'_>, report: &mut Report) {
    let Some(root) = document.root else {
        return;
    };
    let mut owners: Vec<(Pointer, &Map<String, Value>)> = Vec::new();
    if let Some(Value::Object(info)) = root.get("info") {
        let at = Pointer::root().key("info");
        check_uri(info.get("websiteUrl"), &at.key("websiteUrl"), report);
        for member in ["contact", "license"] {
            if let Some(Value::Object(object)) = info.get(member) {
                check_uri(object.get("url"), &at.key(member).key("url"), report);
            }
        }
        owners.push((at, info));
    }
    for primitive in &document.primitives {
        owners.push((primitive.pointer.clone(), primitive.object));
    }
    for (at, owner) in owners {
        if let Some(icons) = owner.get(MEMBER) {
            check_icons(icons, &at.key(MEMBER), report);
        }
    }
}

/// `mcpdesc.value.uri`: a string that is not an RFC 3986 URI; any other
/// value is the caller's shape rule's to judge.
pub(crate) fn check_uri(value: Option<&Value>, at: &Pointer, report: &mut Report) {
    if let Some(Value::String(text)) = value
        && !is_uri(text)
    {
        report.error(
            rule::VALUE_URI,
            at,
            "this member holds an absolute RFC 3986 URI, with a scheme",
        );
    }
}

/// `mcpdesc.icon.shape` on one `icons` member: a non-empty array of Icon
/// Objects.
fn check_icons(icons: &Value, at: &Pointer, report: &mut Report) {
    let items = match icons {
        Value::Array(items) if !items.is_empty() => items,
        Value::Array(_) => {
            report.error(
                rule::ICON_SHAPE,
                at,
                "`icons` must hold at least one icon; leave it out when there is none",
            );
            return;
        }
        _ => {
            report.error(rule::ICON_SHAPE, at, "`icons` must be an array");
            return;
        }
    };
    for (index, item) in items.iter().enumerate() {
        let at = at.index(index);
        match item {
            Value::Object(icon) => check_icon(icon, &at, report),
            _ => report.error(rule::ICON_SHAPE, &at, "an icon must be an object"),
        }
    }
}

/// The members of one Icon Object.
fn check_icon(icon: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    if !icon.contains_key("src") {
        report.error(rule::ICON_SHAPE, at, "an icon's `src` is missing");
    }
    for (member, value) in icon {
        let problem = match member.as_str() {
            "src" | "mimeType" if !value.is_string() => {
                Some(format!("`{member}` must be a string"))
            }
            "src" | "mimeType" => None,
            "sizes" => (!crate::value::is_string_array(value))
                .then(|| "`sizes` must be an array of strings".to_owned()),
            "theme" => (!value.as_str().is_some_and(|theme| THEMES.contains(&theme)))
                .then(|| "`theme` must be `light` or `dark`".to_owned()),
            _ if is_extension(member) => None,
            _ => Some(format!("an Icon Object has no member `{member}`")),
        };
        if let Some(problem) = problem {
            report.error(rule::ICON_SHAPE, &at.key(member), problem);
        }
    }
    check_uri(icon.get("src"), &at.key("src"), report);
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::json;

    use crate::rule::{ICON_SHAPE as ICON, VALUE_URI as URI};
    use crate::tests::{E, assert_findings, tool, with};

    #[test]
    fn icon_lists_on_info_and_primitives() {
        let doc = with(json!({
            "info": {"name": "n", "version": "1", "icons": [
                {"src": "https://example.com/a.png", "sizes": ["any"], "theme": "dark", "x-a": 1},
                {"theme": "Light", "mimeType": 1, "sizes": [48], "scale": 2},
                "a.png"
            ]},
            "tools": [tool(json!({"icons": []}))],
            "prompts": [{"name": "p", "icons": {}}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (ICON, "/info/icons/1", E),
                (ICON, "/info/icons/1/mimeType", E),
                (ICON, "/info/icons/1/scale", E),
                (ICON, "/info/icons/1/sizes", E),
                (ICON, "/info/icons/1/theme", E),
                (ICON, "/info/icons/2", E),
                (ICON, "/prompts/0/icons", E),
                (ICON, "/tools/0/icons", E),
            ],
        );
    }

    #[test]
    fn uri_members_hold_uris() {
        let doc = with(json!({
            "info": {
                "name": "n", "version": "1",
                "websiteUrl": "example.com",
                "contact": {"url": "https://example.com/a b", "email": "not a uri"},
                "license": {"name": "MIT", "url": "urn:spdx:MIT"},
                "icons": [{"src": "data:image/png;base64,AA=="}, {"src": "icons/a.png"}, {"src": 5}]
            },
            "tools": [tool(json!({"icons": [{"src": "https://é.example.com/i.png"}]}))]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (ICON, "/info/icons/2/src", E),
                (URI, "/info/contact/url", E),
                (URI, "/info/icons/1/src", E),
                (URI, "/info/websiteUrl", E),
                (URI, "/tools/0/icons/0/src", E),
            ],
        );
    }
}
