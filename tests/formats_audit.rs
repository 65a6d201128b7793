//! Two-player tournament formats as a hostile contestant, a newcomer
//! organiser and an auditor see them: files whose rules a bot could turn
//! to its favour are refused before any game.

use crate::harness::*;
use std::time::Duration;

/// Points that reward a worse result (a loss worth more than a win, a
/// draw worth more than a win or less than a loss, or nothing between a
/// win and a loss) would let a bot climb by crashing or timing out on
/// purpose: the file is refused (exit 2, naming the file and `scoring`),
/// and no results folder is made. Scoring at the edge (a draw worth a
/// win) is played, and the standings' points are the file's.
#[test]
fn scoring_that_would_reward_losing_is_refused_before_any_game() {
    let dir = scratch_dir("formats-audit", "scoring");
    let strong = sample_bin("arrow5_strong");
    let constant = sample_bin("arrow5_constant");
    let bots = [("strong", strong.as_str()), ("constant", constant.as_str())];
    for (case, scoring, said) in [
        (
            "loss-over-win",
            "win = 0\ndraw = 1\nloss = 5",
            "win 0, draw 1, loss 5",
        ),
        (
            "draw-over-win",
            "win = 1\ndraw = 3",
            "win 1, draw 3, loss 0",
        ),
        (
            "loss-over-draw",
            "draw = 0\nloss = 1",
            "win 2, draw 0, loss 1",
        ),
        (
            "all-equal",
            "win = 1\ndraw = 1\nloss = 1",
            "win 1, draw 1, loss 1",
        ),
    ] {
        let file = two_bot_tournament(&dir, "arrow5", 2, bots, &format!("[scoring]\n{scoring}\n"));
        let out = dir.join(case);
        referee(
            &[
                "tournament",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--no-report",
            ],
            Duration::from_secs(60),
        )
        .refused_with(&format!("t.toml:"))
        .stderr_has(&format!("scoring: {said} would reward a worse result"))
        .stderr_has("win >= draw >= loss");
        assert!(
            !out.exists(),
            "{case}: a refused file made {}",
            out.display()
        );
    }

    let file = two_bot_tournament(
        &dir,
        "arrow5",
        2,
        bots,
        "[options]\nmax_rounds = 20\n[scoring]\nwin = 1\ndraw = 1\nloss = 0\n",
    );
    let out = dir.join("edge");
    referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-report",
            "--jobs",
            "2",
        ],
        Duration::from_secs(120),
    )
    .succeeds();
    let standings = csv_records(&out.join("standings.csv"));
    assert_eq!(standings.len(), 2, "{standings:?}");
    for row in &standings {
        let count = |column: &str| row[column].parse::<u64>().unwrap();
        assert_eq!(count("played"), 2, "{row:?}");
        assert_eq!(
            count("points"),
            count("wins") + count("draws"),
            "points are not win 1, draw 1, loss 0: {row:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
