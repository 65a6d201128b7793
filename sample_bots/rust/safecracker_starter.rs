//! Safe Cracker starter bot in Rust (standard library only): copy this file
//! and make it smarter.
//!
//! Run it through the referee (which builds it); other sizes go up to 10
//! digits from 1-9:
//!   referee match safecracker sample_bots/rust/safecracker_starter.rs target/release/safecracker_random
//!   referee match safecracker sample_bots/rust/safecracker_starter.rs target/release/safecracker_random --length 5 --digits 6
//!   referee bench safecracker sample_bots/rust/safecracker_starter.rs --all
//! By hand: rustc -O --edition 2021 -o safecracker_starter sample_bots/rust/safecracker_starter.rs
//!
//! The protocol (see protocol.md, Safe Cracker): one line at a time.
//!   safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   the game; ROLE is first, second or solo
//!   code            answer with your secret code, e.g. "1 2 3"
//!   guess           answer with a guess, e.g. "1 2 3"
//!   feedback K      your last guess had K exact matches
//!   opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
//!   end RESULT WHY  the game is over; stdin closes after it
//! Write one line per request and flush it.
//!
//! Strategy: guess a code that agrees with every feedback so far. With at
//! most LIMIT codes it keeps them all and guesses the first one left in
//! lexicographic order. With more (up to 9^10) it looks for a consistent code
//! by random restarts and local search for at most BUDGET, and plays the
//! least inconsistent one found.
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

const LIMIT: u64 = 50_000; // list every code when there are at most this many
const BUDGET: Duration = Duration::from_millis(500); // for a search when there are more (limit: 2 s)

type Code = Vec<usize>;

/// A small seeded generator (xorshift64*): integers in 0..n.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn exact(a: &[usize], b: &[usize]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x == y).count()
}

struct Game {
    length: usize,
    digits: usize,
    rng: Rng,
    history: Vec<(Code, usize)>, // our guesses and their exact matches
}

impl Game {
    fn random_code(&mut self) -> Code {
        (0..self.length)
            .map(|_| 1 + self.rng.below(self.digits))
            .collect()
    }

    /// How far `code` is from agreeing with every feedback (0: consistent).
    fn error(&self, code: &[usize]) -> usize {
        self.history
            .iter()
            .map(|(guess, k)| exact(code, guess).abs_diff(*k))
            .sum()
    }

    /// Random restarts and local search: change one digit while it does not get worse.
    fn search(&mut self) -> Code {
        let deadline = Instant::now() + BUDGET;
        let mut best = self.random_code();
        let mut best_error = self.error(&best);
        while best_error > 0 && Instant::now() < deadline {
            let mut code = self.random_code();
            let mut err = self.error(&code);
            for _ in 0..20 * self.length {
                if err == 0 || Instant::now() >= deadline {
                    break;
                }
                let mut tweak = code.clone();
                tweak[self.rng.below(self.length)] = 1 + self.rng.below(self.digits);
                let e = self.error(&tweak);
                if e <= err {
                    (code, err) = (tweak, e);
                }
            }
            if err < best_error {
                (best, best_error) = (code, err);
            }
        }
        best
    }

    /// Every code in lexicographic order, or none when there are more than LIMIT.
    fn all_codes(&self) -> Vec<Code> {
        let n = (self.digits as u64)
            .checked_pow(self.length as u32)
            .unwrap_or(u64::MAX);
        if n > LIMIT {
            return Vec::new();
        }
        (0..n as usize)
            .map(|k| {
                (0..self.length)
                    .rev()
                    .map(|i| 1 + k / self.digits.pow(i as u32) % self.digits)
                    .collect()
            })
            .collect()
    }
}

fn send(out: &mut impl Write, code: &[usize]) -> io::Result<()> {
    let words: Vec<String> = code.iter().map(|d| d.to_string()).collect();
    writeln!(out, "{}", words.join(" "))?;
    out.flush()
}

fn main() -> io::Result<()> {
    let mut game = Game {
        length: 3,
        digits: 3,
        rng: Rng(1),
        history: Vec::new(),
    };
    let mut possible: Vec<Code> = Vec::new(); // every code agreeing with every feedback, when listed
    let mut last: Code = Vec::new();
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| {
            words
                .get(i)
                .and_then(|w| w.parse::<u64>().ok())
                .unwrap_or(1)
        };
        match words.first().copied() {
            Some("safecracker") => {
                game.length = number(1) as usize;
                game.digits = number(2) as usize;
                game.rng = Rng(number(5) | 1); // xorshift needs a state that is not 0
            }
            Some("code") => {
                let code = game.random_code();
                send(&mut out, &code)?;
            }
            Some("guess") => {
                if game.history.is_empty() {
                    possible = game.all_codes();
                }
                last = match possible.first() {
                    Some(code) => code.clone(),
                    None => game.search(),
                };
                send(&mut out, &last)?;
            }
            Some("feedback") => {
                let k = number(1) as usize;
                possible.retain(|code| exact(code, &last) == k);
                game.history.push((last.clone(), k));
            }
            Some("end") => break,
            _ => {} // "opponent G K" lines are information only: nothing to answer
        }
    }
    Ok(())
}
