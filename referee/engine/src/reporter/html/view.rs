//! A game as the replay viewer shows it, made from its transcript: each
//! move in order (who, what, the feedback it got, how long it took) and,
//! for Cryptron, the board after it, replayed through the rules
//! ([`ReplayBoard`]) rather than trusted from any bot.

use serde::Serialize;

use crate::games::cryptron::{mirror, Board, ReplayBoard, ROWS};
use crate::games::Seat;
use crate::record::MatchRecord;
use crate::transcript::{Direction, Entry};

/// One game for the viewer, embedded in its page as JSON.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GameView {
    pub game: String,
    pub variant: String,
    pub seed: u64,
    /// A then B.
    pub bots: [String; 2],
    /// What each seat answered to `code` (the codes of `--codes bots`).
    pub codes: [Option<String>; 2],
    pub moves: Vec<Move>,
    /// Disqualifications, in the order they happened.
    pub verdicts: Vec<VerdictView>,
    /// The account's lines that reveal what was hidden (the codes).
    pub reveal: Vec<String>,
    /// How it ended, for a person: `A wins (cracked)`.
    pub result: String,
    pub replay: String,
    /// Cryptron: the set-up's board and points, as [`Move::board`] has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_board: Option<[[u8; ROWS]; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_points: Option<[u32; 2]>,
    /// Each bot's last stderr lines (at most [`STDERR_TAIL`]).
    pub stderr: [Vec<String>; 2],
}

/// One move: a reply to `attack`, `guess` or a Cryptron turn.
#[derive(Clone, Debug, Serialize)]
pub struct Move {
    /// `a` or `b`.
    pub seat: &'static str,
    /// The reply as the bot wrote it.
    pub line: String,
    /// What the referee told the mover about it (`signal > . <`,
    /// `feedback 2 1`), if anything.
    pub feedback: Option<String>,
    pub wall_ms: Option<f64>,
    pub cpu_ms: Option<f64>,
    /// Cryptron: droids of A then B in each row of A's frame (row 0, A's
    /// base, first) after this move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<[[u8; ROWS]; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<[u32; 2]>,
    /// This reply's number among the mover's replies (a `code` answer counts).
    #[serde(skip)]
    pub reply: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerdictView {
    pub seat: &'static str,
    pub verdict: String,
    pub detail: String,
    /// The bot's reply at fault, counted as the rules' verdicts count them.
    pub at_move: u32,
    /// The viewer's move (1-based over both seats) at which it happened:
    /// the faulty move, or the last move when the reply never came.
    pub move_number: usize,
}

/// Stderr lines kept per bot for its page.
pub const STDERR_TAIL: usize = 20;

fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "a",
        Seat::B => "b",
    }
}

/// The viewer's game from a transcript's entries (any prefix of one: a
/// transcript cut short shows what it holds).
pub fn game_view(entries: &[Entry]) -> GameView {
    let mut view = GameView::default();
    let mut last_request: [Option<String>; 2] = [None, None];
    let mut board: Option<ReplayBoard> = None;
    let mut replies = [0u32; 2];
    for entry in entries {
        match entry {
            Entry::Header {
                game,
                variant,
                seed,
                bots,
                ..
            } => {
                view.game = game.clone();
                view.variant = variant.clone();
                view.seed = *seed;
                view.bots = bots.clone();
                board = (game == "cryptron").then(ReplayBoard::default);
                if board.is_some() {
                    let initial = Board::initial();
                    view.initial_board = Some(rows_of(&initial));
                    view.initial_points = Some([initial.points(Seat::A), initial.points(Seat::B)]);
                }
            }
            Entry::Message {
                bot,
                dir,
                line,
                wall_us,
                cpu_us,
                ..
            } => {
                let i = bot.index();
                match dir {
                    Direction::To => {
                        let word = line.split_whitespace().next().unwrap_or("");
                        if matches!(word, "signal" | "feedback") {
                            if let Some(m) = view
                                .moves
                                .iter_mut()
                                .rev()
                                .find(|m| m.seat == seat_name(*bot))
                            {
                                if m.feedback.is_none() {
                                    m.feedback = Some(line.clone());
                                }
                            }
                        }
                        last_request[i] = Some(word.to_string());
                    }
                    Direction::From => {
                        replies[i] += 1;
                        let request = last_request[i].take();
                        if request.as_deref() == Some("code") {
                            view.codes[i] = Some(line.clone());
                            continue;
                        }
                        let mut m = Move {
                            seat: seat_name(*bot),
                            line: line.clone(),
                            feedback: None,
                            wall_ms: wall_us.map(|us| us as f64 / 1000.0),
                            cpu_ms: cpu_us.map(|us| us as f64 / 1000.0),
                            board: None,
                            points: None,
                            reply: replies[i],
                        };
                        if let Some(replay) = &mut board {
                            if let Some(b) = replay.board_after_reply(*bot, line) {
                                m.board = Some(rows_of(b));
                                m.points = Some([b.points(Seat::A), b.points(Seat::B)]);
                            }
                        }
                        view.moves.push(m);
                    }
                    Direction::Stderr => {
                        let tail = &mut view.stderr[i];
                        if tail.len() == STDERR_TAIL {
                            tail.remove(0);
                        }
                        tail.push(line.clone());
                    }
                }
            }
            Entry::Verdict {
                bot,
                disqualification,
                ..
            } => {
                let seat = seat_name(*bot);
                let move_number = view
                    .moves
                    .iter()
                    .position(|m| m.seat == seat && m.reply == disqualification.at_move)
                    .map_or(view.moves.len(), |p| p + 1);
                view.verdicts.push(VerdictView {
                    seat,
                    verdict: disqualification.verdict.to_string(),
                    detail: disqualification.detail.clone(),
                    at_move: disqualification.at_move,
                    move_number,
                })
            }
            Entry::Result { record } => {
                view.result = result_line(record);
                view.replay = record.replay.clone();
                view.reveal = record
                    .account
                    .iter()
                    .filter(|l| l.contains("'s code"))
                    .cloned()
                    .collect();
            }
        }
    }
    view
}

/// Droids of A then B in each row of A's frame.
fn rows_of(board: &Board) -> [[u8; ROWS]; 2] {
    let mut rows = [[0u8; ROWS]; 2];
    for row in 0..ROWS as u8 {
        rows[0][row as usize] = board.own(Seat::A, row);
        rows[1][row as usize] = board.own(Seat::B, mirror(row));
    }
    rows
}

/// `A wins (cracked)`, `draw (round-cap)`.
pub fn result_line(record: &MatchRecord) -> String {
    use crate::games::Winner;
    match record.winner {
        Winner::A => format!("A wins ({})", record.reason),
        Winner::B => format!("B wins ({})", record.reason),
        Winner::Draw => format!("draw ({})", record.reason),
    }
}
