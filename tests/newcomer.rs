//! What a new user met on first contact (issue 18, sections 3 and 4): each
//! test runs the real binary and failed before its fix.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

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
    let quiet = referee(&["match", "arrow5", &a, &b, "--seed", "1"], BUDGET);
    assert_eq!(quiet.status, 0, "{}", quiet.stderr);
    let first = quiet.stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("sandbox: basic (") && first.len() <= 80,
        "{}",
        quiet.stderr
    );
    assert!(!quiet.stderr.contains("seccomp (no ptrace"), "{}", quiet.stderr);
    let verbose = referee(
        &["match", "arrow5", &a, &b, "--seed", "1", "--verbose"],
        BUDGET,
    );
    assert_eq!(verbose.status, 0, "{}", verbose.stderr);
    assert!(
        verbose.stderr.contains("seccomp (no ptrace"),
        "{}",
        verbose.stderr
    );
}

#[test]
fn a_tournament_keeps_the_whole_sandbox_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_tournament(dir.path());
    let out = dir.path().join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("seccomp (no ptrace"), "{}", run.stderr);
    let kept = std::fs::read_to_string(out.join("sandbox.txt")).unwrap();
    assert!(
        kept.starts_with("sandbox basic:") && kept.contains("seccomp (no ptrace"),
        "{kept}"
    );
}
