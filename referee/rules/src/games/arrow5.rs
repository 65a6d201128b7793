//! Arrow 5 (`docs/rules/arrow5.md`): codes of 5 distinct symbols from
//! 0-9 and the eye, the `<` `·` `>` signal, rounds in which the second agent
//! gets an equalizing attack, and the hidden-eye variant.
//!
//! Decisions the rule text leaves open are in `protocol.md`, "Rules
//! clarifications"; each is marked here where it is implemented.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

pub use super::code_game::CodeSource;
use super::code_game::{CodeGame, CodeRules, Verb, Words};
use super::rounds::Turns;
use super::{checked, draw_below, GameConfigError, GameOptions, NoSuchSecret, Seat};
#[cfg(test)]
use super::{Game, Outcome, Status, Winner};

/// Symbols are 0-9 and the eye, stored as 0..=10.
pub const EYE: u8 = 10;
pub const SYMBOLS: u8 = 11;
pub const CODE_LEN: usize = 5;
/// 11 * 10 * 9 * 8 * 7.
pub const CODE_COUNT: usize = 55_440;
/// Clarification: with no crack after this many rounds the game is a draw.
pub const DEFAULT_MAX_ROUNDS: u32 = 50;

/// A code or an attack: five distinct symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code([u8; CODE_LEN]);

/// Why five symbols are not a code (the *illegal* verdict's rule).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    #[error("'{0}' is not a symbol (use 0-9 or E for the eye)")]
    UnknownSymbol(char),
    #[error("symbol {0} appears more than once (a code has 5 distinct symbols)")]
    Repeated(String),
}

impl Code {
    pub fn new(symbols: [u8; CODE_LEN]) -> Result<Code, CodeError> {
        for (i, &s) in symbols.iter().enumerate() {
            if s >= SYMBOLS {
                return Err(CodeError::UnknownSymbol('?'));
            }
            if symbols[..i].contains(&s) {
                return Err(CodeError::Repeated(symbol_ascii(s).to_string()));
            }
        }
        Ok(Code(symbols))
    }

    /// Validates symbols as the bot wrote them (`0`-`9`, `E`/`e`, or `👁`).
    pub fn from_chars(chars: &[char; CODE_LEN]) -> Result<Code, CodeError> {
        let mut symbols = [0u8; CODE_LEN];
        for (slot, &c) in symbols.iter_mut().zip(chars) {
            *slot = match c {
                '0'..='9' => c as u8 - b'0',
                'E' | 'e' | '👁' => EYE,
                other => return Err(CodeError::UnknownSymbol(other)),
            };
        }
        Code::new(symbols)
    }

    pub fn symbols(&self) -> [u8; CODE_LEN] {
        self.0
    }

    pub fn contains_eye(&self) -> bool {
        self.0.contains(&EYE)
    }

    /// Every legal code, in lexicographic order of symbols.
    pub fn all() -> Vec<Code> {
        let mut out = Vec::with_capacity(CODE_COUNT);
        let mut cur = [0u8; CODE_LEN];
        fn rec(depth: usize, used: u16, cur: &mut [u8; CODE_LEN], out: &mut Vec<Code>) {
            if depth == CODE_LEN {
                out.push(Code(*cur));
                return;
            }
            for s in 0..SYMBOLS {
                if used & (1 << s) == 0 {
                    cur[depth] = s;
                    rec(depth + 1, used | (1 << s), cur, out);
                }
            }
        }
        rec(0, 0, &mut cur, &mut out);
        out
    }

    /// The `index`-th code of [`Code::all`]'s order, without building the list.
    pub fn nth(index: usize) -> Code {
        assert!(index < CODE_COUNT, "code {index} of {CODE_COUNT}");
        let mut pool: Vec<u8> = (0..SYMBOLS).collect();
        let mut symbols = [0u8; CODE_LEN];
        // Codes sharing the first i symbols: 10*9*8*7 for i = 1, and so on.
        let mut block = CODE_COUNT / SYMBOLS as usize;
        let mut rest = index;
        for (i, slot) in symbols.iter_mut().enumerate() {
            *slot = pool.remove(rest / block);
            rest %= block;
            if i + 1 < CODE_LEN {
                block /= pool.len();
            }
        }
        Code(symbols)
    }

    /// A uniformly random code.
    pub fn random<R: Rng>(rng: &mut R) -> Code {
        let mut pool: Vec<u8> = (0..SYMBOLS).collect();
        let mut symbols = [0u8; CODE_LEN];
        for slot in &mut symbols {
            *slot = pool.swap_remove(draw_below(rng, pool.len()));
        }
        Code(symbols)
    }

    /// The wire form: `1 0 3 6 E`.
    pub fn ascii(&self) -> String {
        join(self.0.iter().map(|&s| symbol_ascii(s)))
    }

    /// The human form with the rules' eye glyph: `1 0 3 6 👁`.
    pub fn glyphs(&self) -> String {
        join(self.0.iter().map(|&s| symbol_glyph(s)))
    }
}

fn symbol_ascii(s: u8) -> &'static str {
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "E"][s as usize]
}

fn symbol_glyph(s: u8) -> &'static str {
    if s == EYE {
        "👁"
    } else {
        symbol_ascii(s)
    }
}

/// The parts separated by single spaces, built in one string (a signal and
/// a code are formatted on every move).
fn join<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::with_capacity(4 * CODE_LEN);
    push_joined(&mut out, parts);
    out
}

fn push_joined<'a>(out: &mut String, parts: impl Iterator<Item = &'a str>) {
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(part);
    }
}

/// One hint of a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `<`: the symbol is further left in the code.
    Backtrack,
    /// `·` (`.` on the wire): the symbol is in place.
    Steady,
    /// `>`: the symbol is further right in the code.
    Advance,
}

impl Mark {
    pub fn ascii(self) -> &'static str {
        match self {
            Mark::Backtrack => "<",
            Mark::Steady => ".",
            Mark::Advance => ">",
        }
    }

    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Backtrack => "<",
            Mark::Steady => "·",
            Mark::Advance => ">",
        }
    }
}

/// The defender's answer to an attack: one mark per relevant symbol, in the
/// attack's order, and whether the attack was the code itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signal {
    marks: [Mark; CODE_LEN],
    len: u8,
    pub cracked: bool,
}

impl Signal {
    pub fn marks(&self) -> &[Mark] {
        &self.marks[..self.len as usize]
    }

    /// The wire form: `< . >`, or `-` for a signal with no marks.
    pub fn ascii(&self) -> String {
        let mut out = String::with_capacity(2 * CODE_LEN);
        self.push_ascii(&mut out);
        out
    }

    /// Appends the wire form to `out`.
    fn push_ascii(&self, out: &mut String) {
        if self.len == 0 {
            out.push('-');
        } else {
            push_joined(out, self.marks().iter().map(|m| m.ascii()));
        }
    }

    /// The rules' form: `< · >`, or `(none)`.
    pub fn glyphs(&self) -> String {
        if self.len == 0 {
            "(none)".to_string()
        } else {
            join(self.marks().iter().map(|m| m.glyph()))
        }
    }

    /// A small integer that identifies the signal (for solvers' partitions):
    /// distinct signals, distinct keys.
    pub fn key(&self) -> u16 {
        let mut key: u16 = 1;
        for m in self.marks() {
            key = key * 3
                + match m {
                    Mark::Backtrack => 0,
                    Mark::Steady => 1,
                    Mark::Advance => 2,
                };
        }
        // 3^5 * 2 < 2^9; the length is implied by the leading 1.
        key * 2 + u16::from(self.cracked)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    Classic,
    HiddenEye,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::HiddenEye => "hidden-eye",
        }
    }
}

/// The signal `code` gives to `attack`. In the hidden-eye variant the eye is
/// never mentioned, so a perfect attack on a code with the eye shows four
/// steady marks; `cracked` tells the win apart.
pub fn signal(code: &Code, attack: &Code, variant: Variant) -> Signal {
    let mut position = [u8::MAX; SYMBOLS as usize];
    for (i, &s) in code.0.iter().enumerate() {
        position[s as usize] = i as u8;
    }
    let mut marks = [Mark::Steady; CODE_LEN];
    let mut len = 0;
    for (i, &s) in attack.0.iter().enumerate() {
        let at = position[s as usize];
        if at == u8::MAX || (s == EYE && variant == Variant::HiddenEye) {
            continue;
        }
        marks[len] = match (at as usize).cmp(&i) {
            std::cmp::Ordering::Less => Mark::Backtrack,
            std::cmp::Ordering::Equal => Mark::Steady,
            std::cmp::Ordering::Greater => Mark::Advance,
        };
        len += 1;
    }
    Signal {
        marks,
        len: len as u8,
        cracked: code == attack,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub variant: Variant,
    pub codes: CodeSource,
    pub max_rounds: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            variant: Variant::Classic,
            codes: CodeSource::Bots,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl Config {
    pub fn from_options(options: &GameOptions) -> Result<Config, GameConfigError> {
        options.accept_only("arrow5", &["variant", "codes", "max-rounds"])?;
        let mut config = Config::default();
        if let Some(v) = &options.variant {
            config.variant = match v.to_ascii_lowercase().as_str() {
                "classic" => Variant::Classic,
                "hidden-eye" | "hidden_eye" | "hiddeneye" => Variant::HiddenEye,
                _ => {
                    return Err(GameConfigError::UnknownVariant {
                        game: "arrow5",
                        variant: v.clone(),
                        choices: "classic, hidden-eye",
                    })
                }
            };
        }
        if let Some(c) = &options.codes {
            config.codes = CodeSource::parse("arrow5", c)?;
        }
        if let Some(r) = checked(
            "arrow5",
            "max-rounds",
            options.max_rounds,
            1..=u32::MAX,
            "at least 1",
        )? {
            config.max_rounds = r;
        }
        Ok(config)
    }

    /// The fields of [`super::CanonicalConfig`], spelled for good.
    pub fn canonical_fields(&self) -> Vec<(&'static str, String)> {
        let Config {
            variant,
            codes,
            max_rounds,
        } = self;
        let variant = match variant {
            Variant::Classic => "classic",
            Variant::HiddenEye => "hidden-eye",
        };
        vec![
            ("variant", variant.into()),
            ("codes", codes.canonical().into()),
            ("max-rounds", max_rounds.to_string()),
        ]
    }

    pub fn cli_flags(&self) -> Vec<String> {
        vec![
            "--variant".into(),
            self.variant.name().into(),
            "--codes".into(),
            self.codes.name().into(),
            "--max-rounds".into(),
            self.max_rounds.to_string(),
        ]
    }
}

/// A reply: five symbols as written, not yet validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawCode(pub [char; CODE_LEN]);

/// An Arrow 5 game in progress. Seat A is the initial agent.
pub type Arrow5 = CodeGame<Config>;

/// The number of secrets of the solo game: every code, 55,440.
pub fn secret_count(config: &Config) -> u64 {
    config.secret_count()
}

/// A solo game: the referee holds the `secret_index`-th code of
/// [`Code::all`]'s order and only seat A attacks, at most `max_rounds` times.
/// Seat B is never asked anything. An index beyond the codes is an error.
pub fn solo(config: &Config, secret_index: u64, bot_seed: u64) -> Result<Arrow5, NoSuchSecret> {
    CodeGame::solo(config, secret_index, bot_seed)
}

impl Arrow5 {
    /// A game with the codes given (A's code first).
    pub fn with_codes(config: Config, codes: [Code; 2]) -> Arrow5 {
        CodeGame::from_codes(config, codes, Seat::A)
    }
}

/// The rules of Arrow 5, as the code-game core asks for them.
impl CodeRules for Config {
    const GAME: &'static str = "arrow5";
    const WORDS: Words = Words {
        wire: Verb::Attack,
        human: Verb::Attack,
        counter: "round",
        cap_reason: "round-cap",
        feedback_label: "Signal",
        says_cracked: true,
    };
    const TURNS: Turns = Turns::Rounds;
    type Code = Code;
    type Feedback = Signal;
    type Raw = RawCode;
    type Invalid = CodeError;

    fn code_source(&self) -> CodeSource {
        self.codes
    }

    fn attack_cap(&self) -> u32 {
        self.max_rounds
    }

    fn greeting_words(&self) -> String {
        self.variant.name().to_string()
    }

    fn secret_count(&self) -> u64 {
        CODE_COUNT as u64
    }

    fn nth_code(&self, index: u64) -> Code {
        Code::nth(index as usize)
    }

    fn random_code<G: Rng>(&self, rng: &mut G) -> Code {
        Code::random(rng)
    }

    fn read(&self, line: &str) -> Result<RawCode, String> {
        crate::protocol::parse_symbols::<CODE_LEN>(line).map(RawCode)
    }

    fn code(&self, raw: &RawCode) -> Result<Code, CodeError> {
        Code::from_chars(&raw.0)
    }

    fn wire(code: &Code) -> String {
        code.ascii()
    }

    fn feedback(&self, secret: &Code, attack: &Code) -> Signal {
        signal(secret, attack, self.variant)
    }

    fn cracked(&self, signal: &Signal) -> bool {
        signal.cracked
    }

    fn feedback_line(&self, signal: &Signal) -> String {
        // Built in one string: this line is sent after every attack.
        let mut line = String::with_capacity(7 + 2 * CODE_LEN);
        line.push_str("signal ");
        signal.push_ascii(&mut line);
        line
    }

    fn account_text(&self, signal: &Signal) -> String {
        signal.glyphs()
    }

    fn held_line(&self, secret: &Code) -> String {
        format!("secret: {secret}  (held by the referee)")
    }

    fn intro(game: &Arrow5, names: [&str; 2]) -> Vec<String> {
        let mut lines = vec![
            "Arrow 5: a code is five different symbols from 0-9 and the eye (type E for the eye)."
                .to_string(),
            "The signal gives one mark per symbol of your attack that is in the code: \
< further left, · in place, > further right."
                .to_string(),
        ];
        if game.config().variant == Variant::HiddenEye {
            lines.push("Hidden eye: the signal never mentions the eye.".to_string());
        }
        lines.push(format!(
            "First to attack: {}; {} gets the equalizing attack of each round.",
            names[0], names[1]
        ));
        lines
    }

    fn code_phrase(&self) -> String {
        "five different symbols from 0-9 and E for the eye".to_string()
    }

    fn example(&self) -> String {
        "1 0 3 6 E".to_string()
    }
}

impl fmt::Display for Code {
    /// The human form ([`Code::glyphs`]), written without a string of its
    /// own (every move's account line shows the attack).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(symbol_glyph(s))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scripted::{self, outcome};
    use proptest::prelude::*;

    fn code(s: &str) -> Code {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        Code::from_chars(&chars.try_into().unwrap()).unwrap()
    }

    fn sig(secret: &str, attack: &str, variant: Variant) -> String {
        signal(&code(secret), &code(attack), variant).glyphs()
    }

    /// The rules' worked example and the five attacks of its complete game.
    #[test]
    fn rules_text_signals() {
        let cases = [
            ("5 1 3 9 4", "< · >"),
            ("0 5 7 9 2", "> >"),
            ("6 0 E 3 1", "> · < <"),
            ("3 0 6 1 E", "> · > <"),
            ("6 0 3 1 9", "> · · < ·"),
            ("1 0 3 6 9", "· · · · ·"),
        ];
        for (attack, expected) in cases {
            assert_eq!(
                sig("1 0 3 6 9", attack, Variant::Classic),
                expected,
                "{attack}"
            );
        }
        assert!(signal(&code("10369"), &code("10369"), Variant::Classic).cracked);
    }

    #[test]
    fn empty_signal_is_a_dash_on_the_wire() {
        let s = signal(&code("01234"), &code("56789"), Variant::Classic);
        assert_eq!(s.ascii(), "-");
        assert_eq!(s.glyphs(), "(none)");
    }

    #[test]
    fn hidden_eye_never_mentions_the_eye() {
        // Agent A's code from the rules: 5 0 1 👁 2.
        assert_eq!(sig("5 0 1 E 2", "5 0 1 E 2", Variant::HiddenEye), "· · · ·");
        assert_eq!(sig("5 0 1 E 2", "5 0 1 E 2", Variant::Classic), "· · · · ·");
        assert_eq!(sig("5 0 1 E 2", "E 9 8 7 6", Variant::HiddenEye), "(none)");
        assert_eq!(sig("5 0 1 E 2", "E 9 8 7 6", Variant::Classic), ">");
        let perfect = signal(&code("5 0 1 E 2"), &code("5 0 1 E 2"), Variant::HiddenEye);
        assert!(perfect.cracked);
        // Four steady marks without the crack are a different signal.
        let near = signal(&code("5 0 1 E 2"), &code("5 0 1 9 2"), Variant::HiddenEye);
        assert_eq!(near.glyphs(), "· · · ·");
        assert!(!near.cracked);
        assert_ne!(near.key(), perfect.key());
    }

    #[test]
    fn codes_must_be_distinct_known_symbols() {
        let rep = Code::from_chars(&['1', '1', '2', '3', '4']).unwrap_err();
        assert_eq!(rep, CodeError::Repeated("1".into()));
        let unk = Code::from_chars(&['x', '1', '2', '3', '4']).unwrap_err();
        assert_eq!(unk, CodeError::UnknownSymbol('x'));
        assert!(Code::from_chars(&['👁', '1', '2', '3', '4']).is_ok());
    }

    #[test]
    fn there_are_55440_codes() {
        let all = Code::all();
        assert_eq!(all.len(), CODE_COUNT);
        for (i, code) in all.iter().enumerate() {
            assert_eq!(Code::nth(i), *code, "code {i}");
        }
        let mut sorted = all.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), CODE_COUNT);
    }

    /// Plays attacks against fixed codes: `a` and `b` are the attacks of A and
    /// B per round.
    fn play(codes: [&str; 2], a: &[&str], b: &[&str], max_rounds: u32) -> (Arrow5, Vec<String>) {
        let config = Config {
            max_rounds,
            ..Config::default()
        };
        let game = Arrow5::with_codes(config, [code(codes[0]), code(codes[1])]);
        let (game, notices) = scripted::play(game, a, b);
        (game, notices.into_iter().map(|n| n.line).collect())
    }

    #[test]
    fn the_rules_complete_game() {
        // B's code is the rules' 1 0 3 6 9; A plays the example's five attacks.
        let a = [
            "0 5 7 9 2",
            "6 0 E 3 1",
            "3 0 6 1 E",
            "6 0 3 1 9",
            "1 0 3 6 9",
        ];
        let b = ["0 1 2 3 4"; 5];
        let (game, log) = play(["5 0 1 E 2", "1 0 3 6 9"], &a, &b, 50);
        let a_signals: Vec<&String> = log.iter().step_by(2).collect();
        assert_eq!(
            a_signals,
            [
                "signal > >",
                "signal > . < <",
                "signal > . > <",
                "signal > . . < .",
                "signal . . . . ."
            ]
        );
        assert_eq!(outcome(&game).winner, Winner::A);
        assert_eq!(game.attacks(Seat::A), 5);
        // B got its equalizing attack in round 5.
        assert_eq!(game.attacks(Seat::B), 5);
    }

    #[test]
    fn equalizing_attack_makes_a_tie() {
        let (game, _) = play(["01234", "56789"], &["56789"], &["01234"], 50);
        assert_eq!(
            outcome(&game),
            Outcome {
                winner: Winner::Draw,
                reason: "both-cracked".into()
            }
        );
    }

    #[test]
    fn second_agent_cracking_first_wins_at_once() {
        let (game, _) = play(["01234", "56789"], &["98765"], &["01234"], 50);
        assert_eq!(outcome(&game).winner, Winner::B);
        assert_eq!(game.attacks(Seat::A), 1);
    }

    #[test]
    fn round_cap_is_a_draw() {
        let (game, _) = play(["01234", "56789"], &["98765"; 3], &["43210"; 3], 3);
        assert_eq!(outcome(&game).reason, "round-cap");
        assert_eq!(game.attacks(Seat::A), 3);
    }

    #[test]
    fn illegal_attack_gives_the_state_back() {
        let game = Arrow5::with_codes(Config::default(), [code("01234"), code("56789")]);
        let reply = game.parse_reply("1 1 2 3 4").unwrap();
        let rejected = game.apply(reply).unwrap_err();
        assert!(
            rejected.rule.contains("more than once"),
            "{}",
            rejected.rule
        );
        assert_eq!(rejected.game.attacks(Seat::A), 0);
        assert!(matches!(
            rejected.game.status(),
            Status::Ask { seat: Seat::A, .. }
        ));
    }

    #[test]
    fn bots_choose_codes_first() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let game = Arrow5::new(Config::default(), &mut rng);
        assert_eq!(
            game.status(),
            Status::Ask {
                seat: Seat::A,
                request: Some("code".into())
            }
        );
        let game = game.apply(RawCode(['0', '1', '2', '3', '4'])).unwrap().game;
        assert!(
            matches!(game.status(), Status::Ask { seat: Seat::B, ref request } if request.as_deref() == Some("code"))
        );
        let game = game.apply(RawCode(['5', '6', '7', '8', 'E'])).unwrap().game;
        assert!(
            matches!(game.status(), Status::Ask { seat: Seat::A, ref request } if request.as_deref() == Some("attack"))
        );
    }

    #[test]
    fn solo_refuses_a_secret_beyond_the_codes_and_holds_the_eye_as_e() {
        let config = Config::default();
        let err = solo(&config, 55_440, 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "arrow5 has no secret 55440: its 55440 secrets are numbered 0 to 55439"
        );
        let last = solo(&config, 55_439, 1).unwrap();
        assert_eq!(last.held_secret().as_deref(), Some("E 9 8 7 6"));
        let two_player = Arrow5::with_codes(config, [code("01234"), code("56789")]);
        assert_eq!(two_player.held_secret(), None);
    }

    #[test]
    fn solo_asks_only_the_attacker() {
        let config = Config {
            max_rounds: 2,
            ..Config::default()
        };
        let index = Code::all()
            .iter()
            .position(|c| *c == code("10369"))
            .unwrap();
        let game = solo(&config, index as u64, 7).unwrap();
        assert_eq!(game.greeting(Seat::A), "arrow5 classic solo 2 7");
        assert_eq!(game.held_secret().as_deref(), Some("1 0 3 6 9"));
        assert_eq!(secret_count(&config), 55_440);
        let game = game.apply(RawCode(['0', '1', '2', '3', '4'])).unwrap().game;
        assert!(matches!(game.status(), Status::Ask { seat: Seat::A, .. }));
        let game = game.apply(RawCode(['1', '0', '3', '6', '9'])).unwrap().game;
        assert_eq!(
            outcome(&game),
            Outcome {
                winner: Winner::A,
                reason: "cracked".into()
            }
        );
        assert_eq!(game.attacks(Seat::A), 2);
        assert_eq!(game.attacks(Seat::B), 0);
        assert_eq!(game.summary(), ["secret: 1 0 3 6 9  (held by the referee)"]);

        let mut game = solo(&config, index as u64, 7).unwrap();
        for _ in 0..2 {
            game = game.apply(RawCode(['0', '1', '2', '3', '4'])).unwrap().game;
        }
        assert_eq!(outcome(&game).reason, "round-cap");
        assert_eq!(outcome(&game).winner, Winner::B);
    }

    use rand::SeedableRng;

    fn any_code() -> impl Strategy<Value = Code> {
        (0..CODE_COUNT).prop_map(|i| {
            thread_local!(static ALL: Vec<Code> = Code::all());
            ALL.with(|all| all[i])
        })
    }

    proptest! {
        #[test]
        fn signal_length_is_shared_symbols(secret in any_code(), attack in any_code(), hidden in any::<bool>()) {
            let variant = if hidden { Variant::HiddenEye } else { Variant::Classic };
            let s = signal(&secret, &attack, variant);
            let mut shared = attack.0.iter().filter(|x| secret.0.contains(x)).count();
            if hidden && secret.contains_eye() && attack.contains_eye() {
                shared -= 1;
            }
            prop_assert_eq!(s.marks().len(), shared);
            prop_assert_eq!(s.cracked, secret == attack);
            // Steady marks count symbols in place (less the eye when hidden).
            let steady = s.marks().iter().filter(|m| **m == Mark::Steady).count();
            let in_place = (0..CODE_LEN)
                .filter(|&i| secret.0[i] == attack.0[i] && !(hidden && secret.0[i] == EYE))
                .count();
            prop_assert_eq!(steady, in_place);
        }

        /// For every round in which each side cracks (or never), the outcome
        /// follows the rules' round structure.
        #[test]
        fn round_structure(a_at in 1u32..6, b_at in 1u32..6, a_never in any::<bool>(), b_never in any::<bool>()) {
            let max_rounds = 5;
            let attacks = |crack_at: u32, never: bool, target: &'static str| -> Vec<&'static str> {
                (1..=max_rounds).map(|r| if !never && r == crack_at { target } else { "E9876" }).collect()
            };
            let a = attacks(a_at, a_never, "56789");
            let b = attacks(b_at, b_never, "01234");
            let (game, _) = play(["01234", "56789"], &a, &b, max_rounds);
            let o = outcome(&game);
            let a_round = if a_never { u32::MAX } else { a_at };
            let b_round = if b_never { u32::MAX } else { b_at };
            let expected = match a_round.cmp(&b_round) {
                _ if a_never && b_never => Winner::Draw,
                std::cmp::Ordering::Less => Winner::A,
                std::cmp::Ordering::Greater => Winner::B,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            prop_assert_eq!(o.winner, expected);
            let last = a_round.min(b_round).min(max_rounds);
            prop_assert_eq!(game.attacks(Seat::B), last);
        }
    }
}

#[cfg(test)]
mod human_tests {
    use super::*;
    use crate::games::human::HumanText;

    #[test]
    fn attacks_read_with_the_rules_glyphs() {
        let b_code = Code::from_chars(&['1', '0', '3', '6', '9']).unwrap();
        let a_code = Code::from_chars(&['5', '0', '1', 'E', '2']).unwrap();
        let game = Arrow5::with_codes(Config::default(), [a_code, b_code]);
        assert!(game.prompt().text.starts_with("Enter your attack"));
        let reply = game.read_human("6 0 e 3 1").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(game.feedback(Seat::A), ["Signal: > · < <"]);
        let err = game.read_human("1 1 2 3 4").unwrap_err();
        assert!(err.contains("more than once"), "{err}");
        assert!(game.read_human("1 2 3").is_err());
        let reply = game.read_human("5 0 1 👁 2").unwrap();
        let game = game.apply(reply).unwrap().game;
        assert_eq!(
            game.move_line(Seat::B, "Bot"),
            "Bot attacks 5 0 1 👁 2: · · · · ·  cracked!"
        );
        let screen = game.final_screen(["You", "Bot"]).join("\n");
        assert!(screen.contains("You  5 0 1 👁 2"), "{screen}");
        assert!(
            screen.contains("round  1  You  6 0 👁 3 1  > · < <"),
            "{screen}"
        );
    }
}
