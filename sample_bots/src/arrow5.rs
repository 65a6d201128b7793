//! Arrow 5 for bots: every code, the signal as a comparable key, and parsing
//! of the referee's `signal` lines.

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
    /// The signal key of each attack so far.
    pub signals: Vec<u16>,
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
            signals: Vec::new(),
        }
    }

    /// Keeps the codes that would have given `key` to the last attack. The
    /// attack itself is out: had it cracked, we would not be asked again.
    pub fn observe(&mut self, key: u16) {
        let Some(attack) = self.last_attack else {
            return;
        };
        self.signals.push(key);
        let (codes, positions, hidden) = (&self.codes, &self.positions, self.hidden_eye);
        self.possible.retain(|&i| {
            codes[i as usize] != attack
                && signal_key(&positions[i as usize], &attack, hidden) == key
        });
    }
}

/// The strong solver's attack: see `bin/arrow5_strong.rs`. The first
/// [`BOOK_DEPTH`] attacks come from the opening book (the same greedy
/// choice, computed offline), the others from [`greedy_choice`] at play time.
pub fn strong_attack(k: &Knowledge) -> Code {
    if k.possible.len() <= 2 {
        return k.codes[k.possible[0] as usize];
    }
    if k.signals.len() < BOOK_DEPTH {
        let book = if k.hidden_eye {
            crate::arrow5_book::HIDDEN_EYE
        } else {
            crate::arrow5_book::CLASSIC
        };
        let mut keys = [0u16; BOOK_DEPTH - 1];
        keys[..k.signals.len()].copy_from_slice(&k.signals);
        if let Ok(at) = book.binary_search_by(|(path, _)| path.cmp(&keys)) {
            return k.codes[book[at].1 as usize];
        }
    }
    k.codes[greedy_choice(k, &k.possible, Score::Entropy) as usize]
}

/// Attacks the opening book holds: the first three (the third is the last
/// whose greedy choice takes too long to compute at play time).
pub const BOOK_DEPTH: usize = 3;

/// How [`greedy_choice`] scores an attack's split of the possible codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The expected number of codes left: the sum of squared class sizes
    /// (the class of a crack left out: it leaves nothing).
    Size,
    /// The information the signal gives: the entropy of the split, the
    /// crack counted as its own class.
    Entropy,
}

/// The greedy attack for the possible codes `set` (indices into `k.codes`):
/// the best split by `score` over every one of the 55,440 codes, ties to a
/// possible code, then to the lowest index. Deterministic: the opening
/// book and the bot agree move for move.
pub fn greedy_choice(k: &Knowledge, set: &[u32], score: Score) -> u32 {
    if set.len() <= 2 {
        return set[0];
    }
    let mut counts = vec![0u32; 1 << 11];
    let mut touched: Vec<usize> = Vec::with_capacity(256);
    let n = set.len() as f64;
    let mut best: (f64, bool, u32) = (f64::INFINITY, false, set[0]);
    for (candidate, attack) in k.codes.iter().enumerate() {
        touched.clear();
        for &t in set {
            let key = signal_key(&k.positions[t as usize], attack, k.hidden_eye) as usize;
            if counts[key] == 0 {
                touched.push(key);
            }
            counts[key] += 1;
        }
        let mut value = 0.0;
        for &key in &touched {
            let c = f64::from(counts[key]);
            value += match score {
                Score::Size if key % 2 == 1 => 0.0,
                Score::Size => c * c,
                // Minimising sum c log c maximises the entropy.
                Score::Entropy => c * c.ln(),
            };
            counts[key] = 0;
        }
        let _ = n;
        let candidate = candidate as u32;
        let possible = set.binary_search(&candidate).is_ok();
        let better =
            value < best.0 - 1e-9 || ((value - best.0).abs() <= 1e-9 && possible && !best.1);
        if better {
            best = (value, possible, candidate);
        }
    }
    best.2
}
