//! The language a bot is written in, as far as limits care: contests give
//! each language its own time per move (Cryptron: 2 s for C and C++, 6 s for
//! Python) and a memory limit means something different for a compiled
//! program than for an interpreter. Detected from the BOT spec, or named with
//! a `LANG:` prefix (`python:./launcher`, `c:./a.out`).

use std::fmt;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Python,
    /// An executable of any other kind (Rust, a shell script, ...).
    Native,
}

impl Language {
    pub const ALL: [Language; 4] = [
        Language::C,
        Language::Cpp,
        Language::Python,
        Language::Native,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Python => "python",
            Language::Native => "native",
        }
    }

    /// A language named in a `LANG:` spec prefix or a tournament file.
    pub fn from_name(name: &str) -> Option<Language> {
        match name.to_ascii_lowercase().as_str() {
            "c" => Some(Language::C),
            "cpp" | "c++" | "cxx" => Some(Language::Cpp),
            "python" | "python3" | "py" => Some(Language::Python),
            "native" | "exe" | "rust" => Some(Language::Native),
            _ => None,
        }
    }

    /// The language of a source file by its extension, if it is a source file.
    pub fn of_source(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "c" => Some(Language::C),
            "cpp" | "cc" | "cxx" | "c++" => Some(Language::Cpp),
            "py" => Some(Language::Python),
            _ => None,
        }
    }

    /// The language of a bot run as `program args...`: a script's extension
    /// wins, then a `python*` interpreter, else a native executable.
    pub fn detect(program: &Path, args: &[String]) -> Language {
        if let Some(lang) = Language::of_source(program) {
            return lang;
        }
        let is_python = program
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("python"));
        if is_python
            || args
                .iter()
                .any(|a| Language::of_source(Path::new(a)) == Some(Language::Python))
        {
            return Language::Python;
        }
        Language::Native
    }

    /// Must the referee compile a source in this language before the game?
    pub fn is_compiled(self) -> bool {
        match self {
            Language::C | Language::Cpp => true,
            Language::Python | Language::Native => false,
        }
    }

    /// Time per move of the contest rules (Cryptron): 2 s for C and C++,
    /// 6 s for Python; a native executable is held to the C time.
    pub fn contest_time_limit(self) -> Duration {
        match self {
            Language::C | Language::Cpp | Language::Native => Duration::from_secs(2),
            Language::Python => Duration::from_secs(6),
        }
    }

    /// Resident memory a do-nothing program in this language already uses,
    /// rounded up: the memory limit counts what a bot uses beyond it.
    /// Measured with a program that reads one line and prints its `VmHWM`
    /// (see protocol.md, §6, "Limits"): C 1.2 MiB, C++ 3.1 MiB,
    /// Python 3.11 13.3 MiB.
    pub fn memory_allowance_kb(self) -> u64 {
        match self {
            Language::C | Language::Native => 4 * 1024,
            Language::Cpp => 6 * 1024,
            Language::Python => 16 * 1024,
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_from_specs() {
        let d = |p: &str, args: &[&str]| {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            Language::detect(Path::new(p), &args)
        };
        assert_eq!(d("bot.py", &[]), Language::Python);
        assert_eq!(d("bot.c", &[]), Language::C);
        for cpp in ["bot.cpp", "bot.cc", "bot.cxx"] {
            assert_eq!(d(cpp, &[]), Language::Cpp);
        }
        assert_eq!(d("/usr/bin/python3", &["-u", "x"]), Language::Python);
        assert_eq!(d("/usr/bin/env", &["x/bot.py"]), Language::Python);
        assert_eq!(d("./target/release/strong", &[]), Language::Native);
        for lang in Language::ALL {
            assert_eq!(Language::from_name(lang.name()), Some(lang));
        }
        assert_eq!(Language::from_name("c++"), Some(Language::Cpp));
        assert_eq!(Language::from_name("cobol"), None);
    }

    #[test]
    fn contest_times() {
        assert_eq!(Language::C.contest_time_limit(), Duration::from_secs(2));
        assert_eq!(Language::Cpp.contest_time_limit(), Duration::from_secs(2));
        assert_eq!(
            Language::Python.contest_time_limit(),
            Duration::from_secs(6)
        );
    }
}
