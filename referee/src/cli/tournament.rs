//! `referee tournament` and `referee merge`.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use clap::Args;

use referee_engine::bot;
use referee_engine::reporter::csv::TournamentCsv;
use referee_engine::reporter::grades::TournamentGrades;
use referee_engine::reporter::terminal::{standings_table, Terminal};
use referee_engine::reporter::{ReportError, Reporter, Reporters, Run};
use referee_engine::tournament::{self, RunOptions, Shard, TournamentPlan};

use super::Failure;
use referee_engine::bot::{Arena, SandboxChoice};
use referee_engine::text::escape;

#[derive(Args)]
pub struct TournamentArgs {
    /// The tournament file (TOML; see tournaments/*.toml for examples)
    pub file: PathBuf,
    /// Games played at once, each with its bots (two, or a free-for-all's table) [default: the number of cores; at most 1024]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::jobs)]
    pub jobs: Option<usize>,
    /// Results folder [default: a new folder under tournaments/results/]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Finish the tournament whose results are in --out, playing only the games it lacks (a folder
    /// with none, or none yet, is started: a run killed before its first game resumes too)
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Bring --out up to date with the file as it is now (bots added, replaced or removed): play only the games it has not played; the CSVs are then those of the file's bots (round robins and gauntlets; the other formats as --resume)
    #[arg(long, requires = "out", conflicts_with = "resume")]
    pub update: bool,
    /// Say how many games a run would play in --out and why (new bot, changed bot, never played); play nothing, write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Play only shard I of N (a game goes to the shard its identity names, so it stays there when bots change); merge the folders with `referee merge` (round robins and gauntlets; a free-for-all by game number)
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Do not pin each game (the worker and its two bots) to one CPU; pinned, each worker takes a CPU no other referee on the machine holds, and with none free the games are not pinned (said on stderr)
    #[arg(long)]
    pub no_pin: bool,
    /// Confinement of the bots: basic, strict or auto (see `referee match --help`)
    /// [default: the file's `sandbox`, else basic]
    #[arg(long, value_name = "LAYER", value_parser = SandboxChoice::parse)]
    pub sandbox: Option<SandboxChoice>,
    /// The secret key the referee draws codes with (64 hex digits), instead of a fresh one; the results folder keeps a copy (referee.key)
    #[arg(long, value_name = "HEX", conflicts_with = "key_file")]
    pub key: Option<String>,
    /// Read the secret key from FILE (64 hex digits) instead of making one; give every shard the same file. The results folder keeps a copy (referee.key)
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// Do not write the HTML report (report/ in the results folder; by default
    /// its leaderboard is rewritten every few seconds while games finish, and
    /// the whole report is written at the end)
    #[arg(long)]
    pub no_report: bool,
    /// A folder of templates replacing the report's built-in ones of the same name
    #[arg(long, value_name = "DIR", conflicts_with = "no_report")]
    pub templates: Option<PathBuf>,
    #[command(flatten)]
    pub events: super::EventFlags,
    #[command(flatten)]
    pub time: super::TimeFlags,
}

/// `referee report DIR`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A results folder: of `referee tournament`, of `merge`, or a shard's
    /// (the report goes into FOLDER/report/); or the folder of `referee
    /// check --report DIR` (its pages are written again in place)
    pub folder: PathBuf,
    /// A folder of templates replacing the built-in ones of the same name
    /// (index.html, bot.html, game.html, grades.html, base.html, style.css,
    /// viewer.js)
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
}

pub fn run_report(args: ReportArgs) -> Result<super::ExitCode, Failure> {
    let templates = referee_engine::reporter::html::Templates {
        dir: args.templates,
    };
    let written = referee_engine::reporter::html::write_any_report(&args.folder, &templates)
        .map_err(Failure::input)?;
    let what = if args
        .folder
        .join(referee_engine::reporter::html::CHECK_JSON)
        .exists()
        && !args.folder.join("tournament.json").exists()
    {
        "the check's page".to_string()
    } else {
        format!(
            "{} bots, leaderboard {} KiB",
            written.bots,
            written.index_bytes.div_ceil(1024)
        )
    };
    println!(
        "report: {} ({what}, {} game pages, {} KiB in all)",
        written.folder.join("index.html").display(),
        written.games,
        written.total_bytes.div_ceil(1024)
    );
    Ok(super::ExitCode::Ok)
}

/// `referee grade DIR`.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// A tournament's results folder (its games.csv is graded; nothing is played)
    pub folder: PathBuf,
    /// The tournament file whose [grading] section to use (references,
    /// bands, roster relative to that file) [default: FOLDER/tournament.toml,
    /// the copy the folder keeps, with the roster as last graded:
    /// FOLDER/grades/roster.csv]
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
}

pub fn run_grade(args: GradeArgs) -> Result<super::ExitCode, Failure> {
    let meta_path = args.folder.join("tournament.json");
    // The file is named once: the reason alone in the parentheses.
    let unreadable = |why: String| {
        Failure::input(anyhow::anyhow!(
            "{}: cannot read it ({why}); give the results folder of a tournament",
            meta_path.display()
        ))
    };
    let text = referee_engine::input_file::read_to_string(
        &meta_path,
        referee_engine::input_file::Links::Refused,
        referee_engine::input_file::TEXT_CAP,
    )
    .map_err(|e| unreadable(e.why()))?;
    let meta: tournament::run::FolderMeta =
        serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    // The folder's copy of the file, with the roster's copy of its last
    // grading: relative paths in the copy would be taken from the folder.
    let (file, roster_at) = match &args.file {
        Some(file) => (file.clone(), None),
        None => (
            args.folder.join("tournament.toml"),
            Some(
                args.folder
                    .join(referee_engine::reporter::grades::GRADES_DIR)
                    .join(referee_engine::grading::ROSTER_COPY),
            ),
        ),
    };
    let plan = referee_engine::grading::GradingPlan::load(&file, &meta.bots, roster_at.as_deref())
        .map_err(|e| match &args.file {
            Some(_) => Failure::input(e),
            None => Failure::input(anyhow::anyhow!(
                "{} (the folder's copy of the file; give the tournament file with --file)",
                referee_engine::text::with_causes(&e)
            )),
        })?
        .ok_or_else(|| {
            Failure::input(anyhow::anyhow!(
                "{}: no [grading] section: add one (references, bands) to grade",
                file.display()
            ))
        })?;
    if meta.format == tournament::Format::FreeForAll.name() {
        let (_, standings) = tournament::ffa::standings_in(&args.folder).map_err(Failure::input)?;
        let grades = referee_engine::model::ffa::grade_places(&plan, &standings);
        let path = referee_engine::reporter::ffa::write_grades(&args.folder, &grades)
            .map_err(Failure::internal)?;
        for g in &grades {
            println!(
                "{}: {} marks ({})",
                escape(&g.team),
                g.marks,
                escape(&g.reason)
            );
        }
        println!("grades: {}", path.display());
        // A report made before shows the grades made now.
        let report = args.folder.join(referee_engine::reporter::html::REPORT_DIR);
        if report.join("index.html").exists() {
            let templates = referee_engine::reporter::html::Templates::default();
            referee_engine::reporter::html::write_report(&args.folder, &templates)
                .map_err(Failure::internal)?;
            println!("report: {}", report.join("index.html").display());
        }
        return Ok(super::ExitCode::Ok);
    }
    let (win, draw, loss) = meta.scoring;
    let scoring = tournament::Scoring { win, draw, loss };
    let (standings, _) =
        tournament::run::standings_of(&args.folder, &meta.bots, scoring).map_err(Failure::input)?;
    let graded = referee_engine::reporter::grades::grade_folder(
        &args.folder,
        &meta.bots,
        Some(&plan),
        &standings,
    )
    .map_err(Failure::input)?;
    if let Some(warning) = &graded.warning {
        eprint!("{warning}");
    }
    for g in &graded.grades {
        println!(
            "{}: {} marks ({})",
            escape(&g.team),
            g.marks,
            escape(&g.reason())
        );
    }
    if let Some(warning) =
        referee_engine::reporter::grades::unclaimed_warning(&graded.grades, &plan)
    {
        eprint!("{warning}");
    }
    println!(
        "{}",
        referee_engine::reporter::grades::grades_line(&args.folder, &graded.grades)
    );
    // A report made before shows the grades made now.
    let report = args.folder.join(referee_engine::reporter::html::REPORT_DIR);
    if report.join("index.html").exists() {
        let templates = referee_engine::reporter::html::Templates::default();
        referee_engine::reporter::html::write_report(&args.folder, &templates)
            .map_err(Failure::internal)?;
        println!("report: {}", report.join("index.html").display());
    }
    Ok(super::ExitCode::Ok)
}

#[derive(Args)]
pub struct MergeArgs {
    /// Results folders of the shards of one tournament
    #[arg(required = true)]
    pub folders: Vec<PathBuf>,
    /// Folder for the merged games.csv, standings.csv and crosstable.csv
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge folders that are not the whole tournament once (a shard not
    /// given or not finished, a shard given twice) and exit 0, with a
    /// warning; without it such a set is refused (exit 2) and nothing is
    /// written
    #[arg(long)]
    pub partial: bool,
}

/// A default results folder of its own: `base`, or `base-2`, `base-3`, ...
/// when another run (started in the same second) made it first. Made here,
/// each by one call that fails if it is there, so that two runs never
/// share one; a folder that cannot be made is left for the run to say why.
fn new_folder(base: &Path) -> PathBuf {
    if let Some(parent) = base.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let mut name = base.as_os_str().to_owned();
    for n in 2..1000 {
        match std::fs::create_dir(&name) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                name = base.as_os_str().to_owned();
                name.push(format!("-{n}"));
            }
            _ => break,
        }
    }
    PathBuf::from(name)
}

pub fn run_tournament(args: TournamentArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    if let Some(out) = &args.out {
        super::output_folder("--out", out)?;
    }
    let mut plan = TournamentPlan::load(&args.file).map_err(Failure::input)?;
    let sandbox = super::check_sandbox(arena, args.sandbox.unwrap_or(plan.sandbox))?;
    let scale = args.time.scale(None)?;
    for bot in &mut plan.bots {
        bot.limits.process.sandbox = sandbox.clone();
        bot.limits.process.footprint = arena.footprint();
        args.time.apply_margin(&mut bot.limits);
        bot.limits = bot.limits.clone().scaled(scale);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(Failure::input(anyhow::anyhow!("--jobs must be at least 1")));
    }
    // Ctrl-C's handler is in force from the start (`cli::main`): stopped
    // while it planned (the bots' interpreters probed), the run ends here,
    // before it makes its folder or says where its results go.
    if bot::signalled() {
        eprintln!("referee: stopped by a signal (Ctrl-C or SIGTERM) before the first game; nothing was written");
        return Ok(super::ExitCode::Interrupted);
    }
    // The name becomes one safe folder name: never a path out of
    // tournaments/results.
    let out = match args.out.clone() {
        Some(out) => out,
        None => {
            let name = plan
                .folder_name()
                .map_err(|e| Failure::input(anyhow::anyhow!("{}: {e}", args.file.display())))?;
            let base = PathBuf::from(referee_engine::model::folder::RESULTS_ROOT)
                .join(format!("{name}-{}", timestamp()));
            if args.dry_run {
                base
            } else {
                new_folder(&base)
            }
        }
    };
    // The tournament file (its seed draws random codes), the results
    // folder (transcripts of finished games) and a knockout's `seeds_from`
    // folder (an earlier tournament's) are hidden from the bots.
    let key = match (&args.key, &args.key_file) {
        (Some(hex), _) => {
            Some(referee_engine::key::RefereeKey::from_hex(hex).map_err(Failure::input)?)
        }
        (None, Some(path)) => {
            Some(referee_engine::key::RefereeKey::read(path).map_err(Failure::input)?)
        }
        (None, None) => None,
    };
    let run_files = [
        Some(args.file.clone()),
        Some(out.clone()),
        args.key_file.clone(),
        plan.seeds_from.clone(),
        args.events.hidden(),
    ];
    let hidden = super::hidden_from_bots(
        run_files.into_iter().flatten(),
        Some(&out),
        plan.bots.iter().map(|b| &b.command),
    );
    for bot in &mut plan.bots {
        bot.limits.process.hidden = hidden.clone();
    }
    let options = RunOptions {
        jobs,
        out: out.clone(),
        resume: args.resume,
        update: args.update,
        shard: args.shard,
        pin: None,
        key,
        live: Default::default(),
    };
    if plan.format == tournament::Format::FreeForAll {
        return run_free_for_all(&plan, options, &args, sandbox.describe());
    }
    if args.dry_run {
        let report = tournament::dry_run(&plan, &options).map_err(|e| match e {
            tournament::TournamentError::ShardOfRounds { .. }
            | tournament::TournamentError::OffSchedule { .. }
            | tournament::TournamentError::UpdateOfRounds { .. }
            | tournament::TournamentError::ShardOfAnother { .. }
            | tournament::TournamentError::Key(_)
            | tournament::TournamentError::Input(_)
            | tournament::TournamentError::Store(tournament::store::StoreError::Input(_))
            | tournament::TournamentError::Content(_) => Failure::input(e),
            _ => Failure::internal(e),
        })?;
        print!("{report}");
        return Ok(super::ExitCode::Ok);
    }
    let mut options = options;
    if !args.no_pin {
        let claims = bot::CpuClaims::claim(jobs);
        // Said when the games cannot be pinned as asked; where they are,
        // with --verbose.
        if claims.short() || super::verbose() {
            eprintln!("{}", claims.describe());
        }
        options.pin = Some(claims);
    }
    eprintln!(
        "{}: {} ({}), {}, {} bots, {} jobs, results in {}",
        escape(&plan.name),
        plan.config.game_name(),
        plan.config.variant_name(),
        format_line(&plan),
        plan.bots.len(),
        jobs,
        out.display()
    );
    let events = open_events(&args, &out)?;
    // Events on stdout: the standings table is not printed there.
    let terminal = if args.events.on_stdout() {
        Terminal::progress_only()
    } else {
        Terminal::new()
    };
    // games.csv first: a game the terminal shows (or the event stream
    // tells) is a game recorded.
    let mut reporters = Reporters::new(vec![
        Box::new(SandboxNote {
            path: out.join("sandbox.txt"),
            text: format!(
                "{}\n{}",
                sandbox.describe(),
                if scale.is_one() {
                    String::new()
                } else {
                    format!("time scale: {scale} (every time limit multiplied by {scale}; each game's record has the limits played)\n")
                }
            ),
        }),
        Box::new(TournamentCsv::new(&out)),
    ]);
    if let Some(events) = events {
        // A watched run tells its running games move by move: their live
        // files, and the stream's move events when asked for.
        options.live = referee_engine::reporter::live_game::LiveOutput {
            folder: Some(out.clone()),
            events: events.move_events(),
        };
        reporters.push(events);
    }
    reporters.push(terminal.with_resume(resume_command(&args.file, &out)));
    // A shard holds some of the games: its graph and grades would be
    // those of a part (`merge` checks the graph of the whole; `referee
    // grade` grades the merged folder).
    if args.shard.is_none() {
        reporters.push(TournamentGrades::new(
            &out,
            plan.bot_names(),
            plan.grading.clone(),
        ));
    }
    if !args.no_report {
        reporters.push(referee_engine::reporter::html::LiveReport::new(
            referee_engine::reporter::html::Templates {
                dir: args.templates.clone(),
            },
        ));
    }
    let outcome = tournament::run(&plan, &options, &mut reporters);
    if interrupted_with_error(&outcome) {
        return Ok(super::ExitCode::Interrupted);
    }
    // Results that could not be written (a full disk): not the bots'
    // doing, not finished: 1, as for games not played.
    if let Err(
        e @ (tournament::TournamentError::Unfinished { .. }
        | tournament::TournamentError::FilesNotWritten { .. }),
    ) = &outcome
    {
        let what = match e {
            tournament::TournamentError::FilesNotWritten { .. } => "write them",
            _ => "play them",
        };
        eprintln!(
            "referee: {}\n{what} with: {}",
            referee_engine::text::escape_lines(&e.to_string()),
            resume_command(&args.file, &out)
        );
        return Ok(super::ExitCode::Internal);
    }
    let outcome = outcome.map_err(|e| match e {
        tournament::TournamentError::FolderInUse { .. }
        | tournament::TournamentError::FolderLocked { .. }
        | tournament::TournamentError::FolderOfAnother { .. }
        | tournament::TournamentError::ShardOfAnother { .. }
        | tournament::TournamentError::OtherColumns { .. }
        | tournament::TournamentError::ShardOfRounds { .. }
        | tournament::TournamentError::OffSchedule { .. }
        | tournament::TournamentError::SeedsChanged { .. }
        | tournament::TournamentError::UpdateOfRounds { .. }
        | tournament::TournamentError::NoStore { .. }
        | tournament::TournamentError::Folder(
            tournament::run::FolderError::BadRow { .. }
            | tournament::run::FolderError::FreeForAll { .. }
            | tournament::run::FolderError::BadFolderFile { .. }
            | tournament::run::FolderError::Input(_),
        )
        | tournament::TournamentError::Content(_)
        | tournament::TournamentError::Store(tournament::store::StoreError::BadLine { .. })
        | tournament::TournamentError::Store(tournament::store::StoreError::Input(_))
        | tournament::TournamentError::Input(_)
        | tournament::TournamentError::Unwritable { .. }
        | tournament::TournamentError::Key(_)
        | tournament::TournamentError::Match(
            referee_engine::runner::MatchError::Unreachable { .. }
            | referee_engine::runner::MatchError::Players { .. },
        ) => Failure::input(e),
        tournament::TournamentError::Match(ref m) if m.is_refused_game() => Failure::input(e),
        _ => Failure::internal(e),
    })?;
    if outcome.interrupted {
        return Ok(super::ExitCode::Interrupted);
    }
    if outcome.not_played > 0 {
        // Not the bots' doing, and not finished: 1, as for any failure of
        // the referee itself.
        return Ok(super::ExitCode::Internal);
    }
    Ok(super::ExitCode::Ok)
}

/// The `--events` stream of a tournament whose results go to `out`.
fn open_events(
    args: &TournamentArgs,
    out: &std::path::Path,
) -> Result<Option<referee_engine::reporter::events::Events>, Failure> {
    // The recommended place of the stream is inside the results folder,
    // which the run would make a moment later.
    if let Some(parent) = args.events.events.as_deref().and_then(|p| p.parent()) {
        if parent == out {
            std::fs::create_dir_all(out).map_err(|e| {
                Failure::input(anyhow::anyhow!(
                    "--out {}: cannot create it: {e}",
                    out.display()
                ))
            })?;
        }
    }
    args.events.open()
}

/// A free-for-all: its own runner, terminal lines, CSV files and report.
fn run_free_for_all(
    plan: &TournamentPlan,
    mut options: RunOptions,
    args: &TournamentArgs,
    sandbox: String,
) -> Result<super::ExitCode, Failure> {
    use referee_engine::tournament::ffa;
    let schedule = ffa::FfaSchedule::new(plan);
    if args.dry_run {
        let count = schedule.games_in(options.shard).count();
        println!(
            "{}: free-for-all, {} bots, {} players a game, {} games each: {} tables, each played {} times with the seats rotated, {} games{}",
            escape(&plan.name),
            plan.bots.len(),
            plan.players_per_game,
            plan.games_per_bot,
            schedule.tables().len(),
            plan.players_per_game,
            schedule.len(),
            match options.shard {
                Some(s) => format!(" ({count} in shard {}/{})", s.index, s.count),
                None => String::new(),
            }
        );
        for (t, table) in schedule.tables().iter().enumerate() {
            let names: Vec<String> = table
                .iter()
                .map(|&b| escape(&plan.bots[b].name).into_owned())
                .collect();
            println!("table {}: {}", t + 1, names.join(", "));
        }
        return Ok(super::ExitCode::Ok);
    }
    if !args.no_pin {
        let claims = bot::CpuClaims::claim(options.jobs);
        if claims.short() || super::verbose() {
            eprintln!("{}", claims.describe());
        }
        options.pin = Some(claims);
    }
    eprintln!(
        "{}: {} ({}), free-for-all, {} players a game, {} games each, {} bots, {} jobs, results in {}",
        escape(&plan.name),
        plan.config.game_name(),
        plan.config.variant_name(),
        plan.players_per_game,
        plan.games_per_bot,
        plan.bots.len(),
        options.jobs,
        options.out.display()
    );
    let events = open_events(args, &options.out)?;
    let mut progress: Vec<Box<dyn referee_engine::model::ffa::FfaProgress>> =
        vec![Box::new(referee_engine::reporter::ffa::FfaTerminal::new())];
    if let Some(events) = events {
        // A watched run tells its running games move by move: their live
        // files, and the stream's move events when asked for.
        options.live = referee_engine::reporter::live_game::LiveOutput {
            folder: Some(options.out.clone()),
            events: events.move_events(),
        };
        progress.push(Box::new(events));
    }
    let outcome = ffa::run(plan, &options, &mut progress);
    if interrupted_with_error(&outcome) {
        return Ok(super::ExitCode::Interrupted);
    }
    // Results that could not be written (a full disk): 1, as for a
    // tournament of two-player games.
    if let Err(e @ tournament::TournamentError::Unfinished { .. }) = &outcome {
        eprintln!(
            "referee: {}\nplay them with: {}",
            referee_engine::text::escape_lines(&e.to_string()),
            resume_command(&args.file, &options.out)
        );
        return Ok(super::ExitCode::Internal);
    }
    let outcome = outcome.map_err(|e| match e {
        tournament::TournamentError::Match(ref m)
            if !m.is_refused_game()
                && !matches!(
                    m,
                    referee_engine::runner::MatchError::Unreachable { .. }
                        | referee_engine::runner::MatchError::Players { .. }
                ) =>
        {
            Failure::internal(e)
        }
        tournament::TournamentError::Folder(tournament::run::FolderError::Io { .. }) => {
            Failure::internal(e)
        }
        _ => Failure::input(e),
    })?;
    if let Err(e) =
        referee_engine::atomic_file::write(&options.out.join("sandbox.txt"), format!("{sandbox}\n"))
    {
        eprintln!("warning: cannot write sandbox.txt: {e}");
    }
    use std::fmt::Write as _;
    let mut summary = referee_engine::reporter::ffa::standings_text(&outcome.standings);
    for g in outcome.grades.iter().flatten() {
        let _ = writeln!(
            summary,
            "grade: {}: {} marks ({})",
            escape(&g.team),
            g.marks,
            escape(&g.reason)
        );
    }
    let _ = writeln!(
        summary,
        "\n{} games played now, {} in {}{}",
        outcome.played_now,
        outcome.total_in_folder,
        options.out.display(),
        match outcome.transcript_failures {
            0 => String::new(),
            n => format!("; {n} transcripts could not be written"),
        }
    );
    // Events on stdout: nothing else goes there.
    let stdout_free = !args.events.on_stdout();
    if stdout_free {
        print!("{summary}");
    } else {
        eprint!("{summary}");
    }
    // The reasons quote a judge's stderr or the system's errors, which a
    // bot's reply can reach: shown escaped.
    if let Some(why) = &outcome.void_why {
        let numbers: Vec<String> = outcome.void_games.iter().map(u64::to_string).collect();
        eprintln!(
            "warning: {} games were void, their judge failed: games {} ({}); they count for nobody, --resume plays them again",
            numbers.len(),
            numbers.join(", "),
            referee_engine::text::escape_lines(why)
        );
    }
    if let Some(why) = &outcome.not_played_why {
        eprintln!(
            "warning: {} games not played ({}); --resume plays them",
            outcome.not_played - outcome.void_games.len() as u64,
            referee_engine::text::escape_lines(why)
        );
    }
    if !args.no_report {
        let templates = referee_engine::reporter::html::Templates {
            dir: args.templates.clone(),
        };
        match referee_engine::reporter::html::write_report(&options.out, &templates) {
            Ok(w) if stdout_free => println!("report: {}", w.folder.join("index.html").display()),
            Ok(w) => eprintln!("report: {}", w.folder.join("index.html").display()),
            Err(e) => eprintln!("warning: the report was not written: {e}"),
        }
    }
    if outcome.interrupted {
        eprintln!(
            "interrupted: finish with {}",
            resume_command(&args.file, &options.out)
        );
        return Ok(super::ExitCode::Interrupted);
    }
    if outcome.not_played > 0 {
        return Ok(super::ExitCode::Internal);
    }
    Ok(super::ExitCode::Ok)
}

/// The format as the start line names it: `swiss, 4 rounds`,
/// `groups, 2 groups, best 2 of each to a knockout`.
fn format_line(plan: &TournamentPlan) -> String {
    use referee_engine::tournament::Format;
    match plan.format {
        Format::Swiss => format!("swiss, {} rounds", plan.rounds),
        Format::Groups => format!(
            "groups, {} groups, best {} of each to a knockout",
            plan.groups, plan.advance
        ),
        Format::RoundRobin | Format::Gauntlet | Format::Knockout | Format::FreeForAll => {
            plan.format.name().to_string()
        }
    }
}

/// The command that finishes a tournament, as it can be pasted.
fn resume_command(file: &std::path::Path, out: &std::path::Path) -> String {
    format!(
        "{} tournament {} --out {} --resume",
        referee_engine::report::program(),
        shell_words::quote(&file.display().to_string()),
        shell_words::quote(&out.display().to_string())
    )
}

/// The mark of a merge under way in its `--out`: a merge killed midway
/// leaves it, and the next merge into that folder writes it again whole
/// (without the mark, a folder holding a `games.csv` is refused).
const MERGING_MARK: &str = ".merging";

pub fn run_merge(args: MergeArgs) -> Result<super::ExitCode, Failure> {
    super::output_folder("--out", &args.out)?;
    let mark = args.out.join(MERGING_MARK);
    // As `tournament` does: results already in --out are never overwritten,
    // but those of a merge that did not end.
    if args.out.join("games.csv").exists() && !mark.exists() {
        return Err(Failure::input(anyhow::anyhow!(
            "{} already holds results (games.csv): give --out a new folder",
            args.out.display()
        )));
    }
    let made = !args.out.exists();
    std::fs::create_dir_all(&args.out)
        .and_then(|()| std::fs::write(&mark, ""))
        .map_err(|e| {
            Failure::input(anyhow::anyhow!(
                "--out {}: cannot write in it: {e}",
                args.out.display()
            ))
        })?;
    let merged = merge_into(&args);
    if merged.is_ok() || !args.out.join("games.csv").exists() {
        // Done, or nothing written (a shard refused): no merge to finish.
        let _ = std::fs::remove_file(&mark);
        if made && merged.is_err() {
            let _ = std::fs::remove_dir(&args.out);
        }
    }
    merged
}

/// `merge`'s work once `--out` is marked (see [`MERGING_MARK`]).
fn merge_into(args: &MergeArgs) -> Result<super::ExitCode, Failure> {
    if let Some(first) = args.folders.first() {
        if tournament::ffa::is_free_for_all(first) {
            let (standings, count, total) =
                tournament::ffa::merge(&args.folders, &args.out, args.partial)
                    .map_err(Failure::input)?;
            print!(
                "{}",
                referee_engine::reporter::ffa::standings_text(&standings)
            );
            println!(
                "\n{count} of {total} games merged into {}",
                args.out.display()
            );
            if count < total {
                eprintln!(
                    "warning: {} games are missing (--partial: a shard not given or not finished)",
                    total - count
                );
            }
            return Ok(super::ExitCode::Ok);
        }
    }
    let (standings, count, total) =
        tournament::merge(&args.folders, &args.out, args.partial).map_err(Failure::input)?;
    print!("{}", standings_table(&standings));
    println!(
        "\n{count} of {total} games merged into {}",
        args.out.display()
    );
    if count < total {
        eprintln!(
            "warning: {} games are missing (--partial: a shard not given or not finished)",
            total - count
        );
    }
    // A shard's transcript lost (deleted, a disk full): the game counts,
    // but its page and replay are missing from the report.
    let transcripts = std::fs::read_dir(args.out.join("transcripts"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name.starts_with("game-") && name.ends_with(".jsonl")
                })
                .count() as u64
        })
        .unwrap_or(0);
    if transcripts < count {
        eprintln!(
            "warning: {} of the {count} games merged have no transcript (missing from their shard's transcripts folder): the report shows no replay of them",
            count - transcripts
        );
    }
    let names: Vec<String> = standings.iter().map(|r| r.bot.clone()).collect();
    let pairs = referee_engine::reporter::grades::pairs_of(&args.out).map_err(Failure::internal)?;
    if let Some(warning) =
        referee_engine::reporter::grades::check_comparison(&args.out, &pairs, &names)
            .map_err(Failure::internal)?
    {
        eprint!("{warning}");
    }
    Ok(super::ExitCode::Ok)
}

/// The whole sandbox line (stderr has the short one unless --verbose),
/// kept next to games.csv once the folder exists.
struct SandboxNote {
    path: PathBuf,
    text: String,
}

impl Reporter for SandboxNote {
    fn run_started(&mut self, _run: &Run<'_>) -> Result<(), ReportError> {
        if let Err(e) = referee_engine::atomic_file::write(&self.path, &self.text) {
            eprintln!("warning: cannot write {}: {e}", self.path.display());
        }
        Ok(())
    }
}

/// `YYYYMMDD-HHMMSS` in UTC, for default folder names.
pub(super) fn timestamp() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day, hour, minute, second) = referee_engine::units::utc_civil(secs);
    format!("{year:04}{month:02}{day:02}-{hour:02}{minute:02}{second:02}")
}

/// Whether a run that failed was stopped (Ctrl-C, SIGTERM) while it went,
/// for instance while reading a large folder on `--resume`: then its
/// error is said and the exit is an interruption's. A match error stops
/// the other games itself (it asks for the stop): that is the error's
/// exit code, not an interruption's.
fn interrupted_with_error<T>(outcome: &Result<T, tournament::TournamentError>) -> bool {
    match outcome {
        Err(tournament::TournamentError::Match(_)) | Ok(_) => false,
        // A signal, not the stop the run asked of itself on its error (a
        // full disk): that error is said as a failure, exit 1.
        Err(e) if bot::signalled() => {
            eprintln!(
                "referee: {}",
                referee_engine::text::escape_lines(&e.to_string())
            );
            true
        }
        Err(_) => false,
    }
}
