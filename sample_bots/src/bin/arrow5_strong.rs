//! Arrow 5, a strong solver: each attack minimises the expected number of
//! codes left (the sum of squared partition sizes over the possible codes),
//! scored on a seeded sample of candidate attacks so every move stays within
//! a few milliseconds. Candidates are the possible codes, plus some
//! impossible ones that may split the rest better; ties go to a possible
//! code, which may win at once.

use sample_bots::arrow5::{format_code, parse_greeting, parse_signal, signal_key, Code, Knowledge};
use sample_bots::{serve, Rng};

/// Candidate attacks scored per move, of the possible codes / of all codes.
const POSSIBLE_SAMPLE: usize = 60;
const ANY_SAMPLE: usize = 30;
/// Possible codes an attack is scored against at most (sampled beyond).
const SCORE_SAMPLE: usize = 2500;

fn choose(k: &Knowledge, rng: &mut Rng) -> Code {
    if k.possible.len() <= 2 {
        return k.codes[k.possible[0] as usize];
    }
    if k.possible.len() == k.codes.len() {
        // Every first attack is alike up to renaming symbols.
        return [0, 1, 2, 3, 4];
    }
    let targets: Vec<u32> = if k.possible.len() <= SCORE_SAMPLE {
        k.possible.clone()
    } else {
        (0..SCORE_SAMPLE)
            .map(|_| k.possible[rng.below(k.possible.len())])
            .collect()
    };
    let mut candidates: Vec<(u32, bool)> = Vec::new();
    if k.possible.len() <= POSSIBLE_SAMPLE {
        candidates.extend(k.possible.iter().map(|&i| (i, true)));
    } else {
        candidates
            .extend((0..POSSIBLE_SAMPLE).map(|_| (k.possible[rng.below(k.possible.len())], true)));
    }
    candidates.extend((0..ANY_SAMPLE).map(|_| (rng.below(k.codes.len()) as u32, false)));

    let mut counts = vec![0u32; 1 << 11];
    let mut best = (u64::MAX, false, candidates[0].0);
    for &(candidate, possible) in &candidates {
        let attack = k.codes[candidate as usize];
        counts.iter_mut().for_each(|c| *c = 0);
        for &t in &targets {
            counts[signal_key(&k.positions[t as usize], &attack, k.hidden_eye) as usize] += 1;
        }
        // A possible attack wins outright when it is the code: that part
        // leaves nothing to find.
        let score: u64 = counts
            .iter()
            .enumerate()
            .map(
                |(key, &c)| {
                    if key % 2 == 1 {
                        0
                    } else {
                        c as u64 * c as u64
                    }
                },
            )
            .sum();
        let possible = possible || k.possible.binary_search(&candidate).is_ok();
        if score < best.0 || (score == best.0 && possible && !best.1) {
            best = (score, possible, candidate);
        }
    }
    k.codes[best.2 as usize]
}

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
                let attack = choose(k, &mut rng);
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
