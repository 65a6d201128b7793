//! How bots are started: under basic the referee starts a bot that may not
//! fork itself (no launcher between them), in a process group of its own
//! in the referee's session; a bot that may fork goes through a launcher
//! and gets a session of its own. What each bot may do is the sandbox
//! tests' (`sandbox`, `fair_play`): the same under either start; what a
//! bot may write of what other bots load (the compile cache) is here.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::*;
use crate::sandbox::identities_with;

/// The session the referee runs in: the test's own (the harness starts the
/// referee without a session of its own).
/// (From `/proc/self/stat`: in a container whose session leader lies
/// outside its PID namespace the id reads 0, as the bot's does.)
fn own_session() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // After the command's name in parentheses: state, parent, group, session.
    let after = &stat[stat.rfind(')').unwrap() + 1..];
    after.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn a_bot_that_may_not_fork_is_started_by_the_referee_in_its_session() {
    let seats = identities_with(&["--sandbox", "basic"]);
    for seat in &seats {
        // Its own process group, which the referee signals as a whole.
        assert_eq!(seat["group"], seat["pid"], "{seat}");
        // The referee's session: no launcher (which leads a session of its
        // own) between them, and no scheduling group per bot.
        assert_eq!(seat["session"].as_u64(), Some(own_session()), "{seat}");
    }
    // Both are children of the same process, the referee.
    assert_eq!(seats[0]["parent"], seats[1]["parent"], "{seats:?}");
}

#[test]
fn a_bot_that_may_fork_is_kept_by_a_launcher_in_a_session_of_its_own() {
    let seats = identities_with(&["--sandbox", "basic", "--allow-fork"]);
    for seat in &seats {
        assert_eq!(seat["session"], seat["pid"], "{seat}");
        assert_eq!(seat["group"], seat["pid"], "{seat}");
    }
    // Each has a launcher of its own for a parent.
    assert_ne!(seats[0]["parent"], seats[1]["parent"], "{seats:?}");
}

/// What `cache_writer.c` said it could write, from the game's transcript:
/// a game against `identity.py`, both compiled or run from a cache of the
/// test's own, after another bot (the C starter) was built in it.
/// Returns the line and the cache folder, for a look at what is in it.
fn cache_writer_says(sandbox: &str) -> (String, tempfile::TempDir) {
    // Outside /tmp, open to others: under strict every bot and compiler
    // runs as a user of its own with a private /tmp.
    let cache = tempfile::Builder::new()
        .prefix("cache-writer-")
        .tempdir_in(root().join("target"))
        .unwrap();
    std::fs::set_permissions(
        cache.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let with_cache = |args: &[&str]| {
        let mut command = Command::new(referee_bin());
        command
            .args(args)
            .args(["--sandbox", sandbox])
            .env("REFEREE_CACHE", cache.path())
            .current_dir(root());
        run_within(command, Duration::from_secs(120))
    };
    let starter = sample_file("c/arrow5_starter.c");
    let run = with_cache(&["match", "arrow5", &starter, &starter, "--max-rounds", "1"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let builds: Vec<PathBuf> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(builds.len(), 1, "the starter's build: {builds:?}");
    let writer = format!(
        "{} {}",
        sample_file("hostile/cache_writer.c"),
        builds[0].display()
    );
    let transcript = cache.path().join("game.jsonl");
    let run = with_cache(&[
        "match",
        "arrow5",
        &writer,
        &sample_file("hostile/identity.py"),
        "--max-rounds",
        "1",
        "--transcript",
        transcript.to_str().unwrap(),
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&transcript).unwrap();
    let said = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter_map(|entry| entry["line"].as_str().map(str::to_string))
        .find(|line| line.starts_with("cache: "))
        .unwrap_or_else(|| panic!("the writer said nothing: {text}"));
    (said, cache)
}

/// Nothing but the builds themselves (each its program) and the game's
/// transcript is in the cache: no file the writer planted.
fn assert_nothing_planted(cache: &Path) {
    let mut planted = vec![];
    let mut queue = vec![cache.to_path_buf()];
    while let Some(dir) = queue.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                queue.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| n == "planted-by-cache-writer")
            {
                planted.push(path);
            }
        }
    }
    assert!(planted.is_empty(), "{planted:?}");
}

/// A bot writes neither into its own build in the compile cache, nor into
/// the cache folder, nor into another bot's build (what the other bot
/// runs): every bot of a language starts from the same kind of build,
/// which only the referee writes.
#[test]
fn a_bot_cannot_write_into_the_compile_cache_under_basic() {
    let (said, cache) = cache_writer_says("basic");
    assert_eq!(
        said,
        "cache: own_build=refused cache=refused other_build=refused"
    );
    assert_nothing_planted(cache.path());
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn a_bot_cannot_write_into_the_compile_cache_under_strict() {
    let (said, cache) = cache_writer_says("strict");
    assert_eq!(
        said,
        "cache: own_build=refused cache=refused other_build=refused"
    );
    assert_nothing_planted(cache.path());
}

/// A bot starts with no signal ignored or blocked (SIGPIPE included: a
/// bot that writes to a closed pipe dies of it, as any program started
/// from a shell), whether the referee or a launcher started it: none of
/// the referee's dispositions leaks into it. The bot execs `grep` on its
/// own `/proc/self/status` (no fork), its stdout sent to its stderr.
#[test]
fn a_bot_starts_with_every_signal_at_its_default() {
    let dir = tempfile::tempdir().unwrap();
    let signals = "/bin/sh -c 'exec 1>&2; exec grep -E \"^Sig(Ign|Blk)\" /proc/self/status'";
    for more in [&[][..], &["--allow-fork"][..]] {
        let transcript = dir.path().join("game.jsonl");
        let mut args = vec![
            "match",
            "arrow5",
            signals,
            signals,
            "--max-rounds",
            "1",
            "--transcript",
            transcript.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        let run = referee(&args, Duration::from_secs(60));
        assert!(run.status == 0 || run.status == 1, "{}", run.stderr);
        let text = std::fs::read_to_string(&transcript).unwrap();
        let masks: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter_map(|entry| entry["line"].as_str().map(str::to_string))
            .filter(|line| line.starts_with("Sig"))
            .collect();
        assert_eq!(masks.len(), 4, "{more:?}: {text}");
        for mask in &masks {
            let (name, bits) = mask.split_once(':').unwrap();
            let bits = u64::from_str_radix(bits.trim(), 16).unwrap();
            if name == "SigBlk" {
                assert_eq!(bits, 0, "{more:?}: blocked {mask}");
            } else {
                // Signals the C library keeps for itself (32, 33) cannot be
                // reset by it and may come ignored from the environment.
                for signal in [1, 2, 3, 13, 15, 17] {
                    assert_eq!(
                        bits & 1 << (signal - 1),
                        0,
                        "{more:?}: signal {signal} ignored in {mask}"
                    );
                }
            }
        }
    }
}
