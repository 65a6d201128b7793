//! Shared pieces of the sample bots: Arrow 5 codes and signals, Mastermind
//! codes, feedbacks and solvers, written
//! independently of the referee (a bot is a separate program), and a tiny
//! seeded random generator so bots need no dependencies.

pub mod arrow5;
pub mod arrow5_book;
pub mod cryptron;
pub mod exact;
pub mod mastermind;
pub mod mastermind_book;
pub mod safecracker;
pub mod safecracker_book;

use std::io::{self, BufRead, Write};

/// Reads the referee's lines and answers the ones that are requests.
/// `on_line` returns the reply to write, if the line asked for one.
pub fn serve(mut on_line: impl FnMut(&str) -> Option<String>) {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if line.starts_with("end") {
            return;
        }
        if let Some(reply) = on_line(line.trim_end()) {
            if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                return;
            }
        }
    }
}

/// xorshift64*: enough randomness for sample bots, reproducible from a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * n as f64) as usize
    }
}
