//! The referee's rules: every game as a pure state machine, the syntax of
//! bot lines, the verdicts, and the pure arithmetic of units and text.
//!
//! This crate knows nothing of processes, files, threads, clocks or the
//! network (a test reads its sources to keep it so), and it forbids unsafe
//! code: a game is a state and functions of it, which the engine drives
//! with bot processes from the sandbox crate, or a person at a terminal.
//!
//! - [`games`]: the four games, their options and secrets;
//! - [`protocol`]: the syntax of bot lines (a malformed line is the
//!   protocol's fault, an illegal move the game's);
//! - [`verdict`]: how a bot's part in a game ended;
//! - [`units`]: sizes, times and counts as people write them, and the
//!   check of a game's options against the referee's caps;
//! - [`text`]: escaping and shortening of text bots wrote.

#![forbid(unsafe_code)]

pub mod games;
pub mod protocol;
pub mod text;
pub mod units;
pub mod verdict;
