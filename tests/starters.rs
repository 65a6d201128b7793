//! The starter bots a student copies (`sample_bots/README.md`) play every
//! game at its default size and at the smallest and largest sizes the
//! referee accepts, from both seats, against the game's random bot: every
//! reply well formed, legal and within the default limits (`ok` for both
//! bots). The Python, C and C++ starters run here; `check_starters.sh` plays
//! every language whose toolchain is installed.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);

/// The starters run here: a `.py` file as it is, `.c` and `.cpp` files
/// compiled by the referee.
const STARTERS: [&str; 3] = [
    "python/{game}_starter.py",
    "c/{game}_starter.c",
    "cpp/{game}_starter.cpp",
];

/// Plays `starter` against the game's random bot from both seats with
/// `options`, and checks both verdicts.
fn plays_both_seats(game: &str, starter: &str, options: &[&str]) {
    let mut opponent = sample_bin(&format!("{game}_random"));
    if game == "cryptron" {
        opponent = format!("{opponent} 5"); // its seed is its argument
    }
    for (a, b) in [(starter, opponent.as_str()), (opponent.as_str(), starter)] {
        let mut args = vec!["match", game, a, b, "--seed", "5", "--json"];
        args.extend_from_slice(options);
        let run = referee(&args, BUDGET);
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        let record = run.json();
        assert!(
            ["a", "b", "draw"].contains(&record["winner"].as_str().unwrap_or("")),
            "{args:?}: {record}"
        );
        for player in record["players"].as_array().unwrap() {
            assert_eq!(player["verdict"], "ok", "{args:?}: {player}");
        }
    }
}

fn every_starter_plays(game: &str, sizes: &[&[&str]]) {
    for starter in STARTERS {
        let starter = sample_file(&starter.replace("{game}", game));
        for options in sizes {
            plays_both_seats(game, &starter, options);
        }
    }
}

#[test]
fn arrow5_starters_play_both_variants() {
    every_starter_plays("arrow5", &[&[], &["--variant", "hidden-eye"]]);
}

#[test]
fn mastermind_starters_play_the_smallest_and_largest_sizes() {
    // 12 pegs of 36 colours are 36^12 codes: the starters search instead
    // of listing them (a few attacks are enough to show it).
    every_starter_plays(
        "mastermind",
        &[
            &[],
            &["--pegs", "1", "--colours", "2"],
            &["--pegs", "12", "--colours", "36", "--max-attacks", "3"],
        ],
    );
}

#[test]
fn safecracker_starters_play_the_smallest_and_largest_sizes() {
    every_starter_plays(
        "safecracker",
        &[
            &[],
            &["--length", "1", "--digits", "1"],
            &["--length", "10", "--digits", "9", "--attempts", "3"],
        ],
    );
}

#[test]
fn cryptron_starters_play_both_seats() {
    every_starter_plays("cryptron", &[&[]]);
}
