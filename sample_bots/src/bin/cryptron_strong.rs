//! Cryptron, strong: alpha-beta search over whole turns (negamax, iterative
//! deepening within a time budget per move), with an evaluation of the points
//! difference plus a small bonus for rows gained. Game ends are scored by the
//! final points, far above any evaluation. The budget is the first argument
//! in milliseconds (default 300), well inside the 2 s of the contest rules.

use std::time::{Duration, Instant};

use sample_bots::cryptron::{play, Board, Move};

const WIN: i32 = 1_000_000;

struct Search {
    deadline: Instant,
    nodes: u64,
    out_of_time: bool,
}

fn evaluate(b: &Board) -> i32 {
    let progress: i32 = (0..8)
        .map(|r| r as i32 * b.mine[r] as i32 - (7 - r as i32) * b.theirs[r] as i32)
        .sum();
    b.points_diff() * 16 + progress
}

impl Search {
    /// The value of `b` for the side to move, `depth` turns deep.
    fn negamax(&mut self, b: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if b.is_over() {
            let d = b.points_diff();
            return d.signum() * WIN + d;
        }
        if depth == 0 {
            return evaluate(b);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return 0;
        }
        let mut best = -WIN * 2;
        for m in ordered(b) {
            let mut next = *b;
            next.play_mine(m);
            let v = -self.negamax(&next.flipped(), depth - 1, -beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Turns, most promising first (by the evaluation one turn deep).
fn ordered(b: &Board) -> Vec<Move> {
    let mut turns: Vec<(i32, Move)> = b
        .turns()
        .into_iter()
        .map(|m| {
            let mut next = *b;
            next.play_mine(m);
            (evaluate(&next), m)
        })
        .collect();
    turns.sort_by_key(|t| std::cmp::Reverse(t.0));
    turns.into_iter().map(|(_, m)| m).collect()
}

fn choose(b: &Board, budget: Duration) -> Move {
    let mut search = Search {
        deadline: Instant::now() + budget,
        nodes: 0,
        out_of_time: false,
    };
    let mut moves = ordered(b);
    let mut best = moves[0];
    for depth in 1..=40 {
        let mut alpha = -WIN * 2;
        let mut scored = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut next = *b;
            next.play_mine(m);
            let v = -search.negamax(&next.flipped(), depth - 1, -WIN * 2, -alpha);
            if search.out_of_time {
                break;
            }
            alpha = alpha.max(v);
            scored.push((v, m));
        }
        if search.out_of_time {
            // A partial iteration searched the previous best first; a move
            // it completed that scored higher is truly better.
            if let Some(&(_, m)) = scored.iter().max_by_key(|(v, _)| *v) {
                best = m;
            }
            break;
        }
        scored.sort_by_key(|t| std::cmp::Reverse(t.0));
        best = scored[0].1;
        moves = scored.into_iter().map(|(_, m)| m).collect();
        if alpha.abs() >= WIN / 2 {
            break; // the end is in sight
        }
    }
    best
}

fn main() {
    let budget_ms = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    play(|b| choose(b, Duration::from_millis(budget_ms)));
}
