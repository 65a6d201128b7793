//! `referee merge`: the results folders of shards (or of runs of one file)
//! made into one.

use super::*;
use crate::model::standings::RowError;

/// Combines shard folders into `out`: the rows of all shards in game order,
/// then standings and crosstable exactly as one run would write them. A
/// set of folders that is not the whole tournament once (games missing, a
/// shard given twice) is refused before anything is written, unless
/// `partial` says it is meant.
pub fn merge(
    folders: &[PathBuf],
    out: &Path,
    partial: bool,
) -> Result<(Vec<StandingRow>, u64, u64), TournamentError> {
    let mut rows = TwoPlayerRows::default();
    let meta = merge_folders(folders, out, partial, &mut rows)?;
    let (win, draw, loss) = meta.scoring;
    let (standings, count) = standings_of(out, &meta.bots, Scoring { win, draw, loss })?;
    write_tables(out, &standings)?;
    Ok((standings.rows(), count, meta.total_games))
}

/// The games of shard folders, as `merge` joins them.
pub trait MergeRows {
    /// Adds the rows of a folder's `games.csv`; a game another folder
    /// has too must be the same game.
    fn add(&mut self, games_csv: &Path) -> Result<(), TournamentError>;
    /// The games joined.
    fn count(&self) -> u64;
    /// Writes the joined `games.csv` into `out`.
    fn write(&self, out: &Path) -> Result<(), TournamentError>;
}

/// The rows of games of two players, by number.
#[derive(Default)]
struct TwoPlayerRows(std::collections::BTreeMap<u64, GameRow>);

impl MergeRows for TwoPlayerRows {
    fn add(&mut self, games_path: &Path) -> Result<(), TournamentError> {
        let rows = &mut self.0;
        for_each_row(games_path, |row| {
            if let Some(existing) = rows.get(&row.game) {
                if existing.bot_a != row.bot_a
                    || existing.bot_b != row.bot_b
                    || existing.seed != row.seed
                {
                    return Err(RowError::Differs { game: row.game });
                }
                return Ok(());
            }
            rows.insert(row.game, row);
            Ok(())
        })?;
        Ok(())
    }

    fn count(&self) -> u64 {
        self.0.len() as u64
    }

    fn write(&self, out: &Path) -> Result<(), TournamentError> {
        write_atomically(&out.join(GAMES_CSV), |w| {
            self.0.values().try_for_each(|row| w.serialize(row))
        })?;
        Ok(())
    }
}

/// Combines the folders' games into `out` through `rows` (checked first:
/// one tournament file, one key, each shard once, every game unless
/// `partial`), with its `tournament.toml`, `tournament.json` and
/// transcripts; returns the folders' description.
pub fn merge_folders(
    folders: &[PathBuf],
    out: &Path,
    partial: bool,
    rows: &mut dyn MergeRows,
) -> Result<FolderMeta, TournamentError> {
    let mut meta: Option<(FolderMeta, String, PathBuf)> = None;
    let mut shards: Vec<GivenShard> = vec![];
    let mut first_key: Option<(crate::key::RefereeKey, PathBuf)> = None;
    let mut keyless: Option<PathBuf> = None;
    for folder in folders {
        let meta_path = folder.join("tournament.json");
        let text = match input_file::read_to_string(&meta_path, Links::Refused, TEXT_CAP) {
            Err(e) if e.is_not_found() => {
                return Err(TournamentError::Merge {
                    path: meta_path,
                    message: "not there: is this a results folder of `referee tournament`?".into(),
                })
            }
            read => read?,
        };
        let this: FolderMeta = serde_json::from_str(&text).map_err(|e| TournamentError::Merge {
            path: meta_path.clone(),
            message: format!("not a results description: {e}"),
        })?;
        let this_shard = this.shard;
        if Format::from_name(&this.format).is_some_and(Format::has_rounds) {
            return Err(TournamentError::Merge {
                path: folder.clone(),
                message: format!(
                    "holds a {} tournament, which is played whole (no shards: each round \
                     depends on the rounds before); its results are complete in it",
                    this.format
                ),
            });
        }
        let source_path = folder.join("tournament.toml");
        let source = input_file::read_to_string(&source_path, Links::Refused, TEXT_CAP)?;
        match &meta {
            None => meta = Some((this, source, folder.clone())),
            Some((_, first_source, first)) if *first_source != source => {
                return Err(TournamentError::Merge {
                    path: folder.clone(),
                    message: format!(
                        "was played from a different tournament file than {}",
                        first.display()
                    ),
                })
            }
            Some(_) => {}
        }
        // Shards of one tournament drew their games with one key; a folder
        // with another key played other games (codes, the bots' seeds).
        let key_path = folder.join(crate::key::KEY_FILE);
        if !input_file::is_there(&key_path) {
            keyless.get_or_insert_with(|| folder.clone());
        } else {
            let key = crate::key::RefereeKey::read_kept(&key_path)?;
            match &first_key {
                None => first_key = Some((key, folder.clone())),
                Some((first, first_folder)) if *first != key => {
                    return Err(TournamentError::Merge {
                        path: folder.clone(),
                        message: format!(
                            "was played with another secret key than {} (its referee.key \
                             differs): give every shard the same --key-file",
                            first_folder.display()
                        ),
                    })
                }
                Some(_) => {}
            }
        }
        let real = fs::canonicalize(folder).unwrap_or_else(|_| folder.clone());
        if let Some(first) = shards
            .iter()
            .find(|s| s.real == real || (this_shard.is_some() && s.shard == this_shard))
        {
            if !partial {
                let what = match this_shard {
                    Some((i, n)) => format!("shard {i}/{n}"),
                    None => "the folder".to_string(),
                };
                return Err(TournamentError::Merge {
                    path: folder.clone(),
                    message: format!(
                        "{what} is given twice (also {}): give each shard once, or add \
                         --partial to merge them anyway",
                        first.given.display()
                    ),
                });
            }
        }
        // A folder played whole holds every game: beside any other folder,
        // games would be counted twice.
        if let Some(other) = shards
            .iter()
            .find(|s| s.shard.is_none() || this_shard.is_none())
            .filter(|_| !partial)
        {
            let whole = if this_shard.is_none() {
                folder
            } else {
                &other.given
            };
            return Err(TournamentError::Merge {
                path: folder.clone(),
                message: format!(
                    "{} holds the whole tournament (played without --shard), so merged with {} \
                     its games would be counted twice: merge the shards of one run, each \
                     once, or add --partial to merge them anyway",
                    whole.display(),
                    if this_shard.is_none() {
                        other.given.display()
                    } else {
                        folder.display()
                    }
                ),
            });
        }
        shards.push(GivenShard {
            shard: this_shard,
            real,
            given: folder.clone(),
        });
        // Its transcripts are checked now, before anything is written.
        shard_transcripts(folder)?;
        rows.add(&folder.join(GAMES_CSV))?;
    }
    // A folder without a key next to one with: nothing tells that it was
    // played with the same key (folders of referees before keys have none).
    if let (Some(folder), Some((_, keyed))) = (&keyless, &first_key) {
        return Err(TournamentError::Merge {
            path: folder.clone(),
            message: format!(
                "has no {} while {} has one: nothing shows it was played with the same secret \
                 key; copy that shard's key back, or play it again with --key-file",
                crate::key::KEY_FILE,
                keyed.display()
            ),
        });
    }
    let Some((meta, source, _)) = meta else {
        return Err(TournamentError::Merge {
            path: out.to_path_buf(),
            message: "no folders to merge".into(),
        });
    };
    let merged = rows.count();
    if merged < meta.total_games && !partial {
        let given: BTreeSet<u32> = shards
            .iter()
            .filter_map(|s| s.shard.map(|(i, _)| i))
            .collect();
        let count = shards.iter().find_map(|s| s.shard.map(|(_, n)| n));
        let not_given: Vec<String> = count
            .map(|n| {
                (1..=n)
                    .filter(|i| !given.contains(i))
                    .map(|i| format!("{i}/{n}"))
                    .collect()
            })
            .unwrap_or_default();
        let splits: BTreeSet<u32> = shards
            .iter()
            .filter_map(|s| s.shard.map(|(_, n)| n))
            .collect();
        let why = if splits.len() > 1 {
            // Shard I of N and shard J of M split the games differently:
            // together they hold neither split whole.
            let given: Vec<String> = shards
                .iter()
                .filter_map(|s| s.shard.map(|(i, n)| format!("{i}/{n}")))
                .collect();
            format!(
                "shards of different splits given ({}): give shards 1/N to N/N of one N",
                given.join(", ")
            )
        } else if not_given.is_empty() {
            "a shard not finished? finish it with --resume".to_string()
        } else {
            format!("shard {} not given", not_given.join(", "))
        };
        return Err(TournamentError::Merge {
            path: out.to_path_buf(),
            message: format!(
                "{} of the tournament's {} games are missing from these folders ({why}); \
                 nothing was written: add --partial to merge the games there are",
                meta.total_games - merged,
                meta.total_games
            ),
        });
    }
    fs::create_dir_all(out).map_err(io_error(out, "cannot create the folder"))?;
    rows.write(out)?;
    atomic_file::write(&out.join("tournament.toml"), source)
        .map_err(io_error(out, "cannot write tournament.toml"))?;
    let merged_meta = FolderMeta {
        shard: None,
        ..meta.clone()
    };
    atomic_file::write(
        &out.join("tournament.json"),
        serde_json::to_string_pretty(&merged_meta).expect("meta serializes"),
    )
    .map_err(io_error(out, "cannot write tournament.json"))?;
    merge_transcripts(folders, out)?;
    Ok(meta)
}

/// A folder given to `merge`: its shard (`I/N`, none for a whole run) and
/// where it really is, to name a shard given twice or not given.
pub(super) struct GivenShard {
    shard: Option<(u32, u32)>,
    real: PathBuf,
    given: PathBuf,
}

/// The shards' transcripts in the merged folder too (hard links where the
/// file system allows, else copies), so that its report has every game's
/// viewer. The folder stays private (0700), as a tournament's is.
pub(super) fn merge_transcripts(folders: &[PathBuf], out: &Path) -> Result<(), TournamentError> {
    let target = out.join("transcripts");
    for folder in folders {
        let transcripts = shard_transcripts(folder)?;
        if !transcripts.is_empty() && !target.exists() {
            transcripts_folder(out)?;
        }
        for from in transcripts {
            let Some(name) = from.file_name() else {
                continue;
            };
            let dest = target.join(name);
            if !input_file::is_there(&dest) {
                link_or_copy(&from, &dest)?;
            }
        }
    }
    Ok(())
}

/// The transcripts (`*.jsonl`) of a shard's folder, each a regular file of
/// at most [`input_file::TRANSCRIPT_CAP`] bytes: a link, a FIFO or a
/// device there is refused, naming it.
pub(super) fn shard_transcripts(folder: &Path) -> Result<Vec<PathBuf>, TournamentError> {
    let Ok(entries) = fs::read_dir(folder.join("transcripts")) else {
        return Ok(vec![]);
    };
    let mut found = vec![];
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().ends_with(".jsonl") {
            continue;
        }
        let path = entry.path();
        let regular = entry.file_type().is_ok_and(|t| t.is_file())
            && entry
                .metadata()
                .is_ok_and(|m| m.len() <= input_file::TRANSCRIPT_CAP);
        if !regular {
            input_file::open(&path, Links::Refused, input_file::TRANSCRIPT_CAP)?;
        }
        found.push(path);
    }
    Ok(found)
}

/// A transcript into another folder: a hard link where the file system
/// allows (`link` never follows a link), else a copy of the regular file,
/// at most [`input_file::TRANSCRIPT_CAP`] bytes.
pub(super) fn link_or_copy(from: &Path, dest: &Path) -> Result<(), TournamentError> {
    if fs::hard_link(from, dest).is_ok() {
        return Ok(());
    }
    input_file::copy(from, dest, input_file::TRANSCRIPT_CAP)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::run::test_folder;

    fn refusal(folder: &Path) -> String {
        match merge(&[folder.to_path_buf()], &folder.join("merged"), false) {
            Err(TournamentError::Merge { message, .. }) => message,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_folder_without_its_description_is_not_merged() {
        let folder = test_folder("merge-empty");
        assert!(refusal(&folder).starts_with("not there: is this a results folder"));
        fs::write(folder.join("tournament.json"), "[]").unwrap();
        assert!(refusal(&folder).starts_with("not a results description"));
        fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_tournament_played_in_rounds_is_not_merged() {
        let folder = test_folder("merge-rounds");
        for format in [Format::Swiss, Format::Knockout, Format::Groups] {
            let meta = FolderMeta {
                version: 1,
                name: "t".into(),
                game: "cryptron".into(),
                bots: vec!["x".into(), "y".into()],
                scoring: (2, 1, 0),
                total_games: 2,
                shard: None,
                format: format.name().into(),
                challengers: vec![],
            };
            meta.write(&folder).unwrap();
            let message = refusal(&folder);
            assert!(
                message.starts_with(&format!(
                    "holds a {} tournament, which is played whole",
                    format.name()
                )),
                "{message}"
            );
        }
        assert!(!folder.join("merged").exists());
        fs::remove_dir_all(folder).unwrap();
    }
}
