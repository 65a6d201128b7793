//! Mastermind, random but consistent: each attack is drawn uniformly (from
//! the greeting's seed) from the codes that agree with every feedback so
//! far. The baseline for solvers.

fn main() {
    sample_bots::mastermind::run_bot(sample_bots::mastermind::Rule::RandomPossible);
}
