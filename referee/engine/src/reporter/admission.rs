//! The admission report of `referee collect`: `admission.csv` (one
//! [`Admission`] a row, rewritten whole after each team so that a stopped
//! run keeps the teams done) and the terminal's lines.

use std::io;
use std::path::{Path, PathBuf};

use crate::model::admission::{Admission, Status};
use crate::text::{escape, escape_lines};

/// Most lines of a message shown on the terminal (the CSV has them all).
const MESSAGE_LINES: usize = 12;

/// Writes the report to a CSV file and the terminal, team by team.
pub struct AdmissionReport {
    csv: PathBuf,
    rows: Vec<Admission>,
}

impl AdmissionReport {
    pub fn new(csv: &Path) -> AdmissionReport {
        AdmissionReport {
            csv: csv.to_path_buf(),
            rows: Vec::new(),
        }
    }

    /// A team's row: shown, and the CSV rewritten with it. Every field
    /// (a compiler's output or a bot's stderr in the message, a file name
    /// the team chose in the source or, refused for it, the team) is kept
    /// with its control characters escaped in the CSV too: a teacher who
    /// `cat`s it gets no terminal escape of a student's (a cleared screen,
    /// a title, a clipboard write), and its line breaks (`\x0a`, `\x0d`)
    /// too, so that each row is one line and a bot's stderr cannot show a
    /// line `mallory,admitted,...` to `grep` or `wc -l`.
    pub fn team_done(&mut self, mut row: Admission) -> io::Result<()> {
        println!("{}", terminal_lines(&row));
        for field in [
            &mut row.team,
            &mut row.language,
            &mut row.source,
            &mut row.reason,
            &mut row.message,
        ] {
            *field = escape(field).into_owned();
        }
        self.rows.push(row);
        self.write_csv()
    }

    /// The totals, and the CSV's path.
    pub fn finish(&self) -> io::Result<()> {
        self.write_csv()?;
        let count = |s: Status| self.rows.iter().filter(|r| r.status == s).count();
        println!(
            "{} admitted, {} broken, {} missing; report: {}",
            count(Status::Admitted),
            count(Status::Broken),
            count(Status::Missing),
            self.csv.display()
        );
        Ok(())
    }

    fn write_csv(&self) -> io::Result<()> {
        crate::atomic_file::write_with(&self.csv, |file| {
            let mut writer = super::csv::SafeWriter::from_writer(file);
            if self.rows.is_empty() {
                writer
                    .write_record(["team", "status", "language", "source", "reason", "message"])?;
            }
            for row in &self.rows {
                writer.serialize(row)?;
            }
            writer.flush()
        })
    }
}

/// A team's line (name, status, language, reason), then its message
/// indented; control characters escaped (a bot's stderr is untrusted).
pub fn terminal_lines(row: &Admission) -> String {
    let mut line = format!("{:<20} {:<9}", row.team, row.status.name());
    if !row.language.is_empty() {
        line.push_str(&format!(" {}", row.language));
    }
    if !row.reason.is_empty() {
        line.push_str(&format!(" ({})", row.reason));
    }
    // One line: a team refused for its name keeps it as handed in.
    let mut text = escape(&line).into_owned();
    for l in row.message.lines().take(MESSAGE_LINES) {
        text.push_str(&format!("\n    {}", escape_lines(l)));
    }
    text
}
