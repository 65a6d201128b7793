//! Each misbehaving sample bot gets its documented verdict, its opponent
//! wins, and nothing it started outlives the game.
//!
//! The table is the contract: one row per fixture in `sample_bots/hostile/`,
//! one test per row and seat.

use std::time::Duration;

use crate::harness::*;

/// The table: one test per fixture and seat, `name: fixture, verdict,
/// detail [, at_move]`. The detail is words the verdict's detail must
/// contain; `at_move` the exact reply at fault, for faults in a reply the
/// bot gave (the fixture answers `code`, reply 1, then its first attack,
/// reply 2, is at fault and counted).
macro_rules! verdicts {
    ($($name:ident: $fixture:literal, $verdict:literal, $detail:literal $(, $at_move:literal)?;)*) => {
        $(
            mod $name {
                #[test]
                fn as_seat_a() {
                    let at_move: &[u64] = &[$($at_move)?];
                    super::check($fixture, false, $verdict, $detail, at_move.first().copied());
                }

                #[test]
                fn as_seat_b() {
                    let at_move: &[u64] = &[$($at_move)?];
                    super::check($fixture, true, $verdict, $detail, at_move.first().copied());
                }
            }
        )*
    };
}

verdicts! {
    sleeper: "sleeper.py", "timeout", "no reply within 1s";
    spinner: "spinner.py", "timeout", "no reply within 1s";
    trickle: "trickle.py", "timeout", "no reply within 1s";
    no_read: "no_read.py", "timeout", "no reply within 2s";
    crasher: "crasher.py", "crash", "exited with status 1";
    forker: "forker.py", "crash", "exited with status 0";
    closes_stdout: "closes_stdout.py", "crash", "closed its stdout";
    illegal: "illegal.py", "illegal", "appears more than once", 2;
    garbage: "garbage.py", "protocol", "hello", 2;
    flood: "flood.py", "output", "longer than 1024 bytes";
    memory_hog: "memory_hog.py", "memory", "over the 65536 KiB limit plus";
    stderr_flood: "stderr_flood.py", "ok", "";
    ignores_term: "ignores_term.py", "ok", "";
}

/// A tag on the fixture's command line, so that the check for leftover
/// processes sees this test's bots only (other tests run the same fixtures).
/// The tests run in parallel: each has a tag of its own (`test`).
fn tag(fixture: &str, seat_b: bool, test: &str) -> String {
    let seat = if seat_b { "b" } else { "a" };
    format!("verdicts-{test}-{}-{fixture}-{seat}", std::process::id())
}

fn play_against(fixture: &str, seat_b: bool, test: &str) -> serde_json::Value {
    let hostile = format!(
        "python3 {} {}",
        sample_file(&format!("hostile/{fixture}")),
        tag(fixture, seat_b, test)
    );
    let good = sample_bin("arrow5_random");
    let (a, b) = if seat_b {
        (&good, &hostile)
    } else {
        (&hostile, &good)
    };
    let mut args = vec![
        "match",
        "arrow5",
        a,
        b,
        "--time-limit",
        "1s",
        "--startup-limit",
        "2s",
        "--max-rounds",
        "5",
        "--seed",
        "3",
        "--json",
    ];
    // forker.py is about a child that holds the pipe, so it must be allowed
    // to fork (by default the fork itself fails: tests/sandbox.rs).
    if fixture == "forker.py" {
        args.push("--allow-fork");
    }
    let run = referee(&args, Duration::from_secs(30));
    assert_eq!(
        run.status, 0,
        "a finished game exits 0 whatever the verdict: {}",
        run.stderr
    );
    run.json()
}

/// Plays `fixture` in one seat against a good bot: the fixture gets its
/// verdict (with `detail` and, if given, the exact `at_move`), its opponent
/// wins, and nothing it started outlives the game.
fn check(fixture: &str, seat_b: bool, verdict: &str, detail: &str, at_move: Option<u64>) {
    let record = play_against(fixture, seat_b, "table");
    let (bad, good, good_label) = if seat_b { (1, 0, "a") } else { (0, 1, "b") };
    let player = &record["players"][bad];
    assert_eq!(player["verdict"], verdict, "{fixture}: {player}");
    assert_eq!(record["players"][good]["verdict"], "ok", "{fixture}");
    if verdict != "ok" {
        assert_eq!(record["winner"], good_label, "{fixture}: the opponent wins");
        assert_eq!(record["reason"], "disqualified");
        let d = &player["disqualification"];
        assert!(
            d["detail"].as_str().unwrap().contains(detail),
            "{fixture}: {d}"
        );
        assert!(d["at_move"].as_u64().unwrap() >= 1, "{fixture}: {d}");
        if let Some(at_move) = at_move {
            assert_eq!(d["at_move"], at_move, "{fixture}: {d}");
            assert_eq!(player["replies"], at_move, "{fixture}: {player}");
        }
    } else {
        assert_eq!(
            player["disqualification"],
            serde_json::Value::Null,
            "{fixture}"
        );
    }
    let left = processes_with(&tag(fixture, seat_b, "table"));
    assert!(left.is_empty(), "{fixture} left processes behind: {left:?}");
}

#[test]
fn crash_keeps_the_stderr_tail() {
    let record = play_against("crasher.py", true, "tail");
    let tail: Vec<&str> = record["players"][1]["stderr_tail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(tail.contains(&"about to fail"), "{tail:?}");
    assert!(tail.iter().any(|l| l.contains("RuntimeError")), "{tail:?}");
}

#[test]
fn a_bot_that_cannot_start_loses_with_crash() {
    // Executable, but its interpreter does not exist: exec fails after validation.
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("broken_bot");
    std::fs::write(&bot, "#!/nonexistent/interpreter\n").unwrap();
    std::fs::set_permissions(&bot, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let good = sample_bin("arrow5_random");
    let run = referee(
        &["match", "arrow5", &good, bot.to_str().unwrap(), "--json"],
        Duration::from_secs(30),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    assert_eq!(record["players"][1]["verdict"], "crash");
    let d = &record["players"][1]["disqualification"];
    assert_eq!(d["at_move"], 0, "{d}");
    assert!(
        d["detail"]
            .as_str()
            .unwrap()
            .contains("could not be started"),
        "{d}"
    );
    assert_eq!(record["winner"], "a");
}
