//! The grades of a term contest and the comparison-graph warning, written
//! into a results folder at a tournament's end and by `referee grade DIR`
//! (which grades the folder's `games.csv` again, playing nothing):
//!
//! - `grades/grades.csv`: a row per team (the roster's teams without a
//!   bot last): its mark, the band giving it, the reason for the mark, and
//!   per reference the games, wins, draws, losses, win rate and its 95%
//!   Wilson interval;
//! - `grades/students.csv`: a row per student of the roster: team, mark,
//!   reason;
//! - `grades/roster.csv`: the roster as graded, with the reason of each
//!   team without a bot (`referee grade DIR` reads it unless given the
//!   tournament file);
//! - `grades/leaderboard.csv`: the published table, the standings without
//!   the reference bots (ranks renumbered; `standings.csv` keeps them all);
//! - `grades/TEAM/results.json`: the team's result in Gradescope's format
//!   (`score`, a test per band whose scores add up to it, `leaderboard`
//!   entries);
//! - `grades/TEAM/feedback.md`: its results, its disqualifications with
//!   their detail, and for each game it lost the `referee reproduce`
//!   command a student runs in the folder with their own bot;
//! - `grades/TEAM/transcripts/game-NNNNNN.jsonl`: the transcripts of those
//!   games, without the referee's key (see [`student_transcript`]);
//! - `comparison-warning.txt`: the groups of bots that never met, when the
//!   comparison graph is not connected (removed when it is).
//!
//! TEAM is the team's name as a safe folder name
//! ([`folder_name`](crate::model::folder::folder_name)), with `-2`,
//! `-3`... when two names give the same folder.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::csv::{write_atomically, GAMES_CSV};
use super::folder::for_each_row;
use super::{Finish, ReportError, Reporter};
use crate::model::grades::{self as grading, percent, GradingPlan, TeamGrade};
use crate::model::standings::{GameRow, Standings};
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
        let mut header = vec![
            "team".to_string(),
            "marks".into(),
            "band".into(),
            "reason".into(),
        ];
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
                g.reason(),
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
        w.write_record(["student", "team", "reason"])?;
        plan.roster.iter().try_for_each(|e| {
            let absent = plan.absent.iter().find(|a| a.team == e.team);
            let reason = absent.map_or("", |a| a.reason.as_str());
            w.write_record([e.student.as_str(), &e.team, reason])
        })
    })?;
    write_atomically(&dir.join("students.csv"), |w| {
        w.write_record(["student", "team", "marks", "reason"])?;
        for entry in &plan.roster {
            let grade = grades.iter().find(|g| g.team == entry.team);
            let marks = grade.map_or(0.0, |g| g.marks);
            let reason = grade.map_or(String::new(), TeamGrade::reason);
            w.write_record([&entry.student, &entry.team, &marks.to_string(), &reason])?;
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
        let copied = copy_transcripts(g, out, &folder)?;
        let path = folder.join("feedback.md");
        crate::atomic_file::write(&path, feedback(g, &copied))
            .map_err(|e| ReportError::new(&path, "cannot write", e))?;
    }
    Ok(grades)
}

/// The folder of a team's transcripts inside its grades folder.
const TRANSCRIPTS: &str = "transcripts";

/// Copies the transcripts of the games `g` lost or was disqualified in
/// into `folder/transcripts/`, as [`student_transcript`]s; the numbers
/// of the games copied (a game without a readable transcript is not).
/// Transcripts of games no longer lost are removed.
fn copy_transcripts(
    g: &TeamGrade,
    out: &Path,
    folder: &Path,
) -> Result<BTreeSet<u64>, ReportError> {
    let dir = folder.join(TRANSCRIPTS);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| ReportError::new(&dir, "cannot empty", e))?;
    }
    let games: BTreeSet<u64> = g
        .lost
        .iter()
        .chain(&g.disqualified)
        .map(|n| n.game)
        .collect();
    let mut copied = BTreeSet::new();
    for game in games {
        let name = transcript_name(game);
        let Ok(entries) = transcript::read(&out.join(TRANSCRIPTS).join(&name)) else {
            continue;
        };
        std::fs::create_dir_all(&dir).map_err(|e| ReportError::new(&dir, "cannot create", e))?;
        let path = dir.join(&name);
        crate::atomic_file::write(&path, student_transcript(entries, &g.team))
            .map_err(|e| ReportError::new(&path, "cannot write", e))?;
        copied.insert(game);
    }
    Ok(copied)
}

fn transcript_name(game: u64) -> String {
    format!("game-{game:06}.jsonl")
}

/// A transcript as a team may have it: the replay command without the
/// referee's key (`--key`, `--key-file`: it draws every game's secrets),
/// and without the other seat's stderr (another team's, perhaps).
/// `referee reproduce` plays it with a new key.
pub fn student_transcript(entries: Vec<transcript::Entry>, team: &str) -> String {
    let mut text = String::new();
    let mut ours = None;
    for mut entry in entries {
        match &mut entry {
            transcript::Entry::Header { bots, .. } => {
                ours = bots.iter().position(|b| b == team);
            }
            transcript::Entry::Message { bot, dir, .. }
                if *dir == transcript::Direction::Stderr && Some(bot.index()) != ours =>
            {
                continue;
            }
            transcript::Entry::Result { record } => match record.plan.take() {
                Some(plan) => {
                    let plan = plan.without_key();
                    record.replay = plan.command();
                    record.plan = Some(plan);
                }
                // Written before records kept their plan.
                None => record.replay = without_key(&record.replay),
            },
            _ => {}
        }
        text.push_str(&serde_json::to_string(&entry).expect("JSON of plain values"));
        text.push('\n');
    }
    text
}

/// A command line without its key options and their values.
fn without_key(command: &str) -> String {
    let Ok(words) = shell_words::split(command) else {
        return String::new();
    };
    let mut kept = vec![];
    let mut skip = false;
    for word in words {
        if std::mem::take(&mut skip) {
            continue;
        }
        match word.as_str() {
            "--key" | "--key-file" => skip = true,
            w if w.starts_with("--key=") || w.starts_with("--key-file=") => {}
            _ => kept.push(word),
        }
    }
    shell_words::join(kept)
}

/// A team's folder name, unique among those `taken`.
fn team_folder(team: &str, taken: &mut BTreeSet<String>) -> String {
    let base = crate::model::folder::folder_name(team).unwrap_or_else(|_| "team".into());
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
///
/// The mark is the highest band met, not a sum, so the tests share the
/// marks out as a ladder: bands in order of marks, each test worth its
/// band's marks less the band below's (`max_score`s add up to the highest
/// band), and scored the part of that slice the mark reaches. The tests'
/// scores add up to the mark, as Gradescope shows them.
fn results_json(g: &TeamGrade, rating: Option<f64>) -> serde_json::Value {
    let mut ladder: Vec<&grading::BandResult> = g.bands.iter().collect();
    ladder.sort_by(|a, b| a.band.marks.total_cmp(&b.band.marks));
    let mut below = 0.0;
    let tests: Vec<serde_json::Value> = ladder
        .into_iter()
        .map(|b| {
            let top = b.band.marks;
            let (max, score) = (top - below, (g.marks.min(top) - below).max(0.0));
            let e = g.evidence.iter().find(|e| e.against == b.band.against);
            let met = if b.met {
                "met"
            } else if score > 0.0 {
                "not met, but a higher band met gives these marks"
            } else {
                "not met"
            };
            let output = format!(
                "{met}; this test holds the marks from {below} to {top} of the ladder; {}",
                g.absent
                    .clone()
                    .unwrap_or_else(|| e.map(evidence_line).unwrap_or_default())
            );
            below = top.max(below);
            json!({
                "name": format!("{} ({top} marks)", b.band.describe()),
                "score": score,
                "max_score": max.max(0.0),
                "status": if b.met || (score > 0.0 && score >= max) { "passed" } else { "failed" },
                "output": output,
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
        "output": format!("{}: {} marks ({})", g.team, g.marks, g.reason()),
        "tests": tests,
        "leaderboard": leaderboard,
    })
}

/// `text` as a Markdown code span that nothing in it can end: a fence of
/// one more backtick than its longest run of backticks, control
/// characters (line breaks among them) escaped so it stays on one line,
/// and a space inside each end when it starts or ends with a backtick or
/// a space (CommonMark strips one space each side). Markdown and HTML in
/// it show as the text they are.
pub fn code(text: &str) -> String {
    let text = crate::text::escape(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) || text.is_empty();
    let space = if pad { " " } else { "" };
    format!("{fence}{space}{text}{space}{fence}")
}

/// [`code`] for a cell of a Markdown table: `|` (which ends a cell even
/// inside a code span) escaped as the table syntax allows.
fn code_cell(text: &str) -> String {
    code(text).replace('|', "\\|")
}

/// A team's feedback in Markdown. Every name and text a bot or a team
/// chose (names, verdicts' detail, reasons) is a [`code`] span. `copied`:
/// the games whose transcripts are in the team's `transcripts/`.
fn feedback(g: &TeamGrade, copied: &BTreeSet<u64>) -> String {
    let mut text = format!(
        "# Feedback for {}\n\n**Mark: {}** ({})\n\n",
        code(&g.team),
        g.marks,
        code(&g.reason())
    );
    if g.absent.is_some() {
        text.push_str("Your team played no game: it had no admitted bot.\n\n");
    }
    text.push_str("## Results against the references\n\n");
    text.push_str("| reference | games | won | drawn | lost | win rate | 95% interval |\n");
    text.push_str("|---|---|---|---|---|---|---|\n");
    for e in &g.evidence {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} to {} |\n",
            code_cell(&e.against),
            e.games,
            e.wins,
            e.draws,
            e.losses,
            percent(e.win_rate),
            percent(e.low),
            percent(e.high)
        ));
    }
    push_list(
        &mut text,
        "\nA draw counts half a win.\n\n## Bands\n\n",
        "No bands.\n",
        &g.bands,
        |b| {
            format!(
                "- [{}] {}: {} marks\n",
                if b.met { "x" } else { " " },
                code(&b.band.describe()),
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
                code(&d.opponent),
                code(d.verdict.as_deref().unwrap_or("?")),
                code(&d.detail)
            )
        },
    );
    let lost_heading = "\n## Lost games\n\n\
        The transcript of each game is in `transcripts/` beside this file. \
        In this folder, the command under a game plays it again with your bot \
        (give its program, source file or folder for `MY_BOT`), \
        the opponent's recorded moves played back: \
        all it needs is the `referee` program and your bot.\n\n";
    push_list(&mut text, lost_heading, "None.\n", &g.lost, |l| {
        let replay = if copied.contains(&l.game) {
            let command = format!(
                "referee reproduce {TRANSCRIPTS}/{} --bot MY_BOT --seat {}",
                transcript_name(l.game),
                l.seat
            );
            format!("\n  ```sh\n  {command}\n  ```\n\n")
        } else {
            "  (no transcript of this game in the results folder)\n".to_string()
        };
        format!(
            "- game {} against {} ({}):\n{replay}",
            l.game,
            code(&l.opponent),
            code(&l.reason)
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
        let Finish::Tournament { standings, outcome } = finish else {
            return Ok(());
        };
        let graded = grade_folder(&self.out, &self.names, self.plan.as_ref(), standings)?;
        if let Some(warning) = &graded.warning {
            eprint!("{warning}");
        }
        if let Some(plan) = &self.plan {
            if let Some(warning) = unclaimed_warning(&graded.grades, plan) {
                eprint!("{warning}");
            }
            eprintln!("{}", grades_line(&self.out, &graded.grades));
            // A stopped run's grades are of the games played so far: a
            // team that has not met a reference yet has 0 against it.
            if outcome.total_in_folder < outcome.scheduled {
                eprintln!(
                    "warning: the grades are of {} of the {} games scheduled; finish the run (--resume) before handing them out",
                    outcome.total_in_folder, outcome.scheduled
                );
            }
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

/// With a roster, the graded teams that no student of it is in: their
/// marks go to nobody, most often because the roster spells the team
/// otherwise than its bot (`Alpha` for the bot `alpha`: its students get
/// the 0 of a team without a bot). A warning for stderr that names them
/// and the roster's teams without a bot; `None` without a roster or when
/// every graded team has a student.
pub fn unclaimed_warning(grades: &[TeamGrade], plan: &GradingPlan) -> Option<String> {
    let roster = plan.roster_path.as_ref()?;
    let names = |teams: Vec<&String>| {
        teams
            .iter()
            .map(|t| format!("'{}'", crate::text::escape(t)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let unclaimed: Vec<&String> = grades
        .iter()
        .filter(|g| g.absent.is_none() && !plan.roster.iter().any(|r| r.team == g.team))
        .map(|g| &g.team)
        .collect();
    if unclaimed.is_empty() {
        return None;
    }
    let absent: Vec<&String> = plan.absent.iter().map(|a| &a.team).collect();
    let hint = if absent.is_empty() {
        String::new()
    } else {
        format!(
            "; the roster's teams without a bot, whose students get 0: {}",
            names(absent)
        )
    };
    Some(format!(
        "warning: no student of the roster {} is in the teams {}: their marks go to nobody{hint}; check that the roster names each team as its bot is named\n",
        roster.display(),
        names(unclaimed)
    ))
}

/// The line that says where the grades are.
pub fn grades_line(out: &Path, grades: &[TeamGrade]) -> String {
    format!(
        "grades: {} teams graded into {}",
        grades.len(),
        out.join(GRADES_DIR).join("grades.csv").display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::grades::{Band, BandResult};

    /// A team with bands of 80 (against strong) and 50 (against random),
    /// in that order in the file, met as `met` says.
    fn team(marks: f64, met: [bool; 2]) -> TeamGrade {
        let band = |against: &str, marks| Band {
            against: against.into(),
            win_rate: 0.5,
            marks,
        };
        TeamGrade {
            team: "t".into(),
            marks,
            band: None,
            evidence: vec![],
            bands: vec![
                BandResult {
                    band: band("strong", 80.0),
                    met: met[0],
                },
                BandResult {
                    band: band("random", 50.0),
                    met: met[1],
                },
            ],
            lost: vec![],
            disqualified: vec![],
            absent: None,
        }
    }

    #[test]
    fn gradescope_tests_are_a_ladder_that_adds_up_to_the_mark() {
        for (marks, met, scores, status) in [
            (80.0, [true, true], [50.0, 30.0], ["passed", "passed"]),
            (80.0, [true, false], [50.0, 30.0], ["passed", "passed"]),
            (50.0, [false, true], [50.0, 0.0], ["passed", "failed"]),
            (0.0, [false, false], [0.0, 0.0], ["failed", "failed"]),
        ] {
            let json = results_json(&team(marks, met), None);
            let tests = json["tests"].as_array().unwrap();
            let column =
                |k: &str| -> Vec<f64> { tests.iter().map(|t| t[k].as_f64().unwrap()).collect() };
            assert_eq!(column("max_score"), [50.0, 30.0]);
            assert_eq!(column("score"), scores, "{marks} {met:?}");
            let shown: Vec<&str> = tests
                .iter()
                .map(|t| t["status"].as_str().unwrap())
                .collect();
            assert_eq!(shown, status, "{marks} {met:?}");
            assert_eq!(json["score"], marks);
        }
    }

    #[test]
    fn code_spans_hold_any_text() {
        assert_eq!(code("a"), "`a`");
        assert_eq!(code("x`y"), "``x`y``");
        assert_eq!(code("``<img src=x>``"), "``` ``<img src=x>`` ```");
        assert_eq!(code("a\nb"), "`a\\x0ab`");
        assert_eq!(code(""), "`  `");
        assert_eq!(code_cell("a|b"), "`a\\|b`");
    }
}
