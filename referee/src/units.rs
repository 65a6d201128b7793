//! Parsing of the units users type: durations (`2s`, `500ms`) and sizes
//! (`64MiB`, `512KiB`), and the upper bound of every duration, size and
//! count an operator can give (flags and the fields of tournament, check
//! and sprt input). A value beyond its bound is refused with a message that
//! names the bound, before any folder is made or bot started: no input can
//! make the referee overflow, panic or allocate without limit.

use std::time::Duration;

/// Longest time for one reply (`time_limit`, `startup_limit`,
/// `max-move-time`'s `below`): one hour.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(3600);
/// Largest time bank: 24 hours.
pub const MAX_TIME_BANK: Duration = Duration::from_secs(24 * 3600);
/// Largest memory limit, in KiB: 1 TiB.
pub const MAX_MEMORY_KB: u64 = 1 << 30;
/// Most games of one pairing, of one requirement, or of an SPRT run.
pub const MAX_GAMES: u64 = 1_000_000;
/// Most secrets of a bench sample (`--samples`, `samples`).
pub const MAX_SAMPLES: u64 = 1_000_000;
/// Most games played at once (`--jobs`).
pub const MAX_JOBS: usize = 1024;
/// Most bots in a tournament (round robins grow as its square).
pub const MAX_BOTS: usize = 1000;
/// Most match points for one result (`[scoring]`).
pub const MAX_POINTS: u32 = 1_000_000;
/// Most rounds, attempts or attacks a game option may allow
/// (`max_rounds`, `attempts`, `max_attacks`): a game of bots that never
/// crack a code ends after at most this many.
pub const MAX_ROUNDS: u32 = 10_000;

/// Refuses game options beyond their bounds (the games check the rest):
/// `max_rounds`, `attempts` and `max_attacks` at most [`MAX_ROUNDS`]. The
/// message names the option as both flags and files spell it.
pub fn check_game_options(options: &crate::games::GameOptions) -> Result<(), String> {
    for (name, value) in [
        ("max_rounds", options.max_rounds),
        ("attempts", options.attempts),
        ("max_attacks", options.max_attacks),
    ] {
        if let Some(v) = value.filter(|v| *v > MAX_ROUNDS) {
            return Err(format!(
                "{name} (--{}): {v} is too many: at most {MAX_ROUNDS}",
                name.replace('_', "-")
            ));
        }
    }
    Ok(())
}

/// `N` for a count of at most `max` (`--jobs`, `--samples`, ...): a
/// number, at least `min`.
pub fn parse_count(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let n: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if n < min {
        return Err(format!("{n} is too few: at least {min}"));
    }
    if n > max {
        return Err(format!("{n} is too many: at most {max}"));
    }
    Ok(n)
}

/// `--jobs`: 1 to [`MAX_JOBS`].
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    parse_count(text, 1, MAX_JOBS as u64).map(|n| n as usize)
}

/// `--samples`: 1 to [`MAX_SAMPLES`].
pub fn parse_samples(text: &str) -> Result<u64, String> {
    parse_count(text, 1, MAX_SAMPLES)
}

/// A duration of at most `max`; beyond, a message naming `what` and `max`.
fn at_most(text: &str, d: Duration, max: Duration, what: &str) -> Result<Duration, String> {
    if d > max {
        return Err(format!(
            "'{text}' is too long: {what} is at most {}s",
            max.as_secs()
        ));
    }
    Ok(d)
}

/// The time for one reply: a duration as [`parse_duration`] reads it, at
/// most [`MAX_MOVE_TIME`].
pub fn parse_move_time(text: &str) -> Result<Duration, String> {
    match parse_duration(text) {
        Ok(d) => at_most(text, d, MAX_MOVE_TIME, "a time per move"),
        Err(e) if e.contains("too long") => Err(format!(
            "'{text}' is too long: a time per move is at most {}s",
            MAX_MOVE_TIME.as_secs()
        )),
        Err(e) => Err(e),
    }
}

/// Parses `2s`, `1.5s`, `500ms`, `250us` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a duration; write e.g. 2s, 1.5s or 500ms"))?;
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("'{text}': a duration must be positive"));
    }
    // Beyond any bound below, but still a Duration: never a panic.
    Duration::try_from_secs_f64(value * scale)
        .ok()
        .filter(|d| *d <= MAX_TIME_BANK)
        .ok_or_else(|| format!("'{text}' is too long: at most {}s", MAX_TIME_BANK.as_secs()))
}

/// Parses a time bank: a duration as [`parse_duration`] reads it, or zero
/// (`0`, `0s`, `0ms`) for no bank, so that a bot's own entry can take away
/// a bank its file gives every bot.
pub fn parse_time_bank(text: &str) -> Result<Duration, String> {
    match parse_duration(text) {
        Ok(bank) => at_most(text, bank, MAX_TIME_BANK, "a time bank"),
        Err(e) if e.contains("too long") => Err(e.replace("at most", "a time bank is at most")),
        Err(e) => {
            let t = text.trim();
            let number = t
                .strip_suffix("ms")
                .or_else(|| t.strip_suffix("us"))
                .or_else(|| t.strip_suffix('s'))
                .or_else(|| t.strip_suffix('m'))
                .unwrap_or(t);
            match number.trim().parse::<f64>() {
                Ok(0.0) => Ok(Duration::ZERO),
                _ => Err(e.replace("must be positive", "must be positive, or 0 for no bank")),
            }
        }
    }
}

/// Parses a size into KiB: `64MiB`, `64M`, `512KiB`, `1GiB` (all binary
/// units), or a bare number of MiB.
pub fn parse_size_kb(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let digits_end = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(lower.len());
    let (number, unit) = lower.split_at(digits_end);
    let kb_per_unit = match unit.trim() {
        "k" | "kb" | "kib" => 1.0,
        "" | "m" | "mb" | "mib" => 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0,
        _ => {
            return Err(format!(
                "'{text}' is not a size; write e.g. 64MiB, 512KiB or 1GiB"
            ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a size; write e.g. 64MiB, 512KiB or 1GiB"))?;
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("'{text}': a size must be positive"));
    }
    let kb = (value * kb_per_unit).round();
    if kb > MAX_MEMORY_KB as f64 {
        return Err(format!(
            "'{text}' is too large: at most {} (1 TiB)",
            show_size_kb(MAX_MEMORY_KB)
        ));
    }
    Ok(kb as u64)
}

/// The inverse of [`parse_size_kb`], in the largest whole binary unit.
pub fn show_size_kb(kb: u64) -> String {
    if kb % (1 << 20) == 0 {
        format!("{}GiB", kb >> 20)
    } else if kb % 1024 == 0 {
        format!("{}MiB", kb >> 10)
    } else {
        format!("{kb}KiB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("fast")
            .unwrap_err()
            .contains("not a duration"));
    }

    #[test]
    fn time_banks_may_be_zero() {
        assert_eq!(parse_time_bank("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_time_bank("0"), Ok(Duration::ZERO));
        assert_eq!(parse_time_bank("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_time_bank("0ms"), Ok(Duration::ZERO));
        assert!(parse_time_bank("-1s")
            .unwrap_err()
            .contains("or 0 for no bank"));
        assert!(parse_time_bank("plenty")
            .unwrap_err()
            .contains("not a duration"));
    }

    #[test]
    fn absurd_values_are_refused_not_a_panic() {
        for text in [
            "18446744073709551615s",
            "9223372036854775807s",
            "1e300",
            "90000s",
        ] {
            let e = parse_duration(text).unwrap_err();
            assert!(e.contains("too long"), "{text}: {e}");
            let e = parse_time_bank(text).unwrap_err();
            assert!(e.contains("a time bank is at most 86400s"), "{text}: {e}");
        }
        assert_eq!(parse_move_time("3600s"), Ok(MAX_MOVE_TIME));
        assert!(parse_move_time("3601s")
            .unwrap_err()
            .contains("a time per move is at most 3600s"));
        assert_eq!(parse_time_bank("24m"), Ok(Duration::from_secs(24 * 60)));
        assert_eq!(parse_size_kb("1024GiB"), Ok(MAX_MEMORY_KB));
        for text in [
            "1025GiB",
            "18446744073709551615",
            "99999999999999999999999G",
        ] {
            assert!(
                parse_size_kb(text).unwrap_err().contains("at most 1024GiB"),
                "{text}"
            );
        }
        assert_eq!(parse_jobs("1024"), Ok(1024));
        assert!(parse_jobs("1025").unwrap_err().contains("at most 1024"));
        assert!(parse_jobs("0").unwrap_err().contains("at least 1"));
        assert!(parse_samples("99999999999999999999").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size_kb("64MiB"), Ok(65536));
        assert_eq!(parse_size_kb("8 MB"), Ok(8192));
        assert_eq!(parse_size_kb("512KiB"), Ok(512));
        assert_eq!(parse_size_kb("1GiB"), Ok(1 << 20));
        assert_eq!(parse_size_kb("64"), Ok(65536));
        assert!(parse_size_kb("lots").is_err());
        assert!(parse_size_kb("-3M").is_err());
        for kb in [512, 65536, 1 << 20, 1000] {
            assert_eq!(parse_size_kb(&show_size_kb(kb)), Ok(kb));
        }
    }
}
