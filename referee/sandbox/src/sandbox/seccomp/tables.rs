//! What the filter refuses, table by table, with the errno of each: the
//! policy's words, before [`compile`] lays them out as one program.

use super::*;

/// The seccomp policy every bot gets (x86-64; elsewhere none), for the bot
/// whose pid is `own` (also its process group and session: it called
/// setsid). One table per answer, compiled into one program behind a
/// guard against the x32 system calls ([`compile`]).
///
/// EPERM:
/// - `ptrace`, `process_vm_readv`, `process_vm_writev`, `pidfd_getfd`,
///   `process_madvise`: no reading or steering another process;
/// - signals: `kill` only to itself (`own`) or its own group (`0`, `-own`),
///   `tgkill` only to threads of its own process, `tkill` and
///   `pidfd_send_signal` never. So a bot cannot stop or kill the other bot
///   or the referee, even though they share a user id. The price:
///   processes a bot forks may signal the bot and its group, but not each
///   other or themselves by pid.
/// - new processes: unless `allow_fork`, `fork`, `vfork` and a `clone`
///   without `CLONE_THREAD` (threads are fine). A fork bomb then goes
///   nowhere, whatever the user's process limit.
/// - no new namespaces: `unshare`, `setns`, and a `clone` asking for any
///   new namespace (a bot in a user namespace of its own could otherwise
///   make mount and network namespaces in it).
/// - CPU placement and priority: `sched_setaffinity` always (a bot stays on
///   the CPU the referee pinned it to); `sched_setscheduler`,
///   `sched_setparam`, `sched_setattr`, `prlimit64` for any process but
///   itself (pid 0); `setpriority` and `ioprio_set` for anything but
///   itself (`PRIO_PROCESS`/`IOPRIO_WHO_PROCESS`, who 0). Under basic the
///   opponent has the same user id, so the kernel alone would allow these.
/// - `setsid`, `setpgid`: the bot's processes stay in its group, which the
///   referee stops between moves and kills at the end.
/// - the kernel keyring (`add_key`, `request_key`, `keyctl`): storage shared
///   by every process of a user id, outside any folder.
///
/// - file attributes, unless a compiler's: `chmod`, `chown`, `utime` and
///   their kin, and setting or removing extended attributes. Landlock does
///   not cover them, and a bot that keeps uid 0 (basic, as root) owns the
///   system's files: it could make its opponent's script unreadable, or
///   keep notes for a later game in a file's times. A linker marks its
///   output executable, so compilers may.
///
/// - pipes and signals on descriptors, unless a compiler's: `fcntl`'s
///   `F_SETPIPE_SZ` (a pipe keeps the 16 pages it is charged as) and
///   `F_SETSIG`; `mknod` and `mknodat` (no fifo).
/// - file locks, leases and folder watches, unless a compiler's (`go
///   build` locks its cache): `flock`, `fcntl`'s record locks (`F_GETLK`,
///   `F_SETLK`, `F_SETLKW` and their `F_OFD_` kin), `F_SETLEASE` and
///   `F_NOTIFY`. A lock on a file two bots may both read is a channel
///   between them, in one game or in two played at once, and record
///   locks are kernel memory the resident measure cannot see.
///
/// EACCES: `socket`: no network, and no Unix socket file on the machine to
/// connect to. `socketpair` but for `AF_UNIX`: a connected pair is all a
/// runtime needs (the JDK makes one to close files safely, and Java's
/// `java.nio` fails without it). Socket buffers hold memory the resident
/// measure cannot see (120 pairs with 8 MiB buffers held about 900 MiB), so
/// a bot may not size them (`setsockopt`: every socket keeps the machine's
/// default, `net.core.wmem_default`), nor pass a socket through another
/// (`sendmsg`, `sendmmsg`: a socket in flight outlives its descriptors),
/// and the referee counts each socket it holds with its memory
/// ([`socket_charge_kb`](super::socket_charge_kb)): under strict those of
/// all its processes. Compilers may open Unix sockets.
///
/// ENOSYS (so that the C library and runtimes fall back, as on an old
/// kernel): `clone3`, whose flags a filter cannot read (libc falls back to
/// `clone`); io_uring (`io_uring_setup`, `_enter`, `_register`), which
/// opens sockets without `socket(2)`; memory the resident measure cannot
/// see: `memfd_create`, System V shared memory (`shmget` and the rest);
/// ways for two bots to talk, or for a bot to leave a message on the
/// machine for a later game (the objects outlive it): System V message
/// queues and semaphores (`msgget`, `semget` and the rest), POSIX message
/// queues (`mq_open`, `mq_unlink`); `splice`, `vmsplice` and `tee` (pages
/// spliced into a pipe or socket stay held after their mapping is gone:
/// a gigabyte uncounted); kernel AIO (`io_setup`, `io_submit`: the
/// machine's contexts); inotify and fanotify (the user's instances, and
/// names created in folders the bot may not list).
///
/// The tables come with the errno each answers, in the order they would be
/// installed one by one (the last installed answers first; see
/// [`compile`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn seccomp_tables(own: i32, policy: SeccompPolicy) -> [(Rules, i32); 3] {
    [
        (refused_rules(own, policy), libc::EPERM),
        (no_network_rules(policy), libc::EACCES),
        (missing_rules(), libc::ENOSYS),
    ]
}

/// System calls with the rules under which each is refused; none listed:
/// always. A call is refused when any of its rules matches; a rule matches
/// when all its conditions hold. A call listed twice keeps its last rules.
#[cfg(target_arch = "x86_64")]
pub(crate) type Rules = Vec<(i64, Vec<Rule>)>;

/// Conditions that must all hold.
#[cfg(target_arch = "x86_64")]
pub(crate) type Rule = Vec<Condition>;

/// A condition on an argument of the call, with the meaning (and the
/// 32- or 64-bit reach) of seccompiler's conditions of the same name,
/// which the tests compile the tables with to check [`compile`] against.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Condition {
    /// The argument's low 32 bits (an int) are not `value`; its high 32
    /// bits are not looked at (seccompiler's `Dword` `Ne`), so a negative
    /// int passed sign-extended compares as the int it is.
    IntIsNot { arg: u8, value: u32 },
    /// The argument, all 64 bits, masked by `mask`, equals `value` masked
    /// by `mask` (seccompiler's `Qword` `MaskedEq`).
    Masked { arg: u8, mask: u64, value: u64 },
}

/// Argument `arg` (an int) is not `value` (its low 32 bits).
#[cfg(target_arch = "x86_64")]
pub(crate) fn arg_is_not(arg: u8, value: u64) -> Condition {
    Condition::IntIsNot {
        arg,
        value: value as u32,
    }
}

/// Argument `arg` has all of `bits` set (or, `set` false, none of them).
#[cfg(target_arch = "x86_64")]
pub(crate) fn arg_has(arg: u8, bits: u64, set: bool) -> Condition {
    Condition::Masked {
        arg,
        mask: bits,
        value: if set { bits } else { 0 },
    }
}

/// The EPERM table (see [`seccomp_tables`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn refused_rules(own: i32, policy: SeccompPolicy) -> Rules {
    let allow_fork = policy.allows_fork();
    let always = Vec::new;
    let own = own as u32 as u64;
    let own_group = (own as u32).wrapping_neg() as u64;
    let mut refused: Rules = vec![
        (libc::SYS_ptrace, always()),
        (libc::SYS_process_vm_readv, always()),
        (libc::SYS_process_vm_writev, always()),
        (libc::SYS_pidfd_getfd, always()),
        (libc::SYS_process_madvise, always()),
        (libc::SYS_pidfd_send_signal, always()),
        (libc::SYS_tkill, always()),
        (
            libc::SYS_kill,
            vec![vec![
                arg_is_not(0, 0),
                arg_is_not(0, own),
                arg_is_not(0, own_group),
            ]],
        ),
        (libc::SYS_tgkill, vec![vec![arg_is_not(0, own)]]),
        (libc::SYS_unshare, always()),
        (libc::SYS_setns, always()),
        (libc::SYS_sched_setaffinity, always()),
        (libc::SYS_sched_setscheduler, vec![vec![arg_is_not(0, 0)]]),
        (libc::SYS_sched_setparam, vec![vec![arg_is_not(0, 0)]]),
        (libc::SYS_sched_setattr, vec![vec![arg_is_not(0, 0)]]),
        (libc::SYS_prlimit64, vec![vec![arg_is_not(0, 0)]]),
        (
            libc::SYS_setpriority,
            vec![
                vec![arg_is_not(0, libc::PRIO_PROCESS as u64)],
                vec![arg_is_not(1, 0)],
            ],
        ),
        // IOPRIO_WHO_PROCESS is 1.
        (
            libc::SYS_ioprio_set,
            vec![vec![arg_is_not(0, 1)], vec![arg_is_not(1, 0)]],
        ),
        (libc::SYS_setsid, always()),
        (libc::SYS_setpgid, always()),
        (libc::SYS_add_key, always()),
        (libc::SYS_request_key, always()),
        (libc::SYS_keyctl, always()),
    ];
    if !allow_fork {
        refused.push((libc::SYS_fork, always()));
        refused.push((libc::SYS_vfork, always()));
    }
    refused.push((libc::SYS_clone, clone_rules(allow_fork)));
    if policy != SeccompPolicy::Compiler {
        refused.extend(FILE_ATTRIBUTE_CALLS.iter().map(|&nr| (nr, always())));
        // A pipe's buffer is the kernel's memory, which the referee
        // charges at its default size: it may not grow. No signal of a
        // bot's choosing on a descriptor's events (a SIGCONT would
        // continue it while it is stopped), and no fifo in its folder
        // (a pipe outside any descriptor count of its processes').
        let fcntl_command = |command: i32| {
            vec![Condition::Masked {
                arg: 1,
                mask: u64::from(u32::MAX),
                value: command as u32 as u64,
            }]
        };
        // No lock, lease or folder watch either: a lock is seen by every
        // process that opens the same file, whatever its sandbox, so two
        // bots (one game's, or a copy in a parallel game) locking and
        // testing a file both may read (`/etc/passwd`, the shared script)
        // talked through it, a number at a time (a record lock's offset);
        // and each record lock is kernel memory outside the resident
        // measure. `F_NOTIFY` (dnotify) reports every read in a folder, as
        // inotify did (refused below).
        refused.push((
            libc::SYS_fcntl,
            vec![
                fcntl_command(libc::F_SETPIPE_SZ),
                fcntl_command(10), // F_SETSIG
                fcntl_command(libc::F_GETLK),
                fcntl_command(libc::F_SETLK),
                fcntl_command(libc::F_SETLKW),
                fcntl_command(libc::F_OFD_GETLK),
                fcntl_command(libc::F_OFD_SETLK),
                fcntl_command(libc::F_OFD_SETLKW),
                fcntl_command(libc::F_SETLEASE),
                fcntl_command(libc::F_NOTIFY),
            ],
        ));
        refused.push((libc::SYS_flock, always()));
        refused.push((libc::SYS_mknod, always()));
        refused.push((libc::SYS_mknodat, always()));
    }
    refused
}

/// When `clone` is refused: a new namespace of any kind, and unless
/// `allow_fork`, a new process (no `CLONE_THREAD`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn clone_rules(allow_fork: bool) -> Vec<Rule> {
    let mut rules = Vec::new();
    for flag in [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWCGROUP,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
        0x80, // CLONE_NEWTIME
    ] {
        rules.push(vec![arg_has(0, flag as u64, true)]);
    }
    if !allow_fork {
        rules.push(vec![arg_has(0, libc::CLONE_THREAD as u64, false)]);
    }
    rules
}

/// System calls that change a file's mode, owner, times or extended
/// attributes (see [`seccomp_tables`]). `fchmodat2`, `setxattrat` and
/// `removexattrat` are newer than the C library's list.
#[cfg(target_arch = "x86_64")]
pub(crate) const FILE_ATTRIBUTE_CALLS: [i64; 20] = [
    libc::SYS_chmod,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    452, // fchmodat2
    libc::SYS_chown,
    libc::SYS_fchown,
    libc::SYS_lchown,
    libc::SYS_fchownat,
    libc::SYS_utime,
    libc::SYS_utimes,
    libc::SYS_futimesat,
    libc::SYS_utimensat,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    463, // setxattrat
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    466, // removexattrat
];

/// The EACCES table: `socket`, `socketpair` but for AF_UNIX, `setsockopt`,
/// `sendmsg` and `sendmmsg`; for a compiler, `socket` but for AF_UNIX.
#[cfg(target_arch = "x86_64")]
pub(crate) fn no_network_rules(policy: SeccompPolicy) -> Rules {
    let not_unix = || vec![vec![arg_is_not(0, libc::AF_UNIX as u64)]];
    if policy == SeccompPolicy::Compiler {
        return vec![(libc::SYS_socket, not_unix())];
    }
    vec![
        (libc::SYS_socket, Vec::new()),
        (libc::SYS_socketpair, not_unix()),
        (libc::SYS_setsockopt, Vec::new()),
        (libc::SYS_sendmsg, Vec::new()),
        (libc::SYS_sendmmsg, Vec::new()),
    ]
}

/// The ENOSYS table.
#[cfg(target_arch = "x86_64")]
pub(crate) fn missing_rules() -> Rules {
    [
        libc::SYS_clone3,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_memfd_create,
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmdt,
        libc::SYS_shmctl,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semtimedop,
        libc::SYS_semctl,
        libc::SYS_mq_open,
        libc::SYS_mq_unlink,
        // Pages moved into a pipe or socket stay held when their mapping
        // is gone: 2 MiB a byte of a huge page, uncounted.
        libc::SYS_splice,
        libc::SYS_vmsplice,
        libc::SYS_tee,
        // The machine's kernel AIO contexts (`fs.aio-max-nr`), which one
        // bot could take from every process.
        libc::SYS_io_setup,
        libc::SYS_io_submit,
        // A user's inotify instances (128) are shared by all its
        // processes, and a watch reports names created in folders the
        // bot may not list.
        libc::SYS_inotify_init,
        libc::SYS_inotify_init1,
        libc::SYS_fanotify_init,
    ]
    .into_iter()
    .map(|nr| (nr, Vec::new()))
    .collect()
}
