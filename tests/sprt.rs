//! `referee sprt`: the strong Arrow 5 solver against the random baseline
//! accepts H1; a bot against itself never does. Both runs are deterministic
//! (a fixed key, seeded bots, pairs fed to the test in order), and bounded by
//! --max-games. Without the key, each run draws a fresh one and so other
//! games: the strong solver scores about 60-70% against the random one, and
//! an unlucky run can then still end in H0 (a CI run once did, after 44
//! games): a sequential test errs now and then by design.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// The secret key of both runs (64 hex digits).
const KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";

#[test]
fn strong_against_random_accepts_h1() {
    let strong = sample_bin("arrow5_strong");
    let random = sample_bin("arrow5_random");
    let run = referee(
        &[
            "sprt",
            "arrow5",
            &strong,
            &random,
            "--elo1",
            "50",
            "--max-games",
            "1000",
            "--jobs",
            "2",
            "--key",
            KEY,
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("LLR bounds [-2.944, 2.944]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Result: H1 accepted"), "{}", run.stdout);
    let progress = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("games ") && l.contains("W/D/L") && l.contains("LLR"))
        .count();
    assert!(progress >= 2, "{}", run.stdout);
}

#[test]
fn a_bot_against_itself_does_not_accept_h1() {
    let strong = sample_bin("arrow5_strong");
    let run = referee(
        &[
            "sprt",
            "arrow5",
            &strong,
            &strong,
            "--elo1",
            "50",
            "--max-games",
            "200",
            "--jobs",
            "2",
            "--key",
            KEY,
        ],
        BUDGET,
    );
    assert!(
        run.status == 1 || run.status == 3,
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    assert!(!run.stdout.contains("H1 accepted"), "{}", run.stdout);
}

#[test]
fn bad_bounds_are_refused() {
    let strong = sample_bin("arrow5_strong");
    let run = referee(
        &[
            "sprt", "arrow5", &strong, &strong, "--elo0", "5", "--elo1", "0",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--elo1"), "{}", run.stderr);
}

#[test]
fn elo_beyond_a_thousand_is_refused_before_any_game() {
    // 10000 Elo rounds the expected score to 1: the LLR was NaN and the run
    // played every game of --max-games to an inconclusive end.
    let strong = sample_bin("arrow5_strong");
    let random = sample_bin("arrow5_random");
    for (elo0, elo1, flag) in [
        ("0", "10000", "--elo1 10000"),
        ("0", "1e308", "--elo1 1e308 "),
        ("-1e308", "0", "--elo0 -1e308 "),
    ] {
        let run = referee(
            &[
                "sprt",
                "arrow5",
                &strong,
                &random,
                "--elo0",
                elo0,
                "--elo1",
                elo1,
                "--max-games",
                "20",
            ],
            BUDGET,
        );
        assert_eq!(
            run.status, 2,
            "{elo0} {elo1}: {}\n{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stderr.contains(flag) && run.stderr.contains("from -1000 to 1000"),
            "{}",
            run.stderr
        );
        assert!(!run.stdout.contains("LLR"), "{}", run.stdout);
    }
}
