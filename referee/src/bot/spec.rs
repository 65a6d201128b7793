//! BOT specs as users write them: a path to an executable, a `.py` file (run
//! with python3), a `.c`/`.cpp` file (compiled by the referee, see
//! `compile.rs`), or a quoted command line, optionally prefixed with its
//! language (`python:./launcher`). Validated into a [`BotCommand`] before
//! anything is spawned, so a typo is a clear error and not a verdict.

use std::env;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::language::Language;

/// The largest bot source file accepted (the contest rules: "max file size
/// must be less than 1MB").
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// A bot command ready to run: absolute program path and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    /// The spec exactly as the user wrote it (used in replay commands).
    pub spec: String,
    /// A short name for tables: the file stem of the bot's script or program.
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// What the limits take the bot to be written in.
    pub language: Language,
    /// A C or C++ source to compile before the game; `program` is then the
    /// source itself until `compile::prepare` replaces it with the binary.
    pub source: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BotSpecError {
    #[error(
        "the bot spec is empty: give a path to an executable, a .py file, or a quoted command line"
    )]
    Empty,
    #[error("bot '{spec}': cannot split the command line ({reason}); check its quotes")]
    BadQuoting { spec: String, reason: String },
    #[error("bot '{spec}': {} does not exist; check the path (relative paths start from {})", path.display(), cwd.display())]
    NotFound {
        spec: String,
        path: PathBuf,
        cwd: PathBuf,
    },
    #[error("bot '{spec}': {} is a directory, not a program", path.display())]
    IsDirectory { spec: String, path: PathBuf },
    #[error("bot '{spec}': {} is not executable; mark it executable (chmod +x {}) or name its interpreter, e.g. \"{} {}\"", path.display(), path.display(), interpreter_of(path), path.display())]
    NotExecutable { spec: String, path: PathBuf },
    #[error(
        "bot '{spec}': program '{program}' was not found in PATH; install it or give its full path"
    )]
    NotInPath { spec: String, program: String },
    #[error("bot '{spec}': {} is {size} bytes; a bot source must be under {MAX_SOURCE_BYTES} bytes (1 MiB)", path.display())]
    TooLarge {
        spec: String,
        path: PathBuf,
        size: u64,
    },
}

impl BotCommand {
    /// Resolves a spec against the current directory and `PATH`.
    ///
    /// Bots run in a fresh working directory, so every argument that names an
    /// existing file relative to the current directory is made absolute.
    pub fn parse(spec: &str) -> Result<BotCommand, BotSpecError> {
        let cwd = env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Self::parse_relative_to(spec, &cwd)
    }

    /// Like [`BotCommand::parse`], with relative paths taken from `base` (a
    /// tournament file's directory).
    pub fn parse_relative_to(spec: &str, base: &Path) -> Result<BotCommand, BotSpecError> {
        let trimmed = spec.trim();
        if trimmed.is_empty() {
            return Err(BotSpecError::Empty);
        }
        let (forced, trimmed) = match trimmed.split_once(':') {
            Some((lang, rest)) if Language::from_name(lang).is_some() && !rest.is_empty() => {
                (Language::from_name(lang), rest.trim())
            }
            _ => (None, trimmed),
        };
        let words = split_words(spec, trimmed, base)?;
        let (first, rest) = words.split_first().ok_or(BotSpecError::Empty)?;
        let compiled = Language::of_source(Path::new(first)).filter(|l| l.is_compiled());
        if let Some(lang) = compiled {
            return source_command(spec, first, rest, base, forced.unwrap_or(lang));
        }
        let (program, args, script) = if first.ends_with(".py") {
            python_command(spec, first, rest, base)?
        } else {
            program_command(spec, first, rest, base)?
        };
        if let Some(script) = &script {
            check_size(spec, script)?;
        }
        let detected = match &script {
            Some(s) if Language::of_source(s) == Some(Language::Python) => Language::Python,
            _ => Language::detect(&program, rest),
        };
        let name_source = script.unwrap_or_else(|| program.clone());
        let name = name_source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| first.clone());
        Ok(BotCommand {
            spec: spec.to_string(),
            name,
            program,
            args,
            language: forced.unwrap_or(detected),
            source: None,
        })
    }
}

/// A program, its arguments, and the script that names the bot (if any).
type Resolved = (PathBuf, Vec<OsString>, Option<PathBuf>);

/// The words of a spec: one path (even with spaces) if it names a file,
/// else a command line split as a shell would.
fn split_words(spec: &str, trimmed: &str, cwd: &Path) -> Result<Vec<String>, BotSpecError> {
    if trimmed.contains(char::is_whitespace) && !cwd.join(trimmed).exists() {
        shell_words::split(trimmed).map_err(|e| BotSpecError::BadQuoting {
            spec: spec.to_string(),
            reason: e.to_string(),
        })
    } else {
        Ok(vec![trimmed.to_string()])
    }
}

/// A C or C++ source: compiled before the game (see `compile`).
fn source_command(
    spec: &str,
    first: &str,
    rest: &[String],
    cwd: &Path,
    language: Language,
) -> Result<BotCommand, BotSpecError> {
    let source = existing_file(spec, first, cwd)?;
    check_size(spec, &source)?;
    let args: Vec<OsString> = rest.iter().map(|a| absolutize_arg(a, cwd)).collect();
    let name = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| first.to_string());
    Ok(BotCommand {
        spec: spec.to_string(),
        name,
        program: source.clone(),
        args,
        language,
        source: Some(source),
    })
}

/// A `.py` file: run by the real python3 found in `PATH`.
fn python_command(
    spec: &str,
    first: &str,
    rest: &[String],
    cwd: &Path,
) -> Result<Resolved, BotSpecError> {
    let script = existing_file(spec, first, cwd)?;
    check_size(spec, &script)?;
    let python = find_in_path("python3")
        .map(real_interpreter)
        .ok_or_else(|| BotSpecError::NotInPath {
            spec: spec.to_string(),
            program: "python3".into(),
        })?;
    let mut args: Vec<OsString> = vec![script.clone().into()];
    args.extend(rest.iter().map(|a| absolutize_arg(a, cwd)));
    Ok((python, args, Some(script)))
}

/// An executable: a path (it must be executable) or a name in `PATH`.
fn program_command(
    spec: &str,
    first: &str,
    rest: &[String],
    cwd: &Path,
) -> Result<Resolved, BotSpecError> {
    let program = if first.contains('/') {
        let path = existing_file(spec, first, cwd)?;
        let mode = path.metadata().map(|m| m.permissions().mode()).unwrap_or(0);
        if mode & 0o111 == 0 {
            return Err(BotSpecError::NotExecutable {
                spec: spec.to_string(),
                path,
            });
        }
        path
    } else {
        find_in_path(first)
            .map(real_interpreter)
            .ok_or_else(|| BotSpecError::NotInPath {
                spec: spec.to_string(),
                program: first.to_string(),
            })?
    };
    let args: Vec<OsString> = rest.iter().map(|a| absolutize_arg(a, cwd)).collect();
    // For "python3 bot.py", the script names the bot, not the interpreter.
    let script = rest
        .iter()
        .find(|a| !a.starts_with('-') && cwd.join(a).is_file())
        .map(PathBuf::from);
    Ok((program, args, script))
}

/// Refuses a bot source of 1 MiB or more.
fn check_size(spec: &str, path: &Path) -> Result<(), BotSpecError> {
    let size = path.metadata().map(|m| m.len()).unwrap_or(0);
    if size >= MAX_SOURCE_BYTES {
        return Err(BotSpecError::TooLarge {
            spec: spec.to_string(),
            path: path.to_path_buf(),
            size,
        });
    }
    Ok(())
}

fn existing_file(spec: &str, word: &str, cwd: &Path) -> Result<PathBuf, BotSpecError> {
    let path = cwd.join(word);
    if !path.exists() {
        return Err(BotSpecError::NotFound {
            spec: spec.to_string(),
            path: PathBuf::from(word),
            cwd: cwd.to_path_buf(),
        });
    }
    if path.is_dir() {
        return Err(BotSpecError::IsDirectory {
            spec: spec.to_string(),
            path: PathBuf::from(word),
        });
    }
    Ok(path.canonicalize().unwrap_or(path))
}

/// The interpreter a script is likely written for, by its extension, for
/// the hint of a script that is not executable.
fn interpreter_of(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("sh") => "sh",
        Some("bash") => "bash",
        Some("pl") => "perl",
        Some("rb") => "ruby",
        Some("js") => "node",
        Some("lua") => "lua",
        _ => "python3",
    }
}

fn absolutize_arg(arg: &str, cwd: &Path) -> OsString {
    let path = Path::new(arg);
    if !arg.starts_with('-') && path.is_relative() && cwd.join(path).exists() {
        cwd.join(path).into()
    } else {
        arg.into()
    }
}

/// For a `python3` (or `python`) found in PATH, the interpreter itself
/// rather than a wrapper script such as pyenv's shims: a wrapper starts
/// shells and subprocesses, which the sandbox refuses a bot unless forking
/// is allowed, and costs start-up time. Asked once per process.
fn real_interpreter(program: PathBuf) -> PathBuf {
    static PYTHON: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let name = program.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !matches!(name, "python3" | "python") {
        return program;
    }
    let resolved = PYTHON.get_or_init(|| {
        let output = std::process::Command::new(&program)
            .args(["-c", "import sys; print(sys.executable)"])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        let path = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
        (output.status.success() && path.is_absolute() && path.is_file()).then_some(path)
    });
    resolved.clone().unwrap_or(program)
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| {
            candidate
                .metadata()
                .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_files_run_with_python3() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("my_bot.py");
        std::fs::write(&script, "print()").unwrap();
        let cmd = BotCommand::parse(script.to_str().unwrap()).unwrap();
        assert!(cmd.program.ends_with("python3"));
        assert_eq!(cmd.name, "my_bot");
        assert_eq!(cmd.args.len(), 1);
        assert_eq!(cmd.language, Language::Python);
    }

    #[test]
    fn c_sources_are_compiled_and_big_ones_refused() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("bot.cpp");
        std::fs::write(&source, "int main(){}").unwrap();
        let cmd = BotCommand::parse(source.to_str().unwrap()).unwrap();
        assert_eq!(cmd.language, Language::Cpp);
        assert_eq!(
            cmd.source.as_deref(),
            Some(source.canonicalize().unwrap().as_path())
        );
        assert_eq!(cmd.name, "bot");

        let big = dir.path().join("big.c");
        std::fs::write(&big, vec![b' '; MAX_SOURCE_BYTES as usize]).unwrap();
        let err = BotCommand::parse(big.to_str().unwrap()).unwrap_err();
        assert!(matches!(err, BotSpecError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("1 MiB"));
    }

    #[test]
    fn a_language_prefix_overrides_detection() {
        let cmd = BotCommand::parse("python:sh -c true").unwrap();
        assert_eq!(cmd.language, Language::Python);
        assert_eq!(
            BotCommand::parse("sh -c true").unwrap().language,
            Language::Native
        );
    }

    #[test]
    fn command_lines_are_split_and_named_after_the_script() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("other.py");
        std::fs::write(&script, "print()").unwrap();
        let cmd = BotCommand::parse(&format!("python3 -u '{}' --fast", script.display())).unwrap();
        assert_eq!(cmd.name, "other");
        assert_eq!(cmd.args.len(), 3);
    }

    #[test]
    fn errors_say_what_to_fix() {
        let err = BotCommand::parse("./no/such/bot").unwrap_err();
        assert!(matches!(err, BotSpecError::NotFound { .. }));
        assert!(err.to_string().contains("does not exist"));

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        let err = BotCommand::parse(file.to_str().unwrap()).unwrap_err();
        assert!(err.to_string().contains("chmod +x"), "{err}");

        let err = BotCommand::parse("no-such-program-xyz --flag").unwrap_err();
        assert!(matches!(err, BotSpecError::NotInPath { .. }));
        assert!(matches!(BotCommand::parse("  "), Err(BotSpecError::Empty)));
        assert!(matches!(
            BotCommand::parse("python3 'unclosed"),
            Err(BotSpecError::BadQuoting { .. })
        ));
    }
}
