//! The bots' working directories: one folder per referee, each bot a
//! fresh directory in it (with a file system of its quota's size where
//! the referee may mount one), stale folders of dead referees removed.

use super::*;

/// Takes a folder for the working directories of one context's bots
/// (`referee-bots-PID` in [`workdirs_base`], mode 0711: each bot reaches
/// its own directory but lists none), and the descriptor that holds its
/// lock; the context's [`crate::arena::Footprint`] keeps both, and removes
/// the folder when it goes. One folder for all the context's bots, so that
/// the sandbox can hide the others' directories from each bot. Those of
/// referees that are gone are removed first.
///
/// The referee holds an exclusive lock (`flock`) on its folder while it
/// runs, and a folder is stale only when its lock can be taken: a pid alone
/// does not tell, since a referee in another PID namespace (a container
/// sharing `/dev/shm`) has a pid this one cannot see, or this one's own.
pub(crate) fn take_workdirs_folder() -> io::Result<(std::path::PathBuf, OwnedFd)> {
    let base = workdirs_base();
    remove_stale_workdirs_everywhere();
    let pid = std::process::id();
    let mut last_error = None;
    for n in 0..32 {
        let name = match n {
            0 => format!("referee-bots-{pid}"),
            1..16 => format!("referee-bots-{pid}.{n}"),
            // Names another user cannot have made beforehand (see
            // `lock_folder`): after the pid, a number of the moment.
            _ => format!("referee-bots-{pid}.{}", unforeseeable_number()),
        };
        let dir = base.join(name);
        match lock_folder(&dir) {
            Ok(Some(lock)) => {
                rustix::fs::fchmod(&lock, rustix::fs::Mode::from_raw_mode(0o711))?;
                return Ok((dir, lock));
            }
            // Another referee's (same pid, another namespace), another
            // context's of this one, another user's, or removed by a sweep
            // just made: the next name.
            Ok(None) => {}
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.unwrap_or_else(|| {
        io::Error::other(format!(
            "no folder for the bots' working directories in {}",
            base.display()
        ))
    }))
}

/// A number nobody could have guessed a moment before: the clock's
/// nanoseconds mixed by the standard library's randomly keyed hasher.
fn unforeseeable_number() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    hasher.finish()
}

/// Makes (or finds) folder `dir` and takes its lock: `None` when another
/// process holds it, when the folder was removed before the lock was taken
/// (a sweep that found it unlocked), or when it is another user's. The
/// folders' folder (`/dev/shm`, `/tmp`) is every user's: one who made
/// `referee-bots-PID` for a pid to come would own the folder a root
/// referee then used, and read and change every bot's files in it.
pub(crate) fn lock_folder(dir: &std::path::Path) -> io::Result<Option<OwnedFd>> {
    use rustix::fs::{FlockOperation, Mode, OFlags};
    match std::fs::create_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let fd = match rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if rustix::fs::fstat(&fd)?.st_uid != rustix::process::geteuid().as_raw() {
        return Ok(None);
    }
    match rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => {}
        Err(Errno::WOULDBLOCK) => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    // A folder removed between its making and the lock has no links left.
    if rustix::fs::fstat(&fd)?.st_nlink == 0 {
        return Ok(None);
    }
    Ok(Some(fd))
}

/// Where the bots' working directories go: the temporary folder when the
/// user named one (`TMPDIR`); else `/dev/shm` when it is a tmpfs this
/// process may write, that lets programs run from it, with at least
/// `IN_MEMORY_ROOM` free; else the temporary folder (`/tmp`).
///
/// Why memory first: every bot gets a fresh directory, made and removed
/// around its game. On tmpfs that costs some 10 µs; on a disk file system
/// it costs 100 µs on a quiet ext4 and up to 1 ms after thousands of
/// folders were removed (ext4 steps over recently freed inodes), which
/// became a third of a game's start on a busy machine. Files a bot writes
/// there are then held in memory, within its disk quota.
pub fn workdirs_base() -> std::path::PathBuf {
    if std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty()) {
        return std::env::temp_dir();
    }
    let shm = std::path::Path::new(IN_MEMORY_FOLDER);
    if roomy_tmpfs(shm) {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// The tmpfs that holds the working directories when it can.
pub(crate) const IN_MEMORY_FOLDER: &str = "/dev/shm";

/// The free space an in-memory folder of working directories needs: a few
/// bots' disk quotas at once (64 MiB each by default). A container's
/// 64 MiB `/dev/shm` is too small, and the temporary folder serves.
pub(crate) const IN_MEMORY_ROOM: u64 = 1 << 30;

/// Is `dir` a tmpfs this process may write, mounted without `noexec`
/// (bots may run what they write), with [`IN_MEMORY_ROOM`] free?
// `f_type`'s type differs between targets (i64 on x86-64).
#[allow(clippy::unnecessary_cast)]
pub(crate) fn roomy_tmpfs(dir: &std::path::Path) -> bool {
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    let Ok(fs) = rustix::fs::statfs(dir) else {
        return false;
    };
    let Ok(vfs) = rustix::fs::statvfs(dir) else {
        return false;
    };
    fs.f_type as i64 == TMPFS_MAGIC
        && !vfs.f_flag.intersects(
            rustix::fs::StatVfsMountFlags::RDONLY | rustix::fs::StatVfsMountFlags::NOEXEC,
        )
        && vfs.f_bavail.saturating_mul(vfs.f_frsize) >= IN_MEMORY_ROOM
        && rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).is_ok()
}

/// Room a working directory's own file system has beyond the bot's disk
/// quota, in KiB: a bot that fills it is over its quota, which the referee
/// sees (`output`), and can hold no more than this past it.
pub(crate) const QUOTA_MOUNT_MARGIN_KB: u64 = 1024;

/// A tmpfs the size of a bot's disk quota (plus
/// [`QUOTA_MOUNT_MARGIN_KB`]) and of [`DISK_ENTRIES_LIMIT`] entries,
/// mounted over its working directory: the kernel refuses what a bot
/// writes past it (`ENOSPC`), at once. Measuring the folder every
/// [`DISK_POLL`] alone let a bot that allocates files (`posix_fallocate`,
/// 60 MiB in one call) hold three times its quota before it was seen. Needs
/// the right to mount (root); elsewhere the measure alone bounds it.
pub(crate) struct QuotaMount {
    pub(crate) path: std::path::PathBuf,
}

impl QuotaMount {
    /// Mounts it over `dir` (empty, just made); `None` if there is no quota
    /// or the referee may not mount.
    pub(crate) fn over(dir: &std::path::Path, quota_kb: u64) -> Option<QuotaMount> {
        if quota_kb == 0 {
            return None;
        }
        let options = format!(
            "size={}k,nr_inodes={},mode=0700",
            quota_kb + QUOTA_MOUNT_MARGIN_KB,
            DISK_ENTRIES_LIMIT + 2
        );
        let target = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).ok()?;
        let options = std::ffi::CString::new(options).ok()?;
        // SAFETY: every pointer is to a NUL-terminated string that outlives
        // the call.
        let mounted = unsafe {
            libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                options.as_ptr().cast(),
            )
        } == 0;
        mounted.then(|| QuotaMount {
            path: dir.to_path_buf(),
        })
    }
}

impl Drop for QuotaMount {
    fn drop(&mut self) {
        unmount(&self.path);
    }
}

/// Detaches what is mounted at `path` (a bot's quota mount), if anything.
pub(crate) fn unmount(path: &std::path::Path) {
    let _ = rustix::mount::unmount(
        path,
        rustix::mount::UnmountFlags::DETACH | rustix::mount::UnmountFlags::NOFOLLOW,
    );
}

/// Whether the lock on the folder of working directories of referee `pid`
/// is free (its referee is gone): `None` when there is no such folder in
/// sight. The lock is let go at once.
pub(crate) fn folder_lock_free(dir: &std::path::Path, pid: u32) -> Option<bool> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
        Mode::empty(),
    )
    .ok()?;
    Some(lock_of_the_gone(&fd, pid))
}

/// The longest a referee waits, in all its life, for the locks of folders
/// whose referees are no running processes (see [`lock_of_the_gone`]).
const LOCK_GRACE: Duration = Duration::from_secs(2);

/// Takes the lock of `folder` (a descriptor of a folder of working
/// directories of referee `pid`) if it is free, and keeps it until `folder`
/// is closed. When `pid` is no running process of this machine's, a held
/// lock is waited for a moment: a referee SIGKILLed while it was starting a
/// bot leaves that bot's process between fork and exec, with a copy of the
/// referee's descriptors (the lock's among them), dying of its parent-death
/// signal; the lock goes when it has exited, some milliseconds later on a
/// busy machine, and a referee started meanwhile took the folder and the
/// dead referee's bot cgroups for a live one's and left them. The wait is
/// [`LOCK_GRACE`] at most in a referee's life: a live referee of another
/// PID namespace (whose pid is not this machine's) costs it once.
fn lock_of_the_gone(folder: &OwnedFd, pid: u32) -> bool {
    use rustix::fs::FlockOperation;
    static WAITED_UNTIL: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let take = || rustix::fs::flock(folder, FlockOperation::NonBlockingLockExclusive).is_ok();
    if take() {
        return true;
    }
    // A referee that may be running (or one of another PID namespace's).
    if !sandbox::sees_every_process() || sandbox::process_running(pid) {
        return false;
    }
    let until = *WAITED_UNTIL.get_or_init(|| Instant::now() + LOCK_GRACE);
    while Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
        if take() {
            return true;
        }
    }
    false
}

/// [`remove_stale_workdirs`] in both places a referee may have made its
/// folder: [`workdirs_base`] and the temporary folder.
pub(crate) fn remove_stale_workdirs_everywhere() {
    let base = workdirs_base();
    remove_stale_workdirs(&base);
    let temp = std::env::temp_dir();
    if temp != base {
        remove_stale_workdirs(&temp);
    }
}

/// Removes the folders of working directories of referees no longer
/// running (killed before they could): those whose lock this process can
/// take (see [`take_workdirs_folder`]), and whose pid, when this process can
/// see it, is not a running process.
pub(crate) fn remove_stale_workdirs(temp: &std::path::Path) {
    use rustix::fs::{Mode, OFlags};
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("referee-bots-"))
            .and_then(|p| p.split('.').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if sandbox::process_running(pid) {
            continue;
        }
        let Ok(fd) = rustix::fs::open(
            entry.path(),
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
            Mode::empty(),
        ) else {
            continue;
        };
        // Another user's (a referee of theirs, or planted): theirs to
        // remove. Its unmounts by path would go through whatever that user
        // swapped the folder for meanwhile.
        if rustix::fs::fstat(&fd).map_or(true, |stat| {
            stat.st_uid != rustix::process::geteuid().as_raw()
        }) {
            continue;
        }
        // Held while the folder is removed: a referee making a folder of
        // this name meanwhile finds it gone once it has the lock.
        if lock_of_the_gone(&fd, pid) {
            remove_folder_of_bots(&entry.path());
        }
    }
}

/// The folders of working directories of this process's contexts, for the
/// second Ctrl-C, which ends the referee at once: process-wide, as only a
/// static reaches a signal's watcher (see `install_interrupt_handler`).
static LIVE_FOLDERS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

pub(crate) fn note_live_folder(dir: &std::path::Path) {
    live_folders().push(dir.to_path_buf());
    crate::watch_second_signal();
}

pub(crate) fn forget_live_folder(dir: &std::path::Path) {
    live_folders().retain(|d| d != dir);
}

fn live_folders() -> std::sync::MutexGuard<'static, Vec<std::path::PathBuf>> {
    LIVE_FOLDERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes the folders of working directories of every context, bots'
/// directories included: the referee ends at once. Bots the referee
/// started itself die with it (their parent-death signal); a directory
/// removed under a running bot is gone for it too (no file can be made in
/// a removed directory).
pub(crate) fn remove_live_folders() {
    for dir in live_folders().iter() {
        remove_folder_of_bots(dir);
    }
}

/// Removes a folder of working directories and whatever its bots left
/// in it, once none of them runs (a dead referee's, or a context's whose
/// last bot is gone): their quota mounts first, as a mount point cannot be
/// removed.
pub(crate) fn remove_folder_of_bots(dir: &std::path::Path) {
    for bot in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        unmount(&bot.path());
    }
    if std::fs::remove_dir_all(dir).is_err() {
        // A folder a bot closed to its own user (see `WorkDir`).
        open_folders(dir);
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The space the files under `folder` take (allocated blocks, in KiB) and
/// how many entries it holds, stopping once more than `max_entries` are
/// counted. Symbolic links are not followed. A folder the bot made that
/// cannot be listed (closed to its own user, mode 0300, which a referee
/// without `CAP_DAC_OVERRIDE` cannot read; or nested past `PATH_MAX`)
/// counts as more than `max_entries`: what it holds would go unmeasured
/// (160 MiB written 20 folders deep, under a 64 MiB quota, was `ok`).
pub(crate) fn folder_usage_kb(folder: &std::path::Path, max_entries: usize) -> (u64, usize) {
    use std::os::unix::fs::MetadataExt;
    let mut blocks = 0u64;
    let mut entries = 0usize;
    let mut queue = vec![folder.to_path_buf()];
    while let Some(dir) = queue.pop() {
        let list = match std::fs::read_dir(&dir) {
            Ok(list) => list,
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EACCES | libc::EPERM | libc::ENAMETOOLONG)
                ) =>
            {
                return (blocks / 2, max_entries + 1)
            }
            // Removed or replaced by the bot since it was listed: nothing.
            Err(_) => continue,
        };
        for entry in list.flatten() {
            entries += 1;
            if entries > max_entries {
                return (blocks / 2, entries);
            }
            let Ok(meta) = entry.metadata() else { continue };
            blocks += meta.blocks();
            if meta.is_dir() {
                queue.push(entry.path());
            }
        }
    }
    (blocks / 2, entries)
}

/// A bot's working directory, removed when dropped: with one `rmdir` when
/// the bot left it empty (most do), else with all it holds.
pub(crate) struct WorkDir(pub(crate) tempfile::TempDir);

impl WorkDir {
    pub(crate) fn path(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        // The whole removal opens and lists the folder first: nine system
        // calls a bot where one does.
        if std::fs::remove_dir(self.0.path()).is_ok() {
            self.0.disable_cleanup(true);
        } else if std::fs::remove_dir_all(self.0.path()).is_err() {
            // A folder the bot closed to its own user (mode 0300) cannot be
            // emptied by a referee without `CAP_DAC_OVERRIDE`: it and what
            // it held (in memory, under `/dev/shm`) were left behind.
            open_folders(self.0.path());
        }
    }
}

/// Makes every folder under `dir` its owner's to list and empty again
/// (mode 0700), for its removal to be tried again (the bot is gone).
pub(crate) fn open_folders(dir: &std::path::Path) {
    open_folders_below(dir, 0);
}

/// [`open_folders`] at `depth` folders below the first: each folder is
/// listed through the descriptor it was changed through, so deep folders
/// are reached by short paths; 512 deep at most (a descriptor each).
fn open_folders_below(dir: &std::path::Path, depth: usize) {
    use rustix::fs::{chmod, openat, Mode, OFlags, CWD};
    use std::os::fd::AsRawFd;
    if depth > 512 {
        return;
    }
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in list.flatten() {
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            let path = entry.path();
            // Changed through a descriptor of the folder itself, opened
            // without following a link: a link put in its place since it
            // was listed is not followed to a file of the referee's user.
            let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let Ok(folder) = openat(CWD, &path, flags, Mode::empty()) else {
                continue;
            };
            let itself = format!("/proc/self/fd/{}", folder.as_raw_fd());
            let _ = chmod(itself.as_str(), Mode::from_raw_mode(0o700));
            open_folders_below(std::path::Path::new(&itself), depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder another user made under a referee's name (for a pid to
    /// come, in the every-user `/dev/shm`) is neither taken nor removed:
    /// taken, its owner would reach every bot's files in it. Needs root, to
    /// give a folder to another user; skipped otherwise.
    #[test]
    fn another_users_folder_under_a_referees_name_is_neither_taken_nor_removed() {
        if !rustix::process::geteuid().is_root() {
            return;
        }
        let base = tempfile::tempdir().unwrap();
        let nobody = rustix::process::Uid::from_raw(65534);
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        let planted = base.path().join(format!("referee-bots-{dead}"));
        let stale = base.path().join(format!("referee-bots-{dead}.1"));
        for dir in [&planted, &stale] {
            std::fs::create_dir(dir).unwrap();
        }
        rustix::fs::chown(&planted, Some(nobody), None).unwrap();
        assert!(
            lock_folder(&planted).unwrap().is_none(),
            "another user's folder was taken"
        );
        assert!(
            lock_folder(&stale).unwrap().is_some(),
            "an own folder was not taken"
        );
        remove_stale_workdirs(base.path());
        assert!(planted.is_dir(), "another user's folder was removed");
        assert!(!stale.exists(), "a dead referee's own folder was left");
    }
}
