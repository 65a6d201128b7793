//! Cryptron, random: each turn is drawn uniformly from the legal turns.
//! The baseline. Seed: the first argument, else the process id.

use sample_bots::cryptron::play;
use sample_bots::Rng;

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| u64::from(std::process::id()));
    let mut rng = Rng::new(seed);
    play(|board| {
        let turns = board.turns();
        turns[rng.below(turns.len())]
    });
}
