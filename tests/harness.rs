//! Helpers for integration tests: find the binaries, run the referee with a
//! time budget (a hang fails the test instead of stalling CI), parse output.

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

/// A Rust sample bot, built on first use into the same target directory.
pub fn sample_bin(name: &str) -> String {
    static BUILD: Once = Once::new();
    BUILD.call_once(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--quiet", "-p", "sample_bots"])
            .current_dir(root());
        if !cfg!(debug_assertions) {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo to build the sample bots");
        assert!(status.success(), "building sample_bots failed");
    });
    let dir = referee_bin().parent().unwrap().to_path_buf();
    dir.join(name).to_string_lossy().into_owned()
}

/// A file under `sample_bots/`, as an absolute path string.
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
}

/// Runs the referee with `args` in `cwd`, killing it and failing the test if
/// it takes longer than `budget`.
pub fn referee_in(cwd: &Path, args: &[&str], budget: Duration) -> Run {
    let mut command = Command::new(referee_bin());
    command.args(args).current_dir(cwd);
    run_within(command, budget)
}

/// Runs `command` (the referee, maybe behind a wrapper such as `setpriv`),
/// killing it and failing the test if it takes longer than `budget`.
pub fn run_within(mut command: Command, budget: Duration) -> Run {
    let shown = format!("{command:?}");
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the referee");
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
    }
}

pub fn referee(args: &[&str], budget: Duration) -> Run {
    referee_in(&root(), args, budget)
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
