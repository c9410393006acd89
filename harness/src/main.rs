//! `mcpdesc-conformance`: runs the MCP Description conformance suite against
//! a validator and reports, per MCP revision, how closely its findings match.

use std::io::{self, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use mcpdesc_conformance::backend::external::{
    ExternalValidator, Mode, Pool, parse_source_text, split_command,
};
use mcpdesc_conformance::backend::interrupt;
use mcpdesc_conformance::backend::schedule::{Backend, Claimed, InProcess, Schedule};
use mcpdesc_conformance::baseline::Baseline;
use mcpdesc_conformance::bless;
use mcpdesc_conformance::emit;
use mcpdesc_conformance::emit::files::{Badges, Junit, Markdown, ReportFile};
use mcpdesc_conformance::emit::github::Annotations;
use mcpdesc_conformance::emit::human::{Human, Progress};
use mcpdesc_conformance::emit::json::JsonLines;
use mcpdesc_conformance::emit::paint::{ColorChoice, Palette};
use mcpdesc_conformance::emit::text as report;
use mcpdesc_conformance::emit::{Emitters, escape};
use mcpdesc_conformance::event::{RunMode, RunOptions, RunStarted, SuiteIdentity};
use mcpdesc_conformance::exit::Status;
use mcpdesc_conformance::file::{Written, refuse_overwrite};
use mcpdesc_conformance::input::InputKind;
use mcpdesc_conformance::outcome::claims::Claims;
use mcpdesc_conformance::outcome::comparison::Level;
use mcpdesc_conformance::pages;
use mcpdesc_conformance::reports;
use mcpdesc_conformance::reports::Named;
use mcpdesc_conformance::reports::matrix::Matrix;
use mcpdesc_conformance::reports::merge;
use mcpdesc_conformance::reports::regression::Regressions;
use mcpdesc_conformance::reports::statement::Statement;
use mcpdesc_conformance::run::Finished;
use mcpdesc_conformance::suite::case::{self, Partition, Selection};
use mcpdesc_conformance::suite::compiled;
use mcpdesc_conformance::suite::coverage::Coverage;
use mcpdesc_conformance::suite::tree::SuiteTree;
use mcpdesc_conformance::suite::{SuiteProblemKind, SuiteSet};
use mcpdesc_protocol::{Revision, Revisions, SourceTextSupport};
use mcpdesc_validator::ReferenceValidator;
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(name = "mcpdesc-conformance", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the suite (against the built-in reference validator).
    Run(Box<RunArgs>),
    /// List the cases a `run` with the same options would run.
    List(SelectArgs),
    /// Show cases: each one's fixture with line numbers, its `x-test`
    /// member and the findings expected under its revision; with
    /// `--validator`, also what that validator reports and the diff.
    ///
    /// Exit status: 0 when the cases are shown (with --validator, when they
    /// pass at --level), 1 when the validator fails one, 2 for a case the
    /// suite does not have (the nearest IDs are named, and nothing is
    /// shown), 3 when the validator cannot be started.
    Show(Box<ShowArgs>),
    /// Check an adapter on a few cases and explain what it does wrong.
    Smoke(SmokeArgs),
    /// Lint the suite and print its rule-by-revision coverage table.
    Check(CheckArgs),
    /// Write expectations from the reference validator, showing the diff.
    Bless(BlessArgs),
    /// Write the rule reference pages (Markdown) from the catalogs.
    Docs(DocsArgs),
    /// Run the suite and write its failures as a baseline of known failures.
    Baseline(Box<BaselineArgs>),
    /// Run the suite and write a conformance statement a third party can
    /// check; or check one (`--check STATEMENT`).
    Certify(Box<CertifyArgs>),
    /// Merge shard reports (`run --partition hash:M/N --report FILE`) into
    /// the run they are parts of, and write its outputs.
    Merge(MergeArgs),
    /// Compare implementations from their reports: a matrix of rules ×
    /// implementations (× revisions), as HTML and Markdown; or, with
    /// --before and --after, two reports of one validator case by case.
    Compare(CompareArgs),
    /// Find where a validator disagrees with another (by default the
    /// built-in reference validator) on documents made from the suite's
    /// fixtures by seeded mutation; shrink each disagreement.
    Diff(Box<DiffArgs>),
}

#[derive(Debug, Args)]
struct DiffArgs {
    #[command(flatten)]
    external: ExternalArgs,
    /// The validator to compare with (session mode), instead of the
    /// built-in reference validator in process.
    #[arg(long, value_name = "CMD")]
    against: Option<String>,
    /// The level findings are compared at.
    #[arg(long, value_name = "LEVEL", default_value = "exact", value_parser = ["verdict", "rules", "exact"])]
    level: String,
    /// How many documents to make.
    #[arg(long, value_name = "N", default_value = "1000")]
    cases: u64,
    /// The seed: the same seed makes the same documents on any machine.
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// How long the whole run may take (`30s`, `5m`), shrinking included:
    /// documents are made for at most half of it.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    time: Option<Duration>,
    /// How many distinct disagreements are shrunk and written (the first
    /// found); the others are counted.
    #[arg(long, value_name = "N", default_value_t = mcpdesc_conformance::diff::MAX_SHRUNK)]
    max_shrunk: usize,
    /// Write each distinct disagreement into DIR: its shrunk document as a
    /// ready-to-add fixture, and disagreement.json. DIR must be new or
    /// empty (or, with --force, written by an earlier diff).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Let --out name the folder of an earlier diff: the files its
    /// mcpdesc-diff.json lists are removed before the new ones are
    /// written. Files it does not list are never removed, and still refuse
    /// the folder.
    #[arg(long, requires = "out")]
    force: bool,
    /// A suite working tree to take the fixtures and revisions from.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// The cases, as `list` prints them (`<suite>/<class>/<file>@<revision>`),
    /// or fixture IDs without `@revision`: the fixture under each of its
    /// revisions. Several are shown one after another, in the order given.
    #[arg(value_name = "CASE", required = true, num_args = 1..)]
    cases: Vec<String>,
    /// A suite working tree instead of the suite built into this binary.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
    #[command(flatten)]
    external: ExternalArgs,
    /// With --validator: the level that decides the exit status.
    #[arg(long, value_name = "LEVEL", default_value = "exact", value_parser = ["verdict", "rules", "exact"])]
    level: String,
}

#[derive(Debug, Args)]
struct CompareArgs {
    /// The JSON reports of the implementations (`run --report FILE`), one
    /// per implementation, in the order of the columns.
    #[arg(value_name = "REPORT", required_unless_present = "before")]
    reports: Vec<PathBuf>,
    /// The regression view: the report before a change; with --after, the
    /// cases that newly fail, are fixed, changed outcome, were added or
    /// removed, per rule and revision, as Markdown. Exits 1 when some case
    /// newly fails.
    #[arg(long, value_name = "OLD", requires = "after", conflicts_with_all = ["reports", "html"])]
    before: Option<PathBuf>,
    /// The regression view: the report after the change.
    #[arg(long, value_name = "NEW", requires = "before")]
    after: Option<PathBuf>,
    /// Name a report (one of REPORT, --before or --after, as given): the
    /// name heads its column instead of the implementation's name and
    /// version. Repeatable.
    #[arg(long = "label", value_name = "NAME=FILE", value_parser = label)]
    labels: Vec<(String, PathBuf)>,
    /// Take the fixtures shown on the HTML page (each case's `x-test` and
    /// document) from this suite working tree instead of the suite built
    /// into this binary; they are shown when its content hash is the
    /// reports'.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
    /// Write the comparison as one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Write the comparison (or the regression view) as Markdown [default:
    /// on stdout when neither --html nor --markdown is given].
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// The level the pass rates are counted at.
    #[arg(long, value_name = "LEVEL", default_value = "exact", value_parser = ["verdict", "rules", "exact"])]
    level: String,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// The shards' JSON reports.
    #[arg(value_name = "REPORT", required = true)]
    reports: Vec<PathBuf>,
    /// The suite working tree the shards ran, instead of the suite built
    /// into this binary (checked against the reports' content hash).
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
    /// Known failures (YAML), applied to the merged results as `run
    /// --baseline` applies them; the shards' own marks are not taken.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    #[command(flatten)]
    outputs: OutputArgs,
    #[command(flatten)]
    color: ColorArgs,
}

#[derive(Debug, Args)]
struct DocsArgs {
    /// The folder to write the pages into (a suite tree keeps them in
    /// docs/rules, where `check` compares them).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// A suite working tree instead of the suite built into this binary.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct SmokeArgs {
    #[command(flatten)]
    external: ExternalArgs,
    #[command(flatten)]
    color: ColorArgs,
}

/// Colour in what a command prints on stdout for people.
#[derive(Debug, Args)]
struct ColorArgs {
    /// Colour the report on stdout: `auto` when stdout is a terminal and
    /// NO_COLOR is not set (CLICOLOR_FORCE colours a pipe too); `always`
    /// also into a pipe, whatever NO_COLOR says. Files and JSON are never
    /// coloured.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
}

impl ColorArgs {
    /// The palette of stdout.
    fn palette(&self) -> anyhow::Result<Palette> {
        let choice: ColorChoice = self.color.parse()?;
        Ok(choice.palette(io::stdout().is_terminal(), |name| std::env::var_os(name)))
    }
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// A suite working tree instead of the suite built into this binary.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
    /// Also list every requirement of the inventory: its section, kind and
    /// state, and the rules that check it or why nothing does yet.
    #[arg(long)]
    requirements: bool,
}

#[derive(Debug, Args)]
struct SelectArgs {
    /// A suite working tree (holding suites/, fixtures/, expected/) instead of
    /// the suite built into this binary.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
    /// Only this suite (repeatable).
    #[arg(long = "suite", value_name = "NAME")]
    suites: Vec<String>,
    /// Only this MCP revision (repeatable).
    #[arg(long = "revision", value_name = "REVISION")]
    revisions: Vec<Revision>,
    /// Only cases that match (repeatable). A case ID as `list` prints it,
    /// `<suite>/<class>/<file>@<revision>`, selects exactly that case; a
    /// pattern without `@` is matched against the fixture ID
    /// `<suite>/<class>/<file>` (every revision). `*` (any text, `/`
    /// included) and `?` (one character) are wildcards and make the pattern
    /// match the whole ID; text without them matches anywhere in it. A
    /// filter that selects no case is an error naming the nearest IDs.
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
    /// Only shard M of N (`hash:M/N`), to split a run across CI machines:
    /// a case's shard depends on its ID alone, so it stays in its shard as
    /// cases are added, and the N shards take every case exactly once.
    #[arg(long, value_name = "hash:M/N")]
    partition: Option<Partition>,
}

/// The file outputs of a run, which `merge` writes too.
#[derive(Debug, Args)]
struct OutputArgs {
    /// Also write the whole run as one JSON document (its JSON Schema is
    /// docs/schemas/report.json).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Also write JUnit XML: a testsuite per suite and revision, a testcase
    /// per case.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Also write a Markdown summary (for `$GITHUB_STEP_SUMMARY`).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Also write badges into DIR: shields.io endpoint JSON and SVG, per
    /// level, overall and per revision.
    #[arg(long, value_name = "DIR")]
    badge_dir: Option<PathBuf>,
}

impl OutputArgs {
    /// The files and folders these options write, by option.
    fn written(&self) -> Vec<Written<'_>> {
        [
            ("--report", &self.report, false),
            ("--junit", &self.junit, false),
            ("--markdown", &self.markdown, false),
            ("--badge-dir", &self.badge_dir, true),
        ]
        .into_iter()
        .filter_map(|(option, path, folder)| {
            path.as_deref().map(|path| Written {
                option,
                path,
                folder,
            })
        })
        .collect()
    }

    /// Adds an emitter for each file output asked for.
    fn push_into<'a>(&self, emitters: &mut Emitters<'a>, set: &'a SuiteSet, level: Level) {
        if let Some(path) = &self.report {
            emitters.push(ReportFile::new(path.clone()));
        }
        if let Some(path) = &self.junit {
            emitters.push(Junit::new(path.clone(), set, level));
        }
        if let Some(path) = &self.markdown {
            emitters.push(Markdown::new(path.clone(), set, level));
        }
        if let Some(dir) = &self.badge_dir {
            emitters.push(Badges::new(dir.clone()));
        }
    }
}

#[derive(Debug, Args)]
struct RunArgs {
    #[command(flatten)]
    select: SelectArgs,
    #[command(flatten)]
    external: ExternalArgs,
    /// The level that decides the exit status.
    #[arg(long, value_name = "LEVEL", default_value = "exact", value_parser = ["verdict", "rules", "exact"])]
    level: String,
    /// What stdout carries: the human report, or the run's events as JSON
    /// lines (one object per line, for tools).
    #[arg(long, value_name = "FORMAT", default_value = "human", value_parser = ["human", "json"])]
    format: String,
    #[command(flatten)]
    outputs: OutputArgs,
    /// GitHub Actions annotations on stdout, one per failing finding at its
    /// fixture line [default: github when GITHUB_ACTIONS=true, else none].
    #[arg(long, value_name = "KIND", value_parser = ["github", "none"])]
    annotations: Option<String>,
    /// Print the summary only, not the header and the failures.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    color: ColorArgs,
    /// Known failures (YAML): a listed case that fails does not fail the
    /// run; a stale entry does (one naming a single case that passes, or a
    /// pattern none of whose cases fails), and the run prints the command
    /// that rewrites the file; an entry that matches no case is an error.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// The rules the validator is judged on, instead of those it announces
    /// (one-shot validators announce none): a file with one rule ID per
    /// line (`#` starts a comment), or a comma-separated list of rule IDs.
    /// Only the findings of these rules are judged; every rule ID must be
    /// in a catalog.
    #[arg(long, value_name = "FILE|LIST")]
    rules: Option<String>,
}

impl RunArgs {
    /// The files the run reads besides the suite: the baseline, and the
    /// rules file.
    fn inputs(&self) -> Vec<&Path> {
        let rules = self
            .rules
            .as_deref()
            .map(Path::new)
            .filter(|path| path.is_file());
        self.baseline.as_deref().into_iter().chain(rules).collect()
    }
}

/// Refuses an output among `outputs` that is one of `inputs`, which it
/// would overwrite.
fn refuse_overwriting(inputs: &[&Path], outputs: &[Written<'_>]) -> anyhow::Result<()> {
    refuse_overwrite(inputs, outputs)
        .map_err(|error| anyhow::anyhow!("{}", escape::line(&error.to_string())))
}

#[derive(Debug, Args)]
struct BaselineArgs {
    #[command(flatten)]
    run: RunArgs,
    /// The baseline file to write: the entries already in the file that
    /// are not stale are kept as they are (patterns, reasons and links);
    /// every other case that fails at the level gets an entry by its case
    /// ID.
    #[arg(long, value_name = "FILE")]
    output: PathBuf,
}

#[derive(Debug, Args)]
struct CertifyArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Write the conformance statement here (JSON; its schema is
    /// docs/schemas/statement.json).
    #[arg(long, value_name = "FILE", required_unless_present = "check")]
    statement: Option<PathBuf>,
    /// Also write the statement as Markdown, for a README to link to.
    #[arg(long, value_name = "FILE", requires = "statement")]
    statement_markdown: Option<PathBuf>,
    /// Check STATEMENT instead: run what it states (its selection, level,
    /// claimed rules and known failures, which take the place of the
    /// command line's) against the validator given now, and say whether
    /// every figure still holds (exit status 0) or where it does not (1).
    #[arg(long, value_name = "STATEMENT", conflicts_with_all = ["statement", "baseline", "rules"])]
    check: Option<PathBuf>,
    /// With --check: read the results from this JSON report (`run
    /// --report`) instead of running the validator.
    #[arg(long, value_name = "REPORT", requires = "check")]
    check_report: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ExternalArgs {
    /// An external validator's command line (words split as a shell would,
    /// without expansion), spoken to in session mode.
    #[arg(long, value_name = "CMD")]
    validator: Option<String>,
    /// Start one process per case instead (one-shot mode).
    #[arg(long, requires = "validator")]
    oneshot: bool,
    /// How many cases run at once (validator processes, or threads for the
    /// built-in validator) [default: the number of CPUs].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Session mode: how many requests each validator process has in
    /// flight at once (replies matched by `seq`); 1 blames every failure
    /// exactly, more is faster.
    #[arg(long, value_name = "N", default_value = "1", requires = "validator",
          conflicts_with = "oneshot", value_parser = clap::value_parser!(u16).range(1..))]
    pipeline: u16,
    /// How long one case may take: seconds (`5`, `1.5`) or a duration with
    /// a unit (`500ms`, `2s`, `1m`).
    #[arg(long, value_name = "DURATION", default_value = "5", requires = "validator",
          value_parser = duration, allow_hyphen_values = true)]
    timeout: Duration,
    /// How long a fresh validator process may take to answer `start`
    /// (written as for `--timeout`).
    #[arg(long, value_name = "DURATION", default_value = "10", requires = "validator",
          value_parser = duration, allow_hyphen_values = true)]
    start_timeout: Duration,
    /// The longest reply line accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value = "16777216", requires = "validator",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_line_bytes: u64,
    /// The most diagnostics one reply may carry; a longer reply is a
    /// protocol error for its case.
    #[arg(long, value_name = "N", default_value = "10000", requires = "validator",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_diagnostics: u64,
    /// Give up on the validator after this many crashes, timeouts or
    /// protocol errors in a row; the remaining cases are reported as not run.
    #[arg(long, value_name = "N", default_value = "10", requires = "validator",
          value_parser = clap::value_parser!(u32).range(1..))]
    max_consecutive_failures: u32,
    /// The formats of source text the validator reads, instead of those it
    /// announces (`sourceText`; a one-shot validator announces none):
    /// `json`, `yaml`, `json,yaml`, or `none`. Serialization cases are
    /// sent as text only in these formats; the others are skipped.
    #[arg(long, value_name = "FORMATS", requires = "validator", value_parser = source_text)]
    source_text: Option<SourceTextSupport>,
}

impl ExternalArgs {
    /// The external validator these options name, if any, to run against a
    /// suite of `revisions`.
    fn validator(&self, revisions: &Revisions) -> anyhow::Result<Option<ExternalValidator>> {
        let Some(line) = &self.validator else {
            return Ok(None);
        };
        let argv = split_command(line)?;
        let mode = if self.oneshot {
            Mode::Oneshot
        } else {
            Mode::Session
        };
        let mut validator = ExternalValidator::new(argv, mode, revisions.clone());
        validator.timeout = self.timeout;
        validator.start_timeout = self.start_timeout;
        validator.max_line = usize::try_from(self.max_line_bytes).unwrap_or(usize::MAX);
        validator.max_diagnostics = usize::try_from(self.max_diagnostics).unwrap_or(usize::MAX);
        validator.max_consecutive_failures =
            usize::try_from(self.max_consecutive_failures).unwrap_or(usize::MAX);
        if let Some(jobs) = self.jobs {
            validator.jobs = usize::from(jobs);
        }
        validator.pipeline = usize::from(self.pipeline);
        validator.source_text = self.source_text.clone();
        Ok(Some(validator))
    }
}

/// Parses `--source-text`: `json`, `yaml`, `json,yaml`, or `none`.
fn source_text(text: &str) -> Result<SourceTextSupport, String> {
    parse_source_text(text).map_err(|error| error.to_string())
}

/// The shortest time limit accepted: below it every validator would time
/// out, so it is surely a mistake (`--timeout 1ms`).
const SHORTEST_LIMIT: Duration = Duration::from_millis(10);

/// The longest time limit accepted.
const LONGEST_LIMIT: Duration = Duration::from_secs(24 * 60 * 60);

/// Parses `--label NAME=FILE`: the name is what comes before the first
/// `=`, so a file name may hold one.
fn label(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, file)) if !name.is_empty() && !file.is_empty() => {
            Ok((name.to_owned(), PathBuf::from(file)))
        }
        _ => Err(format!(
            "`{text}` is not NAME=FILE (a label, `=`, and one of the reports given)"
        )),
    }
}

/// Parses a time limit as people write them: seconds as a plain number
/// (`5`, `1.5`), or a number with a unit (`500ms`, `2s`, `1m`, `1m 30s`).
fn duration(text: &str) -> Result<Duration, String> {
    let forms = "give seconds (`5`, `1.5`) or a duration with a unit (`500ms`, `2s`, `1m`)";
    let trimmed = text.trim();
    let parsed = match trimmed.parse::<f64>() {
        Ok(seconds) if seconds.is_nan() => {
            return Err(format!("`{text}` is not a number; {forms}"));
        }
        Ok(seconds) if seconds <= 0.0 => {
            return Err(format!("`{text}` is not a positive duration; {forms}"));
        }
        Ok(seconds) => Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX),
        Err(_) => humantime::parse_duration(trimmed)
            .map_err(|error| format!("`{text}` is not a duration ({error}); {forms}"))?,
    };
    if parsed < SHORTEST_LIMIT {
        return Err(format!(
            "`{text}` is too short to be a time limit; the shortest is {}",
            humantime::format_duration(SHORTEST_LIMIT)
        ));
    }
    if parsed > LONGEST_LIMIT {
        return Err(format!(
            "`{text}` is too long to be a time limit; the longest is {}",
            humantime::format_duration(LONGEST_LIMIT)
        ));
    }
    Ok(parsed)
}

#[derive(Debug, Args)]
struct BlessArgs {
    /// The suite working tree to write expectations into.
    #[arg(long, value_name = "DIR", default_value = ".")]
    suite_dir: PathBuf,
    /// Only fixtures whose ID matches (repeatable); orphan expectation files
    /// are removed only when no filter is given.
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
    /// Show the diff, write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Compute the expectations with this command (spoken to in session
    /// mode) instead of the reference validator built into this binary: a
    /// reference validator built from another checkout, such as one that
    /// has just gained a rule.
    #[arg(long, value_name = "CMD")]
    validator: Option<String>,
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches)
        .unwrap_or_else(|error| error.format(&mut Cli::command()).exit());
    let status = match cli.command {
        Command::Run(args) => {
            let given = matches.subcommand_matches("run");
            execute(*args, End::Run, given)
        }
        Command::List(args) => list(args),
        Command::Show(args) => show(*args),
        Command::Smoke(args) => smoke(args),
        Command::Check(args) => check(args),
        Command::Bless(args) => bless(args),
        Command::Baseline(args) => {
            let BaselineArgs { run: args, output } = *args;
            execute(args, End::Baseline(&output), None)
        }
        Command::Certify(args) => certify(*args),
        Command::Docs(args) => docs(args),
        Command::Merge(args) => merge(args),
        Command::Compare(args) => compare(args),
        Command::Diff(args) => diff(*args),
    };
    match status {
        Ok(status) => status.into(),
        // The reader went away (`run | head -1`): nothing is left to say to
        // it, and it got what it wanted.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            Status::UsageOrSuite.into()
        }
    }
}

/// Says which changed expectations the suite's newest version does not
/// list, so that the maintainer records them (or starts a new version)
/// before validators' CI meets them as regressions.
fn remind_of_the_changelog(set: &SuiteSet, changes: &[bless::Change]) {
    let Some(newest) = set.changelog.newest() else {
        return;
    };
    let unlisted: Vec<&str> = changes
        .iter()
        .filter_map(|change| {
            change
                .path
                .strip_prefix("expected/")
                .and_then(|path| path.strip_suffix(".yaml"))
        })
        .filter(|fixture| !newest.lists(fixture))
        .collect();
    if unlisted.is_empty() {
        return;
    }
    eprintln!(
        "note: the expectations of {} fixture(s) changed, and {} (the suite's newest version, \
         {}) does not list them: {}; list them in its `added`, `changed` or `removed`, or start a new \
         version, so that a validator's CI can tell the change from a regression",
        unlisted.len(),
        mcpdesc_conformance::suite::CHANGELOG_FILE,
        newest.version,
        unlisted
            .iter()
            .map(|fixture| format!("`{}`", escape::line(fixture)))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// Whether `error` comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|error| error.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Loads the suite the options name, and checks the names they use.
fn load(select: &SelectArgs) -> anyhow::Result<(SuiteSet, Selection)> {
    let tree = SuiteTree::open(select.suite_dir.as_deref())?;
    let set = SuiteSet::load(tree);
    let known: Vec<&str> = set
        .suites
        .iter()
        .map(|suite| suite.catalog.suite.as_str())
        .collect();
    for name in &select.suites {
        anyhow::ensure!(
            known.contains(&name.as_str()),
            "no suite named `{name}` (the suites are: {})",
            known.join(", ")
        );
    }
    for revision in &select.revisions {
        anyhow::ensure!(
            set.revisions.contains(*revision),
            "the suite has no MCP revision {revision} (its revisions are: {})",
            set.revisions.names()
        );
    }
    let selection = Selection {
        suites: select.suites.clone(),
        revisions: select.revisions.clone(),
        filters: select.filters.clone(),
        partition: select.partition,
    };
    // A filter that selects nothing is a typo more often than not: say so
    // with the IDs it was probably meant to be, even when other filters
    // select cases.
    let unmatched = selection.unmatched(&set);
    if !unmatched.is_empty() {
        let lines: Vec<String> = unmatched.iter().map(ToString::to_string).collect();
        let prefix = if selection.cases(&set).is_empty() {
            "no case matches the selection: "
        } else {
            ""
        };
        anyhow::bail!("{prefix}{}", lines.join("\n"));
    }
    Ok((set, selection))
}

/// What a run does besides its outputs.
enum End<'a> {
    /// Nothing.
    Run,
    /// Writes its failures at this path as a baseline.
    Baseline(&'a Path),
    /// Makes its conformance statement.
    Certify(&'a mut Option<Statement>),
    /// Makes its conformance statement to check `stated` (read from
    /// `file`), whose known failures are the run's baseline.
    Check {
        /// The statement checked.
        stated: &'a Statement,
        /// Where it was read from, for errors.
        file: &'a Path,
        /// The statement of this run.
        out: &'a mut Option<Statement>,
    },
}

/// `certify`: runs the suite and writes its statement, or checks one.
fn certify(args: CertifyArgs) -> anyhow::Result<Status> {
    let CertifyArgs {
        run: mut run_args,
        statement: path,
        statement_markdown,
        check,
        check_report,
    } = args;
    let mut inputs = run_args.inputs();
    inputs.extend(check.as_deref());
    inputs.extend(check_report.as_deref());
    let mut outputs = run_args.outputs.written();
    for (option, path) in [
        ("--statement", &path),
        ("--statement-markdown", &statement_markdown),
    ] {
        outputs.extend(path.as_deref().map(|path| Written {
            option,
            path,
            folder: false,
        }));
    }
    refuse_overwriting(&inputs, &outputs)?;
    drop((inputs, outputs));
    let Some(check) = check else {
        let mut statement = None;
        let status = execute(run_args, End::Certify(&mut statement), None)?;
        let Some(statement) = statement else {
            return Ok(status);
        };
        emit::statement::write(&statement, path.as_deref(), statement_markdown.as_deref())?;
        if let Some(path) = &path {
            eprintln!(
                "wrote the conformance statement ({} profile) to {}",
                statement.profile.as_str(),
                path.display()
            );
        }
        return Ok(status);
    };
    let stated = reports::statement::read(&check)?;
    if let Some(path) = check_report {
        let shard = merge::Shard {
            report: read_report(&path)?,
            path,
        };
        let set = SuiteSet::load(SuiteTree::open(run_args.select.suite_dir.as_deref())?);
        // The statement's known failures are the baseline of its check, as
        // when it runs the validator.
        let known = stated.baseline_entries();
        let baseline = if known.is_empty() {
            None
        } else {
            Some(Baseline::new(known.clone()).matched(
                &check.display().to_string(),
                &Selection::default().cases(&set),
            )?)
        };
        let merged = merge::merge(vec![shard], &set, &set.tree.source(), baseline.as_ref())
            .map_err(|error| anyhow::anyhow!("{}", escape::line(&error.to_string())))?;
        let mut now = None;
        merged.replay(&mut emit::statement::Certify::new(known, &mut now))?;
        return Ok(match now {
            Some(now) => holds(&stated, &now),
            None => Status::UsageOrSuite,
        });
    }
    // What the statement states decides the run; the command line gives
    // the validator and how to reach it.
    run_args.level = stated.level.clone();
    run_args.quiet = true;
    run_args.rules = stated
        .claims
        .listed
        .as_ref()
        .map(|listed| listed.iter().cloned().collect::<Vec<_>>().join(","));
    let selection =
        Selection::from_words(&stated.selection).with_context(|| format!("{}", check.display()))?;
    let select = &mut run_args.select;
    select.suites = selection.suites;
    select.revisions = selection.revisions;
    select.filters = selection.filters;
    select.partition = selection.partition;
    let mut now = None;
    let end = End::Check {
        stated: &stated,
        file: &check,
        out: &mut now,
    };
    let status = execute(run_args, end, None)?;
    let Some(now) = now else {
        return Ok(status);
    };
    Ok(holds(&stated, &now))
}

/// Says whether `stated` still holds, `now` being the statement of the
/// same selection made again, and the exit status that says it.
fn holds(stated: &Statement, now: &Statement) -> Status {
    let differences = stated.differences(now);
    if differences.is_empty() {
        println!(
            "the statement holds: {} {}, {} profile, suite {}, {} of {} rules at the {} level",
            escape::line(&now.implementation.name),
            escape::line(&now.implementation.version),
            now.profile.as_str(),
            now.suite.version,
            now.claims.claimed,
            now.claims.catalog,
            now.level
        );
        return Status::Success;
    }
    println!("the statement no longer holds:");
    for difference in &differences {
        println!("  - {}", escape::line(difference));
    }
    Status::Failures
}

/// Runs the suite as `args` say, and does what `end` asks besides.
/// `given` is what the command line of `run` said, for the command that
/// rewrites a stale baseline.
fn execute(args: RunArgs, end: End<'_>, given: Option<&ArgMatches>) -> anyhow::Result<Status> {
    let write_baseline = match &end {
        End::Baseline(path) => Some(*path),
        _ => None,
    };
    // `baseline --output` rewrites the baseline it reads, as it should.
    refuse_overwriting(&args.inputs(), &args.outputs.written())?;
    interrupt::install().context("cannot handle interrupting signals")?;
    let level: Level = args.level.parse().map_err(anyhow::Error::msg)?;
    let (set, selection) = load(&args.select)?;
    let cases = selection.cases(&set);
    let external = args.external.validator(&set.revisions)?;
    let source = set.tree.source();
    // A broken suite would be blamed on the validator (a case whose
    // expectation names an unknown rule fails whatever it replies), so
    // nothing is judged until the suite is sound.
    if !set.problems.is_empty() {
        eprint!("{}", report::problems(&set.problems));
        let count = match set.problems.len() {
            1 => "a problem".to_owned(),
            n => format!("{n} problems"),
        };
        eprintln!(
            "error: the suite has {count}; no case was judged (fix the suite first; \
             `mcpdesc-conformance check` lists them too)"
        );
        return Ok(Status::UsageOrSuite);
    }
    anyhow::ensure!(!cases.is_empty(), "no case matches the selection");
    let suite_cases = Selection::default().cases(&set);
    // The baseline to rewrite is read before the run, so that a file that
    // cannot be read costs nothing; reasons are kept from the file as it
    // is, whatever it matches now.
    let old = match write_baseline {
        Some(path) if path.exists() || path.is_symlink() => Some(Baseline::read(path)?),
        Some(_) => Some(Baseline::default()),
        None => None,
    };
    let baseline = match (&end, &args.baseline) {
        // A statement's known failures are the baseline of its check.
        (End::Check { stated, file, .. }, _) if !stated.known_failures.is_empty() => Some(
            Baseline::new(stated.baseline_entries())
                .matched(&file.display().to_string(), &suite_cases)?,
        ),
        (End::Check { .. }, _) => None,
        (_, Some(path)) => Some(Baseline::load(path, &suite_cases)?),
        (_, None) => None,
    };
    let schedule = match &external {
        Some(external) => external.schedule(),
        None => Schedule {
            jobs: args
                .external
                .jobs
                .map_or(Schedule::default().jobs, usize::from),
            ..Schedule::default()
        },
    };
    let (backend, mode): (Box<dyn Backend>, RunMode) = match &external {
        None => (Box::new(reference(&set)), RunMode::InProcess),
        Some(external) => match start(external.clone()) {
            Ok(pool) => (Box::new(pool), RunMode::from(external.mode)),
            Err(status) => return Ok(status),
        },
    };
    let (backend, claims) = match claim(backend, args.rules.as_deref(), &set) {
        Ok(claimed) => claimed,
        Err(status) => return Ok(status),
    };
    let started = RunStarted {
        harness_version: env!("CARGO_PKG_VERSION").to_owned(),
        suite: SuiteIdentity {
            source,
            hash: set.tree.content_hash(),
            version: set.changelog.version().to_owned(),
        },
        implementation: backend.implementation().clone(),
        mode,
        options: RunOptions {
            level,
            // Processes, as `--jobs` says, not the cases in flight.
            jobs: external
                .as_ref()
                .map_or(schedule.jobs, |external| external.jobs),
            timeout: external.as_ref().map(|external| external.timeout),
            max_diagnostics: external.as_ref().map(|external| external.max_diagnostics),
            max_consecutive_failures: schedule.max_consecutive_failures,
            selection: selection.words(),
        },
        cases: cases.len(),
        claims,
        command_line: command_line(),
    };
    let mut emitters = Emitters::default();
    let json = args.format == "json";
    if json {
        emitters.push(JsonLines::new(io::stdout()));
    } else {
        let progress = (!args.quiet && io::stderr().is_terminal())
            .then(|| Box::new(Bar::new(cases.len())) as Box<dyn Progress>);
        emitters.push(
            Human::new(io::stdout(), &set, level, args.quiet)
                .with_progress(progress)
                .with_palette(args.color.palette()?),
        );
    }
    let annotate = match args.annotations.as_deref() {
        Some(kind) => kind == "github",
        None => std::env::var("GITHUB_ACTIONS").is_ok_and(|value| value == "true"),
    };
    // Annotations share stdout with the report; JSON lines must stay JSON.
    if annotate && !json {
        emitters.push(Annotations::new(io::stdout(), &set, level));
    }
    args.outputs.push_into(&mut emitters, &set, level);
    if let End::Certify(out) | End::Check { out, .. } = end {
        let entries = baseline
            .as_ref()
            .map(|baseline| baseline.failures.clone())
            .unwrap_or_default();
        emitters.push(emit::statement::Certify::new(entries, out));
    }
    let Finished {
        results,
        summary,
        end,
        status,
    } = mcpdesc_conformance::run::run(
        &started,
        &cases,
        &set.rules,
        backend,
        &schedule,
        baseline.as_ref(),
        &mut emitters,
    )?;
    drop(emitters);
    if let (Some(baseline), Some(path), None) = (&baseline, &args.baseline, write_baseline) {
        let stale = baseline.stale(&cases, &results, level);
        if !stale.is_empty() {
            eprint!("{}", stale_message(&stale, path, given));
        }
    }
    if let Some(path) = write_baseline {
        if end.interrupted.is_some() || end.gave_up {
            eprintln!(
                "error: the run did not finish; {} was not written",
                path.display()
            );
            return Ok(status);
        }
        let new = old
            .unwrap_or_default()
            .of_run(&suite_cases, &cases, &results, level);
        new.write(path)?;
        eprintln!(
            "wrote {} known failure(s) to {}",
            new.failures.len(),
            path.display()
        );
        return Ok(Status::Success);
    }
    if end.interrupted.is_none() {
        if end.gave_up {
            eprintln!(
                "error: gave up on the validator after {} failures in a row; the remaining cases were not run",
                schedule.max_consecutive_failures
            );
        } else if summary.total.judged() == 0 {
            let total = &summary.total;
            if total.unclaimed == 0 {
                eprintln!("error: no case was judged: the validator skipped every selected case");
            } else {
                eprintln!(
                    "error: no case was judged: {} of the selected cases expect findings only of \
                     rules the validator does not claim, and it skipped the other {}",
                    total.unclaimed, total.skipped
                );
            }
        }
    }
    Ok(status)
}

/// The claims `backend` is judged on: the rules of `--rules` (`listed`)
/// when given, else those it announces. A claim of a rule that no catalog
/// defines is refused, with the status the command ends with: 2 for the
/// command line's, 3 for a validator's own (its `start` reply is wrong).
fn claim<'a>(
    backend: Box<dyn Backend + 'a>,
    listed: Option<&str>,
    set: &SuiteSet,
) -> Result<(Box<dyn Backend + 'a>, Claims), Status> {
    let backend: Box<dyn Backend + 'a> = match listed {
        None => backend,
        Some(text) => match claimed_rules(text) {
            Ok(rules) => Box::new(Claimed::new(backend, rules)),
            Err(error) => {
                eprintln!("error: --rules: {error:#}");
                return Err(Status::UsageOrSuite);
            }
        },
    };
    let claims = Claims::of(backend.implementation(), &set.rules);
    let unknown = claims.unknown(&set.rules);
    if unknown.is_empty() {
        return Ok((backend, claims));
    }
    let whose = if listed.is_some() {
        "--rules names"
    } else {
        "the validator claims (`rules` in its reply to `start`)"
    };
    eprintln!(
        "error: {whose} {}; a claim of an unknown rule would judge nothing \
         (`mcpdesc-conformance check` prints the catalogs' rules)",
        report::unknown_rules(&unknown, &set.rules)
    );
    Err(if listed.is_some() {
        Status::UsageOrSuite
    } else {
        Status::ValidatorUnavailable
    })
}

/// The rule IDs `--rules` gives: the lines of the file it names (without
/// `#` comments and blank lines), or the comma-separated list it is.
fn claimed_rules(text: &str) -> anyhow::Result<Vec<String>> {
    let path = Path::new(text);
    // Whatever the path names is read as a file, so that a FIFO or a
    // folder is refused as such instead of being taken for a list.
    let rules: Vec<String> = if path.exists() {
        let content = mcpdesc_conformance::input::read_text(path, InputKind::Rules)?;
        content
            .lines()
            .map(|line| {
                line.split_once('#')
                    .map_or(line, |(before, _)| before)
                    .trim()
            })
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect()
    } else {
        text.split(',')
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_owned)
            .collect()
    };
    anyhow::ensure!(
        !rules.is_empty(),
        "`{}` names no rule: give a file of rule IDs (one per line) or a comma-separated list",
        escape::line(text)
    );
    Ok(rules)
}

/// The options of `run` that decide which cases pass and fail: the others
/// (the outputs, and the baseline replaced by `--output`) are left out of
/// the command that rewrites a baseline.
const OUTPUT_OPTIONS: [&str; 9] = [
    "baseline",
    "format",
    "report",
    "junit",
    "markdown",
    "badge_dir",
    "annotations",
    "quiet",
    "color",
];

/// Says which baseline entries are stale, and how to rewrite the file at
/// `path`: the command line of `run` as `given`, with `baseline --output
/// FILE` instead of `run --baseline FILE`, quoted for a shell.
fn stale_message(
    stale: &[&mcpdesc_conformance::baseline::Entry],
    path: &Path,
    given: Option<&ArgMatches>,
) -> String {
    let mut text = format!(
        "error: {} of the baseline {} stale (listed as known failures, {} pass now):\n",
        match stale.len() {
            1 => "1 entry".to_owned(),
            n => format!("{n} entries"),
        },
        if stale.len() == 1 { "is" } else { "are" },
        if stale.len() == 1 {
            "its cases"
        } else {
            "their cases"
        },
    );
    for entry in stale {
        text.push_str(&format!("  {}\n", escape::line(&entry.label())));
    }
    match given.and_then(|given| rewrite_command(given, path)) {
        Some(command) => text.push_str(&format!(
            "rewrite the baseline (it keeps the entries that still hold) with:\n  {}\n",
            escape::line(&command)
        )),
        None => text.push_str(
            "rewrite the baseline with `mcpdesc-conformance baseline --output FILE` and the same options\n",
        ),
    }
    text
}

/// The command that writes the baseline at `path` for the run whose
/// command line said `given`; `None` when a word is not UTF-8 or cannot be
/// quoted (a NUL byte).
fn rewrite_command(given: &ArgMatches, path: &Path) -> Option<String> {
    let program = std::env::args_os().next();
    let mut words: Vec<String> = vec![
        program
            .as_deref()
            .map_or(Some("mcpdesc-conformance"), |program| program.to_str())?
            .to_owned(),
        "baseline".to_owned(),
    ];
    let command = Cli::command();
    let run = command.find_subcommand("run")?;
    for arg in run.get_arguments() {
        let id = arg.get_id().as_str();
        if OUTPUT_OPTIONS.contains(&id) || given.value_source(id) != Some(ValueSource::CommandLine)
        {
            continue;
        }
        let long = format!("--{}", arg.get_long()?);
        if !arg.get_action().takes_values() {
            words.push(long);
            continue;
        }
        for value in given.get_raw(id)? {
            let value = value.to_str()?;
            // `--timeout -1` would be read as two options by most of them.
            if value.starts_with('-') {
                words.push(format!("{long}={value}"));
            } else {
                words.push(long.clone());
                words.push(value.to_owned());
            }
        }
    }
    words.push("--output".to_owned());
    words.push(path.to_str()?.to_owned());
    shlex::try_join(words.iter().map(String::as_str)).ok()
}

/// The built-in reference validator, in process, knowing the revisions of
/// the suite it is run on.
fn reference(set: &SuiteSet) -> InProcess<ReferenceValidator> {
    InProcess::new(ReferenceValidator::new().with_revisions(set.revisions.clone()))
}

/// Starts `external`'s processes, or says why it cannot and with which exit
/// status the command ends.
fn start(external: ExternalValidator) -> Result<Pool, Status> {
    Pool::start(external).map_err(|unavailable| {
        if let Some(interruption) = interrupt::received() {
            // Killed while starting: by the signal, not the validator.
            eprintln!(
                "interrupted by {} while starting the validator",
                interruption.name()
            );
            return Status::Interrupted(interruption);
        }
        // Later lines are the validator's stderr, indented and escaped, so
        // that none passes for a line of the harness.
        eprint!("error: {}", report::unavailable(&unavailable));
        Status::ValidatorUnavailable
    })
}

/// The progress line on stderr: cases finished out of all.
struct Bar(indicatif::ProgressBar);

impl Bar {
    fn new(cases: usize) -> Bar {
        let bar = indicatif::ProgressBar::new(u64::try_from(cases).unwrap_or(u64::MAX));
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} cases, {elapsed} ({eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Bar(bar)
    }
}

impl Progress for Bar {
    fn advance(&self) {
        self.0.inc(1);
    }

    fn suspend(&self, write: &mut dyn FnMut() -> io::Result<()>) -> io::Result<()> {
        self.0.suspend(write)
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

fn merge(args: MergeArgs) -> anyhow::Result<Status> {
    // A first signal lets the outputs be written whole (a second ends at
    // once, and removes the one being written).
    interrupt::install().context("cannot handle interrupting signals")?;
    let mut inputs: Vec<&Path> = args.reports.iter().map(PathBuf::as_path).collect();
    inputs.extend(args.baseline.as_deref());
    refuse_overwriting(&inputs, &args.outputs.written())?;
    let shards = args
        .reports
        .iter()
        .map(|path| {
            Ok(merge::Shard {
                path: path.clone(),
                report: read_report(path)?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let tree = SuiteTree::open(args.suite_dir.as_deref())?;
    let set = SuiteSet::load(tree);
    let baseline = match &args.baseline {
        Some(path) => Some(Baseline::load(path, &Selection::default().cases(&set))?),
        None => None,
    };
    let mut merged = merge::merge(shards, &set, &set.tree.source(), baseline.as_ref())
        .map_err(|error| anyhow::anyhow!("{}", escape::line(&error.to_string())))?;
    // The merged report is made by this command, not by the first shard's.
    merged.started.command_line = command_line();
    let level = merged.started.options.level;
    let stale = std::mem::take(&mut merged.stale);
    let mut emitters = Emitters::default();
    emitters.push(Human::new(io::stdout(), &set, level, true).with_palette(args.color.palette()?));
    args.outputs.push_into(&mut emitters, &set, level);
    let finished = merged.replay(&mut emitters)?;
    drop(emitters);
    if let Some(path) = &args.baseline
        && !stale.is_empty()
    {
        eprint!(
            "{}",
            stale_message(&stale.iter().collect::<Vec<_>>(), path, None)
        );
    }
    Ok(interrupted().unwrap_or(finished.status))
}

/// The status of a command that was interrupted while it wrote its
/// outputs or files (a signal lets each be written whole), after saying so.
fn interrupted() -> Option<Status> {
    let interruption = interrupt::received()?;
    eprintln!(
        "interrupted by {}; every file was written whole",
        interruption.name()
    );
    Some(Status::Interrupted(interruption))
}

fn compare(args: CompareArgs) -> anyhow::Result<Status> {
    interrupt::install().context("cannot handle interrupting signals")?;
    let level: Level = args.level.parse().map_err(anyhow::Error::msg)?;
    let paths: Vec<&PathBuf> = match (&args.before, &args.after) {
        (Some(before), Some(after)) => vec![before, after],
        _ => args.reports.iter().collect(),
    };
    // Every label names a report given, so that a typo is not a silent
    // column without its name.
    for (name, file) in &args.labels {
        anyhow::ensure!(
            paths.contains(&file),
            "{}",
            escape::line(&format!(
                "--label {name}={}: no report {} is given to compare",
                file.display(),
                file.display()
            ))
        );
    }
    let outputs: Vec<Written<'_>> = [("--html", &args.html), ("--markdown", &args.markdown)]
        .into_iter()
        .filter_map(|(option, path)| {
            path.as_deref().map(|path| Written {
                option,
                path,
                folder: false,
            })
        })
        .collect();
    let inputs: Vec<&Path> = paths.iter().map(|path| path.as_path()).collect();
    refuse_overwriting(&inputs, &outputs)?;
    let reports = paths
        .iter()
        .map(|path| read_report(path))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let named: Vec<Named<'_>> = paths
        .iter()
        .zip(&reports)
        .map(|(path, report)| Named {
            path,
            report,
            label: args
                .labels
                .iter()
                .rev()
                .find(|(_, file)| file == *path)
                .map(|(name, _)| name.as_str()),
        })
        .collect();
    if let [before, after] = named[..]
        && args.before.is_some()
    {
        return regressions(before, after, level, args.markdown.as_deref());
    }
    let mut matrix = Matrix::of(&named, level)
        .map_err(|error| anyhow::anyhow!("{}", escape::line(&error.to_string())))?;
    if let Some(path) = &args.html {
        let set = SuiteSet::load(SuiteTree::open(args.suite_dir.as_deref())?);
        if let Err(unshown) = matrix.show_fixtures(&set) {
            eprintln!("warning: {}", escape::line(&unshown.to_string()));
        }
        emit::matrix::write_html(&matrix, path)?;
    }
    if let Some(path) = &args.markdown {
        emit::matrix::write_markdown(&matrix, path)?;
    }
    if args.html.is_none() && args.markdown.is_none() {
        let mut out = io::stdout().lock();
        write!(out, "{}", emit::matrix::tables(&matrix))?;
        out.flush()?;
    }
    Ok(interrupted().unwrap_or(Status::Success))
}

/// `compare --before OLD --after NEW`: the regression view, on stdout or
/// in `markdown`; the warnings on stderr too, since a file may go unread.
fn regressions(
    before: Named<'_>,
    after: Named<'_>,
    level: Level,
    markdown: Option<&Path>,
) -> anyhow::Result<Status> {
    let view = Regressions::of(before, after, level)
        .map_err(|error| anyhow::anyhow!("{}", escape::line(&error.to_string())))?;
    for warning in &view.warnings {
        eprintln!(
            "warning: {}",
            escape::line(&emit::regression::warning_text(&view, warning))
        );
    }
    let mut out = io::stdout().lock();
    match markdown {
        Some(path) => {
            emit::regression::write_markdown(&view, path)?;
            writeln!(out, "{}", emit::regression::summary(&view))?;
        }
        None => write!(out, "{}", emit::regression::markdown(&view))?,
    }
    out.flush()?;
    Ok(if view.regressed() {
        Status::Failures
    } else {
        Status::Success
    })
}

/// The harness's own command line, as a report records it (arguments that
/// are not Unicode are kept lossily: the record is for people and scripts
/// to read, not to be executed byte for byte).
fn command_line() -> Vec<String> {
    std::env::args_os()
        .map(|argument| argument.to_string_lossy().into_owned())
        .collect()
}

/// Reads a JSON report; what comes from the file is printed escaped.
fn read_report(path: &Path) -> anyhow::Result<mcpdesc_conformance::reports::Report> {
    mcpdesc_conformance::reports::read(path)
        .map_err(|error| anyhow::anyhow!("{}", escape::line(&error.to_string())))
}

fn list(args: SelectArgs) -> anyhow::Result<Status> {
    let (set, selection) = load(&args)?;
    let cases = selection.cases(&set);
    let mut out = io::stdout().lock();
    for case in &cases {
        writeln!(out, "{}", case.id())?;
    }
    out.flush()?;
    eprint!("{}", report::problems(&set.problems));
    anyhow::ensure!(!cases.is_empty(), "no case matches the selection");
    eprintln!("{} cases", cases.len());
    Ok(if set.problems.is_empty() {
        Status::Success
    } else {
        Status::UsageOrSuite
    })
}

/// Prints one case (or one fixture under each of its revisions); with a
/// validator, judges it too.
fn show(args: ShowArgs) -> anyhow::Result<Status> {
    let level: Level = args.level.parse().map_err(anyhow::Error::msg)?;
    let set = SuiteSet::load(SuiteTree::open(args.suite_dir.as_deref())?);
    // A problem elsewhere in the suite does not hide these cases, but it is
    // said: it may be why a case looks wrong.
    eprint!("{}", report::problems(&set.problems));
    let all = Selection::default().cases(&set);
    // Every ID is looked up before anything is shown, so that a mistyped
    // one is said at once rather than after pages of output.
    let mut shown = Vec::with_capacity(args.cases.len());
    for id in &args.cases {
        let (fixture_id, revision) = match id.rsplit_once('@') {
            Some((fixture, revision)) => (fixture, Some(revision)),
            None => (id.as_str(), None),
        };
        let cases: Vec<_> = all
            .iter()
            .filter(|case| {
                case.entry.fixture.id() == fixture_id
                    && revision.is_none_or(|revision| case.revision.as_str() == revision)
            })
            .copied()
            .collect();
        if cases.is_empty() {
            let nearest = case::nearest_cases(id, &all);
            let mut message = format!("no case `{}` in the suite", escape::line(id));
            if nearest.is_empty() {
                message.push_str("; `list` prints the case IDs");
            } else {
                message.push_str("; the nearest:");
                for id in nearest {
                    message.push_str(&format!("\n  {}", escape::line(&id)));
                }
            }
            anyhow::bail!(message);
        }
        shown.push(cases);
    }
    let validator = match args.external.validator(&set.revisions)? {
        Some(external) => {
            interrupt::install().context("cannot handle interrupting signals")?;
            match start(external) {
                Ok(pool) => Some(pool),
                Err(status) => return Ok(status),
            }
        }
        None => None,
    };
    let mut out = io::stdout().lock();
    let mut status = Status::Success;
    for (index, cases) in shown.iter().enumerate() {
        if index > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", emit::show::fixture(&set, cases[0].entry))?;
        for case in cases {
            writeln!(out)?;
            write!(out, "{}", emit::show::expected(case.entry, case.revision))?;
            let Some(pool) = &validator else {
                continue;
            };
            let implementation = pool.implementation();
            let result = mcpdesc_conformance::judge::runner::judge(
                case,
                &set.rules,
                implementation,
                |request| {
                    pool.call(request)
                        .map_err(mcpdesc_conformance::outcome::Outcome::Failed)
                },
            );
            let name = format!("{} {}", implementation.name, implementation.version);
            write!(out, "{}", emit::show::judged(&set, &name, &result, level))?;
            if result.outcome.passes(level) == Some(false) {
                status = Status::Failures;
            }
        }
    }
    out.flush()?;
    Ok(status)
}

fn smoke(args: SmokeArgs) -> anyhow::Result<Status> {
    let set = SuiteSet::load(SuiteTree::embedded());
    let validator = args
        .external
        .validator(&set.revisions)?
        .context("name the adapter to check with --validator \"CMD ARGS\"")?;
    interrupt::install().context("cannot handle interrupting signals")?;
    let report = mcpdesc_conformance::smoke::smoke(&validator, &set);
    let mut out = io::stdout().lock();
    write!(out, "{}", report.render(&validator, args.color.palette()?))?;
    out.flush()?;
    Ok(if let Some(interruption) = interrupt::received() {
        writeln!(out, "interrupted by {}", interruption.name())?;
        Status::Interrupted(interruption)
    } else if report.unavailable {
        Status::ValidatorUnavailable
    } else if report.problems() > 0 {
        Status::Failures
    } else {
        Status::Success
    })
}

fn check(args: CheckArgs) -> anyhow::Result<Status> {
    let tree = SuiteTree::open(args.suite_dir.as_deref())?;
    let set = SuiteSet::load(tree);
    let coverage = Coverage::of(&set);
    let mut problems = mcpdesc_conformance::suite::check::lint(&set, &coverage);
    let pages = match pages::committed::check(&set) {
        pages::committed::Committed::NotChecked(why) => format!("rule pages: not checked: {why}"),
        pages::committed::Committed::Checked {
            dir,
            pages,
            problems: drift,
        } => {
            let line = format!(
                "rule pages: {pages} generated, {} differ from {}",
                drift.len(),
                dir.display()
            );
            problems.extend(drift);
            line
        }
    };
    let fixtures: usize = set.suites.iter().map(|suite| suite.entries.len()).sum();
    let cases = Selection::default().cases(&set).len();
    let mut out = io::stdout().lock();
    writeln!(out, "{}", coverage.render())?;
    writeln!(out, "{pages}\n")?;
    let inventory = &set.requirements;
    write!(out, "{}", inventory.render_sections())?;
    if args.requirements {
        write!(out, "\n{}", inventory.render_requirements())?;
    }
    let total = inventory.coverage().total;
    writeln!(
        out,
        "\n{} requirements, {} checkable on a document: {} covered ({:.1} %), {} partly, {} pending",
        total.requirements,
        total.checkable,
        total.covered,
        total.percent_covered(),
        total.partial,
        total.pending
    )?;
    writeln!(
        out,
        "{} suites, {} rules, {fixtures} fixtures, {cases} cases; {} problems",
        set.suites.len(),
        coverage.rows.len(),
        problems.len()
    )?;
    eprint!("{}", report::problems(&problems));
    Ok(if problems.is_empty() {
        Status::Success
    } else {
        Status::UsageOrSuite
    })
}

fn docs(args: DocsArgs) -> anyhow::Result<Status> {
    let tree = SuiteTree::open(args.suite_dir.as_deref())?;
    let set = SuiteSet::load(tree);
    // A catalog or fixture that does not load would leave pages out, and
    // writing would then remove their committed versions. (Expectation
    // problems do not matter here: pages show no expectation.) A rule ID
    // that cannot name its page would stop the writing half-way.
    let blocking: Vec<_> = set
        .problems
        .iter()
        .filter(|problem| problem.kind == SuiteProblemKind::Broken)
        .cloned()
        .chain(mcpdesc_conformance::suite::check::rule_id_problems(&set))
        // Pages made without the inventory would lose every "Required by".
        .chain(mcpdesc_conformance::suite::requirements::load(&set.tree).err())
        .collect();
    if !blocking.is_empty() {
        eprint!("{}", report::problems(&blocking));
        eprintln!(
            "error: refusing to write rule pages: the suite has {} problem(s) (above); \
             fix them first, no file was changed",
            blocking.len()
        );
        return Ok(Status::UsageOrSuite);
    }
    // A rule ID comes from the suite tree: printed escaped, like its
    // problems.
    let generated = pages::Pages::generate(&set).map_err(|error| {
        anyhow::anyhow!(
            "{}",
            mcpdesc_conformance::emit::escape::line(&error.to_string())
        )
    })?;
    // The error names a path below --out, which may hold anything.
    let written = pages::sync::write(&generated, &args.out).map_err(|error| {
        anyhow::anyhow!(
            "writing rule pages: {}",
            mcpdesc_conformance::emit::escape::line(&error.to_string())
        )
    })?;
    for path in &written.changed {
        eprintln!("wrote {}", args.out.join(path).display());
    }
    for path in &written.removed {
        eprintln!("removed {}", args.out.join(path).display());
    }
    eprintln!(
        "{} rule pages: {} written, {} unchanged, {} removed",
        generated.len(),
        written.changed.len(),
        written.unchanged,
        written.removed.len()
    );
    Ok(Status::Success)
}

fn bless(args: BlessArgs) -> anyhow::Result<Status> {
    if bless::in_ci() && !args.dry_run {
        anyhow::bail!(
            "refusing to bless expectations in CI (CI is set); run `bless --dry-run` to see the diff"
        );
    }
    // Held until the end, so that two blesses of one tree run one after the
    // other and the second plans from what the first wrote.
    let _lock = bless::lock(&args.suite_dir, !args.dry_run, || {
        eprintln!("waiting for another bless of this tree to finish");
    })
    .context("locking the suite tree")?;
    let tree = SuiteTree::from_dir(&args.suite_dir)?;
    // Generated fixtures first: their expectations are planned from what
    // the table makes, as it will be written.
    let generated = match bless::generated_plan(&tree) {
        Ok(generated) => generated,
        Err(error) => {
            eprintln!(
                "error: refusing to bless: {}; no file was changed",
                escape::line(&error.to_string())
            );
            return Ok(Status::UsageOrSuite);
        }
    };
    let tree = tree.with_changes(
        generated
            .iter()
            .map(|change| (change.path.as_str(), change.new.as_deref())),
    );
    let set = SuiteSet::load(tree);
    // Blessing repairs expectation files; a suite with any other problem
    // (a catalog or fixture that does not load, a stray file) cannot say
    // which expectations it needs, and acting on it would delete or rewrite
    // good ones.
    let blocking: Vec<_> = set
        .problems
        .iter()
        .filter(|problem| !problem.kind.bless_repairs())
        .cloned()
        .collect();
    if !blocking.is_empty() {
        eprint!("{}", report::problems(&blocking));
        eprintln!(
            "error: refusing to bless: the suite has {} problem(s) that bless does not repair (above); \
             fix them first, no file was changed",
            blocking.len()
        );
        return Ok(Status::UsageOrSuite);
    }
    let fixtures: Vec<String> = set
        .suites
        .iter()
        .flat_map(|suite| suite.entries.iter().map(|entry| entry.fixture.id()))
        .collect();
    let unmatched: Vec<String> = args
        .filters
        .iter()
        .filter(|pattern| !fixtures.iter().any(|id| case::matches(pattern, id)))
        .map(|pattern| {
            case::NoMatch {
                pattern: pattern.clone(),
                nearest: case::nearest(pattern, fixtures.iter().map(String::as_str)),
            }
            .to_string()
        })
        .collect();
    anyhow::ensure!(unmatched.is_empty(), "{}", unmatched.join("\n"));
    let keep = |id: &str| {
        args.filters.is_empty()
            || args
                .filters
                .iter()
                .any(|pattern| case::matches(pattern, id))
    };
    // As `run` does: a signal kills the validator's process groups and
    // stops the planning, and a bless interrupted before it writes writes
    // nothing (a half-computed plan would rewrite some expectations only).
    interrupt::install().context("cannot handle interrupting signals")?;
    let plan = match &args.validator {
        None => bless::plan(&set, &reference(&set), &keep),
        Some(line) => {
            let validator =
                ExternalValidator::new(split_command(line)?, Mode::Session, set.revisions.clone());
            let pool = match start(validator) {
                Ok(pool) => pool,
                Err(status) => return Ok(status),
            };
            bless::plan(&set, &pool, &keep)
        }
    };
    if let Some(interruption) = plan.interrupted {
        eprintln!(
            "interrupted by {}: no file was changed",
            interruption.name()
        );
        return Ok(Status::Interrupted(interruption));
    }
    // Not shown as diffs: they follow from the files above.
    let compiled = bless::compiled_plan(&args.suite_dir, &plan.changes)
        .context("planning the compiled form of the suite")?;
    let mut out = io::stdout().lock();
    // Listed, not shown as diffs: they follow from the table, and there
    // are hundreds of them.
    for change in &generated {
        let what = match (&change.old, &change.new) {
            (None, _) => "new",
            (Some(_), None) => "removed",
            (Some(_), Some(_)) => "changed",
        };
        writeln!(
            out,
            "generated fixture {what}: {}",
            escape::line(&change.path)
        )?;
    }
    for change in &plan.changes {
        write!(out, "{}", change.diff())?;
    }
    out.flush()?;
    let verb = if args.dry_run {
        "would change"
    } else {
        bless::apply(&args.suite_dir, &generated, &[]).context("writing the generated fixtures")?;
        bless::apply(&args.suite_dir, &plan.changes, &plan.stale)
            .context("writing expectations")?;
        bless::apply(&args.suite_dir, &compiled, &[])
            .context("writing the compiled form of the suite")?;
        if !plan.stale.is_empty() {
            eprintln!(
                "removed {} temporary file(s) left by an interrupted bless",
                plan.stale.len()
            );
        }
        "changed"
    };
    if !generated.is_empty() {
        eprintln!(
            "{} generated fixture files ({}) {verb}",
            generated.len(),
            mcpdesc_conformance::suite::matrices::MATRICES_FILE
        );
    }
    eprintln!("{} expectation files {verb}", plan.changes.len());
    remind_of_the_changelog(&set, &plan.changes);
    if !compiled.is_empty() {
        eprintln!(
            "{} files of the compiled form ({}/) {verb}",
            compiled.len(),
            compiled::FOLDER
        );
    }
    // A signal while writing lets the writing finish (each file is
    // replaced whole), then ends the bless as it would have ended it.
    if let Some(status) = interrupted() {
        return Ok(status);
    }
    if plan.refused.is_empty() {
        return Ok(Status::Success);
    }
    for (fixture, reason) in &plan.refused {
        eprintln!(
            "not blessed: {}: {}",
            escape::line(fixture),
            escape::line(&reason.to_string())
        );
    }
    eprintln!(
        "error: {} fixture(s) not blessed (above): their expectation files were left as they are",
        plan.refused.len()
    );
    Ok(Status::Failures)
}

fn diff(args: DiffArgs) -> anyhow::Result<Status> {
    interrupt::install().context("cannot handle interrupting signals")?;
    let level: Level = args.level.parse().map_err(anyhow::Error::msg)?;
    let set = SuiteSet::load(SuiteTree::open(args.suite_dir.as_deref())?);
    if !set.problems.is_empty() {
        eprint!("{}", report::problems(&set.problems));
        eprintln!("error: the suite has problems; fix them first (`mcpdesc-conformance check`)");
        return Ok(Status::UsageOrSuite);
    }
    anyhow::ensure!(
        args.external.source_text.is_none(),
        "--source-text does nothing here: diff makes documents from the fixtures of the \
         document suites and sends no source text"
    );
    let external = args
        .external
        .validator(&set.revisions)?
        .context("name the validator to test with --validator \"CMD ARGS\"")?;
    // Refused before anything runs, not after a long run.
    let previous = match args
        .out
        .as_deref()
        .map(|dir| emit::diff::prepare(dir, args.force))
        .transpose()
    {
        Ok(previous) => previous,
        Err(error) => {
            eprintln!("error: {}", escape::line(&error.to_string()));
            return Ok(Status::UsageOrSuite);
        }
    };
    // One worker per request in flight: each asks about one document at a
    // time, so --pipeline N keeps N requests in each process.
    let jobs = external.jobs * external.pipeline.max(1);
    let max_consecutive_failures = external.max_consecutive_failures;
    let validator = match start(external) {
        Ok(pool) => pool,
        Err(status) => return Ok(status),
    };
    let against: Box<dyn Backend> = match &args.against {
        None => Box::new(reference(&set)),
        Some(line) => {
            let other =
                ExternalValidator::new(split_command(line)?, Mode::Session, set.revisions.clone());
            match start(other) {
                Ok(pool) => Box::new(pool),
                Err(status) => return Ok(status),
            }
        }
    };
    let options = mcpdesc_conformance::diff::Options {
        seed: args.seed,
        documents: args.cases,
        time: args.time,
        level,
        jobs,
        max_consecutive_failures,
        max_shrunk: args.max_shrunk,
    };
    let found = mcpdesc_conformance::diff::diff(&set, &validator, against.as_ref(), &options);
    let sides = emit::diff::Sides {
        validator: validator.implementation(),
        against: against.implementation(),
    };
    // The summary first: a file that cannot be written must not take it
    // with it.
    print!("{}", emit::diff::summary(&found, sides));
    io::stdout().flush()?;
    let mut unwritten = false;
    if let (Some(dir), Some(previous)) = (&args.out, &previous) {
        let written = emit::diff::write(dir, previous, &set, &found, sides);
        let (out, errors) = emit::diff::written(dir, &written);
        print!("{out}");
        eprint!("{errors}");
        unwritten = !written.errors.is_empty();
    }
    Ok(match found.stopped {
        Some(mcpdesc_conformance::diff::Stop::Interrupted(interruption)) => {
            Status::Interrupted(interruption)
        }
        // As any output that cannot be written.
        _ if unwritten => Status::UsageOrSuite,
        // As `run` does when it gives up on a validator.
        Some(mcpdesc_conformance::diff::Stop::GaveUp) => Status::ValidatorUnavailable,
        _ if found.distinct() > 0 => Status::Failures,
        _ => Status::Success,
    })
}
