//! The bot's own mount namespace under strict: private `/tmp` and
//! `/dev/shm`, the referee's files and closed folders covered, the rest
//! of the tree read-only.

use super::*;

/// Under strict: a private mount namespace in which
/// - `/proc` is the bot's own PID namespace's (it sees only its processes);
/// - `/tmp` and `/dev/shm` are private 64 MiB tmpfs, its working directory
///   bound into the one it lies in, at the same path;
/// - folders closed to others that the bot needs ([`Exposure`]) are shown,
///   read-only, on a tmpfs that hides the rest of the closed folder;
/// - every other file system is read-only.
pub(crate) fn enter_mount_namespace(
    spec: &LaunchSpec,
    strict: &StrictSpec,
    exposures: &[Exposure],
) -> Result<(), StepError> {
    sandbox::unshare_namespaces(libc::CLONE_NEWNS).map_err(|e| StepError::new(MOUNTS, e))?;
    mount_fs(c"none", c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
    // Handles on what gets hidden, taken in the new namespace (a bind's
    // source must be in it) before it is hidden.
    let workdir_fd = open_o_path(&spec.workdir)?;
    let exposure_fds = exposures
        .iter()
        .map(|e| open_o_path(&e.path))
        .collect::<Result<Vec<_>, _>>()?;
    // A working directory in a folder closed to others (a compiler's, in
    // a cache under /root) is reached through a cover of that folder.
    let own_user = matches!(spec.identity, Some(Identity { uid: Some(_), .. }));
    let workdir_cover = if own_user && !in_private_tmpfs(&spec.workdir) {
        closed_ancestor(&spec.workdir)
    } else {
        None
    };
    // Every file system read-only at once where the kernel can; what is
    // mounted after (the private /tmp, /dev/shm, /proc, the covers) is
    // not, and the working directory is made writable again.
    let tree_read_only = make_tree_read_only();
    let covers = cover_closed_folders(exposures, &exposure_fds, &spec.workdir, workdir_cover)?;
    private_tmpfs(spec, &workdir_fd, exposures, &exposure_fds)?;
    if tree_read_only {
        // Bound from a mount now read-only, the working directory is too.
        mount_fs(
            c"none",
            &cstring(MOUNTS, &spec.workdir)?,
            None,
            libc::MS_REMOUNT | libc::MS_BIND,
            None,
        )?;
    }
    let mut needed = needed_folders(spec);
    needed.extend(spec.program.canonicalize());
    hide_referees_files(spec, &needed)?;
    if !tree_read_only {
        remount_read_only(strict, &covers)?;
    }
    mount_fs(
        c"proc",
        c"/proc",
        Some(c"proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    )?;
    // The machine's cgroups hold every other bot's statistics (its CPU
    // time as it thinks, its memory) and the referee's: an empty folder
    // over them. (A runtime that sizes itself by its cgroup finds none, as
    // outside a container; the run command gives the heap its size.)
    if Path::new(CGROUPS).is_dir() {
        mount_fs(
            c"tmpfs",
            &cstring(MOUNTS, Path::new(CGROUPS))?,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
            Some(c"size=4k,mode=0555"),
        )?;
    }
    drop(workdir_fd);
    drop(exposure_fds);
    // The working directory std entered before this is the one now hidden.
    std::env::set_current_dir(&spec.workdir)
        .map_err(|e| StepError::at(MOUNTS, &spec.workdir, e))?;
    Ok(())
}

/// The step every mount belongs to, for the error message.
pub(crate) const MOUNTS: Step = Step::PrivateMounts;

/// Where the machine's cgroups are mounted, covered for a strict bot.
const CGROUPS: &str = "/sys/fs/cgroup";

/// mount(2), its failure named as the private-mounts step.
pub(crate) fn mount_fs(
    source: &CStr,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    data: Option<&CStr>,
) -> Result<(), StepError> {
    // SAFETY: valid NUL-terminated strings or null.
    let r = unsafe {
        libc::mount(
            source.as_ptr(),
            target.as_ptr(),
            fstype.map_or(std::ptr::null(), |s| s.as_ptr()),
            flags,
            data.map_or(std::ptr::null(), |s| s.as_ptr().cast()),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        let error = io::Error::last_os_error();
        let target = Path::new(std::ffi::OsStr::from_bytes(target.to_bytes()));
        Err(StepError::at(MOUNTS, target, error))
    }
}

/// An `O_PATH` handle on a folder about to be covered.
pub(crate) fn open_o_path(path: &Path) -> Result<OwnedFd, StepError> {
    rustix::fs::open(
        path,
        rustix::fs::OFlags::PATH | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .map_err(|e| StepError::at(MOUNTS, path, e))
}

/// The path through which a handle is mounted.
pub(crate) fn fd_path(fd: &OwnedFd) -> CString {
    use std::os::fd::AsRawFd;
    CString::new(format!("/proc/self/fd/{}", fd.as_raw_fd())).expect("no NUL")
}

/// Shows the folder (or file) behind `fd` at `path`, read-only, on a
/// cover: the folders leading to it that the cover lacks are made, open
/// to all (mode 0755, whatever the umask).
pub(crate) fn bind_read_only(fd: &OwnedFd, path: &Path) -> Result<(), StepError> {
    let is_dir = rustix::fs::fstat(fd)
        .map(|stat| {
            rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Directory
        })
        .map_err(|e| StepError::at(MOUNTS, path, e))?;
    let folder = if is_dir { Some(path) } else { path.parent() };
    if let Some(folder) = folder {
        make_open_folders(folder)?;
    }
    if !is_dir && !path.exists() {
        std::fs::File::create(path).map_err(|err| StepError::at(MOUNTS, path, err))?;
    }
    let target = cstring(MOUNTS, path)?;
    mount_fs(
        &fd_path(fd),
        &target,
        None,
        libc::MS_BIND | libc::MS_REC,
        None,
    )?;
    mount_fs(
        c"none",
        &target,
        None,
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        None,
    )
}

/// `create_dir_all`, each folder it makes open to all (0755): the bot's
/// user must pass through them, and the referee's umask may be 077.
pub(crate) fn make_open_folders(folder: &Path) -> Result<(), StepError> {
    let missing: Vec<&Path> = folder.ancestors().take_while(|a| !a.exists()).collect();
    for dir in missing.into_iter().rev() {
        std::fs::create_dir(dir)
            .and_then(|()| std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)))
            .map_err(|err| StepError::at(MOUNTS, dir, err))?;
    }
    Ok(())
}

/// Folders under closed ones: a small tmpfs over each closed folder, the
/// needed folders bound back in, all read-only. Returns the covered folders.
pub(crate) fn cover_closed_folders(
    exposures: &[Exposure],
    fds: &[OwnedFd],
    workdir: &Path,
    workdir_cover: Option<PathBuf>,
) -> Result<Vec<PathBuf>, StepError> {
    let mut covers: Vec<PathBuf> = Vec::new();
    for cover in exposures
        .iter()
        .map(|e| e.cover.clone())
        .chain(workdir_cover)
    {
        if cover != Path::new(TMP) && !covers.contains(&cover) {
            covers.push(cover);
        }
    }
    for cover in &covers {
        let target = cstring(MOUNTS, cover)?;
        let small = c"size=1m,mode=0755";
        mount_fs(
            c"tmpfs",
            &target,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(small),
        )?;
        for (e, fd) in exposures.iter().zip(fds) {
            if e.cover == *cover {
                bind_read_only(fd, &e.path)?;
            }
        }
        // A working directory under the cover (a compiler's, in the
        // cache) gets its mount point before the cover turns read-only.
        if workdir.starts_with(cover) && !exposures.iter().any(|e| workdir.starts_with(&e.path)) {
            make_open_folders(workdir)?;
        }
        mount_fs(
            c"none",
            &target,
            None,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            Some(small),
        )?;
    }
    Ok(covers)
}

/// The folders that get a private tmpfs in a strict bot's namespace.
pub(crate) const PRIVATE_TMPFS: [&str; 2] = [TMP, "/dev/shm"];

/// Is `path` in a folder that gets a private tmpfs (its working directory
/// then needs no cover: it is bound into that tmpfs)?
pub(crate) fn in_private_tmpfs(path: &Path) -> bool {
    PRIVATE_TMPFS.iter().any(|folder| path.starts_with(folder))
}

/// Its own /tmp and /dev/shm, with its working directory (read-write, in
/// either, see `bot::workdirs_base`) and what it needs from the real /tmp
/// (read-only) at the same paths.
pub(crate) fn private_tmpfs(
    spec: &LaunchSpec,
    workdir_fd: &OwnedFd,
    exposures: &[Exposure],
    fds: &[OwnedFd],
) -> Result<(), StepError> {
    for folder in PRIVATE_TMPFS {
        mount_fs(
            c"tmpfs",
            &cstring(MOUNTS, Path::new(folder))?,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(c"size=64m,mode=1777"),
        )?;
    }
    make_open_folders(&spec.workdir)?;
    mount_fs(
        &fd_path(workdir_fd),
        &cstring(MOUNTS, &spec.workdir)?,
        None,
        libc::MS_BIND,
        None,
    )?;
    for (e, fd) in exposures.iter().zip(fds) {
        if e.cover == Path::new(TMP) {
            bind_read_only(fd, &e.path)?;
        }
    }
    Ok(())
}

/// Where the blank file that hides a file lies (the private `/dev/shm`).
pub(crate) const BLANK_FILE: &str = "/dev/shm/.referee-hidden";

/// The referee's own files and the other bots': an empty read-only tmpfs
/// over each hidden folder, an empty file over each hidden file (after the
/// folders shown before, which may hold one), each of mode 0 and root's:
/// the bot's user can neither list nor open them (EACCES, as Landlock
/// refuses under basic), even where Landlock grants the place (the private
/// `/tmp`, which the bot may write, may show its own folder with another
/// bot's file in it).
pub(crate) fn hide_referees_files(spec: &LaunchSpec, needed: &[PathBuf]) -> Result<(), StepError> {
    let mut blank: Option<CString> = None;
    for hidden in &spec.hidden {
        // What the bot needs (its own files, among the run's bots' files
        // that are hidden from every bot; its folder, in the folder of
        // bots that is hidden) stays; Landlock hides the rest of a hidden
        // folder that holds it.
        let hidden = hidden.canonicalize().unwrap_or_else(|_| hidden.clone());
        if needed.iter().any(|n| n.starts_with(&hidden)) {
            continue;
        }
        let Ok(meta) = std::fs::metadata(&hidden) else {
            continue;
        };
        let hidden = &hidden;
        let target = cstring(MOUNTS, hidden)?;
        if meta.is_dir() {
            mount_fs(
                c"tmpfs",
                &target,
                Some(c"tmpfs"),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_RDONLY,
                Some(c"size=4k,mode=0000"),
            )?;
        } else {
            if blank.is_none() {
                std::fs::File::create(BLANK_FILE)
                    .and_then(|_| {
                        std::fs::set_permissions(BLANK_FILE, std::fs::Permissions::from_mode(0o0))
                    })
                    .map_err(|e| StepError::at(MOUNTS, Path::new(BLANK_FILE), e))?;
                blank = Some(cstring(MOUNTS, Path::new(BLANK_FILE))?);
            }
            let source = blank.as_deref().unwrap_or(c"/dev/null");
            mount_fs(source, &target, None, libc::MS_BIND, None)?;
        }
    }
    Ok(())
}

/// Every mount of the namespace read-only in one call (`mount_setattr`
/// with `AT_RECURSIVE`, Linux 5.12): some 15 remounts fewer per bot. False
/// where the kernel has no such call or a mount refuses (the call changes
/// all or nothing): [`remount_read_only`] then does it one mount at a time.
pub(crate) fn make_tree_read_only() -> bool {
    /// `struct mount_attr` of `<linux/mount.h>`.
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    const AT_RECURSIVE: libc::c_uint = 0x8000;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a NUL-terminated path and a pointer to a local of the size
    // given.
    unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ) == 0
    }
}

/// Every other file system read-only; the root and the cgroup file systems
/// must be, other special mounts may refuse and stay as they are.
pub(crate) fn remount_read_only(strict: &StrictSpec, covers: &[PathBuf]) -> Result<(), StepError> {
    for (point, flags) in &strict.read_only {
        if point.starts_with("/tmp") || covers.iter().any(|c| point.starts_with(c)) {
            continue;
        }
        let r = mount_fs(
            c"none",
            &cstring(MOUNTS, point)?,
            None,
            libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | *flags as libc::c_ulong,
            None,
        );
        if r.is_err() && (point == Path::new("/") || point.starts_with("/sys/fs/cgroup")) {
            return r;
        }
    }
    Ok(())
}
