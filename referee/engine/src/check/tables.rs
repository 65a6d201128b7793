//! Checks at tables of more than two players (`players_per_game = K` in a
//! check file): which references sit at each table and where, and the
//! rank arithmetic the rank requirements are judged on. Pure: no game is
//! played here.
//!
//! The tables come in blocks of K: the K tables of a block share their
//! references and their seed, and the bot under test sits at seat A, then
//! B, ... (the whole table rotated one seat each time), so that over whole
//! blocks it sits at every seat equally often and plays every starting
//! position a seed deals. The references of block `b` are the K-1
//! consecutive entries from position `b * (K - 1)` of one seeded shuffle
//! of the file's references, taken round and round: over the blocks every
//! reference sits at as many tables as every other, give or take one
//! block.

use crate::tournament::schedule::game_seed;

/// One table: the game's seed, the seat of the bot under test, and the
/// reference at each other seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// 0-based in the check's order of tables; requirements use the first
    /// `games` of them.
    pub index: u32,
    pub seed: u64,
    /// The seat index (0 = A) of the bot under test.
    pub tested: usize,
    /// The references (indices into the check's opponents) at the other
    /// seats, in seat order, the tested seat left out.
    pub references: Vec<usize>,
}

impl Table {
    /// Who sits at each seat: `None` for the bot under test, else the
    /// reference's index.
    pub fn seats(&self) -> Vec<Option<usize>> {
        seats_of(self.tested, &self.references)
    }
}

/// Who sits at each seat of a game where the bot under test sits at
/// `tested` and `others` (in seat order) at the other seats: `None` for
/// the bot under test.
pub fn seats_of(tested: usize, others: &[usize]) -> Vec<Option<usize>> {
    let mut seats: Vec<Option<usize>> = others.iter().copied().map(Some).collect();
    seats.insert(tested, None);
    seats
}

/// The seeded order the references are dealt in: a Fisher-Yates shuffle
/// driven by the check's seed (the same hash as the game seeds).
fn dealing_order(seed: u64, references: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..references).collect();
    for i in (1..references).rev() {
        let j = (game_seed(seed, u64::MAX, i as u64) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The references of block `block`: K-1 consecutive entries of the
/// dealing order, round and round (distinct while K-1 <= references).
fn block_references(order: &[usize], players: usize, block: u64) -> Vec<usize> {
    let start = block as usize * (players - 1);
    (0..players - 1)
        .map(|j| order[(start + j) % order.len()])
        .collect()
}

/// The first `tables` tables of a check with `references` references and
/// `players` players a table (`tables` a multiple of `players`, and
/// `players - 1 <= references`, as the check file's validation makes
/// them).
pub fn draw(seed: u64, references: usize, players: usize, tables: u32) -> Vec<Table> {
    assert!(
        players >= 2 && references + 1 >= players,
        "too few references"
    );
    let order = dealing_order(seed, references);
    let mut drawn = Vec::with_capacity(tables as usize);
    for index in 0..tables {
        let block = u64::from(index) / players as u64;
        let tested = index as usize % players;
        let mut around = block_references(&order, players, block);
        // The table rotated `tested` seats: the references keep their
        // order around the table after the bot under test.
        around.rotate_left(players - 1 - tested);
        drawn.push(Table {
            index,
            seed: game_seed(seed, 0, block),
            tested,
            references: around,
        });
    }
    drawn
}

/// The fewest tables (whole blocks) at which every reference sits at
/// least once.
pub fn tables_to_meet_all(references: usize, players: usize) -> u32 {
    let blocks = references.div_ceil(players - 1);
    (blocks * players) as u32
}

/// The tables among the first `tables` at which `reference` sits.
pub fn meetings(
    seed: u64,
    references: usize,
    players: usize,
    tables: u32,
    reference: usize,
) -> u32 {
    draw(seed, references, players, tables)
        .iter()
        .filter(|t| t.references.contains(&reference))
        .count() as u32
}

/// Does a total of ranks over `games` tables keep the average at most
/// `at_most`? (One comparison for the early decision and the final one.)
pub fn average_within(rank_total: u32, games: u32, at_most: f64) -> bool {
    f64::from(rank_total) / f64::from(games.max(1)) <= at_most
}

/// A player's rank (1 = first) from a record's places (0 = first).
pub fn rank_of(places: &[u32], seat: usize) -> u32 {
    places[seat] + 1
}

/// First alone: a first place shared is not a win (as a draw is not in a
/// win rate).
pub fn first_alone(places: &[u32], seat: usize) -> bool {
    places[seat] == 0 && places.iter().filter(|p| **p == 0).count() == 1
}

/// The 95% interval of a mean of ranks (normal approximation), within the
/// ranks a table can give (1 to `players`).
pub fn rank_interval(ranks: &[u32], players: usize) -> (f64, f64) {
    let n = ranks.len() as f64;
    if ranks.len() < 2 {
        return (1.0, players as f64);
    }
    let mean = ranks.iter().map(|r| f64::from(*r)).sum::<f64>() / n;
    let variance = ranks
        .iter()
        .map(|r| (f64::from(*r) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    let spread = 1.959_963_984_540_054 * (variance / n).sqrt();
    (
        (mean - spread).max(1.0),
        (mean + spread).min(players as f64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seat_is_taken_equally_often_and_every_reference_sits_as_often() {
        for (references, players) in [(2, 3), (3, 3), (5, 3), (3, 4), (7, 4), (5, 6)] {
            let tables = (players * references * 2) as u32;
            let drawn = draw(9, references, players, tables);
            assert_eq!(drawn.len(), tables as usize);
            let mut at_seat = vec![0; players];
            let mut sat = vec![0; references];
            for t in &drawn {
                at_seat[t.tested] += 1;
                assert_eq!(t.references.len(), players - 1);
                let mut distinct = t.references.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), players - 1, "a reference twice: {t:?}");
                for r in &t.references {
                    sat[*r] += 1;
                }
                let seats = t.seats();
                assert_eq!(seats[t.tested], None);
                assert_eq!(seats.iter().filter(|s| s.is_none()).count(), 1);
            }
            let per_seat = tables as usize / players;
            assert!(at_seat.iter().all(|n| *n == per_seat), "{at_seat:?}");
            let (least, most) = (sat.iter().min().unwrap(), sat.iter().max().unwrap());
            assert!(
                most - least <= players,
                "{references} refs, {players}: {sat:?}"
            );
        }
    }

    #[test]
    fn a_block_shares_its_seed_and_references_and_rotates_the_table() {
        let drawn = draw(4, 4, 3, 6);
        for block in drawn.chunks(3) {
            assert!(block.iter().all(|t| t.seed == block[0].seed));
            // The same references in the same order around the table,
            // starting after the bot under test.
            let around = |t: &Table| {
                let seats = t.seats();
                (1..seats.len())
                    .map(|k| seats[(t.tested + k) % seats.len()].unwrap())
                    .collect::<Vec<_>>()
            };
            assert!(block.iter().all(|t| around(t) == around(&block[0])));
            let seats: Vec<usize> = block.iter().map(|t| t.tested).collect();
            assert_eq!(seats, [0, 1, 2]);
        }
        assert_ne!(drawn[0].seed, drawn[3].seed);
        assert_eq!(draw(4, 4, 3, 6), drawn, "drawn again the same");
        assert_ne!(
            draw(5, 4, 3, 12)
                .iter()
                .map(|t| t.references.clone())
                .collect::<Vec<_>>(),
            draw(4, 4, 3, 12)
                .iter()
                .map(|t| t.references.clone())
                .collect::<Vec<_>>(),
            "another seed deals the references otherwise"
        );
    }

    #[test]
    fn meetings_count_the_tables_of_a_reference() {
        // 5 references, 2 a table: 3 blocks of 3 tables meet them all.
        assert_eq!(tables_to_meet_all(5, 3), 9);
        let total: u32 = (0..5).map(|r| meetings(1, 5, 3, 9, r)).sum();
        assert_eq!(total, 9 * 2);
        assert!((0..5).all(|r| meetings(1, 5, 3, 9, r) >= 3));
    }

    #[test]
    fn ranks_wins_and_bounds() {
        assert_eq!(rank_of(&[0, 2, 0, 1], 1), 3);
        assert!(first_alone(&[1, 0, 2], 1));
        assert!(!first_alone(&[0, 0, 2], 0), "a shared first is not a win");
        assert!(average_within(15, 10, 1.5));
        assert!(!average_within(16, 10, 1.5));
        let (low, high) = rank_interval(&[1, 1, 2, 1, 3, 1], 3);
        assert!(
            (1.0..1.5).contains(&low) && high > 1.5 && high <= 3.0,
            "{low} {high}"
        );
        assert_eq!(rank_interval(&[2], 4), (1.0, 4.0));
    }
}
