//! Watching a free-for-all (games of more than two, `format =
//! "free-for-all"`): its event stream (`--events`, `--events-moves`), and
//! `referee watch` and `referee serve` on its folder, through the binary
//! with Light Cycles bots on a small grid, so that a run takes seconds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::harness::*;
use crate::live::{http, poll, start_server, Browser};

const BUDGET: Duration = Duration::from_secs(240);

/// Six Light Cycles bots, three a game, three games each: two tables,
/// each played three times with its seats turned.
fn tournament_file(dir: &Path) -> PathBuf {
    let game = root().join("tournaments/games/light_cycles");
    let mut text = format!(
        "name = \"cycles\"\ngame = {:?}\nformat = \"free-for-all\"\n\
         players_per_game = 3\ngames_per_bot = 3\nseed = 5\n\
         [options]\nwidth = 8\nheight = 8\nturns = 30\n\
         [limits]\ntime_limit = \"5s\"\nstartup_limit = \"20s\"\n",
        game.join("judge.py").to_string_lossy()
    );
    let field = [
        ("starter", "starters/starter.py"),
        ("spiral-nesw", "bots/spiral.py NESW"),
        ("spiral-wsen", "bots/spiral.py WSEN"),
        ("starter-copy", "starters/starter.py"),
        ("spiral-eswn", "bots/spiral.py ESWN"),
        ("spiral-snew", "bots/spiral.py SNEW"),
    ];
    for (name, bot) in field {
        let (path, args) = bot.split_once(' ').unwrap_or((bot, ""));
        let spec = format!("{} {args}", game.join(path).to_string_lossy());
        text.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\nbot = {:?}\n",
            spec.trim()
        ));
    }
    let file = dir.join("cycles.toml");
    std::fs::write(&file, text).unwrap();
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
    ];
    args.extend_from_slice(more);
    referee(&args, BUDGET)
}

/// `standings.csv` of a free-for-all: each bot's line in rank order
/// (bot, games, average place, first places).
fn standings_csv(out: &Path) -> Vec<(String, u64, f64, u64)> {
    let mut reader = csv::Reader::from_path(out.join("standings.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (bot, games, avg, firsts) = (
        col("bot"),
        col("games"),
        col("average_place"),
        col("first_places"),
    );
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[bot].to_string(),
                r[games].parse().unwrap(),
                r[avg].parse().unwrap(),
                r[firsts].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_free_for_alls_event_stream_rebuilds_its_standings_with_every_move_before_its_game_ends() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path());
    let out = dir.path().join("out");
    let run = tournament(
        &file,
        &out,
        &["--no-report", "--events", "-", "--events-moves"],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    // Stdout is the stream's alone.
    let events: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let kind = |e: &Value| e["event"].as_str().unwrap().to_string();
    assert!(events.iter().all(|e| e["v"] == 1));
    assert_eq!(kind(&events[0]), "run-started");
    assert_eq!(events[0]["format"], "free-for-all");
    assert_eq!(events[0]["games_total"], 6);
    // Ranked by rating, not by points: no scoring, what ranks it instead.
    assert!(events[0].get("scoring").is_none(), "{}", events[0]);
    assert!(
        events[0]["ranked_by"]
            .as_str()
            .is_some_and(|r| r.contains("rating")),
        "{}",
        events[0]
    );
    assert_eq!(kind(events.last().unwrap()), "run-finished");
    assert_eq!(events.last().unwrap()["played_now"], 6);

    // Each game: started with its three bots, its moves, then finished,
    // in that order; the places and games per bot summed from the
    // finished games alone.
    let mut started: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut moves: BTreeMap<u64, u64> = BTreeMap::new();
    let mut finished: BTreeMap<u64, ()> = BTreeMap::new();
    let mut sums: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
    for e in &events {
        let game = e["game"].as_u64();
        match kind(e).as_str() {
            "game-started" => {
                let bots: Vec<String> = e["bots"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(bots.len(), 3, "{e}");
                assert_eq!(e["bot_a"], bots[0].as_str());
                started.insert(game.unwrap(), bots);
            }
            "move" => {
                let game = game.unwrap();
                assert!(started.contains_key(&game), "a move before its game: {e}");
                assert!(!finished.contains_key(&game), "a move after its game: {e}");
                assert!(["a", "b", "c"].contains(&e["bot"].as_str().unwrap()), "{e}");
                *moves.entry(game).or_default() += 1;
            }
            "game-finished" => {
                let game = game.unwrap();
                let seats = e["seats"].as_array().unwrap();
                let bots: Vec<&str> = seats.iter().map(|s| s["bot"].as_str().unwrap()).collect();
                assert_eq!(
                    started[&game], bots,
                    "the seats started are the seats finished"
                );
                assert!(
                    moves.get(&game).copied().unwrap_or(0) > 0,
                    "game {game} had moves"
                );
                for s in seats {
                    let place = s["place"].as_u64().unwrap();
                    let sum = sums.entry(s["bot"].as_str().unwrap().into()).or_default();
                    sum.0 += 1;
                    sum.1 += place;
                    sum.2 += u64::from(place == 1);
                }
                finished.insert(game, ());
            }
            _ => {}
        }
    }
    assert_eq!(finished.len(), 6);
    let csv = standings_csv(&out);
    assert_eq!(csv.len(), 6);
    for (bot, games, average, firsts) in &csv {
        let (n, places, ones) = sums[bot];
        assert_eq!((n, ones), (*games, *firsts), "{bot}");
        assert!((places as f64 / n as f64 - average).abs() < 0.001, "{bot}");
    }
    // The last snapshot ranks the bots as standings.csv does, with a
    // rating interval each.
    let last = events
        .iter()
        .rev()
        .find(|e| kind(e) == "standings")
        .unwrap();
    assert_eq!(last["games"], 6);
    let rows = last["rows"].as_array().unwrap();
    let order: Vec<&str> = rows.iter().map(|r| r["bot"].as_str().unwrap()).collect();
    let csv_order: Vec<&str> = csv.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(order, csv_order);
    for r in rows {
        assert!(r["rating_low"].as_f64() < r["rating"].as_f64(), "{r}");
        assert!(r["rating"].as_f64() < r["rating_high"].as_f64(), "{r}");
    }
    // The live files went with their games.
    let live = std::fs::read_dir(out.join("live")).unwrap().count();
    assert_eq!(live, 0, "no live file is left");
}

#[test]
fn watch_and_serve_show_a_free_for_alls_standings() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path());
    let out = dir.path().join("out");
    let run = tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let csv = standings_csv(&out);

    let watch = referee(&["watch", out.to_str().unwrap(), "--once"], BUDGET);
    assert_eq!(watch.status, 0, "{}", watch.stderr);
    assert!(watch.stdout.contains("6 of 6 games"), "{}", watch.stdout);
    assert!(watch.stdout.contains("95% interval"), "{}", watch.stdout);
    // The bots in rank order, each with its games and average place.
    let mut at = 0;
    for (bot, games, average, _) in &csv {
        let line = watch.stdout[at..]
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(bot.as_str()))
            .unwrap_or_else(|| panic!("{bot} after the bots above it: {}", watch.stdout));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[2], games.to_string(), "{line}");
        assert_eq!(fields[3], format!("{average:.2}"), "{line}");
        at = watch.stdout.find(line).unwrap() + line.len();
    }
    assert!(
        watch.stdout.contains("game 6 (table 2): "),
        "{}",
        watch.stdout
    );

    let (mut server, addr) = start_server(&out, &[]);
    let (status, page) = http(&addr, "GET", "/");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("id=\"standings\""), "{page}");
    assert!(
        page.contains("/live.js"),
        "the leaderboard follows the server"
    );
    let positions: Vec<usize> = csv
        .iter()
        .map(|(bot, ..)| page.find(&format!(">{bot}<")).unwrap_or(usize::MAX))
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "rank order: {positions:?}"
    );
    let (status, snapshot) = http(&addr, "GET", "/api/snapshot");
    assert_eq!(status, 200, "{snapshot}");
    let snapshot: Value = serde_json::from_str(&snapshot).unwrap();
    assert_eq!(snapshot["games_done"], 6);
    let bots: Vec<&str> = snapshot["free_for_all"]["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert_eq!(bots, csv.iter().map(|r| r.0.as_str()).collect::<Vec<_>>());
    let (status, games) = http(&addr, "GET", "/api/games");
    assert_eq!(status, 200, "{games}");
    let games: Value = serde_json::from_str(&games).unwrap();
    assert_eq!(games.as_array().unwrap().len(), 6);
    assert_eq!(games[0]["seats"].as_array().unwrap().len(), 3);
    let (status, game) = http(&addr, "GET", "/game/1");
    assert_eq!(status, 200, "{game}");
    assert_eq!(server.interrupt(Duration::from_secs(30)), Some(0));

    // A row changed by hand: said where, and the file is not to be
    // removed (a free-for-all has no store to write it anew from).
    let games_csv = out.join("games.csv");
    let mut text = std::fs::read_to_string(&games_csv).unwrap();
    text.push_str("7,not a seed\n");
    std::fs::write(&games_csv, &text).unwrap();
    for (command, flag) in [("watch", "--once"), ("serve", "--port=0")] {
        let run = referee(&[command, out.to_str().unwrap(), flag], BUDGET);
        assert_eq!(run.status, 2, "{command}: {}", run.stderr);
        assert!(run.stderr.contains("games.csv"), "{}", run.stderr);
        assert!(!run.stderr.contains("remove"), "{}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    assert!(games_csv.exists());
}

#[test]
fn the_projector_shows_a_free_for_alls_standings_and_every_seat_of_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path());
    // A name that would be markup: text wherever it is shown.
    let evil = "<i id='evil'>copy</i>";
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace("\"starter-copy\"", &format!("\"{evil}\"")),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let csv = standings_csv(&out);
    assert!(csv.iter().any(|r| r.0 == evil), "{csv:?}");

    let (mut server, addr) = start_server(&out, &[]);
    let (status, games) = http(&addr, "GET", "/api/games");
    assert_eq!(status, 200, "{games}");
    let games: Value = serde_json::from_str(&games).unwrap();
    let seats_of = |n: usize| -> Vec<(String, u64)> {
        games[n - 1]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s[0].as_str().unwrap().to_string(), s[1].as_u64().unwrap()))
            .collect()
    };
    let mut browser = Browser::open(&format!("http://{addr}/projector?speed=20&pause=800"));
    let state = |b: &mut Browser| {
        b.eval(
            "JSON.stringify({played: document.body.dataset.played || '', \
             featured: document.body.dataset.featured || '', \
             caption: document.getElementById('caption').textContent, \
             result: document.getElementById('result').textContent, \
             head: Array.from(document.querySelectorAll('#standings th')).map(c => c.textContent), \
             rows: Array.from(document.querySelectorAll('#standings tbody tr')) \
               .map(r => Array.from(r.cells).map(c => c.textContent)), \
             evil: document.getElementById('evil') === null ? 'none' : 'an element'})",
        )
        .as_str()
        .map(|s| serde_json::from_str::<Value>(s).unwrap())
        .unwrap_or(Value::Null)
    };
    // Each game featured with all its seats named, A first; a game played
    // to its end shows its seats' places.
    let mut featured = vec![];
    let mut results = 0;
    let all = poll(BUDGET, || {
        let s = state(&mut browser);
        if s.is_null() {
            // The page not loaded yet.
            return None;
        }
        assert_eq!(s["evil"], "none", "no element made of a name: {s}");
        if let Some(n) = s["featured"].as_str().and_then(|f| f.parse::<usize>().ok()) {
            let seats = seats_of(n);
            assert_eq!(seats.len(), 3);
            let names: Vec<&str> = seats.iter().map(|s| s.0.as_str()).collect();
            let caption = s["caption"].as_str().unwrap();
            assert_eq!(caption, format!("Game {n}: {}", names.join(", ")), "{s}");
            if featured.last() != Some(&n) {
                featured.push(n);
            }
            let result = s["result"].as_str().unwrap();
            if !result.is_empty() {
                for (bot, place) in &seats {
                    assert!(result.contains(&format!("{place}. {bot}")), "{s}");
                }
                results += 1;
            }
        }
        let played = s["played"].as_str().unwrap_or("").to_string();
        (played.split(',').count() == games.as_array().unwrap().len()).then_some(s)
    })
    .unwrap_or_else(|| {
        panic!(
            "every game is played: featured {featured:?}, {}",
            state(&mut browser)
        )
    });
    assert_eq!(all["played"], "1,2,3,4,5,6", "one at a time, in order");
    assert!(featured.len() >= 3, "{featured:?}");
    assert!(results > 0, "a result was shown");
    // The free-for-all's standings beside it: every bot in rank order,
    // its rating inside its interval, its average place.
    let head: Vec<&str> = all["head"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert_eq!(
        head,
        ["#", "bot", "rating", "95% interval", "avg place", "games"]
    );
    let rows = all["rows"].as_array().unwrap();
    assert_eq!(rows.len(), csv.len(), "{all}");
    for (i, (row, (bot, games, average, _))) in rows.iter().zip(&csv).enumerate() {
        let cell = |k: usize| row[k].as_str().unwrap();
        assert_eq!(cell(0), (i + 1).to_string(), "{row}");
        assert_eq!(cell(1), bot, "{row}");
        let rating: f64 = cell(2).parse().unwrap();
        let (low, high) = cell(3).split_once(" – ").unwrap();
        let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
        assert!(low < rating && rating < high, "{row}");
        assert_eq!(cell(4), format!("{average:.2}"), "{row}");
        assert_eq!(cell(5), games.to_string(), "{row}");
    }
    assert_eq!(server.interrupt(Duration::from_secs(30)), Some(0));
}
