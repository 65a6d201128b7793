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
