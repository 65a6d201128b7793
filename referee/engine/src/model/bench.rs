//! What a bench found: one row per solo game (`bench.csv`), and the
//! summary of them all.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::verdict::Verdict;

/// Which secrets to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every secret, in the game's order.
    All,
    /// This many distinct secrets drawn from the bench seed.
    Sample(u64),
    /// The secret of this index alone (to look at one game closely).
    One(u64),
}

/// One solo game, as one CSV row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    /// The secret's number in the game's enumeration order.
    pub secret_index: u64,
    /// The secret as the wire spells a code (`1 0 3 6 E`, `0 1 2 3`, `2-1-3`).
    pub secret: String,
    pub attacks: u32,
    /// Cracked within the cap, by the rules, with no verdict against the bot.
    pub cracked: bool,
    pub verdict: Verdict,
    /// How the game ended: `cracked`, `attack-cap`, `round-cap`, `disqualified`.
    pub reason: String,
    /// What went wrong, for a verdict other than `ok`.
    pub detail: String,
    pub bot_seed: u64,
    pub time_total_ms: f64,
    pub time_max_ms: f64,
    pub replies: u32,
    pub cpu_total_ms: f64,
    pub peak_memory_kb: u64,
}

/// What a benchmark found.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchSummary {
    pub game: &'static str,
    pub variant: String,
    pub bot: String,
    pub seed: u64,
    pub selection: Selection,
    /// The secrets the game has in all.
    pub secret_count: u64,
    pub jobs: usize,
    pub games: u64,
    pub cracked: u64,
    /// Attacks over the cracked games.
    pub total_attacks: u64,
    /// `total_attacks / cracked` (0 when nothing was cracked).
    pub average: f64,
    /// The most attacks a cracked game took.
    pub largest: u32,
    /// Cracked games by the number of attacks they took.
    pub histogram: BTreeMap<u32, u64>,
    /// Every game not cracked (cap reached, or a verdict), by secret index.
    pub failures: Vec<BenchRow>,
    /// The slowest reply of any game, and the mean reply time.
    pub time_max_ms: f64,
    pub time_mean_ms: f64,
    pub elapsed: Duration,
}
