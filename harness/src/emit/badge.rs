//! Badges: a run's pass rates as shields.io endpoint JSON and as
//! self-contained SVG files, so that a project can commit or publish them.
//!
//! There is one badge per level (verdict, rules, exact) overall, and one per
//! level and revision that had cases: the file stems are the level
//! (`exact`) and the level with the revision (`exact-2025-06-18`), and each
//! stem is written twice, as `exact.json` and `exact.svg`.
//!
//! - The JSON file is what shields.io's endpoint badge reads
//!   (`https://img.shields.io/endpoint?url=…`): `schemaVersion`, `label`,
//!   `message` and `color`.
//! - The SVG file is the same badge drawn here, in the shape of shields'
//!   "flat" style, with no network, no external service and no font file:
//!   text widths come from a fixed table of Verdana 11px advances, so the
//!   output depends on the summary alone.
//!
//! The message is the pass rate rounded *down* to one decimal (`97.3%`), as
//! every output writes rates ([`Percent`]), so a badge never says `100.0%`
//! unless every judged case passed; `n/a` when no case was judged (all
//! skipped). It goes on with what the rate is of: the rules judged, of all
//! the catalogs', and the suite's version (`97.3% · 20/20 rules · suite
//! 0.2.0`). The color follows the same rounded-down rate: brightgreen at
//! 100 % (blue instead when the validator claims only part of the rules:
//! brightgreen means full conformance), green from 95 %, yellow from 80 %,
//! orange from 50 %, red below, lightgrey for `n/a`.
//!
//! An emitter calls it once a run has finished, with the run's summary:
//!
//! ```no_run
//! # fn example(results: &[mcpdesc_conformance::outcome::CaseResult]) -> Result<(), Box<dyn std::error::Error>> {
//! use mcpdesc_conformance::{emit::badge, judge::summary::Summary};
//!
//! let summary = Summary::of(results);
//! let scope = badge::Scope { claimed: 20, catalog: 20, version: "0.2.0".into() };
//! // An interrupted run's rates cover only the cases that finished:
//! // better no badge than a wrong one.
//! if summary.total.interrupted == 0 {
//!     for path in badge::write(std::path::Path::new("badges"), &summary, &scope)? {
//!         eprintln!("wrote {}", path.display());
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! [`write()`] creates the folder, replaces each file atomically, and leaves
//! every other file in the folder alone (a badge of a revision that a later
//! run no longer has stays until removed). [`badges`] gives the badges
//! without writing them, for a caller that publishes them another way.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::emit::escape;
use crate::file::{self, FileError};
use crate::judge::summary::{Percent, Summary, Tally};
use crate::outcome::claims::Claims;
use crate::outcome::comparison::Level;

/// The word every label starts with.
const LABEL_PREFIX: &str = "mcpdesc";

/// A badge's color: shields.io's named colors for a pass rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Every judged case passed.
    BrightGreen,
    /// 95 % or more passed.
    Green,
    /// 80 % or more passed.
    Yellow,
    /// 50 % or more passed.
    Orange,
    /// Less than 50 % passed.
    Red,
    /// Every judged case passed, but on part of the rules: the validator
    /// claims fewer than the catalogs hold, so the badge cannot wear the
    /// full-conformance green.
    Blue,
    /// Nothing was judged.
    LightGrey,
}

impl Color {
    /// The color of a pass rate of `passed` out of `judged` cases. The
    /// thresholds are compared in integers, so 94.99 % is never green.
    pub fn of_rate(passed: usize, judged: usize) -> Color {
        let (passed, judged) = (passed.min(judged) as u128, judged as u128);
        if judged == 0 {
            Color::LightGrey
        } else if passed == judged {
            Color::BrightGreen
        } else if passed * 100 >= judged * 95 {
            Color::Green
        } else if passed * 100 >= judged * 80 {
            Color::Yellow
        } else if passed * 100 >= judged * 50 {
            Color::Orange
        } else {
            Color::Red
        }
    }

    /// The name shields.io knows the color by (the endpoint JSON's `color`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::BrightGreen => "brightgreen",
            Color::Green => "green",
            Color::Yellow => "yellow",
            Color::Orange => "orange",
            Color::Red => "red",
            Color::Blue => "blue",
            Color::LightGrey => "lightgrey",
        }
    }

    /// The color as shields.io draws it, for the SVG.
    pub const fn hex(self) -> &'static str {
        match self {
            Color::BrightGreen => "#4c1",
            Color::Green => "#97ca00",
            Color::Yellow => "#dfb317",
            Color::Orange => "#fe7d37",
            Color::Red => "#e05d44",
            Color::Blue => "#007ec6",
            Color::LightGrey => "#9f9f9f",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One badge: a label on the left, a message on the right, in a color.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// The left text, such as `mcpdesc exact 2025-06-18`.
    pub label: String,
    /// The right text, such as `97.3%` or `n/a`.
    pub message: String,
    /// The right side's color.
    pub color: Color,
}

/// The endpoint JSON document, in shields.io's field names and order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Endpoint<'a> {
    schema_version: u8,
    label: &'a str,
    message: &'a str,
    color: &'static str,
}

/// What a run's badges are badges of: the rules judged, of all the
/// catalogs', and the suite's version. Every badge says it in its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Rules the validator is judged on.
    pub claimed: usize,
    /// Rules in the catalogs.
    pub catalog: usize,
    /// The suite's version.
    pub version: String,
}

impl Scope {
    /// The scope of a run that claims `claims` on a suite of `version`.
    pub fn of(claims: &Claims, version: &str) -> Scope {
        Scope {
            claimed: claims.claimed,
            catalog: claims.catalog,
            version: version.to_owned(),
        }
    }
}

impl Badge {
    /// The badge of a pass rate of `passed` out of `judged` cases: its
    /// message is the rate rounded down to one decimal ([`Percent`]:
    /// `100.0%` only when all passed, `n/a` when `judged` is 0), its color
    /// [`Color::of_rate`].
    pub fn pass_rate(label: impl Into<String>, passed: usize, judged: usize) -> Badge {
        Badge {
            label: label.into(),
            message: rate_message(passed, judged),
            color: Color::of_rate(passed, judged),
        }
    }

    /// [`Badge::pass_rate`] of a run on `scope`: the message adds the rules
    /// judged and the suite's version (`100.0% · 6/20 rules · suite
    /// 0.2.0`), and a run judged on part of the rules is never
    /// brightgreen, the colour of full conformance: blue instead.
    pub fn of_scope(
        label: impl Into<String>,
        passed: usize,
        judged: usize,
        scope: &Scope,
    ) -> Badge {
        let mut badge = Badge::pass_rate(label, passed, judged);
        badge.message = format!(
            "{} · {}/{} rules · suite {}",
            badge.message, scope.claimed, scope.catalog, scope.version
        );
        if scope.claimed < scope.catalog && badge.color == Color::BrightGreen {
            badge.color = Color::Blue;
        }
        badge
    }

    /// The shields.io endpoint JSON document, pretty-printed with a final
    /// line break.
    pub fn endpoint_json(&self) -> String {
        let endpoint = Endpoint {
            schema_version: 1,
            label: &self.label,
            message: &self.message,
            color: self.color.name(),
        };
        let mut text = serde_json::to_string_pretty(&endpoint)
            .expect("a struct of strings and a number serializes");
        text.push('\n');
        text
    }

    /// The badge as a self-contained SVG document in the flat style, with
    /// a final line break. Label and message are escaped: control
    /// characters made visible as in the human report, then XML's five
    /// special characters written as entities.
    pub fn svg(&self) -> String {
        let label = escape::line(&self.label);
        let message = escape::line(&self.message);
        let label_text = text_width(&label);
        let message_text = text_width(&message);
        // Each side is its text, rounded up to whole pixels, and 5 px of
        // padding either side.
        let label_side = label_text.div_ceil(10) * 10 + 100;
        let message_side = message_text.div_ceil(10) * 10 + 100;
        let width = Px(label_side + message_side);
        let (label_x, message_x) = (Px(label_side / 2), Px(label_side + message_side / 2));
        let (label_side, message_side) = (Px(label_side), Px(message_side));
        let (label_text, message_text) = (Px(label_text), Px(message_text));
        let title = xml(&format!("{label}: {message}"));
        let (label, message) = (xml(&label), xml(&message));
        let color = self.color.hex();
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label="{title}">
  <title>{title}</title>
  <linearGradient id="s" x2="0" y2="100%">
    <stop offset="0" stop-color="#bbb" stop-opacity=".1"/>
    <stop offset="1" stop-opacity=".1"/>
  </linearGradient>
  <clipPath id="r">
    <rect width="{width}" height="20" rx="3" fill="#fff"/>
  </clipPath>
  <g clip-path="url(#r)">
    <rect width="{label_side}" height="20" fill="#555"/>
    <rect x="{label_side}" width="{message_side}" height="20" fill="{color}"/>
    <rect width="{width}" height="20" fill="url(#s)"/>
  </g>
  <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">
    <text aria-hidden="true" x="{label_x}" y="15" fill="#010101" fill-opacity=".3" textLength="{label_text}">{label}</text>
    <text x="{label_x}" y="14" textLength="{label_text}">{label}</text>
    <text aria-hidden="true" x="{message_x}" y="15" fill="#010101" fill-opacity=".3" textLength="{message_text}">{message}</text>
    <text x="{message_x}" y="14" textLength="{message_text}">{message}</text>
  </g>
</svg>
"##
        )
    }
}

/// The badges of `summary`, each with its file stem: for each level
/// (loosest first), the overall badge (`exact`, labelled `mcpdesc exact`),
/// then one per revision that had cases, oldest first (`exact-2025-06-18`,
/// labelled `mcpdesc exact 2025-06-18`). Skipped cases count neither way; a
/// case that crashed, timed out or was not run counts as failed.
pub fn badges(summary: &Summary, scope: &Scope) -> Vec<(String, Badge)> {
    let mut badges = Vec::with_capacity(Level::ALL.len() * (1 + summary.per_revision.len()));
    for level in Level::ALL {
        badges.push((
            level.as_str().to_owned(),
            of_tally(
                format!("{LABEL_PREFIX} {level}"),
                &summary.total,
                level,
                scope,
            ),
        ));
        for (revision, tally) in &summary.per_revision {
            let revision = revision.as_str();
            badges.push((
                format!("{level}-{revision}"),
                of_tally(
                    format!("{LABEL_PREFIX} {level} {revision}"),
                    tally,
                    level,
                    scope,
                ),
            ));
        }
    }
    badges
}

fn of_tally(label: String, tally: &Tally, level: Level, scope: &Scope) -> Badge {
    Badge::of_scope(label, tally.passed_at(level), tally.judged(), scope)
}

/// Writes the [`badges`] of `summary` into `dir` (created with its parents
/// when missing): `STEM.json` and `STEM.svg` for each, in that order.
/// Each file is written to a temporary file of its own in `dir` and renamed
/// into place, so a reader (or a web server) never sees half a badge.
/// Returns the paths written.
///
/// # Errors
///
/// The first I/O error, with the path it concerns; the files written before
/// it stay.
pub fn write(dir: &Path, summary: &Summary, scope: &Scope) -> Result<Vec<PathBuf>, FileError> {
    fs::create_dir_all(dir).map_err(file::at(dir))?;
    let mut written = Vec::new();
    for (stem, badge) in badges(summary, scope) {
        for (extension, text) in [("json", badge.endpoint_json()), ("svg", badge.svg())] {
            let path = dir.join(format!("{stem}.{extension}"));
            file::replace(&path, &text, ".badge-", ".tmp")?;
            written.push(path);
        }
    }
    Ok(written)
}

/// The pass rate's text: rounded down to one decimal, so only a full pass
/// reads `100.0%`.
fn rate_message(passed: usize, judged: usize) -> String {
    Percent::of(passed, judged).map_or_else(|| "n/a".to_owned(), |percent| percent.to_string())
}

/// A length in tenths of a pixel, printed in pixels with at most one
/// decimal: integers keep the SVG the same on every platform.
#[derive(Clone, Copy)]
struct Px(u32);

impl fmt::Display for Px {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 % 10 {
            0 => write!(f, "{}", self.0 / 10),
            tenths => write!(f, "{}.{tenths}", self.0 / 10),
        }
    }
}

/// Verdana's advance widths at 11px, in tenths of a pixel, for the
/// printable ASCII characters from space (0x20) to `~` (0x7e). Approximate
/// (rounded from the font's metrics, no kerning); the SVG's `textLength`
/// makes the renderer fit the text to them whatever font it has.
const ASCII_WIDTHS: [u8; 95] = [
    39, 43, 51, 90, 70, 118, 78, 30, 50, 50, 70, 90, 40, 47, 40, 50, // space to /
    70, 70, 70, 70, 70, 70, 70, 70, 70, 70, // 0 to 9
    50, 50, 90, 90, 90, 60, 110, // : to @
    75, 75, 77, 85, 70, 63, 85, 83, 46, 50, 76, 61, 93, // A to M
    82, 87, 66, 87, 76, 75, 68, 81, 75, 109, 75, 68, 75, // N to Z
    50, 50, 50, 90, 70, 70, // [ to `
    66, 69, 57, 69, 66, 39, 69, 70, 30, 38, 65, 30, 107, // a to m
    70, 67, 69, 69, 47, 57, 43, 70, 65, 90, 65, 65, 58, // n to z
    70, 50, 70, 90, // { to ~
];

/// The estimated width of `text` at 11px, in tenths of a pixel.
fn text_width(text: &str) -> u32 {
    text.chars().map(char_width).sum()
}

fn char_width(c: char) -> u32 {
    match c {
        ' '..='~' => u32::from(ASCII_WIDTHS[c as usize - 0x20]),
        // Combining marks add no width.
        '\u{0300}'..='\u{036f}' => 0,
        // Other Latin letters: about an average letter.
        '\u{00a0}'..='\u{024f}' => 70,
        // Anything else (CJK, symbols, the replacement character): a full
        // em, too wide rather than clipped.
        _ => 110,
    }
}

/// `text` with XML's five special characters written as entities, fit for
/// element content and for double- or single-quoted attribute values.
/// Characters XML 1.0 does not allow at all are replaced with U+FFFD; the
/// callers pass text through [`escape::line`] first, which leaves no control
/// character, so only the noncharacters U+FFFE and U+FFFF remain to replace.
fn xml(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' | '\n' | '\r' => escaped.push(c),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => escaped.push('\u{fffd}'),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use mcpdesc_protocol::Revision;

    use super::*;

    /// A tally of `cases` cases, `skipped` of them skipped, with `passed`
    /// passes at the verdict, rules and exact levels.
    fn tally(cases: usize, skipped: usize, passed: [usize; 3]) -> Tally {
        Tally {
            cases,
            skipped,
            passed,
            ..Tally::default()
        }
    }

    fn summary() -> Summary {
        let old = tally(10, 10, [0, 0, 0]);
        let new = tally(40, 0, [40, 39, 37]);
        Summary {
            per_revision: [
                (Revision::of("2024-11-05"), old),
                (Revision::of("2025-06-18"), new),
            ]
            .into(),
            total: tally(50, 10, [40, 39, 37]),
            ..Summary::default()
        }
    }

    fn full() -> Scope {
        Scope {
            claimed: 20,
            catalog: 20,
            version: "0.2.0".into(),
        }
    }

    /// A run judged on part of the rules says so in every badge, and never
    /// wears brightgreen even when every judged case passed.
    #[test]
    fn a_partial_claim_is_stated_and_is_never_full_green() {
        let partial = Scope {
            claimed: 6,
            ..full()
        };
        let badge = Badge::of_scope("mcpdesc exact", 10, 10, &partial);
        assert_eq!(badge.message, "100.0% · 6/20 rules · suite 0.2.0");
        assert_eq!(badge.color, Color::Blue);
        let badge = Badge::of_scope("mcpdesc exact", 10, 10, &full());
        assert_eq!(badge.message, "100.0% · 20/20 rules · suite 0.2.0");
        assert_eq!(badge.color, Color::BrightGreen);
        // Below 100 % the thresholds decide, as for a full claim.
        assert_eq!(Badge::of_scope("l", 9, 10, &partial).color, Color::Yellow);
        for (_, badge) in badges(&summary(), &partial) {
            assert!(
                badge.message.ends_with(" · 6/20 rules · suite 0.2.0"),
                "{}",
                badge.message
            );
            assert_ne!(badge.color, Color::BrightGreen, "{}", badge.label);
        }
    }

    #[test]
    fn the_color_follows_the_thresholds() {
        let cases = [
            ((0, 0), Color::LightGrey),
            ((7, 7), Color::BrightGreen),
            ((9999, 10000), Color::Green),
            ((19, 20), Color::Green),
            ((9499, 10000), Color::Yellow),
            ((4, 5), Color::Yellow),
            ((7999, 10000), Color::Orange),
            ((1, 2), Color::Orange),
            ((4999, 10000), Color::Red),
            ((0, 3), Color::Red),
        ];
        for ((passed, judged), color) in cases {
            assert_eq!(Color::of_rate(passed, judged), color, "{passed}/{judged}");
        }
    }

    #[test]
    fn the_message_is_the_rate_rounded_down() {
        let cases = [
            ((0, 0), "n/a"),
            ((12, 12), "100.0%"),
            ((9996, 10000), "99.9%"),
            ((999_999, 1_000_000), "99.9%"),
            ((973, 1000), "97.3%"),
            ((2, 3), "66.6%"),
            ((1, 2), "50.0%"),
            ((0, 5), "0.0%"),
        ];
        for ((passed, judged), message) in cases {
            assert_eq!(
                Badge::pass_rate("l", passed, judged).message,
                message,
                "{passed}/{judged}"
            );
        }
    }

    #[test]
    fn there_is_a_badge_per_level_overall_and_per_revision() {
        let badges = badges(&summary(), &full());
        let listed: Vec<String> = badges
            .iter()
            .map(|(stem, badge)| {
                format!(
                    "{stem}: {} | {} | {}",
                    badge.label, badge.message, badge.color
                )
            })
            .collect();
        assert_eq!(
            listed,
            [
                "verdict: mcpdesc verdict | 100.0% · 20/20 rules · suite 0.2.0 | brightgreen",
                "verdict-2024-11-05: mcpdesc verdict 2024-11-05 | n/a · 20/20 rules · suite 0.2.0 | lightgrey",
                "verdict-2025-06-18: mcpdesc verdict 2025-06-18 | 100.0% · 20/20 rules · suite 0.2.0 | brightgreen",
                "rules: mcpdesc rules | 97.5% · 20/20 rules · suite 0.2.0 | green",
                "rules-2024-11-05: mcpdesc rules 2024-11-05 | n/a · 20/20 rules · suite 0.2.0 | lightgrey",
                "rules-2025-06-18: mcpdesc rules 2025-06-18 | 97.5% · 20/20 rules · suite 0.2.0 | green",
                "exact: mcpdesc exact | 92.5% · 20/20 rules · suite 0.2.0 | yellow",
                "exact-2024-11-05: mcpdesc exact 2024-11-05 | n/a · 20/20 rules · suite 0.2.0 | lightgrey",
                "exact-2025-06-18: mcpdesc exact 2025-06-18 | 92.5% · 20/20 rules · suite 0.2.0 | yellow",
            ]
        );
    }

    #[test]
    fn an_empty_run_has_the_overall_badges_only() {
        let stems: Vec<String> = badges(&Summary::default(), &full())
            .into_iter()
            .map(|(stem, badge)| format!("{stem}: {}", badge.message))
            .collect();
        assert_eq!(
            stems,
            [
                "verdict: n/a · 20/20 rules · suite 0.2.0",
                "rules: n/a · 20/20 rules · suite 0.2.0",
                "exact: n/a · 20/20 rules · suite 0.2.0"
            ]
        );
    }

    #[test]
    fn the_endpoint_json_is_what_shields_reads() {
        let badge = Badge::pass_rate("mcpdesc exact 2025-06-18", 973, 1000);
        insta::assert_snapshot!(badge.endpoint_json(), @r#"
        {
          "schemaVersion": 1,
          "label": "mcpdesc exact 2025-06-18",
          "message": "97.3%",
          "color": "green"
        }
        "#);
    }

    #[test]
    fn the_svg_is_a_flat_badge() {
        let badge = Badge::pass_rate("mcpdesc exact 2025-06-18", 973, 1000);
        insta::assert_snapshot!("exact_svg", badge.svg());
    }

    #[test]
    fn the_svg_is_well_formed_and_escapes_hostile_text() {
        let badge = Badge {
            label: "<&>\"' \u{1b}[31m\u{202e}".to_owned(),
            message: "</text><script>alert(1)</script>\u{ffff}".to_owned(),
            color: Color::Red,
        };
        let svg = badge.svg();
        assert_well_formed(&svg);
        assert!(
            svg.contains("&lt;&amp;&gt;&quot;&apos; \\x1b[31m\\u{202e}"),
            "{svg}"
        );
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(
            !svg.contains('\u{1b}') && !svg.contains('\u{ffff}'),
            "{svg}"
        );
        let json: serde_json::Value = serde_json::from_str(&badge.endpoint_json()).unwrap();
        assert_eq!(json["label"], badge.label);
        // Every badge the summary gives is well formed too.
        for (_, badge) in badges(&summary(), &full()) {
            assert_well_formed(&badge.svg());
        }
    }

    #[test]
    fn wider_text_makes_a_wider_badge() {
        let width = |label: &str| {
            let svg = Badge::pass_rate(label, 1, 1).svg();
            let start = svg.find("width=\"").unwrap() + 7;
            let end = start + svg[start..].find('"').unwrap();
            svg[start..end].parse::<f64>().unwrap()
        };
        assert!(width("mcpdesc exact") < width("mcpdesc exact 2025-06-18"));
        assert!(width("iiii") < width("mmmm"));
        assert!(width("ab") < width("日本"));
    }

    #[test]
    fn write_puts_a_json_and_an_svg_file_per_badge_in_the_folder() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("public").join("badges");
        let written = write(&dir, &summary(), &full()).unwrap();
        let names: Vec<String> = written
            .iter()
            .map(|path| {
                assert_eq!(path.parent(), Some(dir.as_path()));
                path.file_name().unwrap().to_string_lossy().into_owned()
            })
            .collect();
        let mut expected = Vec::new();
        for level in ["verdict", "rules", "exact"] {
            for stem in [
                level.to_owned(),
                format!("{level}-2024-11-05"),
                format!("{level}-2025-06-18"),
            ] {
                expected.push(format!("{stem}.json"));
                expected.push(format!("{stem}.svg"));
            }
        }
        assert_eq!(names, expected);
        // Nothing else is left behind: no temporary file.
        let mut listed: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        listed.sort();
        expected.sort();
        assert_eq!(listed, expected);
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join("exact.json")).unwrap()).unwrap();
        assert_eq!(json["schemaVersion"], 1);
        assert_eq!(json["message"], "92.5% · 20/20 rules · suite 0.2.0");
        let svg = fs::read_to_string(dir.join("exact-2025-06-18.svg")).unwrap();
        assert!(
            svg.contains("mcpdesc exact 2025-06-18: 92.5% · 20/20 rules · suite 0.2.0"),
            "{svg}"
        );
        // A second run replaces the files.
        let mut better = summary();
        better.total.passed = [40, 40, 40];
        write(&dir, &better, &full()).unwrap();
        let json = fs::read_to_string(dir.join("exact.json")).unwrap();
        assert!(json.contains("\"100.0% · 20/20 rules"), "{json}");
    }

    #[cfg(unix)]
    #[test]
    fn written_badges_are_as_readable_as_any_new_file() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let written = write(dir.path(), &Summary::default(), &full()).unwrap();
        // A file made the ordinary way gets 0666 less the umask; a
        // temporary file would have 0600 whatever the umask.
        let ordinary = dir.path().join("ordinary");
        fs::write(&ordinary, "").unwrap();
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&written[0]), mode(&ordinary));
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_an_error_naming_it() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("taken");
        fs::write(&file, "").unwrap();
        let dir = file.join("badges");
        let error = write(&dir, &summary(), &full()).unwrap_err();
        assert_eq!(error.path, dir);
        assert!(error.to_string().starts_with(&dir.display().to_string()));
    }

    /// Checks that `text` is one well-formed XML element: tags nest and
    /// close, attribute values are quoted and hold no `<`, every `&` starts
    /// one of the five entities, text holds no `>` beside markup, and there
    /// is no character XML 1.0 forbids. (No XML parser is in the lock file;
    /// this covers what the SVG writer can get wrong.)
    fn assert_well_formed(text: &str) {
        assert!(
            !text
                .chars()
                .any(|c| (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                    || c == '\u{fffe}'
                    || c == '\u{ffff}'),
            "a character XML forbids: {text:?}"
        );
        let check_entities = |part: &str| {
            for (index, _) in part.match_indices('&') {
                let rest = &part[index..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                        .iter()
                        .any(|entity| rest.starts_with(entity)),
                    "a bare `&` in {part:?}"
                );
            }
        };
        let mut open: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = text;
        loop {
            let Some(start) = rest.find('<') else {
                assert!(
                    rest.trim().is_empty() || !open.is_empty(),
                    "text outside the root"
                );
                check_entities(rest);
                assert!(!rest.contains('>'), "a bare `>` in text {rest:?}");
                break;
            };
            let content = &rest[..start];
            assert!(!content.contains('>'), "a bare `>` in text {content:?}");
            check_entities(content);
            assert!(
                content.trim().is_empty() || !open.is_empty(),
                "text outside the root"
            );
            rest = &rest[start + 1..];
            // The tag runs to the first `>` outside quotes.
            let mut quote = None;
            let end = rest
                .char_indices()
                .find(|&(_, c)| match quote {
                    Some(q) if c == q => {
                        quote = None;
                        false
                    }
                    Some(_) => {
                        assert_ne!(c, '<', "a `<` in an attribute value");
                        false
                    }
                    None if c == '"' || c == '\'' => {
                        quote = Some(c);
                        false
                    }
                    None => c == '>',
                })
                .map(|(index, _)| index)
                .expect("an unclosed tag");
            let tag = &rest[..end];
            rest = &rest[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop(), Some(name.trim()), "a mismatched closing tag");
                continue;
            }
            let self_closing = tag.ends_with('/');
            let tag = tag.trim_end_matches('/');
            let name = tag.split_whitespace().next().expect("a tag without a name");
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':'),
                "a bad tag name {name:?}"
            );
            // Attributes: name="value" or name='value', each name once.
            let mut attributes = &tag[name.len()..];
            let mut names = Vec::new();
            while !attributes.trim().is_empty() {
                attributes = attributes.trim_start();
                let (attribute, after) = attributes
                    .split_once('=')
                    .expect("an attribute without a value");
                assert!(!names.contains(&attribute), "attribute {attribute} twice");
                names.push(attribute);
                let q = after.chars().next().expect("a missing value");
                assert!(q == '"' || q == '\'', "an unquoted value in {tag:?}");
                let close = after[1..].find(q).expect("an unclosed value") + 1;
                check_entities(&after[1..close]);
                attributes = &after[close + 1..];
            }
            if open.is_empty() {
                roots += 1;
            }
            if !self_closing {
                open.push(name);
            }
        }
        assert!(open.is_empty(), "unclosed elements {open:?}");
        assert_eq!(roots, 1, "not one root element");
    }
}
