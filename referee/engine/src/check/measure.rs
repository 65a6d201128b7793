//! What each kind of requirement measures over the games played so far:
//! the share of games won, the verdicts, a table's rank, a bench's
//! average, the largest move time; each as a [`Measure`] with the line
//! the check's report shows.

use super::*;

/// What a requirement measured, against what bound, and what it says.
pub(super) struct Measure {
    pub(super) passed: bool,
    pub(super) measured: f64,
    pub(super) unit: &'static str,
    pub(super) bound: String,
    pub(super) summary: String,
}

/// The first `games` games against `against`.
pub(super) fn first_games(
    outcomes: &[GameOutcome],
    against: usize,
    games: u32,
) -> impl Iterator<Item = &GameOutcome> {
    outcomes
        .iter()
        .filter(move |o| o.game.opponent == against && o.game.index < games)
}

pub(super) fn no_verdicts(
    plan: &CheckPlan,
    outcomes: &[GameOutcome],
    against: usize,
    games: u32,
    not_run: bool,
    details: &mut Vec<String>,
) -> Measure {
    let played = first_games(outcomes, against, games).count();
    let bad: Vec<&GameOutcome> = first_games(outcomes, against, games)
        .filter(|o| o.verdict != Verdict::Ok)
        .collect();
    details.extend(bad.iter().filter_map(|o| o.detail.clone()));
    let clean = played - bad.len();
    let name = &plan.opponents[against].name;
    let summary = if played == games as usize {
        format!("{clean} of {games} games without a verdict against {name}")
    } else {
        format!(
            "{clean} of {played} games played without a verdict against {name}; {} of {games} not played ({})",
            games as usize - played,
            if not_run {
                "fail-fast stopped the check"
            } else {
                "stopped at the first verdict"
            }
        )
    };
    Measure {
        passed: bad.is_empty() && played == games as usize,
        measured: clean as f64,
        unit: "games",
        bound: format!("= {games}"),
        summary,
    }
}

pub(super) fn win_rate(
    plan: &CheckPlan,
    outcomes: &[GameOutcome],
    against: usize,
    games: u32,
    at_least: f64,
    not_run: bool,
) -> Measure {
    let played = first_games(outcomes, against, games).count() as u32;
    let wins = first_games(outcomes, against, games)
        .filter(|o| o.won)
        .count() as u32;
    let needed = wins_needed(games, at_least);
    let percent = 100.0 * f64::from(wins) / f64::from(played.max(1));
    let name = &plan.opponents[against].name;
    let mut summary = if played == games {
        format!("won {wins} of {games} games ({percent:.1}%) against {name}")
    } else {
        format!("won {wins} of {played} games played ({percent:.1}%) against {name}")
    };
    if played < games {
        summary.push_str(&format!(
            "; {} of {games} not played ({})",
            games - played,
            if not_run {
                format!("fail-fast stopped the check; {needed} wins needed")
            } else if wins >= needed {
                format!("decided: {needed} wins needed")
            } else {
                format!(
                    "decided: {needed} wins needed, at most {} possible",
                    wins + games - played
                )
            }
        ));
    }
    Measure {
        passed: wins >= needed,
        measured: percent,
        unit: "%",
        bound: format!(">= {at_least}%"),
        summary,
    }
}

/// The first `games` tables.
pub(super) fn first_tables(outcomes: &[GameOutcome], games: u32) -> Vec<&GameOutcome> {
    outcomes
        .iter()
        .filter(|o| o.game.at_table() && o.game.index < games)
        .collect()
}

/// The verdicts of the bot under test at `counted` tables, as evidence.
pub(super) fn verdict_details(counted: &[&GameOutcome], details: &mut Vec<String>) {
    details.extend(
        counted
            .iter()
            .filter(|o| o.verdict != Verdict::Ok)
            .filter_map(|o| o.detail.clone()),
    );
}

/// Why fewer tables than asked were played: `decided` says why when the
/// games decided it early.
pub(super) fn not_played(games: u32, played: u32, not_run: bool, decided: String) -> String {
    if played >= games {
        String::new()
    } else if not_run {
        format!(
            "; {} of {games} not played (fail-fast stopped the check)",
            games - played
        )
    } else {
        format!("; {} of {games} not played ({decided})", games - played)
    }
}

/// "12 tables", "1 table".
pub(super) fn tables_word(n: u32) -> String {
    format!("{n} table{}", if n == 1 { "" } else { "s" })
}

/// A share in percent with its 95% Wilson interval.
pub(super) fn share(count: u32, of: u32) -> (f64, String) {
    let percent = 100.0 * f64::from(count) / f64::from(of.max(1));
    let (low, high) = crate::model::grades::wilson(f64::from(count), f64::from(of));
    (
        percent,
        format!(
            "{percent:.1}%; 95% interval {:.0}% to {:.0}%",
            100.0 * low,
            100.0 * high
        ),
    )
}

pub(super) fn clean_tables(
    plan: &CheckPlan,
    outcomes: &[GameOutcome],
    games: u32,
    not_run: bool,
    details: &mut Vec<String>,
) -> Measure {
    let counted = first_tables(outcomes, games);
    verdict_details(&counted, details);
    let played = counted.len() as u32;
    let bad = counted.iter().filter(|o| o.verdict != Verdict::Ok).count() as u32;
    let clean = played - bad;
    Measure {
        passed: bad == 0 && played == games,
        measured: f64::from(clean),
        unit: "tables",
        bound: format!("= {games}"),
        summary: format!(
            "{clean} of {} without a verdict, at tables of {}{}",
            tables_word(played),
            plan.players_per_game,
            not_played(
                games,
                played,
                not_run,
                "stopped at the first verdict".into()
            )
        ),
    }
}

pub(super) fn average_rank(
    plan: &CheckPlan,
    outcomes: &[GameOutcome],
    games: u32,
    at_most: f64,
    not_run: bool,
    details: &mut Vec<String>,
) -> Measure {
    let players = plan.players_per_game as u32;
    let counted = first_tables(outcomes, games);
    verdict_details(&counted, details);
    let played = counted.len() as u32;
    let ranks: Vec<u32> = counted.iter().map(|o| o.rank).collect();
    let total: u32 = ranks.iter().sum();
    let average = f64::from(total) / f64::from(played.max(1));
    let left = games - played.min(games);
    // Judged as the early decision is: on the worst the tables left could
    // give (none left: the average itself).
    let passed = played > 0 && tables::average_within(total + left * players, games, at_most);
    let (low, high) = tables::rank_interval(&ranks, plan.players_per_game);
    let firsts = ranks.iter().filter(|r| **r == 1).count();
    let lasts = ranks.iter().filter(|r| **r == players).count();
    let decided = if passed {
        format!("decided: last place at every table left keeps it at most {at_most}")
    } else {
        format!("decided: first place at every table left cannot bring it to {at_most}")
    };
    Measure {
        passed,
        measured: average,
        unit: "rank",
        bound: format!("<= {at_most}"),
        summary: format!(
            "average rank {average:.2} over {} of {players} players (1 = first; 95% interval {low:.2} to {high:.2}; first at {firsts}, last at {lasts}){}",
            tables_word(played),
            not_played(games, played, not_run, decided)
        ),
    }
}

pub(super) fn table_wins(
    outcomes: &[GameOutcome],
    games: u32,
    at_least: f64,
    not_run: bool,
    details: &mut Vec<String>,
) -> Measure {
    let counted = first_tables(outcomes, games);
    verdict_details(&counted, details);
    let played = counted.len() as u32;
    let wins = counted.iter().filter(|o| o.won).count() as u32;
    let shared = counted.iter().filter(|o| o.rank == 1 && !o.won).count();
    let needed = wins_needed(games, at_least);
    let (percent, shown) = share(wins, played);
    Measure {
        passed: wins >= needed,
        measured: percent,
        unit: "%",
        bound: format!(">= {at_least}%"),
        summary: format!(
            "first alone at {wins} of {} ({shown}); a first place shared at {shared} (not a win){}",
            tables_word(played),
            not_played(
                games,
                played,
                not_run,
                format!("decided: {needed} wins needed")
            )
        ),
    }
}

pub(super) fn ahead_of(
    plan: &CheckPlan,
    outcomes: &[GameOutcome],
    (against, games, meetings): (usize, u32, u32),
    at_least: f64,
    not_run: bool,
    details: &mut Vec<String>,
) -> Measure {
    let shared: Vec<&GameOutcome> = first_tables(outcomes, games)
        .into_iter()
        .filter(|o| o.ahead_of(against).is_some())
        .collect();
    verdict_details(&shared, details);
    let played = shared.len() as u32;
    let ahead = shared
        .iter()
        .filter(|o| o.ahead_of(against) == Some(true))
        .count() as u32;
    let needed = wins_needed(meetings, at_least);
    let (percent, shown) = share(ahead, played);
    let name = &plan.opponents[against].name;
    Measure {
        passed: ahead >= needed,
        measured: percent,
        unit: "%",
        bound: format!(">= {at_least}%"),
        summary: format!(
            "ahead of {name} at {ahead} of the {} it sat at ({shown}; of the first {}){}",
            tables_word(played),
            tables_word(games),
            not_played(
                meetings,
                played,
                not_run,
                format!("decided: ahead at {needed} needed")
            )
        ),
    }
}

pub(super) fn bench_average(
    plan: &CheckPlan,
    key: &crate::key::RunKey,
    bench: Option<&BenchSummary>,
    at_most: f64,
    details: &mut Vec<String>,
) -> Measure {
    let Some(s) = bench else {
        return Measure {
            passed: false,
            measured: 0.0,
            unit: "attacks",
            bound: format!("<= {at_most}"),
            summary: "the bench was not played".to_string(),
        };
    };
    for f in &s.failures {
        // The bench's own replay command: options, key and limits
        // included, the spec quoted.
        let replay = crate::replay::bench_command(&crate::match_plan::SoloPlan {
            config: plan.config.clone(),
            seed: s.seed,
            key: key.clone(),
            secret_index: f.secret_index,
            bot: plan.bot.command.clone(),
            limits: plan.bot.limits.clone(),
        });
        details.push(format!(
            "secret {} [{}]: {} after {} ({}); replay: {}",
            f.secret_index,
            f.secret,
            f.reason,
            crate::report::moves_word(s.game, u64::from(f.attacks)),
            f.verdict,
            crate::report::as_invoked(&replay)
        ));
    }
    Measure {
        passed: s.failures.is_empty() && s.average <= at_most,
        measured: s.average,
        unit: "attacks",
        bound: format!("<= {at_most}"),
        summary: format!(
            "average {:.3} attacks (largest {}) over {} of {} secrets cracked",
            s.average, s.largest, s.cracked, s.games
        ),
    }
}

pub(super) fn max_move_time(
    outcomes: &[GameOutcome],
    all_benches: &[Option<BenchSummary>],
    below: std::time::Duration,
) -> Measure {
    let games_max = outcomes.iter().map(|o| o.time_max_ms).fold(0.0, f64::max);
    let bench_max = all_benches
        .iter()
        .flatten()
        .map(|s| s.time_max_ms)
        .fold(0.0, f64::max);
    let max = games_max.max(bench_max);
    let played = outcomes.len() as u64 + all_benches.iter().flatten().map(|s| s.games).sum::<u64>();
    Measure {
        passed: max < below.as_secs_f64() * 1000.0,
        measured: max,
        unit: "ms",
        bound: format!("< {below:?}"),
        summary: format!("largest reply time {max:.3} ms over {played} games"),
    }
}
