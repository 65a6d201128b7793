//! Command-line front end: raw clap arguments are validated into library
//! types before any bot is started, and every failure maps to an exit code.
//!
//! Exit codes: 0 the command did its work (a finished game, whoever won);
//! 2 the input was wrong (usage, a bot spec, a game option, a file), and the
//! message says what to fix; 1 the referee itself failed; 130 a command
//! stopped by Ctrl-C or SIGTERM (a tournament's standings or `collect`'s
//! report cover what was done; a game's bots and folders are gone first), or a `play` game the person ended early (Ctrl-C or end of
//! input). `check` and `sprt` speak to CI: check 0 pass, 1 a requirement
//! failed, 2 cannot run; sprt 0 H1, 1 H0, 3 inconclusive, 2 bad input (see
//! `check.rs`).

mod assets;
mod bench;
mod calibrate;
mod check;
mod collect;
mod human;
mod judge;
mod languages;
mod live;
mod play;
mod tournament;

use clap::{Args, Parser, Subcommand};

use referee_engine::bot::sandbox::SandboxError;
use referee_engine::bot::{Arena, Language, Sandbox, SandboxChoice};
use referee_engine::games::{GameConfig, GameOptions};
use referee_engine::match_plan::{MatchLimits, ScaleSetting, TimeScale};
use referee_engine::text::{escape_lines, with_causes};
use referee_engine::units;

/// How the referee exits: the codes of the module's head, of `--help`
/// and of docs/reference.md ("Exit codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// The command did its work (a finished game, whoever won; `check`:
    /// every requirement holds; `sprt`: H1 accepted).
    Ok,
    /// A verdict against the bots for CI: `check`, a requirement failed;
    /// `sprt`, H0 accepted; `reproduce`, disqualified again.
    Failed,
    /// The referee itself failed (or games were left unplayed).
    Internal,
    /// The input was wrong (usage, a bot spec, an option, a file); the
    /// message says what to fix.
    BadInput,
    /// `sprt`: `--max-games` reached before the test decided.
    Inconclusive,
    /// Ctrl-C (SIGINT) or SIGTERM stopped the command, or the person ended
    /// a `play` game early (128 + SIGINT).
    Interrupted,
    /// Standard output was closed before all was printed (a pipe to
    /// `head`): 128 + SIGPIPE, as a program that SIGPIPE ended. What the
    /// command wrote to files is whole.
    ClosedStdout,
}

impl ExitCode {
    /// The process's exit status.
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Ok => 0,
            ExitCode::Failed | ExitCode::Internal => 1,
            ExitCode::BadInput => 2,
            ExitCode::Inconclusive => 3,
            ExitCode::Interrupted => 130,
            ExitCode::ClosedStdout => 141,
        }
    }
}

/// Is this panic's payload the standard library's failure to print to a
/// closed standard output (`println!` on a pipe whose reader is gone)?
pub fn is_closed_stdout(payload: &(dyn std::any::Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    text.starts_with("failed printing to stdout")
        && text.contains(&std::io::Error::from_raw_os_error(libc::EPIPE).to_string())
}

#[derive(Parser)]
#[command(
    name = "referee",
    version,
    about = "Runs games between bot programs over a line protocol, with time and memory limits",
    long_about = "Runs games between bot programs (\"bots\") that talk over stdin/stdout in a line \
protocol (see protocol.md). Enforces time and memory limits, applies each game's rules and its \
disqualifications, and reports verdicts.\n\n\
A BOT is a path to an executable, a source file (.py, .c, .cpp, .java, .js, .go, .rs: compiled \
by the referee where needed; `referee languages` lists them), a folder holding one (Main.java, \
main.go, Cargo.toml, package.json, ...), or a quoted command line such as \
\"python3 my_bot.py --fast\"; `LANG:` in front names its language (java:my_bot/).\n\n\
Exit codes: 0 done (a finished game, whoever won); 2 bad input (the message says what to \
fix); 1 internal failure of the referee, or a game whose judge failed (void: nobody's loss); 130 a command stopped by Ctrl-C or SIGTERM (a tournament's standings \
cover the games done), or a `play` game ended early; 141 stdout closed before all was printed \
(a pipe to `head`). `check` and `sprt` have their own codes for CI (see their --help): check 0 pass, \
1 a requirement failed, 2 cannot run; sprt 0 H1, 1 H0, 3 inconclusive, 2 bad input.",
    after_help = "Examples:\n  \
target/release/referee match arrow5 target/release/arrow5_strong \\\n      \
sample_bots/python/arrow5_starter.py\n  \
target/release/referee match arrow5 A B --variant hidden-eye --codes \\\n      \
random --seed 7 --transcript game.jsonl\n  \
target/release/referee match cryptron sample_bots/c/cryptron_starter.c \\\n      \
sample_bots/python/cryptron_starter.py\n  \
target/release/referee match mastermind A B --pegs 5 --colours 8 \\\n      \
--max-attacks 10\n  \
target/release/referee replay game.jsonl\n  \
target/release/referee tournament tournaments/arrow5.toml --jobs 2\n  \
target/release/referee bench mastermind target/release/mastermind_knuth \\\n      \
--all --csv knuth.csv\n  \
target/release/referee bench arrow5 target/release/arrow5_strong --samples \\\n      \
500 --seed 1\n  \
target/release/referee play safecracker --vs \\\n      \
target/release/safecracker_optimal\n  \
target/release/referee play mastermind --vs \\\n      \
target/release/mastermind_knuth\n  \
target/release/referee play arrow5 --hot-seat\n  \
target/release/referee check tournaments/check-arrow5.toml --junit \\\n      \
report.xml\n  \
target/release/referee sprt arrow5 target/release/arrow5_strong \\\n      \
target/release/arrow5_random --elo1 50"
)]
pub struct Cli {
    /// Say more on stderr: the whole sandbox in force (by default one short line)
    #[arg(long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

/// `--verbose` was given: details on stderr.
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether `--verbose` was given.
pub fn verbose() -> bool {
    VERBOSE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Refuses an output folder (`--out`, `--report`) that is a file, or
/// whose path goes through one, before the command prints or makes
/// anything: found at the first write instead, the refusal came after
/// the line saying where the results go, as if the run had started.
pub fn output_folder(flag: &str, path: &std::path::Path) -> Result<(), Failure> {
    let (why, what_to_do) = match std::fs::metadata(path) {
        Ok(meta) if !meta.is_dir() => (
            "it is a file, not a folder".to_string(),
            "or move the file away",
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => (
            format!("a part of the path is a file ({e})"),
            "or move the file away",
        ),
        // A folder, or nothing yet (the command makes it): where no
        // folder of its own or above it may be written in, said before
        // anything starts (a tournament's notice said "results in" first).
        _ => match not_writable(path) {
            Some(why) => (why, "in a folder you may write in"),
            None => return Ok(()),
        },
    };
    Err(Failure::input(anyhow::anyhow!(
        "{flag} {}: cannot be the results folder: {why}; give {flag} a new folder's name \
         (or an earlier run's folder), {what_to_do}",
        path.display()
    )))
}

/// Why no results could be written at `path` (a folder, or a name to be
/// made in the nearest folder that exists above it), if none can: that
/// folder refuses this user's writes (its mode, a read-only file system).
fn not_writable(path: &std::path::Path) -> Option<String> {
    use rustix::fs::{access, Access};
    let absolute = std::path::absolute(path).ok()?;
    let folder = absolute.ancestors().find(|p| p.exists())?;
    match access(folder, Access::WRITE_OK | Access::EXEC_OK) {
        Ok(()) => None,
        Err(e) if folder == absolute => Some(format!(
            "it is a folder this user may not write in ({})",
            std::io::Error::from(e)
        )),
        Err(e) => Some(format!(
            "{} may not be written in by this user ({}), so the folder cannot be made there",
            folder.display(),
            std::io::Error::from(e)
        )),
    }
}

/// The sandbox in force in one short line, for the start-up notice
/// (`--verbose` prints [`Sandbox::describe`] instead).
pub fn sandbox_summary(sandbox: &Sandbox) -> String {
    use referee_engine::bot::landlock::{on_this_kernel, Confinement};
    let landlock = match on_this_kernel() {
        Confinement::Full { .. } => "Landlock",
        Confinement::Partial { .. } => "Landlock (partial)",
        Confinement::Unsupported => "no Landlock on this kernel",
    };
    match sandbox {
        Sandbox::Basic => format!("sandbox: basic ({landlock}, seccomp, rlimits)"),
        Sandbox::Strict(_) => format!(
            "sandbox: strict (a user, namespaces and a cgroup per bot; {landlock}, seccomp, rlimits)"
        ),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Play one game between two bots and print what happened
    #[command(name = "match")]
    Match(play::MatchArgs),
    /// Pretty-print a transcript written by `match --transcript`
    Replay(play::ReplayArgs),
    /// Check a judge program against recorded games: deterministic, well formed, within its time (exit 0 pass, 1 fail, 2 bad input)
    #[command(name = "judge-check", long_about = judge::LONG_ABOUT)]
    JudgeCheck(judge::JudgeCheckArgs),
    /// Play a recorded game again with a new version of one bot, the opponent's moves from the record (exit 0 not disqualified, 1 disqualified again)
    Reproduce(play::ReproduceArgs),
    /// Play a tournament file (round robin, gauntlet, Swiss, knockout, groups, free-for-all), in parallel, to CSV standings
    Tournament(tournament::TournamentArgs),
    /// Merge the results folders of tournament shards into one set of standings
    Merge(tournament::MergeArgs),
    /// Grade a results folder again from its games.csv and a [grading] section (bands changed: nothing is played)
    Grade(tournament::GradeArgs),
    /// Write the HTML report of a results folder into DIR/report/ (leaderboard, bot pages, replay viewers)
    Report(tournament::ReportArgs),
    /// Play a game yourself in the terminal, against a bot or another person
    #[command(
        long_about = "Play a game yourself in the terminal: against a bot (--vs BOT, you are seat A) \
or with two people taking turns at one keyboard (--hot-seat). Secret codes are typed without \
echo. Bad input is explained and asked again; it never counts as a move.\n\n\
Exit codes: 0 the game finished (whoever won); 130 you ended it early (Ctrl-C or end of \
input; the bot is killed); 2 bad input; 1 internal failure."
    )]
    Play(human::PlayArgs),
    /// Measure a solver: the referee holds each secret and the bot cracks it alone
    Bench(bench::BenchArgs),
    /// CI: check a bot against the requirements of a check file (exit 0 pass, 1 fail, 2 cannot run)
    Check(check::CheckArgs),
    /// CI: play NEW against OLD until a sequential test decides (exit 0 H1, 1 H0, 3 inconclusive)
    Sprt(check::SprtArgs),
    /// CI: measure how much slower this machine is than the reference, as a factor for --time-scale
    Calibrate(calibrate::CalibrateArgs),
    /// Write the man pages and shell completions into DIR (for packaging)
    #[command(name = "generate-assets", hide = true)]
    GenerateAssets(assets::AssetsArgs),
    /// List the languages bots may be written in: toolchain found, version, limits, commands
    Languages(languages::LanguagesArgs),
    /// Gather the teams' submissions (folders, archives, git) into a folder of bots, each admitted after a smoke game
    #[command(long_about = collect::LONG_ABOUT, after_help = collect::AFTER_HELP)]
    Collect(collect::CollectArgs),
    /// Serve a results folder to browsers, live: the leaderboard moves as games finish, a projector mode plays the games one at a time (read-only; 127.0.0.1 unless --bind)
    Serve(live::ServeArgs),
    /// Watch a results folder in the terminal: standings with intervals, games running now, verdicts, progress and time left (q quits)
    Watch(live::WatchArgs),
}

/// The secret key the referee draws codes with (see `referee_engine::key`):
/// shared by every command that plays games.
#[derive(Args, Clone, Debug, Default)]
pub struct KeyFlags {
    /// Draw codes and seeds with this secret key (64 hex digits) instead of a fresh one; replay commands print it. Unsafe for a contest: a wrapper's command line (timeout, bash -c) keeps it where other users of the machine may read it; use --key-file
    #[arg(long, value_name = "HEX", conflicts_with = "key_file")]
    pub key: Option<String>,
    /// Read the secret key from FILE (64 hex digits; e.g. the referee.key of a results folder, or one file shared by every shard)
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<std::path::PathBuf>,
}

impl KeyFlags {
    /// The key of this run: given, read, or drawn from the operating system.
    pub fn run_key(&self) -> Result<referee_engine::key::RunKey, Failure> {
        referee_engine::key::RunKey::from_options(self.key.as_deref(), self.key_file.as_deref())
            .map_err(Failure::input)
    }

    /// Files a bot must not read: the key file.
    pub fn hidden(&self) -> Vec<std::path::PathBuf> {
        self.key_file
            .iter()
            .filter_map(|p| std::path::absolute(p).ok())
            .collect()
    }
}

/// `--events FILE`: the run as JSON lines (`referee_engine::reporter::events`),
/// shared by the commands that run many games.
#[derive(Args, Clone, Debug, Default)]
pub struct EventFlags {
    /// Write the run as it happens to FILE, one JSON object a line, flushed line by line (- for stdout): run started, game started, game finished, standings, run finished (docs/reference.md, "Event stream"). Appended to FILE (made if missing): each run starts with its run-started line. FOLDER/events.jsonl of a tournament is what `referee serve` and `watch` read; a tournament given --events also writes each running game's public moves to FOLDER/live/game-NNNNNN.jsonl while it is played (docs/reference.md, "Live files")
    #[arg(long, value_name = "FILE")]
    pub events: Option<std::path::PathBuf>,
    /// With --events: each game's public moves too (move events, written as each move is made, before its game-finished: the move's account line and a judge's frame, never a hidden code nor a bot's own line)
    #[arg(long, requires = "events")]
    pub events_moves: bool,
}

impl EventFlags {
    /// The events reporter, if asked for: appending, so that the events
    /// of earlier runs (a resumed tournament's) are never lost.
    pub fn open(&self) -> Result<Option<referee_engine::reporter::events::Events>, Failure> {
        self.events
            .as_deref()
            .map(|path| {
                referee_engine::reporter::events::Events::open(path, self.events_moves)
                    .map_err(Failure::input)
            })
            .transpose()
    }

    /// The events go to stdout (`--events -`): nothing else may.
    pub fn on_stdout(&self) -> bool {
        self.events.as_deref() == Some(std::path::Path::new("-"))
    }

    /// The events file, kept from the bots as the results are.
    pub fn hidden(&self) -> Option<std::path::PathBuf> {
        self.events
            .as_deref()
            .filter(|_| !self.on_stdout())
            .and_then(|p| std::path::absolute(p).ok())
    }
}

/// Everything the bots of one run may not read, built here for every
/// command that plays, so that none leaves a part out: the run's own files
/// (`run_files`: its key file, events file, tournament or check file, the
/// folder it writes), the results folders near the one it writes (`out`)
/// and in the bots' own folders (see `model::folder::results_folders_near`),
/// and every bot's own files
/// with what is made of them by name (`bot::own_paths_of`), each bot
/// getting back its own only.
pub fn hidden_from_bots<'a>(
    run_files: impl IntoIterator<Item = std::path::PathBuf>,
    out: Option<&std::path::Path>,
    bots: impl IntoIterator<Item = &'a referee_engine::bot::BotCommand>,
) -> Vec<std::path::PathBuf> {
    let own = referee_engine::bot::own_paths_of(bots);
    let mut own_folders: Vec<std::path::PathBuf> = own
        .iter()
        .filter_map(|path| path.parent().map(std::path::Path::to_path_buf))
        .collect();
    own_folders.sort();
    own_folders.dedup();
    run_files
        .into_iter()
        .filter_map(|p| std::path::absolute(p).ok())
        .chain(referee_engine::model::folder::results_folders_near(
            out,
            &own_folders,
        ))
        .chain(own)
        .collect()
}

/// Game parameters, shared by every command that sets up games. Each game
/// accepts the flags that apply to it and refuses the others.
#[derive(Args, Clone, Debug, Default)]
pub struct GameFlags {
    /// Arrow 5: classic or hidden-eye
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Who picks the secret codes: "bots" (the rules) or "random" (drawn from the seed)
    #[arg(long, value_name = "bots|random")]
    pub codes: Option<String>,
    /// Arrow 5: rounds after which a game with no crack is a draw [default: 50]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = whole::<u32>)]
    pub max_rounds: Option<u32>,
    /// Safe Cracker: digits run from 1 to D [default: 3]
    #[arg(long, value_name = "D", allow_hyphen_values = true, value_parser = whole::<u8>)]
    pub digits: Option<u8>,
    /// Safe Cracker: digits per code [default: 3]
    #[arg(long, value_name = "L", allow_hyphen_values = true, value_parser = whole::<u8>)]
    pub length: Option<u8>,
    /// Safe Cracker: at most T guesses each; then the most exact matches in one guess wins [default: no limit, safety cap 100]
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = whole::<u32>)]
    pub attempts: Option<u32>,
    /// Safe Cracker and Cryptron: who moves first (Cryptron: who is player 1): a, b, or a coin toss from the seed (toss; Cryptron also takes random) [default: the coin toss]
    #[arg(long, value_name = "a|b|toss")]
    pub first: Option<String>,
    /// Mastermind: pegs in a code, N [default: 4]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = whole::<u8>)]
    pub pegs: Option<u8>,
    /// Mastermind: colours, C (written 0-9 then a-z) [default: 6]
    #[arg(long, visible_alias = "colors", value_name = "C", allow_hyphen_values = true, value_parser = whole::<u8>)]
    pub colours: Option<u8>,
    /// Mastermind: attacks each codebreaker may make, T; nobody cracking is a draw [default: 12]
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = whole::<u32>)]
    pub max_attacks: Option<u32>,
    /// A judge game's option, passed to the judge in its start message (repeatable); VALUE is sent as a number or true/false when it spells one, else as text; KEY:=JSON sends any JSON value
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub judge_options: Vec<String>,
    /// A judge game: time the judge may take to answer one message (ms, s, m, h; a bare number is seconds); its first, after its start, at least 10s; a judge that takes longer voids the game [default: 5s]
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = move_time)]
    pub judge_time: Option<std::time::Duration>,
    /// A judge game: resident memory the judge may use (KiB, MiB, GiB; a bare number is MiB) [default: 1GiB]
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = size_kb)]
    pub judge_memory: Option<u64>,
}

impl GameFlags {
    pub fn options(&self) -> GameOptions {
        GameOptions {
            variant: self.variant.clone(),
            codes: self.codes.clone(),
            max_rounds: self.max_rounds,
            digits: self.digits,
            length: self.length,
            attempts: self.attempts,
            first: self.first.clone(),
            pegs: self.pegs,
            colours: self.colours,
            max_attacks: self.max_attacks,
        }
    }

    pub fn config(&self, game: &str) -> Result<GameConfig, GameFlagsError> {
        units::check_game_options(&self.options())?;
        if referee_engine::judge::names_a_judge(game) {
            if let Some(flag) = self.options().given().first() {
                return Err(GameFlagsError::NotForJudges(format!("--{flag}")));
            }
            let options = referee_engine::judge::parse_options(&self.judge_options)?;
            return Ok(GameConfig::Judge(referee_engine::judge::judge_config(
                game,
                std::path::Path::new("."),
                options,
                self.judge_time
                    .map_or(referee_engine::games::judge::DEFAULT_TIME_MS, |t| {
                        t.as_millis().max(1) as u64
                    }),
                self.judge_memory
                    .unwrap_or(referee_engine::games::judge::DEFAULT_MEMORY_KB),
                &referee_engine::bot::Languages::built_in(),
            )?));
        }
        if !self.judge_options.is_empty() {
            return Err(GameFlagsError::JudgesOnly("--option".into()));
        }
        if self.judge_time.is_some() {
            return Err(GameFlagsError::JudgesOnly("--judge-time".into()));
        }
        if self.judge_memory.is_some() {
            return Err(GameFlagsError::JudgesOnly("--judge-memory".into()));
        }
        GameConfig::from_options(game, &self.options()).map_err(|e| match e {
            e @ referee_engine::games::GameConfigError::UnknownGame { .. } => {
                let hint = referee_engine::judge::judge_hint(game, std::path::Path::new("."));
                GameFlagsError::Unknown(e, hint)
            }
            e => e.into(),
        })
    }
}

/// Why the game and its flags make no game.
#[derive(Debug, thiserror::Error)]
pub enum GameFlagsError {
    #[error(transparent)]
    Option(#[from] units::UnitError),
    #[error(transparent)]
    Game(#[from] referee_engine::games::GameConfigError),
    #[error(transparent)]
    Judge(#[from] referee_engine::judge::JudgeSetupError),
    /// An unknown game, and how a judge game would be named.
    #[error("{0}{1}")]
    Unknown(referee_engine::games::GameConfigError, String),
    #[error(
        "{0} is a built-in game's option; a judge game takes its options as --option KEY=VALUE"
    )]
    NotForJudges(String),
    #[error("{0} is for a judge game (a GAME that is a path to a judge program)")]
    JudgesOnly(String),
}

/// Per-move time, startup time, time bank and memory, shared by every
/// command that plays.
/// Left out, each bot gets its game's contest default for its language
/// (`MatchLimits::defaults_for`).
#[derive(Args, Clone, Debug, Default)]
pub struct LimitFlags {
    /// Wall-clock time for each reply (ms, s, m, h; a bare number is seconds), from the request's last byte to the reply's newline
    /// [default: 2s; cryptron: 2s for C, C++ and executables, 6s for Python]; 1ms to 3600s
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = move_time)]
    pub time_limit: Option<std::time::Duration>,
    /// Time for a bot's first reply (ms, s, m, h; a bare number is seconds), which includes starting it (e.g. an interpreter)
    /// [default: 5s, or the time limit if longer]; 1ms to 3600s
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = move_time)]
    pub startup_limit: Option<std::time::Duration>,
    /// Time a bot may spend beyond its limits over one game (ms, s, m, h; a bare number is seconds): what a reply
    /// takes beyond its limit is drawn from the bank, and a reply that would
    /// overdraw it is a timeout; at most 86400s (24 hours) [default: 0, no bank]
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = time_bank)]
    pub time_bank: Option<std::time::Duration>,
    /// Resident memory per bot (KiB, MiB, GiB; a bare number is MiB) beyond its language's allowance
    /// (C 4MiB, C++ 6MiB, Python 16MiB); exceeding it is the `memory` verdict
    /// [default: 64MiB; cryptron: 8MiB]; at most 1024GiB
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = size_kb)]
    pub memory_limit: Option<u64>,
    /// What a bot's working folder may hold in all (KiB, MiB, GiB; a bare number is MiB); writing
    /// more is the `output` verdict [default: 64MiB]; at most 1024GiB
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size_kb)]
    pub disk_limit: Option<u64>,
    /// Confinement of the bots: basic (no privilege needed: Landlock,
    /// seccomp, rlimits, a launcher for bots that may fork), strict (adds per bot a user of its own,
    /// namespaces, private /tmp, a cgroup; needs root), auto (strict when it
    /// can be had) [default: basic]
    #[arg(long, value_name = "LAYER", value_parser = SandboxChoice::parse)]
    pub sandbox: Option<SandboxChoice>,
    /// Let bots start processes (fork); threads are always allowed. Off by
    /// default, so that a fork bomb goes nowhere
    #[arg(long)]
    pub allow_fork: bool,
    #[command(flatten)]
    pub time: TimeFlags,
}

/// Limits that hold on a slow or noisy machine: every time limit scaled,
/// and a margin for jitter. Shared by every command that plays games.
#[derive(Args, Clone, Debug, Default)]
pub struct TimeFlags {
    /// Multiply every time limit (move, start-up, time bank) by X, a positive number, for a
    /// machine X times slower than the one the limits were set for; `auto` measures this machine
    /// first (`referee calibrate`). The factor is kept in the results [default: 1]
    #[arg(long, value_name = "X|auto", allow_hyphen_values = true, value_parser = ScaleSetting::parse)]
    pub time_scale: Option<ScaleSetting>,
    /// A reply late by less than this (ms, s, m, h; a bare number is seconds), past its limit and time bank, is taken, and counted as a
    /// strike instead of a timeout; the record says each bot's strikes [default: none, every
    /// late reply is a timeout]; 1ms to 3600s
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = move_time)]
    pub time_margin: Option<std::time::Duration>,
    /// With --time-margin: the Nth strike loses on time (CodinGame's rule is 3) [default:
    /// strikes never lose]
    #[arg(long, value_name = "N", requires = "time_margin", allow_hyphen_values = true, value_parser = strikes)]
    pub strikes: Option<u32>,
}

impl TimeFlags {
    /// The factor to play with: `--time-scale`, else `file`'s setting,
    /// else 1. `auto` is measured once per process, and said on stderr.
    pub fn scale(&self, file: Option<ScaleSetting>) -> Result<TimeScale, Failure> {
        match self.time_scale.or(file) {
            None => Ok(TimeScale::ONE),
            Some(ScaleSetting::Factor(scale)) => {
                static SAID: std::sync::Once = std::sync::Once::new();
                if !scale.is_one() {
                    SAID.call_once(|| {
                        eprintln!("time scale {scale}: every time limit multiplied by {scale}")
                    });
                }
                Ok(scale)
            }
            Some(ScaleSetting::Auto) => calibrated(),
        }
    }

    /// Sets the margin and strikes of `limits`, when given.
    pub fn apply_margin(&self, limits: &mut MatchLimits) {
        if let Some(margin) = self.time_margin {
            limits.time_margin = margin;
            limits.strikes = self.strikes.unwrap_or(0);
        }
    }
}

/// This machine's time scale, measured once per process.
pub fn calibrated() -> Result<TimeScale, Failure> {
    static MEASURED: std::sync::OnceLock<Result<TimeScale, String>> = std::sync::OnceLock::new();
    MEASURED
        .get_or_init(|| {
            eprintln!("calibrating: measuring this machine against the reference workload...");
            let calibration = referee_engine::calibrate::measure().map_err(|e| e.to_string())?;
            eprintln!("{}", calibration.describe());
            Ok(calibration.scale())
        })
        .clone()
        .map_err(|e| Failure::internal(anyhow::anyhow!(e)))
}

/// `--strikes`: at least 1.
pub fn strikes(text: &str) -> Result<u32, ArgError> {
    let n = whole::<u32>(text)?;
    if n == 0 {
        return Err(ArgError::Other(
            "0: the strike that loses on time is at least the first; leave --strikes out for strikes that never lose".into(),
        ));
    }
    Ok(n)
}

impl LimitFlags {
    /// The limits of a bot in `language` playing `config`'s game: the flags
    /// given, the game's defaults for the rest.
    pub fn limits_for(
        &self,
        arena: &Arena,
        config: &GameConfig,
        language: Language,
    ) -> MatchLimits {
        let mut limits = MatchLimits::defaults_for(config, language);
        if let Some(time) = self.time_limit {
            // No shorter than a move, as by default; but from the default
            // start-up, not the one the language's own time per move (in
            // Cryptron) raised: one time for both seats gives both seats
            // one start-up, which the replay command can then say.
            limits.time_limit = time;
            limits.startup_limit = MatchLimits::default().startup_limit.max(time);
        }
        if let Some(startup) = self.startup_limit {
            limits.startup_limit = startup;
        }
        if let Some(bank) = self.time_bank {
            limits.time_bank = bank;
        }
        if let Some(memory) = self.memory_limit {
            limits.process.memory_kb = memory;
        }
        if let Some(disk) = self.disk_limit {
            limits.process.disk_kb = disk;
        }
        limits.process.sandbox =
            resolved_sandbox(arena, self.sandbox.unwrap_or_default()).unwrap_or_default();
        limits.process.footprint = arena.footprint();
        limits.process.allow_fork = self.allow_fork;
        self.time.apply_margin(&mut limits);
        // Resolved (and said) before any bot starts: see `check_sandbox`.
        limits.scaled(self.time.scale(None).unwrap_or_default())
    }

    /// Resolves `--sandbox` once, before any bot starts: prints what is in
    /// force, or refuses (exit 2) when the asked-for layer cannot be had.
    pub fn check_sandbox(&self, arena: &Arena) -> Result<Sandbox, Failure> {
        self.time.scale(None)?;
        check_sandbox(arena, self.sandbox.unwrap_or_default())
    }
}

/// Resolves a sandbox choice once per command (its [`Arena`]), printing
/// the layer in force (one short line; the details with `--verbose`).
pub fn check_sandbox(arena: &Arena, choice: SandboxChoice) -> Result<Sandbox, Failure> {
    resolved_sandbox(arena, choice).map_err(Failure::input)
}

fn resolved_sandbox(arena: &Arena, choice: SandboxChoice) -> Result<Sandbox, SandboxError> {
    arena.sandbox(choice, |sandbox| {
        if verbose() {
            eprintln!("{}", sandbox.describe());
        } else {
            eprintln!("{}", sandbox_summary(sandbox));
        }
    })
}

/// Why a value on the command line is refused (clap prints it after the
/// flag's name).
#[derive(Debug, thiserror::Error)]
pub enum ArgError {
    #[error("must not be negative, got '{0}'")]
    Negative(String),
    #[error("a value is missing (got the option '{0}')")]
    Missing(String),
    #[error("'{text}' is not a whole number in range ({why})")]
    NotWhole { text: String, why: String },
    #[error(transparent)]
    Unit(#[from] units::UnitError),
    #[error("{0}")]
    Other(String),
}

/// A value that is not negative: `-1` is refused as negative (not taken by
/// clap for an unknown option), `--other` as a missing value.
pub fn refuse_negative(text: &str) -> Result<&str, ArgError> {
    match text.trim().strip_prefix('-') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') => {
            Err(ArgError::Negative(text.to_string()))
        }
        Some(_) => Err(ArgError::Missing(text.to_string())),
        None => Ok(text),
    }
}

/// A whole number, not negative.
pub fn whole<T>(text: &str) -> Result<T, ArgError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    refuse_negative(text)?
        .trim()
        .parse()
        .map_err(|e: T::Err| ArgError::NotWhole {
            text: text.to_string(),
            why: e.to_string(),
        })
}

/// `--jobs`, not negative.
pub fn jobs(text: &str) -> Result<usize, ArgError> {
    Ok(units::parse_jobs(refuse_negative(text)?)?)
}

/// `--samples`, not negative.
pub fn samples(text: &str) -> Result<u64, ArgError> {
    Ok(units::parse_samples(refuse_negative(text)?)?)
}

/// A count from 0 to `units::MAX_GAMES`, not negative.
pub fn games(text: &str) -> Result<u64, ArgError> {
    Ok(units::parse_count(
        refuse_negative(text)?,
        0,
        units::MAX_GAMES,
    )?)
}

/// A time per move, not negative.
pub fn move_time(text: &str) -> Result<std::time::Duration, ArgError> {
    Ok(units::parse_move_time(refuse_negative(text)?)?)
}

/// A duration (`120s`, `2m`), not negative, at most 24 hours.
pub fn duration(text: &str) -> Result<std::time::Duration, ArgError> {
    Ok(units::parse_duration(refuse_negative(text)?)?)
}

/// A time bank, not negative.
pub fn time_bank(text: &str) -> Result<std::time::Duration, ArgError> {
    Ok(units::parse_time_bank(refuse_negative(text)?)?)
}

/// A memory size, not negative.
pub fn size_kb(text: &str) -> Result<u64, ArgError> {
    Ok(units::parse_size_kb(refuse_negative(text)?)?)
}

/// A failure of a command, with the exit code it maps to.
pub enum Failure {
    Input(anyhow::Error),
    Internal(anyhow::Error),
}

impl Failure {
    pub fn input(e: impl Into<anyhow::Error>) -> Failure {
        Failure::Input(e.into())
    }
    pub fn internal(e: impl Into<anyhow::Error>) -> Failure {
        Failure::Internal(e.into())
    }
    /// The same failure, reported with the exit code of bad input.
    pub fn into_input(self) -> Failure {
        match self {
            Failure::Input(e) | Failure::Internal(e) => Failure::Input(e),
        }
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::Ok
                }
                _ => ExitCode::BadInput,
            };
        }
    };
    VERBOSE.store(cli.verbose, std::sync::atomic::Ordering::Relaxed);
    // A command that plays games stops them at the first Ctrl-C or
    // SIGTERM and returns, so that its bots' folders, mounts and cgroups
    // go with the context (`serve` installs the same handler itself;
    // `play` keeps Ctrl-C for its person, and a dry run, which writes
    // nothing, the default action). Installed first, before anything
    // slow and before the command line is hidden (so a hidden command
    // line tells a watcher the handler is in force): installed after a
    // tournament's planning (its interpreter probes), a Ctrl-C then
    // killed the referee outright.
    let plays_games = matches!(
        cli.command,
        Command::Match(_)
            | Command::JudgeCheck(_)
            | Command::Reproduce(_)
            | Command::Bench(_)
            | Command::Check(_)
            | Command::Sprt(_)
    );
    // These two say an interruption themselves: what was done, how to go on.
    let stops_itself = matches!(&cli.command, Command::Tournament(args) if !args.dry_run)
        || matches!(cli.command, Command::Collect(_));
    if plays_games || stops_itself {
        referee_engine::bot::install_interrupt_handler();
    }
    // Printed commands (replays, --resume) start with the referee as the
    // person started it, so that they run as printed.
    if let Some(program) = std::env::args_os().next() {
        referee_engine::report::set_program(&program.to_string_lossy());
    }
    referee_engine::bot::sandbox::hide_command_line();
    // The command's context, dropped when this function returns: it
    // removes the bots' working folder and cgroup folders.
    let arena = &Arena::new();
    let result = match cli.command {
        Command::Match(args) => play::run_match(args, arena),
        Command::Replay(args) => play::run_replay(args).map(|()| ExitCode::Ok),
        Command::JudgeCheck(args) => judge::run_judge_check(args, arena),
        Command::Reproduce(args) => play::run_reproduce(args, arena),
        Command::Tournament(args) => tournament::run_tournament(args, arena),
        Command::Merge(args) => tournament::run_merge(args),
        Command::Report(args) => tournament::run_report(args),
        Command::Grade(args) => tournament::run_grade(args),
        Command::Play(args) => human::run_play(args, arena),
        Command::Bench(args) => bench::run_bench(args, arena).map(|()| ExitCode::Ok),
        // For CI, 1 means a failed requirement (or H0): a run that cannot
        // be done is 2, whatever the cause.
        Command::Check(args) => check::run_check(args, arena).map_err(Failure::into_input),
        Command::Sprt(args) => check::run_sprt(args, arena).map_err(Failure::into_input),
        Command::Languages(args) => {
            languages::run_languages(args, arena.languages()).map(|()| ExitCode::Ok)
        }
        Command::Collect(args) => collect::run_collect(args, arena),
        Command::Serve(args) => live::run_serve(args),
        Command::Watch(args) => live::run_watch(args),
        Command::GenerateAssets(args) => assets::run_assets(args).map(|()| ExitCode::Ok),
        Command::Calibrate(args) => calibrate::run_calibrate(args).map(|()| ExitCode::Ok),
    };
    // Only a signal: a stop the referee asked of itself on an error (a
    // full disk) is that error's, said below with its exit code.
    if plays_games && referee_engine::bot::signalled() {
        eprintln!("referee: stopped by a signal (Ctrl-C or SIGTERM) before its games were done");
        return ExitCode::Interrupted;
    }
    // A tournament or `collect` stopped while it got ready fails on what
    // the signal cut short (an interpreter probe): its error is said, and
    // the exit is an interruption's.
    let stopped = stops_itself && referee_engine::bot::signalled();
    match result {
        Ok(code) => code,
        // Errors may quote a bot's name or output: control characters
        // are shown escaped (`referee_engine::text`).
        Err(Failure::Input(e)) => {
            eprintln!("referee: {}", escape_lines(&with_causes(e.as_ref())));
            if stopped {
                ExitCode::Interrupted
            } else {
                ExitCode::BadInput
            }
        }
        Err(Failure::Internal(e)) => {
            eprintln!(
                "referee: internal failure: {}",
                escape_lines(&with_causes(e.as_ref()))
            );
            if stopped {
                ExitCode::Interrupted
            } else {
                ExitCode::Internal
            }
        }
    }
}
