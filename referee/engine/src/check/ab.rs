//! `referee sprt`: NEW against OLD in pairs of games (same seed, sides
//! swapped) until the sequential test of [`crate::sprt`] accepts H0 or H1,
//! or the game cap is reached. Pairs are played on worker threads but fed to
//! the test in pair order, so a run stops at the same pair whatever the
//! number of jobs (for bots that play the same game given the same seed).

pub use crate::model::check::{AbOutcome, AbResult};
use std::collections::BTreeMap;

use crate::games::{GameConfig, Seat, Winner};
use crate::match_plan::MatchPlan;
use crate::pool::{Flow, Pool};
use crate::record::MatchRecord;
use crate::reporter::{Finish, Place, Reporter, Run};
use crate::runner::{play_match, MatchError};
use crate::sprt::{Bounds, Decision, GameResult, Tally};
use crate::tournament::schedule::game_seed;
use crate::tournament::TournamentBot;
use crate::verdict::Verdict;

#[derive(Clone, Debug)]
pub struct AbPlan {
    pub config: GameConfig,
    /// Pair `i` is played with `game_seed(seed, 0, i)`.
    pub seed: u64,
    pub new: TournamentBot,
    pub old: TournamentBot,
    pub bounds: Bounds,
    /// Stop after this many games (rounded down to whole pairs) if the test
    /// has not decided.
    pub max_games: u64,
    pub jobs: usize,
    /// What every game's codes and seeds are drawn with.
    pub key: crate::key::RunKey,
}

struct PairResult {
    /// The two games, NEW at seat A then at seat B.
    records: [MatchRecord; 2],
    results: [GameResult; 2],
    verdicts: [Verdict; 2],
    new_detail: Option<String>,
}

fn game_result(record: &MatchRecord, new_seat: Seat) -> GameResult {
    match record.winner {
        Winner::Draw => GameResult::Draw,
        w if w == Winner::seat(new_seat) => GameResult::Win,
        _ => GameResult::Loss,
    }
}

fn play_pair(plan: &AbPlan, pair: u64) -> Result<PairResult, MatchError> {
    let seed = game_seed(plan.seed, 0, pair);
    let mut results = [GameResult::Draw; 2];
    let mut verdicts = [Verdict::Ok; 2];
    let mut new_detail = None;
    let mut records = Vec::with_capacity(2);
    for (k, new_seat) in [Seat::A, Seat::B].into_iter().enumerate() {
        let seats = match new_seat {
            Seat::A => [&plan.new, &plan.old],
            _ => [&plan.old, &plan.new],
        };
        let match_plan = MatchPlan {
            config: plan.config.clone(),
            seed,
            key: plan.key.clone(),
            bots: seats.map(|b| b.command.clone()).into(),
            limits: seats.map(|b| b.limits.clone()).into(),
        };
        let record = play_match(&match_plan, None)?;
        results[k] = game_result(&record, new_seat);
        let new = record.player(new_seat);
        let old = record.player(new_seat.other());
        if new.verdict != Verdict::Ok {
            verdicts[0] = new.verdict;
            new_detail.get_or_insert_with(|| format!("NEW {}: {}", new.verdict, record.replay));
        }
        if old.verdict != Verdict::Ok {
            verdicts[1] = old.verdict;
        }
        records.push(record);
    }
    Ok(PairResult {
        records: records.try_into().expect("two games a pair"),
        results,
        verdicts,
        new_detail,
    })
}

/// Why an A/B run could not be done.
#[derive(Debug, thiserror::Error)]
pub enum AbError {
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(transparent)]
    Report(#[from] crate::reporter::ReportError),
}

/// Plays until the test decides or the cap is reached, telling `reporters`
/// the games of each pair, in pair order, with the tally and the LLR once
/// the pair is counted, then the outcome.
pub fn run(plan: &AbPlan, reporters: &mut dyn Reporter) -> Result<AbOutcome, AbError> {
    reporters.run_started(&Run::Sprt {
        config: &plan.config,
        new: plan.new.contender(),
        old: plan.old.contender(),
        bounds: plan.bounds,
        max_games: plan.max_games,
    })?;
    let max_pairs = plan.max_games / 2;
    let mut tally = Tally::default();
    let mut outcome = AbOutcome {
        result: AbResult::Inconclusive,
        tally,
        llr: 0.0,
        verdicts_new: 0,
        verdicts_old: 0,
        first_new_verdict: None,
    };
    let mut error: Option<MatchError> = None;
    let mut report_error = None;
    let mut pairs = 0..max_pairs;
    let mut pending: BTreeMap<u64, PairResult> = BTreeMap::new();
    let mut expected = 0u64;
    let mut decided = false;
    Pool {
        jobs: plan.jobs,
        pin: None,
    }
    .run(
        || pairs.next(),
        |pair| (pair, play_pair(plan, pair)),
        |(pair, result)| {
            match result {
                Ok(r) => {
                    pending.insert(pair, r);
                }
                Err(e) => {
                    error.get_or_insert(e);
                    return Flow::Stop;
                }
            }
            while !decided {
                let Some(r) = pending.remove(&expected) else {
                    break;
                };
                expected += 1;
                tally.add_pair(r.results[0], r.results[1]);
                outcome.verdicts_new += u64::from(r.verdicts[0] != Verdict::Ok);
                outcome.verdicts_old += u64::from(r.verdicts[1] != Verdict::Ok);
                if outcome.first_new_verdict.is_none() {
                    outcome.first_new_verdict = r.new_detail;
                }
                let llr = tally.llr(&plan.bounds);
                for (game, record) in r.records.iter().enumerate() {
                    let place = Place::Sprt {
                        pair: expected - 1,
                        game,
                        tally: &tally,
                        llr,
                    };
                    if let Err(e) = reporters.game_finished(record, &place) {
                        report_error.get_or_insert(e);
                        decided = true;
                    }
                }
                outcome.llr = llr;
                outcome.result = match tally.decision(&plan.bounds) {
                    Decision::AcceptH1 => AbResult::H1,
                    Decision::AcceptH0 => AbResult::H0,
                    Decision::Continue => AbResult::Inconclusive,
                };
                if outcome.result != AbResult::Inconclusive || expected >= max_pairs {
                    decided = true;
                }
            }
            // Once decided, pairs in progress finish; no new ones start.
            if decided {
                Flow::Stop
            } else {
                Flow::Go
            }
        },
    );
    if let Some(e) = error {
        return Err(e.into());
    }
    if let Some(e) = report_error {
        return Err(AbError::Report(e));
    }
    outcome.tally = tally;
    reporters.run_finished(&Finish::Sprt(&outcome))?;
    Ok(outcome)
}
