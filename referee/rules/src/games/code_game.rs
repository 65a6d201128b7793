//! The core of the three code games (Arrow 5, Mastermind, Safe Cracker).
//!
//! Each seat holds a secret code (chosen by its bot, drawn by the referee,
//! or, in a solo game, held by the referee) and attacks the other's code; the
//! defender's feedback tells how close the attack came. This module owns
//! what the games share: the state, the constructors, whose turn it is and
//! what that seat is asked, the greeting, the summary and the text a person
//! reads ([`HumanText`]). A game gives only what is its own through
//! [`CodeRules`]: its code and how a reply spells one, its feedback and when
//! an attack cracks, its cap and its words. The end of a game is a phase
//! that carries its outcome; the counters (attacks, cracks) are read from
//! the history. Pure, like the rest of `games/`.

use std::fmt::{self, Write as _};

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::human::{capitalized, padded, HumanText, Prompt};
use super::rounds::{self, Next, Turns};
use super::{
    Applied, Game, GameConfigError, NoSuchSecret, Notice, Outcome, Rejected, Seat, Status, Winner,
};

/// Who picks the secret codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CodeSource {
    /// Each bot answers a `code` request (the rules).
    Bots,
    /// The referee draws both codes from the match seed (fair benchmarks).
    Random,
}

impl CodeSource {
    /// Reads the `codes` option of `game`: `bots` or `random`.
    pub fn parse(game: &'static str, value: &str) -> Result<CodeSource, GameConfigError> {
        match value.to_ascii_lowercase().as_str() {
            "bots" => Ok(CodeSource::Bots),
            "random" => Ok(CodeSource::Random),
            _ => Err(GameConfigError::BadValue {
                game,
                option: "codes",
                expected: "'bots' or 'random'",
                value: value.to_string(),
            }),
        }
    }

    /// The spelling of identities ([`super::CanonicalConfig`]): never
    /// changed, whatever [`CodeSource::name`] becomes.
    pub fn canonical(self) -> &'static str {
        match self {
            CodeSource::Bots => "bots",
            CodeSource::Random => "random",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CodeSource::Bots => "bots",
            CodeSource::Random => "random",
        }
    }
}

/// A reply of symbols as written, not yet validated (Mastermind, Safe Cracker).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawCode(pub Vec<char>);

/// What a game calls an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Attack,
    Guess,
}

impl Verb {
    /// `attack`, `guess`.
    pub fn noun(self) -> &'static str {
        match self {
            Verb::Attack => "attack",
            Verb::Guess => "guess",
        }
    }

    /// `attacks`, `guesses`.
    pub fn third_person(self) -> &'static str {
        match self {
            Verb::Attack => "attacks",
            Verb::Guess => "guesses",
        }
    }

    /// `attacked`, `guessed`.
    pub fn past(self) -> &'static str {
        match self {
            Verb::Attack => "attacked",
            Verb::Guess => "guessed",
        }
    }
}

/// A game's words, where the games differ only in words.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// The request on the wire, what a refused reply is called and the
    /// account's verb.
    pub wire: Verb,
    /// What a person is asked for and told.
    pub human: Verb,
    /// What the account and the final screen number attacks by: `round`, `turn`.
    pub counter: &'static str,
    /// The outcome's reason when the cap ends the game.
    pub cap_reason: &'static str,
    /// What stands before the feedback a person is shown: `Signal`, `Feedback`.
    pub feedback_label: &'static str,
    /// Whether the feedback a person is shown during the game says `cracked`.
    pub says_cracked: bool,
}

/// What a code game supplies: implemented by its configuration, which is
/// then the rules of one game.
pub trait CodeRules: Clone + fmt::Debug + Sized {
    /// The name on the wire and in errors.
    const GAME: &'static str;
    const WORDS: Words;
    const TURNS: Turns;

    /// A code or an attack; shown to people (accounts, summaries) by `Display`.
    type Code: Clone + fmt::Debug + fmt::Display + PartialEq;
    type Feedback: Clone + fmt::Debug + PartialEq;
    /// A reply with the shape of a code, not yet judged by the rules.
    type Raw;
    /// Why a raw reply is not a code (the *illegal* verdict's rule).
    type Invalid: fmt::Display;

    fn code_source(&self) -> CodeSource;
    /// The attacks each seat may make.
    fn attack_cap(&self) -> u32;
    /// The greeting's words between the game's name and the role.
    fn greeting_words(&self) -> String;
    /// The number of codes, the secrets of the solo game.
    fn secret_count(&self) -> u64;
    /// The `index`-th code in the game's order (`index < secret_count`).
    fn nth_code(&self, index: u64) -> Self::Code;
    fn random_code<G: Rng>(&self, rng: &mut G) -> Self::Code;
    /// The seat that attacks first in a game between two seats.
    fn first_seat<G: Rng>(&self, _rng: &mut G) -> Seat {
        Seat::A
    }

    /// Syntax only: the reply's symbols (the *protocol* verdict's reason).
    fn read(&self, line: &str) -> Result<Self::Raw, String>;
    /// The rules: are the symbols a code?
    fn code(&self, raw: &Self::Raw) -> Result<Self::Code, Self::Invalid>;
    /// A code as the wire spells it.
    fn wire(code: &Self::Code) -> String;

    fn feedback(&self, secret: &Self::Code, attack: &Self::Code) -> Self::Feedback;
    fn cracked(&self, feedback: &Self::Feedback) -> bool;
    /// The feedback line the attacker is sent.
    fn feedback_line(&self, feedback: &Self::Feedback) -> String;
    /// The line the defender is sent about the attack, if the rules tell it.
    fn opponent_line(&self, _attack: &Self::Code, _feedback: &Self::Feedback) -> Option<String> {
        None
    }
    /// The feedback in the match account.
    fn account_text(&self, feedback: &Self::Feedback) -> String;
    /// The feedback as a person reads it.
    fn feedback_text(&self, feedback: &Self::Feedback) -> String {
        self.account_text(feedback)
    }
    /// The summary of a solo game.
    fn held_line(&self, secret: &Self::Code) -> String;

    /// Who wins when both seats reached the cap in a game where the first to
    /// crack wins ([`Turns::FirstToCrack`]).
    fn cap_winner(_game: &CodeGame<Self>) -> Winner {
        Winner::Draw
    }
    /// See [`Game::opening`].
    fn opening(_game: &CodeGame<Self>) -> Vec<String> {
        Vec::new()
    }
    /// Lines after the codes in the summary of a game between two seats.
    fn summary_tail(_game: &CodeGame<Self>) -> Vec<String> {
        Vec::new()
    }

    /// See [`HumanText::intro`].
    fn intro(game: &CodeGame<Self>, names: [&str; 2]) -> Vec<String>;
    /// What a code is, for prompts: `three digits from 1-3`.
    fn code_phrase(&self) -> String;
    /// A code as a person may type it.
    fn example(&self) -> String;
    /// Whether symbols a person typed are a code; the error starts a sentence.
    fn human_check(&self, raw: &Self::Raw) -> Result<(), String> {
        self.code(raw)
            .map(|_| ())
            .map_err(|e| capitalized(&e.to_string()))
    }
    /// Lines after the history on the final screen.
    fn final_tail(_game: &CodeGame<Self>, _names: [&str; 2]) -> Vec<String> {
        Vec::new()
    }
}

/// One attack and its feedback.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack<R: CodeRules> {
    pub seat: Seat,
    /// The attacker's own count: its first attack is 1 (Arrow 5's and
    /// Mastermind's round, Safe Cracker's turn).
    pub number: u32,
    pub code: R::Code,
    pub feedback: R::Feedback,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for `seat`'s secret code.
    Choosing(Seat),
    Attacking(Seat),
    Over(Outcome),
}

/// A code game in progress. `codes[s]` is the code seat `s` holds (the one
/// its opponent cracks).
#[derive(Clone, Debug)]
pub struct CodeGame<R: CodeRules> {
    rules: R,
    codes: [Option<R::Code>; 2],
    bot_seeds: [u64; 2],
    first: Seat,
    /// The referee holds B's code and only A attacks.
    solo: bool,
    phase: Phase,
    history: Vec<Attack<R>>,
    /// Per seat, its attacks in `history` and whether one cracked: kept
    /// as the history grows, so that a move costs the same at any length.
    attack_counts: [u32; 2],
    has_cracked: [bool; 2],
}

impl<R: CodeRules> CodeGame<R> {
    /// A game between two seats. The bots' seeds (sent in the greeting) are
    /// drawn from `rng`, then the first seat if the rules draw it, then both
    /// codes with [`CodeSource::Random`].
    pub fn new<G: Rng>(rules: R, rng: &mut G) -> CodeGame<R> {
        let bot_seeds = [rng.gen::<u32>() as u64, rng.gen::<u32>() as u64];
        let first = rules.first_seat(rng);
        let (codes, phase) = match rules.code_source() {
            CodeSource::Random => (
                [Some(rules.random_code(rng)), Some(rules.random_code(rng))],
                Phase::Attacking(first),
            ),
            CodeSource::Bots => ([None, None], Phase::Choosing(Seat::A)),
        };
        CodeGame {
            rules,
            codes,
            bot_seeds,
            first,
            solo: false,
            phase,
            history: Vec::new(),
            attack_counts: [0; 2],
            has_cracked: [false; 2],
        }
    }

    /// A game between two seats with the codes given (A's code first),
    /// `first` to attack first.
    pub(crate) fn from_codes(rules: R, codes: [R::Code; 2], first: Seat) -> CodeGame<R> {
        CodeGame {
            rules,
            codes: codes.map(Some),
            bot_seeds: [0, 0],
            first,
            solo: false,
            phase: Phase::Attacking(first),
            history: Vec::new(),
            attack_counts: [0; 2],
            has_cracked: [false; 2],
        }
    }

    /// A solo game: the referee holds the `secret_index`-th code and only
    /// seat A attacks, until it cracks the code or reaches the cap. Seat B is
    /// never asked anything. An index beyond the codes is an error.
    pub fn solo(rules: &R, secret_index: u64, bot_seed: u64) -> Result<CodeGame<R>, NoSuchSecret> {
        let index = NoSuchSecret::check(R::GAME, secret_index, rules.secret_count())?;
        Ok(CodeGame {
            rules: rules.clone(),
            codes: [None, Some(rules.nth_code(index))],
            bot_seeds: [bot_seed, 0],
            first: Seat::A,
            solo: true,
            phase: Phase::Attacking(Seat::A),
            history: Vec::new(),
            attack_counts: [0; 2],
            has_cracked: [false; 2],
        })
    }

    pub fn config(&self) -> &R {
        &self.rules
    }

    pub fn is_solo(&self) -> bool {
        self.solo
    }

    /// The code `seat` holds, once chosen.
    pub fn code(&self, seat: Seat) -> Option<&R::Code> {
        self.codes[seat.index()].as_ref()
    }

    /// Who attacks first.
    pub fn first(&self) -> Seat {
        self.first
    }

    /// Every attack so far, in order.
    pub fn log(&self) -> &[Attack<R>] {
        &self.history
    }

    /// Is the game waiting for a secret code (rather than an attack)?
    pub fn wants_code(&self) -> bool {
        matches!(self.phase, Phase::Choosing(_))
    }

    /// The end of the game, once over.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Over(outcome) => Some(outcome),
            Phase::Choosing(_) | Phase::Attacking(_) => None,
        }
    }

    /// Has `seat` cracked its opponent's code?
    pub fn cracked(&self, seat: Seat) -> bool {
        self.has_cracked[seat.index()]
    }

    fn last_attack(&self, seat: Seat) -> Option<&Attack<R>> {
        self.history.iter().rev().find(|a| a.seat == seat)
    }

    fn choose(mut self, seat: Seat, code: R::Code) -> Applied<Self> {
        self.codes[seat.index()] = Some(code);
        self.phase = match seat {
            Seat::A => Phase::Choosing(Seat::B),
            _ => Phase::Attacking(self.first),
        };
        Applied {
            game: self,
            notices: vec![],
            account: format!("{seat} chose its code"),
        }
    }

    fn attack(mut self, seat: Seat, code: R::Code) -> Applied<Self> {
        let defender = seat.other();
        let secret = self.codes[defender.index()]
            .as_ref()
            .expect("codes are set before attacks");
        let feedback = self.rules.feedback(secret, &code);
        let cracked = self.rules.cracked(&feedback);
        let number = self.attacks(seat) + 1;
        // Written into a string sized for it: one allocation a move.
        let mut account = String::with_capacity(64);
        let _ = write!(
            account,
            "{} {number:>2}  {seat} {} {code}   {}{}",
            R::WORDS.counter,
            R::WORDS.wire.third_person(),
            self.rules.account_text(&feedback),
            if cracked { "   cracked!" } else { "" }
        );
        let mut notices = vec![Notice {
            to: seat,
            line: self.rules.feedback_line(&feedback),
        }];
        if !self.solo {
            if let Some(line) = self.rules.opponent_line(&code, &feedback) {
                notices.push(Notice { to: defender, line });
            }
        }
        self.history.push(Attack {
            seat,
            number,
            code,
            feedback,
        });
        self.attack_counts[seat.index()] = number;
        self.has_cracked[seat.index()] |= cracked;
        self.phase = self.after(seat);
        Applied {
            game: self,
            notices,
            account,
        }
    }

    /// The phase after `seat`'s attack, the last of the history.
    fn after(&self, seat: Seat) -> Phase {
        let attacks = Seat::BOTH.map(|s| self.attacks(s));
        let cracked = Seat::BOTH.map(|s| self.cracked(s));
        let (cap, reason) = (self.rules.attack_cap(), R::WORDS.cap_reason);
        let number = attacks[seat.index()];
        let next = match R::TURNS {
            Turns::Rounds => rounds::after_attack(seat, number, cracked, self.solo, cap, reason),
            Turns::FirstToCrack => rounds::after_guess(
                seat,
                attacks,
                cracked[seat.index()],
                self.solo,
                (cap, reason),
                R::cap_winner(self),
            ),
        };
        match next {
            Next::Attack { seat, .. } => Phase::Attacking(seat),
            Next::Over(outcome) => Phase::Over(outcome),
        }
    }
}

impl<R: CodeRules> Game for CodeGame<R> {
    type Reply = R::Raw;

    /// `GAME WORDS ROLE CAP SEED`, ROLE being `first`, `second` or `solo`,
    /// CAP the attacks each seat may make.
    fn greeting(&self, seat: Seat) -> String {
        let role = if self.solo {
            "solo"
        } else if seat == self.first {
            "first"
        } else {
            "second"
        };
        format!(
            "{} {} {role} {} {}",
            R::GAME,
            self.rules.greeting_words(),
            self.rules.attack_cap(),
            self.bot_seeds[seat.index()]
        )
    }

    fn status(&self) -> Status {
        match &self.phase {
            Phase::Over(outcome) => Status::Over(outcome.clone()),
            Phase::Choosing(seat) => Status::Ask {
                seat: *seat,
                request: Some("code".to_string()),
            },
            Phase::Attacking(seat) => Status::Ask {
                seat: *seat,
                request: Some(R::WORDS.wire.noun().to_string()),
            },
        }
    }

    fn parse_reply(&self, line: &str) -> Result<R::Raw, String> {
        self.rules.read(line)
    }

    fn apply(self, reply: R::Raw) -> Result<Applied<Self>, Rejected<Self>> {
        let code = match self.rules.code(&reply) {
            Ok(code) => code,
            Err(e) => {
                let what = if self.wants_code() {
                    "secret code"
                } else {
                    R::WORDS.wire.noun()
                };
                return Err(Rejected {
                    rule: format!("{what}: {e}"),
                    game: self,
                });
            }
        };
        match self.phase.clone() {
            Phase::Choosing(seat) => Ok(self.choose(seat, code)),
            Phase::Attacking(seat) => Ok(self.attack(seat, code)),
            Phase::Over(_) => Err(Rejected {
                game: self,
                rule: "the game is over".to_string(),
            }),
        }
    }

    fn attacks(&self, seat: Seat) -> u32 {
        self.attack_counts[seat.index()]
    }

    fn summary(&self) -> Vec<String> {
        if self.solo {
            let secret = self.code(Seat::B).expect("a solo game holds its secret");
            return vec![self.rules.held_line(secret)];
        }
        let by = match self.rules.code_source() {
            CodeSource::Bots => "chosen by the bot",
            CodeSource::Random => "drawn by the referee",
        };
        let mut lines: Vec<String> = Seat::BOTH
            .iter()
            .map(|&seat| match self.code(seat) {
                Some(code) => format!("{seat}'s code: {code}  ({by})"),
                // The game ended (a verdict) before this bot chose a code.
                None => format!("{seat}'s code: none (the bot did not choose one)"),
            })
            .collect();
        lines.extend(R::summary_tail(self));
        lines
    }

    fn opening(&self) -> Vec<String> {
        R::opening(self)
    }

    fn first_to_move(&self) -> Seat {
        self.first
    }

    fn held_secret(&self) -> Option<String> {
        self.solo.then(|| self.code(Seat::B).map(R::wire)).flatten()
    }
}

impl<R: CodeRules> HumanText for CodeGame<R> {
    fn intro(&self, names: [&str; 2]) -> Vec<String> {
        R::intro(self, names)
    }

    fn prompt(&self) -> Prompt {
        let what = self.rules.code_phrase();
        if self.wants_code() {
            Prompt {
                text: format!("Enter your secret code ({what}, not shown): "),
                secret: true,
            }
        } else {
            Prompt {
                text: format!("Enter your {} ({what}): ", R::WORDS.human.noun()),
                secret: false,
            }
        }
    }

    fn read_human(&self, line: &str) -> Result<R::Raw, String> {
        let expected = format!(
            "type {}, e.g. {}",
            self.rules.code_phrase(),
            self.rules.example()
        );
        // What is wrong first ("expected 3 symbols, got 2 ..."), then how to write one.
        let raw = self
            .rules
            .read(line)
            .map_err(|e| format!("{}. That is not a code: {expected}.", capitalized(&e)))?;
        self.rules
            .human_check(&raw)
            .map_err(|e| format!("{e}: {expected}."))?;
        Ok(raw)
    }

    fn feedback(&self, seat: Seat) -> Vec<String> {
        let Some(a) = self.last_attack(seat) else {
            return vec![];
        };
        let mut lines = vec![format!(
            "{}: {}",
            R::WORDS.feedback_label,
            self.rules.feedback_text(&a.feedback)
        )];
        if R::WORDS.says_cracked && self.rules.cracked(&a.feedback) {
            lines.push("Cracked!".to_string());
        }
        lines
    }

    fn move_line(&self, seat: Seat, name: &str) -> String {
        let verb = R::WORDS.human;
        match self.last_attack(seat) {
            Some(a) => format!(
                "{name} {} {}: {}{}",
                verb.third_person(),
                a.code,
                self.rules.feedback_text(&a.feedback),
                if R::WORDS.says_cracked && self.rules.cracked(&a.feedback) {
                    "  cracked!"
                } else {
                    ""
                }
            ),
            None => format!("{name} has not {} yet", verb.past()),
        }
    }

    fn drawn_code(&self, seat: Seat) -> Option<String> {
        match self.rules.code_source() {
            CodeSource::Random => self.code(seat).map(|c| c.to_string()),
            CodeSource::Bots => None,
        }
    }

    fn final_screen(&self, names: [&str; 2]) -> Vec<String> {
        let padded = padded(names);
        let mut lines = vec!["Codes:".to_string()];
        for seat in Seat::BOTH {
            let code = self
                .code(seat)
                .map(|c| c.to_string())
                .unwrap_or_else(|| "(not chosen)".into());
            lines.push(format!("  {}  {code}", padded[seat.index()]));
        }
        lines.push("History:".to_string());
        for a in &self.history {
            lines.push(format!(
                "  {} {:>2}  {}  {}  {}{}",
                R::WORDS.counter,
                a.number,
                padded[a.seat.index()],
                a.code,
                self.rules.feedback_text(&a.feedback),
                if self.rules.cracked(&a.feedback) {
                    "  cracked!"
                } else {
                    ""
                }
            ));
        }
        lines.extend(R::final_tail(self, names));
        lines
    }
}
