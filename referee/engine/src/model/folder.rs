//! A results folder's names and its description (`tournament.json`), as
//! a tournament writes them and every reader of the folder reads them.

use serde::{Deserialize, Serialize};

use super::tournament::Format;

/// The store's folder inside a results folder (round robins and
/// gauntlets keep every game there by identity; a folder without one has
/// no copy of its games.csv).
pub const STORE_FOLDER: &str = "store";

/// Where results folders go when no `--out` is given, from the working
/// directory.
pub const RESULTS_ROOT: &str = "tournaments/results";

/// The results folders kept near a run, hidden from its bots with the one
/// it writes: `tournaments/results` of the working directory (where every
/// run goes by default), and the folders up to `RESULTS_DEPTH` (3) levels
/// below the folder of `out` and below each of `bot_folders` (the folders
/// of the bots' own files, which a bot may read) that are results folders
/// by their marks ([`is_results_folder`]). A bot whose
/// own folder holds them (one of a folder of one-file bots, the tournament
/// file beside them, run from there; or an archive of earlier runs kept in
/// it, `archive/2026/run1`) read earlier runs' keys, transcripts and games.
pub fn results_folders_near(
    out: Option<&std::path::Path>,
    bot_folders: &[std::path::PathBuf],
) -> Vec<std::path::PathBuf> {
    let mut found = vec![];
    let root = std::path::absolute(RESULTS_ROOT)
        .ok()
        .filter(|root| root.is_dir());
    found.extend(root.clone());
    let beside = out
        .and_then(|out| std::path::absolute(out).ok())
        // `new/../out` leads beside `out` whether `new` exists or not.
        .map(|out| lexically_normal(&out))
        .and_then(|out| out.parent().map(std::path::Path::to_path_buf));
    let mut starts: Vec<std::path::PathBuf> = Vec::new();
    for folder in beside.into_iter().chain(bot_folders.iter().cloned()) {
        // Beneath the root, hidden with it; or beneath a start already.
        let covered = root.iter().chain(&starts).any(|r| folder.starts_with(r));
        if !covered {
            starts.retain(|s| !s.starts_with(&folder));
            starts.push(folder);
        }
    }
    // Folders of many entries are read only so far: this runs at every
    // start of a command that plays.
    let mut left = RESULTS_ENTRIES;
    let mut queue: std::collections::VecDeque<(std::path::PathBuf, usize)> =
        starts.into_iter().map(|start| (start, 0)).collect();
    while let Some((folder, depth)) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten().take(left) {
            left -= 1;
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            // A link to a folder is looked at, not walked into (no loops).
            if !(kind.is_dir() || kind.is_symlink() && path.is_dir()) {
                continue;
            }
            if is_results_folder(&path) {
                // A link's folder by its own path.
                found.push(if kind.is_symlink() {
                    path.canonicalize().unwrap_or(path)
                } else {
                    path
                });
            } else if kind.is_dir() && depth + 1 < RESULTS_DEPTH {
                queue.push_back((path, depth + 1));
            }
        }
        if left == 0 {
            break;
        }
    }
    found
}

/// Whether `path` is a results folder by its marks: its key; else (a key
/// may be kept elsewhere, `--key-file`) a `games.csv` with the standings or
/// the description beside it, or transcripts (`transcripts/game-*.jsonl`, a
/// check's report). Not a `games.csv` alone: a bot's data folder may hold
/// one, and the bot must still read it.
pub fn is_results_folder(path: &std::path::Path) -> bool {
    let has = |name: &str| path.join(name).exists();
    let transcripts = || {
        std::fs::read_dir(path.join("transcripts")).is_ok_and(|entries| {
            entries.flatten().take(16).any(|entry| {
                entry
                    .file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with("game-") && n.ends_with(".jsonl"))
            })
        })
    };
    has(crate::key::KEY_FILE)
        || (has("games.csv") && (has("standings.csv") || has("tournament.json")))
        || transcripts()
}

/// How deep below a start [`results_folders_near`] looks (`archive/2026/run1`).
const RESULTS_DEPTH: usize = 3;

/// How many entries [`results_folders_near`] reads at most.
const RESULTS_ENTRIES: usize = 10_000;

/// `path` (absolute) with its `.` and `..` taken out by name alone, as the
/// kernel would walk it were every folder on it there.
fn lexically_normal(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut normal = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// What `merge` needs to know about a results folder without the bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderMeta {
    pub version: u32,
    pub name: String,
    pub game: String,
    pub bots: Vec<String>,
    pub scoring: (u32, u32, u32),
    pub total_games: u64,
    pub shard: Option<(u32, u32)>,
    /// round-robin, gauntlet, swiss or knockout (folders written before it
    /// was kept are round robins or gauntlets).
    #[serde(default = "default_format")]
    pub format: String,
    /// A gauntlet's challengers: they rank after the bots under test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub challengers: Vec<String>,
}

fn default_format() -> String {
    Format::RoundRobin.name().into()
}

/// Longest folder name made from a tournament name, in bytes.
const MAX_FOLDER_NAME: usize = 100;

/// A name as a single, safe folder name: ASCII letters, digits, `-`, `_`
/// and `.` are kept, anything else (`/`, spaces, control characters, other
/// scripts) becomes `_`, as does a leading `.` (no `..`, no hidden folder);
/// cut to 100 bytes. A name with nothing usable (empty, or only `_`) is
/// refused, so a results folder is always a new folder inside
/// `tournaments/results`.
pub fn folder_name(name: &str) -> Result<String, NoFolderName> {
    let mut safe = crate::text::name_chars(name.trim(), &['-', '_', '.'], MAX_FOLDER_NAME);
    if safe.starts_with('.') {
        safe.replace_range(..1, "_");
    }
    if safe.chars().all(|c| c == '_' || c == '.') {
        return Err(NoFolderName {
            name: name.to_string(),
        });
    }
    Ok(safe)
}

/// A tournament name with nothing usable for a folder name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "name: '{}' gives no usable folder name; use letters, digits, '-', '_' or '.', or give --out",
    crate::text::escape(name)
)]
pub struct NoFolderName {
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder, removed at drop.
    struct Folder(std::path::PathBuf);
    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    fn folder(name: &str) -> Folder {
        let dir =
            std::env::temp_dir().join(format!("referee-folder-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Folder(dir)
    }
    fn write(path: std::path::PathBuf, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_results_folder_is_known_by_its_marks_not_by_a_games_csv_alone() {
        let dir = folder("marks");
        let d = &dir.0;
        write(d.join("data/games.csv"), "a,b\n");
        std::fs::create_dir_all(d.join("empty/transcripts")).unwrap();
        write(d.join("keyed/referee.key"), "00\n");
        write(d.join("keyless/games.csv"), "game\n");
        write(d.join("keyless/standings.csv"), "bot\n");
        write(d.join("described/games.csv"), "game\n");
        write(d.join("described/tournament.json"), "{}\n");
        write(d.join("report/transcripts/game-000003.jsonl"), "{}\n");
        for no in ["data", "empty"] {
            assert!(!is_results_folder(&d.join(no)), "{no}");
        }
        for yes in ["keyed", "keyless", "described", "report"] {
            assert!(is_results_folder(&d.join(yes)), "{yes}");
        }
    }

    #[test]
    fn results_folders_are_found_three_levels_down_a_bots_folder_not_four() {
        let dir = folder("depth");
        let d = &dir.0;
        write(d.join("archive/2026/run1/referee.key"), "00\n");
        write(d.join("deep/a/b/c/referee.key"), "00\n");
        write(d.join("beside/referee.key"), "00\n");
        let found = results_folders_near(None, std::slice::from_ref(d));
        assert!(found.contains(&d.join("archive/2026/run1")), "{found:?}");
        assert!(found.contains(&d.join("beside")), "{found:?}");
        assert!(
            !found.iter().any(|f| f.starts_with(d.join("deep"))),
            "{found:?}"
        );
        // Beside `out` (its folder's), the same.
        let by_out = results_folders_near(Some(&d.join("new-run")), &[]);
        assert!(by_out.contains(&d.join("archive/2026/run1")), "{by_out:?}");
    }
}
