//! The schedule: which bots play which game, on which side, with which seed.
//! A pure function of the plan, so the same file always gives the same
//! schedule, any game can be replayed alone, and shards agree on numbering.

use super::plan::{Format, TournamentPlan};

/// One game of the schedule. `a` and `b` index the plan's bots; `a` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based, stable across runs and shards.
    pub number: u64,
    pub a: usize,
    pub b: usize,
    pub seed: u64,
}

/// `--shard I/N`: this process plays the games whose number is I modulo N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard; write I/N with 1 <= I <= N, e.g. 2/3");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn contains(&self, game: u64) -> bool {
        (game - 1) % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// The pairings of the plan, each as (i, j) with i < j in the plan's order.
pub fn pairings(plan: &TournamentPlan) -> Vec<(usize, usize)> {
    let n = plan.bots.len();
    match plan.format {
        Format::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet => {
            let mut out = vec![];
            for &c in &plan.challengers {
                for o in (0..n).filter(|o| !plan.challengers.contains(o)) {
                    out.push((c.min(o), c.max(o)));
                }
            }
            out
        }
    }
}

/// Every game of the tournament, in playing order: the pairs of games with
/// sides swapped go round all pairings before a pairing plays again, so
/// partial results are spread evenly. Both games of a swapped pair share a
/// seed: each bot faces the same codes the other did.
pub fn schedule(plan: &TournamentPlan) -> Vec<ScheduledGame> {
    let pairings = pairings(plan);
    let mut games = Vec::with_capacity(pairings.len() * plan.games_per_pairing as usize);
    let mut number = 0;
    for pair_round in 0..u64::from(plan.games_per_pairing / 2) {
        for (p, &(i, j)) in pairings.iter().enumerate() {
            let seed = game_seed(plan.seed, p as u64, pair_round);
            for (a, b) in [(i, j), (j, i)] {
                number += 1;
                games.push(ScheduledGame { number, a, b, seed });
            }
        }
    }
    games
}

/// A game's seed from the tournament seed and its place in the schedule
/// (splitmix64 finalizer), kept below 2^53 so it survives any JSON reader.
pub fn game_seed(tournament_seed: u64, pairing: u64, pair_round: u64) -> u64 {
    let mut z = tournament_seed
        .wrapping_add(pairing.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(pair_round.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) >> 11
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn plan(bots: usize, games: u32, gauntlet: bool) -> TournamentPlan {
        let mut text = format!("game = \"arrow5\"\ngames_per_pairing = {games}\n");
        if gauntlet {
            text.push_str("format = \"gauntlet\"\nchallengers = [\"b0\"]\n");
        }
        for i in 0..bots {
            text.push_str(&format!("[[bots]]\nname = \"b{i}\"\nbot = \"true\"\n"));
        }
        TournamentPlan::parse(Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn round_robin_is_fair() {
        let plan = plan(5, 4, false);
        let games = schedule(&plan);
        assert_eq!(games.len(), 10 * 4);
        let numbers: Vec<u64> = games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, (1..=40).collect::<Vec<_>>());
        for i in 0..5 {
            for j in 0..5 {
                if i == j {
                    continue;
                }
                // Each ordered pair (who starts) appears games/2 times.
                let n = games.iter().filter(|g| g.a == i && g.b == j).count();
                assert_eq!(n, 2, "{i} starting against {j}");
            }
            let starts = games.iter().filter(|g| g.a == i).count();
            let seconds = games.iter().filter(|g| g.b == i).count();
            assert_eq!(starts, seconds);
        }
        // A swapped pair shares its seed; different pairs do not.
        assert_eq!(games[0].seed, games[1].seed);
        assert_ne!(games[0].seed, games[2].seed);
        assert_eq!(schedule(&plan), games, "same plan, same schedule");
    }

    #[test]
    fn gauntlet_plays_only_the_challenger() {
        let plan = plan(4, 2, true);
        let games = schedule(&plan);
        assert_eq!(games.len(), 3 * 2);
        assert!(games.iter().all(|g| g.a == 0 || g.b == 0));
    }

    #[test]
    fn shards_split_the_schedule_exactly() {
        let games = schedule(&plan(6, 2, false));
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for g in &games {
            assert_eq!(shards.iter().filter(|s| s.contains(g.number)).count(), 1);
        }
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "x", "1/0", "2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
