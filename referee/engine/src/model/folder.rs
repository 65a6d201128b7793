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
/// run goes by default) and the folders beside `out`, or one level below
/// one of them, that hold a referee key, a `games.csv` or `transcripts` (a
/// results folder's marks). A bot whose own folder holds them (one
/// of a folder of one-file bots, the tournament file beside them, run from
/// there) read earlier runs' keys, transcripts and games.
pub fn results_folders_near(out: Option<&std::path::Path>) -> Vec<std::path::PathBuf> {
    let mut found = vec![];
    let root = std::path::absolute(RESULTS_ROOT)
        .ok()
        .filter(|root| root.is_dir());
    found.extend(root.clone());
    let beside = out
        .and_then(|out| std::path::absolute(out).ok())
        // `new/../out` leads beside `out` whether `new` exists or not.
        .map(|out| lexically_normal(&out))
        .and_then(|out| out.parent().map(std::path::Path::to_path_buf))
        // Beneath the root, hidden with it.
        .filter(|parent| root.as_ref().is_none_or(|root| !parent.starts_with(root)));
    // Its key, or what a results folder holds (a key may be kept
    // elsewhere, `--key-file`).
    let is_results = |path: &std::path::Path| {
        [crate::key::KEY_FILE, "games.csv", "transcripts"]
            .iter()
            .any(|mark| path.join(mark).exists())
    };
    // Folders of many entries are read only so far: this runs at every
    // start of a command that plays.
    let mut left = 10_000usize;
    let mut folders_in = |folder: &std::path::Path| -> Vec<std::path::PathBuf> {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Vec::new();
        };
        let folders: Vec<_> = entries
            .flatten()
            .take(left)
            .map(|entry| entry.path())
            .filter(|path| path.is_dir())
            .collect();
        left = left.saturating_sub(folders.len());
        folders
    };
    // Beside `out`, and one level below those that are none (a folder of
    // earlier runs, `runs/old1`).
    for folder in beside.as_deref().map(&mut folders_in).unwrap_or_default() {
        if is_results(&folder) {
            found.push(folder);
            continue;
        }
        found.extend(
            folders_in(&folder)
                .into_iter()
                .filter(|inner| is_results(inner)),
        );
    }
    found
}

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
