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
use std::io::{self, BufRead, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::identity::Hash256;
use super::standings::GameRow;
use crate::input_file::{self, InputError, Links};

/// The store's folder inside a results folder.
pub use crate::model::folder::STORE_FOLDER;
/// The games file inside [`STORE_FOLDER`].
pub const STORE_GAMES: &str = "games.jsonl";

/// The longest line read: a game's line is a few hundred bytes.
const LINE_CAP: u64 = 1 << 20;

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
    #[error("{}: {what}", path.display())]
    Io {
        path: PathBuf,
        what: &'static str,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Input(#[from] crate::input_file::InputError),
    /// A line that does not read as a game (damaged, or changed by hand).
    /// Deleting it costs that game alone: `--resume` plays it again and
    /// keeps the others.
    #[error("{}, line {line}: {message}; the line is damaged or was changed by hand: delete that line (or restore it) and run again with --resume, which plays its game again and keeps every other", path.display())]
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// The games of a results folder, by identity. Their rows stay in the
/// file: memory holds, per game, where its line is and what planning asks
/// (its index and its bots' contents, each content once), some 60 bytes,
/// so that a tournament of many games runs in memory that hardly grows
/// with them.
pub struct Store {
    path: PathBuf,
    games: HashMap<Hash256, Kept>,
    /// Every bot content named by a game, once ([`Kept::contents`]).
    contents: Vec<String>,
    content_numbers: HashMap<String, u32>,
    /// Open to read the rows (and, from [`Store::open`], to append).
    file: Option<File>,
    /// Opened by [`Store::open`]: games may be appended.
    appending: bool,
    /// The file's length: where the next line goes.
    end: u64,
    /// The file's whole lines so far: the number of the last one.
    lines: u32,
    last_sync: Instant,
}

/// A kept game as memory holds it.
struct Kept {
    /// Its line in the file: the offset and length in bytes, and its
    /// number (to name it if it no longer reads).
    offset: u64,
    len: u32,
    line: u32,
    /// Its index within its pairing.
    index: u64,
    /// The contents of its bots in seats A and B, as numbers in
    /// [`Store::contents`].
    contents: [u32; 2],
}

impl Drop for Store {
    fn drop(&mut self) {
        if let (Some(file), true) = (&self.file, self.appending) {
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
        // As `input_file` opens: a link or a FIFO put in its place is
        // refused, not followed or waited on.
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => StoreError::Input(InputError::Link { path: path.clone() }),
                _ => io_error(&path, "cannot open")(e),
            })?;
        input_file::check_regular(&file, &path, input_file::TABLE_CAP)?;
        let length = file
            .metadata()
            .map_err(io_error(&path, "cannot read"))?
            .len();
        let mut store = Store::over(path, file)?;
        store.appending = true;
        if store.end < length {
            let file = store.file.as_ref().expect("opened above");
            file.set_len(store.end)
                .and_then(|()| file.sync_all())
                .map_err(io_error(&store.path, "cannot repair"))?;
        }
        Ok(store)
    }

    /// The store of `out` as it is, to read only (empty if there is none):
    /// nothing is made or repaired.
    pub fn read(out: &Path) -> Result<Store, StoreError> {
        let path = out.join(STORE_FOLDER).join(STORE_GAMES);
        match input_file::open(&path, Links::Refused, input_file::TABLE_CAP) {
            Ok(file) => Store::over(path, file),
            Err(e) if e.is_not_found() => Ok(Store::empty()),
            Err(e) => Err(e.into()),
        }
    }

    /// No games (a folder without a key has played none).
    pub fn empty() -> Store {
        Store {
            path: PathBuf::new(),
            games: HashMap::new(),
            contents: Vec::new(),
            content_numbers: HashMap::new(),
            file: None,
            appending: false,
            end: 0,
            lines: 0,
            last_sync: Instant::now(),
        }
    }

    /// The store of the games file `path`, open as `file`: its whole lines
    /// are read one by one (a last line cut short is left out: `end` stops
    /// before it).
    fn over(path: PathBuf, file: File) -> Result<Store, StoreError> {
        let mut store = Store::empty();
        store.path = path;
        let mut reader = io::BufReader::new(&file);
        let mut line = Vec::new();
        loop {
            // Read at the start of a run: Ctrl-C or SIGTERM stops it.
            if crate::bot::stop_requested() {
                return Err(InputError::Stopped {
                    path: store.path.clone(),
                }
                .into());
            }
            line.clear();
            let read = (&mut reader)
                .take(LINE_CAP)
                .read_until(b'\n', &mut line)
                .map_err(io_error(&store.path, "cannot read"))?;
            if read == 0 {
                break;
            }
            if line.last() != Some(&b'\n') {
                if read as u64 == LINE_CAP {
                    return Err(StoreError::BadLine {
                        path: store.path.clone(),
                        line: store.lines as usize + 1,
                        message: format!("longer than {LINE_CAP} bytes, which no game is"),
                    });
                }
                break;
            }
            store.lines = store.lines.saturating_add(1);
            let (number, offset) = (store.lines, store.end);
            store.end += read as u64;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let game = parse_line(&store.path, number as usize, &line)?;
            let id = Hash256::from_hex(&game.id).ok_or_else(|| StoreError::BadLine {
                path: store.path.clone(),
                line: number as usize,
                message: format!("'{}' is not a game identity", game.id),
            })?;
            store.keep(id, &game, number, offset, read);
        }
        drop(reader);
        store.file = Some(file);
        Ok(store)
    }

    /// Notes in memory a game whose line, number `line`, is at `offset`,
    /// `len` bytes long; the first game of an identity stays.
    fn keep(&mut self, id: Hash256, game: &StoredGame, line: u32, offset: u64, len: usize) {
        if self.games.contains_key(&id) {
            return;
        }
        let contents = [0, 1].map(|seat| {
            let content = &game.contents[seat];
            match self.content_numbers.get(content) {
                Some(&n) => n,
                None => {
                    let n = self.contents.len() as u32;
                    self.contents.push(content.clone());
                    self.content_numbers.insert(content.clone(), n);
                    n
                }
            }
        });
        self.games.insert(
            id,
            Kept {
                offset,
                len: len as u32,
                line,
                index: game.index,
                contents,
            },
        );
    }

    /// The game kept of identity `id`, read from the file.
    pub fn get(&self, id: &Hash256) -> Result<Option<StoredGame>, StoreError> {
        let Some(kept) = self.games.get(id) else {
            return Ok(None);
        };
        let file = self.file.as_ref().expect("a store with games has its file");
        let mut line = vec![0; kept.len as usize];
        std::os::unix::fs::FileExt::read_exact_at(file, &mut line, kept.offset)
            .map_err(io_error(&self.path, "cannot read"))?;
        parse_line(&self.path, kept.line as usize, &line).map(Some)
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

    /// Every game kept, in no particular order, as (its index within its
    /// pairing, the contents of its bots in seats A and B).
    pub fn indexes(&self) -> impl Iterator<Item = (u64, [&str; 2])> {
        self.games.values().map(|kept| {
            (
                kept.index,
                kept.contents.map(|n| self.contents[n as usize].as_str()),
            )
        })
    }

    /// Every game kept, read from the file, in no particular order.
    pub fn games(&self) -> impl Iterator<Item = Result<StoredGame, StoreError>> + '_ {
        self.games.keys().filter_map(|id| self.get(id).transpose())
    }

    /// Keeps a game: its line is written to the file (one `write`) before
    /// this returns. The first game kept of an identity stays.
    pub fn append(&mut self, id: Hash256, game: StoredGame) -> Result<(), StoreError> {
        let (Some(file), true) = (&mut self.file, self.appending) else {
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
        let offset = self.end;
        self.end += line.len() as u64;
        self.lines = self.lines.saturating_add(1);
        self.keep(id, &game, self.lines, offset, line.len());
        Ok(())
    }

    /// Where the transcript of game `id` is kept.
    pub fn transcript_path(out: &Path, id: &Hash256) -> PathBuf {
        out.join(STORE_FOLDER)
            .join("transcripts")
            .join(format!("{}.jsonl", id.to_hex()))
    }
}

/// Line `number` (1-based; 0 when unknown) of the games file.
fn parse_line(path: &Path, number: usize, line: &[u8]) -> Result<StoredGame, StoreError> {
    serde_json::from_slice(line).map_err(|e| StoreError::BadLine {
        path: path.to_path_buf(),
        line: number,
        message: format!("not a stored game: {e}"),
    })
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

    fn a_row(game: u64, winner: &str) -> GameRow {
        serde_json::from_str(&format!(
            r#"{{"game":{game},"seed":2,"bot_a":"x","bot_b":"y","first":"x","result":"a","winner":"{winner}","reason":"r","attacks_a":1,"attacks_b":2,"verdict_a":"ok","verdict_b":"ok","replies_a":1,"replies_b":1,"time_total_ms_a":0.0,"time_max_ms_a":0.0,"time_total_ms_b":0.0,"time_max_ms_b":0.0,"cpu_ms_a":0.0,"cpu_ms_b":0.0,"cpu_max_ms_a":0.0,"cpu_max_ms_b":0.0,"peak_memory_kb_a":0,"peak_memory_kb_b":0,"detail":""}}"#
        ))
        .unwrap()
    }

    #[test]
    fn games_are_read_back_from_the_file_by_identity() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let ids: Vec<Hash256> = (0..50u8).map(|n| Hash256([n; 32])).collect();
        for (n, id) in ids.iter().enumerate() {
            let game = StoredGame {
                id: id.to_hex(),
                contents: [format!("c{}", n % 3), "d".into()],
                index: n as u64,
                row: a_row(n as u64 + 1, &format!("w{n}")),
            };
            store.append(*id, game).unwrap();
        }
        // The first game of an identity stays.
        let again = StoredGame {
            id: ids[3].to_hex(),
            contents: ["e".into(), "f".into()],
            index: 99,
            row: a_row(99, "later"),
        };
        store.append(ids[3], again).unwrap();
        let check = |store: &Store| {
            assert_eq!(store.len(), 50);
            for (n, id) in ids.iter().enumerate() {
                let game = store.get(id).unwrap().unwrap();
                assert_eq!(game.row.winner, format!("w{n}"));
                assert_eq!(game.row.game, n as u64 + 1);
                assert_eq!(game.contents[0], format!("c{}", n % 3));
            }
            assert!(store.get(&Hash256([200; 32])).unwrap().is_none());
            let mut indexes: Vec<(u64, [&str; 2])> = store.indexes().collect();
            indexes.sort();
            assert_eq!(indexes[7], (7, ["c1", "d"]));
            assert_eq!(store.games().count(), 50);
        };
        check(&store);
        drop(store);
        check(&Store::open(dir.path()).unwrap());
        check(&Store::read(dir.path()).unwrap());
        // Read only: nothing can be appended.
        let mut read = Store::read(dir.path()).unwrap();
        let extra = StoredGame {
            id: Hash256([201; 32]).to_hex(),
            contents: ["a".into(), "b".into()],
            index: 0,
            row: a_row(1, "x"),
        };
        assert!(read.append(Hash256([201; 32]), extra).is_err());
    }

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
    #[test]
    fn a_line_spoilt_after_opening_is_named_by_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        for n in 0..3u8 {
            let id = Hash256([n; 32]);
            let game = StoredGame {
                id: id.to_hex(),
                contents: ["a".into(), "b".into()],
                index: n.into(),
                row: a_row(n.into(), "x"),
            };
            store.append(id, game).unwrap();
        }
        let path = dir.path().join(STORE_FOLDER).join(STORE_GAMES);
        // A blank line counts: line numbers are the file's, as an editor
        // shows them.
        fs::write(&path, format!("\n{}", fs::read_to_string(&path).unwrap())).unwrap();
        let store = Store::read(dir.path()).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        // The third game's line, spoilt in place (same length) after it
        // was read.
        let third = text.lines().nth(3).unwrap();
        let spoilt = text.replacen(third, &"x".repeat(third.len()), 1);
        fs::write(&path, spoilt).unwrap();
        let e = store.get(&Hash256([2; 32])).err().unwrap().to_string();
        assert!(e.contains("line 4") && e.contains("games.jsonl"), "{e}");
        assert!(store.get(&Hash256([1; 32])).unwrap().is_some());
    }
}
