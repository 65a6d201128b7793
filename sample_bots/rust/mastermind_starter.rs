//! Mastermind starter bot in Rust (standard library only): copy this file and
//! make it smarter.
//!
//! Run it through the referee (which builds it); other sizes go up to 12 pegs
//! and 36 colours:
//!   referee match mastermind sample_bots/rust/mastermind_starter.rs target/release/mastermind_random
//!   referee match mastermind sample_bots/rust/mastermind_starter.rs target/release/mastermind_random --pegs 5 --colours 8
//!   referee bench mastermind sample_bots/rust/mastermind_starter.rs --all
//! By hand: rustc -O --edition 2021 -o mastermind_starter sample_bots/rust/mastermind_starter.rs
//!
//! The protocol (see protocol.md, Mastermind): one line at a time.
//!   mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   the game; ROLE is first, second or solo
//!   code              answer with your secret code, e.g. "0 1 2 3"
//!   attack            answer with a guess, e.g. "0 0 1 1"
//!   feedback B W      your last guess: B pegs right in place, W right in colour only
//!   end RESULT WHY    the game is over; stdin closes after it
//! Colours 0-9 are digits, 10-35 the letters a-z. Write one line per request
//! and flush it.
//!
//! Strategy: attack with a code that agrees with every feedback so far. With
//! at most LIMIT codes it keeps them all and attacks with the first one left
//! in the rules' order (base C, first peg most significant). With more (up to
//! 36^12) it looks for a consistent code by random restarts and local search
//! for at most BUDGET, and plays the least inconsistent one found.
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

const LIMIT: u64 = 50_000; // list every code when there are at most this many
const BUDGET: Duration = Duration::from_millis(500); // for a search when there are more (limit: 2 s)
const SYMBOLS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";

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

struct Game {
    pegs: usize,
    colours: usize,
    rng: Rng,
    history: Vec<(Code, (usize, usize))>, // our attacks and their (black, white)
}

impl Game {
    /// The rules' reference feedback function: (black, white).
    fn feedback(&self, code: &[usize], guess: &[usize]) -> (usize, usize) {
        let (mut v_code, mut v_guess) = (vec![0; self.colours], vec![0; self.colours]);
        let mut black = 0;
        for (&c, &g) in code.iter().zip(guess) {
            if c == g {
                black += 1;
            } else {
                v_code[c] += 1;
                v_guess[g] += 1;
            }
        }
        let white = v_code.iter().zip(&v_guess).map(|(a, b)| a.min(b)).sum();
        (black, white)
    }

    fn random_code(&mut self) -> Code {
        (0..self.pegs)
            .map(|_| self.rng.below(self.colours))
            .collect()
    }

    /// How far `code` is from agreeing with every feedback (0: consistent).
    fn error(&self, code: &[usize]) -> usize {
        self.history
            .iter()
            .map(|(guess, (b, w))| {
                let (black, white) = self.feedback(code, guess);
                black.abs_diff(*b) + white.abs_diff(*w)
            })
            .sum()
    }

    /// Random restarts and local search: change one peg while it does not get worse.
    fn search(&mut self) -> Code {
        let deadline = Instant::now() + BUDGET;
        let mut best = self.random_code();
        let mut best_error = self.error(&best);
        while best_error > 0 && Instant::now() < deadline {
            let mut code = self.random_code();
            let mut err = self.error(&code);
            for _ in 0..20 * self.pegs {
                if err == 0 || Instant::now() >= deadline {
                    break;
                }
                let mut tweak = code.clone();
                tweak[self.rng.below(self.pegs)] = self.rng.below(self.colours);
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

    /// Every code in the rules' order, or none when there are more than LIMIT.
    fn all_codes(&self) -> Vec<Code> {
        let n = (self.colours as u64)
            .checked_pow(self.pegs as u32)
            .unwrap_or(u64::MAX);
        if n > LIMIT {
            return Vec::new();
        }
        (0..n as usize)
            .map(|k| {
                (0..self.pegs)
                    .rev()
                    .map(|i| k / self.colours.pow(i as u32) % self.colours)
                    .collect()
            })
            .collect()
    }
}

fn send(out: &mut impl Write, code: &[usize]) -> io::Result<()> {
    let words: Vec<String> = code
        .iter()
        .map(|&c| (SYMBOLS[c] as char).to_string())
        .collect();
    writeln!(out, "{}", words.join(" "))?;
    out.flush()
}

fn main() -> io::Result<()> {
    let mut game = Game {
        pegs: 4,
        colours: 6,
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
            Some("mastermind") => {
                game.pegs = number(1) as usize;
                game.colours = number(2) as usize;
                game.rng = Rng(number(5) | 1); // xorshift needs a state that is not 0
            }
            Some("code") => {
                let code = game.random_code();
                send(&mut out, &code)?;
            }
            Some("attack") => {
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
                let seen = (number(1) as usize, number(2) as usize);
                possible.retain(|code| game.feedback(code, &last) == seen);
                game.history.push((last.clone(), seen));
            }
            Some("end") => break,
            _ => {}
        }
    }
    Ok(())
}
