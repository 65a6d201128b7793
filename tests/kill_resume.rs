//! A referee SIGKILLed at any moment (start-up, mid-game, while writing
//! standings, during `--resume`), then resumed until done: no game lost,
//! repeated or changed, and the folder always readable. Compared game by
//! game with an uninterrupted run of the same tournament and key.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(180);

/// A round robin of fast deterministic sample bots. Codes are the bots'
/// own, and both runs share one key file, so that the games do not depend
/// on the key a folder would otherwise draw.
fn setup(dir: &Path) -> (PathBuf, PathBuf) {
    let text = format!(
        "name = \"kill\"\ngame = \"arrow5\"\ngames_per_pairing = 10\nseed = 5\n\
         [options]\ncodes = \"bots\"\nmax_rounds = 30\n\
         [limits]\ntime_limit = \"10s\"\n\
         [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
         [[bots]]\nname = \"random2\"\nbot = \"{}\"\n",
        sample_bin("arrow5_strong"),
        sample_bin("arrow5_random"),
        sample_bin("arrow5_random"),
    );
    let file = dir.join("kill.toml");
    std::fs::write(&file, text).unwrap();
    let key = dir.join("shared.key");
    std::fs::write(&key, format!("{}\n", "5a".repeat(32))).unwrap();
    (file, key)
}

fn command(file: &Path, key: &Path, out: &Path, resume: bool) -> Command {
    let mut command = Command::new(referee_bin());
    command.args([
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--key-file",
        key.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    if resume {
        command.arg("--resume");
    }
    command
}

#[test]
fn sigkill_at_many_moments_then_resume_loses_repeats_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    let whole = dir.path().join("whole");
    let run = run_within(command(&file, &key, &whole, false), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = game_results_by_number(&whole.join("games.csv"));
    assert_eq!(expected.len(), 30);

    // Kill points from the first instant of start-up to late in the run;
    // every attempt after the first is a --resume, so kills land during
    // resumes too (reading games.csv, rewriting the folder's files).
    let delays_ms = [
        0u64, 1, 3, 5, 8, 12, 20, 30, 45, 60, 80, 110, 150, 200, 260, 330, 420, 520, 650, 800,
    ];
    let killed = dir.path().join("killed");
    let start = Instant::now();
    let mut finished = false;
    let mut kills = 0;
    for (attempt, delay) in delays_ms.iter().chain(&[u64::MAX]).enumerate() {
        assert!(start.elapsed() < BUDGET, "resuming took too long");
        let mut child = command(&file, &key, &killed, attempt > 0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if *delay == u64::MAX {
            // The last attempt runs to the end.
            let output = child.wait_with_output().unwrap();
            assert_eq!(
                output.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
            finished = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(*delay));
        child.kill().unwrap(); // SIGKILL
        let output = child.wait_with_output().unwrap();
        match output.status.code() {
            // Killed: the folder must still be readable by the next resume.
            None => {
                kills += 1;
                let rows = std::fs::read_to_string(killed.join("games.csv"))
                    .map_or(0, |t| t.lines().count().saturating_sub(1));
                eprintln!("kill {kills} after {delay} ms: {rows} games in the folder");
            }
            // Finished before the kill: nothing left to play.
            Some(0) => {
                finished = true;
                break;
            }
            Some(code) => panic!(
                "attempt {attempt} (kill after {delay} ms) exited {code}: {}",
                String::from_utf8_lossy(&output.stderr)
            ),
        }
        // The part written so far never holds a game twice or a changed game.
        if killed.join("games.csv").exists() {
            for (number, row) in game_results_by_number(&killed.join("games.csv")) {
                assert_eq!(
                    Some(&row),
                    expected.get(&number),
                    "game {number} after kill {kills}"
                );
            }
        }
    }
    assert!(finished);
    assert!(kills >= 5, "only {kills} kills landed before the end");

    let got = game_results_by_number(&killed.join("games.csv"));
    assert_eq!(
        got.keys().copied().collect::<Vec<_>>(),
        (1..=30).collect::<Vec<_>>(),
        "no game lost or repeated"
    );
    assert_eq!(got, expected, "no game changed");
    for name in ["standings.csv", "crosstable.csv", "tournament.toml"] {
        assert_eq!(
            std::fs::read(whole.join(name)).unwrap(),
            std::fs::read(killed.join(name)).unwrap(),
            "{name}"
        );
    }
    let leftovers: Vec<String> = std::fs::read_dir(&killed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn a_games_csv_and_store_cut_mid_row_are_repaired_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    let out = dir.path().join("out");
    let run = run_within(command(&file, &key, &out, false), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = game_results_by_number(&out.join("games.csv"));
    let games_path = out.join("games.csv");
    let text = std::fs::read(&games_path).unwrap();
    // Cut the file in the middle of its fourth row, as a kill mid-write
    // would, and also open a quoted field there.
    let rows_end: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    let mut cut = text[..rows_end[3] + 7].to_vec();
    cut.extend_from_slice(b",\"half a det");
    std::fs::write(&games_path, &cut).unwrap();
    // The store (games by identity, which decides what is played) cut
    // the same way: three whole lines and half of a fourth.
    let store_path = out.join("store/games.jsonl");
    let kept = std::fs::read_to_string(&store_path).unwrap();
    let mut lines = kept.split_inclusive('\n');
    let mut cut: String = lines.by_ref().take(3).collect();
    cut.push_str(&lines.next().unwrap()[..40]);
    std::fs::write(&store_path, &cut).unwrap();
    // An empty tournament.toml (an older referee killed while writing it)
    // would make the folder someone else's; the atomic write never leaves
    // one, and the resume below finds the folder as it was.
    let run = run_within(command(&file, &key, &out, true), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    // Three games kept. "random" and "random2" are one program under two
    // names; each is now its own bot with its own games, so three is what
    // is kept (the range is from when a kept game of one also counted as
    // the same game of the other).
    let already: u64 = run
        .stderr
        .split("resuming: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!((3..=6).contains(&already), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{already} games already played, {} to play",
            30 - already
        )),
        "{}",
        run.stderr
    );
    assert_eq!(game_results_by_number(&games_path), expected);
}

/// A store line damaged (not JSON) is named by its file and number, with
/// what to do: deleting that line and running with --resume plays its
/// game again and gives the games of an undamaged folder.
#[test]
fn a_damaged_store_line_is_named_and_deleting_it_then_resume_recovers_all() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    let out = dir.path().join("out");
    let run = run_within(command(&file, &key, &out, false), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = game_results_by_number(&out.join("games.csv"));
    let store = out.join("store/games.jsonl");
    let text = std::fs::read_to_string(&store).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[4] = "{garbage";
    std::fs::write(&store, lines.join("\n") + "\n").unwrap();
    let refused = run_within(command(&file, &key, &out, true), BUDGET);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    for said in [
        &format!("{}, line 5: ", store.display()),
        "delete that line",
        "--resume",
    ] {
        assert!(refused.stderr.contains(said), "{said}: {}", refused.stderr);
    }
    assert!(
        !refused.stderr.contains("Move it aside"),
        "{}",
        refused.stderr
    );
    // As told: the line deleted, --resume plays its game again.
    lines.remove(4);
    std::fs::write(&store, lines.join("\n") + "\n").unwrap();
    let run = run_within(command(&file, &key, &out, true), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(game_results_by_number(&out.join("games.csv")), expected);
}

/// Bytes the process `pid` has read so far (`rchar` of /proc/PID/io).
fn bytes_read(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/io"))
        .ok()
        .and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix("rchar: "))
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// SIGTERM stops a referee while it reads a results folder on `--resume`
/// (here a `games.csv` of 512 GiB, sparse: minutes to read through): exit
/// 130 within seconds, the file named, the file left as it was.
#[test]
fn sigterm_stops_a_resume_while_it_reads_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let games = std::fs::File::create(out.join("games.csv")).unwrap();
    let size = 512u64 << 30;
    games.set_len(size).unwrap();
    drop(games);
    let mut child = command(&file, &key, &out, true)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Reading: tens of MiB already read, with a deadline for a busy machine.
    let deadline = Instant::now() + Duration::from_secs(60);
    while bytes_read(pid) < 64 << 20 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the referee ended before it read the folder"
        );
        assert!(
            Instant::now() < deadline,
            "the referee never read games.csv"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    use wait_timeout::ChildExt;
    let Some(status) = child.wait_timeout(Duration::from_secs(20)).unwrap() else {
        child.kill().ok();
        child.wait().ok();
        panic!("the referee went on reading after SIGTERM");
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("games.csv") && stderr.contains("SIGTERM"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::metadata(out.join("games.csv")).unwrap().len(),
        size
    );
}

/// A second Ctrl-C or SIGTERM ends the referee at once, without winding
/// down the games: exit 130, no standings, and the launchers end the bots
/// and remove their working directories. The referee is stopped while both
/// signals are sent, so that both arrive before any of its code runs: the
/// first alone would wind the games down and print the standings.
#[test]
fn a_second_interrupt_ends_the_referee_at_once_and_leaves_no_bot_or_folder() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let tag = format!("second-interrupt-{}", std::process::id());
    let sleeper = format!("python3 {} {tag}", sample_file("hostile/sleeper.py"));
    let file = two_bot_tournament(
        dir.path(),
        "arrow5",
        4,
        [("a", &sleeper), ("b", &sleeper)],
        "[limits]\ntime_limit = \"60s\"\n",
    );
    let out = dir.path().join("out");
    let mut child = Command::new(referee_bin())
        .args(["tournament", file.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--jobs", "2"])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let bots = wait_for_processes(&tag, 2, BUDGET);
    assert!(bots.len() >= 2, "the bots never started: {bots:?}");
    assert!(
        std::fs::read_dir(&tmp).unwrap().next().is_some(),
        "no working folder in TMPDIR"
    );
    for signal in ["-STOP", "-INT", "-TERM", "-CONT"] {
        let status = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(status.success(), "kill {signal}");
    }
    use wait_timeout::ChildExt;
    let Some(status) = child.wait_timeout(Duration::from_secs(10)).unwrap() else {
        child.kill().ok();
        child.wait().ok();
        gone_within(&tag, Duration::ZERO);
        panic!("the referee went on after a second interrupt");
    };
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(
        !stdout.contains("played now"),
        "the games were wound down:\n{stdout}"
    );
    let left = gone_within(&tag, Duration::from_secs(10));
    assert!(left.is_empty(), "bots left running: {left:?}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut entries: Vec<_>;
    loop {
        entries = std::fs::read_dir(&tmp)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        if entries.is_empty() || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(entries.is_empty(), "working folders left: {entries:?}");
}

/// A tournament of two sleeping bots (tagged `tag`) in `dir`, and its
/// referee started with the working folders in `dir/tmp`.
fn sleeping_tournament(dir: &Path, tag: &str, out: &Path) -> (PathBuf, std::process::Child) {
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let sleeper = format!("python3 {} {tag}", sample_file("hostile/sleeper.py"));
    let file = two_bot_tournament(
        dir,
        "arrow5",
        4,
        [("a", &sleeper), ("b", &sleeper)],
        "[limits]\ntime_limit = \"60s\"\n",
    );
    let child = Command::new(referee_bin())
        .args(["tournament", file.to_str().unwrap(), "--out"])
        .arg(out)
        .args(["--jobs", "2", "--no-report"])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (file, child)
}

/// Two runs in one results folder (a `--resume` in a second terminal, a
/// requeued cluster job) would play the same games twice: the second is
/// refused while the first writes there, and may go on once it is done.
#[test]
fn a_second_run_in_a_folder_being_written_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tag = format!("busy-folder-{}", std::process::id());
    let out = dir.path().join("out");
    let (file, mut first) = sleeping_tournament(dir.path(), &tag, &out);
    let bots = wait_for_processes(&tag, 2, BUDGET);
    assert!(bots.len() >= 2, "the bots never started: {bots:?}");
    for extra in [&["--resume"][..], &["--update"][..]] {
        Referee::new()
            .args(["tournament", file.to_str().unwrap(), "--out"])
            .arg(&out)
            .args(extra)
            .budget(BUDGET)
            .run()
            .exits(2)
            .stderr_has("is being written by another referee now");
    }
    signal(first.id(), rustix::process::Signal::TERM);
    let status = first.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(gone_within(&tag, Duration::from_secs(10)).is_empty());
    // The folder is free again (its lock went with the first run).
    let second = Referee::new()
        .args(["tournament", file.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--resume", "--dry-run"])
        .budget(BUDGET)
        .run();
    assert!(
        !second.stderr.contains("another referee"),
        "{}",
        second.stderr
    );
}

/// A game stopped by Ctrl-C or SIGTERM ends its bots and removes their
/// working folders before the referee exits with 130, as a tournament
/// does: nothing is left for the next referee to sweep.
#[test]
fn a_match_stopped_by_a_signal_leaves_no_bot_or_folder() {
    for (stop, name) in [
        (rustix::process::Signal::INT, "int"),
        (rustix::process::Signal::TERM, "term"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        let tag = format!("stopped-match-{}-{name}", std::process::id());
        let sleeper = format!("python3 {} {tag}", sample_file("hostile/sleeper.py"));
        let mut child = Referee::new()
            .args(["match", "arrow5", &sleeper, &sample_bin("arrow5_random")])
            .args(["--time-limit", "60s"])
            .env("TMPDIR", &tmp)
            .command()
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The bot itself, not the referee, whose command line holds the
        // tag too (until it hides it).
        let bot_started = || {
            processes_with(&tag).iter().any(|line| {
                // "PID STAT ARGS": the bot is python3 (by its full path).
                line.split_whitespace()
                    .nth(2)
                    .is_some_and(|program| program.ends_with("python3"))
            })
        };
        let deadline = Instant::now() + BUDGET;
        while !bot_started() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(bot_started(), "{stop:?}: the bot never started");
        signal(child.id(), stop);
        use wait_timeout::ChildExt;
        let Some(status) = child.wait_timeout(Duration::from_secs(20)).unwrap() else {
            child.kill().ok();
            child.wait().ok();
            gone_within(&tag, Duration::ZERO);
            panic!("{stop:?}: the referee went on after the signal");
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(130), "{stop:?}: {stderr}");
        assert!(stderr.contains("stopped by a signal"), "{stop:?}: {stderr}");
        assert!(
            gone_within(&tag, Duration::from_secs(10)).is_empty(),
            "{stop:?}: bots left"
        );
        let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
        assert!(left.is_empty(), "{stop:?}: left in TMPDIR: {left:?}");
    }
}

/// A tmpfs mounted for one test, unmounted when dropped (passed or not).
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// The space a folder's files take on disk (their blocks), recursively.
fn blocks_used(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(path).unwrap();
    let own = meta.blocks() * 512;
    if !meta.is_dir() {
        return own;
    }
    own + std::fs::read_dir(path)
        .unwrap()
        .map(|e| blocks_used(&e.unwrap().path()))
        .sum::<u64>()
}

fn no_report(mut command: Command) -> Command {
    command.arg("--no-report");
    command
}

/// A disk that fills mid-tournament: the referee says the system's reason,
/// how many games were not played and that --resume plays them, exit 1
/// (not 130, an interruption's); once space is freed, --resume gives the
/// games of an uninterrupted run.
#[test]
#[ignore = "needs root (to mount a small tmpfs that fills): run by .ci/run"]
fn a_full_disk_stops_the_tournament_with_exit_1_and_resume_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    let whole = dir.path().join("whole");
    let run = run_within(no_report(command(&file, &key, &whole, false)), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = game_results_by_number(&whole.join("games.csv"));
    // A disk with room for about half of the games the whole run keeps
    // (its store: every game's line and transcript).
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let size_kb = blocks_used(&whole.join("store")) / 2 / 1024;
    let status = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size_kb}k"), "tmpfs"])
        .arg(&disk)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "cannot mount a tmpfs on {}",
        disk.display()
    );
    let mounted = Mounted(disk.clone());
    let out = disk.join("out");
    let run = run_within(no_report(command(&file, &key, &out, false)), BUDGET);
    assert_eq!(run.status, 1, "{}", run.stderr);
    let kept = game_results_by_number(&out.join("games.csv")).len();
    assert!(kept > 0 && kept < 30, "{kept} games kept: {}", run.stderr);
    let not_played = run
        .stderr
        .split(" of its 30 games were not played")
        .next()
        .and_then(|t| t.rsplit(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no count of games not played: {}", run.stderr));
    assert!(not_played > 0 && not_played <= 30 - kept, "{}", run.stderr);
    for said in ["No space left on device", "--resume", "free space"] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    assert!(
        !run.stderr.contains("stopped by a signal"),
        "{}",
        run.stderr
    );
    // Space freed: the resume plays the rest, and nothing was lost.
    let status = Command::new("mount")
        .args(["-o", "remount,size=64m"])
        .arg(&disk)
        .status()
        .unwrap();
    assert!(status.success());
    let run = run_within(no_report(command(&file, &key, &out, true)), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(game_results_by_number(&out.join("games.csv")), expected);
    for name in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            std::fs::read(whole.join(name)).unwrap(),
            std::fs::read(out.join(name)).unwrap(),
            "{name}"
        );
    }
    drop(mounted);
}

/// A report written again is swapped in whole: at no moment is there no
/// `report/` (a kill at that moment would leave none, and a browser or
/// `serve` reading it meanwhile finds nothing). A thread looks for
/// `report/index.html` as fast as it can while the report is rewritten.
#[test]
fn a_report_written_again_is_never_missing_for_a_moment() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    let out = dir.path().join("out");
    let run = run_within(command(&file, &key, &out, false), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let index = out.join("report").join("index.html");
    assert!(index.is_file());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (stop, index) = (stop.clone(), index.clone());
        std::thread::spawn(move || {
            let (mut looks, mut missing) = (0u64, 0u64);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                looks += 1;
                if std::fs::metadata(&index).is_err() {
                    missing += 1;
                }
            }
            (looks, missing)
        })
    };
    let start = Instant::now();
    for _ in 0..20 {
        Referee::new()
            .arg("report")
            .arg(&out)
            .budget(BUDGET)
            .run()
            .succeeds();
        if start.elapsed() > BUDGET / 2 {
            break;
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (looks, missing) = watcher.join().unwrap();
    assert!(looks > 0);
    assert_eq!(
        missing, 0,
        "report/index.html was missing at {missing} of {looks} looks while the report was rewritten"
    );
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".report"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A check stopped (SIGTERM, as a CI job's cancel or timeout sends) or
/// killed while it plays leaves no verdict behind: neither the JUnit file
/// nor the HTML report of the run before it in the same paths, which a
/// CI job's artifacts would then show as this run's (the PASS of another
/// bot, beside this run's transcripts).
#[test]
fn a_check_stopped_or_killed_leaves_no_verdict_of_the_run_before() {
    let dir = tempfile::tempdir().unwrap();
    let tag = format!("stale-check-{}", std::process::id());
    let sleeper = format!("python3 {} {tag}", sample_file("hostile/sleeper.py"));
    // The bot under test named in the file, not on the referee's command
    // line, which would then carry the tag the test looks for.
    let file = |name: &str, bot: &str| {
        let file = dir.path().join(name);
        std::fs::write(
            &file,
            format!(
                "name = \"c\"\ngame = \"arrow5\"\nseed = 1\n[limits]\ntime_limit = \"60s\"\n\
                 [bot]\nname = \"tested\"\nbot = \"{bot}\"\n\
                 [[opponents]]\nname = \"random\"\nbot = \"{}\"\n\
                 [[require]]\nkind = \"no-verdicts\"\nagainst = \"random\"\ngames = 2\n",
                sample_bin("arrow5_random"),
            ),
        )
        .unwrap();
        file
    };
    let passing = file("passing.toml", &sample_bin("arrow5_strong"));
    let sleeping = file("sleeping.toml", &sleeper);
    let junit = dir.path().join("junit.xml");
    let report = dir.path().join("report");
    let check = |file: &Path| {
        Referee::new()
            .arg("check")
            .arg(file)
            .arg("--junit")
            .arg(&junit)
            .arg("--report")
            .arg(&report)
            .args(["--jobs", "1"])
            .budget(BUDGET)
    };
    for (stop, name) in [
        (rustix::process::Signal::TERM, "SIGTERM"),
        (rustix::process::Signal::KILL, "SIGKILL"),
    ] {
        check(&passing).run().succeeds();
        assert!(junit.is_file() && report.join("index.html").is_file());
        let mut child = check(&sleeping)
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let bots = wait_for_processes(&tag, 1, BUDGET);
        assert!(!bots.is_empty(), "the bot under test never started");
        // Another check given the same --report meanwhile is refused: it
        // would clear the transcripts of the one running.
        let second = check(&passing).run();
        assert_eq!(second.status, 2, "{}", second.stderr);
        assert!(second.stderr.contains("another check"), "{}", second.stderr);
        signal(child.id(), stop);
        child.wait().unwrap();
        assert!(gone_within(&tag, Duration::from_secs(10)).is_empty());
        assert!(
            !junit.exists(),
            "{name}: the JUnit file of the run before is left: {}",
            std::fs::read_to_string(&junit).unwrap_or_default()
        );
        for page in ["index.html", "check.json"] {
            assert!(
                !report.join(page).exists(),
                "{name}: the report's {page} of the run before is left"
            );
        }
    }
}

/// Ctrl-C while a tournament is being planned (its bots' interpreters
/// probed, before any game): the handler was installed only after the
/// planning, so the signal killed the referee by the default action, with
/// no word said. Now the run ends as an interrupted one (130), and a
/// results folder is there only if the run said where its results go and
/// how to finish them. The signal is sent as soon as the referee has
/// hidden its command line (the first thing it does after reading it);
/// whenever it lands from then on (planning, or a game on a slow
/// machine, whose sleeping bots never end it), the outcome holds.
#[test]
fn ctrl_c_while_a_tournament_is_planned_ends_it_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let tag = format!("planned-{}", std::process::id());
    let sleeper = format!("python3 {} {tag}", sample_file("hostile/sleeper.py"));
    let file = two_bot_tournament(
        dir.path(),
        "arrow5",
        4,
        [("a", &sleeper), ("b", &sleeper)],
        "[limits]\ntime_limit = \"60s\"\n",
    );
    let out = dir.path().join("out");
    let mut child = Command::new(referee_bin())
        .args(["tournament", file.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--jobs", "2", "--no-report"])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let cmdline = format!("/proc/{}/cmdline", child.id());
    // The program's name kept, its arguments gone. A read may come back
    // empty for a moment (the referee forking its sweeper), and reads
    // empty once it has ended: neither says the arguments were hidden.
    let hidden = || {
        std::fs::read(&cmdline).is_ok_and(|line| {
            !line.is_empty()
                && !line
                    .windows(b"tournament".len())
                    .any(|w| w == b"tournament")
        })
    };
    let deadline = Instant::now() + BUDGET;
    while !hidden() && Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(hidden(), "the referee never hid its command line");
    signal(child.id(), rustix::process::Signal::INT);
    use wait_timeout::ChildExt;
    let Some(status) = child.wait_timeout(Duration::from_secs(60)).unwrap() else {
        child.kill().ok();
        child.wait().ok();
        gone_within(&tag, Duration::ZERO);
        panic!("the referee went on after Ctrl-C");
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}: {stderr}");
    if stderr.contains("results in") {
        assert!(stderr.contains("finish with:"), "{stderr}");
    } else {
        // Said by the run, or by the step the signal cut short (the
        // tournament file's read, an interpreter's probe).
        assert!(
            stderr.contains("nothing was written") || stderr.contains("stopped by Ctrl-C"),
            "{stderr}"
        );
        assert!(
            !out.exists(),
            "a folder made by a run that never started: {stderr}"
        );
    }
    assert!(
        gone_within(&tag, Duration::from_secs(10)).is_empty(),
        "bots left"
    );
}

/// A game whose transcript cannot be written (here its path is taken by a
/// folder; on a contest's machine, a full disk) still counts, and the run
/// says the transcript is missing; so does every later `--resume` of the
/// folder, which cannot write it again: "N of N games" alone would tell
/// an auditor that nothing was lost.
#[test]
fn a_transcript_that_could_not_be_written_is_said_after_every_resume() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key) = setup(dir.path());
    let file = dir.path().join("final.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"final\"\ngame = \"arrow5\"\nformat = \"knockout\"\n\
             games_per_pairing = 2\ntiebreak_pairs = 0\nseed = 5\n\
             [options]\nmax_rounds = 30\n\
             [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n",
            sample_bin("arrow5_strong"),
            sample_bin("arrow5_random"),
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("transcripts/game-000001.jsonl")).unwrap();
    for resume in [false, true] {
        let run = run_within(no_report(command(&file, &key, &out, resume)), BUDGET);
        assert_eq!(run.status, 0, "{}", run.stderr);
        assert!(
            run.stdout.contains("2 of 2 games in ")
                && run.stdout.contains("; 1 transcripts could not be written"),
            "resume {resume}: {}",
            run.stdout
        );
    }
    assert_eq!(game_results_by_number(&out.join("games.csv")).len(), 2);
    assert!(out.join("transcripts/game-000002.jsonl").is_file());
}

/// A disk that fills while a game's row is appended to `games.csv` (here
/// a file size limit, which cuts the write short as a full disk does,
/// without root): the row cut short is no game, so the standings of the
/// games kept are written, and the message does not send the organiser to
/// mend `games.csv` by hand ("changed by hand? ... put the line back");
/// `--resume` then plays the rest as an uninterrupted run did.
#[test]
fn a_row_cut_short_by_a_full_disk_is_not_blamed_on_the_organiser() {
    let dir = tempfile::tempdir().unwrap();
    let (file, key) = setup(dir.path());
    // Played in rounds, so that games.csv is the only record of the games.
    // Short games: small transcripts, and 200 rows of games.csv (30 KiB).
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace(
            "games_per_pairing = 10",
            "format = \"swiss\"\nrounds = 2\ngames_per_pairing = 100",
        )
        .replace("max_rounds = 30", "max_rounds = 3");
    std::fs::write(&file, text).unwrap();
    let whole = dir.path().join("whole");
    let run = run_within(no_report(command(&file, &key, &whole, false)), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = game_results_by_number(&whole.join("games.csv"));
    let out = dir.path().join("out");
    // Files of at most 16 blocks (of 512 bytes in POSIX sh, of 1 KiB in
    // bash): room for a part of games.csv, every other file is smaller. A
    // soft limit, so that the sandbox may still set the bots' own, and
    // SIGXFSZ ignored, so that the write fails (EFBIG) instead.
    let limited = command(&file, &key, &out, false);
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -S -f 16; exec \"$@\"")
        .arg("sh");
    shell.arg(limited.get_program()).args(limited.get_args());
    let run = run_within(no_report(shell), BUDGET);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot write a game row") && run.stderr.contains("--resume"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("standings.csv covers them") && !run.stderr.contains("by hand"),
        "{}",
        run.stderr
    );
    // The standings of the games kept (games.csv itself may end on a row
    // cut short again, as the referee ends: --resume cuts it, as after a
    // kill).
    let played: usize = csv_records(&out.join("standings.csv"))
        .iter()
        .map(|row| row["played"].parse::<usize>().unwrap())
        .sum();
    assert!(played > 0 && played / 2 < expected.len(), "{played}");
    let run = run_within(no_report(command(&file, &key, &out, true)), BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(game_results_by_number(&out.join("games.csv")), expected);
    assert_eq!(
        std::fs::read(whole.join("standings.csv")).unwrap(),
        std::fs::read(out.join("standings.csv")).unwrap()
    );
}
