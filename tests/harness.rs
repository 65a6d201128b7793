//! Helpers for integration tests: find the binaries, run the referee with a
//! time budget (a hang fails the test instead of stalling CI; [`Referee`]
//! builds such a run), parse output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Once;
use std::time::Duration;

use wait_timeout::ChildExt;

/// The workspace root (tests run with the `referee` package as cwd).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn referee_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_referee"))
}

/// A Rust sample bot, built on first use into the referee's own target
/// directory and profile (whatever `--target-dir`, `--release`, `--profile`
/// or `--target` the tests were built with, under `cargo test` or
/// `cargo nextest run`), so that it sits next to the referee binary.
pub fn sample_bin(name: &str) -> String {
    static BUILD: Once = Once::new();
    let (dir, args) = sample_build();
    BUILD.call_once(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "sample_bots"])
            .args(&args)
            .current_dir(root())
            .status()
            .expect("run cargo to build the sample bots");
        assert!(
            status.success(),
            "building sample_bots failed: cargo build {args:?}"
        );
    });
    dir.join(name).to_string_lossy().into_owned()
}

/// An example of the referee package (a test's helper program, such as
/// the `predictor`), built on first use like [`sample_bin`] so that it is
/// never stale, into `<target>/<profile>/examples/`.
pub fn example_bin(name: &str) -> String {
    static BUILD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let (dir, args) = sample_build();
    let mut built = BUILD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !built.iter().any(|b| b == name) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "referee", "--example", name])
            .args(&args)
            .current_dir(root())
            .status()
            .expect("run cargo to build an example");
        assert!(status.success(), "building the example {name} failed");
        built.push(name.to_string());
    }
    dir.join("examples")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Where the referee binary was built (`<target>/[<triple>/]<profile>/`),
/// and the `cargo build` arguments that put the sample bots there.
fn sample_build() -> (PathBuf, Vec<String>) {
    let bin = referee_bin();
    let dir = bin.parent().expect("the referee binary is in a folder");
    let profile = dir
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a profile folder");
    let above = dir
        .parent()
        .expect("the profile folder is in the target folder");
    // Cargo marks the root of a target directory with CACHEDIR.TAG; with
    // `--target TRIPLE` the profile folder is one level further down.
    let (target_dir, triple) = if above.join("CACHEDIR.TAG").exists() {
        (above, None)
    } else {
        let root = above.parent().expect("a target folder");
        (root, above.file_name().and_then(|n| n.to_str()))
    };
    let mut args = vec!["--target-dir".to_string(), target_dir.display().to_string()];
    match profile {
        "debug" => {}
        "release" => args.push("--release".into()),
        other => args.extend(["--profile".into(), other.into()]),
    }
    if let Some(triple) = triple {
        args.extend(["--target".into(), triple.into()]);
    }
    (dir.to_path_buf(), args)
}

/// A file under `sample_bots/`, as an absolute path string.
/// The command of a scripted bot (sample_bots/python/scripted.py) that
/// plays code 0 1 2 3 4, attacks with 5 6 7 8 9 `k` - 1 times, then with
/// 0 1 2 3 4: against its own copy it cracks with its `k`-th attack.
pub fn cracks_at(k: usize) -> String {
    let mut replies = vec!["01234".to_string()];
    replies.extend(std::iter::repeat_n("56789".to_string(), k - 1));
    replies.push("01234".into());
    format!(
        "python3 {} {}",
        sample_file("python/scripted.py"),
        replies.join(" ")
    )
}

pub fn sample_file(relative: &str) -> String {
    root()
        .join("sample_bots")
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
    /// The case, in failure messages ([`Referee::case`]).
    case: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.stdout.trim()).unwrap_or_else(|e| {
            panic!(
                "stdout is not one JSON object ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// Asserts that the referee exited with `code` (what it said is shown
    /// if not); the run, for more.
    #[track_caller]
    pub fn exits(self, code: i32) -> Run {
        assert_eq!(
            self.status, code,
            "{}exit status\nstdout:\n{}\nstderr:\n{}",
            self.case, self.stdout, self.stderr
        );
        self
    }

    /// Asserts exit 0.
    #[track_caller]
    pub fn succeeds(self) -> Run {
        self.exits(0)
    }

    /// Asserts bad input: exit 2, `text` in stderr, and neither a panic
    /// nor an internal failure.
    #[track_caller]
    pub fn refused_with(self, text: &str) -> Run {
        let run = self.exits(2).stderr_has(text);
        assert!(
            !run.stderr.contains("panicked") && !run.stderr.contains("internal failure"),
            "{}{}",
            run.case,
            run.stderr
        );
        run
    }

    #[track_caller]
    pub fn stderr_has(self, text: &str) -> Run {
        assert!(
            self.stderr.contains(text),
            "{}stderr lacks {text:?}:\n{}",
            self.case,
            self.stderr
        );
        self
    }

    #[track_caller]
    pub fn stdout_has(self, text: &str) -> Run {
        assert!(
            self.stdout.contains(text),
            "{}stdout lacks {text:?}:\n{}",
            self.case,
            self.stdout
        );
        self
    }
}

/// Runs the referee with `args` in `cwd`, killing it and failing the test if
/// it takes longer than `budget`.
pub fn referee_in(cwd: &Path, args: &[&str], budget: Duration) -> Run {
    Referee::new()
        .current_dir(cwd)
        .args(args)
        .budget(budget)
        .run()
}

/// Runs `command` (the referee, maybe behind a wrapper such as `setpriv`),
/// killing it and failing the test if it takes longer than `budget`.
pub fn run_within(command: Command, budget: Duration) -> Run {
    run_with_input(command, None, budget, String::new())
}

/// [`run_within`], its stdin reading `input` (else empty).
fn run_with_input(
    mut command: Command,
    input: Option<Vec<u8>>,
    budget: Duration,
    case: String,
) -> Run {
    let shown = format!("{command:?}");
    let mut child = command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the referee");
    // Written on a thread too: a referee that does not read it all must
    // not block the test.
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &input);
        });
    }
    // Read the pipes on threads so a chatty referee cannot block on them.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).ok();
        s
    });
    let status = match child.wait_timeout(budget).expect("wait for the referee") {
        Some(status) => status,
        None => {
            child.kill().ok();
            child.wait().ok();
            panic!("{shown} did not finish within {budget:?}");
        }
    };
    Run {
        status: status.code().unwrap_or(-1),
        stdout: out_thread.join().unwrap(),
        stderr: err_thread.join().unwrap(),
        case,
    }
}

pub fn referee(args: &[&str], budget: Duration) -> Run {
    referee_in(&root(), args, budget)
}

/// A run of the referee built up step by step, as just's `Test`:
/// `Referee::new().args(["match", "arrow5"]).bot(a).bot(b).run()`. It
/// starts in the workspace root with stdin empty, and fails the test if
/// the referee is still running after its budget (a hang fails, not stalls
/// CI; the budget is a bound for a busy machine, not a measure of speed).
#[must_use]
pub struct Referee {
    args: Vec<std::ffi::OsString>,
    cwd: PathBuf,
    stdin: Option<Vec<u8>>,
    shell_first: Option<String>,
    budget: Duration,
    case: String,
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
}

impl Default for Referee {
    fn default() -> Self {
        Referee::new()
    }
}

impl Referee {
    /// The referee with no arguments yet, in the workspace root, with a
    /// budget of two minutes.
    pub fn new() -> Referee {
        Referee {
            args: Vec::new(),
            cwd: root(),
            stdin: None,
            shell_first: None,
            budget: Duration::from_secs(120),
            case: String::new(),
            env: Vec::new(),
        }
    }

    pub fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> Referee {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<S: AsRef<std::ffi::OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Referee {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// A bot spec (a positional argument: `match GAME BOT BOT`).
    pub fn bot(self, spec: impl AsRef<std::ffi::OsStr>) -> Referee {
        self.arg(spec)
    }

    /// Runs it in `dir` (relative paths in the arguments are from there).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Referee {
        self.cwd = dir.as_ref().to_path_buf();
        self
    }

    /// An environment variable of its own (on top of the test's).
    pub fn env(
        mut self,
        key: impl AsRef<std::ffi::OsStr>,
        value: impl AsRef<std::ffi::OsStr>,
    ) -> Referee {
        self.env
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// What its stdin reads (else nothing: it is empty).
    pub fn stdin(mut self, text: impl Into<Vec<u8>>) -> Referee {
        self.stdin = Some(text.into());
        self
    }

    /// What this run is the case of (a test's loop over cases), said
    /// first in the messages of its failed assertions.
    pub fn case(mut self, case: impl std::fmt::Display) -> Referee {
        self.case = format!("{case}: ");
        self
    }

    /// How long it may run before the test fails.
    pub fn budget(mut self, budget: Duration) -> Referee {
        self.budget = budget;
        self
    }

    /// Runs shell command `setup` first, in the shell that then becomes
    /// the referee (`ulimit -v ...`, `stty echo`).
    pub fn after_shell(mut self, setup: &str) -> Referee {
        self.shell_first = Some(setup.to_string());
        self
    }

    /// The command it would run (for a test that drives the process
    /// itself, on a terminal or with signals).
    pub fn command(&self) -> Command {
        let mut command = match &self.shell_first {
            Some(setup) => {
                let mut sh = Command::new("sh");
                sh.arg("-c")
                    .arg(format!("{setup} && exec \"$0\" \"$@\""))
                    .arg(referee_bin());
                sh
            }
            None => Command::new(referee_bin()),
        };
        command
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.cwd);
        command
    }

    /// Runs it to its end; what it said and how it exited.
    pub fn run(self) -> Run {
        let command = self.command();
        run_with_input(command, self.stdin, self.budget, self.case)
    }
}

/// Output of the process table: is any process whose command line contains
/// `marker` still alive (zombies excluded)?
pub fn processes_with(marker: &str) -> Vec<String> {
    let out: Output = Command::new("ps")
        .args(["-eo", "pid=,stat=,args="])
        .output()
        .expect("run ps");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(marker) && !l.contains("ps -eo"))
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|stat| !stat.starts_with('Z'))
        })
        .map(str::to_string)
        .collect()
}

/// The pids of the live processes whose command line contains `marker`.
pub fn pids_with(marker: &str) -> Vec<i32> {
    processes_with(marker)
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

/// Waits (bounded by `within`) until no live process's command line holds
/// `marker`; kills (SIGKILL) and returns those still there then, so that a
/// failing test leaves nothing behind.
pub fn gone_within(marker: &str, within: Duration) -> Vec<i32> {
    let start = std::time::Instant::now();
    while !pids_with(marker).is_empty() && start.elapsed() < within {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = pids_with(marker);
    for pid in &left {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    left
}

/// A CSV file's rows, each a map from column name to value.
pub fn csv_records(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut reader =
        csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    reader
        .deserialize()
        .map(|r| r.expect("a well-formed row"))
        .collect()
}

/// Columns of games.csv that say what happened in a game (not how long
/// it took): what a resumed, updated or sharded run must give exactly as
/// an uninterrupted one.
pub const RESULT_COLUMNS: &[&str] = &[
    "game",
    "seed",
    "bot_a",
    "bot_b",
    "first",
    "result",
    "winner",
    "reason",
    "attacks_a",
    "attacks_b",
    "verdict_a",
    "verdict_b",
    "replies_a",
    "replies_b",
    "detail",
];

/// The [`RESULT_COLUMNS`] of each row of a games.csv, in the file's order.
pub fn game_results(path: &Path) -> Vec<Vec<String>> {
    csv_records(path)
        .iter()
        .map(|row| RESULT_COLUMNS.iter().map(|c| row[*c].clone()).collect())
        .collect()
}

/// The cell of `column` (one of [`RESULT_COLUMNS`]) in a row of
/// [`game_results`].
pub fn result_cell<'a>(row: &'a [String], column: &str) -> &'a str {
    let i = RESULT_COLUMNS
        .iter()
        .position(|c| *c == column)
        .unwrap_or_else(|| panic!("{column} is not a result column"));
    &row[i]
}

/// [`game_results`] by game number; panics if a game appears twice.
pub fn game_results_by_number(path: &Path) -> std::collections::BTreeMap<u64, Vec<String>> {
    let mut games = std::collections::BTreeMap::new();
    for row in game_results(path) {
        let number: u64 = row[0].parse().unwrap();
        assert!(
            games.insert(number, row).is_none(),
            "game {number} written twice in {}",
            path.display()
        );
    }
    games
}

/// Writes `dir/t.toml`: a tournament of `game` between two bots (`[name,
/// bot command]`), `games` games a pairing, seed 5, with `extra` TOML
/// before the bots (top-level fields such as `sandbox = "strict"` first,
/// then tables such as `[limits]` or `[options]`). Returns the file.
pub fn two_bot_tournament(
    dir: &Path,
    game: &str,
    games: u32,
    bots: [(&str, &str); 2],
    extra: &str,
) -> PathBuf {
    let file = dir.join("t.toml");
    let [(a, bot_a), (b, bot_b)] = bots;
    std::fs::write(
        &file,
        format!(
            "name = \"t\"\ngame = \"{game}\"\ngames_per_pairing = {games}\nseed = 5\n{extra}\n\
             [[bots]]\nname = \"{a}\"\nbot = \"{bot_a}\"\n\
             [[bots]]\nname = \"{b}\"\nbot = \"{bot_b}\"\n"
        ),
    )
    .unwrap();
    file
}

/// Waits (bounded by `within`) until at least `count` live processes carry
/// `marker` on their command line; their pids.
/// Sends `signal` to process `pid` (one of the test's own, or one it
/// found); a process already gone is no error.
pub fn signal(pid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, signal);
    }
}

pub fn wait_for_processes(marker: &str, count: usize, within: Duration) -> Vec<i32> {
    let start = std::time::Instant::now();
    while pids_with(marker).len() < count && start.elapsed() < within {
        std::thread::sleep(Duration::from_millis(20));
    }
    pids_with(marker)
}

/// One `#[test]` per check and layer: `check: basic_test, strict_test;`
/// runs `check("basic")` and `check("strict")`, the strict one ignored by
/// default (it needs root and cgroups; `.ci/run` runs it).
macro_rules! under_each_layer {
    ($($check:ident: $basic:ident, $strict:ident;)*) => {$(
        #[test]
        fn $basic() {
            $check("basic");
        }

        #[test]
        #[ignore = "needs root and cgroups (the strict sandbox): run by .ci/run"]
        fn $strict() {
            $check("strict");
        }
    )*};
}

/// "(N played now)" of a tournament's last line.
pub fn played_now(run: &Run) -> u64 {
    let at = run
        .stdout
        .rfind(" played now)")
        .unwrap_or_else(|| panic!("no count of games played:\n{}", run.stdout));
    let start = run.stdout[..at].rfind('(').unwrap() + 1;
    run.stdout[start..at].parse().unwrap()
}

/// A file under tests/judges/ (the fixture judges and their bots), as an
/// absolute path.
pub fn judge_fixture(relative: &str) -> String {
    root()
        .join("tests/judges")
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

/// A fresh folder for one test's files: `referee-KIND-PID-NAME` in the
/// temporary folder, emptied first, and removed when the test is done
/// with it (dropped), passed or not: a failed test's files are in its
/// assertion's message, and a run of the suite leaves nothing in `/tmp`.
pub fn scratch_dir(kind: &str, name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("referee-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A test's folder ([`scratch_dir`]), removed when dropped.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
