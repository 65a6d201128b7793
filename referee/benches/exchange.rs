//! What one request/reply exchange costs the referee, beside a bare pipe
//! round trip measured in the same run.
//!
//! Run: `cargo bench -p referee --bench exchange` (builds the sample bots first:
//! `cargo build --release -p sample_bots`).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use referee_engine::bot::{BotCommand, BotProcess, Languages, ProcessLimits};
use referee_engine::games::{GameConfig, GameOptions};
use referee_engine::match_plan::{MatchLimits, MatchPlan};
use referee_engine::runner::play_match;

const ROUNDS: u32 = 1000;

fn sample_bot(name: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = root.join("target/release").join(name);
    assert!(
        path.exists(),
        "build the sample bots first: cargo build --release -p sample_bots"
    );
    path.to_string_lossy().into_owned()
}

fn exchanges(c: &mut Criterion) {
    let mut group = c.benchmark_group("exchange");

    // A bare pipe round trip: write a line to `cat`, read it back.
    group.bench_function("bare_pipe_round_trip", |b| {
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        b.iter(|| {
            input.write_all(b"attack\n").unwrap();
            line.clear();
            output.read_line(&mut line).unwrap();
        });
        drop(input);
        child.wait().unwrap();
    });

    // The same through the bot process layer (deadlines, caps, stderr, pidfd).
    group.bench_function("bot_layer_round_trip", |b| {
        let cat = BotCommand::parse("cat", &Languages::built_in()).unwrap();
        let mut bot = BotProcess::spawn(&cat, &ProcessLimits::default()).unwrap();
        let budget = Duration::from_secs(2);
        b.iter(|| {
            bot.send_line("attack", Instant::now() + budget, budget)
                .unwrap();
            bot.recv_line(Instant::now() + budget, budget).unwrap();
        });
        bot.shut_down(Duration::from_millis(200));
    });

    // What fair play adds to each exchange: the bot that replied is
    // stopped (its process group, SIGSTOP) and the one asked continued
    // (SIGCONT). Measured on one live bot, a stop and a continue per
    // iteration: the cost per exchange.
    group.bench_function("freeze_and_thaw", |b| {
        let cat = BotCommand::parse("cat", &Languages::built_in()).unwrap();
        let mut bot = BotProcess::spawn(&cat, &ProcessLimits::default()).unwrap();
        b.iter(|| {
            bot.freeze();
            bot.thaw();
        });
        bot.shut_down(Duration::from_millis(200));
    });

    // A whole Arrow 5 game of ROUNDS rounds between two bots that answer at
    // once: spawn, greetings, 2 * ROUNDS attacks with signals, shutdown.
    group.sample_size(10);
    let bot = BotCommand::parse(&sample_bot("arrow5_constant"), &Languages::built_in()).unwrap();
    let options = GameOptions {
        max_rounds: Some(ROUNDS),
        ..GameOptions::default()
    };
    let plan = MatchPlan {
        config: GameConfig::from_options("arrow5", &options).unwrap(),
        seed: 1,
        key: referee_engine::key::RunKey::fresh(),
        bots: vec![bot.clone(), bot],
        limits: vec![MatchLimits::default(), MatchLimits::default()],
    };
    group.bench_function("arrow5_game_1000_rounds", |b| {
        b.iter(|| {
            let record = play_match(&plan, None).unwrap();
            assert_eq!(record.reason, "round-cap");
        })
    });
    group.finish();
}

criterion_group!(benches, exchanges);
criterion_main!(benches);
