//! Playing the games: each on a worker, its transcript written, its record
//! handed back to this thread, which tells the reporters and keeps the
//! rows a format played in rounds pairs its next round from.

use super::*;
use crate::reporter::live_game::LiveOutput;
use crate::runner::{play_match_watched, MoveWatcher};

/// Transcripts hold the codes of finished games: their folder is the
/// referee's user's alone, so that bots (under strict, users of their own)
/// cannot read their opponents' past codes.
pub(crate) fn transcripts_folder(out: &Path) -> Result<PathBuf, TournamentError> {
    let transcripts = out.join("transcripts");
    std::os::unix::fs::DirBuilderExt::mode(fs::DirBuilder::new().recursive(true), 0o700)
        .create(&transcripts)
        .and_then(|()| {
            fs::set_permissions(
                &transcripts,
                std::os::unix::fs::PermissionsExt::from_mode(0o700),
            )
        })
        .map_err(io_error(&transcripts, "cannot create the folder"))?;
    Ok(transcripts)
}

/// One game of the schedule, with its transcript; whether the transcript
/// could not be written (the game is then played again without one: a full
/// disk must not cost the game).
pub(super) fn play_game(
    plan: &TournamentPlan,
    key: &crate::key::RunKey,
    out: &Path,
    transcripts: &Path,
    live: &LiveOutput,
    game: ScheduledGame,
) -> (ScheduledGame, Result<MatchRecord, MatchError>, bool) {
    let match_plan = MatchPlan {
        config: plan.config.clone(),
        seed: game.seed,
        key: key.clone(),
        bots: vec![
            plan.bots[game.a].command.clone(),
            plan.bots[game.b].command.clone(),
        ],
        limits: vec![
            plan.bots[game.a].limits.clone(),
            plan.bots[game.b].limits.clone(),
        ],
    };
    let path = transcript_path(out, transcripts, &game);
    let names = [
        plan.bots[game.a].name.as_str(),
        plan.bots[game.b].name.as_str(),
    ];
    let (result, transcript_failed) = play_watched(&match_plan, &path, live, game.number, &names);
    (game, result, transcript_failed)
}

/// Plays game `number` of `match_plan` (its seats' bots named `names`, A
/// first), its transcript to `path`, told move by move to `live`; and
/// whether the transcript could not be written (the game is then played
/// again without one: a full disk must not cost the game).
pub(crate) fn play_watched(
    match_plan: &MatchPlan,
    path: &PathBuf,
    live: &LiveOutput,
    number: u64,
    names: &[&str],
) -> (Result<MatchRecord, MatchError>, bool) {
    // Told move by move while it is played; its live file goes with it.
    let watch = || live.start(number, match_plan.seed, names);
    let mut watcher = watch();
    let result = play_match_watched(
        match_plan,
        Some(path),
        watcher.as_mut().map(|w| w as &mut dyn MoveWatcher),
    );
    drop(watcher);
    if let Err(MatchError::Transcript { .. }) = result {
        let mut watcher = watch();
        let again = play_match_watched(
            match_plan,
            None,
            watcher.as_mut().map(|w| w as &mut dyn MoveWatcher),
        );
        return (again, true);
    }
    (result, false)
}

/// Where a game's transcript is written while it is played: a kept game's
/// beside the store, under a name of its own until it is kept (two games
/// of one identity may be played at once, by bots of the same content).
pub(super) fn transcript_path(out: &Path, transcripts: &Path, game: &ScheduledGame) -> PathBuf {
    match game.identity {
        Some(id) => {
            let kept = Store::transcript_path(out, &id);
            kept.with_file_name(format!(".{}.{}.part", id.to_hex(), game.number))
        }
        None => transcripts.join(format!("game-{:06}.jsonl", game.number)),
    }
}

/// Where games are kept by identity, and the contents of the plan's bots.
pub(super) struct Keeping {
    pub(super) store: Store,
    pub(super) contents: Vec<String>,
}

/// What the games of this run came to, as they finish.
#[derive(Default)]
pub(super) struct Played {
    /// Round robins and gauntlets: the store each game is kept in.
    pub(super) keeping: Option<Keeping>,
    pub(super) now: u64,
    pub(super) not_played: u64,
    pub(super) not_played_why: Option<String>,
    /// The numbers of the games voided by their judge (counted in
    /// `not_played` too), and why the first was.
    pub(super) void_games: Vec<u64>,
    pub(super) void_why: Option<String>,
    pub(super) transcript_failures: u64,
    pub(super) error: Option<TournamentError>,
    /// The games recorded, kept for the next round's pairing (formats
    /// played in rounds only).
    pub(super) rows: Option<Vec<(u64, PlayedGame)>>,
    /// Formats played in rounds: the block's games are recorded in the
    /// order of their numbers, whatever order they end in.
    pub(super) in_order: Option<InOrder>,
}

/// Games that ended before a game numbered before them, held back until
/// it is recorded (or is not: interrupted, not started), so that
/// `games.csv` is in schedule order, as a resumed run's is. A killed
/// referee loses those too; `--resume` plays them again, with the same
/// seeds.
pub(super) struct InOrder {
    /// The numbers of the block's games handed out or to hand out, in
    /// order, not yet recorded.
    pub(super) upcoming: std::collections::VecDeque<u64>,
    /// Games ended (with their record, `None` if not to be recorded) whose
    /// turn has not come.
    pub(super) held: std::collections::BTreeMap<u64, Option<(ScheduledGame, MatchRecord)>>,
}

impl Played {
    /// Records a finished game through the reporters (in number order, for
    /// the formats played in rounds), or says why it is not recorded;
    /// stops the run when results could not be kept.
    pub(super) fn take(
        &mut self,
        plan: &TournamentPlan,
        out: &Path,
        game: ScheduledGame,
        result: Result<MatchRecord, MatchError>,
        transcript_failed: bool,
        reporters: &mut dyn Reporter,
    ) -> Flow {
        self.transcript_failures += u64::from(transcript_failed);
        let transcript = game
            .identity
            .map(|id| (id, transcript_path(out, Path::new(""), &game)));
        if let (Some((_, part)), Err(_)) = (&transcript, &result) {
            let _ = fs::remove_file(part);
        }
        let (record, flow) = match result {
            Ok(record) => (Some((game, record)), Flow::Go),
            // Interrupted games are not recorded: resume plays them.
            Err(MatchError::Interrupted) | Err(MatchError::Transcript { .. }) => (None, Flow::Go),
            // The system would not start a bot, even after retries: the
            // game is not played (nobody's loss); resume plays it.
            Err(e @ MatchError::NotStarted { .. }) => {
                self.not_played += 1;
                self.not_played_why
                    .get_or_insert(crate::text::with_causes(&e));
                (None, Flow::Go)
            }
            // The judge failed: the game is void (nobody's loss), not
            // recorded; resume plays it again.
            // The judge refused the game's options: every game would be
            // refused alike, so stop, as for bad input.
            Err(e @ MatchError::Judge { .. }) if e.is_refused_game() => {
                self.error.get_or_insert(TournamentError::Match(e));
                bot::request_stop();
                (None, Flow::Stop)
            }
            Err(e @ MatchError::Judge { .. }) => {
                self.not_played += 1;
                self.void_games.push(game.number);
                self.void_why.get_or_insert(crate::text::with_causes(&e));
                (None, Flow::Go)
            }
            // The referee cannot compile bots here (no compiler, no
            // cache), or the organiser's files keep a bot from its sandbox:
            // no game can be judged fairly until that is fixed, so stop.
            // A judge that does not take the tournament's players: no
            // game of it can be played.
            Err(e @ MatchError::Compiler { .. })
            | Err(e @ MatchError::Unreachable { .. })
            | Err(e @ MatchError::Players { .. }) => {
                self.error.get_or_insert(TournamentError::Match(e));
                bot::request_stop();
                (None, Flow::Stop)
            }
        };
        let Some(in_order) = &mut self.in_order else {
            return match record {
                Some((game, record)) => self.record(plan, out, game, &record, reporters),
                None => flow,
            };
        };
        in_order.held.insert(game.number, record);
        let mut due = vec![];
        while let Some(&next) = in_order.upcoming.front() {
            let Some(ended) = in_order.held.remove(&next) else {
                break;
            };
            in_order.upcoming.pop_front();
            due.extend(ended);
        }
        for (game, record) in due {
            if self.record(plan, out, game, &record, reporters) == Flow::Stop {
                return Flow::Stop;
            }
        }
        flow
    }

    /// Records the games still held back, in order: the block is over, and
    /// the games before them will not be recorded in this run.
    pub(super) fn write_held_back(
        &mut self,
        plan: &TournamentPlan,
        out: &Path,
        reporters: &mut dyn Reporter,
    ) {
        let Some(in_order) = self.in_order.take() else {
            return;
        };
        for (game, record) in in_order.held.into_values().flatten() {
            if self.record(plan, out, game, &record, reporters) == Flow::Stop {
                return;
            }
        }
    }

    /// Keeps a game (round robins and gauntlets: in the store) and hands
    /// its row to the reporters.
    pub(super) fn record(
        &mut self,
        plan: &TournamentPlan,
        out: &Path,
        game: ScheduledGame,
        record: &MatchRecord,
        reporters: &mut dyn Reporter,
    ) -> Flow {
        let transcript = game
            .identity
            .map(|id| (id, transcript_path(out, Path::new(""), &game)));
        let row = to_row(plan, game, record);
        if let (Some(keeping), Some((id, part))) = (&mut self.keeping, transcript) {
            // The transcript first: a game kept always has its transcript.
            if part.exists() {
                let _ = fs::rename(&part, Store::transcript_path(out, &id));
            }
            let stored = StoredGame {
                id: id.to_hex(),
                contents: [
                    keeping.contents[game.a].clone(),
                    keeping.contents[game.b].clone(),
                ],
                index: game.index,
                row: row.clone(),
            };
            if let Err(e) = keeping.store.append(id, stored) {
                self.error.get_or_insert(e.into());
                bot::request_stop();
                return Flow::Stop;
            }
        }
        let transcript = match game.identity {
            Some(id) => Store::transcript_path(out, &id),
            None => transcript_path(out, &out.join("transcripts"), &game),
        };
        let place = Place::Tournament {
            row: &row,
            transcript: &transcript,
        };
        if let Err(e) = reporters.game_finished(record, &place) {
            self.error.get_or_insert(e.into());
            bot::request_stop();
            return Flow::Stop;
        }
        self.now += 1;
        if let Some(rows) = &mut self.rows {
            rows.push((
                game.number,
                PlayedGame {
                    a: game.a,
                    b: game.b,
                    seed: game.seed,
                    winner: record.winner,
                },
            ));
        }
        Flow::Go
    }
}

pub(super) fn to_row(plan: &TournamentPlan, game: ScheduledGame, record: &MatchRecord) -> GameRow {
    let [a, b] = &record.players[..] else {
        unreachable!("a tournament game has two players")
    };
    let name_a = plan.bots[game.a].name.clone();
    let name_b = plan.bots[game.b].name.clone();
    let detail = record.disqualifications(&[&name_a, &name_b]);
    GameRow {
        game: game.number,
        seed: game.seed,
        result: Some(record.winner),
        winner: match record.winner {
            Winner::A => name_a.clone(),
            Winner::B => name_b.clone(),
            Winner::Draw => String::new(),
        },
        first: match record.first {
            Seat::A => name_a.clone(),
            _ => name_b.clone(),
        },
        bot_a: name_a,
        bot_b: name_b,
        reason: record.reason.clone(),
        attacks_a: a.attacks,
        attacks_b: b.attacks,
        verdict_a: a.verdict,
        verdict_b: b.verdict,
        replies_a: a.replies,
        replies_b: b.replies,
        time_total_ms_a: a.time_total_ms,
        time_max_ms_a: a.time_max_ms,
        time_total_ms_b: b.time_total_ms,
        time_max_ms_b: b.time_max_ms,
        cpu_ms_a: a.cpu_total_ms,
        cpu_ms_b: b.cpu_total_ms,
        cpu_max_ms_a: a.cpu_max_ms,
        cpu_max_ms_b: b.cpu_max_ms,
        peak_memory_kb_a: a.peak_memory_kb,
        peak_memory_kb_b: b.peak_memory_kb,
        detail,
    }
}
