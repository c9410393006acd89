//! Whether a URI is an RFC 6570 expansion of a URI template (Section
//! 10.4.3): whether some values of the template's variables (strings,
//! lists, maps, or undefined) expand to it.
//!
//! The template is read into literals and expressions, and the URI is
//! matched against them left to right, each expression taking a stretch of
//! the URI that its operator could have produced; every split is tried,
//! remembered per (part, position) so that the work stays polynomial.

use crate::resource::uri_template;

/// One variable of an expression: its name, whether it is exploded (`*`),
/// and its prefix length (`:n`).
#[derive(Debug)]
struct Variable<'a> {
    name: &'a str,
    explode: bool,
    prefix: Option<usize>,
}

/// An expression's operator, as RFC 6570 Section 3.2.1's table has it.
#[derive(Debug, Clone, Copy)]
struct Operator {
    /// What a non-empty expansion starts with.
    first: &'static str,
    /// What separates the values (or named pairs).
    separator: char,
    /// Whether values are written `name=value`.
    named: bool,
    /// Whether reserved characters may stand unencoded (`+` and `#`).
    reserved: bool,
}

impl Operator {
    fn of(symbol: Option<char>) -> Operator {
        let (first, separator, named, reserved) = match symbol {
            Some('+') => ("", ',', false, true),
            Some('#') => ("#", ',', false, true),
            Some('.') => (".", '.', false, false),
            Some('/') => ("/", '/', false, false),
            Some(';') => (";", ';', true, false),
            Some('?') => ("?", '&', true, false),
            Some('&') => ("&", '&', true, false),
            _ => ("", ',', false, false),
        };
        Operator {
            first,
            separator,
            named,
            reserved,
        }
    }
}

/// A piece of a template.
#[derive(Debug)]
enum Part<'a> {
    Literal(&'a str),
    Expression(Operator, Vec<Variable<'a>>),
}

/// Whether `uri` is an expansion of `template`; `None` when the template
/// is not an RFC 6570 template (which `mcpdesc.resource-template.uri-template`
/// reports).
pub(super) fn expands_to(template: &str, uri: &str) -> Option<bool> {
    uri_template(template)?;
    let parts = parse(template)?;
    let mut seen = vec![vec![false; uri.len() + 1]; parts.len() + 1];
    Some(matches(&parts, 0, uri, 0, &mut seen))
}

/// The template's literals and expressions, `None` when an expression is
/// not closed or not well formed.
fn parse(template: &str) -> Option<Vec<Part<'_>>> {
    let mut parts = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        let Some(open) = rest.find('{') else {
            parts.push(Part::Literal(rest));
            break;
        };
        // An empty literal matches the empty stretch: harmless.
        parts.push(Part::Literal(&rest[..open]));
        let close = open + rest[open..].find('}')?;
        parts.push(expression(&rest[open + 1..close])?);
        rest = &rest[close + 1..];
    }
    Some(parts)
}

/// One expression's operator and variables, from the text between its
/// braces; any other first character starts a variable name (the caller
/// has made sure the template is well formed).
fn expression(body: &str) -> Option<Part<'_>> {
    let (operator, list) = match body.chars().next()? {
        symbol @ ('+' | '#' | '.' | '/' | ';' | '?' | '&') => {
            (Operator::of(Some(symbol)), &body[1..])
        }
        _ => (Operator::of(None), body),
    };
    let variables = list
        .split(',')
        .map(|spec| {
            let (name, explode, prefix) = if let Some(name) = spec.strip_suffix('*') {
                (name, true, None)
            } else if let Some((name, length)) = spec.split_once(':') {
                (name, false, Some(length.parse().ok()?))
            } else {
                (spec, false, None)
            };
            (!name.is_empty()).then_some(Variable {
                name,
                explode,
                prefix,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Part::Expression(operator, variables))
}

/// Whether `uri[at..]` is an expansion of `parts[index..]`; `failed` marks
/// the (part, position) pairs already found not to match.
fn matches(
    parts: &[Part<'_>],
    index: usize,
    uri: &str,
    at: usize,
    failed: &mut [Vec<bool>],
) -> bool {
    if index == parts.len() {
        return at == uri.len();
    }
    if failed[index][at] {
        return false;
    }
    let found = match &parts[index] {
        Part::Literal(literal) => literal_at(literal, &uri[at..])
            .is_some_and(|length| matches(parts, index + 1, uri, at + length, failed)),
        Part::Expression(operator, variables) => (at..=uri.len())
            .filter(|end| uri.is_char_boundary(*end))
            .any(|end| {
                expansion(*operator, variables, &uri[at..end])
                    && matches(parts, index + 1, uri, end, failed)
            }),
    };
    if !found {
        failed[index][at] = true;
    }
    found
}

/// The length of `literal`'s expansion when `uri` starts with it, `None`
/// when it does not. RFC 6570 (Section 3.1) copies a literal's URI
/// characters and percent-encoded triplets and percent-encodes the UTF-8
/// octets of any other character; hexadecimal digits compare without case,
/// as RFC 3986 makes `%c3` and `%C3` the same.
fn literal_at(literal: &str, uri: &str) -> Option<usize> {
    let mut expanded = String::new();
    for character in literal.chars() {
        // Every ASCII character a valid template's literal holds is a URI
        // character or part of a triplet, and is copied.
        if character.is_ascii() {
            expanded.push(character);
        } else {
            let mut octets = [0; 4];
            for octet in character.encode_utf8(&mut octets).bytes() {
                expanded.push_str(&format!("%{octet:02X}"));
            }
        }
    }
    let start = uri.get(..expanded.len())?.as_bytes();
    let wanted = expanded.as_bytes();
    // A byte of a triplet's digits is one or two places after its `%`.
    let in_triplet = |at: usize| (1..=2).any(|back| at >= back && wanted[at - back] == b'%');
    (0..wanted.len())
        .all(|at| {
            start[at] == wanted[at]
                || (in_triplet(at) && start[at].eq_ignore_ascii_case(&wanted[at]))
        })
        .then_some(wanted.len())
}

/// Whether `text` is what one expression can expand to.
fn expansion(operator: Operator, variables: &[Variable<'_>], text: &str) -> bool {
    // Every variable undefined (or an empty list or map): nothing at all.
    if text.is_empty() {
        return true;
    }
    let Some(rest) = text.strip_prefix(operator.first) else {
        return false;
    };
    let exploded = variables.iter().any(|variable| variable.explode);
    let prefix = match variables {
        [only] => only.prefix,
        _ => None,
    };
    // With `,` as the separator, a list's own commas and the separator look
    // alike: only the characters can be judged.
    if operator.separator == ',' {
        return characters(rest, operator.reserved, true) && within(rest, prefix);
    }
    let items: Vec<&str> = rest.split(operator.separator).collect();
    if !exploded && items.len() > variables.len() {
        return false;
    }
    if !operator.named {
        return items
            .iter()
            .all(|item| characters(item, operator.reserved, true) && within(item, prefix));
    }
    // Without an exploded variable each name stands once, for its own
    // variable and with that variable's prefix.
    let mut named = Vec::new();
    items.iter().all(|item| {
        let (name, value) = match item.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (*item, None),
        };
        // `?` and `&` write `name=` for an empty value; `;` writes `name`.
        if value.is_none() && operator.first != ";" {
            return false;
        }
        let value = value.unwrap_or("");
        let variable = variables.iter().find(|variable| variable.name == name);
        // An exploded map names its own keys.
        let map_key = exploded && !name.is_empty() && characters(name, false, false);
        let fresh = exploded || !named.contains(&name);
        named.push(name);
        let prefix = variable.and_then(|variable| variable.prefix);
        (variable.is_some() || map_key)
            && fresh
            && characters(value, operator.reserved, true)
            && within(value, prefix)
    })
}

/// Whether every character of `text` may stand in an expansion: unreserved
/// characters and `%` (the URI is a URI, checked before, so each `%` starts
/// a triplet of hexadecimal digits, which are unreserved), reserved ones
/// too when `reserved`, and `,` (a list's joint) when `comma`.
fn characters(text: &str, reserved: bool, comma: bool) -> bool {
    text.bytes().all(|byte| {
        byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'%')
            || (comma && byte == b',')
            || (reserved && b":/?#[]@!$&'()*+,;=".contains(&byte))
    })
}

/// Whether `value` holds at most `prefix` characters, a percent-encoded
/// triplet counting as one.
fn within(value: &str, prefix: Option<usize>) -> bool {
    let Some(prefix) = prefix else {
        return true;
    };
    // A stretch the matcher tries may cut a triplet short: it counts no
    // fewer characters than nothing.
    let triplets = value.matches('%').count();
    value.len().saturating_sub(2 * triplets) <= prefix
}

#[cfg(test)]
mod tests {
    use super::expands_to;

    #[test]
    fn expansions_follow_each_operator() {
        for (template, uri) in [
            ("books://isbn/{isbn}", "books://isbn/978-0441013593"),
            ("books://isbn/{isbn}", "books://isbn/"),
            ("file:///{+path}", "file:///docs/a/b.txt"),
            ("file:///{path}", "file:///a%2Fb"),
            ("chess://games{/id,move}", "chess://games/g1/12"),
            ("chess://games{/id*}", "chess://games/a/b/c"),
            (
                "chess://games{?player,colour}",
                "chess://games?player=p1&colour=white",
            ),
            ("chess://games{?player,colour}", "chess://games?player="),
            ("chess://games{;page}", "chess://games;page"),
            ("chess://games{&x}", "chess://games&x=1"),
            ("chess://games{?keys*}", "chess://games?a=1&b=2"),
            ("chess://doc{#section}", "chess://doc#intro/a"),
            ("chess://p/{id:3}", "chess://p/abc"),
            ("chess://p/{id:3}", "chess://p/%41bc"),
            ("chess://host{.ext}", "chess://host.json"),
            ("chess://{a}{b}", "chess://xy"),
            ("chess://list/{ids}", "chess://list/1,2,3"),
            ("chess://clubs/ü/{id}", "chess://clubs/%C3%BC/7"),
            ("chess://clubs/ü/{id}", "chess://clubs/%c3%bc/7"),
            ("chess://clubs/caf%C3%A9/{id}", "chess://clubs/caf%c3%a9/7"),
            (
                "chess://clubs/\u{E000}\u{10FFFD}/{id}",
                "chess://clubs/%EE%80%80%F4%8F%BF%BD/7",
            ),
            (
                "chess://clubs/\u{E1000}/{id}",
                "chess://clubs/%F3%A1%80%80/7",
            ),
            (
                "chess://games{?player:2,colour}",
                "chess://games?colour=white&player=p1",
            ),
            ("chess://games{?keys*}", "chess://games?a=1&a=2"),
        ] {
            assert_eq!(expands_to(template, uri), Some(true), "{template} {uri}");
        }
    }

    #[test]
    fn other_uris_are_not_expansions() {
        for (template, uri) in [
            ("books://isbn/{isbn}", "books://author/x"),
            ("books://isbn/{isbn}", "books://isbn/a/b"),
            ("books://isbn/{isbn}", "books://isbn/a b"),
            ("chess://games{/id,move}", "chess://games/a/b/c"),
            ("chess://games{?player}", "chess://games?colour=white"),
            ("chess://games{?player}", "chess://games?player"),
            ("chess://games{?player}", "chess://games&player=x"),
            ("chess://p/{id:3}", "chess://p/abcd"),
            ("chess://{a}/x", "chess://b"),
            ("chess://clubs/ü/{id}", "chess://clubs/u/7"),
            ("Chess://clubs/{id}", "chess://clubs/7"),
            (
                "chess://games{?player:2,colour}",
                "chess://games?player=p1&player=p2",
            ),
            (
                "chess://games{?player:2,colour}",
                "chess://games?player=p12",
            ),
            (
                "chess://games{;player,colour}",
                "chess://games;colour;colour",
            ),
        ] {
            assert_eq!(expands_to(template, uri), Some(false), "{template} {uri}");
        }
    }

    #[test]
    fn a_template_that_cannot_be_read_judges_nothing() {
        for template in [
            "books://{isbn",
            "books://{}",
            "books://{!x}",
            "books://{a:x}",
            "books://{=x}",
            // Outside `ucschar` and `iprivate`: a C1 control, a noncharacter.
            "books://\u{85}/{x}",
            "books://\u{FDD0}/{x}",
            "books://\u{1FFFE}/{x}",
            "books://\u{E0001}/{x}",
            // A variable name is ASCII.
            "books://{ü}",
        ] {
            assert_eq!(expands_to(template, "books://x"), None, "{template}");
        }
    }
}
