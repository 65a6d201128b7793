//! Opening a file the referee reads but did not just write: anything in a
//! results folder, a shard or a submission (games, the store, transcripts,
//! `referee.key`, the copy of the tournament file, a report's inputs), and
//! the files named on the command line. Such a file may have been replaced
//! by anyone who can write there: a FIFO would block the referee for ever,
//! a link to `/dev/zero` would fill its memory, a link elsewhere would read
//! what the folder's owner never put there.
//!
//! So every such file is opened here: without waiting (`O_NONBLOCK`: a
//! FIFO opens at once), without following a last link when it lies in a
//! folder ([`Links::Refused`]), then checked to be a regular file on the
//! descriptor itself (no check-then-open race), and read up to a cap: a
//! larger file is refused, and one that grows while read stops at the cap.
//! Each refusal names the file.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Whether a last component that is a symbolic link is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// A file in a folder the referee keeps or reads (a results folder, a
    /// shard, a submission): a link there is refused.
    Refused,
    /// A file the person named (the tournament file, `--key-file`, a
    /// transcript to replay): a link they made leads where they meant.
    Followed,
}

/// The most read of a small text file: a tournament or check file and its
/// copies, `tournament.json`, `seeds.csv`, a template, a check's findings.
pub const TEXT_CAP: u64 = 16 << 20;
/// The most read of one game's transcript.
pub const TRANSCRIPT_CAP: u64 = 256 << 20;
/// The most read of a table streamed row by row (`games.csv`, the store):
/// it is never held whole in memory, so only a file no tournament writes
/// is refused.
pub const TABLE_CAP: u64 = 1 << 40;

/// Why a file was not read: `cannot read PATH: why` ([`InputError::why`]).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {}", self.path().display(), self.why())]
pub enum InputError {
    /// The system's refusal, said in the message (`cannot read PATH:
    /// why`), not chained as its cause, which would say it twice.
    Io {
        path: PathBuf,
        reason: io::Error,
    },
    Link {
        path: PathBuf,
    },
    NotRegular {
        path: PathBuf,
        what: &'static str,
    },
    TooLarge {
        path: PathBuf,
        cap: u64,
    },
    /// Ctrl-C or SIGTERM came while the file was read.
    Stopped {
        path: PathBuf,
    },
}

impl InputError {
    /// Why the file was not read, without its name.
    pub fn why(&self) -> String {
        match self {
            InputError::Io { reason, .. } => reason.to_string(),
            InputError::Link { .. } => {
                "it is a symbolic link; the referee reads files here only as \
                 themselves, never where a link leads: replace it with the file"
                    .into()
            }
            InputError::NotRegular { what, .. } => {
                format!("it is {what}, not a regular file; the referee reads only regular files")
            }
            InputError::TooLarge { cap, .. } => format!(
                "it holds more than {} (the most the referee reads of such a file)",
                show_cap(*cap)
            ),
            InputError::Stopped { .. } => "stopped by Ctrl-C or SIGTERM while reading it".into(),
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            InputError::Io { path, .. }
            | InputError::Link { path }
            | InputError::NotRegular { path, .. }
            | InputError::TooLarge { path, .. }
            | InputError::Stopped { path } => path,
        }
    }

    /// Whether the file is simply not there.
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io { reason, .. } if reason.kind() == io::ErrorKind::NotFound)
    }
}

/// For readers that speak `io::Error` (CSV, JSON): the message keeps the
/// file's name, and the error can be taken back out ([`from_io`]).
impl From<InputError> for io::Error {
    fn from(e: InputError) -> io::Error {
        let kind = match &e {
            InputError::Io { reason, .. } => reason.kind(),
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, e)
    }
}

/// The [`InputError`] an `io::Error` carries, if it carries one.
pub fn from_io(e: &io::Error) -> Option<&InputError> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<InputError>())
}

/// A cap in words: `16MiB`, or bytes when not a whole KiB.
fn show_cap(cap: u64) -> String {
    if cap >= 1024 && cap % 1024 == 0 {
        crate::units::show_size_kb(cap / 1024)
    } else {
        format!("{cap} bytes")
    }
}

/// What a file is, in words, for a refusal.
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_fifo() {
        "a FIFO (named pipe)"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "a special file"
    }
}

/// Opens `path` to read: a regular file of at most `cap` bytes (see the
/// module's doc). The file is positioned at its start.
pub fn open(path: &Path, links: Links, cap: u64) -> Result<File, InputError> {
    let mut flags = libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY;
    if links == Links::Refused {
        flags |= libc::O_NOFOLLOW;
    }
    let io = |reason| InputError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let file = match File::options().read(true).custom_flags(flags).open(path) {
        Ok(file) => file,
        // O_NOFOLLOW on a link: ELOOP.
        Err(e) if links == Links::Refused && e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(InputError::Link {
                path: path.to_path_buf(),
            })
        }
        Err(e) => return Err(io(e)),
    };
    check_regular(&file, path, cap)?;
    Ok(file)
}

/// Refuses an open `file` (at `path`) that is not a regular file of at
/// most `cap` bytes: checked on the descriptor, whatever `path` now is.
pub fn check_regular(file: &File, path: &Path, cap: u64) -> Result<(), InputError> {
    let meta = file.metadata().map_err(|reason| InputError::Io {
        path: path.to_path_buf(),
        reason,
    })?;
    if !meta.file_type().is_file() {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            what: kind_of(meta.file_type()),
        });
    }
    if meta.len() > cap {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            cap,
        });
    }
    Ok(())
}

/// A file opened by [`reader`]: reads end with an error once more than
/// its cap was read (a file that grew after it was opened), or once Ctrl-C
/// or SIGTERM comes (a table is read in time proportional to its size: the
/// referee stops all the same). A reader opened after the stop was asked
/// reads on: the standings of the games done are written from the files.
pub struct Capped {
    file: File,
    path: PathBuf,
    cap: u64,
    read: u64,
    stop_before: bool,
}

impl Read for Capped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.stop_before && crate::bot::stop_requested() {
            return Err(InputError::Stopped {
                path: self.path.clone(),
            }
            .into());
        }
        // One byte beyond the cap is asked for, to see that there is one.
        let room = (self.cap - self.read.min(self.cap)).saturating_add(1);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..want])?;
        self.read += n as u64;
        if self.read > self.cap {
            return Err(InputError::TooLarge {
                path: self.path.clone(),
                cap: self.cap,
            }
            .into());
        }
        Ok(n)
    }
}

impl Capped {
    pub fn file(&self) -> &File {
        &self.file
    }
}

/// Opens `path` to be read as a stream (see [`open`]).
pub fn reader(path: &Path, links: Links, cap: u64) -> Result<Capped, InputError> {
    Ok(Capped {
        file: open(path, links, cap)?,
        path: path.to_path_buf(),
        cap,
        read: 0,
        stop_before: crate::bot::stop_requested(),
    })
}

/// The whole of `path` (see [`open`]).
pub fn read(path: &Path, links: Links, cap: u64) -> Result<Vec<u8>, InputError> {
    let mut reader = reader(path, links, cap)?;
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| taken_back(e, path))?;
    Ok(bytes)
}

/// The whole of `path` as UTF-8 text (see [`open`]).
pub fn read_to_string(path: &Path, links: Links, cap: u64) -> Result<String, InputError> {
    let invalid = |why: String| InputError::Io {
        path: path.to_path_buf(),
        reason: io::Error::new(io::ErrorKind::InvalidData, why),
    };
    let bytes = read(path, links, cap)?;
    // UTF-16 of ASCII without its byte-order mark is valid UTF-8 (a NUL
    // beside every character), and was parsed as such.
    if !bytes.starts_with(&[0xff, 0xfe]) && !bytes.starts_with(&[0xfe, 0xff]) && utf16(&bytes) {
        return Err(invalid(UTF16.into()));
    }
    String::from_utf8(bytes).map_err(|e| invalid(not_utf8(e.as_bytes(), &e)))
}

const UTF16: &str = "it is UTF-16 text, not UTF-8 (as some Windows editors and PowerShell's `>` \
                     save files): save it as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8 FILE > NEW`)";

/// Whether `bytes` read as UTF-16 text: its first 64 bytes have a zero
/// byte beside every character, every other byte, always on the same side
/// (UTF-16 of ASCII). A program's zeros fall on both.
fn utf16(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64)];
    let zeros_at = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    let pairs = head.len() / 2;
    pairs >= 2 && even.max(odd) * 4 >= pairs * 3 && even.min(odd) * 8 <= pairs
}

/// Why `bytes` are not UTF-8 text, and what to do: a UTF-16 file (what
/// Windows editors and PowerShell's `>` may save) is named as such, and
/// so is a file that is no text at all (a program given for a file).
fn not_utf8(bytes: &[u8], e: &std::string::FromUtf8Error) -> String {
    let bom16 = bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]);
    let head = &bytes[..bytes.len().min(64)];
    if bom16 || utf16(bytes) {
        return UTF16.into();
    }
    if head.contains(&0) {
        let what = if bytes.starts_with(b"\x7fELF") {
            "a program"
        } else {
            "binary data"
        };
        return format!("it is {what}, not a text file; check the path");
    }
    let at = e.utf8_error().valid_up_to();
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    format!(
        "it is not UTF-8 text (line {line}, byte {}: 0x{:02x}); save it as UTF-8",
        at + 1,
        bytes[at]
    )
}

/// The [`InputError`] of a read of `path` that failed with `e`.
pub fn taken_back(e: io::Error, path: &Path) -> InputError {
    if from_io(&e).is_some() {
        let inner = e.into_inner().expect("checked above");
        return *inner.downcast::<InputError>().expect("checked above");
    }
    InputError::Io {
        path: path.to_path_buf(),
        reason: e,
    }
}

/// Whether something is at `path`, a link counting as itself (never where
/// it leads): what is there is then read through [`open`], which refuses
/// what is not a regular file.
pub fn is_there(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Copies the regular file `from` (a link refused) to the new file `to`,
/// at most `cap` bytes.
pub fn copy(from: &Path, to: &Path, cap: u64) -> Result<u64, InputError> {
    let mut reader = reader(from, Links::Refused, cap)?;
    let mut dest = File::options()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(to)
        .map_err(|reason| InputError::Io {
            path: to.to_path_buf(),
            reason,
        })?;
    io::copy(&mut reader, &mut dest).map_err(|e| taken_back(e, from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("games.csv");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read(&file, Links::Refused, 10).unwrap(), b"0123456789");
        let e = read(&file, Links::Refused, 9).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { cap: 9, .. }), "{e}");
        assert!(e.to_string().contains("games.csv"), "{e}");

        let link = dir.path().join("referee.key");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read(&link, Links::Refused, 100).unwrap_err();
        assert!(matches!(e, InputError::Link { .. }), "{e}");
        // Followed, it leads to a device: refused all the same.
        let e = read(&link, Links::Followed, 100).unwrap_err();
        assert!(matches!(e, InputError::NotRegular { .. }), "{e}");

        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        // Opened without waiting for a writer, and refused.
        let e = read(&fifo, Links::Refused, 100).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");

        let e = read(dir.path(), Links::Refused, 100).unwrap_err();
        assert!(e.to_string().contains("folder"), "{e}");
        assert!(read(&dir.path().join("none"), Links::Refused, 1)
            .unwrap_err()
            .is_not_found());
    }

    #[test]
    fn a_file_that_grows_past_its_cap_while_read_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, "abc").unwrap();
        let mut r = reader(&path, Links::Refused, 5).unwrap();
        std::fs::write(&path, "abcdefgh").unwrap();
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).unwrap_err();
        assert!(matches!(taken_back(e, &path), InputError::TooLarge { .. }));
    }
}
