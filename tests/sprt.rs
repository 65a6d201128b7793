//! `referee sprt`: the strong Arrow 5 solver against the random baseline
//! accepts H1; a bot against itself never does. Both runs are deterministic
//! (seeded bots, pairs fed to the test in order), and bounded by --max-games.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

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
