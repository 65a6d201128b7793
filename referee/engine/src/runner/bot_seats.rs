//! The bot processes at their seats: started (with retries), asked for a
//! reply within their time, their stderr kept, and their faults turned
//! into remarks and verdicts.

use super::*;

/// One seat's process and its running totals.
pub(super) struct Player {
    pub(super) process: Option<BotProcess>,
    pub(super) replies: u32,
    pub(super) time_total: Duration,
    pub(super) time_max: Duration,
    /// The time its last reply took.
    pub(super) last_took: Duration,
    /// The most CPU time one reply took.
    pub(super) cpu_max: Duration,
    pub(super) bank: TimeBank,
    /// Replies that came late but within the margin, and how late the
    /// last one was.
    pub(super) strikes: u32,
    pub(super) last_strike: Duration,
    pub(super) disqualification: Option<Disqualification>,
    pub(super) report: ProcessReport,
    pub(super) stderr_kept: StderrKept,
    /// What the bot was last told, for the detail of a line nobody asked
    /// for: where it came.
    pub(super) heard: Heard,
    /// When the verdict was reached (for the transcript).
    pub(super) disqualified_at: Option<Instant>,
    /// A recorded seat's replies still to play.
    pub(super) script: Option<std::collections::VecDeque<String>>,
    /// Why a recorded seat could not go on (its replies ran out, or one is
    /// not legal in this game): not a verdict, the record ended.
    pub(super) script_end: Option<String>,
}

impl Player {
    pub(super) fn new(bank: TimeBank) -> Player {
        Player {
            process: None,
            replies: 0,
            time_total: Duration::ZERO,
            time_max: Duration::ZERO,
            last_took: Duration::ZERO,
            cpu_max: Duration::ZERO,
            bank,
            strikes: 0,
            last_strike: Duration::ZERO,
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
    pub(super) fn judge_missed(
        &mut self,
        missed: &Missed,
        limit: Duration,
        language: Option<Language>,
    ) {
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
    pub(super) fn disqualify(&mut self, verdict: Verdict, detail: String, at_move: u32) {
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
    pub(super) fn awaited(&self) -> u32 {
        self.replies + 1
    }
}

/// The bots at the seats, for the match loop ([`games::driver::drive`]):
/// each turn is an exchange with the bot asked, judged (a fault is its
/// verdict, and stops the game); each notice goes to its bot.
pub(super) struct BotSeats<'a, 'p> {
    pub(super) players: &'a mut [Player],
    pub(super) plan: &'a Seating<'p>,
    pub(super) transcript: &'a mut TranscriptWriter,
    pub(super) account: &'a mut Vec<String>,
    /// In a game of more than two players, the last seat judged: the
    /// verdict that ended the game when too few were left.
    pub(super) last_judged: Option<Seat>,
    /// Told each move as it is made, if anyone watches the game.
    pub(super) watcher: Option<&'a mut dyn MoveWatcher>,
    /// How many of the judge's frames the watcher was given.
    pub(super) frames_told: usize,
}

impl BotSeats<'_, '_> {
    /// A recorded seat's turn: its next recorded reply, judged by the
    /// rules. A reply the rules refuse now, or none left, ends the record
    /// (the game stops, nobody is judged).
    pub(super) fn recorded_turn<G: Game>(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Result<Turn<G, ()>, MatchError> {
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
            return Ok(Turn::Stopped(game, ()));
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
        let parsed = game.parse_reply(&line);
        if game.void().is_some() {
            return Err(self.void_game(&game));
        }
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(why) => {
                player.script_end = Some(refused(why));
                return Ok(Turn::Stopped(game, ()));
            }
        };
        Ok(match game.apply(parsed) {
            Ok(applied) => Turn::Moved(applied),
            Err(rejected) => {
                player.script_end = Some(refused(rejected.rule));
                Turn::Stopped(rejected.game, ())
            }
        })
    }

    /// The game's rules failed (a judge): no result; every bot is ended.
    fn void_game<G: Game>(&mut self, game: &G) -> MatchError {
        for player in self.players.iter_mut() {
            if let Some(process) = &mut player.process {
                process.kill();
            }
        }
        match game.void() {
            Some(void) if !void.interrupted => MatchError::Judge {
                judge: self.plan.config.game_argument().to_string(),
                void,
            },
            _ => MatchError::Interrupted,
        }
    }
}

impl<G: Game> Seats<G> for BotSeats<'_, '_> {
    /// The verdict is in the player's record.
    type Stop = ();
    type Error = MatchError;

    /// A turn; in a game of more than two players, a player with a
    /// verdict is out and the game goes on while two are still in, if the
    /// rules say so ([`Game::out`]).
    fn turn(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Result<Turn<G, ()>, MatchError> {
        let turn = self.play_turn(seat, game, request)?;
        let Turn::Stopped(game, ()) = turn else {
            return Ok(turn);
        };
        let still_in = self
            .players
            .iter()
            .filter(|p| p.disqualification.is_none())
            .count();
        let verdict = self.players[seat.index()]
            .disqualification
            .as_ref()
            .map(|d| d.verdict);
        if self.players.len() > 2 && verdict.is_some() {
            self.last_judged = Some(seat);
        }
        let (Some(verdict), true) = (verdict, self.players.len() > 2 && still_in >= 2) else {
            return Ok(Turn::Stopped(game, ()));
        };
        log_verdicts(self.players, self.transcript);
        self.account
            .push(format!("{seat} is out ({verdict}); the game goes on"));
        match game.out(seat, verdict) {
            Ok(applied) => Ok(Turn::Moved(applied)),
            Err(game) if game.void().is_some() => Err(self.void_game(&game)),
            Err(game) => Ok(Turn::Stopped(game, ())),
        }
    }

    fn moved(&mut self, seat: Seat, game: &G, account: String) {
        if let Some(watcher) = &mut self.watcher {
            // A frame is told once, with the move that drew it.
            let frame = match game.last_frame() {
                Some((count, frame)) if count > self.frames_told => {
                    self.frames_told = count;
                    Some(frame)
                }
                _ => None,
            };
            watcher.moved(&PublicMove {
                seat,
                account: &account,
                frame,
                wall: self.players[seat.index()].last_took,
            });
        }
        // A judge may leave a move without an account line.
        if !account.is_empty() {
            self.account.push(account);
        }
    }

    fn notify(&mut self, to: Seat, line: &str) {
        let i = to.index();
        // A player who is out hears nothing more.
        if self.players[i].disqualification.is_some() {
            return;
        }
        send_notice(
            &mut self.players[i],
            to,
            line,
            self.plan.limits[i],
            self.transcript,
        );
    }
}

impl BotSeats<'_, '_> {
    /// One exchange with the bot at `seat`, judged: its move, or its
    /// verdict (the game stops).
    fn play_turn<G: Game>(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Result<Turn<G, ()>, MatchError> {
        if self.players[seat.index()].script.is_some() {
            return self.recorded_turn(seat, game, request);
        }
        let limits = &self.plan.limits[seat.index()];
        let (player, other) = seat_and_opponent(self.players, seat);
        let limit = if player.replies == 0 {
            // The start-up limit covers starting an interpreter on top of
            // a move: never less than a move's time (protocol.md §6).
            limits.startup_limit.max(limits.time_limit)
        } else {
            limits.time_limit
        };
        let idle: Vec<&mut BotProcess> = other
            .into_iter()
            .filter_map(|other| other.process.as_mut())
            .collect();
        let is_reply = |line: &str| game.is_reply(line);
        let strikes_before = player.strikes;
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
        if player.strikes > strikes_before && player.strikes == limits.strikes {
            let detail = format!(
                // Measured, not a setting: milliseconds to one decimal.
                "its reply to move {at_move} came {:.1}ms past its {} limit{}, within the {} margin: strike {} of {}, which loses on time",
                player.last_strike.as_secs_f64() * 1000.0,
                crate::bot::show_duration(limit),
                if player.bank.total().is_zero() { "" } else { " and its time bank" },
                crate::bot::show_duration(limits.time_margin),
                player.strikes,
                limits.strikes
            );
            player.disqualify(Verdict::Timeout, detail, at_move);
            return Ok(Turn::Stopped(game, ()));
        }
        let parsed = game.parse_timed_reply(&line, ms(player.last_took));
        if game.void().is_some() {
            return Err(self.void_game(&game));
        }
        let player = &mut self.players[seat.index()];
        let parsed = match parsed {
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
}

/// The player at `seat` and its opponents: in a game of two the other
/// bot, in a game of more every other one. Each is stopped while the
/// player thinks, and the CPU time they take meanwhile excuses the
/// player's (see `Opponent::excused`): a bot of a free-for-all left
/// running after its reply pondered on the others' time, and its threads
/// made the one asked time out on the CPU the game is pinned to.
fn seat_and_opponent(players: &mut [Player], seat: Seat) -> (&mut Player, Vec<&mut Player>) {
    let (before, rest) = players.split_at_mut(seat.index());
    let (player, after) = rest.split_first_mut().expect("the seat is at the table");
    (player, before.iter_mut().chain(after).collect())
}

/// A reply that did not come: why, how long it was awaited (wall time),
/// and the CPU time the bot used meanwhile (`None`: its clock could not be
/// read, e.g. it had exited).
pub(super) struct Missed {
    pub(super) fault: Fault,
    pub(super) waited: Duration,
    pub(super) cpu: Option<Duration>,
    /// The opponent's CPU time while it was awaited, by which its deadline
    /// was moved on (see `Opponent::excused`).
    pub(super) excused: Duration,
    /// What the fault alone cannot say.
    pub(super) remark: Option<Remark>,
}

/// What a verdict's detail says beyond its fault.
pub(super) enum Remark {
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
    pub(super) fn detail(
        &self,
        bank: &TimeBank,
        limit: Duration,
        language: Option<bot::Language>,
    ) -> String {
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
pub(super) const START_RETRIES: [Duration; 3] = [
    Duration::from_millis(50),
    Duration::from_millis(250),
    Duration::from_millis(1000),
];

/// Starts a bot and freezes it until its first request. `Ok(Err(why))`: the
/// bot's own fault (its program cannot be run: [`bot::is_bots_fault`]);
/// `Err`: the system's, after [`START_RETRIES`].
pub(super) fn start(
    command: &BotCommand,
    limits: &ProcessLimits,
) -> Result<Result<BotProcess, std::io::Error>, MatchError> {
    let mut pauses = START_RETRIES.iter();
    loop {
        match BotProcess::spawn(command, limits) {
            Ok(mut process) => {
                process.freeze();
                return Ok(Ok(process));
            }
            Err(e) if bot::is_bots_fault(&e) => return Ok(Err(e)),
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
/// `idle` are the opponents' processes, stopped if the wait grows long (see
/// [`BotProcess::rest`]). `is_reply` tells a line the game would take as a
/// reply: of two lines written for one request, the one taken is the first,
/// unless only the second is one.
pub(super) fn exchange(
    player: &mut Player,
    seat: Seat,
    request: Option<&str>,
    limit: Duration,
    transcript: &mut TranscriptWriter,
    idle: Vec<&mut BotProcess>,
    is_reply: &dyn Fn(&str) -> bool,
) -> Result<String, Missed> {
    let process = player
        .process
        .as_mut()
        .expect("a playing seat has a process");
    let allowance = player.bank.allowance(limit);
    // The clock is read as few times as a move needs
    // (docs/measurements.md): before the request only for the transcript;
    // the write reads it only if the pipe is full.
    let mut sent = None;
    if let Some(request) = request.filter(|_| transcript.is_on()) {
        let now = Instant::now();
        transcript.message(now, seat, Direction::To, request);
        sent = Some(now);
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
    if let (Some(cpu), Ok(())) = (process.take_escape(), &result) {
        result = Err(Fault::RanWhileStopped { cpu });
    }
    let sent = match (request, &result) {
        (Some(request), Ok(())) => {
            result = process.send_line_within(request, allowance);
            match (&result, process.send_waited_from()) {
                // A write that waited and failed: the wait was its time.
                (Err(_), Some(from)) => sent.map_or(from, |before| before.min(from)),
                _ => Instant::now(),
            }
        }
        // Asked by the lines it has: its time starts once it runs.
        (None, _) => Instant::now(),
        (Some(_), Err(_)) => sent.unwrap_or_else(Instant::now),
    };
    let mut opponent = (!idle.is_empty()).then(|| Opponent::new(idle, sent));
    let result = result
        .and_then(|()| process.recv_reply(sent + allowance, allowance, opponent.as_mut(), sent))
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
    player.last_took = took;
    if let Some(cpu) = cpu {
        player.cpu_max = player.cpu_max.max(cpu);
    }
    if let Some(late) = player.bank.strike(limit, took) {
        player.strikes += 1;
        player.last_strike = late;
    }
    player.bank.charge(limit, took);
    transcript.reply(at, seat, &line, took, cpu);
    Ok(line)
}

/// Sends a line that expects no reply. A bot that cannot take it is judged
/// at its next request, not here: it may have ended after its last reply.
pub(super) fn send_notice(
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
    if transcript.is_on() {
        transcript.message(Instant::now(), seat, Direction::To, line);
    }
    player.heard.notified(line);
    let _ = process.send_notice_line(line, limits.time_limit);
}

pub(super) fn drain_stderr(player: &mut Player, seat: Seat, transcript: &mut TranscriptWriter) {
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
pub(super) struct StderrKept {
    pub(super) head: Vec<String>,
    /// Lines were left out: no later line goes to the head.
    pub(super) head_closed: bool,
    pub(super) tail: std::collections::VecDeque<String>,
    pub(super) left_out: usize,
}

pub(super) const STDERR_HEAD_LINES: usize = 10;
pub(super) const STDERR_TAIL_LINES: usize = 30;

impl StderrKept {
    /// `count` lines that were read but not kept (the process's cap): they
    /// and the tail so far are left out, in one gap.
    pub(super) fn skip(&mut self, count: usize) {
        self.left_out += count + self.tail.len();
        self.tail.clear();
        self.head_closed = true;
    }

    pub(super) fn push(&mut self, line: String) {
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

    pub(super) fn lines(&self) -> Vec<String> {
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
pub(super) struct Heard {
    /// Its last reply (empty before its first).
    pub(super) last_reply: String,
    /// The last line that takes no reply (the greeting, a notice) sent to
    /// it, and how many were sent since its last reply.
    pub(super) notice: String,
    pub(super) notices: usize,
}

impl Heard {
    pub(super) fn notified(&mut self, line: &str) {
        self.notice.clear();
        self.notice.push_str(line);
        self.notices += 1;
    }

    pub(super) fn replied(&mut self, line: &str) {
        self.last_reply.clear();
        self.last_reply.push_str(line);
        self.notices = 0;
    }

    /// The last line that takes no reply sent since its last reply.
    pub(super) fn last_notice(&self) -> Option<&str> {
        (self.notices > 0).then_some(self.notice.as_str())
    }
}

/// Where a line nobody asked for came, relative to the exchange under way.
pub(super) enum StrayPlace<'a> {
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
pub(super) fn stray_detail(
    heard: &Heard,
    replies: u32,
    lines: Vec<String>,
    place: StrayPlace,
) -> String {
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
