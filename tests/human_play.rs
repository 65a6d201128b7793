//! `referee play` driven through a pseudo-terminal, as a person would: the
//! prompts, the feedback lines, secret codes typed without echo, re-prompts
//! on bad input, and a clean end on Ctrl-C or end of input.

use rexpect::process::wait::WaitStatus;
use rexpect::session::{spawn_command, PtySession};

use crate::harness::*;

const TIMEOUT_MS: u64 = 30_000;
const GUESS: &str = "Enter your guess (three digits from 1-3): ";
const SECRET: &str = "Enter your secret code (three digits from 1-3, not shown): ";

/// Starts `referee play ARGS` on a fresh terminal with echo on, as a shell
/// leaves it (rexpect turns echo off by default).
fn play(args: &[&str]) -> PtySession {
    let referee = Referee::new()
        .arg("play")
        .args(args)
        .after_shell("stty echo");
    spawn_command(referee.command(), Some(TIMEOUT_MS)).expect("start the referee on a pty")
}

fn exit_code(p: &PtySession) -> i32 {
    match p.process().wait().expect("wait for the referee") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("the referee did not exit normally: {other:?}"),
    }
}

/// Types `line` at `prompt` and returns what the screen showed up to `then`.
fn answer(p: &mut PtySession, prompt: &str, line: &str, then: &str) -> String {
    p.exp_string(prompt).expect(prompt);
    p.send_line(line).unwrap();
    p.exp_string(then)
        .unwrap_or_else(|e| panic!("after typing {line:?}, expected {then:?}: {e}"))
}

/// The rules' example game at one keyboard, turn by turn (Player 1 cracks
/// 2-1-3, held by Player 2; see protocol.md on the example's feedback).
#[test]
fn hot_seat_plays_the_rules_example() {
    let mut p = play(&["safecracker", "--hot-seat", "--first", "a"]);
    p.exp_string("First to guess: Player 1.").unwrap();
    let shown = answer(&mut p, SECRET, "3 3 1", "Code set.");
    assert!(!shown.contains("3 3 1"), "the secret was echoed: {shown:?}");
    let shown = answer(&mut p, SECRET, "2-1-3", "Code set.");
    assert!(!shown.contains("2-1-3"), "the secret was echoed: {shown:?}");
    let turns = [
        ("Player 1", "1 1 1", "1 exact match"),
        ("Player 2", "1 2 3", "0 exact matches"),
        ("Player 1", "131", "0 exact matches"),
        ("Player 2", "2-2-3", "0 exact matches"),
        ("Player 1", "2 2 1", "1 exact match"),
        ("Player 2", "2 3 3", "1 exact match"),
        ("Player 1", "2 1 3", "3 exact matches"),
    ];
    for (i, (who, guess, feedback)) in turns.into_iter().enumerate() {
        p.exp_string(&format!("{who}'s turn:")).unwrap();
        if i == 2 {
            // Bad input explains itself, is asked again, and is no guess.
            let shown = answer(
                &mut p,
                GUESS,
                "1 2",
                "That is not a code: type three digits from 1-3, e.g. 1 2 3.",
            );
            assert!(shown.contains("1 2"), "typed guesses are echoed: {shown:?}");
            answer(&mut p, GUESS, "1 4 1", "Digit 4 is not from 1 to 3");
        }
        let shown = answer(&mut p, GUESS, guess, &format!("Feedback: {feedback}\r\n"));
        assert!(shown.contains(guess), "{shown:?}");
    }
    p.exp_string("Result: Player 1 won (cracked)").unwrap();
    p.exp_string("Player 1  3-3-1").unwrap();
    p.exp_string("Player 2  2-1-3").unwrap();
    p.exp_string("turn  4  Player 1  2-1-3  3 exact matches  cracked!")
        .unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
}

/// A whole game against the optimal bot, guessing every code in order.
/// The codes are drawn from the seed and a fresh key, so the first guess
/// cracks the bot's code once in 27 games: the bot then never moves, and
/// the game is played again (five tries fail together once in 14 million).
#[test]
fn a_person_plays_a_whole_game_against_a_bot() {
    for _ in 0..5 {
        if person_plays_a_whole_game() {
            return;
        }
    }
    panic!("in five games the first guess cracked the bot's code: the bot never moved");
}

/// One game of [`a_person_plays_a_whole_game_against_a_bot`]; whether the
/// bot moved.
fn person_plays_a_whole_game() -> bool {
    let bot = sample_bin("safecracker_optimal");
    let mut p = play(&[
        "safecracker",
        "--vs",
        &bot,
        "--codes",
        "random",
        "--first",
        "a",
        "--seed",
        "9",
    ]);
    p.exp_string("Your code (drawn by the referee): ").unwrap();
    let codes: Vec<String> = (0..27)
        .map(|i: u32| format!("{}{}{}", i / 9 + 1, i / 3 % 3 + 1, i % 3 + 1))
        .collect();
    let mut bot_moves = 0;
    let mut guesses = 0;
    // What was seen, for the message of a failed assertion.
    let mut seen: Vec<String> = Vec::new();
    for code in &codes {
        let (before, matched) = p
            .exp_regex(r"Enter your guess \(three digits from 1-3\): |Result: [^\r]*")
            .unwrap();
        seen.push(format!("{before}{matched}"));
        if matched.starts_with("Result:") {
            break;
        }
        p.send_line(code).unwrap();
        guesses += 1;
        let (before, feedback) = p.exp_regex(r"Feedback: [0-3] exact match(es)?").unwrap();
        seen.push(format!("{before}{feedback}"));
        if feedback.starts_with("Feedback: 3") {
            p.exp_string("Result: You won (cracked)").unwrap();
            break;
        }
        let (_, line) = p
            .exp_regex(r"safecracker_optimal guesses [1-3]-[1-3]-[1-3]: [0-3] exact match(es)?|Result: [^\r]*")
            .unwrap();
        if line.starts_with("Result:") {
            assert_eq!(line, "Result: safecracker_optimal won (cracked)");
            break;
        }
        bot_moves += 1;
    }
    assert!(
        bot_moves >= 1 || guesses == 1,
        "the bot never moved; the game said: {seen:?}"
    );
    p.exp_string("Codes:").unwrap();
    p.exp_string("History:").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
    bot_moves >= 1
}

#[test]
fn ctrl_c_ends_cleanly_and_kills_the_bot() {
    let marker = "human-play-ctrl-c-test";
    let bot = format!("{} {marker}", sample_bin("safecracker_random"));
    let mut p = play(&["safecracker", "--vs", &bot]);
    p.exp_string(SECRET).unwrap();
    p.send("12").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("Game abandoned (Ctrl-C).").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 130);
    assert_eq!(processes_with(marker), Vec::<String>::new());
}

#[test]
fn end_of_input_ends_cleanly() {
    let bot = sample_bin("safecracker_random");
    let mut p = play(&[
        "safecracker",
        "--vs",
        &bot,
        "--first",
        "a",
        "--codes",
        "random",
    ]);
    p.exp_string(GUESS).unwrap();
    p.send_control('d').unwrap();
    p.exp_string("Game abandoned (end of input).").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 130);
}

#[test]
fn arrow5_is_playable_with_the_rules_glyphs() {
    let bot = sample_bin("arrow5_random");
    let mut p = play(&["arrow5", "--vs", &bot, "--codes", "random", "--seed", "2"]);
    let attack = "Enter your attack (five different symbols from 0-9 and E for the eye): ";
    answer(
        &mut p,
        attack,
        "1 1 2 3 4",
        "Symbol 1 appears more than once",
    );
    p.exp_string(attack).unwrap();
    p.send_line("0 1 2 3 e").unwrap();
    let (_, signal) = p.exp_regex(r"Signal: [^\r]+\r|Signal: \(none\)").unwrap();
    assert!(!signal.contains('.'), "{signal}");
    let (_, bot_line) = p
        .exp_regex(r"arrow5_random attacks [^:\r]+: [^\r]*")
        .unwrap();
    assert!(bot_line.contains(':'));
    p.exp_string(attack).unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 130);
}

#[test]
fn a_bot_that_breaks_the_rules_forfeits() {
    let bot = format!("python3 {} 9-9-9", sample_file("python/scripted.py"));
    let mut p = play(&[
        "safecracker",
        "--vs",
        &bot,
        "--first",
        "b",
        "--codes",
        "random",
    ]);
    p.exp_string(
        "scripted is disqualified (illegal): it broke a rule: guess: digit 9 is not from 1 to 3.",
    )
    .unwrap();
    p.exp_string("Result: You won (disqualified)").unwrap();
    p.exp_string("History:").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
}

const MM_GUESS: &str = "Enter your guess (four colours from 0-5): ";
const MM_SECRET: &str = "Enter your secret code (four colours from 0-5, not shown): ";

/// `text` as rexpect shows it: it reads the terminal byte by byte, one
/// `char` per byte, so UTF-8 text such as the pegs `●○` reads as Latin-1.
fn pty(text: &str) -> String {
    text.bytes().map(char::from).collect()
}

/// A whole Mastermind game against a scripted bot (its code 1 1 2 3, then
/// two attacks): the secret typed without echo, feedback as pegs and in
/// words, a re-prompt on bad input, both codes and the history at the end.
#[test]
fn mastermind_is_played_with_pegs() {
    let bot = format!(
        "python3 {} 1123,5555,0012",
        sample_file("python/scripted.py")
    );
    let mut p = play(&["mastermind", "--vs", &bot]);
    p.exp_string(&pty(
        "● (black) for each peg of the right colour in the right place",
    ))
    .unwrap();
    p.exp_string("First to guess: You; scripted gets the equalizing guess of each round.")
        .unwrap();
    let shown = answer(&mut p, MM_SECRET, "0 0 1 1", "Code set.");
    assert!(
        !shown.contains("0 0 1 1"),
        "the secret was echoed: {shown:?}"
    );
    p.exp_string("scripted has chosen its code.").unwrap();

    let shown = answer(
        &mut p,
        MM_GUESS,
        "1-1-3-0",
        &pty("Feedback: ●●○  (2 black, 1 white)\r\n"),
    );
    assert!(
        shown.contains("1-1-3-0"),
        "typed guesses are echoed: {shown:?}"
    );
    p.exp_string("scripted guesses 5 5 5 5: no pegs  (0 black, 0 white)\r\n")
        .unwrap();

    // Bad input explains itself, is asked again, and is no guess.
    answer(
        &mut p,
        MM_GUESS,
        "0 1 2",
        "That is not a code: type four colours from 0-5, e.g. 0 1 2 3.",
    );
    answer(
        &mut p,
        MM_GUESS,
        "1 2 3 6",
        "'6' is not a colour from 0-5: type four colours from 0-5, e.g. 0 1 2 3.",
    );
    answer(
        &mut p,
        MM_GUESS,
        "1123",
        &pty("Feedback: ●●●●  (4 black, 0 white)\r\nCracked!"),
    );
    // The bot's equalizing attack misses.
    p.exp_string(&pty(
        "scripted guesses 0 0 1 2: ●●●  (3 black, 0 white)\r\n",
    ))
    .unwrap();
    p.exp_string("Result: You won (cracked)").unwrap();
    p.exp_string("Codes:").unwrap();
    p.exp_string("You       0 0 1 1").unwrap();
    p.exp_string("scripted  1 1 2 3").unwrap();
    p.exp_string("History:").unwrap();
    for row in [
        "round  1  You       1 1 3 0  ●●○  (2 black, 1 white)",
        "round  1  scripted  5 5 5 5  no pegs  (0 black, 0 white)",
        "round  2  You       1 1 2 3  ●●●●  (4 black, 0 white)  cracked!",
        "round  2  scripted  0 0 1 2  ●●●  (3 black, 0 white)",
    ] {
        p.exp_string(&pty(row)).unwrap();
    }
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
}

/// The prompt follows N and C; the drawn code is shown to its owner.
#[test]
fn mastermind_prompt_follows_the_size() {
    let bot = format!("python3 {} 000", sample_file("python/scripted.py"));
    let mut p = play(&[
        "mastermind",
        "--vs",
        &bot,
        "--pegs",
        "3",
        "--colours",
        "12",
        "--codes",
        "random",
    ]);
    p.exp_string("Mastermind: a code is three pegs, each one of 12 colours 0-b (repeats allowed).")
        .unwrap();
    p.exp_regex(r"Your code \(drawn by the referee\): [0-9ab] [0-9ab] [0-9ab]\r")
        .unwrap();
    answer(
        &mut p,
        "Enter your guess (three colours from 0-b): ",
        "a b c",
        "'c' is not a colour from 0-b: type three colours from 0-b, e.g. 0 1 2.",
    );
    p.exp_string("Enter your guess (three colours from 0-b): ")
        .unwrap();
    p.send_control('d').unwrap();
    p.exp_string("Game abandoned (end of input).").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 130);
}

/// Without a terminal (lines piped in, as a script or a class's grader
/// would), the game is played the same way: the rules' example game, the
/// secrets read like any line, the result and the history at the end.
#[test]
fn a_hot_seat_game_is_played_from_piped_lines() {
    let typed = [
        "3 3 1", "2-1-3", "1 1 1", "1 2 3", "131", "2-2-3", "2 2 1", "2 3 3", "2 1 3",
    ];
    let run = Referee::new()
        .args(["play", "safecracker", "--hot-seat", "--first", "a"])
        .stdin(typed.join("\n") + "\n")
        .run()
        .succeeds()
        .stdout_has("Result: Player 1 won (cracked)")
        .stdout_has("turn  4  Player 1  2-1-3  3 exact matches  cracked!");
    assert_eq!(run.stdout.matches("Code set.").count(), 2, "{}", run.stdout);

    // Input that ends mid-game abandons it, as end of input on a terminal.
    Referee::new()
        .args(["play", "safecracker", "--hot-seat", "--first", "a"])
        .stdin(typed[..4].join("\n") + "\n")
        .run()
        .exits(130)
        .stdout_has("Game abandoned (end of input).");
}
