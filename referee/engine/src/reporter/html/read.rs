//! Reading a results folder back for the report: `tournament.json`, the
//! tables, the grades and the transcripts, each read as a regular file with
//! its cap.

use super::*;

/// A results folder read back: its description and every game row.
pub(super) struct Results {
    pub(super) meta: FolderMeta,
    pub(super) settings: String,
    pub(super) rows: Vec<GameRow>,
    pub(super) standings: Standings,
    /// A Swiss tournament's `swiss.csv` and a Swiss or knockout's
    /// `rounds.csv`, as rows of cells (empty for the other formats).
    pub(super) swiss: Vec<BTreeMap<String, String>>,
    pub(super) rounds: Vec<BTreeMap<String, String>>,
    /// A tournament of groups' `groups.csv`.
    pub(super) groups: Vec<BTreeMap<String, String>>,
    /// A knockout's `bracket.txt`.
    pub(super) bracket: Option<String>,
    /// The grades of `grades/`, if the folder was graded.
    pub(super) grades: Option<GradesPage>,
}

/// The grades page: from `grades/grades.csv` and `grades/students.csv`.
#[derive(Serialize)]
pub(super) struct GradesPage {
    /// The references, in the columns' order.
    pub(super) references: Vec<String>,
    pub(super) teams: Vec<GradeRow>,
    pub(super) students: Vec<BTreeMap<String, String>>,
}

/// A team's row of the grades page.
#[derive(Serialize)]
pub(super) struct GradeRow {
    pub(super) team: String,
    pub(super) marks: String,
    pub(super) band: String,
    pub(super) reason: String,
    /// One per reference.
    pub(super) vs: Vec<GradeEvidence>,
}

#[derive(Serialize)]
pub(super) struct GradeEvidence {
    /// `won/drawn/lost`.
    pub(super) record: String,
    pub(super) games: String,
    pub(super) rate: String,
    pub(super) interval: String,
}

/// The grades of `folder/grades/`, none if it has no `grades.csv`.
pub(super) fn read_grades(folder: &Path) -> Option<GradesPage> {
    let dir = folder.join(crate::reporter::grades::GRADES_DIR);
    let file = input_file::reader(
        &dir.join("grades.csv"),
        Links::Refused,
        input_file::TEXT_CAP,
    )
    .ok()?;
    let mut reader = csv::Reader::from_reader(file);
    let headers = crate::reporter::csv::restore_record(reader.byte_headers().ok()?);
    let references: Vec<String> = headers
        .iter()
        .filter_map(|h| std::str::from_utf8(h).ok()?.strip_prefix("games_vs_"))
        .map(str::to_string)
        .collect();
    let rows: Vec<BTreeMap<String, String>> =
        crate::reporter::csv::deserialize_restored(&mut reader)
            .map_while(Result::ok)
            .collect();
    let cell =
        |row: &BTreeMap<String, String>, column: &str| row.get(column).cloned().unwrap_or_default();
    let rate = |text: String| {
        text.parse::<f64>()
            .map_or(text, crate::model::grades::percent)
    };
    let teams = rows
        .iter()
        .map(|row| GradeRow {
            team: cell(row, "team"),
            marks: cell(row, "marks"),
            band: cell(row, "band"),
            reason: cell(row, "reason"),
            vs: references
                .iter()
                .map(|r| {
                    let of = |c: &str| cell(row, &format!("{c}_vs_{r}"));
                    GradeEvidence {
                        record: format!("{}/{}/{}", of("wins"), of("draws"), of("losses")),
                        games: of("games"),
                        rate: rate(of("win_rate")),
                        interval: format!("{} to {}", rate(of("low")), rate(of("high"))),
                    }
                })
                .collect(),
        })
        .collect();
    Some(GradesPage {
        references,
        teams,
        students: table_rows(&dir.join("students.csv")).ok()?,
    })
}

/// The rows of a CSV table the referee wrote, as maps from column to
/// cell; none if the file is not there (or not readable: the report shows
/// what it can).
pub(super) fn table_rows(path: &Path) -> Result<Vec<BTreeMap<String, String>>, ReportError> {
    let file = match input_file::reader(path, Links::Refused, input_file::TEXT_CAP) {
        Ok(file) => file,
        Err(e) if e.is_not_found() => return Ok(vec![]),
        Err(e) => return Err(refused(e)),
    };
    let mut reader = csv::Reader::from_reader(file);
    Ok(crate::reporter::csv::deserialize_restored(&mut reader)
        .map_while(Result::ok)
        .collect())
}

/// The entries of a transcript kept in a results folder: none if it is
/// missing or no transcript (the report shows what it can); an error if it
/// is not a regular file or is too large ([`crate::input_file`]).
pub(super) fn kept_transcript(path: &Path) -> Result<Vec<transcript::Entry>, ReportError> {
    match transcript::read_prefix_kept(path) {
        Ok((entries, _)) => Ok(entries),
        Err(transcript::ReadError::Input(e)) if !e.is_not_found() => Err(refused(e)),
        Err(_) => Ok(Vec::new()),
    }
}

/// A file of the folder refused by [`crate::input_file`].
pub(super) fn refused(e: InputError) -> ReportError {
    let path = e.path().to_path_buf();
    ReportError::new(&path, "cannot be read", e.into())
}

/// A file of the results folder as text, if it is there.
pub(super) fn kept_text(path: &Path) -> Result<Option<String>, ReportError> {
    match input_file::read_to_string(path, Links::Refused, input_file::TEXT_CAP) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(refused(e)),
    }
}

pub(super) fn io_error<'a>(
    path: &'a Path,
    what: &'a str,
) -> impl FnOnce(std::io::Error) -> ReportError + 'a {
    move |e| ReportError::new(path, what, e)
}

pub(super) fn read_results(folder: &Path) -> Result<Results, ReportError> {
    let meta_path = folder.join("tournament.json");
    let text = kept_text(&meta_path)?.ok_or_else(|| {
        ReportError::new(
            &meta_path,
            "cannot read (is this a results folder of `referee tournament` or `merge`, or the folder of `referee check --report`?)",
            std::io::ErrorKind::NotFound.into(),
        )
    })?;
    let meta: FolderMeta = serde_json::from_str(&text).map_err(|e| {
        ReportError::new(
            &meta_path,
            "is not a results description",
            std::io::Error::other(e),
        )
    })?;
    let settings = kept_text(&folder.join("tournament.toml"))?.unwrap_or_default();
    let scoring = Scoring {
        win: meta.scoring.0,
        draw: meta.scoring.1,
        loss: meta.scoring.2,
    };
    let mut standings = Standings::new(&meta.bots, scoring);
    standings.rank_by(
        crate::reporter::folder::ranking_of(folder)
            .map_err(|e| ReportError::new(folder, "cannot be ranked", std::io::Error::other(e)))?,
    );
    let mut rows = Vec::new();
    let games = folder.join(crate::reporter::csv::GAMES_CSV);
    if input_file::is_there(&games) {
        for_each_row(&games, |row| {
            standings.add(&row)?;
            rows.push(row);
            Ok(())
        })
        // The cause names the file (and its line): said once.
        .map_err(|e| ReportError::new(folder, "cannot be reported", std::io::Error::other(e)))?;
    }
    rows.sort_by_key(|r| r.game);
    Ok(Results {
        meta,
        settings,
        rows,
        standings,
        swiss: table_rows(&folder.join("swiss.csv"))?,
        rounds: table_rows(&folder.join("rounds.csv"))?,
        groups: table_rows(&folder.join("groups.csv"))?,
        bracket: kept_text(&folder.join("bracket.txt"))?,
        grades: read_grades(folder),
    })
}
