//! A game as the replay viewer shows it, made from its transcript: each
//! move in order (who, what, the feedback it got, how long it took) and,
//! for Cryptron, the board after it, replayed through the rules
//! ([`ReplayBoard`]) rather than trusted from any bot.

use serde::Serialize;

use crate::games::code_game::CodeRules;
use crate::games::cryptron::{mirror, Board, ReplayBoard, ROWS};
use crate::games::{GameConfig, GameOptions, Seat};
use crate::record::MatchRecord;
use crate::transcript::{Direction, Entry};

/// One game for the viewer, embedded in its page as JSON.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GameView {
    pub game: String,
    pub variant: String,
    pub seed: u64,
    /// A then B (then C, D, ...).
    pub bots: Vec<String>,
    /// What each seat answered to `code` (the codes of `--codes bots`).
    pub codes: Vec<Option<String>>,
    pub moves: Vec<Move>,
    /// Disqualifications, in the order they happened.
    pub verdicts: Vec<VerdictView>,
    /// The account's lines that reveal what was hidden (the codes).
    pub reveal: Vec<String>,
    /// The code each seat held, as the account reveals it at the end (in a
    /// solo game the referee holds B's, the one A attacks); none if it was
    /// never chosen.
    pub secrets: Vec<Option<String>>,
    /// A code game's board, from the greeting the referee sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<CodeShape>,
    /// How it ended, for a person: `A wins (cracked)`.
    pub result: String,
    /// The command that plays the game again, as the person can paste it
    /// (the program as they started the referee).
    pub replay: String,
    /// Cryptron: the set-up's board and points, as [`Move::board`] has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_board: Option<[[u8; ROWS]; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_points: Option<[u32; 2]>,
    /// Each bot's last stderr lines (at most [`STDERR_TAIL`]).
    pub stderr: Vec<Vec<String>>,
    /// A judge game's frames, as its record keeps them (see
    /// [`crate::frame`]): the viewer draws them instead of a board.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<serde_json::Value>,
    /// The game folder's own `viewer.js`, which draws its frames instead
    /// of the generic drawing (read from the judge's folder when the
    /// page is made).
    #[serde(skip)]
    pub game_script: Option<String>,
}

/// A code game's board: symbols in a code, symbols to choose from,
/// attacks (rounds, guesses) a seat may make, and whether it is a solo
/// game (the referee holds the secret, only A attacks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodeShape {
    pub length: u32,
    pub symbols: u32,
    pub cap: u32,
    pub solo: bool,
    /// How many codes there are (the candidates before any attack).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codes: Option<u64>,
}

/// The board of a code game from its greeting (`mastermind 4 6 first 12
/// SEED`, `safecracker 3 3 second 100 SEED`, `arrow5 classic solo 50
/// SEED`): the words before the role give the code's size, the word after
/// it the cap.
fn code_shape(game: &str, greeting: &str) -> Option<CodeShape> {
    let words: Vec<&str> = greeting.split_whitespace().collect();
    if words.first() != Some(&game) {
        return None;
    }
    let role = words
        .iter()
        .position(|w| matches!(*w, "first" | "second" | "solo"))?;
    let cap = words.get(role + 1)?.parse().ok()?;
    let (length, symbols) = match game {
        // Five symbols from 0-9 and the eye.
        "arrow5" => (5, 11),
        "mastermind" | "safecracker" if role == 3 => {
            (words[1].parse().ok()?, words[2].parse().ok()?)
        }
        _ => return None,
    };
    Some(CodeShape {
        length,
        symbols,
        cap,
        solo: words[role] == "solo",
        codes: None,
    })
}

/// The rules of a code game, from its greeting: the options its words name
/// (the cap among them, which counting candidates does not need).
fn code_rules(game: &str, greeting: &str) -> Option<GameConfig> {
    let words: Vec<&str> = greeting.split_whitespace().collect();
    let mut options = GameOptions::default();
    match game {
        "arrow5" => options.variant = Some(words.get(1)?.to_string()),
        "mastermind" => {
            options.pegs = Some(words.get(1)?.parse().ok()?);
            options.colours = Some(words.get(2)?.parse().ok()?);
        }
        "safecracker" => {
            options.length = Some(words.get(1)?.parse().ok()?);
            options.digits = Some(words.get(2)?.parse().ok()?);
        }
        _ => return None,
    }
    GameConfig::from_options(game, &options).ok()
}

/// Games with more codes than this show no candidates: counting them for
/// every game of a report would slow it down (Arrow 5's 55,440 codes cost
/// about a quarter second a game in a debug build).
pub const CANDIDATES_UP_TO: u64 = 40_000;

/// After each attack, how many codes give every feedback the attacker has
/// had (by the rules' own feedback): the secrets still possible. `attacks`
/// are one seat's, in order, as the wire had them. An attack that is no
/// code rules nothing out.
fn candidates_after<R: CodeRules>(rules: &R, attacks: &[(&str, Option<&str>)]) -> Vec<u64> {
    let mut left: Vec<R::Code> = (0..rules.secret_count())
        .map(|i| rules.nth_code(i))
        .collect();
    attacks
        .iter()
        .map(|(line, feedback)| {
            let attack = rules.read(line).ok().and_then(|raw| rules.code(&raw).ok());
            if let (Some(attack), Some(feedback)) = (attack, feedback) {
                left.retain(|code| {
                    rules.feedback_line(&rules.feedback(code, &attack)) == *feedback
                });
            }
            left.len() as u64
        })
        .collect()
}

/// Fills in each move's candidates and the shape's count of codes, when the
/// game has few enough codes.
fn count_candidates(view: &mut GameView, greeting: &str) {
    fn count<R: CodeRules>(view: &mut GameView, rules: &R) {
        let total = rules.secret_count();
        if total > CANDIDATES_UP_TO {
            return;
        }
        if let Some(shape) = &mut view.shape {
            shape.codes = Some(total);
        }
        for seat in ["a", "b"] {
            let attacks: Vec<(&str, Option<&str>)> = view
                .moves
                .iter()
                .filter(|m| m.seat == seat)
                .map(|m| (m.line.as_str(), m.feedback.as_deref()))
                .collect();
            let counts = candidates_after(rules, &attacks);
            for (m, n) in view.moves.iter_mut().filter(|m| m.seat == seat).zip(counts) {
                m.candidates = Some(n);
            }
        }
    }
    match code_rules(&view.game, greeting) {
        Some(GameConfig::Arrow5(rules)) => count(view, &rules),
        Some(GameConfig::Mastermind(rules)) => count(view, &rules),
        Some(GameConfig::Safecracker(rules)) => count(view, &rules),
        Some(GameConfig::Cryptron(_) | GameConfig::Judge(_)) | None => {}
    }
}

/// A line of the account that tells a hidden code: `A's code: 5 5 2 3
/// (chosen by the bot)`, or a solo game's `secret: ...` (the referee holds
/// B's code). The account writes these lines itself; a bot's words only
/// ever follow `A: ` or a move's number.
fn revealed_code(line: &str) -> Option<(usize, String)> {
    let (seat, rest) = if let Some(rest) = line.strip_prefix("A's code: ") {
        (0, rest)
    } else if let Some(rest) = line.strip_prefix("B's code: ") {
        (1, rest)
    } else if let Some(rest) = line
        .strip_prefix("secret: ")
        .or_else(|| line.strip_prefix("the secret: "))
    {
        (1, rest)
    } else {
        return None;
    };
    let code = rest.split("  (").next().unwrap_or(rest).trim();
    (!code.is_empty() && !code.starts_with("none")).then(|| (seat, code.to_string()))
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
    /// Code games: the codes still possible for the mover after this
    /// attack's feedback (see [`CANDIDATES_UP_TO`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u64>,
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

impl GameView {
    /// Makes room for `count` seats (never fewer than two: a two-player
    /// view always shows both).
    fn seat_count(&mut self, count: usize) {
        let count = count.max(2);
        self.bots.resize(count, String::new());
        self.codes.resize(count, None);
        self.secrets.resize(count, None);
        self.stderr.resize(count, Vec::new());
    }
}

/// Stderr lines kept per bot for its page.
pub const STDERR_TAIL: usize = 20;

fn seat_name(seat: Seat) -> &'static str {
    seat.label()
}

/// The viewer's game from a transcript's entries (any prefix of one: a
/// transcript cut short shows what it holds).
pub fn game_view(entries: &[Entry]) -> GameView {
    let mut view = GameView::default();
    view.seat_count(2);
    let mut last_request: Vec<Option<String>> = vec![None; 2];
    let mut board: Option<ReplayBoard> = None;
    let mut replies = vec![0u32; 2];
    let mut greeting: Option<String> = None;
    // Every reply as a move, codes included: a judge game's frames count
    // every reply the judge accepted, whatever the request's word.
    let mut every_reply: Vec<Move> = Vec::new();
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
                view.seat_count(bots.len());
                last_request.resize(view.bots.len(), None);
                replies.resize(view.bots.len(), 0);
                view.bots[..bots.len()].clone_from_slice(bots);
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
                if i >= view.bots.len() {
                    // A seat the header did not name: nothing to show it at.
                    continue;
                }
                match dir {
                    Direction::To => {
                        if view.shape.is_none() && board.is_none() {
                            view.shape = code_shape(&view.game, line);
                            if view.shape.is_some() {
                                greeting = Some(line.clone());
                            }
                        }
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
                        let mut m = Move {
                            seat: seat_name(*bot),
                            line: line.clone(),
                            feedback: None,
                            wall_ms: wall_us.map(|us| us as f64 / 1000.0),
                            cpu_ms: cpu_us.map(|us| us as f64 / 1000.0),
                            board: None,
                            points: None,
                            candidates: None,
                            reply: replies[i],
                        };
                        every_reply.push(m.clone());
                        if request.as_deref() == Some("code") {
                            view.codes[i] = Some(line.clone());
                            continue;
                        }
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
                view.replay = crate::report::as_invoked(&record.replay);
                view.reveal = record
                    .account
                    .iter()
                    .filter(|l| revealed_code(l).is_some())
                    .cloned()
                    .collect();
                for (seat, code) in record.account.iter().filter_map(|l| revealed_code(l)) {
                    view.secrets[seat] = Some(code);
                }
                view.frames = record.frames.clone();
                view.game_script = game_script(record);
                if is_judge_game(record) {
                    // A judge's words are its own: a `code` request is a
                    // move like any other, and its frames follow every
                    // reply.
                    view.moves = std::mem::take(&mut every_reply);
                    view.codes = Default::default();
                    // Its greeting may look like a built-in game's: its
                    // frames are its board, not a code game's.
                    view.shape = None;
                    greeting = None;
                }
            }
        }
    }
    if let Some(greeting) = greeting {
        count_candidates(&mut view, &greeting);
    }
    view
}

/// Whether the record is of a game a judge played.
fn is_judge_game(record: &MatchRecord) -> bool {
    matches!(&record.plan, Some(crate::replay::ReplayPlan::Match(plan)) if plan.config.judge().is_some())
}

/// A judge game's own viewer: `viewer.js` in the judge's folder, if the
/// folder ships one (a script in the page: `</` written `<\/`, so that it
/// cannot close its element, and `<!--` and `<script` written `<\!--` and
/// `<\script`, after which the HTML parser would never close it; in a
/// string, a regular expression or a comment each reads as before).
fn game_script(record: &MatchRecord) -> Option<String> {
    let Some(crate::replay::ReplayPlan::Match(plan)) = &record.plan else {
        return None;
    };
    let judge = plan.config.judge()?;
    let folder = std::path::Path::new(&judge.path).parent()?;
    let script = std::fs::read_to_string(folder.join("viewer.js")).ok()?;
    Some(inline_script(&script))
}

/// `script` safe to put between `<script>` and `</script>`: a backslash
/// after each `<` that begins `/`, `!--` or `script` (in any case), the
/// three ways a script's text can end its element or keep the parser from
/// ever ending it.
fn inline_script(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    let mut rest = script;
    while let Some(at) = rest.find('<') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        out.push('<');
        let after = &from[1..];
        let starts = |word: &str| {
            after
                .get(..word.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(word))
        };
        if starts("/") || starts("!--") || starts("script") {
            out.push('\\');
        }
        rest = after;
    }
    out.push_str(rest);
    out
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

/// `A wins (cracked)`, `draw (round-cap)`; at a table of more than two,
/// from the places: `D wins (last-cycle)`, `A and C share first (...)`
/// (the record's winner says only A, B or neither).
pub fn result_line(record: &MatchRecord) -> String {
    result_text(record.winner, record.ranks.as_deref(), &record.reason)
}

fn result_text(winner: crate::games::Winner, ranks: Option<&[u32]>, reason: &str) -> String {
    use crate::games::Winner;
    if let Some(ranks) = ranks.filter(|r| r.len() > 2) {
        let first: Vec<String> = Seat::all(ranks.len())
            .filter(|seat| ranks[seat.index()] == 0)
            .map(|seat| seat.to_string())
            .collect();
        return match first.as_slice() {
            [one] => format!("{one} wins ({reason})"),
            [] => format!("no place given ({reason})"),
            [rest @ .., last] if first.len() < ranks.len() => {
                format!("{} and {last} share first ({reason})", rest.join(", "))
            }
            _ => format!("draw ({reason})"),
        };
    }
    match winner {
        Winner::A => format!("A wins ({reason})"),
        Winner::B => format!("B wins ({reason})"),
        Winner::Draw => format!("draw ({reason})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_of_more_than_two_is_told_by_its_places() {
        use crate::games::Winner;
        let line = |ranks: &[u32]| result_text(Winner::Draw, Some(ranks), "last-cycle");
        assert_eq!(line(&[1, 3, 2, 0]), "D wins (last-cycle)");
        assert_eq!(line(&[0, 2, 0, 0]), "A, C and D share first (last-cycle)");
        assert_eq!(line(&[0, 0, 0]), "draw (last-cycle)");
        assert_eq!(result_text(Winner::B, Some(&[1, 0]), "x"), "B wins (x)");
    }

    #[test]
    fn greetings_give_the_board() {
        let shape = |length, symbols, cap, solo| {
            Some(CodeShape {
                length,
                symbols,
                cap,
                solo,
                codes: None,
            })
        };
        assert_eq!(
            code_shape("mastermind", "mastermind 4 6 first 12 99"),
            shape(4, 6, 12, false)
        );
        assert_eq!(
            code_shape("safecracker", "safecracker 3 5 solo 100 7"),
            shape(3, 5, 100, true)
        );
        assert_eq!(
            code_shape("arrow5", "arrow5 classic second 50 1"),
            shape(5, 11, 50, false)
        );
        assert_eq!(code_shape("arrow5", "signal > <"), None);
        assert_eq!(code_shape("mastermind", "mastermind 4 first"), None);
    }

    #[test]
    fn candidates_are_the_codes_every_feedback_allows() {
        let Some(GameConfig::Mastermind(rules)) =
            code_rules("mastermind", "mastermind 4 6 first 12 1")
        else {
            panic!("mastermind's rules");
        };
        // Secret 0 0 1 1: every code with black 4 is the secret alone; the
        // first attack's feedback keeps the codes that score it the same.
        let counts = candidates_after(
            &rules,
            &[
                ("0 0 0 0", Some("feedback 2 0")),
                ("x", None),
                ("0 0 1 1", Some("feedback 4 0")),
            ],
        );
        let expected = (0..rules.secret_count())
            .map(|i| rules.nth_code(i).to_string())
            .filter(|c| c.split(' ').filter(|s| *s == "0").count() == 2)
            .count() as u64;
        assert_eq!(counts, vec![expected, expected, 1]);
        assert_eq!(
            expected, 150,
            "two 0s among four pegs of six colours: 6 x 25"
        );
    }

    #[test]
    fn only_the_accounts_own_lines_reveal_codes() {
        assert_eq!(
            revealed_code("A's code: 2-2-1  (chosen by the bot)"),
            Some((0, "2-2-1".into()))
        );
        assert_eq!(
            revealed_code("the secret: 1-2-3  (held by the referee)"),
            Some((1, "1-2-3".into()))
        );
        assert_eq!(
            revealed_code("secret: 5 5 2 3  (code 7 of 1296, held by the referee)"),
            Some((1, "5 5 2 3".into()))
        );
        assert_eq!(
            revealed_code("B's code: none (the bot did not choose one)"),
            None
        );
        assert_eq!(revealed_code("A: x's code: 1 1 1  (bot)"), None);
    }

    #[test]
    fn an_inline_script_cannot_end_or_hold_open_its_element() {
        assert_eq!(
            inline_script("a</script><!--<ScRiPt>x<y"),
            "a<\\/script><\\!--<\\ScRiPt>x<y"
        );
    }
}
