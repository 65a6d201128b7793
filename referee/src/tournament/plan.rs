//! Tournament files: the raw TOML shape, and its validation into a
//! [`TournamentPlan`] before any bot starts. Every error names the file, the
//! line and the field at fault.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::bot::{BotCommand, BotSpecError, Language, SandboxChoice};
use crate::games::{GameConfig, GameOptions};
use crate::runner::MatchLimits;
use crate::units;

/// Games whose `first` option (who moves first) a tournament sets to `a`.
const GAMES_WITH_FIRST: &[&str] = &["safecracker", "safe-cracker", "safe_cracker"];

/// The file as written. Only syntax and types are checked here.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    name: Option<String>,
    game: Spanned<String>,
    format: Option<Spanned<String>>,
    games_per_pairing: Option<Spanned<u32>>,
    seed: Option<u64>,
    /// Gauntlet: the bots that play everyone else.
    challengers: Option<Spanned<Vec<String>>>,
    /// basic, strict or auto (`referee tournament --sandbox` overrides it).
    sandbox: Option<Spanned<String>>,
    #[serde(default)]
    options: Option<Spanned<GameOptions>>,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    scoring: RawScoring,
    bots: Spanned<Vec<RawBot>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLimits {
    pub(crate) time_limit: Option<Spanned<String>>,
    pub(crate) startup_limit: Option<Spanned<String>>,
    pub(crate) time_bank: Option<Spanned<String>>,
    pub(crate) memory_limit: Option<Spanned<String>>,
    /// The working folder's disk quota.
    pub(crate) disk_limit: Option<Spanned<String>>,
    /// Let bots start processes (threads are always allowed).
    pub(crate) allow_fork: Option<bool>,
}

/// Points per result: 2, 1 and 0 unless given; each at most
/// [`units::MAX_POINTS`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScoring {
    win: Option<Spanned<u32>>,
    draw: Option<Spanned<u32>>,
    loss: Option<Spanned<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBot {
    pub(crate) name: Spanned<String>,
    pub(crate) bot: Spanned<String>,
    pub(crate) language: Option<Spanned<String>>,
    pub(crate) time_limit: Option<Spanned<String>>,
    pub(crate) startup_limit: Option<Spanned<String>>,
    pub(crate) time_bank: Option<Spanned<String>>,
    pub(crate) memory_limit: Option<Spanned<String>>,
    pub(crate) disk_limit: Option<Spanned<String>>,
    pub(crate) allow_fork: Option<bool>,
}

impl RawBot {
    /// The limits a bot's own table sets.
    pub(crate) fn limits(&self) -> RawLimits {
        RawLimits {
            time_limit: self.time_limit.clone(),
            startup_limit: self.startup_limit.clone(),
            time_bank: self.time_bank.clone(),
            memory_limit: self.memory_limit.clone(),
            disk_limit: self.disk_limit.clone(),
            allow_fork: self.allow_fork,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of bots plays.
    RoundRobin,
    /// Each challenger plays every other bot; the others do not meet.
    Gauntlet,
}

/// Match points per result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

#[derive(Clone, Debug)]
pub struct TournamentBot {
    pub name: String,
    pub command: BotCommand,
    pub limits: MatchLimits,
}

/// A validated tournament: everything needed to play it.
#[derive(Clone, Debug)]
pub struct TournamentPlan {
    pub name: String,
    pub config: GameConfig,
    pub format: Format,
    pub games_per_pairing: u32,
    pub seed: u64,
    pub challengers: Vec<usize>,
    pub scoring: Scoring,
    pub bots: Vec<TournamentBot>,
    /// The confinement asked for (not yet resolved on this machine).
    pub sandbox: SandboxChoice,
    /// The file's text, kept to tell whether a results folder belongs to it.
    pub source: String,
}

/// A broken tournament file: where, and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("cannot read the {kind} file {}: {source}", path.display())]
    Read {
        /// "tournament" or "check".
        kind: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}: {message}", path.display())]
    At {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// serde's words for a value of the wrong type (`invalid value: integer
/// `-2`, expected u32`), in a file's words: what the field must be and
/// what it got.
fn plain_toml_message(message: &str) -> String {
    let message = message.trim();
    let Some((got, expected)) = message.rsplit_once(", expected ") else {
        return message.to_string();
    };
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

/// A file being validated: its path and text, to turn spans into lines.
pub(crate) struct Source<'a> {
    pub(crate) path: &'a Path,
    pub(crate) text: &'a str,
}

impl Source<'_> {
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    /// A TOML error (syntax, or a value of the wrong type) in the file's
    /// terms: its line, the field (`options.pegs`) and what the field must
    /// be, rather than serde's `expected u32`.
    pub(crate) fn toml_error(&self, e: &toml::de::Error) -> PlanError {
        let start = e.span().map_or(0, |s| s.start);
        let message = plain_toml_message(e.message());
        // "missing field" has no line of its own; "unknown field" names it.
        let names_itself =
            message.starts_with("missing field") || message.starts_with("unknown field");
        let message = match self.field_at(start) {
            Some(field) if !names_itself => format!("{field}: {message}"),
            _ => message,
        };
        PlanError::At {
            path: self.path.to_path_buf(),
            line: self.line_of(start),
            message,
        }
    }

    /// The dotted name of the `key = value` field on the line of `offset`
    /// (`options.pegs`, `bots.bot`), if that line has one.
    fn field_at(&self, offset: usize) -> Option<String> {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = self.text[line_start..].lines().next().unwrap_or("");
        let (key, _) = line.split_once('=')?;
        let key = key.trim().trim_matches('"');
        if key.is_empty() || key.starts_with('[') || key.starts_with('#') {
            return None;
        }
        let table = self.text[..line_start].lines().rev().find_map(|l| {
            let l = l.trim();
            l.starts_with('[').then(|| {
                l.trim_start_matches('[')
                    .split(']')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string()
            })
        });
        Some(match table {
            Some(table) if !table.is_empty() => format!("{table}.{key}"),
            _ => key.to_string(),
        })
    }

    /// An error of `GameConfig::from_options`: an unknown game at `game`;
    /// an error of the options at the line of the option it names, in TOML
    /// terms (`variant`, not `--variant`), else at the `options` table.
    pub(crate) fn game_error(
        &self,
        game: std::ops::Range<usize>,
        options: Option<std::ops::Range<usize>>,
        e: &crate::games::GameConfigError,
    ) -> PlanError {
        let message = e.to_string();
        if matches!(e, crate::games::GameConfigError::UnknownGame { .. }) || options.is_none() {
            return self.error_at(game, format!("game: {message}"));
        }
        let fallback = options.clone().unwrap_or(game);
        const KEYS: [&str; 10] = [
            "variant",
            "codes",
            "max_rounds",
            "digits",
            "length",
            "attempts",
            "first",
            "pegs",
            "colours",
            "max_attacks",
        ];
        // Flags become keys: `--max-attacks` is `max_attacks` in a file.
        let mut toml_terms = String::with_capacity(message.len());
        let mut rest = message.as_str();
        while let Some(i) = rest.find("--") {
            toml_terms.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(after.len());
            toml_terms.push_str(&after[..end].replace('-', "_"));
            rest = &after[end..];
        }
        toml_terms.push_str(rest);
        let named = KEYS
            .iter()
            .filter_map(|k| {
                let hyphened = k.replace('_', "-");
                let flag = message.find(&format!("--{hyphened}"));
                let word = message.find(&format!(" {hyphened} "));
                flag.into_iter().chain(word).min().map(|at| (at, *k))
            })
            .min()
            .map(|(_, k)| k);
        let line_of_key = named.zip(options).and_then(|(key, span)| {
            let table = &self.text[span.start.min(self.text.len())..span.end.min(self.text.len())];
            let mut offset = span.start;
            for line in table.split_inclusive('\n') {
                let trimmed = line.trim_start();
                if let Some(after) = trimmed.strip_prefix(key) {
                    if after.trim_start().starts_with('=') {
                        return Some(offset + (line.len() - trimmed.len()));
                    }
                }
                offset += line.len();
            }
            None
        });
        match (named, line_of_key) {
            (Some(key), Some(at)) => PlanError::At {
                path: self.path.to_path_buf(),
                line: self.line_of(at),
                message: format!("options.{key}: {toml_terms}"),
            },
            _ => self.error_at(fallback, format!("game: {toml_terms}")),
        }
    }

    pub(crate) fn error_at(&self, span: std::ops::Range<usize>, message: String) -> PlanError {
        PlanError::At {
            path: self.path.to_path_buf(),
            line: self.line_of(span.start),
            message,
        }
    }
}

impl TournamentPlan {
    pub fn load(path: &Path) -> Result<TournamentPlan, PlanError> {
        let text = std::fs::read_to_string(path).map_err(|source| PlanError::Read {
            kind: "tournament",
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(path, &text)
    }

    /// Validates a file's text; relative bot paths are taken from the file's
    /// directory.
    pub fn parse(path: &Path, text: &str) -> Result<TournamentPlan, PlanError> {
        let src = Source { path, text };
        let raw: RawTournament = toml::from_str(text).map_err(|e| src.toml_error(&e))?;
        let base = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));

        let mut options = raw
            .options
            .as_ref()
            .map(|o| o.get_ref().clone())
            .unwrap_or_default();
        // Games are played in pairs with sides swapped; that balances who
        // starts only if seat A starts, so Safe Cracker's coin toss is off
        // unless the file asks for it.
        let game_name = raw.game.get_ref().to_ascii_lowercase();
        if options.first.is_none() && GAMES_WITH_FIRST.contains(&game_name.as_str()) {
            options.first = Some("a".into());
        }
        if let Err(e) = units::check_game_options(&options) {
            let span = raw.options.as_ref().map_or(raw.game.span(), |o| o.span());
            return Err(src.error_at(span, format!("options.{e}")));
        }
        let options_span = raw.options.as_ref().map(|o| o.span());
        let config = GameConfig::from_options(raw.game.get_ref(), &options)
            .map_err(|e| src.game_error(raw.game.span(), options_span, &e))?;

        let format = match &raw.format {
            None => Format::RoundRobin,
            Some(f) => match f.get_ref().as_str() {
                "round-robin" => Format::RoundRobin,
                "gauntlet" => Format::Gauntlet,
                other => {
                    return Err(src.error_at(
                        f.span(),
                        format!(
                        "format: '{other}' is not a format; use \"round-robin\" or \"gauntlet\""
                    ),
                    ))
                }
            },
        };

        let games_per_pairing = match &raw.games_per_pairing {
            None => 2,
            Some(g) if *g.get_ref() == 0 || g.get_ref() % 2 == 1 => {
                return Err(src.error_at(
                    g.span(),
                    format!(
                        "games_per_pairing: {} is not a positive even number; games are played in pairs with sides swapped, so each bot starts as often as the other",
                        g.get_ref()
                    ),
                ))
            }
            Some(g) if u64::from(*g.get_ref()) > units::MAX_GAMES => {
                return Err(src.error_at(
                    g.span(),
                    format!(
                        "games_per_pairing: {} is too many: at most {}",
                        g.get_ref(),
                        units::MAX_GAMES
                    ),
                ))
            }
            Some(g) => *g.get_ref(),
        };

        if raw.bots.get_ref().len() < 2 {
            return Err(src.error_at(
                raw.bots.span(),
                "bots: a tournament needs at least two [[bots]] entries".to_string(),
            ));
        }
        if raw.bots.get_ref().len() > units::MAX_BOTS {
            return Err(src.error_at(
                raw.bots.span(),
                format!(
                    "bots: {} bots are too many: at most {}",
                    raw.bots.get_ref().len(),
                    units::MAX_BOTS
                ),
            ));
        }
        let mut scoring = [2, 1, 0];
        for ((field, given), points) in [
            ("win", &raw.scoring.win),
            ("draw", &raw.scoring.draw),
            ("loss", &raw.scoring.loss),
        ]
        .into_iter()
        .zip(&mut scoring)
        {
            let Some(given) = given else { continue };
            if *given.get_ref() > units::MAX_POINTS {
                return Err(src.error_at(
                    given.span(),
                    format!(
                        "scoring.{field}: {} points are too many: at most {}",
                        given.get_ref(),
                        units::MAX_POINTS
                    ),
                ));
            }
            *points = *given.get_ref();
        }
        let mut bots = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for raw_bot in raw.bots.get_ref() {
            let name = raw_bot.name.get_ref().trim().to_string();
            if name.is_empty() || name.contains(',') || name.contains('"') {
                return Err(src.error_at(
                    raw_bot.name.span(),
                    format!(
                        "bots.name: '{name}' is not a usable name; use letters, digits, '-' or '_'"
                    ),
                ));
            }
            if let Some(first) = seen.insert(name.clone(), bots.len()) {
                return Err(src.error_at(
                    raw_bot.name.span(),
                    format!(
                        "bots.name: '{name}' is used twice (also by bot {}); names must be unique",
                        first + 1
                    ),
                ));
            }
            bots.push(build_bot(
                &src,
                &base,
                &config,
                &raw.limits,
                raw_bot,
                name,
                "bots",
            )?);
        }

        let challengers = match (&format, &raw.challengers) {
            (Format::RoundRobin, None) => vec![],
            (Format::RoundRobin, Some(c)) => {
                return Err(src.error_at(
                    c.span(),
                    "challengers: only a gauntlet has challengers; set format = \"gauntlet\" or remove this field".into(),
                ))
            }
            (Format::Gauntlet, None) => {
                return Err(src.error_at(
                    raw.format.as_ref().map(|f| f.span()).unwrap_or(0..0),
                    "challengers: a gauntlet needs challengers = [\"NAME\", ...], the bots that play all the others".into(),
                ))
            }
            (Format::Gauntlet, Some(c)) => {
                let mut indices = vec![];
                for name in c.get_ref() {
                    match seen.get(name) {
                        Some(&i) => indices.push(i),
                        None => {
                            return Err(src.error_at(
                                c.span(),
                                format!(
                                    "challengers: no bot is named '{name}'; the bots are: {}",
                                    seen.keys().cloned().collect::<Vec<_>>().join(", ")
                                ),
                            ))
                        }
                    }
                }
                if indices.is_empty() || indices.len() == bots.len() {
                    return Err(src.error_at(
                        c.span(),
                        "challengers: name at least one bot, and not all of them".into(),
                    ));
                }
                indices
            }
        };

        let sandbox = match &raw.sandbox {
            None => SandboxChoice::default(),
            Some(text) => SandboxChoice::parse(text.get_ref())
                .map_err(|e| src.error_at(text.span(), format!("sandbox: {e}")))?,
        };
        Ok(TournamentPlan {
            name: raw.name.unwrap_or_else(|| {
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "tournament".into())
            }),
            config,
            format,
            games_per_pairing,
            seed: raw.seed.unwrap_or(1),
            challengers,
            scoring: Scoring {
                win: scoring[0],
                draw: scoring[1],
                loss: scoring[2],
            },
            bots,
            sandbox,
            source: text.to_string(),
        })
    }

    pub fn bot_names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// The tournament's name as one safe folder name (see [`folder_name`]),
    /// for the default results folder.
    pub fn folder_name(&self) -> Result<String, String> {
        folder_name(&self.name)
    }
}

/// Longest folder name made from a tournament name, in bytes.
const MAX_FOLDER_NAME: usize = 100;

/// A name as a single, safe folder name: ASCII letters, digits, `-`, `_`
/// and `.` are kept, anything else (`/`, spaces, control characters, other
/// scripts) becomes `_`, as does a leading `.` (no `..`, no hidden folder);
/// cut to 100 bytes. A name with nothing usable (empty, or only `_`) is
/// refused, so a results folder is always a new folder inside
/// `tournaments/results`.
pub fn folder_name(name: &str) -> Result<String, String> {
    let mut safe: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(MAX_FOLDER_NAME)
        .collect();
    if safe.starts_with('.') {
        safe.replace_range(..1, "_");
    }
    if safe.chars().all(|c| c == '_' || c == '.') {
        return Err(format!(
            "name: '{}' gives no usable folder name; use letters, digits, '-', '_' or '.', or give --out",
            crate::text::escape(name)
        ));
    }
    Ok(safe)
}

/// A bot spec of a file, rewritten to run from the current directory, as
/// the replay commands print it: each word that is a path relative to the
/// file's folder `base` (as the user named it) gets that folder in front
/// (`../target/release/x` in `tournaments/t.toml` becomes
/// `tournaments/../target/release/x`). Other words are kept.
pub(crate) fn spec_from_here(spec: &str, base: &Path) -> String {
    if base.as_os_str().is_empty() || base == Path::new(".") {
        return spec.to_string();
    }
    let trimmed = spec.trim();
    let (prefix, rest) = match trimmed.split_once(':') {
        Some((lang, rest)) if Language::from_name(lang).is_some() && !rest.is_empty() => {
            (format!("{lang}:"), rest.trim())
        }
        _ => (String::new(), trimmed),
    };
    let moved = |word: &str| {
        let path = Path::new(word);
        if !word.starts_with('-') && path.is_relative() && base.join(path).exists() {
            base.join(path).display().to_string()
        } else {
            word.to_string()
        }
    };
    if !rest.contains(char::is_whitespace) || base.join(rest).exists() {
        return format!("{prefix}{}", moved(rest));
    }
    match shell_words::split(rest) {
        Ok(words) => format!(
            "{prefix}{}",
            shell_words::join(words.iter().map(|w| moved(w)))
        ),
        Err(_) => spec.to_string(),
    }
}

/// A bot entry of a file, validated: its command (paths relative to `base`,
/// the file's folder), its language, and its limits: the language's
/// defaults for the game, then the file's `[limits]`, then the bot's own.
pub(crate) fn build_bot(
    src: &Source<'_>,
    base: &Path,
    config: &GameConfig,
    file_limits: &RawLimits,
    raw_bot: &RawBot,
    name: String,
    table: &str,
) -> Result<TournamentBot, PlanError> {
    let mut command = BotCommand::parse_relative_to(raw_bot.bot.get_ref(), base).map_err(|e| {
        let hint = match e {
            BotSpecError::NotFound { .. } => " (bot paths are relative to the file's folder; build the sample bots with `cargo build --release --workspace`)",
            _ => "",
        };
        src.error_at(raw_bot.bot.span(), format!("{table}.bot of '{name}': {e}{hint}"))
    })?;
    command.spec = spec_from_here(raw_bot.bot.get_ref(), base);
    if let Some(language) = &raw_bot.language {
        command.language = Language::from_name(language.get_ref()).ok_or_else(|| {
            src.error_at(
                language.span(),
                format!(
                    "{table}.language of '{name}': '{}' is not a language; use one of: {}",
                    language.get_ref(),
                    Language::ALL.map(|l| l.name()).join(", ")
                ),
            )
        })?;
    }
    // Language defaults (Cryptron's contest limits), then the
    // file's [limits], then the bot's own.
    let mut bot_limits = MatchLimits::defaults_for(config, command.language);
    apply_limits(src, &mut bot_limits, file_limits, "limits.")?;
    apply_limits(src, &mut bot_limits, &raw_bot.limits(), &format!("{table}."))?;
    if let Some(allow) = raw_bot.allow_fork.or(file_limits.allow_fork) {
        bot_limits.process.allow_fork = allow;
    }
    Ok(TournamentBot {
        name,
        command,
        limits: bot_limits,
    })
}

/// Applies the limits a `[limits]` or bot table sets (`prefix` names the
/// table in messages).
pub(crate) fn apply_limits(
    src: &Source<'_>,
    limits: &mut MatchLimits,
    raw: &RawLimits,
    prefix: &str,
) -> Result<(), PlanError> {
    let (time, startup, bank, memory) = (
        &raw.time_limit,
        &raw.startup_limit,
        &raw.time_bank,
        &raw.memory_limit,
    );
    let duration = |v: &Spanned<String>, field: &str| -> Result<Duration, PlanError> {
        units::parse_move_time(v.get_ref())
            .map_err(|e| src.error_at(v.span(), format!("{prefix}{field}: {e}")))
    };
    if let Some(t) = time {
        limits.time_limit = duration(t, "time_limit")?;
    }
    if let Some(t) = startup {
        limits.startup_limit = duration(t, "startup_limit")?;
    }
    if let Some(b) = bank {
        limits.time_bank = units::parse_time_bank(b.get_ref())
            .map_err(|e| src.error_at(b.span(), format!("{prefix}time_bank: {e}")))?;
    }
    if let Some(m) = memory {
        limits.process.memory_kb = units::parse_size_kb(m.get_ref())
            .map_err(|e| src.error_at(m.span(), format!("{prefix}memory_limit: {e}")))?;
    }
    if let Some(d) = &raw.disk_limit {
        limits.process.disk_kb = units::parse_size_kb(d.get_ref())
            .map_err(|e| src.error_at(d.span(), format!("{prefix}disk_limit: {e}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TournamentPlan, PlanError> {
        TournamentPlan::parse(Path::new("/tmp/t.toml"), text)
    }

    const BOTS: &str =
        "[[bots]]\nname = \"x\"\nbot = \"true\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\n";

    #[test]
    fn a_minimal_file_gets_the_defaults() {
        let plan = parse(&format!("game = \"arrow5\"\n{BOTS}")).unwrap();
        assert_eq!(plan.format, Format::RoundRobin);
        assert_eq!(plan.games_per_pairing, 2);
        assert_eq!(
            plan.scoring,
            Scoring {
                win: 2,
                draw: 1,
                loss: 0
            }
        );
        assert_eq!(plan.bot_names(), ["x", "y"]);
    }

    fn error_of(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let e = error_of(&format!("game = \"arrow5\"\ngames_per_pairing = 3\n{BOTS}"));
        assert!(e.starts_with("/tmp/t.toml:2: games_per_pairing"), "{e}");
        let e = error_of(&format!("game = \"arow5\"\n{BOTS}"));
        assert!(
            e.starts_with("/tmp/t.toml:1: game:") && e.contains("did you mean"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n{BOTS}[[bots]]\nname = \"z\"\nbot = \"./missing\"\n"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:10: bots.bot of 'z'") && e.contains("does not exist"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n[limits]\ntime_limit = \"soon\"\n{BOTS}"
        ));
        assert!(e.starts_with("/tmp/t.toml:3: limits.time_limit"), "{e}");
        let e = error_of(&format!(
            "game = \"arrow5\"\n[limits]\ntime_bank = \"lots\"\n{BOTS}"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:3: limits.time_bank") && e.contains("not a duration"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n{BOTS}[[bots]]\nname = \"z\"\nbot = \"true\"\ntime_bank = \"-2s\"\n"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:11: bots.time_bank") && e.contains("or 0 for no bank"),
            "{e}"
        );
        let e = error_of(&format!("game = \"arrow5\"\nsede = 3\n{BOTS}"));
        assert!(e.starts_with("/tmp/t.toml:2:") && e.contains("sede"), "{e}");
        let e = error_of(&format!(
            "game = \"arrow5\"\n{BOTS}[[bots]]\nname = \"x\"\nbot = \"true\"\n"
        ));
        assert!(e.contains("used twice"), "{e}");
        let e = error_of(&format!(
            "game = \"arrow5\"\nformat = \"gauntlet\"\nchallengers = [\"q\"]\n{BOTS}"
        ));
        assert!(
            e.starts_with("/tmp/t.toml:3: challengers") && e.contains("x, y"),
            "{e}"
        );
        let e = error_of(&format!(
            "game = \"arrow5\"\n[options]\nvariant = \"blind\"\n{BOTS}"
        ));
        // The line of the option, named as in the file.
        assert!(
            e.starts_with("/tmp/t.toml:3: options.variant:") && e.contains("blind"),
            "{e}"
        );
    }

    #[test]
    fn names_become_safe_folder_names() {
        assert_eq!(folder_name("arrow5 cup").unwrap(), "arrow5_cup");
        assert_eq!(folder_name("../../etc").unwrap(), "_._.._etc");
        assert_eq!(folder_name("/tmp/x").unwrap(), "_tmp_x");
        assert_eq!(folder_name(".hidden").unwrap(), "_hidden");
        assert_eq!(folder_name("a\x1b[31m").unwrap(), "a__31m");
        assert_eq!(folder_name(&"x".repeat(500)).unwrap().len(), 100);
        for bad in ["", "  ", "..", "/", "../..", "__"] {
            assert!(folder_name(bad).is_err(), "{bad:?}");
        }
        for name in ["../up", "a/b", ".", "..", "x/../../y"] {
            if let Ok(f) = folder_name(name) {
                assert!(!f.contains('/') && !f.starts_with('.'), "{f}");
            }
        }
    }

    #[test]
    fn safecracker_tournaments_let_seat_a_start() {
        let plan = parse(&format!("game = \"safecracker\"\n{BOTS}")).unwrap();
        assert!(
            plan.config
                .cli_flags()
                .windows(2)
                .any(|w| w == ["--first", "a"]),
            "{:?}",
            plan.config.cli_flags()
        );
        let plan = parse(&format!(
            "game = \"safecracker\"\n[options]\nfirst = \"toss\"\n{BOTS}"
        ))
        .unwrap();
        assert!(plan
            .config
            .cli_flags()
            .windows(2)
            .any(|w| w == ["--first", "toss"]));
    }

    #[test]
    fn per_bot_limits_override_the_tournament_limits() {
        let text = "game = \"arrow5\"\n[limits]\ntime_limit = \"1s\"\n[[bots]]\nname = \"x\"\nbot = \"true\"\ntime_limit = \"6s\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\n";
        let plan = parse(text).unwrap();
        assert_eq!(plan.bots[0].limits.time_limit, Duration::from_secs(6));
        assert_eq!(plan.bots[1].limits.time_limit, Duration::from_secs(1));
    }

    #[test]
    fn time_banks_come_from_the_file_and_each_bot() {
        let plan = parse(&format!("game = \"arrow5\"\n{BOTS}")).unwrap();
        assert_eq!(
            plan.bots[0].limits.time_bank,
            Duration::ZERO,
            "no bank by default"
        );
        let text = "game = \"arrow5\"\n[limits]\ntime_bank = \"10s\"\n[[bots]]\nname = \"x\"\nbot = \"true\"\ntime_bank = \"0\"\n[[bots]]\nname = \"y\"\nbot = \"true\"\ntime_bank = \"2.5s\"\n[[bots]]\nname = \"z\"\nbot = \"true\"\n";
        let plan = parse(text).unwrap();
        let banks: Vec<Duration> = plan.bots.iter().map(|b| b.limits.time_bank).collect();
        assert_eq!(
            banks,
            [
                Duration::ZERO,
                Duration::from_millis(2500),
                Duration::from_secs(10)
            ]
        );
    }
}
