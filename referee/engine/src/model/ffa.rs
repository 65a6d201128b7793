//! The results of a free-for-all: a game of K seats as one row of
//! `games.csv`, and the standings made from the places of every game:
//! average place, first places, a Weng-Lin rating with its interval
//! (`standings.csv`), and how often each bot finished ahead of each other
//! (`pairwise.csv`).
//!
//! Ratings: Weng-Lin's Bradley-Terry model with full pairing (the
//! `skillratings` crate), every bot starting at mu 25, sigma 25/3, with
//! beta 25/6, updated by each game in the order of the games' numbers
//! (the schedule's order, whatever order they were played in), so a
//! resumed or merged tournament has the very same ratings as one played
//! in one go. The interval shown is mu ± 1.96 sigma.

use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::games::Seat;
use crate::verdict::Verdict;

/// One seat of a free-for-all game.
#[derive(Clone, Debug, PartialEq)]
pub struct FfaSeat {
    pub bot: String,
    /// 1 for first; players who tie share a place, and the next place
    /// skips as many (1, 1, 3): the number of players strictly ahead, plus
    /// one.
    pub place: u32,
    /// The judge's score, when it gave one.
    pub score: Option<f64>,
    pub verdict: Verdict,
    pub replies: u32,
    pub time_max_ms: f64,
    pub peak_memory_kb: u64,
}

/// One game of a free-for-all (a row of its `games.csv`).
#[derive(Clone, Debug, PartialEq)]
pub struct FfaRow {
    pub game: u64,
    pub seed: u64,
    /// The table (1-based) whose rotation this game is.
    pub table: u64,
    /// 0 for the table's seat order, r for its seats turned r places
    /// (the bot of seat A at the table plays seat A+r).
    pub rotation: u32,
    pub reason: String,
    /// Seat A first.
    pub seats: Vec<FfaSeat>,
    /// Each disqualification as `bot: verdict at reply N: detail`.
    pub detail: String,
}

/// The per-seat columns of a free-for-all's `games.csv`, each followed by
/// the seat's letter (`bot_a`, `place_a`, ..., `bot_b`, ...).
const SEAT_COLUMNS: [&str; 6] = ["bot", "place", "score", "verdict", "replies", "time_max_ms"];

/// The header of a free-for-all's `games.csv` with `seats` seats.
pub fn columns(seats: usize) -> Vec<String> {
    let mut out: Vec<String> = ["game", "seed", "table", "rotation", "reason"]
        .map(String::from)
        .to_vec();
    for seat in Seat::all(seats) {
        let letter = seat.to_string().to_ascii_lowercase();
        for c in SEAT_COLUMNS {
            out.push(format!("{c}_{letter}"));
        }
        out.push(format!("peak_memory_kb_{letter}"));
    }
    out.push("detail".into());
    out
}

impl FfaRow {
    /// The row's fields, in the order of [`columns`].
    pub fn fields(&self) -> Vec<String> {
        let mut out = vec![
            self.game.to_string(),
            self.seed.to_string(),
            self.table.to_string(),
            self.rotation.to_string(),
            self.reason.clone(),
        ];
        for s in &self.seats {
            out.push(s.bot.clone());
            out.push(s.place.to_string());
            out.push(s.score.map(|x| x.to_string()).unwrap_or_default());
            out.push(s.verdict.to_string());
            out.push(s.replies.to_string());
            out.push(format!("{:.3}", s.time_max_ms));
            out.push(s.peak_memory_kb.to_string());
        }
        out.push(self.detail.clone());
        out
    }

    /// A row read back from its fields (`header` the file's), or what is
    /// wrong with it.
    pub fn from_fields(header: &[String], fields: &[String]) -> Result<FfaRow, String> {
        if header.len() != fields.len() {
            return Err(format!(
                "{} fields where the header has {}",
                fields.len(),
                header.len()
            ));
        }
        let get = |name: &str| -> Result<&str, String> {
            header
                .iter()
                .position(|h| h == name)
                .map(|i| fields[i].as_str())
                .ok_or_else(|| format!("no column {name}"))
        };
        fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{name}: '{text}' is not a number"))
        }
        let per_seat = SEAT_COLUMNS.len() + 1;
        let seat_count = header.len().saturating_sub(6) / per_seat;
        let mut seats = vec![];
        for seat in Seat::all(seat_count) {
            let l = seat.to_string().to_ascii_lowercase();
            let col = |c: &str| format!("{c}_{l}");
            let verdict_text = get(&col("verdict"))?;
            let verdict = Verdict::ALL
                .into_iter()
                .find(|v| v.to_string() == verdict_text)
                .ok_or_else(|| format!("{}: '{verdict_text}' is not a verdict", col("verdict")))?;
            let score = get(&col("score"))?;
            seats.push(FfaSeat {
                bot: get(&col("bot"))?.to_string(),
                place: number(&col("place"), get(&col("place"))?)?,
                score: if score.is_empty() {
                    None
                } else {
                    Some(number(&col("score"), score)?)
                },
                verdict,
                replies: number(&col("replies"), get(&col("replies"))?)?,
                time_max_ms: number(&col("time_max_ms"), get(&col("time_max_ms"))?)?,
                peak_memory_kb: number(&col("peak_memory_kb"), get(&col("peak_memory_kb"))?)?,
            });
        }
        if seats.len() < 2 {
            return Err("fewer than two seats".into());
        }
        Ok(FfaRow {
            game: number("game", get("game")?)?,
            seed: number("seed", get("seed")?)?,
            table: number("table", get("table")?)?,
            rotation: number("rotation", get("rotation")?)?,
            reason: get("reason")?.to_string(),
            seats,
            detail: get("detail")?.to_string(),
        })
    }
}

/// A bot's line of a free-for-all's `standings.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FfaStanding {
    pub rank: usize,
    pub bot: String,
    pub games: u64,
    /// The mean of its places (1 first); 0 before any game.
    pub average_place: f64,
    /// Games it finished first in, alone or shared.
    pub first_places: u64,
    /// first_places / games.
    pub first_share: f64,
    /// Weng-Lin mu.
    pub rating: f64,
    /// mu - 1.96 sigma and mu + 1.96 sigma.
    pub rating_low: f64,
    pub rating_high: f64,
    /// Weng-Lin sigma.
    pub uncertainty: f64,
    /// Games it ended with a verdict (timeout, crash, ...).
    pub disqualified: u64,
}

/// A line of `pairwise.csv`: how often `bot` finished ahead of `other` at
/// the games they played together (a tie counts half).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairwiseRow {
    pub bot: String,
    pub other: String,
    pub games: u64,
    pub ahead: f64,
    /// ahead / games.
    pub share: f64,
}

/// The standings and pairwise table of a free-for-all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FfaStandings {
    /// Ranked by rating (mu), then average place, then name.
    pub rows: Vec<FfaStanding>,
    /// Bot by bot in the order of `rows`, each against the others in that
    /// order; pairs that never met are left out.
    pub pairwise: Vec<PairwiseRow>,
}

/// How many sigmas either side of mu the interval spans (95%).
pub const INTERVAL_SIGMAS: f64 = 1.96;

/// Rounded to 3 decimals, as the tables show them.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The standings of `bots` from `rows` (any order: taken in game order).
/// A bot of a row that is not among `bots` is left out.
pub fn standings(bots: &[String], rows: &[FfaRow]) -> FfaStandings {
    let n = bots.len();
    let index: std::collections::HashMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut ordered: Vec<&FfaRow> = rows.iter().collect();
    ordered.sort_by_key(|r| r.game);
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); n];
    let mut games = vec![0u64; n];
    let mut place_sum = vec![0u64; n];
    let mut firsts = vec![0u64; n];
    let mut dq = vec![0u64; n];
    let mut together = vec![0u64; n * n];
    let mut ahead = vec![0f64; n * n];
    for row in ordered {
        let seated: Vec<(usize, &FfaSeat)> = row
            .seats
            .iter()
            .filter_map(|s| index.get(s.bot.as_str()).map(|&i| (i, s)))
            .collect();
        for &(i, s) in &seated {
            games[i] += 1;
            place_sum[i] += u64::from(s.place);
            firsts[i] += u64::from(s.place == 1);
            dq[i] += u64::from(s.verdict != Verdict::Ok);
        }
        for &(i, si) in &seated {
            for &(j, sj) in &seated {
                if i == j {
                    continue;
                }
                together[i * n + j] += 1;
                ahead[i * n + j] += match si.place.cmp(&sj.place) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
        if seated.len() < 2 {
            continue;
        }
        let teams: Vec<[WengLinRating; 1]> = seated.iter().map(|&(i, _)| [ratings[i]]).collect();
        let outcome: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&seated)
            .map(|(t, &(_, s))| (&t[..], MultiTeamOutcome::new(s.place as usize)))
            .collect();
        let updated = weng_lin_multi_team(&outcome, &config);
        for (&(i, _), new) in seated.iter().zip(updated) {
            ratings[i] = new[0];
        }
    }
    let mut rows: Vec<FfaStanding> = (0..n)
        .map(|i| {
            let mu = ratings[i].rating;
            let sigma = ratings[i].uncertainty;
            FfaStanding {
                rank: 0,
                bot: bots[i].clone(),
                games: games[i],
                average_place: if games[i] == 0 {
                    0.0
                } else {
                    round3(place_sum[i] as f64 / games[i] as f64)
                },
                first_places: firsts[i],
                first_share: if games[i] == 0 {
                    0.0
                } else {
                    round3(firsts[i] as f64 / games[i] as f64)
                },
                rating: round3(mu),
                rating_low: round3(mu - INTERVAL_SIGMAS * sigma),
                rating_high: round3(mu + INTERVAL_SIGMAS * sigma),
                uncertainty: round3(sigma),
                disqualified: dq[i],
            }
        })
        .collect();
    rows.sort_by(|x, y| {
        y.rating
            .total_cmp(&x.rating)
            .then(x.average_place.total_cmp(&y.average_place))
            .then(x.bot.cmp(&y.bot))
    });
    for (r, row) in rows.iter_mut().enumerate() {
        row.rank = r + 1;
    }
    let mut pairwise = vec![];
    for x in &rows {
        let i = index[x.bot.as_str()];
        for y in &rows {
            let j = index[y.bot.as_str()];
            let g = together[i * n + j];
            if i == j || g == 0 {
                continue;
            }
            pairwise.push(PairwiseRow {
                bot: x.bot.clone(),
                other: y.bot.clone(),
                games: g,
                ahead: ahead[i * n + j],
                share: round3(ahead[i * n + j] / g as f64),
            });
        }
    }
    FfaStandings { rows, pairwise }
}

/// A team's grade in a free-for-all (a line of `grades/grades.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlaceGrade {
    pub team: String,
    pub marks: f64,
    /// The band giving the mark (the first of the highest), in words;
    /// empty if none.
    pub band: String,
    pub games: u64,
    pub average_place: f64,
    pub first_share: f64,
    /// Why the mark, in a few words.
    pub reason: String,
}

/// The grades of a free-for-all's teams (its bots but the references, in
/// standings order) by the place bands of `plan`: each team's mark is the
/// highest of the bands it meets, 0 if none (a team with no game meets
/// none).
pub fn grade_places(
    plan: &crate::model::grades::GradingPlan,
    standings: &FfaStandings,
) -> Vec<PlaceGrade> {
    standings
        .rows
        .iter()
        .filter(|r| !plan.references.contains(&r.bot))
        .map(|r| {
            let best = plan
                .place_bands
                .iter()
                .filter(|b| b.met(r.games, r.average_place, r.first_share))
                .fold(
                    None,
                    |best: Option<&crate::model::grades::PlaceBand>, b| match best {
                        Some(x) if x.marks >= b.marks => Some(x),
                        _ => Some(b),
                    },
                );
            let band = best.map(|b| b.describe()).unwrap_or_default();
            let reason = if r.games == 0 {
                "played no game".to_string()
            } else if band.is_empty() {
                "no band met".to_string()
            } else {
                band.clone()
            };
            PlaceGrade {
                team: r.bot.clone(),
                marks: best.map_or(0.0, |b| b.marks),
                band,
                games: r.games,
                average_place: r.average_place,
                first_share: r.first_share,
                reason,
            }
        })
        .collect()
}

/// What a free-for-all run tells as it goes (the terminal implements it).
pub trait FfaProgress: Send {
    /// Before the first game: the games in all, and those already played.
    fn started(&mut self, out: &std::path::Path, total: u64, done: u64);
    /// A worker took game `number`: its seed and its seats' bots, A first.
    fn game_started(&mut self, _number: u64, _seed: u64, _bots: &[&str]) {}
    /// A game recorded.
    fn game_recorded(&mut self, row: &FfaRow);
    /// The run is over (all its games played, or stopped).
    fn finished(&mut self, _end: &FfaEnd<'_>) {}
}

/// How a free-for-all run ended, as its progress is told.
pub struct FfaEnd<'a> {
    pub standings: &'a FfaStandings,
    pub played_now: u64,
    pub total_in_folder: u64,
    /// The games this run (its shard) plays in all.
    pub scheduled: u64,
    pub interrupted: bool,
    pub not_played: u64,
    pub not_played_why: Option<&'a str>,
}

/// Each progress told in turn (the terminal, the event stream).
impl FfaProgress for Vec<Box<dyn FfaProgress>> {
    fn started(&mut self, out: &std::path::Path, total: u64, done: u64) {
        self.iter_mut().for_each(|p| p.started(out, total, done));
    }
    fn game_started(&mut self, number: u64, seed: u64, bots: &[&str]) {
        self.iter_mut()
            .for_each(|p| p.game_started(number, seed, bots));
    }
    fn game_recorded(&mut self, row: &FfaRow) {
        self.iter_mut().for_each(|p| p.game_recorded(row));
    }
    fn finished(&mut self, end: &FfaEnd<'_>) {
        self.iter_mut().for_each(|p| p.finished(end));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, places: &[(&str, u32)]) -> FfaRow {
        FfaRow {
            game,
            seed: 1,
            table: 1,
            rotation: 0,
            reason: "r".into(),
            seats: places
                .iter()
                .map(|&(bot, place)| FfaSeat {
                    bot: bot.into(),
                    place,
                    score: None,
                    verdict: Verdict::Ok,
                    replies: 1,
                    time_max_ms: 1.0,
                    peak_memory_kb: 1,
                })
                .collect(),
            detail: String::new(),
        }
    }

    #[test]
    fn the_bot_that_finishes_first_is_rated_first_and_ties_count_half() {
        let bots: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let rows: Vec<FfaRow> = (1..=6)
            .map(|g| row(g, &[("y", 3), ("x", 1), ("z", 1)]))
            .collect();
        let s = standings(&bots, &rows);
        let order: Vec<&str> = s.rows.iter().map(|r| r.bot.as_str()).collect();
        assert_eq!(order[2], "y");
        assert!(s.rows[0].rating > s.rows[2].rating);
        assert!(
            s.rows[0].rating_low < s.rows[0].rating && s.rows[0].rating < s.rows[0].rating_high
        );
        let x = s.rows.iter().find(|r| r.bot == "x").unwrap();
        assert_eq!((x.games, x.first_places, x.average_place), (6, 6, 1.0));
        let xz = s
            .pairwise
            .iter()
            .find(|p| p.bot == "x" && p.other == "z")
            .unwrap();
        assert_eq!((xz.games, xz.ahead, xz.share), (6, 3.0, 0.5));
        // The order the rows come in does not matter: the games' numbers do.
        let mut reversed = rows.clone();
        reversed.reverse();
        assert_eq!(standings(&bots, &reversed), s);
    }

    #[test]
    fn a_team_gets_the_highest_band_of_places_it_meets() {
        use crate::model::grades::{GradingPlan, PlaceBand, PlaceRequirement};
        let bots: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let rows: Vec<FfaRow> = (1..=4)
            .map(|g| {
                row(
                    g,
                    &[("x", 1), ("y", 2), ("z", if g % 2 == 0 { 1 } else { 3 })],
                )
            })
            .collect();
        let plan = GradingPlan {
            references: vec!["y".into()],
            bands: vec![],
            place_bands: vec![
                PlaceBand {
                    requirement: PlaceRequirement::AveragePlace(2.0),
                    marks: 50.0,
                },
                PlaceBand {
                    requirement: PlaceRequirement::FirstShare(0.75),
                    marks: 80.0,
                },
            ],
            roster: vec![],
            roster_path: None,
            absent: vec![],
        };
        let grades = grade_places(&plan, &standings(&bots, &rows));
        let of = |team: &str| grades.iter().find(|g| g.team == team).unwrap();
        assert_eq!(grades.len(), 2, "the reference is not graded");
        // x: first every time; z: first half the time, average place 2.
        assert_eq!(
            (of("x").marks, of("x").reason.as_str()),
            (80.0, "first places >= 75%")
        );
        assert_eq!(
            (of("z").marks, of("z").reason.as_str()),
            (50.0, "average place <= 2")
        );
    }

    #[test]
    fn a_row_reads_back_as_written() {
        let mut r = row(4, &[("a,b", 2), ("=c", 1), ("d", 2)]);
        r.seats[1].score = Some(2.5);
        r.seats[2].verdict = Verdict::Timeout;
        let header = columns(3);
        let back = FfaRow::from_fields(&header, &r.fields()).unwrap();
        assert_eq!(back, r);
    }
}
