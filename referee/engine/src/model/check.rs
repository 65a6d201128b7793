//! What a check found ([`CheckReport`], the JSON of `check --json`), and
//! how an A/B run ended ([`AbOutcome`]).

use serde::{Deserialize, Serialize};

use crate::sprt::Tally;

/// Bumped when a field of [`CheckReport`] changes meaning or disappears.
pub const REPORT_VERSION: u32 = 1;

/// What a check found: one entry per requirement, in the file's order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckReport {
    pub version: u32,
    pub name: String,
    pub game: String,
    pub variant: String,
    pub bot: String,
    pub bot_spec: String,
    /// Every requirement holds.
    pub passed: bool,
    /// `--fail-fast`: the check stops at the first failed requirement.
    pub fail_fast: bool,
    pub elapsed_s: f64,
    /// The factor every time limit was multiplied by (`--time-scale`,
    /// `time_scale` in the file; 1: the limits as written). 1 in reports
    /// written before it was kept.
    #[serde(default = "one")]
    pub time_scale: f64,
    pub requirements: Vec<RequirementResult>,
}

fn one() -> f64 {
    1.0
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RequirementResult {
    pub name: String,
    pub kind: String,
    pub passed: bool,
    /// `pass`, `fail`, or `not-run`: `--fail-fast` stopped the check before
    /// this requirement was decided (it is not passed).
    pub status: Status,
    /// The measured number the requirement is judged on.
    pub measured: f64,
    /// Its unit: `games`, `%`, `attacks`, `ms`; at tables of more than
    /// two players also `tables` and `rank` (1 = first).
    pub unit: String,
    /// The bound, as written for people (`>= 40%`, `<= 5`, `< 1s`).
    pub bound: String,
    /// One line: what was measured.
    pub summary: String,
    /// What went wrong in single games (verdicts, uncracked secrets), with
    /// a replay command where there is one. At most [`MAX_DETAILS`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    /// With transcripts kept (`check --report`): the transcript file names
    /// of the games that count against this requirement (a verdict, a loss,
    /// the slowest reply), at most [`MAX_DETAILS`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<String>,
}

/// Where a requirement ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Pass,
    Fail,
    /// Not decided: `--fail-fast` stopped the check first.
    NotRun,
}

impl Status {
    /// The word a terminal line starts with.
    pub fn label(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::NotRun => "SKIP",
        }
    }
}

/// The most detail lines a requirement keeps.
pub const MAX_DETAILS: usize = 10;

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbResult {
    /// H1 accepted: NEW is better.
    H1,
    /// H0 accepted: NEW is not `elo1` better.
    H0,
    /// The cap was reached first.
    Inconclusive,
}

#[derive(Clone, Debug)]
pub struct AbOutcome {
    pub result: AbResult,
    pub tally: Tally,
    pub llr: f64,
    /// Pairs in which NEW, and OLD, got a verdict other than `ok`.
    pub verdicts_new: u64,
    pub verdicts_old: u64,
    /// The replay command of NEW's first verdict, if any.
    pub first_new_verdict: Option<String>,
}
