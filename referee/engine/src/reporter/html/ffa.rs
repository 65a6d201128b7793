//! The report of a free-for-all: `report/index.html` with the standings
//! (rating and its interval), the pairwise table as a heat map and every
//! game with its seats and places, and `report/games/game-NNNNNN.html`,
//! a viewer page per game with all its players.

use std::fs;
use std::path::Path;

use minijinja::context;
use serde::Serialize;

use super::read::{io_error, kept_transcript, table_rows};
use super::{
    folder_bytes, folder_game_page, game_page, seat_letters, swap_in, template_error, write_assets,
    Cell, Templates, Written, REPORT_DIR,
};
use crate::model::ffa::{FfaRow, FfaStandings};
use crate::model::folder::FolderMeta;
use crate::reporter::{fixed, ReportError};

#[derive(Serialize)]
struct FfaBoardRow {
    rank: usize,
    bot: String,
    games: u64,
    average_place: String,
    first_places: u64,
    first_share: String,
    rating: String,
    interval: String,
    disqualified: u64,
}

#[derive(Serialize)]
struct FfaGameLine {
    game: u64,
    page: Option<String>,
    table: u64,
    rotation: u32,
    /// Each seat as `bot (place)`, seat A first.
    seats: Vec<String>,
    reason: String,
}

/// Writes the report of the free-for-all folder `folder` into
/// `folder/report/` (made beside it and swapped in whole).
pub(super) fn write_ffa_report(
    folder: &Path,
    templates: &Templates,
) -> Result<Written, ReportError> {
    let (meta, rows, standings) = read_ffa(folder)?;
    let env = templates.environment()?;
    let final_dir = folder.join(REPORT_DIR);
    let fresh = folder.join(".report.new");
    if fresh.exists() {
        fs::remove_dir_all(&fresh).map_err(io_error(&fresh, "cannot clear"))?;
    }
    for sub in ["assets", "games"] {
        fs::create_dir_all(fresh.join(sub))
            .map_err(io_error(&fresh, "cannot create the report folder"))?;
    }
    write_assets(&fresh, templates)?;
    let game_template = env
        .get_template("game.html")
        .map_err(|e| template_error("game.html", e))?;
    let transcripts = folder.join("transcripts");
    let mut lines = vec![];
    let mut pages = 0;
    for row in &rows {
        let names: Vec<String> = row.seats.iter().map(|s| s.bot.clone()).collect();
        let entries = kept_transcript(&transcripts.join(format!("game-{:06}.jsonl", row.game)))?;
        let page = if entries.is_empty() {
            None
        } else {
            let game = super::view::game_view(&entries);
            let html = folder_game_page(
                &game_template,
                format!("Game {} · {}", row.game, names.join(", ")),
                Some(row.game),
                names.clone(),
                vec![None; names.len()],
                &game,
            )?;
            let page = game_page(row.game);
            let path = fresh.join("games").join(&page);
            fs::write(&path, html).map_err(io_error(&path, "cannot write"))?;
            pages += 1;
            Some(format!("games/{page}"))
        };
        lines.push(FfaGameLine::of(row, page));
    }
    let index_html = index_html(&env, folder, &meta, &rows, &standings, lines)?;
    let index_path = fresh.join("index.html");
    fs::write(&index_path, &index_html).map_err(io_error(&index_path, "cannot write"))?;
    let total_bytes = folder_bytes(&fresh);
    swap_in(folder, &fresh, &final_dir)?;
    Ok(Written {
        folder: final_dir,
        games: pages,
        bots: meta.bots.len(),
        index_bytes: index_html.len() as u64,
        total_bytes,
    })
}

impl FfaGameLine {
    fn of(row: &FfaRow, page: Option<String>) -> FfaGameLine {
        FfaGameLine {
            game: row.game,
            page,
            table: row.table,
            rotation: row.rotation,
            seats: row
                .seats
                .iter()
                .map(|s| format!("{} ({})", s.bot, s.place))
                .collect(),
            reason: row.reason.clone(),
        }
    }
}

/// The free-for-all folder's description, rows (in game order) and
/// standings.
fn read_ffa(folder: &Path) -> Result<(FolderMeta, Vec<FfaRow>, FfaStandings), ReportError> {
    let meta = crate::reporter::folder::meta_of(folder)
        .map_err(|e| ReportError::new(folder, "cannot read", std::io::Error::other(e.to_string())))?
        .ok_or_else(|| {
            ReportError::new(
                &folder.join("tournament.json"),
                "cannot read",
                std::io::ErrorKind::NotFound.into(),
            )
        })?;
    let (rows, standings) = crate::reporter::folder::ffa_standings_in(folder).map_err(|e| {
        // The cause names the file (and its line): said once.
        ReportError::new(
            folder,
            "cannot be reported",
            std::io::Error::other(e.to_string()),
        )
    })?;
    Ok((meta, rows, standings))
}

/// The leaderboard of the free-for-all folder `folder` as it is now
/// (`referee serve`), its games linked to the pages the report has.
pub(super) fn ffa_leaderboard_html(
    folder: &Path,
    templates: &Templates,
) -> Result<String, ReportError> {
    let (meta, rows, standings) = read_ffa(folder)?;
    let env = templates.environment()?;
    let games = folder.join(REPORT_DIR).join("games");
    let lines = rows
        .iter()
        .map(|row| {
            let page = game_page(row.game);
            let written = games.join(&page).is_file();
            FfaGameLine::of(row, written.then(|| format!("games/{page}")))
        })
        .collect();
    index_html(&env, folder, &meta, &rows, &standings, lines)
}

/// The report's `index.html` of a free-for-all: its standings, pairwise
/// table, grades and games (`lines`).
fn index_html(
    env: &minijinja::Environment<'_>,
    folder: &Path,
    meta: &FolderMeta,
    rows: &[FfaRow],
    standings: &FfaStandings,
    lines: Vec<FfaGameLine>,
) -> Result<String, ReportError> {
    let players = rows.first().map_or(0, |r| r.seats.len());
    let board: Vec<FfaBoardRow> = standings
        .rows
        .iter()
        .map(|r| FfaBoardRow {
            rank: r.rank,
            bot: r.bot.clone(),
            games: r.games,
            average_place: fixed(r.average_place, 2),
            first_places: r.first_places,
            first_share: format!("{:.0}%", 100.0 * r.first_share),
            rating: fixed(r.rating, 2),
            interval: format!("{} to {}", fixed(r.rating_low, 2), fixed(r.rating_high, 2)),
            disqualified: r.disqualified,
        })
        .collect();
    let names: Vec<String> = standings.rows.iter().map(|r| r.bot.clone()).collect();
    let pairwise: Vec<Vec<Cell>> = names
        .iter()
        .map(|x| {
            names
                .iter()
                .map(|y| {
                    match standings
                        .pairwise
                        .iter()
                        .find(|p| p.bot == *x && p.other == *y)
                    {
                        Some(p) => Cell {
                            text: format!("{:.0}% of {}", 100.0 * p.share, p.games),
                            heat: (p.share * 10.0).round() as u32,
                            link: String::new(),
                        },
                        None => Cell {
                            text: if x == y { "—".into() } else { String::new() },
                            heat: 99,
                            link: String::new(),
                        },
                    }
                })
                .collect()
        })
        .collect();
    // With a `[grading]` section: the grades by places, as written.
    let grades = table_rows(
        &folder
            .join(crate::reporter::grades::GRADES_DIR)
            .join("grades.csv"),
    )?;
    let index_html = env
        .get_template("ffa.html")
        .and_then(|t| {
            t.render(context! {
                title => &meta.name,
                game => &meta.game,
                players => players,
                games_done => rows.len(),
                games_total => meta.total_games,
                shard => meta.shard.map(|(i, n)| format!("{i}/{n}")),
                board => board,
                names => names,
                pairwise => pairwise,
                seats => seat_letters(players),
                games => lines,
                grades => grades,
                root => "",
                inline => false,
            })
        })
        .map_err(|e| template_error("ffa.html", e))?;
    Ok(index_html)
}
