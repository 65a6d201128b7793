//! The exact search both code-breaking solvers share (Safe Cracker's
//! optimal bot at every size, Mastermind's strong bot at small sizes): for
//! a set of possible codes, the guess that makes the total number of
//! guesses over all of them smallest (so the average, over equally likely
//! secrets, smallest). Guesses range over every code the caller offers,
//! possible or not. Results are memoised per set.
//!
//! The search is exact; what keeps it fast is pruning that never changes
//! the optimum: guesses that split the set the same way are tried once, and
//! a lower bound on any strategy's total cuts a branch as soon as it cannot
//! win. An optional budget of feedback evaluations bounds a search that
//! would take too long: it then answers nothing, and what it memoised stays
//! exact.

use std::collections::{HashMap, HashSet};

/// A game's feedback, as the search needs it.
pub trait Feedback {
    /// How many codes there are (they are numbered from 0).
    fn codes(&self) -> usize;
    /// How many feedback classes a guess can split codes into.
    fn classes(&self) -> usize;
    /// The class of the guess itself: cracked.
    fn cracked(&self) -> usize;
    /// The class of `code` when `guess` is played against it.
    fn class(&mut self, code: u32, guess: u32) -> usize;
}

pub struct Exact {
    memo: HashMap<Vec<u32>, (u32, u32)>,
    /// Feedback evaluations left; `None`: no bound.
    budget: Option<u64>,
}

impl Exact {
    /// A search with no bound.
    pub fn new() -> Exact {
        Exact {
            memo: HashMap::new(),
            budget: None,
        }
    }

    /// A search that gives up after `evaluations` feedback evaluations in
    /// all (memoised sets are answered for free).
    pub fn with_budget(evaluations: u64) -> Exact {
        Exact {
            memo: HashMap::new(),
            budget: Some(evaluations),
        }
    }

    /// Allows `evaluations` more feedback evaluations (a budgeted search).
    pub fn refill(&mut self, evaluations: u64) {
        if self.budget.is_some() {
            self.budget = Some(evaluations);
        }
    }

    /// Splits `set` by the feedback of guess `g`: one class per feedback,
    /// the cracked class left empty (the guess itself).
    pub fn partition<G: Feedback>(game: &mut G, g: u32, set: &[u32]) -> Vec<Vec<u32>> {
        let mut classes = vec![vec![]; game.classes()];
        for &c in set {
            classes[game.class(c, g)].push(c);
        }
        classes[game.cracked()].clear();
        classes
    }

    /// A lower bound on the guesses needed in total to crack every code of
    /// a set of `n`: one code can be cracked by the first guess, at most one
    /// per other feedback class by the second, and so on.
    fn lower_bound(branching: usize, n: usize) -> u32 {
        let (mut left, mut depth, mut width, mut total) = (n, 1u32, 1usize, 0u32);
        while left > 0 {
            let here = width.min(left);
            total += here as u32 * depth;
            left -= here;
            depth += 1;
            width = width.saturating_mul(branching.max(1));
        }
        total
    }

    /// The fewest guesses in total to crack every code of `set` (sorted),
    /// and the first guess that achieves it, guesses ranging over every
    /// code; `None` if the budget ran out.
    pub fn solve<G: Feedback>(&mut self, game: &mut G, set: &[u32]) -> Option<(u32, u32)> {
        let all: Vec<u32> = (0..game.codes() as u32).collect();
        self.solve_among(game, set, &all)
    }

    /// [`Exact::solve`] with the first guess among `guesses` only (for the
    /// whole game: one per class of codes alike under the game's symmetry).
    pub fn solve_among<G: Feedback>(
        &mut self,
        game: &mut G,
        set: &[u32],
        guesses: &[u32],
    ) -> Option<(u32, u32)> {
        match set.len() {
            0 => return Some((0, 0)),
            1 => return Some((1, set[0])),
            2 => return Some((3, set[0])),
            _ => {}
        }
        if let Some(&known) = self.memo.get(set) {
            return Some(known);
        }
        let n = set.len() as u32;
        let branching = game.classes() - 1;
        // Candidates, best first by the one-step score, so the bound bites
        // early; a guess splitting the set as an earlier one did is skipped.
        let mut seen = HashSet::new();
        let mut candidates: Vec<(u64, bool, u32)> = Vec::new();
        for &g in guesses {
            if let Some(left) = &mut self.budget {
                *left = left.checked_sub(set.len() as u64)?;
            }
            let split: Vec<u8> = set.iter().map(|&c| game.class(c, g) as u8).collect();
            let mut sizes = vec![0u64; game.classes()];
            for &e in &split {
                sizes[e as usize] += 1;
            }
            if sizes.iter().any(|&k| k == u64::from(n)) && sizes[game.cracked()] == 0 {
                continue; // learns nothing
            }
            if !seen.insert(split) {
                continue;
            }
            let score = sizes.iter().map(|k| k * k).sum();
            candidates.push((score, set.binary_search(&g).is_err(), g));
        }
        candidates.sort_unstable();
        let mut best = (u32::MAX, set[0]);
        for (_, _, g) in candidates {
            let classes = Exact::partition(game, g, set);
            let bound: u32 = n + classes
                .iter()
                .map(|k| Exact::lower_bound(branching, k.len()))
                .sum::<u32>();
            if bound >= best.0 {
                continue;
            }
            let mut total = n;
            let mut rest_bound = bound - n;
            for k in classes.iter().filter(|k| !k.is_empty()) {
                rest_bound -= Exact::lower_bound(branching, k.len());
                total += self.solve(game, k)?.0;
                if total + rest_bound >= best.0 {
                    break;
                }
            }
            if total + rest_bound < best.0 {
                best = (total, g);
            }
        }
        self.memo.insert(set.to_vec(), best);
        Some(best)
    }
}

impl Default for Exact {
    fn default() -> Exact {
        Exact::new()
    }
}
