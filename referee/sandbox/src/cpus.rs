//! CPUs a referee pins its games to, claimed from the other referees on
//! the machine: two tournaments (or two checks of a CI runner) that pinned
//! their games to the same CPU would halve each other's speed and time
//! honest bots out.
//!
//! A claim is an exclusive lock on a file per CPU in [`CPU_LOCKS`]
//! (an open-file-description lock, `F_OFD_SETLK`: it belongs to the open
//! file, so two workers of one referee cannot both hold a CPU, and it ends
//! with the referee, however it dies). Taking one needs the file open for
//! writing, which no bot may do (Landlock, and strict's private `/tmp`),
//! and the files are write-only (mode 0222), so a bot cannot open one to
//! take a shared lock either: it cannot hold a CPU from the referees.

use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// The folder of the lock files, one per CPU (`cpu0`, `cpu1`, ...), shared
/// by every referee of the machine whatever its user (mode 1777).
pub const CPU_LOCKS: &str = "/tmp/referee-cpus";

/// The CPUs a referee claimed, held until it is dropped.
#[derive(Debug)]
pub struct CpuClaims {
    /// The CPUs claimed, in order; empty: games are not pinned.
    cpus: Vec<usize>,
    /// Why none were claimed, if none were.
    unpinned: Option<&'static str>,
    /// How many workers share the claimed CPUs.
    workers: usize,
    /// How many CPUs were wanted: one per worker, as far as there are CPUs
    /// (none on a machine of one).
    wanted: usize,
    /// The locked files: the claim lasts while they are open.
    _locks: Vec<File>,
}

impl CpuClaims {
    /// Claims, for `workers` workers, up to one CPU each among those this
    /// process may use and no other referee holds, the lowest first. None
    /// when fewer than two CPUs may be used (nothing to choose), or when
    /// every one is held.
    pub fn claim(workers: usize) -> CpuClaims {
        Self::claim_in(Path::new(CPU_LOCKS), workers)
    }

    fn claim_in(folder: &Path, workers: usize) -> CpuClaims {
        let workers = workers.max(1);
        let usable = usable_cpus();
        let mut claims = CpuClaims {
            cpus: Vec::new(),
            unpinned: None,
            workers,
            wanted: 0,
            _locks: Vec::new(),
        };
        if usable.len() < 2 {
            claims.unpinned = Some("one CPU to run on");
            return claims;
        }
        claims.wanted = workers.min(usable.len());
        if !lock_folder(folder) {
            claims.unpinned = Some("no folder for the CPU locks");
            return claims;
        }
        for cpu in usable {
            if claims.cpus.len() == workers {
                break;
            }
            if let Some(lock) = try_lock(&folder.join(format!("cpu{cpu}"))) {
                claims.cpus.push(cpu);
                claims._locks.push(lock);
            }
        }
        if claims.cpus.is_empty() {
            claims.unpinned = Some("every CPU it may use is held by another referee");
        }
        claims
    }

    /// The CPUs claimed (empty: games are not pinned).
    pub fn cpus(&self) -> &[usize] {
        &self.cpus
    }

    /// Fewer CPUs were claimed than wanted (other referees hold them):
    /// worth saying.
    pub fn short(&self) -> bool {
        self.cpus.len() < self.wanted
    }

    /// Pins the calling thread, and so every bot it starts afterwards
    /// (children inherit the mask), to the claimed CPU of worker `slot`
    /// (workers share them in turn when fewer were free than workers);
    /// nothing if none was claimed. A game's three processes then share a
    /// CPU: strictly alternating play needs one at a time, and a pipe round
    /// trip within one CPU is several times cheaper than across CPUs.
    pub fn pin_worker(&self, slot: usize) {
        if self.cpus.is_empty() {
            return;
        }
        let cpu = self.cpus[slot % self.cpus.len()];
        let mut one = rustix::thread::CpuSet::new();
        one.set(cpu);
        let _ = rustix::thread::sched_setaffinity(None, &one);
    }

    /// One line saying where the games run, for the terminal.
    pub fn describe(&self) -> String {
        let list = |cpus: &[usize]| {
            cpus.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.unpinned {
            Some(why) => format!("cpus: games not pinned ({why}; locks in {CPU_LOCKS})"),
            None if self.short() => format!(
                "cpus: games pinned to CPU {}: only {} of the {} workers' CPUs free of other \
                 referees (locks in {CPU_LOCKS}), so workers share them",
                list(&self.cpus),
                self.cpus.len(),
                self.workers
            ),
            None => format!(
                "cpus: games pinned to CPU {} (held from other referees, locks in {CPU_LOCKS})",
                list(&self.cpus)
            ),
        }
    }
}

/// The CPUs this process may run on, in order.
fn usable_cpus() -> Vec<usize> {
    let Ok(allowed) = rustix::thread::sched_getaffinity(None) else {
        return Vec::new();
    };
    (0..rustix::thread::CpuSet::MAX_CPU)
        .filter(|&c| allowed.is_set(c))
        .collect()
}

/// Makes the lock folder, open to every user (sticky, as `/tmp`), if it is
/// not there. False if it cannot be had.
fn lock_folder(folder: &Path) -> bool {
    // A real folder, not a link another user made to one of theirs.
    if let Ok(meta) = std::fs::symlink_metadata(folder) {
        return meta.is_dir();
    }
    if std::fs::create_dir_all(folder).is_err() && !folder.is_dir() {
        return false;
    }
    // The umask took bits away; the folder is every referee's.
    let _ = std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o1777));
    true
}

/// The lock file at `path`, opened for writing (made if missing, writable by
/// every user, readable by none: a read lock needs it readable) and locked
/// exclusively, or `None` if another holds it.
///
/// The folder is every user's: another user may have put a link there, or
/// a pipe, under the name of a CPU's file before any referee made it (a
/// root referee that followed `cpu0 -> /etc/shadow` made that file
/// writable by all). So a link is never followed, a pipe never waited on,
/// only a plain file with one name is locked, and only a file of this
/// process's own user has its mode set.
fn try_lock(path: &Path) -> Option<File> {
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o222)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let stat = rustix::fs::fstat(&file).ok()?;
    let plain =
        rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::RegularFile;
    if !plain || stat.st_nlink != 1 {
        return None;
    }
    // The umask took bits away: another user's referee must open it too.
    if stat.st_uid == rustix::process::geteuid().as_raw() {
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o222));
    }
    // SAFETY: flock is plain data; fcntl reads it.
    let locked = unsafe {
        let mut lock: libc::flock = std::mem::zeroed();
        lock.l_type = libc::F_WRLCK as libc::c_short;
        lock.l_whence = libc::SEEK_SET as libc::c_short;
        libc::fcntl(file.as_raw_fd(), libc::F_OFD_SETLK, &lock) == 0
    };
    locked.then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What another user may have put in the shared folder under a CPU's
    /// name (a link to a file of root's, a pipe) is neither followed nor
    /// waited on, nor locked; a folder that is a link is not used.
    #[test]
    fn links_and_pipes_under_a_cpus_name_are_left_alone() {
        if usable_cpus().len() < 2 {
            return;
        }
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("secret");
        std::fs::write(&target, "x").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let locks = folder.path().join("locks");
        std::fs::create_dir(&locks).unwrap();
        let cpus = usable_cpus();
        for (i, cpu) in cpus.iter().enumerate() {
            let name = locks.join(format!("cpu{cpu}"));
            if i % 2 == 0 {
                std::os::unix::fs::symlink(&target, &name).unwrap();
            } else {
                rustix::fs::mknodat(
                    rustix::fs::CWD,
                    &name,
                    rustix::fs::FileType::Fifo,
                    rustix::fs::Mode::from_raw_mode(0o666),
                    0,
                )
                .unwrap();
            }
        }
        let claims = CpuClaims::claim_in(&locks, 2);
        assert!(claims.cpus().is_empty(), "{}", claims.describe());
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o600, "the link's target had its mode changed");
        let linked = folder.path().join("linked");
        std::os::unix::fs::symlink(folder.path(), &linked).unwrap();
        let claims = CpuClaims::claim_in(&linked, 2);
        assert!(claims.cpus().is_empty(), "{}", claims.describe());
    }

    #[test]
    fn two_claims_never_share_a_cpu_and_a_dropped_claim_frees_its_own() {
        if usable_cpus().len() < 2 {
            return;
        }
        let folder = tempfile::tempdir().unwrap();
        let first = CpuClaims::claim_in(folder.path(), 1);
        assert_eq!(first.cpus().len(), 1, "{}", first.describe());
        let second = CpuClaims::claim_in(folder.path(), 64);
        assert!(
            !second.cpus().contains(&first.cpus()[0]),
            "{} / {}",
            first.describe(),
            second.describe()
        );
        // Every CPU now held: a third referee pins nothing, and says why.
        let third = CpuClaims::claim_in(folder.path(), 1);
        assert!(third.cpus().is_empty(), "{}", third.describe());
        assert!(
            third.describe().contains("not pinned"),
            "{}",
            third.describe()
        );
        let held = first.cpus()[0];
        drop(first);
        let fourth = CpuClaims::claim_in(folder.path(), 1);
        assert_eq!(fourth.cpus(), [held], "{}", fourth.describe());
    }
}
