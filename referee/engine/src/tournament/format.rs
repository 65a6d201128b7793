//! Tournament formats behind one trait, [`FormatRules`]: what to play next
//! from the rows so far, how many games to expect, and which tables of its
//! own the format writes. A file's `format = "..."` is a [`Format`];
//! [`Format::rules`] gives its rules, so the code that plays, resumes and
//! reports a tournament ([`mod@super::run`]) asks the rules and never matches
//! on the format itself.
//!
//! Two kinds of format:
//! - single-block formats (round robin, gauntlet): every game is known
//!   before any is played, so the whole tournament is one [`Schedule`]
//!   whose games are kept by identity ([`super::store`]): it can be split
//!   into shards, merged, and updated after bots change;
//! - formats played in rounds (Swiss, knockout, groups): each round's games
//!   are a pure function of the file and of the rows of `games.csv` so far
//!   ([`super::rounds`]), so the tournament is played whole, round by round.
//!
//! [`Schedule`]: super::schedule::Schedule

use super::groups::{self, GroupRow};
use super::knockout::{self, Bracket};
use super::plan::{Format, TournamentPlan};
use super::rounds::{Block, OffSchedule, Results};
use super::run::RoundsTables;
use super::schedule::games_in_tournament;
use super::standings::StandingRow;
use super::swiss::{self, Swiss};

/// What a tournament format decides. The plan is passed to every call (the
/// rules hold only what they must keep from one round to the next).
pub trait FormatRules {
    /// The pairings of a single-block format, each as (i, j) with i < j in
    /// the plan's order: every game is known before any is played. `None`
    /// for a format played in rounds, whose games come from the results
    /// ([`FormatRules::next_games`]).
    fn pairings(&self, plan: &TournamentPlan) -> Option<Vec<(usize, usize)>>;

    /// The games the tournament plays as far as known before any is played
    /// (`tournament.json`'s `total_games`).
    fn announced_games(&self, plan: &TournamentPlan) -> u64;

    /// The games the tournament plays as far as `results` tell: a
    /// knockout's tie-breaks are not known in advance, so those played or
    /// under way so far come on top of the announced games.
    fn expected_games(
        &self,
        plan: &TournamentPlan,
        _results: &Results,
    ) -> Result<u64, OffSchedule> {
        Ok(self.announced_games(plan))
    }

    /// The games to play next (some may be played already), or `None` when
    /// the tournament is over. A single-block format has none here: its one
    /// block is its schedule, played through the store.
    fn next_games(
        &mut self,
        _plan: &TournamentPlan,
        _results: &Results,
    ) -> Result<Option<Block>, OffSchedule> {
        Ok(None)
    }

    /// The format's own tables as far as `results` go (`swiss.csv`,
    /// `bracket.csv`, `groups.csv`, `rounds.csv`, ...); `None` for a
    /// format that writes only the tables every tournament has (`games.csv`,
    /// `standings.csv`, `crosstable.csv`, `timings.csv`).
    fn tables(
        &mut self,
        _plan: &TournamentPlan,
        _results: &Results,
        _standings: &[StandingRow],
    ) -> Result<Option<RoundsTables>, OffSchedule> {
        Ok(None)
    }
}

impl Format {
    /// The rules of the format, for `plan`.
    pub fn rules(self, plan: &TournamentPlan) -> Box<dyn FormatRules> {
        match self {
            Format::RoundRobin => Box::new(SingleBlock {
                pairings: round_robin_pairings,
            }),
            Format::Gauntlet => Box::new(SingleBlock {
                pairings: gauntlet_pairings,
            }),
            Format::Swiss => Box::new(SwissRules(Box::new(Swiss::new(plan)))),
            Format::Knockout => Box::new(Knockout),
            Format::Groups => Box::new(Groups),
            Format::FreeForAll => Box::new(FreeForAll),
        }
    }
}

/// A format whose games are all known before any is played: one block,
/// the [`Schedule`](super::schedule::Schedule) of its pairings.
struct SingleBlock {
    pairings: fn(&TournamentPlan) -> Vec<(usize, usize)>,
}

impl FormatRules for SingleBlock {
    fn pairings(&self, plan: &TournamentPlan) -> Option<Vec<(usize, usize)>> {
        Some((self.pairings)(plan))
    }

    fn announced_games(&self, plan: &TournamentPlan) -> u64 {
        games_in_tournament(plan)
    }
}

/// A free-for-all: one block of tables of K players, played by its own
/// runner ([`super::ffa`]); it has no pairings of two.
struct FreeForAll;

impl FormatRules for FreeForAll {
    fn pairings(&self, _plan: &TournamentPlan) -> Option<Vec<(usize, usize)>> {
        Some(vec![])
    }

    fn announced_games(&self, plan: &TournamentPlan) -> u64 {
        super::ffa::total_games(plan)
    }
}

/// Round robin: every pair of bots plays.
fn round_robin_pairings(plan: &TournamentPlan) -> Vec<(usize, usize)> {
    let n = plan.bots.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// Gauntlet: each challenger plays every other bot; the others do not
/// meet.
fn gauntlet_pairings(plan: &TournamentPlan) -> Vec<(usize, usize)> {
    let n = plan.bots.len();
    let mut out = vec![];
    for &c in &plan.challengers {
        for o in (0..n).filter(|o| !plan.challengers.contains(o)) {
            out.push((c.min(o), c.max(o)));
        }
    }
    out
}

/// The Swiss rounds so far, kept so that each round is paired once.
struct SwissRules(Box<Swiss>);

impl FormatRules for SwissRules {
    fn pairings(&self, _plan: &TournamentPlan) -> Option<Vec<(usize, usize)>> {
        None
    }

    fn announced_games(&self, plan: &TournamentPlan) -> u64 {
        swiss::total_games(plan)
    }

    fn expected_games(
        &self,
        plan: &TournamentPlan,
        _results: &Results,
    ) -> Result<u64, OffSchedule> {
        Ok(swiss::total_games(plan))
    }

    fn next_games(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
    ) -> Result<Option<Block>, OffSchedule> {
        self.0.advance(plan, results)
    }

    fn tables(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
        standings: &[StandingRow],
    ) -> Result<Option<RoundsTables>, OffSchedule> {
        let swiss = &mut self.0;
        swiss.advance(plan, results)?;
        let ratings = standings
            .iter()
            .map(|r| (r.bot.clone(), r.rating))
            .collect();
        Ok(Some(RoundsTables::Swiss {
            table: swiss.table(plan, &ratings),
            rounds: swiss.round_rows(plan),
            rounds_complete: swiss.rounds_complete(),
            rounds_total: plan.rounds,
        }))
    }
}

/// A seeded single-elimination bracket, walked again from the results at
/// every call (a few matches).
struct Knockout;

impl FormatRules for Knockout {
    fn pairings(&self, _plan: &TournamentPlan) -> Option<Vec<(usize, usize)>> {
        None
    }

    /// Every match eliminates one bot.
    fn announced_games(&self, plan: &TournamentPlan) -> u64 {
        knockout::games_without_tiebreaks(plan)
    }

    fn expected_games(&self, plan: &TournamentPlan, results: &Results) -> Result<u64, OffSchedule> {
        let tiebreaks = knockout::bracket(plan, results)?.tiebreak_games;
        Ok(self.announced_games(plan) + tiebreaks)
    }

    fn next_games(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
    ) -> Result<Option<Block>, OffSchedule> {
        Ok(knockout::bracket(plan, results)?.next)
    }

    fn tables(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
        _standings: &[StandingRow],
    ) -> Result<Option<RoundsTables>, OffSchedule> {
        let bracket = knockout::bracket(plan, results)?;
        Ok(Some(knockout_tables(plan, vec![], Some(&bracket))))
    }
}

/// Round-robin groups, then a knockout of the best of each group, walked
/// again from the results at every call (one group stage, a few matches).
struct Groups;

impl FormatRules for Groups {
    fn pairings(&self, _plan: &TournamentPlan) -> Option<Vec<(usize, usize)>> {
        None
    }

    /// The group stage, then a knockout in which every match eliminates
    /// one bot.
    fn announced_games(&self, plan: &TournamentPlan) -> u64 {
        let group_games = groups::group_block(plan, &groups::assign(plan)).len();
        let qualified = u64::from(plan.groups) * u64::from(plan.advance);
        group_games + (qualified - 1) * u64::from(plan.games_per_pairing)
    }

    fn expected_games(&self, plan: &TournamentPlan, results: &Results) -> Result<u64, OffSchedule> {
        let tiebreaks = groups::stages(plan, results)?
            .bracket
            .map_or(0, |b| b.tiebreak_games);
        Ok(self.announced_games(plan) + tiebreaks)
    }

    fn next_games(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
    ) -> Result<Option<Block>, OffSchedule> {
        Ok(groups::stages(plan, results)?.next)
    }

    fn tables(
        &mut self,
        plan: &TournamentPlan,
        results: &Results,
        _standings: &[StandingRow],
    ) -> Result<Option<RoundsTables>, OffSchedule> {
        let stages = groups::stages(plan, results)?;
        let rows = stages.tables.into_iter().flatten().collect();
        Ok(Some(knockout_tables(plan, rows, stages.bracket.as_ref())))
    }
}

/// A knockout's tables (after the group stage's, for groups).
fn knockout_tables(
    plan: &TournamentPlan,
    groups: Vec<GroupRow>,
    bracket: Option<&Bracket>,
) -> RoundsTables {
    RoundsTables::Knockout {
        groups,
        matches: bracket.map(|b| b.rows(plan)).unwrap_or_default(),
        text: bracket.map(|b| b.text(plan)).unwrap_or_default(),
        rounds: bracket.map(|b| b.round_rows(plan)).unwrap_or_default(),
        champion: bracket
            .and_then(Bracket::champion)
            .map(|c| plan.bots[c].name.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const EVERY_FORMAT: [Format; 5] = [
        Format::RoundRobin,
        Format::Gauntlet,
        Format::Swiss,
        Format::Knockout,
        Format::Groups,
    ];

    /// Six bots in `format`, with the fields it needs.
    fn plan(format: Format) -> TournamentPlan {
        let fields = match format {
            Format::RoundRobin | Format::Knockout => "",
            Format::Gauntlet => "challengers = [\"s1\"]",
            Format::Swiss => "rounds = 3",
            Format::Groups => "groups = 2\nadvance = 2",
            Format::FreeForAll => unreachable!("not among EVERY_FORMAT: it needs a judge"),
        };
        let mut text = format!(
            "game = \"arrow5\"\nformat = \"{}\"\n{fields}\n",
            format.name()
        );
        for i in 1..=6 {
            text.push_str(&format!("[[bots]]\nname = \"s{i}\"\nbot = \"true\"\n"));
        }
        TournamentPlan::parse(Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn every_format_is_read_by_its_name() {
        for format in EVERY_FORMAT {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("ladder"), None);
        assert_eq!(Format::from_name("Swiss"), None);
    }

    #[test]
    fn single_block_formats_know_every_game_before_any_is_played() {
        for format in EVERY_FORMAT {
            let plan = plan(format);
            let mut rules = format.rules(&plan);
            let none = Results::default();
            let announced = rules.announced_games(&plan);
            assert_eq!(rules.expected_games(&plan, &none).unwrap(), announced);
            let next = rules.next_games(&plan, &none).unwrap();
            let tables = rules.tables(&plan, &none, &[]).unwrap();
            match rules.pairings(&plan) {
                Some(pairings) => {
                    assert!(!format.has_rounds(), "{}", format.name());
                    let per_pairing = u64::from(plan.games_per_pairing);
                    assert_eq!(announced, pairings.len() as u64 * per_pairing);
                    assert!(next.is_none() && tables.is_none());
                }
                None => {
                    assert!(format.has_rounds(), "{}", format.name());
                    let first = next.expect("a first round");
                    assert_eq!(first.first, 1);
                    assert!(first.len() <= announced);
                    assert!(tables.is_some());
                }
            }
        }
        let pairings = |format: Format| {
            let plan = plan(format);
            format.rules(&plan).pairings(&plan)
        };
        assert_eq!(pairings(Format::RoundRobin).unwrap().len(), 15);
        assert_eq!(
            pairings(Format::Gauntlet).unwrap(),
            [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]
        );
    }
}
