//! The board and the moves on it: droid counts in each side's own frame,
//! a reply judged against the rules into a turn, a turn played, points.

use super::*;

/// Droid counts, each side in its own frame: `rows[seat][r]` is how many of
/// `seat`'s droids stand in row `r` as `seat` sees it (its row `r` is the
/// opponent's row `7 - r`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: [[u8; ROWS]; 2],
}

/// One attack: a droid from `from` to `to`, both in the mover's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

/// A whole turn as the rules judge it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// No first attack was possible (written `0,0,0,0`).
    Pass,
    /// A first attack and, unless none was possible, a second one
    /// (`None` is written `f1,f1`).
    Play { first: Step, second: Option<Step> },
}

impl Turn {
    /// The canonical wire form, in the mover's frame: `i1,f1,i2,f2`.
    pub fn line(&self) -> String {
        match self {
            Turn::Pass => PASS_LINE.to_string(),
            Turn::Play { first, second } => {
                let (i2, f2) = match second {
                    Some(s) => (s.from, s.to),
                    None => (first.to, first.to),
                };
                format!("{},{},{},{}", first.from, first.to, i2, f2)
            }
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

/// A reply line, parsed for syntax only: four row numbers, each 0 to 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reply(pub [u8; 4]);

/// Converts a row between the two frames (row `r` of one side is row `7 - r`
/// of the other).
pub fn mirror(row: u8) -> u8 {
    TOP - row
}

impl Board {
    /// The rules' set-up: 6 droids in each base, one of each side in each of
    /// rows 1 to 6.
    pub fn initial() -> Board {
        let side = [6, 1, 1, 1, 1, 1, 1, 0];
        Board { rows: [side, side] }
    }

    /// A board from explicit counts (own frames), for tests and replays.
    pub fn from_rows(rows: [[u8; ROWS]; 2]) -> Board {
        Board { rows }
    }

    /// `seat`'s droids in row `row` of its own frame.
    pub fn own(&self, seat: Seat, row: u8) -> u8 {
        self.rows[seat.index()][row as usize]
    }

    /// Droids of both sides in row `row` of `seat`'s frame.
    pub fn total(&self, seat: Seat, row: u8) -> u8 {
        self.own(seat, row) + self.own(seat.other(), mirror(row))
    }

    /// Clarification: only rows 1-6 are capped; bases hold any number.
    pub(super) fn has_room(&self, seat: Seat, row: u8) -> bool {
        row == 0 || row == TOP || self.total(seat, row) < ROW_CAPACITY
    }

    pub(super) fn shift(&mut self, seat: Seat, step: Step) {
        let side = &mut self.rows[seat.index()];
        side[step.from as usize] -= 1;
        side[step.to as usize] += 1;
    }

    /// Why `seat` may not make `step` as an attack of length `len`, if it may not.
    pub(super) fn check_step(&self, seat: Seat, step: Step, len: u8) -> Result<(), String> {
        if step.to < step.from || step.to - step.from != len {
            let rows = i16::from(step.to) - i16::from(step.from);
            return Err(format!(
                "{}->{} is a move of {rows} row{}; this attack must go exactly {len} row{} ahead",
                step.from,
                step.to,
                if rows.abs() == 1 { "" } else { "s" },
                if len == 1 { "" } else { "s" }
            ));
        }
        if self.own(seat, step.from) == 0 {
            return Err(format!("there is no droid of yours in row {}", step.from));
        }
        if !self.has_room(seat, step.to) {
            return Err(format!(
                "row {} already holds {ROW_CAPACITY} droids",
                step.to
            ));
        }
        Ok(())
    }

    /// Every attack of exactly `len` rows `seat` can make (`len` > 0).
    /// Clarification: a droid may not overshoot row 7.
    pub fn steps(&self, seat: Seat, len: u8) -> Vec<Step> {
        if len == 0 {
            return vec![];
        }
        (0..TOP)
            .filter(|&from| from + len <= TOP)
            .map(|from| Step {
                from,
                to: from + len,
            })
            .filter(|&s| self.check_step(seat, s, len).is_ok())
            .collect()
    }

    /// The length the second attack must have after `first`: the droids in
    /// the landing row before it (both sides), or 1 when it lands in the
    /// opponent's base (the rules' special case).
    pub fn second_length(&self, seat: Seat, first: Step) -> u8 {
        if first.to == TOP {
            1
        } else {
            self.total(seat, first.to)
        }
    }

    /// Every turn `seat` can play, each once.
    pub fn turns(&self, seat: Seat) -> Vec<Turn> {
        let firsts = self.steps(seat, 1);
        if firsts.is_empty() {
            return vec![Turn::Pass];
        }
        let mut out = vec![];
        for first in firsts {
            let len = self.second_length(seat, first);
            let mut after = *self;
            after.shift(seat, first);
            let seconds = after.steps(seat, len);
            if seconds.is_empty() {
                out.push(Turn::Play {
                    first,
                    second: None,
                });
            }
            out.extend(seconds.into_iter().map(|s| Turn::Play {
                first,
                second: Some(s),
            }));
        }
        out
    }

    /// Judges a reply of `seat` and gives the turn it stands for.
    pub fn judge(&self, seat: Seat, reply: Reply) -> Result<Turn, String> {
        let [i1, f1, i2, f2] = reply.0;
        let can_move = !self.steps(seat, 1).is_empty();
        if reply.0 == [0, 0, 0, 0] {
            // Clarification: the pass, only when no first attack is legal.
            return if can_move {
                Err("0,0,0,0 is a pass, allowed only when no first attack is legal".into())
            } else {
                Ok(Turn::Pass)
            };
        }
        if !can_move {
            return Err(format!(
                "no first attack is legal (every droid is blocked), so the turn must be {PASS_LINE}"
            ));
        }
        let first = Step { from: i1, to: f1 };
        self.check_step(seat, first, 1)
            .map_err(|why| format!("first attack: {why}"))?;
        let len = self.second_length(seat, first);
        let mut after = *self;
        after.shift(seat, first);
        if i2 == f2 {
            // Clarification: no second attack, written f1,f1 (any r,r is read
            // the same way), only when none of the required length is legal.
            let possible = after.steps(seat, len);
            return match possible.first() {
                None => Ok(Turn::Play {
                    first,
                    second: None,
                }),
                Some(s) => Err(format!(
                    "second attack: {i2}->{f2} skips it, but a move of {len} row{} is legal (e.g. {}->{})",
                    if len == 1 { "" } else { "s" },
                    s.from,
                    s.to
                )),
            };
        }
        if len == 0 {
            return Err(format!(
                "second attack: row {f1} was empty before the first attack, so the second attack has length 0; write {f1},{f1}"
            ));
        }
        let second = Step { from: i2, to: f2 };
        after
            .check_step(seat, second, len)
            .map_err(|why| format!("second attack: {why}"))?;
        Ok(Turn::Play {
            first,
            second: Some(second),
        })
    }

    /// Plays a judged turn (no checks: the `_unchecked` path of [`Board::judge`]).
    pub fn play_unchecked(&mut self, seat: Seat, turn: Turn) {
        if let Turn::Play { first, second } = turn {
            self.shift(seat, first);
            if let Some(second) = second {
                self.shift(seat, second);
            }
        }
    }

    /// Has every droid of each side passed every droid of the other? In A's
    /// frame A's droids go up and B's go down: every A droid must stand in a
    /// row strictly above every B droid.
    pub fn all_passed(&self) -> bool {
        let lowest_a = (0..ROWS as u8).find(|&r| self.own(Seat::A, r) > 0);
        let highest_b = (0..ROWS as u8)
            .rev()
            .find(|&r| self.own(Seat::B, mirror(r)) > 0);
        match (lowest_a, highest_b) {
            (Some(a), Some(b)) => a > b,
            _ => true,
        }
    }

    /// Can `seat` make a first attack?
    pub fn can_move(&self, seat: Seat) -> bool {
        !self.steps(seat, 1).is_empty()
    }

    /// The rules' points of `seat`.
    pub fn points(&self, seat: Seat) -> u32 {
        (0..ROWS)
            .map(|r| u32::from(self.rows[seat.index()][r]) * POINTS[r])
            .sum()
    }

    /// Is the game over by the rules, and why?
    pub fn end(&self) -> Option<&'static str> {
        if self.all_passed() {
            Some("all-passed")
        } else if !self.can_move(Seat::A) && !self.can_move(Seat::B) {
            Some("no-moves")
        } else {
            None
        }
    }
}

/// Draws the board for a person: one line per row, player 1's (A's) base at
/// the bottom, `a`/`b` for each droid, both frames' row numbers.
pub fn draw_board(board: &Board) -> String {
    let mut out = String::from("  A row |               | B row\n");
    for row in (0..ROWS as u8).rev() {
        let a = board.own(Seat::A, row) as usize;
        let b = board.own(Seat::B, mirror(row)) as usize;
        let cells = format!("{}{}", "a".repeat(a), "b".repeat(b));
        let label = match row {
            0 => "  A base",
            TOP => "  B base",
            _ => "",
        };
        out.push_str(&format!(
            "      {row} | {cells:<13} | {}{label}\n",
            mirror(row)
        ));
    }
    out.push_str(&format!(
        "  points: A {}, B {}\n",
        board.points(Seat::A),
        board.points(Seat::B)
    ));
    out
}
