//! The match runner: drives any [`Game`] between two bot processes, turning
//! process faults, malformed lines and illegal replies into verdicts, and
//! produces one [`MatchRecord`]. It knows the rules only through the `Game`
//! trait and processes only through `crate::bot`.
//!
//! A solo game ([`play_solo`]: the referee holds the secret, only seat A is
//! asked) runs through the same loop with no process at seat B.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::bot::{
    self, BotCommand, BotProcess, Fault, Language, Opponent, ProcessLimits, ProcessReport,
};
use crate::games::driver::{drive, Ending, Seats, Turn};
use crate::games::{self, Game, GameConfig, Outcome, Seat, Winner};
use crate::match_plan::{MatchLimits, MatchPlan, SoloPlan};
use crate::protocol;
use crate::record::{Holder, MatchRecord, PlayerRecord, RECORD_VERSION};
use crate::replay::ReplayPlan;
use crate::time_bank::{self, TimeBank};
use crate::transcript::{Direction, TranscriptWriter};
use crate::verdict::{Disqualification, Verdict};

mod bot_seats;
mod judge_game;
mod record;
mod seating;

pub use judge_game::JudgeGame;
use {bot_seats::*, record::*, seating::*};

/// A bot command ready to spawn, or the compile failure that is its verdict
/// (detail, compiler message).
pub type Prepared = Result<BotCommand, (String, String)>;

/// Builds a source bot (compiles it, or finds it in the cache) into its
/// language's run command; a source that does not compile is that bot's
/// `compile` verdict, a referee that cannot compile at all is an error.
pub fn prepare(command: &BotCommand, limits: &MatchLimits) -> Result<Prepared, MatchError> {
    match bot::compile::prepare(
        command,
        &limits.process.sandbox,
        command.language.def().compile_time,
    ) {
        Ok(ready) => Ok(Ok(ready)),
        Err(e) if e.is_verdict() => Ok(Err((e.to_string(), e.compiler_message().to_string()))),
        Err(source) => Err(MatchError::Compiler {
            bot: command.spec.clone(),
            source,
        }),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The referee was asked to stop (Ctrl-C) during the game; it is not
    /// recorded and its bots are killed.
    #[error("the game was interrupted")]
    Interrupted,
    /// The system would not start a bot (after retries): the game is not
    /// played, and is nobody's loss.
    #[error("bot '{bot}' could not be started, for a reason that is not the bot's")]
    NotStarted { bot: String, source: std::io::Error },
    /// The organiser's files keep the bot from its sandbox (the message
    /// says which and what to do): bad input, not retried.
    #[error("bot '{bot}' cannot be started as set up")]
    Unreachable { bot: String, source: std::io::Error },
    #[error("cannot write the transcript {}", path.display())]
    Transcript {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The referee could not compile a bot source (no compiler, no cache);
    /// a source that does not compile is the `compile` verdict instead.
    #[error("bot '{bot}'")]
    Compiler {
        bot: String,
        source: bot::compile::CompileError,
    },
    /// The judge does not take this many players (its `ready` says how
    /// many it takes): bad input, no game.
    #[error("the judge {judge} does not take {players} players: it takes {takes}")]
    Players {
        judge: String,
        players: usize,
        takes: String,
    },
    /// The game's judge failed (crashed, hung, broke its protocol, gave
    /// up): the game is void, nobody's loss, and a tournament plays it
    /// again on `--resume`.
    #[error("{}", judge_failure(judge, void))]
    Judge {
        judge: String,
        void: games::judge::Void,
    },
}

impl MatchError {
    /// The judge refused the game at its start (its options): bad input,
    /// the same for every game of that judge (see `Void::refused`).
    pub fn is_refused_game(&self) -> bool {
        matches!(self, MatchError::Judge { void, .. } if void.refused)
    }
}

/// The message of a void game: the judge, its message at fault, what was
/// wrong, and its last stderr lines.
fn judge_failure(judge: &str, void: &games::judge::Void) -> String {
    let mut text = if void.refused {
        format!(
            "the judge {judge} {}; give it options it takes and as many players as it takes (--option and the bots of `match`; [options] and players_per_game in a file)",
            void.what
        )
    } else {
        format!(
            "the judge {judge} failed at its message {}: {}; the game is void (nobody's loss)",
            void.message, void.what
        )
    };
    if !void.stderr.is_empty() {
        text.push_str("\nthe judge's stderr:");
        for line in &void.stderr {
            text.push_str("\n  ");
            text.push_str(line);
        }
    }
    text
}

pub use crate::model::moves::{MoveWatcher, PublicMove};

/// Plays one game. Bot misbehaviour ends up in the record's verdicts; `Err`
/// is only for the referee's own failures (e.g. an unwritable transcript).
pub fn play_match(
    plan: &MatchPlan,
    transcript_path: Option<&PathBuf>,
) -> Result<MatchRecord, MatchError> {
    play_match_watched(plan, transcript_path, None)
}

/// [`play_match`], each move told to `watcher` as it is made.
pub fn play_match_watched(
    plan: &MatchPlan,
    transcript_path: Option<&PathBuf>,
    watcher: Option<&mut dyn MoveWatcher>,
) -> Result<MatchRecord, MatchError> {
    let seating = Seating {
        config: &plan.config,
        seed: plan.seed,
        bots: plan.bots.iter().map(Some).collect(),
        commands: plan
            .bots
            .iter()
            .zip(&plan.limits)
            .map(|(bot, limits)| prepare(bot, limits).map(Some))
            .collect::<Result<_, _>>()?,
        limits: plan.limits.iter().collect(),
        replay: ReplayPlan::of_match(plan),
        script: None,
    };
    Ok(play_seated(plan, &seating, transcript_path, watcher)?.0)
}

/// The game of `plan` (drawn from its key and seed) played by `seating`:
/// its record, and why a recorded seat stopped, if one did.
fn play_seated(
    plan: &MatchPlan,
    seating: &Seating,
    transcript_path: Option<&PathBuf>,
    watcher: Option<&mut dyn MoveWatcher>,
) -> Result<(MatchRecord, Option<String>), MatchError> {
    let mut rng = plan.key.rng(plan.seed);
    let (record, _, end) = match &plan.config {
        GameConfig::Arrow5(config) => {
            let game = games::arrow5::Arrow5::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path, watcher).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Mastermind(config) => {
            let game = games::mastermind::Mastermind::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path, watcher).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Cryptron(config) => {
            let game = games::cryptron::Cryptron::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path, watcher).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Safecracker(config) => {
            let game = games::safecracker::SafeCracker::new(config.clone(), &mut rng);
            run_recorded(game, seating, transcript_path, watcher).map(|(r, _, e)| (r, (), e))?
        }
        GameConfig::Judge(config) => {
            let game = JudgeGame::start(
                config,
                &judge_seed(&mut rng),
                seating
                    .seats()
                    .into_iter()
                    .map(|seat| judge_name(seating, seat))
                    .collect(),
                &seating.limits[0].process,
            )?;
            run_recorded(game, seating, transcript_path, watcher).map(|(r, _, e)| (r, (), e))?
        }
    };
    Ok((record, end))
}

/// The name a judge is told for `seat`: its bot's, and in a reproduced
/// game the recorded bot's as it was (not marked as recorded), so the
/// judge sets up the same game.
fn judge_name(seating: &Seating, seat: Seat) -> String {
    let name = seating.name(seat);
    match &seating.script {
        Some((recorded, _)) if *recorded == seat => name
            .strip_suffix(RECORDED_MARK)
            .map_or(name.clone(), str::to_string),
        _ => name,
    }
}

/// What a reproduced game's recorded seat's name ends with.
pub const RECORDED_MARK: &str = " (recorded)";

/// How many bytes of the game's random stream a judge is given: enough
/// for a judge to draw what a built-in game draws, rejection sampling
/// included (Mastermind's random codes redraw about one draw in three).
pub const JUDGE_SEED_BYTES: usize = 1024;

/// A judge's secret seed: the first [`JUDGE_SEED_BYTES`] bytes of the
/// game's random stream.
pub fn judge_seed(rng: &mut impl rand::RngCore) -> [u8; JUDGE_SEED_BYTES] {
    let mut seed = [0u8; JUDGE_SEED_BYTES];
    rng.fill_bytes(&mut seed);
    seed
}

/// A game that stopped without an outcome or a verdict.
const UNFINISHED: &str = "unfinished";

/// A reproduced game whose recorded seat could not go on.
pub const RECORD_ENDED: &str = "record-ended";

/// What `referee reproduce` played: the record of the game, and why the
/// recorded seat stopped, if it did before the game ended.
pub struct Reproduction {
    pub record: MatchRecord,
    pub record_end: Option<String>,
}

/// Plays `plan` with the seat `recorded` played from `replies` (its
/// recorded replies, in order) instead of a process: the same game, key
/// and seed, the other seat's bot new. The recorded seat's bot is never
/// started (its command names it in the record only).
pub fn play_reproduction(
    plan: &MatchPlan,
    recorded: Seat,
    replies: Vec<String>,
    transcript_path: Option<&PathBuf>,
) -> Result<Reproduction, MatchError> {
    let live = recorded.other();
    let mut commands = vec![None, None];
    commands[live.index()] = Some(prepare(
        &plan.bots[live.index()],
        &plan.limits[live.index()],
    )?);
    let seating = Seating {
        config: &plan.config,
        seed: plan.seed,
        bots: plan.bots.iter().map(Some).collect(),
        commands,
        limits: plan.limits.iter().collect(),
        replay: ReplayPlan::of_match(plan),
        script: Some((recorded, replies)),
    };
    let (record, record_end) = play_seated(plan, &seating, transcript_path, None)?;
    Ok(Reproduction { record, record_end })
}

/// Plays one solo game (built by the game's `solo` function): only seat A is
/// ever asked, so only the plan's bot is started. Returns the record and the
/// finished game (its `summary` tells the secret). Seat B's player record is
/// the referee's, with no replies.
pub fn play_solo<G: Game>(
    game: G,
    plan: &SoloPlan,
    transcript_path: Option<&PathBuf>,
) -> Result<(MatchRecord, G), MatchError> {
    let seating = Seating {
        config: &plan.config,
        seed: plan.seed,
        bots: vec![Some(&plan.bot), None],
        commands: vec![Some(prepare(&plan.bot, &plan.limits)?), None],
        limits: vec![&plan.limits, &plan.limits],
        replay: ReplayPlan::of_bench(plan),
        script: None,
    };
    run_recorded(game, &seating, transcript_path, None).map(|(record, game, _)| (record, game))
}

/// Plays a game with its transcript written, if one is asked for.
fn run_recorded<G: Game>(
    game: G,
    seating: &Seating,
    transcript_path: Option<&PathBuf>,
    watcher: Option<&mut dyn MoveWatcher>,
) -> Result<(MatchRecord, G, Option<String>), MatchError> {
    let transcript = match transcript_path {
        Some(path) => TranscriptWriter::create(path).map_err(|source| MatchError::Transcript {
            path: path.clone(),
            source,
        })?,
        None => TranscriptWriter::none(),
    };
    let (record, transcript, game, script_end) = run(game, seating, transcript, watcher)?;
    transcript
        .finish(&record)
        .map_err(|source| MatchError::Transcript {
            path: transcript_path.cloned().unwrap_or_default(),
            source,
        })?;
    Ok((record, game, script_end))
}

/// One game, step by step: seat the players, greet them, play the turns,
/// end the game, keep the record.
fn run<G: Game>(
    game: G,
    plan: &Seating,
    mut transcript: TranscriptWriter,
    watcher: Option<&mut dyn MoveWatcher>,
) -> Result<(MatchRecord, TranscriptWriter, G, Option<String>), MatchError> {
    transcript.header(
        plan.config.game_name(),
        &plan.config.variant_name(),
        plan.seed,
        plan.seats()
            .into_iter()
            .map(|seat| plan.name(seat))
            .collect(),
        plan.seats()
            .into_iter()
            .map(|seat| plan.spec(seat))
            .collect(),
    );
    let mut account = setup_summary(plan, game.first_to_move());
    account.extend(game.opening());
    let mut players = seat_players(plan, &mut transcript)?;
    if let Some((seat, lines)) = &plan.script {
        players[seat.index()].script = Some(lines.iter().cloned().collect());
    }
    // Greetings expect no reply; a bot that died at once is caught by its
    // first request.
    for greeting in game.greetings() {
        let i = greeting.to.index();
        send_notice(
            &mut players[i],
            greeting.to,
            &greeting.line,
            plan.limits[i],
            &mut transcript,
        );
    }
    // A seat judged before the game (`compile`, a program that cannot be
    // run) leaves no game to play.
    let mut last_judged = None;
    let (game, outcome) = if players.iter().any(|p| p.disqualification.is_some()) {
        (game, None)
    } else {
        let mut seats = BotSeats {
            players: &mut players,
            plan,
            transcript: &mut transcript,
            account: &mut account,
            last_judged: None,
            // The watcher is borrowed for this game's loop only.
            watcher: watcher.map(|w| -> &mut dyn MoveWatcher { w }),
            frames_told: 0,
        };
        let driven = drive(game, &mut seats)?;
        last_judged = seats.last_judged;
        match driven {
            (game, Ending::Over(outcome)) => (game, Some(outcome)),
            (game, Ending::Stopped(())) => (game, None),
        }
    };
    end_game(
        &mut players,
        plan,
        outcome.as_ref(),
        game.ranks(),
        &mut transcript,
    );
    // The rules are told the game is over (a judge stops), and why when
    // it is not theirs: the verdict that stopped it. With more than two
    // players, that is the last one (the judge was told `out` for the
    // others), and none when the rules ended the game.
    let seats = match (last_judged, plan.seats().len() > 2, &outcome) {
        (_, true, Some(_)) => vec![],
        (Some(seat), _, _) => vec![seat],
        _ => plan.seats(),
    };
    let verdict = seats.into_iter().find_map(|seat| {
        players[seat.index()]
            .disqualification
            .as_ref()
            .map(|d| (seat, d.verdict))
    });
    let reason = match (&outcome, verdict) {
        (_, Some(_)) => "verdict",
        (Some(_), None) => "over",
        (None, None) => UNFINISHED,
    };
    game.stop(reason, verdict);
    account.extend(game.summary());
    let mut record = record_of(plan, &game, &players, outcome.as_ref(), account);
    let script_end = players.iter().find_map(|p| p.script_end.clone());
    if script_end.is_some() && record.reason == UNFINISHED {
        record.reason = RECORD_ENDED.into();
    }
    Ok((record, transcript, game, script_end))
}

fn ms(d: Duration) -> f64 {
    round3(d.as_secs_f64() * 1000.0)
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_its_head_and_tail_around_one_gap() {
        let mut kept = StderrKept::default();
        for i in 0..100 {
            kept.push(format!("line {i}"));
        }
        let lines = kept.lines();
        assert_eq!(lines.len(), STDERR_HEAD_LINES + 1 + STDERR_TAIL_LINES);
        assert_eq!(lines[0], "line 0");
        assert_eq!(lines[STDERR_HEAD_LINES], "[... 60 lines left out ...]");
        assert_eq!(lines.last().unwrap(), "line 99");
        // Lines the process dropped join the gap: no line after them goes
        // to the head, and one marker counts every line left out.
        let mut kept = StderrKept::default();
        kept.push("first".into());
        kept.skip(500);
        kept.push("last".into());
        assert_eq!(
            kept.lines(),
            ["first", "[... 500 lines left out ...]", "last"]
        );
    }

    #[test]
    fn a_stray_line_is_placed_among_what_the_bot_was_sent() {
        let mut heard = Heard::default();
        heard.replied("1 2 3 4 5");
        heard.notified("signal > .");
        assert_eq!(
            stray_detail(
                &heard,
                2,
                vec!["ok".into()],
                StrayPlace::BeforeReply("2 7 3 1 9")
            ),
            "wrote a line nobody asked for: 'ok', after 'signal > .', a line sent after \
             its move 2 that takes no reply; its reply to move 3 was '2 7 3 1 9'"
        );
        let mut heard = Heard::default();
        heard.notified("signal > <");
        heard.replied("1 2 3 4 5");
        assert_eq!(
            stray_detail(
                &heard,
                2,
                vec!["x".into(), "y".into()],
                StrayPlace::BeforeRequest
            ),
            "wrote a line nobody asked for: 'x' (and 1 more after it), after its reply to \
             move 2 ('1 2 3 4 5'), before its request for move 3 was written"
        );
        let mut greeted = Heard::default();
        greeted.notified("arrow5 classic first 50 7");
        assert_eq!(
            stray_detail(&greeted, 0, vec!["hi".into()], StrayPlace::BeforeRequest),
            "wrote a line nobody asked for: 'hi', after its greeting 'arrow5 classic first \
             50 7', which takes no reply, before its request for move 1 was written"
        );
    }
}
