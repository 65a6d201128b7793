//! `referee match` as a newcomer meets it: a reply that looks right on the
//! terminal but is not is shown as it is; a mistyped `--transcript` does not
//! destroy the bot's source.

use crate::harness::*;

/// A bot that answers with a character that shows as nothing (a byte
/// order mark, a zero-width space) or as a space that is not the space (a
/// no-break space, an ideographic space) loses by `protocol`, and the readable
/// account quotes its reply with that character escaped: the newcomer sees
/// why `0 1 2 3 4` was refused.
#[test]
fn an_invisible_character_in_a_reply_is_shown_escaped() {
    for (mode, escaped, raw) in [
        ("bom", "\\u{feff}0 1 2 3 4", '\u{feff}'),
        ("zwsp", "0 1\\u{200b} 2 3 4", '\u{200b}'),
        ("nbsp", "0\\xa01 2 3 4", '\u{a0}'),
        ("wide", "0 1 2\\u{3000}3 4", '\u{3000}'),
    ] {
        let bot = format!("python3 {} {mode}", sample_file("hostile/invisible.py"));
        let run = Referee::new()
            .args(["match", "arrow5"])
            .bot(&bot)
            .bot(sample_bin("arrow5_random"))
            .args(["--max-rounds", "5", "--seed", "3"])
            .case(mode)
            .run()
            .succeeds()
            .stdout_has("disqualified (protocol) at reply 1")
            .stdout_has(escaped);
        assert!(!run.stdout.contains(raw), "{mode}: {}", run.stdout);
        // The record keeps the exact reply: JSON has its own quoting.
        let record = Referee::new()
            .args(["match", "arrow5"])
            .bot(&bot)
            .bot(sample_bin("arrow5_random"))
            .args(["--max-rounds", "5", "--seed", "3", "--json"])
            .case(mode)
            .run()
            .succeeds()
            .json();
        let detail = record["players"][0]["disqualification"]["detail"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(detail.contains(raw), "{mode}: {detail}");
    }
}

/// `--transcript` (and `reproduce --save`, `bench --csv`) naming a file
/// that is not one the referee wrote, such as the bot's own source, is
/// refused before the game (exit 2, the file named) and the file is left
/// as it was; an earlier transcript (or CSV) is replaced as before.
#[test]
fn a_transcript_never_overwrites_a_file_that_is_not_one() {
    let dir = scratch_dir("match-audit", "overwrite");
    let source = dir.join("my_bot.py");
    std::fs::copy(sample_file("python/arrow5_starter.py"), &source).unwrap();
    let before = std::fs::read(&source).unwrap();
    let game = |transcript: &std::path::Path| {
        Referee::new()
            .args(["match", "arrow5"])
            .bot(&source)
            .bot(sample_bin("arrow5_random"))
            .args(["--max-rounds", "2", "--seed", "3", "--transcript"])
            .arg(transcript)
            .run()
    };
    game(&source)
        .refused_with("cannot write the transcript")
        .stderr_has("my_bot.py")
        .stderr_has("is not a transcript");
    assert_eq!(std::fs::read(&source).unwrap(), before);

    // A transcript is replaced: the same game twice to one file.
    let transcript = dir.join("game.jsonl");
    game(&transcript).succeeds();
    game(&transcript).succeeds();
    referee(
        &["replay", transcript.to_str().unwrap()],
        std::time::Duration::from_secs(30),
    )
    .succeeds()
    .stdout_has("Result:");

    // bench --csv too: refused before any game, the source kept; an
    // earlier bench CSV is replaced.
    let bench = |csv: &std::path::Path| {
        Referee::new()
            .args(["bench", "arrow5"])
            .bot(sample_bin("arrow5_random"))
            .args(["--samples", "2", "--seed", "1", "--csv"])
            .arg(csv)
            .run()
    };
    bench(&source)
        .refused_with("cannot create the CSV file")
        .stderr_has("is not a bench CSV");
    assert_eq!(std::fs::read(&source).unwrap(), before);
    let csv = dir.join("bench.csv");
    bench(&csv).succeeds();
    bench(&csv).succeeds();
    assert_eq!(csv_records(&csv).len(), 2);

    // reproduce --save goes through the same door.
    Referee::new()
        .args(["reproduce"])
        .arg(&transcript)
        .arg("--bot")
        .arg(&source)
        .args(["--seat", "a", "--save"])
        .arg(&source)
        .run()
        .refused_with("is not a transcript");
    assert_eq!(std::fs::read(&source).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Separators before the first symbol or after the last are ignored in
/// every code game, as protocol.md says: the code is the one written, and
/// the attack written the same way is played (the bot ends `ok`).
#[test]
fn separators_around_a_code_are_ignored_in_every_code_game() {
    for (game, reply, shown, options) in [
        (
            "arrow5",
            "-0-1-2-3-4-",
            "A's code: 0 1 2 3 4",
            &["--max-rounds", "1"][..],
        ),
        (
            "mastermind",
            ",0,0,1,1,",
            "A's code: 0 0 1 1",
            &["--max-attacks", "1"][..],
        ),
        (
            "safecracker",
            "-1-2-3-",
            "A's code: 1-2-3",
            &["--attempts", "1", "--first", "a"][..],
        ),
    ] {
        // Two arguments: scripted.py splits a single one at its commas.
        let bot = format!(
            "python3 {} '{reply}' '{reply}'",
            sample_file("python/scripted.py")
        );
        let run = Referee::new()
            .args(["match", game])
            .bot(&bot)
            .bot(sample_bin(&format!("{game}_random")))
            .args(options)
            .args(["--seed", "2"])
            .case(game)
            .run()
            .succeeds()
            .stdout_has(shown);
        let a = run.stdout.lines().find(|l| l.starts_with("  A ")).unwrap();
        assert!(a.contains(" ok "), "{game}: {}", run.stdout);
    }
}
