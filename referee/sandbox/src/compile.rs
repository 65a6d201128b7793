//! Making a source bot ready to run: compiling it with its language's
//! compile command (if it has one), then filling in its run command (see
//! `language.rs` for the placeholders).
//!
//! The compiler is as untrusted as the source it reads: it is started
//! through the launcher like a bot, in the same sandbox, with a time,
//! memory and output cap, and killed with the referee. Its output goes to
//! a cache keyed by the sources' content, the language's compile command,
//! and the compiler's identity (its real path and version line), so a
//! tournament compiles each bot once, and a new compiler builds anew.
//!
//! The cache directory is `$REFEREE_CACHE`, else `$XDG_CACHE_HOME/referee`,
//! else `~/.cache/referee`. A build is made in a private temporary
//! directory there and renamed into place, so parallel games never see a
//! half-written one. A source that does not compile is the bot's fault (the
//! `compile` verdict, with the compiler's message), remembered for the rest
//! of the process so that a tournament does not compile it again for each
//! game; a missing compiler or an unwritable cache is the referee's (an
//! `Err`).

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::language::{find_program, Language};
use super::spec::BotCommand;

/// Time a compiler gets for one bot unless its language says otherwise.
pub const COMPILE_LIMIT: Duration = Duration::from_secs(60);
/// Compiler output kept for the log.
const MAX_MESSAGE_BYTES: u64 = 16 * 1024;
/// Lines of the compiler's message in the verdict's detail.
const DETAIL_LINES: usize = 3;
/// The folder, in the compiler's working directory, its output goes to.
const OUT: &str = "referee-out";

/// Why a bot could not be made ready to run.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The bot's fault: the `compile` verdict.
    #[error("does not compile ({compiler} {status}): {first_error}")]
    DoesNotCompile {
        compiler: String,
        status: String,
        /// The compiler's first lines of error.
        first_error: String,
        /// Everything the compiler wrote (capped).
        message: String,
    },
    #[error("does not compile: {compiler} took longer than {}s", limit.as_secs())]
    TooSlow { compiler: String, limit: Duration },
    /// The referee's fault.
    #[error("cannot compile {}: {compiler} could not be run (install it: {install})", source_file.display())]
    NoCompiler {
        compiler: String,
        source_file: PathBuf,
        install: String,
        source: io::Error,
    },
    #[error("cannot use the compile cache {} (set REFEREE_CACHE to a directory of yours that only you may write)", dir.display())]
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

    /// A copy of a verdict (the memo hands one to each game).
    fn verdict_copy(&self) -> Option<CompileError> {
        match self {
            CompileError::DoesNotCompile {
                compiler,
                status,
                first_error,
                message,
            } => Some(CompileError::DoesNotCompile {
                compiler: compiler.clone(),
                status: status.clone(),
                first_error: first_error.clone(),
                message: message.clone(),
            }),
            CompileError::TooSlow { compiler, limit } => Some(CompileError::TooSlow {
                compiler: compiler.clone(),
                limit: *limit,
            }),
            CompileError::NoCompiler { .. } | CompileError::Cache { .. } => None,
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
    // The temporary folder is every user's: a name of this user's own
    // (see `check_cache_folder`).
    std::env::temp_dir().join(format!(
        "referee-cache-{}",
        rustix::process::geteuid().as_raw()
    ))
}

/// Refuses a cache folder another user could write in: a compiled bot
/// found there is run as it is, so whoever could put one there chose what
/// a bot runs (the cache fell back to `/tmp/referee-cache` where `HOME`
/// is unset, as for a service, and any user of the machine could make it
/// first and fill it). The folder must be this user's (or root's) and
/// writable by no one else.
fn check_cache_folder(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(dir)?;
    let own = rustix::process::geteuid().as_raw();
    if meta.uid() != own && meta.uid() != 0 {
        return Err(io::Error::other(format!(
            "it belongs to another user (uid {}), who could replace the bots compiled there",
            meta.uid()
        )));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(io::Error::other(format!(
            "other users may write in it (mode {:o}), and so replace the bots compiled there; \
             `chmod go-w {}` if they are only you",
            meta.mode() & 0o7777,
            dir.display()
        )));
    }
    Ok(())
}

/// A bot ready to spawn: unchanged unless it is a source, then its
/// language's run command (after compiling it, or finding it in the
/// cache). `limit` is the compiler's time.
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
        // A command line (`java -jar bot.jar`, `node bot.js`) gets its
        // language's environment too: the JVM's and Node's heap caps.
        let mut command = command.clone();
        if command.env.is_empty() {
            command.env = (command.language.def().env.iter())
                .map(|(k, v)| (k.into(), v.into()))
                .collect();
        }
        return Ok(command);
    };
    let language = command.language;
    let built = match &language.def().compile {
        Some(compile) => Some(build(command, source, compile, dir, sandbox, limit)?),
        None => None,
    };
    Ok(run_command(command, source, built.as_deref()))
}

/// The command of a source bot: its language's run command, filled in,
/// with the spec's extra words after it.
fn run_command(command: &BotCommand, source: &Path, built: Option<&Path>) -> BotCommand {
    let def = command.language.def();
    let entry = entry_of(source, command.language);
    let main = entry
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let fill = |word: &str| -> String {
        let mut w = word
            .replace("{entry}", &entry.to_string_lossy())
            .replace("{main}", &main);
        if let Some(out) = built {
            w = w.replace("{out}", &out.to_string_lossy());
        }
        w
    };
    let mut words = def.run.iter().map(|w| fill(w));
    let first = words.next().unwrap_or_default();
    let program = if first.contains('/') {
        PathBuf::from(&first)
    } else {
        find_program(&first).unwrap_or_else(|| PathBuf::from(&first))
    };
    let env: Vec<(OsString, OsString)> = def
        .env
        .iter()
        .map(|(k, v)| (k.into(), fill(v).into()))
        .collect();
    let mut args: Vec<OsString> = words.map(OsString::from).collect();
    if def.start_without_site && entry.is_file() {
        if let Some(mut start) = crate::python_start::arguments(&program, &entry, &env) {
            start.append(&mut args);
            args = start;
        }
    }
    args.extend(command.args.iter().cloned());
    // What the bot reads: its build, and its sources when it runs them.
    let mut readable: Vec<PathBuf> = Vec::new();
    readable.extend(built.map(Path::to_path_buf));
    if built.is_none() {
        // A one-file bot's folder, and the file by name (the folder may
        // hold other bots' files, hidden from it: see `launch`).
        if source.is_file() {
            readable.extend(source.parent().map(Path::to_path_buf));
        }
        readable.push(source.to_path_buf());
    }
    BotCommand {
        program,
        args,
        source: None,
        env,
        readable,
        ..command.clone()
    }
}

/// The entry of a source: the file itself, or a folder's entry.
fn entry_of(source: &Path, language: Language) -> PathBuf {
    if source.is_dir() {
        language
            .folder_entry(source)
            .unwrap_or_else(|| source.to_path_buf())
    } else {
        source.to_path_buf()
    }
}

/// Builds (once per process and content) a folder in `dir` holding the
/// compiled bot, and returns it.
fn build(
    command: &BotCommand,
    source: &Path,
    compile: &[String],
    dir: &Path,
    sandbox: &super::Sandbox,
    limit: Duration,
) -> Result<PathBuf, CompileError> {
    let language = command.language;
    let def = language.def();
    let compiler = compile.first().cloned().unwrap_or_default();
    let no_compiler = |e: io::Error| CompileError::NoCompiler {
        compiler: compiler.clone(),
        source_file: source.to_path_buf(),
        install: def.install.clone(),
        source: e,
    };
    let cache_err = |source: io::Error| CompileError::Cache {
        dir: dir.to_path_buf(),
        source,
    };
    // The sources, relative to the folder the compiler sees them in.
    let files: Vec<PathBuf> = if source.is_dir() {
        super::spec::source_files(source, language)
    } else {
        vec![PathBuf::from(source.file_name().unwrap_or_default())]
    };
    let root = if source.is_dir() {
        source.to_path_buf()
    } else {
        source.parent().unwrap_or(Path::new("/")).to_path_buf()
    };
    let mut contents: Vec<(PathBuf, Vec<u8>)> = Vec::with_capacity(files.len());
    for file in &files {
        let text = fs::read(root.join(file)).map_err(&no_compiler)?;
        contents.push((file.clone(), text));
    }
    let compiler_path = find_program(&compiler)
        .ok_or_else(|| no_compiler(io::Error::from(io::ErrorKind::NotFound)))?;
    let mut key: Vec<u8> = format!(
        "referee-compile-v3\0{}\0{}\0{}\0{}\0",
        language.name(),
        compile.join(" "),
        compiler_path.display(),
        language.version()
    )
    .into_bytes();
    for (file, text) in &contents {
        key.extend_from_slice(format!("{}\0{}\0", file.display(), text.len()).as_bytes());
        key.extend_from_slice(text);
    }
    let hash = cache_hash(&key);
    let built = dir.join(format!("{hash}-{}", safe_name(&command.name)));

    // One build per key at a time, and a failure remembered for the
    // process: parallel games of a tournament wait for the first. The
    // compiler's limits are part of the failure (two files read in one
    // process may give the same language different ones).
    let slot = memo_slot(&format!("{hash}\0{limit:?}\0{}", def.compile_memory_kb));
    let mut memo = slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(failure) = &*memo {
        return Err(failure
            .verdict_copy()
            .expect("only verdicts are remembered"));
    }
    // Made writable by this user alone, whatever the umask.
    std::os::unix::fs::DirBuilderExt::mode(fs::DirBuilder::new().recursive(true), 0o755)
        .create(dir)
        .map_err(cache_err)?;
    check_cache_folder(dir).map_err(cache_err)?;
    if built.is_dir() {
        return Ok(built);
    }
    let work = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in(dir)
        .map_err(cache_err)?;
    for (file, text) in &contents {
        let path = work.path().join(file);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(cache_err)?;
        }
        fs::write(&path, text).map_err(cache_err)?;
    }
    // Writable by the compiler, which under strict runs as a user of its
    // own (its working directory, mode 0700, is its alone).
    let out = work.path().join(OUT);
    fs::create_dir(&out).map_err(cache_err)?;
    fs::set_permissions(&out, std::os::unix::fs::PermissionsExt::from_mode(0o777))
        .map_err(cache_err)?;
    let entry = entry_of(source, language);
    let entry_rel = entry.strip_prefix(&root).unwrap_or(&entry).to_path_buf();
    let dotted = |p: &Path| format!("./{}", p.display());
    let mut args: Vec<OsString> = Vec::new();
    for word in &compile[1..] {
        if word == "{sources}" {
            args.extend(files.iter().map(|f| OsString::from(dotted(f))));
        } else {
            args.push(
                word.replace("{source}", &dotted(&entry_rel))
                    .replace("{out}", OUT)
                    .replace(
                        "{main}",
                        &entry.file_stem().unwrap_or_default().to_string_lossy(),
                    )
                    .into(),
            );
        }
    }
    let run = CompilerRun {
        compiler: &compiler,
        install: &def.install,
        program: compiler_path,
        args,
        env: def.env.iter().map(|(k, v)| (k.into(), v.into())).collect(),
        memory_kb: def.compile_memory_kb,
        limit,
    };
    // The compiler's message names the copies; the user is shown the files.
    let shown: Vec<(String, String)> = files
        .iter()
        .map(|f| (dotted(f), root.join(f).display().to_string()))
        .collect();
    match run_compiler(&run, work, (&root, &shown), &built, sandbox) {
        Ok(()) => Ok(built),
        Err(e) => {
            if let Some(copy) = e.verdict_copy() {
                *memo = Some(copy);
            }
            Err(e)
        }
    }
}

/// A name safe as part of a file name.
fn safe_name(name: &str) -> String {
    crate::text::name_chars(name, &['-', '_', '.'], 64)
}

/// The lock of one build key, holding its remembered failure.
type MemoSlot = Arc<Mutex<Option<CompileError>>>;

/// The slot of a build key (made on first use).
fn memo_slot(key: &str) -> MemoSlot {
    static SLOTS: OnceLock<Mutex<HashMap<String, MemoSlot>>> = OnceLock::new();
    let slots = SLOTS.get_or_init(Default::default);
    let mut slots = slots
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    slots.entry(key.to_string()).or_default().clone()
}

/// One compiler run: what and how.
struct CompilerRun<'a> {
    /// As the language names it (for messages).
    compiler: &'a str,
    /// What to install when it cannot be run.
    install: &'a str,
    program: PathBuf,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    memory_kb: u64,
    limit: Duration,
}

/// What a compiler's working folder may hold (the sources, its caches and
/// its output).
const COMPILER_DISK_KB: u64 = 256 * 1024;

/// Runs the compiler through the launcher like a bot, in the sandbox of
/// the game, with processes allowed (cc1, as, ld; go's compile and link),
/// its language's memory cap (resident, and an address space of this plus
/// 1 GiB per process), its output capped, and killed with the referee.
fn run_compiler(
    run: &CompilerRun<'_>,
    work: tempfile::TempDir,
    (original_root, shown): (&Path, &[(String, String)]),
    built: &Path,
    sandbox: &super::Sandbox,
) -> Result<(), CompileError> {
    let cache_err = |e: io::Error| CompileError::Cache {
        dir: built.parent().unwrap_or(Path::new(".")).to_path_buf(),
        source: e,
    };
    let command = BotCommand {
        spec: run.compiler.to_string(),
        name: run.compiler.to_string(),
        program: run.program.clone(),
        args: run.args.clone(),
        language: Language::native(),
        source: None,
        env: run.env.clone(),
        readable: Vec::new(),
    };
    let limits = super::ProcessLimits {
        memory_kb: run.memory_kb,
        max_output_bytes: MAX_MESSAGE_BYTES as usize,
        stderr_cap_bytes: MAX_MESSAGE_BYTES as usize,
        max_line_bytes: 4096,
        sandbox: sandbox.clone(),
        allow_fork: true,
        compiler: true,
        disk_kb: COMPILER_DISK_KB,
        ..super::ProcessLimits::default()
    };
    let started = Instant::now();
    let mut process = super::BotProcess::spawn_in(&command, &limits, work).map_err(|e| {
        CompileError::NoCompiler {
            compiler: run.compiler.to_string(),
            source_file: original_root.to_path_buf(),
            install: run.install.to_string(),
            source: e,
        }
    })?;
    // No input: it reads its sources, writes its output and exits. Its
    // stdout is read (within the cap) while it runs.
    let report = process.shut_down(run.limit);
    if started.elapsed() >= run.limit {
        return Err(CompileError::TooSlow {
            compiler: run.compiler.to_string(),
            limit: run.limit,
        });
    }
    let out = process.workdir().join(OUT);
    let produced = fs::read_dir(&out).is_ok_and(|mut d| d.next().is_some());
    if report.exit == Some(super::Exit::Code(0)) && produced {
        return match fs::rename(&out, built) {
            Ok(()) => {
                make_own(built);
                Ok(())
            }
            // Another referee process built it meanwhile.
            Err(_) if built.is_dir() => Ok(()),
            Err(e) => Err(cache_err(e)),
        };
    }
    let message: String = process
        .take_stderr()
        .into_iter()
        .map(|l| match l.left_out {
            0 => l.line + "\n",
            n => format!("[... {n} lines left out ...]\n{}\n", l.line),
        })
        .collect();
    // The message names the private copies; show the user's files instead.
    let private = format!("{}/", process.workdir().display());
    let mut message = message.replace(&private, "./");
    for (copy, original) in shown {
        message = message.replace(copy.as_str(), original);
    }
    let status = match report.exit {
        Some(super::Exit::Code(0)) => "exited with status 0 without output".to_string(),
        Some(exit) => exit.to_string(),
        None => "ended".into(),
    };
    Err(CompileError::DoesNotCompile {
        compiler: run.compiler.to_string(),
        status,
        first_error: first_lines(&message),
        message: message.trim_end().to_string(),
    })
}

/// The referee's own, and writable by nobody else: a build made by a
/// compiler of another user (strict) is handed to the referee's user.
fn make_own(folder: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let (uid, gid) = (
        rustix::process::geteuid().as_raw(),
        rustix::process::getegid().as_raw(),
    );
    let mut queue = vec![folder.to_path_buf()];
    while let Some(path) = queue.pop() {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            let _ = fs::remove_file(&path);
            continue;
        }
        let _ = std::os::unix::fs::lchown(&path, Some(uid), Some(gid));
        let mode = meta.permissions().mode() & 0o755;
        let _ = fs::set_permissions(&path, fs::Permissions::from_mode(mode));
        if meta.is_dir() {
            if let Ok(entries) = fs::read_dir(&path) {
                queue.extend(entries.flatten().map(|e| e.path()));
            }
        }
    }
}

/// The first lines of a compiler's message worth showing: from its first
/// line that speaks of an error (else its first line that is not a
/// heading such as go's `# command-line-arguments`), a few lines, joined.
fn first_lines(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let start = lines
        .iter()
        .position(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| lines.iter().position(|l| !l.starts_with('#')))
        .unwrap_or(0);
    let shown: Vec<&str> = lines
        .iter()
        .skip(start)
        .take(DETAIL_LINES)
        .map(|l| l.trim())
        .collect();
    if shown.is_empty() {
        "(no message)".into()
    } else {
        shown.join(" | ")
    }
}

/// The cache's name for a build: the first 128 bits of the SHA-256 of its
/// key, in hex. The cache outlives a tournament and is shared by every bot
/// of the machine, so the hash must resist a contestant who crafts a source
/// to collide with another bot's (a public sample bot's, say) and have the
/// referee run their binary in its place: a cryptographic hash, not FNV.
fn cache_hash(key: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    crate::text::hex(&Sha256::digest(key)[..16])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache folder others may write in, or another user's, is refused:
    /// a compiled bot found there is run as it is.
    #[test]
    fn a_cache_folder_others_may_write_in_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        fs::create_dir(&cache).unwrap();
        fs::set_permissions(&cache, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(check_cache_folder(&cache).is_ok());
        fs::set_permissions(&cache, fs::Permissions::from_mode(0o1777)).unwrap();
        let refused = check_cache_folder(&cache).unwrap_err().to_string();
        assert!(refused.contains("other users may write"), "{refused}");
        if rustix::process::geteuid().is_root() {
            fs::set_permissions(&cache, fs::Permissions::from_mode(0o755)).unwrap();
            rustix::fs::chown(&cache, Some(rustix::process::Uid::from_raw(65534)), None).unwrap();
            let refused = check_cache_folder(&cache).unwrap_err().to_string();
            assert!(refused.contains("another user"), "{refused}");
        }
    }

    #[test]
    fn hash_is_stable_and_content_sensitive() {
        // SHA-256 of the empty string, its first 16 bytes.
        assert_eq!(cache_hash(b""), "e3b0c44298fc1c149afbf4c8996fb924");
        assert_ne!(cache_hash(b"int main(){}"), cache_hash(b"int main(){ }"));
    }

    #[test]
    fn the_detail_shows_the_first_error_lines() {
        let gcc = "bot.c: In function 'main':\nbot.c:1:14: error: 'nope' undeclared\n    1 | int main() { return nope; }\n      |              ^~~~\nmore\n";
        assert_eq!(
            first_lines(gcc),
            "bot.c:1:14: error: 'nope' undeclared | 1 | int main() { return nope; } | |              ^~~~"
        );
        let go = "# command-line-arguments\n./x.go:3:2: undefined: foo\n";
        assert_eq!(first_lines(go), "./x.go:3:2: undefined: foo");
        assert_eq!(first_lines(""), "(no message)");
    }
}
