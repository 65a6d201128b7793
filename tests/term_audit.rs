//! A term's class contest as its users meet it, through the real binary
//! and real bot processes. A newcomer teacher: the doc's collect
//! walkthrough run as written; a submission that is no bot (empty, two
//! candidate sources, two languages' entry files, no source) or a macOS
//! zip; a one-file Java submission named by its team; a class list with a
//! student twice or a team spelt otherwise; messages that name the team
//! and say what to do. An auditor: graded teams no student is in, and the
//! grades of a stopped run, are said. A hostile reader of the report: a
//! repository's token is never shown.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// Runs a Python script (zip archives made as their tools make them).
fn python(script: &str, args: &[&str]) {
    let status = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .status()
        .unwrap();
    assert!(status.success());
}

fn collect(dir: &Path, extra: &[&str]) -> Run {
    let reference = sample_bin("arrow5_random");
    let mut args = vec![
        "collect",
        "--game",
        "arrow5",
        "--from",
        "subs",
        "--reference",
        reference.as_str(),
        "--out",
        "bots",
    ];
    args.extend_from_slice(extra);
    referee_in(dir, &args, BUDGET)
}

/// Zips made by hand: one empty, one as macOS's Finder makes them (the
/// team's folder, `__MACOSX/` and a `.DS_Store` beside it).
const ZIPS: &str = r#"
import sys, zipfile
subs, source = sys.argv[1], open(sys.argv[2]).read()
zipfile.ZipFile(subs + "/hollow.zip", "w").close()
with zipfile.ZipFile(subs + "/mac.zip", "w") as z:
    z.writestr("our bot/", "")
    z.writestr("our bot/main.py", source)
    z.writestr("our bot/.DS_Store", "x")
    z.writestr("__MACOSX/", "")
    z.writestr("__MACOSX/our bot/._main.py", "resource fork")
    z.writestr(".DS_Store", "x")
"#;

#[test]
fn a_submission_that_is_no_bot_names_the_team_and_what_to_hand_in() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("pair")).unwrap();
    let starter = sample_file("python/arrow5_starter.py");
    for name in ["bot_v1.py", "bot_v2.py"] {
        fs::copy(&starter, subs.join("pair").join(name)).unwrap();
    }
    fs::create_dir(subs.join("both")).unwrap();
    fs::copy(&starter, subs.join("both/main.py")).unwrap();
    fs::copy(sample_file("c/arrow5_starter.c"), subs.join("both/main.c")).unwrap();
    fs::create_dir(subs.join("notes")).unwrap();
    fs::write(subs.join("notes/README.txt"), "the bot is on my laptop\n").unwrap();
    python(ZIPS, &[subs.to_str().unwrap(), &starter]);

    let run = collect(dir.path(), &[]);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows: std::collections::BTreeMap<String, _> =
        csv_records(&dir.path().join("bots/admission.csv"))
            .into_iter()
            .map(|r| (r["team"].clone(), r))
            .collect();
    // The Finder's archive stands for its one folder.
    assert_eq!(rows["mac"]["status"], "admitted", "{:?}", rows["mac"]);
    assert!(dir.path().join("bots/mac/main.py").is_file());
    for (team, says) in [
        ("hollow", ["subs/hollow.zip is empty", "hand in the bot"]),
        (
            "pair",
            [
                "2 source files (bot_v1.py, bot_v2.py)",
                "name the bot's main file as its entry file",
            ],
        ),
        ("notes", ["it holds README.txt", "main.py (python)"]),
        (
            "both",
            [
                "subs/both holds the entry files of 2 languages (main.c for c, main.py for python)",
                "keep only the bot's",
            ],
        ),
    ] {
        let row = &rows[team];
        assert_eq!(row["status"], "broken", "{team}: {row:?}");
        assert_eq!(row["reason"], "not recognised", "{team}: {row:?}");
        let message = &row["message"];
        assert!(
            message.starts_with(&format!("team '{team}': ")),
            "{message}"
        );
        for said in says {
            assert!(message.contains(said), "{team}: {message}");
        }
        // The folder it was unpacked in is gone: it is not named.
        assert!(!message.contains(".collect"), "{team}: {message}");
        assert!(
            run.stdout.contains(message.lines().next().unwrap()),
            "{}",
            run.stdout
        );
        assert!(!dir.path().join("bots").join(team).exists(), "{team}");
    }
}

#[test]
fn a_class_list_grading_would_refuse_is_refused_by_collect() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("alpha")).unwrap();
    fs::copy(
        sample_file("python/arrow5_starter.py"),
        subs.join("alpha/main.py"),
    )
    .unwrap();
    for (roster, says) in [
        (
            // A row repeated whole is one student.
            "student,team\nann,alpha\nbob,beta\nann,alpha\nbob,alpha\n",
            "roster.csv:5: the student 'bob' is listed twice, in the teams 'beta' and 'alpha'",
        ),
        (
            "student,team\nann,alpha\n,beta\n",
            "roster.csv:3: no student's name",
        ),
    ] {
        fs::write(dir.path().join("roster.csv"), roster).unwrap();
        let run = collect(dir.path(), &["--roster", "roster.csv"]);
        assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert!(!dir.path().join("bots").exists());
    }
    // The same list once each student is in one team: collected.
    fs::write(
        dir.path().join("roster.csv"),
        "student,team\nann,alpha\nbob,beta\nann,alpha\n",
    )
    .unwrap();
    let run = collect(dir.path(), &["--roster", "roster.csv"]);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = csv_records(&dir.path().join("bots/admission.csv"));
    let status: Vec<_> = rows
        .iter()
        .map(|r| (r["team"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(status, [("alpha", "admitted"), ("beta", "missing")]);
    // A team the roster spells otherwise than its submission, in case
    // only: both sides say so.
    fs::write(dir.path().join("roster.csv"), "student,team\nann,Alpha\n").unwrap();
    let run = collect(dir.path(), &["--roster", "roster.csv"]);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows: std::collections::BTreeMap<String, _> =
        csv_records(&dir.path().join("bots/admission.csv"))
            .into_iter()
            .map(|r| (r["team"].clone(), r))
            .collect();
    let (roster_team, submitted) = (&rows["Alpha"], &rows["alpha"]);
    assert_eq!(roster_team["status"], "missing", "{rows:?}");
    assert!(
        roster_team["message"].contains("a submission is named 'alpha'"),
        "{rows:?}"
    );
    assert_eq!(submitted["reason"], "not on the roster", "{rows:?}");
    assert!(
        submitted["message"].contains("the roster has the team 'Alpha'"),
        "{rows:?}"
    );
    assert!(!dir.path().join("bots/alpha").exists());
}

#[test]
fn a_java_file_named_by_its_team_is_admitted() {
    // The starter's public class is `Arrow5Starter`; the file handed in
    // is named by the team, as a one-file submission is.
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir(&subs).unwrap();
    fs::copy(
        sample_file("java/Arrow5Starter.java"),
        subs.join("team7.java"),
    )
    .unwrap();
    let run = collect(dir.path(), &[]);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = csv_records(&dir.path().join("bots/admission.csv"));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0]["team"].as_str(), rows[0]["status"].as_str()),
        ("team7", "admitted"),
        "{rows:?}"
    );
    assert_eq!(rows[0]["language"], "java");
    // Its folder holds the file under its class's name, which a
    // tournament's `bots_dir` takes as the team's bot.
    let files: Vec<_> = fs::read_dir(dir.path().join("bots/team7"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["Arrow5Starter.java"]);
    assert_eq!(
        fs::read(dir.path().join("bots/team7/Arrow5Starter.java")).unwrap(),
        fs::read(subs.join("team7.java")).unwrap()
    );
}

/// The fenced block of `lang` in `doc` that holds `needle`.
fn doc_block<'a>(doc: &'a str, lang: &str, needle: &str) -> &'a str {
    let fence = format!("```{lang}\n");
    doc.split(fence.as_str())
        .skip(1)
        .map(|rest| &rest[..rest.find("```").unwrap()])
        .find(|block| block.contains(needle))
        .unwrap_or_else(|| panic!("no ```{lang} block with {needle:?}"))
}

/// The command of `block` that starts with `start`, its `\` continuations
/// joined and its trailing comment cut, as words (the doc's commands have
/// no quotes).
fn doc_command(block: &str, start: &str) -> Vec<String> {
    let joined = block.replace("\\\n", " ");
    let line = joined
        .lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no command {start:?} in {block}"));
    let line = line.split("  #").next().unwrap();
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_docs_term_walkthrough_runs_as_written() {
    // A folder laid out as the doc's commands expect (they run from the
    // repository root, after a release build): target/release holds the
    // referee and the sample bots.
    let dir = tempfile::tempdir().unwrap();
    let built = Path::new(&sample_bin("arrow5_random"))
        .parent()
        .unwrap()
        .to_path_buf();
    fs::create_dir(dir.path().join("target")).unwrap();
    std::os::unix::fs::symlink(&built, dir.path().join("target/release")).unwrap();
    let subs = dir.path().join("submissions");
    fs::create_dir_all(subs.join("alpha")).unwrap();
    fs::copy(
        sample_file("python/arrow5_starter.py"),
        subs.join("alpha/main.py"),
    )
    .unwrap();
    fs::copy(sample_file("js/arrow5_starter.js"), subs.join("gamma.js")).unwrap();
    fs::write(
        dir.path().join("roster.csv"),
        "student,team\nann,alpha\ncat,gamma\n",
    )
    .unwrap();

    let doc = fs::read_to_string(root().join("docs/running-a-contest.md")).unwrap();
    let run = |words: Vec<String>| {
        let mut command = Command::new(dir.path().join(&words[0]));
        command.args(&words[1..]).current_dir(dir.path());
        run_within(command, BUDGET)
    };
    let collect = doc_command(
        doc_block(&doc, "sh", "referee collect"),
        "target/release/referee collect",
    );
    let done = run(collect);
    assert_eq!(done.status, 0, "{}\n{}", done.stdout, done.stderr);
    assert!(done.stdout.contains("2 admitted"), "{}", done.stdout);

    fs::write(
        dir.path().join("term.toml"),
        doc_block(&doc, "toml", "bots_dir = \"bots\""),
    )
    .unwrap();
    let term = doc_block(&doc, "sh", "--update");
    for (words, says) in [
        (
            doc_command(
                term,
                "target/release/referee tournament term.toml --out results/term --dry-run",
            ),
            "6 of 6 games to play",
        ),
        (
            doc_command(
                term,
                "target/release/referee tournament term.toml --out results/term --update",
            ),
            "6 of 6 games",
        ),
    ] {
        let done = run(words);
        assert_eq!(done.status, 0, "{}\n{}", done.stdout, done.stderr);
        assert!(
            done.stdout.contains(says),
            "{}\n{}",
            done.stdout,
            done.stderr
        );
    }
    let standings = csv_records(&dir.path().join("results/term/standings.csv"));
    let mut bots: Vec<_> = standings.iter().map(|r| r["bot"].as_str()).collect();
    bots.sort();
    assert_eq!(bots, ["alpha", "gamma", "reference"]);
}

/// A graded gauntlet of Arrow 5 (2 games a pairing against `random`, 50
/// marks for half of them won): `random`, `alpha` (the strong sample bot)
/// and a third bot `name`, its lines `third`; `grading` more lines of the
/// `[grading]` table.
fn term_file(grading: &str, name: &str, third: &str) -> String {
    format!(
        "name = \"term\"\ngame = \"arrow5\"\nformat = \"gauntlet\"\nchallengers = [\"random\"]\n\
         games_per_pairing = 2\nseed = 3\n\
         [grading]\nreferences = [\"random\"]\n{grading}\
         bands = [{{ against = \"random\", win_rate = 0.5, marks = 50 }}]\n\
         [[bots]]\nname = \"random\"\nbot = \"{random}\"\n\
         [[bots]]\nname = \"alpha\"\nbot = \"{strong}\"\n\
         [[bots]]\nname = \"{name}\"\n{third}\n",
        random = sample_bin("arrow5_random"),
        strong = sample_bin("arrow5_strong"),
    )
}

#[test]
fn graded_teams_no_student_is_in_are_named() {
    // The roster spells a team otherwise than its bot: its student would
    // get 0 and the bot's marks nobody, without a word.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("term.toml");
    let beta = format!("bot = \"{}\"", sample_bin("arrow5_strong"));
    fs::write(&file, term_file("roster = \"roster.csv\"\n", "beta", &beta)).unwrap();
    fs::write(
        dir.path().join("roster.csv"),
        "student,team\nann,Alpha\nbob,beta\n",
    )
    .unwrap();
    let run = referee_in(
        dir.path(),
        &["tournament", "term.toml", "--out", "res", "--jobs", "2"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    // Every game was played: no word of a part of them.
    assert!(!run.stderr.contains("games scheduled"), "{}", run.stderr);
    let warning = run
        .stderr
        .lines()
        .find(|l| l.starts_with("warning: no student of the roster"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        warning.contains("roster.csv is in the teams 'alpha':")
            && warning.contains("without a bot, whose students get 0: 'Alpha'"),
        "{warning}"
    );
    // The grades are as they were: the warning changes no mark.
    let students = csv_records(&dir.path().join("res/grades/students.csv"));
    assert_eq!(students[0]["marks"], "0", "{students:?}");
    // Put right, and graded again without playing: no warning.
    fs::write(
        dir.path().join("roster.csv"),
        "student,team\nann,alpha\nbob,beta\n",
    )
    .unwrap();
    let run = referee_in(dir.path(), &["grade", "res", "--file", "term.toml"], BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    let students = csv_records(&dir.path().join("res/grades/students.csv"));
    assert_eq!(students[0]["team"], "alpha", "{students:?}");
    let grades = csv_records(&dir.path().join("res/grades/grades.csv"));
    let alpha = grades.iter().find(|g| g["team"] == "alpha").unwrap();
    assert_eq!(students[0]["marks"], alpha["marks"], "{grades:?}");
}

#[test]
fn grades_of_a_stopped_run_say_they_are_of_part_of_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let sleeper = dir.path().join("sleeper.py");
    fs::write(&sleeper, "import time\ntime.sleep(1000)\n").unwrap();
    let sleepy = "bot = \"sleeper.py\"\nstartup_limit = \"600s\"";
    fs::write(
        dir.path().join("term.toml"),
        term_file("", "sleepy", sleepy),
    )
    .unwrap();
    let mut child = Command::new(referee_bin())
        .args(["tournament", "term.toml", "--out", "res", "--jobs", "1"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let marker = sleeper.display().to_string();
    let found = wait_for_processes(&marker, 1, BUDGET);
    assert!(!found.is_empty(), "the sleeper never started");
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    use wait_timeout::ChildExt;
    let Some(status) = child.wait_timeout(BUDGET).unwrap() else {
        child.kill().ok();
        panic!("the tournament did not stop after Ctrl-C");
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    let played = csv_records(&dir.path().join("res/games.csv")).len();
    assert!(played < 4, "{played}");
    assert!(
        stderr.contains(&format!(
            "warning: the grades are of {played} of the 4 games scheduled; finish the run (--resume)"
        )),
        "{stderr}"
    );
    assert!(dir.path().join("res/grades/grades.csv").is_file());
    assert!(gone_within(&marker, BUDGET).is_empty());
}

#[test]
fn a_repository_token_is_used_but_never_shown() {
    use std::io::{Read, Write};
    // A server that records each request and answers that the password
    // is wrong.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (told, heard) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut request = Vec::new();
            let mut byte = [0u8; 1];
            while !request.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                request.push(byte[0]);
            }
            let _ = told.send(String::from_utf8_lossy(&request).into_owned());
            let _ = stream.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"class\"\r\n\
                  Content-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let secret = "glpat-s3cr3tT0ken";
    fs::write(
        dir.path().join("repos.csv"),
        format!("team,url,ref\nteam1,http://oauth2:{secret}@127.0.0.1:{port}/team1.git,main\n"),
    )
    .unwrap();
    let reference = sample_bin("arrow5_random");
    let run = referee_in(
        dir.path(),
        &[
            "collect",
            "--game",
            "arrow5",
            "--repos",
            "repos.csv",
            "--reference",
            &reference,
            "--out",
            "bots",
            "--events",
            "events.jsonl",
            "--git-timeout",
            "20s",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    // git was given the token: it sent it.
    let requests: Vec<String> = heard.try_iter().collect();
    let basic = base64(format!("oauth2:{secret}").as_bytes());
    assert!(requests.iter().any(|r| r.contains(&basic)), "{requests:?}");
    let rows = csv_records(&dir.path().join("bots/admission.csv"));
    assert_eq!(rows[0]["status"], "broken", "{rows:?}");
    assert_eq!(
        rows[0]["source"],
        format!("http://***@127.0.0.1:{port}/team1.git@main")
    );
    assert!(rows[0]["message"].contains("team 'team1'"), "{rows:?}");
    for (what, text) in [
        ("stdout", run.stdout.clone()),
        ("stderr", run.stderr.clone()),
        (
            "admission.csv",
            fs::read_to_string(dir.path().join("bots/admission.csv")).unwrap(),
        ),
        (
            "events",
            fs::read_to_string(dir.path().join("events.jsonl")).unwrap(),
        ),
    ] {
        assert!(!text.contains(secret), "{what}: {text}");
    }
}

/// Standard Base64 with padding (HTTP Basic authentication's encoding).
fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
