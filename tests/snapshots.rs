//! Snapshots (insta) of the machine-readable outputs of every game and of
//! every command's `--help`: a change to any of them shows as a diff to
//! review (`cargo insta review`, or `INSTA_UPDATE=always cargo test` then
//! `git diff tests/snapshots`). Games are fixed by a key and a seed and
//! played by deterministic sample bots; what varies from run to run
//! (times, CPU, memory, paths of this checkout) is redacted.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);
const KEY: &str = "5a17ed5a17ed5a17ed5a17ed5a17ed5a17ed5a17ed5a17ed5a17ed5a17ed5a17";

/// The two sample bots of each game, and game flags, for its snapshots.
const GAMES: &[(&str, &str, &str, &[&str])] = &[
    ("arrow5", "arrow5_strong", "arrow5_random", &[]),
    (
        "mastermind",
        "mastermind_knuth",
        "mastermind_random",
        &["--codes", "random"],
    ),
    (
        "safecracker",
        "safecracker_optimal",
        "safecracker_random",
        &[],
    ),
    // The strong Cryptron bot searches within a time budget (its games vary
    // with the machine); the random one takes its seed as its argument.
    ("cryptron", "cryptron_random 5", "cryptron_random 7", &[]),
];

/// A sample bot's command: its binary, then any arguments.
fn bot(spec: &str) -> String {
    let mut words = spec.split(' ');
    let binary = sample_bin(words.next().unwrap());
    words.fold(binary, |command, arg| format!("{command} {arg}"))
}

/// Paths of this checkout and build, replaced by placeholders.
fn unplace(text: &str) -> String {
    let bin = referee_bin();
    let target = bin.parent().unwrap().to_string_lossy().into_owned();
    let root = root().to_string_lossy().into_owned();
    text.replace(&target, "<target>").replace(&root, "<root>")
}

/// Does a field's name say it holds a measurement that varies per run?
fn measured(name: &str) -> bool {
    ["ms", "cpu", "peak", "time", "elapsed", "rate"]
        .iter()
        .any(|m| name.contains(m))
}

fn redact_json(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if measured(key) && (v.is_number() || v.is_string()) {
                    *v = Value::String("[measured]".into());
                } else {
                    redact_json(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_json),
        Value::String(s) => *s = unplace(s),
        _ => {}
    }
}

/// A CSV file with its measured columns blanked and paths placed.
fn redact_csv(path: &Path) -> String {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let mut writer = csv::Writer::from_writer(vec![]);
    writer.write_record(&headers).unwrap();
    for record in reader.records() {
        let record = record.unwrap();
        let row: Vec<String> = record
            .iter()
            .zip(headers.iter())
            .map(|(value, name)| {
                if measured(name) {
                    "[measured]".to_string()
                } else {
                    unplace(value)
                }
            })
            .collect();
        writer.write_record(&row).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

#[test]
fn match_json_of_every_game() {
    for &(game, a, b, flags) in GAMES {
        let (a, b) = (bot(a), bot(b));
        let mut args = vec!["match", game, &a, &b, "--seed", "7", "--key", KEY, "--json"];
        args.extend_from_slice(flags);
        let run = referee(&args, BUDGET);
        assert_eq!(run.status, 0, "{}", run.stderr);
        let mut record = run.json();
        redact_json(&mut record);
        insta::assert_snapshot!(
            format!("match_json_{game}"),
            serde_json::to_string_pretty(&record).unwrap()
        );
    }
}

/// A tournament's games are seeded by their identity, which holds the
/// bots' content: a binary's bytes differ from one checkout and build to
/// another (they embed paths), so the tournament snapshots are played by
/// sources, whose content is the same everywhere.
const SOURCE_BOTS: &[(&str, &str)] = &[
    (
        "sample_bots/c/arrow5_starter.c",
        "sample_bots/python/arrow5_starter.py",
    ),
    (
        "sample_bots/c/mastermind_starter.c",
        "sample_bots/python/mastermind_starter.py",
    ),
    (
        "sample_bots/c/safecracker_starter.c",
        "sample_bots/python/safecracker_starter.py",
    ),
    (
        "sample_bots/c/cryptron_starter.c",
        "sample_bots/python/cryptron_starter.py",
    ),
];

#[test]
fn tournament_files_of_every_game() {
    for (&(game, _, _, flags), &(a, b)) in GAMES.iter().zip(SOURCE_BOTS) {
        let (a, b) = (root().join(a), root().join(b));
        let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
        let dir = tempfile::tempdir().unwrap();
        let mut options = String::new();
        for pair in flags.chunks(2) {
            options.push_str(&format!(
                "{} = \"{}\"\n",
                pair[0].trim_start_matches("--"),
                pair[1]
            ));
        }
        let file = dir.path().join("t.toml");
        std::fs::write(
            &file,
            format!(
                "name = \"snap\"\ngame = \"{game}\"\ngames_per_pairing = 4\nseed = 11\n\
                 [options]\n{options}\
                 [[bots]]\nname = \"first\"\nbot = \"{a}\"\n\
                 [[bots]]\nname = \"second\"\nbot = \"{b}\"\n",
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
                "--jobs",
                "1",
                "--key",
                KEY,
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        // games.csv in game order (workers may finish out of order).
        let games = redact_csv(&out.join("games.csv"));
        let mut lines: Vec<&str> = games.lines().collect();
        lines[1..].sort_by_key(|l| l.split(',').next().unwrap().parse::<u64>().unwrap());
        let games = lines
            .join("\n")
            .replace(&dir.path().to_string_lossy().into_owned(), "<dir>");
        insta::assert_snapshot!(format!("games_csv_{game}"), games);
        insta::assert_snapshot!(
            format!("standings_csv_{game}"),
            redact_csv(&out.join("standings.csv"))
        );
    }
}

#[test]
fn bench_csv_of_every_code_game() {
    for &(game, solver, _, _) in &GAMES[..3] {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("bench.csv");
        let run = referee(
            &[
                "bench",
                game,
                &bot(solver),
                "--samples",
                "5",
                "--jobs",
                "1",
                "--key",
                KEY,
                "--csv",
                csv.to_str().unwrap(),
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        insta::assert_snapshot!(format!("bench_csv_{game}"), redact_csv(&csv));
    }
}

#[test]
fn help_of_every_command() {
    let run = referee(&["--help"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("help", unplace(&run.stdout));
    // Every subcommand the top-level help lists (but `help` itself).
    let commands: Vec<String> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's own line; a description wrapped onto the next line
        // is indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    for command in commands {
        let run = referee(&[&command, "--help"], BUDGET);
        assert_eq!(run.status, 0, "{command}: {}", run.stderr);
        insta::assert_snapshot!(format!("help_{command}"), unplace(&run.stdout));
    }
}
