//! Codes and their feedback: a code of digits read and checked, and the
//! number of exact matches of a guess against a secret.

use super::*;

/// A code or a guess: `length` digits, each in 1..=digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(Vec<u8>);

impl Code {
    /// Checks digits against the configuration.
    pub fn new(digits: Vec<u8>, config: &Config) -> Result<Code, CodeError> {
        if digits.len() != config.length as usize {
            return Err(CodeError::Length {
                length: config.length,
                got: digits.len(),
            });
        }
        if let Some(&digit) = digits.iter().find(|&&d| d < 1 || d > config.digits) {
            return Err(CodeError::OutOfRange {
                digit,
                digits: config.digits,
            });
        }
        Ok(Code(digits))
    }

    /// Validates characters as written (`1`-`9`).
    pub fn from_chars(chars: &[char], config: &Config) -> Result<Code, CodeError> {
        let mut digits = Vec::with_capacity(chars.len());
        for &c in chars {
            match c.to_digit(10) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err(CodeError::NotADigit {
                        symbol: c,
                        digits: config.digits,
                    })
                }
            }
        }
        Code::new(digits, config)
    }

    /// The `index`-th code in the fixed enumeration order: lexicographic, the
    /// first digit most significant (index 0 is 1-1-1, then 1-1-2, ...).
    pub fn from_index(config: &Config, mut index: u64) -> Code {
        let base = u64::from(config.digits);
        let mut digits = vec![1u8; config.length as usize];
        for slot in digits.iter_mut().rev() {
            *slot = (index % base) as u8 + 1;
            index /= base;
        }
        Code(digits)
    }

    pub fn random<R: Rng>(config: &Config, rng: &mut R) -> Code {
        Code(
            (0..config.length)
                .map(|_| draw_below(rng, config.digits as usize) as u8 + 1)
                .collect(),
        )
    }

    pub fn digits(&self) -> &[u8] {
        &self.0
    }

    /// The rules' form, also used on the wire by the referee: `2-1-3`.
    pub fn dashed(&self) -> String {
        self.0
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("-")
    }
}

/// Why digits are not a code of the configuration (the *illegal* verdict's rule).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    #[error("a code has {length} digits, got {got}")]
    Length { length: u8, got: usize },
    #[error("digit {digit} is not from 1 to {digits}")]
    OutOfRange { digit: u8, digits: u8 },
    #[error("'{symbol}' is not a digit from 1 to {digits}")]
    NotADigit { symbol: char, digits: u8 },
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.dashed())
    }
}

/// The number of positions where `guess` has the digit of `secret`.
pub fn exact_matches(secret: &Code, guess: &Code) -> u8 {
    secret
        .0
        .iter()
        .zip(&guess.0)
        .filter(|(s, g)| s == g)
        .count() as u8
}

/// `1 exact match`, `2 exact matches`, `0 exact matches`: the rules' words.
pub fn matches_words(exact: u8) -> String {
    if exact == 1 {
        "1 exact match".to_string()
    } else {
        format!("{exact} exact matches")
    }
}
