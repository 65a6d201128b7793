//! The turn structures of the code games ([`super::code_game`]), as pure
//! functions of who attacked and who has cracked.
//!
//! [`Turns::Rounds`] (Arrow 5 and Mastermind): both players choose codes (A,
//! then B), then attack in rounds, A first. The second player always gets
//! its attack in a round, which is the equalizing attack when A cracked in
//! it; a round in which anyone cracked ends the game; after the last round
//! allowed nobody cracked and the game is a draw.
//!
//! [`Turns::FirstToCrack`] (Safe Cracker): the players alternate and the
//! first to crack wins at once; a player at the cap passes; when both are
//! at the cap the game decides the winner (Safe Cracker: the best single
//! guess).
//!
//! In a solo game (the referee holds the secret) only A attacks, until it
//! cracks or reaches the cap.

use super::{Outcome, Seat, Winner};

/// How the turns of a code game follow each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// Rounds with an equalizing attack ([`after_attack`]).
    Rounds,
    /// Alternate attacks, the first crack wins ([`after_guess`]).
    FirstToCrack,
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
    match (solo, seat) {
        // Solo: the attacker cracks, or runs out of attacks.
        (true, _) if cracked[0] => over(Winner::A, "cracked"),
        (true, _) if round >= last_round => over(Winner::B, cap_reason),
        (true, _) => attack(Seat::A, round + 1),
        // B always gets its attack: the round goes on, or it is the
        // equalizing attack after A cracked.
        (false, Seat::A) => attack(Seat::B, round),
        (false, _) => match cracked {
            [true, true] => over(Winner::Draw, "both-cracked"),
            [true, false] => over(Winner::A, "cracked"),
            [false, true] => over(Winner::B, "cracked"),
            [false, false] if round >= last_round => over(Winner::Draw, cap_reason),
            [false, false] => attack(Seat::A, round + 1),
        },
    }
}

/// What follows `seat`'s attack when the first to crack wins at once, given
/// each seat's attacks so far (this one included), whether this attack
/// cracked, the cap with its reason and who wins when both reach the cap.
pub fn after_guess(
    seat: Seat,
    attacks: [u32; 2],
    cracked: bool,
    solo: bool,
    (cap, cap_reason): (u32, &str),
    at_cap: Winner,
) -> Next {
    let defender = seat.other();
    let (mine, theirs) = (attacks[seat.index()], attacks[defender.index()]);
    if cracked {
        // The first to crack wins at once: no equalizing turn.
        over(Winner::seat(seat), "cracked")
    } else if solo {
        if mine >= cap {
            over(Winner::B, cap_reason)
        } else {
            attack(Seat::A, mine + 1)
        }
    } else if theirs < cap {
        attack(defender, theirs + 1)
    } else if mine < cap {
        attack(seat, mine + 1)
    } else {
        over(at_cap, cap_reason)
    }
}

fn over(winner: Winner, reason: &str) -> Next {
    Next::Over(Outcome {
        winner,
        reason: reason.to_string(),
    })
}

fn attack(seat: Seat, round: u32) -> Next {
    Next::Attack { seat, round }
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
    }
}
