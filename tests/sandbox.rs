//! The sandbox layers against hostile bots (`sample_bots/hostile/`): each
//! threat ends with its documented verdict under each layer that claims to
//! stop it, nothing the bot started outlives the game, and a tournament
//! running beside hostile bots gets the same results as one run alone.
//!
//! The tables are the contract of docs/security.md ("What each layer stops").

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::harness::*;

/// The contract of the hostile fixtures: one table, in `tests/verdicts.rs`.
use crate::verdicts::THREATS;

/// A private copy of the Python fixtures: the tests check that no process
/// whose command line names a fixture survives, and other tests run the
/// same fixtures at the same time (from `sample_bots/hostile/` or their
/// own copy). One copy per test.
struct Fixtures(tempfile::TempDir);

impl Fixtures {
    fn new() -> Fixtures {
        let dir = tempfile::Builder::new()
            .prefix("sandbox-fixtures-")
            .tempdir()
            .unwrap();
        for entry in std::fs::read_dir(sample_file("hostile")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "py") {
                std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
            }
        }
        Fixtures(dir)
    }

    fn path(&self, fixture: &str) -> String {
        self.0.path().join(fixture).to_string_lossy().into_owned()
    }
}

/// The bot command of a fixture. The probe runs on the system's python3
/// directly when there is one: wrappers such as pyenv's shims add
/// descriptors and variables of their own.
fn fixture_command(fixtures: &Fixtures, fixture: &str) -> String {
    let path = fixtures.path(fixture);
    if fixture == "probe.py" && Path::new("/usr/bin/python3").exists() {
        format!("/usr/bin/python3 {path}")
    } else {
        path
    }
}

/// Plays a fixture with forking allowed: these tests are about containing a
/// bot that may start processes (a tournament can allow it); that forking is
/// refused by default has its own test.
fn play(fixtures: &Fixtures, fixture: &str, sandbox: &str) -> Run {
    let good = sample_bin("arrow5_random");
    referee(
        &[
            "match",
            "arrow5",
            &good,
            &fixture_command(fixtures, fixture),
            "--time-limit",
            "1s",
            "--startup-limit",
            "2s",
            "--max-rounds",
            "5",
            "--seed",
            "3",
            "--json",
            "--sandbox",
            sandbox,
            "--allow-fork",
        ],
        Duration::from_secs(30),
    )
}

/// By default a bot cannot start processes (threads are fine): the fork
/// fails inside the bot, so a fork bomb goes nowhere.
#[test]
fn forking_is_refused_unless_allowed() {
    let fixtures = Fixtures::new();
    let good = sample_bin("arrow5_random");
    let forker = fixture_command(&fixtures, "forker.py");
    let run = referee(
        &[
            "match",
            "arrow5",
            &good,
            &forker,
            "--time-limit",
            "1s",
            "--json",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    let bot = &record["players"][1];
    assert_eq!(bot["verdict"], "crash", "{record}");
    let tail = bot["stderr_tail"].to_string();
    assert!(tail.contains("Operation not permitted"), "{tail}");
    // A bot that only uses threads is not affected (the Rust sample bots'
    // runtime and Python's interpreter start threads of their own).
    assert_eq!(record["players"][0]["verdict"], "ok");
}

/// Fails the test, saying why, if `strict` cannot be had here: the tests
/// that need it are ignored by default and run by `.ci/run` (as root), so
/// they never pass without having run.
fn assert_strict_available() {
    let run = play(&Fixtures::new(), "probe.py", "strict");
    assert!(
        !(run.status == 2 && run.stderr.contains("strict sandbox")),
        "the strict sandbox is not available here (run these tests as root, with cgroups): {}",
        run.stderr
    );
}

fn check_threats(sandbox: &str) {
    let fixtures = Fixtures::new();
    let mut failures = Vec::new();
    for &(fixture, basic, strict, detail) in THREATS {
        let expected = if sandbox == "strict" { strict } else { basic };
        let run = play(&fixtures, fixture, sandbox);
        assert_eq!(run.status, 0, "{fixture} under {sandbox}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("sandbox: {sandbox}")),
            "the layer in force is announced: {}",
            run.stderr
        );
        let record = run.json();
        let player = &record["players"][1];
        let verdict = player["verdict"].as_str().unwrap();
        if !expected.split('|').any(|v| v == verdict) {
            failures.push(format!(
                "{fixture}: {verdict}, expected {expected}: {player}"
            ));
            continue;
        }
        assert_eq!(record["players"][0]["verdict"], "ok", "{fixture}");
        if verdict != "ok" && !detail.is_empty() && expected == verdict {
            let d = player["disqualification"]["detail"].as_str().unwrap();
            assert!(d.contains(detail), "{fixture} under {sandbox}: {d}");
        }
        let left = processes_with(&fixtures.path(fixture));
        assert!(
            left.is_empty(),
            "{fixture} under {sandbox} left processes behind: {left:?}"
        );
    }
    // What writes_outside.py tried to leave in /dev/shm: nothing (under
    // strict its /dev/shm was private, under basic Landlock refused it).
    let copy = fixtures.0.path().file_name().unwrap().to_string_lossy();
    let shm = Path::new("/dev/shm").join(format!("referee-hostile-{copy}"));
    let left = shm.exists();
    let _ = std::fs::remove_file(&shm);
    assert!(!left, "{} was left behind", shm.display());
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_threat_gets_its_verdict_under_basic() {
    check_threats("basic");
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn every_threat_gets_its_verdict_under_strict() {
    assert_strict_available();
    check_threats("strict");
}

#[test]
fn a_bot_inherits_no_descriptor_and_a_clean_environment() {
    // Even when the referee itself inherited a descriptor without
    // close-on-exec (as from a careless shell), the bot does not.
    let file = tempfile::tempfile().unwrap();
    rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty()).unwrap();
    let fixtures = Fixtures::new();
    for sandbox in ["basic", "auto"] {
        let run = play(&fixtures, "probe.py", sandbox);
        assert_eq!(run.status, 0, "{}", run.stderr);
        let record = run.json();
        assert_eq!(record["players"][1]["verdict"], "ok", "{sandbox}: {record}");
    }
    drop(file);
}

#[test]
fn an_unknown_sandbox_is_refused() {
    let good = sample_bin("arrow5_random");
    let run = referee(
        &["match", "arrow5", &good, &good, "--sandbox", "tight"],
        Duration::from_secs(30),
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("basic, strict or auto"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_tournament_file_names_its_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.toml");
    let bot = sample_bin("arrow5_random");
    std::fs::write(
        &path,
        format!(
            "game = \"arrow5\"\nsandbox = \"tight\"\n[[bots]]\nname = \"a\"\nbot = \"{bot}\"\n\
             [[bots]]\nname = \"b\"\nbot = \"{bot}\"\n"
        ),
    )
    .unwrap();
    let run = referee(
        &["tournament", path.to_str().unwrap()],
        Duration::from_secs(30),
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains(":2: sandbox"), "{}", run.stderr);
}

/// The columns of games.csv that do not depend on timing.
fn results(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut rows: Vec<String> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let mut kept: Vec<&str> = f[..13].to_vec();
            kept.push(f[f.len() - 1]);
            kept.join(",")
        })
        .collect();
    rows.sort_by_key(|r| r.split(',').next().unwrap().parse::<u64>().unwrap());
    rows
}

/// 54 games of deterministic sample bots give the same results whether or
/// not a fork bomb, a memory hog and a flood play in another tournament at
/// the same time, under the strongest layer available.
#[test]
fn a_tournament_beside_hostile_bots_gets_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Fixtures::new();
    let good_file = dir.path().join("good.toml");
    std::fs::write(
        &good_file,
        format!(
            "name = \"good\"\ngame = \"arrow5\"\ngames_per_pairing = 18\nseed = 7\nsandbox = \"auto\"\n\
             [options]\ncodes = \"random\"\nmax_rounds = 30\n\
             [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"constant\"\nbot = \"{}\"\n",
            sample_bin("arrow5_strong"),
            sample_bin("arrow5_random"),
            sample_bin("arrow5_constant"),
        ),
    )
    .unwrap();
    let hostile_file = dir.path().join("hostile.toml");
    std::fs::write(
        &hostile_file,
        format!(
            "name = \"hostile\"\ngame = \"arrow5\"\nformat = \"gauntlet\"\n\
             challengers = [\"bomb\", \"hog\", \"flood\"]\ngames_per_pairing = 6\nsandbox = \"auto\"\n\
             [limits]\ntime_limit = \"1s\"\n\
             [[bots]]\nname = \"bomb\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"hog\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"flood\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            fixtures.path("fork_bomb.py"),
            fixtures.path("memory_hog.py"),
            fixtures.path("flood.py"),
            sample_bin("arrow5_random"),
        ),
    )
    .unwrap();
    // Both runs draw their codes with the same secret key.
    let key_file = dir.path().join("shared.key");
    std::fs::write(&key_file, "6b".repeat(32)).unwrap();
    let good_args = |out: &Path| -> Vec<String> {
        vec![
            "tournament".into(),
            good_file.to_string_lossy().into_owned(),
            "--out".into(),
            out.to_string_lossy().into_owned(),
            "--jobs".into(),
            "2".into(),
            "--key-file".into(),
            key_file.to_string_lossy().into_owned(),
        ]
    };

    let alone = dir.path().join("alone");
    let args = good_args(&alone);
    let run = referee(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        Duration::from_secs(240),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);

    // The hostile tournament starts first and runs on beside the good one.
    let hostile_out = dir.path().join("hostile-out");
    let mut hostile = Command::new(referee_bin())
        .args([
            "tournament",
            hostile_file.to_str().unwrap(),
            "--out",
            hostile_out.to_str().unwrap(),
            "--jobs",
            "2",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let beside = dir.path().join("beside");
    let args = good_args(&beside);
    let run = referee(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        Duration::from_secs(240),
    );
    // Stop the hostile tournament (Ctrl-C winds it down), then wait for it.
    signal(hostile.id(), rustix::process::Signal::INT);
    let hostile_status = hostile.wait().unwrap();
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        hostile_status.code().is_some(),
        "the hostile tournament wound down: {hostile_status:?}"
    );

    let (a, b) = (results(&alone), results(&beside));
    assert_eq!(a.len(), 54);
    assert_eq!(a, b, "the same results beside hostile bots");
    for fixture in ["fork_bomb.py", "memory_hog.py", "flood.py"] {
        let left = processes_with(&fixtures.path(fixture));
        assert!(left.is_empty(), "{fixture} left processes: {left:?}");
    }
}

/// What a bot reported of itself on stderr (`identity.py`), per seat, read
/// from the game's transcript.
fn identities(sandbox: &str) -> [serde_json::Value; 2] {
    identities_with(&["--sandbox", sandbox])
}

/// [`identities`] of a game played with the options `more`.
pub(crate) fn identities_with(more: &[&str]) -> [serde_json::Value; 2] {
    let fixtures = Fixtures::new();
    let transcript = fixtures.0.path().join("game.jsonl");
    let bot = fixtures.path("identity.py");
    let mut args = vec![
        "match",
        "arrow5",
        &bot,
        &bot,
        "--max-rounds",
        "2",
        "--transcript",
        transcript.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    let run = referee(&args, Duration::from_secs(30));
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&transcript).unwrap();
    let mut seen: [Option<serde_json::Value>; 2] = [None, None];
    for line in text.lines() {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(said) = entry["line"]
            .as_str()
            .and_then(|l| l.strip_prefix("identity: "))
        else {
            continue;
        };
        let seat = usize::from(entry["bot"] == "b");
        seen[seat] = Some(serde_json::from_str(said).unwrap());
    }
    seen.map(|s| s.expect("each seat said who it is"))
}

/// Under strict each bot runs as a user of its own (the referee is root),
/// is the first process of its own PID namespace and sees no other,
/// sees nothing of the referee's home but what it needs, and finds in /tmp
/// only its own working directory and its script's folder.
#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn strict_gives_each_seat_its_own_user_and_processes() {
    assert_strict_available();
    let [a, b] = identities("strict");
    for seat in [&a, &b] {
        assert_eq!(seat["pid"], 1, "{seat}");
        assert_eq!(seat["processes"], 1, "sees only its own processes: {seat}");
        // Its working directory and its script's folder.
        assert!(seat["tmp"].as_u64().unwrap() <= 2, "a private /tmp: {seat}");
        // No cgroup of the machine's: not its opponent's statistics (its
        // CPU time as it thinks), nor the referee's.
        assert!(
            seat["cgroups"].as_u64().is_none_or(|n| n == 0),
            "/sys/fs/cgroup is covered: {seat}"
        );
        assert!(seat["uid"].as_u64().unwrap() >= 1_000_000_000, "{seat}");
        // Only what it needs of the referee's home is shown (e.g. an
        // interpreter installed there), never the rest.
        let home = std::fs::read_dir("/root").map_or(0, |d| d.count()) as u64;
        assert!(
            seat["root"].as_u64().is_none_or(|n| n < home.max(2)),
            "/root is hidden: {seat}"
        );
    }
    assert_ne!(a["uid"], b["uid"], "one user per seat");
    assert_ne!(a["gid"], b["gid"], "one group per seat");
}

/// Under basic the bots share the machine's view, but a referee running as
/// root still gives each a group of its own.
#[test]
fn basic_shares_the_machines_view_of_processes() {
    let [a, b] = identities("basic");
    // (The cgroup folder is the machine's: the cover is strict's.)
    assert!(a["cgroups"].as_u64().is_some_and(|n| n > 0), "{a}");
    assert_ne!(a["pid"], 1, "{a}");
    assert_ne!(b["pid"], 1, "{b}");
}

#[test]
#[ignore = "needs root: run by .ci/run"]
fn basic_gives_each_seat_its_own_group_when_root() {
    assert_root();
    let [a, b] = identities("basic");
    assert_ne!(a["gid"], b["gid"], "one group per seat");
    assert_ne!(a["gid"], 0);
}

/// Fails the test unless the referee's user is root: the tests that need
/// it are ignored by default and run by `.ci/run`.
fn assert_root() {
    // SAFETY: geteuid has no preconditions.
    let root = rustix::process::geteuid().is_root();
    assert!(root, "this test needs root (run by .ci/run)");
}

/// Transcripts of finished games hold both codes: their folder and files
/// are the referee's user's alone (a bot under strict runs as another user).
#[test]
fn transcripts_are_readable_by_the_referee_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let bot = sample_bin("arrow5_random");
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 2\n[[bots]]\nname = \"a\"\nbot = \"{bot}\"\n\
             [[bots]]\nname = \"b\"\nbot = \"{bot}\"\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let transcripts = out.join("transcripts");
    assert_eq!(mode(&transcripts), 0o700);
    let files: Vec<_> = std::fs::read_dir(&transcripts).unwrap().flatten().collect();
    assert_eq!(files.len(), 2);
    for f in files {
        assert_eq!(mode(&f.path()), 0o600, "{}", f.path().display());
    }
}

/// A bot that knows where the tournament file and the results folder are
/// (here, from its arguments) reads neither: not the seed, not the
/// transcripts of the games already played.
fn referee_files_are_hidden(sandbox: &str) {
    let fixtures = Fixtures::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let out = dir.path().join("out");
    let snoop = format!(
        "{} {} {}",
        fixtures.path("snoop.py"),
        file.display(),
        out.display()
    );
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 4\nseed = 5\nsandbox = \"{sandbox}\"\n\
             [options]\ncodes = \"random\"\n\
             [[bots]]\nname = \"snoop\"\nbot = \"{snoop}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            sample_bin("arrow5_random")
        ),
    )
    .unwrap();
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 5, "{games}");
    assert!(!games.contains("crash"), "{sandbox}: {games}");
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn referee_files_are_hidden_under_strict() {
    assert_strict_available();
    referee_files_are_hidden("strict");
}

#[test]
fn referee_files_are_hidden_under_basic() {
    referee_files_are_hidden("basic");
}

/// The system's python3, which `nobody` may run (the machine's other
/// pythons may sit in a home it may not enter).
const SYSTEM_PYTHON: &str = "/usr/bin/python3";

/// A command run as `nobody` (`setpriv`, then the program to add), for
/// the tests of a referee run by an ordinary user, in the fixtures'
/// folder, opened for `nobody` to read. Needs root, `setpriv` and
/// [`SYSTEM_PYTHON`].
fn as_nobody(fixtures: &Fixtures) -> Command {
    use std::os::unix::fs::PermissionsExt;
    assert_root();
    let setpriv = Path::new("/usr/bin/setpriv");
    assert!(
        Path::new(SYSTEM_PYTHON).exists() && setpriv.exists(),
        "this test needs /usr/bin/setpriv and {SYSTEM_PYTHON}"
    );
    std::fs::set_permissions(fixtures.0.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = Command::new(setpriv);
    command
        .args([
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            "--",
        ])
        .current_dir(fixtures.0.path());
    command
}

/// When the referee runs as an ordinary user, both bots share its user and
/// group: only Landlock (each bot its own domain) keeps one from opening
/// the other's memory, where its secret code is. Both seats run the probe,
/// which opens every other process's `/proc/<pid>/mem` it can see. Needs
/// root (to become `nobody`), `setpriv` and a system python3.
#[test]
#[ignore = "needs root, /usr/bin/setpriv and /usr/bin/python3: run by .ci/run"]
fn an_ordinary_users_bots_cannot_read_each_others_memory() {
    let fixtures = Fixtures::new();
    let mut command = as_nobody(&fixtures);
    let python = Path::new(SYSTEM_PYTHON);
    let probe = format!("{} {}", python.display(), fixtures.path("probe.py"));
    command
        .arg(referee_bin())
        .args([
            "match",
            "arrow5",
            &probe,
            &probe,
            "--max-rounds",
            "2",
            "--json",
        ])
        .args(["--sandbox", "basic"]);
    let run = run_within(command, Duration::from_secs(30));
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    for seat in 0..2 {
        assert_eq!(record["players"][seat]["verdict"], "ok", "{record}");
    }
}

/// A bot of an ordinary user's referee that makes itself not dumpable
/// (`prctl(PR_SET_DUMPABLE, 0)`) hides its `/proc/PID/fd` from the referee
/// (same user, no `CAP_SYS_PTRACE`), and with it the sockets whose buffers
/// count as its memory: it stuffed 17 MiB of them under an 8 + 16 MiB cap
/// and played `ok` at 10.7 MiB. Descriptors it hides are charged as the
/// most it could hold: `memory`, as without the prctl. Needs root (to
/// become `nobody`), `setpriv` and a system python3.
#[test]
#[ignore = "needs root, /usr/bin/setpriv and /usr/bin/python3: run by .ci/run"]
fn an_ordinary_users_bot_that_hides_its_descriptors_is_charged_for_them() {
    let fixtures = Fixtures::new();
    let python = Path::new(SYSTEM_PYTHON);
    let bot = |args: &str| {
        format!(
            "{} {} {args}",
            python.display(),
            fixtures.path("socket_stuffer.py")
        )
    };
    let weak = bot("").replace("socket_stuffer.py", "arrow5_weak.py");
    for how in ["", "undumpable"] {
        let mut command = as_nobody(&fixtures);
        command
            .arg(referee_bin())
            .args([
                "match",
                "arrow5",
                &bot(how),
                &weak,
                "--memory-limit",
                "8MiB",
            ])
            .args(["--max-rounds", "5", "--json", "--sandbox", "basic"]);
        let run = run_within(command, Duration::from_secs(60));
        assert_eq!(run.status, 0, "{how}: {}", run.stderr);
        let record = run.json();
        assert_eq!(record["players"][0]["verdict"], "memory", "{how}: {record}");
        assert_eq!(record["players"][1]["verdict"], "ok", "{how}: {record}");
    }
}

/// An ordinary user's referee measures a bot's working folder by walking
/// it (it may not mount a file system of the quota's size): files in a
/// folder the bot closed to its own user's reading (mode 0300), or nested
/// past `PATH_MAX`, went unseen (160 MiB under a 64 MiB quota, `ok`). A
/// folder the walk cannot list is over the quota: `output`; and a closed
/// folder is opened again to be removed (it and its files were left in
/// `/dev/shm`). Needs root (to become `nobody`), `setpriv` and a system
/// python3.
#[test]
#[ignore = "needs root, /usr/bin/setpriv and /usr/bin/python3: run by .ci/run"]
fn an_ordinary_users_bot_cannot_hide_files_from_its_disk_quota() {
    let fixtures = Fixtures::new();
    let python = Path::new(SYSTEM_PYTHON);
    let bot = |fixture: &str, args: &str| {
        format!("{} {} {args}", python.display(), fixtures.path(fixture))
    };
    // The referee's folders of working directories go here, to be seen
    // gone after the game.
    let tmp = fixtures.0.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    for how in ["closed", "deep"] {
        let mut command = as_nobody(&fixtures);
        command
            .arg("env")
            .arg(format!("TMPDIR={}", tmp.display()))
            .arg(referee_bin())
            .args(["match", "arrow5", &bot("hidden_files.py", how)])
            .arg(bot("arrow5_weak.py", ""))
            .args(["--disk-limit", "16MiB", "--max-rounds", "3", "--json"])
            .args(["--sandbox", "basic"]);
        let run = run_within(command, Duration::from_secs(60));
        assert_eq!(run.status, 0, "{how}: {}", run.stderr);
        let record = run.json();
        assert_eq!(record["players"][0]["verdict"], "output", "{how}: {record}");
        assert_eq!(record["players"][1]["verdict"], "ok", "{how}: {record}");
        // Nothing of the bot is left (a closed folder and its files were).
        let left: Vec<_> = std::fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(left.is_empty(), "{how}: left behind: {left:?}");
    }
}

/// A team's bot (`thief.py`) that tries to open, list, walk and run every
/// other team's files, told where they are (`targets.txt` beside it, one
/// path a line).
fn thief_with_targets(folder: &Path, targets: &[&Path]) {
    std::fs::create_dir_all(folder).unwrap();
    std::fs::copy(sample_file("hostile/thief.py"), folder.join("thief.py")).unwrap();
    let lines: Vec<String> = targets.iter().map(|t| t.display().to_string()).collect();
    std::fs::write(folder.join("targets.txt"), lines.join("\n") + "\n").unwrap();
}

/// The games of a results folder: their count, and the rows where a bot
/// got another verdict than `ok` (the thief read or ran something: `crash`).
fn games_not_ok(out: &Path) -> (usize, Vec<String>) {
    let rows = csv_records(&out.join("games.csv"));
    let bad = rows
        .iter()
        .filter(|r| r["verdict_a"] != "ok" || r["verdict_b"] != "ok")
        .map(|r| format!("{r:?}"))
        .collect();
    (rows.len(), bad)
}

/// A folder of one-file bots with the tournament file beside them, run
/// from there again and again: the earlier runs' results folders (under
/// `tournaments/results` by default, beside the `--out` of this run, or
/// archived deeper in the bots' folder) hold their keys and transcripts. The thief, told where they are, reads
/// none of them.
fn earlier_results_folders_are_hidden(sandbox: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"class\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nsandbox = \"{sandbox}\"\n\
             [[bots]]\nname = \"thief\"\nbot = \"thief.py\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            sample_bin("arrow5_random")
        ),
    )
    .unwrap();
    thief_with_targets(dir.path(), &[]);
    let run = |out: Option<&str>| {
        let mut command = Command::new(referee_bin());
        command
            .args(["tournament", "t.toml", "--no-report"])
            .args(out.map(|out| ["--out", out]).into_iter().flatten())
            .current_dir(dir.path());
        let run = run_within(command, Duration::from_secs(120));
        assert_eq!(run.status, 0, "{}", run.stderr);
    };
    run(Some("first"));
    run(None);
    let default_root = dir.path().join("tournaments/results");
    let by_default = std::fs::read_dir(&default_root)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut targets = vec![];
    // A results folder whose key is kept elsewhere is one all the same;
    // so is one in a folder of earlier runs, and a check's report (its
    // transcripts) in an archive three levels down the bots' folder.
    for folder in ["keyless", "runs/old"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join("games.csv"), "game\n").unwrap();
        std::fs::write(dir.path().join(folder).join("standings.csv"), "bot\n").unwrap();
        targets.push(dir.path().join(folder).join("games.csv"));
    }
    let archived = dir.path().join("archive/2026/run1/transcripts");
    std::fs::create_dir_all(&archived).unwrap();
    std::fs::write(archived.join("game-000001.jsonl"), "{}\n").unwrap();
    targets.push(archived.join("game-000001.jsonl"));
    for folder in [dir.path().join("first"), by_default] {
        for name in ["referee.key", "games.csv", "transcripts"] {
            let target = folder.join(name);
            assert!(target.exists(), "{}", target.display());
            targets.push(target);
        }
    }
    let lines: Vec<String> = targets.iter().map(|t| t.display().to_string()).collect();
    std::fs::write(dir.path().join("targets.txt"), lines.join("\n") + "\n").unwrap();
    // Through a folder that is not there yet: beside `third` all the same.
    run(Some("not-yet/../third"));
    let (played, bad) = games_not_ok(&dir.path().join("third"));
    assert_eq!(played, 2);
    assert!(bad.is_empty(), "{sandbox}: {bad:#?}");
}

#[test]
fn earlier_results_folders_are_hidden_under_basic() {
    earlier_results_folders_are_hidden("basic");
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn earlier_results_folders_are_hidden_under_strict() {
    assert_strict_available();
    earlier_results_folders_are_hidden("strict");
}

/// The layouts an organiser may choose, all in a folder others cannot
/// enter (a `tempfile` folder, mode 0700, as `mktemp -d` makes): one-file
/// bots side by side in a `bots_dir` (`alice.py`, the thief), a folder bot
/// there (`bob/`), a bot beside the tournament file (`carol.py`). The
/// thief, allowed to fork, reads, lists and runs none of the others'.
fn one_file_bots_read_nothing_of_each_other(sandbox: &str) {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    let starter = sample_file("python/arrow5_starter.py");
    std::fs::create_dir_all(bots.join("bob")).unwrap();
    // Alice reads a data file of hers beside her, named after her: hidden
    // from the others with her file, given back to her.
    let reads_her_data = "import os\n\
        open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'alice_weights.txt')).read()\n";
    std::fs::write(
        bots.join("alice.py"),
        reads_her_data.to_string() + &std::fs::read_to_string(&starter).unwrap(),
    )
    .unwrap();
    std::fs::write(bots.join("alice_weights.txt"), "0.5\n").unwrap();
    std::fs::copy(&starter, bots.join("bob/main.py")).unwrap();
    std::fs::write(bots.join("bob/secret.txt"), "bob's\n").unwrap();
    std::fs::copy(&starter, dir.path().join("carol.py")).unwrap();
    let runnable = bots.join("bob/run.sh");
    std::fs::write(&runnable, "#!/bin/sh\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&runnable, std::fs::Permissions::from_mode(0o755)).unwrap();
    // What is made from alice's file beside it: an editor's backup, and
    // the bytecode a hand run of hers left.
    std::fs::copy(&starter, bots.join("alice.py~")).unwrap();
    std::fs::create_dir_all(bots.join("__pycache__")).unwrap();
    std::fs::copy(&starter, bots.join("__pycache__/alice.cpython-311.pyc")).unwrap();
    // A copy under another name that holds hers (not a source itself: the
    // folder's sources are bots of the run).
    std::fs::copy(&starter, bots.join("Copy of alice.py.txt")).unwrap();
    // A second name of alice's file beside it (a backup made with
    // `cp -al`): a file's Landlock rule is its inode's, so granting that
    // name granted hers.
    std::fs::hard_link(bots.join("alice.py"), bots.join("zz_backup.txt")).unwrap();
    thief_with_targets(
        &bots,
        &[
            &bots.join("alice.py"),
            &bots.join("alice.py~"),
            &bots.join("alice_weights.txt"),
            &bots.join("__pycache__/alice.cpython-311.pyc"),
            &bots.join("Copy of alice.py.txt"),
            &bots.join("bob"),
            &dir.path().join("carol.py"),
        ],
    );
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 2\nsandbox = \"{sandbox}\"\nbots_dir = \"bots\"\n\
             [limits]\nallow_fork = true\n[[bots]]\nname = \"carol\"\nbot = \"carol.py\"\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-report",
        ],
        Duration::from_secs(300),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (played, bad) = games_not_ok(&out);
    assert_eq!(played, 12, "every pairing of 4 bots, twice");
    assert!(bad.is_empty(), "{sandbox}: {bad:#?}");
}

/// Both seats run one command (`sibling.py`), whose Landlock rules the
/// referee plans once for all its bots (basic): each bot still writes in
/// its own working folder, and neither lists, reads nor writes the other's,
/// though told its path (the test finds both folders while the game runs).
#[test]
fn two_bots_of_one_command_reach_only_their_own_working_folders() {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    let workdirs = dir.path().join("tmp");
    std::fs::create_dir_all(&bots).unwrap();
    std::fs::create_dir_all(&workdirs).unwrap();
    std::fs::copy(sample_file("hostile/sibling.py"), bots.join("sibling.py")).unwrap();
    let bot = format!("python3 {}", bots.join("sibling.py").display());
    let command = Referee::new()
        .env("TMPDIR", &workdirs)
        .args([
            "match",
            "arrow5",
            &bot,
            &bot,
            "--sandbox",
            "basic",
            "--json",
        ])
        .args(["--max-rounds", "3"])
        .command();
    // Both working folders, once they exist, told to the bots (written
    // whole, then renamed into place).
    let teller = {
        let (workdirs, bots) = (workdirs.clone(), bots.clone());
        std::thread::spawn(move || {
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            loop {
                let found: Vec<String> = std::fs::read_dir(&workdirs)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter(|f| f.file_name().to_string_lossy().starts_with("referee-bots-"))
                    .flat_map(|f| std::fs::read_dir(f.path()).into_iter().flatten().flatten())
                    .filter(|w| w.path().join("mine").exists())
                    .map(|w| w.path().display().to_string())
                    .collect();
                if found.len() >= 2 {
                    let told = bots.join("targets.tmp");
                    std::fs::write(&told, found.join("\n") + "\n").unwrap();
                    std::fs::rename(&told, bots.join("targets.txt")).unwrap();
                    return found;
                }
                if std::time::Instant::now() >= deadline {
                    return found;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let run = run_within(command, Duration::from_secs(120));
    let found = teller.join().unwrap();
    assert_eq!(found.len(), 2, "both working folders found: {found:?}");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let record = run.json();
    for seat in 0..2 {
        assert_eq!(record["players"][seat]["verdict"], "ok", "{record}");
    }
}

#[test]
fn one_file_bots_read_nothing_of_each_other_under_basic() {
    one_file_bots_read_nothing_of_each_other("basic");
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn one_file_bots_read_nothing_of_each_other_under_strict() {
    assert_strict_available();
    one_file_bots_read_nothing_of_each_other("strict");
}

/// `collect` from a folder others cannot enter (mode 0700) gives every
/// admitted team a folder of its own, a one-file team's too; the thief,
/// smoked after the others were admitted, reads none of their files
/// (submitted or admitted), and neither does it in the tournament of the
/// bots folder.
fn collected_teams_read_nothing_of_each_other(sandbox: &str) {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("submissions");
    let out = dir.path().join("bots");
    let starter = sample_file("python/arrow5_starter.py");
    std::fs::create_dir_all(from.join("bob")).unwrap();
    std::fs::copy(&starter, from.join("alice.py")).unwrap();
    std::fs::copy(&starter, from.join("bob/main.py")).unwrap();
    thief_with_targets(
        &from.join("zed"),
        &[
            &from.join("alice.py"),
            &from.join("bob"),
            &out.join("alice"),
            &out.join("bob"),
        ],
    );
    let reference = sample_bin("arrow5_random");
    let run = referee(
        &[
            "collect",
            "--game",
            "arrow5",
            "--from",
            from.to_str().unwrap(),
            "--reference",
            &reference,
            "--out",
            out.to_str().unwrap(),
            "--sandbox",
            sandbox,
        ],
        Duration::from_secs(300),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let admission = csv_records(&out.join("admission.csv"));
    let status: Vec<(String, String)> = admission
        .iter()
        .map(|r| (r["team"].clone(), r["status"].clone()))
        .collect();
    assert!(
        status.iter().all(|(_, s)| s == "admitted") && status.len() == 3,
        "{sandbox}: {admission:#?}"
    );
    assert!(
        out.join("alice").join("alice.py").is_file(),
        "a folder of its own"
    );
    assert!(out.join("zed").join("thief.py").is_file());
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 2\nsandbox = \"{sandbox}\"\nbots_dir = \"bots\"\n\
             [limits]\nallow_fork = true\n"
        ),
    )
    .unwrap();
    let results = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            results.to_str().unwrap(),
            "--no-report",
        ],
        Duration::from_secs(300),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (played, bad) = games_not_ok(&results);
    assert_eq!(
        played, 6,
        "alice, bob and zed, the thief, of the bots folder"
    );
    assert!(bad.is_empty(), "{sandbox}: {bad:#?}");
}

#[test]
fn collected_teams_read_nothing_of_each_other_under_basic() {
    collected_teams_read_nothing_of_each_other("basic");
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn collected_teams_read_nothing_of_each_other_under_strict() {
    assert_strict_available();
    collected_teams_read_nothing_of_each_other("strict");
}

/// The key given as `--key HEX` sits in the command line of the referee's
/// parents (`timeout`, `bash -c`), which the referee cannot blank. The
/// thief reads every process's command line and environment it can reach
/// (it finds the key there when unconfined) and crashes if it finds a
/// 64-hex-digit word: it must find none.
fn the_key_is_nowhere_a_bot_can_read(sandbox: &str) {
    let dir = tempfile::tempdir().unwrap();
    let team = dir.path().join("team");
    std::fs::create_dir_all(&team).unwrap();
    std::fs::copy(sample_file("hostile/thief.py"), team.join("thief.py")).unwrap();
    let key = "5e".repeat(32);
    let args = [
        "match".to_string(),
        "arrow5".to_string(),
        team.join("thief.py").display().to_string(),
        sample_bin("arrow5_random"),
        "--key".to_string(),
        key.clone(),
        "--json".to_string(),
        "--sandbox".to_string(),
        sandbox.to_string(),
    ];
    let mut under_timeout = Command::new("timeout");
    under_timeout.arg("120").arg(referee_bin()).args(&args);
    let mut under_shell = Command::new("bash");
    let line: Vec<String> = std::iter::once(referee_bin().display().to_string())
        .chain(args.iter().cloned())
        .collect();
    under_shell.arg("-c").arg(line.join(" ") + "; exit $?");
    for (wrapper, command) in [("timeout", under_timeout), ("bash -c", under_shell)] {
        let run = run_within(command, Duration::from_secs(150));
        assert_eq!(run.status, 0, "{wrapper}: {}", run.stderr);
        let record = run.json();
        let thief = &record["players"][0];
        assert_eq!(
            thief["verdict"], "ok",
            "{sandbox}, under {wrapper}: {thief}"
        );
        assert!(!run.stdout.contains(&key) || !thief.to_string().contains(&key));
    }
}

#[test]
fn the_key_is_nowhere_a_bot_can_read_under_basic() {
    the_key_is_nowhere_a_bot_can_read("basic");
}

#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn the_key_is_nowhere_a_bot_can_read_under_strict() {
    assert_strict_available();
    the_key_is_nowhere_a_bot_can_read("strict");
}

/// Under strict each bot runs as a user of its own, so folders closed to
/// others above its files (a home of mode 0700, a `mktemp -d` folder, here
/// two nested in the build folder, outside `/tmp`) must not make it crash:
/// its folders are shown at their own paths whatever the modes above. A
/// one-file bot, a folder bot and the tournament file in the inner closed
/// folder play every game with `ok`.
#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn strict_runs_bots_from_folders_closed_to_others() {
    use std::os::unix::fs::PermissionsExt;
    assert_strict_available();
    let scratch = root().join("target").join("closed-folders");
    std::fs::create_dir_all(&scratch).unwrap();
    let outer = tempfile::tempdir_in(&scratch).unwrap();
    let inner = outer.path().join("inner");
    std::fs::create_dir_all(inner.join("bob")).unwrap();
    for closed in [outer.path(), inner.as_path()] {
        std::fs::set_permissions(closed, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let starter = sample_file("python/arrow5_starter.py");
    std::fs::copy(&starter, inner.join("alice.py")).unwrap();
    std::fs::copy(&starter, inner.join("bob/main.py")).unwrap();
    let file = inner.join("t.toml");
    std::fs::write(
        &file,
        "game = \"arrow5\"\ngames_per_pairing = 2\nsandbox = \"strict\"\n\
         [[bots]]\nname = \"alice\"\nbot = \"alice.py\"\n\
         [[bots]]\nname = \"bob\"\nbot = \"bob\"\n",
    )
    .unwrap();
    let out = outer.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-report",
        ],
        Duration::from_secs(300),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (played, bad) = games_not_ok(&out);
    assert_eq!(played, 2);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Under strict a script others cannot read is the organiser's to fix,
/// not the bot's fault nor the referee's: `match` and `tournament` refuse
/// it as bad input (exit 2) naming the file and the chmod to make, no
/// game is recorded against the bot, and a `--resume` after the chmod
/// plays the tournament whole.
#[test]
#[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
fn strict_refuses_a_script_others_cannot_read_as_bad_input() {
    use std::os::unix::fs::PermissionsExt;
    assert_strict_available();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("alice.py");
    std::fs::copy(sample_file("python/arrow5_starter.py"), &script).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o600)).unwrap();
    let opponent = sample_bin("arrow5_random");
    let said = format!("chmod o+r {}", script.display());

    let run = referee(
        &[
            "match",
            "arrow5",
            script.to_str().unwrap(),
            &opponent,
            "--sandbox",
            "strict",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains(&said), "{}", run.stderr);

    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"arrow5\"\ngames_per_pairing = 2\nsandbox = \"strict\"\n\
             [[bots]]\nname = \"alice\"\nbot = \"alice.py\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{opponent}\"\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let args = [
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-report",
    ];
    let run = referee(&args, Duration::from_secs(300));
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains(&said), "{}", run.stderr);
    let (played, _) = games_not_ok(&out);
    assert_eq!(played, 0, "no game is recorded while the file is closed");

    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let run = referee(&resume, Duration::from_secs(300));
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (played, bad) = games_not_ok(&out);
    assert_eq!(played, 2);
    assert!(bad.is_empty(), "{bad:#?}");
}
