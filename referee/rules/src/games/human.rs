//! How a game reads to a person at a terminal: prompts, feedback lines, the
//! final screen. Pure text, like the rest of `games/`: the terminal loop that
//! reads keys and talks to a bot is `crate::human`, which knows each game only
//! through [`HumanText`] and [`Game`].

use super::{Game, Seat};

/// What a person is asked to type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// Shown before the cursor, e.g. `Enter your guess (three digits from 1-3): `.
    pub text: String,
    /// A secret code: typed without echo.
    pub secret: bool,
}

/// The per-game human text. Every method is pure; the state is the game's.
pub trait HumanText: Game {
    /// A few lines that open the game: what a code is, who starts. `names`
    /// are what seats A and B are called.
    fn intro(&self, names: [&str; 2]) -> Vec<String>;

    /// The prompt for the seat the game asks now.
    fn prompt(&self) -> Prompt;

    /// Reads a person's answer to [`HumanText::prompt`], judging syntax and
    /// rules at once. The error tells a person what to type instead.
    fn read_human(&self, line: &str) -> Result<Self::Reply, String>;

    /// What `seat` is shown after its own last guess, e.g. `Feedback: 2 exact matches`.
    fn feedback(&self, seat: Seat) -> Vec<String>;

    /// `seat`'s last guess as the others see it, `name` being what it is called.
    fn move_line(&self, seat: Seat, name: &str) -> String;

    /// The code `seat` holds, shown to its owner when the referee drew it.
    fn drawn_code(&self, seat: Seat) -> Option<String>;

    /// The end of the game: both codes and the history, seats named by `names` (A, B).
    fn final_screen(&self, names: [&str; 2]) -> Vec<String>;
}

/// `three`, `five`, ... for counts a prompt names; digits beyond ten.
pub fn count_word(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n)
        .map(|w| w.to_string())
        .unwrap_or_else(|| n.to_string())
}

/// A message as the start of a sentence: its first letter upper-case.
pub fn capitalized(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Names padded to a common width, for history tables.
pub fn padded(names: [&str; 2]) -> [String; 2] {
    let width = names[0].chars().count().max(names[1].chars().count());
    names.map(|n| format!("{n:<width$}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_words() {
        assert_eq!(count_word(3), "three");
        assert_eq!(count_word(10), "ten");
        assert_eq!(count_word(12), "12");
    }
}
