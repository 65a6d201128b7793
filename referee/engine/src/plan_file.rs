//! The loader shared by tournament and check files: reading a file, the
//! spans of its values turned into `file:line: field: message` errors
//! (`Source`, [`PlanError`]), the game and its `[options]`, the `[limits]`
//! table and the bot tables (`[[bots]]`, `[[opponents]]`, `[bot]`) with
//! their paths relative to the file's folder. Each kind of file keeps only
//! its own fields (`tournament::plan`, `check::plan`).

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::bot::{BotCommand, BotSpecError, Languages};
use crate::games::{GameConfig, GameConfigError, GameOptions};
use crate::input_file::Links;
use crate::match_plan::MatchLimits;
use crate::units;

mod toml_message;
use toml_message::{plain_toml_message, table_for_a_list};

/// The seed of a file that gives none.
pub const DEFAULT_SEED: u64 = 1;

/// A broken tournament or check file: where, and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("cannot read the {kind} file {}: {}", why.path().display(), why.why())]
    Read {
        /// "tournament" or "check".
        kind: &'static str,
        why: crate::input_file::InputError,
    },
    /// At a line of the file: never line 0, which no editor shows.
    #[error("{}:{line}: {message}", path.display())]
    At {
        path: PathBuf,
        line: NonZeroUsize,
        message: String,
    },
    /// A command-line option that stands in for a field of the file
    /// (`--bot` for `[bot] bot`): the option is to blame, not the file.
    #[error("{option}: {message}")]
    Option {
        option: &'static str,
        message: String,
    },
}

/// A file's `[languages.NAME]` tables.
pub(crate) type LanguageTables = BTreeMap<String, Spanned<crate::bot::language::LanguageTable>>;

/// The languages of a tournament or check file (for `referee languages
/// FILE`), whatever else it holds: `base`'s, with the file's
/// `[languages.NAME]` tables added.
pub fn languages_of(path: &Path, base: &Languages) -> Result<Languages, PlanError> {
    #[derive(Deserialize)]
    struct OnlyLanguages {
        #[serde(default)]
        languages: LanguageTables,
    }
    let text = Source::read("tournament or check", path)?;
    let mut src = Source::new(path, &text);
    let raw: OnlyLanguages = src.raw()?;
    src.add_languages(base, &raw.languages)?;
    Ok(src.languages)
}

/// A file being validated: its path and text, to turn spans into lines,
/// and the languages its bots are looked up in.
pub(crate) struct Source<'a> {
    pub(crate) path: &'a Path,
    pub(crate) text: &'a str,
    /// The built-in languages until [`Source::add_languages`] adds the
    /// file's own: a file's tables are its own, no other file sees them.
    pub(crate) languages: Languages,
}

impl<'a> Source<'a> {
    pub(crate) fn new(path: &'a Path, text: &'a str) -> Source<'a> {
        Source {
            path,
            text,
            languages: Languages::built_in(),
        }
    }

    /// Reads a `kind` file ("tournament" or "check") the person named.
    pub(crate) fn read(kind: &'static str, path: &Path) -> Result<String, PlanError> {
        Source::read_with(kind, path, Links::Followed)
    }

    /// Reads a `kind` file, a link at `path` followed or refused (the copy
    /// a results folder keeps: [`crate::input_file`]).
    pub(crate) fn read_with(
        kind: &'static str,
        path: &Path,
        links: Links,
    ) -> Result<String, PlanError> {
        crate::input_file::read_to_string(path, links, crate::input_file::TEXT_CAP)
            .map_err(|why| PlanError::Read { kind, why })
    }

    /// Parses the file's TOML into its raw shape.
    pub(crate) fn raw<T: serde::de::DeserializeOwned>(&self) -> Result<T, PlanError> {
        toml::from_str(self.text).map_err(|e| self.toml_error(&e))
    }

    /// Parses a `kind` file ("tournament" or "check") into its raw shape;
    /// when it fails on a file of the other kind (a check file given to
    /// `referee tournament`, or a tournament file to `referee check`), the
    /// message says so and which command to run.
    pub(crate) fn raw_of<T: serde::de::DeserializeOwned>(
        &self,
        kind: &'static str,
    ) -> Result<T, PlanError> {
        self.raw().map_err(|e| match (e, self.other_kind(kind)) {
            (
                PlanError::At {
                    path,
                    line,
                    message,
                },
                Some(hint),
            ) => PlanError::At {
                path,
                line,
                message: format!("{message}; {hint}"),
            },
            (e, _) => e,
        })
    }

    /// What to say when this `kind` file reads as a file of the other kind.
    fn other_kind(&self, kind: &str) -> Option<String> {
        let table: toml::Table = toml::from_str(self.text).ok()?;
        let has = |key: &str| table.contains_key(key);
        let file = self.path.display();
        match kind {
            "tournament" if (has("require") || has("bot")) && !has("bots") => Some(format!(
                "this is a check file (a [bot] table and [[require]] tables), not a tournament \
                 file: run it with `referee check {file}`"
            )),
            "check" if has("bots") && !has("bot") && !has("require") => Some(format!(
                "this is a tournament file ([[bots]] tables), not a check file: run it \
                 with `referee tournament {file}`"
            )),
            _ => None,
        }
    }

    /// Makes the file's languages `base`'s with its `[languages.NAME]`
    /// tables added (before its bots are read): each adds a language or
    /// overrides one of `base`.
    pub(crate) fn add_languages(
        &mut self,
        base: &Languages,
        tables: &LanguageTables,
    ) -> Result<(), PlanError> {
        let mut languages = base.clone();
        for (name, table) in tables {
            let def = table
                .get_ref()
                .define(name, &languages)
                .map_err(|e| self.error_at(table.span(), format!("languages.{name}: {e}")))?;
            languages.add(def);
        }
        self.languages = languages;
        Ok(())
    }

    /// The file's folder, which bot paths are relative to.
    pub(crate) fn base(&self) -> PathBuf {
        self.path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."))
    }

    /// The plan's name: the file's `name`, else the file's stem, else `fallback`.
    pub(crate) fn plan_name(&self, name: Option<&str>, fallback: &str) -> String {
        name.map(str::to_string).unwrap_or_else(|| {
            self.path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| fallback.into())
        })
    }

    /// The game and its `[options]`, after `defaults` filled in what the kind
    /// of file decides when the options leave it out.
    pub(crate) fn game_config(
        &self,
        game: &Spanned<String>,
        options: Option<&Spanned<toml::Table>>,
        judge: &JudgeLimits,
        defaults: impl FnOnce(&mut GameOptions),
    ) -> Result<GameConfig, PlanError> {
        let judge_time = match judge.judge_time {
            Some(text) => Some(
                units::parse_move_time(text.get_ref())
                    .map_err(|e| self.error_at(text.span(), format!("judge_time: {e}")))?,
            ),
            None => None,
        };
        let judge_memory = match judge.judge_memory {
            Some(text) => Some(
                units::parse_size_kb(text.get_ref())
                    .map_err(|e| self.error_at(text.span(), format!("judge_memory: {e}")))?,
            ),
            None => None,
        };
        if !crate::judge::names_a_judge(game.get_ref()) {
            let given = [
                ("judge_time", judge.judge_time),
                ("judge_memory", judge.judge_memory),
            ];
            if let Some((key, Some(text))) = given.into_iter().find(|(_, v)| v.is_some()) {
                return Err(self.error_at(
                    text.span(),
                    format!("{key} is for a judge game (a game that is a path to a judge program)"),
                ));
            }
        }
        if crate::judge::names_a_judge(game.get_ref()) {
            // A judge's options are its own: passed on as they are, as
            // JSON (what TOML has beyond JSON is refused, not mangled).
            let table = options.map(|o| o.get_ref().clone()).unwrap_or_default();
            let options_span = options.map_or(game.span(), |o| o.span());
            if let Some(why) = not_json(&table) {
                return Err(self.error_at(options_span, format!("options.{why}")));
            }
            let json = serde_json::to_value(&table).unwrap_or_default();
            let options = match json {
                serde_json::Value::Object(map) => map.into_iter().collect(),
                _ => Default::default(),
            };
            return crate::judge::judge_config(
                game.get_ref(),
                &self.base(),
                options,
                judge_time.map_or(crate::games::judge::DEFAULT_TIME_MS, |t| {
                    t.as_millis().max(1) as u64
                }),
                judge_memory.unwrap_or(crate::games::judge::DEFAULT_MEMORY_KB),
                &self.languages,
            )
            .map(GameConfig::Judge)
            .map_err(|e| {
                // An option's fault is said at the options.
                let span = match e {
                    crate::judge::JudgeSetupError::BadOptionKey { .. }
                    | crate::judge::JudgeSetupError::OptionsTooLarge { .. } => options_span,
                    _ => game.span(),
                };
                self.error_at(span, format!("game: {e}"))
            });
        }
        // An unknown game first: its options would be refused as a
        // built-in game's, which would not say what is wrong.
        if let Err(e @ GameConfigError::UnknownGame { .. }) =
            GameConfig::from_options(game.get_ref(), &GameOptions::default())
        {
            let hint = crate::judge::judge_hint(game.get_ref(), &self.base());
            return Err(self.error_at(game.span(), format!("game: {e}{hint}")));
        }
        /// The file's `[options]` as a built-in game's, read with their
        /// places in the file for the errors.
        #[derive(serde::Deserialize)]
        struct BuiltInOptions {
            #[serde(default)]
            options: Option<Spanned<GameOptions>>,
        }
        let built_in: BuiltInOptions = self.raw()?;
        let options = built_in.options.as_ref();
        let mut given = options.map(|o| o.get_ref().clone()).unwrap_or_default();
        defaults(&mut given);
        if let Err(e) = units::check_game_options(&given) {
            let span = options.map_or(game.span(), |o| o.span());
            return Err(self.error_at(span, format!("options.{e}")));
        }
        GameConfig::from_options(game.get_ref(), &given)
            .map_err(|e| self.game_error(game.span(), options.map(|o| o.span()), &e))
    }

    /// The bots of a `table` of entries (`bots`, `opponents`), validated,
    /// with the index of each name.
    pub(crate) fn bot_entries(
        &self,
        config: &GameConfig,
        file_limits: &RawLimits,
        entries: &[RawBot],
        table: &str,
    ) -> Result<(Vec<TournamentBot>, BTreeMap<String, usize>), PlanError> {
        let base = self.base();
        let mut bots = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for raw_bot in entries {
            let name = raw_bot.name.get_ref().trim().to_string();
            if let Err(problem) = usable_bot_name(&name) {
                return Err(self.error_at(raw_bot.name.span(), format!("{table}.name: {problem}")));
            }
            if let Some(first) = seen.insert(name.clone(), bots.len()) {
                return Err(self.error_at(
                    raw_bot.name.span(),
                    format!(
                        "{table}.name: '{name}' is used twice (also by bot {}); names must be unique",
                        first + 1
                    ),
                ));
            }
            bots.push(build_bot(
                self,
                &base,
                config,
                file_limits,
                raw_bot,
                name,
                table,
            )?);
        }
        Ok((bots, seen))
    }

    /// The bots of a `table` of entries, then those of a folder
    /// (`bots_dir`, `opponents_dir`): each entry of it that a language
    /// recognises (a source file, or a folder holding its marker) is a bot
    /// named by its entry name (a file's without its extension). Hidden
    /// entries and others are left out. The folder is relative to the
    /// file's; its bots get the file's `[limits]`.
    pub(crate) fn bot_entries_and_folder(
        &self,
        config: &GameConfig,
        file_limits: &RawLimits,
        entries: &[RawBot],
        folder: Option<&Spanned<String>>,
        table: &str,
    ) -> Result<(Vec<TournamentBot>, BTreeMap<String, usize>), PlanError> {
        let (mut bots, mut seen) = self.bot_entries(config, file_limits, entries, table)?;
        let Some(folder) = folder else {
            return Ok((bots, seen));
        };
        let field = format!("{table}_dir");
        let base = self.base();
        let dir = base.join(folder.get_ref());
        let listing = std::fs::read_dir(&dir).map_err(|e| {
            self.error_at(
                folder.span(),
                format!(
                    "{field}: cannot read the folder {} ({e}); it is relative to the file's folder",
                    dir.display()
                ),
            )
        })?;
        let mut names: Vec<String> = listing
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        for entry in names {
            let path = dir.join(&entry);
            // A folder that no language recognises but holds one source
            // file (a one-file bot in a folder of its own, as `collect`
            // writes it) is the bot of that file.
            let mut entry_spec = PathBuf::from(&entry);
            let name = if path.is_dir() {
                if self.languages.of_folder(&path, None).is_none() {
                    let lone = bot_path(&path, &self.languages);
                    match lone.file_name() {
                        Some(file) if lone != path => entry_spec.push(file),
                        _ => continue,
                    }
                }
                entry.clone()
            } else {
                if self.languages.of_source(&path).is_none() {
                    continue;
                }
                match Path::new(&entry).file_stem() {
                    Some(stem) => stem.to_string_lossy().into_owned(),
                    None => continue,
                }
            };
            if let Err(problem) = usable_bot_name(&name) {
                return Err(self.error_at(
                    folder.span(),
                    format!("{field}: entry '{entry}': {problem}"),
                ));
            }
            if let Some(first) = seen.insert(name.clone(), bots.len()) {
                return Err(self.error_at(
                    folder.span(),
                    format!(
                        "{field}: {} makes the bot name '{name}', also used by bot {}; names must be unique",
                        path.display(),
                        first + 1
                    ),
                ));
            }
            let spec = Path::new(folder.get_ref())
                .join(&entry_spec)
                .display()
                .to_string();
            let mut command = BotCommand::parse_relative_to(&spec, &base, &self.languages)
                .map_err(|e| self.error_at(folder.span(), format!("{field}: bot '{name}': {e}")))?;
            command.spec = spec_from_here(&spec, &base, &self.languages);
            command.name = name.clone();
            let limits = RawBot::settle(
                None,
                self,
                config,
                file_limits,
                &mut command,
                (&field, &field),
            )?;
            bots.push(TournamentBot {
                name,
                command,
                limits,
            });
        }
        Ok((bots, seen))
    }

    /// The line (from 1) of a byte offset into the file.
    pub(crate) fn line_of(&self, offset: usize) -> NonZeroUsize {
        let breaks = self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count();
        NonZeroUsize::MIN.saturating_add(breaks)
    }

    /// A TOML error (syntax, or a value of the wrong type) in the file's
    /// terms: its line, the field (`options.pegs`) and what the field must
    /// be, rather than serde's `expected u32`.
    pub(crate) fn toml_error(&self, e: &toml::de::Error) -> PlanError {
        let start = e.span().map_or(0, |s| s.start);
        if let Some(message) = table_for_a_list(self.text, start, e.message()) {
            return PlanError::At {
                path: self.path.to_path_buf(),
                line: self.line_of(start),
                message,
            };
        }
        let field = self.field_at(start);
        let message = plain_toml_message(e.message(), field.as_deref());
        // "missing field" has no line of its own; "unknown field" names it.
        let names_itself =
            message.starts_with("missing field") || message.starts_with("unknown field");
        let message = match field {
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
        e: &GameConfigError,
    ) -> PlanError {
        let message = e.to_string();
        if matches!(e, GameConfigError::UnknownGame { .. }) || options.is_none() {
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

/// A judge game's limits in a tournament or check file, at its top:
/// `judge_time` (time per message) and `judge_memory`.
pub(crate) struct JudgeLimits<'a> {
    pub(crate) judge_time: Option<&'a Spanned<String>>,
    pub(crate) judge_memory: Option<&'a Spanned<String>>,
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
    /// Lateness taken as a strike, not a timeout (`[limits]` only).
    pub(crate) time_margin: Option<Spanned<String>>,
    /// The strike that loses on time (`[limits]` only; needs a margin).
    pub(crate) strikes: Option<Spanned<u32>>,
}

/// A bot's table. `N` and `B` are its `name` and `bot` fields: required
/// in `[[bots]]` and `[[opponents]]` ([`RawBot`]), optional in a check's
/// `[bot]`, whose path may come from the command line instead.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBotTable<N, B> {
    pub(crate) name: N,
    pub(crate) bot: B,
    pub(crate) language: Option<Spanned<String>>,
    pub(crate) time_limit: Option<Spanned<String>>,
    pub(crate) startup_limit: Option<Spanned<String>>,
    pub(crate) time_bank: Option<Spanned<String>>,
    pub(crate) memory_limit: Option<Spanned<String>>,
    pub(crate) disk_limit: Option<Spanned<String>>,
    pub(crate) allow_fork: Option<bool>,
}

/// A `[[bots]]` or `[[opponents]]` entry.
pub(crate) type RawBot = RawBotTable<Spanned<String>, Spanned<String>>;

impl<N, B> RawBotTable<N, B> {
    /// The limits a bot's own table sets.
    pub(crate) fn limits(&self) -> RawLimits {
        RawLimits {
            time_limit: self.time_limit.clone(),
            startup_limit: self.startup_limit.clone(),
            time_bank: self.time_bank.clone(),
            memory_limit: self.memory_limit.clone(),
            disk_limit: self.disk_limit.clone(),
            allow_fork: self.allow_fork,
            ..RawLimits::default()
        }
    }

    /// Sets `command`'s language from the table (`field` names it in
    /// errors) and returns the bot's limits: the language's defaults for the
    /// game (Cryptron's contest limits), then the file's `[limits]`, then
    /// the table's own (`prefix` names the table).
    pub(crate) fn settle(
        table: Option<&Self>,
        src: &Source<'_>,
        config: &GameConfig,
        file_limits: &RawLimits,
        command: &mut BotCommand,
        (field, prefix): (&str, &str),
    ) -> Result<MatchLimits, PlanError> {
        if let Some(language) = table.and_then(|t| t.language.as_ref()) {
            command.language = src.languages.from_name(language.get_ref()).ok_or_else(|| {
                src.error_at(
                    language.span(),
                    format!(
                        "{field}: '{}' is not a language; use one of: {}",
                        language.get_ref(),
                        src.languages
                            .all()
                            .iter()
                            .map(|l| l.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?;
            // A source is built and run by its language: one that has no
            // run command (native) cannot run it.
            if command.source.is_some() && command.language.def().run.is_empty() {
                return Err(src.error_at(
                    language.span(),
                    format!(
                        "{field}: '{}' runs ready-made executables, not a source file; name the source's language, or give the executable",
                        language.get_ref()
                    ),
                ));
            }
        }
        let mut limits = MatchLimits::defaults_for(config, command.language);
        apply_limits(src, &mut limits, file_limits, "limits.")?;
        if let Some(t) = table {
            apply_limits(src, &mut limits, &t.limits(), prefix)?;
        }
        // A time per move set without a start-up: the start-up is no
        // longer than the default one or that time (as `--time-limit`'s),
        // not the one a language's own time per move (Cryptron's) raised,
        // so that one time for bots of two languages is one set of limits
        // a game's replay command can say. (Only such bots' start-ups, and
        // so identities, change: a longer time keeps the default start-up.)
        let set = |pick: fn(&RawLimits) -> bool| {
            pick(file_limits) || table.is_some_and(|t| pick(&t.limits()))
        };
        if set(|l| l.time_limit.is_some()) && !set(|l| l.startup_limit.is_some()) {
            let most = MatchLimits::default().startup_limit.max(limits.time_limit);
            limits.startup_limit = limits.startup_limit.min(most);
        }
        if let Some(allow) = table.and_then(|t| t.allow_fork).or(file_limits.allow_fork) {
            limits.process.allow_fork = allow;
        }
        Ok(limits)
    }
}

/// A bot of a file, validated: its name, command and limits.
#[derive(Clone, Debug)]
pub struct TournamentBot {
    pub name: String,
    pub command: BotCommand,
    pub limits: MatchLimits,
}

impl TournamentBot {
    /// The bot as the outputs name it.
    pub fn contender(&self) -> crate::reporter::Contender<'_> {
        crate::reporter::Contender {
            name: &self.name,
            command: &self.command.spec,
        }
    }
}

/// A bot spec of a file, rewritten to run from the current directory, as
/// the replay commands print it: each word that is a path relative to the
/// file's folder `base` (as the user named it) gets that folder in front
/// (`../target/release/x` in `tournaments/t.toml` becomes
/// `tournaments/../target/release/x`). Other words are kept.
pub(crate) fn spec_from_here(spec: &str, base: &Path, languages: &Languages) -> String {
    if base.as_os_str().is_empty() || base == Path::new(".") {
        return spec.to_string();
    }
    let trimmed = spec.trim();
    let (prefix, rest) = match trimmed.split_once(':') {
        Some((lang, rest)) if languages.from_name(lang).is_some() && !rest.is_empty() => {
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
/// the file's folder), its language, and its limits (see
/// [`RawBotTable::settle`]).
fn build_bot(
    src: &Source<'_>,
    base: &Path,
    config: &GameConfig,
    file_limits: &RawLimits,
    raw_bot: &RawBot,
    name: String,
    table: &str,
) -> Result<TournamentBot, PlanError> {
    let spec = raw_bot.bot.get_ref();
    let mut command = BotCommand::parse_relative_to(spec, base, &src.languages).map_err(|e| {
        let hint = match e {
            BotSpecError::NotFound { .. } => " (bot paths are relative to the file's folder; build the sample bots with `cargo build --release --workspace`)",
            _ => "",
        };
        src.error_at(raw_bot.bot.span(), format!("{table}.bot of '{name}': {e}{hint}"))
    })?;
    command.spec = spec_from_here(spec, base, &src.languages);
    // The entry's name, not the program's: a judge is told it, and the
    // transcript's set-up names the bot as the standings do.
    command.name = name.clone();
    let fields = (format!("{table}.language of '{name}'"), format!("{table}."));
    let limits = RawBot::settle(
        Some(raw_bot),
        src,
        config,
        file_limits,
        &mut command,
        (&fields.0, &fields.1),
    )?;
    Ok(TournamentBot {
        name,
        command,
        limits,
    })
}

/// Applies the limits a `[limits]` or bot table sets (`prefix` names the
/// table in messages).
fn apply_limits(
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
    if let Some(m) = &raw.time_margin {
        limits.time_margin = duration(m, "time_margin")?;
    }
    if let Some(n) = &raw.strikes {
        if *n.get_ref() == 0 {
            return Err(src.error_at(
                n.span(),
                format!("{prefix}strikes: give the strike that loses on time, at least 1 (CodinGame's rule is 3), or leave it out"),
            ));
        }
        if raw.time_margin.is_none() {
            return Err(src.error_at(
                n.span(),
                format!("{prefix}strikes: a strike is a reply late by less than the time margin: give time_margin too (e.g. \"50ms\")"),
            ));
        }
        limits.strikes = *n.get_ref();
    }
    Ok(())
}

/// Whether `name` can name a bot; if not, a message saying why. A name
/// goes into CSV files that people open in spreadsheets (where a cell
/// beginning with `=`, `+`, `-` or `@` is a formula), into the HTML report
/// and into terminal lines: it is one line of printable text, with no
/// separator of the files it goes in.
pub(crate) fn usable_bot_name(name: &str) -> Result<(), UnusableName> {
    let why = if name.is_empty() {
        "it is empty"
    } else if name.trim() != name {
        "it begins or ends with a space"
    } else if name.chars().any(char::is_control) {
        "it holds a control character"
    } else if name.chars().any(crate::text::is_hidden_or_reordering) {
        "it holds a character that shows as nothing or reorders the text around it"
    } else if name.contains([',', '"']) {
        "it holds ',' or '\"'"
    } else if name.starts_with(['=', '+', '-', '@']) {
        "a spreadsheet would take it for a formula"
    } else {
        return Ok(());
    };
    Err(UnusableName {
        name: name.to_string(),
        why,
    })
}

/// A bot's name that `usable_bot_name` refuses, and why.
#[derive(Debug, thiserror::Error)]
#[error("'{name}' is not a usable name ({why}); use letters, digits, '-' or '_'")]
pub struct UnusableName {
    name: String,
    why: &'static str,
}

/// The bot of an unpacked submission: the folder, if a language
/// recognises it (its marker file: `main.py`, `main.c`, ...); else its one
/// top-level source file (`bot.py` alone, beside a README); else the
/// folder, for the message of the language recognition.
pub fn bot_path(root: &Path, languages: &crate::bot::Languages) -> PathBuf {
    if languages.of_folder(root, None).is_some() {
        return root.to_path_buf();
    }
    let sources: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
        .map(|e| e.path())
        .filter(|p| languages.of_source(p).is_some())
        .collect();
    match sources.as_slice() {
        [only] => only.clone(),
        _ => root.to_path_buf(),
    }
}

/// Why a judge's `[options]` have no JSON form, if they have none: a
/// float that is not finite (JSON has no `inf` or `nan`: it became
/// `null`), a date or time (it became the TOML reader's own table).
fn not_json(table: &toml::Table) -> Option<String> {
    fn walk(key: &str, value: &toml::Value) -> Option<String> {
        match value {
            toml::Value::Float(x) if !x.is_finite() => Some(format!(
                "{key}: {x} has no JSON form (a judge's options go to it as JSON): write it as a string"
            )),
            toml::Value::Datetime(d) => Some(format!(
                "{key}: a date or time ({d}) has no JSON form (a judge's options go to it as JSON): write it as a string, \"{d}\""
            )),
            toml::Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| walk(&format!("{key}[{i}]"), item)),
            toml::Value::Table(table) => table
                .iter()
                .find_map(|(k, v)| walk(&format!("{key}.{k}"), v)),
            _ => None,
        }
    }
    table.iter().find_map(|(k, v)| walk(k, v))
}
