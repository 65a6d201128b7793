//! `referee calibrate`: how much slower this machine runs a bot than the
//! machine the limits were set for, as a factor for `--time-scale`.
//!
//! The measure is a fixed piece of CPU work ([`workload`]: a codebreaker's
//! inner loop, integers and small arrays, as the bots of these games do),
//! run [`RUNS`] times after a warm-up on a thread pinned as a game's worker
//! is (a CPU no other referee holds, see [`crate::bot::CpuClaims`]); the
//! median of the runs over [`REFERENCE`], the same work's time on the
//! reference machine, is the factor. The median leaves out the runs a
//! neighbour's burst slowed down.

use std::time::{Duration, Instant};

use crate::match_plan::TimeScale;

/// Timed runs of the workload (after one untimed warm-up).
pub const RUNS: usize = 5;

/// Rounds of [`workload`] in one run.
pub const ROUNDS: u32 = 1_000_000;

/// One run's time on the reference machine: the workload built optimised,
/// its best runs on one core of the 2-core x86-64 machine this project's
/// timings were measured on (docs/measurements.md). A debug build takes
/// about ten times as long for the same work, and says so.
pub const REFERENCE: Duration = Duration::from_millis(35);

/// What [`workload`] returns for [`ROUNDS`]: a run that returns anything
/// else did other work, and its time says nothing.
const CHECKSUM: u64 = 6_389_454_467_015_874_987;

/// What a calibration measured.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// Each timed run, in the order run.
    pub runs: Vec<Duration>,
    /// The median run.
    pub median: Duration,
    /// The CPU the runs were pinned to, if one could be claimed.
    pub cpu: Option<usize>,
    /// The binary is a debug build (its factor is about ten times a
    /// release build's).
    pub debug_build: bool,
}

impl Calibration {
    /// The median over the reference: above 1, this machine is slower.
    pub fn factor(&self) -> f64 {
        self.median.as_secs_f64() / REFERENCE.as_secs_f64()
    }

    /// The scale to play with (`time_scale = "auto"`): the factor, never
    /// below 1 (a fast machine keeps the limits as written: they are the
    /// contest's) nor above [`TimeScale::MAX`], rounded to two decimals.
    pub fn scale(&self) -> TimeScale {
        let factor = (self.factor().clamp(1.0, TimeScale::MAX) * 100.0).ceil() / 100.0;
        TimeScale::new(factor.min(TimeScale::MAX)).unwrap_or(TimeScale::ONE)
    }

    /// One line: the factor and how it was measured.
    pub fn describe(&self) -> String {
        let ms = |d: Duration| format!("{:.1}ms", d.as_secs_f64() * 1000.0);
        format!(
            "time scale {} (this machine {:.2}x the reference): median of {} runs of a fixed workload ({} rounds) {} against {} on the reference machine{}; runs {}{}",
            self.scale(),
            self.factor(),
            self.runs.len(),
            ROUNDS,
            ms(self.median),
            ms(REFERENCE),
            match self.cpu {
                Some(cpu) => format!(", pinned to CPU {cpu}"),
                None => ", not pinned (no CPU free of other referees)".to_string(),
            },
            self.runs.iter().map(|d| ms(*d)).collect::<Vec<_>>().join(" "),
            if self.debug_build {
                "; a debug build: a release build measures about ten times faster"
            } else {
                ""
            }
        )
    }

    /// The calibration as JSON (`referee calibrate --json`).
    pub fn to_json(&self) -> serde_json::Value {
        let ms = |d: Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        serde_json::json!({
            "time_scale": self.scale().factor(),
            "factor": (self.factor() * 1000.0).round() / 1000.0,
            "median_ms": ms(self.median),
            "reference_ms": ms(REFERENCE),
            "runs_ms": self.runs.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
            "rounds": ROUNDS,
            "cpu": self.cpu,
            "debug_build": self.debug_build,
        })
    }
}

/// Why a calibration has no result.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    #[error("the calibration workload returned {got}, not {CHECKSUM}: this build computes it wrongly, and its time says nothing")]
    WrongResult { got: u64 },
    #[error("the calibration thread failed")]
    Thread,
}

/// Measures this machine: [`RUNS`] timed runs of [`workload`] on a thread
/// of its own pinned to a claimed CPU (the caller's threads keep their
/// CPUs).
pub fn measure() -> Result<Calibration, CalibrationError> {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let claims = crate::bot::CpuClaims::claim(1);
                claims.pin_worker(0);
                let got = workload(std::hint::black_box(ROUNDS));
                if got != CHECKSUM {
                    return Err(CalibrationError::WrongResult { got });
                }
                let runs: Vec<Duration> = (0..RUNS)
                    .map(|_| {
                        let start = Instant::now();
                        std::hint::black_box(workload(std::hint::black_box(ROUNDS)));
                        start.elapsed()
                    })
                    .collect();
                let mut sorted = runs.clone();
                sorted.sort();
                Ok(Calibration {
                    median: sorted[RUNS / 2],
                    runs,
                    cpu: claims.cpus().first().copied(),
                    debug_build: cfg!(debug_assertions),
                })
            })
            .join()
            .map_err(|_| CalibrationError::Thread)?
    })
}

/// The reference workload: a codebreaker's inner loop. Draws two codes of
/// five pegs in eight colours from a xorshift stream, scores them (exact
/// and colour matches) and folds the scores into a checksum. Plain loops
/// and wrapping arithmetic, so that the work is the same in any build and
/// nothing can be left out.
#[inline(never)]
pub fn workload(rounds: u32) -> u64 {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut sum: u64 = 0;
    let mut round = 0;
    while round < rounds {
        let mut a = [0u8; 5];
        let mut b = [0u8; 5];
        let mut i = 0;
        while i < 5 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            a[i] = (state & 7) as u8;
            b[i] = ((state >> 8) & 7) as u8;
            i += 1;
        }
        let mut exact = 0u64;
        let mut count_a = [0u8; 8];
        let mut count_b = [0u8; 8];
        let mut i = 0;
        while i < 5 {
            if a[i] == b[i] {
                exact += 1;
            } else {
                count_a[a[i] as usize] += 1;
                count_b[b[i] as usize] += 1;
            }
            i += 1;
        }
        let mut colours = 0u64;
        let mut c = 0;
        while c < 8 {
            colours += count_a[c].min(count_b[c]) as u64;
            c += 1;
        }
        sum = sum.wrapping_mul(31).wrapping_add(exact * 8 + colours);
        round += 1;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workload_is_deterministic() {
        assert_eq!(workload(ROUNDS), CHECKSUM);
        assert_ne!(workload(ROUNDS - 1), CHECKSUM);
    }

    #[test]
    fn the_scale_never_shortens_the_limits() {
        let at = |ms: u64| Calibration {
            runs: vec![Duration::from_millis(ms)],
            median: Duration::from_millis(ms),
            cpu: None,
            debug_build: false,
        };
        assert_eq!(at(10).scale(), TimeScale::ONE);
        assert!((at(70).factor() - 2.0).abs() < 1e-9);
        assert_eq!(at(70).scale().factor(), 2.0);
        assert_eq!(at(71).scale().factor(), 2.03);
        assert!(
            at(70).describe().starts_with("time scale 2 "),
            "{}",
            at(70).describe()
        );
    }
}
