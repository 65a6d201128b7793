//! Absurd operator input is refused (exit 2, the field named, no panic, no
//! results folder); tournament names cannot leave tournaments/results;
//! control characters from bots reach the terminal escaped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// Two fast bots and `head` (top-level fields and tables before the bots).
fn tournament_text(head: &str) -> String {
    format!(
        "game = \"arrow5\"\n{head}\n\
         [[bots]]\nname = \"a\"\nbot = \"{0}\"\n[[bots]]\nname = \"b\"\nbot = \"{0}\"\n",
        sample_bin("arrow5_random")
    )
}

/// The referee in `dir`.
fn referee_in_dir(dir: &Path) -> Referee {
    Referee::new().current_dir(dir)
}

#[test]
fn absurd_flags_are_refused_with_the_flag_named() {
    let dir = tempfile::tempdir().unwrap();
    let bot = sample_bin("arrow5_random");
    let cases: &[(&[&str], &str)] = &[
        (&["--time-limit", "18446744073709551615s"], "--time-limit"),
        (&["--time-limit", "9223372036854775807s"], "--time-limit"),
        (&["--time-limit", "3601s"], "at most 3600s"),
        (&["--startup-limit", "1e300"], "--startup-limit"),
        (&["--time-bank", "9223372036854775807s"], "--time-bank"),
        (&["--time-bank", "86401s"], "at most 86400s"),
        (&["--memory-limit", "99999999GiB"], "--memory-limit"),
        (&["--memory-limit", "1025GiB"], "at most 1024GiB"),
        (&["--max-rounds", "4294967295"], "max_rounds"),
    ];
    for (flags, field) in cases {
        referee_in_dir(dir.path())
            .args(["match", "arrow5"])
            .bot(&bot)
            .bot(&bot)
            .args(*flags)
            .case(format!("match {flags:?}"))
            .run()
            .refused_with(field);
    }
    let counts: &[(&[&str], &str)] = &[
        (
            &["bench", "arrow5", &bot, "--samples", "4294967294"],
            "--samples",
        ),
        (
            &["bench", "arrow5", &bot, "--all", "--jobs", "5000"],
            "--jobs",
        ),
        (
            &[
                "sprt",
                "arrow5",
                &bot,
                &bot,
                "--max-games",
                "18446744073709551615",
            ],
            "--max-games",
        ),
        (&["sprt", "arrow5", &bot, &bot, "--jobs", "0"], "--jobs"),
    ];
    for (args, field) in counts {
        referee_in_dir(dir.path())
            .args(*args)
            .case(format!("{args:?}"))
            .run()
            .refused_with(field);
    }
    // Nothing was made in the working folder.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn absurd_tournament_and_check_fields_are_refused_before_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "games_per_pairing = 4294967294",
            "t.toml:2: games_per_pairing",
        ),
        ("games_per_pairing = 100000000", "at most 1000000"),
        (
            "[limits]\ntime_limit = \"9223372036854775807s\"",
            "t.toml:3: limits.time_limit",
        ),
        (
            "[limits]\ntime_limit = \"18446744073709551615s\"",
            "limits.time_limit",
        ),
        (
            "[limits]\nstartup_limit = \"1e300\"",
            "limits.startup_limit",
        ),
        (
            "[limits]\ntime_bank = \"18446744073709551615s\"",
            "limits.time_bank",
        ),
        (
            "[limits]\nmemory_limit = \"99999999GiB\"",
            "limits.memory_limit",
        ),
        ("[scoring]\nwin = 4294967295", "scoring.win"),
        ("[options]\nmax_rounds = 4294967295", "options.max_rounds"),
    ];
    for (head, field) in cases {
        let file = dir.path().join("t.toml");
        std::fs::write(&file, tournament_text(head)).unwrap();
        let out = dir.path().join("out");
        // With --out, and with the default folder (in the working folder).
        let tournament = || referee_in_dir(dir.path()).args(["tournament", "t.toml"]);
        tournament()
            .arg("--out")
            .arg(&out)
            .case(head)
            .run()
            .refused_with(field);
        assert!(!out.exists(), "{head}: a results folder was made");
        tournament().case(head).run().refused_with(field);
        assert!(!dir.path().join("tournaments").exists(), "{head}");
    }

    // More bots than the bound.
    let mut text = "game = \"arrow5\"\n".to_string();
    for i in 0..1001 {
        text.push_str(&format!("[[bots]]\nname = \"b{i}\"\nbot = \"true\"\n"));
    }
    std::fs::write(dir.path().join("many.toml"), text).unwrap();
    referee_in_dir(dir.path())
        .args(["tournament", "many.toml"])
        .run()
        .refused_with("bots: 1001 bots are too many: at most 1000");

    // Check files: games, samples, durations and sizes.
    let bot = sample_bin("arrow5_random");
    let check = |require: &str, limits: &str| {
        format!(
            "game = \"arrow5\"\n{limits}\n[bot]\nbot = \"{bot}\"\n\
             [[opponents]]\nname = \"r\"\nbot = \"{bot}\"\n[[require]]\n{require}\n"
        )
    };
    let cases = [
        (
            check("kind = \"no-verdicts\"\nagainst = \"r\"\ngames = 4294967294", ""),
            "require.games",
        ),
        (
            check("kind = \"bench-average\"\nsamples = 10000000\nat_most = 9.0", ""),
            "require.samples",
        ),
        (
            check(
                "kind = \"no-verdicts\"\nagainst = \"r\"\n[[require]]\nkind = \"max-move-time\"\nbelow = \"9223372036854775807s\"",
                "",
            ),
            "require.below",
        ),
        (
            check(
                "kind = \"no-verdicts\"\nagainst = \"r\"",
                "[limits]\nmemory_limit = \"99999999GiB\"",
            ),
            "limits.memory_limit",
        ),
    ];
    for (text, field) in cases {
        std::fs::write(dir.path().join("c.toml"), &text).unwrap();
        referee_in_dir(dir.path())
            .args(["check", "c.toml"])
            .case(&text)
            .run()
            .refused_with(field);
    }
}

/// Peak resident memory of a process, in KiB.
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn a_schedule_of_billions_of_games_takes_no_memory() {
    // 20 bots, a million games a pairing: 190 million games, which a list
    // of every game would need gigabytes for.
    let dir = tempfile::tempdir().unwrap();
    let mut text = "game = \"arrow5\"\ngames_per_pairing = 1000000\n\
                    [options]\nmax_rounds = 5\n"
        .to_string();
    for i in 0..20 {
        text.push_str(&format!(
            "[[bots]]\nname = \"b{i}\"\nbot = \"{}\"\n",
            sample_bin("arrow5_random")
        ));
    }
    let file = dir.path().join("huge.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    let mut child = Referee::new()
        .arg("tournament")
        .arg(&file)
        .args(["--jobs", "1", "--out"])
        .arg(&out)
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut games = 0;
    while games < 3 && start.elapsed() < BUDGET {
        std::thread::sleep(Duration::from_millis(20));
        assert!(child.try_wait().unwrap().is_none(), "the referee stopped");
        games = std::fs::read_to_string(out.join("games.csv"))
            .map_or(0, |t| t.lines().count().saturating_sub(1));
    }
    let peak = peak_kb(child.id());
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(games >= 3, "no games played");
    assert!(peak < 200 * 1024, "the referee grew to {peak} KiB");
    let meta = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(meta.contains("\"total_games\": 190000000"), "{meta}");
}

#[test]
fn tournament_names_stay_inside_the_results_folder() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(
        work.join("t.toml"),
        tournament_text("name = \"../../escape\"\n[options]\nmax_rounds = 5"),
    )
    .unwrap();
    referee_in_dir(&work)
        .args(["tournament", "t.toml"])
        .run()
        .succeeds();
    let results: Vec<String> = std::fs::read_dir(work.join("tournaments/results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(results[0].starts_with("_._.._escape-"), "{results:?}");
    let mut around: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    around.sort();
    assert_eq!(around, ["work"], "nothing made outside the working folder");
    let mut in_work: Vec<String> = std::fs::read_dir(&work)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    in_work.sort();
    assert_eq!(in_work, ["t.toml", "tournaments"]);

    // A name with nothing usable in it is refused, naming the field.
    for name in ["/", "..", ""] {
        std::fs::write(
            work.join("u.toml"),
            tournament_text(&format!("name = \"{name}\"")),
        )
        .unwrap();
        referee_in_dir(&work)
            .args(["tournament", "u.toml"])
            .case(name)
            .run()
            .refused_with("u.toml: name:");
    }
    assert_eq!(
        std::fs::read_dir(work.join("tournaments/results"))
            .unwrap()
            .count(),
        1
    );
}

/// A bot whose stderr and replies hold ESC, BEL and NUL.
fn evil_bot(dir: &Path) -> String {
    let path = dir.join("evil.py");
    std::fs::write(
        &path,
        "import sys\n\
         for line in sys.stdin:\n\
         \x20   sys.stderr.write('\\x1b[31mred\\x07bell\\x00nul\\n')\n\
         \x20   sys.stderr.flush()\n\
         \x20   if line.startswith('arrow5'):\n\
         \x20       continue\n\
         \x20   sys.stdout.write('\\x1b]0;pwned\\x07\\x00\\n')\n\
         \x20   sys.stdout.flush()\n",
    )
    .unwrap();
    format!("python3 {}", path.display())
}

fn assert_no_raw_controls(text: &str, what: &str) {
    for c in ['\x1b', '\x07', '\0'] {
        assert!(
            !text.contains(c),
            "{what} holds a raw {c:?}:\n{}",
            text.escape_debug()
        );
    }
}

#[test]
fn control_characters_from_bots_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = evil_bot(dir.path());
    let random = sample_bin("arrow5_random");
    let transcript = dir.path().join("t.jsonl");
    let game = || {
        referee_in_dir(dir.path())
            .args(["match", "arrow5"])
            .bot(&evil)
            .bot(&random)
            .args(["--seed", "3"])
    };
    let run = game().arg("--transcript").arg(&transcript).run().succeeds();
    assert_no_raw_controls(&run.stdout, "the match account");
    assert_no_raw_controls(&run.stderr, "stderr");
    assert!(
        run.stdout.contains("stderr: \\x1b[31mred\\x07bell\\x00nul"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\\x1b]0;pwned\\x07\\x00"),
        "{}",
        run.stdout
    );

    // The replay view escapes too; the transcript keeps the exact text.
    let replay = referee_in_dir(dir.path())
        .arg("replay")
        .arg(&transcript)
        .run()
        .succeeds();
    assert_no_raw_controls(&replay.stdout, "the replay view");
    assert!(replay.stdout.contains("\\x1b[31mred"), "{}", replay.stdout);
    let kept = std::fs::read_to_string(&transcript).unwrap();
    assert!(
        kept.contains("\\u001b[31mred\\u0007bell\\u0000nul"),
        "{kept}"
    );

    // JSON output keeps the exact text, in JSON's own escaping.
    let record = game().arg("--json").run().succeeds().json();
    let detail = record["players"][0]["disqualification"]["detail"]
        .as_str()
        .unwrap();
    assert!(detail.contains("\x1b]0;pwned\x07\0"), "{detail:?}");

    // A bot name with ESC in a tournament file: refused, and shown escaped.
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\n[options]\nmax_rounds = 5\n\
             [[bots]]\nname = \"evil\\u001b[2J\\u0007\"\nbot = \"{evil}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{random}\"\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    referee_in_dir(dir.path())
        .args(["tournament", "t.toml", "--out"])
        .arg(&out)
        .case("a bot name with ESC and BEL")
        .run()
        .refused_with("evil\\x1b[2J\\x07")
        .stderr_has("control character");
    assert!(!out.exists(), "nothing is written");

    // An error naming such a bot escapes it too.
    std::fs::write(
        &file,
        "game = \"arrow5\"\n[[bots]]\nname = \"bad\\u0007\\u001b[2J\"\nbot = \"./missing\"\n\
         [[bots]]\nname = \"b\"\nbot = \"true\"\n",
    )
    .unwrap();
    let run = referee_in_dir(dir.path())
        .args(["tournament", "t.toml"])
        .case("a missing bot with BEL in its name")
        .run()
        .refused_with("bad\\x07\\x1b[2J");
    assert_no_raw_controls(&run.stderr, "the error");
}

/// What to put in place of a file of a results folder.
#[derive(Clone, Copy, Debug)]
enum Planted {
    /// A FIFO no one writes to: opening it to read would wait for ever.
    Fifo,
    /// A symbolic link to `/dev/zero`: read whole, it never ends.
    LinkToZero,
}

/// Moves `path` aside (if it is there) and puts `what` in its place;
/// returns a guard that puts the file back.
fn plant(path: PathBuf, what: Planted) -> impl FnOnce() {
    let aside = path.with_extension("aside");
    let had = path.exists();
    if had {
        std::fs::rename(&path, &aside).unwrap();
    }
    match what {
        Planted::Fifo => {
            let status = Command::new("mkfifo").arg(&path).status().unwrap();
            assert!(status.success(), "mkfifo {}", path.display());
        }
        Planted::LinkToZero => std::os::unix::fs::symlink("/dev/zero", &path).unwrap(),
    }
    move || {
        std::fs::remove_file(&path).unwrap();
        if had {
            std::fs::rename(&aside, &path).unwrap();
        }
    }
}

/// The referee in `dir`, its address space capped (a referee that reads
/// `/dev/zero` whole fails fast instead of filling the machine).
fn capped_referee(dir: &Path) -> Referee {
    referee_in_dir(dir).after_shell("ulimit -v 4000000")
}

/// Every file the referee reads from a results folder, a shard or a report
/// folder is opened without waiting and without following a link, and
/// must be a regular file: a FIFO or a link to `/dev/zero` in its place is
/// refused at once (exit 2, the file named), neither waited on for ever nor
/// read until memory runs out; the results already there are kept.
#[test]
fn files_of_a_results_folder_that_are_not_regular_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.toml"),
        tournament_text("games_per_pairing = 4\nseed = 5\n[options]\nmax_rounds = 5"),
    )
    .unwrap();
    std::fs::write(dir.path().join("shared.key"), "7a".repeat(32)).unwrap();
    let tournament = |out: &str| {
        referee_in_dir(dir.path())
            .args(["tournament", "t.toml", "--out", out, "--no-report"])
            .args(["--key-file", "shared.key"])
    };
    tournament("res").run().succeeds();
    let res = dir.path().join("res");
    let games_before = std::fs::read(res.join("games.csv")).unwrap();
    let transcript = std::fs::read_dir(res.join("transcripts"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let transcript_name = transcript
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let resume = [
        "tournament",
        "t.toml",
        "--out",
        "res",
        "--resume",
        "--no-report",
    ];
    for (file, what) in [
        ("referee.key", Planted::Fifo),
        ("referee.key", Planted::LinkToZero),
        ("games.csv", Planted::Fifo),
        ("games.csv", Planted::LinkToZero),
        ("tournament.toml", Planted::Fifo),
        ("tournament.toml", Planted::LinkToZero),
        ("store/games.jsonl", Planted::LinkToZero),
        ("store/games.jsonl", Planted::Fifo),
    ] {
        let restore = plant(res.join(file), what);
        capped_referee(dir.path())
            .args(resume)
            .case(format!("{file} {what:?}"))
            .run()
            .refused_with(&format!("res/{file}"));
        restore();
    }
    // `report` reads the folder too.
    for (file, what) in [
        ("tournament.json", Planted::Fifo),
        ("tournament.toml", Planted::LinkToZero),
        (
            &format!("transcripts/{transcript_name}") as &str,
            Planted::LinkToZero,
        ),
    ] {
        let restore = plant(res.join(file), what);
        capped_referee(dir.path())
            .args(["report", "res"])
            .case(format!("report: {file} {what:?}"))
            .run()
            .refused_with(file);
        restore();
    }
    // Put back, the folder resumes as it was: nothing was lost.
    referee_in_dir(dir.path()).args(resume).run().succeeds();
    assert_eq!(std::fs::read(res.join("games.csv")).unwrap(), games_before);

    // A shard's files: `merge` refuses them and writes nothing.
    for shard in ["1/2", "2/2"] {
        let out = format!("shard{}", &shard[..1]);
        tournament(&out).args(["--shard", shard]).run().succeeds();
    }
    let shard2 = dir.path().join("shard2");
    let shard_transcript = std::fs::read_dir(shard2.join("transcripts"))
        .unwrap()
        .next()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
    let mut planted = vec![
        ("tournament.toml".to_string(), Planted::LinkToZero),
        ("tournament.json".to_string(), Planted::Fifo),
        ("referee.key".to_string(), Planted::LinkToZero),
        ("games.csv".to_string(), Planted::Fifo),
    ];
    if let Some(name) = shard_transcript {
        planted.push((format!("transcripts/{name}"), Planted::LinkToZero));
        planted.push((format!("transcripts/{name}"), Planted::Fifo));
    }
    let merge = ["merge", "shard1", "shard2", "--out", "merged"];
    for (file, what) in planted {
        let restore = plant(shard2.join(&file), what);
        capped_referee(dir.path())
            .args(merge)
            .case(format!("merge: {file} {what:?}"))
            .run()
            .refused_with(&format!("shard2/{file}"));
        assert!(
            !dir.path().join("merged").exists(),
            "merge: {file}: written"
        );
        restore();
    }
    referee_in_dir(dir.path()).args(merge).run().succeeds();
}

/// An `--out` that cannot be a results folder (a file, or a path through
/// one) is bad input, not a failure of the referee; why is said once.
#[test]
fn an_out_that_cannot_be_a_folder_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament_text("")).unwrap();
    std::fs::write(dir.path().join("taken"), "a file of the user's\n").unwrap();
    for (out, why) in [
        ("taken", "it is a file, not a folder"),
        ("taken/inside", "Not a directory"),
        ("/etc/passwd", "it is a file, not a folder"),
    ] {
        let run = referee_in_dir(dir.path())
            .args(["tournament", "t.toml", "--out", out])
            .case(out)
            .run()
            .refused_with(&format!("--out {out}: "))
            .stderr_has(why);
        assert_eq!(run.stderr.matches(why).count(), 1, "{}", run.stderr);
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("taken")).unwrap(),
        "a file of the user's\n"
    );
}

/// A whole number too large for its field says "too large" and the limit,
/// whatever its size (TOML holds up to 2^63 - 1; beyond, its own error).
#[test]
fn numbers_too_large_for_a_field_say_so_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "games_per_pairing = 99999999999999",
            "games_per_pairing: 99999999999999 is too large: at most 1000000",
        ),
        (
            "games_per_pairing = 99999999999999999999",
            "games_per_pairing: too large: at most 1000000",
        ),
        (
            "seed = 99999999999999999999",
            "seed: too large: at most 9223372036854775807",
        ),
        (
            "format = \"swiss\"\nrounds = 99999999999",
            "rounds: 99999999999 is not possible (too large) with 2 bots; give 1 to 1",
        ),
        (
            "format = \"knockout\"\ntiebreak_pairs = 99999999999",
            "tiebreak_pairs: 99999999999 are too many: at most 100",
        ),
        (
            "format = \"groups\"\ngroups = 99999999999\nadvance = 1",
            "groups: 99999999999 groups are not possible (too large) with 2 bots; give 1 to 1",
        ),
        (
            "format = \"groups\"\ngroups = 1\nadvance = 99999999999",
            "advance: 99999999999 of each group is not possible (too large)",
        ),
        (
            "[scoring]\nwin = 99999999999999",
            "scoring.win: 99999999999999 points are too large: at most 1000000",
        ),
        (
            "[options]\nmax_rounds = 99999999999",
            "options.max_rounds: 99999999999 is too large: at most 10000",
        ),
    ];
    for (head, message) in cases {
        std::fs::write(dir.path().join("t.toml"), tournament_text(head)).unwrap();
        let run = referee_in_dir(dir.path())
            .args(["tournament", "t.toml", "--out", "out"])
            .case(head)
            .run()
            .refused_with(message);
        assert!(
            !run.stderr.contains("not negative"),
            "{head}: {}",
            run.stderr
        );
    }
    // Mastermind's options: the game's own limits, not the type's.
    let text = format!(
        "game = \"mastermind\"\n[options]\npegs = 300\n\
         [[bots]]\nname = \"a\"\nbot = \"{0}\"\n[[bots]]\nname = \"b\"\nbot = \"{0}\"\n",
        sample_bin("mastermind_knuth")
    );
    std::fs::write(dir.path().join("m.toml"), text).unwrap();
    referee_in_dir(dir.path())
        .args(["tournament", "m.toml", "--out", "out"])
        .run()
        .refused_with("options.pegs: 300 is too large: at most 12");
}
