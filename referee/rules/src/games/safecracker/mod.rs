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

use super::code_game::{CodeGame, CodeRules, Verb, Words};
pub use super::code_game::{CodeSource, RawCode};
use super::human::count_word;
use super::rounds::Turns;
use super::{checked, draw_below, GameConfigError, GameOptions, NoSuchSecret, Seat, Winner};
#[cfg(test)]
use super::{Game, Notice, Outcome, Status};

mod code;

pub use code::*;

pub const DEFAULT_DIGITS: u8 = 3;
pub const DEFAULT_LENGTH: u8 = 3;
/// Digits are written as single characters 1-9.
pub const MAX_DIGITS: u8 = 9;
pub const MAX_LENGTH: u8 = 10;
/// Clarification: with no attempt limit set, each player still gets at most
/// this many guesses; at the cap the "limited attempts" rule decides.
pub const SAFETY_CAP: u32 = 100;

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
            config.codes = CodeSource::parse(GAME, c)?;
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

    /// The fields of [`super::CanonicalConfig`], spelled for good (the
    /// attempts only when limited).
    pub fn canonical_fields(&self) -> Vec<(&'static str, String)> {
        let Config {
            digits,
            length,
            attempts,
            first,
            codes,
        } = self;
        let mut fields = vec![
            ("digits", digits.to_string()),
            ("length", length.to_string()),
        ];
        if let Some(t) = attempts {
            fields.push(("attempts", t.to_string()));
        }
        let first = match first {
            First::A => "a",
            First::B => "b",
            First::Toss => "toss",
        };
        fields.push(("first", first.into()));
        fields.push(("codes", codes.canonical().into()));
        fields
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
    config.secret_count()
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
    CodeGame::solo(config, secret_index, bot_seed)
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

/// A Safe Cracker game in progress. `codes[s]` is the code seat `s` holds
/// (the one its opponent cracks).
pub type SafeCracker = CodeGame<Config>;

impl SafeCracker {
    /// A two-player game with the codes given (A's code first) and `first`
    /// to guess first.
    pub fn with_codes(config: Config, codes: [Code; 2], first: Seat) -> SafeCracker {
        CodeGame::from_codes(config, codes, first)
    }

    /// Every guess so far, in order.
    pub fn history(&self) -> Vec<Guess> {
        self.log()
            .iter()
            .map(|a| Guess {
                seat: a.seat,
                turn: a.number,
                code: a.code.clone(),
                exact: a.feedback,
            })
            .collect()
    }

    /// The most exact matches `seat` had in a single guess.
    pub fn best(&self, seat: Seat) -> u8 {
        self.log()
            .iter()
            .filter(|g| g.seat == seat)
            .map(|g| g.feedback)
            .max()
            .unwrap_or(0)
    }

    /// Did the attempt cap end the game? (Then the best single guess decided.)
    fn at_cap(&self) -> bool {
        matches!(self.outcome(), Some(o) if o.reason == "attempt-cap")
    }
}

/// The rules of Safe Cracker, as the code-game core asks for them.
impl CodeRules for Config {
    const GAME: &'static str = GAME;
    const WORDS: Words = Words {
        wire: Verb::Guess,
        human: Verb::Guess,
        counter: "turn",
        cap_reason: "attempt-cap",
        feedback_label: "Feedback",
        says_cracked: false,
    };
    const TURNS: Turns = Turns::FirstToCrack;
    type Code = Code;
    /// The number of exact matches.
    type Feedback = u8;
    type Raw = RawCode;
    type Invalid = CodeError;

    fn code_source(&self) -> CodeSource {
        self.codes
    }

    fn attack_cap(&self) -> u32 {
        self.cap()
    }

    fn greeting_words(&self) -> String {
        format!("{} {}", self.length, self.digits)
    }

    fn secret_count(&self) -> u64 {
        u64::from(self.digits).pow(u32::from(self.length))
    }

    fn nth_code(&self, index: u64) -> Code {
        Code::from_index(self, index)
    }

    fn random_code<G: Rng>(&self, rng: &mut G) -> Code {
        Code::random(self, rng)
    }

    /// Clarification: a seeded coin toss by default.
    fn first_seat<G: Rng>(&self, rng: &mut G) -> Seat {
        match self.first {
            First::A => Seat::A,
            First::B => Seat::B,
            First::Toss => {
                if rng.gen::<bool>() {
                    Seat::A
                } else {
                    Seat::B
                }
            }
        }
    }

    fn read(&self, line: &str) -> Result<RawCode, String> {
        crate::protocol::parse_symbol_vec(line, self.length as usize).map(RawCode)
    }

    fn code(&self, raw: &RawCode) -> Result<Code, CodeError> {
        Code::from_chars(&raw.0, self)
    }

    fn wire(code: &Code) -> String {
        code.dashed()
    }

    fn feedback(&self, secret: &Code, guess: &Code) -> u8 {
        exact_matches(secret, guess)
    }

    fn cracked(&self, exact: &u8) -> bool {
        *exact == self.length
    }

    fn feedback_line(&self, exact: &u8) -> String {
        format!("feedback {exact}")
    }

    /// The rules: all guesses and feedback are communicated openly.
    fn opponent_line(&self, guess: &Code, exact: &u8) -> Option<String> {
        Some(format!("opponent {} {exact}", guess.dashed()))
    }

    fn account_text(&self, exact: &u8) -> String {
        matches_words(*exact)
    }

    fn held_line(&self, secret: &Code) -> String {
        format!("the secret: {secret}  (held by the referee)")
    }

    /// Both reached the cap: the most exact matches in a single guess wins;
    /// equal is a draw (clarification: also at the safety cap).
    fn cap_winner(game: &SafeCracker) -> Winner {
        match game.best(Seat::A).cmp(&game.best(Seat::B)) {
            std::cmp::Ordering::Greater => Winner::A,
            std::cmp::Ordering::Less => Winner::B,
            std::cmp::Ordering::Equal => Winner::Draw,
        }
    }

    fn opening(game: &SafeCracker) -> Vec<String> {
        match game.config().first {
            First::Toss if !game.is_solo() => {
                vec![format!("{} guesses first (coin toss)", game.first())]
            }
            _ => vec![],
        }
    }

    fn summary_tail(game: &SafeCracker) -> Vec<String> {
        best_line(game, ["best", "A", "B"])
    }

    fn intro(game: &SafeCracker, names: [&str; 2]) -> Vec<String> {
        let config = game.config();
        let mut lines = vec![format!(
            "Safe Cracker: each code is {} from 1-{}, repeats allowed. Feedback is the number of exact matches.",
            digits_phrase(config),
            config.digits
        )];
        lines.push(match config.attempts {
            Some(t) => format!(
                "Each player has {t} guesses; if nobody cracks, the most exact matches in a single guess wins."
            ),
            None => "The first to crack the other's code wins.".to_string(),
        });
        if !game.is_solo() {
            lines.push(format!(
                "First to guess: {}{}.",
                names[game.first().index()],
                match config.first {
                    First::Toss => " (coin toss)",
                    First::A | First::B => "",
                }
            ));
        }
        lines
    }

    fn code_phrase(&self) -> String {
        format!("{} from 1-{}", digits_phrase(self), self.digits)
    }

    fn example(&self) -> String {
        (0..self.length)
            .map(|i| (i % self.digits + 1).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn final_tail(game: &SafeCracker, names: [&str; 2]) -> Vec<String> {
        best_line(game, ["Best", names[0], names[1]])
    }
}

/// After a game the attempt cap ended: `best single guess: A 2 exact
/// matches, B 1 exact match`, with `words` the first word and the names.
fn best_line(game: &SafeCracker, [best, a, b]: [&str; 3]) -> Vec<String> {
    if !game.at_cap() {
        return vec![];
    }
    vec![format!(
        "{best} single guess: {a} {}, {b} {}",
        matches_words(game.best(Seat::A)),
        matches_words(game.best(Seat::B))
    )]
}

/// The optimum of the default game/// The optimum of the default game (3 digits from 1-3): the fewest guesses in
/// total, over all 27 secrets, that any strategy needs (its average is this
/// over 27). Computed by the exhaustive search in this module's tests.
pub const OPTIMAL_TOTAL_GUESSES_DEFAULT: u32 = 95;

/// `three digits`, `one digit`.
fn digits_phrase(config: &Config) -> String {
    let n = config.length as usize;
    format!("{} digit{}", count_word(n), if n == 1 { "" } else { "s" })
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
