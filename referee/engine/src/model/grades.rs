//! A term contest's grades: the validated `[grading]` section
//! ([`GradingPlan`]), and each team's grade from a tournament's rows
//! ([`grade`]): its mark, the band giving it, the evidence per reference.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::standings::GameRow;
use crate::games::Winner;

/// One mark band: a win rate of at least `win_rate` against `against`
/// gives `marks`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Band {
    pub against: String,
    pub win_rate: f64,
    pub marks: f64,
}

impl Band {
    /// The band as a requirement, in words: `win rate >= 60% against random`.
    pub fn describe(&self) -> String {
        format!(
            "win rate >= {} against {}",
            percent(self.win_rate),
            self.against
        )
    }
}

/// What a free-for-all's band asks of a team's places.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlaceRequirement {
    /// An average place of at most this (1 is first).
    AveragePlace(f64),
    /// First (alone or shared) at this share of its games or more.
    FirstShare(f64),
}

/// One mark band of a free-for-all: its requirement gives `marks`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceBand {
    pub requirement: PlaceRequirement,
    pub marks: f64,
}

impl PlaceBand {
    /// The band in words: `average place <= 2.5`, `first places >= 25%`.
    pub fn describe(&self) -> String {
        match self.requirement {
            PlaceRequirement::AveragePlace(p) => format!("average place <= {p}"),
            PlaceRequirement::FirstShare(s) => format!("first places >= {}", percent(s)),
        }
    }

    /// Whether a team of `average_place` and `first_share` (over at least
    /// one game) meets it.
    pub fn met(&self, games: u64, average_place: f64, first_share: f64) -> bool {
        games > 0
            && match self.requirement {
                PlaceRequirement::AveragePlace(p) => average_place <= p,
                PlaceRequirement::FirstShare(s) => first_share >= s,
            }
    }
}

/// A student of the roster and the team (bot) they belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterEntry {
    pub student: String,
    pub team: String,
}

/// A team of the roster that has no bot in the tournament, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AbsentTeam {
    pub team: String,
    /// `no admitted bot: broken (compile)`, ...
    pub reason: String,
}

/// The name of the roster's copy a results folder keeps in `grades/`, so
/// that `referee grade DIR` finds it whatever the path in the file.
pub const ROSTER_COPY: &str = "roster.csv";

/// A validated `[grading]` section.
#[derive(Clone, Debug, PartialEq)]
pub struct GradingPlan {
    /// The reference bots, by name: graded against, never graded.
    pub references: Vec<String>,
    /// In the file's order.
    pub bands: Vec<Band>,
    /// A free-for-all's bands, of places (in the file's order; then
    /// `bands` is empty).
    pub place_bands: Vec<PlaceBand>,
    /// The roster's students, in its order (empty without a roster).
    pub roster: Vec<RosterEntry>,
    pub roster_path: Option<PathBuf>,
    /// The roster's teams without a bot, in the roster's order.
    pub absent: Vec<AbsentTeam>,
}

impl GradingPlan {
    /// The teams: the bots that are not references, in `names`' order.
    pub fn teams(&self, names: &[String]) -> Vec<String> {
        names
            .iter()
            .filter(|n| !self.references.contains(n))
            .cloned()
            .collect()
    }
}

/// A team's games against one reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub against: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Wins plus half the draws, over the games (0 without games).
    pub win_rate: f64,
    /// The 95% Wilson interval of the win rate (0 to 1 without games).
    pub low: f64,
    pub high: f64,
}

/// A band and whether the team met it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BandResult {
    pub band: Band,
    pub met: bool,
}

/// A game the team lost, or was disqualified in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameNote {
    pub game: u64,
    /// The team's seat, `a` or `b`.
    pub seat: String,
    pub opponent: String,
    pub reason: String,
    /// What disqualified the team (the verdict), if it was.
    pub verdict: Option<String>,
    pub detail: String,
}

/// One team's grade and what it rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamGrade {
    pub team: String,
    pub marks: f64,
    /// The band that gives the mark (the first of the highest), if any.
    pub band: Option<Band>,
    /// One per reference, in the section's order.
    pub evidence: Vec<Evidence>,
    /// One per band, in the section's order.
    pub bands: Vec<BandResult>,
    /// Its lost games, by game number.
    pub lost: Vec<GameNote>,
    /// Its games ended by its own disqualification, by game number.
    pub disqualified: Vec<GameNote>,
    /// Why it played no game, for a roster team without a bot.
    pub absent: Option<String>,
}

impl TeamGrade {
    /// Why the mark, in a few words: the band met, no band met, or why
    /// the team played nothing.
    pub fn reason(&self) -> String {
        match (&self.absent, &self.band) {
            (Some(why), _) => why.clone(),
            (None, Some(b)) => b.describe(),
            (None, None) => "no band met".into(),
        }
    }
}

/// Grades every team (bot of `names` that is not a reference) from the
/// tournament's rows, then the roster's teams without a bot (0 marks).
pub fn grade(rows: &[GameRow], names: &[String], plan: &GradingPlan) -> Vec<TeamGrade> {
    let played = plan
        .teams(names)
        .into_iter()
        .map(|team| grade_team(rows, team, plan));
    let absent = plan.absent.iter().map(|a| TeamGrade {
        absent: Some(a.reason.clone()),
        ..grade_team(&[], a.team.clone(), plan)
    });
    played.chain(absent).collect()
}

fn grade_team(rows: &[GameRow], team: String, plan: &GradingPlan) -> TeamGrade {
    let mut evidence: Vec<Evidence> = plan
        .references
        .iter()
        .map(|r| Evidence {
            against: r.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            win_rate: 0.0,
            low: 0.0,
            high: 1.0,
        })
        .collect();
    let mut lost = vec![];
    let mut disqualified = vec![];
    let mut ordered: Vec<&GameRow> = rows.iter().collect();
    ordered.sort_by_key(|r| r.game);
    for row in ordered {
        let (is_a, opponent) = if row.bot_a == team {
            (true, &row.bot_b)
        } else if row.bot_b == team {
            (false, &row.bot_a)
        } else {
            continue;
        };
        let Ok(outcome) = row.outcome() else { continue };
        let won = outcome == if is_a { Winner::A } else { Winner::B };
        let drawn = outcome == Winner::Draw;
        if let Some(e) = evidence.iter_mut().find(|e| &e.against == opponent) {
            e.games += 1;
            if won {
                e.wins += 1;
            } else if drawn {
                e.draws += 1;
            } else {
                e.losses += 1;
            }
        }
        let verdict = if is_a { row.verdict_a } else { row.verdict_b };
        let note = GameNote {
            game: row.game,
            seat: if is_a { "a" } else { "b" }.into(),
            opponent: opponent.clone(),
            reason: row.reason.clone(),
            verdict: verdict.is_disqualification().then(|| verdict.to_string()),
            detail: row.detail.clone(),
        };
        if note.verdict.is_some() {
            disqualified.push(note.clone());
        }
        if !won && !drawn {
            lost.push(note);
        }
    }
    for e in &mut evidence {
        if e.games > 0 {
            let score = f64::from(e.wins) + 0.5 * f64::from(e.draws);
            e.win_rate = score / f64::from(e.games);
            (e.low, e.high) = wilson(score, f64::from(e.games));
        }
    }
    let bands: Vec<BandResult> = plan
        .bands
        .iter()
        .map(|band| {
            let e = evidence.iter().find(|e| e.against == band.against);
            BandResult {
                band: band.clone(),
                met: e.is_some_and(|e| e.games > 0 && e.win_rate >= band.win_rate),
            }
        })
        .collect();
    let mut best: Option<&Band> = None;
    for b in bands.iter().filter(|b| b.met) {
        if best.is_none_or(|m| b.band.marks > m.marks) {
            best = Some(&b.band);
        }
    }
    TeamGrade {
        team,
        marks: best.map_or(0.0, |b| b.marks),
        band: best.cloned(),
        evidence,
        bands,
        lost,
        disqualified,
        absent: None,
    }
}

/// The 95% Wilson score interval of `score` successes in `n` trials.
pub fn wilson(score: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = score / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

/// The connected components of the comparison graph: bots are nodes, two
/// bots that played at least one game are joined. Each component lists its
/// bots in `names`' order; components are ordered by their first bot.
/// Names in rows that `names` lacks are left out.
pub fn components<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    names: &[String],
) -> Vec<Vec<String>> {
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut parent: Vec<usize> = (0..names.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (a, b) in pairs {
        if let (Some(&a), Some(&b)) = (index.get(a), index.get(b)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut groups: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(name.clone());
    }
    groups.into_values().collect()
}

/// The warning for a comparison graph of more than one component, naming
/// each group; `None` when every bot can be compared with every other.
pub fn disconnected_warning(groups: &[Vec<String>]) -> Option<String> {
    if groups.len() < 2 {
        return None;
    }
    let mut text = format!(
        "warning: the comparison graph is not connected: {} groups of bots never met one another (directly or through others), so ratings of different groups cannot be compared:\n",
        groups.len()
    );
    for (i, group) in groups.iter().enumerate() {
        text.push_str(&format!(
            "  group {}: {}\n",
            i + 1,
            group
                .iter()
                .map(|n| crate::text::escape(n))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Some(text)
}

/// A rate as a percentage with at most one decimal: `60%`, `62.5%`.
pub fn percent(rate: f64) -> String {
    let p = (rate * 1000.0).round() / 10.0;
    if p.fract() == 0.0 {
        format!("{p:.0}%")
    } else {
        format!("{p:.1}%")
    }
}
