//! Arrow 5, random but consistent: each attack is drawn uniformly from the
//! codes that agree with every signal so far. The baseline for solvers.

use sample_bots::arrow5::{format_code, parse_greeting, parse_signal, Knowledge};
use sample_bots::{serve, Rng};

fn main() {
    let mut rng = Rng::new(1);
    let mut knowledge: Option<Knowledge> = None;
    serve(|line| {
        if let Some((hidden, seed)) = parse_greeting(line) {
            rng = Rng::new(seed);
            knowledge = Some(Knowledge::new(hidden));
            return None;
        }
        let k = knowledge.get_or_insert_with(|| Knowledge::new(false));
        match line.split_whitespace().next()? {
            "code" => Some(format_code(&k.codes[rng.below(k.codes.len())])),
            "attack" => {
                let pick = k.possible[rng.below(k.possible.len().max(1)).min(k.possible.len() - 1)];
                let attack = k.codes[pick as usize];
                k.last_attack = Some(attack);
                Some(format_code(&attack))
            }
            "signal" => {
                if let Some(key) = parse_signal(line) {
                    k.observe(key);
                }
                None
            }
            _ => None,
        }
    });
}
