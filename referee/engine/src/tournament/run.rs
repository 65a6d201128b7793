//! Playing a tournament: worker threads play games and send each finished
//! record to this thread, which hands it to the reporters
//! ([`crate::reporter`]): the CSV reporter appends and flushes the game's
//! row the moment it ends, so a killed referee loses at most the games in
//! progress, and `--resume` plays exactly the rest (read back here).
//!
//! Results folder:
//! - `tournament.toml`: the file this folder belongs to (checked on resume
//!   and merge); `tournament.json`: bot names and scoring, for `merge`;
//! - `games.csv`, `standings.csv`, `crosstable.csv`, `timings.csv` (measured
//!   move times and memory, kept apart so that standings depend only on the
//!   games' results);
//! - Swiss: `swiss.csv` (the final order) and `rounds.csv` (every round's
//!   pairings); knockout: `bracket.csv`, `bracket.txt`, `rounds.csv`, and
//!   `seeds.csv` (the seeds it began with, checked on resume);
//! - `transcripts/game-NNNNNN.jsonl`.
//!
//! - `store/`: every game a round robin or gauntlet played, by identity
//!   ([`super::store`]); `games.csv` and `transcripts/` are written from it
//!   for the bots of the file as it is now.
//!
//! Round robins and gauntlets have their whole schedule in advance
//! ([`Schedule`]), each game with its identity: a game the store has is
//! not played again, so `--update` after bots were added, replaced or
//! removed plays only the new games. Swiss tournaments and knockouts are played round by
//! round: each round's games are a pure function of the rows of
//! `games.csv` so far ([`super::rounds`]), played in parallel (their rows
//! written in number order, [`InOrder`]), then the next round is paired
//! from the rows read back.

use std::collections::{BTreeSet, HashSet};
use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::atomic_file;
use crate::bot;
use crate::games::{Seat, Winner};
use crate::input_file::{self, InputError, Links, TABLE_CAP, TEXT_CAP};
use crate::pool::{Flow, Pool};
use crate::record::MatchRecord;
use crate::reporter::csv::{write_atomically, write_tables, GAMES_CSV};
use crate::reporter::{Finish, Place, ReportError, Reporter, Run};
use crate::runner::{play_match, MatchError, MatchPlan};

use super::groups::GroupRow;
use super::identity::{ContentError, GameIdentities, Hash256};
use super::knockout::{self, BracketRow};
use super::plan::{Format, Scoring, TournamentPlan};
use super::rounds::{OffSchedule, PlayedGame, Results, RoundRow};
use super::schedule::{Schedule, ScheduledGame, Shard};
use super::standings::{GameRow, Ranking, StandingRow, Standings};
use super::store::{Store, StoreError, StoredGame};
use super::swiss::SwissRow;

/// What `merge` needs to know about a results folder without the bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderMeta {
    pub version: u32,
    pub name: String,
    pub game: String,
    pub bots: Vec<String>,
    pub scoring: (u32, u32, u32),
    pub total_games: u64,
    pub shard: Option<(u32, u32)>,
    /// round-robin, gauntlet, swiss or knockout (folders written before it
    /// was kept are round robins or gauntlets).
    #[serde(default = "default_format")]
    pub format: String,
    /// A gauntlet's challengers: they rank after the bots under test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub challengers: Vec<String>,
}

fn default_format() -> String {
    Format::RoundRobin.name().into()
}

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("{} already holds results; add --resume to finish that tournament, --update to play only the games of new or changed bots, or choose another --out", path.display())]
    FolderInUse { path: PathBuf },
    #[error("{} holds results of a different tournament file (its tournament.toml differs); add --update to play only what the changes need, or choose another --out", path.display())]
    FolderOfAnother { path: PathBuf },
    #[error("{}: {what}", path.display())]
    Io {
        path: PathBuf,
        what: String,
        #[source]
        source: io::Error,
    },
    #[error("{}, line {line}: {message}; changed by hand? Every game played is also in the folder's store: remove {} and run again with --resume to write it anew", path.display(), path.display())]
    BadRow {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{}: {message}", path.display())]
    Merge { path: PathBuf, message: String },
    /// A results folder's `tournament.json` or `bracket.csv` that does not
    /// read as one.
    #[error("{}: {message}; changed by hand? Play the tournament again with another --out", path.display())]
    BadFolderFile { path: PathBuf, message: String },
    /// A results folder started by a referee whose `games.csv` had other
    /// columns: rows appended now would not line up with its header.
    #[error("{} was written by another version of the referee (its columns differ: {differ}); finish that tournament with the referee that started it, or play it again with another --out", path.display())]
    OtherColumns { path: PathBuf, differ: String },
    /// `--shard` with a format played in rounds.
    #[error("--shard: a {format} tournament is played round by round, each round paired from the results of the rounds before, so it cannot be split into shards; play it whole (--jobs N plays a round's games in parallel)")]
    ShardOfRounds { format: &'static str },
    #[error("{}: {source}; this games.csv does not follow its tournament file (edited by hand?): choose another --out", path.display())]
    OffSchedule {
        path: PathBuf,
        #[source]
        source: OffSchedule,
    },
    /// A knockout resumed with seeds other than those it began with.
    #[error("{}: the seeds differ from those this knockout began with ({now}; it began with {then}): its `seeds_from` folder changed; restore it, or choose another --out", path.display())]
    SeedsChanged {
        path: PathBuf,
        then: String,
        now: String,
    },
    #[error(transparent)]
    Match(MatchError),
    /// `--update` of a format played in rounds with a changed file.
    #[error("{} holds a {format} tournament of another file: a {format} tournament is paired round by round from its results, so it cannot take bots added, replaced or removed; play the new file in another --out", path.display())]
    UpdateOfRounds { path: PathBuf, format: &'static str },
    /// A round robin or gauntlet folder with games but no store: written
    /// by a referee that numbered its games' seeds by their place.
    #[error("{} holds games of an older referee (it has no store/games.jsonl; its games' seeds came from their place in the schedule): finish it with that referee, or play the tournament again with another --out", path.display())]
    NoStore { path: PathBuf },
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A file of the results folder (or a shard) that is not a regular
    /// file, or is too large ([`crate::input_file`]).
    #[error(transparent)]
    Input(#[from] InputError),
    /// `--out` cannot be made or written: a file, a folder of another user.
    #[error("--out {}: {what}: {source}; give a folder you can write", path.display())]
    Unwritable {
        path: PathBuf,
        what: &'static str,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Content(#[from] ContentError),
    /// The results folder's secret key cannot be read, made, or does not
    /// match the one given.
    #[error(transparent)]
    Key(#[from] crate::key::KeyError),
}

fn io_error(path: &Path, what: &str) -> impl FnOnce(io::Error) -> TournamentError {
    let path = path.to_path_buf();
    let what = what.to_string();
    move |source| TournamentError::Io { path, what, source }
}

impl From<ReportError> for TournamentError {
    fn from(e: ReportError) -> TournamentError {
        TournamentError::Io {
            path: e.path,
            what: e.what,
            source: e.source,
        }
    }
}

pub struct RunOptions {
    pub jobs: usize,
    pub out: PathBuf,
    pub resume: bool,
    /// Bring the folder up to date with the file as it is now (bots added,
    /// replaced or removed): play the games it lacks (round robins and
    /// gauntlets; the other formats as `resume`).
    pub update: bool,
    pub shard: Option<Shard>,
    /// The CPUs to pin each worker (and its bots) to, claimed from the
    /// machine's other referees; `None`: not pinned.
    pub pin: Option<crate::bot::CpuClaims>,
    /// The secret key to draw codes with (`--key-file`, shared by shards);
    /// `None`: the folder's own, made on its first run. A folder keeps the
    /// key its games were played with ([`crate::key::KEY_FILE`]).
    pub key: Option<crate::key::RefereeKey>,
}

/// How a run ended.
pub struct Outcome {
    pub played_now: u64,
    pub total_in_folder: u64,
    pub scheduled: u64,
    pub interrupted: bool,
    pub standings: Vec<StandingRow>,
    /// Games whose transcript could not be written (the game still counts).
    pub transcript_failures: u64,
    /// Games not played because the system would not start a bot (not
    /// recorded: `--resume` plays them).
    pub not_played: u64,
    /// Why the first of them could not be played.
    pub not_played_why: Option<String>,
    /// A Swiss tournament's or a knockout's own tables.
    pub rounds: Option<RoundsTables>,
}

/// The tables of a format played in rounds, as far as the results go.
#[derive(Clone, Debug)]
pub enum RoundsTables {
    Swiss {
        /// The order of `swiss.csv`.
        table: Vec<SwissRow>,
        /// Every pairing (`rounds.csv`).
        rounds: Vec<RoundRow>,
        rounds_complete: u32,
        rounds_total: u32,
    },
    /// A knockout, or a tournament of groups and its knockout.
    Knockout {
        /// Groups: each bot's place in its group (`groups.csv`), once the
        /// group stage is over; empty for a knockout alone.
        groups: Vec<GroupRow>,
        /// Every match (`bracket.csv`).
        matches: Vec<BracketRow>,
        /// The bracket as text (`bracket.txt`, the terminal).
        text: String,
        rounds: Vec<RoundRow>,
        champion: Option<String>,
    },
}

/// Plays the games of `plan` the folder lacks, telling `reporters` each
/// one as it ends, then the standings of every game in the folder.
pub fn run(
    plan: &TournamentPlan,
    options: &RunOptions,
    reporters: &mut dyn Reporter,
) -> Result<Outcome, TournamentError> {
    let out = &options.out;
    let games_path = out.join(GAMES_CSV);
    if plan.format.has_rounds() && options.shard.is_some() {
        return Err(TournamentError::ShardOfRounds {
            format: plan.format.name(),
        });
    }
    let mut meta = prepare_folder(plan, options)?;
    let key = crate::key::RunKey::for_folder(out, options.key.clone())?;

    let done = read_done_games(&games_path)?;
    check_columns(&games_path)?;
    let transcripts = transcripts_folder(out)?;
    let mut played = Played::default();
    let pool = Pool {
        jobs: options.jobs,
        pin: options.pin.as_ref(),
    };
    let play = |todo: &mut (dyn Iterator<Item = ScheduledGame> + Send),
                played: &mut Played,
                reporters: &mut dyn Reporter| {
        pool.run(
            || todo.next(),
            |game: ScheduledGame| play_game(plan, &key, out, &transcripts, game),
            |(game, result, transcript_failed)| {
                played.take(plan, out, game, result, transcript_failed, reporters)
            },
        );
        // Games held back behind one not recorded (stopped, not started).
        played.write_held_back(plan, out, reporters);
    };
    let off_schedule = |source| TournamentError::OffSchedule {
        path: games_path.clone(),
        source,
    };

    let (scheduled, mut rounds) = if plan.format.has_rounds() {
        let mut results = Results::default();
        if games_path.exists() {
            for_each_row(&games_path, |row| results.add(plan, &row))?;
        }
        let mut state = plan.format.rules(plan);
        let expected = state.expected_games(plan, &results).map_err(off_schedule)?;
        meta.record_total(out, expected)?;
        reporters.run_started(&Run::Tournament {
            plan,
            out,
            total: expected,
            already_done: results.len() as u64,
            to_play: expected.saturating_sub(results.len() as u64),
        })?;
        played.rows = Some(vec![]);
        loop {
            let next =
                state
                    .next_games(plan, &results)
                    .map_err(|source| TournamentError::OffSchedule {
                        path: games_path.clone(),
                        source,
                    })?;
            // Tie-breaks come on top of the games announced: the folder
            // says how many games the tournament plays as far as known.
            meta.record_total(
                out,
                state.expected_games(plan, &results).map_err(off_schedule)?,
            )?;
            let Some(block) = next else { break };
            let mut todo = block.games(plan).filter(|g| !results.has(g.number));
            played.in_order = Some(InOrder {
                upcoming: block
                    .games(plan)
                    .map(|g| g.number)
                    .filter(|&n| !results.has(n))
                    .collect(),
                held: Default::default(),
            });
            let before = played.now;
            play(&mut todo, &mut played, reporters);
            let recorded = played.now > before;
            for (number, game) in played.rows.iter_mut().flat_map(std::mem::take) {
                results.insert(number, game);
            }
            // A round not finished (stopped, or a bot would not start) is
            // left to --resume: the next round depends on it.
            if played.error.is_some() || bot::stop_requested() || played.not_played > 0 || !recorded
            {
                break;
            }
        }
        let expected = state.expected_games(plan, &results).map_err(off_schedule)?;
        meta.record_total(out, expected)?;
        (expected, Some((state, results)))
    } else {
        let schedule = Schedule::new(plan, GameIdentities::new(plan, &key.key, options.jobs)?);
        let store_path = out
            .join(super::store::STORE_FOLDER)
            .join(super::store::STORE_GAMES);
        if !done.is_empty() && !store_path.exists() {
            return Err(TournamentError::NoStore { path: out.clone() });
        }
        let kept = Store::open(out)?;
        // games.csv and transcripts/ of the bots as they are now, before
        // this run's games are appended.
        let already_done = publish(plan, out, &schedule, options.shard, &kept)?;
        let scheduled = schedule.count_in(options.shard);
        let kept_ids: HashSet<Hash256> = kept.ids().collect();
        // The games left, made one at a time as workers take them: memory
        // does not grow with the number of games of the tournament.
        let mut todo = schedule
            .games_in(options.shard)
            .filter(|g| g.identity.is_none_or(|id| !kept_ids.contains(&id)));
        reporters.run_started(&Run::Tournament {
            plan,
            out,
            total: scheduled,
            already_done,
            to_play: scheduled - already_done,
        })?;
        played.keeping = Some(Keeping {
            store: kept,
            contents: schedule.identities().content_hexes(),
        });
        play(&mut todo, &mut played, reporters);
        let kept = played.keeping.take().expect("kept above").store;
        if played.error.is_none() {
            publish(plan, out, &schedule, options.shard, &kept)?;
        }
        (scheduled, None)
    };
    if let Some(e) = played.error {
        return Err(e);
    }

    let (mut standings, rows_in_folder) = standings_of(out, &plan.bot_names(), plan.scoring)?;
    let rounds = match rounds.as_mut() {
        Some((state, results)) => state
            .tables(plan, results, &standings.rows())
            .map_err(off_schedule)?,
        None => None,
    };
    // The bracket just walked, not the folder's bracket.csv of the run before.
    if let Some(RoundsTables::Knockout { matches, .. }) = &rounds {
        standings.rank_by(Ranking::Knockout {
            reached: knockout::rounds_reached(matches),
        });
    }
    let standing_rows = standings.rows();
    let outcome = Outcome {
        played_now: played.now,
        total_in_folder: rows_in_folder,
        scheduled,
        interrupted: bot::stop_requested(),
        standings: standing_rows,
        transcript_failures: played.transcript_failures,
        not_played: played.not_played,
        not_played_why: played.not_played_why,
        rounds,
    };
    reporters.run_finished(&Finish::Tournament {
        standings: &standings,
        outcome: &outcome,
    })?;
    Ok(outcome)
}

/// What `--dry-run` found: the games a run would play, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DryRun {
    /// Games of the schedule (of the shard).
    pub scheduled: u64,
    /// Of them, already played (in the folder's store, or its games.csv
    /// for the formats played in rounds).
    pub already_played: u64,
    /// Games with a bot the folder has never seen (by name).
    pub new_bot: u64,
    /// Games with a bot whose content differs from every game the folder
    /// has of that name (its program, language or limits changed).
    pub changed_bot: u64,
    /// The other games not in the folder (never played: a new folder, more
    /// games per pairing, a run that stopped early).
    pub never_played: u64,
    pub new_bots: Vec<String>,
    pub changed_bots: Vec<String>,
    /// Bots the folder has games of that the file no longer has.
    pub removed_bots: Vec<String>,
    /// Games in the folder's store that are not in the standings (of bots
    /// removed or replaced).
    pub kept_aside: u64,
    /// A format played in rounds: its name (the counts are then as far as
    /// its rounds are paired).
    pub rounds: Option<&'static str>,
}

impl DryRun {
    pub fn to_play(&self) -> u64 {
        self.new_bot + self.changed_bot + self.never_played
    }
}

impl std::fmt::Display for DryRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |v: &[String]| {
            if v.is_empty() {
                String::new()
            } else {
                format!(" ({})", v.join(", "))
            }
        };
        if let Some(format) = self.rounds {
            return writeln!(
                f,
                "dry run: {} of {} games to play, {} already played; nothing was played\n  a {format} tournament is paired round by round from its results: later rounds are known only once the earlier ones are played",
                self.to_play(),
                self.scheduled,
                self.already_played
            );
        }
        writeln!(
            f,
            "dry run: {} of {} games to play, {} already played; nothing was played",
            self.to_play(),
            self.scheduled,
            self.already_played
        )?;
        writeln!(
            f,
            "  {} with a new bot{}",
            self.new_bot,
            names(&self.new_bots)
        )?;
        writeln!(
            f,
            "  {} with a changed bot{}",
            self.changed_bot,
            names(&self.changed_bots)
        )?;
        writeln!(f, "  {} never played", self.never_played)?;
        if self.kept_aside > 0 || !self.removed_bots.is_empty() {
            writeln!(
                f,
                "  {} games in the folder stay out of the standings (bots removed{} or replaced)",
                self.kept_aside,
                names(&self.removed_bots)
            )?;
        }
        Ok(())
    }
}

/// Says what [`run`] would play in `options.out`, and why, playing and
/// writing nothing (no folder, no key made).
pub fn dry_run(plan: &TournamentPlan, options: &RunOptions) -> Result<DryRun, TournamentError> {
    let out = &options.out;
    let games_path = out.join(GAMES_CSV);
    if plan.format.has_rounds() {
        if options.shard.is_some() {
            return Err(TournamentError::ShardOfRounds {
                format: plan.format.name(),
            });
        }
        let mut results = Results::default();
        if games_path.exists() {
            for_each_row(&games_path, |row| results.add(plan, &row))?;
        }
        let expected = plan
            .format
            .rules(plan)
            .expected_games(plan, &results)
            .map_err(|source| TournamentError::OffSchedule {
                path: games_path.clone(),
                source,
            })?;
        let done = results.len() as u64;
        return Ok(DryRun {
            scheduled: expected,
            already_played: done,
            never_played: expected.saturating_sub(done),
            rounds: Some(plan.format.name()),
            ..DryRun::default()
        });
    }
    let key_path = out.join(crate::key::KEY_FILE);
    let key = if input_file::is_there(&key_path) {
        Some(crate::key::RefereeKey::read_kept(&key_path)?)
    } else {
        options.key.clone()
    };
    let store = match &key {
        Some(_) => Store::read(out)?,
        None => Store::empty(),
    };
    let key =
        key.unwrap_or_else(|| crate::key::RefereeKey::from_hex(&"0".repeat(64)).expect("hex"));
    let schedule = Schedule::new(plan, GameIdentities::new(plan, &key, options.jobs)?);
    let contents = schedule.identities().content_hexes();
    let mut known: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for game in store.games() {
        let StoredGame { row, contents, .. } = game?;
        for (name, content) in [row.bot_a, row.bot_b].into_iter().zip(contents) {
            known.entry(name).or_default().insert(content);
        }
    }
    let mut report = DryRun::default();
    let mut in_standings: HashSet<Hash256> = HashSet::new();
    for (i, bot) in plan.bots.iter().enumerate() {
        match known.get(bot.name.as_str()) {
            None if !store.is_empty() => report.new_bots.push(bot.name.clone()),
            Some(seen) if !seen.contains(contents[i].as_str()) => {
                report.changed_bots.push(bot.name.clone())
            }
            _ => {}
        }
    }
    let names = plan.bot_names();
    report.removed_bots = known
        .keys()
        .filter(|n| !names.iter().any(|m| m == *n))
        .map(|n| n.to_string())
        .collect();
    // Only the games up to the furthest index kept of each pairing are
    // looked up (without a shard): the rest are not in the folder.
    let furthest = furthest_kept(&store);
    let per_pairing = u64::from(plan.games_per_pairing);
    for (p, &(i, j)) in schedule.pairings().iter().enumerate() {
        let of = |list: &[String]| [i, j].iter().any(|&b| list.contains(&plan.bots[b].name));
        let (mut scheduled, mut done) = (0, 0);
        let looked = match (
            options.shard,
            furthest.get(&pair_of(&contents[i], &contents[j])),
        ) {
            (None, None) => 0,
            (None, Some(&last)) => ((last | 1) + 1).min(per_pairing),
            (Some(_), _) => per_pairing,
        };
        for game in (0..looked).filter_map(|k| schedule.game(schedule.number_of(p, k)?)) {
            if options.shard.is_some_and(|s| !s.contains(&game)) {
                continue;
            }
            scheduled += 1;
            let id = game.identity.expect("a scheduled game has an identity");
            if store.has(&id) {
                done += 1;
                in_standings.insert(id);
            }
        }
        if options.shard.is_none() {
            scheduled += per_pairing - looked;
        }
        report.scheduled += scheduled;
        report.already_played += done;
        let missing = scheduled - done;
        if of(&report.new_bots) {
            report.new_bot += missing;
        } else if of(&report.changed_bots) {
            report.changed_bot += missing;
        } else {
            report.never_played += missing;
        }
    }
    if options.shard.is_none() {
        report.kept_aside = store.ids().filter(|id| !in_standings.contains(id)).count() as u64;
    }
    Ok(report)
}

/// Transcripts hold the codes of finished games: their folder is the
/// referee's user's alone, so that bots (under strict, users of their own)
/// cannot read their opponents' past codes.
fn transcripts_folder(out: &Path) -> Result<PathBuf, TournamentError> {
    let transcripts = out.join("transcripts");
    std::os::unix::fs::DirBuilderExt::mode(fs::DirBuilder::new().recursive(true), 0o700)
        .create(&transcripts)
        .and_then(|()| {
            fs::set_permissions(
                &transcripts,
                std::os::unix::fs::PermissionsExt::from_mode(0o700),
            )
        })
        .map_err(io_error(&transcripts, "cannot create the folder"))?;
    Ok(transcripts)
}

/// One game of the schedule, with its transcript; whether the transcript
/// could not be written (the game is then played again without one: a full
/// disk must not cost the game).
fn play_game(
    plan: &TournamentPlan,
    key: &crate::key::RunKey,
    out: &Path,
    transcripts: &Path,
    game: ScheduledGame,
) -> (ScheduledGame, Result<MatchRecord, MatchError>, bool) {
    let match_plan = MatchPlan {
        config: plan.config.clone(),
        seed: game.seed,
        key: key.clone(),
        bots: [
            plan.bots[game.a].command.clone(),
            plan.bots[game.b].command.clone(),
        ],
        limits: [
            plan.bots[game.a].limits.clone(),
            plan.bots[game.b].limits.clone(),
        ],
    };
    let path = transcript_path(out, transcripts, &game);
    let result = play_match(&match_plan, Some(&path));
    if let Err(MatchError::Transcript { .. }) = result {
        return (game, play_match(&match_plan, None), true);
    }
    (game, result, false)
}

/// Where a game's transcript is written while it is played: a kept game's
/// beside the store, under a name of its own until it is kept (two games
/// of one identity may be played at once, by bots of the same content).
fn transcript_path(out: &Path, transcripts: &Path, game: &ScheduledGame) -> PathBuf {
    match game.identity {
        Some(id) => {
            let kept = Store::transcript_path(out, &id);
            kept.with_file_name(format!(".{}.{}.part", id.to_hex(), game.number))
        }
        None => transcripts.join(format!("game-{:06}.jsonl", game.number)),
    }
}

/// Where games are kept by identity, and the contents of the plan's bots.
struct Keeping {
    store: Store,
    contents: Vec<String>,
}

/// What the games of this run came to, as they finish.
#[derive(Default)]
struct Played {
    /// Round robins and gauntlets: the store each game is kept in.
    keeping: Option<Keeping>,
    now: u64,
    not_played: u64,
    not_played_why: Option<String>,
    transcript_failures: u64,
    error: Option<TournamentError>,
    /// The games recorded, kept for the next round's pairing (formats
    /// played in rounds only).
    rows: Option<Vec<(u64, PlayedGame)>>,
    /// Formats played in rounds: the block's games are recorded in the
    /// order of their numbers, whatever order they end in.
    in_order: Option<InOrder>,
}

/// Games that ended before a game numbered before them, held back until
/// it is recorded (or is not: interrupted, not started), so that
/// `games.csv` is in schedule order, as a resumed run's is. A killed
/// referee loses those too; `--resume` plays them again, with the same
/// seeds.
struct InOrder {
    /// The numbers of the block's games handed out or to hand out, in
    /// order, not yet recorded.
    upcoming: std::collections::VecDeque<u64>,
    /// Games ended (with their record, `None` if not to be recorded) whose
    /// turn has not come.
    held: std::collections::BTreeMap<u64, Option<(ScheduledGame, MatchRecord)>>,
}

impl Played {
    /// Records a finished game through the reporters (in number order, for
    /// the formats played in rounds), or says why it is not recorded;
    /// stops the run when results could not be kept.
    fn take(
        &mut self,
        plan: &TournamentPlan,
        out: &Path,
        game: ScheduledGame,
        result: Result<MatchRecord, MatchError>,
        transcript_failed: bool,
        reporters: &mut dyn Reporter,
    ) -> Flow {
        self.transcript_failures += u64::from(transcript_failed);
        let transcript = game
            .identity
            .map(|id| (id, transcript_path(out, Path::new(""), &game)));
        if let (Some((_, part)), Err(_)) = (&transcript, &result) {
            let _ = fs::remove_file(part);
        }
        let (record, flow) = match result {
            Ok(record) => (Some((game, record)), Flow::Go),
            // Interrupted games are not recorded: resume plays them.
            Err(MatchError::Interrupted) | Err(MatchError::Transcript { .. }) => (None, Flow::Go),
            // The system would not start a bot, even after retries: the
            // game is not played (nobody's loss); resume plays it.
            Err(e @ MatchError::NotStarted { .. }) => {
                self.not_played += 1;
                self.not_played_why.get_or_insert(e.to_string());
                (None, Flow::Go)
            }
            // The referee cannot compile bots here (no compiler, no
            // cache): no game can be judged fairly, so stop.
            Err(e @ MatchError::Compiler { .. }) => {
                self.error.get_or_insert(TournamentError::Match(e));
                bot::request_stop();
                (None, Flow::Stop)
            }
        };
        let Some(in_order) = &mut self.in_order else {
            return match record {
                Some((game, record)) => self.record(plan, out, game, &record, reporters),
                None => flow,
            };
        };
        in_order.held.insert(game.number, record);
        let mut due = vec![];
        while let Some(&next) = in_order.upcoming.front() {
            let Some(ended) = in_order.held.remove(&next) else {
                break;
            };
            in_order.upcoming.pop_front();
            due.extend(ended);
        }
        for (game, record) in due {
            if self.record(plan, out, game, &record, reporters) == Flow::Stop {
                return Flow::Stop;
            }
        }
        flow
    }

    /// Records the games still held back, in order: the block is over, and
    /// the games before them will not be recorded in this run.
    fn write_held_back(&mut self, plan: &TournamentPlan, out: &Path, reporters: &mut dyn Reporter) {
        let Some(in_order) = self.in_order.take() else {
            return;
        };
        for (game, record) in in_order.held.into_values().flatten() {
            if self.record(plan, out, game, &record, reporters) == Flow::Stop {
                return;
            }
        }
    }

    /// Keeps a game (round robins and gauntlets: in the store) and hands
    /// its row to the reporters.
    fn record(
        &mut self,
        plan: &TournamentPlan,
        out: &Path,
        game: ScheduledGame,
        record: &MatchRecord,
        reporters: &mut dyn Reporter,
    ) -> Flow {
        let transcript = game
            .identity
            .map(|id| (id, transcript_path(out, Path::new(""), &game)));
        let row = to_row(plan, game, record);
        if let (Some(keeping), Some((id, part))) = (&mut self.keeping, transcript) {
            // The transcript first: a game kept always has its transcript.
            if part.exists() {
                let _ = fs::rename(&part, Store::transcript_path(out, &id));
            }
            let stored = StoredGame {
                id: id.to_hex(),
                contents: [
                    keeping.contents[game.a].clone(),
                    keeping.contents[game.b].clone(),
                ],
                index: game.index,
                row: row.clone(),
            };
            if let Err(e) = keeping.store.append(id, stored) {
                self.error.get_or_insert(e.into());
                bot::request_stop();
                return Flow::Stop;
            }
        }
        let place = Place::Tournament { row: &row };
        if let Err(e) = reporters.game_finished(record, &place) {
            self.error.get_or_insert(e.into());
            bot::request_stop();
            return Flow::Stop;
        }
        self.now += 1;
        if let Some(rows) = &mut self.rows {
            rows.push((
                game.number,
                PlayedGame {
                    a: game.a,
                    b: game.b,
                    seed: game.seed,
                    winner: record.winner,
                },
            ));
        }
        Flow::Go
    }
}

impl FolderMeta {
    /// Keeps `total` as the games the tournament plays, in the folder's
    /// `tournament.json` (the report's "N of M games").
    fn record_total(&mut self, out: &Path, total: u64) -> Result<(), TournamentError> {
        if self.total_games == total {
            return Ok(());
        }
        self.total_games = total;
        self.write(out)
    }

    fn write(&self, out: &Path) -> Result<(), TournamentError> {
        let path = out.join("tournament.json");
        let json = serde_json::to_string_pretty(self).expect("meta serializes");
        atomic_file::write(&path, json).map_err(io_error(&path, "cannot write"))
    }
}

fn prepare_folder(
    plan: &TournamentPlan,
    options: &RunOptions,
) -> Result<FolderMeta, TournamentError> {
    let out = &options.out;
    let source_path = out.join("tournament.toml");
    if fs::metadata(out).is_ok_and(|m| !m.is_dir()) {
        return Err(TournamentError::Unwritable {
            path: out.clone(),
            what: "cannot be the results folder",
            source: io::Error::other("it is a file, not a folder"),
        });
    }
    let has_results = input_file::is_there(&out.join(GAMES_CSV));
    if has_results && !options.resume && !options.update {
        return Err(TournamentError::FolderInUse { path: out.clone() });
    }
    if input_file::is_there(&source_path) {
        let existing = input_file::read_to_string(&source_path, Links::Refused, TEXT_CAP)?;
        if existing != plan.source {
            if !options.update {
                return Err(TournamentError::FolderOfAnother { path: out.clone() });
            }
            if plan.format.has_rounds() {
                return Err(TournamentError::UpdateOfRounds {
                    path: out.clone(),
                    format: plan.format.name(),
                });
            }
        }
    }
    let unwritable = |what| {
        let path = out.clone();
        move |source| TournamentError::Unwritable { path, what, source }
    };
    fs::create_dir_all(out).map_err(unwritable("cannot create the results folder"))?;
    atomic_file::write(&source_path, &plan.source)
        .map_err(unwritable("cannot write tournament.toml in it"))?;
    let meta = FolderMeta {
        version: 1,
        name: plan.name.clone(),
        game: plan.config.game_name().to_string(),
        bots: plan.bot_names(),
        scoring: (plan.scoring.win, plan.scoring.draw, plan.scoring.loss),
        total_games: plan.format.rules(plan).announced_games(plan),
        shard: options.shard.map(|s| (s.index, s.count)),
        format: plan.format.name().into(),
        challengers: plan
            .challengers
            .iter()
            .map(|&c| plan.bots[c].name.clone())
            .collect(),
    };
    meta.write(out)?;
    if plan.format.has_knockout() {
        keep_seeds(plan, &out.join("seeds.csv"))?;
    }
    Ok(meta)
}

/// A knockout's seeds, kept in its folder on the first run (`seed,bot`)
/// and compared on resume: `seeds_from` reads another folder, which may
/// have changed since, and the bracket must stay the one begun.
fn keep_seeds(plan: &TournamentPlan, path: &Path) -> Result<(), TournamentError> {
    let mut text = String::from("seed,bot\n");
    let mut writer = crate::reporter::csv::SafeWriter::new(
        csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(vec![]),
        false,
    );
    for (seed, &bot) in plan.seeds.iter().enumerate() {
        writer
            .write_record([(seed + 1).to_string(), plan.bots[bot].name.clone()])
            .expect("writing to memory cannot fail");
    }
    text.push_str(&String::from_utf8_lossy(
        &writer.into_inner().expect("writing to memory cannot fail"),
    ));
    if input_file::is_there(path) {
        let then = input_file::read_to_string(path, Links::Refused, TEXT_CAP)?;
        if then != text {
            let order = |t: &str| {
                t.lines()
                    .skip(1)
                    .filter_map(|l| l.split_once(','))
                    .map(|(s, b)| format!("{s}. {b}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(TournamentError::SeedsChanged {
                path: path.to_path_buf(),
                then: order(&then),
                now: order(&text),
            });
        }
        return Ok(());
    }
    atomic_file::write(path, text).map_err(io_error(path, "cannot write"))
}

/// The game numbers already in `games.csv`. A last row cut short by a kill
/// is removed first (its game is played again), so the file ends on a whole
/// row.
fn read_done_games(path: &Path) -> Result<BTreeSet<u64>, TournamentError> {
    if !input_file::is_there(path) {
        return Ok(BTreeSet::new());
    }
    // Streamed: the file may hold millions of rows.
    let mut reader = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let mut rows = WholeRows::default();
    let mut chunk = vec![0; 1 << 16];
    loop {
        let n =
            io::Read::read(&mut reader, &mut chunk).map_err(|e| input_file::taken_back(e, path))?;
        if n == 0 {
            break;
        }
        rows.feed(&chunk[..n]);
    }
    if rows.end < rows.seen {
        let file = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)
            .map_err(io_error(path, "cannot repair"))?;
        input_file::check_regular(&file, path, TABLE_CAP)?;
        file.set_len(rows.end)
            .and_then(|()| file.sync_all())
            .map_err(io_error(path, "cannot repair"))?;
    }
    let mut done = BTreeSet::new();
    for_each_row(path, |row| {
        done.insert(row.game);
        Ok(())
    })?;
    Ok(done)
}

/// Where the last whole row of CSV text ends: after the last line break
/// outside quotes. A row cut short (even inside a quoted field holding a
/// line break) lies beyond it.
#[cfg(test)]
fn whole_rows_end(bytes: &[u8]) -> usize {
    let mut rows = WholeRows::default();
    rows.feed(bytes);
    rows.end as usize
}

/// [`whole_rows_end`] of a file read in chunks.
#[derive(Default)]
struct WholeRows {
    quoted: bool,
    /// Where the last whole row seen ends.
    end: u64,
    /// The bytes seen.
    seen: u64,
}

impl WholeRows {
    fn feed(&mut self, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'"' => self.quoted = !self.quoted,
                b'\n' if !self.quoted => self.end = self.seen + i as u64 + 1,
                _ => {}
            }
        }
        self.seen += bytes.len() as u64;
    }
}

/// Refuses to append to a `games.csv` whose header is not the one this
/// referee writes (a folder resumed by a newer referee). No file, or an
/// empty one, is fine: it gets the header with its first row.
fn check_columns(path: &Path) -> Result<(), TournamentError> {
    if fs::symlink_metadata(path).map_or(true, |m| m.len() == 0) {
        return Ok(());
    }
    let file = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let found = csv::Reader::from_reader(file)
        .headers()
        .map_err(|e| TournamentError::BadRow {
            path: path.to_path_buf(),
            line: 1,
            message: e.to_string(),
        })?
        .clone();
    let wanted = GameRow::columns();
    if found == wanted {
        return Ok(());
    }
    let missing: Vec<&str> = wanted
        .iter()
        .filter(|c| !found.iter().any(|f| f == *c))
        .collect();
    let extra: Vec<&str> = found
        .iter()
        .filter(|c| !wanted.iter().any(|w| w == *c))
        .collect();
    let differ = match (missing.is_empty(), extra.is_empty()) {
        (true, true) => "in their order".to_string(),
        (false, true) => format!("it lacks {}", missing.join(", ")),
        (true, false) => format!("it has {} besides", extra.join(", ")),
        (false, false) => format!(
            "it lacks {} and has {} besides",
            missing.join(", "),
            extra.join(", ")
        ),
    };
    Err(TournamentError::OtherColumns {
        path: path.to_path_buf(),
        differ,
    })
}

/// Streams the rows of a games.csv file.
pub fn for_each_row(
    path: &Path,
    mut each: impl FnMut(GameRow) -> Result<(), String>,
) -> Result<u64, TournamentError> {
    let file = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let mut reader = csv::Reader::from_reader(file);
    let mut count = 0;
    for (i, row) in
        crate::reporter::csv::deserialize_restored::<GameRow, _>(&mut reader).enumerate()
    {
        let line = i + 2;
        let row = row
            .map_err(|e| e.to_string())
            .and_then(GameRow::upgraded)
            .map_err(|message| TournamentError::BadRow {
                path: path.to_path_buf(),
                line,
                message,
            })?;
        each(row).map_err(|message| TournamentError::BadRow {
            path: path.to_path_buf(),
            line,
            message,
        })?;
        count += 1;
    }
    Ok(count)
}

/// Recomputes standings (crosstable, timings) from the `games.csv` of
/// `out`, ranked as its format ranks ([`ranking_of`]); returns them and
/// the number of rows.
pub fn standings_of(
    out: &Path,
    names: &[String],
    scoring: Scoring,
) -> Result<(Standings, u64), TournamentError> {
    let games_path = out.join(GAMES_CSV);
    // Standings only sum integers (points, half-points, microseconds), so
    // the order rows were appended in does not matter: one streaming pass.
    let mut standings = Standings::new(names, scoring);
    let count = for_each_row(&games_path, |row| standings.add(&row))?;
    standings.rank_by(ranking_of(out)?);
    Ok((standings, count))
}

/// How the standings of the results folder `out` are ranked: a
/// gauntlet's by its challengers (`tournament.json`), a knockout's by the
/// rounds of its `bracket.csv` as last written; else by points (a folder
/// without `tournament.json` too).
pub fn ranking_of(out: &Path) -> Result<Ranking, TournamentError> {
    let meta_path = out.join("tournament.json");
    let Ok(text) = fs::read_to_string(&meta_path) else {
        return Ok(Ranking::Points);
    };
    let meta: FolderMeta =
        serde_json::from_str(&text).map_err(|e| TournamentError::BadFolderFile {
            path: meta_path.clone(),
            message: format!("not a results description: {e}"),
        })?;
    if meta.format == Format::Gauntlet.name() {
        return Ok(Ranking::Gauntlet {
            challengers: meta.challengers.into_iter().collect(),
        });
    }
    let bracket_path = out.join("bracket.csv");
    if !bracket_path.exists() {
        return Ok(Ranking::Points);
    }
    let matches = csv::Reader::from_path(&bracket_path)
        .and_then(|mut r| r.deserialize::<BracketRow>().collect::<Result<Vec<_>, _>>())
        .map_err(|e| TournamentError::BadFolderFile {
            path: bracket_path.clone(),
            message: format!("not a bracket: {e}"),
        })?;
    Ok(Ranking::Knockout {
        reached: knockout::rounds_reached(&matches),
    })
}

fn to_row(plan: &TournamentPlan, game: ScheduledGame, record: &MatchRecord) -> GameRow {
    let [a, b] = &record.players;
    let name_a = plan.bots[game.a].name.clone();
    let name_b = plan.bots[game.b].name.clone();
    let detail = record
        .players
        .iter()
        .zip([&name_a, &name_b])
        .filter_map(|(p, name)| {
            p.disqualification
                .as_ref()
                .map(|d| format!("{name}: {} at reply {}: {}", d.verdict, d.at_move, d.detail))
        })
        .collect::<Vec<_>>()
        .join("; ");
    GameRow {
        game: game.number,
        seed: game.seed,
        result: Some(record.winner),
        winner: match record.winner {
            Winner::A => name_a.clone(),
            Winner::B => name_b.clone(),
            Winner::Draw => String::new(),
        },
        first: match record.first {
            Seat::A => name_a.clone(),
            Seat::B => name_b.clone(),
        },
        bot_a: name_a,
        bot_b: name_b,
        reason: record.reason.clone(),
        attacks_a: a.attacks,
        attacks_b: b.attacks,
        verdict_a: a.verdict,
        verdict_b: b.verdict,
        replies_a: a.replies,
        replies_b: b.replies,
        time_total_ms_a: a.time_total_ms,
        time_max_ms_a: a.time_max_ms,
        time_total_ms_b: b.time_total_ms,
        time_max_ms_b: b.time_max_ms,
        cpu_ms_a: a.cpu_total_ms,
        cpu_ms_b: b.cpu_total_ms,
        cpu_max_ms_a: a.cpu_max_ms,
        cpu_max_ms_b: b.cpu_max_ms,
        peak_memory_kb_a: a.peak_memory_kb,
        peak_memory_kb_b: b.peak_memory_kb,
        detail,
    }
}

/// Writes `games.csv` from the store: the games of the schedule (of
/// `shard`) the store has, in schedule order, numbered and named as now;
/// and links each one's transcript as `transcripts/game-NNNNNN.jsonl`.
/// Games of bots removed or replaced stay in the store only. Returns the
/// number of games written.
///
/// Only the games up to the furthest index the store has of each pairing's
/// two contents are looked at: a tournament of billions of games with a few
/// played starts at once.
fn publish(
    plan: &TournamentPlan,
    out: &Path,
    schedule: &Schedule,
    shard: Option<Shard>,
    store: &Store,
) -> Result<u64, TournamentError> {
    let contents = schedule.identities().content_hexes();
    let furthest = furthest_kept(store);
    let mut numbers: Vec<u64> = vec![];
    for (p, &(i, j)) in schedule.pairings().iter().enumerate() {
        if let Some(&last) = furthest.get(&pair_of(&contents[i], &contents[j])) {
            // Both seats of the last pair.
            numbers.extend((0..=(last | 1)).filter_map(|k| schedule.number_of(p, k)));
        }
    }
    numbers.sort_unstable();
    let mut links: Vec<(u64, Hash256)> = vec![];
    // A row the store cannot read stops the writing; the store's error is
    // the one to report.
    let mut unread: Option<StoreError> = None;
    let written_csv = write_atomically(&out.join(GAMES_CSV), |w| {
        for game in numbers.iter().filter_map(|&n| schedule.game(n)) {
            if shard.is_some_and(|s| !s.contains(&game)) {
                continue;
            }
            let Some(id) = game.identity else { continue };
            let stored = match store.get(&id) {
                Ok(Some(stored)) => stored,
                Ok(None) => continue,
                Err(e) => {
                    let stop = io::Error::other(e.to_string());
                    unread = Some(e);
                    return Err(stop.into());
                }
            };
            links.push((game.number, id));
            w.serialize(as_now(plan, &game, &stored.row))?;
        }
        // The header even with no rows: this run's rows are appended to it.
        if links.is_empty() {
            w.write_record(&GameRow::columns())?;
        }
        Ok(())
    });
    if let Some(e) = unread {
        return Err(e.into());
    }
    written_csv?;
    let transcripts = transcripts_folder(out)?;
    let entries = fs::read_dir(&transcripts).map_err(io_error(&transcripts, "cannot read"))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("game-") && name.ends_with(".jsonl") {
            let path = entry.path();
            fs::remove_file(&path).map_err(io_error(&path, "cannot remove"))?;
        }
    }
    let written = links.len() as u64;
    for (number, id) in links {
        let from = super::store::Store::transcript_path(out, &id);
        // Only a regular file: a link put there is not followed.
        if !fs::symlink_metadata(&from).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let dest = transcripts.join(format!("game-{number:06}.jsonl"));
        link_or_copy(&from, &dest)?;
    }
    Ok(written)
}

/// Two bots' contents, in either seat, as one key.
fn pair_of<'a>(x: &'a str, y: &'a str) -> (&'a str, &'a str) {
    if x <= y {
        (x, y)
    } else {
        (y, x)
    }
}

/// The furthest index within its pairing of the games kept of each pair of
/// contents.
fn furthest_kept(store: &Store) -> std::collections::HashMap<(&str, &str), u64> {
    let mut furthest = std::collections::HashMap::new();
    for (index, [x, y]) in store.indexes() {
        let at = furthest.entry(pair_of(x, y)).or_insert(0);
        *at = (*at).max(index);
    }
    furthest
}

/// A kept game's row as the tournament is now: its number in the schedule,
/// and the bots' names of the file (a bot renamed keeps its games).
fn as_now(plan: &TournamentPlan, game: &ScheduledGame, then: &GameRow) -> GameRow {
    let name_a = plan.bots[game.a].name.clone();
    let name_b = plan.bots[game.b].name.clone();
    let mut row = then.clone();
    row.game = game.number;
    row.first = if then.first == then.bot_a {
        name_a.clone()
    } else {
        name_b.clone()
    };
    row.winner = match then.result {
        Some(Winner::A) => name_a.clone(),
        Some(Winner::B) => name_b.clone(),
        _ => then.winner.clone(),
    };
    if then.bot_a != name_a || then.bot_b != name_b {
        row.detail = then
            .detail
            .split("; ")
            .map(|part| {
                if let Some(rest) = part.strip_prefix(&format!("{}: ", then.bot_a)) {
                    format!("{name_a}: {rest}")
                } else if let Some(rest) = part.strip_prefix(&format!("{}: ", then.bot_b)) {
                    format!("{name_b}: {rest}")
                } else {
                    part.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
    }
    row.bot_a = name_a;
    row.bot_b = name_b;
    row
}

/// Combines shard folders into `out`: the rows of all shards in game order,
/// then standings and crosstable exactly as one run would write them. A
/// set of folders that is not the whole tournament once (games missing, a
/// shard given twice) is refused before anything is written, unless
/// `partial` says it is meant.
pub fn merge(
    folders: &[PathBuf],
    out: &Path,
    partial: bool,
) -> Result<(Vec<StandingRow>, u64, u64), TournamentError> {
    let mut meta: Option<(FolderMeta, String, PathBuf)> = None;
    let mut shards: Vec<GivenShard> = vec![];
    let mut rows: std::collections::BTreeMap<u64, GameRow> = Default::default();
    let mut first_key: Option<(crate::key::RefereeKey, PathBuf)> = None;
    let mut keyless: Option<PathBuf> = None;
    for folder in folders {
        let meta_path = folder.join("tournament.json");
        let text = match input_file::read_to_string(&meta_path, Links::Refused, TEXT_CAP) {
            Err(e) if e.is_not_found() => {
                return Err(TournamentError::Merge {
                    path: meta_path,
                    message: "not there: is this a results folder of `referee tournament`?".into(),
                })
            }
            read => read?,
        };
        let this: FolderMeta = serde_json::from_str(&text).map_err(|e| TournamentError::Merge {
            path: meta_path.clone(),
            message: format!("not a results description: {e}"),
        })?;
        let this_shard = this.shard;
        if Format::from_name(&this.format).is_some_and(Format::has_rounds) {
            return Err(TournamentError::Merge {
                path: folder.clone(),
                message: format!(
                    "holds a {} tournament, which is played whole (no shards: each round \
                     depends on the rounds before); its results are complete in it",
                    this.format
                ),
            });
        }
        let source_path = folder.join("tournament.toml");
        let source = input_file::read_to_string(&source_path, Links::Refused, TEXT_CAP)?;
        match &meta {
            None => meta = Some((this, source, folder.clone())),
            Some((_, first_source, first)) if *first_source != source => {
                return Err(TournamentError::Merge {
                    path: folder.clone(),
                    message: format!(
                        "was played from a different tournament file than {}",
                        first.display()
                    ),
                })
            }
            Some(_) => {}
        }
        // Shards of one tournament drew their games with one key; a folder
        // with another key played other games (codes, the bots' seeds).
        let key_path = folder.join(crate::key::KEY_FILE);
        if !input_file::is_there(&key_path) {
            keyless.get_or_insert_with(|| folder.clone());
        } else {
            let key = crate::key::RefereeKey::read_kept(&key_path)?;
            match &first_key {
                None => first_key = Some((key, folder.clone())),
                Some((first, first_folder)) if *first != key => {
                    return Err(TournamentError::Merge {
                        path: folder.clone(),
                        message: format!(
                            "was played with another secret key than {} (its referee.key \
                             differs): give every shard the same --key-file",
                            first_folder.display()
                        ),
                    })
                }
                Some(_) => {}
            }
        }
        let real = fs::canonicalize(folder).unwrap_or_else(|_| folder.clone());
        if let Some(first) = shards
            .iter()
            .find(|s| s.real == real || (this_shard.is_some() && s.shard == this_shard))
        {
            if !partial {
                let what = match this_shard {
                    Some((i, n)) => format!("shard {i}/{n}"),
                    None => "the folder".to_string(),
                };
                return Err(TournamentError::Merge {
                    path: folder.clone(),
                    message: format!(
                        "{what} is given twice (also {}): give each shard once, or add \
                         --partial to merge them anyway",
                        first.given.display()
                    ),
                });
            }
        }
        shards.push(GivenShard {
            shard: this_shard,
            real,
            given: folder.clone(),
        });
        // Its transcripts are checked now, before anything is written.
        shard_transcripts(folder)?;
        let games_path = folder.join(GAMES_CSV);
        for_each_row(&games_path, |row| {
            if let Some(existing) = rows.get(&row.game) {
                if existing.bot_a != row.bot_a
                    || existing.bot_b != row.bot_b
                    || existing.seed != row.seed
                {
                    return Err(format!(
                        "game {} differs from the same game in another folder",
                        row.game
                    ));
                }
                return Ok(());
            }
            rows.insert(row.game, row);
            Ok(())
        })?;
    }
    // A folder without a key next to one with: nothing tells that it was
    // played with the same key (folders of referees before keys have none).
    if let (Some(folder), Some((_, keyed))) = (&keyless, &first_key) {
        return Err(TournamentError::Merge {
            path: folder.clone(),
            message: format!(
                "has no {} while {} has one: nothing shows it was played with the same secret \
                 key; copy that shard's key back, or play it again with --key-file",
                crate::key::KEY_FILE,
                keyed.display()
            ),
        });
    }
    let Some((meta, source, _)) = meta else {
        return Err(TournamentError::Merge {
            path: out.to_path_buf(),
            message: "no folders to merge".into(),
        });
    };
    let merged = rows.len() as u64;
    if merged < meta.total_games && !partial {
        let given: BTreeSet<u32> = shards
            .iter()
            .filter_map(|s| s.shard.map(|(i, _)| i))
            .collect();
        let count = shards.iter().find_map(|s| s.shard.map(|(_, n)| n));
        let not_given: Vec<String> = count
            .map(|n| {
                (1..=n)
                    .filter(|i| !given.contains(i))
                    .map(|i| format!("{i}/{n}"))
                    .collect()
            })
            .unwrap_or_default();
        let why = if not_given.is_empty() {
            "a shard not finished? finish it with --resume".to_string()
        } else {
            format!("shard {} not given", not_given.join(", "))
        };
        return Err(TournamentError::Merge {
            path: out.to_path_buf(),
            message: format!(
                "{} of the tournament's {} games are missing from these folders ({why}); \
                 nothing was written: add --partial to merge the games there are",
                meta.total_games - merged,
                meta.total_games
            ),
        });
    }
    fs::create_dir_all(out).map_err(io_error(out, "cannot create the folder"))?;
    let games_path = out.join(GAMES_CSV);
    write_atomically(&games_path, |w| {
        rows.values().try_for_each(|row| w.serialize(row))
    })?;
    atomic_file::write(&out.join("tournament.toml"), source)
        .map_err(io_error(out, "cannot write tournament.toml"))?;
    let merged_meta = FolderMeta {
        shard: None,
        ..meta.clone()
    };
    atomic_file::write(
        &out.join("tournament.json"),
        serde_json::to_string_pretty(&merged_meta).expect("meta serializes"),
    )
    .map_err(io_error(out, "cannot write tournament.json"))?;
    let (win, draw, loss) = meta.scoring;
    let (standings, count) = standings_of(out, &meta.bots, Scoring { win, draw, loss })?;
    write_tables(out, &standings)?;
    merge_transcripts(folders, out)?;
    Ok((standings.rows(), count, meta.total_games))
}

/// A folder given to `merge`: its shard (`I/N`, none for a whole run) and
/// where it really is, to name a shard given twice or not given.
struct GivenShard {
    shard: Option<(u32, u32)>,
    real: PathBuf,
    given: PathBuf,
}

/// The shards' transcripts in the merged folder too (hard links where the
/// file system allows, else copies), so that its report has every game's
/// viewer. The folder stays private (0700), as a tournament's is.
fn merge_transcripts(folders: &[PathBuf], out: &Path) -> Result<(), TournamentError> {
    let target = out.join("transcripts");
    for folder in folders {
        let transcripts = shard_transcripts(folder)?;
        if !transcripts.is_empty() && !target.exists() {
            transcripts_folder(out)?;
        }
        for from in transcripts {
            let Some(name) = from.file_name() else {
                continue;
            };
            let dest = target.join(name);
            if !input_file::is_there(&dest) {
                link_or_copy(&from, &dest)?;
            }
        }
    }
    Ok(())
}

/// The transcripts (`*.jsonl`) of a shard's folder, each a regular file of
/// at most [`input_file::TRANSCRIPT_CAP`] bytes: a link, a FIFO or a
/// device there is refused, naming it.
fn shard_transcripts(folder: &Path) -> Result<Vec<PathBuf>, TournamentError> {
    let Ok(entries) = fs::read_dir(folder.join("transcripts")) else {
        return Ok(vec![]);
    };
    let mut found = vec![];
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().ends_with(".jsonl") {
            continue;
        }
        let path = entry.path();
        let regular = entry.file_type().is_ok_and(|t| t.is_file())
            && entry
                .metadata()
                .is_ok_and(|m| m.len() <= input_file::TRANSCRIPT_CAP);
        if !regular {
            input_file::open(&path, Links::Refused, input_file::TRANSCRIPT_CAP)?;
        }
        found.push(path);
    }
    Ok(found)
}

/// A transcript into another folder: a hard link where the file system
/// allows (`link` never follows a link), else a copy of the regular file,
/// at most [`input_file::TRANSCRIPT_CAP`] bytes.
fn link_or_copy(from: &Path, dest: &Path) -> Result<(), TournamentError> {
    if fs::hard_link(from, dest).is_ok() {
        return Ok(());
    }
    input_file::copy(from, dest, input_file::TRANSCRIPT_CAP)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::whole_rows_end;

    #[test]
    fn a_row_cut_short_is_not_a_whole_row() {
        assert_eq!(whole_rows_end(b""), 0);
        assert_eq!(whole_rows_end(b"game,seed\n1,2\n"), 14);
        assert_eq!(whole_rows_end(b"game,seed\n1,2\n3,"), 14);
        assert_eq!(
            whole_rows_end(b"game,seed\n1,2\n3,\"a \"\"b\"\"\nc\"\n"),
            28
        );
        // Cut inside a quoted field, just after a line break in it.
        assert_eq!(whole_rows_end(b"game,seed\n1,2\n3,\"a\n"), 14);
        assert_eq!(whole_rows_end(b"game,se"), 0);
    }
}
