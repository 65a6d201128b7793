//! A move as a running game's spectators see it, between the match loop
//! that makes it (`runner`) and the outputs that tell it
//! (`reporter::live_game`).

use std::time::Duration;

use crate::games::Seat;

/// One move the rules took, as a spectator may see it while the game is
/// on: the account line and the judge's view, both public by the rules
/// (a hidden code is in neither until the summary), never a bot's line.
pub struct PublicMove<'a> {
    pub seat: Seat,
    /// The move's account line (empty when a judge gave none).
    pub account: &'a str,
    /// A judge's frame drawn with this move, if it drew one.
    pub frame: Option<&'a serde_json::Value>,
    /// The reply's wall time.
    pub wall: Duration,
}

/// Told each move as it is made (a running game's spectators). Without
/// one, the match loop does nothing more per move.
pub trait MoveWatcher {
    fn moved(&mut self, public: &PublicMove<'_>);
}
