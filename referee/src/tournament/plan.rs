//! Tournament files: the raw TOML shape, and its validation into a
//! [`TournamentPlan`] before any bot starts. Every error names the file, the
//! line and the field at fault. What tournament and check files share (the
//! game and its options, limits, bot tables, errors) is in
//! [`crate::plan_file`].

use std::collections::BTreeMap;
use std::path::Path;
#[cfg(test)]
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::bot::SandboxChoice;
use crate::games::{GameConfig, GameOptions};
pub use crate::plan_file::{PlanError, TournamentBot};
use crate::plan_file::{RawBot, RawLimits, Source, DEFAULT_SEED};
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
    /// Languages added or overridden (`[languages.NAME]`).
    #[serde(default)]
    languages: crate::plan_file::Languages,
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

impl TournamentPlan {
    pub fn load(path: &Path) -> Result<TournamentPlan, PlanError> {
        let text = Source::read("tournament", path)?;
        Self::parse(path, &text)
    }

    /// Validates a file's text; relative bot paths are taken from the file's
    /// directory.
    pub fn parse(path: &Path, text: &str) -> Result<TournamentPlan, PlanError> {
        let src = Source { path, text };
        let raw: RawTournament = src.raw()?;
        src.register_languages(&raw.languages)?;
        let config = src.game_config(&raw.game, raw.options.as_ref(), |options| {
            seat_a_starts(raw.game.get_ref(), options)
        })?;
        let format = format(&src, raw.format.as_ref())?;
        let games_per_pairing = games_per_pairing(&src, raw.games_per_pairing.as_ref())?;
        bot_count(&src, &raw.bots)?;
        let scoring = scoring(&src, &raw.scoring)?;
        let (bots, names) = src.bot_entries(&config, &raw.limits, raw.bots.get_ref(), "bots")?;
        let challengers = challengers(&src, &raw, format, &names, bots.len())?;
        let sandbox = match &raw.sandbox {
            None => SandboxChoice::default(),
            Some(text) => SandboxChoice::parse(text.get_ref())
                .map_err(|e| src.error_at(text.span(), format!("sandbox: {e}")))?,
        };
        Ok(TournamentPlan {
            name: src.plan_name(raw.name.as_deref(), "tournament"),
            config,
            format,
            games_per_pairing,
            seed: raw.seed.unwrap_or(DEFAULT_SEED),
            challengers,
            scoring,
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
    pub fn folder_name(&self) -> Result<String, NoFolderName> {
        folder_name(&self.name)
    }
}

/// Games are played in pairs with sides swapped; that balances who starts
/// only if seat A starts, so Safe Cracker's coin toss is off unless the
/// file asks for it.
fn seat_a_starts(game: &str, options: &mut GameOptions) {
    if options.first.is_none() && GAMES_WITH_FIRST.contains(&game.to_ascii_lowercase().as_str()) {
        options.first = Some("a".into());
    }
}

fn format(src: &Source<'_>, format: Option<&Spanned<String>>) -> Result<Format, PlanError> {
    let Some(f) = format else {
        return Ok(Format::RoundRobin);
    };
    match f.get_ref().as_str() {
        "round-robin" => Ok(Format::RoundRobin),
        "gauntlet" => Ok(Format::Gauntlet),
        other => Err(src.error_at(
            f.span(),
            format!("format: '{other}' is not a format; use \"round-robin\" or \"gauntlet\""),
        )),
    }
}

fn games_per_pairing(src: &Source<'_>, games: Option<&Spanned<u32>>) -> Result<u32, PlanError> {
    match games {
        None => Ok(2),
        Some(g) if *g.get_ref() == 0 || g.get_ref() % 2 == 1 => Err(src.error_at(
            g.span(),
            format!(
                "games_per_pairing: {} is not a positive even number; games are played in pairs with sides swapped, so each bot starts as often as the other",
                g.get_ref()
            ),
        )),
        Some(g) if u64::from(*g.get_ref()) > units::MAX_GAMES => Err(src.error_at(
            g.span(),
            format!(
                "games_per_pairing: {} is too many: at most {}",
                g.get_ref(),
                units::MAX_GAMES
            ),
        )),
        Some(g) => Ok(*g.get_ref()),
    }
}

fn bot_count(src: &Source<'_>, bots: &Spanned<Vec<RawBot>>) -> Result<(), PlanError> {
    let count = bots.get_ref().len();
    if count < 2 {
        return Err(src.error_at(
            bots.span(),
            "bots: a tournament needs at least two [[bots]] entries".to_string(),
        ));
    }
    if count > units::MAX_BOTS {
        return Err(src.error_at(
            bots.span(),
            format!(
                "bots: {count} bots are too many: at most {}",
                units::MAX_BOTS
            ),
        ));
    }
    Ok(())
}

fn scoring(src: &Source<'_>, raw: &RawScoring) -> Result<Scoring, PlanError> {
    let mut scoring = [2, 1, 0];
    for ((field, given), points) in [("win", &raw.win), ("draw", &raw.draw), ("loss", &raw.loss)]
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
    let [win, draw, loss] = scoring;
    Ok(Scoring { win, draw, loss })
}

/// The bots of a gauntlet that play all the others, as indices of `names`.
fn challengers(
    src: &Source<'_>,
    raw: &RawTournament,
    format: Format,
    names: &BTreeMap<String, usize>,
    bot_count: usize,
) -> Result<Vec<usize>, PlanError> {
    let c = match (format, &raw.challengers) {
        (Format::RoundRobin, None) => return Ok(vec![]),
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
        (Format::Gauntlet, Some(c)) => c,
    };
    let mut indices = vec![];
    for name in c.get_ref() {
        match names.get(name) {
            Some(&i) => indices.push(i),
            None => {
                return Err(src.error_at(
                    c.span(),
                    format!(
                        "challengers: no bot is named '{name}'; the bots are: {}",
                        names.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
        }
    }
    if indices.is_empty() || indices.len() == bot_count {
        return Err(src.error_at(
            c.span(),
            "challengers: name at least one bot, and not all of them".into(),
        ));
    }
    Ok(indices)
}

/// Longest folder name made from a tournament name, in bytes.
const MAX_FOLDER_NAME: usize = 100;

/// A name as a single, safe folder name: ASCII letters, digits, `-`, `_`
/// and `.` are kept, anything else (`/`, spaces, control characters, other
/// scripts) becomes `_`, as does a leading `.` (no `..`, no hidden folder);
/// cut to 100 bytes. A name with nothing usable (empty, or only `_`) is
/// refused, so a results folder is always a new folder inside
/// `tournaments/results`.
pub fn folder_name(name: &str) -> Result<String, NoFolderName> {
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
        return Err(NoFolderName {
            name: name.to_string(),
        });
    }
    Ok(safe)
}

/// A tournament name with nothing usable for a folder name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "name: '{}' gives no usable folder name; use letters, digits, '-', '_' or '.', or give --out",
    crate::text::escape(name)
)]
pub struct NoFolderName {
    pub name: String,
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
