//! The end of a game: the verdicts settled and the [`MatchRecord`] made
//! from the game, the players and the transcript.

use super::*;

/// The end: tells each bot still playing the result, closes its stdin,
/// lets it go (or ends it), and judges its memory once more on the exact
/// peak the kernel kept.
pub(super) fn end_game(
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
pub(super) fn record_of<G: Game>(
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
                strikes: player.strikes,
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
        frames: game.frames(),
    }
}

/// Writes each new disqualification to the transcript, at the time it was
/// reached (once per player).
pub(super) fn log_verdicts(players: &mut [Player; 2], transcript: &mut TranscriptWriter) {
    for seat in Seat::BOTH {
        let player = &mut players[seat.index()];
        if let (Some(at), Some(d)) = (player.disqualified_at.take(), &player.disqualification) {
            transcript.verdict(at, seat, d);
        }
    }
}
/// Lines of a compiler's message copied into the transcript.
pub(super) const COMPILER_LOG_LINES: usize = 200;

/// The winner and reason given the rules' outcome and the verdicts.
pub(super) fn settle(players: &[Player; 2], outcome: Option<&Outcome>) -> (Winner, String) {
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
