//! Safe Cracker, the optimal solver: each guess minimises the total number of
//! guesses over every code still possible (so the average over equally likely
//! secrets).
//!
//! For every size with a book (`sample_bots/src/safecracker_book.rs`: 1 and 2
//! digits per code with any digits, 3 digits from up to 1-5, 4 digits from up
//! to 1-4, 5 to 7 digits from 1-2) it plays the optimal decision tree found
//! offline by an exact search (`examples/safecracker_optimum.rs`): 95/27 =
//! 3.5185 guesses on average at the default size, 4.3750 for 3 digits from
//! 1-4, 4.0864 for 4 digits from 1-3 and 5.0820 for 4 digits from 1-4.
//!
//! Other sizes are too large to solve exactly within a move's time limit, and
//! the bot says so on stderr: it plays the one-step heuristic (the guess that
//! leaves the fewest codes expected, among the codes still possible or a
//! sample of them: a consistent guess, never a wasted one), with
//! an exact search once few codes remain, and for games too large to
//! enumerate a consistent code found by local search.

use sample_bots::safecracker::{code_index, heuristic_guess, play, Book, Knowledge, Solver};

/// Possible sets up to this size are solved exactly when off the book.
const EXACT_SET_LIMIT: usize = 10;
/// Work (possible codes x candidate guesses) the heuristic may do per guess.
const HEURISTIC_WORK: usize = 4_000_000;

fn main() {
    let mut solver: Option<Solver> = None;
    let mut announced = false;
    play(|k: &Knowledge, rng| {
        let digits = digits_of(k);
        let book = Book::find(k.length, digits);
        if !announced {
            announced = true;
            match book {
                Some(b) => eprintln!(
                    "safecracker_optimal: optimal book for {} digits from 1-{digits} ({:.4} guesses on average)",
                    k.length,
                    f64::from(b.total) / k.codes.len() as f64
                ),
                None => eprintln!(
                    "safecracker_optimal: no exact solution for {} digits from 1-{digits} within the time limit: playing the one-step heuristic (not proven optimal)",
                    k.length
                ),
            }
        }
        if let Some(node) = book.and_then(|b| walk(b, k, digits)) {
            return k.codes[book.unwrap().guess(node) as usize].clone();
        }
        let possible = &k.possible;
        if possible.len() == 1 {
            return k.codes[possible[0] as usize].clone();
        }
        if possible.len() <= EXACT_SET_LIMIT {
            let solver = solver.get_or_insert_with(|| Solver::new(k.codes.clone(), k.length));
            return k.codes[solver.solve(possible).1 as usize].clone();
        }
        let candidates: Vec<u32> = if possible.len() * possible.len() <= HEURISTIC_WORK {
            possible.clone()
        } else {
            let n = (HEURISTIC_WORK / possible.len()).max(1);
            (0..n)
                .map(|_| possible[rng.below(possible.len())])
                .collect()
        };
        k.codes[heuristic_guess(&k.codes, possible, &candidates, k.length) as usize].clone()
    });
}

/// The digits D of the game, from its last code (D^L codes, the last all D).
fn digits_of(k: &Knowledge) -> u8 {
    k.codes.last().map_or(0, |c| c[0])
}

/// The book's node after this game's guesses and feedback, if every guess
/// so far was the book's.
fn walk(book: &Book, k: &Knowledge, digits: u8) -> Option<u16> {
    let mut node = 0;
    for (guess, exact) in &k.history {
        if book.guess(node) != code_index(guess, digits) {
            return None;
        }
        node = book.next(node, *exact)?;
    }
    Some(node)
}
