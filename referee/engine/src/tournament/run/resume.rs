//! Reading a results folder back: the games `games.csv` holds (so
//! `--resume` plays exactly the rest), its rows, standings and ranking.

use super::*;

/// The game numbers already in `games.csv`. A last row cut short by a kill
/// is removed first (its game is played again), so the file ends on a whole
/// row.
pub(super) fn read_done_games(path: &Path) -> Result<BTreeSet<u64>, TournamentError> {
    if !input_file::is_there(path) {
        return Ok(BTreeSet::new());
    }
    cut_partial_row(path)?;
    let mut done = BTreeSet::new();
    for_each_row(path, |row| {
        done.insert(row.game);
        Ok(())
    })?;
    Ok(done)
}

/// Removes a last row of the CSV file at `path` cut short by a kill (its
/// game is played again), so the file ends on a whole row. No file: nothing
/// to do.
pub(crate) fn cut_partial_row(path: &Path) -> Result<(), TournamentError> {
    if !input_file::is_there(path) {
        return Ok(());
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
    Ok(())
}

/// Where the last whole row of CSV text ends: after the last line break
/// outside quotes. A row cut short (even inside a quoted field holding a
/// line break) lies beyond it.
#[cfg(test)]
pub(super) fn whole_rows_end(bytes: &[u8]) -> usize {
    let mut rows = WholeRows::default();
    rows.feed(bytes);
    rows.end as usize
}

/// [`whole_rows_end`] of a file read in chunks.
#[derive(Default)]
pub(super) struct WholeRows {
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
pub(super) fn check_columns(path: &Path) -> Result<(), TournamentError> {
    if fs::symlink_metadata(path).map_or(true, |m| m.len() == 0) {
        return Ok(());
    }
    let file = input_file::reader(path, Links::Refused, TABLE_CAP)?;
    let found = csv::Reader::from_reader(file)
        .headers()
        .map_err(|e| FolderError::BadRow {
            path: path.to_path_buf(),
            line: 1,
            problem: crate::model::standings::RowError::Unreadable(e.to_string()),
            store: crate::reporter::folder::has_store(path),
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

/// The games of `games.csv` whose transcript (`transcripts/game-NNNNNN.jsonl`)
/// is not there: one could not be written (a full disk), in this run or in
/// one before it that `--resume` finished; the game still counts.
pub(super) fn games_without_transcript(out: &Path) -> Result<u64, TournamentError> {
    let mut missing = 0;
    for_each_row(&out.join(GAMES_CSV), |row| {
        missing += u64::from(transcript_missing(out, row.game));
        Ok(())
    })?;
    Ok(missing)
}

/// Whether game `game` of the folder `out` has no transcript
/// (`transcripts/game-NNNNNN.jsonl`, a file).
pub(crate) fn transcript_missing(out: &Path, game: u64) -> bool {
    let path = out
        .join("transcripts")
        .join(format!("game-{game:06}.jsonl"));
    !fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
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

#[cfg(test)]
mod folder_tests {
    use super::*;
    use crate::tournament::run::test_folder;

    fn game_rows(numbers: &[u64]) -> Vec<u8> {
        let mut writer = csv::Writer::from_writer(vec![]);
        for &game in numbers {
            let row = GameRow {
                game,
                bot_a: "x".into(),
                bot_b: "y".into(),
                first: "x".into(),
                result: Some(Winner::A),
                winner: "x".into(),
                ..GameRow::default()
            };
            writer.serialize(row).expect("into memory");
        }
        writer.into_inner().expect("into memory")
    }

    #[test]
    fn a_row_cut_short_by_a_kill_is_removed_and_its_game_left_to_play() {
        let out = test_folder("cut-row");
        let path = out.join(GAMES_CSV);
        let whole = game_rows(&[1, 2]);
        let mut cut = whole.clone();
        cut.extend_from_slice(b"3,12,x,y,x,a,x,cra");
        fs::write(&path, &cut).unwrap();
        let done = read_done_games(&path).unwrap();
        assert_eq!(done.into_iter().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(fs::read(&path).unwrap(), whole);
        check_columns(&path).unwrap();
        fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn no_games_file_means_no_game_is_done() {
        let out = test_folder("no-games");
        assert!(read_done_games(&out.join(GAMES_CSV)).unwrap().is_empty());
        check_columns(&out.join(GAMES_CSV)).unwrap();
        fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn a_games_file_of_other_columns_is_not_resumed() {
        let out = test_folder("other-columns");
        let path = out.join(GAMES_CSV);
        fs::write(&path, "game,seed,bot_a,colour\n1,2,x,red\n").unwrap();
        match check_columns(&path) {
            Err(TournamentError::OtherColumns { differ, .. }) => {
                assert!(differ.starts_with("it lacks bot_b,"), "{differ}");
                assert!(differ.ends_with(" and has colour besides"), "{differ}");
            }
            other => panic!("{other:?}"),
        }
        fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn a_gauntlet_folder_ranks_by_its_challengers() {
        let out = test_folder("ranking");
        assert_eq!(ranking_of(&out).unwrap(), Ranking::Points);
        let meta = FolderMeta {
            version: 1,
            name: "t".into(),
            game: "cryptron".into(),
            bots: vec!["x".into(), "y".into(), "z".into()],
            scoring: (2, 1, 0),
            total_games: 4,
            shard: None,
            format: Format::Gauntlet.name().into(),
            challengers: vec!["y".into()],
        };
        meta.write(&out).unwrap();
        assert_eq!(
            ranking_of(&out).unwrap(),
            Ranking::Gauntlet {
                challengers: ["y".to_string()].into_iter().collect()
            }
        );
        fs::write(out.join("tournament.json"), "{").unwrap();
        assert!(matches!(
            ranking_of(&out),
            Err(FolderError::BadFolderFile { .. })
        ));
        fs::remove_dir_all(out).unwrap();
    }
}
