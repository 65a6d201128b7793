//! The solver benchmark (`referee bench`): the referee is the codemaker and
//! plays one solo game per secret (every secret, a seeded sample, or one),
//! on worker threads, and sums up how many attacks the bot needed.
//!
//! A game takes part through its `secret_count` and `solo` functions; the
//! one place that lists them is [`solo_game`]. Each game is handed to the
//! reporters ([`crate::reporter`]) as it finishes, with its [`BenchRow`];
//! the [`BenchSummary`] comes at the end. Everything random derives from the run's secret key and the bench
//! seed ([`crate::key`]), so a run is reproducible with its key and
//! unpredictable without it: the sample of secrets, the order they are
//! played in (shuffled, so that a bot counting its games learns nothing of
//! the secret it faces), and each game's bot seed ([`bot_seed`]).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::Rng;

use crate::bot::BotCommand;
use crate::games::{arrow5, mastermind, safecracker, Game, GameConfig, NoSuchSecret, Seat};
use crate::key::{RefereeKey, RunKey};
use crate::match_plan::{MatchLimits, SoloPlan};
use crate::pool::{Flow, Pool};
use crate::record::MatchRecord;
use crate::reporter::{Finish, Place, ReportError, Reporter, Run};
use crate::runner::{play_solo, MatchError};
use crate::verdict::Verdict;

pub use crate::model::bench::{BenchRow, BenchSummary, Selection};

/// A validated benchmark: what `referee bench` runs.
#[derive(Clone, Debug)]
pub struct BenchPlan {
    pub config: GameConfig,
    pub bot: BotCommand,
    pub limits: MatchLimits,
    pub selection: Selection,
    pub seed: u64,
    /// The secret key everything random is drawn with.
    pub key: RunKey,
    /// Games played at once (each on its own thread, with its own bot process).
    pub jobs: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{game} has no solo form to benchmark; the games with one are: {}", BENCH_GAMES.join(", "))]
    NoSoloForm { game: String },
    #[error("{game} has {count} secrets, so --samples {asked} is too many; use --all to play every secret")]
    TooManySamples {
        game: &'static str,
        count: u64,
        asked: u64,
    },
    #[error("--samples must be at least 1")]
    NoSamples,
    #[error("{game} has {count} secrets here, more than a bench plays ({MAX_GAMES} at most); use --samples K")]
    TooManySecrets { game: &'static str, count: u64 },
    #[error("--secret {index} is out of range: {game} has secrets 0 to {}", count - 1)]
    NoSuchSecret {
        game: &'static str,
        index: u64,
        count: u64,
    },
    #[error("--jobs must be at least 1")]
    NoJobs,
    #[error(transparent)]
    Match(#[from] MatchError),
    /// An output could not be written (the CSV file).
    #[error(transparent)]
    Report(#[from] ReportError),
}

impl From<NoSuchSecret> for BenchError {
    fn from(e: NoSuchSecret) -> BenchError {
        let NoSuchSecret { game, index, count } = e;
        BenchError::NoSuchSecret { game, index, count }
    }
}

/// The most games one bench plays (their list is kept in memory).
pub const MAX_GAMES: u64 = 10_000_000;

/// The games `referee bench` can run.
pub const BENCH_GAMES: &[&str] = &["arrow5", "mastermind", "safecracker"];

type PlayFn = dyn Fn(u64, &SoloPlan, Option<&PathBuf>) -> Result<(MatchRecord, String), BenchError>
    + Send
    + Sync;

/// A game's solo form, for any game: how many secrets, and how to play the
/// game of one secret (index, bot seed in the plan's game).
pub struct SoloGame {
    pub count: u64,
    play: Box<PlayFn>,
}

impl SoloGame {
    fn new<G, F>(count: u64, make: F) -> SoloGame
    where
        G: Game,
        F: Fn(u64, u64) -> Result<G, NoSuchSecret> + Send + Sync + 'static,
    {
        SoloGame {
            count,
            play: Box::new(move |index, plan, transcript| {
                let game = make(index, bot_seed(&plan.key.key, plan.seed, index));
                let (record, game) = play_solo(game?, plan, transcript)?;
                Ok((record, game.held_secret().unwrap_or_default()))
            }),
        }
    }
}

/// The one place that lists the games with a solo form: adding a game to the
/// bench is one arm here.
pub fn solo_game(config: &GameConfig) -> Result<SoloGame, BenchError> {
    Ok(match config {
        GameConfig::Arrow5(c) => {
            let c = c.clone();
            SoloGame::new(arrow5::secret_count(&c), move |i, s| arrow5::solo(&c, i, s))
        }
        GameConfig::Mastermind(c) => {
            let c = c.clone();
            SoloGame::new(mastermind::secret_count(&c), move |i, s| {
                mastermind::solo(&c, i, s)
            })
        }
        GameConfig::Safecracker(c) => {
            let c = c.clone();
            SoloGame::new(safecracker::secret_count(&c), move |i, s| {
                safecracker::solo(&c, i, s)
            })
        }
        GameConfig::Cryptron(_) => {
            return Err(BenchError::NoSoloForm {
                game: "cryptron".into(),
            })
        }
        GameConfig::Judge(c) => {
            return Err(BenchError::NoSoloForm {
                game: c.name.clone(),
            })
        }
    })
}

/// The bot seed of the game of secret `index` in a bench seeded `seed`: the
/// same for every run with the same key, whatever the selection or the
/// number of jobs; unrelated to the secret without the key.
pub fn bot_seed(key: &RefereeKey, seed: u64, index: u64) -> u64 {
    u64::from(key.rng(bench_stream(seed, index)).gen::<u32>())
}

/// The key's stream for secret `index` of a bench seeded `seed`
/// (`u64::MAX`: the bench's own draws, the sample and the order).
fn bench_stream(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.rotate_left(32) ^ 0xB5AD_4ECE_DA1C_E2A9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The secret indices a selection plays, in the order they are played: a
/// shuffle drawn with the key, so that the order of games tells a bot
/// nothing about which secret it faces.
pub fn plan_secrets(
    selection: Selection,
    count: u64,
    seed: u64,
    key: &RefereeKey,
    game: &'static str,
) -> Result<Vec<u64>, BenchError> {
    let mut rng = key.rng(bench_stream(seed, u64::MAX));
    let mut secrets = pick_secrets(selection, count, &mut rng, game)?;
    secrets.shuffle(&mut rng);
    Ok(secrets)
}

fn pick_secrets(
    selection: Selection,
    count: u64,
    rng: &mut impl Rng,
    game: &'static str,
) -> Result<Vec<u64>, BenchError> {
    match selection {
        Selection::All if count > MAX_GAMES => Err(BenchError::TooManySecrets { game, count }),
        Selection::All => Ok((0..count).collect()),
        Selection::One(index) if index < count => Ok(vec![index]),
        Selection::One(index) => Err(BenchError::NoSuchSecret { game, index, count }),
        Selection::Sample(0) => Err(BenchError::NoSamples),
        Selection::Sample(k) if k > count => Err(BenchError::TooManySamples {
            game,
            count,
            asked: k,
        }),
        Selection::Sample(k) if k > MAX_GAMES => Err(BenchError::TooManySecrets { game, count: k }),
        Selection::Sample(k) => Ok(rand::seq::index::sample(rng, count as usize, k as usize)
            .into_iter()
            .map(|i| i as u64)
            .collect()),
    }
}

/// Checks a plan without playing: the game has a solo form, the selection
/// fits it, there is at least one job. Returns the secrets to play.
pub fn check(plan: &BenchPlan) -> Result<Vec<u64>, BenchError> {
    if plan.jobs == 0 {
        return Err(BenchError::NoJobs);
    }
    let solo = solo_game(&plan.config)?;
    plan_secrets(
        plan.selection,
        solo.count,
        plan.seed,
        &plan.key.key,
        plan.config.canonical().game,
    )
}

/// Runs the benchmark, telling `reporters` each game in the order games
/// finish, then the summary. A transcript is written only for a
/// single-secret run. A reporter that cannot write does not stop the games;
/// its failure is returned at the end, instead of the summary.
pub fn run(
    plan: &BenchPlan,
    transcript: Option<&PathBuf>,
    reporters: &mut dyn Reporter,
) -> Result<BenchSummary, BenchError> {
    let start = Instant::now();
    let secrets = check(plan)?;
    let solo = solo_game(&plan.config)?;
    let transcript = match plan.selection {
        Selection::One(_) => transcript,
        Selection::All | Selection::Sample(_) => None,
    };
    let total = secrets.len();
    let jobs = plan.jobs.min(total).max(1);
    let mut rows: Vec<BenchRow> = Vec::with_capacity(total);
    let mut error: Option<BenchError> = None;
    let mut report_error: Option<ReportError> = None;
    if let Err(e) = reporters.run_started(&Run::Bench {
        selection: plan.selection,
        total: total as u64,
    }) {
        report_error.get_or_insert(e);
    }
    let mut queue = secrets.iter().copied();
    Pool { jobs, pin: None }.run(
        || queue.next(),
        |index: u64| {
            let solo_plan = SoloPlan {
                config: plan.config.clone(),
                seed: plan.seed,
                key: plan.key.clone(),
                secret_index: index,
                bot: plan.bot.clone(),
                limits: plan.limits.clone(),
            };
            (solo.play)(index, &solo_plan, transcript)
                .map(|(record, secret)| (row(plan, index, &record, secret), record))
        },
        |result| match result {
            Ok((row, record)) => {
                let place = Place::Bench {
                    row: &row,
                    done: rows.len() as u64 + 1,
                    total: total as u64,
                };
                if let Err(e) = reporters.game_finished(&record, &place) {
                    report_error.get_or_insert(e);
                }
                rows.push(row);
                Flow::Go
            }
            Err(e) => {
                // The referee's own failure (a transcript it cannot
                // write): stop handing out games.
                error.get_or_insert(e);
                Flow::Stop
            }
        },
    );
    if let Some(e) = error {
        return Err(e);
    }
    if let Some(e) = report_error {
        return Err(e.into());
    }
    let summary = summarize(plan, solo.count, jobs, rows, start.elapsed());
    reporters.run_finished(&Finish::Bench(&summary))?;
    Ok(summary)
}

fn row(plan: &BenchPlan, index: u64, record: &MatchRecord, secret: String) -> BenchRow {
    let p = record.player(Seat::A);
    BenchRow {
        secret_index: index,
        secret,
        attacks: p.attacks,
        cracked: p.verdict == Verdict::Ok && record.reason == "cracked",
        verdict: p.verdict,
        reason: record.reason.clone(),
        detail: p
            .disqualification
            .as_ref()
            .map(|d| d.detail.clone())
            .unwrap_or_default(),
        bot_seed: bot_seed(&plan.key.key, plan.seed, index),
        time_total_ms: p.time_total_ms,
        time_max_ms: p.time_max_ms,
        replies: p.replies,
        cpu_total_ms: p.cpu_total_ms,
        peak_memory_kb: p.peak_memory_kb,
    }
}

fn summarize(
    plan: &BenchPlan,
    secret_count: u64,
    jobs: usize,
    mut rows: Vec<BenchRow>,
    elapsed: Duration,
) -> BenchSummary {
    rows.sort_by_key(|r| r.secret_index);
    let mut histogram = BTreeMap::new();
    let (mut cracked, mut total_attacks, mut largest) = (0u64, 0u64, 0u32);
    let (mut time_max_ms, mut time_sum_ms, mut replies) = (0f64, 0f64, 0u64);
    let mut failures = vec![];
    for r in &rows {
        time_max_ms = time_max_ms.max(r.time_max_ms);
        time_sum_ms += r.time_total_ms;
        replies += u64::from(r.replies);
        if r.cracked {
            cracked += 1;
            total_attacks += u64::from(r.attacks);
            largest = largest.max(r.attacks);
            *histogram.entry(r.attacks).or_insert(0) += 1;
        } else {
            failures.push(r.clone());
        }
    }
    BenchSummary {
        game: plan.config.canonical().game,
        variant: plan.config.variant_name(),
        bot: plan.bot.name.clone(),
        seed: plan.seed,
        selection: plan.selection,
        secret_count,
        jobs,
        games: rows.len() as u64,
        cracked,
        total_attacks,
        average: if cracked == 0 {
            0.0
        } else {
            total_attacks as f64 / cracked as f64
        },
        largest,
        histogram,
        failures,
        time_max_ms,
        time_mean_ms: if replies == 0 {
            0.0
        } else {
            time_sum_ms / replies as f64
        },
        elapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> RefereeKey {
        RefereeKey::from_hex(&"5a".repeat(32)).unwrap()
    }

    fn sorted(mut v: Vec<u64>) -> Vec<u64> {
        v.sort_unstable();
        v
    }

    #[test]
    fn samples_are_distinct_and_reproducible_with_the_key() {
        let k = key();
        let a = plan_secrets(Selection::Sample(100), 1296, 7, &k, "mastermind").unwrap();
        let b = plan_secrets(Selection::Sample(100), 1296, 7, &k, "mastermind").unwrap();
        let c = plan_secrets(Selection::Sample(100), 1296, 8, &k, "mastermind").unwrap();
        let other = RefereeKey::generate().unwrap();
        let d = plan_secrets(Selection::Sample(100), 1296, 7, &other, "mastermind").unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d, "another key draws another sample from the same seed");
        assert_eq!(a.len(), 100);
        let distinct = sorted(a.clone());
        assert!(distinct.windows(2).all(|w| w[0] < w[1]));
        assert!(a.iter().all(|&i| i < 1296));
        let all = plan_secrets(Selection::Sample(1296), 1296, 7, &k, "mastermind").unwrap();
        assert_eq!(sorted(all), (0..1296).collect::<Vec<_>>());
    }

    #[test]
    fn every_secret_is_played_once_in_an_order_the_key_shuffles() {
        let k = key();
        let all = plan_secrets(Selection::All, 1296, 1, &k, "mastermind").unwrap();
        assert_eq!(sorted(all.clone()), (0..1296).collect::<Vec<_>>());
        // Not the enumeration order: a bot counting its games learns nothing.
        let in_place = all
            .iter()
            .enumerate()
            .filter(|&(i, &s)| i as u64 == s)
            .count();
        assert!(in_place < 20, "{in_place} secrets at their own position");
        let other = plan_secrets(
            Selection::All,
            1296,
            1,
            &RefereeKey::generate().unwrap(),
            "mastermind",
        )
        .unwrap();
        assert_ne!(all, other);
    }

    #[test]
    fn bad_selections_say_what_to_do() {
        let k = key();
        let err = plan_secrets(Selection::Sample(0), 1296, 1, &k, "mastermind").unwrap_err();
        assert!(err.to_string().contains("at least 1"));
        let err = plan_secrets(Selection::Sample(2000), 1296, 1, &k, "mastermind").unwrap_err();
        assert!(err.to_string().contains("use --all"), "{err}");
        let err = plan_secrets(Selection::All, 36u64.pow(12), 1, &k, "mastermind").unwrap_err();
        assert!(err.to_string().contains("use --samples"), "{err}");
        let huge = plan_secrets(Selection::Sample(3), 36u64.pow(12), 1, &k, "mastermind").unwrap();
        assert_eq!(huge.len(), 3);
        let err = plan_secrets(Selection::One(1296), 1296, 1, &k, "mastermind").unwrap_err();
        assert!(err.to_string().contains("0 to 1295"), "{err}");
    }

    #[test]
    fn bot_seeds_depend_on_key_seed_and_secret() {
        let k = key();
        assert_eq!(bot_seed(&k, 1, 5), bot_seed(&k, 1, 5));
        assert_ne!(bot_seed(&k, 1, 5), bot_seed(&k, 1, 6));
        assert_ne!(bot_seed(&k, 1, 5), bot_seed(&k, 2, 5));
        let other = RefereeKey::generate().unwrap();
        assert_ne!(bot_seed(&k, 1, 5), bot_seed(&other, 1, 5));
        assert!(bot_seed(&k, 3, 9) <= u64::from(u32::MAX));
    }

    #[test]
    fn every_game_with_a_solo_form_counts_its_secrets() {
        use crate::games::GameOptions;
        for name in BENCH_GAMES {
            let config = GameConfig::from_options(name, &GameOptions::default()).unwrap();
            let solo = solo_game(&config).unwrap();
            let expected = match *name {
                "arrow5" => 55_440,
                "mastermind" => 1296,
                "safecracker" => 27,
                _ => unreachable!(),
            };
            assert_eq!(solo.count, expected);
        }
    }
}
