//! Free-for-all tournaments: games of K players (a judge's game of more
//! than two), drawn as tables ([`design`]) so that every bot plays
//! `games_per_bot` games, every seat equally often, and meets every
//! other bot about equally often. Each table is played K times, its seats
//! turned one place each time, with one seed: every bot of the table gets
//! every seat of the same game.
//!
//! Every game is known before any is played (one block, like a round
//! robin): game N is rotation (N - 1) mod K of table (N - 1) / K. Results
//! go to `games.csv` ([`crate::reporter::ffa`]) the moment a game ends;
//! `--resume` reads it back and plays exactly the rest, `--shard I/N`
//! plays the games whose number is I modulo N, and `merge` joins shards
//! by game number. The standings come from the rows in game order
//! ([`crate::model::ffa`]), so they are the same however the games were
//! split or interrupted.

pub mod design;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::bot;
use crate::input_file::{self, Links, TEXT_CAP};
use crate::match_plan::MatchPlan;
pub use crate::model::ffa::FfaProgress;
pub use crate::reporter::folder::{ffa_standings_in as standings_in, is_free_for_all};

use crate::model::ffa::{columns, standings, FfaRow, FfaSeat, FfaStandings};
use crate::pool::{Flow, Pool};
use crate::record::MatchRecord;
use crate::reporter::csv::GAMES_CSV;
use crate::reporter::ffa::{header_of, read_rows, write_tables, FfaGamesCsv};
use crate::runner::MatchError;
use std::sync::{Mutex, PoisonError};

use super::plan::TournamentPlan;
use super::run::play::play_watched;
use super::run::{RunOptions, TournamentError};
use super::schedule::{game_seed, Shard};

/// Mixed into the tournament seed for the tables' seeds, so a
/// free-for-all's games do not share seeds with another format's.
const TABLE_SEED_TAG: u64 = 0x4646_415f_7461_626c;

/// One game of a free-for-all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfaGame {
    /// 1-based, stable across runs and shards.
    pub number: u64,
    /// 0-based.
    pub table: u64,
    pub rotation: u32,
    /// The plan's bots, seat A first.
    pub seats: Vec<usize>,
    /// The table's seed: the same for all its rotations.
    pub seed: u64,
}

/// The games of a free-for-all, from its tables.
#[derive(Clone, Debug)]
pub struct FfaSchedule {
    tables: Vec<Vec<usize>>,
    per_table: usize,
    seed: u64,
}

/// The games a free-for-all of `plan` plays: each bot's games_per_bot,
/// K to a game.
pub fn total_games(plan: &TournamentPlan) -> u64 {
    let k = u64::from(plan.players_per_game.max(1));
    plan.bots.len() as u64 * u64::from(plan.games_per_bot) / k
}

impl FfaSchedule {
    pub fn new(plan: &TournamentPlan) -> FfaSchedule {
        let k = plan.players_per_game as usize;
        FfaSchedule {
            tables: design::tables(
                plan.bots.len(),
                k,
                (plan.games_per_bot / plan.players_per_game) as usize,
                plan.seed,
            ),
            per_table: k,
            seed: plan.seed,
        }
    }

    pub fn tables(&self) -> &[Vec<usize>] {
        &self.tables
    }

    pub fn len(&self) -> u64 {
        (self.tables.len() * self.per_table) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `number` (1-based), if the tournament has it.
    pub fn game(&self, number: u64) -> Option<FfaGame> {
        if number == 0 || number > self.len() {
            return None;
        }
        let k = self.per_table as u64;
        let table = (number - 1) / k;
        let rotation = ((number - 1) % k) as usize;
        let at = &self.tables[table as usize];
        // Turned r places: the table's seat s goes to seat s + r.
        let seats = (0..self.per_table)
            .map(|s| at[(s + self.per_table - rotation) % self.per_table])
            .collect();
        Some(FfaGame {
            number,
            table,
            rotation: rotation as u32,
            seats,
            seed: game_seed(self.seed ^ TABLE_SEED_TAG, table, 0),
        })
    }

    /// The games `shard` plays (all of them without one), in order.
    pub fn games_in(&self, shard: Option<Shard>) -> impl Iterator<Item = FfaGame> + '_ {
        (1..=self.len())
            .filter(move |&n| shard.is_none_or(|s| s.contains_number(n)))
            .filter_map(|n| self.game(n))
    }
}

/// How a free-for-all run ended.
#[derive(Debug, Default)]
pub struct FfaOutcome {
    pub played_now: u64,
    pub total_in_folder: u64,
    /// The games this run (its shard) plays in all.
    pub scheduled: u64,
    pub interrupted: bool,
    pub standings: FfaStandings,
    pub transcript_failures: u64,
    /// Games not played because a bot would not start, or voided by their
    /// judge: `--resume` plays them.
    pub not_played: u64,
    pub not_played_why: Option<String>,
    pub void_games: Vec<u64>,
    pub void_why: Option<String>,
    /// With a `[grading]` section (not in a shard): each team's grade,
    /// written to `grades/grades.csv`.
    pub grades: Option<Vec<crate::model::ffa::PlaceGrade>>,
}

/// Plays the games of a free-for-all the folder lacks, each recorded in
/// `games.csv` as it ends, then writes `standings.csv` and
/// `pairwise.csv` of every game in the folder.
pub fn run(
    plan: &TournamentPlan,
    options: &RunOptions,
    progress: &mut dyn FfaProgress,
) -> Result<FfaOutcome, TournamentError> {
    let out = &options.out;
    let games_path = out.join(GAMES_CSV);
    let source_path = out.join("tournament.toml");
    // The tables depend on every bot of the file: another file's games
    // would not be the new file's. Refused before the folder is touched.
    if options.update && input_file::is_there(&source_path) {
        let existing = input_file::read_to_string(&source_path, Links::Refused, TEXT_CAP)?;
        if existing != plan.source {
            return Err(TournamentError::UpdateOfFreeForAll { path: out.clone() });
        }
    }
    let _lock = super::run::lock_folder(out)?;
    super::run::prepare_folder(plan, options)?;
    let key = crate::key::RunKey::for_folder(out, options.key.clone())?;
    super::run::cut_partial_row(&games_path)?;
    let k = plan.players_per_game as usize;
    if let Some(header) = header_of(&games_path)? {
        let wanted = columns(k);
        if header != wanted {
            return Err(TournamentError::OtherColumns {
                path: games_path.clone(),
                differ: format!(
                    "it has {} columns, a free-for-all of {k} players has {}",
                    header.len(),
                    wanted.len()
                ),
            });
        }
    }
    let schedule = FfaSchedule::new(plan);
    let names = plan.bot_names();
    replay_changed_bots(plan, options, &games_path)?;
    let mut done = BTreeSet::new();
    for row in read_rows(&games_path)? {
        let off = |why: String| {
            TournamentError::from(crate::reporter::folder::FolderError::BadFolderFile {
                path: games_path.clone(),
                message: format!(
                    "game {}: {why}: it does not follow the tournament file",
                    row.game
                ),
            })
        };
        let Some(game) = schedule.game(row.game) else {
            return Err(off("the tournament has no such game".into()));
        };
        let bots: Vec<&str> = row.seats.iter().map(|s| s.bot.as_str()).collect();
        let wanted: Vec<&str> = game.seats.iter().map(|&b| names[b].as_str()).collect();
        if bots != wanted || row.seed != game.seed {
            return Err(off(format!(
                "its bots or seed differ from the schedule's ({})",
                wanted.join(", ")
            )));
        }
        if !done.insert(row.game) {
            return Err(off("it is in the file twice".into()));
        }
    }
    let transcripts = super::run::transcripts_folder(out)?;
    let scheduled = schedule.games_in(options.shard).count() as u64;
    let already = schedule
        .games_in(options.shard)
        .filter(|g| done.contains(&g.number))
        .count() as u64;
    progress.started(out, scheduled, already);
    // Opened with the first game's row: a judge that refuses the game
    // leaves no games.csv behind.
    let mut csv: Option<FfaGamesCsv> = None;
    let mut outcome = FfaOutcome {
        scheduled,
        ..FfaOutcome::default()
    };
    let mut error: Option<TournamentError> = None;
    let mut todo = schedule
        .games_in(options.shard)
        .filter(|g| !done.contains(&g.number));
    let pool = Pool {
        jobs: options.jobs,
        pin: options.pin.as_ref(),
    };
    options.live.prepare(&options.out);
    // Each game's start is told as a worker takes it, and each result as
    // it ends, one at a time: a worker taking a game does not wait for a
    // result being told; its start is told by whoever tells next, before
    // any result.
    let progress = Mutex::new(progress);
    let starts = Mutex::new(Vec::<FfaGame>::new());
    let tell_starts = |progress: &mut dyn FfaProgress| {
        let starts = std::mem::take(&mut *starts.lock().unwrap_or_else(PoisonError::into_inner));
        for game in starts {
            let names: Vec<&str> = game
                .seats
                .iter()
                .map(|&b| plan.bots[b].name.as_str())
                .collect();
            progress.game_started(game.number, game.seed, &names);
        }
    };
    pool.run(
        || {
            let game = todo.next()?;
            starts
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(game.clone());
            if let Ok(mut progress) = progress.try_lock() {
                tell_starts(&mut **progress);
            }
            Some(game)
        },
        |game: FfaGame| {
            let match_plan = MatchPlan {
                config: plan.config.clone(),
                seed: game.seed,
                key: key.clone(),
                bots: game
                    .seats
                    .iter()
                    .map(|&b| plan.bots[b].command.clone())
                    .collect(),
                limits: game
                    .seats
                    .iter()
                    .map(|&b| plan.bots[b].limits.clone())
                    .collect(),
            };
            let path = transcripts.join(format!("game-{:06}.jsonl", game.number));
            let names: Vec<&str> = game
                .seats
                .iter()
                .map(|&b| plan.bots[b].name.as_str())
                .collect();
            let (result, transcript_failed) =
                play_watched(&match_plan, &path, &options.live, game.number, &names);
            (game, result, transcript_failed)
        },
        |(game, result, transcript_failed)| {
            let progress = &mut **progress.lock().unwrap_or_else(PoisonError::into_inner);
            tell_starts(progress);
            outcome.transcript_failures += u64::from(transcript_failed);
            match result {
                Ok(record) => {
                    let row = to_row(plan, &game, &record);
                    let appended = match &mut csv {
                        Some(csv) => csv.append(&row),
                        None => FfaGamesCsv::open(out, k)
                            .and_then(|opened| csv.insert(opened).append(&row)),
                    };
                    if let Err(e) = appended {
                        error.get_or_insert(e.into());
                        bot::request_stop();
                        return Flow::Stop;
                    }
                    outcome.played_now += 1;
                    progress.game_recorded(&row);
                    Flow::Go
                }
                Err(MatchError::Interrupted) | Err(MatchError::Transcript { .. }) => Flow::Go,
                Err(e @ MatchError::NotStarted { .. }) => {
                    outcome.not_played += 1;
                    outcome
                        .not_played_why
                        .get_or_insert(crate::text::with_causes(&e));
                    Flow::Go
                }
                Err(e @ MatchError::Judge { .. }) if !e.is_refused_game() => {
                    outcome.not_played += 1;
                    outcome.void_games.push(game.number);
                    outcome.void_why.get_or_insert(crate::text::with_causes(&e));
                    Flow::Go
                }
                // The judge refused the options or the number of players,
                // a bot cannot be compiled or reached: no game can be.
                Err(e) => {
                    error.get_or_insert(TournamentError::Match(e));
                    bot::request_stop();
                    Flow::Stop
                }
            }
        },
    );
    drop(csv);
    let progress = progress
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(e) = error {
        // Told as a tournament of two-player games tells it.
        let counts = (
            scheduled,
            already + outcome.played_now,
            outcome.transcript_failures,
        );
        let games_path = out.join(GAMES_CSV);
        return Err(super::run::unfinished(out, e, counts, || {
            let rows = read_rows(&games_path)?;
            Ok(write_tables(out, &standings(&names, &rows))?)
        }));
    }
    let mut rows = read_rows(&games_path)?;
    // Rows are appended as games end (two jobs finish out of order), so
    // that a kill loses none; once the run is over the file is written in
    // the schedule's order, and a resumed run's file is an uninterrupted
    // one's, byte for byte.
    if !rows.is_sorted_by_key(|r| r.game) {
        rows.sort_by_key(|r| r.game);
        crate::reporter::csv::write_atomically(&games_path, |w| {
            w.write_record(columns(k))?;
            rows.iter().try_for_each(|row| w.write_record(row.fields()))
        })?;
    }
    outcome.total_in_folder = rows.len() as u64;
    // Of every game in the folder: a resumed run says that transcripts an
    // earlier run could not write (a full disk) are still missing.
    outcome.transcript_failures = rows
        .iter()
        .filter(|r| super::run::transcript_missing(out, r.game))
        .count() as u64;
    outcome.standings = standings(&names, &rows);
    write_tables(out, &outcome.standings)?;
    // A shard holds some of the games: grade the merged folder.
    if let (Some(grading), None) = (&plan.grading, options.shard) {
        let grades = crate::model::ffa::grade_places(grading, &outcome.standings);
        crate::reporter::ffa::write_grades(out, &grades)?;
        outcome.grades = Some(grades);
    }
    outcome.interrupted = bot::stop_requested();
    progress.finished(&crate::model::ffa::FfaEnd {
        standings: &outcome.standings,
        played_now: outcome.played_now,
        total_in_folder: outcome.total_in_folder,
        scheduled: outcome.scheduled,
        interrupted: outcome.interrupted,
        not_played: outcome.not_played,
        not_played_why: outcome.not_played_why.as_deref(),
    });
    Ok(outcome)
}

/// The folder's record of what each bot was when its games were played.
pub const CONTENTS_JSON: &str = "contents.json";

/// Each bot's content as the folder's games were played with it
/// (`contents.json`: name to hash, [`super::identity::bot_content`]),
/// compared with the bots as they are now. A bot changed since: refused
/// on `--resume` (its old games would stand beside new ones); on
/// `--update` its games are taken out of `games.csv` (and their
/// transcripts removed) to be played again. Then the record is the bots
/// as they are now.
fn replay_changed_bots(
    plan: &TournamentPlan,
    options: &RunOptions,
    games_path: &Path,
) -> Result<(), TournamentError> {
    let out = &options.out;
    let path = out.join(CONTENTS_JSON);
    let now: std::collections::BTreeMap<String, String> = plan
        .bot_names()
        .into_iter()
        .zip(super::identity::contents_of(&plan.bots, options.jobs)?)
        .map(|(name, content)| (name, content.to_hex()))
        .collect();
    let then: std::collections::BTreeMap<String, String> = if input_file::is_there(&path) {
        let text = input_file::read_to_string(&path, Links::Refused, TEXT_CAP)?;
        serde_json::from_str(&text).map_err(|e| {
            crate::reporter::folder::FolderError::BadFolderFile {
                path: path.clone(),
                message: format!("not the bots' contents: {e}"),
            }
        })?
    } else {
        Default::default()
    };
    let changed: Vec<&String> = now
        .iter()
        .filter(|(name, content)| then.get(*name).is_some_and(|c| c != *content))
        .map(|(name, _)| name)
        .collect();
    if !changed.is_empty() {
        if !options.update {
            return Err(TournamentError::BotsChanged {
                path: out.clone(),
                bots: changed
                    .iter()
                    .map(|n| format!("'{}'", crate::text::escape(n)))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let rows = read_rows(games_path)?;
        let (stale, kept): (Vec<FfaRow>, Vec<FfaRow>) = rows
            .into_iter()
            .partition(|r| r.seats.iter().any(|s| changed.contains(&&s.bot)));
        if !stale.is_empty() {
            crate::reporter::csv::write_atomically(games_path, |w| {
                w.write_record(columns(plan.players_per_game as usize))?;
                kept.iter().try_for_each(|row| w.write_record(row.fields()))
            })?;
            for row in &stale {
                let _ = std::fs::remove_file(
                    out.join("transcripts")
                        .join(format!("game-{:06}.jsonl", row.game)),
                );
            }
        }
    }
    let json = serde_json::to_string_pretty(&now).expect("names and hashes serialize");
    crate::atomic_file::write(&path, json).map_err(|e| {
        crate::reporter::folder::FolderError::Io {
            path: path.clone(),
            what: "cannot write".into(),
            source: e,
        }
        .into()
    })
}

/// A game's row from its record: the places from the record's ranks (a
/// game of two has none: its winner says them).
fn to_row(plan: &TournamentPlan, game: &FfaGame, record: &MatchRecord) -> FfaRow {
    use crate::games::Winner;
    let ranks: Vec<u32> = match &record.ranks {
        Some(r) => r.clone(),
        None => match record.winner {
            Winner::A => vec![0, 1],
            Winner::B => vec![1, 0],
            Winner::Draw => vec![0, 0],
        },
    };
    let names: Vec<&str> = game
        .seats
        .iter()
        .map(|&b| plan.bots[b].name.as_str())
        .collect();
    let detail = record.disqualifications(&names);
    FfaRow {
        game: game.number,
        seed: game.seed,
        table: game.table + 1,
        rotation: game.rotation,
        reason: record.reason.clone(),
        seats: record
            .players
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(i, (p, name))| FfaSeat {
                bot: name.to_string(),
                place: ranks.get(i).copied().unwrap_or(0) + 1,
                score: record.scores.as_ref().and_then(|s| s.get(i).copied()),
                verdict: p.verdict,
                replies: p.replies,
                time_max_ms: p.time_max_ms,
                peak_memory_kb: p.peak_memory_kb,
            })
            .collect(),
        detail,
    }
}

/// The rows of shard folders joined by game number, for `merge`: a game
/// two folders hold must be the same game.
#[derive(Default)]
pub struct MergedRows {
    rows: std::collections::BTreeMap<u64, FfaRow>,
    seats: Option<(usize, PathBuf)>,
}

impl super::run::MergeRows for MergedRows {
    fn add(&mut self, path: &Path) -> Result<(), TournamentError> {
        let Some(header) = header_of(path)? else {
            return Ok(());
        };
        let seats = header.len().saturating_sub(6) / 7;
        match &self.seats {
            Some((s, first)) if *s != seats => {
                return Err(TournamentError::Merge {
                    path: path.to_path_buf(),
                    message: format!(
                        "has games of {seats} players where {} has {s}",
                        first.display()
                    ),
                })
            }
            Some(_) => {}
            None => self.seats = Some((seats, path.to_path_buf())),
        }
        for row in read_rows(path)? {
            if let Some(existing) = self.rows.get(&row.game) {
                let bots = |r: &FfaRow| r.seats.iter().map(|s| s.bot.clone()).collect::<Vec<_>>();
                if bots(existing) != bots(&row) || existing.seed != row.seed {
                    return Err(TournamentError::Merge {
                        path: path.to_path_buf(),
                        message: format!(
                            "game {} differs from the same game in another folder",
                            row.game
                        ),
                    });
                }
                continue;
            }
            self.rows.insert(row.game, row);
        }
        Ok(())
    }

    fn count(&self) -> u64 {
        self.rows.len() as u64
    }

    fn write(&self, out: &Path) -> Result<(), TournamentError> {
        let seats = self.seats.as_ref().map_or(2, |(s, _)| *s);
        crate::reporter::csv::write_atomically(&out.join(GAMES_CSV), |w| {
            w.write_record(columns(seats))?;
            self.rows
                .values()
                .try_for_each(|row| w.write_record(row.fields()))
        })?;
        Ok(())
    }
}

/// `referee merge` of free-for-all folders: the shards' games joined by
/// number into `out` (checked as every merge is), then `standings.csv`
/// and `pairwise.csv` of them all. Returns the standings, the games
/// merged and the games of the tournament.
pub fn merge(
    folders: &[PathBuf],
    out: &Path,
    partial: bool,
) -> Result<(FfaStandings, u64, u64), TournamentError> {
    let mut rows = MergedRows::default();
    let meta = super::run::merge_folders(folders, out, partial, &mut rows)?;
    let all: Vec<FfaRow> = rows.rows.values().cloned().collect();
    let standings = standings(&meta.bots, &all);
    write_tables(out, &standings)?;
    Ok((standings, all.len() as u64, meta.total_games))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(bots: usize, k: u32, g: u32) -> TournamentPlan {
        let dir = tempfile::tempdir().unwrap();
        let judge = dir.path().join("judge.py");
        std::fs::write(&judge, "print()\n").unwrap();
        let mut text = format!(
            "game = {:?}\nformat = \"free-for-all\"\nplayers_per_game = {k}\ngames_per_bot = {g}\n",
            judge.display().to_string()
        );
        for i in 0..bots {
            text.push_str(&format!("[[bots]]\nname = \"b{i}\"\nbot = \"true\"\n"));
        }
        TournamentPlan::parse(&dir.path().join("t.toml"), &text).unwrap()
    }

    /// Every bot plays every seat equally often, its games_per_bot in
    /// all, and the rotations of a table share its seed.
    #[test]
    fn every_bot_plays_every_seat_equally_often() {
        let plan = plan(6, 4, 8);
        let schedule = FfaSchedule::new(&plan);
        assert_eq!(schedule.len(), total_games(&plan));
        assert_eq!(schedule.len(), 12);
        let mut seats = vec![[0u32; 4]; 6];
        for game in schedule.games_in(None) {
            for (s, &b) in game.seats.iter().enumerate() {
                seats[b][s] += 1;
            }
            let first = schedule.game(game.table * 4 + 1).unwrap();
            assert_eq!(game.seed, first.seed);
        }
        assert!(seats.iter().all(|s| *s == [2, 2, 2, 2]), "{seats:?}");
        // Shards split the games without overlap.
        let one: Vec<u64> = schedule
            .games_in(Some(Shard { index: 1, count: 2 }))
            .map(|g| g.number)
            .collect();
        let two: Vec<u64> = schedule
            .games_in(Some(Shard { index: 2, count: 2 }))
            .map(|g| g.number)
            .collect();
        assert_eq!(one.len() + two.len(), 12);
        assert!(one.iter().all(|n| !two.contains(n)));
    }
}
