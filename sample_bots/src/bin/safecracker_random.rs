//! Safe Cracker, random but consistent: each guess is drawn uniformly from
//! the codes that agree with every feedback so far. Plays the two-player and
//! the solo game.

use sample_bots::safecracker::play;

fn main() {
    play(|k, rng| k.codes[k.possible[rng.below(k.possible.len())] as usize].clone());
}
