//! `referee judge-check`: a judge played against recorded replies, twice.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use referee_engine::games::judge::{self as rules, Config};
use referee_engine::judge_check::{check_record, Recorded};
use referee_engine::runner::MatchError;
use referee_engine::transcript;

use super::Failure;

pub const LONG_ABOUT: &str = "Check a judge program (a game served over the judge protocol, \
docs/reference.md \"Judges\") against the replies recorded in transcripts: the judge is played \
twice against each record, with no bot (each reply it asks for is the asked seat's next recorded \
one, with its recorded time), and judge-check says whether its messages were the same both \
times (deterministic: a judge may draw nothing random but from its seed), whether every message \
was well formed, and whether each answer came within its time (--judge-time). The seed is the \
recorded game's when its key is known (the transcript's replay command, or --key/--key-file), \
else a fixed one.\n\n\
Exit codes: 0 every record passed; 1 the judge failed a check (the message says which record, \
which message and what); 2 bad input (no transcript, a file that cannot be read, a judge that \
cannot be run).";

#[derive(Args)]
pub struct JudgeCheckArgs {
    /// The judge program (e.g. games/connect4/judge.py)
    pub judge: String,
    /// A transcript whose replies the judge is played against (`referee match --transcript`, or a tournament's transcripts/game-NNNNNN.jsonl); repeatable, at least one
    #[arg(long, value_name = "FILE", required = true)]
    pub transcript: Vec<PathBuf>,
    /// The judge's option, as on `referee match` (repeatable) [default: the recorded game's]
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Time the judge may take to answer one message (ms, s, m, h; a bare number is seconds) [default: 5s]
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = super::move_time)]
    pub judge_time: Option<std::time::Duration>,
    /// Resident memory the judge may use [default: 1GiB]
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = super::size_kb)]
    pub judge_memory: Option<u64>,
    #[command(flatten)]
    pub key: super::KeyFlags,
}

pub fn run_judge_check(
    args: JudgeCheckArgs,
    arena: &referee_engine::bot::Arena,
) -> Result<super::ExitCode, Failure> {
    let options = referee_engine::judge::parse_options(&args.options).map_err(Failure::input)?;
    let given_options = !args.options.is_empty();
    let config = referee_engine::judge::judge_config(
        &args.judge,
        std::path::Path::new("."),
        options,
        args.judge_time
            .map_or(rules::DEFAULT_TIME_MS, |t| t.as_millis().max(1) as u64),
        args.judge_memory.unwrap_or(rules::DEFAULT_MEMORY_KB),
        arena.languages(),
    )
    .map_err(Failure::input)?;
    // The judge's own limits are in its configuration; the sandbox is
    // the basic one, as for a match without --sandbox.
    let limits = referee_engine::bot::ProcessLimits {
        footprint: arena.footprint(),
        ..Default::default()
    };
    let mut failed = 0;
    for path in &args.transcript {
        let shown = path.display().to_string();
        let entries = transcript::read(path)
            .map_err(|e| Failure::input(anyhow!(e).context(shown.clone())))?;
        let (record_config, seed_bytes) = recorded_seed(&entries, &args.key)?;
        // The recorded game's options, unless others are given.
        let mut config = config.clone();
        if let (Some(Config { options, .. }), false) = (&record_config, given_options) {
            config.options = options.clone();
        }
        let recorded = Recorded::of(&entries);
        let check = match check_record(&config, &seed_bytes, path.clone(), &recorded, &limits) {
            Ok(check) => check,
            Err(e @ MatchError::Interrupted) => return Err(Failure::internal(e)),
            Err(e) => return Err(Failure::input(e)),
        };
        let run = &check.first;
        println!(
            "{shown}: {} messages, slowest answer {:.1} ms (limit {}); {}",
            run.messages.len(),
            run.slowest.as_secs_f64() * 1000.0,
            referee_engine::bot::show_duration(std::time::Duration::from_millis(config.time_ms)),
            run.ending
        );
        match &run.void {
            None => println!("  well formed: yes, every answer within its time"),
            Some(void) => {
                println!(
                    "  FAILED: the judge failed at its message {}: {}",
                    void.message, void.what
                );
                for line in &void.stderr {
                    println!("    {}", referee_engine::text::escape(line));
                }
            }
        }
        match &check.differs {
            None => println!("  deterministic: yes, the same messages both times"),
            Some((number, first, second)) => {
                println!("  FAILED: not deterministic: message {number} differs");
                println!("    first play:  {}", referee_engine::text::escape(first));
                println!("    second play: {}", referee_engine::text::escape(second));
            }
        }
        if !check.passed() {
            failed += 1;
        }
    }
    if failed > 0 {
        eprintln!(
            "referee: the judge failed {failed} of {} records",
            args.transcript.len()
        );
        return Ok(super::ExitCode::Internal);
    }
    Ok(super::ExitCode::Ok)
}

/// The recorded game's judge configuration (if the record keeps its plan)
/// and its seed bytes: drawn with its key (given, or its replay
/// command's) and its seed, else from a fixed key.
fn recorded_seed(
    entries: &[transcript::Entry],
    given: &super::KeyFlags,
) -> Result<
    (
        Option<Config>,
        [u8; referee_engine::runner::JUDGE_SEED_BYTES],
    ),
    Failure,
> {
    use referee_engine::replay::{ReplayKey, ReplayPlan};
    let plan = entries.iter().find_map(|e| match e {
        transcript::Entry::Result { record } => match &record.plan {
            Some(ReplayPlan::Match(plan)) => Some(plan.clone()),
            _ => None,
        },
        _ => None,
    });
    let seed = entries
        .iter()
        .find_map(|e| match e {
            transcript::Entry::Header { seed, .. } => Some(*seed),
            _ => None,
        })
        .unwrap_or(0);
    let mut key = given.clone();
    if key.key.is_none() && key.key_file.is_none() {
        match plan.as_ref().and_then(|p| p.key.clone()) {
            Some(ReplayKey::Hex(hex)) => key.key = Some(hex),
            Some(ReplayKey::File(file)) if file.exists() => key.key_file = Some(file),
            _ => key.key = Some("0".repeat(64)),
        }
    }
    let run_key = key.run_key()?;
    let mut rng = run_key.rng(seed);
    let config = plan.and_then(|p| p.config.judge().cloned());
    Ok((config, referee_engine::runner::judge_seed(&mut rng)))
}
