//! `referee languages`: every language the referee knows (built in, and
//! those a tournament or check file adds), whether its toolchain is on this
//! machine, its version, and its limits.

use std::path::PathBuf;

use clap::Args;

use referee_engine::bot::language::{Language, Languages, Toolchain};
use referee_engine::bot::show_duration;
use referee_engine::games::{GameConfig, GameOptions, GAME_NAMES};
use referee_engine::match_plan::MatchLimits;
use referee_engine::units::show_size_kb;

use super::Failure;

/// The listing is made whole, then written at once: a reader that stops
/// early (`| head`) ends the writing, not the referee with a panic.
macro_rules! outln {
    ($out:ident) => {
        $out.push('\n')
    };
    ($out:ident, $($arg:tt)*) => {{
        $out.push_str(&format!($($arg)*));
        $out.push('\n');
    }};
}

macro_rules! outp {
    ($out:ident, $($arg:tt)*) => {
        $out.push_str(&format!($($arg)*))
    };
}

#[derive(Args)]
pub struct LanguagesArgs {
    /// A tournament or check file whose [languages.NAME] tables are listed too
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print one JSON object per language instead of the table
    #[arg(long)]
    json: bool,
}

pub fn run_languages(args: LanguagesArgs, languages: &Languages) -> Result<(), Failure> {
    let languages = match &args.file {
        Some(file) => referee_engine::plan_file::languages_of(file, languages)
            .map_err(Failure::input)?
            .all(),
        None => languages.all(),
    };
    let mut out = String::new();
    list(&languages, args.json, &mut out);
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(())
}

fn list(languages: &[Language], json: bool, out: &mut String) {
    if json {
        for lang in languages {
            outln!(
                out,
                "{}",
                serde_json::to_string(&json_of(*lang)).expect("serializes")
            );
        }
        return;
    }
    outln!(
        out,
        "{:<11} {:<8} {:<44} {:>9} {:>13}",
        "LANGUAGE",
        "FOUND",
        "VERSION",
        "ALLOWANCE",
        "COMPILE LIMIT"
    );
    let mut missing = Vec::new();
    for lang in languages {
        let def = lang.def();
        let (found, version) = match lang.toolchain() {
            Toolchain::Found { version } => ("yes", version),
            Toolchain::Missing { program } => {
                missing.push(format!(
                    "  {}: '{program}' not found; install it: {}",
                    lang.name(),
                    def.install
                ));
                ("MISSING", format!("('{program}' not found)"))
            }
            Toolchain::NotNeeded => ("-", "(any executable)".to_string()),
        };
        let compile = if def.compile.is_some() {
            format!(
                "{}s, {}",
                def.compile_time.as_secs(),
                show_size_kb(def.compile_memory_kb)
            )
        } else {
            "-".into()
        };
        outln!(
            out,
            "{:<11} {:<8} {:<44} {:>9} {:>13}",
            lang.name(),
            found,
            shorten(&version, 44),
            show_size_kb(def.memory_allowance_kb),
            compile
        );
    }
    // A language's time multiplier is a contest rule of some games only
    // (Cryptron's): what each game gives it is shown, not the multiplier.
    outln!(
        out,
        "\nTime per move, by game (when --time-limit is not given):"
    );
    outp!(out, "{:<11}", "LANGUAGE");
    for game in GAME_NAMES {
        outp!(out, " {:>12}", game.to_ascii_uppercase());
    }
    outln!(out);
    for lang in languages {
        outp!(out, "{:<11}", lang.name());
        for (_, limit) in time_limits(*lang) {
            outp!(out, " {:>12}", show_duration(limit));
        }
        outln!(out);
    }
    outln!(out);
    for lang in languages {
        let def = lang.def();
        let mut recognised: Vec<String> = def.extensions.iter().map(|e| format!(".{e}")).collect();
        recognised.extend(def.markers.iter().map(|m| match &def.entry {
            Some(e) if e != "." => format!("a folder with {m} (entry {e})"),
            _ => format!("a folder with {m}"),
        }));
        outln!(out, "{}:", lang.name());
        if recognised.is_empty() {
            outln!(
                out,
                "  bots: an executable (a path, or a command line), named `{}:...`",
                lang.name()
            );
        } else {
            outln!(out, "  bots: {}", recognised.join(", "));
        }
        if let Some(compile) = &def.compile {
            outln!(out, "  compile: {}", join(compile));
        }
        if !def.run.is_empty() {
            outln!(out, "  run: {}", join(&def.run));
        }
        if def.start_without_site {
            outln!(
                out,
                "  started without `site` (python3 -S; the folders of installed packages, exit() \
                 and help() given by the referee; code lines of .pth files are not run): set \
                 `run` to start bots exactly as written"
            );
        }
    }
    if !missing.is_empty() {
        outln!(out, "\nMissing toolchains:");
        for line in missing {
            outln!(out, "{line}");
        }
    }
}

/// A command's words as a person would type them (quoted only where a
/// word needs it).
fn join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if w.is_empty() || w.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c)) {
                shell_words::quote(w).into_owned()
            } else {
                w.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let cut: String = text.chars().take(width - 3).collect();
        format!("{cut}...")
    }
}

/// Each game's default time per move for a bot in `lang` (the game's
/// contest rules: [`MatchLimits::defaults_for`]).
fn time_limits(lang: Language) -> Vec<(&'static str, std::time::Duration)> {
    GAME_NAMES
        .iter()
        .map(|&game| {
            let config = GameConfig::from_options(game, &GameOptions::default())
                .expect("every game has a default configuration");
            (game, MatchLimits::defaults_for(&config, lang).time_limit)
        })
        .collect()
}

fn json_of(lang: Language) -> serde_json::Value {
    let def = lang.def();
    let (found, version, missing) = match lang.toolchain() {
        Toolchain::Found { version } => (true, Some(version), None),
        Toolchain::Missing { program } => (false, None, Some(program)),
        Toolchain::NotNeeded => (true, None, None),
    };
    serde_json::json!({
        "name": def.name,
        "aliases": def.aliases,
        "found": found,
        "version": version,
        "missing": missing,
        "install": def.install,
        "extensions": def.extensions,
        "markers": def.markers,
        "entry": def.entry,
        "compile": def.compile,
        "run": def.run,
        "start_without_site": def.start_without_site,
        "time_multiplier": def.time_multiplier,
        "time_limit_ms": time_limits(lang)
            .into_iter()
            .map(|(game, limit)| (game.to_string(), serde_json::json!(limit.as_millis() as u64)))
            .collect::<serde_json::Map<_, _>>(),
        "memory_allowance_kb": def.memory_allowance_kb,
        "address_space_allowance_kb": def.address_space_allowance_kb,
        "compile_time_limit_s": def.compile_time.as_secs_f64(),
        "compile_memory_limit_kb": def.compile_memory_kb,
    })
}
