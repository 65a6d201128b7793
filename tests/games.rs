//! The example games of `tournaments/games/` (games brought as judges)
//! through the real binary: Connect Four (judge in Python) between its
//! Python and C starters, Nim (judge in JavaScript), the Connect Four
//! round robin, and the Mastermind judge against the built-in game.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(180);

fn games_dir() -> PathBuf {
    root().join("tournaments").join("games")
}

fn game_file(relative: &str) -> String {
    games_dir().join(relative).to_string_lossy().into_owned()
}

/// The transcript's lines as JSON values.
fn transcript(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The exchanges with the bots: (bot, direction, line), in order.
fn exchanges(lines: &[serde_json::Value]) -> Vec<(String, String, String)> {
    lines
        .iter()
        .filter(|v| v["type"] == "message")
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            (s("bot"), s("dir"), s("line"))
        })
        .collect()
}

/// Every `grid` object anywhere in `value` (frames, wherever the
/// transcript keeps them).
fn grids<'a>(value: &'a serde_json::Value, found: &mut Vec<&'a serde_json::Value>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                if key == "grid" && inner.is_object() {
                    found.push(inner);
                }
                grids(inner, found);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| grids(v, found)),
        _ => {}
    }
}

fn verdicts(v: &serde_json::Value) -> [String; 2] {
    [0, 1].map(|i| {
        v["players"][i]["verdict"]
            .as_str()
            .unwrap_or("")
            .to_string()
    })
}

fn attacks(v: &serde_json::Value) -> [u64; 2] {
    [0, 1].map(|i| v["players"][i]["attacks"].as_u64().unwrap_or(u64::MAX))
}

/// The Python starter and the C starter play the same plan (win, block,
/// centre), so the first to move wins, with four in a row, on its 8th
/// piece; the transcript's frames hold the 6x7 board.
#[test]
fn connect4_python_starter_beats_the_c_starter_when_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c4.jsonl");
    let run = referee(
        &[
            "match",
            &game_file("connect4/judge.py"),
            &game_file("connect4/starters/starter.py"),
            &game_file("connect4/starters/starter.c"),
            "--seed",
            "4",
            "--json",
            "--transcript",
            path.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["winner"], "a", "{v}");
    assert_eq!(v["reason"], "four-in-a-row", "{v}");
    assert_eq!(verdicts(&v), ["ok", "ok"]);
    assert_eq!(attacks(&v), [8, 7], "{v}");
    let lines = transcript(&path);
    let talk = exchanges(&lines);
    assert_eq!(
        talk[0],
        ("a".into(), "to".into(), "connect4 7 6 first".into())
    );
    assert_eq!(
        talk[1],
        ("b".into(), "to".into(), "connect4 7 6 second".into())
    );
    assert!(
        talk.iter()
            .any(|(bot, dir, line)| bot == "b" && dir == "to" && line.starts_with("opponent ")),
        "the second player is told the first's moves: {talk:?}"
    );
    assert!(talk.iter().any(|(_, _, l)| l == "end win four-in-a-row"));
    assert!(talk.iter().any(|(_, _, l)| l == "end loss four-in-a-row"));
    let mut found = Vec::new();
    for line in &lines {
        grids(line, &mut found);
    }
    // One frame at the start and one per move: 15 pieces.
    assert!(found.len() >= 15, "{} grids in the transcript", found.len());
    let last = found.last().unwrap();
    assert_eq!(
        (last["rows"].as_u64(), last["cols"].as_u64()),
        (Some(6), Some(7))
    );
    let pieces = last["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|c| c.as_str().is_some_and(|s| !s.is_empty()))
        .count();
    assert_eq!(pieces, 15, "the final board: {last}");
}

/// A bot that names a column off the board, or writes a word, loses with
/// the verdict the judge gave, and the judge's detail in the record.
#[test]
fn connect4_refuses_a_column_off_the_board_and_a_word() {
    for (reply, verdict, detail) in [
        ("9", "illegal", "column 9 does not exist"),
        ("left", "protocol", "expected a column number"),
    ] {
        let bot = format!("python3 {} {reply}", sample_file("python/scripted.py"));
        let run = referee(
            &[
                "match",
                &game_file("connect4/judge.py"),
                &bot,
                &game_file("connect4/starters/starter.py"),
                "--json",
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        let v = run.json();
        assert_eq!(v["winner"], "b", "{v}");
        assert_eq!(verdicts(&v), [verdict, "ok"], "{v}");
        assert!(v.to_string().contains(detail), "{detail} in {v}");
    }
}

/// An option out of range refuses the game before it is played, naming
/// the option; no bot is judged.
#[test]
fn connect4_refuses_a_board_too_small() {
    let starter = game_file("connect4/starters/starter.py");
    let run = referee(
        &[
            "match",
            &game_file("connect4/judge.py"),
            &starter,
            &starter,
            "--option",
            "rows=2",
        ],
        BUDGET,
    );
    // The judge answers start with an error: the game's options are bad
    // input (exit 2), and the message says the judge's own words.
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("refused the game"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("option rows: expected from 4 to 16, got 2; give it options"),
        "the message names the option: {}",
        run.stderr
    );
    // A tournament of those options stops at its first game, as bad input.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"small\"\ngame = \"{}\"\nformat = \"round-robin\"\ngames_per_pairing = 2\n\
             [options]\nrows = 2\n[[bots]]\nname = \"a\"\nbot = \"{starter}\"\n\
             [[bots]]\nname = \"b\"\nbot = \"{starter}\"\n",
            game_file("connect4/judge.py")
        ),
    )
    .unwrap();
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
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("refused the game"), "{}", run.stderr);
}

/// Nim between two copies of the starter (it plays the exclusive-or
/// strategy): heaps 3 4 5 are a first player's win, in either form.
#[test]
fn nim_starters_play_the_winning_strategy() {
    let starter = game_file("nim/starters/starter.py");
    for misere in ["false", "true"] {
        let run = referee(
            &[
                "match",
                &game_file("nim/judge.js"),
                &starter,
                &starter,
                "--option",
                "heaps=3 4 5",
                "--option",
                &format!("misere={misere}"),
                "--json",
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        let v = run.json();
        assert_eq!(v["winner"], "a", "misere={misere}: {v}");
        assert_eq!(v["reason"], "last-object", "{v}");
        assert_eq!(verdicts(&v), ["ok", "ok"]);
    }
}

/// The round robin of tournaments/connect4.toml, into a temporary folder:
/// standings of both starters, every game played, none void.
#[test]
fn connect4_round_robin_writes_standings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let run = referee(
        &[
            "tournament",
            "tournaments/connect4.toml",
            "--out",
            out.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let standings = csv_records(&out.join("standings.csv"));
    let names: BTreeSet<_> = standings
        .iter()
        .map(|r| r["bot"].clone())
        .collect::<BTreeSet<_>>();
    assert_eq!(
        names,
        ["c-starter", "py-starter"].map(String::from).into(),
        "{standings:?}"
    );
    let games = csv_records(&out.join("games.csv"));
    assert_eq!(games.len(), 4, "{games:?}");
    for game in &games {
        assert_eq!(game["reason"], "four-in-a-row", "{game:?}");
        // Both play the same plan: whoever moves first wins.
        assert_eq!(game["winner"], game["first"], "{game:?}");
    }
    // The report's game pages carry the judge's frames: the board.
    let page = std::fs::read_to_string(out.join("report/games/game-000001.html")).unwrap();
    assert!(
        page.contains(r#""grid":"#) && page.contains("four in a row"),
        "no board in the game page"
    );
    // The judge is told the tournament's names of the bots (both starters'
    // programs are named `starter`), and its frames say them.
    let first = &games[0]["first"];
    let transcript = std::fs::read_to_string(out.join("transcripts/game-000001.jsonl")).unwrap();
    assert!(
        transcript.contains(&format!("{first} (X) moves first")),
        "{transcript}"
    );
}

/// The built-in Mastermind and its judge (tournaments/games/mastermind/)
/// play the same 270 games with one key (each setup with each ordered pair
/// of bots 15 times; CI's time is the bound): the same winner, reason and
/// attacks, and the same lines to and from the bots: bot codes, and random
/// codes at the default size (whose draws are redrawn about one time in
/// three, so a judge needs more than a few words of its seed) and at 3x10.
#[test]
fn mastermind_judge_agrees_with_the_built_in_game() {
    const GAMES: usize = 270;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(
        &key,
        "5eed0ba11c0de5a1ad0fc0ffee15600d5eed0ba11c0de5a1ad0fc0ffee15600d\n",
    )
    .unwrap();
    let key = key.to_str().unwrap().to_string();
    let judge = game_file("mastermind/judge.py");
    let bots = [
        sample_bin("mastermind_knuth"),
        sample_bin("mastermind_random"),
        sample_bin("mastermind_strong"),
    ];
    // (built-in flags, judge options) by game.
    let setups: [(&[&str], &[&str]); 3] = [
        (&[], &[]),
        (&["--codes", "random"], &["--option", "codes=random"]),
        (
            &[
                "--codes",
                "random",
                "--pegs",
                "3",
                "--colours",
                "10",
                "--max-attacks",
                "6",
            ],
            &[
                "--option",
                "codes=random",
                "--option",
                "pegs=3",
                "--option",
                "colours=10",
                "--option",
                "max_attacks=6",
            ],
        ),
    ];
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let outcomes = Mutex::new(BTreeSet::new());
    let play = |game: &str, a: &str, b: &str, seed: &str, extra: &[&str], path: &Path| {
        let mut args = vec![
            "match",
            game,
            a,
            b,
            "--seed",
            seed,
            "--key-file",
            &key,
            "--json",
            "--transcript",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = referee(&args, BUDGET);
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        let v = run.json();
        let result = (
            v["winner"].as_str().unwrap_or("").to_string(),
            v["reason"].as_str().unwrap_or("").to_string(),
            attacks(&v),
            verdicts(&v),
        );
        (result, exchanges(&transcript(path)))
    };
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= GAMES {
                    break;
                }
                let (builtin_flags, judge_options) = setups[i % 3];
                // Every ordered pair of the three bots in turn.
                let (a, b) = [(0, 1), (1, 0), (2, 1), (1, 2), (0, 2), (2, 0)][(i / 3) % 6];
                let seed = (1000 + i).to_string();
                let paths = [
                    dir.path().join(format!("builtin-{i}.jsonl")),
                    dir.path().join(format!("judge-{i}.jsonl")),
                ];
                let builtin = play(
                    "mastermind",
                    &bots[a],
                    &bots[b],
                    &seed,
                    builtin_flags,
                    &paths[0],
                );
                let judged = play(&judge, &bots[a], &bots[b], &seed, judge_options, &paths[1]);
                if builtin != judged {
                    failures.lock().unwrap().push(format!(
                        "game {i} (seed {seed}): built-in {:?}, judge {:?}\n  built-in {:?}\n  judge    {:?}",
                        builtin.0, judged.0, builtin.1, judged.1
                    ));
                }
                outcomes.lock().unwrap().insert(builtin.0 .1.clone());
                for path in paths {
                    std::fs::remove_file(path).ok();
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {GAMES} games differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The games were real ones: several ends were reached.
    let outcomes = outcomes.into_inner().unwrap();
    assert!(outcomes.len() >= 2, "{outcomes:?}");
}

/// Every copy of a helper library beside a judge equals its original in
/// tournaments/games/sdk/ (a judge reads only its own folder, so each game
/// keeps a copy; a copy edited by hand would drift from the documented one).
#[test]
fn helper_library_copies_equal_the_originals() {
    let sdk = games_dir().join("sdk");
    let originals: Vec<(String, Vec<u8>)> = ["referee_judge.py", "referee_judge.js"]
        .iter()
        .map(|name| (name.to_string(), std::fs::read(sdk.join(name)).unwrap()))
        .collect();
    let mut copies = 0;
    for entry in std::fs::read_dir(games_dir()).unwrap() {
        let folder = entry.unwrap().path();
        if !folder.is_dir() || folder == sdk {
            continue;
        }
        for (name, original) in &originals {
            let copy = folder.join(name);
            if copy.exists() {
                copies += 1;
                assert!(
                    std::fs::read(&copy).unwrap() == *original,
                    "{} differs from tournaments/games/sdk/{name}: copy the original again",
                    copy.display()
                );
            }
        }
    }
    // connect4, mastermind and light_cycles (Python), nim (JavaScript).
    assert!(copies >= 4, "only {copies} copies found");
}

/// Runs a judge by hand (no referee): writes `input`, one JSON message a
/// line, and returns what it answered, one JSON value a line.
fn judge_by_hand(judge: &str, input: &[serde_json::Value]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let program = if judge.ends_with(".js") {
        "node"
    } else {
        "python3"
    };
    let mut child = std::process::Command::new(program)
        .arg(judge)
        // No __pycache__ left in the repository's game folders.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {program} {judge}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    for message in input {
        // A judge that stopped early closes its end: the rest is not read.
        if writeln!(stdin, "{message}").is_err() {
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{judge} exited with {:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{judge} wrote '{l}': {e}")))
        .collect()
}

fn start(seed: &str, options: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"type": "start", "protocol": 1, "players": 2,
        "names": ["alice", "bob"], "seed": seed, "options": options})
}

/// Each judge refuses an option it does not know, or a value it cannot
/// play, with an `error` that names the option, as its first answer; and
/// with the same start and replies it answers the same, byte for byte.
#[test]
fn judges_refuse_bad_options_and_answer_the_same_twice() {
    let stop = serde_json::json!({"type": "stop", "reason": "over"});
    let seed = "9c".repeat(64);
    for (judge, option, value) in [
        ("connect4/judge.py", "rows", serde_json::json!(3)),
        ("connect4/judge.py", "colour", serde_json::json!("red")),
        ("nim/judge.js", "heaps", serde_json::json!("3 x")),
        ("nim/judge.js", "misere", serde_json::json!(1)),
        ("mastermind/judge.py", "pegs", serde_json::json!(13)),
        ("mastermind/judge.py", "codes", serde_json::json!("judge")),
    ] {
        let options = serde_json::json!({ option: value });
        let answers = judge_by_hand(&game_file(judge), &[start(&seed, options), stop.clone()]);
        assert_eq!(answers.len(), 1, "{judge}: {answers:?}");
        assert_eq!(answers[0]["type"], "error", "{judge} {option}: {answers:?}");
        let detail = answers[0]["detail"].as_str().unwrap();
        assert!(
            detail.contains(option),
            "{judge}: '{detail}' names {option}"
        );
    }
    let reply = |player: u64, line: &str| serde_json::json!({"type": "reply", "player": player, "line": line, "time_ms": 1.5});
    for (judge, replies) in [
        (
            "connect4/judge.py",
            vec![reply(0, "4"), reply(1, "4"), reply(0, "8")],
        ),
        (
            "nim/judge.js",
            vec![reply(0, "1 1"), reply(1, "2 1"), reply(0, "7 1")],
        ),
        (
            "mastermind/judge.py",
            vec![
                reply(0, "0 1 2 3"),
                reply(1, "5 5 4 4"),
                reply(0, "0 0 1 1"),
            ],
        ),
    ] {
        let mut input = vec![start(&seed, serde_json::json!({}))];
        input.extend(replies);
        input.push(stop.clone());
        let first = judge_by_hand(&game_file(judge), &input);
        let second = judge_by_hand(&game_file(judge), &input);
        assert_eq!(first, second, "{judge} answered differently");
        // ready, two turns, then the third reply refused.
        let kinds: Vec<_> = first.iter().map(|m| m["type"].as_str().unwrap()).collect();
        assert_eq!(kinds[..3], ["ready", "turn", "turn"], "{judge}: {first:?}");
        assert_eq!(first.len(), 4, "{judge}: {first:?}");
        assert_eq!(first[0]["protocol"], 1);
    }
}

/// A judge's frames follow every reply it accepted: the game page of the
/// Mastermind judge counts the codes' replies as moves (as its frames do),
/// so the last frame, the last attack, is the last move's.
#[test]
fn a_judge_games_page_counts_every_reply_as_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("game.jsonl");
    let run = referee(
        &[
            "match",
            &game_file("mastermind/judge.py"),
            &sample_bin("mastermind_knuth"),
            &sample_bin("mastermind_random"),
            "--seed",
            "3",
            "--json",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    let replies: u64 = record["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["replies"].as_u64().unwrap())
        .sum();
    let page = dir.path().join("game.html");
    let run = referee(
        &[
            "replay",
            transcript.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let moves = html.matches(r#"{"seat":""#).count() as u64;
    assert_eq!(moves, replies, "one move a reply, codes included");
    // The frames' last move is the page's last move.
    let last_frame = record["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["move"].as_u64())
        .max()
        .unwrap();
    assert_eq!(last_frame, replies);
    assert!(
        !html.contains(r#""candidates":"#),
        "a judge game is no code game"
    );
}
