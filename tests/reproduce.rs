//! `referee reproduce` through the real binary: a bot disqualified at its
//! third reply in a recorded game, played again with the opponent's moves
//! from the transcript: the same version fails the same way (exit 1), a
//! fixed version gets past that position (exit 0), a version choosing
//! another code is told the game is not the recorded one; a tournament's
//! transcript finds its folder's key; Cryptron says where it diverged.

use std::path::Path;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// The scripted sample bot replying `replies` in order, then "out of
/// replies" (a protocol fault).
fn scripted(replies: &str) -> String {
    format!("python3 {} {replies}", sample_file("python/scripted.py"))
}

/// Records an Arrow 5 game in `dir/game.jsonl` where A breaks at reply 3.
fn recorded_game(dir: &Path) -> Run {
    let run = referee_in(
        dir,
        &[
            "match",
            "arrow5",
            &scripted("01234 56789"),
            &scripted("01234 56789 56789 56789 01234"),
            "--seed",
            "3",
            "--max-rounds",
            "30",
            "--transcript",
            "game.jsonl",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("disqualified (protocol) at reply 3"),
        "{}",
        run.stdout
    );
    run
}

#[test]
fn a_fixed_bot_gets_past_the_recorded_crash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    recorded_game(dir);
    // The same version: the same fault at the same reply.
    let same = referee_in(
        dir,
        &["reproduce", "game.jsonl", "--bot", &scripted("01234 56789")],
        BUDGET,
    );
    assert_eq!(same.status, 1, "{}\n{}", same.stdout, same.stderr);
    assert!(
        same.stdout
            .contains("Now:      seat A (scripted) protocol at reply 3"),
        "{}",
        same.stdout
    );
    assert!(same
        .stdout
        .contains("exact: the new bot replied as recorded"));
    // The fixed version answers the third request, and is not judged.
    let fixed = referee_in(
        dir,
        &[
            "reproduce",
            "game.jsonl",
            "--bot",
            &scripted("01234 56789 56789 01234"),
            "--save",
            "again.jsonl",
        ],
        BUDGET,
    );
    assert_eq!(fixed.status, 0, "{}\n{}", fixed.stdout, fixed.stderr);
    assert!(
        fixed.stdout.contains("not disqualified, 3 replies"),
        "{}",
        fixed.stdout
    );
    assert!(fixed.stdout.contains("exact: the opponent's attacks"));
    // No opponent process: the recorded seat used no CPU, and the saved
    // transcript holds the opponent's recorded replies.
    let again = std::fs::read_to_string(dir.join("again.jsonl")).unwrap();
    let from_b = again
        .lines()
        .filter(|l| l.contains(r#""bot":"b","dir":"from""#))
        .count();
    assert_eq!(from_b, 2, "{again}");
    // Another code: said to be another game.
    let other = referee_in(
        dir,
        &[
            "reproduce",
            "game.jsonl",
            "--bot",
            &scripted("43210 56789 56789 01234"),
        ],
        BUDGET,
    );
    assert_eq!(other.status, 0, "{}", other.stderr);
    assert!(
        other
            .stdout
            .contains("not the recorded game: the new bot chose another code"),
        "{}",
        other.stdout
    );
    // Another key: the referee tells the bot another set-up.
    let key = "7a".repeat(32);
    let fixed = scripted("01234 56789 56789 01234");
    let args = ["reproduce", "game.jsonl", "--bot", &fixed, "--key", &key];
    let wrong_key = referee_in(dir, &args, BUDGET);
    assert!(
        wrong_key
            .stdout
            .contains("the new bot was told another set-up")
            && !wrong_key.stdout.contains("exact"),
        "{}",
        wrong_key.stdout
    );
}

#[test]
fn reproduce_refuses_what_it_cannot_play_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    recorded_game(dir);
    let bot = scripted("01234");
    for (args, expected) in [
        (
            vec!["reproduce", "missing.jsonl", "--bot", &bot],
            "missing.jsonl",
        ),
        (
            vec!["reproduce", "game.jsonl", "--bot", &bot, "--seat", "c"],
            "--seat: 'c' is not a seat",
        ),
        (
            vec!["reproduce", "game.jsonl", "--bot", "./nothing-here"],
            "nothing-here",
        ),
        (
            vec![
                "reproduce",
                "game.jsonl",
                "--bot",
                &bot,
                "--save",
                "./game.jsonl",
            ],
            "that is the recorded transcript",
        ),
    ] {
        let run = referee_in(dir, &args, BUDGET);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    }
    // A transcript cut before its result.
    let text = std::fs::read_to_string(dir.join("game.jsonl")).unwrap();
    let cut: Vec<&str> = text
        .lines()
        .filter(|l| !l.contains(r#""type":"result""#))
        .collect();
    std::fs::write(dir.join("cut.jsonl"), cut.join("\n") + "\n").unwrap();
    let run = referee_in(dir, &["reproduce", "cut.jsonl", "--bot", &bot], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no result line"), "{}", run.stderr);
}

#[test]
fn a_tournament_game_is_reproduced_with_its_folders_key() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = two_bot_tournament(
        dir,
        "arrow5",
        2,
        [
            ("broken", &scripted("56789")),
            ("steady", &scripted("01234 56789 56789 56789 01234")),
        ],
        "[options]\nmax_rounds = 30\ncodes = \"random\"\n",
    );
    let run = referee_in(
        dir,
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            "out",
            "--no-report",
            "--jobs",
            "1",
            "--key",
            &"7a".repeat(32),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    // From another folder: the replay command's key file (out/referee.key)
    // is not there, the folder's is found beside transcripts/.
    let elsewhere = tempfile::tempdir().unwrap();
    let transcript = dir.join("out/transcripts/game-000001.jsonl");
    let fixed = referee_in(
        elsewhere.path(),
        &[
            "reproduce",
            transcript.to_str().unwrap(),
            "--bot",
            // Random codes: the bot only attacks.
            &scripted(&["56789"; 10].join(" ")),
        ],
        BUDGET,
    );
    assert!(
        fixed.status == 0 && fixed.stdout.contains("Recorded: seat"),
        "{}\n{}",
        fixed.stdout,
        fixed.stderr
    );
    assert!(
        fixed.stdout.contains("referee.key")
            && fixed
                .stdout
                // The recorded seat by its tournament name, not its program's.
                .contains("Recorded: seat A (broken) protocol at reply 2"),
        "the reproduce command names the key it used: {}",
        fixed.stdout
    );
}

#[test]
fn cryptron_says_where_the_new_bot_left_the_recorded_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let random = |seed: u32| format!("{} {seed}", sample_bin("cryptron_random"));
    let run = referee_in(
        dir,
        &[
            "match",
            "cryptron",
            &random(5),
            &random(9),
            "--seed",
            "4",
            "--transcript",
            "c.jsonl",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    // The same bot (its moves come from its own seed): the recorded game.
    let same = referee_in(
        dir,
        &["reproduce", "c.jsonl", "--bot", &random(5), "--seat", "a"],
        BUDGET,
    );
    assert_eq!(same.status, 0, "{}\n{}", same.stdout, same.stderr);
    assert!(
        same.stdout
            .contains("exact: the new bot replied as recorded"),
        "{}",
        same.stdout
    );
    assert!(
        !same.stdout.contains("record-ended"),
        "the whole game was played: {}",
        same.stdout
    );
    // Another seed moves otherwise: where it diverged is said.
    let other = referee_in(
        dir,
        &["reproduce", "c.jsonl", "--bot", &random(6), "--seat", "a"],
        BUDGET,
    );
    assert_eq!(other.status, 0, "{}\n{}", other.stdout, other.stderr);
    assert!(
        other.stdout.contains("diverged at the new bot's reply"),
        "{}",
        other.stdout
    );
}

/// The transcript `from` in `dir`, its result's record changed by `change`,
/// written to `to`.
fn with_record(dir: &Path, from: &str, to: &str, change: impl Fn(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(dir.join(from)).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let mut entry: serde_json::Value = serde_json::from_str(line).unwrap();
        if entry["type"] == "result" {
            change(&mut entry["record"]);
        }
        out.push_str(&entry.to_string());
        out.push('\n');
    }
    std::fs::write(dir.join(to), out).unwrap();
}

#[test]
fn the_recorded_plan_is_read_and_old_transcripts_still_reproduce() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    recorded_game(dir);
    let text = std::fs::read_to_string(dir.join("game.jsonl")).unwrap();
    let result: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let plan = &result["record"]["plan"];
    assert_eq!(plan["command"], "match", "{plan}");
    assert_eq!(plan["config"]["game"], "arrow5", "{plan}");
    assert_eq!(plan["config"]["max_rounds"], 30, "{plan}");
    assert_eq!(plan["seed"], 3, "{plan}");
    assert!(plan["key"]["hex"].is_string(), "{plan}");
    assert_eq!(plan["specs"][1], scripted("01234 56789 56789 56789 01234"));
    let same = scripted("01234 56789");
    let reproduce = |file: &str| referee_in(dir, &["reproduce", file, "--bot", &same], BUDGET);
    let expect_same_fault = |run: &Run, what: &str| {
        assert_eq!(run.status, 1, "{what}: {}\n{}", run.stdout, run.stderr);
        assert!(
            run.stdout
                .contains("Now:      seat A (scripted) protocol at reply 3")
                && run
                    .stdout
                    .contains("exact: the new bot replied as recorded"),
            "{what}: {}",
            run.stdout
        );
    };
    // The plan, not the command: a command no parser takes changes nothing.
    with_record(dir, "game.jsonl", "garbled.jsonl", |record| {
        record["replay"] = "referee match 'unclosed".into();
    });
    expect_same_fault(&reproduce("garbled.jsonl"), "garbled command");
    // Another seed in the plan is another game: the bot is told another set-up.
    with_record(dir, "game.jsonl", "reseeded.jsonl", |record| {
        record["plan"]["seed"] = 4.into();
    });
    let reseeded = reproduce("reseeded.jsonl");
    assert!(
        reseeded
            .stdout
            .contains("not the recorded game: the new bot was told another set-up"),
        "{}\n{}",
        reseeded.stdout,
        reseeded.stderr
    );
    // A transcript written before records kept their plan: its command.
    with_record(dir, "game.jsonl", "old.jsonl", |record| {
        record.as_object_mut().unwrap().remove("plan");
    });
    expect_same_fault(&reproduce("old.jsonl"), "no plan");
    // A bench's plan is not a match to reproduce.
    with_record(dir, "game.jsonl", "bench.jsonl", |record| {
        record["plan"]["command"] = "bench".into();
    });
    let bench = reproduce("bench.jsonl");
    assert_eq!(bench.status, 2, "{}", bench.stderr);
    assert!(
        bench.stderr.contains("bench.jsonl: ") && !bench.stderr.contains("panicked"),
        "{}",
        bench.stderr
    );
}
