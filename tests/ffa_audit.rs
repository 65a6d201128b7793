//! A free-for-all as a hostile contestant, a newcomer and an auditor see
//! it, through the real binary with Light Cycles bots on a small grid:
//! bots whose replies are built to break the results' CSV and HTML, every
//! number of the standings and the pairwise table recomputed from
//! `games.csv`, a file corrected after the judge refused it, a run killed
//! mid-game and resumed without `--events`, a `games_per_bot` past the
//! cap and two-player fields in a free-for-all, and `referee serve` under
//! one machine's unread event streams and a flood of connections.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::ffa_tournament::{keyed_tournament, light_cycles_bot, light_cycles_file};
use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);
const KEY: &str = "6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b";
/// What the `markup` bot answers (sample_bots/hostile/cycles_hostile.py).
const MARKUP: &str = "</script><script>alert(1)</script>,\"=cmd|' /C calc'!A0";

/// A free-for-all of Light Cycles on an 8 x 8 grid in `dir`: `fields`
/// are the format's lines, `bots` name and bot (a path under the game's
/// folder, or `hostile MODE`).
fn tournament_file(dir: &Path, fields: &str, bots: &[(&str, &str)]) -> PathBuf {
    let bots: Vec<(&str, String)> = bots
        .iter()
        .map(|&(name, bot)| {
            let command = match bot.strip_prefix("hostile ") {
                Some(mode) => format!("{} {mode}", sample_file("hostile/cycles_hostile.py")),
                None => light_cycles_bot(bot),
            };
            (name, command)
        })
        .collect();
    let fields = format!("format = \"free-for-all\"\n{fields}");
    light_cycles_file(dir, "audit\\\"</script>", &fields, 7, 30, "1s", &bots)
}

/// Three bots of Light Cycles: a starter and two spirals.
const THREE: [(&str, &str); 3] = [
    ("starter", "starters/starter.py"),
    ("spiral-nesw", "bots/spiral.py NESW"),
    ("spiral-wsen", "bots/spiral.py WSEN"),
];

/// A free-for-all of [`THREE`] in `dir`, played whole: its results folder.
fn played_three(dir: &Path) -> PathBuf {
    let file = tournament_file(dir, "players_per_game = 3\ngames_per_bot = 3", &THREE);
    let out = dir.join("out");
    tournament(&file, &out, &[]).succeeds();
    out
}

fn tournament(file: &Path, out: &Path, more: &[&str]) -> Run {
    keyed_tournament(KEY, BUDGET, file, out, more)
}

/// The seats' letters of a free-for-all's `games.csv` row.
fn seats(row: &BTreeMap<String, String>) -> Vec<String> {
    let mut letters: Vec<String> = row
        .keys()
        .filter_map(|k| k.strip_prefix("bot_").map(String::from))
        .collect();
    letters.sort();
    letters
}

/// Weng-Lin's Bradley-Terry model with full pairing (mu 25, sigma 25/3,
/// beta 25/6), each game's players updated from their places, games in
/// number order: each bot's (mu, sigma). Written here from the model's
/// formulas, apart from the referee's code.
fn weng_lin(games: &[Vec<(String, u32)>]) -> BTreeMap<String, (f64, f64)> {
    let beta: f64 = 25.0 / 6.0;
    let mut ratings: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for players in games {
        let now: Vec<(f64, f64)> = players
            .iter()
            .map(|(b, _)| *ratings.get(b).unwrap_or(&(25.0, 25.0 / 3.0)))
            .collect();
        for (i, (bot, place)) in players.iter().enumerate() {
            let (mu, sigma) = now[i];
            let (mut omega, mut delta) = (0.0, 0.0);
            for (q, (_, other_place)) in players.iter().enumerate() {
                if q == i {
                    continue;
                }
                let (mu_q, sigma_q) = now[q];
                let c = (sigma * sigma + sigma_q * sigma_q + 2.0 * beta * beta).sqrt();
                let p = (mu / c).exp() / ((mu / c).exp() + (mu_q / c).exp());
                let score = match other_place.cmp(place) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                omega += sigma * sigma / c * (score - p);
                delta += (sigma / c) * sigma * sigma / (c * c) * p * (1.0 - p);
            }
            let sigma_new = (sigma * sigma * (1.0 - delta).max(1e-6)).sqrt();
            ratings.insert(bot.clone(), (mu + omega, sigma_new));
        }
    }
    ratings
}

/// Every number of `standings.csv` and `pairwise.csv` recomputed from
/// `games.csv`, and the order of the standings.
fn assert_consistent_with_games(out: &Path) {
    let mut rows = csv_records(&out.join("games.csv"));
    rows.sort_by_key(|r| r["game"].parse::<u64>().unwrap());
    let mut games: Vec<Vec<(String, u32)>> = vec![];
    #[derive(Default)]
    struct Tally {
        games: u32,
        places: u32,
        firsts: u32,
        disqualified: u32,
    }
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut met: BTreeMap<(String, String), (u32, f64)> = BTreeMap::new();
    for row in &rows {
        let players: Vec<(String, u32)> = seats(row)
            .iter()
            .map(|s| {
                let bot = row[&format!("bot_{s}")].clone();
                let place: u32 = row[&format!("place_{s}")].parse().unwrap();
                let t = tally.entry(bot.clone()).or_default();
                t.games += 1;
                t.places += place;
                t.firsts += u32::from(place == 1);
                t.disqualified += u32::from(row[&format!("verdict_{s}")] != "ok");
                (bot, place)
            })
            .collect();
        for (bot, place) in &players {
            for (other, other_place) in &players {
                if bot != other {
                    let pair = met.entry((bot.clone(), other.clone())).or_default();
                    pair.0 += 1;
                    pair.1 += match place.cmp(other_place) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                }
            }
        }
        games.push(players);
    }
    let ratings = weng_lin(&games);
    let standings = csv_records(&out.join("standings.csv"));
    assert_eq!(standings.len(), tally.len(), "{standings:?}");
    let number = |row: &BTreeMap<String, String>, key: &str| -> f64 {
        row[key]
            .parse()
            .unwrap_or_else(|_| panic!("{key} in {row:?}"))
    };
    let near = |a: f64, b: f64, what: &str, row: &BTreeMap<String, String>| {
        assert!(
            (a - b).abs() < 0.0011,
            "{what}: {a} written, {b} from games.csv: {row:?}"
        );
    };
    for row in &standings {
        let bot = &row["bot"];
        let t = &tally[bot];
        let (mu, sigma) = ratings[bot];
        assert_eq!(number(row, "games"), f64::from(t.games), "{row:?}");
        assert_eq!(number(row, "first_places"), f64::from(t.firsts), "{row:?}");
        assert_eq!(
            number(row, "disqualified"),
            f64::from(t.disqualified),
            "{row:?}"
        );
        let games = f64::from(t.games);
        near(
            number(row, "average_place"),
            f64::from(t.places) / games,
            "average_place",
            row,
        );
        near(
            number(row, "first_share"),
            f64::from(t.firsts) / games,
            "first_share",
            row,
        );
        near(number(row, "rating"), mu, "rating", row);
        near(number(row, "uncertainty"), sigma, "uncertainty", row);
        near(
            number(row, "rating_low"),
            mu - 1.96 * sigma,
            "rating_low",
            row,
        );
        near(
            number(row, "rating_high"),
            mu + 1.96 * sigma,
            "rating_high",
            row,
        );
    }
    // Ranked by rating, then average place, then name.
    let mut expected: Vec<&String> = tally.keys().collect();
    expected.sort_by(|a, b| {
        let key = |bot: &String| {
            let t = &tally[bot];
            (
                -(ratings[bot].0 * 1000.0).round(),
                f64::from(t.places) / f64::from(t.games),
            )
        };
        key(a).partial_cmp(&key(b)).unwrap().then(a.cmp(b))
    });
    let written: Vec<&String> = standings.iter().map(|r| &r["bot"]).collect();
    assert_eq!(written, expected, "the standings' order");
    let pairwise = csv_records(&out.join("pairwise.csv"));
    assert_eq!(
        pairwise.len(),
        met.len(),
        "every pair that met, once each way"
    );
    for row in &pairwise {
        let (games, ahead) = met[&(row["bot"].clone(), row["other"].clone())];
        assert_eq!(number(row, "games"), f64::from(games), "{row:?}");
        assert_eq!(number(row, "ahead"), ahead, "{row:?}");
        near(number(row, "share"), ahead / f64::from(games), "share", row);
    }
}

#[test]
fn hostile_replies_stay_data_and_every_number_follows_from_games_csv() {
    let dir = scratch_dir("ffa-audit", "hostile");
    // Six bots, three a game, three games each: two tables of three.
    let file = tournament_file(
        &dir,
        "players_per_game = 3\ngames_per_bot = 3",
        &[
            ("starter", "starters/starter.py"),
            ("markup", "hostile markup"),
            ("spiral-nesw", "bots/spiral.py NESW"),
            ("flood", "hostile flood"),
            ("spiral-wsen", "bots/spiral.py WSEN"),
            ("slow", "hostile slow"),
        ],
    );
    let out = dir.join("out");
    tournament(&file, &out, &[]).succeeds();
    // games.csv: one row per game, each of the header's width (a reply's
    // comma, quote or newline never makes a column), the reply kept whole
    // in the detail.
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let width = reader.headers().unwrap().len();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 6, "{text}");
    assert!(records.iter().all(|r| r.len() == width), "{text}");
    let rows = csv_records(&out.join("games.csv"));
    let expected = [
        ("markup", "protocol"),
        ("flood", "output"),
        ("slow", "timeout"),
    ];
    for row in &rows {
        for s in seats(row) {
            let bot = &row[&format!("bot_{s}")];
            if let Some((_, verdict)) = expected.iter().find(|(b, _)| b == bot) {
                assert_eq!(&row[&format!("verdict_{s}")], verdict, "{row:?}");
            }
            if bot == "markup" {
                assert!(row["detail"].contains(MARKUP), "{row:?}");
            }
        }
        // A spreadsheet takes a cell beginning with = + - @ for a formula.
        for cell in row.values() {
            assert!(!cell.starts_with(['=', '+', '@']), "{cell:?} in {row:?}");
        }
    }
    assert_consistent_with_games(&out);
    // The report and its game pages: the reply and the tournament's name
    // are text, never markup (no script of theirs; inside the page's JSON
    // data `<` is escaped).
    let mut pages = vec![out.join("report/index.html")];
    for entry in std::fs::read_dir(out.join("report/games")).unwrap() {
        pages.push(entry.unwrap().path());
    }
    assert!(pages.len() > 6, "{pages:?}");
    for page in pages {
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            !html.contains("<script>alert") && !html.contains("audit\"</script>"),
            "{}: {html}",
            page.display()
        );
    }
}

#[test]
fn a_folder_whose_judge_refused_the_file_takes_the_corrected_file() {
    let dir = scratch_dir("ffa-audit", "corrected");
    let bots = THREE;
    let out = dir.join("out");
    // Light Cycles takes 3 to 6 players: tables of two are refused by
    // the judge at the first game, which is bad input.
    let file = tournament_file(&dir, "players_per_game = 2\ngames_per_bot = 4", &bots);
    tournament(&file, &out, &[])
        .exits(2)
        .stderr_has("played by 3 to 6 players, not 2")
        .stderr_has("players_per_game");
    assert!(
        out.join("tournament.toml").is_file(),
        "the folder was begun"
    );
    // The newcomer corrects the file and runs the same command again: the
    // folder held no game, so it is the corrected file's.
    let file = tournament_file(&dir, "players_per_game = 3\ngames_per_bot = 3", &bots);
    tournament(&file, &out, &[]).succeeds();
    assert_eq!(csv_records(&out.join("games.csv")).len(), 3);
    assert_eq!(
        std::fs::read_to_string(out.join("tournament.toml")).unwrap(),
        std::fs::read_to_string(&file).unwrap()
    );
    // A folder with games stays its file's.
    let file = tournament_file(&dir, "players_per_game = 3\ngames_per_bot = 6", &bots);
    tournament(&file, &out, &["--resume"])
        .exits(2)
        .stderr_has("different tournament file");
}

#[test]
fn a_run_killed_mid_game_and_resumed_without_events_leaves_no_game_running() {
    let dir = scratch_dir("ffa-audit", "killed");
    let file = tournament_file(
        &dir,
        "players_per_game = 3\ngames_per_bot = 3",
        &[
            ("starter", "starters/starter.py"),
            ("spiral-nesw", "bots/spiral.py NESW"),
            ("spiral-wsen", "bots/spiral.py WSEN"),
            ("starter-copy", "starters/starter.py"),
            ("spiral-eswn", "bots/spiral.py ESWN"),
            ("spiral-snew", "bots/spiral.py SNEW"),
        ],
    );
    let out = dir.join("out");
    let live = out.join("live");
    let live_files = || {
        std::fs::read_dir(&live)
            .map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    // Killed (SIGKILL) while a game is being played, its live file
    // written; a run that ended first is run again.
    let deadline = Instant::now() + BUDGET;
    loop {
        let _ = std::fs::remove_dir_all(&out);
        let events = out.join("events.jsonl");
        let mut child = Referee::new()
            .args(["tournament", file.to_str().unwrap(), "--out"])
            .arg(&out)
            .args(["--key", KEY, "--jobs", "2", "--events"])
            .arg(&events)
            .command()
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        while live_files().is_empty() && child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "no game was seen running");
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill();
        child.wait().unwrap();
        if !live_files().is_empty() {
            break;
        }
    }
    // Resumed without --events: the killed run's live files go, and no
    // game shows as running (the stream never said its games ended).
    tournament(&file, &out, &["--resume"]).succeeds();
    assert!(live_files().is_empty(), "{:?}", live_files());
    assert_eq!(csv_records(&out.join("games.csv")).len(), 6);
    let watched = referee(&["watch", out.to_str().unwrap(), "--once"], BUDGET).succeeds();
    let frame = watched.stdout;
    let playing = frame
        .split("Playing now")
        .nth(1)
        .unwrap_or_else(|| panic!("{frame}"));
    assert!(
        playing.trim_start().starts_with("none"),
        "a game the folder holds is shown running:\n{frame}"
    );
}

#[test]
fn games_per_bot_past_the_cap_is_refused_with_a_number_that_fits() {
    let dir = scratch_dir("ffa-audit", "cap");
    let bots = [
        ("a", "starters/starter.py"),
        ("b", "bots/spiral.py NESW"),
        ("c", "bots/spiral.py WSEN"),
        ("d", "bots/spiral.py ESWN"),
    ];
    for (given, suggested) in [
        ("9223372036854775807", "give 1000000"),
        ("1000000000000", "give 1000000"),
        ("999999", "give 999996 or 1000000"),
    ] {
        let file = tournament_file(
            &dir,
            &format!("players_per_game = 4\ngames_per_bot = {given}"),
            &bots,
        );
        let run = tournament(&file, &dir.join("out"), &["--dry-run"])
            .exits(2)
            .stderr_has("cycles.toml:5: games_per_bot")
            .stderr_has(suggested);
        let stderr = run.stderr;
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_machine_holding_event_streams_unread_cannot_take_them_from_the_others() {
    use std::io::{Read, Write};
    let dir = scratch_dir("ffa-audit", "streams");
    let out = played_three(&dir);
    let (_server, addr) = crate::live::start_server(&out, &[]);
    // One machine opens the streams a few browsers could and never reads
    // them past their head.
    let mut held = vec![];
    for n in 0..8 {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(BUDGET)).unwrap();
        write!(stream, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut head = [0u8; 15];
        stream.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 200 OK", "stream {n}");
        held.push(stream);
    }
    let (status, body) = crate::live::http(&addr, "GET", "/events");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too many pages of this machine"), "{body}");
    // Another machine (another loopback address) still follows the server.
    let port = addr.rsplit(':').next().unwrap();
    let script = format!(
        "import socket\ns = socket.socket()\ns.bind(('127.0.0.3', 0))\n\
         s.connect(('127.0.0.1', {port}))\n\
         s.sendall(b'GET /events HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\n')\ns.settimeout(60)\n\
         head = b''\nwhile b'\\r\\n' not in head:\n    head += s.recv(100)\n\
         print(head.split(b'\\r\\n')[0].decode())\n"
    );
    let other = std::process::Command::new("python3")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&other.stdout).trim(),
        "HTTP/1.1 200 OK",
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    drop(held);
}

/// `referee serve FOLDER` on any free port with at most `open_files` open
/// files (`ulimit -n`, soft and hard): the server and its address.
fn serve_with_open_files(folder: &Path, open_files: u32) -> (crate::live::Owned, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n {open_files} && exec \"$0\" serve \"$1\" --port 0"
        ))
        .arg(referee_bin())
        .arg(folder)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (crate::live::Owned(child), addr)
}

#[test]
fn a_flood_of_connections_held_open_stalls_the_server_only_while_it_lasts() {
    use std::io::Write;
    let dir = scratch_dir("ffa-audit", "flood");
    let out = played_three(&dir);
    // 64 open files: the flood reaches the system's limit.
    let (mut server, addr) = serve_with_open_files(&out, 64);
    assert_eq!(crate::live::http(&addr, "GET", "/api/snapshot").0, 200);
    // Connections that never finish their request, as many as the server
    // takes.
    let mut held = vec![];
    for _ in 0..100 {
        let Ok(mut stream) = std::net::TcpStream::connect(&addr) else {
            break;
        };
        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n");
        held.push(stream);
    }
    drop(held);
    // The flood gone, the server answers again.
    let answered = crate::live::poll(Duration::from_secs(60), || {
        (crate::live::http(&addr, "GET", "/api/snapshot").0 == 200).then_some(())
    });
    assert!(
        answered.is_some(),
        "the server no longer answers after a flood"
    );
    let code = server.interrupt(Duration::from_secs(30));
    let mut stderr = String::new();
    use std::io::Read;
    let _ = server.0.stderr.take().unwrap().read_to_string(&mut stderr);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn two_player_fields_in_a_free_for_all_are_refused_whatever_their_value() {
    let dir = scratch_dir("ffa-audit", "mixed");
    let bots = [
        ("a", "starters/starter.py"),
        ("b", "bots/spiral.py NESW"),
        ("c", "bots/spiral.py WSEN"),
    ];
    for (field, refusal) in [
        // Points would be silently ignored: the standings are by rating.
        (
            "scoring = { win = 3 }",
            "cycles.toml:6: scoring.win: a free-for-all has no points",
        ),
        // A value a round robin would refuse is refused for the format,
        // not for the value.
        (
            "games_per_pairing = 1",
            "cycles.toml:6: games_per_pairing: a free-for-all has no pairings",
        ),
    ] {
        let file = tournament_file(
            &dir,
            &format!("players_per_game = 3\ngames_per_bot = 3\n{field}"),
            &bots,
        );
        tournament(&file, &dir.join("out"), &["--dry-run"])
            .exits(2)
            .stderr_has(refusal);
    }
}
