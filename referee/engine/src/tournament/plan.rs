//! Tournament files: the raw TOML shape, and its validation into a
//! [`TournamentPlan`] before any bot starts. Every error names the file, the
//! line and the field at fault. What tournament and check files share (the
//! game and its options, limits, bot tables, errors) is in
//! [`crate::plan_file`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
#[cfg(test)]
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::bot::{Languages, SandboxChoice};
use crate::games::{GameConfig, GameOptions};
pub use crate::model::folder::{folder_name, NoFolderName};
pub use crate::model::standings::Scoring;
pub use crate::model::tournament::Format;
pub use crate::plan_file::{PlanError, TournamentBot};
use crate::plan_file::{RawBot, RawLimits, Source, DEFAULT_SEED};
use crate::units;

/// Games whose `first` option (who moves first) a tournament sets to `a`.
const GAMES_WITH_FIRST: &[&str] = &["safecracker", "safe-cracker", "safe_cracker"];

/// The file as written. Only syntax and types are checked here.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    name: Option<String>,
    game: Spanned<String>,
    format: Option<Spanned<String>>,
    games_per_pairing: Option<Spanned<u64>>,
    seed: Option<u64>,
    /// Gauntlet: the bots that play everyone else.
    challengers: Option<Spanned<Vec<String>>>,
    /// Swiss: the number of rounds.
    rounds: Option<Spanned<u64>>,
    /// Knockout: a results folder whose ratings seed the bracket.
    seeds_from: Option<Spanned<String>>,
    /// Knockout: pairs of games a drawn match plays before the higher seed
    /// goes through.
    tiebreak_pairs: Option<Spanned<u64>>,
    /// Groups: the number of round-robin groups of the first stage.
    groups: Option<Spanned<u64>>,
    /// Groups: how many of each group go on to the knockout.
    advance: Option<Spanned<u64>>,
    /// Free-for-all: the players at each table.
    players_per_game: Option<Spanned<u64>>,
    /// Free-for-all: the games each bot plays.
    games_per_bot: Option<Spanned<u64>>,
    /// basic, strict or auto (`referee tournament --sandbox` overrides it).
    sandbox: Option<Spanned<String>>,
    #[serde(default)]
    /// Read as the game's own options once the game is known (a judge's
    /// are passed to it verbatim): see `Source::game_config`.
    options: Option<Spanned<toml::Table>>,
    /// A judge game: the judge's time per message and memory.
    judge_time: Option<Spanned<String>>,
    judge_memory: Option<Spanned<String>>,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    scoring: RawScoring,
    bots: Option<Spanned<Vec<RawBot>>>,
    /// A folder whose every entry a language recognises is a bot too
    /// (named by the entry), e.g. the folder `referee collect` writes.
    bots_dir: Option<Spanned<String>>,
    /// Languages added or overridden (`[languages.NAME]`).
    #[serde(default)]
    languages: crate::plan_file::LanguageTables,
    /// Reference bots, mark bands and a roster ([`crate::grading`]).
    grading: Option<Spanned<crate::grading::RawGrading>>,
}

/// Points per result: 2, 1 and 0 unless given; each at most
/// [`units::MAX_POINTS`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScoring {
    win: Option<Spanned<u64>>,
    draw: Option<Spanned<u64>>,
    loss: Option<Spanned<u64>>,
}

/// Pairs of tie-break games a drawn knockout match plays, unless the file
/// says.
pub const DEFAULT_TIEBREAK_PAIRS: u32 = 2;

pub use crate::units::MAX_TIEBREAK_PAIRS;

/// A validated tournament: everything needed to play it.
#[derive(Clone, Debug)]
pub struct TournamentPlan {
    pub name: String,
    pub config: GameConfig,
    pub format: Format,
    pub games_per_pairing: u32,
    pub seed: u64,
    pub challengers: Vec<usize>,
    /// Swiss: rounds to play (0 for the other formats).
    pub rounds: u32,
    /// Knockout: the bots in seed order (seed 1 first): the file's order,
    /// or by the ratings of `seeds_from`. Empty for the other formats.
    pub seeds: Vec<usize>,
    /// Knockout: the results folder the seeds come from (hidden from the
    /// bots, as the tournament's own folder is: it holds past games).
    pub seeds_from: Option<PathBuf>,
    /// Knockout: pairs of tie-break games a drawn match plays (0 for the
    /// other formats).
    pub tiebreak_pairs: u32,
    /// Groups: the number of groups, and how many of each go on to the
    /// knockout (0 for the other formats).
    pub groups: u32,
    pub advance: u32,
    /// Free-for-all: the players of each game and the games each bot
    /// plays (0 for the other formats).
    pub players_per_game: u32,
    pub games_per_bot: u32,
    pub scoring: Scoring,
    pub bots: Vec<TournamentBot>,
    /// The confinement asked for (not yet resolved on this machine).
    pub sandbox: SandboxChoice,
    /// The `[grading]` section, if the file has one.
    pub grading: Option<crate::grading::GradingPlan>,
    /// The file's text, kept to tell whether a results folder belongs to it.
    pub source: String,
    /// The languages its bots were looked up in: the built-in ones and the
    /// file's own `[languages.NAME]`, seen by no other file.
    pub languages: Languages,
}

impl TournamentPlan {
    pub fn load(path: &Path) -> Result<TournamentPlan, PlanError> {
        let text = Source::read("tournament", path)?;
        Self::parse(path, &text)
    }

    /// Validates a file's text; relative bot paths are taken from the file's
    /// directory.
    pub fn parse(path: &Path, text: &str) -> Result<TournamentPlan, PlanError> {
        let mut src = Source::new(path, text);
        let raw: RawTournament = src.raw_of("tournament")?;
        src.add_languages(&Languages::built_in(), &raw.languages)?;
        let config = src.game_config(
            &raw.game,
            raw.options.as_ref(),
            &crate::plan_file::JudgeLimits {
                judge_time: raw.judge_time.as_ref(),
                judge_memory: raw.judge_memory.as_ref(),
            },
            |options| seat_a_starts(raw.game.get_ref(), options),
        )?;
        let format = format(&src, raw.format.as_ref())?;
        // A free-for-all refuses the field whatever its value (below).
        let games_per_pairing = games_per_pairing(
            &src,
            raw.games_per_pairing
                .as_ref()
                .filter(|_| format != Format::FreeForAll),
        )?;
        let scoring = scoring(&src, &raw.scoring)?;
        let (bots, names) = src.bot_entries_and_folder(
            &config,
            &raw.limits,
            raw.bots.as_ref().map_or(&[][..], |b| b.get_ref()),
            raw.bots_dir.as_ref(),
            "bots",
        )?;
        bot_count(&src, bots.len(), raw.bots.as_ref(), raw.bots_dir.as_ref())?;
        let challengers = challengers(&src, &raw, format, &names, bots.len())?;
        let rounds = rounds(&src, &raw, format, bots.len())?;
        let seeds = seeds(&src, &raw, format, &names, bots.len())?;
        let tiebreak_pairs = tiebreak_pairs(&src, &raw, format)?;
        let (groups, advance) = groups(&src, &raw, format, bots.len())?;
        let (players_per_game, games_per_bot) =
            free_for_all(&src, &raw, format, &config, bots.len())?;
        let grading = grading(&src, &raw, format, &challengers, &names)?;
        let sandbox = match &raw.sandbox {
            None => SandboxChoice::default(),
            Some(text) => SandboxChoice::parse(text.get_ref())
                .map_err(|e| src.error_at(text.span(), format!("sandbox: {e}")))?,
        };
        Ok(TournamentPlan {
            name: src.plan_name(raw.name.as_deref(), "tournament"),
            config,
            format,
            games_per_pairing,
            seed: raw.seed.unwrap_or(DEFAULT_SEED),
            challengers,
            rounds,
            seeds,
            seeds_from: raw
                .seeds_from
                .as_ref()
                .map(|f| src.base().join(f.get_ref())),
            tiebreak_pairs,
            groups,
            advance,
            players_per_game,
            games_per_bot,
            scoring,
            bots,
            sandbox,
            grading,
            source: text.to_string(),
            languages: src.languages,
        })
    }

    pub fn bot_names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// The tournament's name as one safe folder name (see [`folder_name`]),
    /// for the default results folder.
    pub fn folder_name(&self) -> Result<String, NoFolderName> {
        folder_name(&self.name)
    }
}

/// Games are played in pairs with sides swapped; that balances who starts
/// only if seat A starts, so Safe Cracker's coin toss is off unless the
/// file asks for it.
fn seat_a_starts(game: &str, options: &mut GameOptions) {
    if options.first.is_none() && GAMES_WITH_FIRST.contains(&game.to_ascii_lowercase().as_str()) {
        options.first = Some("a".into());
    }
}

fn format(src: &Source<'_>, format: Option<&Spanned<String>>) -> Result<Format, PlanError> {
    let Some(f) = format else {
        return Ok(Format::RoundRobin);
    };
    match Format::from_name(f.get_ref()) {
        Some(format) => Ok(format),
        None => Err(src.error_at(
            f.span(),
            format!("format: '{}' is not a format; use \"round-robin\", \"gauntlet\", \"swiss\", \"knockout\", \"groups\" or \"free-for-all\"", f.get_ref()),
        )),
    }
}

fn games_per_pairing(src: &Source<'_>, games: Option<&Spanned<u64>>) -> Result<u32, PlanError> {
    match games {
        None => Ok(2),
        Some(g) if *g.get_ref() > units::MAX_GAMES => Err(src.error_at(
            g.span(),
            format!(
                "games_per_pairing: {} is too large: at most {}",
                g.get_ref(),
                units::MAX_GAMES
            ),
        )),
        Some(g) if *g.get_ref() == 0 || g.get_ref() % 2 == 1 => Err(src.error_at(
            g.span(),
            format!(
                "games_per_pairing: {} is not a positive even number; games are played in pairs with sides swapped, so each bot starts as often as the other",
                g.get_ref()
            ),
        )),
        // At most MAX_GAMES: a u32.
        Some(g) => Ok(*g.get_ref() as u32),
    }
}

fn bot_count(
    src: &Source<'_>,
    count: usize,
    entries: Option<&Spanned<Vec<RawBot>>>,
    folder: Option<&Spanned<String>>,
) -> Result<(), PlanError> {
    let span = folder
        .map(|f| f.span())
        .or_else(|| entries.map(|e| e.span()))
        .unwrap_or(0..0);
    if count < 2 {
        return Err(src.error_at(
            span,
            format!(
                "bots: a tournament needs at least two bots ([[bots]] entries{}); it has {count}",
                if folder.is_some() {
                    " and bots of bots_dir"
                } else {
                    ", or bots_dir = \"FOLDER\""
                }
            ),
        ));
    }
    if count > units::MAX_BOTS {
        return Err(src.error_at(
            span,
            format!(
                "bots: {count} bots are too many: at most {}",
                units::MAX_BOTS
            ),
        ));
    }
    Ok(())
}

fn scoring(src: &Source<'_>, raw: &RawScoring) -> Result<Scoring, PlanError> {
    let mut scoring = [2, 1, 0];
    for ((field, given), points) in [("win", &raw.win), ("draw", &raw.draw), ("loss", &raw.loss)]
        .into_iter()
        .zip(&mut scoring)
    {
        let Some(given) = given else { continue };
        if *given.get_ref() > u64::from(units::MAX_POINTS) {
            return Err(src.error_at(
                given.span(),
                format!(
                    "scoring.{field}: {} points are too large: at most {}",
                    given.get_ref(),
                    units::MAX_POINTS
                ),
            ));
        }
        *points = *given.get_ref() as u32;
    }
    let [win, draw, loss] = scoring;
    // Points that reward a worse result would let a bot gain by losing on
    // purpose (crashing, timing out): a win is worth more than a loss and
    // a draw lies between them.
    if !(win > loss && win >= draw && draw >= loss) {
        let span = [&raw.loss, &raw.draw, &raw.win]
            .into_iter()
            .find_map(|given| given.as_ref().map(|g| g.span()))
            .unwrap_or(0..0);
        return Err(src.error_at(
            span,
            format!(
                "scoring: win {win}, draw {draw}, loss {loss} would reward a worse result \
                 (a bot could gain by losing on purpose); give win > loss and a draw \
                 between them (win >= draw >= loss)"
            ),
        ));
    }
    Ok(Scoring { win, draw, loss })
}

/// Swiss: `rounds`, at least 1 and at most bots - 1 (so that no pairing
/// need repeat); refused for the other formats.
fn rounds(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    bot_count: usize,
) -> Result<u32, PlanError> {
    match (format, &raw.rounds) {
        (Format::Swiss, Some(r)) => {
            let most = bot_count.saturating_sub(1);
            let given = *r.get_ref();
            if given == 0 || given > most as u64 {
                let size = if given == 0 { "" } else { " (too large)" };
                return Err(src.error_at(
                    r.span(),
                    format!(
                        "rounds: {given} is not possible{size} with {bot_count} bots; give 1 to {most} \
                         (each round pairs every bot with one it has not met)"
                    ),
                ));
            }
            // At most MAX_BOTS - 1: a u32.
            Ok(given as u32)
        }
        (Format::Swiss, None) => Err(src.error_at(
            raw.format.as_ref().map_or(0..0, |f| f.span()),
            "rounds: a Swiss tournament needs rounds = R, the number of rounds".into(),
        )),
        (Format::RoundRobin | Format::Gauntlet | Format::Knockout | Format::Groups | Format::FreeForAll, Some(r)) => Err(src.error_at(
            r.span(),
            "rounds: only a Swiss tournament has rounds; set format = \"swiss\" or remove this field"
                .into(),
        )),
        (Format::RoundRobin | Format::Gauntlet | Format::Knockout | Format::Groups | Format::FreeForAll, None) => Ok(0),
    }
}

/// Knockout: the bots in seed order, from the file's order or from the
/// ratings of an earlier results folder (`seeds_from`, its
/// `standings.csv`: highest rating first, then that folder's rank); bots
/// it does not rate follow, in the file's order.
fn seeds(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    names: &BTreeMap<String, usize>,
    bot_count: usize,
) -> Result<Vec<usize>, PlanError> {
    let folder = match (format, &raw.seeds_from) {
        (Format::Knockout | Format::Groups, None) => return Ok((0..bot_count).collect()),
        (Format::Knockout | Format::Groups, Some(folder)) => folder,
        (Format::RoundRobin | Format::Gauntlet | Format::Swiss | Format::FreeForAll, Some(folder)) => return Err(src.error_at(
            folder.span(),
            "seeds_from: only a knockout or groups are seeded; set format = \"knockout\" or remove this field"
                .into(),
        )),
        (Format::RoundRobin | Format::Gauntlet | Format::Swiss | Format::FreeForAll, None) => return Ok(vec![]),
    };
    let standings = src.base().join(folder.get_ref()).join("standings.csv");
    let fail = |why: String| {
        src.error_at(
            folder.span(),
            format!("seeds_from: {}: {why}", standings.display()),
        )
    };
    let file = crate::input_file::reader(
        &standings,
        crate::input_file::Links::Refused,
        crate::input_file::TABLE_CAP,
    )
    .map_err(|e| {
        fail(format!(
            "cannot read it ({}); give the results folder of an earlier tournament of these bots",
            e.why()
        ))
    })?;
    let mut rated: Vec<(f64, usize, usize)> = vec![];
    let mut reader = csv::Reader::from_reader(file);
    for (line, row) in
        crate::reporter::csv::deserialize_restored::<super::StandingRow, _>(&mut reader).enumerate()
    {
        let row = row.map_err(|e| fail(format!("line {}: not a standings row: {e}", line + 2)))?;
        if let Some(&i) = names.get(&row.bot) {
            if !row.rating.is_finite() {
                return Err(fail(format!(
                    "line {}: the rating is not a number",
                    line + 2
                )));
            }
            if !rated.iter().any(|&(_, _, j)| j == i) {
                rated.push((row.rating, row.rank, i));
            }
        }
    }
    if rated.is_empty() {
        return Err(fail(
            "it rates none of this file's bots (are the names the same?)".into(),
        ));
    }
    rated.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let mut order: Vec<usize> = rated.iter().map(|&(_, _, i)| i).collect();
    let unrated: Vec<usize> = (0..bot_count).filter(|i| !order.contains(i)).collect();
    order.extend(unrated);
    Ok(order)
}

/// Knockout: `tiebreak_pairs`, 0 to [`MAX_TIEBREAK_PAIRS`] (default
/// [`DEFAULT_TIEBREAK_PAIRS`]); refused for the other formats.
fn tiebreak_pairs(src: &Source<'_>, raw: &RawTournament, format: Format) -> Result<u32, PlanError> {
    match (format, &raw.tiebreak_pairs) {
        (Format::Knockout | Format::Groups, None) => Ok(DEFAULT_TIEBREAK_PAIRS),
        (Format::Knockout | Format::Groups, Some(t)) if *t.get_ref() > u64::from(MAX_TIEBREAK_PAIRS) => Err(src.error_at(
            t.span(),
            format!(
                "tiebreak_pairs: {} are too many: at most {MAX_TIEBREAK_PAIRS}",
                t.get_ref()
            ),
        )),
        (Format::Knockout | Format::Groups, Some(t)) => Ok(*t.get_ref() as u32),
        (Format::RoundRobin | Format::Gauntlet | Format::Swiss | Format::FreeForAll, Some(t)) => Err(src.error_at(
            t.span(),
            "tiebreak_pairs: only a knockout or groups have tie-breaks; set format = \"knockout\" or remove this field"
                .into(),
        )),
        (Format::RoundRobin | Format::Gauntlet | Format::Swiss | Format::FreeForAll, None) => Ok(0),
    }
}

/// Groups: `groups` (each of at least two bots) and `advance` (at least
/// one of each group, at most the smallest group, and two in all); refused
/// for the other formats.
fn groups(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    bot_count: usize,
) -> Result<(u32, u32), PlanError> {
    if format != Format::Groups {
        for (field, given) in [("groups", &raw.groups), ("advance", &raw.advance)] {
            if let Some(given) = given {
                return Err(src.error_at(
                    given.span(),
                    format!("{field}: only a tournament of groups has {field}; set format = \"groups\" or remove this field"),
                ));
            }
        }
        return Ok((0, 0));
    }
    let whole = raw.format.as_ref().map_or(0..0, |f| f.span());
    let (Some(groups), Some(advance)) = (&raw.groups, &raw.advance) else {
        return Err(src.error_at(
            whole,
            "groups: a tournament of groups needs groups = G (round-robin groups) and advance = K (the best K of each go on to the knockout)".into(),
        ));
    };
    let g = usize::try_from(*groups.get_ref()).unwrap_or(usize::MAX);
    if g == 0 || g > bot_count / 2 {
        let size = if g == 0 { "" } else { " (too large)" };
        return Err(src.error_at(
            groups.span(),
            format!(
                "groups: {g} groups are not possible{size} with {bot_count} bots; give 1 to {} (each group needs two bots)",
                bot_count / 2
            ),
        ));
    }
    let smallest = bot_count / g;
    let k = usize::try_from(*advance.get_ref()).unwrap_or(usize::MAX);
    if k == 0 || k > smallest || g * k < 2 {
        let size = if k > smallest { " (too large)" } else { "" };
        return Err(src.error_at(
            advance.span(),
            format!(
                "advance: {k} of each group is not possible{size} with {g} groups of {smallest} or more bots; give 1 to {smallest}, and at least two bots in all"
            ),
        ));
    }
    Ok((g as u32, k as u32))
}

/// Free-for-all: `players_per_game` (K: 2 or more, at most the bots, a
/// game judged by a judge) and `games_per_bot` (G: a multiple of K, since
/// each table is played K times with its seats rotated, and such that
/// the bots fill whole tables); both refused for the other formats, as
/// `games_per_pairing` is for a free-for-all.
fn free_for_all(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    config: &GameConfig,
    bot_count: usize,
) -> Result<(u32, u32), PlanError> {
    let fields = [
        ("players_per_game", &raw.players_per_game),
        ("games_per_bot", &raw.games_per_bot),
    ];
    if format != Format::FreeForAll {
        for (field, given) in fields {
            if let Some(given) = given {
                return Err(src.error_at(
                    given.span(),
                    format!("{field}: only a free-for-all has {field}; set format = \"free-for-all\" or remove this field"),
                ));
            }
        }
        return Ok((0, 0));
    }
    if let Some(g) = &raw.games_per_pairing {
        return Err(src.error_at(
            g.span(),
            "games_per_pairing: a free-for-all has no pairings; give games_per_bot = G, the games each bot plays".into(),
        ));
    }
    let points = [
        ("win", &raw.scoring.win),
        ("draw", &raw.scoring.draw),
        ("loss", &raw.scoring.loss),
    ];
    if let Some((field, given)) = points
        .into_iter()
        .find_map(|(field, given)| given.as_ref().map(|g| (field, g)))
    {
        return Err(src.error_at(
            given.span(),
            format!("scoring.{field}: a free-for-all has no points: it ranks the bots by a rating from their places in each game; remove [scoring]"),
        ));
    }
    let whole = raw.format.as_ref().map_or(0..0, |f| f.span());
    let Some(players) = &raw.players_per_game else {
        return Err(src.error_at(
            whole,
            "players_per_game: a free-for-all needs players_per_game = K, the players of each game (the judge says how many it takes)".into(),
        ));
    };
    let k = *players.get_ref();
    if config.judge().is_none() {
        return Err(src.error_at(
            whole,
            format!(
                "format: the built-in game {} is played by two; a free-for-all needs a game of more players, given as a judge (game = \"path/to/judge\")",
                config.game_name()
            ),
        ));
    }
    if k < 2 || k > bot_count as u64 || k > crate::games::MAX_SEATS as u64 {
        return Err(src.error_at(
            players.span(),
            format!(
                "players_per_game: {k} players at a table is not possible with {bot_count} bots; give 2 to {}",
                bot_count.min(crate::games::MAX_SEATS)
            ),
        ));
    }
    let Some(games) = &raw.games_per_bot else {
        return Err(src.error_at(
            whole,
            format!("games_per_bot: a free-for-all needs games_per_bot = G, the games each bot plays (a multiple of players_per_game, {k})"),
        ));
    };
    let g = *games.get_ref();
    let n = bot_count as u64;
    // Each table of K is played K times: a bot plays K games per table,
    // and the N bots' tables, N x G / K seats, fill whole tables of K.
    let fits = |g: u64| g > 0 && g % k == 0 && (n * (g / k)) % k == 0;
    if g > units::MAX_GAMES || !fits(g) {
        let step = (1..=k).map(|t| t * k).find(|&s| fits(s)).unwrap_or(k * k);
        // The suggestions fit both the tables and the cap: a number past
        // the cap is pointed to the largest that fits.
        let below = g.min(units::MAX_GAMES) / step * step;
        let nearest = if below == 0 {
            format!("{step}")
        } else if below == g || g > units::MAX_GAMES || below + step > units::MAX_GAMES {
            format!("{below}")
        } else {
            format!("{below} or {}", below + step)
        };
        let why = if g > units::MAX_GAMES {
            format!("is too large: at most {}", units::MAX_GAMES)
        } else {
            format!(
                "does not fill whole tables: each table of {k} is played {k} times with the seats rotated, so a bot plays {k} games per table, and {n} bots need games_per_bot to be a multiple of {step}"
            )
        };
        return Err(src.error_at(
            games.span(),
            format!("games_per_bot: {g} {why}; give {nearest}"),
        ));
    }
    Ok((k as u32, g as u32))
}

/// `[grading]`: validated against the bots; only formats in which every
/// reference meets every team (a round robin, or a gauntlet whose
/// challengers include every reference).
fn grading(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    challengers: &[usize],
    names: &BTreeMap<String, usize>,
) -> Result<Option<crate::grading::GradingPlan>, PlanError> {
    let Some(section) = &raw.grading else {
        return Ok(None);
    };
    let mut ordered: Vec<(&String, &usize)> = names.iter().collect();
    ordered.sort_by_key(|(_, &i)| i);
    let ordered: Vec<String> = ordered.into_iter().map(|(n, _)| n.clone()).collect();
    let plan = crate::grading::validate(
        src,
        section,
        &ordered,
        None,
        raw.bots_dir.as_ref().map(|d| d.get_ref().as_str()),
        format == Format::FreeForAll,
    )?;
    // A free-for-all grades by places: its references play no part.
    let plays_everyone = |name: &String| match format {
        Format::RoundRobin | Format::FreeForAll => true,
        Format::Gauntlet => names.get(name).is_some_and(|i| challengers.contains(i)),
        Format::Swiss | Format::Knockout | Format::Groups => false,
    };
    if let Some(name) = plan.references.iter().find(|n| !plays_everyone(n)) {
        return Err(src.error_at(
            section.span(),
            format!(
                "grading: the reference '{}' would not play every team in a {} tournament; use format = \"round-robin\", or format = \"gauntlet\" with the references among the challengers",
                crate::text::escape(name),
                format.name()
            ),
        ));
    }
    Ok(Some(plan))
}

/// The bots of a gauntlet that play all the others, as indices of `names`.
fn challengers(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    names: &BTreeMap<String, usize>,
    bot_count: usize,
) -> Result<Vec<usize>, PlanError> {
    let c = match (format, &raw.challengers) {
        (Format::Gauntlet, None) => {
            return Err(src.error_at(
                raw.format.as_ref().map(|f| f.span()).unwrap_or(0..0),
                "challengers: a gauntlet needs challengers = [\"NAME\", ...], the bots that play all the others".into(),
            ))
        }
        (Format::Gauntlet, Some(c)) => c,
        (Format::RoundRobin | Format::Swiss | Format::Knockout | Format::Groups | Format::FreeForAll, None) => return Ok(vec![]),
        (Format::RoundRobin | Format::Swiss | Format::Knockout | Format::Groups | Format::FreeForAll, Some(c)) => {
            return Err(src.error_at(
                c.span(),
                "challengers: only a gauntlet has challengers; set format = \"gauntlet\" or remove this field".into(),
            ))
        }
    };
    let mut indices = vec![];
    for name in c.get_ref() {
        match names.get(name) {
            // Named twice, a challenger would play each opponent twice
            // over.
            Some(i) if indices.contains(i) => {
                return Err(src.error_at(
                    c.span(),
                    format!("challengers: '{name}' is named twice; name each challenger once"),
                ))
            }
            Some(&i) => indices.push(i),
            None => {
                return Err(src.error_at(
                    c.span(),
                    format!(
                        "challengers: no bot is named '{name}'; the bots are: {}",
                        names.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
        }
    }
    if indices.is_empty() || indices.len() == bot_count {
        return Err(src.error_at(
            c.span(),
            "challengers: name at least one bot, and not all of them".into(),
        ));
    }
    Ok(indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tournament files read in one process: each sees its own
    /// `[languages.NAME]` tables, and neither the other's.
    #[test]
    fn each_file_sees_only_its_own_languages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.snake"), "#!/bin/sh\ncat\n").unwrap();
        let write = |file: &str, tables: &str, bots: &str| {
            let path = dir.path().join(file);
            let text = format!(
                "name = \"t\"\ngame = \"arrow5\"\n{tables}\n{bots}\
                 [[bots]]\nname = \"cat\"\nbot = \"/bin/cat\"\n"
            );
            std::fs::write(&path, text).unwrap();
            path
        };
        let snake_bot = "[[bots]]\nname = \"snake\"\nbot = \"a.snake\"\n";
        let first = write(
            "first.toml",
            "[languages.snake]\nextensions = [\"snake\"]\nrun = \"sh {entry}\"\n\
             [languages.python]\ntime_multiplier = 5\n",
            snake_bot,
        );
        let second = write(
            "second.toml",
            "",
            "[[bots]]\nname = \"true\"\nbot = \"/bin/true\"\n",
        );
        let third = write(
            "third.toml",
            "[languages.snake]\nextensions = [\"snake\"]\nrun = \"bash {entry}\"\n",
            snake_bot,
        );
        let built_in_python = Languages::built_in().named("python").def().time_multiplier;
        assert_ne!(built_in_python, 5.0);

        let a = TournamentPlan::load(&first).unwrap();
        let b = TournamentPlan::load(&second).unwrap();
        let c = TournamentPlan::load(&third).unwrap();
        let run_of = |plan: &TournamentPlan| plan.bots[0].command.language.def().run[0].clone();
        assert_eq!(a.bots[0].command.language.name(), "snake");
        assert_eq!(run_of(&a), "sh", "the first file's snake, not the third's");
        assert_eq!(run_of(&c), "bash");
        assert_eq!(a.languages.named("python").def().time_multiplier, 5.0);
        assert!(
            b.languages.from_name("snake").is_none(),
            "{:?}",
            b.languages
        );
        assert_eq!(
            b.languages.named("python").def().time_multiplier,
            built_in_python,
            "the first file's override stays in the first file"
        );
        assert!(Languages::built_in().from_name("snake").is_none());

        // A file that names a language only another file defines (the
        // script made executable, so that it is a bot without one).
        use std::os::unix::fs::PermissionsExt;
        let script = dir.path().join("a.snake");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let borrowing = write(
            "borrowing.toml",
            "",
            "[[bots]]\nname = \"snake\"\nbot = \"./a.snake\"\nlanguage = \"snake\"\n",
        );
        let error = TournamentPlan::load(&borrowing).unwrap_err().to_string();
        assert!(error.contains("'snake' is not a language"), "{error}");
    }

    #[test]
    fn a_bots_dir_adds_each_recognised_entry_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let bots = dir.path().join("bots");
        std::fs::create_dir_all(bots.join("carol")).unwrap();
        std::fs::create_dir_all(bots.join("empty")).unwrap();
        std::fs::create_dir_all(bots.join(".hidden")).unwrap();
        for file in ["alice.py", "bob.c", "carol/main.py", ".hidden/main.py"] {
            std::fs::write(bots.join(file), "x\n").unwrap();
        }
        std::fs::write(bots.join("admission.csv"), "team\n").unwrap();
        let path = dir.path().join("t.toml");
        let text =
            "game = \"arrow5\"\nbots_dir = \"bots\"\n[[bots]]\nname = \"ref\"\nbot = \"true\"\n";
        let plan = TournamentPlan::parse(&path, text).unwrap();
        assert_eq!(plan.bot_names(), ["ref", "alice", "bob", "carol"]);
        assert_eq!(plan.bots[3].command.language.name(), "python");
        let clash = text.replace("\"ref\"", "\"alice\"");
        let e = TournamentPlan::parse(&path, &clash)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bots_dir") && e.contains("'alice'"), "{e}");
        let alone = "game = \"arrow5\"\nbots_dir = \"bots/carol\"\n";
        let e = TournamentPlan::parse(&path, alone).unwrap_err().to_string();
        assert!(
            e.contains("at least two bots") && e.contains("has 1"),
            "{e}"
        );
    }

    fn parse(text: &str) -> Result<TournamentPlan, PlanError> {
        TournamentPlan::parse(Path::new("/tmp/t.toml"), text)
    }

    const BOTS: &str =
        "[[bots]]\nname = \"x\"\nbot = \"true\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\n";

    #[test]
    fn a_minimal_file_gets_the_defaults() {
        let plan = parse(&format!("game = \"arrow5\"\n{BOTS}")).unwrap();
        assert_eq!(plan.format, Format::RoundRobin);
        assert_eq!(plan.games_per_pairing, 2);
        assert_eq!(
            plan.scoring,
            Scoring {
                win: 2,
                draw: 1,
                loss: 0
            }
        );
        assert_eq!(plan.bot_names(), ["x", "y"]);
    }

    fn error_of(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    /// `[bots]` with `a = "a.py"` under it, a newcomer's first guess, is
    /// told how the list is written (serde said "invalid type: map,
    /// expected a sequence").
    #[test]
    fn bots_written_as_one_table_are_told_how_to_write_the_list() {
        let e = error_of("game = \"arrow5\"\n[bots]\na = \"a.py\"\nb = \"b.py\"\n");
        assert!(
            e.starts_with("/tmp/t.toml:2: bots: a list") && e.contains("[[bots]]"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let e = error_of(&format!("game = \"arrow5\"\ngames_per_pairing = 3\n{BOTS}"));
        assert!(e.starts_with("/tmp/t.toml:2: games_per_pairing"), "{e}");
        let e = error_of(&format!("game = \"arow5\"\n{BOTS}"));
        assert!(
            e.starts_with("/tmp/t.toml:1: game:") && e.contains("did you mean"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n{BOTS}[[bots]]\nname = \"z\"\nbot = \"./missing\"\n"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:10: bots.bot of 'z'") && e.contains("does not exist"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n[limits]\ntime_limit = \"soon\"\n{BOTS}"
        ));
        assert!(e.starts_with("/tmp/t.toml:3: limits.time_limit"), "{e}");
        let e = error_of(&format!(
            "game = \"arrow5\"\n[limits]\ntime_bank = \"lots\"\n{BOTS}"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:3: limits.time_bank") && e.contains("not a duration"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n{BOTS}[[bots]]\nname = \"z\"\nbot = \"true\"\ntime_bank = \"-2s\"\n"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:11: bots.time_bank") && e.contains("or 0 for no bank"),
            "{e}"
        );
        let e = error_of(&format!("game = \"arrow5\"\nsede = 3\n{BOTS}"));
        assert!(e.starts_with("/tmp/t.toml:2:") && e.contains("sede"), "{e}");
        let e = error_of(&format!(
            "game = \"arrow5\"\n{BOTS}[[bots]]\nname = \"x\"\nbot = \"true\"\n"
        ));
        assert!(e.contains("used twice"), "{e}");
        let e = error_of(&format!(
            "game = \"arrow5\"\nformat = \"gauntlet\"\nchallengers = [\"q\"]\n{BOTS}"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:3: challengers") && e.contains("x, y"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\nformat = \"gauntlet\"\nchallengers = [\"x\", \"x\"]\n{BOTS}"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:3: challengers") && e.contains("'x' is named twice"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n[options]\nvariant = \"blind\"\n{BOTS}"
        ));
        // The line of the option, named as in the file.
        assert!(
            e.starts_with("/tmp/t.toml:3: options.variant:") && e.contains("blind"),
            "{e}"
        );
    }

    #[test]
    fn names_become_safe_folder_names() {
        assert_eq!(folder_name("arrow5 cup").unwrap(), "arrow5_cup");
        assert_eq!(folder_name("../../etc").unwrap(), "_._.._etc");
        assert_eq!(folder_name("/tmp/x").unwrap(), "_tmp_x");
        assert_eq!(folder_name(".hidden").unwrap(), "_hidden");
        assert_eq!(folder_name("a\x1b[31m").unwrap(), "a__31m");
        assert_eq!(folder_name(&"x".repeat(500)).unwrap().len(), 100);
        for bad in ["", "  ", "..", "/", "../..", "__"] {
            assert!(folder_name(bad).is_err(), "{bad:?}");
        }
        for name in ["../up", "a/b", ".", "..", "x/../../y"] {
            if let Ok(f) = folder_name(name) {
                assert!(!f.contains('/') && !f.starts_with('.'), "{f}");
            }
        }
    }

    #[test]
    fn safecracker_tournaments_let_seat_a_start() {
        let plan = parse(&format!("game = \"safecracker\"\n{BOTS}")).unwrap();
        assert!(
            plan.config
                .cli_flags()
                .windows(2)
                .any(|w| w == ["--first", "a"]),
            "{:?}",
            plan.config.cli_flags()
        );
        let plan = parse(&format!(
            "game = \"safecracker\"\n[options]\nfirst = \"toss\"\n{BOTS}"
        ))
        .unwrap();
        assert!(plan
            .config
            .cli_flags()
            .windows(2)
            .any(|w| w == ["--first", "toss"]));
    }

    #[test]
    fn per_bot_limits_override_the_tournament_limits() {
        let text = "game = \"arrow5\"\n[limits]\ntime_limit = \"1s\"\n[[bots]]\nname = \"x\"\nbot = \"true\"\ntime_limit = \"6s\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\n";
        let plan = parse(text).unwrap();
        assert_eq!(plan.bots[0].limits.time_limit, Duration::from_secs(6));
        assert_eq!(plan.bots[1].limits.time_limit, Duration::from_secs(1));
    }

    #[test]
    fn time_banks_come_from_the_file_and_each_bot() {
        let plan = parse(&format!("game = \"arrow5\"\n{BOTS}")).unwrap();
        assert_eq!(
            plan.bots[0].limits.time_bank,
            Duration::ZERO,
            "no bank by default"
        );
        let text = "game = \"arrow5\"\n[limits]\ntime_bank = \"10s\"\n[[bots]]\nname = \"x\"\nbot = \"true\"\ntime_bank = \"0\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\ntime_bank = \"2.5s\"\n[[bots]]\nname = \"z\"\nbot = \"true\"\n";
        let plan = parse(text).unwrap();
        let banks: Vec<Duration> = plan.bots.iter().map(|b| b.limits.time_bank).collect();
        assert_eq!(
            banks,
            [
                Duration::ZERO,
                Duration::from_millis(2500),
                Duration::from_secs(10)
            ]
        );
    }

    /// A thousand bots in every format played in rounds: the plan, and
    /// the first round's games, at once.
    #[test]
    fn a_thousand_bots_pair_in_every_format() {
        let bots: String = (0..1000)
            .map(|i| format!("[[bots]]\nname = \"b{i}\"\nbot = \"true\"\n"))
            .collect();
        let results = crate::tournament::rounds::Results::default();
        let swiss = parse(&format!(
            "game = \"arrow5\"\nformat = \"swiss\"\nrounds = 999\n{bots}"
        ))
        .unwrap();
        let first = crate::tournament::swiss::Swiss::new(&swiss)
            .advance(&swiss, &results)
            .unwrap()
            .unwrap();
        assert_eq!((first.pairings.len(), first.len()), (500, 1000));
        let knockout = parse(&format!("game = \"arrow5\"\nformat = \"knockout\"\n{bots}")).unwrap();
        let bracket = crate::tournament::knockout::bracket(&knockout, &results).unwrap();
        // 1024 places: 24 byes, 488 matches.
        assert_eq!(bracket.next.unwrap().pairings.len(), 488);
        let groups = parse(&format!(
            "game = \"arrow5\"\nformat = \"groups\"\ngroups = 10\nadvance = 2\n{bots}"
        ))
        .unwrap();
        let stages = crate::tournament::groups::stages(&groups, &results).unwrap();
        assert_eq!(stages.next.unwrap().pairings.len(), 10 * 100 * 99 / 2);
        let e = error_of(&format!(
            "game = \"arrow5\"\nformat = \"swiss\"\nrounds = 1000\n{bots}"
        ));
        assert!(e.contains("give 1 to 999"), "{e}");
    }
}
