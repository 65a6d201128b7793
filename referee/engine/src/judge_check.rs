//! `referee judge-check`: a judge played against the replies recorded in
//! transcripts, with no bot, twice: are its messages the same both times
//! (deterministic), well formed, and within its time?

use std::path::PathBuf;
use std::time::Duration;

use crate::bot::ProcessLimits;
use crate::games::judge::{Config, Void};
use crate::games::{Game, Status, Winner};
use crate::runner::{JudgeGame, MatchError};
use crate::transcript::{Direction, Entry};

/// A recorded game the judge is played against: each seat's replies in
/// order, with the time each took (in milliseconds), and the names.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    pub names: Vec<String>,
    pub replies: Vec<Vec<(String, f64)>>,
}

impl Recorded {
    /// The replies of a transcript's entries.
    pub fn of(entries: &[Entry]) -> Recorded {
        let mut recorded = Recorded::default();
        for entry in entries {
            match entry {
                Entry::Header { bots, .. } => {
                    recorded.names = bots.clone();
                    recorded.replies = vec![Vec::new(); bots.len()];
                }
                Entry::Message {
                    bot,
                    dir: Direction::From,
                    line,
                    wall_us,
                    ..
                } => {
                    if let Some(replies) = recorded.replies.get_mut(bot.index()) {
                        replies.push((line.clone(), wall_us.map_or(0.0, |us| us as f64 / 1000.0)))
                    }
                }
                _ => {}
            }
        }
        // A transcript without its header still has two seats.
        let seats = recorded.names.len().max(2);
        recorded.names.resize(seats, String::new());
        recorded.replies.resize(seats, Vec::new());
        recorded
    }
}

/// One play of the judge against a record.
#[derive(Clone, Debug)]
pub struct JudgeRun {
    /// What the referee sent and what the judge answered, in order.
    pub messages: Vec<(String, String)>,
    /// The judge failed: how.
    pub void: Option<Void>,
    /// How the game ended: `A wins (reason)`, or why it stopped.
    pub ending: String,
    pub slowest: Duration,
}

/// Plays the judge of `config` against `recorded`: each reply the judge
/// asks for is the asked seat's next recorded one.
pub fn play_recorded(
    config: &Config,
    seed: &[u8; 64],
    recorded: &Recorded,
    limits: &ProcessLimits,
) -> Result<JudgeRun, MatchError> {
    let mut game = match JudgeGame::start_logged(config, seed, recorded.names.clone(), limits, true)
    {
        Ok(game) => game,
        Err(MatchError::Judge { void, .. }) => {
            return Ok(JudgeRun {
                messages: Vec::new(),
                void: Some(void),
                ending: "the judge failed at its start".into(),
                slowest: Duration::ZERO,
            })
        }
        Err(e) => return Err(e),
    };
    let mut next = vec![0usize; recorded.names.len()];
    let ending = loop {
        let seat = match game.status() {
            Status::Over(outcome) => {
                let who = match outcome.winner {
                    Winner::A => "A wins",
                    Winner::B => "B wins",
                    Winner::Draw => "draw",
                };
                break format!("{who} ({})", outcome.reason);
            }
            Status::Ask { seat, .. } => seat,
        };
        let Some((line, ms)) = recorded
            .replies
            .get(seat.index())
            .and_then(|r| r.get(next[seat.index()]))
        else {
            break format!("the record has no more replies of {seat}");
        };
        next[seat.index()] += 1;
        let parsed = game.parse_timed_reply(line, *ms);
        if game.void().is_some() {
            break "the judge failed".into();
        }
        match parsed {
            Err(detail) => break format!("{seat}'s reply is protocol: {detail}"),
            Ok(answer) => match game.apply(answer) {
                Ok(applied) => game = applied.game,
                Err(rejected) => {
                    game = rejected.game;
                    break format!("{seat}'s reply is illegal: {}", rejected.rule);
                }
            },
        }
    };
    if game.void().is_some_and(|v| v.interrupted) {
        return Err(MatchError::Interrupted);
    }
    game.stop("over", None);
    Ok(JudgeRun {
        messages: game.messages(),
        void: game.void(),
        ending,
        slowest: game.slowest(),
    })
}

/// What `judge-check` found for one record.
#[derive(Clone, Debug)]
pub struct RecordCheck {
    pub record: PathBuf,
    pub first: JudgeRun,
    /// The first message the second play differed at (1-based, counting
    /// both directions' pairs), with what each play had.
    pub differs: Option<(usize, String, String)>,
}

impl RecordCheck {
    pub fn passed(&self) -> bool {
        self.first.void.is_none() && self.differs.is_none()
    }
}

/// Plays the judge against `recorded` twice and compares.
pub fn check_record(
    config: &Config,
    seed: &[u8; 64],
    record: PathBuf,
    recorded: &Recorded,
    limits: &ProcessLimits,
) -> Result<RecordCheck, MatchError> {
    let first = play_recorded(config, seed, recorded, limits)?;
    let second = play_recorded(config, seed, recorded, limits)?;
    let shown = |pair: Option<&(String, String)>| match pair {
        Some((sent, answer)) => format!("to the judge {sent}, it answered {answer}"),
        None => "no such message".into(),
    };
    let count = first.messages.len().max(second.messages.len());
    let differs = (0..count)
        .find(|&i| first.messages.get(i) != second.messages.get(i))
        .map(|i| {
            (
                i + 1,
                shown(first.messages.get(i)),
                shown(second.messages.get(i)),
            )
        });
    Ok(RecordCheck {
        record,
        first,
        differs,
    })
}
