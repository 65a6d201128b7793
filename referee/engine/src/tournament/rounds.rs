//! What the formats played in rounds (Swiss, knockout) share: the results
//! so far, read from `games.csv` rows, and the [`Block`] of games to play
//! next. A round's pairings depend on the results of the rounds before, so
//! the schedule is not known in advance; it is a pure function of the file
//! and of the rows so far, so a tournament killed at any moment resumes to
//! the same games. Game numbers run on from one block to the next.

pub use crate::model::tournament::RoundRow;
use std::collections::BTreeMap;

use super::plan::TournamentPlan;
use super::schedule::{game_seed, ScheduledGame};
use super::standings::{GameRow, RowError};
use crate::games::Winner;

/// A played game, as the pairing formats need it: who sat where, the seed
/// it was played with, who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub a: usize,
    pub b: usize,
    pub seed: u64,
    pub winner: Winner,
}

/// The games played so far, by number.
#[derive(Clone, Debug, Default)]
pub struct Results {
    by_number: BTreeMap<u64, PlayedGame>,
}

impl Results {
    /// Adds a `games.csv` row; a row naming a bot the plan does not have is
    /// refused.
    pub fn add(&mut self, plan: &TournamentPlan, row: &GameRow) -> Result<(), RowError> {
        let index = |name: &str| {
            plan.bots
                .iter()
                .position(|b| b.name == name)
                .ok_or_else(|| RowError::UnknownBot {
                    game: row.game,
                    bot: name.to_string(),
                    known: "no bot of this tournament is named",
                })
        };
        let played = PlayedGame {
            a: index(&row.bot_a)?,
            b: index(&row.bot_b)?,
            seed: row.seed,
            winner: row.outcome()?,
        };
        self.insert(row.game, played);
        Ok(())
    }

    /// Adds game `number`, just played.
    pub fn insert(&mut self, number: u64, game: PlayedGame) {
        self.by_number.insert(number, game);
    }

    pub fn get(&self, number: u64) -> Option<&PlayedGame> {
        self.by_number.get(&number)
    }

    pub fn has(&self, number: u64) -> bool {
        self.by_number.contains_key(&number)
    }

    pub fn len(&self) -> usize {
        self.by_number.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_number.is_empty()
    }
}

/// A row of `games.csv` that is not the game the schedule has under its
/// number (a folder edited by hand, or of another tournament).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {number} was played as {found}, but the results before it schedule {expected} under that number")]
pub struct OffSchedule {
    pub number: u64,
    pub found: String,
    pub expected: String,
}

/// Two bots that play a pairing of a [`Block`]: `x` (the higher ranked or
/// seeded) has seat A in the first game of each pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub x: usize,
    pub y: usize,
    /// Where the pairing stands in the tournament, for the games' seeds.
    pub place: u64,
    /// The number of pairs of games this pairing played before the block
    /// (knockout tie-breaks), for the games' seeds.
    pub pairs_before: u64,
}

/// What a pairing's games of a block came to, from `x`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub x_wins: u64,
    pub y_wins: u64,
    pub draws: u64,
}

impl Tally {
    pub fn add(&mut self, other: Tally) {
        self.x_wins += other.x_wins;
        self.y_wins += other.y_wins;
        self.draws += other.draws;
    }

    /// Match points of `x` and of `y` by the plan's scoring.
    pub fn points(&self, plan: &TournamentPlan) -> (u64, u64) {
        let s = plan.scoring;
        let (win, draw, loss) = (u64::from(s.win), u64::from(s.draw), u64::from(s.loss));
        (
            self.x_wins * win + self.draws * draw + self.y_wins * loss,
            self.y_wins * win + self.draws * draw + self.x_wins * loss,
        )
    }
}

/// Games played at once: each pairing plays `games_each` games (an even
/// number) in pairs with sides swapped, the two games of a pair with one
/// seed, so each bot starts as often as the other. Numbered pairing after
/// pairing from `first`; computed from their number, never listed, so a
/// round of many long pairings takes no memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub first: u64,
    pub games_each: u64,
    pub pairings: Vec<Pairing>,
}

impl Block {
    pub fn len(&self) -> u64 {
        self.games_each * self.pairings.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number after the block's last game.
    pub fn end(&self) -> u64 {
        self.first + self.len()
    }

    /// The block's game `index` (0-based).
    pub fn game(&self, plan: &TournamentPlan, index: u64) -> ScheduledGame {
        let p = self.pairings[(index / self.games_each) as usize];
        let k = index % self.games_each;
        let (a, b) = if k % 2 == 0 { (p.x, p.y) } else { (p.y, p.x) };
        ScheduledGame {
            number: self.first + index,
            a,
            b,
            seed: game_seed(plan.seed, p.place, p.pairs_before + k / 2),
            index: k,
            identity: None,
        }
    }

    /// Every game of the block, in order.
    pub fn games<'a>(
        &'a self,
        plan: &'a TournamentPlan,
    ) -> impl Iterator<Item = ScheduledGame> + 'a {
        (0..self.len()).map(move |i| self.game(plan, i))
    }

    /// Each pairing's tally if every game of the block is in `results`
    /// (`None` if some are not); a row that is not the scheduled game is
    /// refused.
    pub fn tally(
        &self,
        plan: &TournamentPlan,
        results: &Results,
    ) -> Result<Option<Vec<Tally>>, OffSchedule> {
        let mut tallies = vec![Tally::default(); self.pairings.len()];
        let mut complete = true;
        for (i, game) in self.games(plan).enumerate() {
            let Some(played) = results.get(game.number) else {
                complete = false;
                continue;
            };
            if (played.a, played.b, played.seed) != (game.a, game.b, game.seed) {
                let name = |i: usize| plan.bots[i].name.as_str();
                return Err(OffSchedule {
                    number: game.number,
                    found: format!(
                        "'{}' against '{}' (seed {})",
                        name(played.a),
                        name(played.b),
                        played.seed
                    ),
                    expected: format!(
                        "'{}' against '{}' (seed {})",
                        name(game.a),
                        name(game.b),
                        game.seed
                    ),
                });
            }
            let t = &mut tallies[i / self.games_each as usize];
            let x_is_a = game.a == self.pairings[i / self.games_each as usize].x;
            match (played.winner, x_is_a) {
                (Winner::Draw, _) => t.draws += 1,
                (Winner::A, true) | (Winner::B, false) => t.x_wins += 1,
                _ => t.y_wins += 1,
            }
        }
        Ok(complete.then_some(tallies))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Plays the games of `block` not yet in `results`, `result(a, b,
    /// number)` deciding each one (`a` the bot at seat A, by name).
    pub(crate) fn play(
        plan: &TournamentPlan,
        results: &mut Results,
        block: &Block,
        result: impl Fn(&str, &str, u64) -> Winner,
    ) {
        for g in block.games(plan) {
            if results.has(g.number) {
                continue;
            }
            let (a, b) = (&plan.bots[g.a].name, &plan.bots[g.b].name);
            let row = GameRow {
                game: g.number,
                seed: g.seed,
                bot_a: a.clone(),
                bot_b: b.clone(),
                first: a.clone(),
                result: Some(result(a, b, g.number)),
                ..GameRow::default()
            };
            results.add(plan, &row).unwrap();
        }
    }
}
