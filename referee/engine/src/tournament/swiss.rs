//! Swiss rounds: each round pairs bots of equal score, never twice the
//! same two, as a pure function of the results so far, so a tournament
//! killed at any moment resumes to the same rounds. Only results move a
//! bot: its name, speed or output other than its games' results play no
//! part in its pairings.
//!
//! - **Order.** Before each round the bots are ranked by score (match
//!   points, a bye's included), then by their place in the tournament file.
//! - **Bye.** With an odd number of bots the lowest-ranked bot with the
//!   fewest byes (none, as rounds are at most bots - 1) sits the round out
//!   and scores as if it had won every game of a pairing
//!   (`games_per_pairing` x the win's points).
//! - **Pairing.** Down the order, the highest unpaired bot meets the next
//!   one down it has not met; when that leaves the rest unpairable the
//!   search backtracks (the next candidate; with an odd field, the next
//!   bye). Bots of one score thus meet when they can, and a bot that cannot
//!   floats down to the next score. Late in a tournament no pairing without
//!   a repeat may exist (six bots can be left as two groups of three that
//!   have all met the other group); then, or if the search takes more than
//!   [`SEARCH_STEPS`] steps, each bot in turn meets the next one down it
//!   has not met, else the next one down: repeats, as few as that finds.
//! - **Games.** Each pairing plays `games_per_pairing` games in pairs with
//!   sides swapped, the higher-ranked bot at seat A in the first game of
//!   each pair; round after round, game numbers run on.
//! - **Final order** (`swiss.csv`): score, then Buchholz (the sum of the
//!   final scores of the bots met; a bye adds nothing), then the rating
//!   of `standings.csv`, then the file's order.

pub use crate::model::tournament::SwissRow;
use std::collections::BTreeMap;

use super::plan::TournamentPlan;
use super::rounds::{Block, OffSchedule, Pairing, Results, RoundRow, Tally};

/// The most steps the search for a round without repeats takes before it
/// settles for repeats: a bound on the time a round's pairing can take,
/// counted in steps so that it is the same on every machine.
pub const SEARCH_STEPS: u64 = 200_000;

/// One round: its pairings (the higher-ranked bot first) and its bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub pairings: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// A Swiss tournament as far as its results go: the rounds complete, the
/// round under way, each bot's score, byes and opponents. Fed the results
/// with [`Swiss::advance`], which moves on through every complete round.
#[derive(Clone, Debug)]
pub struct Swiss {
    rounds: u32,
    games_each: u64,
    bye_points: u64,
    pub scores: Vec<u64>,
    pub byes: Vec<u32>,
    /// Opponents met, per bot, round by round (a bye is none).
    pub opponents: Vec<Vec<usize>>,
    met: Vec<bool>,
    /// The rounds paired so far, with their tallies once complete.
    pub played: Vec<(Round, Option<Vec<Tally>>)>,
    next_number: u64,
}

impl Swiss {
    pub fn new(plan: &TournamentPlan) -> Swiss {
        let n = plan.bots.len();
        let games_each = u64::from(plan.games_per_pairing);
        Swiss {
            rounds: plan.rounds,
            games_each,
            bye_points: games_each * u64::from(plan.scoring.win),
            scores: vec![0; n],
            byes: vec![0; n],
            opponents: vec![vec![]; n],
            met: vec![false; n * n],
            played: vec![],
            next_number: 1,
        }
    }

    fn n(&self) -> usize {
        self.scores.len()
    }

    /// Moves on through the rounds whose games `results` holds; returns the
    /// games of the first round that is not complete (some of them may be
    /// played), or `None` when every round is.
    pub fn advance(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
    ) -> Result<Option<Block>, OffSchedule> {
        loop {
            let round_index = match self.played.last() {
                Some((_, None)) => self.played.len() - 1,
                _ if self.played.len() as u32 == self.rounds => return Ok(None),
                _ => {
                    let round = self.pair_next();
                    self.played.push((round, None));
                    self.played.len() - 1
                }
            };
            let block = self.block(round_index);
            let Some(tallies) = block.tally(plan, results)? else {
                return Ok(Some(block));
            };
            let round = self.played[round_index].0.clone();
            for (&(x, y), t) in round.pairings.iter().zip(&tallies) {
                let (px, py) = t.points(plan);
                self.scores[x] += px;
                self.scores[y] += py;
                self.opponents[x].push(y);
                self.opponents[y].push(x);
                let n = self.n();
                self.met[x * n + y] = true;
                self.met[y * n + x] = true;
            }
            if let Some(b) = round.bye {
                self.byes[b] += 1;
                self.scores[b] += self.bye_points;
            }
            self.next_number = block.end();
            self.played[round_index].1 = Some(tallies);
        }
    }

    /// The games of round `index` (0-based), numbered after the rounds
    /// before.
    fn block(&self, index: usize) -> Block {
        let n = self.n() as u64;
        let round = &self.played[index].0;
        Block {
            first: self.next_number,
            games_each: self.games_each,
            pairings: round
                .pairings
                .iter()
                .enumerate()
                .map(|(table, &(x, y))| Pairing {
                    x,
                    y,
                    place: index as u64 * n + table as u64,
                    pairs_before: 0,
                })
                .collect(),
        }
    }

    /// The standing order before a round: score, then file order.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.n()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.scores[i]), i));
        order
    }

    fn pair_next(&self) -> Round {
        let n = self.n();
        pair_round(&self.order(), |x, y| self.met[x * n + y], &self.byes)
    }

    /// Every pairing so far, round by round, with its points once played
    /// (`rounds.csv`).
    pub fn round_rows(&self, plan: &TournamentPlan) -> Vec<RoundRow> {
        let name = |i: usize| plan.bots[i].name.clone();
        let mut rows = vec![];
        for (r, (round, tallies)) in self.played.iter().enumerate() {
            for (table, &(x, y)) in round.pairings.iter().enumerate() {
                let points = tallies.as_ref().map(|t| t[table].points(plan));
                rows.push(RoundRow {
                    round: r as u32 + 1,
                    table: table + 1,
                    bot_a: name(x),
                    bot_b: name(y),
                    points_a: points.map(|p| p.0),
                    points_b: points.map(|p| p.1),
                });
            }
            if let Some(b) = round.bye {
                rows.push(RoundRow {
                    round: r as u32 + 1,
                    table: round.pairings.len() + 1,
                    bot_a: name(b),
                    bot_b: String::new(),
                    points_a: tallies.as_ref().map(|_| self.bye_points),
                    points_b: None,
                });
            }
        }
        rows
    }

    /// The final order (`swiss.csv`): score, Buchholz, rating (by bot
    /// name, from the standings), file order.
    pub fn table(&self, plan: &TournamentPlan, ratings: &BTreeMap<String, f64>) -> Vec<SwissRow> {
        let n = self.n();
        let buchholz: Vec<u64> = (0..n)
            .map(|i| self.opponents[i].iter().map(|&j| self.scores[j]).sum())
            .collect();
        let rating = |i: usize| ratings.get(&plan.bots[i].name).copied().unwrap_or(0.0);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&x, &y| {
            self.scores[y]
                .cmp(&self.scores[x])
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
                score: self.scores[i],
                buchholz: buchholz[i],
                rating: rating(i),
                byes: self.byes[i],
                opponents: self.opponents[i]
                    .iter()
                    .map(|&j| plan.bots[j].name.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect()
    }

    /// Rounds complete.
    pub fn rounds_complete(&self) -> u32 {
        self.played.iter().filter(|(_, t)| t.is_some()).count() as u32
    }
}

/// Games of one Swiss round.
pub fn games_per_round(plan: &TournamentPlan) -> u64 {
    (plan.bots.len() / 2) as u64 * u64::from(plan.games_per_pairing)
}

/// All the games of a Swiss tournament.
pub fn total_games(plan: &TournamentPlan) -> u64 {
    u64::from(plan.rounds) * games_per_round(plan)
}

/// Pairs `order` (best first; `met(x, y)`: whether x and y have met): a
/// bye for the lowest-ranked bot with the fewest byes when the number is
/// odd, then no repeated pairing if the search finds one (see the module's
/// doc).
pub fn pair_round(order: &[usize], met: impl Fn(usize, usize) -> bool, byes: &[u32]) -> Round {
    let mut steps = SEARCH_STEPS;
    let bye_candidates: Vec<Option<usize>> = if order.len() % 2 == 0 {
        vec![None]
    } else {
        let fewest = order.iter().map(|&i| byes[i]).min().unwrap_or(0);
        order
            .iter()
            .rev()
            .filter(|&&i| byes[i] == fewest)
            .map(|&i| Some(i))
            .collect()
    };
    for &bye in &bye_candidates {
        let rest: Vec<usize> = order.iter().copied().filter(|&i| Some(i) != bye).collect();
        let mut used = vec![false; rest.len()];
        let mut pairings = vec![];
        if search(&rest, &met, &mut used, &mut pairings, &mut steps) {
            return Round { pairings, bye };
        }
        if steps == 0 {
            break;
        }
    }
    // No round without a repeat (or none found in time): the fewest
    // repeats a greedy pass finds, with the first bye candidate.
    let bye = bye_candidates[0];
    let rest: Vec<usize> = order.iter().copied().filter(|&i| Some(i) != bye).collect();
    let mut used = vec![false; rest.len()];
    let mut pairings = vec![];
    for i in 0..rest.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let free = |j: &usize| !used[*j];
        let j = (i + 1..rest.len())
            .filter(free)
            .find(|&j| !met(rest[i], rest[j]))
            .or_else(|| (i + 1..rest.len()).find(free))
            .expect("an even number of bots pairs");
        used[j] = true;
        pairings.push((rest[i], rest[j]));
    }
    Round { pairings, bye }
}

/// Backtracking: the highest unpaired bot meets the highest unpaired bot
/// below it that it has not met, and the rest pair likewise; false if no
/// way exists or the steps run out.
fn search(
    order: &[usize],
    met: &impl Fn(usize, usize) -> bool,
    used: &mut [bool],
    pairings: &mut Vec<(usize, usize)>,
    steps: &mut u64,
) -> bool {
    let Some(first) = used.iter().position(|u| !u) else {
        return true;
    };
    used[first] = true;
    for other in first + 1..order.len() {
        if used[other] || met(order[first], order[other]) {
            continue;
        }
        if *steps == 0 {
            break;
        }
        *steps -= 1;
        used[other] = true;
        pairings.push((order[first], order[other]));
        if search(order, met, used, pairings, steps) {
            return true;
        }
        pairings.pop();
        used[other] = false;
    }
    used[first] = false;
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Winner;
    use crate::tournament::rounds::tests::play;
    use std::collections::BTreeSet;
    use std::path::Path;

    fn plan(names: &[&str], rounds: u32) -> TournamentPlan {
        let mut text = format!("game = \"arrow5\"\nformat = \"swiss\"\nrounds = {rounds}\n");
        for name in names {
            text.push_str(&format!("[[bots]]\nname = \"{name}\"\nbot = \"true\"\n"));
        }
        TournamentPlan::parse(Path::new("t.toml"), &text).unwrap()
    }

    /// Plays a Swiss to its end with `result` deciding each game; the
    /// state, and each round's pairings as bot names.
    fn play_out(
        plan: &TournamentPlan,
        result: impl Fn(&str, &str, u64) -> Winner,
    ) -> (Swiss, Vec<Vec<String>>) {
        let mut results = Results::default();
        let mut swiss = Swiss::new(plan);
        let mut rounds = vec![];
        while let Some(block) = swiss.advance(plan, &results).unwrap() {
            play(plan, &mut results, &block, &result);
            rounds.push(
                block
                    .pairings
                    .iter()
                    .map(|p| format!("{}-{}", plan.bots[p.x].name, plan.bots[p.y].name))
                    .collect(),
            );
        }
        // The same rows fed at once, to a fresh state, give the same rounds.
        let mut again = Swiss::new(plan);
        assert_eq!(again.advance(plan, &results).unwrap(), None);
        assert_eq!(again.played, swiss.played);
        (swiss, rounds)
    }

    /// The lower number wins: kN beats kM when N < M; equal numbers draw.
    fn stronger(a: &str, b: &str, _: u64) -> Winner {
        let n = |s: &str| {
            s.trim_start_matches(char::is_alphabetic)
                .parse::<u32>()
                .unwrap()
        };
        match n(a).cmp(&n(b)) {
            std::cmp::Ordering::Less => Winner::A,
            std::cmp::Ordering::Greater => Winner::B,
            std::cmp::Ordering::Equal => Winner::Draw,
        }
    }

    /// Five bots, three rounds (a bye scores 2 games x 2 points = 4):
    /// - R1, file order: k1-x2, y2-k3; bye k4, the last.
    /// - R2, order k1 y2 k4 (4) x2 k3 (0): bye k3, the lowest without one;
    ///   k1-y2, k4-x2 (x2 wins: it is the stronger).
    /// - R3, order k1 (8) x2 y2 k3 k4 (4): bye y2, the lowest of k1 x2 y2
    ///   (the others had theirs). k1 has met x2, so k1-k3 first; that
    ///   leaves x2-k4, who met in R2, so the search backtracks: k1-k4 and
    ///   x2-k3.
    ///
    /// Scores k1 12, x2 8, y2 8 (a bye), k3 4 (a bye), k4 4 (a bye).
    /// Buchholz: k1 8+8+4, x2 12+4+4, y2 4+12, k3 8+8, k4 8+12: x2 (20)
    /// ranks above y2 (16), and k4 (20) above k3 (16).
    #[test]
    fn five_bots_by_hand() {
        let plan = plan(&["k1", "x2", "y2", "k3", "k4"], 3);
        let (swiss, rounds) = play_out(&plan, stronger);
        assert_eq!(
            rounds,
            [["k1-x2", "y2-k3"], ["k1-y2", "k4-x2"], ["k1-k4", "x2-k3"]]
        );
        let byes: Vec<Option<usize>> = swiss.played.iter().map(|(r, _)| r.bye).collect();
        assert_eq!(byes, [Some(4), Some(3), Some(2)]);
        assert_eq!(swiss.scores, [12, 8, 8, 4, 4]);
        let table = swiss.table(&plan, &BTreeMap::new());
        let order: Vec<(&str, u64, u64)> = table
            .iter()
            .map(|r| (r.bot.as_str(), r.score, r.buchholz))
            .collect();
        assert_eq!(
            order,
            [
                ("k1", 12, 20),
                ("x2", 8, 20),
                ("y2", 8, 16),
                ("k4", 4, 20),
                ("k3", 4, 16)
            ]
        );
    }

    /// Equal scores and Buchholz: the rating decides, then the file order.
    #[test]
    fn ties_go_to_the_rating_then_the_file_order() {
        let plan = plan(&["a", "b", "c", "d"], 1);
        let (swiss, _) = play_out(&plan, |_, _, _| Winner::Draw);
        assert_eq!(swiss.scores, [2, 2, 2, 2]);
        let names = |ratings: &BTreeMap<String, f64>| -> Vec<String> {
            swiss
                .table(&plan, ratings)
                .into_iter()
                .map(|r| r.bot)
                .collect()
        };
        assert_eq!(names(&BTreeMap::new()), ["a", "b", "c", "d"]);
        let ratings: BTreeMap<String, f64> = [("c".to_string(), 5.0), ("b".to_string(), -5.0)]
            .into_iter()
            .collect();
        assert_eq!(names(&ratings), ["c", "a", "d", "b"]);
    }

    /// Names play no part: the same results under other names (sorting
    /// the other way) give the same pairings, by place in the file.
    #[test]
    fn names_do_not_move_a_bot() {
        let first = plan(&["k1", "k2", "k3", "k4", "k5", "k6"], 4);
        let renamed = plan(&["z1", "y2", "x3", "w4", "v5", "u6"], 4);
        let (a, _) = play_out(&first, stronger);
        let (b, _) = play_out(&renamed, stronger);
        assert_eq!(a.played, b.played);
    }

    fn met(pairs: &[(usize, usize)]) -> impl Fn(usize, usize) -> bool {
        let set: BTreeSet<(usize, usize)> =
            pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        move |a, b| set.contains(&(a.min(b), a.max(b)))
    }

    /// Round 1 of 9 bots (all on 0, file order): 0-1, 2-3, 4-5, 6-7, and
    /// the last, 8, has the bye.
    #[test]
    fn odd_field_first_round_by_hand() {
        let order: Vec<usize> = (0..9).collect();
        let r = pair_round(&order, met(&[]), &[0; 9]);
        assert_eq!(r.pairings, [(0, 1), (2, 3), (4, 5), (6, 7)]);
        assert_eq!(r.bye, Some(8));
    }

    /// The bye goes to the lowest-ranked bot without one: 8 had it, so 7.
    #[test]
    fn nobody_has_two_byes_while_another_has_none() {
        let order: Vec<usize> = (0..9).collect();
        let mut byes = [0; 9];
        byes[8] = 1;
        let r = pair_round(&order, met(&[(0, 1), (2, 3), (4, 5), (6, 7)]), &byes);
        assert_eq!(r.bye, Some(7));
        // 0 cannot meet 1 again: it meets 2; 1 then meets 3 (2 is taken);
        // 4 meets 6 (not 5); 5 meets 8.
        assert_eq!(r.pairings, [(0, 2), (1, 3), (4, 6), (5, 8)]);
    }

    /// Backtracking: with 0-1, 2-3 and 1-3 met, a greedy 0-2 would leave
    /// 1-3, a repeat; so 0 takes 3 and 1 meets 2.
    #[test]
    fn repeats_are_avoided_by_backtracking() {
        let order = [0, 1, 2, 3];
        let r = pair_round(&order, met(&[(0, 1), (2, 3), (1, 3)]), &[0; 4]);
        assert_eq!(r.pairings, [(0, 3), (1, 2)]);
    }

    /// An odd field where the last bot cannot take the bye without leaving
    /// a repeat: the bye moves up to the next bot.
    #[test]
    fn the_bye_moves_up_when_the_rest_cannot_pair() {
        // 0 and 1 met; 2 is last. Bye to 2 leaves 0-1, a repeat; bye to 1
        // leaves 0-2.
        let r = pair_round(&[0, 1, 2], met(&[(0, 1)]), &[0; 3]);
        assert_eq!(
            r,
            Round {
                pairings: vec![(0, 2)],
                bye: Some(1)
            }
        );
        // 2 had a bye already: 1 has it, though the order puts 2 last.
        let r = pair_round(&[0, 1, 2], met(&[]), &[0, 0, 1]);
        assert_eq!(
            r,
            Round {
                pairings: vec![(0, 2)],
                bye: Some(1)
            }
        );
    }

    /// Six bots that have all met the other group of three: no round
    /// without a repeat exists. The fallback meets 0-1 and 4-5 (not met)
    /// and repeats 2-3, the one repeat any pairing needs.
    #[test]
    fn when_a_repeat_is_unavoidable_there_is_one() {
        let crossed = [
            (0, 3),
            (1, 4),
            (2, 5),
            (0, 4),
            (1, 5),
            (2, 3),
            (0, 5),
            (1, 3),
            (2, 4),
        ];
        let r = pair_round(&[0, 1, 2, 3, 4, 5], met(&crossed), &[0; 6]);
        assert_eq!(
            r,
            Round {
                pairings: vec![(0, 1), (2, 3), (4, 5)],
                bye: None
            }
        );
        // Every pairing met already: repeats in order.
        let all = met(&[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(
            pair_round(&[0, 1, 2, 3], all, &[0; 4]).pairings,
            [(0, 1), (2, 3)]
        );
    }

    /// A thousand bots in two groups of odd size (501 and 499) where every
    /// bot has met the whole other group: no round without a repeat exists,
    /// and the search, which could try pairings within a group for ever,
    /// stops after its steps. The fallback pairs each group within itself
    /// and repeats one pairing across: 500 meets 501 again.
    #[test]
    fn a_hopeless_search_is_bounded() {
        let n = 1000;
        let group = |x: usize| x < 501;
        let order: Vec<usize> = (0..n).collect();
        let r = pair_round(&order, |x, y| group(x) != group(y), &vec![0; n]);
        let mut seen = BTreeSet::new();
        for &(x, y) in &r.pairings {
            assert!(seen.insert(x) && seen.insert(y), "{x} or {y} paired twice");
        }
        assert_eq!(seen.len(), n);
        let repeats: Vec<_> = r
            .pairings
            .iter()
            .filter(|&&(x, y)| group(x) != group(y))
            .collect();
        assert_eq!(repeats, [&(500, 501)]);
    }
}
