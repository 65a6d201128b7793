//! The seccomp filter of a bot: its tables (what each answer refuses),
//! chained into one program behind the x32 guard and a shortcut for the
//! calls no table lists, built once per policy with a stand-in pid.

/// The seccomp policy every bot gets (x86-64; elsewhere none), for the bot
/// whose pid is `own` (also its process group and session: it called
/// setsid). One table per answer, built by seccompiler
/// ([`programs_of`]), after a guard against the x32 system calls.
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
/// queues (`mq_open`, `mq_unlink`).
///
/// The tables come with the errno each answers, in the order they are
/// installed.
#[cfg(target_arch = "x86_64")]
pub(crate) fn seccomp_tables(
    own: i32,
    policy: SeccompPolicy,
) -> Result<[(Rules, i32); 3], seccompiler::Error> {
    Ok([
        (refused_rules(own, policy)?, libc::EPERM),
        (no_network_rules(policy)?, libc::EACCES),
        (missing_rules(), libc::ENOSYS),
    ])
}

/// Each table as a program of its own, in the order given.
#[cfg(target_arch = "x86_64")]
pub(crate) fn programs_of(
    tables: [(Rules, i32); 3],
) -> Result<Vec<seccompiler::BpfProgram>, seccompiler::Error> {
    use seccompiler::{SeccompAction, SeccompFilter, TargetArch};
    let mut programs = Vec::new();
    for (rules, errno) in tables {
        let filter = SeccompFilter::new(
            rules.into_iter().collect(),
            SeccompAction::Allow,
            SeccompAction::Errno(errno as u32),
            TargetArch::x86_64,
        )?;
        programs.push(filter.try_into()?);
    }
    Ok(programs)
}

/// System calls with the rules under which each is refused; none listed:
/// always. A rule matches when all its conditions hold.
#[cfg(target_arch = "x86_64")]
type Rules = Vec<(i64, Vec<seccompiler::SeccompRule>)>;

/// A rule of conditions.
#[cfg(target_arch = "x86_64")]
pub(crate) fn rule(
    conditions: Vec<seccompiler::SeccompCondition>,
) -> Result<seccompiler::SeccompRule, seccompiler::Error> {
    Ok(seccompiler::SeccompRule::new(conditions)?)
}

/// Argument `arg` (an int) is not `value`.
#[cfg(target_arch = "x86_64")]
pub(crate) fn arg_is_not(
    arg: u8,
    value: u64,
) -> Result<seccompiler::SeccompCondition, seccompiler::Error> {
    use seccompiler::{SeccompCmpArgLen, SeccompCmpOp, SeccompCondition};
    Ok(SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::Ne,
        value,
    )?)
}

/// Argument `arg` has all of `bits` set (or, `set` false, none of them).
#[cfg(target_arch = "x86_64")]
pub(crate) fn arg_has(
    arg: u8,
    bits: u64,
    set: bool,
) -> Result<seccompiler::SeccompCondition, seccompiler::Error> {
    use seccompiler::{SeccompCmpArgLen, SeccompCmpOp, SeccompCondition};
    Ok(SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(bits),
        if set { bits } else { 0 },
    )?)
}

/// The EPERM table (see [`seccomp_tables`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn refused_rules(own: i32, policy: SeccompPolicy) -> Result<Rules, seccompiler::Error> {
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
            vec![rule(vec![
                arg_is_not(0, 0)?,
                arg_is_not(0, own)?,
                arg_is_not(0, own_group)?,
            ])?],
        ),
        (libc::SYS_tgkill, vec![rule(vec![arg_is_not(0, own)?])?]),
        (libc::SYS_unshare, always()),
        (libc::SYS_setns, always()),
        (libc::SYS_sched_setaffinity, always()),
        (
            libc::SYS_sched_setscheduler,
            vec![rule(vec![arg_is_not(0, 0)?])?],
        ),
        (
            libc::SYS_sched_setparam,
            vec![rule(vec![arg_is_not(0, 0)?])?],
        ),
        (
            libc::SYS_sched_setattr,
            vec![rule(vec![arg_is_not(0, 0)?])?],
        ),
        (libc::SYS_prlimit64, vec![rule(vec![arg_is_not(0, 0)?])?]),
        (
            libc::SYS_setpriority,
            vec![
                rule(vec![arg_is_not(0, libc::PRIO_PROCESS as u64)?])?,
                rule(vec![arg_is_not(1, 0)?])?,
            ],
        ),
        // IOPRIO_WHO_PROCESS is 1.
        (
            libc::SYS_ioprio_set,
            vec![
                rule(vec![arg_is_not(0, 1)?])?,
                rule(vec![arg_is_not(1, 0)?])?,
            ],
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
    refused.push((libc::SYS_clone, clone_rules(allow_fork)?));
    if policy != SeccompPolicy::Compiler {
        refused.extend(FILE_ATTRIBUTE_CALLS.iter().map(|&nr| (nr, always())));
    }
    Ok(refused)
}

/// When `clone` is refused: a new namespace of any kind, and unless
/// `allow_fork`, a new process (no `CLONE_THREAD`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn clone_rules(
    allow_fork: bool,
) -> Result<Vec<seccompiler::SeccompRule>, seccompiler::Error> {
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
        rules.push(rule(vec![arg_has(0, flag as u64, true)?])?);
    }
    if !allow_fork {
        rules.push(rule(vec![arg_has(0, libc::CLONE_THREAD as u64, false)?])?);
    }
    Ok(rules)
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
pub(crate) fn no_network_rules(policy: SeccompPolicy) -> Result<Rules, seccompiler::Error> {
    let not_unix = || -> Result<Vec<seccompiler::SeccompRule>, seccompiler::Error> {
        Ok(vec![rule(vec![arg_is_not(0, libc::AF_UNIX as u64)?])?])
    };
    if policy == SeccompPolicy::Compiler {
        return Ok(vec![(libc::SYS_socket, not_unix()?)]);
    }
    Ok(vec![
        (libc::SYS_socket, Vec::new()),
        (libc::SYS_socketpair, not_unix()?),
        (libc::SYS_setsockopt, Vec::new()),
        (libc::SYS_sendmsg, Vec::new()),
        (libc::SYS_sendmmsg, Vec::new()),
    ])
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
    ]
    .into_iter()
    .map(|nr| (nr, Vec::new()))
    .collect()
}

/// The guard, as if installed first (last in the chain): x32 system calls
/// (the same calls under numbers the tables do not list) fail with EPERM.
/// Jumps count from the next instruction; each path is tested in
/// `x32_guard_refuses_only_x32`.
#[cfg(target_arch = "x86_64")]
pub(crate) const X32_GUARD: [libc::sock_filter; 6] = {
    const LD_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RET: u16 = 0x06; // BPF_RET | BPF_K
    const fn op(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
        libc::sock_filter { code, jt, jf, k }
    }
    // seccomp_data: nr at 0, arch at 4.
    [
        /* 0 */ op(LD_ABS, 0, 0, 4),
        /* 1 */ op(JEQ, 0, 3, AUDIT_ARCH_X86_64), // else 5: the tables kill it
        /* 2 */ op(LD_ABS, 0, 0, 0),
        /* 3 */ op(JGE, 0, 1, X32_SYSCALL_BIT), // x32: 4, else 5
        /* 4 */ op(RET, 0, 0, SECCOMP_EPERM),
        /* 5 */ op(RET, 0, 0, SECCOMP_ALLOW),
    ]
};
/// Programs meant to be installed one after the other, as one program
/// that answers as the kernel would have.
///
/// The kernel runs every installed filter on each system call and keeps
/// the strongest answer (a kill over an errno over allow); between answers
/// of the same kind, the filter installed last wins. Chained last
/// installed first, where each program would allow the call it jumps to
/// the next one instead, so the first answer that is not "allow" is the
/// one the kernel would have kept: ours are the x32 guard's errno, the
/// tables' errnos and the tables' kill for another architecture, which
/// every table asks first and so comes before any errno of theirs.
///
/// Why: each filter installed costs the kernel a check, a translation and
/// a compilation to machine code, per bot: one program of the same
/// instructions costs one.
#[cfg(target_arch = "x86_64")]
pub(crate) fn chained(programs: &[seccompiler::BpfProgram]) -> seccompiler::BpfProgram {
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K
    const JA: u16 = 0x05; // BPF_JMP | BPF_JA: pc += 1 + k
    let mut chain = Vec::with_capacity(programs.iter().map(Vec::len).sum());
    let mut rest = programs.iter().rev().peekable();
    while let Some(program) = rest.next() {
        let last = rest.peek().is_none();
        for (i, instruction) in program.iter().enumerate() {
            if !last && instruction.code == RET_K && instruction.k == SECCOMP_ALLOW {
                // To the first instruction of the next program.
                chain.push(seccompiler::sock_filter {
                    code: JA,
                    jt: 0,
                    jf: 0,
                    k: (program.len() - i - 1) as u32,
                });
            } else {
                chain.push(instruction.clone());
            }
        }
    }
    chain
}

/// `program` behind a shortcut that allows at once, after a binary search
/// of the call's number, every x86-64 call that no table lists (`listed`,
/// the numbers the tables compare the call's number with); the rest (the
/// listed calls, x32 numbers, another architecture) go through `program`.
///
/// Why: the tables are lists, walked call by call, and the kernel, when
/// it installs a filter, runs it on every call number to know which ones
/// it always allows (its cache, which then skips the filter for them): a
/// walk through every table for each of some 450 numbers, about a tenth of
/// a millisecond per bot, where the search takes a few steps.
#[cfg(target_arch = "x86_64")]
pub(crate) fn with_shortcut(
    listed: &[u32],
    program: seccompiler::BpfProgram,
) -> seccompiler::BpfProgram {
    /// Where a jump of the shortcut goes.
    #[derive(Clone, Copy)]
    enum To {
        /// The instruction after the shortcut: a return of "allow".
        Allow,
        /// The first instruction of `program`.
        Program,
        /// An instruction of the shortcut, by index.
        At(usize),
    }
    /// Instructions; each JA's target is resolved once all are laid out.
    struct Shortcut {
        code: Vec<seccompiler::sock_filter>,
        jumps: Vec<(usize, To)>,
    }
    const LD_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const JA: u16 = 0x05; // BPF_JMP | BPF_JA: pc += 1 + k
    const RET: u16 = 0x06; // BPF_RET | BPF_K
    impl Shortcut {
        fn op(&mut self, code: u16, jt: u8, jf: u8, k: u32) {
            self.code.push(seccompiler::sock_filter { code, jt, jf, k });
        }
        /// Goes to `to` (with a 32-bit offset: a jump's 8-bit ones may
        /// not reach).
        fn jump(&mut self, to: To) {
            self.jumps.push((self.code.len(), to));
            self.op(JA, 0, 0, 0);
        }
        /// Jumps to `to` if the accumulator `test`s true against `k`.
        fn jump_if(&mut self, test: u16, k: u32, to: To) {
            self.op(test, 0, 1, k);
            self.jump(to);
        }
        /// A binary search of the call's number (in the accumulator)
        /// among `sorted`: a listed one goes to the program, others to
        /// "allow".
        fn search(&mut self, sorted: &[u32]) {
            if sorted.len() <= 4 {
                for &nr in sorted {
                    self.jump_if(JEQ, nr, To::Program);
                }
                self.jump(To::Allow);
                return;
            }
            let (low, high) = sorted.split_at(sorted.len() / 2);
            let to_high = self.jumps.len();
            self.jump_if(JGE, high[0], To::At(0));
            self.search(low);
            self.jumps[to_high].1 = To::At(self.code.len());
            self.search(high);
        }
    }
    let mut sorted = listed.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut shortcut = Shortcut {
        code: Vec::new(),
        jumps: Vec::new(),
    };
    // seccomp_data: nr at 0, arch at 4.
    shortcut.op(LD_ABS, 0, 0, 4);
    shortcut.op(JEQ, 1, 0, AUDIT_ARCH_X86_64);
    shortcut.jump(To::Program);
    shortcut.op(LD_ABS, 0, 0, 0);
    shortcut.jump_if(JGE, X32_SYSCALL_BIT, To::Program);
    shortcut.search(&sorted);
    let allow = shortcut.code.len();
    for (at, to) in std::mem::take(&mut shortcut.jumps) {
        let target = match to {
            To::Allow => allow,
            To::Program => allow + 1,
            To::At(index) => index,
        };
        shortcut.code[at].k = (target - at - 1) as u32;
    }
    shortcut.op(RET, 0, 0, SECCOMP_ALLOW);
    shortcut.code.extend(program);
    shortcut.code
}

/// [`X32_GUARD`] as a program.
#[cfg(target_arch = "x86_64")]
pub(crate) fn x32_guard() -> seccompiler::BpfProgram {
    X32_GUARD
        .iter()
        .map(|i| seccompiler::sock_filter {
            code: i.code,
            jt: i.jt,
            jf: i.jf,
            k: i.k,
        })
        .collect()
}

/// The program of the bot whose pid is `own`: the x32 guard and the tables
/// of [`seccomp_tables`], chained into one ([`chained`]) behind the
/// shortcut for the calls no table lists ([`with_shortcut`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn bot_program(
    own: i32,
    policy: SeccompPolicy,
) -> Result<seccompiler::BpfProgram, seccompiler::Error> {
    let tables = seccomp_tables(own, policy)?;
    let listed: Vec<u32> = tables
        .iter()
        .flat_map(|(rules, _)| rules.iter().map(|(nr, _)| *nr as u32))
        .collect();
    let mut programs = vec![x32_guard()];
    programs.extend(programs_of(tables)?);
    Ok(with_shortcut(&listed, chained(&programs)))
}

#[cfg(target_arch = "x86_64")]
pub(crate) const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
#[cfg(target_arch = "x86_64")]
pub(crate) const X32_SYSCALL_BIT: u32 = 0x4000_0000;
#[cfg(target_arch = "x86_64")]
pub(crate) const SECCOMP_ALLOW: u32 = 0x7fff_0000;
#[cfg(target_arch = "x86_64")]
pub(crate) const SECCOMP_EPERM: u32 = 0x0005_0000 | libc::EPERM as u32;

/// Whom a seccomp program confines (see `seccomp_tables`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeccompPolicy {
    /// A bot: threads, but no new process.
    Bot = 0,
    /// A bot that may start processes (`--allow-fork`).
    ForkingBot = 1,
    /// A compiler: it forks (cc1, ld), may change its files' modes and
    /// times (a linker marks its output executable) and open Unix sockets.
    Compiler = 2,
}

impl SeccompPolicy {
    pub const ALL: [SeccompPolicy; 3] = [
        SeccompPolicy::Bot,
        SeccompPolicy::ForkingBot,
        SeccompPolicy::Compiler,
    ];

    pub fn of(allow_fork: bool, compiler: bool) -> SeccompPolicy {
        match (compiler, allow_fork) {
            (true, _) => SeccompPolicy::Compiler,
            (false, true) => SeccompPolicy::ForkingBot,
            (false, false) => SeccompPolicy::Bot,
        }
    }

    pub fn allows_fork(self) -> bool {
        self != SeccompPolicy::Bot
    }
}

/// The seccomp program a bot runs under (`bot_program`). It can be
/// built ahead, for a child that may not allocate between fork and exec
/// (built once in the referee, before the launcher's fork): the tables name a stand-in for
/// the bot's pid, which [`SeccompProgram::install`] replaces by the real
/// one in the child's own copy before installing it.
#[derive(Clone, Debug)]
pub struct SeccompProgram {
    /// Empty where there is no seccomp policy (not x86-64).
    pub(crate) program: seccompiler::BpfProgram,
    /// The instructions that compare with the stand-in pid, and with the
    /// stand-in's process group (its negation).
    own_sites: Vec<usize>,
    group_sites: Vec<usize>,
}

/// A pid no process can have (`pid_max` is at most 2^22).
#[cfg(target_arch = "x86_64")]
pub(crate) const PID_STAND_IN: u32 = 0x3fff_fff1;

/// Why the seccomp program could not be built (the referee's fault).
#[derive(Clone, Debug, thiserror::Error)]
pub enum SeccompError {
    /// seccompiler refused the tables (its message: its error is not
    /// `Clone`, and the program is built once per process).
    #[error("seccomp tables: {0}")]
    Tables(String),
    #[error("seccomp tables: the stand-in pid is compared {own} and {group} times, not 2 and 1")]
    StandIn { own: usize, group: usize },
}

impl SeccompProgram {
    /// The program for any pid. Cheap to clone.
    pub fn build(policy: SeccompPolicy) -> Result<SeccompProgram, SeccompError> {
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = policy;
            Ok(SeccompProgram {
                program: Vec::new(),
                own_sites: Vec::new(),
                group_sites: Vec::new(),
            })
        }
        #[cfg(target_arch = "x86_64")]
        {
            let program = bot_program(PID_STAND_IN as i32, policy)
                .map_err(|e| SeccompError::Tables(e.to_string()))?;
            let sites = |k: u32| -> Vec<usize> {
                (0..program.len()).filter(|&i| program[i].k == k).collect()
            };
            let own_sites = sites(PID_STAND_IN);
            let group_sites = sites(PID_STAND_IN.wrapping_neg());
            // kill (self and own group) and tgkill (self): a table built
            // otherwise would patch the wrong places.
            if own_sites.len() != 2 || group_sites.len() != 1 {
                return Err(SeccompError::StandIn {
                    own: own_sites.len(),
                    group: group_sites.len(),
                });
            }
            Ok(SeccompProgram {
                program,
                own_sites,
                group_sites,
            })
        }
    }

    /// [`SeccompProgram::build`] once per process for each policy (a
    /// launcher forked from the referee finds it built).
    pub fn cached(policy: SeccompPolicy) -> Result<SeccompProgram, SeccompError> {
        static BUILT: [std::sync::OnceLock<Result<SeccompProgram, SeccompError>>; 3] = [
            std::sync::OnceLock::new(),
            std::sync::OnceLock::new(),
            std::sync::OnceLock::new(),
        ];
        BUILT[policy as usize]
            .get_or_init(|| SeccompProgram::build(policy))
            .clone()
    }

    /// Between fork and exec, in the child's own copy: puts its pid in
    /// place of the stand-in, sets `no_new_privs` and installs the
    /// program. No allocation. False if a step failed (errno says why).
    pub fn install(&mut self) -> bool {
        if rustix::thread::set_no_new_privs(true).is_err() {
            return false;
        }
        self.name_pid(rustix::process::getpid().as_raw_nonzero().get() as u32);
        self.program.is_empty() || seccompiler::apply_filter(&self.program).is_ok()
    }

    /// Puts `pid` where the tables name the bot's pid (in place).
    pub(crate) fn name_pid(&mut self, pid: u32) {
        for &i in &self.own_sites {
            self.program[i].k = pid;
        }
        for &i in &self.group_sites {
            self.program[i].k = pid.wrapping_neg();
        }
    }
}
