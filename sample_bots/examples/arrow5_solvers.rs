//! Offline self-check of the Arrow 5 solvers (no referee, no processes):
//! plays each solver against K seeded secrets and prints the average and
//! largest number of attacks. The referee's own measure is `referee bench`.
//!
//!     cargo run --release -p sample_bots --example arrow5_solvers -- 2000 [hidden]

use sample_bots::arrow5::{signal_key, strong_attack, Knowledge};
use sample_bots::Rng;

fn main() {
    let samples: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let hidden = std::env::args().nth(2).is_some_and(|s| s == "hidden");
    let mut pick = Rng::new(12345);
    let codes = Knowledge::new(hidden).codes;
    let secrets: Vec<usize> = (0..samples).map(|_| pick.below(codes.len())).collect();
    for strong in [true, false] {
        let (mut total, mut worst) = (0u64, 0u32);
        for (n, &secret) in secrets.iter().enumerate() {
            let mut k = Knowledge::new(hidden);
            let mut rng = Rng::new(n as u64 + 1);
            let secret_pos = k.positions[secret];
            let mut attacks = 0;
            loop {
                attacks += 1;
                let attack = if strong {
                    strong_attack(&k, &mut rng)
                } else {
                    k.codes[k.possible[rng.below(k.possible.len())] as usize]
                };
                let key = signal_key(&secret_pos, &attack, hidden);
                if key % 2 == 1 {
                    break;
                }
                k.last_attack = Some(attack);
                k.observe(key);
            }
            total += u64::from(attacks);
            worst = worst.max(attacks);
        }
        println!(
            "{:<7} {} secrets: average {:.3} attacks, largest {worst}",
            if strong { "strong" } else { "random" },
            samples,
            total as f64 / samples as f64
        );
    }
}
