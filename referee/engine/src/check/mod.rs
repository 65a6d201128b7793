//! CI checks (`referee check`): a check file names a bot under test and
//! requirements it must meet (no verdicts against a reference bot, a win
//! rate, a bench average, a largest move time; at tables of more than two
//! players, an average rank, a share of tables won, finishing ahead of a
//! reference: [`tables`]). The games are played through
//! [`runner::play_match`](crate::runner::play_match) and the bench library;
//! the outcome is one [`CheckReport`] per run, shown by the reporters
//! ([`crate::reporter`]: text, JSON, JUnit XML).
//!
//! The A/B run of `referee sprt` is in [`ab`]; its arithmetic in [`crate::sprt`].

pub mod ab;
mod measure;
pub mod plan;
pub mod tables;

pub use crate::model::check::{
    CheckReport, RequirementResult, Status, MAX_DETAILS, REPORT_VERSION,
};
use std::sync::Mutex;
use std::time::Instant;

use crate::bench::{self, BenchPlan, BenchSummary};
use crate::games::{Seat, Winner};
use crate::match_plan::MatchPlan;
use crate::pool::{Flow, Pool};
use crate::record::MatchRecord;
use crate::runner::{play_match, MatchError};
use crate::tournament::schedule::game_seed;
use crate::verdict::Verdict;

use measure::*;

pub use plan::{CheckPlan, NamedRequirement, Requirement};

/// What a requirement's games (or its bench) have decided so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    Open,
    Pass,
    Fail,
}

/// A requirement's count of the games that concern it, as they come in.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Games of the requirement played (for max-move-time: every game).
    played: u32,
    /// Games with a verdict against the bot under test.
    verdicts: u32,
    wins: u32,
    /// At tables: the sum of the bot's ranks (1 = first).
    rank_total: u32,
    /// A reply at or over a max-move-time bound.
    too_slow: bool,
}

/// The fewest wins of `games` that make `at_least` percent (`games + 1`
/// when none does), by the same comparison as the final judgement.
fn wins_needed(games: u32, at_least: f64) -> u32 {
    (0..=games)
        .find(|&w| 100.0 * f64::from(w) / f64::from(games.max(1)) >= at_least)
        .unwrap_or(games + 1)
}

impl Tally {
    /// Counts `o` if it concerns `r`.
    fn add(&mut self, r: &Requirement, o: &GameOutcome) {
        match *r {
            Requirement::NoVerdicts { against, games }
            | Requirement::WinRate { against, games, .. } => {
                if o.game.at_table() || o.game.opponent != against || o.game.index >= games {
                    return;
                }
                self.played += 1;
                self.verdicts += u32::from(o.verdict != Verdict::Ok);
                self.wins += u32::from(o.won);
            }
            Requirement::MaxMoveTime { below } => {
                self.played += 1;
                self.too_slow |= o.time_max_ms >= below.as_secs_f64() * 1000.0;
            }
            Requirement::BenchAverage { .. } => {}
            Requirement::CleanTables { games }
            | Requirement::AverageRank { games, .. }
            | Requirement::TableWins { games, .. } => {
                if !o.game.at_table() || o.game.index >= games {
                    return;
                }
                self.played += 1;
                self.verdicts += u32::from(o.verdict != Verdict::Ok);
                self.wins += u32::from(o.won);
                self.rank_total += o.rank;
            }
            Requirement::AheadOf { against, games, .. } => {
                // Only the tables the reference sat at count.
                if let Some(ahead) = o.ahead_of(against).filter(|_| o.game.index < games) {
                    self.played += 1;
                    self.wins += u32::from(ahead);
                }
            }
        }
    }

    /// What the games so far decide. A decision never changes as more
    /// games come in: a requirement is stopped as soon as it is decided.
    /// Max-move-time measures the games the others play: it fails at the
    /// first reply too slow and passes only when all is done.
    /// `players`: at each game (the worst rank a table gives).
    fn decision(&self, r: &Requirement, players: u32) -> Decision {
        match *r {
            Requirement::NoVerdicts { games, .. } | Requirement::CleanTables { games } => {
                if self.verdicts > 0 {
                    Decision::Fail
                } else if self.played >= games {
                    Decision::Pass
                } else {
                    Decision::Open
                }
            }
            Requirement::WinRate {
                games, at_least, ..
            }
            | Requirement::TableWins { games, at_least }
            | Requirement::AheadOf {
                meetings: games,
                at_least,
                ..
            } => {
                let needed = wins_needed(games, at_least);
                let left = games.saturating_sub(self.played);
                if self.wins >= needed {
                    Decision::Pass
                } else if self.wins + left < needed {
                    Decision::Fail
                } else {
                    Decision::Open
                }
            }
            Requirement::AverageRank { games, at_most } => {
                let left = games.saturating_sub(self.played);
                if tables::average_within(self.rank_total + left * players, games, at_most) {
                    // Even last place at every table left keeps it.
                    Decision::Pass
                } else if !tables::average_within(self.rank_total + left, games, at_most) {
                    // Even first place at every table left cannot.
                    Decision::Fail
                } else {
                    Decision::Open
                }
            }
            Requirement::MaxMoveTime { .. } if self.too_slow => Decision::Fail,
            Requirement::MaxMoveTime { .. } | Requirement::BenchAverage { .. } => Decision::Open,
        }
    }
}

/// Does a requirement still undecided need `game`? (Max-move-time and the
/// benches need no game of their own.)
fn needed(plan: &CheckPlan, decisions: &[Decision], game: &CheckGame) -> bool {
    plan.requirements
        .iter()
        .zip(decisions)
        .any(|(r, d)| match r.requirement {
            Requirement::NoVerdicts { against, games }
            | Requirement::WinRate { against, games, .. } => {
                *d == Decision::Open
                    && !game.at_table()
                    && against == game.opponent
                    && game.index < games
            }
            Requirement::CleanTables { games }
            | Requirement::AverageRank { games, .. }
            | Requirement::TableWins { games, .. } => {
                *d == Decision::Open && game.at_table() && game.index < games
            }
            Requirement::AheadOf { against, games, .. } => {
                *d == Decision::Open && game.references.contains(&against) && game.index < games
            }
            Requirement::MaxMoveTime { .. } | Requirement::BenchAverage { .. } => false,
        })
}

/// The games' shared state: each requirement's tally and decision, the
/// next game to consider, and whether to stop.
struct Board {
    next: usize,
    stop: bool,
    tallies: Vec<Tally>,
    decisions: Vec<Decision>,
}

impl Board {
    /// Counts a game's outcome and gives a line for each requirement it
    /// decides (and one when fail-fast stops the check). Done by the worker
    /// that played the game before it takes the next one, so that a
    /// decided requirement is never given one more game.
    fn count(&mut self, plan: &CheckPlan, o: &GameOutcome, fail_fast: bool) -> Vec<String> {
        let mut lines = vec![];
        for (i, r) in plan.requirements.iter().enumerate() {
            self.tallies[i].add(&r.requirement, o);
            let now = self.tallies[i].decision(&r.requirement, plan.players_per_game as u32);
            if self.decisions[i] != Decision::Open || now == Decision::Open {
                continue;
            }
            self.decisions[i] = now;
            let played = self.tallies[i].played;
            lines.push(format!(
                "{}: {} after {played} game{}",
                r.name,
                if now == Decision::Pass {
                    "passed"
                } else {
                    "failed"
                },
                if played == 1 { "" } else { "s" }
            ));
            if fail_fast && now == Decision::Fail && !self.stop {
                self.stop = true;
                lines.push("fail-fast: stopping the check".into());
            }
        }
        lines
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The judge does not take the check's number of players (or, at
    /// tables, refused the game: maybe for that).
    #[error("players_per_game = {players}{note}: {refused}")]
    Players {
        players: usize,
        /// What the number is, or why the refusal may be about it.
        note: &'static str,
        refused: Box<MatchError>,
    },
    #[error("bench")]
    Bench(#[from] bench::BenchError),
}

/// One game against an opponent, or one table of more than two players:
/// the bot under test sits at `tested`.
#[derive(Clone, Debug)]
struct CheckGame {
    /// The opponent of a game of two (0 at tables).
    opponent: usize,
    /// 0-based within the games against this opponent (at tables: within
    /// the tables); requirements use the first `games` of them.
    index: u32,
    tested: Seat,
    seed: u64,
    /// At a table: the references at the other seats, in seat order (the
    /// tested seat left out). Empty in a game of two.
    references: Vec<usize>,
}

impl CheckGame {
    fn at_table(&self) -> bool {
        !self.references.is_empty()
    }

    /// Who sits at each seat: `None` for the bot under test.
    fn seats(&self) -> Vec<Option<usize>> {
        let others = if self.at_table() {
            &self.references[..]
        } else {
            std::slice::from_ref(&self.opponent)
        };
        tables::seats_of(self.tested.index(), others)
    }

    /// How the game is named in evidence: `game 3 vs NAME`, or `table 3
    /// (seat C; with NAME, NAME)`.
    fn label(&self, plan: &CheckPlan) -> String {
        if self.at_table() {
            let names: Vec<&str> = self
                .references
                .iter()
                .map(|r| plan.opponents[*r].name.as_str())
                .collect();
            format!(
                "table {} (seat {}; with {})",
                self.index + 1,
                self.tested.label().to_uppercase(),
                names.join(", ")
            )
        } else {
            format!(
                "game {} vs {}",
                self.index + 1,
                plan.opponents[self.opponent].name
            )
        }
    }
}

/// What the check keeps of one game.
struct GameOutcome {
    game: CheckGame,
    verdict: Verdict,
    /// First alone (at a table a first place shared is not a win).
    won: bool,
    /// The bot's rank, 1 = first (ties share the better rank).
    rank: u32,
    /// At a table: for each reference there, whether the bot finished
    /// strictly ahead of it.
    ahead: Vec<(usize, bool)>,
    time_max_ms: f64,
    detail: Option<String>,
    /// The transcript's file name in the plan's transcripts folder.
    transcript: Option<String>,
}

impl GameOutcome {
    /// Whether the bot finished ahead of `reference`, if it sat at this
    /// table.
    fn ahead_of(&self, reference: usize) -> Option<bool> {
        self.ahead
            .iter()
            .find(|(r, _)| *r == reference)
            .map(|(_, ahead)| *ahead)
    }
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
                    references: vec![],
                });
            }
        }
    }
    if plan.players_per_game > 2 {
        games.extend(
            tables::draw(
                plan.seed,
                plan.opponents.len(),
                plan.players_per_game,
                plan.tables(),
            )
            .into_iter()
            .map(|t| CheckGame {
                opponent: 0,
                index: t.index,
                tested: Seat::of_index(t.tested).expect("at most MAX_SEATS players"),
                seed: t.seed,
                references: t.references,
            }),
        );
    }
    games
}

fn outcome(plan: &CheckPlan, game: CheckGame, record: &MatchRecord) -> GameOutcome {
    let p = record.player(game.tested);
    let detail = p.disqualification.as_ref().map(|d| {
        format!(
            "{}: {} at reply {}: {}; replay: {}",
            game.label(plan),
            d.verdict,
            d.at_move,
            d.detail,
            crate::report::as_invoked(&record.replay)
        )
    });
    let places = record.places();
    let seat = game.tested.index();
    let ahead = if game.at_table() {
        game.seats()
            .iter()
            .enumerate()
            .filter_map(|(at, who)| who.map(|r| (r, places[seat] < places[at])))
            .collect()
    } else {
        vec![]
    };
    GameOutcome {
        won: if game.at_table() {
            tables::first_alone(&places, seat)
        } else {
            record.winner == Winner::seat(game.tested)
        },
        rank: tables::rank_of(&places, seat),
        ahead,
        game,
        verdict: p.verdict,
        time_max_ms: p.time_max_ms,
        detail,
        transcript: None,
    }
}

/// Runs the check: the games against the opponents on `jobs` threads, then
/// each bench. `progress` gets a line now and then.
///
/// A requirement's games stop as soon as its outcome is decided (a
/// no-verdicts requirement fails at the first verdict; a win-rate one is
/// decided once enough wins are in, or too many losses): a game is handed
/// out only while a requirement still undecided needs it. With `fail_fast`
/// the whole check stops at the first failed requirement; those not yet
/// decided are reported `not-run`.
pub fn run(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    jobs: usize,
    fail_fast: bool,
    mut progress: impl FnMut(&str) + Send,
) -> Result<CheckReport, CheckError> {
    let start = Instant::now();
    let games = schedule(plan);
    if !games.is_empty() {
        progress(&format!("playing at most {} games", games.len()));
    }
    if plan.players_per_game > 2 {
        progress(&seating_line(plan, &games));
    }
    let (mut outcomes, board) = play_games(plan, key, &games, jobs, fail_fast, &mut progress)
        .map_err(|e| {
            let players = plan.players_per_game;
            let note = match &e {
                MatchError::Players { .. } if players == 2 => " (the default)",
                MatchError::Players { .. } => "",
                e if players > 2 && e.is_refused_game() => {
                    " (a judge refuses a number of players it does not take, as it refuses options)"
                }
                _ => return CheckError::Match(e),
            };
            CheckError::Players {
                players,
                note,
                refused: Box::new(e),
            }
        })?;
    let Board {
        stop: mut stopped,
        mut decisions,
        ..
    } = board;
    if outcomes.len() < games.len() {
        progress(&format!(
            "{} of {} games played; {}",
            outcomes.len(),
            games.len(),
            if stopped {
                "fail-fast stopped the others"
            } else {
                "the others were not needed"
            }
        ));
    }
    outcomes.sort_by_key(|o| (o.game.opponent, o.game.index));

    let benches = run_benches(
        plan,
        key,
        jobs,
        fail_fast,
        &mut decisions,
        &mut stopped,
        &mut progress,
    )?;

    let results: Vec<RequirementResult> = plan
        .requirements
        .iter()
        .zip(&benches)
        .zip(&decisions)
        .map(|((r, bench), &decision)| {
            // Stopped by fail-fast before it was decided: not run. (Without
            // it every requirement is decided: max-move-time at the end.)
            let not_run = stopped && decision == Decision::Open;
            judge(plan, key, r, &outcomes, bench.as_ref(), &benches, not_run)
        })
        .collect();
    Ok(CheckReport {
        version: REPORT_VERSION,
        name: plan.name.clone(),
        game: plan.config.game_name().to_string(),
        variant: plan.config.variant_name(),
        bot: plan.bot.name.clone(),
        bot_spec: plan.bot.command.spec.clone(),
        passed: results.iter().all(|r| r.status == Status::Pass),
        fail_fast,
        elapsed_s: start.elapsed().as_secs_f64(),
        time_scale: plan.time_scale.factor(),
        requirements: results,
    })
}

/// How the tables are seated, for the progress lines: the bot's seats
/// and how many tables each reference sits at.
fn seating_line(plan: &CheckPlan, games: &[CheckGame]) -> String {
    let mut at_seat = vec![0u32; plan.players_per_game];
    let mut sits = vec![0u32; plan.opponents.len()];
    for game in games {
        at_seat[game.tested.index()] += 1;
        for r in &game.references {
            sits[*r] += 1;
        }
    }
    let seats: Vec<String> = at_seat
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let seat = crate::games::Seat::of_index(i).map_or("?", |s| s.label());
            format!("{} {n}", seat.to_uppercase())
        })
        .collect();
    let references: Vec<String> = plan
        .opponents
        .iter()
        .zip(&sits)
        .map(|(bot, n)| format!("{} {n}", bot.name))
        .collect();
    format!(
        "tables of {}: the bot at seat {}; tables per reference: {}",
        plan.players_per_game,
        seats.join(", "),
        references.join(", ")
    )
}

/// Plays each bench requirement (unless fail-fast has stopped the check)
/// and decides it; one entry per requirement, `None` for the others.
fn run_benches(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    jobs: usize,
    fail_fast: bool,
    decisions: &mut [Decision],
    stopped: &mut bool,
    progress: &mut (impl FnMut(&str) + Send),
) -> Result<Vec<Option<BenchSummary>>, CheckError> {
    let mut benches: Vec<Option<BenchSummary>> = vec![];
    for (i, r) in plan.requirements.iter().enumerate() {
        benches.push(match r.requirement {
            Requirement::BenchAverage {
                selection,
                seed,
                at_most,
            } if !*stopped => {
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
                let summary = bench::run(
                    &bench_plan,
                    None,
                    &mut crate::reporter::Reporters::default(),
                )?;
                decisions[i] = if summary.failures.is_empty() && summary.average <= at_most {
                    Decision::Pass
                } else {
                    Decision::Fail
                };
                if fail_fast && decisions[i] == Decision::Fail {
                    *stopped = true;
                    progress("fail-fast: stopping the check");
                }
                Some(summary)
            }
            _ => None,
        });
    }

    Ok(benches)
}

/// One game of the bot under test against an opponent.
fn play_check_game(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    game: CheckGame,
) -> Result<GameOutcome, MatchError> {
    let seats: Vec<&crate::tournament::TournamentBot> = game
        .seats()
        .into_iter()
        .map(|who| who.map_or(&plan.bot, |r| &plan.opponents[r]))
        .collect();
    let match_plan = MatchPlan {
        config: plan.config.clone(),
        seed: game.seed,
        key: key.clone(),
        bots: seats.iter().map(|b| b.command.clone()).collect(),
        limits: seats.iter().map(|b| b.limits.clone()).collect(),
    };
    let name = if game.at_table() {
        format!("table-{:04}.jsonl", game.index + 1)
    } else {
        format!("game-{}-{:04}.jsonl", game.opponent + 1, game.index + 1)
    };
    let path = plan.transcripts.as_ref().map(|dir| dir.join(&name));
    play_match(&match_plan, path.as_ref()).map(|r| {
        let mut o = outcome(plan, game, &r);
        o.transcript = path.map(|_| name);
        o
    })
}

/// Plays the games an undecided requirement still needs, on `jobs`
/// threads; the games played and the board that counted them.
fn play_games(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    games: &[CheckGame],
    jobs: usize,
    fail_fast: bool,
    progress: &mut (impl FnMut(&str) + Send),
) -> Result<(Vec<GameOutcome>, Board), MatchError> {
    let mut outcomes: Vec<GameOutcome> = Vec::with_capacity(games.len());
    let count = plan.requirements.len();
    let board = Mutex::new(Board {
        next: 0,
        stop: false,
        tallies: vec![Tally::default(); count],
        decisions: plan
            .requirements
            .iter()
            .map(|r| Tally::default().decision(&r.requirement, plan.players_per_game as u32))
            .collect(),
    });
    let mut error: Option<MatchError> = None;
    let pool = Pool {
        jobs: jobs.max(1).min(games.len().max(1)),
        pin: None,
    };
    pool.run(
        // The next game an undecided requirement still needs.
        || {
            let mut b = board.lock().unwrap_or_else(|e| e.into_inner());
            while !b.stop {
                let game = games.get(b.next)?.clone();
                b.next += 1;
                if needed(plan, &b.decisions, &game) {
                    return Some(game);
                }
            }
            None
        },
        |game: CheckGame| {
            // The game is counted by the worker that played it, before it
            // takes the next: what is handed out next knows of it.
            play_check_game(plan, key, game).map(|o| {
                let lines = board
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .count(plan, &o, fail_fast);
                (o, lines)
            })
        },
        |result| match result {
            Ok((o, lines)) => {
                for line in lines {
                    progress(&line);
                }
                outcomes.push(o);
                let done = outcomes.len();
                if done % 10 == 0 {
                    progress(&format!("{done} games played"));
                }
                Flow::Go
            }
            Err(e) => {
                error.get_or_insert(e);
                Flow::Stop
            }
        },
    );
    if let Some(e) = error {
        return Err(e);
    }
    let board = board.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok((outcomes, board))
}

/// The result of one requirement from the games and benches played.
/// `not_run`: fail-fast stopped the check before it was decided. Otherwise
/// the measurements decide (a requirement decided early is judged the same
/// way on the games it saw).
fn judge(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    r: &NamedRequirement,
    outcomes: &[GameOutcome],
    bench: Option<&BenchSummary>,
    all_benches: &[Option<BenchSummary>],
    not_run: bool,
) -> RequirementResult {
    let mut details = vec![];
    let Measure {
        passed,
        measured,
        unit,
        bound,
        summary,
    } = match r.requirement {
        Requirement::NoVerdicts { against, games } => {
            no_verdicts(plan, outcomes, against, games, not_run, &mut details)
        }
        Requirement::WinRate {
            against,
            games,
            at_least,
        } => win_rate(plan, outcomes, against, games, at_least, not_run),
        Requirement::BenchAverage { at_most, .. } => {
            bench_average(plan, key, bench, at_most, &mut details)
        }
        Requirement::MaxMoveTime { below } => max_move_time(outcomes, all_benches, below),
        Requirement::CleanTables { games } => {
            clean_tables(plan, outcomes, games, not_run, &mut details)
        }
        Requirement::AverageRank { games, at_most } => {
            average_rank(plan, outcomes, games, at_most, not_run, &mut details)
        }
        Requirement::TableWins { games, at_least } => {
            table_wins(outcomes, games, at_least, not_run, &mut details)
        }
        Requirement::AheadOf {
            against,
            games,
            at_least,
            meetings,
        } => ahead_of(
            plan,
            outcomes,
            (against, games, meetings),
            at_least,
            not_run,
            &mut details,
        ),
    };
    // A requirement fail-fast left undecided is not run, whatever its
    // partial measurements say (a bench's or max-move-time's failure in what
    // was played is still a failure).
    let status = match (not_run, passed) {
        (false, true) => Status::Pass,
        (false, false) => Status::Fail,
        (true, false) if matches!(r.requirement, Requirement::MaxMoveTime { .. }) => Status::Fail,
        (true, _) => Status::NotRun,
    };
    let summary = if status == Status::NotRun {
        format!("not run (fail-fast); {summary}")
    } else {
        summary
    };
    let against_it = |o: &&GameOutcome| match r.requirement {
        Requirement::NoVerdicts { against, games } => {
            o.game.opponent == against && o.game.index < games && o.verdict != Verdict::Ok
        }
        Requirement::WinRate { against, games, .. } => {
            o.game.opponent == against && o.game.index < games && !o.won
        }
        Requirement::MaxMoveTime { below } => o.time_max_ms >= below.as_secs_f64() * 1000.0,
        Requirement::BenchAverage { .. } => false,
        Requirement::CleanTables { games } => {
            o.game.at_table() && o.game.index < games && o.verdict != Verdict::Ok
        }
        // A table ranked worse than the bound pulls the average over it.
        Requirement::AverageRank { games, at_most } => {
            o.game.at_table() && o.game.index < games && f64::from(o.rank) > at_most
        }
        Requirement::TableWins { games, .. } => o.game.at_table() && o.game.index < games && !o.won,
        Requirement::AheadOf { against, games, .. } => {
            o.game.index < games && o.ahead_of(against) == Some(false)
        }
    };
    let mut games: Vec<&GameOutcome> = outcomes.iter().filter(against_it).collect();
    games.sort_by_key(|o| (o.game.opponent, o.game.index));
    let games: Vec<String> = games
        .into_iter()
        .filter_map(|o| o.transcript.clone())
        .take(MAX_DETAILS)
        .collect();
    let more = details.len().saturating_sub(MAX_DETAILS);
    details.truncate(MAX_DETAILS);
    if more > 0 {
        details.push(format!("... and {more} more"));
    }
    RequirementResult {
        name: r.name.clone(),
        kind: r.requirement.kind().to_string(),
        passed: status == Status::Pass,
        status,
        measured,
        unit: unit.to_string(),
        bound,
        summary,
        details,
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_outcome(index: u32, verdict: Verdict, won: bool) -> GameOutcome {
        GameOutcome {
            game: CheckGame {
                opponent: 0,
                index,
                tested: Seat::A,
                seed: 1,
                references: vec![],
            },
            verdict,
            won,
            rank: if won { 1 } else { 2 },
            ahead: vec![],
            time_max_ms: 1.0,
            detail: None,
            transcript: None,
        }
    }

    #[test]
    fn wins_needed_follows_the_final_comparison() {
        assert_eq!(wins_needed(40, 25.0), 10);
        assert_eq!(wins_needed(10, 30.0), 3);
        assert_eq!(wins_needed(10, 0.0), 0);
        assert_eq!(wins_needed(10, 100.0), 10);
        assert_eq!(wins_needed(3, 33.4), 2);
    }

    #[test]
    fn requirements_are_decided_as_soon_as_the_games_allow() {
        let clean = Requirement::NoVerdicts {
            against: 0,
            games: 4,
        };
        let mut t = Tally::default();
        t.add(&clean, &game_outcome(0, Verdict::Ok, false));
        assert_eq!(t.decision(&clean, 2), Decision::Open);
        t.add(&clean, &game_outcome(1, Verdict::Timeout, false));
        assert_eq!(t.decision(&clean, 2), Decision::Fail, "the first verdict");
        // Games beyond the requirement's count are not its own.
        let mut t = Tally::default();
        for i in 0..4 {
            t.add(&clean, &game_outcome(i, Verdict::Ok, false));
        }
        t.add(&clean, &game_outcome(9, Verdict::Crash, false));
        assert_eq!(t.decision(&clean, 2), Decision::Pass);

        let rate = Requirement::WinRate {
            against: 0,
            games: 10,
            at_least: 30.0,
        };
        let mut t = Tally::default();
        for i in 0..3 {
            t.add(&rate, &game_outcome(i, Verdict::Ok, true));
        }
        assert_eq!(t.decision(&rate, 2), Decision::Pass, "3 wins of 10 are in");
        let mut t = Tally::default();
        for i in 0..8 {
            assert_eq!(t.decision(&rate, 2), Decision::Open, "after {i} losses");
            t.add(&rate, &game_outcome(i, Verdict::Ok, false));
        }
        assert_eq!(
            t.decision(&rate, 2),
            Decision::Fail,
            "8 losses of 10 leave 2"
        );
        t.add(&rate, &game_outcome(8, Verdict::Ok, true));
        assert_eq!(t.decision(&rate, 2), Decision::Fail, "a decision stays");
    }

    /// A table of 3 (seat A with references 0 and 1) where the bot
    /// finished at `rank`.
    fn table_outcome(index: u32, rank: u32) -> GameOutcome {
        GameOutcome {
            game: CheckGame {
                opponent: 0,
                index,
                tested: Seat::A,
                seed: 1,
                references: vec![0, 1],
            },
            verdict: Verdict::Ok,
            won: rank == 1,
            rank,
            ahead: vec![(0, rank < 2), (1, rank < 3)],
            time_max_ms: 1.0,
            detail: None,
            transcript: None,
        }
    }

    #[test]
    fn an_average_rank_is_decided_by_the_best_and_worst_tables_left() {
        let r = Requirement::AverageRank {
            games: 6,
            at_most: 2.0,
        };
        let mut t = Tally::default();
        // 6 tables of 3: a total of 12 at most. Three firsts leave at
        // most 3 + 3 * 3 = 12: passed whatever comes.
        for i in 0..2 {
            t.add(&r, &table_outcome(i, 1));
            assert_eq!(t.decision(&r, 3), Decision::Open);
        }
        t.add(&r, &table_outcome(2, 1));
        assert_eq!(t.decision(&r, 3), Decision::Pass);
        // Three lasts: 9 + 3 firsts = 12 still possible; a fourth last
        // is not.
        let mut t = Tally::default();
        for i in 0..3 {
            t.add(&r, &table_outcome(i, 3));
        }
        assert_eq!(t.decision(&r, 3), Decision::Open);
        t.add(&r, &table_outcome(3, 2));
        assert_eq!(t.decision(&r, 3), Decision::Fail);
        // A game of two is not a table: not counted.
        let mut t = Tally::default();
        t.add(&r, &game_outcome(0, Verdict::Ok, true));
        assert_eq!(t.played, 0);
        // Ahead of a reference counts the tables it sat at only.
        let ahead = Requirement::AheadOf {
            against: 1,
            games: 6,
            at_least: 50.0,
            meetings: 2,
        };
        let mut t = Tally::default();
        t.add(&ahead, &table_outcome(0, 2));
        assert_eq!(t.decision(&ahead, 3), Decision::Pass, "1 of 2 is 50%");
        let mut t = Tally::default();
        t.add(&ahead, &table_outcome(0, 3));
        t.add(&ahead, &table_outcome(1, 3));
        assert_eq!(t.decision(&ahead, 3), Decision::Fail);
    }
}
