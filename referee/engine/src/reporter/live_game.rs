//! A tournament's running games, told move by move as they are played, to
//! whoever watches (`referee serve`, `referee watch`, a `tail -f`): each
//! game's live file in the results folder (`live/game-NNNNNN.jsonl`, made
//! when the game starts and removed when it ends) and, with
//! `--events-moves`, a `move` event in the run's stream for each move.
//!
//! Only what a spectator may see goes out: each move's account line and a
//! judge's frame, which the rules keep public (a hidden code appears in
//! the game's summary, at its end, never in an account line), never a
//! line a bot wrote or was sent (docs/reference.md, "Live files").
//!
//! Each line is one `write` of a whole JSON line to a file opened for
//! appending, so a reader sees whole lines, and at worst (a referee killed
//! mid-write) a last line without its newline, which it passes over.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use super::events::MoveEvents;
use crate::model::moves::{MoveWatcher, PublicMove};

/// The folder of the live files, in the results folder.
pub const LIVE_DIR: &str = "live";

/// The version every line of a live file carries (`"v"`).
pub const LIVE_VERSION: u32 = 1;

/// Game `number`'s live file in results folder `folder`.
pub fn live_path(folder: &Path, number: u64) -> PathBuf {
    folder
        .join(LIVE_DIR)
        .join(format!("game-{number:06}.jsonl"))
}

/// Where a tournament tells its running games; nothing by default.
#[derive(Clone, Default)]
pub struct LiveOutput {
    /// The results folder, whose `live/` gets the live files.
    pub folder: Option<PathBuf>,
    /// The stream's `move` events (`--events-moves`).
    pub events: Option<MoveEvents>,
}

impl LiveOutput {
    /// Empties results folder `out`'s `live/` of the files a killed run
    /// left, watched or not (their games are played again, or were: a
    /// file left would show its game running for ever), and, when the
    /// run is watched, makes `live/` (the referee's user's alone).
    pub fn prepare(&self, out: &Path) {
        let Some(folder) = &self.folder else {
            remove_left_over(&out.join(LIVE_DIR));
            return;
        };
        let dir = folder.join(LIVE_DIR);
        let made = fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .and_then(|()| fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)));
        if let Err(e) = made {
            eprintln!(
                "warning: {}: cannot make the folder of the running games ({e}); they are not shown move by move",
                dir.display()
            );
            return;
        }
        remove_left_over(&dir);
    }

    /// The watcher of game `number` (its seats, A first, named `bots`),
    /// or `None` when nobody watches: the game then costs nothing more.
    pub fn start(&self, number: u64, seed: u64, bots: &[&str]) -> Option<LiveGame> {
        if self.folder.is_none() && self.events.is_none() {
            return None;
        }
        let file = self.folder.as_ref().and_then(|folder| {
            let path = live_path(folder, number);
            match create(&path, number, seed, bots) {
                Ok(file) => Some((path, file)),
                Err(e) => {
                    eprintln!(
                        "warning: {}: cannot write game {number}'s moves as they are made ({e}); the game goes on",
                        path.display()
                    );
                    None
                }
            }
        });
        Some(LiveGame {
            number,
            started: Instant::now(),
            moves: 0,
            file,
            events: self.events.clone(),
        })
    }
}

/// Removes the live files in `dir` (none when it is not there).
fn remove_left_over(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("game-") && name.ends_with(".jsonl") {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// A new live file, its first line the game's.
fn create(path: &Path, number: u64, seed: u64, bots: &[&str]) -> io::Result<File> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| (d.as_millis() as f64) / 1000.0);
    let head = json!({
        "v": LIVE_VERSION,
        "kind": "game",
        "game": number,
        "seed": seed,
        "bot_a": bots.first(),
        "bot_b": bots.get(1),
        "bots": bots,
        "started": started,
    });
    write_line(&mut file, &head)?;
    Ok(file)
}

/// `value` and its newline in one write.
fn write_line(file: &mut File, value: &Value) -> io::Result<()> {
    let mut line = serde_json::to_vec(value).expect("a move serializes");
    line.push(b'\n');
    file.write_all(&line)
}

/// One running game's spectators: its live file, the stream's `move`
/// events. The file goes when the game ends (or the referee stops it).
pub struct LiveGame {
    number: u64,
    started: Instant,
    moves: u64,
    file: Option<(PathBuf, File)>,
    events: Option<MoveEvents>,
}

impl MoveWatcher for LiveGame {
    fn moved(&mut self, public: &PublicMove<'_>) {
        self.moves += 1;
        let mut fields = json!({
            "game": self.number,
            "n": self.moves,
            "bot": public.seat,
            "line": public.account,
            "t_us": self.started.elapsed().as_micros() as u64,
            "wall_us": public.wall.as_micros() as u64,
        });
        if let Some(frame) = public.frame {
            fields["frame"] = frame.clone();
        }
        if let Some(events) = &self.events {
            // A move is a bot's reply, as the rules took it.
            let mut event = fields.clone();
            event["dir"] = json!("from");
            events.emit(&event);
        }
        if let Some((path, file)) = &mut self.file {
            let mut line = json!({"v": LIVE_VERSION, "kind": "move"});
            if let (Some(line), Some(fields)) = (line.as_object_mut(), fields.as_object()) {
                line.extend(fields.clone());
            }
            if let Err(e) = write_line(file, &line) {
                eprintln!(
                    "warning: {}: cannot write game {}'s moves as they are made ({e}); the game goes on",
                    path.display(),
                    self.number
                );
                let _ = fs::remove_file(&*path);
                self.file = None;
            }
        }
    }
}

impl Drop for LiveGame {
    /// The game is over (recorded, or stopped): its transcript and its
    /// row tell the rest.
    fn drop(&mut self) {
        if let Some((path, _)) = self.file.take() {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Seat;
    use std::time::Duration;

    #[test]
    fn a_game_is_told_line_by_line_and_its_file_goes_when_it_ends() {
        let dir = tempfile::tempdir().unwrap();
        let output = LiveOutput {
            folder: Some(dir.path().to_path_buf()),
            events: None,
        };
        output.prepare(dir.path());
        let stale = live_path(dir.path(), 9);
        fs::write(&stale, "{\"v\":1,\"ki").unwrap();
        output.prepare(dir.path());
        assert!(!stale.exists(), "a killed run's file is removed");

        let mut game = output.start(3, 77, &["a\"b", "<i>"]).unwrap();
        let frame = json!({"text": "x"});
        game.moved(&PublicMove {
            seat: Seat::B,
            account: "B chose its code",
            frame: Some(&frame),
            wall: Duration::from_millis(2),
        });
        let path = live_path(dir.path(), 3);
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0]["kind"], "game");
        assert_eq!(lines[0]["bot_a"], "a\"b");
        assert_eq!(lines[0]["bots"], json!(["a\"b", "<i>"]));
        assert_eq!(lines[1]["kind"], "move");
        assert_eq!(lines[1]["n"], 1);
        assert_eq!(lines[1]["bot"], "b");
        assert_eq!(lines[1]["line"], "B chose its code");
        assert_eq!(lines[1]["wall_us"], 2000);
        assert_eq!(lines[1]["frame"]["text"], "x");
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        drop(game);
        assert!(!path.exists());
        assert!(LiveOutput::default().start(1, 1, &["a", "b"]).is_none());
    }
}
