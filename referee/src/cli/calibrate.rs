//! `referee calibrate`: this machine's time scale, for `--time-scale`.

use clap::Args;

use super::Failure;

#[derive(Args)]
#[command(
    after_help = "The factor is the median of several runs of a fixed CPU workload (a \
codebreaker's inner loop) on a CPU pinned as a game's worker is, over the same work's time on \
the reference machine; the scale to play with is that factor, never below 1. `--time-scale auto` \
and `time_scale = \"auto\"` in a check file measure the same way before playing.\n\n\
Examples:\n  target/release/referee calibrate\n  \
target/release/referee calibrate --json"
)]
pub struct CalibrateArgs {
    /// Print one JSON object: time_scale, factor, median_ms, reference_ms, runs_ms, rounds, cpu, debug_build
    #[arg(long)]
    pub json: bool,
}

pub fn run_calibrate(args: CalibrateArgs) -> Result<(), Failure> {
    let calibration = referee_engine::calibrate::measure().map_err(Failure::internal)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&calibration.to_json()).map_err(Failure::internal)?
        );
    } else {
        println!("{}", calibration.describe());
        println!("Use it: --time-scale {}", calibration.scale());
    }
    Ok(())
}
