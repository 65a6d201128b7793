//! Human-readable output of finished matches. Reporters only read records;
//! they never drive a game.

use crate::games::{Seat, Winner};
use crate::record::{Holder, MatchRecord};
use crate::text::escape;
use crate::verdict::Verdict;

/// The referee as the person started it (`target/release/referee`), for
/// the commands the output prints; `referee` until the CLI sets it.
static PROGRAM: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Sets the program name printed commands start with: `argv[0]` as typed,
/// so that a printed command runs as printed from where it was run.
pub fn set_program(name: &str) {
    let _ = PROGRAM.set(name.to_string());
}

/// The program name printed commands start with (shell-quoted).
pub fn program() -> String {
    shell_words::quote(PROGRAM.get().map_or("referee", |s| s)).into_owned()
}

/// A command line the referee made (`referee match ...`, as in records),
/// as the person can paste it: with the program as they started it.
pub fn as_invoked(command: &str) -> String {
    match command.strip_prefix("referee ") {
        Some(rest) => format!("{} {rest}", program()),
        None => command.to_string(),
    }
}

/// `n` of a game's moves in its own word: Safe Cracker's guesses, the
/// code games' attacks, moves for Cryptron and every judge's game;
/// singular for 1.
pub fn moves_word(game: &str, n: u64) -> String {
    let (one, many) = match game {
        "safecracker" => ("guess", "guesses"),
        "arrow5" | "mastermind" => ("attack", "attacks"),
        _ => ("move", "moves"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The account of one match for a terminal: set-up, moves, result, verdicts,
/// and the command that replays it.
pub fn render_match(record: &MatchRecord) -> String {
    // Names, details, stderr and the account quote bots: control
    // characters are shown escaped (`crate::text`).
    let mut out = String::new();
    for line in &record.account {
        out.push_str(&escape(line));
        out.push('\n');
    }
    if !record.account.is_empty() {
        out.push('\n');
    }
    let name = |seat: Seat| format!("{seat} ({})", escape(&record.player(seat).name));
    let result = match (&record.ranks, record.winner) {
        (Some(ranks), _) => {
            // A record from a file may have ranks for seats it has not.
            let first: Vec<String> = Seat::all(ranks.len().min(record.players.len()))
                .filter(|seat| ranks[seat.index()] == 0)
                .map(name)
                .collect();
            match first.as_slice() {
                [one] => format!("{one} wins"),
                _ => format!("first place shared by {}", first.join(", ")),
            }
        }
        (None, Winner::A) => format!("{} wins", name(Seat::A)),
        (None, Winner::B) => format!("{} wins", name(Seat::B)),
        (None, Winner::Draw) => "draw".to_string(),
    };
    out.push_str(&format!("Result: {result}  [{}]\n", escape(&record.reason)));
    if let Some(ranks) = &record.ranks {
        let places: Vec<String> = Seat::all(ranks.len())
            .map(|seat| format!("{seat} {}", ranks[seat.index()] + 1))
            .collect();
        out.push_str(&format!("Places: {}\n", places.join(", ")));
    }
    for seat in Seat::all(record.players.len()) {
        let p = record.player(seat);
        if p.holder() == Holder::Referee {
            // A solo game: the referee held this seat, there is no bot to show.
            continue;
        }
        out.push_str(&format!(
            "  {seat} {:<20} {:<9} {:>12}  {:>9.3} ms total  {:>8.3} ms max  cpu {:>8.1} ms total  {:>8.3} ms max  peak {} KiB\n",
            escape(&p.name),
            p.verdict.name(),
            moves_word(&record.game, u64::from(p.attacks)),
            p.time_total_ms,
            p.time_max_ms,
            p.cpu_total_ms,
            p.cpu_max_ms,
            p.peak_memory_kb
        ));
        if p.strikes > 0 {
            out.push_str(&format!(
                "    {} {} late within the time margin (strikes)\n",
                p.strikes,
                if p.strikes == 1 { "reply" } else { "replies" }
            ));
        }
        if let Some(d) = &p.disqualification {
            debug_assert!(d.verdict != Verdict::Ok);
            out.push_str(&format!(
                "    disqualified ({}) at reply {}: {}\n",
                d.verdict,
                d.at_move,
                escape(&d.detail)
            ));
            for line in &p.stderr_tail {
                out.push_str(&format!("    stderr: {}\n", escape(line)));
            }
        }
    }
    out.push_str(&format!(
        "Replay: {}\n",
        escape(&as_invoked(&record.replay))
    ));
    out
}
