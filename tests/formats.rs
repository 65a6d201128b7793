//! Swiss tournaments, knockouts and groups through the real binary: rounds,
//! groups and brackets that match their hand-worked schedules, a SIGKILL and
//! `--resume` that give the same files as an uninterrupted run, seeds from
//! an earlier results folder, and absurd files refused with clear errors.
//!
//! The bots are the scripted sample bot, made to play Arrow 5 as bots of a
//! known strength: `k3` plays the code 0 1 2 3 4, attacks with 5 6 7 8 9
//! twice and cracks with its third attack. The lower number cracks first
//! and wins every game; two bots of one number crack in the same round,
//! a draw (`both-cracked`). So every result is known in advance.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// Writes `dir/NAME.toml`: a tournament of `format` (with `extra` fields)
/// between bots named as given, each cracking at the number in its name's
/// digits (`k3`, `a3`: 3).
fn write_file(dir: &Path, name: &str, format: &str, extra: &str, bots: &[&str]) -> PathBuf {
    let bots: Vec<(&str, String)> = bots
        .iter()
        .map(|bot| {
            let k: usize = bot
                .trim_start_matches(|c: char| c.is_alphabetic())
                .parse()
                .unwrap();
            (*bot, cracks_at(k))
        })
        .collect();
    write_file_of(dir, name, format, extra, &bots)
}

/// [`write_file`] with each bot's command given.
fn write_file_of(
    dir: &Path,
    name: &str,
    format: &str,
    extra: &str,
    bots: &[(&str, String)],
) -> PathBuf {
    let mut text = format!(
        "name = \"{name}\"\ngame = \"arrow5\"\nformat = \"{format}\"\n{extra}\n\
         games_per_pairing = 2\nseed = 7\n[options]\nmax_rounds = 30\n"
    );
    for (bot, command) in bots {
        text.push_str(&format!(
            "[[bots]]\nname = \"{bot}\"\nbot = \"{command}\"\n"
        ));
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    std::fs::write(dir.join("shared.key"), "7a".repeat(32)).unwrap();
    path
}

fn command(file: &Path, out: &Path, resume: bool) -> Command {
    let mut command = Command::new(referee_bin());
    command.args([
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
        "--no-report",
        "--key-file",
    ]);
    command.arg(file.with_file_name("shared.key"));
    if resume {
        command.arg("--resume");
    }
    command
}

fn run(file: &Path, out: &Path, resume: bool) -> Run {
    let run = run_within(command(file, out, resume), BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    run
}

/// `rounds.csv` as lines `round table bot_a bot_b points_a points_b`.
fn rounds(out: &Path) -> Vec<String> {
    csv_records(&out.join("rounds.csv"))
        .iter()
        .map(|r| {
            format!(
                "{} {} {}-{} {}-{}",
                r["round"], r["table"], r["bot_a"], r["bot_b"], r["points_a"], r["points_b"]
            )
        })
        .collect()
}

/// Runs `file` into `out`, SIGKILLing the referee once games.csv holds at
/// least each of `kill_at` rows, resuming after each kill, then to the end.
/// Returns how many kills landed before the end.
fn run_with_kills(file: &Path, out: &Path, kill_at: &[usize]) -> usize {
    let mut kills = 0;
    let start = Instant::now();
    for (attempt, &rows_wanted) in kill_at.iter().enumerate() {
        let mut child = command(file, out, attempt > 0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        loop {
            let rows = std::fs::read_to_string(out.join("games.csv"))
                .map_or(0, |t| t.lines().count().saturating_sub(1));
            if rows >= rows_wanted || child.try_wait().unwrap().is_some() {
                break;
            }
            assert!(start.elapsed() < BUDGET, "the run took too long");
            std::thread::sleep(Duration::from_millis(2));
        }
        child.kill().ok(); // SIGKILL
        let status = child.wait().unwrap();
        if status.code().is_none() {
            kills += 1;
            let rows = std::fs::read_to_string(out.join("games.csv"))
                .map_or(0, |t| t.lines().count().saturating_sub(1));
            eprintln!("kill {kills}: {rows} games in the folder");
        }
    }
    let last = run(file, out, true);
    assert!(
        last.stderr.contains("already played") || kills == 0,
        "{}",
        last.stderr
    );
    kills
}

/// Compares the files of two results folders that must be identical.
fn assert_same_results(whole: &Path, killed: &Path, files: &[&str]) {
    // Both in game-number order (two workers finish games out of order).
    for folder in [whole, killed] {
        let numbers: Vec<u64> = game_results(&folder.join("games.csv"))
            .iter()
            .map(|r| r[0].parse().unwrap())
            .collect();
        assert!(
            numbers.windows(2).all(|w| w[0] < w[1]),
            "{}: {numbers:?}",
            folder.display()
        );
    }
    assert_eq!(
        game_results_by_number(&whole.join("games.csv")),
        game_results_by_number(&killed.join("games.csv")),
        "games.csv"
    );
    for name in files {
        assert_eq!(
            std::fs::read_to_string(whole.join(name)).unwrap(),
            std::fs::read_to_string(killed.join(name)).unwrap(),
            "{name}"
        );
    }
}

/// The file order (not the strength order) of the nine Swiss bots.
const SWISS_BOTS: [&str; 9] = ["k5", "k1", "k9", "k3", "k7", "k2", "k8", "k4", "k6"];

/// Nine bots, four rounds, worked by hand from the rules (docs/reference.md):
/// round 1 pairs the file's order, the last bot has the bye (a bye scores
/// 2 games x 2 points); then score groups, the lowest-ranked bot without
/// a bye sitting out, nobody meeting twice.
///
/// - R1: k5-k1 k9-k3 k7-k2 k8-k4, bye k6. After: k1 k3 k2 k4 k6 on 4.
/// - R2 (4: k1 k3 k2 k4 k6; 0: k5 k9 k7 k8): k1-k3 k2-k4 k6-k5 k9-k7,
///   bye k8.
/// - R3 (8: k1 k2; 4: k5 k3 k7 k8 k4 k6; 0: k9): bye k9; k1-k2 k5-k3
///   k7-k8 k4-k6.
/// - R4 (12: k1; 8: k3 k7 k2 k4; 4: k5 k9 k8 k6): bye k5, the lowest
///   without one; k1-k7 (k1 met k3 and k2), k3-k2, k4-k9, k8-k6.
const SWISS_ROUNDS: [&str; 20] = [
    "1 1 k5-k1 0-4",
    "1 2 k9-k3 0-4",
    "1 3 k7-k2 0-4",
    "1 4 k8-k4 0-4",
    "1 5 k6- 4-",
    "2 1 k1-k3 4-0",
    "2 2 k2-k4 4-0",
    "2 3 k6-k5 0-4",
    "2 4 k9-k7 0-4",
    "2 5 k8- 4-",
    "3 1 k1-k2 4-0",
    "3 2 k5-k3 0-4",
    "3 3 k7-k8 4-0",
    "3 4 k4-k6 4-0",
    "3 5 k9- 4-",
    "4 1 k1-k7 4-0",
    "4 2 k3-k2 0-4",
    "4 3 k4-k9 4-0",
    "4 4 k8-k6 0-4",
    "4 5 k5- 4-",
];

#[test]
fn a_swiss_of_nine_bots_plays_its_hand_worked_rounds_through_kills() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "swiss", "swiss", "rounds = 4", &SWISS_BOTS);
    let whole = dir.path().join("whole");
    let first = run(&file, &whole, false);
    assert_eq!(rounds(&whole), SWISS_ROUNDS);
    // 4 pairings x 2 games x 4 rounds.
    assert_eq!(game_results_by_number(&whole.join("games.csv")).len(), 32);
    // Final order: score, then Buchholz (k2's opponents k7 k4 k1 k3 scored
    // 8+12+16+8 = 44, k4's k8 k2 k6 k9 4+12+8+4 = 28), then rating.
    let table: Vec<String> = csv_records(&whole.join("swiss.csv"))
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {}",
                r["rank"], r["bot"], r["score"], r["buchholz"], r["byes"]
            )
        })
        .collect();
    assert_eq!(
        table[..5],
        [
            "1 k1 16 36 0",
            "2 k2 12 44 0",
            "3 k4 12 28 0",
            "4 k3 8 40 0",
            "5 k7 8 36 0"
        ]
    );
    // k5, k6 (8 with a bye) and k9, k8 (4 with a bye).
    let tail: Vec<&str> = table[5..]
        .iter()
        .map(|r| r.split(' ').nth(1).unwrap())
        .collect();
    let mut tail_sorted = tail.clone();
    tail_sorted.sort();
    assert_eq!(tail_sorted, ["k5", "k6", "k8", "k9"]);
    assert!(first.stdout.contains("buchholz"), "{}", first.stdout);
    // standings.csv keeps its columns: games only, no bye.
    let k6 = csv_records(&whole.join("standings.csv"))
        .into_iter()
        .find(|r| r["bot"] == "k6")
        .unwrap();
    assert_eq!((k6["played"].as_str(), k6["points"].as_str()), ("6", "4"));

    // Killed inside rounds 1, 2 and 4 and just after round 3, resumed
    // each time: the same games, rounds and standings.
    let killed = dir.path().join("killed");
    let kills = run_with_kills(&file, &killed, &[3, 11, 24, 29]);
    assert!(kills >= 1, "no kill landed before the end");
    assert_same_results(
        &whole,
        &killed,
        &["standings.csv", "swiss.csv", "rounds.csv", "crosstable.csv"],
    );
}

/// Six bots, seeded by the file's order: k2 k1 a3 k5 k4 b3. A bracket of
/// 8: seeds 1 (k2) and 2 (k1) have byes; 4-5 is k5-k4, 3-6 is a3-b3, who
/// crack together: their match is drawn, then both tie-break pairs, so
/// a3 goes through as the higher seed. Semi-finals k2-k4 and k1-a3, final
/// k2-k1: k1, the second seed, wins.
///
/// Games: 1-4 the two quarter-finals, 5-6 and 7-8 the tie-break pairs,
/// 9-12 the semi-finals, 13-14 the final.
#[test]
fn a_knockout_of_six_bots_plays_its_hand_worked_bracket_through_kills() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["k2", "k1", "a3", "k5", "k4", "b3"];
    let file = write_file(dir.path(), "ko", "knockout", "", &bots);
    let whole = dir.path().join("whole");
    let first = run(&file, &whole, false);
    let bracket: Vec<String> = csv_records(&whole.join("bracket.csv"))
        .iter()
        .map(|r| {
            format!(
                "{} ({}){} ({}){} {}-{}-{} tb{} {} {}",
                r["stage"],
                r["seed_a"],
                r["bot_a"],
                r["seed_b"],
                r["bot_b"],
                r["wins_a"],
                r["draws"],
                r["wins_b"],
                r["tiebreak_games"],
                r["winner"],
                r["decided_by"]
            )
        })
        .collect();
    assert_eq!(
        bracket,
        [
            "Quarter-finals (1)k2 () 0-0-0 tb0 k2 bye",
            "Quarter-finals (4)k5 (5)k4 0-0-2 tb0 k4 games",
            "Quarter-finals (2)k1 () 0-0-0 tb0 k1 bye",
            "Quarter-finals (3)a3 (6)b3 0-6-0 tb4 a3 higher seed",
            "Semi-finals (1)k2 (5)k4 2-0-0 tb0 k2 games",
            "Semi-finals (2)k1 (3)a3 2-0-0 tb0 k1 games",
            "Final (1)k2 (2)k1 0-0-2 tb0 k1 games",
        ]
    );
    let games = game_results_by_number(&whole.join("games.csv"));
    assert_eq!(
        games.keys().copied().collect::<Vec<_>>(),
        (1..=14).collect::<Vec<_>>()
    );
    let sides = |n: u64| {
        let row = &games[&n];
        (
            result_cell(row, "bot_a").to_string(),
            result_cell(row, "bot_b").to_string(),
        )
    };
    assert_eq!(sides(3), ("a3".into(), "b3".into()));
    assert_eq!(
        sides(6),
        ("b3".into(), "a3".into()),
        "tie-breaks swap sides"
    );
    assert_eq!(sides(13), ("k2".into(), "k1".into()));
    assert_eq!(result_cell(&games[&5], "reason"), "both-cracked");
    let text = std::fs::read_to_string(whole.join("bracket.txt")).unwrap();
    assert!(text.ends_with("Champion: k1\n"), "{text}");
    assert!(first.stdout.contains("Champion: k1"), "{}", first.stdout);

    let killed = dir.path().join("killed");
    let kills = run_with_kills(&file, &killed, &[1, 5, 7, 10, 13]);
    assert!(kills >= 1, "no kill landed before the end");
    assert_same_results(
        &whole,
        &killed,
        &[
            "standings.csv",
            "bracket.csv",
            "bracket.txt",
            "rounds.csv",
            "seeds.csv",
        ],
    );
}

/// Groups, worked by hand: seven bots k1..k7 in file order, two groups
/// dealt in a snake (A: k1 k4 k5; B: k2 k3 k6 k7), the best two of each
/// go on. Games 1-6 are group A's three pairings, 7-18 group B's six; the
/// knockout seeds the winners first (k1, k2), then the seconds (k4, k3):
/// semi-finals k1-k3 (games 19-20) and k2-k4 (21-22), final k1-k2
/// (23-24).
#[test]
fn groups_then_a_knockout_play_their_hand_worked_stages_through_kills() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["k1", "k2", "k3", "k4", "k5", "k6", "k7"];
    let file = write_file(dir.path(), "gr", "groups", "groups = 2\nadvance = 2", &bots);
    let whole = dir.path().join("whole");
    let first = run(&file, &whole, false);
    let groups: Vec<String> = csv_records(&whole.join("groups.csv"))
        .iter()
        .map(|r| {
            format!(
                "{}{} {} {} {}",
                r["group"], r["rank"], r["bot"], r["points"], r["qualified"]
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            "A1 k1 8 true",
            "A2 k4 4 true",
            "A3 k5 0 false",
            "B1 k2 12 true",
            "B2 k3 8 true",
            "B3 k6 4 false",
            "B4 k7 0 false",
        ]
    );
    let games = game_results_by_number(&whole.join("games.csv"));
    assert_eq!(
        games.keys().copied().collect::<Vec<_>>(),
        (1..=24).collect::<Vec<_>>()
    );
    let sides = |n: u64| {
        let row = &games[&n];
        format!(
            "{}-{}",
            result_cell(row, "bot_a"),
            result_cell(row, "bot_b")
        )
    };
    let wanted = [
        (1, "k1-k4"),
        (6, "k5-k4"),
        (7, "k2-k3"),
        (18, "k7-k6"),
        (19, "k1-k3"),
        (21, "k2-k4"),
        (24, "k2-k1"),
    ];
    for (n, pairing) in wanted {
        assert_eq!(sides(n), pairing, "game {n}");
    }
    assert!(first.stdout.contains("Champion: k1"), "{}", first.stdout);

    let killed = dir.path().join("killed");
    let kills = run_with_kills(&file, &killed, &[4, 17, 19, 23]);
    assert!(kills >= 1, "no kill landed before the end");
    assert_same_results(
        &whole,
        &killed,
        &[
            "standings.csv",
            "groups.csv",
            "bracket.csv",
            "bracket.txt",
            "seeds.csv",
        ],
    );
}

/// `seeds_from` seeds a knockout by the ratings of an earlier folder;
/// changed under a knockout begun with it, the resume is refused.
#[test]
fn a_knockout_is_seeded_from_an_earlier_folder() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = dir.path().join("earlier");
    let bots = ["k3", "k1", "k4", "k2"];
    let rr = write_file(dir.path(), "rr", "round-robin", "", &bots);
    run(&rr, &earlier, false);
    let ko = write_file(
        dir.path(),
        "ko",
        "knockout",
        "seeds_from = \"earlier\"",
        &bots,
    );
    let out = dir.path().join("ko-out");
    run(&ko, &out, false);
    let seeds: Vec<String> = csv_records(&out.join("seeds.csv"))
        .iter()
        .map(|r| format!("{} {}", r["seed"], r["bot"]))
        .collect();
    assert_eq!(seeds, ["1 k1", "2 k2", "3 k3", "4 k4"]);
    // Seeds 1-4 and 2-3 in the semi-finals.
    let semis: Vec<String> = csv_records(&out.join("bracket.csv"))
        .iter()
        .filter(|r| r["round"] == "1")
        .map(|r| format!("{}-{}", r["bot_a"], r["bot_b"]))
        .collect();
    assert_eq!(semis, ["k1-k4", "k2-k3"]);

    // The earlier folder now rates k4 first: a resume refuses.
    let standings = earlier.join("standings.csv");
    let text = std::fs::read_to_string(&standings).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for line in &mut lines[1..] {
        if line.split(',').nth(1) == Some("k4") {
            let mut cells: Vec<&str> = line.split(',').collect();
            cells[15] = "9999";
            *line = cells.join(",");
        }
    }
    std::fs::write(&standings, lines.join("\n") + "\n").unwrap();
    let again = run_within(command(&ko, &out, true), BUDGET);
    assert_eq!(again.status, 2, "{}", again.stderr);
    assert!(
        again.stderr.contains("seeds differ") && again.stderr.contains("1. k4"),
        "{}",
        again.stderr
    );
}

/// Absurd files and options get a clear message and exit 2, never a panic.
#[test]
fn absurd_files_are_refused_with_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            write_file(d, "r0", "swiss", "rounds = 0", &["k1", "k2", "k3"]),
            "rounds: 0 is not possible with 3 bots; give 1 to 2",
        ),
        (
            write_file(d, "r3", "swiss", "rounds = 3", &["k1", "k2", "k3"]),
            "rounds: 3 is not possible",
        ),
        (
            write_file(d, "rn", "swiss", "", &["k1", "k2"]),
            "a Swiss tournament needs rounds",
        ),
        (
            write_file(d, "rneg", "swiss", "rounds = -1", &["k1", "k2"]),
            "rounds",
        ),
        (
            write_file(d, "one", "swiss", "rounds = 1", &["k1"]),
            "at least two",
        ),
        (
            write_file(d, "kor", "knockout", "rounds = 2", &["k1", "k2"]),
            "only a Swiss tournament has rounds",
        ),
        (
            write_file(d, "sfr", "round-robin", "seeds_from = \"x\"", &["k1", "k2"]),
            "only a knockout or groups are seeded",
        ),
        (
            write_file(
                d,
                "sfm",
                "knockout",
                "seeds_from = \"nowhere\"",
                &["k1", "k2"],
            ),
            "seeds_from:",
        ),
        (
            write_file(d, "tb", "knockout", "tiebreak_pairs = 1000", &["k1", "k2"]),
            "tiebreak_pairs: 1000 are too many",
        ),
        (
            write_file(
                d,
                "tbs",
                "swiss",
                "rounds = 1\ntiebreak_pairs = 1",
                &["k1", "k2"],
            ),
            "only a knockout or groups have tie-breaks",
        ),
    ];
    for (file, wanted) in cases {
        let out = d.join("never");
        let r = run_within(command(&file, &out, false), BUDGET);
        assert_eq!(r.status, 2, "{}: {}", file.display(), r.stderr);
        assert!(
            r.stderr.contains(wanted),
            "{}: wanted {wanted:?} in {}",
            file.display(),
            r.stderr
        );
        assert!(
            r.stderr.contains(&format!("{}:", file.display())),
            "names the file: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert!(!out.join("games.csv").exists());
    }

    // --shard is refused for the formats played in rounds.
    let file = write_file(d, "sh", "swiss", "rounds = 1", &["k1", "k2"]);
    let mut shard = command(&file, &d.join("shard"), false);
    shard.args(["--shard", "1/2"]);
    let r = run_within(shard, BUDGET);
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("cannot be split into shards"),
        "{}",
        r.stderr
    );
    assert!(!d.join("shard").join("games.csv").exists());

    // Two bots: a one-round Swiss, and a knockout that is just a final.
    let out = d.join("two-swiss");
    run(&file, &out, false);
    assert_eq!(rounds(&out), ["1 1 k1-k2 4-0"]);
    let ko = write_file(d, "ko2", "knockout", "", &["k2", "k1"]);
    let out = d.join("two-ko");
    let r = run(&ko, &out, false);
    assert!(
        r.stdout.contains("Final") && r.stdout.contains("Champion: k1"),
        "{}",
        r.stdout
    );

    // merge keeps to shards of round robins and gauntlets.
    let r = referee(
        &[
            "merge",
            out.to_str().unwrap(),
            "--out",
            d.join("merged").to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stderr.contains("played whole"), "{}", r.stderr);
}

/// A games.csv edited so that a round's game is not the one its results
/// schedule: the resume is refused, naming the game, and nothing is added.
#[test]
fn a_games_csv_off_its_schedule_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(
        dir.path(),
        "sw",
        "swiss",
        "rounds = 2",
        &["k1", "k2", "k3", "k4"],
    );
    let out = dir.path().join("out");
    run(&file, &out, false);
    let games = out.join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    // Game 5 (round 2: k1-k3) rewritten as k1-k4.
    let edited: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("5,") {
                l.replacen(",k1,k3,", ",k1,k4,", 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    assert_ne!(edited.join("\n") + "\n", text, "the edit took");
    // Drop the last game so that the resume has one to play.
    let kept = edited[..edited.len() - 1].join("\n") + "\n";
    std::fs::write(&games, &kept).unwrap();
    let r = run_within(command(&file, &out, true), BUDGET);
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("game 5 was played as 'k1' against 'k4'"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&games).unwrap(), kept);
}

/// The shipped examples run with the sample bots (their release paths
/// pointed at this build's bots), and their tables add up: a Swiss of five
/// bots has three byes in three rounds, a knockout of five has four matches
/// and a champion.
#[test]
fn the_example_files_run() {
    let dir = tempfile::tempdir().unwrap();
    let bin_dir = Path::new(&sample_bin("arrow5_strong"))
        .parent()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let samples = root().join("sample_bots").to_string_lossy().into_owned();
    for name in ["swiss-example", "knockout-example", "groups-example"] {
        let text = std::fs::read_to_string(root().join(format!("tournaments/{name}.toml")))
            .unwrap()
            .replace("../target/release", &bin_dir)
            .replace("../sample_bots", &samples);
        let file = dir.path().join(format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        std::fs::write(dir.path().join("shared.key"), "7a".repeat(32)).unwrap();
        let out = dir.path().join(name);
        let r = run(&file, &out, false);
        if name == "swiss-example" {
            let table = csv_records(&out.join("swiss.csv"));
            assert_eq!(table.len(), 5);
            let byes: u32 = table
                .iter()
                .map(|r| r["byes"].parse::<u32>().unwrap())
                .sum();
            assert_eq!(byes, 3, "one bye a round");
            assert_eq!(csv_records(&out.join("games.csv")).len(), 3 * 2 * 4);
        } else if name == "knockout-example" {
            let matches = csv_records(&out.join("bracket.csv"));
            let played = matches.iter().filter(|m| m["decided_by"] != "bye").count();
            assert_eq!(played, 4, "five bots, four matches");
            assert!(r.stdout.contains("Champion: "), "{}", r.stdout);
        } else {
            let groups = csv_records(&out.join("groups.csv"));
            assert_eq!(groups.len(), 5);
            assert_eq!(
                groups.iter().filter(|g| g["qualified"] == "true").count(),
                4
            );
            let matches = csv_records(&out.join("bracket.csv"));
            assert_eq!(matches.len(), 3, "two semi-finals and a final");
        }
        // The HTML report shows the format's own tables.
        let report = referee(&["report", out.to_str().unwrap()], BUDGET);
        assert_eq!(report.status, 0, "{}", report.stderr);
        let index = std::fs::read_to_string(out.join("report/index.html")).unwrap();
        let wanted = match name {
            "swiss-example" => "<h2 id=\"swiss\">",
            "groups-example" => "<h2 id=\"groups\">",
            _ => "Champion: ",
        };
        assert!(index.contains(wanted), "{wanted} not in the report");
    }
}

/// A run with the HTML report (the other runs here skip it).
fn run_reported(file: &Path, out: &Path) -> Run {
    let command = command(file, out, false);
    let args: Vec<_> = command
        .get_args()
        .filter(|a| *a != "--no-report")
        .map(|a| a.to_owned())
        .collect();
    let mut reported = Command::new(command.get_program());
    reported.args(args);
    let run = run_within(reported, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    run
}

/// `standings.csv`'s bots, best first.
fn standings_order(out: &Path) -> Vec<String> {
    csv_records(&out.join("standings.csv"))
        .into_iter()
        .map(|r| r["bot"].clone())
        .collect()
}

/// The leaderboard's bots as the HTML report lists them, best first.
fn report_order(out: &Path) -> Vec<String> {
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    html.split("<tr data-bot=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

/// The "N of M games" of the report's header.
fn report_count(out: &Path) -> String {
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    let at = html.find(" games").expect("a games count");
    let head = &html[..at];
    let start = head.rfind(" · ").expect("the count after the game") + " · ".len();
    head[start..].to_string()
}

/// Groups, one tie on the qualifying line: file order a3 c3 k5 b3 k6 k7,
/// two groups, one goes on. A = a3 b3 k6 (seeds 1, 4, 5): a3 and b3
/// crack together (every game between them drawn) and both beat k6, so
/// they are level in points and rating: the better seed, a3, goes on.
/// B = c3 k5 k7: c3. The final a3-c3 is drawn, then both tie-break pairs
/// (4 games), and a3 wins as the higher seed: 12 group games, 2 + 4 in
/// the final, 18 in all where 14 were announced. The standings rank by
/// the round reached: a3, c3 (who has more points: 8 in its group), then
/// the others by points (b3 6, k5 4).
#[test]
fn a_group_tie_goes_to_the_better_seed_and_the_counts_take_in_the_tie_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["a3", "c3", "k5", "b3", "k6", "k7"];
    let file = write_file(dir.path(), "gt", "groups", "groups = 2\nadvance = 1", &bots);
    let out = dir.path().join("out");
    let run = run_reported(&file, &out);
    let groups: Vec<String> = csv_records(&out.join("groups.csv"))
        .iter()
        .map(|r| {
            format!(
                "{}{} {} {} {}",
                r["group"], r["rank"], r["bot"], r["points"], r["qualified"]
            )
        })
        .collect();
    assert_eq!(
        groups[..3],
        ["A1 a3 6 true", "A2 b3 6 false", "A3 k6 0 false"],
        "{groups:?}"
    );
    let bracket = std::fs::read_to_string(out.join("bracket.txt")).unwrap();
    assert!(bracket.contains("Champion: a3"), "{bracket}");
    assert_eq!(game_results_by_number(&out.join("games.csv")).len(), 18);
    assert!(run.stdout.contains("18 of 18 games"), "{}", run.stdout);
    assert_eq!(report_count(&out), "18 of 18");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(meta["total_games"], 18);

    let order = standings_order(&out);
    assert_eq!(order[..4], ["a3", "c3", "b3", "k5"], "{order:?}");
    assert_eq!(report_order(&out), order);
    assert!(
        run.stdout.contains("ranked by the round reached"),
        "{}",
        run.stdout
    );
}

/// A knockout: six bots (the hand-worked bracket above): k1 champion, k2
/// finalist, k4 and a3 losing semi-finalists, b3 and k5 out in the
/// quarter-finals. a3 has 6 points (six drawn games), more than k2's 4:
/// ranked by the round reached, the finalist is above it. 10 games
/// announced, 14 played (a3-b3's two tie-break pairs).
#[test]
fn a_knockout_ranks_by_the_round_reached_and_counts_its_tie_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["k2", "k1", "a3", "k5", "k4", "b3"];
    let file = write_file(dir.path(), "ko", "knockout", "", &bots);
    let out = dir.path().join("out");
    let run = run_reported(&file, &out);
    let order = standings_order(&out);
    assert_eq!(order, ["k1", "k2", "a3", "k4", "b3", "k5"]);
    assert_eq!(report_order(&out), order);
    assert_eq!(report_count(&out), "14 of 14");
    assert!(run.stdout.contains("14 of 14 games"), "{}", run.stdout);
    // `referee report` alone ranks from the folder's bracket.csv.
    std::fs::remove_dir_all(out.join("report")).unwrap();
    let report = referee(&["report", out.to_str().unwrap()], BUDGET);
    assert_eq!(report.status, 0, "{}", report.stderr);
    assert_eq!(report_order(&out), order);
}

/// A gauntlet: challengers r2 and r4 play the bots under test t1, t3, t5
/// and t6, who play only them. r2 beats all but t1 and has the most
/// points (12 of 8 games; t1 8 of 4); still the bots under test rank
/// first, then the challengers.
#[test]
fn a_gauntlet_ranks_the_bots_under_test_apart_from_the_challengers() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["r2", "r4", "t1", "t3", "t5", "t6"];
    let file = write_file(
        dir.path(),
        "ga",
        "gauntlet",
        "challengers = [\"r2\", \"r4\"]",
        &bots,
    );
    let out = dir.path().join("out");
    let run = run_reported(&file, &out);
    let rows = csv_records(&out.join("standings.csv"));
    let points = |bot: &str| -> u32 {
        rows.iter().find(|r| r["bot"] == bot).unwrap()["points"]
            .parse()
            .unwrap()
    };
    assert!(
        points("r2") > points("t1"),
        "the case: a challenger with the most points"
    );
    let order = standings_order(&out);
    assert_eq!(order, ["t1", "t3", "t5", "t6", "r2", "r4"]);
    assert_eq!(report_order(&out), order);
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(html.contains("the bots under test rank first"), "says so");
    assert!(
        run.stdout.contains("the bots under test rank first"),
        "{}",
        run.stdout
    );
}

/// Whether `text` shows a negative zero: `-0`, `-0.0`, ... not followed
/// by another digit.
fn negative_zero(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices("-0") {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'.') {
            continue;
        }
        let mut end = i + 2;
        let mut zero = true;
        if bytes.get(end) == Some(&b'.') {
            end += 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                zero &= bytes[end] == b'0';
                end += 1;
            }
        } else if bytes.get(end).is_some_and(|b| b.is_ascii_digit()) {
            zero = false;
        }
        if zero {
            let from = i.saturating_sub(30);
            return Some(text[from..(end + 10).min(text.len())].to_string());
        }
    }
    None
}

/// Three bots that draw every game: each rating is 0 but for the last
/// bits of the fit, which are not to show as `-0` anywhere; nor is the
/// LLR of an A/B test of two equal bots, a hair below 0.
#[test]
fn a_rating_of_zero_is_never_shown_as_minus_zero() {
    assert!(negative_zero("a,-0.0,b").is_some() && negative_zero("x -0 ").is_some());
    assert!(negative_zero("-0.5 -10 1-0.01").is_none());
    let dir = tempfile::tempdir().unwrap();
    let bots = ["a3", "b3", "c3"];
    let file = write_file(dir.path(), "z", "groups", "groups = 1\nadvance = 2", &bots);
    let out = dir.path().join("out");
    let run = run_reported(&file, &out);
    let mut texts = vec![("stdout".to_string(), run.stdout.clone())];
    for name in ["standings.csv", "groups.csv", "report/index.html"] {
        texts.push((
            name.into(),
            std::fs::read_to_string(out.join(name)).unwrap(),
        ));
    }
    // Two equal bots, one drawn pair: an LLR a hair below 0.
    let scripted = cracks_at(3);
    let sprt = referee(
        &[
            "sprt",
            "arrow5",
            &scripted,
            &scripted,
            "--max-games",
            "2",
            "--elo0",
            "0",
            "--elo1",
            "1",
        ],
        BUDGET,
    );
    assert_eq!(sprt.status, 3, "{}\n{}", sprt.stdout, sprt.stderr);
    assert!(sprt.stdout.contains("LLR 0.00 "), "{}", sprt.stdout);
    texts.push(("sprt".into(), sprt.stdout));
    for (name, text) in texts {
        assert_eq!(negative_zero(&text), None, "{name}");
    }
}

/// games.csv of a format played in rounds is in schedule order whatever
/// order the games end in: `s1` (cracks at 1) sleeps before its code
/// when it moves first, so with two workers its game 1 ends after games
/// 2 and 3 (and game 5 after game 6).
#[test]
fn a_knockout_writes_its_games_in_schedule_order_with_two_workers() {
    let dir = tempfile::tempdir().unwrap();
    let sleepy = dir.path().join("sleepy.py");
    std::fs::write(
        &sleepy,
        "import sys, time\n\
         first = True\n\
         for line in sys.stdin:\n    \
             words = line.split()\n    \
             if first:\n        \
                 first = False\n        \
                 if len(words) > 2 and words[2] == 'first':\n            \
                     time.sleep(0.5)\n        \
                 continue\n    \
             if not words or words[0] in ('signal', 'feedback', 'opponent'):\n        \
                 continue\n    \
             if words[0] == 'end':\n        \
                 break\n    \
             print('01234', flush=True)\n",
    )
    .unwrap();
    let bots = [
        ("s1", format!("python3 {}", sleepy.display())),
        ("k2", cracks_at(2)),
        ("k3", cracks_at(3)),
        ("k4", cracks_at(4)),
    ];
    let bots: Vec<(&str, String)> = bots.iter().map(|(n, c)| (*n, c.clone())).collect();
    let file = write_file_of(dir.path(), "so", "knockout", "", &bots);
    let out = dir.path().join("out");
    run(&file, &out, false);
    let numbers: Vec<u64> = game_results(&out.join("games.csv"))
        .iter()
        .map(|r| r[0].parse().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    let text = std::fs::read_to_string(out.join("bracket.txt")).unwrap();
    assert!(text.ends_with("Champion: s1\n"), "{text}");
}

/// The 95% interval of two bots, one winning both games, worked by hand:
/// by symmetry the gammas are g and 1/g, with g solving the first bot's
/// likelihood equation (2 wins and the prior's half: 2.5 equals
/// 2 g/(g + 1/g) plus g/(g + 1)); the half-width is 1.96 standard errors
/// of the centred rating (the ratings are shown centred), from the inverse
/// information.
#[test]
fn the_rating_interval_is_from_the_inverse_information() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "iv", "round-robin", "", &["k1", "k2"]);
    let out = dir.path().join("out");
    run(&file, &out, false);
    let (mut lo, mut hi) = (1.0f64, 100.0f64);
    for _ in 0..200 {
        let g = (lo + hi) / 2.0;
        let expected = 2.0 * g / (g + 1.0 / g) + g / (g + 1.0);
        if expected < 2.5 {
            lo = g;
        } else {
            hi = g;
        }
    }
    let g = (lo + hi) / 2.0;
    let p = g * g / (g * g + 1.0);
    let w = 2.0 * p * (1.0 - p);
    let prior = |x: f64| x / (x + 1.0).powi(2);
    let (d0, d1) = (prior(g) + w, prior(1.0 / g) + w);
    let scale = 400.0 / std::f64::consts::LN_10;
    // The centred rating (θ₀ - θ₁) / 2, under Σ = the information's
    // inverse, [[d1, w], [w, d0]] / det: (Σ₀₀ - 2Σ₀₁ + Σ₁₁) / 4.
    let det = d0 * d1 - w * w;
    let half_width = 1.96 * ((d1 - 2.0 * w + d0) / (4.0 * det)).sqrt() * scale;
    let uncentred = 1.96 * (d1 / det).sqrt() * scale;
    assert!(uncentred - half_width > 5.0, "the two readings differ");
    let k1 = csv_records(&out.join("standings.csv"))
        .into_iter()
        .find(|r| r["bot"] == "k1")
        .unwrap();
    let cell = |c: &str| -> f64 { k1[c].parse().unwrap() };
    assert!((cell("rating") - g.ln() * scale).abs() < 0.06, "{k1:?}");
    let shown = cell("rating_high") - cell("rating");
    assert!((shown - half_width).abs() < 0.11, "{shown} vs {half_width}");
}
