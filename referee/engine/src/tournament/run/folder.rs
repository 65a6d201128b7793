//! The results folder: made or checked against the file it belongs to
//! (`tournament.toml`, `tournament.json`), and a knockout's seeds kept.

use super::*;

impl FolderMeta {
    /// Keeps `total` as the games the tournament plays, in the folder's
    /// `tournament.json` (the report's "N of M games").
    pub(super) fn record_total(&mut self, out: &Path, total: u64) -> Result<(), TournamentError> {
        if self.total_games == total {
            return Ok(());
        }
        self.total_games = total;
        self.write(out)
    }

    pub(super) fn write(&self, out: &Path) -> Result<(), TournamentError> {
        let path = out.join("tournament.json");
        let json = serde_json::to_string_pretty(self).expect("meta serializes");
        atomic_file::write(&path, json).map_err(io_error(&path, "cannot write"))
    }
}

/// Whether results folder `out` holds a game played: a row of
/// `games.csv` or a game kept in its store. A file too large to be a
/// header alone, or that cannot be read, is taken to hold some (nothing
/// is then overwritten, and nothing large is read here).
fn holds_games(out: &Path) -> bool {
    const HEADER_AT_MOST: u64 = 64 << 10;
    let rows_after = |path: &Path, skip: usize| match fs::symlink_metadata(path) {
        // Nothing there (or `out` is no folder: said later, by its path).
        Err(e) => !matches!(
            e.kind(),
            io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
        ),
        Ok(m) if !m.is_file() || m.len() > HEADER_AT_MOST => true,
        Ok(_) => fs::read(path).map_or(true, |bytes| {
            bytes
                .split(|&b| b == b'\n')
                .skip(skip)
                .any(|line| !line.trim_ascii().is_empty())
        }),
    };
    rows_after(&out.join(GAMES_CSV), 1)
        || rows_after(&out.join(store::STORE_FOLDER).join(store::STORE_GAMES), 0)
}

/// Refuses a folder holding the games of another file when `plan` is
/// played in rounds: its rounds were paired from the old file's results,
/// so neither `--resume` nor `--update` (nor a dry run of them) can take
/// the new file.
pub(crate) fn refuse_rounds_of_another_file(
    plan: &TournamentPlan,
    out: &Path,
) -> Result<(), TournamentError> {
    let source_path = out.join("tournament.toml");
    if !plan.format.has_rounds() || !input_file::is_there(&source_path) || !holds_games(out) {
        return Ok(());
    }
    let existing = input_file::read_to_string(&source_path, Links::Refused, TEXT_CAP)?;
    if existing == plan.source {
        return Ok(());
    }
    Err(TournamentError::UpdateOfRounds {
        path: out.to_path_buf(),
        format: plan.format.name(),
    })
}

/// Refuses to resume (`--resume`, not `--update`) a folder holding games
/// as another shard than the one it began
/// (or a shard's folder as the whole tournament, or the other way): its
/// games would be set aside from `games.csv` and the shards would no
/// longer merge. A folder without a readable `tournament.json` is left
/// to the checks that read it.
pub(crate) fn refuse_another_shard(options: &RunOptions) -> Result<(), TournamentError> {
    let out = &options.out;
    if !options.resume || options.update || !holds_games(out) {
        return Ok(());
    }
    let now = options.shard.map(|s| (s.index, s.count));
    let path = out.join("tournament.json");
    let Ok(text) = input_file::read_to_string(&path, Links::Refused, TEXT_CAP) else {
        return Ok(());
    };
    let Ok(meta) = serde_json::from_str::<FolderMeta>(&text) else {
        return Ok(());
    };
    if meta.shard == now {
        return Ok(());
    }
    Err(TournamentError::ShardOfAnother {
        path: out.to_path_buf(),
        then: match meta.shard {
            Some((i, n)) => format!("shard {i}/{n} of this tournament"),
            None => "the whole tournament".to_string(),
        },
        now: match now {
            Some((i, n)) => format!("shard {i}/{n}"),
            None => "the whole tournament (no --shard)".to_string(),
        },
        with: match meta.shard {
            Some((i, n)) => format!("--shard {i}/{n}"),
            None => "no --shard".to_string(),
        },
    })
}

/// The lock of a results folder, held for as long as a run writes in it:
/// an exclusive `flock` on the folder itself, which leaves no file behind
/// and goes with the process however it ends (a killed run's folder is
/// free at once).
pub struct FolderLock {
    _folder: Option<std::os::fd::OwnedFd>,
}

/// Makes results folder `out` if it is not there, and takes its lock: two
/// runs at once in one folder (a second terminal's `--resume`, a requeued
/// cluster job) would play the same games twice and interleave their rows.
/// A file system that has no such locks (some network ones) runs
/// without.
pub fn lock_folder(out: &Path) -> Result<FolderLock, TournamentError> {
    use rustix::fs::{FlockOperation, Mode, OFlags};
    if fs::metadata(out).is_ok_and(|m| !m.is_dir()) {
        return Err(TournamentError::Unwritable {
            path: out.to_path_buf(),
            what: "cannot be the results folder",
            reason: io::Error::other("it is a file, not a folder"),
        });
    }
    fs::create_dir_all(out).map_err(|reason| TournamentError::Unwritable {
        path: out.to_path_buf(),
        what: "cannot create the results folder",
        reason,
    })?;
    let Ok(folder) = rustix::fs::open(
        out,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return Ok(FolderLock { _folder: None });
    };
    match rustix::fs::flock(&folder, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(FolderLock {
            _folder: Some(folder),
        }),
        Err(rustix::io::Errno::WOULDBLOCK) => Err(TournamentError::FolderLocked {
            path: out.to_path_buf(),
        }),
        Err(_) => Ok(FolderLock { _folder: None }),
    }
}

pub(crate) fn prepare_folder(
    plan: &TournamentPlan,
    options: &RunOptions,
) -> Result<FolderMeta, TournamentError> {
    let out = &options.out;
    // `out` is a folder: `lock_folder` made or found it, before this.
    let source_path = out.join("tournament.toml");
    let has_results = holds_games(out);
    if has_results && !options.resume && !options.update {
        return Err(TournamentError::FolderInUse { path: out.clone() });
    }
    refuse_rounds_of_another_file(plan, out)?;
    refuse_another_shard(options)?;
    if input_file::is_there(&source_path) {
        let existing = input_file::read_to_string(&source_path, Links::Refused, TEXT_CAP)?;
        if existing != plan.source && !has_results {
            // A run that stopped before its first game (a judge that
            // refused the file's players or options): nothing to keep, so
            // the corrected file begins the folder afresh, without what
            // the old file left that a run compares with.
            for left in [
                GAMES_CSV,
                "seeds.csv",
                crate::tournament::ffa::CONTENTS_JSON,
            ] {
                let _ = fs::remove_file(out.join(left));
            }
        } else if existing != plan.source {
            if !options.update {
                return Err(TournamentError::FolderOfAnother { path: out.clone() });
            }
            if plan.format.has_rounds() {
                return Err(TournamentError::UpdateOfRounds {
                    path: out.clone(),
                    format: plan.format.name(),
                });
            }
        }
    }
    let unwritable = |what| {
        let path = out.clone();
        move |reason| TournamentError::Unwritable { path, what, reason }
    };
    atomic_file::write(&source_path, &plan.source)
        .map_err(unwritable("cannot write tournament.toml in it"))?;
    let meta = FolderMeta {
        version: 1,
        name: plan.name.clone(),
        game: plan.config.game_name().to_string(),
        bots: plan.bot_names(),
        scoring: (plan.scoring.win, plan.scoring.draw, plan.scoring.loss),
        total_games: plan.format.rules(plan).announced_games(plan),
        shard: options.shard.map(|s| (s.index, s.count)),
        format: plan.format.name().into(),
        challengers: plan
            .challengers
            .iter()
            .map(|&c| plan.bots[c].name.clone())
            .collect(),
    };
    meta.write(out)?;
    if plan.format.has_knockout() {
        keep_seeds(plan, &out.join("seeds.csv"))?;
    }
    Ok(meta)
}

/// A knockout's seeds, kept in its folder on the first run (`seed,bot`)
/// and compared on resume: `seeds_from` reads another folder, which may
/// have changed since, and the bracket must stay the one begun.
pub(super) fn keep_seeds(plan: &TournamentPlan, path: &Path) -> Result<(), TournamentError> {
    let mut text = String::from("seed,bot\n");
    let mut writer = crate::reporter::csv::SafeWriter::new(
        csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(vec![]),
        false,
    );
    for (seed, &bot) in plan.seeds.iter().enumerate() {
        writer
            .write_record([(seed + 1).to_string(), plan.bots[bot].name.clone()])
            .expect("writing to memory cannot fail");
    }
    text.push_str(&String::from_utf8_lossy(
        &writer.into_inner().expect("writing to memory cannot fail"),
    ));
    if input_file::is_there(path) {
        let then = input_file::read_to_string(path, Links::Refused, TEXT_CAP)?;
        if then != text {
            let order = |t: &str| {
                t.lines()
                    .skip(1)
                    .filter_map(|l| l.split_once(','))
                    .map(|(s, b)| format!("{s}. {b}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(TournamentError::SeedsChanged {
                path: path.to_path_buf(),
                then: order(&then),
                now: order(&text),
            });
        }
        return Ok(());
    }
    atomic_file::write(path, text).map_err(io_error(path, "cannot write"))
}
