//! Unpacking a team's submission (a zip, a tar.gz, or a folder) into a
//! fresh folder, entry by entry, with every check done here before a byte
//! is written: a path that would leave the folder (`..`, absolute), a link
//! (symbolic or hard), a device or other special file, a file too large,
//! too many files, too many bytes in all, or a compression ratio only a
//! bomb has. The archive crates only read; nothing they would do on their
//! own (following links, restoring permissions) is used.

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use crate::input_file::{self, Links};

/// The most a submission may hold once unpacked.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Bytes of all files together.
    pub total_bytes: u64,
    /// Files and folders.
    pub entries: u64,
    /// Bytes of one file.
    pub file_bytes: u64,
    /// Unpacked bytes per byte of the archive (checked once an archive
    /// holds more than [`RATIO_FLOOR`] bytes: tiny files compress well).
    pub ratio: u64,
}

/// Below this many unpacked bytes the ratio is not checked.
pub const RATIO_FLOOR: u64 = 1 << 20;

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            total_bytes: 64 << 20,
            entries: 2000,
            file_bytes: 16 << 20,
            ratio: 100,
        }
    }
}

/// Why a submission was refused: the entry at fault and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    #[error("entry '{entry}': {why}")]
    Entry { entry: String, why: String },
    #[error("{0}")]
    Whole(String),
    #[error("cannot read {}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// A file that is not a regular file where one is read (a link or a
    /// FIFO put in place of the archive after it was looked at).
    #[error(transparent)]
    Input(#[from] crate::input_file::InputError),
    #[error("cannot write {}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

fn entry_error(entry: &str, why: impl Into<String>) -> UnpackError {
    UnpackError::Entry {
        entry: crate::text::escape_lines(entry).into_owned(),
        why: why.into(),
    }
}

/// The kinds of entry an archive or folder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    /// A symbolic or hard link (named for the message).
    Link(&'static str),
    Special,
}

/// What the writer has used of the caps so far.
struct Budget {
    caps: Caps,
    /// The archive's own size (0 for a folder: no ratio).
    packed: u64,
    bytes: u64,
    entries: u64,
}

impl Budget {
    fn new(caps: Caps, packed: u64) -> Budget {
        Budget {
            caps,
            packed,
            bytes: 0,
            entries: 0,
        }
    }

    fn count_entry(&mut self, name: &str) -> Result<(), UnpackError> {
        self.entries += 1;
        if self.entries > self.caps.entries {
            return Err(entry_error(
                name,
                format!("more than {} files and folders", self.caps.entries),
            ));
        }
        Ok(())
    }

    fn add_bytes(&mut self, name: &str, n: u64) -> Result<(), UnpackError> {
        self.bytes += n;
        if self.bytes > self.caps.total_bytes {
            return Err(entry_error(
                name,
                format!(
                    "the submission unpacks to more than {} bytes",
                    self.caps.total_bytes
                ),
            ));
        }
        if self.packed > 0
            && self.bytes > RATIO_FLOOR
            && self.bytes > self.packed.saturating_mul(self.caps.ratio)
        {
            return Err(entry_error(
                name,
                format!(
                    "unpacks to more than {} times the archive's {} bytes (a zip bomb?)",
                    self.caps.ratio, self.packed
                ),
            ));
        }
        Ok(())
    }
}

/// The relative path an entry's name stands for, or why it is refused.
fn safe_relative(name: &str) -> Result<PathBuf, UnpackError> {
    if name.contains('\0') {
        return Err(entry_error(name, "its name holds a NUL byte"));
    }
    let path = Path::new(name);
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                return Err(entry_error(name, "its path climbs out of the folder (..)"))
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(entry_error(name, "its path is absolute"))
            }
        }
    }
    Ok(out)
}

/// Writes one entry under `dest` (which this module created: it holds no
/// link, so a path of normal components stays inside it).
fn write_entry(
    dest: &Path,
    name: &str,
    kind: Kind,
    content: &mut dyn Read,
    budget: &mut Budget,
) -> Result<(), UnpackError> {
    let rel = safe_relative(name)?;
    match kind {
        Kind::Link(what) => {
            return Err(entry_error(
                name,
                format!("it is a {what}; submissions may hold only files and folders"),
            ))
        }
        Kind::Special => {
            return Err(entry_error(
                name,
                "it is a device or other special file; submissions may hold only files and folders",
            ))
        }
        Kind::File | Kind::Folder => {}
    }
    budget.count_entry(name)?;
    if rel.as_os_str().is_empty() {
        return Ok(());
    }
    let target = dest.join(&rel);
    let write_err = |source| UnpackError::Write {
        path: target.clone(),
        source,
    };
    if kind == Kind::Folder {
        return fs::create_dir_all(&target).map_err(write_err);
    }
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(write_err)?;
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&target)
        .map_err(|e| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                entry_error(name, "it appears twice")
            } else {
                write_err(e)
            }
        })?;
    // The sizes an archive declares may lie: the bytes are counted as read.
    let mut written = 0u64;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = content
            .read(&mut buf)
            .map_err(|e| entry_error(name, format!("cannot unpack it: {e}")))?;
        if n == 0 {
            break;
        }
        written += n as u64;
        if written > budget.caps.file_bytes {
            return Err(entry_error(
                name,
                format!("it is larger than {} bytes", budget.caps.file_bytes),
            ));
        }
        budget.add_bytes(name, n as u64)?;
        file.write_all(&buf[..n]).map_err(write_err)?;
    }
    Ok(())
}

/// Archive formats a submission may come as, by file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveKind {
    Zip,
    TarGz,
}

impl ArchiveKind {
    /// The format of a file named `name`, and the name without its
    /// extension (`team.tar.gz` -> `team`).
    pub fn of(name: &str) -> Option<(ArchiveKind, &str)> {
        let lower = name.to_ascii_lowercase();
        for (ext, kind) in [
            (".zip", ArchiveKind::Zip),
            (".tar.gz", ArchiveKind::TarGz),
            (".tgz", ArchiveKind::TarGz),
        ] {
            if lower.ends_with(ext) && lower.len() > ext.len() {
                return Some((kind, &name[..name.len() - ext.len()]));
            }
        }
        None
    }
}

/// Unpacks `archive` into `dest`, which must not exist yet (it is made).
pub fn unpack_archive(
    archive: &Path,
    kind: ArchiveKind,
    dest: &Path,
    caps: Caps,
) -> Result<(), UnpackError> {
    let read_err = |source| UnpackError::Read {
        path: archive.to_path_buf(),
        source,
    };
    let file = input_file::open(archive, Links::Refused, caps.total_bytes.saturating_mul(2))?;
    let packed = file.metadata().map_err(read_err)?.len().max(1);
    fs::create_dir(dest).map_err(|source| UnpackError::Write {
        path: dest.to_path_buf(),
        source,
    })?;
    let mut budget = Budget::new(caps, packed);
    match kind {
        ArchiveKind::Zip => unpack_zip(file, dest, &mut budget),
        ArchiveKind::TarGz => unpack_tar_gz(file, dest, &mut budget),
    }
}

fn unpack_zip(mut file: fs::File, dest: &Path, budget: &mut Budget) -> Result<(), UnpackError> {
    let listed = central_directory_entries(&mut file);
    let mut zip = zip::ZipArchive::new(io::BufReader::new(file))
        .map_err(|e| UnpackError::Whole(format!("not a readable zip archive: {e}")))?;
    // The zip crate keeps one entry per name, the last: a file named twice
    // would run as its second copy while a listing shows the first.
    if let Some(listed) = listed.filter(|&n| n != zip.len() as u64) {
        return Err(UnpackError::Whole(format!(
            "its directory lists {listed} entries under {} names: a name appears twice",
            zip.len()
        )));
    }
    if zip.len() as u64 > budget.caps.entries {
        return Err(UnpackError::Whole(format!(
            "the archive holds {} entries; at most {}",
            zip.len(),
            budget.caps.entries
        )));
    }
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| UnpackError::Whole(format!("entry {}: cannot read it: {e}", i + 1)))?;
        // The raw name, not the crate's cleaned one: a `../` is refused,
        // not quietly dropped.
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let mode = entry.unix_mode().unwrap_or(0);
        let kind = match mode & libc::S_IFMT {
            libc::S_IFLNK => Kind::Link("symbolic link"),
            libc::S_IFDIR => Kind::Folder,
            libc::S_IFREG => Kind::File,
            0 if entry.is_dir() => Kind::Folder,
            0 => Kind::File,
            _ => Kind::Special,
        };
        if kind == Kind::File && entry.size() > budget.caps.file_bytes {
            return Err(entry_error(
                &name,
                format!(
                    "it is {} bytes; at most {}",
                    entry.size(),
                    budget.caps.file_bytes
                ),
            ));
        }
        write_entry(dest, &name, kind, &mut entry, budget)?;
    }
    Ok(())
}

/// The number of entries a zip archive's end-of-central-directory record
/// (or its zip64 record) declares; `None` if it cannot be found (the zip
/// crate then says what is wrong).
fn central_directory_entries(file: &mut fs::File) -> Option<u64> {
    use std::io::{Seek, SeekFrom};
    let len = file.metadata().ok()?.len();
    // The record is 22 bytes, followed by a comment of at most 65,535.
    let tail_len = len.min(22 + 65_535);
    file.seek(SeekFrom::Start(len - tail_len)).ok()?;
    let mut tail = vec![0u8; tail_len as usize];
    file.read_exact(&mut tail).ok()?;
    file.seek(SeekFrom::Start(0)).ok()?;
    let at = (0..tail.len().checked_sub(21)?)
        .rev()
        .find(|&i| tail[i..i + 4] == *b"PK\x05\x06")?;
    let entries = u16::from_le_bytes([tail[at + 10], tail[at + 11]]);
    if entries != u16::MAX {
        return Some(u64::from(entries));
    }
    // Zip64: the locator, just before the record, gives the zip64 record's
    // offset; its total of entries is at byte 32.
    let locator = at.checked_sub(20)?;
    if tail[locator..locator + 4] != *b"PK\x06\x07" {
        return None;
    }
    let offset = u64::from_le_bytes(tail[locator + 8..locator + 16].try_into().ok()?);
    let mut record = [0u8; 40];
    file.seek(SeekFrom::Start(offset)).ok()?;
    file.read_exact(&mut record).ok()?;
    file.seek(SeekFrom::Start(0)).ok()?;
    (record[..4] == *b"PK\x06\x06")
        .then(|| u64::from_le_bytes(record[32..40].try_into().expect("8 bytes")))
}

/// Bytes a tar stream may hold per entry allowed, beyond its files' bytes:
/// its header, padding, and a long name or pax records.
const TAR_BYTES_PER_ENTRY: u64 = 16 << 10;

/// A reader that fails once more than `left` bytes came through it: a
/// tar stream's records that are not a file's bytes (a pax header, a GNU
/// long name, whose data the tar crate reads whole into memory; a
/// folder's data, which it skips by reading) are counted too.
struct Capped<R> {
    inner: R,
    left: u64,
    cap: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self.left.checked_sub(n as u64).ok_or_else(|| {
            io::Error::other(format!(
                "the archive unpacks to more than {} bytes of tar records (headers, names and files; a tar bomb?)",
                self.cap
            ))
        })?;
        Ok(n)
    }
}

fn unpack_tar_gz(file: fs::File, dest: &Path, budget: &mut Budget) -> Result<(), UnpackError> {
    let cap = budget
        .caps
        .total_bytes
        .saturating_add(budget.caps.entries.saturating_mul(TAR_BYTES_PER_ENTRY));
    let gz = Capped {
        inner: flate2::read::GzDecoder::new(io::BufReader::new(file)),
        left: cap,
        cap,
    };
    let mut tar = tar::Archive::new(gz);
    let entries = tar
        .entries()
        .map_err(|e| UnpackError::Whole(format!("not a readable tar.gz archive: {e}")))?;
    for (i, entry) in entries.enumerate() {
        let mut entry = entry
            .map_err(|e| UnpackError::Whole(format!("entry {}: cannot read it: {e}", i + 1)))?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        use tar::EntryType as T;
        let kind = match entry.header().entry_type() {
            T::Regular | T::Continuous => Kind::File,
            T::Directory => Kind::Folder,
            T::Symlink => Kind::Link("symbolic link"),
            T::Link => Kind::Link("hard link"),
            // Metadata records of pax and GNU tar are read by the crate
            // itself; they are never files.
            T::XGlobalHeader | T::XHeader | T::GNULongName | T::GNULongLink => continue,
            _ => Kind::Special,
        };
        let declared = entry.header().size().unwrap_or(0);
        if kind == Kind::File && declared > budget.caps.file_bytes {
            return Err(entry_error(
                &name,
                format!("it is {declared} bytes; at most {}", budget.caps.file_bytes),
            ));
        }
        write_entry(dest, &name, kind, &mut entry, budget)?;
    }
    Ok(())
}

/// Copies the folder `top/below` into `dest` (made here) under the same
/// checks: links and special files are refused, not followed.
///
/// A submission's folder may be changed while it is read (a team that can
/// write to it swaps it, or a folder in it, for a link to another team's
/// folder or to the organiser's files): it is read through descriptors,
/// each folder and file opened beneath the one before without following
/// a link (`openat` with `O_NOFOLLOW`), never again by its path. Only
/// `top` (the organiser's `--from` folder) is taken as it is: `below` is
/// the team's (`TEAM`, or `TEAM/DATE` where a team hands in dated
/// folders, whose `TEAM` a team may swap as well).
pub fn copy_folder(top: &Path, below: &Path, dest: &Path, caps: Caps) -> Result<(), UnpackError> {
    use rustix::fs::{openat, AtFlags, Dir, FileType, Mode, OFlags, CWD};
    use std::os::fd::OwnedFd;
    let src = &top.join(below);
    let read_err = |path: PathBuf| {
        move |e: rustix::io::Errno| UnpackError::Read {
            path,
            source: e.into(),
        }
    };
    let folder_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let open_folder = |at: &OwnedFd, name: &Path| openat(at, name, folder_flags, Mode::empty());
    let top_path = if top.as_os_str().is_empty() {
        Path::new(".")
    } else {
        top
    };
    let mut root = openat(
        CWD,
        top_path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(read_err(top_path.to_path_buf()))?;
    for part in below.components() {
        root = open_folder(&root, Path::new(part.as_os_str())).map_err(|e| {
            if e == rustix::io::Errno::LOOP || e == rustix::io::Errno::NOTDIR {
                UnpackError::Whole(
                    "it is a symbolic link or no folder any more; a team's submission is a folder, a .zip, a .tar.gz or one source file"
                        .into(),
                )
            } else {
                read_err(src.to_path_buf())(e)
            }
        })?;
    }
    fs::create_dir(dest).map_err(|source| UnpackError::Write {
        path: dest.to_path_buf(),
        source,
    })?;
    let mut budget = Budget::new(caps, 0);
    let mut queue = vec![PathBuf::new()];
    while let Some(rel) = queue.pop() {
        // Opened from the root down, one name at a time: a folder swapped
        // for a link since it was listed is refused, not followed. (Not
        // kept open while queued: a wide tree would hold a descriptor per
        // folder.)
        let mut dir = root.try_clone().map_err(|source| UnpackError::Read {
            path: src.to_path_buf(),
            source,
        })?;
        for part in rel.components() {
            dir =
                open_folder(&dir, Path::new(part.as_os_str())).map_err(read_err(src.join(&rel)))?;
        }
        let listing = Dir::read_from(&dir).map_err(read_err(src.join(&rel)))?;
        let mut names: Vec<std::ffi::OsString> = Vec::new();
        for entry in listing {
            let entry = entry.map_err(read_err(src.join(&rel)))?;
            let name = std::ffi::OsStr::from_bytes(entry.file_name().to_bytes());
            if name != "." && name != ".." {
                names.push(name.to_os_string());
            }
        }
        names.sort();
        for name in names {
            let rel_entry = rel.join(&name);
            let shown = rel_entry.to_string_lossy().into_owned();
            // Version control data is not the bot's.
            if rel.as_os_str().is_empty() && name == ".git" {
                continue;
            }
            let path = src.join(&rel_entry);
            let stat = rustix::fs::statat(&dir, Path::new(&name), AtFlags::SYMLINK_NOFOLLOW)
                .map_err(read_err(path.clone()))?;
            let kind = match FileType::from_raw_mode(stat.st_mode) {
                FileType::Symlink => Kind::Link("symbolic link"),
                FileType::Directory => Kind::Folder,
                FileType::RegularFile => Kind::File,
                _ => Kind::Special,
            };
            if kind == Kind::Folder {
                write_entry(dest, &shown, kind, &mut io::empty(), &mut budget)?;
                queue.push(rel_entry);
                continue;
            }
            if kind != Kind::File {
                return write_entry(dest, &shown, kind, &mut io::empty(), &mut budget);
            }
            // Opened beneath its folder as it was looked at: a link put in
            // its place since is refused, and a FIFO opens at once and is
            // refused on the descriptor.
            let fd = openat(
                &dir,
                Path::new(&name),
                OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| {
                if e == rustix::io::Errno::LOOP {
                    entry_error(
                        &shown,
                        "it is a symbolic link; submissions may hold only files and folders",
                    )
                } else {
                    read_err(path.clone())(e)
                }
            })?;
            let mut file = fs::File::from(fd);
            let regular = file.metadata().is_ok_and(|m| m.is_file());
            let kind = if regular { Kind::File } else { Kind::Special };
            write_entry(dest, &shown, kind, &mut file, &mut budget)?;
        }
    }
    Ok(())
}

/// Copies the one file `src` into the folder `dest` (made here), under the
/// same checks as a folder's files.
pub fn copy_file(src: &Path, dest: &Path, caps: Caps) -> Result<(), UnpackError> {
    fs::create_dir(dest).map_err(|source| UnpackError::Write {
        path: dest.to_path_buf(),
        source,
    })?;
    let name = src
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let read_err = |source| UnpackError::Read {
        path: src.to_path_buf(),
        source,
    };
    let meta = fs::symlink_metadata(src).map_err(read_err)?;
    let mut budget = Budget::new(caps, 0);
    if !meta.is_file() {
        return write_entry(dest, &name, Kind::Special, &mut io::empty(), &mut budget);
    }
    let mut file = input_file::open(src, Links::Refused, u64::MAX)?;
    write_entry(dest, &name, Kind::File, &mut file, &mut budget)
}

/// Makes a team's unpacked files readable by every user (folders 0755,
/// files 0644, or 0755 where the owner may run them), whatever the
/// umask: under `--sandbox strict` each bot runs as a user of its own.
/// Links and special files are never written here.
pub fn open_to_bots(dest: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut queue = vec![dest.to_path_buf()];
    while let Some(dir) = queue.pop() {
        let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(0o755));
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                queue.push(entry.path());
            } else if kind.is_file() {
                let executable = entry
                    .metadata()
                    .is_ok_and(|m| m.permissions().mode() & 0o100 != 0);
                let mode = if executable { 0o755 } else { 0o644 };
                let _ = fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode));
            }
        }
    }
}

/// An unpacked submission that is one folder and nothing else (`team/`
/// zipped with its folder) stands for that folder's contents. What an
/// archiver adds beside it does not count: macOS's `__MACOSX/` (the
/// Finder's "Compress") and hidden entries such as `.DS_Store`.
pub fn lone_folder(dest: &Path) -> PathBuf {
    let entries: Vec<_> = match fs::read_dir(dest) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name != "__MACOSX" && !name.starts_with('.')
            })
            .collect(),
        Err(_) => return dest.to_path_buf(),
    };
    match entries.as_slice() {
        [only] if only.file_type().map(|t| t.is_dir()).unwrap_or(false) => only.path(),
        _ => dest.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn climbing_and_absolute_names_are_refused() {
        assert!(safe_relative("a/../../b").is_err());
        assert!(safe_relative("/etc/passwd").is_err());
        assert_eq!(safe_relative("./a/b").unwrap(), PathBuf::from("a/b"));
    }

    #[test]
    fn archive_names_lose_their_extension() {
        assert_eq!(
            ArchiveKind::of("Team.TAR.GZ"),
            Some((ArchiveKind::TarGz, "Team"))
        );
        assert_eq!(ArchiveKind::of("x.zip"), Some((ArchiveKind::Zip, "x")));
        assert_eq!(ArchiveKind::of(".zip"), None);
        assert_eq!(ArchiveKind::of("main.py"), None);
    }
}
