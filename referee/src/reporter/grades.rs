//! The grades of a term contest and the comparison-graph warning, written
//! into a results folder at a tournament's end and by `referee grade DIR`
//! (which grades the folder's `games.csv` again, playing nothing):
//!
//! - `grades/grades.csv`: a row per team: its mark, the band giving it,
//!   and per reference the games, wins, draws, losses, win rate and its
//!   95% Wilson interval;
//! - `grades/students.csv`: a row per student of the roster: team, mark;
//! - `grades/roster.csv`: the roster as graded (`referee grade DIR` reads
//!   it unless given the tournament file);
//! - `grades/leaderboard.csv`: the published table, the standings without
//!   the reference bots (ranks renumbered; `standings.csv` keeps them all);
//! - `grades/TEAM/results.json`: the team's result in Gradescope's format
//!   (`score`, a test per band, `leaderboard` entries);
//! - `grades/TEAM/feedback.md`: its results, its disqualifications with
//!   their detail, and the commands that replay each game it lost;
//! - `comparison-warning.txt`: the groups of bots that never met, when the
//!   comparison graph is not connected (removed when it is).
//!
//! TEAM is the team's name as a safe folder name
//! ([`folder_name`](crate::tournament::plan::folder_name)), with `-2`,
//! `-3`... when two names give the same folder.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::csv::{write_atomically, GAMES_CSV};
use super::{Finish, ReportError, Reporter};
use crate::grading::{self, percent, GradingPlan, TeamGrade};
use crate::tournament::run::for_each_row;
use crate::tournament::{GameRow, Standings};
use crate::transcript;

/// The grades' folder inside a results folder.
pub const GRADES_DIR: &str = "grades";

/// The file that names the groups of a disconnected comparison graph.
pub const COMPARISON_WARNING: &str = "comparison-warning.txt";

/// What grading a folder found.
pub struct Graded {
    pub grades: Vec<TeamGrade>,
    /// The comparison graph's warning, if it is not connected.
    pub warning: Option<String>,
}

/// Which bots met in `out/games.csv` (seat A, seat B), read row by row:
/// one entry a pairing, however many games.
pub fn pairs_of(out: &Path) -> Result<BTreeSet<(String, String)>, ReportError> {
    let path = out.join(GAMES_CSV);
    let mut pairs = BTreeSet::new();
    for_each_row(&path, |row| {
        pairs.insert((row.bot_a, row.bot_b));
        Ok(())
    })
    .map_err(|e| ReportError::new(&path, "cannot read the games", io::Error::other(e)))?;
    Ok(pairs)
}

/// Reads the rows of `out/games.csv`.
pub fn rows_of(out: &Path) -> Result<Vec<GameRow>, ReportError> {
    let path = out.join(GAMES_CSV);
    let mut rows = vec![];
    for_each_row(&path, |row| {
        rows.push(row);
        Ok(())
    })
    .map_err(|e| ReportError::new(&path, "cannot read the games", io::Error::other(e)))?;
    Ok(rows)
}

/// Checks the comparison graph of `rows`: writes (or removes) the warning
/// file in `out`; returns the warning.
pub fn check_comparison(
    out: &Path,
    pairs: &BTreeSet<(String, String)>,
    names: &[String],
) -> Result<Option<String>, ReportError> {
    let path = out.join(COMPARISON_WARNING);
    let pairs = pairs.iter().map(|(a, b)| (a.as_str(), b.as_str()));
    let warning = grading::disconnected_warning(&grading::components(pairs, names));
    match &warning {
        Some(text) => crate::atomic_file::write(&path, text)
            .map_err(|e| ReportError::new(&path, "cannot write", e))?,
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(ReportError::new(&path, "cannot remove the old warning", e))
            }
            _ => {}
        },
    }
    Ok(warning)
}

/// Grades the games of `out` and writes `out/grades/`.
pub fn write_grades(
    out: &Path,
    rows: &[GameRow],
    names: &[String],
    plan: &GradingPlan,
    standings: &Standings,
) -> Result<Vec<TeamGrade>, ReportError> {
    let grades = grading::grade(rows, names, plan);
    let dir = out.join(GRADES_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| ReportError::new(&dir, "cannot create", e))?;
    write_atomically(&dir.join("grades.csv"), |w| {
        let mut header = vec!["team".to_string(), "marks".into(), "band".into()];
        for r in &plan.references {
            for column in [
                "games", "wins", "draws", "losses", "win_rate", "low", "high",
            ] {
                header.push(format!("{column}_vs_{r}"));
            }
        }
        w.write_record(&header)?;
        for g in &grades {
            let mut record = vec![
                g.team.clone(),
                g.marks.to_string(),
                g.band.as_ref().map_or(String::new(), |b| b.describe()),
            ];
            for e in &g.evidence {
                record.extend([
                    e.games.to_string(),
                    e.wins.to_string(),
                    e.draws.to_string(),
                    e.losses.to_string(),
                    format!("{:.4}", e.win_rate),
                    format!("{:.4}", e.low),
                    format!("{:.4}", e.high),
                ]);
            }
            w.write_record(&record)?;
        }
        Ok(())
    })?;
    write_atomically(&dir.join(grading::ROSTER_COPY), |w| {
        w.write_record(["student", "team"])?;
        plan.roster
            .iter()
            .try_for_each(|e| w.write_record([&e.student, &e.team]))
    })?;
    write_atomically(&dir.join("students.csv"), |w| {
        w.write_record(["student", "team", "marks"])?;
        for entry in &plan.roster {
            let marks = grades
                .iter()
                .find(|g| g.team == entry.team)
                .map_or(0.0, |g| g.marks);
            w.write_record([&entry.student, &entry.team, &marks.to_string()])?;
        }
        Ok(())
    })?;
    let published: Vec<_> = standings
        .rows()
        .into_iter()
        .filter(|r| !plan.references.contains(&r.bot))
        .enumerate()
        .map(|(i, mut r)| {
            r.rank = i + 1;
            r
        })
        .collect();
    write_atomically(&dir.join("leaderboard.csv"), |w| {
        published.iter().try_for_each(|r| w.serialize(r))
    })?;
    let mut taken = BTreeSet::new();
    for g in &grades {
        let folder = dir.join(team_folder(&g.team, &mut taken));
        std::fs::create_dir_all(&folder)
            .map_err(|e| ReportError::new(&folder, "cannot create", e))?;
        let rating = published.iter().find(|r| r.bot == g.team).map(|r| r.rating);
        let results = results_json(g, rating);
        let path = folder.join("results.json");
        let text = serde_json::to_string_pretty(&results).expect("JSON of plain values");
        crate::atomic_file::write(&path, text + "\n")
            .map_err(|e| ReportError::new(&path, "cannot write", e))?;
        let path = folder.join("feedback.md");
        crate::atomic_file::write(&path, feedback(g, out))
            .map_err(|e| ReportError::new(&path, "cannot write", e))?;
    }
    Ok(grades)
}

/// A team's folder name, unique among those `taken`.
fn team_folder(team: &str, taken: &mut BTreeSet<String>) -> String {
    let base = crate::tournament::plan::folder_name(team).unwrap_or_else(|_| "team".into());
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// The evidence against one reference, in words.
fn evidence_line(e: &grading::Evidence) -> String {
    if e.games == 0 {
        return format!("no games against {}", e.against);
    }
    format!(
        "{} games against {}: {} won, {} drawn, {} lost; win rate {} (95% interval {} to {})",
        e.games,
        e.against,
        e.wins,
        e.draws,
        e.losses,
        percent(e.win_rate),
        percent(e.low),
        percent(e.high)
    )
}

/// Gradescope's `results.json`: the mark as `score`, a test per band, the
/// win rates (and the rating, if the team is rated) as leaderboard entries.
fn results_json(g: &TeamGrade, rating: Option<f64>) -> serde_json::Value {
    let tests: Vec<serde_json::Value> = g
        .bands
        .iter()
        .map(|b| {
            let e = g.evidence.iter().find(|e| e.against == b.band.against);
            json!({
                "name": b.band.describe(),
                "score": if b.met { b.band.marks } else { 0.0 },
                "max_score": b.band.marks,
                "status": if b.met { "passed" } else { "failed" },
                "output": e.map(evidence_line).unwrap_or_default(),
            })
        })
        .collect();
    let mut leaderboard: Vec<serde_json::Value> = g
        .evidence
        .iter()
        .map(|e| json!({ "name": format!("win rate vs {}", e.against), "value": e.win_rate }))
        .collect();
    if let Some(rating) = rating {
        leaderboard.push(json!({ "name": "rating", "value": rating }));
    }
    json!({
        "score": g.marks,
        "output": format!(
            "{}: {} marks{}",
            g.team,
            g.marks,
            g.band.as_ref().map_or(String::from(" (no band met)"), |b| format!(" ({})", b.describe()))
        ),
        "tests": tests,
        "leaderboard": leaderboard,
    })
}

/// The replay command of game `game` of `out`, from its transcript.
fn replay_command(out: &Path, game: u64) -> Option<String> {
    let path = out
        .join("transcripts")
        .join(format!("game-{game:06}.jsonl"));
    let (entries, _) = transcript::read_prefix_kept(&path).ok()?;
    entries.iter().find_map(|e| match e {
        transcript::Entry::Result { record } if !record.replay.is_empty() => {
            Some(crate::report::as_invoked(&record.replay))
        }
        _ => None,
    })
}

/// A team's feedback in Markdown.
fn feedback(g: &TeamGrade, out: &Path) -> String {
    let name = crate::text::escape(&g.team);
    let mut text = format!("# Feedback for {name}\n\n**Mark: {}**", g.marks);
    match &g.band {
        Some(b) => text.push_str(&format!(" ({})\n\n", b.describe())),
        None => text.push_str(" (no band met)\n\n"),
    }
    text.push_str("## Results against the references\n\n");
    text.push_str("| reference | games | won | drawn | lost | win rate | 95% interval |\n");
    text.push_str("|---|---|---|---|---|---|---|\n");
    for e in &g.evidence {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} to {} |\n",
            crate::text::escape(&e.against),
            e.games,
            e.wins,
            e.draws,
            e.losses,
            percent(e.win_rate),
            percent(e.low),
            percent(e.high)
        ));
    }
    let esc = crate::text::escape;
    push_list(
        &mut text,
        "\nA draw counts half a win.\n\n## Bands\n\n",
        "No bands.\n",
        &g.bands,
        |b| {
            format!(
                "- [{}] {}: {} marks\n",
                if b.met { "x" } else { " " },
                b.band.describe(),
                b.band.marks
            )
        },
    );
    push_list(
        &mut text,
        "\n## Disqualifications\n\n",
        "None.\n",
        &g.disqualified,
        |d| {
            format!(
                "- game {} against {}: {}: {}\n",
                d.game,
                esc(&d.opponent),
                d.verdict.as_deref().unwrap_or("?"),
                esc(&d.detail)
            )
        },
    );
    let lost_heading =
        "\n## Lost games\n\nEach command plays the game again, as it was played.\n\n";
    push_list(&mut text, lost_heading, "None.\n", &g.lost, |l| {
        let replay = match replay_command(out, l.game) {
            Some(command) => format!("\n  ```sh\n  {}\n  ```\n\n", esc(&command)),
            None => "  (no transcript of this game in the results folder)\n".to_string(),
        };
        format!(
            "- game {} against {} ({}):\n{replay}",
            l.game,
            esc(&l.opponent),
            esc(&l.reason)
        )
    });
    text
}

/// `heading`, then a line per item, or `none` when there is no item.
fn push_list<T>(
    text: &mut String,
    heading: &str,
    none: &str,
    items: &[T],
    line: impl Fn(&T) -> String,
) {
    text.push_str(heading);
    if items.is_empty() {
        text.push_str(none);
    }
    for item in items {
        text.push_str(&line(item));
    }
}

/// At a tournament's end: the comparison-graph warning (stderr and
/// [`COMPARISON_WARNING`]) and, with a `[grading]` section, the grades.
pub struct TournamentGrades {
    out: PathBuf,
    names: Vec<String>,
    plan: Option<GradingPlan>,
}

impl TournamentGrades {
    pub fn new(out: &Path, names: Vec<String>, plan: Option<GradingPlan>) -> TournamentGrades {
        TournamentGrades {
            out: out.to_path_buf(),
            names,
            plan,
        }
    }
}

impl Reporter for TournamentGrades {
    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        let Finish::Tournament { standings, .. } = finish else {
            return Ok(());
        };
        let graded = grade_folder(&self.out, &self.names, self.plan.as_ref(), standings)?;
        if let Some(warning) = &graded.warning {
            eprint!("{warning}");
        }
        if self.plan.is_some() {
            eprintln!("{}", grades_line(&self.out, &graded.grades));
        }
        Ok(())
    }
}

/// Grades a results folder (the warning, and the grades if `plan`).
pub fn grade_folder(
    out: &Path,
    names: &[String],
    plan: Option<&GradingPlan>,
    standings: &Standings,
) -> Result<Graded, ReportError> {
    // Every row is held only to grade: the warning needs the pairings.
    let warning = check_comparison(out, &pairs_of(out)?, names)?;
    let grades = match plan {
        Some(plan) => write_grades(out, &rows_of(out)?, names, plan, standings)?,
        None => vec![],
    };
    Ok(Graded { grades, warning })
}

/// The line that says where the grades are.
pub fn grades_line(out: &Path, grades: &[TeamGrade]) -> String {
    format!(
        "grades: {} teams graded into {}",
        grades.len(),
        out.join(GRADES_DIR).join("grades.csv").display()
    )
}
