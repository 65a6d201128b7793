//! Mastermind for bots, the way the rules text suggests: codes are integers
//! `0..M` (M = C^N, the code written in base C, first peg most significant),
//! feedbacks are integers `0..F` (F = (N+1)(N+2)/2, `0` = cracked), and the
//! feedback of every pair of codes is kept in an M x M matrix when it fits
//! (each entry computed on first use, so the first reply is not held up by
//! the whole matrix). A [`Solver`] keeps the codes still possible and picks attacks by a
//! [`Rule`]; the sample bots are this solver with different rules.
//!
//! Every size the referee accepts (up to 12 pegs and 36 colours, 36^12
//! codes) is played: when there are more than [`ENUMERATE_MAX_CODES`] codes
//! the table would not fit in the memory limit, so every bot plays a
//! [`Search`] instead: a code consistent with every feedback so far, found by
//! a randomized local search within a time budget (the best found when the
//! budget runs out).

use std::time::{Duration, Instant};

use crate::exact::{Exact, Feedback};
use crate::{serve, Rng};

/// The greeting `mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub pegs: u8,
    pub colours: u8,
    /// `first`, `second` or `solo`.
    pub role: String,
    pub max_attacks: u32,
    pub seed: u64,
}

pub fn parse_greeting(line: &str) -> Option<Setup> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["mastermind", pegs, colours, role, max_attacks, seed] => Some(Setup {
            pegs: pegs.parse().ok()?,
            colours: colours.parse().ok()?,
            role: role.to_string(),
            max_attacks: max_attacks.parse().ok()?,
            seed: seed.parse().ok()?,
        }),
        _ => None,
    }
}

/// `feedback B W` as (black, white).
pub fn parse_feedback(line: &str) -> Option<(u8, u8)> {
    let mut words = line.split_whitespace();
    if words.next()? != "feedback" {
        return None;
    }
    Some((words.next()?.parse().ok()?, words.next()?.parse().ok()?))
}

/// The rules' feedback encoding: more black, smaller number; `0` = cracked.
pub fn encode(black: u8, white: u8, pegs: u8) -> u8 {
    let above = pegs - black;
    above * (above + 1) / 2 + white
}

/// Feedback matrices up to this many codes (16 MiB of `u8`).
const MATRIX_MAX_CODES: usize = 4096;
/// A matrix entry not computed yet (feedback codes are below 91).
const UNKNOWN: u8 = u8::MAX;

/// Codes and their feedbacks for one (N, C).
pub struct Table {
    pub pegs: u8,
    pub colours: u8,
    /// M, the number of codes.
    pub count: usize,
    /// F, the number of feedback codes.
    pub feedbacks: usize,
    /// Colours of code `i` at `i * pegs ..`.
    digits: Vec<u8>,
    /// How many pegs of each colour code `i` has, at `i * colours ..`.
    colour_counts: Vec<u8>,
    /// `matrix[a * M + b]`: the encoded feedback, [`UNKNOWN`] until first
    /// used; empty when M is too large for a matrix.
    matrix: Vec<u8>,
}

impl Table {
    pub fn new(pegs: u8, colours: u8) -> Table {
        let count = (colours as usize).pow(pegs as u32);
        let n = pegs as usize;
        let c = colours as usize;
        let mut digits = vec![0u8; count * n];
        let mut colour_counts = vec![0u8; count * c];
        for i in 0..count {
            let mut rest = i;
            for p in (0..n).rev() {
                let colour = rest % c;
                digits[i * n + p] = colour as u8;
                colour_counts[i * c + colour] += 1;
                rest /= c;
            }
        }
        let mut table = Table {
            pegs,
            colours,
            count,
            feedbacks: (n + 1) * (n + 2) / 2,
            digits,
            colour_counts,
            matrix: Vec::new(),
        };
        if count <= MATRIX_MAX_CODES {
            table.matrix = vec![UNKNOWN; count * count];
        }
        table
    }

    pub fn code(&self, i: usize) -> &[u8] {
        let n = self.pegs as usize;
        &self.digits[i * n..(i + 1) * n]
    }

    /// The rules' reference feedback function, encoded (the tests check the
    /// quick count against it).
    #[cfg(test)]
    fn compute(&self, code: usize, guess: usize) -> u8 {
        let (c, g) = (self.code(code), self.code(guess));
        let mut v_code = [0u8; 36];
        let mut v_guess = [0u8; 36];
        let mut black = 0;
        for (&x, &y) in c.iter().zip(g) {
            if x == y {
                black += 1;
            } else {
                v_code[x as usize] += 1;
                v_guess[y as usize] += 1;
            }
        }
        let white = (0..self.colours as usize)
            .map(|k| v_code[k].min(v_guess[k]))
            .sum();
        encode(black, white, self.pegs)
    }

    /// The same feedback the quick way: the pegs of one colour matched in all
    /// (less the blacks) are the whites, so
    /// white = sum over colours of min(count in code, count in guess) - black.
    fn compute_fast(&self, code: usize, guess: usize) -> u8 {
        let (a, b) = (self.code(code), self.code(guess));
        let black = a.iter().zip(b).filter(|(x, y)| x == y).count() as u8;
        let c = self.colours as usize;
        let (ca, cb) = (
            &self.colour_counts[code * c..(code + 1) * c],
            &self.colour_counts[guess * c..(guess + 1) * c],
        );
        let matched: u8 = ca.iter().zip(cb).map(|(x, y)| *x.min(y)).sum();
        encode(black, matched - black, self.pegs)
    }

    /// The encoded feedback `code` gives `guess` (symmetric).
    #[inline]
    pub fn feedback(&mut self, code: usize, guess: usize) -> u8 {
        if self.matrix.is_empty() {
            return self.compute_fast(code, guess);
        }
        let known = self.matrix[code * self.count + guess];
        if known != UNKNOWN {
            return known;
        }
        let f = self.compute_fast(code, guess);
        self.matrix[code * self.count + guess] = f;
        self.matrix[guess * self.count + code] = f;
        f
    }

    /// The index of a code given by its colours.
    pub fn index(&self, colours: &[u8]) -> usize {
        colours
            .iter()
            .fold(0, |acc, &c| acc * self.colours as usize + c as usize)
    }

    /// The wire form: `0 0 1 1`.
    pub fn format(&self, i: usize) -> String {
        format_colours(self.code(i))
    }
}

impl Feedback for Table {
    fn codes(&self) -> usize {
        self.count
    }

    fn classes(&self) -> usize {
        self.feedbacks
    }

    fn cracked(&self) -> usize {
        encode(self.pegs, 0, self.pegs) as usize
    }

    fn class(&mut self, code: u32, guess: u32) -> usize {
        self.feedback(code as usize, guess as usize) as usize
    }
}

/// How a solver picks its next attack among the candidates, from the sizes
/// of the parts the possible codes fall into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Knuth (1976): the smallest largest part.
    Minimax,
    /// Kooi (2005): the most parts (non-empty feedback classes).
    MostParts,
    /// Any possible code, drawn at random (no scoring).
    RandomPossible,
    /// The optimal strategy of 4 pegs and 6 colours, from the book
    /// `mastermind_book.rs` (found offline by an exact search); at other
    /// sizes, and off the book, [`Rule::MostParts`].
    Optimal,
}

/// Feedbacks an entry of the book is keyed by (the deepest guess's).
const BOOK_DEPTH: usize = crate::mastermind_book::DEPTH;

/// [`Rule::Optimal`] searches exactly ([`Exact`]) when there are at most
/// this many codes: "most parts" is no better than a random possible code
/// at some small sizes (5 pegs, 2 colours: 3.31 attacks on average against
/// 3.21).
const EXACT_MAX_CODES: usize = 256;
/// Feedback evaluations the exact search may make per move before it
/// gives up for "most parts" (a few tenths of a second at most).
const EXACT_BUDGET: u64 = 4_000_000;

/// Per move, at most this many (candidate, possible code) pairs are scored;
/// beyond it both sets are sampled (large N and C only: never for 4 x 6).
const SCORE_BUDGET: usize = 3_000_000;
const TARGET_SAMPLE: usize = 2_000;

pub struct Solver {
    pub table: Table,
    /// The exact search of [`Rule::Optimal`] at small sizes, its memo kept
    /// from move to move and game to game.
    exact: Exact,
    pub rule: Rule,
    /// Codes consistent with every feedback so far, in increasing order.
    pub possible: Vec<u32>,
    last: Option<usize>,
    /// The first attack, once found (it depends only on N, C and the rule).
    first: Option<usize>,
    rng: Rng,
    /// Each feedback so far as black * 5 + white (the book's key; 4 pegs).
    feedbacks: Vec<u8>,
}

impl Solver {
    pub fn new(pegs: u8, colours: u8, rule: Rule, seed: u64) -> Solver {
        let table = Table::new(pegs, colours);
        let possible = (0..table.count as u32).collect();
        Solver {
            table,
            exact: Exact::with_budget(EXACT_BUDGET),
            rule,
            possible,
            last: None,
            first: None,
            rng: Rng::new(seed),
            feedbacks: Vec::new(),
        }
    }

    /// Forgets every feedback: a new game with the same table.
    pub fn reset(&mut self, seed: u64) {
        self.possible = (0..self.table.count as u32).collect();
        self.last = None;
        self.rng = Rng::new(seed);
        self.feedbacks.clear();
    }

    /// A secret code for the two-player game: uniform from the seed.
    pub fn secret(&mut self) -> String {
        let i = self.rng.below(self.table.count);
        self.table.format(i)
    }

    /// Keeps the codes that would have given this feedback to the last attack.
    pub fn observe(&mut self, black: u8, white: u8) {
        let Some(last) = self.last else { return };
        self.feedbacks
            .push(black.saturating_mul(5).saturating_add(white));
        let f = encode(black, white, self.table.pegs);
        let table = &mut self.table;
        self.possible
            .retain(|&s| table.feedback(s as usize, last) == f);
    }

    /// The next attack, as an index; remembered for [`Solver::observe`].
    pub fn attack(&mut self) -> usize {
        if let Some(pick) = self.book_attack() {
            self.last = Some(pick);
            return pick;
        }
        let opening = self.possible.len() == self.table.count;
        let pick = match (opening, self.first) {
            (true, Some(first)) => first,
            _ => self.choose(),
        };
        if opening && self.rule != Rule::RandomPossible {
            self.first = Some(pick);
        }
        self.last = Some(pick);
        pick
    }

    /// The book's guess, for [`Rule::Optimal`] at 4 pegs and 6 colours.
    fn book_attack(&self) -> Option<usize> {
        use crate::mastermind_book::BOOK;
        if self.rule != Rule::Optimal || (self.table.pegs, self.table.colours) != (4, 6) {
            return None;
        }
        let mut keys = [255u8; BOOK_DEPTH];
        if self.feedbacks.len() > keys.len() {
            return None;
        }
        keys[..self.feedbacks.len()].copy_from_slice(&self.feedbacks);
        let at = BOOK.binary_search_by(|(path, _)| path.cmp(&keys)).ok()?;
        Some(usize::from(BOOK[at].1))
    }

    fn choose(&mut self) -> usize {
        let Solver {
            table,
            exact,
            rule,
            possible,
            rng,
            ..
        } = self;
        if possible.is_empty() {
            // Only after feedback that no code gives: play anything legal.
            return 0;
        }
        if possible.len() <= 2 {
            return possible[0] as usize;
        }
        match rule {
            Rule::RandomPossible => return possible[rng.below(possible.len())] as usize,
            // Knuth's published first guess, 1122 in colours 1-6.
            Rule::Minimax if possible.len() == table.count => {
                let n = table.pegs as usize;
                let first: Vec<u8> = (0..n).map(|p| u8::from(p >= n / 2)).collect();
                return table.index(&first);
            }
            Rule::Minimax | Rule::MostParts | Rule::Optimal => {}
        }
        let opening = possible.len() == table.count;
        if *rule == Rule::Optimal && table.count <= EXACT_MAX_CODES {
            exact.refill(EXACT_BUDGET);
            let guesses: Vec<u32> = if opening {
                canonical_codes(table.pegs, table.colours)
                    .iter()
                    .map(|c| table.index(c) as u32)
                    .collect()
            } else {
                (0..table.count as u32).collect()
            };
            if let Some((_, g)) = exact.solve_among(table, possible, &guesses) {
                return g as usize;
            }
        }
        let targets: Vec<u32> =
            if possible.len() <= TARGET_SAMPLE || possible.len() * table.count <= SCORE_BUDGET {
                possible.clone()
            } else {
                (0..TARGET_SAMPLE)
                    .map(|_| possible[rng.below(possible.len())])
                    .collect()
            };
        let candidates: Vec<u32> = if opening {
            // Before any feedback, renaming colours or reordering pegs
            // changes no score: score only the lowest-numbered code of each
            // class (non-decreasing, colours used in order 0, 1, ...).
            canonical_codes(table.pegs, table.colours)
                .iter()
                .map(|c| table.index(c) as u32)
                .collect()
        } else if table.count * targets.len() <= SCORE_BUDGET {
            (0..table.count as u32).collect()
        } else {
            let k = (SCORE_BUDGET / targets.len()).max(2);
            let mut c: Vec<u32> = Vec::with_capacity(k);
            for _ in 0..k / 2 {
                c.push(possible[rng.below(possible.len())]);
                c.push(rng.below(table.count) as u32);
            }
            c.sort_unstable();
            c.dedup();
            c
        };
        let mut counts = vec![0u32; table.feedbacks];
        // (score, possible, code): lower score is better; ties go to a
        // possible code, then to the lowest code number (candidates ascend).
        let mut best: Option<(i64, bool, usize)> = None;
        for &g in &candidates {
            let g = g as usize;
            counts.iter_mut().for_each(|c| *c = 0);
            for &s in &targets {
                counts[table.feedback(s as usize, g) as usize] += 1;
            }
            let score = match rule {
                Rule::Minimax => i64::from(*counts.iter().max().expect("F > 0")),
                Rule::MostParts | Rule::Optimal => {
                    -(counts.iter().filter(|&&c| c > 0).count() as i64)
                }
                Rule::RandomPossible => unreachable!("handled above"),
            };
            let is_possible = possible.binary_search(&(g as u32)).is_ok();
            let better = match best {
                None => true,
                Some((bs, bp, _)) => score < bs || (score == bs && is_possible && !bp),
            };
            if better {
                best = Some((score, is_possible, g));
            }
        }
        best.map_or(possible[0] as usize, |(_, _, g)| g)
    }
}

/// Codes whose colours never decrease and are used in order 0, 1, 2, ...:
/// one per class of codes alike up to renaming colours and reordering pegs,
/// each the lowest-numbered of its class. In increasing order.
pub fn canonical_codes(pegs: u8, colours: u8) -> Vec<Vec<u8>> {
    let mut out = vec![vec![0u8]];
    for _ in 1..pegs {
        out = out
            .into_iter()
            .flat_map(|code| {
                let last = *code.last().expect("not empty");
                let mut next = vec![];
                for c in [last, last + 1] {
                    if c < colours {
                        let mut longer = code.clone();
                        longer.push(c);
                        next.push(longer);
                    }
                }
                next
            })
            .collect();
    }
    out.sort();
    out
}

/// The most codes (C^N) a bot enumerates: its table, the possible codes
/// and the scoring then stay within a few MiB and well under a second a
/// move. Larger games are played by [`Search`].
pub const ENUMERATE_MAX_CODES: u64 = 200_000;

/// Time [`Search`] spends looking for a consistent code, per attack (the
/// referee's default limit is 2 s a move).
pub const SEARCH_BUDGET: Duration = Duration::from_millis(250);

/// The encoded feedback of `guess` against `code`, both as colours.
pub fn feedback_of(code: &[u8], guess: &[u8], pegs: u8) -> u8 {
    let (b, w) = black_white(code, guess);
    encode(b, w, pegs)
}

/// (black, white) of `guess` against `code` (colours below 36).
pub fn black_white(code: &[u8], guess: &[u8]) -> (u8, u8) {
    let mut in_code = [0u8; 36];
    let mut in_guess = [0u8; 36];
    let mut black = 0;
    for (&x, &y) in code.iter().zip(guess) {
        if x == y {
            black += 1;
        } else {
            in_code[x as usize] += 1;
            in_guess[y as usize] += 1;
        }
    }
    let white = in_code.iter().zip(&in_guess).map(|(a, b)| *a.min(b)).sum();
    (black, white)
}

/// The solver of games too large to enumerate: each attack is a code
/// consistent with every feedback so far, found by random restarts of a
/// local search (change one peg, keep the change unless it makes the code
/// less consistent) until one is found or [`SEARCH_BUDGET`] runs out; then
/// the least inconsistent code seen. Memory: the feedback history only.
pub struct Search {
    pub pegs: u8,
    pub colours: u8,
    /// Each attack with its (black, white).
    history: Vec<(Vec<u8>, u8, u8)>,
    last: Option<Vec<u8>>,
    rng: Rng,
    pub budget: Duration,
}

impl Search {
    pub fn new(pegs: u8, colours: u8, seed: u64) -> Search {
        Search {
            pegs,
            colours,
            history: vec![],
            last: None,
            rng: Rng::new(seed),
            budget: SEARCH_BUDGET,
        }
    }

    fn random_code(&mut self) -> Vec<u8> {
        (0..self.pegs)
            .map(|_| self.rng.below(self.colours as usize) as u8)
            .collect()
    }

    /// A secret code for the two-player game: uniform from the seed.
    pub fn secret(&mut self) -> String {
        let code = self.random_code();
        format_colours(&code)
    }

    /// How far `code` is from giving every feedback so far: the sum of the
    /// differences in blacks and whites (0: consistent).
    fn distance(&self, code: &[u8]) -> u32 {
        self.history
            .iter()
            .map(|(guess, b, w)| {
                let (b2, w2) = black_white(code, guess);
                u32::from(b.abs_diff(b2)) + u32::from(w.abs_diff(w2))
            })
            .sum()
    }

    /// The next attack (remembered for [`Search::observe`]).
    pub fn attack(&mut self) -> Vec<u8> {
        let deadline = Instant::now() + self.budget;
        let mut best = self.random_code();
        let mut best_distance = self.distance(&best);
        let steps = 8 * usize::from(self.pegs) * usize::from(self.colours);
        'search: while best_distance > 0 && Instant::now() < deadline {
            let mut code = self.random_code();
            let mut distance = self.distance(&code);
            for step in 0..steps {
                if distance == 0 || (step % 64 == 0 && Instant::now() >= deadline) {
                    break;
                }
                let peg = self.rng.below(usize::from(self.pegs));
                let colour = self.rng.below(usize::from(self.colours)) as u8;
                let old = code[peg];
                if old == colour {
                    continue;
                }
                code[peg] = colour;
                let d = self.distance(&code);
                if d <= distance {
                    distance = d;
                } else {
                    code[peg] = old;
                }
            }
            if distance < best_distance {
                best_distance = distance;
                best = code;
                if distance == 0 {
                    break 'search;
                }
            }
        }
        self.last = Some(best.clone());
        best
    }

    pub fn observe(&mut self, black: u8, white: u8) {
        if let Some(last) = self.last.take() {
            self.history.push((last, black, white));
        }
    }
}

/// The wire form of a code given by its colours: `0 0 1 1`, `a b 3`.
pub fn format_colours(code: &[u8]) -> String {
    code.iter()
        .map(|&c| {
            if c < 10 {
                (b'0' + c) as char
            } else {
                (b'a' + c - 10) as char
            }
            .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A bot's solver: the enumerating one when the codes fit, else the search.
pub enum Player {
    Enumerate(Box<Solver>),
    Search(Search),
}

impl Player {
    pub fn new(pegs: u8, colours: u8, rule: Rule, seed: u64) -> Player {
        if u64::from(colours).saturating_pow(u32::from(pegs)) <= ENUMERATE_MAX_CODES {
            Player::Enumerate(Box::new(Solver::new(pegs, colours, rule, seed)))
        } else {
            Player::Search(Search::new(pegs, colours, seed))
        }
    }

    pub fn secret(&mut self) -> String {
        match self {
            Player::Enumerate(s) => s.secret(),
            Player::Search(s) => s.secret(),
        }
    }

    /// The next attack in its wire form.
    pub fn attack(&mut self) -> String {
        match self {
            Player::Enumerate(s) => {
                let a = s.attack();
                s.table.format(a)
            }
            Player::Search(s) => format_colours(&s.attack()),
        }
    }

    pub fn observe(&mut self, black: u8, white: u8) {
        match self {
            Player::Enumerate(s) => s.observe(black, white),
            Player::Search(s) => s.observe(black, white),
        }
    }
}

/// The whole bot: answers the greeting, `code`, `attack` and `feedback`
/// lines with a solver using `rule` (or the [`Search`] when the game is too
/// large to enumerate).
pub fn run_bot(rule: Rule) {
    let mut player: Option<Player> = None;
    serve(|line| {
        if let Some(setup) = parse_greeting(line) {
            if !(1..=12).contains(&setup.pegs) || !(2..=36).contains(&setup.colours) {
                eprintln!(
                    "this bot plays 1 to 12 pegs and 2 to 36 colours, not {} x {}",
                    setup.pegs, setup.colours
                );
                std::process::exit(2);
            }
            player = Some(Player::new(setup.pegs, setup.colours, rule, setup.seed));
            return None;
        }
        let p = player.get_or_insert_with(|| Player::new(4, 6, rule, 1));
        match line.split_whitespace().next()? {
            "code" => Some(p.secret()),
            "attack" => Some(p.attack()),
            "feedback" => {
                if let Some((b, w)) = parse_feedback(line) {
                    p.observe(b, w);
                }
                None
            }
            _ => None,
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays every secret of 4 x 6 and returns (total attacks, largest).
    fn every_secret(rule: Rule) -> (usize, usize) {
        let mut s = Solver::new(4, 6, rule, 1);
        let mut total = 0;
        let mut largest = 0;
        for secret in 0..s.table.count {
            s.reset(secret as u64);
            let mut attacks = 0;
            loop {
                let a = s.attack();
                attacks += 1;
                let f = s.table.feedback(secret, a);
                if f == 0 {
                    break;
                }
                assert!(attacks < 12, "secret {secret} not cracked");
                let (mut black, mut white) = (0, 0);
                'find: for b in 0..=4u8 {
                    for w in 0..=(4 - b) {
                        if encode(b, w, 4) == f {
                            (black, white) = (b, w);
                            break 'find;
                        }
                    }
                }
                s.observe(black, white);
            }
            total += attacks;
            largest = largest.max(attacks);
        }
        (total, largest)
    }

    #[test]
    fn encoding_is_the_rules_table() {
        assert_eq!(encode(3, 0, 3), 0);
        assert_eq!(encode(2, 1, 3), 2);
        assert_eq!(encode(0, 3, 3), 9);
        assert_eq!(encode(4, 0, 4), 0);
    }

    #[test]
    fn table_matches_direct_computation() {
        let mut t = Table::new(4, 6);
        assert_eq!(t.index(&[0, 1, 2, 3]), 51);
        assert_eq!(t.format(51), "0 1 2 3");
        for (a, b) in [(0, 0), (51, 1295), (8, 300), (777, 12)] {
            assert_eq!(t.feedback(a, b), t.feedback(b, a));
        }
        // The quick count agrees with the rules' function on every pair.
        for a in 0..t.count {
            for b in 0..t.count {
                assert_eq!(t.feedback(a, b), t.compute(a, b));
            }
        }
    }

    #[test]
    fn canonical_openings() {
        let codes: Vec<String> = canonical_codes(4, 6)
            .iter()
            .map(|c| c.iter().map(|d| d.to_string()).collect())
            .collect();
        assert_eq!(
            codes,
            ["0000", "0001", "0011", "0012", "0111", "0112", "0122", "0123"]
        );
        assert_eq!(canonical_codes(3, 2).len(), 3);
        // The opening scored on these equals the opening scored on all codes.
        let mut s = Solver::new(4, 6, Rule::MostParts, 1);
        let fast = s.attack();
        assert_eq!(s.table.format(fast), "0 0 1 2");
        let parts = |t: &mut Table, g: usize| {
            let mut seen = [false; 15];
            (0..1296).for_each(|x| seen[t.feedback(x, g) as usize] = true);
            seen.iter().filter(|&&b| b).count()
        };
        let most = (0..1296).map(|g| parts(&mut s.table, g)).max().unwrap();
        let first_best = (0..1296).find(|&g| parts(&mut s.table, g) == most);
        assert_eq!(first_best, Some(fast));
    }

    /// The search plays consistent codes and cracks a small game quickly.
    #[test]
    fn the_search_finds_consistent_codes() {
        let mut cracked = 0;
        for seed in 0..20u64 {
            let mut s = Search::new(4, 6, seed);
            let secret: Vec<u8> = (0..4).map(|p| ((seed + p * 5) % 6) as u8).collect();
            for _ in 0..12 {
                let guess = s.attack();
                assert_eq!(s.distance(&guess), 0, "a consistent code exists");
                let (b, w) = black_white(&secret, &guess);
                if b == 4 {
                    cracked += 1;
                    break;
                }
                s.observe(b, w);
            }
        }
        assert_eq!(cracked, 20);
        // The largest game: a move within the budget, memory for the
        // history only.
        let mut s = Search::new(12, 36, 1);
        let started = Instant::now();
        let code = s.attack();
        assert_eq!(code.len(), 12);
        s.observe(1, 2);
        s.attack();
        assert!(
            started.elapsed() < SEARCH_BUDGET * 3,
            "{:?}",
            started.elapsed()
        );
        assert!(matches!(
            Player::new(8, 10, Rule::Minimax, 1),
            Player::Search(_)
        ));
        assert!(matches!(
            Player::new(4, 6, Rule::Minimax, 1),
            Player::Enumerate(_)
        ));
    }

    #[test]
    fn knuth_reproduces_the_published_figures() {
        assert_eq!(every_secret(Rule::Minimax), (5801, 5));
    }

    /// The book's strategy over every secret: the optimum, 5625 (4.3403).
    #[test]
    fn the_optimal_book_reaches_the_optimum() {
        assert_eq!(every_secret(Rule::Optimal).0, 5625);
        assert_eq!(crate::mastermind_book::TOTAL, 5625);
    }

    #[test]
    fn most_parts_beats_knuth() {
        let (total, largest) = every_secret(Rule::MostParts);
        assert!(total < 5801, "{total}");
        assert!(largest <= 6, "{largest}");
    }
}
