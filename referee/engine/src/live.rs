//! A results folder watched while it is written (`referee serve`, `referee
//! watch`): read only, from any process, so that a tournament started
//! elsewhere (a shard too) can be followed. The standings and the games
//! finished come from `games.csv` (what the tournament recorded); the
//! games running now and the run's pace from its event stream
//! (`--events`, [`crate::reporter::events`]), when the folder has one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::input_file::{self, Links, TABLE_CAP};
use crate::model::folder::FolderMeta;
use crate::model::standings::{GameRow, StandingRow};
use crate::reporter::events::EVENTS_FILE;
use crate::reporter::folder::{
    ffa_standings_in, for_each_row, is_free_for_all, meta_of, standings_in, FolderError,
};

/// Why a folder cannot be watched.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    #[error("{}: no such folder; give the results folder of a tournament (its --out)", path.display())]
    Missing { path: PathBuf },
    #[error("{}: not a results folder (it has no tournament.json); give the --out folder of `referee tournament` or `merge`, or wait until the tournament has started", path.display())]
    NotResults { path: PathBuf },
    #[error(transparent)]
    Folder(#[from] FolderError),
    #[error("--events {}: {why}", path.display())]
    Events { path: PathBuf, why: String },
}

/// A game under way: started in the event stream, not yet finished.
#[derive(Clone, Debug, Serialize)]
pub struct Running {
    pub game: u64,
    pub bot_a: String,
    pub bot_b: String,
    /// Every seat's bot, A first (a free-for-all's game has more than
    /// two).
    pub bots: Vec<String>,
    /// When it started (seconds since the Unix epoch).
    pub started: f64,
    /// From its live file (`live/game-NNNNNN.jsonl`), when it has one:
    /// the moves made so far, and the last one's account line.
    pub moves: Option<u64>,
    pub last_move: Option<String>,
}

/// A running game's live file as it is now: its moves so far and the
/// last one's account line; `None` when the game has no live file (it
/// ended, or nobody watches it).
pub fn live_moves(folder: &Path, game: u64) -> Option<(u64, String)> {
    let path = crate::reporter::live_game::live_path(folder, game);
    let bytes = input_file::read(&path, Links::Refused, input_file::TRANSCRIPT_CAP).ok()?;
    // Whole lines only: the last one may be being written.
    let whole = &bytes[..bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)];
    let mut lines = whole.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    let head: Value = serde_json::from_slice(lines.next()?).ok()?;
    if head["kind"] != "game" || head["game"].as_u64() != Some(game) {
        return None;
    }
    let (mut moves, mut last) = (0, None);
    for line in lines {
        moves += 1;
        last = Some(line);
    }
    let last = last
        .and_then(|l| serde_json::from_slice::<Value>(l).ok())
        .and_then(|m| m["line"].as_str().map(String::from))
        .unwrap_or_default();
    Some((moves, last))
}

/// The folder as it is now.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    pub name: String,
    pub game: String,
    pub format: String,
    /// `I/N` for a shard's folder.
    pub shard: Option<String>,
    pub games_done: u64,
    pub games_total: u64,
    pub ranked_by: Option<&'static str>,
    pub standings: Vec<StandingRow>,
    /// The last games recorded, newest first (at most [`RECENT`]).
    pub recent: Vec<GameRow>,
    /// The games with a verdict other than `ok`, newest first (at most
    /// [`RECENT`]).
    pub verdicts: Vec<GameRow>,
    /// From the event stream: the games under way, oldest first.
    pub running: Vec<Running>,
    /// From the event stream: whether the last run finished (or was
    /// stopped) and, while it runs, the seconds left at its pace so far.
    pub finished: Option<bool>,
    pub seconds_left: Option<f64>,
    /// Where the running games come from, or why they are not known.
    pub events_note: String,
    /// A free-for-all's standings and last games (`standings`, `recent`
    /// and `verdicts` are then empty: its games have K seats).
    pub free_for_all: Option<FfaSnapshot>,
}

/// A free-for-all folder as it is now.
#[derive(Clone, Debug, Serialize)]
pub struct FfaSnapshot {
    /// Ranked by rating (Weng-Lin mu), with its 95% interval.
    pub standings: Vec<crate::model::ffa::FfaStanding>,
    /// The last games recorded, newest first (at most [`RECENT`]).
    pub recent: Vec<FfaGame>,
    /// The games with a disqualification, newest first (at most [`RECENT`]).
    pub verdicts: Vec<FfaGame>,
}

/// A free-for-all's game as watched: its seats' bots and places.
#[derive(Clone, Debug, Serialize)]
pub struct FfaGame {
    pub game: u64,
    pub table: u64,
    pub reason: String,
    pub detail: String,
    /// Seat A first: the bot, its place (1 first) and verdict.
    pub seats: Vec<(String, u32, crate::verdict::Verdict)>,
}

impl FfaGame {
    fn of(row: &crate::model::ffa::FfaRow) -> FfaGame {
        FfaGame {
            game: row.game,
            table: row.table,
            reason: row.reason.clone(),
            detail: row.detail.clone(),
            seats: row
                .seats
                .iter()
                .map(|s| (s.bot.clone(), s.place, s.verdict))
                .collect(),
        }
    }
}

/// How many recent games and verdicts a snapshot keeps.
pub const RECENT: usize = 12;

/// A results folder to watch, checked once.
pub struct Watched {
    pub folder: PathBuf,
    /// The event stream to read (`--events`, else the folder's
    /// `events.jsonl` when it has one).
    pub events: Option<PathBuf>,
    /// Given by `--events`: it must exist.
    events_given: bool,
}

impl Watched {
    /// `folder` if it is a results folder; `events`, a stream to read
    /// (else the folder's own `events.jsonl`, if any).
    pub fn open(folder: &Path, events: Option<&Path>) -> Result<Watched, LiveError> {
        if !folder.is_dir() {
            return Err(LiveError::Missing {
                path: folder.to_path_buf(),
            });
        }
        if meta_of(folder)?.is_none() {
            return Err(LiveError::NotResults {
                path: folder.to_path_buf(),
            });
        }
        if let Some(path) = events {
            if !path.is_file() {
                return Err(LiveError::Events {
                    path: path.to_path_buf(),
                    why: "no such file; give the file the tournament's --events writes".into(),
                });
            }
        }
        Ok(Watched {
            folder: folder.to_path_buf(),
            events: events.map(Path::to_path_buf),
            events_given: events.is_some(),
        })
    }

    fn events_path(&self) -> Option<PathBuf> {
        match &self.events {
            Some(path) => Some(path.clone()),
            None => Some(self.folder.join(EVENTS_FILE)).filter(|p| p.is_file()),
        }
    }

    /// The folder's description (`tournament.json`).
    pub fn meta(&self) -> Result<FolderMeta, LiveError> {
        meta_of(&self.folder)?.ok_or_else(|| LiveError::NotResults {
            path: self.folder.clone(),
        })
    }

    /// The size and time of the files a snapshot is made of: when it
    /// changes, the snapshot may have.
    pub fn stamp(&self) -> Vec<(u64, Option<std::time::SystemTime>)> {
        // The running games' live files too: each move changes one.
        let live = std::fs::read_dir(self.folder.join(crate::reporter::live_game::LIVE_DIR))
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| Some(entry.path()));
        let mut stamp: Vec<_> = [
            Some(self.folder.join(crate::reporter::csv::GAMES_CSV)),
            self.events_path(),
        ]
        .into_iter()
        .chain(live)
        .map(|p| {
            p.and_then(|p| std::fs::metadata(p).ok())
                .map_or((0, None), |m| (m.len(), m.modified().ok()))
        })
        .collect();
        stamp.sort();
        stamp
    }

    /// Every game recorded in `games.csv`, in the file's order.
    pub fn games(&self) -> Result<Vec<GameRow>, LiveError> {
        let path = self.folder.join(crate::reporter::csv::GAMES_CSV);
        let mut rows = vec![];
        if path.exists() {
            for_each_row(&path, |row| {
                rows.push(row);
                Ok(())
            })?;
        }
        Ok(rows)
    }

    /// Whether the folder holds a free-for-all (games of K seats).
    pub fn is_free_for_all(&self) -> bool {
        is_free_for_all(&self.folder)
    }

    /// Every game of a free-for-all folder, in game order.
    pub fn ffa_games(&self) -> Result<Vec<FfaGame>, LiveError> {
        let (rows, _) = ffa_standings_in(&self.folder)?;
        Ok(rows.iter().map(FfaGame::of).collect())
    }

    /// A free-for-all folder now: its rows of K seats, its standings by
    /// rating.
    fn ffa_snapshot(&self, meta: &FolderMeta) -> Result<(Snapshot, BTreeSet<u64>), LiveError> {
        let (rows, standings) = ffa_standings_in(&self.folder)?;
        let done = rows.iter().map(|r| r.game).collect();
        let newest = rows.iter().rev();
        let snapshot = Snapshot {
            name: meta.name.clone(),
            game: meta.game.clone(),
            format: meta.format.clone(),
            shard: meta.shard.map(|(i, n)| format!("{i}/{n}")),
            games_done: rows.len() as u64,
            games_total: meta.total_games,
            ranked_by: Some(crate::reporter::ffa::RANKED_BY),
            standings: vec![],
            recent: vec![],
            verdicts: vec![],
            running: vec![],
            finished: None,
            seconds_left: None,
            events_note: String::new(),
            free_for_all: Some(FfaSnapshot {
                standings: standings.rows,
                recent: newest.clone().take(RECENT).map(FfaGame::of).collect(),
                verdicts: newest
                    .filter(|r| !r.detail.is_empty())
                    .take(RECENT)
                    .map(FfaGame::of)
                    .collect(),
            }),
        };
        Ok((snapshot, done))
    }

    /// The folder now.
    pub fn snapshot(&self) -> Result<Snapshot, LiveError> {
        let meta = self.meta()?;
        let (mut snapshot, done) = if is_free_for_all(&self.folder) {
            self.ffa_snapshot(&meta)?
        } else {
            self.two_player_snapshot(&meta)?
        };
        self.add_running(&mut snapshot)?;
        // A stream whose run was killed never says its last games ended:
        // a game the folder holds is over, whatever the stream says.
        snapshot.running.retain(|r| !done.contains(&r.game));
        Ok(snapshot)
    }

    /// A folder of games of two now.
    fn two_player_snapshot(
        &self,
        meta: &FolderMeta,
    ) -> Result<(Snapshot, BTreeSet<u64>), LiveError> {
        let standings = standings_in(&self.folder, meta)?;
        let games = self.games()?;
        let done = games.iter().map(|g| g.game).collect();
        let newest = games.iter().rev();
        let recent: Vec<GameRow> = newest.clone().take(RECENT).cloned().collect();
        let verdicts: Vec<GameRow> = newest
            .filter(|g| !g.detail.is_empty())
            .take(RECENT)
            .cloned()
            .collect();
        Ok((
            Snapshot {
                name: meta.name.clone(),
                game: meta.game.clone(),
                format: meta.format.clone(),
                shard: meta.shard.map(|(i, n)| format!("{i}/{n}")),
                games_done: games.len() as u64,
                games_total: meta.total_games,
                ranked_by: standings.ranking().describe(),
                standings: standings.rows(),
                recent,
                verdicts,
                running: vec![],
                finished: None,
                seconds_left: None,
                events_note: String::new(),
                free_for_all: None,
            },
            done,
        ))
    }

    /// The games running now and the run's pace, from the event stream.
    fn add_running(&self, snapshot: &mut Snapshot) -> Result<(), LiveError> {
        match self.events_path() {
            None => {
                snapshot.events_note = format!(
                    "no event stream: the games running now are known when the tournament writes one (--events {})",
                    self.folder.join(EVENTS_FILE).display()
                )
            }
            Some(path) => match read_stream(&path) {
                Ok(stream) => {
                    snapshot.events_note = format!("events: {}", path.display());
                    stream.fill(snapshot);
                    for running in &mut snapshot.running {
                        if let Some((moves, last)) = live_moves(&self.folder, running.game) {
                            running.moves = Some(moves);
                            running.last_move = Some(last);
                        }
                    }
                }
                Err(why) if self.events_given => {
                    return Err(LiveError::Events { path, why });
                }
                Err(why) => snapshot.events_note = format!("{}: {why}", path.display()),
            },
        }
        Ok(())
    }
}

/// What the last run of an event stream says.
#[derive(Default)]
struct Stream {
    running: BTreeMap<u64, Running>,
    started_at: Option<f64>,
    finished_since: u64,
    finished: bool,
    last_time: Option<f64>,
}

impl Stream {
    fn fill(self, snapshot: &mut Snapshot) {
        if self.started_at.is_none() {
            return;
        }
        snapshot.running = self.running.into_values().collect();
        snapshot.finished = Some(self.finished);
        if let (false, Some(start), Some(last)) = (self.finished, self.started_at, self.last_time) {
            let left = snapshot.games_total.saturating_sub(snapshot.games_done);
            if self.finished_since > 0 && last > start {
                let per_game = (last - start) / self.finished_since as f64;
                snapshot.seconds_left = Some(per_game * left as f64);
            }
        }
    }
}

/// Reads an event stream: lines that are not whole events (the last one
/// while it is written, or a file that is not a stream) are passed over.
fn read_stream(path: &Path) -> Result<Stream, String> {
    let bytes = input_file::read(path, Links::Followed, TABLE_CAP).map_err(|e| e.why())?;
    let text = String::from_utf8_lossy(&bytes);
    let mut stream = Stream::default();
    let mut events = 0;
    for line in text.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if event["v"] != 1 {
            continue;
        }
        events += 1;
        let time = event["time"].as_f64();
        let game = event["game"].as_u64();
        match event["event"].as_str() {
            Some("run-started") if event["command"] == "tournament" => {
                stream = Stream {
                    started_at: time,
                    ..Stream::default()
                };
            }
            Some("game-started") => {
                if let Some(game) = game {
                    let name = |v: &Value| v.as_str().unwrap_or_default().to_string();
                    let (bot_a, bot_b) = (name(&event["bot_a"]), name(&event["bot_b"]));
                    // A free-for-all's game names all its seats.
                    let bots = match event["bots"].as_array() {
                        Some(all) => all.iter().map(name).collect(),
                        None => vec![bot_a.clone(), bot_b.clone()],
                    };
                    stream.running.insert(
                        game,
                        Running {
                            game,
                            bot_a,
                            bot_b,
                            bots,
                            started: time.unwrap_or(0.0),
                            moves: None,
                            last_move: None,
                        },
                    );
                }
            }
            Some("game-finished") => {
                if let Some(game) = game {
                    stream.running.remove(&game);
                    stream.finished_since += 1;
                    stream.last_time = time;
                }
            }
            Some("run-finished") => {
                stream.finished = true;
                stream.running.clear();
            }
            _ => {}
        }
    }
    if events == 0 && !bytes.is_empty() {
        return Err("not an event stream of the referee (no line reads as an event)".into());
    }
    Ok(stream)
}

/// A move's account line cut to a line of a terminal (a judge's may run
/// to 1000 characters).
fn shortened(line: &str) -> String {
    const MOST: usize = 100;
    match line.char_indices().nth(MOST) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    }
}

/// `seconds` as a person reads a time left: `45 s`, `3 min 20 s`, `2 h 5 min`.
pub fn readable_duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// The folder as one screen of plain text (`referee watch`, and its
/// `--once`): the run's progress, the standings with their intervals, the
/// games running now, the verdicts with their details, the last games.
/// `now`: the time of the frame (seconds since the Unix epoch), for how
/// long the running games have run. Every text a bot chose is escaped.
pub fn frame(snapshot: &Snapshot, now: f64) -> String {
    use crate::text::escape;
    use std::fmt::Write as _;
    let mut out = String::new();
    let shard = snapshot
        .shard
        .as_ref()
        .map(|s| format!(", shard {s}"))
        .unwrap_or_default();
    let state = match snapshot.finished {
        Some(true) => " · finished".to_string(),
        _ => snapshot
            .seconds_left
            .map(|s| format!(" · about {} left", readable_duration(s)))
            .unwrap_or_default(),
    };
    let _ = writeln!(
        out,
        "{} · {} ({}{shard}) · {} of {} games{state}",
        escape(&snapshot.name),
        snapshot.game,
        snapshot.format,
        snapshot.games_done,
        snapshot.games_total,
    );
    let width = 40usize;
    let filled = (snapshot.games_done as usize * width)
        .checked_div(snapshot.games_total as usize)
        .unwrap_or(0)
        .min(width);
    let percent = (snapshot.games_done * 100)
        .checked_div(snapshot.games_total)
        .unwrap_or(0);
    let _ = writeln!(
        out,
        "[{}{}] {percent}%",
        "#".repeat(filled),
        ".".repeat(width - filled)
    );
    match &snapshot.free_for_all {
        // Its own table: rating, interval, average place, first places.
        Some(ffa) => out.push_str(&crate::text::escape_lines(
            &crate::reporter::ffa::standings_text(&crate::model::ffa::FfaStandings {
                rows: ffa.standings.clone(),
                pairwise: vec![],
            }),
        )),
        None => out.push_str(&crate::text::escape_lines(
            &crate::reporter::terminal::standings_table(&snapshot.standings),
        )),
    }
    if let (Some(order), None) = (snapshot.ranked_by, &snapshot.free_for_all) {
        let _ = writeln!(out, "{order}");
    }
    let _ = writeln!(out, "\nPlaying now");
    if snapshot.running.is_empty() {
        let _ = writeln!(
            out,
            "  {}",
            if snapshot.finished.is_some() {
                "none"
            } else {
                "unknown"
            }
        );
    }
    for r in &snapshot.running {
        let bots: Vec<String> = r.bots.iter().map(|b| escape(b).into_owned()).collect();
        let _ = writeln!(
            out,
            "  game {}: {} ({})",
            r.game,
            bots.join(if bots.len() > 2 { ", " } else { " vs " }),
            readable_duration(now - r.started)
        );
        if let (Some(moves), Some(last)) = (r.moves, &r.last_move) {
            let _ = match moves {
                0 => writeln!(out, "    no move yet"),
                _ => writeln!(out, "    move {moves}: {}", escape(&shortened(last))),
            };
        }
    }
    if let Some(ffa) = &snapshot.free_for_all {
        ffa_games(&mut out, ffa);
        let _ = writeln!(out, "\n{}", escape(&snapshot.events_note));
        return out;
    }
    let _ = writeln!(out, "\nVerdicts (latest first)");
    if snapshot.verdicts.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for g in &snapshot.verdicts {
        let _ = writeln!(out, "  game {}: {}", g.game, escape(&g.detail));
    }
    let _ = writeln!(out, "\nLast games");
    if snapshot.recent.is_empty() {
        let _ = writeln!(out, "  none yet");
    }
    for g in &snapshot.recent {
        let outcome = match g.result {
            Some(crate::games::Winner::Draw) => "drawn".to_string(),
            _ if g.winner.is_empty() => "drawn".to_string(),
            _ => format!("won by {}", escape(&g.winner)),
        };
        let _ = writeln!(
            out,
            "  game {}: {} vs {}, {outcome} ({})",
            g.game,
            escape(&g.bot_a),
            escape(&g.bot_b),
            escape(&g.reason)
        );
    }
    let _ = writeln!(out, "\n{}", escape(&snapshot.events_note));
    out
}

/// A free-for-all's verdicts and last games, each with all its seats.
fn ffa_games(out: &mut String, ffa: &FfaSnapshot) {
    use crate::text::escape;
    use std::fmt::Write as _;
    let _ = writeln!(out, "\nVerdicts (latest first)");
    if ffa.verdicts.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for g in &ffa.verdicts {
        let _ = writeln!(out, "  game {}: {}", g.game, escape(&g.detail));
    }
    let _ = writeln!(out, "\nLast games");
    if ffa.recent.is_empty() {
        let _ = writeln!(out, "  none yet");
    }
    for g in &ffa.recent {
        let seats: Vec<String> = g
            .seats
            .iter()
            .map(|(bot, place, _)| format!("{} {place}", escape(bot)))
            .collect();
        let _ = writeln!(
            out,
            "  game {} (table {}): {} ({})",
            g.game,
            g.table,
            seats.join(", "),
            escape(&g.reason)
        );
    }
}
