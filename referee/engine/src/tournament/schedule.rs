//! The schedule: which bots play which game, on which side, with which seed.
//! A pure function of the plan and its bots' contents, so the same file
//! always gives the same schedule, any game can be replayed alone, and
//! shards agree on numbering. A game's seed and identity come from what
//! decides it ([`super::identity`]), not from its place: adding a bot
//! renumbers games but changes none. Games are computed from their number
//! when they are needed ([`Schedule`]), so memory does not grow with the
//! number of games of a tournament.

use super::identity::{GameIdentities, Hash256};
use super::plan::TournamentPlan;

/// One game of the schedule. `a` and `b` index the plan's bots; `a` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based, stable across runs and shards.
    pub number: u64,
    pub a: usize,
    pub b: usize,
    pub seed: u64,
    /// The game's index within its pairing (0 and 1: the first pair with
    /// sides swapped, 2 and 3 the next, ...).
    pub index: u64,
    /// What decides the game ([`super::identity`]); `None` for the games of
    /// formats played in rounds, which are kept by number.
    pub identity: Option<Hash256>,
}

/// `--shard I/N`: this process plays the games whose identity is I modulo
/// N (its first 64 bits): a game stays in its shard when bots are added or
/// removed, so each shard's folder keeps the games it played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: u32,
    pub count: u32,
}

/// A `--shard` that is not `I/N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a shard; write I/N with 1 <= I <= N, e.g. 2/3")]
pub struct NotAShard(pub String);

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, NotAShard> {
        let bad = || NotAShard(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the shard plays the game numbered `number` of a format
    /// whose games are kept by number (a free-for-all).
    pub fn contains_number(&self, number: u64) -> bool {
        (number - 1) % u64::from(self.count) == u64::from(self.index - 1)
    }

    pub fn contains(&self, game: &ScheduledGame) -> bool {
        let key = game.identity.map_or(game.number - 1, |id| id.low_u64());
        key % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// The pairings of the plan, each as (i, j) with i < j in the plan's order;
/// none for the formats played in rounds, whose pairings come from results
/// ([`super::rounds`]).
pub fn pairings(plan: &TournamentPlan) -> Vec<(usize, usize)> {
    plan.format.rules(plan).pairings(plan).unwrap_or_default()
}

/// The games of a tournament, in playing order: the pairs of games with
/// sides swapped go round all pairings before a pairing plays again, so
/// partial results are spread evenly. Both games of a swapped pair share a
/// seed: each bot faces the same codes the other did. Only the pairings are
/// held; a game is computed from its number.
#[derive(Clone, Debug)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    pair_rounds: u64,
    identities: GameIdentities,
}

/// The games of a round robin or gauntlet, without computing them.
pub fn games_in_tournament(plan: &TournamentPlan) -> u64 {
    2 * pairings(plan).len() as u64 * u64::from(plan.games_per_pairing / 2)
}

impl Schedule {
    pub fn new(plan: &TournamentPlan, identities: GameIdentities) -> Schedule {
        Schedule {
            pairings: pairings(plan),
            pair_rounds: u64::from(plan.games_per_pairing / 2),
            identities,
        }
    }

    /// Games in the whole tournament.
    pub fn len(&self) -> u64 {
        2 * self.pairings.len() as u64 * self.pair_rounds
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `number` (1-based), if the tournament has it.
    pub fn game(&self, number: u64) -> Option<ScheduledGame> {
        if number == 0 || number > self.len() {
            return None;
        }
        let index = number - 1;
        let per_round = 2 * self.pairings.len() as u64;
        let pair_round = index / per_round;
        let p = (index % per_round) / 2;
        let (i, j) = self.pairings[p as usize];
        let (a, b) = if index % 2 == 0 { (i, j) } else { (j, i) };
        Some(ScheduledGame {
            number,
            a,
            b,
            seed: self.identities.seed(i, j, pair_round),
            index: 2 * pair_round + index % 2,
            identity: Some(self.identities.game(a, b, 2 * pair_round + index % 2)),
        })
    }

    /// The games `shard` plays (all of them without one), in order.
    pub fn games_in(&self, shard: Option<Shard>) -> impl Iterator<Item = ScheduledGame> + '_ {
        (1..=self.len())
            .filter_map(|n| self.game(n))
            .filter(move |g| shard.is_none_or(|s| s.contains(g)))
    }

    /// How many games `shard` plays (all of them without one).
    pub fn count_in(&self, shard: Option<Shard>) -> u64 {
        match shard {
            None => self.len(),
            Some(_) => self.games_in(shard).count() as u64,
        }
    }

    /// The pairings, as (i, j) indices of the plan's bots.
    pub fn pairings(&self) -> &[(usize, usize)] {
        &self.pairings
    }

    /// The number of the game of pairing `p` with `index` within it (see
    /// [`ScheduledGame::index`]), if the tournament has it.
    pub fn number_of(&self, p: usize, index: u64) -> Option<u64> {
        if p >= self.pairings.len() || index >= 2 * self.pair_rounds {
            return None;
        }
        let per_round = 2 * self.pairings.len() as u64;
        Some((index / 2) * per_round + 2 * p as u64 + index % 2 + 1)
    }

    /// The bots' contents and the games' identities.
    pub fn identities(&self) -> &GameIdentities {
        &self.identities
    }
}

/// Every game of the tournament, in playing order (see [`Schedule`], which
/// computes them one at a time).
pub fn schedule(plan: &TournamentPlan, identities: GameIdentities) -> Vec<ScheduledGame> {
    Schedule::new(plan, identities).games_in(None).collect()
}

/// A game's seed from the tournament seed and its place (splitmix64
/// finalizer), for the games of checks and of formats played in rounds, kept below 2^53 so it survives any JSON reader.
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

    /// Bots of distinct contents, and a fixed key.
    fn ids(plan: &TournamentPlan) -> GameIdentities {
        let contents = (0..plan.bots.len())
            .map(|i| Hash256([i as u8; 32]))
            .collect();
        GameIdentities::from_contents(
            plan,
            &crate::key::RefereeKey::from_hex(&"ab".repeat(32)).unwrap(),
            contents,
        )
    }

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
        let games = schedule(&plan, ids(&plan));
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
        assert_eq!(
            schedule(&plan, ids(&plan)),
            games,
            "same plan, same schedule"
        );
        let distinct: std::collections::BTreeSet<_> = games.iter().map(|g| g.identity).collect();
        assert_eq!(
            distinct.len(),
            games.len(),
            "every game has its own identity"
        );
        let s = Schedule::new(&plan, ids(&plan));
        for g in &games {
            let p = s
                .pairings()
                .iter()
                .position(|&(i, j)| (i, j) == (g.a.min(g.b), g.a.max(g.b)));
            assert_eq!(s.number_of(p.unwrap(), g.index), Some(g.number));
        }
    }

    #[test]
    fn the_schedule_is_computed_without_listing_it() {
        let plan = plan(4, 6, false);
        let all = schedule(&plan, ids(&plan));
        let s = Schedule::new(&plan, ids(&plan));
        assert_eq!(s.len(), all.len() as u64);
        assert_eq!(s.game(0), None);
        assert_eq!(s.game(s.len() + 1), None);
        for count in 1..=5 {
            for index in 1..=count {
                let one = Shard { index, count };
                let shard = Some(one);
                let games: Vec<_> = s.games_in(shard).collect();
                let wanted: Vec<_> = all.iter().copied().filter(|g| one.contains(g)).collect();
                assert_eq!(games, wanted);
                assert_eq!(s.count_in(shard), wanted.len() as u64);
            }
        }
        // A million games a pairing of a thousand bots: nothing is listed.
        let mut huge = plan.clone();
        huge.games_per_pairing = 1_000_000;
        let s = Schedule::new(&huge, ids(&huge));
        assert_eq!(s.len(), 6 * 1_000_000);
        assert_eq!(s.game(s.len()).unwrap().number, 6_000_000);
        assert_eq!(s.games_in(None).nth(12).unwrap(), s.game(13).unwrap());
    }

    #[test]
    fn gauntlet_plays_only_the_challenger() {
        let plan = plan(4, 2, true);
        let games = schedule(&plan, ids(&plan));
        assert_eq!(games.len(), 3 * 2);
        assert!(games.iter().all(|g| g.a == 0 || g.b == 0));
    }

    #[test]
    fn shards_split_the_schedule_exactly() {
        let plan = plan(6, 2, false);
        let games = schedule(&plan, ids(&plan));
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for g in &games {
            assert_eq!(shards.iter().filter(|s| s.contains(g)).count(), 1);
        }
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "x", "1/0", "2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}

#[cfg(test)]
mod identity_tests {
    use super::*;
    use std::path::Path;

    /// A bot added keeps every other game: same seats, seed and identity.
    #[test]
    fn adding_a_bot_changes_no_other_game() {
        let text = |n: usize| {
            let mut t = "game = \"arrow5\"\ngames_per_pairing = 4\n".to_string();
            for i in 0..n {
                t.push_str(&format!("[[bots]]\nname = \"b{i}\"\nbot = \"true\"\n"));
            }
            TournamentPlan::parse(Path::new("t.toml"), &t).unwrap()
        };
        let key = crate::key::RefereeKey::from_hex(&"cd".repeat(32)).unwrap();
        let of = |plan: &TournamentPlan| {
            let contents = (0..plan.bots.len())
                .map(|i| Hash256([i as u8 + 1; 32]))
                .collect();
            schedule(plan, GameIdentities::from_contents(plan, &key, contents))
        };
        let three = of(&text(3));
        let four = of(&text(4));
        for g in &three {
            let same = four
                .iter()
                .find(|h| h.identity == g.identity)
                .expect("the game is still scheduled");
            assert_eq!((same.a, same.b, same.seed), (g.a, g.b, g.seed));
        }
        assert_eq!(four.len() - three.len(), 3 * 4);
    }
}
