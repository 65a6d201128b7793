//! `referee tournament` and `referee merge` end to end: files written, a
//! SIGKILL and --resume, shards merged, bad files, failing bots, Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// A round robin of deterministic sample bots in a fresh folder.
fn tournament_file(dir: &Path, games_per_pairing: u32, extra_bots: &str) -> PathBuf {
    let text = format!(
        "name = \"t\"\ngame = \"arrow5\"\ngames_per_pairing = {games_per_pairing}\nseed = 99\n\
         [options]\ncodes = \"random\"\nmax_rounds = 30\n\
         [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"random2\"\nbot = \"{}\"\n{extra_bots}",
        sample_bin("arrow5_strong"),
        sample_bin("arrow5_random"),
        sample_bin("arrow5_random"),
    );
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    // Runs of one tournament that must give the same games share the
    // referee's secret key (random codes are drawn with it).
    std::fs::write(dir.join("shared.key"), "5e".repeat(32)).unwrap();
    path
}

/// The key file `tournament_file` writes beside the tournament file.
fn key_file(file: &Path) -> String {
    file.with_file_name("shared.key")
        .to_str()
        .unwrap()
        .to_string()
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

fn run_tournament(file: &Path, out: &Path, extra: &[&str]) -> Run {
    let key = key_file(file);
    if !Path::new(&key).exists() {
        std::fs::write(&key, "5e".repeat(32)).unwrap();
    }
    let mut args = vec![
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
        "--key-file",
        &key,
    ];
    args.extend_from_slice(extra);
    referee(&args, BUDGET)
}

#[test]
fn a_round_robin_writes_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 4, "");
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let games = csv_rows(&out.join("games.csv"));
    assert_eq!(games.len(), 1 + 3 * 4, "header + 12 games");
    let standings = csv_rows(&out.join("standings.csv"));
    assert_eq!(
        standings[0][..7],
        ["rank", "bot", "played", "wins", "draws", "losses", "points"]
    );
    for row in &standings[1..] {
        assert_eq!(row[2], "8", "each bot plays 8 games: {row:?}");
        let (w, d, l): (u32, u32, u32) = (
            row[3].parse().unwrap(),
            row[4].parse().unwrap(),
            row[5].parse().unwrap(),
        );
        assert_eq!(w + d + l, 8);
        assert_eq!(row[6].parse::<u32>().unwrap(), 2 * w + d);
    }
    assert_eq!(csv_rows(&out.join("crosstable.csv")).len(), 4);
    assert_eq!(csv_rows(&out.join("timings.csv")).len(), 4);
    assert_eq!(
        std::fs::read_dir(out.join("transcripts")).unwrap().count(),
        12
    );
    assert!(
        run.stdout.contains("rating (95%)"),
        "summary table: {}",
        run.stdout
    );
    // Running again into the same folder without --resume is refused.
    let again = run_tournament(&file, &out, &[]);
    assert_eq!(again.status, 2);
    assert!(again.stderr.contains("--resume"), "{}", again.stderr);
}

#[test]
fn sigkill_then_resume_gives_the_same_standings() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 20, "");
    let whole = dir.path().join("whole");
    assert_eq!(run_tournament(&file, &whole, &[]).status, 0);

    // Kill a second run once some (a varying number of) games are written.
    let killed = dir.path().join("killed");
    let mut child = Command::new(referee_bin())
        .args([
            "tournament",
            file.to_str().unwrap(),
            "--out",
            killed.to_str().unwrap(),
            "--jobs",
            "2",
            "--key-file",
            &key_file(&file),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let want = 5 + (std::process::id() as usize % 20);
    let start = Instant::now();
    loop {
        let rows = std::fs::read_to_string(killed.join("games.csv"))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if rows > want || start.elapsed() > BUDGET {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let partial = csv_rows(&killed.join("games.csv")).len() - 1;
    assert!(
        partial < 60,
        "the kill came before the end ({partial} games)"
    );

    let resumed = run_tournament(&file, &killed, &["--resume"]);
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    let mut games: Vec<Vec<String>> = csv_rows(&killed.join("games.csv"))[1..].to_vec();
    games.sort_by_key(|r| r[0].parse::<u64>().unwrap());
    let numbers: Vec<u64> = games.iter().map(|r| r[0].parse().unwrap()).collect();
    assert_eq!(
        numbers,
        (1..=60).collect::<Vec<_>>(),
        "no game lost or repeated"
    );
    assert_eq!(
        std::fs::read(whole.join("standings.csv")).unwrap(),
        std::fs::read(killed.join("standings.csv")).unwrap()
    );
}

#[test]
fn three_shards_merge_into_the_same_standings() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 6, "");
    let whole = dir.path().join("whole");
    assert_eq!(run_tournament(&file, &whole, &[]).status, 0);
    // The shards run as separate processes, at the same time.
    let shards: Vec<(PathBuf, std::process::Child)> = (1..=3)
        .map(|i| {
            let out = dir.path().join(format!("shard{i}"));
            let child = Command::new(referee_bin())
                .args([
                    "tournament",
                    file.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                    "--jobs",
                    "1",
                ])
                .args(["--shard", &format!("{i}/3"), "--key-file", &key_file(&file)])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            (out, child)
        })
        .collect();
    let mut folders = vec![];
    for (out, mut child) in shards {
        assert!(child.wait().unwrap().success());
        folders.push(out.to_str().unwrap().to_string());
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["merge"];
    args.extend(folders.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let run = referee(&args, BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("18 of 18 games merged"),
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains("no transcript"), "{}", run.stderr);
    for file in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            std::fs::read(whole.join(file)).unwrap(),
            std::fs::read(merged.join(file)).unwrap(),
            "{file}"
        );
    }
    // The merged folder holds every game's transcript, and its report a
    // viewer for each, as one run's would.
    let transcripts = std::fs::read_dir(merged.join("transcripts"))
        .unwrap()
        .count();
    assert_eq!(transcripts, 18);
    let run = referee(&["report", merged.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("18 game pages"), "{}", run.stdout);
    let standings_table = |folder: &Path| {
        let html = std::fs::read_to_string(folder.join("report/index.html")).unwrap();
        let start = html.find("id=\"standings\"").unwrap();
        html[start..start + html[start..].find("</table>").unwrap()].to_string()
    };
    assert_eq!(standings_table(&whole), standings_table(&merged));
    // A shard that lost a transcript still merges, with a warning.
    let lost = Path::new(&folders[0]).join("transcripts");
    let first = std::fs::read_dir(&lost)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(first).unwrap();
    let again = dir.path().join("merged-again");
    let mut args = vec!["merge"];
    args.extend(folders.iter().map(String::as_str));
    args.extend(["--out", again.to_str().unwrap()]);
    let run = referee(&args, BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("1 of the 18 games merged have no transcript"),
        "{}",
        run.stderr
    );
    // Merging a folder of another tournament is refused.
    let other_file = dir.path().join("other.toml");
    std::fs::write(
        &other_file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("seed = 99", "seed = 98"),
    )
    .unwrap();
    let other = dir.path().join("other");
    let run = referee(
        &[
            "tournament",
            other_file.to_str().unwrap(),
            "--out",
            other.to_str().unwrap(),
            "--shard",
            "1/9",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let run = referee(
        &[
            "merge",
            &folders[0],
            other.to_str().unwrap(),
            "--out",
            dir.path().join("bad").to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("different tournament file"),
        "{}",
        run.stderr
    );
    // A merge refused writes nothing, not even its folder.
    assert!(!dir.path().join("bad").exists());
    // A merged folder is never merged over...
    let mut args = vec!["merge"];
    args.extend(folders.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let run = referee(&args, BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("already holds results"),
        "{}",
        run.stderr
    );
    // ...but one a killed merge left half written (its games.csv there,
    // not its tables nor its description) is written again whole.
    for file in ["standings.csv", "crosstable.csv", "tournament.json"] {
        std::fs::remove_file(merged.join(file)).unwrap();
    }
    std::fs::write(merged.join(".merging"), "").unwrap();
    let run = referee(&args, BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!merged.join(".merging").exists());
    for file in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            std::fs::read(whole.join(file)).unwrap(),
            std::fs::read(merged.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn a_broken_file_names_the_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "game = \"arrow5\"\n\n[[bots]]\nname = \"a\"\nbot = \"./nope\"\n[[bots]]\nname = \"b\"\nbot = \"true\"\n").unwrap();
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            dir.path().join("o").to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("bad.toml:5: bots.bot of 'a'"),
        "{}",
        run.stderr
    );
    std::fs::write(&file, "game = \"arrow5\"\ngames_per_pairing = \"many\"\n").unwrap();
    let run = referee(&["tournament", file.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("bad.toml:2:"), "{}", run.stderr);
}

/// A bot's name goes into CSV files opened in spreadsheets, the HTML
/// report and terminal lines: a formula, a separator, a line break or a
/// character that shows as nothing or reorders the text is refused with
/// the line it is on, and nothing is written.
#[test]
fn a_bot_name_that_is_a_formula_a_comma_or_two_lines_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("names.toml");
    let bot = sample_bin("arrow5_random");
    for (name, why) in [
        ("=HYPERLINK(1)", "formula"),
        ("@cmd", "formula"),
        ("a,b", "','"),
        ("two\\nlines", "control character"),
        // Names that read as another's: reversed, or with an invisible
        // character.
        ("\\u202Egnorts", "reorders the text"),
        ("strong\\u200B", "shows as nothing"),
    ] {
        std::fs::write(
            &file,
            format!(
                "game = \"arrow5\"\n[[bots]]\nname = \"ok\"\nbot = \"{bot}\"\n\
                 [[bots]]\nname = \"{name}\"\nbot = \"{bot}\"\n"
            ),
        )
        .unwrap();
        let out = dir.path().join("o");
        let run = run_tournament(&file, &out, &[]);
        assert_eq!(run.status, 2, "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains("names.toml:6: bots.name") && run.stderr.contains(why),
            "{name}: {}",
            run.stderr
        );
        assert!(!out.exists(), "{name}: nothing is written");
    }
}

#[test]
fn a_time_bank_in_the_file_reaches_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bank.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 2\n[options]\nmax_rounds = 3\n\
             [limits]\ntime_bank = \"10s\"\n\
             [[bots]]\nname = \"a\"\nbot = \"{0}\"\n[[bots]]\nname = \"b\"\nbot = \"{0}\"\n",
            sample_bin("arrow5_random")
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    // The record at the end of each transcript replays with the bank.
    for entry in std::fs::read_dir(out.join("transcripts")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let result: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let replay = result["record"]["replay"].as_str().unwrap();
        assert!(replay.contains("--time-bank 10s"), "{replay}");
    }
    // Measured CPU goes to timings.csv, beside the wall times.
    let timings = csv_rows(&out.join("timings.csv"));
    assert!(
        timings[0].contains(&"max_move_cpu_ms".to_string()),
        "{:?}",
        timings[0]
    );
    let games = csv_rows(&out.join("games.csv"));
    assert!(
        games[0].contains(&"cpu_max_ms_a".to_string()),
        "{:?}",
        games[0]
    );

    // A bad value names its line and field, in [limits] and on a bot.
    std::fs::write(
        &file,
        "game = \"arrow5\"\n[limits]\ntime_bank = \"a while\"\n[[bots]]\nname = \"a\"\nbot = \"true\"\n[[bots]]\nname = \"b\"\nbot = \"true\"\n",
    )
    .unwrap();
    let run = referee(&["tournament", file.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("bank.toml:3: limits.time_bank: 'a while' is not a duration"),
        "{}",
        run.stderr
    );
    std::fs::write(
        &file,
        "game = \"arrow5\"\n[[bots]]\nname = \"a\"\nbot = \"true\"\ntime_bank = \"-1s\"\n[[bots]]\nname = \"b\"\nbot = \"true\"\n",
    )
    .unwrap();
    let run = referee(&["tournament", file.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("bank.toml:5: bots.time_bank"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_spoilt_games_csv_row_is_named_and_the_store_writes_it_anew() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 4, "");
    let out = dir.path().join("out");
    assert_eq!(run_tournament(&file, &out, &[]).status, 0);
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    lines[3] = "garbage,row";
    std::fs::write(out.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let run = run_tournament(&file, &out, &["--resume"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("games.csv, line 4") && run.stderr.contains("--resume"),
        "{}",
        run.stderr
    );
    std::fs::remove_file(out.join("games.csv")).unwrap();
    let run = run_tournament(&file, &out, &["--resume"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        games
    );
    assert_eq!(
        std::fs::read_to_string(out.join("standings.csv")).unwrap(),
        standings
    );
}

#[test]
fn resuming_a_folder_with_other_columns_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 2, "");
    let out = dir.path().join("out");
    assert_eq!(run_tournament(&file, &out, &[]).status, 0);
    // As an older referee wrote it: without the CPU-per-move columns.
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let header = games.lines().next().unwrap();
    let older = header.replace(",cpu_max_ms_a,cpu_max_ms_b", "");
    assert_ne!(older, header);
    std::fs::write(out.join("games.csv"), format!("{older}\n")).unwrap();
    let run = run_tournament(&file, &out, &["--resume"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("another version of the referee")
            && run.stderr.contains("it lacks cpu_max_ms_a, cpu_max_ms_b"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bot_that_crashes_every_game_loses_them_and_the_tournament_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let extra = format!(
        "[[bots]]\nname = \"crasher\"\nbot = \"{}\"\n",
        sample_file("hostile/crasher.py")
    );
    let file = tournament_file(dir.path(), 2, &extra);
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let standings = csv_rows(&out.join("standings.csv"));
    let crasher = standings.iter().find(|r| r[1] == "crasher").unwrap();
    assert_eq!(crasher[2..7], ["6", "0", "0", "6", "0"], "{crasher:?}");
    assert_eq!(crasher[8], "6", "six crash disqualifications: {crasher:?}");
    assert_eq!(csv_rows(&out.join("games.csv")).len(), 1 + 6 * 2);
}

#[test]
fn ctrl_c_stops_at_once_and_leaves_standings() {
    let dir = tempfile::tempdir().unwrap();
    // Slow games (the sleeper times out after 60 s) so Ctrl-C lands mid-game.
    let sleeper = format!(
        "python3 {} {}",
        sample_file("hostile/sleeper.py"),
        ctrl_c_tag()
    );
    let text = format!(
        "game = \"arrow5\"\n[limits]\ntime_limit = \"60s\"\n[[bots]]\nname = \"random\"\nbot = \"{}\"\n[[bots]]\nname = \"sleeper\"\nbot = \"{}\"\n",
        sample_bin("arrow5_random"),
        sleeper
    );
    let file = dir.path().join("slow.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    let mut child = Command::new(referee_bin())
        .args([
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until both games are under way (the sleeper is running).
    let start = Instant::now();
    while processes_with(&ctrl_c_tag()).len() < 2 && start.elapsed() < BUDGET {
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Instant::now();
    unsafe_sigint(child.id());
    let status = child.wait().unwrap();
    let stopped_in = sent.elapsed();
    assert_eq!(status.code(), Some(130));
    assert!(
        stopped_in < Duration::from_secs(30),
        "stopped in {stopped_in:?}, not after the 60 s limit"
    );
    assert!(out.join("standings.csv").exists());
    assert!(processes_with(&ctrl_c_tag()).is_empty(), "bots left behind");
}

/// A tag on the sleeper's command line: other tests run the same fixture.
fn ctrl_c_tag() -> String {
    format!("ctrl-c-test-{}", std::process::id())
}

fn unsafe_sigint(pid: u32) {
    let status = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// games.csv read by column name (the csv crate: a detail may hold commas).
fn standing<'a>(
    rows: &'a [std::collections::BTreeMap<String, String>],
    bot: &str,
) -> &'a std::collections::BTreeMap<String, String> {
    rows.iter()
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("no standing for {bot}: {rows:?}"))
}

/// Issue 19: a bot named `draw` was never credited with a win, since
/// games.csv wrote the winner's name or the word `draw` in one column. The
/// result (a, b or draw) is now a column of its own.
#[test]
fn a_bot_named_draw_is_credited_with_its_wins() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("draw.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"t\"\ngame = \"arrow5\"\ngames_per_pairing = 6\nseed = 7\n\
             [options]\ncodes = \"random\"\nmax_rounds = 30\n\
             [[bots]]\nname = \"draw\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"weak\"\nbot = \"{}\"\n",
            sample_bin("arrow5_strong"),
            sample_bin("arrow5_random"),
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let games = csv_records(&out.join("games.csv"));
    assert_eq!(games.len(), 6);
    let (mut wins_of_draw, mut draws, mut losses_of_draw) = (0, 0, 0);
    for g in &games {
        let named = match g["result"].as_str() {
            "a" => g["bot_a"].as_str(),
            "b" => g["bot_b"].as_str(),
            "draw" => "",
            other => panic!("result {other:?}: {g:?}"),
        };
        assert_eq!(
            g["winner"], named,
            "the winner column names the winner: {g:?}"
        );
        wins_of_draw += u32::from(named == "draw");
        draws += u32::from(named.is_empty());
        losses_of_draw += u32::from(named == "weak");
    }
    // The codes come from the seed and the key (fixed by run_tournament):
    // the strong bot wins most games, not all. What must hold is that the
    // standings count its wins as wins and no draw as its own.
    assert!(wins_of_draw > 0, "the strong bot won nothing? {games:?}");
    let standings = csv_records(&out.join("standings.csv"));
    let draw = standing(&standings, "draw");
    assert_eq!(draw["wins"], wins_of_draw.to_string(), "{standings:?}");
    assert_eq!(draw["draws"], draws.to_string(), "{standings:?}");
    assert_eq!(draw["losses"], losses_of_draw.to_string(), "{standings:?}");
    let weak = standing(&standings, "weak");
    assert_eq!(weak["wins"], losses_of_draw.to_string(), "{standings:?}");
    let first = if wins_of_draw > losses_of_draw {
        "draw"
    } else {
        "weak"
    };
    if wins_of_draw != losses_of_draw {
        assert_eq!(standing(&standings, first)["rank"], "1", "{standings:?}");
    }
}

/// Issue 19: the `first` column named bot A even when the game had B move
/// first (Safe Cracker's `first = "b"`): it comes from the game now.
#[test]
fn the_first_column_names_the_bot_the_game_had_move_first() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("first.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"t\"\ngame = \"safecracker\"\ngames_per_pairing = 2\nseed = 3\n\
             [options]\nfirst = \"b\"\n\
             [[bots]]\nname = \"optimal\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            sample_bin("safecracker_optimal"),
            sample_bin("safecracker_random"),
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let games = csv_records(&out.join("games.csv"));
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["first"], g["bot_b"], "{g:?}");
    }
    // The match record says so too.
    let record = referee(
        &[
            "match",
            "safecracker",
            &sample_bin("safecracker_optimal"),
            &sample_bin("safecracker_random"),
            "--first",
            "b",
            "--seed",
            "3",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(record.status, 0, "{}", record.stderr);
    assert_eq!(record.json()["first"], "b", "{}", record.stdout);
}

/// Issue 18 §4.2: a C bot whose source does not compile loses every game
/// with the `compile` verdict, and the standings count it (standings.csv's
/// `dq_compile`, the console's `dq` column) like any other disqualification.
#[test]
fn compile_disqualifications_are_in_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.c");
    std::fs::write(&broken, "int main(void) { return missing_name; }\n").unwrap();
    let file = dir.path().join("compile.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"t\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nseed = 5\n\
             [options]\ncodes = \"random\"\nmax_rounds = 30\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"broken\"\nbot = \"{}\"\n",
            sample_bin("arrow5_random"),
            broken.display(),
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let standings = csv_records(&out.join("standings.csv"));
    let b = standing(&standings, "broken");
    assert_eq!(b["dq_compile"], "2", "{standings:?}");
    assert_eq!(b["losses"], "2", "{standings:?}");
    assert_eq!(standing(&standings, "random")["dq_compile"], "0");
    // The console's table: the last column is the disqualifications.
    let line = run
        .stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("broken"))
        .unwrap_or_else(|| panic!("no line for broken:\n{}", run.stdout));
    assert_eq!(line.split_whitespace().last(), Some("2"), "{}", run.stdout);
}

/// A results folder of a referee that wrote the winner's name or `draw` in
/// `winner` and had no `result` column: `merge` reads it as it was meant,
/// and `--resume` says plainly that it cannot append to it.
#[test]
fn folders_written_before_the_result_column_merge_and_refuse_resume_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 2, "");
    let out = dir.path().join("out");
    assert_eq!(run_tournament(&file, &out, &[]).status, 0);
    let games_path = out.join("games.csv");
    // Rewrite games.csv as the older referee wrote it.
    let mut reader = csv::Reader::from_path(&games_path).unwrap();
    let header = reader.headers().unwrap().clone();
    let result = header.iter().position(|h| h == "result").unwrap();
    let winner = header.iter().position(|h| h == "winner").unwrap();
    let mut writer = csv::Writer::from_writer(vec![]);
    writer
        .write_record(header.iter().filter(|&h| h != "result"))
        .unwrap();
    for record in reader.records() {
        let record = record.unwrap();
        let mut fields: Vec<String> = record.iter().map(String::from).collect();
        if fields[result] == "draw" {
            fields[winner] = "draw".into();
        }
        fields.remove(result);
        writer.write_record(&fields).unwrap();
    }
    std::fs::write(&games_path, writer.into_inner().unwrap()).unwrap();

    let merged = dir.path().join("merged");
    let run = referee(
        &[
            "merge",
            out.to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    for name in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            std::fs::read_to_string(merged.join(name)).unwrap(),
            "{name}"
        );
    }
    // The merged games.csv is in this referee's columns.
    let rows = csv_records(&merged.join("games.csv"));
    assert!(rows
        .iter()
        .all(|r| ["a", "b", "draw"].contains(&r["result"].as_str())));

    let run = run_tournament(&file, &out, &["--resume"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("another version of the referee")
            && run.stderr.contains("it lacks result"),
        "{}",
        run.stderr
    );
}

#[test]
fn shards_played_with_different_keys_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 2, "");
    let mut folders = vec![];
    for (i, key) in [(1, "1a"), (2, "2b")] {
        let out = dir.path().join(format!("shard{i}"));
        let key = key.repeat(32);
        let run = referee(
            &[
                "tournament",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--shard",
                &format!("{i}/2"),
                "--key",
                &key,
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        folders.push(out.to_str().unwrap().to_string());
    }
    let merged = dir.path().join("merged");
    let merge = || {
        referee(
            &[
                "merge",
                &folders[0],
                &folders[1],
                "--out",
                merged.to_str().unwrap(),
            ],
            BUDGET,
        )
    };
    let run = merge();
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("another secret key") && run.stderr.contains("--key-file"),
        "{}",
        run.stderr
    );
    // A shard whose key was removed cannot pass for one of the same key.
    std::fs::remove_file(Path::new(&folders[1]).join("referee.key")).unwrap();
    let run = merge();
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("has no referee.key") && run.stderr.contains("shard2"),
        "{}",
        run.stderr
    );
}

/// Every game's replay command (in its transcript) plays it again exactly,
/// codes drawn by the referee included: it names the folder's key file.
#[test]
fn a_tournament_games_replay_command_plays_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let (knuth, random) = (
        sample_bin("mastermind_knuth"),
        sample_bin("mastermind_random"),
    );
    let file = two_bot_tournament(
        dir.path(),
        "mastermind",
        2,
        [("knuth", &knuth), ("random", &random)],
        "[options]\ncodes = \"random\"",
    );
    let out = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    for number in [1, 2] {
        let transcript = out.join(format!("transcripts/game-{number:06}.jsonl"));
        let text = std::fs::read_to_string(&transcript).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let record = last.get("record").unwrap_or(&last);
        let replay = record["replay"].as_str().unwrap();
        assert!(replay.contains("--key-file"), "{replay}");
        let words = shell_words::split(replay).unwrap();
        let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        args.push("--json");
        let again = referee(&args, BUDGET).json();
        for field in ["winner", "reason"] {
            assert_eq!(again[field], record[field], "game {number}: {field}");
        }
        for seat in 0..2 {
            assert_eq!(
                again["players"][seat]["attacks"], record["players"][seat]["attacks"],
                "game {number}"
            );
        }
    }
}

/// A bot given as a command line whose script sits beside a tournament
/// file named by a relative path (`referee tournament t/file.toml`, as the
/// README writes it): the script is found from the file's folder, not from
/// the bot's working folder.
#[test]
fn a_command_line_script_beside_a_relative_tournament_file_runs() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("contest");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(
        sample_file("python/arrow5_starter.py"),
        folder.join("mine.py"),
    )
    .unwrap();
    let bots = (1..=2)
        .map(|i| format!("[[bots]]\nname = \"p{i}\"\nbot = \"python3 mine.py {i}\"\n"))
        .collect::<String>();
    std::fs::write(
        folder.join("t.toml"),
        format!("name = \"rel\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nseed = 3\n{bots}"),
    )
    .unwrap();
    for (cwd, file) in [(dir.path(), "contest/t.toml"), (folder.as_path(), "t.toml")] {
        let run = referee_in(
            cwd,
            &[
                "tournament",
                file,
                "--out",
                "out",
                "--jobs",
                "1",
                "--no-report",
            ],
            Duration::from_secs(120),
        );
        assert_eq!(run.status, 0, "{file}: {}", run.stderr);
        let games = csv_rows(&cwd.join("out/games.csv"));
        let verdicts = games[0].iter().position(|c| c == "verdict_a").unwrap();
        for game in &games[1..] {
            assert_eq!(
                game[verdicts..verdicts + 2],
                ["ok", "ok"],
                "{file}: {game:?}"
            );
        }
    }
}

#[test]
fn a_bots_peak_memory_is_its_own_with_two_workers() {
    // A bot the referee clones inherits the referee's image until its
    // exec, and with it the referee's peak so far, which the other worker
    // may raise meanwhile: that must not be reported as the bot's. The
    // sample bot holds some 2 MiB; the referee, some 8.
    let dir = tempfile::tempdir().unwrap();
    let constant = sample_bin("arrow5_constant");
    let file = two_bot_tournament(
        dir.path(),
        "arrow5",
        300,
        [
            ("c1", &format!("{constant} 1")),
            ("c2", &format!("{constant} 2")),
        ],
        "[options]\nmax_rounds = 20",
    );
    let out = dir.path().join("out");
    let run = run_tournament(&file, &out, &["--no-report"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let rows = csv_records(&out.join("games.csv"));
    assert_eq!(rows.len(), 300);
    for row in &rows {
        for seat in ["a", "b"] {
            let kb: u64 = row[&format!("peak_memory_kb_{seat}")].parse().unwrap();
            assert!(
                kb > 0 && kb < 5 * 1024,
                "game {}: seat {seat} at {kb} KiB",
                row["game"]
            );
        }
    }
}

/// `merge` of folders that are not the whole tournament once (a shard not
/// given, a shard given twice) is refused, exit 2 and nothing written,
/// unless `--partial` says it is meant.
#[test]
fn merge_refuses_a_set_of_shards_that_is_not_whole_unless_partial() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 4, "");
    let mut folders = vec![];
    for i in 1..=2 {
        let out = dir.path().join(format!("shard{i}"));
        let run = referee(
            &[
                "tournament",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--shard",
                &format!("{i}/2"),
                "--key-file",
                &key_file(&file),
                "--no-report",
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        folders.push(out.to_str().unwrap().to_string());
    }
    let merge = |folders: &[&str], out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec!["merge"];
        args.extend_from_slice(folders);
        args.extend(["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        (referee(&args, BUDGET), out)
    };
    let (one, two) = (folders[0].as_str(), folders[1].as_str());
    let first_rows = csv_rows(&Path::new(one).join("games.csv")).len() - 1;
    assert!(first_rows < 12, "shard 1 holds every game");

    let (run, out) = merge(&[one], "missing", &[]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{} of the tournament's 12 games are missing",
            12 - first_rows
        )) && run.stderr.contains("shard 2/2 not given")
            && run.stderr.contains("--partial"),
        "{}",
        run.stderr
    );
    assert!(!out.exists(), "a refused merge wrote {}", out.display());

    let (run, out) = merge(&[one, two, one], "twice", &[]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("shard 1/2 is given twice") && run.stderr.contains("--partial"),
        "{}",
        run.stderr
    );
    assert!(!out.exists());

    // Meant: merged, exit 0, the missing games said.
    let (run, out) = merge(&[one], "partial", &["--partial"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stderr.contains("games are missing"), "{}", run.stderr);
    assert_eq!(csv_rows(&out.join("games.csv")).len() - 1, first_rows);
    let (run, _) = merge(&[one, two, one], "partial-twice", &["--partial"]);
    assert_eq!(run.status, 0, "{}", run.stderr);

    let (run, _) = merge(&[one, two], "whole", &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("12 of 12 games merged"),
        "{}",
        run.stdout
    );
}

/// A file the run writes at its end cannot be written (a full disk, or
/// here a folder where `crosstable.csv` goes): exit 1, the reason, that
/// every game is kept, and the `--resume` that writes the files; the
/// resume then writes them as a run that never failed does.
#[test]
fn a_file_not_written_at_the_end_is_written_by_resume() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), 2, "");
    let whole = dir.path().join("whole");
    let run = run_tournament(&file, &whole, &["--no-report"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("crosstable.csv/in-the-way")).unwrap();
    let run = run_tournament(&file, &out, &["--no-report"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    for said in [
        "crosstable.csv",
        "every game of this run was played and is kept",
        "(6 games)",
        "--resume",
    ] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    std::fs::remove_dir_all(out.join("crosstable.csv")).unwrap();
    let run = run_tournament(&file, &out, &["--no-report", "--resume"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    // The games' results (not their times), and the tables made of them.
    let results = |folder: &Path| -> Vec<Vec<String>> {
        csv_rows(&folder.join("games.csv"))
            .into_iter()
            .map(|row| row[..12].to_vec())
            .collect()
    };
    assert_eq!(results(&whole), results(&out));
    for name in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            std::fs::read_to_string(whole.join(name)).unwrap(),
            std::fs::read_to_string(out.join(name)).unwrap(),
            "{name}"
        );
    }
}
