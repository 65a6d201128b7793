//! The referee in CI: limits that hold on slow runners (`--time-scale`,
//! `referee calibrate`, `time_scale = "auto"`, the time margin and its
//! strikes), the Debian package, and the GitHub Action. Slow bots are
//! `sample_bots/hostile/paced.py` sleeping a fixed time before each
//! attack: a sleep is never shorter than asked, so a limit below it is
//! always missed, and the limits meant to be kept leave it seconds.

use std::path::Path;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// A bot that sleeps `ms` before every attack (its code comes at once).
/// The tag lets a leftover process be traced to its test.
fn sleeper(ms: u32, test: &str) -> String {
    format!(
        "python3 {} sleep {ms} all ci-package-{}-{test}",
        sample_file("hostile/paced.py"),
        std::process::id()
    )
}

/// A match of `bot` (seat A) against the constant sample bot, which never
/// cracks it, over `rounds` rounds, as JSON; `extra` flags added.
fn match_against_constant(bot: &str, rounds: &str, extra: &[&str]) -> Run {
    let constant = sample_bin("arrow5_constant");
    let mut args = vec![
        "match",
        "arrow5",
        bot,
        &constant,
        "--max-rounds",
        rounds,
        "--seed",
        "5",
        "--json",
    ];
    args.extend_from_slice(extra);
    referee(&args, BUDGET)
}

/// Runs `attempt` up to three times until `ok` holds for its result: a
/// busy machine may stall a bot past a generous limit once, not thrice.
fn within_retries(mut attempt: impl FnMut() -> Run, ok: impl Fn(&Run) -> bool) -> Run {
    let mut last = None;
    for _ in 0..3 {
        let run = attempt();
        if ok(&run) {
            return run;
        }
        last = Some(run);
    }
    let run = last.unwrap();
    panic!(
        "three attempts failed; the last:\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
}

#[test]
fn time_scale_multiplies_every_limit_the_record_shows() {
    let bot = sleeper(600, "scale");
    // A 600 ms sleep always misses a 250 ms limit: a timeout.
    let plain = match_against_constant(&bot, "2", &["--time-limit", "250ms"]);
    assert_eq!(plain.status, 0, "{}", plain.stderr);
    let record = plain.json();
    assert_eq!(record["players"][0]["verdict"], "timeout", "{record}");
    assert!(
        record["replay"]
            .as_str()
            .unwrap()
            .contains("--time-limit 250ms --startup-limit 5s"),
        "{record}"
    );
    // Eight times longer: 2 s a move, 40 s to start; the record has them.
    let scaled = within_retries(
        || match_against_constant(&bot, "2", &["--time-limit", "250ms", "--time-scale", "8"]),
        |run| run.status == 0 && run.json()["players"][0]["verdict"] == "ok",
    );
    let record = scaled.json();
    let replay = record["replay"].as_str().unwrap();
    assert!(
        replay.contains("--time-limit 2s --startup-limit 40s"),
        "{replay}"
    );
    assert!(
        scaled.stderr.contains("every time limit multiplied by 8"),
        "{}",
        scaled.stderr
    );
    // Doubling doubles the limits shown, the default ones included.
    let doubled = match_against_constant(&bot, "1", &["--time-limit", "2s", "--time-scale", "2"]);
    assert_eq!(doubled.status, 0, "{}", doubled.stderr);
    let replay = doubled.json()["replay"].as_str().unwrap().to_string();
    assert!(
        replay.contains("--time-limit 4s --startup-limit 10s"),
        "{replay}"
    );
}

#[test]
fn a_time_scale_that_is_no_positive_number_is_refused() {
    for bad in ["0", "-2", "nan", "inf", "fast", "1e9"] {
        let run = referee(&["match", "arrow5", "a", "b", "--time-scale", bad], BUDGET);
        assert_eq!(run.status, 2, "{bad}: {}", run.stderr);
        assert!(run.stderr.contains("--time-scale"), "{bad}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    let run = referee(&["match", "arrow5", "a", "b", "--strikes", "3"], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--time-margin"), "{}", run.stderr);
}

#[test]
fn a_reply_late_within_the_margin_is_a_strike_and_the_third_loses() {
    let bot = sleeper(500, "strikes");
    // No margin: the first late attack is a timeout.
    let plain = match_against_constant(&bot, "4", &["--time-limit", "200ms"]);
    let record = plain.json();
    assert_eq!(record["players"][0]["verdict"], "timeout", "{record}");
    assert_eq!(
        record["players"][0]["disqualification"]["at_move"], 2,
        "{record}"
    );
    // A 3 s margin: each attack, some 300 ms late, is a strike, never a
    // loss; the record counts them.
    let forgiven = within_retries(
        || match_against_constant(&bot, "3", &["--time-limit", "200ms", "--time-margin", "3s"]),
        |run| run.status == 0 && run.json()["players"][0]["verdict"] == "ok",
    );
    let record = forgiven.json();
    let player = &record["players"][0];
    assert_eq!(player["attacks"], 3, "{record}");
    assert_eq!(player["strikes"], 3, "{record}");
    assert!(record["players"][1].get("strikes").is_none(), "{record}");
    assert!(
        record["replay"]
            .as_str()
            .unwrap()
            .contains("--time-margin 3s"),
        "{record}"
    );
    // The readable account says it too.
    let constant = sample_bin("arrow5_constant");
    within_retries(
        || {
            referee(
                &[
                    "match",
                    "arrow5",
                    &bot,
                    &constant,
                    "--max-rounds",
                    "2",
                    "--seed",
                    "5",
                    "--time-limit",
                    "200ms",
                    "--time-margin",
                    "3s",
                ],
                BUDGET,
            )
        },
        |run| {
            run.status == 0
                && run
                    .stdout
                    .contains("2 replies late within the time margin (strikes)")
        },
    );
    // With three strikes asked for, the third loses on time.
    let struck = within_retries(
        || {
            match_against_constant(
                &bot,
                "5",
                &[
                    "--time-limit",
                    "200ms",
                    "--time-margin",
                    "3s",
                    "--strikes",
                    "3",
                ],
            )
        },
        |run| {
            run.status == 0
                && run.json()["players"][0]["disqualification"]["detail"]
                    .as_str()
                    .is_some_and(|d| d.contains("strike 3 of 3"))
        },
    );
    let record = struck.json();
    let player = &record["players"][0];
    assert_eq!(player["verdict"], "timeout", "{record}");
    assert_eq!(player["strikes"], 3, "{record}");
    // Its code, then three attacks: the third attack is reply 4.
    assert_eq!(player["disqualification"]["at_move"], 4, "{record}");
    assert_eq!(record["winner"], "b", "{record}");
}

#[test]
fn calibrate_prints_the_factor_and_how_it_was_measured() {
    let run = referee(&["calibrate", "--json"], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let json = run.json();
    let runs: Vec<f64> = json["runs_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect();
    assert_eq!(runs.len(), 5, "{json}");
    let median = json["median_ms"].as_f64().unwrap();
    let mut sorted = runs.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(median, sorted[2], "{json}");
    let factor = json["factor"].as_f64().unwrap();
    let reference = json["reference_ms"].as_f64().unwrap();
    assert!((factor - median / reference).abs() < 0.01, "{json}");
    assert!(
        json["time_scale"].as_f64().unwrap() >= factor.max(1.0) - 0.01,
        "{json}"
    );
    assert!(json["time_scale"].as_f64().unwrap() >= 1.0, "{json}");
    let text = referee(&["calibrate"], BUDGET);
    assert_eq!(text.status, 0, "{}", text.stderr);
    assert!(text.stdout.contains("median of 5 runs"), "{}", text.stdout);
    assert!(
        text.stdout.contains("Use it: --time-scale "),
        "{}",
        text.stdout
    );
}

/// A check file: the sleeping bot under test (300 ms an attack) against
/// the constant bot, limits of 200 ms a move, two games of two rounds,
/// with `head` added at the top and `limits` in `[limits]`.
fn slow_check_file(dir: &Path, head: &str, limits: &str) -> String {
    let text = format!(
        r#"name = "slow"
game = "arrow5"
{head}
[options]
max_rounds = 2

[limits]
time_limit = "200ms"
{limits}

[bot]
name = "sleepy"
bot = "{bot}"

[[opponents]]
name = "constant"
bot = "{constant}"

[[require]]
kind = "no-verdicts"
against = "constant"
games = 2
"#,
        bot = sleeper(300, "check"),
        constant = sample_bin("arrow5_constant"),
    );
    let path = dir.join("slow.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn check(file: &str, dir: &Path, extra: &[&str]) -> Run {
    let junit = dir.join("junit.xml");
    let report = dir.join("report");
    let mut args = vec![
        "check",
        file,
        "--json",
        "--jobs",
        "1",
        "--junit",
        junit.to_str().unwrap(),
    ];
    if !extra.contains(&"--no-report") {
        args.extend(["--report", report.to_str().unwrap()]);
    }
    args.extend_from_slice(extra);
    referee(&args, BUDGET)
}

#[test]
fn a_check_file_scales_its_limits_and_reports_the_factor() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_check_file(dir.path(), "time_scale = 10", "");
    // The command line's factor wins over the file's: at 1 the sleeping
    // bot times out.
    let unscaled = check(&file, dir.path(), &["--time-scale", "1"]);
    assert_eq!(unscaled.status, 1, "{}", unscaled.stderr);
    assert_eq!(unscaled.json()["time_scale"], 1.0);
    // The file's factor: 2 s a move.
    let scaled = within_retries(|| check(&file, dir.path(), &[]), |run| run.status == 0);
    let json = scaled.json();
    assert_eq!(json["time_scale"], 10.0, "{json}");
    let junit = std::fs::read_to_string(dir.path().join("junit.xml")).unwrap();
    assert!(
        junit.contains(r#"<property name="time_scale" value="10"/>"#),
        "{junit}"
    );
    let html = std::fs::read_to_string(dir.path().join("report/index.html")).unwrap();
    assert!(
        html.contains("time limits ×10"),
        "the HTML report shows the factor"
    );
    let text = check(&file, dir.path(), &["--no-report", "--time-scale", "1.5"]);
    assert!(
        text.stderr.contains("every time limit multiplied by 1.5"),
        "{}",
        text.stderr
    );
    let plain = referee(
        &["check", &file, "--no-report", "--time-scale", "12"],
        BUDGET,
    );
    assert!(
        plain.stdout.contains("time limits x12 (--time-scale)"),
        "{}",
        plain.stdout
    );
    let kept = std::fs::read_to_string(dir.path().join("report/check.json")).unwrap();
    assert!(kept.contains("\"time_scale\": 10.0"), "{kept}");
}

#[test]
fn time_scale_auto_calibrates_before_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_check_file(dir.path(), r#"time_scale = "auto""#, "");
    let run = check(&file, dir.path(), &["--no-report"]);
    // Whatever the factor (at least 1), it is the one reported.
    assert!(run.status == 0 || run.status == 1, "{}", run.stderr);
    assert!(run.stderr.contains("median of 5 runs"), "{}", run.stderr);
    let factor = run.json()["time_scale"].as_f64().unwrap();
    assert!(factor >= 1.0, "{factor}");
    let said = format!("time scale {}", run.json()["time_scale"]);
    assert!(
        run.stderr.contains(said.trim_end_matches(".0")),
        "{said}: {}",
        run.stderr
    );
}

#[test]
fn bad_time_settings_in_a_check_file_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    for (head, limits, wanted) in [
        (
            r#"time_scale = "fast""#,
            "",
            "time_scale: 'fast' is not a number",
        ),
        (
            "time_scale = -1",
            "",
            "time_scale: the time scale must be a positive",
        ),
        ("time_scale = true", "", "time_scale: give a number"),
        (
            "",
            "strikes = 3",
            "limits.strikes: a strike is a reply late",
        ),
        (
            "",
            "time_margin = \"50ms\"\nstrikes = 0",
            "limits.strikes: give the strike",
        ),
        ("", "time_margin = \"soon\"", "limits.time_margin:"),
    ] {
        let file = slow_check_file(dir.path(), head, limits);
        let run = check(&file, dir.path(), &["--no-report"]);
        assert_eq!(run.status, 2, "{head} {limits}: {}", run.stderr);
        assert!(
            run.stderr.contains(wanted),
            "{head} {limits}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("slow.toml:"), "{}", run.stderr);
    }
}

#[test]
fn strikes_in_a_check_file_lose_at_the_strike_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_check_file(dir.path(), "", "time_margin = \"3s\"\nstrikes = 2");
    let run = within_retries(
        || check(&file, dir.path(), &["--no-report"]),
        |run| run.status == 1 && run.stdout.contains("strike 2 of 2"),
    );
    assert_eq!(run.json()["passed"], false);
}

/// Fails the test unless it runs as root (installing a package needs it).
fn assert_root() {
    // SAFETY: geteuid has no preconditions.
    let root = rustix::process::geteuid().is_root();
    assert!(root, "this test needs root (run by .ci/run)");
}

/// Runs a program to its end within `budget`.
fn program(program: &str, args: &[&str], budget: Duration) -> Run {
    let mut command = std::process::Command::new(program);
    command.args(args).current_dir(root());
    run_within(command, budget)
}

/// Removes the package when the test ends, however it ends.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::process::Command::new("dpkg")
            .args(["-r", "referee"])
            .stdout(std::process::Stdio::null())
            .status();
    }
}

#[test]
#[ignore = "needs root: installs the Debian package into the system (run by .ci/run)"]
fn the_debian_package_installs_and_plays_a_match() {
    assert_root();
    let before = program("dpkg-query", &["-W", "-f=${Status}", "referee"], BUDGET);
    assert!(
        !before.stdout.contains("installed"),
        "a referee package is installed already ({}): this test would replace it; remove it first",
        before.stdout
    );
    let cargo_deb = program("cargo", &["deb", "--version"], BUDGET);
    assert_eq!(
        cargo_deb.status, 0,
        "cargo-deb is missing: `cargo install cargo-deb --locked` (.ci/run installs it)\n{}",
        cargo_deb.stderr
    );
    // The package of this test build's profile (a release build takes
    // long): .ci/build-deb as a release is made, into this target folder.
    let bin = referee_bin();
    let profile_dir = bin.parent().unwrap();
    let target = profile_dir.parent().unwrap();
    let profile = match profile_dir.file_name().unwrap().to_str().unwrap() {
        "debug" => "dev",
        other => other,
    };
    sample_bin("arrow5_strong");
    let mut build = std::process::Command::new(root().join(".ci/build-deb"));
    build
        .arg(profile)
        .env("CARGO_TARGET_DIR", target)
        .current_dir(root());
    let built = run_within(build, Duration::from_secs(1800));
    assert_eq!(built.status, 0, "{}\n{}", built.stdout, built.stderr);
    let deb = built
        .stdout
        .lines()
        .last()
        .map(|l| root().join(l.trim()))
        .unwrap();
    assert!(deb.exists(), "{}: {}", deb.display(), built.stdout);

    let _installed = Installed;
    let install = program("dpkg", &["-i", deb.to_str().unwrap()], BUDGET);
    assert_eq!(install.status, 0, "{}\n{}", install.stdout, install.stderr);

    let version = program("/usr/bin/referee", &["--version"], BUDGET);
    assert_eq!(version.status, 0, "{}", version.stderr);
    assert!(
        version
            .stdout
            .starts_with(&format!("referee {}", env!("CARGO_PKG_VERSION"))),
        "{}",
        version.stdout
    );
    for page in [
        "referee.1.gz",
        "referee-check.1.gz",
        "referee-calibrate.1.gz",
    ] {
        let path = Path::new("/usr/share/man/man1").join(page);
        assert!(path.exists(), "{} is not installed", path.display());
    }
    if Path::new("/usr/bin/man").exists() {
        let man = program("man", &["-w", "referee"], BUDGET);
        assert_eq!(man.status, 0, "{}", man.stderr);
        assert!(
            man.stdout.contains("/usr/share/man/man1/referee.1"),
            "{}",
            man.stdout
        );
    }
    for completion in [
        "/usr/share/bash-completion/completions/referee",
        "/usr/share/zsh/vendor-completions/_referee",
        "/usr/share/fish/vendor_completions.d/referee.fish",
    ] {
        let text = std::fs::read_to_string(completion).unwrap();
        assert!(
            text.contains("calibrate"),
            "{completion} lists the commands"
        );
    }
    assert!(Path::new("/usr/share/doc/referee/docs/ci.md").exists());

    // A match from the installed files alone, in a folder of nothing.
    let away = tempfile::tempdir().unwrap();
    let mut play = std::process::Command::new("/usr/bin/referee");
    play.args([
        "match",
        "arrow5",
        "/usr/lib/referee/bots/arrow5_strong",
        "/usr/share/referee/sample_bots/python/arrow5_starter.py",
        "--seed",
        "3",
        "--json",
    ])
    .current_dir(away.path());
    let game = run_within(play, BUDGET);
    assert_eq!(game.status, 0, "{}", game.stderr);
    let record = game.json();
    for player in record["players"].as_array().unwrap() {
        assert_eq!(player["verdict"], "ok", "{record}");
    }
    assert_ne!(record["reason"], "", "{record}");

    let remove = program("dpkg", &["-r", "referee"], BUDGET);
    assert_eq!(remove.status, 0, "{}", remove.stderr);
    assert!(
        !Path::new("/usr/bin/referee").exists(),
        "removed with the package"
    );
}

/// The repository's `action.yml`.
fn action() -> serde_yaml::Value {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("action.yml is not YAML: {e}"))
}

/// The keys of a mapping, as strings.
fn keys(map: &serde_yaml::Value) -> Vec<String> {
    map.as_mapping()
        .unwrap_or_else(|| panic!("not a mapping: {map:?}"))
        .keys()
        .map(|k| k.as_str().expect("keys are strings").to_string())
        .collect()
}

/// Every `${{ ... }}` expression in `text`, trimmed.
fn expressions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        let end = rest[start..].find("}}").expect("an expression is closed") + start;
        found.push(rest[start + 3..end].trim().to_string());
        rest = &rest[end + 2..];
    }
    found
}

/// The names of `inputs.NAME` and `steps.ID` an expression refers to.
fn references(expression: &str, prefix: &str) -> Vec<String> {
    expression
        .match_indices(prefix)
        .map(|(at, _)| {
            expression[at + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect()
        })
        .collect()
}

/// Every string in a YAML tree.
fn strings(value: &serde_yaml::Value, out: &mut Vec<String>) {
    match value {
        serde_yaml::Value::String(s) => out.push(s.clone()),
        serde_yaml::Value::Sequence(items) => items.iter().for_each(|v| strings(v, out)),
        serde_yaml::Value::Mapping(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// The checks of GitHub's action metadata schema (`action.yml` of a
/// composite action), written out: the keys it allows and requires, the
/// shell every `run` step must name, and that what the expressions refer to
/// exists.
#[test]
fn the_action_is_valid_action_metadata() {
    let action = action();
    let top = keys(&action);
    for key in &top {
        assert!(
            [
                "name",
                "author",
                "description",
                "inputs",
                "outputs",
                "runs",
                "branding"
            ]
            .contains(&key.as_str()),
            "action.yml: '{key}' is not a key of action metadata"
        );
    }
    for required in ["name", "description", "runs"] {
        assert!(
            top.iter().any(|k| k == required),
            "action.yml needs '{required}'"
        );
    }
    let inputs = keys(&action["inputs"]);
    for name in &inputs {
        let input = &action["inputs"][name.as_str()];
        for key in keys(input) {
            assert!(
                ["description", "required", "default", "deprecationMessage"]
                    .contains(&key.as_str()),
                "inputs.{name}: '{key}' is not a key of an input"
            );
        }
        assert!(
            input["description"].is_string(),
            "inputs.{name} needs a description"
        );
        if let Some(default) = input.get("default") {
            assert!(default.is_string(), "inputs.{name}.default is a string");
        }
        if let Some(required) = input.get("required") {
            assert!(
                required.is_bool(),
                "inputs.{name}.required is true or false"
            );
        }
    }
    let runs = &action["runs"];
    assert_eq!(runs["using"].as_str(), Some("composite"), "runs.using");
    for key in keys(runs) {
        assert!(["using", "steps"].contains(&key.as_str()), "runs.{key}");
    }
    for name in keys(&action["outputs"]) {
        let output = &action["outputs"][name.as_str()];
        assert!(
            output["description"].is_string(),
            "outputs.{name}.description"
        );
        assert!(
            output["value"].is_string(),
            "outputs.{name}.value (composite)"
        );
    }
    let steps = runs["steps"].as_sequence().expect("runs.steps is a list");
    assert!(!steps.is_empty());
    let mut ids: Vec<String> = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let step_keys = keys(step);
        for key in &step_keys {
            assert!(
                [
                    "name",
                    "id",
                    "if",
                    "run",
                    "shell",
                    "env",
                    "working-directory",
                    "uses",
                    "with",
                    "continue-on-error"
                ]
                .contains(&key.as_str()),
                "step {i}: '{key}' is not a key of a composite step"
            );
        }
        let has = |k: &str| step_keys.iter().any(|s| s == k);
        assert!(has("run") != has("uses"), "step {i}: one of run or uses");
        if has("run") {
            let shell = step["shell"].as_str();
            assert!(
                matches!(
                    shell,
                    Some("bash" | "sh" | "pwsh" | "python" | "cmd" | "powershell")
                ),
                "step {i}: a run step of a composite action names its shell, got {shell:?}"
            );
            let script = step["run"].as_str().unwrap();
            // Inputs reach the script through `env` only: an input
            // written into the script would be run as shell code.
            assert!(
                !script.contains("${{"),
                "step {i}: the script holds an expression; pass it through env"
            );
            let syntax = std::process::Command::new("bash")
                .args(["-n", "-c", script])
                .output()
                .unwrap();
            assert!(
                syntax.status.success(),
                "step {i}: {}",
                String::from_utf8_lossy(&syntax.stderr)
            );
        } else {
            assert!(!has("shell"), "step {i}: a uses step has no shell");
            let uses = step["uses"].as_str().unwrap();
            assert!(uses.contains('@'), "step {i}: '{uses}' names a version");
        }
        // What its expressions refer to exists (steps: an earlier one).
        let mut texts = Vec::new();
        strings(step, &mut texts);
        let mut exprs: Vec<String> = texts.iter().flat_map(|t| expressions(t)).collect();
        if let Some(condition) = step["if"].as_str() {
            exprs.push(condition.to_string());
        }
        for expression in &exprs {
            for input in references(expression, "inputs.") {
                assert!(
                    inputs.contains(&input),
                    "step {i}: no input '{input}' ({expression})"
                );
            }
            for id in references(expression, "steps.") {
                assert!(
                    ids.contains(&id),
                    "step {i}: no earlier step '{id}' ({expression})"
                );
            }
        }
        if let Some(id) = step["id"].as_str() {
            assert!(!ids.iter().any(|x| x == id), "step id '{id}' twice");
            ids.push(id.to_string());
        }
    }
    let mut texts = Vec::new();
    strings(&action["outputs"], &mut texts);
    for expression in texts.iter().flat_map(|t| expressions(t)) {
        for id in references(&expression, "steps.") {
            assert!(ids.contains(&id), "outputs: no step '{id}'");
        }
    }
    // What the brief of the action promises.
    let all = serde_yaml::to_string(&action).unwrap();
    for needed in [
        "--junit",
        "--summary",
        "GITHUB_STEP_SUMMARY",
        "actions/upload-artifact@",
        "cargo install",
        "dpkg -i",
    ] {
        assert!(all.contains(needed), "action.yml: {needed}");
    }
}

/// How a workflow run of the action ended: each step's fate.
struct ActionRun {
    /// The job failed (a step exited non-zero).
    failed: bool,
    /// Per step, by name: ran (`Some(exit code)`, 0 for a `uses` step
    /// taken as done) or skipped (`None`).
    steps: Vec<(String, Option<i32>)>,
    /// The outputs steps wrote to GITHUB_OUTPUT.
    outputs: std::collections::BTreeMap<String, String>,
    summary: String,
    stderr: String,
}

impl ActionRun {
    fn step(&self, name: &str) -> Option<i32> {
        self.steps
            .iter()
            .find(|(n, _)| n.contains(name))
            .unwrap_or_else(|| panic!("no step '{name}'"))
            .1
    }
}

/// Evaluates an `if:` as the runner would, for the forms action.yml uses:
/// `always()`, and `A == 'v'` / `A != 'v'` joined by `&&`, where A is
/// `inputs.NAME` or `steps.ID.outputs.NAME`. Without `always()`, a step
/// runs only while the job has not failed.
fn condition(
    text: Option<&str>,
    inputs: &std::collections::BTreeMap<String, String>,
    outputs: &std::collections::BTreeMap<String, String>,
    failed: bool,
) -> bool {
    let Some(text) = text else { return !failed };
    if text.trim() == "always()" {
        return true;
    }
    let value = |operand: &str| -> String {
        let operand = operand.trim();
        if let Some(quoted) = operand
            .strip_prefix('\'')
            .and_then(|o| o.strip_suffix('\''))
        {
            return quoted.to_string();
        }
        if let Some(name) = operand.strip_prefix("inputs.") {
            return inputs.get(name).cloned().unwrap_or_default();
        }
        if let Some(path) = operand.strip_prefix("steps.") {
            return outputs.get(path).cloned().unwrap_or_default();
        }
        panic!("an expression this test cannot evaluate: '{operand}' in '{text}'");
    };
    !failed
        && text.split("&&").all(|term| {
            if let Some((a, b)) = term.split_once("!=") {
                value(a) != value(b)
            } else if let Some((a, b)) = term.split_once("==") {
                value(a) == value(b)
            } else {
                panic!("an expression this test cannot evaluate: '{term}'")
            }
        })
}

/// Runs action.yml's steps as a workflow job would, in `workspace` (the
/// GITHUB_* files in it), with `given` inputs over the defaults. `uses`
/// steps are not run: the cache is taken as hit (the referee is built: it
/// is first on PATH), the upload as done. Run steps run as GitHub runs a
/// `shell: bash` step (`bash --noprofile --norc -eo pipefail FILE`).
fn run_action(workspace: &Path, given: &[(&str, &str)]) -> ActionRun {
    run_action_with(workspace, given, true, None)
}

/// [`run_action`], with the cache hit or missed, and `stubs` (a folder of
/// programs such as `cargo` and `dpkg` that log their arguments to
/// `$STUB_LOG`) first on PATH.
fn run_action_with(
    workspace: &Path,
    given: &[(&str, &str)],
    cache_hit: bool,
    stubs: Option<&Path>,
) -> ActionRun {
    let action = action();
    let mut inputs = std::collections::BTreeMap::new();
    for name in keys(&action["inputs"]) {
        let default = action["inputs"][name.as_str()]["default"]
            .as_str()
            .unwrap_or("");
        inputs.insert(name, default.to_string());
    }
    for (name, value) in given {
        assert!(inputs.contains_key(*name), "no input {name}");
        inputs.insert(name.to_string(), value.to_string());
    }
    let files = workspace.join(".github-files");
    std::fs::create_dir_all(&files).unwrap();
    let summary = files.join("step_summary.md");
    let bin_dir = referee_bin().parent().unwrap().to_path_buf();
    sample_bin("arrow5_constant");
    let mut path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    if let Some(stubs) = stubs {
        path = format!("{}:{path}", stubs.display());
    }
    let mut run = ActionRun {
        failed: false,
        steps: vec![],
        outputs: Default::default(),
        summary: String::new(),
        stderr: String::new(),
    };
    for (i, step) in action["runs"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .enumerate()
    {
        let name = step["name"].as_str().unwrap_or("").to_string();
        let id = step["id"].as_str().map(str::to_string);
        if !condition(step["if"].as_str(), &inputs, &run.outputs, run.failed) {
            run.steps.push((name, None));
            continue;
        }
        let Some(script) = step["run"].as_str() else {
            // A `uses` step: the cache is hit, the upload is done.
            if let Some(id) = &id {
                run.outputs
                    .insert(format!("{id}.outputs.cache-hit"), cache_hit.to_string());
            }
            run.steps.push((name, Some(0)));
            continue;
        };
        let file = files.join(format!("step-{i}.sh"));
        std::fs::write(&file, script).unwrap();
        let output_file = files.join(format!("output-{i}"));
        std::fs::write(&output_file, "").unwrap();
        let mut command = std::process::Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&file)
            .current_dir(workspace)
            .env("PATH", &path)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_WORKSPACE", workspace)
            .env("GITHUB_ACTION_PATH", root())
            .env("GITHUB_ACTION_REPOSITORY", "example/referee")
            .env("GITHUB_ACTION_REF", "v0")
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_PATH", files.join("path"))
            .env("GITHUB_ENV", files.join("env"))
            .env("RUNNER_TEMP", &files)
            .env("STUB_LOG", files.join("stub.log"));
        if let Some(env) = step["env"].as_mapping() {
            for (key, value) in env {
                let text = value.as_str().unwrap();
                // `${{ inputs.NAME }}` is the only expression an env takes here.
                let resolved = match expressions(text).as_slice() {
                    [] => text.to_string(),
                    [one] if text.trim() == format!("${{{{ {one} }}}}") => {
                        let name = one.strip_prefix("inputs.").unwrap_or_else(|| {
                            panic!("step {i}: env {key:?} = '{text}' is not an input")
                        });
                        inputs[name].clone()
                    }
                    _ => panic!("step {i}: env {key:?} = '{text}'"),
                };
                command.env(key.as_str().unwrap(), resolved);
            }
        }
        let result = run_within(command, BUDGET);
        run.stderr.push_str(&result.stderr);
        run.stderr.push_str(&result.stdout);
        if let Some(id) = &id {
            for line in std::fs::read_to_string(&output_file).unwrap().lines() {
                if let Some((key, value)) = line.split_once('=') {
                    run.outputs
                        .insert(format!("{id}.outputs.{key}"), value.to_string());
                }
            }
        }
        if result.status != 0 {
            run.failed = true;
        }
        run.steps.push((name, Some(result.status)));
    }
    run.summary = std::fs::read_to_string(&summary).unwrap_or_default();
    run
}

/// A check file in `workspace`: two games of two rounds against the
/// constant bot, no verdict allowed, 200 ms a move; the bot under test is
/// the random sample bot unless the action's `bot` input replaces it.
fn action_check_file(workspace: &Path) {
    let text = format!(
        r#"game = "arrow5"
[options]
max_rounds = 2
[limits]
time_limit = "200ms"
[bot]
bot = "{random}"
[[opponents]]
name = "constant"
bot = "{constant}"
[[require]]
kind = "no-verdicts"
against = "constant"
games = 2
"#,
        random = sample_bin("arrow5_random"),
        constant = sample_bin("arrow5_constant"),
    );
    std::fs::write(workspace.join("bot-check.toml"), text).unwrap();
}

#[test]
fn the_action_passes_a_passing_check_and_fails_the_job_on_a_failing_one() {
    // A bot that answers at once passes (a busy machine may stall one
    // reply past 200 ms: tried again).
    let passing = {
        let mut last = None;
        for _ in 0..3 {
            let workspace = tempfile::tempdir().unwrap();
            action_check_file(workspace.path());
            let run = run_action(workspace.path(), &[("check", "bot-check.toml")]);
            if !run.failed {
                last = Some((workspace, run));
                break;
            }
            eprintln!("a passing check failed, tried again:\n{}", run.stderr);
        }
        last.expect("the passing check never passed")
    };
    let (workspace, run) = passing;
    assert_eq!(run.step("Run the referee"), Some(0), "{}", run.stderr);
    assert_eq!(run.outputs["run.outputs.result"], "pass");
    assert_eq!(run.step("Install the referee from its repository"), None);
    assert_eq!(run.step("Debian package"), None);
    assert_eq!(run.step("Upload"), Some(0));
    let report = workspace.path().join("referee-report");
    let junit = std::fs::read_to_string(report.join("junit.xml")).unwrap();
    assert!(junit.contains("<testcase"), "{junit}");
    assert!(
        report.join("html/index.html").exists(),
        "the HTML report to upload"
    );
    assert!(run.summary.contains("`referee check`"), "{}", run.summary);

    // The sleeping bot, 300 ms a move on a 200 ms limit, fails the check,
    // and so the job; the report is uploaded all the same.
    let workspace = tempfile::tempdir().unwrap();
    action_check_file(workspace.path());
    let sleepy = sleeper(300, "action");
    let run = run_action(
        workspace.path(),
        &[
            ("check", "bot-check.toml"),
            ("bot", &sleepy),
            ("report", "out/report"),
            ("args", "--jobs 1"),
        ],
    );
    assert!(run.failed, "a failed check fails the job:\n{}", run.stderr);
    assert_eq!(run.step("Run the referee"), Some(1), "{}", run.stderr);
    assert_eq!(run.outputs["run.outputs.result"], "fail");
    assert_eq!(run.step("Upload"), Some(0), "uploaded also on failure");
    let junit = std::fs::read_to_string(workspace.path().join("out/report/junit.xml")).unwrap();
    assert!(junit.contains("<failure"), "{junit}");
    assert!(run.summary.contains("fail"), "{}", run.summary);
    assert!(
        run.stderr.contains("::error::referee: fail"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_action_runs_an_sprt_and_refuses_inputs_that_make_no_run() {
    let workspace = tempfile::tempdir().unwrap();
    let random = sample_bin("arrow5_random");
    let constant = sample_bin("arrow5_constant");
    // Two games decide nothing: inconclusive, which fails the job.
    let run = run_action(
        workspace.path(),
        &[
            ("game", "arrow5"),
            ("new", &random),
            ("old", &constant),
            ("args", "--max-games 2 --jobs 1 --max-rounds 2"),
        ],
    );
    assert_eq!(run.step("Run the referee"), Some(3), "{}", run.stderr);
    assert_eq!(run.outputs["run.outputs.result"], "inconclusive");
    assert!(run.summary.contains("sprt"), "{}", run.summary);
    // Neither a check file nor an SPRT: the job fails before the referee runs.
    for given in [
        vec![],
        vec![("check", "x.toml"), ("game", "arrow5")],
        vec![("check", "x.toml"), ("sandbox", "none")],
    ] {
        let run = run_action(workspace.path(), &given);
        assert!(run.failed, "{given:?}");
        assert_eq!(
            run.step("Check the inputs"),
            Some(2),
            "{given:?}: {}",
            run.stderr
        );
        assert_eq!(run.step("Run the referee"), None, "{given:?}");
        assert!(run.stderr.contains("::error::"), "{}", run.stderr);
    }
}

#[test]
fn a_tournament_plays_scaled_limits_and_keeps_the_factor_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let constant = sample_bin("arrow5_constant");
    let sleepy = sleeper(300, "tournament");
    let file = two_bot_tournament(
        dir.path(),
        "arrow5",
        2,
        [("sleepy", &sleepy), ("constant", &constant)],
        "[options]\nmax_rounds = 2\n[limits]\ntime_limit = \"200ms\"\n",
    );
    let out = dir.path().join("results");
    // At 200 ms the sleeping bot times out; ten times that, 2 s, it keeps.
    let run = within_retries(
        || {
            let _ = std::fs::remove_dir_all(&out);
            referee(
                &[
                    "tournament",
                    file.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                    "--jobs",
                    "1",
                    "--time-scale",
                    "10",
                ],
                BUDGET,
            )
        },
        |run| {
            run.status == 0
                && csv_records(&out.join("games.csv"))
                    .iter()
                    .all(|row| !row.values().any(|v| v.contains("timeout")))
        },
    );
    assert!(
        run.stderr.contains("every time limit multiplied by 10"),
        "{}",
        run.stderr
    );
    let note = std::fs::read_to_string(out.join("sandbox.txt")).unwrap();
    assert!(note.contains("time scale: 10"), "{note}");
    let index = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(
        index.contains(r#"<span id="time-scale">time limits ×10</span>"#),
        "the report's header says the factor"
    );
    let transcript = std::fs::read_to_string(out.join("transcripts/game-000001.jsonl")).unwrap();
    let result = transcript
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["type"] == "result")
        .expect("a result line");
    let replay = result["record"]["replay"].as_str().unwrap();
    assert!(
        replay.contains("--time-limit 2s --startup-limit 50s"),
        "{replay}"
    );
}

/// Programs that stand in for the network and the system in the install
/// steps: each logs its command line to `$STUB_LOG`; `git ls-remote` finds
/// every tag, `curl -o FILE` writes an empty FILE, `sudo` runs its command.
fn install_stubs(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let log = r#"echo "$(basename "$0") $*" >> "$STUB_LOG""#;
    for (name, body) in [
        ("cargo", ""),
        ("git", ""),
        ("dpkg", ""),
        (
            "curl",
            r#"while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done"#,
        ),
        ("sudo", r#"exec "$@""#),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{log}\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn the_action_installs_the_referee_at_its_version_or_from_a_package() {
    let stubs = tempfile::tempdir().unwrap();
    install_stubs(stubs.path());
    let log = |workspace: &Path| {
        std::fs::read_to_string(workspace.join(".github-files/stub.log")).unwrap_or_default()
    };
    // A cache miss: cargo install from the action's repository at the tag
    // it is used at (GITHUB_ACTION_REF v0), then the check runs.
    let workspace = tempfile::tempdir().unwrap();
    action_check_file(workspace.path());
    let run = run_action_with(
        workspace.path(),
        &[("check", "bot-check.toml")],
        false,
        Some(stubs.path()),
    );
    assert_eq!(run.step("from its repository"), Some(0), "{}", run.stderr);
    assert_eq!(run.step("Debian package"), None);
    let calls = log(workspace.path());
    assert!(
        calls.contains(
            "cargo install --locked --git https://github.com/example/referee --tag v0 referee sample_bots"
        ),
        "{calls}"
    );
    let path = std::fs::read_to_string(workspace.path().join(".github-files/path")).unwrap();
    assert!(path.contains(".cargo/bin"), "{path}");
    assert!(run.step("Run the referee").is_some(), "{}", run.stderr);

    // A commit given as the version, from another repository.
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let workspace = tempfile::tempdir().unwrap();
    action_check_file(workspace.path());
    run_action_with(
        workspace.path(),
        &[
            ("check", "bot-check.toml"),
            ("version", commit),
            ("repository", "https://example.org/fork.git"),
        ],
        false,
        Some(stubs.path()),
    );
    let calls = log(workspace.path());
    assert!(
        calls.contains(&format!(
            "cargo install --locked --git https://example.org/fork.git --rev {commit} referee sample_bots"
        )),
        "{calls}"
    );

    // A cache hit installs nothing.
    let workspace = tempfile::tempdir().unwrap();
    action_check_file(workspace.path());
    let run = run_action_with(
        workspace.path(),
        &[("check", "bot-check.toml")],
        true,
        Some(stubs.path()),
    );
    assert_eq!(run.step("from its repository"), None);
    assert!(!log(workspace.path()).contains("cargo install"));

    // A package URL: downloaded and installed with dpkg, no cache, no build.
    let workspace = tempfile::tempdir().unwrap();
    action_check_file(workspace.path());
    let url = "https://example.org/releases/referee_0.1.0-1_amd64.deb";
    let run = run_action_with(
        workspace.path(),
        &[("check", "bot-check.toml"), ("deb-url", url)],
        false,
        Some(stubs.path()),
    );
    assert_eq!(run.step("Cache"), None);
    assert_eq!(run.step("from its repository"), None);
    assert_eq!(run.step("Debian package"), Some(0), "{}", run.stderr);
    let calls = log(workspace.path());
    let deb = workspace.path().join(".github-files/referee.deb");
    assert!(
        calls.contains(&format!("curl -fsSL -o {} {url}", deb.display())),
        "{calls}"
    );
    assert!(
        calls.contains(&format!("dpkg -i {}", deb.display())),
        "{calls}"
    );
    assert!(!calls.contains("cargo install"), "{calls}");
}
