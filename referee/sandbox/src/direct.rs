//! Starting a bot without the launcher: the referee clones the bot itself
//! and confines the child between clone and exec with system calls only.
//!
//! Used under `basic` for a bot that may not fork (the default), where the
//! launcher's reasons to exist ([`super::launch`]) fall away or are met
//! otherwise:
//! - Everything that allocates or reads files is done before the clone, in
//!   the referee: the bot's Landlock ruleset
//!   ([`super::landlock::prepare`]), the layer hiding root's secrets, built
//!   once for every bot ([`super::landlock::prepare_all_but`]), the seccomp
//!   program, built once with a stand-in pid
//!   ([`super::sandbox::SeccompProgram`]), and the program's arguments and
//!   environment. The child only makes system calls.
//! - The child shares the referee's memory until its exec (`CLONE_VM |
//!   CLONE_VFORK`, as `posix_spawn` does): no copy of the referee's page
//!   tables, no copy-on-write faults after. The calling thread waits for
//!   the exec; every signal is blocked across the clone and the child sets
//!   every handled one back to its default before it unblocks them, so no
//!   handler of the referee's runs on the shared memory.
//! - A bot that cannot fork has no tree to keep: ending its process group
//!   ends it, and the parent-death signal (SIGKILL) ends it with the
//!   referee.
//! - Its peak memory: `ru_maxrss` after exec keeps the peak of the image the
//!   bot was cloned from, the referee's, as it was at the exec, which other
//!   workers' threads may have raised since the clone began. So the figure
//!   counts only above the referee's own peak when the bot is reaped, which
//!   is at least that (`Keeper::Referee`); below it, the bot's peak is the
//!   one measured while it ran (`VmHWM`, polled, and read once more when
//!   the game ends), and its address-space limit holds either way. (Taken
//!   at the clone instead, a bot of 1.5 MiB was once reported at 12 MiB
//!   with `--jobs 2`.)
//!
//! It saves the launcher's fork and its process per bot: most of a game's
//! start between quick bots (docs/measurements.md).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::OnceLock;

use rustix::process::{Pid, PidfdFlags};

use super::launch::{self, LaunchSpec};
use super::{landlock, sandbox, Keeper, Started};

/// The Landlock layer that hides root's secrets from a bot that keeps uid
/// 0, built once for every bot (`None`: not root, or no Landlock).
pub(super) fn secrets_layer() -> io::Result<Option<&'static OwnedFd>> {
    static LAYER: OnceLock<Result<Option<OwnedFd>, String>> = OnceLock::new();
    let layer = LAYER.get_or_init(|| {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Ok(None);
        }
        let secrets: Vec<PathBuf> = launch::ROOTS_SECRETS.iter().map(PathBuf::from).collect();
        landlock::prepare_all_but(&secrets).map_err(|e| crate::text::with_causes(&e))
    });
    match layer {
        Ok(fd) => Ok(fd.as_ref()),
        Err(e) => Err(io::Error::other(format!("hiding root's files: {e}"))),
    }
}

/// Starts the bot of `spec` (`allow_fork` off, no `strict`): a child that
/// shares the calling thread's memory until its exec (`CLONE_VM |
/// CLONE_VFORK`, as `posix_spawn` does), confined, exec'd. The error of a
/// program that cannot be run is the bot's own
/// ([`super::is_bots_fault`]).
pub(super) fn start(spec: &LaunchSpec) -> io::Result<Started> {
    debug_assert!(suits(spec));
    let secrets = secrets_layer()?.map(AsRawFd::as_raw_fd);
    let policy = launch::landlock_policy(spec, false);
    let ruleset = landlock::prepare(&policy).map_err(|e| {
        io::Error::other(format!(
            "file-system confinement: {}",
            crate::text::with_causes(&e)
        ))
    })?;
    use rustix::pipe::{pipe_with, PipeFlags};
    // Non-blocking: read once the clone returns, never waited on (see below).
    let (why_read, why_write) = pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?;
    let (stdin_read, stdin_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stdout_read, stdout_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stderr_read, stderr_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let exec = Exec::new(spec)?;
    let mut child = Child {
        steps: ChildSteps {
            spec: spec.clone(),
            // SAFETY: getpid has no preconditions.
            referee: unsafe { libc::getpid() },
        },
        secrets,
        ruleset: ruleset.as_ref().map(AsRawFd::as_raw_fd),
        seccomp: sandbox::SeccompProgram::cached(spec.seccomp_policy())
            .map_err(io::Error::other)?,
        stdio: [&stdin_read, &stdout_write, &stderr_write].map(AsRawFd::as_raw_fd),
        why: why_write.as_raw_fd(),
        exec,
    };
    let spawned = child.spawn();
    // The child's ends, the reporting pipe's writing end and the rulesets
    // were needed until its exec only.
    drop((stdin_read, stdout_write, stderr_write, why_write, ruleset));
    let pid = spawned?;
    // The clone returns once the child has exec'd or exited, and a child
    // that failed wrote why before it exited: what the pipe holds now is
    // all there will be. Reading to its end would wait for the close at
    // exec of every copy of the writing end, and a child another worker
    // cloned meanwhile holds one until its own exec: a wait on another
    // CPU's work (docs/measurements.md, `--jobs 2`).
    let mut why = [0u8; 128];
    let read = loop {
        match rustix::io::read(&why_read, &mut why) {
            Err(rustix::io::Errno::INTR) => continue,
            Ok(n) => break n,
            // EAGAIN: nothing written, it exec'd.
            Err(_) => break 0,
        }
    };
    if let Some((errno, step)) = child_failure(&why[..read]) {
        let e = io::Error::from_raw_os_error(errno);
        let _ = super::reap_with_usage(pid);
        return Err(match step {
            "" => super::start_error(&launch::cannot_run(&e, spec, &spec.program)),
            step => io::Error::other(format!("{step}: {e}")),
        });
    }
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
        keeper: Keeper::Referee,
        pidfd,
        stdin: stdin_write,
        stdout: stdout_read,
        stderr: stderr_read,
    })
}

/// What `execve` needs, made before the clone: the child may not allocate.
struct Exec {
    program: CString,
    _strings: Vec<CString>,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
    workdir: CString,
}

impl Exec {
    fn new(spec: &LaunchSpec) -> io::Result<Exec> {
        let nul = |_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "a NUL byte in the bot's command",
            )
        };
        let c = |bytes: &[u8]| CString::new(bytes).map_err(nul);
        let program = c(spec.program.as_os_str().as_bytes())?;
        let mut args = vec![program.clone()];
        for arg in &spec.args {
            args.push(c(arg.as_bytes())?);
        }
        let mut env = Vec::new();
        for (key, value) in &spec.env {
            env.push(c(&[key.as_bytes(), b"=", value.as_bytes()].concat())?);
        }
        let pointers = |list: &[CString]| -> Vec<*const libc::c_char> {
            list.iter()
                .map(|s| s.as_ptr())
                .chain([std::ptr::null()])
                .collect()
        };
        let (argv, envp) = (pointers(&args), pointers(&env));
        Ok(Exec {
            program,
            _strings: args.into_iter().chain(env).collect(),
            argv,
            envp,
            workdir: c(spec.workdir.as_os_str().as_bytes())?,
        })
    }
}

/// Everything the child uses, in the parent's memory (which it shares).
struct Child {
    steps: ChildSteps,
    secrets: Option<i32>,
    ruleset: Option<i32>,
    seccomp: sandbox::SeccompProgram,
    stdio: [i32; 3],
    why: i32,
    exec: Exec,
}

/// Why the child did not exec, from what it wrote on the `why` pipe: its
/// errno (4 bytes, native order), then the step that failed (empty: the
/// exec itself). `None`: it wrote nothing, it exec'd.
fn child_failure(bytes: &[u8]) -> Option<(i32, &str)> {
    let errno = i32::from_ne_bytes(bytes.get(..4)?.try_into().ok()?);
    Some((errno, std::str::from_utf8(&bytes[4..]).unwrap_or("")))
}

/// The child's stack (it shares the parent's memory, not its stack).
const CHILD_STACK: usize = 256 * 1024;

/// A stack for the child, with an inaccessible page below it: a child that
/// overran it would otherwise write over the referee's memory, which it
/// shares.
struct ChildStack {
    base: *mut libc::c_void,
    len: usize,
}

impl ChildStack {
    const GUARD: usize = 4096;

    fn new() -> io::Result<ChildStack> {
        let len = CHILD_STACK + Self::GUARD;
        // SAFETY: a fresh private anonymous mapping, then its lowest page
        // made inaccessible; both are checked.
        unsafe {
            let base = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return Err(io::Error::last_os_error());
            }
            let stack = ChildStack { base, len };
            if libc::mprotect(base, Self::GUARD, libc::PROT_NONE) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(stack)
        }
    }

    /// Where the stack starts (it grows down), 16-byte aligned.
    fn top(&self) -> usize {
        (self.base as usize + self.len) & !15
    }
}

impl Drop for ChildStack {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, no longer used (its thread is
        // ending, and its last child has exec'd or exited).
        unsafe {
            libc::munmap(self.base, self.len);
        }
    }
}

impl Child {
    /// Clones the child; returns once it has exec'd or given up (its
    /// failure is then on the `why` pipe).
    fn spawn(&mut self) -> io::Result<Pid> {
        thread_local! {
            /// This thread's child stack, made at its first start and kept:
            /// unmapping one after each start made the kernel flush the
            /// TLB of every CPU running a referee thread, an interrupt to
            /// the other worker's CPU per bot under `--jobs 2`
            /// (docs/measurements.md). A thread starts one child at a time
            /// and, with `CLONE_VFORK`, only once the last has exec'd or
            /// exited, so the stack is free again whenever it is here.
            static STACK: std::cell::OnceCell<ChildStack> = const { std::cell::OnceCell::new() };
        }
        let top = STACK.with(|stack| match stack.get() {
            Some(stack) => Ok(stack.top()),
            None => ChildStack::new().map(|made| stack.get_or_init(|| made).top()),
        })?;
        // No handler of the referee's may run in the child (on the shared
        // memory): every signal is blocked across the clone; the child
        // sets each handled one back to its default before unblocking.
        // SAFETY: a zeroed sigset_t is valid (filled below).
        let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        unsafe {
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        }
        // SAFETY: `child_main` runs on its own stack with `self`, which
        // outlives it (CLONE_VFORK: this thread waits for its exec or exit),
        // and only makes system calls.
        let pid = unsafe {
            libc::clone(
                child_main,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (self as *mut Child).cast(),
            )
        };
        let cloned = io::Error::last_os_error();
        // SAFETY: restores this thread's own mask.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
        if pid <= 0 {
            return Err(cloned);
        }
        Ok(Pid::from_raw(pid).expect("a child's pid is positive"))
    }

    /// In the child: system calls only, then exec. Returns only on failure.
    fn run(&mut self) -> (i32, &'static str) {
        let errno = || {
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO)
        };
        // SAFETY: system calls on the child's own descriptors, signal
        // dispositions and mask, with pointers to locals or to the
        // prepared strings.
        unsafe {
            for signal in 1..libc::SIGRTMAX() {
                let mut action: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut action) == 0
                    && action.sa_sigaction != libc::SIG_IGN
                    && action.sa_sigaction != libc::SIG_DFL
                {
                    libc::signal(signal, libc::SIG_DFL);
                }
            }
            // Rust ignores SIGPIPE; a program starts with the default.
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            for (target, &fd) in self.stdio.iter().enumerate() {
                if libc::dup2(fd, target as i32) < 0 {
                    return (errno(), "standard descriptors");
                }
            }
            if libc::chdir(self.exec.workdir.as_ptr()) != 0 {
                return (errno(), "working directory");
            }
        }
        if let Err((step, e)) = self
            .steps
            .run(self.secrets, self.ruleset, &mut self.seccomp)
        {
            return (e.raw_os_error().unwrap_or(libc::EIO), step);
        }
        // SAFETY: NUL-terminated strings and null-terminated arrays of
        // them, alive in the parent's memory.
        unsafe {
            libc::execve(
                self.exec.program.as_ptr(),
                self.exec.argv.as_ptr(),
                self.exec.envp.as_ptr(),
            );
        }
        (errno(), "")
    }
}

extern "C" fn child_main(child: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the pointer `Child::spawn` passed, to a Child that outlives
    // this call.
    let child = unsafe { &mut *child.cast::<Child>() };
    let (errno, step) = child.run();
    let mut message = [0u8; 128];
    message[..4].copy_from_slice(&errno.to_ne_bytes());
    let len = step.len().min(message.len() - 4);
    message[4..4 + len].copy_from_slice(&step.as_bytes()[..len]);
    // SAFETY: a write from a local buffer, then the end of the child
    // (without the referee's exit handlers).
    unsafe {
        libc::write(child.why, message.as_ptr().cast(), 4 + len);
        libc::_exit(127)
    }
}

/// What the child does between clone and exec, in the launcher's order
/// (`launch::confine`) for a bot under basic that may not fork.
struct ChildSteps {
    spec: LaunchSpec,
    /// The referee's pid, to notice a referee that died before the child
    /// asked to die with it.
    referee: libc::pid_t,
}

impl ChildSteps {
    /// Runs in the child: system calls only (the referee may have other
    /// threads, and it runs on their memory).
    fn run(
        &self,
        secrets: Option<i32>,
        ruleset: Option<i32>,
        seccomp: &mut sandbox::SeccompProgram,
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
        launch::leave_the_terminal(false)?;
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
        // The bot's own layer first: each layer makes a new domain holding
        // a copy of every rule of the one before, and the secrets layer
        // (as root) has some 200 rules, the bot's some 20. In this order
        // a bot's two domains hold about 240 rules in all rather than 420,
        // made by the bot and freed at its end by the kernel's workers
        // (docs/measurements.md, `--jobs 2`). Layers add up the same in
        // either order.
        if let Some(fd) = ruleset {
            // Its own folder of `/proc` (the ruleset, built in the
            // referee, grants none of the processes' folders): the child's,
            // now that it has its pid. A failure only keeps the bot from
            // reading its own entries.
            // SAFETY: as below.
            let _ = landlock::grant_own_proc(&unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) });
        }
        for fd in ruleset.iter().chain(&secrets) {
            // SAFETY: the descriptor was opened by the referee before the
            // clone and is still open here.
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
