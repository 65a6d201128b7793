//! `games.csv` and `transcripts/` of a round robin or gauntlet, written
//! from the games the store keeps for the bots as they are now.

use super::*;

/// Writes `games.csv` from the store: the games of the schedule (of
/// `shard`) the store has, in schedule order, numbered and named as now;
/// and links each one's transcript as `transcripts/game-NNNNNN.jsonl`.
/// Games of bots removed or replaced stay in the store only. Returns the
/// number of games written.
///
/// Only the games up to the furthest index the store has of each pairing's
/// two contents are looked at: a tournament of billions of games with a few
/// played starts at once.
pub(super) fn publish(
    plan: &TournamentPlan,
    out: &Path,
    schedule: &Schedule,
    shard: Option<Shard>,
    store: &Store,
) -> Result<u64, TournamentError> {
    let contents = schedule.identities().content_hexes();
    let furthest = furthest_kept(store);
    let mut numbers: Vec<u64> = vec![];
    for (p, &(i, j)) in schedule.pairings().iter().enumerate() {
        if let Some(&last) = furthest.get(&pair_of(&contents[i], &contents[j])) {
            // Both seats of the last pair.
            numbers.extend((0..=(last | 1)).filter_map(|k| schedule.number_of(p, k)));
        }
    }
    numbers.sort_unstable();
    let mut links: Vec<(u64, Hash256)> = vec![];
    // A row the store cannot read stops the writing; the store's error is
    // the one to report.
    let mut unread: Option<StoreError> = None;
    let written_csv = write_atomically(&out.join(GAMES_CSV), |w| {
        for game in numbers.iter().filter_map(|&n| schedule.game(n)) {
            if shard.is_some_and(|s| !s.contains(&game)) {
                continue;
            }
            let Some(id) = game.identity else { continue };
            let stored = match store.get(&id) {
                Ok(Some(stored)) => stored,
                Ok(None) => continue,
                Err(e) => {
                    let stop = io::Error::other(crate::text::with_causes(&e));
                    unread = Some(e);
                    return Err(stop.into());
                }
            };
            links.push((game.number, id));
            w.serialize(as_now(plan, &game, &stored.row))?;
        }
        // The header even with no rows: this run's rows are appended to it.
        if links.is_empty() {
            w.write_record(&GameRow::columns())?;
        }
        Ok(())
    });
    if let Some(e) = unread {
        return Err(e.into());
    }
    written_csv?;
    let transcripts = transcripts_folder(out)?;
    let entries = fs::read_dir(&transcripts).map_err(io_error(&transcripts, "cannot read"))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("game-") && name.ends_with(".jsonl") {
            let path = entry.path();
            fs::remove_file(&path).map_err(io_error(&path, "cannot remove"))?;
        }
    }
    let written = links.len() as u64;
    for (number, id) in links {
        let from = super::store::Store::transcript_path(out, &id);
        // Only a regular file: a link put there is not followed.
        if !fs::symlink_metadata(&from).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let dest = transcripts.join(format!("game-{number:06}.jsonl"));
        link_or_copy(&from, &dest)?;
    }
    Ok(written)
}

/// Two bots' contents, in either seat, as one key.
pub(super) fn pair_of<'a>(x: &'a str, y: &'a str) -> (&'a str, &'a str) {
    if x <= y {
        (x, y)
    } else {
        (y, x)
    }
}

/// The furthest index within its pairing of the games kept of each pair of
/// contents.
pub(super) fn furthest_kept(store: &Store) -> std::collections::HashMap<(&str, &str), u64> {
    let mut furthest = std::collections::HashMap::new();
    for (index, [x, y]) in store.indexes() {
        let at = furthest.entry(pair_of(x, y)).or_insert(0);
        *at = (*at).max(index);
    }
    furthest
}

/// A kept game's row as the tournament is now: its number in the schedule,
/// and the bots' names of the file (a bot renamed keeps its games).
pub(super) fn as_now(plan: &TournamentPlan, game: &ScheduledGame, then: &GameRow) -> GameRow {
    let name_a = plan.bots[game.a].name.clone();
    let name_b = plan.bots[game.b].name.clone();
    let mut row = then.clone();
    row.game = game.number;
    row.first = if then.first == then.bot_a {
        name_a.clone()
    } else {
        name_b.clone()
    };
    row.winner = match then.result {
        Some(Winner::A) => name_a.clone(),
        Some(Winner::B) => name_b.clone(),
        _ => then.winner.clone(),
    };
    if then.bot_a != name_a || then.bot_b != name_b {
        row.detail = then
            .detail
            .split("; ")
            .map(|part| {
                if let Some(rest) = part.strip_prefix(&format!("{}: ", then.bot_a)) {
                    format!("{name_a}: {rest}")
                } else if let Some(rest) = part.strip_prefix(&format!("{}: ", then.bot_b)) {
                    format!("{name_b}: {rest}")
                } else {
                    part.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
    }
    row.bot_a = name_a;
    row.bot_b = name_b;
    row
}
