//! `referee check` (a bot against the requirements of a check file) and
//! `referee sprt` (NEW against OLD until the sequential test decides). The
//! work is `referee_engine::check`; here are the flags, the output and the exit
//! codes CI pipelines read.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use referee_engine::bot::{Arena, BotCommand};
use referee_engine::check::ab::{self, AbPlan, AbResult};
use referee_engine::check::{self, CheckPlan};
use referee_engine::reporter::json::Json;
use referee_engine::reporter::junit::JUnit;
use referee_engine::reporter::terminal::Terminal;
use referee_engine::reporter::{Finish, ReportError, Reporter, Reporters, Run};
use referee_engine::sprt::Bounds;
use referee_engine::tournament::TournamentBot;

use super::{Failure, GameFlags, KeyFlags, LimitFlags};

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[derive(Args)]
#[command(
    after_help = "A requirement's games stop as soon as its outcome is decided (no-verdicts: \
at the first verdict; win-rate: once enough wins are in, or too many losses); --fail-fast \
stops the whole check at the first failed requirement.\n\n\
With players_per_game = K (a judge game of more than two players) each game is a table of the \
bot and K-1 references, the seats rotated, judged on ranks: average-rank, table-wins, ahead-of \
(docs/ci.md).\n\n\
Exit codes: 0 every requirement holds; 1 a requirement failed (named in \
the output); 2 the check could not run (bad file, missing bot, a compiler missing).\n\n\
Examples:\n  \
target/release/referee check tournaments/check-arrow5.toml\n  \
target/release/referee check tournaments/check-arrow5.toml --bot ./my_bot \\\n      \
--junit report.xml\n  \
target/release/referee check tournaments/check-light-cycles.toml --bot \\\n      \
./my_cycle.py"
)]
pub struct CheckArgs {
    /// The check file (TOML; see tournaments/check-*.toml and docs/ci.md)
    pub file: PathBuf,
    /// The bot under test, replacing the file's [bot] path (relative to the current folder)
    #[arg(long, value_name = "BOT")]
    pub bot: Option<String>,
    /// Write a JUnit XML report to FILE (one test case per requirement)
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Print the report as one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Stop the whole check at the first failed requirement; the ones not yet decided are reported "not run (fail-fast)" (JUnit: skipped)
    #[arg(long)]
    pub fail_fast: bool,
    /// Append a Markdown summary of the check to FILE (e.g. "$GITHUB_STEP_SUMMARY")
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Write the HTML report into DIR: each requirement with its evidence,
    /// and a replay viewer for every game played (transcripts kept in
    /// DIR/transcripts) [default: a new folder under tournaments/results/]
    #[arg(long, value_name = "DIR", conflicts_with = "no_report")]
    pub report: Option<PathBuf>,
    /// Do not write the HTML report (nor keep the games' transcripts)
    #[arg(long)]
    pub no_report: bool,
    #[command(flatten)]
    pub events: super::EventFlags,
    /// Games played at once [default: the number of cores; at most 1024]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::jobs)]
    pub jobs: Option<usize>,
    /// Confinement of the bots: basic, strict or auto (see `referee match --help`) [default: basic]
    #[arg(long, value_name = "LAYER", value_parser = referee_engine::bot::SandboxChoice::parse)]
    pub sandbox: Option<referee_engine::bot::SandboxChoice>,
    #[command(flatten)]
    pub time: super::TimeFlags,
    #[command(flatten)]
    pub key: KeyFlags,
}

/// Where the check's HTML report goes: `--report DIR`, none with
/// `--no-report`, else a new folder under tournaments/results/ named after
/// the check (as a tournament's results folder).
fn report_folder(args: &CheckArgs, plan: &CheckPlan) -> Result<Option<PathBuf>, Failure> {
    if args.no_report {
        return Ok(None);
    }
    if let Some(dir) = &args.report {
        return Ok(Some(dir.clone()));
    }
    let name = referee_engine::tournament::plan::folder_name(&plan.name)
        .map_err(|e| Failure::input(anyhow!("{}: {e}", args.file.display())))?;
    let base = format!("check-{name}-{}", super::tournament::timestamp());
    // Two checks started in the same second (a CI matrix) get two folders.
    let results = PathBuf::from(referee_engine::model::folder::RESULTS_ROOT);
    std::fs::create_dir_all(&results)
        .map_err(|e| Failure::input(anyhow!("{}: cannot create: {e}", results.display())))?;
    for n in 1u32..=1000 {
        let dir = match n {
            1 => results.join(&base),
            n => results.join(format!("{base}-{n}")),
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(Some(dir)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(Failure::input(anyhow!(
                    "{}: cannot create: {e}",
                    dir.display()
                )))
            }
        }
    }
    Err(Failure::input(anyhow!(
        "{}: a thousand checks started this second; give --report DIR",
        results.join(base).display()
    )))
}

/// Bad input before any game is played: an output file (`what`, at
/// `path`) that is a folder or whose folder does not exist, which the run
/// would find only at its end, its games played for nothing.
fn can_be_written(path: Option<&std::path::Path>, what: &str) -> Result<(), Failure> {
    let Some(path) = path else {
        return Ok(());
    };
    if path.is_dir() {
        return Err(Failure::input(anyhow!(
            "cannot write {what} {}: it is a folder; give a file's path",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        return Err(Failure::input(anyhow!(
            "cannot write {what} {}: its folder {} does not exist",
            path.display(),
            folder.display()
        )));
    }
    Ok(())
}

pub fn run_check(args: CheckArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    if let Some(dir) = &args.report {
        super::output_folder("--report", dir)?;
    }
    let mut plan = CheckPlan::load(&args.file, args.bot.as_deref()).map_err(Failure::input)?;
    if let Some(margin) = args.time.time_margin {
        plan.set_margin(margin, args.time.strikes.unwrap_or(0));
    }
    let scale = args.time.scale(plan.time_scale_setting)?;
    plan.scale_times(scale);
    if let Some(choice) = args.sandbox {
        let sandbox = super::check_sandbox(arena, choice)?;
        for bot in std::iter::once(&mut plan.bot).chain(&mut plan.opponents) {
            bot.limits.process.sandbox = sandbox.clone();
        }
    }
    for bot in std::iter::once(&mut plan.bot).chain(&mut plan.opponents) {
        bot.limits.process.footprint = arena.footprint();
    }

    if args.json && args.events.on_stdout() {
        return Err(Failure::input(anyhow!(
            "--json and --events - both write to stdout: give --events a file"
        )));
    }
    can_be_written(args.junit.as_deref(), "the JUnit file")?;
    can_be_written(args.summary.as_deref(), "the summary")?;
    let key = args.key.run_key()?;
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    if jobs == 0 {
        return Err(Failure::input(anyhow!("--jobs must be at least 1")));
    }
    let report_dir = report_folder(&args, &plan)?;
    // Held while the check runs: two checks given one --report would
    // clear each other's transcripts and mix their pages.
    let _report_lock = match &report_dir {
        Some(dir) => Some(referee_engine::tournament::run::lock_folder(dir).map_err(
            |e| match e {
                referee_engine::tournament::TournamentError::FolderLocked { path } => {
                    Failure::input(anyhow!(
                        "--report {}: another check (or tournament) writes in it now; wait for it \
                         to end, or give another --report",
                        path.display()
                    ))
                }
                other => Failure::input(anyhow!(other)),
            },
        )?),
        None => None,
    };
    if let Some(dir) = &report_dir {
        // An earlier check's verdict goes first (its `check.json`, which
        // marks a check's report folder, and its `index.html`): a run
        // stopped or killed before its end leaves none that is not its own
        // beside its transcripts.
        let record = dir.join(referee_engine::reporter::html::CHECK_JSON);
        if record.is_file() {
            for page in [dir.join("index.html"), record] {
                if page.is_file() {
                    std::fs::remove_file(&page).map_err(|e| {
                        Failure::input(anyhow!("{}: cannot clear: {e}", page.display()))
                    })?;
                }
            }
        }
        // Transcripts hold codes: the bots never see the report folder.
        let transcripts = dir.join("transcripts");
        if transcripts.exists() {
            std::fs::remove_dir_all(&transcripts).map_err(|e| {
                Failure::input(anyhow!("{}: cannot clear: {e}", transcripts.display()))
            })?;
        }
        std::fs::create_dir_all(&transcripts).map_err(|e| {
            Failure::input(anyhow!("{}: cannot create: {e}", transcripts.display()))
        })?;
        plan.transcripts = Some(transcripts);
    }
    // The check file (its seed draws any random codes), the report folder
    // (transcripts hold codes), and the bots' own files from each other.
    let run_files = [
        Some(args.file.clone()),
        report_dir.clone(),
        args.events.hidden(),
    ];
    let hidden = super::hidden_from_bots(
        run_files.into_iter().flatten().chain(args.key.hidden()),
        report_dir.as_deref(),
        std::iter::once(&plan.bot)
            .chain(&plan.opponents)
            .map(|bot| &bot.command),
    );
    for bot in std::iter::once(&mut plan.bot).chain(&mut plan.opponents) {
        bot.limits.process.hidden.extend(hidden.iter().cloned());
    }
    // The JUnit file first: a check that cannot write it prints nothing.
    let mut reporters = Reporters::default();
    if let Some(path) = &args.junit {
        reporters.push(JUnit::new(path));
    }
    if let Some(path) = &args.summary {
        reporters.push(referee_engine::reporter::summary::Summary::new(path));
    }
    if let Some(events) = args.events.open()? {
        reporters.push(events);
    }
    if args.json {
        reporters.push(Json);
        reporters.push(Terminal::progress_only());
    } else if args.events.on_stdout() {
        reporters.push(Terminal::progress_only());
    } else {
        reporters.push(Terminal::new().with_file("JUnit", args.junit.as_ref()));
    }
    let unwritten = |e: ReportError| {
        Failure::Input(anyhow!(e.source).context(format!("{} {}", e.what, e.path.display())))
    };
    reporters
        .run_started(&Run::Check {
            name: &plan.name,
            bot: plan.bot.contender(),
            requirements: plan.requirements.len(),
            jobs,
        })
        .map_err(unwritten)?;
    let report = check::run(&plan, &key, jobs, args.fail_fast, |line| {
        reporters.progress(line)
    })
    .map_err(Failure::input)?;
    reporters
        .run_finished(&Finish::Check(&report))
        .map_err(unwritten)?;
    if let Some(dir) = &report_dir {
        let templates = referee_engine::reporter::html::Templates::default();
        match referee_engine::reporter::html::write_check_report(dir, &report, &templates) {
            Ok(w) => eprintln!("report: {}", w.folder.join("index.html").display()),
            Err(e) => eprintln!(
                "warning: the HTML report was not written: {}",
                referee_engine::text::with_causes(&e)
            ),
        }
    }
    Ok(if report.passed {
        super::ExitCode::Ok
    } else {
        super::ExitCode::Failed
    })
}

#[derive(Args)]
#[command(
    after_help = "Games are played in pairs with sides swapped and the same seed; each pair \
scores 0, 0.5, 1, 1.5 or 2 for NEW (the pentanomial). The log-likelihood ratio of H1 (NEW is \
ELO1 better) against H0 (NEW is ELO0 better) is the generalized SPRT's, computed exactly from \
the pentanomial counts: for each hypothesis, the maximum-likelihood distribution of pair scores \
whose mean is that hypothesis' score (Fishtest's normal approximation agrees with it for many \
pairs; docs/ci.md). The test stops when it leaves [ln(beta/(1-alpha)), \
ln((1-beta)/alpha)].\n\n\
Exit codes: 0 H1 accepted (NEW is better, or with --elo1 0 or below not worse); 1 H0 accepted; 3 inconclusive at --max-games; \
2 the run could not be done (bad input).\n\n\
Examples:\n  \
target/release/referee sprt arrow5 target/release/arrow5_strong \\\n      \
target/release/arrow5_random --elo1 50\n  \
target/release/referee sprt mastermind ./new_bot ./old_bot --max-games \\\n      \
2000 --jobs 2"
)]
pub struct SprtArgs {
    /// The game
    pub game: String,
    /// The new version of the bot
    pub new: String,
    /// The old version (the baseline)
    pub old: String,
    /// Elo of NEW over OLD under H0 (logistic Elo); -1000 to 1000
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo of NEW over OLD under H1; -1000 to 1000
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Stop, inconclusive, after this many games (even: whole pairs; at most 1000000)
    #[arg(long, value_name = "N", default_value_t = 20_000,
          allow_hyphen_values = true, value_parser = super::games)]
    pub max_games: u64,
    /// Games played at once [default: the number of cores; at most 1024]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::jobs)]
    pub jobs: Option<usize>,
    /// Seed of every pair's game seed
    #[arg(long, value_name = "S", default_value_t = 1, allow_hyphen_values = true, value_parser = super::whole::<u64>)]
    pub seed: u64,
    /// Append a Markdown summary of the run to FILE (e.g. "$GITHUB_STEP_SUMMARY")
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub events: super::EventFlags,
    #[command(flatten)]
    pub key: KeyFlags,
    #[command(flatten)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
}

pub fn run_sprt(args: SprtArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    let languages = arena.languages();
    if args.events.on_stdout() {
        return Err(Failure::input(anyhow!(
            "--events -: sprt prints its test on stdout; give --events a file"
        )));
    }
    let config = args.game_flags.config(&args.game).map_err(Failure::input)?;
    let bounds = Bounds {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
    };
    bounds.validate().map_err(Failure::input)?;
    if args.max_games < 2 {
        return Err(Failure::input(anyhow!(
            "--max-games {} is too few: games are played in pairs, so give at least 2",
            args.max_games
        )));
    }
    if args.max_games % 2 == 1 {
        return Err(Failure::input(anyhow!(
            "--max-games {} is odd: games are played in pairs with sides swapped, so give an even number (e.g. {})",
            args.max_games,
            args.max_games - 1
        )));
    }
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    if jobs == 0 {
        return Err(Failure::input(anyhow!("--jobs must be at least 1")));
    }
    let bot = |spec: &str, role: &str| -> Result<TournamentBot, Failure> {
        let command = BotCommand::parse(spec, languages)
            .map_err(|e| Failure::Input(anyhow!("{role}: {e}")))?;
        let limits = args.limits.limits_for(arena, &config, command.language);
        Ok(TournamentBot {
            name: command.name.clone(),
            limits,
            command,
        })
    };
    let (mut new, mut old) = (bot(&args.new, "NEW")?, bot(&args.old, "OLD")?);
    // Each kept from reading the other's files.
    let hidden = super::hidden_from_bots(
        args.key.hidden().into_iter().chain(args.events.hidden()),
        None,
        [&new.command, &old.command],
    );
    for bot in [&mut new, &mut old] {
        bot.limits.process.hidden.extend(hidden.iter().cloned());
    }
    let plan = AbPlan {
        config: config.clone(),
        seed: args.seed,
        new,
        old,
        bounds,
        max_games: args.max_games,
        jobs,
        key: args.key.run_key()?,
    };
    can_be_written(args.summary.as_deref(), "the summary")?;
    let mut reporters = Reporters::default();
    if let Some(path) = &args.summary {
        reporters.push(referee_engine::reporter::summary::Summary::new(path));
    }
    if let Some(events) = args.events.open()? {
        reporters.push(events);
    }
    reporters.push(Terminal::new());
    let outcome = ab::run(&plan, &mut reporters).map_err(Failure::input)?;
    Ok(match outcome.result {
        AbResult::H1 => super::ExitCode::Ok,
        AbResult::H0 => super::ExitCode::Failed,
        AbResult::Inconclusive => super::ExitCode::Inconclusive,
    })
}
