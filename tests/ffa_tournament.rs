//! Free-for-all tournaments (`format = "free-for-all"`): tables of four
//! Light Cycles bots (tournaments/games/light_cycles/, the Python starter
//! and spiral riders) through the real binary, on a small grid so that a
//! whole tournament takes seconds: every seat played equally often, a
//! rating with its interval per bot, the report's game pages with every
//! player, `--resume` and shards with `merge` giving the very standings of
//! one run, and bad combinations refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);
const KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";

/// The bots of the field: the Python starter twice and four spiral riders
/// (each its own order of steps).
const FIELD: [(&str, &str); 6] = [
    ("starter", "starters/starter.py"),
    ("spiral-nesw", "bots/spiral.py NESW"),
    ("spiral-wsen", "bots/spiral.py WSEN"),
    ("starter-copy", "starters/starter.py"),
    ("spiral-eswn", "bots/spiral.py ESWN"),
    ("spiral-snew", "bots/spiral.py SNEW"),
];

/// A tournament file of the field in `dir` (`extra` replaces the format's
/// fields), returned with its path.
fn tournament_file(dir: &Path, fields: &str) -> PathBuf {
    let bots = FIELD.map(|(name, bot)| (name, light_cycles_bot(bot)));
    light_cycles_file(dir, "cycles", fields, 11, 40, "5s", &bots)
}

/// A tournament file of Light Cycles (the game's judge) on an 8 x 8 grid
/// in `dir`: its `name` (a TOML string's inside), `fields` (the format's
/// lines, from line 3), `seed`, games of `turns` turns, `time_limit` a
/// move, and `bots` as name and command.
pub(crate) fn light_cycles_file(
    dir: &Path,
    name: &str,
    fields: &str,
    seed: u64,
    turns: u32,
    time_limit: &str,
    bots: &[(&str, String)],
) -> PathBuf {
    let game = root().join("tournaments/games/light_cycles");
    let mut text = format!(
        "name = \"{name}\"\ngame = {:?}\n{fields}\nseed = {seed}\n\
         [options]\nwidth = 8\nheight = 8\nturns = {turns}\n\
         [limits]\ntime_limit = \"{time_limit}\"\nstartup_limit = \"20s\"\n",
        game.join("judge.py").to_string_lossy()
    );
    for (name, command) in bots {
        text.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\nbot = {:?}\n",
            command.trim()
        ));
    }
    let file = dir.join("cycles.toml");
    std::fs::write(&file, text).unwrap();
    file
}

/// The command of a Light Cycles bot named by its path under the game's
/// folder, and its arguments (`bots/spiral.py NESW`).
pub(crate) fn light_cycles_bot(bot: &str) -> String {
    let game = root().join("tournaments/games/light_cycles");
    let (path, args) = bot.split_once(' ').unwrap_or((bot, ""));
    format!("{} {args}", game.join(path).to_string_lossy())
}

/// Bands of places: 50 marks for an average place of 2.5 or better, 80
/// for first at half the games or more; two spirals are not graded.
const GRADING: &str = "[grading]\nreferences = [\"spiral-nesw\", \"spiral-wsen\"]\n\
    bands = [{ average_place = 2.5, marks = 50 }, { first_share = 0.5, marks = 80 }]\n";

/// Four players a game, eight games each: three tables, twelve games.
const FORMAT: &str = "format = \"free-for-all\"\nplayers_per_game = 4\ngames_per_bot = 8";

fn tournament(file: &Path, out: &Path, more: &[&str]) -> Run {
    keyed_tournament(KEY, BUDGET, file, out, more)
}

/// `referee tournament FILE --out OUT --key KEY --jobs 2 MORE...`, within
/// `budget`.
pub(crate) fn keyed_tournament(
    key: &str,
    budget: Duration,
    file: &Path,
    out: &Path,
    more: &[&str],
) -> Run {
    Referee::new()
        .args([
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--key",
            key,
            "--jobs",
            "2",
        ])
        .args(more)
        .budget(budget)
        .run()
}

/// One whole run of the tournament, shared by the tests that compare
/// with it: its folder.
fn whole_run() -> &'static Path {
    // The folder lives as long as the test binary: several tests read it.
    // A static is never dropped, so it is removed at the binary's exit.
    static WHOLE: OnceLock<(Scratch, PathBuf)> = OnceLock::new();
    extern "C" fn remove_whole() {
        if let Some((dir, _)) = WHOLE.get() {
            let _ = std::fs::remove_dir_all(dir.as_path());
        }
    }
    &WHOLE
        .get_or_init(|| {
            let dir = scratch_dir("ffa-tournament", "whole");
            // SAFETY: registers a function that takes no argument, run
            // once by the C library at exit.
            unsafe { libc::atexit(remove_whole) };
            let file = tournament_file(&dir, FORMAT);
            let out = dir.join("out");
            tournament(&file, &out, &[]).succeeds();
            (dir, out)
        })
        .1
}

/// The rows of a free-for-all's games.csv by game number.
fn rows_by_number(folder: &Path) -> BTreeMap<u64, BTreeMap<String, String>> {
    csv_records(&folder.join("games.csv"))
        .into_iter()
        .map(|r| (r["game"].parse().unwrap(), r))
        .collect()
}

const SEATS: [&str; 4] = ["a", "b", "c", "d"];

#[test]
fn a_four_player_free_for_all_plays_every_seat_equally_and_rates_every_bot() {
    let out = whole_run();
    let rows = rows_by_number(out);
    assert_eq!(rows.len(), 12, "6 bots x 8 games / 4 a game");
    assert_eq!(
        rows.keys().copied().collect::<Vec<_>>(),
        (1..=12).collect::<Vec<u64>>()
    );
    // Every bot played every seat equally often: 8 games, 2 in each seat.
    let mut seats: BTreeMap<String, [u32; 4]> = BTreeMap::new();
    for row in rows.values() {
        let mut at_table = vec![];
        for (s, letter) in SEATS.iter().enumerate() {
            let bot = &row[&format!("bot_{letter}")];
            seats.entry(bot.clone()).or_default()[s] += 1;
            at_table.push(bot.clone());
            let place: u32 = row[&format!("place_{letter}")].parse().unwrap();
            assert!((1..=4).contains(&place), "{row:?}");
            assert_eq!(row[&format!("verdict_{letter}")], "ok", "{row:?}");
        }
        at_table.sort();
        at_table.dedup();
        assert_eq!(at_table.len(), 4, "four different bots: {row:?}");
    }
    assert_eq!(seats.len(), FIELD.len(), "{seats:?}");
    for (bot, count) in &seats {
        assert_eq!(*count, [2, 2, 2, 2], "{bot}'s seats");
    }
    // The rotations of a table share its seed and its bots.
    for table in 0..3u64 {
        let games: Vec<&BTreeMap<String, String>> =
            (1..=4).map(|r| &rows[&(table * 4 + r)]).collect();
        assert!(games.iter().all(|g| g["seed"] == games[0]["seed"]));
        assert_eq!(games[1]["bot_b"], games[0]["bot_a"], "turned one seat");
    }
    // A rating and its interval for every bot, ranked by rating.
    let standings = csv_records(&out.join("standings.csv"));
    assert_eq!(standings.len(), FIELD.len());
    let mut last = f64::INFINITY;
    for (i, s) in standings.iter().enumerate() {
        assert_eq!(s["rank"], (i + 1).to_string());
        assert_eq!(s["games"], "8", "{s:?}");
        let rating: f64 = s["rating"].parse().unwrap();
        let (low, high): (f64, f64) = (
            s["rating_low"].parse().unwrap(),
            s["rating_high"].parse().unwrap(),
        );
        assert!(low < rating && rating < high, "{s:?}");
        assert!(rating <= last, "ranked by rating: {standings:?}");
        last = rating;
        let average: f64 = s["average_place"].parse().unwrap();
        assert!((1.0..=4.0).contains(&average), "{s:?}");
    }
    // The starters outride the spirals: the best rated is a starter.
    assert!(standings[0]["bot"].starts_with("starter"), "{standings:?}");
    // The pairwise table: each pair that met, both ways, shares adding to 1.
    let pairwise = csv_records(&out.join("pairwise.csv"));
    assert!(!pairwise.is_empty());
    for p in &pairwise {
        let back = pairwise
            .iter()
            .find(|q| q["bot"] == p["other"] && q["other"] == p["bot"])
            .unwrap_or_else(|| panic!("{p:?} has no reverse"));
        let sum: f64 = p["ahead"].parse::<f64>().unwrap() + back["ahead"].parse::<f64>().unwrap();
        assert_eq!(sum, p["games"].parse::<f64>().unwrap(), "{p:?} {back:?}");
    }
    // The report: standings with intervals, the pairwise table, and a
    // game page naming all four players of its game.
    let index = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(
        index.contains("id=\"pairwise\"") && index.contains("95% interval"),
        "{index}"
    );
    for (name, _) in FIELD {
        assert!(index.contains(name), "{name} in the report");
    }
    // (minijinja writes the link's `/` as `&#x2f;`, which browsers read back.)
    assert!(
        index.contains("href=\"games/game-000001.html\"")
            || index.contains("href=\"games&#x2f;game-000001.html\""),
        "{index}"
    );
    let page = std::fs::read_to_string(out.join("report/games/game-000001.html")).unwrap();
    for letter in SEATS {
        let bot = &rows[&1][&format!("bot_{letter}")];
        let seat = letter.to_ascii_uppercase();
        assert!(
            page.contains(&format!("{seat}: {bot}")),
            "seat {seat} is {bot}:\n{page}"
        );
    }
}

#[test]
fn resume_of_a_partly_played_folder_gives_the_same_standings() {
    let whole = whole_run();
    let dir = scratch_dir("ffa-tournament", "resume");
    let file = tournament_file(&dir, FORMAT);
    let out = dir.join("out");
    // The folder as a kill leaves it: five games whole, the sixth cut in
    // the middle of its row.
    std::fs::create_dir_all(&out).unwrap();
    let text = std::fs::read_to_string(whole.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut partial = lines[..6].join("\n");
    partial.push('\n');
    partial.push_str(&lines[6][..lines[6].len() / 2]);
    std::fs::write(out.join("games.csv"), partial).unwrap();
    std::fs::copy(dir.join("cycles.toml"), out.join("tournament.toml")).unwrap();
    let run = tournament(&file, &out, &["--resume"]).succeeds();
    assert!(
        run.stderr.contains("5 of 12 games already in"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("7 games played now, 12 in"),
        "{}",
        run.stdout
    );
    for table in ["standings.csv", "pairwise.csv"] {
        assert_eq!(
            std::fs::read_to_string(out.join(table)).unwrap(),
            std::fs::read_to_string(whole.join(table)).unwrap(),
            "{table}"
        );
    }
    // Resumed again: nothing to play, the same standings.
    let run = tournament(&file, &out, &["--resume"]).succeeds();
    assert!(
        run.stdout.contains("0 games played now, 12 in"),
        "{}",
        run.stdout
    );
    // Without --resume, the folder's results are kept: refused.
    tournament(&file, &out, &[]).refused_with("already holds results");
    // A row edited by hand (two seats' bots swapped) is not the schedule's
    // game: refused, naming the game.
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<&str> = lines[1].split(',').collect();
    let game = fields[0].to_string();
    fields.swap(5, 12);
    lines[1] = fields.join(",");
    std::fs::write(out.join("games.csv"), lines.join("\n") + "\n").unwrap();
    tournament(&file, &out, &["--resume"]).refused_with(&format!(
        "game {game}: its bots or seed differ from the schedule's"
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merged_give_the_standings_of_one_run() {
    let whole = whole_run();
    let dir = scratch_dir("ffa-tournament", "shards");
    let file = tournament_file(&dir, FORMAT);
    let (one, two, merged) = (dir.join("one"), dir.join("two"), dir.join("merged"));
    tournament(&file, &one, &["--shard", "1/2"]).succeeds();
    let merge = |folders: &[&Path], out: &Path| {
        let mut args = vec!["merge".to_string()];
        args.extend(folders.iter().map(|f| f.to_string_lossy().into_owned()));
        args.extend(["--out".into(), out.to_string_lossy().into_owned()]);
        Referee::new().args(args).budget(BUDGET).run()
    };
    // One shard alone is not the tournament.
    merge(&[&one], &dir.join("alone")).refused_with("games are missing");
    tournament(&file, &two, &["--shard", "2/2"]).succeeds();
    let counts = [&one, &two].map(|f| rows_by_number(f).len());
    assert_eq!(counts, [6, 6], "the games split between the shards");
    merge(&[&one, &two], &merged)
        .succeeds()
        .stdout_has("12 of 12 games merged");
    for table in ["standings.csv", "pairwise.csv"] {
        assert_eq!(
            std::fs::read_to_string(merged.join(table)).unwrap(),
            std::fs::read_to_string(whole.join(table)).unwrap(),
            "{table}"
        );
    }
    // Its report has every game's page, with all four players.
    Referee::new()
        .args(["report", merged.to_str().unwrap()])
        .budget(BUDGET)
        .run()
        .succeeds();
    assert!(merged.join("report/games/game-000012.html").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_free_for_all_files_are_refused_naming_the_field() {
    let dir = scratch_dir("ffa-tournament", "refused");
    let out = dir.join("out");
    let refused = |fields: &str, message: &str| {
        let file = tournament_file(&dir, fields);
        tournament(&file, &out, &[]).refused_with(message);
        assert!(!out.join("games.csv").exists(), "{fields}");
    };
    refused(
        "format = \"free-for-all\"\nplayers_per_game = 7\ngames_per_bot = 7",
        "players_per_game: 7 players at a table is not possible with 6 bots; give 2 to 6",
    );
    refused(
        "format = \"free-for-all\"\nplayers_per_game = 4\ngames_per_bot = 6",
        "games_per_bot: 6 does not fill whole tables",
    );
    refused(
        "format = \"free-for-all\"\nplayers_per_game = 4\ngames_per_bot = 4",
        "give 8",
    );
    refused(
        "format = \"free-for-all\"\ngames_per_bot = 8",
        "players_per_game: a free-for-all needs players_per_game = K",
    );
    refused(
        "format = \"round-robin\"\nplayers_per_game = 4",
        "players_per_game: only a free-for-all has players_per_game",
    );
    // The judge takes 3 to 6 players: tables of two are its refusal (it
    // says so at the start of the first game).
    refused(
        "format = \"free-for-all\"\nplayers_per_game = 2\ngames_per_bot = 2",
        "light_cycles is played by 3 to 6 players, not 2",
    );
    let file = tournament_file(&dir, FORMAT);
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(
        "[grading]\nreferences = [\"spiral-nesw\"]\n\
         bands = [{ against = \"spiral-nesw\", win_rate = 0.5, marks = 10 }]\n",
    );
    std::fs::write(&file, text).unwrap();
    tournament(&file, &out, &[]).refused_with("a free-for-all is graded by places");
    // The tables a run would play, and nothing written.
    let file = tournament_file(&dir, FORMAT);
    let dry = dir.join("dry");
    let run = tournament(&file, &dry, &["--dry-run"]).succeeds();
    assert!(
        run.stdout
            .contains("3 tables, each played 4 times with the seats rotated, 12 games"),
        "{}",
        run.stdout
    );
    let tables = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("table "))
        .count();
    assert_eq!(tables, 3, "{}", run.stdout);
    assert!(!dry.exists());
    // A built-in game is played by two.
    let file = dir.join("arrow5.toml");
    std::fs::write(
        &file,
        "game = \"arrow5\"\nformat = \"free-for-all\"\nplayers_per_game = 3\ngames_per_bot = 3\n\
         [[bots]]\nname = \"x\"\nbot = \"true\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\n\
         [[bots]]\nname = \"z\"\nbot = \"true\"\n",
    )
    .unwrap();
    tournament(&file, &out, &[])
        .refused_with("arrow5.toml:2: format: the built-in game arrow5 is played by two");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn update_of_a_free_for_all_with_another_file_is_refused() {
    let dir = scratch_dir("ffa-tournament", "update");
    let out = dir.join("out");
    let file = tournament_file(&dir, FORMAT);
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("tournament.toml"), "name = \"another\"\n").unwrap();
    tournament(&file, &out, &["--update"]).refused_with("holds a free-for-all of another file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_after_a_kill_gives_the_standings_of_one_run() {
    let whole = whole_run();
    let dir = scratch_dir("ffa-tournament", "kill");
    let file = tournament_file(&dir, FORMAT);
    // Graded by places (the spirals are references: not graded).
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(GRADING);
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let mut child = Referee::new()
        .args([
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--key",
            KEY,
            "--jobs",
            "2",
        ])
        .command()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once a few games are in (or when it ended first: then the
    // resume has nothing to play, and the standings must still agree).
    let deadline = std::time::Instant::now() + BUDGET;
    loop {
        let rows = std::fs::read_to_string(out.join("games.csv"))
            .map_or(0, |t| t.lines().count().saturating_sub(1));
        if rows >= 3 || child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no games recorded");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill(); // SIGKILL
    child.wait().unwrap();
    let run = tournament(&file, &out, &["--resume"]).succeeds();
    assert_eq!(rows_by_number(&out).len(), 12);
    // Two jobs end games out of order; the finished file is in the
    // schedule's order, as an uninterrupted run's.
    let numbers: Vec<u64> = csv_records(&out.join("games.csv"))
        .iter()
        .map(|r| r["game"].parse().unwrap())
        .collect();
    assert_eq!(numbers, (1..=12).collect::<Vec<u64>>());
    // The grades: each team's mark from its places as standings.csv has
    // them, the highest band met.
    let grades = csv_records(&out.join("grades/grades.csv"));
    let standings = csv_records(&out.join("standings.csv"));
    assert_eq!(grades.len(), 4, "{grades:?}");
    for g in &grades {
        let s = standings.iter().find(|s| s["bot"] == g["team"]).unwrap();
        let average: f64 = s["average_place"].parse().unwrap();
        let firsts: f64 = s["first_share"].parse().unwrap();
        let wanted = if firsts >= 0.5 {
            "80"
        } else if average <= 2.5 {
            "50"
        } else {
            "0"
        };
        assert_eq!(
            g["marks"].parse::<f64>().unwrap().to_string(),
            wanted,
            "{g:?} {s:?}"
        );
        assert!(
            run.stdout
                .contains(&format!("grade: {}: {wanted} marks", g["team"])),
            "{}",
            run.stdout
        );
    }
    assert!(grades
        .iter()
        .all(|g| g["team"] != "spiral-nesw" && g["team"] != "spiral-wsen"));
    let index = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(index.contains("id=\"grades\""), "{index}");
    // Graded again with other marks, without playing: each team its band's
    // new mark.
    let before: Vec<(String, String)> = grades
        .iter()
        .map(|g| (g["team"].clone(), g["marks"].clone()))
        .collect();
    let regraded = dir.join("regraded.toml");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("marks = 50", "marks = 7")
        .replace("marks = 80", "marks = 9");
    std::fs::write(&regraded, text).unwrap();
    Referee::new()
        .args([
            "grade",
            out.to_str().unwrap(),
            "--file",
            regraded.to_str().unwrap(),
        ])
        .budget(BUDGET)
        .run()
        .succeeds();
    let after = csv_records(&out.join("grades/grades.csv"));
    for ((team, marks), g) in before.iter().zip(&after) {
        let wanted = match marks.parse::<f64>().unwrap() as u32 {
            50 => "7",
            80 => "9",
            _ => "0",
        };
        assert_eq!(&g["team"], team);
        assert_eq!(
            g["marks"].parse::<f64>().unwrap().to_string(),
            wanted,
            "{g:?}"
        );
    }
    for table in ["standings.csv", "pairwise.csv"] {
        assert_eq!(
            std::fs::read_to_string(out.join(table)).unwrap(),
            std::fs::read_to_string(whole.join(table)).unwrap(),
            "{table}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_changed_bot_is_refused_on_resume_and_replayed_on_update() {
    let dir = scratch_dir("ffa-tournament", "changed");
    let file = tournament_file(&dir, FORMAT);
    // spiral-snew is a copy of its own, to change.
    let spiral = root().join("tournaments/games/light_cycles/bots/spiral.py");
    let mine = dir.join("mine.py");
    std::fs::copy(&spiral, &mine).unwrap();
    let text = std::fs::read_to_string(&file).unwrap().replace(
        &format!("{} SNEW", spiral.to_string_lossy()),
        &format!("{} SNEW", mine.to_string_lossy()),
    );
    assert!(text.contains("mine.py SNEW"), "{text}");
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    tournament(&file, &out, &[]).succeeds();
    let before = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    // Unchanged: --update plays nothing.
    tournament(&file, &out, &["--update"])
        .succeeds()
        .stdout_has("0 games played now, 12 in");
    let mut code = std::fs::read_to_string(&mine).unwrap();
    code.push_str("# changed\n");
    std::fs::write(&mine, code).unwrap();
    tournament(&file, &out, &["--resume"]).refused_with("'spiral-snew' changed");
    // --update plays its 8 games again, and only those.
    tournament(&file, &out, &["--update"])
        .succeeds()
        .stdout_has("8 games played now, 12 in");
    assert_eq!(rows_by_number(&out).len(), 12);
    // It plays as before (a comment changed): the same standings.
    assert_eq!(
        std::fs::read_to_string(out.join("standings.csv")).unwrap(),
        before
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game whose transcript cannot be written (its path taken by a folder;
/// on a contest's machine, a full disk) still counts, and the run says the
/// transcript is missing, as a tournament of two-player games does; so
/// does a later `--resume`, which cannot write it again.
#[test]
fn a_transcript_that_could_not_be_written_is_said() {
    let dir = scratch_dir("ffa-tournament", "transcript-not-written");
    let file = tournament_file(&dir, FORMAT);
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("transcripts/game-000003.jsonl")).unwrap();
    for more in [&[][..], &["--resume"][..]] {
        let run = tournament(&file, &out, &[&["--no-report"][..], more].concat()).succeeds();
        assert!(
            run.stdout.contains(", 12 in ")
                && run.stdout.contains("; 1 transcripts could not be written"),
            "{more:?}: {}",
            run.stdout
        );
    }
    assert_eq!(rows_by_number(&out).len(), 12);
}

/// A disk that fills while a game's row is appended (here a file size
/// limit, which cuts the write short as a full disk does, without root):
/// the run says, as a tournament of two-player games does, how many games
/// were not played and that `--resume` plays them, with the standings of
/// the games kept (the row cut short is no game); the resume then gives
/// the standings of an uninterrupted run.
#[test]
fn a_full_disk_says_what_is_kept_and_resume_finishes() {
    let whole = whole_run();
    let dir = scratch_dir("ffa-tournament", "full-disk");
    let file = tournament_file(&dir, FORMAT);
    let out = dir.join("out");
    // Files of at most 4 blocks (of 512 bytes in POSIX sh, of 1 KiB in
    // bash): the tournament's own files fit, games.csv does not. A soft
    // limit, so that the sandbox may still set the bots' own, and SIGXFSZ
    // ignored, so that the write fails (EFBIG) instead.
    let mut shell = std::process::Command::new("sh");
    shell
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -S -f 4; exec \"$@\"")
        .arg("sh")
        .arg(referee_bin())
        .args(["tournament", file.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--key", KEY, "--jobs", "2", "--no-report"]);
    let run = run_within(shell, BUDGET);
    assert_eq!(run.status, 1, "{}", run.stderr);
    for said in [
        "cannot write a game row",
        "standings.csv covers them",
        "--resume",
    ] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    assert!(out.join("standings.csv").is_file());
    tournament(&file, &out, &["--resume", "--no-report"]).succeeds();
    assert_eq!(
        std::fs::read(whole.join("standings.csv")).unwrap(),
        std::fs::read(out.join("standings.csv")).unwrap()
    );
}
