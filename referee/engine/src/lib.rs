//! The referee: runs games between bot programs over a line protocol
//! (`protocol.md`), with time and memory limits, verdicts and tournaments.
//!
//! Layers, lowest first, each knowing only itself and the ones below it
//! (checked by a test that reads these sources, `layers.rs`):
//! - below: [`games`] (the rules, pure state machines), [`protocol`] (the
//!   syntax of bot lines), [`verdict`], [`units`], [`text`] from the rules
//!   crate, and [`bot`], the sandbox crate: the only code that touches
//!   child processes;
//! - pieces: [`record`], [`transcript`] (what is kept of a match),
//!   [`report`] (a match's readable account), [`key`], [`sprt`] (the
//!   sequential test's arithmetic), [`time_bank`], [`atomic_file`], [`input_file`] (how files of a
//!   results folder are read);
//! - [`model`]: what the commands produce and the reporters show (game
//!   rows, standings, rounds tables, bench rows and summary, the check
//!   report, the A/B outcome, grades, admission rows);
//! - [`reporter`]: every output format (terminal, CSV, JSON, JUnit, HTML,
//!   grades), fed events built from `model` values, never importing a
//!   command;
//! - play: [`match_plan`] is what one game needs to be played (its game,
//!   seed, key, bots and limits); [`runner`] plays one match, turning
//!   faults into [`verdict::Verdict`]s, and [`replay`] is the command line
//!   that plays it again, both from the plan; [`pool`], [`plan_file`],
//!   [`human`] (a game with people at the terminal), [`reproduce`];
//! - the commands, each above the ones it uses: [`collect`], [`grading`],
//!   [`tournament`] and [`bench`](mod@bench) (a solver against every
//!   secret), [`check`] (CI checks of a bot against requirements, and A/B
//!   runs).

#![forbid(unsafe_code)]

// The layers below, at the paths every module of the engine uses: the
// rules crate's modules, and the sandbox crate as `bot`.
pub use referee_rules::{games, protocol, text, units, verdict};
pub use referee_sandbox as bot;

pub mod atomic_file;
pub mod bench;
pub mod calibrate;
pub mod check;
pub mod collect;
pub mod frame;
pub mod grading;
pub mod human;
pub mod input_file;
pub mod judge;
pub mod judge_check;
pub mod key;
pub mod live;
pub mod match_plan;
pub mod model;
pub mod plan_file;
pub mod pool;
pub mod record;
pub mod replay;
pub mod report;
pub mod reporter;
pub mod reproduce;
pub mod runner;
pub mod serve;
pub mod sprt;
pub mod time_bank;
pub mod tournament;
pub mod transcript;

// Checks the layers above from the sources (`docs/design.md`).
#[cfg(test)]
mod layers;
