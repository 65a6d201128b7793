//! The plans of games: everything needed to play one match
//! ([`MatchPlan`]) or one solo game ([`SoloPlan`]), with the limits of
//! each bot ([`MatchLimits`]). The runner plays them ([`crate::runner`]);
//! replay commands are rendered from them ([`crate::replay`]); both read
//! this module, and neither reads the other.

use std::time::Duration;

use crate::bot::{BotCommand, Language, ProcessLimits};
use crate::games::GameConfig;
use crate::key::RunKey;

/// Limits and options of a match, the same for both bots unless a
/// tournament sets them per bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLimits {
    /// Wall-clock time for each reply, from the request's last byte to the
    /// reply's newline.
    pub time_limit: Duration,
    /// Time for the bot's first reply (covers starting an interpreter).
    pub startup_limit: Duration,
    /// Time a bot may spend beyond its limits over one game, drawn move by
    /// move ([`TimeBank`](crate::time_bank::TimeBank)); zero: no bank, every move keeps to its limit.
    pub time_bank: Duration,
    /// Lateness forgiven as jitter: a reply that comes after its limit
    /// (and the bank) by less than this is a strike, not a timeout. Zero:
    /// no margin, every late reply is a timeout.
    pub time_margin: Duration,
    /// The strike at which a bot loses on time (CodinGame's rule is the
    /// third); zero: strikes are counted but never lose.
    pub strikes: u32,
    pub process: ProcessLimits,
}

impl Default for MatchLimits {
    fn default() -> Self {
        MatchLimits {
            time_limit: Duration::from_secs(2),
            startup_limit: Duration::from_secs(5),
            time_bank: Duration::ZERO,
            time_margin: Duration::ZERO,
            strikes: 0,
            process: ProcessLimits::default(),
        }
    }
}

impl MatchLimits {
    /// The limits a bot in `language` gets in `config`'s game when the user
    /// sets none: the game's contest rules. Cryptron: 2 s a move times the
    /// language's multiplier (2 s for C, C++, Go, Rust and native bots, 4 s
    /// for Java and JavaScript, 6 s for Python), 8 MiB. Every game: the language's
    /// memory allowance on top of the limit, and a startup time no shorter
    /// than a move's.
    pub fn defaults_for(config: &GameConfig, language: Language) -> MatchLimits {
        let mut limits = MatchLimits::default();
        match config {
            GameConfig::Arrow5(_)
            | GameConfig::Mastermind(_)
            | GameConfig::Safecracker(_)
            | GameConfig::Judge(_) => {}
            GameConfig::Cryptron(_) => {
                limits.time_limit = language.contest_time_limit();
                limits.process.memory_kb = crate::games::cryptron::MEMORY_KB;
            }
        }
        limits.startup_limit = limits.startup_limit.max(limits.time_limit);
        limits.process.memory_allowance_kb = language.memory_allowance_kb();
        limits.process.address_space_allowance_kb = language.address_space_allowance_kb();
        limits
    }

    /// These limits on a machine `scale` times slower than the one they
    /// were set for: every time limit (move, start-up, bank) multiplied,
    /// kept within the ranges the flags accept (so that a replay command
    /// reads back). The margin is not scaled: it is the jitter allowed on
    /// top of the scaled limits.
    pub fn scaled(mut self, scale: TimeScale) -> MatchLimits {
        let times =
            |d: Duration, most: Duration| d.mul_f64(scale.0).clamp(Duration::from_millis(1), most);
        self.time_limit = times(self.time_limit, crate::units::MAX_MOVE_TIME);
        self.startup_limit = times(self.startup_limit, crate::units::MAX_MOVE_TIME);
        if !self.time_bank.is_zero() {
            self.time_bank = times(self.time_bank, crate::units::MAX_TIME_BANK);
        }
        self
    }
}

/// How many times slower this machine is than the one the limits were set
/// for (`--time-scale`, `time_scale` in check files, `referee calibrate`):
/// a positive finite factor, at most [`TimeScale::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct TimeScale(f64);

impl Default for TimeScale {
    fn default() -> Self {
        TimeScale::ONE
    }
}

impl TimeScale {
    /// The limits as they are.
    pub const ONE: TimeScale = TimeScale(1.0);
    /// The largest factor taken: beyond it a machine is not slow, it is
    /// not fit to judge timed games.
    pub const MAX: f64 = 1000.0;

    /// A factor, or why it is none.
    pub fn new(factor: f64) -> Result<TimeScale, String> {
        if !factor.is_finite() || factor <= 0.0 {
            return Err(format!(
                "the time scale must be a positive finite number (1 = the limits as they are, 2 = twice as long), got {factor}"
            ));
        }
        if factor > Self::MAX {
            return Err(format!(
                "the time scale {factor} is over {}: a machine that slow cannot judge timed games",
                Self::MAX
            ));
        }
        Ok(TimeScale(factor))
    }

    /// Reads a factor as written on a command line or in a file (`2`, `1.5`).
    pub fn parse(text: &str) -> Result<TimeScale, String> {
        let number: f64 = text.trim().parse().map_err(|_| {
            format!("'{text}' is not a number; give a positive factor such as 1.5 (limits half as long again)")
        })?;
        TimeScale::new(number)
    }

    pub fn factor(self) -> f64 {
        self.0
    }

    pub fn is_one(self) -> bool {
        self.0 == 1.0
    }
}

impl std::fmt::Display for TimeScale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Three decimals at most, no trailing zeros: 2, 1.5, 1.234.
        let text = format!("{:.3}", self.0);
        f.write_str(text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// A time scale as a check file or `--time-scale` gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScaleSetting {
    Factor(TimeScale),
    /// Measure this machine first (`referee calibrate`).
    Auto,
}

impl ScaleSetting {
    /// `auto` or a factor.
    pub fn parse(text: &str) -> Result<ScaleSetting, String> {
        if text.trim() == "auto" {
            return Ok(ScaleSetting::Auto);
        }
        TimeScale::parse(text)
            .map(ScaleSetting::Factor)
            .map_err(|e| format!("{e}, or \"auto\" (measure this machine first)"))
    }
}

/// Everything needed to play one game.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    pub config: GameConfig,
    /// Public: names the game's random stream under `key`, and is told to
    /// the bots. Everything random in the game comes from `key.rng(seed)`.
    pub seed: u64,
    pub key: RunKey,
    /// A, B, then C, D, ... in a game of more than two players; one
    /// limits for each.
    pub bots: Vec<BotCommand>,
    pub limits: Vec<MatchLimits>,
}

/// Everything needed to play one solo game: one bot attacks a secret the
/// referee holds (`referee bench`). The game itself, built by the caller,
/// holds the secret and the bot's seed.
#[derive(Clone, Debug)]
pub struct SoloPlan {
    pub config: GameConfig,
    /// The bench seed, kept in the record and the replay command.
    pub seed: u64,
    /// The key the secret and the bot's seed were drawn with (for the
    /// replay command).
    pub key: RunKey,
    /// Which secret, in the game's enumeration order.
    pub secret_index: u64,
    pub bot: BotCommand,
    pub limits: MatchLimits,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    #[test]
    fn cryptron_defaults_follow_the_language() {
        let cryptron = GameConfig::Cryptron(games::cryptron::Config::default());
        let c = MatchLimits::defaults_for(&cryptron, Language::named("c"));
        assert_eq!(c.time_limit, Duration::from_secs(2));
        assert_eq!(c.process.memory_kb, crate::games::cryptron::MEMORY_KB);
        assert_eq!(
            c.process.memory_cap_kb(),
            crate::games::cryptron::MEMORY_KB + 4 * 1024
        );
        let py = MatchLimits::defaults_for(&cryptron, Language::named("python"));
        assert_eq!(py.time_limit, Duration::from_secs(6));
        assert!(py.startup_limit >= py.time_limit);
        assert_eq!(
            py.process.memory_cap_kb(),
            crate::games::cryptron::MEMORY_KB + 16 * 1024
        );
        // Arrow 5 keeps its limits; only the allowance is added.
        let arrow5 = GameConfig::Arrow5(Default::default());
        let a = MatchLimits::defaults_for(&arrow5, Language::named("python"));
        assert_eq!(a.time_limit, MatchLimits::default().time_limit);
        assert_eq!(
            a.process.memory_kb,
            MatchLimits::default().process.memory_kb
        );
    }

    #[test]
    fn a_time_scale_multiplies_every_time_limit_within_range() {
        let limits = MatchLimits {
            time_limit: Duration::from_millis(300),
            startup_limit: Duration::from_secs(5),
            time_bank: Duration::from_secs(1),
            time_margin: Duration::from_millis(50),
            ..MatchLimits::default()
        };
        let doubled = limits.clone().scaled(TimeScale::new(2.0).unwrap());
        assert_eq!(doubled.time_limit, Duration::from_millis(600));
        assert_eq!(doubled.startup_limit, Duration::from_secs(10));
        assert_eq!(doubled.time_bank, Duration::from_secs(2));
        assert_eq!(doubled.time_margin, Duration::from_millis(50));
        let huge = limits.scaled(TimeScale::new(1000.0).unwrap());
        assert_eq!(huge.startup_limit, crate::units::MAX_MOVE_TIME);
        let none = MatchLimits::default().scaled(TimeScale::new(3.0).unwrap());
        assert_eq!(none.time_bank, Duration::ZERO);
        for bad in ["0", "-1", "nan", "inf", "1001", "fast", ""] {
            assert!(TimeScale::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeScale::parse(" 1.50 ").unwrap().to_string(), "1.5");
        assert_eq!(TimeScale::ONE.to_string(), "1");
    }
}
