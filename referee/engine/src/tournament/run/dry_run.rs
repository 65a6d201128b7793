//! `--dry-run`: the games a run would play in a results folder, and why,
//! playing and writing nothing.

use super::*;

/// What `--dry-run` found: the games a run would play, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DryRun {
    /// Games of the schedule (of the shard).
    pub scheduled: u64,
    /// Of them, already played (in the folder's store, or its games.csv
    /// for the formats played in rounds).
    pub already_played: u64,
    /// Games with a bot the folder has never seen (by name).
    pub new_bot: u64,
    /// Games with a bot whose content differs from every game the folder
    /// has of that name (its program, language or limits changed).
    pub changed_bot: u64,
    /// The other games not in the folder (never played: a new folder, more
    /// games per pairing, a run that stopped early).
    pub never_played: u64,
    pub new_bots: Vec<String>,
    pub changed_bots: Vec<String>,
    /// Bots the folder has games of that the file no longer has.
    pub removed_bots: Vec<String>,
    /// Games in the folder's store that are not in the standings (of bots
    /// removed or replaced).
    pub kept_aside: u64,
    /// A format played in rounds: its name (the counts are then as far as
    /// its rounds are paired).
    pub rounds: Option<&'static str>,
}

impl DryRun {
    pub fn to_play(&self) -> u64 {
        self.new_bot + self.changed_bot + self.never_played
    }
}

impl std::fmt::Display for DryRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |v: &[String]| {
            if v.is_empty() {
                String::new()
            } else {
                format!(" ({})", v.join(", "))
            }
        };
        if let Some(format) = self.rounds {
            return writeln!(
                f,
                "dry run: {} of {} games to play, {} already played; nothing was played\n  a {format} tournament is paired round by round from its results: later rounds are known only once the earlier ones are played",
                self.to_play(),
                self.scheduled,
                self.already_played
            );
        }
        writeln!(
            f,
            "dry run: {} of {} games to play, {} already played; nothing was played",
            self.to_play(),
            self.scheduled,
            self.already_played
        )?;
        writeln!(
            f,
            "  {} with a new bot{}",
            self.new_bot,
            names(&self.new_bots)
        )?;
        writeln!(
            f,
            "  {} with a changed bot{}",
            self.changed_bot,
            names(&self.changed_bots)
        )?;
        writeln!(f, "  {} never played", self.never_played)?;
        if self.kept_aside > 0 || !self.removed_bots.is_empty() {
            writeln!(
                f,
                "  {} games in the folder stay out of the standings (bots removed{} or replaced)",
                self.kept_aside,
                names(&self.removed_bots)
            )?;
        }
        Ok(())
    }
}

/// Says what [`run`] would play in `options.out`, and why, playing and
/// writing nothing (no folder, no key made).
pub fn dry_run(plan: &TournamentPlan, options: &RunOptions) -> Result<DryRun, TournamentError> {
    let out = &options.out;
    let games_path = out.join(GAMES_CSV);
    if plan.format.has_rounds() {
        if options.shard.is_some() {
            return Err(TournamentError::ShardOfRounds {
                format: plan.format.name(),
            });
        }
        super::folder::refuse_rounds_of_another_file(plan, out)?;
        let mut results = Results::default();
        if games_path.exists() {
            for_each_row(&games_path, |row| results.add(plan, &row))?;
        }
        let expected = plan
            .format
            .rules(plan)
            .expected_games(plan, &results)
            .map_err(|source| TournamentError::OffSchedule {
                path: games_path.clone(),
                source,
            })?;
        let done = results.len() as u64;
        return Ok(DryRun {
            scheduled: expected,
            already_played: done,
            never_played: expected.saturating_sub(done),
            rounds: Some(plan.format.name()),
            ..DryRun::default()
        });
    }
    super::folder::refuse_another_shard(options)?;
    let key_path = out.join(crate::key::KEY_FILE);
    let key = if input_file::is_there(&key_path) {
        Some(crate::key::RefereeKey::read_kept(&key_path)?)
    } else {
        options.key.clone()
    };
    let store = match &key {
        Some(_) => Store::read(out)?,
        None => Store::empty(),
    };
    let key =
        key.unwrap_or_else(|| crate::key::RefereeKey::from_hex(&"0".repeat(64)).expect("hex"));
    let schedule = Schedule::new(plan, GameIdentities::new(plan, &key, options.jobs)?);
    let contents = schedule.identities().content_hexes();
    let mut known: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for game in store.games() {
        let StoredGame { row, contents, .. } = game?;
        for (name, content) in [row.bot_a, row.bot_b].into_iter().zip(contents) {
            known.entry(name).or_default().insert(content);
        }
    }
    let mut report = DryRun::default();
    let mut in_standings: HashSet<Hash256> = HashSet::new();
    for (i, bot) in plan.bots.iter().enumerate() {
        match known.get(bot.name.as_str()) {
            None if !store.is_empty() => report.new_bots.push(bot.name.clone()),
            Some(seen) if !seen.contains(contents[i].as_str()) => {
                report.changed_bots.push(bot.name.clone())
            }
            _ => {}
        }
    }
    let names = plan.bot_names();
    report.removed_bots = known
        .keys()
        .filter(|n| !names.iter().any(|m| m == *n))
        .map(|n| n.to_string())
        .collect();
    // Only the games up to the furthest index kept of each pairing are
    // looked up (without a shard): the rest are not in the folder.
    let furthest = furthest_kept(&store);
    let per_pairing = u64::from(plan.games_per_pairing);
    for (p, &(i, j)) in schedule.pairings().iter().enumerate() {
        let of = |list: &[String]| [i, j].iter().any(|&b| list.contains(&plan.bots[b].name));
        let (mut scheduled, mut done) = (0, 0);
        let looked = match (
            options.shard,
            furthest.get(&pair_of(&contents[i], &contents[j])),
        ) {
            (None, None) => 0,
            (None, Some(&last)) => ((last | 1) + 1).min(per_pairing),
            (Some(_), _) => per_pairing,
        };
        for game in (0..looked).filter_map(|k| schedule.game(schedule.number_of(p, k)?)) {
            if options.shard.is_some_and(|s| !s.contains(&game)) {
                continue;
            }
            scheduled += 1;
            let id = game.identity.expect("a scheduled game has an identity");
            if store.has(&id) {
                done += 1;
                in_standings.insert(id);
            }
        }
        if options.shard.is_none() {
            scheduled += per_pairing - looked;
        }
        report.scheduled += scheduled;
        report.already_played += done;
        let missing = scheduled - done;
        if of(&report.new_bots) {
            report.new_bot += missing;
        } else if of(&report.changed_bots) {
            report.changed_bot += missing;
        } else {
            report.never_played += missing;
        }
    }
    if options.shard.is_none() {
        report.kept_aside = store.ids().filter(|id| !in_standings.contains(id)).count() as u64;
    }
    Ok(report)
}
