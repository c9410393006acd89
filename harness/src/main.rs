//! `mcpdesc-conformance`: runs the MCP Description conformance suite against
//! a validator and reports, per MCP revision, how closely its findings match.

use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};
use mcpdesc_conformance::case::{self, Selection};
use mcpdesc_conformance::compare::Level;
use mcpdesc_conformance::coverage::Coverage;
use mcpdesc_conformance::exit::Status;
use mcpdesc_conformance::external::{self, ExternalValidator, Mode};
use mcpdesc_conformance::process::split_command;
use mcpdesc_conformance::suite::SuiteSet;
use mcpdesc_conformance::summary::Summary;
use mcpdesc_conformance::tree::SuiteTree;
use mcpdesc_conformance::{bless, report, runner};
use mcpdesc_protocol::{Revision, Validator};
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
    Run(RunArgs),
    /// List the cases a `run` with the same options would run.
    List(SelectArgs),
    /// Check an adapter on a few cases and explain what it does wrong.
    Smoke(SmokeArgs),
    /// Lint the suite and print its rule-by-revision coverage table.
    Check(CheckArgs),
    /// Write expectations from the reference validator, showing the diff.
    Bless(BlessArgs),
}

#[derive(Debug, Args)]
struct SmokeArgs {
    #[command(flatten)]
    external: ExternalArgs,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// A suite working tree instead of the suite built into this binary.
    #[arg(long, value_name = "DIR")]
    suite_dir: Option<PathBuf>,
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
    /// Only fixtures whose ID (`<suite>/<name>`) matches; `*` and `?` are
    /// wildcards, text without them matches anywhere (repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
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
    /// How many validator processes run at once [default: the number of CPUs].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// How long one case may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "5")]
    timeout: f64,
    /// How long a fresh validator process may take to answer `start`, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10")]
    start_timeout: f64,
    /// The longest reply line accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value = "16777216")]
    max_line_bytes: usize,
    /// Give up on the validator after this many crashes, timeouts or
    /// protocol errors in a row; the remaining cases are reported as not run.
    #[arg(long, value_name = "N", default_value = "10", value_parser = clap::value_parser!(u32).range(1..))]
    max_consecutive_failures: u32,
}

impl ExternalArgs {
    fn validator(&self) -> anyhow::Result<Option<ExternalValidator>> {
        let Some(line) = &self.validator else {
            return Ok(None);
        };
        let argv = split_command(line).map_err(anyhow::Error::msg)?;
        let mode = if self.oneshot {
            Mode::Oneshot
        } else {
            Mode::Session
        };
        let mut validator = ExternalValidator::new(argv, mode);
        validator.timeout = duration(self.timeout, "--timeout")?;
        validator.start_timeout = duration(self.start_timeout, "--start-timeout")?;
        validator.max_line = self.max_line_bytes;
        validator.max_consecutive_failures =
            usize::try_from(self.max_consecutive_failures).unwrap_or(usize::MAX);
        if let Some(jobs) = self.jobs {
            validator.jobs = usize::from(jobs);
        }
        Ok(Some(validator))
    }
}

fn duration(seconds: f64, option: &str) -> anyhow::Result<Duration> {
    anyhow::ensure!(
        seconds.is_finite() && seconds > 0.0 && seconds < 86_400.0,
        "{option} takes a positive number of seconds below a day"
    );
    Ok(Duration::from_secs_f64(seconds))
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Run(args) => run(args),
        Command::List(args) => list(args),
        Command::Smoke(args) => smoke(args),
        Command::Check(args) => check(args),
        Command::Bless(args) => bless(args),
    };
    match status {
        Ok(status) => status.into(),
        Err(error) => {
            eprintln!("error: {error:#}");
            Status::UsageOrSuite.into()
        }
    }
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
    let selection = Selection {
        suites: select.suites.clone(),
        revisions: select.revisions.clone(),
        filters: select.filters.clone(),
    };
    Ok((set, selection))
}

fn run(args: RunArgs) -> anyhow::Result<Status> {
    let level: Level = args.level.parse().map_err(anyhow::Error::msg)?;
    let (set, selection) = load(&args.select)?;
    let cases = selection.cases(&set);
    let external = args.external.validator()?;
    let mut out = io::stdout().lock();
    let source = match &set.tree.root {
        Some(root) => root.display().to_string(),
        None => "built in".to_owned(),
    };
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
    let (implementation, how, results, unavailable) = match &external {
        None => {
            let validator = ReferenceValidator::new();
            let results = runner::run_in_process(&cases, &set.rules, &validator);
            (validator.implementation(), "in-process", results, None)
        }
        Some(external) => {
            let run = external::run(&cases, &set.rules, external);
            let how = match external.mode {
                Mode::Session => "session mode",
                Mode::Oneshot => "one-shot mode",
            };
            (run.implementation, how, run.results, run.unavailable)
        }
    };
    writeln!(
        out,
        "mcpdesc-conformance {}: suite {source}; validator {} {} ({how}); {} cases",
        env!("CARGO_PKG_VERSION"),
        implementation.name,
        implementation.version,
        cases.len()
    )?;
    if let Some(reason) = unavailable {
        eprintln!("error: {reason}");
        return Ok(Status::ValidatorUnavailable);
    }
    for result in &results {
        if let Some(text) = report::failure(&set, result, level) {
            writeln!(out, "\n{text}")?;
        }
    }
    let summary = Summary::of(&results);
    writeln!(out, "\n{}", report::summary(&summary, level))?;
    if summary.total.judged() == 0 {
        eprintln!("error: no case was judged: the validator skipped every selected case");
    }
    Ok(Status::of_run(
        &results,
        &summary,
        set.problems.len(),
        level,
    ))
}

fn list(args: SelectArgs) -> anyhow::Result<Status> {
    let (set, selection) = load(&args)?;
    let cases = selection.cases(&set);
    let mut out = io::stdout().lock();
    for case in &cases {
        writeln!(out, "{}", case.id())?;
    }
    eprint!("{}", report::problems(&set.problems));
    eprintln!("{} cases", cases.len());
    Ok(if set.problems.is_empty() {
        Status::Success
    } else {
        Status::UsageOrSuite
    })
}

fn smoke(args: SmokeArgs) -> anyhow::Result<Status> {
    let validator = args
        .external
        .validator()?
        .context("name the adapter to check with --validator \"CMD ARGS\"")?;
    let set = SuiteSet::load(SuiteTree::embedded());
    let report = mcpdesc_conformance::smoke::smoke(&validator, &set);
    print!("{}", report.render(&validator));
    Ok(if report.unavailable {
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
    let problems = mcpdesc_conformance::check::lint(&set, &coverage);
    let fixtures: usize = set.suites.iter().map(|suite| suite.entries.len()).sum();
    let cases = Selection::default().cases(&set).len();
    let mut out = io::stdout().lock();
    writeln!(out, "{}", coverage.render())?;
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

fn bless(args: BlessArgs) -> anyhow::Result<Status> {
    if bless::in_ci() && !args.dry_run {
        anyhow::bail!(
            "refusing to bless expectations in CI (CI is set); run `bless --dry-run` to see the diff"
        );
    }
    let tree = SuiteTree::from_dir(&args.suite_dir)?;
    let set = SuiteSet::load(tree);
    let keep = |id: &str| {
        args.filters.is_empty()
            || args
                .filters
                .iter()
                .any(|pattern| case::matches(pattern, id))
    };
    let plan = bless::plan(&set, &ReferenceValidator::new(), &keep);
    let mut out = io::stdout().lock();
    for change in &plan.changes {
        write!(out, "{}", change.diff())?;
    }
    for (fixture, reason) in &plan.refused {
        eprintln!("not blessed: {fixture}: {reason}");
    }
    let verb = if args.dry_run {
        "would change"
    } else {
        "changed"
    };
    if !args.dry_run {
        bless::apply(&args.suite_dir, &plan.changes).context("writing expectations")?;
    }
    eprintln!("{} expectation files {verb}", plan.changes.len());
    Ok(if plan.refused.is_empty() {
        Status::Success
    } else {
        Status::UsageOrSuite
    })
}
