//! Each misbehaving sample bot gets its documented verdict, its opponent
//! wins, and nothing it started outlives the game.
//!
//! The table is the contract: one row per fixture in `sample_bots/hostile/`,
//! one test per row and seat.

use crate::harness::*;

/// The contract of the hostile fixtures, shared with `tests/sandbox.rs`
/// (which plays every row under basic and strict, from private copies):
/// `name: fixture, verdict under basic, verdict under strict, detail
/// [, at_move]`. The detail is words the verdict's detail must contain; a
/// strict verdict `a|b` accepts either; `at_move` is the exact reply at
/// fault, for faults in a reply the bot gave (the fixture answers `code`,
/// reply 1, then its first attack, reply 2, is at fault and counted). Here
/// every row is one test per seat, under basic.
macro_rules! threats {
    ($($name:ident: $fixture:literal, $basic:literal, $strict:literal, $detail:literal $(, $at_move:literal)?;)*) => {
        /// (fixture, verdict under basic, verdict under strict, detail)
        pub const THREATS: &[(&str, &str, &str, &str)] = &[$(($fixture, $basic, $strict, $detail)),*];

        $(
            mod $name {
                #[test]
                fn as_seat_a() {
                    let at_move: &[u64] = &[$($at_move)?];
                    super::check($fixture, false, $basic, $detail, at_move.first().copied());
                }

                #[test]
                fn as_seat_b() {
                    let at_move: &[u64] = &[$($at_move)?];
                    super::check($fixture, true, $basic, $detail, at_move.first().copied());
                }
            }
        )*
    };
}

threats! {
    sleeper: "sleeper.py", "timeout", "timeout", "no reply within 1s";
    spinner: "spinner.py", "timeout", "timeout", "no reply within 1s";
    trickle: "trickle.py", "timeout", "timeout", "no reply within 1s";
    no_read: "no_read.py", "timeout", "timeout", "no reply within 2s";
    crasher: "crasher.py", "crash", "crash", "exited with status 1";
    // A child holding the pipe after the bot exits (forking allowed).
    forker: "forker.py", "crash", "crash", "exited with status 0";
    closes_stdout: "closes_stdout.py", "crash", "crash", "closed its stdout";
    illegal: "illegal.py", "illegal", "illegal", "appears more than once", 2;
    garbage: "garbage.py", "protocol", "protocol", "hello", 2;
    flood: "flood.py", "output", "output", "longer than 1024 bytes";
    memory_hog: "memory_hog.py", "memory", "memory", "over the 65536 KiB limit";
    big_block: "big_block.py", "memory", "memory", "over the 65536 KiB limit";
    big_file: "big_file.py", "crash", "crash", "exited with status 1";
    stderr_flood: "stderr_flood.py", "ok", "ok", "";
    ignores_term: "ignores_term.py", "ok", "ok", "";
    // A grandchild with its own session keeping stdout open: the game goes
    // on, the grandchild is swept at the end.
    escaper: "escaper.py", "ok", "ok", "";
    // Forks until it cannot, never answers. Under strict the whole tree's
    // memory counts, so the memory limit may strike before the time is up.
    fork_bomb: "fork_bomb.py", "timeout", "timeout|memory", "";
    // Network: refused under both (seccomp: no socket but AF_UNIX; strict
    // also has no interface); the fixture would exit 4 if it got through.
    network: "network.py", "ok", "ok", "";
    // Writes outside its working directory: refused by Landlock under
    // basic, a read-only file system (and Landlock) under strict; it would
    // exit 5 if one got through.
    writes_outside: "writes_outside.py", "ok", "ok", "";
    // Tries to signal every other process (signal 0: a permission check
    // only); it would answer `LEAK ...`, a protocol fault, if one got through.
    signaller: "signaller.py", "ok", "ok", "";
    // A grandchild that leaves the session and clears its environment:
    // still a descendant of the bot's launcher (its subreaper), which kills
    // it when the game ends; under strict also the PID namespace's end.
    vanisher: "vanisher.py", "ok", "ok", "";
    // New namespaces (unshare, setns, clone with a namespace flag), which
    // would let a bot remount what it sees: refused by seccomp; it would
    // exit 6 if one got through.
    namespaces: "namespaces.py", "ok", "ok", "";
}

/// A tag on the fixture's command line, so that the check for leftover
/// processes sees this test's bots only (other tests run the same fixtures).
/// The tests run in parallel: each has a tag of its own (`test`).
fn tag(fixture: &str, seat_b: bool, test: &str) -> String {
    let seat = if seat_b { "b" } else { "a" };
    format!("verdicts-{test}-{}-{fixture}-{seat}", std::process::id())
}

/// A game of `a` against `b`: five rounds, 1 s a move (2 s to start),
/// seed 3, the record as JSON.
fn short_game(a: &str, b: &str) -> Referee {
    Referee::new()
        .args(["match", "arrow5"])
        .bot(a)
        .bot(b)
        .args(["--time-limit", "1s", "--startup-limit", "2s"])
        .args(["--max-rounds", "5", "--seed", "3", "--json"])
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
    // The fixtures are about containing a bot that may start processes (a
    // tournament can allow it); that forking is refused by default has its
    // own test (tests/sandbox.rs). A finished game exits 0 whatever the
    // verdict.
    short_game(a, b).arg("--allow-fork").run().succeeds().json()
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
    let record = Referee::new()
        .args(["match", "arrow5"])
        .bot(&good)
        .bot(&bot)
        .arg("--json")
        .run()
        .succeeds()
        .json();
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

/// `bot` (a command line) in seat A against the random sample bot, five
/// rounds, a 1 s time limit; the record.
fn record_against_random(bot: &str) -> serde_json::Value {
    short_game(bot, &sample_bin("arrow5_random"))
        .run()
        .succeeds()
        .json()
}

fn hostile_python(fixture: &str, mode: &str) -> String {
    format!(
        "python3 {} {mode}",
        sample_file(&format!("hostile/{fixture}"))
    )
}

/// The verdict and detail of seat A.
fn verdict_of_a(record: &serde_json::Value) -> (String, String, u64) {
    let a = &record["players"][0];
    let d = &a["disqualification"];
    (
        a["verdict"].as_str().unwrap().to_string(),
        d["detail"].as_str().unwrap_or_default().to_string(),
        d["at_move"].as_u64().unwrap_or_default(),
    )
}

#[test]
fn a_line_answering_a_notice_is_quoted_where_it_came() {
    // `ok` after the signal of its first attack (move 2), left in its
    // buffer: it reaches the referee with its next attack, in one write.
    // The stray `ok` is the line quoted, the attack is named as its reply.
    let record = record_against_random(&hostile_python("acknowledger.py", "buffered"));
    let (verdict, detail, at_move) = verdict_of_a(&record);
    assert_eq!(verdict, "protocol", "{record}");
    assert!(
        detail.starts_with("wrote a line nobody asked for: 'ok', after 'signal "),
        "{detail}"
    );
    assert!(
        detail.contains(
            "a line sent after its move 2 that takes no reply; its reply to move 3 was '"
        ),
        "{detail}"
    );
    assert_eq!(at_move, 3, "{detail}");
    // The reply it names is a real attack: five symbols.
    let reply = detail
        .rsplit("was '")
        .next()
        .unwrap()
        .trim_end_matches('\'');
    assert_eq!(reply.split(' ').count(), 5, "{detail}");
}

#[test]
fn a_line_answering_a_notice_at_once_is_quoted_with_the_notice() {
    // Flushed as soon as the signal is read: it lands before the next
    // request, or (the bot stopped first) just before the reply, or alone
    // as the first line after the request. Each way the `ok` is quoted and
    // the signal it answered named.
    let record = record_against_random(&hostile_python("acknowledger.py", "flushed"));
    let (verdict, detail, _) = verdict_of_a(&record);
    assert_eq!(verdict, "protocol", "{record}");
    assert!(detail.contains("'ok'"), "{detail}");
    assert!(detail.contains("'signal "), "{detail}");
    assert!(detail.contains("takes no reply"), "{detail}");
}

#[test]
fn two_lines_for_one_request_quote_the_second_after_the_reply() {
    // Two attacks in one write: the first is its reply, the second the
    // line nobody asked for.
    let record = record_against_random(&hostile_python("chatty.py", "double"));
    let (verdict, detail, at_move) = verdict_of_a(&record);
    assert_eq!(verdict, "protocol", "{record}");
    assert!(
        detail.starts_with("wrote a line nobody asked for: '"),
        "{detail}"
    );
    assert!(
        detail.contains("', the line taken as its reply to move 1 (one line for each request"),
        "{detail}"
    );
    assert_eq!(at_move, 1, "{detail}");
}

#[test]
fn a_reply_without_its_newline_is_shown_not_called_a_flush_problem() {
    let record = record_against_random(&hostile_python("no_newline.py", ""));
    let (verdict, detail, at_move) = verdict_of_a(&record);
    assert_eq!(verdict, "timeout", "{record}");
    assert!(detail.starts_with("no reply within 1s"), "{detail}");
    assert!(
        detail.ends_with("it wrote '5 6 7 8 9' but not the newline that ends a reply"),
        "{detail}"
    );
    assert!(!detail.contains("flush"), "{detail}");
    assert_eq!(at_move, 2, "{detail}");
}

/// The stderr a record keeps of a crashed bot that wrote 3,000 lines
/// first: its first lines, a marker, and the runtime's whole message.
fn kept_stderr(bot: &str) -> Vec<String> {
    let record = record_against_random(bot);
    let (verdict, _, _) = verdict_of_a(&record);
    assert_eq!(verdict, "crash", "{record}");
    let kept: Vec<String> = record["players"][0]["stderr_tail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kept[0], "debug line 0: weighing the attacks still possible",
        "{kept:#?}"
    );
    assert!(
        kept.iter().any(|l| l.contains("lines left out")),
        "{kept:#?}"
    );
    kept
}

#[test]
fn a_node_crash_keeps_the_error_and_the_bots_file_and_line() {
    let kept = kept_stderr(&sample_file("hostile/typeerror.js"));
    assert!(
        kept.iter()
            .any(|l| l.starts_with("TypeError: Cannot read properties of null")),
        "{kept:#?}"
    );
    // Node's first line names the file and line that threw; its first
    // frame, the file, line and column.
    assert!(
        kept.iter().any(|l| l.ends_with("typeerror.js:17")),
        "{kept:#?}"
    );
    assert!(
        kept.iter().any(|l| l.contains("typeerror.js:17:")),
        "{kept:#?}"
    );
}

#[test]
fn a_python_crash_keeps_the_whole_traceback() {
    let kept = kept_stderr(&hostile_python("traceback.py", ""));
    let start = kept
        .iter()
        .position(|l| l == "Traceback (most recent call last):")
        .unwrap_or_else(|| panic!("{kept:#?}"));
    let traceback = &kept[start..];
    assert!(
        traceback
            .iter()
            .any(|l| l.contains("traceback.py\", line 10, in choose")),
        "{kept:#?}"
    );
    assert!(
        traceback.last().unwrap().starts_with("ZeroDivisionError"),
        "{kept:#?}"
    );
}

#[test]
fn a_line_that_is_not_text_is_quoted() {
    let record = record_against_random(&hostile_python("not_text.py", ""));
    let (verdict, detail, at_move) = verdict_of_a(&record);
    assert_eq!(verdict, "protocol", "{record}");
    assert_eq!(
        detail, "wrote a line that is not UTF-8 text: '5 6 \u{fffd} 8 9'",
        "{record}"
    );
    assert_eq!(at_move, 2, "{detail}");
}
