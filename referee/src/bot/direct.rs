//! Starting a bot without the launcher: the referee forks the bot itself
//! and confines the child between fork and exec with system calls only.
//!
//! Used under `basic` for a bot that may not fork (the default), where the
//! launcher's reasons to exist ([`super::launch`]) fall away or are met
//! otherwise:
//! - Everything that allocates or reads files is done before the fork, in
//!   the referee: the bot's Landlock ruleset
//!   ([`super::landlock::prepare`]), the layer hiding root's secrets, built
//!   once for every bot ([`super::landlock::prepare_all_but`]), and the
//!   seccomp programs, built once with a stand-in pid
//!   ([`super::sandbox::SeccompPrograms`]). The child only makes system
//!   calls, so the fork of a multi-threaded referee is safe.
//! - A bot that cannot fork has no tree to keep: ending its process group
//!   ends it, and the parent-death signal (SIGKILL) ends it with the
//!   referee.
//! - Its peak memory: `ru_maxrss` after exec keeps the peak of the image the
//!   bot was forked from, the referee's, not the launcher's small one. So
//!   the figure counts only above the referee's own peak at the fork
//!   ([`Direct::inherited_rss_kb`]); below it, the bot's peak is the one
//!   measured while it ran (`VmHWM`, polled, and read once more when the
//!   game ends), and its address-space limit holds either way.
//!
//! It saves an exec of the referee's binary and a fork per bot: most of a
//! game's start between quick bots (docs/measurements.md).

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use rustix::process::{Pid, PidfdFlags};

use super::launch::{self, LaunchSpec};
use super::{landlock, sandbox, Keeper, Started};

/// The Landlock layer that hides root's secrets from a bot that keeps uid
/// 0, built once for every bot (`None`: not root, or no Landlock).
fn secrets_layer() -> io::Result<Option<&'static OwnedFd>> {
    static LAYER: OnceLock<Result<Option<OwnedFd>, String>> = OnceLock::new();
    let layer = LAYER.get_or_init(|| {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Ok(None);
        }
        let secrets: Vec<PathBuf> = launch::ROOTS_SECRETS.iter().map(PathBuf::from).collect();
        landlock::prepare_all_but(&secrets).map_err(|e| e.to_string())
    });
    match layer {
        Ok(fd) => Ok(fd.as_ref()),
        Err(e) => Err(io::Error::other(format!("hiding root's files: {e}"))),
    }
}

/// Starts the bot of `spec` (`allow_fork` off, no `strict`): forked from
/// the calling thread, confined, exec'd. The error of a program that
/// cannot be run is the bot's own ([`super::is_bots_fault`]).
pub(super) fn start(spec: &LaunchSpec) -> io::Result<Started> {
    debug_assert!(suits(spec));
    let secrets = secrets_layer()?.map(AsRawFd::as_raw_fd);
    let policy = launch::landlock_policy(spec, false);
    let ruleset = landlock::prepare(&policy)
        .map_err(|e| io::Error::other(format!("file-system confinement: {e}")))?;
    let mut seccomp = sandbox::SeccompPrograms::cached(false).map_err(io::Error::other)?;
    let (why_read, why_write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    let steps = ChildSteps {
        spec: spec.clone(),
        // SAFETY: getpid has no preconditions.
        referee: unsafe { libc::getpid() },
    };
    let ruleset_fd = ruleset.as_ref().map(AsRawFd::as_raw_fd);
    let mut command = Command::new(&spec.program);
    command
        .args(&spec.args)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&spec.workdir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure runs between fork and exec and makes system
    // calls only: no allocation, no lock (see ChildSteps::run).
    unsafe {
        command.pre_exec(move || {
            steps
                .run(secrets, ruleset_fd, &mut seccomp)
                .map_err(|(step, e)| {
                    let _ = rustix::io::write(&why_write, step.as_bytes());
                    e
                })
        });
    }
    let inherited_rss_kb = launch::own_peak_rss_kb();
    let spawned = command.spawn();
    // The closure holds the pipe's writing end, and the rulesets must
    // outlive the fork only.
    drop(command);
    drop(ruleset);
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            let mut step = String::new();
            let _ = File::from(why_read).read_to_string(&mut step);
            return Err(if step.is_empty() {
                super::start_error(&launch::cannot_run(&e, spec, &spec.program))
            } else {
                io::Error::other(format!("{step}: {e}"))
            });
        }
    };
    let pid = Pid::from_raw(child.id() as i32).expect("a child's pid is positive");
    let stdin = OwnedFd::from(child.stdin.take().expect("piped stdin"));
    let stdout = OwnedFd::from(child.stdout.take().expect("piped stdout"));
    let stderr = OwnedFd::from(child.stderr.take().expect("piped stderr"));
    // The std handle neither kills nor waits: the bot is reaped by wait4
    // (BotProcess::finish).
    drop(child);
    let pidfd = match rustix::process::pidfd_open(pid, PidfdFlags::empty()) {
        Ok(fd) => fd,
        Err(e) => {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            let _ = super::reap_with_usage(pid);
            return Err(e.into());
        }
    };
    Ok(Started {
        bot: pid,
        keeper: Keeper::Referee { inherited_rss_kb },
        pidfd,
        stdin,
        stdout,
        stderr,
    })
}

/// What the child does between fork and exec, in the launcher's order
/// (`launch::confine`) for a bot under basic that may not fork.
struct ChildSteps {
    spec: LaunchSpec,
    /// The referee's pid, to notice a referee that died before the child
    /// asked to die with it.
    referee: libc::pid_t,
}

impl ChildSteps {
    /// Runs in the child: system calls only (the referee may have other
    /// threads, whose locks a fork copies held).
    fn run(
        &self,
        secrets: Option<i32>,
        ruleset: Option<i32>,
        seccomp: &mut sandbox::SeccompPrograms,
    ) -> Result<(), launch::StepError> {
        // Descriptors the referee inherited without close-on-exec (from a
        // shell, a test harness) must not reach the bot.
        const CLOSE_RANGE_CLOEXEC: libc::c_uint = 4;
        // SAFETY: close_range with integer arguments.
        if unsafe {
            libc::syscall(
                libc::SYS_close_range,
                3 as libc::c_uint,
                libc::c_uint::MAX,
                CLOSE_RANGE_CLOEXEC,
            )
        } != 0
        {
            return Err(launch::last_error("closing inherited descriptors"));
        }
        // Its own session (so its own process group too): the terminal's
        // signals do not reach it, and the referee ends its group.
        rustix::process::setsid().map_err(|e| ("own session", io::Error::from(e)))?;
        launch::set_rlimits(&self.spec)?;
        launch::limit_address_space(&self.spec)?;
        if let Some(identity) = &self.spec.identity {
            // As root, basic keeps uid 0 without capabilities, in a group
            // of its own. Raw system calls: the C library's wrappers would
            // try to reach the referee's other threads.
            let gid = identity.gid as libc::c_long;
            // SAFETY: system calls with integer arguments (and a null list).
            let switched = unsafe {
                libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) == 0
                    && libc::syscall(libc::SYS_setresgid, gid, gid, gid) == 0
            };
            if !sandbox::drop_bounding_set() {
                return Err(launch::last_error("dropping capabilities"));
            }
            if !switched {
                return Err(launch::last_error("switching group"));
            }
            if !sandbox::clear_capabilities() {
                return Err(launch::last_error("dropping capabilities"));
            }
        }
        rustix::thread::set_no_new_privs(true)
            .map_err(|e| ("no new privileges", io::Error::from(e)))?;
        for fd in secrets.iter().chain(&ruleset) {
            // SAFETY: the descriptor was opened by the referee before the
            // fork and is still open here.
            let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(*fd) };
            if !landlock::restrict_self_with(&fd) {
                return Err(launch::last_error("file-system confinement"));
            }
        }
        if !seccomp.install() {
            return Err(launch::last_error("seccomp filter"));
        }
        // After any change of credentials, which clears it: the bot dies
        // with the thread that started it, and so with the referee.
        rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))
            .map_err(|e| ("parent-death signal", io::Error::from(e)))?;
        // SAFETY: getppid has no preconditions.
        if unsafe { libc::getppid() } != self.referee {
            return Err((
                "parent-death signal (the referee is gone)",
                io::Error::from_raw_os_error(libc::ESRCH),
            ));
        }
        Ok(())
    }
}

/// Whether a bot under these limits is started by the referee itself
/// rather than through the launcher.
pub fn suits(spec: &LaunchSpec) -> bool {
    // Only strict has cgroups to join.
    !spec.allow_fork && spec.strict.is_none()
}
