//! Replay commands: the `referee match` and `referee bench` command lines
//! that play a game again, built from its plan in one place, by the flags
//! the command line defines (`cli/`): the game's options
//! ([`GameConfig::cli_flags`]), the seed, the secret key
//! ([`RunKey::replay_flags`](crate::key::RunKey::replay_flags)) and every
//! limit that differs from what the command would take by itself. Records
//! keep the command ([`MatchRecord::replay`](crate::record::MatchRecord));
//! reporters print it as the person can paste it
//! ([`report::as_invoked`](crate::report::as_invoked)). The CLI's tests
//! parse these commands with its own definitions, so the two cannot drift.
//!
//! [`GameConfig::cli_flags`]: crate::games::GameConfig::cli_flags

use crate::bot;
use crate::match_plan::{MatchLimits, MatchPlan, SoloPlan};
use crate::units;

/// The `referee match ...` command line that plays this game again.
pub fn match_command(plan: &MatchPlan) -> String {
    let mut words: Vec<String> = vec![
        "referee".into(),
        "match".into(),
        plan.config.game_name().into(),
        plan.bots[0].spec.clone(),
        plan.bots[1].spec.clone(),
    ];
    words.extend(plan.config.cli_flags());
    words.extend(["--seed".into(), plan.seed.to_string()]);
    words.extend(plan.key.replay_flags());
    let limits = &plan.limits[0];
    let other = &plan.limits[1];
    if (
        limits.time_limit,
        limits.startup_limit,
        limits.time_bank,
        limits.process.memory_kb,
    ) == (
        other.time_limit,
        other.startup_limit,
        other.time_bank,
        other.process.memory_kb,
    ) {
        words.extend(limit_flags(limits));
    }
    if plan.limits.iter().any(|l| l.process.allow_fork) {
        words.push("--allow-fork".into());
    }
    shell_words::join(words)
}

/// The `referee bench ...` command line that plays this solo game again.
pub fn bench_command(plan: &SoloPlan) -> String {
    let mut words: Vec<String> = vec![
        "referee".into(),
        "bench".into(),
        plan.config.game_name().into(),
        plan.bot.spec.clone(),
    ];
    // The referee holds every secret of a bench: no `--codes`.
    let flags = plan.config.cli_flags();
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
        plan.secret_index.to_string(),
        "--seed".into(),
        plan.seed.to_string(),
    ]);
    words.extend(plan.key.replay_flags());
    words.extend(limit_flags(&plan.limits));
    shell_words::join(words)
}

/// The command-line flags that set `limits` (the time bank only when there
/// is one).
fn limit_flags(limits: &MatchLimits) -> Vec<String> {
    let mut words = vec![
        "--time-limit".into(),
        bot::show_duration(limits.time_limit),
        "--startup-limit".into(),
        bot::show_duration(limits.startup_limit),
    ];
    if !limits.time_bank.is_zero() {
        words.extend(["--time-bank".into(), bot::show_duration(limits.time_bank)]);
    }
    words.extend([
        "--memory-limit".into(),
        units::show_size_kb(limits.process.memory_kb),
    ]);
    if limits.process.disk_kb != bot::DEFAULT_DISK_KB {
        words.extend([
            "--disk-limit".into(),
            units::show_size_kb(limits.process.disk_kb),
        ]);
    }
    words
}
