//! The rules of a policy, path by path: the walk from `/` down to each
//! hidden path that grants every other entry on the way (the module's
//! "How `hidden` is built"), and the anchors every basic bot's rules share.

use super::*;

pub(super) struct PlannedRule {
    /// Where the rule applies (for error messages).
    pub(super) path: PathBuf,
    /// An `O_PATH` descriptor of it.
    pub(super) fd: RuleFd,
    pub(super) access: BitFlags<AccessFs>,
}

/// A rule's `O_PATH` descriptor: opened for it (closed once the rule is
/// added), or one of the referee's [`SharedAnchors`].
pub(super) enum RuleFd {
    Own(OwnedFd),
    Shared(BorrowedFd<'static>),
}

impl AsFd for RuleFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            RuleFd::Own(fd) => fd.as_fd(),
            RuleFd::Shared(fd) => *fd,
        }
    }
}

/// Rule anchors every basic bot's ruleset takes from the same paths: the
/// readable roots every bot has (the system's folders), with their real
/// paths; the entries of `/proc` but the processes' folders; the devices.
/// Opened once per referee, before its first fork of a bot, and kept open
/// (`O_PATH`, close-on-exec): the child of each fork adds its rules on
/// them instead of resolving, opening, checking and closing some 70 paths
/// anew, which was some 300 system calls a bot, most of its start's.
///
/// Only for a child of the referee's own fork (basic): in the referee's
/// mount namespace (the same files; a strict bot's `/proc` is another),
/// with the referee's descriptors open until its exec. A launcher closes
/// them, so it disowns them first ([`disown_shared_anchors`]).
pub(super) struct SharedAnchors {
    roots: Vec<SharedRoot>,
    /// The entries of [`PROC_READABLE`] (links left out).
    proc_entries: Vec<(PathBuf, OwnedFd, FileType)>,
    /// The devices of [`DEVICES`] that are character devices.
    devices: Vec<(PathBuf, OwnedFd)>,
}

/// A readable root of every bot, as named, its real path and its anchor
/// with its kind (`None`: missing).
pub(super) struct SharedRoot {
    named: PathBuf,
    real: PathBuf,
    anchor: Option<(OwnedFd, FileType)>,
}

pub(super) static SHARED_ANCHORS: std::sync::OnceLock<SharedAnchors> = std::sync::OnceLock::new();
pub(super) static SHARED_ANCHORS_DISOWNED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Opens the `SharedAnchors` of `roots` (the readable roots of every
/// bot), once per process: in the referee, before it forks a bot that will
/// use them. A later call with other roots keeps the first ones (a root
/// not among them is opened by each bot itself).
pub fn share_anchors(roots: &[&str]) {
    SHARED_ANCHORS.get_or_init(|| {
        let roots = roots
            .iter()
            .map(|root| {
                let named = PathBuf::from(root);
                let real = std::fs::canonicalize(&named).unwrap_or_else(|_| named.clone());
                let anchor = open_path(&real, false).ok().and_then(|fd| {
                    let stat = rustix::fs::fstat(&fd).ok()?;
                    Some((fd, FileType::from_raw_mode(stat.st_mode)))
                });
                SharedRoot {
                    named,
                    real,
                    anchor,
                }
            })
            .collect();
        let proc_entries = PROC_READABLE
            .iter()
            .filter_map(|name| {
                let path = Path::new("/proc").join(name);
                let fd = open_path(&path, false).ok()?;
                let stat = rustix::fs::fstat(&fd).ok()?;
                let kind = FileType::from_raw_mode(stat.st_mode);
                (kind != FileType::Symlink).then_some((path, fd, kind))
            })
            .collect();
        let devices = DEVICES
            .iter()
            .filter_map(|device| {
                let fd = open_path(Path::new(device), true).ok()?;
                let stat = rustix::fs::fstat(&fd).ok()?;
                (FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice)
                    .then(|| (PathBuf::from(device), fd))
            })
            .collect();
        SharedAnchors {
            roots,
            proc_entries,
            devices,
        }
    });
}

/// In a process whose inherited descriptors may be closed or reused (a
/// launcher), or whose mounts are not the referee's: the shared anchors
/// are never used in it.
pub fn disown_shared_anchors() {
    SHARED_ANCHORS_DISOWNED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// The shared anchors, if this process may use them. Never initialises
/// them: in a child of a fork another thread may have been doing it.
pub(super) fn shared_anchors() -> Option<&'static SharedAnchors> {
    if SHARED_ANCHORS_DISOWNED.load(std::sync::atomic::Ordering::SeqCst) {
        return None;
    }
    SHARED_ANCHORS.get()
}

/// What of `/proc` a bot reads under [`FsPolicy::own_proc_only`] besides
/// its own process's folder: the machine's figures that C libraries and
/// runtimes read as they start or size themselves (processors, memory, the
/// kernel's settings under `sys`, the cgroup controllers a JVM looks for).
///
/// Why a list, not every entry but the processes' folders: each entry is a
/// Landlock rule, which every bot's start pays for twice in the kernel
/// (about 60 more rules, most of a basic bot's), and the rest tells a bot
/// nothing it needs (the kernel's symbols and log, the machine's devices
/// and interrupts, every user's keys).
pub const PROC_READABLE: &[&str] = &[
    "cpuinfo",
    "meminfo",
    "stat",
    "sys",
    "filesystems",
    "cgroups",
    "version",
    "uptime",
    "loadavg",
];

/// A rule of `access` on a shared anchor of type `kind`, as
/// [`planned_rule`] makes one (none for a link).
pub(super) fn shared_rule(
    path: &Path,
    fd: &'static OwnedFd,
    kind: FileType,
    access: BitFlags<AccessFs>,
) -> Option<PlannedRule> {
    let access = match kind {
        FileType::Symlink => return None,
        FileType::Directory => access,
        _ => access & AccessFs::from_file(NEWEST_ABI),
    };
    Some(PlannedRule {
        path: path.to_path_buf(),
        fd: RuleFd::Shared(fd.as_fd()),
        access,
    })
}

/// Receives the rules one by one.
type AddRule<'a> = dyn FnMut(PlannedRule) -> Result<(), LandlockError> + 'a;

/// Opens every path the policy names, decides every rule and hands it to
/// `add`, one at a time: a rule's descriptor is closed once added, so the
/// walk needs only a few descriptors at once (the launcher may already have
/// lowered `RLIMIT_NOFILE`), and the kernel never has to grow the
/// descriptor table. Restricts nothing itself.
pub(super) fn for_each_rule(policy: &FsPolicy, add: &mut AddRule<'_>) -> Result<(), LandlockError> {
    let writable = grant_paths(
        &policy.writable,
        AccessFs::from_all(NEWEST_ABI),
        "writable path ",
        add,
    )?;
    for_each_rule_but_writable(policy, &writable, add).map(drop)
}

/// Every rule of `policy` but those of its writable paths (whose real
/// paths are `writable`, for the check that no hidden path lies beneath
/// one). Returns the real hidden paths.
pub(super) fn for_each_rule_but_writable(
    policy: &FsPolicy,
    writable: &[PathBuf],
    add: &mut AddRule<'_>,
) -> Result<Vec<PathBuf>, LandlockError> {
    let exposed = grant_paths(
        &policy.exposed,
        AccessFs::from_read(NEWEST_ABI),
        "exposed path ",
        add,
    )?;
    let granted: Vec<PathBuf> = writable.iter().chain(&exposed).cloned().collect();
    let hidden = real_hidden_paths(policy, &granted)?;
    grant_readable_roots(policy, &hidden, add)?;
    grant_listing(policy, add)?;
    grant_devices(add)?;
    Ok(hidden)
}

/// Listing beneath each listable folder (see [`FsPolicy::listable`]).
pub(super) fn grant_listing(policy: &FsPolicy, add: &mut AddRule<'_>) -> Result<(), LandlockError> {
    for folder in &policy.listable {
        let Ok(fd) = open_path(folder, true) else {
            continue;
        };
        let is_dir = rustix::fs::fstat(&fd)
            .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Directory);
        if is_dir {
            add(PlannedRule {
                path: folder.clone(),
                fd: RuleFd::Own(fd),
                access: AccessFs::ReadDir.into(),
            })?;
        }
    }
    Ok(())
}

/// `access` beneath each of `paths` (`what` they are, for errors: each
/// must exist). Returns their real paths.
pub(super) fn grant_paths(
    paths: &[PathBuf],
    access: BitFlags<AccessFs>,
    what: &'static str,
    add: &mut AddRule<'_>,
) -> Result<Vec<PathBuf>, LandlockError> {
    let mut granted: Vec<PathBuf> = Vec::new();
    for path in paths {
        let real = std::fs::canonicalize(path).map_err(|e| LandlockError::path(what, path, e))?;
        let fd = open_path(&real, true).map_err(|e| LandlockError::path(what, path, e))?;
        if let Some(rule) = planned_rule(real.clone(), RuleFd::Own(fd), access)? {
            add(rule)?;
        }
        granted.push(real);
    }
    Ok(granted)
}

/// The real paths of the hidden ones that exist; a hidden path beneath a
/// granted one is refused (Landlock rights only add up).
pub(super) fn real_hidden_paths(
    policy: &FsPolicy,
    granted: &[PathBuf],
) -> Result<Vec<PathBuf>, LandlockError> {
    let mut hidden: Vec<PathBuf> = Vec::new();
    for path in &policy.hidden {
        match std::fs::canonicalize(path) {
            Ok(real) => {
                if let Some(outer) = granted.iter().find(|g| real.starts_with(g)) {
                    return Err(LandlockError::HiddenInsideGranted {
                        path: path.clone(),
                        outer: outer.clone(),
                    });
                }
                hidden.push(real);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(LandlockError::path("hidden path ", path, e)),
        }
    }
    Ok(hidden)
}

/// Reading beneath each readable root (`/` when the policy names none),
/// but for the hidden paths inside it: the folders leading to one are
/// walked and their other entries granted one by one.
pub(super) fn grant_readable_roots(
    policy: &FsPolicy,
    hidden: &[PathBuf],
    add: &mut AddRule<'_>,
) -> Result<(), LandlockError> {
    let read = AccessFs::from_read(NEWEST_ABI);
    let shared = shared_anchors();
    // Each root's real path, and its shared anchor if it has one.
    let roots: Vec<(PathBuf, Option<&'static (OwnedFd, FileType)>)> = match &policy.readable {
        None => vec![(PathBuf::from("/"), None)],
        Some(roots) => roots
            .iter()
            .filter_map(|r| {
                let known = shared.and_then(|s| s.roots.iter().find(|root| root.named == *r));
                match known {
                    Some(root) => Some((root.real.clone(), root.anchor.as_ref())),
                    None => std::fs::canonicalize(r).ok().map(|real| (real, None)),
                }
            })
            .collect(),
    };
    for (root, anchor) in &roots {
        // A root inside a hidden path stays hidden (what the bot needs
        // there is in `exposed`).
        if hidden.iter().any(|h| root.starts_with(h)) {
            continue;
        }
        if policy.own_proc_only && root == Path::new("/proc") {
            // Only the machine's figures ([`PROC_READABLE`]): no
            // process's folder (its own is granted by the process itself,
            // see `grant_own_proc`).
            match shared {
                Some(shared) => {
                    for (path, fd, kind) in &shared.proc_entries {
                        if let Some(rule) = shared_rule(path, fd, *kind, read) {
                            add(rule)?;
                        }
                    }
                }
                None => {
                    for name in PROC_READABLE {
                        let path = root.join(name);
                        let Ok(fd) = open_path(&path, false) else {
                            continue;
                        };
                        if let Some(rule) = planned_rule(path, RuleFd::Own(fd), read)? {
                            add(rule)?;
                        }
                    }
                }
            }
            continue;
        }
        let inside: Vec<&PathBuf> = hidden.iter().filter(|h| h.starts_with(root)).collect();
        if inside.is_empty() {
            if let Some((fd, kind)) = anchor {
                if let Some(rule) = shared_rule(root, fd, *kind, read) {
                    add(rule)?;
                }
                continue;
            }
            let fd = match open_path(root, false) {
                Ok(fd) => fd,
                Err(Errno::NOENT) => continue,
                Err(e) => return Err(LandlockError::path("", root, e)),
            };
            if let Some(rule) = planned_rule(root.clone(), RuleFd::Own(fd), read)? {
                add(rule)?;
            }
            continue;
        }
        // A path is blocked when it is hidden or leads to a hidden path.
        let blocked = |path: &Path| inside.iter().any(|h| h.starts_with(path));
        let mut walked: Vec<&Path> = inside
            .iter()
            .flat_map(|h| h.ancestors().skip(1))
            .filter(|dir| dir.starts_with(root))
            .filter(|dir| !hidden.iter().any(|h| dir.starts_with(h)))
            .collect();
        walked.sort();
        walked.dedup();
        for dir in walked {
            grant_entries(dir, &blocked, read, add)?;
        }
    }
    Ok(())
}

/// Reading and writing the harmless devices (`/dev/null` and the like).
pub(super) fn grant_devices(add: &mut AddRule<'_>) -> Result<(), LandlockError> {
    if let Some(shared) = shared_anchors() {
        for (path, fd) in &shared.devices {
            add(PlannedRule {
                path: path.clone(),
                fd: RuleFd::Shared(fd.as_fd()),
                access: AccessFs::ReadFile | AccessFs::WriteFile,
            })?;
        }
        return Ok(());
    }
    for device in DEVICES {
        let path = Path::new(device);
        let Ok(fd) = open_path(path, true) else {
            continue;
        };
        let is_char_device = rustix::fs::fstat(&fd)
            .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice);
        // A regular file in place of /dev/null must not become writable.
        if is_char_device {
            add(PlannedRule {
                path: path.to_path_buf(),
                fd: RuleFd::Own(fd),
                access: AccessFs::ReadFile | AccessFs::WriteFile,
            })?;
        }
    }
    Ok(())
}

/// Grants `access` on every entry of `dir` that is not `blocked`, skipping
/// symbolic links, files with a second name, and entries that vanished or
/// cannot be opened; running out of descriptors or memory is an error
/// (skipping would refuse what the policy allows).
///
/// A file's rule is its inode's, whatever name it was reached by: a hard
/// link beside a hidden file (another bot's, placed there by a backup made
/// with `cp -al` or by hand) granted as an entry would grant the hidden
/// name too. So an entry with more than one name is not granted here (a
/// bot's own file is granted to it apart, see `FsPolicy::exposed`).
pub(super) fn grant_entries(
    dir: &Path,
    blocked: &dyn Fn(&Path) -> bool,
    access: BitFlags<AccessFs>,
    add: &mut AddRule<'_>,
) -> Result<(), LandlockError> {
    each_entry(dir, blocked, &mut |path, fd| {
        let linked = rustix::fs::fstat(&fd).is_ok_and(|stat| {
            FileType::from_raw_mode(stat.st_mode) != FileType::Directory && stat.st_nlink > 1
        });
        if linked {
            return Ok(());
        }
        match planned_rule(path, RuleFd::Own(fd), access)? {
            Some(rule) => add(rule),
            None => Ok(()),
        }
    })
}

/// Hands every entry of `dir` that is not `blocked` to `each`, with an
/// `O_PATH` descriptor of it (not followed), skipping entries that vanished
/// or cannot be opened; running out of descriptors or memory is an error.
pub(super) fn each_entry(
    dir: &Path,
    blocked: &dyn Fn(&Path) -> bool,
    each: &mut dyn FnMut(PathBuf, OwnedFd) -> Result<(), LandlockError>,
) -> Result<(), LandlockError> {
    let listing_error = |source: Errno| LandlockError::Listing {
        dir: dir.to_path_buf(),
        source,
    };
    let dir_fd = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(listing_error)?;
    let mut entries = rustix::fs::Dir::read_from(&dir_fd).map_err(listing_error)?;
    while let Some(entry) = entries.read() {
        let entry = entry.map_err(listing_error)?;
        let name = entry.file_name();
        if matches!(name.to_bytes(), b"." | b"..") {
            continue;
        }
        let path = dir.join(OsStr::from_bytes(name.to_bytes()));
        if blocked(&path) {
            continue;
        }
        let fd = match rustix::fs::openat(
            &dir_fd,
            name,
            OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(e @ (Errno::MFILE | Errno::NFILE | Errno::NOMEM)) => {
                return Err(LandlockError::path("", &path, e))
            }
            Err(_) => continue,
        };
        each(path, fd)?;
    }
    Ok(())
}

/// Opens `path` for use as a rule's anchor (`O_PATH`: no right on the file
/// itself is needed).
pub(super) fn open_path(path: &Path, follow: bool) -> Result<OwnedFd, rustix::io::Errno> {
    let mut flags = OFlags::PATH | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    rustix::fs::open(path, flags, Mode::empty())
}

/// A rule of `access` on `fd`, narrowed to the rights a non-directory can
/// carry when it is not a directory (Landlock refuses directory rights on a
/// file); none for a symbolic link (opened with `O_NOFOLLOW`), see the
/// module documentation.
pub(super) fn planned_rule(
    path: PathBuf,
    fd: RuleFd,
    access: BitFlags<AccessFs>,
) -> Result<Option<PlannedRule>, LandlockError> {
    let stat = rustix::fs::fstat(fd.as_fd()).map_err(|e| LandlockError::path("", &path, e))?;
    let access = match FileType::from_raw_mode(stat.st_mode) {
        FileType::Symlink => return Ok(None),
        FileType::Directory => access,
        _ => access & AccessFs::from_file(NEWEST_ABI),
    };
    Ok(Some(PlannedRule { path, fd, access }))
}
