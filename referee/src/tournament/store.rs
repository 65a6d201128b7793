//! The games a results folder has played, by identity
//! ([`super::identity`]): `store/games.jsonl`, one JSON line per game,
//! only ever appended, and `store/transcripts/ID.jsonl`. The folder's
//! `games.csv` is written from it for the bots of the file as it is now;
//! games of bots since removed or replaced stay here, out of the standings,
//! and count again if the bot comes back unchanged.
//!
//! A line is written whole with one `write` before the game counts: a
//! killed referee leaves at most a last line cut short, which the next run
//! removes (that game is played again). The file is synced to disk at least
//! once a second, as `games.csv` is: a power cut costs at most the games of
//! the last second, which are played again.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::identity::Hash256;
use super::standings::GameRow;

/// The store's folder inside a results folder.
pub const STORE_FOLDER: &str = "store";
/// The games file inside [`STORE_FOLDER`].
pub const STORE_GAMES: &str = "games.jsonl";

/// One game as kept: its identity, the contents of the bots in seats A and
/// B, and its row as it was written when played (names and number of then).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredGame {
    pub id: String,
    pub contents: [String; 2],
    /// The game's index within its pairing.
    pub index: u64,
    pub row: GameRow,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{}: {what}: {source}", path.display())]
    Io {
        path: PathBuf,
        what: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("{}, line {line}: {message}; the store was changed by hand? Move it aside and play the games again", path.display())]
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// The games of a results folder, by identity.
pub struct Store {
    path: PathBuf,
    games: HashMap<Hash256, StoredGame>,
    file: Option<File>,
    last_sync: Instant,
}

impl Drop for Store {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            let _ = file.sync_data();
        }
    }
}

impl Store {
    /// The store of `out`, made if it has none, ready to append to. A last
    /// line cut short by a kill is removed first.
    pub fn open(out: &Path) -> Result<Store, StoreError> {
        let folder = out.join(STORE_FOLDER);
        let transcripts = folder.join("transcripts");
        private_folder(&transcripts)?;
        // Transcripts of games a kill cut short: those games are played
        // again.
        for entry in fs::read_dir(&transcripts).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().ends_with(".part") {
                let _ = fs::remove_file(entry.path());
            }
        }
        let path = folder.join(STORE_GAMES);
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&path)
            .map_err(io_error(&path, "cannot open"))?;
        let bytes = fs::read(&path).map_err(io_error(&path, "cannot read"))?;
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole < bytes.len() {
            file.set_len(whole as u64)
                .and_then(|()| file.sync_all())
                .map_err(io_error(&path, "cannot repair"))?;
        }
        let games = parse(&path, &bytes[..whole])?;
        Ok(Store {
            path,
            games,
            file: Some(file),
            last_sync: Instant::now(),
        })
    }

    /// The store of `out` as it is, to read only (empty if there is none):
    /// nothing is made or repaired.
    pub fn read(out: &Path) -> Result<Store, StoreError> {
        let path = out.join(STORE_FOLDER).join(STORE_GAMES);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => vec![],
            Err(e) => return Err(io_error(&path, "cannot read")(e)),
        };
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Ok(Store {
            games: parse(&path, &bytes[..whole])?,
            path,
            file: None,
            last_sync: Instant::now(),
        })
    }

    /// No games (a folder without a key has played none).
    pub fn empty() -> Store {
        Store {
            path: PathBuf::new(),
            games: HashMap::new(),
            file: None,
            last_sync: Instant::now(),
        }
    }

    pub fn get(&self, id: &Hash256) -> Option<&StoredGame> {
        self.games.get(id)
    }

    pub fn has(&self, id: &Hash256) -> bool {
        self.games.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The identities of every game kept.
    pub fn ids(&self) -> impl Iterator<Item = Hash256> + '_ {
        self.games.keys().copied()
    }

    /// Every game kept, in no particular order.
    pub fn games(&self) -> impl Iterator<Item = &StoredGame> {
        self.games.values()
    }

    /// Keeps a game: its line is written to the file (one `write`) before
    /// this returns. The first game kept of an identity stays.
    pub fn append(&mut self, id: Hash256, game: StoredGame) -> Result<(), StoreError> {
        let Some(file) = &mut self.file else {
            return Err(StoreError::Io {
                path: self.path.clone(),
                what: "cannot write",
                source: io::Error::other("opened to read only"),
            });
        };
        let mut line = serde_json::to_string(&game).expect("a stored game serializes");
        line.push('\n');
        file.write_all(line.as_bytes())
            .map_err(io_error(&self.path, "cannot write a game"))?;
        if self.last_sync.elapsed() > Duration::from_secs(1) {
            file.sync_data()
                .map_err(io_error(&self.path, "cannot write a game"))?;
            self.last_sync = Instant::now();
        }
        self.games.entry(id).or_insert(game);
        Ok(())
    }

    /// Where the transcript of game `id` is kept.
    pub fn transcript_path(out: &Path, id: &Hash256) -> PathBuf {
        out.join(STORE_FOLDER)
            .join("transcripts")
            .join(format!("{}.jsonl", id.to_hex()))
    }
}

fn parse(path: &Path, bytes: &[u8]) -> Result<HashMap<Hash256, StoredGame>, StoreError> {
    let mut games = HashMap::new();
    let text = String::from_utf8_lossy(bytes);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| StoreError::BadLine {
            path: path.to_path_buf(),
            line: i + 1,
            message,
        };
        let game: StoredGame =
            serde_json::from_str(line).map_err(|e| bad(format!("not a stored game: {e}")))?;
        let id = Hash256::from_hex(&game.id)
            .ok_or_else(|| bad(format!("'{}' is not a game identity", game.id)))?;
        games.entry(id).or_insert(game);
    }
    Ok(games)
}

/// A folder only the referee's user can read: it holds past games' codes.
fn private_folder(folder: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)
        .map_err(io_error(folder, "cannot create the folder"))?;
    for f in [folder, folder.parent().unwrap_or(folder)] {
        fs::set_permissions(f, fs::Permissions::from_mode(0o700))
            .map_err(io_error(f, "cannot make the folder private"))?;
    }
    Ok(())
}

fn io_error(path: &Path, what: &'static str) -> impl FnOnce(io::Error) -> StoreError {
    let path = path.to_path_buf();
    move |source| StoreError::Io { path, what, source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_cut_short_is_removed_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        assert!(store.is_empty());
        let row: GameRow = serde_json::from_str(
            r#"{"game":1,"seed":2,"bot_a":"x","bot_b":"y","first":"x","result":"a","winner":"x","reason":"r","attacks_a":1,"attacks_b":2,"verdict_a":"ok","verdict_b":"ok","replies_a":1,"replies_b":1,"time_total_ms_a":0.0,"time_max_ms_a":0.0,"time_total_ms_b":0.0,"time_max_ms_b":0.0,"cpu_ms_a":0.0,"cpu_ms_b":0.0,"cpu_max_ms_a":0.0,"cpu_max_ms_b":0.0,"peak_memory_kb_a":0,"peak_memory_kb_b":0,"detail":""}"#,
        )
        .unwrap();
        let id = Hash256([7; 32]);
        let game = StoredGame {
            id: id.to_hex(),
            contents: ["a".into(), "b".into()],
            index: 0,
            row,
        };
        store.append(id, game).unwrap();
        drop(store);
        let path = dir.path().join(STORE_FOLDER).join(STORE_GAMES);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"id\":\"cut").unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.len(), 1);
        assert!(store.has(&id));
        assert!(fs::read_to_string(&path).unwrap().ends_with("}\n"));
        fs::write(&path, "not json\n").unwrap();
        let e = Store::open(dir.path()).err().unwrap().to_string();
        assert!(e.contains("line 1") && e.contains("games.jsonl"), "{e}");
    }
}
