//! From game rows to standings, ratings and the crosstable. Only integers are
//! summed (points, half-points, microseconds), so the result does not depend
//! on the order of the rows: merged shards give the same bytes as one run.
//!
//! Ranking ([`Ranking`]): match points (a gauntlet: the bots under test
//! first, then the challengers, each by score rate; a knockout: the round
//! reached first), then rating, then fewer disqualifications, then name.
//! Rating: Bradley-Terry by maximum likelihood (Hunter's MM algorithm), draws
//! counting half a win to each side, with a prior of one virtual draw per bot
//! against a bot of rating 0 (so a perfect score stays finite). Shown on the
//! Elo scale (400 log10), centred so the mean rating is 0. The 95% interval is
//! ±1.96 standard errors of the centred rating, from the inverse of the
//! observed information (the prior's included): the common offset of all
//! ratings, which only the prior pins down, is left out, so the interval
//! narrows as games add up.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::games::{Seat, Winner};
use crate::verdict::Verdict;

/// Why a `games.csv` row cannot be counted: the game, and what does not
/// fit (a folder's reader says which file and line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    /// The row does not read as one (the CSV reader's words).
    #[error("{0}")]
    Unreadable(String),
    /// An older row's `winner` that names neither of its bots.
    #[error("game {game}: the winner '{winner}' is neither '{bot_a}' nor '{bot_b}'")]
    Winner {
        game: u64,
        winner: String,
        bot_a: String,
        bot_b: String,
    },
    /// A bot the standings or the tournament do not have.
    #[error("game {game}: {known} '{bot}'")]
    UnknownBot {
        game: u64,
        bot: String,
        /// How the reader knows its bots (`unknown bot`, `no bot of this
        /// tournament is named`).
        known: &'static str,
    },
    /// A game a shard holds otherwise than another (bots or seed).
    #[error("game {game} differs from the same game in another folder")]
    Differs { game: u64 },
}

/// Match points per result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// One row of `games.csv`: one serde shape for CSV and JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub game: u64,
    pub seed: u64,
    pub bot_a: String,
    pub bot_b: String,
    /// The bot that moved first, as the game decided (Safe Cracker's
    /// `first = "b"` or coin toss).
    pub first: String,
    /// Who won: `a` (bot_a), `b` (bot_b) or `draw`, apart from the names so
    /// that any name is a name. Empty in rows of referees that did not write
    /// it: read from `winner` then ([`GameRow::outcome`]).
    #[serde(default)]
    pub result: Option<Winner>,
    /// The winner's name; empty for a draw.
    pub winner: String,
    pub reason: String,
    pub attacks_a: u32,
    pub attacks_b: u32,
    pub verdict_a: Verdict,
    pub verdict_b: Verdict,
    pub replies_a: u32,
    pub replies_b: u32,
    pub time_total_ms_a: f64,
    pub time_max_ms_a: f64,
    pub time_total_ms_b: f64,
    pub time_max_ms_b: f64,
    pub cpu_ms_a: f64,
    pub cpu_ms_b: f64,
    /// The most CPU time one reply took (0 in rows written before it was kept).
    #[serde(default)]
    pub cpu_max_ms_a: f64,
    #[serde(default)]
    pub cpu_max_ms_b: f64,
    pub peak_memory_kb_a: u64,
    pub peak_memory_kb_b: u64,
    /// What disqualified a bot, if one was.
    pub detail: String,
}

impl GameRow {
    /// The columns of `games.csv`, as this referee writes them.
    pub fn columns() -> csv::StringRecord {
        let blank = GameRow {
            result: Some(Winner::Draw),
            ..GameRow::default()
        };
        // Written through serde, as the rows are, so the two cannot differ.
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer
            .serialize(&blank)
            .expect("a row serializes into memory");
        let bytes = writer.into_inner().expect("writing to memory cannot fail");
        csv::Reader::from_reader(bytes.as_slice())
            .headers()
            .expect("the header just written reads back")
            .clone()
    }

    /// Who won. Rows written before the `result` column wrote the winner's
    /// name or the word `draw` in `winner`: read those as they were meant.
    pub fn outcome(&self) -> Result<Winner, RowError> {
        if let Some(result) = self.result {
            return Ok(result);
        }
        match self.winner.as_str() {
            "draw" => Ok(Winner::Draw),
            w if w == self.bot_a => Ok(Winner::A),
            w if w == self.bot_b => Ok(Winner::B),
            w => Err(RowError::Winner {
                game: self.game,
                winner: w.to_string(),
                bot_a: self.bot_a.clone(),
                bot_b: self.bot_b.clone(),
            }),
        }
    }

    /// The row in this referee's columns: `result` filled in (from an older
    /// row's `winner`), `winner` empty for a draw.
    pub fn upgraded(mut self) -> Result<GameRow, RowError> {
        let outcome = self.outcome()?;
        self.result = Some(outcome);
        if outcome == Winner::Draw {
            self.winner.clear();
        }
        Ok(self)
    }

    fn side(&self, a: bool) -> Side {
        if a {
            Side {
                attacks: self.attacks_a,
                verdict: self.verdict_a,
                replies: self.replies_a,
                time_total_ms: self.time_total_ms_a,
                time_max_ms: self.time_max_ms_a,
                cpu_max_ms: self.cpu_max_ms_a,
                peak_memory_kb: self.peak_memory_kb_a,
            }
        } else {
            Side {
                attacks: self.attacks_b,
                verdict: self.verdict_b,
                replies: self.replies_b,
                time_total_ms: self.time_total_ms_b,
                time_max_ms: self.time_max_ms_b,
                cpu_max_ms: self.cpu_max_ms_b,
                peak_memory_kb: self.peak_memory_kb_b,
            }
        }
    }
}

struct Side {
    attacks: u32,
    verdict: Verdict,
    replies: u32,
    time_total_ms: f64,
    time_max_ms: f64,
    cpu_max_ms: f64,
    peak_memory_kb: u64,
}

/// A row of `standings.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    pub rank: usize,
    pub bot: String,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: u32,
    pub dq_timeout: u32,
    pub dq_crash: u32,
    pub dq_illegal: u32,
    pub dq_protocol: u32,
    pub dq_memory: u32,
    pub dq_output: u32,
    /// C or C++ sources that did not compile (the bot loses each game).
    pub dq_compile: u32,
    /// Attacks in the games this bot won by cracking (empty if none).
    pub avg_attacks_to_crack: Option<f64>,
    pub rating: f64,
    pub rating_low: f64,
    pub rating_high: f64,
}

impl StandingRow {
    /// Games this bot lost by `verdict` (0 for `ok`).
    pub fn dq(&self, verdict: Verdict) -> u32 {
        match verdict {
            Verdict::Ok => 0,
            Verdict::Timeout => self.dq_timeout,
            Verdict::Crash => self.dq_crash,
            Verdict::Illegal => self.dq_illegal,
            Verdict::Protocol => self.dq_protocol,
            Verdict::Memory => self.dq_memory,
            Verdict::Output => self.dq_output,
            Verdict::Compile => self.dq_compile,
        }
    }

    /// Games this bot lost by a verdict, of every kind.
    pub fn disqualifications(&self) -> u32 {
        Verdict::ALL.iter().map(|&v| self.dq(v)).sum()
    }
}

/// A row of `timings.csv`: what was measured of a bot, apart from the
/// standings so that the same games give byte-identical standings on any
/// machine and in any number of shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimingRow {
    pub bot: String,
    pub replies: u64,
    pub avg_move_ms: f64,
    pub max_move_ms: f64,
    /// The most CPU time one move took: far below `max_move_ms`, the
    /// slowest move was spent waiting (or the machine was overloaded).
    pub max_move_cpu_ms: f64,
    pub peak_memory_kb: u64,
}

#[derive(Default, Clone)]
struct Tally {
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    points: u32,
    disqualifications: BTreeMap<Verdict, u32>,
    cracks: u32,
    crack_attacks: u64,
    replies: u64,
    time_total_us: u64,
    max_move_ms: f64,
    max_move_cpu_ms: f64,
    peak_memory_kb: u64,
}

/// What orders the standings before the rating.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Ranking {
    /// Match points.
    #[default]
    Points,
    /// A gauntlet: the bots under test first, then the challengers (who
    /// play every bot under test, so many more games), each part by score
    /// rate (points per game), then points.
    Gauntlet { challengers: BTreeSet<String> },
    /// A knockout (after its groups): the round each bot reached (the
    /// champion's highest, then the finalist's, ...; a bot knocked out in
    /// its group 0, a bot not named 0), then match points.
    Knockout { reached: BTreeMap<String, u32> },
}

impl Ranking {
    /// What orders the standings, said where they are shown; `None` for
    /// match points (the usual order).
    pub fn describe(&self) -> Option<&'static str> {
        match self {
            Ranking::Points => None,
            Ranking::Gauntlet { .. } => Some(
                "Gauntlet: the bots under test rank first, then the challengers (who play every one of them, so many more games); each by score rate (points per game), then rating.",
            ),
            Ranking::Knockout { .. } => Some(
                "Knockout: ranked by the round reached (the champion, the finalist, the losing semi-finalists, ...), then points, then rating.",
            ),
        }
    }

    /// The order of `x` and `y` by this ranking (before the rating).
    fn compare(&self, x: &StandingRow, y: &StandingRow) -> std::cmp::Ordering {
        match self {
            Ranking::Points => y.points.cmp(&x.points),
            Ranking::Gauntlet { challengers } => {
                let challenger = |r: &StandingRow| challengers.contains(&r.bot);
                // x.points / x.played against y's, in integers (exact); a
                // bot without games scores 0 of 1.
                let rate = |r: &StandingRow| (u64::from(r.points), u64::from(r.played.max(1)));
                let ((px, gx), (py, gy)) = (rate(x), rate(y));
                challenger(x)
                    .cmp(&challenger(y))
                    .then((py * gx).cmp(&(px * gy)))
                    .then(y.points.cmp(&x.points))
            }
            Ranking::Knockout { reached } => {
                let round = |r: &StandingRow| reached.get(&r.bot).copied().unwrap_or(0);
                round(y).cmp(&round(x)).then(y.points.cmp(&x.points))
            }
        }
    }
}

/// Running totals over game rows; memory grows with bots², not games.
pub struct Standings {
    names: Vec<String>,
    index: BTreeMap<String, usize>,
    scoring: Scoring,
    tallies: Vec<Tally>,
    /// score[i][j]: wins of i over j counted 1, draws 0.5; games[i][j] (= games[j][i])
    /// the games they played.
    score: Vec<Vec<f64>>,
    games: Vec<Vec<u32>>,
    /// The ratings of the games added so far, computed once when first
    /// asked (the standings, the crosstable's order and the report all ask;
    /// for a 1,000-bot league that is most of a merge's time) and forgotten
    /// when a game is added.
    ratings: std::sync::OnceLock<Vec<(f64, f64)>>,
    ranking: Ranking,
}

impl Standings {
    pub fn new(names: &[String], scoring: Scoring) -> Standings {
        let n = names.len();
        Standings {
            names: names.to_vec(),
            index: names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect(),
            scoring,
            tallies: vec![Tally::default(); n],
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
            ratings: std::sync::OnceLock::new(),
            ranking: Ranking::Points,
        }
    }

    /// Orders the standings by `ranking` (match points until told).
    pub fn rank_by(&mut self, ranking: Ranking) {
        self.ranking = ranking;
    }

    pub fn ranking(&self) -> &Ranking {
        &self.ranking
    }

    /// Bradley-Terry ratings with their standard errors, in the plan's order.
    fn ratings(&self) -> &[(f64, f64)] {
        self.ratings
            .get_or_init(|| bradley_terry(&self.score, &self.games, 1.0))
    }

    /// Adds a game. Rows naming unknown bots are refused.
    pub fn add(&mut self, row: &GameRow) -> Result<(), RowError> {
        self.ratings = std::sync::OnceLock::new();
        let index = |bot: &String| {
            self.index
                .get(bot)
                .copied()
                .ok_or_else(|| RowError::UnknownBot {
                    game: row.game,
                    bot: bot.clone(),
                    known: "unknown bot",
                })
        };
        let (a, b) = (index(&row.bot_a)?, index(&row.bot_b)?);
        let outcome = row.outcome()?;
        for (me, other, seat) in [(a, b, Seat::A), (b, a, Seat::B)] {
            let side = row.side(seat == Seat::A);
            let t = &mut self.tallies[me];
            t.played += 1;
            if outcome == Winner::Draw {
                t.draws += 1;
                t.points += self.scoring.draw;
                self.score[me][other] += 0.5;
            } else if outcome == Winner::seat(seat) {
                t.wins += 1;
                t.points += self.scoring.win;
                self.score[me][other] += 1.0;
            } else {
                t.losses += 1;
                t.points += self.scoring.loss;
            }
            self.games[me][other] += 1;
            if side.verdict.is_disqualification() {
                *t.disqualifications.entry(side.verdict).or_default() += 1;
            }
            let cracked = (row.reason == "cracked" && outcome == Winner::seat(seat))
                || row.reason == "both-cracked";
            if cracked {
                t.cracks += 1;
                t.crack_attacks += u64::from(side.attacks);
            }
            t.replies += u64::from(side.replies);
            t.time_total_us += (side.time_total_ms * 1000.0).round() as u64;
            t.max_move_ms = t.max_move_ms.max(side.time_max_ms);
            t.max_move_cpu_ms = t.max_move_cpu_ms.max(side.cpu_max_ms);
            t.peak_memory_kb = t.peak_memory_kb.max(side.peak_memory_kb);
        }
        Ok(())
    }

    pub fn games_counted(&self) -> u32 {
        self.tallies.iter().map(|t| t.played).sum::<u32>() / 2
    }

    /// The standings, ranked.
    pub fn rows(&self) -> Vec<StandingRow> {
        let ratings = self.ratings();
        let mut rows: Vec<StandingRow> = self
            .tallies
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let dq = |v: Verdict| t.disqualifications.get(&v).copied().unwrap_or(0);
                let (rating, se) = ratings[i];
                StandingRow {
                    rank: 0,
                    bot: self.names[i].clone(),
                    played: t.played,
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    points: t.points,
                    dq_timeout: dq(Verdict::Timeout),
                    dq_crash: dq(Verdict::Crash),
                    dq_illegal: dq(Verdict::Illegal),
                    dq_protocol: dq(Verdict::Protocol),
                    dq_memory: dq(Verdict::Memory),
                    dq_output: dq(Verdict::Output),
                    dq_compile: dq(Verdict::Compile),
                    avg_attacks_to_crack: (t.cracks > 0)
                        .then(|| round(t.crack_attacks as f64 / t.cracks as f64, 3)),
                    rating: round(rating, 1),
                    rating_low: round(rating - 1.96 * se, 1),
                    rating_high: round(rating + 1.96 * se, 1),
                }
            })
            .collect();
        rows.sort_by(|x, y| {
            self.ranking
                .compare(x, y)
                .then(y.rating.total_cmp(&x.rating))
                .then(x.disqualifications().cmp(&y.disqualifications()))
                .then(x.bot.cmp(&y.bot))
        });
        for (i, row) in rows.iter_mut().enumerate() {
            row.rank = i + 1;
        }
        rows
    }

    /// Measured times and memory per bot, in the plan's order.
    pub fn timings(&self) -> Vec<TimingRow> {
        self.tallies
            .iter()
            .zip(&self.names)
            .map(|(t, name)| TimingRow {
                bot: name.clone(),
                replies: t.replies,
                avg_move_ms: if t.replies > 0 {
                    round(t.time_total_us as f64 / 1000.0 / t.replies as f64, 3)
                } else {
                    0.0
                },
                max_move_ms: round(t.max_move_ms, 3),
                max_move_cpu_ms: round(t.max_move_cpu_ms, 3),
                peak_memory_kb: t.peak_memory_kb,
            })
            .collect()
    }

    /// The crosstable: each cell is the row bot's score against the column
    /// bot (wins + half the draws) over the games they played, e.g. `2.5/4`.
    pub fn crosstable(&self) -> Vec<Vec<String>> {
        let order: Vec<usize> = self.rows().iter().map(|r| self.index[&r.bot]).collect();
        let mut table = vec![std::iter::once("bot".to_string())
            .chain(order.iter().map(|&j| self.names[j].clone()))
            .collect::<Vec<_>>()];
        for &i in &order {
            let mut line = vec![self.names[i].clone()];
            for &j in &order {
                line.push(if i == j || self.games[i][j] == 0 {
                    "-".to_string()
                } else {
                    format!("{}/{}", self.score[i][j], self.games[i][j])
                });
            }
            table.push(line);
        }
        table
    }
}

/// `x` to `places` decimals; never -0 (a rating of -0.04 is 0, not -0.0).
pub fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale + 0.0
}

/// Bradley-Terry ratings on the Elo scale with standard errors.
///
/// `score[i][j]` is what i scored against j (wins 1, draws 0.5) over the
/// `games[i][j]` games they played (symmetric). `prior` virtual draws against a fixed opponent of
/// strength 1 (rating 0) keep every estimate finite; 0 disables it.
pub fn bradley_terry(score: &[Vec<f64>], games: &[Vec<u32>], prior: f64) -> Vec<(f64, f64)> {
    let n = score.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut max_change: f64 = 0.0;
        for i in 0..n {
            let wins: f64 = score[i].iter().sum::<f64>() + prior * 0.5;
            let mut denominator = prior / (gamma[i] + 1.0);
            for j in 0..n {
                let g = games[i][j];
                if i != j && g > 0 {
                    denominator += f64::from(g) / (gamma[i] + gamma[j]);
                }
            }
            if denominator > 0.0 && wins > 0.0 {
                let updated = wins / denominator;
                max_change = max_change.max((updated / gamma[i]).ln().abs());
                gamma[i] = updated;
            }
        }
        if max_change < 1e-10 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let thetas: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    let mean = thetas.iter().sum::<f64>() / n.max(1) as f64;
    // Observed information of the thetas (the Hessian of minus the log
    // likelihood, the prior's virtual games included): each game adds
    // p(1-p) to both bots' diagonal entries and takes it from theirs.
    let mut information = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        information[i][i] = prior * gamma[i] / (gamma[i] + 1.0).powi(2);
        for j in 0..n {
            let g = games[i][j];
            if i != j && g > 0 {
                let p = gamma[i] / (gamma[i] + gamma[j]);
                let w = f64::from(g) * p * (1.0 - p);
                information[i][i] += w;
                information[i][j] -= w;
            }
        }
    }
    // Without a prior the information is singular (only differences of
    // ratings are known): no interval then.
    let variances = centred_variances(&information).unwrap_or_else(|| vec![f64::INFINITY; n]);
    (0..n)
        .map(|i| {
            let se = variances[i].sqrt();
            ((thetas[i] - mean) * scale, se * scale)
        })
        .collect()
}

/// The variances of the centred ratings `θᵢ - mean(θ)` when `m` is the
/// information of the θ (their covariance is Σ = m⁻¹): the ratings are
/// shown centred, and the common offset of all of them, which only the
/// prior's few virtual games pin down, is no part of any of them. With
/// r = Σ 1 and t = 1ᵀ Σ 1: Var(θᵢ - mean) = Σᵢᵢ - 2 rᵢ / n + t / n².
/// `None` if `m` is not positive definite.
fn centred_variances(m: &[Vec<f64>]) -> Option<Vec<f64>> {
    let n = m.len();
    let (l, diagonal) = inverse_diagonal(m)?;
    // r = m⁻¹ 1: L y = 1, then Lᵀ r = y.
    let mut y = vec![0.0f64; n];
    for i in 0..n {
        let dot: f64 = l[i][..i].iter().zip(&y[..i]).map(|(a, b)| a * b).sum();
        y[i] = (1.0 - dot) / l[i][i];
    }
    let mut r = vec![0.0f64; n];
    for i in (0..n).rev() {
        let dot: f64 = (i + 1..n).map(|k| l[k][i] * r[k]).sum();
        r[i] = (y[i] - dot) / l[i][i];
    }
    let size = n as f64;
    let t: f64 = r.iter().sum();
    Some(
        diagonal
            .iter()
            .zip(&r)
            // Round-off must not make a variance negative.
            .map(|(d, ri)| (d - 2.0 * ri / size + t / (size * size)).max(0.0))
            .collect(),
    )
}

/// The Cholesky factor L of `m`, symmetric positive definite (m = L Lᵀ),
/// and the diagonal of m's inverse (m⁻¹ = L⁻ᵀ L⁻¹, so its i-th diagonal
/// entry is the squared length of column i of L⁻¹); `None` if `m` is not
/// positive definite.
fn inverse_diagonal(m: &[Vec<f64>]) -> Option<(Vec<Vec<f64>>, Vec<f64>)> {
    let n = m.len();
    let mut l = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = l[i][..j].iter().zip(&l[j][..j]).map(|(a, b)| a * b).sum();
            let rest = m[i][j] - dot;
            if i == j {
                // Round-off leaves a singular matrix's pivot a hair above 0.
                if rest <= 1e-12 * m[i][i].abs() || !rest.is_finite() {
                    return None;
                }
                l[i][i] = rest.sqrt();
            } else {
                l[i][j] = rest / l[j][j];
            }
        }
    }
    let mut column = vec![0.0f64; n];
    let diagonal = (0..n)
        .map(|i| {
            // Column i of L⁻¹: L x = e_i, so x is 0 above row i.
            column[i] = 1.0 / l[i][i];
            for k in i + 1..n {
                let dot: f64 = l[k][i..k]
                    .iter()
                    .zip(&column[i..k])
                    .map(|(a, b)| a * b)
                    .sum();
                column[k] = -dot / l[k][k];
            }
            column[i..].iter().map(|x| x * x).sum()
        })
        .collect();
    Some((l, diagonal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, a: &str, b: &str, winner: &str) -> GameRow {
        GameRow {
            game,
            seed: 0,
            bot_a: a.into(),
            bot_b: b.into(),
            first: a.into(),
            result: Some(match winner {
                "draw" => Winner::Draw,
                w if w == a => Winner::A,
                _ => Winner::B,
            }),
            winner: if winner == "draw" { "" } else { winner }.into(),
            reason: if winner == "draw" {
                "both-cracked".into()
            } else {
                "cracked".into()
            },
            attacks_a: 6,
            attacks_b: 7,
            verdict_a: Verdict::Ok,
            verdict_b: Verdict::Ok,
            replies_a: 7,
            replies_b: 8,
            time_total_ms_a: 7.0,
            time_max_ms_a: 2.0,
            time_total_ms_b: 8.0,
            time_max_ms_b: 3.0,
            cpu_ms_a: 1.0,
            cpu_ms_b: 1.0,
            cpu_max_ms_a: 0.5,
            cpu_max_ms_b: 0.25,
            peak_memory_kb_a: 100,
            peak_memory_kb_b: 200,
            detail: String::new(),
        }
    }

    /// Two bots, 3 wins to 1: p = 3/4, so the Elo gap is 400 log10(3).
    #[test]
    fn rating_of_two_bots_matches_the_hand_computation() {
        let score = vec![vec![0.0, 3.0], vec![1.0, 0.0]];
        let games = vec![vec![0, 4], vec![4, 0]];
        let r = bradley_terry(&score, &games, 0.0);
        let gap = r[0].0 - r[1].0;
        assert!((gap - 400.0 * 3f64.log10()).abs() < 1e-6, "{gap}");
        assert!((r[0].0 + r[1].0).abs() < 1e-9, "centred on 0");
        // Without the prior only the gap is known: no interval.
        assert!(r[0].1.is_infinite());
    }

    #[test]
    fn a_number_rounded_to_zero_has_no_sign() {
        for x in [-0.04, -1e-15, -0.0] {
            let r = round(x, 1);
            assert!(r == 0.0 && r.is_sign_positive(), "{x}");
            assert_eq!(serde_json::to_string(&r).unwrap(), "0.0");
        }
        assert_eq!(round(-0.06, 1), -0.1);
    }

    /// The inverse of [[a, b], [b, c]] is [[c, -b], [-b, a]] / (ac - b²).
    #[test]
    fn the_inverse_diagonal_matches_the_two_by_two_formula() {
        let (a, b, c) = (3.0, -1.25, 2.0);
        let (_, d) = inverse_diagonal(&[vec![a, b], vec![b, c]]).unwrap();
        let det = a * c - b * b;
        assert!((d[0] - c / det).abs() < 1e-12 && (d[1] - a / det).abs() < 1e-12);
        assert!(inverse_diagonal(&[vec![1.0, 1.0], vec![1.0, 1.0]]).is_none());
    }

    /// Two bots with the prior, 3 wins to 1: the standard error is that of
    /// the centred rating (θ₀ - θ₁) / 2 under the inverse information Σ,
    /// √((Σ₀₀ - 2Σ₀₁ + Σ₁₁) / 4), narrower than Σ₀₀'s own, which holds the
    /// common offset only the prior pins down.
    #[test]
    fn the_interval_comes_from_the_inverse_information() {
        let score = vec![vec![0.0, 3.0], vec![1.0, 0.0]];
        let games = vec![vec![0, 4], vec![4, 0]];
        let r = bradley_terry(&score, &games, 1.0);
        let scale = 400.0 / std::f64::consts::LN_10;
        let gamma: Vec<f64> = r.iter().map(|(rating, _)| (rating / scale).exp()).collect();
        // 3-1 and 1-3 mirror each other, so the gammas are g and 1/g and
        // centring (on the mean of their logs, 0) changed nothing.
        assert!((gamma[0] * gamma[1] - 1.0).abs() < 1e-9);
        let p = gamma[0] / (gamma[0] + gamma[1]);
        let w = 4.0 * p * (1.0 - p);
        let prior = |g: f64| g / (g + 1.0).powi(2);
        let (d0, d1) = (prior(gamma[0]) + w, prior(gamma[1]) + w);
        let det = d0 * d1 - w * w;
        let centred = (d1 - 2.0 * w + d0) / (4.0 * det);
        assert!((r[0].1 - centred.sqrt() * scale).abs() < 1e-6);
        assert!((r[1].1 - r[0].1).abs() < 1e-9, "the same for both");
        assert!(
            r[0].1 < (d1 / det).sqrt() * scale - 1.0,
            "narrower than the uncentred one"
        );
    }

    /// A hundred times the games, a tenth of the interval: 60% to 40%
    /// over 10 games and over 1,000.
    #[test]
    fn the_interval_narrows_as_games_add_up() {
        let se = |games: u32| {
            let won = f64::from(games) * 0.6;
            let score = vec![vec![0.0, won], vec![f64::from(games) - won, 0.0]];
            bradley_terry(&score, &[vec![0, games], vec![games, 0]], 1.0)[0].1
        };
        let ratio = se(10) / se(1000);
        assert!((8.0..12.0).contains(&ratio), "{ratio}");
    }

    /// Three bots in a cycle of equal results have equal ratings.
    #[test]
    fn a_balanced_cycle_rates_everyone_equal() {
        let score = vec![
            vec![0.0, 2.0, 0.0],
            vec![0.0, 0.0, 2.0],
            vec![2.0, 0.0, 0.0],
        ];
        let games = vec![vec![0, 2, 2], vec![2, 0, 2], vec![2, 2, 0]];
        let r = bradley_terry(&score, &games, 1.0);
        for (rating, _) in r {
            assert!(rating.abs() < 1e-6);
        }
    }

    #[test]
    fn a_perfect_score_stays_finite_with_the_prior() {
        let score = vec![vec![0.0, 4.0], vec![0.0, 0.0]];
        let games = vec![vec![0, 4], vec![4, 0]];
        let r = bradley_terry(&score, &games, 1.0);
        assert!(r[0].0.is_finite() && r[0].0 > 0.0 && r[1].0 < 0.0);
    }

    #[test]
    fn points_ranks_and_ties() {
        let names: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let mut s = Standings::new(
            &names,
            Scoring {
                win: 2,
                draw: 1,
                loss: 0,
            },
        );
        s.add(&row(1, "x", "y", "x")).unwrap();
        s.add(&row(2, "y", "x", "draw")).unwrap();
        s.add(&row(3, "z", "y", "y")).unwrap();
        let mut dq = row(4, "y", "z", "y");
        dq.verdict_b = Verdict::Timeout;
        dq.reason = "disqualified".into();
        s.add(&dq).unwrap();
        let rows = s.rows();
        let by_name = |n: &str| rows.iter().find(|r| r.bot == n).unwrap().clone();
        let y = by_name("y");
        assert_eq!(
            (y.played, y.wins, y.draws, y.losses, y.points),
            (4, 2, 1, 1, 5)
        );
        let x = by_name("x");
        assert_eq!(
            (x.played, x.wins, x.draws, x.losses, x.points),
            (2, 1, 1, 0, 3)
        );
        assert_eq!(by_name("z").dq_timeout, 1);
        assert_eq!(rows[0].bot, "y");
        assert_eq!(rows[1].bot, "x");
        assert_eq!(rows.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 2, 3]);
        // x cracked in game 1 (6 attacks, as A) and in the both-cracked
        // draw of game 2 (7, as B); y in game 2 (6) and game 3 (7); game 4
        // was won by a disqualification, not a crack.
        assert_eq!(x.avg_attacks_to_crack, Some(6.5));
        assert_eq!(y.avg_attacks_to_crack, Some(6.5));
        assert!(s.add(&row(5, "x", "nobody", "x")).is_err());
        let table = s.crosstable();
        assert_eq!(table[0], ["bot", "y", "x", "z"]);
        assert_eq!(table[2], ["x", "1.5/2", "-", "-"]);
        let timings = s.timings();
        assert_eq!(timings[0].bot, "x");
        assert_eq!(timings[0].max_move_ms, 3.0);
        assert_eq!(timings[0].max_move_cpu_ms, 0.5);
    }

    /// A bot may be called `draw`: its wins are wins (the result is kept
    /// apart from the names).
    #[test]
    fn a_bot_named_draw_is_credited_with_its_wins() {
        let names: Vec<String> = ["draw", "y"].map(String::from).to_vec();
        let mut s = Standings::new(
            &names,
            Scoring {
                win: 2,
                draw: 1,
                loss: 0,
            },
        );
        let mut won = row(1, "draw", "y", "draw");
        won.result = Some(Winner::A);
        won.winner = "draw".into();
        s.add(&won).unwrap();
        s.add(&row(2, "y", "draw", "draw")).unwrap();
        let rows = s.rows();
        assert_eq!(rows[0].bot, "draw");
        assert_eq!((rows[0].wins, rows[0].draws, rows[0].losses), (1, 1, 0));
        assert_eq!((rows[1].wins, rows[1].draws, rows[1].losses), (0, 1, 1));
    }

    /// Rows written before the `result` column say the winner by name.
    #[test]
    fn rows_without_a_result_are_read_from_the_winner_name() {
        let mut old = row(1, "x", "y", "y");
        old.result = None;
        assert_eq!(old.outcome(), Ok(Winner::B));
        let upgraded = old.clone().upgraded().unwrap();
        assert_eq!(
            (upgraded.result, upgraded.winner.as_str()),
            (Some(Winner::B), "y")
        );
        old.winner = "draw".into();
        let upgraded = old.clone().upgraded().unwrap();
        assert_eq!(
            (upgraded.result, upgraded.winner.as_str()),
            (Some(Winner::Draw), "")
        );
        old.winner = "z".into();
        assert_eq!(
            old.outcome().unwrap_err().to_string(),
            "game 1: the winner 'z' is neither 'x' nor 'y'"
        );
    }

    #[test]
    fn compile_disqualifications_count_and_break_ties() {
        let names: Vec<String> = ["x", "y"].map(String::from).to_vec();
        let mut s = Standings::new(
            &names,
            Scoring {
                win: 2,
                draw: 1,
                loss: 0,
            },
        );
        // One win each: equal points and ratings; x's loss was a compile
        // failure, so y ranks first.
        let mut dq = row(1, "x", "y", "y");
        dq.verdict_a = Verdict::Compile;
        dq.reason = "disqualified".into();
        s.add(&dq).unwrap();
        s.add(&row(2, "y", "x", "x")).unwrap();
        let rows = s.rows();
        assert_eq!(rows[0].bot, "y");
        assert_eq!((rows[1].bot.as_str(), rows[1].dq_compile), ("x", 1));
        assert_eq!(rows[1].disqualifications(), 1);
    }
}
