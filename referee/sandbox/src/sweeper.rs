//! What a referee made on the machine is removed when it dies, whatever it
//! dies of. The referee removes its bots' working folders and cgroups itself
//! when it ends (and at a second Ctrl-C); killed with SIGKILL, or crashing,
//! it cannot. A sweeper, forked at the referee's start, waits for the end of
//! a pipe whose only writers are the referee and its own forks (the
//! launchers that live as long as their bots): once every one of them is
//! gone, the pipe reads as ended, and the sweeper removes what they left —
//! the bots' cgroups (whatever still runs in them killed first) and the
//! folders of working directories, by the same rules as a later referee
//! would (only those whose referee is gone, see `workdir`). Without it they
//! stayed until the next referee that plays.
//!
//! The sweeper is forked before the referee has a second thread, so the
//! child is an ordinary single-threaded copy; it runs in a session of its
//! own (a Ctrl-C at the terminal, or a kill of the referee's process group,
//! does not end it before it has swept), with its standard streams on
//! `/dev/null` (a pipeline reading the referee's output ends with the
//! referee, not with its sweeper). A referee that ends normally has removed
//! what it made: it ends its sweeper and reaps it ([`Sweeper::dismiss`]), so
//! no process of its outlives it.

use std::os::fd::OwnedFd;

use rustix::process::{Pid, Signal};

/// The sweeper's process, and the pipe's end whose closing starts its
/// sweep.
pub struct Sweeper {
    pid: Pid,
    /// Held for the referee's life; the kernel closes it at its death.
    _alive: OwnedFd,
}

/// Forks the sweeper. Call it first thing in `main`, before any thread is
/// started (the child continues as a copy of the calling process). `None`
/// where the fork fails: then, as before, what a killed referee leaves is
/// removed by the next referee that plays.
pub fn start_sweeper() -> Option<Sweeper> {
    let (ended, alive) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).ok()?;
    // SAFETY: the calling process has one thread (see above), so the child
    // is a whole copy of it and may run any code; it never returns from
    // `sweep_after_the_referee`.
    let forked = unsafe { libc::fork() };
    match forked {
        0 => {
            drop(alive);
            sweep_after_the_referee(ended)
        }
        pid if pid > 0 => Some(Sweeper {
            pid: Pid::from_raw(pid)?,
            _alive: alive,
        }),
        _ => None,
    }
}

impl Sweeper {
    /// Ends the sweeper without a sweep, and reaps it: the referee ends
    /// normally and has removed what it made.
    pub fn dismiss(self) {
        let _ = rustix::process::kill_process(self.pid, Signal::KILL);
        let _ = crate::reap(self.pid);
    }
}

/// The sweeper's life: waits for the pipe's end, sweeps, exits.
fn sweep_after_the_referee(ended: OwnedFd) -> ! {
    // As the referee itself does once it has parsed them: its arguments
    // (a seed, a key) are for no other process's eyes, nor its memory.
    crate::sandbox::hide_command_line();
    crate::sandbox::protect_referee();
    let _ = rustix::process::setsid();
    let _ = rustix::thread::set_name(c"referee-sweep");
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = rustix::stdio::dup2_stdin(&null);
        let _ = rustix::stdio::dup2_stdout(&null);
        let _ = rustix::stdio::dup2_stderr(&null);
    }
    // The referee, to wait for its whole end below (opened now: it is
    // this process's parent until it dies).
    let referee = rustix::process::getppid().and_then(|pid| {
        rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
    });
    // Nothing is ever written: a read returns at the end only (or at a
    // signal's interruption, then it reads again).
    let mut byte = [0u8; 1];
    while let Err(rustix::io::Errno::INTR) = rustix::io::read(&ended, &mut byte) {}
    // The pipe ends as the referee's descriptors are closed, a moment
    // before its exit is done: meanwhile it is still a running process,
    // whose folders and cgroups the rules below leave alone (seen in CI
    // after a second Ctrl-C: its cgroups were left). Its pidfd is readable
    // once it has exited.
    if let Some(referee) = &referee {
        let mut fds = [rustix::event::PollFd::new(
            referee,
            rustix::event::PollFlags::IN,
        )];
        let most = rustix::event::Timespec {
            tv_sec: 5,
            tv_nsec: 0,
        };
        while let Err(rustix::io::Errno::INTR) = rustix::event::poll(&mut fds, Some(&most)) {}
    }
    let _ = std::panic::catch_unwind(|| {
        // Cgroups first: their bots are killed while their folders, which
        // tell whether their referee is gone, are still there.
        crate::sandbox::remove_stale_cgroups();
        crate::workdir::remove_stale_workdirs_everywhere();
    });
    std::process::exit(0)
}
