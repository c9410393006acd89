//! Colour in the human report, as `--color auto|always|never` asks: plain
//! SGR sequences behind one small type, so that every other output (files,
//! JSON lines, annotations) is made without any and none can leak into it.
//!
//! Colour is put around text that is already escaped (`escape`), never
//! inside it: an escape sequence that a fixture or a validator sends is
//! still shown as visible characters, and the only sequences on the
//! terminal are the few written here.

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt;
use std::str::FromStr;

use crate::judge::summary::Tally;
use crate::outcome::comparison::Level;

/// When the human report is coloured (`--color`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// When stdout is a terminal, unless `NO_COLOR` is set to anything but
    /// the empty string; `CLICOLOR_FORCE` (set, and not `0`) colours a pipe
    /// too, and `NO_COLOR` beats it; `TERM=dumb` turns it off.
    #[default]
    Auto,
    /// Always, even into a pipe and whatever `NO_COLOR` says: a choice made
    /// on the command line overrides the environment, as no-color.org asks.
    Always,
    /// Never.
    Never,
}

/// A `--color` value that is none of `auto`, `always`, `never`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a colour choice: give auto, always or never")]
pub struct UnknownColorChoice(pub String);

impl FromStr for ColorChoice {
    type Err = UnknownColorChoice;

    fn from_str(text: &str) -> Result<ColorChoice, UnknownColorChoice> {
        match text {
            "auto" => Ok(ColorChoice::Auto),
            "always" => Ok(ColorChoice::Always),
            "never" => Ok(ColorChoice::Never),
            other => Err(UnknownColorChoice(other.to_owned())),
        }
    }
}

impl ColorChoice {
    /// The palette of an output that `terminal` says is a terminal or not,
    /// with `var` reading the environment (`std::env::var_os`, or a fixed
    /// map in tests).
    pub fn palette(self, terminal: bool, var: impl Fn(&str) -> Option<OsString>) -> Palette {
        let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
        let on = match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if set("NO_COLOR") => false,
            ColorChoice::Auto
                if set("CLICOLOR_FORCE")
                    && var("CLICOLOR_FORCE").as_deref() != Some("0".as_ref()) =>
            {
                true
            }
            ColorChoice::Auto => terminal && var("TERM").as_deref() != Some("dumb".as_ref()),
        };
        Palette { on }
    }
}

/// Whether text is coloured: [`Palette::PLAIN`] for everything but the
/// human report on a terminal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Palette {
    on: bool,
}

/// What a piece of text is, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// A case or check that passes.
    Pass,
    /// A case or check that fails.
    Fail,
    /// A pass rate below 100%.
    Shortfall,
    /// A stale baseline entry.
    Stale,
    /// A diff line of an expected finding the validator did not report.
    Missing,
    /// A diff line of a finding the suite does not expect.
    Unexpected,
    /// A diff's hunk header (`@@ … @@`).
    Hunk,
    /// A diff's file header (`--- expected`, `+++ actual`).
    Header,
}

impl Style {
    /// The SGR sequence that starts the style.
    fn sgr(self) -> &'static str {
        match self {
            Style::Pass | Style::Unexpected => "\u{1b}[32m",
            Style::Fail => "\u{1b}[1;31m",
            Style::Stale => "\u{1b}[1;33m",
            Style::Missing | Style::Shortfall => "\u{1b}[31m",
            Style::Hunk => "\u{1b}[36m",
            Style::Header => "\u{1b}[1m",
        }
    }
}

/// The SGR sequence that ends every style.
const RESET: &str = "\u{1b}[0m";

impl Palette {
    /// No colour: files, JSON, pipes.
    pub const PLAIN: Palette = Palette { on: false };
    /// Colour.
    pub const COLOURED: Palette = Palette { on: true };

    /// Whether this palette colours anything.
    pub fn is_coloured(self) -> bool {
        self.on
    }

    /// `text` in `style`, or plain with [`Palette::PLAIN`].
    pub(crate) fn paint<'t>(self, style: Style, text: impl Into<Cow<'t, str>>) -> Painted<'t> {
        Painted {
            text: text.into(),
            sgr: self.on.then(|| style.sgr()),
        }
    }

    /// `text` in `style` when `when` holds, plain otherwise.
    pub(crate) fn paint_if<'t>(
        self,
        when: bool,
        style: Style,
        text: impl Into<Cow<'t, str>>,
    ) -> Painted<'t> {
        if when {
            self.paint(style, text)
        } else {
            Palette::PLAIN.paint(style, text)
        }
    }

    /// One line of a unified diff of findings: the missing (`-`) and the
    /// unexpected (`+`) ones in their colours.
    pub(crate) fn diff_line(self, line: &str) -> Painted<'_> {
        let style = if line.starts_with("---") || line.starts_with("+++") {
            Style::Header
        } else if line.starts_with("@@") {
            Style::Hunk
        } else if line.starts_with('-') {
            Style::Missing
        } else if line.starts_with('+') {
            Style::Unexpected
        } else {
            return Palette::PLAIN.paint(Style::Header, line);
        };
        self.paint(style, line)
    }

    /// The pass rate of `tally` at `level` as a table shows it
    /// ([`crate::emit::text::percent`]): green when every judged case
    /// passes, red when one fails.
    pub(crate) fn rate(self, tally: &Tally, level: Level) -> Painted<'static> {
        let text = crate::emit::text::percent(tally, level);
        match tally.rate(level) {
            Some(rate) if rate >= 100.0 => self.paint(Style::Pass, text),
            Some(_) => self.paint(Style::Shortfall, text),
            None => Palette::PLAIN.paint(Style::Pass, text),
        }
    }
}

/// Text with its colour, if any. Width and alignment (`{:>9}`) apply to
/// the text, so that a coloured table lines up as a plain one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Painted<'t> {
    text: Cow<'t, str>,
    sgr: Option<&'static str>,
}

impl fmt::Display for Painted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sgr {
            Some(sgr) => {
                f.write_str(sgr)?;
                f.pad(&self.text)?;
                f.write_str(RESET)
            }
            None => f.pad(&self.text),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn palette(choice: ColorChoice, terminal: bool, env: &[(&str, &str)]) -> bool {
        let env: BTreeMap<&str, &str> = env.iter().copied().collect();
        choice
            .palette(terminal, |name| env.get(name).map(OsString::from))
            .is_coloured()
    }

    #[test]
    fn auto_colours_a_terminal_only() {
        assert!(palette(ColorChoice::Auto, true, &[]));
        assert!(!palette(ColorChoice::Auto, false, &[]));
        assert!(!palette(ColorChoice::Auto, true, &[("TERM", "dumb")]));
        assert!(palette(
            ColorChoice::Auto,
            true,
            &[("TERM", "xterm-256color")]
        ));
    }

    #[test]
    fn no_color_turns_auto_off_unless_empty() {
        assert!(!palette(ColorChoice::Auto, true, &[("NO_COLOR", "1")]));
        assert!(!palette(ColorChoice::Auto, true, &[("NO_COLOR", "0")]));
        assert!(palette(ColorChoice::Auto, true, &[("NO_COLOR", "")]));
        assert!(!palette(
            ColorChoice::Auto,
            false,
            &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]
        ));
    }

    #[test]
    fn clicolor_force_colours_a_pipe_under_auto() {
        assert!(palette(
            ColorChoice::Auto,
            false,
            &[("CLICOLOR_FORCE", "1")]
        ));
        assert!(!palette(
            ColorChoice::Auto,
            false,
            &[("CLICOLOR_FORCE", "0")]
        ));
        assert!(!palette(
            ColorChoice::Auto,
            false,
            &[("CLICOLOR_FORCE", "")]
        ));
    }

    #[test]
    fn always_and_never_are_what_they_say() {
        assert!(palette(ColorChoice::Always, false, &[("NO_COLOR", "1")]));
        assert!(!palette(
            ColorChoice::Never,
            true,
            &[("CLICOLOR_FORCE", "1")]
        ));
    }

    #[test]
    fn padding_applies_to_the_text_not_the_sequences() {
        let plain = format!("[{:>6}]", Palette::PLAIN.paint(Style::Fail, "FAIL"));
        assert_eq!(plain, "[  FAIL]");
        let coloured = format!("[{:>6}]", Palette::COLOURED.paint(Style::Fail, "FAIL"));
        assert_eq!(coloured, "[\u{1b}[1;31m  FAIL\u{1b}[0m]");
    }

    #[test]
    fn diff_lines_are_coloured_by_their_first_character() {
        let paint = Palette::COLOURED;
        assert_eq!(
            paint.diff_line("-error r \"/a\"").to_string(),
            "\u{1b}[31m-error r \"/a\"\u{1b}[0m"
        );
        assert_eq!(
            paint.diff_line("+error r \"/b\"").to_string(),
            "\u{1b}[32m+error r \"/b\"\u{1b}[0m"
        );
        assert_eq!(
            paint.diff_line("--- expected").to_string(),
            "\u{1b}[1m--- expected\u{1b}[0m"
        );
        assert_eq!(
            paint.diff_line(" error r \"/c\"").to_string(),
            " error r \"/c\""
        );
        assert_eq!(
            Palette::PLAIN.diff_line("-error r \"/a\"").to_string(),
            "-error r \"/a\""
        );
    }
}
