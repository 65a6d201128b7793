//! A free-for-all's CSV files: `games.csv` (one row per game of K seats,
//! appended and flushed the moment the game ends, as every tournament's),
//! read back by `--resume`, `merge` and `report`; `standings.csv` and
//! `pairwise.csv`, rewritten whole at the end. Every field goes through
//! [`SafeWriter`] and is restored when read, as in every CSV file of the
//! referee.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::csv::{restore_record, write_atomically, SafeWriter, GAMES_CSV};
use super::folder::FolderError;
use super::ReportError;
use crate::input_file::{self, Links, TABLE_CAP};
use crate::model::ffa::{columns, FfaRow, FfaStandings};

/// A free-for-all's standings (one row per bot).
pub const STANDINGS_CSV: &str = "standings.csv";
/// How often each bot finished ahead of each other.
pub const PAIRWISE_CSV: &str = "pairwise.csv";

/// `games.csv` of a free-for-all, appended to.
pub struct FfaGamesCsv {
    path: PathBuf,
    writer: SafeWriter<File>,
}

impl FfaGamesCsv {
    /// Opens `out/games.csv` for appending, with the header of `seats`
    /// seats if the file is new or empty.
    pub fn open(out: &Path, seats: usize) -> Result<FfaGamesCsv, ReportError> {
        let path = out.join(GAMES_CSV);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| ReportError::new(&path, "cannot open for appending", e))?;
        let needs_header = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let mut writer = SafeWriter::new(
            csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file),
            false,
        );
        if needs_header {
            writer
                .write_record(columns(seats))
                .map_err(|e| io::Error::other(e.to_string()))
                .and_then(|()| writer.flush())
                .map_err(|e| ReportError::new(&path, "cannot write the header", e))?;
        }
        Ok(FfaGamesCsv { path, writer })
    }

    /// Appends a game's row and flushes it.
    pub fn append(&mut self, row: &FfaRow) -> Result<(), ReportError> {
        self.writer
            .write_record(row.fields())
            .map_err(|e| io::Error::other(e.to_string()))
            .and_then(|()| self.writer.flush())
            .map_err(|e| ReportError::new(&self.path, "cannot write a game row", e))
    }
}

impl Drop for FfaGamesCsv {
    fn drop(&mut self) {
        let _ = self.writer.get_ref().sync_data();
    }
}

/// The header of a free-for-all's `games.csv`, if it has one.
pub fn header_of(path: &Path) -> Result<Option<Vec<String>>, FolderError> {
    if std::fs::symlink_metadata(path).map_or(true, |m| m.len() == 0) {
        return Ok(None);
    }
    let file = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let mut reader = csv::Reader::from_reader(file);
    let header = reader
        .byte_headers()
        .map_err(|e| bad(path, e.to_string()))?;
    Ok(Some(
        restore_record(header)
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect(),
    ))
}

fn bad(path: &Path, message: String) -> FolderError {
    FolderError::BadFolderFile {
        path: path.to_path_buf(),
        message,
    }
}

/// Every row of a free-for-all's `games.csv` (none if there is no file),
/// in the file's order; a row that does not read as one is refused, with
/// its line.
pub fn read_rows(path: &Path) -> Result<Vec<FfaRow>, FolderError> {
    if !input_file::is_there(path) {
        return Ok(vec![]);
    }
    let Some(header) = header_of(path)? else {
        return Ok(vec![]);
    };
    let file = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let mut reader = csv::Reader::from_reader(file);
    let mut rows = vec![];
    for (i, record) in reader.byte_records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| bad(path, format!("line {line}: {e}")))?;
        let fields: Vec<String> = restore_record(&record)
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect();
        let row = FfaRow::from_fields(&header, &fields)
            .map_err(|e| bad(path, format!("line {line}: not a free-for-all game: {e}")))?;
        rows.push(row);
    }
    Ok(rows)
}

/// Writes `standings.csv` and `pairwise.csv` into `out`.
pub fn write_tables(out: &Path, standings: &FfaStandings) -> Result<(), ReportError> {
    write_atomically(&out.join(STANDINGS_CSV), |w| {
        standings.rows.iter().try_for_each(|r| w.serialize(r))
    })?;
    write_atomically(&out.join(PAIRWISE_CSV), |w| {
        standings.pairwise.iter().try_for_each(|r| w.serialize(r))
    })
}

/// Writes a free-for-all's grades into `out/grades/grades.csv`.
pub fn write_grades(
    out: &Path,
    grades: &[crate::model::ffa::PlaceGrade],
) -> Result<PathBuf, ReportError> {
    let folder = out.join(super::grades::GRADES_DIR);
    std::fs::create_dir_all(&folder)
        .map_err(|e| ReportError::new(&folder, "cannot create the folder", e))?;
    let path = folder.join("grades.csv");
    write_atomically(&path, |w| grades.iter().try_for_each(|g| w.serialize(g)))?;
    Ok(path)
}

/// How a free-for-all's standings are ranked, as its tables say it.
pub const RANKED_BY: &str = "ranked by rating (Weng-Lin mu; the interval is mu ± 1.96 sigma)";

/// The standings as the terminal prints them at the end.
pub fn standings_text(standings: &FfaStandings) -> String {
    use super::fixed;
    let width = standings
        .rows
        .iter()
        .map(|r| r.bot.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>5}  {:>9}  {:>6}  {:>7}  {}\n",
        "rank", "bot", "games", "avg place", "firsts", "rating", "95% interval"
    );
    for r in &standings.rows {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}  {:>9}  {:>6}  {:>7}  {} to {}\n",
            r.rank,
            crate::text::escape(&r.bot),
            r.games,
            fixed(r.average_place, 2),
            r.first_places,
            fixed(r.rating, 2),
            fixed(r.rating_low, 2),
            fixed(r.rating_high, 2),
        ));
    }
    out.push_str(RANKED_BY);
    out.push('\n');
    out
}

/// A free-for-all's progress on the terminal (stderr): a line per game as
/// it is recorded, with each seat's bot and place.
pub struct FfaTerminal {
    total: u64,
    done: u64,
}

impl FfaTerminal {
    pub fn new() -> FfaTerminal {
        FfaTerminal { total: 0, done: 0 }
    }
}

impl Default for FfaTerminal {
    fn default() -> FfaTerminal {
        FfaTerminal::new()
    }
}

impl crate::model::ffa::FfaProgress for FfaTerminal {
    fn started(&mut self, out: &Path, total: u64, done: u64) {
        self.total = total;
        self.done = done;
        if done > 0 {
            eprintln!(
                "{done} of {total} games already in {}: playing the other {}",
                out.display(),
                total - done
            );
        }
    }

    fn game_recorded(&mut self, row: &FfaRow) {
        self.done += 1;
        let seats: Vec<String> = row
            .seats
            .iter()
            .map(|s| {
                // In brackets: a comma would read as the next seat.
                let verdict = if s.verdict == crate::verdict::Verdict::Ok {
                    String::new()
                } else {
                    format!(" ({})", s.verdict)
                };
                format!("{} {}{verdict}", crate::text::escape(&s.bot), s.place)
            })
            .collect();
        eprintln!(
            "[{}/{}] game {} (table {}): {} ({})",
            self.done,
            self.total,
            row.game,
            row.table,
            seats.join(", "),
            crate::text::escape(&row.reason)
        );
    }
}
