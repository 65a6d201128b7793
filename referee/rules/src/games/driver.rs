//! The one match loop: asks the seat the game names, applies its move,
//! passes the notices on, until the rules end the game or a seat cannot go
//! on. Who sits at a seat (a bot process judged by the runner, a person at
//! the terminal) is the caller's [`Seats`]; the loop knows only the rules.

use super::{Applied, Game, Outcome, Seat, Status};

/// What became of one turn.
pub enum Turn<G, Stop> {
    /// The rules took the seat's move.
    Moved(Applied<G>),
    /// The game cannot go on (a bot disqualified, a person who left): the
    /// state as it was, and why.
    Stopped(G, Stop),
}

/// Who plays at each seat, as the loop sees them.
pub trait Seats<G: Game> {
    /// Why a game stopped before the rules ended it.
    type Stop;
    /// The referee's own failure (the game is not recorded).
    type Error;

    /// Asks `seat` to move (with `request`, the line that asks, if any) and
    /// has the rules judge it.
    fn turn(
        &mut self,
        seat: Seat,
        game: G,
        request: Option<String>,
    ) -> Result<Turn<G, Self::Stop>, Self::Error>;

    /// A move the rules took: its account line, once the state is `game`.
    fn moved(&mut self, seat: Seat, game: &G, account: String);

    /// A line for one seat that expects no reply.
    fn notify(&mut self, to: Seat, line: &str);
}

/// How a game driven to its end ended.
pub enum Ending<Stop> {
    /// By the rules.
    Over(Outcome),
    /// A seat could not go on.
    Stopped(Stop),
}

/// Plays `game` with `seats` until it ends. Returns the final state.
pub fn drive<G: Game, S: Seats<G>>(
    mut game: G,
    seats: &mut S,
) -> Result<(G, Ending<S::Stop>), S::Error> {
    loop {
        let (seat, request) = match game.status() {
            Status::Over(outcome) => return Ok((game, Ending::Over(outcome))),
            Status::Ask { seat, request } => (seat, request),
        };
        match seats.turn(seat, game, request)? {
            Turn::Moved(applied) => {
                game = applied.game;
                seats.moved(seat, &game, applied.account);
                for notice in applied.notices {
                    seats.notify(notice.to, &notice.line);
                }
            }
            Turn::Stopped(back, stop) => return Ok((back, Ending::Stopped(stop))),
        }
    }
}
