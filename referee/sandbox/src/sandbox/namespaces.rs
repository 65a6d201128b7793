//! The namespaces of strict bots: the network and IPC namespaces every
//! strict bot of a referee shares, and the one `unshare` of namespaces
//! the referee and its bots' children make.

use std::io;

/// The namespaces every strict bot of this referee joins, made once by
/// [`shared_namespaces`].
#[derive(Debug, Default)]
pub struct SharedNamespaces {
    /// An empty network namespace (a namespace of its own per bot cost
    /// about 0.3 ms to make and more to tear down, see
    /// docs/measurements.md): its loopback is down, and a bot holds no
    /// capability to change that. Sharing it opens nothing between bots:
    /// seccomp refuses every socket but a Unix one, Landlock (ABI 6)
    /// refuses connecting to an abstract Unix socket made outside the
    /// bot's own domain, and socket files live in folders no other bot
    /// reaches. `None` on a kernel whose Landlock cannot scope abstract
    /// sockets: each bot gets a namespace of its own, as before.
    network: Option<std::os::fd::OwnedFd>,
    /// An IPC namespace apart from the machine's (60 µs a bot to make, on
    /// this machine). Sharing it opens nothing between bots either: seccomp
    /// refuses every System V IPC call and POSIX message queues. `None` if
    /// it could not be made: each bot gets one of its own.
    ipc: Option<std::os::fd::OwnedFd>,
}

impl SharedNamespaces {
    pub fn network(&self) -> Option<std::os::fd::RawFd> {
        self.network.as_ref().map(std::os::fd::AsRawFd::as_raw_fd)
    }

    pub fn ipc(&self) -> Option<std::os::fd::RawFd> {
        self.ipc.as_ref().map(std::os::fd::AsRawFd::as_raw_fd)
    }
}

/// The namespaces strict bots share (see [`SharedNamespaces`]), made on
/// first use.
pub fn shared_namespaces() -> &'static SharedNamespaces {
    static SHARED: std::sync::OnceLock<SharedNamespaces> = std::sync::OnceLock::new();
    SHARED.get_or_init(|| {
        let with_network = shares_network_namespace();
        // Namespaces belong to threads: a thread of its own enters new
        // ones, keeps a handle on each and ends; the referee's other
        // threads stay where they are. A thread the system refuses (a
        // process limit) leaves none shared, as a failed unshare does.
        std::thread::Builder::new()
            .spawn(move || {
                let handle = |kind: &str| {
                    std::fs::File::open(format!("/proc/thread-self/ns/{kind}"))
                        .ok()
                        .map(std::os::fd::OwnedFd::from)
                };
                let unshare = |flag: libc::c_int| unshare_namespaces(flag).is_ok();
                let network = (with_network && unshare(libc::CLONE_NEWNET))
                    .then(|| handle("net"))
                    .flatten();
                let ipc = unshare(libc::CLONE_NEWIPC).then(|| handle("ipc")).flatten();
                SharedNamespaces { network, ipc }
            })
            .ok()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    })
}

/// unshare(2) of namespaces only, for the calling thread (its next
/// children, for a PID namespace). No flag that parts a thread's
/// descriptors, file-system context, memory or signal handlers from the
/// other threads' is passed on;
/// the kernel itself refuses a mount or user namespace to a thread of a
/// multi-threaded process (they imply `CLONE_FS`).
pub(crate) fn unshare_namespaces(flags: libc::c_int) -> io::Result<()> {
    const NAMESPACES: libc::c_int = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUSER
        | libc::CLONE_NEWUTS
        | libc::CLONE_NEWCGROUP;
    if flags & !NAMESPACES != 0 {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    // SAFETY: namespace flags only (checked above): no descriptor table,
    // file-system context or memory of other threads is affected.
    match unsafe { libc::unshare(flags) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// Whether strict bots share a network namespace on this kernel (see
/// [`SharedNamespaces`]).
pub(crate) fn shares_network_namespace() -> bool {
    crate::landlock::kernel_abi().is_some_and(|abi| abi >= crate::landlock::FULL_ABI)
}
