//! Arrow 5 for bots: every code, the signal as a comparable key, and parsing
//! of the referee's `signal` lines.

use crate::Rng;

pub const EYE: u8 = 10;
pub type Code = [u8; 5];

/// All 55,440 codes of 5 distinct symbols from 0-9 and the eye.
pub fn all_codes() -> Vec<Code> {
    let mut out = Vec::with_capacity(55_440);
    for a in 0..11u8 {
        for b in (0..11).filter(|&b| b != a) {
            for c in (0..11).filter(|&c| c != a && c != b) {
                for d in (0..11).filter(|&d| d != a && d != b && d != c) {
                    for e in (0..11).filter(|&e| e != a && e != b && e != c && e != d) {
                        out.push([a, b, c, d, e]);
                    }
                }
            }
        }
    }
    out
}

/// Where each symbol sits in a code (5 = absent): the fast way to signal.
pub fn positions(code: &Code) -> [u8; 11] {
    let mut pos = [5u8; 11];
    for (i, &s) in code.iter().enumerate() {
        pos[s as usize] = i as u8;
    }
    pos
}

/// The signal `secret` (given by its positions) gives `attack`, as a key:
/// the marks in order (< . > as 0 1 2) behind a leading 1, then whether it
/// cracked. The hidden eye drops the eye's mark.
pub fn signal_key(secret_pos: &[u8; 11], attack: &Code, hidden_eye: bool) -> u16 {
    let mut key: u16 = 1;
    let mut in_place = 0;
    for (i, &s) in attack.iter().enumerate() {
        let at = secret_pos[s as usize];
        if at == 5 {
            continue;
        }
        let i = i as u8;
        if at == i {
            in_place += 1;
        }
        if hidden_eye && s == EYE {
            continue;
        }
        key = key * 3
            + match at.cmp(&i) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 2,
            };
    }
    key * 2 + u16::from(in_place == 5)
}

/// The key of a `signal ...` line the referee sent after a non-cracking attack.
pub fn parse_signal(line: &str) -> Option<u16> {
    let marks = line.strip_prefix("signal")?.trim();
    let mut key: u16 = 1;
    if marks != "-" {
        for mark in marks.split_whitespace() {
            key = key * 3
                + match mark {
                    "<" => 0,
                    "." | "·" => 1,
                    ">" => 2,
                    _ => return None,
                };
        }
    }
    Some(key * 2)
}

pub fn format_code(code: &Code) -> String {
    code.iter()
        .map(|&s| {
            if s == EYE {
                "E".to_string()
            } else {
                s.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The greeting `arrow5 VARIANT ROLE MAX_ROUNDS SEED`: (hidden eye?, seed).
pub fn parse_greeting(line: &str) -> Option<(bool, u64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["arrow5", variant, _role, _rounds, seed] => {
            Some((*variant == "hidden-eye", seed.parse().ok()?))
        }
        _ => None,
    }
}

/// A player's knowledge: the codes still possible after each signal.
pub struct Knowledge {
    pub codes: Vec<Code>,
    pub positions: Vec<[u8; 11]>,
    /// Indices of codes consistent with every signal so far.
    pub possible: Vec<u32>,
    pub hidden_eye: bool,
    pub last_attack: Option<Code>,
}

impl Knowledge {
    pub fn new(hidden_eye: bool) -> Knowledge {
        let codes = all_codes();
        let positions = codes.iter().map(positions).collect();
        let possible = (0..codes.len() as u32).collect();
        Knowledge {
            codes,
            positions,
            possible,
            hidden_eye,
            last_attack: None,
        }
    }

    /// Keeps the codes that would have given `key` to the last attack. The
    /// attack itself is out: had it cracked, we would not be asked again.
    pub fn observe(&mut self, key: u16) {
        let Some(attack) = self.last_attack else {
            return;
        };
        let (codes, positions, hidden) = (&self.codes, &self.positions, self.hidden_eye);
        self.possible.retain(|&i| {
            codes[i as usize] != attack
                && signal_key(&positions[i as usize], &attack, hidden) == key
        });
    }
}

/// Candidate attacks scored per move, of the possible codes / of all codes.
pub const POSSIBLE_SAMPLE: usize = 60;
pub const ANY_SAMPLE: usize = 30;
/// Possible codes an attack is scored against at most (sampled beyond).
pub const SCORE_SAMPLE: usize = 2500;

/// The strong solver's attack: see `bin/arrow5_strong.rs`.
pub fn strong_attack(k: &Knowledge, rng: &mut Rng) -> Code {
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
