//! Games of more than two players: `referee match JUDGE BOT1 ... BOTN` with
//! the fixture judge tests/judges/unique (2 to 6 players, ranks with ties),
//! real judge and bot processes through the real binary.

use std::time::Duration;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(180);

fn unique() -> String {
    judge_fixture("unique/judge.py")
}

/// The fixture bot that picks `picks` in turn (`sleep` hangs, `crash`
/// exits).
fn picker(picks: &str) -> String {
    format!("python3 {} {picks}", judge_fixture("bots/unique_picker.py"))
}

/// The lines the referee sent to `seat` (a, b, c, ...) in a transcript.
fn sent_to(transcript: &std::path::Path, seat: &str) -> Vec<String> {
    std::fs::read_to_string(transcript)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "message" && e["bot"] == seat && e["dir"] == "to")
        .map(|e| e["line"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn four_players_are_ranked_with_ties_and_every_seat_is_shown() {
    let dir = scratch_dir("ffa", "four");
    let transcript = dir.join("game.jsonl");
    let (a, b, c, d) = (
        picker("9 8 7"),
        picker("9 5 7"),
        picker("3 5 1"),
        picker("2 2 2"),
    );
    let run = referee(
        &[
            "match",
            &unique(),
            &a,
            &b,
            &c,
            &d,
            "--seed",
            "3",
            "--transcript",
            transcript.to_str().unwrap(),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 4, "{v}");
    for (p, spec) in players.iter().zip([&a, &b, &c, &d]) {
        assert_eq!(p["verdict"], "ok", "{p}");
        assert_eq!(p["replies"], 3, "{p}");
        assert_eq!(p["spec"], spec.as_str());
    }
    // Round 1: 9 9 3 2, C's 3 is the highest unique; round 2: 8 5 5 2, A;
    // round 3: 7 7 1 2, D. A, C and D tie for first with a point each.
    assert_eq!(v["ranks"], serde_json::json!([0, 3, 0, 0]), "{v}");
    assert_eq!(v["scores"], serde_json::json!([1.0, 0.0, 1.0, 1.0]), "{v}");
    assert_eq!(v["reason"], "most-points");
    // Each bot is told its result: a shared first place is a draw.
    for (seat, end) in [("a", "draw"), ("b", "loss"), ("c", "draw"), ("d", "draw")] {
        let lines = sent_to(&transcript, seat);
        assert_eq!(
            lines.last().map(String::as_str),
            Some(format!("end {end} most-points").as_str()),
            "{seat}: {lines:?}"
        );
        assert!(lines[0].starts_with("unique 4 "), "{seat}: {lines:?}");
    }
    // The replay command names all four bots.
    let replay = shell_words::split(v["replay"].as_str().unwrap()).unwrap();
    for spec in [&a, &b, &c, &d] {
        assert!(replay.contains(spec), "{replay:?}");
    }
    // `replay` prints every seat, the frames, and the places.
    let shown = referee(&["replay", transcript.to_str().unwrap()], BUDGET);
    assert_eq!(shown.status, 0, "{}", shown.stderr);
    for seat in ["A", "B", "C", "D"] {
        assert!(
            shown.stdout.contains(&format!("  {seat}: unique_picker")),
            "{}",
            shown.stdout
        );
    }
    assert!(
        shown.stdout.contains("A: 1  B: 0  C: 1  D: 1"),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stdout.contains("Places: A 1, B 4, C 1, D 1"),
        "{}",
        shown.stdout
    );
    // The game page names all four players and carries the frames.
    let page = dir.join("game.html");
    let html = referee(
        &[
            "replay",
            transcript.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(html.status, 0, "{}", html.stderr);
    let text = std::fs::read_to_string(&page).unwrap();
    for seat in [
        "A: unique_picker",
        "B: unique_picker",
        "C: unique_picker",
        "D: unique_picker",
    ] {
        assert!(text.contains(seat), "{seat} missing from the game page");
    }
    assert!(text.contains("round 3: A=7 B=7 C=1 D=2"), "the frames");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_disqualified_player_is_out_and_the_game_goes_on() {
    let dir = scratch_dir("ffa", "out");
    let transcript = dir.join("game.jsonl");
    let run = referee(
        &[
            "match",
            &unique(),
            &picker("9 8 7"),
            &picker("9 sleep"),
            &picker("3 5 1"),
            &picker("2 crash"),
            &picker("4 x"),
            "--seed",
            "3",
            "--time-limit",
            "2s",
            "--transcript",
            transcript.to_str().unwrap(),
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    let verdicts: Vec<&str> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["verdict"].as_str().unwrap())
        .collect();
    // Only the bot asked runs: B's timeout, D's crash and E's reply that is
    // not a number (the judge's `protocol`) are theirs alone.
    assert_eq!(
        verdicts,
        ["ok", "timeout", "ok", "crash", "protocol"],
        "{v}"
    );
    for i in [1, 3, 4] {
        assert_eq!(v["players"][i]["disqualification"]["at_move"], 2, "{v}");
    }
    // The game went on without them: A and C played all three rounds, A
    // won two; the players out share the last place, E too though it
    // scored round 1 (9 9 3 2 4: its 4) and C scored none.
    assert_eq!(v["players"][0]["replies"], 3, "{v}");
    assert_eq!(v["players"][2]["replies"], 3, "{v}");
    assert_eq!(v["ranks"], serde_json::json!([0, 2, 1, 2, 2]), "{v}");
    assert_eq!(v["winner"], "a");
    assert_eq!(v["reason"], "most-points");
    // Those still in hear the rest of the game and their result; the
    // players out hear nothing after their verdict.
    let a = sent_to(&transcript, "a");
    assert!(
        a.contains(&"round 3 A=7 B=- C=1 D=- E=-".to_string()),
        "{a:?}"
    );
    assert_eq!(a.last().unwrap(), "end win most-points");
    assert_eq!(
        sent_to(&transcript, "c").last().unwrap(),
        "end loss most-points"
    );
    let b = sent_to(&transcript, "b");
    assert_eq!(b.last().unwrap(), "pick", "{b:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_of_two_refuses_a_third_bot() {
    let bots = [picker("1"), picker("2"), picker("3")];
    // A built-in game.
    let run = referee(&["match", "arrow5", &bots[0], &bots[1], &bots[2]], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("arrow5 is a game of two players, and 3 bots were given"),
        "{}",
        run.stderr
    );
    // A judge whose ready says it takes two.
    let higher = judge_fixture("higher/judge.py");
    let run = referee(&["match", &higher, &bots[0], &bots[1], &bots[2]], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not take 3 players: it takes 2 players"),
        "{}",
        run.stderr
    );
    // And the fixture judge takes at most six.
    let seven: Vec<String> = (1..=7).map(|n| picker(&n.to_string())).collect();
    let mut args = vec!["match".to_string(), unique()];
    args.extend(seven);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = referee(&args, BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not take 7 players: it takes 2 to 6 players"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_tournament_refuses_a_free_for_all_without_its_fields_and_pairs_of_a_game_of_more() {
    let dir = scratch_dir("ffa", "tournament");
    let file = dir.join("t.toml");
    let write = |format: &str| {
        std::fs::write(
            &file,
            format!(
                "name = \"ffa\"\ngame = {:?}\nformat = \"{format}\"\nseed = 1\n\
                 [options]\nmin = 3\n\
                 [[bots]]\nname = \"one\"\nbot = {:?}\n\
                 [[bots]]\nname = \"two\"\nbot = {:?}\n",
                unique(),
                picker("1"),
                picker("2")
            ),
        )
        .unwrap()
    };
    // A free-for-all without its fields: said at once, naming the file
    // and line.
    write("free-for-all");
    let out = dir.join("out");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("t.toml:3: players_per_game: a free-for-all needs players_per_game = K"),
        "{}",
        run.stderr
    );
    // A judge for three or more in a format of two-player games: bad input.
    write("round-robin");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not take 2 players: it takes 3 to 6 players"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
