//! The tables of a free-for-all: which bots sit together. Every bot sits
//! at the same number of tables; each table is played once per cyclic
//! rotation of its seats, so every bot plays every seat equally often
//! whatever the tables are. What is left to choose is who meets whom:
//! tables are drawn so that every two bots sit together about equally
//! often (a near-balanced design), deterministically from the
//! tournament's seed.
//!
//! The draw: tables are filled one at a time, each with the bots that
//! must go in for every bot to fill its tables, then with those that have
//! met the table's bots least (then those with most tables left, then the
//! least recently seated, then a shuffled order from the seed). Then bots
//! are swapped between tables while a swap lowers the sum of the cubes of
//! the meeting counts (so the counts even out, the largest first), for up
//! to [`MAX_PASSES`] passes over every two tables. A design of up to
//! [`MAX_SEARCHED_TABLES`] tables is drawn [`DRAWS`] times (the seed
//! varied), each shaken [`SHAKES`] times (two random swaps, then the
//! improving swaps again, kept when better); the one kept has the
//! smallest spread of meetings, then the smallest sum of their squares.
//! Up to [`MAX_IMPROVED_TABLES`] tables: one draw, evened out; more: the
//! draw alone (each pass of swaps takes time in the square of the
//! tables).
//!
//! How even, measured by the unit tests over every field of 3 to 12 bots,
//! 3 to 6 a table, 1 to 4 tables each: every bot at exactly its tables,
//! and any two bots' meetings within 2 of any other two's (within 1 in
//! most fields; 1 is not always possible).

use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Passes of swaps over every two tables, at most.
pub const MAX_PASSES: usize = 20;

/// Designs of more tables keep the first draw (each pass of swaps takes
/// time in the square of the tables).
pub const MAX_IMPROVED_TABLES: usize = 400;

/// `bots` bots at tables of `per_table`, each bot at `tables_per_bot`
/// tables: the tables, each a list of bots (indices) in seat order.
/// `bots * tables_per_bot` must be a multiple of `per_table`, and
/// `per_table` at most `bots` (the plan checks both).
pub fn tables(bots: usize, per_table: usize, tables_per_bot: usize, seed: u64) -> Vec<Vec<usize>> {
    assert!(per_table >= 1 && per_table <= bots, "a table of the field");
    assert_eq!((bots * tables_per_bot) % per_table, 0, "whole tables");
    let count = bots * tables_per_bot / per_table;
    if count > MAX_IMPROVED_TABLES {
        return draw(bots, per_table, tables_per_bot, seed).0;
    }
    if count > MAX_SEARCHED_TABLES {
        let (mut tables, mut meetings) = draw(bots, per_table, tables_per_bot, seed);
        even_out(&mut tables, &mut meetings);
        return tables;
    }
    // Swaps stop at a design no single swap improves: of a few draws, the
    // one whose meetings are the most even.
    (0..DRAWS)
        .map(|attempt| {
            let (mut tables, mut meetings) = draw(
                bots,
                per_table,
                tables_per_bot,
                seed.wrapping_add(attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            );
            even_out(&mut tables, &mut meetings);
            let mut best = (meetings.score(), tables);
            // Shaken out of a design no single swap improves: a few random
            // swaps, then swaps that improve again, kept when better.
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ attempt);
            for _ in 0..SHAKES {
                let mut tables = best.1.clone();
                for _ in 0..2 {
                    shake(&mut tables, &mut rng);
                }
                let mut meetings = Meetings::of(bots, &tables);
                even_out(&mut tables, &mut meetings);
                if meetings.score() < best.0 {
                    best = (meetings.score(), tables);
                }
            }
            best
        })
        .min_by_key(|(score, _)| *score)
        .expect("at least one draw")
        .1
}

/// Designs of more tables are drawn once and evened out once (no draws
/// to choose from, no shakes).
pub const MAX_SEARCHED_TABLES: usize = 24;

/// Random shakes of each draw's design.
pub const SHAKES: usize = 12;

/// Swaps two bots of two tables drawn at random (when neither sits at the
/// other's table).
fn shake(tables: &mut [Vec<usize>], rng: &mut rand_chacha::ChaCha8Rng) {
    use rand::Rng;
    if tables.len() < 2 {
        return;
    }
    let t1 = rng.gen_range(0..tables.len());
    let t2 = rng.gen_range(0..tables.len());
    let i = rng.gen_range(0..tables[t1].len());
    let j = rng.gen_range(0..tables[t2].len());
    let (x, y) = (tables[t1][i], tables[t2][j]);
    if t1 != t2 && !tables[t2].contains(&x) && !tables[t1].contains(&y) {
        tables[t1][i] = y;
        tables[t2][j] = x;
    }
}

/// Draws tried for a design of at most [`MAX_IMPROVED_TABLES`] tables.
pub const DRAWS: u64 = 8;

/// One greedy draw of the tables (see the module's documentation), and
/// its meetings.
fn draw(
    bots: usize,
    per_table: usize,
    tables_per_bot: usize,
    seed: u64,
) -> (Vec<Vec<usize>>, Meetings) {
    let count = bots * tables_per_bot / per_table;
    let mut order: Vec<usize> = (0..bots).collect();
    order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    // A bot's place in the shuffled order: the last tie-break.
    let mut shuffled = vec![0; bots];
    for (place, &bot) in order.iter().enumerate() {
        shuffled[bot] = place;
    }
    let mut meetings = Meetings::new(bots);
    let mut left = vec![tables_per_bot; bots];
    let mut last_seated = vec![usize::MAX; bots];
    let mut out: Vec<Vec<usize>> = Vec::with_capacity(count);
    for t in 0..count {
        let tables_left = count - t;
        // A bot with as many tables left as there are tables must sit at
        // every one of them; at most `per_table` can (the seats left are
        // `per_table * tables_left`).
        let mut table: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&b| left[b] == tables_left)
            .collect();
        while table.len() < per_table {
            let next = (0..bots)
                .filter(|&b| left[b] > 0 && !table.contains(&b))
                .min_by_key(|&b| {
                    let met: u32 = table.iter().map(|&x| meetings.get(b, x)).sum();
                    // Never seated sorts first (wrapping past usize::MAX).
                    let since = last_seated[b].wrapping_add(1);
                    (met, std::cmp::Reverse(left[b]), since, shuffled[b])
                })
                .expect("enough bots have tables left");
            table.push(next);
        }
        for (i, &x) in table.iter().enumerate() {
            left[x] -= 1;
            last_seated[x] = t;
            for &y in &table[i + 1..] {
                meetings.add(x, y, 1);
            }
        }
        out.push(table);
    }
    (out, meetings)
}

/// How often each two bots sit together.
#[derive(Clone, Debug)]
pub struct Meetings {
    bots: usize,
    counts: Vec<u32>,
}

impl Meetings {
    pub fn new(bots: usize) -> Meetings {
        Meetings {
            bots,
            counts: vec![0; bots * bots],
        }
    }

    /// The meetings of the tables given.
    pub fn of(bots: usize, tables: &[Vec<usize>]) -> Meetings {
        let mut m = Meetings::new(bots);
        for table in tables {
            for (i, &x) in table.iter().enumerate() {
                for &y in &table[i + 1..] {
                    m.add(x, y, 1);
                }
            }
        }
        m
    }

    pub fn get(&self, x: usize, y: usize) -> u32 {
        self.counts[x * self.bots + y]
    }

    fn add(&mut self, x: usize, y: usize, by: i64) {
        for i in [x * self.bots + y, y * self.bots + x] {
            self.counts[i] = (i64::from(self.counts[i]) + by) as u32;
        }
    }

    /// The sum of the squares of the meeting counts: lowest when they are
    /// most even.
    pub fn squares(&self) -> u64 {
        self.counts
            .iter()
            .map(|&c| u64::from(c) * u64::from(c))
            .sum()
    }

    /// How even the meetings are, lower is better: their spread, then the
    /// sum of their squares.
    fn score(&self) -> (u32, u64) {
        let (least, most) = self.spread();
        (most - least, self.squares())
    }

    /// The fewest and the most meetings of any two bots.
    pub fn spread(&self) -> (u32, u32) {
        let mut least = u32::MAX;
        let mut most = 0;
        for x in 0..self.bots {
            for y in x + 1..self.bots {
                least = least.min(self.get(x, y));
                most = most.max(self.get(x, y));
            }
        }
        (least.min(most), most)
    }
}

/// Swaps bots between tables while a swap lowers the sum of the cubed
/// meeting counts (first improving swap, in a fixed order).
fn even_out(tables: &mut [Vec<usize>], meetings: &mut Meetings) {
    for _ in 0..MAX_PASSES {
        let mut improved = false;
        for t1 in 0..tables.len() {
            for t2 in t1 + 1..tables.len() {
                for i in 0..tables[t1].len() {
                    for j in 0..tables[t2].len() {
                        let (x, y) = (tables[t1][i], tables[t2][j]);
                        if tables[t2].contains(&x) || tables[t1].contains(&y) {
                            continue;
                        }
                        let changes = swap_changes(&tables[t1], &tables[t2], x, y);
                        let delta: i64 = changes
                            .iter()
                            .map(|&((a, b), d)| {
                                let m = i64::from(meetings.get(a, b));
                                (m + d).pow(3) - m.pow(3)
                            })
                            .sum();
                        if delta < 0 {
                            for &((a, b), d) in &changes {
                                meetings.add(a, b, d);
                            }
                            tables[t1][i] = y;
                            tables[t2][j] = x;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// The changes of meeting counts when `x` (of `t1`) and `y` (of `t2`)
/// change tables, each pair once (a bot of both tables meets `x` and `y`
/// as before).
fn swap_changes(t1: &[usize], t2: &[usize], x: usize, y: usize) -> Vec<((usize, usize), i64)> {
    let mut changes: Vec<((usize, usize), i64)> = vec![];
    let mut change = |a: usize, b: usize, d: i64| {
        let key = (a.min(b), a.max(b));
        match changes.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v += d,
            None => changes.push((key, d)),
        }
    };
    for &z in t1.iter().filter(|&&z| z != x) {
        change(x, z, -1);
        change(y, z, 1);
    }
    for &z in t2.iter().filter(|&&z| z != y) {
        change(y, z, -1);
        change(x, z, 1);
    }
    changes.retain(|&(_, d)| d != 0);
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of a small field: every bot at exactly its
    /// tables, never twice at one, and the meetings of any two bots
    /// within 2 of each other (a spread of 1 cannot always be had: 8 bots
    /// at 4 tables of 4, each at 2, have two bots meet twice while others
    /// never meet), within 1 in most fields.
    #[test]
    fn every_bot_sits_at_its_tables_and_meetings_are_even() {
        let (mut fields, mut within_one) = (0, 0);
        for bots in 3..=12 {
            for per_table in 3..=bots.min(6) {
                for tables_per_bot in 1..=4 {
                    if (bots * tables_per_bot) % per_table != 0 {
                        continue;
                    }
                    let tables = tables(bots, per_table, tables_per_bot, 7);
                    assert_eq!(tables.len(), bots * tables_per_bot / per_table);
                    let mut seated = vec![0; bots];
                    for table in &tables {
                        assert_eq!(table.len(), per_table);
                        let mut sorted = table.clone();
                        sorted.sort_unstable();
                        sorted.dedup();
                        assert_eq!(sorted.len(), per_table, "{table:?}");
                        for &b in table {
                            seated[b] += 1;
                        }
                    }
                    assert!(seated.iter().all(|&s| s == tables_per_bot), "{seated:?}");
                    let (least, most) = Meetings::of(bots, &tables).spread();
                    assert!(
                        most - least <= 2,
                        "{bots} bots, {per_table} a table, {tables_per_bot} tables each: meetings {least} to {most}"
                    );
                    fields += 1;
                    within_one += usize::from(most - least <= 1);
                }
            }
        }
        assert!(
            within_one * 10 >= fields * 8,
            "{within_one} of {fields} fields within 1"
        );
    }

    #[test]
    fn the_same_seed_draws_the_same_tables_and_another_seed_others() {
        assert_eq!(tables(9, 3, 4, 1), tables(9, 3, 4, 1));
        assert_ne!(tables(9, 3, 4, 1), tables(9, 3, 4, 2));
    }

    #[test]
    fn a_large_field_is_drawn_at_once() {
        let tables = tables(1000, 4, 8, 3);
        assert_eq!(tables.len(), 2000);
        let (_, most) = Meetings::of(1000, &tables).spread();
        assert!(most <= 2, "{most}");
    }
}
