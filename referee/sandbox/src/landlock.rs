//! Confines the calling process's file-system access, TCP and signals with
//! Landlock, the unprivileged Linux security module (Linux 5.13+), for a
//! bot's process between fork and exec.
//!
//! # What [`confine`] enforces
//!
//! - Everywhere outside [`FsPolicy::hidden`]: read files, list directories,
//!   execute. Nothing may be written, created, removed, renamed, linked or
//!   truncated, and no device node, socket, fifo or symlink made.
//! - Beneath each [`FsPolicy::writable`] path: every right.
//! - The character devices [`DEVICES`] (those that exist): read and write,
//!   so `> /dev/null` works; still nothing may be created in `/dev`.
//! - Beneath each [`FsPolicy::hidden`] path: nothing may be read, listed or
//!   executed, except what [`FsPolicy::exposed`] grants back (read and
//!   execute).
//! - TCP (ABI 4+): `bind` and `connect` are refused (EACCES) on every port.
//!   UDP and other socket families are not Landlock's business.
//! - Scopes (ABI 6+): no signal to a process outside the caller's Landlock
//!   domain (EPERM), and no `connect` to an abstract Unix socket created
//!   outside it (EPERM).
//! - Pathname Unix sockets (ABI 9+, when the kernel has it): `connect` only
//!   beneath the writable paths. Below ABI 9 a confined process may connect
//!   to any Unix socket file its user may open; [`Confinement::Full`] does
//!   not cover this point.
//!
//! Refusals of a file access come back as EACCES (EXDEV for a link or a
//! rename that would give a file more rights in its new place).
//!
//! Landlock also confines processes among themselves: a confined process
//! fails the kernel's ptrace access check for every process outside its own
//! domain (`ptrace`, `/proc/<pid>/mem`, `environ`, and the other files
//! guarded by that check), whatever its user, and cannot signal it. Two
//! bots confined by two calls are in two sibling domains, so neither can
//! read nor signal the other, nor the referee
//! (`two_confined_processes_cannot_read_nor_signal_each_other`,
//! `cannot_read_nor_signal_an_unconfined_process`). One exception, from
//! the kernel rather than Landlock: in recent kernels (6.18 here) a process
//! holding `CAP_PERFMON` or `CAP_SYS_ADMIN` may read another's `environ`, `auxv` and
//! `maps` (read-only memory-map access) even when the ptrace check fails;
//! `mem` stays refused (`capabilities_let_a_confined_process_read_environ`).
//! Bots run without capabilities, so this holds for them only because the
//! launcher drops them all.
//!
//! # How `hidden` is built
//!
//! Landlock only grants: a rule allows something beneath a file or
//! directory, and nothing can take a right away below a granted directory.
//! So "read everything except H" is an allow-list: walking from `/` down to
//! each hidden path, every entry of every directory on the way is granted
//! read, except the one leading to (or being) a hidden path. Along the way:
//!
//! - A directory entry gets a directory rule, any other entry a file rule.
//! - Symbolic links are skipped: opening one ends at its target, and
//!   Landlock judges the target by its own place in the tree, which the walk
//!   grants if and only if it is outside the hidden paths. Granting on a link
//!   would instead put a rule on its target, which could be a hidden
//!   directory or one of its ancestors.
//! - Entries that vanish or cannot be opened are skipped. Entries are opened
//!   with `O_NOFOLLOW` relative to the listed directory, so one swapped for a
//!   symbolic link meanwhile is skipped too.
//! - A hidden path that does not exist is ignored. A hidden path at or
//!   beneath a writable or exposed path is refused as an error, since rights
//!   only add up and the hiding would be void.
//!
//! Cost: one `open(O_PATH)`, two `fstat` and one `landlock_add_rule` per
//! entry of each directory on the way, before `exec`: so many rules when a
//! hidden path lies in a crowded directory such as `/tmp` (the figures are
//! in docs/measurements.md, "Landlock's hidden paths"). Rules are
//! added one by one as the walk goes, each descriptor closed once its rule
//! is in, so a few descriptors suffice whatever `RLIMIT_NOFILE` is.
//!
//! Limits of this construction:
//! - entries created in those ancestor directories after the call are not
//!   readable (they had no rule);
//! - listing an ancestor of a hidden path (`ls /` when `/srv/results` is
//!   hidden) is refused: only its entries are granted, not itself;
//! - Landlock rules follow paths: a hidden file or directory that can also
//!   be reached another way (a bind mount, a hard link outside the hidden
//!   tree) is readable that way;
//! - an ancestor of a hidden path that the caller cannot list is an error
//!   (its other entries could not be granted).
//!
//! # What Landlock does not restrict
//!
//! Path lookup (`chdir`, `stat`, `access`, `readlink`, `open(O_PATH)`) works
//! everywhere, hidden paths included: names under a hidden directory cannot
//! be listed but can be probed by guessing, and their sizes and dates read.
//! Up to ABI 9 neither `chmod`, `chown`, `utimensat` nor extended attributes
//! are checked (Landlock's documented limits; `chmod_outside_is_not_stopped`
//! shows one). Descriptors that are open
//! before the call (stdin, stdout, stderr) keep working, and so do
//! `/dev/stdout` and `/proc/self/fd/*` on pipes. `/proc/<pid>/cmdline` of
//! other processes stays readable (no ptrace check guards it), so nothing
//! secret may go in a bot's arguments, unless the policy grants of `/proc`
//! only the caller's own folder ([`FsPolicy::own_proc_only`]). That rule is
//! on the folder's inode: should the kernel drop it from its caches (its
//! dentry unused, under memory pressure) and make it anew, the process
//! loses reading its own folder, and nothing more.
//!
//! # When to call it
//!
//! Landlock confines the calling thread and what it starts afterwards, for
//! good. Call [`confine`] in the child after fork, where it is the only
//! thread, then exec. It allocates, and never prints: errors come back as
//! values. It also sets `no_new_privs` (Landlock requires it of an
//! unprivileged caller), even when the kernel has no Landlock.
//!
//! Or make the ruleset before the fork and only enforce it in the child
//! ([`restrict_self_with`], a system call): [`prepare`] for one policy,
//! [`SharedRules`] for the rules many policies share, planned once (the
//! referee's start of a basic bot: its child resolves no path and adds no
//! rule but that of its own `/proc` folder, [`grant_own_proc`]).

use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use ::landlock::{
    Access, AccessFs, AccessNet, BitFlags, LandlockStatus, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;

mod walk;
use walk::*;
pub use walk::{disown_shared_anchors, share_anchors, PROC_READABLE};

/// What a process may do beneath its file system, as paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FsPolicy {
    /// Every right beneath each (the bot's working directory; under strict
    /// also a private `/tmp` and `/dev/shm`). Each must exist.
    pub writable: Vec<PathBuf>,
    /// Nothing beneath these may be read, listed or executed (the
    /// tournament's results folder, the folder holding every bot's working
    /// directory), except what `exposed` grants back. Those that do not
    /// exist are ignored.
    pub hidden: Vec<PathBuf>,
    /// Read and execute, even inside a hidden path (the bot's own program
    /// file, its own working directory). Each must exist.
    pub exposed: Vec<PathBuf>,
    /// Where reading is allowed at all (the system's folders); `None`:
    /// everywhere but `hidden`. Those that do not exist are ignored.
    pub readable: Option<Vec<PathBuf>>,
    /// Of `/proc` (a readable root), only the machine's figures of
    /// [`PROC_READABLE`], none of the folders of processes
    /// (`/proc/<pid>`): no other process's command line,
    /// environment or status, whoever started it. The caller's own folder
    /// is granted back by [`confine`] (the calling process's), or by
    /// [`grant_own_proc`] in the child of a ruleset made by [`prepare`].
    pub own_proc_only: bool,
    /// Folders whose names may be listed, and those of the folders beneath
    /// (not read), even where they hold hidden paths: a script's folder,
    /// which Python lists to import from it. Landlock grants listing
    /// beneath a folder as a whole, so hidden folders inside show their
    /// names, never their contents.
    pub listable: Vec<PathBuf>,
}

/// What the kernel enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confinement {
    /// Everything in the module documentation up to ABI 6: files, TCP,
    /// signals and abstract Unix sockets (the kernel's ABI, or the newest
    /// this build knows if the kernel's is newer).
    Full { abi: u32 },
    /// Landlock is in force, but the kernel lacks some of it:
    /// [`Confinement::unenforced`] says what.
    Partial { abi: u32 },
    /// The kernel has no Landlock (not built in, or not enabled at boot):
    /// nothing was restricted.
    Unsupported,
}

/// The oldest ABI with everything [`Confinement::Full`] promises.
pub const FULL_ABI: u32 = 6;

/// The newest ABI whose rights are asked for. A kernel that knows fewer
/// gets the ones it knows (Landlock's best effort).
const NEWEST_ABI: ABI = ABI::V9;

/// Character devices granted read and write, when they exist.
pub const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

impl Confinement {
    /// The restrictions of the module documentation this kernel could not
    /// apply, one phrase each, with the ABI that brings it.
    pub fn unenforced(&self) -> Vec<&'static str> {
        let abi = match self {
            Confinement::Full { abi } | Confinement::Partial { abi } => *abi,
            Confinement::Unsupported => 0,
        };
        let gaps: [(u32, &'static str); 6] = [
            (1, "file system (ABI 1)"),
            (3, "truncating files outside the writable paths (ABI 3)"),
            (4, "TCP bind and connect (ABI 4)"),
            (5, "ioctl on devices (ABI 5)"),
            (
                6,
                "signals and abstract Unix sockets outside the domain (ABI 6)",
            ),
            (
                9,
                "connecting to Unix socket files outside the writable paths (ABI 9)",
            ),
        ];
        gaps.iter()
            .filter(|(since, _)| abi < *since)
            .map(|(_, what)| *what)
            .collect()
    }
}

impl std::fmt::Display for Confinement {
    /// One line for the start-up notice.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Confinement::Unsupported => write!(f, "landlock unsupported by this kernel"),
            Confinement::Full { abi } | Confinement::Partial { abi } => {
                write!(f, "landlock ABI {abi}")?;
                let gaps = self.unenforced();
                if !gaps.is_empty() {
                    write!(f, " (not enforced: {})", gaps.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

/// The Landlock ABI version of the running kernel, or `None` without
/// Landlock. Only asks; changes nothing.
pub fn kernel_abi() -> Option<u32> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute, size 0 and the VERSION flag the system
    // call reads no memory and only returns the ABI version (or -1).
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(version).ok().filter(|&v| v > 0)
}

/// What [`confine`] will enforce on this kernel, for the start-up notice.
pub fn on_this_kernel() -> Confinement {
    match kernel_abi() {
        None => Confinement::Unsupported,
        Some(abi) if abi >= FULL_ABI => Confinement::Full { abi },
        Some(abi) => Confinement::Partial { abi },
    }
}

/// Why a confinement could not be set up: the launcher reports it as the
/// step that failed (the bot is not started).
#[derive(Debug, thiserror::Error)]
pub enum LandlockError {
    /// The landlock crate's own error. Its text already ends with its
    /// cause (`failed to add a rule: Permission denied`), which it also
    /// gives as its source: it is said here in the message, and not
    /// chained as a cause, which would say it twice.
    #[error("landlock: {0}")]
    Ruleset(::landlock::RulesetError),
    #[error("landlock: rule for {}: {reason}", path.display())]
    Rule {
        path: PathBuf,
        reason: ::landlock::RulesetError,
    },
    #[error("landlock: the kernel has ABI {abi} but enforced nothing; report this as a bug")]
    NothingEnforced { abi: i32 },
    #[error(
        "landlock: a ruleset was enforced though the kernel reports {status}; report this as a bug"
    )]
    Inconsistent { status: String },
    /// A path of the policy that cannot be resolved or opened.
    #[error("landlock: {what}{}", path.display())]
    Path {
        /// "writable path ", "exposed path ", "hidden path " or "".
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "landlock: cannot hide {}: it is at or beneath {}, which is granted, and \
         Landlock rights only add up; take it out of the writable and exposed paths",
        path.display(),
        outer.display()
    )]
    HiddenInsideGranted { path: PathBuf, outer: PathBuf },
    #[error(
        "landlock: cannot list {}, which leads to a hidden path, to grant its other entries",
        dir.display()
    )]
    Listing { dir: PathBuf, source: Errno },
}

impl From<::landlock::RulesetError> for LandlockError {
    fn from(e: ::landlock::RulesetError) -> LandlockError {
        LandlockError::Ruleset(e)
    }
}

impl LandlockError {
    fn path(what: &'static str, path: &Path, source: impl Into<std::io::Error>) -> LandlockError {
        LandlockError::Path {
            what,
            path: path.to_path_buf(),
            source: source.into(),
        }
    }
}

/// Confines the calling thread, and what it later starts, to `policy` (see
/// the module documentation), for good. Returns what the kernel enforced;
/// `Unsupported` leaves the thread unconfined, and the caller decides whether
/// that is acceptable.
pub fn confine(policy: &FsPolicy) -> Result<Confinement, LandlockError> {
    let mut ruleset = ruleset_of(policy)?;
    if policy.own_proc_only {
        // `/proc/self` is this process's folder, and stays the bot's across
        // its exec. None (no `/proc`): nothing of it to read.
        if let Ok(fd) = open_path(Path::new(OWN_PROC), true) {
            add_rule(
                &mut ruleset,
                PlannedRule {
                    path: PathBuf::from(OWN_PROC),
                    fd: RuleFd::Own(fd),
                    access: AccessFs::from_read(NEWEST_ABI),
                },
            )?;
        }
    }
    let status = ruleset.restrict_self()?;
    match (status.ruleset, status.landlock) {
        (RulesetStatus::NotEnforced, LandlockStatus::Available { effective_abi, .. }) => {
            Err(LandlockError::NothingEnforced {
                abi: effective_abi as i32,
            })
        }
        (RulesetStatus::NotEnforced, _) => Ok(Confinement::Unsupported),
        (_, LandlockStatus::Available { effective_abi, .. }) => {
            let abi = effective_abi as u32;
            Ok(if abi >= FULL_ABI {
                Confinement::Full { abi }
            } else {
                Confinement::Partial { abi }
            })
        }
        (_, status) => Err(LandlockError::Inconsistent {
            status: format!("{status:?}"),
        }),
    }
}

/// The ruleset of `policy`, not yet enforced.
fn ruleset_of(policy: &FsPolicy) -> Result<::landlock::RulesetCreated, LandlockError> {
    let mut ruleset = empty_ruleset()?;
    for_each_rule(policy, &mut |rule| add_rule(&mut ruleset, rule))?;
    Ok(ruleset)
}

/// A ruleset handling every right this module confines, with no rule yet.
fn empty_ruleset() -> Result<::landlock::RulesetCreated, LandlockError> {
    Ok(Ruleset::default()
        .handle_access(AccessFs::from_all(NEWEST_ABI))?
        .handle_access(AccessNet::from_all(NEWEST_ABI))?
        .scope(Scope::from_all(NEWEST_ABI))?
        .create()?)
}

/// The rules of a policy that do not depend on its writable paths, decided
/// once (paths resolved, folders walked, each anchor's kind known) and
/// kept with their anchors open (`O_PATH`, close-on-exec): a ruleset of
/// them and of one bot's writable paths ([`SharedRules::ruleset_with`]) is
/// then a system call per rule, made in the referee before the fork of
/// each bot of one command (see `launch::prepared_ruleset`).
///
/// Its anchors are the inodes found when it was planned: a folder or file
/// removed and made anew since keeps its old rule (the new one is not
/// readable), an entry added since to a walked folder gets none. It only
/// ever grants less than a plan made anew would, never more.
pub struct SharedRules {
    rules: Vec<PlannedRule>,
    /// The real hidden paths: none may lie beneath a writable path.
    hidden: Vec<PathBuf>,
}

impl SharedRules {
    /// Every rule of `policy` but those of its writable paths (which it
    /// ignores).
    pub fn plan(policy: &FsPolicy) -> Result<SharedRules, LandlockError> {
        let mut rules = Vec::new();
        let hidden = for_each_rule_but_writable(policy, &[], &mut |rule| {
            rules.push(rule);
            Ok(())
        })?;
        Ok(SharedRules { rules, hidden })
    }

    /// How many descriptors it keeps open of its own (the shared anchors
    /// are the referee's, open anyway).
    pub fn own_descriptors(&self) -> usize {
        self.rules
            .iter()
            .filter(|rule| matches!(rule.fd, RuleFd::Own(_)))
            .count()
    }

    /// A ruleset of these rules and of every right beneath each of
    /// `writable` (each must exist, and hold no hidden path, as
    /// [`confine`] requires), not enforced: a child enforces it with
    /// [`restrict_self_with`], after [`grant_own_proc`] if the policy
    /// grants of `/proc` only the caller's own folder. `None`: the kernel
    /// has no Landlock.
    ///
    /// The rules go in by `landlock_add_rule` itself, not through the
    /// landlock crate, which looks at each anchor's kind (`fstat`) again:
    /// the kind is known since the plan, and each rule's rights are those
    /// the ruleset handles on this kernel (the crate's best effort).
    pub fn ruleset_with(&self, writable: &[PathBuf]) -> Result<Option<OwnedFd>, LandlockError> {
        let Some(ruleset) = Option::<OwnedFd>::from(empty_ruleset()?) else {
            return Ok(None);
        };
        let handled = handled_by_this_kernel();
        self.each_rule_with(writable, &mut |rule| {
            let access = rule.access & handled;
            if access.is_empty() || add_path_beneath(&ruleset, &rule.fd, access) {
                Ok(())
            } else {
                Err(LandlockError::path(
                    "rule for ",
                    &rule.path,
                    std::io::Error::last_os_error(),
                ))
            }
        })?;
        Ok(Some(ruleset))
    }

    /// Hands the rules of `writable`, then the planned ones, to `add`.
    fn each_rule_with(
        &self,
        writable: &[PathBuf],
        add: &mut dyn FnMut(&PlannedRule) -> Result<(), LandlockError>,
    ) -> Result<(), LandlockError> {
        let all = AccessFs::from_all(NEWEST_ABI);
        let writable = grant_paths(writable, all, "writable path ", &mut |rule| add(&rule))?;
        for path in &self.hidden {
            if let Some(outer) = writable.iter().find(|w| path.starts_with(w)) {
                return Err(LandlockError::HiddenInsideGranted {
                    path: path.clone(),
                    outer: outer.clone(),
                });
            }
        }
        self.rules.iter().try_for_each(add)
    }

    /// Its rules with `writable`'s, as (path, rights), sorted.
    #[cfg(test)]
    pub(crate) fn listed_with(
        &self,
        writable: &[PathBuf],
    ) -> Result<Vec<(PathBuf, u64)>, LandlockError> {
        let mut listed = Vec::new();
        self.each_rule_with(writable, &mut |rule| {
            listed.push((rule.path.clone(), rule.access.bits()));
            Ok(())
        })?;
        listed.sort();
        Ok(listed)
    }
}

/// The rules [`confine`] adds for `policy` (but the caller's own `/proc`
/// folder), as (path, rights), sorted.
#[cfg(test)]
pub(crate) fn listed_rules(policy: &FsPolicy) -> Result<Vec<(PathBuf, u64)>, LandlockError> {
    let mut listed = Vec::new();
    for_each_rule(policy, &mut |rule| {
        listed.push((rule.path, rule.access.bits()));
        Ok(())
    })?;
    listed.sort();
    Ok(listed)
}

/// The file-system rights a ruleset of [`empty_ruleset`] handles on this
/// kernel: those of its Landlock ABI among those asked for (what the crate
/// keeps of them, best effort). A rule may grant no other.
fn handled_by_this_kernel() -> BitFlags<AccessFs> {
    static HANDLED: std::sync::OnceLock<BitFlags<AccessFs>> = std::sync::OnceLock::new();
    *HANDLED.get_or_init(|| {
        // The running kernel's own ABI, asked of it: not a guess.
        let abi = ABI::from(kernel_abi().map_or(0, |abi| abi as i32));
        AccessFs::from_all(abi) & AccessFs::from_all(NEWEST_ABI)
    })
}

/// `landlock_add_rule(2)` of a path-beneath rule: `access` beneath
/// `anchor` in `ruleset`. System calls only, no allocation. False if the
/// kernel refused (errno says why).
fn add_path_beneath(ruleset: &impl AsFd, anchor: &impl AsFd, access: BitFlags<AccessFs>) -> bool {
    use std::os::fd::AsRawFd;
    /// `struct landlock_path_beneath_attr` (packed in the kernel's header).
    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_uint = 1;
    let attr = PathBeneathAttr {
        allowed_access: access.bits(),
        parent_fd: anchor.as_fd().as_raw_fd(),
    };
    // SAFETY: landlock_add_rule(2) reads the attribute on the stack; the
    // descriptors are open.
    unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_fd().as_raw_fd(),
            LANDLOCK_RULE_PATH_BENEATH,
            &attr as *const PathBeneathAttr,
            0u32,
        ) == 0
    }
}

fn add_rule(
    ruleset: &mut ::landlock::RulesetCreated,
    rule: PlannedRule,
) -> Result<(), LandlockError> {
    ruleset
        .add_rule(PathBeneath::new(rule.fd, rule.access))
        .map(drop)
        .map_err(|reason| LandlockError::Rule {
            path: rule.path,
            reason,
        })
}

/// [`confine`] in two halves, for a process that cannot allocate between
/// fork and exec (built once in the referee, see `launch::secrets_layer`): the
/// ruleset of `policy`, built here without restricting anyone, as a
/// descriptor ([`restrict_self_with`] enforces it in the child). `None`:
/// the kernel has no Landlock.
pub fn prepare(policy: &FsPolicy) -> Result<Option<OwnedFd>, LandlockError> {
    Ok(ruleset_of(policy)?.into())
}

/// A ruleset that allows every file-system right but beneath `hidden`:
/// the folders leading to a hidden path are walked, and every other entry
/// gets every right. Stacked under a bot's own ruleset ([`prepare`]), which
/// decides what the bot may read and write, it takes the hidden paths
/// away from it; it names no bot, so it is built once and serves every
/// bot (walking `/etc` costs a rule per entry). `None`: no Landlock, or
/// no hidden path exists.
pub fn prepare_all_but(hidden: &[PathBuf]) -> Result<Option<OwnedFd>, LandlockError> {
    let hidden: Vec<PathBuf> = hidden
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    if hidden.is_empty() {
        return Ok(None);
    }
    let all = AccessFs::from_all(NEWEST_ABI);
    let mut ruleset = Ruleset::default().handle_access(all)?.create()?;
    let blocked = |path: &Path| hidden.iter().any(|h| h.starts_with(path));
    let mut walked: Vec<&Path> = hidden
        .iter()
        .flat_map(|h| h.ancestors().skip(1))
        .filter(|dir| !hidden.iter().any(|h| dir.starts_with(h)))
        .collect();
    walked.sort();
    walked.dedup();
    for dir in walked {
        grant_entries(dir, &blocked, all, &mut |rule| add_rule(&mut ruleset, rule))?;
    }
    Ok(ruleset.into())
}

/// Enforces a ruleset made by [`prepare`] or [`prepare_all_but`] on the
/// calling thread (and what it starts), for good. One system call: safe
/// between fork and exec. `no_new_privs` must be set first (or the caller
/// hold `CAP_SYS_ADMIN`). False if the kernel refused (errno says why).
pub fn restrict_self_with(ruleset: &impl AsFd) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: landlock_restrict_self(2) with a descriptor and no flags.
    unsafe {
        libc::syscall(
            libc::SYS_landlock_restrict_self,
            ruleset.as_fd().as_raw_fd(),
            0u32,
        ) == 0
    }
}

/// The calling process's own folder of `/proc`.
const OWN_PROC: &str = "/proc/self";

/// Grants the calling process reading of its own folder of `/proc` in
/// `ruleset` (made by [`prepare`] with [`FsPolicy::own_proc_only`], not yet
/// enforced), as [`confine`] does: for a child that shares its parent's
/// memory until exec (system calls only, no allocation). False if `/proc`
/// cannot be opened or the kernel refused the rule (the child then cannot
/// read its own `/proc` entries, and nothing more).
pub fn grant_own_proc(ruleset: &impl AsFd) -> bool {
    use rustix::fs::{Mode, OFlags};
    // A static path: no allocation.
    let Ok(fd) = rustix::fs::open(
        c"/proc/self",
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return false;
    };
    add_path_beneath(ruleset, &fd, AccessFs::from_read(ABI::V1))
}

#[cfg(test)]
mod tests {
    //! `confine` restricts its caller for good, so each case runs in a fresh
    //! process: the test binary itself, re-run on the single test
    //! `confined_child`, which reads what to do from [`REQUEST_VAR`], confines
    //! itself (or not: the control runs prove that the action would succeed
    //! unconfined), attempts one action and prints one result line.

    use super::*;
    use serde::{Deserialize, Serialize};
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::fs::PermissionsExt;
    use std::process::{Command, Stdio};

    const REQUEST_VAR: &str = "REFEREE_LANDLOCK_TEST_REQUEST";
    const RESULT_PREFIX: &str = "landlock-test:";

    #[derive(Serialize, Deserialize, Clone, Debug)]
    enum Action {
        Nothing,
        /// Create (or truncate) and write a file.
        Create(PathBuf),
        /// Open an existing file for writing with `O_TRUNC`, and write.
        Overwrite(PathBuf),
        Read(PathBuf),
        /// Open for reading, read nothing.
        Open(PathBuf),
        List(PathBuf),
        Mkdir(PathBuf),
        Remove(PathBuf),
        Link(PathBuf, PathBuf),
        Chmod(PathBuf),
        /// Run a program; success when it exits 0.
        Exec(PathBuf),
        TcpConnect(u16),
        TcpBind,
        AbstractConnect(String),
        /// `kill(pid, 0)`.
        Signal(i32),
        /// Start `cat` (inheriting stdin), print its pid, wait for it.
        StartCat,
    }

    #[derive(Serialize, Deserialize, Clone, Debug)]
    struct Request {
        confine: bool,
        /// Keep the capabilities of a test run as root (a bot never has
        /// them: the launcher drops them all).
        keep_capabilities: bool,
        /// `RLIMIT_NOFILE` to set before confining.
        open_files_limit: Option<u64>,
        policy: Policy,
        action: Action,
    }

    #[derive(Serialize, Deserialize, Clone, Debug, Default)]
    struct Policy {
        writable: Vec<PathBuf>,
        hidden: Vec<PathBuf>,
        exposed: Vec<PathBuf>,
        /// Reading only beneath these (`None`: everywhere), and of `/proc`
        /// only the caller's own process, as a basic bot.
        system_roots: Option<Vec<String>>,
        /// The rules on the system roots, `/proc` and the devices anchored
        /// on descriptors opened once beforehand, as the referee's own
        /// start of a bot does.
        shared_anchors: bool,
    }

    /// Child mode: does nothing unless run by [`run_child`].
    #[test]
    fn confined_child() {
        let Ok(request) = std::env::var(REQUEST_VAR) else {
            return;
        };
        let request: Request = serde_json::from_str(&request).expect("request");
        if !request.keep_capabilities && rustix::process::geteuid().is_root() {
            assert!(
                crate::sandbox::drop_bounding_set(),
                "dropping capabilities: {}",
                std::io::Error::last_os_error()
            );
            crate::sandbox::clear_capabilities().expect("dropping capabilities");
        }
        if let Some(limit) = request.open_files_limit {
            let limit = rustix::process::Rlimit {
                current: Some(limit),
                maximum: Some(limit),
            };
            rustix::process::setrlimit(rustix::process::Resource::Nofile, limit)
                .expect("open files limit");
        }
        if request.confine {
            let roots = request.policy.system_roots.clone();
            if request.policy.shared_anchors {
                let roots = roots.clone().unwrap_or_default();
                share_anchors(&roots.iter().map(String::as_str).collect::<Vec<_>>());
            }
            let policy = FsPolicy {
                writable: request.policy.writable,
                hidden: request.policy.hidden,
                exposed: request.policy.exposed,
                own_proc_only: roots.is_some(),
                readable: roots.map(|r| r.into_iter().map(PathBuf::from).collect()),
                ..FsPolicy::default()
            };
            let started = std::time::Instant::now();
            let confinement = confine(&policy);
            let elapsed = started.elapsed();
            println!("{RESULT_PREFIX} confine {confinement:?}");
            println!("{RESULT_PREFIX} confine-micros {}", elapsed.as_micros());
            confinement.expect("confine");
        }
        let outcome = attempt(&request.action);
        match outcome {
            Ok(()) => println!("{RESULT_PREFIX} result ok"),
            Err(e) => println!(
                "{RESULT_PREFIX} result errno {}",
                e.raw_os_error().unwrap_or(-1)
            ),
        }
    }

    fn attempt(action: &Action) -> std::io::Result<()> {
        use std::fs;
        match action {
            Action::Nothing => Ok(()),
            Action::Create(path) => fs::write(path, b"x"),
            Action::Overwrite(path) => fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)?
                .write_all(b"x"),
            Action::Read(path) => fs::read(path).map(drop),
            Action::Open(path) => fs::File::open(path).map(drop),
            Action::List(path) => fs::read_dir(path)?.try_for_each(|e| e.map(drop)),
            Action::Mkdir(path) => fs::create_dir(path),
            Action::Remove(path) => fs::remove_file(path),
            Action::Link(from, to) => fs::hard_link(from, to),
            Action::Chmod(path) => fs::set_permissions(path, fs::Permissions::from_mode(0o600)),
            Action::Exec(path) => {
                let status = Command::new(path).status()?;
                if status.success() {
                    Ok(())
                } else {
                    Err(std::io::Error::other(format!("{status}")))
                }
            }
            Action::TcpConnect(port) => {
                std::net::TcpStream::connect(("127.0.0.1", *port)).map(drop)
            }
            Action::TcpBind => std::net::TcpListener::bind(("127.0.0.1", 0)).map(drop),
            Action::AbstractConnect(name) => {
                use std::os::linux::net::SocketAddrExt;
                let address = std::os::unix::net::SocketAddr::from_abstract_name(name)?;
                std::os::unix::net::UnixStream::connect_addr(&address).map(drop)
            }
            Action::Signal(pid) => {
                let pid = rustix::process::Pid::from_raw(*pid)
                    .ok_or_else(|| std::io::Error::other("no such pid"))?;
                rustix::process::test_kill_process(pid).map_err(std::io::Error::from)
            }
            Action::StartCat => {
                let mut cat = Command::new("cat").stdout(Stdio::null()).spawn()?;
                println!("{RESULT_PREFIX} pid {}", cat.id());
                cat.wait().map(drop)
            }
        }
    }

    fn child_command(request: &Request) -> Command {
        let mut command = Command::new(std::env::current_exe().expect("test binary"));
        command
            .args([
                "--exact",
                "landlock::tests::confined_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(REQUEST_VAR, serde_json::to_string(request).expect("json"));
        command
    }

    /// What a child printed: its `confine` result and its action's.
    #[derive(Debug)]
    struct ChildReport {
        confinement: Option<String>,
        micros: Option<u64>,
        /// `Ok` or the errno.
        result: Option<Result<(), i32>>,
    }

    /// What follows the result prefix on a line (libtest may print `test
    /// NAME ... ` before the first one).
    fn after_prefix(line: &str) -> Option<&str> {
        line.find(RESULT_PREFIX)
            .map(|at| &line[at + RESULT_PREFIX.len()..])
    }

    fn parse_report(stdout: &str) -> ChildReport {
        let mut report = ChildReport {
            confinement: None,
            micros: None,
            result: None,
        };
        for line in stdout.lines() {
            let Some(rest) = after_prefix(line) else {
                continue;
            };
            let rest = rest.trim();
            if let Some(c) = rest.strip_prefix("confine-micros ") {
                report.micros = c.parse().ok();
            } else if let Some(c) = rest.strip_prefix("confine ") {
                report.confinement = Some(c.to_string());
            } else if rest == "result ok" {
                report.result = Some(Ok(()));
            } else if let Some(errno) = rest.strip_prefix("result errno ") {
                report.result = Some(Err(errno.parse().expect("errno")));
            }
        }
        report
    }

    fn run_child(confine: bool, policy: &Policy, action: Action) -> ChildReport {
        run_request(Request {
            confine,
            keep_capabilities: false,
            open_files_limit: None,
            policy: policy.clone(),
            action,
        })
    }

    fn run_request(request: Request) -> ChildReport {
        let confine = request.confine;
        assert!(
            kernel_abi().is_some_and(|abi| abi >= FULL_ABI),
            "these tests need Landlock ABI {FULL_ABI} or newer; this kernel has {:?}",
            kernel_abi()
        );
        let output = child_command(&request)
            .stdin(Stdio::null())
            .output()
            .expect("run the test binary");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let report = parse_report(&stdout);
        assert!(
            output.status.success() && report.result.is_some(),
            "child failed for {request:?}: {}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        if confine {
            let confinement = report.confinement.as_deref().unwrap_or("none");
            assert!(
                confinement.starts_with("Ok(Full"),
                "this kernel has Landlock ABI {:?}; confine gave {confinement}",
                kernel_abi()
            );
        }
        report
    }

    /// The action's result under the policy; then checks that the same
    /// action succeeds unconfined, so that a refusal is Landlock's doing (in
    /// this order, so that what the control run creates or removes does not
    /// change the confined run).
    fn confined_result(policy: &Policy, action: Action) -> Result<(), i32> {
        let confined = run_child(true, policy, action.clone())
            .result
            .expect("a result");
        let control = run_child(false, policy, action.clone());
        assert_eq!(control.result, Some(Ok(())), "unconfined {action:?}");
        confined
    }

    const EACCES: Result<(), i32> = Err(libc::EACCES);
    const EPERM: Result<(), i32> = Err(libc::EPERM);

    /// A tree for the file-system cases: `root/` holds `work/`,
    /// `outside/file`, `hidden/{secret, program, exposed_program, dir/,
    /// shared/file}`, `open/file`, `to_hidden -> hidden` and
    /// `to_open -> open`.
    struct Tree {
        _dir: tempfile::TempDir,
        root: PathBuf,
    }

    impl Tree {
        fn new() -> Tree {
            let dir = tempfile::tempdir().expect("tempdir");
            let root = std::fs::canonicalize(dir.path()).expect("canonical");
            for sub in ["work", "outside", "hidden/dir", "hidden/shared", "open"] {
                std::fs::create_dir_all(root.join(sub)).expect("mkdir");
            }
            for file in [
                "outside/file",
                "hidden/secret",
                "hidden/shared/file",
                "open/file",
            ] {
                std::fs::write(root.join(file), b"content").expect("write");
            }
            for program in ["hidden/program", "hidden/exposed_program"] {
                let path = root.join(program);
                std::fs::write(&path, b"#!/bin/sh\nexit 0\n").expect("write");
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .expect("chmod");
            }
            std::os::unix::fs::symlink(root.join("hidden"), root.join("to_hidden")).expect("ln");
            std::os::unix::fs::symlink("open", root.join("to_open")).expect("ln");
            Tree { _dir: dir, root }
        }

        fn path(&self, relative: &str) -> PathBuf {
            self.root.join(relative)
        }

        fn policy(&self) -> Policy {
            Policy {
                writable: vec![self.path("work")],
                hidden: vec![self.path("hidden")],
                exposed: vec![
                    self.path("hidden/exposed_program"),
                    self.path("hidden/shared"),
                ],
                ..Policy::default()
            }
        }
    }

    /// A basic bot's reading rules (the system's folders, of `/proc` only
    /// its own process, the devices) are the same whether each is opened
    /// in the bot's child or anchored on descriptors the referee opened
    /// once ([`share_anchors`]).
    #[test]
    fn shared_anchors_grant_what_a_bots_own_lookups_grant() {
        let tree = Tree::new();
        let mut parent = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep");
        let other_process = format!("/proc/{}/cmdline", parent.id());
        for shared in [false, true] {
            let policy = Policy {
                system_roots: Some(
                    ["/usr", "/lib", "/lib64", "/bin", "/etc", "/proc", "/sys"]
                        .map(String::from)
                        .to_vec(),
                ),
                shared_anchors: shared,
                ..tree.policy()
            };
            let cases: [(Action, Result<(), i32>); 10] = [
                (Action::Read("/proc/meminfo".into()), Ok(())),
                (Action::Read("/proc/sys/kernel/pid_max".into()), Ok(())),
                // Of the rest of /proc, nothing: not the kernel's symbols,
                // nor the machine's devices.
                (Action::Read("/proc/kallsyms".into()), Err(libc::EACCES)),
                (Action::Read("/proc/devices".into()), Err(libc::EACCES)),
                (Action::Read("/proc/self/status".into()), Ok(())),
                (
                    Action::Read(other_process.clone().into()),
                    Err(libc::EACCES),
                ),
                (Action::List("/usr/bin".into()), Ok(())),
                (Action::Overwrite("/dev/null".into()), Ok(())),
                (Action::List("/root".into()), Err(libc::EACCES)),
                (Action::Create(tree.path("work/made")), Ok(())),
            ];
            for (action, expected) in cases {
                let report = run_child(true, &policy, action.clone());
                assert_eq!(
                    report.result,
                    Some(expected),
                    "shared anchors {shared}: {action:?}"
                );
            }
        }
        let _ = parent.kill();
        let _ = parent.wait();
    }

    #[test]
    fn writes_only_beneath_writable_paths() {
        let tree = Tree::new();
        let policy = tree.policy();
        assert_eq!(
            run_child(true, &policy, Action::Create(tree.path("work/new"))).result,
            Some(Ok(()))
        );
        std::fs::write(tree.path("work/old"), b"content").expect("write");
        for action in [
            Action::Mkdir(tree.path("work/sub")),
            Action::Overwrite(tree.path("work/old")),
            Action::Remove(tree.path("work/new")),
        ] {
            assert_eq!(
                run_child(true, &policy, action.clone()).result,
                Some(Ok(())),
                "{action:?}"
            );
        }
        for action in [
            Action::Create(tree.path("outside/new")),
            Action::Overwrite(tree.path("outside/file")),
            Action::Mkdir(tree.path("outside/sub")),
            Action::Remove(tree.path("outside/file")),
        ] {
            assert_eq!(
                confined_result(&policy, action.clone()),
                EACCES,
                "{action:?}"
            );
        }
    }

    #[test]
    fn reads_and_runs_outside_hidden_paths() {
        let tree = Tree::new();
        let policy = tree.policy();
        for action in [
            Action::Read("/etc/hostname".into()),
            Action::List("/usr/bin".into()),
            Action::Exec("/bin/true".into()),
            Action::Read(tree.path("open/file")),
            Action::List(tree.path("open")),
            Action::Read(tree.path("to_open/file")),
        ] {
            assert_eq!(
                run_child(true, &policy, action.clone()).result,
                Some(Ok(())),
                "{action:?}"
            );
        }
    }

    #[test]
    fn devices_and_inherited_pipes_stay_writable() {
        let tree = Tree::new();
        let policy = tree.policy();
        for action in [
            Action::Overwrite("/dev/null".into()),
            Action::Read("/dev/null".into()),
            // stdout is a pipe to this test.
            Action::Overwrite("/dev/stdout".into()),
        ] {
            assert_eq!(
                run_child(true, &policy, action.clone()).result,
                Some(Ok(())),
                "{action:?}"
            );
        }
        assert_eq!(
            run_child(true, &policy, Action::Create("/dev/landlock-test".into())).result,
            Some(EACCES)
        );
    }

    #[test]
    fn hidden_paths_cannot_be_read_listed_nor_run_except_what_is_exposed() {
        let tree = Tree::new();
        let policy = tree.policy();
        for action in [
            Action::Read(tree.path("hidden/secret")),
            Action::List(tree.path("hidden")),
            Action::List(tree.path("hidden/dir")),
            Action::Exec(tree.path("hidden/program")),
            Action::Read(tree.path("to_hidden/secret")),
            // An ancestor of a hidden path: only its entries are granted.
            Action::List(tree.root.clone()),
        ] {
            assert_eq!(
                confined_result(&policy, action.clone()),
                EACCES,
                "{action:?}"
            );
        }
        for action in [
            Action::Read(tree.path("hidden/exposed_program")),
            Action::Exec(tree.path("hidden/exposed_program")),
            Action::List(tree.path("hidden/shared")),
            Action::Read(tree.path("hidden/shared/file")),
        ] {
            assert_eq!(
                run_child(true, &policy, action.clone()).result,
                Some(Ok(())),
                "{action:?}"
            );
        }
        // A hidden file cannot be linked into the writable directory either
        // (it would gain rights there).
        assert_eq!(
            confined_result(
                &policy,
                Action::Link(tree.path("hidden/secret"), tree.path("work/stolen"))
            ),
            Err(libc::EXDEV)
        );
    }

    /// The launcher lowers `RLIMIT_NOFILE` before confining; the walk must
    /// not need a descriptor per entry (nor skip entries when it runs out).
    #[test]
    fn a_low_open_file_limit_does_not_shrink_what_is_readable() {
        let tree = Tree::new();
        for n in 0..40 {
            std::fs::write(tree.path(&format!("sibling{n}")), b"x").expect("write");
        }
        let request = |action| Request {
            confine: true,
            keep_capabilities: false,
            open_files_limit: Some(16),
            policy: tree.policy(),
            action,
        };
        for n in [0, 39] {
            let report = run_request(request(Action::Read(tree.path(&format!("sibling{n}")))));
            assert_eq!(report.result, Some(Ok(())), "sibling{n}");
        }
        let report = run_request(request(Action::Read(tree.path("hidden/secret"))));
        assert_eq!(report.result, Some(EACCES));
    }

    #[test]
    fn a_missing_hidden_path_is_ignored_and_everything_else_readable() {
        let tree = Tree::new();
        let policy = Policy {
            hidden: vec![tree.path("no/such/dir")],
            ..tree.policy()
        };
        assert_eq!(
            run_child(true, &policy, Action::List("/".into())).result,
            Some(Ok(()))
        );
        assert_eq!(
            run_child(true, &policy, Action::Read(tree.path("hidden/secret"))).result,
            Some(Ok(()))
        );
    }

    /// How many rules `confine` would add (restricts nothing).
    fn count_rules(policy: &FsPolicy) -> Result<usize, LandlockError> {
        let mut count = 0;
        for_each_rule(policy, &mut |_| {
            count += 1;
            Ok(())
        })?;
        Ok(count)
    }

    #[test]
    fn refuses_void_hiding_and_missing_grants() {
        let tree = Tree::new();
        let inside_writable = FsPolicy {
            writable: vec![tree.path("work")],
            hidden: vec![tree.path("work")],
            exposed: vec![],
            readable: None,
            ..FsPolicy::default()
        };
        let e = count_rules(&inside_writable).expect_err("refused");
        assert!(
            matches!(&e, LandlockError::HiddenInsideGranted { path, .. } if path.ends_with("work")),
            "{e}"
        );
        let missing = FsPolicy {
            writable: vec![tree.path("no-such-dir")],
            ..FsPolicy::default()
        };
        let e = count_rules(&missing).expect_err("refused");
        assert!(
            matches!(&e, LandlockError::Path { what: "writable path ", path, .. }
                if path.ends_with("no-such-dir")),
            "{e}"
        );
    }

    #[test]
    fn no_tcp() {
        let tree = Tree::new();
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("listen");
        let port = listener.local_addr().expect("address").port();
        assert_eq!(
            confined_result(&tree.policy(), Action::TcpConnect(port)),
            EACCES
        );
        assert_eq!(confined_result(&tree.policy(), Action::TcpBind), EACCES);
    }

    #[test]
    fn no_abstract_unix_socket_outside_the_domain() {
        use std::os::linux::net::SocketAddrExt;
        let tree = Tree::new();
        let name = format!("referee-landlock-test-{}", std::process::id());
        let address =
            std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).expect("name");
        let _listener = std::os::unix::net::UnixListener::bind_addr(&address).expect("listen");
        assert_eq!(
            confined_result(&tree.policy(), Action::AbstractConnect(name)),
            EPERM
        );
    }

    /// A `cat` started by a child of this test (confined or not, without
    /// capabilities like a bot), living until dropped.
    struct Cat {
        child: std::process::Child,
        stdout: std::io::Lines<BufReader<std::process::ChildStdout>>,
        pid: i32,
    }

    impl Cat {
        fn start(confine: bool, policy: &Policy) -> Cat {
            let request = Request {
                confine,
                keep_capabilities: false,
                open_files_limit: None,
                policy: policy.clone(),
                action: Action::StartCat,
            };
            let mut child = child_command(&request)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn");
            let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
            let pid = stdout.by_ref().map_while(Result::ok).find_map(|line| {
                after_prefix(&line)?
                    .trim()
                    .strip_prefix("pid ")?
                    .parse()
                    .ok()
            });
            let mut cat = Cat {
                child,
                stdout,
                pid: 0,
            };
            cat.pid = pid.expect("the child printed the pid of its cat");
            cat
        }

        /// Ends `cat` (end of its input) and checks that its parent saw it
        /// exit normally.
        fn finish(mut self) {
            drop(self.child.stdin.take());
            let rest: Vec<String> = self.stdout.by_ref().map_while(Result::ok).collect();
            let report = parse_report(&rest.join("\n"));
            assert_eq!(report.result, Some(Ok(())), "{rest:?}");
        }
    }

    impl Drop for Cat {
        /// Kills what is left (after a failed assertion); `cat` itself then
        /// ends on end of input.
        fn drop(&mut self) {
            drop(self.child.stdin.take());
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// A process confined by `policy` can neither read `pid`'s environment
    /// or memory nor signal it.
    fn assert_cannot_reach(policy: &Policy, pid: i32) {
        for (action, refusal) in [
            (Action::Read(format!("/proc/{pid}/environ").into()), EACCES),
            (Action::Open(format!("/proc/{pid}/mem").into()), EACCES),
            (Action::Signal(pid), EPERM),
        ] {
            assert_eq!(
                confined_result(policy, action.clone()),
                refusal,
                "{action:?}"
            );
        }
    }

    #[test]
    fn cannot_read_nor_signal_an_unconfined_process() {
        let tree = Tree::new();
        let policy = tree.policy();
        let cat = Cat::start(false, &policy);
        let pid = cat.pid;
        assert_cannot_reach(&policy, pid);
        cat.finish();
        // The test process itself (which keeps its capabilities when run as
        // root, so that only the signal is compared).
        let me = std::process::id() as i32;
        assert_eq!(confined_result(&policy, Action::Signal(me)), EPERM);
    }

    #[test]
    fn two_confined_processes_cannot_read_nor_signal_each_other() {
        let tree = Tree::new();
        let policy = tree.policy();
        // `cat` is single-threaded and wholly in its parent's domain.
        let cat = Cat::start(true, &policy);
        let pid = cat.pid;
        assert_cannot_reach(&policy, pid);
        // Not guarded by the ptrace check.
        let cmdline = Action::Read(format!("/proc/{pid}/cmdline").into());
        assert_eq!(run_child(true, &policy, cmdline).result, Some(Ok(())));
        cat.finish();
    }

    /// Not a guarantee, a kernel rule met on the way: a process with
    /// `CAP_PERFMON` or `CAP_SYS_ADMIN` may read another process's
    /// environment and memory map (`mm_access` in read mode, since Linux 6.11)
    /// whatever its Landlock domain; `mem` (attach mode) stays refused. Bots
    /// have no capability (the launcher drops them), and the other cases drop
    /// them too.
    #[test]
    fn capabilities_let_a_confined_process_read_environ() {
        const CAP_SYS_ADMIN: u32 = 21;
        const CAP_PERFMON: u32 = 38;
        let effective = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| {
                let line = status.lines().find(|l| l.starts_with("CapEff:"))?;
                u64::from_str_radix(line["CapEff:".len()..].trim(), 16).ok()
            })
            .unwrap_or(0);
        if effective & (1 << CAP_SYS_ADMIN | 1 << CAP_PERFMON) == 0 {
            return;
        }
        let tree = Tree::new();
        let me = std::process::id();
        let with_capabilities = |action| {
            run_request(Request {
                confine: true,
                keep_capabilities: true,
                open_files_limit: None,
                policy: tree.policy(),
                action,
            })
            .result
        };
        assert_eq!(
            with_capabilities(Action::Read(format!("/proc/{me}/environ").into())),
            Some(Ok(()))
        );
        assert_eq!(
            with_capabilities(Action::Open(format!("/proc/{me}/mem").into())),
            Some(EACCES)
        );
    }

    /// Not a guarantee, a known gap: Landlock (up to ABI 9) does not check
    /// changes of mode, owner or times.
    #[test]
    fn chmod_outside_is_not_stopped() {
        let tree = Tree::new();
        assert_eq!(
            run_child(
                true,
                &tree.policy(),
                Action::Chmod(tree.path("outside/file"))
            )
            .result,
            Some(Ok(()))
        );
    }

    #[test]
    fn kernel_abi_matches_what_confine_reports() {
        let tree = Tree::new();
        let report = run_child(true, &tree.policy(), Action::Nothing);
        let abi = kernel_abi().expect("this kernel has Landlock");
        let expected = format!("Ok(Full {{ abi: {} }})", abi.min(NEWEST_ABI as u32));
        assert_eq!(report.confinement.as_deref(), Some(expected.as_str()));
        assert!(Confinement::Full { abi: 7 }
            .unenforced()
            .iter()
            .all(|gap| gap.contains("ABI 9")));
        assert_eq!(Confinement::Partial { abi: 3 }.unenforced().len(), 4);
    }

    /// How long `confine` takes with one hidden path three levels deep
    /// (`/tmp/<tempdir>/hidden`), measured inside each child around the call,
    /// next to the same without a hidden path: every child measures it, and
    /// it stays far below a bot's start-up limit (it is paid at every bot
    /// start; about 1 ms when measured). The figures are printed (run with
    /// `--nocapture`).
    #[test]
    fn confine_is_measured_and_cheap() {
        let tree = Tree::new();
        let with_hidden = tree.policy();
        let without_hidden = Policy {
            hidden: vec![],
            exposed: vec![],
            ..tree.policy()
        };
        let tmp_entries = std::fs::read_dir(tree.root.parent().expect("parent"))
            .map(|entries| entries.count())
            .unwrap_or(0);
        let rules = count_rules(&FsPolicy {
            writable: with_hidden.writable.clone(),
            hidden: with_hidden.hidden.clone(),
            exposed: with_hidden.exposed.clone(),
            readable: None,
            ..FsPolicy::default()
        })
        .expect("rules");
        for (name, policy) in [
            ("no hidden path", &without_hidden),
            ("hidden", &with_hidden),
        ] {
            let mut micros: Vec<u64> = (0..7)
                .filter_map(|_| run_child(true, policy, Action::Nothing).micros)
                .collect();
            micros.sort_unstable();
            assert_eq!(micros.len(), 7, "{name}: every child times its confine");
            let median = micros[micros.len() / 2];
            assert!(
                median < 250_000,
                "{name}: confine took {median} us (median of 7), a bot's start-up pays it"
            );
            println!(
                "confine, {name} ({}): median {} us, min {} us over {} runs; \
                 {rules} rules with the hidden path, {tmp_entries} entries in {}",
                if policy.hidden.is_empty() {
                    "/ readable".to_string()
                } else {
                    policy.hidden[0].display().to_string()
                },
                median,
                micros[0],
                micros.len(),
                tree.root.parent().expect("parent").display()
            );
        }
    }
}
