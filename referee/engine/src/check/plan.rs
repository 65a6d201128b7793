//! Check files: the raw TOML shape and its validation into a [`CheckPlan`]
//! before any bot starts. Same conventions as tournament files (game,
//! `[options]`, `[limits]`, bot entries with paths relative to the file),
//! read by the same loader ([`crate::plan_file`]); every error names the
//! file, the line and the field.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::tables;
use crate::bench::{self, Selection};
use crate::bot::{BotCommand, Languages};
use crate::games::GameConfig;
use crate::match_plan::{ScaleSetting, TimeScale};
use crate::plan_file::{
    spec_from_here, PlanError, RawBot, RawBotTable, RawLimits, Source, TournamentBot, DEFAULT_SEED,
};
use crate::units;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    name: Option<String>,
    game: Spanned<String>,
    seed: Option<u64>,
    /// A factor for every time limit, or "auto" (calibrate first).
    time_scale: Option<Spanned<toml::Value>>,
    #[serde(default)]
    /// Read as the game's own options once the game is known (a judge's
    /// are passed to it verbatim): see `Source::game_config`.
    options: Option<Spanned<toml::Table>>,
    /// A judge game: the judge's time per message and memory.
    judge_time: Option<Spanned<String>>,
    judge_memory: Option<Spanned<String>>,
    #[serde(default)]
    limits: RawLimits,
    bot: Option<Spanned<RawTested>>,
    /// Players at each table (a judge game of more than two players):
    /// the bot under test and that many references less one.
    players_per_game: Option<Spanned<u64>>,
    #[serde(default)]
    opponents: Vec<RawBot>,
    /// A folder whose every entry a language recognises is an opponent too.
    opponents_dir: Option<Spanned<String>>,
    require: Spanned<Vec<RawRequirement>>,
    /// Languages added or overridden (`[languages.NAME]`).
    #[serde(default)]
    languages: crate::plan_file::LanguageTables,
}

/// The bot under test: its name and path are optional, the path may come
/// from the command line instead.
type RawTested = RawBotTable<Option<String>, Option<Spanned<String>>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequirement {
    kind: Spanned<String>,
    name: Option<String>,
    against: Option<Spanned<String>>,
    games: Option<Spanned<u32>>,
    at_least: Option<Spanned<f64>>,
    at_most: Option<Spanned<f64>>,
    samples: Option<Spanned<u64>>,
    all: Option<bool>,
    seed: Option<u64>,
    below: Option<Spanned<String>>,
}

/// The kinds of requirement, as written in `kind = "..."`.
pub const KINDS: [&str; 7] = [
    "no-verdicts",
    "win-rate",
    "bench-average",
    "max-move-time",
    "average-rank",
    "table-wins",
    "ahead-of",
];

/// The kinds judged on the ranks of tables of more than two players.
const RANK_KINDS: [&str; 3] = ["average-rank", "table-wins", "ahead-of"];

/// One requirement, validated. Opponents are indices into [`CheckPlan::opponents`].
#[derive(Clone, Debug, PartialEq)]
pub enum Requirement {
    /// `games` games against `against` (sides swapped in pairs), and every
    /// verdict of the bot under test is `ok`.
    NoVerdicts { against: usize, games: u32 },
    /// The bot under test wins at least `at_least` percent of `games` games
    /// against `against`.
    WinRate {
        against: usize,
        games: u32,
        at_least: f64,
    },
    /// The solver bench: every secret cracked, and the average number of
    /// attacks at most `at_most`.
    BenchAverage {
        selection: Selection,
        seed: u64,
        at_most: f64,
    },
    /// The slowest reply of the bot under test, over every game this check
    /// plays, is under `below`.
    MaxMoveTime { below: Duration },
    /// At tables of more than two players: no verdict for the bot under
    /// test in the first `games` tables.
    CleanTables { games: u32 },
    /// At tables: the bot's average rank (1 = first) over the first
    /// `games` tables is at most `at_most`.
    AverageRank { games: u32, at_most: f64 },
    /// At tables: the bot is first alone at `at_least` percent of the
    /// first `games` tables.
    TableWins { games: u32, at_least: f64 },
    /// At tables: the bot finishes strictly ahead of reference `against`
    /// at `at_least` percent of the tables both sat at, among the first
    /// `games`; `meetings` is how many those are (the drawing decides).
    AheadOf {
        against: usize,
        games: u32,
        at_least: f64,
        meetings: u32,
    },
}

impl Requirement {
    pub fn kind(&self) -> &'static str {
        match self {
            Requirement::NoVerdicts { .. } => KINDS[0],
            Requirement::WinRate { .. } => KINDS[1],
            Requirement::BenchAverage { .. } => KINDS[2],
            Requirement::MaxMoveTime { .. } => KINDS[3],
            Requirement::CleanTables { .. } => KINDS[0],
            Requirement::AverageRank { .. } => KINDS[4],
            Requirement::TableWins { .. } => KINDS[5],
            Requirement::AheadOf { .. } => KINDS[6],
        }
    }

    /// The tables a requirement at tables uses (the first ones); `None`
    /// for the others.
    pub fn tables(&self) -> Option<u32> {
        match *self {
            Requirement::CleanTables { games }
            | Requirement::AverageRank { games, .. }
            | Requirement::TableWins { games, .. }
            | Requirement::AheadOf { games, .. } => Some(games),
            _ => None,
        }
    }
}

/// A requirement with the name it is reported under.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedRequirement {
    pub name: String,
    pub requirement: Requirement,
}

/// A validated check file: everything needed to run it.
#[derive(Clone, Debug)]
pub struct CheckPlan {
    pub name: String,
    pub config: GameConfig,
    /// Game seeds derive from this as in tournaments.
    pub seed: u64,
    pub bot: TournamentBot,
    pub opponents: Vec<TournamentBot>,
    /// Players at each game: 2, or more at tables (`players_per_game`).
    pub players_per_game: usize,
    pub requirements: Vec<NamedRequirement>,
    /// Where each game's transcript goes (`check --report`), if anywhere.
    pub transcripts: Option<std::path::PathBuf>,
    /// The languages its bots were looked up in: the built-in ones and the
    /// file's own `[languages.NAME]`, seen by no other file.
    pub languages: Languages,
    /// What the file's `time_scale` says, if it says anything.
    pub time_scale_setting: Option<ScaleSetting>,
    /// The factor the bots' time limits were multiplied by
    /// ([`CheckPlan::scale_times`]); 1 until then.
    pub time_scale: TimeScale,
}

impl CheckPlan {
    /// Reads and validates a check file. `bot`, when given, replaces the
    /// file's bot under test (a path relative to the current directory).
    pub fn load(path: &Path, bot: Option<&str>) -> Result<CheckPlan, PlanError> {
        let text = Source::read("check", path)?;
        Self::parse(path, &text, bot)
    }

    pub fn parse(path: &Path, text: &str, bot: Option<&str>) -> Result<CheckPlan, PlanError> {
        let mut src = Source::new(path, text);
        let raw: RawCheck = src.raw_of("check")?;
        src.add_languages(&Languages::built_in(), &raw.languages)?;
        let config = src.game_config(
            &raw.game,
            raw.options.as_ref(),
            &crate::plan_file::JudgeLimits {
                judge_time: raw.judge_time.as_ref(),
                judge_memory: raw.judge_memory.as_ref(),
            },
            |_| {},
        )?;
        let tested = tested_bot(&src, &config, &raw, bot)?;
        let (opponents, names) = src.bot_entries_and_folder(
            &config,
            &raw.limits,
            &raw.opponents,
            raw.opponents_dir.as_ref(),
            "opponents",
        )?;
        let seed = raw.seed.unwrap_or(DEFAULT_SEED);
        let players = players_per_game(&src, &config, &raw, opponents.len())?;
        let requirements = requirements(
            &src,
            &config,
            &names,
            Seating { seed, players },
            &raw.require,
        )?;
        let time_scale_setting = match &raw.time_scale {
            None => None,
            Some(value) => {
                let setting = match value.get_ref() {
                    toml::Value::String(text) => ScaleSetting::parse(text),
                    toml::Value::Integer(n) => TimeScale::new(*n as f64).map(ScaleSetting::Factor),
                    toml::Value::Float(x) => TimeScale::new(*x).map(ScaleSetting::Factor),
                    other => Err(format!(
                        "give a number (e.g. 1.5) or \"auto\", not a {}",
                        other.type_str()
                    )),
                };
                Some(setting.map_err(|e| src.error_at(value.span(), format!("time_scale: {e}")))?)
            }
        };
        Ok(CheckPlan {
            name: src.plan_name(raw.name.as_deref(), "check"),
            config,
            seed,
            bot: tested,
            opponents,
            players_per_game: players,
            requirements,
            transcripts: None,
            languages: src.languages,
            time_scale_setting,
            time_scale: TimeScale::ONE,
        })
    }

    /// Multiplies every bot's time limits by `scale` (once: the plan
    /// keeps the factor for the report).
    pub fn scale_times(&mut self, scale: TimeScale) {
        for bot in std::iter::once(&mut self.bot).chain(&mut self.opponents) {
            bot.limits = bot.limits.clone().scaled(scale);
        }
        self.time_scale = scale;
    }

    /// Sets every bot's time margin and strikes (the command line's,
    /// over the file's).
    pub fn set_margin(&mut self, margin: Duration, strikes: u32) {
        for bot in std::iter::once(&mut self.bot).chain(&mut self.opponents) {
            bot.limits.time_margin = margin;
            bot.limits.strikes = strikes;
        }
    }

    /// The games to play against each opponent: the most any requirement
    /// against it asks for (requirements share the first games).
    pub fn games_against(&self, opponent: usize) -> u32 {
        self.requirements
            .iter()
            .filter_map(|r| match r.requirement {
                Requirement::NoVerdicts { against, games }
                | Requirement::WinRate { against, games, .. }
                    if against == opponent =>
                {
                    Some(games)
                }
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// The tables to play at tables of more than two players: the most any
    /// requirement asks for (requirements share the first tables).
    pub fn tables(&self) -> u32 {
        self.requirements
            .iter()
            .filter_map(|r| r.requirement.tables())
            .max()
            .unwrap_or(0)
    }
}

/// `players_per_game`: 2 unless given; more only for a judge game, and
/// with at least that many references less one.
fn players_per_game(
    src: &Source<'_>,
    config: &GameConfig,
    raw: &RawCheck,
    references: usize,
) -> Result<usize, PlanError> {
    let Some(k) = &raw.players_per_game else {
        return Ok(2);
    };
    let players = *k.get_ref();
    let at = |message: String| src.error_at(k.span(), format!("players_per_game: {message}"));
    if !(2..=crate::games::MAX_SEATS as u64).contains(&players) {
        return Err(at(format!(
            "{players} is not a number of players from 2 to {}",
            crate::games::MAX_SEATS
        )));
    }
    let players = players as usize;
    if players > 2 && config.judge().is_none() {
        return Err(at(format!(
            "{} is a game of two players; tables of {players} need a judge game that takes them (docs/writing-a-game.md)",
            config.game_name()
        )));
    }
    if players > 2 && references + 1 < players {
        return Err(at(format!(
            "tables of {players} need at least {} references (the [[opponents]] entries), and the file has {references}; the same bot may be listed twice under two names",
            players - 1
        )));
    }
    Ok(players)
}

/// What validating requirements needs of the tables: the check's seed
/// (the drawing) and the players at each.
#[derive(Clone, Copy)]
struct Seating {
    seed: u64,
    players: usize,
}

/// The bot under test: `--bot` if given, else the file's `[bot]` table,
/// with the file's limits and then the table's own.
fn tested_bot(
    src: &Source<'_>,
    config: &GameConfig,
    raw: &RawCheck,
    bot: Option<&str>,
) -> Result<TournamentBot, PlanError> {
    let base = src.base();
    let table = raw.bot.as_ref().map(|b| b.get_ref());
    let mut command = match (bot, table.and_then(|t| t.bot.as_ref())) {
        (Some(spec), _) => {
            BotCommand::parse(spec, &src.languages).map_err(|e| PlanError::Option {
                option: "--bot",
                message: e.to_string(),
            })?
        }
        (None, Some(spec)) => BotCommand {
            spec: spec_from_here(spec.get_ref(), &base, &src.languages),
            ..BotCommand::parse_relative_to(spec.get_ref(), &base, &src.languages).map_err(|e| {
                src.error_at(
                    spec.span(),
                    format!("bot.bot: {e} (paths are relative to the check file's folder)"),
                )
            })?
        },
        (None, None) => {
            return Err(src.error_at(
                raw.bot.as_ref().map_or(0..0, |b| b.span()),
                "bot: no bot under test; set bot = \"PATH\" under [bot], or pass --bot PATH".into(),
            ))
        }
    };
    // The file's name describes the file's bot, not one given with --bot.
    let name = match bot {
        Some(_) => command.name.clone(),
        None => table
            .and_then(|t| t.name.clone())
            .unwrap_or_else(|| command.name.clone()),
    };
    if let Err(problem) = crate::plan_file::usable_bot_name(&name) {
        return Err(src.error_at(
            raw.bot.as_ref().map_or(0..0, |b| b.span()),
            format!("bot.name: {problem}"),
        ));
    }
    let limits = RawTested::settle(
        table,
        src,
        config,
        &raw.limits,
        &mut command,
        ("bot.language", "bot."),
    )?;
    Ok(TournamentBot {
        name,
        command,
        limits,
    })
}

/// Every `[[require]]` entry, validated; at least one of them plays games.
fn requirements(
    src: &Source<'_>,
    config: &GameConfig,
    opponents: &BTreeMap<String, usize>,
    seating: Seating,
    require: &Spanned<Vec<RawRequirement>>,
) -> Result<Vec<NamedRequirement>, PlanError> {
    if require.get_ref().is_empty() {
        return Err(src.error_at(
            require.span(),
            "require: a check needs at least one [[require]] entry".into(),
        ));
    }
    let requirements = require
        .get_ref()
        .iter()
        .map(|r| requirement(src, config, opponents, seating, r))
        .collect::<Result<Vec<_>, _>>()?;
    let plays_games = requirements
        .iter()
        .any(|r| !matches!(r.requirement, Requirement::MaxMoveTime { .. }));
    if !plays_games {
        return Err(src.error_at(
            require.span(),
            if seating.players > 2 {
                "require: max-move-time measures the games of the other requirements; add a no-verdicts, average-rank, table-wins or ahead-of requirement".into()
            } else {
                "require: max-move-time measures the games of the other requirements; add a no-verdicts, win-rate or bench-average requirement".into()
            },
        ));
    }
    Ok(requirements)
}

fn requirement(
    src: &Source<'_>,
    config: &GameConfig,
    opponents: &BTreeMap<String, usize>,
    seating: Seating,
    r: &RawRequirement,
) -> Result<NamedRequirement, PlanError> {
    let entry = Entry {
        src,
        r,
        kind: r.kind.get_ref().as_str(),
        opponents,
        seating,
    };
    entry.fields_apply()?;
    let requirement = match entry.kind {
        "no-verdicts" if seating.players > 2 => Requirement::CleanTables {
            games: entry.games()?,
        },
        "no-verdicts" => Requirement::NoVerdicts {
            against: entry.against()?,
            games: entry.games()?,
        },
        "win-rate" => entry.win_rate()?,
        "bench-average" => entry.bench_average(config, seating.seed)?,
        "max-move-time" => entry.max_move_time()?,
        "average-rank" => entry.average_rank()?,
        "table-wins" => Requirement::TableWins {
            games: entry.games()?,
            at_least: entry
                .percentage("give the percentage of tables to win, e.g. at_least = 40")?,
        },
        "ahead-of" => entry.ahead_of()?,
        _ => unreachable!("kinds were checked by fields_apply"),
    };
    let name = r
        .name
        .clone()
        .unwrap_or_else(|| default_name(&requirement, opponents));
    Ok(NamedRequirement { name, requirement })
}

/// A `[[require]]` entry being validated.
struct Entry<'a> {
    src: &'a Source<'a>,
    r: &'a RawRequirement,
    kind: &'a str,
    opponents: &'a BTreeMap<String, usize>,
    seating: Seating,
}

impl Entry<'_> {
    fn at(&self, span: Range<usize>, field: &str, message: String) -> PlanError {
        self.src
            .error_at(span, format!("require.{field} ({}): {message}", self.kind))
    }

    /// The kind is known, and the entry has none of another kind's fields:
    /// they are refused, not ignored.
    fn fields_apply(&self) -> Result<(), PlanError> {
        let r = self.r;
        let players = self.seating.players;
        if players > 2 && matches!(self.kind, "win-rate" | "bench-average") {
            return Err(self.at(
                r.kind.span(),
                "kind",
                format!(
                    "plays games of two, and this check plays tables of {players} (players_per_game); use average-rank, table-wins or ahead-of"
                ),
            ));
        }
        if players == 2 && RANK_KINDS.contains(&self.kind) {
            return Err(self.at(
                r.kind.span(),
                "kind",
                "judges tables of more than two players: set players_per_game = 3 or more (a judge game that takes them); in a game of two use win-rate".into(),
            ));
        }
        let allowed: &[&str] = match self.kind {
            "no-verdicts" if players > 2 => &["games"],
            "no-verdicts" => &["against", "games"],
            "win-rate" => &["against", "games", "at_least"],
            "bench-average" => &["samples", "all", "seed", "at_most"],
            "max-move-time" => &["below"],
            "average-rank" => &["games", "at_most"],
            "table-wins" => &["games", "at_least"],
            "ahead-of" => &["against", "games", "at_least"],
            other => {
                return Err(self.src.error_at(
                    r.kind.span(),
                    format!(
                        "require.kind: '{other}' is not a requirement; use one of: {}",
                        KINDS.join(", ")
                    ),
                ))
            }
        };
        let present = [
            ("against", r.against.as_ref().map(|v| v.span())),
            ("games", r.games.as_ref().map(|v| v.span())),
            ("at_least", r.at_least.as_ref().map(|v| v.span())),
            ("at_most", r.at_most.as_ref().map(|v| v.span())),
            ("samples", r.samples.as_ref().map(|v| v.span())),
            ("all", r.all.map(|_| r.kind.span())),
            ("seed", r.seed.map(|_| r.kind.span())),
            ("below", r.below.as_ref().map(|v| v.span())),
        ];
        match present.into_iter().find_map(|(field, span)| {
            span.filter(|_| !allowed.contains(&field))
                .map(|s| (field, s))
        }) {
            Some((field, span)) => Err(self.at(
                span,
                field,
                format!(
                    "does not apply to {}; its fields are: {}",
                    self.kind,
                    allowed.join(", ")
                ),
            )),
            None => Ok(()),
        }
    }

    /// The opponent named by `against`.
    fn against(&self) -> Result<usize, PlanError> {
        let a = self.r.against.as_ref().ok_or_else(|| {
            self.at(
                self.r.kind.span(),
                "against",
                "name the opponent: against = \"NAME\" of an [[opponents]] entry".into(),
            )
        })?;
        self.opponents
            .get(a.get_ref().trim())
            .copied()
            .ok_or_else(|| {
                self.at(
                    a.span(),
                    "against",
                    format!(
                        "no opponent is named '{}'; the opponents are: {}",
                        a.get_ref(),
                        if self.opponents.is_empty() {
                            "none (add [[opponents]] entries)".to_string()
                        } else {
                            self.opponents
                                .keys()
                                .cloned()
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    ),
                )
            })
    }

    fn games(&self) -> Result<u32, PlanError> {
        let players = self.seating.players;
        if players > 2 {
            return self.tables();
        }
        match &self.r.games {
            None => Ok(10),
            Some(g) if *g.get_ref() == 0 || g.get_ref() % 2 == 1 => Err(self.at(
                g.span(),
                "games",
                format!(
                    "{} is not a positive even number; games are played in pairs with sides swapped",
                    g.get_ref()
                ),
            )),
            Some(g) if u64::from(*g.get_ref()) > units::MAX_GAMES => Err(self.at(
                g.span(),
                "games",
                format!("{} is too many: at most {}", g.get_ref(), units::MAX_GAMES),
            )),
            Some(g) => Ok(*g.get_ref()),
        }
    }

    /// The tables of a requirement at tables: a positive multiple of the
    /// players (whole blocks, the seats rotated), by default the smallest
    /// at least 10.
    fn tables(&self) -> Result<u32, PlanError> {
        let players = self.seating.players as u32;
        match &self.r.games {
            None => Ok(10u32.div_ceil(players) * players),
            Some(g) if *g.get_ref() == 0 || g.get_ref() % players != 0 => Err(self.at(
                g.span(),
                "games",
                format!(
                    "{} is not a positive multiple of {players} (players_per_game): each table is played {players} times, the seats rotated",
                    g.get_ref()
                ),
            )),
            Some(g) if u64::from(*g.get_ref()) > units::MAX_GAMES => Err(self.at(
                g.span(),
                "games",
                format!("{} is too many: at most {}", g.get_ref(), units::MAX_GAMES),
            )),
            Some(g) => Ok(*g.get_ref()),
        }
    }

    /// `at_least`, a percentage; `missing` says what to write when it is
    /// left out.
    fn percentage(&self, missing: &str) -> Result<f64, PlanError> {
        let p = self
            .r
            .at_least
            .as_ref()
            .ok_or_else(|| self.at(self.r.kind.span(), "at_least", missing.into()))?;
        if !(0.0..=100.0).contains(p.get_ref()) {
            return Err(self.at(
                p.span(),
                "at_least",
                format!("{} is not a percentage between 0 and 100", p.get_ref()),
            ));
        }
        // A fraction written for a percentage (grading's `win_rate` is a
        // fraction of 1) asks for almost nothing, and passed.
        let fraction = *p.get_ref();
        if fraction > 0.0 && fraction < 1.0 {
            // 0.07 * 100 is 7.000000000000001: say it as written, 7.
            let meant = format!("{:.4}", fraction * 100.0);
            let meant = meant.trim_end_matches('0').trim_end_matches('.');
            return Err(self.at(
                p.span(),
                "at_least",
                format!(
                    "{fraction} means {fraction}%, not {meant}%: at_least is a percentage, \
                     from 1 to 100 (for {meant}% write at_least = {meant}), or 0 for none"
                ),
            ));
        }
        Ok(*p.get_ref())
    }

    fn win_rate(&self) -> Result<Requirement, PlanError> {
        let at_least =
            self.percentage("give the percentage of games to win, e.g. at_least = 40")?;
        Ok(Requirement::WinRate {
            against: self.against()?,
            games: self.games()?,
            at_least,
        })
    }

    fn average_rank(&self) -> Result<Requirement, PlanError> {
        let players = self.seating.players;
        let m = self.r.at_most.as_ref().ok_or_else(|| {
            self.at(
                self.r.kind.span(),
                "at_most",
                format!("give the largest average rank, 1 (first) to {players} (last), e.g. at_most = 2.0"),
            )
        })?;
        if !(1.0..=players as f64).contains(m.get_ref()) {
            return Err(self.at(
                m.span(),
                "at_most",
                format!(
                    "{} is not a rank from 1 (first) to {players} (last of {players} players)",
                    m.get_ref()
                ),
            ));
        }
        Ok(Requirement::AverageRank {
            games: self.games()?,
            at_most: *m.get_ref(),
        })
    }

    /// Ahead of a reference: enough tables that it sits at one at least.
    fn ahead_of(&self) -> Result<Requirement, PlanError> {
        let at_least = self.percentage(
            "give the percentage of shared tables to finish ahead at, e.g. at_least = 50",
        )?;
        let against = self.against()?;
        let games = self.games()?;
        let Seating { seed, players } = self.seating;
        let references = self.opponents.len();
        let fewest = tables::tables_to_meet_all(references, players);
        if games < fewest {
            return Err(self.at(
                self.r.games.as_ref().map_or(self.r.kind.span(), |g| g.span()),
                "games",
                format!(
                    "{games} tables may leave a reference out: with {references} references and {} at each table, give at least {fewest}",
                    players - 1
                ),
            ));
        }
        Ok(Requirement::AheadOf {
            against,
            games,
            at_least,
            meetings: tables::meetings(seed, references, players, games, against),
        })
    }

    fn bench_average(&self, config: &GameConfig, file_seed: u64) -> Result<Requirement, PlanError> {
        let r = self.r;
        let m = r.at_most.as_ref().ok_or_else(|| {
            self.at(
                r.kind.span(),
                "at_most",
                "give the largest average number of attacks, e.g. at_most = 5.0".into(),
            )
        })?;
        if !(m.get_ref().is_finite() && *m.get_ref() > 0.0) {
            return Err(self.at(
                m.span(),
                "at_most",
                format!("{} is not a positive number of attacks", m.get_ref()),
            ));
        }
        let selection = self.selection()?;
        let seed = r.seed.unwrap_or(file_seed);
        let solo =
            bench::solo_game(config).map_err(|e| self.at(r.kind.span(), "kind", e.to_string()))?;
        bench::plan_secrets(
            selection,
            solo.count,
            seed,
            // Only the selection is checked here: any key will do.
            &crate::key::RefereeKey::from_hex(&"0".repeat(64)).expect("64 hex digits"),
            config.canonical().game,
        )
        .map_err(|e| {
            self.at(
                r.samples.as_ref().map_or(r.kind.span(), |s| s.span()),
                "samples",
                e.to_string(),
            )
        })?;
        Ok(Requirement::BenchAverage {
            selection,
            seed,
            at_most: *m.get_ref(),
        })
    }

    /// The secrets of a bench: `samples = K` or `all = true`.
    fn selection(&self) -> Result<Selection, PlanError> {
        let r = self.r;
        match (r.all.unwrap_or(false), &r.samples) {
            (true, None) => Ok(Selection::All),
            (false, Some(k)) if *k.get_ref() > units::MAX_SAMPLES => Err(self.at(
                k.span(),
                "samples",
                format!(
                    "{} is too many: at most {}",
                    k.get_ref(),
                    units::MAX_SAMPLES
                ),
            )),
            (false, Some(k)) => Ok(Selection::Sample(*k.get_ref())),
            (false, None) => Err(self.at(
                r.kind.span(),
                "samples",
                "choose the secrets: samples = K (a seeded sample) or all = true".into(),
            )),
            (true, Some(k)) => Err(self.at(
                k.span(),
                "samples",
                "give samples = K or all = true, not both".into(),
            )),
        }
    }

    fn max_move_time(&self) -> Result<Requirement, PlanError> {
        let b = self.r.below.as_ref().ok_or_else(|| {
            self.at(
                self.r.kind.span(),
                "below",
                "give the bound, e.g. below = \"1s\"".into(),
            )
        })?;
        let below = units::parse_move_time(b.get_ref())
            .map_err(|e| self.at(b.span(), "below", e.to_string()))?;
        Ok(Requirement::MaxMoveTime { below })
    }
}

/// The name a requirement is reported under when the file gives none.
fn default_name(requirement: &Requirement, opponents: &BTreeMap<String, usize>) -> String {
    let opponent_name = |i: usize| {
        opponents
            .iter()
            .find(|(_, &j)| j == i)
            .map(|(n, _)| n.clone())
            .unwrap_or_default()
    };
    match requirement {
        Requirement::NoVerdicts { against, games } => {
            format!(
                "no verdicts in {games} games vs {}",
                opponent_name(*against)
            )
        }
        Requirement::WinRate {
            against,
            games,
            at_least,
        } => format!(
            "wins >= {at_least}% of {games} games vs {}",
            opponent_name(*against)
        ),
        Requirement::BenchAverage {
            selection, at_most, ..
        } => match selection {
            Selection::All => format!("bench average <= {at_most} over all secrets"),
            Selection::Sample(k) => format!("bench average <= {at_most} over {k} samples"),
            Selection::One(i) => format!("bench average <= {at_most} on secret {i}"),
        },
        Requirement::MaxMoveTime { below } => {
            format!("largest move time < {below:?}")
        }
        Requirement::CleanTables { games } => format!("no verdicts in {games} tables"),
        Requirement::AverageRank { games, at_most } => {
            format!("average rank <= {at_most} over {games} tables")
        }
        Requirement::TableWins { games, at_least } => {
            format!("first alone at >= {at_least}% of {games} tables")
        }
        Requirement::AheadOf {
            against,
            games,
            at_least,
            ..
        } => format!(
            "ahead of {} at >= {at_least}% of the tables with it (of {games})",
            opponent_name(*against)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opponents_dir_adds_opponents() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("opp")).unwrap();
        std::fs::write(dir.path().join("opp/rival.py"), "x\n").unwrap();
        let path = dir.path().join("c.toml");
        let text = "game = \"arrow5\"\nopponents_dir = \"opp\"\n[bot]\nbot = \"true\"\n\
                    [[require]]\nkind = \"no-verdicts\"\nagainst = \"rival\"\ngames = 2\n";
        let plan = CheckPlan::parse(&path, text, None);
        let plan = plan.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plan.opponents[0].name, "rival");
    }

    fn parse(text: &str) -> Result<CheckPlan, PlanError> {
        CheckPlan::parse(Path::new("/tmp/c.toml"), text, None)
    }

    const HEAD: &str =
        "game = \"arrow5\"\n[bot]\nbot = \"true\"\n[[opponents]]\nname = \"ref\"\nbot = \"true\"\n";

    #[test]
    fn a_full_file_is_validated() {
        let text = format!(
            "{HEAD}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\ngames = 4\n\
             [[require]]\nkind = \"win-rate\"\nagainst = \"ref\"\ngames = 8\nat_least = 40\n\
             [[require]]\nkind = \"bench-average\"\nsamples = 20\nat_most = 5.0\n\
             [[require]]\nkind = \"max-move-time\"\nbelow = \"1s\"\n"
        );
        let plan = parse(&text).unwrap();
        assert_eq!(plan.requirements.len(), 4);
        assert_eq!(plan.games_against(0), 8);
        assert_eq!(
            plan.requirements[1].requirement,
            Requirement::WinRate {
                against: 0,
                games: 8,
                at_least: 40.0
            }
        );
        assert_eq!(plan.requirements[3].name, "largest move time < 1s");
        assert_eq!(plan.bot.name, "true");
    }

    fn error_of(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"win-rate\"\nagainst = \"nobody\"\nat_least = 40\n"
        ));
        assert!(
            e.starts_with("/tmp/c.toml:9: require.against") && e.contains("ref"),
            "{e}"
        );
        let e = error_of(&format!("{HEAD}[[require]]\nkind = \"speed\"\n"));
        assert!(
            e.starts_with("/tmp/c.toml:8: require.kind") && e.contains("no-verdicts"),
            "{e}"
        );
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\ngames = 3\n"
        ));
        assert!(e.starts_with("/tmp/c.toml:10: require.games"), "{e}");
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\nat_most = 3.0\n"
        ));
        assert!(
            e.starts_with("/tmp/c.toml:10: require.at_most") && e.contains("does not apply"),
            "{e}"
        );
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"max-move-time\"\nbelow = \"1s\"\n"
        ));
        assert!(e.contains("max-move-time measures"), "{e}");
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"bench-average\"\nsamples = 100000\nat_most = 5\n"
        ));
        assert!(e.starts_with("/tmp/c.toml:9: require.samples"), "{e}");
        let e = error_of(
            "game = \"arrow5\"\n[bot]\nbot = \"./missing\"\n[[require]]\nkind = \"bench-average\"\nall = true\nat_most = 5\n",
        );
        assert!(
            e.starts_with("/tmp/c.toml:3: bot.bot") && e.contains("does not exist"),
            "{e}"
        );
        let e = error_of(
            "game = \"arrow5\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n",
        );
        assert!(e.contains("--bot"), "{e}");
    }

    #[test]
    fn a_bot_name_a_spreadsheet_would_run_is_refused() {
        let e = error_of("game = \"arrow5\"\n[bot]\nname = \"=cmd\"\nbot = \"true\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n");
        assert!(e.contains("bot.name") && e.contains("formula"), "{e}");
    }

    #[test]
    fn the_command_line_bot_replaces_the_file_bot() {
        let text = "game = \"arrow5\"\n[limits]\ntime_bank = \"10s\"\n[bot]\nname = \"student\"\nbot = \"./missing\"\ntime_limit = \"3s\"\ntime_bank = \"4s\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n";
        let plan = CheckPlan::parse(Path::new("/tmp/c.toml"), text, Some("true")).unwrap();
        assert_eq!(plan.bot.name, "true");
        assert_eq!(plan.bot.limits.time_limit, Duration::from_secs(3));
        assert_eq!(plan.bot.limits.time_bank, Duration::from_secs(4));
    }

    /// A check at tables of Light Cycles (the repository's judge) with
    /// `references` references and `rest` after them.
    fn tables_file(players: u64, references: usize, rest: &str) -> String {
        let judge = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tournaments/games/light_cycles/judge.py")
            .display()
            .to_string();
        let mut text =
            format!("game = \"{judge}\"\nplayers_per_game = {players}\n[bot]\nbot = \"true\"\n");
        for r in 0..references {
            text.push_str(&format!("[[opponents]]\nname = \"r{r}\"\nbot = \"true\"\n"));
        }
        text + rest
    }

    #[test]
    fn tables_take_rank_requirements() {
        let text = tables_file(
            3,
            3,
            "[[require]]\nkind = \"no-verdicts\"\ngames = 6\n\
             [[require]]\nkind = \"average-rank\"\ngames = 12\nat_most = 1.8\n\
             [[require]]\nkind = \"table-wins\"\nat_least = 40\n\
             [[require]]\nkind = \"ahead-of\"\nagainst = \"r1\"\ngames = 6\nat_least = 50\n",
        );
        let plan = parse(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plan.players_per_game, 3);
        assert_eq!(
            plan.requirements[0].requirement,
            Requirement::CleanTables { games: 6 }
        );
        assert_eq!(plan.requirements[0].requirement.kind(), "no-verdicts");
        assert_eq!(
            plan.requirements[1].requirement,
            Requirement::AverageRank {
                games: 12,
                at_most: 1.8
            }
        );
        // The default: the smallest multiple of 3 at least 10.
        assert_eq!(
            plan.requirements[2].requirement,
            Requirement::TableWins {
                games: 12,
                at_least: 40.0
            }
        );
        let Requirement::AheadOf { meetings, .. } = plan.requirements[3].requirement else {
            panic!("{:?}", plan.requirements[3]);
        };
        assert_eq!(meetings, tables::meetings(plan.seed, 3, 3, 6, 1));
        assert!(meetings >= 3, "{meetings}");
        assert_eq!(plan.tables(), 12);
        assert_eq!(plan.games_against(0), 0, "no games of two");
        assert_eq!(
            plan.requirements[1].name,
            "average rank <= 1.8 over 12 tables"
        );
    }

    #[test]
    fn bad_tables_are_refused_naming_the_field() {
        let e = error_of(&format!(
            "game = \"arrow5\"\nplayers_per_game = 3\n{}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\n",
            &HEAD["game = \"arrow5\"\n".len()..]
        ));
        assert!(
            e.starts_with("/tmp/c.toml:2: players_per_game")
                && e.contains("arrow5 is a game of two players"),
            "{e}"
        );
        let avg = "[[require]]\nkind = \"average-rank\"\nat_most = 2\n";
        let e = error_of(&tables_file(4, 2, avg));
        assert!(
            e.contains("players_per_game: tables of 4 need at least 3 references")
                && e.contains("has 2"),
            "{e}"
        );
        let e = error_of(&tables_file(30, 2, avg));
        assert!(
            e.contains("players_per_game: 30 is not a number of players from 2 to 26"),
            "{e}"
        );
        let e = error_of(&tables_file(
            3,
            2,
            "[[require]]\nkind = \"average-rank\"\ngames = 10\nat_most = 2\n",
        ));
        assert!(
            e.contains("require.games (average-rank): 10 is not a positive multiple of 3"),
            "{e}"
        );
        let e = error_of(&tables_file(
            3,
            2,
            "[[require]]\nkind = \"average-rank\"\nat_most = 3.5\n",
        ));
        assert!(
            e.contains("require.at_most (average-rank): 3.5 is not a rank from 1"),
            "{e}"
        );
        let e = error_of(&tables_file(3, 2, "[[require]]\nkind = \"average-rank\"\n"));
        assert!(
            e.contains("require.at_most (average-rank): give the largest average rank"),
            "{e}"
        );
        let e = error_of(&tables_file(
            3,
            2,
            "[[require]]\nkind = \"win-rate\"\nagainst = \"r0\"\nat_least = 40\n",
        ));
        assert!(
            e.contains("require.kind (win-rate): plays games of two") && e.contains("table-wins"),
            "{e}"
        );
        let e = error_of(&tables_file(
            3,
            2,
            "[[require]]\nkind = \"no-verdicts\"\nagainst = \"r0\"\n",
        ));
        assert!(
            e.contains("require.against (no-verdicts): does not apply"),
            "{e}"
        );
        let e = error_of(&tables_file(
            3,
            2,
            "[[require]]\nkind = \"table-wins\"\nat_least = 140\n",
        ));
        assert!(
            e.contains("require.at_least (table-wins): 140 is not a percentage"),
            "{e}"
        );
        // Five references two at a table: 3 blocks of 3 tables meet them all.
        let e = error_of(&tables_file(
            3,
            5,
            "[[require]]\nkind = \"ahead-of\"\nagainst = \"r4\"\ngames = 6\nat_least = 50\n",
        ));
        assert!(
            e.contains("require.games (ahead-of): 6 tables may leave a reference out")
                && e.contains("at least 9"),
            "{e}"
        );
        let e = error_of(&tables_file(
            3,
            2,
            "[[require]]\nkind = \"ahead-of\"\nagainst = \"nobody\"\nat_least = 50\n",
        ));
        assert!(
            e.contains("require.against (ahead-of): no opponent is named 'nobody'"),
            "{e}"
        );
        // Rank requirements in a game of two.
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"average-rank\"\nat_most = 1.5\n"
        ));
        assert!(
            e.starts_with("/tmp/c.toml:8: require.kind (average-rank)")
                && e.contains("players_per_game = 3"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_time_bank_names_its_line() {
        let text = "game = \"arrow5\"\n[bot]\nbot = \"true\"\ntime_bank = \"ages\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n";
        let e = CheckPlan::parse(Path::new("/tmp/c.toml"), text, None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("/tmp/c.toml:4: bot.time_bank"), "{e}");
    }
}
