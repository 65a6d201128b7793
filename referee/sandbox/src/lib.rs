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

mod arena;
pub mod compile;
pub mod cpus;
pub mod interrupt;
pub mod landlock;
pub mod language;
pub mod launch;
mod process;
mod python_start;
pub mod sandbox;
pub mod spec;
mod start;
mod sweeper;
pub mod tool;
mod workdir;

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

pub use arena::{Arena, Footprint};
pub use cpus::CpuClaims;
pub use language::{Language, Languages};
pub use sandbox::{Sandbox, SandboxChoice};
pub use spec::{own_paths_of, BotCommand, BotSpecError};
use start::*;
pub use start::{command_line, is_bots_fault, is_operators_fault, MEMORY_PLACEHOLDER};
pub use sweeper::{start_sweeper, Sweeper};
pub use workdir::workdirs_base;
use workdir::*;
use workdir::{folder_usage_kb, WorkDir};

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
/// How long after its stop a bot's user time is read as that of a stopped
/// bot: its threads have left the user space by then.
pub const STOP_SETTLE: Duration = Duration::from_millis(2);
/// Notices that may wait for a stopped bot: far more than a game's judge
/// may send between two of its moves (a line is at most 64 KiB).
pub const MAX_QUEUED_BYTES: usize = 16 << 20;
/// CPU time a bot may add from that reading to its next request: the
/// rest of a system call under way at the stop (a stop takes effect when
/// a thread leaves the kernel; the free of a few hundred MiB takes some
/// ms). More is time it ran while stopped: it continued itself.
pub const STOPPED_CPU_TOLERANCE: Duration = Duration::from_millis(30);

/// After the end of a game: time to exit on its own, then after SIGTERM.
pub const EXIT_GRACE: Duration = Duration::from_millis(200);
pub const TERM_GRACE: Duration = Duration::from_millis(100);

/// The opponents of a bot being asked, idle meanwhile (see
/// [`BotProcess::recv_reply`]): in a game of two the other bot, in a game
/// of more every other bot still playing, each of which would otherwise
/// run on (and take the pinned CPU the bot thinks on) until its own next
/// request.
pub struct Opponent<'a> {
    pub processes: Vec<&'a mut BotProcess>,
    /// When the bot was asked (the opponents are stopped [`IDLE_GRACE`]
    /// later).
    pub asked: Instant,
    /// CPU time the opponents took while the bot was asked, by which the
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
    pub fn new(processes: Vec<&'a mut BotProcess>, asked: Instant) -> Opponent<'a> {
        Opponent {
            processes,
            asked,
            excused: Duration::ZERO,
        }
    }

    /// The CPU time the opponents took since each was last at rest, beyond
    /// what was excused already and [`IDLE_CPU_TOLERANCE`]: what to add to
    /// the deadline now (zero: nothing more).
    fn excuse(&mut self) -> Duration {
        let taken: Duration = self
            .processes
            .iter()
            .filter_map(|p| Some(p.cpu_time()?.saturating_sub(p.cpu_at_rest()?)))
            .sum();
        if taken <= self.excused + IDLE_CPU_TOLERANCE {
            return Duration::ZERO;
        }
        let more = taken - self.excused;
        self.excused = taken;
        more
    }
}

/// Set by [`request_stop`]: every wait returns [`Fault::Interrupted`] within
/// one poll tick, so running games wind down at once. Process-wide, not the
/// [`Arena`]'s: the Ctrl-C handler sets it, and a signal handler can reach
/// nothing but a static.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every bot wait in this process to give up (Ctrl-C, a fatal error).
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed) || signalled()
}

/// Whether Ctrl-C or SIGTERM came: a stop the referee asked of itself
/// ([`request_stop`] on a fatal error, a full disk) is not one, and is
/// reported as that error, not as an interruption.
pub fn signalled() -> bool {
    SIGNALLED.get().is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The exit status of a referee ended by a second SIGINT or SIGTERM.
const INTERRUPTED_EXIT: i32 = 130;

/// Set by the first SIGINT or SIGTERM (see [`install_interrupt_handler`]).
static SIGNALLED: std::sync::OnceLock<std::sync::Arc<AtomicBool>> = std::sync::OnceLock::new();

/// The first Ctrl-C (SIGINT or SIGTERM) stops scheduling and winds down the
/// running games; the second ends the referee at once (exit status 130, as
/// for a tournament stopped by the first), once the working folders are
/// removed. Its bots follow it: each launcher gets the parent-death
/// signal, ends its bot's tree and removes the bot's working directory
/// ([`launch`]); a bot the referee started itself gets the parent-death
/// signal. Bots have their own process groups, so the terminal's Ctrl-C
/// reaches only the referee.
///
/// Until a working folder is made, the handler itself ends the referee at
/// the second signal; from then on a thread of its own does, once it has
/// removed the folders (no work for a signal handler). The thread is
/// started with the first folder, not here: a referee held to a few
/// threads (`RLIMIT_NPROC`) spends none on it before its games need them.
pub fn install_interrupt_handler() {
    let signalled = SIGNALLED.get_or_init(Default::default);
    let mut shutdowns = held_shutdowns();
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The exit is registered first: it runs before the flag is set, so
        // only a signal that finds the flag already set ends the process.
        if let Ok(id) = signal_hook::flag::register_conditional_shutdown(
            signal,
            INTERRUPTED_EXIT,
            std::sync::Arc::clone(signalled),
        ) {
            shutdowns.push(id);
        }
        let _ = signal_hook::flag::register(signal, std::sync::Arc::clone(signalled));
    }
}

/// The handler's exits at a second signal, until the watcher takes over.
static SHUTDOWNS: std::sync::Mutex<Vec<signal_hook::SigId>> = std::sync::Mutex::new(Vec::new());

fn held_shutdowns() -> std::sync::MutexGuard<'static, Vec<signal_hook::SigId>> {
    SHUTDOWNS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts, once, the thread that ends the referee at a second signal after
/// removing the working folders, and then lets go of the handler's own
/// exits. If it cannot start, the handler's exits stay (the folders are
/// then left to the next referee).
pub(crate) fn watch_second_signal() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let Some(signalled) = SIGNALLED.get().cloned() else {
            return;
        };
        let Ok(mut signals) = signal_hook::iterator::Signals::new([
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
        ]) else {
            return;
        };
        let handle = signals.handle();
        // A first signal before the watcher: its next is the second.
        if signalled.load(Ordering::SeqCst) {
            SECOND.store(true, Ordering::SeqCst);
        }
        let watcher = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for _ in signals.forever() {
                    // The flag is set by the handler before the watcher
                    // wakes: a second signal finds it set by the first.
                    if signalled.load(Ordering::SeqCst) && SECOND.swap(true, Ordering::SeqCst) {
                        workdir::remove_live_folders();
                        signal_hook::low_level::exit(INTERRUPTED_EXIT);
                    }
                }
            });
        match watcher {
            Ok(_) => {
                for id in held_shutdowns().drain(..) {
                    signal_hook::low_level::unregister(id);
                }
            }
            Err(_) => handle.close(),
        }
    });
}

/// Set by the watcher at the first signal it sees.
static SECOND: AtomicBool = AtomicBool::new(false);

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
    /// The context the bot runs in, whose folder and cgroups it gets
    /// ([`Arena::footprint`]); the default is one of its own.
    pub footprint: Footprint,
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
            footprint: Footprint::default(),
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
    /// Used `cpu` of CPU time while it was stopped between a reply and its
    /// next request: it continued itself ([`BotProcess::take_escape`]).
    RanWhileStopped {
        cpu: Duration,
    },
    /// Not the bot's doing: the referee is stopping ([`request_stop`]).
    Interrupted,
}

impl Fault {
    /// The verdict this fault earns the bot; `None` when it is not the bot's.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Fault::Timeout { .. } | Fault::InputNotRead { .. } => Some(Verdict::Timeout),
            Fault::Exited(_)
            | Fault::ClosedPipe(_)
            | Fault::Threads { .. }
            | Fault::RanWhileStopped { .. } => Some(Verdict::Crash),
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
                "made more than {DISK_ENTRIES_LIMIT} files and folders in its working folder, \
                 or a folder the referee cannot list (quota {limit_kb} KiB)"
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
            Fault::RanWhileStopped { cpu } => write!(
                f,
                "used {} ms of CPU while it was stopped between its reply and its next request: \
                 it continued itself (a bot may use the CPU only while it is asked)",
                cpu.as_millis()
            ),
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
    /// Notices its pipe could not take while it was stopped, sent before
    /// its next request ([`BotProcess::send_notice_line`]).
    queued: Vec<u8>,
    /// When the last send found the pipe full and began to wait for room
    /// (`None`: it did not wait).
    send_waited_from: Option<Instant>,
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
    /// Its CPU time read once it had surely stopped (a while after the
    /// stop: a thread in a system call at the stop runs on in the kernel).
    cpu_stopped: Option<Duration>,
    frozen_at: Instant,
    /// CPU time it used while it should have been stopped: it continued
    /// itself (a SIGCONT of its own, from a timer). Judged at its next
    /// request ([`BotProcess::take_escape`]).
    ran_while_stopped: Option<Duration>,
    /// See [`BotProcess::stdio_pipes`].
    stdio_inodes: Option<[u64; 3]>,
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
    _workdir: WorkDir,
    /// Under `strict`: the bot's cgroups, killed and removed when dropped.
    cgroup: Option<sandbox::BotCgroup>,
    /// The bot's parent: the launcher ([`launch`]), or the referee.
    keeper: Keeper,
    /// The context's folder and cgroups, held until the bot's own
    /// directory and cgroups are gone (the last field, dropped last: the
    /// limits above hold it too, but drop before the directory).
    _footprint: Footprint,
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

/// Makes one of a bot's pipes, made by the referee with no status flag,
/// non-blocking (one call: the flags are known).
fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    rustix::fs::fcntl_setfl(fd.as_fd(), rustix::fs::OFlags::NONBLOCK)?;
    Ok(())
}

/// Peak resident set size of a live process (`VmHWM`), in KiB.
/// What `/proc/PID/status` tells of a process: its peak resident memory
/// (KiB) and its threads.
#[derive(Default)]
struct ProcessStatus {
    peak_kb: Option<u64>,
    threads: Option<u64>,
}

/// Where a process's memory and descriptors are read: `/proc/PID`, or,
/// once its main thread has exited while others run on, a running
/// thread's `/proc/PID/task/TID` (the main thread's status then shows no
/// memory, and its descriptors are gone from `/proc/PID/fd`: a bot whose
/// game ran in a thread was measured at nothing).
fn measured_folder(pid: Pid) -> (String, ProcessStatus) {
    let main = format!("/proc/{}", pid.as_raw_nonzero());
    let status = process_status(&main);
    if status.peak_kb.is_some() {
        return (main, status);
    }
    let threads = std::fs::read_dir(format!("{main}/task"))
        .into_iter()
        .flatten()
        .flatten()
        // Every thread of a bot at most (its cap), whatever it started.
        .take(sandbox::STRICT_PIDS_MAX as usize + 1);
    for thread in threads {
        let folder = format!("{main}/task/{}", thread.file_name().to_string_lossy());
        let of_thread = process_status(&folder);
        if of_thread.peak_kb.is_some() {
            return (
                folder,
                ProcessStatus {
                    threads: status.threads.or(of_thread.threads),
                    ..of_thread
                },
            );
        }
    }
    (main, status)
}

fn process_status(folder: &str) -> ProcessStatus {
    // Read into a buffer that holds it whole: the kernel writes it in one
    // go, where reading to the end of a file of no stated size takes seven
    // reads and a `statx` (it is read every memory poll).
    let mut buffer = [0u8; 4096];
    let mut len = 0;
    let path = format!("{folder}/status");
    let Ok(file) = rustix::fs::open(
        path.as_str(),
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    ) else {
        return ProcessStatus::default();
    };
    while len < buffer.len() {
        match rustix::io::read(&file, &mut buffer[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(Errno::INTR) => {}
            Err(_) => return ProcessStatus::default(),
        }
    }
    let status = String::from_utf8_lossy(&buffer[..len]);
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    ProcessStatus {
        peak_kb: field("VmHWM:"),
        threads: field("Threads:"),
    }
}

/// The kernel buffers a bot's processes hold through their descriptors,
/// which no resident measure sees: its sockets, and its pipes by inode
/// (both ends of a pipe, or one shared by several processes, are one
/// buffer).
#[derive(Default)]
pub(crate) struct HeldBuffers {
    pub(crate) sockets: u64,
    pub(crate) pipes: std::collections::BTreeSet<u64>,
    /// A process's descriptors could not be read: it made itself not
    /// dumpable (`prctl(PR_SET_DUMPABLE, 0)`, or the exec of a program it
    /// may not read), which hides them from a referee without
    /// `CAP_SYS_PTRACE` (basic, as an ordinary user). It is charged as if
    /// each descriptor it may have were a socket ([`Self::charge_kb`]).
    pub(crate) hidden: bool,
}

impl HeldBuffers {
    /// Adds what process `pid` holds (descriptors naming `socket:[inode]`
    /// or `pipe:[inode]`). A socket a bot may have is one of a Unix pair
    /// (seccomp refuses every other, and passing one through another), so
    /// each is one of its descriptors; a few dozen reads of a link per
    /// measure.
    pub(crate) fn add_process(&mut self, pid: Pid) {
        self.add_descriptors(&format!("/proc/{}/fd", pid.as_raw_nonzero()));
    }

    /// Adds what the descriptors in `folder` (a `/proc/.../fd`) hold.
    pub(crate) fn add_descriptors(&mut self, folder: &str) {
        let entries = match std::fs::read_dir(folder) {
            Ok(entries) => entries,
            Err(e) => {
                // Gone is nothing held; refused is hidden.
                self.hidden |= e.kind() == std::io::ErrorKind::PermissionDenied;
                return;
            }
        };
        for entry in entries.filter_map(Result::ok) {
            let Ok(target) = std::fs::read_link(entry.path()) else {
                continue;
            };
            let target = target.as_os_str().as_encoded_bytes();
            if target.starts_with(b"socket:") {
                self.sockets += 1;
            } else if let Some(inode) = target
                .strip_prefix(b"pipe:[")
                .and_then(|rest| rest.strip_suffix(b"]"))
                .and_then(|digits| std::str::from_utf8(digits).ok())
                .and_then(|digits| digits.parse().ok())
            {
                self.pipes.insert(inode);
            }
        }
    }

    /// What they are counted as, in KiB, leaving out the pipes in
    /// `referees` (the bot's stdin, stdout and stderr, whose other ends the
    /// referee reads and writes); where descriptors were hidden, at least
    /// `open_files` sockets (the bot's `RLIMIT_NOFILE`: the most it could
    /// hold unseen). Such a bot once stuffed 17 MiB of socket buffers
    /// under an 8 + 16 MiB cap and played `ok` at 10.7 MiB.
    pub(crate) fn charge_kb(&self, referees: &[u64], open_files: u64) -> u64 {
        let pipes = self.pipes.iter().filter(|p| !referees.contains(p)).count() as u64;
        let seen = self.sockets * socket_charge_kb() + pipes * pipe_charge_kb();
        if self.hidden {
            seen.max(open_files * socket_charge_kb())
        } else {
            seen
        }
    }
}

/// Memory a bot's pipe is counted as, in KiB: the most it can hold, 16
/// pages (a bot may not enlarge it: seccomp refuses `F_SETPIPE_SZ`), 64 KiB
/// with pages of 4 KiB. The memory of a pipe's data is the kernel's,
/// charged to no resident size: 39 pipes enlarged to 1 MiB each held
/// 30 MiB beside a bot of 2.5 MiB before.
pub fn pipe_charge_kb() -> u64 {
    16 * (rustix::param::page_size() as u64 / 1024)
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
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid pointer to a local; any clock id is safe to ask.
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// Waits for `pid` (the launcher) and says how it ended. Only called once
/// the pidfd said the process exited, or after SIGKILL, so it returns
/// quickly.
fn reap(pid: Pid) -> Option<Exit> {
    loop {
        let status =
            match rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty()) {
                Err(Errno::INTR) => continue,
                Ok(Some((_, status))) => status,
                _ => return None,
            };
        return if let Some(code) = status.exit_status() {
            Some(Exit::Code(code))
        } else {
            status.terminating_signal().map(Exit::Signal)
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
