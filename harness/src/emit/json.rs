//! Machine-readable outputs: the events as JSON lines (`--format json`),
//! and one JSON report document (`--report FILE`), whose JSON Schema is
//! `docs/schemas/report.json`. Both use the same JSON for a run, a case and
//! a summary; every field is data, never a sentence to parse (the only
//! prose is what a validator or the contract checker said, in fields named
//! `message` or `explanation`).

use std::io::{self, Write};
use std::time::Duration;

use mcpdesc_protocol::Revision;
use serde_json::{Map, Value, json};

use crate::emit::text;
use crate::event::{Event, RunFinished, RunStarted};
use crate::judge::summary::{Summary, Tally};
use crate::outcome::comparison::{Comparison, Level, OutputProblem, ProblemKind};
use crate::outcome::failure::{Awaiting, Crash, ExtraLine, Failure, FailureKind, ProtocolProblem};
use crate::outcome::mark::Mark;
use crate::outcome::{CaseResult, NotRun, Outcome, Skip, Unjudgeable};
use crate::suite::case::Case;
use crate::suite::expectation::Finding;

use super::Emitter;

/// The version of the report document's layout.
pub const REPORT_VERSION: u64 = 1;

/// The events as JSON lines, one object per event, on `out`.
pub struct JsonLines<W> {
    out: W,
}

impl<W: Write> JsonLines<W> {
    /// Events written to `out`.
    pub fn new(out: W) -> JsonLines<W> {
        JsonLines { out }
    }
}

impl<W: Write> Emitter for JsonLines<W> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        let (name, body) = match event {
            Event::RunStarted(started) => ("run-started", run(started)),
            Event::CaseFinished {
                index,
                case: which,
                result,
            } => ("case-finished", case(*index, which, result)),
            Event::RunFinished(finished) => ("run-finished", end(finished)),
        };
        // The event's name first, so that a reader sees what it is at once.
        let mut value = Map::new();
        value.insert("event".into(), name.into());
        value.extend(body);
        let value = Value::Object(value);
        serde_json::to_writer(&mut self.out, &value)?;
        writeln!(self.out)?;
        self.out.flush()
    }
}

/// The whole report: the run, every case in order, the summary, and the
/// rule × revision matrix.
///
/// Serializing it writes each case as it is made and drops it: a report
/// of a run whose validator floods every case is tens of megabytes, and a
/// JSON tree of all of it at once takes several times that.
pub fn report<'a>(run: Map<String, Value>, finished: &'a RunFinished<'a>) -> Report<'a> {
    Report { run, finished }
}

/// The report document of [`report`], ready to serialize.
pub struct Report<'a> {
    run: Map<String, Value>,
    finished: &'a RunFinished<'a>,
}

/// Every case of a finished run, each made as JSON only when it is written.
struct Cases<'a>(&'a RunFinished<'a>);

impl serde::Serialize for Cases<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let finished = self.0;
        serializer.collect_seq(
            finished
                .cases
                .iter()
                .zip(finished.results)
                .enumerate()
                .map(|(index, (which, result))| case(index, which, result)),
        )
    }
}

impl serde::Serialize for Report<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let finished = self.finished;
        let matrix: Vec<Value> = finished
            .summary
            .per_rule_revision
            .iter()
            .map(|((rule, revision), tally)| {
                let mut row = tally_value(tally);
                row.insert("rule".into(), rule.as_str().into());
                row.insert("revision".into(), revision.as_str().into());
                Value::Object(row)
            })
            .collect();
        let mut document = serializer.serialize_map(None)?;
        document.serialize_entry("reportVersion", &REPORT_VERSION)?;
        document.serialize_entry("run", &self.run)?;
        document.serialize_entry("cases", &Cases(finished))?;
        for (key, value) in end(finished) {
            document.serialize_entry(&key, &value)?;
        }
        document.serialize_entry("matrix", &matrix)?;
        document.end()
    }
}

/// The run-started event as JSON: what the report and the JSON lines say
/// about the run before any case.
pub fn run(started: &RunStarted) -> Map<String, Value> {
    let options = &started.options;
    let value = json!({
        "harness": {"name": "mcpdesc-conformance", "version": started.harness_version},
        "suite": {
            "source": started.suite.source,
            "hash": started.suite.hash,
            "version": started.suite.version,
        },
        "implementation": started.implementation,
        "mode": started.mode.as_str(),
        "options": {
            "level": options.level.as_str(),
            "jobs": options.jobs,
            "timeoutMs": options.timeout.map(millis),
            "maxDiagnostics": options.max_diagnostics,
            "maxConsecutiveFailures": options.max_consecutive_failures,
            "selection": options.selection,
        },
        "cases": started.cases,
        "claims": {
            "listed": started.claims.listed,
            "claimed": started.claims.claimed,
            "catalog": started.claims.catalog,
        },
        "commandLine": started.command_line,
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn end(finished: &RunFinished<'_>) -> Map<String, Value> {
    let summary = summary(finished.summary);
    let mut value = Map::new();
    value.insert("summary".into(), summary);
    value.insert(
        "interrupted".into(),
        finished.end.interrupted.map_or(
            Value::Null,
            |interruption| json!({"signal": interruption.signal, "name": interruption.name()}),
        ),
    );
    value.insert("gaveUp".into(), finished.end.gave_up.into());
    value.insert("exitStatus".into(), finished.status.code().into());
    value
}

fn summary(summary: &Summary) -> Value {
    let per_revision: Map<String, Value> = summary
        .per_revision
        .iter()
        .map(|(revision, tally)| {
            (
                revision.as_str().to_owned(),
                Value::Object(tally_value(tally)),
            )
        })
        .collect();
    let per_rule: Map<String, Value> = summary
        .per_rule
        .iter()
        .map(|(rule, tally)| (rule.clone(), Value::Object(tally_value(tally))))
        .collect();
    json!({
        "total": tally_value(&summary.total),
        "perRevision": per_revision,
        "perRule": per_rule,
        "knownFailures": summary.known_failures,
        "stale": summary.stale,
    })
}

fn tally_value(tally: &Tally) -> Map<String, Value> {
    let levels: Map<String, Value> = Level::ALL
        .iter()
        .map(|level| {
            (
                level.as_str().to_owned(),
                json!({
                    "passed": tally.passed_at(*level),
                    "failed": tally.failed_at(*level),
                    "rate": tally.rate(*level),
                }),
            )
        })
        .collect();
    let mut value = Map::new();
    value.insert("cases".into(), tally.cases.into());
    value.insert("skipped".into(), tally.skipped.into());
    value.insert("unclaimed".into(), tally.unclaimed.into());
    value.insert("errors".into(), tally.errors.into());
    value.insert("interrupted".into(), tally.interrupted.into());
    value.insert("levels".into(), Value::Object(levels));
    value
}

/// The result of `which`, the case at `index` in the run, as JSON.
pub fn case(index: usize, which: &Case<'_>, result: &CaseResult) -> Map<String, Value> {
    let passes: Map<String, Value> = Level::ALL
        .iter()
        .map(|level| {
            (
                level.as_str().to_owned(),
                result
                    .outcome
                    .passes(*level)
                    .map_or(Value::Null, Value::Bool),
            )
        })
        .collect();
    let mut value = Map::new();
    value.insert("index".into(), index.into());
    value.insert("id".into(), which.id().into());
    value.insert("fixture".into(), which.entry.fixture.id().into());
    value.insert("revision".into(), revision(result.revision));
    value.insert("passes".into(), Value::Object(passes));
    value.insert("durationMs".into(), millis(result.duration).into());
    value.insert(
        "baseline".into(),
        match &result.baseline {
            None => Value::Null,
            Some(Mark::Known { reason, link }) => {
                json!({"mark": "known-failure", "reason": reason, "link": link})
            }
            Some(Mark::Stale { reason }) => json!({"mark": "stale", "reason": reason}),
        },
    );
    value.insert("outcome".into(), outcome(&result.outcome));
    value
}

fn revision(revision: Revision) -> Value {
    revision.as_str().into()
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// An outcome as JSON: `{"kind": …, …its data}`.
pub fn outcome(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Compared(comparison) => compared(comparison),
        Outcome::Unclaimed(unclaimed) => {
            let mut value = compared(&unclaimed.comparison);
            if let Value::Object(map) = &mut value {
                map.insert("kind".into(), "unclaimed".into());
                map.insert(
                    "unclaimedRules".into(),
                    unclaimed.rules.iter().cloned().collect::<Vec<_>>().into(),
                );
            }
            value
        }
        Outcome::Skipped(Skip::Unannounced) => {
            json!({"kind": "skipped", "reason": "unannounced-revision"})
        }
        Outcome::Skipped(Skip::SourceTextUnannounced { format }) => {
            json!({"kind": "skipped", "reason": "unannounced-source-text", "format": format})
        }
        Outcome::Skipped(Skip::Declined { reason, issue }) => {
            json!({"kind": "skipped", "reason": "declined", "message": reason, "issue": issue})
        }
        Outcome::ValidatorError { message } => {
            json!({"kind": "validator-error", "message": message})
        }
        Outcome::Failed(failure) => failed(failure),
        Outcome::NotRun(why) => {
            let (reason, failures) = match why {
                NotRun::Unavailable => ("unavailable", None),
                NotRun::GaveUp { failures } => ("gave-up", Some(*failures)),
                NotRun::Lost => ("lost", None),
            };
            json!({"kind": "not-run", "reason": reason, "failuresInARow": failures})
        }
        Outcome::SuiteError(why) => {
            let (file, position) = match why {
                Unjudgeable::Broken(problem) => (Some(problem.file.as_str()), problem.position),
                _ => (None, None),
            };
            json!({
                "kind": "suite-error",
                "message": why.to_string(),
                "file": file,
                "line": position.map(|at| at.line),
                "column": position.map(|at| at.column),
            })
        }
        Outcome::Interrupted => json!({"kind": "interrupted"}),
    }
}

fn compared(comparison: &Comparison) -> Value {
    json!({
        "kind": "compared",
        "expected": findings(&comparison.expected),
        "missing": findings(&comparison.missing),
        "unexpected": findings(&comparison.unexpected),
        "unexpectedCount": comparison.unexpected_count,
        "reportedCount": comparison.actual_count,
        "problems": comparison.problems.iter().map(problem).collect::<Vec<_>>(),
        "problemCount": comparison.problem_count,
        "setAside": comparison.set_aside.iter().collect::<Vec<_>>(),
    })
}

fn findings<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<Value> {
    findings.into_iter().map(finding).collect()
}

fn finding(finding: &Finding) -> Value {
    json!({"rule": finding.rule, "path": finding.path, "severity": finding.severity})
}

fn problem(problem: &OutputProblem) -> Value {
    let kind = match problem.kind {
        ProblemKind::UnknownRule => "unknown-rule",
        ProblemKind::NotApplicable => "not-applicable",
        ProblemKind::UnresolvedPointer => "unresolved-pointer",
    };
    json!({"finding": finding(&problem.finding), "problem": kind})
}

fn awaiting(awaiting: Awaiting) -> &'static str {
    match awaiting {
        Awaiting::Start => "start",
        Awaiting::Reply => "reply",
        Awaiting::OneshotReply => "oneshot-reply",
        Awaiting::Exit => "exit",
    }
}

fn failed(failure: &Failure) -> Value {
    let mut value = match &failure.kind {
        FailureKind::NotStarted { command, error } => {
            json!({"kind": "not-started", "command": command, "error": error})
        }
        FailureKind::TimedOut {
            after,
            awaiting: what,
        } => {
            json!({"kind": "timed-out", "afterMs": millis(*after), "awaiting": awaiting(*what)})
        }
        FailureKind::Crashed(crash) => {
            let cause = match crash {
                Crash::OutputEnded {
                    awaiting: what,
                    partial,
                } => {
                    json!({"cause": "output-ended", "awaiting": awaiting(*what), "partial": partial})
                }
                Crash::AbnormalExit { code, signal } => {
                    json!({"cause": "abnormal-exit", "exitCode": code, "signal": signal})
                }
                Crash::NoReply => json!({"cause": "no-reply"}),
                Crash::ReadFailed { error } => json!({"cause": "read-failed", "error": error}),
                Crash::Panicked { message } => json!({"cause": "panicked", "message": message}),
            };
            let mut value = json!({"kind": "crashed"});
            if let (Value::Object(value), Value::Object(cause)) = (&mut value, cause) {
                value.extend(cause);
            }
            value
        }
        FailureKind::Protocol(problem) => {
            let detail = match problem {
                ProtocolProblem::Reply {
                    awaiting: what,
                    error,
                } => {
                    json!({"problem": "bad-reply", "awaiting": awaiting(*what), "explanation": error.to_string()})
                }
                ProtocolProblem::TooLong {
                    awaiting: what,
                    limit,
                } => {
                    json!({"problem": "line-too-long", "awaiting": awaiting(*what), "limitBytes": limit})
                }
                ProtocolProblem::Unrequested {
                    excerpt,
                    after_reply,
                } => {
                    json!({"problem": "unrequested-line", "excerpt": excerpt, "afterReply": after_reply})
                }
                ProtocolProblem::ExtraLine {
                    replies,
                    first,
                    second,
                } => {
                    let replies = match replies {
                        ExtraLine::AfterReply => "first",
                        ExtraLine::BeforeReply => "second",
                        ExtraLine::TwoReplies => "both",
                        ExtraLine::NoReply => "neither",
                    };
                    json!({
                        "problem": "extra-line",
                        "reply": replies,
                        "first": first,
                        "second": second,
                        "explanation": text::failure_text(&FailureKind::Protocol(problem.clone())),
                    })
                }
            };
            let mut value = json!({"kind": "protocol-error"});
            if let (Value::Object(value), Value::Object(detail)) = (&mut value, detail) {
                value.extend(detail);
            }
            value
        }
    };
    if let Value::Object(map) = &mut value {
        map.insert("stderr".into(), failure.stderr.as_str().into());
    }
    value
}
