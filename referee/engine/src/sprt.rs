//! The sequential probability ratio test of `referee sprt`, as chess engine
//! testing uses it (Fishtest; Michel Van den Bergh's "generalized SPRT"):
//! pure arithmetic on counts, no games, no clocks.
//!
//! Games are played in pairs with sides swapped and the same seed, and each
//! pair is scored from NEW's point of view in half points: 0, 1, 2, 3 or 4
//! (pair scores 0, 0.5, 1, 1.5, 2). The counts of the five pair scores are
//! the *pentanomial* vector. Pairing removes most of the luck of the seed
//! (the codes both bots face), so the variance per pair is smaller than the
//! trinomial (win/draw/loss) variance of two independent games.
//!
//! Hypotheses, in logistic Elo (score `s = 1 / (1 + 10^(-elo/400))`):
//! H0: NEW is `elo0` stronger than OLD; H1: NEW is `elo1` stronger. The pair
//! score is scaled to [0, 1] (`x = half points / 4`); `p` is the observed
//! distribution of `x` over the `N` pairs.
//!
//! The log-likelihood ratio is the generalized SPRT's ([`Tally::llr`]): for
//! each hypothesis, the distribution closest to `p` (maximum likelihood) whose
//! mean is the hypothesis' score `s`, `p_s(x) = p(x) / (1 + lambda*(x - s))`
//! with `lambda` solving `sum p(x) (x - s) / (1 + lambda*(x - s)) = 0`; then
//! `LLR = N * sum p(x) ln(p_s1(x) / p_s0(x))`. For many pairs it agrees with
//! the normal approximation ([`Tally::llr_normal`], with mean `mu` and
//! variance `var` of `x`):
//!
//! ```text
//! LLR ≈ N * (s1 - s0) * (2*mu - s0 - s1) / (2*var)
//! ```
//!
//! but unlike it, it stays sensible for a handful of pairs (one drawn pair
//! does not end a test).
//!
//! The test stops when LLR leaves `[ln(beta/(1-alpha)), ln((1-beta)/alpha)]`:
//! below, H0 is accepted; above, H1. Empty cells of the pentanomial are
//! counted as 0.001 pairs (as Fishtest does), so every score keeps some
//! probability and a one-sided run such as "NEW won every pair" can still
//! end the test.

/// A cell with no pairs counts as this many, so the variance is never zero.
pub const EMPTY_CELL: f64 = 1e-3;

/// The largest Elo difference `--elo0` and `--elo1` may name, either way.
/// At 1000 Elo the expected score is already 0.9968 (a 316:1 favourite),
/// beyond any test worth running; far beyond (10000 Elo), it rounds to
/// exactly 0 or 1, the hypotheses' likelihoods are not finite, and the LLR
/// is NaN: the test would never end.
pub const MAX_ELO: f64 = 1000.0;

/// The expected score of a player `elo` stronger than its opponent.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives an expected `score` (in (0, 1); infinite
/// at the ends).
pub fn logistic_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The hypotheses and error rates of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Bounds {
    /// What accepting H1 says of NEW. With `elo1` above 0, that NEW is
    /// better; with `elo1` 0 or below (a test that a change does not make
    /// a bot weaker, e.g. [-5, 0]), only that it is not worse than that.
    pub fn h1_means(&self) -> String {
        if self.elo1 > 0.0 {
            "NEW is better".into()
        } else if self.elo1 == 0.0 {
            "NEW is not worse".into()
        } else {
            format!("NEW is at most {} Elo worse", -self.elo1)
        }
    }
}

impl Default for Bounds {
    /// Fishtest's usual bounds for a gain: [0, 5] Elo, 5% errors.
    fn default() -> Self {
        Bounds {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// Bounds the test cannot use, and what to change.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BoundsError {
    #[error("--elo0 and --elo1 must be numbers")]
    NotNumbers,
    #[error("{flag} {} is out of range: give an Elo difference from -{MAX_ELO} to {MAX_ELO} (beyond, the expected score rounds to 0 or 1 and the test cannot decide)", shown_elo(*value))]
    EloRange { flag: &'static str, value: f64 },
    #[error("--elo1 {elo1} must be larger than --elo0 {elo0}: H1 says NEW is the stronger")]
    Order { elo0: f64, elo1: f64 },
    #[error("{flag} {value} is not an error rate; use a number between 0 and 0.5, e.g. 0.05")]
    ErrorRate { flag: &'static str, value: f64 },
}

/// An Elo value as typed: `10000`, and `1e308` rather than its 309 digits.
fn shown_elo(value: f64) -> String {
    if value.abs() < 1e9 {
        value.to_string()
    } else {
        format!("{value:e}")
    }
}

impl Bounds {
    /// Refuses bounds the test cannot use, saying what to change.
    pub fn validate(&self) -> Result<(), BoundsError> {
        if !(self.elo0.is_finite() && self.elo1.is_finite()) {
            return Err(BoundsError::NotNumbers);
        }
        for (flag, value) in [("--elo0", self.elo0), ("--elo1", self.elo1)] {
            if value.abs() > MAX_ELO {
                return Err(BoundsError::EloRange { flag, value });
            }
        }
        if self.elo1 <= self.elo0 {
            return Err(BoundsError::Order {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        for (flag, value) in [("--alpha", self.alpha), ("--beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(BoundsError::ErrorRate { flag, value });
            }
        }
        Ok(())
    }

    /// `(lower, upper)`: `ln(beta/(1-alpha))` and `ln((1-beta)/alpha)`.
    pub fn llr_bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

/// The `lambda` of the distribution closest to `p` (over the pair scores
/// 0, 1/4, ..., 1) with mean `s`: the root of
/// `f(lambda) = sum p(x) (x - s) / (1 + lambda*(x - s))`, which decreases on
/// the interval where every `1 + lambda*(x - s)` is positive,
/// `(-1/(1 - s), 1/s)`. Found by bisection.
fn mle_lambda(p: &[f64; 5], s: f64) -> f64 {
    let f = |lambda: f64| -> f64 {
        p.iter()
            .enumerate()
            .map(|(k, pk)| {
                let d = k as f64 / 4.0 - s;
                pk * d / (1.0 + lambda * d)
            })
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: NEW is not `elo1` better (the LLR fell below the lower bound).
    AcceptH0,
    /// H1 accepted: NEW is better (the LLR rose above the upper bound).
    AcceptH1,
    /// Keep playing.
    Continue,
}

/// An Elo estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The result of one game, from NEW's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    fn half_points(self) -> usize {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// The counts a test is run on: game pairs by score, and games by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// `pentanomial[k]`: pairs where NEW scored `k` half points (0 to 4).
    pub pentanomial: [u64; 5],
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Tally {
    /// Adds a pair of games (same seed, sides swapped).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        for r in [first, second] {
            match r {
                GameResult::Win => self.wins += 1,
                GameResult::Draw => self.draws += 1,
                GameResult::Loss => self.losses += 1,
            }
        }
        self.pentanomial[first.half_points() + second.half_points()] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// NEW's score over all games, in [0, 1] (0.5 with no games).
    pub fn score(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        if games == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / games as f64
    }

    /// `(N, mu, var)` of the pair score scaled to [0, 1], with empty cells
    /// counted as [`EMPTY_CELL`].
    pub fn pair_stats(&self) -> (f64, f64, f64) {
        let counts = self.pentanomial.map(|c| (c as f64).max(EMPTY_CELL));
        let n: f64 = counts.iter().sum();
        let x = |k: usize| k as f64 / 4.0;
        let mu = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * x(k))
            .sum::<f64>()
            / n;
        let var = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * (x(k) - mu).powi(2))
            .sum::<f64>()
            / n;
        (n, mu, var)
    }

    /// The log-likelihood ratio of H1 against H0 of the generalized SPRT
    /// (0 with no pairs): see the module documentation.
    pub fn llr(&self, bounds: &Bounds) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let counts = self.pentanomial.map(|c| (c as f64).max(EMPTY_CELL));
        let n: f64 = counts.iter().sum();
        let p = counts.map(|c| c / n);
        let (s0, s1) = (logistic_score(bounds.elo0), logistic_score(bounds.elo1));
        let (l0, l1) = (mle_lambda(&p, s0), mle_lambda(&p, s1));
        // The root can lie a rounding error from the end of its interval,
        // where `1 + lambda*(x - s)` rounds to 0 or below: its logarithm
        // would be infinite or NaN, and so would the LLR. The smallest
        // positive number in its place keeps every term finite (its `pk`
        // is tiny there anyway).
        let ln_weight = |lambda: f64, d: f64| (1.0 + lambda * d).max(f64::MIN_POSITIVE).ln();
        n * p
            .iter()
            .enumerate()
            .map(|(k, pk)| {
                let x = k as f64 / 4.0;
                pk * (ln_weight(l0, x - s0) - ln_weight(l1, x - s1))
            })
            .sum::<f64>()
    }

    /// The normal approximation of [`Tally::llr`], Fishtest's `LLR_alt2`:
    /// `N * (s1 - s0) * (2*mu - s0 - s1) / (2*var)` (0 with no pairs).
    pub fn llr_normal(&self, bounds: &Bounds) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (s0, s1) = (logistic_score(bounds.elo0), logistic_score(bounds.elo1));
        let (n, mu, var) = self.pair_stats();
        n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
    }

    pub fn decision(&self, bounds: &Bounds) -> Decision {
        let (lower, upper) = bounds.llr_bounds();
        let llr = self.llr(bounds);
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    /// NEW's Elo over OLD from the pairs, with a 95% interval
    /// (`mu ± 1.96 * sqrt(var / N)`, turned into Elo).
    pub fn elo(&self) -> EloEstimate {
        if self.pairs() == 0 {
            return EloEstimate {
                elo: 0.0,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            };
        }
        let (n, mu, var) = self.pair_stats();
        let margin = 1.959_964 * (var / n).sqrt();
        EloEstimate {
            elo: logistic_elo(mu),
            low: logistic_elo(mu - margin),
            high: logistic_elo(mu + margin),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn logistic_score_and_elo_are_inverse() {
        assert_eq!(logistic_score(0.0), 0.5);
        // 10^(-5/400) = 0.971628..., 1 / 1.971628 = 0.507195...
        assert!(close(logistic_score(5.0), 0.507_195, 1e-6));
        // A 400 Elo gap is 10:1 odds.
        assert!(close(logistic_score(400.0), 10.0 / 11.0, 1e-12));
        for elo in [-300.0, -5.0, 0.0, 42.0, 800.0] {
            assert!(close(logistic_elo(logistic_score(elo)), elo, 1e-9));
        }
        assert_eq!(logistic_elo(1.0), f64::INFINITY);
    }

    #[test]
    fn llr_bounds_are_the_published_ones() {
        let (lower, upper) = Bounds::default().llr_bounds();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        assert!(Bounds::default().validate().is_ok());
        let swapped = Bounds {
            elo0: 5.0,
            elo1: 0.0,
            ..Bounds::default()
        };
        assert!(swapped
            .validate()
            .unwrap_err()
            .to_string()
            .contains("--elo1"));
        let bad_alpha = Bounds {
            alpha: 0.0,
            ..Bounds::default()
        };
        assert!(bad_alpha
            .validate()
            .unwrap_err()
            .to_string()
            .contains("--alpha"));
    }

    fn tally(pentanomial: [u64; 5]) -> Tally {
        Tally {
            pentanomial,
            ..Tally::default()
        }
    }

    #[test]
    fn llr_of_a_known_pentanomial_by_hand() {
        // 100 pairs scoring 0, 0.5, 1, 1.5, 2 (scaled 0, .25, .5, .75, 1):
        // [5, 15, 40, 25, 15].
        // mu  = (.25*15 + .5*40 + .75*25 + 1*15) / 100 = 57.5 / 100 = 0.575
        // E[x^2] = (.0625*15 + .25*40 + .5625*25 + 15) / 100 = 0.4
        // var = 0.4 - 0.575^2 = 0.069375
        // elo0 = 0, elo1 = 5: s0 = 0.5, s1 = 0.5071951
        // LLR = 100 * 0.0071951 * (1.15 - 1.0071951) / (2 * 0.069375)
        //     = 100 * 0.0071951 * 0.1428049 / 0.13875 = 0.740536
        let t = tally([5, 15, 40, 25, 15]);
        let (n, mu, var) = t.pair_stats();
        assert_eq!(n, 100.0);
        assert!(close(mu, 0.575, 1e-12));
        assert!(close(var, 0.069_375, 1e-12));
        let llr = t.llr_normal(&Bounds::default());
        assert!(close(llr, 0.740_536, 1e-5), "{llr}");
        // The generalized SPRT agrees within a tenth; 0.688865 is its value
        // from the same formulas in a short Python script (bisection for
        // lambda).
        let exact = t.llr(&Bounds::default());
        assert!(close(exact, 0.688_865, 1e-5), "{exact}");
        assert_eq!(t.decision(&Bounds::default()), Decision::Continue);

        // Ten times the pairs, same proportions: ten times the LLR, and
        // past the upper bound 2.944.
        let t10 = tally([50, 150, 400, 250, 150]);
        assert!(close(t10.llr_normal(&Bounds::default()), 7.405_36, 1e-4));
        assert!(close(t10.llr(&Bounds::default()), 6.888_65, 1e-4));
        assert_eq!(t10.decision(&Bounds::default()), Decision::AcceptH1);

        // The mirror image scores 0.425: the LLR is
        // 100 * 0.0071951 * (0.85 - 1.0071951) / 0.13875 = -0.815158,
        // and with ten times the pairs H0 is accepted.
        let mirror = tally([15, 25, 40, 15, 5]);
        assert!(close(
            mirror.llr_normal(&Bounds::default()),
            -0.815_158,
            1e-5
        ));
        assert!(close(mirror.llr(&Bounds::default()), -0.749_509, 1e-5));
        let mirror10 = tally([150, 250, 400, 150, 50]);
        assert_eq!(mirror10.decision(&Bounds::default()), Decision::AcceptH0);
    }

    #[test]
    fn even_pairs_drift_to_h0() {
        // Every pair split 1-1: mu = 0.5 (the empty cells weigh 0.004 of
        // 1000.004 pairs, symmetric), so 2*mu - s0 - s1 = -0.0071951 < 0.
        let t = tally([0, 0, 1000, 0, 0]);
        assert!(t.llr_normal(&Bounds::default()) < -2.95);
        // -14.4846 (Python, same formulas).
        assert!(close(t.llr(&Bounds::default()), -14.4846, 1e-3));
        assert_eq!(t.decision(&Bounds::default()), Decision::AcceptH0);
        let e = t.elo();
        assert!(close(e.elo, 0.0, 1e-9) && e.low < 0.0 && e.high > 0.0);
    }

    #[test]
    fn few_pairs_do_not_end_the_test() {
        // The normal approximation with one drawn pair: var is tiny (only
        // the 0.001 cells), so its LLR is far below the lower bound. The
        // generalized SPRT gives -0.149 (Python, same formulas): keep playing.
        let mut t = Tally::default();
        t.add_pair(GameResult::Win, GameResult::Loss);
        let fifty = Bounds {
            elo1: 50.0,
            ..Bounds::default()
        };
        assert!(t.llr_normal(&fifty) < -2.95);
        assert!(close(t.llr(&fifty), -0.149_135, 1e-5));
        assert_eq!(t.decision(&fifty), Decision::Continue);
    }

    #[test]
    fn a_clean_sweep_ends_in_h1() {
        // NEW won both games of every pair. With 0.001 in each empty cell,
        // 3 pairs give LLR 0.0429 and H1 comes at the 207th pair (Python,
        // same formulas).
        let mut t = Tally::default();
        for _ in 0..3 {
            t.add_pair(GameResult::Win, GameResult::Win);
        }
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (6, 0, 0, 6));
        assert!(close(t.llr(&Bounds::default()), 0.042_891, 1e-5));
        assert_eq!(t.score(), 1.0);
        let mut pairs = 3;
        while t.decision(&Bounds::default()) == Decision::Continue {
            t.add_pair(GameResult::Win, GameResult::Win);
            pairs += 1;
        }
        assert_eq!(t.decision(&Bounds::default()), Decision::AcceptH1);
        assert_eq!(pairs, 207);
    }

    #[test]
    fn pairs_are_tallied_by_half_points() {
        let mut t = Tally::default();
        t.add_pair(GameResult::Win, GameResult::Loss);
        t.add_pair(GameResult::Draw, GameResult::Win);
        t.add_pair(GameResult::Loss, GameResult::Loss);
        assert_eq!(t.pentanomial, [1, 0, 1, 1, 0]);
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 3));
        assert!(close(t.score(), 2.5 / 6.0, 1e-12));
        assert_eq!(Tally::default().llr(&Bounds::default()), 0.0);
    }

    #[test]
    fn elo_beyond_the_range_is_refused() {
        // 10000 Elo is an expected score of exactly 1.0 in f64: the LLR
        // was NaN and the test never ended.
        for (elo0, elo1, flag) in [
            (0.0, 10_000.0, "--elo1"),
            (0.0, 1e308, "--elo1"),
            (-1e308, 0.0, "--elo0"),
            (-1000.5, 0.0, "--elo0"),
        ] {
            let bounds = Bounds {
                elo0,
                elo1,
                ..Bounds::default()
            };
            let e = bounds.validate().unwrap_err().to_string();
            assert!(
                e.starts_with(flag) && e.contains("from -1000 to 1000"),
                "{e}"
            );
        }
        let widest = Bounds {
            elo0: -MAX_ELO,
            elo1: MAX_ELO,
            ..Bounds::default()
        };
        assert!(widest.validate().is_ok());
    }

    #[test]
    fn the_llr_is_finite_for_every_bound_in_range() {
        let pairs = 500_000; // --max-games' most, in pairs
        let tallies = [
            tally([pairs, 0, 0, 0, 0]),
            tally([0, 0, 0, 0, pairs]),
            tally([0, 0, pairs, 0, 0]),
            tally([1, 0, 0, 0, pairs]),
            tally([pairs, 0, 0, 0, 1]),
            tally([0, 0, 0, 0, 1]),
            tally([1, 0, 0, 0, 0]),
        ];
        let ends = [-MAX_ELO, -999.0, -400.0, 0.0, 5.0, 400.0, 999.0, MAX_ELO];
        for elo0 in ends {
            for elo1 in ends.iter().copied().filter(|e| *e > elo0) {
                let bounds = Bounds {
                    elo0,
                    elo1,
                    ..Bounds::default()
                };
                for t in &tallies {
                    let llr = t.llr(&bounds);
                    assert!(
                        llr.is_finite(),
                        "[{elo0}, {elo1}] {:?}: {llr}",
                        t.pentanomial
                    );
                }
            }
        }
    }

    #[test]
    fn the_elo_interval_contains_the_estimate() {
        // mu = 0.575 -> 400*log10(0.575/0.425) = 52.5 Elo.
        let e = tally([5, 15, 40, 25, 15]).elo();
        assert!(close(e.elo, 52.51, 0.01), "{e:?}");
        assert!(e.low < e.elo && e.elo < e.high);
    }
}
