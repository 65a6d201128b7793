//! Verdicts: the closed set of ways a bot can fail a game (`protocol.md`,
//! "Disqualifications"). A bot's misbehaviour is a [`Verdict`], never an `Err`:
//! `Err` is kept for the referee's own failures.

use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord,
)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Played by the rules to the end.
    #[default]
    Ok,
    /// No complete reply line before the deadline (or stdin not read while the
    /// referee had to write to it).
    Timeout,
    /// Exited or was killed by a signal during the game, closed its stdout, or
    /// could not be started.
    Crash,
    /// A well-formed reply that the rules forbid.
    Illegal,
    /// A line that is not a reply to the request (unparseable, wrong shape).
    Protocol,
    /// Resident memory above the limit.
    Memory,
    /// A line longer than the line cap, or more output than the volume cap.
    Output,
    /// A C or C++ source the referee could not compile (the compiler's
    /// message is in the detail).
    Compile,
}

impl Verdict {
    pub const ALL: [Verdict; 8] = [
        Verdict::Ok,
        Verdict::Timeout,
        Verdict::Crash,
        Verdict::Illegal,
        Verdict::Protocol,
        Verdict::Memory,
        Verdict::Output,
        Verdict::Compile,
    ];

    /// Does this verdict lose the game for the bot?
    pub fn is_disqualification(self) -> bool {
        match self {
            Verdict::Ok => false,
            Verdict::Timeout
            | Verdict::Crash
            | Verdict::Illegal
            | Verdict::Protocol
            | Verdict::Memory
            | Verdict::Output
            | Verdict::Compile => true,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Timeout => "timeout",
            Verdict::Crash => "crash",
            Verdict::Illegal => "illegal",
            Verdict::Protocol => "protocol",
            Verdict::Memory => "memory",
            Verdict::Output => "output",
            Verdict::Compile => "compile",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why and when a bot was disqualified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disqualification {
    pub verdict: Verdict,
    /// What happened, for a person: "no reply within 2s", "attack: symbol 1
    /// appears more than once", ...
    pub detail: String,
    /// The 1-based number of the bot's reply at fault: the reply that was
    /// awaited (timeout, crash, output, memory seen while waiting), or the
    /// reply it gave (protocol, illegal). A memory peak found only once the
    /// game is over counts at its last reply. 0: before its first request,
    /// e.g. it could not start or its source did not compile.
    pub at_move: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde() {
        for v in Verdict::ALL {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.name()));
            assert_eq!(serde_json::from_str::<Verdict>(&json).unwrap(), v);
            assert_eq!(v.is_disqualification(), v != Verdict::Ok);
        }
    }
}
