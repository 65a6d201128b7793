//! The two confinement layers a bot runs under (`--sandbox basic|strict|auto`):
//! the choice, the cgroups, the seccomp filter and the capabilities. The
//! bot's child of the fork (the referee's, or a launcher's: see
//! [`super::launch`]) applies them in the bot's process; Landlock is in
//! [`super::landlock`].
//!
//! - `basic` needs no privilege: own process group (and session, for a bot
//!   that may fork), no controlling terminal, parent-death
//!   signal, a clean environment carrying a unique tag, rlimits as backstops
//!   (CPU, address space, file size, open files, no core dumps), Landlock,
//!   the seccomp filter, and for a bot that may fork its launcher killing
//!   all it left behind.
//!   The `/proc` sweep below is the referee's last resort, for a launcher
//!   that did not report.
//! - `strict` adds, per bot, a user of its own, new user, PID, network,
//!   mount and IPC namespaces (network and IPC shared by the referee's
//!   bots), and a cgroup with a memory limit and a pids
//!   limit, killed in one write (`cgroup.kill` of cgroup v2); the bot is
//!   the first process of its PID namespace, so all it starts ends with it.
//!   It needs root.
//!
//! `auto` picks `strict` when it can be had, else `basic`. Asking for
//! `strict` where it cannot be had is refused with what is missing.
//! See docs/security.md ("What each layer stops") for what each layer stops.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod namespaces;
mod seccomp;
#[cfg(all(test, target_arch = "x86_64"))]
mod seccomp_oracle;

pub use namespaces::{shared_namespaces, SharedNamespaces};
pub(crate) use namespaces::{shares_network_namespace, unshare_namespaces};
pub use seccomp::{SeccompPolicy, SeccompProgram};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SandboxChoice {
    #[default]
    Basic,
    Strict,
    Auto,
}

/// Why the asked-for layer cannot be had (the message says what to do).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    #[error("unknown sandbox `{name}`: expected basic, strict or auto")]
    UnknownLayer { name: String },
    #[error(
        "strict sandbox: needs root, to give each bot a user of its own and new user, PID, \
         network and mount namespaces; run the referee as root (for example in a container or \
         VM of its own), or use --sandbox basic"
    )]
    NeedsRoot,
    /// The cgroups strict needs are missing or cannot be used.
    #[error("strict sandbox: {why}; {CGROUPS_HOW}")]
    Cgroups { why: String },
}

/// What to do when the cgroups strict needs are missing.
const CGROUPS_HOW: &str =
    "run the referee as root on a machine with cgroup v2 (or both), or use --sandbox basic";

impl SandboxError {
    fn cgroups(why: impl Into<String>) -> SandboxError {
        SandboxError::Cgroups { why: why.into() }
    }
}

impl SandboxChoice {
    pub const NAMES: &'static [&'static str] = &["basic", "strict", "auto"];

    pub fn parse(text: &str) -> Result<SandboxChoice, SandboxError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "basic" => Ok(SandboxChoice::Basic),
            "strict" => Ok(SandboxChoice::Strict),
            "auto" => Ok(SandboxChoice::Auto),
            other => Err(SandboxError::UnknownLayer {
                name: other.to_string(),
            }),
        }
    }

    /// The layer in force for this choice on this machine, or why the
    /// asked-for layer cannot be had.
    pub fn resolve(self) -> Result<Sandbox, SandboxError> {
        match self {
            SandboxChoice::Basic => {
                // A strict referee killed before it could clean up left bot
                // cgroups behind: a basic one run as root removes them too.
                if rustix::process::geteuid().is_root() {
                    if let Ok(roots) = CgroupRoots::detect() {
                        roots.remove_if_empty();
                    }
                }
                Ok(Sandbox::Basic)
            }
            SandboxChoice::Strict => strict().map(Sandbox::Strict),
            SandboxChoice::Auto => Ok(strict().map(Sandbox::Strict).unwrap_or(Sandbox::Basic)),
        }
    }
}

/// What strict needs: root (for namespaces and a user per bot) and the
/// cgroups.
fn strict() -> Result<CgroupRoots, SandboxError> {
    if !rustix::process::geteuid().is_root() {
        return Err(SandboxError::NeedsRoot);
    }
    CgroupRoots::detect()
}

/// The layer in force.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Sandbox {
    #[default]
    Basic,
    Strict(CgroupRoots),
}

impl Sandbox {
    /// One line saying what is in force, printed at start-up.
    pub fn describe(&self) -> String {
        let root = rustix::process::geteuid().is_root();
        let landlock = super::landlock::on_this_kernel();
        let files = match landlock {
            super::landlock::Confinement::Unsupported => {
                "no Landlock on this kernel: a bot may write outside its folder and read the \
                 referee's files"
                    .to_string()
            }
            _ => format!(
                "{landlock}: writes only in its folder, the referee's files and the other bots' \
                 folders hidden, no TCP, no signal or memory access outside itself"
            ),
        };
        let basic = format!(
            "a bot that may fork through a launcher that kills all it started when it ends, \
             one that may not started by the referee and dying with it; own process group, no \
             terminal; \
             {files}; seccomp (no ptrace, no socket but Unix pairs, no change of file modes or times, no new \
             namespaces, signals only to itself and its group, no fork unless allowed); rlimits (cpu {CPU_SECONDS_LIMIT}s, \
             address space, file size 64MiB, {OPEN_FILES_LEAST} to {OPEN_FILES_LIMIT} files as its memory cap holds sockets, no core); clean \
             environment{}",
            if root {
                "; a group of its own, no capabilities"
            } else {
                ""
            }
        );
        match self {
            Sandbox::Basic => format!("sandbox basic: {basic}"),
            Sandbox::Strict(roots) => format!(
                "sandbox strict: basic, plus per bot a user of its own in its own user, PID \
                 (its first process: all it starts ends with it) and mount namespaces, {}; private /tmp and /dev/shm; read-only file \
                 systems outside its folder; a cgroup (memory limit, swap off, {} pids, CPU \
                 time, cgroup.kill under {})",
                if shares_network_namespace() {
                    "in an empty network namespace and an IPC namespace all its referee's bots \
                     share"
                } else {
                    "in an IPC namespace all its referee's bots share and an empty network \
                     namespace of its own"
                },
                STRICT_PIDS_MAX,
                roots.kill.display()
            ),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Sandbox::Basic => "basic",
            Sandbox::Strict(_) => "strict",
        }
    }
}

impl fmt::Display for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Processes (threads included) a bot may have at once under `strict`.
pub const STRICT_PIDS_MAX: u64 = 128;
/// Memory a bot's cgroup may hold beyond the memory cap (page cache, the
/// kernel's own accounting); the `memory` verdict itself comes from polling.
pub const STRICT_MEMORY_MARGIN: u64 = 32 << 20;
/// Largest file a bot may write (RLIMIT_FSIZE): beyond it, SIGXFSZ.
pub const FILE_SIZE_LIMIT: u64 = 64 << 20;
/// Open files a bot may have at most (RLIMIT_NOFILE): a bot with a small
/// memory cap gets fewer ([`open_files_for`]).
pub const OPEN_FILES_LIMIT: u64 = 256;
/// Open files a bot may have however small its memory cap.
pub const OPEN_FILES_LEAST: u64 = 64;

/// RLIMIT_NOFILE for a bot whose memory cap is `memory_cap_kb` (0: none).
/// Each descriptor may be a socket whose buffers count toward the bot's
/// memory ([`crate::socket_charge_kb`]), but only when the referee next
/// measures it: a bot stuffs some 4 MiB of socket buffers a millisecond,
/// and one that shares its CPU with the referee runs for a whole time
/// slice before the referee sees the pipe it wrote to. With no more
/// descriptors than sockets its cap can hold, what it stuffs between two
/// measures is bounded by the kernel, not by the scheduler.
pub fn open_files_for(memory_cap_kb: u64) -> u64 {
    if memory_cap_kb == 0 {
        return OPEN_FILES_LIMIT;
    }
    (memory_cap_kb / crate::socket_charge_kb()).clamp(OPEN_FILES_LEAST, OPEN_FILES_LIMIT)
}
/// CPU seconds a bot may use in one game (RLIMIT_CPU): a backstop in case
/// the referee itself fails to end it; the per-move limit is wall time.
pub const CPU_SECONDS_LIMIT: u64 = 600;
/// The environment variable that marks every process a bot starts.
pub const TAG_VARIABLE: &str = "REFEREE_BOT_TAG";

/// Where per-bot cgroups are made: one parent per controller hierarchy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgroupRoots {
    /// cgroup v2 directory (for `cgroup.kill` and `cgroup.procs`).
    pub kill: PathBuf,
    /// cgroup v1 memory hierarchy directory, or v2 with the memory controller.
    pub memory: PathBuf,
    /// cgroup v1 pids hierarchy directory.
    pub pids: PathBuf,
    /// Mount points made read-only in a strict bot's mount namespace, with
    /// the flags to keep (nosuid, nodev, noexec, atime).
    pub read_only: Vec<(PathBuf, u64)>,
}

impl CgroupRoots {
    /// Finds the cgroup v2 mount (for cgroup.kill) and the v1 memory and pids
    /// hierarchies, and makes a `referee` directory in each (under this
    /// process's own cgroup) to check they are writable.
    pub fn detect() -> Result<CgroupRoots, SandboxError> {
        let mounts = std::fs::read_to_string("/proc/mounts")
            .map_err(|e| SandboxError::cgroups(format!("cannot read /proc/mounts: {e}")))?;
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        CgroupRoots::detect_in(&mounts, &own)
    }

    /// Where the shared `referee` folders are (made or not), given the text
    /// of `/proc/mounts` and of `/proc/self/cgroup`: the referee's own
    /// cgroup in each hierarchy.
    fn paths_in(mounts: &str, own: &str) -> Result<CgroupRoots, SandboxError> {
        let (v2, memory, pids) = cgroup_mounts(mounts);
        let v2 =
            v2.ok_or_else(|| SandboxError::cgroups("no cgroup2 mount (needed for cgroup.kill)"))?;
        let (memory, pids) = match (memory, pids) {
            (Some(m), Some(p)) => (m, p),
            _ => {
                // A pure cgroup v2 machine: memory and pids are v2 controllers.
                let ctl =
                    std::fs::read_to_string(v2.join("cgroup.controllers")).unwrap_or_default();
                if !(ctl.contains("memory") && ctl.contains("pids")) {
                    return Err(SandboxError::cgroups(format!(
                        "no memory and pids cgroup controllers \
                         (neither cgroup v1 hierarchies nor enabled in {})",
                        v2.display()
                    )));
                }
                (v2.clone(), v2.clone())
            }
        };
        let own_path = |controller: &str| own_cgroup(own, controller);
        Ok(CgroupRoots {
            kill: v2.join(own_path("")).join("referee"),
            memory: memory.join(own_path("memory")).join("referee"),
            pids: pids.join(own_path("pids")).join("referee"),
            read_only: read_only_mounts(mounts),
        })
    }

    /// [`CgroupRoots::detect`] given the text of `/proc/mounts` and of
    /// `/proc/self/cgroup`.
    fn detect_in(mounts: &str, own: &str) -> Result<CgroupRoots, SandboxError> {
        let roots = CgroupRoots::paths_in(mounts, own)?;
        // Another referee that ends removes the shared folders when they
        // are empty (`remove_if_empty`), maybe between their making
        // and the look for cgroup.kill: a folder gone is made again, and
        // only one that is there without the file tells of an old kernel.
        let mut tries = 0;
        loop {
            for dir in [&roots.kill, &roots.memory, &roots.pids] {
                match std::fs::create_dir(dir) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => {
                        return Err(SandboxError::cgroups(format!(
                            "cannot make cgroup {}: {e}",
                            dir.display()
                        )))
                    }
                }
            }
            if roots.kill.join("cgroup.kill").exists() {
                break;
            }
            tries += 1;
            if roots.kill.exists() || tries == 5 {
                return Err(SandboxError::cgroups(format!(
                    "{} has no cgroup.kill (Linux 5.14 or later needed)",
                    roots.kill.display()
                )));
            }
        }
        roots.remove_stale();
        Ok(roots)
    }
}

/// Makes a bot's cgroup folder. Its parent (the shared `referee` folder)
/// may have just been removed by another referee that ended (see
/// [`CgroupRoots::remove_if_empty`]): it is made again, a few times if
/// need be.
fn create_cgroup(dir: &Path) -> io::Result<()> {
    let mut tries = 0;
    loop {
        match std::fs::create_dir(dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && tries < 5 => {
                tries += 1;
                if let Some(parent) = dir.parent() {
                    match std::fs::create_dir(parent) {
                        Ok(()) => {}
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            other => return other,
        }
    }
}

/// Where the cgroup2 file system is mounted, and the cgroup v1 memory and
/// pids hierarchies (if any), from the text of `/proc/mounts`.
fn cgroup_mounts(mounts: &str) -> (Option<PathBuf>, Option<PathBuf>, Option<PathBuf>) {
    let (mut v2, mut memory, mut pids) = (None, None, None);
    for line in mounts.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 {
            continue;
        }
        if f[2] == "cgroup2" && v2.is_none() {
            v2 = Some(PathBuf::from(f[1]));
        } else if f[2] == "cgroup" {
            let opts: Vec<&str> = f[3].split(',').collect();
            if opts.contains(&"memory") {
                memory = Some(PathBuf::from(f[1]));
            }
            if opts.contains(&"pids") {
                pids = Some(PathBuf::from(f[1]));
            }
        }
    }
    (v2, memory, pids)
}

/// This process's cgroup in the hierarchy of `controller` ("" for cgroup
/// v2), relative to its mount, from the text of `/proc/self/cgroup`.
fn own_cgroup(own: &str, controller: &str) -> String {
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next(), parts.next(), parts.next());
        let names = names.unwrap_or("");
        let matches = if controller.is_empty() {
            names.is_empty()
        } else {
            names.split(',').any(|n| n == controller)
        };
        if matches {
            return path.unwrap_or("/").trim_start_matches('/').to_string();
        }
    }
    String::new()
}

impl CgroupRoots {
    /// Removes the shared `referee` folders if no bot is in them (rmdir
    /// of a cgroup that holds one fails, as for another referee's bots),
    /// so that no empty cgroup folder is left behind: when the context
    /// whose bots used them goes ([`crate::Footprint`]).
    pub(crate) fn remove_if_empty(&self) {
        for dir in [&self.kill, &self.memory, &self.pids] {
            let _ = std::fs::remove_dir(dir);
        }
    }

    /// Removes the cgroups of bots whose referee is gone (it was killed
    /// before it could remove them): their names start with the name of
    /// the referee's folder of working directories (see [`new_tag`]).
    /// Whatever still runs in one is killed first.
    ///
    /// A referee is gone when the lock on its folder can be taken; a pid
    /// alone does not tell, since cgroups are shared by referees in other
    /// PID namespaces (containers, `unshare --pid`), whose pids this one
    /// cannot see or has itself. With no folder to judge by, only a
    /// referee in the machine's own PID namespace judges by the pid.
    fn remove_stale(&self) {
        let mut judged: std::collections::HashMap<String, bool> = Default::default();
        for root in [&self.kill, &self.memory, &self.pids] {
            let Ok(entries) = std::fs::read_dir(root) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(owner) = name.to_str().and_then(|n| n.split('-').next()) else {
                    continue;
                };
                let gone = *judged
                    .entry(owner.to_string())
                    .or_insert_with(|| owner_gone(owner));
                if !gone {
                    continue;
                }
                let dir = entry.path();
                let _ = std::fs::write(dir.join("cgroup.kill"), "1");
                let deadline = Instant::now() + Duration::from_millis(500);
                while std::fs::remove_dir(&dir).is_err() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
    }
}

/// Removes the bot cgroups of referees that are gone
/// ([`CgroupRoots::remove_stale`]) where this process's cgroups would be,
/// and the shared `referee` folders if they are left empty; makes nothing
/// (the sweeper's, which does not know whether its referee used cgroups).
pub(crate) fn remove_stale_cgroups() {
    let (Ok(mounts), Ok(own)) = (
        std::fs::read_to_string("/proc/mounts"),
        std::fs::read_to_string("/proc/self/cgroup"),
    ) else {
        return;
    };
    let Ok(roots) = CgroupRoots::paths_in(&mounts, &own) else {
        return;
    };
    if [&roots.kill, &roots.memory, &roots.pids]
        .iter()
        .any(|root| root.is_dir())
    {
        roots.remove_stale();
        roots.remove_if_empty();
    }
}

/// Whether the referee named `owner` by its bots' cgroups (its folder's
/// name without `referee-bots-`: a pid, with `.N` after it when the pid's
/// name was taken) is gone: its folder's lock can be taken; with no such
/// folder in sight, its pid is no running process of this PID namespace,
/// when it is the machine's own.
fn owner_gone(owner: &str) -> bool {
    let Some(pid) = owner.split('.').next().and_then(|p| p.parse::<u32>().ok()) else {
        return false;
    };
    let folder = crate::workdir::workdirs_base().join(format!("referee-bots-{owner}"));
    match crate::workdir::folder_lock_free(&folder, pid) {
        Some(free) => free,
        None => sees_every_process() && !process_running(pid),
    }
}

/// Whether this process is in the machine's own PID namespace: only there
/// is pid 2 the kernel's thread-maker, whose parent is none (pid 0).
pub(crate) fn sees_every_process() -> bool {
    std::fs::read_to_string("/proc/2/status").is_ok_and(|status| {
        status
            .lines()
            .any(|l| l.split_whitespace().eq(["PPid:", "0"]))
    })
}

/// Every mount point but `/proc` (and below), `/dev/shm` (replaced by a
/// private one) and the bots' working folders, with its flags. A working
/// folder's quota tmpfs lives only as long as its game: one listed at
/// detection would be gone (or another bot's) by the time a later bot starts,
/// and each bot's own folder must stay writable.
fn read_only_mounts(mounts: &str) -> Vec<(PathBuf, u64)> {
    let mut out: Vec<(PathBuf, u64)> = Vec::new();
    for line in mounts.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 {
            continue;
        }
        // Octal escapes (\040 for a space) are left as they are: such a
        // mount point is then skipped by the failing remount.
        let point = f[1];
        if point == "/proc" || point.starts_with("/proc/") || point == "/dev/shm" {
            continue;
        }
        if Path::new(point)
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with("referee-bot-"))
        {
            continue;
        }
        let mut flags: libc::c_ulong = 0;
        for opt in f[3].split(',') {
            flags |= match opt {
                "nosuid" => libc::MS_NOSUID,
                "nodev" => libc::MS_NODEV,
                "noexec" => libc::MS_NOEXEC,
                "noatime" => libc::MS_NOATIME,
                "nodiratime" => libc::MS_NODIRATIME,
                "relatime" => libc::MS_RELATIME,
                _ => 0,
            };
        }
        let point = PathBuf::from(point);
        out.retain(|(p, _)| *p != point);
        out.push((point, flags as u64));
    }
    out
}

/// A unique tag for one bot: whose it is (see `tag_owner`), a counter
/// and the time.
pub fn new_tag(workdirs_folder: Option<&Path>) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{}-{n}-{nanos:08x}", tag_owner(workdirs_folder))
}

/// The first part of a bot's tag: the name of its context's folder of
/// working directories without `referee-bots-` (the referee's pid, or the
/// pid and `.N`), which other referees judge it alive by (see
/// `CgroupRoots::remove_stale`); the pid if it has none.
fn tag_owner(workdirs_folder: Option<&Path>) -> String {
    workdirs_folder
        .and_then(|dir| {
            dir.file_name()?
                .to_str()?
                .strip_prefix("referee-bots-")
                .map(str::to_string)
        })
        .unwrap_or_else(|| std::process::id().to_string())
}

/// The group id (and under strict the user id) a bot started by root runs
/// with: its own, derived from its tag, in a range no system user or group
/// uses (1e9 to 2e9).
pub fn id_for(tag: &str) -> libc::gid_t {
    // FNV-1a: stable and spread enough to make two bots alive at once on a
    // machine unlikely to share a group.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in tag.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    1_000_000_000 + (hash % 1_000_000_000) as libc::gid_t
}

/// One bot's cgroups under `strict`.
#[derive(Debug)]
pub struct BotCgroup {
    dirs: Vec<PathBuf>,
    kill_file: PathBuf,
    memory_dir: PathBuf,
    /// `cgroup.procs` of each directory, for the bot to join before exec.
    pub procs_files: Vec<PathBuf>,
    /// The cumulative counters as the bot got the cgroups (which may have
    /// served earlier bots, see [`CGROUP_POOL_SIZE`]): its own are above
    /// them.
    oom_kills_before: u64,
    cpu_before: Duration,
    /// [`BotCgroup::end`] was called.
    ended: bool,
    /// The context whose pool takes the cgroup back when it is dropped.
    footprint: crate::Footprint,
}

/// Emptied cgroups kept for later bots (in the context's
/// [`crate::Footprint`]): two per game played at once on a large machine.
/// Emptied cgroups of earlier bots serve later ones: making a cgroup and removing it (three of them where the memory and
/// pids controllers are cgroup v1) cost more than a tenth of a strict
/// game's start between quick bots. A bot sees nothing of an earlier one
/// in them: the counters it could read that do not fall back to zero when
/// the cgroup empties (OOM kills, CPU time, page faults) are only the
/// kernel's statistics, and the referee judges only above the values at
/// handover. Each is removed when the context goes.
const CGROUP_POOL_SIZE: usize = 128;

impl BotCgroup {
    /// Makes (or takes from `footprint`'s pool) a bot's cgroups under
    /// `roots`, the memory limit `memory_cap_kb`.
    pub fn create(
        roots: &CgroupRoots,
        footprint: &crate::Footprint,
        tag: &str,
        memory_cap_kb: u64,
    ) -> io::Result<BotCgroup> {
        let kill = roots.kill.join(tag);
        let memory = roots.memory.join(tag);
        let pids = roots.pids.join(tag);
        footprint.note_cgroup_roots(roots);
        let dirs = match footprint.pooled_cgroup(&roots.kill) {
            Some(dirs) => dirs,
            None => {
                let mut dirs: Vec<PathBuf> = Vec::new();
                for dir in [&kill, &memory, &pids] {
                    if dirs.contains(dir) {
                        continue;
                    }
                    create_cgroup(dir)?;
                    dirs.push(dir.clone());
                }
                dirs
            }
        };
        // Where the three controllers are one cgroup (v2), it is the
        // first; otherwise kill, memory, pids in that order.
        let memory = dirs
            .iter()
            .find(|d| d.starts_with(&roots.memory))
            .cloned()
            .unwrap_or(memory);
        let pids = dirs
            .iter()
            .find(|d| d.starts_with(&roots.pids))
            .cloned()
            .unwrap_or(pids);
        let kill = dirs[0].clone();
        let mut cgroup = BotCgroup {
            procs_files: dirs.iter().map(|d| d.join("cgroup.procs")).collect(),
            dirs,
            kill_file: kill.join("cgroup.kill"),
            memory_dir: memory.clone(),
            oom_kills_before: 0,
            cpu_before: Duration::ZERO,
            ended: false,
            footprint: footprint.clone(),
        };
        cgroup.oom_kills_before = cgroup.oom_kills();
        cgroup.cpu_before = cgroup.cpu_usage().unwrap_or_default();
        let v1 = memory.join("memory.limit_in_bytes").exists();
        if memory_cap_kb > 0 {
            let bytes = (memory_cap_kb * 1024 + STRICT_MEMORY_MARGIN).to_string();
            if v1 {
                // cgroup v1 keeps the memory limit at or below the memory
                // and swap one: raising both (a cgroup of an earlier bot
                // with a smaller cap) takes that one first.
                let _ = std::fs::write(memory.join("memory.memsw.limit_in_bytes"), &bytes);
                std::fs::write(memory.join("memory.limit_in_bytes"), &bytes)?;
                let _ = std::fs::write(memory.join("memory.swappiness"), "0");
                // No swap either, where the kernel accounts it.
                let _ = std::fs::write(memory.join("memory.memsw.limit_in_bytes"), &bytes);
            } else {
                std::fs::write(memory.join("memory.max"), &bytes)?;
                let _ = std::fs::write(memory.join("memory.swap.max"), "0");
            }
        }
        std::fs::write(pids.join("pids.max"), STRICT_PIDS_MAX.to_string())?;
        Ok(cgroup)
    }

    /// CPU time used by all the bot's processes so far, exactly (the
    /// cgroup v2 `cpu.stat`, kept for every cgroup).
    pub fn cpu_time(&self) -> Option<Duration> {
        Some(self.cpu_usage()?.saturating_sub(self.cpu_before))
    }

    /// The cgroup's CPU time since it was made.
    fn cpu_usage(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(self.kill_file.with_file_name("cpu.stat")).ok()?;
        let usec = stat
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))?
            .trim()
            .parse()
            .ok()?;
        Some(Duration::from_micros(usec))
    }

    /// Kills every process of the bot in one write.
    pub fn kill(&self) {
        let _ = std::fs::write(&self.kill_file, "1");
    }

    /// Kills every process of the bot and waits, up to 2 s, until they
    /// are gone.
    pub fn end(&mut self) {
        self.ended = true;
        self.kill();
        let deadline = Instant::now() + Duration::from_secs(2);
        while !self.empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Resident anonymous memory of all the bot's processes, in KiB.
    pub fn resident_kb(&self) -> Option<u64> {
        let stat = std::fs::read_to_string(self.memory_dir.join("memory.stat")).ok()?;
        // cgroup v1 names the whole tree's figures total_*; v2 has only those.
        let keys: [&str; 2] = if stat.contains("total_rss ") {
            ["total_rss", "total_shmem"]
        } else {
            ["anon", "shmem"]
        };
        let mut total = 0;
        for line in stat.lines() {
            let mut f = line.split_whitespace();
            if let (Some(key), Some(v)) = (f.next(), f.next()) {
                if keys.contains(&key) {
                    total += v.parse::<u64>().ok()?;
                }
            }
        }
        Some(total / 1024)
    }

    /// Whether the kernel's out-of-memory killer acted in the bot's cgroup.
    pub fn oom_killed(&self) -> bool {
        self.oom_kills() > self.oom_kills_before
    }

    /// The kernel's count of OOM kills in the cgroup since it was made.
    fn oom_kills(&self) -> u64 {
        let read = |name: &str| std::fs::read_to_string(self.memory_dir.join(name));
        let text = read("memory.oom_control")
            .or_else(|_| read("memory.events"))
            .unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix("oom_kill ")?.trim().parse().ok())
            .unwrap_or(0)
    }

    /// The processes in it (of the first hierarchy that lists them).
    pub fn pids(&self) -> Vec<i32> {
        self.dirs
            .iter()
            .filter_map(|d| std::fs::read_to_string(d.join("cgroup.procs")).ok())
            .map(|text| {
                text.split_whitespace()
                    .filter_map(|p| p.parse().ok())
                    .collect::<Vec<i32>>()
            })
            .find(|pids| !pids.is_empty())
            .unwrap_or_default()
    }

    fn empty(&self) -> bool {
        self.dirs.iter().all(|d| {
            std::fs::read_to_string(d.join("cgroup.procs"))
                .map(|s| s.trim().is_empty())
                .unwrap_or(true)
        })
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        if !self.ended {
            self.end();
        }
        if self.empty() {
            let root = self.dirs[0]
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let dirs = std::mem::take(&mut self.dirs);
            match self.footprint.keep_cgroup(root, dirs, CGROUP_POOL_SIZE) {
                Ok(()) => return,
                Err(dirs) => self.dirs = dirs,
            }
        }
        for dir in &self.dirs {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Makes the referee's own process non-dumpable, once: its memory
/// (`/proc/<pid>/mem`, where the secret codes are), environment and
/// ptrace-attach are then closed to processes without `CAP_SYS_PTRACE`,
/// bots of the same user included.
pub fn protect_referee() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ =
            rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    });
}

/// Blanks this process's command line as other processes see it
/// (`/proc/<pid>/cmdline`, `ps`), but for the program's name: the
/// referee's arguments may say what a bot must not know (a seed that draws
/// the secret codes, a bench's secret index), and every process of the
/// machine may read another's command line. Call it once the arguments are
/// parsed: `std::env::args` reads the same memory.
pub fn hide_command_line() {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return;
    };
    // Fields after the command name, from field 3 (state): arg_start and
    // arg_end are fields 48 and 49.
    let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return;
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    let (Some(start), Some(end)) = (
        fields.get(45).and_then(|f| f.parse::<usize>().ok()),
        fields.get(46).and_then(|f| f.parse::<usize>().ok()),
    ) else {
        return;
    };
    if start == 0 || end <= start {
        return;
    }
    // SAFETY: [start, end) is this process's own argument area (the kernel
    // says so), mapped and writable for the life of the process; nothing
    // reads the arguments after parsing.
    unsafe {
        let area = std::slice::from_raw_parts_mut(start as *mut u8, end - start);
        let name_end = area
            .iter()
            .position(|&b| b == 0)
            .map_or(area.len(), |i| i + 1);
        area[name_end..].fill(0);
    }
}

/// For a bot started by root, before it changes user: no new privileges
/// (setuid binaries, file capabilities) and an empty capability bounding
/// set, so that no exec can grant any. False if a step failed (errno says
/// why).
pub fn drop_bounding_set() -> bool {
    use rustix::thread::{remove_capability_from_bounding_set, set_no_new_privs, CapabilitySet};
    if set_no_new_privs(true).is_err() {
        return false;
    }
    for cap in 0..64 {
        match remove_capability_from_bounding_set(CapabilitySet::from_bits_retain(1 << cap)) {
            Ok(()) => {}
            // EINVAL past the last capability the kernel knows (they are
            // numbered from 0 without a gap): done.
            Err(e) => return e == rustix::io::Errno::INVAL,
        }
    }
    true
}

/// For a bot that keeps uid 0: empty effective, permitted and inheritable
/// capability sets.
pub fn clear_capabilities() -> io::Result<()> {
    use rustix::thread::{set_capabilities, CapabilitySet, CapabilitySets};
    set_capabilities(
        None,
        CapabilitySets {
            effective: CapabilitySet::empty(),
            permitted: CapabilitySet::empty(),
            inheritable: CapabilitySet::empty(),
        },
    )
    .map_err(io::Error::from)
}

/// The longest the orphan sweep keeps finding new processes.
const SWEEP_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Kills every process, other than the referee, that is in the session
/// `session` or carries `tag` in its environment: what a bot left behind,
/// when its launcher (which kills all the bot's descendants) did not report
/// and had to be killed. Found processes are stopped first so
/// that they cannot fork while the sweep goes on, then killed. Returns how
/// many were killed.
pub fn sweep(session: i32, tag: &str) -> usize {
    let needle = format!("{TAG_VARIABLE}={tag}\0").into_bytes();
    let me = std::process::id() as i32;
    // Only processes started after the bot can be its descendants: the
    // others need not have their environment read.
    let since = stat_of(session).map_or(0, |s| s.start);
    let mut found: Vec<i32> = Vec::new();
    // A process not yet stopped may fork while /proc is read, so a pass that
    // finds nothing new is not the end: two in a row are. Bounded in time,
    // as a bot could keep forking faster than /proc can be read.
    let deadline = std::time::Instant::now() + SWEEP_TIME;
    let mut quiet_passes = 0;
    while quiet_passes < 2 && std::time::Instant::now() < deadline {
        let mut new = 0;
        let Ok(dir) = std::fs::read_dir("/proc") else {
            break;
        };
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<i32>().ok())
            else {
                continue;
            };
            if pid == me || found.contains(&pid) {
                continue;
            }
            let Some(stat) = stat_of(pid) else {
                continue;
            };
            if stat.zombie || stat.start < since {
                continue;
            }
            if stat.session == session || has_tag(pid, &needle) {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::STOP);
                }
                found.push(pid);
                new += 1;
            }
        }
        quiet_passes = if new == 0 { quiet_passes + 1 } else { 0 };
    }
    for &pid in &found {
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
    }
    // A killed process still has to tear down its memory, which for
    // hundreds of them on a busy machine takes a while: "nothing left
    // behind" means gone (or a zombie for its new parent to reap), so wait
    // for that, bounded in time.
    let deadline = std::time::Instant::now() + SWEEP_TIME;
    let mut dying = found.clone();
    while !dying.is_empty() && std::time::Instant::now() < deadline {
        dying.retain(|&pid| stat_of(pid).is_some_and(|s| !s.zombie));
        if !dying.is_empty() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    found.len()
}

struct Stat {
    zombie: bool,
    session: i32,
    /// Start time, in clock ticks since boot.
    start: u64,
}

fn stat_of(pid: i32) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid pgrp session ... starttime (field 22); comm may
    // hold spaces and ')'.
    let after = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = after.split_whitespace().collect();
    Some(Stat {
        zombie: *f.first()? == "Z",
        session: f.get(3)?.parse().ok()?,
        start: f.get(19)?.parse().ok()?,
    })
}

/// Is process `pid` running (a referee whose leftovers the next one would
/// otherwise remove)? Not if it is gone, a zombie (where nothing reaps
/// orphans, as a container's first process may not, a killed referee
/// stays one), or only a thread of another process by that number (its
/// `/proc` entry answers too; only `status` tells whose it is).
pub(crate) fn process_running(pid: u32) -> bool {
    let leads_its_group =
        std::fs::read_to_string(format!("/proc/{pid}/status")).is_ok_and(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Tgid:"))
                .is_some_and(|tgid| tgid.trim() == pid.to_string())
        });
    leads_its_group && stat_of(pid as i32).is_some_and(|stat| !stat.zombie)
}

fn has_tag(pid: i32, needle: &[u8]) -> bool {
    let Ok(environ) = std::fs::read(Path::new("/proc").join(pid.to_string()).join("environ"))
    else {
        return false;
    };
    environ.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::seccomp::*;
    use super::*;

    /// `seccomp_data` of one system call (its number, its architecture,
    /// the instruction pointer and six arguments) as 32-bit words.
    #[cfg(target_arch = "x86_64")]
    fn seccomp_data(nr: u32, arch: u32, args: [u64; 6]) -> [u32; 16] {
        let mut data = [0u32; 16];
        data[0] = nr;
        data[1] = arch;
        for (k, arg) in args.iter().enumerate() {
            data[4 + 2 * k] = *arg as u32;
            data[5 + 2 * k] = (*arg >> 32) as u32;
        }
        data
    }

    /// Runs a classic BPF program of the instructions seccompiler, the
    /// guard and the compiler emit on one system call, as the kernel would.
    #[cfg(target_arch = "x86_64")]
    fn run_seccomp(program: &[Instruction], data: &[u32; 16]) -> u32 {
        let (mut pc, mut acc) = (0usize, 0u32);
        let jump = |taken: bool, i: &Instruction| usize::from(if taken { i.jt } else { i.jf });
        loop {
            let i = &program[pc];
            match i.code {
                op::LOAD => acc = data[i.k as usize / 4],
                op::AND => acc &= i.k,
                op::JEQ => pc += jump(acc == i.k, i),
                op::JGE => pc += jump(acc >= i.k, i),
                op::JSET => pc += jump(acc & i.k != 0, i),
                0x05 => pc += i.k as usize, // JA
                op::RET => return i.k,
                other => panic!("instruction {other:#x} at {pc} is not one the programs use"),
            }
            pc += 1;
        }
    }

    /// What the kernel answers with `installed` installed in that order:
    /// every one runs, the strongest action wins (the action as a signed
    /// number, lowest first), the last installed among equals.
    #[cfg(target_arch = "x86_64")]
    fn kernel_answer(installed: &[Vec<Instruction>], data: &[u32; 16]) -> u32 {
        let action = |ret: u32| (ret & 0xffff_0000) as i32;
        let mut answer = SECCOMP_ALLOW;
        for program in installed.iter().rev() {
            let ret = run_seccomp(program, data);
            if action(ret) < action(answer) {
                answer = ret;
            }
        }
        answer
    }

    #[cfg(target_arch = "x86_64")]
    const I386: u32 = 0x4000_0003;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn x32_guard_refuses_only_x32() {
        let x86_64 = AUDIT_ARCH_X86_64;
        let socket = libc::SYS_socket as u32;
        let programs: Vec<Vec<Instruction>> = SeccompPolicy::ALL
            .iter()
            .map(|&policy| SeccompProgram::build(policy).unwrap().program)
            .collect();
        for (nr, arch, guard_alone, compiled) in [
            (libc::SYS_read as u32, x86_64, SECCOMP_ALLOW, SECCOMP_ALLOW),
            (
                socket,
                x86_64,
                SECCOMP_ALLOW,
                0x0005_0000 | libc::EACCES as u32,
            ),
            (
                X32_SYSCALL_BIT | socket,
                x86_64,
                SECCOMP_EPERM,
                SECCOMP_EPERM,
            ),
            (X32_SYSCALL_BIT, x86_64, SECCOMP_EPERM, SECCOMP_EPERM),
            (u32::MAX, x86_64, SECCOMP_EPERM, SECCOMP_EPERM),
            // Another architecture passes the guard alone: seccompiler's
            // tables kill the process for it, and so does the program.
            (
                X32_SYSCALL_BIT | 41,
                I386,
                SECCOMP_ALLOW,
                libc::SECCOMP_RET_KILL_PROCESS,
            ),
            (41, I386, SECCOMP_ALLOW, libc::SECCOMP_RET_KILL_PROCESS),
        ] {
            let data = seccomp_data(nr, arch, [0; 6]);
            assert_eq!(
                run_seccomp(&seccomp_oracle::X32_GUARD, &data),
                guard_alone,
                "nr {nr:#x} arch {arch:#x}"
            );
            // (A compiler's `socket` is refused but for AF_UNIX: family 0
            // is refused too.)
            for (program, policy) in programs.iter().zip(SeccompPolicy::ALL) {
                assert_eq!(
                    run_seccomp(program, &data),
                    compiled,
                    "nr {nr:#x} arch {arch:#x} {policy:?}"
                );
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn programs_built_ahead_equal_the_tables_built_for_the_pid() {
        for policy in SeccompPolicy::ALL {
            for own in [1, 2, 4242, 4_194_304, i32::MAX] {
                let mut ahead = SeccompProgram::build(policy).unwrap();
                ahead.name_pid(own as u32);
                assert_eq!(
                    ahead.program,
                    bot_program(own, policy).unwrap(),
                    "{policy:?} {own}"
                );
            }
        }
    }

    /// Values that the rules look at or that sit next to them: the bot's
    /// pid (`own`) and its group as a 32-bit and as a sign-extended 64-bit
    /// int, 0, other pids, each clone flag alone, together and with
    /// `CLONE_THREAD`, the flags of a new thread and of a fork, address
    /// families, priority targets, and high 32 bits set.
    #[cfg(target_arch = "x86_64")]
    fn interesting_values(own: u32) -> Vec<u64> {
        // clone(2)'s flag for a child that shares its parent's memory, as
        // a new thread (and `posix_spawn`) asks for it: a value the filter
        // must judge. Spelled as its number, so that the flag's name is
        // found nowhere in the source: the referee never passes it.
        const SHARED_MEMORY: libc::c_int = 0x0000_0100;
        let high = 1u64 << 32;
        let thread = libc::CLONE_THREAD as u64;
        // A new thread as the C library's `pthread_create` asks for it.
        let thread_creation = (SHARED_MEMORY
            | libc::CLONE_THREAD
            | libc::CLONE_SIGHAND
            | libc::CLONE_FS
            | libc::CLONE_FILES
            | libc::CLONE_SYSVSEM
            | libc::CLONE_SETTLS
            | libc::CLONE_PARENT_SETTID
            | libc::CLONE_CHILD_CLEARTID) as u64;
        let namespaces = [
            libc::CLONE_NEWNS,
            libc::CLONE_NEWCGROUP,
            libc::CLONE_NEWUTS,
            libc::CLONE_NEWIPC,
            libc::CLONE_NEWUSER,
            libc::CLONE_NEWPID,
            libc::CLONE_NEWNET,
            0x80,
        ]
        .map(|flag| flag as u64);
        let all_namespaces = namespaces.iter().fold(0, |all, flag| all | flag);
        let mut values = vec![
            0,
            1,
            2,
            3,
            10,
            16,
            own as u64,
            own.wrapping_neg() as u64,
            -(own as i64) as u64,
            (own + 1) as u64,
            (own - 1) as u64,
            high | own as u64,
            u32::MAX as u64,
            u64::MAX,
            high,
            high | 1,
            0x8000_0000,
            thread,
            thread_creation,
            thread_creation | high,
            thread_creation | libc::CLONE_NEWNS as u64,
            all_namespaces,
            all_namespaces | thread,
            libc::SIGCHLD as u64,
            (libc::CLONE_VFORK | SHARED_MEMORY | libc::SIGCHLD) as u64,
        ];
        for flag in namespaces {
            values.extend([flag, flag | thread, flag | thread_creation]);
        }
        values
    }

    /// Each policy's program answers as seccompiler's tables installed one
    /// by one behind the x32 guard: every call number to 600, the same as
    /// x32 calls and under another architecture, each with a few
    /// arguments; the calls the tables refuse under conditions, with every
    /// pair of interesting first and second arguments.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_program_answers_every_call_as_the_tables_installed_one_by_one() {
        let own = 4242u32;
        let values = interesting_values(own);
        let mut calls = 0;
        for policy in SeccompPolicy::ALL {
            let tables = seccomp_tables(own as i32, policy);
            let installed = seccomp_oracle::installed_one_by_one(own as i32, policy);
            let before = seccomp_oracle::chained_behind_shortcut(own as i32, policy);
            let mut built = SeccompProgram::build(policy).unwrap();
            built.name_pid(own);
            let mut check = |nr: u32, arch: u32, args: [u64; 6]| {
                let data = seccomp_data(nr, arch, args);
                let want = kernel_answer(&installed, &data);
                let context = format!("nr {nr:#x} arch {arch:#x} args {args:x?} {policy:?}");
                assert_eq!(run_seccomp(&built.program, &data), want, "{context}");
                assert_eq!(run_seccomp(&before, &data), want, "before: {context}");
                calls += 1;
            };
            let numbers = (0..=600u32)
                .chain([0x3fff_ffff, 0x7fff_ffff, u32::MAX])
                .flat_map(|nr| [nr, nr | X32_SYSCALL_BIT]);
            for (i, nr) in numbers.enumerate() {
                let pick = |k: usize| values[(i * 7 + k * 13) % values.len()];
                for arch in [AUDIT_ARCH_X86_64, I386, 0xc000_00b7] {
                    for args in [
                        [0; 6],
                        [u64::MAX; 6],
                        [pick(0), pick(1), pick(2), pick(3), pick(4), pick(5)],
                    ] {
                        check(nr, arch, args);
                    }
                }
            }
            let conditional = tables.iter().flat_map(|(rules, _)| {
                rules
                    .iter()
                    .filter(|(_, rules)| !rules.is_empty())
                    .map(|(nr, _)| *nr as u32)
            });
            for nr in conditional {
                for a0 in &values {
                    for a1 in &values {
                        for rest in [0, *a1] {
                            check(nr, AUDIT_ARCH_X86_64, [*a0, *a1, rest, rest, rest, rest]);
                        }
                    }
                }
            }
        }
        assert!(calls > 100_000, "{calls}");
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_tables_build_for_any_pid_with_and_without_fork() {
        for own in [1, 2, 4_194_304, i32::MAX] {
            for policy in SeccompPolicy::ALL {
                let program = bot_program(own, policy).expect("the program builds");
                // Each instruction costs every bot's start (see `compile`).
                assert!(program.len() < 150, "{policy:?}: {}", program.len());
                if own == 1 {
                    let before = seccomp_oracle::chained_behind_shortcut(own, policy).len();
                    println!(
                        "{policy:?}: {} instructions, {before} before",
                        program.len()
                    );
                }
                let programs = seccomp_oracle::programs_of(&seccomp_tables(own, policy));
                assert_eq!(programs.len(), 3);
                assert!(programs.iter().all(|p| p.len() < 4096), "BPF_MAXINSNS");
            }
        }
    }

    /// Forks a child that runs `install`, then (if it succeeded) `then`,
    /// and exits with what it returns (100: `install` failed); gives that
    /// exit status.
    #[cfg(target_arch = "x86_64")]
    fn in_child(install: impl FnOnce() -> bool, then: impl FnOnce() -> i32) -> i32 {
        // SAFETY: the child makes system calls only (no allocation, no
        // lock another thread of the test may hold) and leaves by `_exit`,
        // without the parent's destructors or atexit handlers; the parent
        // waits for the child it forked.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0, "fork");
            if pid == 0 {
                let code = if install() { then() } else { 100 };
                libc::_exit(code)
            }
            let mut status = 0;
            assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
            assert!(libc::WIFEXITED(status), "status {status:#x}");
            libc::WEXITSTATUS(status)
        }
    }

    /// The kernel takes each policy's program (its checker refuses a jump
    /// out of range or a program that does not end in a return) and
    /// answers as the tables say, with the child's own pid in place.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_kernel_installs_each_program_and_answers_as_the_tables() {
        fn errno_of(result: libc::c_long) -> i32 {
            if result == -1 {
                io::Error::last_os_error().raw_os_error().unwrap_or(-1)
            } else {
                0
            }
        }
        for policy in SeccompPolicy::ALL {
            let mut program = SeccompProgram::build(policy).unwrap();
            let status = in_child(
                || program.install(),
                || {
                    // Each call's errno, read right after it.
                    // SAFETY: system calls with integer arguments only (and a
                    // string the kernel reads during the call).
                    let checks = unsafe {
                        [
                            (errno_of(libc::syscall(libc::SYS_kill, 1, 0)), libc::EPERM),
                            (
                                errno_of(libc::syscall(libc::SYS_kill, libc::getpid(), 0)),
                                0,
                            ),
                            // Let through: the child leads no group of its own.
                            (
                                errno_of(libc::syscall(libc::SYS_kill, -libc::getpid(), 0)),
                                libc::ESRCH,
                            ),
                            (errno_of(libc::syscall(libc::SYS_kill, 0, 0)), 0),
                            (
                                errno_of(libc::syscall(
                                    libc::SYS_socket,
                                    libc::AF_INET,
                                    libc::SOCK_STREAM,
                                    0,
                                )),
                                libc::EACCES,
                            ),
                            (
                                errno_of(libc::syscall(libc::SYS_memfd_create, c"x".as_ptr(), 0)),
                                libc::ENOSYS,
                            ),
                            (
                                errno_of(libc::syscall(
                                    libc::SYS_ptrace,
                                    libc::PTRACE_TRACEME,
                                    0,
                                    0,
                                    0,
                                )),
                                libc::EPERM,
                            ),
                            (
                                errno_of(libc::syscall(
                                    X32_SYSCALL_BIT as libc::c_long | libc::SYS_getpid,
                                )),
                                libc::EPERM,
                            ),
                            (errno_of(libc::syscall(libc::SYS_getppid)), 0),
                        ]
                    };
                    for (i, (errno, want)) in checks.into_iter().enumerate() {
                        if errno != want {
                            return 1 + i as i32;
                        }
                    }
                    0
                },
            );
            assert_eq!(
                status,
                0,
                "{policy:?}: check {} failed (100: install)",
                status - 1
            );
        }
    }

    /// The cost of installing the program in a child between fork and
    /// exit, the compiled one against the one chained from seccompiler's
    /// tables before: `cargo test --release -p referee-sandbox --lib --
    /// --ignored --nocapture seccomp_install_cost`. Each child is timed
    /// from fork to reap, the kinds in turn (no program, a program of one
    /// return, before, compiled); the medians are compared, which a busy machine's
    /// spikes move little.
    #[test]
    #[ignore = "a measurement, printed"]
    #[cfg(target_arch = "x86_64")]
    fn seccomp_install_cost() {
        const CHILDREN: usize = 200;
        const ROUNDS: usize = 5;
        let policy = SeccompPolicy::Bot;
        // The stand-in pid left in place: the install costs the same.
        let compiled = SeccompProgram::build(policy).unwrap().program;
        let before = seccomp_oracle::chained_behind_shortcut(PID_STAND_IN as i32, policy);
        let allow_all = [Instruction {
            code: op::RET,
            jt: 0,
            jf: 0,
            k: SECCOMP_ALLOW,
        }];
        let kinds: [(&str, &[Instruction]); 4] = [
            ("no program (fork, no_new_privs, exit, reap)", &[]),
            ("one return (what any install costs)", &allow_all),
            ("before", &before),
            ("compiled", &compiled),
        ];
        let mut times: [Vec<Duration>; 4] = Default::default();
        for child in 0..CHILDREN * ROUNDS {
            for turn in 0..kinds.len() {
                let kind = (child + turn) % kinds.len();
                let program = kinds[kind].1;
                // Every child sets `no_new_privs`.
                let install = || {
                    rustix::thread::set_no_new_privs(true).is_ok()
                        && (program.is_empty() || install_filter(program))
                };
                let start = Instant::now();
                assert_eq!(in_child(install, || 0), 0);
                times[kind].push(start.elapsed());
            }
        }
        let micros = |time: Duration| time.as_secs_f64() * 1e6;
        let median = |times: &mut Vec<Duration>| {
            times.sort();
            times[times.len() / 2]
        };
        let floor = median(&mut times[0]);
        for ((name, program), times) in kinds.into_iter().zip(&mut times) {
            let (median, quartiles) = (
                median(times),
                (times[times.len() / 4], times[times.len() * 3 / 4]),
            );
            println!(
                "{name}: {} instructions, {:.1} µs fork to reap (median of {}; quartiles {:.1}-{:.1}), \
                 the install {:.1} µs",
                program.len(),
                micros(median),
                times.len(),
                micros(quartiles.0),
                micros(quartiles.1),
                micros(median) - micros(floor),
            );
        }
    }

    #[test]
    fn choices_parse_and_refuse_unknown_names() {
        assert_eq!(SandboxChoice::parse("Strict"), Ok(SandboxChoice::Strict));
        assert_eq!(SandboxChoice::parse("auto"), Ok(SandboxChoice::Auto));
        let e = SandboxChoice::parse("tight").unwrap_err();
        assert!(e.to_string().contains("basic, strict or auto"), "{e}");
    }

    #[test]
    fn a_zombie_a_thread_and_a_gone_pid_are_not_running_referees() {
        assert!(process_running(std::process::id()));
        // A thread's id names no process: the thread lives until it has
        // been looked at, however slow the look.
        let (sender, receiver) = std::sync::mpsc::channel();
        let (looked, wait_for_look) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            sender
                .send(rustix::thread::gettid().as_raw_nonzero().get() as u32)
                .unwrap();
            let _ = wait_for_look.recv();
        });
        let live_tid = receiver.recv().unwrap();
        assert!(!process_running(live_tid), "a thread is not a referee");
        looked.send(()).unwrap();
        thread.join().unwrap();
        // A child that exited and is not reaped yet: a zombie.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        let deadline = Instant::now() + Duration::from_secs(5);
        while process_running(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!process_running(pid), "a zombie is not a referee");
        child.wait().unwrap();
        assert!(!process_running(pid));
    }

    #[test]
    fn tags_are_unique() {
        assert_ne!(new_tag(None), new_tag(None));
    }

    #[test]
    // c_ulong is u64 only on 64-bit targets.
    #[allow(clippy::unnecessary_cast)]
    fn read_only_mounts_skip_proc_and_dev_shm_and_keep_flags() {
        let mounts = "proc /proc proc rw,relatime 0 0\n\
                      tmpfs /dev/shm tmpfs rw 0 0\n\
                      /dev/sda / ext4 rw,relatime 0 0\n\
                      tmpfs /run tmpfs rw,nosuid,nodev,noexec 0 0\n\
                      binfmt /proc/sys/fs/binfmt_misc binfmt_misc rw 0 0\n\
                      tmpfs /tmp/referee-bots-7/referee-bot-Ab12 tmpfs rw 0 0\n\
                      tmpfs /dev/shm/referee-bots-7/referee-bot-Cd34 tmpfs rw 0 0\n";
        let got = read_only_mounts(mounts);
        let names: Vec<&str> = got.iter().map(|(p, _)| p.to_str().unwrap()).collect();
        assert_eq!(names, ["/", "/run"]);
        assert_eq!(got[0].1, libc::MS_RELATIME as u64);
        assert_eq!(
            got[1].1,
            (libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC) as u64
        );
    }

    #[test]
    fn own_stat_parses() {
        let me = stat_of(std::process::id() as i32).unwrap();
        assert!(!me.zombie);
        // This process's session may be led from outside its PID namespace
        // (a CI container), where its id reads 0: a session of a known
        // leader is made to compare with instead.
        let mut child = std::process::Command::new("setsid")
            .args(["sleep", "30"])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut led = None;
        while led.is_none() && Instant::now() < deadline {
            led = stat_of(pid).filter(|s| s.session == pid);
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(led.is_some(), "the session led by {pid} was not read");
        assert!(me.start > 0);
    }

    #[test]
    fn the_sweep_finds_nothing_for_an_unused_tag() {
        // A session id no process has (pids are below 2^22).
        assert_eq!(sweep(i32::MAX, &new_tag(None)), 0);
    }

    #[test]
    fn strict_is_refused_with_what_is_missing_and_how_to_get_it() {
        let no_v2 = "/dev/sda / ext4 rw 0 0\ncgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\n";
        let e = CgroupRoots::detect_in(no_v2, "0::/\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no cgroup2 mount"), "{e}");
        assert!(e.contains("--sandbox basic") && e.contains("root"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let v2_only = format!("cgroup2 {} cgroup2 rw 0 0\n", dir.path().display());
        let e = CgroupRoots::detect_in(&v2_only, "0::/\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no memory and pids cgroup controllers"), "{e}");
    }

    /// basic is always had; auto is strict where strict can be had (the
    /// same cgroups), basic where it cannot, and never an error.
    #[test]
    fn auto_is_strict_where_strict_resolves_and_basic_elsewhere() {
        assert_eq!(SandboxChoice::Basic.resolve(), Ok(Sandbox::Basic));
        let auto = SandboxChoice::Auto.resolve();
        match SandboxChoice::Strict.resolve() {
            Ok(strict) => assert_eq!(auto, Ok(strict)),
            Err(why) => {
                assert!(why.to_string().contains("--sandbox basic"), "{why}");
                assert_eq!(auto, Ok(Sandbox::Basic));
            }
        }
    }
}
