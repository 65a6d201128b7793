//! Tournaments: a validated plan from a TOML file, a deterministic schedule,
//! parallel play with one writer, resumable results, shards and merging, and
//! standings with ratings.

pub mod plan;
pub mod run;
pub mod schedule;
pub mod standings;

pub use plan::{Format, PlanError, Scoring, TournamentBot, TournamentPlan};
pub use run::{merge, run, Outcome, RunOptions, TournamentError};
pub use schedule::{schedule, Shard};
pub use standings::{GameRow, StandingRow, Standings};
