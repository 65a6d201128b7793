//! Transcripts: every message of a game in both directions, as JSON lines
//! with microsecond timestamps, and their pretty-printer (`referee replay`).
//!
//! Line 1 is a header, then one line per message, then the result:
//! ```text
//! {"type":"header","version":1,"game":"arrow5",...}
//! {"type":"message","t_us":1532,"bot":"a","dir":"to","line":"attack"}
//! {"type":"message","t_us":1610,"bot":"a","dir":"from","line":"0 1 2 3 4","wall_us":78,"cpu_us":61}
//! {"type":"message","t_us":1700,"bot":"b","dir":"stderr","line":"thinking..."}
//! {"type":"verdict","t_us":2001733,"bot":"b","verdict":"timeout","detail":"...","at_move":2}
//! {"type":"result","record":{...}}
//! ```
//!
//! A reply (`dir` `from`) carries the move's wall time (`wall_us`, from the
//! request's last byte to the reply's newline) and the CPU time the bot's
//! process used meanwhile (`cpu_us`), so that a slow bot can be told apart
//! from an overloaded machine. Both are absent in transcripts written
//! before they were kept, and `cpu_us` when the CPU clock could not be read.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::games::Seat;
use crate::input_file::Links;
use crate::record::{Holder, MatchRecord};
use crate::text::escape;
use crate::verdict::Disqualification;

pub const TRANSCRIPT_VERSION: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Referee to bot (stdin).
    To,
    /// Bot to referee (stdout).
    From,
    /// The bot's stderr: never part of the protocol.
    Stderr,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Entry {
    Header {
        version: u32,
        game: String,
        variant: String,
        seed: u64,
        /// Names then specs, A then B (then C, D, ...).
        bots: Vec<String>,
        specs: Vec<String>,
        /// Wall-clock start, seconds since the Unix epoch.
        started_unix: f64,
    },
    Message {
        t_us: u64,
        bot: Seat,
        dir: Direction,
        line: String,
        /// A reply's wall time, in microseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wall_us: Option<u64>,
        /// The CPU time the bot used for a reply, in microseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cpu_us: Option<u64>,
    },
    /// A bot was disqualified at `t_us`.
    Verdict {
        t_us: u64,
        bot: Seat,
        #[serde(flatten)]
        disqualification: Disqualification,
    },
    Result {
        record: Box<MatchRecord>,
    },
}

/// Gives the unnamed `file` the name `path`, in place of any file there
/// (as the named file's `truncate` would have).
fn give_name(file: &File, path: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let from = format!("/proc/self/fd/{}", file.as_raw_fd());
    let link = || {
        rustix::fs::linkat(
            rustix::fs::CWD,
            from.as_str(),
            rustix::fs::CWD,
            path,
            rustix::fs::AtFlags::SYMLINK_FOLLOW,
        )
    };
    match link() {
        Err(rustix::io::Errno::EXIST) => {
            std::fs::remove_file(path)?;
            link().map_err(io::Error::from)
        }
        other => other.map_err(io::Error::from),
    }
}

/// The first bytes of every transcript: its header line.
const HEADER_START: &[u8] = br#"{"type":"header""#;

/// Collects a transcript as the game goes and writes it when the game is
/// over. Nothing reaches the file during the game: the lines hold the bots'
/// secret codes, and a bot of the same user could read a file being
/// written. A game's transcript is small and bounded by the output caps.
/// A writing failure is reported once at the end, so a full disk cannot
/// crash a game.
pub struct TranscriptWriter {
    out: Option<Box<dyn Write + Send>>,
    /// A file made without a name (see [`TranscriptWriter::create`]) and
    /// the path it is given once written.
    unnamed: Option<(File, PathBuf)>,
    buffer: Vec<u8>,
    start: Instant,
    error: Option<io::Error>,
}

impl TranscriptWriter {
    /// A transcript written to `path` when the game is over. Where the
    /// file system can, the file is made without a name in `path`'s folder
    /// (`O_TMPFILE`) and named once written: the new inode is found outside
    /// the folder's lock, which the workers of a tournament share (on ext4
    /// after many files were removed, finding one may take a millisecond),
    /// and a referee killed mid-game leaves nothing behind.
    ///
    /// A file already at `path` is replaced only if it is a transcript (or
    /// empty): `--transcript bot.py` must not destroy the bot's source.
    pub fn create(path: &Path) -> io::Result<TranscriptWriter> {
        crate::atomic_file::refuse_to_replace(path, HEADER_START, "a transcript")?;
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        // Readable by the referee's user only: it holds both codes.
        let unnamed = std::os::unix::fs::OpenOptionsExt::custom_flags(
            std::os::unix::fs::OpenOptionsExt::mode(File::options().write(true), 0o600),
            libc::O_TMPFILE,
        )
        .open(folder);
        match unnamed {
            Ok(file) => {
                let name_later = file.try_clone()?;
                let mut writer = Self::to_writer(Box::new(file));
                writer.unnamed = Some((name_later, path.to_path_buf()));
                Ok(writer)
            }
            Err(_) => {
                let file = std::os::unix::fs::OpenOptionsExt::mode(
                    File::options().write(true).create(true).truncate(true),
                    0o600,
                )
                .open(path)?;
                Ok(Self::to_writer(Box::new(file)))
            }
        }
    }

    pub fn to_writer(out: Box<dyn Write + Send>) -> TranscriptWriter {
        TranscriptWriter {
            out: Some(out),
            unnamed: None,
            buffer: Vec::with_capacity(16 * 1024),
            start: Instant::now(),
            error: None,
        }
    }

    /// A writer that drops everything (no transcript asked for).
    pub fn none() -> TranscriptWriter {
        TranscriptWriter {
            out: None,
            unnamed: None,
            buffer: Vec::new(),
            start: Instant::now(),
            error: None,
        }
    }

    pub fn is_on(&self) -> bool {
        self.out.is_some()
    }

    pub fn header(
        &mut self,
        game: &str,
        variant: &str,
        seed: u64,
        bots: Vec<String>,
        specs: Vec<String>,
    ) {
        self.start = Instant::now();
        let started_unix = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        self.write(&Entry::Header {
            version: TRANSCRIPT_VERSION,
            game: game.to_string(),
            variant: variant.to_string(),
            seed,
            bots,
            specs,
            started_unix,
        });
    }

    /// A line to a bot, or a line of its stderr.
    pub fn message(&mut self, at: Instant, bot: Seat, dir: Direction, line: &str) {
        self.line(at, bot, dir, line, None, None);
    }

    /// A bot's reply, with the move's wall time and the CPU time the bot
    /// used for it (`None` if its CPU clock could not be read).
    pub fn reply(
        &mut self,
        at: Instant,
        bot: Seat,
        line: &str,
        wall: Duration,
        cpu: Option<Duration>,
    ) {
        self.line(at, bot, Direction::From, line, Some(wall), cpu);
    }

    fn line(
        &mut self,
        at: Instant,
        bot: Seat,
        dir: Direction,
        line: &str,
        wall: Option<Duration>,
        cpu: Option<Duration>,
    ) {
        if self.out.is_none() {
            return;
        }
        let micros = |d: Duration| d.as_micros() as u64;
        self.write(&Entry::Message {
            t_us: micros(at.saturating_duration_since(self.start)),
            bot,
            dir,
            line: line.to_string(),
            wall_us: wall.map(micros),
            cpu_us: cpu.map(micros),
        });
    }

    pub fn verdict(&mut self, at: Instant, bot: Seat, disqualification: &Disqualification) {
        if self.out.is_none() {
            return;
        }
        let t_us = at.saturating_duration_since(self.start).as_micros() as u64;
        self.write(&Entry::Verdict {
            t_us,
            bot,
            disqualification: disqualification.clone(),
        });
    }

    /// Writes the result and flushes; returns the first write error, if any.
    pub fn finish(mut self, record: &MatchRecord) -> io::Result<()> {
        self.write(&Entry::Result {
            record: Box::new(record.clone()),
        });
        if let Some(out) = &mut self.out {
            if let Err(e) = out.write_all(&self.buffer).and_then(|()| out.flush()) {
                self.error.get_or_insert(e);
            }
        }
        if let (Some((file, path)), None) = (&self.unnamed, &self.error) {
            if let Err(e) = give_name(file, path) {
                self.error = Some(e);
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn write(&mut self, entry: &Entry) {
        if self.out.is_none() || self.error.is_some() {
            return;
        }
        match serde_json::to_writer(&mut self.buffer, entry) {
            Ok(()) => self.buffer.push(b'\n'),
            Err(e) => self.error = Some(e.into()),
        }
    }
}

/// Why a transcript could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Input(#[from] crate::input_file::InputError),
    #[error("{path}, line {line}: not a transcript entry ({reason}); is this a file written by 'referee match --transcript'?")]
    Parse {
        path: String,
        line: usize,
        reason: String,
    },
    #[error("{path} is empty")]
    Empty { path: String },
}

/// Reads every entry of a transcript file.
pub fn read(path: &Path) -> Result<Vec<Entry>, ReadError> {
    match read_prefix(path)? {
        (entries, None) => Ok(entries),
        (_, Some(broken)) => Err(broken),
    }
}

/// Reads the entries of a transcript up to its first line that is not one
/// (a file cut short by a kill, or not UTF-8 there): those entries, and
/// why it stopped. An error when not even the first entry can be read.
pub fn read_prefix(path: &Path) -> Result<(Vec<Entry>, Option<ReadError>), ReadError> {
    read_prefix_with(path, Links::Followed)
}

/// [`read_prefix`] of a transcript kept in a results folder: a link there
/// is refused, not followed ([`crate::input_file`]).
pub fn read_prefix_kept(path: &Path) -> Result<(Vec<Entry>, Option<ReadError>), ReadError> {
    read_prefix_with(path, Links::Refused)
}

fn read_prefix_with(
    path: &Path,
    links: Links,
) -> Result<(Vec<Entry>, Option<ReadError>), ReadError> {
    let name = path.display().to_string();
    let bytes = crate::input_file::read(path, links, crate::input_file::TRANSCRIPT_CAP)?;
    let mut entries = vec![];
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let parsed = match std::str::from_utf8(line) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => serde_json::from_str(line).map_err(|e| e.to_string()),
            Err(_) => Err("not UTF-8 text".to_string()),
        };
        match parsed {
            Ok(entry) => entries.push(entry),
            Err(reason) => {
                let broken = ReadError::Parse {
                    path: name,
                    line: i + 1,
                    reason,
                };
                if entries.is_empty() {
                    return Err(broken);
                }
                return Ok((entries, Some(broken)));
            }
        }
    }
    if entries.is_empty() {
        return Err(ReadError::Empty { path: name });
    }
    Ok((entries, None))
}

/// Renders a transcript for a person: who said what, when, with stderr marked.
pub fn render(entries: &[Entry]) -> String {
    let mut out = String::new();
    let mut names: Vec<String> = Seat::BOTH.iter().map(|s| s.to_string()).collect();
    // Cryptron transcripts show the board after every turn.
    let mut board: Option<crate::games::cryptron::ReplayBoard> = None;
    // A judge game's frames (kept in its result), each after its move.
    let frames: &[serde_json::Value] = entries
        .iter()
        .find_map(|e| match e {
            Entry::Result { record } => Some(record.frames.as_slice()),
            _ => None,
        })
        .unwrap_or(&[]);
    let mut moves = 0u64;
    let show_frames = |out: &mut String, moves: u64| {
        for frame in crate::frame::at_move(frames, moves) {
            for row in crate::frame::text(frame) {
                out.push_str(&format!("{:>16}{row}\n", ""));
            }
        }
    };
    for entry in entries {
        match entry {
            Entry::Header {
                game,
                variant,
                seed,
                bots,
                specs,
                ..
            } => {
                // A transcript is a file anyone may hand over: what it
                // quotes is shown with control characters escaped.
                out.push_str(&format!(
                    "{} ({}), seed {seed}\n",
                    escape(game),
                    escape(variant)
                ));
                for (seat, (bot, spec)) in Seat::all(bots.len()).zip(bots.iter().zip(specs)) {
                    if Holder::of(bot, spec) == Holder::Referee {
                        // A solo game: nobody sits there.
                        out.push_str(&format!("  {seat}: the referee (holds the secret)\n"));
                    } else {
                        out.push_str(&format!("  {seat}: {}  [{}]\n", escape(bot), escape(spec)));
                    }
                }
                names = Seat::all(bots.len())
                    .zip(bots)
                    .map(|(seat, bot)| format!("{seat} {}", escape(bot)))
                    .collect();
                board = (game == "cryptron").then(Default::default);
                out.push('\n');
                show_frames(&mut out, 0);
            }
            Entry::Message {
                t_us,
                bot,
                dir,
                line,
                wall_us,
                cpu_us,
            } => {
                let who = seat_name(&names, *bot);
                let arrow = match dir {
                    Direction::To => "<-",
                    Direction::From => "->",
                    Direction::Stderr => "!!",
                };
                let tag = if *dir == Direction::Stderr {
                    " [stderr]"
                } else {
                    ""
                };
                let times = match (wall_us, cpu_us) {
                    (Some(wall), Some(cpu)) => {
                        format!("   [took {}, cpu {}]", show_us(*wall), show_us(*cpu))
                    }
                    (Some(wall), None) => format!("   [took {}]", show_us(*wall)),
                    (None, Some(cpu)) => format!("   [cpu {}]", show_us(*cpu)),
                    (None, None) => String::new(),
                };
                out.push_str(&format!(
                    "{:>10.3} ms  {arrow} {who}{tag}: {}{times}\n",
                    *t_us as f64 / 1000.0,
                    escape(line)
                ));
                if *dir == Direction::From {
                    moves += 1;
                    show_frames(&mut out, moves);
                }
                if let (Some(board), Direction::From) = (&mut board, dir) {
                    if let Some(drawing) = board.after_reply(*bot, line) {
                        for row in drawing.lines() {
                            out.push_str(&format!("{:>16}{row}\n", ""));
                        }
                    }
                }
            }
            Entry::Verdict {
                t_us,
                bot,
                disqualification: d,
            } => {
                out.push_str(&format!(
                    "{:>10.3} ms  XX {}: disqualified ({}) at reply {}: {}\n",
                    *t_us as f64 / 1000.0,
                    seat_name(&names, *bot),
                    d.verdict,
                    d.at_move,
                    escape(&d.detail)
                ));
            }
            Entry::Result { record } => {
                out.push('\n');
                out.push_str(&crate::report::render_match(record));
            }
        }
    }
    out
}

/// Microseconds as milliseconds with three decimals, as the timestamps.
fn show_us(us: u64) -> String {
    format!("{:.3} ms", us as f64 / 1000.0)
}

/// The name shown for `seat` (a transcript may name a seat its header has
/// not: then the seat's letter alone).
fn seat_name(names: &[String], seat: Seat) -> String {
    names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| seat.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_file_appears_whole_at_the_end_private_and_in_place_of_an_old_one() {
        use std::os::unix::fs::PermissionsExt;
        let record = crate::record::example();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.jsonl");
        // An older game's transcript (its header begins it); a file of
        // anything else is never replaced (`refuse_to_replace`).
        let older = format!(
            "{}\"an older game\"}}\n",
            std::str::from_utf8(HEADER_START).unwrap()
        );
        std::fs::write(&path, &older).unwrap();
        let writer = TranscriptWriter::create(&path).unwrap();
        if writer.unnamed.is_some() {
            // Nothing of this game under its name while it is played.
            assert_eq!(std::fs::read_to_string(&path).unwrap(), older);
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        }
        writer.finish(&record).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("{\"type\":\"result\""), "{text}");
        assert!(!text.contains("an older game"), "{text}");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn replies_show_their_times_and_older_transcripts_still_read() {
        let older = r#"{"type":"message","t_us":1610,"bot":"a","dir":"from","line":"0 1 2 3 4"}"#;
        let newer = r#"{"type":"message","t_us":1610,"bot":"a","dir":"from","line":"0 1 2 3 4","wall_us":78000,"cpu_us":61}"#;
        let older: Entry = serde_json::from_str(older).unwrap();
        let newer: Entry = serde_json::from_str(newer).unwrap();
        assert_eq!(render(&[older]), "     1.610 ms  -> A: 0 1 2 3 4\n");
        assert_eq!(
            render(&[newer]),
            "     1.610 ms  -> A: 0 1 2 3 4   [took 78.000 ms, cpu 0.061 ms]\n"
        );
        // Lines without times are written without the fields.
        let mut buffer = Vec::new();
        serde_json::to_writer(
            &mut buffer,
            &Entry::Message {
                t_us: 1,
                bot: Seat::A,
                dir: Direction::To,
                line: "attack".into(),
                wall_us: None,
                cpu_us: None,
            },
        )
        .unwrap();
        let text = String::from_utf8(buffer).unwrap();
        assert!(
            !text.contains("wall_us") && !text.contains("cpu_us"),
            "{text}"
        );
    }
}
