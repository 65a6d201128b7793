//! Human play: a person at the terminal against a bot, or two people taking
//! turns at one keyboard (hot seat).
//!
//! The rules are the game's state machine ([`Game`]) and its human text
//! ([`HumanText`]); the bot seat goes through the bot process layer
//! ([`crate::bot`]), which alone spawns and ends processes. This module owns
//! the terminal: reading lines, typing secret codes without echo (termios),
//! and ending cleanly on Ctrl-C or end of input (the terminal's echo is
//! restored and the bot is killed).

use std::io::{self, Write};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use rustix::io::Errno;
use rustix::termios::{self, LocalModes, OptionalActions, Termios};

use crate::bot::interrupt::SigintGuard;
use crate::bot::{self, BotCommand, BotProcess, Fault};
use crate::games::driver::{drive, Ending, Seats, Turn};
use crate::games::human::HumanText;
use crate::games::{arrow5, mastermind, safecracker, Applied, Game, GameConfig, Seat, Winner};
use crate::match_plan::MatchLimits;
use crate::protocol;
use crate::text;
use crate::time_bank::TimeBank;
use crate::verdict::Verdict;

/// Who sits in seat B. Seat A is always a person.
#[derive(Clone, Debug)]
pub enum Opponent {
    /// A bot program, run through the bot process layer.
    Bot(BotCommand),
    /// A second person at the same keyboard.
    HotSeat,
}

/// Everything needed to play one game with people.
#[derive(Clone, Debug)]
pub struct HumanPlan {
    pub config: GameConfig,
    pub seed: u64,
    pub opponent: Opponent,
    /// The bot's limits (a person has no time limit).
    pub limits: MatchLimits,
}

/// Why a person left before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Ctrl-C.
    Interrupted,
    /// End of input (Ctrl-D on an empty line, or a closed stdin).
    EndOfInput,
}

/// How a human game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HumanEnd {
    Finished { winner: Winner, reason: String },
    Abandoned(Leave),
}

/// The referee's own failures in a human game (a misbehaving bot is not one:
/// it forfeits).
#[derive(Debug, thiserror::Error)]
pub enum HumanError {
    #[error("bot '{name}' could not be started (check that it runs on its own)")]
    BotStart { name: String, source: io::Error },
    #[error("cannot use the terminal")]
    Terminal(#[from] io::Error),
    /// `game` names the game in the message, `spec` in the `match`
    /// command it suggests.
    #[error("{game} cannot be played by a person yet; watch bots play it with `referee match {spec} A B`")]
    NotPlayable {
        game: &'static str,
        spec: &'static str,
    },
}

/// Plays one game, seat A being a person, and writes it all to the terminal.
pub fn play(plan: &HumanPlan) -> Result<HumanEnd, HumanError> {
    // A fresh secret key: the seed the bot is told must not give away a
    // code the referee draws (crate::key).
    let mut rng = crate::key::RunKey::fresh().rng(plan.seed);
    match plan.config {
        GameConfig::Cryptron(_) => {
            return Err(HumanError::NotPlayable {
                game: "cryptron",
                spec: "cryptron",
            })
        }
        GameConfig::Judge(_) => {
            return Err(HumanError::NotPlayable {
                game: "a judge game",
                spec: "JUDGE",
            })
        }
        GameConfig::Arrow5(_) | GameConfig::Mastermind(_) | GameConfig::Safecracker(_) => {}
    }
    let mut term = Terminal::stdio()?;
    match &plan.config {
        GameConfig::Arrow5(config) => {
            let game = arrow5::Arrow5::new(config.clone(), &mut rng);
            run(game, plan, &mut term)
        }
        GameConfig::Safecracker(config) => {
            let game = safecracker::SafeCracker::new(config.clone(), &mut rng);
            run(game, plan, &mut term)
        }
        GameConfig::Mastermind(config) => {
            let game = mastermind::Mastermind::new(config.clone(), &mut rng);
            run(game, plan, &mut term)
        }
        GameConfig::Cryptron(_) => Err(HumanError::NotPlayable {
            game: "cryptron",
            spec: "cryptron",
        }),
        GameConfig::Judge(_) => Err(HumanError::NotPlayable {
            game: "a judge game",
            spec: "JUDGE",
        }),
    }
}

/// The bot in seat B, how many replies it gave and what is left of its
/// time bank.
struct BotSeat {
    name: String,
    process: BotProcess,
    replies: u32,
    bank: TimeBank,
}

fn run<G: HumanText>(
    game: G,
    plan: &HumanPlan,
    term: &mut Terminal,
) -> Result<HumanEnd, HumanError> {
    let mut bot = start_bot(plan)?;
    let hot_seat = bot.is_none();
    let b_name = bot
        .as_ref()
        .map_or("Player 2".to_string(), |b| b.name.clone());
    let names: [&str; 2] = if hot_seat {
        ["Player 1", "Player 2"]
    } else {
        ["You", &b_name]
    };

    for line in game.intro(names) {
        term.say(&line)?;
    }
    if let Some(bot) = &mut bot {
        send(bot, &game.greeting(Seat::B), &plan.limits);
        if let Some(code) = game.drawn_code(Seat::A) {
            term.say(&format!("Your code (drawn by the referee): {code}"))?;
        }
    }

    let mut seats = PeopleAndBot {
        bot,
        names,
        plan,
        term,
    };
    let (game, end) = match drive(game, &mut seats)? {
        (game, Ending::Over(outcome)) => (
            game,
            HumanEnd::Finished {
                winner: outcome.winner,
                reason: outcome.reason,
            },
        ),
        (game, Ending::Stopped(end)) => (game, end),
    };
    let PeopleAndBot { mut bot, term, .. } = seats;
    if matches!(end, HumanEnd::Abandoned(_)) {
        // The person left: the game ends here, unfinished.
        return Ok(end);
    }
    finish(&mut bot, &end, &game, names, &plan.limits, term)?;
    Ok(end)
}

/// The bot of a game against a person, started and frozen until it is
/// asked (as in a match: it does not think on the person's time).
fn start_bot(plan: &HumanPlan) -> Result<Option<BotSeat>, HumanError> {
    let Opponent::Bot(command) = &plan.opponent else {
        return Ok(None);
    };
    // A source is built first (compiled, or found in the cache).
    let built =
        crate::runner::prepare(command, &plan.limits).map_err(|e| HumanError::BotStart {
            name: command.spec.clone(),
            source: io::Error::other(crate::text::with_causes(&e)),
        })?;
    let command = built.map_err(|(detail, _)| HumanError::BotStart {
        name: command.spec.clone(),
        source: io::Error::other(detail),
    })?;
    let command = &command;
    let mut process = BotProcess::spawn(command, &plan.limits.process).map_err(|source| {
        HumanError::BotStart {
            name: command.spec.clone(),
            source,
        }
    })?;
    process.freeze();
    Ok(Some(BotSeat {
        name: command.name.clone(),
        process,
        replies: 0,
        bank: TimeBank::new(plan.limits.time_bank),
    }))
}

/// The bot's turn, told on the terminal. `Ok(Err)`: it forfeited, and the
/// game ends with the person's win.
fn bot_turn<G: HumanText>(
    bot: &mut BotSeat,
    game: G,
    request: Option<&str>,
    name: &str,
    limits: &MatchLimits,
    term: &mut Terminal,
) -> Result<Turn<G, HumanEnd>, HumanError> {
    let asked_code = request == Some("code");
    bot.process.thaw();
    let moved = bot_move(bot, game, request, limits);
    bot.process.freeze();
    match moved {
        Ok(applied) => {
            if asked_code {
                term.say(&format!("{name} has chosen its code."))?;
            } else {
                term.say(&applied.game.move_line(Seat::B, name))?;
            }
            Ok(Turn::Moved(applied))
        }
        Err(Forfeit { game, verdict, why }) => {
            term.say(&format!("{name} is disqualified ({verdict}): it {why}."))?;
            let end = HumanEnd::Finished {
                winner: Winner::A,
                reason: "disqualified".into(),
            };
            Ok(Turn::Stopped(game, end))
        }
    }
}

/// A person's turn: asks until a move the rules take. `Ok(Err)`: the
/// person left (Ctrl-C or end of input); the bot is killed.
fn person_turn<G: HumanText>(
    mut game: G,
    seat: Seat,
    names: [&str; 2],
    bot: &mut Option<BotSeat>,
    term: &mut Terminal,
) -> Result<Turn<G, HumanEnd>, HumanError> {
    let name = names[seat.index()];
    let prompt = game.prompt();
    if bot.is_none() {
        if prompt.secret {
            term.say(&format!(
                "{name}, choose your secret code ({} looks away).",
                names[seat.other().index()]
            ))?;
        } else {
            term.say(&format!("{name}'s turn:"))?;
        }
    }
    let next = loop {
        term.ask(&prompt.text)?;
        let line = match term.read_line(prompt.secret)? {
            Input::Line(line) => line,
            Input::Left(leave) => {
                if let Some(bot) = bot {
                    bot.process.kill();
                }
                term.say("")?;
                term.say(match leave {
                    Leave::Interrupted => "Game abandoned (Ctrl-C).",
                    Leave::EndOfInput => "Game abandoned (end of input).",
                })?;
                return Ok(Turn::Stopped(game, HumanEnd::Abandoned(leave)));
            }
        };
        let reply = match game.read_human(&line) {
            Ok(reply) => reply,
            Err(why) => {
                term.say(&why)?;
                continue;
            }
        };
        match game.apply(reply) {
            Ok(applied) => break applied,
            Err(rejected) => {
                game = rejected.game;
                term.say(&format!("Not allowed: {}. Try again.", rejected.rule))?;
            }
        }
    };
    if prompt.secret {
        term.say("Code set.")?;
    } else {
        for line in next.game.feedback(seat) {
            term.say(&line)?;
        }
    }
    Ok(Turn::Moved(next))
}

/// The seats of a game with people: a person at A, at B a bot or another
/// person (hot seat). Each turn is told on the terminal; the bot gets the
/// notices meant for it.
struct PeopleAndBot<'a> {
    bot: Option<BotSeat>,
    names: [&'a str; 2],
    plan: &'a HumanPlan,
    term: &'a mut Terminal,
}

impl<G: HumanText> Seats<G> for PeopleAndBot<'_> {
    type Stop = HumanEnd;
    type Error = HumanError;

    fn turn(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Result<Turn<G, HumanEnd>, HumanError> {
        let name = self.names[seat.index()];
        match (&mut self.bot, seat) {
            (Some(bot), Seat::B) => bot_turn(
                bot,
                game,
                request.as_deref(),
                name,
                &self.plan.limits,
                self.term,
            ),
            _ => person_turn(game, seat, self.names, &mut self.bot, self.term),
        }
    }

    fn moved(&mut self, _seat: Seat, _game: &G, _account: String) {}

    fn notify(&mut self, to: Seat, line: &str) {
        if let (Some(bot), Seat::B) = (&mut self.bot, to) {
            send(bot, line, &self.plan.limits);
        }
    }
}

/// The end of a finished game: the bot is told and let go, the result and
/// the final screen shown.
fn finish<G: HumanText>(
    bot: &mut Option<BotSeat>,
    end: &HumanEnd,
    game: &G,
    names: [&str; 2],
    limits: &MatchLimits,
    term: &mut Terminal,
) -> Result<(), HumanError> {
    let HumanEnd::Finished { winner, reason } = end else {
        return Ok(());
    };
    if let Some(bot) = bot {
        send(
            bot,
            &protocol::end_line(winner.result_for(Seat::B), reason),
            limits,
        );
        bot.process.shut_down(bot::EXIT_GRACE);
    }
    term.say("")?;
    let result = match winner {
        Winner::A => format!("{} won", names[0]),
        Winner::B => format!("{} won", names[1]),
        Winner::Draw => "a draw".to_string(),
    };
    term.say(&format!("Result: {result} ({reason})"))?;
    for line in game.final_screen(names) {
        term.say(&line)?;
    }
    Ok(())
}

/// Sends a line that expects no reply; a bot that cannot take it is caught
/// at its next request.
fn send(bot: &mut BotSeat, line: &str, limits: &MatchLimits) {
    let _ = bot
        .process
        .send_line(line, Instant::now() + limits.time_limit, limits.time_limit);
}

/// A bot's failed move: the state given back, the verdict and what happened.
struct Forfeit<G> {
    game: G,
    verdict: Verdict,
    why: String,
}

/// Asks the bot for its move and applies it. On a fault, a malformed or an
/// illegal reply, gives the state back with the verdict.
fn bot_move<G: Game>(
    bot: &mut BotSeat,
    game: G,
    request: Option<&str>,
    limits: &MatchLimits,
) -> Result<Applied<G>, Forfeit<G>> {
    let limit: Duration = if bot.replies == 0 {
        limits.startup_limit
    } else {
        limits.time_limit
    };
    let budget = bot.bank.allowance(limit);
    if let Some(request) = request {
        if let Err(fault) = bot
            .process
            .send_line(request, Instant::now() + budget, budget)
        {
            return Err(Forfeit {
                game,
                // Human play never asks the bot layer to stop, so every fault is the bot's.
                verdict: fault.verdict().unwrap_or(Verdict::Crash),
                why: fault.to_string(),
            });
        }
    }
    let sent = Instant::now();
    let line = match bot.process.recv_line(sent + budget, budget) {
        Ok((line, at)) => {
            bot.bank.charge(limit, at.saturating_duration_since(sent));
            line
        }
        Err(fault) => {
            let why = match fault {
                Fault::Timeout { .. } => bot.bank.missed(limit),
                _ => fault.to_string(),
            };
            return Err(Forfeit {
                game,
                // Human play never asks the bot layer to stop, so every fault is the bot's.
                verdict: fault.verdict().unwrap_or(Verdict::Crash),
                why,
            });
        }
    };
    bot.replies += 1;
    let reply = match game.parse_reply(&line) {
        Ok(reply) => reply,
        Err(why) => {
            return Err(Forfeit {
                game,
                verdict: Verdict::Protocol,
                why: format!("answered '{}': {why}", protocol::shorten(&line)),
            })
        }
    };
    match game.apply(reply) {
        Ok(applied) => Ok(applied),
        Err(rejected) => Err(Forfeit {
            game: rejected.game,
            verdict: Verdict::Illegal,
            why: format!("broke a rule: {}", rejected.rule),
        }),
    }
}

/// What the person typed.
enum Input {
    Line(String),
    Left(Leave),
}

/// Turns the terminal's echo off until dropped (no-op when stdin is not a
/// terminal). The newline is still echoed, so the screen moves on.
struct EchoOff {
    saved: Option<Termios>,
}

impl EchoOff {
    fn new(fd: impl AsFd) -> EchoOff {
        let fd = fd.as_fd();
        let Ok(saved) = termios::tcgetattr(fd) else {
            return EchoOff { saved: None };
        };
        let mut quiet = saved.clone();
        quiet.local_modes.remove(LocalModes::ECHO);
        quiet.local_modes.insert(LocalModes::ECHONL);
        if termios::tcsetattr(fd, OptionalActions::Now, &quiet).is_err() {
            return EchoOff { saved: None };
        }
        EchoOff { saved: Some(saved) }
    }
}

impl Drop for EchoOff {
    fn drop(&mut self) {
        if let Some(saved) = &self.saved {
            let _ = termios::tcsetattr(io::stdin(), OptionalActions::Now, saved);
        }
    }
}

/// The person's terminal: stdin read line by line (interruptible by
/// Ctrl-C), stdout written and flushed per line.
struct Terminal {
    pending: Vec<u8>,
    _sigint: SigintGuard,
}

impl Terminal {
    fn stdio() -> io::Result<Terminal> {
        Ok(Terminal {
            pending: Vec::new(),
            _sigint: SigintGuard::install()?,
        })
    }

    /// Writes a line for the person; control characters a bot or a file
    /// put in it (a bot's name, a verdict's detail) are shown escaped.
    fn say(&mut self, line: &str) -> io::Result<()> {
        let mut out = io::stdout().lock();
        writeln!(out, "{}", text::escape_lines(line))?;
        out.flush()
    }

    fn ask(&mut self, prompt: &str) -> io::Result<()> {
        let mut out = io::stdout().lock();
        write!(out, "{prompt}")?;
        out.flush()
    }

    fn read_line(&mut self, secret: bool) -> io::Result<Input> {
        let stdin = io::stdin();
        let _echo = secret.then(|| EchoOff::new(&stdin));
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line[..end]);
                return Ok(Input::Line(text.trim_end_matches('\r').to_string()));
            }
            if SigintGuard::interrupted() {
                return Ok(Input::Left(Leave::Interrupted));
            }
            let mut buf = [0u8; 1024];
            match rustix::io::read(stdin.as_fd(), &mut buf) {
                Ok(0) => return Ok(Input::Left(Leave::EndOfInput)),
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                Err(Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
}
