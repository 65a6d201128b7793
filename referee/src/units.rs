//! Parsing of the units users type: durations (`2s`, `500ms`) and sizes
//! (`64MiB`, `512KiB`).

use std::time::Duration;

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
    Ok(Duration::from_secs_f64(value * scale))
}

/// Parses a time bank: a duration as [`parse_duration`] reads it, or zero
/// (`0`, `0s`, `0ms`) for no bank, so that a bot's own entry can take away
/// a bank its file gives every bot.
pub fn parse_time_bank(text: &str) -> Result<Duration, String> {
    match parse_duration(text) {
        Ok(bank) => Ok(bank),
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
    Ok((value * kb_per_unit).round() as u64)
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
