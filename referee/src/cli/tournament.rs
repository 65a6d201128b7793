//! `referee tournament` and `referee merge`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use referee::bot;
use referee::tournament::{self, Event, RunOptions, Shard, StandingRow, TournamentPlan};

use super::Failure;
use referee::bot::SandboxChoice;
use referee::text::escape;

/// Exit code when Ctrl-C stopped a tournament (standings of the games done are written).
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Args)]
pub struct TournamentArgs {
    /// The tournament file (TOML; see tournaments/*.toml for examples)
    pub file: PathBuf,
    /// Games played at once, each with its two bots [default: the number of cores; at most 1024]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::jobs)]
    pub jobs: Option<usize>,
    /// Results folder [default: a new folder under tournaments/results/]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Finish the tournament whose results are in --out, playing only the games it lacks
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Play only shard I of N (games whose number is I modulo N); merge the folders with `referee merge`
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Do not pin each game (the worker and its two bots) to one CPU
    #[arg(long)]
    pub no_pin: bool,
    /// Confinement of the bots: basic, strict or auto (see `referee match --help`)
    /// [default: the file's `sandbox`, else basic]
    #[arg(long, value_name = "LAYER", value_parser = SandboxChoice::parse)]
    pub sandbox: Option<SandboxChoice>,
    /// Read the secret key the referee draws codes with from FILE (64 hex digits) instead of making one; give every shard the same file. The results folder keeps a copy (referee.key)
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Results folders of the shards of one tournament
    #[arg(required = true)]
    pub folders: Vec<PathBuf>,
    /// Folder for the merged games.csv, standings.csv and crosstable.csv
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

pub fn run_tournament(args: TournamentArgs) -> Result<i32, Failure> {
    let mut plan = TournamentPlan::load(&args.file).map_err(Failure::input)?;
    let sandbox = super::check_sandbox(args.sandbox.unwrap_or(plan.sandbox))?;
    for bot in &mut plan.bots {
        bot.limits.process.sandbox = sandbox.clone();
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(Failure::input(anyhow::anyhow!("--jobs must be at least 1")));
    }
    // The name becomes one safe folder name: never a path out of
    // tournaments/results.
    let out = match args.out.clone() {
        Some(out) => out,
        None => {
            let name = plan
                .folder_name()
                .map_err(|e| Failure::input(anyhow::anyhow!("{}: {e}", args.file.display())))?;
            PathBuf::from("tournaments/results").join(format!("{name}-{}", timestamp()))
        }
    };
    // The tournament file (its seed draws random codes) and the results
    // folder (transcripts of finished games) are hidden from the bots.
    let key = match &args.key_file {
        Some(path) => Some(referee::key::RefereeKey::read(path).map_err(Failure::input)?),
        None => None,
    };
    let hidden: Vec<PathBuf> = [
        Some(args.file.clone()),
        Some(out.clone()),
        args.key_file.clone(),
    ]
    .iter()
    .flatten()
    .filter_map(|p| std::path::absolute(p).ok())
    .collect();
    for bot in &mut plan.bots {
        bot.limits.process.hidden = hidden.clone();
    }
    let options = RunOptions {
        jobs,
        out: out.clone(),
        resume: args.resume,
        shard: args.shard,
        pin: !args.no_pin,
        key,
    };
    bot::install_interrupt_handler();
    eprintln!(
        "{}: {} ({}), {} bots, {} jobs, results in {}",
        escape(&plan.name),
        plan.config.game_name(),
        plan.config.variant_name(),
        plan.bots.len(),
        jobs,
        out.display()
    );
    let mut progress = Progress::new();
    // The whole sandbox line (stderr has the short one unless --verbose)
    // is kept next to games.csv, once the folder exists.
    let sandbox_path = out.join("sandbox.txt");
    let sandbox_text = format!("{}\n", sandbox.describe());
    let mut sandbox_written = false;
    let outcome = tournament::run(&plan, &options, &mut |event| {
        if !sandbox_written && matches!(event, Event::Started { .. }) {
            sandbox_written = true;
            if let Err(e) = referee::atomic_file::write(&sandbox_path, &sandbox_text) {
                eprintln!("warning: cannot write {}: {e}", sandbox_path.display());
            }
        }
        progress.on(event)
    })
    .map_err(|e| match e {
        tournament::TournamentError::FolderInUse { .. }
        | tournament::TournamentError::FolderOfAnother { .. }
        | tournament::TournamentError::OtherColumns { .. }
        | tournament::TournamentError::Key(_) => Failure::input(e),
        _ => Failure::internal(e),
    })?;
    progress.finish();
    print_summary(&outcome.standings);
    println!(
        "\n{} of {} games in {} ({} played now){}",
        outcome.total_in_folder,
        outcome.scheduled,
        out.display(),
        outcome.played_now,
        if outcome.transcript_failures > 0 {
            format!(
                "; {} transcripts could not be written",
                outcome.transcript_failures
            )
        } else {
            String::new()
        }
    );
    if outcome.not_played > 0 {
        eprintln!(
            "{} games were not played ({}); they count for nobody. Play them with: {}",
            outcome.not_played,
            outcome
                .not_played_why
                .as_deref()
                .unwrap_or("the system would not start a bot"),
            resume_command(&args.file, &out)
        );
    }
    if outcome.interrupted {
        eprintln!(
            "interrupted: standings cover the games done; finish with: {}",
            resume_command(&args.file, &out)
        );
        return Ok(EXIT_INTERRUPTED);
    }
    if outcome.not_played > 0 {
        // Not the bots' doing, and not finished: 1, as for any failure of
        // the referee itself.
        return Ok(super::EXIT_INTERNAL);
    }
    Ok(super::EXIT_OK)
}

/// The command that finishes a tournament, as it can be pasted.
fn resume_command(file: &std::path::Path, out: &std::path::Path) -> String {
    format!(
        "{} tournament {} --out {} --resume",
        referee::report::program(),
        shell_words::quote(&file.display().to_string()),
        shell_words::quote(&out.display().to_string())
    )
}

pub fn run_merge(args: MergeArgs) -> Result<i32, Failure> {
    // As `tournament` does: results already in --out are never overwritten.
    if args.out.join("games.csv").exists() {
        return Err(Failure::input(anyhow::anyhow!(
            "{} already holds results (games.csv): give --out a new folder",
            args.out.display()
        )));
    }
    let (standings, count, total) =
        tournament::merge(&args.folders, &args.out).map_err(Failure::input)?;
    print_summary(&standings);
    println!(
        "\n{count} of {total} games merged into {}",
        args.out.display()
    );
    if count < total {
        eprintln!(
            "warning: {} games are missing (a shard not finished?)",
            total - count
        );
    }
    Ok(super::EXIT_OK)
}

fn print_summary(rows: &[StandingRow]) {
    println!(
        "\n{:>4}  {:<20} {:>6} {:>5} {:>5} {:>5} {:>6}  {:>16}  {:>4}",
        "rank", "bot", "played", "won", "drawn", "lost", "points", "rating (95%)", "dq"
    );
    for r in rows {
        let dq = r.disqualifications();
        println!(
            "{:>4}  {:<20} {:>6} {:>5} {:>5} {:>5} {:>6}  {:>6.0} ±{:<7.0}  {:>4}",
            r.rank,
            escape(&r.bot),
            r.played,
            r.wins,
            r.draws,
            r.losses,
            r.points,
            r.rating,
            (r.rating_high - r.rating).max(0.0),
            dq
        );
    }
}

/// A bar on a terminal; plain lines (at most one every 5 s) otherwise.
struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    started: Instant,
    last_line: Instant,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            bar: None,
            total: 0,
            done: 0,
            started: Instant::now(),
            last_line: Instant::now(),
        }
    }

    fn on(&mut self, event: Event<'_>) {
        match event {
            Event::Started {
                total,
                already_done,
                to_play,
            } => {
                self.total = total;
                self.done = already_done;
                if already_done > 0 {
                    eprintln!("resuming: {already_done} games already played, {to_play} to play");
                }
                if std::io::stderr().is_terminal() {
                    let bar = ProgressBar::new(total).with_position(already_done);
                    bar.set_style(
                        ProgressStyle::with_template(
                            "{bar:40} {pos}/{len} games  {rate}  ETA {eta}  {msg}",
                        )
                        .expect("valid template")
                        // indicatif's {per_sec} prints 12.8042/s.
                        .with_key(
                            "rate",
                            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                                let _ = write!(w, "{:.1} games/s", state.per_sec());
                            },
                        ),
                    );
                    self.bar = Some(bar);
                }
            }
            Event::GameDone { row } => {
                self.done += 1;
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                    if !row.detail.is_empty() {
                        bar.set_message(format!("game {}: {}", row.game, escape(&row.detail)));
                    }
                } else if self.last_line.elapsed() >= Duration::from_secs(5)
                    || self.done == self.total
                {
                    let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
                    eprintln!("{}/{} games ({rate:.1} games/s)", self.done, self.total);
                    self.last_line = Instant::now();
                }
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}

/// `YYYYMMDD-HHMMSS` in UTC, for default folder names.
fn timestamp() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}
