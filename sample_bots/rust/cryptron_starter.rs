//! Cryptron starter bot in Rust (standard library only), written to the
//! rules' "Bot Format": read the player number, then loop: read the
//! opponent's move (except on player 1's first turn), choose a move, print it.
//!
//! Run it through the referee (which builds it):
//!   referee match cryptron sample_bots/rust/cryptron_starter.rs sample_bots/c/cryptron_starter.c
//! By hand: rustc -O --edition 2021 -o cryptron_starter sample_bots/rust/cryptron_starter.rs
//!
//! The bot keeps its own board in its own frame (its base is row 0): mine[r]
//! and theirs[r] count droids in row r. The opponent's move arrives in the
//! opponent's frame, so its row r is our row 7 - r.
//!
//! A move is "i1,f1,i2,f2": first attack i1 -> f1 = i1 + 1, second attack
//! i2 -> f2 by as many rows as the first attack's landing row held droids
//! (1 row when landing in the opponent's base). "f1,f1" for the second attack
//! when there is none; "0,0,0,0" when no first attack is legal.
//!
//! Strategy: every legal turn is tried; the one leaving the best points
//! difference wins, ties broken by rows gained (greedy, one turn deep).
use std::io::{self, BufRead, Write};

const POINTS: [i32; 8] = [0, 0, 0, 0, 1, 2, 3, 5];
const PASS: [usize; 4] = [0, 0, 0, 0];

struct Board {
    mine: [i32; 8],
    theirs: [i32; 8],
}

impl Board {
    fn total(&self, r: usize) -> i32 {
        self.mine[r] + self.theirs[r]
    }

    /// Rows 1-6 hold at most 6 droids, both sides together; bases any number.
    fn room(&self, r: usize) -> bool {
        r == 0 || r == 7 || self.total(r) < 6
    }

    fn value(&self) -> i32 {
        (0..8)
            .map(|r| {
                (POINTS[r] * self.mine[r] - POINTS[7 - r] * self.theirs[r]) * 100
                    + r as i32 * self.mine[r]
            })
            .sum()
    }

    /// Moves one droid of `side` from row `from` to row `to` (undo: swap them).
    fn step(side: &mut [i32; 8], from: usize, to: usize) {
        side[from] -= 1;
        side[to] += 1;
    }

    /// Plays a move on one side; `mirror` when it is written in the opponent's frame.
    fn play(side: &mut [i32; 8], move_: [usize; 4], mirror: bool) {
        if move_ == PASS {
            return;
        }
        let [i1, f1, i2, f2] = if mirror { move_.map(|x| 7 - x) } else { move_ };
        Self::step(side, i1, f1);
        if i2 != f2 {
            Self::step(side, i2, f2); // f1,f1: no second attack
        }
    }

    /// The best legal turn, already played on our board.
    fn choose(&mut self) -> [usize; 4] {
        let mut best = PASS; // no first attack at all: a pass
        let mut best_value = i32::MIN;
        for i1 in 0..7 {
            let f1 = i1 + 1;
            if self.mine[i1] == 0 || !self.room(f1) {
                continue;
            }
            let length = if f1 == 7 { 1 } else { self.total(f1) as usize }; // counted before the first attack
            Self::step(&mut self.mine, i1, f1);
            let mut any = false;
            for i2 in 0..7 {
                if length == 0 || i2 + length > 7 || self.mine[i2] == 0 || !self.room(i2 + length) {
                    continue;
                }
                any = true;
                Self::step(&mut self.mine, i2, i2 + length);
                if self.value() > best_value {
                    best_value = self.value();
                    best = [i1, f1, i2, i2 + length];
                }
                Self::step(&mut self.mine, i2 + length, i2);
            }
            if !any && self.value() > best_value {
                // no second attack: written f1,f1
                best_value = self.value();
                best = [i1, f1, f1, f1];
            }
            Self::step(&mut self.mine, f1, i1);
        }
        Self::play(&mut self.mine, best, false);
        best
    }
}

fn main() -> io::Result<()> {
    let mut board = Board {
        mine: [6, 1, 1, 1, 1, 1, 1, 0],
        theirs: [0, 1, 1, 1, 1, 1, 1, 6],
    };
    let mut lines = io::stdin().lock().lines();
    let mut out = io::stdout().lock();
    let Some(greeting) = lines.next() else {
        return Ok(());
    };
    let player: u32 = greeting?.trim().parse().unwrap_or(2);
    for turn in 1.. {
        if !(player == 1 && turn == 1) {
            let line = match lines.next() {
                Some(line) => line?,
                None => break,
            };
            if line.starts_with("end") {
                break; // the game is over
            }
            let mut move_ = PASS;
            for (k, row) in line.trim().split(',').take(4).enumerate() {
                move_[k] = row.trim().parse().unwrap_or(0);
            }
            Board::play(&mut board.theirs, move_, true);
        }
        let [i1, f1, i2, f2] = board.choose();
        writeln!(out, "{i1},{f1},{i2},{f2}")?;
        out.flush()?;
    }
    Ok(())
}
