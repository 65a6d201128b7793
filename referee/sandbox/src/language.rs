//! Languages as configuration. A language says how a bot written in it is
//! recognised (a file extension, or a folder holding a marker file), how it
//! is compiled (if at all) and run, and what its limits are: a time
//! multiplier (contests give slower runtimes more time per move: Cryptron
//! gives 2 s to C and C++, 6 s to Python), a memory allowance (the runtime's
//! own resident baseline, granted on top of the memory limit), and a time
//! and memory limit for its compiler.
//!
//! Seven languages are built in ([`built_in`]: C, C++, Python, Java,
//! JavaScript, Go, Rust), plus `native` for a ready-made executable. A
//! tournament or check file adds or overrides languages in
//! `[languages.NAME]` tables ([`LanguageTable`]), into that file's own
//! table of languages ([`Languages`]): lookups go through a table, never
//! through the process. A BOT spec names its
//! language with a `LANG:` prefix (`java:path/`, `python:./launcher`).
//!
//! Commands are templates of words. In them:
//! - `{source}`: the entry file, relative to the compiler's folder;
//! - `{sources}`: every source file of the bot (one word each);
//! - `{out}`: the folder the compiler writes into (at run time, the cached
//!   copy of it);
//! - `{entry}`: the entry (file, or folder) as the user gave it, absolute;
//! - `{main}`: the entry file's stem (a Java class name);
//! - `{memory_mb}`: the memory cap in MiB (limit plus allowance), for a
//!   runtime's own heap flag.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use serde::Deserialize;

/// One language: how it is recognised, built, run and limited.
#[derive(Clone, Debug, PartialEq)]
pub struct LanguageDef {
    /// The name in specs (`java:`), files and tables.
    pub name: String,
    /// Other names accepted for it (`c++`, `py`).
    pub aliases: Vec<String>,
    /// Source file extensions, without the dot.
    pub extensions: Vec<String>,
    /// Files whose presence makes a folder a bot in this language.
    pub markers: Vec<String>,
    /// The entry of a folder bot, relative to it (`src/main.rs`; `.` for
    /// the folder itself); none: the marker found.
    pub entry: Option<String>,
    /// The compile command, if the language is compiled.
    pub compile: Option<Vec<String>>,
    /// The run command.
    pub run: Vec<String>,
    /// Environment given to the compiler and the bot, on top of the
    /// referee's clean one.
    pub env: Vec<(String, String)>,
    /// Scales the contest's time per move (Cryptron: 2 s times this).
    pub time_multiplier: f64,
    /// Resident memory the runtime uses by itself, granted on top of the
    /// memory limit, in KiB.
    pub memory_allowance_kb: u64,
    /// Address space the runtime may reserve beyond its memory cap, in
    /// KiB: reserved, not used (see [`crate::ADDRESS_SPACE_ALLOWANCE`]).
    pub address_space_allowance_kb: u64,
    /// Time the compiler gets for one bot.
    pub compile_time: Duration,
    /// Resident memory the compiler may use, in KiB.
    pub compile_memory_kb: u64,
    /// What to install when the toolchain is missing.
    pub install: String,
    /// A command that prints the toolchain's version (its first line is
    /// kept); none: the compile (else run) command's program with
    /// `--version`.
    pub version: Option<Vec<String>>,
    /// How to flush stdout in this language, for a bot that timed out
    /// while its reply may sit in its buffer.
    pub flush_hint: String,
    /// The run command is CPython's on a script: start it without `site`
    /// (see `python_start`). The built-in `python` only, and only while
    /// its `run` is not set by a table.
    pub start_without_site: bool,
}

/// A language: a handle on its definition (built in, or added to a table
/// from a file), compared by name.
#[derive(Clone, Copy)]
pub struct Language(&'static LanguageDef);

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Language {}

impl std::hash::Hash for Language {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Language({})", self.0.name)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.name)
    }
}

fn words(text: &str) -> Vec<String> {
    shell_words::split(text).expect("built-in commands are well quoted")
}

const MIB: u64 = 1024;

/// The flags every JVM of the referee's gets (the bot's `java`, and
/// `javac` through `-J`): the serial collector (one GC thread, no
/// per-CPU reservations), and reservations sized so that the whole
/// address space fits the sandbox's cap (see protocol.md, §6).
const JVM_FLAGS: &[&str] = &[
    "-XX:+UseSerialGC",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:MaxMetaspaceSize=128m",
    "-XX:-UsePerfData",
    "-Xshare:auto",
];

/// The built-in languages. The allowances are measured (protocol.md, §6,
/// "Limits"): the peak resident size of a program that reads one line and
/// prints its own `VmHWM`, under the run command below, rounded up.
pub fn built_in() -> Vec<LanguageDef> {
    let flush = |how: &str| {
        format!(
            "if the reply was printed, it may be stuck in stdout's buffer: flush stdout after \
             every line ({how})"
        )
    };
    let jvm = JVM_FLAGS.join(" ");
    let javac_jvm: String = JVM_FLAGS
        .iter()
        .map(|f| format!("-J{f}"))
        .collect::<Vec<_>>()
        .join(" ");
    let base = LanguageDef {
        name: String::new(),
        aliases: vec![],
        extensions: vec![],
        markers: vec![],
        entry: None,
        compile: None,
        run: words("{out}/bot"),
        env: vec![],
        time_multiplier: 1.0,
        memory_allowance_kb: 4 * MIB,
        address_space_allowance_kb: crate::ADDRESS_SPACE_ALLOWANCE / 1024,
        compile_time: Duration::from_secs(60),
        compile_memory_kb: 512 * MIB,
        install: String::new(),
        version: None,
        flush_hint: String::new(),
        start_without_site: false,
    };
    vec![
        LanguageDef {
            name: "c".into(),
            extensions: vec!["c".into()],
            markers: vec!["main.c".into()],
            compile: Some(words(
                "gcc -O2 -std=gnu11 -fmax-errors=20 -o {out}/bot {sources} -lm",
            )),
            install: "apt-get install gcc (or build-essential)".into(),
            flush_hint: flush(
                "`fflush(stdout);` after each `printf`, or `setvbuf(stdout, NULL, _IOLBF, 0);` once at start",
            ),
            ..base.clone()
        },
        LanguageDef {
            name: "cpp".into(),
            aliases: vec!["c++".into(), "cxx".into()],
            extensions: vec!["cpp".into(), "cc".into(), "cxx".into(), "c++".into()],
            markers: vec!["main.cpp".into(), "main.cc".into()],
            compile: Some(words(
                "g++ -O2 -std=gnu++17 -fmax-errors=20 -o {out}/bot {sources} -lm",
            )),
            memory_allowance_kb: 6 * MIB,
            install: "apt-get install g++ (or build-essential)".into(),
            flush_hint: flush("`std::cout << reply << std::endl;`, or `<< std::flush`"),
            ..base.clone()
        },
        LanguageDef {
            name: "python".into(),
            aliases: vec!["python3".into(), "py".into()],
            extensions: vec!["py".into()],
            markers: vec!["main.py".into()],
            run: words("python3 {entry}"),
            env: vec![
                ("PYTHONUNBUFFERED".into(), "1".into()),
                ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
            ],
            time_multiplier: 3.0,
            memory_allowance_kb: 16 * MIB,
            install: "apt-get install python3".into(),
            flush_hint: flush("`print(reply, flush=True)`"),
            start_without_site: true,
            ..base.clone()
        },
        LanguageDef {
            name: "java".into(),
            extensions: vec!["java".into()],
            markers: vec!["Main.java".into()],
            compile: Some(words(&format!(
                "javac {javac_jvm} -J-Xmx384m -encoding UTF-8 -d {{out}} {{sources}}"
            ))),
            run: words(&format!("java {jvm} -Xmx{{memory_mb}}m -cp {{out}} {{main}}")),
            // The launcher's own variable carries the same flags to a bot
            // given as a command line (`java -jar bot.jar`), which the run
            // command above does not build.
            env: vec![
                ("MALLOC_ARENA_MAX".into(), "2".into()),
                (
                    "JDK_JAVA_OPTIONS".into(),
                    format!("{jvm} -Xmx{{memory_mb}}m"),
                ),
            ],
            time_multiplier: 2.0,
            memory_allowance_kb: 64 * MIB,
            compile_memory_kb: 1024 * MIB,
            install: "apt-get install default-jdk-headless".into(),
            version: Some(words("javac -version")),
            flush_hint: flush(
                "`System.out.println(reply); System.out.flush();`, or a `PrintWriter`'s `flush()`",
            ),
            ..base.clone()
        },
        LanguageDef {
            name: "javascript".into(),
            aliases: vec!["js".into(), "node".into()],
            extensions: vec!["js".into(), "mjs".into(), "cjs".into()],
            markers: vec!["package.json".into(), "index.js".into()],
            entry: Some(".".into()),
            run: words("node --max-old-space-size={memory_mb} {entry}"),
            // The same cap for a bot given as a command line (`node bot.js`);
            // two malloc arenas, as for Java: each thread's arena reserves
            // 64 MiB of address space.
            env: vec![
                (
                    "NODE_OPTIONS".into(),
                    "--max-old-space-size={memory_mb}".into(),
                ),
                ("MALLOC_ARENA_MAX".into(), "2".into()),
            ],
            time_multiplier: 2.0,
            memory_allowance_kb: 56 * MIB,
            // Node reserves 730 MiB of address space by itself, and each
            // `worker_threads` worker 540 MiB more (its own 512 MiB code
            // range): room for eight workers.
            address_space_allowance_kb: crate::ADDRESS_SPACE_ALLOWANCE / 1024 + 8 * 512 * MIB,
            install: "apt-get install nodejs".into(),
            flush_hint: flush(
                "`process.stdout.write(reply + \"\\n\")` writes at once; do not wait on a timer or `setImmediate` before replying",
            ),
            ..base.clone()
        },
        LanguageDef {
            name: "go".into(),
            aliases: vec!["golang".into()],
            extensions: vec!["go".into()],
            markers: vec!["main.go".into()],
            compile: Some(words("go build -o {out}/bot {sources}")),
            env: vec![
                ("CGO_ENABLED".into(), "0".into()),
                ("GOTOOLCHAIN".into(), "local".into()),
                ("GOPROXY".into(), "off".into()),
                ("GOFLAGS".into(), "-mod=mod".into()),
            ],
            memory_allowance_kb: 8 * MIB,
            compile_memory_kb: 1024 * MIB,
            install: "apt-get install golang-go".into(),
            version: Some(words("go version")),
            flush_hint: flush("a `bufio.Writer`'s `Flush()` after every line"),
            ..base.clone()
        },
        LanguageDef {
            name: "rust".into(),
            aliases: vec!["rs".into()],
            extensions: vec!["rs".into()],
            markers: vec!["Cargo.toml".into()],
            entry: Some("src/main.rs".into()),
            compile: Some(words("rustc -O --edition 2021 -o {out}/bot {source}")),
            compile_memory_kb: 1536 * MIB,
            install: "rustup (https://rustup.rs), or apt-get install rustc".into(),
            flush_hint: flush(
                "`std::io::stdout().flush()`, or `writeln!` on a locked stdout followed by `flush()`",
            ),
            ..base.clone()
        },
        LanguageDef {
            name: "native".into(),
            aliases: vec!["exe".into()],
            run: vec![],
            install: String::new(),
            flush_hint: flush(
                "Rust: `std::io::stdout().flush()`, Go: a `bufio.Writer`'s `Flush()`, C: `fflush(stdout)`",
            ),
            ..base
        },
    ]
}

/// The built-in definitions, made once: they never change, so every
/// table shares them.
fn built_in_defs() -> &'static [&'static LanguageDef] {
    static BUILT_IN: OnceLock<Vec<&'static LanguageDef>> = OnceLock::new();
    BUILT_IN.get_or_init(|| {
        built_in()
            .into_iter()
            .map(|def| &*Box::leak(Box::new(def)))
            .collect()
    })
}

/// A table of languages: the built-in ones, and those a tournament or check
/// file adds or overrides. Every lookup by name, extension or marker goes
/// through a table, so two files read in one process never see each
/// other's `[languages.NAME]` tables. A table belongs to what it was made
/// for: the [`crate::Arena`] of a command, a tournament's or a check's plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Languages {
    /// Built-in ones first, then those added, in the order added.
    known: Vec<Language>,
}

impl Default for Languages {
    fn default() -> Self {
        Languages::built_in()
    }
}

impl Languages {
    /// The built-in languages alone.
    pub fn built_in() -> Languages {
        Languages {
            known: built_in_defs().iter().copied().map(Language).collect(),
        }
    }

    /// Adds `def`, in place of a language of the same name. A definition
    /// lives as long as the process (a few per file read), so that a
    /// [`Language`] stays a plain handle whatever table it came from.
    pub fn add(&mut self, def: LanguageDef) -> Language {
        let added = Language(Box::leak(Box::new(def)));
        match self.known.iter().position(|l| l.0.name == added.0.name) {
            Some(i) => self.known[i] = added,
            None => self.known.push(added),
        }
        added
    }

    /// Every language of the table, built-in ones first.
    pub fn all(&self) -> Vec<Language> {
        self.known.clone()
    }

    /// A language by name or alias (any case).
    pub fn from_name(&self, name: &str) -> Option<Language> {
        let name = name.to_ascii_lowercase();
        self.known
            .iter()
            .copied()
            .find(|l| l.0.name == name || l.0.aliases.contains(&name))
    }

    /// A language the table is known to have (a built-in one): for code
    /// that names one.
    pub fn named(&self, name: &str) -> Language {
        self.from_name(name)
            .unwrap_or_else(|| panic!("no language '{name}'"))
    }

    /// The language of a source file by its extension, if it is one.
    pub fn of_source(&self, path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?;
        self.known
            .iter()
            .copied()
            .find(|l| l.0.extensions.iter().any(|e| e == ext))
    }

    /// The language of a folder bot, and its entry: the first language
    /// (or only `forced`) one of whose markers the folder holds.
    pub fn of_folder(&self, dir: &Path, forced: Option<Language>) -> Option<(Language, PathBuf)> {
        match forced {
            Some(lang) => lang.folder_entry(dir).map(|entry| (lang, entry)),
            None => self
                .known
                .iter()
                .find_map(|&lang| lang.folder_entry(dir).map(|entry| (lang, entry))),
        }
    }

    /// The language of a bot run as `program args...`: a script's extension
    /// wins, then an interpreter a language runs its bots with (`python3`,
    /// `node`, `java`) or a script of such a language among the arguments,
    /// else a native executable.
    pub fn detect(&self, program: &Path, args: &[String]) -> Language {
        if let Some(lang) = self.of_source(program) {
            return lang;
        }
        let name = program.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let runs_with = |lang: &&Language| {
            lang.0.run.first().is_some_and(|word| {
                let runner = word.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
                !runner.is_empty() && !runner.contains(['{', '/']) && name.starts_with(runner)
            })
        };
        if let Some(lang) = self.known.iter().find(runs_with) {
            return *lang;
        }
        self.known
            .iter()
            .copied()
            .filter(|l| !l.is_compiled())
            .find(|l| args.iter().any(|a| l.takes_source(Path::new(a))))
            .unwrap_or_else(|| self.named("native"))
    }
}

impl Language {
    pub fn def(self) -> &'static LanguageDef {
        self.0
    }

    pub fn name(self) -> &'static str {
        &self.0.name
    }

    /// A built-in language, by name: for code that names one (a table
    /// may override it: look it up there when the table is at hand).
    pub fn named(name: &str) -> Language {
        Languages::built_in().named(name)
    }

    /// A ready-made executable of no particular language (built in).
    pub fn native() -> Language {
        Language::named("native")
    }

    /// Does this language take `path` as a source file (its extension)?
    pub fn takes_source(self, path: &Path) -> bool {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|ext| self.0.extensions.iter().any(|e| e == ext))
    }

    /// The entry of folder `dir` as a bot of this language, if the folder
    /// holds one of its markers.
    pub fn folder_entry(self, dir: &Path) -> Option<PathBuf> {
        let marker = self.0.markers.iter().find(|m| dir.join(m).is_file())?;
        Some(match &self.0.entry {
            Some(e) if e == "." => dir.to_path_buf(),
            Some(e) => dir.join(e),
            None => dir.join(marker),
        })
    }

    /// Must the referee compile a source in this language before the game?
    pub fn is_compiled(self) -> bool {
        self.0.compile.is_some()
    }

    /// Time per move of the contest rules (Cryptron): 2 s times the
    /// language's multiplier (6 s for Python).
    pub fn contest_time_limit(self) -> Duration {
        Duration::from_secs(2).mul_f64(self.0.time_multiplier.max(0.1))
    }

    /// Resident memory a do-nothing program in this language already uses,
    /// rounded up: the memory limit counts what a bot uses beyond it.
    pub fn memory_allowance_kb(self) -> u64 {
        self.0.memory_allowance_kb
    }

    /// Address space the runtime may reserve beyond its memory cap.
    pub fn address_space_allowance_kb(self) -> u64 {
        self.0.address_space_allowance_kb
    }

    /// The programs the language needs: its compiler's and its runner's
    /// first words that are not placeholders.
    pub fn programs(self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for command in self.0.compile.iter().chain(std::iter::once(&self.0.run)) {
            if let Some(first) = command.first() {
                if !first.contains('{') && !out.contains(&first.as_str()) {
                    out.push(first);
                }
            }
        }
        out
    }
}

/// A `[languages.NAME]` table of a tournament or check file. Every field is
/// optional when it overrides a built-in language (the rest is kept); a new
/// language needs `run` and a way to be recognised.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageTable {
    pub aliases: Option<Vec<String>>,
    pub extensions: Option<Vec<String>>,
    pub markers: Option<Vec<String>>,
    pub entry: Option<String>,
    /// A command line (split as a shell would, no shell run); `""` for no
    /// compile step.
    pub compile: Option<String>,
    pub run: Option<String>,
    pub env: Option<BTreeMap<String, String>>,
    pub time_multiplier: Option<f64>,
    pub memory_allowance: Option<String>,
    pub address_space_allowance: Option<String>,
    pub compile_time_limit: Option<String>,
    pub compile_memory_limit: Option<String>,
    pub install: Option<String>,
    pub version: Option<String>,
    pub flush_hint: Option<String>,
}

/// Why a `[languages.NAME]` table makes no language: the field at fault
/// and what to write instead. (A value's own fault is said in the text,
/// not as a cause: the text is all a file's reader sees, at its line.)
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LanguageError {
    #[error("'{0}' is not a language name: use letters, digits and _-+#.")]
    Name(String),
    #[error("{field}: cannot split '{text}': {why}")]
    Words {
        field: &'static str,
        text: String,
        why: String,
    },
    #[error("time_multiplier: {0} is out of range; use a number from 0.1 to 100")]
    TimeMultiplier(f64),
    #[error("{field}: {why}")]
    Unit {
        field: &'static str,
        why: crate::units::UnitError,
    },
    #[error("run: missing; say how a bot is run, e.g. run = \"{{out}}/bot\"")]
    NoRun,
    #[error(
        "extensions and markers: neither is set; say how a bot is recognised, e.g. \
         extensions = [\"kt\"]"
    )]
    NotRecognised,
    #[error("run: uses {{out}} but there is no compile command to fill it")]
    OutNeverFilled,
    #[error("compile: never names {{out}}, the folder its output must go to")]
    CompileWithoutOut,
    #[error("compile: names neither {{source}} nor {{sources}}")]
    CompileWithoutSource,
}

impl LanguageTable {
    /// The definition this table makes of language `name`: over the
    /// language of that name in `languages` if there is one, else from
    /// scratch. The error names the field at fault.
    pub fn define(&self, name: &str, languages: &Languages) -> Result<LanguageDef, LanguageError> {
        let name = name.to_ascii_lowercase();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-+#.".contains(c))
        {
            return Err(LanguageError::Name(name));
        }
        let existing = languages.known.iter().find(|l| l.0.name == name);
        let mut def = existing
            .map(|l| l.0.clone())
            .unwrap_or_else(|| LanguageDef {
                name: name.clone(),
                aliases: vec![],
                extensions: vec![],
                markers: vec![],
                entry: None,
                compile: None,
                run: vec![],
                env: vec![],
                time_multiplier: 1.0,
                memory_allowance_kb: 4 * MIB,
                address_space_allowance_kb: crate::ADDRESS_SPACE_ALLOWANCE / 1024,
                compile_time: Duration::from_secs(60),
                compile_memory_kb: 512 * MIB,
                install: format!("the {name} toolchain"),
                version: None,
                flush_hint: "if the reply was printed, it may be stuck in stdout's buffer: flush \
                         stdout after every line"
                    .into(),
                start_without_site: false,
            });
        let split = |field: &'static str, text: &str| {
            shell_words::split(text).map_err(|e| LanguageError::Words {
                field,
                text: text.to_string(),
                why: e.to_string(),
            })
        };
        let unit = |field: &'static str| {
            move |why: crate::units::UnitError| LanguageError::Unit { field, why }
        };
        if let Some(v) = &self.aliases {
            def.aliases = v.iter().map(|a| a.to_ascii_lowercase()).collect();
        }
        if let Some(v) = &self.extensions {
            def.extensions = v
                .iter()
                .map(|e| e.trim_start_matches('.').to_string())
                .collect();
        }
        if let Some(v) = &self.markers {
            def.markers = v.clone();
        }
        if let Some(v) = &self.entry {
            def.entry = Some(v.clone());
        }
        if let Some(v) = &self.compile {
            let w = split("compile", v)?;
            def.compile = (!w.is_empty()).then_some(w);
        }
        if let Some(v) = &self.run {
            def.run = split("run", v)?;
            // The organiser's command is run as written.
            def.start_without_site = false;
        }
        if let Some(v) = &self.env {
            def.env = v.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        }
        if let Some(m) = self.time_multiplier {
            if !(m.is_finite() && (0.1..=100.0).contains(&m)) {
                return Err(LanguageError::TimeMultiplier(m));
            }
            def.time_multiplier = m;
        }
        if let Some(v) = &self.memory_allowance {
            def.memory_allowance_kb =
                crate::units::parse_size_kb(v).map_err(unit("memory_allowance"))?;
        }
        if let Some(v) = &self.address_space_allowance {
            def.address_space_allowance_kb =
                crate::units::parse_size_kb(v).map_err(unit("address_space_allowance"))?;
        }
        if let Some(v) = &self.compile_time_limit {
            def.compile_time =
                crate::units::parse_duration(v).map_err(unit("compile_time_limit"))?;
        }
        if let Some(v) = &self.compile_memory_limit {
            def.compile_memory_kb =
                crate::units::parse_size_kb(v).map_err(unit("compile_memory_limit"))?;
        }
        if let Some(v) = &self.install {
            def.install = v.clone();
        }
        if let Some(v) = &self.version {
            def.version = Some(split("version", v)?).filter(|w| !w.is_empty());
        }
        if let Some(v) = &self.flush_hint {
            def.flush_hint = v.clone();
        }
        if def.run.is_empty() {
            return Err(LanguageError::NoRun);
        }
        if def.extensions.is_empty() && def.markers.is_empty() {
            return Err(LanguageError::NotRecognised);
        }
        let uses_out = def.run.iter().any(|w| w.contains("{out}"));
        if uses_out && def.compile.is_none() {
            return Err(LanguageError::OutNeverFilled);
        }
        if let Some(compile) = &def.compile {
            if !compile.iter().any(|w| w.contains("{out}")) {
                return Err(LanguageError::CompileWithoutOut);
            }
            if !compile
                .iter()
                .any(|w| w.contains("{source}") || w == "{sources}")
            {
                return Err(LanguageError::CompileWithoutSource);
            }
        }
        if def.time_multiplier <= 0.0 {
            def.time_multiplier = 1.0;
        }
        Ok(def)
    }
}

/// What `referee languages` tells of a toolchain on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Toolchain {
    /// Every program found; the version's first line.
    Found { version: String },
    /// The first program not found.
    Missing { program: String },
    /// Nothing to find (`native`).
    NotNeeded,
}

impl Language {
    /// Whether this machine has the language's programs, and their version
    /// (asked once per process).
    pub fn toolchain(self) -> Toolchain {
        let programs = self.programs();
        if programs.is_empty() {
            return Toolchain::NotNeeded;
        }
        if let Some(missing) = programs.iter().find(|p| find_program(p).is_none()) {
            return Toolchain::Missing {
                program: missing.to_string(),
            };
        }
        Toolchain::Found {
            version: self.version(),
        }
    }

    /// The toolchain's identity for the compile cache: the real path of
    /// its compiler and its version line.
    pub fn version(self) -> String {
        static VERSIONS: OnceLock<std::sync::Mutex<BTreeMap<String, String>>> = OnceLock::new();
        let key = format!(
            "{}\0{:?}\0{:?}",
            self.0.name,
            self.0.version,
            self.programs()
        );
        let cache = VERSIONS.get_or_init(Default::default);
        if let Some(v) = cache.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return v;
        }
        let command: Vec<String> = match &self.0.version {
            Some(v) => v.clone(),
            None => match self.programs().first() {
                Some(p) => vec![p.to_string(), "--version".into()],
                None => return String::new(),
            },
        };
        let version = command
            .split_first()
            .and_then(|(program, args)| {
                let program = find_program(program)?;
                let output = std::process::Command::new(&program)
                    .args(args)
                    .stdin(std::process::Stdio::null())
                    .output()
                    .ok()?;
                // Java prints its version on stderr.
                let text = if output.stdout.iter().any(|b| !b.is_ascii_whitespace()) {
                    output.stdout
                } else {
                    output.stderr
                };
                let text = String::from_utf8_lossy(&text);
                Some(text.lines().next().unwrap_or("").trim().to_string())
            })
            .unwrap_or_else(|| "(version unknown)".into());
        if let Ok(mut m) = cache.lock() {
            m.insert(key, version.clone());
        }
        version
    }
}

/// A program named in a command: a path, or a name looked up in `PATH`,
/// resolved to the real program behind a launcher script or proxy (pyenv's
/// `python3` shim, rustup's `rustc`), which a sandboxed process could not
/// run (a wrapper forks, a proxy reads its settings in `$HOME`).
pub fn find_program(word: &str) -> Option<PathBuf> {
    static RESOLVED: OnceLock<std::sync::Mutex<BTreeMap<String, Option<PathBuf>>>> =
        OnceLock::new();
    let cache = RESOLVED.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok().and_then(|m| m.get(word).cloned()) {
        return found;
    }
    let found = if word.contains('/') {
        Some(PathBuf::from(word)).filter(|p| is_executable(p))
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(word))
                .find(|c| is_executable(c))
        })
    }
    .map(|p| real_program(word, p));
    if let Ok(mut m) = cache.lock() {
        m.insert(word.to_string(), found.clone());
    }
    found
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The program itself rather than a wrapper (see [`find_program`]).
fn real_program(word: &str, found: PathBuf) -> PathBuf {
    let ask = |args: &[&str]| -> Option<String> {
        let output = std::process::Command::new(&found)
            .args(args)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let name = Path::new(word)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let real = match name {
        // Without `site` (-S): the answer does not depend on it, and
        // `site` is most of the interpreter's start (see `python_start`).
        _ if name.starts_with("python") => {
            ask(&["-S", "-c", "import sys; print(sys.executable)"]).map(PathBuf::from)
        }
        // rustup's proxies: the toolchain's own binary.
        "rustc" | "rustdoc" => {
            let proxied = found
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_os_string()))
                .is_some_and(|n| n.to_string_lossy().starts_with("rustup"));
            if proxied {
                ask(&["--print", "sysroot"]).map(|root| Path::new(&root).join("bin").join(name))
            } else {
                None
            }
        }
        _ => None,
    };
    real.filter(|p| p.is_absolute() && p.is_file())
        .unwrap_or(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built_ins() -> Languages {
        Languages::built_in()
    }

    #[test]
    fn detection_from_specs() {
        let d = |p: &str, args: &[&str]| {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            built_ins().detect(Path::new(p), &args).name()
        };
        assert_eq!(d("bot.py", &[]), "python");
        assert_eq!(d("bot.c", &[]), "c");
        for cpp in ["bot.cpp", "bot.cc", "bot.cxx"] {
            assert_eq!(d(cpp, &[]), "cpp");
        }
        assert_eq!(d("Bot.java", &[]), "java");
        assert_eq!(d("bot.js", &[]), "javascript");
        assert_eq!(d("bot.go", &[]), "go");
        assert_eq!(d("bot.rs", &[]), "rust");
        assert_eq!(d("/usr/bin/python3", &["-u", "x"]), "python");
        assert_eq!(d("/usr/bin/env", &["x/bot.py"]), "python");
        assert_eq!(d("./target/release/strong", &[]), "native");
        assert_eq!(d("/usr/bin/node", &["bot.js"]), "javascript");
        assert_eq!(d("/usr/bin/java", &["-jar", "bot.jar"]), "java");
        assert_eq!(d("/bin/sh", &["-c", "true"]), "native");
        for lang in built_ins().all() {
            assert_eq!(built_ins().from_name(lang.name()), Some(lang));
        }
        assert_eq!(built_ins().from_name("c++"), Some(Language::named("cpp")));
        assert_eq!(
            built_ins().from_name("JS"),
            Some(Language::named("javascript"))
        );
        assert_eq!(built_ins().from_name("cobol"), None);
    }

    #[test]
    fn a_language_added_to_a_table_is_in_that_table_only() {
        let table: LanguageTable =
            toml::from_str("extensions = [\"kt\"]\nrun = \"kotlin {entry}\"").unwrap();
        let mut mine = built_ins();
        let kotlin = mine.add(table.define("kotlin", &mine).unwrap());
        assert_eq!(mine.of_source(Path::new("bot.kt")), Some(kotlin));
        assert_eq!(mine.from_name("kotlin"), Some(kotlin));
        assert_eq!(built_ins().of_source(Path::new("bot.kt")), None);
        assert_eq!(built_ins().from_name("kotlin"), None);
    }

    #[test]
    fn contest_times_scale_with_the_multiplier() {
        let t = |n: &str| Language::named(n).contest_time_limit();
        assert_eq!(t("c"), Duration::from_secs(2));
        assert_eq!(t("cpp"), Duration::from_secs(2));
        assert_eq!(t("python"), Duration::from_secs(6));
        assert_eq!(t("java"), Duration::from_secs(4));
    }

    #[test]
    fn every_built_in_has_a_recognisable_bot_and_a_run_command() {
        for def in built_in() {
            if def.name == "native" {
                continue;
            }
            assert!(!def.run.is_empty(), "{}", def.name);
            assert!(!def.extensions.is_empty(), "{}", def.name);
            assert!(!def.markers.is_empty(), "{}", def.name);
            assert!(!def.install.is_empty(), "{}", def.name);
        }
    }

    #[test]
    fn folders_are_recognised_by_their_markers() {
        let dir = tempfile::tempdir().unwrap();
        assert!(built_ins().of_folder(dir.path(), None).is_none());
        std::fs::write(dir.path().join("Main.java"), "class Main {}").unwrap();
        let (lang, entry) = built_ins().of_folder(dir.path(), None).unwrap();
        assert_eq!(lang.name(), "java");
        assert_eq!(entry, dir.path().join("Main.java"));
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        let (lang, entry) = built_ins()
            .of_folder(dir.path(), Some(Language::named("rust")))
            .unwrap();
        assert_eq!(lang.name(), "rust");
        assert_eq!(entry, dir.path().join("src/main.rs"));
        assert!(built_ins()
            .of_folder(dir.path(), Some(Language::named("go")))
            .is_none());
    }

    #[test]
    fn tables_define_and_override_languages_and_say_what_is_wrong() {
        let table: LanguageTable = toml::from_str(
            "extensions = [\"kt\"]\ncompile = \"kotlinc {sources} -d {out}/bot.jar\"\n\
             run = \"java -jar {out}/bot.jar\"\ntime_multiplier = 2.5\nmemory_allowance = \"64 MiB\"",
        )
        .unwrap();
        let def = table.define("kotlin", &built_ins()).unwrap();
        assert_eq!(def.extensions, vec!["kt"]);
        assert_eq!(def.run, vec!["java", "-jar", "{out}/bot.jar"]);
        assert_eq!(def.memory_allowance_kb, 64 * 1024);
        assert_eq!(def.time_multiplier, 2.5);

        // An override keeps what it does not set.
        let table: LanguageTable = toml::from_str("run = \"python3.11 {entry}\"").unwrap();
        let def = table.define("python", &built_ins()).unwrap();
        assert_eq!(def.run, vec!["python3.11", "{entry}"]);
        assert_eq!(def.extensions, vec!["py"]);

        let err = LanguageTable::default()
            .define("cobol", &built_ins())
            .unwrap_err();
        assert_eq!(err, LanguageError::NoRun);
        assert!(err.to_string().starts_with("run: missing; "), "{err}");
        let bad: LanguageTable =
            toml::from_str("extensions = [\"x\"]\nrun = \"{out}/bot\"").unwrap();
        assert_eq!(
            bad.define("x", &built_ins()).unwrap_err().to_string(),
            "run: uses {out} but there is no compile command to fill it"
        );
        let bad: LanguageTable = toml::from_str("time_multiplier = -1.0").unwrap();
        assert_eq!(
            bad.define("c", &built_ins()).unwrap_err(),
            LanguageError::TimeMultiplier(-1.0)
        );
    }
}
