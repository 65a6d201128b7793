//! `referee bench`: solo games against every secret or a seeded sample,
//! with the real sample solvers. The figures checked are the published ones
//! (Knuth 1976: 5,801 attacks over the 1,296 secrets of 4 pegs, 6 colours).

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);

/// The columns of the CSV the tests read.
#[derive(Debug, Deserialize)]
struct Row {
    secret_index: u64,
    secret: String,
    attacks: u32,
    cracked: bool,
    verdict: String,
    reason: String,
    bot_seed: u64,
    time_max_ms: f64,
}

fn rows(path: &Path) -> Vec<Row> {
    let mut reader = csv::Reader::from_path(path).expect("the CSV exists");
    let mut rows: Vec<Row> = reader
        .deserialize()
        .map(|r| r.expect("a well-formed row"))
        .collect();
    rows.sort_by_key(|r| r.secret_index);
    rows
}

fn path_arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn knuth_over_every_secret_gives_the_published_figures() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("knuth.csv");
    let knuth = sample_bin("mastermind_knuth");
    let run = referee(
        &[
            "bench",
            "mastermind",
            &knuth,
            "--all",
            "--csv",
            &path_arg(&csv),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Attacks: average 4.476, largest 5, 5801 in all"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Cracked: 1296 of 1296 games"));
    assert!(run.stdout.contains("Failures: none"));
    let rows = rows(&csv);
    assert_eq!(rows.len(), 1296);
    let indices: Vec<u64> = rows.iter().map(|r| r.secret_index).collect();
    assert_eq!(indices, (0..1296).collect::<Vec<_>>());
    assert_eq!(rows.iter().map(|r| u64::from(r.attacks)).sum::<u64>(), 5801);
    assert_eq!(rows.iter().map(|r| r.attacks).max(), Some(5));
    assert!(rows
        .iter()
        .all(|r| r.cracked && r.verdict == "ok" && r.reason == "cracked"));
    assert!(rows.iter().all(|r| r.time_max_ms > 0.0));
    // The rules' numbering: code 51 is 0123.
    assert_eq!(rows[51].secret, "0 1 2 3");
    // Knuth's histogram: 1, 6, 62, 533, 694 secrets in 1 to 5 attacks.
    let count = |n| rows.iter().filter(|r| r.attacks == n).count();
    assert_eq!(
        [count(1), count(2), count(3), count(4), count(5)],
        [1, 6, 62, 533, 694]
    );
}

#[test]
fn the_strong_solver_beats_knuth() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("strong.csv");
    let strong = sample_bin("mastermind_strong");
    let run = referee(
        &[
            "bench",
            "mastermind",
            &strong,
            "--all",
            "--csv",
            &path_arg(&csv),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let rows = rows(&csv);
    assert_eq!(rows.len(), 1296);
    assert!(rows.iter().all(|r| r.cracked));
    let total: u64 = rows.iter().map(|r| u64::from(r.attacks)).sum();
    assert!(total < 5801, "{total} attacks: no better than Knuth");
}

/// Total attacks of `bot` over every secret of a Mastermind size.
fn mastermind_total(bot: &str, pegs: u8, colours: u8) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bench.csv");
    let run = referee(
        &[
            "bench",
            "mastermind",
            &sample_bin(bot),
            "--all",
            "--pegs",
            &pegs.to_string(),
            "--colours",
            &colours.to_string(),
            "--csv",
            &path_arg(&csv),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let rows = rows(&csv);
    assert_eq!(rows.len(), usize::from(colours).pow(u32::from(pegs)));
    assert!(
        rows.iter().all(|r| r.cracked),
        "{bot} at {pegs} x {colours}"
    );
    rows.iter().map(|r| u64::from(r.attacks)).sum()
}

/// Away from 4 x 6 the strong solver's "most parts" rule was worse than
/// Knuth's, and than a random consistent code, at 5 pegs and 2 colours
/// (106 attacks against 97). Up to 256 codes it now searches exactly.
#[test]
fn the_strong_solver_is_no_worse_than_knuth_at_small_sizes() {
    for (pegs, colours, optimum) in [
        (4, 2, 44),
        (5, 2, 97),
        (6, 2, 224),
        (3, 4, 206),
        (4, 3, 246),
    ] {
        let strong = mastermind_total("mastermind_strong", pegs, colours);
        let knuth = mastermind_total("mastermind_knuth", pegs, colours);
        assert!(
            strong <= knuth,
            "{pegs} x {colours}: strong {strong}, knuth {knuth}"
        );
        assert_eq!(strong, optimum, "{pegs} x {colours}");
    }
}

#[test]
fn an_arrow5_sample_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let strong = sample_bin("arrow5_strong");
    let mut runs = vec![];
    for (name, jobs) in [("a.csv", "2"), ("b.csv", "1")] {
        let csv = dir.path().join(name);
        let run = referee(
            &[
                "bench",
                "arrow5",
                &strong,
                "--samples",
                "12",
                "--seed",
                "5",
                // The secrets are drawn with the key: the same key, the
                // same sample.
                "--key",
                "1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f",
                "--jobs",
                jobs,
                "--csv",
                &path_arg(&csv),
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        assert!(run.stdout.contains("12 of 55440 secrets"), "{}", run.stdout);
        assert!(
            run.stdout.contains("Cracked: 12 of 12 games"),
            "{}",
            run.stdout
        );
        runs.push(rows(&csv));
    }
    let distinct: BTreeSet<u64> = runs[0].iter().map(|r| r.secret_index).collect();
    assert_eq!(distinct.len(), 12);
    assert!(distinct.iter().all(|&i| i < 55_440));
    // Same seed, same secrets, same bot seeds, same games, whatever the jobs.
    let key = |rows: &Vec<Row>| -> Vec<(u64, String, u32, u64)> {
        rows.iter()
            .map(|r| (r.secret_index, r.secret.clone(), r.attacks, r.bot_seed))
            .collect()
    };
    assert_eq!(key(&runs[0]), key(&runs[1]));
}

#[test]
fn secrets_not_cracked_within_the_cap_are_failures() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("capped.csv");
    let knuth = sample_bin("mastermind_knuth");
    let run = referee(
        &[
            "bench",
            "mastermind",
            &knuth,
            "--samples",
            "30",
            "--max-attacks",
            "3",
            "--csv",
            &path_arg(&csv),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let rows = rows(&csv);
    let failed: Vec<&Row> = rows.iter().filter(|r| !r.cracked).collect();
    assert!(!failed.is_empty());
    for r in &failed {
        assert_eq!(r.reason, "attack-cap");
        assert_eq!(r.attacks, 3);
        assert!(
            run.stdout.contains(&format!(
                "secret {} [{}]  attack-cap after 3 attacks",
                r.secret_index, r.secret
            )),
            "{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains(&format!("Failures: {}", failed.len())));
}

#[test]
fn a_bot_with_a_verdict_is_a_failure_with_its_detail() {
    // An Arrow 5 bot answers with five symbols: a protocol fault here.
    let wrong = sample_bin("arrow5_random");
    let run = referee(
        &[
            "bench",
            "mastermind",
            &wrong,
            "--samples",
            "2",
            "--seed",
            "9",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Cracked: 0 of 2 games"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("disqualified after 0 attacks (protocol)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("expected 4 symbols"), "{}", run.stdout);
}

#[test]
fn one_secret_runs_one_bot_process_in_the_solo_role() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("one.jsonl");
    // A copy under a name of its own, to look for leftover processes.
    let knuth = dir.path().join("solo_knuth_copy");
    std::fs::copy(sample_bin("mastermind_knuth"), &knuth).unwrap();
    let knuth = path_arg(&knuth);
    let run = referee(
        &[
            "bench",
            "mastermind",
            &knuth,
            "--secret",
            "51",
            "--seed",
            "4",
            "--transcript",
            &path_arg(&transcript),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("secret: 0 1 2 3"), "{}", run.stdout);
    assert!(
        run.stdout.contains("--secret 51 --seed 4"),
        "the replay line names the secret: {}",
        run.stdout
    );
    let text = std::fs::read_to_string(&transcript).unwrap();
    let messages: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "message")
        .collect();
    assert!(messages.iter().all(|m| m["bot"] == "a"), "{text}");
    let to_bot: Vec<&str> = messages
        .iter()
        .filter(|m| m["dir"] == "to")
        .map(|m| m["line"].as_str().unwrap())
        .collect();
    assert!(
        to_bot[0].starts_with("mastermind 4 6 solo 12 "),
        "{to_bot:?}"
    );
    assert!(!to_bot.contains(&"code"));
    assert!(to_bot.contains(&"attack"));
    assert_eq!(to_bot.last().copied(), Some("end win cracked"));
    assert_eq!(processes_with(&knuth), Vec::<String>::new());

    // The replay names the referee's seat for what it is.
    let replay = referee(&["replay", &path_arg(&transcript)], BUDGET);
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    assert!(
        replay
            .stdout
            .contains("\n  B: the referee (holds the secret)\n"),
        "{}",
        replay.stdout
    );
    assert!(!replay.stdout.contains("[]"), "{}", replay.stdout);
}

#[test]
fn bad_bench_input_exits_2_with_a_message() {
    let knuth = sample_bin("mastermind_knuth");
    let cases: [(&[&str], &str); 8] = [
        (&["bench", "chess", &knuth, "--all"], "unknown game"),
        (
            &["bench", "mastermnd", &knuth, "--all"],
            "did you mean 'mastermind'",
        ),
        (&["bench", "mastermind"], "required"),
        (&["bench", "mastermind", &knuth], "--all"),
        (
            &["bench", "mastermind", &knuth, "--samples", "0"],
            "at least 1",
        ),
        (
            &["bench", "mastermind", &knuth, "--all", "--samples", "5"],
            "cannot be used with",
        ),
        (
            &["bench", "mastermind", &knuth, "--samples", "2000"],
            "use --all",
        ),
        (
            &["bench", "mastermind", &knuth, "--all", "--codes", "random"],
            "does not apply to bench",
        ),
    ];
    for (args, expected) in cases {
        let run = referee(args, Duration::from_secs(30));
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
}

/// Issue 19: the CSV's secret column held a sentence for Safe Cracker ("the
/// secret: 2-2-2 (held by the referee)"). Each game's secret is written as
/// the wire spells a code.
#[test]
fn the_secret_column_holds_the_code_as_the_wire_spells_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("safecracker", "safecracker_optimal", "5", "1-2-3"),
        ("mastermind", "mastermind_knuth", "51", "0 1 2 3"),
        ("arrow5", "arrow5_strong", "55439", "E 9 8 7 6"),
    ];
    for (game, bot, index, secret) in cases {
        let csv = dir.path().join(format!("{game}.csv"));
        let run = referee(
            &[
                "bench",
                game,
                &sample_bin(bot),
                "--secret",
                index,
                "--csv",
                &path_arg(&csv),
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{game}: {}", run.stderr);
        let rows = rows(&csv);
        assert_eq!(rows.len(), 1, "{game}");
        assert_eq!(rows[0].secret, secret, "{game}");
        assert_eq!(rows[0].secret_index.to_string(), index, "{game}");
        assert!(rows[0].cracked, "{game}: {:?}", rows[0]);
    }
}

/// Issue 19: a secret index beyond the game's secrets is one error in every
/// game (it was a panic in one, an assert in another): exit 2, a message.
#[test]
fn a_secret_beyond_the_count_is_refused_in_every_game() {
    let cases = [
        (
            "safecracker",
            "safecracker_optimal",
            "27",
            "safecracker has secrets 0 to 26",
        ),
        (
            "mastermind",
            "mastermind_knuth",
            "1296",
            "mastermind has secrets 0 to 1295",
        ),
        (
            "arrow5",
            "arrow5_strong",
            "55440",
            "arrow5 has secrets 0 to 55439",
        ),
    ];
    for (game, bot, index, expected) in cases {
        let run = referee(
            &["bench", game, &sample_bin(bot), "--secret", index],
            Duration::from_secs(30),
        );
        assert_eq!(run.status, 2, "{game}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("--secret {index} is out of range: {expected}")),
            "{game}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{game}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{game}: {}", run.stdout);
    }
}

/// Every sample solver plays every size the referee accepts, the smallest
/// and the largest, without a verdict (no time-out, no memory verdict, no
/// crash): a cap reached is a loss, not a fault.
#[test]
fn sample_solvers_play_every_size_without_a_verdict() {
    let sizes: [(&str, &[&str], &[&str]); 6] = [
        (
            "mastermind",
            &["mastermind_knuth", "mastermind_random", "mastermind_strong"],
            &["--pegs", "1", "--colours", "2"],
        ),
        (
            "mastermind",
            &["mastermind_knuth", "mastermind_random", "mastermind_strong"],
            &["--pegs", "12", "--colours", "36"],
        ),
        (
            "mastermind",
            &["mastermind_knuth", "mastermind_random", "mastermind_strong"],
            &["--pegs", "8", "--colours", "10"],
        ),
        (
            "safecracker",
            &["safecracker_optimal", "safecracker_random"],
            &["--length", "1", "--digits", "2"],
        ),
        (
            "safecracker",
            &["safecracker_optimal", "safecracker_random"],
            &["--length", "10", "--digits", "9"],
        ),
        (
            "safecracker",
            &["safecracker_optimal", "safecracker_random"],
            &["--length", "2", "--digits", "9"],
        ),
    ];
    for (game, bots, flags) in sizes {
        for bot in bots {
            let bin = sample_bin(bot);
            let mut args = vec!["bench", game, &bin, "--samples", "2", "--jobs", "2"];
            args.extend(flags);
            let run = referee(&args, Duration::from_secs(120));
            assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
            assert!(
                !run.stdout.contains("disqualified"),
                "{args:?}: {}",
                run.stdout
            );
        }
    }
}

/// mastermind_strong's book is the optimum over every secret of 4 x 6,
/// through the referee: 5,625 attacks (4.3403 on average), at most 6.
#[test]
fn mastermind_strong_is_optimal_over_every_secret() {
    let bot = sample_bin("mastermind_strong");
    let run = referee(
        &["bench", "mastermind", &bot, "--all", "--jobs", "2"],
        Duration::from_secs(300),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Attacks: average 4.340, largest 6, 5625 in all"),
        "{}",
        run.stdout
    );
}
