//! `--events FILE`: the run as a stream of JSON lines, one event a line,
//! written and flushed as things happen, for dashboards, chat bots and
//! `referee serve`/`watch` (docs/reference.md, "Event stream", has every
//! field). Every event carries the stream's version (`"v":1`) and its kind
//! (`"event"`), so a reader that starts anywhere in the file (a resumed
//! run appends) knows what it reads.
//!
//! A tournament's standings are kept here from the rows of `games.csv`
//! (those already in the folder, then each game as it is recorded), the
//! way the tournament sums them, so that a snapshot costs no read of the
//! folder.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::{json, Value};

use super::{Finish, GameStart, Place, ReportError, Reporter, Run};
use crate::model::admission::Admission;
use crate::model::ffa::{FfaEnd, FfaProgress, FfaRow, FfaStandings};
use crate::model::folder::FolderMeta;
use crate::model::standings::Standings;
use crate::record::MatchRecord;

/// The version every event carries (`"v"`); raised when a field changes
/// meaning or goes away (new fields may come without it).
pub const EVENTS_VERSION: u32 = 1;

/// How often, at most, a standings snapshot follows a finished game (the
/// run's last snapshot is always written, at its end).
pub const SNAPSHOT_EVERY: Duration = Duration::from_secs(1);

/// The events file of a results folder that `referee serve` and `referee
/// watch` read when no other is named: `--events` writes it there when
/// asked to (`--events DIR/events.jsonl`).
pub const EVENTS_FILE: &str = "events.jsonl";

/// Where the events go.
enum Sink {
    File { path: PathBuf, file: File },
    Stdout,
}

/// The stream's end, shared with the games being played (their `move`
/// events are written by the workers, as each move is made).
struct Out {
    sink: Sink,
    /// Set once a write failed: the stream stops, the run goes on.
    broken: bool,
}

impl Out {
    /// Writes one event: `{"v":1,"event":KIND,"time":...}` and `fields`.
    fn emit(&mut self, kind: &str, fields: &Value) {
        if self.broken {
            return;
        }
        // The version, kind and time lead every line, whatever the fields.
        let mut line = format!(
            "{{\"v\":{EVENTS_VERSION},\"event\":{},\"time\":{}",
            Value::from(kind),
            Value::from(unix_now())
        )
        .into_bytes();
        let fields = serde_json::to_vec(fields).expect("an event serializes");
        match fields.strip_prefix(b"{").filter(|rest| rest != b"}") {
            Some(rest) => {
                line.push(b',');
                line.extend_from_slice(rest);
            }
            None => line.push(b'}'),
        }
        line.push(b'\n');
        let written = match &mut self.sink {
            Sink::File { file, .. } => file.write_all(&line).and_then(|()| file.flush()),
            Sink::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(&line).and_then(|()| out.flush())
            }
        };
        if let Err(e) = written {
            // The stream is for watching: a full disk or a reader gone must
            // not stop a contest whose results are kept elsewhere.
            let path = match &self.sink {
                Sink::File { path, .. } => path.display().to_string(),
                Sink::Stdout => "stdout".into(),
            };
            eprintln!("warning: --events {path}: cannot write ({e}); no more events are written, the run goes on");
            self.broken = true;
        }
    }
}

/// Where a running game's `move` events go (`--events-moves`): the
/// stream of the run, one whole line at a time, from any worker.
#[derive(Clone)]
pub struct MoveEvents(Arc<Mutex<Out>>);

impl MoveEvents {
    /// One public move (the fields of [`super::live_game`]'s move line).
    pub fn emit(&self, fields: &Value) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .emit("move", fields);
    }
}

/// Why the events file cannot be opened.
#[derive(Debug, thiserror::Error)]
#[error("--events {}: cannot open it for writing; give a file in a folder you can write, or - for stdout", path.display())]
pub struct EventsError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// The event stream reporter.
pub struct Events {
    out: Arc<Mutex<Out>>,
    /// Each game's public moves (`move` events) too (`--events-moves`).
    moves: bool,
    /// A tournament's standings so far, once its run started.
    standings: Option<Standings>,
    /// A free-for-all's bots and games so far, once its run started: its
    /// standings are rated from them all, in game order.
    ffa: Option<(Vec<String>, Vec<FfaRow>)>,
    last_snapshot: Option<Instant>,
}

impl Events {
    /// Events to `path` (`-`: stdout), after the events the file holds
    /// (a resumed tournament's earlier runs), a line a killed run left
    /// half written cut off first, so that every line stays one whole
    /// event. The file is the user's alone.
    pub fn open(path: &Path, moves: bool) -> Result<Events, EventsError> {
        let sink = if path == Path::new("-") {
            Sink::Stdout
        } else {
            let error = |source| EventsError {
                path: path.to_path_buf(),
                source,
            };
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(path)
                .map_err(error)?;
            cut_partial_line(&mut file).map_err(error)?;
            Sink::File {
                path: path.to_path_buf(),
                file,
            }
        };
        Ok(Events {
            out: Arc::new(Mutex::new(Out {
                sink,
                broken: false,
            })),
            moves,
            standings: None,
            ffa: None,
            last_snapshot: None,
        })
    }

    /// Where the games' `move` events go, with `--events-moves`: the
    /// workers write them as the moves are made.
    pub fn move_events(&self) -> Option<MoveEvents> {
        self.moves.then(|| MoveEvents(Arc::clone(&self.out)))
    }

    /// Writes one event: `{"v":1,"event":KIND,"time":...}` and `fields`.
    fn emit(&mut self, kind: &str, fields: Value) {
        self.out
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .emit(kind, &fields);
    }

    fn snapshot(&mut self) {
        let Some(standings) = &self.standings else {
            return;
        };
        let fields = json!({
            "games": standings.games_counted(),
            "ranked_by": standings.ranking().describe(),
            "rows": standings.rows(),
        });
        self.emit("standings", fields);
        self.last_snapshot = Some(Instant::now());
    }

    /// A tournament's `run-started` event, with the folder's description
    /// when it has one (returned).
    fn tournament_started(
        &mut self,
        out: &Path,
        total: u64,
        already_done: u64,
        to_play: u64,
    ) -> Option<FolderMeta> {
        let meta = match super::folder::meta_of(out) {
            Ok(meta) => meta,
            Err(e) => {
                eprintln!("warning: --events: no standings snapshots: {e}");
                None
            }
        };
        let mut fields = json!({
            "command": "tournament",
            "folder": out,
            "games_total": total,
            "games_done": already_done,
            "games_to_play": to_play,
        });
        if let Some(meta) = &meta {
            let (win, draw, loss) = meta.scoring;
            fields["name"] = json!(meta.name);
            fields["game"] = json!(meta.game);
            fields["format"] = json!(meta.format);
            fields["bots"] = json!(meta.bots);
            // A free-for-all ranks by rating, not by points: its scoring
            // would say nothing.
            if meta.format == crate::model::tournament::Format::FreeForAll.name() {
                fields["ranked_by"] = json!(super::ffa::RANKED_BY);
            } else {
                fields["scoring"] = json!({"win": win, "draw": draw, "loss": loss});
            }
            fields["shard"] = json!(meta.shard.map(|(i, n)| format!("{i}/{n}")));
        }
        self.emit("run-started", fields);
        meta
    }

    /// A free-for-all's standings event: rated from every game so far.
    fn ffa_snapshot(&mut self, standings: &FfaStandings, games: u64) {
        self.emit(
            "standings",
            json!({
                "games": games,
                "ranked_by": super::ffa::RANKED_BY,
                "rows": standings.rows,
            }),
        );
        self.last_snapshot = Some(Instant::now());
    }

    /// The free-for-all's standings now, from its games so far.
    fn ffa_standings_now(&mut self) {
        if let Some((bots, rows)) = &self.ffa {
            let standings = crate::model::ffa::standings(bots, rows);
            let games = rows.len() as u64;
            self.ffa_snapshot(&standings, games);
        }
    }

    /// A team of `referee collect` admitted, or not.
    pub fn admission(&mut self, row: &Admission) {
        self.emit("admission", to_value(row));
    }

    /// `referee collect` started gathering `teams` teams into `out`.
    pub fn collect_started(&mut self, game: &str, out: &Path, teams: usize) {
        self.emit(
            "run-started",
            json!({"command": "collect", "game": game, "folder": out, "teams": teams}),
        );
    }

    /// `referee collect` is done (or was stopped).
    pub fn collect_finished(&mut self, admitted: usize, broken: usize, missing: usize) {
        self.emit(
            "run-finished",
            json!({"command": "collect", "admitted": admitted, "broken": broken, "missing": missing}),
        );
    }
}

/// Cuts `file` back to its last whole line (a killed writer's half line).
fn cut_partial_line(file: &mut File) -> io::Result<()> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    // Lines are short: look back a block at a time for the last newline.
    let mut end = len;
    let mut block = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let chunk = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            let keep = start + i as u64 + 1;
            if keep < len {
                file.set_len(keep)?;
            }
            file.seek(SeekFrom::End(0))?;
            return Ok(());
        }
        end = start;
    }
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(())
}

fn unix_now() -> f64 {
    let micros = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros());
    // Milliseconds are enough, and keep the lines short.
    (micros / 1000) as f64 / 1000.0
}

fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).expect("an event's data serializes")
}

/// A player's side of a game, as `sprt` events give it.
fn player(record: &MatchRecord, seat: usize) -> Value {
    let p = &record.players[seat];
    json!({
        "bot": p.name,
        "verdict": p.verdict,
        "detail": p.disqualification.as_ref().map(|d| &d.detail),
        "replies": p.replies,
        "time_total_ms": p.time_total_ms,
        "time_max_ms": p.time_max_ms,
        "peak_memory_kb": p.peak_memory_kb,
    })
}

impl Reporter for Events {
    fn run_started(&mut self, run: &Run<'_>) -> Result<(), ReportError> {
        match run {
            Run::Match | Run::Bench { .. } => {}
            Run::Tournament {
                out,
                total,
                already_done,
                to_play,
            } => {
                // The games already in the folder (a resumed run), summed
                // as the tournament sums them.
                if let Some(meta) = self.tournament_started(out, *total, *already_done, *to_play) {
                    match super::folder::standings_in(out, &meta) {
                        Ok(standings) => {
                            self.standings = Some(standings);
                            self.snapshot();
                        }
                        Err(e) => eprintln!("warning: --events: no standings snapshots: {e}"),
                    }
                }
            }
            Run::Check {
                name,
                bot,
                requirements,
                jobs,
            } => self.emit(
                "run-started",
                json!({"command": "check", "name": name, "bot": bot.name, "bot_spec": bot.command, "requirements": requirements, "jobs": jobs}),
            ),
            Run::Sprt {
                config,
                new,
                old,
                bounds,
                max_games,
            } => self.emit(
                "run-started",
                json!({
                    "command": "sprt",
                    "game": config.game_name(),
                    "variant": config.variant_name(),
                    "new": new.name, "new_spec": new.command,
                    "old": old.name, "old_spec": old.command,
                    "elo0": bounds.elo0, "elo1": bounds.elo1,
                    "alpha": bounds.alpha, "beta": bounds.beta,
                    "max_games": max_games,
                }),
            ),
        }
        Ok(())
    }

    fn game_started(&mut self, game: &GameStart<'_>) {
        self.emit(
            "game-started",
            json!({"game": game.number, "seed": game.seed, "bot_a": game.bots[0], "bot_b": game.bots[1]}),
        );
    }

    fn game_finished(
        &mut self,
        record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        match place {
            Place::Tournament { row, .. } => {
                let mut fields = to_value(row);
                // The reasons are the records' own: a game's readable
                // disqualification details stay in `detail`.
                fields["disqualification_a"] = to_value(&record.players[0].disqualification);
                fields["disqualification_b"] = to_value(&record.players[1].disqualification);
                self.emit("game-finished", fields);
                if let Some(standings) = &mut self.standings {
                    if let Err(e) = standings.add(row) {
                        eprintln!("warning: --events: game {}: {e}", row.game);
                    }
                }
                if self
                    .last_snapshot
                    .is_none_or(|t| t.elapsed() >= SNAPSHOT_EVERY)
                {
                    self.snapshot();
                }
            }
            Place::Sprt {
                pair,
                game,
                tally,
                llr,
            } => self.emit(
                "game-finished",
                json!({
                    "pair": pair,
                    "game_in_pair": game,
                    "seed": record.seed,
                    "result": record.winner,
                    "reason": record.reason,
                    "a": player(record, 0),
                    "b": player(record, 1),
                    "llr": llr,
                    "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
                    "pentanomial": tally.pentanomial,
                }),
            ),
            Place::Match | Place::Bench { .. } => {}
        }
        Ok(())
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        match finish {
            Finish::Tournament { standings, outcome } => {
                // The tournament's own standings (a knockout's ranked by the
                // bracket just walked) are the last snapshot.
                self.emit(
                    "standings",
                    json!({
                        "games": standings.games_counted(),
                        "ranked_by": standings.ranking().describe(),
                        "rows": outcome.standings,
                    }),
                );
                self.emit(
                    "run-finished",
                    json!({
                        "command": "tournament",
                        "played_now": outcome.played_now,
                        "games_in_folder": outcome.total_in_folder,
                        "games_total": outcome.scheduled,
                        "interrupted": outcome.interrupted,
                        "not_played": outcome.not_played,
                        "not_played_why": outcome.not_played_why,
                    }),
                );
            }
            Finish::Check(report) => {
                self.emit(
                    "run-finished",
                    json!({"command": "check", "passed": report.passed, "report": to_value(*report)}),
                );
            }
            Finish::Sprt(outcome) => {
                let result = match outcome.result {
                    crate::model::check::AbResult::H1 => "H1",
                    crate::model::check::AbResult::H0 => "H0",
                    crate::model::check::AbResult::Inconclusive => "inconclusive",
                };
                self.emit(
                    "run-finished",
                    json!({
                        "command": "sprt",
                        "result": result,
                        "llr": outcome.llr,
                        "wins": outcome.tally.wins, "draws": outcome.tally.draws, "losses": outcome.tally.losses,
                        "pentanomial": outcome.tally.pentanomial,
                        "verdicts_new": outcome.verdicts_new,
                        "verdicts_old": outcome.verdicts_old,
                    }),
                );
            }
            Finish::Bench(_) => {}
        }
        Ok(())
    }

    fn progress(&mut self, line: &str) {
        self.emit("progress", json!({ "line": line }));
    }
}

/// A free-for-all's run as events: the same events as other formats,
/// each game with all its seats, the standings by rating.
impl FfaProgress for Events {
    fn started(&mut self, out: &Path, total: u64, done: u64) {
        if let Some(meta) = self.tournament_started(out, total, done, total.saturating_sub(done)) {
            match super::folder::ffa_standings_in(out) {
                Ok((rows, _)) => {
                    self.ffa = Some((meta.bots, rows));
                    self.ffa_standings_now();
                }
                Err(e) => eprintln!("warning: --events: no standings snapshots: {e}"),
            }
        }
    }

    fn game_started(&mut self, number: u64, seed: u64, bots: &[&str]) {
        self.emit(
            "game-started",
            json!({"game": number, "seed": seed, "bot_a": bots.first(), "bot_b": bots.get(1), "bots": bots}),
        );
    }

    fn game_recorded(&mut self, row: &FfaRow) {
        let seats: Vec<Value> = row
            .seats
            .iter()
            .zip(crate::games::Seat::all(row.seats.len()))
            .map(|(s, seat)| {
                json!({
                    // As a move event names its player.
                    "seat": seat,
                    "bot": s.bot,
                    "place": s.place,
                    "score": s.score,
                    "verdict": s.verdict,
                    "replies": s.replies,
                    "time_max_ms": s.time_max_ms,
                    "peak_memory_kb": s.peak_memory_kb,
                })
            })
            .collect();
        self.emit(
            "game-finished",
            json!({
                "game": row.game,
                "seed": row.seed,
                "table": row.table,
                "rotation": row.rotation,
                "reason": row.reason,
                "detail": row.detail,
                "bot_a": row.seats.first().map(|s| &s.bot),
                "bot_b": row.seats.get(1).map(|s| &s.bot),
                "seats": seats,
            }),
        );
        if let Some((_, rows)) = &mut self.ffa {
            rows.push(row.clone());
        }
        if self
            .last_snapshot
            .is_none_or(|t| t.elapsed() >= SNAPSHOT_EVERY)
        {
            self.ffa_standings_now();
        }
    }

    fn finished(&mut self, end: &FfaEnd<'_>) {
        // The tournament's own standings are the last snapshot.
        self.ffa_snapshot(end.standings, end.total_in_folder);
        self.emit(
            "run-finished",
            json!({
                "command": "tournament",
                "played_now": end.played_now,
                "games_in_folder": end.total_in_folder,
                "games_total": end.scheduled,
                "interrupted": end.interrupted,
                "not_played": end.not_played,
                "not_played_why": end.not_played_why,
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_written_line_is_cut_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        std::fs::write(&path, "{\"v\":1}\n{\"v\":1,\"ev").unwrap();
        let mut events = Events::open(&path, false).unwrap();
        events.progress("next");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0], "{\"v\":1}");
        let last: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(last["event"], "progress");
        assert_eq!(last["v"], 1);

        // A file ending with a whole line is kept whole.
        let mut events = Events::open(&path, false).unwrap();
        events.progress("again");
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);
    }
}
