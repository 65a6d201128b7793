//! Bots in every built-in language, through the real binary: each starter
//! plays each game to the end with no verdict (under basic, and strict as
//! root), runtimes that go over the memory limit get `memory`, sources that
//! do not compile get `compile` with the compiler's message, folders are
//! recognised by their marker, a missing toolchain is a clear error before
//! any game, `[languages.NAME]` tables add languages, a broken source is
//! compiled once per tournament, and a compiler that hangs or floods is
//! stopped.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);

/// The games, with the sample bot each starter plays and the options that
/// keep a game short.
const GAMES: &[(&str, &str, &[&str])] = &[
    ("arrow5", "arrow5_random", &["--max-rounds", "8"]),
    ("mastermind", "mastermind_random", &[]),
    ("safecracker", "safecracker_random", &[]),
    ("cryptron", "cryptron_random", &[]),
];

/// The file name of a language's starter of a game.
type StarterName = fn(&str) -> String;

/// The language folders of `sample_bots/` and the starter of a game in each.
const LANGUAGES: &[(&str, StarterName)] = &[
    ("c", |game| format!("{game}_starter.c")),
    ("cpp", |game| format!("{game}_starter.cpp")),
    ("python", |game| format!("{game}_starter.py")),
    ("java", |game| format!("{}Starter.java", capitalised(game))),
    ("js", |game| format!("{game}_starter.js")),
    ("go", |game| format!("{game}_starter.go")),
    ("rust", |game| format!("{game}_starter.rs")),
];

/// Folders of `sample_bots/` that are not a language's starters.
const NOT_LANGUAGES: &[&str] = &["src", "examples", "hostile"];

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One compile cache for every test of this binary (content-keyed, so a
/// changed starter or compiler builds anew), next to the referee binary.
fn cache() -> PathBuf {
    let dir = referee_bin()
        .parent()
        .expect("the referee binary is in a folder")
        .join("language-tests-cache");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn starter(folder: &str, game: &str) -> PathBuf {
    let (_, file) = LANGUAGES
        .iter()
        .find(|(f, _)| *f == folder)
        .expect("a language folder of the table");
    root().join("sample_bots").join(folder).join(file(game))
}

/// `referee match` with the shared compile cache; the run.
fn play(game: &str, a: &str, b: &str, extra: &[&str], layer: &str) -> Run {
    let mut cmd = std::process::Command::new(referee_bin());
    cmd.args([
        "match",
        game,
        a,
        b,
        "--seed",
        "11",
        "--json",
        "--sandbox",
        layer,
    ])
    .args(extra)
    .env("REFEREE_CACHE", cache())
    .current_dir(root());
    run_within(cmd, BUDGET)
}

#[test]
fn every_language_folder_has_a_starter_for_every_game() {
    let mut missing = Vec::new();
    for (folder, _) in LANGUAGES {
        for (game, _, _) in GAMES {
            let path = starter(folder, game);
            if !path.is_file() {
                missing.push(path.display().to_string());
            }
        }
    }
    assert!(missing.is_empty(), "starters missing: {missing:#?}");
    // A new language folder must join the table (and so the games below).
    for entry in std::fs::read_dir(root().join("sample_bots")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !NOT_LANGUAGES.contains(&name.as_str()) {
            assert!(
                LANGUAGES.iter().any(|(f, _)| *f == name),
                "sample_bots/{name}/ is not in the table of tests/languages.rs"
            );
        }
    }
}

/// Each starter of `folder` plays each game against a sample bot (as seat
/// A, then B, game by game): both verdicts `ok`.
fn starters_play_every_game(folder: &str, layer: &str) {
    for (i, (game, opponent, extra)) in GAMES.iter().enumerate() {
        let path = starter(folder, game);
        assert!(path.is_file(), "missing starter {}", path.display());
        let bot = path.to_string_lossy().into_owned();
        let sample = sample_bin(opponent);
        let starter_is_b = i % 2 == 1;
        let (a, b) = if starter_is_b {
            (&sample, &bot)
        } else {
            (&bot, &sample)
        };
        let run = play(game, a, b, extra, layer);
        assert_eq!(run.status, 0, "{folder} {game}: {}", run.stderr);
        let record = run.json();
        for player in record["players"].as_array().unwrap() {
            assert_eq!(
                player["verdict"], "ok",
                "{folder} {game} under {layer}: {player}\n{}",
                run.stderr
            );
        }
        let seat = usize::from(starter_is_b);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        assert_eq!(record["players"][seat]["name"], name.as_str(), "{record}");
        assert!(
            record["players"][seat]["replies"].as_u64().unwrap() >= 1,
            "{folder} {game}: the starter made no move: {record}"
        );
    }
}

fn c_starters(layer: &str) {
    starters_play_every_game("c", layer);
}
fn cpp_starters(layer: &str) {
    starters_play_every_game("cpp", layer);
}
fn python_starters(layer: &str) {
    starters_play_every_game("python", layer);
}
fn java_starters(layer: &str) {
    starters_play_every_game("java", layer);
}
fn js_starters(layer: &str) {
    starters_play_every_game("js", layer);
}
fn go_starters(layer: &str) {
    starters_play_every_game("go", layer);
}
fn rust_starters(layer: &str) {
    starters_play_every_game("rust", layer);
}

/// The hostile fixtures of the runtimes that reserve memory of their own:
/// each goes over the default 64 MiB limit (plus its language's
/// allowance) in its first attack.
fn runtimes_over_the_memory_limit_get_memory(layer: &str) {
    for fixture in ["MemoryHog.java", "memory_hog.js"] {
        let bot = sample_file(&format!("hostile/{fixture}"));
        let run = play(
            "arrow5",
            &bot,
            &sample_bin("arrow5_random"),
            &["--max-rounds", "5"],
            layer,
        );
        assert_eq!(run.status, 0, "{fixture}: {}", run.stderr);
        let record = run.json();
        let player = &record["players"][0];
        assert_eq!(player["verdict"], "memory", "{fixture}: {player}");
        let detail = player["disqualification"]["detail"].as_str().unwrap();
        assert!(
            detail.contains("over the 65536 KiB limit plus"),
            "{fixture}: {detail}"
        );
        assert_eq!(record["winner"], "b", "{fixture}");
    }
}

/// Sources that do not compile: the `compile` verdict, its detail the
/// compiler's own first lines, naming the user's file.
fn sources_that_do_not_compile_get_compile(layer: &str) {
    for (fixture, words) in [
        ("BrokenCompile.java", "';' expected"),
        ("broken_compile.go", "undefined: undeclaredMove"),
        ("broken_compile.rs", "cannot find value `undeclared_move`"),
    ] {
        let bot = sample_file(&format!("hostile/{fixture}"));
        let run = play("arrow5", &sample_bin("arrow5_random"), &bot, &[], layer);
        assert_eq!(run.status, 0, "{fixture}: {}", run.stderr);
        let record = run.json();
        let player = &record["players"][1];
        assert_eq!(player["verdict"], "compile", "{fixture}: {player}");
        let detail = player["disqualification"]["detail"].as_str().unwrap();
        assert!(detail.starts_with("does not compile"), "{detail}");
        assert!(detail.contains(words), "{fixture}: {detail}");
        assert!(detail.contains(&bot), "names the user's file: {detail}");
        assert_eq!(record["winner"], "a");
    }
    // JavaScript has no compile step: a syntax error is a crash.
    let bot = sample_file("hostile/broken_syntax.js");
    let run = play("arrow5", &bot, &sample_bin("arrow5_random"), &[], layer);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    assert_eq!(record["players"][0]["verdict"], "crash", "{record}");
    let tail = record["players"][0]["stderr_tail"].to_string();
    assert!(tail.contains("SyntaxError"), "{tail}");
}

/// The compile cache in a folder only its owner may enter (the default
/// `~/.cache/referee` of root is in `/root`, mode 0700): under strict the
/// compiler, a user of its own, still reaches its working folder there,
/// and the bot its build.
///
/// The closed folder is made outside /tmp (which strict replaces by a
/// private one, showing only the first folder under it): in /var/tmp, so
/// that the test does the same wherever the checkout lies.
fn compiles_with_the_cache_in_a_closed_folder(layer: &str) {
    let closed = tempfile::Builder::new()
        .prefix("closed-cache-")
        .tempdir_in("/var/tmp")
        .unwrap();
    std::fs::set_permissions(
        closed.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    for bot in ["c/arrow5_starter.c", "java/Arrow5Starter.java"] {
        let mut cmd = std::process::Command::new(referee_bin());
        cmd.args([
            "match",
            "arrow5",
            &sample_file(bot),
            &sample_bin("arrow5_random"),
            "--max-rounds",
            "3",
            "--json",
            "--sandbox",
            layer,
        ])
        .env("REFEREE_CACHE", closed.path().join("cache"));
        let run = run_within(cmd, BUDGET);
        assert_eq!(run.status, 0, "{bot}: {}", run.stderr);
        let record = run.json();
        assert_eq!(record["players"][0]["verdict"], "ok", "{bot}: {record}");
    }
}

/// Java and JavaScript bots given as command lines (`java -jar bot.jar`,
/// `java -cp classes Main`, `node bot.js`) rather than sources: the jar or
/// the classes folder is readable, the language's heap cap reaches the
/// runtime through its environment, so they play, and a hog among them
/// gets `memory`.
fn runtimes_as_command_lines(layer: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for fixture in ["java/Arrow5Starter.java", "hostile/MemoryHog.java"] {
        let classes = dir.path().join("classes");
        let status = std::process::Command::new("javac")
            .args(["-d", classes.to_str().unwrap(), &sample_file(fixture)])
            .status()
            .unwrap();
        assert!(status.success(), "javac {fixture}");
    }
    let jar = dir.path().join("bot.jar");
    let status = std::process::Command::new("jar")
        .args(["cfe", jar.to_str().unwrap(), "Arrow5Starter", "-C"])
        .arg(dir.path().join("classes"))
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success(), "jar");
    let classes = dir.path().join("classes").display().to_string();
    let random = sample_bin("arrow5_random");
    for (bot, verdict) in [
        (format!("java -jar {}", jar.display()), "ok"),
        (format!("java -cp {classes} Arrow5Starter"), "ok"),
        (
            format!("node {}", sample_file("js/arrow5_starter.js")),
            "ok",
        ),
        (format!("java -cp {classes} MemoryHog"), "memory"),
        (
            format!("node {}", sample_file("hostile/memory_hog.js")),
            "memory",
        ),
    ] {
        let run = play("arrow5", &bot, &random, &["--max-rounds", "5"], layer);
        assert_eq!(run.status, 0, "{bot}: {}", run.stderr);
        let player = &run.json()["players"][0];
        assert_eq!(player["verdict"], verdict, "{bot} ({layer}): {player}");
    }
}

/// Honest bots that use what their runtimes offer: a Java bot keeping
/// its candidates in a file through `java.nio.file` (the JDK makes a Unix
/// socket pair for it) and filtering them on a `java.util.concurrent`
/// pool; a JavaScript bot filtering in a `worker_threads` worker (which
/// reserves 540 MiB of address space). Each plays real games, as seat A
/// then B, to the end: `ok`, with moves made.
fn runtimes_use_files_threads_and_workers(layer: &str) {
    for fixture in ["java/Arrow5Concurrent.java", "js/arrow5_workers.js"] {
        let bot = sample_file(fixture);
        let random = sample_bin("arrow5_random");
        for (seat, (a, b)) in [(0, (&bot, &random)), (1, (&random, &bot))] {
            let run = play("arrow5", a, b, &["--max-rounds", "6"], layer);
            assert_eq!(run.status, 0, "{fixture}: {}", run.stderr);
            let record = run.json();
            for player in record["players"].as_array().unwrap() {
                assert_eq!(player["verdict"], "ok", "{fixture} ({layer}): {player}");
            }
            let player = &record["players"][seat];
            assert!(
                player["replies"].as_u64().unwrap() >= 2,
                "{fixture} ({layer}) made no moves: {record}"
            );
        }
    }
}

under_each_layer! {
    runtimes_use_files_threads_and_workers: runtime_features_basic, runtime_features_strict;
    runtimes_as_command_lines: command_line_runtimes_basic, command_line_runtimes_strict;
    compiles_with_the_cache_in_a_closed_folder: closed_cache_basic, closed_cache_strict;
    c_starters: c_starters_play_every_game_basic, c_starters_play_every_game_strict;
    cpp_starters: cpp_starters_play_every_game_basic, cpp_starters_play_every_game_strict;
    python_starters: python_starters_play_every_game_basic, python_starters_play_every_game_strict;
    java_starters: java_starters_play_every_game_basic, java_starters_play_every_game_strict;
    js_starters: js_starters_play_every_game_basic, js_starters_play_every_game_strict;
    go_starters: go_starters_play_every_game_basic, go_starters_play_every_game_strict;
    rust_starters: rust_starters_play_every_game_basic, rust_starters_play_every_game_strict;
    runtimes_over_the_memory_limit_get_memory: memory_hogs_basic, memory_hogs_strict;
    sources_that_do_not_compile_get_compile: broken_sources_basic, broken_sources_strict;
}

#[test]
fn java_against_javascript_plays_to_the_end() {
    let run = play(
        "arrow5",
        &sample_file("java/Arrow5Starter.java"),
        &sample_file("js/arrow5_starter.js"),
        &[],
        "basic",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    for player in record["players"].as_array().unwrap() {
        assert_eq!(player["verdict"], "ok", "{player}");
    }
}

#[test]
fn every_built_in_language_is_listed_with_its_toolchain_found() {
    let run = referee(&["languages", "--json"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let listed: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for name in ["c", "cpp", "python", "java", "javascript", "go", "rust"] {
        let lang = listed
            .iter()
            .find(|l| l["name"] == name)
            .unwrap_or_else(|| panic!("{name} is not listed: {}", run.stdout));
        assert_eq!(
            lang["found"], true,
            "{name}: its toolchain is missing on this machine ({}); .ci/run installs it",
            lang["install"]
        );
        assert!(
            lang["version"].as_str().is_some_and(|v| !v.is_empty()),
            "{lang}"
        );
        assert!(lang["memory_allowance_kb"].as_u64().unwrap() > 0, "{lang}");
    }
    // The table a person reads.
    let run = referee(&["languages"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    for word in [
        "LANGUAGE",
        "java",
        "javascript",
        "go",
        "rust",
        "javac",
        "MiB",
    ] {
        assert!(run.stdout.contains(word), "{word}: {}", run.stdout);
    }
}

/// A size in KiB as the reference's Languages table writes it: `4 MiB`,
/// `1 GiB`, `1.5 GiB`.
fn table_size(kb: u64) -> String {
    let mib = kb as f64 / 1024.0;
    if mib >= 1024.0 {
        format!("{} GiB", mib / 1024.0)
    } else {
        format!("{mib} MiB")
    }
}

#[test]
fn the_reference_table_of_languages_says_what_referee_languages_prints() {
    // The table once lacked `-fmax-errors=20` and C++'s `.c++`, `main.cc`
    // and aliases: it is the docs an organiser reads first.
    let docs = std::fs::read_to_string(root().join("docs/reference.md")).unwrap();
    let table = docs
        .split("## Languages\n")
        .nth(1)
        .expect("docs/reference.md has a Languages section");
    let run = referee(&["languages", "--json"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let code = |text: &str| format!("`{text}`");
    let words = |value: &serde_json::Value| -> Vec<String> {
        value
            .as_array()
            .map(|a| a.iter().map(|w| w.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    for line in run.stdout.lines() {
        let lang: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = lang["name"].as_str().unwrap();
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` ")))
            .unwrap_or_else(|| panic!("no row for {name} in docs/reference.md's Languages"));
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        let [names, bot_is, compile, run_as, times, allowance, compile_limit] = cells[..] else {
            panic!("{name}: not seven cells: {row}");
        };
        // The aliases, and nothing else, in parentheses after the name.
        let aliases = words(&lang["aliases"]);
        let listed = names.trim_start_matches(&code(name)).trim();
        let expected = match aliases.len() {
            0 => String::new(),
            _ => format!(
                "({})",
                aliases
                    .iter()
                    .map(|a| code(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        assert_eq!(listed, expected, "{name}'s aliases: {row}");
        for extension in words(&lang["extensions"]) {
            assert!(
                bot_is.contains(&code(&format!(".{extension}"))),
                "{name}: .{extension}: {row}"
            );
        }
        for marker in words(&lang["markers"]) {
            assert!(bot_is.contains(&code(&marker)), "{name}: {marker}: {row}");
        }
        let command = |key: &str| words(&lang[key]).join(" ");
        if lang["compile"].is_null() {
            assert_eq!((compile, compile_limit), ("—", "—"), "{name}: {row}");
        } else {
            assert_eq!(compile, code(&command("compile")), "{name}: {row}");
            let limit = format!(
                "{} s, {}",
                lang["compile_time_limit_s"].as_f64().unwrap(),
                table_size(lang["compile_memory_limit_kb"].as_u64().unwrap())
            );
            assert_eq!(compile_limit, limit, "{name}: {row}");
        }
        if name == "native" {
            assert_eq!(run_as, "itself", "{row}");
        } else {
            assert!(run_as.starts_with(&code(&command("run"))), "{name}: {row}");
        }
        assert_eq!(
            times,
            lang["time_multiplier"].as_f64().unwrap().to_string(),
            "{name}: {row}"
        );
        assert_eq!(
            allowance,
            table_size(lang["memory_allowance_kb"].as_u64().unwrap()),
            "{name}: {row}"
        );
    }
}

/// A folder of symbolic links to `programs` (found in PATH), to stand for
/// a machine with only those installed.
fn path_with_only(dir: &Path, programs: &[&str]) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for program in programs {
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .output()
            .unwrap();
        let found = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(!found.is_empty(), "{program} is not installed");
        std::os::unix::fs::symlink(std::fs::canonicalize(&found).unwrap(), bin.join(program))
            .unwrap();
    }
    bin
}

#[test]
fn a_missing_toolchain_is_a_clear_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let bin = path_with_only(dir.path(), &["sh"]);
    for (bot, language, program, install) in [
        (
            "java/Arrow5Starter.java",
            "java",
            "javac",
            "default-jdk-headless",
        ),
        ("js/arrow5_starter.js", "javascript", "node", "nodejs"),
        ("go/arrow5_starter.go", "go", "go", "golang-go"),
    ] {
        let mut cmd = std::process::Command::new(referee_bin());
        cmd.args([
            "match",
            "arrow5",
            &sample_file(bot),
            &sample_bin("arrow5_random"),
        ])
        .env("PATH", &bin)
        .env("REFEREE_CACHE", dir.path().join("cache"));
        let run = run_within(cmd, BUDGET);
        assert_eq!(run.status, 2, "{bot}: {}\n{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "{language} needs '{program}', which is not installed"
            )),
            "{bot}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(install), "{bot}: {}", run.stderr);
        assert!(
            !run.stdout.contains("Result"),
            "no game was played: {}",
            run.stdout
        );
    } // `referee languages` says what is missing and what to install.
    let mut cmd = std::process::Command::new(referee_bin());
    cmd.arg("languages").env("PATH", &bin);
    let run = run_within(cmd, BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    for words in [
        "java: 'javac' not found; install it: apt-get install default-jdk-headless",
        "javascript: 'node' not found; install it: apt-get install nodejs",
        "go: 'go' not found; install it: apt-get install golang-go",
    ] {
        assert!(run.stdout.contains(words), "{words}: {}", run.stdout);
    }
    assert!(run.stdout.contains("MISSING"), "{}", run.stdout);
}

#[test]
fn folders_are_bots_by_their_marker_file() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |folder: &str, from: &str, to: &str, edit: &dyn Fn(String) -> String| -> PathBuf {
        let bot = dir.path().join(folder);
        std::fs::create_dir_all(bot.join(Path::new(to).parent().unwrap())).unwrap();
        let text = std::fs::read_to_string(sample_file(from)).unwrap();
        std::fs::write(bot.join(to), edit(text)).unwrap();
        bot
    };
    let same = |t: String| t;
    let java = copy("javabot", "java/Arrow5Starter.java", "Main.java", &|t| {
        t.replace("Arrow5Starter", "Main")
    });
    let go = copy("gobot", "go/arrow5_starter.go", "main.go", &same);
    let js = copy("jsbot", "js/arrow5_starter.js", "index.js", &same);
    std::fs::write(js.join("package.json"), "{\"main\": \"index.js\"}\n").unwrap();
    let rust = copy("rustbot", "rust/arrow5_starter.rs", "src/main.rs", &same);
    std::fs::write(rust.join("Cargo.toml"), "[package]\nname = \"rustbot\"\n").unwrap();
    let python = copy("pybot", "python/arrow5_starter.py", "main.py", &same);
    for (bot, spec) in [
        (&java, format!("java:{}", java.display())),
        (&go, go.display().to_string()),
        (&js, js.display().to_string()),
        (&rust, rust.display().to_string()),
        (&python, python.display().to_string()),
    ] {
        let run = play("arrow5", &spec, &sample_bin("arrow5_random"), &[], "basic");
        assert_eq!(run.status, 0, "{spec}: {}", run.stderr);
        let record = run.json();
        let player = &record["players"][0];
        assert_eq!(player["verdict"], "ok", "{spec}: {player}");
        let name = bot.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(player["name"], name.as_str());
    }
}

#[test]
fn bad_sources_are_clear_errors_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty_bot");
    std::fs::create_dir(&empty).unwrap();
    let big = dir.path().join("Big.java");
    std::fs::write(&big, vec![b' '; 1 << 20]).unwrap();
    let sample = sample_bin("arrow5_random");
    for (spec, words) in [
        (
            empty.display().to_string(),
            "holds no entry point; a folder bot holds one of: main.c (c)",
        ),
        (
            format!("go:{}", empty.display()),
            "holds no entry point for go; a folder bot holds one of: main.go (go)",
        ),
        (
            big.display().to_string(),
            "a bot source must be under 1048576 bytes",
        ),
    ] {
        let run = play("arrow5", &spec, &sample, &[], "basic");
        assert_eq!(run.status, 2, "{spec}: {}", run.stderr);
        assert!(run.stderr.contains(words), "{spec}: {}", run.stderr);
    }
}

/// A tournament file `t.toml` in `dir` with `tables` (its `[languages]`)
/// and two bots, `games` games; played; its games.csv rows.
fn tournament_rows(
    dir: &Path,
    tables: &str,
    bots: [(&str, &str); 2],
    games: u32,
) -> Vec<std::collections::BTreeMap<String, String>> {
    let file = two_bot_tournament(dir, "arrow5", games, bots, tables);
    let out = dir.join("out");
    let mut cmd = std::process::Command::new(referee_bin());
    cmd.args([
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
    ])
    .env("REFEREE_CACHE", dir.join("cache"));
    let run = run_within(cmd, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    csv_records(&out.join("games.csv"))
}

#[test]
fn a_broken_source_is_compiled_once_per_tournament() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.once"), "anything\n").unwrap();
    // Each compile prints a fresh random id: one id in every game's detail
    // means one compile for the whole tournament.
    let tables = "[languages.once]\nextensions = [\"once\"]\n\
                  compile = \"sh -c 'cat /proc/sys/kernel/random/uuid >&2; exit 1' sh {source} {out}\"\n\
                  run = \"{out}/bot\"\n";
    let rows = tournament_rows(
        dir.path(),
        tables,
        [
            ("broken", "bot.once"),
            ("random", &sample_bin("arrow5_random")),
        ],
        4,
    );
    assert_eq!(rows.len(), 4);
    let details: Vec<&str> = rows.iter().map(|r| r["detail"].as_str()).collect();
    for detail in &details {
        assert!(detail.contains("broken: compile at reply 0"), "{detail}");
    }
    assert!(
        details.iter().all(|d| d == &details[0]),
        "compiled more than once: {details:#?}"
    );
}

#[test]
fn a_compiler_that_hangs_or_floods_gets_compile_and_never_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.slow"), "anything\n").unwrap();
    std::fs::write(dir.path().join("bot.loud"), "anything\n").unwrap();
    let tables = "[languages.slow]\nextensions = [\"slow\"]\ncompile_time_limit = \"2s\"\n\
                  compile = \"sh -c 'sleep 600' sh {source} {out}\"\nrun = \"{out}/bot\"\n\
                  [languages.loud]\nextensions = [\"loud\"]\n\
                  compile = \"sh -c 'yes flood | head -c 50000000; yes flood | head -c 50000000 >&2; exit 1' sh {source} {out}\"\n\
                  run = \"{out}/bot\"\n";
    let rows = tournament_rows(
        dir.path(),
        tables,
        [("slow", "bot.slow"), ("loud", "bot.loud")],
        2,
    );
    for row in &rows {
        let detail = &row["detail"];
        assert!(
            detail.contains("slow: compile at reply 0: does not compile: sh took longer than 2s"),
            "{detail}"
        );
        assert!(
            detail.contains("loud: compile at reply 0: does not compile (sh"),
            "{detail}"
        );
        assert!(
            detail.len() < 2000,
            "the message is capped: {} bytes",
            detail.len()
        );
    }
}

#[test]
fn a_file_adds_a_language_and_overrides_a_built_in_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        sample_file("python/arrow5_starter.py"),
        dir.path().join("starter.snake"),
    )
    .unwrap();
    let tables = "[languages.snake]\nextensions = [\"snake\"]\nrun = \"python3 -u {entry}\"\n\
                  time_multiplier = 1.5\nmemory_allowance = \"20 MiB\"\n\
                  [languages.java]\ntime_multiplier = 3\n";
    let rows = tournament_rows(
        dir.path(),
        tables,
        [
            ("snake", "snake:starter.snake"),
            ("random", &sample_bin("arrow5_random")),
        ],
        2,
    );
    for row in &rows {
        assert_eq!(row["detail"], "", "{row:?}");
    }
    let run = referee(
        &[
            "languages",
            dir.path().join("t.toml").to_str().unwrap(),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let listed: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let snake = listed.iter().find(|l| l["name"] == "snake").expect("snake");
    assert_eq!(snake["memory_allowance_kb"], 20 * 1024);
    assert_eq!(snake["time_multiplier"], 1.5);
    let java = listed.iter().find(|l| l["name"] == "java").expect("java");
    assert_eq!(java["time_multiplier"], 3.0);
    assert_eq!(java["extensions"][0], "java", "the rest is kept: {java}");

    // A table that does not say how to run its bots.
    std::fs::write(
        dir.path().join("bad.toml"),
        "name = \"t\"\ngame = \"arrow5\"\n[languages.kotlin]\nextensions = [\"kt\"]\n\
         [[bots]]\nname = \"a\"\nbot = \"x\"\n[[bots]]\nname = \"b\"\nbot = \"y\"\n",
    )
    .unwrap();
    let run = referee(
        &["tournament", dir.path().join("bad.toml").to_str().unwrap()],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("bad.toml:3: languages.kotlin: run: missing"),
        "{}",
        run.stderr
    );

    // A source named as a language that runs only executables.
    std::fs::copy(
        sample_file("python/arrow5_starter.py"),
        dir.path().join("starter.py"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("native.toml"),
        "name = \"t\"\ngame = \"arrow5\"\n\
         [[bots]]\nname = \"a\"\nbot = \"starter.py\"\nlanguage = \"native\"\n\
         [[bots]]\nname = \"b\"\nbot = \"starter.py\"\n",
    )
    .unwrap();
    let run = referee(
        &[
            "tournament",
            dir.path().join("native.toml").to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "native.toml:6: bots.language of 'a': 'native' runs ready-made executables, not a source file"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn the_compile_cache_is_keyed_by_the_compilers_version() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        sample_file("c/arrow5_starter.c"),
        dir.path().join("starter.c"),
    )
    .unwrap();
    let sample = sample_bin("arrow5_random");
    let builds = |version: &str| -> usize {
        let run_dir = dir.path().join(format!("run-{version}-{}", next_run()));
        std::fs::create_dir_all(&run_dir).unwrap();
        std::fs::copy(dir.path().join("starter.c"), run_dir.join("starter.c")).unwrap();
        let tables = format!("[languages.c]\nversion = \"echo {version}\"\n");
        let file = two_bot_tournament(
            &run_dir,
            "arrow5",
            2,
            [("starter", "starter.c"), ("random", &sample)],
            &tables,
        );
        let mut cmd = std::process::Command::new(referee_bin());
        cmd.args([
            "tournament",
            file.to_str().unwrap(),
            "--out",
            run_dir.join("out").to_str().unwrap(),
        ])
        .env("REFEREE_CACHE", dir.path().join("cache"));
        let run = run_within(cmd, BUDGET);
        assert_eq!(run.status, 0, "{}", run.stderr);
        for row in csv_records(&run_dir.join("out").join("games.csv")) {
            assert_eq!(row["detail"], "", "{row:?}");
        }
        std::fs::read_dir(dir.path().join("cache"))
            .unwrap()
            .filter(|e| {
                !e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with('.')
            })
            .count()
    };
    assert_eq!(builds("one"), 1);
    assert_eq!(builds("one"), 1, "the same compiler: the cached build");
    assert_eq!(builds("two"), 2, "another version: built anew");
}

/// A suffix that tells apart the runs of one test.
fn next_run() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[test]
fn the_time_per_move_is_shown_for_each_game() {
    // A language's time multiplier is Cryptron's rule only: every other
    // game gives every language its own time limit.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        "[languages.snake]\nextensions = [\"snake\"]\nrun = \"python3 {entry}\"\n\
         time_multiplier = 1.5\n",
    )
    .unwrap();
    let run = referee(&["languages", file.to_str().unwrap(), "--json"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let listed: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let limits = |name: &str| {
        listed
            .iter()
            .find(|l| l["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {}", run.stdout))["time_limit_ms"]
            .clone()
    };
    for (name, cryptron) in [
        ("python", 6000),
        ("java", 4000),
        ("c", 2000),
        ("snake", 3000),
    ] {
        let ms = limits(name);
        assert_eq!(ms["cryptron"], cryptron, "{name}: {ms}");
        for game in ["arrow5", "mastermind", "safecracker"] {
            assert_eq!(ms[game], 2000, "{name} in {game}: {ms}");
        }
    }

    // The table a person reads: one row a language, one column a game;
    // no multiplier that would read as every game's.
    let run = referee(&["languages", file.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("LANGUAGE") && !first.contains("TIME"),
        "{}",
        run.stdout
    );
    let header = run
        .stdout
        .lines()
        .find(|l| l.contains("CRYPTRON"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let columns: Vec<&str> = header.split_whitespace().skip(1).collect();
    assert_eq!(
        columns,
        ["ARROW5", "CRYPTRON", "MASTERMIND", "SAFECRACKER"],
        "{header}"
    );
    for (name, times) in [
        ("python", ["2s", "6s", "2s", "2s"]),
        ("snake", ["2s", "3s", "2s", "2s"]),
    ] {
        let row: Vec<&str> = run
            .stdout
            .lines()
            .skip_while(|l| *l != header)
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} row: {}", run.stdout))
            .split_whitespace()
            .skip(1)
            .collect();
        assert_eq!(row, times, "{name}: {}", run.stdout);
    }
}

/// A Python bot runs without the interpreter's `site` step (its start is
/// mostly `site` running `.pth` files' code), and still sees what a
/// script run as `python3 bot.py` sees: the same `sys.path` (its own
/// folder first, links resolved, so a helper module beside it imports;
/// then the standard library and every folder of installed packages),
/// `sys.argv`, `__name__`, `__file__`, `exit()`, `help()`; and a crash prints the
/// traceback of the script's own run, with none of the start's frames.
fn python_starts_as_its_script_would(layer: &str) {
    let dir = scratch_dir("python-start", layer);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir(dir.join("real")).unwrap();
    std::fs::write(dir.join("real/helper.py"), "GUESS = '1 2 3 4'\n").unwrap();
    std::fs::write(
        dir.join("real/bot.py"),
        r#"import sys, json
import helper
said = False
for line in sys.stdin:
    word = line.split()[0]
    if not said:
        print("start: " + json.dumps({"path": sys.path, "argv": sys.argv, "name": __name__,
              "file": __file__, "exit": repr(exit), "help": callable(help)}),
              file=sys.stderr, flush=True)
        said = True
    if word in ("code", "attack"):
        if "crash" in sys.argv:
            def deep():
                raise ValueError("the bot's own error")
            deep()
        print(helper.GUESS, flush=True)
    elif word == "end":
        exit(0)
"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.join("real/bot.py"), dir.join("bot.py")).unwrap();
    // What `python3 bot.py` has on its path, in a bot's environment (a
    // home with no user packages).
    let reference = std::process::Command::new("python3")
        .args(["-c", "import sys, json; print(json.dumps(sys.path[1:]))"])
        .env("HOME", "/nonexistent")
        .current_dir("/")
        .output()
        .unwrap();
    let expected: Vec<String> = serde_json::from_slice(&reference.stdout).unwrap();
    let bot = dir.join("bot.py");
    let transcript = dir.join("game.jsonl");
    let record = against_random(
        &format!("{} crash-not", bot.display()),
        layer,
        Some(&transcript),
    );
    assert_eq!(record["players"][0]["verdict"], "ok", "{record}");
    let said = said_on_stderr(&transcript, "start: ");
    let path: Vec<String> = serde_json::from_value(said["path"].clone()).unwrap();
    let real = dir.join("real").canonicalize().unwrap();
    assert_eq!(path[0], real.to_str().unwrap(), "{said}");
    assert_eq!(path[1..], expected[..], "{said}");
    // The entry as the referee names it (the file behind the link).
    let entry = real.join("bot.py");
    assert_eq!(said["argv"][0], entry.to_str().unwrap(), "{said}");
    assert_eq!(said["argv"][1], "crash-not", "{said}");
    assert_eq!(said["name"], "__main__", "{said}");
    assert_eq!(said["file"], entry.to_str().unwrap(), "{said}");
    assert_eq!(
        said["exit"], "Use exit() or Ctrl-D (i.e. EOF) to exit",
        "{said}"
    );
    assert_eq!(said["help"], true, "{said}");

    let record = against_random(&format!("{} crash", bot.display()), layer, None);
    let player = &record["players"][0];
    assert_eq!(player["verdict"], "crash", "{player}");
    let tail = player["stderr_tail"].to_string();
    assert!(tail.contains("ValueError: the bot's own error"), "{tail}");
    assert!(
        tail.contains(&format!("File \\\"{}\\\", line ", entry.display())),
        "{tail}"
    );
    assert!(!tail.contains("<string>"), "the start's frames: {tail}");

    // A zip application named as a script runs as `python3` runs it.
    let zipped = dir.join("zipped");
    std::fs::create_dir(&zipped).unwrap();
    std::fs::copy(
        sample_file("python/mastermind_starter.py"),
        zipped.join("__main__.py"),
    )
    .unwrap();
    let app = dir.join("app.py");
    let made = std::process::Command::new("python3")
        .args(["-m", "zipapp"])
        .arg(&zipped)
        .arg("-o")
        .arg(&app)
        .status()
        .unwrap();
    assert!(made.success());
    let record = against_random(app.to_str().unwrap(), layer, None);
    assert_eq!(record["players"][0]["verdict"], "ok", "{record}");
}

/// A Mastermind game of the bot `spec` against `mastermind_random` under
/// `layer` (its transcript to `transcript`): the game's record.
fn against_random(spec: &str, layer: &str, transcript: Option<&Path>) -> serde_json::Value {
    let mut extra = vec![];
    if let Some(transcript) = transcript {
        extra.extend(["--transcript", transcript.to_str().unwrap()]);
    }
    let run = play(
        "mastermind",
        spec,
        &sample_bin("mastermind_random"),
        &extra,
        layer,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.json()
}

/// The JSON a bot wrote on stderr after `prefix`, from a transcript.
fn said_on_stderr(transcript: &Path, prefix: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(transcript).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find_map(|e| {
            let line = e["line"].as_str()?.strip_prefix(prefix)?.to_string();
            Some(serde_json::from_str(&line).unwrap())
        })
        .unwrap_or_else(|| panic!("no line {prefix:?} on the bot's stderr: {text}"))
}

/// What a Python bot loads at its start (the folders on its `sys.path`:
/// the standard library, the installed packages, the start's own code on
/// its command line) no bot can write into: it is the same for every bot.
fn python_bots_cannot_write_what_python_bots_load(layer: &str) {
    let dir = scratch_dir("python-writes", layer);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        dir.join("writer.py"),
        r#"import sys, os, json
tried, written = [], []
for folder in sys.path[1:]:
    if not os.path.isdir(folder):
        continue
    tried.append(folder)
    try:
        with open(os.path.join(folder, "planted_by_a_bot.py"), "w") as f:
            f.write("x = 1")
        written.append(folder)
    except OSError:
        pass
print("writes: " + json.dumps({"tried": tried, "written": written}), file=sys.stderr, flush=True)
for line in sys.stdin:
    if line.split()[0] in ("code", "attack"):
        print("1 2 3 4", flush=True)
"#,
    )
    .unwrap();
    let transcript = dir.join("game.jsonl");
    let bot = dir.join("writer.py");
    against_random(bot.to_str().unwrap(), layer, Some(&transcript));
    let said = said_on_stderr(&transcript, "writes: ");
    assert!(
        said["tried"].as_array().is_some_and(|t| t.len() >= 2),
        "{said}"
    );
    assert_eq!(said["written"], serde_json::json!([]), "{said}");
    for folder in said["tried"].as_array().unwrap() {
        let planted = Path::new(folder.as_str().unwrap()).join("planted_by_a_bot.py");
        assert!(!planted.exists(), "{}", planted.display());
    }
}

under_each_layer! {
    python_starts_as_its_script_would: python_starts_as_its_script_would_basic, python_starts_as_its_script_would_strict;
    python_bots_cannot_write_what_python_bots_load: python_bots_cannot_write_what_python_bots_load_basic, python_bots_cannot_write_what_python_bots_load_strict;
}
