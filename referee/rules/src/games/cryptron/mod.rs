//! Cryptron (`docs/rules/cryptron.md`): 8 rows, 12 HackDroids a side,
//! two attacks a turn (one row ahead, then exactly as many rows as the first
//! attack's landing row held before it), points for droids deep in the
//! opponent's half.
//!
//! Every player sees its own base as row 0 and the opponent's as row 7, and
//! every move on the wire is written in its author's own frame; the state
//! keeps each side's droids in that side's own frame too. Decisions the rule
//! text leaves open are in protocol.md, §6, "Rules clarifications";
//! each is marked `Clarification` where it is implemented.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Applied, Game, GameConfigError, GameOptions, Outcome, Rejected, Seat, Status, Winner};

mod board;

pub use board::*;

/// Rows 0 (own base) to 7 (the opponent's base).
pub const ROWS: usize = 8;
/// The opponent's base, in a player's own frame.
pub const TOP: u8 = 7;
/// Rows 1-6 hold at most this many droids, both sides together.
pub const ROW_CAPACITY: u8 = 6;
/// Droids per side.
pub const DROIDS: u8 = 12;
/// Clarification: the line a player writes when it has no legal first attack.
pub const PASS_LINE: &str = "0,0,0,0";

/// Points per droid by row of its owner's frame (the rules' marking scheme;
/// the opponent's table is the same one mirrored).
pub const POINTS: [u32; ROWS] = [0, 0, 0, 0, 1, 2, 3, 5];

/// The contest's memory limit ("less than 8MB"), in KiB: the default a
/// Cryptron bot gets when the user sets none, on top of its language's
/// allowance (protocol.md, §6, "Limits").
pub const MEMORY_KB: u64 = 8 * 1024;

/// Who is player 1 (moves first). Clarification: the rules choose player 1
/// at random; the referee tosses a coin drawn from the game's seeded random
/// numbers, unless `--first a|b` fixes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum First {
    A,
    B,
    #[default]
    #[serde(alias = "toss")]
    Random,
}

impl First {
    pub fn name(self) -> &'static str {
        match self {
            First::A => "a",
            First::B => "b",
            First::Random => "random",
        }
    }
}

/// Cryptron's one parameter: who is player 1.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Player 1: `a` (the first BOT), `b`, or a coin toss (the default).
    #[serde(default)]
    pub first: First,
}

impl Config {
    /// Accepts `first` only (`a`, `b`, `random` or `toss`, any case).
    pub fn from_options(options: &GameOptions) -> Result<Config, GameConfigError> {
        options.accept_only("cryptron", &["first"])?;
        let mut config = Config::default();
        if let Some(f) = &options.first {
            config.first = match f.to_ascii_lowercase().as_str() {
                "a" => First::A,
                "b" => First::B,
                "random" | "toss" => First::Random,
                _ => {
                    return Err(GameConfigError::BadValue {
                        game: "cryptron",
                        option: "first",
                        expected: "'a', 'b' or 'random' (a coin toss; 'toss' too)",
                        value: f.clone(),
                    })
                }
            };
        }
        Ok(config)
    }

    pub fn variant_name(&self) -> &'static str {
        "standard"
    }

    /// `--first` only when it was fixed: a coin toss is reproduced by the
    /// replay's key and seed.
    /// The fields of [`super::CanonicalConfig`], spelled for good: none
    /// for a coin toss.
    pub fn canonical_fields(&self) -> Vec<(&'static str, String)> {
        let Config { first } = self;
        match first {
            First::Random => vec![],
            First::A => vec![("first", "a".into())],
            First::B => vec![("first", "b".into())],
        }
    }

    pub fn cli_flags(&self) -> Vec<String> {
        match self.first {
            First::Random => vec![],
            fixed => vec!["--first".into(), fixed.name().into()],
        }
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Cryptron {
    config: Config,
    board: Board,
    /// Player 1, who made (or makes) the first move.
    first: Seat,
    to_move: Seat,
    turns: [u32; 2],
    /// The last turn, as its author's canonical line (the next request).
    last: Option<String>,
}

impl Cryptron {
    /// A new game. Player 1 is the seat `config.first` names, or with
    /// `First::Random` a coin toss drawn from `rng` (the game's seeded random
    /// numbers, so a replay with the same key and seed tosses the same).
    pub fn new<R: Rng>(config: Config, rng: &mut R) -> Cryptron {
        let first = match config.first {
            First::A => Seat::A,
            First::B => Seat::B,
            First::Random => {
                if rng.gen::<bool>() {
                    Seat::A
                } else {
                    Seat::B
                }
            }
        };
        Cryptron {
            config,
            ..Cryptron::from_board(Board::initial(), first)
        }
    }

    /// A game from any position (tests, replays); `to_move` counts as player 1.
    pub fn from_board(board: Board, to_move: Seat) -> Cryptron {
        Cryptron {
            config: Config {
                first: match to_move {
                    Seat::A => First::A,
                    _ => First::B,
                },
            },
            board,
            first: to_move,
            to_move,
            turns: [0, 0],
            last: None,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Player 1: the seat that moved first.
    pub fn first(&self) -> Seat {
        self.first
    }

    fn outcome(&self, reason: &str) -> Outcome {
        let (a, b) = (self.board.points(Seat::A), self.board.points(Seat::B));
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Winner::A,
            std::cmp::Ordering::Less => Winner::B,
            std::cmp::Ordering::Equal => Winner::Draw,
        };
        Outcome {
            winner,
            reason: reason.to_string(),
        }
    }
}

/// Reads `i1,f1,i2,f2`. Liberal: commas, spaces, tabs or semicolons between
/// the numbers, optional parentheses, four digits with no separator, and the
/// word `pass` for `0,0,0,0`.
pub fn parse_line(line: &str) -> Result<Reply, String> {
    let trimmed = line
        .trim()
        .trim_start_matches(['(', '['])
        .trim_end_matches([')', ']'])
        .trim();
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(Reply([0; 4]));
    }
    if trimmed.is_empty() {
        return Err("expected a move i1,f1,i2,f2 (e.g. 0,1,0,2), got an empty line".into());
    }
    let tokens: Vec<&str> = if trimmed.chars().all(|c| c.is_ascii_digit()) {
        trimmed
            .char_indices()
            .map(|(i, c)| &trimmed[i..i + c.len_utf8()])
            .collect()
    } else {
        trimmed
            .split([',', ';', ' ', '\t'])
            .filter(|t| !t.is_empty())
            .collect()
    };
    if tokens.len() != 4 {
        return Err(format!(
            "expected 4 rows i1,f1,i2,f2 (e.g. 0,1,0,2), got {} in '{}'",
            tokens.len(),
            crate::protocol::shorten(line.trim())
        ));
    }
    let mut rows = [0u8; 4];
    for (slot, token) in rows.iter_mut().zip(&tokens) {
        *slot = match token.parse::<u8>() {
            Ok(r) if r <= TOP => r,
            _ => {
                return Err(format!(
                    "'{}' is not a row (rows are 0 to 7)",
                    crate::protocol::shorten(token)
                ))
            }
        };
    }
    Ok(Reply(rows))
}

impl Game for Cryptron {
    type Reply = Reply;

    /// The player number: `1` for the seat that moves first, `2` for the other.
    fn greeting(&self, seat: Seat) -> String {
        if seat == self.first {
            "1".into()
        } else {
            "2".into()
        }
    }

    fn first_to_move(&self) -> Seat {
        self.first
    }

    /// Who the coin toss made player 1, before the turns.
    fn opening(&self) -> Vec<String> {
        match self.config.first {
            First::Random => vec![format!(
                "{} is player 1 and moves first (coin toss)",
                self.first
            )],
            First::A | First::B => vec![],
        }
    }

    fn status(&self) -> Status {
        if let Some(reason) = self.board.end() {
            return Status::Over(self.outcome(reason));
        }
        Status::Ask {
            seat: self.to_move,
            // Player 1's first move is asked by nothing; every other request
            // is the opponent's last turn, in the opponent's own frame.
            request: self.last.clone(),
        }
    }

    fn parse_reply(&self, line: &str) -> Result<Reply, String> {
        parse_line(line)
    }

    fn apply(mut self, reply: Reply) -> Result<Applied<Self>, Rejected<Self>> {
        let seat = self.to_move;
        let turn = match self.board.judge(seat, reply) {
            Ok(turn) => turn,
            Err(rule) => {
                let [i1, f1, i2, f2] = reply.0;
                return Err(Rejected {
                    game: self,
                    rule: format!("{i1},{f1},{i2},{f2}: {rule}"),
                });
            }
        };
        let note = match turn {
            Turn::Pass => "pass (no first attack is legal)".to_string(),
            Turn::Play { first, second } => {
                let len = self.board.second_length(seat, first);
                let second = match second {
                    Some(s) => format!("{}->{}", s.from, s.to),
                    None => "none legal".into(),
                };
                format!(
                    "{}->{}, then {len} row{}: {second}",
                    first.from,
                    first.to,
                    if len == 1 { "" } else { "s" }
                )
            }
        };
        self.board.play_unchecked(seat, turn);
        self.turns[seat.index()] += 1;
        self.last = Some(turn.line());
        self.to_move = seat.other();
        let account = format!(
            "{seat} {}  ({note}; points A {}, B {})",
            turn.line(),
            self.board.points(Seat::A),
            self.board.points(Seat::B)
        );
        Ok(Applied {
            game: self,
            notices: vec![],
            account,
        })
    }

    fn attacks(&self, seat: Seat) -> u32 {
        self.turns[seat.index()]
    }

    fn summary(&self) -> Vec<String> {
        let mut lines: Vec<String> = draw_board(&self.board)
            .lines()
            .map(str::to_string)
            .collect();
        lines.push(format!(
            "points A {} B {}",
            self.board.points(Seat::A),
            self.board.points(Seat::B)
        ));
        lines
    }
}

/// Follows a transcript's replies and draws the board after each turn, for
/// `referee replay`. Stops at the first line the rules refuse.
#[derive(Clone, Debug)]
pub struct ReplayBoard {
    game: Option<Cryptron>,
}

impl Default for ReplayBoard {
    fn default() -> Self {
        ReplayBoard {
            game: Some(Cryptron::from_board(Board::initial(), Seat::A)),
        }
    }
}

impl ReplayBoard {
    /// The board after `seat` wrote `line`, if it was that seat's turn and
    /// the rules accepted it. The first reply tells who was player 1 (a coin
    /// toss may have made it B).
    pub fn after_reply(&mut self, seat: Seat, line: &str) -> Option<String> {
        self.board_after_reply(seat, line).map(draw_board)
    }

    /// [`ReplayBoard::after_reply`], the board itself.
    pub fn board_after_reply(&mut self, seat: Seat, line: &str) -> Option<&Board> {
        // Cryptron has two seats; a record naming a third moves nothing.
        if !Seat::BOTH.contains(&seat) {
            return None;
        }
        let mut game = self.game.take()?;
        if game.turns == [0, 0] && game.to_move != seat {
            game = Cryptron::from_board(game.board, seat);
        }
        if game.to_move != seat || game.board.end().is_some() {
            self.game = Some(game);
            return None;
        }
        let reply = parse_line(line).ok()?;
        let applied = game.apply(reply).ok()?;
        self.game = Some(applied.game);
        self.game.as_ref().map(|g| &g.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn judge(board: &Board, seat: Seat, line: &str) -> Result<Turn, String> {
        board.judge(seat, parse_line(line).unwrap())
    }

    fn play(board: &mut Board, seat: Seat, line: &str) {
        let turn = judge(board, seat, line).unwrap();
        board.play_unchecked(seat, turn);
    }

    #[test]
    fn the_set_up_is_the_rules_one() {
        let b = Board::initial();
        for seat in Seat::BOTH {
            assert_eq!((0..8).map(|r| b.own(seat, r)).sum::<u8>(), DROIDS);
            assert_eq!(b.own(seat, 0), 6);
            assert_eq!(b.own(seat, 7), 0);
            for r in 1..=6 {
                assert_eq!(b.total(seat, r), 2, "row {r}");
            }
            assert_eq!(b.points(seat), 1 + 2 + 3);
        }
    }

    /// The rules' worked example: row 0 to row 1, whose 2 droids make the
    /// second attack a jump of exactly 2 (row 0 to row 2).
    #[test]
    fn worked_example() {
        let b = Board::initial();
        let first = Step { from: 0, to: 1 };
        assert_eq!(b.second_length(Seat::A, first), 2);
        assert_eq!(
            judge(&b, Seat::A, "0,1,0,2"),
            Ok(Turn::Play {
                first,
                second: Some(Step { from: 0, to: 2 })
            })
        );
        let mut after = b;
        play(&mut after, Seat::A, "0,1,0,2");
        assert_eq!(after.own(Seat::A, 0), 4);
        assert_eq!(after.own(Seat::A, 1), 2);
        assert_eq!(after.own(Seat::A, 2), 2);
        // A jump of 1 or 3 is not the rule's 2.
        for wrong in ["0,1,0,1", "0,1,0,3", "0,1,1,4"] {
            let err = judge(&b, Seat::A, wrong).unwrap_err();
            assert!(err.contains("exactly 2 rows"), "{wrong}: {err}");
        }
    }

    /// Rule cases as data: board (A's own rows, B's own rows), seat, line,
    /// expected result (Ok canonical line, or a piece of the error).
    #[test]
    fn rule_cases() {
        const INIT: [u8; 8] = [6, 1, 1, 1, 1, 1, 1, 0];
        type Case = (
            [u8; 8],
            [u8; 8],
            Seat,
            &'static str,
            Result<&'static str, &'static str>,
        );
        let cases: &[Case] = &[
            // The special case: landing in the opponent's base makes the second attack 1.
            (INIT, INIT, Seat::A, "6,7,5,6", Ok("6,7,5,6")),
            (INIT, INIT, Seat::A, "6,7,4,6", Err("exactly 1 row")),
            // The same droid may make both attacks.
            (INIT, INIT, Seat::B, "3,4,4,6", Ok("3,4,4,6")),
            // The first attack is one row only.
            (INIT, INIT, Seat::A, "0,2,0,2", Err("first attack")),
            // No droid there.
            (
                [6, 0, 2, 1, 1, 1, 1, 0],
                INIT,
                Seat::A,
                "1,2,0,2",
                Err("no droid of yours in row 1"),
            ),
            // Capacity: A's row 3 = B's row 4, 6 droids in all.
            (
                [3, 1, 1, 4, 1, 1, 1, 0],
                [3, 1, 1, 2, 2, 1, 1, 1],
                Seat::A,
                "2,3,0,2",
                Err("already holds 6"),
            ),
            // The base holds any number.
            (
                [0, 0, 0, 0, 0, 0, 1, 11],
                [12, 0, 0, 0, 0, 0, 0, 0],
                Seat::A,
                "6,7,6,7",
                Err("no droid of yours in row 6"),
            ),
            // Overshooting row 7 is not a move: the only 1-row second attack
            // would need a droid below row 7, none is left, so f1,f1.
            (
                [0, 0, 0, 0, 0, 0, 1, 11],
                [12, 0, 0, 0, 0, 0, 0, 0],
                Seat::A,
                "6,7,7,7",
                Ok("6,7,7,7"),
            ),
            // Length 0: the landing row was empty.
            (
                [5, 0, 0, 0, 0, 0, 0, 7],
                [12, 0, 0, 0, 0, 0, 0, 0],
                Seat::A,
                "0,1,1,1",
                Ok("0,1,1,1"),
            ),
            (
                [5, 0, 0, 0, 0, 0, 0, 7],
                [12, 0, 0, 0, 0, 0, 0, 0],
                Seat::A,
                "0,1,3,3",
                Ok("0,1,1,1"),
            ),
            (
                [5, 0, 0, 0, 0, 0, 0, 7],
                [12, 0, 0, 0, 0, 0, 0, 0],
                Seat::A,
                "0,1,0,1",
                Err("length 0"),
            ),
            // A void second attack while one is legal.
            (INIT, INIT, Seat::A, "0,1,1,1", Err("is legal")),
            // The pass, only when blocked.
            (INIT, INIT, Seat::A, "0,0,0,0", Err("pass")),
            (
                [0, 0, 0, 0, 0, 0, 0, 12],
                [6, 0, 0, 0, 0, 0, 6, 0],
                Seat::A,
                "0,0,0,0",
                Ok("0,0,0,0"),
            ),
            (
                [0, 0, 0, 0, 0, 0, 0, 12],
                [6, 0, 0, 0, 0, 0, 6, 0],
                Seat::A,
                "6,7,6,7",
                Err("must be 0,0,0,0"),
            ),
        ];
        for (a, b, seat, line, expected) in cases {
            let board = Board::from_rows([*a, *b]);
            let got = judge(&board, *seat, line);
            match (expected, &got) {
                (Ok(canonical), Ok(turn)) => assert_eq!(turn.line(), *canonical, "{line}"),
                (Err(piece), Err(why)) => assert!(why.contains(piece), "{line}: {why}"),
                _ => panic!("{line} on {a:?}/{b:?}: expected {expected:?}, got {got:?}"),
            }
        }
    }

    #[test]
    fn frames_mirror() {
        let mut b = Board::initial();
        // A moves 0->1 and 0->2: in B's frame rows 6 and 5 gain an A droid.
        play(&mut b, Seat::A, "0,1,0,2");
        assert_eq!(b.total(Seat::B, 6), 3);
        assert_eq!(b.total(Seat::B, 5), 3);
        assert_eq!(b.total(Seat::B, 7), 4);
        // B's first attack into its row 6 (A's row 1) now has length 3.
        assert_eq!(b.second_length(Seat::B, Step { from: 5, to: 6 }), 3);
        assert_eq!(mirror(0), 7);
        assert_eq!(mirror(mirror(3)), 3);
    }

    #[test]
    fn scoring_follows_the_table() {
        // A: 2 in row 7, 1 in 6, 1 in 5, 1 in 4 = 10+3+2+1; B mirrored.
        let b = Board::from_rows([[5, 1, 1, 0, 1, 1, 1, 2], [8, 0, 0, 0, 1, 0, 0, 3]]);
        assert_eq!(b.points(Seat::A), 16);
        assert_eq!(b.points(Seat::B), 16);
        let game = Cryptron::from_board(b, Seat::A);
        assert_eq!(game.outcome("x").winner, Winner::Draw);
        let b = Board::from_rows([[5, 1, 1, 0, 1, 1, 1, 2], [8, 0, 0, 0, 1, 1, 0, 2]]);
        assert_eq!(
            Cryptron::from_board(b, Seat::A).outcome("x").winner,
            Winner::A
        );
    }

    #[test]
    fn end_detection() {
        assert_eq!(Board::initial().end(), None);
        // Every A droid above every B droid.
        let passed = Board::from_rows([[0, 0, 0, 0, 6, 3, 2, 1], [0, 0, 0, 0, 6, 4, 2, 0]]);
        assert_eq!(passed.end(), Some("all-passed"));
        // One A droid still level with a B droid: not yet.
        let level = Board::from_rows([[0, 0, 0, 1, 5, 3, 2, 1], [0, 0, 0, 0, 6, 4, 2, 0]]);
        assert_eq!(level.end(), None);
        // Nobody can move: every droid blocked by full rows.
        let stuck = Board::from_rows([[6, 0, 0, 0, 0, 0, 0, 6], [6, 0, 0, 0, 0, 0, 0, 6]]);
        assert!(stuck.can_move(Seat::A));
        let blocked = Board::from_rows([[0, 0, 0, 0, 0, 6, 0, 6], [0, 6, 0, 0, 0, 0, 0, 6]]);
        assert!(!blocked.can_move(Seat::A) && !blocked.can_move(Seat::B));
        assert_eq!(blocked.end(), Some("no-moves"));
    }

    #[test]
    fn wire_spellings() {
        for line in [
            "0,1,0,2",
            " 0, 1, 0, 2 ",
            "(0,1,0,2)",
            "0 1 0 2",
            "0102",
            "0;1;0;2\r",
        ] {
            assert_eq!(parse_line(line), Ok(Reply([0, 1, 0, 2])), "{line:?}");
        }
        assert_eq!(parse_line("PASS"), Ok(Reply([0; 4])));
        assert!(parse_line("0,1,0").unwrap_err().contains("got 3"));
        assert!(parse_line("0,1,0,8").unwrap_err().contains("not a row"));
        assert!(parse_line("").unwrap_err().contains("empty"));
        assert!(parse_line("a,b,c,d").unwrap_err().contains("not a row"));
    }

    #[test]
    fn protocol_turns_and_requests() {
        let game = Cryptron::from_board(Board::initial(), Seat::A);
        assert_eq!(game.greeting(Seat::A), "1");
        assert_eq!(game.greeting(Seat::B), "2");
        assert_eq!(
            game.status(),
            Status::Ask {
                seat: Seat::A,
                request: None
            }
        );
        let game = game.apply(Reply([0, 1, 0, 2])).unwrap().game;
        // B is told A's move as A wrote it.
        assert_eq!(
            game.status(),
            Status::Ask {
                seat: Seat::B,
                request: Some("0,1,0,2".into())
            }
        );
        let rejected = game.apply(Reply([0, 2, 0, 1])).unwrap_err();
        assert!(rejected.rule.contains("first attack"), "{}", rejected.rule);
        assert_eq!(rejected.game.attacks(Seat::A), 1);
    }

    #[test]
    fn replay_board_draws_each_turn() {
        let mut replay = ReplayBoard::default();
        let drawing = replay.after_reply(Seat::A, "0,1,0,2").unwrap();
        assert!(drawing.contains("      1 | aab"), "{drawing}");
        assert!(
            replay.after_reply(Seat::A, "0,1,0,2").is_none(),
            "not A's turn"
        );
        assert!(replay.after_reply(Seat::B, "0,1,0,2").is_some());
        // A game that B began (a coin toss made it player 1).
        let mut replay = ReplayBoard::default();
        let drawing = replay.after_reply(Seat::B, "0,1,0,2").unwrap();
        assert!(drawing.contains("      6 | abb"), "{drawing}");
        assert!(replay.after_reply(Seat::A, "0,1,0,2").is_some());
    }

    #[test]
    fn the_coin_toss_picks_player_1_from_the_seed() {
        use rand::SeedableRng;
        let mut firsts = std::collections::HashSet::new();
        for seed in 0..20 {
            let toss = |seed| {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                Cryptron::new(Config::default(), &mut rng)
            };
            let game = toss(seed);
            assert_eq!(game.first(), toss(seed).first(), "same seed, same toss");
            let first = game.first();
            firsts.insert(first);
            assert_eq!(game.first_to_move(), first);
            assert_eq!(game.greeting(first), "1");
            assert_eq!(game.greeting(first.other()), "2");
            assert_eq!(
                game.status(),
                Status::Ask {
                    seat: first,
                    request: None
                }
            );
            assert_eq!(
                game.opening(),
                vec![format!("{first} is player 1 and moves first (coin toss)")]
            );
        }
        assert_eq!(firsts.len(), 2, "the toss picks both seats over 20 seeds");
        for (name, seat) in [("a", Seat::A), ("B", Seat::B)] {
            let options = GameOptions {
                first: Some(name.into()),
                ..GameOptions::default()
            };
            let config = Config::from_options(&options).unwrap();
            assert_eq!(config.cli_flags(), ["--first", &name.to_lowercase()]);
            for seed in 0..5 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let game = Cryptron::new(config.clone(), &mut rng);
                assert_eq!(game.first(), seat);
                assert!(game.opening().is_empty());
            }
        }
        assert!(Config::default().cli_flags().is_empty());
        let bad = GameOptions {
            first: Some("c".into()),
            ..GameOptions::default()
        };
        let err = Config::from_options(&bad).unwrap_err().to_string();
        assert!(err.contains("'a', 'b' or 'random'"), "{err}");
    }

    fn random_game(seed: u64) -> (Board, u32, Vec<String>) {
        let mut state = seed | 1;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut game = Cryptron::from_board(Board::initial(), Seat::A);
        let mut turns = 0;
        let mut lines = vec![];
        loop {
            match game.status() {
                Status::Over(_) => return (*game.board(), turns, lines),
                Status::Ask { seat, .. } => {
                    let options = game.board.turns(seat);
                    let turn = options[next(options.len())];
                    lines.push(turn.line());
                    let reply = parse_line(&turn.line()).unwrap();
                    game = game.apply(reply).expect("a generated turn is legal").game;
                    turns += 1;
                    assert!(turns < 400, "game too long");
                }
            }
        }
    }

    #[test]
    fn random_games_end() {
        for seed in 0..200 {
            let (board, turns, _) = random_game(seed);
            assert!(board.end().is_some());
            assert!(turns > 0);
        }
    }

    fn any_board() -> impl Strategy<Value = Board> {
        // Random positions reached by random play keep the counts valid.
        (0u64..10_000, 0usize..200).prop_map(|(seed, cut)| {
            let mut board = Board::initial();
            let (_, _, lines) = random_game(seed);
            let mut seat = Seat::A;
            for line in lines.iter().take(cut) {
                play(&mut board, seat, line);
                seat = seat.other();
            }
            board
        })
    }

    proptest! {
        /// The generator and the validator agree: every generated turn is
        /// accepted, and every accepted reply is a generated turn.
        #[test]
        fn generator_and_validator_agree(board in any_board(), seat_b in any::<bool>()) {
            let seat = if seat_b { Seat::B } else { Seat::A };
            let generated = board.turns(seat);
            for turn in &generated {
                prop_assert_eq!(judge(&board, seat, &turn.line()), Ok(*turn));
            }
            for i1 in 0..8u8 { for f1 in 0..8u8 { for i2 in 0..8u8 { for f2 in 0..8u8 {
                if let Ok(turn) = board.judge(seat, Reply([i1, f1, i2, f2])) {
                    prop_assert!(generated.contains(&turn), "{:?} accepted, not generated", turn);
                }
            }}}}
        }

        /// Droids are conserved and rows 1-6 never exceed their capacity.
        #[test]
        fn counts_stay_valid(board in any_board()) {
            for seat in Seat::BOTH {
                prop_assert_eq!((0..8).map(|r| board.own(seat, r)).sum::<u8>(), DROIDS);
                for r in 1..7 {
                    prop_assert!(board.total(seat, r) <= ROW_CAPACITY);
                }
            }
        }

        #[test]
        fn random_play_always_ends(seed in any::<u64>()) {
            let (board, turns, _) = random_game(seed);
            prop_assert!(board.end().is_some());
            prop_assert!(turns < 400);
        }
    }
}
