//! `referee reproduce`: a recorded game played again with a new version of
//! one bot, the other seat played from the record
//! ([`runner::play_reproduction`](crate::runner::play_reproduction)): the
//! same game, options, key and seed, so the same referee-drawn codes and
//! boards. What is read from a transcript, and how far the game played now
//! is the recorded one, are here; both are pure.
//!
//! How far it is the same game:
//! - Arrow 5, Mastermind, Safe Cracker: the opponent's attacks depend only
//!   on the signals its attacks got from our code. With the same code (drawn
//!   by the referee, `codes = "random"`, or chosen again the same by the
//!   bot) the opponent attacks exactly as it did: the game is exact,
//!   whatever our own attacks. If the new bot chooses another code, the
//!   recorded attacks are still played, as a fixed script, but the real
//!   opponent would have seen other signals: not the recorded game.
//! - Cryptron: the opponent's moves answer the board. While the new bot
//!   moves as recorded, the game is exact; from its first other move, the
//!   recorded moves are played while the rules take them, and the game is
//!   said to have diverged there.

use crate::games::Seat;
use crate::transcript::{Direction, Entry};

/// A seat's replies in a transcript, each with the request it answered
/// (the last line sent to that seat before it; `None` if none was).
pub fn replies(entries: &[Entry], seat: Seat) -> Vec<(Option<String>, String)> {
    let mut last_to: Option<String> = None;
    let mut out = vec![];
    for (dir, line) in messages_of(entries, seat) {
        match dir {
            Direction::To => last_to = Some(line.to_string()),
            Direction::From => out.push((last_to.clone(), line.to_string())),
            Direction::Stderr => {}
        }
    }
    out
}

/// The lines to, from and of `seat`, in order.
fn messages_of(entries: &[Entry], seat: Seat) -> impl Iterator<Item = (&Direction, &str)> {
    entries.iter().filter_map(move |entry| match entry {
        Entry::Message { bot, dir, line, .. } if *bot == seat => Some((dir, line.as_str())),
        _ => None,
    })
}

/// The lines a seat was sent before its first reply: its greeting (and,
/// with codes drawn by the referee, its code), the set-up of its game.
pub fn setup(entries: &[Entry], seat: Seat) -> Vec<String> {
    messages_of(entries, seat)
        .take_while(|(dir, _)| !matches!(dir, Direction::From))
        .filter(|(dir, _)| matches!(dir, Direction::To))
        .map(|(_, line)| line.to_string())
        .collect()
}

/// A warning when the new bot was told another set-up than the recorded
/// one (another key than the recorded game's draws other codes or seeds).
pub fn setup_differs(recorded: &[String], now: &[String]) -> Option<String> {
    let (i, (then, now)) = recorded
        .iter()
        .zip(now)
        .enumerate()
        .find(|(_, (a, b))| a != b)?;
    Some(format!(
        "not the recorded game: the new bot was told another set-up (line {}: recorded '{then}', now '{now}'); is the key the recorded game's?",
        i + 1
    ))
}

/// Whether a game's opponents answer the board (Cryptron) rather than
/// only the signals of the codes (the code games).
pub fn moves_depend_on_the_board(game: &str) -> bool {
    game == "cryptron"
}

/// How the game played now compares with the recorded one, in words: the
/// live seat's replies then and now, and why the recorded seat stopped.
pub fn compare(
    game: &str,
    recorded: &[(Option<String>, String)],
    now: &[(Option<String>, String)],
    record_end: Option<&str>,
) -> Vec<String> {
    let first_other = recorded
        .iter()
        .zip(now)
        .position(|(then, now)| then.1 != now.1);
    let mut lines = vec![];
    match first_other {
        None => lines.push(format!(
            "exact: the new bot replied as recorded ({} replies in common)",
            recorded.len().min(now.len())
        )),
        Some(i) => {
            let (request, then) = &recorded[i];
            let now = &now[i].1;
            let asked = request.as_deref().unwrap_or("(its turn)");
            if moves_depend_on_the_board(game) {
                lines.push(format!(
                    "diverged at the new bot's reply {} (to '{asked}'): recorded '{then}', now '{now}'; the opponent's later moves answered the recorded board, and are played while the rules take them",
                    i + 1
                ));
            } else if asked == "code" {
                lines.push(format!(
                    "not the recorded game: the new bot chose another code (recorded '{then}', now '{now}'); the opponent's recorded attacks are played as a fixed script, but against this code it would have seen other signals"
                ));
            } else {
                lines.push(format!(
                    "exact: the opponent's attacks depend only on the signals of the new bot's code, which is the recorded one (the new bot's own attacks differ from reply {}: recorded '{then}', now '{now}')",
                    i + 1
                ));
            }
        }
    }
    if let Some(end) = record_end {
        lines.push(format!("the game stopped: {end}"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(Option<String>, String)> {
        list.iter()
            .map(|(q, a)| (Some(q.to_string()), a.to_string()))
            .collect()
    }

    #[test]
    fn what_differs_is_told_by_game() {
        let then = pairs(&[("code", "01234"), ("attack", "56789")]);
        let same = compare("arrow5", &then, &then, None);
        assert!(same[0].starts_with("exact: the new bot replied as recorded"));
        let other_attack = pairs(&[("code", "01234"), ("attack", "98765")]);
        assert!(compare("arrow5", &then, &other_attack, None)[0]
            .starts_with("exact: the opponent's attacks"));
        let other_code = pairs(&[("code", "43210"), ("attack", "56789")]);
        assert!(
            compare("mastermind", &then, &other_code, None)[0].starts_with("not the recorded game")
        );
        let moves = pairs(&[("move", "1 2"), ("move", "3 4")]);
        let other = pairs(&[("move", "1 2"), ("move", "5 6")]);
        let lines = compare("cryptron", &moves, &other, Some("no reply 3"));
        assert!(lines[0].starts_with("diverged at the new bot's reply 2"));
        assert_eq!(lines[1], "the game stopped: no reply 3");
        let greeting = vec!["arrow5 classic first 30 1".to_string()];
        assert!(setup_differs(&greeting, &greeting).is_none());
        let other = vec!["arrow5 classic first 30 2".to_string()];
        assert!(setup_differs(&greeting, &other)
            .unwrap()
            .contains("line 1: recorded 'arrow5 classic first 30 1'"));
    }
}
