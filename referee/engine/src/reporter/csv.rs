//! CSV files: a tournament's `games.csv` (one row per game, appended and
//! flushed the moment the game ends, so that a killed referee loses at most
//! the games in progress and `--resume` plays exactly the rest), its
//! `standings.csv`, `crosstable.csv` and `timings.csv`, a Swiss
//! tournament's `swiss.csv` and `rounds.csv`, a knockout's `bracket.csv`,
//! `bracket.txt` and `rounds.csv` (rewritten whole at the end, each
//! through a temporary file and a rename), and the bench's rows. The rows are the serde structs [`GameRow`](crate::model::standings::GameRow)
//! and [`BenchRow`](crate::model::bench::BenchRow): their fields are the columns.
//!
//! Every CSV file the referee writes goes through [`SafeWriter`], which
//! neutralises text a spreadsheet would run as a formula (a bot's or a
//! student's name such as `=HYPERLINK(...)`, a bot's words in a verdict's
//! detail): see [`neutralise`]. The referee reads its own files back
//! through [`deserialize_restored`], which undoes it.

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Finish, Place, ReportError, Reporter, Run};
use crate::atomic_file;
use crate::model::standings::Standings;
use crate::model::tournament::RoundsTables;
use crate::record::MatchRecord;

/// The games of a tournament's results folder, one row each.
pub const GAMES_CSV: &str = "games.csv";

/// A tournament's CSV files in its results folder `out`.
pub struct TournamentCsv {
    out: PathBuf,
    games: Option<SafeWriter<File>>,
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
        self.games = Some(SafeWriter::new(
            csv::WriterBuilder::new()
                .has_headers(needs_header)
                .from_writer(file),
            needs_header,
        ));
        self.last_sync = Instant::now();
        Ok(())
    }

    fn game_finished(
        &mut self,
        _record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        let (Place::Tournament { row, .. }, Some(writer)) = (place, &mut self.games) else {
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
    fill: impl FnOnce(&mut SafeWriter<&mut File>) -> csv::Result<()>,
) -> Result<(), ReportError> {
    atomic_file::write_with(path, |file| {
        let mut writer = SafeWriter::from_writer(file);
        fill(&mut writer).map_err(|e| io::Error::other(e.to_string()))?;
        writer.flush()
    })
    .map_err(|e| ReportError::new(path, "cannot write", e))
}

/// The bench's rows (`referee bench --csv FILE`), in the order games end.
pub struct BenchCsv {
    path: PathBuf,
    writer: SafeWriter<File>,
}

impl BenchCsv {
    /// Creates (or empties) the file: an earlier bench CSV or an empty
    /// file, never another file (a bot's source by a slip of the keyboard).
    pub fn create(path: &Path) -> io::Result<BenchCsv> {
        crate::atomic_file::refuse_to_replace(path, b"secret_index,", "a bench CSV")?;
        Ok(BenchCsv {
            path: path.to_path_buf(),
            writer: SafeWriter::from_writer(File::create(path)?),
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

/// A CSV writer that neutralises every field a spreadsheet would take for
/// a formula ([`neutralise`]), whether written as a record or serialized.
pub struct SafeWriter<W: io::Write> {
    inner: csv::Writer<W>,
    /// Whether the next `serialize` writes the header first (as
    /// `csv::Writer` does for the first record it is given).
    header_pending: bool,
}

impl<W: io::Write> SafeWriter<W> {
    /// `header`: whether the first serialized row brings its header (the
    /// `has_headers` `inner` was built with).
    pub fn new(inner: csv::Writer<W>, header: bool) -> SafeWriter<W> {
        SafeWriter {
            inner,
            header_pending: header,
        }
    }

    /// A writer of `w` with a header before the first serialized row.
    pub fn from_writer(w: W) -> SafeWriter<W> {
        SafeWriter::new(csv::Writer::from_writer(w), true)
    }

    pub fn write_record<I, T>(&mut self, record: I) -> csv::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        self.header_pending = false;
        self.inner.write_record(
            record
                .into_iter()
                .map(|f| neutralise(f.as_ref()).into_owned()),
        )
    }

    /// A serde row (and its header first, if pending): serialized as
    /// `csv::Writer` would, then each field neutralised.
    pub fn serialize<S: serde::Serialize>(&mut self, row: S) -> csv::Result<()> {
        let mut scratch = csv::WriterBuilder::new()
            .has_headers(self.header_pending)
            .from_writer(Vec::new());
        scratch.serialize(row)?;
        let bytes = scratch
            .into_inner()
            .map_err(|e| csv::Error::from(io::Error::other(e.to_string())))?;
        self.header_pending = false;
        let mut lines = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(bytes.as_slice());
        for record in lines.byte_records() {
            self.write_record(&record?)?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }

    pub fn get_ref(&self) -> &W {
        self.inner.get_ref()
    }

    pub fn into_inner(self) -> io::Result<W> {
        self.inner
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))
    }
}

/// The first characters that make a spreadsheet (Excel, LibreOffice,
/// Google Sheets) read a cell as a formula, with their full-width forms,
/// and the tab and line breaks OWASP lists.
const FORMULA_STARTS: &[char] = &[
    '=', '+', '-', '@', '\t', '\r', '\n', '\u{FF1D}', '\u{FF0B}', '\u{FF0D}', '\u{FF20}',
];

/// A field as written: a text a spreadsheet would take for a formula
/// (first character, spaces aside, one of `= + - @`, tab, carriage return
/// or line feed) gets a leading `'`, which makes it text, as OWASP's "CSV
/// injection" advises. A number (`-0.5`, `+3`, `1e-3`) is left as it is: a
/// spreadsheet reads it as that number, and the column stays numeric. A
/// field that begins with `'` gets another, so that [`restore`] (one `'`
/// off) gives back every field exactly.
pub fn neutralise(field: &[u8]) -> Cow<'_, [u8]> {
    let text = String::from_utf8_lossy(field);
    let first = text.trim_start_matches(' ').chars().next();
    // A lone `-` (the crosstable's own mark of a bot against itself) is
    // no formula to any spreadsheet.
    let formula =
        first.is_some_and(|c| FORMULA_STARTS.contains(&c)) && !is_number(&text) && text != "-";
    if formula || text.starts_with('\'') {
        let mut out = Vec::with_capacity(field.len() + 1);
        out.push(b'\'');
        out.extend_from_slice(field);
        Cow::Owned(out)
    } else {
        Cow::Borrowed(field)
    }
}

/// A field as read back: [`neutralise`] undone.
pub fn restore(field: &[u8]) -> &[u8] {
    field.strip_prefix(b"'").unwrap_or(field)
}

/// A plain decimal number: sign, digits, a point, an exponent.
fn is_number(text: &str) -> bool {
    let s = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (s, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    (digits(whole) || (whole.is_empty() && digits(fraction)))
        && (fraction.is_empty() || digits(fraction))
        && exponent.is_none_or(digits)
}

/// The rows of a CSV file the referee wrote, each field [`restore`]d (the
/// header too), deserialized as `csv::Reader::deserialize` would.
pub fn deserialize_restored<'r, T, R>(
    reader: &'r mut csv::Reader<R>,
) -> Box<dyn Iterator<Item = csv::Result<T>> + 'r>
where
    T: serde::de::DeserializeOwned + 'r,
    R: io::Read + 'r,
{
    let headers = match reader.byte_headers() {
        Ok(h) => restore_record(h),
        Err(e) => return Box::new(std::iter::once(Err(e))),
    };
    Box::new(
        reader
            .byte_records()
            .map(move |record| record.and_then(|r| restore_record(&r).deserialize(Some(&headers)))),
    )
}

/// A record with every field [`restore`]d, at the same position.
pub fn restore_record(record: &csv::ByteRecord) -> csv::ByteRecord {
    let mut out: csv::ByteRecord = record.iter().map(restore).collect();
    out.set_position(record.position().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(fields: &[&str]) -> String {
        let mut w = SafeWriter::from_writer(vec![]);
        w.write_record(fields).unwrap();
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn formulas_become_text_and_numbers_stay_numbers() {
        assert_eq!(
            written(&[
                "=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx", "-0.5", "+3", "1e-3", "ann"
            ]),
            "'=1+1,'+cmd,'-2+3,'@SUM(A1),'\tx,\"'\rx\",-0.5,+3,1e-3,ann\n"
        );
        assert_eq!(
            written(&[" =1", "'x", "\u{FF1D}1"]),
            "' =1,''x,'\u{FF1D}1\n"
        );
        // The crosstable's mark of a bot against itself stays as it is;
        // a longer text after a `-` does not.
        assert_eq!(written(&["-", "-x"]), "-,'-x\n");
        for text in ["-", "-.", "1e", "--1", "-1-1", "-inf", "-NaN"] {
            assert!(!is_number(text), "{text}");
        }
        for text in ["-1", ".5", "-0.25", "3.", "+7e+2"] {
            assert!(is_number(text), "{text}");
        }
    }

    #[test]
    fn neutralised_rows_read_back_as_written() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Row {
            name: String,
            rating: f64,
        }
        let rows = vec![
            Row {
                name: "=HYPERLINK(\"http://x\")".into(),
                rating: -0.5,
            },
            Row {
                name: "'quoted".into(),
                rating: 2.0,
            },
        ];
        let mut w = SafeWriter::from_writer(vec![]);
        rows.iter().try_for_each(|r| w.serialize(r)).unwrap();
        let bytes = w.into_inner().unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with("name,rating\n\"'=HYPERLINK"), "{text}");
        assert!(text.contains(",-0.5\n"), "{text}");
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        let back: Vec<Row> = deserialize_restored(&mut reader)
            .collect::<csv::Result<_>>()
            .unwrap();
        assert_eq!(back, rows);
    }
}
