//! BOT specs as users write them: a path to an executable, a source file
//! of a known language (`bot.py`, `Bot.java`, `bot.c`: built and run with
//! its language's commands, see `language.rs` and `compile.rs`), a folder
//! holding a language's marker file (`Main.java`, `main.go`, `Cargo.toml`,
//! `package.json`), or a quoted command line; optionally prefixed with its
//! language (`java:path/`, `python:./launcher`). Validated into a
//! [`BotCommand`] before anything is spawned, so a typo or a missing
//! toolchain is a clear error and not a verdict.

use std::env;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::language::{find_program, Language, Languages};

/// The largest bot source accepted (the contest rules: "max file size
/// must be less than 1MB"); for a folder, its source files in all.
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;
/// The most source files a folder bot may hold.
pub const MAX_SOURCE_FILES: usize = 1000;

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
    /// A source file or folder that its language builds and runs; `program`
    /// is then the source itself and `args` the spec's extra words, until
    /// `compile::prepare` makes the command its language's run command.
    pub source: Option<PathBuf>,
    /// Environment the bot's language adds to the referee's clean one.
    pub env: Vec<(OsString, OsString)>,
    /// Folders the bot must be able to read besides its program's (its
    /// compiled build, its sources): granted by the sandbox.
    pub readable: Vec<PathBuf>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BotSpecError {
    #[error(
        "the bot spec is empty: give a path to an executable, a source file (.py, .c, .java, ...), or a quoted command line"
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
    #[error("bot '{spec}': the folder {} holds no entry point{}; a folder bot holds one of: {wanted}{}", path.display(), match language { Some(l) => format!(" for {l}"), None => String::new() }, match lone { Some(file) => format!("; it holds one source file: give that file, {}", file.display()), None => String::new() })]
    NoEntryPoint {
        spec: String,
        path: PathBuf,
        language: Option<String>,
        /// The markers looked for, with their languages.
        wanted: String,
        /// The folder's one source file (`bot.py`), as the spec would
        /// name it, when it holds one and nothing else of a language.
        lone: Option<PathBuf>,
    },
    #[error("bot '{spec}': {} is not executable; mark it executable (chmod +x {}) or name its interpreter, e.g. \"{} {}\"", path.display(), path.display(), interpreter_of(path), path.display())]
    NotExecutable { spec: String, path: PathBuf },
    /// A script whose `#!` line ends with a carriage return: the system
    /// looks for an interpreter whose name ends with it, and finds none.
    #[error("bot '{spec}': the first line of {} ends with a carriage return (the file was saved with Windows line ends), so the system cannot find its interpreter; convert the file (dos2unix {}, or sed -i 's/\\r$//' {})", path.display(), path.display(), path.display())]
    WindowsLineEnds { spec: String, path: PathBuf },
    /// A text file marked executable without a `#!` line: the system
    /// cannot run it by itself, and the C library's fallback runs it with
    /// `/bin/sh`, which reads a Python script as shell commands.
    #[error("bot '{spec}': {} is a text file without a '#!' line, so the system cannot run it by itself (it would be read as a shell script); make its first line name its interpreter (#!/usr/bin/env python3, #!/bin/sh, ...) or name the interpreter, e.g. \"{} {}\"", path.display(), interpreter_of(path), path.display())]
    NoInterpreterLine { spec: String, path: PathBuf },
    #[error(
        "bot '{spec}': program '{program}' was not found in PATH; install it or give its full path{}",
        match here {
            Some(path) => format!(" (a name without '/' is looked up in PATH; the file {} is there: write ./{program})", path.display()),
            None => String::new(),
        }
    )]
    NotInPath {
        spec: String,
        program: String,
        /// A file of that name in the folder paths are taken from.
        here: Option<PathBuf>,
    },
    #[error("bot '{spec}': no language builds or runs .{extension} files (the languages: {languages}); a tournament file can add one ([languages.NAME] with extensions = [\"{extension}\"], see docs/reference.md, \"Languages\"), or mark {} executable (chmod +x) if it runs by itself", path.display())]
    UnknownExtension {
        spec: String,
        path: PathBuf,
        extension: String,
        languages: String,
    },
    #[error("bot '{spec}': no language is named '{name}' (the languages: {languages}); a tournament file can add one ([languages.{name}], see docs/reference.md, \"Languages\")")]
    UnknownLanguage {
        spec: String,
        name: String,
        languages: String,
    },
    #[error("bot '{spec}': {language} needs '{program}', which is not installed (not found in PATH); install it: {install}")]
    NoToolchain {
        spec: String,
        language: String,
        program: String,
        install: String,
    },
    #[error("bot '{spec}': {} is {size} bytes; a bot source must be under {MAX_SOURCE_BYTES} bytes (1 MiB)", path.display())]
    TooLarge {
        spec: String,
        path: PathBuf,
        size: u64,
    },
    #[error("bot '{spec}': the folder {} holds more than {MAX_SOURCE_FILES} source files", path.display())]
    TooManyFiles { spec: String, path: PathBuf },
}

impl BotCommand {
    /// Resolves a spec against the current directory and `PATH`.
    ///
    /// Bots run in a fresh working directory, so every argument that names an
    /// existing file relative to the current directory is made absolute.
    /// Languages are looked up in `languages` (the built-in ones, and
    /// those of the file being read).
    pub fn parse(spec: &str, languages: &Languages) -> Result<BotCommand, BotSpecError> {
        let cwd = env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Self::parse_relative_to(spec, &cwd, languages)
    }

    /// Like [`BotCommand::parse`], with relative paths taken from `base` (a
    /// tournament file's directory).
    pub fn parse_relative_to(
        spec: &str,
        base: &Path,
        languages: &Languages,
    ) -> Result<BotCommand, BotSpecError> {
        // Absolute, so that every path found from it (a script, an
        // argument naming a file) is too: the bot runs in a working
        // folder of its own, where a relative path means nothing.
        let absolute_base = std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf());
        let base = absolute_base.as_path();
        let trimmed = spec.trim();
        if trimmed.is_empty() {
            return Err(BotSpecError::Empty);
        }
        let (forced, trimmed) = split_language(trimmed, languages);
        let words = split_words(spec, trimmed, base)?;
        let (first, rest) = words.split_first().ok_or(BotSpecError::Empty)?;
        if base.join(first).is_dir() {
            return folder_command(spec, first, rest, base, forced, languages);
        }
        let source_language = match forced {
            Some(lang) => Some(lang).filter(|l| l.takes_source(Path::new(first))),
            None => languages.of_source(Path::new(first)),
        };
        if let Some(lang) = source_language {
            return source_command(spec, first, rest, base, lang);
        }
        let (program, args, script) =
            program_command(spec, first, rest, base).map_err(|e| explained(e, languages))?;
        if let Some(script) = &script {
            check_size(spec, script)?;
        } else {
            missing_script(spec, &program, rest, base, languages)?;
        }
        let python = languages.named("python");
        let detected = match &script {
            Some(s) if python.takes_source(s) => python,
            _ => languages.detect(&program, rest),
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
            env: Vec::new(),
            readable: Vec::new(),
        })
    }
}

impl BotCommand {
    /// The bot's own files as its spec names them, real paths: its source
    /// file or folder; else the script (or folder) its command line names
    /// first (`python3 bots/alice.py`, `java -cp bots/alice Main`); else its
    /// program, given by its path (a program found in `PATH` is the
    /// system's). Every bot of a run is kept from reading the others'
    /// (see `ProcessLimits::hidden`). Meant for a command as parsed, before
    /// its language's build makes it a run command.
    pub fn own_paths(&self) -> Vec<PathBuf> {
        if let Some(source) = &self.source {
            return source.canonicalize().into_iter().collect();
        }
        let script = self
            .args
            .iter()
            .map(Path::new)
            .filter(|arg| !arg.as_os_str().as_encoded_bytes().starts_with(b"-"))
            .find(|arg| arg.is_absolute() && arg.exists());
        if let Some(script) = script {
            return script.canonicalize().into_iter().collect();
        }
        let in_path = self.program.parent().is_some_and(|folder| {
            env::var_os("PATH").is_some_and(|path| env::split_paths(&path).any(|p| p == folder))
        });
        if in_path || !self.program.is_absolute() {
            return Vec::new();
        }
        self.program.canonicalize().into_iter().collect()
    }
}

/// The own files of every bot of a run ([`BotCommand::own_paths`]) and
/// what was made from each by name beside it ([`derived_files`]): hidden
/// from each bot, which gets back only its own.
pub fn own_paths_of<'a>(bots: impl IntoIterator<Item = &'a BotCommand>) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = bots
        .into_iter()
        .flat_map(BotCommand::own_paths)
        .flat_map(|path| {
            let derived = derived_files(&path);
            std::iter::once(path).chain(derived)
        })
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The entries beside a bot's file `file` that are copies of it or made
/// from it, by their names: an editor's backup or swap file (`alice.py~`,
/// `#alice.py#`, `.alice.py.swp`), an earlier version (`alice.py.bak`,
/// `Alice-old.py`), a build (`alice`, `alice.o`), Python's bytecode
/// (`__pycache__/alice.cpython-311.pyc`), a data file (`alice_weights.txt`).
/// In a folder of one-file bots another bot read the source through them.
/// A name is the file's stem (after a leading `.` or `#`, in any case)
/// followed by nothing or by a character that is no letter or digit:
/// `alice2.py` is another bot's; or a name that holds the file's whole
/// name after such a character (`Copy of alice.py`, see `holds_the_name`).
/// A folder bot's copies beside it too (`carol.zip`, `carol-old/`).
pub fn derived_files(file: &Path) -> Vec<PathBuf> {
    /// A folder of more entries is read only so far: this runs for every
    /// bot at a run's start.
    const MOST_ENTRIES: usize = 10_000;
    let (Some(folder), Some(stem)) = (file.parent(), stem_of(file)) else {
        return Vec::new();
    };
    let whole = file.file_name().map_or(&b""[..], |n| n.as_encoded_bytes());
    let mut found = Vec::new();
    for place in [folder.to_path_buf(), folder.join("__pycache__")] {
        let Ok(entries) = std::fs::read_dir(&place) else {
            continue;
        };
        for entry in entries.flatten().take(MOST_ENTRIES) {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.as_encoded_bytes();
            if path != file && (named_after(stem, name) || holds_the_name(whole, name)) {
                found.push(path);
            }
        }
    }
    found
}

/// Whether `name` holds a bot file's whole name `whole` (in any case)
/// after a character that is no letter or digit, followed by nothing or by
/// such a character: a copy under another name (`Copy of alice.py`,
/// `old_alice.py`, `backup-alice.py~`). `teamalice.py` is another's.
fn holds_the_name(whole: &[u8], name: &[u8]) -> bool {
    if whole.is_empty() || name.len() <= whole.len() {
        return false;
    }
    (1..=name.len() - whole.len()).any(|at| {
        name[at..at + whole.len()].eq_ignore_ascii_case(whole)
            && !name[at - 1].is_ascii_alphanumeric()
            && name
                .get(at + whole.len())
                .is_none_or(|b| !b.is_ascii_alphanumeric())
    })
}

/// Of the [`derived_files`] of a bot's `file`, those it may read as its
/// own: none that is a program or a source itself (`a_team.py` beside
/// `a.py` is another bot), nor one named after such a file of a longer
/// stem (`a_team.py~` is `a_team.py`'s backup, not `a.py`'s).
pub fn own_derived_files(file: &Path) -> Vec<PathBuf> {
    let derived = derived_files(file);
    let Some(own_stem) = stem_of(file) else {
        return Vec::new();
    };
    let others: Vec<&[u8]> = derived
        .iter()
        .filter(|path| is_a_bot(path))
        .filter_map(|path| stem_of(path))
        .filter(|stem| stem.len() > own_stem.len())
        .collect();
    derived
        .iter()
        .filter(|path| !is_a_bot(path))
        .filter(|path| {
            let name = path.file_name().map_or(&b""[..], |n| n.as_encoded_bytes());
            !others.iter().any(|stem| named_after(stem, name))
        })
        .cloned()
        .collect()
}

/// A file's stem as [`derived_files`] matches names against it: without a
/// leading `.`; `None` when nothing is left.
fn stem_of(file: &Path) -> Option<&[u8]> {
    let stem = file.file_stem()?.as_encoded_bytes();
    let stem = stem.strip_prefix(b".").unwrap_or(stem);
    (!stem.is_empty()).then_some(stem)
}

/// Whether `name` is named after `stem` (see [`derived_files`]).
fn named_after(stem: &[u8], name: &[u8]) -> bool {
    let name = name.strip_prefix(b".").unwrap_or(name);
    let name = name.strip_prefix(b"#").unwrap_or(name);
    name.len() >= stem.len()
        && name[..stem.len()].eq_ignore_ascii_case(stem)
        && name[stem.len()..]
            .first()
            .is_none_or(|b| !b.is_ascii_alphanumeric())
}

/// Whether `path` may be a bot of its own: a program (executable) or a
/// source of a language.
fn is_a_bot(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    const SOURCES: &[&str] = &[
        "py", "c", "cc", "cpp", "cxx", "c++", "h", "hpp", "java", "js", "mjs", "ts", "go", "rs",
        "rb", "pl", "sh", "lua", "kt", "jar", "cs", "hs", "ml", "php", "scala", "swift", "r", "jl",
    ];
    let source = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCES.contains(&e.to_ascii_lowercase().as_str()));
    source
        || std::fs::metadata(path)
            .is_ok_and(|m| m.is_dir() || (m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// A spec's `LANG:` prefix, if it names a known language, and the rest.
pub fn split_language<'s>(spec: &'s str, languages: &Languages) -> (Option<Language>, &'s str) {
    match spec.split_once(':') {
        Some((lang, rest)) if !rest.trim().is_empty() => match languages.from_name(lang) {
            Some(language) => (Some(language), rest.trim()),
            None => (None, spec),
        },
        _ => (None, spec),
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

/// A source file of `language`: built and run by its commands (see
/// `compile`).
fn source_command(
    spec: &str,
    first: &str,
    rest: &[String],
    cwd: &Path,
    language: Language,
) -> Result<BotCommand, BotSpecError> {
    let source = existing_file(spec, first, cwd)?;
    check_size(spec, &source)?;
    check_toolchain(spec, language)?;
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
        env: Vec::new(),
        readable: Vec::new(),
    })
}

/// A folder holding a language's marker file (`Main.java`, `main.go`,
/// `Cargo.toml`, `package.json`): built and run like a source file, from
/// its entry.
fn folder_command(
    spec: &str,
    first: &str,
    rest: &[String],
    cwd: &Path,
    forced: Option<Language>,
    languages: &Languages,
) -> Result<BotCommand, BotSpecError> {
    let dir = cwd.join(first);
    let dir = dir.canonicalize().unwrap_or(dir);
    let no_entry = || {
        let candidates = match forced {
            Some(lang) => vec![lang],
            None => languages.all(),
        };
        let wanted: Vec<String> = candidates
            .iter()
            .flat_map(|l| {
                l.def().markers.iter().map(move |m| match &l.def().entry {
                    Some(e) if e != "." => format!("{m} and {e} ({l})"),
                    _ => format!("{m} ({l})"),
                })
            })
            .collect();
        BotSpecError::NoEntryPoint {
            spec: spec.to_string(),
            path: PathBuf::from(first),
            language: forced.map(|l| l.name().to_string()),
            wanted: wanted.join(", "),
            lone: lone_source(&dir, forced, languages).map(|name| Path::new(first).join(name)),
        }
    };
    let (language, entry) = languages.of_folder(&dir, forced).ok_or_else(no_entry)?;
    if !entry.exists() {
        return Err(no_entry());
    }
    let (size, files) = source_size(&dir, language);
    if files > MAX_SOURCE_FILES {
        return Err(BotSpecError::TooManyFiles {
            spec: spec.to_string(),
            path: PathBuf::from(first),
        });
    }
    if size >= MAX_SOURCE_BYTES {
        return Err(BotSpecError::TooLarge {
            spec: spec.to_string(),
            path: PathBuf::from(first),
            size,
        });
    }
    check_toolchain(spec, language)?;
    let args: Vec<OsString> = rest.iter().map(|a| absolutize_arg(a, cwd)).collect();
    let name = dir
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| first.to_string());
    Ok(BotCommand {
        spec: spec.to_string(),
        name,
        program: dir.clone(),
        args,
        language,
        source: Some(dir),
        env: Vec::new(),
        readable: Vec::new(),
    })
}

/// The source files of a folder bot in `language` (its extensions and
/// its markers), relative to the folder, sorted: regular files only (a
/// link is not followed), hidden folders and build folders (`target`,
/// `node_modules`) left out. Stops past [`MAX_SOURCE_FILES`].
pub fn source_files(dir: &Path, language: Language) -> Vec<PathBuf> {
    let def = language.def();
    let mut found: Vec<PathBuf> = Vec::new();
    let mut queue = vec![PathBuf::new()];
    while let Some(rel) = queue.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name_text = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = rel.join(&name);
            if kind.is_dir() {
                if !name_text.starts_with('.')
                    && name_text != "target"
                    && name_text != "node_modules"
                {
                    queue.push(path);
                }
            } else if kind.is_file()
                && (language.takes_source(&path)
                    || def.markers.iter().any(|m| Path::new(m) == path))
            {
                found.push(path);
                if found.len() > MAX_SOURCE_FILES {
                    return found;
                }
            }
        }
    }
    found.sort();
    found
}

/// The bytes and the number of a folder bot's source files.
fn source_size(dir: &Path, language: Language) -> (u64, usize) {
    let files = source_files(dir, language);
    let size = files
        .iter()
        .filter_map(|f| dir.join(f).metadata().ok())
        .map(|m| m.len())
        .sum();
    (size, files.len())
}

/// A language whose programs are not installed is the referee's problem,
/// said before any game: which program, and what to install.
fn check_toolchain(spec: &str, language: Language) -> Result<(), BotSpecError> {
    for program in language.programs() {
        if find_program(program).is_none() {
            return Err(BotSpecError::NoToolchain {
                spec: spec.to_string(),
                language: language.name().to_string(),
                program: program.to_string(),
                install: language.def().install.clone(),
            });
        }
    }
    Ok(())
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
        match script_head(&path) {
            Head::WindowsShebang => {
                return Err(BotSpecError::WindowsLineEnds {
                    spec: spec.to_string(),
                    path,
                })
            }
            Head::NoInterpreterLine => {
                return Err(BotSpecError::NoInterpreterLine {
                    spec: spec.to_string(),
                    path,
                })
            }
            Head::Runs => {}
        }
        path
    } else {
        find_program(first).ok_or_else(|| BotSpecError::NotInPath {
            spec: spec.to_string(),
            program: first.to_string(),
            here: Some(cwd.join(first)).filter(|p| p.is_file()),
        })?
    };
    let args: Vec<OsString> = rest.iter().map(|a| absolutize_arg(a, cwd)).collect();
    // For "python3 bot.py", the script names the bot, not the interpreter.
    let script = rest
        .iter()
        .find(|a| !a.starts_with('-') && cwd.join(a).is_file())
        .map(|a| cwd.join(a));
    Ok((program, args, script))
}

/// The name of the one file of `dir` (at its top) that a language takes
/// as its source (`forced`'s, if given), if there is exactly one.
fn lone_source(dir: &Path, forced: Option<Language>, languages: &Languages) -> Option<OsString> {
    let mut sources = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.file_name())
        .filter(|name| match forced {
            Some(lang) => lang.takes_source(Path::new(name)),
            None => languages.of_source(Path::new(name)).is_some(),
        });
    let first = sources.next()?;
    sources.next().is_none().then_some(first)
}

/// An interpreter's command line whose script is not there
/// (`python3 bots/alcie.py`, a typo): refused as a path that does not
/// exist, before any game, instead of a `crash` at every game. The script
/// is the first word after the interpreter's flags, named with one of its
/// language's extensions.
fn missing_script(
    spec: &str,
    program: &Path,
    rest: &[String],
    base: &Path,
    languages: &Languages,
) -> Result<(), BotSpecError> {
    let interpreter = languages.detect(program, &[]);
    if interpreter.is_compiled() || interpreter == languages.named("native") {
        return Ok(());
    }
    match rest.iter().find(|a| !a.starts_with('-')) {
        Some(word) if interpreter.takes_source(Path::new(word)) && !base.join(word).exists() => {
            Err(BotSpecError::NotFound {
                spec: spec.to_string(),
                path: PathBuf::from(word),
                cwd: base.to_path_buf(),
            })
        }
        _ => Ok(()),
    }
}

/// What the first bytes of an executable file say about running it.
#[derive(Debug, PartialEq, Eq)]
enum Head {
    /// A program, a script with a `#!` line, a `.sh` script (run by
    /// `/bin/sh`, as meant), or a file that could not be read (its exec
    /// says why).
    Runs,
    /// A script whose `#!` line ends with `\r\n`.
    WindowsShebang,
    /// Text with no `#!` line (no NUL byte in its first 256 bytes, so not
    /// a binary format the kernel may know), not named `.sh`.
    NoInterpreterLine,
}

fn script_head(path: &Path) -> Head {
    use std::io::Read;
    let mut head = [0u8; 256];
    let Ok(read) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return Head::Runs;
    };
    let head = &head[..read];
    if head.starts_with(b"#!") {
        let cr = head
            .iter()
            .position(|&b| b == b'\n')
            .is_some_and(|end| end > 0 && head[end - 1] == b'\r');
        return if cr { Head::WindowsShebang } else { Head::Runs };
    }
    let shell = path.extension().is_some_and(|e| e == "sh");
    if shell || head.starts_with(b"\x7fELF") || head.contains(&0) {
        return Head::Runs;
    }
    Head::NoInterpreterLine
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

/// `error` told with what the spec most likely meant, when it is about a
/// language: a file that is not executable, of an extension no language
/// takes (`bot.kt`); a program not found whose name is a `LANG:` prefix of
/// no language (`cobol:bot.cob`).
fn explained(error: BotSpecError, languages: &Languages) -> BotSpecError {
    let names = || {
        languages
            .all()
            .iter()
            .map(|l| l.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match error {
        BotSpecError::NotExecutable { spec, path } => {
            let extension = path
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                // A script an interpreter the message names would run.
                .filter(|e| interpreter_of(&path) == "python3" && e != "py");
            match extension {
                Some(extension) => BotSpecError::UnknownExtension {
                    spec,
                    path,
                    extension,
                    languages: names(),
                },
                None => BotSpecError::NotExecutable { spec, path },
            }
        }
        BotSpecError::NotInPath {
            spec,
            program,
            here: None,
        } => {
            let prefix = program
                .split_once(':')
                .map(|(name, _)| name)
                .filter(|name| {
                    !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"+-_#".contains(&b))
                });
            match prefix {
                Some(name) => BotSpecError::UnknownLanguage {
                    spec,
                    name: name.to_string(),
                    languages: names(),
                },
                None => BotSpecError::NotInPath {
                    spec,
                    program,
                    here: None,
                },
            }
        }
        other => other,
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_or_prefix_of_no_language_is_said_so() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.kt"), "fun main() {}").unwrap();
        std::fs::write(dir.path().join("run.sh"), "exit 0").unwrap();
        let languages = super::Languages::built_in();
        let parse = |spec: &str| {
            super::BotCommand::parse_relative_to(spec, dir.path(), &languages)
                .unwrap_err()
                .to_string()
        };
        let kotlin = parse("./bot.kt");
        assert!(
            kotlin.contains("no language builds or runs .kt files")
                && kotlin.contains("[languages.NAME]"),
            "{kotlin}"
        );
        let cobol = parse("cobol:bot.cob");
        assert!(
            cobol.contains("no language is named 'cobol'") && cobol.contains("python"),
            "{cobol}"
        );
        // A script its interpreter would run is told to name it.
        assert!(parse("./run.sh").contains("\"sh "), "{}", parse("./run.sh"));
        assert!(parse("nosuchprogram").contains("not found in PATH"));
    }

    #[test]
    fn a_bot_reads_back_what_is_made_from_it_but_no_other_bot() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        for name in [
            "a.py",
            "a.py~",
            "A_data.txt",
            "a_team.py",
            "a_team.py~",
            "a_team_weights.txt",
        ] {
            std::fs::write(folder.join(name), "x").unwrap();
        }
        let own = |name: &str| {
            let mut found: Vec<String> = super::own_derived_files(&folder.join(name))
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect();
            found.sort();
            found
        };
        assert_eq!(own("a.py"), ["A_data.txt", "a.py~"]);
        assert_eq!(own("a_team.py"), ["a_team.py~", "a_team_weights.txt"]);
        // Hidden from the others: all that is named after it.
        let mut hidden: Vec<String> = super::derived_files(&folder.join("a.py"))
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        hidden.sort();
        assert_eq!(
            hidden,
            [
                "A_data.txt",
                "a.py~",
                "a_team.py",
                "a_team.py~",
                "a_team_weights.txt"
            ]
        );
    }

    #[test]
    fn what_is_made_from_a_bot_by_name_beside_it_is_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        std::fs::create_dir(folder.join("__pycache__")).unwrap();
        let mine = [
            "alice.py~",
            "#alice.py#",
            ".alice.py.swp",
            "alice.py.bak",
            "alice-old.py",
            "Alice.py.BAK",
            "alice",
            "__pycache__/alice.cpython-311.pyc",
            "Copy of alice.py",
            "old_ALICE.py",
            "backup-alice.py~",
        ];
        let others = [
            "alice2.py",
            "alicebot.py",
            "bob.py",
            "teamalice.py",
            "my_alice.pyc",
            "__pycache__/bob.cpython-311.pyc",
        ];
        for name in ["alice.py"].iter().chain(&mine).chain(&others) {
            std::fs::write(folder.join(name), "x").unwrap();
        }
        let mut found = super::derived_files(&folder.join("alice.py"));
        found.sort();
        let mut expected: Vec<_> = mine.iter().map(|name| folder.join(name)).collect();
        expected.sort();
        assert_eq!(found, expected);
    }

    use super::*;

    #[test]
    fn python_files_are_sources_of_python() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("my_bot.py");
        std::fs::write(&script, "print()").unwrap();
        let cmd = BotCommand::parse(script.to_str().unwrap(), &Languages::built_in()).unwrap();
        assert_eq!(cmd.source, Some(script.canonicalize().unwrap()));
        assert_eq!(cmd.name, "my_bot");
        assert!(cmd.args.is_empty());
        assert_eq!(cmd.language, Language::named("python"));
    }

    #[test]
    fn folders_are_bots_by_their_marker_or_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let bot = dir.path().join("my_java_bot");
        std::fs::create_dir(&bot).unwrap();
        let err = BotCommand::parse(bot.to_str().unwrap(), &Languages::built_in()).unwrap_err();
        assert!(matches!(err, BotSpecError::NoEntryPoint { .. }), "{err}");
        assert!(err.to_string().contains("Main.java (java)"), "{err}");
        std::fs::write(bot.join("Main.java"), "class Main {}").unwrap();
        let cmd =
            BotCommand::parse(&format!("java:{}", bot.display()), &Languages::built_in()).unwrap();
        assert_eq!(cmd.language, Language::named("java"));
        assert_eq!(cmd.name, "my_java_bot");
        assert_eq!(cmd.source, Some(bot.canonicalize().unwrap()));
        let err = BotCommand::parse(&format!("go:{}", bot.display()), &Languages::built_in())
            .unwrap_err();
        assert!(err.to_string().contains("main.go (go)"), "{err}");
        assert!(err.to_string().contains("for go"), "{err}");
        // A Cargo folder without its entry.
        let rust = dir.path().join("crate");
        std::fs::create_dir(&rust).unwrap();
        std::fs::write(rust.join("Cargo.toml"), "").unwrap();
        let err = BotCommand::parse(rust.to_str().unwrap(), &Languages::built_in()).unwrap_err();
        assert!(err.to_string().contains("src/main.rs"), "{err}");
    }

    #[test]
    fn c_sources_are_compiled_and_big_ones_refused() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("bot.cpp");
        std::fs::write(&source, "int main(){}").unwrap();
        let cmd = BotCommand::parse(source.to_str().unwrap(), &Languages::built_in()).unwrap();
        assert_eq!(cmd.language, Language::named("cpp"));
        assert_eq!(
            cmd.source.as_deref(),
            Some(source.canonicalize().unwrap().as_path())
        );
        assert_eq!(cmd.name, "bot");

        let big = dir.path().join("big.c");
        std::fs::write(&big, vec![b' '; MAX_SOURCE_BYTES as usize]).unwrap();
        let err = BotCommand::parse(big.to_str().unwrap(), &Languages::built_in()).unwrap_err();
        assert!(matches!(err, BotSpecError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("1 MiB"));
    }

    #[test]
    fn a_language_prefix_overrides_detection() {
        let cmd = BotCommand::parse("python:sh -c true", &Languages::built_in()).unwrap();
        assert_eq!(cmd.language, Language::named("python"));
        assert_eq!(
            BotCommand::parse("sh -c true", &Languages::built_in())
                .unwrap()
                .language,
            Language::native()
        );
    }

    #[test]
    fn command_lines_are_split_and_named_after_the_script() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("other.py");
        std::fs::write(&script, "print()").unwrap();
        let cmd = BotCommand::parse(
            &format!("python3 -u '{}' --fast", script.display()),
            &Languages::built_in(),
        )
        .unwrap();
        assert_eq!(cmd.name, "other");
        assert_eq!(cmd.args.len(), 3);
    }

    #[test]
    fn an_executable_is_read_for_what_runs_it() {
        let dir = tempfile::tempdir().unwrap();
        let head = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            script_head(&path)
        };
        assert_eq!(head("a", b"#!/usr/bin/env python3\n"), Head::Runs);
        assert_eq!(
            head("b", b"#!/usr/bin/env python3\r\n"),
            Head::WindowsShebang
        );
        assert_eq!(head("c", b"\x7fELF\x02\x01\x01"), Head::Runs);
        // A binary format of binfmt_misc (a jar, a PE file) holds NULs.
        assert_eq!(head("d", b"MZ\x90\x00\x03"), Head::Runs);
        assert_eq!(head("e", b"import sys\n"), Head::NoInterpreterLine);
        assert_eq!(head("f", b""), Head::NoInterpreterLine);
        assert_eq!(head("g.sh", b"exec ./bot\n"), Head::Runs);
        assert_eq!(script_head(&dir.path().join("missing")), Head::Runs);
    }

    #[test]
    fn errors_say_what_to_fix() {
        let err = BotCommand::parse("./no/such/bot", &Languages::built_in()).unwrap_err();
        assert!(matches!(err, BotSpecError::NotFound { .. }));
        assert!(err.to_string().contains("does not exist"));

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        let err = BotCommand::parse(file.to_str().unwrap(), &Languages::built_in()).unwrap_err();
        assert!(err.to_string().contains("chmod +x"), "{err}");

        let err =
            BotCommand::parse("no-such-program-xyz --flag", &Languages::built_in()).unwrap_err();
        assert!(matches!(err, BotSpecError::NotInPath { here: None, .. }));
        // A bare name is looked up in PATH; a file of that name beside the
        // tournament file is named, with the spelling that takes it.
        let err =
            BotCommand::parse_relative_to("bot", dir.path(), &Languages::built_in()).unwrap_err();
        assert!(err.to_string().contains("write ./bot"), "{err}");
        assert!(matches!(
            BotCommand::parse("  ", &Languages::built_in()),
            Err(BotSpecError::Empty)
        ));
        assert!(matches!(
            BotCommand::parse("python3 'unclosed", &Languages::built_in()),
            Err(BotSpecError::BadQuoting { .. })
        ));
    }
}
