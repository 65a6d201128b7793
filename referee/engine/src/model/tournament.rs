//! What a tournament run found beyond its standings: how the run went
//! ([`Outcome`]), and the tables of a format played in rounds (`swiss.csv`,
//! `rounds.csv`, `groups.csv`, `bracket.csv`).

use super::standings::StandingRow;

/// How a run ended.
pub struct Outcome {
    pub played_now: u64,
    pub total_in_folder: u64,
    pub scheduled: u64,
    pub interrupted: bool,
    pub standings: Vec<StandingRow>,
    /// Games whose transcript could not be written (the game still counts).
    pub transcript_failures: u64,
    /// Games not played because the system would not start a bot (not
    /// recorded: `--resume` plays them).
    pub not_played: u64,
    /// Why the first of them could not be played.
    pub not_played_why: Option<String>,
    /// Of those, the games voided by their judge (it failed), by number.
    pub void_games: Vec<u64>,
    /// Why the first of them was.
    pub void_why: Option<String>,
    /// A Swiss tournament's or a knockout's own tables.
    pub rounds: Option<RoundsTables>,
}

/// The tables of a format played in rounds, as far as the results go.
#[derive(Clone, Debug)]
pub enum RoundsTables {
    Swiss {
        /// The order of `swiss.csv`.
        table: Vec<SwissRow>,
        /// Every pairing (`rounds.csv`).
        rounds: Vec<RoundRow>,
        rounds_complete: u32,
        rounds_total: u32,
    },
    /// A knockout, or a tournament of groups and its knockout.
    Knockout {
        /// Groups: each bot's place in its group (`groups.csv`), once the
        /// group stage is over; empty for a knockout alone.
        groups: Vec<GroupRow>,
        /// Every match (`bracket.csv`).
        matches: Vec<BracketRow>,
        /// The bracket as text (`bracket.txt`, the terminal).
        text: String,
        rounds: Vec<RoundRow>,
        champion: Option<String>,
    },
}

/// A row of `rounds.csv`: one pairing of one round (Swiss), or one match
/// (knockout), as it stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RoundRow {
    pub round: u32,
    pub table: usize,
    pub bot_a: String,
    /// Empty for a bye.
    pub bot_b: String,
    /// Match points of the games of the pairing (a bye's points for a bye);
    /// empty until the pairing's games are all played.
    pub points_a: Option<u64>,
    pub points_b: Option<u64>,
}

/// A row of `swiss.csv`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SwissRow {
    pub rank: usize,
    pub bot: String,
    /// Match points, a bye's included.
    pub score: u64,
    /// The sum of the scores of the bots met.
    pub buchholz: u64,
    /// The rating of `standings.csv`.
    pub rating: f64,
    pub byes: u32,
    /// The bots met, round by round.
    pub opponents: String,
}

/// A row of `groups.csv`: a bot's place in its group.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GroupRow {
    pub group: String,
    pub rank: usize,
    pub bot: String,
    pub played: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: u64,
    /// Within the group.
    pub rating: f64,
    /// Whether it went on to the knockout.
    pub qualified: bool,
}

/// A row of `bracket.csv`: one match.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BracketRow {
    pub round: u32,
    /// Final, Semi-finals, Quarter-finals, Round of N.
    pub stage: String,
    /// The match's place in its round, top to bottom of the bracket.
    pub slot: usize,
    pub seed_a: usize,
    pub bot_a: String,
    /// Empty for a bye.
    pub seed_b: Option<usize>,
    pub bot_b: String,
    /// Games won, tie-breaks included.
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    pub tiebreak_games: u64,
    /// Empty until decided.
    pub winner: String,
    /// bye, games, tie-break or higher seed; empty until decided.
    pub decided_by: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of bots plays.
    RoundRobin,
    /// Each challenger plays every other bot; the others do not meet.
    Gauntlet,
    /// Rounds of pairings by score, no two bots meeting twice
    /// ([`crate::tournament::swiss`]).
    Swiss,
    /// A seeded single-elimination bracket ([`crate::tournament::knockout`]).
    Knockout,
    /// Two stages: round-robin groups, then a knockout of the best of each
    /// group ([`crate::tournament::groups`]).
    Groups,
    /// Tables of more than two players drawn so that every bot plays every
    /// seat equally often ([`crate::tournament::ffa`]); ranked by ratings
    /// from the places of each game.
    FreeForAll,
}

impl Format {
    /// The name a tournament file gives the format.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
            Format::Groups => "groups",
            Format::FreeForAll => "free-for-all",
        }
    }

    /// The format a tournament file names, if any.
    pub fn from_name(name: &str) -> Option<Format> {
        [
            Format::RoundRobin,
            Format::Gauntlet,
            Format::Swiss,
            Format::Knockout,
            Format::Groups,
            Format::FreeForAll,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// Whether a round's games depend on the results of the rounds before
    /// (so the tournament cannot be split into shards, merged or updated),
    /// rather than being one block known in advance
    /// (`FormatRules::pairings` in `tournament/format.rs`).
    pub fn has_rounds(self) -> bool {
        match self {
            Format::RoundRobin | Format::Gauntlet | Format::FreeForAll => false,
            Format::Swiss | Format::Knockout | Format::Groups => true,
        }
    }

    /// Whether the format ends in a knockout (seeded, with tie-breaks).
    pub fn has_knockout(self) -> bool {
        match self {
            Format::RoundRobin | Format::Gauntlet | Format::Swiss | Format::FreeForAll => false,
            Format::Knockout | Format::Groups => true,
        }
    }
}

/// The round each bot of `matches` (`bracket.csv`'s rows) reached: the
/// last it played in, one more for a match it won (a bye counts), so the
/// champion has the highest, the finalist the next, then the losing
/// semi-finalists, and so on.
pub fn rounds_reached(matches: &[BracketRow]) -> std::collections::BTreeMap<String, u32> {
    let mut reached = std::collections::BTreeMap::new();
    for m in matches {
        for bot in [&m.bot_a, &m.bot_b].into_iter().filter(|b| !b.is_empty()) {
            let round = m.round + u32::from(m.winner == *bot);
            let best = reached.entry(bot.clone()).or_insert(0);
            *best = round.max(*best);
        }
    }
    reached
}
