//! The HTML report: a static site made from a results folder, that works
//! from `file://` and loads nothing from the network.
//!
//! - `report/index.html`: the leaderboard (standings, disqualifications by
//!   kind, ratings with their intervals as an SVG chart, the crosstable as a
//!   heat map, a Swiss tournament's final order and rounds, the groups of
//!   a tournament of groups, a knockout's bracket, the settings, when it
//!   ran);
//! - `report/bots/bot-N.html`: a bot's results against each opponent (worst
//!   first), its disqualifications with their detail, move and last stderr
//!   lines, and the distribution of its move times, CPU times and memory;
//! - `report/games/game-NNNNNN.html`: a game's replay viewer (the game as
//!   [`view::GameView`] JSON in the page, drawn by `viewer.js`);
//! - `report/grades.html`: with a `[grading]` section, each team's mark,
//!   the band giving it, its win rate and 95% interval against each
//!   reference, and the reason for the mark; the students of the roster
//!   with theirs (linked beside the leaderboard; from `grades/`);
//! - `report/assets/`: the style sheet and the viewer's script.
//!
//! Pages come from minijinja templates (`templates/`, compiled in; an
//! organiser may override any of them with `--templates DIR`), escaped
//! automatically: whatever a bot calls itself or prints cannot become
//! markup. JSON embedded in a page has `<`, `>` and `&` written as `\u003c`
//! and so on, so it cannot close its `<script>` element.
//!
//! The whole report is written into a fresh folder beside the old one and
//! swapped in at the end, so a kill leaves the previous report or the new
//! one, never half of each. While a tournament runs, [`LiveReport`] rewrites
//! only the leaderboard (atomically) every few seconds, with a refresh tag.

mod ffa;
mod read;
pub mod svg;
pub mod view;

use std::collections::BTreeMap;

use crate::reporter::fixed;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use minijinja::{context, Environment};
use serde::Serialize;

use crate::input_file::{self, InputError, Links};
use crate::model::folder::FolderMeta;
use crate::model::standings::{GameRow, Scoring, Standings};
use crate::reporter::folder::for_each_row;
use crate::reporter::{Finish, Place, ReportError, Reporter, Run};
use crate::transcript;
use crate::verdict::Verdict;

use read::*;

/// The report's folder inside a results folder.
pub const REPORT_DIR: &str = "report";

/// How often a running tournament rewrites its leaderboard page.
pub const LIVE_EVERY: Duration = Duration::from_secs(3);

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("index.html", include_str!("templates/index.html")),
    ("bot.html", include_str!("templates/bot.html")),
    ("game.html", include_str!("templates/game.html")),
    ("check.html", include_str!("templates/check.html")),
    ("grades.html", include_str!("templates/grades.html")),
    ("ffa.html", include_str!("templates/ffa.html")),
];
const STYLE: &str = include_str!("templates/style.css");
const VIEWER: &str = include_str!("templates/viewer.js");
/// `shown(text)`, the one function through which every page's script
/// shows text a bot wrote (the viewer, `serve`'s live pages). Not one of
/// the templates an organiser replaces: it is the pages' escape, as the
/// templates' formatter is.
pub(crate) const SHOWN_JS: &str = include_str!("templates/shown.js");

/// Where the pages' templates come from.
#[derive(Clone, Debug, Default)]
pub struct Templates {
    /// A folder whose files replace the built-in templates of the same name
    /// (`index.html`, `bot.html`, `game.html`, `grades.html`, `base.html`, `style.css`,
    /// `viewer.js`).
    pub dir: Option<PathBuf>,
}

impl Templates {
    fn source(&self, name: &str, built_in: &'static str) -> Result<String, ReportError> {
        if let Some(dir) = &self.dir {
            let path = dir.join(name);
            if path.exists() {
                return input_file::read_to_string(&path, Links::Followed, input_file::TEXT_CAP)
                    .map_err(|e| ReportError::new(&path, "cannot read the template", e.into()));
            }
        }
        Ok(built_in.to_string())
    }

    fn environment(&self) -> Result<Environment<'static>, ReportError> {
        let mut env = Environment::new();
        // A bot's or a judge's text (a move, a log line, a frame) shows
        // its control characters escaped (`\x1b`), as on the terminal, and
        // so do the characters that hide or reorder text: raw, they were
        // in the page's bytes (a saved page `cat` in a terminal ran them),
        // and a direction override garbled the text around it. Line
        // breaks stay. Text marked safe (the pages' own JSON and markup)
        // is left as it is.
        env.set_formatter(|out, state, value| match value.as_str() {
            Some(text) if !value.is_safe() => minijinja::escape_formatter(
                out,
                state,
                &minijinja::Value::from(crate::text::escape_lines(text).as_ref()),
            ),
            _ => minijinja::escape_formatter(out, state, value),
        });
        for (name, built_in) in TEMPLATES {
            let source = self.source(name, built_in)?;
            env.add_template_owned(name.to_string(), source)
                .map_err(|e| template_error(name, e))?;
        }
        Ok(env)
    }
}

fn template_error(name: &str, e: minijinja::Error) -> ReportError {
    ReportError::new(
        Path::new(name),
        "template error",
        std::io::Error::other(format!("{e:#}")),
    )
}

/// What a written report holds.
#[derive(Debug)]
pub struct Written {
    pub folder: PathBuf,
    pub games: usize,
    pub bots: usize,
    /// Bytes of the leaderboard page, and of every file.
    pub index_bytes: u64,
    pub total_bytes: u64,
}

/// JSON for a `<script type="application/json">` element: nothing in it can
/// end the element or start markup.
pub fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// A leaderboard row for the template.
#[derive(Serialize)]
struct BoardRow {
    rank: usize,
    bot: String,
    page: String,
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    points: u32,
    rating: String,
    interval: String,
    dq: Vec<u32>,
    dq_total: u32,
}

/// A crosstable cell: the score of the row's bot against the column's, as
/// a share for the heat map, linked to their games on the row bot's page.
#[derive(Serialize)]
struct Cell {
    text: String,
    heat: u32,
    link: String,
}

/// The grades page, beside the leaderboard.
const GRADES_PAGE: &str = "grades.html";

fn bot_page(index: usize) -> String {
    format!("bot-{index}.html")
}

fn game_page(number: u64) -> String {
    format!("game-{number:06}.html")
}

fn leaderboard(
    env: &Environment<'_>,
    results: &Results,
    live: bool,
    ran: &str,
    time_scale: Option<&str>,
) -> Result<String, ReportError> {
    let index: BTreeMap<&str, usize> = results
        .meta
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let standings = results.standings.rows();
    let board: Vec<BoardRow> = standings
        .iter()
        .map(|s| BoardRow {
            rank: s.rank,
            bot: s.bot.clone(),
            page: format!("bots/{}", bot_page(index[s.bot.as_str()])),
            played: s.played,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            points: s.points,
            rating: fixed(s.rating, 0),
            interval: format!("{} to {}", fixed(s.rating_low, 0), fixed(s.rating_high, 0)),
            dq: Verdict::ALL
                .iter()
                .filter(|v| **v != Verdict::Ok)
                .map(|&v| s.dq(v))
                .collect(),
            dq_total: s.disqualifications(),
        })
        .collect();
    let chart = svg::ratings(
        &standings
            .iter()
            .map(|s| svg::Rating {
                bot: &s.bot,
                rating: s.rating,
                low: s.rating_low,
                high: s.rating_high,
            })
            .collect::<Vec<_>>(),
    );
    // Crosstable in rank order: points share of the row bot over the column bot.
    let order: Vec<usize> = standings.iter().map(|s| index[s.bot.as_str()]).collect();
    let mut score = vec![vec![(0u32, 0u32); results.meta.bots.len()]; results.meta.bots.len()];
    for row in &results.rows {
        let (Some(&a), Some(&b)) = (index.get(row.bot_a.as_str()), index.get(row.bot_b.as_str()))
        else {
            continue;
        };
        let (half_a, half_b) = match row.outcome() {
            Ok(crate::games::Winner::A) => (2, 0),
            Ok(crate::games::Winner::B) => (0, 2),
            _ => (1, 1),
        };
        score[a][b].0 += half_a;
        score[a][b].1 += 2;
        score[b][a].0 += half_b;
        score[b][a].1 += 2;
    }
    let crosstable: Vec<Vec<Cell>> = order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| {
                    let (won, of) = score[i][j];
                    if i == j || of == 0 {
                        Cell {
                            text: String::new(),
                            heat: 99,
                            link: String::new(),
                        }
                    } else {
                        Cell {
                            text: format!("{}/{}", half(won), of / 2),
                            heat: won * 10 / of.max(1),
                            link: format!("bots/{}#vs-{j}", bot_page(i)),
                        }
                    }
                })
                .collect()
        })
        .collect();
    let names: Vec<&str> = order
        .iter()
        .map(|&i| results.meta.bots[i].as_str())
        .collect();
    let verdicts: Vec<String> = Verdict::ALL
        .iter()
        .filter(|v| **v != Verdict::Ok)
        .map(|v| v.to_string())
        .collect();
    let seed = settings_seed(&results.settings);
    env.get_template("index.html")
        .and_then(|t| {
            t.render(context! {
                title => results.meta.name,
                game => results.meta.game,
                live => live,
                refresh => LIVE_EVERY.as_secs(),
                board => board,
                ranked_by => results.standings.ranking().describe(),
                verdicts => verdicts,
                chart => chart,
                names => names,
                crosstable => crosstable,
                settings => results.settings,
                seed => seed,
                games_done => results.rows.len(),
                games_total => results.meta.total_games,
                shard => results.meta.shard.map(|(i, n)| format!("{i}/{n}")),
                format => results.meta.format,
                swiss => results.swiss,
                rounds => results.rounds,
                groups => results.groups,
                bracket => results.bracket,
                ran => ran,
                time_scale => time_scale,
                scoring => format!("win {}, draw {}, loss {}", results.meta.scoring.0, results.meta.scoring.1, results.meta.scoring.2),
                grades_page => (!live && results.grades.is_some()).then_some(GRADES_PAGE),
                root => "",
            })
        })
        .map_err(|e| template_error("index.html", e))
}

/// `3`, `2.5`: points counted in halves.
fn half(halves: u32) -> String {
    if halves % 2 == 0 {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

/// The tournament file's `seed = N`, safe to publish: without the secret
/// key (never in the report) it draws nothing.
fn settings_seed(settings: &str) -> Option<String> {
    let table: toml::Table = settings.parse().ok()?;
    table.get("seed").map(|s| s.to_string())
}

/// The time scale the games were played under, as `referee tournament
/// --time-scale` wrote it in the folder's `sandbox.txt` (`None`: 1, or not
/// said).
fn time_scale_of(folder: &Path) -> Option<String> {
    let note = fs::read_to_string(folder.join("sandbox.txt")).ok()?;
    note.lines().find_map(|line| {
        let rest = line.strip_prefix("time scale: ")?;
        Some(rest.split_whitespace().next()?.to_string())
    })
}

/// When the results were made: the first game's start (from its
/// transcript) to the last change of games.csv.
fn when_ran(folder: &Path, first_start: Option<f64>) -> String {
    let last = fs::metadata(folder.join(crate::reporter::csv::GAMES_CSV))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs());
    match (first_start, last) {
        (Some(first), Some(last)) => format!(
            "{} to {}",
            crate::units::utc_minute(first as u64),
            crate::units::utc_minute(last)
        ),
        (None, Some(last)) => format!("last game {}", crate::units::utc_minute(last)),
        _ => "not yet".to_string(),
    }
}

/// Writes the leaderboard page alone, atomically (the live view of a
/// running tournament).
pub fn write_leaderboard(
    folder: &Path,
    templates: &Templates,
    live: bool,
) -> Result<(), ReportError> {
    let html = leaderboard_html(folder, templates, live)?;
    let out = folder.join(REPORT_DIR);
    fs::create_dir_all(out.join("assets"))
        .map_err(io_error(&out, "cannot create the report folder"))?;
    write_assets(&out, templates)?;
    let path = out.join("index.html");
    crate::atomic_file::write(&path, html).map_err(io_error(&path, "cannot write"))
}

/// The leaderboard page of the results folder as it is now (`live`: the
/// page of a tournament still running, without links to pages not yet
/// written).
pub fn leaderboard_html(
    folder: &Path,
    templates: &Templates,
    live: bool,
) -> Result<String, ReportError> {
    if crate::reporter::folder::is_free_for_all(folder) {
        return ffa::ffa_leaderboard_html(folder, templates);
    }
    let results = read_results(folder)?;
    let env = templates.environment()?;
    leaderboard(
        &env,
        &results,
        live,
        &when_ran(folder, None),
        time_scale_of(folder).as_deref(),
    )
}

/// A report asset's built-in text (`style.css`, `viewer.js`, `shown.js`),
/// for a server of a folder whose report was not written.
pub fn built_in_asset(name: &str) -> Option<&'static str> {
    match name {
        "style.css" => Some(STYLE),
        "viewer.js" => Some(VIEWER),
        "shown.js" => Some(SHOWN_JS),
        _ => None,
    }
}

fn write_assets(out: &Path, templates: &Templates) -> Result<(), ReportError> {
    for (name, text) in [
        ("style.css", templates.source("style.css", STYLE)?),
        ("viewer.js", templates.source("viewer.js", VIEWER)?),
        ("shown.js", SHOWN_JS.to_string()),
    ] {
        let path = out.join("assets").join(name);
        // The report's own file as it is: a link there is not followed.
        let now = input_file::read_to_string(&path, Links::Refused, input_file::TEXT_CAP).ok();
        if now.as_deref() != Some(text.as_str()) {
            crate::atomic_file::write(&path, text).map_err(io_error(&path, "cannot write"))?;
        }
    }
    Ok(())
}

/// One of a bot's games, as its page lists it.
#[derive(Serialize)]
struct BotGame {
    number: u64,
    page: Option<String>,
    opponent: String,
    seat: &'static str,
    result: &'static str,
    reason: String,
    verdict: String,
}

#[derive(Serialize)]
struct Matchup {
    opponent: String,
    anchor: String,
    opponent_page: String,
    played: u32,
    won: u32,
    drawn: u32,
    lost: u32,
    share: String,
    games: Vec<BotGame>,
}

#[derive(Serialize)]
struct Disqualified {
    game: u64,
    page: Option<String>,
    verdict: String,
    detail: String,
    at_move: Option<u32>,
    /// The viewer's move to link to.
    move_number: Option<usize>,
    stderr: Vec<String>,
}

/// Everything a bot's page shows, gathered over the games.
#[derive(Default)]
struct BotFacts {
    move_ms: Vec<f64>,
    cpu_ms: Vec<f64>,
    memory_mib: Vec<f64>,
    disqualified: Vec<Disqualified>,
}

/// Writes the whole report of a results folder into `folder/report/`.
pub fn write_report(folder: &Path, templates: &Templates) -> Result<Written, ReportError> {
    if crate::reporter::folder::is_free_for_all(folder) {
        return ffa::write_ffa_report(folder, templates);
    }
    let results = read_results(folder)?;
    let env = templates.environment()?;
    let final_dir = folder.join(REPORT_DIR);
    let fresh = folder.join(".report.new");
    if fresh.exists() {
        fs::remove_dir_all(&fresh).map_err(io_error(&fresh, "cannot clear"))?;
    }
    for sub in ["assets", "bots", "games"] {
        fs::create_dir_all(fresh.join(sub))
            .map_err(io_error(&fresh, "cannot create the report folder"))?;
    }
    write_assets(&fresh, templates)?;
    let bots = &results.meta.bots;
    let index: BTreeMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut facts: Vec<BotFacts> = bots.iter().map(|_| BotFacts::default()).collect();
    let mut pages: BTreeMap<u64, String> = BTreeMap::new();
    let mut first_start: Option<f64> = None;
    let transcripts = folder.join("transcripts");
    let game_template = env
        .get_template("game.html")
        .map_err(|e| template_error("game.html", e))?;
    for row in &results.rows {
        let seats = [
            index.get(row.bot_a.as_str()).copied(),
            index.get(row.bot_b.as_str()).copied(),
        ];
        for (seat, bot) in seats.iter().enumerate() {
            if let Some(&b) = bot.as_ref() {
                let kb = if seat == 0 {
                    row.peak_memory_kb_a
                } else {
                    row.peak_memory_kb_b
                };
                facts[b].memory_mib.push(kb as f64 / 1024.0);
            }
        }
        let path = transcripts.join(format!("game-{:06}.jsonl", row.game));
        let entries = kept_transcript(&path)?;
        let game = view::game_view(&entries);
        if let Some(transcript::Entry::Header { started_unix, .. }) = entries.first() {
            first_start = Some(first_start.map_or(*started_unix, |f: f64| f.min(*started_unix)));
        }
        for m in &game.moves {
            let seat = usize::from(m.seat == "b");
            if let Some(b) = seats[seat] {
                facts[b].move_ms.extend(m.wall_ms);
                facts[b].cpu_ms.extend(m.cpu_ms);
            }
        }
        for (seat, (verdict, bot)) in [(row.verdict_a, seats[0]), (row.verdict_b, seats[1])]
            .into_iter()
            .enumerate()
        {
            let (Some(b), true) = (bot, verdict != Verdict::Ok) else {
                continue;
            };
            let seat_name = if seat == 0 { "a" } else { "b" };
            let from_transcript = game.verdicts.iter().find(|v| v.seat == seat_name);
            facts[b].disqualified.push(Disqualified {
                game: row.game,
                page: (!entries.is_empty()).then(|| format!("../games/{}", game_page(row.game))),
                verdict: verdict.to_string(),
                detail: from_transcript.map_or_else(|| row.detail.clone(), |v| v.detail.clone()),
                at_move: from_transcript.map(|v| v.at_move),
                move_number: from_transcript.map(|v| v.move_number),
                stderr: game.stderr[seat].clone(),
            });
        }
        if entries.is_empty() {
            continue;
        }
        let html = folder_game_page(
            &game_template,
            format!("Game {} · {} vs {}", row.game, row.bot_a, row.bot_b),
            Some(row.game),
            vec![row.bot_a.clone(), row.bot_b.clone()],
            seats
                .map(|s| s.map(|b| format!("../bots/{}", bot_page(b))))
                .into(),
            &game,
        )?;
        let page = game_page(row.game);
        let path = fresh.join("games").join(&page);
        fs::write(&path, html).map_err(io_error(&path, "cannot write"))?;
        pages.insert(row.game, page);
    }
    let bot_template = env
        .get_template("bot.html")
        .map_err(|e| template_error("bot.html", e))?;
    let standings = results.standings.rows();
    for (i, name) in bots.iter().enumerate() {
        let mut by_opponent: BTreeMap<usize, Matchup> = BTreeMap::new();
        for row in &results.rows {
            let seat = if row.bot_a == *name {
                0
            } else if row.bot_b == *name {
                1
            } else {
                continue;
            };
            let opponent = if seat == 0 { &row.bot_b } else { &row.bot_a };
            let Some(&j) = index.get(opponent.as_str()) else {
                continue;
            };
            let result = match (row.outcome(), seat) {
                (Ok(crate::games::Winner::A), 0) | (Ok(crate::games::Winner::B), 1) => "won",
                (Ok(crate::games::Winner::Draw), _) => "drawn",
                _ => "lost",
            };
            let m = by_opponent.entry(j).or_insert_with(|| Matchup {
                opponent: opponent.clone(),
                anchor: format!("vs-{j}"),
                opponent_page: bot_page(j),
                played: 0,
                won: 0,
                drawn: 0,
                lost: 0,
                share: String::new(),
                games: vec![],
            });
            m.played += 1;
            match result {
                "won" => m.won += 1,
                "drawn" => m.drawn += 1,
                _ => m.lost += 1,
            }
            m.games.push(BotGame {
                number: row.game,
                page: pages.get(&row.game).map(|p| format!("../games/{p}")),
                opponent: opponent.clone(),
                seat: if seat == 0 { "A" } else { "B" },
                result,
                reason: row.reason.clone(),
                verdict: if seat == 0 {
                    row.verdict_a
                } else {
                    row.verdict_b
                }
                .to_string(),
            });
        }
        let mut matchups: Vec<Matchup> = by_opponent.into_values().collect();
        for m in &mut matchups {
            m.share = format!(
                "{:.0}%",
                100.0 * (f64::from(m.won) + f64::from(m.drawn) / 2.0) / f64::from(m.played.max(1))
            );
        }
        // Worst matchups first: the lowest share of points.
        matchups.sort_by(|x, y| {
            let key = |m: &Matchup| (2 * m.won + m.drawn) * 1000 / (2 * m.played.max(1));
            key(x)
                .cmp(&key(y))
                .then_with(|| x.opponent.cmp(&y.opponent))
        });
        let f = &facts[i];
        let standing = standings.iter().find(|s| s.bot == *name);
        let html = bot_template
            .render(context! {
                title => name,
                bot => name,
                standing => standing.map(|s| context! {
                    rank => s.rank, played => s.played, wins => s.wins, draws => s.draws,
                    losses => s.losses, points => s.points,
                    rating => fixed(s.rating, 0),
                    interval => format!("{} to {}", fixed(s.rating_low, 0), fixed(s.rating_high, 0)),
                }),
                matchups => matchups,
                disqualified => &f.disqualified,
                moves_chart => svg::histogram(&f.move_ms, 20, "ms"),
                cpu_chart => svg::histogram(&f.cpu_ms, 20, "ms CPU"),
                memory_chart => svg::histogram(&f.memory_mib, 20, "MiB"),
                moves => f.move_ms.len(),
                root => "../",
                index_page => "../index.html",
            })
            .map_err(|e| template_error("bot.html", e))?;
        let path = fresh.join("bots").join(bot_page(i));
        fs::write(&path, html).map_err(io_error(&path, "cannot write"))?;
    }
    if let Some(grades) = &results.grades {
        let html = env
            .get_template("grades.html")
            .and_then(|t| {
                t.render(context! {
                    title => format!("{}: grades", results.meta.name),
                    grades => grades,
                    root => "",
                    index_page => "index.html",
                })
            })
            .map_err(|e| template_error("grades.html", e))?;
        let path = fresh.join(GRADES_PAGE);
        fs::write(&path, html).map_err(io_error(&path, "cannot write"))?;
    }
    let index_html = leaderboard(
        &env,
        &results,
        false,
        &when_ran(folder, first_start),
        time_scale_of(folder).as_deref(),
    )?;
    let index_path = fresh.join("index.html");
    fs::write(&index_path, &index_html).map_err(io_error(&index_path, "cannot write"))?;
    let total_bytes = folder_bytes(&fresh);
    swap_in(folder, &fresh, &final_dir)?;
    Ok(Written {
        folder: final_dir,
        games: pages.len(),
        bots: bots.len(),
        index_bytes: index_html.len() as u64,
        total_bytes,
    })
}

/// The report made in `fresh` takes the place of `final_dir`: the two are
/// exchanged in one step (`renameat2` with `RENAME_EXCHANGE`), so that at
/// every moment `final_dir` holds the old report or the new one, for a
/// reader and after a kill; the old one, then at `fresh`, is removed (or
/// by the next report, which clears `fresh` first). Where the file system
/// cannot exchange, the old report moves aside and the new one takes its
/// name.
fn swap_in(folder: &Path, fresh: &Path, final_dir: &Path) -> Result<(), ReportError> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    let old = folder.join(".report.old");
    if old.exists() {
        fs::remove_dir_all(&old).map_err(io_error(&old, "cannot clear"))?;
    }
    if final_dir.is_dir()
        && renameat_with(CWD, fresh, CWD, final_dir, RenameFlags::EXCHANGE).is_ok()
    {
        let _ = crate::atomic_file::sync_folder_of(final_dir);
        let _ = fs::remove_dir_all(fresh);
        return Ok(());
    }
    if final_dir.exists() {
        fs::rename(final_dir, &old).map_err(io_error(final_dir, "cannot replace"))?;
    }
    fs::rename(fresh, final_dir).map_err(io_error(final_dir, "cannot write"))?;
    let _ = crate::atomic_file::sync_folder_of(final_dir);
    if old.exists() {
        let _ = fs::remove_dir_all(&old);
    }
    Ok(())
}

fn folder_bytes(folder: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(folder) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => folder_bytes(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// One game's viewer as a single self-contained page (style and script
/// inline), for `referee replay --html`.
pub fn game_page_html(
    entries: &[transcript::Entry],
    templates: &Templates,
) -> Result<String, ReportError> {
    let env = templates.environment()?;
    let game = view::game_view(entries);
    let style = templates.source("style.css", STYLE)?;
    let script = templates.source("viewer.js", VIEWER)?;
    env.get_template("game.html")
        .and_then(|t| {
            t.render(context! {
                title => game.bots.join(" vs "),
                number => Option::<u64>::None,
                names => &game.bots,
                seats => seat_letters(game.bots.len()),
                pages => [Option::<String>::None, None],
                view => &game,
                data => script_json(&game),
                game_script => &game.game_script,
                root => "",
                inline => true,
                style => style,
                shown_script => SHOWN_JS,
                script => script,
                index_page => Option::<String>::None,
            })
        })
        .map_err(|e| template_error("game.html", e))
}

/// A game's viewer page inside a report folder (`games/`, beside the
/// shared assets): `names` of seats A and B, and `pages` linking each
/// seat's bot page where there is one.
fn folder_game_page(
    template: &minijinja::Template<'_, '_>,
    title: String,
    number: Option<u64>,
    names: Vec<String>,
    pages: Vec<Option<String>>,
    game: &view::GameView,
) -> Result<String, ReportError> {
    template
        .render(context! {
            title => title,
            number => number,
            seats => seat_letters(names.len()),
            names => names,
            pages => pages,
            view => game,
            data => script_json(game),
            game_script => &game.game_script,
            root => "../",
            inline => false,
            index_page => "../index.html",
        })
        .map_err(|e| template_error("game.html", e))
}

/// The letters of the first `count` seats, for a game page's players.
fn seat_letters(count: usize) -> Vec<String> {
    crate::games::Seat::all(count)
        .map(|seat| seat.to_string())
        .collect()
}

/// The file in a check's report folder that holds the check's findings.
pub const CHECK_JSON: &str = "check.json";

/// Writes the report of any results folder again: a tournament's (or a
/// merge's, or a shard's) into `folder/report/`, a check's (`check --report
/// DIR`, recognised by its `check.json`) in place.
pub fn write_any_report(folder: &Path, templates: &Templates) -> Result<Written, ReportError> {
    if crate::reporter::folder::is_free_for_all(folder) {
        return ffa::write_ffa_report(folder, templates);
    }
    let record = folder.join(CHECK_JSON);
    if folder.join("tournament.json").exists() || !record.exists() {
        return write_report(folder, templates);
    }
    let text = kept_text(&record)?.ok_or_else(|| {
        ReportError::new(&record, "cannot read", std::io::ErrorKind::NotFound.into())
    })?;
    let report: crate::model::check::CheckReport = serde_json::from_str(&text).map_err(|e| {
        ReportError::new(
            &record,
            "is not a check's findings (written by `referee check --report DIR`)",
            std::io::Error::other(e),
        )
    })?;
    write_check_report(folder, &report, templates)
}

/// A check run's report in `folder` (`check --report DIR`): `index.html`
/// with each requirement, pass or fail, its evidence and links to the games
/// that count against it, and a viewer page per game whose transcript is in
/// `folder/transcripts/`.
pub fn write_check_report(
    folder: &Path,
    report: &crate::model::check::CheckReport,
    templates: &Templates,
) -> Result<Written, ReportError> {
    let env = templates.environment()?;
    for sub in ["assets", "games"] {
        fs::create_dir_all(folder.join(sub))
            .map_err(io_error(folder, "cannot create the report folder"))?;
    }
    write_assets(folder, templates)?;
    let game_template = env
        .get_template("game.html")
        .map_err(|e| template_error("game.html", e))?;
    let mut games = 0;
    let transcripts = folder.join("transcripts");
    let mut names: Vec<PathBuf> = fs::read_dir(&transcripts)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    for path in names {
        let Some(stem) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        let entries = kept_transcript(&path)?;
        if entries.is_empty() {
            continue;
        }
        let game = view::game_view(&entries);
        let html = folder_game_page(
            &game_template,
            format!("{} · {}", stem, game.bots.join(" vs ")),
            None,
            game.bots.clone(),
            Vec::new(),
            &game,
        )?;
        let page = folder.join("games").join(format!("{stem}.html"));
        crate::atomic_file::write(&page, html).map_err(io_error(&page, "cannot write"))?;
        games += 1;
    }
    let html = env
        .get_template("check.html")
        .and_then(|t| {
            t.render(context! {
                title => format!("Check {}", report.name),
                report => report,
                root => "",
                inline => false,
                index_page => Option::<String>::None,
            })
        })
        .map_err(|e| template_error("check.html", e))?;
    // The check's findings beside its pages: `referee report DIR` writes
    // the pages again from them (e.g. with an organiser's templates).
    let record = folder.join(CHECK_JSON);
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| ReportError::new(&record, "cannot encode", std::io::Error::other(e)))?;
    crate::atomic_file::write(&record, json).map_err(io_error(&record, "cannot write"))?;
    let index = folder.join("index.html");
    crate::atomic_file::write(&index, &html).map_err(io_error(&index, "cannot write"))?;
    Ok(Written {
        folder: folder.to_path_buf(),
        games,
        bots: 1,
        index_bytes: html.len() as u64,
        total_bytes: folder_bytes(folder),
    })
}

/// The tournament's report as a reporter: the leaderboard page rewritten
/// every [`LIVE_EVERY`] while games finish (a browser open on it refreshes
/// itself), the whole report when the run ends. A report that cannot be
/// written is a warning: the results are safe in the folder, and
/// `referee report DIR` writes it again.
pub struct LiveReport {
    folder: Option<PathBuf>,
    templates: Templates,
    last: Option<Instant>,
}

impl LiveReport {
    pub fn new(templates: Templates) -> LiveReport {
        LiveReport {
            folder: None,
            templates,
            last: None,
        }
    }

    fn refresh(&mut self) {
        if let Some(folder) = &self.folder {
            if let Err(e) = write_leaderboard(folder, &self.templates, true) {
                eprintln!("warning: the live leaderboard: {e}");
            }
        }
        self.last = Some(Instant::now());
    }
}

impl Reporter for LiveReport {
    fn run_started(&mut self, run: &Run<'_>) -> Result<(), ReportError> {
        if let Run::Tournament { out, .. } = run {
            self.folder = Some(out.to_path_buf());
            self.refresh();
        }
        Ok(())
    }

    fn game_finished(
        &mut self,
        _record: &crate::record::MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        if matches!(place, Place::Tournament { .. })
            && self.last.is_none_or(|t| t.elapsed() >= LIVE_EVERY)
        {
            self.refresh();
        }
        Ok(())
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        if let (Finish::Tournament { .. }, Some(folder)) = (finish, &self.folder) {
            match write_report(folder, &self.templates) {
                Ok(w) => eprintln!("report: {}", w.folder.join("index.html").display()),
                Err(e) => eprintln!(
                    "warning: the HTML report was not written ({e}); the results are safe: \
                     `referee report {}` writes it",
                    folder.display()
                ),
            }
        }
        Ok(())
    }
}
