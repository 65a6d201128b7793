//! Mastermind, Kooi's "most parts" solver (2005): each attack is the code,
//! among ALL codes, that splits the possible codes into the most feedback
//! classes; ties go to a code still possible, then to the lowest code
//! number. Its first attack, found by the same rule, is 0012 (Kooi's 1123).
//! It beats Knuth's average on 4 pegs and 6 colours (docs/measurements.md, "Mastermind solvers"
//! has the measured figures).

fn main() {
    sample_bots::mastermind::run_bot(sample_bots::mastermind::Rule::MostParts);
}
