//! Command-line front end: raw clap arguments are validated into library
//! types before any bot is started, and every failure maps to an exit code.
//!
//! Exit codes: 0 the command did its work (a finished game, whoever won);
//! 2 the input was wrong (usage, a bot spec, a game option, a file), and the
//! message says what to fix; 1 the referee itself failed.

mod bench;
mod play;

use clap::{Args, Parser, Subcommand};

use referee::games::{GameConfig, GameOptions};
use referee::runner::MatchLimits;
use referee::units;

pub const EXIT_OK: i32 = 0;
pub const EXIT_INTERNAL: i32 = 1;
pub const EXIT_INPUT: i32 = 2;

#[derive(Parser)]
#[command(
    name = "referee",
    version,
    about = "Runs games between bot programs over a line protocol, with time and memory limits",
    long_about = "Runs games between bot programs (\"bots\") that talk over stdin/stdout in a line \
protocol (see protocol.md). Enforces time and memory limits, applies each game's rules and its \
disqualifications, and reports verdicts.\n\n\
A BOT is a path to an executable, a .py file (run with python3), or a quoted command line \
such as \"python3 my_bot.py --fast\".\n\n\
Exit codes: 0 done (a finished game, whoever won); 2 bad input (the message says what to \
fix); 1 internal failure of the referee.",
    after_help = "Examples:\n  referee match arrow5 target/release/arrow5_strong sample_bots/python/arrow5_starter.py\n  \
referee match arrow5 A B --variant hidden-eye --codes random --seed 7 --transcript game.jsonl\n  \
referee match mastermind A B --pegs 5 --colours 8 --max-attacks 10\n  \
referee bench mastermind target/release/mastermind_knuth --all --csv knuth.csv\n  \
referee bench arrow5 target/release/arrow5_strong --samples 500 --seed 1\n  \
referee replay game.jsonl"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play one game between two bots and print what happened
    #[command(name = "match")]
    Match(play::MatchArgs),
    /// Pretty-print a transcript written by `match --transcript`
    Replay(play::ReplayArgs),
    /// Measure a solver: the referee holds each secret and the bot cracks it alone
    Bench(bench::BenchArgs),
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
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
    /// Mastermind: pegs in a code, N [default: 4]
    #[arg(long, value_name = "N")]
    pub pegs: Option<u8>,
    /// Mastermind: colours, C (written 0-9 then a-z) [default: 6]
    #[arg(long, visible_alias = "colors", value_name = "C")]
    pub colours: Option<u8>,
    /// Mastermind: attacks each codebreaker may make, T; nobody cracking is a draw [default: 12]
    #[arg(long, value_name = "T")]
    pub max_attacks: Option<u32>,
}

impl GameFlags {
    pub fn options(&self) -> GameOptions {
        GameOptions {
            variant: self.variant.clone(),
            codes: self.codes.clone(),
            max_rounds: self.max_rounds,
            pegs: self.pegs,
            colours: self.colours,
            max_attacks: self.max_attacks,
        }
    }

    pub fn config(&self, game: &str) -> Result<GameConfig, String> {
        GameConfig::from_options(game, &self.options()).map_err(|e| e.to_string())
    }
}

/// Per-move time, startup time and memory, shared by every command that plays.
#[derive(Args, Clone, Debug)]
pub struct LimitFlags {
    /// Wall-clock time for each reply, from the request's last byte to the reply's newline
    #[arg(long, value_name = "DURATION", default_value = "2s", value_parser = units::parse_duration)]
    pub time_limit: std::time::Duration,
    /// Time for a bot's first reply, which includes starting it (e.g. an interpreter)
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = units::parse_duration)]
    pub startup_limit: std::time::Duration,
    /// Resident memory per bot (KiB, MiB, GiB); exceeding it is the `memory` verdict
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = units::parse_size_kb)]
    pub memory_limit: u64,
}

impl LimitFlags {
    pub fn limits(&self) -> MatchLimits {
        let mut limits = MatchLimits {
            time_limit: self.time_limit,
            startup_limit: self.startup_limit,
            ..MatchLimits::default()
        };
        limits.process.memory_kb = self.memory_limit;
        limits
    }
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
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    EXIT_OK
                }
                _ => EXIT_INPUT,
            };
        }
    };
    let result = match cli.command {
        Command::Match(args) => play::run_match(args),
        Command::Replay(args) => play::run_replay(args),
        Command::Bench(args) => bench::run_bench(args),
    };
    match result {
        Ok(()) => EXIT_OK,
        Err(Failure::Input(e)) => {
            eprintln!("referee: {e:#}");
            EXIT_INPUT
        }
        Err(Failure::Internal(e)) => {
            eprintln!("referee: internal failure: {e:#}");
            EXIT_INTERNAL
        }
    }
}
