//! Groups: a tournament in two stages, round-robin groups and then a
//! knockout of the best `advance` of each group, as a pure function of the
//! seeds and the results so far (so a kill at any moment resumes to the
//! same games).
//!
//! - **Groups.** The bots in seed order (the file's, or `seeds_from`'s)
//!   are dealt into `groups` groups in a snake: with 2 groups, seeds 1, 4,
//!   5, 8, ... in A and 2, 3, 6, 7, ... in B, so the groups are as even as
//!   the seeds. Sizes differ by one at most.
//! - **Group stage.** Each group is a round robin: every pairing plays
//!   `games_per_pairing` games in pairs with sides swapped. All the groups'
//!   games are played at once (numbered group by group, pairing by pairing).
//! - **Group order.** Match points, then the rating within the group
//!   (Bradley-Terry over the group's games, as in `standings.csv`, to the
//!   tenth shown in `groups.csv`), then the seed.
//! - **Knockout.** The best `advance` of each group go on, seeded group
//!   winners first (group A's, B's, ...), then the seconds, and so on; the
//!   knockout is then played as in [`super::knockout`], its game numbers
//!   running on after the groups'. With two groups of two going on, the
//!   semi-finals are A1-B2 and B1-A2.

use super::knockout::{self, Bracket, Start};
use super::plan::TournamentPlan;
use super::rounds::{Block, OffSchedule, Pairing, Results, Tally};
use super::standings::{bradley_terry, round};
pub use crate::model::tournament::GroupRow;

/// The groups, each a list of bot indices in seed order.
pub fn assign(plan: &TournamentPlan) -> Vec<Vec<usize>> {
    let count = plan.groups.max(1) as usize;
    let mut groups = vec![vec![]; count];
    for (i, &bot) in plan.seeds.iter().enumerate() {
        let (lap, at) = (i / count, i % count);
        let group = if lap % 2 == 0 { at } else { count - 1 - at };
        groups[group].push(bot);
    }
    groups
}

/// A group's name: A to Z, then numbers.
pub fn group_name(index: usize, count: usize) -> String {
    if count <= 26 {
        char::from(b'A' + index as u8).to_string()
    } else {
        (index + 1).to_string()
    }
}

/// Every game of the group stage: one block, group by group.
pub fn group_block(plan: &TournamentPlan, groups: &[Vec<usize>]) -> Block {
    let mut pairings = vec![];
    for members in groups {
        for (i, &x) in members.iter().enumerate() {
            for &y in &members[i + 1..] {
                pairings.push(Pairing {
                    x,
                    y,
                    place: pairings.len() as u64,
                    pairs_before: 0,
                });
            }
        }
    }
    Block {
        first: 1,
        games_each: u64::from(plan.games_per_pairing),
        pairings,
    }
}

/// Where a tournament of groups stands.
#[derive(Clone, Debug)]
pub struct Stages {
    /// Each group's table, ranked, once the group stage is over.
    pub tables: Vec<Vec<GroupRow>>,
    /// The knockout, once the group stage is over.
    pub bracket: Option<Bracket>,
    /// The games to play next (some may be played), if any.
    pub next: Option<Block>,
}

/// Walks both stages through `results`.
pub fn stages(plan: &TournamentPlan, results: &Results) -> Result<Stages, OffSchedule> {
    let groups = assign(plan);
    let block = group_block(plan, &groups);
    let Some(tallies) = block.tally(plan, results)? else {
        return Ok(Stages {
            tables: vec![],
            bracket: None,
            next: Some(block),
        });
    };
    let ranked: Vec<Vec<usize>> = groups
        .iter()
        .map(|members| rank_group(plan, members, &block, &tallies).0)
        .collect();
    let advance = plan.advance as usize;
    let seeds: Vec<usize> = (0..advance)
        .flat_map(|place| ranked.iter().map(move |order| order[place]))
        .collect();
    let start = Start {
        number: block.end(),
        place: block.pairings.len() as u64,
    };
    let bracket = knockout::bracket_of(plan, &seeds, start, results)?;
    let tables = groups
        .iter()
        .enumerate()
        .map(|(g, members)| {
            let (order, stats) = rank_group(plan, members, &block, &tallies);
            order
                .iter()
                .enumerate()
                .map(|(rank, &bot)| {
                    let s = &stats[members.iter().position(|&m| m == bot).expect("a member")];
                    GroupRow {
                        group: group_name(g, groups.len()),
                        rank: rank + 1,
                        bot: plan.bots[bot].name.clone(),
                        played: s.0.x_wins + s.0.y_wins + s.0.draws,
                        wins: s.0.x_wins,
                        draws: s.0.draws,
                        losses: s.0.y_wins,
                        points: s.0.points(plan).0,
                        rating: s.1,
                        qualified: rank < advance,
                    }
                })
                .collect()
        })
        .collect();
    Ok(Stages {
        tables,
        next: bracket.next.clone(),
        bracket: Some(bracket),
    })
}

/// A group's order (bot indices, best first) and each member's games (its
/// own wins as `x_wins`) and rating, in the members' order.
fn rank_group(
    plan: &TournamentPlan,
    members: &[usize],
    block: &Block,
    tallies: &[Tally],
) -> (Vec<usize>, Vec<(Tally, f64)>) {
    let n = members.len();
    let local = |bot: usize| members.iter().position(|&m| m == bot);
    let mut own = vec![Tally::default(); n];
    let mut score = vec![vec![0.0; n]; n];
    let mut games = vec![vec![0u32; n]; n];
    for (p, t) in block.pairings.iter().zip(tallies) {
        let (Some(x), Some(y)) = (local(p.x), local(p.y)) else {
            continue;
        };
        own[x].add(*t);
        own[y].add(Tally {
            x_wins: t.y_wins,
            y_wins: t.x_wins,
            draws: t.draws,
        });
        score[x][y] += t.x_wins as f64 + t.draws as f64 / 2.0;
        score[y][x] += t.y_wins as f64 + t.draws as f64 / 2.0;
        let played = (t.x_wins + t.y_wins + t.draws) as u32;
        games[x][y] += played;
        games[y][x] += played;
    }
    // Rounded as shown: bots level in every game have ratings equal but for
    // the last bits of the fit, which must not decide before the seed.
    let ratings: Vec<(f64, f64)> = bradley_terry(&score, &games, 1.0)
        .into_iter()
        .map(|(rating, se)| (round(rating, 1), se))
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        own[b]
            .points(plan)
            .0
            .cmp(&own[a].points(plan).0)
            .then(ratings[b].0.total_cmp(&ratings[a].0))
            .then(a.cmp(&b))
    });
    (
        order.iter().map(|&i| members[i]).collect(),
        own.into_iter()
            .zip(ratings)
            .map(|(t, (rating, _))| (t, rating))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Winner;
    use crate::tournament::rounds::tests::play;
    use std::path::Path;

    fn plan(names: &[&str], groups: u32, advance: u32) -> TournamentPlan {
        let mut text = format!(
            "game = \"arrow5\"\nformat = \"groups\"\ngroups = {groups}\nadvance = {advance}\n"
        );
        for name in names {
            text.push_str(&format!("[[bots]]\nname = \"{name}\"\nbot = \"true\"\n"));
        }
        TournamentPlan::parse(Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn seeds_are_dealt_in_a_snake() {
        let p = plan(&["a", "b", "c", "d", "e", "f", "g"], 2, 1);
        assert_eq!(assign(&p), [vec![0, 3, 4], vec![1, 2, 5, 6]]);
        let p = plan(&["a", "b", "c", "d", "e", "f", "g"], 3, 1);
        assert_eq!(assign(&p), [vec![0, 5, 6], vec![1, 4], vec![2, 3]]);
    }

    /// Eight bots k1..k8 (lower wins) in file order, two groups, two go on:
    /// A = k1 k4 k5 k8, B = k2 k3 k6 k7. A: k1 k4 go on; B: k2 k3.
    /// Knockout seeds k1 k2 k4 k3: semi-finals k1-k3 and k2-k4 (games
    /// 25-28, after 2 x 6 pairings x 2 games), final k1-k2 (29-30).
    #[test]
    fn two_groups_then_a_knockout_by_hand() {
        let names = ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"];
        let p = plan(&names, 2, 2);
        let stronger = |a: &str, b: &str, _: u64| if a < b { Winner::A } else { Winner::B };
        let mut results = Results::default();
        let mut blocks = vec![];
        let last = loop {
            let s = stages(&p, &results).unwrap();
            let Some(block) = s.next.clone() else { break s };
            play(&p, &mut results, &block, stronger);
            blocks.push(block);
        };
        let firsts: Vec<(u64, usize)> =
            blocks.iter().map(|b| (b.first, b.pairings.len())).collect();
        assert_eq!(firsts, [(1, 12), (25, 2), (29, 1)]);
        let semis: Vec<(usize, usize)> = blocks[1].pairings.iter().map(|q| (q.x, q.y)).collect();
        assert_eq!(semis, [(0, 2), (1, 3)]);
        assert_eq!(last.bracket.unwrap().champion(), Some(0));
        let a: Vec<(&str, u64, bool)> = last.tables[0]
            .iter()
            .map(|r| (r.bot.as_str(), r.points, r.qualified))
            .collect();
        assert_eq!(
            a,
            [
                ("k1", 12, true),
                ("k4", 8, true),
                ("k5", 4, false),
                ("k8", 0, false)
            ]
        );
    }
}
