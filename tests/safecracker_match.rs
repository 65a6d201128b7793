//! Safe Cracker end to end: matches between the sample bots through the
//! `referee` binary, and the solo game over every secret of the default game
//! through the library's `Game` trait and bot process layer.

use std::time::{Duration, Instant};

use referee::bot::{BotCommand, BotProcess, ProcessLimits, EXIT_GRACE};
use referee::games::safecracker::{self, Config, OPTIMAL_TOTAL_GUESSES_DEFAULT};
use referee::games::{Game, Seat, Status, Winner};
use referee::protocol;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(60);

#[test]
fn sample_bots_play_matches_with_json_records() {
    let optimal = sample_bin("safecracker_optimal");
    let random = sample_bin("safecracker_random");
    let starter = sample_file("python/safecracker_starter.py");
    let games: [(&str, &str, &[&str]); 3] = [
        (&optimal, &random, &["--seed", "3"]),
        (
            &starter,
            &optimal,
            &["--seed", "4", "--codes", "random", "--first", "b"],
        ),
        (
            &random,
            &starter,
            &["--seed", "5", "--digits", "4", "--length", "4"],
        ),
    ];
    for (a, b, flags) in games {
        let mut args = vec!["match", "safecracker", a, b, "--json"];
        args.extend(flags);
        let run = referee(&args, BUDGET);
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        let v = run.json();
        assert_eq!(v["game"], "safecracker");
        assert_eq!(v["reason"], "cracked", "{v}");
        assert!(["a", "b"].contains(&v["winner"].as_str().unwrap()));
        for p in v["players"].as_array().unwrap() {
            assert_eq!(p["verdict"], "ok", "{p}");
        }
        assert!(v["replay"].as_str().unwrap().contains("--first"));
    }
}

/// The rules' example game, replayed by scripted bots through the binary:
/// each guess's feedback turn by turn, and Player 1 (A) cracking at turn 4.
#[test]
fn the_rules_example_game_through_the_referee() {
    let script = sample_file("python/scripted.py");
    let a = format!("python3 {script} 3-3-1 1-1-1 1-3-1 2-2-1 2-1-3");
    let b = format!("python3 {script} 2-1-3 1-2-3 2-2-3 2-3-3");
    let run = referee(
        &[
            "match",
            "safecracker",
            &a,
            &b,
            "--first",
            "a",
            "--seed",
            "1",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let turns: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("turn"))
        .collect();
    assert_eq!(
        turns,
        [
            "turn  1  A guesses 1-1-1   1 exact match",
            "turn  1  B guesses 1-2-3   0 exact matches",
            "turn  2  A guesses 1-3-1   0 exact matches",
            "turn  2  B guesses 2-2-3   0 exact matches",
            "turn  3  A guesses 2-2-1   1 exact match",
            "turn  3  B guesses 2-3-3   1 exact match",
            "turn  4  A guesses 2-1-3   3 exact matches   cracked!",
        ]
    );
    assert!(
        run.stdout.contains("Result: A (scripted) wins  [cracked]"),
        "{}",
        run.stdout
    );
}

#[test]
fn attempt_limit_ends_the_match_by_the_best_single_guess() {
    let random = sample_bin("safecracker_random");
    let run = referee(
        &[
            "match",
            "safecracker",
            &random,
            &random,
            "--seed",
            "8",
            "--digits",
            "6",
            "--length",
            "5",
            "--attempts",
            "2",
            "--json",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["variant"], "l5-d6-t2");
    let attacks: Vec<u64> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["attacks"].as_u64().unwrap())
        .collect();
    assert!(attacks.iter().all(|&n| n <= 2), "{attacks:?}");
    if v["reason"] == "attempt-cap" {
        assert_eq!(attacks, [2, 2]);
    }
}

#[test]
fn options_that_do_not_apply_are_refused() {
    let random = sample_bin("safecracker_random");
    let run = referee(
        &[
            "match",
            "safecracker",
            &random,
            &random,
            "--variant",
            "hidden-eye",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("safecracker has no option --variant"),
        "{}",
        run.stderr
    );
    let run = referee(
        &["match", "safecracker", &random, &random, "--digits", "12"],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("digits must be from 1 to 9"),
        "{}",
        run.stderr
    );
    let run = referee(
        &["match", "arrow5", &random, &random, "--attempts", "3"],
        BUDGET,
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("arrow5 has no option --attempts"),
        "{}",
        run.stderr
    );
}

/// Plays one solo game: the bot is seat A, the referee holds the secret.
/// Returns the guesses it took, or `None` if it did not crack the code.
fn play_solo(bot: &BotCommand, config: &Config, secret: u64) -> Option<u32> {
    // Bots start through the referee binary's launch mode.
    referee::bot::launch_with(referee_bin());
    let mut process = BotProcess::spawn(bot, &ProcessLimits::default()).expect("start the bot");
    let budget = Duration::from_secs(10);
    let mut game = safecracker::solo(config, secret, secret).expect("a secret of the game");
    let send = |p: &mut BotProcess, line: &str| {
        p.send_line(line, Instant::now() + budget, budget)
            .expect("the bot reads its input")
    };
    send(&mut process, &game.greeting(Seat::A));
    let outcome = loop {
        match game.status() {
            Status::Over(outcome) => break outcome,
            Status::Ask { seat, request } => {
                assert_eq!(seat, Seat::A, "a solo game asks seat A only");
                assert_eq!(request.as_deref(), Some("guess"), "no code request in solo");
                send(&mut process, "guess");
                let (line, _) = process
                    .recv_line(Instant::now() + budget, budget)
                    .expect("the bot answers");
                let reply = game.parse_reply(&line).expect("a well-formed guess");
                let applied = game.apply(reply).expect("a legal guess");
                for notice in &applied.notices {
                    assert_eq!(notice.to, Seat::A);
                    send(&mut process, &notice.line);
                }
                game = applied.game;
            }
        }
    };
    send(
        &mut process,
        &protocol::end_line(outcome.winner.result_for(Seat::A), &outcome.reason),
    );
    process.shut_down(EXIT_GRACE);
    (outcome.winner == Winner::A).then(|| game.attacks(Seat::A))
}

/// The bar of the optimal bot: over all 27 secrets of the default game its
/// total (so its average) equals the exhaustive-search optimum.
#[test]
fn optimal_bot_reaches_the_optimum_over_every_secret() {
    let bot = BotCommand::parse(&sample_bin("safecracker_optimal")).unwrap();
    let config = Config::default();
    let count = safecracker::secret_count(&config);
    let guesses: Vec<u32> = (0..count)
        .map(|i| play_solo(&bot, &config, i).unwrap_or_else(|| panic!("secret {i} not cracked")))
        .collect();
    let total: u32 = guesses.iter().sum();
    println!(
        "safecracker_optimal over {count} secrets: {total} guesses, average {:.4}, worst {}",
        f64::from(total) / count as f64,
        guesses.iter().max().unwrap()
    );
    assert_eq!(total, OPTIMAL_TOTAL_GUESSES_DEFAULT);
}

#[test]
fn random_and_starter_bots_crack_every_secret_solo() {
    let config = Config::default();
    for spec in [
        sample_bin("safecracker_random"),
        format!("python3 {}", sample_file("python/safecracker_starter.py")),
    ] {
        let bot = BotCommand::parse(&spec).unwrap();
        let count = safecracker::secret_count(&config);
        let mut total = 0;
        for i in 0..count {
            let n = play_solo(&bot, &config, i).unwrap_or_else(|| panic!("{spec}: secret {i}"));
            assert!(n <= 27, "{spec}: {n} guesses");
            total += n;
        }
        assert!(
            total >= OPTIMAL_TOTAL_GUESSES_DEFAULT,
            "nobody beats the optimum"
        );
        println!(
            "{} over {count} secrets: {total} guesses, average {:.4}",
            bot.name,
            f64::from(total) / count as f64
        );
    }
}
