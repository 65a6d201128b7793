//! Safe Cracker, the optimal solver: each guess minimises the total number of
//! guesses over every code still possible (so the average over equally likely
//! secrets), found by an exhaustive expected-depth search over the consistent
//! sets with guesses from all codes, memoised per set.
//!
//! Over the 27 secrets of the default game (3 digits from 1-3) it needs 95
//! guesses in all, 3.519 on average: the optimum (docs/measurements.md, "Safe Cracker solvers").
//! Sets larger than `EXACT_SET_LIMIT` (30), or games of more than 100 codes, use
//! the one-step heuristic (fewest codes left expected) instead.

use sample_bots::safecracker::{heuristic_guess, play, Knowledge, Solver, EXACT_SET_LIMIT};

/// Games with more codes than this are not searched exactly.
const EXACT_CODES_LIMIT: usize = 100;
/// Work (possible codes x candidate guesses) the heuristic may do per guess.
const HEURISTIC_WORK: usize = 4_000_000;

fn main() {
    let mut solver: Option<Solver> = None;
    play(|k: &Knowledge, rng| {
        let possible = &k.possible;
        if possible.len() == 1 {
            return k.codes[possible[0] as usize].clone();
        }
        if possible.len() <= EXACT_SET_LIMIT && k.codes.len() <= EXACT_CODES_LIMIT {
            let solver = solver.get_or_insert_with(|| Solver::new(k.codes.clone(), k.length));
            return k.codes[solver.solve(possible).1 as usize].clone();
        }
        let candidates: Vec<u32> = if possible.len() * k.codes.len() <= HEURISTIC_WORK {
            (0..k.codes.len() as u32).collect()
        } else {
            let n = (HEURISTIC_WORK / possible.len()).max(1);
            (0..n)
                .map(|_| possible[rng.below(possible.len())])
                .collect()
        };
        k.codes[heuristic_guess(&k.codes, possible, &candidates, k.length) as usize].clone()
    });
}
