//! Starting a bot: the launcher's [`launch::LaunchSpec`] made from the
//! bot's command and limits, the fork of the launcher, and the launcher's
//! report of how the bot started and ended.

use super::*;

/// In a bot's arguments and environment, replaced by its memory cap in
/// MiB (limit plus allowance), for a runtime's own heap flag.
pub const MEMORY_PLACEHOLDER: &str = "{memory_mb}";
/// What [`MEMORY_PLACEHOLDER`] becomes when there is no memory limit.
pub(crate) const UNLIMITED_HEAP_MB: u64 = 32 * 1024;

/// What the launcher does for one bot: it has it in
/// its copy of the referee's memory, never in an argument list, which
/// every process may read.
pub(crate) fn launch_spec(
    command: &BotCommand,
    limits: &ProcessLimits,
    workdir: &std::path::Path,
    tag: &str,
    cgroup: Option<&sandbox::BotCgroup>,
) -> launch::LaunchSpec {
    let as_root = rustix::process::geteuid().is_root();
    let strict = match &limits.sandbox {
        Sandbox::Strict(roots) => Some(launch::StrictSpec {
            read_only: roots.read_only.clone(),
        }),
        Sandbox::Basic => None,
    };
    // A runtime's own heap flag (`-Xmx{memory_mb}m`) follows the cap.
    let memory_mb = match limits.memory_cap_kb() {
        0 => UNLIMITED_HEAP_MB,
        kb => kb.div_ceil(1024),
    }
    .to_string();
    let fill = |word: &OsString| -> OsString {
        match word.to_str() {
            Some(text) if text.contains(MEMORY_PLACEHOLDER) => {
                text.replace(MEMORY_PLACEHOLDER, &memory_mb).into()
            }
            _ => word.clone(),
        }
    };
    let mut env = clean_environment(workdir);
    // The language's own, but never in place of the referee's tag.
    env.extend(
        command
            .env
            .iter()
            .filter(|(k, _)| k != sandbox::TAG_VARIABLE)
            .map(|(k, v)| (k.clone(), fill(v))),
    );
    env.push((sandbox::TAG_VARIABLE.into(), tag.into()));
    let id = sandbox::id_for(tag);
    launch::LaunchSpec {
        program: command.program.clone(),
        args: command.args.iter().map(fill).collect(),
        env,
        readable: command.readable.clone(),
        workdir: workdir.to_path_buf(),
        address_space: if limits.memory_cap_kb() == 0 {
            u64::MAX
        } else {
            (limits.memory_cap_kb() + limits.address_space_allowance_kb) * 1024
        },
        // A compiler's files are the toolchain's business.
        open_files: if limits.compiler {
            sandbox::OPEN_FILES_LIMIT
        } else {
            sandbox::open_files_for(limits.memory_cap_kb())
        },
        allow_fork: limits.allow_fork,
        compiler: limits.compiler,
        file_size: match limits.disk_kb {
            0 => sandbox::FILE_SIZE_LIMIT,
            kb => kb
                .saturating_mul(1024)
                .clamp(4096, sandbox::FILE_SIZE_LIMIT),
        },
        hidden: limits.hidden.clone(),
        identity: as_root.then_some(launch::Identity {
            uid: strict.is_some().then_some(id),
            gid: id,
        }),
        cgroup_procs: cgroup.map(|c| c.procs_files.clone()).unwrap_or_default(),
        strict,
        footprint: limits.footprint.clone(),
    }
}

/// The referee's part of a bot's environment, its home and temporary
/// folder `home` (its working folder): what every bot gets before its
/// language's variables (protocol.md, §2).
pub(crate) fn clean_environment(home: &std::path::Path) -> Vec<(OsString, OsString)> {
    vec![
        (
            "PATH".into(),
            std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/bin:/bin")),
        ),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONUNBUFFERED".into(), "1".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
    ]
}

/// The program, arguments and whole environment a bot of `command` is
/// exec'd with under `limits`, its working folder `workdir`: for a
/// measurement that starts the very same command line outside the referee
/// (the floor benchmark).
pub fn command_line(
    command: &BotCommand,
    limits: &ProcessLimits,
    workdir: &std::path::Path,
) -> (std::path::PathBuf, Vec<OsString>, Vec<(OsString, OsString)>) {
    let spec = launch_spec(command, limits, workdir, "", None);
    (spec.program, spec.args, spec.env)
}

/// A bot that runs: its pipes, its pid, its keeper, and the pidfd that
/// says when the keeper's child (the launcher, or the bot) has exited.
pub(crate) struct Started {
    pub(crate) bot: Pid,
    pub(crate) keeper: Keeper,
    pub(crate) pidfd: OwnedFd,
    pub(crate) stdin: OwnedFd,
    pub(crate) stdout: OwnedFd,
    pub(crate) stderr: OwnedFd,
}

/// The bot's parent, and so how its end is learnt.
pub(crate) enum Keeper {
    /// The launcher ([`launch`]): its exit tells the bot's, after
    /// everything the bot left behind was killed; its report pipe says how
    /// the bot ended.
    Launcher(Launcher),
    /// The referee itself ([`start_directly`]), which reaps the bot.
    Referee,
}

/// Starts the bot of `spec`: by the referee itself when it can
/// ([`starts_directly`]), else through a launcher.
pub(crate) fn start(spec: &launch::LaunchSpec) -> io::Result<Started> {
    if starts_directly(spec) {
        start_directly(spec)
    } else {
        start_launcher(spec)
    }
}

/// Does the referee start this bot itself, with no launcher between? Not
/// a compiler; under basic, a bot that may not fork (the default): it can
/// leave nothing behind (no process of its own but itself), so it needs
/// no keeper to sweep its tree; under strict, every bot: it is the first
/// process of a PID namespace of its own, whose every other process the
/// kernel kills when it exits, and its cgroup finds and kills them too.
/// The game's start saves a process (the launcher's fork of the referee,
/// then its own fork of the bot: two copies of the referee's page tables
/// where this makes one, and a process's exit).
pub(crate) fn starts_directly(spec: &launch::LaunchSpec) -> bool {
    !spec.compiler && (spec.strict.is_some() || !spec.allow_fork)
}

/// The referee's own start of a bot ([`starts_directly`]): a fork of the
/// calling thread, confined between fork and exec by the same steps as a
/// launcher's bot (`launch::confine`), in a process group of its own in
/// the referee's session (a session per bot is a scheduling group per bot,
/// docs/measurements.md), killed if the forking thread's process dies
/// (the parent-death signal). Returns once the exec succeeded or failed.
pub(crate) fn start_directly(spec: &launch::LaunchSpec) -> io::Result<Started> {
    use rustix::pipe::{pipe_with, PipeFlags};
    let (stdin_read, stdin_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stdout_read, stdout_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stderr_read, stderr_write) = pipe_with(PipeFlags::CLOEXEC)?;
    // Built (once) before the fork, so that no child builds them.
    sandbox::SeccompProgram::cached(spec.seccomp_policy()).map_err(io::Error::other)?;
    let stdio = [stdin_read, stdout_write, stderr_write];
    let referee = launch::Referee {
        pid: rustix::process::getpid().as_raw_nonzero().get(),
        pidfd: own_pidfd(),
    };
    let pid = match &spec.strict {
        None => {
            landlock::share_anchors(launch::SYSTEM_READABLE);
            let secrets = match &spec.identity {
                Some(_) => launch::secrets_layer()?.map(AsRawFd::as_raw_fd),
                None => None,
            };
            launch::start_from_the_referee(spec, stdio, secrets, None, referee)
        }
        Some(_) => {
            // Made (once) before the fork, for the child to join.
            let shared = sandbox::shared_namespaces();
            let namespaces = launch::Namespaces {
                network: shared.network(),
                ipc: shared.ipc(),
            };
            in_a_new_pid_namespace(|| {
                launch::start_from_the_referee(spec, stdio, None, Some(namespaces), referee)
            })?
        }
    }
    .map_err(launch_error)?;
    let bot = Pid::from_raw(pid).expect("a child's pid is positive");
    let pidfd = match rustix::process::pidfd_open(bot, PidfdFlags::empty()) {
        Ok(fd) => fd,
        Err(e) => {
            let _ = rustix::process::kill_process(bot, Signal::KILL);
            reap(bot);
            return Err(e.into());
        }
    };
    Ok(Started {
        bot,
        keeper: Keeper::Referee,
        pidfd,
        stdin: stdin_write,
        stdout: stdout_read,
        stderr: stderr_read,
    })
}

/// A pidfd of the referee's own process, made once, which a bot it starts
/// itself in a PID namespace of its own polls to learn whether the referee
/// is still there (see `launch::dies_with`); `None` on a kernel without
/// pidfds.
fn own_pidfd() -> Option<std::os::fd::RawFd> {
    static OWN: std::sync::OnceLock<Option<OwnedFd>> = std::sync::OnceLock::new();
    OWN.get_or_init(|| {
        rustix::process::pidfd_open(rustix::process::getpid(), PidfdFlags::empty()).ok()
    })
    .as_ref()
    .map(AsRawFd::as_raw_fd)
}

/// Runs `fork` (which forks one child) with the calling thread's children
/// going into a new PID namespace: the child is its first process (pid 1:
/// when it exits, the kernel kills every other process of it). The thread
/// is put back in the referee's own PID namespace for its children
/// afterwards, whatever `fork` did: a later child of this thread (another
/// bot, a compiler) must never land in this bot's namespace. A thread that
/// cannot be put back ends the referee: it could not start any process
/// safely again.
///
/// Per thread: the referee's other threads, starting other games, are not
/// affected. An `unshare` of the PID namespace is allowed to a thread of a
/// multi-threaded process (unlike a mount or user namespace's).
fn in_a_new_pid_namespace<T>(fork: impl FnOnce() -> T) -> io::Result<T> {
    static OWN: std::sync::OnceLock<Option<OwnedFd>> = std::sync::OnceLock::new();
    let own = OWN
        .get_or_init(|| {
            std::fs::File::open("/proc/self/ns/pid")
                .ok()
                .map(OwnedFd::from)
        })
        .as_ref()
        .ok_or_else(|| {
            io::Error::other("the referee cannot open its own PID namespace (/proc/self/ns/pid)")
        })?;
    struct PutBack<'a>(std::os::fd::BorrowedFd<'a>);
    impl Drop for PutBack<'_> {
        fn drop(&mut self) {
            if let Err(e) = rustix::thread::move_into_link_name_space(
                self.0,
                Some(rustix::thread::LinkNameSpaceType::ProcessID),
            ) {
                eprintln!(
                    "referee: cannot return to its own PID namespace after starting a bot ({e}); \
                     stopping, as no process can be started safely"
                );
                std::process::abort();
            }
        }
    }
    sandbox::unshare_namespaces(libc::CLONE_NEWPID)?;
    let _put_back = PutBack(own.as_fd());
    Ok(fork())
}

/// Reaps a bot the referee started itself ([`start_directly`]), once it
/// has exited or been sent SIGKILL: how it ended, its CPU time and
/// `ru_maxrss` (counted above the referee's own peak at the reaping only:
/// see `launch::own_peak_rss_kb`). Bounded: a process stuck in the kernel
/// is left unreaped.
pub(crate) fn reap_with_usage(pid: Pid) -> Option<launch::Ended> {
    let until = Instant::now() + LAUNCH_TIME;
    loop {
        let (r, status, usage) = launch::wait4(pid.as_raw_nonzero().get(), libc::WNOHANG);
        if r == pid.as_raw_nonzero().get() {
            return Some(
                launch::Ended::from_wait(status, &usage).beyond(launch::own_peak_rss_kb()),
            );
        }
        let interrupted = r == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR);
        if (r != 0 && !interrupted) || Instant::now() >= until {
            return None;
        }
        if r == 0 {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

/// Forks the launcher ([`launch`]) from the calling thread and waits
/// (bounded) for its word that the bot runs. On any failure the launcher
/// is killed and reaped.
///
/// The launcher is this process's own child, not a program: no exec of the
/// referee's binary per bot (most of a game's start under strict, see
/// docs/measurements.md). The child is single-threaded, so it may set up
/// namespaces and mounts; the C library's fork makes its allocator usable
/// there; it touches no other lock of the referee's (no standard stream,
/// no environment) and ends with `_exit`, never returning into the
/// referee's code.
pub(crate) fn start_launcher(spec: &launch::LaunchSpec) -> io::Result<Started> {
    use rustix::pipe::{pipe_with, PipeFlags};
    let (report_read, report_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stdin_read, stdin_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stdout_read, stdout_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stderr_read, stderr_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let referee = rustix::process::getpid().as_raw_nonzero().get();
    // Made (once) before the fork, for the child to join.
    let shared = spec.strict.as_ref().map(|_| sandbox::shared_namespaces());
    let namespaces = [
        shared.and_then(|s| s.network()),
        shared.and_then(|s| s.ipc()),
    ];
    // Built (once) before the fork, so that no launcher builds it.
    sandbox::SeccompProgram::cached(spec.seccomp_policy()).map_err(io::Error::other)?;
    let secrets = match (&spec.strict, &spec.identity) {
        (None, Some(_)) => launch::secrets_layer()?.map(AsRawFd::as_raw_fd),
        _ => None,
    };
    // Under basic the bot's ruleset too (one for this bot, closed here
    // once the launcher has its copy); under strict its child makes it,
    // after its mounts (see `launch::prepared_ruleset`).
    let ruleset = match spec.strict {
        None => {
            landlock::share_anchors(launch::SYSTEM_READABLE);
            launch::prepared_ruleset(spec, secrets.is_none()).map_err(|e| launch_error(e.into()))?
        }
        Some(_) => None,
    };
    let ruleset_fd = ruleset.as_ref().map(AsRawFd::as_raw_fd);
    // SAFETY: the child runs only `launcher_child`, which ends in _exit.
    let forked = unsafe { libc::fork() };
    if forked < 0 {
        return Err(io::Error::last_os_error());
    }
    if forked == 0 {
        let fds =
            [&stdin_read, &stdout_write, &stderr_write, &report_write].map(AsRawFd::as_raw_fd);
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: in the child of the fork above, which never returns.
            unsafe { launcher_child(spec, fds, namespaces, [secrets, ruleset_fd], referee) }
        }))
        .unwrap_or(1);
        // SAFETY: ends the child without the referee's exit handlers or
        // buffers (copies of the referee's own).
        unsafe { libc::_exit(code) }
    }
    drop((
        stdin_read,
        stdout_write,
        stderr_write,
        report_write,
        ruleset,
    ));
    let launcher_pid = Pid::from_raw(forked).expect("a child's pid is positive");
    let mut report = Report::new(report_read);
    let started = report
        .line(Instant::now() + LAUNCH_TIME)
        .map_err(|why| io::Error::other(format!("the launcher {why}")));
    let bot = match started.and_then(|line| launch_outcome(&line)) {
        Ok(pid) => pid,
        Err(e) => {
            let _ = rustix::process::kill_process(launcher_pid, Signal::KILL);
            reap(launcher_pid);
            return Err(e);
        }
    };
    let pidfd = match rustix::process::pidfd_open(launcher_pid, PidfdFlags::empty()) {
        Ok(fd) => fd,
        Err(e) => {
            ProcessGroup(bot).signal(Signal::KILL);
            reap(launcher_pid);
            return Err(e.into());
        }
    };
    Ok(Started {
        bot,
        keeper: Keeper::Launcher(Launcher {
            pid: launcher_pid,
            report,
        }),
        pidfd,
        stdin: stdin_write,
        stdout: stdout_read,
        stderr: stderr_read,
    })
}

/// The launcher's child side of the fork: in the shared `network` and
/// `ipc` namespaces if there are (strict), the bot's three pipes on its
/// standard descriptors, its report pipe on 3, the layer hiding root's
/// `secrets` on 4 if there is one (basic, as root), the bot's `ruleset` on
/// 5 if it was made before the fork (basic), and nothing else of the
/// referee's open, its own session (under strict its own process group,
/// without the terminal), told of the referee's death; then the
/// launcher's work ([`launch::keep`]). Returns the exit code.
///
/// # Safety
/// Only in the child of a fork of the referee, which must never return
/// into the referee's code.
pub(crate) unsafe fn launcher_child(
    spec: &launch::LaunchSpec,
    [stdin, stdout, stderr, report]: [i32; 4],
    [network, ipc]: [Option<i32>; 2],
    [secrets, ruleset]: [Option<i32>; 2],
    referee: libc::pid_t,
) -> i32 {
    // A mask the forking thread had must not keep signals (SIGTERM) from
    // the launcher, nor the referee's handlers run in it.
    launch::leave_the_referee(launch::Forked::Launcher);
    // SAFETY: system calls with integer arguments and pointers to locals.
    unsafe {
        if network.is_some_and(|fd| libc::setns(fd, libc::CLONE_NEWNET) != 0)
            || ipc.is_some_and(|fd| libc::setns(fd, libc::CLONE_NEWIPC) != 0)
        {
            return 1;
        }
        // Each source is first moved above the descriptors it goes to, in
        // case it sits on one of them; the secrets layer (4) and the
        // ruleset (5) stay close-on-exec, like the report pipe (3). One
        // missing leaves a copy of the report pipe in its place (closed at
        // the bot's exec, as the report pipe is), so that the next keeps
        // its number.
        let high = [
            stdin,
            stdout,
            stderr,
            report,
            secrets.unwrap_or(report),
            ruleset.unwrap_or(report),
        ]
        .map(|fd| libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10));
        let kept = match (secrets, ruleset) {
            (_, Some(_)) => 6,
            (Some(_), None) => 5,
            (None, None) => 4,
        };
        if high.iter().any(|&fd| fd < 0)
            || (0..kept).any(|i| libc::dup2(high[i], i as i32) < 0)
            || (3..kept).any(|fd| libc::fcntl(fd as i32, libc::F_SETFD, libc::FD_CLOEXEC) < 0)
        {
            return 1;
        }
        // Nothing else of the referee's: the other bots' pipes, its files
        // (the Landlock anchors it shares with the bots it starts itself).
        landlock::disown_shared_anchors();
        if libc::syscall(
            libc::SYS_close_range,
            kept as libc::c_uint,
            libc::c_uint::MAX,
            0,
        ) != 0
        {
            for fd in kept as i32..65536 {
                libc::close(fd);
            }
        }
        // Its bot inherits its session and terminal (or their absence).
        if launch::leave_the_terminal(spec.strict.is_none()).is_err() {
            return 1;
        }
        // If the referee dies (even by SIGKILL), the launcher is told
        // (SIGTERM) and ends the bot's whole tree before it exits (see
        // launch::keep), descendants that left the group included.
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM as libc::c_ulong) != 0
            || libc::getppid() != referee
        {
            return 1;
        }
        let prepared = launch::Prepared {
            network_joined: network.is_some(),
            ipc_joined: ipc.is_some(),
            secrets: secrets.is_some(),
            ruleset: ruleset.is_some(),
        };
        launch::keep(
            spec,
            File::from_raw_fd(launch::REPORT_FD),
            prepared,
            referee,
        )
    }
}

/// The longest a launcher may take to start a bot, or to end it.
pub(crate) const LAUNCH_TIME: Duration = Duration::from_secs(10);

/// Why a bot could not be started, when that is the bot's own doing: its
/// program cannot be run. Every other failure to start is the system's (no
/// memory, no process slot, a sandbox step), to be retried, never judged.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BotsFault(String);

/// Is this failure of [`BotProcess::spawn`] the bot's own (its program
/// cannot be run), rather than the system's?
pub fn is_bots_fault(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<BotsFault>())
}

/// A failure of [`BotProcess::spawn`] that is the organiser's to fix (the
/// bot's files set so that its sandbox cannot reach them): the message says
/// which file and what to do.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct OperatorsFault(String);

/// Is this failure of [`BotProcess::spawn`] the organiser's to fix, so
/// that retrying cannot help and no game can be played until it is?
pub fn is_operators_fault(e: &io::Error) -> bool {
    e.get_ref()
        .is_some_and(|inner| inner.is::<OperatorsFault>())
}

/// The bot's pid from the launcher's first line, or why it did not start.
pub(crate) fn launch_outcome(line: &str) -> io::Result<Pid> {
    if let Some(why) = line.strip_prefix("error ") {
        return Err(start_error(why));
    }
    line.strip_prefix("started ")
        .and_then(|pid| pid.trim().parse::<i32>().ok())
        .and_then(Pid::from_raw)
        .ok_or_else(|| io::Error::other(format!("the launcher said '{line}'")))
}

/// The error of a bot the referee did not start itself
/// ([`start_directly`]), by whose fault it is.
pub(crate) fn launch_error(e: launch::LaunchError) -> io::Error {
    match e.fault() {
        launch::Fault::Bots => io::Error::other(BotsFault(e.to_string())),
        launch::Fault::Operators => io::Error::other(OperatorsFault(e.to_string())),
        launch::Fault::Systems => io::Error::other(e),
    }
}

/// The error of a bot its launcher did not start, from the launcher's
/// line (see [`launch::LaunchError::report_line`]): the bot's own when
/// `why` begins with [`launch::BOTS_FAULT`], the organiser's with
/// [`launch::OPERATORS_FAULT`], else the system's.
pub(crate) fn start_error(why: &str) -> io::Error {
    if let Some(why) = why.strip_prefix(launch::OPERATORS_FAULT) {
        return io::Error::other(OperatorsFault(why.to_string()));
    }
    match why.strip_prefix(launch::BOTS_FAULT) {
        Some(why) => io::Error::other(BotsFault(why.to_string())),
        None => io::Error::other(why.to_string()),
    }
}

/// Why no line came from the launcher's report pipe (said after "the
/// launcher").
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReportSilence {
    #[error("did not answer in time")]
    Late,
    #[error("exited without a word")]
    Exited,
    #[error("report pipe: {0}")]
    Pipe(Errno),
}

/// The launcher's report pipe, read a line at a time under a deadline.
pub(crate) struct Report {
    fd: OwnedFd,
    buffer: Vec<u8>,
}

impl Report {
    pub(crate) fn new(fd: OwnedFd) -> Report {
        Report {
            fd,
            buffer: Vec::new(),
        }
    }

    /// The next line, waiting until `deadline`.
    pub(crate) fn line(&mut self, deadline: Instant) -> Result<String, ReportSilence> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line).trim_end().to_string());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ReportSilence::Late);
            }
            let left = deadline - now;
            let timeout = Timespec {
                tv_sec: left.as_secs() as _,
                tv_nsec: left.subsec_nanos() as _,
            };
            let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(0) | Err(Errno::INTR) => continue,
                Ok(_) => {}
                Err(e) => return Err(ReportSilence::Pipe(e)),
            }
            let mut chunk = [0u8; 4096];
            match rustix::io::read(&self.fd, &mut chunk) {
                Ok(0) => return Err(ReportSilence::Exited),
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(Errno::INTR) => {}
                Err(e) => return Err(ReportSilence::Pipe(e)),
            }
        }
    }

    /// Everything left, once the launcher has exited (so it cannot block
    /// for long: the pipe has no writer left but the bot's tree, which the
    /// launcher killed before exiting).
    pub(crate) fn rest(&mut self) -> String {
        let mut text = String::new();
        while let Ok(line) = self.line(Instant::now() + Duration::from_millis(100)) {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The namespace this thread's next children go into.
    fn children_namespace() -> std::path::PathBuf {
        std::fs::read_link("/proc/thread-self/ns/pid_for_children").unwrap()
    }

    /// What `sh -c script` prints, run from this thread (`in_new`: as the
    /// first process of a new PID namespace).
    fn sh(script: &str, in_new: bool) -> String {
        let run = || {
            std::process::Command::new("sh")
                .args(["-c", script])
                .output()
        };
        let output = if in_new {
            in_a_new_pid_namespace(run).unwrap()
        } else {
            run()
        };
        String::from_utf8_lossy(&output.unwrap().stdout).to_string()
    }

    #[test]
    #[ignore = "needs root (unshare of a PID namespace): run by .ci/run"]
    fn a_child_forked_in_a_new_pid_namespace_is_its_first_process_and_the_thread_comes_back() {
        let own = std::fs::read_link("/proc/self/ns/pid").unwrap();
        assert_eq!(children_namespace(), own);
        // The first process of a namespace of its own.
        assert_eq!(sh("echo $$", true).trim(), "1");
        // The thread's next child is the referee's kind again: not in the
        // (now dead) namespace of the first, nor in a new one.
        assert_eq!(children_namespace(), own);
        assert_ne!(sh("echo $$", false).trim(), "1");
        // Twice in a row from one thread: each a namespace of its own.
        for _ in 0..2 {
            let text = sh("readlink /proc/self/ns/pid; echo $$", true);
            assert!(text.ends_with("\n1\n"), "{text}");
            assert_ne!(
                std::path::Path::new(text.lines().next().unwrap()),
                own,
                "{text}"
            );
        }
    }
}
