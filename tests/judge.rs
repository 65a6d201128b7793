//! Games served by a judge program (docs/reference.md, "Judges"): `referee
//! match JUDGE BOT BOT` with the fixture judges of tests/judges/, real
//! judge and bot processes through the real binary.

use std::path::PathBuf;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

fn higher() -> String {
    judge_fixture("higher/judge.py")
}

/// The fixture bot that picks `picks` in turn.
fn picker(picks: &str) -> String {
    format!("python3 {} {picks}", judge_fixture("bots/picker.py"))
}

#[test]
fn a_judge_game_plays_to_its_result_with_its_options() {
    let dir = scratch_dir("judge", "plays");
    let transcript = dir.join("game.jsonl");
    let run = referee(
        &[
            "match",
            &higher(),
            &picker("5 4"),
            &picker("3 6"),
            "--option",
            "rounds=2",
            "--seed",
            "4",
            "--transcript",
            transcript.to_str().unwrap(),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["game"], "higher", "{v}");
    assert_eq!(v["variant"], "rounds=2");
    // Round 1: 5 > 3; round 2: 4 < 6; one round each is a draw.
    assert_eq!(v["winner"], "draw", "{v}");
    assert_eq!(v["reason"], "most-rounds");
    for p in v["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok", "{p}");
        assert_eq!(p["attacks"], 2, "the judge's move count: {p}");
        assert_eq!(p["replies"], 2);
    }
    let replay = v["replay"].as_str().unwrap();
    assert!(replay.contains(&higher()), "{replay}");
    let words = shell_words::split(replay).unwrap();
    let at = words
        .iter()
        .position(|w| w == "--option")
        .expect("--option");
    assert_eq!(words[at + 1], "rounds=2", "{replay}");
    // The judge's tells reached each bot, greetings first, and its frames
    // are kept with the game.
    let text = std::fs::read_to_string(&transcript).unwrap();
    let to = |bot: &str| -> Vec<String> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|e| e["type"] == "message" && e["bot"] == bot && e["dir"] == "to")
            .map(|e| e["line"].as_str().unwrap().to_string())
            .collect()
    };
    let a = to("a");
    assert_eq!(a[0], "higher 2 picker", "{a:?}");
    assert!(a.contains(&"round 1 5 3".to_string()), "{a:?}");
    assert!(
        to("b").contains(&"round 2 6 4".to_string()),
        "{:?}",
        to("b")
    );
    let result = text.lines().last().unwrap();
    let record: serde_json::Value = serde_json::from_str(result).unwrap();
    let frames = record["record"]["frames"].as_array().expect("frames kept");
    assert_eq!(frames.len(), 3, "ready and two rounds: {frames:?}");
    assert_eq!(frames[2]["move"], 4, "after both picks of round 2");
    assert_eq!(frames[2]["frame"]["grid"]["cells"][0][1], "6");
    // `referee replay` prints each frame as text after its move: the grid
    // (`.` for an empty cell), the hud, the caption.
    let shown = referee(&["replay", transcript.to_str().unwrap()], BUDGET);
    assert_eq!(shown.status, 0, "{}", shown.stderr);
    let lines: Vec<&str> = shown.stdout.lines().map(str::trim).collect();
    let set_up = lines
        .iter()
        .position(|l| *l == ". .")
        .expect("the set-up's grid");
    assert_eq!(
        lines[set_up + 1..set_up + 3],
        ["A: 0  B: 0", "round 1"],
        "{}",
        shown.stdout
    );
    let round = lines
        .iter()
        .position(|l| *l == "4 6")
        .expect("round 2's grid");
    assert!(
        lines[round - 1].contains("-> B picker: 6"),
        "{}",
        shown.stdout
    );
    assert_eq!(
        lines[round + 1..round + 3],
        ["A: 1  B: 1", "round 2: B wins"]
    );
    // The replay command plays the same game again.
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.push("--json");
    let again = referee(&args, BUDGET);
    assert_eq!(again.status, 0, "{}", again.stderr);
    assert_eq!(again.json()["winner"], "draw");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_judge_judges_a_bots_reply_and_the_referee_keeps_the_verdict() {
    // A picks 5 twice in a row: illegal by the judge's rules.
    let run = referee(
        &["match", &higher(), &picker("5 5"), &picker("3 6"), "--json"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["winner"], "b", "{v}");
    assert_eq!(v["players"][0]["verdict"], "illegal");
    let detail = v["players"][0]["disqualification"]["detail"]
        .as_str()
        .unwrap();
    assert!(detail.contains("picked 5 twice in a row"), "{detail}");
    assert_eq!(v["players"][0]["disqualification"]["at_move"], 2);
    // B answers with something that is not a number: protocol.
    let run = referee(
        &["match", &higher(), &picker("5 4"), &picker("x"), "--json"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["winner"], "a", "{v}");
    assert_eq!(v["players"][1]["verdict"], "protocol");
    let detail = v["players"][1]["disqualification"]["detail"]
        .as_str()
        .unwrap();
    assert!(detail.contains("expected a number 1-9"), "{detail}");
    // A bot that never answers is the referee's to judge, with its clock.
    let run = referee(
        &[
            "match",
            &higher(),
            "python3 -c 'import time; time.sleep(30)'",
            &picker("5 4"),
            "--time-limit",
            "300ms",
            "--startup-limit",
            "2s",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["players"][0]["verdict"], "timeout", "{v}");
    assert_eq!(v["winner"], "b");
}

/// Plays the broken fixture judge with its option `fault`.
fn broken(fault: &str, extra: &[&str]) -> Run {
    let judge = judge_fixture("broken/judge.py");
    let option = format!("fault={fault}");
    let mut args = vec![
        "match",
        judge.as_str(),
        "python3 -c 'import sys\nfor l in sys.stdin: print(1, flush=True)'",
        "python3 -c 'import sys\nfor l in sys.stdin: print(1, flush=True)'",
        "--option",
        option.as_str(),
    ];
    args.extend(extra);
    referee(&args, BUDGET)
}

#[test]
fn a_judge_that_fails_voids_the_game_and_says_how_and_where() {
    let cases: &[(&str, u64, &str)] = &[
        ("crash-at-start", 1, "exited with status 1"),
        (
            "version",
            1,
            "speaks judge protocol 7; this referee speaks 1",
        ),
        ("garbage", 2, "not JSON"),
        ("not-object", 2, "not an object"),
        ("ask-twice", 1, "asks the same player twice"),
        ("bad-player", 1, "player 5, which does not exist"),
        ("line-break", 1, "line break"),
        ("huge-frame", 2, "over the 65536 bytes a frame may have"),
        ("error", 2, "gave up: the board is on fire"),
        ("exit", 2, "exited with status 3"),
        ("both", 2, "both \"ask\" and \"end\""),
        ("neither", 2, "neither \"ask\" nor \"end\""),
        ("two-lines", 2, "wrote a line after its answer"),
    ];
    for (fault, message, what) in cases {
        let run = broken(fault, &[]);
        assert_eq!(run.status, 1, "{fault}: {}{}", run.stdout, run.stderr);
        let expected = format!("failed at its message {message}: ");
        assert!(run.stderr.contains(&expected), "{fault}: {}", run.stderr);
        assert!(run.stderr.contains(what), "{fault}: {}", run.stderr);
        assert!(run.stderr.contains("broken/judge.py"), "{}", run.stderr);
        assert!(run.stderr.contains("void"), "{}", run.stderr);
        // Its stderr is shown: what it said it was doing.
        assert!(
            run.stderr.contains(&format!("broken judge: fault {fault}")),
            "{fault}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    // A judge that does not answer within its time.
    let run = broken("hang", &["--judge-time", "500ms"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("failed at its message 2: did not answer within 500ms"),
        "{}",
        run.stderr
    );
    // A judge over its memory.
    let run = broken("memory", &["--judge-memory", "64MiB"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("failed at its message 2: used"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("resident memory"), "{}", run.stderr);
    // The fixture judge's "fine" answer is a game: the faults are its own.
    let run = broken("fine", &["--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.json()["reason"], "fine");
}

#[test]
fn a_judge_path_that_is_not_there_or_options_that_do_not_fit_are_bad_input() {
    let run = referee(
        &[
            "match",
            "games/nowhere/judge.py",
            &picker("1"),
            &picker("2"),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    assert!(
        run.stderr.contains("games/nowhere/judge.py"),
        "{}",
        run.stderr
    );
    // A file that is not a program.
    let dir = scratch_dir("judge", "not-a-program");
    let text = dir.join("judge.txt");
    std::fs::write(&text, "rules in prose").unwrap();
    let run = referee(
        &["match", text.to_str().unwrap(), &picker("1"), &picker("2")],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("judge '"), "{}", run.stderr);
    // No language runs a `.txt`: it is made executable, or named.
    assert!(
        run.stderr.contains("no language builds or runs .txt files"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("executable (chmod +x)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("bot '"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(dir);
    // A built-in game's flag for a judge, a judge's option for a built-in game.
    let run = referee(
        &[
            "match",
            &higher(),
            &picker("1"),
            &picker("2"),
            "--pegs",
            "5",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--option KEY=VALUE"), "{}", run.stderr);
    let run = referee(
        &[
            "match",
            "mastermind",
            &picker("1"),
            &picker("2"),
            "--option",
            "a=1",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("judge game"), "{}", run.stderr);
    let run = referee(
        &[
            "match",
            &higher(),
            &picker("1"),
            &picker("2"),
            "--option",
            "rounds",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("KEY=VALUE"), "{}", run.stderr);
}

/// A tournament folder with a copy of the flaky fixture judge in `j/`
/// (failing while `j/switch/fail` exists) and three picker bots.
fn flaky_tournament(name: &str) -> Scratch {
    let dir = scratch_dir("judge", name);
    std::fs::create_dir_all(dir.join("j/switch")).unwrap();
    std::fs::copy(judge_fixture("flaky/judge.py"), dir.join("j/judge.py")).unwrap();
    let mut text = String::from(
        "name = \"flaky\"\ngame = \"j/judge.py\"\nformat = \"round-robin\"\n\
         games_per_pairing = 2\nseed = 5\n",
    );
    for (bot, picks) in [("up", "5 6"), ("down", "4 3"), ("low", "2 1")] {
        text.push_str(&format!(
            "[[bots]]\nname = \"{bot}\"\nbot = \"{}\"\n",
            picker(picks)
        ));
    }
    std::fs::write(dir.join("t.toml"), text).unwrap();
    dir
}

#[test]
fn a_tournament_leaves_void_games_out_says_which_and_resume_plays_them() {
    let dir = flaky_tournament("void");
    std::fs::write(dir.join("j/switch/fail"), "").unwrap();
    let run = referee_in(&dir, &["tournament", "t.toml", "--out", "out"], BUDGET);
    // "down" opens with 4: its four games are void, the other two recorded.
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("4 games were void, their judge failed: games "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("gave up: the switch says fail"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--resume"), "{}", run.stderr);
    let games = std::fs::read_to_string(dir.join("out/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 2, "{games}");
    assert!(!games.contains("down"), "{games}");
    // The judge mended (its switch is not part of the game's identity):
    // resume plays the void games, and only them.
    std::fs::remove_file(dir.join("j/switch/fail")).unwrap();
    let run = referee_in(
        &dir,
        &["tournament", "t.toml", "--out", "out", "--resume"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("(4 played now)"), "{}", run.stdout);
    let games = std::fs::read_to_string(dir.join("out/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 6, "{games}");
    let standings = std::fs::read_to_string(dir.join("out/standings.csv")).unwrap();
    assert!(standings.contains("down"), "{standings}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_judge_game_in_a_tournament_file_takes_its_options_and_a_path_relative_to_the_file() {
    let dir = flaky_tournament("options");
    let text = std::fs::read_to_string(dir.join("t.toml")).unwrap();
    // An option of the judge's own, which no built-in game has.
    let text = text.replace(
        "seed = 5\n",
        "seed = 5\njudge_time = \"1500ms\"\n[options]\nboard = \"wide\"\nsize = 3\n\
         code = \"007\"\nfast = \"true\"\ntags = [\"a\", 1]\n",
    );
    std::fs::write(dir.join("t.toml"), text).unwrap();
    let run = referee_in(&dir, &["tournament", "t.toml", "--out", "out"], BUDGET);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("j (board=wide code=007 fast=true size=3 tags=[\"a\",1])"),
        "{}",
        run.stderr
    );
    // The file's judge_time is the judge's: its games' replay commands say it.
    let transcript =
        std::fs::read_to_string(dir.join("out/transcripts/game-000001.jsonl")).unwrap();
    assert!(transcript.contains("--judge-time 1500ms"), "{transcript}");
    // The replay command gives the judge every option with its type: the
    // text "007" and "true" stay text, the array an array.
    let options_of = |transcript: &str| {
        transcript
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find_map(|e| e.pointer("/record/plan/config/options").cloned())
            .expect("the record's options")
    };
    let options = options_of(&transcript);
    assert_eq!(options["code"], "007", "{options}");
    assert_eq!(options["fast"], "true", "{options}");
    assert_eq!(options["tags"], serde_json::json!(["a", 1]), "{options}");
    let replay = transcript
        .lines()
        .find_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            fn find(v: &serde_json::Value) -> Option<String> {
                match v {
                    serde_json::Value::String(s) if s.starts_with("referee match ") => {
                        Some(s.clone())
                    }
                    serde_json::Value::Object(m) => m.values().find_map(find),
                    serde_json::Value::Array(a) => a.iter().find_map(find),
                    _ => None,
                }
            }
            find(&v)
        })
        .expect("a replay command");
    let mut words = shell_words::split(&replay).unwrap();
    words.remove(0);
    words.extend(["--transcript".into(), "again.jsonl".into()]);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let again = referee_in(&dir, &words, BUDGET);
    assert_eq!(again.status, 0, "{replay}: {}", again.stderr);
    let replayed = std::fs::read_to_string(dir.join("again.jsonl")).unwrap();
    assert_eq!(options_of(&replayed), options, "{replay}");
    // A key the command line could not give back is the file's error.
    let text = std::fs::read_to_string(dir.join("t.toml")).unwrap();
    std::fs::write(
        dir.join("key.toml"),
        text.replace("size = 3\n", "size = 3\n\"two\\nlines\" = 1\n"),
    )
    .unwrap();
    let run = referee_in(&dir, &["tournament", "key.toml", "--out", "out4"], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("key.toml"), "{}", run.stderr);
    assert!(run.stderr.contains("a key is letters"), "{}", run.stderr);
    // Said at the options, not at the game.
    let options_line = text.lines().position(|l| l == "[options]").unwrap() + 1;
    assert!(
        run.stderr.contains(&format!("key.toml:{options_line}:")),
        "{}",
        run.stderr
    );
    // What TOML has and JSON has not is refused, not passed on mangled;
    // a key a replay command could not give is refused.
    for (option, said) in [
        ("far = inf", "has no JSON form"),
        ("when = 1979-05-27T07:32:00Z", "a date or time"),
        ("\"-x\" = 1", "a key is letters"),
    ] {
        std::fs::write(
            dir.join("bad_option.toml"),
            text.replace("size = 3\n", &format!("size = 3\n{option}\n")),
        )
        .unwrap();
        let run = referee_in(
            &dir,
            &["tournament", "bad_option.toml", "--out", "out5"],
            BUDGET,
        );
        assert_eq!(run.status, 2, "{option}: {}", run.stderr);
        assert!(run.stderr.contains(said), "{option}: {}", run.stderr);
        assert!(!dir.join("out5").join("games.csv").exists(), "{option}");
    }
    // A judge's limit for a built-in game is a mistake, said where it is.
    std::fs::write(
        dir.join("builtin.toml"),
        "game = \"mastermind\"\njudge_time = \"1s\"\n[[bots]]\nname = \"a\"\nbot = \"/bin/cat\"\n",
    )
    .unwrap();
    let run = referee_in(
        &dir,
        &["tournament", "builtin.toml", "--out", "out3"],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("builtin.toml"), "{}", run.stderr);
    assert!(
        run.stderr.contains("judge_time is for a judge game"),
        "{}",
        run.stderr
    );
    // A judge that is not there is the file's error, at its line.
    std::fs::write(
        dir.join("bad.toml"),
        "game = \"nowhere/judge.py\"\n[[bots]]\nname = \"a\"\nbot = \"x\"\n",
    )
    .unwrap();
    let run = referee_in(&dir, &["tournament", "bad.toml", "--out", "out2"], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("bad.toml"), "{}", run.stderr);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

/// Plays the higher judge between two pickers into a transcript in `dir`.
fn recorded_game(dir: &std::path::Path) -> PathBuf {
    let transcript = dir.join("game.jsonl");
    let run = referee(
        &[
            "match",
            &higher(),
            &picker("5 4"),
            &picker("3 6"),
            "--seed",
            "9",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    transcript
}

#[test]
fn judge_check_passes_a_sound_judge_and_names_what_another_does_wrong() {
    let dir = scratch_dir("judge", "check");
    let transcript = recorded_game(&dir);
    let transcript = transcript.to_str().unwrap();
    let run = referee(
        &["judge-check", &higher(), "--transcript", transcript],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("8 messages"), "{}", run.stdout);
    assert!(
        run.stdout.contains("A wins (most-rounds)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("deterministic: yes"), "{}", run.stdout);
    assert!(run.stdout.contains("well formed: yes"), "{}", run.stdout);
    // A judge that draws from its own randomness: the message that differs.
    let unseeded = judge_fixture("unseeded/judge.py");
    let run = referee(
        &["judge-check", &unseeded, "--transcript", transcript],
        BUDGET,
    );
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("FAILED: not deterministic: message 2 differs"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("luck"), "{}", run.stdout);
    // A judge that writes nonsense, and one too slow for its time.
    let broken = judge_fixture("broken/judge.py");
    let run = referee(
        &[
            "judge-check",
            &broken,
            "--option",
            "fault=garbage",
            "--transcript",
            transcript,
        ],
        BUDGET,
    );
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("FAILED: the judge failed at its message 2: wrote a line that is not JSON"),
        "{}",
        run.stdout
    );
    let run = referee(
        &[
            "judge-check",
            &broken,
            "--option",
            "fault=hang",
            "--judge-time",
            "300ms",
            "--transcript",
            transcript,
        ],
        BUDGET,
    );
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("did not answer within 300ms"),
        "{}",
        run.stdout
    );
    // No transcript, or one that is not there: bad input.
    let run = referee(&["judge-check", &higher()], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    let run = referee(
        &[
            "judge-check",
            &higher(),
            "--transcript",
            "/nonexistent.jsonl",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("/nonexistent.jsonl"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn reproduce_plays_a_recorded_judge_game_with_a_new_bot() {
    let dir = scratch_dir("judge", "reproduce");
    let transcript = dir.join("game.jsonl");
    // B repeats its 3: illegal at its second reply.
    let run = referee(
        &[
            "match",
            &higher(),
            &picker("5 4"),
            &picker("3 3"),
            "--transcript",
            transcript.to_str().unwrap(),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.json()["players"][1]["verdict"], "illegal");
    // The new B in its seat, A's recorded replies (5, then 4) played back.
    let run = referee(
        &[
            "reproduce",
            transcript.to_str().unwrap(),
            "--bot",
            &picker("3 6"),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("round 2: A 4, B 6, B wins"),
        "{}",
        run.stdout
    );
    // The judge was told the recorded names: the same set-up.
    assert!(
        !run.stdout.contains("not the recorded game"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The exchanges of a transcript: seat, direction and line of every
/// message to or from a bot (no times, no stderr).
fn exchanges(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "message" && e["dir"] != "stderr")
        .map(|e| format!("{} {} {}", e["bot"], e["dir"], e["line"]))
        .collect()
}

/// The built-in games served by a judge (the `builtin_judge` example, the
/// built-in rules behind the judge protocol) are the built-in games: for
/// the same key and seed, the same exchanges and the same result.
#[test]
fn the_built_in_games_served_by_a_judge_are_the_built_in_games() {
    let judge = example_bin("builtin_judge");
    let dir = scratch_dir("judge", "builtin");
    let key = "ab".repeat(32);
    let games: &[(&str, &[&str], &str, &str)] = &[
        ("mastermind", &[], "mastermind_knuth", "mastermind_random"),
        (
            "mastermind",
            &["codes=random", "pegs=5", "colours=7"],
            "mastermind_strong",
            "mastermind_random",
        ),
        (
            "safecracker",
            &["digits=4"],
            "safecracker_optimal",
            "safecracker_random",
        ),
        (
            "arrow5",
            &["max-rounds=30", "codes=random"],
            "arrow5_strong",
            "arrow5_random",
        ),
    ];
    for (game, options, a, b) in games {
        for seed in ["1", "2"] {
            let (a, b) = (sample_bin(a), sample_bin(b));
            let built_in = dir.join("built-in.jsonl");
            let served = dir.join("served.jsonl");
            let mut flags: Vec<String> = vec![];
            let mut judge_options = vec!["--option".to_string(), format!("game={game}")];
            for option in *options {
                let (k, v) = option.split_once('=').unwrap();
                flags.extend([format!("--{k}"), v.to_string()]);
                let k = k.replace('-', "_");
                judge_options.extend(["--option".to_string(), format!("{k}={v}")]);
            }
            let run = |game: &str, extra: &[String], transcript: &PathBuf| {
                let mut args = vec![
                    "match",
                    game,
                    &a,
                    &b,
                    "--seed",
                    seed,
                    "--key",
                    &key,
                    "--json",
                    "--transcript",
                    transcript.to_str().unwrap(),
                ];
                args.extend(extra.iter().map(String::as_str));
                let run = referee(&args, BUDGET);
                assert_eq!(run.status, 0, "{game}: {}", run.stderr);
                run.json()
            };
            let expected = run(game, &flags, &built_in);
            let got = run(&judge, &judge_options, &served);
            for field in ["winner", "reason", "first"] {
                assert_eq!(got[field], expected[field], "{game} seed {seed}: {field}");
            }
            for seat in 0..2 {
                for field in ["verdict", "attacks", "replies"] {
                    assert_eq!(
                        got["players"][seat][field], expected["players"][seat][field],
                        "{game} seed {seed}: {field} of seat {seat}"
                    );
                }
            }
            assert_eq!(
                exchanges(&served),
                exchanges(&built_in),
                "{game} seed {seed}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_check_file_plays_a_judge_game_and_a_failing_judge_cannot_be_checked() {
    let dir = flaky_tournament("check");
    let check = |name: &str| {
        format!(
            "name = \"higher-check\"\ngame = \"j/judge.py\"\nseed = 3\n\
             [bot]\nname = \"up\"\nbot = \"{}\"\n\
             [[opponents]]\nname = \"{name}\"\nbot = \"{}\"\n\
             [[require]]\nkind = \"win-rate\"\nagainst = \"{name}\"\ngames = 4\nat_least = 100\n",
            picker("7 8"),
            picker(if name == "down" { "4 3" } else { "2 1" })
        )
    };
    std::fs::write(dir.join("c.toml"), check("low")).unwrap();
    let run = referee_in(&dir, &["check", "c.toml"], BUDGET);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    // The judge gives up in every game "down" opens with 4: no result to
    // check, so the check cannot run (2), and says why.
    std::fs::write(dir.join("j/switch/fail"), "").unwrap();
    std::fs::write(dir.join("c.toml"), check("down")).unwrap();
    let run = referee_in(&dir, &["check", "c.toml"], BUDGET);
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("gave up: the switch says fail"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(dir);
}
