//! Safe Cracker for bots: the greeting, every code in the referee's
//! enumeration order, exact-match feedback, the set of codes still possible,
//! and the optimal solver (an exhaustive expected-depth search).
//!
//! Written independently of the referee: a bot is a separate program.

use crate::exact::{Exact, Feedback};

/// The most codes (D^L) the sample bots enumerate; beyond it they play a
/// consistent code found by [`consistent_guess`].
pub const MAX_CODES: u64 = 200_000;

/// Time [`consistent_guess`] may spend on one guess (the referee's default
/// limit is 2 s a move).
pub const SEARCH_BUDGET: std::time::Duration = std::time::Duration::from_millis(250);

/// What the greeting `safecracker LENGTH DIGITS ROLE ATTEMPTS SEED` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Greeting {
    pub length: u8,
    pub digits: u8,
    /// `first`, `second` or `solo`.
    pub role: String,
    pub attempts: u32,
    pub seed: u64,
}

pub fn parse_greeting(line: &str) -> Option<Greeting> {
    let mut words = line.split_whitespace();
    if words.next()? != "safecracker" {
        return None;
    }
    Some(Greeting {
        length: words.next()?.parse().ok()?,
        digits: words.next()?.parse().ok()?,
        role: words.next()?.to_string(),
        attempts: words.next()?.parse().ok()?,
        seed: words.next()?.parse().ok()?,
    })
}

pub type Code = Vec<u8>;

/// Every code, lexicographic (the referee's secret order): 1-1-1, 1-1-2, ...
pub fn all_codes(length: u8, digits: u8) -> Vec<Code> {
    let count = u64::from(digits).pow(u32::from(length));
    (0..count)
        .map(|mut i| {
            let mut code = vec![1u8; length as usize];
            for slot in code.iter_mut().rev() {
                *slot = (i % u64::from(digits)) as u8 + 1;
                i /= u64::from(digits);
            }
            code
        })
        .collect()
}

/// The index of `code` in [`all_codes`]'s order.
pub fn code_index(code: &[u8], digits: u8) -> u32 {
    code.iter()
        .fold(0, |i, &d| i * u32::from(digits) + u32::from(d - 1))
}

pub fn exact(a: &[u8], b: &[u8]) -> u8 {
    a.iter().zip(b).filter(|(x, y)| x == y).count() as u8
}

/// The wire form of a code: `1 2 3`.
pub fn format_code(code: &[u8]) -> String {
    code.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a guesser knows: every code, those still possible, its last guess.
pub struct Knowledge {
    pub length: u8,
    pub codes: Vec<Code>,
    /// Indices into `codes` consistent with all feedback so far.
    pub possible: Vec<u32>,
    pub last_guess: Option<Code>,
    /// Each guess with its exact matches.
    pub history: Vec<(Code, u8)>,
}

impl Knowledge {
    pub fn new(length: u8, digits: u8) -> Knowledge {
        let codes = if u64::from(digits).pow(u32::from(length)) <= MAX_CODES {
            all_codes(length, digits)
        } else {
            vec![]
        };
        Knowledge {
            length,
            possible: (0..codes.len() as u32).collect(),
            codes,
            last_guess: None,
            history: vec![],
        }
    }

    /// A `feedback K` line for the last guess.
    pub fn observe(&mut self, exact_matches: u8) {
        let Some(guess) = self.last_guess.take() else {
            return;
        };
        if !self.codes.is_empty() {
            let codes = &self.codes;
            self.possible
                .retain(|&i| exact(&codes[i as usize], &guess) == exact_matches);
        }
        self.history.push((guess, exact_matches));
    }
}

/// `feedback K` → K.
pub fn parse_feedback(line: &str) -> Option<u8> {
    let mut words = line.split_whitespace();
    (words.next()? == "feedback").then_some(())?;
    words.next()?.parse().ok()
}

/// The optimal solver ([`crate::exact`]) for Safe Cracker: feedback
/// classes are the exact counts 0 to L, L being the cracked one. The first
/// guess of the whole game is tried only up to the game's symmetry (digits
/// renamed, positions permuted); what keeps the search fast enough for
/// every size with a book (see `safecracker_book`) is the exact search's
/// pruning.
pub struct Solver {
    game: Game,
    exact: Exact,
}

/// The codes of one size and their feedback ([`Feedback`]).
struct Game {
    codes: Vec<Code>,
    length: u8,
}

impl Feedback for Game {
    fn codes(&self) -> usize {
        self.codes.len()
    }

    fn classes(&self) -> usize {
        self.length as usize + 1
    }

    fn cracked(&self) -> usize {
        self.length as usize
    }

    fn class(&mut self, code: u32, guess: u32) -> usize {
        exact(&self.codes[code as usize], &self.codes[guess as usize]) as usize
    }
}

impl Solver {
    pub fn new(codes: Vec<Code>, length: u8) -> Solver {
        Solver {
            game: Game { codes, length },
            exact: Exact::new(),
        }
    }

    /// The fewest guesses in total to crack every code of `set` (sorted),
    /// and the first guess that achieves it.
    pub fn solve(&mut self, set: &[u32]) -> (u32, u32) {
        self.exact
            .solve(&mut self.game, set)
            .expect("a search with no budget answers")
    }

    /// [`Solver::solve`] for the whole game, trying first guesses only up
    /// to symmetry: renaming digits and permuting positions maps the set of
    /// all codes onto itself, so a first guess is as good as any other with
    /// the same pattern of repeated digits (for 4 digits: 1111, 1112, 1122,
    /// 1123 or 1234).
    pub fn solve_game(&mut self) -> (u32, u32) {
        let all: Vec<u32> = (0..self.game.codes.len() as u32).collect();
        let canonical: Vec<u32> = all
            .iter()
            .copied()
            .filter(|&g| is_canonical(&self.game.codes[g as usize]))
            .collect();
        self.exact
            .solve_among(&mut self.game, &all, &canonical)
            .expect("a search with no budget answers")
    }

    /// The optimal decision tree from `set`, as a [`Book`]'s flat nodes:
    /// node `i` is `nodes[i * (L + 1)]`, the guess, then the node to go to
    /// for each exact count below L ([`NO_NODE`] if that count cannot occur).
    pub fn book(&mut self, set: &[u32]) -> Vec<u16> {
        let mut nodes = Vec::new();
        self.book_node(set, &mut nodes);
        nodes
    }

    fn book_node(&mut self, set: &[u32], nodes: &mut Vec<u16>) -> u16 {
        let width = self.game.length as usize + 1;
        let at = nodes.len() / width;
        let guess = if set.len() == 2 {
            set[0]
        } else {
            self.solve(set).1
        };
        nodes.push(guess as u16);
        nodes.extend(std::iter::repeat_n(NO_NODE, width - 1));
        for (e, class) in Exact::partition(&mut self.game, guess, set)
            .into_iter()
            .enumerate()
        {
            if !class.is_empty() {
                let child = self.book_node(&class, nodes);
                nodes[at * width + 1 + e] = child;
            }
        }
        at as u16
    }
}

/// No node: that feedback cannot occur there.
pub const NO_NODE: u16 = u16::MAX;

/// Whether `code` is the first of its symmetry class: digits appear in
/// order of first use (1, then 2, ...) and each digit's run of repeats is
/// no longer than the one before, both in the code's sorted form. Renaming
/// digits and permuting positions reach every code from exactly one of these.
fn is_canonical(code: &[u8]) -> bool {
    let mut counts: Vec<usize> = vec![];
    for (i, &d) in code.iter().enumerate() {
        let want = counts.len() as u8 + 1;
        if i > 0 && d == code[i - 1] {
            *counts.last_mut().unwrap() += 1;
        } else if d == want {
            counts.push(1);
        } else {
            return false;
        }
    }
    counts.windows(2).all(|w| w[0] >= w[1])
}

/// A precomputed optimal strategy for one size, see [`Solver::book`].
pub struct Book {
    pub length: u8,
    pub digits: u8,
    /// Total guesses over every secret (the optimum).
    pub total: u32,
    pub nodes: &'static [u16],
}

impl Book {
    /// The book for a game of `length` digits from 1 to `digits`, if one
    /// was computed.
    pub fn find(length: u8, digits: u8) -> Option<&'static Book> {
        crate::safecracker_book::BOOKS
            .iter()
            .find(|b| b.length == length && b.digits == digits)
    }

    /// The guess (a code index) at `node`.
    pub fn guess(&self, node: u16) -> u32 {
        u32::from(self.nodes[node as usize * (self.length as usize + 1)])
    }

    /// The node after feedback `exact` at `node`, if the book has one.
    pub fn next(&self, node: u16, exact: u8) -> Option<u16> {
        let width = self.length as usize + 1;
        let child = *self.nodes.get(node as usize * width + 1 + exact as usize)?;
        (child != NO_NODE && exact < self.length).then_some(child)
    }
}

/// The guess that leaves the fewest codes expected (sum of squared sizes of
/// the classes left uncracked), over candidate guesses; ties go to a
/// possible code.
pub fn heuristic_guess(codes: &[Code], possible: &[u32], candidates: &[u32], length: u8) -> u32 {
    let mut best = (u64::MAX, true, possible[0]);
    for &g in candidates {
        let mut sizes = vec![0u64; length as usize + 1];
        for &c in possible {
            sizes[exact(&codes[c as usize], &codes[g as usize]) as usize] += 1;
        }
        // The crack class costs no further guess: leave it out, so a
        // guess that may crack scores better than one that cannot.
        let score = sizes[..length as usize].iter().map(|s| s * s).sum();
        let key = (score, possible.binary_search(&g).is_err(), g);
        if key < best {
            best = key;
        }
    }
    best.2
}

/// A code consistent with every guess in `history` (each with its exact
/// matches) for games too large to enumerate: random restarts of a local
/// search (change one digit, keep the change unless it makes the code less
/// consistent) until one is found or `budget` runs out; then the least
/// inconsistent code seen.
pub fn consistent_guess(
    length: u8,
    digits: u8,
    history: &[(Code, u8)],
    rng: &mut crate::Rng,
    budget: std::time::Duration,
) -> Code {
    let deadline = std::time::Instant::now() + budget;
    let distance = |code: &[u8]| -> u32 {
        history
            .iter()
            .map(|(g, k)| u32::from(exact(code, g).abs_diff(*k)))
            .sum()
    };
    let random = |rng: &mut crate::Rng| -> Code {
        (0..length)
            .map(|_| rng.below(usize::from(digits)) as u8 + 1)
            .collect()
    };
    let mut best = random(rng);
    let mut best_distance = distance(&best);
    let steps = 8 * usize::from(length) * usize::from(digits);
    while best_distance > 0 && std::time::Instant::now() < deadline {
        let mut code = random(rng);
        let mut d = distance(&code);
        for step in 0..steps {
            if d == 0 || (step % 64 == 0 && std::time::Instant::now() >= deadline) {
                break;
            }
            let slot = rng.below(usize::from(length));
            let digit = rng.below(usize::from(digits)) as u8 + 1;
            let old = code[slot];
            if old == digit {
                continue;
            }
            code[slot] = digit;
            let nd = distance(&code);
            if nd <= d {
                d = nd;
            } else {
                code[slot] = old;
            }
        }
        if d < best_distance {
            best_distance = d;
            best = code;
        }
    }
    best
}

/// Plays Safe Cracker (two-player or solo) on stdin/stdout: answers `code`
/// with a random code and `guess` with `choose`, learning from `feedback`.
pub fn play(mut choose: impl FnMut(&Knowledge, &mut crate::Rng) -> Code) {
    let mut rng = crate::Rng::new(1);
    let mut greeting = Greeting {
        length: 3,
        digits: 3,
        role: "first".into(),
        attempts: 100,
        seed: 1,
    };
    let mut knowledge: Option<Knowledge> = None;
    crate::serve(|line| {
        if let Some(g) = parse_greeting(line) {
            rng = crate::Rng::new(g.seed);
            knowledge = Some(Knowledge::new(g.length, g.digits));
            greeting = g;
            return None;
        }
        let k = knowledge.get_or_insert_with(|| Knowledge::new(greeting.length, greeting.digits));
        match line.split_whitespace().next()? {
            "code" => Some(format_code(&random_code(&greeting, &mut rng))),
            "guess" => {
                let guess = if k.codes.is_empty() {
                    consistent_guess(
                        greeting.length,
                        greeting.digits,
                        &k.history,
                        &mut rng,
                        SEARCH_BUDGET,
                    )
                } else if k.possible.is_empty() {
                    random_code(&greeting, &mut rng)
                } else {
                    choose(k, &mut rng)
                };
                k.last_guess = Some(guess.clone());
                Some(format_code(&guess))
            }
            "feedback" => {
                if let Some(n) = parse_feedback(line) {
                    k.observe(n);
                }
                None
            }
            _ => None,
        }
    });
}

fn random_code(g: &Greeting, rng: &mut crate::Rng) -> Code {
    (0..g.length)
        .map(|_| rng.below(g.digits as usize) as u8 + 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greeting_and_feedback_parse() {
        let g = parse_greeting("safecracker 3 4 solo 100 42").unwrap();
        assert_eq!(
            (g.length, g.digits, g.role.as_str(), g.attempts, g.seed),
            (3, 4, "solo", 100, 42)
        );
        assert_eq!(parse_feedback("feedback 2"), Some(2));
        assert_eq!(parse_feedback("opponent 1-2-3 2"), None);
    }

    #[test]
    fn codes_are_in_the_referee_order() {
        let all = all_codes(3, 3);
        assert_eq!(all.len(), 27);
        assert_eq!(all[0], [1, 1, 1]);
        assert_eq!(all[5], [1, 2, 3]);
        assert_eq!(all[26], [3, 3, 3]);
    }

    /// The solver's optimum for the default game: 95 guesses over the 27
    /// secrets (average 95/27 = 3.519), as the referee's independent
    /// exhaustive search finds.
    #[test]
    fn solver_reaches_the_optimum_of_the_default_game() {
        let codes = all_codes(3, 3);
        let mut solver = Solver::new(codes.clone(), 3);
        let all: Vec<u32> = (0..27).collect();
        assert_eq!(solver.solve(&all).0, 95);
        assert_eq!(Solver::new(codes, 3).solve_game().0, 95);
    }
}

#[cfg(test)]
mod canonical_tests {
    use super::*;

    #[test]
    fn first_guesses_up_to_symmetry() {
        let canonical: Vec<String> = all_codes(4, 4)
            .into_iter()
            .filter(|c| is_canonical(c))
            .map(|c| format_code(&c))
            .collect();
        assert_eq!(
            canonical,
            ["1 1 1 1", "1 1 1 2", "1 1 2 2", "1 1 2 3", "1 2 3 4"]
        );
    }
}
