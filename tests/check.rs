//! `referee check`: the shipped Arrow 5 check file against the strong sample
//! solver (passes) and a deliberately weak bot (fails, naming the
//! requirements), with the JUnit file read by a real XML parser.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// tournaments/check-arrow5.toml with its release paths pointing at the
/// debug (or release) bots of this test build, written into `dir`.
fn shipped_check_file(dir: &Path, edit: impl Fn(String) -> String) -> String {
    let text = std::fs::read_to_string(root().join("tournaments/check-arrow5.toml")).unwrap();
    let strong = sample_bin("arrow5_strong");
    let bin_dir = Path::new(&strong)
        .parent()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    // Its 1 s bound on the slowest reply is for release builds; a debug
    // strong solver's slowest reply is some 0.7 s on a quiet machine and
    // went over 1 s beside two busy loops.
    let text = edit(
        text.replace("../target/release", &bin_dir)
            .replace("below = \"1s\"", "below = \"20s\""),
    );
    let path = dir.join("check.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Parses a JUnit file with Python's XML parser: (test cases, failure
/// messages).
pub(crate) fn junit_cases(path: &Path) -> (usize, Vec<String>) {
    let script = r#"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == 'testsuite' else root.findall('testsuite')
assert len(suites) == 1, suites
cases = suites[0].findall('testcase')
print(len(cases))
for c in cases:
    for f in c.findall('failure'):
        print(f.get('message'))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "the JUnit file does not parse as XML: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(path).unwrap_or_default()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let cases = lines.next().unwrap().parse().unwrap();
    (cases, lines.map(str::to_string).collect())
}

#[test]
fn the_strong_solver_passes_the_shipped_check() {
    let dir = tempfile::tempdir().unwrap();
    let file = shipped_check_file(dir.path(), |t| t);
    let junit = dir.path().join("report.xml");
    let junit_arg = junit.to_string_lossy().into_owned();
    // A fixed key: the games (the bots' seeds) are the same at every run.
    let key = "2c".repeat(32);
    let check = || {
        referee(
            &[
                "check",
                &file,
                "--json",
                "--junit",
                &junit_arg,
                "--jobs",
                "2",
                "--key",
                &key,
                "--no-report",
            ],
            BUDGET,
        )
    };
    // The move-time requirement is the one a busy machine can fail (a reply
    // of 1,058 ms with two busy loops beside the suite): that alone is tried
    // again, twice at most. Any other failure fails at once.
    let mut run = check();
    for _ in 0..2 {
        if run.status == 0 {
            break;
        }
        let failed: Vec<String> = run.json()["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| r["passed"] != true)
            .map(|r| r["kind"].as_str().unwrap_or_default().to_string())
            .collect();
        assert_eq!(failed, ["max-move-time"], "{}\n{}", run.stdout, run.stderr);
        run = check();
    }
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["version"], 1);
    assert_eq!(json["passed"], true);
    let requirements = json["requirements"].as_array().unwrap();
    let kinds: Vec<&str> = requirements
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["no-verdicts", "win-rate", "bench-average", "max-move-time"]
    );
    assert_eq!(requirements[0]["measured"], 10.0);
    assert!(requirements[1]["measured"].as_f64().unwrap() >= 30.0);
    let average = requirements[2]["measured"].as_f64().unwrap();
    assert!(average > 3.0 && average <= 5.0, "{average}");
    let (cases, failures) = junit_cases(&junit);
    assert_eq!(cases, 4);
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn a_weak_bot_fails_and_the_failed_requirements_are_named() {
    let dir = tempfile::tempdir().unwrap();
    // A smaller bench sample: the weak bot plays every game to the round cap.
    let file = shipped_check_file(dir.path(), |t| t.replace("samples = 200", "samples = 20"));
    let junit = dir.path().join("report.xml");
    let junit_arg = junit.to_string_lossy().into_owned();
    let weak = sample_file("hostile/arrow5_weak.py");
    // A step summary already holding an earlier step's text: appended to.
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let summary_arg = summary.to_string_lossy().into_owned();
    let run = referee(
        &[
            "check",
            &file,
            "--no-report",
            "--bot",
            &weak,
            "--junit",
            &junit_arg,
            "--jobs",
            "2",
            "--summary",
            &summary_arg,
        ],
        BUDGET,
    );
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    let markdown = std::fs::read_to_string(&summary).unwrap();
    assert!(
        markdown.starts_with("earlier step\n## ❌ `referee check`"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| wins &gt;= 25% of 40 games vs random | ❌ fail |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| no verdicts in 10 games vs random | ✅ pass |"),
        "{markdown}"
    );
    assert!(
        run.stdout
            .contains("PASS  no verdicts in 10 games vs random"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("FAIL  wins >= 25% of 40 games vs random"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("FAIL  bench average <= 5 over 20 samples"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Result: FAIL"), "{}", run.stdout);
    assert!(run.stdout.contains("bot arrow5_weak"), "{}", run.stdout);
    let (cases, failures) = junit_cases(&junit);
    assert_eq!(cases, 4);
    assert!(
        failures
            .iter()
            .any(|m| m.starts_with("wins >= 25% of 40 games vs random")),
        "{failures:?}"
    );
    assert!(
        failures
            .iter()
            .any(|m| m.starts_with("bench average <= 5 over 20 samples")),
        "{failures:?}"
    );
}

#[test]
fn a_check_that_cannot_run_exits_2_with_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = shipped_check_file(dir.path(), |t| {
        t.replace("arrow5_random\"", "arrow5_missing\"")
    });
    let run = referee(&["check", &file], BUDGET);
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("check.toml:29: opponents.bot of 'random'")
            && run.stderr.contains("does not exist"),
        "{}",
        run.stderr
    );
    let file = shipped_check_file(dir.path(), |t| t);
    let run = referee(&["check", &file, "--bot", "./no_such_bot"], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--bot"), "{}", run.stderr);
}

#[test]
fn a_bad_bot_option_is_blamed_on_the_option_not_on_line_0() {
    let dir = tempfile::tempdir().unwrap();
    let file = shipped_check_file(dir.path(), |t| t);
    let run = referee(
        &["check", &file, "--bot", "./nonexistent", "--no-report"],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    // It once said `check.toml:0: --bot: ...`: no file has a line 0, and
    // the file is not to blame.
    assert!(
        run.stderr.starts_with("referee: --bot: ") && run.stderr.contains("nonexistent"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(":0:"), "{}", run.stderr);
}
