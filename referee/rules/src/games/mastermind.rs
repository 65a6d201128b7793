//! Mastermind (`docs/rules/mastermind.md`): codes of N pegs in C colours
//! (repeats allowed), the black/white feedback exactly as the rules'
//! reference `feedback` function, and a cap of T attacks.
//!
//! Two forms are played (`protocol.md`, "Rules clarifications"):
//! - the two-player game: each bot is codemaker and codebreaker at once, in
//!   rounds like Arrow 5 (the second player gets the equalizing attack; both
//!   cracking in the same round is a draw; nobody within T attacks is a draw);
//! - the solo game ([`solo`]): the referee holds the secret and only seat A
//!   attacks, for measuring a solver over every secret (`referee bench`).

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::code_game::{CodeGame, CodeRules, Verb, Words};
pub use super::code_game::{CodeSource, RawCode};
use super::human::count_word;
use super::rounds::Turns;
use super::{checked, GameConfigError, GameOptions, NoSuchSecret, Seat};
#[cfg(test)]
use super::{Game, Outcome, Status, Winner};

pub const DEFAULT_PEGS: u8 = 4;
pub const DEFAULT_COLOURS: u8 = 6;
/// Clarification: T, the attacks each codebreaker may make; the classic board
/// has 10 to 12 rows, and every solver of the classic game needs at most 8.
pub const DEFAULT_MAX_ATTACKS: u32 = 12;
pub const MAX_PEGS: u8 = 12;
/// Colours are written `0`-`9` then `a`-`z`.
pub const MAX_COLOURS: u8 = 36;

/// A code or a guess: one colour (`0..C`) per peg.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(Vec<u8>);

impl Code {
    /// The `index`-th code in the rules' order: the code written in base C,
    /// first peg most significant (`0123` is 51 for C = 6).
    pub fn from_index(index: u64, pegs: u8, colours: u8) -> Code {
        let mut pegs_out = vec![0u8; pegs as usize];
        let mut rest = index;
        for slot in pegs_out.iter_mut().rev() {
            *slot = (rest % u64::from(colours)) as u8;
            rest /= u64::from(colours);
        }
        Code(pegs_out)
    }

    /// The code's number in the rules' order.
    pub fn index(&self, colours: u8) -> u64 {
        self.0
            .iter()
            .fold(0u64, |acc, &c| acc * u64::from(colours) + u64::from(c))
    }

    pub fn pegs(&self) -> &[u8] {
        &self.0
    }

    /// Validates colours as the bot wrote them: `0`-`9`, then `a`-`z` (either
    /// case) for colours 10 to 35.
    pub fn from_chars(chars: &[char], colours: u8) -> Result<Code, String> {
        chars
            .iter()
            .map(|&c| match colour_of(c) {
                Some(v) if v < colours => Ok(v),
                _ => Err(format!(
                    "'{c}' is not a colour (the colours are {})",
                    colour_range(colours)
                )),
            })
            .collect::<Result<Vec<u8>, String>>()
            .map(Code)
    }

    /// The wire form: colours separated by spaces, `0 0 1 1`.
    pub fn ascii(&self) -> String {
        self.0
            .iter()
            .map(|&c| colour_char(c).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.ascii())
    }
}

fn colour_of(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        'a'..='z' => Some(c as u8 - b'a' + 10),
        'A'..='Z' => Some(c as u8 - b'A' + 10),
        _ => None,
    }
}

fn colour_char(c: u8) -> char {
    if c < 10 {
        (b'0' + c) as char
    } else {
        (b'a' + c - 10) as char
    }
}

fn colour_range(colours: u8) -> String {
    format!("0-{}", colour_char(colours - 1))
}

/// The codemaker's answer to a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Feedback {
    /// Pegs right in colour and position.
    pub black: u8,
    /// Pegs right in colour but not in position, each peg counted once.
    pub white: u8,
}

impl Feedback {
    /// The rules' encoding into `0..(N+1)(N+2)/2`: black first (more black,
    /// smaller number), then white; `0` is always the crack. For N = 3 this is
    /// the rules' table (`<3,0>` = 0, `<2,0>` = 1, ..., `<0,3>` = 9).
    pub fn encode(self, pegs: u8) -> u16 {
        let above = u16::from(pegs - self.black);
        above * (above + 1) / 2 + u16::from(self.white)
    }

    /// The number of feedback codes for `pegs` pegs, F = (N+1)(N+2)/2.
    pub fn count(pegs: u8) -> u16 {
        let n = u16::from(pegs);
        (n + 1) * (n + 2) / 2
    }
}

/// The feedback `code` gives `guess`: the rules' reference `feedback`
/// function, line for line.
pub fn feedback(code: &Code, guess: &Code, colours: u8) -> Feedback {
    let mut v_code = [0u8; MAX_COLOURS as usize];
    let mut v_guess = [0u8; MAX_COLOURS as usize];
    let mut black = 0;
    for (&c, &g) in code.0.iter().zip(&guess.0) {
        if c == g {
            black += 1;
        } else {
            v_code[c as usize] += 1;
            v_guess[g as usize] += 1;
        }
    }
    let white = (0..colours as usize)
        .map(|c| v_code[c].min(v_guess[c]))
        .sum();
    Feedback { black, white }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub pegs: u8,
    pub colours: u8,
    /// T: each codebreaker's attacks at most.
    pub max_attacks: u32,
    pub codes: CodeSource,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            pegs: DEFAULT_PEGS,
            colours: DEFAULT_COLOURS,
            max_attacks: DEFAULT_MAX_ATTACKS,
            codes: CodeSource::Bots,
        }
    }
}

const GAME: &str = "mastermind";

impl Config {
    pub fn from_options(options: &GameOptions) -> Result<Config, GameConfigError> {
        options.accept_only(GAME, &["codes", "pegs", "colours", "max-attacks"])?;
        let mut config = Config::default();
        if let Some(c) = &options.codes {
            config.codes = CodeSource::parse(GAME, c)?;
        }
        if let Some(p) = checked(GAME, "pegs", options.pegs, 1..=MAX_PEGS, "from 1 to 12")? {
            config.pegs = p;
        }
        if let Some(c) = checked(
            GAME,
            "colours",
            options.colours,
            2..=MAX_COLOURS,
            "from 2 to 36",
        )? {
            config.colours = c;
        }
        if let Some(t) = checked(
            GAME,
            "max-attacks",
            options.max_attacks,
            1..=u32::MAX,
            "at least 1",
        )? {
            config.max_attacks = t;
        }
        Ok(config)
    }

    /// The fields of [`super::CanonicalConfig`], spelled for good.
    pub fn canonical_fields(&self) -> Vec<(&'static str, String)> {
        let Config {
            pegs,
            colours,
            max_attacks,
            codes,
        } = self;
        vec![
            ("pegs", pegs.to_string()),
            ("colours", colours.to_string()),
            ("max-attacks", max_attacks.to_string()),
            ("codes", codes.canonical().into()),
        ]
    }

    pub fn cli_flags(&self) -> Vec<String> {
        vec![
            "--pegs".into(),
            self.pegs.to_string(),
            "--colours".into(),
            self.colours.to_string(),
            "--max-attacks".into(),
            self.max_attacks.to_string(),
            "--codes".into(),
            self.codes.name().into(),
        ]
    }

    /// How the variant column names this configuration: `4x6`.
    pub fn variant_name(&self) -> String {
        format!("{}x{}", self.pegs, self.colours)
    }

    /// M = C^N, the number of codes (at most 36^12, which fits).
    pub fn code_count(&self) -> u64 {
        u64::from(self.colours).pow(u32::from(self.pegs))
    }
}

/// The number of secrets of the solo game, M = C^N.
pub fn secret_count(config: &Config) -> u64 {
    config.code_count()
}

/// A solo game: the referee holds the `secret_index`-th code (the rules'
/// order, see [`Code::from_index`]) and only seat A attacks, at most
/// `max_attacks` times. Seat B is never asked anything. An index beyond the
/// codes is an error.
pub fn solo(config: &Config, secret_index: u64, bot_seed: u64) -> Result<Mastermind, NoSuchSecret> {
    CodeGame::solo(config, secret_index, bot_seed)
}

/// A Mastermind game in progress. Seat A attacks first in each round.
pub type Mastermind = CodeGame<Config>;

impl Mastermind {
    /// A two-player game with the codes given (A's code first).
    pub fn with_codes(config: Config, codes: [Code; 2]) -> Mastermind {
        CodeGame::from_codes(config, codes, Seat::A)
    }
}

/// The rules of Mastermind, as the code-game core asks for them.
impl CodeRules for Config {
    const GAME: &'static str = GAME;
    const WORDS: Words = Words {
        wire: Verb::Attack,
        human: Verb::Guess,
        counter: "round",
        cap_reason: "attack-cap",
        feedback_label: "Feedback",
        says_cracked: true,
    };
    const TURNS: Turns = Turns::Rounds;
    type Code = Code;
    type Feedback = Feedback;
    type Raw = RawCode;
    type Invalid = String;

    fn code_source(&self) -> CodeSource {
        self.codes
    }

    fn attack_cap(&self) -> u32 {
        self.max_attacks
    }

    fn greeting_words(&self) -> String {
        format!("{} {}", self.pegs, self.colours)
    }

    fn secret_count(&self) -> u64 {
        self.code_count()
    }

    fn nth_code(&self, index: u64) -> Code {
        Code::from_index(index, self.pegs, self.colours)
    }

    fn random_code<G: Rng>(&self, rng: &mut G) -> Code {
        self.nth_code(rng.gen_range(0..self.code_count()))
    }

    fn read(&self, line: &str) -> Result<RawCode, String> {
        crate::protocol::parse_symbol_vec(line, usize::from(self.pegs)).map(RawCode)
    }

    fn code(&self, raw: &RawCode) -> Result<Code, String> {
        Code::from_chars(&raw.0, self.colours)
    }

    fn wire(code: &Code) -> String {
        code.ascii()
    }

    fn feedback(&self, secret: &Code, guess: &Code) -> Feedback {
        feedback(secret, guess, self.colours)
    }

    fn cracked(&self, fb: &Feedback) -> bool {
        fb.black == self.pegs
    }

    fn feedback_line(&self, fb: &Feedback) -> String {
        format!("feedback {} {}", fb.black, fb.white)
    }

    fn account_text(&self, fb: &Feedback) -> String {
        format!("{} black, {} white", fb.black, fb.white)
    }

    fn feedback_text(&self, fb: &Feedback) -> String {
        feedback_text(*fb)
    }

    fn held_line(&self, secret: &Code) -> String {
        format!(
            "secret: {secret}  (code {} of {}, held by the referee)",
            secret.index(self.colours),
            self.code_count()
        )
    }

    fn intro(game: &Mastermind, names: [&str; 2]) -> Vec<String> {
        let config = game.config();
        let n = usize::from(config.pegs);
        vec![
            format!(
                "Mastermind: a code is {} peg{}, each one of {} colours {} (repeats allowed).",
                count_word(n),
                if n == 1 { "" } else { "s" },
                count_word(usize::from(config.colours)),
                colour_range(config.colours)
            ),
            "Feedback: ● (black) for each peg of the right colour in the right place, \
○ (white) for each other peg of a right colour in the wrong place."
                .to_string(),
            format!(
                "Each player has {} guesses; if nobody cracks a code, or both crack in the same round, it is a draw.",
                config.max_attacks
            ),
            format!(
                "First to guess: {}; {} gets the equalizing guess of each round.",
                names[0], names[1]
            ),
        ]
    }

    /// `four colours from 0-5`.
    fn code_phrase(&self) -> String {
        let n = usize::from(self.pegs);
        format!(
            "{} colour{} from {}",
            count_word(n),
            if n == 1 { "" } else { "s" },
            colour_range(self.colours)
        )
    }

    fn example(&self) -> String {
        (0..self.pegs)
            .map(|i| colour_char(i % self.colours).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn human_check(&self, raw: &RawCode) -> Result<(), String> {
        match raw
            .0
            .iter()
            .find(|&&c| !matches!(colour_of(c), Some(v) if v < self.colours))
        {
            Some(bad) => Err(format!(
                "'{bad}' is not a colour from {}",
                colour_range(self.colours)
            )),
            None => Ok(()),
        }
    }
}

/// A feedback as a person reads it/// A feedback as a person reads it: `●●○  (2 black, 1 white)`, one filled
/// circle per black peg and one hollow circle per white peg, then in words.
pub fn feedback_text(fb: Feedback) -> String {
    let words = format!("({} black, {} white)", fb.black, fb.white);
    if fb.black + fb.white == 0 {
        return format!("no pegs  {words}");
    }
    let pegs: String = std::iter::repeat_n('●', usize::from(fb.black))
        .chain(std::iter::repeat_n('○', usize::from(fb.white)))
        .collect();
    format!("{pegs}  {words}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scripted::{self, outcome};
    use proptest::prelude::*;
    use rand::SeedableRng;

    fn code(s: &str) -> Code {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        Code::from_chars(&chars, 36).unwrap()
    }

    fn fb(secret: &str, guess: &str, colours: u8) -> (u8, u8) {
        let f = feedback(&code(secret), &code(guess), colours);
        (f.black, f.white)
    }

    /// The feedback by brute force: the largest number of (code peg, guess
    /// peg) pairs of one colour matched one to one, less the blacks. Written
    /// independently of the rules' function, to check it.
    fn brute_force(secret: &Code, guess: &Code) -> (u8, u8) {
        let n = secret.0.len();
        let black = (0..n).filter(|&i| secret.0[i] == guess.0[i]).count();
        // Try every injective matching of guess pegs to code pegs of the same
        // colour (n is small) and keep the largest.
        fn best(i: usize, used: &mut Vec<bool>, s: &[u8], g: &[u8]) -> usize {
            if i == g.len() {
                return 0;
            }
            let mut top = best(i + 1, used, s, g);
            for j in 0..s.len() {
                if !used[j] && s[j] == g[i] {
                    used[j] = true;
                    top = top.max(1 + best(i + 1, used, s, g));
                    used[j] = false;
                }
            }
            top
        }
        let matched = best(0, &mut vec![false; n], &secret.0, &guess.0);
        (black as u8, (matched - black) as u8)
    }

    /// Cases from the rules' notation (a code, a guess, black and white),
    /// repeated colours included.
    #[test]
    fn feedback_cases() {
        let cases = [
            ("0123", "0123", 6, (4, 0)),
            ("0123", "3210", 6, (0, 4)),
            ("0123", "4455", 6, (0, 0)),
            ("0123", "0011", 6, (1, 1)),
            // Repeated colours: each code peg is matched at most once.
            ("0011", "1100", 6, (0, 4)),
            ("0001", "0111", 6, (2, 0)),
            ("0000", "0011", 6, (2, 0)),
            ("1122", "2211", 6, (0, 4)),
            ("1234", "1111", 6, (1, 0)),
            ("1111", "1234", 6, (1, 0)),
            ("1123", "3111", 6, (1, 2)),
            ("5500", "0505", 6, (2, 2)),
            ("1212", "2121", 6, (0, 4)),
            ("0012", "1200", 6, (0, 4)),
            ("0012", "0021", 6, (2, 2)),
            ("3333", "3300", 6, (2, 0)),
            // Other sizes.
            ("012", "210", 3, (1, 2)),
            ("01234", "43210", 5, (1, 4)),
            ("ab9", "9ab", 12, (0, 3)),
        ];
        for (secret, guess, colours, expected) in cases {
            assert_eq!(fb(secret, guess, colours), expected, "{secret} / {guess}");
            assert_eq!(
                brute_force(&code(secret), &code(guess)),
                expected,
                "{secret} / {guess}"
            );
        }
    }

    /// The rules' N = 3 encoding table, row by row (`-` are impossible sums).
    #[test]
    fn feedback_encoding_table_for_three_pegs() {
        let table: [[Option<u16>; 4]; 4] = [
            [Some(6), Some(7), Some(8), Some(9)],
            [Some(3), Some(4), Some(5), None],
            [Some(1), Some(2), None, None],
            [Some(0), None, None, None],
        ];
        for (black, row) in table.iter().enumerate() {
            for (white, cell) in row.iter().enumerate() {
                if let Some(expected) = cell {
                    let f = Feedback {
                        black: black as u8,
                        white: white as u8,
                    };
                    assert_eq!(f.encode(3), *expected, "<{black},{white}>");
                } else {
                    assert!(black + white > 3);
                }
            }
        }
        assert_eq!(Feedback::count(3), 10);
        assert_eq!(Feedback::count(4), 15);
    }

    #[test]
    fn codes_are_numbered_as_the_rules_say() {
        // "0123 is 0*6^3 + 1*6^2 + 2*6 + 3 = 51".
        assert_eq!(code("0123").index(6), 51);
        assert_eq!(Code::from_index(51, 4, 6), code("0123"));
        assert_eq!(Code::from_index(0, 4, 6), code("0000"));
        assert_eq!(Code::from_index(1295, 4, 6), code("5555"));
        let config = Config::default();
        assert_eq!(secret_count(&config), 1296);
        for i in 0..1296 {
            assert_eq!(Code::from_index(i, 4, 6).index(6), i);
        }
    }

    #[test]
    fn colours_are_digits_then_letters() {
        assert_eq!(code("09aZ").pegs(), &[0, 9, 10, 35]);
        assert_eq!(Code(vec![0, 9, 10, 35]).ascii(), "0 9 a z");
        let err = Code::from_chars(&['6', '0', '0', '0'], 6).unwrap_err();
        assert!(err.contains("the colours are 0-5"), "{err}");
        assert!(Code::from_chars(&['!'], 6).is_err());
    }

    fn play(config: Config, codes: [&str; 2], a: &[&str], b: &[&str]) -> (Mastermind, Vec<String>) {
        let game = Mastermind::with_codes(config, [code(codes[0]), code(codes[1])]);
        let (game, notices) = scripted::play(game, a, b);
        (game, notices.into_iter().map(|n| n.line).collect())
    }

    #[test]
    fn first_player_cracking_leaves_the_equalizing_attack() {
        let (game, log) = play(
            Config::default(),
            ["0011", "2345"],
            &["0000", "2345"],
            &["1111", "5555"],
        );
        assert_eq!(
            log,
            [
                "feedback 0 0",
                "feedback 2 0",
                "feedback 4 0",
                "feedback 0 0"
            ]
        );
        assert_eq!(outcome(&game).winner, Winner::A);
        assert_eq!(game.attacks(Seat::B), 2);
    }

    #[test]
    fn both_cracking_in_a_round_is_a_draw() {
        let (game, _) = play(Config::default(), ["0011", "2345"], &["2345"], &["0 0 1 1"]);
        assert_eq!(outcome(&game).reason, "both-cracked");
        assert_eq!(outcome(&game).winner, Winner::Draw);
    }

    #[test]
    fn second_player_cracking_first_wins_at_once() {
        let (game, _) = play(Config::default(), ["0011", "2345"], &["1111"], &["0011"]);
        assert_eq!(outcome(&game).winner, Winner::B);
    }

    #[test]
    fn nobody_within_the_cap_is_a_draw() {
        let config = Config {
            max_attacks: 3,
            ..Config::default()
        };
        let (game, _) = play(config, ["0011", "2345"], &["5555"; 3], &["5555"; 3]);
        assert_eq!(
            outcome(&game),
            Outcome {
                winner: Winner::Draw,
                reason: "attack-cap".into()
            }
        );
        assert_eq!(game.attacks(Seat::A), 3);
        assert_eq!(game.attacks(Seat::B), 3);
    }

    #[test]
    fn solo_asks_only_seat_a() {
        let config = Config {
            max_attacks: 3,
            ..Config::default()
        };
        let game = solo(&config, 51, 99).unwrap();
        assert_eq!(game.greeting(Seat::A), "mastermind 4 6 solo 3 99");
        assert_eq!(game.held_secret().as_deref(), Some("0 1 2 3"));
        let err = solo(&config, 1296, 99).unwrap_err();
        assert_eq!(
            err.to_string(),
            "mastermind has no secret 1296: its 1296 secrets are numbered 0 to 1295"
        );
        let mut game = game;
        for (i, guess) in ["0000", "3210", "0123"].iter().enumerate() {
            match game.status() {
                Status::Ask { seat, request } => {
                    assert_eq!(seat, Seat::A);
                    assert_eq!(request.as_deref(), Some("attack"));
                }
                Status::Over(_) => panic!("over after {i} attacks"),
            }
            let reply = game.parse_reply(guess).unwrap();
            game = game.apply(reply).unwrap().game;
        }
        assert_eq!(outcome(&game).winner, Winner::A);
        assert_eq!(outcome(&game).reason, "cracked");
        assert_eq!(game.attacks(Seat::A), 3);
        assert!(game.summary()[0].starts_with("secret: 0 1 2 3"));

        let mut game = solo(&config, 51, 99).unwrap();
        for _ in 0..3 {
            let reply = game.parse_reply("5555").unwrap();
            game = game.apply(reply).unwrap().game;
        }
        assert_eq!(outcome(&game).winner, Winner::B);
        assert_eq!(outcome(&game).reason, "attack-cap");
    }

    #[test]
    fn bots_choose_codes_first_and_bad_colours_are_illegal() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let game = Mastermind::new(Config::default(), &mut rng);
        assert!(
            matches!(game.status(), Status::Ask { seat: Seat::A, ref request } if request.as_deref() == Some("code"))
        );
        assert!(game
            .greeting(Seat::B)
            .starts_with("mastermind 4 6 second 12 "));
        let rejected = game.apply(RawCode(vec!['0', '1', '2', '6'])).unwrap_err();
        assert!(
            rejected.rule.starts_with("secret code: '6'"),
            "{}",
            rejected.rule
        );
        let game = rejected.game;
        assert!(game.parse_reply("0 1 2").is_err());
        assert!(game.parse_reply("01234").is_err());
        let game = game.apply(RawCode(vec!['0', '1', '2', '2'])).unwrap().game;
        let game = game.apply(RawCode(vec!['5', '5', '5', '5'])).unwrap().game;
        assert!(
            matches!(game.status(), Status::Ask { seat: Seat::A, ref request } if request.as_deref() == Some("attack"))
        );
    }

    #[test]
    fn options_are_checked() {
        let ok = Config::from_options(&GameOptions {
            pegs: Some(5),
            colours: Some(8),
            max_attacks: Some(7),
            codes: Some("random".into()),
            ..GameOptions::default()
        })
        .unwrap();
        assert_eq!(ok.code_count(), 32768);
        assert_eq!(ok.codes, CodeSource::Random);
        let refused = |bad: GameOptions| Config::from_options(&bad).unwrap_err().to_string();
        let none = GameOptions::default;
        for (bad, expected) in [
            (
                GameOptions {
                    pegs: Some(0),
                    ..none()
                },
                "mastermind: pegs must be from 1 to 12, got '0'",
            ),
            (
                GameOptions {
                    colours: Some(37),
                    ..none()
                },
                "mastermind: colours must be from 2 to 36, got '37'",
            ),
            (
                GameOptions {
                    max_attacks: Some(0),
                    ..none()
                },
                "mastermind: max-attacks must be at least 1, got '0'",
            ),
        ] {
            assert_eq!(refused(bad), expected);
        }
        // Options of other games are named, not ignored.
        for (bad, option) in [
            (
                GameOptions {
                    max_rounds: Some(5),
                    ..none()
                },
                "max-rounds",
            ),
            (
                GameOptions {
                    variant: Some("classic".into()),
                    ..none()
                },
                "variant",
            ),
        ] {
            let text = refused(bad);
            assert!(
                text.starts_with("mastermind has no option") && text.contains(option),
                "{text}"
            );
        }
    }

    fn any_code(pegs: u8, colours: u8) -> impl Strategy<Value = Code> {
        proptest::collection::vec(0..colours, pegs as usize).prop_map(Code)
    }

    fn pair() -> impl Strategy<Value = (u8, Code, Code)> {
        (1u8..=6, 2u8..=8).prop_flat_map(|(pegs, colours)| {
            (
                Just(colours),
                any_code(pegs, colours),
                any_code(pegs, colours),
            )
        })
    }

    proptest! {
        #[test]
        fn feedback_properties((colours, secret, guess) in pair()) {
            let n = secret.0.len() as u8;
            let f = feedback(&secret, &guess, colours);
            prop_assert!(f.black + f.white <= n);
            let g = feedback(&guess, &secret, colours);
            prop_assert_eq!(f, g);
            prop_assert_eq!((f.black, f.white), brute_force(&secret, &guess));
            prop_assert_eq!(f.black == n, secret == guess);
            prop_assert!(f.encode(n) < Feedback::count(n));
            prop_assert_eq!(f.encode(n) == 0, secret == guess);
        }
    }
}

#[cfg(test)]
mod human_tests {
    use super::*;
    use crate::games::human::HumanText;

    fn code(s: &str) -> Code {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        Code::from_chars(&chars, 36).unwrap()
    }

    #[test]
    fn feedback_reads_as_pegs_and_words() {
        assert_eq!(
            feedback_text(Feedback { black: 2, white: 1 }),
            "●●○  (2 black, 1 white)"
        );
        assert_eq!(
            feedback_text(Feedback { black: 0, white: 0 }),
            "no pegs  (0 black, 0 white)"
        );
        assert_eq!(
            feedback_text(Feedback { black: 0, white: 4 }),
            "○○○○  (0 black, 4 white)"
        );
    }

    #[test]
    fn a_game_reads_as_pegs() {
        let game = Mastermind::with_codes(Config::default(), [code("0011"), code("1123")]);
        assert_eq!(
            game.prompt().text,
            "Enter your guess (four colours from 0-5): "
        );
        assert!(!game.prompt().secret);
        let reply = game.read_human("1-1-3-0").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(
            game.feedback(Seat::A),
            ["Feedback: ●●○  (2 black, 1 white)"]
        );
        let reply = game.read_human("0011").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(
            game.move_line(Seat::B, "Bot"),
            "Bot guesses 0 0 1 1: ●●●●  (4 black, 0 white)  cracked!"
        );
        assert!(matches!(game.status(), Status::Over(ref o) if o.winner == Winner::B));
        let screen = game.final_screen(["You", "Bot"]).join("\n");
        assert!(screen.contains("You  0 0 1 1"), "{screen}");
        assert!(screen.contains("Bot  1 1 2 3"), "{screen}");
        assert!(
            screen.contains("round  1  You  1 1 3 0  ●●○  (2 black, 1 white)"),
            "{screen}"
        );
        assert!(
            screen.contains("round  1  Bot  0 0 1 1  ●●●●  (4 black, 0 white)  cracked!"),
            "{screen}"
        );
    }

    #[test]
    fn prompts_follow_the_size_and_bad_input_explains_itself() {
        let config = Config {
            pegs: 5,
            colours: 12,
            ..Config::default()
        };
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let game = Mastermind::new(config, &mut rng);
        assert!(game.prompt().secret);
        assert_eq!(
            game.prompt().text,
            "Enter your secret code (five colours from 0-b, not shown): "
        );
        assert_eq!(
            game.read_human("0 1 2").unwrap_err(),
            "Expected 5 symbols, got 3 in '0 1 2'. That is not a code: type five colours from 0-b, e.g. 0 1 2 3 4."
        );
        assert_eq!(
            game.read_human("0 1 2 3 c").unwrap_err(),
            "'c' is not a colour from 0-b: type five colours from 0-b, e.g. 0 1 2 3 4."
        );
        assert!(game.read_human("01ab9").is_ok());
        assert!(game.read_human("0-1-A-B-9").is_ok());
        assert_eq!(game.drawn_code(Seat::A), None);
    }
}
