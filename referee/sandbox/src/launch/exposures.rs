//! What a strict bot is shown of the folders its private mounts would
//! hide: its program's and script's folders, read-only, at their own
//! paths.

use super::*;

/// A folder a strict bot needs that its private mounts would hide: one
/// under a folder closed to others (the bot runs as its own user), or one
/// under `/tmp` (replaced by a private tmpfs). It is shown, read-only, at
/// its own path on a tmpfs over `cover`.
#[derive(Clone, Debug)]
pub(crate) struct Exposure {
    pub(crate) cover: PathBuf,
    pub(crate) path: PathBuf,
}

/// Where the private `/tmp` goes.
pub(crate) const TMP: &str = "/tmp";

/// The folders a bot needs to read: its program's folder (and the tree of
/// an interpreter, e.g. `/root/.pyenv/versions/3.11.7` for
/// `.../bin/python3.11`), and the folder of its first argument if that is
/// a file (the script), and that file. Real paths.
pub(crate) fn needed_folders(spec: &LaunchSpec) -> Vec<PathBuf> {
    let mut wanted: Vec<PathBuf> = Vec::new();
    // What is made from a bot's own file by name beside it (its data file
    // `alice_weights.bin`, its backup) is hidden from the other bots as
    // theirs (`spec::derived_files`), and is its own: given back to it,
    // but for what may be another bot (`spec::own_derived_files`).
    let own_derived = |file: &Path| -> Vec<PathBuf> {
        crate::spec::own_derived_files(file)
            .into_iter()
            .filter_map(|p| p.canonicalize().ok())
            .collect()
    };
    if let Ok(real) = spec.program.canonicalize() {
        if let Some(dir) = real.parent() {
            wanted.push(dir.to_path_buf());
            if dir.file_name().is_some_and(|n| n == "bin") {
                wanted.extend(dir.parent().map(Path::to_path_buf));
            }
        }
        // A program of the system's (an interpreter) has none of its own.
        if !SYSTEM_READABLE
            .iter()
            .any(|system| real.starts_with(system))
        {
            wanted.extend(own_derived(&real));
        }
    }
    // What its language's run command reads (its build, its sources).
    for readable in spec.readable.iter().filter_map(|p| p.canonicalize().ok()) {
        if readable.is_file() {
            wanted.extend(own_derived(&readable));
        }
        wanted.push(readable);
    }
    // The script, for an interpreter: the first argument that is not an
    // option (`python3 bot.py`, `java -jar bot.jar`), or the folder it
    // names (`java -cp classes Main`). Later ones are the bot's own
    // business, and must not open a hidden folder to it.
    let script = spec
        .args
        .iter()
        .map(Path::new)
        .find(|arg| !arg.as_os_str().as_encoded_bytes().starts_with(b"-"));
    if let Some(path) = script.filter(|p| p.is_absolute()) {
        if path.is_dir() {
            wanted.extend(path.canonicalize());
        } else if let Ok(file) = path.canonicalize() {
            // The file itself too: in a folder of one-file bots, the
            // folder is granted but for the bots' files (see
            // `landlock_policy`), its own given back by name.
            wanted.extend(file.parent().map(Path::to_path_buf));
            wanted.extend(own_derived(&file));
            wanted.push(file);
        }
    }
    wanted
}

/// The folders a strict bot needs ([`needed_folders`]) that its private
/// mounts would hide.
pub(crate) fn exposures_for(spec: &LaunchSpec) -> Vec<Exposure> {
    let own_user = matches!(spec.identity, Some(Identity { uid: Some(_), .. }));
    let wanted = needed_folders(spec);
    let mut out: Vec<Exposure> = Vec::new();
    for path in wanted {
        if path == Path::new("/") || path == Path::new(TMP) {
            continue;
        }
        // A folder others cannot enter is of no use shown as it is (its
        // mode comes with it): the files the bot needs in it are shown
        // one by one (a one-file bot in a `mktemp -d` folder).
        if own_user && is_closed(&path) {
            continue;
        }
        let cover = if path.starts_with(TMP) {
            Some(PathBuf::from(TMP))
        } else if own_user {
            closed_ancestor(&path)
        } else {
            None
        };
        if let Some(cover) = cover {
            // The folder itself, at its own path: the folders between the
            // cover and it are made anew (open to all) on the cover, so
            // that the modes of the real ones (a `mktemp -d` folder, a home
            // of mode 0700) do not matter, and the rest of each is not
            // there (the other teams' files beside the bot's).
            // A folder inside one already shown comes with it.
            if !out.iter().any(|e| path.starts_with(&e.path)) {
                out.retain(|e| !e.path.starts_with(&path));
                out.push(Exposure { cover, path });
            }
        }
    }
    out
}

/// The topmost ancestor of `path` that others may not pass through, if
/// any: a bot with a user of its own reaches `path` only through a cover
/// of it.
pub(crate) fn closed_ancestor(path: &Path) -> Option<PathBuf> {
    let ancestors: Vec<&Path> = path.ancestors().skip(1).collect();
    ancestors
        .into_iter()
        .rev()
        .find(|a| is_closed(a))
        .map(Path::to_path_buf)
}

/// A folder others may not pass through.
pub(crate) fn is_closed(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o001 == 0)
}
