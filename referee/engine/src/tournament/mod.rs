//! Tournaments: a validated plan from a TOML file, a deterministic schedule,
//! parallel play with one writer, resumable results, shards and merging,
//! Swiss rounds and knockout brackets paired from the results so far, and
//! standings with ratings. Round robins and gauntlets keep their games by
//! identity ([`identity`], [`store`]): run again after bots changed, they
//! play only the new games.

pub mod ffa;
pub mod format;
pub mod groups;
pub mod identity;
pub mod knockout;
pub mod plan;
pub mod rounds;
pub mod run;
pub mod schedule;
pub use crate::model::standings;
pub mod store;
pub mod swiss;

pub use format::FormatRules;
pub use plan::{Format, PlanError, Scoring, TournamentBot, TournamentPlan};
pub use run::{dry_run, merge, run, DryRun, Outcome, RoundsTables, RunOptions, TournamentError};
pub use schedule::{schedule, Shard};
pub use standings::{GameRow, StandingRow, Standings};
