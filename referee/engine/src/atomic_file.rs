//! Replacing a file so that a kill at any moment leaves either the old
//! contents or the new, never an empty or half-written file: write to a
//! temporary file in the same folder, fsync it, rename it over the target,
//! fsync the folder. Every file the referee rewrites in place (the copy of
//! the tournament file in a results folder, `tournament.json`, standings,
//! crosstable, timings, a merged `games.csv`) goes through [`write()`] or
//! [`write_with`].

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The temporary file beside `path`: hidden, named after the target, so
/// that a leftover of a killed referee is overwritten by the next write.
fn temporary_beside(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a file path", path.display()),
        )
    })?;
    let mut tmp = std::ffi::OsString::from(".");
    tmp.push(name);
    tmp.push(".tmp");
    Ok(path.with_file_name(tmp))
}

/// Replaces `path` with `contents` atomically (see the module's doc).
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    write_with(path, |file| file.write_all(contents.as_ref()))
}

/// Replaces `path` with what `fill` writes, atomically. `fill` gets the
/// temporary file; it is synced, renamed over `path`, and the folder synced.
/// On an error the temporary file is removed and `path` is left as it was.
pub fn write_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let tmp = temporary_beside(path)?;
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        fill(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_folder_of(path)
}

/// Syncs the folder holding `path`, so that a rename (or a file created)
/// in it survives a power cut.
pub fn sync_folder_of(path: &Path) -> io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(folder)?.sync_all()
}

/// An error if `path` is a regular file that holds something other than
/// what the referee writes there (`own_start`, the first bytes of every
/// such file: `what`), such as a bot's source named by a slip of the
/// keyboard: an output file replaces only an earlier one of its kind or an
/// empty file. What is not a regular file is left to the writing to
/// refuse.
pub fn refuse_to_replace(path: &Path, own_start: &[u8], what: &str) -> io::Result<()> {
    let Ok(meta) = fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() || meta.len() == 0 {
        return Ok(());
    }
    let mut head = Vec::with_capacity(own_start.len());
    File::open(path)?
        .take(own_start.len() as u64)
        .read_to_end(&mut head)?;
    if head == own_start {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "the file is there and is not {what}, so it is not overwritten; \
             give another file name (or remove this file first)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("standings.csv");
        write(&path, "old\n").unwrap();
        write(&path, "new\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["standings.csv"]);
    }

    #[test]
    fn a_failed_fill_keeps_the_old_contents() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tournament.toml");
        write(&path, "kept").unwrap();
        let e = write_with(&path, |f| {
            f.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(fs::read_to_string(&path).unwrap(), "kept");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
