//! The round structure shared by the two-player code games (Arrow 5 and
//! Mastermind): both players choose codes (A, then B), then attack in rounds,
//! A first. The second player always gets its attack in a round, which is
//! the equalizing attack when A cracked in it; a round in which anyone
//! cracked ends the game; after the last round allowed nobody cracked and
//! the game is a draw. In a solo game (the referee holds the secret) only A
//! attacks. Pure: the games keep their codes and feedback, this keeps the turns.

use std::fmt::Display;

use super::{Applied, Notice, Outcome, Rejected, Seat, Winner};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for `seat`'s secret code.
    Choosing(Seat),
    Attacking {
        seat: Seat,
        round: u32,
    },
    Over,
}

impl Phase {
    /// The phase after `seat` chose its code.
    pub fn after_code(seat: Seat) -> Phase {
        match seat {
            Seat::A => Phase::Choosing(Seat::B),
            Seat::B => Phase::Attacking {
                seat: Seat::A,
                round: 1,
            },
        }
    }
}

/// What follows an attack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Attack { seat: Seat, round: u32 },
    Over(Outcome),
}

/// What follows `seat`'s attack in `round`, given who has cracked so far
/// (`cracked[A]`: A cracked B's code), the last round allowed and the reason
/// a game that reaches it without a crack ends with.
pub fn after_attack(
    seat: Seat,
    round: u32,
    cracked: [bool; 2],
    solo: bool,
    last_round: u32,
    cap_reason: &str,
) -> Next {
    let over = |winner, reason: &str| {
        Next::Over(Outcome {
            winner,
            reason: reason.to_string(),
        })
    };
    let attack = |seat, round| Next::Attack { seat, round };
    match (solo, seat) {
        // Solo: the attacker cracks, or runs out of attacks.
        (true, _) if cracked[0] => over(Winner::A, "cracked"),
        (true, _) if round >= last_round => over(Winner::B, cap_reason),
        (true, _) => attack(Seat::A, round + 1),
        // B always gets its attack: the round goes on, or it is the
        // equalizing attack after A cracked.
        (false, Seat::A) => attack(Seat::B, round),
        (false, Seat::B) => match cracked {
            [true, true] => over(Winner::Draw, "both-cracked"),
            [true, false] => over(Winner::A, "cracked"),
            [false, true] => over(Winner::B, "cracked"),
            [false, false] if round >= last_round => over(Winner::Draw, cap_reason),
            [false, false] => attack(Seat::A, round + 1),
        },
    }
}

/// A two-player code game, as [`apply_code`] needs to see it.
pub trait CodeDuel: Sized {
    type Code;
    fn phase(&self) -> Phase;
    /// Stores `seat`'s secret code and moves on to the next phase.
    fn choose(&mut self, seat: Seat, code: Self::Code);
    /// Judges `seat`'s attack in `round` by the game's own feedback: counts
    /// it and whether it cracked. Returns the feedback line for the
    /// attacker and the account's line.
    fn attack(&mut self, seat: Seat, round: u32, code: Self::Code) -> (Notice, String);
    /// Which seats have cracked so far (`[A, B]`: A cracked B's code).
    fn cracked(&self) -> [bool; 2];
    fn solo(&self) -> bool;
    /// The last round allowed, and the reason a game that reaches it
    /// without a crack ends with.
    fn cap(&self) -> (u32, &'static str);
    /// The next attack: `seat`'s in `round`.
    fn next_attack(&mut self, seat: Seat, round: u32);
    /// The game is over.
    fn end(self, winner: Winner, reason: &str) -> Self;
}

/// The rules of a reply in a code duel, once the reply's symbols were
/// judged (`code`): a secret code while codes are chosen, an attack after.
pub fn apply_code<G: CodeDuel>(
    mut game: G,
    code: Result<G::Code, impl Display>,
) -> Result<Applied<G>, Rejected<G>> {
    let code = match code {
        Ok(code) => code,
        Err(e) => {
            let what = match game.phase() {
                Phase::Choosing(_) => "secret code",
                Phase::Attacking { .. } | Phase::Over => "attack",
            };
            return Err(Rejected {
                game,
                rule: format!("{what}: {e}"),
            });
        }
    };
    match game.phase() {
        Phase::Choosing(seat) => {
            game.choose(seat, code);
            Ok(Applied {
                game,
                notices: vec![],
                account: format!("{seat} chose its code"),
            })
        }
        Phase::Attacking { seat, round } => {
            let (notice, account) = game.attack(seat, round, code);
            let (cap, cap_reason) = game.cap();
            let next = after_attack(seat, round, game.cracked(), game.solo(), cap, cap_reason);
            let game = match next {
                Next::Attack { seat, round } => {
                    game.next_attack(seat, round);
                    game
                }
                Next::Over(outcome) => game.end(outcome.winner, &outcome.reason),
            };
            Ok(Applied {
                game,
                notices: vec![notice],
                account,
            })
        }
        Phase::Over => Err(Rejected {
            game,
            rule: "the game is over".to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(next: Next) -> (Winner, String) {
        match next {
            Next::Over(o) => (o.winner, o.reason),
            Next::Attack { .. } => panic!("not over"),
        }
    }

    /// The rules' cases, as a table: (seat, round, cracked, expected).
    #[test]
    fn the_round_structure() {
        let cap = "round-cap";
        assert_eq!(
            after_attack(Seat::A, 3, [true, false], false, 50, cap),
            Next::Attack {
                seat: Seat::B,
                round: 3
            }
        );
        assert_eq!(
            after_attack(Seat::A, 50, [false, false], false, 50, cap),
            Next::Attack {
                seat: Seat::B,
                round: 50
            }
        );
        assert_eq!(
            after_attack(Seat::B, 3, [false, false], false, 50, cap),
            Next::Attack {
                seat: Seat::A,
                round: 4
            }
        );
        assert_eq!(
            outcome(after_attack(Seat::B, 3, [true, true], false, 50, cap)),
            (Winner::Draw, "both-cracked".into())
        );
        assert_eq!(
            outcome(after_attack(Seat::B, 3, [true, false], false, 50, cap)),
            (Winner::A, "cracked".into())
        );
        assert_eq!(
            outcome(after_attack(Seat::B, 3, [false, true], false, 50, cap)),
            (Winner::B, "cracked".into())
        );
        assert_eq!(
            outcome(after_attack(Seat::B, 50, [false, false], false, 50, cap)),
            (Winner::Draw, cap.into())
        );
        assert_eq!(
            outcome(after_attack(Seat::A, 7, [true, false], true, 50, cap)),
            (Winner::A, "cracked".into())
        );
        assert_eq!(
            outcome(after_attack(Seat::A, 50, [false, false], true, 50, cap)),
            (Winner::B, cap.into())
        );
        assert_eq!(
            after_attack(Seat::A, 7, [false, false], true, 50, cap),
            Next::Attack {
                seat: Seat::A,
                round: 8
            }
        );
        assert_eq!(Phase::after_code(Seat::A), Phase::Choosing(Seat::B));
        assert_eq!(
            Phase::after_code(Seat::B),
            Phase::Attacking {
                seat: Seat::A,
                round: 1
            }
        );
    }
}
