//! Games that organisers bring: a *judge* program holds the rules and the
//! referee keeps the bots, clocks, sandbox and records (the judge
//! protocol: docs/reference.md, "Judges").
//!
//! This module names judges (a GAME argument that is a path) and hashes
//! their files into the game's identity; the runner plays them
//! (`runner::JudgeGame`: the judge process behind the same
//! [`Game`](crate::games::Game) trait as the built-in games, so records,
//! tournaments and reports see no difference).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::bot::{BotCommand, Languages};
use crate::games::judge::{self as rules, Config};

/// Why a GAME argument that names a judge makes no game (bad input).
#[derive(Debug, thiserror::Error)]
pub enum JudgeSetupError {
    #[error("judge '{given}': {} does not exist; a GAME that is a path names a judge program (relative paths start from {})", path.display(), base.display())]
    NotFound {
        given: String,
        path: PathBuf,
        base: PathBuf,
    },
    #[error("judge '{given}': {message}")]
    NotAProgram { given: String, message: String },
    #[error("judge '{given}': cannot read its folder {}", folder.display())]
    Unreadable {
        given: String,
        folder: PathBuf,
        source: std::io::Error,
    },
    #[error("--option '{given}': write KEY=VALUE, or KEY:=JSON for a value typed in JSON (KEY: letters, digits, '-' and '_', not '-' first)")]
    BadOption { given: String },
    #[error("--option '{given}': the value after := is not JSON: {why}")]
    BadJsonOption { given: String, why: String },
    #[error("judge option {key:?}: a key is letters, digits, '-' and '_', and begins with a letter, a digit or '_'")]
    BadOptionKey { key: String },
    #[error("the judge's options are {bytes} bytes as JSON, more than {limit}: options are settings; give the judge its data in a file beside it")]
    OptionsTooLarge { bytes: usize, limit: usize },
    #[error("--option {key} is given twice")]
    OptionTwice { key: String },
}

/// Does a GAME argument name a judge rather than a built-in game? It does
/// when it holds a `/` or ends in an extension (`judge.py`): no built-in
/// game's name does either.
pub fn names_a_judge(game: &str) -> bool {
    game.contains('/') || Path::new(game).extension().is_some()
}

/// What to add to "unknown game" for a GAME (relative to `base`) that is
/// neither a built-in game nor a judge's path: the judge of the folder
/// `GAME` or `games/GAME` when there is one (`connect4` from
/// `tournaments/`), else how a judge game is named.
pub fn judge_hint(game: &str, base: &Path) -> String {
    let judge_in = |folder: &str| judge_file_in(base, folder);
    let judge = (!game.is_empty() && !game.contains(['/', '\\', '.']))
        .then(|| judge_in(game).or_else(|| judge_in(&format!("games/{game}"))))
        .flatten();
    match judge {
        Some(judge) => format!("; a judge game is its judge's path: '{judge}'"),
        None => {
            "; a game of your own is the path to its judge program (e.g. games/connect4/judge.py)"
                .into()
        }
    }
}

/// `FOLDER/judge.EXT`, the first by name of the files of `base/folder`
/// named `judge`, if there is one.
fn judge_file_in(base: &Path, folder: &str) -> Option<String> {
    let mut judges: Vec<String> = std::fs::read_dir(base.join(folder))
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file() && e.path().file_stem() == Some("judge".as_ref()))
        .map(|e| {
            format!(
                "{}/{}",
                folder.trim_end_matches('/'),
                e.file_name().to_string_lossy()
            )
        })
        .collect();
    judges.sort();
    judges.into_iter().next()
}

/// Whether `key` may name a judge's option: letters, digits, `-` and
/// `_` (it goes into a command line and a record's variant as it is).
fn is_option_key(key: &str) -> bool {
    // Not a dash first: `--option -x=1` would be read as a flag.
    !key.starts_with('-')
        && !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The most a judge's options may be, as JSON: they go whole into its
/// start message and into every replay command's line (a command line of
/// some 128 KiB is the most a shell runs).
pub const OPTIONS_LIMIT: usize = 64 * 1024;

/// Options given on the command line as `KEY=VALUE` words, typed as the
/// judge protocol says ([`rules::option_value`]), or `KEY:=JSON` words,
/// typed as their JSON (what a replay command gives for a file's option
/// that `KEY=VALUE` would type otherwise: `"007"`, `"true"`, an array).
pub fn parse_options(
    words: &[String],
) -> Result<BTreeMap<String, serde_json::Value>, JudgeSetupError> {
    let mut options = BTreeMap::new();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(JudgeSetupError::BadOption {
                given: word.clone(),
            });
        };
        let key = key.trim();
        let (key, value) = match key.strip_suffix(':') {
            Some(key) => (
                key,
                serde_json::from_str(value).map_err(|e| JudgeSetupError::BadJsonOption {
                    given: word.clone(),
                    why: e.to_string(),
                })?,
            ),
            None => (key, rules::option_value(value)),
        };
        if !is_option_key(key) {
            return Err(JudgeSetupError::BadOption {
                given: word.clone(),
            });
        }
        if options.insert(key.to_string(), value).is_some() {
            return Err(JudgeSetupError::OptionTwice { key: key.into() });
        }
    }
    Ok(options)
}

/// The judge named by `game` (a path, relative to `base`), checked to be a
/// program the referee can run: its name, content hash and options (the
/// game is `GameConfig::Judge` of it). `time_ms`/`memory_kb`: its limits.
pub fn judge_config(
    game: &str,
    base: &Path,
    options: BTreeMap<String, serde_json::Value>,
    time_ms: u64,
    memory_kb: u64,
    languages: &Languages,
) -> Result<Config, JudgeSetupError> {
    if let Some(key) = options.keys().find(|k| !is_option_key(k)) {
        return Err(JudgeSetupError::BadOptionKey { key: key.clone() });
    }
    let bytes = serde_json::to_string(&options).map_or(0, |text| text.len());
    if bytes > OPTIONS_LIMIT {
        return Err(JudgeSetupError::OptionsTooLarge {
            bytes,
            limit: OPTIONS_LIMIT,
        });
    }
    let joined = base.join(game);
    let path = std::path::absolute(&joined).unwrap_or(joined);
    if !path.exists() {
        return Err(JudgeSetupError::NotFound {
            given: game.into(),
            path,
            base: std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf()),
        });
    }
    // Started like a bot: a source through its language, else a program.
    let spec = path.to_string_lossy();
    BotCommand::parse(&spec, languages).map_err(|e| {
        // The error speaks of a bot; the judge is named before it.
        let message = e.to_string();
        let mut message = message
            .strip_prefix(&format!("bot '{spec}': "))
            .map_or(message.clone(), str::to_string);
        // A game's folder named for its judge: the judge it holds.
        if let Some(judge) = path.is_dir().then(|| judge_file_in(base, game)).flatten() {
            message.push_str(&format!("; a judge game is its judge's path: '{judge}'"));
        }
        JudgeSetupError::NotAProgram {
            given: game.into(),
            message,
        }
    })?;
    let folder = if path.is_dir() {
        path.clone()
    } else {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let hash = content_hash(&folder).map_err(|source| JudgeSetupError::Unreadable {
        given: game.into(),
        folder: folder.clone(),
        source,
    })?;
    Ok(Config {
        path: path.to_string_lossy().into_owned(),
        name: game_name(&path),
        hash,
        options,
        time_ms,
        memory_kb,
    })
}

/// The game's name: the judge's file stem (`nim.js` is `nim`), or its
/// folder's name when the stem is a generic one (`connect4/judge.py` is
/// `connect4`); only letters, digits, `-` and `_` kept.
pub fn game_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let generic = ["judge", "main", "index", "referee", "rules", "game"];
    let name = if path.is_dir() {
        stem
    } else if generic.contains(&stem.to_ascii_lowercase().as_str()) || stem.is_empty() {
        path.parent()
            .and_then(Path::file_name)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or(stem)
    } else {
        stem
    };
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if clean.is_empty() {
        "judge".into()
    } else {
        clean
    }
}

/// sha256 over the regular files directly in `folder` (not its subfolders,
/// not `*.md`), sorted by name: for each, its name, a NUL byte, its length
/// as 8 little-endian bytes, its content. A helper library beside the judge
/// counts; the README and a `starters/` folder do not. Lower-case hex.
pub fn content_hash(folder: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // A link counts as the file it leads to: a judge that is a link to
        // the organiser's working copy is edited there, and an edit must
        // make a new game as in a copy.
        let is_file = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file());
        if is_file && !name.ends_with(".md") {
            files.push((name, entry.path()));
        }
    }
    files.sort();
    let mut hasher = Sha256::new();
    for (name, path) in files {
        let content = std::fs::read(&path)?;
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update((content.len() as u64).to_le_bytes());
        hasher.update(&content);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_judges_and_names_name_games() {
        assert!(names_a_judge("games/connect4/judge.py"));
        assert!(names_a_judge("nim.js"));
        assert!(names_a_judge("./judge"));
        assert!(!names_a_judge("mastermind"));
        assert!(!names_a_judge("arrow-5"));
    }

    #[test]
    fn a_generic_stem_takes_its_folders_name() {
        assert_eq!(game_name(Path::new("/x/connect4/judge.py")), "connect4");
        assert_eq!(game_name(Path::new("/x/games/nim.js")), "nim");
        assert_eq!(game_name(Path::new("/x/my game/main.py")), "my-game");
    }

    #[test]
    fn options_are_typed_and_checked() {
        let words = ["rows=6".to_string(), "name=wide".into(), "fast=true".into()];
        let options = parse_options(&words).unwrap();
        assert_eq!(options["rows"], serde_json::json!(6));
        assert_eq!(options["name"], serde_json::json!("wide"));
        assert_eq!(options["fast"], serde_json::json!(true));
        assert!(parse_options(&["rows".to_string()]).is_err());
        assert!(parse_options(&["a=1".to_string(), "a=2".into()]).is_err());
        assert!(parse_options(&["a:=[1".to_string()]).is_err());
        assert!(parse_options(&["a:b=1".to_string()]).is_err());
        assert!(parse_options(&["-x=1".to_string()]).is_err());
        // An integer past 64 bits stays text; 64 bits unsigned is a number.
        let big = parse_options(&[
            "a=18446744073709551616".to_string(),
            "b=18446744073709551615".into(),
        ])
        .unwrap();
        assert_eq!(big["a"], serde_json::json!("18446744073709551616"));
        assert_eq!(big["b"], serde_json::json!(18446744073709551615u64));
    }

    /// A replay command gives every option back as it was typed: a file's
    /// `"007"` stays a string, `true` a boolean, an array an array.
    #[test]
    fn the_replay_flags_give_back_every_option_with_its_type() {
        let options: BTreeMap<String, serde_json::Value> = serde_json::from_str(
            r#"{"a": "007", "b": "true", "c": [1, "x"], "d": {"k": null}, "e": 7,
                "f": "plain text", "g": 1.5, "h": "1e3", "i": false, "j": "",
                "k": "a=b", "l": "[1]", "m": null, "n": 12345678901234567890,
                "o": "nul \u0000 in it", "p": "99999999999999999999999"}"#,
        )
        .unwrap();
        let config = rules::Config {
            path: "judge.py".into(),
            name: "g".into(),
            hash: String::new(),
            options: options.clone(),
            time_ms: rules::DEFAULT_TIME_MS,
            memory_kb: rules::DEFAULT_MEMORY_KB,
        };
        let flags = config.cli_flags();
        let words: Vec<String> = flags
            .chunks(2)
            .map(|pair| {
                assert_eq!(pair[0], "--option");
                pair[1].clone()
            })
            .collect();
        assert!(words.contains(&"f=plain text".to_string()), "{words:?}");
        assert!(words.contains(&"e=7".to_string()), "{words:?}");
        assert_eq!(parse_options(&words).unwrap(), options, "{words:?}");
    }

    #[test]
    fn the_hash_covers_the_folders_files_but_not_its_readme_or_subfolders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("judge.py"), "print(1)").unwrap();
        let first = content_hash(dir.path()).unwrap();
        std::fs::write(dir.path().join("README.md"), "rules").unwrap();
        std::fs::create_dir(dir.path().join("starters")).unwrap();
        std::fs::write(dir.path().join("starters/bot.py"), "x").unwrap();
        assert_eq!(content_hash(dir.path()).unwrap(), first);
        std::fs::write(dir.path().join("lib.py"), "y").unwrap();
        assert_ne!(content_hash(dir.path()).unwrap(), first);
    }

    /// A judge that is a link to the organiser's working copy: an edit of
    /// the copy is a new game, as an edit of the judge itself is.
    #[test]
    fn the_hash_follows_a_link_to_the_file_it_leads_to() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        let game = dir.path().join("game");
        std::fs::create_dir(&real).unwrap();
        std::fs::create_dir(&game).unwrap();
        std::fs::write(real.join("judge.py"), "print(1)").unwrap();
        std::os::unix::fs::symlink(real.join("judge.py"), game.join("judge.py")).unwrap();
        let first = content_hash(&game).unwrap();
        let empty = tempfile::tempdir().unwrap();
        assert_ne!(
            first,
            content_hash(empty.path()).unwrap(),
            "the link counts"
        );
        std::fs::write(real.join("judge.py"), "print(2)").unwrap();
        assert_ne!(content_hash(&game).unwrap(), first);
    }
}
