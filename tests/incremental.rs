//! A tournament run again with `--update` after bots were added, replaced
//! or removed: only the games whose identity is new are played, and the
//! folder's standings are those of a fresh run of the same bots. Also
//! `--dry-run`, and a SIGKILL during an update.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(180);

/// A contest folder: copies of the sample bots (so they can be replaced),
/// a shared key, and a tournament file of some of them.
struct Contest {
    dir: tempfile::TempDir,
}

impl Contest {
    fn new() -> Contest {
        let dir = tempfile::tempdir().unwrap();
        for (bin, file) in [
            ("arrow5_strong", "strong"),
            ("arrow5_random", "random"),
            ("arrow5_constant", "constant"),
        ] {
            std::fs::copy(sample_bin(bin), dir.path().join(file)).unwrap();
        }
        std::fs::write(dir.path().join("shared.key"), "3c".repeat(32)).unwrap();
        Contest { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes the tournament file with these bots (name = file name).
    fn file(&self, bots: &[&str], games_per_pairing: u32) -> PathBuf {
        let mut text = format!(
            "name = \"term\"\ngame = \"arrow5\"\ngames_per_pairing = {games_per_pairing}\nseed = 11\n\
             [options]\ncodes = \"random\"\nmax_rounds = 30\n\
             [limits]\ntime_limit = \"10s\"\n"
        );
        for bot in bots {
            text.push_str(&format!("[[bots]]\nname = \"{bot}\"\nbot = \"./{bot}\"\n"));
        }
        let path = self.path("term.toml");
        std::fs::write(&path, text).unwrap();
        path
    }

    fn command(&self, out: &str, extra: &[&str]) -> Command {
        let mut command = Command::new(referee_bin());
        command
            .args(["tournament", "term.toml", "--out", out, "--jobs", "2"])
            .args(["--key-file", "shared.key", "--no-report"])
            .args(extra)
            .current_dir(self.dir.path());
        command
    }

    fn run(&self, out: &str, extra: &[&str]) -> Run {
        let run = run_within(self.command(out, extra), BUDGET);
        assert_eq!(run.status, 0, "{}", run.stderr);
        run
    }

    /// `--update` in `out`; the number of games it played.
    fn update(&self, out: &str) -> u64 {
        played_now(&self.run(out, &["--update"]))
    }

    /// A fresh run of the file as it is, in a new folder, compared with
    /// `out`: standings.csv byte for byte (it holds no measured column),
    /// crosstable.csv, and games.csv's result columns row by row.
    fn assert_as_fresh(&self, out: &str, fresh: &str) {
        self.run(fresh, &[]);
        for name in ["standings.csv", "crosstable.csv"] {
            assert_eq!(
                std::fs::read_to_string(self.path(out).join(name)).unwrap(),
                std::fs::read_to_string(self.path(fresh).join(name)).unwrap(),
                "{name} of {out} and of a fresh run"
            );
        }
        assert_eq!(
            game_results(&self.path(out).join("games.csv")),
            game_results(&self.path(fresh).join("games.csv")),
            "games.csv of {out} and of a fresh run"
        );
    }
}

/// Lines of the folder's store: every game it ever kept.
fn kept(folder: &Path) -> usize {
    std::fs::read_to_string(folder.join("store/games.jsonl"))
        .unwrap()
        .lines()
        .count()
}

#[test]
fn adding_replacing_and_removing_bots_plays_only_the_new_games() {
    let c = Contest::new();
    c.file(&["strong", "random"], 4);
    assert_eq!(c.update("term"), 4, "a new folder plays every game");

    // Added: only its games (2 pairings of 4 games).
    c.file(&["strong", "random", "constant"], 4);
    let dry = c.run("term", &["--dry-run"]);
    assert!(
        dry.stdout
            .contains("dry run: 8 of 12 games to play, 4 already played")
            && dry.stdout.contains("8 with a new bot (constant)"),
        "{}",
        dry.stdout
    );
    assert_eq!(kept(&c.path("term")), 4, "--dry-run plays nothing");
    assert_eq!(c.update("term"), 8);
    c.assert_as_fresh("term", "fresh-added");

    // Replaced: the same program with other bytes is another bot.
    let mut bytes = std::fs::read(c.path("random")).unwrap();
    bytes.extend_from_slice(b"\0version 2");
    std::fs::write(c.path("random"), bytes).unwrap();
    let dry = c.run("term", &["--dry-run"]);
    assert!(
        dry.stdout
            .contains("dry run: 8 of 12 games to play, 4 already played")
            && dry.stdout.contains("8 with a changed bot (random)")
            && dry
                .stdout
                .contains("8 games in the folder stay out of the standings"),
        "{}",
        dry.stdout
    );
    assert_eq!(c.update("term"), 8);
    c.assert_as_fresh("term", "fresh-replaced");
    // The games of the bot it replaced stay in the store, out of the CSVs.
    assert_eq!(kept(&c.path("term")), 20);
    assert_eq!(game_results(&c.path("term").join("games.csv")).len(), 12);

    // Removed: nothing to play, and its games leave the standings.
    c.file(&["random", "constant"], 4);
    let dry = c.run("term", &["--dry-run"]);
    assert!(
        dry.stdout
            .contains("dry run: 0 of 4 games to play, 4 already played")
            && dry.stdout.contains("bots removed (strong)"),
        "{}",
        dry.stdout
    );
    assert_eq!(c.update("term"), 0);
    c.assert_as_fresh("term", "fresh-removed");
    let standings = std::fs::read_to_string(c.path("term").join("standings.csv")).unwrap();
    assert!(!standings.contains("strong"), "{standings}");

    // Back again, unchanged: its games are still kept.
    c.file(&["strong", "random", "constant"], 4);
    assert_eq!(c.update("term"), 0);
    c.assert_as_fresh("term", "fresh-back");
    // More games a pairing: only the games added to each pairing.
    c.file(&["strong", "random", "constant"], 6);
    assert_eq!(c.update("term"), 6);
    c.assert_as_fresh("term", "fresh-more");
    // Renamed, same file: its games are kept, under the new name.
    let text = std::fs::read_to_string(c.path("term.toml")).unwrap();
    std::fs::write(
        c.path("term.toml"),
        text.replace("name = \"constant\"", "name = \"steady\""),
    )
    .unwrap();
    assert_eq!(c.update("term"), 0);
    c.assert_as_fresh("term", "fresh-renamed");
    let games = std::fs::read_to_string(c.path("term/games.csv")).unwrap();
    assert!(
        games.contains("steady") && !games.contains("constant"),
        "{games}"
    );
}

#[test]
fn copies_of_one_bot_under_several_names_each_keep_the_games_they_played() {
    // Two teams that handed in the same starter: one content, two names.
    // Their games shared identities, and the store kept one game's result
    // for both (a bot drawing at random plays games that differ): rows
    // and transcripts of games that were not the ones played.
    let contest = Contest::new();
    for copy in ["random2", "random3"] {
        std::fs::copy(contest.path("random"), contest.path(copy)).unwrap();
    }
    contest.file(&["random", "random2", "random3"], 2);
    contest.run("out", &[]);
    let out = contest.path("out");
    assert_eq!(kept(&out), 6, "every game played is kept");
    for row in csv_records(&out.join("games.csv")) {
        let transcript = out.join("transcripts").join(format!(
            "game-{:06}.jsonl",
            row["game"].parse::<u64>().unwrap()
        ));
        let text = std::fs::read_to_string(&transcript).unwrap();
        let head: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let names: Vec<&str> = head["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| name.as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [row["bot_a"].as_str(), row["bot_b"].as_str()],
            "game {}: its transcript is its own",
            row["game"]
        );
    }
    // A third copy plays its own games; the others' are kept.
    std::fs::copy(contest.path("random"), contest.path("random4")).unwrap();
    contest.file(&["random", "random2", "random3", "random4"], 2);
    assert_eq!(contest.update("out"), 6);
    assert_eq!(kept(&out), 12);
}

#[test]
fn a_dry_run_writes_nothing_and_updates_keep_to_their_formats() {
    let c = Contest::new();
    c.file(&["strong", "random", "constant"], 2);
    let dry = c.run("new", &["--dry-run"]);
    assert!(
        dry.stdout
            .contains("dry run: 6 of 6 games to play, 0 already played; nothing was played")
            && dry.stdout.contains("6 never played"),
        "{}",
        dry.stdout
    );
    assert!(!c.path("new").exists(), "--dry-run made the folder");

    // --resume finishes the same file; a changed file needs --update.
    c.run("folder", &[]);
    c.file(&["strong", "random"], 2);
    let refused = run_within(c.command("folder", &["--resume"]), BUDGET);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("different tournament file"),
        "{}",
        refused.stderr
    );

    // A store changed by hand is named with its line; a folder without
    // one (moved aside, or an older referee's) is refused, the missing
    // file named. Nothing is lost.
    c.file(&["strong", "random", "constant"], 2);
    let store = c.path("folder/store/games.jsonl");
    let kept_text = std::fs::read_to_string(&store).unwrap();
    std::fs::write(&store, format!("{kept_text}{{\"id\": 3}}\n")).unwrap();
    let refused = run_within(c.command("folder", &["--update"]), BUDGET);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("games.jsonl, line 7"),
        "{}",
        refused.stderr
    );
    std::fs::write(&store, &kept_text).unwrap();
    std::fs::rename(c.path("folder/store"), c.path("store-aside")).unwrap();
    let refused = run_within(c.command("folder", &["--update"]), BUDGET);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("holds games (games.csv) but not store/games.jsonl")
            && refused.stderr.contains("put it back"),
        "{}",
        refused.stderr
    );
    assert_eq!(game_results(&c.path("folder/games.csv")).len(), 6);
    assert!(
        !c.path("folder/store").exists(),
        "the refused run made a store"
    );

    // A Swiss tournament is paired from its results: a changed file is
    // refused, not mixed in.
    let swiss = |bots: &[&str]| {
        let mut text =
            "name = \"s\"\ngame = \"arrow5\"\nformat = \"swiss\"\nrounds = 1\nseed = 3\n\
                        [options]\nmax_rounds = 30\n"
                .to_string();
        for bot in bots {
            text.push_str(&format!("[[bots]]\nname = \"{bot}\"\nbot = \"./{bot}\"\n"));
        }
        std::fs::write(c.path("term.toml"), text).unwrap();
    };
    swiss(&["strong", "random", "constant"]);
    c.run("swiss", &["--update"]);
    swiss(&["strong", "random"]);
    let refused = run_within(c.command("swiss", &["--update"]), BUDGET);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("cannot take bots added, replaced or removed"),
        "{}",
        refused.stderr
    );
    // Its dry run says the same as the run would (formats_audit has more).
    let refused = run_within(c.command("swiss", &["--dry-run"]), BUDGET);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    swiss(&["strong", "random", "constant"]);
    let dry = c.run("swiss", &["--dry-run"]);
    assert!(
        dry.stdout.contains("paired round by round"),
        "{}",
        dry.stdout
    );
}

#[test]
fn sigkill_during_an_update_then_resume_plays_each_new_game_once() {
    let c = Contest::new();
    c.file(&["strong", "random"], 10);
    c.run("term", &[]);
    c.file(&["strong", "random", "constant"], 10);
    // Kills from the first instant of start-up on; each attempt after the
    // first finds the folder as the kill left it.
    let mut kills = 0;
    let mut finished = false;
    for delay in [0u64, 2, 10, 40, 100, 200, 400] {
        let mut child = c
            .command("term", &["--update"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        child.kill().unwrap(); // SIGKILL
        match child.wait().unwrap().code() {
            None => kills += 1,
            Some(0) => {
                finished = true;
                break;
            }
            Some(code) => panic!("the update exited {code} before the kill"),
        }
    }
    assert!(kills >= 1, "no kill landed");
    if !finished {
        // Whole lines of the store: the games kept before the last kill (a
        // line cut short is a game played again).
        let before = std::fs::read_to_string(c.path("term/store/games.jsonl"))
            .map_or(0, |t| t.matches('\n').count());
        let run = c.run("term", &["--resume"]);
        assert_eq!(played_now(&run), 30 - before as u64, "{}", run.stdout);
    }
    // Every game kept once: the 10 old ones and the 20 new.
    assert_eq!(kept(&c.path("term")), 30);
    c.assert_as_fresh("term", "fresh");
}

#[test]
fn shards_updated_apart_merge_into_the_standings_of_a_fresh_run() {
    let c = Contest::new();
    c.file(&["strong", "random"], 4);
    for i in 1..=2 {
        c.run(
            &format!("shard{i}"),
            &["--update", "--shard", &format!("{i}/2")],
        );
    }
    // A bot added: each shard plays only its share of the new games.
    c.file(&["strong", "random", "constant"], 4);
    let played: u64 = (1..=2)
        .map(|i| {
            played_now(&c.run(
                &format!("shard{i}"),
                &["--update", "--shard", &format!("{i}/2")],
            ))
        })
        .sum();
    assert_eq!(played, 8, "the new games, each in one shard");
    let merged = c.path("merged");
    let run = referee(
        &[
            "merge",
            c.path("shard1").to_str().unwrap(),
            c.path("shard2").to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("12 of 12 games merged"),
        "{}",
        run.stdout
    );
    c.assert_as_fresh("merged", "fresh");
}

/// A folder bot counts by every source file of its folder: a change to a
/// Python bot's helper module (not its `main.py`) is a changed bot.
#[test]
fn a_folder_bots_helper_module_is_part_of_it() {
    let c = Contest::new();
    let folder = c.path("pybot");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(
        root().join("sample_bots/python/arrow5_starter.py"),
        folder.join("starter.py"),
    )
    .unwrap();
    std::fs::write(folder.join("main.py"), "import starter\nstarter.main()\n").unwrap();
    std::fs::write(folder.join("helper.py"), "WEIGHT = 1\n").unwrap();
    c.file(&["strong", "pybot"], 2);
    assert_eq!(c.update("out"), 2);
    assert_eq!(c.update("out"), 0, "nothing changed");
    std::fs::write(folder.join("helper.py"), "WEIGHT = 2\n").unwrap();
    let dry = c.run("out", &["--dry-run"]);
    assert!(
        dry.stdout.contains("2 with a changed bot (pybot)"),
        "{}",
        dry.stdout
    );
    assert_eq!(c.update("out"), 2, "the changed folder bot's games again");
}

/// A copy of `from` in `to`, folders and files alike.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Results folders written by the referee before game identities were
/// hashed from the canonical form of the game's configuration (kept in
/// tests/fixtures/results-v1: Python bots, whose content does not change
/// with a build; Arrow 5 with options other than the defaults, Cryptron
/// with none): the referee of now reads them, and `--update` finds every
/// game already played.
#[test]
fn folders_of_the_earlier_referee_are_up_to_date() {
    for game in ["arrow5", "cryptron"] {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(
            &root().join("tests/fixtures/results-v1").join(game),
            dir.path(),
        );
        let folder = dir.path().join("results");
        let before = |name: &str| std::fs::read_to_string(folder.join(name)).unwrap();
        let (standings, crosstable, store) = (
            before("standings.csv"),
            before("crosstable.csv"),
            before("store/games.jsonl"),
        );
        let dry = referee_in(
            dir.path(),
            &[
                "tournament",
                "term.toml",
                "--out",
                "results",
                "--update",
                "--dry-run",
            ],
            BUDGET,
        );
        assert_eq!(dry.status, 0, "{game}: {}", dry.stderr);
        assert!(
            dry.stdout
                .contains("dry run: 0 of 6 games to play, 6 already played"),
            "{game}: {}",
            dry.stdout
        );
        let run = referee_in(
            dir.path(),
            &[
                "tournament",
                "term.toml",
                "--out",
                "results",
                "--update",
                "--jobs",
                "2",
                "--no-report",
            ],
            BUDGET,
        );
        assert_eq!(run.status, 0, "{game}: {}", run.stderr);
        assert_eq!(played_now(&run), 0, "{game}: {}", run.stdout);
        // Written anew from the same games: the same but for what the
        // referee now writes otherwise than that release did (the rating
        // interval is the centred rating's, the crosstable's own `-` mark
        // is no longer quoted as if it were a formula).
        assert_eq!(
            without_intervals(&before("standings.csv")),
            without_intervals(&standings),
            "{game}"
        );
        assert_eq!(
            before("crosstable.csv"),
            crosstable.replace(",'-", ",-"),
            "{game}"
        );
        assert_eq!(before("store/games.jsonl"), store, "{game}");
    }
}

/// A standings.csv without its rating_low and rating_high columns.
fn without_intervals(standings: &str) -> String {
    let mut lines = standings.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let kept: Vec<usize> = (0..header.len())
        .filter(|&i| !matches!(header[i], "rating_low" | "rating_high"))
        .collect();
    assert!(kept.len() + 2 == header.len(), "{header:?}");
    std::iter::once(header.join(","))
        .chain(lines.map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            kept.iter().map(|&i| cells[i]).collect::<Vec<_>>().join(",")
        }))
        .collect::<Vec<_>>()
        .join("\n")
}
