//! Safe Cracker (`docs/rules/safecracker.md`): codes of L digits from
//! 1..D (repeats allowed, default 3 and 3), feedback is the number of exact
//! matches only, players alternate and the first to crack wins at once.
//!
//! Also the solo form ([`solo`]): the referee holds one secret and only seat A
//! guesses, for measuring solvers over every secret.
//!
//! Decisions the rule text leaves open are in `protocol.md`, "Rules
//! clarifications"; each is marked here where it is implemented.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{
    checked, draw_below, Applied, Game, GameConfigError, GameOptions, NoSuchSecret, Notice,
    Outcome, Rejected, Seat, Status, Winner,
};

pub const DEFAULT_DIGITS: u8 = 3;
pub const DEFAULT_LENGTH: u8 = 3;
/// Digits are written as single characters 1-9.
pub const MAX_DIGITS: u8 = 9;
pub const MAX_LENGTH: u8 = 10;
/// Clarification: with no attempt limit set, each player still gets at most
/// this many guesses; at the cap the "limited attempts" rule decides.
pub const SAFETY_CAP: u32 = 100;

/// A code or a guess: `length` digits, each in 1..=digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(Vec<u8>);

impl Code {
    /// Checks digits against the configuration.
    pub fn new(digits: Vec<u8>, config: &Config) -> Result<Code, String> {
        if digits.len() != config.length as usize {
            return Err(format!(
                "a code has {} digits, got {}",
                config.length,
                digits.len()
            ));
        }
        if let Some(bad) = digits.iter().find(|&&d| d < 1 || d > config.digits) {
            return Err(format!("digit {bad} is not from 1 to {}", config.digits));
        }
        Ok(Code(digits))
    }

    /// Validates characters as written (`1`-`9`).
    pub fn from_chars(chars: &[char], config: &Config) -> Result<Code, String> {
        let mut digits = Vec::with_capacity(chars.len());
        for &c in chars {
            match c.to_digit(10) {
                Some(d) => digits.push(d as u8),
                None => return Err(format!("'{c}' is not a digit from 1 to {}", config.digits)),
            }
        }
        Code::new(digits, config)
    }

    /// The `index`-th code in the fixed enumeration order: lexicographic, the
    /// first digit most significant (index 0 is 1-1-1, then 1-1-2, ...).
    pub fn from_index(config: &Config, mut index: u64) -> Code {
        let base = u64::from(config.digits);
        let mut digits = vec![1u8; config.length as usize];
        for slot in digits.iter_mut().rev() {
            *slot = (index % base) as u8 + 1;
            index /= base;
        }
        Code(digits)
    }

    pub fn random<R: Rng>(config: &Config, rng: &mut R) -> Code {
        Code(
            (0..config.length)
                .map(|_| draw_below(rng, config.digits as usize) as u8 + 1)
                .collect(),
        )
    }

    pub fn digits(&self) -> &[u8] {
        &self.0
    }

    /// The rules' form, also used on the wire by the referee: `2-1-3`.
    pub fn dashed(&self) -> String {
        self.0
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("-")
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.dashed())
    }
}

/// The number of positions where `guess` has the digit of `secret`.
pub fn exact_matches(secret: &Code, guess: &Code) -> u8 {
    secret
        .0
        .iter()
        .zip(&guess.0)
        .filter(|(s, g)| s == g)
        .count() as u8
}

/// `1 exact match`, `2 exact matches`, `0 exact matches`: the rules' words.
pub fn matches_words(exact: u8) -> String {
    if exact == 1 {
        "1 exact match".to_string()
    } else {
        format!("{exact} exact matches")
    }
}

/// Who picks the secret codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CodeSource {
    /// Each bot answers a `code` request (the rules).
    Bots,
    /// The referee draws both codes from the match seed.
    Random,
}

impl CodeSource {
    pub fn name(self) -> &'static str {
        match self {
            CodeSource::Bots => "bots",
            CodeSource::Random => "random",
        }
    }
}

/// Who guesses first. Clarification: a seeded coin toss by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum First {
    A,
    B,
    Toss,
}

impl First {
    pub fn name(self) -> &'static str {
        match self {
            First::A => "a",
            First::B => "b",
            First::Toss => "toss",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Digits run from 1 to `digits` (D).
    pub digits: u8,
    /// Digits per code (L).
    pub length: u8,
    /// The "limited attempts" variation: at most this many guesses each.
    pub attempts: Option<u32>,
    pub first: First,
    pub codes: CodeSource,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            digits: DEFAULT_DIGITS,
            length: DEFAULT_LENGTH,
            attempts: None,
            first: First::Toss,
            codes: CodeSource::Bots,
        }
    }
}

const GAME: &str = "safecracker";

impl Config {
    pub fn from_options(options: &GameOptions) -> Result<Config, GameConfigError> {
        options.accept_only(GAME, &["codes", "digits", "length", "attempts", "first"])?;
        let mut config = Config::default();
        if let Some(d) = checked(
            GAME,
            "digits",
            options.digits,
            1..=MAX_DIGITS,
            "from 1 to 9",
        )? {
            config.digits = d;
        }
        if let Some(l) = checked(
            GAME,
            "length",
            options.length,
            1..=MAX_LENGTH,
            "from 1 to 10",
        )? {
            config.length = l;
        }
        if let Some(t) = checked(
            GAME,
            "attempts",
            options.attempts,
            1..=u32::MAX,
            "at least 1",
        )? {
            config.attempts = Some(t);
        }
        if let Some(f) = &options.first {
            config.first = match f.to_ascii_lowercase().as_str() {
                "a" => First::A,
                "b" => First::B,
                "toss" => First::Toss,
                _ => {
                    return Err(GameConfigError::BadValue {
                        game: GAME,
                        option: "first",
                        expected: "'a', 'b' or 'toss'",
                        value: f.clone(),
                    })
                }
            };
        }
        if let Some(c) = &options.codes {
            config.codes = match c.to_ascii_lowercase().as_str() {
                "bots" => CodeSource::Bots,
                "random" => CodeSource::Random,
                _ => {
                    return Err(GameConfigError::BadValue {
                        game: GAME,
                        option: "codes",
                        expected: "'bots' or 'random'",
                        value: c.clone(),
                    })
                }
            };
        }
        Ok(config)
    }

    /// Guesses each player may make: the attempt limit, or the safety cap.
    pub fn cap(&self) -> u32 {
        self.attempts.unwrap_or(SAFETY_CAP)
    }

    /// `l3-d3`, with `-t10` when attempts are limited.
    pub fn variant_name(&self) -> String {
        let mut name = format!("l{}-d{}", self.length, self.digits);
        if let Some(t) = self.attempts {
            name.push_str(&format!("-t{t}"));
        }
        name
    }

    pub fn cli_flags(&self) -> Vec<String> {
        let mut flags = vec![
            "--digits".into(),
            self.digits.to_string(),
            "--length".into(),
            self.length.to_string(),
        ];
        if let Some(t) = self.attempts {
            flags.extend(["--attempts".into(), t.to_string()]);
        }
        flags.extend([
            "--first".into(),
            self.first.name().into(),
            "--codes".into(),
            self.codes.name().into(),
        ]);
        flags
    }
}

/// How many secrets the configuration has: D^L.
pub fn secret_count(config: &Config) -> u64 {
    u64::from(config.digits).pow(u32::from(config.length))
}

/// A solo game: the referee holds the `secret_index`-th code (in the order of
/// [`Code::from_index`]) and only seat A guesses, until it cracks the code
/// or reaches the attempt cap. `bot_seed` is sent in the greeting. An index
/// beyond the codes is an error.
pub fn solo(
    config: &Config,
    secret_index: u64,
    bot_seed: u64,
) -> Result<SafeCracker, NoSuchSecret> {
    let index = NoSuchSecret::check("safecracker", secret_index, secret_count(config))?;
    let secret = Code::from_index(config, index);
    Ok(SafeCracker {
        config: config.clone(),
        solo: true,
        codes: [None, Some(secret)],
        first: Seat::A,
        bot_seeds: [bot_seed, 0],
        phase: Phase::Guessing(Seat::A),
        history: vec![],
        outcome: None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Choosing(Seat),
    Guessing(Seat),
    Over,
}

/// One guess and its feedback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    pub seat: Seat,
    /// The guesser's own count: its first guess is turn 1.
    pub turn: u32,
    pub code: Code,
    pub exact: u8,
}

/// A reply: the characters as written, not yet validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawCode(pub Vec<char>);

/// A Safe Cracker game in progress. `codes[s]` is the code seat `s` holds
/// (the one its opponent cracks).
#[derive(Clone, Debug)]
pub struct SafeCracker {
    config: Config,
    solo: bool,
    codes: [Option<Code>; 2],
    first: Seat,
    bot_seeds: [u64; 2],
    phase: Phase,
    history: Vec<Guess>,
    outcome: Option<Outcome>,
}

impl SafeCracker {
    /// A new two-player game. With `First::Toss` the starter is drawn from
    /// `rng`, as are the codes with [`CodeSource::Random`] and the bots' seeds.
    pub fn new<R: Rng>(config: Config, rng: &mut R) -> SafeCracker {
        let bot_seeds = [rng.gen::<u32>() as u64, rng.gen::<u32>() as u64];
        let first = match config.first {
            First::A => Seat::A,
            First::B => Seat::B,
            First::Toss => {
                if rng.gen::<bool>() {
                    Seat::A
                } else {
                    Seat::B
                }
            }
        };
        let (codes, phase) = match config.codes {
            CodeSource::Random => (
                [
                    Some(Code::random(&config, rng)),
                    Some(Code::random(&config, rng)),
                ],
                Phase::Guessing(first),
            ),
            CodeSource::Bots => ([None, None], Phase::Choosing(Seat::A)),
        };
        SafeCracker {
            config,
            solo: false,
            codes,
            first,
            bot_seeds,
            phase,
            history: vec![],
            outcome: None,
        }
    }

    /// A two-player game with the codes given (A's code first) and `first`
    /// to guess first.
    pub fn with_codes(config: Config, codes: [Code; 2], first: Seat) -> SafeCracker {
        SafeCracker {
            config,
            solo: false,
            codes: codes.map(Some),
            first,
            bot_seeds: [0, 0],
            phase: Phase::Guessing(first),
            history: vec![],
            outcome: None,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn is_solo(&self) -> bool {
        self.solo
    }

    /// The code `seat` holds, once chosen.
    pub fn code(&self, seat: Seat) -> Option<&Code> {
        self.codes[seat.index()].as_ref()
    }

    /// Who guesses first.
    pub fn first(&self) -> Seat {
        self.first
    }

    pub fn history(&self) -> &[Guess] {
        &self.history
    }

    /// Is the game waiting for a secret code (rather than a guess)?
    pub fn wants_code(&self) -> bool {
        matches!(self.phase, Phase::Choosing(_))
    }

    /// The most exact matches `seat` had in a single guess.
    pub fn best(&self, seat: Seat) -> u8 {
        self.history
            .iter()
            .filter(|g| g.seat == seat)
            .map(|g| g.exact)
            .max()
            .unwrap_or(0)
    }

    fn finish(mut self, winner: Winner, reason: &str) -> Self {
        self.phase = Phase::Over;
        self.outcome = Some(Outcome {
            winner,
            reason: reason.to_string(),
        });
        self
    }

    fn guess(mut self, seat: Seat, code: Code) -> Applied<SafeCracker> {
        let defender = seat.other();
        let secret = self.codes[defender.index()]
            .as_ref()
            .expect("codes are set before guesses");
        let exact = exact_matches(secret, &code);
        let cracked = exact == self.config.length;
        let turn = self.attacks(seat) + 1;
        let account = format!(
            "turn {turn:>2}  {seat} guesses {code}   {}{}",
            matches_words(exact),
            if cracked { "   cracked!" } else { "" }
        );
        let mut notices = vec![Notice {
            to: seat,
            line: format!("feedback {exact}"),
        }];
        if !self.solo {
            // The rules: all guesses and feedback are communicated openly.
            notices.push(Notice {
                to: defender,
                line: format!("opponent {} {exact}", code.dashed()),
            });
        }
        self.history.push(Guess {
            seat,
            turn,
            code,
            exact,
        });
        let cap = self.config.cap();
        let game = if cracked {
            // The first to crack wins at once: no equalizing turn.
            self.finish(Winner::seat(seat), "cracked")
        } else if self.solo {
            if turn >= cap {
                self.finish(Winner::B, "attempt-cap")
            } else {
                self
            }
        } else if self.attacks(defender) < cap {
            self.phase = Phase::Guessing(defender);
            self
        } else if turn < cap {
            self
        } else {
            // Both reached the cap: the most exact matches in a single guess
            // wins; equal is a draw (clarification: also at the safety cap).
            match self.best(Seat::A).cmp(&self.best(Seat::B)) {
                std::cmp::Ordering::Greater => self.finish(Winner::A, "attempt-cap"),
                std::cmp::Ordering::Less => self.finish(Winner::B, "attempt-cap"),
                std::cmp::Ordering::Equal => self.finish(Winner::Draw, "attempt-cap"),
            }
        };
        Applied {
            game,
            notices,
            account,
        }
    }
}

impl Game for SafeCracker {
    type Reply = RawCode;

    /// `safecracker LENGTH DIGITS ROLE ATTEMPTS SEED`, ROLE being `first`,
    /// `second` or `solo`, ATTEMPTS the guesses each player may make.
    fn greeting(&self, seat: Seat) -> String {
        let role = if self.solo {
            "solo"
        } else if seat == self.first {
            "first"
        } else {
            "second"
        };
        format!(
            "safecracker {} {} {role} {} {}",
            self.config.length,
            self.config.digits,
            self.config.cap(),
            self.bot_seeds[seat.index()]
        )
    }

    fn status(&self) -> Status {
        match (self.phase, &self.outcome) {
            (Phase::Over, Some(outcome)) => Status::Over(outcome.clone()),
            (Phase::Over, None) => unreachable!("a finished game has an outcome"),
            (Phase::Choosing(seat), _) => Status::Ask {
                seat,
                request: Some("code".to_string()),
            },
            (Phase::Guessing(seat), _) => Status::Ask {
                seat,
                request: Some("guess".to_string()),
            },
        }
    }

    fn parse_reply(&self, line: &str) -> Result<RawCode, String> {
        crate::protocol::parse_symbol_vec(line, self.config.length as usize).map(RawCode)
    }

    fn apply(mut self, reply: RawCode) -> Result<Applied<Self>, Rejected<Self>> {
        let code = match Code::from_chars(&reply.0, &self.config) {
            Ok(code) => code,
            Err(e) => {
                let what = if self.wants_code() {
                    "secret code"
                } else {
                    "guess"
                };
                return Err(Rejected {
                    game: self,
                    rule: format!("{what}: {e}"),
                });
            }
        };
        match self.phase {
            Phase::Choosing(seat) => {
                self.codes[seat.index()] = Some(code);
                self.phase = match seat {
                    Seat::A => Phase::Choosing(Seat::B),
                    Seat::B => Phase::Guessing(self.first),
                };
                Ok(Applied {
                    game: self,
                    notices: vec![],
                    account: format!("{seat} chose its code"),
                })
            }
            Phase::Guessing(seat) => Ok(self.guess(seat, code)),
            Phase::Over => Err(Rejected {
                game: self,
                rule: "the game is over".to_string(),
            }),
        }
    }

    fn attacks(&self, seat: Seat) -> u32 {
        self.history.iter().filter(|g| g.seat == seat).count() as u32
    }

    fn first_to_move(&self) -> Seat {
        self.first
    }

    fn held_secret(&self) -> Option<String> {
        self.solo
            .then(|| self.codes[Seat::B.index()].as_ref().map(Code::dashed))
            .flatten()
    }

    fn opening(&self) -> Vec<String> {
        match self.config.first {
            First::Toss if !self.solo => vec![format!("{} guesses first (coin toss)", self.first)],
            _ => vec![],
        }
    }

    fn summary(&self) -> Vec<String> {
        if self.solo {
            let secret = self.codes[Seat::B.index()].as_ref().expect("solo secret");
            return vec![format!("the secret: {secret}  (held by the referee)")];
        }
        let mut lines = vec![];
        for seat in Seat::BOTH {
            let code = self.codes[seat.index()].as_ref().map(|c| c.dashed());
            let by = match self.config.codes {
                CodeSource::Bots => "chosen by the bot",
                CodeSource::Random => "drawn by the referee",
            };
            lines.push(match code {
                Some(code) => format!("{seat}'s code: {code}  ({by})"),
                // The game ended (a verdict) before this bot chose a code.
                None => format!("{seat}'s code: none (the bot did not choose one)"),
            });
        }
        if matches!(&self.outcome, Some(o) if o.reason == "attempt-cap") {
            lines.push(format!(
                "best single guess: A {}, B {}",
                matches_words(self.best(Seat::A)),
                matches_words(self.best(Seat::B))
            ));
        }
        lines
    }
}

/// The optimum of the default game (3 digits from 1-3): the fewest guesses in
/// total, over all 27 secrets, that any strategy needs (its average is this
/// over 27). Computed by the exhaustive search in this module's tests.
pub const OPTIMAL_TOTAL_GUESSES_DEFAULT: u32 = 95;

impl super::human::HumanText for SafeCracker {
    fn intro(&self, names: [&str; 2]) -> Vec<String> {
        let mut lines = vec![format!(
            "Safe Cracker: each code is {} from 1-{}, repeats allowed. Feedback is the number of exact matches.",
            digits_phrase(&self.config),
            self.config.digits
        )];
        lines.push(match self.config.attempts {
            Some(t) => format!(
                "Each player has {t} guesses; if nobody cracks, the most exact matches in a single guess wins."
            ),
            None => "The first to crack the other's code wins.".to_string(),
        });
        if !self.solo {
            lines.push(format!(
                "First to guess: {}{}.",
                names[self.first.index()],
                match self.config.first {
                    First::Toss => " (coin toss)",
                    First::A | First::B => "",
                }
            ));
        }
        lines
    }

    fn prompt(&self) -> super::human::Prompt {
        let what = format!(
            "{} from 1-{}",
            digits_phrase(&self.config),
            self.config.digits
        );
        if self.wants_code() {
            super::human::Prompt {
                text: format!("Enter your secret code ({what}, not shown): "),
                secret: true,
            }
        } else {
            super::human::Prompt {
                text: format!("Enter your guess ({what}): "),
                secret: false,
            }
        }
    }

    fn read_human(&self, line: &str) -> Result<RawCode, String> {
        let expected = format!(
            "type {} from 1-{}, e.g. {}",
            digits_phrase(&self.config),
            self.config.digits,
            (0..self.config.length)
                .map(|i| (i % self.config.digits + 1).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let chars =
            crate::protocol::parse_symbol_vec(line, self.config.length as usize).map_err(|e| {
                // What is wrong first ("expected 3 symbols, got 2 ..."), then how to write one.
                format!(
                    "{}. That is not a code: {expected}.",
                    super::human::capitalized(&e)
                )
            })?;
        Code::from_chars(&chars, &self.config)
            .map_err(|e| format!("{}: {expected}.", super::human::capitalized(&e)))?;
        Ok(RawCode(chars))
    }

    fn feedback(&self, seat: Seat) -> Vec<String> {
        match self.history.iter().rev().find(|g| g.seat == seat) {
            Some(g) => vec![format!("Feedback: {}", matches_words(g.exact))],
            None => vec![],
        }
    }

    fn move_line(&self, seat: Seat, name: &str) -> String {
        match self.history.iter().rev().find(|g| g.seat == seat) {
            Some(g) => format!("{name} guesses {}: {}", g.code, matches_words(g.exact)),
            None => format!("{name} has not guessed yet"),
        }
    }

    fn drawn_code(&self, seat: Seat) -> Option<String> {
        match self.config.codes {
            CodeSource::Random => self.code(seat).map(|c| c.dashed()),
            CodeSource::Bots => None,
        }
    }

    fn final_screen(&self, names: [&str; 2]) -> Vec<String> {
        let padded = super::human::padded(names);
        let mut lines = vec!["Codes:".to_string()];
        for seat in Seat::BOTH {
            let code = self
                .code(seat)
                .map(|c| c.dashed())
                .unwrap_or_else(|| "(not chosen)".into());
            lines.push(format!("  {}  {code}", padded[seat.index()]));
        }
        lines.push("History:".to_string());
        for g in &self.history {
            lines.push(format!(
                "  turn {:>2}  {}  {}  {}{}",
                g.turn,
                padded[g.seat.index()],
                g.code,
                matches_words(g.exact),
                if g.exact == self.config.length {
                    "  cracked!"
                } else {
                    ""
                }
            ));
        }
        if matches!(&self.outcome, Some(o) if o.reason == "attempt-cap") {
            lines.push(format!(
                "Best single guess: {} {}, {} {}",
                names[0],
                matches_words(self.best(Seat::A)),
                names[1],
                matches_words(self.best(Seat::B))
            ));
        }
        lines
    }
}

/// `three digits`, `one digit`.
fn digits_phrase(config: &Config) -> String {
    let n = config.length as usize;
    format!(
        "{} digit{}",
        super::human::count_word(n),
        if n == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scripted::{self, outcome};
    use proptest::prelude::*;
    use rand::SeedableRng;

    fn cfg() -> Config {
        Config::default()
    }

    fn code(s: &str) -> Code {
        let chars: Vec<char> = s.chars().filter(|c| c.is_ascii_digit()).collect();
        Code::from_chars(&chars, &cfg()).unwrap()
    }

    /// Feeds guesses to whoever is asked; returns the game and every notice.
    fn play(game: SafeCracker, a: &[&str], b: &[&str]) -> (SafeCracker, Vec<Notice>) {
        scripted::play(game, a, b)
    }

    #[test]
    fn feedback_counts_exact_matches_with_repeated_digits() {
        let cases = [
            ("1-2-1", "1-1-1", 2),
            ("1-2-1", "2-1-2", 0),
            ("3-3-3", "3-1-3", 2),
            ("3-3-3", "3-3-3", 3),
            ("1-1-2", "2-1-1", 1),
            ("2-2-1", "1-2-2", 1),
            ("1-2-3", "3-1-2", 0),
        ];
        for (secret, guess, expected) in cases {
            assert_eq!(
                exact_matches(&code(secret), &code(guess)),
                expected,
                "{secret} vs {guess}"
            );
        }
        assert_eq!(matches_words(1), "1 exact match");
        assert_eq!(matches_words(0), "0 exact matches");
        assert_eq!(matches_words(2), "2 exact matches");
    }

    /// The rules' example game. Its set-up says Player 1 chose 2-1-3 and
    /// Player 2 chose 3-3-1, yet Player 1 wins by guessing 2-1-3 and its
    /// feedback fits 2-1-3 only: the code Player 1 cracks is 2-1-3. Player 2
    /// thus cracks 3-3-1, and its first two guesses have 0 exact matches, not
    /// the printed 2 (no code consistent with either listed code gives the
    /// printed 2, 2, 1; see protocol.md, Rules clarifications).
    #[test]
    fn the_rules_example_game_turn_by_turn() {
        // Player 1 is seat A and guesses first; B holds 2-1-3.
        let game = SafeCracker::with_codes(cfg(), [code("3-3-1"), code("2-1-3")], Seat::A);
        let p1 = ["1-1-1", "1-3-1", "2-2-1", "2-1-3"];
        let p2 = ["1-2-3", "2-2-3", "2-3-3"];
        let (game, notices) = play(game, &p1, &p2);
        let feedback: Vec<(Seat, String)> = notices
            .iter()
            .filter(|n| n.line.starts_with("feedback"))
            .map(|n| (n.to, n.line.clone()))
            .collect();
        let expected = [
            (Seat::A, "feedback 1"),
            (Seat::B, "feedback 0"),
            (Seat::A, "feedback 0"),
            (Seat::B, "feedback 0"),
            (Seat::A, "feedback 1"),
            (Seat::B, "feedback 1"),
            (Seat::A, "feedback 3"),
        ];
        let expected: Vec<(Seat, String)> =
            expected.iter().map(|(s, l)| (*s, l.to_string())).collect();
        assert_eq!(feedback, expected);
        // The opponent hears every guess and its feedback.
        assert_eq!(notices[1].to, Seat::B);
        assert_eq!(notices[1].line, "opponent 1-1-1 1");
        let history = game.history();
        assert_eq!(history.len(), 7);
        let last = history.last().unwrap();
        assert_eq!((last.seat, last.turn, last.exact), (Seat::A, 4, 3));
        assert_eq!(
            outcome(&game),
            Outcome {
                winner: Winner::A,
                reason: "cracked".into()
            }
        );
        assert_eq!(game.attacks(Seat::B), 3);
    }

    /// The feedback the rules print for Player 1 holds against 2-1-3.
    #[test]
    fn the_rules_example_player_one_feedback_matches_the_text() {
        let secret = code("2-1-3");
        let printed = [("1-1-1", 1), ("1-3-1", 0), ("2-2-1", 1), ("2-1-3", 3)];
        for (guess, exact) in printed {
            assert_eq!(exact_matches(&secret, &code(guess)), exact, "{guess}");
        }
    }

    #[test]
    fn first_to_crack_wins_at_once() {
        let game = SafeCracker::with_codes(cfg(), [code("111"), code("222")], Seat::B);
        let (game, _) = play(game, &[], &["111"]);
        assert_eq!(outcome(&game).winner, Winner::B);
        assert_eq!(game.attacks(Seat::A), 0);
    }

    #[test]
    fn attempt_cap_most_exact_matches_in_one_guess_wins() {
        let config = Config {
            attempts: Some(2),
            ..cfg()
        };
        // A's best single guess has 2 exact matches, B's only 1.
        let game = SafeCracker::with_codes(config.clone(), [code("111"), code("222")], Seat::A);
        let (game, _) = play(game, &["223", "333"], &["133", "313"]);
        assert_eq!(
            outcome(&game),
            Outcome {
                winner: Winner::A,
                reason: "attempt-cap".into()
            }
        );
        assert_eq!((game.attacks(Seat::A), game.attacks(Seat::B)), (2, 2));
        assert!(game
            .summary()
            .iter()
            .any(|l| l.contains("best single guess")));
        // Equal bests are a draw, even if one player had more good guesses.
        let game = SafeCracker::with_codes(config.clone(), [code("111"), code("222")], Seat::A);
        let (game, _) = play(game, &["223", "223"], &["113", "333"]);
        assert_eq!(outcome(&game).winner, Winner::Draw);
        // The second player's last guess is still played (and may crack).
        let game = SafeCracker::with_codes(config, [code("111"), code("222")], Seat::A);
        let (game, _) = play(game, &["223", "223"], &["333", "111"]);
        assert_eq!(outcome(&game).winner, Winner::B);
        assert_eq!(outcome(&game).reason, "cracked");
    }

    #[test]
    fn safety_cap_applies_without_a_limit() {
        let game = SafeCracker::with_codes(cfg(), [code("111"), code("222")], Seat::A);
        let a = vec!["233"; SAFETY_CAP as usize];
        let b = vec!["333"; SAFETY_CAP as usize];
        let (game, _) = play(game, &a, &b);
        assert_eq!(outcome(&game).winner, Winner::A);
        assert_eq!(outcome(&game).reason, "attempt-cap");
        assert_eq!(game.attacks(Seat::B), SAFETY_CAP);
    }

    #[test]
    fn bad_guesses_are_illegal_and_give_the_state_back() {
        let game = SafeCracker::with_codes(cfg(), [code("111"), code("222")], Seat::A);
        assert!(game.parse_reply("12").unwrap_err().contains("got 2"));
        let reply = game.parse_reply("1 2 4").unwrap();
        let rejected = game.apply(reply).unwrap_err();
        assert!(
            rejected.rule.contains("digit 4 is not from 1 to 3"),
            "{}",
            rejected.rule
        );
        let game = rejected.game;
        let rejected = game.apply(RawCode(vec!['x', '1', '1'])).unwrap_err();
        assert!(rejected.rule.contains("'x' is not a digit"));
        assert_eq!(rejected.game.attacks(Seat::A), 0);
        assert!(matches!(
            rejected.game.status(),
            Status::Ask { seat: Seat::A, .. }
        ));
    }

    #[test]
    fn accepts_liberal_spellings() {
        let game = SafeCracker::with_codes(cfg(), [code("111"), code("222")], Seat::A);
        for line in ["1 2 3", "123", "1-2-3", " 1,2,3 "] {
            assert_eq!(
                game.parse_reply(line).unwrap(),
                RawCode(vec!['1', '2', '3'])
            );
        }
    }

    #[test]
    fn bots_choose_codes_then_the_toss_winner_guesses() {
        let mut starters = std::collections::HashSet::new();
        for seed in 0..20 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let game = SafeCracker::new(cfg(), &mut rng);
            assert_eq!(
                game.status(),
                Status::Ask {
                    seat: Seat::A,
                    request: Some("code".into())
                }
            );
            let game = game.apply(RawCode(vec!['1', '2', '3'])).unwrap().game;
            let game = game.apply(RawCode(vec!['3', '3', '3'])).unwrap().game;
            let first = game.first();
            starters.insert(first);
            assert_eq!(
                game.status(),
                Status::Ask {
                    seat: first,
                    request: Some("guess".into())
                }
            );
            assert!(game.greeting(first).contains(" first "));
            assert!(game.greeting(first.other()).contains(" second "));
        }
        assert_eq!(starters.len(), 2, "the toss picks both seats over 20 seeds");
    }

    #[test]
    fn first_can_be_set() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let config = Config {
            first: First::B,
            codes: CodeSource::Random,
            ..cfg()
        };
        let game = SafeCracker::new(config, &mut rng);
        assert!(
            matches!(game.status(), Status::Ask { seat: Seat::B, ref request } if request.as_deref() == Some("guess"))
        );
        assert!(game.code(Seat::A).is_some() && game.code(Seat::B).is_some());
    }

    #[test]
    fn options_are_validated() {
        let opts = |f: fn(&mut GameOptions)| {
            let mut o = GameOptions::default();
            f(&mut o);
            Config::from_options(&o)
        };
        let c = opts(|o| {
            o.digits = Some(4);
            o.length = Some(5);
            o.attempts = Some(7);
            o.first = Some("B".into());
        })
        .unwrap();
        assert_eq!(
            (c.digits, c.length, c.attempts, c.first),
            (4, 5, Some(7), First::B)
        );
        assert_eq!(c.variant_name(), "l5-d4-t7");
        let refused = |f: fn(&mut GameOptions)| opts(f).unwrap_err().to_string();
        assert_eq!(
            refused(|o| o.digits = Some(10)),
            "safecracker: digits must be from 1 to 9, got '10'"
        );
        assert_eq!(
            refused(|o| o.length = Some(0)),
            "safecracker: length must be from 1 to 10, got '0'"
        );
        assert_eq!(
            refused(|o| o.attempts = Some(0)),
            "safecracker: attempts must be at least 1, got '0'"
        );
        assert_eq!(
            refused(|o| o.first = Some("c".into())),
            "safecracker: first must be 'a', 'b' or 'toss', got 'c'"
        );
        assert_eq!(
            refused(|o| o.codes = Some("mine".into())),
            "safecracker: codes must be 'bots' or 'random', got 'mine'"
        );
        let err = opts(|o| o.variant = Some("classic".into())).unwrap_err();
        assert!(err.to_string().contains("--variant"), "{err}");
    }

    /// The solo game, driven only through the `Game` trait.
    #[test]
    fn solo_asks_only_seat_a_until_cracked() {
        let config = cfg();
        assert_eq!(secret_count(&config), 27);
        // Index 5 is 1-2-3 (1-1-1, 1-1-2, 1-1-3, 1-2-1, 1-2-2, 1-2-3).
        let game = solo(&config, 5, 42).unwrap();
        assert_eq!(game.greeting(Seat::A), "safecracker 3 3 solo 100 42");
        assert_eq!(game.held_secret().as_deref(), Some("1-2-3"));
        let err = solo(&config, 27, 42).unwrap_err();
        assert_eq!(
            err.to_string(),
            "safecracker has no secret 27: its 27 secrets are numbered 0 to 26"
        );
        let mut game = game;
        let mut feedback = vec![];
        for guess in ["111", "222", "123"] {
            match game.status() {
                Status::Ask { seat, request } => {
                    assert_eq!(seat, Seat::A);
                    assert_eq!(request.as_deref(), Some("guess"));
                }
                Status::Over(o) => panic!("over early: {o:?}"),
            }
            let reply = game.parse_reply(guess).unwrap();
            let applied = game.apply(reply).unwrap();
            assert!(applied.notices.iter().all(|n| n.to == Seat::A));
            feedback.extend(applied.notices.into_iter().map(|n| n.line));
            game = applied.game;
        }
        assert_eq!(feedback, ["feedback 1", "feedback 1", "feedback 3"]);
        assert_eq!(
            game.status(),
            Status::Over(Outcome {
                winner: Winner::A,
                reason: "cracked".into()
            })
        );
        assert_eq!(game.attacks(Seat::A), 3);
        assert_eq!(game.attacks(Seat::B), 0);
    }

    #[test]
    fn solo_ends_at_the_attempt_cap() {
        let config = Config {
            attempts: Some(3),
            ..cfg()
        };
        let mut game = solo(&config, 26, 1).unwrap();
        assert!(game.greeting(Seat::A).contains(" solo 3 "));
        while let Status::Ask { seat, .. } = game.status() {
            assert_eq!(seat, Seat::A);
            let reply = game.parse_reply("111").unwrap();
            game = game.apply(reply).unwrap().game;
        }
        assert_eq!(
            game.status(),
            Status::Over(Outcome {
                winner: Winner::B,
                reason: "attempt-cap".into()
            })
        );
        assert_eq!(game.attacks(Seat::A), 3);
    }

    #[test]
    fn enumeration_covers_every_code_once() {
        let config = Config {
            digits: 4,
            length: 3,
            ..cfg()
        };
        let all: Vec<Code> = (0..secret_count(&config))
            .map(|i| Code::from_index(&config, i))
            .collect();
        assert_eq!(all[0].dashed(), "1-1-1");
        assert_eq!(all[63].dashed(), "4-4-4");
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all, "lexicographic and without repeats");
    }

    /// The fewest guesses in total over all 27 secrets of the default game,
    /// by a plain exhaustive search (no memo, no bitsets): every guess from
    /// all codes at every node. The optimal sample bot must reach this.
    #[test]
    fn optimum_of_the_default_game_by_exhaustive_search() {
        fn total(candidates: &[Code], all: &[Code], depth_left: u32) -> Option<u32> {
            if candidates.len() == 1 {
                return Some(1);
            }
            if depth_left == 0 {
                return None;
            }
            let mut best: Option<u32> = None;
            for guess in all {
                let mut classes: Vec<Vec<Code>> = vec![vec![]; 4];
                for c in candidates {
                    classes[exact_matches(c, guess) as usize].push(c.clone());
                }
                if classes.iter().any(|k| k.len() == candidates.len()) {
                    continue; // learns nothing
                }
                let mut sum = candidates.len() as u32;
                let mut ok = true;
                for k in &classes[..3] {
                    if k.is_empty() {
                        continue;
                    }
                    match total(k, all, depth_left - 1) {
                        Some(t) => sum += t,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                    if best.is_some_and(|b| sum >= b) {
                        ok = false;
                        break;
                    }
                }
                if ok && best.is_none_or(|b| sum < b) {
                    best = Some(sum);
                }
            }
            best
        }
        let config = cfg();
        let all: Vec<Code> = (0..27).map(|i| Code::from_index(&config, i)).collect();
        let optimum = total(&all, &all, 27).expect("every secret is found");
        assert_eq!(optimum, OPTIMAL_TOTAL_GUESSES_DEFAULT);
    }

    proptest! {
        #[test]
        fn exact_matches_is_symmetric_and_bounded(i in 0u64..27, j in 0u64..27) {
            let c = cfg();
            let (a, b) = (Code::from_index(&c, i), Code::from_index(&c, j));
            let e = exact_matches(&a, &b);
            prop_assert_eq!(e, exact_matches(&b, &a));
            prop_assert!(e <= 3);
            prop_assert_eq!(e == 3, a == b);
        }

        /// Whatever the guesses, a game ends within the caps, and the winner
        /// is the first to crack or the best single guess.
        #[test]
        fn games_always_end(seed in any::<u64>(), cap in 1u32..6, guesses in proptest::collection::vec(0u64..27, 12)) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let config = Config { attempts: Some(cap), codes: CodeSource::Random, ..cfg() };
            let mut game = SafeCracker::new(config.clone(), &mut rng);
            let mut n = 0;
            while let Status::Ask { .. } = game.status() {
                let guess = Code::from_index(&config, guesses[n % guesses.len()]).dashed();
                let reply = game.parse_reply(&guess).unwrap();
                game = game.apply(reply).unwrap().game;
                n += 1;
                prop_assert!(n <= 2 * cap as usize);
            }
            let o = outcome(&game);
            let cracker = game.history().iter().find(|g| g.exact == 3).map(|g| g.seat);
            match cracker {
                Some(seat) => prop_assert_eq!((o.winner, o.reason.as_str()), (Winner::seat(seat), "cracked")),
                None => prop_assert_eq!(o.reason.as_str(), "attempt-cap"),
            }
        }
    }
}

#[cfg(test)]
mod human_tests {
    use super::*;
    use crate::games::human::HumanText;

    fn code(s: &str) -> Code {
        let chars: Vec<char> = s.chars().filter(|c| c.is_ascii_digit()).collect();
        Code::from_chars(&chars, &Config::default()).unwrap()
    }

    #[test]
    fn prompts_and_feedback_read_as_the_rules() {
        let game = SafeCracker::with_codes(Config::default(), [code("331"), code("213")], Seat::A);
        assert_eq!(
            game.prompt().text,
            "Enter your guess (three digits from 1-3): "
        );
        assert!(!game.prompt().secret);
        let reply = game.read_human("1 2 3").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(game.feedback(Seat::A), ["Feedback: 1 exact match"]);
        let reply = game.read_human("2-2-1").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(game.feedback(Seat::B), ["Feedback: 1 exact match"]);
        assert_eq!(
            game.move_line(Seat::B, "Bot"),
            "Bot guesses 2-2-1: 1 exact match"
        );
        let reply = game.read_human("213").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(game.feedback(Seat::A), ["Feedback: 3 exact matches"]);
        let screen = game.final_screen(["You", "Bot"]).join("\n");
        assert!(screen.contains("You  3-3-1"), "{screen}");
        assert!(
            screen.contains("turn  2  You  2-1-3  3 exact matches  cracked!"),
            "{screen}"
        );
    }

    #[test]
    fn bad_input_explains_itself() {
        let config = Config {
            length: 4,
            digits: 5,
            ..Config::default()
        };
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let game = SafeCracker::new(config, &mut rng);
        assert_eq!(
            game.prompt().text,
            "Enter your secret code (four digits from 1-5, not shown): "
        );
        assert!(game.prompt().secret);
        let err = game.read_human("12").unwrap_err();
        assert_eq!(
            err,
            "Expected 4 symbols, got 2 in '12'. That is not a code: type four digits from 1-5, e.g. 1 2 3 4."
        );
        let err = game.read_human("1 2 3 6").unwrap_err();
        assert_eq!(
            err,
            "Digit 6 is not from 1 to 5: type four digits from 1-5, e.g. 1 2 3 4."
        );
        assert!(game.read_human("12x4").is_err());
        assert!(game.read_human("1-2-3-5").is_ok());
    }
}
