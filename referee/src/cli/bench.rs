//! `referee bench`: a solver against every secret, a seeded sample, or one
//! secret. The work is `referee_engine::bench`; here are the flags and the
//! reporters: the terminal (progress, summary) and the CSV file.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::{ArgGroup, Args};

use referee_engine::bench::{self, BenchError, BenchPlan, Selection};
use referee_engine::bot::{Arena, BotCommand};
use referee_engine::reporter::csv::BenchCsv;
use referee_engine::reporter::terminal::Terminal;
use referee_engine::reporter::Reporters;

use super::{Failure, GameFlags, KeyFlags, LimitFlags};

/// The bench seed when none is given, so that two runs compare.
pub const DEFAULT_SEED: u64 = 1;

#[derive(Args)]
#[command(
    group(ArgGroup::new("selection").required(true).args(["all", "samples", "secret"])),
    // The referee holds every secret and the bot plays alone: who picks the
    // codes and who moves first do not apply (refused if given).
    mut_arg("codes", |a| a.hide(true)),
    mut_arg("first", |a| a.hide(true)),
    // No judge game has a solo form: its options would only be refused.
    mut_arg("judge_options", |a| a.hide(true)),
    mut_arg("judge_time", |a| a.hide(true)),
    mut_arg("judge_memory", |a| a.hide(true)),
    // A bench is a solo game: a cap ends it as a failure, not a draw.
    mut_arg("attempts", |a| a.help("Safe Cracker: at most T guesses for each secret; not cracked by then is a failure [default: no limit, safety cap 100]")),
    mut_arg("max_attacks", |a| a.help("Mastermind: attacks the bot may make on each secret, T; not cracked by then is a failure [default: 12]")),
    mut_arg("max_rounds", |a| a.help("Arrow 5: attacks the bot may make on each secret; not cracked by then is a failure [default: 50]")),
    mut_arg("time_limit", |a| a.help("Wall-clock time for each reply (ms, s, m, h; a bare number is seconds), from the request's last byte to the reply's newline [default: 2s]; 1ms to 3600s")),
    after_help = "The referee holds each secret and plays a solo game with the bot (greeting role \
`solo`, only `attack` requests). A failure is a secret not cracked within the cap (mastermind \
--max-attacks, arrow5 --max-rounds, safecracker --attempts) or a verdict against the bot. The average and largest are \
over the cracked games. The CSV has one row per game, in the order games finish.\n\n\
Examples:\n  \
target/release/referee bench mastermind target/release/mastermind_knuth \\\n      \
--all\n  \
target/release/referee bench arrow5 target/release/arrow5_strong --samples \\\n      \
500 --seed 3 --jobs 2 --csv a5.csv\n  \
target/release/referee bench safecracker \\\n      \
target/release/safecracker_optimal --all\n  \
target/release/referee bench mastermind my_bot.py --secret 51 --transcript \\\n      \
one.jsonl"
)]
pub struct BenchArgs {
    /// The game: arrow5, mastermind or safecracker (cryptron has no solo form)
    pub game: String,
    /// The solver: an executable, a source file (.py, .c, .cpp, .java, .js, .go, .rs) or folder, or a quoted command line
    pub bot: String,
    /// Play every secret of the game
    #[arg(long)]
    pub all: bool,
    /// Play K distinct secrets drawn from the seed (at most 1000000)
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = super::samples)]
    pub samples: Option<u64>,
    /// Play the secret of index I alone (the replay line of a failure names it)
    #[arg(long, value_name = "I", allow_hyphen_values = true, value_parser = super::whole::<u64>)]
    pub secret: Option<u64>,
    /// Seed of the sample and of every game's bot seed
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED, allow_hyphen_values = true, value_parser = super::whole::<u64>)]
    pub seed: u64,
    /// Games played at once [default: the number of cores; at most 1024]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub key: KeyFlags,
    #[command(flatten)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Write one row per game to FILE (CSV with a header)
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// With --secret: write every message of the game to FILE (JSON lines)
    #[arg(long, value_name = "FILE", requires = "secret")]
    pub transcript: Option<PathBuf>,
}

pub fn run_bench(args: BenchArgs, arena: &Arena) -> Result<(), Failure> {
    let languages = arena.languages();
    if let Some(codes) = &args.game_flags.codes {
        return Err(Failure::Input(anyhow!(
            "--codes {codes} does not apply to bench: the referee holds every secret; drop it"
        )));
    }
    if let Some(first) = &args.game_flags.first {
        return Err(Failure::Input(anyhow!(
            "--first {first} does not apply to bench: the bot plays alone; drop it"
        )));
    }
    let config = args.game_flags.config(&args.game).map_err(Failure::input)?;
    let bot = BotCommand::parse(&args.bot, languages).map_err(Failure::input)?;
    let selection = match (args.all, args.samples, args.secret) {
        (true, None, None) => Selection::All,
        (false, Some(k), None) => Selection::Sample(k),
        (false, None, Some(i)) => Selection::One(i),
        _ => unreachable!("clap lets exactly one selection through"),
    };
    args.limits.check_sandbox(arena)?;
    let mut limits = args.limits.limits_for(arena, &config, bot.language);
    limits
        .process
        .hidden
        .extend(super::hidden_from_bots(args.key.hidden(), None, [&bot]));
    let plan = BenchPlan {
        config,
        bot,
        limits,
        selection,
        seed: args.seed,
        key: args.key.run_key()?,
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
    };
    bench::check(&plan).map_err(Failure::input)?;

    let mut reporters = Reporters::default();
    if let Some(path) = &args.csv {
        let csv = BenchCsv::create(path)
            .with_context(|| format!("cannot create the CSV file {}", path.display()))
            .map_err(Failure::Input)?;
        reporters.push(csv);
    }
    reporters.push(
        Terminal::new()
            .with_file("CSV", args.csv.as_ref())
            .with_file("Transcript", args.transcript.as_ref()),
    );
    // Bad selections were refused by `check`; what is left is a transcript
    // or a CSV file that cannot be written, which the user fixes.
    match bench::run(&plan, args.transcript.as_ref(), &mut reporters) {
        Ok(_) => Ok(()),
        Err(BenchError::Report(e)) => Err(Failure::Input(anyhow!(e.source).context(format!(
            "{} {}",
            e.what,
            e.path.display()
        )))),
        Err(e) => Err(Failure::input(e)),
    }
}
