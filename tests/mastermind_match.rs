//! `referee match mastermind` end to end with the sample bots.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

fn assert_finished(v: &serde_json::Value) {
    assert_eq!(v["game"], "mastermind");
    assert!(["a", "b", "draw"].contains(&v["winner"].as_str().unwrap()));
    for p in v["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok", "{p}");
        assert!(p["attacks"].as_u64().unwrap() >= 1);
        assert!(p["time_max_ms"].is_number());
    }
}

#[test]
fn knuth_against_random_with_bot_codes() {
    let knuth = sample_bin("mastermind_knuth");
    let random = sample_bin("mastermind_random");
    let run = referee(
        &[
            "match",
            "mastermind",
            &knuth,
            &random,
            "--seed",
            "3",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_finished(&v);
    assert_eq!(v["variant"], "4x6");
    // Knuth never needs more than 5 attacks; the game ends within a round of it.
    assert!(v["players"][0]["attacks"].as_u64().unwrap() <= 5);
}

#[test]
fn other_sizes_with_random_codes_and_the_american_spelling() {
    let strong = sample_bin("mastermind_strong");
    let random = sample_bin("mastermind_random");
    let run = referee(
        &[
            "match",
            "mastermind",
            &strong,
            &random,
            "--pegs",
            "5",
            "--colors",
            "8",
            "--max-attacks",
            "20",
            "--codes",
            "random",
            "--seed",
            "8",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_finished(&v);
    assert_eq!(v["variant"], "5x8");
    assert!(v["replay"].as_str().unwrap().contains("--colours 8"));
}

#[test]
fn the_python_starter_plays_a_match() {
    let starter = sample_file("python/mastermind_starter.py");
    let knuth = sample_bin("mastermind_knuth");
    let run = referee(
        &[
            "match",
            "mastermind",
            &starter,
            &knuth,
            "--seed",
            "2",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_finished(&run.json());
}

#[test]
fn options_of_the_other_game_are_refused() {
    let knuth = sample_bin("mastermind_knuth");
    let a5 = sample_bin("arrow5_random");
    let cases: [(&[&str], &str); 3] = [
        (
            &["match", "mastermind", &knuth, &knuth, "--max-rounds", "5"],
            "mastermind has no option --max-rounds; leave it out (its options are: --codes, --pegs, --colours, --max-attacks)",
        ),
        (
            &["match", "arrow5", &a5, &a5, "--pegs", "5"],
            "arrow5 has no option --pegs",
        ),
        (
            &["match", "mastermind", &knuth, &knuth, "--colours", "40"],
            "from 2 to 36",
        ),
    ];
    for (args, expected) in cases {
        let run = referee(args, Duration::from_secs(30));
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    }
}
