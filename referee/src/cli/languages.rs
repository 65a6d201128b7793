//! `referee languages`: every language the referee knows (built in, and
//! those a tournament or check file adds), whether its toolchain is on this
//! machine, its version, and its limits.

use std::path::PathBuf;

use clap::Args;

use referee::bot::language::{Language, Toolchain};
use referee::units::show_size_kb;

use super::Failure;

#[derive(Args)]
pub struct LanguagesArgs {
    /// A tournament or check file whose [languages.NAME] tables are listed too
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print one JSON object per language instead of the table
    #[arg(long)]
    json: bool,
}

pub fn run_languages(args: LanguagesArgs) -> Result<(), Failure> {
    if let Some(file) = &args.file {
        referee::plan_file::register_languages_of(file).map_err(Failure::input)?;
    }
    let languages = Language::all();
    if args.json {
        for lang in languages {
            println!(
                "{}",
                serde_json::to_string(&json_of(lang)).expect("serializes")
            );
        }
        return Ok(());
    }
    println!(
        "{:<11} {:<8} {:<44} {:>5} {:>9} {:>13}",
        "LANGUAGE", "FOUND", "VERSION", "TIME", "ALLOWANCE", "COMPILE LIMIT"
    );
    let mut missing = Vec::new();
    for lang in &languages {
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
        println!(
            "{:<11} {:<8} {:<44} {:>5} {:>9} {:>13}",
            lang.name(),
            found,
            shorten(&version, 44),
            format!("x{}", def.time_multiplier),
            show_size_kb(def.memory_allowance_kb),
            compile
        );
    }
    println!();
    for lang in &languages {
        let def = lang.def();
        let mut recognised: Vec<String> = def.extensions.iter().map(|e| format!(".{e}")).collect();
        recognised.extend(def.markers.iter().map(|m| match &def.entry {
            Some(e) if e != "." => format!("a folder with {m} (entry {e})"),
            _ => format!("a folder with {m}"),
        }));
        println!("{}:", lang.name());
        if recognised.is_empty() {
            println!(
                "  bots: an executable (a path, or a command line), named `{}:...`",
                lang.name()
            );
        } else {
            println!("  bots: {}", recognised.join(", "));
        }
        if let Some(compile) = &def.compile {
            println!("  compile: {}", join(compile));
        }
        if !def.run.is_empty() {
            println!("  run: {}", join(&def.run));
        }
    }
    if !missing.is_empty() {
        println!("\nMissing toolchains:");
        for line in missing {
            println!("{line}");
        }
    }
    Ok(())
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
        "time_multiplier": def.time_multiplier,
        "memory_allowance_kb": def.memory_allowance_kb,
        "address_space_allowance_kb": def.address_space_allowance_kb,
        "compile_time_limit_s": def.compile_time.as_secs_f64(),
        "compile_memory_limit_kb": def.compile_memory_kb,
    })
}
