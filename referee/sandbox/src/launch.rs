//! The launcher: a child the referee forks for a bot (see
//! `BotProcess::spawn`), which confines a fresh child of its own step by
//! step, execs the bot in it, and stays as the bot's parent until the bot
//! and everything it started are gone. Every bot is started this way: the
//! referee never runs code of its own in a child that shares its memory.
//!
//! Why a process between the referee and the bot:
//! - The referee is multi-threaded (a tournament plays games in parallel).
//!   The launcher is single-threaded: it can set up namespaces and mounts,
//!   a user, Landlock and seccomp one step at a time, and say which step
//!   failed. It is forked, not exec'd (an exec of the referee's binary per
//!   bot was most of a strict game's start): the C library's fork leaves
//!   the allocator usable in the child, and the launcher takes no other
//!   lock of the referee's (no standard stream, no environment) and ends
//!   with `_exit`.
//! - Memory: a process's peak resident size (`ru_maxrss`) keeps the peak of
//!   the image it was forked from, here the referee's. So the launcher
//!   reports the bot's figure only above its own peak at the fork
//!   (`own_peak_rss_kb`); the referee reads the bot's own peak while it
//!   runs (`VmHWM`, and the cgroup's under strict), once more just before
//!   the game's end.
//! - It is the bot's subreaper: every process the bot starts, even one that
//!   leaves its session and clears its environment, stays a descendant of
//!   the launcher, which kills all of them when the bot exits.
//! - Under `strict` the bot is the first process of a new PID namespace:
//!   it sees only its own processes, and when it dies the kernel kills the
//!   rest.
//!
//! The launcher has the [`LaunchSpec`] in its copy of the referee's memory
//! and answers on descriptor 3, one line each: `started PID` once the
//! bot's exec succeeded (or `error WHAT`), then
//! `exit code|signal N CPU_US MAXRSS_KB` when the bot is gone.

use std::ffi::{CStr, CString, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::{landlock, sandbox};

mod error;
mod exposures;
mod file_rules;
mod identity;
mod limits;
mod mounts;
mod signals;

pub use error::{Fault, LaunchError, Needs, Step, StepError};
use exposures::*;
pub(crate) use file_rules::*;
use identity::*;
use limits::*;
use mounts::*;
use signals::find_signals_not_at_default;
pub(crate) use signals::{leave_the_referee, Forked};

/// The launcher's descriptor for its report to the referee.
pub const REPORT_FD: i32 = 3;
/// The longest the launcher spends killing what a bot left behind.
const CLEANUP_TIME: Duration = Duration::from_secs(2);

/// Everything the launcher needs to start one bot.
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The bot's whole environment.
    pub env: Vec<(OsString, OsString)>,
    pub workdir: PathBuf,
    /// Folders the bot reads besides its program's (its build, its
    /// sources), real paths or not.
    pub readable: Vec<PathBuf>,
    /// RLIMIT_AS in bytes (`u64::MAX`: none).
    pub address_space: u64,
    /// RLIMIT_FSIZE in bytes: no file larger than the folder's quota.
    pub file_size: u64,
    /// RLIMIT_NOFILE ([`sandbox::open_files_for`]).
    pub open_files: u64,
    pub allow_fork: bool,
    /// A compiler, confined as a bot but for what compilers need
    /// ([`sandbox::SeccompPolicy::Compiler`]).
    pub compiler: bool,
    /// Paths of the referee's the bot must not read.
    pub hidden: Vec<PathBuf>,
    /// Set when the referee runs as root.
    pub identity: Option<Identity>,
    /// `cgroup.procs` files the bot joins before anything else (strict).
    pub cgroup_procs: Vec<PathBuf>,
    /// Namespaces and mounts (strict).
    pub strict: Option<StrictSpec>,
    /// The context the bot starts in, which keeps the Landlock rules
    /// planned for its command (`CommandRules`).
    pub footprint: crate::Footprint,
}

impl LaunchSpec {
    /// The seccomp program it runs under.
    pub fn seccomp_policy(&self) -> sandbox::SeccompPolicy {
        sandbox::SeccompPolicy::of(self.allow_fork, self.compiler)
    }
}

/// Who a bot started by root runs as.
#[derive(Clone, Debug)]
pub struct Identity {
    /// A user of its own under strict; `None` keeps uid 0 (basic), without
    /// capabilities.
    pub uid: Option<u32>,
    pub gid: u32,
}

#[derive(Clone, Debug)]
pub struct StrictSpec {
    /// Mount points made read-only, with the flags to keep.
    pub read_only: Vec<(PathBuf, u64)>,
}

/// What the launcher reported when the bot was gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    pub exit: super::Exit,
    pub cpu: Duration,
    pub max_rss_kb: u64,
}

impl Ended {
    pub fn parse(line: &str) -> Option<Ended> {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [tag, kind, n, cpu_us, rss] = f.as_slice() else {
            return None;
        };
        if *tag != "exit" {
            return None;
        }
        let n: i32 = n.parse().ok()?;
        Some(Ended {
            exit: match *kind {
                "code" => super::Exit::Code(n),
                "signal" => super::Exit::Signal(n),
                _ => return None,
            },
            cpu: Duration::from_micros(cpu_us.parse().ok()?),
            max_rss_kb: rss.parse().ok()?,
        })
    }

    /// From a wait status and the resource usage `wait4` gave with it.
    pub fn from_wait(status: libc::c_int, usage: &libc::rusage) -> Ended {
        let to_us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        Ended {
            exit: if libc::WIFSIGNALED(status) {
                super::Exit::Signal(libc::WTERMSIG(status))
            } else {
                super::Exit::Code(libc::WEXITSTATUS(status))
            },
            cpu: Duration::from_micros(to_us(usage.ru_utime) + to_us(usage.ru_stime)),
            max_rss_kb: usage.ru_maxrss.max(0) as u64,
        }
    }

    /// Its peak memory only if above `inherited_kb`, the peak of the image
    /// the bot was forked or cloned from (which `ru_maxrss` keeps); else 0,
    /// and the referee's own reading of the bot's peak while it ran stands.
    pub fn beyond(mut self, inherited_kb: u64) -> Ended {
        if self.max_rss_kb <= inherited_kb {
            self.max_rss_kb = 0;
        }
        self
    }

    fn line(&self) -> String {
        let (kind, n) = match self.exit {
            super::Exit::Code(c) => ("code", c),
            super::Exit::Signal(s) => ("signal", s),
        };
        format!(
            "exit {kind} {n} {} {}\n",
            self.cpu.as_micros(),
            self.max_rss_kb
        )
    }
}

/// This process's peak resident memory so far, in KiB. A process forked
/// from this one keeps it as its own `ru_maxrss` even after exec: a child's
/// figure at or below it says nothing of the child.
pub(super) fn own_peak_rss_kb() -> u64 {
    // SAFETY: rusage is plain data (zeroed is a valid value), which
    // getrusage fills in through a valid pointer to a local.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0;
        }
        usage
    };
    usage.ru_maxrss.max(0) as u64
}

/// Marks the launcher's error line when the bot's own program could not be
/// run (see [`super::is_bots_fault`]).
pub const BOTS_FAULT: &str = "bot: ";

/// Marks the launcher's error line when the organiser's files stand in the
/// way (a script others cannot read under strict): neither the bot's fault
/// nor the system's, not retried (see [`super::is_operators_fault`]).
pub const OPERATORS_FAULT: &str = "operator: ";

/// What a launcher has from the referee besides the spec, made once per
/// referee before the fork.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prepared {
    /// It is in the referee's shared network namespace already (strict).
    pub network_joined: bool,
    /// And in its shared IPC namespace.
    pub ipc_joined: bool,
    /// The Landlock layer hiding root's secrets (basic, as root), open on
    /// [`SECRETS_FD`]: stacked under the bot's own ruleset, which then
    /// need not walk `/etc` for every bot.
    pub secrets: bool,
    /// The bot's own Landlock ruleset, made by the referee before the fork
    /// ([`prepared_ruleset`], basic), open on [`RULESET_FD`]; else its
    /// child makes it.
    pub ruleset: bool,
}

/// The launcher's descriptor for the layer hiding root's secrets.
pub const SECRETS_FD: i32 = 4;
/// The launcher's descriptor for its bot's Landlock ruleset.
pub const RULESET_FD: i32 = 5;

/// The launcher's life in the child of the referee's fork (see
/// `BotProcess::spawn`), its report pipe on [`REPORT_FD`]: starts the bot,
/// waits for it and its tree. Returns the exit code.
pub(super) fn keep(spec: &LaunchSpec, mut report: File, prepared: Prepared, referee: i32) -> i32 {
    watch_for_the_referees_death(referee);
    match launch(spec, &mut report, prepared) {
        Ok(()) => 0,
        Err(why) => {
            let _ = writeln!(report, "error {}", why.report_line());
            1
        }
    }
}

/// Set when the launcher gets SIGTERM: the parent-death signal the referee
/// asked for (or an operator's kill).
static REFEREE_GONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn on_term(_: libc::c_int) {
    REFEREE_GONE.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// SIGTERM (the referee's death, see `BotProcess::spawn`) interrupts the
/// launcher's wait (no SA_RESTART), which then ends the bot's whole tree
/// before exiting: the bot and every descendant, wherever it moved. A
/// referee already gone before the handler was in place is seen through
/// the parent id (the launcher was handed to another process). Not "the
/// parent is pid 1": a referee that is its container's first process is
/// pid 1 itself.
fn watch_for_the_referees_death(referee: i32) {
    // SAFETY: the handler only stores to an atomic; sigaction with a
    // zeroed, then filled, struct.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_term as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        action.sa_flags = 0;
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
        if libc::getppid() != referee {
            REFEREE_GONE.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

fn referee_gone() -> bool {
    REFEREE_GONE.load(std::sync::atomic::Ordering::SeqCst)
}

fn launch(spec: &LaunchSpec, report: &mut File, prepared: Prepared) -> Result<(), LaunchError> {
    closed_to_its_user(spec)?;
    become_the_bots_keeper(spec, prepared)?;
    let exposures = if spec.strict.is_some() {
        exposures_for(spec)
    } else {
        Vec::new()
    };
    // The bot is forked from the launcher, itself a copy of the referee:
    // its `ru_maxrss` keeps this peak (see `own_peak_rss_kb`).
    let inherited_rss_kb = own_peak_rss_kb();
    let bot = start_bot(
        spec,
        exposures,
        Forker::Launcher {
            secrets: prepared.secrets,
            ruleset: prepared.ruleset,
        },
    )?;
    report
        .write_all(format!("started {bot}\n").as_bytes())
        .map_err(|e| StepError::new(Step::Report, e))?;
    // The launcher's own copies of the bot's pipes would keep them open
    // after the bot's tree is gone.
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        let _ = rustix::stdio::dup2_stdin(&null);
        let _ = rustix::stdio::dup2_stdout(&null);
        let _ = rustix::stdio::dup2_stderr(&null);
    }
    let (status, usage) = wait_for(bot, &spec.workdir);
    end_descendants();
    let ended = Ended::from_wait(status, &usage).beyond(inherited_rss_kb);
    report
        .write_all(ended.line().as_bytes())
        .map_err(|e| StepError::new(Step::Report, e).into())
}

/// The launcher itself: not dumpable, the subreaper of the bot's tree,
/// and under strict in a new PID namespace (for its children), and in
/// network and IPC namespaces of its own unless it joined the referee's
/// shared ones (see `sandbox::SharedNamespaces`).
fn become_the_bots_keeper(spec: &LaunchSpec, prepared: Prepared) -> Result<(), StepError> {
    // Nobody of the bot's user reads the launcher's memory.
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    // Orphans of the bot's tree become the launcher's children.
    rustix::process::set_child_subreaper(Some(rustix::process::getpid()))
        .map_err(|e| StepError::new(Step::Subreaper, e))?;
    if spec.strict.is_some() {
        // Network and IPC for the launcher too (it uses neither); the PID
        // namespace for its children only: the bot is its first process.
        let network = if prepared.network_joined {
            0
        } else {
            libc::CLONE_NEWNET
        };
        let ipc = if prepared.ipc_joined {
            0
        } else {
            libc::CLONE_NEWIPC
        };
        sandbox::unshare_namespaces(libc::CLONE_NEWPID | network | ipc)
            .map_err(|e| StepError::new(Step::Namespaces, e))?;
    }
    Ok(())
}

/// Under strict a bot runs as a user of its own: the folders above its
/// files may be closed to others (they are shown at their own paths), but
/// its program must be runnable and its script readable by others. One
/// that is not is refused as the operator's to fix, not blamed on the bot
/// (the game is not played): which file, and what to do.
fn closed_to_its_user(spec: &LaunchSpec) -> Result<(), LaunchError> {
    if !matches!(spec.identity, Some(Identity { uid: Some(_), .. })) || spec.compiler {
        return Ok(());
    }
    let mode = |path: &Path| std::fs::metadata(path).map(|m| m.permissions().mode());
    let program = spec
        .program
        .canonicalize()
        .unwrap_or_else(|_| spec.program.clone());
    let mut wanted: Vec<(PathBuf, Needs)> = vec![(program, Needs::Run)];
    wanted.extend(
        needed_folders(spec)
            .into_iter()
            .filter(|p| p.is_file())
            .map(|p| (p, Needs::Read)),
    );
    for (path, needs) in wanted {
        if let Ok(mode) = mode(&path) {
            if mode & needs.others_bit() == 0 {
                return Err(LaunchError::ClosedToItsUser { path, mode, needs });
            }
        }
    }
    Ok(())
}

/// Who forks the bot, and so what its child of the fork has already.
enum Forker {
    /// The launcher: the bot's pipes are on its standard descriptors
    /// already, its session is its own (the bot gets one too), the layer
    /// hiding root's secrets, if `secrets`, is open on [`SECRETS_FD`], the
    /// bot's ruleset, if `ruleset`, on [`RULESET_FD`].
    Launcher { secrets: bool, ruleset: bool },
    /// The referee itself (`starts_directly`: a strict bot, or a basic bot
    /// that may not fork): the bot's three pipes, its Landlock rules (under
    /// basic made before the fork, [`prepared_ruleset`]), the layer hiding
    /// root's secrets if there is one (descriptors of the referee's), the
    /// namespaces a strict bot joins, and the referee.
    /// The child closes everything else of the referee's at exec, stays in
    /// the referee's session in a process group of its own, and dies with
    /// the referee.
    Referee {
        stdio: [OwnedFd; 3],
        rules: FileSystemRules,
        secrets: Option<RawFd>,
        namespaces: Option<Namespaces>,
        referee: Referee,
    },
}

/// The network and IPC namespaces a strict bot started by the referee
/// joins: the ones strict bots share (descriptors of the referee's, see
/// `sandbox::SharedNamespaces`), or, where there are none, new ones of its
/// own. Its PID namespace is new, made by its fork (see
/// `start::start_directly`). A basic bot has none (it stays in the
/// referee's).
#[derive(Clone, Copy)]
pub(crate) struct Namespaces {
    pub(crate) network: Option<RawFd>,
    pub(crate) ipc: Option<RawFd>,
}

/// The referee a bot it starts itself dies with: its pid, and a pidfd of
/// it, which a bot in a PID namespace of its own (where the referee has no
/// pid) polls instead.
#[derive(Clone, Copy)]
pub(crate) struct Referee {
    pub(crate) pid: i32,
    pub(crate) pidfd: Option<RawFd>,
}

/// Where a bot's Landlock ruleset comes from.
#[derive(Clone, Copy)]
enum FileSystemRules {
    /// Made before the fork, open on this descriptor (`None`: the kernel
    /// has no Landlock).
    Prepared(Option<RawFd>),
    /// Made by the bot's child itself, from the spec: under strict, whose
    /// mounts are made after the fork, or where the kernel has no
    /// Landlock.
    MadeInTheChild,
}

/// Forks the bot, confines it step by step and execs it; its pid, or why
/// it could not start (the step that failed, or its program that cannot
/// be run).
///
/// Through `std::process::Command` with the confinement as `pre_exec`:
/// the child of a fork (never a child sharing the parent's memory), which
/// may allocate before exec because the C library's fork leaves its
/// allocator usable in the child, even of a multi-threaded referee; it
/// takes no other lock of the parent's (no standard stream, no
/// environment).
fn start_bot(
    spec: &LaunchSpec,
    exposures: Vec<Exposure>,
    forker: Forker,
) -> Result<i32, LaunchError> {
    // Under exposures, the program is run by its real path: a symlink to
    // it may lie in a folder the bot cannot see.
    let program = if exposures.is_empty() {
        spec.program.clone()
    } else {
        spec.program
            .canonicalize()
            .unwrap_or_else(|_| spec.program.clone())
    };
    // The step that failed, for the error message; the io::Error that std
    // passes back from the child carries only an errno.
    let (why_read, why_write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|e| StepError::new(Step::FailurePipe, e))?;
    let mut command = Command::new(&program);
    command
        .args(&spec.args)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&spec.workdir);
    let (rules, secrets, referee) = match forker {
        Forker::Launcher { secrets, ruleset } => (
            match ruleset {
                true => FileSystemRules::Prepared(Some(RULESET_FD)),
                false => FileSystemRules::MadeInTheChild,
            },
            secrets.then_some(SECRETS_FD),
            None,
        ),
        Forker::Referee {
            stdio: [stdin, stdout, stderr],
            rules,
            secrets,
            namespaces,
            referee,
        } => {
            command.stdin(stdin).stdout(stdout).stderr(stderr);
            (rules, secrets, Some((referee, namespaces)))
        }
    };
    let child_spec = spec.clone();
    // SAFETY: the child of a fork, single-threaded; it may allocate (see
    // above) and it returns to `Command`, which execs or exits.
    unsafe {
        command.pre_exec(move || {
            let confined = match referee {
                Some((referee, namespaces)) => {
                    leave_the_referee(Forked::Bot);
                    // Until its exec the child holds copies of the
                    // referee's descriptors (the lock by which a later
                    // referee judges this one gone among them): it dies
                    // with the referee from its first step, not only
                    // from its last (a change of user clears the signal,
                    // so `confine` sets it again).
                    rustix::process::set_parent_process_death_signal(Some(
                        rustix::process::Signal::KILL,
                    ))
                    .map_err(|e| StepError::new(Step::ParentDeathSignal, e))
                    .and_then(|()| dies_with(referee))
                    .and_then(|()| join_namespaces(namespaces))
                    .and_then(|()| confine(&child_spec, &exposures, rules, secrets, false))
                    .and_then(|()| dies_with(referee))
                }
                None => confine(
                    &child_spec,
                    &exposures,
                    rules,
                    secrets,
                    child_spec.strict.is_none(),
                ),
            };
            confined.map_err(|failed| {
                failed.send(&why_write);
                failed.error
            })
        });
    }
    let spawned = command.spawn();
    // The closure holds the pipe's writing end.
    drop(command);
    match spawned {
        // The std handle neither kills nor waits: the launcher reaps.
        Ok(child) => Ok(child.id() as i32),
        Err(e) => {
            let mut sent = Vec::new();
            let _ = File::from(why_read).read_to_end(&mut sent);
            if !sent.is_empty() {
                return match StepError::received(&sent, e) {
                    Some(failed) => Err(failed.into()),
                    None => Err(StepError::new(
                        Step::FailurePipe,
                        io::Error::other("an unreadable answer from the bot's child"),
                    )
                    .into()),
                };
            }
            Err(LaunchError::CannotRun {
                program,
                error: e,
                own_user: matches!(spec.identity, Some(Identity { uid: Some(_), .. })),
            })
        }
    }
}

/// The referee's own start of a bot (see `start_directly`): forked from
/// the referee, with its three pipes, confined and exec'd; its pid, or why
/// it could not start (as [`start_bot`]). A strict bot's Landlock rules
/// are made by its child, after its mounts (rules hold inodes, and its
/// `/tmp`, `/dev/shm` and `/proc` are new ones); a basic bot's before the
/// fork.
pub(super) fn start_from_the_referee(
    spec: &LaunchSpec,
    stdio: [OwnedFd; 3],
    secrets: Option<RawFd>,
    namespaces: Option<Namespaces>,
    referee: Referee,
) -> Result<i32, LaunchError> {
    let (ruleset, exposures) = match spec.strict {
        Some(_) => {
            closed_to_its_user(spec)?;
            (None, exposures_for(spec))
        }
        // Close-on-exec, and closed here once the bot's exec is done.
        None => (prepared_ruleset(spec, secrets.is_none())?, Vec::new()),
    };
    find_signals_not_at_default();
    let rules = match spec.strict {
        Some(_) => FileSystemRules::MadeInTheChild,
        None => FileSystemRules::Prepared(ruleset.as_ref().map(std::os::fd::AsRawFd::as_raw_fd)),
    };
    start_bot(
        spec,
        exposures,
        Forker::Referee {
            stdio,
            rules,
            secrets,
            namespaces,
            referee,
        },
    )
}

/// In a strict bot's child, first: the network and IPC namespaces it
/// shares with the other strict bots, or new ones of its own (see
/// [`Namespaces`]); nothing for a basic bot (`None`).
fn join_namespaces(namespaces: Option<Namespaces>) -> Result<(), StepError> {
    let Some(namespaces) = namespaces else {
        return Ok(());
    };
    let mut own = 0;
    let shared = [
        (
            namespaces.network,
            libc::CLONE_NEWNET,
            rustix::thread::LinkNameSpaceType::Network,
        ),
        (
            namespaces.ipc,
            libc::CLONE_NEWIPC,
            rustix::thread::LinkNameSpaceType::InterProcessCommunication,
        ),
    ];
    for (fd, flag, kind) in shared {
        match fd {
            Some(fd) => rustix::thread::move_into_link_name_space(kept_open(fd), Some(kind))
                .map_err(|e| StepError::new(Step::Namespaces, e))?,
            None => own |= flag,
        }
    }
    if own != 0 {
        sandbox::unshare_namespaces(own).map_err(|e| StepError::new(Step::Namespaces, e))?;
    }
    Ok(())
}

/// Waits for the bot, reaping any orphan that is handed to the launcher
/// meanwhile. Returns the bot's wait status and resource usage.
fn wait_for(bot: i32, workdir: &Path) -> (libc::c_int, libc::rusage) {
    loop {
        if referee_gone() {
            // Nobody is left to judge the bot: end its tree, remove what
            // it wrote, and go.
            if let Some(bot) = rustix::process::Pid::from_raw(bot) {
                let _ = rustix::process::kill_process_group(bot, rustix::process::Signal::KILL);
                let _ = rustix::process::kill_process(bot, rustix::process::Signal::KILL);
            }
            end_descendants();
            remove_workdir(workdir);
            std::process::exit(1);
        }
        let (r, status, usage) = wait4(-1, 0);
        if r == bot {
            return (status, usage);
        }

        if r == -1 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            // No child at all: cannot happen while the bot is one. The
            // usage is still all zero.
            return (0, usage);
        }
    }
}

/// `wait4(2)` for `pid` (-1: any child) with `options`: the pid it reaped
/// (0: none yet, with `WNOHANG`; -1: an error, which errno says), the
/// child's wait status and its resource usage (all zero unless reaped).
pub(super) fn wait4(pid: i32, options: i32) -> (i32, libc::c_int, libc::rusage) {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data (zeroed is a valid value), which wait4
    // fills in; valid pointers to locals.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let r = libc::wait4(pid, &mut status, options, &mut usage);
        (r, status, usage)
    }
}

/// Removes the bot's working directory (its quota's file system first):
/// the referee that would have is gone (killed), and its bots were ended by
/// their launchers. The folder of working directories stays: the next
/// referee judges the dead one's cgroups by its free lock (a pid does not
/// tell in another PID namespace), then removes it.
fn remove_workdir(workdir: &Path) {
    let _ = rustix::mount::unmount(
        workdir,
        rustix::mount::UnmountFlags::DETACH | rustix::mount::UnmountFlags::NOFOLLOW,
    );
    let _ = std::fs::remove_dir_all(workdir);
}

/// Kills every descendant of the launcher (the bot is gone; these are what
/// it left: its group, and orphans handed to the launcher as subreaper),
/// until none is left or [`CLEANUP_TIME`] is up.
fn end_descendants() {
    let me = std::process::id() as i32;
    let deadline = Instant::now() + CLEANUP_TIME;
    loop {
        let found = descendants(me);
        if found.is_empty() || Instant::now() >= deadline {
            break;
        }
        let pids: Vec<rustix::process::Pid> = found
            .iter()
            .filter_map(|&pid| rustix::process::Pid::from_raw(pid))
            .collect();
        // Stopped first, so that none forks while the others are killed.
        for &pid in &pids {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::STOP);
        }
        for &pid in &pids {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
        reap_children(Duration::from_millis(5));
    }
    // What is dead but not yet reaped, reaped now (bounded).
    reap_children(Duration::from_millis(100));
}

/// Reaps children until none is left or `time` has passed.
fn reap_children(time: Duration) {
    let until = Instant::now() + time;
    loop {
        match rustix::process::wait(rustix::process::WaitOptions::NOHANG) {
            Ok(Some(_)) => continue,
            Err(_) => return,
            Ok(None) if Instant::now() >= until => return,
            Ok(None) => {}
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Every descendant of `root` (children listed by the kernel per thread).
fn descendants(root: i32) -> Vec<i32> {
    let mut out: Vec<i32> = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
                continue;
            };
            for child in text
                .split_whitespace()
                .filter_map(|c| c.parse::<i32>().ok())
            {
                if !out.contains(&child) {
                    out.push(child);
                    queue.push(child);
                }
            }
        }
    }
    out
}

/// `path` for a system call of `step`.
fn cstring(step: Step, path: &Path) -> Result<CString, StepError> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| {
        StepError::at(
            step,
            path,
            io::Error::new(io::ErrorKind::InvalidInput, "the path holds a NUL byte"),
        )
    })
}

/// Puts the calling process (a bot, or a strict bot's launcher) out of the
/// terminal's reach, in a process group of its own, which the referee
/// ends:
/// - `own_session`: in a session of its own too (a basic bot that may fork,
///   and its launcher: what it leaves behind is found by session);
/// - otherwise in the referee's session. Where the kernel groups a
///   session's tasks for scheduling (autogroup), a session per bot put
///   every hand-over between referee and bot across two scheduling groups,
///   1 µs of a 14 µs exchange (docs/measurements.md). A bot that may not
///   fork leaves nothing behind, a strict bot's cgroup finds all it does.
///   The referee's controlling terminal, if it has one, is given up: it is
///   a way out of the sandbox (`TIOCSTI` types into it). Without one, and
///   not leading a session, a process can never get one: `/dev/tty` fails
///   to open.
///
pub(super) fn leave_the_terminal(own_session: bool) -> Result<(), StepError> {
    if own_session {
        return rustix::process::setsid()
            .map(drop)
            .map_err(|e| StepError::new(Step::OwnSession, e));
    }
    rustix::process::setpgid(None, None).map_err(|e| StepError::new(Step::OwnProcessGroup, e))?;
    // SAFETY: open, ioctl and close on a descriptor of this process's own,
    // with a static path.
    unsafe {
        let tty = libc::open(
            c"/dev/tty".as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        if tty < 0 {
            // ENXIO: no controlling terminal; anything else (no /dev/tty
            // in a container): none to give up either.
            return Ok(());
        }
        let given_up = if libc::ioctl(tty, libc::TIOCNOTTY) == 0 {
            Ok(())
        } else {
            Err(StepError::last(Step::LeavingTheTerminal))
        };
        libc::close(tty);
        given_up
    }
}

/// Last before exec: the parent-death signal (set by [`confine`]) counts
/// only if the referee was still there when it was set. A bot in a PID
/// namespace of its own sees no parent (`getppid` is 0, before and after
/// the referee's death): it asks the referee's pidfd, readable once the
/// referee has exited.
fn dies_with(referee: Referee) -> Result<(), StepError> {
    let alive = match rustix::process::getppid() {
        Some(parent) => parent.as_raw_nonzero().get() == referee.pid,
        None => referee.pidfd.is_some_and(|fd| {
            let pidfd = kept_open(fd);
            let mut polled = [rustix::event::PollFd::new(
                &pidfd,
                rustix::event::PollFlags::IN,
            )];
            rustix::event::poll(&mut polled, Some(&rustix::event::Timespec::default()))
                .is_ok_and(|ready| ready == 0)
        }),
    };
    if !alive {
        return Err(StepError::new(
            Step::ParentDeathSignal,
            io::Error::other("the referee is gone"),
        ));
    }
    Ok(())
}

/// A descriptor the bot's starter holds for it until the exec: the
/// ruleset made before the fork (kept by the referee until the bot's exec,
/// see `start_from_the_referee`, or on [`RULESET_FD`] by a launcher for as
/// long as it runs, see `start_launcher`) and the layer hiding root's
/// secrets (kept open by the referee for as long as it runs, or on 4 by a
/// launcher).
fn kept_open(fd: RawFd) -> std::os::fd::BorrowedFd<'static> {
    // SAFETY: as said above, `fd` stays open for the rest of the calling
    // child's life before its exec, and nothing closes it meanwhile.
    unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) }
}

/// In the bot's process, between fork and exec (single-threaded): every
/// confinement step, in an order where each still has the privilege it
/// needs. `rules`: its Landlock ruleset's source. `secrets`: the
/// descriptor of the layer hiding root's secrets (else the bot's own
/// ruleset hides them). `own_session`: see [`leave_the_terminal`].
fn confine(
    spec: &LaunchSpec,
    exposures: &[Exposure],
    rules: FileSystemRules,
    secrets: Option<RawFd>,
    own_session: bool,
) -> Result<(), StepError> {
    // First into the cgroups, so that everything it starts is in.
    for file in &spec.cgroup_procs {
        std::fs::write(file, b"0").map_err(|e| StepError::at(Step::JoiningItsCgroup, file, e))?;
    }
    if let Some(strict) = &spec.strict {
        enter_mount_namespace(spec, strict, exposures)?;
    }
    leave_the_terminal(own_session)?;
    set_rlimits(spec)?;
    if let Some(identity) = &spec.identity {
        become_unprivileged(spec, identity)?;
    }
    // Before seccomp, which would refuse Landlock's own system calls no
    // more than any other, but after the user switch, so that the domain
    // is made by the bot's own credentials (a ruleset made before the
    // fork is only a list of rules: the domain is made here, when the
    // bot enforces it).
    match rules {
        FileSystemRules::MadeInTheChild => {
            landlock::confine(&landlock_policy(spec, secrets.is_none())).map_err(|e| {
                StepError::new(
                    Step::FileSystemConfinement,
                    io::Error::other(crate::text::with_causes(&e)),
                )
            })?;
        }
        FileSystemRules::Prepared(ruleset) => {
            // Landlock asks it of a process without CAP_SYS_ADMIN (set even
            // without Landlock, as `landlock::confine` does).
            rustix::thread::set_no_new_privs(true)
                .map_err(|e| StepError::new(Step::FileSystemConfinement, e))?;
            if let Some(ruleset) = ruleset {
                let ruleset = kept_open(ruleset);
                // Its own `/proc` folder is known only here (one that
                // cannot be granted leaves it that folder unread, no more).
                if spec.strict.is_none() {
                    landlock::grant_own_proc(&ruleset);
                }
                if !landlock::restrict_self_with(&ruleset) {
                    return Err(StepError::last(Step::FileSystemConfinement));
                }
            }
        }
    }
    if let Some(secrets) = secrets {
        let layer = kept_open(secrets);
        if !landlock::restrict_self_with(&layer) {
            return Err(StepError::last(Step::FileSystemConfinement));
        }
    }
    let mut seccomp = sandbox::SeccompProgram::cached(spec.seccomp_policy())
        .map_err(|e| StepError::new(Step::SeccompFilter, io::Error::other(e)))?;
    limit_address_space(spec)?;
    if !seccomp.install() {
        return Err(StepError::last(Step::SeccompFilter));
    }
    // After any change of user, which clears it: if the launcher dies
    // (even by SIGKILL), so does the bot.
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))
        .map_err(|e| StepError::new(Step::ParentDeathSignal, e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_line_round_trips() {
        for exit in [super::super::Exit::Code(3), super::super::Exit::Signal(9)] {
            let ended = Ended {
                exit,
                cpu: Duration::from_micros(1234),
                max_rss_kb: 5678,
            };
            assert_eq!(Ended::parse(ended.line().trim_end()), Some(ended));
        }
        assert_eq!(Ended::parse("exit code x 1 2 3"), None);
        assert_eq!(Ended::parse("started 12"), None);
    }

    /// A folder of one-file bots (`mine.sh` and another team's), a
    /// results folder, and a folder of working directories (`work/one`,
    /// `work/two`), each with a file.
    struct Bots {
        _dir: tempfile::TempDir,
        root: PathBuf,
        /// One context for every spec: where the plans are kept.
        footprint: crate::Footprint,
    }

    impl Bots {
        fn new() -> Bots {
            // As the referee does before its first start of a bot.
            landlock::share_anchors(SYSTEM_READABLE);
            let dir = tempfile::tempdir().expect("tempdir");
            let root = dir.path().canonicalize().expect("real path");
            for folder in ["bots", "results", "work/one", "work/two"] {
                std::fs::create_dir_all(root.join(folder)).expect("mkdir");
            }
            for file in [
                "bots/mine.sh",
                "bots/other.sh",
                "work/one/file",
                "work/two/file",
            ] {
                std::fs::write(root.join(file), b"exit 0\n").expect("write");
            }
            Bots {
                _dir: dir,
                root,
                footprint: crate::Footprint::default(),
            }
        }

        /// The spec of `mine.sh` (run by `sh`) in the working directory
        /// `work/WORKDIR`, the other team's file and the results hidden.
        fn spec(&self, workdir: &str) -> LaunchSpec {
            LaunchSpec {
                program: "/bin/sh".into(),
                args: vec![self.root.join("bots/mine.sh").into()],
                env: Vec::new(),
                workdir: self.root.join("work").join(workdir),
                readable: Vec::new(),
                address_space: u64::MAX,
                file_size: u64::MAX,
                open_files: sandbox::OPEN_FILES_LIMIT,
                allow_fork: false,
                compiler: false,
                hidden: vec![
                    self.root.join("bots/other.sh"),
                    self.root.join("results"),
                    self.root.join("bots/later"),
                ],
                identity: None,
                cgroup_procs: Vec::new(),
                strict: None,
                footprint: self.footprint.clone(),
            }
        }
    }

    /// The rules a ruleset made before the fork has for `spec`.
    fn prepared_rules(spec: &LaunchSpec) -> Vec<(PathBuf, u64)> {
        CommandRules::of(spec, true)
            .expect("plan")
            .rules
            .listed_with(&writable_paths(spec))
            .expect("rules")
    }

    #[test]
    fn a_ruleset_made_before_the_fork_grants_what_the_bots_own_did() {
        let bots = Bots::new();
        let spec = bots.spec("one");
        let own = landlock::listed_rules(&landlock_policy(&spec, true)).expect("rules");
        assert_eq!(prepared_rules(&spec), own);
        // Not an empty comparison: the walk of the bots' folder is in it.
        let paths: Vec<&PathBuf> = own.iter().map(|(path, _)| path).collect();
        assert!(
            paths.contains(&&bots.root.join("bots/mine.sh")),
            "{paths:?}"
        );
        assert!(paths.contains(&&bots.root.join("work/one")), "{paths:?}");
        assert!(!paths
            .iter()
            .any(|p| p.ends_with("other.sh") || p.ends_with("results")));
    }

    #[test]
    fn a_second_bot_of_a_command_gets_its_own_working_directory_not_the_first_ones() {
        let bots = Bots::new();
        let (one, two) = (bots.spec("one"), bots.spec("two"));
        let first = CommandRules::of(&one, true).expect("plan");
        let second = CommandRules::of(&two, true).expect("plan");
        assert!(std::sync::Arc::ptr_eq(&first, &second), "planned once");
        let rules = prepared_rules(&two);
        assert_eq!(
            rules,
            landlock::listed_rules(&landlock_policy(&two, true)).expect("rules")
        );
        assert!(rules
            .iter()
            .any(|(path, _)| *path == bots.root.join("work/two")));
        assert!(!rules
            .iter()
            .any(|(path, _)| path.starts_with(bots.root.join("work/one"))));
        // Enforced: the second bot writes in its own folder, and neither
        // reads nor writes the first's.
        let run = |script: &str| confined(&two, &bots.root, script);
        // Its own `/proc` folder too (read by `sh` itself, not a child).
        assert!(run(
            "echo x > work/two/made && cat work/two/file && read line < /proc/self/status"
        ));
        assert!(!run("read line < /proc/1/environ"));
        assert!(!run("cat work/one/file"));
        assert!(!run("echo x > work/one/made"));
        assert!(!run("cat bots/other.sh"));
        assert!(run("cat bots/mine.sh"));
    }

    /// Whether `sh -c script`, run in `root` under the ruleset made before
    /// the fork for `spec`, succeeds.
    fn confined(spec: &LaunchSpec, root: &Path, script: &str) -> bool {
        use std::os::fd::AsFd;
        let ruleset = prepared_ruleset(spec, true)
            .expect("ruleset")
            .expect("this kernel has Landlock");
        let mut command = Command::new("/bin/sh");
        command.args(["-c", script]).current_dir(root);
        // SAFETY: system calls only, between fork and exec.
        unsafe {
            command.pre_exec(move || {
                rustix::thread::set_no_new_privs(true)?;
                landlock::grant_own_proc(&ruleset.as_fd());
                if landlock::restrict_self_with(&ruleset) {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                }
            });
        }
        command.status().expect("sh").success()
    }

    /// A bot's folder replaced by a new copy of it while the referee runs
    /// (renamed over the old one): the next bot of the command reads the
    /// new folder's files, as the rules are planned anew, not those of the
    /// folder that is gone.
    #[test]
    fn a_bots_folder_replaced_after_the_plan_is_planned_anew() {
        let bots = Bots::new();
        let spec = bots.spec("one");
        let first = CommandRules::of(&spec, true).expect("plan");
        assert!(confined(&spec, &bots.root, "cat bots/mine.sh"));
        let fresh = bots.root.join("fresh");
        std::fs::create_dir(&fresh).expect("mkdir");
        std::fs::write(fresh.join("mine.sh"), b"exit 1\n").expect("write");
        std::fs::rename(bots.root.join("bots"), bots.root.join("gone")).expect("rename");
        std::fs::rename(&fresh, bots.root.join("bots")).expect("rename");
        let second = CommandRules::of(&spec, true).expect("plan");
        assert!(!std::sync::Arc::ptr_eq(&first, &second), "planned anew");
        assert!(confined(&spec, &bots.root, "cat bots/mine.sh"));
        // Planned once again only when something changed.
        let third = CommandRules::of(&spec, true).expect("plan");
        assert!(std::sync::Arc::ptr_eq(&second, &third), "kept");
    }

    /// A hidden path that did not exist when the command's rules were
    /// planned is hidden once it does: the plan is made anew.
    #[test]
    fn a_hidden_path_made_after_the_plan_is_hidden() {
        let bots = Bots::new();
        let spec = bots.spec("one");
        let first = CommandRules::of(&spec, true).expect("plan");
        std::fs::write(bots.root.join("bots/later"), b"x").expect("write");
        let second = CommandRules::of(&spec, true).expect("plan");
        assert!(!std::sync::Arc::ptr_eq(&first, &second), "planned anew");
        let rules = prepared_rules(&spec);
        assert!(
            !rules.iter().any(|(path, _)| path.ends_with("later")),
            "{rules:?}"
        );
        assert_eq!(
            rules,
            landlock::listed_rules(&landlock_policy(&spec, true)).expect("rules")
        );
    }
}
