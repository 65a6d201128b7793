//! The record of one finished match: one serde shape for every game, used for
//! `--json`, transcripts and (flattened) tournament rows.

use serde::{Deserialize, Serialize};

use crate::games::{Seat, Winner};
use crate::replay::ReplayPlan;
use crate::verdict::{Disqualification, Verdict};

/// Bumped when a field changes meaning or disappears.
pub const RECORD_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub version: u32,
    pub game: String,
    pub variant: String,
    pub seed: u64,
    pub winner: Winner,
    /// The seat that moved first, as the game decided (Safe Cracker's
    /// `--first b` or coin toss). `a` in records written before it was kept.
    #[serde(default = "seat_a")]
    pub first: Seat,
    /// Why the game ended: `cracked`, `both-cracked`, `round-cap`,
    /// `disqualified`, ... (see `protocol.md`).
    pub reason: String,
    /// A then B (then C, D, ... in a game of more than two players): at
    /// least two, at most [`crate::games::MAX_SEATS`].
    #[serde(deserialize_with = "players_of_a_game")]
    pub players: Vec<PlayerRecord>,
    /// In a game of more than two players: each player's place, A's
    /// first, 0 the best; players who tie share a place, and a player
    /// disqualified is after every player who was not. Left out with two
    /// players (`winner` says it all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranks: Option<Vec<u32>>,
    /// The judge's scores, one per player, when it gave some (more than
    /// two players only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<f64>>,
    /// The command that plays this game again, rendered from `plan`
    /// (records written before the plan was kept have the command only).
    pub replay: String,
    /// What plays this game again, as data: what programs read
    /// (`referee reproduce`). Kept in transcripts, not in `--json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<ReplayPlan>,
    /// Readable lines: the set-up, each move with its feedback, what was hidden.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub account: Vec<String>,
    /// A judge game's views for its replay, one per move that drew one
    /// (the judge's `frame`s; public). None for the built-in games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub name: String,
    /// The BOT spec as given.
    pub spec: String,
    pub verdict: Verdict,
    /// For a verdict other than `ok`: what happened and at which reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disqualification: Option<Disqualification>,
    pub attacks: u32,
    /// Lines the bot wrote that answered requests.
    pub replies: u32,
    pub time_total_ms: f64,
    pub time_max_ms: f64,
    /// The most CPU time the bot used for one reply (the move of
    /// `time_max_ms` may be another one). 0 in records written before it
    /// was kept.
    #[serde(default)]
    pub cpu_max_ms: f64,
    /// CPU time of the bot's process over the whole game, start-up and
    /// time between moves included.
    pub cpu_total_ms: f64,
    pub peak_memory_kb: u64,
    /// Replies that came past the limit (and the bank) but within the
    /// time margin (`--time-margin`): each a strike. Left out when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub strikes: u32,
    /// Its stderr, kept when the bot was disqualified: the first lines and
    /// the last, with a marker line between when some were left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr_tail: Vec<String>,
}

/// Who holds a seat: a bot, or the referee (the codemaker of a solo game,
/// whose seat no process sits at). Records keep it as a name and a spec:
/// the referee's seat is the name [`Holder::REFEREE_NAME`] with no spec,
/// which no bot has (a bot's spec is never empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder<'a> {
    Bot { name: &'a str, spec: &'a str },
    Referee,
}

impl<'a> Holder<'a> {
    /// The name a record gives the referee's seat.
    pub const REFEREE_NAME: &'static str = "referee";

    /// The holder a record's name and spec stand for.
    pub fn of(name: &'a str, spec: &'a str) -> Holder<'a> {
        if name == Self::REFEREE_NAME && spec.is_empty() {
            Holder::Referee
        } else {
            Holder::Bot { name, spec }
        }
    }

    /// The name kept in records and transcripts.
    pub fn name(self) -> &'a str {
        match self {
            Holder::Bot { name, .. } => name,
            Holder::Referee => Self::REFEREE_NAME,
        }
    }

    /// The spec kept in records and transcripts (empty for the referee).
    pub fn spec(self) -> &'a str {
        match self {
            Holder::Bot { spec, .. } => spec,
            Holder::Referee => "",
        }
    }
}

/// A record's players, refused unless there are 2 to
/// [`crate::games::MAX_SEATS`] (every reader may take A and B for given).
fn players_of_a_game<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<PlayerRecord>, D::Error> {
    let players = Vec::<PlayerRecord>::deserialize(deserializer)?;
    if (2..=crate::games::MAX_SEATS).contains(&players.len()) {
        Ok(players)
    } else {
        Err(serde::de::Error::custom(format!(
            "a game has 2 to {} players, this record has {}",
            crate::games::MAX_SEATS,
            players.len()
        )))
    }
}

fn seat_a() -> Seat {
    Seat::A
}

impl MatchRecord {
    pub fn player(&self, seat: Seat) -> &PlayerRecord {
        &self.players[seat.index()]
    }

    /// Each player's place, 0 the best, ties sharing one: the `ranks` of
    /// a game of more than two players, or the two places `winner` gives.
    pub fn places(&self) -> Vec<u32> {
        if let Some(ranks) = &self.ranks {
            return ranks.clone();
        }
        match self.winner {
            Winner::A => vec![0, 1],
            Winner::B => vec![1, 0],
            Winner::Draw => vec![0, 0],
        }
    }

    /// The detail column of a results row: each disqualified player, by
    /// its name in `names` (A's first), with its verdict, reply and why;
    /// `; ` between them, empty when none was.
    pub fn disqualifications(&self, names: &[&str]) -> String {
        self.players
            .iter()
            .zip(names)
            .filter_map(|(p, name)| {
                p.disqualification
                    .as_ref()
                    .map(|d| format!("{name}: {} at reply {}: {}", d.verdict, d.at_move, d.detail))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl PlayerRecord {
    /// Who held this seat.
    pub fn holder(&self) -> Holder<'_> {
        Holder::of(&self.name, &self.spec)
    }
}

/// A small finished Arrow 5 match for the unit tests of its readers and
/// writers.
#[cfg(test)]
pub(crate) fn example() -> MatchRecord {
    let player = r#"{"name":"a","spec":"./a","verdict":"ok","attacks":1,"replies":1,
        "time_total_ms":1.0,"time_max_ms":1.0,"cpu_total_ms":1.0,"peak_memory_kb":1}"#;
    serde_json::from_str(&format!(
        r#"{{"version":1,"game":"arrow5","variant":"classic","seed":7,"winner":"a",
            "reason":"cracked","players":[{player},{player}],"replay":"referee match"}}"#
    ))
    .expect("the example parses")
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
