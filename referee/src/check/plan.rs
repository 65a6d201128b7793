//! Check files: the raw TOML shape and its validation into a [`CheckPlan`]
//! before any bot starts. Same conventions as tournament files (game,
//! `[options]`, `[limits]`, bot entries with paths relative to the file);
//! every error names the file, the line and the field.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::bench::{self, Selection};
use crate::bot::{BotCommand, Language};
use crate::games::{GameConfig, GameOptions};
use crate::runner::MatchLimits;
use crate::tournament::plan::{apply_limits, build_bot, spec_from_here, RawBot, RawLimits};
use crate::tournament::plan::{PlanError, Source, TournamentBot};
use crate::units;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    name: Option<String>,
    game: Spanned<String>,
    seed: Option<u64>,
    #[serde(default)]
    options: Option<Spanned<GameOptions>>,
    #[serde(default)]
    limits: RawLimits,
    bot: Option<Spanned<RawTested>>,
    #[serde(default)]
    opponents: Vec<RawBot>,
    require: Spanned<Vec<RawRequirement>>,
}

/// The bot under test: its path may come from the command line instead.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTested {
    name: Option<String>,
    bot: Option<Spanned<String>>,
    language: Option<Spanned<String>>,
    time_limit: Option<Spanned<String>>,
    startup_limit: Option<Spanned<String>>,
    time_bank: Option<Spanned<String>>,
    memory_limit: Option<Spanned<String>>,
    disk_limit: Option<Spanned<String>>,
    allow_fork: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequirement {
    kind: Spanned<String>,
    name: Option<String>,
    against: Option<Spanned<String>>,
    games: Option<Spanned<u32>>,
    at_least: Option<Spanned<f64>>,
    at_most: Option<Spanned<f64>>,
    samples: Option<Spanned<u64>>,
    all: Option<bool>,
    seed: Option<u64>,
    below: Option<Spanned<String>>,
}

/// The kinds of requirement, as written in `kind = "..."`.
pub const KINDS: [&str; 4] = ["no-verdicts", "win-rate", "bench-average", "max-move-time"];

/// One requirement, validated. Opponents are indices into [`CheckPlan::opponents`].
#[derive(Clone, Debug, PartialEq)]
pub enum Requirement {
    /// `games` games against `against` (sides swapped in pairs), and every
    /// verdict of the bot under test is `ok`.
    NoVerdicts { against: usize, games: u32 },
    /// The bot under test wins at least `at_least` percent of `games` games
    /// against `against`.
    WinRate {
        against: usize,
        games: u32,
        at_least: f64,
    },
    /// The solver bench: every secret cracked, and the average number of
    /// attacks at most `at_most`.
    BenchAverage {
        selection: Selection,
        seed: u64,
        at_most: f64,
    },
    /// The slowest reply of the bot under test, over every game this check
    /// plays, is under `below`.
    MaxMoveTime { below: Duration },
}

impl Requirement {
    pub fn kind(&self) -> &'static str {
        match self {
            Requirement::NoVerdicts { .. } => KINDS[0],
            Requirement::WinRate { .. } => KINDS[1],
            Requirement::BenchAverage { .. } => KINDS[2],
            Requirement::MaxMoveTime { .. } => KINDS[3],
        }
    }
}

/// A requirement with the name it is reported under.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedRequirement {
    pub name: String,
    pub requirement: Requirement,
}

/// A validated check file: everything needed to run it.
#[derive(Clone, Debug)]
pub struct CheckPlan {
    pub name: String,
    pub config: GameConfig,
    /// Game seeds derive from this as in tournaments.
    pub seed: u64,
    pub bot: TournamentBot,
    pub opponents: Vec<TournamentBot>,
    pub requirements: Vec<NamedRequirement>,
}

impl CheckPlan {
    /// Reads and validates a check file. `bot`, when given, replaces the
    /// file's bot under test (a path relative to the current directory).
    pub fn load(path: &Path, bot: Option<&str>) -> Result<CheckPlan, PlanError> {
        let text = std::fs::read_to_string(path).map_err(|source| PlanError::Read {
            kind: "check",
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(path, &text, bot)
    }

    pub fn parse(path: &Path, text: &str, bot: Option<&str>) -> Result<CheckPlan, PlanError> {
        let src = Source { path, text };
        let raw: RawCheck = toml::from_str(text).map_err(|e| src.toml_error(&e))?;
        let base = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let options = raw
            .options
            .as_ref()
            .map(|o| o.get_ref().clone())
            .unwrap_or_default();
        if let Err(e) = units::check_game_options(&options) {
            let span = raw.options.as_ref().map_or(raw.game.span(), |o| o.span());
            return Err(src.error_at(span, format!("options.{e}")));
        }
        let options_span = raw.options.as_ref().map(|o| o.span());
        let config = GameConfig::from_options(raw.game.get_ref(), &options)
            .map_err(|e| src.game_error(raw.game.span(), options_span, &e))?;

        let tested = tested_bot(&src, &base, &config, &raw, bot)?;

        let mut opponents = Vec::new();
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for raw_bot in &raw.opponents {
            let name = raw_bot.name.get_ref().trim().to_string();
            if name.is_empty() || name.contains(',') || name.contains('"') {
                return Err(src.error_at(
                    raw_bot.name.span(),
                    format!("opponents.name: '{name}' is not a usable name; use letters, digits, '-' or '_'"),
                ));
            }
            if names.insert(name.clone(), opponents.len()).is_some() {
                return Err(src.error_at(
                    raw_bot.name.span(),
                    format!("opponents.name: '{name}' is used twice; names must be unique"),
                ));
            }
            opponents.push(build_bot(
                &src,
                &base,
                &config,
                &raw.limits,
                raw_bot,
                name,
                "opponents",
            )?);
        }

        if raw.require.get_ref().is_empty() {
            return Err(src.error_at(
                raw.require.span(),
                "require: a check needs at least one [[require]] entry".into(),
            ));
        }
        let seed = raw.seed.unwrap_or(1);
        let mut requirements = Vec::new();
        for r in raw.require.get_ref() {
            requirements.push(requirement(&src, &config, &names, seed, r)?);
        }
        let plays_games = requirements
            .iter()
            .any(|r| !matches!(r.requirement, Requirement::MaxMoveTime { .. }));
        if !plays_games {
            return Err(src.error_at(
                raw.require.span(),
                "require: max-move-time measures the games of the other requirements; add a no-verdicts, win-rate or bench-average requirement".into(),
            ));
        }

        Ok(CheckPlan {
            name: raw.name.clone().unwrap_or_else(|| {
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "check".into())
            }),
            config,
            seed,
            bot: tested,
            opponents,
            requirements,
        })
    }

    /// The games to play against each opponent: the most any requirement
    /// against it asks for (requirements share the first games).
    pub fn games_against(&self, opponent: usize) -> u32 {
        self.requirements
            .iter()
            .filter_map(|r| match r.requirement {
                Requirement::NoVerdicts { against, games }
                | Requirement::WinRate { against, games, .. }
                    if against == opponent =>
                {
                    Some(games)
                }
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }
}

fn tested_bot(
    src: &Source<'_>,
    base: &Path,
    config: &GameConfig,
    raw: &RawCheck,
    bot: Option<&str>,
) -> Result<TournamentBot, PlanError> {
    let table = raw.bot.as_ref().map(|b| b.get_ref());
    let mut command = match (bot, table.and_then(|t| t.bot.as_ref())) {
        (Some(spec), _) => BotCommand::parse(spec).map_err(|e| PlanError::At {
            path: src.path.to_path_buf(),
            line: 0,
            message: format!("--bot: {e}"),
        })?,
        (None, Some(spec)) => BotCommand {
            spec: spec_from_here(spec.get_ref(), base),
            ..BotCommand::parse_relative_to(spec.get_ref(), base).map_err(|e| {
                src.error_at(
                    spec.span(),
                    format!("bot.bot: {e} (paths are relative to the check file's folder)"),
                )
            })?
        },
        (None, None) => {
            return Err(src.error_at(
                raw.bot.as_ref().map_or(0..0, |b| b.span()),
                "bot: no bot under test; set bot = \"PATH\" under [bot], or pass --bot PATH".into(),
            ))
        }
    };
    // The file's name describes the file's bot, not one given with --bot.
    let name = match bot {
        Some(_) => command.name.clone(),
        None => table
            .and_then(|t| t.name.clone())
            .unwrap_or_else(|| command.name.clone()),
    };
    if let Some(language) = table.and_then(|t| t.language.as_ref()) {
        command.language = Language::from_name(language.get_ref()).ok_or_else(|| {
            src.error_at(
                language.span(),
                format!(
                    "bot.language: '{}' is not a language; use one of: {}",
                    language.get_ref(),
                    Language::ALL.map(|l| l.name()).join(", ")
                ),
            )
        })?;
    }
    let mut limits = MatchLimits::defaults_for(config, command.language);
    apply_limits(src, &mut limits, &raw.limits, "limits.")?;
    if let Some(t) = table {
        let own = RawLimits {
            time_limit: t.time_limit.clone(),
            startup_limit: t.startup_limit.clone(),
            time_bank: t.time_bank.clone(),
            memory_limit: t.memory_limit.clone(),
            disk_limit: t.disk_limit.clone(),
            allow_fork: t.allow_fork,
        };
        apply_limits(src, &mut limits, &own, "bot.")?;
    }
    if let Some(allow) = table.and_then(|t| t.allow_fork).or(raw.limits.allow_fork) {
        limits.process.allow_fork = allow;
    }
    Ok(TournamentBot {
        name,
        command,
        limits,
    })
}

fn requirement(
    src: &Source<'_>,
    config: &GameConfig,
    opponents: &BTreeMap<String, usize>,
    file_seed: u64,
    r: &RawRequirement,
) -> Result<NamedRequirement, PlanError> {
    let kind = r.kind.get_ref().as_str();
    let at = |span: std::ops::Range<usize>, field: &str, message: String| {
        src.error_at(span, format!("require.{field} ({kind}): {message}"))
    };
    // Fields that do not belong to the kind are refused, not ignored.
    let allowed: &[&str] = match kind {
        "no-verdicts" => &["against", "games"],
        "win-rate" => &["against", "games", "at_least"],
        "bench-average" => &["samples", "all", "seed", "at_most"],
        "max-move-time" => &["below"],
        other => {
            return Err(src.error_at(
                r.kind.span(),
                format!(
                    "require.kind: '{other}' is not a requirement; use one of: {}",
                    KINDS.join(", ")
                ),
            ))
        }
    };
    let present = [
        ("against", r.against.as_ref().map(|v| v.span())),
        ("games", r.games.as_ref().map(|v| v.span())),
        ("at_least", r.at_least.as_ref().map(|v| v.span())),
        ("at_most", r.at_most.as_ref().map(|v| v.span())),
        ("samples", r.samples.as_ref().map(|v| v.span())),
        ("all", r.all.map(|_| r.kind.span())),
        ("seed", r.seed.map(|_| r.kind.span())),
        ("below", r.below.as_ref().map(|v| v.span())),
    ];
    for (field, span) in present {
        if let Some(span) = span {
            if !allowed.contains(&field) {
                return Err(at(
                    span,
                    field,
                    format!(
                        "does not apply to {kind}; its fields are: {}",
                        allowed.join(", ")
                    ),
                ));
            }
        }
    }
    let against = || -> Result<usize, PlanError> {
        let a = r.against.as_ref().ok_or_else(|| {
            at(
                r.kind.span(),
                "against",
                "name the opponent: against = \"NAME\" of an [[opponents]] entry".into(),
            )
        })?;
        opponents.get(a.get_ref().trim()).copied().ok_or_else(|| {
            at(
                a.span(),
                "against",
                format!(
                    "no opponent is named '{}'; the opponents are: {}",
                    a.get_ref(),
                    if opponents.is_empty() {
                        "none (add [[opponents]] entries)".to_string()
                    } else {
                        opponents.keys().cloned().collect::<Vec<_>>().join(", ")
                    }
                ),
            )
        })
    };
    let games = || -> Result<u32, PlanError> {
        match &r.games {
            None => Ok(10),
            Some(g) if *g.get_ref() == 0 || g.get_ref() % 2 == 1 => Err(at(
                g.span(),
                "games",
                format!(
                    "{} is not a positive even number; games are played in pairs with sides swapped",
                    g.get_ref()
                ),
            )),
            Some(g) if u64::from(*g.get_ref()) > units::MAX_GAMES => Err(at(
                g.span(),
                "games",
                format!("{} is too many: at most {}", g.get_ref(), units::MAX_GAMES),
            )),
            Some(g) => Ok(*g.get_ref()),
        }
    };
    let requirement = match kind {
        "no-verdicts" => Requirement::NoVerdicts {
            against: against()?,
            games: games()?,
        },
        "win-rate" => {
            let p = r.at_least.as_ref().ok_or_else(|| {
                at(
                    r.kind.span(),
                    "at_least",
                    "give the percentage of games to win, e.g. at_least = 40".into(),
                )
            })?;
            if !(0.0..=100.0).contains(p.get_ref()) {
                return Err(at(
                    p.span(),
                    "at_least",
                    format!("{} is not a percentage between 0 and 100", p.get_ref()),
                ));
            }
            Requirement::WinRate {
                against: against()?,
                games: games()?,
                at_least: *p.get_ref(),
            }
        }
        "bench-average" => {
            let m = r.at_most.as_ref().ok_or_else(|| {
                at(
                    r.kind.span(),
                    "at_most",
                    "give the largest average number of attacks, e.g. at_most = 5.0".into(),
                )
            })?;
            if !(m.get_ref().is_finite() && *m.get_ref() > 0.0) {
                return Err(at(
                    m.span(),
                    "at_most",
                    format!("{} is not a positive number of attacks", m.get_ref()),
                ));
            }
            let selection = match (r.all.unwrap_or(false), &r.samples) {
                (true, None) => Selection::All,
                (false, Some(k)) if *k.get_ref() > units::MAX_SAMPLES => {
                    return Err(at(
                        k.span(),
                        "samples",
                        format!(
                            "{} is too many: at most {}",
                            k.get_ref(),
                            units::MAX_SAMPLES
                        ),
                    ))
                }
                (false, Some(k)) => Selection::Sample(*k.get_ref()),
                (false, None) => {
                    return Err(at(
                        r.kind.span(),
                        "samples",
                        "choose the secrets: samples = K (a seeded sample) or all = true".into(),
                    ))
                }
                (true, Some(k)) => {
                    return Err(at(
                        k.span(),
                        "samples",
                        "give samples = K or all = true, not both".into(),
                    ))
                }
            };
            let seed = r.seed.unwrap_or(file_seed);
            let solo =
                bench::solo_game(config).map_err(|e| at(r.kind.span(), "kind", e.to_string()))?;
            bench::plan_secrets(
                selection,
                solo.count,
                seed,
                // Only the selection is checked here: any key will do.
                &crate::key::RefereeKey::from_hex(&"0".repeat(64)).expect("64 hex digits"),
                config.game_name(),
            )
            .map_err(|e| {
                at(
                    r.samples.as_ref().map_or(r.kind.span(), |s| s.span()),
                    "samples",
                    e.to_string(),
                )
            })?;
            Requirement::BenchAverage {
                selection,
                seed,
                at_most: *m.get_ref(),
            }
        }
        "max-move-time" => {
            let b = r.below.as_ref().ok_or_else(|| {
                at(
                    r.kind.span(),
                    "below",
                    "give the bound, e.g. below = \"1s\"".into(),
                )
            })?;
            let below = units::parse_move_time(b.get_ref())
                .map_err(|e| at(b.span(), "below", e.to_string()))?;
            Requirement::MaxMoveTime { below }
        }
        _ => unreachable!("kinds were checked above"),
    };
    let opponent_name = |i: usize| {
        opponents
            .iter()
            .find(|(_, &j)| j == i)
            .map(|(n, _)| n.clone())
            .unwrap_or_default()
    };
    let name = r.name.clone().unwrap_or_else(|| match &requirement {
        Requirement::NoVerdicts { against, games } => {
            format!(
                "no verdicts in {games} games vs {}",
                opponent_name(*against)
            )
        }
        Requirement::WinRate {
            against,
            games,
            at_least,
        } => format!(
            "wins >= {at_least}% of {games} games vs {}",
            opponent_name(*against)
        ),
        Requirement::BenchAverage {
            selection, at_most, ..
        } => match selection {
            Selection::All => format!("bench average <= {at_most} over all secrets"),
            Selection::Sample(k) => format!("bench average <= {at_most} over {k} samples"),
            Selection::One(i) => format!("bench average <= {at_most} on secret {i}"),
        },
        Requirement::MaxMoveTime { below } => {
            format!("largest move time < {below:?}")
        }
    });
    Ok(NamedRequirement { name, requirement })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<CheckPlan, PlanError> {
        CheckPlan::parse(Path::new("/tmp/c.toml"), text, None)
    }

    const HEAD: &str =
        "game = \"arrow5\"\n[bot]\nbot = \"true\"\n[[opponents]]\nname = \"ref\"\nbot = \"true\"\n";

    #[test]
    fn a_full_file_is_validated() {
        let text = format!(
            "{HEAD}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\ngames = 4\n\
             [[require]]\nkind = \"win-rate\"\nagainst = \"ref\"\ngames = 8\nat_least = 40\n\
             [[require]]\nkind = \"bench-average\"\nsamples = 20\nat_most = 5.0\n\
             [[require]]\nkind = \"max-move-time\"\nbelow = \"1s\"\n"
        );
        let plan = parse(&text).unwrap();
        assert_eq!(plan.requirements.len(), 4);
        assert_eq!(plan.games_against(0), 8);
        assert_eq!(
            plan.requirements[1].requirement,
            Requirement::WinRate {
                against: 0,
                games: 8,
                at_least: 40.0
            }
        );
        assert_eq!(plan.requirements[3].name, "largest move time < 1s");
        assert_eq!(plan.bot.name, "true");
    }

    fn error_of(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"win-rate\"\nagainst = \"nobody\"\nat_least = 40\n"
        ));
        assert!(
            e.starts_with("/tmp/c.toml:9: require.against") && e.contains("ref"),
            "{e}"
        );
        let e = error_of(&format!("{HEAD}[[require]]\nkind = \"speed\"\n"));
        assert!(
            e.starts_with("/tmp/c.toml:8: require.kind") && e.contains("no-verdicts"),
            "{e}"
        );
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\ngames = 3\n"
        ));
        assert!(e.starts_with("/tmp/c.toml:10: require.games"), "{e}");
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"no-verdicts\"\nagainst = \"ref\"\nat_most = 3.0\n"
        ));
        assert!(
            e.starts_with("/tmp/c.toml:10: require.at_most") && e.contains("does not apply"),
            "{e}"
        );
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"max-move-time\"\nbelow = \"1s\"\n"
        ));
        assert!(e.contains("max-move-time measures"), "{e}");
        let e = error_of(&format!(
            "{HEAD}[[require]]\nkind = \"bench-average\"\nsamples = 100000\nat_most = 5\n"
        ));
        assert!(e.starts_with("/tmp/c.toml:9: require.samples"), "{e}");
        let e = error_of(
            "game = \"arrow5\"\n[bot]\nbot = \"./missing\"\n[[require]]\nkind = \"bench-average\"\nall = true\nat_most = 5\n",
        );
        assert!(
            e.starts_with("/tmp/c.toml:3: bot.bot") && e.contains("does not exist"),
            "{e}"
        );
        let e = error_of(
            "game = \"arrow5\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n",
        );
        assert!(e.contains("--bot"), "{e}");
    }

    #[test]
    fn the_command_line_bot_replaces_the_file_bot() {
        let text = "game = \"arrow5\"\n[limits]\ntime_bank = \"10s\"\n[bot]\nname = \"student\"\nbot = \"./missing\"\ntime_limit = \"3s\"\ntime_bank = \"4s\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n";
        let plan = CheckPlan::parse(Path::new("/tmp/c.toml"), text, Some("true")).unwrap();
        assert_eq!(plan.bot.name, "true");
        assert_eq!(plan.bot.limits.time_limit, Duration::from_secs(3));
        assert_eq!(plan.bot.limits.time_bank, Duration::from_secs(4));
    }

    #[test]
    fn a_bad_time_bank_names_its_line() {
        let text = "game = \"arrow5\"\n[bot]\nbot = \"true\"\ntime_bank = \"ages\"\n[[require]]\nkind = \"bench-average\"\nsamples = 5\nat_most = 5\n";
        let e = CheckPlan::parse(Path::new("/tmp/c.toml"), text, None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("/tmp/c.toml:4: bot.time_bank"), "{e}");
    }
}
