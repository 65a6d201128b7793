//! `referee check` at tables of more than two players
//! (`players_per_game`): Light Cycles on a small grid, the bot under test
//! at tables of the starters. A starter passes an average rank; a bot that
//! crashes at its first turn fails it (exit 1) with the tables named; the
//! seats rotate evenly (read back from the kept transcripts); bad
//! combinations are refused (exit 2) naming the field.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::check::junit_cases;
use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);

fn light_cycles(relative: &str) -> String {
    root()
        .join("tournaments/games/light_cycles")
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

/// A check file in `dir`: Light Cycles on an 8x8 grid at tables of 3,
/// the bot under test `bot` against two references (both the Python
/// starter, named `left` and `right`), then `require`.
fn tables_check(dir: &Path, bot: &str, require: &str) -> String {
    let starter = light_cycles("starters/starter.py");
    let text = format!(
        "name = \"cycles\"\ngame = \"{judge}\"\nseed = 11\nplayers_per_game = 3\n\
         [options]\nwidth = 8\nheight = 8\n\
         [limits]\ntime_limit = \"5s\"\nstartup_limit = \"20s\"\n\
         [bot]\nname = \"tested\"\nbot = \"{bot}\"\n\
         [[opponents]]\nname = \"left\"\nbot = \"{starter}\"\n\
         [[opponents]]\nname = \"right\"\nbot = \"{starter}\"\n{require}",
        judge = light_cycles("judge.py"),
    );
    let path = dir.join("check.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The starter under another file name: its seat is told apart from the
/// references' in the transcripts by its spec.
fn candidate(dir: &Path) -> String {
    let path = dir.join("candidate.py");
    std::fs::copy(light_cycles("starters/starter.py"), &path).unwrap();
    path.to_string_lossy().into_owned()
}

/// The header and the record of a kept transcript.
fn transcript(path: &Path) -> (Value, Value) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let record = lines
        .iter()
        .find(|l| l["type"] == "result")
        .unwrap_or_else(|| panic!("no result in {}", path.display()))["record"]
        .clone();
    (lines[0].clone(), record)
}

#[test]
fn a_good_bot_passes_at_tables_whose_seats_rotate_evenly() {
    let dir = scratch_dir("ffa-check", "good");
    let bot = candidate(&dir);
    // No verdict at 6 tables: decided only when all 6 are played.
    let file = tables_check(
        &dir,
        &bot,
        "[[require]]\nkind = \"no-verdicts\"\ngames = 6\n\
         [[require]]\nkind = \"average-rank\"\ngames = 6\nat_most = 2.5\n",
    );
    let report = dir.join("report");
    let junit = dir.join("junit.xml");
    let run = Referee::new()
        .args(["check", &file, "--json", "--jobs", "2", "--key"])
        .arg("5a".repeat(32))
        .arg("--report")
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .budget(BUDGET)
        .run()
        .succeeds();
    let json = run.json();
    assert_eq!(json["passed"], true);
    let requirements = json["requirements"].as_array().unwrap();
    assert_eq!(requirements[0]["kind"], "no-verdicts");
    assert_eq!(requirements[0]["measured"], 6.0);
    assert_eq!(requirements[1]["kind"], "average-rank");
    assert_eq!(requirements[1]["unit"], "rank");
    let average = requirements[1]["measured"].as_f64().unwrap();
    assert!((1.0..=2.5).contains(&average), "{average}");
    assert!(
        requirements[1]["summary"]
            .as_str()
            .unwrap()
            .contains("(1 = first;"),
        "{}",
        requirements[1]["summary"]
    );
    let (cases, failures) = junit_cases(&junit);
    assert_eq!((cases, failures.len()), (2, 0), "{failures:?}");
    // Said before the games: every seat twice, both references at all 6.
    assert!(
        run.stderr.contains(
            "tables of 3: the bot at seat A 2, B 2, C 2; tables per reference: left 6, right 6"
        ),
        "{}",
        run.stderr
    );

    // Every table kept: the bot under test at A, B, C, then again; the
    // three tables of a rotation share their seed and their references,
    // in the same order around the table after the bot.
    let mut seats = vec![];
    let mut seeds = vec![];
    for table in 1..=6 {
        let (header, record) =
            transcript(&report.join(format!("transcripts/table-{table:04}.jsonl")));
        let specs: Vec<&str> = header["specs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(specs.len(), 3, "{header}");
        let at: Vec<usize> = (0..3).filter(|i| specs[*i] == bot).collect();
        assert_eq!(
            at.len(),
            1,
            "the bot under test once at table {table}: {specs:?}"
        );
        seats.push(at[0]);
        seeds.push(record["seed"].as_u64().unwrap());
        assert_eq!(record["ranks"].as_array().unwrap().len(), 3, "{record}");
    }
    assert_eq!(seats, [0, 1, 2, 0, 1, 2]);
    assert!(seeds[..3].iter().all(|s| *s == seeds[0]), "{seeds:?}");
    assert!(seeds[3..].iter().all(|s| *s == seeds[3]), "{seeds:?}");
    assert_ne!(seeds[0], seeds[3]);
    // The report has a page for each table.
    assert!(report.join("games/table-0006.html").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bot_that_crashes_at_once_fails_the_rank_requirements_with_the_tables_named() {
    let dir = scratch_dir("ffa-check", "crash");
    // Reads its first line, then dies: a crash at its first turn, every
    // table, so it is last (3 of 3) at each.
    let bot = dir.join("crash.py");
    std::fs::write(&bot, "import sys\nsys.stdin.readline()\nsys.exit(3)\n").unwrap();
    let file = tables_check(
        &dir,
        &bot.to_string_lossy(),
        "[[require]]\nkind = \"average-rank\"\ngames = 6\nat_most = 2.5\n\
         [[require]]\nkind = \"ahead-of\"\nagainst = \"left\"\ngames = 6\nat_least = 50\n\
         [[require]]\nkind = \"table-wins\"\ngames = 3\nat_least = 0\n",
    );
    let junit = dir.join("junit.xml");
    let summary = dir.join("summary.md");
    let run = Referee::new()
        .args(["check", &file, "--json", "--no-report", "--jobs", "2"])
        .arg("--junit")
        .arg(&junit)
        .arg("--summary")
        .arg(&summary)
        .budget(BUDGET)
        .run()
        .exits(1);
    let json = run.json();
    assert_eq!(json["passed"], false);
    let requirements = json["requirements"].as_array().unwrap();
    let average = &requirements[0];
    assert_eq!(average["status"], "fail", "{average}");
    assert_eq!(average["measured"], 3.0, "last at every table: {average}");
    let details: Vec<&str> = average["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(!details.is_empty(), "{average}");
    for d in &details {
        assert!(
            d.starts_with("table ")
                && d.contains(": crash at reply")
                && d.contains("; replay: ")
                && d.contains("referee match"),
            "{d}"
        );
    }
    assert!(
        details.iter().any(|d| d.contains("(seat B; with ")),
        "the tables name the seat: {details:?}"
    );
    let ahead = &requirements[1];
    assert_eq!(ahead["status"], "fail", "{ahead}");
    assert_eq!(ahead["measured"], 0.0, "{ahead}");
    assert!(
        ahead["summary"]
            .as_str()
            .unwrap()
            .contains("ahead of left at 0 of the"),
        "{ahead}"
    );
    // 0% of 3 tables is met with no win at all.
    assert_eq!(requirements[2]["status"], "pass", "{}", requirements[2]);

    let (cases, failures) = junit_cases(&junit);
    assert_eq!(cases, 3);
    assert!(
        failures
            .iter()
            .any(|m| m.starts_with("average rank <= 2.5 over 6 tables")),
        "{failures:?}"
    );
    let markdown = std::fs::read_to_string(&summary).unwrap();
    assert!(
        markdown.contains("| average rank &lt;= 2.5 over 6 tables | ❌ fail |"),
        "{markdown}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_combinations_are_refused_naming_the_field() {
    let dir = scratch_dir("ffa-check", "bad");
    let starter = light_cycles("starters/starter.py");
    let picker = judge_fixture("bots/unique_picker.py");
    let average = "[[require]]\nkind = \"average-rank\"\nat_most = 2\n";
    let cases: Vec<(String, &str)> = vec![
        // A built-in game of two.
        (
            format!(
                "game = \"arrow5\"\nplayers_per_game = 3\n[bot]\nbot = \"true\"\n\
                 [[opponents]]\nname = \"a\"\nbot = \"true\"\n\
                 [[opponents]]\nname = \"b\"\nbot = \"true\"\n{average}"
            ),
            "players_per_game: arrow5 is a game of two players",
        ),
        // A judge of two players, found out at its first game (it refuses
        // the game, as for options it does not take).
        (
            format!(
                "game = \"{}\"\nplayers_per_game = 3\n[bot]\nbot = \"{starter}\"\n\
                 [[opponents]]\nname = \"a\"\nbot = \"{starter}\"\n\
                 [[opponents]]\nname = \"b\"\nbot = \"{starter}\"\n{average}",
                root().join("tournaments/games/connect4/judge.py").display()
            ),
            "players_per_game = 3 (a judge refuses a number of players it does not take",
        ),
        // A judge that says it takes 2 players only.
        (
            format!(
                "game = \"{}\"\nplayers_per_game = 3\n[bot]\nbot = \"{picker}\"\n\
                 [[opponents]]\nname = \"a\"\nbot = \"{picker}\"\n\
                 [[opponents]]\nname = \"b\"\nbot = \"{picker}\"\n{average}",
                judge_fixture("higher/judge.py")
            ),
            "players_per_game = 3: the judge",
        ),
        // A judge of 3 to 6 players here (its option), and the default of
        // two.
        (
            format!(
                "game = \"{}\"\n[options]\nmin = 3\n[bot]\nbot = \"{picker}\"\n\
                 [[opponents]]\nname = \"a\"\nbot = \"{picker}\"\n\
                 [[require]]\nkind = \"no-verdicts\"\nagainst = \"a\"\ngames = 2\n",
                judge_fixture("unique/judge.py")
            ),
            "players_per_game = 2 (the default): the judge",
        ),
        // Rank requirements need tables.
        (
            format!(
                "game = \"arrow5\"\n[bot]\nbot = \"true\"\n\
                 [[opponents]]\nname = \"a\"\nbot = \"true\"\n{average}"
            ),
            "require.kind (average-rank): judges tables of more than two players",
        ),
    ];
    for (n, (text, message)) in cases.iter().enumerate() {
        let path = dir.join(format!("c{n}.toml"));
        std::fs::write(&path, text).unwrap();
        Referee::new()
            .args(["check", "--no-report"])
            .arg(&path)
            .case(message)
            .budget(BUDGET)
            .run()
            .refused_with(message);
    }
    // On a Light Cycles file: games not whole rotations, too few
    // references, a win rate at tables.
    for (require, players, message) in [
        (
            "[[require]]\nkind = \"average-rank\"\ngames = 4\nat_most = 2\n",
            3,
            "require.games (average-rank): 4 is not a positive multiple of 3",
        ),
        (
            average,
            4,
            "players_per_game: tables of 4 need at least 3 references",
        ),
        (
            "[[require]]\nkind = \"win-rate\"\nagainst = \"left\"\nat_least = 50\n",
            3,
            "require.kind (win-rate): plays games of two",
        ),
    ] {
        let path = tables_check(&dir, &starter, require);
        let text = std::fs::read_to_string(&path).unwrap().replace(
            "players_per_game = 3",
            &format!("players_per_game = {players}"),
        );
        std::fs::write(&path, text).unwrap();
        Referee::new()
            .args(["check", "--no-report", &path])
            .case(message)
            .run()
            .refused_with(message)
            .stderr_has("check.toml");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The shipped example, tournaments/check-light-cycles.toml, run as its
/// comment says (from the repository root): its starter passes it.
#[test]
fn the_shipped_light_cycles_check_passes_with_its_starter() {
    let dir = scratch_dir("ffa-check", "shipped");
    let run = Referee::new()
        .args(["check", "tournaments/check-light-cycles.toml", "--json"])
        .args(["--jobs", "2", "--report"])
        .arg(dir.join("report"))
        .budget(BUDGET)
        .run()
        .succeeds();
    let json = run.json();
    let kinds: Vec<&str> = json["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "no-verdicts",
            "average-rank",
            "table-wins",
            "ahead-of",
            "max-move-time"
        ]
    );
    assert!(dir.join("report/transcripts/table-0001.jsonl").exists());
    let _ = std::fs::remove_dir_all(dir);
}
