//! Swiss rounds: each round pairs bots of equal score, never twice the
//! same two, as a pure function of the results so far, so a tournament
//! killed at any moment resumes to the same rounds.
//!
//! - **Order.** Before each round the bots are ranked by score (match
//!   points, a bye included), then by their place in the tournament file.
//! - **Bye.** With an odd number of bots the lowest-ranked bot that has not
//!   had a bye sits the round out and scores as if it had won every game of
//!   a pairing (`games_per_pairing` x the win's points), as a chess bye
//!   counts a win.
//! - **Pairing.** The top unpaired bot meets the next one down it has not
//!   met; when that leaves the rest unpairable the search backtracks (the
//!   next candidate, then another bye). Only if no pairing without a repeat
//!   exists does a repeat come in, and then as few as the search finds.
//! - **Seats.** Each pairing plays `games_per_pairing` games in pairs with
//!   sides swapped and one seed per pair, as in a round robin: each bot
//!   starts as often as the other.
//! - **Final order.** Score, then Buchholz (the sum of the opponents'
//!   scores), then the rating of `standings.csv`, then file order
//!   (`swiss.csv`).

use std::collections::{BTreeMap, BTreeSet};

use super::plan::TournamentPlan;
use super::schedule::{game_seed, ScheduledGame};
use super::standings::GameRow;
use crate::games::Winner;

/// One round: its pairings (the higher-ranked bot first) and its bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub pairings: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// The rounds decided so far, the games of the round under way that are
/// not in `rows`, and each bot's score after the complete rounds.
#[derive(Clone, Debug)]
pub struct Progress {
    pub rounds: Vec<Round>,
    pub next: Vec<ScheduledGame>,
    pub scores: Vec<u64>,
    pub byes: Vec<u32>,
    /// Opponents met, per bot (a bye is none).
    pub opponents: Vec<Vec<usize>>,
}

/// Games of one round.
pub fn games_per_round(plan: &TournamentPlan) -> u64 {
    (plan.bots.len() / 2) as u64 * u64::from(plan.games_per_pairing)
}

/// All the games of the tournament.
pub fn total_games(plan: &TournamentPlan) -> u64 {
    u64::from(plan.rounds) * games_per_round(plan)
}

/// Points of game `row` for the bot `name`, by the plan's scoring.
pub(super) fn points_of(plan: &TournamentPlan, row: &GameRow, name: &str) -> u64 {
    let s = plan.scoring;
    let seat_a = row.bot_a == name;
    u64::from(match row.outcome() {
        Ok(Winner::Draw) | Err(_) => s.draw,
        Ok(Winner::A) if seat_a => s.win,
        Ok(Winner::B) if !seat_a => s.win,
        Ok(_) => s.loss,
    })
}

/// The games of pairing `p` of round `round` (1-based), numbered after
/// every game of the rounds before.
fn round_games(plan: &TournamentPlan, round: u32, pairings: &[(usize, usize)]) -> Vec<ScheduledGame> {
    let g = u64::from(plan.games_per_pairing);
    let base = u64::from(round - 1) * games_per_round(plan);
    let n = plan.bots.len() as u64;
    let mut out = vec![];
    for (p, &(x, y)) in pairings.iter().enumerate() {
        for k in 0..g {
            let (a, b) = if k % 2 == 0 { (x, y) } else { (y, x) };
            out.push(ScheduledGame {
                number: base + p as u64 * g + k + 1,
                a,
                b,
                seed: game_seed(plan.seed, u64::from(round - 1) * n + p as u64, k / 2),
            });
        }
    }
    out
}

/// Where the tournament stands after `rows` (any order, any subset).
pub fn progress(plan: &TournamentPlan, rows: &[GameRow]) -> Progress {
    let n = plan.bots.len();
    let by_number: BTreeMap<u64, &GameRow> = rows.iter().map(|r| (r.game, r)).collect();
    let mut scores = vec![0u64; n];
    let mut byes = vec![0u32; n];
    let mut opponents: Vec<Vec<usize>> = vec![vec![]; n];
    let mut rounds = vec![];
    for round in 1..=plan.rounds {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(scores[i]), i));
        let met: BTreeSet<(usize, usize)> = opponents
            .iter()
            .enumerate()
            .flat_map(|(i, o)| o.iter().map(move |&j| (i.min(j), i.max(j))))
            .collect();
        let r = pair_round(&order, &met, &byes);
        let games = round_games(plan, round, &r.pairings);
        let missing: Vec<ScheduledGame> = games
            .iter()
            .filter(|g| !by_number.contains_key(&g.number))
            .copied()
            .collect();
        if !missing.is_empty() {
            rounds.push(r);
            return Progress {
                rounds,
                next: missing,
                scores,
                byes,
                opponents,
            };
        }
        for g in &games {
            let row = by_number[&g.number];
            scores[g.a] += points_of(plan, row, &plan.bots[g.a].name);
            scores[g.b] += points_of(plan, row, &plan.bots[g.b].name);
        }
        for &(x, y) in &r.pairings {
            opponents[x].push(y);
            opponents[y].push(x);
        }
        if let Some(b) = r.bye {
            byes[b] += 1;
            scores[b] += u64::from(plan.scoring.win) * u64::from(plan.games_per_pairing);
        }
        rounds.push(r);
    }
    Progress {
        rounds,
        next: vec![],
        scores,
        byes,
        opponents,
    }
}

/// Pairs `order` (best first): a bye for the lowest-ranked bot without
/// one when the number is odd, then no repeated pairing if any pairing
/// avoids it.
pub fn pair_round(order: &[usize], met: &BTreeSet<(usize, usize)>, byes: &[u32]) -> Round {
    for allow_repeats in [false, true] {
        if order.len() % 2 == 0 {
            if let Some(pairings) = pair(order, met, allow_repeats) {
                return Round {
                    pairings,
                    bye: None,
                };
            }
            continue;
        }
        // The bye goes to the lowest-ranked bot with the fewest byes.
        let fewest = order.iter().map(|&i| byes[i]).min().unwrap_or(0);
        for (at, &candidate) in order.iter().enumerate().rev() {
            if byes[candidate] != fewest {
                continue;
            }
            let rest: Vec<usize> = order
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != at)
                .map(|(_, &b)| b)
                .collect();
            if let Some(pairings) = pair(&rest, met, allow_repeats) {
                return Round {
                    pairings,
                    bye: Some(candidate),
                };
            }
        }
    }
    unreachable!("with repeats allowed any even list pairs")
}

/// Backtracking: the first bot meets the highest-ranked bot after it that
/// it has not met (any, with `allow_repeats`), and the rest pair likewise.
fn pair(order: &[usize], met: &BTreeSet<(usize, usize)>, allow_repeats: bool) -> Option<Vec<(usize, usize)>> {
    let Some((&first, rest)) = order.split_first() else {
        return Some(vec![]);
    };
    for (at, &other) in rest.iter().enumerate() {
        if !allow_repeats && met.contains(&(first.min(other), first.max(other))) {
            continue;
        }
        let remaining: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, &b)| b)
            .collect();
        if let Some(mut pairs) = pair(&remaining, met, allow_repeats) {
            pairs.insert(0, (first, other));
            return Some(pairs);
        }
    }
    None
}

/// A row of `swiss.csv`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SwissRow {
    pub rank: usize,
    pub bot: String,
    pub score: u64,
    pub buchholz: u64,
    pub rating: f64,
    pub byes: u32,
    pub opponents: String,
}

/// The final order: score, Buchholz, rating, file order.
pub fn table(plan: &TournamentPlan, progress: &Progress, ratings: &BTreeMap<String, f64>) -> Vec<SwissRow> {
    let n = plan.bots.len();
    let buchholz: Vec<u64> = (0..n)
        .map(|i| progress.opponents[i].iter().map(|&j| progress.scores[j]).sum())
        .collect();
    let rating = |i: usize| ratings.get(&plan.bots[i].name).copied().unwrap_or(0.0);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| {
        progress.scores[y]
            .cmp(&progress.scores[x])
            .then(buchholz[y].cmp(&buchholz[x]))
            .then(rating(y).total_cmp(&rating(x)))
            .then(x.cmp(&y))
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| SwissRow {
            rank: rank + 1,
            bot: plan.bots[i].name.clone(),
            score: progress.scores[i],
            buchholz: buchholz[i],
            rating: (rating(i) * 10.0).round() / 10.0,
            byes: progress.byes[i],
            opponents: progress.opponents[i]
                .iter()
                .map(|&j| plan.bots[j].name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn met(pairs: &[(usize, usize)]) -> BTreeSet<(usize, usize)> {
        pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect()
    }

    /// Round 1 of 9 bots (all on 0, file order): 0-1, 2-3, 4-5, 6-7, and
    /// the last, 8, has the bye.
    #[test]
    fn odd_field_first_round_by_hand() {
        let order: Vec<usize> = (0..9).collect();
        let r = pair_round(&order, &met(&[]), &[0; 9]);
        assert_eq!(r.pairings, [(0, 1), (2, 3), (4, 5), (6, 7)]);
        assert_eq!(r.bye, Some(8));
    }

    /// The bye goes to the lowest-ranked bot without one: 8 had it, so 7.
    #[test]
    fn nobody_has_two_byes_while_another_has_none() {
        let order: Vec<usize> = (0..9).collect();
        let mut byes = [0; 9];
        byes[8] = 1;
        let r = pair_round(&order, &met(&[(0, 1), (2, 3), (4, 5), (6, 7)]), &byes);
        assert_eq!(r.bye, Some(7));
        // 0 cannot meet 1 again: it meets 2; 1 then meets 3 (not 2, taken).
        assert_eq!(r.pairings, [(0, 2), (1, 3), (4, 6), (5, 8)]);
    }

    /// Backtracking: 0-1 and 2-3 met; a greedy 0-2 would leave 1-3, then
    /// fine; but with 1-3 also met, 0 must take 3 so that 1 meets 2.
    #[test]
    fn repeats_are_avoided_by_backtracking() {
        let order = [0, 1, 2, 3];
        let r = pair_round(&order, &met(&[(0, 1), (2, 3), (1, 3)]), &[0; 4]);
        assert_eq!(r.pairings, [(0, 3), (1, 2)]);
        // Every pairing met already: a repeat is the only way.
        let all = met(&[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(pair_round(&order, &all, &[0; 4]).pairings, [(0, 1), (2, 3)]);
    }
}
