//! `smoke`: a few cases that tell an adapter author, in plain words, what
//! their adapter does wrong and what to do about it. Needs the `external`
//! feature, since it runs the adapter.

use std::collections::BTreeSet;

use mcpdesc_protocol::{Implementation, Reply, Revision};

use std::time::Duration;

use crate::backend::external::{ExternalValidator, Mode, Pool, Unavailable};
use crate::emit::text;
use crate::outcome::claims::Claims;
use crate::outcome::failure::{Failure, FailureKind};

/// How long smoke waits after each reply for output nobody asked for.
const EXTRA_OUTPUT_WAIT: Duration = Duration::from_millis(100);
use crate::emit::escape;
use crate::emit::paint::{Palette, Style};
use crate::outcome::comparison::{Comparison, OutputProblem, ProblemKind};
use crate::suite::SuiteSet;
use crate::suite::expectation::Findings;

/// The fixtures smoke sends, when the suite has them: a valid and an
/// invalid document of each suite, and one whose finding sits deep in the
/// document (`/tools/0/elicitations/0/requestedSchema/properties/severity`),
/// so that an adapter's pointers are tried beyond the first levels.
pub const FIXTURES: [&str; 5] = [
    "document/expected-valid/minimal.json",
    "document/expected-invalid/missing-info.json",
    "elicitation/expected-valid/elicitation-declarations.json",
    "elicitation/expected-invalid/elicitation-version-mismatch.json",
    "elicitation/expected-invalid/enum-default-outside-choices.json",
];

/// The last line of a report without problems. Smoke checks the contract
/// only, and must not be read as a verdict on the findings.
pub const NO_PROBLEM: &str = "no contract problem found (smoke checks how the adapter speaks the contract, \
                              not whether its findings are right: use `run` for that)";

/// One thing smoke checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked (`start`, a case, `stop`).
    pub subject: String,
    /// `None` when it went right; otherwise what is wrong and what to do.
    pub problem: Option<String>,
    /// What happened, when it went right.
    pub detail: String,
}

/// What smoke found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmokeReport {
    /// Every check, in order.
    pub checks: Vec<Check>,
    /// Whether the validator could not be started at all.
    pub unavailable: bool,
}

impl SmokeReport {
    /// The number of problems found.
    pub fn problems(&self) -> usize {
        self.checks
            .iter()
            .filter(|check| check.problem.is_some())
            .count()
    }

    /// The report as text: one line per check, explanations indented;
    /// coloured by `paint`.
    pub fn render(&self, validator: &ExternalValidator, paint: Palette) -> String {
        let mode = match validator.mode {
            Mode::Session => "session mode",
            Mode::Oneshot => "one-shot mode",
        };
        let mut text = format!("smoke test of `{}` ({mode})\n", validator.argv.join(" "));
        for check in &self.checks {
            // What the adapter said (its name, messages, stderr) is in
            // these texts: escaped, and every line of a problem indented.
            match &check.problem {
                None => text.push_str(&format!(
                    "  {:<5} {}: {}\n",
                    paint.paint(Style::Pass, "ok"),
                    escape::line(&check.subject),
                    escape::line(&check.detail)
                )),
                Some(problem) => {
                    text.push_str(&format!(
                        "  {:<5} {}\n",
                        paint.paint(Style::Fail, "FAIL"),
                        escape::line(&check.subject)
                    ));
                    for line in escape::lines(problem).lines() {
                        text.push_str(&format!("        {line}\n"));
                    }
                }
            }
        }
        match self.problems() {
            0 => text.push_str(&format!("{NO_PROBLEM}\n")),
            1 => text.push_str("1 contract problem found\n"),
            n => text.push_str(&format!("{n} contract problems found\n")),
        }
        text
    }
}

/// Runs the smoke checks of `validator` with documents from `set`, through
/// the same [`Pool`] a run uses: one session at a time, waiting a moment
/// after each reply so that extra output is blamed on the case that wrote
/// it.
pub fn smoke(validator: &ExternalValidator, set: &SuiteSet) -> SmokeReport {
    let mut checks = Vec::new();
    let mut settings = validator.clone();
    settings.jobs = 1;
    // One request in flight, so that output after a reply is noticed.
    settings.pipeline = 1;
    settings.extra_output_wait = EXTRA_OUTPUT_WAIT;
    let pool = match Pool::start(settings) {
        Ok(pool) => pool,
        Err(unavailable) => {
            let problem = match &unavailable {
                Unavailable::Failed(failure) => {
                    format!(
                        "{}{}",
                        text::failure_with_stderr(failure),
                        start_advice(validator, failure)
                    )
                }
                _ => text::unavailable(&unavailable),
            };
            let spawn = match &unavailable {
                Unavailable::Failed(failure) => {
                    matches!(failure.kind, FailureKind::NotStarted { .. })
                }
                _ => true,
            };
            checks.push(Check {
                subject: "start".into(),
                problem: Some(problem),
                detail: String::new(),
            });
            return SmokeReport {
                checks,
                unavailable: spawn,
            };
        }
    };
    let implementation = pool.implementation().clone();
    if validator.mode == Mode::Session {
        checks.push(Check {
            subject: "start".into(),
            problem: None,
            detail: describe(&implementation),
        });
        let unknown = Claims::of(&implementation, &set.rules).unknown(&set.rules);
        if !unknown.is_empty() {
            checks.push(Check {
                subject: "claimed rules".into(),
                problem: Some(format!(
                    "`rules` in the reply to `start` lists {}; `run` refuses such a claim. \
                     List the catalogs' rule IDs exactly as `mcpdesc-conformance check` prints \
                     them, and report findings under them",
                    text::unknown_rules(&unknown, &set.rules)
                )),
                detail: String::new(),
            });
        }
    }
    let mut sent = 0;
    let mut judged = 0;
    let mut unsent_revisions = BTreeSet::new();
    for id in FIXTURES {
        let Some(entry) = set.find(id).and_then(|index| set.get(index)) else {
            continue;
        };
        // A serialization case goes only to an adapter that reads its
        // format, as in a run.
        if crate::judge::runner::unread_source(&entry.fixture, &implementation).is_some() {
            continue;
        }
        let revisions = entry.fixture.revisions();
        let Some(revision) = revisions.iter().copied().find(|revision| {
            implementation
                .revisions
                .iter()
                .any(|name| name == revision.as_str())
        }) else {
            unsent_revisions.extend(revisions.iter().copied());
            continue;
        };
        // A fixture that does not load has nothing to send.
        let Ok(request) = crate::judge::runner::request(&entry.fixture, revision) else {
            continue;
        };
        sent += 1;
        let subject = format!("{id} under {revision}");
        let reply = pool.call(&request);
        let check = match reply {
            Ok(Reply::Diagnostics(diagnostics)) => {
                judged += 1;
                // The checks `run` makes on every reply, whatever the
                // expectation: nothing is compared with it here.
                let comparison = Comparison::new(
                    Findings::new(),
                    &diagnostics,
                    &set.rules,
                    entry
                        .fixture
                        .document
                        .as_ref()
                        .ok()
                        .map(|document| &*document.value),
                    revision,
                );
                let problems: Vec<String> = comparison
                    .problems
                    .iter()
                    .map(|problem| explain(problem, revision))
                    .collect();
                Check {
                    subject,
                    problem: (!problems.is_empty()).then(|| problems.join("\n")),
                    detail: format!("{} diagnostic(s)", diagnostics.len()),
                }
            }
            Ok(Reply::Skipped(skip)) => Check {
                subject,
                problem: None,
                detail: format!("skipped ({})", skip.reason),
            },
            Ok(Reply::Error(error)) => Check {
                subject,
                problem: Some(format!(
                    "the adapter replied with an `error` ({}); that is for a validator that fails on one case, \
                     not for a document with problems: report those as `diagnostics`",
                    error.message
                )),
                detail: String::new(),
            },
            Err(failure) => {
                let limit = validator.timeout.as_secs_f64();
                // Each mode's advice describes that mode.
                let advice = match (validator.mode, &failure.kind) {
                    (Mode::Session, FailureKind::TimedOut { .. }) => format!(
                        "\nanswer every `validate` line with one line on stdout within {limit:.1}s, and flush \
                         stdout after each line"
                    ),
                    (Mode::Session, FailureKind::Crashed(_)) => {
                        "\nthe adapter must stay up for the whole session, answering one line \
                         per request, until it reads `stop`"
                            .to_owned()
                    }
                    (Mode::Oneshot, FailureKind::TimedOut { .. }) => format!(
                        "\nin one-shot mode the adapter reads the document from stdin to its end, prints \
                         one reply line on stdout and exits, all within {limit:.1}s"
                    ),
                    (Mode::Oneshot, FailureKind::Crashed(_)) => {
                        "\nin one-shot mode the adapter prints exactly one reply line on stdout and exits \
                         with status 0 or 1 (1 when the document has errors); its stderr (above) may say \
                         what went wrong"
                            .to_owned()
                    }
                    _ => String::new(),
                };
                Check {
                    subject,
                    problem: Some(format!("{}{advice}", text::failure_with_stderr(&failure))),
                    detail: String::new(),
                }
            }
        };
        checks.push(check);
    }
    if sent == 0 {
        checks.push(Check {
            subject: "cases".into(),
            problem: Some(format!(
                "no case was sent, so nothing of the contract beyond `start` was checked: the adapter \
                 announces the revisions [{}], and no smoke case runs under any of them (they run under \
                 [{}]); list in `revisions` the MCP revisions the validator checks, written as the \
                 specification names them",
                implementation.revisions.join(", "),
                unsent_revisions
                    .iter()
                    .map(|revision| revision.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            detail: String::new(),
        });
    } else if judged == 0 && checks.iter().all(|check| check.problem.is_none()) {
        checks.push(Check {
            subject: "cases".into(),
            problem: Some(
                "the adapter skipped every case, so no `diagnostics` reply was checked; \
                 skip only the cases the validator cannot judge"
                    .into(),
            ),
            detail: String::new(),
        });
    }
    // A session the last case killed is started again, so that `stop` is
    // checked all the same (one-shot processes get no `stop`).
    let stopped = pool.stop();
    if validator.mode == Mode::Session
        && let Some(status) = stopped.first()
    {
        let problem = match status {
            Some(status) if status.success() => None,
            Some(status) => Some(format!(
                "after `stop` the adapter ended with {status}; exit with status 0"
            )),
            None => Some(
                "the adapter did not exit within 2s of `{\"cmd\":\"stop\"}` (it was killed); exit \
                 with status 0 when you read it, or when stdin ends"
                    .into(),
            ),
        };
        checks.push(Check {
            subject: "stop".into(),
            detail: if problem.is_none() {
                "exited with status 0".into()
            } else {
                String::new()
            },
            problem,
        });
    }
    SmokeReport {
        checks,
        unavailable: false,
    }
}

/// What is wrong with one reported finding, and what to do about it.
fn explain(problem: &OutputProblem, revision: Revision) -> String {
    let finding = &problem.finding;
    match problem.kind {
        ProblemKind::UnresolvedPointer => format!(
            "a diagnostic's `path` {:?} names nothing in the document; paths are RFC 6901 pointers into the \
             document as sent (`/tools/0/name`, `\"\"` for the root), not file positions",
            finding.path
        ),
        ProblemKind::UnknownRule => format!(
            "rule `{}` is in no catalog of the suite; report the suite's rule IDs (the catalogs under \
             suites/ list them) so results can be compared",
            finding.rule
        ),
        ProblemKind::NotApplicable => format!(
            "rule `{}` does not apply under {revision} (its catalog entry says so), yet it was reported \
             for a document served under {revision}; report a rule only under the revisions it applies to",
            finding.rule
        ),
    }
}

/// What to do about a session that did not start.
fn start_advice(validator: &ExternalValidator, failure: &Failure) -> String {
    match failure.kind {
        FailureKind::TimedOut { .. } => format!(
            "\nthe adapter must read the `start` line from stdin and answer with one JSON object on \
             one line of stdout within {:.1}s, then flush stdout (most languages buffer a piped \
             stdout: flush after every line)",
            validator.start_timeout.as_secs_f64()
        ),
        FailureKind::Crashed(_) => {
            "\nthe adapter must keep running and answer `start`; its stderr \
                                    (above) may say why it stopped"
                .to_owned()
        }
        _ => String::new(),
    }
}

fn describe(implementation: &Implementation) -> String {
    format!(
        "protocol 1, `{}` {} ({}), revisions {}",
        implementation.name,
        implementation.version,
        if implementation.language.is_empty() {
            "language not given"
        } else {
            &implementation.language
        },
        implementation.revisions.join(", ")
    )
}
