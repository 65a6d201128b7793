//! What a judge (an organiser's game program) may say, and what a bot may
//! make of it: results that do not add up, a `ready` whose seats make no
//! sense, an answer never flushed, a bot's reply crafted to look like the
//! judge's protocol or to crash it; a newcomer's worked example and game
//! named by its folder; the CI commands' outputs that cannot be written and
//! a non-regression `sprt`. Real judge and bot processes through the real
//! binary, with the fixture judge `tests/judges/audit/judge.py`.

use std::path::Path;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// A bot that answers every line with `1`.
const ONES: &str = "python3 -c 'import sys\nfor l in sys.stdin: print(1, flush=True)'";

/// Plays the audit judge with its option `fault`, the bot `first` at seat
/// A and [`ONES`] at seat B.
fn audit(fault: &str, first: &str, extra: &[&str]) -> Run {
    let judge = judge_fixture("audit/judge.py");
    let option = format!("fault={fault}");
    let mut args = vec!["match", judge.as_str(), first, ONES, "--option", &option];
    args.extend(extra);
    referee(&args, BUDGET)
}

/// The run voided the game for the judge's fault at its `message`, saying
/// `what`: exit 1, the judge named, no panic, no result.
fn assert_void(run: &Run, message: u64, what: &str) {
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    let at = format!("audit/judge.py failed at its message {message}: ");
    assert!(run.stderr.contains(&at), "{}", run.stderr);
    assert!(run.stderr.contains(what), "{what}: {}", run.stderr);
    assert!(
        run.stderr.contains("the game is void (nobody's loss)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(!run.stdout.contains("Result:"), "{}", run.stdout);
}

#[test]
fn an_end_that_does_not_add_up_voids_the_game_and_no_bot_loses() {
    let cases = [
        (
            "scores-len",
            "\"end\" scores must be a list of 2 numbers, one per player",
        ),
        (
            "two-results",
            "\"end\" gives two results that differ: winner 0 but ranks [1, 0]",
        ),
        (
            "key-twice",
            "says one thing twice (the key \"end\" appears twice",
        ),
    ];
    for (fault, what) in cases {
        let run = audit(fault, ONES, &["--json"]);
        assert_void(&run, 2, what);
        // The reply the judge was answering is named: the organiser's lead.
        assert!(
            run.stderr.contains("(answering player 0's reply '1')"),
            "{fault}: {}",
            run.stderr
        );
    }
}

#[test]
fn with_two_players_ranks_say_who_won() {
    // ranks [1, 0]: player 1 first, player 0 second (once read as a draw).
    let run = audit("ranks-two", ONES, &["--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["winner"], "b", "{v}");
    assert_eq!(v["reason"], "ranked", "{v}");
}

#[test]
fn a_ready_whose_seats_make_no_sense_is_the_judges_fault_not_bad_input() {
    let run = audit("seats", ONES, &[]);
    assert_void(
        &run,
        1,
        "answered ready with \"min_players\": 5 above \"max_players\": 3",
    );
    let run = audit("seats-text", ONES, &[]);
    assert_void(
        &run,
        1,
        "answered ready with \"max_players\": \"4\"; it must be a whole number from 2 to 26",
    );
}

#[test]
fn a_judge_that_does_not_answer_is_told_what_an_answer_is() {
    // A judge's answer written but not flushed looks the same as none.
    let run = audit("silent", ONES, &["--judge-time", "300ms"]);
    assert_void(
        &run,
        2,
        "did not answer within 300ms: an answer is one line, ended by a newline and flushed",
    );
    assert!(
        run.stderr.contains("audit judge: fault silent"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_judge_that_debugs_on_stdout_is_told_where_debugging_goes() {
    let run = audit("debug", ONES, &[]);
    assert_void(
        &run,
        2,
        "wrote a line that is not JSON (expected value at line 1 column 1): 'board: X . O' \
         (stdout is for protocol lines only; write debugging output on stderr)",
    );
}

/// The audit judge's `illegal` detail for a reply `line`: the line as it
/// received it, in JSON.
fn echoed(line: &[u8]) -> String {
    let line = std::str::from_utf8(line).unwrap();
    format!("got {}", serde_json::to_string(line).unwrap())
}

/// A bot file in `dir` that writes `line` (raw bytes) once, then reads on.
fn raw_bot(dir: &Path, name: &str, line: &[u8]) -> String {
    let path = dir.join(name);
    let bytes: Vec<String> = line.iter().map(|b| b.to_string()).collect();
    std::fs::write(
        &path,
        format!(
            "import sys\nsys.stdin.readline()\nsys.stdout.buffer.write(bytes([{}]) + b'\\n')\n\
             sys.stdout.flush()\nfor l in sys.stdin: pass\n",
            bytes.join(",")
        ),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_reply_crafted_as_a_judge_message_reaches_the_judge_as_one_string() {
    let dir = scratch_dir("judges-audit", "crafted");
    // Closes the reply's string and adds a player and a message of its own.
    let crafted = br#"1","player":1,"line":"x"},{"type":"turn","end":{"winner":0}}"#;
    let bot = raw_bot(&dir, "crafted.py", crafted);
    let run = audit("echo", &format!("python3 {bot}"), &["--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    // The judge got the reply whole, as its player 0's, and refused it.
    assert_eq!(v["winner"], "b", "{v}");
    assert_eq!(v["players"][0]["verdict"], "illegal", "{v}");
    assert_eq!(
        v["players"][0]["disqualification"]["detail"],
        echoed(crafted),
        "{v}"
    );
    // A line with a NUL and an escape reaches the judge as it was written.
    let nul = b"7\0\x1b[2J";
    let bot = raw_bot(&dir, "nul.py", nul);
    let run = audit("echo", &format!("python3 {bot}"), &["--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(
        v["players"][0]["disqualification"]["detail"],
        echoed(nul),
        "{v}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_reply_that_crashes_the_judge_voids_the_game_and_is_named() {
    let dir = scratch_dir("judges-audit", "crash");
    let bot = raw_bot(&dir, "boom.py", b"boom\x1b[2J");
    let run = audit("echo", &format!("python3 {bot}"), &["--json"]);
    // Nobody's loss, nobody's win: the judge failed.
    assert_void(&run, 2, "exited with status 1 before the game ended");
    // The reply is named, its escape shown as text, never sent to the
    // terminal; the judge's traceback follows.
    assert!(
        run.stderr
            .contains(r"(answering player 0's reply 'boom\x1b[2J')"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains('\u{1b}'), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("IndexError: the board has no cell boom"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A `log` sent with `ready` is the account's line before the first
/// move's, as a turn's `log` is that turn's: in the match's account, its
/// transcript's record and `referee replay`.
#[test]
fn a_ready_log_opens_the_account_before_the_first_move() {
    let dir = scratch_dir("judges-audit", "ready-log");
    let transcript = dir.join("game.jsonl");
    let run = audit(
        "ready-log",
        ONES,
        &["--transcript", transcript.to_str().unwrap()],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let in_order = |text: &str| {
        let ready = text.find("the board is set: 3 cells");
        let turn = text.find("player 0 took a cell");
        matches!((ready, turn), (Some(r), Some(t)) if r < t)
    };
    assert!(in_order(&run.stdout), "{}", run.stdout);
    let text = std::fs::read_to_string(&transcript).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let account: Vec<&str> = last["record"]["account"]
        .as_array()
        .expect("the record's account")
        .iter()
        .filter_map(serde_json::Value::as_str)
        .collect();
    assert!(in_order(&account.join("\n")), "{account:?}");
    let shown = referee(&["replay", transcript.to_str().unwrap()], BUDGET);
    assert_eq!(shown.status, 0, "{}", shown.stderr);
    assert!(in_order(&shown.stdout), "{}", shown.stdout);
}

/// A tournament (round robin and free-for-all) whose judge crashes on a
/// bot's reply of terminal escapes prints the judge's stderr, which quotes
/// it, escaped, as `match` does: no ESC, BEL or direction override reaches
/// the terminal.
#[test]
fn a_tournament_shows_a_void_games_judge_stderr_escaped() {
    let dir = scratch_dir("judges-audit", "tournament-escapes");
    let bot = raw_bot(
        &dir,
        "evil.py",
        "boom\x1b]0;PWNED\x07\x1b[2J\u{202e}evil".as_bytes(),
    );
    let ones = dir.join("ones.py");
    std::fs::write(
        &ones,
        "import sys\nfor l in sys.stdin: print(1, flush=True)\n",
    )
    .unwrap();
    let judge = judge_fixture("audit/judge.py");
    for format in [
        "format = \"round-robin\"\ngames_per_pairing = 2",
        "format = \"free-for-all\"\nplayers_per_game = 2\ngames_per_bot = 2",
    ] {
        let file = dir.join("t.toml");
        std::fs::write(
            &file,
            format!(
                "name = \"t\"\ngame = \"{judge}\"\n{format}\nseed = 5\n\
                 [options]\nfault = \"echo\"\n\
                 [[bots]]\nname = \"evil\"\nbot = \"{bot}\"\n\
                 [[bots]]\nname = \"ones\"\nbot = \"{}\"\n",
                ones.display()
            ),
        )
        .unwrap();
        let out = dir.join("out");
        let _ = std::fs::remove_dir_all(&out);
        let run = referee(
            &[
                "tournament",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--no-report",
            ],
            BUDGET,
        );
        // The game evil's reply crashed is void: exit 1, its judge's
        // stderr shown.
        assert_eq!(run.status, 1, "{format}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("1 games were void, their judge failed: games "),
            "{format}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains(
                r"IndexError: the board has no cell boom\x1b]0;PWNED\x07\x1b[2J\u{202e}evil"
            ),
            "{format}: {}",
            run.stderr
        );
        let raw = |c: char| run.stdout.contains(c) || run.stderr.contains(c);
        assert!(
            !raw('\u{1b}') && !raw('\u{7}') && !raw('\u{202e}'),
            "{format}: {}",
            run.stderr
        );
    }
}

/// The code blocks of `language` in `text`, in order.
fn code_blocks(text: &str, language: &str) -> Vec<String> {
    let fence = format!("```{language}\n");
    text.split(fence.as_str())
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap().to_string())
        .collect()
}

#[test]
fn the_worked_example_of_writing_a_game_plays_as_written() {
    let guide = std::fs::read_to_string(root().join("docs/writing-a-game.md")).unwrap();
    let python = code_blocks(&guide, "python");
    assert!(python.len() >= 2, "the judge and the bot of the example");
    // The folder as the guide lays it out, the helper copied beside the judge.
    let dir = scratch_dir("judges-audit", "rps");
    let rps = dir.join("games/rps");
    std::fs::create_dir_all(rps.join("starters")).unwrap();
    std::fs::write(rps.join("judge.py"), &python[0]).unwrap();
    std::fs::write(rps.join("starters/cycler.py"), &python[1]).unwrap();
    std::fs::copy(
        root().join("tournaments/games/sdk/referee_judge.py"),
        rps.join("referee_judge.py"),
    )
    .unwrap();
    let judge = "games/rps/judge.py";
    let cycler = "games/rps/starters/cycler.py";
    // Its match: two cyclers throw alike, so the game must end by itself
    // (a judge that never ends it is void at 100,000 messages).
    assert!(guide.contains(
        "referee match games/rps/judge.py games/rps/starters/cycler.py \\\n        \
         games/rps/starters/cycler.py --option target=5"
    ));
    let run = referee_in(
        &dir,
        &[
            "match", judge, cycler, cycler, "--option", "target=5", "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.json()["winner"], "draw", "{}", run.stdout);
    // Testing it, step 2: a transcript, then judge-check on it, as written.
    assert!(guide.contains(
        "games/rps/starters/cycler.py --transcript rps.jsonl\n        target/release/referee judge-check \
         games/rps/judge.py --transcript rps.jsonl"
    ));
    let run = referee_in(
        &dir,
        &["match", judge, cycler, cycler, "--transcript", "rps.jsonl"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let run = referee_in(
        &dir,
        &["judge-check", judge, "--transcript", "rps.jsonl"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("deterministic: yes"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_non_regression_sprt_says_not_worse_rather_than_better() {
    // Bounds at or below 0: a bot against itself is accepted as "not
    // worse" (exit 0), never said to be better than itself.
    let strong = sample_bin("arrow5_strong");
    let dir = scratch_dir("judges-audit", "sprt");
    let summary = dir.join("summary.md");
    let run = referee(
        &[
            "sprt",
            "arrow5",
            &strong,
            &strong,
            "--elo0",
            "-30",
            "--elo1",
            "0",
            "--summary",
            summary.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Result: H1 accepted: NEW is not worse after"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("better"), "{}", run.stdout);
    let markdown = std::fs::read_to_string(&summary).unwrap();
    assert!(
        markdown.contains("H1 accepted: NEW is not worse"),
        "{markdown}"
    );
    let run = referee(
        &[
            "sprt", "arrow5", &strong, &strong, "--elo0", "-30", "--elo1", "-10",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("H1 accepted: NEW is at most 10 Elo worse"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_named_by_its_folder_points_to_its_judge_not_to_its_options() {
    // A newcomer's first tournament file: the game's folder, not its
    // judge, with the judge's options (once refused as a built-in game's:
    // "unknown field `rows`").
    let dir = scratch_dir("judges-audit", "folder");
    std::fs::create_dir_all(dir.join("games/ttt")).unwrap();
    std::fs::copy(
        judge_fixture("audit/judge.py"),
        dir.join("games/ttt/judge.py"),
    )
    .unwrap();
    let bot = judge_fixture("bots/picker.py");
    for game in ["games/ttt", "ttt"] {
        let file = dir.join("t.toml");
        std::fs::write(
            &file,
            format!(
                "name = \"t\"\ngame = \"{game}\"\nformat = \"round-robin\"\n[options]\nrows = 3\n\
                 [[bots]]\nname = \"one\"\nbot = \"{bot}\"\n[[bots]]\nname = \"two\"\nbot = \"{bot}\"\n"
            ),
        )
        .unwrap();
        let run = referee(&["tournament", file.to_str().unwrap()], BUDGET);
        assert_eq!(run.status, 2, "{}", run.stderr);
        // `games/ttt` has a `/`: a path, so a judge path that is a folder.
        let expected = if game == "ttt" {
            "t.toml:2: game: unknown game 'ttt'; the games are: arrow5, cryptron, mastermind, \
             safecracker; a judge game is its judge's path: 'games/ttt/judge.py'"
        } else {
            "; a judge game is its judge's path: 'games/ttt/judge.py'"
        };
        assert!(run.stderr.contains(expected), "{game}: {}", run.stderr);
        assert!(!run.stderr.contains("unknown field"), "{}", run.stderr);
    }
    // On the command line, from the folder holding the game's.
    let run = referee_in(&dir, &["match", "ttt", &bot, &bot], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("a judge game is its judge's path: 'games/ttt/judge.py'"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_ci_output_that_cannot_be_written_is_refused_before_any_game() {
    let dir = scratch_dir("judges-audit", "outputs");
    let strong = sample_bin("arrow5_strong");
    let file = dir.join("check.toml");
    // Every game would time out: had it been played, the run would take
    // seconds, and its result would be lost at the end.
    std::fs::write(
        &file,
        format!(
            "name = \"c\"\ngame = \"arrow5\"\n[bot]\nbot = \"python3 -c 'import time; time.sleep(60)'\"\n\
             [limits]\nstartup_limit = \"2s\"\n\
             [[opponents]]\nname = \"s\"\nbot = {strong:?}\n\
             [[require]]\nkind = \"no-verdicts\"\nagainst = \"s\"\ngames = 10\n"
        ),
    )
    .unwrap();
    let missing = dir.join("no/such/folder/report.xml");
    let folder = dir.to_str().unwrap();
    let cases = [
        ("--junit", missing.to_str().unwrap(), "its folder"),
        ("--summary", missing.to_str().unwrap(), "its folder"),
        ("--junit", folder, "it is a folder"),
    ];
    for (flag, path, what) in cases {
        let started = std::time::Instant::now();
        let run = referee(
            &["check", file.to_str().unwrap(), "--no-report", flag, path],
            BUDGET,
        );
        assert_eq!(run.status, 2, "{flag} {path}: {}", run.stderr);
        assert!(run.stderr.contains(what), "{}", run.stderr);
        assert!(!run.stderr.contains("playing"), "{}", run.stderr);
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{:?}",
            started.elapsed()
        );
    }
    let run = referee(
        &[
            "sprt",
            "arrow5",
            &strong,
            &strong,
            "--summary",
            missing.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot write the summary"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("games "), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(dir);
}

/// A bot that tries to read and list what is at the paths it is given,
/// then picks 1 if every try was refused (EACCES), 9 if any worked (its
/// "leak"), and a word (a protocol fault) on any other failure.
const PEEKER: &str = r#"import os, sys
seen = []
for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path).read()
        seen.append("read")
    except PermissionError:
        seen.append("refused")
    except OSError as e:
        seen.append(type(e).__name__)
print("peeker:", seen, file=sys.stderr, flush=True)
pick = "9" if "read" in seen else "1" if set(seen) == {"refused"} else "what"
for line in sys.stdin:
    line = line.strip()
    if line.startswith("end"):
        break
    if line in ("pick", "go"):
        print(pick, flush=True)
"#;

/// An organiser's layout with the judge's folder inside a folder of
/// one-file bots (`contest/peeker.py`, `contest/games/higher/judge.py`):
/// the bot's own folder is readable to it, but no file of the judge's
/// folder within it, neither its program nor its other files (the game's
/// data);
/// an example bot kept in the judge's folder (`games/higher/bots/`) still
/// plays from there; and a judge beside the bots in their one folder is
/// hidden by name, as the other bot's file is. Under each layer.
fn judges_folder_is_hidden_from_a_bot_in_a_folder_above(layer: &str) {
    let dir = scratch_dir("judges-audit", &format!("above-{layer}"));
    let game = dir.join("games/higher");
    std::fs::create_dir_all(game.join("bots")).unwrap();
    std::fs::copy(judge_fixture("higher/judge.py"), game.join("judge.py")).unwrap();
    std::fs::write(game.join("answers.txt"), "the game's data\n").unwrap();
    std::fs::copy(judge_fixture("bots/picker.py"), game.join("bots/picker.py")).unwrap();
    std::fs::write(dir.join("peeker.py"), PEEKER).unwrap();
    // Files only: under basic the names in the folders beneath a bot's
    // own folder may be listed, not read (docs/security.md).
    let v = peeker_against_picker(
        layer,
        &game.join("judge.py"),
        &dir.join("peeker.py"),
        &[&game.join("judge.py"), &game.join("answers.txt")],
        &game.join("bots/picker.py"),
    );
    for p in v["players"].as_array().unwrap() {
        assert_eq!(p["verdict"], "ok", "{v}");
    }
    // The peeker picked 1 (every read refused): the picker's 5 wins.
    assert_eq!(v["winner"], "b", "the peeker read the judge's files: {v}");
    // The judge beside one-file bots in one folder (`contest/judge.py`,
    // `contest/peeker.py`, `contest/picker.py`): the bots' folder is
    // theirs, but neither the judge's program nor the other bot's file.
    let beside = dir.join("beside");
    std::fs::create_dir(&beside).unwrap();
    std::fs::copy(game.join("judge.py"), beside.join("judge.py")).unwrap();
    std::fs::copy(game.join("bots/picker.py"), beside.join("picker.py")).unwrap();
    std::fs::write(beside.join("peeker.py"), PEEKER).unwrap();
    let v = peeker_against_picker(
        layer,
        &beside.join("judge.py"),
        &beside.join("peeker.py"),
        &[&beside.join("judge.py"), &beside.join("picker.py")],
        &beside.join("picker.py"),
    );
    assert_eq!(
        v["winner"], "b",
        "the peeker read the judge or the other bot: {v}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One round of `judge` under `layer`: [`PEEKER`] at `peeker`, trying
/// `paths`, at seat A against the picker at `picker` (5) at seat B; the
/// result as JSON.
fn peeker_against_picker(
    layer: &str,
    judge: &Path,
    peeker: &Path,
    paths: &[&Path],
    picker: &Path,
) -> serde_json::Value {
    let mut peeker = format!("python3 {}", peeker.display());
    for path in paths {
        peeker.push_str(&format!(" {}", path.display()));
    }
    let picker = format!("python3 {} 5", picker.display());
    let run = referee(
        &[
            "match",
            judge.to_str().unwrap(),
            &peeker,
            &picker,
            "--option",
            "rounds=1",
            "--sandbox",
            layer,
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    run.json()
}

under_each_layer! {
    judges_folder_is_hidden_from_a_bot_in_a_folder_above:
        judges_folder_hidden_above_basic, judges_folder_hidden_above_strict;
}

/// A judge's tells to a bot that is stopped (its opponent thinks) and
/// over a pipe's 64 KiB in all: what the pipe cannot take waits in the
/// referee and goes first with the bot's next request, whole. They were
/// written into the stopped bot's pipe until its time ran out, and cut:
/// the bot lost on time with half a line read.
#[test]
fn tells_to_a_stopped_bot_reach_it_whole() {
    let judge = judge_fixture("big_tells/judge.py");
    let reader = format!("python3 {}", judge_fixture("bots/tell_reader.py"));
    let run = referee(&["match", &judge, &reader, &reader, "--json"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["winner"], "b", "{v}");
    assert_eq!(v["reason"], "read-whole", "{v}");
    for seat in 0..2 {
        assert_eq!(v["players"][seat]["verdict"], "ok", "{v}");
    }
}
