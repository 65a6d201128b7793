//! CPU time per move (transcript, record, replay, timeout details) and the
//! time bank, with `sample_bots/hostile/paced.py`: a bot that sleeps or
//! spins on chosen moves. Only lower bounds on CPU are asserted, and that a
//! sleeping bot's CPU stays below its wall time: never how fast anything ran.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(60);

/// A tag on the fixture's command line, so that the check for leftover
/// processes sees this test's bots only.
fn tag(test: &str) -> String {
    format!("move-times-test-{}-{test}", std::process::id())
}

fn paced(mode: &str, ms: u32, which: &str, test: &str) -> String {
    format!(
        "python3 {} {mode} {ms} {which} {}",
        sample_file("hostile/paced.py"),
        tag(test)
    )
}

/// The replies (`dir` `from`) of seat `bot` in a transcript, in order.
fn replies(transcript: &str, bot: &str) -> Vec<serde_json::Value> {
    transcript
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "message" && e["dir"] == "from" && e["bot"] == bot)
        .collect()
}

#[test]
fn cpu_per_move_tells_a_spinning_bot_from_a_sleeping_one() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("game.jsonl");
    // It spins 70 ms of CPU a move and at least 50 ms are asserted: the
    // kernel's CPU clock of another process that is running when it is read
    // lags by up to one scheduler tick (1 to 10 ms).
    let spinner = paced("spin", 70, "all", "cpu");
    let sleeper = paced("sleep", 300, "all", "cpu");
    let run = referee(
        &[
            "match",
            "arrow5",
            &spinner,
            &sleeper,
            "--max-rounds",
            "2",
            "--time-limit",
            "5s",
            "--seed",
            "3",
            "--transcript",
            transcript.to_str().unwrap(),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    for p in record["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok", "{p}");
    }

    let text = std::fs::read_to_string(&transcript).unwrap();
    // Reply 1 is the code; every attack after it spins or sleeps.
    let spun = replies(&text, "a");
    assert_eq!(spun.len(), 3, "a code and two attacks: {text}");
    for reply in &spun[1..] {
        assert!(reply["cpu_us"].as_u64().unwrap() >= 50_000, "{reply}");
    }
    let slept = replies(&text, "b");
    assert_eq!(slept.len(), 3, "{text}");
    for reply in &slept[1..] {
        let wall = reply["wall_us"].as_u64().unwrap();
        let cpu = reply["cpu_us"].as_u64().unwrap();
        assert!(
            cpu < wall,
            "a sleeping bot uses less CPU than wall time: {reply}"
        );
    }

    let [a, b] = [&record["players"][0], &record["players"][1]];
    assert!(a["cpu_max_ms"].as_f64().unwrap() >= 50.0, "{a}");
    assert!(
        b["cpu_max_ms"].as_f64().unwrap() < b["time_max_ms"].as_f64().unwrap(),
        "{b}"
    );

    // `referee replay` shows each reply's wall and CPU time.
    let replay = referee(&["replay", transcript.to_str().unwrap()], BUDGET);
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    let reply_lines: Vec<&str> = replay
        .stdout
        .lines()
        .filter(|l| l.contains("-> "))
        .collect();
    assert_eq!(reply_lines.len(), 6, "{}", replay.stdout);
    for line in reply_lines {
        assert!(line.contains("[took ") && line.contains(", cpu "), "{line}");
    }
    assert!(processes_with(&tag("cpu")).is_empty());
}

#[test]
fn the_time_bank_pays_for_one_slow_move_but_not_for_every_one() {
    // 300 ms a move and a 1 s bank: one 500 ms move draws about 200 ms;
    // 500 ms on every move empties the bank by the fifth or sixth attack.
    let once = paced("sleep", 500, "2", "bank");
    let always = paced("sleep", 500, "all", "bank");
    let run = referee(
        &[
            "match",
            "arrow5",
            &once,
            &always,
            "--max-rounds",
            "8",
            "--time-limit",
            "300ms",
            "--time-bank",
            "1s",
            "--seed",
            "3",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    let [a, b] = [&record["players"][0], &record["players"][1]];
    assert_eq!(a["verdict"], "ok", "one slow move is paid by the bank: {a}");
    assert_eq!(b["verdict"], "timeout", "{b}");
    assert_eq!(record["winner"], "a");
    let d = &b["disqualification"];
    let detail = d["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("no reply within 300ms") && detail.contains("time bank"),
        "{d}"
    );
    assert!(detail.contains("used up"), "{d}");
    // It slept: the detail says so from its CPU time.
    assert!(detail.contains("not computing"), "{d}");
    // Every attack (replies 2 on) draws at least 200 ms, so the bank cannot
    // pay for a sixth one (how much sooner it runs dry depends on the machine).
    let at_move = d["at_move"].as_u64().unwrap();
    assert!((2..=7).contains(&at_move), "{d}");
    // The replay command plays the game again with the same bank.
    let replay = record["replay"].as_str().unwrap();
    assert!(
        replay.contains("--time-limit 300ms") && replay.contains("--time-bank 1s"),
        "{replay}"
    );
    assert!(processes_with(&tag("bank")).is_empty());
}

#[test]
fn a_bad_time_bank_is_refused_before_any_bot_starts() {
    let good = sample_bin("arrow5_random");
    let run = referee(
        &["match", "arrow5", &good, &good, "--time-bank", "forever"],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--time-bank") && run.stderr.contains("not a duration"),
        "{}",
        run.stderr
    );
}

/// The first reply is given the start-up limit, but never less than a
/// move's time: `--startup-limit 100ms --time-limit 3s` lets a bot that
/// takes 0.4 s to start answer its first request.
#[test]
fn the_first_reply_gets_at_least_a_moves_time() {
    let dir = tempfile::tempdir().unwrap();
    // The bot may read its own folder only: the starter sits beside it.
    let starter = dir.path().join("starter.py");
    std::fs::copy(sample_file("python/arrow5_starter.py"), &starter).unwrap();
    let slow = dir.path().join("slow_start.py");
    std::fs::write(
        &slow,
        format!(
            "import time, runpy\ntime.sleep(0.4)\nrunpy.run_path({:?}, run_name='__main__')\n",
            starter
        ),
    )
    .unwrap();
    let random = sample_bin("arrow5_random");
    let args = |startup: &str| {
        vec![
            "match".to_string(),
            "arrow5".into(),
            slow.to_str().unwrap().into(),
            random.clone(),
            "--seed".into(),
            "4".into(),
            "--max-rounds".into(),
            "3".into(),
            "--time-limit".into(),
            "3s".into(),
            "--startup-limit".into(),
            startup.into(),
            "--json".into(),
        ]
    };
    let run = |startup: &str| {
        let args = args(startup);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        referee(&args, Duration::from_secs(60))
    };
    let record = run("100ms").json();
    assert_eq!(record["players"][0]["verdict"], "ok", "{record}");
    // The same bot with a move time below its start: a timeout at once.
    let args = args("100ms");
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let at = args.iter().position(|a| *a == "3s").unwrap();
    args[at] = "100ms";
    let record = referee(&args, Duration::from_secs(60)).json();
    assert_eq!(record["players"][0]["verdict"], "timeout", "{record}");
}
