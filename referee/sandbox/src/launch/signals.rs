//! What a child of a fork of the referee leaves behind first: the
//! referee's signal dispositions and mask, and (a bot's) its descriptors.

/// Which child of a fork of the referee leaves the referee's state behind.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Forked {
    /// A launcher, which runs on (its descriptors are set apart, see
    /// `start::launcher_child`): SIGPIPE ignored, as in any Rust program.
    Launcher,
    /// A bot the referee starts itself, about to exec: SIGPIPE at its
    /// default too (as a launcher's bot has it: `Command` resets it before
    /// this runs), and nothing the referee has open (the other bots' pipes,
    /// its files) outlives the exec; the secrets layer stays open until
    /// then.
    Bot,
}

/// The signals not at their default in the referee, for its bots' children
/// to put back ([`leave_the_referee`]).
static NOT_AT_DEFAULT: std::sync::OnceLock<Vec<libc::c_int>> = std::sync::OnceLock::new();

/// Finds, once and before the first fork of a bot, the signals not at their
/// default in the referee: those ignored since it started (by its parent,
/// e.g. `nohup`, or by the Rust runtime: SIGPIPE) and those it handles.
/// The referee ignores none later, and the signals it handles are in the
/// list whatever they were when it was made. SIGPIPE is not in it:
/// [`leave_the_referee`] sets it in every child.
pub(crate) fn find_signals_not_at_default() {
    NOT_AT_DEFAULT.get_or_init(|| {
        let mut signals = vec![libc::SIGINT, libc::SIGTERM];
        for signal in 1..libc::SIGRTMAX() {
            if [libc::SIGKILL, libc::SIGSTOP, libc::SIGPIPE].contains(&signal)
                || signals.contains(&signal)
            {
                continue;
            }
            // SAFETY: a query (no new action) into a local, which sigaction
            // fills in; zeroed is a valid value of this plain struct.
            let handled = unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                    && old.sa_sigaction != libc::SIG_DFL
            };
            if handled {
                signals.push(signal);
            }
        }
        signals
    });
}

/// First in a child of a fork of the referee: none of the referee's
/// signal handlers (a flag for Ctrl-C) runs in it, every signal goes back
/// to its default (but SIGPIPE for a launcher) and none is blocked (a mask
/// the forking thread had); for a bot, every descriptor from 3 up is
/// closed at exec.
pub(crate) fn leave_the_referee(forked: Forked) {
    let pipe = match forked {
        Forked::Launcher => libc::SIG_IGN,
        Forked::Bot => libc::SIG_DFL,
    };
    // SAFETY: system calls with integer arguments and a pointer to a local.
    unsafe {
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        match (forked, NOT_AT_DEFAULT.get()) {
            // A bot's exec puts every handled signal back to its default:
            // only those the referee ignores (or handles, until the exec)
            // need it, a few calls where trying each took 62.
            (Forked::Bot, Some(signals)) => {
                for &signal in signals {
                    libc::signal(signal, libc::SIG_DFL);
                }
            }
            _ => {
                for signal in 1..libc::SIGRTMAX() {
                    if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                        libc::signal(signal, libc::SIG_DFL);
                    }
                }
            }
        }
        libc::signal(libc::SIGPIPE, pipe);
        if forked == Forked::Bot
            && libc::syscall(
                libc::SYS_close_range,
                3 as libc::c_uint,
                libc::c_uint::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            ) != 0
        {
            for fd in 3..65536 {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
}
