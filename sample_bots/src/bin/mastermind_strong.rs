//! Mastermind, the strong solver. At 4 pegs and 6 colours it plays an
//! optimal strategy: 5,625 attacks over the 1,296 secrets (4.3403 on
//! average, the known optimum), at most 6, from a book found offline by an
//! exact search (`examples/mastermind_optimum.rs`) and embedded. At other
//! sizes of at most 256 codes it searches exactly, live ([`sample_bots::exact`]),
//! within a budget of feedback evaluations a move; beyond that, or past
//! the budget, it plays Kooi's "most parts" rule (2005): each attack is the code,
//! among all codes, that splits the possible codes into the most feedback
//! classes; ties go to a code still possible, then to the lowest code
//! number (sampled when the codes are too many to score in time).

fn main() {
    sample_bots::mastermind::run_bot(sample_bots::mastermind::Rule::Optimal);
}
