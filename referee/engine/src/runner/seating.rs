//! Who sits where: each seat's bot prepared (compiled, its command made)
//! or the referee's own seat in a solo game, and the lines that describe
//! the set-up in the transcript.

use super::*;

/// Who sits where, for the game loop: a bot at each seat of a match; at seat
/// B of a solo game, nobody (the referee is the codemaker).
pub(super) struct Seating<'a> {
    pub(super) config: &'a GameConfig,
    pub(super) seed: u64,
    /// A, B (then C, D, ... in a game of more than two players).
    pub(super) bots: Vec<Option<&'a BotCommand>>,
    /// What runs at each seat: the command (compiled if it was a source), or
    /// why it could not be compiled (detail, compiler message); `None` for
    /// the referee's seat.
    pub(super) commands: Vec<Option<Prepared>>,
    pub(super) limits: Vec<&'a MatchLimits>,
    /// What plays the game again, kept in its record.
    pub(super) replay: ReplayPlan,
    /// A seat played from a record (`referee reproduce`): no process, its
    /// replies are the recorded ones, in order.
    pub(super) script: Option<(Seat, Vec<String>)>,
}

impl Seating<'_> {
    /// Every seat, A first.
    pub(super) fn seats(&self) -> Vec<Seat> {
        Seat::all(self.bots.len()).collect()
    }

    /// Who holds `seat`: its bot, or the referee at seat B of a solo game.
    pub(super) fn holder(&self, seat: Seat) -> Holder<'_> {
        self.bots[seat.index()].map_or(Holder::Referee, |b| Holder::Bot {
            name: &b.name,
            spec: &b.spec,
        })
    }

    pub(super) fn name(&self, seat: Seat) -> String {
        self.holder(seat).name().to_string()
    }

    pub(super) fn spec(&self, seat: Seat) -> String {
        self.holder(seat).spec().to_string()
    }
}

/// What of a judge game's judge its bots may not read, as they may not
/// read each other's files: its program and its folder (the game's, whose
/// files make its identity, see `judge::content_hash`: maps, levels,
/// answers). A bot's own files in that folder (an example bot of the
/// game's) stay its own, as in a folder of one-file bots. Nothing of a
/// judge installed among the system's programs (a folder of `PATH`),
/// which every program may read; nothing for a built-in game.
pub(crate) fn judges_files(config: &GameConfig) -> Vec<PathBuf> {
    let Some(judge) = config.judge() else {
        return Vec::new();
    };
    let program = std::path::Path::new(&judge.path);
    let Ok(program) = program.canonicalize() else {
        return Vec::new();
    };
    let Some(folder) = program.parent().filter(|f| f.parent().is_some()) else {
        return vec![program];
    };
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|p| p == folder));
    if on_path {
        return Vec::new();
    }
    vec![folder.to_path_buf(), program]
}

/// Starts both bots (frozen: a bot runs only when asked) before the game
/// begins, or judges a seat that cannot play (`compile`, or `crash` when
/// its program cannot be run). A start that fails for the system's reasons
/// is no game at all (`Err`).
pub(super) fn seat_players(
    plan: &Seating,
    transcript: &mut TranscriptWriter,
) -> Result<Vec<Player>, MatchError> {
    let mut started: Vec<Option<Result<BotProcess, std::io::Error>>> =
        plan.seats().iter().map(|_| None).collect();
    let judges_files = judges_files(plan.config);
    for seat in plan.seats() {
        let i = seat.index();
        if let Some(Ok(command)) = &plan.commands[i] {
            let process = if judges_files.is_empty() {
                start(command, &plan.limits[i].process)?
            } else {
                let mut limits = plan.limits[i].process.clone();
                limits.hidden.extend(judges_files.iter().cloned());
                start(command, &limits)?
            };
            started[i] = Some(process);
        }
    }
    Ok(plan
        .seats()
        .into_iter()
        .map(|seat| {
            let i = seat.index();
            let mut player = Player::new(TimeBank::with_margin(
                plan.limits[i].time_bank,
                plan.limits[i].time_margin,
            ));
            // An empty seat (the referee's, in a solo game) has no process: the
            // game never asks it, and lines meant for it go nowhere.
            match (&plan.commands[i], started[i].take()) {
                (None, _) => {}
                (Some(Ok(_)), Some(Ok(process))) => player.process = Some(process),
                (Some(Ok(_)), Some(Err(why))) => {
                    player.disqualification = Some(Disqualification {
                        verdict: Verdict::Crash,
                        detail: format!("could not be started: {why}"),
                        at_move: 0,
                    })
                }
                (Some(Ok(_)), None) => unreachable!("every seat with a command was started"),
                (Some(Err((detail, message))), _) => {
                    // The compiler's message goes to the log as the bot's stderr;
                    // its first lines are the ones that matter.
                    let now = Instant::now();
                    for line in message.lines().take(COMPILER_LOG_LINES) {
                        transcript.message(now, seat, Direction::Stderr, line);
                    }
                    for line in message.lines() {
                        player.stderr_kept.push(line.to_string());
                    }
                    player.disqualify(Verdict::Compile, detail.clone(), 0);
                }
            }
            player
        })
        .collect())
}

/// Set-up lines for the account, before the first move.
pub(super) fn setup_summary(plan: &Seating, first: Seat) -> Vec<String> {
    let mark = |seat: Seat| if seat == first { "  moves first" } else { "" };
    let mut lines = vec![format!(
        "{} ({}), seed {}",
        plan.config.game_name(),
        plan.config.variant_name(),
        plan.seed
    )];
    match plan.bots.as_slice() {
        [Some(a), None] => {
            lines.push(format!(
                "A: {}  [{}]  attacks the referee's secret (solo)",
                a.name, a.spec
            ));
        }
        bots => {
            for (seat, bot) in Seat::all(bots.len()).zip(bots) {
                if let Some(bot) = bot {
                    lines.push(format!(
                        "{seat}: {}  [{}]{}",
                        bot.name,
                        bot.spec,
                        mark(seat)
                    ));
                }
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(program: &str) -> BotCommand {
        BotCommand::parse(program, &crate::bot::Languages::built_in())
            .expect("a program of the system")
    }

    fn seating<'a>(
        config: &'a GameConfig,
        bots: [Option<&'a BotCommand>; 2],
        commands: [Option<Prepared>; 2],
        limits: &'a MatchLimits,
    ) -> Seating<'a> {
        Seating {
            config,
            seed: 7,
            bots: bots.into(),
            commands: commands.into(),
            limits: vec![limits, limits],
            replay: crate::replay::ReplayPlan::Match(crate::replay::MatchReplay {
                config: config.clone(),
                seed: 7,
                key: None,
                specs: bots
                    .map(|b| b.map(|b| b.spec.clone()).unwrap_or_default())
                    .into(),
                limits: vec![
                    crate::replay::ReplayLimits::of(limits),
                    crate::replay::ReplayLimits::of(limits),
                ],
            }),
            script: None,
        }
    }

    #[test]
    fn the_setup_names_each_seat_and_who_moves_first() {
        let config = GameConfig::Cryptron(Default::default());
        let limits = MatchLimits::default();
        let (a, b) = (bot("/bin/true"), bot("/bin/false"));
        let seats = seating(&config, [Some(&a), Some(&b)], [None, None], &limits);
        assert_eq!(seats.name(Seat::A), "true");
        assert_eq!(seats.spec(Seat::B), "/bin/false");
        let lines = setup_summary(&seats, Seat::B);
        assert_eq!(
            lines,
            [
                format!("cryptron ({}), seed 7", config.variant_name()),
                "A: true  [/bin/true]".to_string(),
                "B: false  [/bin/false]  moves first".to_string(),
            ]
        );
    }

    #[test]
    fn a_solo_game_seats_the_referee_at_b() {
        let config = GameConfig::Safecracker(Default::default());
        let limits = MatchLimits::default();
        let a = bot("/bin/true");
        let seats = seating(&config, [Some(&a), None], [None, None], &limits);
        assert_eq!(seats.holder(Seat::B), Holder::Referee);
        let lines = setup_summary(&seats, Seat::A);
        assert_eq!(
            lines[1],
            "A: true  [/bin/true]  attacks the referee's secret (solo)"
        );
        assert_eq!(lines.len(), 2);
    }

    #[test]
    fn a_seat_that_did_not_compile_is_judged_before_any_bot_starts() {
        let config = GameConfig::Cryptron(Default::default());
        let limits = MatchLimits::default();
        let a = bot("/bin/true");
        let failed = Err((
            "exit status 1".to_string(),
            "x.c:1: error\nsecond".to_string(),
        ));
        let seats = seating(&config, [Some(&a), None], [Some(failed), None], &limits);
        let players = seat_players(&seats, &mut TranscriptWriter::none()).expect("no start");
        assert!(players[0].process.is_none());
        let judged = players[0].disqualification.as_ref().expect("judged");
        assert_eq!(judged.verdict, Verdict::Compile);
        assert_eq!(judged.detail, "exit status 1");
        assert_eq!(judged.at_move, 0);
        assert_eq!(players[0].stderr_kept.lines(), ["x.c:1: error", "second"]);
        // The referee's seat has no process and is not judged.
        assert!(players[1].process.is_none());
        assert!(players[1].disqualification.is_none());
    }
}
