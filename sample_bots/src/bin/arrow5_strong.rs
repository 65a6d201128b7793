//! Arrow 5, a strong solver: each attack minimises the expected number of
//! codes left (the sum of squared partition sizes over the possible codes),
//! scored on a seeded sample of candidate attacks so every move stays within
//! a few milliseconds. Candidates are the possible codes, plus some
//! impossible ones that may split the rest better; ties go to a possible
//! code, which may win at once.

use sample_bots::arrow5::{format_code, parse_greeting, parse_signal, strong_attack, Knowledge};
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
                let attack = strong_attack(k, &mut rng);
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
