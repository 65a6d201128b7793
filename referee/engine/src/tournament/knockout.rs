//! A knockout: a single-elimination bracket, as a pure function of the
//! seeds and the results so far, so a tournament killed at any moment
//! resumes to the same matches.
//!
//! - **Seeds.** Seed 1 is the first bot of the file, or the best rated of
//!   `seeds_from` (see [`super::plan`]).
//! - **Bracket.** The field is filled up to a power of two, P, with byes;
//!   round 1 pairs seed s with seed P + 1 - s, placed so that seeds 1 and 2
//!   can meet only in the final, 1 to 4 only in the semi-finals, and so on
//!   (P = 8: 1-8, 4-5, 2-7, 3-6). A bye goes to the top seeds: a seed whose
//!   opponent would be beyond the field goes through without playing.
//! - **Match.** `games_per_pairing` games in pairs with sides swapped, the
//!   higher seed at seat A in the first game of each pair. The bot that won
//!   more games goes through.
//! - **Drawn match.** Up to `tiebreak_pairs` pairs of games more, one pair
//!   at a time, until one bot has won more games of the match; if still
//!   level, the higher seed goes through (it earned the seed; a bot cannot
//!   gain by drawing on purpose unless it is the better seed already).
//! - **Numbering.** Round by round: the matches' games in bracket order,
//!   then each tie-break pair of the drawn matches, step by step; game
//!   numbers run on.

use super::plan::TournamentPlan;
use super::rounds::{Block, OffSchedule, Pairing, Results, RoundRow, Tally};
pub use crate::model::tournament::{rounds_reached, BracketRow};

/// The seed numbers (1-based) of a bracket of `size` (a power of two) in
/// bracket order: consecutive two meet in round 1.
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let next = 2 * order.len();
        order = order.iter().flat_map(|&s| [s, next + 1 - s]).collect();
    }
    order
}

/// How a match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// Not yet.
    Pending,
    /// No opponent: through without playing.
    Bye,
    /// By the match's games.
    Games,
    /// By its tie-break pairs.
    Tiebreak,
    /// Level after every tie-break pair: the higher seed.
    HigherSeed,
}

impl Decided {
    pub fn name(self) -> &'static str {
        match self {
            Decided::Pending => "",
            Decided::Bye => "bye",
            Decided::Games => "games",
            Decided::Tiebreak => "tie-break",
            Decided::HigherSeed => "higher seed",
        }
    }
}

/// One match of the bracket: the higher seed `x`, its opponent `y` (none
/// for a bye), and what their games came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// Bot indices and their seeds (1-based).
    pub x: (usize, usize),
    pub y: Option<(usize, usize)>,
    pub games: Tally,
    /// Tie-break games played (in pairs).
    pub tiebreak_games: u64,
    pub winner: Option<(usize, usize)>,
    pub decided: Decided,
}

/// The bracket as far as the results go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bracket {
    /// The bracket's size (a power of two).
    pub size: usize,
    /// Round by round, in bracket order; later rounds once their matches'
    /// bots are known.
    pub rounds: Vec<Vec<Match>>,
    /// The games to play next (some may be played), if the knockout is not
    /// over.
    pub next: Option<Block>,
    /// Games of tie-break pairs so far: played, or to play next.
    pub tiebreak_games: u64,
}

/// Rounds of a bracket of `size`.
pub fn round_count(size: usize) -> u32 {
    size.trailing_zeros()
}

/// A round's name: the final, the semi-finals, ..., else the round of N.
pub fn round_name(size: usize, round: u32) -> String {
    let left = size >> (round - 1);
    match left {
        2 => "Final".into(),
        4 => "Semi-finals".into(),
        8 => "Quarter-finals".into(),
        n => format!("Round of {n}"),
    }
}

/// The games of a knockout: every match is a knockout match, so n bots
/// play n - 1 matches; tie-breaks come on top.
pub fn games_without_tiebreaks(plan: &TournamentPlan) -> u64 {
    (plan.bots.len() as u64 - 1) * u64::from(plan.games_per_pairing)
}

/// Walks the bracket through `results`: every match decided so far, and
/// the games to play next.
pub fn bracket(plan: &TournamentPlan, results: &Results) -> Result<Bracket, OffSchedule> {
    bracket_of(plan, &plan.seeds, Start::default(), results)
}

/// Where a knockout's games begin: the first game number, and the first
/// place for the games' seeds (after a stage before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub number: u64,
    pub place: u64,
}

impl Default for Start {
    fn default() -> Start {
        Start {
            number: 1,
            place: 0,
        }
    }
}

/// [`bracket`] of the bots `seeds` (bot indices, seed 1 first), its games
/// numbered from `start`.
pub fn bracket_of(
    plan: &TournamentPlan,
    seeds: &[usize],
    start: Start,
    results: &Results,
) -> Result<Bracket, OffSchedule> {
    let n = seeds.len();
    let size = n.next_power_of_two();
    let games_each = u64::from(plan.games_per_pairing);
    let mut next_number = start.number;
    // Round 1: seed s against seed size + 1 - s, a bye beyond the field.
    let entrants: Vec<Option<(usize, usize)>> = bracket_order(size)
        .into_iter()
        .map(|s| (s <= n).then(|| (seeds[s - 1], s)))
        .collect();
    let mut rounds: Vec<Vec<Match>> = vec![];
    let mut tiebreak_games = 0;
    let mut entrants = entrants;
    for round in 1..=round_count(size) {
        let mut matches: Vec<Match> = entrants
            .chunks(2)
            .map(|two| {
                let (x, y) = match (two[0], two[1]) {
                    (Some(a), Some(b)) if b.1 < a.1 => (b, Some(a)),
                    (Some(a), b) => (a, b),
                    (None, Some(b)) => (b, None),
                    (None, None) => unreachable!("byes only meet real bots"),
                };
                let bye = y.is_none();
                Match {
                    x,
                    y,
                    games: Tally::default(),
                    tiebreak_games: 0,
                    winner: bye.then_some(x),
                    decided: if bye { Decided::Bye } else { Decided::Pending },
                }
            })
            .collect();
        let place = |slot: usize| start.place + u64::from(round - 1) * size as u64 + slot as u64;
        // The matches' games, then tie-break pairs for the drawn ones.
        for step in 0..=plan.tiebreak_pairs {
            let open: Vec<usize> = (0..matches.len())
                .filter(|&m| matches[m].decided == Decided::Pending)
                .collect();
            if open.is_empty() {
                break;
            }
            let each = if step == 0 { games_each } else { 2 };
            let block = Block {
                first: next_number,
                games_each: each,
                pairings: open
                    .iter()
                    .map(|&m| Pairing {
                        x: matches[m].x.0,
                        y: matches[m].y.expect("an open match has two bots").0,
                        place: place(m),
                        pairs_before: if step == 0 {
                            0
                        } else {
                            games_each / 2 + u64::from(step) - 1
                        },
                    })
                    .collect(),
            };
            if step > 0 {
                tiebreak_games += block.len();
            }
            let Some(tallies) = block.tally(plan, results)? else {
                rounds.push(matches);
                return Ok(Bracket {
                    size,
                    rounds,
                    next: Some(block),
                    tiebreak_games,
                });
            };
            next_number = block.end();
            for (&m, t) in open.iter().zip(&tallies) {
                let one = &mut matches[m];
                one.games.add(*t);
                if step > 0 {
                    one.tiebreak_games += each;
                }
                let y = one.y.expect("an open match has two bots");
                if one.games.x_wins != one.games.y_wins {
                    one.winner = Some(if one.games.x_wins > one.games.y_wins {
                        one.x
                    } else {
                        y
                    });
                    one.decided = if step == 0 {
                        Decided::Games
                    } else {
                        Decided::Tiebreak
                    };
                } else if step == plan.tiebreak_pairs {
                    one.winner = Some(one.x);
                    one.decided = Decided::HigherSeed;
                }
            }
        }
        entrants = matches.iter().map(|m| m.winner).collect();
        rounds.push(matches);
    }
    Ok(Bracket {
        size,
        rounds,
        next: None,
        tiebreak_games,
    })
}

impl Bracket {
    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<usize> {
        match self.rounds.last()?.as_slice() {
            [last] if self.rounds.len() as u32 == round_count(self.size) => {
                last.winner.map(|w| w.0)
            }
            _ => None,
        }
    }

    /// `bracket.csv`: every match so far.
    pub fn rows(&self, plan: &TournamentPlan) -> Vec<BracketRow> {
        let name = |i: usize| plan.bots[i].name.clone();
        let mut rows = vec![];
        for (r, matches) in self.rounds.iter().enumerate() {
            for (slot, m) in matches.iter().enumerate() {
                rows.push(BracketRow {
                    round: r as u32 + 1,
                    stage: round_name(self.size, r as u32 + 1),
                    slot: slot + 1,
                    seed_a: m.x.1,
                    bot_a: name(m.x.0),
                    seed_b: m.y.map(|y| y.1),
                    bot_b: m.y.map(|y| name(y.0)).unwrap_or_default(),
                    wins_a: m.games.x_wins,
                    wins_b: m.games.y_wins,
                    draws: m.games.draws,
                    tiebreak_games: m.tiebreak_games,
                    winner: m.winner.map(|w| name(w.0)).unwrap_or_default(),
                    decided_by: m.decided.name().into(),
                });
            }
        }
        rows
    }

    /// `rounds.csv`: the matches with their match points.
    pub fn round_rows(&self, plan: &TournamentPlan) -> Vec<RoundRow> {
        let mut rows = vec![];
        for (r, matches) in self.rounds.iter().enumerate() {
            for (slot, m) in matches.iter().enumerate() {
                let played = m.decided != Decided::Pending && m.y.is_some();
                let (pa, pb) = m.games.points(plan);
                rows.push(RoundRow {
                    round: r as u32 + 1,
                    table: slot + 1,
                    bot_a: plan.bots[m.x.0].name.clone(),
                    bot_b: m.y.map(|y| plan.bots[y.0].name.clone()).unwrap_or_default(),
                    points_a: played.then_some(pa),
                    points_b: played.then_some(pb),
                });
            }
        }
        rows
    }

    /// `bracket.txt` and the terminal: round by round, each match as
    /// `(seed) bot  wins-wins  (seed) bot  -> winner`, then the champion.
    pub fn text(&self, plan: &TournamentPlan) -> String {
        let name = |i: usize| crate::text::escape(&plan.bots[i].name);
        let width = plan
            .bots
            .iter()
            .map(|b| crate::text::escape(&b.name).chars().count())
            .max()
            .unwrap_or(0)
            + 5;
        let mut out = String::new();
        for (r, matches) in self.rounds.iter().enumerate() {
            out.push_str(&round_name(self.size, r as u32 + 1));
            out.push('\n');
            for m in matches {
                let x = format!("({}) {}", m.x.1, name(m.x.0));
                let Some(y) = m.y else {
                    out.push_str(&format!("  {x:<width$}  bye\n"));
                    continue;
                };
                let y_text = format!("({}) {}", y.1, name(y.0));
                let score = if m.games == Tally::default() && m.decided == Decided::Pending {
                    "  -  ".to_string()
                } else {
                    format!("{:>2}-{:<2}", m.games.x_wins, m.games.y_wins)
                };
                let how = match m.decided {
                    Decided::Pending => String::new(),
                    Decided::Tiebreak => format!(
                        "  -> {} (after {} tie-break games)",
                        m.winner.map(|w| name(w.0)).unwrap_or_default(),
                        m.tiebreak_games
                    ),
                    Decided::HigherSeed => format!(
                        "  -> {} (level after {} tie-break games: the higher seed)",
                        m.winner.map(|w| name(w.0)).unwrap_or_default(),
                        m.tiebreak_games
                    ),
                    _ => format!("  -> {}", m.winner.map(|w| name(w.0)).unwrap_or_default()),
                };
                let draws = if m.games.draws > 0 {
                    format!(" ({} drawn)", m.games.draws)
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "  {x:<width$} {score} {y_text:<width$}{draws}{how}\n"
                ));
            }
        }
        if let Some(c) = self.champion() {
            out.push_str(&format!("Champion: {}\n", name(c)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Winner;
    use crate::tournament::rounds::tests::play;
    use std::path::Path;

    #[test]
    fn seeds_one_and_two_meet_only_in_the_final() {
        assert_eq!(bracket_order(1), [1]);
        assert_eq!(bracket_order(2), [1, 2]);
        assert_eq!(bracket_order(4), [1, 4, 2, 3]);
        assert_eq!(bracket_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(round_count(8), 3);
        assert_eq!(round_name(8, 1), "Quarter-finals");
        assert_eq!(round_name(8, 3), "Final");
        assert_eq!(round_name(32, 1), "Round of 32");
    }

    fn plan(bots: usize, extra: &str) -> TournamentPlan {
        let mut text = format!("game = \"arrow5\"\nformat = \"knockout\"\n{extra}\n");
        for i in 1..=bots {
            text.push_str(&format!("[[bots]]\nname = \"s{i}\"\nbot = \"true\"\n"));
        }
        TournamentPlan::parse(Path::new("t.toml"), &text).unwrap()
    }

    /// Plays the knockout to its end; the bracket and every block seen.
    fn play_out(
        plan: &TournamentPlan,
        result: impl Fn(&str, &str, u64) -> Winner,
    ) -> (Bracket, Vec<Block>) {
        let mut results = Results::default();
        let mut blocks = vec![];
        loop {
            let b = bracket(plan, &results).unwrap();
            let Some(block) = b.next.clone() else {
                return (b, blocks);
            };
            play(plan, &mut results, &block, &result);
            blocks.push(block);
        }
    }

    /// The lower number wins: sN beats sM when N < M.
    fn stronger(a: &str, b: &str, _: u64) -> Winner {
        let n = |s: &str| s[1..].parse::<u32>().unwrap();
        if n(a) < n(b) {
            Winner::A
        } else {
            Winner::B
        }
    }

    /// Six bots, bracket of 8: seeds 1 and 2 have byes; 4-5 and 3-6 play
    /// the quarter-finals (games 1-2, 3-4); the semi-finals 1-4 and 2-3
    /// (games 5-8); the final 1-2 (games 9-10).
    #[test]
    fn six_bots_by_hand() {
        let plan = plan(6, "");
        let (b, blocks) = play_out(&plan, stronger);
        let pairs = |block: &Block| -> Vec<(String, String, u64)> {
            block
                .pairings
                .iter()
                .map(|p| {
                    (
                        plan.bots[p.x].name.clone(),
                        plan.bots[p.y].name.clone(),
                        block.first,
                    )
                })
                .collect()
        };
        assert_eq!(blocks.len(), 3);
        assert_eq!(
            pairs(&blocks[0]),
            [("s4".into(), "s5".into(), 1), ("s3".into(), "s6".into(), 1)]
        );
        assert_eq!(
            pairs(&blocks[1]),
            [("s1".into(), "s4".into(), 5), ("s2".into(), "s3".into(), 5)]
        );
        assert_eq!(pairs(&blocks[2]), [("s1".into(), "s2".into(), 9)]);
        assert_eq!(b.champion(), Some(0));
        let rows = b.rows(&plan);
        assert_eq!(rows.len(), 4 + 2 + 1);
        assert_eq!(
            (rows[0].bot_a.as_str(), rows[0].decided_by.as_str()),
            ("s1", "bye")
        );
        assert_eq!(
            (rows[1].bot_a.as_str(), rows[1].bot_b.as_str()),
            ("s4", "s5")
        );
        assert_eq!((rows[1].wins_a, rows[1].wins_b), (2, 0));
        let text = b.text(&plan);
        assert!(text.contains("Champion: s1"), "{text}");
        // Sides swap within each pair, and the pair shares a seed.
        let g: Vec<_> = blocks[0].games(&plan).collect();
        assert_eq!((g[0].a, g[0].b, g[1].a, g[1].b), (3, 4, 4, 3));
        assert_eq!(g[0].seed, g[1].seed);
        assert_ne!(g[0].seed, g[2].seed);
    }

    /// A drawn match plays tie-break pairs one at a time; level after all
    /// of them, the higher seed goes through.
    #[test]
    fn drawn_matches_go_to_tiebreaks_then_the_higher_seed() {
        // s1-s2 and s2-s3 draw every game; otherwise the stronger wins.
        let plan = plan(4, "tiebreak_pairs = 2");
        let (b, blocks) = play_out(&plan, |a, bb, number| {
            let pair = [a, bb];
            if pair.contains(&"s2") && (pair.contains(&"s1") || pair.contains(&"s3")) {
                return Winner::Draw;
            }
            stronger(a, bb, number)
        });
        // Semi-finals: s1-s4 (games 1-2, s1 wins), s2-s3 (games 3-4,
        // drawn), tie-break pairs of s2-s3: games 5-6 and 7-8, drawn: s2
        // through as the higher seed. Final s1-s2 games 9-10, drawn;
        // tie-breaks 11-12, 13-14; s1 through.
        let firsts: Vec<(u64, u64, usize)> = blocks
            .iter()
            .map(|b| (b.first, b.games_each, b.pairings.len()))
            .collect();
        assert_eq!(
            firsts,
            [
                (1, 2, 2),
                (5, 2, 1),
                (7, 2, 1),
                (9, 2, 1),
                (11, 2, 1),
                (13, 2, 1)
            ]
        );
        let rows = b.rows(&plan);
        assert_eq!(rows[1].decided_by, "higher seed");
        assert_eq!((rows[1].winner.as_str(), rows[1].tiebreak_games), ("s2", 4));
        assert_eq!(rows[2].decided_by, "higher seed");
        assert_eq!(b.champion(), Some(0));
        // Tie-break games have seeds of their own (pairs after the match's).
        assert_ne!(blocks[1].game(&plan, 0).seed, blocks[0].game(&plan, 2).seed);
    }

    /// A tie-break pair won by one side decides the match.
    #[test]
    fn a_tiebreak_pair_decides() {
        let plan = plan(2, "tiebreak_pairs = 3\ngames_per_pairing = 4");
        // Seat A wins games 1-4: 2-2. The first tie-break pair: game 5
        // (s1 at seat A) drawn, game 6 (s2 at seat A) won by s2.
        let (b, blocks) = play_out(&plan, |a, _, number| match number {
            1 | 3 => Winner::A,
            2 | 4 => Winner::A,
            5 => Winner::Draw,
            _ => {
                if a == "s2" {
                    Winner::A
                } else {
                    Winner::B
                }
            }
        });
        assert_eq!(blocks.len(), 2);
        let rows = b.rows(&plan);
        assert_eq!(
            (
                rows[0].winner.as_str(),
                rows[0].decided_by.as_str(),
                rows[0].tiebreak_games
            ),
            ("s2", "tie-break", 2)
        );
        assert_eq!((rows[0].wins_a, rows[0].wins_b, rows[0].draws), (2, 3, 1));
        assert_eq!(b.champion(), Some(1));
    }

    /// A row that is not the scheduled game is refused, not counted.
    #[test]
    fn rows_off_the_schedule_are_refused() {
        let plan = plan(2, "");
        let mut results = Results::default();
        let block = bracket(&plan, &results).unwrap().next.unwrap();
        // Game 1 written with the sides the other way round.
        let g = block.game(&plan, 0);
        let swapped = Block {
            pairings: vec![Pairing {
                x: g.b,
                y: g.a,
                ..block.pairings[0]
            }],
            ..block.clone()
        };
        play(&plan, &mut results, &swapped, |_, _, _| Winner::A);
        let e = bracket(&plan, &results).unwrap_err();
        assert_eq!(e.number, 1);
        assert!(e.to_string().contains("'s2' against 's1'"), "{e}");
    }
}
