//! `referee collect`: submissions (folders, archives, git) into a folder of
//! bots with an admission report, crafted archives refused with nothing
//! written outside, and a tournament taking its bots from the folder.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);
const DEADLINE: &str = "2026-12-01T18:00:00Z";
/// Seconds since 1970 of `DEADLINE`.
const DEADLINE_SECS: i64 = 1_796_148_000;

/// Sets the mtime of `path` and everything in it.
fn touch_all(path: &Path, secs: i64) {
    let status = Command::new("find")
        .arg(path)
        .args(["-exec", "touch", "-h", "-d", &format!("@{secs}"), "{}", "+"])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Runs a Python script (the archives are crafted with zipfile and
/// tarfile, which write entries no archiver would).
fn python(script: &str, args: &[&str]) {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn team_folder(from: &Path, team: &str, file: &str, source: &str) {
    fs::create_dir_all(from.join(team)).unwrap();
    fs::copy(sample_file(source), from.join(team).join(file)).unwrap();
}

fn rows_by_team(
    path: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> {
    csv_records(path)
        .into_iter()
        .map(|r| (r["team"].clone(), r))
        .collect()
}

#[test]
fn six_teams_are_collected_reported_and_play_a_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("submissions");
    fs::create_dir(&from).unwrap();
    team_folder(&from, "alpha", "main.py", "python/arrow5_starter.py");
    team_folder(&from, "Bravo Team", "main.c", "c/arrow5_starter.c");
    fs::create_dir(from.join("echo")).unwrap();
    fs::write(
        from.join("echo/main.c"),
        "int main(void) { this is not C; }\n",
    )
    .unwrap();
    team_folder(&from, "foxtrot", "main.py", "python/arrow5_starter.py");
    // One folder per submission, named by its date: the one before the
    // deadline counts, whatever the files' mtimes.
    team_folder(
        &from,
        "hotel/2026-11-30",
        "main.py",
        "python/arrow5_starter.py",
    );
    fs::create_dir_all(from.join("hotel/2026-12-02T09:00:00Z")).unwrap();
    fs::write(
        from.join("hotel/2026-12-02T09:00:00Z/main.py"),
        "this is not python\n",
    )
    .unwrap();
    let starter = sample_file("python/arrow5_starter.py");
    python(
        "import sys, zipfile\n\
         with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n\
         \x20   z.write(sys.argv[2], 'charlie/main.py')\n",
        &[from.join("charlie.zip").to_str().unwrap(), &starter],
    );
    python(
        "import sys, tarfile\n\
         with tarfile.open(sys.argv[1], 'w:gz') as t:\n\
         \x20   t.add(sys.argv[2], 'main.py')\n",
        &[from.join("delta.tar.gz").to_str().unwrap(), &starter],
    );
    // One source file, alone or beside a README.
    fs::copy(&starter, from.join("india.py")).unwrap();
    team_folder(&from, "juliet", "bot.py", "python/arrow5_starter.py");
    fs::write(from.join("juliet/README.md"), "Our bot.\n").unwrap();
    // A team the roster does not know.
    team_folder(&from, "kilo", "main.py", "python/arrow5_starter.py");
    for team in [
        "alpha",
        "Bravo Team",
        "echo",
        "charlie.zip",
        "delta.tar.gz",
        "hotel",
        "india.py",
        "juliet",
    ] {
        touch_all(&from.join(team), DEADLINE_SECS - 86_400);
    }
    touch_all(&from.join("foxtrot"), DEADLINE_SECS + 3_600);
    let roster = dir.path().join("roster.csv");
    fs::write(
        &roster,
        "student,team\nann,alpha\nbob,Bravo Team\ncid,charlie\ndee,delta\neve,echo\nfay,foxtrot\ngus,golf\nhal,hotel\nian,india\njo,juliet\n",
    )
    .unwrap();
    let reference = sample_bin("arrow5_random");
    let bots = dir.path().join("bots");
    let collect_args = [
        "collect",
        "--game",
        "arrow5",
        "--from",
        "submissions",
        "--roster",
        "roster.csv",
        "--deadline",
        DEADLINE,
        "--reference",
        &reference,
        "--out",
        "bots",
    ];
    let run = referee_in(dir.path(), &collect_args, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&bots.join("admission.csv"));
    let expected = [
        ("alpha", "admitted", "python", ""),
        ("Bravo_Team", "admitted", "c", ""),
        ("charlie", "admitted", "python", ""),
        ("delta", "admitted", "python", ""),
        ("echo", "broken", "c", "compile"),
        ("foxtrot", "missing", "", "late"),
        ("golf", "missing", "", "no submission"),
        ("hotel", "admitted", "python", ""),
        ("india", "admitted", "python", ""),
        ("juliet", "admitted", "python", ""),
        ("kilo", "broken", "", "not on the roster"),
    ];
    let mut teams: Vec<&str> = expected.iter().map(|e| e.0).collect();
    teams.sort();
    assert_eq!(
        rows.keys().map(String::as_str).collect::<Vec<_>>(),
        teams,
        "{}",
        run.stdout
    );
    for (team, status, language, reason) in expected {
        let row = &rows[team];
        assert_eq!(row["status"], status, "{team}: {row:?}");
        assert_eq!(row["language"], language, "{team}: {row:?}");
        assert_eq!(row["reason"], reason, "{team}: {row:?}");
        // A one-file team has a folder of its own too, its file named as
        // it was handed in.
        let placed = match team {
            "india" => bots.join("india/india.py").is_file(),
            "juliet" => bots.join("juliet/bot.py").is_file(),
            _ => bots.join(team).is_dir(),
        };
        assert_eq!(placed, status == "admitted", "{team}");
    }
    // The compiler's message is in the report, and on the terminal.
    assert!(
        rows["echo"]["message"].contains("error"),
        "{:?}",
        rows["echo"]
    );
    assert!(run.stdout.contains("echo") && run.stdout.contains("compile"));
    assert!(
        run.stdout.contains("7 admitted, 2 broken, 2 missing"),
        "{}",
        run.stdout
    );
    // Nothing is left of the unpacking; the one hidden file is collect's
    // record of the folders it made.
    let left: Vec<_> = fs::read_dir(&bots)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !left
            .iter()
            .any(|n| n.starts_with('.') && n != ".collect-made"),
        "{left:?}"
    );

    // A tournament takes its bots from the folder, with a reference bot.
    let file = dir.path().join("t.toml");
    fs::write(
        &file,
        format!(
            "name = \"term\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nseed = 3\nbots_dir = \"bots\"\n\
             [[bots]]\nname = \"reference\"\nbot = \"{reference}\"\n"
        ),
    )
    .unwrap();
    let results = dir.path().join("results");
    let run = referee_in(
        dir.path(),
        &["tournament", "t.toml", "--out", "results", "--jobs", "2"],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let mut names: Vec<String> = csv_records(&results.join("standings.csv"))
        .into_iter()
        .map(|r| r["bot"].clone())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "Bravo_Team",
            "alpha",
            "charlie",
            "delta",
            "hotel",
            "india",
            "juliet",
            "reference"
        ]
    );
}

#[test]
fn a_bots_dir_that_is_missing_is_named() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("t.toml"),
        "game = \"arrow5\"\nbots_dir = \"nowhere\"\n",
    )
    .unwrap();
    let run = referee_in(
        dir.path(),
        &["tournament", "t.toml", "--out", "r", "--dry-run"],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("bots_dir") && run.stderr.contains("nowhere"),
        "{}",
        run.stderr
    );
}

/// Crafts one archive per attack, each the submission of a team.
const CRAFT: &str = r#"
import io, sys, tarfile, zipfile, os
from_dir, outside = sys.argv[1], sys.argv[2]
main = b"print('hi')\n"

with zipfile.ZipFile(os.path.join(from_dir, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("main.py", main)
    z.writestr("zeros.bin", b"\0" * (12 << 20))

with zipfile.ZipFile(os.path.join(from_dir, "climb.zip"), "w") as z:
    z.writestr("main.py", main)
    z.writestr("../../climbed.txt", b"out")

def tar(name, info, data=b""):
    with tarfile.open(os.path.join(from_dir, name), "w:gz") as t:
        m = tarfile.TarInfo("main.py"); m.size = len(main)
        t.addfile(m, io.BytesIO(main))
        info.size = len(data) if info.type == tarfile.REGTYPE else 0
        t.addfile(info, io.BytesIO(data) if data else None)

a = tarfile.TarInfo(os.path.join(outside, "absolute.txt")); a.type = tarfile.REGTYPE
tar("absolute.tar.gz", a, b"out")
s = tarfile.TarInfo("link"); s.type = tarfile.SYMTYPE; s.linkname = outside
tar("symlink.tar.gz", s)
h = tarfile.TarInfo("hard"); h.type = tarfile.LNKTYPE; h.linkname = os.path.join(outside, "victim.txt")
tar("hardlink.tar.gz", h)
d = tarfile.TarInfo("dev"); d.type = tarfile.CHRTYPE; d.devmajor = 1; d.devminor = 3
tar("device.tar.gz", d)

with zipfile.ZipFile(os.path.join(from_dir, "huge.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("main.py", main)
    z.writestr("huge.bin", b"\0" * (17 << 20))

with zipfile.ZipFile(os.path.join(from_dir, "many.zip"), "w") as z:
    z.writestr("main.py", main)
    for i in range(2001):
        z.writestr(f"f{i}.txt", b"")

for name in ("garbage.zip", "garbagetar.tar.gz"):
    with open(os.path.join(from_dir, name), "wb") as f:
        f.write(b"not an archive at all\n" * 10)

# The same name twice: the zip crate keeps only the last copy.
import warnings
warnings.simplefilter("ignore")
with zipfile.ZipFile(os.path.join(from_dir, "twice.zip"), "w") as z:
    z.writestr("main.py", b"raise SystemExit(1)\n")
    z.writestr("main.py", main)

info = zipfile.ZipInfo("zlink")
info.external_attr = (0o120777 << 16)
with zipfile.ZipFile(os.path.join(from_dir, "ziplink.zip"), "w") as z:
    z.writestr("main.py", main)
    z.writestr(info, outside)
"#;

#[test]
fn crafted_archives_are_refused_and_nothing_is_written_outside() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("deep/er/submissions");
    fs::create_dir_all(&from).unwrap();
    let outside = dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("victim.txt"), "untouched").unwrap();
    python(CRAFT, &[from.to_str().unwrap(), outside.to_str().unwrap()]);
    // A team folder holding a link out.
    fs::create_dir(from.join("linked")).unwrap();
    fs::write(from.join("linked/main.py"), "print('hi')\n").unwrap();
    std::os::unix::fs::symlink(outside.join("victim.txt"), from.join("linked/secret")).unwrap();
    // A link in place of a submission: that team is broken, not the run.
    std::os::unix::fs::symlink(&outside, from.join("symdir")).unwrap();
    let before = listing(dir.path());
    let reference = sample_bin("arrow5_random");
    let run = referee_in(
        dir.path(),
        &[
            "collect",
            "--game",
            "arrow5",
            "--from",
            "deep/er/submissions",
            "--reference",
            &reference,
            "--out",
            "deep/er/bots",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&dir.path().join("deep/er/bots/admission.csv"));
    let entries = [
        ("bomb", "zeros.bin", "zip bomb"),
        ("climb", "../../climbed.txt", ".."),
        ("absolute", "absolute.txt", "absolute"),
        ("symlink", "link", "symbolic link"),
        ("hardlink", "hard", "hard link"),
        ("device", "dev", "device"),
        ("ziplink", "zlink", "symbolic link"),
        ("huge", "huge.bin", "at most"),
        ("many", "", "2000"),
        ("linked", "secret", "symbolic link"),
        ("twice", "", "a name appears twice"),
        ("symdir", "", "it is a symbolic link"),
        ("garbage", "", "not a readable zip archive"),
        ("garbagetar", "", "cannot read"),
    ];
    assert_eq!(rows.len(), entries.len(), "{rows:?}");
    for (team, entry, why) in entries {
        let row = &rows[team];
        assert_eq!(row["status"], "broken", "{team}: {row:?}");
        assert_eq!(row["reason"], "refused", "{team}: {row:?}");
        let message = &row["message"];
        assert!(
            message.contains(&format!("team '{team}'"))
                && message.contains(entry)
                && message.contains(why),
            "{team}: {message}"
        );
        assert!(
            !dir.path().join("deep/er/bots").join(team).exists(),
            "{team}"
        );
    }
    // Nothing new anywhere but the report: the bots folder holds only it.
    let mut after = listing(dir.path());
    after.retain(|p| !p.starts_with("deep/er/bots"));
    assert_eq!(before, after);
    assert_eq!(
        fs::read_to_string(outside.join("victim.txt")).unwrap(),
        "untouched"
    );
    let mut in_bots: Vec<_> = fs::read_dir(dir.path().join("deep/er/bots"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    in_bots.sort();
    assert_eq!(in_bots, [".collect-made", "admission.csv"]);
}

/// Every path under `root`, relative, sorted.
fn listing(root: &Path) -> Vec<String> {
    let mut all = Vec::new();
    let mut queue = vec![root.to_path_buf()];
    while let Some(dir) = queue.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            all.push(
                path.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
            if path.is_dir() && !path.is_symlink() {
                queue.push(path);
            }
        }
    }
    all.sort();
    all
}

fn git(repo: &Path, date: &str, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .current_dir(repo)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn git_repositories_give_a_tag_or_the_last_commit_before_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    fs::create_dir(&repo).unwrap();
    git(
        &repo,
        "2026-01-01T00:00:00Z",
        &["init", "--quiet", "-b", "main"],
    );
    fs::copy(
        sample_file("python/arrow5_starter.py"),
        repo.join("main.py"),
    )
    .unwrap();
    git(&repo, "2026-01-01T00:00:00Z", &["add", "main.py"]);
    git(
        &repo,
        "2026-01-01T00:00:00Z",
        &["commit", "--quiet", "-m", "works"],
    );
    git(&repo, "2026-01-01T00:00:00Z", &["tag", "v1"]);
    // After the deadline, the bot is broken.
    fs::write(repo.join("main.py"), "this is not python\n").unwrap();
    git(
        &repo,
        "2026-12-24T00:00:00Z",
        &["commit", "--quiet", "-am", "late and broken"],
    );
    let url = repo.to_str().unwrap();
    fs::write(
        dir.path().join("repos.csv"),
        format!("team,url,ref\ntagged,{url},v1\nbranch,{url},main\nnone,{url},no-such-ref\n"),
    )
    .unwrap();
    let reference = sample_bin("arrow5_random");
    let collect = |deadline: Option<&str>| {
        let mut args = vec![
            "collect",
            "--game",
            "arrow5",
            "--repos",
            "repos.csv",
            "--reference",
            &reference,
            "--out",
            "bots",
        ];
        if let Some(d) = deadline {
            args.extend(["--deadline", d]);
        }
        let run = referee_in(dir.path(), &args, BUDGET);
        assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
        rows_by_team(&dir.path().join("bots/admission.csv"))
    };
    let rows = collect(Some(DEADLINE));
    assert_eq!(rows["tagged"]["status"], "admitted", "{rows:?}");
    assert_eq!(rows["branch"]["status"], "admitted", "{rows:?}");
    assert_eq!(rows["none"]["status"], "broken", "{rows:?}");
    assert!(rows["none"]["message"].contains("no-such-ref"), "{rows:?}");
    assert!(dir.path().join("bots/branch/main.py").is_file());
    assert!(!dir.path().join("bots/branch/.git").exists());
    // Without the deadline the branch's last commit counts: it is broken,
    // and its folder of the earlier run is gone.
    let rows = collect(None);
    assert_eq!(rows["tagged"]["status"], "admitted", "{rows:?}");
    assert_eq!(rows["branch"]["status"], "broken", "{rows:?}");
    assert!(!dir.path().join("bots/branch").exists());
}

/// A server on this machine for the test's git URLs: every connection is
/// held open unanswered (`silent`), or answered that a password is needed.
fn git_server(silent: bool) -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for mut stream in listener.incoming().flatten() {
            if silent {
                held.push(stream);
                continue;
            }
            let mut request = Vec::new();
            let mut byte = [0u8; 1];
            while !request.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                request.push(byte[0]);
            }
            let _ = stream.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"class\"\r\n\
                  Content-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    port
}

#[test]
fn git_that_hangs_or_wants_a_password_breaks_only_its_team() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    fs::create_dir(&repo).unwrap();
    git(&repo, DEADLINE, &["init", "--quiet", "-b", "main"]);
    fs::copy(
        sample_file("python/arrow5_starter.py"),
        repo.join("main.py"),
    )
    .unwrap();
    git(&repo, DEADLINE, &["add", "main.py"]);
    git(&repo, DEADLINE, &["commit", "--quiet", "-m", "works"]);
    let (silent, locked) = (git_server(true), git_server(false));
    let (silent_url, locked_url) = (
        format!("git://127.0.0.1:{silent}/team.git"),
        format!("http://127.0.0.1:{locked}/team.git"),
    );
    fs::write(
        dir.path().join("repos.csv"),
        format!(
            "team,url,ref\ngood,{},main\nsilent,{silent_url},main\nlocked,{locked_url},main\n",
            repo.display()
        ),
    )
    .unwrap();
    // Every way git has to ask for a password, set up as a trap that
    // leaves a trace: an askpass program (by the environment and by the
    // configuration) and a credential helper.
    let asked = dir.path().join("asked");
    let askpass = dir.path().join("askpass.sh");
    fs::write(
        &askpass,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\necho secret\n",
            asked.display()
        ),
    )
    .unwrap();
    fs::set_permissions(
        &askpass,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let config = dir.path().join("gitconfig");
    fs::write(
        &config,
        format!(
            "[core]\n\taskPass = {0}\n[credential]\n\thelper = !{0}\n",
            askpass.display()
        ),
    )
    .unwrap();
    let reference = sample_bin("arrow5_random");
    let mut command = Command::new(referee_bin());
    command
        .args(["collect", "--game", "arrow5", "--repos", "repos.csv"])
        .args([
            "--reference",
            &reference,
            "--out",
            "bots",
            "--git-timeout",
            "3s",
        ])
        .current_dir(dir.path())
        .env("GIT_ASKPASS", &askpass)
        .env("SSH_ASKPASS", &askpass)
        .env("GIT_CONFIG_GLOBAL", &config);
    let started = std::time::Instant::now();
    let run = run_within(command, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&dir.path().join("bots/admission.csv"));
    assert_eq!(rows["good"]["status"], "admitted", "{rows:?}");
    for (team, url) in [("silent", &silent_url), ("locked", &locked_url)] {
        let row = &rows[team];
        assert_eq!(row["status"], "broken", "{rows:?}");
        assert!(
            row["message"].contains(&format!("team '{team}'"))
                && row["message"].contains(url.as_str()),
            "{rows:?}"
        );
        assert!(!dir.path().join("bots").join(team).exists());
    }
    assert!(
        rows["silent"]["message"].contains("no answer within 3s"),
        "{rows:?}"
    );
    assert!(
        !asked.exists(),
        "git asked for a password: {}",
        fs::read_to_string(&asked).unwrap_or_default()
    );
    // The silent server was given up on after its 3 s, not waited for.
    assert!(started.elapsed() < BUDGET / 2, "{:?}", started.elapsed());
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let reference = sample_bin("arrow5_random");
    let base = [
        "collect",
        "--game",
        "arrow5",
        "--reference",
        reference.as_str(),
        "--out",
        "bots",
    ];
    let run = referee_in(dir.path(), &base, BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("--from"), "{}", run.stderr);
    let mut args = base.to_vec();
    args.extend(["--from", "missing"]);
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("missing"), "{}", run.stderr);
    fs::create_dir_all(dir.path().join("subs/x")).unwrap();
    fs::write(dir.path().join("subs/x.zip"), "").unwrap();
    let mut args = base.to_vec();
    args.extend(["--from", "subs", "--deadline", "next friday"]);
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("--deadline"), "{}", run.stderr);
    // Two submissions of one team name break that team, not the run
    // (tests `names_keep_their_letters_and_a_bad_name_breaks_only_its_team`).
    let mut args = base.to_vec();
    args.extend(["--from", "subs"]);
    args[6] = "clash";
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&dir.path().join("clash/admission.csv"));
    assert!(
        rows["x"]["message"].contains("'x'") && rows["x"]["message"].contains("x.zip"),
        "{rows:?}"
    );
    // CSVs without their columns.
    fs::write(dir.path().join("repos.csv"), "name,where\na,b\n").unwrap();
    let mut args = base.to_vec();
    args.extend(["--repos", "repos.csv"]);
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("repos.csv") && run.stderr.contains("team,url,ref"),
        "{}",
        run.stderr
    );
    fs::write(dir.path().join("roster.csv"), "who\nann\n").unwrap();
    let mut args = base.to_vec();
    args.extend(["--repos", "repos.csv", "--roster", "roster.csv"]);
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("roster.csv") && run.stderr.contains("student,team"),
        "{}",
        run.stderr
    );
    // A reference that does not play is bad input, before any team plays.
    fs::write(dir.path().join("bad_ref.py"), "print('nonsense')\n").unwrap();
    let mut args = base.to_vec();
    args.extend(["--from", "subs"]);
    args[4] = "bad_ref.py";
    fs::remove_file(dir.path().join("subs/x.zip")).unwrap();
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("--reference") && run.stderr.contains("bad_ref.py"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("bots/admission.csv").exists());
    let mut args = base.to_vec();
    args.extend(["--from", "subs"]);
    args[6] = "subs/bots";
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("inside"), "{}", run.stderr);
    assert!(!dir.path().join("bots").exists());
    assert!(!dir.path().join("subs/bots").exists());
    // A folder collect did not write: a team's name there could be the
    // user's own file, which collect would replace or remove.
    fs::create_dir_all(dir.path().join("mine/x")).unwrap();
    fs::write(dir.path().join("mine/x.py"), "precious\n").unwrap();
    let mut args = base.to_vec();
    args.extend(["--from", "subs"]);
    args[6] = "mine";
    let run = referee_in(dir.path(), &args, BUDGET);
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("mine") && run.stderr.contains("admission.csv"),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("mine/x.py")).unwrap(),
        "precious\n"
    );
    assert!(dir.path().join("mine/x").is_dir());
}

#[test]
fn ctrl_c_keeps_the_teams_done() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    team_folder(&from, "aaa", "main.py", "python/arrow5_starter.py");
    fs::create_dir(from.join("zzz")).unwrap();
    fs::write(from.join("zzz/main.py"), "import time\ntime.sleep(1000)\n").unwrap();
    let reference = sample_bin("arrow5_random");
    let mut child = Command::new(referee_bin())
        .args([
            "collect",
            "--game",
            "arrow5",
            "--from",
            "subs",
            "--reference",
            &reference,
            "--out",
            "bots",
            "--startup-limit",
            "600s",
        ])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The sleeper's process, started once `aaa` is done.
    let marker = format!("{}/bots/.collect/zzz/main.py", dir.path().display());
    let found = wait_for_processes(&marker, 1, BUDGET);
    assert!(!found.is_empty(), "the sleeper never started");
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    use wait_timeout::ChildExt;
    let status = child.wait_timeout(BUDGET).unwrap();
    let Some(status) = status else {
        child.kill().ok();
        panic!("collect did not stop after Ctrl-C");
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("Ctrl-C"), "{stderr}");
    let rows = rows_by_team(&dir.path().join("bots/admission.csv"));
    assert_eq!(rows.keys().collect::<Vec<_>>(), ["aaa"]);
    assert_eq!(rows["aaa"]["status"], "admitted");
    assert!(dir.path().join("bots/aaa/main.py").is_file());
    assert!(!dir.path().join("bots/zzz").exists());
    assert!(gone_within(&marker, BUDGET).is_empty());
}

/// The whole term: six team folders (one broken, one late, one zip) are
/// collected; a graded gauntlet against two reference bots plays them; a
/// seventh team is added and one replaced, collected again, and `--update`
/// plays exactly their games; the folder then matches a fresh run of the
/// same bots byte for byte (standings, crosstable, grades), and each team's
/// results.json carries its mark.
#[test]
fn a_term_collect_play_update_grade() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("submissions");
    fs::create_dir(&from).unwrap();
    let starter = sample_file("python/arrow5_starter.py");
    // Each team's bot its own (identical files would be one bot to the
    // tournament's store).
    let own = |team: &str, file: &str| {
        fs::create_dir_all(from.join(team)).unwrap();
        let text = fs::read_to_string(&starter).unwrap() + &format!("\n# team {team}\n");
        fs::write(from.join(team).join(file), text).unwrap();
    };
    own("alpha", "main.py");
    team_folder(&from, "bravo", "main.c", "c/arrow5_starter.c");
    fs::create_dir(from.join("delta")).unwrap();
    fs::write(from.join("delta/main.c"), "int main(void) { not C }\n").unwrap();
    own("echo", "main.py");
    own("foxtrot", "bot.py");
    own("charlie-src", "main.py");
    python(
        "import sys, zipfile\n\
         with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n\
         \x20   z.write(sys.argv[2], 'charlie/main.py')\n",
        &[
            from.join("charlie.zip").to_str().unwrap(),
            from.join("charlie-src/main.py").to_str().unwrap(),
        ],
    );
    fs::remove_dir_all(from.join("charlie-src")).unwrap();
    let on_time = |from: &Path| {
        for entry in fs::read_dir(from).unwrap() {
            touch_all(&entry.unwrap().path(), DEADLINE_SECS - 86_400);
        }
        touch_all(&from.join("echo"), DEADLINE_SECS + 60);
    };
    on_time(&from);
    let reference = sample_bin("arrow5_random");
    let strong = sample_bin("arrow5_strong");
    let collect = |dir: &Path| {
        let run = referee_in(
            dir,
            &[
                "collect",
                "--game",
                "arrow5",
                "--from",
                "submissions",
                "--deadline",
                DEADLINE,
                "--reference",
                &reference,
                "--out",
                "bots",
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
        rows_by_team(&dir.join("bots/admission.csv"))
    };
    let rows = collect(dir.path());
    let status: Vec<(&str, &str)> = rows
        .iter()
        .map(|(team, row)| (team.as_str(), row["status"].as_str()))
        .collect();
    assert_eq!(
        status,
        [
            ("alpha", "admitted"),
            ("bravo", "admitted"),
            ("charlie", "admitted"),
            ("delta", "broken"),
            ("echo", "missing"),
            ("foxtrot", "admitted"),
        ]
    );
    fs::write(
        dir.path().join("term.toml"),
        format!(
            "name = \"term\"\ngame = \"arrow5\"\nformat = \"gauntlet\"\n\
             challengers = [\"random\", \"strong\"]\ngames_per_pairing = 2\nseed = 9\n\
             bots_dir = \"bots\"\n[options]\ncodes = \"random\"\n\
             [grading]\nreferences = [\"random\", \"strong\"]\nbands = [\n\
             \x20 {{ against = \"random\", win_rate = 0.5, marks = 50 }},\n\
             \x20 {{ against = \"strong\", win_rate = 0.5, marks = 80 }},\n]\n\
             [[bots]]\nname = \"random\"\nbot = \"{reference}\"\n\
             [[bots]]\nname = \"strong\"\nbot = \"{strong}\"\n"
        ),
    )
    .unwrap();
    let tournament = |out: &str, extra: &[&str]| {
        let mut args = vec!["tournament", "term.toml", "--out", out, "--jobs", "2"];
        args.extend_from_slice(&["--key-file", "term.key", "--no-report"]);
        args.extend_from_slice(extra);
        let run = referee_in(dir.path(), &args, BUDGET);
        assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
        run
    };
    fs::write(dir.path().join("term.key"), "7e".repeat(32)).unwrap();
    // 4 teams x 2 references x 2 games (the references do not meet).
    let first = tournament("results", &["--update"]);
    assert_eq!(played_now(&first), 16, "{}", first.stdout);

    // A seventh team, and alpha's new version.
    own("golf", "main.py");
    fs::write(
        from.join("alpha/main.py"),
        fs::read_to_string(&starter).unwrap() + "\n# version 2\n",
    )
    .unwrap();
    on_time(&from);
    let rows = collect(dir.path());
    assert_eq!(rows["golf"]["status"], "admitted");
    let dry = tournament("results", &["--dry-run"]);
    assert!(
        dry.stdout.contains("4 with a new bot (golf)")
            && dry.stdout.contains("4 with a changed bot (alpha)"),
        "{}",
        dry.stdout
    );
    assert_eq!(
        played_now(&tournament("results", &["--update"])),
        8,
        "golf's and alpha's games only"
    );

    // As a fresh run of the same bots.
    tournament("fresh", &[]);
    for file in [
        "standings.csv",
        "crosstable.csv",
        "grades/grades.csv",
        "grades/leaderboard.csv",
    ] {
        assert_eq!(
            fs::read_to_string(dir.path().join("results").join(file)).unwrap(),
            fs::read_to_string(dir.path().join("fresh").join(file)).unwrap(),
            "{file}"
        );
    }
    let grades = rows_by_team(&dir.path().join("results/grades/grades.csv"));
    assert_eq!(
        grades.keys().map(String::as_str).collect::<Vec<_>>(),
        ["alpha", "bravo", "charlie", "foxtrot", "golf"]
    );
    for (team, row) in &grades {
        let marks: f64 = row["marks"].parse().unwrap();
        let rate = |r: &str| row[&format!("win_rate_vs_{r}")].parse::<f64>().unwrap();
        let expected = if rate("strong") >= 0.5 {
            80.0
        } else if rate("random") >= 0.5 {
            50.0
        } else {
            0.0
        };
        assert_eq!(marks, expected, "{team}: {row:?}");
        let results: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(
                dir.path()
                    .join(format!("results/grades/{team}/results.json")),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(results["score"].as_f64(), Some(marks), "{team}");
    }
}

/// Whether every occurrence of `needle` in `line` lies inside a Markdown
/// code span (CommonMark: a run of n backticks opens one, the next run of
/// exactly n closes it).
fn inside_code_spans(line: &str, needle: &str) -> bool {
    let bytes = line.as_bytes();
    let mut spans: Vec<(usize, usize)> = vec![];
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut closed = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let m = run_at(j);
                if m == n {
                    closed = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match closed {
            Some(j) => {
                spans.push((i + n, j));
                i = j + n;
            }
            None => i += n,
        }
    }
    line.match_indices(needle).all(|(at, _)| {
        spans
            .iter()
            .any(|&(s, e)| s <= at && at + needle.len() <= e)
    })
}

/// The class list given to `collect` (a team late, one broken, one that
/// handed nothing in) is the grading roster: every student gets a grade,
/// a team without an admitted bot 0 with collect's reason. Student names
/// that are spreadsheet formulas are written as text in every CSV, and
/// read back as they were by `referee grade`. A bot's hostile reply is
/// code in its team's feedback, whose `referee reproduce` command runs in
/// a copy of the team's folder with the student's bot and no key.
#[test]
fn the_class_list_of_collect_grades_every_student() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("submissions");
    for team in ["alpha", "bravo", "charlie"] {
        fs::create_dir_all(from.join(team)).unwrap();
    }
    fs::copy(
        sample_file("python/arrow5_starter.py"),
        from.join("alpha/main.py"),
    )
    .unwrap();
    fs::write(from.join("bravo/main.py"), "import sys\nsys.exit(3)\n").unwrap();
    fs::copy(
        sample_file("python/arrow5_starter.py"),
        from.join("charlie/main.py"),
    )
    .unwrap();
    touch_all(&from, DEADLINE_SECS - 86_400);
    touch_all(&from.join("charlie"), DEADLINE_SECS + 60);
    // The classic payloads, as students' names; delta handed nothing in.
    let class = "Student,Team\n\
                 \"=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",alpha\n\
                 +SUM(1;2),bravo\n\
                 -2+3+cmd|' /C calc'!A0,charlie\n\
                 @SUM(A1),delta\n\
                 Mal,mallory\n";
    fs::write(dir.path().join("class.csv"), class).unwrap();
    let reference = sample_bin("arrow5_random");
    let run = referee_in(
        dir.path(),
        &[
            "collect",
            "--game",
            "arrow5",
            "--from",
            "submissions",
            "--roster",
            "class.csv",
            "--deadline",
            DEADLINE,
            "--reference",
            &reference,
            "--out",
            "bots",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let admission = rows_by_team(&dir.path().join("bots/admission.csv"));
    assert_eq!(admission["alpha"]["status"], "admitted", "{admission:?}");
    assert_eq!(admission["bravo"]["status"], "broken", "{admission:?}");
    assert_eq!(admission["charlie"]["reason"], "late", "{admission:?}");
    // mallory's bot is the teacher's [[bots]] entry: a hostile reply.
    let mallory = format!(
        "python3 {} 01234 '``<img src=x onerror=alert(1)>``'",
        sample_file("python/scripted.py")
    );
    fs::write(
        dir.path().join("term.toml"),
        format!(
            "name = \"term\"\ngame = \"arrow5\"\nformat = \"gauntlet\"\n\
             challengers = [\"random\", \"strong\"]\ngames_per_pairing = 2\nseed = 9\n\
             bots_dir = \"bots\"\n\
             [grading]\nreferences = [\"random\", \"strong\"]\nroster = \"class.csv\"\nbands = [\n\
             \x20 {{ against = \"random\", win_rate = 0.5, marks = 50 }},\n\
             \x20 {{ against = \"strong\", win_rate = 0.5, marks = 80 }},\n]\n\
             [[bots]]\nname = \"random\"\nbot = \"{reference}\"\n\
             [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"mallory\"\nbot = \"{}\"\n",
            sample_bin("arrow5_strong"),
            mallory.replace('"', "\\\"")
        ),
    )
    .unwrap();
    fs::write(dir.path().join("term.key"), "5a".repeat(32)).unwrap();
    let run = referee_in(
        dir.path(),
        &[
            "tournament",
            "term.toml",
            "--out",
            "out",
            "--jobs",
            "2",
            "--key-file",
            "term.key",
            "--no-report",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let out = dir.path().join("out");
    let grades = out.join("grades");

    // Every student, in the class list's order; the absent teams 0 with
    // collect's reason.
    let students = csv_records(&grades.join("students.csv"));
    let student = |i: usize| &students[i];
    assert_eq!(students.len(), 5, "{students:?}");
    assert_eq!(student(1)["team"], "bravo");
    assert_eq!(student(1)["marks"], "0");
    assert!(
        student(1)["reason"].starts_with("no admitted bot: broken ("),
        "{students:?}"
    );
    assert_eq!(student(2)["reason"], "no admitted bot: missing (late)");
    assert_eq!(
        student(3)["reason"],
        "no admitted bot: missing (no submission)"
    );
    assert_eq!(student(4)["team"], "mallory");
    assert_eq!(student(4)["reason"], "no band met");
    let alpha = &rows_by_team(&grades.join("grades.csv"))["alpha"];
    assert_eq!(student(0)["marks"], alpha["marks"]);
    let graded: Vec<String> = csv_records(&grades.join("grades.csv"))
        .iter()
        .map(|r| format!("{} {}", r["team"], r["marks"]))
        .collect();
    assert_eq!(graded.len(), 5, "{graded:?}");
    assert_eq!(&graded[2..], ["bravo 0", "charlie 0", "delta 0"]);
    let absent: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(grades.join("charlie/results.json")).unwrap())
            .unwrap();
    assert_eq!(absent["score"], 0.0);
    assert!(
        absent["output"]
            .as_str()
            .unwrap()
            .contains("missing (late)"),
        "{absent}"
    );

    // The payloads are text: a leading ' in the cell, in every CSV.
    let names = [
        "=HYPERLINK(\"http://evil.example\",\"x\")",
        "+SUM(1;2)",
        "-2+3+cmd|' /C calc'!A0",
        "@SUM(A1)",
    ];
    for file in ["students.csv", "roster.csv"] {
        let cells: Vec<String> = csv_records(&grades.join(file))
            .iter()
            .map(|r| r["student"].clone())
            .collect();
        for (cell, name) in cells.iter().zip(names) {
            assert_eq!(cell, &format!("'{name}"), "{file}");
        }
    }
    // Numbers stay numbers: a negative rating is written as it is.
    let standings = fs::read_to_string(out.join("standings.csv")).unwrap();
    assert!(standings.contains(",-"), "a negative rating: {standings}");
    assert!(!standings.contains(",'-"), "{standings}");
    // Grading again from the folder's copies reads the names back as they
    // were: the same files.
    let before = fs::read(grades.join("students.csv")).unwrap();
    let again = referee_in(dir.path(), &["grade", "out"], BUDGET);
    assert_eq!(again.status, 0, "{}\n{}", again.stdout, again.stderr);
    assert!(
        again
            .stdout
            .contains("charlie: 0 marks (no admitted bot: missing (late))"),
        "{}",
        again.stdout
    );
    assert_eq!(fs::read(grades.join("students.csv")).unwrap(), before);

    // mallory's reply is code in its feedback, wherever it is quoted.
    let feedback = fs::read_to_string(grades.join("mallory/feedback.md")).unwrap();
    let hostile: Vec<&str> = feedback.lines().filter(|l| l.contains("<img")).collect();
    assert!(!hostile.is_empty(), "{feedback}");
    for line in hostile {
        assert!(inside_code_spans(line, "<img"), "{line}");
    }
    // Nothing of the key, nor the results folder's paths, reaches a team.
    let key = "5a".repeat(32);
    let mut copied = 0;
    for entry in walk(&grades) {
        let text = fs::read_to_string(&entry).unwrap();
        assert!(!text.contains(&key), "{}", entry.display());
        assert!(!text.contains("--key"), "{}", entry.display());
        assert!(!text.contains("term.key"), "{}", entry.display());
        copied += usize::from(entry.extension().is_some_and(|e| e == "jsonl"));
    }
    assert!(copied >= 4, "mallory's lost games' transcripts: {copied}");
    assert!(!feedback.contains(&out.display().to_string()), "{feedback}");

    // A student with only their team's folder runs the command as written,
    // with their own (mended) bot for MY_BOT.
    let student_dir = tempfile::tempdir().unwrap();
    let copy = student_dir.path().join("mallory");
    fs::create_dir_all(copy.join("transcripts")).unwrap();
    for entry in walk(&grades.join("mallory")) {
        let relative = entry.strip_prefix(grades.join("mallory")).unwrap();
        fs::copy(&entry, copy.join(relative)).unwrap();
    }
    let command = feedback
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("referee reproduce "))
        .unwrap_or_else(|| panic!("{feedback}"));
    let mended = format!(
        "'python3 {} 01234 56789 01234'",
        sample_file("python/scripted.py")
    );
    let command = command
        .replacen("referee", &referee_bin().display().to_string(), 1)
        .replace("MY_BOT", &mended);
    let mut replay = Command::new("sh");
    replay.args(["-c", &command]).current_dir(&copy);
    let replayed = run_within(replay, BUDGET);
    assert_eq!(
        replayed.status, 0,
        "{command}\n{}\n{}",
        replayed.stdout, replayed.stderr
    );
    assert!(
        replayed.stdout.contains("not disqualified") && replayed.stdout.contains("No key"),
        "{}",
        replayed.stdout
    );
}

/// Every file under `root`, recursively.
fn walk(root: &Path) -> Vec<std::path::PathBuf> {
    let mut files = vec![];
    for entry in fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A team whose submission is a file the referee does not take (a `.tar`,
/// a `.rar`, a `.txt`) is broken with the reason, and the other teams are
/// collected; a source with no submission at all is bad input.
/// `referee collect` of the Arrow 5 submissions in `from` into `out`
/// (both beneath `dir`), against the random bot.
fn collect_arrow5(dir: &Path, from: &str, out: &str) -> Run {
    let reference = sample_bin("arrow5_random");
    let args = [
        "collect",
        "--game",
        "arrow5",
        "--from",
        from,
        "--reference",
        &reference,
        "--out",
        out,
    ];
    referee_in(dir, &args, BUDGET)
}

#[test]
fn an_unsupported_file_breaks_only_its_team_and_no_submission_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    team_folder(&from, "alpha", "main.py", "python/arrow5_starter.py");
    fs::write(from.join("beta.rar"), "Rar!\x1a\x07\x00").unwrap();
    fs::write(from.join("gamma.txt"), "our bot is in the mail\n").unwrap();
    let status = Command::new("tar")
        .args(["cf", "delta.tar", "alpha"])
        .current_dir(&from)
        .status()
        .unwrap();
    assert!(status.success());
    let collect = |from: &str, out: &str| collect_arrow5(dir.path(), from, out);
    let run = collect("subs", "bots");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&dir.path().join("bots/admission.csv"));
    assert_eq!(
        rows.keys().collect::<Vec<_>>(),
        ["alpha", "beta", "delta", "gamma"],
        "{rows:?}"
    );
    assert_eq!(rows["alpha"]["status"], "admitted", "{rows:?}");
    for (team, file) in [
        ("beta", "beta.rar"),
        ("gamma", "gamma.txt"),
        ("delta", "delta.tar"),
    ] {
        let row = &rows[team];
        assert_eq!(row["status"], "broken", "{team}: {row:?}");
        assert_eq!(row["reason"], "refused", "{team}: {row:?}");
        assert!(row["source"].ends_with(file), "{team}: {row:?}");
        assert!(
            row["message"].contains(".zip, a .tar.gz"),
            "{team}: {row:?}"
        );
        assert!(!dir.path().join("bots").join(team).exists(), "{team}");
    }
    assert!(dir.path().join("bots/alpha/main.py").is_file());

    // Nothing to collect: said, exit 2, no folder of bots made.
    fs::create_dir(dir.path().join("empty")).unwrap();
    fs::write(dir.path().join("empty/.hidden"), "").unwrap();
    let run = collect("empty", "none");
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("--from empty") && run.stderr.contains("no submissions"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("none").exists());
}

#[test]
fn names_keep_their_letters_and_a_bad_name_breaks_only_its_team() {
    // `Zoë.py` was the team `Zo` (the `ë` dropped), one name with `Zo.py`;
    // `日本.py` stopped the whole collection (exit 2); two submissions of
    // one name did too.
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    fs::create_dir(&from).unwrap();
    for name in ["Zoë.py", "Zo.py", "日本.py", "Team A.py", "Team_A.py"] {
        fs::copy(sample_file("python/arrow5_starter.py"), from.join(name)).unwrap();
    }
    let run = collect_arrow5(dir.path(), "subs", "bots");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&dir.path().join("bots/admission.csv"));
    assert_eq!(
        rows.keys().collect::<Vec<_>>(),
        ["Team_A", "Zo", "Zo_", "日本"],
        "{rows:?}"
    );
    for team in ["Zo", "Zo_"] {
        assert_eq!(rows[team]["status"], "admitted", "{team}: {rows:?}");
        assert!(dir.path().join("bots").join(team).is_dir(), "{team}");
    }
    assert!(rows["Zo_"]["source"].ends_with("Zoë.py"), "{rows:?}");
    for (team, says) in [
        ("日本", "no usable team name"),
        ("Team_A", "two submissions make the team name 'Team_A'"),
    ] {
        let row = &rows[team];
        assert_eq!(
            (row["status"].as_str(), row["reason"].as_str()),
            ("broken", "refused"),
            "{team}: {row:?}"
        );
        assert!(row["message"].contains(says), "{team}: {row:?}");
    }
    assert!(
        rows["Team_A"]["source"].contains("Team A.py")
            && rows["Team_A"]["source"].contains("Team_A.py")
    );
    assert!(!dir.path().join("bots/Team_A").exists());
}

/// A student's bot writes terminal escapes to its stderr and as its reply
/// (a cleared screen, a window title, a clipboard write): the terminal
/// and `admission.csv`, which a teacher `cat`s, show them escaped, and the
/// file holds no escape byte.
#[test]
fn a_bots_escapes_reach_neither_the_terminal_nor_the_admission_csv() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    fs::create_dir_all(&from).unwrap();
    fs::write(
        from.join("evil.py"),
        "import sys\n\
         sys.stderr.write('\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\\x9b31m said\\n')\n\
         print('\\x1b]0;title\\x07', flush=True)\n\
         sys.exit(3)\n",
    )
    .unwrap();
    let run = collect_arrow5(dir.path(), "subs", "bots");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let csv = fs::read_to_string(dir.path().join("bots/admission.csv")).unwrap();
    for text in [&run.stdout, &csv] {
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\u{9b}']),
            "a raw escape: {text:?}"
        );
        assert!(text.contains("evil"), "{text}");
        assert!(text.contains("\\x1b]52;c;cHduZWQ="), "{text}");
    }
}

/// A team that can write to its submission swaps its folder for a link
/// (to the organiser's files, or another team's bot) after `collect` has
/// listed the submissions and before it copies that team's: the copy
/// follows no link, so the team is refused and nothing of the link's
/// target reaches the bots folder (it was copied in and admitted as that
/// team's bot, secret file and all).
#[test]
fn a_submission_swapped_for_a_link_while_collect_runs_is_refused() {
    swapped_for_a_link_while_collect_runs(None);
}

/// The same where teams hand in dated folders (`subs/TEAM/DATE/`) and a
/// team can swap its `TEAM` folder (a drop folder every student writes
/// in): `TEAM` was opened following links, so a link to a folder with a
/// `DATE` of the same name (another team's, the organiser's) was copied
/// in as that team's bot.
#[test]
fn a_dated_submissions_team_folder_swapped_for_a_link_is_refused() {
    swapped_for_a_link_while_collect_runs(Some("2026-11-01"));
}

fn swapped_for_a_link_while_collect_runs(date: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    let dated = |folder: &Path| match date {
        Some(date) => folder.join(date),
        None => folder.to_path_buf(),
    };
    // `aaa` sleeps at its start: the swap is made while it plays.
    fs::create_dir_all(from.join("aaa")).unwrap();
    fs::write(from.join("aaa/main.py"), "import time\ntime.sleep(2)\n").unwrap();
    team_folder(
        &dated(&from.join("zzz")),
        "",
        "main.py",
        "python/arrow5_starter.py",
    );
    let secret = dir.path().join("secret");
    team_folder(&dated(&secret), "", "main.py", "python/arrow5_starter.py");
    fs::write(dated(&secret).join("answers.txt"), "the organiser's").unwrap();
    let reference = sample_bin("arrow5_random");
    let mut child = Command::new(referee_bin())
        .args(["collect", "--game", "arrow5", "--from", "subs"])
        .args(["--reference", &reference, "--out", "bots"])
        .args(["--startup-limit", "600s"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let marker = format!("{}/bots/.collect/aaa/main.py", dir.path().display());
    let found = wait_for_processes(&marker, 1, BUDGET);
    assert!(!found.is_empty(), "aaa's bot never started");
    fs::rename(from.join("zzz"), dir.path().join("zzz.old")).unwrap();
    std::os::unix::fs::symlink(&secret, from.join("zzz")).unwrap();
    use wait_timeout::ChildExt;
    let Some(status) = child.wait_timeout(BUDGET).unwrap() else {
        child.kill().ok();
        panic!("collect did not end");
    };
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(0), "{stdout}");
    let rows = rows_by_team(&dir.path().join("bots/admission.csv"));
    let row = &rows["zzz"];
    assert_eq!(
        (row["status"].as_str(), row["reason"].as_str()),
        ("broken", "refused"),
        "{row:?}"
    );
    assert!(row["message"].contains("symbolic link"), "{row:?}");
    assert!(!dir.path().join("bots/zzz").exists(), "{stdout}");
}

/// A tar.gz of 1.5 MB whose first record is a pax header declaring
/// 1.5 GiB of data (zeros, which compress 1000 to 1), then a bot.
const TAR_RECORD_BOMB: &str = r#"
import sys, tarfile, zlib, struct
out_path, main_path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
def blocks():
    # Raw deflate, flushed whole after each block: one MiB of zeros packs
    # to the same bytes every time, so the archive is written in a second.
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    pax = tarfile.TarInfo("pax"); pax.type = tarfile.XHDTYPE; pax.size = size
    head = pax.tobuf(format=tarfile.USTAR_FORMAT)
    yield head, c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
    mib = b"\0" * (1 << 20)
    packed = c.compress(mib) + c.flush(zlib.Z_FULL_FLUSH)
    for _ in range(size >> 20):
        yield mib, packed
    src = open(main_path, "rb").read()
    m = tarfile.TarInfo("main.py"); m.size = len(src)
    tail = m.tobuf(format=tarfile.USTAR_FORMAT) + src + b"\0" * (-len(src) % 512) + b"\0" * 1024
    yield tail, c.compress(tail) + c.flush()
crc, n = 0, 0
with open(out_path, "wb") as f:
    f.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
    for plain, packed in blocks():
        crc = zlib.crc32(plain, crc); n += len(plain); f.write(packed)
    f.write(struct.pack("<II", crc, n & 0xFFFFFFFF))
"#;

/// A tar.gz whose pax header (or GNU long name) declares gigabytes: the
/// tar crate reads such a record whole into memory, so a 1.5 MB archive
/// made `collect` allocate 1.5 GiB and more (a bigger declared size, up to
/// the 128 MiB an archive may be, would take the machine's memory; here
/// under a 1 GB address-space limit, which keeps the test's machine safe,
/// it read for half a minute and said `out of memory`). The tar stream is
/// now capped as it is read, records and skipped data included: that
/// team is refused at once, the others collected.
#[test]
fn a_tar_records_bomb_breaks_only_its_team() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    team_folder(&from, "alpha", "main.py", "python/arrow5_starter.py");
    python(
        TAR_RECORD_BOMB,
        &[
            from.join("bomb.tar.gz").to_str().unwrap(),
            &sample_file("python/arrow5_starter.py"),
            &(3u64 << 29).to_string(),
        ],
    );
    assert!(fs::metadata(from.join("bomb.tar.gz")).unwrap().len() < 4 << 20);
    let reference = sample_bin("arrow5_random");
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -S -v 1000000 && exec \"$0\" \"$@\""])
        .arg(referee_bin())
        .args(["collect", "--game", "arrow5", "--from", "subs"])
        .args(["--reference", &reference, "--out", "bots"])
        .current_dir(dir.path());
    let run = run_within(command, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let rows = rows_by_team(&dir.path().join("bots/admission.csv"));
    assert_eq!(rows["alpha"]["status"], "admitted", "{rows:?}");
    let row = &rows["bomb"];
    assert_eq!(
        (row["status"].as_str(), row["reason"].as_str()),
        ("broken", "refused"),
        "{row:?}"
    );
    assert!(row["message"].contains("tar bomb"), "{row:?}");
    assert!(!dir.path().join("bots/bomb").exists());
}

/// The organiser keeps a reference bot and a results folder in the bots
/// folder after a first collect; students then hand in submissions named
/// like them (`random.py`, a bot that crashes; a folder `results`; a good
/// bot `RESULTS` in another case): those teams are refused, the name
/// taken, and the organiser's files are left as they were (both were
/// removed as the teams' bots of an earlier run). A team collect admitted
/// is still replaced.
#[test]
fn a_team_named_like_the_organisers_files_in_the_bots_folder_removes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    team_folder(&from, "alpha", "main.py", "python/arrow5_starter.py");
    let run = collect_arrow5(dir.path(), "subs", "bots");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let bots = dir.path().join("bots");
    let reference = "# the organiser's reference bot\n";
    fs::write(bots.join("random.py"), reference).unwrap();
    fs::create_dir(bots.join("results")).unwrap();
    fs::write(bots.join("results/standings.csv"), "rank,bot\n").unwrap();
    fs::write(from.join("random.py"), "import sys\nsys.exit(1)\n").unwrap();
    fs::create_dir(from.join("results")).unwrap();
    team_folder(&from, "RESULTS", "main.py", "python/arrow5_starter.py");
    fs::write(from.join("alpha/NOTES.txt"), "version 2\n").unwrap();

    let run = collect_arrow5(dir.path(), "subs", "bots");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        fs::read_to_string(bots.join("random.py")).ok().as_deref(),
        Some(reference),
        "the organiser's reference bot"
    );
    assert_eq!(
        fs::read_to_string(bots.join("results/standings.csv"))
            .ok()
            .as_deref(),
        Some("rank,bot\n"),
        "the organiser's results"
    );
    let rows = rows_by_team(&bots.join("admission.csv"));
    for (team, entry) in [
        ("random", "random.py"),
        ("results", "results"),
        ("RESULTS", "results"),
    ] {
        let row = &rows[team];
        assert_eq!(
            (row["status"].as_str(), row["reason"].as_str()),
            ("broken", "name taken"),
            "{team}: {row:?}"
        );
        let says = format!("holds bots/{entry}, which collect did not make");
        assert!(row["message"].contains(&says), "{team}: {row:?}");
        assert!(run.stdout.contains(&says), "{}", run.stdout);
    }
    assert!(!bots.join("RESULTS").exists());
    assert_eq!(rows["alpha"]["status"], "admitted", "{rows:?}");
    assert!(bots.join("alpha/NOTES.txt").is_file());
}

/// A crashing bot prints a row of its own to stderr, and a submission's
/// name (refused, so kept as handed in) holds one: each field of
/// `admission.csv` stays on its line, the line breaks written `\x0a`, so
/// no physical line of the file (nor of the terminal) begins
/// `mallory,admitted` for `grep` or `wc -l` to count.
#[test]
fn a_row_a_bot_prints_is_no_line_of_the_admission_csv() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("subs");
    fs::create_dir_all(&from).unwrap();
    let forged = "mallory,admitted,python,mallory.py,,";
    fs::write(
        from.join("liar.py"),
        format!("import sys\nsys.stderr.write('x\\n{forged}\\r\\n')\nsys.exit(1)\n"),
    )
    .unwrap();
    fs::write(from.join(format!("-\n{forged}.py")), "").unwrap();
    let run = collect_arrow5(dir.path(), "subs", "bots");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let csv = fs::read_to_string(dir.path().join("bots/admission.csv")).unwrap();
    let rows = csv_records(&dir.path().join("bots/admission.csv"));
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(csv.lines().count(), 1 + rows.len(), "{csv}");
    assert!(!csv.contains('\r'), "{csv:?}");
    for text in [&csv, &run.stdout] {
        assert!(
            !text.lines().any(|l| l.starts_with("mallory")),
            "a forged row: {text}"
        );
    }
    let liar = rows.iter().find(|r| r["team"] == "liar").unwrap();
    assert_eq!(liar["status"], "broken", "{liar:?}");
    assert!(
        liar["message"].contains(&format!("x\\x0a{forged}\\x0d")),
        "{liar:?}"
    );
    // The team as handed in, after the spreadsheet guard's `'`.
    assert!(
        rows.iter()
            .any(|r| r["team"].ends_with(&format!("-\\x0a{forged}"))),
        "{rows:?}"
    );
}
