//! The referee: runs games between bot programs over a line protocol
//! (`protocol.md`), with time and memory limits, verdicts and tournaments.
//!
//! Layers, each knowing only the ones below it:
//! - [`games`]: the rules, pure state machines;
//! - [`protocol`]: the syntax of bot lines;
//! - [`bot`]: the only module that touches child processes;
//! - [`runner`]: plays one match, turning faults into [`verdict::Verdict`]s;
//!   [`time_bank`] is its arithmetic of a bot's time bank;
//! - [`human`]: plays a game with people at the terminal;
//! - [`record`], [`transcript`]: what is kept of a match; [`replay`]: the
//!   command line that plays it again;
//! - [`reporter`]: every output format (terminal, CSV, JSON, JUnit), fed
//!   the finished records; [`report`]: a match's readable account;
//! - [`bench`](mod@bench): a solver against every secret (solo games on worker threads);
//! - [`check`]: CI checks of a bot against requirements, and A/B runs with
//!   the sequential test of [`sprt`].

#![forbid(unsafe_code)]

// The layers below, at the paths every module of the engine uses: the
// rules crate's modules, and the sandbox crate as `bot`.
pub use referee_rules::{games, protocol, text, units, verdict};
pub use referee_sandbox as bot;

pub mod atomic_file;
pub mod bench;
pub mod check;
pub mod collect;
pub mod grading;
pub mod human;
pub mod key;
pub mod model;
pub mod plan_file;
pub mod pool;
pub mod record;
pub mod replay;
pub mod report;
pub mod reporter;
pub mod reproduce;
pub mod runner;
pub mod sprt;
pub mod time_bank;
pub mod tournament;
pub mod transcript;

// Checks the layers above from the sources (`docs/design.md`).
#[cfg(test)]
mod layers;
