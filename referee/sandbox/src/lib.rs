//! The one module that owns child processes: spawning a bot, talking to it
//! line by line under deadlines, measuring it, and ending its whole process
//! group. Nothing else in the referee calls `spawn`, `kill`, `setrlimit` or
//! touches pids.
//!
//! Every wait is a `poll(2)` bounded by a deadline (an [`Instant`]), on the
//! bot's stdout, its stderr and a pidfd that becomes readable when the bot
//! exits. So the referee never blocks forever on a read or a write, notices a
//! bot that exits even while a grandchild still holds its stdout open, and
//! drains stderr into a size-capped buffer without a thread per pipe (a thread
//! could not be joined while a grandchild keeps the pipe open).
//!
//! Memory: the limit is on resident memory (`VmHWM`, then `ru_maxrss` at the
//! end), polled every [`MEMORY_POLL`] while the bot runs, whatever it writes
//! meanwhile; an address-space rlimit of limit + [`ADDRESS_SPACE_ALLOWANCE`]
//! is a backstop against a burst between two polls. The bot's working folder
//! is measured every [`DISK_POLL`] against its quota. See `protocol.md`,
//! "Limits".
//!
//! A bot runs only while it is asked: [`BotProcess::freeze`] stops its whole
//! process group (SIGSTOP) between its reply and its next request, so a bot
//! cannot ponder on its opponent's time, nor slow it down by spinning. The
//! stop is lazy, because a stop and a continue wake the bot twice per
//! exchange (more than the exchange itself costs between quick bots): a bot
//! is stopped once its opponent has been asked for [`IDLE_GRACE`] without
//! answering, and at once after each reply if it was ever seen using the
//! CPU between its reply and its next request ([`BotProcess::rest`]).

// The rules crate's pure helpers, at the paths the modules below use.
use referee_rules::{protocol, text, units, verdict};

pub mod compile;
pub mod cpus;
pub mod interrupt;
pub mod landlock;
pub mod language;
pub mod launch;
pub mod sandbox;
pub mod spec;

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::process::{Pid, PidfdFlags, Signal};

pub use cpus::CpuClaims;
pub use language::Language;
pub use sandbox::{Sandbox, SandboxChoice};
pub use spec::{own_paths_of, BotCommand, BotSpecError};

use crate::verdict::Verdict;

/// How often a thinking bot's memory is sampled.
pub const MEMORY_POLL: Duration = Duration::from_millis(10);
/// How often a thinking bot's working folder is measured.
pub const DISK_POLL: Duration = Duration::from_millis(25);
/// Entries a bot's working folder may hold (each costs the measurement).
pub const DISK_ENTRIES_LIMIT: usize = 4096;
/// Address space granted beyond the memory limit before allocations fail:
/// interpreters map much more than they touch. A language may grant more
/// (`address_space_allowance`: Node's workers each reserve 540 MiB).
pub const ADDRESS_SPACE_ALLOWANCE: u64 = 1 << 30;
/// How long a bot may run after its reply while its opponent thinks,
/// before it is stopped ([`BotProcess::freeze`]): the most it can take
/// from one of its opponent's moves (see [`BotProcess::rest`]).
pub const IDLE_GRACE: Duration = Duration::from_micros(500);
/// CPU time a bot may show between its reply and the moment it is stopped
/// before it is stopped at once after every reply: more than the kernel's clock
/// granularity for a process running elsewhere (one tick), and than an
/// honest bot spends reading the notices it got.
pub const IDLE_CPU_TOLERANCE: Duration = Duration::from_millis(5);
/// After the end of a game: time to exit on its own, then after SIGTERM.
pub const EXIT_GRACE: Duration = Duration::from_millis(200);
pub const TERM_GRACE: Duration = Duration::from_millis(100);

/// The opponent of a bot being asked, idle meanwhile (see
/// [`BotProcess::recv_reply`]).
pub struct Opponent<'a> {
    pub process: &'a mut BotProcess,
    /// When the bot was asked (the opponent is stopped [`IDLE_GRACE`]
    /// later).
    pub asked: Instant,
    /// CPU time the opponent took while the bot was asked, by which the
    /// bot's deadline was moved on. A stop takes effect only when a thread
    /// leaves the kernel, and one system call can keep a CPU for a tenth of
    /// a second (`madvise(MADV_POPULATE_READ)` over a large mapping): an
    /// opponent doing that after each reply, with the game pinned to one
    /// CPU, would take that time out of the bot's move. It is read only
    /// when the deadline comes (an honest opponent, blocked reading, takes
    /// none), so it costs the exchange nothing.
    pub excused: Duration,
}

impl<'a> Opponent<'a> {
    pub fn new(process: &'a mut BotProcess, asked: Instant) -> Opponent<'a> {
        Opponent {
            process,
            asked,
            excused: Duration::ZERO,
        }
    }

    /// The CPU time the opponent took since it was last at rest, beyond
    /// what was excused already and [`IDLE_CPU_TOLERANCE`]: what to add to
    /// the deadline now (zero: nothing more).
    fn excuse(&mut self) -> Duration {
        let (Some(now), Some(rest)) = (self.process.cpu_time(), self.process.cpu_at_rest()) else {
            return Duration::ZERO;
        };
        let taken = now.saturating_sub(rest);
        if taken <= self.excused + IDLE_CPU_TOLERANCE {
            return Duration::ZERO;
        }
        let more = taken - self.excused;
        self.excused = taken;
        more
    }
}

/// Set by [`request_stop`]: every wait returns [`Fault::Interrupted`] within
/// one poll tick, so running games wind down at once.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every bot wait in this process to give up (Ctrl-C, a fatal error).
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed) || SIGNALLED.get().is_some_and(|s| s.load(Ordering::Relaxed))
}

/// Set by the first SIGINT or SIGTERM (see [`install_interrupt_handler`]).
static SIGNALLED: std::sync::OnceLock<std::sync::Arc<AtomicBool>> = std::sync::OnceLock::new();

/// The first Ctrl-C (SIGINT or SIGTERM) stops scheduling and winds down the
/// running games; the second ends the referee at once (exit status 128 +
/// the signal's number, 130 or 143). Its bots follow it: each launcher gets
/// the parent-death signal, ends its bot's tree and removes the bot's
/// working directory ([`launch`]). Bots have their own process groups, so
/// the terminal's Ctrl-C reaches only the referee.
pub fn install_interrupt_handler() {
    let signalled = SIGNALLED.get_or_init(Default::default);
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The exit is registered first: it runs before the flag is set, so
        // only a signal that finds the flag already set ends the process.
        let _ = signal_hook::flag::register_conditional_shutdown(
            signal,
            128 + signal,
            std::sync::Arc::clone(signalled),
        );
        let _ = signal_hook::flag::register(signal, std::sync::Arc::clone(signalled));
    }
}

/// Asks the kernel, once, for no SIGCHLD when a child of the referee is
/// stopped or continued (`SA_NOCLDSTOP`, the disposition otherwise kept):
/// an idle bot is stopped and continued often, and each notice woke some
/// thread of the referee, often the other worker on the other CPU
/// (docs/measurements.md, `--jobs 2`). The referee never waits for a stop,
/// and exec clears the flag, so bots start with the default.
fn no_stop_notices() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: sigaction reads and writes the zeroed struct given; the
        // handler (the default, or one installed earlier) is kept as it is.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut action) == 0 {
                action.sa_flags |= libc::SA_NOCLDSTOP;
                libc::sigaction(libc::SIGCHLD, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Limits the process layer enforces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessLimits {
    /// Resident memory, in KiB; 0 for none. What the bot may use beyond
    /// `memory_allowance_kb`.
    pub memory_kb: u64,
    /// Resident memory granted on top of `memory_kb` for the language's own
    /// run time (an interpreter); see [`Language::memory_allowance_kb`].
    pub memory_allowance_kb: u64,
    /// Address space granted beyond the memory cap, in KiB (see
    /// [`ADDRESS_SPACE_ALLOWANCE`]).
    pub address_space_allowance_kb: u64,
    pub max_line_bytes: usize,
    pub max_output_bytes: usize,
    /// Stderr kept per bot and game: its first half as the game goes, then
    /// the last lines within the other half (a crash's message comes last,
    /// after whatever the bot wrote before); the lines between are read and
    /// dropped, and the first line kept after them counts them
    /// ([`StderrLine::left_out`]).
    pub stderr_cap_bytes: usize,
    /// The confinement layer ([`sandbox`]).
    pub sandbox: Sandbox,
    /// Let the bot start processes (`fork`, `clone` of a process); threads
    /// are always allowed. Off by default: a fork bomb then goes nowhere.
    pub allow_fork: bool,
    /// A compiler, not a bot: it may also change the modes and times of
    /// files (a linker marks its output executable) and open Unix sockets
    /// (see [`sandbox::SeccompPolicy`]).
    pub compiler: bool,
    /// Files and folders of the referee's that a bot must not read (a
    /// tournament's file, which may hold the seed of random codes, and its
    /// results folder): hidden from bots where the sandbox can (Landlock
    /// under basic, mounts under strict).
    pub hidden: Vec<std::path::PathBuf>,
    /// Bytes the bot's working folder may hold in all (blocks allocated),
    /// in KiB; 0 for no quota. Each file is also capped by RLIMIT_FSIZE.
    pub disk_kb: u64,
}

impl Default for ProcessLimits {
    fn default() -> Self {
        ProcessLimits {
            memory_kb: 64 * 1024,
            memory_allowance_kb: 0,
            address_space_allowance_kb: ADDRESS_SPACE_ALLOWANCE / 1024,
            max_line_bytes: crate::protocol::MAX_LINE_BYTES,
            max_output_bytes: crate::protocol::MAX_OUTPUT_BYTES,
            stderr_cap_bytes: 64 * 1024,
            sandbox: Sandbox::Basic,
            allow_fork: false,
            compiler: false,
            hidden: Vec::new(),
            disk_kb: DEFAULT_DISK_KB,
        }
    }
}

impl ProcessLimits {
    /// The resident memory at which the bot is stopped, in KiB (0: no limit).
    pub fn memory_cap_kb(&self) -> u64 {
        if self.memory_kb == 0 {
            0
        } else {
            self.memory_kb + self.memory_allowance_kb
        }
    }
}

const FILE_SIZE_LIMIT_KB: u64 = sandbox::FILE_SIZE_LIMIT / 1024;

/// The default quota of a bot's working folder: 64 MiB.
pub const DEFAULT_DISK_KB: u64 = 64 * 1024;

/// How a bot process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exited with status {c}"),
            Exit::Signal(s) => write!(f, "was killed by signal {s} ({})", signal_name(*s)),
        }
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXCPU => "SIGXCPU",
        _ => "signal",
    }
}

/// A way a bot failed an exchange. [`Fault::verdict`] maps it to the verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No complete line before the deadline.
    Timeout {
        budget: Duration,
    },
    /// The referee could not write its request before the deadline: the bot
    /// does not read its stdin.
    InputNotRead {
        budget: Duration,
    },
    Exited(Exit),
    /// Closed its stdout (or stdin) but did not exit.
    ClosedPipe(&'static str),
    LineTooLong {
        limit: usize,
    },
    TooMuchOutput {
        limit: usize,
    },
    /// A line that is not UTF-8 (`text`: as far as it reads, invalid bytes
    /// shown as `\u{fffd}`).
    NotText {
        text: String,
    },
    /// Resident memory above `limit_kb` + `allowance_kb` (the language's
    /// runtime, see [`Language::memory_allowance_kb`]).
    Memory {
        peak_kb: u64,
        limit_kb: u64,
        allowance_kb: u64,
    },
    /// More threads at once than [`sandbox::STRICT_PIDS_MAX`] (under basic;
    /// under strict its cgroup refuses them).
    Threads {
        count: u64,
    },
    /// Its working folder holds more than its quota (or too many entries).
    Disk {
        used_kb: u64,
        limit_kb: u64,
        entries: usize,
    },
    /// Wrote on stdout when it was not asked: `lines` (the first of them
    /// shortened for a verdict's detail) came before its request was
    /// written, or beside its reply. Where they came is the caller's to say.
    Unasked {
        lines: Vec<String>,
    },
    /// Not the bot's doing: the referee is stopping ([`request_stop`]).
    Interrupted,
}

impl Fault {
    /// The verdict this fault earns the bot; `None` when it is not the bot's.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Fault::Timeout { .. } | Fault::InputNotRead { .. } => Some(Verdict::Timeout),
            Fault::Exited(_) | Fault::ClosedPipe(_) | Fault::Threads { .. } => Some(Verdict::Crash),
            Fault::LineTooLong { .. } | Fault::TooMuchOutput { .. } | Fault::Disk { .. } => {
                Some(Verdict::Output)
            }
            Fault::NotText { .. } | Fault::Unasked { .. } => Some(Verdict::Protocol),
            Fault::Memory { .. } => Some(Verdict::Memory),
            Fault::Interrupted => None,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout { budget } => write!(f, "no reply within {}", show_duration(*budget)),
            Fault::InputNotRead { budget } => {
                write!(f, "did not read its input for {}", show_duration(*budget))
            }
            Fault::Exited(exit) => write!(f, "{exit} while a reply was awaited"),
            Fault::ClosedPipe(which) => write!(f, "closed its {which} but kept running"),
            Fault::LineTooLong { limit } => write!(f, "wrote a line longer than {limit} bytes"),
            Fault::TooMuchOutput { limit } => {
                write!(f, "wrote more than {limit} bytes to stdout in one game")
            }
            Fault::NotText { text } => {
                write!(f, "wrote a line that is not UTF-8 text: '{text}'")
            }
            Fault::Threads { count } => write!(
                f,
                "ran {count} threads at once, over the {} a bot may have",
                sandbox::STRICT_PIDS_MAX
            ),
            Fault::Memory {
                peak_kb,
                limit_kb,
                allowance_kb: 0,
            } => write!(
                f,
                "used {peak_kb} KiB of resident memory, over the {limit_kb} KiB limit"
            ),
            Fault::Memory {
                peak_kb,
                limit_kb,
                allowance_kb,
            } => write!(
                f,
                "used {peak_kb} KiB of resident memory, over the {limit_kb} KiB limit \
                 plus the {allowance_kb} KiB allowed for the language's runtime"
            ),
            Fault::Disk {
                entries, limit_kb, ..
            } if *entries > DISK_ENTRIES_LIMIT => write!(
                f,
                "made more than {DISK_ENTRIES_LIMIT} files and folders in its working folder \
                 (quota {limit_kb} KiB)"
            ),
            Fault::Disk {
                used_kb, limit_kb, ..
            } if used_kb > limit_kb => write!(
                f,
                "wrote {used_kb} KiB to its working folder, over the {limit_kb} KiB disk quota"
            ),
            Fault::Disk { limit_kb, .. } => write!(
                f,
                "tried to write a file past the {limit_kb} KiB disk quota of its working folder"
            ),
            Fault::Unasked { lines } => {
                write!(
                    f,
                    "wrote a line nobody asked for: '{}'",
                    lines.first().map_or("", String::as_str)
                )?;
                if lines.len() > 1 {
                    write!(f, " (and {} more after it)", lines.len() - 1)?;
                }
                Ok(())
            }
            Fault::Interrupted => write!(f, "the referee was interrupted"),
        }
    }
}

/// A duration as the command line reads it back to the same value
/// (replay commands carry the limits): in the largest unit that shows it
/// whole, else in seconds to the nanosecond.
pub fn show_duration(d: Duration) -> String {
    let nanos = d.subsec_nanos();
    if nanos == 0 && d.as_secs() > 0 {
        format!("{}s", d.as_secs())
    } else if nanos % 1_000_000 == 0 {
        format!("{}ms", d.as_millis())
    } else if nanos % 1_000 == 0 {
        format!("{}us", d.as_micros())
    } else {
        format!("{}.{nanos:09}s", d.as_secs())
    }
}

/// A line of the bot's stderr, with the time it was read.
#[derive(Clone, Debug)]
pub struct StderrLine {
    pub at: Instant,
    pub line: String,
    /// Lines read and dropped just before this one (the stderr cap).
    pub left_out: usize,
}

/// What is known of a bot process once it is gone.
#[derive(Clone, Debug, Default)]
pub struct ProcessReport {
    pub exit: Option<Exit>,
    pub cpu_ms: f64,
    pub peak_memory_kb: u64,
    pub stderr_truncated: bool,
}

/// A process-group id. Signals sent through it reach every process of the
/// bot's group (children it forked included), not just the leader.
#[derive(Clone, Copy, Debug)]
struct ProcessGroup(Pid);

impl ProcessGroup {
    fn signal(self, signal: Signal) {
        // ESRCH (nobody left in the group) is the hoped-for case.
        let _ = rustix::process::kill_process_group(self.0, signal);
    }
}

/// A running bot: its pipes, its pidfd, and what it wrote so far.
pub struct BotProcess {
    /// The bot's own process (its launcher's child).
    pid: Pid,
    group: ProcessGroup,
    pidfd: OwnedFd,
    stdin: Option<OwnedFd>,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
    limits: ProcessLimits,
    /// Bytes of stdout not yet returned as a line.
    pending: Vec<u8>,
    /// The line being sent, kept between sends (no allocation per line).
    outgoing: Vec<u8>,
    stdout_total: usize,
    stderr_partial: Vec<u8>,
    /// Bytes of stderr kept in the head (the first half of the cap).
    stderr_kept: usize,
    stderr_truncated: bool,
    /// Kept lines not yet taken ([`BotProcess::take_stderr`]).
    stderr_lines: Vec<StderrLine>,
    /// Once the head is full: the latest lines, within the other half of
    /// the cap, released when the bot is gone; and how many lines were
    /// dropped between head and tail.
    stderr_tail: std::collections::VecDeque<StderrLine>,
    stderr_tail_bytes: usize,
    stderr_left_out: usize,
    peak_memory_kb: u64,
    /// When memory, and the working folder, were last measured.
    memory_checked: Instant,
    disk_checked: Instant,
    /// Stopped by [`BotProcess::freeze`] and not yet continued.
    frozen: bool,
    /// Seen using the CPU between a reply and its next request: stopped at
    /// once after each reply from then on (see [`BotProcess::rest`]).
    busy_when_idle: bool,
    /// Its CPU time when it last replied, and when it was last stopped
    /// (what it used between is what it used idle).
    cpu_at_reply: Option<Duration>,
    cpu_at_freeze: Option<Duration>,
    exited: bool,
    report: Option<ProcessReport>,
    /// Marks every process the bot starts (environment variable
    /// [`sandbox::TAG_VARIABLE`]), for the sweep at the end.
    tag: String,
    /// The working directory's own file system, the size of its quota
    /// ([`QuotaMount`]), where the referee may mount one: unmounted before
    /// the directory is removed (fields drop in order).
    quota_mount: Option<QuotaMount>,
    /// Removed when the bot is dropped, once its processes are gone, and
    /// before its cgroups go back to the pool: files there in memory are
    /// charged to them (see the `Drop` impl).
    _workdir: tempfile::TempDir,
    /// Under `strict`: the bot's cgroups, killed and removed when dropped.
    cgroup: Option<sandbox::BotCgroup>,
    /// The bot's parent, the launcher ([`launch`]): its exit tells the
    /// bot's, after everything the bot left behind was killed; its report
    /// pipe says how the bot ended.
    launcher: Launcher,
}

/// The launcher of a bot: its pid and its report pipe.
struct Launcher {
    pid: Pid,
    report: Report,
}

#[derive(Default)]
struct Ready {
    stdin: bool,
    stdout: bool,
    stderr: bool,
    exited: bool,
}

impl BotProcess {
    /// Starts a bot in a fresh, empty working directory, in its own process
    /// group without a terminal, with a clean environment and its rlimits, under
    /// the sandbox of `limits`, through the launcher ([`launch`]).
    pub fn spawn(command: &BotCommand, limits: &ProcessLimits) -> io::Result<BotProcess> {
        let workdir = tempfile::Builder::new()
            .prefix("referee-bot-")
            .tempdir_in(workdirs_folder()?)?;
        let quota = QuotaMount::over(workdir.path(), limits.disk_kb);
        let mut process = BotProcess::spawn_in(command, limits, workdir)?;
        process.quota_mount = quota;
        Ok(process)
    }

    /// [`BotProcess::spawn`] in a working directory the caller made (a
    /// compiler's, holding the source it compiles; the folder that holds it
    /// is hidden from the process like the bots' folder). The directory is
    /// removed when the process is dropped.
    pub fn spawn_in(
        command: &BotCommand,
        limits: &ProcessLimits,
        workdir: tempfile::TempDir,
    ) -> io::Result<BotProcess> {
        sandbox::protect_referee();
        no_stop_notices();
        let tag = sandbox::new_tag();
        let cgroup = match &limits.sandbox {
            Sandbox::Basic => None,
            Sandbox::Strict(roots) => Some(sandbox::BotCgroup::create(
                roots,
                &tag,
                limits.memory_cap_kb(),
            )?),
        };
        let spec = launch_spec(command, limits, workdir.path(), &tag, cgroup.as_ref());
        let started = start_launcher(&spec)?;
        for fd in [&started.stdin, &started.stdout, &started.stderr] {
            set_nonblocking(fd)?;
        }
        Ok(BotProcess {
            pid: started.bot,
            launcher: started.launcher,
            group: ProcessGroup(started.bot),
            pidfd: started.pidfd,
            stdin: Some(started.stdin),
            stdout: Some(started.stdout),
            stderr: Some(started.stderr),
            limits: limits.clone(),
            pending: Vec::with_capacity(256),
            outgoing: Vec::with_capacity(256),
            stdout_total: 0,
            stderr_partial: Vec::new(),
            stderr_kept: 0,
            stderr_truncated: false,
            stderr_lines: Vec::new(),
            stderr_tail: std::collections::VecDeque::new(),
            stderr_tail_bytes: 0,
            stderr_left_out: 0,
            peak_memory_kb: 0,
            memory_checked: Instant::now(),
            disk_checked: Instant::now(),
            frozen: false,
            busy_when_idle: false,
            cpu_at_reply: None,
            cpu_at_freeze: None,
            exited: false,
            report: None,
            tag,
            cgroup,
            quota_mount: None,
            _workdir: workdir,
        })
    }

    pub fn pid(&self) -> i32 {
        self.pid.as_raw_nonzero().get()
    }

    /// The process's working directory (removed when it is dropped).
    pub fn workdir(&self) -> &std::path::Path {
        self._workdir.path()
    }

    /// Writes `line` and a newline, waiting at most until `deadline` for the
    /// bot to make room in the pipe.
    pub fn send_line(
        &mut self,
        line: &str,
        deadline: Instant,
        budget: Duration,
    ) -> Result<(), Fault> {
        let mut bytes = std::mem::take(&mut self.outgoing);
        bytes.clear();
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let sent = self.send_bytes(&bytes, deadline, budget);
        self.outgoing = bytes;
        sent
    }

    fn send_bytes(
        &mut self,
        bytes: &[u8],
        deadline: Instant,
        budget: Duration,
    ) -> Result<(), Fault> {
        let mut written = 0;
        while written < bytes.len() {
            let Some(stdin) = &self.stdin else {
                return Err(Fault::ClosedPipe("stdin"));
            };
            match rustix::io::write(stdin, &bytes[written..]) {
                Ok(n) => written += n,
                Err(Errno::INTR) => {}
                Err(Errno::AGAIN) => {
                    if stop_requested() {
                        return Err(Fault::Interrupted);
                    }
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(Fault::InputNotRead { budget });
                    }
                    let ready = self.wait(true, false, (deadline - now).min(MEMORY_POLL));
                    self.absorb(&ready)?;
                    if ready.exited {
                        return Err(self.exit_fault());
                    }
                    self.check_limits()?;
                }
                Err(_) => {
                    // EPIPE: the bot closed its stdin, most likely by exiting.
                    self.stdin = None;
                    if self.wait_exit(Instant::now() + Duration::from_millis(50)) {
                        return Err(self.exit_fault());
                    }
                    return Err(Fault::ClosedPipe("stdin"));
                }
            }
        }
        Ok(())
    }

    /// Waits until `deadline` for one complete line on stdout. Returns the line
    /// without its newline (and a `\r` before it) and when it was complete.
    pub fn recv_line(
        &mut self,
        deadline: Instant,
        budget: Duration,
    ) -> Result<(String, Instant), Fault> {
        self.recv_reply(deadline, budget, None)
    }

    /// [`BotProcess::recv_line`] for a reply to a request sent at
    /// `opponent.asked`, while the opponent waits: once the wait has lasted
    /// [`IDLE_GRACE`], the opponent is stopped ([`BotProcess::freeze`]).
    /// Before a timeout, the CPU time the opponent took since it was last at
    /// rest is excused: the deadline moves on by it
    /// ([`Opponent::excused`]).
    pub fn recv_reply(
        &mut self,
        mut deadline: Instant,
        budget: Duration,
        mut opponent: Option<&mut Opponent<'_>>,
    ) -> Result<(String, Instant), Fault> {
        let mut to_freeze = opponent.is_some();
        loop {
            if let Some(line) = self.take_line()? {
                return Ok((line, Instant::now()));
            }
            if stop_requested() {
                return Err(Fault::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                match opponent.as_mut().map(|o| o.excuse()) {
                    Some(more) if !more.is_zero() => {
                        deadline += more;
                        continue;
                    }
                    _ => return Err(Fault::Timeout { budget }),
                }
            }
            let mut until = deadline.min(now + MEMORY_POLL);
            if let Some(o) = opponent.as_mut().filter(|_| to_freeze) {
                let freeze_at = o.asked + IDLE_GRACE;
                if now >= freeze_at {
                    o.process.freeze();
                    to_freeze = false;
                } else {
                    until = until.min(freeze_at);
                }
            }
            let ready = self.wait(false, true, until - now);
            let stdout_open = self.stdout.is_some();
            self.absorb(&ready)?;
            if let Some(line) = self.take_line()? {
                return Ok((line, Instant::now()));
            }
            if stdout_open && self.stdout.is_none() {
                // EOF: the bot closed stdout; it cannot answer any more.
                if self.wait_exit(deadline.min(Instant::now() + Duration::from_millis(100))) {
                    return Err(self.exit_fault());
                }
                return Err(Fault::ClosedPipe("stdout"));
            }
            if ready.exited {
                return Err(self.exit_fault());
            }
            // However the bot behaves (chatting on stderr, trickling
            // bytes), its memory and folder are measured on time.
            self.check_limits()?;
        }
    }

    /// After a reply: a bot ever seen busy while idle is stopped now;
    /// another keeps running until its opponent has been asked for
    /// [`IDLE_GRACE`] (it is then blocked reading, as a bot waiting for its
    /// next request should be, and a stop would only cost two wake-ups).
    /// `cpu` is its CPU time now.
    pub fn rest(&mut self, cpu: Option<Duration>) {
        self.cpu_at_reply = cpu;
        if self.busy_when_idle {
            self.freeze();
        }
    }

    /// Stops the bot's whole process group (SIGSTOP): until it is continued
    /// before its next request it gets no CPU, so it can neither ponder on
    /// its opponent's time nor slow the opponent down (when it is stopped:
    /// see [`BotProcess::rest`]). Its threads stop too;
    /// its children stay in its group (it cannot leave it: `setsid` and
    /// `setpgid` are refused), under both layers. Two system calls a move:
    /// cheaper than the cgroup freezer's file writes.
    pub fn freeze(&mut self) {
        if self.frozen || self.exited || self.report.is_some() {
            return;
        }
        self.group.signal(Signal::STOP);
        self.frozen = true;
        // What it used between its reply and now was used idle; and until
        // it is continued, this is its CPU time.
        self.cpu_at_freeze = self.cpu_time();
        if let (Some(now), Some(then)) = (self.cpu_at_freeze, self.cpu_at_reply) {
            if now.saturating_sub(then) > IDLE_CPU_TOLERANCE {
                self.busy_when_idle = true;
            }
        }
    }

    /// The bot's CPU time as last read: when it was stopped, if it has
    /// been since its reply (it has used none since), else at its reply
    /// (what it used since, while idle, is then at most [`IDLE_GRACE`] a
    /// thread, as it would have been stopped otherwise). The start of its
    /// next move's CPU time, without a system call.
    pub fn cpu_at_rest(&self) -> Option<Duration> {
        if self.frozen {
            self.cpu_at_freeze
        } else {
            self.cpu_at_reply
        }
    }

    /// Lets a frozen bot run again (before its request is written).
    pub fn thaw(&mut self) {
        if !self.frozen {
            return;
        }
        self.group.signal(Signal::CONT);
        self.frozen = false;
    }

    /// The lines the bot wrote on stdout that nobody asked for, if any:
    /// what arrived after its last reply and before its next request (read
    /// now, without waiting), each shortened for a verdict's detail; the
    /// last may lack its newline.
    pub fn unasked_output(&mut self) -> Result<Vec<String>, Fault> {
        if self.stdout.is_some() {
            self.read_stdout()?;
        }
        Ok(self.lines_beyond_reply())
    }

    /// The lines read beyond the reply just taken (they came in the same
    /// read), without reading more: what the bot writes later is found
    /// before its next request ([`BotProcess::unasked_output`]). Each is
    /// shortened for a verdict's detail; the last may lack its newline.
    pub fn lines_beyond_reply(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.pending)
            .lines()
            .map(|line| crate::protocol::shorten(line.trim_end()))
            .collect()
    }

    /// What the bot has written of a line without ending it, if anything
    /// (a reply written without its newline), shortened for a verdict's
    /// detail.
    pub fn partial_line(&self) -> Option<String> {
        if self.pending.is_empty() || self.pending.contains(&b'\n') {
            return None;
        }
        let text = String::from_utf8_lossy(&self.pending);
        Some(crate::protocol::shorten(text.trim_end()))
    }

    /// Stderr lines kept since the last call: the head as it is read; once
    /// the bot is gone, the tail (its first line counts those left out).
    pub fn take_stderr(&mut self) -> Vec<StderrLine> {
        std::mem::take(&mut self.stderr_lines)
    }

    /// Ends the bot after a finished game: closes its stdin, lets it exit on
    /// its own for `grace`, then SIGTERM, then SIGKILL to the whole group.
    pub fn shut_down(&mut self, grace: Duration) -> ProcessReport {
        self.stdin = None;
        self.thaw();
        if stop_requested() {
            return self.kill();
        }
        if !self.wait_exit(Instant::now() + grace) {
            self.group.signal(Signal::TERM);
            if !self.wait_exit(Instant::now() + TERM_GRACE) {
                self.group.signal(Signal::KILL);
            }
        }
        self.finish()
    }

    /// Reads the bot's peak memory while it still runs (before it is told
    /// that the game ended): its final `ru_maxrss` may say only the
    /// referee's, the image the launcher was forked from (see
    /// `launch::own_peak_rss_kb`). The figure goes to the report; a peak
    /// over the cap is judged at the end.
    pub fn measure_before_end(&mut self) {
        if !self.exited && self.report.is_none() {
            let _ = self.check_memory();
        }
    }

    /// Ends the bot at once (it was disqualified, or the referee stops).
    pub fn kill(&mut self) -> ProcessReport {
        self.group.signal(Signal::KILL);
        self.finish()
    }

    /// CPU time the bot has used so far, cheap enough to read before and
    /// after every move: under strict with `allow_fork`, all its processes
    /// (its cgroup's `cpu.stat`); otherwise its own process, all threads
    /// but not its children (the kernel's per-process CPU clock). Exact while the bot
    /// waits; while it runs, the kernel's figure may lag by up to one
    /// scheduler tick (1 to 10 ms). `None` once the process is gone.
    pub fn cpu_time(&self) -> Option<Duration> {
        if self.exited {
            return None;
        }
        match &self.cgroup {
            // Only a bot that may fork has processes beyond its own; the
            // cgroup's file costs three system calls and a parse, the
            // process's clock one call.
            Some(cgroup) if self.limits.allow_fork => cgroup.cpu_time(),
            _ => process_cpu_time(self.pid),
        }
    }

    /// Peak resident memory seen so far, in KiB.
    pub fn peak_memory_kb(&self) -> u64 {
        self.peak_memory_kb
    }

    fn finish(&mut self) -> ProcessReport {
        if let Some(report) = &self.report {
            return report.clone();
        }
        self.stdin = None;
        // SIGKILL always ends a process, but wait_exit stays bounded in case
        // the bot is stuck in the kernel.
        if !self.wait_exit(Instant::now() + Duration::from_millis(50)) {
            self.group.signal(Signal::KILL);
            if let Some(cgroup) = &self.cgroup {
                cgroup.kill();
            }
            self.wait_exit(Instant::now() + LAUNCH_TIME);
        }
        // Under strict the cgroup counts the whole tree, exactly.
        let mut tree_cpu = None;
        if let Some(cgroup) = &self.cgroup {
            if let Some(kb) = cgroup.resident_kb() {
                self.peak_memory_kb = self.peak_memory_kb.max(kb);
            }
            cgroup.kill();
            tree_cpu = cgroup.cpu_time();
        }
        // The launcher exits once the bot's tree is gone; its report says
        // how the bot ended. A launcher that does not (killed, stuck) is
        // killed, and the referee sweeps what the bot may have left.
        let Launcher { pid, report } = &mut self.launcher;
        let ended = if self.exited {
            report.rest().lines().find_map(launch::Ended::parse)
        } else {
            None
        };
        if ended.is_none() {
            let _ = rustix::process::kill_process(*pid, Signal::KILL);
            self.group.signal(Signal::KILL);
            sandbox::sweep(self.pid.as_raw_nonzero().get(), &self.tag);
        }
        let launcher_exit = reap(*pid);
        let report = match ended {
            Some(ended) => ProcessReport {
                exit: Some(ended.exit),
                cpu_ms: tree_cpu.unwrap_or(ended.cpu).max(ended.cpu).as_secs_f64() * 1000.0,
                peak_memory_kb: self.peak_memory_kb.max(ended.max_rss_kb),
                stderr_truncated: self.stderr_truncated,
            },
            None => ProcessReport {
                exit: launcher_exit,
                cpu_ms: 0.0,
                peak_memory_kb: self.peak_memory_kb,
                stderr_truncated: self.stderr_truncated,
            },
        };
        self.peak_memory_kb = report.peak_memory_kb;
        self.flush_stderr_partial();
        self.release_stderr_tail();
        self.stdout = None;
        self.stderr = None;
        self.report = Some(report.clone());
        report
    }

    /// Polls the pipes that are still open, and the pidfd if `want_exit`.
    fn wait(
        &self,
        want_stdin: bool,
        want_stdout: bool,
        timeout: Duration,
    ) -> Ready {
        let wanted: [(Option<&OwnedFd>, u8, PollFlags); 4] = [
            (
                self.stdin.as_ref().filter(|_| want_stdin),
                0,
                PollFlags::OUT,
            ),
            (
                self.stdout.as_ref().filter(|_| want_stdout),
                1,
                PollFlags::IN,
            ),
            (self.stderr.as_ref(), 2, PollFlags::IN),
            (
                Some(&self.pidfd).filter(|_| !self.exited),
                3,
                PollFlags::IN,
            ),
        ];
        // On the stack: this runs once or more per move.
        let mut fds: [PollFd<'_>; 4] =
            std::array::from_fn(|_| PollFd::new(&self.pidfd, PollFlags::empty()));
        let mut kinds = [0u8; 4];
        let mut count = 0;
        for (fd, kind, flags) in wanted {
            if let Some(fd) = fd {
                kinds[count] = kind;
                fds[count] = PollFd::new(fd, flags);
                count += 1;
            }
        }
        let fds = &mut fds[..count];
        let timeout = Timespec {
            tv_sec: timeout.as_secs() as _,
            tv_nsec: timeout.subsec_nanos() as _,
        };
        let mut ready = Ready::default();
        match rustix::event::poll(fds, Some(&timeout)) {
            Ok(0) | Err(_) => return ready,
            Ok(_) => {}
        }
        for (fd, kind) in fds.iter().zip(kinds) {
            if fd.revents().is_empty() {
                continue;
            }
            match kind {
                0 => ready.stdin = true,
                1 => ready.stdout = true,
                2 => ready.stderr = true,
                _ => ready.exited = true,
            }
        }
        ready
    }

    /// Reads what `wait` said is ready, enforcing the output caps.
    fn absorb(&mut self, ready: &Ready) -> Result<(), Fault> {
        if ready.stderr {
            self.read_stderr();
        }
        if ready.exited {
            self.exited = true;
        }
        if ready.stdout || ready.exited {
            self.read_stdout()?;
        }
        Ok(())
    }

    /// Reads all stdout available now (until it would block or ends).
    fn read_stdout(&mut self) -> Result<(), Fault> {
        const CHUNK: usize = 16 * 1024;
        while let Some(fd) = &self.stdout {
            // Straight into the buffer's spare room: nothing to zero first.
            self.pending.reserve(CHUNK);
            let room = self.pending.capacity() - self.pending.len();
            match rustix::io::read(fd, rustix::buffer::spare_capacity(&mut self.pending)) {
                Ok(0) => self.stdout = None,
                Ok(n) => {
                    self.stdout_total += n;
                    if self.stdout_total > self.limits.max_output_bytes {
                        return Err(Fault::TooMuchOutput {
                            limit: self.limits.max_output_bytes,
                        });
                    }
                    if self.pending.len() > self.limits.max_line_bytes + 2
                        && !self.pending.contains(&b'\n')
                    {
                        return Err(Fault::LineTooLong {
                            limit: self.limits.max_line_bytes,
                        });
                    }
                    // A short read emptied the pipe: asking again would
                    // only say so (what comes later is read later).
                    if n < room {
                        break;
                    }
                }
                Err(Errno::INTR) => {}
                Err(_) => break,
            }
        }
        Ok(())
    }

    /// Reads what stderr has now, keeping whole lines up to the cap.
    fn read_stderr(&mut self) {
        let mut chunk = [0u8; 16 * 1024];
        while let Some(fd) = &self.stderr {
            match rustix::io::read(fd, &mut chunk) {
                Ok(0) => {
                    self.stderr = None;
                    self.flush_stderr_partial();
                }
                Ok(n) => {
                    let now = Instant::now();
                    for &byte in &chunk[..n] {
                        if byte == b'\n' {
                            let line = std::mem::take(&mut self.stderr_partial);
                            self.keep_stderr(line, now);
                        } else if self.stderr_partial.len() < self.limits.max_line_bytes {
                            self.stderr_partial.push(byte);
                        }
                    }
                }
                Err(Errno::INTR) => {}
                Err(_) => break,
            }
        }
    }

    /// Keeps a stderr line: in the head while it has room (half the cap),
    /// else at the end of the tail, dropping the tail's oldest lines past
    /// the other half.
    fn keep_stderr(&mut self, line: Vec<u8>, at: Instant) {
        let size = line.len() + 1;
        let line = StderrLine {
            at,
            line: String::from_utf8_lossy(&line).into_owned(),
            left_out: 0,
        };
        let head_cap = self.limits.stderr_cap_bytes / 2;
        if self.stderr_tail.is_empty()
            && self.stderr_left_out == 0
            && self.stderr_kept + size <= head_cap
        {
            self.stderr_kept += size;
            self.stderr_lines.push(line);
            return;
        }
        self.stderr_tail_bytes += size;
        self.stderr_tail.push_back(line);
        while self.stderr_tail_bytes > self.limits.stderr_cap_bytes - head_cap {
            let Some(dropped) = self.stderr_tail.pop_front() else {
                break;
            };
            self.stderr_tail_bytes -= dropped.line.len() + 1;
            self.stderr_left_out += 1;
            self.stderr_truncated = true;
        }
    }

    /// Once the bot is gone: the tail joins the lines to take, its first
    /// line saying how many were left out before it.
    fn release_stderr_tail(&mut self) {
        if let Some(first) = self.stderr_tail.front_mut() {
            first.left_out = std::mem::take(&mut self.stderr_left_out);
        }
        self.stderr_lines.extend(self.stderr_tail.drain(..));
        self.stderr_tail_bytes = 0;
    }

    fn flush_stderr_partial(&mut self) {
        if !self.stderr_partial.is_empty() {
            let line = std::mem::take(&mut self.stderr_partial);
            self.keep_stderr(line, Instant::now());
        }
    }

    /// Takes one complete line from what was read, if there is one.
    fn take_line(&mut self) -> Result<Option<String>, Fault> {
        let Some(end) = self.pending.iter().position(|&b| b == b'\n') else {
            if self.pending.len() > self.limits.max_line_bytes {
                return Err(Fault::LineTooLong {
                    limit: self.limits.max_line_bytes,
                });
            }
            return Ok(None);
        };
        let mut line: Vec<u8> = self.pending.drain(..=end).collect();
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > self.limits.max_line_bytes {
            return Err(Fault::LineTooLong {
                limit: self.limits.max_line_bytes,
            });
        }
        match String::from_utf8(line) {
            Ok(text) => Ok(Some(text)),
            Err(e) => Err(Fault::NotText {
                text: crate::protocol::shorten(&String::from_utf8_lossy(e.as_bytes())),
            }),
        }
    }

    /// Waits until the bot exits or `deadline`, draining its output meanwhile
    /// so that a bot flushing at exit is not blocked. True if it exited.
    fn wait_exit(&mut self, deadline: Instant) -> bool {
        while !self.exited {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            let ready = self.wait(false, true, (deadline - now).min(MEMORY_POLL));
            if ready.stdout {
                // Output after the game is read and dropped, within the caps.
                if self.read_stdout().is_err() {
                    self.pending.clear();
                }
            }
            if ready.stderr {
                self.read_stderr();
            }
            if ready.exited {
                self.exited = true;
            }
        }
        true
    }

    /// The fault for a bot that exited during the game (reaps it).
    fn exit_fault(&mut self) -> Fault {
        let report = self.finish();
        if self.cgroup.as_ref().is_some_and(|c| c.oom_killed()) {
            // The cgroup's limit struck between two polls.
            return self.memory_fault(self.peak_memory_kb.max(self.limits.memory_cap_kb() + 1));
        }
        // Over its cap at its peak, then gone before the next poll (a
        // runtime that stops at its own heap limit, set to the cap, such as
        // the JVM's OutOfMemoryError): the memory limit is what it broke.
        let cap = self.limits.memory_cap_kb();
        if cap > 0 && report.peak_memory_kb > cap {
            return self.memory_fault(report.peak_memory_kb);
        }
        // Out of room in its folder (its own file system refuses writes
        // past the quota), and gone on the error: the quota is what it broke.
        if report.exit.is_some() {
            if let Some(fault) = self.disk_fault() {
                return fault;
            }
        }
        match report.exit {
            // A file past RLIMIT_FSIZE (the folder's quota, or the per-file
            // cap): the disk quota's verdict, not a crash.
            Some(Exit::Signal(libc::SIGXFSZ)) if self.limits.disk_kb > 0 => {
                let (used_kb, entries) = folder_usage_kb(self._workdir.path(), DISK_ENTRIES_LIMIT);
                Fault::Disk {
                    used_kb,
                    limit_kb: self.limits.disk_kb.min(FILE_SIZE_LIMIT_KB),
                    entries,
                }
            }
            Some(exit) => Fault::Exited(exit),
            None => Fault::ClosedPipe("stdout"),
        }
    }

    /// The disk quota's fault if the working folder holds more than its
    /// quota now (the end of a game: what a bot wrote after its last
    /// measure, e.g. in its last move, still counts).
    pub fn disk_fault(&self) -> Option<Fault> {
        if self.limits.disk_kb == 0 {
            return None;
        }
        let (used_kb, entries) = folder_usage_kb(self._workdir.path(), DISK_ENTRIES_LIMIT);
        (used_kb > self.limits.disk_kb || entries > DISK_ENTRIES_LIMIT).then_some(Fault::Disk {
            used_kb,
            limit_kb: self.limits.disk_kb,
            entries,
        })
    }

    /// Measures memory (every [`MEMORY_POLL`]) and the working folder
    /// (every [`DISK_POLL`]) if it is time to.
    fn check_limits(&mut self) -> Result<(), Fault> {
        if self.memory_checked.elapsed() >= MEMORY_POLL {
            self.memory_checked = Instant::now();
            self.check_memory()?;
        }
        if self.limits.disk_kb > 0 && self.disk_checked.elapsed() >= DISK_POLL {
            self.disk_checked = Instant::now();
            let (used_kb, entries) = folder_usage_kb(self._workdir.path(), DISK_ENTRIES_LIMIT);
            if used_kb > self.limits.disk_kb || entries > DISK_ENTRIES_LIMIT {
                return Err(Fault::Disk {
                    used_kb,
                    limit_kb: self.limits.disk_kb,
                    entries,
                });
            }
        }
        Ok(())
    }

    fn check_memory(&mut self) -> Result<(), Fault> {
        let status = process_status(self.pid);
        // Under basic nothing else bounds its threads: thousands of them
        // could take every pid of the machine, and its opponent could then
        // start none. It can start threads only while it runs, where it
        // is measured every MEMORY_POLL: a few thousand at most.
        if let Some(count) = status.threads.filter(|&n| n > sandbox::STRICT_PIDS_MAX) {
            if self.cgroup.is_none() {
                return Err(Fault::Threads { count });
            }
        }
        // Its sockets' buffers count too: no resident measure sees them.
        // Under strict those of every process of its cgroup (a bot may fork
        // only there, and its children's memory counts there); under basic
        // its main process's, as its resident memory.
        let sockets = match &self.cgroup {
            Some(cgroup) if self.limits.allow_fork => cgroup
                .pids()
                .into_iter()
                .filter_map(Pid::from_raw)
                .map(socket_count)
                .sum(),
            _ => socket_count(self.pid),
        };
        let sockets_kb = sockets * socket_charge_kb();
        if let Some(kb) = status.peak_kb {
            self.peak_memory_kb = self.peak_memory_kb.max(kb + sockets_kb);
        }
        // Under strict, the whole tree of processes counts.
        if let Some(kb) = self.cgroup.as_ref().and_then(|c| c.resident_kb()) {
            self.peak_memory_kb = self.peak_memory_kb.max(kb + sockets_kb);
        }
        let cap = self.limits.memory_cap_kb();
        if cap > 0 && self.peak_memory_kb > cap {
            return Err(self.memory_fault(self.peak_memory_kb));
        }
        Ok(())
    }

    /// The fault of a bot over its memory cap at `peak_kb`: the disk
    /// quota's if its working folder is over that too. Under strict a
    /// working folder in memory counts toward the bot's memory, so a bot
    /// filling it meets the memory limit, often before the folder's next
    /// measure: what it broke first is the quota.
    fn memory_fault(&self, peak_kb: u64) -> Fault {
        self.disk_fault().unwrap_or(Fault::Memory {
            peak_kb,
            limit_kb: self.limits.memory_kb,
            allowance_kb: self.limits.memory_allowance_kb,
        })
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.report.is_none() {
            self.kill();
        }
        // Every process of the bot gone before its folder is removed (the
        // fields then drop in order: the folder, then the cgroups), so
        // that a later bot handed these cgroups is not charged for files
        // of this one's folder held in memory.
        if let Some(cgroup) = &mut self.cgroup {
            cgroup.end();
        }
    }
}

/// In a bot's arguments and environment, replaced by its memory cap in
/// MiB (limit plus allowance), for a runtime's own heap flag.
pub const MEMORY_PLACEHOLDER: &str = "{memory_mb}";
/// What [`MEMORY_PLACEHOLDER`] becomes when there is no memory limit.
const UNLIMITED_HEAP_MB: u64 = 32 * 1024;

/// What the launcher does for one bot: it has it in
/// its copy of the referee's memory, never in an argument list, which
/// every process may read.
fn launch_spec(
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
    let mut env: Vec<(OsString, OsString)> = vec![
        (
            "PATH".into(),
            std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/bin:/bin")),
        ),
        ("HOME".into(), workdir.into()),
        ("TMPDIR".into(), workdir.into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONUNBUFFERED".into(), "1".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
    ];
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
    }
}

/// A bot that runs: its pipes, its pid, its launcher, and the pidfd that
/// says when the launcher has exited.
struct Started {
    bot: Pid,
    launcher: Launcher,
    pidfd: OwnedFd,
    stdin: OwnedFd,
    stdout: OwnedFd,
    stderr: OwnedFd,
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
fn start_launcher(spec: &launch::LaunchSpec) -> io::Result<Started> {
    use rustix::pipe::{pipe_with, PipeFlags};
    let (report_read, report_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stdin_read, stdin_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stdout_read, stdout_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (stderr_read, stderr_write) = pipe_with(PipeFlags::CLOEXEC)?;
    // SAFETY: getpid has no preconditions.
    let referee = unsafe { libc::getpid() };
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
            unsafe { launcher_child(spec, fds, namespaces, secrets, referee) }
        }))
        .unwrap_or(1);
        // SAFETY: ends the child without the referee's exit handlers or
        // buffers (copies of the referee's own).
        unsafe { libc::_exit(code) }
    }
    drop((stdin_read, stdout_write, stderr_write, report_write));
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
        launcher: Launcher {
            pid: launcher_pid,
            report,
        },
        pidfd,
        stdin: stdin_write,
        stdout: stdout_read,
        stderr: stderr_read,
    })
}

/// The launcher's child side of the fork: in the shared `network` and
/// `ipc` namespaces if there are (strict), the bot's three pipes on its
/// standard descriptors, its report pipe on 3, the layer hiding root's
/// `secrets` on 4 if there is one (basic, as root), and nothing else of the
/// referee's open, its own session (under strict its own process group,
/// without the terminal), told of the referee's death; then the
/// launcher's work ([`launch::keep`]). Returns the exit code.
///
/// # Safety
/// Only in the child of a fork of the referee, which must never return
/// into the referee's code.
unsafe fn launcher_child(
    spec: &launch::LaunchSpec,
    [stdin, stdout, stderr, report]: [i32; 4],
    [network, ipc]: [Option<i32>; 2],
    secrets: Option<i32>,
    referee: libc::pid_t,
) -> i32 {
    // SAFETY: system calls with integer arguments and pointers to locals.
    unsafe {
        // A mask the forking thread had must not keep signals (SIGTERM)
        // from the launcher.
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        // The referee's handlers (a SIGCHLD handler that writes to a pipe
        // closed below) are not the launcher's: every signal to its
        // default, but SIGPIPE ignored, as in any Rust program.
        for signal in 1..libc::SIGRTMAX() {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        if network.is_some_and(|fd| libc::setns(fd, libc::CLONE_NEWNET) != 0)
            || ipc.is_some_and(|fd| libc::setns(fd, libc::CLONE_NEWIPC) != 0)
        {
            return 1;
        }
        // Each source is first moved above the descriptors it goes to, in
        // case it sits on one of them; the secrets layer (4) stays
        // close-on-exec, like the report pipe (3).
        let secrets_fd = secrets.unwrap_or(report);
        let high = [stdin, stdout, stderr, report, secrets_fd]
            .map(|fd| libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10));
        let kept = if secrets.is_some() { 5 } else { 4 };
        if high.iter().any(|&fd| fd < 0)
            || (0..kept).any(|i| libc::dup2(high[i], i as i32) < 0)
            || (3..kept).any(|fd| libc::fcntl(fd as i32, libc::F_SETFD, libc::FD_CLOEXEC) < 0)
        {
            return 1;
        }
        // Nothing else of the referee's: the other bots' pipes, its files.
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
        };
        launch::keep(spec, File::from_raw_fd(launch::REPORT_FD), prepared)
    }
}

/// The space the files under `folder` take (allocated blocks, in KiB) and
/// how many entries it holds, stopping once more than `max_entries` are
/// counted. Symbolic links are not followed.
fn folder_usage_kb(folder: &std::path::Path, max_entries: usize) -> (u64, usize) {
    use std::os::unix::fs::MetadataExt;
    let mut blocks = 0u64;
    let mut entries = 0usize;
    let mut queue = vec![folder.to_path_buf()];
    while let Some(dir) = queue.pop() {
        let Ok(list) = std::fs::read_dir(&dir) else {
            continue;
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

fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(fd.as_fd())?;
    rustix::fs::fcntl_setfl(fd.as_fd(), flags | rustix::fs::OFlags::NONBLOCK)?;
    Ok(())
}

/// This process's folder of working directories, and the descriptor that
/// holds its lock (see [`workdirs_folder`]).
static WORKDIRS: std::sync::OnceLock<(std::path::PathBuf, OwnedFd)> = std::sync::OnceLock::new();

/// The folder holding every bot's working directory, one per referee
/// process (`referee-bots-PID` in [`workdirs_base`], mode 0711: each bot
/// reaches its own directory but lists none). One folder, so that the
/// sandbox can hide the others' directories from each bot. Made on first
/// use; those of referees that are gone are removed then.
///
/// The referee holds an exclusive lock (`flock`) on its folder while it
/// runs, and a folder is stale only when its lock can be taken: a pid alone
/// does not tell, since a referee in another PID namespace (a container
/// sharing `/dev/shm`) has a pid this one cannot see, or this one's own.
fn workdirs_folder() -> io::Result<std::path::PathBuf> {
    if let Some((dir, _)) = WORKDIRS.get() {
        return Ok(dir.clone());
    }
    // One maker: two workers starting their first bots at once would
    // otherwise each take a folder.
    static MAKING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _making = MAKING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((dir, _)) = WORKDIRS.get() {
        return Ok(dir.clone());
    }
    let base = workdirs_base();
    remove_stale_workdirs(&base);
    let temp = std::env::temp_dir();
    if temp != base {
        remove_stale_workdirs(&temp);
    }
    let pid = std::process::id();
    let mut last_error = None;
    for n in 0..16 {
        let name = match n {
            0 => format!("referee-bots-{pid}"),
            n => format!("referee-bots-{pid}.{n}"),
        };
        let dir = base.join(name);
        match lock_folder(&dir) {
            Ok(Some(lock)) => {
                std::fs::set_permissions(
                    &dir,
                    std::os::unix::fs::PermissionsExt::from_mode(0o711),
                )?;
                return Ok(WORKDIRS.get_or_init(|| (dir, lock)).0.clone());
            }
            // Another referee's (same pid, another namespace), or removed
            // by a sweep just made: the next name.
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

/// Makes (or finds) folder `dir` and takes its lock: `None` when another
/// process holds it, or when the folder was removed before the lock was
/// taken (a sweep that found it unlocked).
fn lock_folder(dir: &std::path::Path) -> io::Result<Option<OwnedFd>> {
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
const IN_MEMORY_FOLDER: &str = "/dev/shm";

/// The free space an in-memory folder of working directories needs: a few
/// bots' disk quotas at once (64 MiB each by default). A container's
/// 64 MiB `/dev/shm` is too small, and the temporary folder serves.
const IN_MEMORY_ROOM: u64 = 1 << 30;

/// Is `dir` a tmpfs this process may write, mounted without `noexec`
/// (bots may run what they write), with [`IN_MEMORY_ROOM`] free?
// `f_type`'s type differs between targets (i64 on x86-64).
#[allow(clippy::unnecessary_cast)]
fn roomy_tmpfs(dir: &std::path::Path) -> bool {
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
const QUOTA_MOUNT_MARGIN_KB: u64 = 1024;

/// A tmpfs the size of a bot's disk quota (plus
/// [`QUOTA_MOUNT_MARGIN_KB`]) and of [`DISK_ENTRIES_LIMIT`] entries,
/// mounted over its working directory: the kernel refuses what a bot
/// writes past it (`ENOSPC`), at once. Measuring the folder every
/// [`DISK_POLL`] alone let a bot that allocates files (`posix_fallocate`,
/// 60 MiB in one call) hold three times its quota before it was seen. Needs
/// the right to mount (root); elsewhere the measure alone bounds it.
struct QuotaMount {
    path: std::path::PathBuf,
}

impl QuotaMount {
    /// Mounts it over `dir` (empty, just made); `None` if there is no quota
    /// or the referee may not mount.
    fn over(dir: &std::path::Path, quota_kb: u64) -> Option<QuotaMount> {
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
fn unmount(path: &std::path::Path) {
    let _ = rustix::mount::unmount(
        path,
        rustix::mount::UnmountFlags::DETACH | rustix::mount::UnmountFlags::NOFOLLOW,
    );
}

/// Removes the folders of working directories of referees no longer
/// running (killed before they could): those whose lock this process can
/// take (see [`workdirs_folder`]), and whose pid, when this process can
/// see it, is not a running process.
fn remove_stale_workdirs(temp: &std::path::Path) {
    use rustix::fs::{FlockOperation, Mode, OFlags};
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
        // Held while the folder is removed: a referee making a folder of
        // this name meanwhile finds it gone once it has the lock.
        if rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive).is_ok() {
            // Its bots' quota mounts first: a mount point cannot be removed.
            for bot in std::fs::read_dir(entry.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                unmount(&bot.path());
            }
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Removes this process's folder of working directories (each bot's own
/// directory is removed with the bot): the `referee` binary calls it on
/// its way out.
pub fn remove_workdirs_folder() {
    if let Some((dir, _)) = WORKDIRS.get() {
        let _ = std::fs::remove_dir(dir);
    }
}

/// The longest a launcher may take to start a bot, or to end it.
const LAUNCH_TIME: Duration = Duration::from_secs(10);

/// Why a bot could not be started, when that is the bot's own doing: its
/// program cannot be run. Every other failure to start is the system's (no
/// memory, no process slot, a sandbox step), to be retried, never judged.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BotsFault(String);

/// Is this failure of [`BotProcess::spawn`] the bot's own (its program
/// cannot be run), rather than the system's?
pub fn is_bots_fault(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<BotsFault>())
}

/// The bot's pid from the launcher's first line, or why it did not start.
fn launch_outcome(line: &str) -> io::Result<Pid> {
    if let Some(why) = line.strip_prefix("error ") {
        return Err(start_error(why));
    }
    line.strip_prefix("started ")
        .and_then(|pid| pid.trim().parse::<i32>().ok())
        .and_then(Pid::from_raw)
        .ok_or_else(|| io::Error::other(format!("the launcher said '{line}'")))
}

/// The error of a bot that did not start: the bot's own when `why` begins
/// with [`launch::BOTS_FAULT`], else the system's.
fn start_error(why: &str) -> io::Error {
    match why.strip_prefix(launch::BOTS_FAULT) {
        Some(why) => io::Error::other(BotsFault(why.to_string())),
        None => io::Error::other(why.to_string()),
    }
}

/// The launcher's report pipe, read a line at a time under a deadline.
struct Report {
    fd: OwnedFd,
    buffer: Vec<u8>,
}

impl Report {
    fn new(fd: OwnedFd) -> Report {
        Report {
            fd,
            buffer: Vec::new(),
        }
    }

    /// The next line, waiting until `deadline`.
    fn line(&mut self, deadline: Instant) -> Result<String, String> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line).trim_end().to_string());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err("did not answer in time".into());
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
                Err(e) => return Err(format!("report pipe: {e}")),
            }
            let mut chunk = [0u8; 4096];
            match rustix::io::read(&self.fd, &mut chunk) {
                Ok(0) => return Err("exited without a word".into()),
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(Errno::INTR) => {}
                Err(e) => return Err(format!("report pipe: {e}")),
            }
        }
    }

    /// Everything left, once the launcher has exited (so it cannot block
    /// for long: the pipe has no writer left but the bot's tree, which the
    /// launcher killed before exiting).
    fn rest(&mut self) -> String {
        let mut text = String::new();
        while let Ok(line) = self.line(Instant::now() + Duration::from_millis(100)) {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

/// Peak resident set size of a live process (`VmHWM`), in KiB.
/// What `/proc/PID/status` tells of a process: its peak resident memory
/// (KiB) and its threads.
#[derive(Default)]
struct ProcessStatus {
    peak_kb: Option<u64>,
    threads: Option<u64>,
}

fn process_status(pid: Pid) -> ProcessStatus {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", pid.as_raw_nonzero()))
    else {
        return ProcessStatus::default();
    };
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    ProcessStatus {
        peak_kb: field("VmHWM:"),
        threads: field("Threads:"),
    }
}

/// The sockets process `pid` holds (descriptors naming `socket:[inode]`).
/// A socket a bot may have is one of a Unix pair (seccomp refuses every
/// other, and passing one through another), so each is one of its
/// descriptors; a few dozen reads of a link per measure.
fn socket_count(pid: Pid) -> u64 {
    let folder = format!("/proc/{}/fd", pid.as_raw_nonzero());
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| {
            std::fs::read_link(entry.path()).is_ok_and(|target| {
                target
                    .as_os_str()
                    .as_encoded_bytes()
                    .starts_with(b"socket:")
            })
        })
        .count() as u64
}

/// Memory a bot's socket is counted as, in KiB: what its buffers can hold
/// at most. A Unix socket's sent data, with each packet's overhead, is
/// bounded by its send buffer (`net.core.wmem_default`: a bot may not
/// change it), plus one packet of up to half of it that the kernel lets
/// through last; measured, 120 stuffed pairs held 232 KiB a socket with
/// the usual 208 KiB default.
pub fn socket_charge_kb() -> u64 {
    static CHARGE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CHARGE.get_or_init(|| {
        let send_buffer = std::fs::read_to_string("/proc/sys/net/core/wmem_default")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(212_992);
        (send_buffer + send_buffer / 2).div_ceil(1024)
    })
}

/// CPU time of process `pid`, from its CPU-time clock (`clock_getcpuclockid`
/// spelled out: the kernel encodes a process clock as `!pid << 3 | 2`).
/// Nanoseconds, but for a process running on another CPU only as fresh as
/// the last scheduler tick.
fn process_cpu_time(pid: Pid) -> Option<Duration> {
    let clock = (!pid.as_raw_nonzero().get() << 3) | 2;
    // SAFETY: timespec is plain data; clock_gettime fills it in.
    let mut now: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a local.
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// Waits for `pid` (the launcher) and says how it ended. Only called once
/// the pidfd said the process exited, or after SIGKILL, so it returns
/// quickly.
fn reap(pid: Pid) -> Option<Exit> {
    let mut status: libc::c_int = 0;
    loop {
        // SAFETY: a valid pointer to a local; pid is our own child.
        let r = unsafe { libc::waitpid(pid.as_raw_nonzero().get(), &mut status, 0) };
        if r == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        return if r == -1 {
            None
        } else if libc::WIFEXITED(status) {
            Some(Exit::Code(libc::WEXITSTATUS(status)))
        } else if libc::WIFSIGNALED(status) {
            Some(Exit::Signal(libc::WTERMSIG(status)))
        } else {
            None
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn a_shown_duration_reads_back_to_itself() {
        for text in [
            "2s",
            "1500us",
            "1.5ms",
            "1us",
            "250ms",
            "90s",
            "0.5s",
            "1.000000150s",
            "150e-9s",
        ] {
            let d = crate::units::parse_duration(text).unwrap();
            let shown = show_duration(d);
            assert_eq!(
                crate::units::parse_duration(&shown).unwrap(),
                d,
                "{text} -> {shown}"
            );
        }
        assert_eq!(show_duration(Duration::from_micros(1500)), "1500us");
        assert_eq!(show_duration(Duration::from_millis(2000)), "2s");
        assert_eq!(show_duration(Duration::from_millis(100)), "100ms");
    }

    #[test]
    fn the_cpu_clock_of_a_spinning_child_advances() {
        use std::io::BufRead;
        // The child spins for 0.3 s of CPU time, then says so and sleeps.
        let mut child = Command::new("python3")
            .args([
                "-c",
                "import time\nt=time.process_time()\nwhile time.process_time()-t<0.3: pass\n\
                 print('spun', flush=True)\ntime.sleep(30)",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = Pid::from_child(&child);
        let mut line = String::new();
        io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let used = process_cpu_time(pid).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(line, "spun\n");
        assert!(used >= Duration::from_millis(300), "{used:?}");
        assert!(process_cpu_time(pid).is_none());
    }
}
