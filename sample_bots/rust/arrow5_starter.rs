//! Arrow 5 starter bot in Rust (standard library only): copy this file and
//! make it smarter.
//!
//! Run it through the referee (which builds it):
//!   referee match arrow5 sample_bots/rust/arrow5_starter.rs target/release/arrow5_random
//!   referee match arrow5 sample_bots/rust/arrow5_starter.rs target/release/arrow5_random --variant hidden-eye
//! By hand: rustc -O --edition 2021 -o arrow5_starter sample_bots/rust/arrow5_starter.rs
//!
//! The protocol (see protocol.md): one line at a time from the referee.
//!   arrow5 VARIANT ROLE MAX_ROUNDS SEED   the game; use SEED for randomness
//!   code                                  answer with your secret code, e.g. "0 1 2 3 4"
//!   attack                                answer with your attack
//!   signal < . >                          the signal for your last attack ("-" = no marks)
//!   end win|loss|draw REASON              the game is over; stdin closes after it
//! Symbols are 0-9 and E (the eye). Write one line per request and flush it.
//!
//! Strategy: keep every code consistent with the signals so far (all 55,440
//! codes at the start) and attack with the first of them.
use std::io::{self, BufRead, Write};

const SYMBOLS: &[u8] = b"0123456789E";

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

/// The marks `secret` gives `attack`: '<', '.' or '>' for each symbol of the
/// attack found in the secret; in hidden-eye the eye never gets a mark.
fn signal(secret: &[u8], attack: &[u8], hidden_eye: bool) -> String {
    let mut marks = String::new();
    for (i, &s) in attack.iter().enumerate() {
        let Some(j) = secret.iter().position(|&x| x == s) else {
            continue;
        };
        if hidden_eye && s == b'E' {
            continue;
        }
        marks.push(if j < i {
            '<'
        } else if j == i {
            '.'
        } else {
            '>'
        });
    }
    marks
}

fn send(out: &mut impl Write, code: &[u8]) -> io::Result<()> {
    let words: Vec<String> = code.iter().map(|&s| (s as char).to_string()).collect();
    writeln!(out, "{}", words.join(" "))?;
    out.flush()
}

fn main() -> io::Result<()> {
    let mut possible: Vec<Vec<u8>> = Vec::new();
    for n in 0..11usize.pow(5) {
        let code: Vec<u8> = (0..5)
            .map(|i| SYMBOLS[n / 11usize.pow(4 - i) % 11])
            .collect();
        if (0..5).all(|i| !code[..i].contains(&code[i])) {
            possible.push(code);
        }
    }
    let mut hidden_eye = false;
    let mut rng = Rng(1);
    let mut last: Vec<u8> = Vec::new();
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("arrow5") => {
                hidden_eye = words.get(1) == Some(&"hidden-eye");
                let seed: u64 = words.get(4).and_then(|w| w.parse().ok()).unwrap_or(1);
                rng = Rng(seed | 1); // xorshift needs a state that is not 0
            }
            Some("code") => {
                let code = possible[rng.below(possible.len())].clone();
                send(&mut out, &code)?;
            }
            Some("attack") => {
                last = possible[0].clone();
                send(&mut out, &last)?;
            }
            Some("signal") => {
                let marks: String = words[1..]
                    .iter()
                    .filter(|w| **w != "-")
                    .map(|w| w.replace('\u{b7}', "."))
                    .collect();
                let kept: Vec<Vec<u8>> = possible
                    .iter()
                    .filter(|c| **c != last && signal(c, &last, hidden_eye) == marks)
                    .cloned()
                    .collect();
                if !kept.is_empty() {
                    possible = kept; // never empty, whatever the referee said
                }
            }
            Some("end") => break,
            _ => {}
        }
    }
    Ok(())
}
