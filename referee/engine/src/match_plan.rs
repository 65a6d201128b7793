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
    pub process: ProcessLimits,
}

impl Default for MatchLimits {
    fn default() -> Self {
        MatchLimits {
            time_limit: Duration::from_secs(2),
            startup_limit: Duration::from_secs(5),
            time_bank: Duration::ZERO,
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
}

/// Everything needed to play one game.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    pub config: GameConfig,
    /// Public: names the game's random stream under `key`, and is told to
    /// the bots. Everything random in the game comes from `key.rng(seed)`.
    pub seed: u64,
    pub key: RunKey,
    /// A then B.
    pub bots: [BotCommand; 2],
    pub limits: [MatchLimits; 2],
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
}
