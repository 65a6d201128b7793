//! Watching a contest live: the event stream (`--events`), `referee serve`
//! (a read-only web server pushing updates to a browser) and `referee
//! watch` (a terminal view), each through the binary on a folder a real
//! tournament writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// Every line of an events file, parsed; each must be one JSON object of
/// version 1.
fn events_of(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| {
            let event: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not one JSON object ({e}): {line}"));
            assert_eq!(event["v"], 1, "every event carries the version: {line}");
            assert!(event["event"].is_string(), "{line}");
            event
        })
        .collect()
}

fn kind(event: &Value) -> &str {
    event["event"].as_str().unwrap()
}

/// A round robin of three Arrow 5 sample bots, `games` games a pairing.
fn three_bot_tournament(dir: &Path, games: u32) -> PathBuf {
    let file = dir.join("t.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"live\"\ngame = \"arrow5\"\ngames_per_pairing = {games}\nseed = 9\n\
             [scoring]\nwin = 3\ndraw = 1\nloss = 0\n\
             [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"constant\"\nbot = \"{}\"\n",
            sample_bin("arrow5_strong"),
            sample_bin("arrow5_random"),
            sample_bin("arrow5_constant"),
        ),
    )
    .unwrap();
    file
}

/// Points, wins, draws, losses and games of each bot, summed from the
/// `game-finished` events after the last `run-started`'s snapshot alone.
fn standings_from_stream(events: &[Value]) -> BTreeMap<String, [u64; 5]> {
    let started = events
        .iter()
        .find(|e| kind(e) == "run-started")
        .expect("a run-started event");
    let scoring = &started["scoring"];
    let points = |what: &str| scoring[what].as_u64().unwrap();
    let mut table: BTreeMap<String, [u64; 5]> = started["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b.as_str().unwrap().to_string(), [0; 5]))
        .collect();
    for e in events.iter().filter(|e| kind(e) == "game-finished") {
        let (a, b) = (
            e["bot_a"].as_str().unwrap().to_string(),
            e["bot_b"].as_str().unwrap().to_string(),
        );
        let (ra, rb) = match e["result"].as_str().unwrap() {
            "a" => ((points("win"), 1, 0, 0), (points("loss"), 0, 0, 1)),
            "b" => ((points("loss"), 0, 0, 1), (points("win"), 1, 0, 0)),
            "draw" => ((points("draw"), 0, 1, 0), (points("draw"), 0, 1, 0)),
            other => panic!("a result of {other}"),
        };
        for (bot, (p, w, d, l)) in [(a, ra), (b, rb)] {
            let row = table.get_mut(&bot).expect("a bot of the run");
            row[0] += p;
            row[1] += w;
            row[2] += d;
            row[3] += l;
            row[4] += 1;
        }
    }
    table
}

fn standings_from_csv(out: &Path) -> BTreeMap<String, [u64; 5]> {
    csv_records(&out.join("standings.csv"))
        .into_iter()
        .map(|r| {
            let n = |c: &str| r[c].parse::<u64>().unwrap();
            (
                r["bot"].clone(),
                [n("points"), n("wins"), n("draws"), n("losses"), n("played")],
            )
        })
        .collect()
}

#[test]
fn the_event_stream_alone_gives_the_standings_of_standings_csv() {
    let dir = tempfile::tempdir().unwrap();
    let file = three_bot_tournament(dir.path(), 4);
    let out = dir.path().join("out");
    let events_path = dir.path().join("run.events");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
            "--no-report",
            "--events",
            events_path.to_str().unwrap(),
            "--events-moves",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let events = events_of(&events_path);
    let kinds: Vec<&str> = events.iter().map(kind).collect();
    assert_eq!(kinds.first(), Some(&"run-started"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"run-finished"), "{kinds:?}");

    // Every game of games.csv started, then finished, once, with its seed.
    let rows = csv_records(&out.join("games.csv"));
    assert_eq!(rows.len(), 12);
    for row in &rows {
        let number: u64 = row["game"].parse().unwrap();
        let at = |what: &str| {
            let found: Vec<usize> = events
                .iter()
                .enumerate()
                .filter(|(_, e)| kind(e) == what && e["game"] == number)
                .map(|(i, _)| i)
                .collect();
            assert_eq!(found.len(), 1, "game {number}: {what} {found:?}");
            found[0]
        };
        let (started, finished) = (at("game-started"), at("game-finished"));
        assert!(started < finished, "game {number}");
        assert_eq!(events[started]["seed"].to_string(), row["seed"]);
        assert_eq!(events[finished]["seed"].to_string(), row["seed"]);
        assert_eq!(events[finished]["winner"], row["winner"].as_str());
        // --events-moves: the game's messages, before it is finished.
        let moves: Vec<&Value> = events[started..finished]
            .iter()
            .filter(|e| kind(e) == "move" && e["game"] == number)
            .collect();
        let replies: u64 = ["replies_a", "replies_b"]
            .iter()
            .map(|c| row[*c].parse::<u64>().unwrap())
            .sum();
        let from = moves.iter().filter(|m| m["dir"] == "from").count() as u64;
        assert_eq!(from, replies, "game {number}: a move event per reply");
    }

    let from_stream = standings_from_stream(&events);
    assert_eq!(from_stream, standings_from_csv(&out));
    // The last snapshot is the standings too.
    let last = events
        .iter()
        .rev()
        .find(|e| kind(e) == "standings")
        .unwrap();
    let snapshot: BTreeMap<String, u64> = last["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["bot"].as_str().unwrap().into(), r["points"].as_u64().unwrap()))
        .collect();
    let points: BTreeMap<String, u64> = from_stream.iter().map(|(b, r)| (b.clone(), r[0])).collect();
    assert_eq!(snapshot, points);

    // A resumed run appends: the events before it are kept as they were,
    // and its first snapshot holds the games already played.
    let before = std::fs::read_to_string(&events_path).unwrap();
    // As a killed run may leave it: half a line at the end.
    std::fs::write(&events_path, format!("{before}{{\"v\":1,\"ev")).unwrap();
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--resume",
            "--no-report",
            "--events",
            events_path.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let after = std::fs::read_to_string(&events_path).unwrap();
    assert!(after.starts_with(&before), "earlier events kept");
    let appended = events_of(&events_path)[events.len()..].to_vec();
    let kinds: Vec<&str> = appended.iter().map(kind).collect();
    assert_eq!(kinds, ["run-started", "standings", "standings", "run-finished"]);
    assert_eq!(appended[0]["games_done"], 12);
    assert_eq!(appended[1]["games"], 12);
}

#[test]
fn events_to_stdout_leave_stdout_to_the_events() {
    let dir = tempfile::tempdir().unwrap();
    let file = three_bot_tournament(dir.path(), 2);
    let out = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
            "--no-report",
            "--events",
            "-",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(
        lines.iter().filter(|e| kind(e) == "game-finished").count(),
        6
    );
    assert_eq!(kind(lines.last().unwrap()), "run-finished");
}

#[test]
fn an_events_file_that_cannot_be_written_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = three_bot_tournament(dir.path(), 2);
    let out = dir.path().join("out");
    let events = dir.path().join("no-such-folder").join("e.jsonl");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--events",
            events.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--events") && run.stderr.contains("no-such-folder"),
        "{}",
        run.stderr
    );
    assert!(!out.join("games.csv").exists(), "nothing played");
}
