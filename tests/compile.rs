//! Compiling C and C++ bots: the cache, the `compile` verdict, and the
//! compiler as untrusted as the bot (it runs in the game's sandbox, with a
//! memory and output cap, and dies with the referee).

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee_engine::bot::compile::{prepare_in, COMPILE_LIMIT};
use referee_engine::bot::{BotCommand, Languages, Sandbox};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

fn command(dir: &Path, name: &str, text: &str) -> BotCommand {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    BotCommand::parse(path.to_str().unwrap(), &Languages::built_in()).unwrap()
}

fn use_the_launcher() {}

#[test]
fn compiles_once_then_uses_the_cache() {
    use_the_launcher();
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let bot = command(dir.path(), "ok.c", "int main(void) { return 0; }\n");
    let basic = Sandbox::Basic;
    let built = prepare_in(&bot, &cache, &basic, COMPILE_LIMIT).unwrap();
    assert!(built.program.starts_with(&cache), "{built:?}");
    assert!(built.program.is_file());
    assert_eq!(built.source, None);
    let modified = built.program.metadata().unwrap().modified().unwrap();
    let again = prepare_in(&bot, &cache, &basic, COMPILE_LIMIT).unwrap();
    assert_eq!(again.program, built.program);
    assert_eq!(
        again.program.metadata().unwrap().modified().unwrap(),
        modified
    );
    // Other content, other binary; no build directory is left behind.
    let other = command(dir.path(), "ok.c", "int main(void) { return 1; }\n");
    assert_ne!(
        prepare_in(&other, &cache, &basic, COMPILE_LIMIT)
            .unwrap()
            .program,
        built.program
    );
    assert_eq!(fs::read_dir(&cache).unwrap().count(), 2);
}

#[test]
fn a_compile_error_is_a_verdict_with_the_message() {
    use_the_launcher();
    let dir = tempfile::tempdir().unwrap();
    let bot = command(dir.path(), "bad.cpp", "int main() { return nope; }\n");
    let err = prepare_in(
        &bot,
        &dir.path().join("cache"),
        &Sandbox::Basic,
        COMPILE_LIMIT,
    )
    .unwrap_err();
    assert!(err.is_verdict(), "{err}");
    let text = err.to_string();
    assert!(text.starts_with("does not compile (g++"), "{text}");
    assert!(text.contains("nope"), "{text}");
    assert!(err.compiler_message().contains("bad.cpp"), "{err:?}");
}

/// A Cryptron match of `source` (the bot under test) against the Python
/// starter, with its own compile cache; the record.
fn match_of(source: &Path, cache: &Path, layer: &str) -> serde_json::Value {
    let mut cmd = Command::new(referee_bin());
    cmd.args([
        "match",
        "cryptron",
        source.to_str().unwrap(),
        &sample_file("python/cryptron_starter.py"),
        "--sandbox",
        layer,
        "--json",
    ])
    .env("REFEREE_CACHE", cache);
    let run = run_within(cmd, BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.json()
}

fn the_compiler_reads_only_what_a_bot_may(layer: &str) {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("shadow.c");
    fs::write(
        &source,
        "#include \"/etc/shadow\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    let record = match_of(&source, &dir.path().join("cache"), layer);
    let a = &record["players"][0];
    assert_eq!(a["verdict"], "compile", "{record}");
    let shown = record.to_string();
    assert!(
        !shown.contains("root:"),
        "a line of /etc/shadow reached the message: {shown}"
    );
    assert!(
        shown.contains("/etc/shadow"),
        "the message names the file it could not read: {shown}"
    );
}

/// A source whose preprocessing doubles 30 times: the compiler grows
/// without bound unless its memory is capped.
fn macro_bomb(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("#define A0 1+1\n");
    for i in 1..=30 {
        text.push_str(&format!("#define A{i} A{}+A{}\n", i - 1, i - 1));
    }
    text.push_str("int x = A30;\nint main(void) { return 0; }\n");
    let path = dir.join("bomb.c");
    fs::write(&path, text).unwrap();
    path
}

fn the_compilers_memory_is_capped(layer: &str) {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let record = match_of(&macro_bomb(dir.path()), &dir.path().join("cache"), layer);
    assert_eq!(record["players"][0]["verdict"], "compile", "{record}");
    assert!(
        started.elapsed() < COMPILE_LIMIT,
        "stopped by its memory cap, not its time limit"
    );
}

fn the_compiler_dies_with_the_referee(layer: &str) {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir
        .path()
        .join(format!("cache-{}-{layer}", std::process::id()));
    let mut referee = Command::new(referee_bin())
        .args([
            "match",
            "cryptron",
            macro_bomb(dir.path()).to_str().unwrap(),
            &sample_file("python/cryptron_starter.py"),
            "--sandbox",
            layer,
        ])
        .env("REFEREE_CACHE", &cache)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The compiler's command line names its folder in the cache.
    let needle = cache.to_string_lossy().into_owned();
    let compiling = wait_for_processes(&needle, 1, Duration::from_secs(20));
    signal(referee.id(), rustix::process::Signal::TERM);
    referee.wait().unwrap();
    let left = gone_within(&needle, Duration::from_secs(5));
    assert!(!compiling.is_empty(), "the compiler never started");
    assert!(left.is_empty(), "left behind: {left:?}");
}

under_each_layer! {
    the_compiler_reads_only_what_a_bot_may: compiler_reading_basic, compiler_reading_strict;
    the_compilers_memory_is_capped: compiler_memory_basic, compiler_memory_strict;
    the_compiler_dies_with_the_referee: compiler_killed_basic, compiler_killed_strict;
}

/// Where no cache folder is named (no `REFEREE_CACHE`, `XDG_CACHE_HOME` or
/// `HOME`, as for a service) the cache is a folder of the user's own name
/// in the temporary folder, and one that other users may write in is
/// refused, not used: a compiled bot found there is run as it is, so
/// whoever put one there would choose what the bot runs. It was
/// `/tmp/referee-cache`, which any user could make first and fill.
#[test]
fn a_cache_folder_other_users_may_write_in_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let uid = rustix::process::geteuid().as_raw();
    let shared = tmp.path().join(format!("referee-cache-{uid}"));
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(
        &shared,
        std::os::unix::fs::PermissionsExt::from_mode(0o1777),
    )
    .unwrap();
    let starter = sample_file("c/arrow5_starter.c");
    // A match with no cache folder named: the fallback in TMPDIR.
    let unnamed_cache_match = || {
        let mut command = Command::new(referee_bin());
        command
            .args(["match", "arrow5", &starter, &sample_bin("arrow5_random")])
            .env_remove("HOME")
            .env_remove("XDG_CACHE_HOME")
            .env_remove("REFEREE_CACHE")
            .env("TMPDIR", tmp.path());
        run_within(command, BUDGET)
    };
    let run = unnamed_cache_match();
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&shared.display().to_string())
            && run.stderr.contains("other users may write"),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read_dir(&shared).unwrap().count(),
        0,
        "something was built there"
    );
    // Made by the referee itself, the folder is its user's alone: a game.
    fs::remove_dir(&shared).unwrap();
    let run = unnamed_cache_match();
    assert_eq!(run.status, 0, "{}", run.stderr);
    let mode = fs::metadata(&shared).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o022,
        0,
        "the cache folder it made is writable by others"
    );
}
