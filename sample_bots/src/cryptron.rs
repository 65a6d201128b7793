//! Cryptron for the sample bots, written independently of the referee: a
//! board seen from the bot's own side (its base is row 0), the legal turns,
//! and the wire form. The opponent's moves arrive in the opponent's frame
//! and are mirrored here (its row r is our row 7 - r).

/// Points per droid by row of its owner's frame.
pub const POINTS: [i32; 8] = [0, 0, 0, 0, 1, 2, 3, 5];

/// A turn: `(i1, f1, i2, f2)` in the mover's frame; `i2 == f2` means no
/// second attack, `(0, 0, 0, 0)` a pass.
pub type Move = (u8, u8, u8, u8);
pub const PASS: Move = (0, 0, 0, 0);

/// Droid counts by row, both sides in OUR frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub mine: [u8; 8],
    pub theirs: [u8; 8],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            mine: [6, 1, 1, 1, 1, 1, 1, 0],
            theirs: [0, 1, 1, 1, 1, 1, 1, 6],
        }
    }
}

impl Board {
    pub fn total(&self, r: usize) -> u8 {
        self.mine[r] + self.theirs[r]
    }

    fn room(&self, r: usize) -> bool {
        r == 0 || r == 7 || self.total(r) < 6
    }

    /// The same position seen from the other side.
    pub fn flipped(&self) -> Board {
        let mut b = Board {
            mine: self.theirs,
            theirs: self.mine,
        };
        b.mine.reverse();
        b.theirs.reverse();
        b
    }

    /// Every legal turn of ours, each once.
    pub fn turns(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(16);
        for i1 in 0..7usize {
            if self.mine[i1] == 0 || !self.room(i1 + 1) {
                continue;
            }
            let f1 = i1 + 1;
            let len = if f1 == 7 { 1 } else { self.total(f1) as usize };
            let mut after = *self;
            after.mine[i1] -= 1;
            after.mine[f1] += 1;
            let before = out.len();
            if len > 0 {
                for i2 in 0..(8 - len) {
                    if after.mine[i2] > 0 && after.room(i2 + len) {
                        out.push((i1 as u8, f1 as u8, i2 as u8, (i2 + len) as u8));
                    }
                }
            }
            if out.len() == before {
                out.push((i1 as u8, f1 as u8, f1 as u8, f1 as u8));
            }
        }
        if out.is_empty() {
            out.push(PASS);
        }
        out
    }

    /// Plays our turn `m` (assumed legal).
    pub fn play_mine(&mut self, m: Move) {
        if m == PASS {
            return;
        }
        let (i1, f1, i2, f2) = (m.0 as usize, m.1 as usize, m.2 as usize, m.3 as usize);
        self.mine[i1] -= 1;
        self.mine[f1] += 1;
        if i2 != f2 {
            self.mine[i2] -= 1;
            self.mine[f2] += 1;
        }
    }

    /// Plays the opponent's turn `m`, written in its own frame.
    pub fn play_theirs(&mut self, m: Move) {
        let mut flipped = self.flipped();
        flipped.play_mine(m);
        *self = flipped.flipped();
    }

    pub fn can_move(&self) -> bool {
        (0..7).any(|r| self.mine[r] > 0 && self.room(r + 1))
    }

    /// Every droid of each side has passed every droid of the other, or
    /// neither side can move.
    pub fn is_over(&self) -> bool {
        let lowest_mine = (0..8).find(|&r| self.mine[r] > 0);
        let highest_theirs = (0..8).rev().find(|&r| self.theirs[r] > 0);
        let passed = match (lowest_mine, highest_theirs) {
            (Some(a), Some(b)) => a > b,
            _ => true,
        };
        passed || (!self.can_move() && !self.flipped().can_move())
    }

    /// Our points minus theirs.
    pub fn points_diff(&self) -> i32 {
        (0..8)
            .map(|r| POINTS[r] * self.mine[r] as i32 - POINTS[7 - r] * self.theirs[r] as i32)
            .sum()
    }
}

pub fn format_move(m: Move) -> String {
    format!("{},{},{},{}", m.0, m.1, m.2, m.3)
}

pub fn parse_move(line: &str) -> Option<Move> {
    let v: Vec<u8> = line
        .trim()
        .split(',')
        .map(|t| t.trim().parse().ok())
        .collect::<Option<Vec<u8>>>()?;
    match v[..] {
        [a, b, c, d] => Some((a, b, c, d)),
        _ => None,
    }
}

/// Runs a Cryptron bot: greets, keeps the board, and asks `choose` for a
/// move whenever it is our turn.
pub fn play(mut choose: impl FnMut(&Board) -> Move) {
    let mut board = Board::default();
    crate::serve(|line| {
        let line = line.trim();
        let opponent = match line {
            "1" => None,
            "2" => return None,
            _ => Some(parse_move(line)?),
        };
        if let Some(m) = opponent {
            board.play_theirs(m);
        }
        let m = choose(&board);
        board.play_mine(m);
        Some(format_move(m))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_turns() {
        let b = Board::default();
        let turns = b.turns();
        assert!(turns.contains(&(0, 1, 0, 2)));
        assert!(turns.contains(&(6, 7, 5, 6)));
        let mut after = b;
        after.play_theirs((0, 1, 0, 2));
        assert_eq!(after.theirs, [0, 1, 1, 1, 1, 2, 2, 4]);
    }
}
