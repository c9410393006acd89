//! GitHub Actions annotations: one `::error` workflow command per failing
//! finding, at the fixture line its pointer names, so that a pull request
//! shows each disagreement beside the document. A fixture of the built-in
//! suite is in no file of the repository being checked, so its annotations
//! name no file and say which command shows the case instead.

use std::io::{self, Write};

use crate::emit::escape;
use crate::emit::text;
use crate::event::Event;
use crate::outcome::comparison::Level;
use crate::outcome::mark::Mark;
use crate::outcome::{CaseResult, Outcome};
use crate::suite::SuiteSet;
use crate::suite::expectation::Finding;

use super::Emitter;

/// How many annotations a run writes at most; GitHub shows only so many,
/// and a flood hides the first ones. The rest are counted in a notice.
pub const MAX_ANNOTATIONS: usize = 50;

/// Annotations written to `out` (GitHub reads workflow commands from the
/// step's output).
pub struct Annotations<'s, W> {
    out: W,
    set: &'s SuiteSet,
    level: Level,
    written: usize,
    left_out: usize,
}

impl<'s, W: Write> Annotations<'s, W> {
    /// Annotations of a run on `set` judged at `level`.
    pub fn new(out: W, set: &'s SuiteSet, level: Level) -> Annotations<'s, W> {
        Annotations {
            out,
            set,
            level,
            written: 0,
            left_out: 0,
        }
    }

    fn annotate(&mut self, result: &CaseResult) -> io::Result<()> {
        // Known failures are tolerated: annotating them would bury the
        // new ones.
        if matches!(result.baseline, Some(Mark::Known { .. })) {
            return Ok(());
        }
        let Some(entry) = self.set.get(result.entry) else {
            return Ok(());
        };
        let fixture = &entry.fixture;
        let file = self.set.tree.display_path(&fixture.tree_path());
        let file = file.strip_prefix("./").unwrap_or(&file).to_owned();
        let line_of = |pointer: &str| {
            fixture
                .document
                .as_ref()
                .ok()
                .and_then(|document| document.locations.get(pointer))
                .map_or(1, |position| position.line)
        };
        let case = format!("{}@{}", fixture.id(), result.revision);
        // A built-in fixture is in no file of the repository being checked:
        // such an annotation names no file, and says how to see the case.
        let built_in = self.set.tree.root.is_none();
        let see = if built_in {
            format!(" (built-in case; `{}` shows it)", text::show_command(&case))
        } else {
            String::new()
        };
        let mut notes: Vec<(usize, String, String)> = Vec::new();
        match &result.outcome {
            Outcome::Compared(comparison) => {
                let say = |finding: &Finding, what: &str| {
                    (
                        line_of(&finding.path),
                        format!("{} {what}", finding.rule),
                        format!(
                            "{case}: {what}: {} {} at {:?}",
                            finding.severity, finding.rule, finding.path
                        ),
                    )
                };
                // A finding reported at another pointer than expected is one
                // disagreement, annotated where the suite expects it.
                let mut unexpected: Vec<&Finding> = comparison.unexpected.iter().collect();
                for missing in &comparison.missing {
                    let twin = unexpected.iter().position(|finding| {
                        finding.rule == missing.rule && finding.severity == missing.severity
                    });
                    match twin.map(|index| unexpected.remove(index)) {
                        Some(reported) => notes.push((
                            line_of(&missing.path),
                            format!("{} at another pointer", missing.rule),
                            format!(
                                "{case}: {} {} expected at {:?}, reported at {:?}",
                                missing.severity, missing.rule, missing.path, reported.path
                            ),
                        )),
                        None => notes.push(say(missing, "expected, not reported")),
                    }
                }
                notes.extend(
                    unexpected
                        .into_iter()
                        .map(|finding| say(finding, "reported, not expected")),
                );
                notes.extend(comparison.problems.iter().map(|problem| {
                    say(
                        &problem.finding,
                        &format!("wrong whatever the expectation ({})", problem.kind),
                    )
                }));
            }
            outcome => {
                if let Some(line) = text::outcome_line(outcome) {
                    notes.push((1, "no comparison".to_owned(), format!("{case}: {line}")));
                }
            }
        }
        for (line, title, message) in notes {
            if self.written == MAX_ANNOTATIONS {
                self.left_out += 1;
                continue;
            }
            self.written += 1;
            let at = if built_in {
                String::new()
            } else {
                format!("file={},line={line},", property(&file))
            };
            writeln!(
                self.out,
                "::error {at}title={}::{}",
                property(&escape::line(&format!("mcpdesc-conformance: {title}"))),
                data(&escape::line(&format!("{message}{see}")))
            )?;
        }
        Ok(())
    }
}

impl<W: Write> Emitter for Annotations<'_, W> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::CaseFinished { result, .. }
                if result.outcome.passes(self.level) == Some(false) =>
            {
                self.annotate(result)?;
            }
            Event::RunFinished(_) if self.left_out > 0 => {
                writeln!(
                    self.out,
                    "::notice title=mcpdesc-conformance::{} more failing findings were not annotated (at most {MAX_ANNOTATIONS})",
                    self.left_out
                )?;
            }
            _ => {}
        }
        self.out.flush()
    }
}

/// A workflow command's message: `%`, CR and LF encoded, so that nothing a
/// validator says can end the command or start another.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: as [`data`], and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_said_can_end_or_start_a_workflow_command() {
        assert_eq!(data("a%b\r\n::error::x"), "a%25b%0D%0A::error::x");
        assert_eq!(property("a:b,c\n"), "a%3Ab%2Cc%0A");
    }
}
