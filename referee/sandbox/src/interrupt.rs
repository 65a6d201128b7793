//! Ctrl-C for a person at the terminal: a SIGINT handler without
//! `SA_RESTART`, so a blocked read of the person's line returns `EINTR` and
//! the game can end cleanly (terminal restored, bot killed). It lives here
//! because installing a handler is unsafe code, which only this crate has.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the SIGINT handler; the read it interrupts then sees `EINTR`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Catches Ctrl-C for the life of a game (so the terminal is restored and
/// the bot killed before exit) and puts the old handler back on drop.
pub struct SigintGuard {
    old: libc::sigaction,
}

impl SigintGuard {
    pub fn install() -> io::Result<SigintGuard> {
        INTERRUPTED.store(false, Ordering::SeqCst);
        // SAFETY: plain sigaction calls with initialised structs; the handler
        // only stores to an atomic (async-signal-safe). No SA_RESTART, so a
        // blocked read returns EINTR.
        unsafe {
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            new.sa_flags = 0;
            libc::sigemptyset(&mut new.sa_mask);
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, &new, &mut old) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(SigintGuard { old })
        }
    }
}

impl Drop for SigintGuard {
    fn drop(&mut self) {
        // SAFETY: restores the handler saved by `install`.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.old, std::ptr::null_mut());
        }
    }
}

impl SigintGuard {
    /// Whether Ctrl-C was pressed since [`SigintGuard::install`].
    pub fn interrupted() -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }
}
