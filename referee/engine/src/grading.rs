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

use serde::Deserialize;
use toml::Spanned;

use crate::input_file::Links;
use crate::plan_file::{PlanError, Source};

pub use crate::model::grades::{
    components, disconnected_warning, grade, percent, wilson, AbsentTeam, Band, BandResult,
    Evidence, GameNote, GradingPlan, PlaceBand, PlaceRequirement, RosterEntry, TeamGrade,
    ROSTER_COPY,
};

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
    /// Games of two: a win rate of at least `win_rate` against the
    /// reference `against`.
    against: Option<String>,
    win_rate: Option<f64>,
    /// A free-for-all: an average place of at most `average_place`, or a
    /// share of first places of at least `first_share`.
    average_place: Option<f64>,
    first_share: Option<f64>,
    marks: f64,
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
            format: Option<String>,
        }
        // With `roster_at`, `path` is the copy a results folder keeps.
        let links = match roster_at {
            Some(_) => Links::Refused,
            None => Links::Followed,
        };
        let text = Source::read_with("tournament", path, links)?;
        let src = Source::new(path, &text);
        let raw: OnlyGrading = src.raw()?;
        let places =
            raw.format.as_deref() == Some(crate::model::tournament::Format::FreeForAll.name());
        raw.grading
            .map(|g| validate(&src, &g, names, roster_at, raw.bots_dir.as_deref(), places))
            .transpose()
    }
}

/// Checks a `[grading]` section: references and bands name bots of the
/// file, rates are 0 to 1, marks 0 to [`MAX_MARKS`], the roster (relative
/// to the file's folder) reads and names no reference. `bots_dir`, the
/// file's, is where a collect folder's `admission.csv` tells why a roster
/// team has no bot. `places`: a free-for-all's section, whose bands are
/// of places (`average_place`, `first_share`) instead of win rates.
pub(crate) fn validate(
    src: &Source<'_>,
    raw: &Spanned<RawGrading>,
    names: &[String],
    roster_at: Option<&Path>,
    bots_dir: Option<&str>,
    places: bool,
) -> Result<GradingPlan, PlanError> {
    let grading = raw.get_ref();
    let known = || names.join(", ");
    let references = grading.references.get_ref();
    // A free-for-all grades every bot by its places: its references are
    // only bots left ungraded (the sample bots), none is needed.
    if (references.is_empty() && !places) || references.len() >= names.len() {
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
    let mut place_bands = vec![];
    for band in &grading.bands {
        let b = band.get_ref();
        let fail = |message: String| src.error_at(band.span(), message);
        if !(0.0..=MAX_MARKS).contains(&b.marks) {
            return Err(fail(format!(
                "grading.bands.marks: {} is not a mark from 0 to {MAX_MARKS}",
                b.marks
            )));
        }
        if places {
            place_bands.push(place_band(b).map_err(fail)?);
            continue;
        }
        let (Some(against), Some(win_rate)) = (&b.against, b.win_rate) else {
            return Err(fail(
                "grading.bands: a band needs against = \"REFERENCE\" and win_rate = R (average_place and first_share are for a free-for-all)".into(),
            ));
        };
        if b.average_place.is_some() || b.first_share.is_some() {
            return Err(fail(
                "grading.bands: average_place and first_share grade a free-for-all; a band of this format has against and win_rate only".into(),
            ));
        }
        if !references.contains(against) {
            return Err(fail(format!(
                "grading.bands.against: '{}' is not a reference; the references are: {}",
                crate::text::escape(against),
                references.join(", ")
            )));
        }
        if !(0.0..=1.0).contains(&win_rate) {
            return Err(fail(format!(
                "grading.bands.win_rate: {win_rate} is not a rate from 0 to 1 (0.6 for 60%)"
            )));
        }
        bands.push(Band {
            against: against.clone(),
            win_rate,
            marks: b.marks,
        });
    }
    let (roster, roster_path) = match &grading.roster {
        None => (Roster::default(), None),
        Some(file) if places => {
            return Err(src.error_at(
                file.span(),
                "grading.roster: a free-for-all's grades have no roster yet (grades/grades.csv is by team); remove roster".into(),
            ))
        }
        Some(file) => {
            let path = roster_at
                .map(Path::to_path_buf)
                .unwrap_or_else(|| src.base().join(file.get_ref()));
            let admissions = bots_dir
                .map(|d| admission_reasons(&src.base().join(d).join(ADMISSION_CSV)))
                .unwrap_or_default();
            let links = match roster_at {
                Some(_) => Links::Refused,
                None => Links::Followed,
            };
            let roster = read_roster(&path, names, references, &admissions, links)
                .map_err(|e| src.error_at(file.span(), format!("grading.roster: {e}")))?;
            (roster, Some(path))
        }
    };
    Ok(GradingPlan {
        references: references.clone(),
        bands,
        place_bands,
        roster: roster.entries,
        roster_path,
        absent: roster.absent,
    })
}

/// A free-for-all's band: exactly one of `average_place` (1 or more) and
/// `first_share` (0 to 1), and no `against` or `win_rate`.
fn place_band(b: &RawBand) -> Result<PlaceBand, String> {
    if b.against.is_some() || b.win_rate.is_some() {
        return Err("grading.bands: a free-for-all is graded by places, not against references: give average_place = P (at most) or first_share = S (at least) with marks".into());
    }
    match (b.average_place, b.first_share) {
        (Some(place), None) if place >= 1.0 && place.is_finite() => Ok(PlaceBand {
            requirement: PlaceRequirement::AveragePlace(place),
            marks: b.marks,
        }),
        (Some(place), None) => Err(format!(
            "grading.bands.average_place: {place} is not a place (1 is first)"
        )),
        (None, Some(share)) if (0.0..=1.0).contains(&share) => Ok(PlaceBand {
            requirement: PlaceRequirement::FirstShare(share),
            marks: b.marks,
        }),
        (None, Some(share)) => Err(format!(
            "grading.bands.first_share: {share} is not a share from 0 to 1 (0.25 for a quarter of its games)"
        )),
        _ => Err("grading.bands: give one of average_place = P (an average place of at most P) or first_share = S (first at a share S of its games or more), with marks".into()),
    }
}

/// The admission report `referee collect` writes beside its bots.
const ADMISSION_CSV: &str = "admission.csv";

/// Why each team of a collect folder's `admission.csv` was not admitted:
/// `missing (late)`, `broken (compile)`; empty if the file cannot be read.
fn admission_reasons(path: &Path) -> BTreeMap<String, String> {
    let Ok(file) = crate::input_file::reader(path, Links::Refused, crate::input_file::TEXT_CAP)
    else {
        return BTreeMap::new();
    };
    let mut reader = csv::Reader::from_reader(file);
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

/// A roster CSV that does not read as one: the file, the line, and what
/// is wrong there.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {problem}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
pub struct RosterError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub problem: String,
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
    links: Links,
) -> Result<Roster, RosterError> {
    let at = |line: Option<usize>, problem: String| RosterError {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let file = crate::input_file::reader(path, links, crate::input_file::TEXT_CAP)
        .map_err(|e| at(None, e.why()))?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(file);
    let headers = reader
        .byte_headers()
        .map(crate::reporter::csv::restore_record)
        .map_err(|e| at(None, e.to_string()))?;
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| String::from_utf8_lossy(h).eq_ignore_ascii_case(name))
    };
    let (Some(student_col), Some(team_col)) = (column("student"), column("team")) else {
        return Err(at(
            None,
            "the first line must name the columns student,team".into(),
        ));
    };
    let reason_col = column("reason");
    let mut roster = Roster::default();
    for (i, record) in reader.byte_records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| at(Some(line), e.to_string()))?;
        let record = crate::reporter::csv::restore_record(&record);
        let field = |col: Option<usize>| {
            col.and_then(|c| record.get(c))
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .unwrap_or_default()
        };
        let (student, raw_team) = (field(Some(student_col)), field(Some(team_col)));
        if student.is_empty() {
            return Err(at(Some(line), "no student's name".into()));
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
            return Err(at(
                Some(line),
                format!(
                    "the student '{}' has no team",
                    crate::text::escape(&student)
                ),
            ));
        }
        if references.contains(&team) {
            return Err(at(
                Some(line),
                format!(
                    "the team '{}' of '{}' is a reference bot, not a team; the references are: {}",
                    crate::text::escape(&team),
                    crate::text::escape(&student),
                    references.join(", ")
                ),
            ));
        }
        if let Some(other) = roster.entries.iter().find(|r| r.student == student) {
            if other.team == team {
                continue;
            }
            return Err(at(
                Some(line),
                format!(
                    "the student '{}' is listed twice, in the teams '{}' and '{}'",
                    crate::text::escape(&student),
                    crate::text::escape(&other.team),
                    crate::text::escape(&team)
                ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Winner;
    use crate::model::standings::GameRow;

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
            place_bands: vec![],
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
    fn a_roster_team_is_found_under_the_folder_name_collect_gives_it() {
        // collect names `Zoë.py`'s bot `Zo_` (it once dropped the `ë`, and
        // `Zo` was then another team's) and refuses `日本.py` under its own
        // name: the roster's spelling must find both.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("roster.csv");
        std::fs::write(&path, "student,team\nann,Zoë\nbob,Zo\ncy,日本\n").unwrap();
        let names: Vec<String> = ["Zo_", "Zo", "random"].map(String::from).to_vec();
        let admissions = BTreeMap::from([("日本".to_string(), "broken (refused)".to_string())]);
        let roster = read_roster(
            &path,
            &names,
            &["random".to_string()],
            &admissions,
            Links::Followed,
        )
        .unwrap();
        let teams: Vec<(&str, &str)> = roster
            .entries
            .iter()
            .map(|e| (e.student.as_str(), e.team.as_str()))
            .collect();
        assert_eq!(teams, [("ann", "Zo_"), ("bob", "Zo"), ("cy", "日本")]);
        assert_eq!(roster.absent.len(), 1);
        assert_eq!(roster.absent[0].team, "日本");
        assert_eq!(roster.absent[0].reason, "no admitted bot: broken (refused)");
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
