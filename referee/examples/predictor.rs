//! A hostile Mastermind solver for the fair-play tests: it knows the
//! referee's source and every public input (the greeting's seed, the
//! default bench seed), and tries to rebuild the secret from them before it
//! plays a consistent random game.
//!
//! It tries every derivation a contestant could reproduce: the one the
//! referee used before codes were drawn with a secret key (ChaCha8 seeded by
//! the bench seed, on the secret's stream), and today's with any key it can
//! guess (all zeros, all ones, the seed itself). Given the real key as its
//! argument (`predictor HEX`), it must crack every secret at its first
//! attack: that proves the attack works, so that its failure without the
//! key means the key is what stops it.
//!
//! Usage: `referee bench mastermind "target/debug/examples/predictor [KEY]" ...`

use std::io::{self, BufRead, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee::bench::bot_seed;
use referee::games::mastermind::{feedback, Code, Feedback};
use referee::key::RefereeKey;

/// Bench seeds a contestant would try: the default and a few more.
const PUBLIC_SEEDS: std::ops::Range<u64> = 0..16;

fn old_bot_seed(seed: u64, index: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    u64::from(rng.gen::<u32>())
}

/// The secret's index, if some public derivation gives `greeting_seed`.
fn predict(greeting_seed: u64, count: u64, keys: &[RefereeKey]) -> Option<u64> {
    for seed in PUBLIC_SEEDS {
        for index in 0..count {
            if old_bot_seed(seed, index) == greeting_seed
                || keys
                    .iter()
                    .any(|k| bot_seed(k, seed, index) == greeting_seed)
            {
                return Some(index);
            }
        }
    }
    None
}

fn main() {
    let mut keys: Vec<RefereeKey> = ["00", "ff", "01"]
        .iter()
        .map(|b| RefereeKey::from_hex(&b.repeat(32)).expect("64 hex digits"))
        .collect();
    if let Some(given) = std::env::args().nth(1) {
        keys.insert(
            0,
            RefereeKey::from_hex(&given).expect("a key of 64 hex digits"),
        );
    }
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let greeting = lines.next().and_then(Result::ok).unwrap_or_default();
    let words: Vec<&str> = greeting.split_whitespace().collect();
    let [_, pegs, colours, _, _, seed] = words[..] else {
        eprintln!("predictor: unexpected greeting '{greeting}'");
        return;
    };
    let (pegs, colours, seed): (u8, u8, u64) = (
        pegs.parse().unwrap(),
        colours.parse().unwrap(),
        seed.parse().unwrap(),
    );
    let count = u64::from(colours).pow(u32::from(pegs));
    for k in &mut keys {
        if k.to_hex() == "01".repeat(32) {
            // A key made from the greeting's seed.
            *k = RefereeKey::from_hex(&format!("{seed:064x}")).expect("64 hex digits");
        }
    }
    let mut possible: Vec<Code> = (0..count)
        .map(|i| Code::from_index(i, pegs, colours))
        .collect();
    let mut guess_first = predict(seed, count, &keys).map(|i| Code::from_index(i, pegs, colours));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = io::stdout().lock();
    let mut last: Option<Code> = None;
    for line in lines {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("attack") => {
                let guess = guess_first
                    .take()
                    .unwrap_or_else(|| possible[rng.gen_range(0..possible.len())].clone());
                writeln!(out, "{}", spaced(&guess)).unwrap();
                out.flush().unwrap();
                last = Some(guess);
            }
            Some("feedback") => {
                let (Some(guess), Ok(black), Ok(white)) = (
                    last.take(),
                    words.get(1).unwrap_or(&"").parse::<u8>(),
                    words.get(2).unwrap_or(&"").parse::<u8>(),
                ) else {
                    continue;
                };
                let told = Feedback { black, white };
                possible.retain(|c| feedback(c, &guess, colours) == told);
            }
            Some("end") => return,
            _ => {}
        }
    }
}

fn spaced(code: &Code) -> String {
    code.pegs()
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
