//! Security (Section 7): the named Security Scheme Objects of the root
//! `securitySchemes`, and the Security Requirement Arrays that name them at
//! the root, on transports and on primitives.
//!
//! Rules on schemes: `mcpdesc.security.scheme-shape`, `.scheme-name` and
//! `.oauth-flows`. Rules on requirements: `.requirement-shape`,
//! `.scheme-reference`, `.scope-unique`, `.non-oauth-scopes` and the
//! warning `.uncatalogued-scope`. None depends on the revision: security is
//! not protocol-scoped beyond the object that carries it.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::document::Document;
use crate::icon;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::rule;
use crate::value::{is_extension, is_local_name};

/// The root member that names the schemes.
const SCHEMES: &str = "securitySchemes";

/// The member that holds a Security Requirement Array, wherever it stands.
const MEMBER: &str = "security";

/// The four flows an OAuth Flows Object may hold, each with the URLs it
/// requires (Section 7.2).
const FLOWS: [(&str, &[&str]); 4] = [
    ("implicit", &["authorizationUrl"]),
    ("password", &["tokenUrl"]),
    ("clientCredentials", &["tokenUrl"]),
    ("authorizationCode", &["authorizationUrl", "tokenUrl"]),
];

/// The URL members every OAuth Flow Object may hold.
const FLOW_URLS: [&str; 3] = ["authorizationUrl", "tokenUrl", "refreshUrl"];

/// The four kinds of Security Scheme Object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Http,
    ApiKey,
    OAuth2,
    OpenIdConnect,
}

impl Kind {
    /// Every kind with the `type` value that names it.
    const NAMED: [(&'static str, Kind); 4] = [
        ("http", Kind::Http),
        ("apiKey", Kind::ApiKey),
        ("oauth2", Kind::OAuth2),
        ("openIdConnect", Kind::OpenIdConnect),
    ];

    /// The kind a `type` value names, compared exactly.
    fn of(value: Option<&Value>) -> Option<Kind> {
        let value = value?.as_str()?;
        Kind::NAMED
            .iter()
            .find(|(name, _)| *name == value)
            .map(|(_, kind)| *kind)
    }

    /// The members this kind requires besides `type`.
    fn required(self) -> &'static [&'static str] {
        match self {
            Kind::Http => &["scheme"],
            Kind::ApiKey => &["name", "in"],
            Kind::OAuth2 => &["flows"],
            Kind::OpenIdConnect => &["openIdConnectUrl"],
        }
    }

    /// The members only this kind defines (`type` and `description` are
    /// every kind's).
    fn own_members(self) -> &'static [&'static str] {
        match self {
            Kind::Http => &["scheme", "bearerFormat"],
            Kind::ApiKey => &["name", "in"],
            Kind::OAuth2 => &["flows"],
            Kind::OpenIdConnect => &["openIdConnectUrl"],
        }
    }

    /// Whether requirements of this kind list scopes (Section 7.3: OAuth2
    /// and OpenID Connect do; HTTP and API-key schemes use `[]`).
    fn has_scopes(self) -> bool {
        matches!(self, Kind::OAuth2 | Kind::OpenIdConnect)
    }
}

/// Runs every security rule on the document.
pub(crate) fn check(document: &Document<'_>, report: &mut Report) {
    let Some(root) = document.root else {
        return;
    };
    let schemes = check_schemes(root, report);
    let at = Pointer::root();
    let places = std::iter::once((root, at.clone()))
        .chain(
            document
                .transports
                .iter()
                .map(|transport| (transport.object, transport.pointer.clone())),
        )
        .chain(
            document
                .primitives
                .iter()
                .map(|primitive| (primitive.object, primitive.pointer.clone())),
        );
    for (object, at) in places {
        if let Some(security) = object.get(MEMBER) {
            check_requirements(security, &at.key(MEMBER), schemes, report);
        }
    }
}

/// What requirements can be checked against: the root `securitySchemes`.
#[derive(Debug, Clone, Copy)]
enum Schemes<'a> {
    /// No `securitySchemes`: no name is declared.
    None,
    /// A `securitySchemes` that is not an object declares nothing
    /// checkable; its own rule reports it, and names are not checked.
    Unreadable,
    /// The declared schemes, by name.
    Declared(&'a Map<String, Value>),
}

/// `mcpdesc.security.scheme-shape`, `.scheme-name` and `.oauth-flows` on
/// the root `securitySchemes`; returns what requirements are checked
/// against.
fn check_schemes<'a>(root: &'a Map<String, Value>, report: &mut Report) -> Schemes<'a> {
    let at = Pointer::root().key(SCHEMES);
    let schemes = match root.get(SCHEMES) {
        None => return Schemes::None,
        Some(Value::Object(schemes)) => schemes,
        Some(_) => {
            report.error(
                rule::SECURITY_SCHEME_SHAPE,
                &at,
                "`securitySchemes` must be an object mapping names to Security Scheme Objects",
            );
            return Schemes::Unreadable;
        }
    };
    if schemes.is_empty() {
        report.error(
            rule::SECURITY_SCHEME_SHAPE,
            &at,
            "`securitySchemes` must name at least one scheme; leave it out when there is none",
        );
    }
    for (name, scheme) in schemes {
        let at = at.key(name);
        if !is_local_name(name) {
            report.error(
                rule::SECURITY_SCHEME_NAME,
                &at,
                "a scheme name uses only letters, digits, `.`, `_` and `-`, at least one",
            );
        }
        match scheme {
            Value::Object(scheme) => check_scheme(scheme, &at, report),
            _ => report.error(
                rule::SECURITY_SCHEME_SHAPE,
                &at,
                "a security scheme must be an object",
            ),
        }
    }
    Schemes::Declared(schemes)
}

/// `mcpdesc.security.scheme-shape` on one Security Scheme Object: its
/// `type`, its kind's required members, their types, and nothing else but
/// `description` and `x-` extensions. A scheme whose `type` names no kind
/// is reported at `type` alone.
fn check_scheme(scheme: &Map<String, Value>, at: &Pointer, report: &mut Report) {
    let Some(kind) = Kind::of(scheme.get("type")) else {
        let kinds = Kind::NAMED.map(|(name, _)| name);
        crate::kind::unknown_kind(
            report,
            rule::SECURITY_SCHEME_SHAPE,
            scheme,
            at,
            "security scheme",
            &kinds,
        );
        return;
    };
    for member in kind.required() {
        if !scheme.contains_key(*member) {
            report.error(
                rule::SECURITY_SCHEME_SHAPE,
                at,
                format!("`{member}` is missing"),
            );
        }
    }
    for (member, value) in scheme {
        let at = at.key(member);
        match member.as_str() {
            "type" => {}
            "flows" if kind == Kind::OAuth2 => check_flows(value, &at, report),
            "description" => check_string(value, &at, report),
            own if kind.own_members().contains(&own) => {
                check_string(value, &at, report);
                match (own, value) {
                    ("in", Value::String(place))
                        if !matches!(place.as_str(), "header" | "query" | "cookie") =>
                    {
                        report.error(
                            rule::SECURITY_SCHEME_SHAPE,
                            &at,
                            "`in` is `header`, `query` or `cookie`",
                        );
                    }
                    ("openIdConnectUrl", _) => icon::check_uri(Some(value), &at, report),
                    _ => {}
                }
            }
            _ if is_extension(member) => {}
            _ => report.error(
                rule::SECURITY_SCHEME_SHAPE,
                &at,
                format!("this security scheme has no member `{member}`"),
            ),
        }
    }
}

/// A scheme member typed as a string.
fn check_string(value: &Value, at: &Pointer, report: &mut Report) {
    if !value.is_string() {
        report.error(
            rule::SECURITY_SCHEME_SHAPE,
            at,
            "this member must be a string",
        );
    }
}

/// `mcpdesc.security.oauth-flows`: an OAuth Flows Object holding at least
/// one of the four flows and nothing else but `x-` extensions; each flow
/// an object with `scopes` and the URLs its kind requires.
fn check_flows(flows: &Value, at: &Pointer, report: &mut Report) {
    let Value::Object(flows) = flows else {
        report.error(rule::SECURITY_OAUTH_FLOWS, at, "`flows` must be an object");
        return;
    };
    if !FLOWS.iter().any(|(flow, _)| flows.contains_key(*flow)) {
        report.error(
            rule::SECURITY_OAUTH_FLOWS,
            at,
            "`flows` must hold at least one of `implicit`, `password`, `clientCredentials` and `authorizationCode`",
        );
    }
    for (name, flow) in flows {
        let at = at.key(name);
        let Some((_, urls)) = FLOWS.iter().find(|(flow, _)| flow == name) else {
            if !is_extension(name) {
                report.error(
                    rule::SECURITY_OAUTH_FLOWS,
                    &at,
                    format!("`{name}` is not an OAuth flow"),
                );
            }
            continue;
        };
        match flow {
            Value::Object(flow) => check_flow(flow, urls, &at, report),
            _ => report.error(rule::SECURITY_OAUTH_FLOWS, &at, "a flow must be an object"),
        }
    }
}

/// One OAuth Flow Object of the flows table.
fn check_flow(flow: &Map<String, Value>, required: &[&str], at: &Pointer, report: &mut Report) {
    for member in std::iter::once(&"scopes").chain(required) {
        if !flow.contains_key(*member) {
            report.error(
                rule::SECURITY_OAUTH_FLOWS,
                at,
                format!("`{member}` is missing"),
            );
        }
    }
    for (member, value) in flow {
        let at = at.key(member);
        if FLOW_URLS.contains(&member.as_str()) {
            if value.is_string() {
                icon::check_uri(Some(value), &at, report);
            } else {
                report.error(
                    rule::SECURITY_OAUTH_FLOWS,
                    &at,
                    format!("`{member}` must be a string"),
                );
            }
        } else if member == "scopes" {
            check_scope_catalogue(value, &at, report);
        } else if !is_extension(member) {
            report.error(
                rule::SECURITY_OAUTH_FLOWS,
                &at,
                format!("an OAuth flow has no member `{member}`"),
            );
        }
    }
}

/// A flow's `scopes`: an object from scope names to string descriptions.
fn check_scope_catalogue(scopes: &Value, at: &Pointer, report: &mut Report) {
    let Value::Object(scopes) = scopes else {
        report.error(
            rule::SECURITY_OAUTH_FLOWS,
            at,
            "`scopes` must be an object mapping scope names to descriptions",
        );
        return;
    };
    for (name, description) in scopes {
        if !description.is_string() {
            report.error(
                rule::SECURITY_OAUTH_FLOWS,
                &at.key(name),
                "a scope's description must be a string",
            );
        }
    }
}

/// The rules on one Security Requirement Array at `at`.
fn check_requirements(security: &Value, at: &Pointer, schemes: Schemes<'_>, report: &mut Report) {
    let Value::Array(alternatives) = security else {
        report.error(
            rule::SECURITY_REQUIREMENT_SHAPE,
            at,
            "`security` must be an array of Security Requirement Objects",
        );
        return;
    };
    for (index, requirement) in alternatives.iter().enumerate() {
        let at = at.index(index);
        let Value::Object(requirement) = requirement else {
            report.error(
                rule::SECURITY_REQUIREMENT_SHAPE,
                &at,
                "a security requirement must be an object",
            );
            continue;
        };
        for (name, scopes) in requirement {
            check_requirement(name, scopes, &at.key(name), schemes, report);
        }
    }
}

/// One scheme name of a Security Requirement Object with its scopes.
fn check_requirement(
    name: &str,
    scopes: &Value,
    at: &Pointer,
    schemes: Schemes<'_>,
    report: &mut Report,
) {
    let scheme = match schemes {
        Schemes::Unreadable => None,
        Schemes::None => {
            undeclared(name, at, report);
            None
        }
        Schemes::Declared(schemes) => match schemes.get(name) {
            None => {
                undeclared(name, at, report);
                None
            }
            Some(scheme) => scheme.as_object(),
        },
    };
    let Value::Array(scopes) = scopes else {
        report.error(
            rule::SECURITY_REQUIREMENT_SHAPE,
            at,
            "a requirement's scopes must be an array of strings",
        );
        return;
    };
    let mut seen = HashSet::new();
    for (index, scope) in scopes.iter().enumerate() {
        let Value::String(scope) = scope else {
            report.error(
                rule::SECURITY_REQUIREMENT_SHAPE,
                &at.index(index),
                "a scope must be a string",
            );
            continue;
        };
        if !seen.insert(scope.as_str()) {
            report.error(
                rule::SECURITY_SCOPE_UNIQUE,
                &at.index(index),
                format!("`{scope}` is already listed for this scheme"),
            );
        }
    }
    let Some(scheme) = scheme else {
        return;
    };
    let Some(kind) = Kind::of(scheme.get("type")) else {
        return;
    };
    if !kind.has_scopes() {
        if !scopes.is_empty() {
            report.error(
                rule::SECURITY_NON_OAUTH_SCOPES,
                at,
                "an HTTP or API-key scheme takes no scopes: its requirement is `[]`",
            );
        }
        return;
    }
    let catalogue = catalogue(scheme);
    for (index, scope) in scopes.iter().enumerate() {
        if let Value::String(scope) = scope
            && !catalogue.contains(scope.as_str())
        {
            report.warning(
                rule::SECURITY_UNCATALOGUED_SCOPE,
                &at.index(index),
                format!("no flow of the scheme lists the scope `{scope}`"),
            );
        }
    }
}

/// `mcpdesc.security.scheme-reference`.
fn undeclared(name: &str, at: &Pointer, report: &mut Report) {
    report.error(
        rule::SECURITY_SCHEME_REFERENCE,
        at,
        format!("`securitySchemes` names no scheme `{name}`"),
    );
}

/// The scopes a scheme lists statically: the names of the `scopes` maps of
/// an OAuth2 scheme's flows. An OpenID Connect scheme lists none (its
/// scopes come from a discovery document, which is never retrieved).
fn catalogue(scheme: &Map<String, Value>) -> HashSet<&str> {
    let Some(Value::Object(flows)) = scheme.get("flows") else {
        return HashSet::new();
    };
    flows
        .values()
        .filter_map(|flow| flow.get("scopes")?.as_object())
        .flat_map(|scopes| scopes.keys().map(String::as_str))
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::tests::revisions::*;
    use serde_json::{Value, json};

    use crate::rule::{
        SECURITY_NON_OAUTH_SCOPES as NON_OAUTH, SECURITY_OAUTH_FLOWS as FLOWS,
        SECURITY_REQUIREMENT_SHAPE as REQUIREMENT, SECURITY_SCHEME_NAME as NAME,
        SECURITY_SCHEME_REFERENCE as REFERENCE, SECURITY_SCHEME_SHAPE as SHAPE,
        SECURITY_SCOPE_UNIQUE as UNIQUE, SECURITY_UNCATALOGUED_SCOPE as UNCATALOGUED, VALUE_URI,
    };
    use crate::tests::{E, W, assert_findings, tool, with};

    fn oauth() -> Value {
        json!({"type": "oauth2", "flows": {"authorizationCode": {
            "authorizationUrl": "https://auth.example.com/authorize",
            "tokenUrl": "https://auth.example.com/token",
            "scopes": {"games:read": "Read games"}
        }}})
    }

    fn schemes() -> Value {
        json!({
            "oauth": oauth(),
            "api-key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT", "description": "d"},
            "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://auth.example.com/.well-known/openid-configuration"}
        })
    }

    #[test]
    fn schemes_and_requirements_everywhere_are_clean() {
        let doc = with(json!({
            "securitySchemes": schemes(),
            "security": [{"oauth": ["games:read"]}, {"api-key": []}],
            "transports": [
                {"type": "stdio", "command": "s", "security": []},
                {"type": "streamable-http", "url": "https://example.com/mcp", "security": [{}, {"bearer": []}]}
            ],
            "tools": [tool(json!({"security": [{"oauth": [], "api-key": []}]}))]
        }));
        assert_findings(&doc, R2025_11_25, &[]);
    }

    #[test]
    fn the_scheme_map_is_a_non_empty_object_of_named_objects() {
        for (schemes, at) in [
            (json!({}), "/securitySchemes"),
            (json!([oauth()]), "/securitySchemes"),
        ] {
            assert_findings(
                &with(json!({"securitySchemes": schemes})),
                R2025_11_25,
                &[(SHAPE, at, E)],
            );
        }
        let doc = with(json!({"securitySchemes": {
            "has space": {"type": "http", "scheme": "basic"},
            "": 7,
            "x-ext": {"type": "http", "scheme": "basic"}
        }}));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (NAME, "/securitySchemes/", E),
                (NAME, "/securitySchemes/has space", E),
                (SHAPE, "/securitySchemes/", E),
            ],
        );
    }

    #[test]
    fn scheme_types_members_and_closed_tables() {
        let doc = with(json!({"securitySchemes": {
            "a": {"scheme": "basic"},
            "b": {"type": "HTTP", "anything": 1},
            "c": {"type": 1},
            "d": {"type": "http"},
            "e": {"type": "apiKey", "in": "body", "name": 7},
            "f": {"type": "apiKey"},
            "g": {"type": "oauth2"},
            "h": {"type": "openIdConnect", "openIdConnectUrl": "not a uri"},
            "i": {"type": "http", "scheme": "bearer", "flows": {}, "name": "n", "x-ok": 1, "description": 5},
            "j": {"type": "openIdConnect", "openIdConnectUrl": 5, "bearerFormat": "JWT"}
        }}));
        let at = |rest: &str| format!("/securitySchemes/{rest}");
        let expected = [
            (SHAPE, at("a")),
            (SHAPE, at("b/type")),
            (SHAPE, at("c/type")),
            (SHAPE, at("d")),
            (SHAPE, at("e/in")),
            (SHAPE, at("e/name")),
            (SHAPE, at("f")),
            (SHAPE, at("g")),
            (VALUE_URI, at("h/openIdConnectUrl")),
            (SHAPE, at("i/description")),
            (SHAPE, at("i/flows")),
            (SHAPE, at("i/name")),
            (SHAPE, at("j/bearerFormat")),
            (SHAPE, at("j/openIdConnectUrl")),
        ];
        let expected: Vec<_> = expected.iter().map(|(r, p)| (*r, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn oauth_flows() {
        let doc = with(json!({"securitySchemes": {
            "a": {"type": "oauth2", "flows": []},
            "b": {"type": "oauth2", "flows": {"x-custom": {}}},
            "c": {"type": "oauth2", "flows": {"deviceCode": {}, "implicit": 7}},
            "d": {"type": "oauth2", "flows": {
                "implicit": {"scopes": {}},
                "password": {"tokenUrl": "https://a.example/t"},
                "clientCredentials": {"scopes": {"s": 1}, "tokenUrl": 5, "extra": true},
                "authorizationCode": {"scopes": [], "authorizationUrl": "relative/path", "refreshUrl": "https://a.example/r", "x-ok": 1}
            }}
        }}));
        let at = |rest: &str| format!("/securitySchemes/{rest}");
        let expected = [
            (FLOWS, at("a/flows")),
            (FLOWS, at("b/flows")),
            (FLOWS, at("c/flows/deviceCode")),
            (FLOWS, at("c/flows/implicit")),
            (FLOWS, at("d/flows/authorizationCode")),
            (FLOWS, at("d/flows/authorizationCode/scopes")),
            (FLOWS, at("d/flows/clientCredentials/extra")),
            (FLOWS, at("d/flows/clientCredentials/scopes/s")),
            (FLOWS, at("d/flows/clientCredentials/tokenUrl")),
            (FLOWS, at("d/flows/implicit")),
            (FLOWS, at("d/flows/password")),
            (VALUE_URI, at("d/flows/authorizationCode/authorizationUrl")),
        ];
        let expected: Vec<_> = expected.iter().map(|(r, p)| (*r, p.as_str(), E)).collect();
        assert_findings(&doc, R2025_11_25, &expected);
    }

    #[test]
    fn requirement_shapes() {
        let doc = with(json!({
            "securitySchemes": schemes(),
            "security": {"oauth": []},
            "transports": [{"type": "stdio", "command": "s", "security": [[], {"oauth": "games:read"}, {"oauth": ["games:read", 7]}]}],
            "prompts": [{"name": "p", "security": "none"}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (REQUIREMENT, "/prompts/0/security", E),
                (REQUIREMENT, "/security", E),
                (REQUIREMENT, "/transports/0/security/0", E),
                (REQUIREMENT, "/transports/0/security/1/oauth", E),
                (REQUIREMENT, "/transports/0/security/2/oauth/1", E),
            ],
        );
    }

    #[test]
    fn names_must_be_declared_schemes() {
        let doc = with(json!({
            "securitySchemes": schemes(),
            "security": [{"oauth": [], "Oauth": []}, {"x-oauth": []}],
            "tools": [tool(json!({"security": [{"missing": ["a"]}]}))]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (REFERENCE, "/security/0/Oauth", E),
                (REFERENCE, "/security/1/x-oauth", E),
                (REFERENCE, "/tools/0/security/0/missing", E),
            ],
        );
        // Without `securitySchemes` no name is declared; with one that is
        // not an object, names are not checked.
        let doc = with(json!({"security": [{"oauth": []}]}));
        assert_findings(&doc, R2025_11_25, &[(REFERENCE, "/security/0/oauth", E)]);
        let doc = with(json!({"securitySchemes": "oauth", "security": [{"oauth": []}]}));
        assert_findings(&doc, R2025_11_25, &[(SHAPE, "/securitySchemes", E)]);
    }

    #[test]
    fn scopes_are_unique_empty_for_http_and_api_keys_and_catalogued() {
        let doc = with(json!({
            "securitySchemes": schemes(),
            "security": [
                {"oauth": ["games:read", "games:write", "games:read", "games:read"]},
                {"bearer": ["admin"], "api-key": []},
                {"api-key": ["x", "x"]},
                {"oidc": ["openid"]}
            ]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (NON_OAUTH, "/security/1/bearer", E),
                (NON_OAUTH, "/security/2/api-key", E),
                (UNCATALOGUED, "/security/0/oauth/1", W),
                (UNCATALOGUED, "/security/3/oidc/0", W),
                (UNIQUE, "/security/0/oauth/2", E),
                (UNIQUE, "/security/0/oauth/3", E),
                (UNIQUE, "/security/2/api-key/1", E),
            ],
        );
    }

    #[test]
    fn a_scheme_of_unknown_type_or_malformed_flows_still_resolves_names() {
        let doc = with(json!({
            "securitySchemes": {"a": {"type": "mutualTLS"}, "b": 7, "c": {"type": "oauth2", "flows": 7}},
            "security": [{"a": ["s"], "b": ["s"], "c": ["s"]}]
        }));
        assert_findings(
            &doc,
            R2025_11_25,
            &[
                (FLOWS, "/securitySchemes/c/flows", E),
                (SHAPE, "/securitySchemes/a/type", E),
                (SHAPE, "/securitySchemes/b", E),
                (UNCATALOGUED, "/security/0/c/0", W),
            ],
        );
    }
}
