//! `referee play`: a person at the terminal against a bot (`--vs BOT`) or two
//! people at one keyboard (`--hot-seat`). The game loop is the library's
//! `referee_engine::human`.

use clap::{ArgGroup, Args};

use referee_engine::bot::{Arena, BotCommand, Language};
use referee_engine::human::{self, HumanEnd, HumanError, HumanPlan, Opponent};

use super::{Failure, GameFlags, LimitFlags};

#[derive(Args)]
#[command(
    group(ArgGroup::new("opponent").required(true).args(["vs", "hot_seat"])),
    // A person plays the built-in code games only: a judge's options would
    // only be refused.
    mut_arg("judge_options", |a| a.hide(true)),
    mut_arg("judge_time", |a| a.hide(true)),
    mut_arg("judge_memory", |a| a.hide(true)),
)]
pub struct PlayArgs {
    /// The game to play: arrow5, mastermind or safecracker
    pub game: String,
    /// Play against this bot (an executable, a source file (.py, .c, .cpp, .java, .js, .go, .rs) or folder, or a quoted command line); you are seat A
    #[arg(long, value_name = "BOT")]
    pub vs: Option<String>,
    /// Two people take turns at this keyboard (secret codes are typed without echo)
    #[arg(long)]
    pub hot_seat: bool,
    #[command(flatten)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Seed for everything random (coin toss, drawn codes, the bot's seed); default: a fresh one
    #[arg(long, allow_hyphen_values = true, value_parser = super::whole::<u64>)]
    pub seed: Option<u64>,
}

pub fn run_play(args: PlayArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    let languages = arena.languages();
    let config = args.game_flags.config(&args.game).map_err(Failure::input)?;
    let opponent = match &args.vs {
        Some(spec) => Opponent::Bot(BotCommand::parse(spec, languages).map_err(Failure::input)?),
        None => Opponent::HotSeat,
    };
    let language = match &opponent {
        Opponent::Bot(bot) => bot.language,
        Opponent::HotSeat => Language::native(),
    };
    args.limits.check_sandbox(arena)?;
    let limits = args.limits.limits_for(arena, &config, language);
    let plan = HumanPlan {
        config,
        seed: args
            .seed
            .unwrap_or_else(|| u64::from(rand::random::<u32>())),
        opponent,
        limits,
    };
    match human::play(&plan) {
        Ok(HumanEnd::Finished { .. }) => Ok(super::ExitCode::Ok),
        Ok(HumanEnd::Abandoned(_)) => Ok(super::ExitCode::Interrupted),
        Err(e @ (HumanError::BotStart { .. } | HumanError::NotPlayable { .. })) => {
            Err(Failure::input(e))
        }
        Err(e @ HumanError::Terminal(_)) => Err(Failure::internal(e)),
    }
}
