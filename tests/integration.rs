//! Integration tests: real bot processes through the real `referee` binary.
//! One test binary with topic modules (see `harness` for the helpers).

#[macro_use]
mod harness;

mod arrow5_match;
mod bench;
mod check;
mod ci_package;
mod cli;
mod collect;
mod compile;
mod cryptron_match;
mod fair_play;
mod ffa;
mod ffa_audit;
mod ffa_check;
mod ffa_game;
mod ffa_live;
mod ffa_tournament;
mod formats;
mod formats_audit;
mod games;
mod grading;
mod hostile_input;
mod human_play;
mod incremental;
mod judge;
mod judges_audit;
mod kill_resume;
mod languages;
mod links;
mod live;
mod live_moves;
mod mastermind_match;
mod match_audit;
mod move_times;
mod newcomer;
mod report;
mod reproduce;
mod safecracker_match;
mod sandbox;
mod schedulers;
mod snapshots;
mod spoilt_rows;
mod sprt;
mod start_speed;
mod starters;
mod term_audit;
mod tournament;
mod verdicts;
