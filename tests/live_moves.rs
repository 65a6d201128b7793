//! A game followed while it is played: its public moves in its live file
//! (`OUT/live/game-NNNNNN.jsonl`) and as `move` events of the stream as
//! they are made, never a hidden code before the game's end, and `referee
//! serve`'s game page and projector following it move by move in a
//! browser. The bots sleep before each attack, so that a game lasts long
//! enough to be watched on a busy machine; every wait is a poll against a
//! deadline.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::*;
use crate::live::{http, poll, start_server, Browser, Owned};

const BUDGET: Duration = Duration::from_secs(240);
/// What each bot sleeps before an attack.
const PACE_MS: u64 = 200;
/// The codes the two bots choose (the wire's spelling, `-` for a space).
const CODES: [&str; 2] = ["5-3-4-2", "4-2-5-3"];

/// A round robin of two slow Mastermind bots choosing their own codes,
/// `games` games, `attacks` attacks each a game, one game at a time.
fn slow_mastermind(dir: &Path, games: u32, attacks: u32, names: [&str; 2]) -> PathBuf {
    let file = dir.join("slow.toml");
    let bot = |code: &str| {
        format!(
            "python3 {} {PACE_MS} {code}",
            sample_file("hostile/slow_mastermind.py")
        )
    };
    std::fs::write(
        &file,
        format!(
            "name = \"watched\"\ngame = \"mastermind\"\ngames_per_pairing = {games}\nseed = 5\n\
             [options]\npegs = 4\ncolours = 6\nmax_attacks = {attacks}\ncodes = \"bots\"\n\
             [[bots]]\nname = \"{}\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"{}\"\nbot = \"{}\"\n",
            names[0],
            bot(CODES[0]),
            names[1],
            bot(CODES[1]),
        ),
    )
    .unwrap();
    file
}

/// `referee tournament FILE --out OUT --jobs 1 --no-report` and `extra`,
/// started, not waited for; stdout piped.
fn start_tournament(file: &Path, out: &Path, extra: &[&str]) -> Owned {
    let child = std::process::Command::new(referee_bin())
        .args([
            "tournament",
            file.to_str().unwrap(),
            "--jobs",
            "1",
            "--no-report",
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    Owned(child)
}

/// The lines of a live file that are whole, parsed (each must be JSON).
fn live_lines(path: &Path) -> Option<Vec<Value>> {
    let text = std::fs::read_to_string(path).ok()?;
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    Some(
        whole
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
            .collect(),
    )
}

/// Every spelling of `code` (`5-3-4-2`) a line could carry: the wire's
/// `5 3 4 2`, and the one the game's summary shows at its end.
fn spellings(code: &str, summary: &[String]) -> Vec<String> {
    let wire = code.replace('-', " ");
    let mut all = vec![wire.clone(), code.replace('-', "")];
    // The account's spelling, as the end of the game reveals it.
    for line in summary {
        if let Some((_, rest)) = line.split_once("'s code: ") {
            let shown = rest.split("  (").next().unwrap_or(rest).trim().to_string();
            if shown.replace(' ', "") == code.replace('-', "") {
                all.push(shown);
            }
        }
    }
    all
}

/// Every string in `value` (keys and values, at any depth).
fn texts_of(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(items) => items.iter().flat_map(texts_of).collect(),
        serde_json::Value::Object(map) => map
            .iter()
            .flat_map(|(k, v)| std::iter::once(k.clone()).chain(texts_of(v)))
            .collect(),
        _ => vec![],
    }
}

/// The finished game `number`'s account, from its transcript.
fn account_of(out: &Path, number: u64) -> Vec<String> {
    let transcript = out
        .join("transcripts")
        .join(format!("game-{number:06}.jsonl"));
    let text = std::fs::read_to_string(&transcript).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    last["record"]["account"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn move_events_are_told_while_the_game_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let attacks = 6;
    let file = slow_mastermind(dir.path(), 2, attacks, ["left", "right"]);
    let out = dir.path().join("out");
    let mut run = start_tournament(&file, &out, &["--events", "-", "--events-moves"]);
    let stdout = run.0.stdout.take().unwrap();
    let started = Instant::now();
    // Each event as it arrives, with when it arrived.
    let mut events: Vec<(Duration, Value)> = vec![];
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let event: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(event["v"], 1, "{line}");
        events.push((started.elapsed(), event));
        assert!(started.elapsed() < BUDGET, "the tournament runs too long");
    }
    assert_eq!(run.0.wait().unwrap().code(), Some(0));
    let rows = csv_records(&out.join("games.csv"));
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let number: u64 = row["game"].parse().unwrap();
        let of_game = |what: &str| -> Vec<(usize, &Value)> {
            events
                .iter()
                .enumerate()
                .filter(|(_, (_, e))| e["event"] == what && e["game"] == number)
                .map(|(i, (_, e))| (i, e))
                .collect()
        };
        let finished = of_game("game-finished");
        let moves = of_game("move");
        assert_eq!(finished.len(), 1, "game {number}");
        let (at_finish, finish) = finished[0];
        // One move event per reply the rules took, numbered in order, each
        // before the game is finished.
        let replies: u64 = ["replies_a", "replies_b"]
            .iter()
            .map(|c| row[*c].parse::<u64>().unwrap())
            .sum();
        assert_eq!(moves.len() as u64, replies, "game {number}: {moves:?}");
        for (k, (i, m)) in moves.iter().enumerate() {
            assert!(*i < at_finish, "game {number}: move {k} after its end");
            assert_eq!(m["n"], k as u64 + 1);
            assert_eq!(m["dir"], "from");
            assert!(m["bot"] == "a" || m["bot"] == "b", "{m}");
            assert!(m["line"].is_string() && m["t_us"].is_u64(), "{m}");
        }
        assert_eq!(moves[0].1["line"], "A chose its code", "{:?}", moves[0]);
        // Told as they were made, not at the end: after the third move the
        // bots still had attacks to make, each after a sleep, so the
        // referee wrote it well before the game's end (its own clock), and
        // the test read it before the end was written.
        let third = moves[2].1;
        let left = 2 * attacks as u64 - 1;
        let gap = finish["time"].as_f64().unwrap() - third["time"].as_f64().unwrap();
        assert!(
            gap >= (left * PACE_MS) as f64 / 1000.0 * 0.9,
            "game {number}: move 3 written only {gap} s before the end"
        );
        let read_gap = events[at_finish].0 - events[moves[2].0].0;
        assert!(
            read_gap >= Duration::from_millis(left * PACE_MS / 2),
            "game {number}: move 3 arrived only {read_gap:?} before the end"
        );
    }
    // The live files went with their games.
    let left: Vec<_> = std::fs::read_dir(out.join("live")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn no_hidden_code_is_told_before_the_game_ends() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_mastermind(dir.path(), 2, 8, ["left", "right"]);
    let out = dir.path().join("out");
    let events = out.join("events.jsonl");
    let mut run = start_tournament(
        &file,
        &out,
        &["--events", events.to_str().unwrap(), "--events-moves"],
    );
    // The first game's live file, read while the game is on: each look
    // keeps the lines it holds then, and whether the game was recorded.
    let live = out.join("live").join("game-000001.jsonl");
    let mut looks: Vec<Vec<Value>> = vec![];
    // `watch` shows the running game's last move.
    let mut watched = None;
    let ended = poll(BUDGET, || {
        let lines = live_lines(&live);
        if watched.is_none() && lines.as_ref().is_some_and(|l| l.len() >= 3) {
            let view = referee(&["watch", out.to_str().unwrap(), "--once"], BUDGET);
            watched = view
                .stdout
                .lines()
                .skip_while(|l| !l.starts_with("  game 1: left vs right"))
                .nth(1)
                .filter(|l| l.starts_with("    move "))
                .map(str::to_string);
        }
        let recorded =
            std::fs::read_to_string(out.join("games.csv")).is_ok_and(|t| t.lines().count() > 1);
        if let Some(lines) = lines.filter(|_| !recorded) {
            if let Ok(meta) = std::fs::metadata(&live) {
                let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions());
                assert_eq!(mode & 0o777, 0o600, "the referee's user's alone");
            }
            looks.push(lines);
        }
        recorded.then_some(())
    });
    assert!(ended.is_some(), "game 1 ends");
    let most = looks.iter().map(Vec::len).max().unwrap_or(0);
    assert!(
        most >= 4,
        "the live file grew move by move while the game was on: {looks:?}"
    );
    let head = &looks[0][0];
    assert_eq!(head["kind"], "game");
    assert_eq!(head["game"], 1);
    assert_eq!(head["v"], 1);
    let watched = watched.expect("watch --once shows game 1's last move while it is played");
    assert!(
        watched.contains(" attacks 0 0 0 0") || watched.contains(" chose its code"),
        "{watched}"
    );
    assert_eq!(run.0.wait().unwrap().code(), Some(0));

    // Each code is in the game's summary at its end, spelled as the
    // account spells it: what the live lines were checked against.
    let account = account_of(&out, 1);
    for code in CODES {
        let spelled = spellings(code, &account);
        assert_eq!(
            spelled.len(),
            3,
            "{code} is revealed at the end: {account:?}"
        );
        // Every text told, not the numbers beside it: a code spelled
        // without spaces (`5342`) may be digits of a time in microseconds.
        for look in &looks {
            for line in look {
                let text = texts_of(line).join("\n");
                for s in &spelled {
                    assert!(!text.contains(s.as_str()), "{s} told mid-game: {line}");
                }
            }
        }
        // And in the stream, before the game's end.
        let stream = std::fs::read_to_string(&events).unwrap();
        let before_end = stream
            .lines()
            .take_while(|l| !(l.contains("\"game-finished\"") && l.contains("\"game\":1,")))
            .collect::<Vec<_>>();
        assert!(before_end.iter().any(|l| l.contains("\"move\"")));
        for l in before_end {
            let text = texts_of(&serde_json::from_str(l).unwrap()).join("\n");
            for s in &spelled {
                assert!(
                    !text.contains(s.as_str()),
                    "{s} in the stream mid-game: {l}"
                );
            }
        }
    }
}

#[test]
fn serve_follows_a_game_move_by_move_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    // A name that would be markup: text wherever it is shown.
    let evil = "<b id='evil'>left</b>";
    let games = 8;
    let file = slow_mastermind(dir.path(), games, 20, [evil, "right"]);
    let out = dir.path().join("out");
    let events = out.join("events.jsonl");
    let mut run = start_tournament(&file, &out, &["--events", events.to_str().unwrap()]);
    let live = |n: u64| out.join("live").join(format!("game-{n:06}.jsonl"));
    // A game being played after `after`, with a move made.
    let playing = |after: u64| {
        poll(BUDGET, || {
            (after + 1..=u64::from(games))
                .find(|&n| live_lines(&live(n)).is_some_and(|l| l.len() >= 2))
        })
        .expect("a game is being played")
    };
    playing(0);
    let (mut server, addr) = start_server(&out, &[]);
    // The browser first (it may be slow to start), then the game being
    // played at that time.
    let mut browser = Browser::open(&format!("http://{addr}/api/snapshot"));
    // The game page: the move count grows with no reload, then the
    // finished game's viewer takes its place.
    let state = |b: &mut Browser| {
        let text = b.eval(
            "JSON.stringify({live: !!document.getElementById('live-game'), \
             moves: document.body ? document.body.dataset.moves || '' : '', \
             loaded: document.body ? document.body.dataset.loaded || '' : '', \
             caption: (document.getElementById('caption') || {}).textContent || '', \
             items: document.querySelectorAll('#moves li').length, \
             evil: !!document.getElementById('evil'), \
             viewer: !!document.getElementById('viewer')})",
        );
        text.as_str()
            .map(|s| serde_json::from_str::<Value>(s).unwrap())
            .unwrap_or(Value::Null)
    };
    // A game that ends before its page has seen the count grow (a browser
    // slow to navigate on a busy machine) is followed again on the next
    // game played.
    let mut first = 0;
    let mut tries: Vec<Vec<u64>> = vec![];
    let (grew, counts) = loop {
        assert!(tries.len() < 3, "the move count grows: {tries:?}");
        first = playing(first);
        let (status, page) = http(&addr, "GET", &format!("/game/{first}"));
        assert_eq!(status, 200);
        assert!(page.contains("id=\"live-game\""), "the live page: {page}");
        browser.call(
            "Page.navigate",
            serde_json::json!({ "url": format!("http://{addr}/game/{first}") }),
        );
        let mut counts: Vec<u64> = vec![];
        let mut loaded = None;
        let followed = poll(BUDGET, || {
            let s = state(&mut browser);
            if s["live"] != true {
                // Over before it grew: its viewer is shown.
                return (s["viewer"] == true).then_some(None);
            }
            assert_eq!(s["evil"], false, "no element made of a name: {s}");
            let page = s["loaded"].as_str().unwrap().to_string();
            if page.is_empty() {
                // Its script has not run yet: the page is still loading.
                return None;
            }
            if loaded.get_or_insert(page.clone()) != &page {
                panic!("the page was loaded again: {s}");
            }
            let n: u64 = s["moves"].as_str().unwrap().parse().unwrap_or(0);
            assert_eq!(s["items"], n, "one item a move: {s}");
            if n > 0 && counts.last() != Some(&n) {
                counts.push(n);
            }
            (counts.len() >= 3).then_some(Some(s))
        });
        match followed {
            Some(Some(s)) => break (s, counts),
            Some(None) => tries.push(counts),
            None => panic!("the move count grows: {counts:?}"),
        }
    };
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    assert!(
        grew["caption"].as_str().unwrap().contains(evil),
        "the name as text: {grew}"
    );
    assert!(
        poll(BUDGET, || (state(&mut browser)["viewer"] == true)
            .then_some(()))
        .is_some(),
        "the finished game's viewer follows: {}",
        state(&mut browser)
    );
    assert_eq!(state(&mut browser)["evil"], false);

    // The projector, from a game being played: featured live, its move
    // count growing with no reload.
    let number = playing(first);
    browser.call(
        "Page.navigate",
        serde_json::json!({ "url": format!("http://{addr}/projector?from={number}") }),
    );
    let projector = |b: &mut Browser| {
        let text = b.eval(
            "JSON.stringify({live: document.body.dataset.live || '', \
             move: document.body.dataset.move || '', \
             loaded: document.body.dataset.loaded || '', \
             caption: document.getElementById('caption').textContent})",
        );
        text.as_str()
            .map(|s| serde_json::from_str::<Value>(s).unwrap())
            .unwrap_or(Value::Null)
    };
    let mut moves: Vec<u64> = vec![];
    let mut loaded = None;
    let followed = poll(BUDGET, || {
        let s = projector(&mut browser);
        if s["live"] != number.to_string().as_str() {
            return None;
        }
        let page = s["loaded"].as_str().unwrap().to_string();
        if loaded.get_or_insert(page.clone()) != &page {
            panic!("the projector was loaded again: {s}");
        }
        let n: u64 = s["move"].as_str().unwrap().parse().unwrap_or(0);
        if n > 0 && moves.last() != Some(&n) {
            moves.push(n);
        }
        (moves.len() >= 2).then_some(s)
    })
    .unwrap_or_else(|| panic!("the projector follows game {number}: {moves:?}"));
    assert!(
        followed["caption"]
            .as_str()
            .unwrap()
            .contains(&format!("Game {number}:")),
        "{followed}"
    );
    assert!(moves.windows(2).all(|w| w[0] < w[1]), "{moves:?}");
    drop(browser);

    // The stream of a game being played, read to its end: its head, its
    // moves from the first, in order, then its end.
    let streamed = playing(number);
    let (status, body) = http(&addr, "GET", &format!("/game/{streamed}/events"));
    assert_eq!(status, 200);
    let events: Vec<(&str, Value)> = body
        .split("\n\n")
        .filter_map(|block| {
            let kind = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((kind, serde_json::from_str(data).unwrap()))
        })
        .collect();
    assert_eq!(events.first().map(|e| e.0), Some("game"), "{body}");
    assert_eq!(events[0].1["game"], streamed);
    assert_eq!(events.last().map(|e| e.0), Some("end"), "{body}");
    let numbers: Vec<u64> = events
        .iter()
        .filter(|e| e.0 == "move")
        .map(|e| e.1["n"].as_u64().unwrap())
        .collect();
    assert!(numbers.len() >= 10, "{body}");
    assert!(
        numbers.iter().enumerate().all(|(i, &n)| n == i as u64 + 1),
        "{numbers:?}"
    );
    // A game with no live file ends at once.
    let (status, body) = http(&addr, "GET", "/game/999/events");
    assert_eq!(status, 200);
    assert!(body.contains("event: end"), "{body}");
    assert_eq!(server.interrupt(Duration::from_secs(30)), Some(0));
    let stopped = run.interrupt(Duration::from_secs(60));
    assert!(matches!(stopped, Some(0 | 130)), "{stopped:?}");
}

/// A game being played whose live file carries a bot's right-to-left
/// override (U+202E) and terminal escape (ESC) in its names, in a move's
/// line and in its frame: `referee serve`'s page of it shows each escaped
/// as the viewer, the pages and the terminal do (`\u{202e}`, `\x1b`), the
/// line breaks of the frame kept. They were raw, the override turning the
/// organiser's line around. The live file is written here, so that the page
/// gets exactly these lines: a tournament file refuses such a name, and a
/// built-in game's account quotes no reply as the bot wrote it, but a
/// judge's line and frame may.
#[test]
fn a_live_game_page_shows_a_bots_reordering_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::live::served_copy(dir.path());
    // A number past the folder's games: being played, with no transcript.
    let number = 99;
    let live = out.join("live");
    std::fs::create_dir(&live).unwrap();
    let lines = [
        serde_json::json!({"v": 1, "kind": "game", "game": number, "seed": 1,
            "bot_a": "\u{202e}tfel", "bot_b": "right\u{1b}[2J",
            "bots": ["\u{202e}tfel", "right\u{1b}[2J"], "started": 0.0}),
        serde_json::json!({"v": 1, "kind": "move", "game": number, "n": 1, "bot": "a",
            "line": "A said '5 6 \u{202e}7 8 9\u{1b}[31m'", "t_us": 1, "wall_us": 1}),
        serde_json::json!({"v": 1, "kind": "move", "game": number, "n": 2, "bot": "b",
            "line": "", "t_us": 2, "wall_us": 1,
            "frame": {"grid": {"cells": [["\u{202e}1", "2"]]}, "text": "B said '\u{1b}]0;pwned\u{7}'"}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(live.join(format!("game-{number:06}.jsonl")), text).unwrap();
    let (mut server, addr) = start_server(&out, &[]);
    let (status, page) = http(&addr, "GET", &format!("/game/{number}"));
    assert_eq!(status, 200);
    assert!(page.contains("id=\"live-game\""), "the live page: {page}");
    let mut browser = Browser::open(&format!("http://{addr}/game/{number}"));
    let shown = poll(BUDGET, || {
        let text = browser.eval(
            "document.body && document.body.dataset.moves === '2' ? JSON.stringify({ \
               caption: document.getElementById('caption').textContent, \
               moves: Array.from(document.querySelectorAll('#moves li')).map(l => l.textContent), \
               frame: document.getElementById('frame').textContent, \
               all: document.body.innerText}) : null",
        );
        text.as_str()
            .map(|s| serde_json::from_str::<Value>(s).unwrap())
    })
    .expect("the page shows the game's two moves");
    let all = shown["all"].as_str().unwrap();
    for raw in ['\u{202e}', '\u{1b}', '\u{7}'] {
        assert!(!all.contains(raw), "{raw:?} raw on the page: {all:?}");
    }
    assert_eq!(
        shown["caption"],
        format!("Game {number}: \\u{{202e}}tfel vs right\\x1b[2J"),
        "{shown}"
    );
    assert_eq!(
        shown["moves"],
        serde_json::json!(["A said '5 6 \\u{202e}7 8 9\\x1b[31m'", "(B moved)"]),
        "{shown}"
    );
    assert_eq!(
        shown["frame"], "\\u{202e}1 2\nB said '\\x1b]0;pwned\\x07'",
        "{shown}"
    );
    drop(browser);
    assert_eq!(server.interrupt(Duration::from_secs(30)), Some(0));
}

#[test]
fn a_bot_cannot_read_the_live_files_of_its_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let out = dir.path().join("out");
    // The fixture reads what it is given, its own game's live file among
    // them (made before the bots start): a read is its crash.
    let snoop = format!(
        "python3 {} {} {}",
        sample_file("hostile/snoop.py"),
        out.join("live").join("game-000001.jsonl").display(),
        out.join("live").display()
    );
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 2\nseed = 5\nsandbox = \"basic\"\n\
             [[bots]]\nname = \"snoop\"\nbot = \"{snoop}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            sample_bin("arrow5_random")
        ),
    )
    .unwrap();
    let events = out.join("events.jsonl");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
            "--no-report",
            "--events",
            events.to_str().unwrap(),
            "--events-moves",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let rows = csv_records(&out.join("games.csv"));
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["verdict_a"], "ok", "{row:?}");
        assert_eq!(row["verdict_b"], "ok", "{row:?}");
    }
    // The moves were told: the files were there to be read.
    let stream = std::fs::read_to_string(&events).unwrap();
    assert!(stream.contains("\"event\":\"move\""), "{stream}");
}

#[test]
fn a_killed_referees_live_file_reads_whole_and_the_next_run_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_mastermind(dir.path(), 2, 8, ["left", "right"]);
    let out = dir.path().join("out");
    let events = out.join("events.jsonl");
    let flags = ["--events", events.to_str().unwrap()];
    let mut run = start_tournament(&file, &out, &flags);
    let live = out.join("live").join("game-000001.jsonl");
    assert!(
        poll(BUDGET, || live_lines(&live).filter(|l| l.len() >= 4)).is_some(),
        "game 1 is being played"
    );
    // Killed mid-game: no chance to tidy up.
    run.0.kill().unwrap();
    run.0.wait().unwrap();
    let lines = live_lines(&live).expect("a killed referee's live file stays");
    assert!(lines.len() >= 4, "{lines:?}");
    assert_eq!(lines[0]["kind"], "game");
    // The next run plays the game again and leaves no live file behind.
    let resumed = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
            "--no-report",
            "--resume",
            flags[0],
            flags[1],
        ],
        BUDGET,
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert_eq!(csv_records(&out.join("games.csv")).len(), 2);
    let left: Vec<_> = std::fs::read_dir(out.join("live")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
