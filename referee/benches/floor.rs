//! The referee against the machine's floor, in one run: a minimal referee
//! in C (`benches/floor/referee.c`: pipes, poll deadlines, nothing else)
//! with raw C bots (`benches/floor/bot.c`) beside the referee's own game
//! loop with two instant bots, both pinned to one CPU, in interleaved
//! rounds (each figure right after its floor); the medians, and the median of
//! the rounds' ratios. Both referees play the same bots
//! (the floor's), so the ratios measure the referees alone.
//!
//! Run: `cargo build --release --workspace && cargo bench -p referee --bench floor`
//! (as root it also measures the strict layer). It prints a table:
//! - per attack (request, reply under a deadline, the signal back; the
//!   referee adds caps, the transcript buffer and the idle bot's freeze);
//! - per game start and end (two bots started, greeted, one code and one
//!   attack each, ended and reaped);
//! - tournament throughput with `--jobs 2` against `--jobs 1`, the
//!   results written in memory, then in the temporary folder;
//! - the referee's peak memory for 100 and for 400 games;
//! - a Mastermind game between two native bots under the built-in rules
//!   against the same rules served by an external judge (the
//!   `builtin_judge` example over the judge protocol), the judge's start
//!   counted in each game.
//!
//! - per language (`languages`): a Mastermind game between two copies of
//!   that language's starter (sample_bots/, compiled beforehand, the cache
//!   warm), a code and one attack each, through the referee, against the
//!   floor starting the same two programs with the same command lines and
//!   environment; for Java, JavaScript and Python also the floor with the
//!   plain command (`java -cp`, `node bot.js`, `python3 bot.py`), which
//!   says what the referee's own choices of command line save.
//!
//! Words after `--` choose figures (`exchange`, `start`, `languages`,
//! `jobs`, `memory`, `judge`; all by default) and layers (`basic`, `strict`; both
//! by default), e.g. `cargo bench -p referee --bench floor -- start strict`.
//!
//! No assertion: the machine may be shared and noisy; the ratios are what
//! to read (docs/measurements.md keeps the figures).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use std::ffi::OsString;

use referee_engine::bot::language::Toolchain;
use referee_engine::bot::{BotCommand, Language, Languages, Sandbox, SandboxChoice};
use referee_engine::games::{GameConfig, GameOptions};
use referee_engine::match_plan::{MatchLimits, MatchPlan};
use referee_engine::runner::play_match;
use referee_engine::verdict::Verdict;

/// Interleaved rounds; each figure is the median over them.
const ROUNDS: usize = 7;
/// Arrow 5 rounds of the exchange game (two attacks each).
const GAME_ROUNDS: u32 = 10_000;
/// Games started and ended per round of the start-up figure.
const STARTS: usize = 40;
/// Rounds of the `--jobs` figure: a pair of runs there takes seconds, and
/// this machine's speed drifts by some 5% over seconds (other tenants of
/// the host), so one pair's ratio reads from 1.7x to 2.05x for the same
/// code; the median of 11 moves less than that of 7.
const JOBS_ROUNDS: usize = 11;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn sample_bot(name: &str) -> String {
    let path = root().join("target/release").join(name);
    assert!(
        path.exists(),
        "build the sample bots first: cargo build --release --workspace"
    );
    path.to_string_lossy().into_owned()
}

/// Compiles the floor with gcc into target/floor/.
fn build_floor() -> (PathBuf, PathBuf) {
    let out = root().join("target/floor");
    std::fs::create_dir_all(&out).unwrap();
    let src = root().join("referee/benches/floor");
    let mut built = vec![];
    for name in ["referee", "bot"] {
        let exe = out.join(format!("floor_{name}"));
        let status = Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&exe)
            .arg(src.join(format!("{name}.c")))
            .status()
            .expect("gcc (the floor is C)");
        assert!(status.success(), "gcc failed on {name}.c");
        built.push(exe);
    }
    (built[0].clone(), built[1].clone())
}

/// Runs the floor referee pinned to CPU 0; the number it prints.
fn floor(referee: &Path, mode: &str, count: usize, bot: &Path) -> f64 {
    let out = Command::new("taskset")
        .args(["-c", "0"])
        .arg(referee)
        .args([mode, &count.to_string()])
        .arg(bot)
        .output()
        .expect("taskset and the floor referee");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// The referee's game loop between two copies of `bot` (the floor's own
/// C bot: both referees are measured with the same bots).
fn plan(rounds: u32, sandbox: &Sandbox, bot: &Path) -> MatchPlan {
    let bot = BotCommand::parse(&bot.to_string_lossy(), &Languages::built_in()).unwrap();
    let options = GameOptions {
        max_rounds: Some(rounds),
        ..GameOptions::default()
    };
    let mut limits = MatchLimits::default();
    limits.process.sandbox = sandbox.clone();
    MatchPlan {
        config: GameConfig::from_options("arrow5", &options).unwrap(),
        seed: 1,
        key: referee_engine::key::RunKey::fresh(),
        bots: vec![bot.clone(), bot],
        limits: vec![limits.clone(), limits],
    }
}

/// Microseconds per attack of a whole game of GAME_ROUNDS rounds, less
/// the same game of one round (so start-up is not counted).
fn referee_exchange(sandbox: &Sandbox, bot: &Path) -> f64 {
    let long = plan(GAME_ROUNDS, sandbox, bot);
    let short = plan(1, sandbox, bot);
    let time = |p: &MatchPlan| {
        let t = Instant::now();
        let record = play_match(p, None).unwrap();
        assert_eq!(record.reason, "round-cap");
        t.elapsed().as_secs_f64() * 1e6
    };
    let (l, s) = (time(&long), time(&short));
    (l - s) / (2.0 * f64::from(GAME_ROUNDS - 1))
}

/// Milliseconds per game of one round: start, greet, code, attack, end.
fn referee_start(sandbox: &Sandbox, bot: &Path) -> f64 {
    let p = plan(1, sandbox, bot);
    let t = Instant::now();
    for _ in 0..STARTS {
        play_match(&p, None).unwrap();
    }
    t.elapsed().as_secs_f64() * 1e3 / STARTS as f64
}

/// Mastermind games per round of the judge figure.
const JUDGE_GAMES: u64 = 20;

/// Milliseconds per Mastermind game (4 pegs, 6 colours, codes chosen by
/// the bots) between two copies of Knuth's solver, played with `config`:
/// the built-in rules, or the external judge serving them.
fn mastermind_game(config: &GameConfig, knuth: &str) -> f64 {
    let bot = BotCommand::parse(knuth, &Languages::built_in()).unwrap();
    let limits = MatchLimits::default();
    let key = referee_engine::key::RunKey::fresh();
    let t = Instant::now();
    for seed in 1..=JUDGE_GAMES {
        let plan = MatchPlan {
            config: config.clone(),
            seed,
            key: key.clone(),
            bots: vec![bot.clone(), bot.clone()],
            limits: vec![limits.clone(), limits.clone()],
        };
        let record = play_match(&plan, None).unwrap();
        assert!(record.players.iter().all(|p| p.verdict.to_string() == "ok"));
    }
    t.elapsed().as_secs_f64() * 1e3 / JUDGE_GAMES as f64
}

/// The judge figure: built-in Mastermind against the same game served by
/// the `builtin_judge` example, in interleaved rounds, pinned like the
/// others.
fn judge_figure(cpus: &[usize]) {
    let judge = root().join("target/release/examples/builtin_judge");
    assert!(
        judge.exists(),
        "build the judge first: cargo build --release -p referee --example builtin_judge"
    );
    let knuth = sample_bot("mastermind_knuth");
    let built_in = GameConfig::from_options("mastermind", &GameOptions::default()).unwrap();
    let mut options = std::collections::BTreeMap::new();
    options.insert("game".to_string(), serde_json::json!("mastermind"));
    let served = referee_engine::judge::judge_config(
        &judge.to_string_lossy(),
        Path::new("."),
        options,
        referee_engine::games::judge::DEFAULT_TIME_MS,
        referee_engine::games::judge::DEFAULT_MEMORY_KB,
        &Languages::built_in(),
    )
    .map(GameConfig::Judge)
    .unwrap();
    let (mut rules, mut judged, mut ratios) = (vec![], vec![], vec![]);
    pin_to(&[0]);
    for round in 0..ROUNDS {
        eprintln!("judge: round {} of {ROUNDS}", round + 1);
        let r = mastermind_game(&built_in, &knuth);
        let j = mastermind_game(&served, &knuth);
        rules.push(r);
        judged.push(j);
        ratios.push(j / r);
    }
    pin_to(cpus);
    println!(
        "| a Mastermind game between two native bots (Knuth's solver), basic, {JUDGE_GAMES} games a round: built-in rules, then the same rules served by an external judge (its start counted) | {:.3} ms | {:.3} ms | {:.2}x | at most 1.5x |",
        median(&mut rules),
        median(&mut judged),
        median(&mut ratios)
    );
}

/// Each built-in language's Mastermind starter, in sample_bots/.
const STARTERS: [(&str, &str); 7] = [
    ("c", "c/mastermind_starter.c"),
    ("cpp", "cpp/mastermind_starter.cpp"),
    ("rust", "rust/mastermind_starter.rs"),
    ("go", "go/mastermind_starter.go"),
    ("java", "java/MastermindStarter.java"),
    ("javascript", "js/mastermind_starter.js"),
    ("python", "python/mastermind_starter.py"),
];

/// One language's starter, ready to start: the referee's prepared command
/// and its limits, and the command lines the floor runs.
struct Starter {
    language: Language,
    /// Compiled (or found in the cache): the game runs no compiler.
    command: BotCommand,
    /// The language's defaults in a Mastermind game (its memory allowance:
    /// the heap flags follow it).
    limits: MatchLimits,
    /// What the referee execs, and the environment it gives (its working
    /// folder the floor's).
    exact: (PathBuf, Vec<OsString>, Vec<(OsString, OsString)>),
    /// The language's plain command, for the runtimes whose command line
    /// the referee chooses: `java -cp OUT MAIN`, `node BOT`, `python3 BOT`.
    plain: Option<Vec<OsString>>,
    /// Games per round: a runtime's start takes tens of milliseconds.
    games: usize,
}

fn mastermind() -> GameConfig {
    let options = GameOptions {
        max_attacks: Some(1),
        ..GameOptions::default()
    };
    GameConfig::from_options("mastermind", &options).unwrap()
}

/// The starters of the languages whose toolchain is installed, compiled
/// into the cache; the floor's folder is `folder` (its HOME and TMPDIR).
fn starters(folder: &Path) -> Vec<Starter> {
    let languages = Languages::built_in();
    let mut out = vec![];
    for (name, file) in STARTERS {
        let language = languages.named(name);
        if let Toolchain::Missing { program } = language.toolchain() {
            eprintln!("{name} not measured: {program} is not installed");
            continue;
        }
        let source = root().join("sample_bots").join(file);
        let bot = BotCommand::parse(&source.to_string_lossy(), &languages).unwrap();
        let mut limits = MatchLimits::defaults_for(&mastermind(), language);
        limits.process.sandbox = Sandbox::Basic;
        let command = match referee_engine::runner::prepare(&bot, &limits).unwrap() {
            Ok(command) => command,
            Err((why, _)) => panic!("{name}: {why}"),
        };
        let exact = referee_engine::bot::command_line(&command, &limits.process, folder);
        let last = command.args.last().cloned().unwrap_or_default();
        let plain = match name {
            "java" => command.readable.first().map(|out| {
                vec![
                    exact.0.clone().into(),
                    "-cp".into(),
                    out.clone().into(),
                    last.clone(),
                ]
            }),
            "javascript" | "python" => Some(vec![exact.0.clone().into(), last.clone()]),
            _ => None,
        };
        // Some 0.2 s a figure a round: a JVM's or Node's start is
        // 60-80 ms, Python's (without `site`) 20-25 ms, a native one's 1-2.
        let games = match name {
            "java" | "javascript" => 4,
            "python" => 10,
            _ => 20,
        };
        out.push(Starter {
            language,
            command,
            limits,
            exact,
            plain,
            games,
        });
    }
    out
}

/// The floor playing `games` Mastermind games between two copies of
/// `command` (program first) with environment `env`, pinned to CPU 0: ms a
/// game.
fn floor_mastermind(
    referee: &Path,
    games: usize,
    command: &[OsString],
    env: &[(OsString, OsString)],
    folder: &Path,
) -> f64 {
    let out = Command::new("taskset")
        .args(["-c", "0"])
        .arg(referee)
        .args(["mastermind", &games.to_string()])
        .args(command)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(folder)
        .output()
        .expect("taskset and the floor referee");
    assert!(
        out.status.success(),
        "the floor with {command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// The referee playing the starter's game `games` times under `sandbox`
/// (the caller pins it): ms a game.
fn referee_mastermind(starter: &Starter, sandbox: &Sandbox) -> f64 {
    let mut limits = starter.limits.clone();
    limits.process.sandbox = sandbox.clone();
    let plan = MatchPlan {
        config: mastermind(),
        seed: 1,
        key: referee_engine::key::RunKey::fresh(),
        bots: vec![starter.command.clone(), starter.command.clone()],
        limits: vec![limits.clone(), limits],
    };
    let t = Instant::now();
    for _ in 0..starter.games {
        let record = play_match(&plan, None).unwrap();
        assert!(
            record.players.iter().all(|p| p.verdict == Verdict::Ok),
            "{}: {record:?}",
            starter.language
        );
    }
    t.elapsed().as_secs_f64() * 1e3 / starter.games as f64
}

/// The `languages` figure: each starter in interleaved rounds, the floor
/// with the referee's command line, then the referee under each layer,
/// then the floor with the plain command; printed as a table.
fn languages_figure(floor_referee: &Path, layers: &[(&str, Sandbox)], cpus: &[usize]) {
    let folder = tempfile::tempdir().unwrap();
    let starters = starters(folder.path());
    // Per starter: the floor, the referee per layer, the plain floor.
    let mut floor = vec![vec![]; starters.len()];
    let mut referee = vec![vec![vec![]; layers.len()]; starters.len()];
    let mut plain = vec![vec![]; starters.len()];
    for round in 0..ROUNDS {
        eprintln!("languages: round {} of {ROUNDS}", round + 1);
        for (i, starter) in starters.iter().enumerate() {
            let (program, args, env) = &starter.exact;
            let mut exact: Vec<OsString> = vec![program.into()];
            exact.extend(args.iter().cloned());
            floor[i].push(floor_mastermind(
                floor_referee,
                starter.games,
                &exact,
                env,
                folder.path(),
            ));
            pin_to(&[0]);
            for (l, (_, sandbox)) in layers.iter().enumerate() {
                referee[i][l].push(referee_mastermind(starter, sandbox));
            }
            pin_to(cpus);
            if let Some(command) = &starter.plain {
                // The plain command's environment: a path, a home, a
                // locale, nothing of the referee's choosing.
                let env: Vec<(OsString, OsString)> = env
                    .iter()
                    .filter(|(k, _)| {
                        ["PATH", "HOME", "TMPDIR", "LANG"].contains(&k.to_str().unwrap_or(""))
                    })
                    .cloned()
                    .collect();
                plain[i].push(floor_mastermind(
                    floor_referee,
                    starter.games,
                    command,
                    &env,
                    folder.path(),
                ));
            }
        }
    }
    println!(
        "\nA Mastermind game between two copies of each language's starter (a code and one \
         attack each), pinned to CPU 0, {ROUNDS} interleaved rounds: the medians, and the median \
         of each round's ratio to the floor measured just before it (goals: {:.2}x basic, \
         {:.2}x strict); the plain command's figure is the floor's too:\n",
        LANGUAGE_GOALS[0], LANGUAGE_GOALS[1]
    );
    let mut head = "| language | floor (C), same command |".to_string();
    for (name, _) in layers {
        head.push_str(&format!(" referee, {name} | ratio |"));
    }
    head.push_str(" floor, plain command | referee (basic) / plain |");
    println!("{head}");
    println!("|{}", "---|".repeat(4 + 2 * layers.len()));
    for (i, starter) in starters.iter().enumerate() {
        let mut row = format!(
            "| {} | {:.2} ms |",
            starter.language,
            median(&mut floor[i].clone())
        );
        for layer in &referee[i] {
            let mut ratios: Vec<f64> = layer.iter().zip(&floor[i]).map(|(r, f)| r / f).collect();
            row.push_str(&format!(
                " {:.2} ms | {:.2}x |",
                median(&mut layer.clone()),
                median(&mut ratios)
            ));
        }
        if plain[i].is_empty() || layers.is_empty() {
            row.push_str(" | |");
        } else {
            let mut ratios: Vec<f64> = referee[i][0]
                .iter()
                .zip(&plain[i])
                .map(|(r, p)| r / p)
                .collect();
            row.push_str(&format!(
                " {:.2} ms | {:.2}x |",
                median(&mut plain[i].clone()),
                median(&mut ratios)
            ));
        }
        println!("{row}");
    }
}

/// The goals of the languages figure, basic and strict.
const LANGUAGE_GOALS: [f64; 2] = [1.15, 1.5];

/// Binds this process (and what it starts from now on) to `cpus`.
fn pin_to(cpus: &[usize]) {
    let mut set = rustix::thread::CpuSet::new();
    for &cpu in cpus {
        set.set(cpu);
    }
    let _ = rustix::thread::sched_setaffinity(None, &set);
}

fn all_cpus() -> Vec<usize> {
    (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
}

/// What making and removing a folder costs now where the bots' working
/// folders go (`bot::workdirs_base`: µs, the mean of 300): the start
/// figures and `--jobs 2` depend on it, and on ext4 it grows tenfold for
/// minutes after thousands of folders were removed (docs/measurements.md,
/// "The working folder").
fn folder_cost_us() -> f64 {
    let base =
        referee_engine::bot::workdirs_base().join(format!("floor-folders-{}", std::process::id()));
    std::fs::create_dir_all(&base).unwrap();
    let t = Instant::now();
    for i in 0..300 {
        let dir = base.join(i.to_string());
        std::fs::create_dir(&dir).unwrap();
        std::fs::remove_dir(&dir).unwrap();
    }
    let cost = t.elapsed().as_secs_f64() * 1e6 / 300.0;
    let _ = std::fs::remove_dir(&base);
    cost
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A tournament of `bots` copies of arrow5_constant, `games` per pairing,
/// 50 rounds a game, through the referee binary, its results in a new
/// folder in `results_in`: (seconds, peak KiB, the folder).
///
/// The caller removes the folder when it is done measuring: removing
/// thousands of files just before the next run would make every file that
/// run creates slower on a disk file system (ext4 steps over recently
/// freed inodes, "The working folder" in docs/measurements.md), a cost of
/// the bench's own cleaning, not of the referee.
fn tournament(
    bots: usize,
    games: usize,
    jobs: usize,
    results_in: &Path,
) -> (f64, i64, tempfile::TempDir) {
    let dir = tempfile::tempdir_in(results_in).unwrap();
    let file = dir.path().join("t.toml");
    let mut text = format!(
        "name = \"floor\"\ngame = \"arrow5\"\ngames_per_pairing = {games}\nseed = 1\n\
         [options]\nmax_rounds = 50\n"
    );
    // Each copy gets its number as an argument (the bot ignores it): a
    // tournament keeps games by the bots' content, so copies of one file
    // would share their games and most would not be played.
    for i in 0..bots {
        text.push_str(&format!(
            "[[bots]]\nname = \"c{i}\"\nbot = \"{} {i}\"\n",
            sample_bot("arrow5_constant")
        ));
    }
    std::fs::write(&file, text).unwrap();
    let t = Instant::now();
    // Reaped by wait4 below, which also reports its peak memory.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("out"))
        .args(["--jobs", &jobs.to_string(), "--no-report"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid, and wait4 fills it in; it waits for
    // the child spawned above, once.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id() as i32, &mut status, 0, &mut usage);
        usage
    };
    assert_eq!(status, 0, "the tournament failed");
    (t.elapsed().as_secs_f64(), usage.ru_maxrss, dir)
}

/// The figures and layers named after `--` (cargo adds `--bench`, which
/// is not a name): all of one kind when none of that kind is named.
struct Chosen(Vec<String>);

impl Chosen {
    const FIGURES: [&'static str; 6] =
        ["exchange", "start", "languages", "jobs", "memory", "judge"];
    const LAYERS: [&'static str; 2] = ["basic", "strict"];

    fn from_args() -> Chosen {
        let words: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        for w in &words {
            if !Self::FIGURES.contains(&w.as_str()) && !Self::LAYERS.contains(&w.as_str()) {
                eprintln!(
                    "unknown figure or layer {w:?}: choose among {:?} and {:?}",
                    Self::FIGURES,
                    Self::LAYERS
                );
                std::process::exit(2);
            }
        }
        Chosen(words)
    }

    fn wants(&self, name: &str) -> bool {
        let kind: &[&str] = if Self::LAYERS.contains(&name) {
            &Self::LAYERS
        } else {
            &Self::FIGURES
        };
        self.0.iter().any(|w| w == name) || !self.0.iter().any(|w| kind.contains(&w.as_str()))
    }
}

fn main() {
    let chosen = Chosen::from_args();
    let (floor_referee, floor_bot) = build_floor();
    // Before any pinning: the CPUs this process may use.
    let cpus = all_cpus();
    let root_user = rustix::process::geteuid().is_root();
    let mut layers: Vec<(&str, Sandbox)> = vec![];
    if chosen.wants("basic") {
        layers.push(("basic", Sandbox::Basic));
    }
    if !chosen.wants("strict") {
    } else if root_user {
        match SandboxChoice::Strict.resolve() {
            Ok(strict) => layers.push(("strict", strict)),
            Err(e) => eprintln!("strict not measured: {e}"),
        }
    } else {
        eprintln!("strict not measured: it needs root");
    }

    let folder_before = folder_cost_us();
    let (want_exchange, want_start) = (chosen.wants("exchange"), chosen.wants("start"));
    let mut floor_exchange = vec![];
    let mut floor_start = vec![];
    let mut exchange: Vec<Vec<f64>> = vec![vec![]; layers.len()];
    let mut start: Vec<Vec<f64>> = vec![vec![]; layers.len()];
    for round in 0..ROUNDS {
        if !want_exchange && !want_start {
            break;
        }
        eprintln!("round {} of {ROUNDS}", round + 1);
        // Each figure right after its floor: the machine's speed drifts
        // (a shared VM), and a ratio should compare like with like.
        if want_start {
            floor_start.push(floor(&floor_referee, "start", STARTS, &floor_bot));
            // The referee's loop runs in this process: pin it (and so its
            // bots) as the floor is, and unpin it after.
            pin_to(&[0]);
            for (i, (_, sandbox)) in layers.iter().enumerate() {
                start[i].push(referee_start(sandbox, &floor_bot));
            }
            pin_to(&cpus);
        }
        if want_exchange {
            let rounds = GAME_ROUNDS as usize;
            floor_exchange.push(floor(&floor_referee, "exchange", rounds, &floor_bot));
            pin_to(&[0]);
            for (i, (name, sandbox)) in layers.iter().enumerate() {
                exchange[i].push(referee_exchange(sandbox, &floor_bot));
                // Each round's figures, for the range (the table gives
                // the medians).
                let (f, r) = (floor_exchange[round], exchange[i][round]);
                eprintln!(
                    "  per attack, {name}: floor {f:.2} µs, referee {r:.2} µs, {:.2}x",
                    r / f
                );
            }
            pin_to(&cpus);
        }
    }
    println!(
        "\nPinned to CPU 0, {ROUNDS} interleaved rounds: the medians, and the median of \
         each round's ratio to the floor measured just before it:\n"
    );
    println!("| figure | floor (C) | referee | ratio | goal |");
    println!("|---|---|---|---|---|");
    // (figure, unit, decimals, floor, the referee's per layer, goal under
    // basic and strict), for each figure measured.
    let figures = [
        (
            "per attack",
            "µs",
            2,
            &floor_exchange,
            &exchange,
            [1.3, 1.6],
            want_exchange,
        ),
        (
            "game start and end",
            "ms",
            3,
            &floor_start,
            &start,
            [2.0, 4.0],
            want_start,
        ),
    ];
    for (figure, unit, decimals, floor, referee, goals, wanted) in figures {
        if !wanted {
            continue;
        }
        for (i, (name, _)) in layers.iter().enumerate() {
            // The median of the rounds' ratios: a round measures a figure
            // right after its floor, so a drift of the machine's speed
            // cancels out.
            let mut ratios: Vec<f64> = referee[i].iter().zip(floor).map(|(r, f)| r / f).collect();
            println!(
                "| {figure}, {name} | {:.decimals$} {unit} | {:.decimals$} {unit} | {:.2}x | {}x |",
                median(&mut floor.clone()),
                median(&mut referee[i].clone()),
                median(&mut ratios),
                goals[usize::from(*name == "strict")]
            );
        }
    }

    if chosen.wants("languages") {
        languages_figure(&floor_referee, &layers, &cpus);
    }

    // Throughput and memory through the binary (not pinned: --jobs 2 needs
    // both cores).
    if chosen.wants("jobs") {
        // Twice: the results (a transcript file per game) in memory, where
        // the bots' folders go, then in the temporary folder. On a disk
        // file system each new file may cost up to a millisecond after
        // heavy runs (ext4 without a journal, docs/measurements.md), made
        // under the results folder's lock, which the two workers share.
        let in_memory = referee_engine::bot::workdirs_base();
        let on_disk = std::env::temp_dir();
        let places: Vec<(&str, &Path)> = if in_memory == on_disk {
            vec![("results in the temporary folder", &on_disk)]
        } else {
            vec![
                ("results in memory", &in_memory),
                ("results in the temporary folder", &on_disk),
            ]
        };
        for (place, results_in) in places {
            // In interleaved rounds too: one pair of runs swung by 15%
            // between benches (docs/measurements.md).
            // 448 games: a run's fixed part (reading the file, hashing the
            // bots' 35 MB, writing and syncing the CSVs, some 60-90 ms
            // here) weighs half what it did in 224, and a throughput
            // figure is about the games.
            let (mut ones, mut twos, mut ratios) = (vec![], vec![], vec![]);
            let mut folders = vec![];
            for round in 0..JOBS_ROUNDS {
                eprintln!("jobs ({place}): round {} of {JOBS_ROUNDS}", round + 1);
                // Which run goes first alternates, so that a drift of the
                // machine's speed within a round favours neither.
                let (one, two) = if round % 2 == 0 {
                    let one = tournament(8, 16, 1, results_in);
                    (one, tournament(8, 16, 2, results_in))
                } else {
                    let two = tournament(8, 16, 2, results_in);
                    (tournament(8, 16, 1, results_in), two)
                };
                ones.push(one.0);
                twos.push(two.0);
                ratios.push(one.0 / two.0);
                folders.extend([one.2, two.2]);
            }
            drop(folders);
            let (lowest, highest) = (
                ratios.iter().copied().fold(f64::INFINITY, f64::min),
                ratios.iter().copied().fold(0.0, f64::max),
            );
            println!(
                "| tournament of 448 games, --jobs 2 against --jobs 1, {place} ({}) | {:.2} s (jobs 1) | {:.2} s (jobs 2) | {:.2}x faster (rounds: {lowest:.2}x to {highest:.2}x) | at least 1.9x |",
                results_in.display(),
                median(&mut ones),
                median(&mut twos),
                median(&mut ratios)
            );
        }
    }
    if chosen.wants("judge") {
        judge_figure(&cpus);
    }
    if chosen.wants("memory") {
        let temp = std::env::temp_dir();
        let (_, small, _folder) = tournament(2, 100, 2, &temp);
        let (_, large, _folder) = tournament(2, 400, 2, &temp);
        println!(
            "| the referee's peak memory, 100 and 400 games | {small} KiB | {large} KiB | {:.2}x | flat (1x) |",
            large as f64 / small as f64
        );
    }
    println!(
        "\nA folder made and removed in {} (where the bots' working folders go): \
         {folder_before:.0} µs before, {:.0} µs after (about 10 µs on tmpfs; 100 µs on a quiet \
         ext4, where the start figures and --jobs 2 read high when it is several times that)",
        referee_engine::bot::workdirs_base().display(),
        folder_cost_us()
    );
}
