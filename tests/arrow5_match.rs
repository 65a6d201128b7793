//! `referee match arrow5` end to end with the sample bots.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(60);

#[test]
fn strong_against_random_finishes_with_a_json_record() {
    let strong = sample_bin("arrow5_strong");
    let random = sample_bin("arrow5_random");
    let run = referee(
        &[
            "match", "arrow5", &strong, &random, "--seed", "11", "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["game"], "arrow5");
    assert_eq!(v["variant"], "classic");
    assert_eq!(v["seed"], 11);
    assert!(["a", "b", "draw"].contains(&v["winner"].as_str().unwrap()));
    for p in v["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok");
        for key in [
            "attacks",
            "time_total_ms",
            "time_max_ms",
            "cpu_total_ms",
            "peak_memory_kb",
        ] {
            assert!(p[key].is_number(), "{key} missing in {p}");
        }
        assert!(p["attacks"].as_u64().unwrap() >= 1);
    }
}

/// The rules' complete example game, through the binary: B's code is
/// 1 0 3 6 9 and A plays the example's five attacks.
#[test]
fn the_rules_example_game_comes_out_exactly() {
    let scripted = sample_file("python/scripted.py");
    let a =
        format!("python3 {scripted} '5 0 1 E 2,0 5 7 9 2,6 0 E 3 1,3 0 6 1 E,6 0 3 1 9,1 0 3 6 9'");
    let b =
        format!("python3 {scripted} '1 0 3 6 9,0 1 2 3 4,1 0 5 2 E,5 0 2 E 1,5 0 1 2 E,5 0 2 1 E'");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("example.jsonl");
    let run = referee(
        &[
            "match",
            "arrow5",
            &a,
            &b,
            "--seed",
            "1",
            "--transcript",
            path.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    for line in [
        "round  1  A attacks 0 5 7 9 2   > >",
        "round  2  A attacks 6 0 👁 3 1   > · < <",
        "round  3  A attacks 3 0 6 1 👁   > · > <",
        "round  4  A attacks 6 0 3 1 9   > · · < ·",
        "round  5  A attacks 1 0 3 6 9   · · · · ·   cracked!",
        "Result: A (scripted) wins  [cracked]",
    ] {
        assert!(
            run.stdout.contains(line),
            "missing {line:?} in\n{}",
            run.stdout
        );
    }
    let to_a: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "message" && e["bot"] == "a" && e["dir"] == "to")
        .map(|e| e["line"].as_str().unwrap().to_string())
        .filter(|l| l.starts_with("signal") || l.starts_with("end"))
        .collect();
    assert_eq!(
        to_a,
        [
            "signal > >",
            "signal > . < <",
            "signal > . > <",
            "signal > . . < .",
            "signal . . . . .",
            "end win cracked"
        ]
    );
}
