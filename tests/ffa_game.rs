//! The example game for more than two players, Light Cycles
//! (`tournaments/games/light_cycles/`): its judge played by hand (the
//! referee's side written by the test: determinism, options, players out
//! while the game goes on) and through the real binary (a four-player
//! match of the starters and its game page).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(300);

fn game_file(relative: &str) -> String {
    root()
        .join("tournaments/games/light_cycles")
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

fn start(players: usize, seed: &str, options: Value) -> Value {
    let names: Vec<String> = (0..players).map(|p| format!("bot{p}")).collect();
    json!({"type": "start", "protocol": 1, "players": players, "names": names,
        "seed": seed, "options": options})
}

/// What the test, standing in for the referee, answers an ask.
enum Answer {
    /// The player's reply line.
    Reply(String),
    /// The player was disqualified by the referee (e.g. a timeout): `out`.
    Out(&'static str),
}

/// Plays the judge by hand, as the referee would: `start`, then for every
/// ask (one player after another for a simultaneous one) the answer that
/// `answer(player, ask line)` gives, an `out` for a player whose reply the
/// judge refused (as the referee says it), until the judge ends the game; then `stop`. Returns
/// every message the judge wrote.
fn play_by_hand(start: &Value, answer: impl FnMut(u64, &str) -> Answer) -> Vec<Value> {
    let mut judge = Command::new("python3");
    judge.arg(game_file("judge.py"));
    play_judge_by_hand(judge, start, answer)
}

/// [`play_by_hand`] with any judge command.
fn play_judge_by_hand(
    mut judge: Command,
    start: &Value,
    mut answer: impl FnMut(u64, &str) -> Answer,
) -> Vec<Value> {
    let mut child = judge
        // No __pycache__ left in the repository's game folders.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {judge:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut written = Vec::new();
    let mut say = |message: &Value, written: &mut Vec<Value>| -> Value {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let value: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("the judge wrote '{line}': {e}"));
        written.push(value.clone());
        value
    };
    let mut turn = say(start, &mut written);
    let mut exchanges = 0;
    while turn.get("end").is_none() && turn["type"] != "error" {
        exchanges += 1;
        assert!(exchanges < 5000, "the game never ended");
        let asks = turn["ask"].as_array().expect("an ask or an end").clone();
        for (k, ask) in asks.iter().enumerate() {
            let player = ask["player"].as_u64().unwrap();
            let incoming = match answer(player, ask["line"].as_str().unwrap_or("")) {
                Answer::Reply(line) => {
                    json!({"type": "reply", "player": player, "line": line, "time_ms": 1.5})
                }
                Answer::Out(verdict) => {
                    json!({"type": "out", "player": player, "verdict": verdict})
                }
            };
            let mut answered = say(&incoming, &mut written);
            let refused = matches!(answered["type"].as_str(), Some("protocol" | "illegal"));
            // The referee says the refused player is out: the judge
            // answers that instead.
            if refused {
                let verdict = answered["type"].clone();
                answered = say(
                    &json!({"type": "out", "player": player, "verdict": verdict}),
                    &mut written,
                );
            }
            if k + 1 < asks.len() {
                assert!(
                    answered == json!({"type": "turn"}),
                    "a bare turn amid a simultaneous move, not {answered}"
                );
            } else {
                turn = answered;
            }
        }
    }
    writeln!(stdin, "{}", json!({"type": "stop", "reason": "over"})).ok();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{judge:?} exited with {status}");
    written
}

/// Every player moves north every turn, on an empty 20x20 grid: player 0
/// (above the centre) leaves the grid first, players 1 and 3 (right and
/// left) together next, and player 2 (below) is the last cycle riding.
/// The end ranks them, ties sharing a place; with the same start and the
/// same replies the judge writes the same messages, byte for byte, and
/// with walls the seed decides where they are.
#[test]
fn light_cycles_judge_ranks_crashes_and_answers_the_same_twice() {
    let seed = "5e".repeat(64);
    let north = |_: u64, _: &str| Answer::Reply("N".into());
    let first = play_by_hand(&start(4, &seed, json!({})), north);
    let second = play_by_hand(&start(4, &seed, json!({})), north);
    assert_eq!(first, second, "the judge answered differently");
    assert_eq!(first[0]["type"], "ready");
    assert_eq!(
        (
            first[0]["min_players"].as_u64(),
            first[0]["max_players"].as_u64()
        ),
        (Some(3), Some(6))
    );
    let tells: Vec<_> = first[0]["tell"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["line"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tells[..2], ["cycles 4 20 20 0", "walls 0"], "{tells:?}");
    assert_eq!(tells[6..], ["cycles 4 20 20 3", "walls 0"], "{tells:?}");
    assert_eq!(
        first[0]["ask"].as_array().unwrap().len(),
        4,
        "all four asked at once"
    );
    let end = &first.last().unwrap()["end"];
    assert_eq!(end["ranks"], json!([3, 1, 0, 1]), "{end}");
    assert_eq!(end["winner"], 2, "{end}");
    assert_eq!(end["reason"], "last-cycle", "{end}");
    // Every turn's frame is the grid, one colour per player, and a hud.
    let frame = &first.last().unwrap()["frame"];
    assert_eq!(
        (
            frame["grid"]["rows"].as_u64(),
            frame["grid"]["cols"].as_u64()
        ),
        (Some(20), Some(20))
    );
    let colours: std::collections::BTreeSet<_> = frame["grid"]["colours"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .filter_map(|c| c.as_str())
                .filter(|c| !c.is_empty())
        })
        .collect();
    assert_eq!(colours.len(), 4, "one colour per player: {colours:?}");
    assert!(
        frame["hud"]["C"].as_str().unwrap().contains("riding"),
        "{frame}"
    );
    assert!(
        frame["hud"]["A"].as_str().unwrap().contains("out on turn"),
        "{frame}"
    );

    // With walls drawn from the seed: the same twice, another with another seed.
    let walls = |seed: &str| {
        let written = play_by_hand(&start(5, seed, json!({"walls": 30})), north);
        let line = written[0]["tell"][1]["line"].as_str().unwrap().to_string();
        (written, line)
    };
    let (a, line_a) = walls(&seed);
    let (b, _) = walls(&seed);
    assert_eq!(a, b, "the judge answered differently with walls");
    assert!(line_a.starts_with("walls 30 "), "{line_a}");
    let (_, line_c) = walls(&"a7".repeat(64));
    assert_ne!(line_a, line_c, "the walls do not depend on the seed");
}

/// A reply that is not a direction is refused (verdict protocol) and the
/// game goes on without that player; so does it after the referee says a
/// player is out (a timeout): neither is asked again, and both share the
/// last place, after the player who crashed before them (a verdict is
/// worse than a crash).
#[test]
fn light_cycles_judge_goes_on_without_players_out() {
    let seed = "00".repeat(64);
    let mut asked = vec![0; 4];
    let written = play_by_hand(&start(4, &seed, json!({})), |player, line| {
        asked[player as usize] += 1;
        assert!(line.starts_with("turn "), "{line}");
        match (player, asked[player as usize]) {
            (1, 2) => Answer::Reply("jump".into()),
            (3, 3) => Answer::Out("timeout"),
            // Player 0 turns back into its own trail on turn 2.
            (0, 1) => Answer::Reply("E".into()),
            (0, 2) => Answer::Reply(" w ".into()),
            _ => Answer::Reply("N".into()),
        }
    });
    assert_eq!(asked, vec![2, 2, 3, 3], "asked per player");
    let refusal = written
        .iter()
        .find(|m| m["type"] == "protocol")
        .expect("a protocol refusal");
    assert!(
        refusal["detail"].as_str().unwrap().contains("'jump'"),
        "{refusal}"
    );
    let last = written.last().unwrap();
    let end = &last["end"];
    assert_eq!(end["reason"], "last-cycle", "{end}");
    assert_eq!(end["winner"], 2, "{end}");
    assert_eq!(end["ranks"], json!([1, 2, 0, 2]), "{end}");
    let hud = &last["frame"]["hud"];
    assert!(
        hud["B"]
            .as_str()
            .unwrap()
            .contains("out on turn 2 (protocol)"),
        "{hud}"
    );
    assert!(
        hud["D"]
            .as_str()
            .unwrap()
            .contains("out on turn 3 (timeout)"),
        "{hud}"
    );
    assert!(
        hud["A"]
            .as_str()
            .unwrap()
            .contains("out on turn 2 (crashed)"),
        "{hud}"
    );
}

/// Bad options, or a number of players the game does not take, are
/// refused at `start` with an error naming what is wrong.
#[test]
fn light_cycles_judge_refuses_bad_options() {
    let seed = "9c".repeat(64);
    for (players, options, expected) in [
        (
            4,
            json!({"width": 7}),
            "option width: expected from 8 to 40, got 7",
        ),
        (4, json!({"height": 41}), "option height"),
        (
            4,
            json!({"turns": "many"}),
            "option turns: expected an integer",
        ),
        (4, json!({"walls": 1000}), "option walls"),
        (4, json!({"speed": 2}), "unknown option speed"),
        (2, json!({}), "played by 3 to 6 players, not 2"),
        (7, json!({}), "played by 3 to 6 players, not 7"),
    ] {
        let written = play_by_hand(
            &start(players, &seed, options.clone()),
            |_, _| unreachable!(),
        );
        assert_eq!(written.len(), 1, "{options}: {written:?}");
        assert_eq!(written[0]["type"], "error", "{options}: {written:?}");
        let detail = written[0]["detail"].as_str().unwrap();
        assert!(
            detail.contains(expected),
            "{options}: '{detail}' lacks '{expected}'"
        );
    }
}

/// The same small judge written with each helper library (Python and
/// JavaScript, tournaments/games/sdk/): every player still in says a
/// number at once for two rounds; a word is refused (amid a move, and as
/// its last answer), a player the referee puts out (`out`) is gone; the
/// end ranks the totals. Both libraries write the same messages: bare
/// turns amid the simultaneous move, the refusals, the next turn once the
/// last answer (reply or `out`) is in, the ranks.
#[test]
fn both_helper_libraries_play_a_simultaneous_game_of_four() {
    let sdk = root().join("tournaments/games/sdk");
    let python = r#"
import sys
sys.path.insert(0, sys.argv[1])
from referee_judge import Judge
judge = Judge("count", min_players=3, max_players=6)
alive, total, round = list(range(judge.players)), [0] * judge.players, 1
def check(reply):
    return None if reply.line.isdigit() else ("protocol", "expected a number, got '%s'" % reply.line)
while True:
    for p in alive:
        judge.ask(p, "round %d" % round)
    replies, out = judge.send_together(check=check)
    alive = [p for p in alive if p not in out]
    for p, reply in replies.items():
        total[p] += int(reply.line)
    judge.log("out " + " ".join("%d:%s" % (p, out[p]) for p in sorted(out)))
    if round == 2:
        judge.end(None, "rounds", scores=total, ranks=[sum(1 for u in total if u > t) for t in total])
        judge.send()
    round += 1
"#;
    let javascript = r#"
const { Judge } = require(process.argv[1] + "/referee_judge.js");
const judge = new Judge("count", { minPlayers: 3, maxPlayers: 6 });
let alive = [...Array(judge.players).keys()];
const total = new Array(judge.players).fill(0);
const check = (r) => (/^[0-9]+$/.test(r.line) ? undefined : ["protocol", `expected a number, got '${r.line}'`]);
for (let round = 1; ; round++) {
  for (const p of alive) judge.ask(p, `round ${round}`);
  const { replies, out } = judge.sendTogether(check);
  alive = alive.filter((p) => !(p in out));
  for (const p of Object.keys(replies)) total[p] += Number(replies[p].line);
  judge.log("out " + Object.keys(out).sort().map((p) => `${p}:${out[p]}`).join(" "));
  if (round === 2) {
    judge.end(null, "rounds", total, total.map((t) => total.filter((u) => u > t).length));
    judge.send();
  }
}
"#;
    let script = |player: u64, line: &str| match (line, player) {
        ("round 1", 0) => Answer::Reply("5".into()),
        ("round 1", 1) => Answer::Reply("five".into()),
        ("round 1", 2) => Answer::Reply("7".into()),
        ("round 1", 3) => Answer::Out("timeout"),
        ("round 2", 0) => Answer::Reply("1".into()),
        ("round 2", 2) => Answer::Reply("more".into()),
        other => panic!("not asked: {other:?}"),
    };
    let mut by_python = Command::new("python3");
    by_python.args(["-c", python]).arg(&sdk);
    let mut by_node = Command::new("node");
    by_node.args(["-e", javascript]).arg(&sdk);
    let start = start(4, &"11".repeat(64), json!({}));
    let from_python = play_judge_by_hand(by_python, &start, script);
    let from_node = play_judge_by_hand(by_node, &start, script);
    assert_eq!(from_python, from_node, "the helper libraries differ");
    let kinds: Vec<_> = from_python
        .iter()
        .map(|m| m["type"].as_str().unwrap())
        .collect();
    // ready; round 1: a bare turn (0), protocol (1), a bare turn (1 out),
    // a bare turn (2), the next turn (3 out); round 2: a bare turn (0),
    // protocol (2), the end (2 out).
    assert_eq!(
        kinds,
        ["ready", "turn", "protocol", "turn", "turn", "turn", "turn", "protocol", "turn"],
        "{from_python:?}"
    );
    assert_eq!(from_python[1], json!({"type": "turn"}));
    assert_eq!(
        from_python[5]["log"], "out 1:protocol 3:timeout",
        "{from_python:?}"
    );
    assert_eq!(
        from_python[5]["ask"],
        json!([{"player": 0, "line": "round 2"}, {"player": 2, "line": "round 2"}])
    );
    let end = &from_python[8]["end"];
    assert_eq!(end["ranks"], json!([1, 2, 0, 2]), "{end}");
    assert_eq!(end["scores"], json!([6, 0, 7, 0]), "{end}");
}

/// The starters, named for a four-player match: Python, C, Python, C.
fn four_starters() -> Vec<String> {
    let (py, c) = (
        game_file("starters/starter.py"),
        game_file("starters/starter.c"),
    );
    vec![py.clone(), c.clone(), py, c]
}

/// A four-player match of the starters through the real binary: every
/// bot is greeted with its seat, all four finish without a verdict, the
/// record ranks all four (a place each, ties sharing), the winner alone
/// hears `end win`, and the frames show the grid. The C and the Python
/// starter play the same plan, so four Python starters give the same ranks.
#[test]
fn light_cycles_four_starters_finish_with_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cycles.jsonl");
    // One key for both matches: the walls come from the key and the seed.
    let key = dir.path().join("key");
    std::fs::write(
        &key,
        format!("{}\n", "c1c1e5".repeat(11).get(..64).unwrap()),
    )
    .unwrap();
    let play = |bots: &[String], transcript: Option<&Path>| {
        let mut args = vec!["match".to_string(), game_file("judge.py")];
        args.extend(bots.iter().cloned());
        args.extend(["--seed", "7", "--option", "walls=12", "--json"].map(String::from));
        args.extend(["--key-file".into(), key.to_string_lossy().into_owned()]);
        if let Some(path) = transcript {
            args.extend(["--transcript".into(), path.to_string_lossy().into_owned()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = referee(&args, BUDGET);
        assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
        run.json()
    };
    let v = play(&four_starters(), Some(&path));
    let players = v["players"].as_array().expect("players");
    assert_eq!(players.len(), 4, "{v}");
    for player in players {
        assert_eq!(player["verdict"], "ok", "{v}");
        // Reasonable play: every cycle rides a good while.
        assert!(player["attacks"].as_u64().unwrap() >= 15, "{v}");
    }
    let ranks: Vec<u64> = v["ranks"]
        .as_array()
        .expect("ranks")
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    assert_eq!(ranks.len(), 4, "{v}");
    assert!(ranks.contains(&0) && ranks.iter().all(|r| *r < 4), "{v}");
    let reason = v["reason"].as_str().unwrap();
    assert!(
        ["last-cycle", "all-crashed", "turn-limit"].contains(&reason),
        "{v}"
    );
    let all_python = vec![game_file("starters/starter.py"); 4];
    assert_eq!(
        play(&all_python, None)["ranks"],
        v["ranks"],
        "the C and Python starters play alike"
    );

    let lines: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let told = |bot: &str| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l["type"] == "message" && l["bot"] == bot && l["dir"] == "to")
            .map(|l| l["line"].as_str().unwrap().to_string())
            .collect()
    };
    for (seat, bot) in ["a", "b", "c", "d"].iter().enumerate() {
        let heard = told(bot);
        assert_eq!(heard[0], format!("cycles 4 20 20 {seat}"), "{heard:?}");
        assert!(heard[1].starts_with("walls 12 "), "{heard:?}");
        assert!(heard[2].starts_with("turn 1 "), "{heard:?}");
        let expected = match (ranks[seat], ranks.iter().filter(|r| **r == 0).count()) {
            (0, 1) => "win",
            (0, _) => "draw",
            _ => "loss",
        };
        assert_eq!(
            heard.last().unwrap(),
            &format!("end {expected} {reason}"),
            "{heard:?}"
        );
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""grid":{"#), "frames with the grid");

    // The game's page (`replay --html`, the report's game page) names all
    // four seats and carries the frames: the grid and a hud entry each.
    let html = dir.path().join("cycles.html");
    let run = referee(
        &[
            "replay",
            &path.to_string_lossy(),
            "--html",
            &html.to_string_lossy(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(&html).unwrap();
    for seat in [
        "A: starter.py",
        "B: starter.c",
        "C: starter.py",
        "D: starter.c",
    ] {
        assert!(page.contains(seat), "{seat} on the game page");
    }
    for hud in [r#""A":"starter.py: "#, r#""D":"starter.c: "#] {
        assert!(page.contains(hud), "{hud} in the page's frames");
    }
    assert!(
        page.contains(r#""rows":20"#),
        "the grid in the page's frames"
    );
}

/// Through the binary, a bad option voids the game before it is played
/// (exit 1), naming the option; so does a number of players the game
/// does not take.
#[test]
fn light_cycles_refuses_a_bad_option_and_two_players() {
    let bots = four_starters();
    let judge = game_file("judge.py");
    let mut args = vec!["match", judge.as_str()];
    args.extend(bots.iter().map(String::as_str));
    args.extend(["--option", "turns=0"]);
    let run = referee(&args, BUDGET);
    // The judge refuses the game at its start: bad input.
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("refused the game"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("option turns: expected from 1 to 2000, got 0"),
        "{}",
        run.stderr
    );
    let run = referee(&["match", &judge, &bots[0], &bots[1]], BUDGET);
    assert_ne!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("3 to 6"), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

/// Through the binary, a bot whose reply is not a direction (verdict
/// protocol, the judge's refusal) and a bot that stops answering (verdict
/// timeout, the referee's) are out, and the game goes on between the two
/// starters to its end by the rules; the two out share the last place.
#[test]
fn light_cycles_goes_on_without_a_bot_out() {
    let dir = tempfile::tempdir().unwrap();
    let bot = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "import sys, time\nturns = 0\nfor line in sys.stdin:\n    if line.startswith('turn'):\n        turns += 1\n{body}\n"
            ),
        )
        .unwrap();
        path.to_string_lossy().into_owned()
    };
    let babbler = bot(
        "babbler.py",
        "        print('N' if turns < 3 else 'jump', flush=True)",
    );
    let sleeper = bot(
        "sleeper.py",
        "        if turns == 5:\n            time.sleep(30)\n        print('S', flush=True)",
    );
    let starter = game_file("starters/starter.py");
    let run = referee(
        &[
            "match",
            &game_file("judge.py"),
            &babbler,
            &sleeper,
            &starter,
            &starter,
            "--time-limit",
            "1s",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let v = run.json();
    let verdicts: Vec<_> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["verdict"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(verdicts, ["protocol", "timeout", "ok", "ok"], "{v}");
    assert!(
        v.to_string()
            .contains("expected a direction N, E, S or W, got 'jump'"),
        "{v}"
    );
    assert_eq!(v["ranks"][0], 2, "{v}");
    assert_eq!(v["ranks"][1], 2, "{v}");
    let reason = v["reason"].as_str().unwrap();
    assert!(
        ["last-cycle", "all-crashed", "turn-limit"].contains(&reason),
        "played to the end by the rules: {v}"
    );
    // The starters rode on well past the turns the others went out.
    for seat in [2, 3] {
        assert!(v["players"][seat]["attacks"].as_u64().unwrap() > 10, "{v}");
    }
}
