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
//! not run (their folder lines are kept; the modules they import are not
//! loaded before the bot), `sitecustomize` and `usercustomize` are not
//! imported, `sys.flags.no_site` is 1, `sys.orig_argv` holds the start,
//! and the start's frame counts against the recursion limit. An entry
//! that is no source text (a zip application) runs as written. An organiser
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

/// Prints, as JSON, the folders `site` adds to `sys.path` and the
/// prefixes it sets (a virtual environment's), run with `-S` and then
/// `site.main()` by hand, in the environment of a bot. (`site` makes every
/// entry absolute: the one of `-c`, `''`, is then the current folder,
/// which is no folder of `site`'s.)
const PROBE: &str = "import sys, json, os\nbefore = {os.path.abspath(p) for p in sys.path}\n\
                     import site\nsite.main()\n\
                     print(json.dumps({'folders': [p for p in sys.path if p not in before], \
                     'prefix': sys.prefix, 'exec_prefix': sys.exec_prefix}))";

/// What `site` gives a script under one interpreter and environment.
#[derive(Clone, serde::Deserialize)]
struct Site {
    folders: Vec<String>,
    prefix: String,
    exec_prefix: String,
}

/// How long the interpreter may take to say which folders `site` adds.
const PROBE_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// The arguments that start the Python script `entry` under `program`
/// without `site` (to go before the entry), the bot's language giving it
/// `env`; or `None` when the bot is to run as written: an entry that is
/// no source text (a zip application, compiled code: a NUL byte), or a
/// `program` that did not say what `site` gives (not a CPython, or a
/// broken one).
pub(crate) fn arguments(
    program: &Path,
    entry: &Path,
    env: &[(OsString, OsString)],
) -> Option<Vec<OsString>> {
    if !is_source_text(entry) {
        return None;
    }
    let site = site_of(program, env)?;
    // JSON's strings are Python's string literals, for what JSON escapes.
    let code = format!(
        "{START}exec(_start({}, {}, {}), globals())\n",
        serde_json::to_string(&site.folders).ok()?,
        serde_json::to_string(&site.prefix).ok()?,
        serde_json::to_string(&site.exec_prefix).ok()?
    );
    Some(vec!["-S".into(), "-c".into(), code.into()])
}

/// Whether `entry` can be source text: no NUL byte in it (a bot's file is
/// at most 1 MiB). A zip application or compiled code named `bot.py` runs
/// as `python3` runs it.
fn is_source_text(entry: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(entry) else {
        return true;
    };
    let mut bytes = Vec::new();
    file.take(1 << 20).read_to_end(&mut bytes).is_ok() && !bytes.contains(&0)
}

/// What `site` gives under `program` and `env`, found once for each.
fn site_of(program: &Path, env: &[(OsString, OsString)]) -> Option<Site> {
    type Key = (PathBuf, Vec<(OsString, OsString)>);
    static FOUND: OnceLock<Mutex<BTreeMap<Key, Option<Site>>>> = OnceLock::new();
    let found = FOUND.get_or_init(Default::default);
    let key = (program.to_path_buf(), env.to_vec());
    if let Some(site) = found.lock().ok()?.get(&key) {
        return site.clone();
    }
    let site = probe(program, env);
    if let Ok(mut map) = found.lock() {
        map.insert(key, site.clone());
    }
    site
}

/// Runs `program` with `site`, in a bot's environment (its language's
/// `env` too), but for a home that does not exist: a bot's is its fresh
/// working folder, where `site` finds no user folder either.
fn probe(program: &Path, env: &[(OsString, OsString)]) -> Option<Site> {
    let home = Path::new("/nonexistent/referee-python-probe");
    let bots = crate::start::clean_environment(home);
    let mut child = std::process::Command::new(program)
        .args(["-S", "-c", PROBE])
        .env_clear()
        .envs(bots.iter().chain(env).map(|(k, v)| (k, v)))
        .current_dir("/")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    // An interpreter that hangs (a `.pth` that waits on something) costs
    // its bots their quick start, not the run: its bots start as written.
    // (Polled: `wait-timeout` would set a SIGCHLD handler for the whole
    // referee, whose waits on its bots' pipes it would interrupt.)
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
    let site: Site = serde_json::from_slice(&stdout).ok()?;
    // Folders only: a name with a NUL could not be an argument.
    let absolute = site
        .folders
        .iter()
        .chain([&site.prefix, &site.exec_prefix])
        .all(|f| f.starts_with('/') && !f.contains('\0'));
    absolute.then_some(site)
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
        let code = format!("{START}exec(_start({list}, '/p', '/e'), globals())\n");
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
