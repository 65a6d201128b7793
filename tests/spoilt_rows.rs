//! A `games.csv` row changed by hand in a results folder of games of two:
//! the error names the file and the line, and its advice fits the folder.
//! A round robin keeps every game in its store as well, so the file may be
//! removed and written anew with `--resume`; a Swiss or a knockout has no
//! store, the file is its only record, and is never to be removed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// A tournament of `format` (with `extra` fields) between two Arrow 5
/// sample bots.
fn two_bot_tournament(dir: &Path, format: &str, extra: &str) -> PathBuf {
    let file = dir.join(format!("{format}.toml"));
    std::fs::write(
        &file,
        format!(
            "name = \"{format}\"\ngame = \"arrow5\"\nformat = \"{format}\"\n{extra}\n\
             games_per_pairing = 2\nseed = 3\n\
             [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            sample_bin("arrow5_strong"),
            sample_bin("arrow5_random"),
        ),
    )
    .unwrap();
    file
}

fn tournament(file: &Path, out: &Path, more: &[&str]) -> Run {
    let mut args = vec![
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
        "--no-report",
    ];
    args.extend_from_slice(more);
    referee(&args, BUDGET)
}

/// Plays `file` into `out`, then appends a row that does not read to its
/// `games.csv`; returns the file's text before, and the bad row's line.
fn spoilt_folder(file: &Path, out: &Path) -> (String, usize) {
    let run = tournament(file, out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let games_csv = out.join("games.csv");
    let before = std::fs::read_to_string(&games_csv).unwrap();
    let line = before.lines().count() + 1;
    assert!(line > 2, "games were played: {before}");
    std::fs::write(&games_csv, format!("{before}99,not a seed\n")).unwrap();
    (before, line)
}

/// `referee ARGS` refused as bad input, naming `games.csv` and its `line`.
fn refused(args: &[&str], line: usize) -> String {
    let run = referee(args, BUDGET);
    assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
    assert!(
        run.stderr.contains(&format!("games.csv, line {line}")),
        "{args:?}: {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run.stderr
}

#[test]
fn a_swiss_or_knockout_folder_is_never_told_to_remove_its_only_record() {
    let dir = tempfile::tempdir().unwrap();
    for (format, extra) in [("swiss", "rounds = 1"), ("knockout", "")] {
        let file = two_bot_tournament(dir.path(), format, extra);
        let out = dir.path().join(format!("{format}-out"));
        let (_, line) = spoilt_folder(&file, &out);
        assert!(!out.join("store").exists(), "{format} keeps no store");
        let folder = out.to_str().unwrap();
        for args in [
            vec!["watch", folder, "--once"],
            vec!["report", folder],
            vec![
                "tournament",
                file.to_str().unwrap(),
                "--out",
                folder,
                "--resume",
            ],
        ] {
            let stderr = refused(&args, line);
            assert!(
                !stderr.contains("remove") && !stderr.contains("write it anew"),
                "{format} {args:?}: {stderr}"
            );
            assert!(
                stderr.contains("only record"),
                "{format} {args:?}: {stderr}"
            );
        }
        assert!(out.join("games.csv").exists(), "{format}: kept");
    }
}

#[test]
fn a_round_robin_folder_is_told_to_write_its_games_anew_from_its_store() {
    let dir = tempfile::tempdir().unwrap();
    let file = two_bot_tournament(dir.path(), "round-robin", "");
    let out = dir.path().join("out");
    let (before, line) = spoilt_folder(&file, &out);
    assert!(out.join("store").is_dir(), "a round robin keeps a store");
    let folder = out.to_str().unwrap();
    for args in [
        vec!["watch", folder, "--once"],
        vec!["report", folder],
        vec![
            "tournament",
            file.to_str().unwrap(),
            "--out",
            folder,
            "--resume",
        ],
    ] {
        let stderr = refused(&args, line);
        assert!(
            stderr.contains("remove") && stderr.contains("--resume"),
            "{args:?}: {stderr}"
        );
    }
    // The advice holds: the file written anew is the one played.
    std::fs::remove_file(out.join("games.csv")).unwrap();
    let run = tournament(&file, &out, &["--resume"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        before
    );
}
