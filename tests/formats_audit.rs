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
        played(&file, &out, &[])
            .refused_with("t.toml:")
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
    played(&file, &out, &["--jobs", "2"]).succeeds();
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

/// Three Arrow 5 sample bots, strong to weak.
const THREE: [(&str, &str); 3] = [
    ("strong", "arrow5_strong"),
    ("random", "arrow5_random"),
    ("constant", "arrow5_constant"),
];

/// A tournament file of arrow5 sample bots (`[name, sample binary]`), 2
/// games a pairing, seed 7, `extra` top-level fields first.
fn arrow5_file(
    dir: &std::path::Path,
    file: &str,
    format: &str,
    extra: &str,
    bots: &[(&str, &str)],
) -> std::path::PathBuf {
    let mut text = format!(
        "name = \"audit\"\ngame = \"arrow5\"\nformat = \"{format}\"\n{extra}\n\
         games_per_pairing = 2\nseed = 7\n[options]\nmax_rounds = 20\n"
    );
    for (name, bin) in bots {
        text.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\nbot = \"{}\"\n",
            sample_bin(bin)
        ));
    }
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path
}

/// `referee tournament FILE --out OUT --no-report EXTRA...`.
fn played(file: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-report",
    ];
    args.extend_from_slice(extra);
    referee(&args, Duration::from_secs(120))
}

/// A Swiss tournament or a knockout is paired round by round from its
/// results, so a folder of one cannot take a changed file: `--resume`,
/// `--update` and their dry runs all refuse it alike (exit 2, saying to
/// use another --out or restore the file, never to add --update, and a
/// dry run never as an internal failure), and the folder's games stay
/// as they were.
#[test]
fn a_folder_played_in_rounds_refuses_a_changed_file_alike_and_keeps_its_games() {
    let dir = scratch_dir("formats-audit", "rounds-changed");
    let all = THREE;
    for (format, extra) in [("swiss", "rounds = 1"), ("knockout", "")] {
        let first = arrow5_file(&dir, &format!("{format}.toml"), format, extra, &all);
        let out = dir.join(format!("out-{format}"));
        let out_arg = out.to_str().unwrap();
        referee(
            &[
                "tournament",
                first.to_str().unwrap(),
                "--out",
                out_arg,
                "--no-report",
                "--jobs",
                "2",
            ],
            Duration::from_secs(120),
        )
        .succeeds();
        let games = std::fs::read(out.join("games.csv")).unwrap();
        assert!(
            game_results(&out.join("games.csv")).len() >= 2,
            "{format}: no games played"
        );

        // The last bot removed.
        let changed = arrow5_file(
            &dir,
            &format!("{format}-changed.toml"),
            format,
            extra,
            &all[..2],
        );
        for flags in [
            &["--resume"][..],
            &["--update"],
            &["--dry-run", "--update"],
            &["--dry-run", "--resume"],
        ] {
            let mut args = vec![
                "tournament",
                changed.to_str().unwrap(),
                "--out",
                out_arg,
                "--no-report",
            ];
            args.extend_from_slice(flags);
            let run = referee(&args, Duration::from_secs(60))
                .refused_with(&format!("holds a {format} tournament of another file"))
                .stderr_has("restore the file and --resume");
            assert!(
                !run.stderr.contains("add --update"),
                "{format} {flags:?}: {}",
                run.stderr
            );
            assert_eq!(
                std::fs::read(out.join("games.csv")).unwrap(),
                games,
                "{format} {flags:?}: games.csv changed"
            );
        }
        // The file as it was still resumes (nothing left to play).
        referee(
            &[
                "tournament",
                first.to_str().unwrap(),
                "--out",
                out_arg,
                "--no-report",
                "--resume",
            ],
            Duration::from_secs(60),
        )
        .succeeds();
        assert_eq!(
            std::fs::read(out.join("games.csv")).unwrap(),
            games,
            "{format}: resume changed games.csv"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Shards of different splits (1/2 with 2/3) leave games out that neither
/// split holds whole: `merge` names the splits given instead of guessing
/// at an unfinished shard, writes nothing, and with the split completed
/// merges every game once.
#[test]
fn merging_shards_of_different_splits_names_them() {
    let dir = scratch_dir("formats-audit", "splits");
    let file = arrow5_file(&dir, "rr.toml", "round-robin", "", &THREE);
    let key = "5a".repeat(32);
    let shard = |spec: &str| {
        let out = dir.join(format!("shard-{}", spec.replace('/', "-")));
        played(&file, &out, &["--shard", spec, "--key", &key]).succeeds();
        out.to_str().unwrap().to_string()
    };
    let (one_of_two, two_of_three) = (shard("1/2"), shard("2/3"));
    let merged = dir.join("merged");
    let merged_arg = merged.to_str().unwrap();
    referee(
        &["merge", "--out", merged_arg, &one_of_two, &two_of_three],
        Duration::from_secs(60),
    )
    .refused_with("shards of different splits given (1/2, 2/3)");
    assert!(
        !merged.exists(),
        "a refused merge wrote {}",
        merged.display()
    );

    let two_of_two = shard("2/2");
    referee(
        &[
            "merge",
            "--out",
            merged_arg,
            &one_of_two,
            &two_of_three,
            &two_of_two,
        ],
        Duration::from_secs(60),
    )
    .succeeds();
    // 3 pairings of 2 games, each once.
    assert_eq!(game_results(&merged.join("games.csv")).len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A results folder finishes the shard it began: `--resume` with another
/// `--shard` (or none, or a shard of a whole run's folder) is refused
/// (exit 2, naming the folder's shard and the flag to give) and leaves
/// its games as they were, instead of setting them aside from
/// `games.csv` and leaving shards that no longer merge.
#[test]
fn resuming_a_folder_as_another_shard_is_refused() {
    let dir = scratch_dir("formats-audit", "reshard");
    let file = arrow5_file(&dir, "rr.toml", "round-robin", "", &THREE);
    let run = |out: &std::path::Path, extra: &[&str]| played(&file, out, extra);
    let shard = dir.join("shard");
    run(&shard, &["--shard", "1/2"]).succeeds();
    let games = std::fs::read(shard.join("games.csv")).unwrap();
    for (flags, said) in [
        (&["--shard", "1/3"][..], "not shard 1/3"),
        (&["--shard", "2/2"], "not shard 2/2"),
        (&[], "not the whole tournament (no --shard)"),
    ] {
        let mut args = vec!["--resume"];
        args.extend_from_slice(flags);
        run(&shard, &args)
            .refused_with("holds shard 1/2 of this tournament")
            .stderr_has(said)
            .stderr_has("resume it with --shard 1/2");
        assert_eq!(
            std::fs::read(shard.join("games.csv")).unwrap(),
            games,
            "{flags:?}: games.csv changed"
        );
    }
    // A dry run says the same.
    run(&shard, &["--resume", "--dry-run", "--shard", "1/3"])
        .refused_with("holds shard 1/2 of this tournament, not shard 1/3");
    run(&shard, &["--resume", "--shard", "1/2"]).succeeds();
    assert_eq!(std::fs::read(shard.join("games.csv")).unwrap(), games);

    let whole = dir.join("whole");
    run(&whole, &[]).succeeds();
    run(&whole, &["--resume", "--shard", "1/2"])
        .refused_with("holds the whole tournament, not shard 1/2")
        .stderr_has("resume it with no --shard");
    assert_eq!(game_results(&whole.join("games.csv")).len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}
