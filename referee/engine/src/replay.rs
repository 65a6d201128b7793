//! Replay plans and commands: what plays a game again, as data
//! ([`ReplayPlan`], kept in the game's record,
//! [`MatchRecord::plan`](crate::record::MatchRecord)), and the `referee
//! match` or `referee bench` command line rendered from it, by the flags
//! the command line defines (`cli/`): the game's options
//! ([`GameConfig::cli_flags`]), the seed, the secret key and every limit
//! that differs from what the command would take by itself. Records keep
//! the command too ([`MatchRecord::replay`](crate::record::MatchRecord));
//! reporters print it as the person can paste it
//! ([`report::as_invoked`](crate::report::as_invoked)). Programs read the
//! plan (`referee reproduce`), never the command. The CLI's tests parse
//! these commands with its own definitions, so the two cannot drift.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::bot;
use crate::games::GameConfig;
use crate::key::{KeySource, RunKey};
use crate::match_plan::{MatchLimits, MatchPlan, SoloPlan};
use crate::units;

/// What plays a game again: a match between two bots, or a solo game of a
/// bench.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "lowercase")]
pub enum ReplayPlan {
    Match(MatchReplay),
    Bench(BenchReplay),
}

/// A match as data: the game, its seed and key, the bots' specs and each
/// seat's limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReplay {
    pub config: GameConfig,
    pub seed: u64,
    /// The key every draw of the game comes from; `None` in a copy made
    /// for a team, which must not hold it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<ReplayKey>,
    /// A, B (then C, D, ...), as given.
    pub specs: Vec<String>,
    /// A, B (then C, D, ...).
    pub limits: Vec<ReplayLimits>,
}

/// A solo game of a bench as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReplay {
    pub config: GameConfig,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<ReplayKey>,
    /// Which secret, in the game's enumeration order.
    pub secret_index: u64,
    pub spec: String,
    pub limits: ReplayLimits,
}

/// Where a game's key is: written out (a key given or made for one
/// command), or the file it was read from (a results folder's
/// `referee.key`, `--key-file`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplayKey {
    Hex(String),
    File(PathBuf),
}

/// The limits a seat played under, as its bot was given them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayLimits {
    pub time_limit: Duration,
    pub startup_limit: Duration,
    pub time_bank: Duration,
    pub memory_kb: u64,
    pub disk_kb: u64,
    pub allow_fork: bool,
    /// `--time-margin` (zero, left out: none).
    #[serde(default, skip_serializing_if = "Duration::is_zero")]
    pub time_margin: Duration,
    /// `--strikes` (zero, left out: strikes never lose).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub strikes: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl ReplayLimits {
    pub fn of(limits: &MatchLimits) -> ReplayLimits {
        ReplayLimits {
            time_limit: limits.time_limit,
            startup_limit: limits.startup_limit,
            time_bank: limits.time_bank,
            memory_kb: limits.process.memory_kb,
            disk_kb: limits.process.disk_kb,
            allow_fork: limits.process.allow_fork,
            time_margin: limits.time_margin,
            strikes: limits.strikes,
        }
    }

    /// `limits` (a bot's defaults, with the sandbox and allowances of
    /// where it plays now) with these limits in place of theirs.
    pub fn applied_to(&self, mut limits: MatchLimits) -> MatchLimits {
        limits.time_limit = self.time_limit;
        limits.startup_limit = self.startup_limit;
        limits.time_bank = self.time_bank;
        limits.process.memory_kb = self.memory_kb;
        limits.process.disk_kb = self.disk_kb;
        limits.process.allow_fork = self.allow_fork;
        limits.time_margin = self.time_margin;
        limits.strikes = self.strikes;
        limits
    }

    /// The command-line flags that set these limits (the time bank only
    /// when there is one, the disk limit only when not the default).
    fn flags(&self) -> Vec<String> {
        let mut words = vec![
            "--time-limit".into(),
            bot::show_duration(self.time_limit),
            "--startup-limit".into(),
            bot::show_duration(self.startup_limit),
        ];
        if !self.time_bank.is_zero() {
            words.extend(["--time-bank".into(), bot::show_duration(self.time_bank)]);
        }
        words.extend(["--memory-limit".into(), units::show_size_kb(self.memory_kb)]);
        if self.disk_kb != bot::DEFAULT_DISK_KB {
            words.extend(["--disk-limit".into(), units::show_size_kb(self.disk_kb)]);
        }
        if !self.time_margin.is_zero() {
            words.extend(["--time-margin".into(), bot::show_duration(self.time_margin)]);
        }
        if self.strikes > 0 {
            words.extend(["--strikes".into(), self.strikes.to_string()]);
        }
        words
    }
}

impl ReplayKey {
    pub fn of(key: &RunKey) -> ReplayKey {
        match &key.source {
            KeySource::File(path) => ReplayKey::File(path.clone()),
            KeySource::Fresh | KeySource::Given => ReplayKey::Hex(key.key.to_hex()),
        }
    }

    fn flags(key: &Option<ReplayKey>) -> Vec<String> {
        match key {
            Some(ReplayKey::File(path)) => vec!["--key-file".into(), path.display().to_string()],
            Some(ReplayKey::Hex(hex)) => vec!["--key".into(), hex.clone()],
            None => vec![],
        }
    }
}

impl ReplayPlan {
    pub fn of_match(plan: &MatchPlan) -> ReplayPlan {
        ReplayPlan::Match(MatchReplay {
            config: plan.config.clone(),
            seed: plan.seed,
            key: Some(ReplayKey::of(&plan.key)),
            specs: plan.bots.iter().map(|bot| bot.spec.clone()).collect(),
            limits: plan.limits.iter().map(ReplayLimits::of).collect(),
        })
    }

    pub fn of_bench(plan: &SoloPlan) -> ReplayPlan {
        ReplayPlan::Bench(BenchReplay {
            config: plan.config.clone(),
            seed: plan.seed,
            key: Some(ReplayKey::of(&plan.key)),
            secret_index: plan.secret_index,
            spec: plan.bot.spec.clone(),
            limits: ReplayLimits::of(&plan.limits),
        })
    }

    /// The same plan without its key (a team's copy of a game).
    pub fn without_key(mut self) -> ReplayPlan {
        match &mut self {
            ReplayPlan::Match(m) => m.key = None,
            ReplayPlan::Bench(b) => b.key = None,
        }
        self
    }

    /// The command line that plays the game again.
    pub fn command(&self) -> String {
        match self {
            ReplayPlan::Match(m) => m.command(),
            ReplayPlan::Bench(b) => b.command(),
        }
    }
}

impl MatchReplay {
    /// The `referee match ...` command line: the limits only when both
    /// seats had the same (the command has one set for both).
    pub fn command(&self) -> String {
        let mut words: Vec<String> = vec![
            "referee".into(),
            "match".into(),
            self.config.game_argument().into(),
        ];
        words.extend(self.specs.iter().cloned());
        words.extend(self.config.cli_flags());
        words.extend(["--seed".into(), self.seed.to_string()]);
        words.extend(ReplayKey::flags(&self.key));
        let Some(limits) = self.limits.first() else {
            return shell_words::join(words);
        };
        let flags = limits.flags();
        // `--allow-fork` is said on its own below.
        let shared = |l: &ReplayLimits| {
            (
                l.time_limit,
                l.startup_limit,
                l.time_bank,
                l.memory_kb,
                l.time_margin,
                l.strikes,
            )
        };
        if self
            .limits
            .iter()
            .all(|other| shared(limits) == shared(other))
        {
            words.extend(flags);
        }
        if self.limits.iter().any(|l| l.allow_fork) {
            words.push("--allow-fork".into());
        }
        shell_words::join(words)
    }
}

impl BenchReplay {
    /// The `referee bench ...` command line.
    pub fn command(&self) -> String {
        let mut words: Vec<String> = vec![
            "referee".into(),
            "bench".into(),
            self.config.game_argument().into(),
            self.spec.clone(),
        ];
        // The referee holds every secret of a bench: no `--codes`.
        let flags = self.config.cli_flags();
        let mut flags = flags.iter();
        while let Some(flag) = flags.next() {
            if flag == "--codes" {
                flags.next();
            } else {
                words.push(flag.clone());
            }
        }
        words.extend([
            "--secret".into(),
            self.secret_index.to_string(),
            "--seed".into(),
            self.seed.to_string(),
        ]);
        words.extend(ReplayKey::flags(&self.key));
        words.extend(self.limits.flags());
        shell_words::join(words)
    }
}

/// The `referee match ...` command line that plays this game again.
pub fn match_command(plan: &MatchPlan) -> String {
    ReplayPlan::of_match(plan).command()
}

/// The `referee bench ...` command line that plays this solo game again.
pub fn bench_command(plan: &SoloPlan) -> String {
    ReplayPlan::of_bench(plan).command()
}
