//! CSV files: a tournament's `games.csv` (one row per game, appended and
//! flushed the moment the game ends, so that a killed referee loses at most
//! the games in progress and `--resume` plays exactly the rest), its
//! `standings.csv`, `crosstable.csv` and `timings.csv`, a Swiss
//! tournament's `swiss.csv` and `rounds.csv`, a knockout's `bracket.csv`,
//! `bracket.txt` and `rounds.csv` (rewritten whole at the end, each
//! through a temporary file and a rename), and the bench's rows. The rows are the serde structs [`GameRow`](crate::tournament::GameRow)
//! and [`BenchRow`](crate::bench::BenchRow): their fields are the columns.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Finish, Place, ReportError, Reporter, Run};
use crate::atomic_file;
use crate::record::MatchRecord;
use crate::tournament::{RoundsTables, Standings};

/// The games of a tournament's results folder, one row each.
pub const GAMES_CSV: &str = "games.csv";

/// A tournament's CSV files in its results folder `out`.
pub struct TournamentCsv {
    out: PathBuf,
    games: Option<csv::Writer<File>>,
    last_sync: Instant,
}

impl TournamentCsv {
    pub fn new(out: &Path) -> TournamentCsv {
        TournamentCsv {
            out: out.to_path_buf(),
            games: None,
            last_sync: Instant::now(),
        }
    }

    fn games_path(&self) -> PathBuf {
        self.out.join(GAMES_CSV)
    }

    fn sync(&mut self) {
        if let Some(writer) = &self.games {
            let _ = writer.get_ref().sync_data();
        }
    }
}

impl Drop for TournamentCsv {
    fn drop(&mut self) {
        self.sync();
    }
}

impl Reporter for TournamentCsv {
    fn run_started(&mut self, run: &Run<'_>) -> Result<(), ReportError> {
        let Run::Tournament { .. } = run else {
            return Ok(());
        };
        let path = self.games_path();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| ReportError::new(&path, "cannot open for appending", e))?;
        // A folder being resumed has its header already.
        let needs_header = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
        self.games = Some(
            csv::WriterBuilder::new()
                .has_headers(needs_header)
                .from_writer(file),
        );
        self.last_sync = Instant::now();
        Ok(())
    }

    fn game_finished(
        &mut self,
        _record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        let (Place::Tournament { row }, Some(writer)) = (place, &mut self.games) else {
            return Ok(());
        };
        writer
            .serialize(row)
            .map_err(|e| io::Error::other(e.to_string()))
            .and_then(|()| writer.flush())
            .map_err(|e| {
                ReportError::new(&self.out.join(GAMES_CSV), "cannot write a game row", e)
            })?;
        // Flushed rows survive a killed referee; a sync now and then
        // bounds what a power cut can take (resume replays it).
        if self.last_sync.elapsed() > Duration::from_secs(1) {
            self.sync();
            self.last_sync = Instant::now();
        }
        Ok(())
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        let Finish::Tournament { standings, outcome } = finish else {
            return Ok(());
        };
        self.sync();
        write_tables(&self.out, standings)?;
        if let Some(tables) = &outcome.rounds {
            write_rounds_tables(&self.out, tables)?;
        }
        Ok(())
    }
}

/// Writes `standings.csv`, `timings.csv` and `crosstable.csv` into `out`
/// (a tournament's end, or `referee merge`).
pub fn write_tables(out: &Path, standings: &Standings) -> Result<(), ReportError> {
    let rows = standings.rows();
    write_atomically(&out.join("standings.csv"), |w| {
        rows.iter().try_for_each(|row| w.serialize(row))
    })?;
    let timings = standings.timings();
    write_atomically(&out.join("timings.csv"), |w| {
        timings.iter().try_for_each(|row| w.serialize(row))
    })?;
    let table = standings.crosstable();
    write_atomically(&out.join("crosstable.csv"), |w| {
        table.iter().try_for_each(|line| w.write_record(line))
    })
}

/// Writes a Swiss tournament's `swiss.csv` and `rounds.csv`, or a
/// knockout's `bracket.csv`, `bracket.txt` and `rounds.csv` (and the
/// groups' `groups.csv` before it), into `out`.
pub fn write_rounds_tables(out: &Path, tables: &RoundsTables) -> Result<(), ReportError> {
    let rounds = match tables {
        RoundsTables::Swiss { table, rounds, .. } => {
            write_atomically(&out.join("swiss.csv"), |w| {
                table.iter().try_for_each(|row| w.serialize(row))
            })?;
            rounds
        }
        RoundsTables::Knockout {
            groups,
            matches,
            text,
            rounds,
            ..
        } => {
            if !groups.is_empty() {
                write_atomically(&out.join("groups.csv"), |w| {
                    groups.iter().try_for_each(|row| w.serialize(row))
                })?;
            }
            write_atomically(&out.join("bracket.csv"), |w| {
                matches.iter().try_for_each(|row| w.serialize(row))
            })?;
            let path = out.join("bracket.txt");
            atomic_file::write(&path, text)
                .map_err(|e| ReportError::new(&path, "cannot write", e))?;
            rounds
        }
    };
    write_atomically(&out.join("rounds.csv"), |w| {
        rounds.iter().try_for_each(|row| w.serialize(row))
    })
}

/// Writes a whole CSV file through a temporary file and a rename.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<&mut File>) -> csv::Result<()>,
) -> Result<(), ReportError> {
    atomic_file::write_with(path, |file| {
        let mut writer = csv::Writer::from_writer(file);
        fill(&mut writer).map_err(|e| io::Error::other(e.to_string()))?;
        writer.flush()
    })
    .map_err(|e| ReportError::new(path, "cannot write", e))
}

/// The bench's rows (`referee bench --csv FILE`), in the order games end.
pub struct BenchCsv {
    path: PathBuf,
    writer: csv::Writer<File>,
}

impl BenchCsv {
    /// Creates (or empties) the file.
    pub fn create(path: &Path) -> io::Result<BenchCsv> {
        Ok(BenchCsv {
            path: path.to_path_buf(),
            writer: csv::Writer::from_writer(File::create(path)?),
        })
    }
}

impl Reporter for BenchCsv {
    fn game_finished(
        &mut self,
        _record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        let Place::Bench { row, .. } = place else {
            return Ok(());
        };
        self.writer
            .serialize(row)
            .map_err(|e| io::Error::other(e.to_string()))
            .and_then(|()| self.writer.flush())
            .map_err(|e| ReportError::new(&self.path, "cannot write the CSV file", e))
    }
}
