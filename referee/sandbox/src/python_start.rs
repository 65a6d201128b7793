//! A Python bot's start without the interpreter's `site` step.
//!
//! Most of a small Python bot's start is `site`: it reads every `.pth`
//! file of the machine's packages and runs the code in them (a `.pth`
//! that imports `certifi`, and with it `pathlib`, `re` and `tempfile`,
//! makes it 30 ms of a 45 ms start). A bot of the
//! built-in `python` language is run as `python3 -S -c START ENTRY`:
//! the interpreter skips `site`'s main step, and `START`
//! (`python_start.py`) gives the script what that step would have: the
//! folders of installed packages on `sys.path`, after the standard
//! library, as `site` puts them; `exit`, `quit`, `help` and the rest of
//! `site`'s builtins (by `site`'s own functions); then it runs the entry
//! as `__main__`, as `python3 ENTRY` does (the same `sys.argv`,
//! `sys.path[0]`, `__file__`, tracebacks and exit status, a
//! `KeyboardInterrupt`'s too).
//!
//! What differs from `python3 ENTRY`: the code lines of `.pth` files are
//! not run (their folder lines are kept), `sitecustomize` and
//! `usercustomize` are not imported, `sys.flags.no_site` is 1, and the
//! start's two frames count against the recursion limit. An organiser
//! whose bots need any of them sets the language's `run` command
//! (`[languages.python] run = "python3 {entry}"`), which starts bots as
//! written. The folders are found once per interpreter, by running it
//! with `site` in the environment a bot gets (docs/reference.md, "Python
//! without `site`").
//!
//! Fairness: every Python bot starts the same way; the start and the
//! folders are the referee's, made from the interpreter and never from a
//! bot's files.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The start's code, without its call.
const START: &str = include_str!("python_start.py");

/// Prints, as a JSON list, the folders `site` adds to `sys.path` (run
/// with `-S`, then `site.main()` by hand, in the environment of a bot).
/// (`site` makes every entry absolute: the one of `-c`, `''`, is then the
/// current folder, which is no folder of `site`'s.)
const PROBE: &str = "import sys, json, os\nbefore = {os.path.abspath(p) for p in sys.path}\n\
                     import site\nsite.main()\n\
                     print(json.dumps([p for p in sys.path if p not in before]))";

/// How long the interpreter may take to say which folders `site` adds.
const PROBE_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// The arguments that start a Python script under `program` without
/// `site` (to go before the entry), or `None` if `program` did not say
/// which folders `site` adds (not a CPython, or a broken one): the bot
/// is then run as written.
pub(crate) fn arguments(program: &Path) -> Option<Vec<OsString>> {
    let folders = site_folders(program)?;
    // JSON's strings are Python's string literals, for what JSON escapes.
    let list = serde_json::to_string(&folders).ok()?;
    let code = format!("{START}_start({list})\n");
    Some(vec!["-S".into(), "-c".into(), code.into()])
}

/// The folders `site` adds under `program`, found once per program.
fn site_folders(program: &Path) -> Option<Vec<String>> {
    static FOUND: OnceLock<Mutex<BTreeMap<PathBuf, Option<Vec<String>>>>> = OnceLock::new();
    let found = FOUND.get_or_init(Default::default);
    if let Some(folders) = found.lock().ok()?.get(program) {
        return folders.clone();
    }
    let folders = probe(program);
    if let Ok(mut map) = found.lock() {
        map.insert(program.to_path_buf(), folders.clone());
    }
    folders
}

/// Runs `program` with `site`, in a bot's environment: its own `PATH`,
/// a `HOME` that does not exist (a bot's is its fresh working folder, so
/// `site` adds no user folder for it), the bot's locale and variables.
fn probe(program: &Path) -> Option<Vec<String>> {
    let mut child = std::process::Command::new(program)
        .args(["-S", "-c", PROBE])
        .env_clear()
        .env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()),
        )
        .env("HOME", "/nonexistent/referee-python-probe")
        .env("LANG", "C.UTF-8")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONUNBUFFERED", "1")
        .current_dir("/")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    // An interpreter that hangs (a `.pth` that waits on something) costs
    // its bots their quick start, not the run: its bots start as written.
    let given_up = std::time::Instant::now() + PROBE_TIME;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(None) if std::time::Instant::now() < given_up => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut stdout = Vec::new();
    std::io::Read::read_to_end(&mut child.stdout.take()?, &mut stdout).ok()?;
    let folders: Vec<String> = serde_json::from_slice(&stdout).ok()?;
    // Folders only: a name with a NUL could not be an argument.
    folders
        .iter()
        .all(|f| f.starts_with('/') && !f.contains('\0'))
        .then_some(folders)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_valid_python_with_any_folder_name() {
        let Some(python) = crate::language::find_program("python3") else {
            return;
        };
        let folders = vec![
            "/a \"quoted\" 'folder'".to_string(),
            "/back\\slash/\u{e9}t\u{e9}".to_string(),
            "/new\nline".to_string(),
        ];
        let list = serde_json::to_string(&folders).unwrap();
        let code = format!("{START}_start({list})\n");
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("bot.py");
        std::fs::write(
            &entry,
            "import sys\nprint(sys.path[-3:] == ['/a \"quoted\" \\'folder\\'', \
             '/back\\\\slash/\\u00e9t\\u00e9', '/new\\nline'])\n",
        )
        .unwrap();
        let out = std::process::Command::new(python)
            .args(["-S", "-c", &code])
            .arg(&entry)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "True\n", "{out:?}");
    }
}
