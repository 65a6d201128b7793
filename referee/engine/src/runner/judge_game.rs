//! A judge process behind the [`Game`] trait: `status` is the judge's
//! current ask, `parse_reply` hands the reply to the judge and reads its
//! answer (`protocol` is the reply's fault, a broken answer the judge's),
//! `apply` takes an accepted answer's `tell`s as notices and its `log` as
//! the account line, and `end` is the outcome.
//!
//! The judge runs sandboxed like a bot, with limits of its own; it is never
//! frozen (it waits on its stdin between messages). Any fault of the judge
//! sets [`Game::void`], which the runner turns into a void game.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::{prepare, MatchError};
use crate::bot::{self, BotCommand, BotProcess, Fault, Languages, ProcessLimits};
use crate::games::judge::{Config, Void, PROTOCOL};
use crate::games::{Applied, Game, Notice, Outcome, Rejected, Seat, Status, Winner};
use crate::match_plan::MatchLimits;
use crate::protocol;
use crate::verdict::Verdict;

mod message;

use message::*;
pub use message::{competition_ranks, winner_of_ranks, TurnFields};

/// The longest line a judge may write (1 MiB, its newline not counted).
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// The largest frame, as compact JSON.
pub const MAX_FRAME_BYTES: usize = 64 << 10;
/// The most messages a judge may answer in one game.
pub const MAX_MESSAGES: u64 = 100_000;
/// The frames of one game in all, as compact JSON: what a record keeps.
pub const MAX_FRAMES_BYTES: usize = 16 << 20;
/// The longest line a judge may have the referee send a bot.
pub const MAX_BOT_LINE_BYTES: usize = 64 << 10;
/// Account lines (`log`, `summary`) are cut to this many characters, and
/// a game's summary to this many lines (what a judge sends beyond is left
/// out).
const MAX_ACCOUNT_CHARS: usize = 1000;
const MAX_SUMMARY_LINES: usize = 100;

/// `text` cut to [`MAX_ACCOUNT_CHARS`], on one line.
fn account_line(text: &str) -> String {
    let line = text.replace(['\n', '\r'], " ");
    if line.chars().count() <= MAX_ACCOUNT_CHARS {
        return line;
    }
    let mut cut: String = line.chars().take(MAX_ACCOUNT_CHARS).collect();
    cut.push_str("...");
    cut
}
/// Stderr lines of a judge kept for the message of a failed game: the
/// first and the last.
const STDERR_HEAD: usize = 5;
const STDERR_TAIL: usize = 15;

/// The time a judge has for its first answer (`ready`), which follows its
/// start, when its time per message is shorter.
pub const JUDGE_START_TIME: Duration = Duration::from_secs(10);

/// The judge process and what is kept of its messages.
struct Link {
    process: Option<BotProcess>,
    time: Duration,
    /// Messages the judge has answered so far.
    answered: u64,
    /// An answer is awaited (a fault now is at the next message, not at
    /// the last one read).
    awaiting: bool,
    stderr_head: Vec<String>,
    stderr_tail: VecDeque<String>,
    stderr_left_out: usize,
    void: Option<Void>,
    /// Every message exchanged, when kept (`referee judge-check`).
    log: Option<Vec<(String, String)>>,
    /// The longest the judge took to answer a message.
    slowest: Duration,
    /// The bot's reply the judge was last sent, as a void game's message
    /// names it: a reply that crashes a judge is the organiser's to see.
    answering: Option<String>,
}

impl Link {
    fn keep_stderr(&mut self) {
        let Some(process) = self.process.as_mut() else {
            return;
        };
        for line in process.take_stderr() {
            self.stderr_left_out += line.left_out;
            if self.stderr_head.len() < STDERR_HEAD && self.stderr_left_out == 0 {
                self.stderr_head.push(line.line);
                continue;
            }
            if self.stderr_tail.len() == STDERR_TAIL {
                self.stderr_tail.pop_front();
                self.stderr_left_out += 1;
            }
            self.stderr_tail.push_back(line.line);
        }
    }

    fn stderr(&self) -> Vec<String> {
        let mut lines = self.stderr_head.clone();
        if self.stderr_left_out > 0 {
            lines.push(format!("[... {} lines left out ...]", self.stderr_left_out));
        }
        lines.extend(self.stderr_tail.iter().cloned());
        lines
    }

    /// Ends the game as void: the judge is killed, what it wrote on stderr
    /// is kept. The first fault stands.
    fn fail(&mut self, what: String, interrupted: bool) {
        self.fail_as(what, interrupted, false);
    }

    /// [`Link::fail`], `refused` when the judge refused the game at
    /// its start (see [`Void::refused`]).
    fn fail_as(&mut self, what: String, interrupted: bool, refused: bool) {
        if self.void.is_some() {
            return;
        }
        if let Some(process) = self.process.as_mut() {
            // Its last words, then its end.
            let _ = process.recv_line(Instant::now() + Duration::from_millis(20), Duration::ZERO);
            process.kill();
        }
        self.keep_stderr();
        let what = match &self.answering {
            Some(reply) => format!("{what} (answering {reply})"),
            None => what,
        };
        self.void = Some(Void {
            message: self.answered + u64::from(self.awaiting),
            what,
            stderr: self.stderr(),
            interrupted,
            refused,
        });
    }

    /// Sends `message` and reads the judge's answer: a JSON object with a
    /// known `type`. `None`: the judge failed (see [`Link::fail`]).
    fn ask(&mut self, message: &Value) -> Option<(String, Map<String, Value>)> {
        if self.void.is_some() {
            return None;
        }
        if self.answered >= MAX_MESSAGES {
            self.fail(format!("sent more than {MAX_MESSAGES} messages"), false);
            return None;
        }
        let text = message.to_string();
        let process = self.process.as_mut()?;
        // One answer a message: a line written after it would be taken
        // for the next message's answer.
        let stray = match process.unasked_output() {
            Ok(lines) => lines.into_iter().next(),
            Err(_) => None,
        };
        if let Some(line) = stray {
            self.fail(
                format!("wrote a line after its answer, before the next message: '{line}' (one line for each message)"),
                false,
            );
            return None;
        }
        self.answering = (message["type"] == "reply").then(|| {
            format!(
                "player {}'s reply '{}'",
                message["player"],
                crate::text::escape(&protocol::shorten(message["line"].as_str().unwrap_or("")))
            )
        });
        let sent = Instant::now();
        // Its first answer follows its start (an interpreter's, a JVM's),
        // which a busy machine may make slow: it has the start's time.
        let time = if self.answered == 0 {
            self.time.max(JUDGE_START_TIME)
        } else {
            self.time
        };
        let deadline = sent + time;
        self.awaiting = true;
        let result = process
            .send_line(&text, deadline, time)
            .and_then(|()| process.recv_line(deadline, time));
        self.keep_stderr();
        let line = match result {
            Ok((line, at)) => {
                self.awaiting = false;
                self.slowest = self.slowest.max(at.saturating_duration_since(sent));
                line
            }
            Err(Fault::Interrupted) => {
                self.fail("the referee was interrupted".into(), true);
                return None;
            }
            Err(Fault::Timeout { budget } | Fault::InputNotRead { budget }) => {
                // A judge that wrote its answer without flushing it
                // looks the same as one still thinking.
                self.fail(
                    format!(
                        "did not answer within {}: an answer is one line, ended by a newline and flushed",
                        bot::show_duration(budget)
                    ),
                    false,
                );
                return None;
            }
            Err(Fault::Exited(exit)) => {
                self.fail(format!("{exit} before the game ended"), false);
                return None;
            }
            Err(fault) => {
                self.fail(fault.to_string(), false);
                return None;
            }
        };
        if let Some(log) = &mut self.log {
            log.push((text, line.clone()));
        }
        self.answered += 1;
        match parse_message(&line) {
            Ok(answer) => Some(answer),
            Err(what) => {
                self.fail(what, false);
                None
            }
        }
    }

    /// Tells the judge to stop and lets it end (not judged: the game is
    /// over).
    fn stop(&mut self, message: &Value) {
        if let Some(mut process) = self.process.take() {
            if self.void.is_none() {
                let text = message.to_string();
                let _ = process.send_line(&text, Instant::now() + self.time, self.time);
                if let Some(log) = &mut self.log {
                    log.push((text, String::new()));
                }
            }
            process.shut_down(bot::EXIT_GRACE);
        }
    }
}

/// A reply as the judge answered it.
#[derive(Debug)]
pub enum Answer {
    Accepted(Box<TurnFields>),
    Illegal(String),
}

/// A game played by a judge process.
pub struct JudgeGame {
    link: RefCell<Link>,
    /// The players to ask, in order (several: a simultaneous ask).
    asks: VecDeque<(Seat, Option<String>)>,
    end: Option<Outcome>,
    /// The end's ranks and scores (more than two players).
    ranks: Option<Vec<u32>>,
    scores: Option<Vec<f64>>,
    /// How many players: 2, or up to [`crate::games::MAX_SEATS`].
    players: usize,
    /// The players put out of the game by a verdict (more than two
    /// players): never asked again.
    out: Vec<bool>,
    greetings: Vec<Notice>,
    first: Seat,
    moves: Option<Vec<u32>>,
    /// Replies the judge accepted, per seat.
    accepted: Vec<u32>,
    summary: Vec<String>,
    /// The `ready`'s `log`: the account's line before the first move, as
    /// a turn's `log` is that turn's.
    opening: Option<String>,
    frames: Vec<Value>,
    /// The frames' size in all, as compact JSON.
    frames_bytes: usize,
}

impl JudgeGame {
    /// Starts the judge of `config` and reads its `ready`. `seed`: the
    /// game's 64 secret bytes; `names`: the players', A then B; `base`: the
    /// sandbox and hidden paths of the bots, which the judge shares.
    pub fn start(
        config: &Config,
        seed: &[u8; crate::runner::JUDGE_SEED_BYTES],
        names: Vec<String>,
        base: &ProcessLimits,
    ) -> Result<JudgeGame, MatchError> {
        Self::start_logged(config, seed, names, base, false)
    }

    /// [`JudgeGame::start`], keeping every message exchanged when `log`.
    pub fn start_logged(
        config: &Config,
        seed: &[u8; crate::runner::JUDGE_SEED_BYTES],
        names: Vec<String>,
        base: &ProcessLimits,
        log: bool,
    ) -> Result<JudgeGame, MatchError> {
        let fail = |what: String| MatchError::Judge {
            judge: config.path.clone(),
            void: Void {
                message: 1,
                what,
                stderr: Vec::new(),
                interrupted: false,
                refused: false,
            },
        };
        if !(2..=crate::games::MAX_SEATS).contains(&names.len()) {
            return Err(MatchError::Players {
                judge: config.path.clone(),
                players: names.len(),
                takes: format!("2 to {} players at most", crate::games::MAX_SEATS),
            });
        }
        let command = BotCommand::parse(&config.path, &Languages::built_in())
            .map_err(|e| fail(format!("cannot be run: {e}")))?;
        let limits = MatchLimits {
            process: ProcessLimits {
                memory_kb: config.memory_kb,
                memory_allowance_kb: command.language.memory_allowance_kb(),
                address_space_allowance_kb: command.language.address_space_allowance_kb(),
                max_line_bytes: MAX_LINE_BYTES,
                max_output_bytes: usize::MAX,
                allow_fork: false,
                compiler: false,
                ..base.clone()
            },
            ..MatchLimits::default()
        };
        let command = match prepare(&command, &limits)? {
            Ok(command) => command,
            Err((detail, message)) => {
                return Err(fail(format!(
                    "does not compile: {detail}\n{}",
                    message.lines().take(20).collect::<Vec<_>>().join("\n")
                )))
            }
        };
        let process = BotProcess::spawn(&command, &limits.process)
            .map_err(|e| fail(format!("could not be started: {e}")))?;
        let mut game = JudgeGame {
            link: RefCell::new(Link {
                process: Some(process),
                time: Duration::from_millis(config.time_ms),
                answered: 0,
                awaiting: false,
                stderr_head: Vec::new(),
                stderr_tail: VecDeque::new(),
                stderr_left_out: 0,
                void: None,
                log: log.then(Vec::new),
                slowest: Duration::ZERO,
                answering: None,
            }),
            asks: VecDeque::new(),
            end: None,
            ranks: None,
            scores: None,
            players: names.len(),
            out: vec![false; names.len()],
            greetings: Vec::new(),
            first: Seat::A,
            moves: None,
            accepted: vec![0; names.len()],
            summary: Vec::new(),
            opening: None,
            frames: Vec::new(),
            frames_bytes: 0,
        };
        let start = json!({
            "type": "start",
            "protocol": PROTOCOL,
            "players": names.len(),
            "names": names,
            "seed": seed.iter().map(|b| format!("{b:02x}")).collect::<String>(),
            "options": config.options,
        });
        // The players the judge takes, when it does not take this many.
        let mut unfit = None;
        let ready = game.link.get_mut().ask(&start).and_then(|(kind, map)| {
            let link = game.link.get_mut();
            if kind == "error" {
                // The judge refused the game (an option it does not take,
                // a size it cannot play): its own words say why.
                let detail = map.get("detail").and_then(Value::as_str).unwrap_or("");
                link.fail_as(format!("refused the game: {detail}"), false, true);
                return None;
            }
            if kind != "ready" {
                link.fail(
                    format!("answered start with '{kind}' instead of 'ready'"),
                    false,
                );
                return None;
            }
            match map.get("protocol").and_then(Value::as_u64) {
                Some(p) if p == u64::from(PROTOCOL) => {}
                Some(p) => {
                    link.fail(
                        format!("speaks judge protocol {p}; this referee speaks {PROTOCOL}"),
                        false,
                    );
                    return None;
                }
                None => {
                    link.fail("answered ready with no \"protocol\" version".into(), false);
                    return None;
                }
            }
            let players = names.len() as u64;
            let (min, max) = match seats_taken(&map) {
                Ok(taken) => taken,
                Err(what) => {
                    link.fail(what, false);
                    return None;
                }
            };
            if min > players || max < players {
                link.fail(
                    format!(
                        "does not take {players} players (it takes {})",
                        seats_span(min, max)
                    ),
                    false,
                );
                unfit = Some(seats_span(min, max));
                return None;
            }
            match turn_fields(&map, true, false, names.len()) {
                Ok(fields) => Some(fields),
                Err(what) => {
                    link.fail(what, false);
                    None
                }
            }
        });
        let Some(ready) = ready else {
            if let Some(takes) = unfit {
                return Err(MatchError::Players {
                    judge: config.path.clone(),
                    players: names.len(),
                    takes,
                });
            }
            return Err(game.void_error(&config.path));
        };
        game.greetings = ready.tell.clone();
        game.first = ready
            .first
            .or_else(|| ready.ask.as_ref().map(|a| a[0].0))
            .unwrap_or(Seat::A);
        // A move's empty `log` leaves no line; the ready's alike.
        game.opening = ready.log.clone().filter(|log| !log.is_empty());
        game.take(*Box::new(ready));
        Ok(game)
    }

    /// The error of a void game.
    pub fn void_error(&self, judge: &str) -> MatchError {
        match self.void() {
            Some(void) if void.interrupted => MatchError::Interrupted,
            Some(void) => MatchError::Judge {
                judge: judge.to_string(),
                void,
            },
            None => MatchError::Interrupted,
        }
    }

    /// The longest the judge took to answer one message so far.
    pub fn slowest(&self) -> Duration {
        self.link.borrow().slowest
    }

    /// Every message exchanged with the judge, if kept: what the referee
    /// sent and what the judge answered (empty after `stop`).
    pub fn messages(&self) -> Vec<(String, String)> {
        self.link.borrow().log.clone().unwrap_or_default()
    }

    /// `fields` unless they ask a player who is out.
    fn asks_no_one_out(&self, fields: TurnFields) -> Result<TurnFields, String> {
        let asked_out = fields
            .ask
            .iter()
            .flatten()
            .find(|(seat, _)| self.out[seat.index()]);
        match asked_out {
            Some((seat, _)) => Err(format!(
                "asks player {}, who is out of the game",
                seat.index()
            )),
            None => Ok(fields),
        }
    }

    /// Takes in an accepted ready or turn.
    fn take(&mut self, fields: TurnFields) -> Vec<Notice> {
        if let Some(ask) = fields.ask {
            self.asks = ask.into();
        }
        if let Some(end) = fields.end {
            self.end = Some(end.outcome);
            if let Some(scores) = &end.scores {
                let shown: Vec<String> = scores.iter().map(|s| s.to_string()).collect();
                self.summary.push(format!("scores: {}", shown.join(" ")));
            }
            self.ranks = end.ranks;
            self.scores = end.scores.filter(|_| self.players > 2);
        }
        if fields.moves.is_some() {
            self.moves = fields.moves;
        }
        // The cap is the game's: a judge sending its summary again with
        // every turn would otherwise grow the record without bound.
        let room = MAX_SUMMARY_LINES.saturating_sub(self.summary.len());
        self.summary.extend(fields.summary.into_iter().take(room));
        if let Some(frame) = fields.frame {
            self.frames_bytes += frame.to_string().len();
            let moves: u32 = self.accepted.iter().sum();
            self.frames.push(json!({"move": moves, "frame": frame}));
        }
        fields.tell
    }
}

impl Game for JudgeGame {
    type Reply = Answer;

    fn greeting(&self, seat: Seat) -> String {
        self.greetings
            .iter()
            .find(|n| n.to == seat)
            .map(|n| n.line.clone())
            .unwrap_or_default()
    }

    fn greetings(&self) -> Vec<Notice> {
        self.greetings.clone()
    }

    fn status(&self) -> Status {
        if let Some(outcome) = &self.end {
            return Status::Over(outcome.clone());
        }
        match self.asks.front() {
            Some((seat, request)) => Status::Ask {
                seat: *seat,
                request: request.clone(),
            },
            // Not reached: every accepted answer asks or ends.
            None => Status::Over(Outcome {
                winner: Winner::Draw,
                reason: "unfinished".into(),
            }),
        }
    }

    fn parse_reply(&self, line: &str) -> Result<Answer, String> {
        self.parse_timed_reply(line, 0.0)
    }

    fn parse_timed_reply(&self, line: &str, time_ms: f64) -> Result<Answer, String> {
        let Some((seat, _)) = self.asks.front() else {
            return Err("no player is asked".into());
        };
        let pending = self.asks.len() > 1;
        let mut link = self.link.borrow_mut();
        let message = json!({
            "type": "reply",
            "player": seat.index(),
            "line": line,
            "time_ms": time_ms,
        });
        let Some((kind, map)) = link.ask(&message) else {
            return Err("the judge failed".into());
        };
        let detail = || account_line(map.get("detail").and_then(Value::as_str).unwrap_or(""));
        match kind.as_str() {
            "turn" => match turn_fields(&map, false, pending, self.players)
                .and_then(|fields| self.asks_no_one_out(fields))
            {
                Ok(fields)
                    if self.frames_bytes
                        + fields.frame.as_ref().map_or(0, |f| f.to_string().len())
                        > MAX_FRAMES_BYTES =>
                {
                    link.fail(
                        format!("sent frames of more than {MAX_FRAMES_BYTES} bytes in all"),
                        false,
                    );
                    Err("the judge failed".into())
                }
                Ok(fields) => Ok(Answer::Accepted(Box::new(fields))),
                Err(what) => {
                    link.fail(what, false);
                    Err("the judge failed".into())
                }
            },
            "illegal" => Ok(Answer::Illegal(detail())),
            "protocol" => Err(detail()),
            "error" => {
                link.fail(format!("gave up: {}", detail()), false);
                Err("the judge failed".into())
            }
            other => {
                link.fail(format!("answered a reply with '{other}'"), false);
                Err("the judge failed".into())
            }
        }
    }

    fn is_reply(&self, _line: &str) -> bool {
        true
    }

    fn apply(mut self, reply: Answer) -> Result<Applied<Self>, Rejected<Self>> {
        match reply {
            Answer::Illegal(rule) => Err(Rejected { game: self, rule }),
            Answer::Accepted(fields) => {
                if let Some((seat, _)) = self.asks.pop_front() {
                    self.accepted[seat.index()] += 1;
                }
                let account = fields.log.clone().unwrap_or_default();
                let notices = self.take(*fields);
                Ok(Applied {
                    game: self,
                    notices,
                    account,
                })
            }
        }
    }

    fn attacks(&self, seat: Seat) -> u32 {
        match &self.moves {
            Some(moves) => moves.get(seat.index()).copied().unwrap_or(0),
            None => self.accepted.get(seat.index()).copied().unwrap_or(0),
        }
    }

    fn ranks(&self) -> Option<Vec<u32>> {
        self.ranks.clone()
    }

    fn scores(&self) -> Option<Vec<f64>> {
        self.scores.clone()
    }

    fn out(mut self, seat: Seat, verdict: Verdict) -> Result<Applied<Self>, Self> {
        if self.players <= 2 || self.end.is_some() {
            return Err(self);
        }
        self.out[seat.index()] = true;
        // The player's ask is over: it will not reply.
        self.asks.retain(|(asked, _)| *asked != seat);
        let pending = !self.asks.is_empty();
        let message = json!({"type": "out", "player": seat.index(), "verdict": verdict});
        let answered = self.link.get_mut().ask(&message);
        let fields = match answered {
            None => return Err(self),
            Some((kind, map)) if kind == "turn" => turn_fields(&map, false, pending, self.players)
                .and_then(|fields| self.asks_no_one_out(fields)),
            Some((kind, _)) => Err(format!("answered out with '{kind}' (it takes a turn)")),
        };
        let answer = match fields {
            Ok(fields) => fields,
            Err(what) => {
                self.link.get_mut().fail(what, false);
                return Err(self);
            }
        };
        let account = answer.log.clone().unwrap_or_default();
        let notices = self.take(answer);
        Ok(Applied {
            game: self,
            notices,
            account,
        })
    }

    fn summary(&self) -> Vec<String> {
        self.summary.clone()
    }

    fn opening(&self) -> Vec<String> {
        self.opening.iter().cloned().collect()
    }

    fn first_to_move(&self) -> Seat {
        self.first
    }

    fn void(&self) -> Option<Void> {
        self.link.borrow().void.clone()
    }

    fn stop(&self, reason: &str, verdict: Option<(Seat, Verdict)>) {
        let mut message = json!({"type": "stop", "reason": reason});
        if let Some((seat, verdict)) = verdict {
            message["verdict"] = json!({"player": seat.index(), "verdict": verdict});
        }
        self.link.borrow_mut().stop(&message);
    }

    fn frames(&self) -> Vec<Value> {
        self.frames.clone()
    }

    fn last_frame(&self) -> Option<(usize, &Value)> {
        self.frames.last().map(|f| (self.frames.len(), &f["frame"]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_the_players_strictly_ahead() {
        assert_eq!(competition_ranks(&[0, 2, 0, 1]), [0, 3, 0, 2]);
        assert_eq!(competition_ranks(&[5, 5, 5]), [0, 0, 0]);
        assert_eq!(competition_ranks(&[1, 0, u32::MAX, u32::MAX]), [1, 0, 2, 2]);
        assert_eq!(winner_of_ranks(&[1, 0, 2]), Winner::B);
        assert_eq!(winner_of_ranks(&[0, 1]), Winner::A);
        // A first place of C's, or a shared one, is no A or B win.
        assert_eq!(winner_of_ranks(&[1, 1, 0]), Winner::Draw);
        assert_eq!(winner_of_ranks(&[0, 1, 0]), Winner::Draw);
    }

    #[test]
    fn an_end_of_more_than_two_players_is_a_ranking() {
        let end = |v: Value, players| end_of(&v, players);
        let ranked = end(json!({"ranks": [2, 0, 1], "reason": "points"}), 3).unwrap();
        assert_eq!(ranked.ranks, Some(vec![2, 0, 1]));
        assert_eq!(ranked.outcome.winner, Winner::B);
        let won = end(json!({"winner": 2}), 3).unwrap();
        assert_eq!(won.ranks, Some(vec![1, 1, 0]));
        assert_eq!(won.outcome.reason, "ranked");
        let tie = end(json!({"winner": null}), 4).unwrap();
        assert_eq!(tie.ranks, Some(vec![0, 0, 0, 0]));
        // Two players keep the winner alone.
        assert_eq!(end(json!({"winner": 1}), 2).unwrap().ranks, None);
        for bad in [
            json!({"ranks": [0, 1]}),
            json!({"ranks": [0, -1, 2]}),
            json!({"winner": 3}),
            json!({"ranks": [0, 1, 2], "scores": [1, 2]}),
            // Two results that differ: C is not first alone.
            json!({"winner": 2, "ranks": [0, 1, 2]}),
            json!({"winner": 0, "ranks": [0, 0, 1]}),
        ] {
            assert!(end(bad.clone(), 3).is_err(), "{bad}");
        }
        // Two players: ranks say who won; scores are one per player too.
        assert_eq!(
            end(json!({"ranks": [1, 0]}), 2).unwrap().outcome.winner,
            Winner::B
        );
        assert_eq!(
            end(json!({"ranks": [0, 0]}), 2).unwrap().outcome.winner,
            Winner::Draw
        );
        assert!(end(json!({"winner": 1, "ranks": [1, 0]}), 2).is_ok());
        for bad in [
            json!({"winner": 0, "ranks": [1, 0]}),
            json!({"winner": 0, "scores": [1, 0, 0]}),
            json!({"winner": 0, "scores": []}),
        ] {
            assert!(end(bad.clone(), 2).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_message_that_says_one_thing_twice_is_refused() {
        let twice = r#"{"type":"turn","end":{"winner":0},"end":{"winner":1}}"#;
        assert!(parse_message(twice)
            .unwrap_err()
            .contains("\"end\" appears twice"));
        let nested = r#"{"type":"turn","end":{"winner":0,"winner":1}}"#;
        assert!(parse_message(nested).unwrap_err().contains("twice"));
        let (kind, map) =
            parse_message(r#"{"type":"turn","end":{"winner":1,"scores":[0.5,-1]}}"#).unwrap();
        assert_eq!(kind, "turn");
        assert_eq!(map["end"]["scores"], json!([0.5, -1]));
        assert!(parse_message("{\"type\":")
            .unwrap_err()
            .contains("not JSON"));
    }
}
