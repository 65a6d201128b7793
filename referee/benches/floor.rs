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
//! Words after `--` choose figures (`exchange`, `start`, `jobs`, `memory`, `judge`;
//! all by default) and layers (`basic`, `strict`; both by default), e.g.
//! `cargo bench -p referee --bench floor -- start strict`.
//!
//! No assertion: the machine may be shared and noisy; the ratios are what
//! to read (docs/measurements.md keeps the figures).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use referee_engine::bot::{BotCommand, Languages, Sandbox, SandboxChoice};
use referee_engine::games::{GameConfig, GameOptions};
use referee_engine::match_plan::{MatchLimits, MatchPlan};
use referee_engine::runner::play_match;

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

/// Binds this process (and what it starts from now on) to `cpus`.
fn pin_to(cpus: &[usize]) {
    // SAFETY: a zeroed cpu_set_t is valid; CPU_SET writes inside it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
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
    const FIGURES: [&'static str; 5] = ["exchange", "start", "jobs", "memory", "judge"];
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
            for (i, (_, sandbox)) in layers.iter().enumerate() {
                exchange[i].push(referee_exchange(sandbox, &floor_bot));
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
