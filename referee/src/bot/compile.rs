//! Compiling C and C++ bot sources: `gcc -O2` / `g++ -O2`, as a child process
//! in its own process group with a time limit, into a cache keyed by the
//! source's content (and the compiler and flags), so a tournament compiles
//! each bot once.
//!
//! The cache directory is `$REFEREE_CACHE`, else `$XDG_CACHE_HOME/referee`,
//! else `~/.cache/referee`. A binary is built in a private temporary
//! directory there and renamed into place, so parallel games never see a
//! half-written one. A source that does not compile is the bot's fault (the
//! `compile` verdict, with the compiler's message); a missing compiler or an
//! unwritable cache is the referee's (an `Err`).

use std::fs::{self, File};
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::process::{Pid, PidfdFlags, Signal};

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
        Language::Cpp => ("g++", &["-O2", "-std=gnu++17"]),
        Language::C | Language::Python | Language::Native => ("gcc", &["-O2", "-std=gnu11"]),
    }
}

/// A bot ready to spawn: unchanged unless it is a source to compile, then
/// the same command with `program` set to the (cached) binary.
pub fn prepare(command: &BotCommand, limit: Duration) -> Result<BotCommand, CompileError> {
    prepare_in(command, &cache_dir(), limit)
}

/// [`prepare`] with an explicit cache directory.
pub fn prepare_in(
    command: &BotCommand,
    dir: &Path,
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
        let copy = work.path().join(format!("bot.{ext}"));
        fs::write(&copy, &text).map_err(cache_err)?;
        let out = work.path().join("bot");
        run_compiler(cc, flags, &copy, &out, source, limit)?;
        fs::rename(&out, &binary).map_err(cache_err)?;
    }
    Ok(BotCommand {
        program: binary,
        source: None,
        ..command.clone()
    })
}

fn run_compiler(
    cc: &'static str,
    flags: &[&str],
    copy: &Path,
    out: &Path,
    original: &Path,
    limit: Duration,
) -> Result<(), CompileError> {
    let no_compiler = |e: io::Error| CompileError::NoCompiler {
        compiler: cc,
        source_file: original.to_path_buf(),
        source: e,
    };
    let dir = copy.parent().expect("the copy is in the work directory");
    let log_path = dir.join("compiler.log");
    let log = File::create(&log_path).map_err(no_compiler)?;
    let mut child = Command::new(cc)
        .args(flags)
        .arg("-o")
        .arg(out)
        .arg(copy)
        .arg("-lm")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(no_compiler)?)
        .stderr(log)
        .process_group(0)
        .spawn()
        .map_err(no_compiler)?;
    let pid = Pid::from_child(&child);
    let deadline = Instant::now() + limit;
    let exited = match rustix::process::pidfd_open(pid, PidfdFlags::empty()) {
        Ok(pidfd) => loop {
            let now = Instant::now();
            if now >= deadline {
                break false;
            }
            let left = deadline - now;
            let timeout = Timespec {
                tv_sec: left.as_secs() as _,
                tv_nsec: left.subsec_nanos() as _,
            };
            let mut fds = [PollFd::new(&pidfd, PollFlags::IN)];
            if let Ok(n) = rustix::event::poll(&mut fds, Some(&timeout)) {
                if n > 0 {
                    break true;
                }
            }
        },
        // No pidfd (an old kernel): wait without a limit.
        Err(_) => true,
    };
    if !exited {
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        let _ = child.wait();
        return Err(CompileError::TooSlow {
            compiler: cc,
            limit,
        });
    }
    let status = child.wait().map_err(no_compiler)?;
    // Anything the compiler left running in its group goes too.
    let _ = rustix::process::kill_process_group(pid, Signal::KILL);
    if status.success() && out.is_file() {
        return Ok(());
    }
    let mut message = String::new();
    if let Ok(file) = File::open(&log_path) {
        let _ = file.take(MAX_MESSAGE_BYTES).read_to_string(&mut message);
    }
    // The log names the private copy; show the user's file instead.
    let message = message.replace(&copy.display().to_string(), &original.display().to_string());
    let first_error = message
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| message.lines().next())
        .unwrap_or("(no message)")
        .trim()
        .to_string();
    Err(CompileError::DoesNotCompile {
        compiler: cc,
        status: status.to_string(),
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

    fn command(dir: &Path, name: &str, text: &str) -> BotCommand {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        BotCommand::parse(path.to_str().unwrap()).unwrap()
    }

    #[test]
    fn compiles_once_then_uses_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let bot = command(dir.path(), "ok.c", "int main(void) { return 0; }\n");
        let built = prepare_in(&bot, &cache, COMPILE_LIMIT).unwrap();
        assert!(built.program.starts_with(&cache), "{built:?}");
        assert!(built.program.is_file());
        assert_eq!(built.source, None);
        let modified = built.program.metadata().unwrap().modified().unwrap();
        let again = prepare_in(&bot, &cache, COMPILE_LIMIT).unwrap();
        assert_eq!(again.program, built.program);
        assert_eq!(
            again.program.metadata().unwrap().modified().unwrap(),
            modified
        );
        // Other content, other binary; no build directory is left behind.
        let other = command(dir.path(), "ok.c", "int main(void) { return 1; }\n");
        assert_ne!(
            prepare_in(&other, &cache, COMPILE_LIMIT).unwrap().program,
            built.program
        );
        assert_eq!(fs::read_dir(&cache).unwrap().count(), 2);
    }

    #[test]
    fn a_compile_error_is_a_verdict_with_the_message() {
        let dir = tempfile::tempdir().unwrap();
        let bot = command(dir.path(), "bad.cpp", "int main() { return nope; }\n");
        let err = prepare_in(&bot, &dir.path().join("cache"), COMPILE_LIMIT).unwrap_err();
        assert!(err.is_verdict(), "{err}");
        let text = err.to_string();
        assert!(text.starts_with("does not compile (g++"), "{text}");
        assert!(text.contains("nope"), "{text}");
        assert!(err.compiler_message().contains("bad.cpp"), "{err:?}");
    }

    #[test]
    fn hash_is_stable_and_content_sensitive() {
        assert_eq!(fnv1a_128(b""), 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        assert_ne!(fnv1a_128(b"int main(){}"), fnv1a_128(b"int main(){ }"));
    }
}
