//! serde's and the TOML parser's words for a file's mistakes, in the
//! file's terms: what a field must be, and how a list of tables is
//! written.

use crate::units;

/// The most a numeric field may be, by its dotted name: a number larger
/// than its type (or TOML) holds is refused with this limit, the one the
/// field is checked against, rather than the type's.
fn field_limit(field: &str) -> Option<u64> {
    use crate::games::{mastermind, safecracker};
    let top = match field {
        "games_per_pairing" => Some(units::MAX_GAMES),
        "scoring.win" | "scoring.draw" | "scoring.loss" => Some(u64::from(units::MAX_POINTS)),
        "tiebreak_pairs" => Some(u64::from(units::MAX_TIEBREAK_PAIRS)),
        "rounds" | "groups" | "advance" => Some(units::MAX_BOTS as u64),
        _ => None,
    };
    if top.is_some() {
        return top;
    }
    Some(match field.strip_prefix("options.")? {
        "max_rounds" | "attempts" | "max_attacks" => u64::from(units::MAX_ROUNDS),
        "pegs" => u64::from(mastermind::MAX_PEGS),
        "colours" | "colors" => u64::from(mastermind::MAX_COLOURS),
        "digits" => u64::from(safecracker::MAX_DIGITS),
        "length" => u64::from(safecracker::MAX_LENGTH),
        _ => return None,
    })
}

/// serde's words for a value of the wrong type (`invalid value: integer
/// `-2`, expected u32`), in a file's words: what the field must be and
/// what it got; a whole number too large for the field says so, with the
/// field's limit (`field`: its dotted name, if known).
pub(super) fn plain_toml_message(message: &str, field: Option<&str>) -> String {
    let message = message.trim();
    // TOML's own limit: a whole number is at most i64::MAX.
    if message == "number too large to fit in target type" {
        let most = field.and_then(field_limit).unwrap_or(i64::MAX as u64);
        return format!("too large: at most {most}");
    }
    let Some((got, expected)) = message.rsplit_once(", expected ") else {
        return message.to_string();
    };
    let type_max = match expected.trim() {
        "u8" => Some(u64::from(u8::MAX)),
        "u16" => Some(u64::from(u16::MAX)),
        "u32" => Some(u64::from(u32::MAX)),
        "u64" | "usize" => Some(u64::MAX),
        _ => None,
    };
    let too_large = got
        .strip_prefix("invalid value: integer `")
        .and_then(|n| n.strip_suffix('`'))
        .filter(|n| !n.starts_with('-'));
    if let (Some(n), Some(type_max)) = (too_large, type_max) {
        let most = field.and_then(field_limit).unwrap_or(type_max);
        return format!("{n} is too large: at most {most}");
    }
    let range = match expected.trim() {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" | "u64" | "usize" => "a whole number, not negative",
        "i64" | "i32" => "a whole number",
        "f64" | "f32" => "a number",
        "a boolean" => "true or false",
        "a string" => "a string in quotes",
        _ => return message.to_string(),
    };
    let got = got
        .trim_start_matches("invalid value: ")
        .trim_start_matches("invalid type: ")
        .replace('`', "");
    format!("must be {range}, got {got}")
}

/// A list of tables (`[[bots]]`, one per bot) written as one table
/// (`[bots]` with `a = "..."` under it), said in the file's terms:
/// serde's words were "invalid type: map, expected a sequence".
pub(super) fn table_for_a_list(text: &str, offset: usize, message: &str) -> Option<String> {
    if !message
        .trim()
        .starts_with("invalid type: map, expected a sequence")
    {
        return None;
    }
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("").trim();
    let name = line.strip_prefix('[')?.split(']').next()?.trim();
    if name.is_empty() || name.starts_with('[') {
        return None;
    }
    let example = if name == "bots" {
        " (e.g. `[[bots]]`, then `name = \"alice\"` and `bot = \"alice.py\"` under it)"
    } else {
        ""
    };
    Some(format!(
        "{name}: a list, one table per entry: write `[[{name}]]` before each entry{example}, \
         not one `[{name}]` table"
    ))
}
