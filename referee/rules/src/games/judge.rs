//! A game whose rules live in a program of the organiser's, a *judge*
//! (the judge protocol: docs/reference.md, "Judges"). Here it is data only:
//! which judge, what its files hash to, and the options it is given. The
//! engine runs the judge process and plays it through the [`Game`] trait
//! like any built-in game.
//!
//! [`Game`]: super::Game

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The judge protocol version this referee speaks.
pub const PROTOCOL: u32 = 1;

/// Time a judge may take to answer one message, by default.
pub const DEFAULT_TIME_MS: u64 = 5_000;

/// Resident memory a judge may use, by default (1 GiB).
pub const DEFAULT_MEMORY_KB: u64 = 1024 * 1024;

/// A judge game as the organiser chose it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The judge program, as an absolute path (what replay commands name).
    pub path: String,
    /// The game's name: the judge's folder, or its file stem when the
    /// folder says nothing (`judge.py` in `games/connect4/` is `connect4`).
    pub name: String,
    /// sha256 over the files of the judge's folder (see the engine's
    /// `judge::content_hash`): the game's identity follows the judge's code.
    pub hash: String,
    /// The options passed verbatim to the judge in its `start` message.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Time the judge may take to answer one message, in milliseconds.
    pub time_ms: u64,
    /// Resident memory the judge may use, in KiB.
    pub memory_kb: u64,
}

impl Config {
    /// The options as one word each, `KEY=VALUE`, sorted by key: the
    /// record's variant and the replay command's `--option` flags.
    pub fn option_words(&self) -> Vec<String> {
        self.options
            .iter()
            .map(|(key, value)| match value {
                serde_json::Value::String(s) => format!("{key}={s}"),
                other => format!("{key}={other}"),
            })
            .collect()
    }

    /// The records' variant: the options given, or `default`.
    pub fn variant_name(&self) -> String {
        if self.options.is_empty() {
            "default".into()
        } else {
            self.option_words().join(" ")
        }
    }

    /// The identity fields: the judge's content hash, its name and its
    /// options as canonical JSON (keys sorted). Its path and limits are
    /// left out: moving the game's folder keeps its games.
    pub fn canonical_fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("judge", self.hash.clone()),
            ("name", self.name.clone()),
            (
                "options",
                serde_json::to_string(&self.options).unwrap_or_default(),
            ),
        ]
    }

    /// The flags after the judge's path that give the same game: each
    /// option as `KEY=VALUE` when the command line reads that back as the
    /// same value ([`option_value`]), else as `KEY:=JSON` (a file's
    /// `"007"`, `"true"`, arrays and tables).
    pub fn cli_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        for (key, value) in &self.options {
            let plain = match value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            flags.push("--option".into());
            // (A NUL cannot be in a command line's word: JSON spells it.)
            flags.push(if option_value(&plain) == *value && !plain.contains('\0') {
                format!("{key}={plain}")
            } else {
                format!("{key}:={value}")
            });
        }
        if self.time_ms != DEFAULT_TIME_MS {
            flags.push("--judge-time".into());
            flags.push(if self.time_ms % 1000 == 0 {
                format!("{}s", self.time_ms / 1000)
            } else {
                format!("{}ms", self.time_ms)
            });
        }
        flags
    }
}

/// An option's value as the command line gives it: an integer, a float,
/// `true`/`false`, else the text itself.
pub fn option_value(text: &str) -> serde_json::Value {
    if let Ok(n) = text.parse::<i64>() {
        return n.into();
    }
    if let Ok(n) = text.parse::<u64>() {
        return n.into();
    }
    // An integer no 64 bits hold stays text: as a float it would lose
    // its last digits without a word.
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return text.into();
    }
    match text {
        "true" => return true.into(),
        "false" => return false.into(),
        _ => {}
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => serde_json::Number::from_f64(x)
            .map(serde_json::Value::Number)
            .unwrap_or_else(|| text.into()),
        _ => text.into(),
    }
}

/// Why a judge game was voided: the judge failed (or the referee was
/// interrupted while it waited for the judge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Void {
    /// The number of the judge's message at fault (1 = its answer to
    /// `start`), or of the message awaited.
    pub message: u64,
    /// What was wrong, in words.
    pub what: String,
    /// The judge's stderr lines kept (its first and last).
    pub stderr: Vec<String>,
    /// Not the judge's fault: the referee was asked to stop.
    pub interrupted: bool,
    /// The judge refused the game at its start (`error` for `start`: an
    /// option it does not take): the organiser's to fix, the same for
    /// every game of that judge and options, so bad input, not a void
    /// game to play again.
    pub refused: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identity_is_the_hash_the_name_and_the_sorted_options() {
        let mut options = BTreeMap::new();
        options.insert("rows".to_string(), serde_json::json!(6));
        options.insert("board".to_string(), serde_json::json!("wide"));
        let config = crate::games::GameConfig::Judge(Config {
            path: "/somewhere/connect4/judge.py".into(),
            name: "connect4".into(),
            hash: "ab12".into(),
            options,
            time_ms: 900,
            memory_kb: 1,
        });
        let bytes = String::from_utf8(config.canonical().bytes())
            .unwrap()
            .replace('\0', "|");
        // The path and the limits are not the game's identity.
        assert_eq!(
            bytes,
            r#"referee game v1|judge|--judge|ab12|--name|connect4|--options|{"board":"wide","rows":6}"#
        );
        assert_eq!(config.variant_name(), "board=wide rows=6");
        assert_eq!(
            config.cli_flags(),
            [
                "--option",
                "board=wide",
                "--option",
                "rows=6",
                "--judge-time",
                "900ms"
            ]
        );
    }

    #[test]
    fn option_values_take_the_type_they_spell() {
        assert_eq!(option_value("7"), serde_json::json!(7));
        assert_eq!(option_value("-2"), serde_json::json!(-2));
        assert_eq!(option_value("0.5"), serde_json::json!(0.5));
        assert_eq!(option_value("true"), serde_json::json!(true));
        assert_eq!(option_value("wide"), serde_json::json!("wide"));
        assert_eq!(option_value("NaN"), serde_json::json!("NaN"));
    }
}
