//! `referee match` and `referee replay`.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use referee_engine::bot::{Arena, BotCommand};
use referee_engine::match_plan::MatchPlan;
use referee_engine::reporter::{json::Json, terminal::Terminal, Place, Reporter, Run};
use referee_engine::runner::{play_match, MatchError};
use referee_engine::transcript;

use super::{Failure, GameFlags, KeyFlags, LimitFlags};

#[derive(Args)]
pub struct MatchArgs {
    /// The game to play: arrow5, mastermind, safecracker or cryptron; or a path to a judge program (e.g. games/connect4/judge.py) that serves a game of the organiser's over the judge protocol (docs/reference.md, "Judges"), with its options as --option KEY=VALUE
    pub game: String,
    /// First bot, seat A (moves first, unless the game tosses a coin: Safe Cracker, Cryptron): an executable, a source file (.py, .c, .cpp, .java, .js, .go, .rs) or folder, or a quoted command line
    pub bot_a: String,
    /// Second bot
    pub bot_b: String,
    /// More bots, seats C, D, ..., for a game of more than two players (a judge whose ready says max_players); the built-in games take two
    #[arg(value_name = "MORE_BOTS")]
    pub more_bots: Vec<String>,
    #[command(flatten)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Public seed of the game (told to the bots); what is random is drawn from it with the secret key; default: a fresh one, printed
    #[arg(long, allow_hyphen_values = true, value_parser = super::whole::<u64>)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub key: KeyFlags,
    /// Write every message of the game, both directions and stderr, to FILE (JSON lines)
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    /// Print one JSON object instead of the readable account
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// A transcript written by `referee match --transcript FILE` (or a
    /// tournament's transcripts/game-NNNNNN.jsonl)
    pub file: Option<PathBuf>,
    /// Write the game's replay viewer (one self-contained page: step through
    /// the moves in a browser) instead of printing the game: to HTML if
    /// given, else beside the transcript (`game.jsonl` -> `game.html`).
    /// `--html game.jsonl` alone does the latter.
    #[arg(long, value_name = "HTML", num_args = 0..=1, default_missing_value = "-")]
    pub html: Option<PathBuf>,
    /// With --html: a folder of templates replacing the built-in ones of the same name
    #[arg(long, value_name = "DIR", requires = "html")]
    pub templates: Option<PathBuf>,
}

pub fn run_match(args: MatchArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    let languages = arena.languages();
    let config = args.game_flags.config(&args.game).map_err(Failure::input)?;
    let specs: Vec<&String> = [&args.bot_a, &args.bot_b]
        .into_iter()
        .chain(&args.more_bots)
        .collect();
    if specs.len() > 2 && !matches!(config, referee_engine::games::GameConfig::Judge(_)) {
        return Err(Failure::input(anyhow!(
            "{} is a game of two players, and {} bots were given; only a judge's game takes more (docs/writing-a-game.md)",
            config.game_name(),
            specs.len()
        )));
    }
    if specs.len() > referee_engine::games::MAX_SEATS {
        return Err(Failure::input(anyhow!(
            "{} bots were given; a game takes at most {}",
            specs.len(),
            referee_engine::games::MAX_SEATS
        )));
    }
    let mut bots = specs
        .iter()
        .map(|spec| BotCommand::parse(spec, languages))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::input)?;
    distinct_all_names(&mut bots);
    args.limits.check_sandbox(arena)?;
    let mut limits: Vec<_> = bots
        .iter()
        .map(|bot| args.limits.limits_for(arena, &config, bot.language))
        .collect();
    let hidden = super::hidden_from_bots(args.key.hidden(), None, &bots);
    for limit in &mut limits {
        limit.process.hidden.extend(hidden.iter().cloned());
    }
    let plan = MatchPlan {
        config,
        seed: args
            .seed
            .unwrap_or_else(|| u64::from(rand::random::<u32>())),
        key: args.key.run_key()?,
        bots,
        limits,
    };
    let mut reporter: Box<dyn Reporter> = if args.json {
        Box::new(Json)
    } else {
        Box::new(Terminal::new().with_file("Transcript", args.transcript.as_ref()))
    };
    reporter
        .run_started(&Run::Match)
        .map_err(Failure::internal)?;
    let record = match play_match(&plan, args.transcript.as_ref()) {
        Ok(record) => record,
        // The judge refused the game's options: the organiser's to fix.
        Err(e @ MatchError::Judge { .. }) if e.is_refused_game() => return Err(Failure::input(e)),
        // Not the referee's failure, nor bad input: the game has no
        // result, and says why.
        Err(e @ MatchError::Players { .. }) => return Err(Failure::input(e)),
        Err(e @ MatchError::Judge { .. }) => {
            eprintln!(
                "referee: {}",
                referee_engine::text::escape_lines(&e.to_string())
            );
            return Ok(super::ExitCode::Internal);
        }
        Err(
            e @ (MatchError::Transcript { .. }
            | MatchError::Compiler { .. }
            | MatchError::Unreachable { .. }),
        ) => return Err(Failure::input(e)),
        Err(e @ (MatchError::Interrupted | MatchError::NotStarted { .. })) => {
            return Err(Failure::internal(e))
        }
    };
    reporter
        .game_finished(&record, &Place::Match)
        .map_err(Failure::internal)?;
    Ok(super::ExitCode::Ok)
}

#[derive(Args)]
pub struct ReproduceArgs {
    /// The recorded game: a transcript (`referee match --transcript FILE`, or
    /// a tournament's transcripts/game-NNNNNN.jsonl)
    pub file: PathBuf,
    /// The new version of the bot, played in its recorded seat (an
    /// executable, a source file or folder, or a quoted command line)
    #[arg(long, value_name = "BOT")]
    pub bot: String,
    /// The seat the new bot takes, a or b [default: the seat disqualified in
    /// the recorded game]
    #[arg(long, value_name = "a|b")]
    pub seat: Option<String>,
    /// The secret key of the recorded game [default: the one its replay
    /// command names, else the referee.key of the transcript's results
    /// folder]
    #[command(flatten)]
    pub key: KeyFlags,
    /// Write the new game's transcript to FILE
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

pub fn run_reproduce(args: ReproduceArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    let languages = arena.languages();
    use referee_engine::games::Seat;
    let shown = args.file.display().to_string();
    let entries = transcript::read(&args.file)
        .map_err(|e| Failure::input(anyhow!(e).context(shown.clone())))?;
    let record = entries
        .iter()
        .find_map(|e| match e {
            transcript::Entry::Result { record } => Some(record.clone()),
            _ => None,
        })
        .ok_or_else(|| {
            Failure::input(anyhow!(
                "{shown}: the transcript has no result line (a game that did not finish?)"
            ))
        })?;
    if record.players.len() > 2 {
        return Err(Failure::input(anyhow!(
            "{shown}: reproduce plays a game of two players again, and this one had {}",
            record.players.len()
        )));
    }
    let recorded = recorded_game(&record, &shown)?;
    let seat = match args.seat.as_deref() {
        Some("a" | "A") => Seat::A,
        Some("b" | "B") => Seat::B,
        Some(other) => {
            return Err(Failure::input(anyhow!(
                "--seat: '{}' is not a seat; give a or b",
                referee_engine::text::escape(other)
            )))
        }
        None => {
            let disqualified: Vec<Seat> = Seat::BOTH
                .into_iter()
                .filter(|s| record.player(*s).disqualification.is_some())
                .collect();
            match disqualified[..] {
                [one] => one,
                _ => {
                    return Err(Failure::input(anyhow!(
                        "{shown}: {} seat was disqualified in the recorded game: say which seat the new bot takes with --seat a or --seat b",
                        if disqualified.is_empty() { "no" } else { "more than one" }
                    )))
                }
            }
        }
    };
    let opponent = seat.other();
    // The key: given, else the replay command's, else the results folder's.
    let mut key = args.key.clone();
    if key.key.is_none() && key.key_file.is_none() {
        key = recorded.key.clone();
        if let Some(file) = &key.key_file {
            let beside = args
                .file
                .parent()
                .and_then(|p| p.parent())
                .map(|folder| folder.join(referee_engine::key::KEY_FILE));
            if !file.exists() {
                match beside.filter(|b| b.exists()) {
                    Some(b) => key.key_file = Some(b),
                    None => {
                        return Err(Failure::input(anyhow!(
                            "{shown}: the game's key file {} is not there: give it with --key-file (a results folder's referee.key)",
                            file.display()
                        )))
                    }
                }
            }
        }
    }
    // A team's copy of a transcript has no key (grades/TEAM/transcripts):
    // the game is played with a new one, and said so.
    let keyless = key.key.is_none() && key.key_file.is_none();
    let config = recorded.config.clone();
    let new = BotCommand::parse(&args.bot, languages).map_err(Failure::input)?;
    let seed = recorded.seed;
    let player = record.player(opponent);
    // Never started: its command only names it.
    let scripted = BotCommand {
        spec: player.spec.clone(),
        name: format!("{}{}", player.name, referee_engine::runner::RECORDED_MARK),
        ..new.clone()
    };
    let mut bots = [scripted.clone(), scripted];
    bots[seat.index()] = new;
    let hidden = super::hidden_from_bots(
        key.hidden().into_iter().chain([args.file.clone()]),
        None,
        &bots,
    );
    let limits = Seat::BOTH.map(|s| {
        let mut limits = recorded.limits_for(arena, s, bots[s.index()].language);
        limits.process.hidden.extend(hidden.clone());
        limits
    });
    LimitFlags::default().check_sandbox(arena)?;
    let plan = MatchPlan {
        config,
        seed,
        key: key.run_key()?,
        bots: bots.into(),
        limits: limits.into(),
    };
    let replies: Vec<String> = referee_engine::reproduce::replies(&entries, opponent)
        .into_iter()
        .map(|(_, reply)| reply)
        .collect();
    if let Some(save) = &args.save {
        let same = |p: &std::path::Path| std::fs::canonicalize(p).ok();
        if save.exists() && same(save) == same(&args.file) {
            return Err(Failure::input(anyhow!(
                "--save {}: that is the recorded transcript; give another file",
                save.display()
            )));
        }
    }
    let temporary = tempfile::NamedTempFile::new().map_err(Failure::internal)?;
    let save = args
        .save
        .clone()
        .unwrap_or_else(|| temporary.path().to_path_buf());
    let mut played =
        referee_engine::runner::play_reproduction(&plan, opponent, replies, Some(&save)).map_err(
            |e| match e {
                _ if e.is_refused_game() => Failure::input(e),
                MatchError::Transcript { .. }
                | MatchError::Compiler { .. }
                | MatchError::Unreachable { .. }
                | MatchError::Players { .. } => Failure::input(e),
                MatchError::Interrupted
                | MatchError::NotStarted { .. }
                | MatchError::Judge { .. } => Failure::internal(e),
            },
        )?;
    let mut again = vec![
        "referee".to_string(),
        "reproduce".into(),
        args.file.display().to_string(),
        "--bot".into(),
        args.bot.clone(),
        "--seat".into(),
        seat.label().into(),
    ];
    match (&key.key, &key.key_file) {
        (Some(hex), _) => again.extend(["--key".into(), hex.clone()]),
        (None, Some(file)) => again.extend(["--key-file".into(), file.display().to_string()]),
        (None, None) => {}
    }
    played.record.replay = shell_words::join(again);
    let now_entries = transcript::read(&save)
        .map_err(|e| Failure::internal(anyhow!(e).context(save.display().to_string())))?;
    let mut terminal = Terminal::new().with_file("Transcript", args.save.as_ref());
    terminal
        .game_finished(&played.record, &Place::Match)
        .map_err(Failure::internal)?;
    let was = record.player(seat);
    let disqualified = |d: &referee_engine::verdict::Disqualification| {
        format!("{} at reply {}: {}", d.verdict, d.at_move, d.detail)
    };
    println!();
    println!(
        "Recorded: seat {} ({}) {}",
        seat,
        referee_engine::text::escape(&was.name),
        match &was.disqualification {
            Some(d) => disqualified(d),
            None => format!("{} [{}]", record.winner.result_for(seat), record.reason),
        }
    );
    let now = played.record.player(seat);
    println!(
        "Now:      seat {} ({}) {}",
        seat,
        referee_engine::text::escape(&now.name),
        match &now.disqualification {
            Some(d) => disqualified(d),
            None => format!(
                "not disqualified, {} replies [{}]",
                now.replies, played.record.reason
            ),
        }
    );
    let lines = match referee_engine::reproduce::setup_differs(
        &referee_engine::reproduce::setup(&entries, seat),
        &referee_engine::reproduce::setup(&now_entries, seat),
    ) {
        // Another set-up: what the replies have in common says nothing.
        Some(warning) => std::iter::once(warning)
            .chain(
                played
                    .record_end
                    .as_ref()
                    .map(|end| format!("the game stopped: {end}")),
            )
            .collect(),
        None => referee_engine::reproduce::compare(
            &record.game,
            &referee_engine::reproduce::replies(&entries, seat),
            &referee_engine::reproduce::replies(&now_entries, seat),
            played.record_end.as_deref(),
        ),
    };
    if keyless {
        println!("No key: the transcript names none (a team's copy never does), so the referee drew a new one; what it draws (the seed each bot is told, codes it chooses) can differ from the recorded game's. The opponent's recorded moves are played all the same.");
    }
    for line in lines {
        println!("{}", referee_engine::text::escape(&line));
    }
    Ok(if now.disqualification.is_some() {
        super::ExitCode::Failed
    } else {
        super::ExitCode::Ok
    })
}

/// What a transcript says of the game it recorded, as `reproduce` needs it.
struct RecordedGame {
    config: referee_engine::games::GameConfig,
    seed: u64,
    /// The key as the recorded command gave it (none in a team's copy).
    key: KeyFlags,
    /// Each seat's limits: as the record kept them, or, in a record
    /// written before records kept their plan, as its replay command set
    /// them for both.
    limits: RecordedLimits,
}

enum RecordedLimits {
    PerSeat(Vec<referee_engine::replay::ReplayLimits>),
    Flags(LimitFlags),
}

impl RecordedGame {
    /// The limits of a bot in `language` playing at `seat` now: the
    /// recorded ones, on its language's defaults and the sandbox of now.
    fn limits_for(
        &self,
        arena: &Arena,
        seat: referee_engine::games::Seat,
        language: referee_engine::bot::Language,
    ) -> referee_engine::match_plan::MatchLimits {
        match &self.limits {
            RecordedLimits::PerSeat(limits) => {
                let defaults = LimitFlags::default().limits_for(arena, &self.config, language);
                match limits.get(seat.index()) {
                    Some(limits) => limits.applied_to(defaults),
                    None => defaults,
                }
            }
            RecordedLimits::Flags(flags) => flags.limits_for(arena, &self.config, language),
        }
    }
}

/// The recorded game of a transcript's record: its plan; in a record
/// written before records kept their plan, its replay command, read with
/// the command line's own definitions.
fn recorded_game(
    record: &referee_engine::record::MatchRecord,
    shown: &str,
) -> Result<RecordedGame, Failure> {
    use referee_engine::replay::{ReplayKey, ReplayPlan};
    let not_a_match = || {
        Failure::input(anyhow!(
            "{shown}: not the transcript of a game between two bots (its replay command is not `referee match`): nothing to reproduce"
        ))
    };
    match &record.plan {
        Some(ReplayPlan::Match(plan)) => Ok(RecordedGame {
            config: plan.config.clone(),
            seed: plan.seed,
            key: match &plan.key {
                Some(ReplayKey::Hex(hex)) => KeyFlags {
                    key: Some(hex.clone()),
                    key_file: None,
                },
                Some(ReplayKey::File(file)) => KeyFlags {
                    key: None,
                    key_file: Some(file.clone()),
                },
                None => KeyFlags::default(),
            },
            limits: RecordedLimits::PerSeat(plan.limits.clone()),
        }),
        Some(ReplayPlan::Bench(_)) => Err(not_a_match()),
        None => {
            let words = shell_words::split(&record.replay).unwrap_or_default();
            let recorded = match <super::Cli as clap::Parser>::try_parse_from(&words) {
                Ok(super::Cli {
                    command: super::Command::Match(m),
                    ..
                }) => m,
                _ => return Err(not_a_match()),
            };
            Ok(RecordedGame {
                config: recorded
                    .game_flags
                    .config(&recorded.game)
                    .map_err(|e| Failure::input(anyhow!("{shown}: {e}")))?,
                seed: recorded.seed.ok_or_else(|| {
                    Failure::input(anyhow!("{shown}: its replay command has no seed"))
                })?,
                key: recorded.key,
                limits: RecordedLimits::Flags(recorded.limits),
            })
        }
    }
}

/// Two bots whose names are the same stem (`arrow5_starter.c` and
/// `arrow5_starter.py`) are told apart by their file names.
pub fn distinct_names(a: &mut BotCommand, b: &mut BotCommand) {
    if a.name != b.name {
        return;
    }
    let file_name = |bot: &BotCommand| {
        let python = referee_engine::bot::Language::named("python");
        let file = match &bot.source {
            Some(source) => Some(source.as_os_str()),
            None if bot.language == python => bot.args.first().map(|a| a.as_os_str()),
            None => Some(bot.program.as_os_str()),
        };
        file.and_then(|f| std::path::Path::new(f).file_name())
            .map(|n| n.to_string_lossy().into_owned())
    };
    if let (Some(name_a), Some(name_b)) = (file_name(a), file_name(b)) {
        if name_a != name_b {
            a.name = name_a;
            b.name = name_b;
        }
    }
}

/// [`distinct_names`] for every pair of bots (the seat letters tell apart
/// bots that still share a name).
pub fn distinct_all_names(bots: &mut [BotCommand]) {
    for i in 0..bots.len() {
        let (before, rest) = bots.split_at_mut(i + 1);
        for other in rest {
            distinct_names(&mut before[i], other);
        }
    }
}

/// The transcript to read and, with `--html`, the page to write: `--html`
/// with no value, or with the transcript as its value and no FILE, writes
/// the page beside the transcript.
fn replay_paths(args: &ReplayArgs) -> Result<(PathBuf, Option<PathBuf>), Failure> {
    // `-` stands for "no value given" (clap needs a non-empty path).
    let given = |p: &PathBuf| p.as_os_str() != "-";
    let beside = |file: &PathBuf| file.with_extension("html");
    let (file, html) = match (&args.file, &args.html) {
        (Some(file), None) => (file.clone(), None),
        (Some(file), Some(html)) if given(html) => (file.clone(), Some(html.clone())),
        (Some(file), Some(_)) => (file.clone(), Some(beside(file))),
        (None, Some(html)) if given(html) => (html.clone(), Some(beside(html))),
        (None, _) => {
            return Err(Failure::input(anyhow!(
            "replay needs a transcript: referee replay FILE.jsonl (add --html to write its viewer)"
        )))
        }
    };
    if html.as_ref() == Some(&file) {
        return Err(Failure::input(anyhow!(
            "{}: the viewer would overwrite the transcript; give --html OUT.html",
            file.display()
        )));
    }
    Ok((file, html))
}

pub fn run_replay(args: ReplayArgs) -> Result<(), Failure> {
    let (file, html) = replay_paths(&args)?;
    // A transcript cut short (a killed referee, a partial copy) shows what
    // it has, then says where it stops (exit 2).
    let (entries, broken) = transcript::read_prefix(&file).map_err(Failure::input)?;
    if let Some(html) = &html {
        let templates = referee_engine::reporter::html::Templates {
            dir: args.templates.clone(),
        };
        let page = referee_engine::reporter::html::game_page_html(&entries, &templates)
            .map_err(Failure::input)?;
        referee_engine::atomic_file::write(html, page).map_err(|e| {
            Failure::input(anyhow::anyhow!("{}: cannot write: {e}", html.display()))
        })?;
        eprintln!("replay viewer: {}", html.display());
    } else {
        print!("{}", transcript::render(&entries));
    }
    match broken {
        None => Ok(()),
        Some(broken) => Err(Failure::input(anyhow::anyhow!(
            "the replay above stops here: {broken}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use referee_engine::bot::{BotCommand, Languages};
    use referee_engine::games::{GameConfig, GameOptions};
    use referee_engine::key::RunKey;
    use referee_engine::match_plan::{MatchLimits, MatchPlan, SoloPlan};
    use referee_engine::replay;

    use crate::cli::{Cli, Command};

    /// Replay commands are built in the library (`referee_engine::replay`) from the
    /// flags this module defines: each one parses here, for every game.
    #[test]
    fn replay_commands_parse_with_the_command_line_definitions() {
        let bot = BotCommand::parse("/bin/cat", &Languages::built_in()).unwrap();
        let mut limits = MatchLimits {
            time_bank: std::time::Duration::from_millis(300),
            ..MatchLimits::default()
        };
        limits.process.allow_fork = true;
        limits.time_margin = std::time::Duration::from_millis(50);
        limits.strikes = 3;
        for game in ["arrow5", "mastermind", "safecracker", "cryptron"] {
            let config = GameConfig::from_options(game, &GameOptions::default()).unwrap();
            let plan = MatchPlan {
                config: config.clone(),
                seed: 7,
                key: RunKey::fresh(),
                bots: vec![bot.clone(), bot.clone()],
                limits: vec![limits.clone(), limits.clone()],
            };
            let words = shell_words::split(&replay::match_command(&plan)).unwrap();
            match Cli::try_parse_from(&words) {
                Ok(Cli {
                    command: Command::Match(args),
                    ..
                }) => {
                    assert_eq!((args.game.as_str(), args.seed), (game, Some(7)));
                    assert_eq!(args.game_flags.config(game).unwrap(), config);
                }
                Ok(_) => panic!("not a match command: {words:?}"),
                Err(e) => panic!("{words:?}: {e}"),
            }
            if game == "cryptron" {
                continue;
            }
            let solo = SoloPlan {
                config,
                seed: 3,
                key: RunKey::fresh(),
                secret_index: 5,
                bot: bot.clone(),
                limits: limits.clone(),
            };
            let words = shell_words::split(&replay::bench_command(&solo)).unwrap();
            match Cli::try_parse_from(&words) {
                Ok(Cli {
                    command: Command::Bench(args),
                    ..
                }) => assert_eq!((args.secret, args.seed), (Some(5), 3)),
                Ok(_) => panic!("not a bench command: {words:?}"),
                Err(e) => panic!("{words:?}: {e}"),
            }
        }
    }

    /// A judge game's replay command names the judge and gives back its
    /// options (typed as they were) and its time per message.
    #[test]
    fn a_judge_games_replay_command_parses_to_the_same_game() {
        let judge = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/judges/higher/judge.py")
            .canonicalize()
            .unwrap();
        let judge = judge.to_string_lossy();
        let mut options = std::collections::BTreeMap::new();
        options.insert("rounds".to_string(), serde_json::json!(4));
        options.insert("name".to_string(), serde_json::json!("two words"));
        options.insert("fast".to_string(), serde_json::json!(true));
        let config = GameConfig::Judge(
            referee_engine::judge::judge_config(
                &judge,
                std::path::Path::new("."),
                options,
                1500,
                referee_engine::games::judge::DEFAULT_MEMORY_KB,
                &Languages::built_in(),
            )
            .unwrap(),
        );
        let bot = BotCommand::parse("/bin/cat", &Languages::built_in()).unwrap();
        let plan = MatchPlan {
            config: config.clone(),
            seed: 7,
            key: RunKey::fresh(),
            bots: vec![bot.clone(), bot],
            limits: vec![MatchLimits::default(), MatchLimits::default()],
        };
        let words = shell_words::split(&replay::match_command(&plan)).unwrap();
        match Cli::try_parse_from(&words) {
            Ok(Cli {
                command: Command::Match(args),
                ..
            }) => {
                assert_eq!(args.game, judge);
                assert_eq!(args.game_flags.config(&args.game).unwrap(), config);
            }
            Ok(_) => panic!("not a match command: {words:?}"),
            Err(e) => panic!("{words:?}: {e}"),
        }
    }
}
