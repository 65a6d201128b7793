//! Grading a term contest through the real binary: a gauntlet of reference
//! bots against the teams, graded into `grades/` as worked out by hand;
//! Gradescope's results.json; feedback whose replay commands play the lost
//! games again; `referee grade DIR` with other bands, playing nothing; the
//! warning when the bots fall into groups that never met; bad sections
//! refused with the line.
//!
//! The bots are the scripted sample bot playing Arrow 5 (as in
//! formats.rs): a bot "cracking at k" plays the code 0 1 2 3 4, attacks
//! with 5 6 7 8 9 k - 1 times, then with 0 1 2 3 4. The lower k wins; the
//! same k draws (both crack in the same round).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// A bot that plays its code, then has nothing to attack with: its
/// first attack is "out of replies", an illegal move.
fn breaks_at_once() -> String {
    format!("python3 {} 01234", sample_file("python/scripted.py"))
}

const BANDS: &str = "bands = [\n  { against = \"random\", win_rate = 0.6, marks = 50 },\n  { against = \"strong\", win_rate = 0.5, marks = 80 },\n]\n";

/// `dir/term.toml`: references `random` (cracks at 5) and `strong` (2)
/// against ann (3), bob (7), carl (breaks) and dave (2).
fn term_file(dir: &Path, name: &str, bands: &str) -> PathBuf {
    let mut text = format!(
        "name = \"term\"\ngame = \"arrow5\"\nformat = \"gauntlet\"\n\
         challengers = [\"random\", \"strong\"]\ngames_per_pairing = 2\nseed = 7\n\
         [options]\nmax_rounds = 30\n\
         [grading]\nreferences = [\"random\", \"strong\"]\nroster = \"roster.csv\"\n{bands}"
    );
    for (bot, command) in [
        ("random", cracks_at(5)),
        ("strong", cracks_at(2)),
        ("ann", cracks_at(3)),
        ("bob", cracks_at(7)),
        ("carl", breaks_at_once()),
        ("dave", cracks_at(2)),
    ] {
        text.push_str(&format!(
            "[[bots]]\nname = \"{bot}\"\nbot = \"{command}\"\n"
        ));
    }
    std::fs::write(
        dir.join("roster.csv"),
        "student,team\nAlice,ann\nAndy,ann\nBella,bob\nCyd,carl\nDora,dave\n",
    )
    .unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn tournament(dir: &Path, file: &Path) -> Run {
    let run = referee_in(
        dir,
        &[
            "tournament",
            file.file_name().unwrap().to_str().unwrap(),
            "--out",
            "out",
            "--jobs",
            "2",
            "--no-report",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    run
}

/// grades.csv as `team marks games/wins/draws/losses vs random, vs strong`.
fn grade_lines(out: &Path) -> Vec<String> {
    csv_records(&out.join("grades/grades.csv"))
        .iter()
        .map(|r| {
            let vs = |who: &str| {
                ["games", "wins", "draws", "losses"]
                    .map(|c| r[&format!("{c}_vs_{who}")].clone())
                    .join("/")
            };
            format!(
                "{} {} {} {}",
                r["team"],
                r["marks"],
                vs("random"),
                vs("strong")
            )
        })
        .collect()
}

#[test]
fn a_term_contest_is_graded_with_evidence_feedback_and_replays() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = term_file(dir, "term.toml", BANDS);
    let run = tournament(dir, &file);
    let out = dir.join("out");
    assert!(
        run.stderr.contains("grades: 4 teams graded"),
        "{}",
        run.stderr
    );
    // By hand: ann (3) beats random (5), loses to strong (2); bob (7)
    // loses both; carl loses every game by its illegal move; dave (2)
    // beats random and draws strong: 50% with draws counting half.
    assert_eq!(
        grade_lines(&out),
        [
            "ann 50 2/2/0/0 2/0/0/2",
            "bob 0 2/0/0/2 2/0/0/2",
            "carl 0 2/0/0/2 2/0/0/2",
            "dave 80 2/2/0/0 2/0/2/0",
        ]
    );
    let dave = &csv_records(&out.join("grades/grades.csv"))[3];
    // The Wilson interval of 1 in 2: 9.45% to 90.55%.
    assert_eq!(
        (
            dave["win_rate_vs_strong"].as_str(),
            dave["low_vs_strong"].as_str(),
            dave["high_vs_strong"].as_str()
        ),
        ("0.5000", "0.0945", "0.9055")
    );
    let students: Vec<String> = csv_records(&out.join("grades/students.csv"))
        .iter()
        .map(|r| format!("{} {} {}", r["student"], r["team"], r["marks"]))
        .collect();
    assert_eq!(
        students,
        [
            "Alice ann 50",
            "Andy ann 50",
            "Bella bob 0",
            "Cyd carl 0",
            "Dora dave 80"
        ]
    );
    // The published table has the teams only; standings.csv has everyone.
    let published: Vec<String> = csv_records(&out.join("grades/leaderboard.csv"))
        .iter()
        .map(|r| format!("{} {}", r["rank"], r["bot"]))
        .collect();
    assert_eq!(published.len(), 4, "{published:?}");
    assert!(published
        .iter()
        .all(|r| !r.contains("random") && !r.contains("strong")));
    assert_eq!(csv_records(&out.join("standings.csv")).len(), 6);

    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("grades/dave/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(results["score"], 80.0);
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2);
    assert_eq!(
        tests
            .iter()
            .map(|t| t["status"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["passed", "passed"]
    );
    // The bands are a ladder: the tests share out the highest band's 80
    // marks (50, then 30) and add up to the score, as Gradescope shows it.
    let column = |results: &serde_json::Value, key: &str| -> Vec<f64> {
        results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[key].as_f64().unwrap())
            .collect()
    };
    assert_eq!(column(&results, "max_score"), [50.0, 30.0]);
    assert_eq!(column(&results, "score"), [50.0, 30.0]);
    assert!(results["leaderboard"].as_array().unwrap().len() >= 2);
    for (team, marks) in [("ann", 50.0), ("bob", 0.0), ("dave", 80.0)] {
        let results: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("grades/{team}/results.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(results["score"], marks, "{team}");
        assert_eq!(
            column(&results, "score").iter().sum::<f64>(),
            marks,
            "{team}"
        );
        assert_eq!(column(&results, "max_score").iter().sum::<f64>(), 80.0);
    }

    // carl's feedback names its disqualifications and their detail.
    let carl = std::fs::read_to_string(out.join("grades/carl/feedback.md")).unwrap();
    let dq_section = carl
        .split("## Disqualifications")
        .nth(1)
        .and_then(|s| s.split("## Lost games").next())
        .unwrap();
    assert_eq!(dq_section.matches("- game ").count(), 4, "{carl}");
    assert_eq!(
        dq_section.matches("protocol at reply 2").count(),
        4,
        "{carl}"
    );

    // ann's feedback has a command per lost game that a student runs in
    // ann's folder with their bot, and it plays the game again.
    let ann = std::fs::read_to_string(out.join("grades/ann/feedback.md")).unwrap();
    let commands: Vec<&str> = ann
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("referee reproduce transcripts/"))
        .collect();
    assert_eq!(commands.len(), 2, "{ann}");
    let lost_game: u64 = ann
        .lines()
        .find_map(|l| l.trim().strip_prefix("- game "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    let row = csv_records(&out.join("games.csv"))
        .into_iter()
        .find(|r| r["game"] == lost_game.to_string())
        .unwrap();
    let command = commands[0]
        .replacen("referee", &referee_bin().display().to_string(), 1)
        .replace("MY_BOT", &format!("'{}'", cracks_at(3)));
    let mut replay = std::process::Command::new("sh");
    replay
        .args(["-c", &command])
        .current_dir(out.join("grades/ann"));
    let replayed = run_within(replay, BUDGET);
    assert_eq!(
        replayed.status, 0,
        "{}\n{}",
        replayed.stdout, replayed.stderr
    );
    // The bots choose their codes: without the key the game is the same.
    let seat = row["result"].to_uppercase();
    assert!(
        replayed.stdout.contains(&format!("Result: {seat} "))
            && replayed.stdout.contains("[cracked]"),
        "game {lost_game} ({row:?}) replayed differently:\n{}",
        replayed.stdout
    );
    // A team's copies hold no key: not in the command, not in its plan.
    for entry in std::fs::read_dir(out.join("grades/ann/transcripts")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let result: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let record = &result["record"];
        assert_eq!(record["plan"]["command"], "match", "{record}");
        assert!(record["plan"].get("key").is_none(), "{record}");
        assert!(!text.contains("--key"), "{text}");
    }
    // Every bot met a reference: no comparison warning.
    assert!(!out.join("comparison-warning.txt").exists());
    assert!(!run.stderr.contains("not connected"), "{}", run.stderr);
}

#[test]
fn grade_regrades_a_folder_with_other_bands_without_playing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = term_file(dir, "term.toml", BANDS);
    tournament(dir, &file);
    let out = dir.join("out");
    let games = std::fs::read(out.join("games.csv")).unwrap();
    let transcripts = std::fs::read_dir(out.join("transcripts")).unwrap().count();
    // Stricter for random, and a band that losing to strong cannot meet.
    let changed = term_file(
        dir,
        "changed.toml",
        "bands = [\n  { against = \"random\", win_rate = 1.0, marks = 40 },\n  { against = \"strong\", win_rate = 0.75, marks = 90 },\n]\n",
    );
    let run = referee_in(
        dir,
        &["grade", "out", "--file", changed.to_str().unwrap()],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("dave: 40 marks"), "{}", run.stdout);
    let marks: Vec<String> = csv_records(&out.join("grades/grades.csv"))
        .iter()
        .map(|r| format!("{} {}", r["team"], r["marks"]))
        .collect();
    assert_eq!(marks, ["ann 40", "bob 0", "carl 0", "dave 40"]);
    assert_eq!(
        std::fs::read(out.join("games.csv")).unwrap(),
        games,
        "nothing played"
    );
    assert_eq!(
        std::fs::read_dir(out.join("transcripts")).unwrap().count(),
        transcripts
    );
    // The folder's own copy of the file grades as the tournament did.
    let run = referee_in(dir, &["grade", "out"], BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("dave: 80 marks"), "{}", run.stdout);
}

#[test]
fn groups_that_never_met_are_named_in_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // One Swiss round of four bots: two games' pairs, two groups.
    let mut text = "name = \"split\"\ngame = \"arrow5\"\nformat = \"swiss\"\nrounds = 1\nseed = 3\n[options]\nmax_rounds = 30\n".to_string();
    for (bot, k) in [("w", 2), ("x", 3), ("y", 4), ("z", 5)] {
        text.push_str(&format!(
            "[[bots]]\nname = \"{bot}\"\nbot = \"{}\"\n",
            cracks_at(k)
        ));
    }
    let file = dir.join("split.toml");
    std::fs::write(&file, text).unwrap();
    let run = tournament(dir, &file);
    assert!(
        run.stderr.contains("not connected: 2 groups"),
        "{}",
        run.stderr
    );
    let warning = std::fs::read_to_string(dir.join("out/comparison-warning.txt")).unwrap();
    // Each group is a pair that played: the bots of one game, in file order.
    let mut pairs: Vec<String> = csv_records(&dir.join("out/games.csv"))
        .iter()
        .map(|r| {
            let mut pair = [r["bot_a"].clone(), r["bot_b"].clone()];
            pair.sort();
            pair.join(", ")
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    for (i, pair) in pairs.iter().enumerate() {
        assert!(
            warning.contains(&format!("group {}: {pair}\n", i + 1)),
            "{pair} in:\n{warning}"
        );
        assert!(run.stderr.contains(pair.as_str()), "{}", run.stderr);
    }
    // No [grading] section: nothing to grade, said so.
    let grade = referee_in(dir, &["grade", "out"], BUDGET);
    assert_eq!(grade.status, 2, "{}", grade.stderr);
    assert!(
        grade.stderr.contains("no [grading] section"),
        "{}",
        grade.stderr
    );
}

#[test]
fn bad_grading_sections_are_refused_with_the_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let good = std::fs::read_to_string(term_file(dir, "term.toml", BANDS)).unwrap();
    let cases = [
        (
            good.replace(
                "references = [\"random\", \"strong\"]",
                "references = [\"randy\"]",
            ),
            "grading.references: no bot is named 'randy'",
        ),
        (
            good.replace("against = \"strong\"", "against = \"ann\""),
            "grading.bands.against: 'ann' is not a reference",
        ),
        (
            good.replace("win_rate = 0.6", "win_rate = 60"),
            "grading.bands.win_rate: 60 is not a rate from 0 to 1",
        ),
        (good.replace("roster.csv", "nobody.csv"), "grading.roster:"),
        (
            good.replace(
                "challengers = [\"random\", \"strong\"]",
                "challengers = [\"random\"]",
            ),
            "the reference 'strong' would not play every team",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(dir.join("bad.toml"), &text).unwrap();
        let run = referee_in(
            dir,
            &["tournament", "bad.toml", "--out", "bad", "--no-report"],
            BUDGET,
        );
        assert_eq!(run.status, 2, "{expected}: {}", run.stderr);
        assert!(
            run.stderr.contains("bad.toml:") && run.stderr.contains(expected),
            "{expected}: {}",
            run.stderr
        );
        assert!(!dir.join("bad").exists(), "nothing written for {expected}");
    }
    // A roster naming a reference as a team.
    std::fs::write(dir.join("roster.csv"), "student,team\nEve,strong\n").unwrap();
    let run = referee_in(
        dir,
        &["tournament", "term.toml", "--out", "bad", "--no-report"],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("roster.csv line 2: the team 'strong'"),
        "{}",
        run.stderr
    );
    // `grade` of a folder that is not a results folder.
    let run = referee_in(dir, &["grade", "nowhere"], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("tournament.json"), "{}", run.stderr);
}
