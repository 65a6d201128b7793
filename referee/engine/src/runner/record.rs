//! The end of a game: the verdicts settled and the [`MatchRecord`] made
//! from the game, the players and the transcript.

use super::*;

/// The end: tells each bot still playing the result, closes its stdin,
/// lets it go (or ends it), and judges its memory once more on the exact
/// peak the kernel kept.
pub(super) fn end_game(
    players: &mut [Player],
    plan: &Seating,
    outcome: Option<&Outcome>,
    ranks: Option<Vec<u32>>,
    transcript: &mut TranscriptWriter,
) {
    log_verdicts(players, transcript);
    let settled = settle(players, outcome, ranks);
    for player in players.iter_mut() {
        if let Some(process) = &mut player.process {
            process.measure_before_end();
        }
    }
    for seat in plan.seats() {
        let player = &mut players[seat.index()];
        if player.disqualification.is_none() {
            let line = protocol::end_line(settled.result_for(seat), &settled.reason);
            send_notice(player, seat, &line, plan.limits[seat.index()], transcript);
        }
    }
    for seat in plan.seats() {
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
pub(super) fn record_of<G: Game>(
    plan: &Seating,
    game: &G,
    players: &[Player],
    outcome: Option<&Outcome>,
    account: Vec<String>,
) -> MatchRecord {
    let Settled {
        winner,
        reason,
        ranks,
    } = settle(players, outcome, game.ranks());
    MatchRecord {
        version: RECORD_VERSION,
        game: plan.config.game_name().to_string(),
        variant: plan.config.variant_name(),
        seed: plan.seed,
        winner,
        first: game.first_to_move(),
        reason,
        ranks,
        scores: game.scores(),
        players: plan
            .seats()
            .into_iter()
            .map(|seat| {
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
                    strikes: player.strikes,
                    stderr_tail: if player.disqualification.is_some() {
                        player.stderr_kept.lines()
                    } else {
                        vec![]
                    },
                }
            })
            .collect(),
        replay: plan.replay.command(),
        plan: Some(plan.replay.clone()),
        account,
        frames: game.frames(),
    }
}

/// Writes each new disqualification to the transcript, at the time it was
/// reached (once per player).
pub(super) fn log_verdicts(players: &mut [Player], transcript: &mut TranscriptWriter) {
    for seat in Seat::all(players.len()) {
        let player = &mut players[seat.index()];
        if let (Some(at), Some(d)) = (player.disqualified_at.take(), &player.disqualification) {
            transcript.verdict(at, seat, d);
        }
    }
}
/// Lines of a compiler's message copied into the transcript.
pub(super) const COMPILER_LOG_LINES: usize = 200;

/// The result of a game, the verdicts counted.
pub(super) struct Settled {
    pub(super) winner: Winner,
    pub(super) reason: String,
    /// With more than two players, each one's place (see
    /// [`MatchRecord::ranks`]).
    pub(super) ranks: Option<Vec<u32>>,
}

impl Settled {
    /// What `seat` is told at the end: `win`, `loss` or `draw`.
    pub(super) fn result_for(&self, seat: Seat) -> &'static str {
        match &self.ranks {
            None => self.winner.result_for(seat),
            Some(ranks) => {
                let first = ranks.iter().filter(|r| **r == 0).count();
                match (ranks[seat.index()], first) {
                    (0, 1) => "win",
                    (0, _) => "draw",
                    _ => "loss",
                }
            }
        }
    }
}

/// The winner and reason given the rules' outcome and the verdicts. With
/// two players a disqualified player loses. With more, the players still
/// in keep the order of the rules' `ranks` (a lone survivor is first),
/// and every disqualified player shares the last place.
pub(super) fn settle(
    players: &[Player],
    outcome: Option<&Outcome>,
    ranks: Option<Vec<u32>>,
) -> Settled {
    let judged: Vec<bool> = players
        .iter()
        .map(|p| p.disqualification.is_some())
        .collect();
    if let [a, b] = judged.as_slice() {
        let (winner, reason) = match (a, b) {
            (true, true) => (Winner::Draw, "both-disqualified".into()),
            (true, false) => (Winner::B, "disqualified".into()),
            (false, true) => (Winner::A, "disqualified".into()),
            (false, false) => match outcome {
                Some(o) => (o.winner, o.reason.clone()),
                None => (Winner::Draw, UNFINISHED.into()),
            },
        };
        return Settled {
            winner,
            reason,
            ranks: None,
        };
    }
    let still_in = judged.iter().filter(|j| !**j).count();
    // The rules' order among the players still in; a game that stopped
    // without one (a lone survivor, an interruption) ties them.
    let order = match (&outcome, ranks) {
        (Some(_), Some(ranks)) if ranks.len() == players.len() => ranks,
        _ => vec![0; players.len()],
    };
    let keys: Vec<u32> = judged
        .iter()
        .zip(&order)
        .map(|(out, rank)| if *out { u32::MAX } else { *rank })
        .collect();
    let ranks = judge_game::competition_ranks(&keys);
    let reason = match outcome {
        Some(o) => o.reason.clone(),
        None if still_in == 1 => "disqualified".into(),
        None if still_in == 0 => "all-disqualified".into(),
        None => UNFINISHED.into(),
    };
    Settled {
        winner: judge_game::winner_of_ranks(&ranks),
        reason,
        ranks: Some(ranks),
    }
}
