//! Parsing of the units users type: durations (`2s`, `500ms`) and sizes
//! (`64MiB`, `512KiB`), and the upper bound of every duration, size and
//! count an operator can give (flags and the fields of tournament, check
//! and sprt input). A value beyond its bound is refused with a message that
//! names the bound, before any folder is made or bot started: no input can
//! make the referee overflow, panic or allocate without limit.

use core::time::Duration;

/// Longest time for one reply (`time_limit`, `startup_limit`,
/// `max-move-time`'s `below`): one hour.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(3600);
/// The shortest time per move the referee takes (see [`parse_move_time`]).
pub const MIN_MOVE_TIME: Duration = Duration::from_millis(1);
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

/// Why a duration, size or count typed by an operator is refused; the
/// message quotes what was typed and says what would do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    #[error("{name} (--{flag}): {value} is too many: at most {MAX_ROUNDS}", flag = name.replace('_', "-"))]
    TooManyRounds { name: &'static str, value: u32 },
    #[error("'{text}' is not a whole number")]
    NotACount { text: String },
    #[error("{n} is too few: at least {min}")]
    TooFew { n: u64, min: u64 },
    #[error("{n} is too many: at most {max}")]
    TooMany { n: u64, max: u64 },
    #[error(
        "'{text}' is not a duration; write e.g. 500ms, 1.5s, 2m or 1h (a bare number is seconds)"
    )]
    NotADuration { text: String },
    #[error("'{text}': a duration must be positive{}", if *zero_allowed { ", or 0 for no bank" } else { "" })]
    NotPositive { text: String, zero_allowed: bool },
    #[error("'{text}' is too short: {what} is at least {min_ms}ms")]
    TooShort {
        text: String,
        what: &'static str,
        min_ms: u64,
    },
    /// Beyond the bound of `what` (none named: beyond any duration).
    #[error("'{text}' is too long: {}at most {max_secs}s", what.map(|w| format!("{w} is ")).unwrap_or_default())]
    TooLong {
        text: String,
        what: Option<&'static str>,
        max_secs: u64,
    },
    #[error("'{text}' is not a size; write e.g. 64MiB, 512KiB or 1GiB")]
    NotASize { text: String },
    #[error("'{text}': a size must be positive")]
    SizeNotPositive { text: String },
    #[error(
        "'{text}' is too large: at most {} (1 TiB)",
        show_size_kb(MAX_MEMORY_KB)
    )]
    TooLarge { text: String },
}

/// The most tie-break pairs a file may ask for.
pub const MAX_TIEBREAK_PAIRS: u32 = 100;

/// Refuses game options beyond their bounds (the games check the rest):
/// `max_rounds`, `attempts` and `max_attacks` at most [`MAX_ROUNDS`]. The
/// message names the option as both flags and files spell it.
pub fn check_game_options(options: &crate::games::GameOptions) -> Result<(), UnitError> {
    for (name, value) in [
        ("max_rounds", options.max_rounds),
        ("attempts", options.attempts),
        ("max_attacks", options.max_attacks),
    ] {
        if let Some(value) = value.filter(|v| *v > MAX_ROUNDS) {
            return Err(UnitError::TooManyRounds { name, value });
        }
    }
    Ok(())
}

/// `N` for a count of at most `max` (`--jobs`, `--samples`, ...): a
/// number, at least `min`.
pub fn parse_count(text: &str, min: u64, max: u64) -> Result<u64, UnitError> {
    let n: u64 = text.trim().parse().map_err(|_| UnitError::NotACount {
        text: text.to_string(),
    })?;
    if n < min {
        return Err(UnitError::TooFew { n, min });
    }
    if n > max {
        return Err(UnitError::TooMany { n, max });
    }
    Ok(n)
}

/// `--jobs`: 1 to [`MAX_JOBS`].
pub fn parse_jobs(text: &str) -> Result<usize, UnitError> {
    parse_count(text, 1, MAX_JOBS as u64).map(|n| n as usize)
}

/// `--samples`: 1 to [`MAX_SAMPLES`].
pub fn parse_samples(text: &str) -> Result<u64, UnitError> {
    parse_count(text, 1, MAX_SAMPLES)
}

/// A duration of at most `max`; beyond, a message naming `what` and `max`.
fn at_most(
    text: &str,
    d: Duration,
    max: Duration,
    what: &'static str,
) -> Result<Duration, UnitError> {
    if d > max {
        return Err(UnitError::TooLong {
            text: text.to_string(),
            what: Some(what),
            max_secs: max.as_secs(),
        });
    }
    Ok(d)
}

/// The time for one reply: a duration as [`parse_duration`] reads it, at
/// most [`MAX_MOVE_TIME`].
pub fn parse_move_time(text: &str) -> Result<Duration, UnitError> {
    let what = "a time per move";
    match parse_duration(text) {
        // A reply's time includes waking the referee and the bot (tens of
        // microseconds, more on a busy machine): a shorter limit would be
        // met or missed by chance.
        Ok(d) if d < MIN_MOVE_TIME => Err(UnitError::TooShort {
            text: text.to_string(),
            what,
            min_ms: MIN_MOVE_TIME.as_millis() as u64,
        }),
        Ok(d) => at_most(text, d, MAX_MOVE_TIME, what),
        Err(UnitError::TooLong { .. }) => Err(UnitError::TooLong {
            text: text.to_string(),
            what: Some(what),
            max_secs: MAX_MOVE_TIME.as_secs(),
        }),
        Err(e) => Err(e),
    }
}

/// Parses `2s`, `1.5s`, `500ms`, `250us`, `2m`, `1h` or a bare number of
/// seconds.
pub fn parse_duration(text: &str) -> Result<Duration, UnitError> {
    let (number, scale) = split_duration(text);
    let value: f64 = number.trim().parse().map_err(|_| UnitError::NotADuration {
        text: text.to_string(),
    })?;
    if !(value.is_finite() && value > 0.0) {
        return Err(UnitError::NotPositive {
            text: text.to_string(),
            zero_allowed: false,
        });
    }
    // Beyond any bound below, but still a Duration: never a panic.
    Duration::try_from_secs_f64(value * scale)
        .ok()
        .filter(|d| *d <= MAX_TIME_BANK)
        .ok_or_else(|| UnitError::TooLong {
            text: text.to_string(),
            what: None,
            max_secs: MAX_TIME_BANK.as_secs(),
        })
}

/// A duration's number and the seconds one of its unit is worth.
fn split_duration(text: &str) -> (&str, f64) {
    let t = text.trim();
    if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    }
}

/// Parses a time bank: a duration as [`parse_duration`] reads it, or zero
/// (`0`, `0s`, `0ms`) for no bank, so that a bot's own entry can take away
/// a bank its file gives every bot.
pub fn parse_time_bank(text: &str) -> Result<Duration, UnitError> {
    match parse_duration(text) {
        Ok(bank) => at_most(text, bank, MAX_TIME_BANK, "a time bank"),
        Err(UnitError::TooLong { text, max_secs, .. }) => Err(UnitError::TooLong {
            text,
            what: Some("a time bank"),
            max_secs,
        }),
        Err(UnitError::NotPositive { text, .. }) => {
            match split_duration(&text).0.trim().parse::<f64>() {
                Ok(0.0) => Ok(Duration::ZERO),
                _ => Err(UnitError::NotPositive {
                    text,
                    zero_allowed: true,
                }),
            }
        }
        Err(e) => Err(e),
    }
}

/// Parses a size into KiB: `64MiB`, `64M`, `512KiB`, `1GiB` (all binary
/// units), or a bare number of MiB.
pub fn parse_size_kb(text: &str) -> Result<u64, UnitError> {
    let not_a_size = || UnitError::NotASize {
        text: text.to_string(),
    };
    let lower = text.trim().to_ascii_lowercase();
    let digits_end = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(lower.len());
    let (number, unit) = lower.split_at(digits_end);
    let kb_per_unit = match unit.trim() {
        "k" | "kb" | "kib" => 1.0,
        "" | "m" | "mb" | "mib" => 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0,
        // A size beyond the largest taken is said to be too large, not
        // to be no size.
        "t" | "tb" | "tib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(not_a_size()),
    };
    let value: f64 = number.parse().map_err(|_| not_a_size())?;
    if !(value.is_finite() && value > 0.0) {
        return Err(UnitError::SizeNotPositive {
            text: text.to_string(),
        });
    }
    let kb = (value * kb_per_unit).round();
    if kb > MAX_MEMORY_KB as f64 {
        return Err(UnitError::TooLarge {
            text: text.to_string(),
        });
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

/// Seconds since the Unix epoch as UTC (year, month, day, hour, minute,
/// second), by Howard Hinnant's civil-from-days algorithm.
pub fn utc_civil(secs: u64) -> (i64, i64, i64, u64, u64, u64) {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rest / 3600, rest / 60 % 60, rest % 60)
}

/// Days since 1970-01-01 of a proleptic Gregorian date: the inverse of
/// [`utc_civil`]'s date (H. Hinnant's days-from-civil).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `2026-11-25 02:04 UTC`.
pub fn utc_minute(secs: u64) -> String {
    let (y, mo, d, h, mi, _) = utc_civil(secs);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_civil(1_795_573_434), (2026, 11, 25, 2, 23, 54));
        assert_eq!(utc_minute(951_782_400), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("fast")
            .unwrap_err()
            .to_string()
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
            .to_string()
            .contains("or 0 for no bank"));
        assert!(parse_time_bank("plenty")
            .unwrap_err()
            .to_string()
            .contains("not a duration"));
    }

    #[test]
    fn hours_are_held_to_the_same_bounds_as_seconds() {
        // `1h` was "not a duration" while `60m` and `3600s` were taken.
        assert_eq!(parse_move_time("1h"), parse_move_time("3600s"));
        assert_eq!(parse_move_time("1h"), Ok(MAX_MOVE_TIME));
        assert_eq!(
            parse_move_time("2h").unwrap_err().to_string(),
            "'2h' is too long: a time per move is at most 3600s"
        );
        assert_eq!(parse_time_bank("24h"), Ok(MAX_TIME_BANK));
        let e = parse_time_bank("25h").unwrap_err().to_string();
        assert!(e.contains("a time bank is at most 86400s"), "{e}");
        assert_eq!(parse_time_bank("0h"), Ok(Duration::ZERO));
    }

    #[test]
    fn a_time_per_move_under_a_millisecond_is_refused() {
        for text in ["1us", "999us", "0.5ms"] {
            let e = parse_move_time(text).unwrap_err().to_string();
            assert!(e.contains("at least 1ms"), "{text}: {e}");
        }
        assert_eq!(parse_move_time("1ms").unwrap(), Duration::from_millis(1));
    }

    #[test]
    fn absurd_values_are_refused_not_a_panic() {
        for text in [
            "18446744073709551615s",
            "9223372036854775807s",
            "1e300",
            "90000s",
        ] {
            let e = parse_duration(text).unwrap_err().to_string();
            assert!(e.contains("too long"), "{text}: {e}");
            let e = parse_time_bank(text).unwrap_err().to_string();
            assert!(e.contains("a time bank is at most 86400s"), "{text}: {e}");
        }
        assert_eq!(parse_move_time("3600s"), Ok(MAX_MOVE_TIME));
        assert!(parse_move_time("3601s")
            .unwrap_err()
            .to_string()
            .contains("a time per move is at most 3600s"));
        assert_eq!(parse_time_bank("24m"), Ok(Duration::from_secs(24 * 60)));
        assert_eq!(parse_size_kb("1024GiB"), Ok(MAX_MEMORY_KB));
        assert_eq!(parse_size_kb("1TiB"), Ok(MAX_MEMORY_KB));
        for text in [
            "1025GiB",
            "100TiB",
            "99999999999TiB",
            "18446744073709551615",
            "99999999999999999999999G",
        ] {
            assert!(
                parse_size_kb(text)
                    .unwrap_err()
                    .to_string()
                    .contains("at most 1024GiB"),
                "{text}"
            );
        }
        assert_eq!(parse_jobs("1024"), Ok(1024));
        assert!(parse_jobs("1025")
            .unwrap_err()
            .to_string()
            .contains("at most 1024"));
        assert!(parse_jobs("0")
            .unwrap_err()
            .to_string()
            .contains("at least 1"));
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
