//! A results folder read back: its `games.csv` row by row, and how its
//! standings are ranked. The tournament that writes the folder and the
//! reports made from it (HTML, grades) read it the same way.

use std::io;
use std::path::{Path, PathBuf};

use crate::input_file::{self, InputError, Links, TABLE_CAP, TEXT_CAP};
use crate::model::folder::FolderMeta;
use crate::model::standings::{GameRow, Ranking, RowError};
use crate::model::tournament::{rounds_reached, BracketRow, Format};

/// A results folder's file that cannot be read or written, or does not
/// read as one (the tournament's own failures with its folder too).
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// A file of the folder refused as it is read (not a regular file,
    /// too large, a link; see [`crate::input_file`]).
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("{}: {what}", path.display())]
    Io {
        path: PathBuf,
        what: String,
        #[source]
        source: io::Error,
    },
    #[error("{}, line {line}: {problem}; {}", path.display(), mend_advice(path, *store))]
    BadRow {
        path: PathBuf,
        line: usize,
        problem: RowError,
        /// Whether the folder keeps every game in its store as well: only
        /// then can the file be written anew from it.
        store: bool,
    },
    /// A free-for-all's `games.csv` (K seats a row) read as a two-player
    /// one's.
    #[error("{}: the games of a free-for-all (more than two players a game), not of two: read it as a free-for-all's (its folder's tournament.json says it is one)", path.display())]
    FreeForAll { path: PathBuf },
    /// A results folder's `tournament.json` or `bracket.csv` that does not
    /// read as one.
    #[error("{}: {message}; changed by hand? Play the tournament again with another --out", path.display())]
    BadFolderFile { path: PathBuf, message: String },
}

/// What to do about a `games.csv` row that does not read: written anew
/// from the store when the folder has one; else the file is the folder's
/// only record of its games, and is not to be removed.
fn mend_advice(path: &Path, store: bool) -> String {
    if store {
        format!(
            "changed by hand? Every game played is also in the folder's store: remove {} and run again with --resume to write it anew",
            path.display()
        )
    } else {
        "changed by hand? The file is the folder's only record of its games: keep it, and put the line back as the tournament wrote it (from a copy)".into()
    }
}

/// Whether the results folder of the games file `games` keeps its games
/// in a store too.
pub fn has_store(games: &Path) -> bool {
    games
        .parent()
        .is_some_and(|folder| folder.join(crate::model::folder::STORE_FOLDER).is_dir())
}

/// Streams the rows of a games.csv file.
pub fn for_each_row(
    path: &Path,
    mut each: impl FnMut(GameRow) -> Result<(), RowError>,
) -> Result<u64, FolderError> {
    if path.parent().is_some_and(is_free_for_all) {
        return Err(FolderError::FreeForAll {
            path: path.to_path_buf(),
        });
    }
    let store = has_store(path);
    let file = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let mut reader = csv::Reader::from_reader(file);
    let mut count = 0;
    for (i, row) in super::csv::deserialize_restored::<GameRow, _>(&mut reader).enumerate() {
        let line = i + 2;
        let bad_row = |problem| FolderError::BadRow {
            path: path.to_path_buf(),
            line,
            problem,
            store,
        };
        let row = row
            .map_err(|e| RowError::Unreadable(e.to_string()))
            .and_then(GameRow::upgraded)
            .map_err(bad_row)?;
        each(row).map_err(bad_row)?;
        count += 1;
    }
    Ok(count)
}

/// The description of the results folder `out` (`tournament.json`), or
/// `None` when it has none.
pub fn meta_of(out: &Path) -> Result<Option<FolderMeta>, FolderError> {
    let meta_path = out.join("tournament.json");
    let text = match input_file::read_to_string(&meta_path, Links::Refused, TEXT_CAP) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| FolderError::BadFolderFile {
            path: meta_path,
            message: format!("not a results description: {e}"),
        })
}

/// How the standings of the results folder `out` are ranked: a
/// gauntlet's by its challengers (`tournament.json`), a knockout's by the
/// rounds of its `bracket.csv` as last written; else by points (a folder
/// without `tournament.json` too).
pub fn ranking_of(out: &Path) -> Result<Ranking, FolderError> {
    let Some(meta) = meta_of(out)? else {
        return Ok(Ranking::Points);
    };
    if meta.format == Format::Gauntlet.name() {
        return Ok(Ranking::Gauntlet {
            challengers: meta.challengers.into_iter().collect(),
        });
    }
    let bracket_path = out.join("bracket.csv");
    let file = match input_file::reader(&bracket_path, Links::Refused, TEXT_CAP) {
        Ok(file) => file,
        Err(e) if e.is_not_found() => return Ok(Ranking::Points),
        Err(e) => return Err(e.into()),
    };
    let matches =
        super::csv::deserialize_restored::<BracketRow, _>(&mut csv::Reader::from_reader(file))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| FolderError::BadFolderFile {
                path: bracket_path.clone(),
                message: format!("not a bracket: {e}"),
            })?;
    Ok(Ranking::Knockout {
        reached: rounds_reached(&matches),
    })
}

/// The standings of the games in the results folder `out` now, summed as
/// the tournament sums them (`meta`: its `tournament.json`).
pub fn standings_in(
    out: &Path,
    meta: &FolderMeta,
) -> Result<crate::model::standings::Standings, FolderError> {
    let (win, draw, loss) = meta.scoring;
    let scoring = crate::model::standings::Scoring { win, draw, loss };
    let mut standings = crate::model::standings::Standings::new(&meta.bots, scoring);
    let games = out.join(super::csv::GAMES_CSV);
    if games.exists() {
        for_each_row(&games, |row| standings.add(&row))?;
    }
    standings.rank_by(ranking_of(out)?);
    Ok(standings)
}

/// Whether the results folder `folder` holds a free-for-all (its
/// `tournament.json` says so): its `games.csv` has a row per table of K
/// seats, read by [`ffa_standings_in`], not by [`for_each_row`].
pub fn is_free_for_all(folder: &Path) -> bool {
    matches!(
        meta_of(folder),
        Ok(Some(meta)) if meta.format == Format::FreeForAll.name()
    )
}

/// The rows and standings of the free-for-all folder `out` from its
/// `games.csv`, in game order.
pub fn ffa_standings_in(
    out: &Path,
) -> Result<
    (
        Vec<crate::model::ffa::FfaRow>,
        crate::model::ffa::FfaStandings,
    ),
    FolderError,
> {
    let meta = meta_of(out)?.ok_or_else(|| FolderError::BadFolderFile {
        path: out.join("tournament.json"),
        message: "not there: is this a results folder of `referee tournament`?".into(),
    })?;
    let mut rows = super::ffa::read_rows(&out.join(super::csv::GAMES_CSV))?;
    rows.sort_by_key(|r| r.game);
    let standings = crate::model::ffa::standings(&meta.bots, &rows);
    Ok((rows, standings))
}
