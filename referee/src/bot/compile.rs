//! Compiling C and C++ bot sources: `gcc -O2` / `g++ -O2`, started through
//! the launcher like a bot (the compiler is as untrusted as the source it
//! reads: same sandbox, a time, memory and output cap, killed with the
//! referee), into a cache keyed by the source's content (and the compiler
//! and flags), so a tournament compiles each bot once.
//!
//! The cache directory is `$REFEREE_CACHE`, else `$XDG_CACHE_HOME/referee`,
//! else `~/.cache/referee`. A binary is built in a private temporary
//! directory there and renamed into place, so parallel games never see a
//! half-written one. A source that does not compile is the bot's fault (the
//! `compile` verdict, with the compiler's message); a missing compiler or an
//! unwritable cache is the referee's (an `Err`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::language::Language;
use super::spec::BotCommand;

/// Time a compiler gets for one bot.
pub const COMPILE_LIMIT: Duration = Duration::from_secs(60);
/// Compiler output kept for the log.
const MAX_MESSAGE_BYTES: u64 = 16 * 1024;

/// Why a bot could not be made ready to run.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The bot's fault: the `compile` verdict.
    #[error("does not compile ({compiler} {status}): {first_error}")]
    DoesNotCompile {
        compiler: &'static str,
        status: String,
        /// The compiler's first error line.
        first_error: String,
        /// Everything the compiler wrote (capped).
        message: String,
    },
    #[error("does not compile: {compiler} took longer than {}s", limit.as_secs())]
    TooSlow {
        compiler: &'static str,
        limit: Duration,
    },
    /// The referee's fault.
    #[error("cannot compile {}: {compiler} could not be run ({source}); install it (e.g. apt-get install build-essential)", source_file.display())]
    NoCompiler {
        compiler: &'static str,
        source_file: PathBuf,
        source: io::Error,
    },
    #[error("cannot use the compile cache {}: {source}; set REFEREE_CACHE to a writable directory", dir.display())]
    Cache { dir: PathBuf, source: io::Error },
}

impl CompileError {
    /// The compiler's whole message, for the log.
    pub fn compiler_message(&self) -> &str {
        match self {
            CompileError::DoesNotCompile { message, .. } => message,
            CompileError::TooSlow { .. }
            | CompileError::NoCompiler { .. }
            | CompileError::Cache { .. } => "",
        }
    }

    /// Is this the bot's fault (a verdict) rather than the referee's?
    pub fn is_verdict(&self) -> bool {
        match self {
            CompileError::DoesNotCompile { .. } | CompileError::TooSlow { .. } => true,
            CompileError::NoCompiler { .. } | CompileError::Cache { .. } => false,
        }
    }
}

/// The compile cache directory.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("REFEREE_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("referee");
    }
    if let Some(home) = var("HOME") {
        return PathBuf::from(home).join(".cache").join("referee");
    }
    std::env::temp_dir().join("referee-cache")
}

fn compiler(language: Language) -> (&'static str, &'static [&'static str]) {
    match language {
        Language::Cpp => ("g++", &["-O2", "-std=gnu++17", "-fmax-errors=20"]),
        Language::C | Language::Python | Language::Native => {
            ("gcc", &["-O2", "-std=gnu11", "-fmax-errors=20"])
        }
    }
}

/// A bot ready to spawn: unchanged unless it is a source to compile, then
/// the same command with `program` set to the (cached) binary.
pub fn prepare(
    command: &BotCommand,
    sandbox: &super::Sandbox,
    limit: Duration,
) -> Result<BotCommand, CompileError> {
    prepare_in(command, &cache_dir(), sandbox, limit)
}

/// [`prepare`] with an explicit cache directory.
pub fn prepare_in(
    command: &BotCommand,
    dir: &Path,
    sandbox: &super::Sandbox,
    limit: Duration,
) -> Result<BotCommand, CompileError> {
    let Some(source) = &command.source else {
        return Ok(command.clone());
    };
    let (cc, flags) = compiler(command.language);
    let dir = dir.to_path_buf();
    let cache_err = |source: io::Error| CompileError::Cache {
        dir: dir.clone(),
        source,
    };
    let text = fs::read(source).map_err(|e| CompileError::NoCompiler {
        compiler: cc,
        source_file: source.clone(),
        source: e,
    })?;
    let mut key = Vec::with_capacity(text.len() + 64);
    key.extend_from_slice(format!("referee-compile-v1\0{cc}\0{}\0", flags.join(" ")).as_bytes());
    key.extend_from_slice(&text);
    let binary = dir.join(format!("{:032x}-{}", fnv1a_128(&key), command.name));
    if !binary.is_file() {
        fs::create_dir_all(&dir).map_err(cache_err)?;
        let work = tempfile::Builder::new()
            .prefix(".build-")
            .tempdir_in(&dir)
            .map_err(cache_err)?;
        let ext = match command.language {
            Language::Cpp => "cpp",
            Language::C | Language::Python | Language::Native => "c",
        };
        // The compiler sees a copy named by its language (a `.cc` or a
        // `.cxx` is C++ too), and writes next to it.
        let source_name = format!("bot.{ext}");
        fs::write(work.path().join(&source_name), &text).map_err(cache_err)?;
        run_compiler(
            (cc, flags),
            work,
            &source_name,
            source,
            &binary,
            sandbox,
            limit,
        )?;
    }
    Ok(BotCommand {
        program: binary,
        source: None,
        ..command.clone()
    })
}

/// What a compiler may use: it is as untrusted as the bot whose source it
/// reads (`#include "/etc/shadow"` would print the file in its message).
/// It runs through the launcher like a bot, in the sandbox of the game,
/// with processes allowed (cc1, as, ld), this much memory (resident, and
/// an address space of this plus 1 GiB per process), its output capped,
/// and killed with the referee.
pub const COMPILER_MEMORY_KB: u64 = 512 * 1024;
/// What a compiler's working folder may hold (the object files and the
/// binary).
const COMPILER_DISK_KB: u64 = 256 * 1024;

fn run_compiler(
    (cc, flags): (&'static str, &[&str]),
    work: tempfile::TempDir,
    source_name: &str,
    original: &Path,
    binary: &Path,
    sandbox: &super::Sandbox,
    limit: Duration,
) -> Result<(), CompileError> {
    let no_compiler = |e: io::Error| CompileError::NoCompiler {
        compiler: cc,
        source_file: original.to_path_buf(),
        source: e,
    };
    let cache_err = |e: io::Error| CompileError::Cache {
        dir: binary.parent().unwrap_or(Path::new(".")).to_path_buf(),
        source: e,
    };
    let program =
        BotCommand::parse(cc).map_err(|e| no_compiler(io::Error::other(e.to_string())))?;
    let mut args: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    args.extend(["-o".into(), "bot".into(), source_name.into(), "-lm".into()]);
    let command = BotCommand {
        args: args.into_iter().map(Into::into).collect(),
        ..program
    };
    let limits = super::ProcessLimits {
        memory_kb: COMPILER_MEMORY_KB,
        max_output_bytes: MAX_MESSAGE_BYTES as usize,
        stderr_cap_bytes: MAX_MESSAGE_BYTES as usize,
        max_line_bytes: 4096,
        sandbox: sandbox.clone(),
        allow_fork: true,
        disk_kb: COMPILER_DISK_KB,
        ..super::ProcessLimits::default()
    };
    let started = Instant::now();
    let mut process = super::BotProcess::spawn_in(&command, &limits, work).map_err(no_compiler)?;
    // No input: it reads its source, writes its binary and exits.
    let report = process.shut_down(limit);
    if started.elapsed() >= limit {
        return Err(CompileError::TooSlow {
            compiler: cc,
            limit,
        });
    }
    let out = process.workdir().join("bot");
    if report.exit == Some(super::Exit::Code(0)) && out.is_file() {
        return fs::rename(&out, binary).map_err(cache_err);
    }
    let message: String = process
        .take_stderr()
        .into_iter()
        .map(|l| l.line + "\n")
        .collect();
    // The message names the private copy; show the user's file instead.
    let message = message.replace(source_name, &original.display().to_string());
    let first_error = message
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| message.lines().next())
        .unwrap_or("(no message)")
        .trim()
        .to_string();
    let status = match report.exit {
        Some(exit) => exit.to_string(),
        None => "ended".into(),
    };
    Err(CompileError::DoesNotCompile {
        compiler: cc,
        status,
        first_error,
        message: message.trim_end().to_string(),
    })
}

/// FNV-1a, 128 bits: a stable content hash with no dependency (cache keys
/// only; not for security).
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_stable_and_content_sensitive() {
        assert_eq!(fnv1a_128(b""), 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        assert_ne!(fnv1a_128(b"int main(){}"), fnv1a_128(b"int main(){ }"));
    }
}
