//! Offline: the optimal (fewest guesses in total over every secret)
//! Mastermind strategy at 4 pegs and 6 colours, by an exact search.
//!
//!     cargo run --release -p sample_bots --example mastermind_optimum [FIRST] [--emit]
//!
//! FIRST is the first guess's code number (default 8: 0 0 1 2, the rules'
//! 1 1 2 3); the search tries every guess at every later node, memoised per
//! set of codes still possible, guesses that split the set alike tried once,
//! branches cut by a lower bound (one code found by the next guess, at most
//! 13 more by the one after, ...). `--emit` writes the strategy found to
//! `sample_bots/src/mastermind_book.rs` for `mastermind_strong`.
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

const PEGS: usize = 4;
const COLOURS: usize = 6;
const N: usize = 1296;
/// Feedback codes (black * 5 + white); 20 is the crack (4 black).
const CRACK: u8 = 20;

struct Solver {
    fb: Vec<u8>,
    memo: HashMap<Vec<u16>, (u32, u16)>,
    nodes: u64,
}

fn code(i: usize) -> [u8; PEGS] {
    let mut c = [0u8; PEGS];
    let mut r = i;
    for p in (0..PEGS).rev() {
        c[p] = (r % COLOURS) as u8;
        r /= COLOURS;
    }
    c
}

fn feedback(a: &[u8; PEGS], b: &[u8; PEGS]) -> u8 {
    let black = a.iter().zip(b).filter(|(x, y)| x == y).count();
    let mut ca = [0u8; COLOURS];
    let mut cb = [0u8; COLOURS];
    for i in 0..PEGS {
        ca[a[i] as usize] += 1;
        cb[b[i] as usize] += 1;
    }
    let common: usize = (0..COLOURS).map(|c| ca[c].min(cb[c]) as usize).sum();
    (black * 5 + common - black) as u8
}

/// A lower bound on the total guesses for a set of `n`: one code found by
/// the next guess, at most 13 by the one after (one per other feedback), ...
fn lower_bound(n: usize) -> u32 {
    let (mut left, mut depth, mut width, mut total) = (n, 1u32, 1usize, 0u32);
    while left > 0 {
        let here = width.min(left);
        total += here as u32 * depth;
        left -= here;
        depth += 1;
        width = width.saturating_mul(13);
    }
    total
}

impl Solver {
    fn solve(&mut self, set: &[u16]) -> (u32, u16) {
        match set.len() {
            0 => return (0, 0),
            1 => return (1, set[0]),
            2 => return (3, set[0]),
            _ => {}
        }
        if let Some(&m) = self.memo.get(set) {
            return m;
        }
        self.nodes += 1;
        let n = set.len();
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut candidates: Vec<(u32, bool, u16)> = vec![];
        // A guess in the set that splits it into singletons is optimal.
        for g in 0..N as u16 {
            let row = &self.fb[g as usize * N..(g as usize + 1) * N];
            let split: Vec<u8> = set.iter().map(|&c| row[c as usize]).collect();
            let mut sizes = [0u32; 21];
            for &f in &split {
                sizes[f as usize] += 1;
            }
            if sizes.iter().any(|&k| k as usize == n) {
                continue;
            }
            if !seen.insert(split) {
                continue;
            }
            let bound: u32 = (0..21)
                .filter(|&f| f != CRACK as usize)
                .map(|f| lower_bound(sizes[f] as usize))
                .sum();
            candidates.push((bound, set.binary_search(&g).is_err(), g));
        }
        candidates.sort_unstable();
        let mut best = (u32::MAX, set[0]);
        for (bound, _, g) in candidates {
            let bound = bound + n as u32;
            if bound >= best.0 {
                break; // sorted by bound: nothing later can win
            }
            let row = &self.fb[g as usize * N..(g as usize + 1) * N];
            let mut classes: Vec<Vec<u16>> = vec![vec![]; 21];
            for &c in set {
                let f = row[c as usize];
                if f != CRACK {
                    classes[f as usize].push(c);
                }
            }
            let mut total = n as u32;
            let mut rest = bound - n as u32;
            classes.sort_by_key(|k| std::cmp::Reverse(k.len()));
            for k in classes.iter().filter(|k| !k.is_empty()) {
                rest -= lower_bound(k.len());
                total += self.solve(k).0;
                if total + rest >= best.0 {
                    break;
                }
            }
            if total + rest < best.0 {
                best = (total, g);
            }
        }
        self.memo.insert(set.to_vec(), best);
        best
    }
}

fn main() {
    let codes: Vec<[u8; PEGS]> = (0..N).map(code).collect();
    let mut fb = vec![0u8; N * N];
    for g in 0..N {
        for c in 0..N {
            fb[g * N + c] = feedback(&codes[g], &codes[c]);
        }
    }
    let mut solver = Solver {
        fb,
        memo: HashMap::new(),
        nodes: 0,
    };
    let all: Vec<u16> = (0..N as u16).collect();
    let start = std::time::Instant::now();
    // First guesses up to symmetry: 0000, 0001, 0011, 0012, 0123.
    let first: u16 = std::env::args().nth(1).map_or(8, |a| a.parse().unwrap());
    let row = &solver.fb[first as usize * N..(first as usize + 1) * N].to_vec();
    let mut classes: Vec<Vec<u16>> = vec![vec![]; 21];
    for &c in &all {
        if row[c as usize] != CRACK {
            classes[row[c as usize] as usize].push(c);
        }
    }
    let mut total = N as u32;
    for (f, k) in classes.iter().enumerate().filter(|(_, k)| !k.is_empty()) {
        let t = solver.solve(k).0;
        total += t;
        eprintln!(
            "feedback {f}: {} codes, {t} guesses ({:.1?}, {} nodes)",
            k.len(),
            start.elapsed(),
            solver.nodes
        );
    }
    println!(
        "first {:?}: {total} = {:.4} in {:.1?}",
        code(first as usize),
        total as f64 / N as f64,
        start.elapsed()
    );
    if std::env::args().any(|a| a == "--emit") {
        let mut book: Vec<(Vec<u8>, u16)> = vec![(vec![], first)];
        let mut worst = 1;
        for (f, k) in classes.iter().enumerate().filter(|(_, k)| !k.is_empty()) {
            solver.extract(k, &mut vec![f as u8], &mut book, &mut worst);
        }
        let depth = book.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
        // Sorted as the bot searches it: by the padded keys.
        for (path, _) in &mut book {
            path.resize(depth, 255);
        }
        book.sort();
        let mut out = format!(
            "//! Generated by `cargo run --release -p sample_bots --example mastermind_optimum -- {first} --emit`:\n\
             //! do not edit. An optimal strategy for 4 pegs and 6 colours: {total} guesses over the\n\
             //! 1296 secrets ({:.4} on average), at most {worst}. Each entry is the feedbacks so far\n\
             //! (black * 5 + white, padded with 255) and the guess to make (a code number).\n\n\
             pub const TOTAL: u32 = {total};\npub const DEPTH: usize = {depth};\npub const BOOK: &[([u8; DEPTH], u16)] = &[\n",
            total as f64 / N as f64
        );
        for (path, guess) in &book {
            let mut keys = path.clone();
            keys.resize(depth, 255);
            writeln!(out, "    ({keys:?}, {guess}),").unwrap();
        }
        out.push_str("];\n");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/mastermind_book.rs");
        std::fs::write(path, out).expect("write the book");
        eprintln!("wrote {path} ({} entries)", book.len());
    }
}

impl Solver {
    /// The strategy's guess at every node below `set`, keyed by the
    /// feedbacks that lead there.
    fn extract(
        &mut self,
        set: &[u16],
        path: &mut Vec<u8>,
        book: &mut Vec<(Vec<u8>, u16)>,
        worst: &mut usize,
    ) {
        let guess = if set.len() <= 2 {
            set[0]
        } else {
            self.solve(set).1
        };
        book.push((path.clone(), guess));
        let row = self.fb[guess as usize * N..(guess as usize + 1) * N].to_vec();
        let mut classes: Vec<Vec<u16>> = vec![vec![]; 21];
        for &c in set {
            if row[c as usize] == CRACK {
                *worst = (*worst).max(path.len() + 1);
            } else {
                classes[row[c as usize] as usize].push(c);
            }
        }
        for (f, k) in classes.iter().enumerate().filter(|(_, k)| !k.is_empty()) {
            path.push(f as u8);
            self.extract(k, path, book, worst);
            path.pop();
        }
    }
}
