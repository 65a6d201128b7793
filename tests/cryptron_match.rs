//! `referee match cryptron` end to end: the C and Python starters play a
//! whole game whose scores an independent script recomputes from the
//! transcript, and each misbehaving fixture gets its verdict.

use std::process::Command;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// The record at the end of a transcript file.
fn transcript_record(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("read the transcript");
    let last = text.lines().last().expect("a non-empty transcript");
    let entry: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(entry["type"], "result", "{last}");
    entry["record"].clone()
}

#[test]
fn c_starter_against_python_starter_matches_an_independent_replay() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("game.jsonl");
    let run = referee(
        &[
            "match",
            "cryptron",
            &sample_file("c/cryptron_starter.c"),
            &sample_file("python/cryptron_starter.py"),
            "--transcript",
            transcript.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let record = transcript_record(&transcript);
    for p in record["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok", "{p}");
    }
    let reason = record["reason"].as_str().unwrap();
    assert!(["all-passed", "no-moves"].contains(&reason), "{reason}");
    // The referee's points, from the last line of the account.
    let account: Vec<&str> = record["account"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let points_line = account
        .iter()
        .rev()
        .find(|l| l.starts_with("points A "))
        .expect("a points line");
    let words: Vec<&str> = points_line.split_whitespace().collect();
    let (a, b): (u64, u64) = (words[2].parse().unwrap(), words[4].parse().unwrap());

    let check = Command::new("python3")
        .arg(root().join("tests").join("cryptron_check.py"))
        .arg(&transcript)
        .output()
        .expect("run python3 tests/cryptron_check.py");
    assert!(
        check.status.success(),
        "the independent check refused the game:\n{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let checked: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(checked["points"]["a"], a, "{checked}");
    assert_eq!(checked["points"]["b"], b, "{checked}");
    assert_eq!(checked["winner"], record["winner"], "{checked}");
    assert_eq!(checked["end"], reason, "{checked}");
    let turns = record["players"][0]["attacks"].as_u64().unwrap()
        + record["players"][1]["attacks"].as_u64().unwrap();
    assert_eq!(checked["turns"], turns);

    // The replay draws the board after every turn, and the final board once
    // more in the account.
    let replay = referee(&["replay", transcript.to_str().unwrap()], BUDGET);
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    assert_eq!(
        replay.stdout.matches("A row |").count() as u64,
        turns + 1,
        "{}",
        replay.stdout
    );
    assert!(replay.stdout.contains("A base"));
}

/// Each fixture against the random bot: (bot, expected verdict, a piece of
/// the disqualification detail).
const FIXTURES: &[(&str, &str, &str)] = &[
    ("hostile/cryptron_illegal.c", "illegal", "first attack"),
    (
        "hostile/cryptron_nocompile.c",
        "compile",
        "does not compile",
    ),
    ("hostile/cryptron_sleep.c", "timeout", "no reply within 2s"),
    ("hostile/cryptron_hog.c", "memory", "resident memory"),
    ("python/cryptron_slow.py", "ok", ""),
];

#[test]
fn fixtures_get_their_verdicts() {
    let random = format!("{} 5", sample_bin("cryptron_random"));
    for &(bot, verdict, detail) in FIXTURES {
        for seat in [0, 1] {
            // The slow bot plays one side only: it spends 9 s sleeping.
            if verdict == "ok" && seat == 1 {
                continue;
            }
            let fixture = sample_file(bot);
            let (a, b) = if seat == 0 {
                (fixture.as_str(), random.as_str())
            } else {
                (random.as_str(), fixture.as_str())
            };
            let run = referee(&["match", "cryptron", a, b, "--json"], BUDGET);
            assert_eq!(run.status, 0, "{bot}: {}", run.stderr);
            let v = run.json();
            let p = &v["players"][seat];
            assert_eq!(p["verdict"], verdict, "{bot} as seat {seat}: {v}");
            assert_eq!(v["players"][1 - seat]["verdict"], "ok", "{v}");
            if verdict == "ok" {
                assert!(p["time_max_ms"].as_f64().unwrap() > 2000.0, "{v}");
                assert!(["all-passed", "no-moves"].contains(&v["reason"].as_str().unwrap()));
            } else {
                let winner = if seat == 0 { "b" } else { "a" };
                assert_eq!(v["winner"], winner, "{v}");
                let text = p["disqualification"]["detail"].as_str().unwrap();
                assert!(text.contains(detail), "{bot}: {text}");
            }
            // Nothing of the fixture is left running.
            let stem = bot.rsplit('/').next().unwrap().split('.').next().unwrap();
            let left = processes_with(stem);
            assert!(left.is_empty(), "{bot} left processes: {left:?}");
            if verdict == "compile" {
                // The compiler's message is in the log.
                let tail = p["stderr_tail"].to_string();
                assert!(tail.contains("error"), "{tail}");
            }
        }
    }
}

#[test]
fn a_source_of_a_megabyte_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.c");
    let mut text = String::from("int main(void) { return 0; }\n");
    text.push_str(&"/* padding */\n".repeat(80_000));
    std::fs::write(&big, text).unwrap();
    let random = sample_bin("cryptron_random");
    let run = referee(
        &["match", "cryptron", big.to_str().unwrap(), &random],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("1 MiB"), "{}", run.stderr);
}

#[test]
fn strong_beats_random() {
    let strong = format!("{} 50", sample_bin("cryptron_strong"));
    let random = format!("{} 9", sample_bin("cryptron_random"));
    let run = referee(&["match", "cryptron", &strong, &random, "--json"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["winner"], "a", "{v}");
}

#[test]
fn cpp_starter_plays_to_the_end() {
    let run = referee(
        &[
            "match",
            "cryptron",
            &sample_file("cpp/cryptron_starter.cpp"),
            &sample_file("c/cryptron_starter.c"),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    for p in v["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok", "{v}");
    }
}

/// One `--time-limit` for a Python and a C bot (whose own times per move
/// differ in Cryptron) gives both one start-up too, so the replay command
/// carries the limits: it left them out (the start-ups differed, raised
/// from each language's time), and the replay played with each language's
/// time per move instead of the one given.
#[test]
fn one_time_limit_for_bots_of_two_languages_is_in_the_replay_command() {
    let run = referee(
        &[
            "match",
            "cryptron",
            &sample_file("python/cryptron_starter.py"),
            &sample_file("c/cryptron_starter.c"),
            "--time-limit",
            "3s",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let replay = run.json()["replay"].as_str().unwrap().to_string();
    assert!(
        replay.contains("--time-limit 3s --startup-limit 5s"),
        "{replay}"
    );
    // The same time in a tournament file's `[limits]`: each game's
    // replay command (in its transcript) carries it.
    let dir = tempfile::tempdir().unwrap();
    let (python, c) = (
        sample_file("python/cryptron_starter.py"),
        sample_file("c/cryptron_starter.c"),
    );
    let file = two_bot_tournament(
        dir.path(),
        "cryptron",
        2,
        [("py", &python), ("c", &c)],
        "[limits]\ntime_limit = \"3s\"",
    );
    let out = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    for game in ["game-000001.jsonl", "game-000002.jsonl"] {
        let transcript = std::fs::read_to_string(out.join("transcripts").join(game)).unwrap();
        assert!(
            transcript.contains("--time-limit 3s --startup-limit 5s"),
            "{game}: {transcript}"
        );
    }
}
