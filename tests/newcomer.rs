//! What a new user met on first contact (issue 18, sections 3 and 4): each
//! test runs the real binary and failed before its fix.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::*;

/// A two-bot Arrow 5 tournament file in `dir`.
fn small_tournament(dir: &Path) -> PathBuf {
    let text = format!(
        "name = \"n\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nseed = 5\n\
         [options]\ncodes = \"random\"\nmax_rounds = 20\n\
         [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
        sample_bin("arrow5_strong"),
        sample_bin("arrow5_random"),
    );
    let path = dir.join("n.toml");
    std::fs::write(&path, text).unwrap();
    path
}

// §3: quiet by default.

#[test]
fn the_sandbox_is_one_short_line_unless_verbose() {
    let (a, b) = (sample_bin("arrow5_strong"), sample_bin("arrow5_random"));
    let game = || {
        Referee::new()
            .args(["match", "arrow5"])
            .bot(&a)
            .bot(&b)
            .args(["--seed", "1"])
    };
    let quiet = game().run().succeeds();
    let first = quiet.stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("sandbox: basic (") && first.len() <= 80,
        "{}",
        quiet.stderr
    );
    assert!(
        !quiet.stderr.contains("seccomp (no ptrace"),
        "{}",
        quiet.stderr
    );
    game()
        .arg("--verbose")
        .run()
        .succeeds()
        .stderr_has("seccomp (no ptrace");
}

#[test]
fn a_tournament_keeps_the_whole_sandbox_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_tournament(dir.path());
    let out = dir.path().join("out");
    let run = Referee::new()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "1"])
        .run()
        .succeeds();
    assert!(!run.stderr.contains("seccomp (no ptrace"), "{}", run.stderr);
    let kept = std::fs::read_to_string(out.join("sandbox.txt")).unwrap();
    assert!(
        kept.starts_with("sandbox basic:") && kept.contains("seccomp (no ptrace"),
        "{kept}"
    );
}

// §4.4: each OS error once; a check file is called a check file.

#[test]
fn os_errors_are_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let not_utf8 = dir.path().join("bad.jsonl");
    std::fs::write(&not_utf8, b"\xff\xfe\n").unwrap();
    let folder = dir.path().to_str().unwrap();
    // A compile cache that cannot be made: its parent is a file.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let random = sample_bin("arrow5_random");
    let starter = sample_file("c/arrow5_starter.c");
    let matched = |second: &str| {
        Referee::new()
            .args(["match", "arrow5"])
            .bot(&random)
            .bot(second)
    };
    let not_utf8 = not_utf8.to_str().unwrap();
    for (case, referee, expected) in [
        (
            "tournament",
            Referee::new().args(["tournament", "missing.toml"]),
            "cannot read the tournament file missing.toml",
        ),
        (
            "check",
            Referee::new().args(["check", "missing.toml"]),
            "cannot read the check file missing.toml",
        ),
        (
            "replay",
            Referee::new().args(["replay", "missing.jsonl"]),
            "cannot read missing.jsonl",
        ),
        (
            "replay a folder",
            Referee::new().args(["replay", folder]),
            "cannot read",
        ),
        (
            "replay bytes",
            Referee::new().args(["replay", not_utf8]),
            "not UTF-8",
        ),
        (
            "key file",
            matched(&random).args(["--key-file", "missing.key"]),
            "cannot read the key file missing.key",
        ),
        (
            "compile cache",
            matched(&starter).env("REFEREE_CACHE", blocked.join("cache")),
            "cannot use the compile cache",
        ),
    ] {
        let run = referee.case(case).run().refused_with(expected);
        let args = case;
        let line = run.stderr.lines().last().unwrap();
        let (head, tail) = line.split_at(line.len() / 2);
        let cause = line.rsplit(": ").next().unwrap();
        assert!(
            line.matches(cause).count() == 1 && !head.ends_with(tail),
            "{args:?}: said twice: {line}"
        );
    }
}

// §4.12: a transcript cut short shows what it has and where it stops.

#[test]
fn a_truncated_transcript_replays_what_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("game.jsonl");
    let (a, b) = (sample_bin("arrow5_strong"), sample_bin("arrow5_random"));
    Referee::new()
        .args(["match", "arrow5"])
        .bot(&a)
        .bot(&b)
        .args(["--seed", "3", "--transcript"])
        .arg(&whole)
        .run()
        .succeeds();
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let keep = lines.len() / 2;
    let cut = format!("{}\n{}", lines[..keep].join("\n"), &lines[keep][..10]);
    let cut_path = dir.path().join("cut.jsonl");
    std::fs::write(&cut_path, cut).unwrap();
    Referee::new()
        .arg("replay")
        .arg(&cut_path)
        .run()
        .exits(2)
        .stdout_has("arrow5 (classic)")
        .stdout_has("-> A")
        .stderr_has(&format!(
            "stops here: {}, line {}",
            cut_path.display(),
            keep + 1
        ));
}

// §4.6: a negative number is refused as negative, not taken for an option.

#[test]
fn negative_values_are_refused_as_negative() {
    for (args, option) in [
        (
            vec!["match", "arrow5", "a", "b", "--time-limit", "-1s"],
            "--time-limit",
        ),
        (vec!["match", "arrow5", "a", "b", "--seed", "-5"], "--seed"),
        (vec!["tournament", "t.toml", "--jobs", "-1"], "--jobs"),
        (
            vec!["bench", "mastermind", "b", "--samples", "-2"],
            "--samples",
        ),
        (
            vec!["match", "mastermind", "a", "b", "--pegs", "-3"],
            "--pegs",
        ),
        (
            vec!["sprt", "arrow5", "a", "b", "--max-games", "-2"],
            "--max-games",
        ),
    ] {
        let run = Referee::new()
            .args(&args)
            .case(format!("{args:?}"))
            .run()
            .refused_with(option)
            .stderr_has("must not be negative");
        assert!(!run.stderr.contains("tip:"), "{args:?}: {}", run.stderr);
    }
}

// §4.1: every replay command `check` prints runs as printed, from where
// the check was run.

/// The commands after "replay: " in `text`, one per line that has one.
fn replays(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split_once("replay: ").map(|(_, r)| r.trim().to_string()))
        .collect()
}

#[test]
fn replay_commands_of_check_run_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("ci");
    std::fs::create_dir_all(sub.join("bots")).unwrap();
    std::os::unix::fs::symlink(sample_bin("arrow5_random"), sub.join("bots/opponent")).unwrap();
    // A bot that answers nothing and exits: a crash in every game.
    std::fs::write(sub.join("quitter.py"), "import sys\nsys.exit(3)\n").unwrap();
    std::fs::write(
        sub.join("check.toml"),
        "name = \"c\"\ngame = \"arrow5\"\nseed = 1\n[options]\nmax_rounds = 10\n\
         [bot]\nbot = \"python3 quitter.py --fast\"\n\
         [[opponents]]\nname = \"random\"\nbot = \"bots/opponent\"\n\
         [[require]]\nkind = \"no-verdicts\"\nagainst = \"random\"\ngames = 2\n\
         [[require]]\nkind = \"bench-average\"\nsamples = 1\nseed = 1\nat_most = 5.0\n",
    )
    .unwrap();
    let run = Referee::new()
        .current_dir(dir.path())
        .args(["check", "ci/check.toml"])
        .run()
        .exits(1);
    // By default the check's HTML report lands under tournaments/results/.
    let reports: Vec<_> = std::fs::read_dir(dir.path().join("tournaments/results"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(reports[0].join("index.html").exists() && reports[0].join("check.json").exists());
    let commands = replays(&run.stdout);
    assert!(
        commands.iter().any(|c| c.contains(" match "))
            && commands.iter().any(|c| c.contains(" bench ")),
        "{}",
        run.stdout
    );
    for command in commands {
        let words = shell_words::split(&command).unwrap();
        assert_eq!(words[0], referee_bin().to_str().unwrap(), "{command}");
        // Run as printed: the referee's path, then its words.
        Referee::new()
            .current_dir(dir.path())
            .args(&words[1..])
            .case(&command)
            .run()
            .succeeds()
            .stdout_has("crash");
    }
}

// §4.7: bench's help names every game it runs, and not the options it refuses.

#[test]
fn bench_help_lists_only_what_bench_takes() {
    let help = Referee::new()
        .args(["bench", "--help"])
        .run()
        .succeeds()
        .stdout_has("safecracker");
    assert!(!help.stdout.contains("--codes"), "{}", help.stdout);
    assert!(!help.stdout.contains("--first"), "{}", help.stdout);
    assert!(!help.stdout.contains("\n  referee "), "{}", help.stdout);
    // No judge game has a solo form, and a person plays no judge game.
    for command in ["bench", "play"] {
        let help = Referee::new().args([command, "--help"]).run().succeeds();
        for judge_flag in ["--option", "--judge-time", "--judge-memory", "a .py file"] {
            assert!(
                !help.stdout.contains(judge_flag),
                "{command}: {judge_flag}\n{}",
                help.stdout
            );
        }
    }
    Referee::new()
        .args(["bench", "safecracker", "x", "--all", "--first", "a"])
        .run()
        .exits(2)
        .stderr_has("--first");
}

// §4.12: wording.

fn scripted(replies: &str) -> String {
    format!("python3 {} {replies}", sample_file("python/scripted.py"))
}

#[test]
fn safe_cracker_accounts_speak_of_guesses_in_order() {
    let bot = scripted("123");
    let game = |a: &str, b: &str| {
        Referee::new()
            .args(["match", "safecracker"])
            .bot(a)
            .bot(b)
            .args(["--seed", "4"])
    };
    let run = game(&bot, &bot)
        .args(["--codes", "random"])
        .run()
        .succeeds();
    let out = &run.stdout;
    assert!(out.contains(" 1 guess "), "{out}");
    assert!(!out.contains("attacks"), "{out}");
    let toss = out.find("guesses first (coin toss)").expect(out);
    let turn = out.find("turn  1").expect(out);
    assert!(toss < turn, "the coin toss is told before the turns: {out}");

    let silent = game(&scripted(""), &scripted(""))
        .run()
        .succeeds()
        .stdout_has("A's code: none (the bot did not choose one)");
    assert!(!silent.stdout.contains("(not chosen)"), "{}", silent.stdout);
}

#[test]
fn two_starters_of_one_name_are_told_apart() {
    Referee::new()
        .args(["match", "arrow5"])
        .bot(sample_file("c/arrow5_starter.c"))
        .bot(sample_file("python/arrow5_starter.py"))
        .args(["--seed", "2", "--max-rounds", "3"])
        .run()
        .succeeds()
        .stdout_has("A: arrow5_starter.c ")
        .stdout_has("B: arrow5_starter.py ");
}

#[test]
fn a_shell_script_that_is_not_executable_gets_a_shell_hint() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bot.sh");
    std::fs::write(&script, "#!/bin/sh\nexit 0\n").unwrap();
    let run = Referee::new()
        .args(["match", "arrow5"])
        .bot(&script)
        .bot(&script)
        .run()
        .refused_with(&format!("\"sh {}\"", script.display()));
    assert!(!run.stderr.contains("python3"), "{}", run.stderr);
}

#[test]
fn an_odd_max_games_is_refused() {
    let bot = sample_bin("arrow5_random");
    Referee::new()
        .args(["sprt", "arrow5"])
        .bot(&bot)
        .bot(&bot)
        .args(["--max-games", "3"])
        .run()
        .refused_with("--max-games 3 is odd");
}

#[test]
fn merge_does_not_overwrite_results() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_tournament(dir.path());
    let shard = dir.path().join("shard");
    Referee::new()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(&shard)
        .args(["--jobs", "1"])
        .run()
        .succeeds();
    let out = dir.path().join("merged");
    let merge = || {
        Referee::new()
            .arg("merge")
            .arg(&shard)
            .arg("--out")
            .arg(&out)
    };
    merge().run().succeeds();
    let before = std::fs::read(out.join("games.csv")).unwrap();
    merge().run().refused_with("already holds results");
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), before);
}

// §4.3: a bot that forgets to flush is told how to flush, in its language.

#[test]
fn a_c_bot_that_does_not_flush_is_told_to_flush() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("noflush.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\nint main(void) {\n  char line[256];\n  \
         while (fgets(line, sizeof line, stdin)) printf(\"0 1 2 3\\n\");\n  return 0;\n}\n",
    )
    .unwrap();
    let run = Referee::new()
        .args(["match", "mastermind"])
        .bot(&source)
        .bot(&source)
        .args(["--codes", "random", "--time-limit", "300ms"])
        .args(["--startup-limit", "3s", "--seed", "1"])
        .run()
        .succeeds()
        .stdout_has("timeout");
    assert!(
        run.stdout.contains("waiting, not computing")
            && run.stdout.contains("flush stdout after every line")
            && run.stdout.contains("fflush(stdout);"),
        "{}",
        run.stdout
    );
}

// §4.5: TOML errors name the line and the field, in TOML terms.

#[test]
fn toml_errors_name_the_line_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let bots = "[[bots]]\nname = \"a\"\nbot = \"/bin/true\"\n[[bots]]\nname = \"b\"\nbot = \"/bin/true\"\n";
    for (text, expected) in [
        (
            format!("name = \"x\"\ngame = \"arrow5\"\ngames_per_pairing = -2\nseed = 1\n{bots}"),
            ":3: games_per_pairing: must be a whole number, not negative, got integer -2",
        ),
        (
            format!(
                "name = \"x\"\ngame = \"mastermind\"\ngames_per_pairing = 2\nseed = 1\n\n\
                 [options]\npegs = 4\nvariant = \"classic\"\n{bots}"
            ),
            ":8: options.variant: mastermind has no option variant",
        ),
        (
            format!(
                "name = \"x\"\ngame = \"mastermind\"\ngames_per_pairing = 2\nseed = 1\n\
                 [options]\npegs = 300\n{bots}"
            ),
            ":6: options.pegs: 300 is too large: at most 12",
        ),
    ] {
        let file = dir.path().join("t.toml");
        std::fs::write(&file, &text).unwrap();
        let run = Referee::new()
            .arg("tournament")
            .arg(&file)
            .case(&text)
            .run()
            .refused_with(expected);
        assert!(!run.stderr.contains("--"), "{}", run.stderr);
        assert!(!run.stderr.contains("expected u"), "{}", run.stderr);
    }
}

// §4.10: Cryptron's two spellings outside the rules' bounds are stated.

#[test]
fn cryptron_wire_exceptions_are_stated() {
    for file in ["protocol.md", "docs/rules/cryptron.md"] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(
            text.contains("`6,7,7,7`") && text.contains("`i2 = 7`") && text.contains("`0,0,0,0`"),
            "{file}"
        );
    }
}

// §4.9: Cryptron's player 1 is a seeded coin toss, or fixed by --first.

/// The record of a Cryptron game between two random bots (from its
/// transcript: the record there has the account too). `extra` are more
/// arguments for `match`.
fn cryptron_game(extra: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("game.jsonl");
    let (a, b) = (
        format!("{} 1", sample_bin("cryptron_random")),
        format!("{} 2", sample_bin("cryptron_random")),
    );
    Referee::new()
        .args(["match", "cryptron"])
        .bot(&a)
        .bot(&b)
        .arg("--transcript")
        .arg(&transcript)
        .args(extra)
        .run()
        .succeeds();
    let text = std::fs::read_to_string(&transcript).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    last["record"].clone()
}

#[test]
fn cryptron_tosses_a_coin_for_player_1() {
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 1..=8 {
        let seed = seed.to_string();
        let v = cryptron_game(&["--seed", &seed]);
        let first = v["first"].as_str().unwrap().to_string();
        // The toss is told before the turns, and the first turn is its winner's.
        let account: Vec<&str> = v["account"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let toss = account
            .iter()
            .position(|l| l.contains("is player 1 and moves first (coin toss)"))
            .unwrap_or_else(|| panic!("no toss in the account: {account:#?}"));
        assert!(
            account[toss].starts_with(&first.to_uppercase()),
            "{first}: {account:#?}"
        );
        let first_turn = toss + 1;
        assert!(
            account[first_turn].starts_with(&format!("{} ", first.to_uppercase())),
            "{account:#?}"
        );
        // The replay command draws the same toss from the same key and seed.
        let replay = v["replay"].as_str().unwrap();
        assert!(!replay.contains("--first"), "{replay}");
        let words = shell_words::split(replay).unwrap();
        assert_eq!(words[1..3], ["match", "cryptron"], "{replay}");
        assert!(
            words[3].ends_with(" 1") && words[4].ends_with(" 2"),
            "{replay}"
        );
        let again = cryptron_game(&words[5..].iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(again["first"], v["first"], "{replay}");
        assert_eq!(again["account"], v["account"], "{replay}");
        firsts.insert(first);
    }
    assert_eq!(firsts.len(), 2, "8 seeds toss both ways: {firsts:?}");

    // --first fixes player 1; the replay keeps it.
    for seat in ["a", "b"] {
        let v = cryptron_game(&["--seed", "3", "--first", seat]);
        assert_eq!(v["first"], seat, "{v}");
        let replay = v["replay"].as_str().unwrap();
        assert!(replay.contains(&format!("--first {seat}")), "{replay}");
        let account = v["account"].to_string();
        assert!(!account.contains("coin toss"), "{account}");
    }
    Referee::new()
        .args(["match", "cryptron"])
        .bot(sample_bin("cryptron_random"))
        .bot(sample_bin("cryptron_random"))
        .args(["--first", "c"])
        .run()
        .exits(2)
        .stderr_has("'a', 'b' or 'random'");

    // A tournament file's [options] fixes it too, and games.csv says who.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"c\"\ngame = \"cryptron\"\ngames_per_pairing = 2\nseed = 3\n\
             [options]\nfirst = \"b\"\n\
             [[bots]]\nname = \"one\"\nbot = \"{0} 1\"\n\
             [[bots]]\nname = \"two\"\nbot = \"{0} 2\"\n",
            sample_bin("cryptron_random")
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    Referee::new()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .run()
        .succeeds();
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for row in rows {
        let cells: Vec<&str> = row.split(',').collect();
        // Seat B's bot moved first in every game.
        assert_eq!(cells[col("first")], cells[col("bot_b")], "{csv}");
    }
}

// §4.8: a check stops a requirement once it is decided, and the whole
// check at the first failure with --fail-fast.

/// A check file in `dir` for the hostile sleeper (it answers its code, then
/// sleeps at its first attack: a timeout in every game) with a 500 ms time
/// limit, and `requirements` appended.
fn sleeper_check(dir: &Path, requirements: &str) -> String {
    let text = format!(
        "name = \"sleepy\"\ngame = \"arrow5\"\nseed = 1\n\
         [options]\nmax_rounds = 10\n\
         [limits]\ntime_limit = \"500ms\"\n\
         [bot]\nbot = \"{}\"\n\
         [[opponents]]\nname = \"random\"\nbot = \"{}\"\n{requirements}",
        sample_file("hostile/sleeper.py"),
        sample_bin("arrow5_random"),
    );
    let path = dir.join("sleepy.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_requirement_stops_at_its_first_verdict() {
    let dir = tempfile::tempdir().unwrap();
    // 40 games of 500 ms each were played before: at least 20 s.
    let file = sleeper_check(
        dir.path(),
        "[[require]]\nkind = \"no-verdicts\"\nagainst = \"random\"\ngames = 40\n",
    );
    let started = std::time::Instant::now();
    let run = Referee::new()
        .args(["check", &file, "--jobs", "1", "--no-report"])
        .run()
        .exits(1);
    let took = started.elapsed();
    assert!(
        run.stdout.contains(
            "FAIL  no verdicts in 40 games vs random: 0 of 1 games played without a verdict against random; \
             39 of 40 not played (stopped at the first verdict)"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("timeout"), "{}", run.stdout);
    // Less than the 40 games would take (500 ms each): stopped, however
    // busy the machine.
    assert!(took < Duration::from_secs(20), "{took:?}\n{}", run.stderr);
}

#[test]
fn fail_fast_stops_the_whole_check_and_says_what_was_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = sleeper_check(
        dir.path(),
        "[[require]]\nname = \"clean\"\nkind = \"no-verdicts\"\nagainst = \"random\"\ngames = 60\n\
         [[require]]\nname = \"strong\"\nkind = \"win-rate\"\nagainst = \"random\"\ngames = 60\nat_least = 50\n\
         [[require]]\nname = \"solver\"\nkind = \"bench-average\"\nsamples = 20\nat_most = 5.0\n\
         [[require]]\nname = \"quick\"\nkind = \"max-move-time\"\nbelow = \"5s\"\n",
    );
    let junit = dir.path().join("report.xml");
    let junit_arg = junit.to_string_lossy().into_owned();
    let check = || Referee::new().args(["check", &file, "--no-report", "--fail-fast"]);
    let started = std::time::Instant::now();
    let run = check()
        .args(["--json", "--junit", &junit_arg, "--jobs", "2"])
        .run()
        .exits(1);
    let took = started.elapsed();
    // About one game's timeout, not 60 games (500 ms each, 30 s) and a
    // 20-secret bench; bounded well below that for a busy machine.
    assert!(took < Duration::from_secs(20), "{took:?}\n{}", run.stderr);
    let v = run.json();
    assert_eq!(v["passed"], false);
    assert_eq!(v["fail_fast"], true);
    let status: Vec<(&str, &str)> = v["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        status,
        [
            ("clean", "fail"),
            ("strong", "not-run"),
            ("solver", "not-run"),
            ("quick", "not-run")
        ],
        "{v}"
    );
    for r in v["requirements"].as_array().unwrap() {
        assert_eq!(r["passed"], false, "{r}");
        if r["status"] == "not-run" {
            let summary = r["summary"].as_str().unwrap();
            assert!(summary.starts_with("not run (fail-fast)"), "{summary}");
        }
    }
    // At most the two games in flight were played.
    let clean = v["requirements"][0]["summary"].as_str().unwrap();
    assert!(
        clean.starts_with("0 of 1 games played") || clean.starts_with("0 of 2 games played"),
        "{clean}"
    );

    // JUnit: one failure, three skipped.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert_eq!(xml.matches("<skipped ").count(), 3, "{xml}");
    assert!(xml.contains("skipped=\"3\""), "{xml}");
    let parsed = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])",
        ])
        .arg(&junit)
        .status()
        .unwrap();
    assert!(parsed.success(), "{xml}");

    // Text: each requirement's line says which it is.
    let run = check().args(["--jobs", "1"]).run().exits(1);
    for line in [
        "FAIL  clean: 0 of 1 games played",
        "SKIP  strong: not run (fail-fast)",
        "SKIP  solver: not run (fail-fast)",
        "SKIP  quick: not run (fail-fast)",
        "Result: FAIL, 1 of 4 requirements failed: clean; 3 not run (fail-fast): strong; solver; quick",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
}

// §4.11: the sample solvers play every size the referee accepts.

/// `referee bench GAME BOT --samples 3 ARGS` with a CSV: each row's
/// (verdict, time_max_ms, peak_memory_kb).
fn bench_rows(game: &str, bot: &str, args: &[&str]) -> Vec<(String, f64, u64)> {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    Referee::new()
        .args(["bench", game])
        .bot(sample_bin(bot))
        .args(["--samples", "3", "--csv"])
        .arg(&csv)
        .args(args)
        .case(format!("{bot} {args:?}"))
        .run()
        .succeeds();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|row| {
            let cells: Vec<&str> = row.split(',').collect();
            (
                cells[col("verdict")].to_string(),
                cells[col("time_max_ms")].parse().unwrap(),
                cells[col("peak_memory_kb")].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn mastermind_samples_play_the_largest_sizes() {
    // 8 x 10 asked for a 1 GB table; 12 x 36 is the largest the referee takes.
    for (pegs, colours) in [("8", "10"), ("6", "20"), ("12", "36")] {
        for bot in ["mastermind_knuth", "mastermind_random", "mastermind_strong"] {
            let rows = bench_rows("mastermind", bot, &["--pegs", pegs, "--colours", colours]);
            assert_eq!(rows.len(), 3);
            for (verdict, time_max_ms, peak_kb) in rows {
                assert_eq!(verdict, "ok", "{bot} at {pegs} x {colours}");
                assert!(
                    time_max_ms < 1500.0,
                    "{bot} at {pegs} x {colours}: {time_max_ms} ms"
                );
                assert!(
                    peak_kb < 64 * 1024,
                    "{bot} at {pegs} x {colours}: {peak_kb} KB"
                );
            }
        }
    }
}

#[test]
fn safe_cracker_samples_play_the_largest_sizes() {
    for (length, digits) in [("10", "9"), ("8", "5"), ("10", "2")] {
        for bot in ["safecracker_optimal", "safecracker_random"] {
            let rows = bench_rows(
                "safecracker",
                bot,
                &["--length", length, "--digits", digits],
            );
            assert_eq!(rows.len(), 3);
            for (verdict, time_max_ms, _) in rows {
                assert_eq!(verdict, "ok", "{bot} at L {length} D {digits}");
                assert!(time_max_ms < 1500.0, "{bot}: {time_max_ms} ms");
            }
        }
    }
}

// Second newcomer pass: a teacher and a contest organiser following the docs.

#[test]
fn a_utf16_or_latin1_file_is_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"t\"\ngame = \"arrow5\"\n";
    // What Windows' Notepad ("Unicode") or PowerShell's `>` saves.
    let mut utf16 = vec![0xff, 0xfe];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let utf16_file = dir.path().join("utf16.toml");
    std::fs::write(&utf16_file, utf16).unwrap();
    let latin1_file = dir.path().join("latin1.toml");
    std::fs::write(&latin1_file, b"name = \"Zo\xeb\"\ngame = \"arrow5\"\n").unwrap();
    Referee::new()
        .arg("tournament")
        .arg(&utf16_file)
        .run()
        .refused_with("it is UTF-16 text, not UTF-8")
        .stderr_has("save it as UTF-8");
    Referee::new()
        .arg("check")
        .arg(&latin1_file)
        .run()
        .refused_with("it is not UTF-8 text (line 1, byte 11: 0xeb); save it as UTF-8");
}

/// A program given where a file is read (`referee tournament
/// target/release/arrow5_random`, tab completion gone wrong) was called
/// "UTF-16 text" with how to convert it: its zero bytes fell on both
/// sides. It is called a program; other binary data, binary data.
#[test]
fn a_program_given_for_a_file_is_not_called_utf16() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("bots.tar");
    let mut bytes = b"bots/\0\0\0\0\0\0\0\0\0\0\0\0\x80\xff".to_vec();
    bytes.extend([0u8; 48]);
    std::fs::write(&archive, bytes).unwrap();
    for (command, file, said) in [
        (
            "tournament",
            sample_bin("arrow5_random"),
            "it is a program, not a text file",
        ),
        (
            "check",
            sample_bin("arrow5_random"),
            "it is a program, not a text file",
        ),
        (
            "tournament",
            archive.to_str().unwrap().to_string(),
            "it is binary data, not a text file",
        ),
    ] {
        let run = Referee::new()
            .arg(command)
            .arg(&file)
            .case(command)
            .run()
            .refused_with(said);
        assert!(!run.stderr.contains("UTF-16"), "{}", run.stderr);
    }
}

/// UTF-16 without its byte-order mark (some editors' "UTF-16 LE") is
/// valid UTF-8 when the text is ASCII, a NUL beside every character: it
/// was parsed, and refused with a TOML error full of `\x00`.
#[test]
fn a_utf16_file_without_its_mark_is_named_too() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let text = "name = \"t\"\ngame = \"arrow5\"\n";
    std::fs::write(
        &file,
        text.encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let run = Referee::new()
        .arg("tournament")
        .arg(&file)
        .run()
        .refused_with("it is UTF-16 text, not UTF-8");
    assert!(!run.stderr.contains("\\x00"), "{}", run.stderr);
}

/// `at_least = 0.25` in a check file (a fraction, as grading's
/// `win_rate = 0.5` is) asked for 0.25% of the games and passed on one
/// win. A value between 0 and 1 is refused, with the percentage meant.
#[test]
fn a_fraction_written_for_a_percentage_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    let text = format!(
        "name = \"c\"\ngame = \"arrow5\"\n\
         [bot]\nname = \"strong\"\nbot = \"{}\"\n\
         [[opponents]]\nname = \"random\"\nbot = \"{}\"\n\
         [[require]]\nkind = \"win-rate\"\nagainst = \"random\"\ngames = 4\nat_least = 0.25\n",
        sample_bin("arrow5_strong"),
        sample_bin("arrow5_random"),
    );
    std::fs::write(&file, text).unwrap();
    Referee::new()
        .arg("check")
        .arg(&file)
        .arg("--no-report")
        .run()
        .refused_with("c.toml:13: require.at_least (win-rate): 0.25 means 0.25%, not 25%")
        .stderr_has("for 25% write at_least = 25");
}

#[test]
fn a_check_file_given_to_tournament_says_which_command_runs_it() {
    let check = root().join("tournaments/check-arrow5.toml");
    let tournament = root().join("tournaments/arrow5.toml");
    Referee::new()
        .arg("tournament")
        .arg(&check)
        .run()
        .refused_with("this is a check file")
        .stderr_has(&format!("run it with `referee check {}`", check.display()));
    Referee::new()
        .arg("check")
        .arg(&tournament)
        .run()
        .refused_with("this is a tournament file")
        .stderr_has(&format!(
            "run it with `referee tournament {}`",
            tournament.display()
        ));
    // A typo in a check file is no tournament file.
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("typo.toml");
    let text = std::fs::read_to_string(&check)
        .unwrap()
        .replace("[bot]", "[bots]");
    std::fs::write(&typo, text).unwrap();
    let run = Referee::new()
        .arg("check")
        .arg(&typo)
        .run()
        .refused_with("unknown field `bots`");
    assert!(
        !run.stderr.contains("this is a tournament file"),
        "{}",
        run.stderr
    );
}

#[test]
fn play_of_a_judge_game_suggests_a_match_command_that_reads() {
    Referee::new()
        .args(["play", &judge_fixture("unique/judge.py"), "--hot-seat"])
        .run()
        .refused_with("watch bots play it with `referee match JUDGE A B`");
}

/// The examples of every `--help`, on a terminal of 80 columns, are lines
/// one can copy: none longer than the terminal (which would wrap it where
/// a shell reads two commands), each continued with ` \`. Clap wrapped
/// `referee match arrow5 target/release/arrow5_strong` and its second bot
/// onto two lines, and the first line alone played nothing.
#[test]
fn help_examples_can_be_copied_on_80_columns() {
    let commands: &[&[&str]] = &[
        &[],
        &["match"],
        &["tournament"],
        &["bench"],
        &["check"],
        &["sprt"],
        &["collect"],
        &["serve"],
        &["watch"],
        &["calibrate"],
    ];
    for args in commands {
        let out = std::process::Command::new(referee_bin())
            .args(*args)
            .arg("--help")
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        let Some(start) = help.find("\nExample") else {
            continue;
        };
        let lines: Vec<&str> = help[start + 1..].lines().skip(1).collect();
        for (i, line) in lines.iter().enumerate() {
            assert!(line.chars().count() <= 80, "{args:?}: too long: {line}");
            if line.starts_with("      ") {
                assert!(
                    i > 0 && lines[i - 1].ends_with(" \\"),
                    "{args:?}: a line not continued before: {line}\n{help}"
                );
            } else if !line.is_empty() {
                assert!(
                    line.starts_with("  target/release/referee ")
                        || line.starts_with("  referee ")
                        || line.starts_with("  # "),
                    "{args:?}: an example split: {line}\n{help}"
                );
            }
        }
    }
}

/// A bot script saved on Windows: its `#!` line ends with a carriage
/// return, and the system looked for an interpreter `python3\r` (env's
/// "No such file", a crash at every game). Refused before any game, with
/// how to convert it.
#[test]
fn a_script_with_windows_line_ends_is_told_how_to_convert_it() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    std::fs::write(&bot, "#!/usr/bin/env python3\r\nprint('0 1 2 3 4')\r\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    Referee::new()
        .args(["match", "arrow5"])
        .arg(&bot)
        .arg(sample_bin("arrow5_random"))
        .run()
        .refused_with("ends with a carriage return")
        .stderr_has(&format!("dos2unix {}", bot.display()));
}

/// A Python bot marked executable without a `#!` line: the system cannot
/// run it, the C library's fallback ran it with `/bin/sh`, and the game
/// was a `crash` whose stderr said "Cannot fork" (the shell's, refused by
/// the sandbox). Refused before any game, with the line to add; a `.sh`
/// script without one still runs as the shell script it is.
#[test]
fn a_script_without_an_interpreter_line_is_told_to_add_one() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    std::fs::write(
        &bot,
        "import sys\nfor line in sys.stdin:\n    print('0 1 2 3 4', flush=True)\n",
    )
    .unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    Referee::new()
        .args(["match", "arrow5"])
        .arg(&bot)
        .arg(sample_bin("arrow5_random"))
        .run()
        .refused_with("without a '#!' line")
        .stderr_has("#!/usr/bin/env python3")
        .stderr_has(&format!("\"python3 {}\"", bot.display()));
    // A shell script named so runs through /bin/sh, as before.
    let shell = dir.path().join("quits.sh");
    std::fs::write(&shell, "exit 0\n").unwrap();
    std::fs::set_permissions(&shell, std::fs::Permissions::from_mode(0o755)).unwrap();
    Referee::new()
        .args(["match", "arrow5"])
        .arg(&shell)
        .arg(sample_bin("arrow5_random"))
        .run()
        .succeeds()
        .stdout_has("crash");
}

/// An interpreter's command line whose script is misspelt (`python3
/// bots/alcie.py`): every game was a `crash` ("can't open file") and the
/// tournament went on; now it is bad input, as a missing bot path is,
/// naming the script. Other words after the interpreter are left alone.
#[test]
fn a_misspelt_script_after_its_interpreter_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"t\"\ngame = \"arrow5\"\ngames_per_pairing = 2\n\
         [[bots]]\nname = \"alice\"\nbot = \"python3 bots/alcie.py\"\n\
         [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
        sample_bin("arrow5_random"),
    );
    let file = dir.path().join("t.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    Referee::new()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .run()
        .refused_with("t.toml:6: bots.bot of 'alice'")
        .stderr_has("bots/alcie.py does not exist");
    assert!(!out.exists());
    Referee::new()
        .args(["match", "arrow5", "node missing.js"])
        .arg(sample_bin("arrow5_random"))
        .run()
        .refused_with("missing.js does not exist");
    // A word that names no script is the interpreter's business.
    Referee::new()
        .args(["match", "arrow5", "python3 -c 'print(1)'"])
        .arg(sample_bin("arrow5_random"))
        .run()
        .succeeds()
        .stdout_has("protocol");
}

/// A Swiss tournament printed two tables with two winners (the standings,
/// by the games' points, and the Swiss order, byes counted, by Buchholz)
/// and said nothing of which is which; a knockout and a gauntlet say
/// their order. The Swiss table now says its own.
#[test]
fn a_swiss_tournament_says_which_table_is_its_final_order() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"s\"\ngame = \"arrow5\"\nformat = \"swiss\"\nrounds = 2\n\
         games_per_pairing = 2\nseed = 3\n[options]\ncodes = \"random\"\n\
         [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"constant\"\nbot = \"{}\"\n",
        sample_bin("arrow5_strong"),
        sample_bin("arrow5_random"),
        sample_bin("arrow5_constant"),
    );
    let file = dir.path().join("s.toml");
    std::fs::write(&file, text).unwrap();
    Referee::new()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("out"))
        .args(["--jobs", "1", "--no-report"])
        .run()
        .succeeds()
        .stdout_has("Swiss, 2 of 2 rounds (swiss.csv, rounds.csv)\nThe final order: score")
        .stdout_has("the standings above count the games only");
}

/// "A folder holding one" read as a folder holding one source file: a
/// folder with `bot.py` (not `main.py`) was refused with the list of entry
/// files only. The message now names the file to give instead.
#[test]
fn a_folder_of_one_source_file_names_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("mybot");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(
        root().join("sample_bots/python/arrow5_starter.py"),
        folder.join("bot.py"),
    )
    .unwrap();
    std::fs::write(folder.join("notes.txt"), "not a source\n").unwrap();
    Referee::new()
        .args(["match", "arrow5"])
        .arg(&folder)
        .arg(sample_bin("arrow5_random"))
        .run()
        .refused_with("holds no entry point")
        .stderr_has(&format!(
            "it holds one source file: give that file, {}",
            folder.join("bot.py").display()
        ));
}

/// An output folder that names a file (a CSV saved as `--out results.csv`)
/// is refused first, saying what is wrong and what to do: the run said
/// "results in results.csv" (after its sandbox line) and only then
/// failed, and `merge` and `collect` said only "File exists".
#[test]
fn an_output_folder_that_is_a_file_is_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let tournament = small_tournament(dir.path());
    let taken = dir.path().join("results.csv");
    std::fs::write(&taken, "a file of the user's\n").unwrap();
    let teams = dir.path().join("teams");
    std::fs::create_dir(&teams).unwrap();
    let check = root().join("tournaments/check-arrow5.toml");
    let reference = sample_bin("arrow5_random");
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let commands = [
        ("--out", vec!["tournament".into(), path(&tournament)]),
        ("--out", vec!["merge".into(), "a".into(), "b".into()]),
        (
            "--out",
            [
                "collect",
                "--game",
                "arrow5",
                "--reference",
                &reference,
                "--from",
            ]
            .map(String::from)
            .into_iter()
            .chain([path(&teams)])
            .collect(),
        ),
        ("--report", vec!["check".into(), path(&check)]),
    ];
    for (flag, args) in commands {
        let run = Referee::new()
            .args(&args)
            .arg(flag)
            .arg(&taken)
            .case(&args[0])
            .run()
            .refused_with("is a file, not a folder");
        // The refusal is all that was said: no sandbox line, no "results in".
        let said: Vec<&str> = run.stderr.lines().collect();
        assert_eq!(said.len(), 1, "{}: {}", args[0], run.stderr);
        assert!(
            said[0].starts_with(&format!("referee: {flag} {}: ", taken.display()))
                && said[0].contains(&format!("give {flag} a new folder")),
            "{}: {}",
            args[0],
            run.stderr
        );
        assert_eq!(
            std::fs::read_to_string(&taken).unwrap(),
            "a file of the user's\n",
            "{}",
            args[0]
        );
    }
}

/// An output folder this user may not write in, or a new one to be made
/// in such a folder, is refused first, saying which folder and what to
/// do: the run said "results in ..." (after its sandbox line) and only
/// then failed. Run as nobody where the test runs as root (who may write
/// anywhere).
#[test]
fn an_output_folder_the_user_may_not_write_in_is_refused_before_anything_starts() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let tournament = small_tournament(dir.path());
    std::fs::set_permissions(&tournament, std::fs::Permissions::from_mode(0o644)).unwrap();
    let closed = dir.path().join("closed");
    std::fs::create_dir(&closed).unwrap();
    std::fs::create_dir(closed.join("earlier")).unwrap();
    for folder in [closed.join("earlier"), closed.clone()] {
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let as_root = rustix::process::geteuid().is_root();
    for (out, why) in [
        (
            closed.join("new"),
            format!("{} may not be written in", closed.display()),
        ),
        (
            closed.join("earlier"),
            "it is a folder this user may not write in".to_string(),
        ),
    ] {
        let mut command = if as_root {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(referee_bin());
            c
        } else {
            std::process::Command::new(referee_bin())
        };
        command
            .args(["tournament", tournament.to_str().unwrap(), "--out"])
            .arg(&out);
        let run = run_within(command, Duration::from_secs(120));
        assert_eq!(run.status, 2, "{}", run.stderr);
        let said: Vec<&str> = run.stderr.lines().collect();
        assert_eq!(said.len(), 1, "{}", run.stderr);
        assert!(
            said[0].starts_with(&format!("referee: --out {}: ", out.display()))
                && said[0].contains(&why)
                && said[0].contains("in a folder you may write in"),
            "{}",
            run.stderr
        );
    }
    assert!(!closed.join("new").exists());
    // Open again, for the temporary folder's removal by a user not root.
    for folder in [closed.clone(), closed.join("earlier")] {
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
