//! CI checks (`referee check`): a check file names a bot under test and
//! requirements it must meet (no verdicts against a reference bot, a win
//! rate, a bench average, a largest move time). The games are played through
//! [`runner::play_match`](crate::runner::play_match) and the bench library;
//! the outcome is one [`CheckReport`] per run, shown as text, JSON or JUnit XML.
//!
//! The A/B run of `referee sprt` is in [`ab`]; its arithmetic in [`crate::sprt`].

pub mod ab;
pub mod junit;
pub mod plan;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde::Serialize;

use crate::bench::{self, BenchPlan, BenchSummary};
use crate::games::{Seat, Winner};
use crate::record::MatchRecord;
use crate::runner::{play_match, MatchError, MatchPlan};
use crate::tournament::schedule::game_seed;
use crate::verdict::Verdict;

pub use plan::{CheckPlan, NamedRequirement, Requirement};

/// Bumped when a field of [`CheckReport`] changes meaning or disappears.
pub const REPORT_VERSION: u32 = 1;

/// What a check found: one entry per requirement, in the file's order.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub version: u32,
    pub name: String,
    pub game: String,
    pub variant: String,
    pub bot: String,
    pub bot_spec: String,
    /// Every requirement holds.
    pub passed: bool,
    pub elapsed_s: f64,
    pub requirements: Vec<RequirementResult>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RequirementResult {
    pub name: String,
    pub kind: &'static str,
    pub passed: bool,
    /// The measured number the requirement is judged on.
    pub measured: f64,
    /// Its unit: `games`, `%`, `attacks`, `ms`.
    pub unit: &'static str,
    /// The bound, as written for people (`>= 40%`, `<= 5`, `< 1s`).
    pub bound: String,
    /// One line: what was measured.
    pub summary: String,
    /// What went wrong in single games (verdicts, uncracked secrets), with
    /// a replay command where there is one. At most [`MAX_DETAILS`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
}

/// The most detail lines a requirement keeps.
pub const MAX_DETAILS: usize = 10;

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error("bench: {0}")]
    Bench(#[from] bench::BenchError),
}

/// One game against an opponent: the bot under test sits at `tested`.
#[derive(Clone, Copy, Debug)]
struct CheckGame {
    opponent: usize,
    /// 0-based within the games against this opponent; requirements use the
    /// first `games` of them.
    index: u32,
    tested: Seat,
    seed: u64,
}

/// What the check keeps of one game.
struct GameOutcome {
    game: CheckGame,
    verdict: Verdict,
    won: bool,
    time_max_ms: f64,
    detail: Option<String>,
}

/// The games against the opponents: for each, pairs with sides swapped, the
/// pair's seed derived like a tournament's (opponent as the pairing).
fn schedule(plan: &CheckPlan) -> Vec<CheckGame> {
    let mut games = vec![];
    for opponent in 0..plan.opponents.len() {
        let count = plan.games_against(opponent);
        for pair in 0..count / 2 {
            let seed = game_seed(plan.seed, opponent as u64, u64::from(pair));
            for (k, tested) in [Seat::A, Seat::B].into_iter().enumerate() {
                games.push(CheckGame {
                    opponent,
                    index: 2 * pair + k as u32,
                    tested,
                    seed,
                });
            }
        }
    }
    games
}

fn outcome(plan: &CheckPlan, game: CheckGame, record: &MatchRecord) -> GameOutcome {
    let p = record.player(game.tested);
    let detail = p.disqualification.as_ref().map(|d| {
        format!(
            "game {} vs {}: {} at reply {}: {}; replay: {}",
            game.index + 1,
            plan.opponents[game.opponent].name,
            d.verdict,
            d.at_move,
            d.detail,
            crate::report::as_invoked(&record.replay)
        )
    });
    GameOutcome {
        game,
        verdict: p.verdict,
        won: record.winner == Winner::seat(game.tested),
        time_max_ms: p.time_max_ms,
        detail,
    }
}

/// Runs the check: the games against the opponents on `jobs` threads, then
/// each bench. `progress` gets a line now and then.
pub fn run(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    jobs: usize,
    mut progress: impl FnMut(&str),
) -> Result<CheckReport, CheckError> {
    let start = Instant::now();
    let games = schedule(plan);
    let mut outcomes: Vec<GameOutcome> = Vec::with_capacity(games.len());
    if !games.is_empty() {
        progress(&format!("playing {} games", games.len()));
    }
    let next = AtomicUsize::new(0);
    let mut error: Option<MatchError> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..jobs.max(1).min(games.len().max(1)) {
            let tx = tx.clone();
            let (next, games) = (&next, &games);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&game) = games.get(i) else { return };
                let (tested, opponent) = (&plan.bot, &plan.opponents[game.opponent]);
                let seats = match game.tested {
                    Seat::A => [tested, opponent],
                    Seat::B => [opponent, tested],
                };
                let match_plan = MatchPlan {
                    config: plan.config.clone(),
                    seed: game.seed,
                    key: key.clone(),
                    bots: seats.map(|b| b.command.clone()),
                    limits: seats.map(|b| b.limits.clone()),
                };
                let result = play_match(&match_plan, None).map(|r| outcome(plan, game, &r));
                if tx.send(result).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for result in rx {
            match result {
                Ok(o) => {
                    outcomes.push(o);
                    let done = outcomes.len();
                    if done % 10 == 0 || done == games.len() {
                        progress(&format!("{done}/{} games", games.len()));
                    }
                }
                Err(e) => {
                    next.store(games.len(), Ordering::Relaxed);
                    error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e.into());
    }
    outcomes.sort_by_key(|o| (o.game.opponent, o.game.index));

    let mut benches: Vec<Option<BenchSummary>> = vec![];
    for r in &plan.requirements {
        benches.push(match r.requirement {
            Requirement::BenchAverage {
                selection, seed, ..
            } => {
                let bench_plan = BenchPlan {
                    config: plan.config.clone(),
                    bot: plan.bot.command.clone(),
                    limits: plan.bot.limits.clone(),
                    selection,
                    seed,
                    key: key.clone(),
                    jobs: jobs.max(1),
                };
                progress(&format!("bench: {}", r.name));
                Some(bench::run(
                    &bench_plan,
                    None,
                    &mut crate::reporter::Reporters::default(),
                )?)
            }
            _ => None,
        });
    }

    let results: Vec<RequirementResult> = plan
        .requirements
        .iter()
        .zip(&benches)
        .map(|(r, bench)| judge(plan, key, r, &outcomes, bench.as_ref(), &benches))
        .collect();
    Ok(CheckReport {
        version: REPORT_VERSION,
        name: plan.name.clone(),
        game: plan.config.game_name().to_string(),
        variant: plan.config.variant_name(),
        bot: plan.bot.name.clone(),
        bot_spec: plan.bot.command.spec.clone(),
        passed: results.iter().all(|r| r.passed),
        elapsed_s: start.elapsed().as_secs_f64(),
        requirements: results,
    })
}

fn judge(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    r: &NamedRequirement,
    outcomes: &[GameOutcome],
    bench: Option<&BenchSummary>,
    all_benches: &[Option<BenchSummary>],
) -> RequirementResult {
    let first_games = |against: usize, games: u32| {
        outcomes
            .iter()
            .filter(move |o| o.game.opponent == against && o.game.index < games)
    };
    let mut details = vec![];
    let (passed, measured, unit, bound, summary) = match r.requirement {
        Requirement::NoVerdicts { against, games } => {
            let bad: Vec<&GameOutcome> = first_games(against, games)
                .filter(|o| o.verdict != Verdict::Ok)
                .collect();
            details.extend(bad.iter().filter_map(|o| o.detail.clone()));
            let clean = games as usize - bad.len();
            (
                bad.is_empty(),
                clean as f64,
                "games",
                format!("= {games}"),
                format!(
                    "{clean} of {games} games without a verdict against {}",
                    plan.opponents[against].name
                ),
            )
        }
        Requirement::WinRate {
            against,
            games,
            at_least,
        } => {
            let wins = first_games(against, games).filter(|o| o.won).count();
            let percent = 100.0 * wins as f64 / f64::from(games);
            (
                percent >= at_least,
                percent,
                "%",
                format!(">= {at_least}%"),
                format!(
                    "won {wins} of {games} games ({percent:.1}%) against {}",
                    plan.opponents[against].name
                ),
            )
        }
        Requirement::BenchAverage { at_most, .. } => {
            let s = bench.expect("every bench requirement has its summary");
            for f in &s.failures {
                // The bench's own replay command: options, key and limits
                // included, the spec quoted.
                let replay = crate::replay::bench_command(&crate::runner::SoloPlan {
                    config: plan.config.clone(),
                    seed: s.seed,
                    key: key.clone(),
                    secret_index: f.secret_index,
                    bot: plan.bot.command.clone(),
                    limits: plan.bot.limits.clone(),
                });
                details.push(format!(
                    "secret {} [{}]: {} after {} ({}); replay: {}",
                    f.secret_index,
                    f.secret,
                    f.reason,
                    crate::report::moves_word(s.game, u64::from(f.attacks)),
                    f.verdict,
                    crate::report::as_invoked(&replay)
                ));
            }
            let all_cracked = s.failures.is_empty();
            (
                all_cracked && s.average <= at_most,
                s.average,
                "attacks",
                format!("<= {at_most}"),
                format!(
                    "average {:.3} attacks (largest {}) over {} of {} secrets cracked",
                    s.average, s.largest, s.cracked, s.games
                ),
            )
        }
        Requirement::MaxMoveTime { below } => {
            let games_max = outcomes.iter().map(|o| o.time_max_ms).fold(0.0, f64::max);
            let bench_max = all_benches
                .iter()
                .flatten()
                .map(|s| s.time_max_ms)
                .fold(0.0, f64::max);
            let max = games_max.max(bench_max);
            let played =
                outcomes.len() as u64 + all_benches.iter().flatten().map(|s| s.games).sum::<u64>();
            (
                max < below.as_secs_f64() * 1000.0,
                max,
                "ms",
                format!("< {below:?}"),
                format!("largest reply time {max:.3} ms over {played} games"),
            )
        }
    };
    let more = details.len().saturating_sub(MAX_DETAILS);
    details.truncate(MAX_DETAILS);
    if more > 0 {
        details.push(format!("... and {more} more"));
    }
    RequirementResult {
        name: r.name.clone(),
        kind: r.requirement.kind(),
        passed,
        measured,
        unit,
        bound,
        summary,
        details,
    }
}

/// The report for a terminal: one line per requirement, PASS or FAIL first.
pub fn render(report: &CheckReport) -> String {
    let mut out = format!(
        "Check {}: bot {} ({}), {} ({})\n",
        report.name, report.bot, report.bot_spec, report.game, report.variant
    );
    for r in &report.requirements {
        out.push_str(&format!(
            "  {}  {}: {} (need {})\n",
            if r.passed { "PASS" } else { "FAIL" },
            r.name,
            r.summary,
            r.bound
        ));
        for d in &r.details {
            out.push_str(&format!("          {d}\n"));
        }
    }
    let failed: Vec<&str> = report
        .requirements
        .iter()
        .filter(|r| !r.passed)
        .map(|r| r.name.as_str())
        .collect();
    if failed.is_empty() {
        out.push_str(&format!(
            "Result: PASS, all {} requirements hold ({:.1} s)\n",
            report.requirements.len(),
            report.elapsed_s
        ));
    } else {
        out.push_str(&format!(
            "Result: FAIL, {} of {} requirements failed: {} ({:.1} s)\n",
            failed.len(),
            report.requirements.len(),
            failed.join("; "),
            report.elapsed_s
        ));
    }
    out
}
