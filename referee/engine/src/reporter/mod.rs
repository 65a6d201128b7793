//! The reporter seam: every output of every command (the terminal, CSV
//! files, JSON, JUnit XML) is a [`Reporter`] fed the same events, built
//! from the finished games' [`MatchRecord`]s: a run started, a game
//! finished (with where it belongs), the run finished (with what it found).
//! The commands (`match`, `tournament`, `bench`, `check`, `sprt`) only
//! produce events; the thread that owns a run's results (never a worker)
//! hands them to a [`Reporters`] fan-out, so output never interleaves.
//!
//! A format implements only the events it shows (each has a no-op
//! default), and adding a format is one new file here: a type that
//! implements [`Reporter`], put in a command's [`Reporters`] by the CLI.
//! - [`terminal`]: what a person reads: progress on stderr, accounts,
//!   standings and summaries on stdout;
//! - [`csv`]: `games.csv` (appended and flushed game by game) and the
//!   standings tables of a tournament, the bench's rows;
//! - [`json`]: the match record and the check report on stdout;
//! - [`junit`]: the check report as JUnit XML for CI systems;
//! - [`grades`]: a term contest's grades (`grades/`) and the warning
//!   when a tournament's bots fall into groups that never met;
//! - [`events`]: `--events FILE`, the run as JSON lines, one event a line,
//!   written as things happen (game started, finished, standings);
//! - [`summary`]: `--summary FILE`, a check's or A/B run's Markdown summary;
//! - [`admission`]: `referee collect`'s admission report (CSV and terminal);
//! - [`folder`]: a results folder read back (`games.csv` row by row, how
//!   its standings rank), for the tournament and the reports made from it;
//! - [`html`]: the HTML report of a results folder (leaderboard, a page per
//!   bot, a replay viewer per game), live while a tournament runs.

pub mod admission;
pub mod csv;
pub mod events;
pub mod ffa;
pub mod folder;
pub mod grades;
pub mod html;
pub mod json;
pub mod junit;
pub mod live_game;
pub mod summary;
pub mod terminal;

use std::io;
use std::path::{Path, PathBuf};

/// `x` with `decimals` decimals, as every reporter prints a number that
/// may be negative: never `-0` (a rating of -0.3 shown to the unit is 0).
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(unsigned) if unsigned.bytes().all(|b| b == b'0' || b == b'.') => unsigned.to_string(),
        _ => text,
    }
}

use crate::games::GameConfig;
use crate::model::bench::{BenchRow, BenchSummary, Selection};
use crate::model::check::{AbOutcome, CheckReport};
use crate::model::standings::{GameRow, Standings};
use crate::model::tournament::Outcome;
use crate::record::MatchRecord;
use crate::sprt::{Bounds, Tally};

/// A bot as the outputs name it: its name and its command line.
#[derive(Clone, Copy, Debug)]
pub struct Contender<'a> {
    pub name: &'a str,
    pub command: &'a str,
}

/// What is being run, told once before the first game: what the outputs
/// show of the command's plan, not the plan (the reporters sit below the
/// commands, see [`crate::model`]).
pub enum Run<'a> {
    /// One game (`referee match`).
    Match,
    /// A tournament into the results folder `out`: the games scheduled (in
    /// this shard), those the folder already holds, those left to play.
    Tournament {
        out: &'a Path,
        total: u64,
        already_done: u64,
        to_play: u64,
    },
    /// A bench of `total` solo games, of the secrets `selection` chose.
    Bench { selection: Selection, total: u64 },
    /// The check `name` of `bot` against its `requirements` on `jobs`
    /// threads (its games are not reported one by one; how it goes comes
    /// as [`Reporter::progress`] lines).
    Check {
        name: &'a str,
        bot: Contender<'a>,
        requirements: usize,
        jobs: usize,
    },
    /// An A/B run of NEW against OLD, tested with `bounds`, stopped after
    /// at most `max_games` games.
    Sprt {
        config: &'a GameConfig,
        new: Contender<'a>,
        old: Contender<'a>,
        bounds: Bounds,
        max_games: u64,
    },
}

/// Where a finished game belongs.
pub enum Place<'a> {
    /// The one game of `referee match`.
    Match,
    /// A tournament game: its row in `games.csv` (number, seed, bots by
    /// name, result), and where its transcript was written (if it could be).
    Tournament {
        row: &'a GameRow,
        transcript: &'a Path,
    },
    /// A bench game: its secret's row, and how many games are done of all.
    Bench {
        row: &'a BenchRow,
        done: u64,
        total: u64,
    },
    /// Game `game` (0: NEW at seat A, 1: sides swapped) of an A/B run's
    /// pair number `pair`, told once the pair is counted: the tally and
    /// the log-likelihood ratio with it.
    Sprt {
        pair: u64,
        game: usize,
        tally: &'a Tally,
        llr: f64,
    },
}

/// A tournament game handed to a worker, told as it starts (the seats as
/// scheduled; who moves first is the game's to decide).
pub struct GameStart<'a> {
    pub number: u64,
    pub seed: u64,
    /// Bot A's name, then bot B's.
    pub bots: [&'a str; 2],
}

/// What a run found, told once after its last game.
pub enum Finish<'a> {
    /// A tournament's standings, recomputed from every row of `games.csv`,
    /// and how the run went (games played now, interrupted, not played).
    Tournament {
        standings: &'a Standings,
        outcome: &'a Outcome,
    },
    Bench(&'a BenchSummary),
    Check(&'a CheckReport),
    Sprt(&'a AbOutcome),
}

/// A format's failure to write: which file, doing what.
#[derive(Debug, thiserror::Error)]
#[error("{}: {what}", path.display())]
pub struct ReportError {
    pub path: PathBuf,
    pub what: String,
    #[source]
    pub source: io::Error,
}

impl ReportError {
    pub fn new(path: &Path, what: &str, source: io::Error) -> ReportError {
        ReportError {
            path: path.to_path_buf(),
            what: what.to_string(),
            source,
        }
    }
}

/// One output format. Every event has a default that shows nothing.
/// `Send`: a tournament's results are reported by the worker that played
/// the game (`pool`).
pub trait Reporter: Send {
    fn run_started(&mut self, _run: &Run<'_>) -> Result<(), ReportError> {
        Ok(())
    }

    /// A tournament game begins. Nothing to fail: the formats that must
    /// be complete are written as games finish.
    fn game_started(&mut self, _game: &GameStart<'_>) {}

    fn game_finished(
        &mut self,
        _record: &MatchRecord,
        _place: &Place<'_>,
    ) -> Result<(), ReportError> {
        Ok(())
    }

    fn run_finished(&mut self, _finish: &Finish<'_>) -> Result<(), ReportError> {
        Ok(())
    }

    /// A line on how a long run goes (a check's requirement decided, its
    /// bench started), for the formats that show progress.
    fn progress(&mut self, _line: &str) {}
}

/// The formats a command writes at once, told each event in order. The
/// first failure stops an event (the formats after it do not see it), so
/// put files that must be complete (`games.csv`) before the terminal.
#[derive(Default)]
pub struct Reporters(Vec<Box<dyn Reporter>>);

impl Reporters {
    pub fn new(reporters: Vec<Box<dyn Reporter>>) -> Reporters {
        Reporters(reporters)
    }

    /// Adds a format after the others.
    pub fn push(&mut self, reporter: impl Reporter + 'static) {
        self.0.push(Box::new(reporter));
    }
}

impl Reporter for Reporters {
    fn run_started(&mut self, run: &Run<'_>) -> Result<(), ReportError> {
        self.0.iter_mut().try_for_each(|r| r.run_started(run))
    }

    fn game_started(&mut self, game: &GameStart<'_>) {
        self.0.iter_mut().for_each(|r| r.game_started(game));
    }

    fn game_finished(
        &mut self,
        record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        self.0
            .iter_mut()
            .try_for_each(|r| r.game_finished(record, place))
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        self.0.iter_mut().try_for_each(|r| r.run_finished(finish))
    }

    fn progress(&mut self, line: &str) {
        self.0.iter_mut().for_each(|r| r.progress(line));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Logs the events it is told; fails on games when `fail` is set.
    struct Log {
        name: &'static str,
        fail: bool,
        seen: Arc<Mutex<Vec<String>>>,
    }

    impl Reporter for Log {
        fn game_finished(
            &mut self,
            record: &MatchRecord,
            _: &Place<'_>,
        ) -> Result<(), ReportError> {
            self.seen
                .lock()
                .unwrap()
                .push(format!("{} game {}", self.name, record.seed));
            if self.fail {
                return Err(ReportError::new(
                    Path::new("x.csv"),
                    "cannot write",
                    io::Error::other("disk full"),
                ));
            }
            Ok(())
        }

        fn progress(&mut self, line: &str) {
            self.seen
                .lock()
                .unwrap()
                .push(format!("{} {line}", self.name));
        }
    }

    fn record() -> MatchRecord {
        crate::record::example()
    }

    #[test]
    fn formats_are_told_in_order_and_a_failure_stops_the_event() {
        let seen = Arc::new(Mutex::new(vec![]));
        let log = |name, fail| Log {
            name,
            fail,
            seen: seen.clone(),
        };
        let mut reporters = Reporters::new(vec![Box::new(log("csv", false))]);
        reporters.push(log("terminal", false));
        reporters.game_finished(&record(), &Place::Match).unwrap();
        reporters.progress("half done");
        // Formats without an event show nothing, and do not fail.
        reporters.run_started(&Run::Match).unwrap();
        assert_eq!(
            *seen.lock().unwrap(),
            [
                "csv game 7",
                "terminal game 7",
                "csv half done",
                "terminal half done"
            ]
        );

        seen.lock().unwrap().clear();
        let mut reporters = Reporters::new(vec![Box::new(log("csv", true))]);
        reporters.push(log("terminal", false));
        let e = reporters
            .game_finished(&record(), &Place::Match)
            .unwrap_err();
        assert_eq!(e.to_string(), "x.csv: cannot write");
        assert_eq!(
            *seen.lock().unwrap(),
            ["csv game 7"],
            "a game not recorded is not shown"
        );
    }
}
