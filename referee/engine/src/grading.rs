//! Grading a term contest: a tournament file's `[grading]` section (the
//! reference bots, the mark bands, an optional roster of students), and
//! the grades computed from the rows of `games.csv` after the tournament.
//!
//! Grading is a pure function of the rows and the section ([`grade`]), so
//! `referee grade DIR` can grade a results folder again with other bands
//! without playing a game. The files it gives (`grades/`) are written by
//! [`crate::reporter::grades`].
//!
//! A team (a bot that is not a reference) is graded against each reference
//! on the games the two played: its score is wins plus half the draws, its
//! win rate that score over the games, shown with its 95% Wilson interval.
//! A band `{ against = "random", win_rate = 0.6, marks = 50 }` is met when
//! the win rate against `random` is at least 0.6 (the rate itself, not its
//! interval's lower end; a team that never played `random` meets no band
//! against it). The team's mark is the highest mark of the bands it meets,
//! 0 if none.
//!
//! Every student of the roster gets a grade: a roster team with no bot in
//! the tournament (late, broken: not admitted by `referee collect`) is
//! graded 0, with the reason ([`AbsentTeam`]) taken from the collect
//! folder's `admission.csv` when the tournament's `bots_dir` has one.
//!
//! The comparison graph of a tournament has the bots as nodes and an edge
//! between two bots that played at least one game; ratings of bots in
//! different connected components ([`components`]) cannot be compared.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::games::Winner;
use crate::plan_file::{PlanError, Source};
use crate::tournament::GameRow;

/// The most bands a `[grading]` section may have.
pub const MAX_BANDS: usize = 100;

/// The highest mark a band may give.
pub const MAX_MARKS: f64 = 1_000_000.0;

/// `[grading]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawGrading {
    references: Spanned<Vec<String>>,
    roster: Option<Spanned<String>>,
    #[serde(default)]
    bands: Vec<Spanned<RawBand>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBand {
    against: String,
    win_rate: f64,
    marks: f64,
}

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
    /// The roster's students, in its order (empty without a roster).
    pub roster: Vec<RosterEntry>,
    pub roster_path: Option<PathBuf>,
    /// The roster's teams without a bot, in the roster's order.
    pub absent: Vec<AbsentTeam>,
}

impl GradingPlan {
    /// The `[grading]` section of a tournament file, checked against the
    /// bots `names`; `None` if the file has none. Only that section (and
    /// nothing else of the file) is read, so a results folder's copy of
    /// the file will do. `roster_at`, if given, is read instead of the
    /// roster the section names (a results folder's copy of it,
    /// [`ROSTER_COPY`] in its `grades/`).
    pub fn load(
        path: &Path,
        names: &[String],
        roster_at: Option<&Path>,
    ) -> Result<Option<GradingPlan>, PlanError> {
        #[derive(Deserialize)]
        struct OnlyGrading {
            grading: Option<Spanned<RawGrading>>,
            bots_dir: Option<String>,
        }
        let text = Source::read("tournament", path)?;
        let src = Source::new(path, &text);
        let raw: OnlyGrading = src.raw()?;
        raw.grading
            .map(|g| validate(&src, &g, names, roster_at, raw.bots_dir.as_deref()))
            .transpose()
    }

    /// The teams: the bots that are not references, in `names`' order.
    pub fn teams(&self, names: &[String]) -> Vec<String> {
        names
            .iter()
            .filter(|n| !self.references.contains(n))
            .cloned()
            .collect()
    }
}

/// Checks a `[grading]` section: references and bands name bots of the
/// file, rates are 0 to 1, marks 0 to [`MAX_MARKS`], the roster (relative
/// to the file's folder) reads and names no reference. `bots_dir`, the
/// file's, is where a collect folder's `admission.csv` tells why a roster
/// team has no bot.
pub(crate) fn validate(
    src: &Source<'_>,
    raw: &Spanned<RawGrading>,
    names: &[String],
    roster_at: Option<&Path>,
    bots_dir: Option<&str>,
) -> Result<GradingPlan, PlanError> {
    let grading = raw.get_ref();
    let known = || names.join(", ");
    let references = grading.references.get_ref();
    if references.is_empty() || references.len() >= names.len() {
        return Err(src.error_at(
            grading.references.span(),
            "grading.references: name at least one reference bot, and leave at least one bot to grade"
                .into(),
        ));
    }
    for (i, name) in references.iter().enumerate() {
        if !names.contains(name) {
            return Err(src.error_at(
                grading.references.span(),
                format!(
                    "grading.references: no bot is named '{}'; the bots are: {}",
                    crate::text::escape(name),
                    known()
                ),
            ));
        }
        if references[..i].contains(name) {
            return Err(src.error_at(
                grading.references.span(),
                format!(
                    "grading.references: '{}' is named twice",
                    crate::text::escape(name)
                ),
            ));
        }
    }
    if grading.bands.len() > MAX_BANDS {
        return Err(src.error_at(
            raw.span(),
            format!(
                "grading.bands: {} bands are too many: at most {MAX_BANDS}",
                grading.bands.len()
            ),
        ));
    }
    let mut bands = vec![];
    for band in &grading.bands {
        let b = band.get_ref();
        let fail = |message: String| src.error_at(band.span(), message);
        if !references.contains(&b.against) {
            return Err(fail(format!(
                "grading.bands.against: '{}' is not a reference; the references are: {}",
                crate::text::escape(&b.against),
                references.join(", ")
            )));
        }
        if !(0.0..=1.0).contains(&b.win_rate) {
            return Err(fail(format!(
                "grading.bands.win_rate: {} is not a rate from 0 to 1 (0.6 for 60%)",
                b.win_rate
            )));
        }
        if !(0.0..=MAX_MARKS).contains(&b.marks) {
            return Err(fail(format!(
                "grading.bands.marks: {} is not a mark from 0 to {MAX_MARKS}",
                b.marks
            )));
        }
        bands.push(Band {
            against: b.against.clone(),
            win_rate: b.win_rate,
            marks: b.marks,
        });
    }
    let (roster, roster_path) = match &grading.roster {
        None => (Roster::default(), None),
        Some(file) => {
            let path = roster_at
                .map(Path::to_path_buf)
                .unwrap_or_else(|| src.base().join(file.get_ref()));
            let admissions = bots_dir
                .map(|d| admission_reasons(&src.base().join(d).join(ADMISSION_CSV)))
                .unwrap_or_default();
            let roster = read_roster(&path, names, references, &admissions)
                .map_err(|e| src.error_at(file.span(), format!("grading.roster: {e}")))?;
            (roster, Some(path))
        }
    };
    Ok(GradingPlan {
        references: references.clone(),
        bands,
        roster: roster.entries,
        roster_path,
        absent: roster.absent,
    })
}

/// The admission report `referee collect` writes beside its bots.
const ADMISSION_CSV: &str = "admission.csv";

/// Why each team of a collect folder's `admission.csv` was not admitted:
/// `missing (late)`, `broken (compile)`; empty if the file cannot be read.
fn admission_reasons(path: &Path) -> BTreeMap<String, String> {
    let Ok(mut reader) = csv::Reader::from_path(path) else {
        return BTreeMap::new();
    };
    crate::reporter::csv::deserialize_restored::<BTreeMap<String, String>, _>(&mut reader)
        .map_while(Result::ok)
        .filter_map(|row| {
            let field = |name: &str| row.get(name).map(|v| v.trim()).unwrap_or("");
            let (team, status, reason) = (field("team"), field("status"), field("reason"));
            (!team.is_empty() && status != "admitted").then(|| {
                let why = if reason.is_empty() {
                    status.to_string()
                } else {
                    format!("{status} ({reason})")
                };
                (team.to_string(), why)
            })
        })
        .collect()
}

/// A roster as read: its students, and its teams that have no bot.
#[derive(Default)]
pub struct Roster {
    pub entries: Vec<RosterEntry>,
    pub absent: Vec<AbsentTeam>,
}

/// A roster CSV, the class list `referee collect --roster` takes: columns
/// `student` and `team` in its first line (any case; other columns such as
/// the copy's `reason` read only as said below), fields trimmed. A team is
/// the bot of that name, else of its safe name (as `collect` names a
/// team's bot); a team with neither is absent, its reason from `admissions`
/// (by safe name), else from the row's `reason` column (the roster copy's),
/// else that no bot has its name. A team must not be a reference; a
/// student is listed once (a row repeated whole is read once).
pub fn read_roster(
    path: &Path,
    names: &[String],
    references: &[String],
    admissions: &BTreeMap<String, String>,
) -> Result<Roster, String> {
    let shown = path.display();
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_path(path)
        .map_err(|e| format!("{shown}: cannot read it ({e})"))?;
    let headers = reader
        .byte_headers()
        .map(crate::reporter::csv::restore_record)
        .map_err(|e| format!("{shown}: {e}"))?;
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| String::from_utf8_lossy(h).eq_ignore_ascii_case(name))
    };
    let (Some(student_col), Some(team_col)) = (column("student"), column("team")) else {
        return Err(format!(
            "{shown}: the first line must name the columns student,team"
        ));
    };
    let reason_col = column("reason");
    let mut roster = Roster::default();
    for (i, record) in reader.byte_records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| format!("{shown} line {line}: {e}"))?;
        let record = crate::reporter::csv::restore_record(&record);
        let field = |col: Option<usize>| {
            col.and_then(|c| record.get(c))
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .unwrap_or_default()
        };
        let (student, raw_team) = (field(Some(student_col)), field(Some(team_col)));
        if student.is_empty() {
            return Err(format!("{shown} line {line}: no student's name"));
        }
        let safe = crate::collect::safe_name(&raw_team);
        let team = if names.contains(&raw_team) {
            raw_team.clone()
        } else {
            match safe.as_ref().filter(|s| names.contains(s)) {
                Some(s) => s.clone(),
                None => safe.clone().unwrap_or_else(|| raw_team.clone()),
            }
        };
        if team.is_empty() {
            return Err(format!(
                "{shown} line {line}: the student '{}' has no team",
                crate::text::escape(&student)
            ));
        }
        if references.contains(&team) {
            return Err(format!(
                "{shown} line {line}: the team '{}' of '{}' is a reference bot, not a team; the references are: {}",
                crate::text::escape(&team),
                crate::text::escape(&student),
                references.join(", ")
            ));
        }
        if let Some(other) = roster.entries.iter().find(|r| r.student == student) {
            if other.team == team {
                continue;
            }
            return Err(format!(
                "{shown} line {line}: the student '{}' is listed twice, in the teams '{}' and '{}'",
                crate::text::escape(&student),
                crate::text::escape(&other.team),
                crate::text::escape(&team)
            ));
        }
        if !names.contains(&team) && !roster.absent.iter().any(|a| a.team == team) {
            let copied = field(reason_col);
            let reason = match admissions.get(&team) {
                Some(why) => format!("no admitted bot: {why}"),
                None if !copied.is_empty() => copied,
                None => format!(
                    "no admitted bot: no bot of the tournament is named '{}'",
                    crate::text::escape(&team)
                ),
            };
            roster.absent.push(AbsentTeam {
                team: team.clone(),
                reason,
            });
        }
        roster.entries.push(RosterEntry { student, team });
    }
    Ok(roster)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, a: &str, b: &str, result: Winner) -> GameRow {
        GameRow {
            game,
            seed: game,
            bot_a: a.into(),
            bot_b: b.into(),
            first: a.into(),
            result: Some(result),
            reason: "cracked".into(),
            attacks_a: 1,
            attacks_b: 1,
            replies_a: 1,
            replies_b: 1,
            ..GameRow::default()
        }
    }

    fn plan() -> GradingPlan {
        GradingPlan {
            references: vec!["random".into(), "strong".into()],
            bands: vec![
                Band {
                    against: "random".into(),
                    win_rate: 0.6,
                    marks: 50.0,
                },
                Band {
                    against: "strong".into(),
                    win_rate: 0.5,
                    marks: 80.0,
                },
            ],
            roster: vec![],
            roster_path: None,
            absent: vec![],
        }
    }

    #[test]
    fn the_mark_is_the_highest_band_met_and_a_draw_counts_half() {
        let names: Vec<String> = ["random", "strong", "ann", "bob"]
            .map(String::from)
            .to_vec();
        let rows = vec![
            row(1, "ann", "random", Winner::A),
            row(2, "random", "ann", Winner::B),
            row(3, "ann", "strong", Winner::Draw),
            row(4, "strong", "ann", Winner::A),
            row(5, "bob", "random", Winner::A),
            row(6, "random", "bob", Winner::A),
            row(7, "bob", "strong", Winner::Draw),
            row(8, "strong", "bob", Winner::Draw),
        ];
        let grades = grade(&rows, &names, &plan());
        let ann = &grades[0];
        assert_eq!((ann.team.as_str(), ann.marks), ("ann", 50.0));
        assert_eq!(ann.evidence[0].win_rate, 1.0);
        assert_eq!(ann.evidence[1].win_rate, 0.25);
        assert_eq!(ann.lost.iter().map(|g| g.game).collect::<Vec<_>>(), [4]);
        // bob: half against random (not 60%), draws against strong: 50%.
        let bob = &grades[1];
        assert_eq!((bob.team.as_str(), bob.marks), ("bob", 80.0));
        assert_eq!(
            bob.bands.iter().map(|b| b.met).collect::<Vec<_>>(),
            [false, true]
        );
    }

    #[test]
    fn wilson_intervals_hold_the_rate() {
        let (low, high) = wilson(8.0, 10.0);
        assert!((low - 0.490).abs() < 0.001 && (high - 0.943).abs() < 0.001);
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
        let (low, high) = wilson(10.0, 10.0);
        assert!(
            (low - 0.722).abs() < 0.001 && high > 0.999_999,
            "{low} {high}"
        );
    }

    fn pairs(rows: &[GameRow]) -> impl Iterator<Item = (&str, &str)> {
        rows.iter().map(|r| (r.bot_a.as_str(), r.bot_b.as_str()))
    }

    #[test]
    fn components_are_the_groups_that_met() {
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let rows = vec![row(1, "a", "c", Winner::A), row(2, "d", "b", Winner::A)];
        assert_eq!(
            components(pairs(&rows), &names),
            [vec!["a", "c"], vec!["b", "d"], vec!["e"]]
        );
        let warning = disconnected_warning(&components(pairs(&rows), &names)).unwrap();
        assert!(warning.contains("group 2: b, d"), "{warning}");
        let all = vec![row(1, "a", "b", Winner::A)];
        assert!(disconnected_warning(&components(pairs(&all), &names[..2])).is_none());
    }
}
