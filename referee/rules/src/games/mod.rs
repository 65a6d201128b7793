//! Game rules as pure state machines.
//!
//! Nothing under `games/` knows about processes, clocks or I/O: a game is a
//! state that says whose turn it is and what that seat is asked
//! ([`Game::status`]), turns a reply line into a syntax-level reply
//! ([`Game::parse_reply`], failure = *protocol*), and judges that reply against
//! the rules ([`Game::apply`], failure = *illegal*). Applying consumes the state
//! and gives it back on rejection, so the runner can still report the position.
//!
//! The match runner (`crate::runner`) drives any [`Game`]; [`GameConfig`] is the
//! closed set of games the referee knows, chosen at run time.

pub mod arrow5;
pub mod code_game;
pub mod cryptron;
pub mod driver;
pub mod human;
pub mod judge;
pub mod mastermind;
pub mod rounds;
pub mod safecracker;

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

/// One of the players of a match: `A` is the first bot named on the command
/// line, `B` the second, and a game of more than two players (a judge's)
/// has `C`, `D`, ... after them. `A` moves first unless the game says
/// otherwise ([`Game::first_to_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(u8);

/// The most seats a game may have (one letter each, `A` to `Z`).
pub const MAX_SEATS: usize = 26;

const SEAT_LABELS: [&str; MAX_SEATS] = [
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s",
    "t", "u", "v", "w", "x", "y", "z",
];
const SEAT_NAMES: [&str; MAX_SEATS] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S",
    "T", "U", "V", "W", "X", "Y", "Z",
];

impl Seat {
    pub const A: Seat = Seat(0);
    pub const B: Seat = Seat(1);
    pub const BOTH: [Seat; 2] = [Seat::A, Seat::B];

    /// The seat of player `index` (0 = A); `None` past [`MAX_SEATS`].
    pub fn of_index(index: usize) -> Option<Seat> {
        (index < MAX_SEATS).then_some(Seat(index as u8))
    }

    /// The first `count` seats, A first.
    pub fn all(count: usize) -> impl Iterator<Item = Seat> {
        (0..count.min(MAX_SEATS)).map(|i| Seat(i as u8))
    }

    /// The opponent in a game of two seats (A and B swap; a seat past B
    /// has no single opponent and gives A).
    pub fn other(self) -> Seat {
        match self.0 {
            0 => Seat::B,
            _ => Seat::A,
        }
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Lower-case label used on the wire, in JSON and in transcripts.
    pub fn label(self) -> &'static str {
        SEAT_LABELS[self.index()]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SEAT_NAMES[self.index()])
    }
}

impl Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.label())
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seat, D::Error> {
        let label = String::deserialize(deserializer)?;
        SEAT_LABELS
            .iter()
            .position(|l| *l == label)
            .map(|i| Seat(i as u8))
            .ok_or_else(|| serde::de::Error::custom(format!("unknown seat '{label}'")))
    }
}

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    A,
    B,
    Draw,
}

impl Winner {
    /// The winner `seat`; in a game of more than two seats only A and B
    /// have a `Winner` of their own (the record's ranks say the rest), so
    /// a later seat gives `Draw`.
    pub fn seat(seat: Seat) -> Winner {
        match seat {
            Seat::A => Winner::A,
            Seat::B => Winner::B,
            _ => Winner::Draw,
        }
    }

    /// What `seat` is told at the end: `win`, `loss` or `draw`.
    pub fn result_for(self, seat: Seat) -> &'static str {
        match (self, seat) {
            (Winner::Draw, _) => "draw",
            (Winner::A, Seat::A) | (Winner::B, Seat::B) => "win",
            _ => "loss",
        }
    }
}

/// The end of a game by the rules (disqualifications are the runner's business).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Winner,
    /// A short machine-readable reason, e.g. `cracked`, `both-cracked`, `round-cap`.
    pub reason: String,
}

/// What the game wants next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// `seat` must answer. `request` is the line that asks; `None` when the
    /// protocol has the bot move without being asked (Cryptron's first move),
    /// its reply then answers the lines it already has.
    Ask {
        seat: Seat,
        request: Option<String>,
    },
    Over(Outcome),
}

/// An informational line for one seat; it expects no reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub to: Seat,
    pub line: String,
}

/// A reply the rules accepted.
#[derive(Debug)]
pub struct Applied<G> {
    pub game: G,
    /// Lines to pass on to the bots, in order.
    pub notices: Vec<Notice>,
    /// One human-readable line for the match account, with the rules' glyphs.
    pub account: String,
}

/// A reply the rules refused: the untouched state and the rule that was broken.
#[derive(Debug)]
pub struct Rejected<G> {
    pub game: G,
    pub rule: String,
}

/// A game between two seats, driven by request/reply lines.
pub trait Game: Sized {
    /// A reply that is well-formed but not yet judged against the rules.
    type Reply;

    /// The first line each seat receives, before any request.
    fn greeting(&self, seat: Seat) -> String;

    fn status(&self) -> Status;

    /// Syntax only: does the line have the shape of an answer to the current
    /// request? The error says what was expected.
    fn parse_reply(&self, line: &str) -> Result<Self::Reply, String>;

    /// Rules: apply the reply of the seat that was asked.
    fn apply(self, reply: Self::Reply) -> Result<Applied<Self>, Rejected<Self>>;

    /// Attacks (guesses, moves) made so far by `seat`.
    fn attacks(&self, seat: Seat) -> u32;

    /// Lines describing the set-up and, once over, what was hidden (the codes).
    fn summary(&self) -> Vec<String>;

    /// Lines for the account after the set-up and before the first move
    /// (e.g. who a coin toss made first).
    fn opening(&self) -> Vec<String> {
        Vec::new()
    }

    /// The seat that makes the first move (A unless the game decides otherwise,
    /// e.g. Safe Cracker's coin toss).
    fn first_to_move(&self) -> Seat {
        Seat::A
    }

    /// In a solo game, the code the referee holds, as the wire spells a code
    /// (`1 0 3 6 E`, `0 1 2 3`, `2-1-3`); `None` in a game between two seats.
    fn held_secret(&self) -> Option<String> {
        None
    }

    /// Every line the seats receive before any request, in order: by
    /// default each seat's [`Game::greeting`], A then B. A judge may greet
    /// a seat with several lines, or none.
    fn greetings(&self) -> Vec<Notice> {
        Seat::BOTH
            .map(|to| Notice {
                to,
                line: self.greeting(to),
            })
            .into()
    }

    /// [`Game::parse_reply`] told how long the reply took (a judge passes
    /// it on; the built-in rules do not look at clocks).
    fn parse_timed_reply(&self, line: &str, _time_ms: f64) -> Result<Self::Reply, String> {
        self.parse_reply(line)
    }

    /// Would the line be taken as a reply, were it the one read? Used to
    /// tell which of two lines a bot meant; a game that cannot say without
    /// playing the line (a judge) takes every line for one.
    fn is_reply(&self, line: &str) -> bool {
        self.parse_reply(line).is_ok()
    }

    /// Why the game is void, once its rules failed (a judge that crashed,
    /// hung or broke its protocol): the game has no result. The built-in
    /// rules never fail.
    fn void(&self) -> Option<judge::Void> {
        None
    }

    /// The game ended for a reason that is not the rules' (`verdict`: a
    /// seat's, when that is why), or it is over and its players told:
    /// a judge is told to stop.
    fn stop(&self, _reason: &str, _verdict: Option<(Seat, crate::verdict::Verdict)>) {}

    /// The views of the game for its replay, one per move that drew one
    /// (a judge's frames); none for the built-in games, whose viewers
    /// draw the moves themselves.
    fn frames(&self) -> Vec<serde_json::Value> {
        Vec::new()
    }

    /// The newest of [`Game::frames`] and how many there are, without a
    /// copy: a running game's latest view, for its spectators.
    fn last_frame(&self) -> Option<(usize, &serde_json::Value)> {
        None
    }

    /// With more than two players, each one's place once the game is over
    /// (0 the best, ties share a place); `None` for two players, whose
    /// [`Outcome::winner`] says it.
    fn ranks(&self) -> Option<Vec<u32>> {
        None
    }

    /// With more than two players, the scores the rules gave, one each.
    fn scores(&self) -> Option<Vec<f64>> {
        None
    }

    /// `seat` got a verdict in a game of more than two players: the rules
    /// may play on without it (a judge is told `out` and answers with its
    /// next turn). `Err`: the game cannot go on (two players, or rules
    /// that do not say; a judge that failed sets [`Game::void`]).
    fn out(self, _seat: Seat, _verdict: crate::verdict::Verdict) -> Result<Applied<Self>, Self> {
        Err(self)
    }
}

/// A secret index beyond the secrets of a solo game: every game's `solo`
/// refuses it the same way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no secret {index}: its {count} secrets are numbered 0 to {}", count.saturating_sub(1))]
pub struct NoSuchSecret {
    pub game: &'static str,
    pub index: u64,
    pub count: u64,
}

impl NoSuchSecret {
    /// `Ok(index)` if the game has a secret of that index, else the error.
    pub(crate) fn check(game: &'static str, index: u64, count: u64) -> Result<u64, NoSuchSecret> {
        if index < count {
            Ok(index)
        } else {
            Err(NoSuchSecret { game, index, count })
        }
    }
}

/// A validated game choice with its parameters: the closed set of games the
/// referee knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameConfig {
    Arrow5(arrow5::Config),
    Cryptron(cryptron::Config),
    Safecracker(safecracker::Config),
    Mastermind(mastermind::Config),
    /// A game served by an organiser's program (see [`judge`]).
    Judge(judge::Config),
}

/// The names accepted on the command line and in tournament files.
pub const GAME_NAMES: &[&str] = &["arrow5", "cryptron", "mastermind", "safecracker"];

/// Game parameters as the user gave them (flags or a tournament file), before
/// they are checked against the chosen game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    pub variant: Option<String>,
    pub codes: Option<String>,
    pub max_rounds: Option<u32>,
    /// Safe Cracker: digits run from 1 to this (D).
    pub digits: Option<u8>,
    /// Safe Cracker: digits per code (L).
    pub length: Option<u8>,
    /// Safe Cracker: the "limited attempts" variation, guesses per player.
    pub attempts: Option<u32>,
    /// Safe Cracker: who guesses first, `a`, `b` or `toss`.
    pub first: Option<String>,
    /// Mastermind: N, the pegs of a code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pegs: Option<u8>,
    /// Mastermind: C, the colours.
    #[serde(default, alias = "colors", skip_serializing_if = "Option::is_none")]
    pub colours: Option<u8>,
    /// Mastermind: T, each codebreaker's attacks at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_attacks: Option<u32>,
}

impl GameOptions {
    /// The options that are set, by their flag names (without `--`).
    pub fn given(&self) -> Vec<&'static str> {
        let GameOptions {
            variant,
            codes,
            max_rounds,
            digits,
            length,
            attempts,
            first,
            pegs,
            colours,
            max_attacks,
        } = self;
        [
            ("variant", variant.is_some()),
            ("codes", codes.is_some()),
            ("max-rounds", max_rounds.is_some()),
            ("digits", digits.is_some()),
            ("length", length.is_some()),
            ("attempts", attempts.is_some()),
            ("first", first.is_some()),
            ("pegs", pegs.is_some()),
            ("colours", colours.is_some()),
            ("max-attacks", max_attacks.is_some()),
        ]
        .into_iter()
        .filter(|(_, set)| *set)
        .map(|(name, _)| name)
        .collect()
    }

    /// Refuses every option that is set but not in `accepted`: a flag meant
    /// for another game is a mistake to report, not to ignore.
    pub fn accept_only(
        &self,
        game: &'static str,
        accepted: &[&'static str],
    ) -> Result<(), GameConfigError> {
        match self.given().into_iter().find(|o| !accepted.contains(o)) {
            Some(option) => Err(GameConfigError::NotApplicable {
                game,
                option,
                accepted: if accepted.is_empty() {
                    "none".to_string()
                } else {
                    accepted
                        .iter()
                        .map(|o| format!("--{o}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            }),
            None => Ok(()),
        }
    }
}

/// Why game options were refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GameConfigError {
    #[error("unknown game '{name}'{suggestion}; the games are: {}", GAME_NAMES.join(", "))]
    UnknownGame { name: String, suggestion: String },
    #[error("{game}: unknown variant '{variant}'; choose one of: {choices}")]
    UnknownVariant {
        game: &'static str,
        variant: String,
        choices: &'static str,
    },
    #[error("{game}: {option} must be {expected}, got '{value}'")]
    BadValue {
        game: &'static str,
        option: &'static str,
        expected: &'static str,
        value: String,
    },
    #[error("{game} has no option --{option}; leave it out (its options are: {accepted})")]
    NotApplicable {
        game: &'static str,
        option: &'static str,
        accepted: String,
    },
}

impl GameConfig {
    pub fn from_options(name: &str, options: &GameOptions) -> Result<GameConfig, GameConfigError> {
        match name.to_ascii_lowercase().as_str() {
            "arrow5" | "arrow-5" | "arrow_5" => {
                arrow5::Config::from_options(options).map(GameConfig::Arrow5)
            }
            "cryptron" | "hackdroids" => {
                cryptron::Config::from_options(options).map(GameConfig::Cryptron)
            }
            "safecracker" | "safe-cracker" | "safe_cracker" => {
                safecracker::Config::from_options(options).map(GameConfig::Safecracker)
            }
            "mastermind" | "master-mind" => {
                mastermind::Config::from_options(options).map(GameConfig::Mastermind)
            }
            _ => Err(GameConfigError::UnknownGame {
                name: name.to_string(),
                suggestion: suggest(name, GAME_NAMES)
                    .map(|s| format!(" (did you mean '{s}'?)"))
                    .unwrap_or_default(),
            }),
        }
    }

    pub fn game_name(&self) -> &str {
        match self {
            GameConfig::Arrow5(_) => "arrow5",
            GameConfig::Cryptron(_) => "cryptron",
            GameConfig::Safecracker(_) => "safecracker",
            GameConfig::Mastermind(_) => "mastermind",
            GameConfig::Judge(c) => &c.name,
        }
    }

    /// The judge of a judge game; `None` for a built-in game.
    pub fn judge(&self) -> Option<&judge::Config> {
        match self {
            GameConfig::Arrow5(_)
            | GameConfig::Cryptron(_)
            | GameConfig::Safecracker(_)
            | GameConfig::Mastermind(_) => None,
            GameConfig::Judge(c) => Some(c),
        }
    }

    /// The GAME argument of a command line that plays this game: a
    /// built-in game's name, a judge's path.
    pub fn game_argument(&self) -> &str {
        match self {
            GameConfig::Arrow5(_)
            | GameConfig::Cryptron(_)
            | GameConfig::Safecracker(_)
            | GameConfig::Mastermind(_) => self.game_name(),
            GameConfig::Judge(c) => &c.path,
        }
    }

    pub fn variant_name(&self) -> String {
        match self {
            GameConfig::Arrow5(c) => c.variant.name().to_string(),
            GameConfig::Cryptron(c) => c.variant_name().to_string(),
            GameConfig::Safecracker(c) => c.variant_name(),
            GameConfig::Mastermind(c) => c.variant_name(),
            GameConfig::Judge(c) => c.variant_name(),
        }
    }

    /// This configuration in the canonical form that identifies games
    /// (see [`CanonicalConfig`]).
    pub fn canonical(&self) -> CanonicalConfig {
        let (game, fields) = match self {
            GameConfig::Arrow5(c) => ("arrow5", c.canonical_fields()),
            GameConfig::Cryptron(c) => ("cryptron", c.canonical_fields()),
            GameConfig::Safecracker(c) => ("safecracker", c.canonical_fields()),
            GameConfig::Mastermind(c) => ("mastermind", c.canonical_fields()),
            // Every judge game is `judge`; its name is one of its fields.
            GameConfig::Judge(c) => ("judge", c.canonical_fields()),
        };
        CanonicalConfig { game, fields }
    }

    /// The flags that reproduce this configuration on the `match` command line.
    pub fn cli_flags(&self) -> Vec<String> {
        match self {
            GameConfig::Arrow5(c) => c.cli_flags(),
            GameConfig::Cryptron(c) => c.cli_flags(),
            GameConfig::Safecracker(c) => c.cli_flags(),
            GameConfig::Mastermind(c) => c.cli_flags(),
            GameConfig::Judge(c) => c.cli_flags(),
        }
    }
}

/// A game's configuration as data in a spelling of its own, which no
/// renamed flag, option or value name changes: what a tournament's stored
/// games are keyed by (their identity, `tournament::identity` in the
/// engine), so it must never change for a configuration that exists.
///
/// Each game lists its fields by name and value, in a fixed order; the
/// spellings are written out in each game's `canonical_fields`, apart from
/// the names the command line and the tournament files use. A field added
/// to a game later is listed only when its value differs from what every
/// earlier game had, so that every identity made before stays the same.
/// A change that cannot keep to that rule is a new version of the form
/// ([`CanonicalConfig::VERSION`]), and the stores must then map the
/// identities of the old one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalConfig {
    pub game: &'static str,
    pub fields: Vec<(&'static str, String)>,
}

impl CanonicalConfig {
    /// The version of the form [`CanonicalConfig::bytes`] writes.
    pub const VERSION: u32 = 1;

    /// Version 1 of the form, as bytes: `referee game v1`, then the game,
    /// then each field as `--NAME` and its value, all separated by NUL
    /// bytes. Its layout is that of the identities made before the form
    /// had a name (they were hashed from the match command's flags, which
    /// then spelled every field the same way), so those stay valid.
    pub fn bytes(&self) -> Vec<u8> {
        let mut bytes = format!("referee game v{}\0{}", Self::VERSION, self.game).into_bytes();
        for (name, value) in &self.fields {
            bytes.extend_from_slice(b"\0--");
            bytes.extend_from_slice(name.as_bytes());
            bytes.push(0);
            bytes.extend_from_slice(value.as_bytes());
        }
        bytes
    }
}

/// The closest known name, if it is close enough to be a likely typo.
pub fn suggest<'a>(given: &str, known: &[&'a str]) -> Option<&'a str> {
    let given = given.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&given, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A numeric option, if given, checked against its range; `expected` says
/// the range in words for the error.
pub(crate) fn checked<T: PartialOrd + ToString + Copy>(
    game: &'static str,
    option: &'static str,
    value: Option<T>,
    range: std::ops::RangeInclusive<T>,
    expected: &'static str,
) -> Result<Option<T>, GameConfigError> {
    match value {
        Some(v) if !range.contains(&v) => Err(GameConfigError::BadValue {
            game,
            option,
            expected,
            value: v.to_string(),
        }),
        _ => Ok(value),
    }
}

/// Draws uniformly from `0..n` (a helper so games do not each import rand's traits).
pub(crate) fn draw_below<R: Rng>(rng: &mut R, n: usize) -> usize {
    rng.gen_range(0..n)
}

/// Helpers for the games' rule tests: play scripted replies through the
/// `Game` trait, as the runner would, without processes.
#[cfg(test)]
pub(crate) mod scripted {
    use super::{Game, Notice, Outcome, Status};

    /// Feeds each seat its replies in order until the game is over; returns
    /// the finished game and every notice, in order. Panics on a reply the
    /// game refuses: scripts are meant to be legal.
    pub(crate) fn play<G: Game>(mut game: G, a: &[&str], b: &[&str]) -> (G, Vec<Notice>) {
        let mut notices = vec![];
        let mut next = [a.iter(), b.iter()];
        while let Status::Ask { seat, .. } = game.status() {
            let line = next[seat.index()]
                .next()
                .unwrap_or_else(|| panic!("the script has no more replies for {seat}"));
            let reply = game
                .parse_reply(line)
                .expect("a well-formed scripted reply");
            let applied = match game.apply(reply) {
                Ok(applied) => applied,
                Err(rejected) => panic!("scripted reply {line:?} refused: {}", rejected.rule),
            };
            notices.extend(applied.notices);
            game = applied.game;
        }
        (game, notices)
    }

    /// The outcome of a finished game.
    pub(crate) fn outcome<G: Game>(game: &G) -> Outcome {
        match game.status() {
            Status::Over(o) => o,
            Status::Ask { seat, .. } => panic!("game not over: {seat} is to move"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The canonical form is pinned byte for byte: identities stored in
    /// results folders are hashes of these bytes.
    #[test]
    fn the_canonical_form_keeps_its_bytes() {
        let bytes = |game: &str, options: GameOptions| {
            let config = GameConfig::from_options(game, &options).unwrap();
            // NUL bytes shown as `|`, which no field holds.
            String::from_utf8(config.canonical().bytes())
                .unwrap()
                .replace('\0', "|")
        };
        let given = GameOptions::default;
        assert_eq!(
            bytes("arrow5", given()),
            "referee game v1|arrow5|--variant|classic|--codes|bots|--max-rounds|50"
        );
        assert_eq!(
            bytes(
                "arrow5",
                GameOptions {
                    variant: Some("hidden_eye".into()),
                    codes: Some("RANDOM".into()),
                    max_rounds: Some(30),
                    ..given()
                }
            ),
            "referee game v1|arrow5|--variant|hidden-eye|--codes|random|--max-rounds|30"
        );
        assert_eq!(bytes("cryptron", given()), "referee game v1|cryptron");
        assert_eq!(
            bytes(
                "hackdroids",
                GameOptions {
                    first: Some("B".into()),
                    ..given()
                }
            ),
            "referee game v1|cryptron|--first|b"
        );
        assert_eq!(
            bytes("safecracker", given()),
            "referee game v1|safecracker|--digits|3|--length|3|--first|toss|--codes|bots"
        );
        assert_eq!(
            bytes(
                "safe-cracker",
                GameOptions {
                    digits: Some(6),
                    length: Some(3),
                    attempts: Some(12),
                    first: Some("a".into()),
                    ..given()
                }
            ),
            "referee game v1|safecracker|--digits|6|--length|3|--attempts|12|--first|a|--codes|bots"
        );
        assert_eq!(
            bytes(
                "mastermind",
                GameOptions {
                    pegs: Some(5),
                    colours: Some(8),
                    max_attacks: Some(20),
                    codes: Some("random".into()),
                    ..given()
                }
            ),
            "referee game v1|mastermind|--pegs|5|--colours|8|--max-attacks|20|--codes|random"
        );
    }

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(suggest("arow5", GAME_NAMES), Some("arrow5"));
        assert_eq!(suggest("chess", GAME_NAMES), None);
    }

    #[test]
    fn unknown_game_error_names_the_games() {
        let err = GameConfig::from_options("arro5", &GameOptions::default()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("did you mean 'arrow5'"), "{text}");
    }
}
