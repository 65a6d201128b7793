//! The match runner: drives any [`Game`] between two bot processes, turning
//! process faults, malformed lines and illegal replies into verdicts, and
//! produces one [`MatchRecord`]. It knows the rules only through the `Game`
//! trait and processes only through `crate::bot`.
//!
//! A solo game ([`play_solo`]: the referee holds the secret, only seat A is
//! asked) runs through the same loop with no process at seat B.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::bot::{
    self, BotCommand, BotProcess, Fault, Language, Opponent, ProcessLimits, ProcessReport,
};
use crate::games::driver::{drive, Ending, Seats, Turn};
use crate::games::{self, Game, GameConfig, Outcome, Seat, Winner};
use crate::match_plan::{MatchLimits, MatchPlan, SoloPlan};
use crate::protocol;
use crate::record::{Holder, MatchRecord, PlayerRecord, RECORD_VERSION};
use crate::replay::ReplayPlan;
use crate::time_bank::{self, TimeBank};
use crate::transcript::{Direction, TranscriptWriter};
use crate::verdict::{Disqualification, Verdict};

/// Who sits where, for the game loop: a bot at each seat of a match; at seat
/// B of a solo game, nobody (the referee is the codemaker).
struct Seating<'a> {
    config: &'a GameConfig,
    seed: u64,
    bots: [Option<&'a BotCommand>; 2],
    /// What runs at each seat: the command (compiled if it was a source), or
    /// why it could not be compiled (detail, compiler message); `None` for
    /// the referee's seat.
    commands: [Option<Prepared>; 2],
    limits: [&'a MatchLimits; 2],
    /// What plays the game again, kept in its record.
    replay: ReplayPlan,
    /// A seat played from a record (`referee reproduce`): no process, its
    /// replies are the recorded ones, in order.
    script: Option<(Seat, Vec<String>)>,
}

/// A bot command ready to spawn, or the compile failure that is its verdict
/// (detail, compiler message).
pub type Prepared = Result<BotCommand, (String, String)>;

/// Builds a source bot (compiles it, or finds it in the cache) into its
/// language's run command; a source that does not compile is that bot's
/// `compile` verdict, a referee that cannot compile at all is an error.
pub fn prepare(command: &BotCommand, limits: &MatchLimits) -> Result<Prepared, MatchError> {
    match bot::compile::prepare(
        command,
        &limits.process.sandbox,
        command.language.def().compile_time,
    ) {
        Ok(ready) => Ok(Ok(ready)),
        Err(e) if e.is_verdict() => Ok(Err((e.to_string(), e.compiler_message().to_string()))),
        Err(source) => Err(MatchError::Compiler {
            bot: command.spec.clone(),
            source,
        }),
    }
}

impl Seating<'_> {
    /// Who holds `seat`: its bot, or the referee at seat B of a solo game.
    fn holder(&self, seat: Seat) -> Holder<'_> {
        self.bots[seat.index()].map_or(Holder::Referee, |b| Holder::Bot {
            name: &b.name,
            spec: &b.spec,
        })
    }

    fn name(&self, seat: Seat) -> String {
        self.holder(seat).name().to_string()
    }

    fn spec(&self, seat: Seat) -> String {
        self.holder(seat).spec().to_string()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The referee was asked to stop (Ctrl-C) during the game; it is not
    /// recorded and its bots are killed.
    #[error("the game was interrupted")]
    Interrupted,
    /// The system would not start a bot (after retries): the game is not
    /// played, and is nobody's loss.
    #[error("bot '{bot}' could not be started, for a reason that is not the bot's")]
    NotStarted { bot: String, source: std::io::Error },
    /// The organiser's files keep the bot from its sandbox (the message
    /// says which and what to do): bad input, not retried.
    #[error("bot '{bot}' cannot be started as set up")]
    Unreachable { bot: String, source: std::io::Error },
    #[error("cannot write the transcript {}", path.display())]
    Transcript {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The referee could not compile a bot source (no compiler, no cache);
    /// a source that does not compile is the `compile` verdict instead.
    #[error("bot '{bot}'")]
    Compiler {
        bot: String,
        source: bot::compile::CompileError,
    },
}

/// One seat's process and its running totals.
struct Player {
    process: Option<BotProcess>,
    replies: u32,
    time_total: Duration,
    time_max: Duration,
    /// The most CPU time one reply took.
    cpu_max: Duration,
    bank: TimeBank,
    disqualification: Option<Disqualification>,
    report: ProcessReport,
    stderr_kept: StderrKept,
    /// What the bot was last told, for the detail of a line nobody asked
    /// for: where it came.
    heard: Heard,
    /// When the verdict was reached (for the transcript).
    disqualified_at: Option<Instant>,
    /// A recorded seat's replies still to play.
    script: Option<std::collections::VecDeque<String>>,
    /// Why a recorded seat could not go on (its replies ran out, or one is
    /// not legal in this game): not a verdict, the record ended.
    script_end: Option<String>,
}

impl Player {
    fn new(bank: TimeBank) -> Player {
        Player {
            process: None,
            replies: 0,
            time_total: Duration::ZERO,
            time_max: Duration::ZERO,
            cpu_max: Duration::ZERO,
            bank,
            disqualification: None,
            report: ProcessReport::default(),
            stderr_kept: StderrKept::default(),
            heard: Heard::default(),
            disqualified_at: None,
            script: None,
            script_end: None,
        }
    }

    /// Judges a reply that never came (the awaited one, not counted). A
    /// memory verdict's detail names the peak the record keeps: the
    /// kernel's, once the bot is gone (it may have grown between the last
    /// sample and its end).
    fn judge_missed(&mut self, missed: &Missed, limit: Duration, language: Option<Language>) {
        let Some(verdict) = missed.fault.verdict() else {
            return;
        };
        let detail = missed.detail(&self.bank, limit, language);
        self.disqualify(verdict, detail, self.awaited());
        if let Fault::Memory {
            peak_kb,
            limit_kb,
            allowance_kb,
        } = missed.fault
        {
            let peak_kb = peak_kb.max(self.report.peak_memory_kb);
            self.report.peak_memory_kb = peak_kb;
            if let Some(d) = &mut self.disqualification {
                d.detail = Fault::Memory {
                    peak_kb,
                    limit_kb,
                    allowance_kb,
                }
                .to_string();
            }
        }
    }

    /// Records the bot's first fault and kills it. `at_move` is the 1-based
    /// number of the reply at fault (see [`Disqualification::at_move`]): the
    /// awaited one for a fault while waiting ([`Player::awaited`]), the one
    /// just counted for a protocol or illegal reply ([`Player::replies`]).
    fn disqualify(&mut self, verdict: Verdict, detail: String, at_move: u32) {
        self.disqualified_at.get_or_insert_with(Instant::now);
        let report = self.process.as_mut().map(|p| p.kill());
        if let Some(report) = report {
            self.report = report;
        }
        self.disqualification.get_or_insert(Disqualification {
            verdict,
            detail,
            at_move,
        });
    }

    /// The number of the reply being waited for (not yet counted).
    fn awaited(&self) -> u32 {
        self.replies + 1
    }
}

/// Plays one game. Bot misbehaviour ends up in the record's verdicts; `Err`
/// is only for the referee's own failures (e.g. an unwritable transcript).
pub fn play_match(
    plan: &MatchPlan,
    transcript_path: Option<&PathBuf>,
) -> Result<MatchRecord, MatchError> {
    let seating = Seating {
        config: &plan.config,
        seed: plan.seed,
        bots: [Some(&plan.bots[0]), Some(&plan.bots[1])],
        commands: [
            Some(prepare(&plan.bots[0], &plan.limits[0])?),
            Some(prepare(&plan.bots[1], &plan.limits[1])?),
        ],
        limits: [&plan.limits[0], &plan.limits[1]],
        replay: ReplayPlan::of_match(plan),
        script: None,
    };
    Ok(play_seated(plan, &seating, transcript_path)?.0)
}

/// The game of `plan` (drawn from its key and seed) played by `seating`:
/// its record, and why a recorded seat stopped, if one did.
fn play_seated(
    plan: &MatchPlan,
    seating: &Seating,
    transcript_path: Option<&PathBuf>,
) -> Result<(MatchRecord, Option<String>), MatchError> {
    let mut rng = plan.key.rng(plan.seed);
    let (record, _, end) = match &plan.config {
        GameConfig::Arrow5(config) => {
            let game = games::arrow5::Arrow5::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Mastermind(config) => {
            let game = games::mastermind::Mastermind::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Cryptron(config) => {
            let game = games::cryptron::Cryptron::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Safecracker(config) => {
            let game = games::safecracker::SafeCracker::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path).map(|(r, _, e)| (r, (), e))?
        }
    };
    Ok((record, end))
}

/// A game that stopped without an outcome or a verdict.
const UNFINISHED: &str = "unfinished";

/// A reproduced game whose recorded seat could not go on.
pub const RECORD_ENDED: &str = "record-ended";

/// What `referee reproduce` played: the record of the game, and why the
/// recorded seat stopped, if it did before the game ended.
pub struct Reproduction {
    pub record: MatchRecord,
    pub record_end: Option<String>,
}

/// Plays `plan` with the seat `recorded` played from `replies` (its
/// recorded replies, in order) instead of a process: the same game, key
/// and seed, the other seat's bot new. The recorded seat's bot is never
/// started (its command names it in the record only).
pub fn play_reproduction(
    plan: &MatchPlan,
    recorded: Seat,
    replies: Vec<String>,
    transcript_path: Option<&PathBuf>,
) -> Result<Reproduction, MatchError> {
    let live = recorded.other();
    let mut commands = [None, None];
    commands[live.index()] = Some(prepare(
        &plan.bots[live.index()],
        &plan.limits[live.index()],
    )?);
    let seating = Seating {
        config: &plan.config,
        seed: plan.seed,
        bots: [Some(&plan.bots[0]), Some(&plan.bots[1])],
        commands,
        limits: [&plan.limits[0], &plan.limits[1]],
        replay: ReplayPlan::of_match(plan),
        script: Some((recorded, replies)),
    };
    let (record, record_end) = play_seated(plan, &seating, transcript_path)?;
    Ok(Reproduction { record, record_end })
}

/// Plays one solo game (built by the game's `solo` function): only seat A is
/// ever asked, so only the plan's bot is started. Returns the record and the
/// finished game (its `summary` tells the secret). Seat B's player record is
/// the referee's, with no replies.
pub fn play_solo<G: Game>(
    game: G,
    plan: &SoloPlan,
    transcript_path: Option<&PathBuf>,
) -> Result<(MatchRecord, G), MatchError> {
    let seating = Seating {
        config: &plan.config,
        seed: plan.seed,
        bots: [Some(&plan.bot), None],
        commands: [Some(prepare(&plan.bot, &plan.limits)?), None],
        limits: [&plan.limits, &plan.limits],
        replay: ReplayPlan::of_bench(plan),
        script: None,
    };
    run_recorded(game, &seating, transcript_path).map(|(record, game, _)| (record, game))
}

/// Plays a game with its transcript written, if one is asked for.
fn run_recorded<G: Game>(
    game: G,
    seating: &Seating,
    transcript_path: Option<&PathBuf>,
) -> Result<(MatchRecord, G, Option<String>), MatchError> {
    let transcript = match transcript_path {
        Some(path) => TranscriptWriter::create(path).map_err(|source| MatchError::Transcript {
            path: path.clone(),
            source,
        })?,
        None => TranscriptWriter::none(),
    };
    let (record, transcript, game, script_end) = run(game, seating, transcript)?;
    transcript
        .finish(&record)
        .map_err(|source| MatchError::Transcript {
            path: transcript_path.cloned().unwrap_or_default(),
            source,
        })?;
    Ok((record, game, script_end))
}

/// One game, step by step: seat the players, greet them, play the turns,
/// end the game, keep the record.
fn run<G: Game>(
    game: G,
    plan: &Seating,
    mut transcript: TranscriptWriter,
) -> Result<(MatchRecord, TranscriptWriter, G, Option<String>), MatchError> {
    transcript.header(
        plan.config.game_name(),
        &plan.config.variant_name(),
        plan.seed,
        Seat::BOTH.map(|seat| plan.name(seat)),
        Seat::BOTH.map(|seat| plan.spec(seat)),
    );
    let mut account = setup_summary(plan, game.first_to_move());
    account.extend(game.opening());
    let mut players = seat_players(plan, &mut transcript)?;
    if let Some((seat, lines)) = &plan.script {
        players[seat.index()].script = Some(lines.iter().cloned().collect());
    }
    // Greetings expect no reply; a bot that died at once is caught by its
    // first request.
    for seat in Seat::BOTH {
        let line = game.greeting(seat);
        let i = seat.index();
        send_notice(
            &mut players[i],
            seat,
            &line,
            plan.limits[i],
            &mut transcript,
        );
    }
    // A seat judged before the game (`compile`, a program that cannot be
    // run) leaves no game to play.
    let (game, outcome) = if players.iter().any(|p| p.disqualification.is_some()) {
        (game, None)
    } else {
        let mut seats = BotSeats {
            players: &mut players,
            plan,
            transcript: &mut transcript,
            account: &mut account,
        };
        match drive(game, &mut seats)? {
            (game, Ending::Over(outcome)) => (game, Some(outcome)),
            (game, Ending::Stopped(())) => (game, None),
        }
    };
    end_game(&mut players, plan, outcome.as_ref(), &mut transcript);
    account.extend(game.summary());
    let mut record = record_of(plan, &game, &players, outcome.as_ref(), account);
    let script_end = players.iter().find_map(|p| p.script_end.clone());
    if script_end.is_some() && record.reason == UNFINISHED {
        record.reason = RECORD_ENDED.into();
    }
    Ok((record, transcript, game, script_end))
}

/// Starts both bots (frozen: a bot runs only when asked) before the game
/// begins, or judges a seat that cannot play (`compile`, or `crash` when
/// its program cannot be run). A start that fails for the system's reasons
/// is no game at all (`Err`).
fn seat_players(
    plan: &Seating,
    transcript: &mut TranscriptWriter,
) -> Result<[Player; 2], MatchError> {
    let mut started: [Option<Result<BotProcess, String>>; 2] = [None, None];
    for seat in Seat::BOTH {
        let i = seat.index();
        if let Some(Ok(command)) = &plan.commands[i] {
            started[i] = Some(start(command, &plan.limits[i].process)?);
        }
    }
    Ok(Seat::BOTH.map(|seat| {
        let i = seat.index();
        let mut player = Player::new(TimeBank::new(plan.limits[i].time_bank));
        // An empty seat (the referee's, in a solo game) has no process: the
        // game never asks it, and lines meant for it go nowhere.
        match (&plan.commands[i], started[i].take()) {
            (None, _) => {}
            (Some(Ok(_)), Some(Ok(process))) => player.process = Some(process),
            (Some(Ok(_)), Some(Err(why))) => {
                player.disqualification = Some(Disqualification {
                    verdict: Verdict::Crash,
                    detail: format!("could not be started: {why}"),
                    at_move: 0,
                })
            }
            (Some(Ok(_)), None) => unreachable!("every seat with a command was started"),
            (Some(Err((detail, message))), _) => {
                // The compiler's message goes to the log as the bot's stderr;
                // its first lines are the ones that matter.
                let now = Instant::now();
                for line in message.lines().take(COMPILER_LOG_LINES) {
                    transcript.message(now, seat, Direction::Stderr, line);
                }
                for line in message.lines() {
                    player.stderr_kept.push(line.to_string());
                }
                player.disqualify(Verdict::Compile, detail.clone(), 0);
            }
        }
        player
    }))
}

/// The bots at the seats, for the match loop ([`games::driver::drive`]):
/// each turn is an exchange with the bot asked, judged (a fault is its
/// verdict, and stops the game); each notice goes to its bot.
struct BotSeats<'a, 'p> {
    players: &'a mut [Player; 2],
    plan: &'a Seating<'p>,
    transcript: &'a mut TranscriptWriter,
    account: &'a mut Vec<String>,
}

impl BotSeats<'_, '_> {
    /// A recorded seat's turn: its next recorded reply, judged by the
    /// rules. A reply the rules refuse now, or none left, ends the record
    /// (the game stops, nobody is judged).
    fn recorded_turn<G: Game>(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Turn<G, ()> {
        let player = &mut self.players[seat.index()];
        let now = Instant::now();
        if let Some(request) = &request {
            self.transcript.message(now, seat, Direction::To, request);
        }
        let Some(line) = player.script.as_mut().and_then(|s| s.pop_front()) else {
            player.script_end = Some(format!(
                "the recorded opponent has no reply {} (it made {} in the recorded game)",
                player.replies + 1,
                player.replies
            ));
            return Turn::Stopped(game, ());
        };
        self.transcript.message(now, seat, Direction::From, &line);
        player.replies += 1;
        let refused = |why: String| {
            format!(
                "the recorded opponent's reply {} '{}' is not legal in this game: {why}",
                player.replies,
                protocol::shorten(&line)
            )
        };
        let parsed = match game.parse_reply(&line) {
            Ok(parsed) => parsed,
            Err(why) => {
                player.script_end = Some(refused(why));
                return Turn::Stopped(game, ());
            }
        };
        match game.apply(parsed) {
            Ok(applied) => Turn::Moved(applied),
            Err(rejected) => {
                player.script_end = Some(refused(rejected.rule));
                Turn::Stopped(rejected.game, ())
            }
        }
    }
}

impl<G: Game> Seats<G> for BotSeats<'_, '_> {
    /// The verdict is in the player's record.
    type Stop = ();
    type Error = MatchError;

    fn turn(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Result<Turn<G, ()>, MatchError> {
        if self.players[seat.index()].script.is_some() {
            return Ok(self.recorded_turn(seat, game, request));
        }
        let limits = &self.plan.limits[seat.index()];
        let [a, b] = &mut *self.players;
        let (player, other) = match seat {
            Seat::A => (a, b),
            Seat::B => (b, a),
        };
        let limit = if player.replies == 0 {
            // The start-up limit covers starting an interpreter on top of
            // a move: never less than a move's time (protocol.md §6).
            limits.startup_limit.max(limits.time_limit)
        } else {
            limits.time_limit
        };
        let idle = other.process.as_mut();
        let is_reply = |line: &str| game.parse_reply(line).is_ok();
        let line = match exchange(
            player,
            seat,
            request.as_deref(),
            limit,
            self.transcript,
            idle,
            &is_reply,
        ) {
            Ok(line) => line,
            Err(missed) if missed.fault.verdict().is_none() => {
                for player in self.players.iter_mut() {
                    if let Some(process) = &mut player.process {
                        process.kill();
                    }
                }
                return Err(MatchError::Interrupted);
            }
            Err(missed) => {
                let language = match &self.plan.commands[seat.index()] {
                    Some(Ok(command)) => Some(command.language),
                    _ => None,
                };
                player.judge_missed(&missed, limit, language);
                drain_stderr(player, seat, self.transcript);
                return Ok(Turn::Stopped(game, ()));
            }
        };
        // `exchange` counted the reply; a fault in it is at that reply.
        let at_move = player.replies;
        let parsed = match game.parse_reply(&line) {
            Ok(parsed) => parsed,
            Err(why) => {
                let mut detail = format!(
                    "answered '{}' to '{}' (its reply to move {at_move}): {why}",
                    protocol::shorten(&line),
                    request.as_deref().unwrap_or("(its turn)")
                );
                // A bot that answers a line that takes no reply is one
                // line ahead: say which line it likely answered.
                if let Some(notice) = player.heard.last_notice() {
                    detail.push_str(&format!(
                        "; before that request it was sent '{}', which takes no reply",
                        protocol::shorten(notice)
                    ));
                }
                player.disqualify(Verdict::Protocol, detail, at_move);
                return Ok(Turn::Stopped(game, ()));
            }
        };
        player.heard.replied(&line);
        match game.apply(parsed) {
            Ok(applied) => Ok(Turn::Moved(applied)),
            Err(rejected) => {
                player.disqualify(Verdict::Illegal, rejected.rule, at_move);
                Ok(Turn::Stopped(rejected.game, ()))
            }
        }
    }

    fn moved(&mut self, _seat: Seat, _game: &G, account: String) {
        self.account.push(account);
    }

    fn notify(&mut self, to: Seat, line: &str) {
        let i = to.index();
        send_notice(
            &mut self.players[i],
            to,
            line,
            self.plan.limits[i],
            self.transcript,
        );
    }
}

/// The end: tells each bot still playing the result, closes its stdin,
/// lets it go (or ends it), and judges its memory once more on the exact
/// peak the kernel kept.
fn end_game(
    players: &mut [Player; 2],
    plan: &Seating,
    outcome: Option<&Outcome>,
    transcript: &mut TranscriptWriter,
) {
    log_verdicts(players, transcript);
    let (winner, reason) = settle(players, outcome);
    for player in players.iter_mut() {
        if let Some(process) = &mut player.process {
            process.measure_before_end();
        }
    }
    for seat in Seat::BOTH {
        let player = &mut players[seat.index()];
        if player.disqualification.is_none() {
            let line = protocol::end_line(winner.result_for(seat), &reason);
            send_notice(player, seat, &line, plan.limits[seat.index()], transcript);
        }
    }
    for seat in Seat::BOTH {
        let player = &mut players[seat.index()];
        if let Some(process) = &mut player.process {
            player.report = process.shut_down(bot::EXIT_GRACE);
            // The folder is judged once more: what a bot wrote after its
            // last measure (in its last move) counts too.
            if let Some(fault) = process.disk_fault() {
                let at_move = player.replies;
                player.disqualify(Verdict::Output, fault.to_string(), at_move);
            }
        }
        drain_stderr(player, seat, transcript);
        let process_limits = &plan.limits[seat.index()].process;
        let cap_kb = process_limits.memory_cap_kb();
        if cap_kb > 0 && player.report.peak_memory_kb > cap_kb {
            let fault = Fault::Memory {
                peak_kb: player.report.peak_memory_kb,
                limit_kb: process_limits.memory_kb,
                allowance_kb: process_limits.memory_allowance_kb,
            };
            // Found only in the final peak: counted at its last reply (0 if
            // it was never asked), since no later reply was awaited.
            let at_move = player.replies;
            player.disqualify(Verdict::Memory, fault.to_string(), at_move);
        }
    }
    log_verdicts(players, transcript);
}

/// What is kept of the game.
fn record_of<G: Game>(
    plan: &Seating,
    game: &G,
    players: &[Player; 2],
    outcome: Option<&Outcome>,
    account: Vec<String>,
) -> MatchRecord {
    let (winner, reason) = settle(players, outcome);
    MatchRecord {
        version: RECORD_VERSION,
        game: plan.config.game_name().to_string(),
        variant: plan.config.variant_name(),
        seed: plan.seed,
        winner,
        first: game.first_to_move(),
        reason,
        players: Seat::BOTH.map(|seat| {
            let player = &players[seat.index()];
            PlayerRecord {
                name: plan.name(seat),
                spec: plan.spec(seat),
                verdict: player
                    .disqualification
                    .as_ref()
                    .map_or(Verdict::Ok, |d| d.verdict),
                disqualification: player.disqualification.clone(),
                attacks: game.attacks(seat),
                replies: player.replies,
                time_total_ms: ms(player.time_total),
                time_max_ms: ms(player.time_max),
                cpu_max_ms: ms(player.cpu_max),
                cpu_total_ms: round3(player.report.cpu_ms),
                peak_memory_kb: player.report.peak_memory_kb,
                stderr_tail: if player.disqualification.is_some() {
                    player.stderr_kept.lines()
                } else {
                    vec![]
                },
            }
        }),
        replay: plan.replay.command(),
        plan: Some(plan.replay.clone()),
        account,
    }
}

/// A reply that did not come: why, how long it was awaited (wall time),
/// and the CPU time the bot used meanwhile (`None`: its clock could not be
/// read, e.g. it had exited).
struct Missed {
    fault: Fault,
    waited: Duration,
    cpu: Option<Duration>,
    /// The opponent's CPU time while it was awaited, by which its deadline
    /// was moved on (see `Opponent::excused`).
    excused: Duration,
    /// What the fault alone cannot say.
    remark: Option<Remark>,
}

/// What a verdict's detail says beyond its fault.
enum Remark {
    /// What the bot had written of a line without ending it.
    Unended(String),
    /// The whole detail (a line nobody asked for: where it came).
    Told(String),
}

impl Missed {
    /// The verdict's detail. A timeout says what became of the bot's time
    /// bank, and whether the bot was computing or not running at all
    /// (blocked, sleeping, or an overloaded machine).
    /// A bot that was waiting, not computing, may have its reply stuck in
    /// its stdout buffer: the detail says how to flush in its `language`.
    fn detail(&self, bank: &TimeBank, limit: Duration, language: Option<bot::Language>) -> String {
        let what = match self.fault {
            Fault::Timeout { .. } if !self.excused.is_zero() => format!(
                "{}, not counting the {} of CPU its opponent took meanwhile",
                bank.missed(limit),
                time_bank::show_cpu(self.excused)
            ),
            Fault::Timeout { .. } => bank.missed(limit),
            _ => match &self.remark {
                Some(Remark::Told(told)) => told.clone(),
                // Every other fault tells itself.
                Some(Remark::Unended(_)) | None => self.fault.to_string(),
            },
        };
        // A reply written without its newline is not a buffer to flush:
        // what was written is shown instead of the hint.
        let unended = match &self.remark {
            Some(Remark::Unended(text)) => Some(format!(
                "; it wrote '{text}' but not the newline that ends a reply"
            )),
            _ => None,
        };
        match (self.fault.verdict(), self.cpu, unended) {
            (Some(Verdict::Timeout), Some(cpu), None) => {
                let note = time_bank::cpu_note(cpu, self.waited);
                match language.and_then(|l| time_bank::flush_hint(l, cpu, self.waited)) {
                    Some(hint) => format!("{what} ({note}); {hint}"),
                    None => format!("{what} ({note})"),
                }
            }
            (Some(Verdict::Timeout), Some(cpu), Some(unended)) => {
                let note = time_bank::cpu_note(cpu, self.waited);
                format!("{what} ({note}){unended}")
            }
            (_, _, Some(unended)) => format!("{what}{unended}"),
            _ => what,
        }
    }
}

/// How often, and after which pauses, the referee tries again to start a
/// bot when the system refused (no memory, no process slot, a launcher
/// failure): such a game is not the bot's loss.
const START_RETRIES: [Duration; 3] = [
    Duration::from_millis(50),
    Duration::from_millis(250),
    Duration::from_millis(1000),
];

/// Starts a bot and freezes it until its first request. `Ok(Err(why))`: the
/// bot's own fault (its program cannot be run); `Err`: the system's, after
/// [`START_RETRIES`].
fn start(
    command: &BotCommand,
    limits: &ProcessLimits,
) -> Result<Result<BotProcess, String>, MatchError> {
    let mut pauses = START_RETRIES.iter();
    loop {
        match BotProcess::spawn(command, limits) {
            Ok(mut process) => {
                process.freeze();
                return Ok(Ok(process));
            }
            Err(e) if bot::is_bots_fault(&e) => return Ok(Err(e.to_string())),
            Err(e) if bot::is_operators_fault(&e) => {
                return Err(MatchError::Unreachable {
                    bot: command.spec.clone(),
                    source: e,
                })
            }
            Err(e) => match pauses.next() {
                Some(pause) if !bot::stop_requested() => std::thread::sleep(*pause),
                _ => {
                    return Err(MatchError::NotStarted {
                        bot: command.spec.clone(),
                        source: e,
                    })
                }
            },
        }
    }
}

/// Sends a request and waits for its reply line, timing it in wall time and
/// in the bot's CPU time. The reply may take `limit` plus what is left of
/// the bot's time bank, and the time beyond `limit` is drawn from the bank.
/// `idle` is the opponent's process, stopped if the wait grows long (see
/// [`BotProcess::rest`]). `is_reply` tells a line the game would take as a
/// reply: of two lines written for one request, the one taken is the first,
/// unless only the second is one.
fn exchange(
    player: &mut Player,
    seat: Seat,
    request: Option<&str>,
    limit: Duration,
    transcript: &mut TranscriptWriter,
    idle: Option<&mut BotProcess>,
    is_reply: &dyn Fn(&str) -> bool,
) -> Result<String, Missed> {
    let process = player
        .process
        .as_mut()
        .expect("a playing seat has a process");
    let allowance = player.bank.allowance(limit);
    // One clock read serves the transcript and the write's deadline (the
    // clock is read as few times as a move needs: docs/measurements.md).
    let mut sent = Instant::now();
    if let Some(request) = request {
        transcript.message(sent, seat, Direction::To, request);
    }
    // Whatever it wrote since its last reply was not asked for.
    let mut told = None;
    let mut result = match process.unasked_output() {
        Ok(lines) if lines.is_empty() => Ok(()),
        Ok(lines) => {
            told = Some(stray_detail(
                &player.heard,
                player.replies,
                lines.clone(),
                StrayPlace::BeforeRequest,
            ));
            Err(Fault::Unasked { lines })
        }
        Err(fault) => Err(fault),
    };
    // It runs from its request to its reply, and shortly after (see
    // BotProcess::rest).
    let cpu_before = process.cpu_at_rest();
    process.thaw();
    match (request, &result) {
        (Some(request), Ok(())) => {
            result = process.send_line(request, sent + allowance, allowance);
            if result.is_ok() {
                sent = Instant::now();
            }
        }
        // Asked by the lines it has: its time starts once it runs.
        (None, _) => sent = Instant::now(),
        (Some(_), Err(_)) => {}
    }
    let mut opponent = idle.map(|other| Opponent::new(other, sent));
    let result = result
        .and_then(|()| process.recv_reply(sent + allowance, allowance, opponent.as_mut()))
        .and_then(|(line, at)| {
            let beyond = process.lines_beyond_reply();
            let Some(next) = beyond.first() else {
                return Ok((line, at));
            };
            let taken_is_reply = is_reply(&line);
            let line = protocol::shorten(&line);
            let (lines, place) = if !taken_is_reply && is_reply(next) {
                let mut lines = vec![line];
                lines.extend(beyond[1..].iter().cloned());
                (lines, StrayPlace::BeforeReply(next))
            } else {
                (beyond.clone(), StrayPlace::AfterReply(&line))
            };
            told = Some(stray_detail(
                &player.heard,
                player.replies,
                lines.clone(),
                place,
            ));
            Err(Fault::Unasked { lines })
        });
    let cpu_after = process.cpu_time();
    process.rest(cpu_after);
    let cpu = cpu_after
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    // The time the opponent took while it should have been stopped is
    // not this bot's (see Opponent::excused).
    let excused = opponent.map_or(Duration::ZERO, |o| o.excused);
    let waited = match &result {
        Ok((_, at)) => at.saturating_duration_since(sent),
        Err(_) => sent.elapsed(),
    }
    .saturating_sub(excused);
    let remark = match (&result, told) {
        (_, Some(told)) => Some(Remark::Told(told)),
        (Err(Fault::Unasked { .. } | Fault::LineTooLong { .. }) | Ok(_), None) => None,
        (Err(_), None) => process.partial_line().map(Remark::Unended),
    };
    drain_stderr(player, seat, transcript);
    let (line, at) = result.map_err(|fault| Missed {
        fault,
        waited,
        cpu,
        excused,
        remark,
    })?;
    let took = at.saturating_duration_since(sent).saturating_sub(excused);
    player.replies += 1;
    player.time_total += took;
    player.time_max = player.time_max.max(took);
    if let Some(cpu) = cpu {
        player.cpu_max = player.cpu_max.max(cpu);
    }
    player.bank.charge(limit, took);
    transcript.reply(at, seat, &line, took, cpu);
    Ok(line)
}

/// Sends a line that expects no reply. A bot that cannot take it is judged
/// at its next request, not here: it may have ended after its last reply.
fn send_notice(
    player: &mut Player,
    seat: Seat,
    line: &str,
    limits: &MatchLimits,
    transcript: &mut TranscriptWriter,
) {
    let Some(process) = player.process.as_mut() else {
        return;
    };
    if player.disqualification.is_some() {
        return;
    }
    let now = Instant::now();
    transcript.message(now, seat, Direction::To, line);
    player.heard.notified(line);
    let _ = process.send_line(line, now + limits.time_limit, limits.time_limit);
}

fn drain_stderr(player: &mut Player, seat: Seat, transcript: &mut TranscriptWriter) {
    let Some(process) = player.process.as_mut() else {
        return;
    };
    for line in process.take_stderr() {
        if line.left_out > 0 {
            let marker = format!("[... {} lines of stderr left out ...]", line.left_out);
            transcript.message(line.at, seat, Direction::Stderr, &marker);
            player.stderr_kept.skip(line.left_out);
        }
        transcript.message(line.at, seat, Direction::Stderr, &line.line);
        player.stderr_kept.push(line.line);
    }
}

/// The stderr lines a record keeps of a disqualified bot (its
/// `stderr_tail`): the first [`STDERR_HEAD_LINES`] and the last
/// [`STDERR_TAIL_LINES`], with a marker between when lines were left out.
/// A crash's message is at the end (a Node or Java stack trace, with the
/// error and the bot's own file and line at its top, fits the tail); what
/// the bot wrote first is often the clue to it.
#[derive(Default)]
struct StderrKept {
    head: Vec<String>,
    /// Lines were left out: no later line goes to the head.
    head_closed: bool,
    tail: std::collections::VecDeque<String>,
    left_out: usize,
}

const STDERR_HEAD_LINES: usize = 10;
const STDERR_TAIL_LINES: usize = 30;

impl StderrKept {
    /// `count` lines that were read but not kept (the process's cap): they
    /// and the tail so far are left out, in one gap.
    fn skip(&mut self, count: usize) {
        self.left_out += count + self.tail.len();
        self.tail.clear();
        self.head_closed = true;
    }

    fn push(&mut self, line: String) {
        if self.head.len() < STDERR_HEAD_LINES && !self.head_closed {
            self.head.push(line);
            return;
        }
        if self.tail.len() == STDERR_TAIL_LINES {
            self.tail.pop_front();
            self.left_out += 1;
        }
        self.tail.push_back(line);
    }

    fn lines(&self) -> Vec<String> {
        let mut lines = self.head.clone();
        if self.left_out > 0 {
            lines.push(format!("[... {} lines left out ...]", self.left_out));
        }
        lines.extend(self.tail.iter().cloned());
        lines
    }
}

/// What a bot was sent since its last reply, for the detail of a line it
/// wrote that nobody asked for: where that line came.
/// Its buffers are reused: nothing is allocated a move once they have
/// grown.
#[derive(Default)]
struct Heard {
    /// Its last reply (empty before its first).
    last_reply: String,
    /// The last line that takes no reply (the greeting, a notice) sent to
    /// it, and how many were sent since its last reply.
    notice: String,
    notices: usize,
}

impl Heard {
    fn notified(&mut self, line: &str) {
        self.notice.clear();
        self.notice.push_str(line);
        self.notices += 1;
    }

    fn replied(&mut self, line: &str) {
        self.last_reply.clear();
        self.last_reply.push_str(line);
        self.notices = 0;
    }

    /// The last line that takes no reply sent since its last reply.
    fn last_notice(&self) -> Option<&str> {
        (self.notices > 0).then_some(self.notice.as_str())
    }
}

/// Where a line nobody asked for came, relative to the exchange under way.
enum StrayPlace<'a> {
    /// Before the request was written.
    BeforeRequest,
    /// After the request, before the line taken as its reply.
    BeforeReply(&'a str),
    /// After its reply, in the same exchange.
    AfterReply(&'a str),
}

/// The detail of a `protocol` verdict for `lines` nobody asked for: the
/// first quoted, and where it came among what the bot was sent and wrote
/// (`replies`: the replies it had given before this exchange).
fn stray_detail(heard: &Heard, replies: u32, lines: Vec<String>, place: StrayPlace) -> String {
    let head = Fault::Unasked { lines }.to_string();
    let asked = replies + 1;
    let after = match (heard.last_notice(), replies) {
        (Some(notice), 0) if heard.notices == 1 => format!(
            "after its greeting '{}', which takes no reply",
            protocol::shorten(notice)
        ),
        (Some(notice), 0) => format!(
            "after '{}', a line sent before its first request that takes no reply",
            protocol::shorten(notice)
        ),
        (Some(notice), _) => format!(
            "after '{}', a line sent after its move {replies} that takes no reply",
            protocol::shorten(notice)
        ),
        (None, 0) => "before its first request".to_string(),
        (None, _) => format!(
            "after its reply to move {replies} ('{}')",
            protocol::shorten(&heard.last_reply)
        ),
    };
    match place {
        StrayPlace::BeforeRequest => {
            format!("{head}, {after}, before its request for move {asked} was written")
        }
        StrayPlace::BeforeReply(reply) => {
            format!("{head}, {after}; its reply to move {asked} was '{reply}'")
        }
        // Both lines are well-formed: which one the bot meant cannot be
        // told, only their order.
        StrayPlace::AfterReply(reply) => {
            let mut detail = format!(
                "{head}, after '{reply}', the line taken as its reply to move {asked} \
                 (one line for each request, and nothing else)"
            );
            if let Some(notice) = heard.last_notice() {
                detail.push_str(&format!(
                    "; before that request it was sent '{}', which takes no reply",
                    protocol::shorten(notice)
                ));
            }
            detail
        }
    }
}

/// Writes each new disqualification to the transcript, at the time it was
/// reached (once per player).
fn log_verdicts(players: &mut [Player; 2], transcript: &mut TranscriptWriter) {
    for seat in Seat::BOTH {
        let player = &mut players[seat.index()];
        if let (Some(at), Some(d)) = (player.disqualified_at.take(), &player.disqualification) {
            transcript.verdict(at, seat, d);
        }
    }
}
/// Lines of a compiler's message copied into the transcript.
const COMPILER_LOG_LINES: usize = 200;

/// The winner and reason given the rules' outcome and the verdicts.
fn settle(players: &[Player; 2], outcome: Option<&Outcome>) -> (Winner, String) {
    match (&players[0].disqualification, &players[1].disqualification) {
        (Some(_), Some(_)) => (Winner::Draw, "both-disqualified".into()),
        (Some(_), None) => (Winner::B, "disqualified".into()),
        (None, Some(_)) => (Winner::A, "disqualified".into()),
        (None, None) => match outcome {
            Some(o) => (o.winner, o.reason.clone()),
            None => (Winner::Draw, UNFINISHED.into()),
        },
    }
}

fn ms(d: Duration) -> f64 {
    round3(d.as_secs_f64() * 1000.0)
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Set-up lines for the account, before the first move.
fn setup_summary(plan: &Seating, first: Seat) -> Vec<String> {
    let mark = |seat: Seat| if seat == first { "  moves first" } else { "" };
    let mut lines = vec![format!(
        "{} ({}), seed {}",
        plan.config.game_name(),
        plan.config.variant_name(),
        plan.seed
    )];
    match plan.bots {
        [Some(a), Some(b)] => {
            lines.push(format!("A: {}  [{}]{}", a.name, a.spec, mark(Seat::A)));
            lines.push(format!("B: {}  [{}]{}", b.name, b.spec, mark(Seat::B)));
        }
        [Some(a), None] => {
            lines.push(format!(
                "A: {}  [{}]  attacks the referee's secret (solo)",
                a.name, a.spec
            ));
        }
        [None, _] => unreachable!("seat A always has a bot"),
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_its_head_and_tail_around_one_gap() {
        let mut kept = StderrKept::default();
        for i in 0..100 {
            kept.push(format!("line {i}"));
        }
        let lines = kept.lines();
        assert_eq!(lines.len(), STDERR_HEAD_LINES + 1 + STDERR_TAIL_LINES);
        assert_eq!(lines[0], "line 0");
        assert_eq!(lines[STDERR_HEAD_LINES], "[... 60 lines left out ...]");
        assert_eq!(lines.last().unwrap(), "line 99");
        // Lines the process dropped join the gap: no line after them goes
        // to the head, and one marker counts every line left out.
        let mut kept = StderrKept::default();
        kept.push("first".into());
        kept.skip(500);
        kept.push("last".into());
        assert_eq!(
            kept.lines(),
            ["first", "[... 500 lines left out ...]", "last"]
        );
    }

    #[test]
    fn a_stray_line_is_placed_among_what_the_bot_was_sent() {
        let mut heard = Heard::default();
        heard.replied("1 2 3 4 5");
        heard.notified("signal > .");
        assert_eq!(
            stray_detail(
                &heard,
                2,
                vec!["ok".into()],
                StrayPlace::BeforeReply("2 7 3 1 9")
            ),
            "wrote a line nobody asked for: 'ok', after 'signal > .', a line sent after \
             its move 2 that takes no reply; its reply to move 3 was '2 7 3 1 9'"
        );
        let mut heard = Heard::default();
        heard.notified("signal > <");
        heard.replied("1 2 3 4 5");
        assert_eq!(
            stray_detail(
                &heard,
                2,
                vec!["x".into(), "y".into()],
                StrayPlace::BeforeRequest
            ),
            "wrote a line nobody asked for: 'x' (and 1 more after it), after its reply to \
             move 2 ('1 2 3 4 5'), before its request for move 3 was written"
        );
        let mut greeted = Heard::default();
        greeted.notified("arrow5 classic first 50 7");
        assert_eq!(
            stray_detail(&greeted, 0, vec!["hi".into()], StrayPlace::BeforeRequest),
            "wrote a line nobody asked for: 'hi', after its greeting 'arrow5 classic first \
             50 7', which takes no reply, before its request for move 1 was written"
        );
    }
}
