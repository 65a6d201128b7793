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
//! written in number order, `InOrder`), then the next round is paired
//! from the rows read back.

pub use crate::model::folder::FolderMeta;
pub use crate::model::tournament::{Outcome, RoundsTables};
pub use crate::reporter::folder::{for_each_row, ranking_of, FolderError};
use std::collections::{BTreeSet, HashSet};
use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::atomic_file;
use crate::bot;
use crate::games::{Seat, Winner};
use crate::input_file::{self, InputError, Links, TABLE_CAP, TEXT_CAP};
use crate::match_plan::MatchPlan;
use crate::pool::{Flow, Pool};
use crate::record::MatchRecord;
use crate::reporter::csv::{write_atomically, write_tables, GAMES_CSV};
use crate::reporter::{Finish, Place, ReportError, Reporter, Run};
use crate::runner::MatchError;

use super::identity::{ContentError, GameIdentities, Hash256};
use super::knockout;
use super::plan::{Format, Scoring, TournamentPlan};
use super::rounds::{OffSchedule, PlayedGame, Results};
use super::schedule::{Schedule, ScheduledGame, Shard};
use super::standings::{GameRow, Ranking, StandingRow, Standings};
use super::store::{self, Store, StoreError, StoredGame};

mod dry_run;
mod folder;
mod merge;
pub(crate) mod play;
mod publish;
mod resume;

pub use dry_run::{dry_run, DryRun};
pub(crate) use folder::prepare_folder;
pub use folder::{lock_folder, FolderLock};
pub use merge::{merge, merge_folders, MergeRows};
pub(crate) use play::transcripts_folder;
pub use resume::standings_of;
pub(crate) use resume::{cut_partial_row, transcript_missing};
use {merge::*, play::*, publish::*, resume::*};

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// Another referee holds the folder's lock (`lock_folder`).
    #[error("{} is being written by another referee now (a tournament, its --resume or its --update): wait for that run to end, or choose another --out", path.display())]
    FolderLocked { path: PathBuf },
    #[error("{} already holds results; add --resume to finish that tournament, --update to play only the games of new or changed bots, or choose another --out", path.display())]
    FolderInUse { path: PathBuf },
    /// `--resume` with a `--shard` other than the one the folder began.
    #[error("{} holds {then}, not {now}: resume it with {with} (a folder finishes what it began), or choose another --out", path.display())]
    ShardOfAnother {
        path: PathBuf,
        then: String,
        now: String,
        with: String,
    },
    #[error("{} holds results of a different tournament file (its tournament.toml differs); add --update to play only what the changes need, or choose another --out", path.display())]
    FolderOfAnother { path: PathBuf },
    /// A file of the results folder that cannot be read or written, or
    /// does not read as one.
    #[error(transparent)]
    Folder(#[from] FolderError),
    #[error("{}: {message}", path.display())]
    Merge { path: PathBuf, message: String },
    /// A results folder started by a referee whose `games.csv` had other
    /// columns: rows appended now would not line up with its header.
    #[error("{} was written by another version of the referee (its columns differ: {differ}); finish that tournament with the referee that started it, or play it again with another --out", path.display())]
    OtherColumns { path: PathBuf, differ: String },
    /// `--shard` with a format played in rounds.
    #[error("--shard: a {format} tournament is played round by round, each round paired from the results of the rounds before, so it cannot be split into shards; play it whole (--jobs N plays a round's games in parallel)")]
    ShardOfRounds { format: &'static str },
    #[error("{} does not follow its tournament file (edited by hand? choose another --out)", path.display())]
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
    /// `--resume`, `--update` or a dry run of a format played in rounds
    /// with a changed file.
    #[error("{} holds a {format} tournament of another file: a {format} tournament is paired round by round from its results, so it cannot take bots added, replaced or removed; play the new file in another --out (or restore the file and --resume)", path.display())]
    UpdateOfRounds { path: PathBuf, format: &'static str },
    /// A round robin or gauntlet folder with games but no store: its
    /// store moved or deleted, or written by a referee that numbered its
    /// games' seeds by their place. Which cannot be told from the folder,
    /// so the missing file is named, with what to do in each case.
    #[error("{} holds games (games.csv) but not store/games.jsonl, the record of its games that --resume and --update play from; nothing was changed. If its store/ folder was moved or deleted, put it back and run again (a line of it that does not read: delete that line and run with --resume); if the folder was written by an older referee (without a store), finish it with that referee; else play the tournament again with another --out", path.display())]
    NoStore { path: PathBuf },
    /// A free-for-all resumed after some of its bots changed.
    #[error("{}: {bots} changed since the folder's games were played (their files are not those played); add --update to play their games again, or restore them and --resume", path.display())]
    BotsChanged { path: PathBuf, bots: String },
    /// `--update` of a free-for-all with a changed file.
    #[error("{} holds a free-for-all of another file: its tables are drawn from every bot of the file, so it cannot take bots added, replaced or removed; play the new file in another --out (or restore the file and --resume)", path.display())]
    UpdateOfFreeForAll { path: PathBuf },
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The run stopped because a result could not be written (a full
    /// disk): the games already kept stay, `--resume` plays the rest. The
    /// reason (with its system error) is said first, then the advice, so
    /// it is not chained as a source.
    #[error("{reason}; the tournament stopped: {not_played} of its {scheduled} games were not played ({kept} are kept in {}, {standings}); free space (or fix the cause), then add --resume to play them", out.display())]
    Unfinished {
        reason: String,
        out: PathBuf,
        not_played: u64,
        scheduled: u64,
        kept: u64,
        /// Whether standings.csv covers the games kept, or why not.
        standings: String,
    },
    /// Every game scheduled was played and kept, but a file written at
    /// the end (the tables, the report) could not be: `--resume` plays
    /// nothing and writes them.
    #[error("{reason}; every game of this run was played and is kept in {} ({kept} games), but the files written at the end (standings, tables, report) are not all there; free space (or fix the cause), then add --resume to write them", out.display())]
    FilesNotWritten {
        reason: String,
        out: PathBuf,
        kept: u64,
    },
    /// A file of the results folder (or a shard) that is not a regular
    /// file, or is too large ([`crate::input_file`]).
    #[error(transparent)]
    Input(#[from] InputError),
    /// `--out` cannot be made or written: a file, a folder of another user.
    /// Its reason is said before the advice, not chained after it.
    #[error("--out {}: {what}: {reason}; give a folder you can write", path.display())]
    Unwritable {
        path: PathBuf,
        what: &'static str,
        reason: io::Error,
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
    move |source| FolderError::Io { path, what, source }.into()
}

impl From<ReportError> for TournamentError {
    fn from(e: ReportError) -> TournamentError {
        FolderError::Io {
            path: e.path,
            what: e.what,
            source: e.source,
        }
        .into()
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
    /// Who is told the running games move by move (their live files,
    /// the stream's `move` events); nobody by default.
    pub live: crate::reporter::live_game::LiveOutput,
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
    let _lock = lock_folder(out)?;
    let mut meta = prepare_folder(plan, options)?;
    let key = crate::key::RunKey::for_folder(out, options.key.clone())?;

    let done = read_done_games(&games_path)?;
    check_columns(&games_path)?;
    let transcripts = transcripts_folder(out)?;
    options.live.prepare(&options.out);
    let mut played = Played::default();
    let pool = Pool {
        jobs: options.jobs,
        pin: options.pin.as_ref(),
    };
    let play = |todo: &mut (dyn Iterator<Item = ScheduledGame> + Send),
                played: &mut Played,
                reporters: &mut dyn Reporter| {
        // Told each game as a worker takes it, and each result as it
        // ends, from whichever worker: one at a time. A worker taking a
        // game does not wait for the reporters (a result being written):
        // its start is told by whoever holds them next, before any result.
        use std::sync::{Mutex, PoisonError};
        let reporters = Mutex::new(reporters);
        let starts = Mutex::new(Vec::<(u64, u64, usize, usize)>::new());
        let tell_starts = |reporters: &mut dyn Reporter| {
            let starts =
                std::mem::take(&mut *starts.lock().unwrap_or_else(PoisonError::into_inner));
            for (number, seed, a, b) in starts {
                reporters.game_started(&crate::reporter::GameStart {
                    number,
                    seed,
                    bots: [&plan.bots[a].name, &plan.bots[b].name],
                });
            }
        };
        pool.run(
            || {
                let game = todo.next()?;
                starts.lock().unwrap_or_else(PoisonError::into_inner).push((
                    game.number,
                    game.seed,
                    game.a,
                    game.b,
                ));
                if let Ok(mut reporters) = reporters.try_lock() {
                    tell_starts(*reporters);
                }
                Some(game)
            },
            |game: ScheduledGame| play_game(plan, &key, out, &transcripts, &options.live, game),
            |(game, result, transcript_failed)| {
                let mut reporters = reporters.lock().unwrap_or_else(PoisonError::into_inner);
                tell_starts(*reporters);
                played.take(plan, out, game, result, transcript_failed, *reporters)
            },
        );
        // Games held back behind one not recorded (stopped, not started).
        let reporters = reporters
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        played.write_held_back(plan, out, reporters);
    };
    let off_schedule = |source| TournamentError::OffSchedule {
        path: games_path.clone(),
        source,
    };

    // The games of the schedule in the folder, at the end of the run.
    let kept_in_folder;
    let (scheduled, mut rounds) = if plan.format.has_rounds() {
        let mut results = Results::default();
        if games_path.exists() {
            for_each_row(&games_path, |row| results.add(plan, &row))?;
        }
        let mut state = plan.format.rules(plan);
        let expected = state.expected_games(plan, &results).map_err(off_schedule)?;
        meta.record_total(out, expected)?;
        reporters.run_started(&Run::Tournament {
            out,
            total: expected,
            already_done: results.len() as u64,
            to_play: expected.saturating_sub(results.len() as u64),
        })?;
        played.rows = Some(vec![]);
        loop {
            let next = state.next_games(plan, &results).map_err(|source| {
                TournamentError::OffSchedule {
                    path: games_path.clone(),
                    source,
                }
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
        kept_in_folder = results.len() as u64;
        if played.error.is_none() {
            meta.record_total(out, expected)?;
        }
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
        kept_in_folder = already_done + played.now;
        if played.error.is_none() {
            publish(plan, out, &schedule, options.shard, &kept)
                .map_err(|e| not_written(e, out, kept_in_folder))?;
        }
        (scheduled, None)
    };
    if let Some(e) = played.error {
        let counts = (scheduled, kept_in_folder, played.transcript_failures);
        return Err(unfinished(out, e, counts, || {
            let (standings, _) = standings_of(out, &plan.bot_names(), plan.scoring)?;
            Ok(write_tables(out, &standings)?)
        }));
    }

    let (mut standings, rows_in_folder) = standings_of(out, &plan.bot_names(), plan.scoring)
        .map_err(|e| not_written(e, out, kept_in_folder))?;
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
        // Of every game in the folder, not only this run's: a resumed
        // run says that transcripts an earlier run could not write are
        // still missing.
        transcript_failures: resume::games_without_transcript(out)
            .map_err(|e| not_written(e, out, kept_in_folder))?,
        not_played: played.not_played,
        not_played_why: played.not_played_why,
        void_games: played.void_games,
        void_why: played.void_why,
        rounds,
    };
    reporters
        .run_finished(&Finish::Tournament {
            standings: &standings,
            outcome: &outcome,
        })
        .map_err(|e| not_written(e.into(), out, kept_in_folder))?;
    Ok(outcome)
}

/// A failure to write a file at a run's end (a full disk, a folder in the
/// way) told with what the folder keeps and that `--resume` writes the
/// files; any other error (a damaged folder, bad input) as it is.
fn not_written(error: TournamentError, out: &Path, kept: u64) -> TournamentError {
    match error {
        TournamentError::Folder(FolderError::Io { .. }) => TournamentError::FilesNotWritten {
            reason: crate::text::with_causes(&error),
            out: out.to_path_buf(),
            kept,
        },
        other => other,
    }
}

/// The error a run stopped on, told with what it left: a result that
/// could not be written (a full disk) says how many games were not played
/// and that `--resume` plays them, after the standings of the games kept
/// are written if they can be (`write_standings`, two-player or
/// free-for-all), and how many transcripts could not be written (their
/// games are kept without one). A match's error (a judge, a compiler) is
/// said as it is: it is not the folder's. `counts`: the games scheduled,
/// kept, and without a transcript.
pub(crate) fn unfinished(
    out: &Path,
    error: TournamentError,
    (scheduled, kept, no_transcript): (u64, u64, u64),
    write_standings: impl FnOnce() -> Result<(), TournamentError>,
) -> TournamentError {
    if matches!(error, TournamentError::Match(_)) {
        return error;
    }
    // A row the full disk cut short is no game (`--resume` plays it
    // again, as after a kill): cut it now, so that the standings of the
    // games kept can be written, and not blamed on a hand's edit.
    let standings = match cut_partial_row(&out.join(GAMES_CSV)).and_then(|()| write_standings()) {
        Ok(()) => "standings.csv covers them".to_string(),
        Err(e) => format!(
            "standings.csv was not written: {}",
            crate::text::with_causes(&e)
        ),
    };
    let standings = match no_transcript {
        0 => standings,
        n => format!("{n} transcripts could not be written, {standings}"),
    };
    TournamentError::Unfinished {
        reason: crate::text::with_causes(&error),
        out: out.to_path_buf(),
        not_played: scheduled.saturating_sub(kept),
        scheduled,
        kept,
        standings,
    }
}

/// A fresh, empty folder for a unit test, named after it.
#[cfg(test)]
fn test_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("referee-run-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&folder);
    fs::create_dir_all(&folder).expect("a folder in the temporary folder");
    folder
}
