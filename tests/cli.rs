//! The command line: exit codes, error messages, transcripts and replay.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(30);

#[test]
fn missing_bot_is_an_input_error_that_says_what_to_fix() {
    let good = sample_bin("arrow5_random");
    let run = referee(&["match", "arrow5", &good, "./no/such/bot"], BUDGET);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("./no/such/bot does not exist"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn non_executable_bot_suggests_chmod() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    std::fs::write(&bot, "#!/bin/sh\n").unwrap();
    let good = sample_bin("arrow5_random");
    let run = referee(&["match", "arrow5", &good, bot.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("chmod +x"), "{}", run.stderr);
}

#[test]
fn unknown_game_and_bad_options_are_input_errors() {
    let good = sample_bin("arrow5_random");
    let run = referee(&["match", "arow5", &good, &good], BUDGET);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("did you mean 'arrow5'"),
        "{}",
        run.stderr
    );

    let run = referee(
        &["match", "arrow5", &good, &good, "--variant", "blind"],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("classic, hidden-eye"), "{}", run.stderr);

    let run = referee(
        &["match", "arrow5", &good, &good, "--time-limit", "soon"],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("not a duration"), "{}", run.stderr);
}

#[test]
fn hours_are_a_duration_held_to_the_bounds_of_seconds() {
    // `1h` was "not a duration" while `60m` and `3600s` were taken.
    let good = sample_bin("arrow5_random");
    for limit in ["1h", "60m", "3600s", "3600"] {
        let run = referee(
            &["match", "arrow5", &good, &good, "--time-limit", limit],
            BUDGET,
        );
        assert_eq!(run.status, 0, "--time-limit {limit}: {}", run.stderr);
    }
    let over = |limit: &str| {
        let run = referee(
            &["match", "arrow5", &good, &good, "--time-limit", limit],
            BUDGET,
        );
        assert_eq!(run.status, 2, "--time-limit {limit}: {}", run.stdout);
        run.stderr.replace(limit, "LIMIT")
    };
    let hours = over("2h");
    assert!(
        hours.contains("is too long: a time per move is at most 3600s"),
        "{hours}"
    );
    assert_eq!(hours, over("7200s"));
}

#[test]
fn help_explains_bots_and_exit_codes() {
    let run = referee(&["--help"], BUDGET);
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains("Exit codes"), "{}", run.stdout);
    let run = referee(&["match", "--help"], BUDGET);
    assert_eq!(run.status, 0);
    for flag in [
        "--variant",
        "--codes",
        "--seed",
        "--time-limit",
        "--startup-limit",
        "--memory-limit",
        "--max-rounds",
        "--transcript",
        "--json",
    ] {
        assert!(run.stdout.contains(flag), "match --help lacks {flag}");
    }
}

/// A secret key for games that must be played twice the same way.
const KEY: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

#[test]
fn readable_account_uses_the_rules_glyphs_and_prints_a_replay_command() {
    let strong = sample_bin("arrow5_strong");
    let random = sample_bin("arrow5_random");
    let run = referee(
        &[
            "match", "arrow5", &strong, &random, "--codes", "random", "--seed", "21", "--key", KEY,
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("👁") || run.stdout.contains("·"),
        "{}",
        run.stdout
    );
    let replay = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("Replay: "))
        .expect("a Replay: line");
    assert!(
        replay.contains("--seed 21")
            && replay.contains("--codes random")
            && replay.contains(&format!("--key {KEY}")),
        "{replay}"
    );

    // The replay command plays the same game (the sample bots are deterministic).
    let words = shell_words::split(replay).unwrap();
    let args: Vec<&str> = words[1..]
        .iter()
        .map(String::as_str)
        .chain(["--json"])
        .collect();
    let again = referee(&args, BUDGET).json();
    let first = referee(
        &[
            "match", "arrow5", &strong, &random, "--codes", "random", "--seed", "21", "--key", KEY,
            "--json",
        ],
        BUDGET,
    )
    .json();
    assert_eq!(again["winner"], first["winner"]);
    assert_eq!(
        again["players"][0]["attacks"],
        first["players"][0]["attacks"]
    );
    assert_eq!(
        again["players"][1]["attacks"],
        first["players"][1]["attacks"]
    );
}

#[test]
fn transcript_has_every_message_and_replay_renders_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.jsonl");
    let crasher = sample_file("hostile/crasher.py");
    let random = sample_bin("arrow5_random");
    let run = referee(
        &[
            "match",
            "arrow5",
            &random,
            &crasher,
            "--seed",
            "4",
            "--transcript",
            path.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&path).unwrap();
    let entries: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries[0]["type"], "header");
    assert_eq!(entries.last().unwrap()["type"], "result");
    let messages: Vec<&serde_json::Value> =
        entries.iter().filter(|e| e["type"] == "message").collect();
    assert!(messages
        .iter()
        .any(|m| m["dir"] == "to" && m["line"] == "attack"));
    assert!(messages
        .iter()
        .any(|m| m["dir"] == "from" && m["bot"] == "a"));
    assert!(messages
        .iter()
        .any(|m| m["dir"] == "stderr" && m["bot"] == "b"));
    let times: Vec<u64> = messages
        .iter()
        .map(|m| m["t_us"].as_u64().unwrap())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "timestamps go forward: {times:?}"
    );

    let replay = referee(&["replay", path.to_str().unwrap()], BUDGET);
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    assert!(
        replay.stdout.contains("[stderr]: about to fail"),
        "{}",
        replay.stdout
    );
    assert!(
        replay.stdout.contains("<- A arrow5_random: attack"),
        "{}",
        replay.stdout
    );
    assert!(
        replay.stdout.contains("disqualified (crash)"),
        "{}",
        replay.stdout
    );
}

#[test]
fn replay_of_a_broken_file_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    std::fs::write(&path, "{\"type\":\"header\"}\nnot json\n").unwrap();
    let run = referee(&["replay", path.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("line 1") || run.stderr.contains("line 2"),
        "{}",
        run.stderr
    );
    let run = referee(&["replay", "/no/such/file.jsonl"], BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
}

/// The bots' secret codes are in the transcript, so nothing of it reaches
/// the disk before the game is over (a bot of the same user could read it).
#[test]
fn transcript_reaches_the_disk_only_when_the_game_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.jsonl");
    let tag = format!("transcript-test-{}", std::process::id());
    let sleeper = format!("python3 {} {tag}", sample_file("hostile/sleeper.py"));
    let random = sample_bin("arrow5_random");
    let mut child = std::process::Command::new(referee_bin())
        .args(["match", "arrow5", &random, &sleeper, "--time-limit", "3s"])
        .args(["--transcript", path.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Looked at all game long (the sleeper sleeps through 3 s of it), until
    // the referee exits. A look counts when the sleeper still runs after
    // the file was read: the game was not over yet.
    let start = std::time::Instant::now();
    let mut looks = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let during = std::fs::read_to_string(&path).unwrap_or_default();
        if !processes_with(&tag).is_empty() {
            assert_eq!(during, "", "nothing on disk during the game");
            looks += 1;
        }
        assert!(start.elapsed() < BUDGET, "the game did not end");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success());
    assert!(looks > 0, "the sleeper was never seen playing");
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("\"line\":\"0 1 2 3 4\""),
        "the codes are there after: {after}"
    );
}

/// A reader that goes away (`referee match ... | head -1`) ends the
/// referee quietly with 141, as a program ended by SIGPIPE: no panic, no
/// message of a failure that is not the referee's.
#[test]
fn a_closed_stdout_ends_the_referee_quietly() {
    let random = sample_bin("arrow5_random");
    let mut child = Referee::new()
        .args(["match", "arrow5", &random, &random])
        .command()
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before the game's account is printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
