//! The seccomp filter of a bot: its tables (what each answer refuses),
//! compiled into one short classic BPF program ([`compile`]) built once
//! per policy with a stand-in pid.

#[cfg(target_arch = "x86_64")]
use std::collections::{BTreeMap, BTreeSet};

mod tables;
pub(crate) use tables::*;

/// One classic BPF instruction, laid out as the kernel's `struct
/// sock_filter` (what `seccomp(2)` reads).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Instruction {
    pub(crate) code: u16,
    pub(crate) jt: u8,
    pub(crate) jf: u8,
    pub(crate) k: u32,
}

/// The operations the compiled program uses (and the tests' emulator runs).
#[cfg(target_arch = "x86_64")]
pub(crate) mod op {
    /// Loads a word of `seccomp_data` (BPF_LD | BPF_W | BPF_ABS).
    pub(crate) const LOAD: u16 = 0x20;
    /// The accumulator &= k (BPF_ALU | BPF_AND | BPF_K).
    pub(crate) const AND: u16 = 0x54;
    /// Jumps by jt if the accumulator == k, else by jf (BPF_JMP | BPF_JEQ | BPF_K).
    pub(crate) const JEQ: u16 = 0x15;
    /// ... if the accumulator >= k (BPF_JMP | BPF_JGE | BPF_K).
    pub(crate) const JGE: u16 = 0x35;
    /// ... if the accumulator & k != 0 (BPF_JMP | BPF_JSET | BPF_K).
    pub(crate) const JSET: u16 = 0x45;
    /// Returns k (BPF_RET | BPF_K).
    pub(crate) const RET: u16 = 0x06;
}

/// Offsets in `seccomp_data`: the call's number, its architecture, and its
/// arguments (64 bits each, the low half first on x86-64).
#[cfg(target_arch = "x86_64")]
const NR_OFFSET: u32 = 0;
#[cfg(target_arch = "x86_64")]
const ARCH_OFFSET: u32 = 4;
#[cfg(target_arch = "x86_64")]
fn low_half(arg: u8) -> u32 {
    16 + 8 * u32::from(arg)
}

/// A test of one 32-bit word of `seccomp_data`: it holds when
/// `(word & mask == value) == equal`. A condition is one (an int) or two
/// (the halves of a 64-bit argument) of them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WordTest {
    offset: u32,
    mask: u32,
    value: u32,
    equal: bool,
}

#[cfg(target_arch = "x86_64")]
impl WordTest {
    /// The tests that hold together when `condition` does: none for a
    /// masked half whose mask is 0 (it always holds).
    fn of(condition: Condition) -> Vec<WordTest> {
        match condition {
            Condition::IntIsNot { arg, value } => vec![WordTest {
                offset: low_half(arg),
                mask: u32::MAX,
                value,
                equal: false,
            }],
            Condition::Masked { arg, mask, value } => {
                let value = value & mask;
                [
                    (low_half(arg) + 4, (mask >> 32) as u32, (value >> 32) as u32),
                    (low_half(arg), mask as u32, value as u32),
                ]
                .into_iter()
                .filter(|&(_, mask, _)| mask != 0)
                .map(|(offset, mask, value)| WordTest {
                    offset,
                    mask,
                    value,
                    equal: true,
                })
                .collect()
            }
        }
    }

    /// Makes this test "any bit of either" if both are "any bit of" tests
    /// of the same word; false (unchanged) if not.
    fn fold_any_bit(&mut self, other: &WordTest) -> bool {
        let (Some(mine), Some(theirs)) = (self.any_bit_of(), other.any_bit_of()) else {
            return false;
        };
        if self.offset != other.offset {
            return false;
        }
        *self = WordTest {
            offset: self.offset,
            mask: mine | theirs,
            value: 0,
            equal: false,
        };
        true
    }

    /// The bits of which any one set makes this test hold, if it is of
    /// that kind ("none of `mask`" negated, or "the single bit `mask`").
    fn any_bit_of(&self) -> Option<u32> {
        let none_of = !self.equal && self.value == 0;
        let single_bit = self.equal && self.value == self.mask && self.mask.is_power_of_two();
        (none_of || single_bit).then_some(self.mask)
    }
}

/// How one listed call is answered: each rule (its word tests, all to
/// hold) with its return, in the order the kernel would have asked the
/// tables; then `otherwise`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Debug, PartialEq, Eq)]
struct Answer {
    rules: Vec<(Vec<WordTest>, u32)>,
    otherwise: u32,
}

#[cfg(target_arch = "x86_64")]
impl Answer {
    const ALLOW: Answer = Answer {
        rules: Vec::new(),
        otherwise: SECCOMP_ALLOW,
    };

    /// The answer to call `nr` of `tables` (each a map of the calls it
    /// lists, with its return), asked last installed first as the kernel
    /// does: the first rule to match answers.
    fn of(nr: i64, tables: &[(BTreeMap<i64, Vec<Rule>>, u32)]) -> Answer {
        let mut rules: Vec<(Vec<WordTest>, u32)> = Vec::new();
        for (table, ret) in tables.iter().rev() {
            let Some(table_rules) = table.get(&nr) else {
                continue;
            };
            if table_rules.is_empty() {
                return Answer::merged(rules, *ret);
            }
            for rule in table_rules {
                let tests: Vec<WordTest> = rule.iter().flat_map(|&c| WordTest::of(c)).collect();
                if tests.is_empty() {
                    return Answer::merged(rules, *ret);
                }
                rules.push((tests, *ret));
            }
        }
        Answer::merged(rules, SECCOMP_ALLOW)
    }

    /// Folds rules in a row of one test each, "any of these bits", on the
    /// same word with the same return, into one (`clone`'s eight
    /// namespace flags are one test of their union).
    fn merged(rules: Vec<(Vec<WordTest>, u32)>, otherwise: u32) -> Answer {
        let mut merged: Vec<(Vec<WordTest>, u32)> = Vec::with_capacity(rules.len());
        for (tests, ret) in rules {
            let folded = match (merged.last_mut(), tests.as_slice()) {
                (Some((last, last_ret)), [test]) if *last_ret == ret => match last.as_mut_slice() {
                    [last] => last.fold_any_bit(test),
                    _ => false,
                },
                _ => false,
            };
            if !folded {
                merged.push((tests, ret));
            }
        }
        Answer {
            rules: merged,
            otherwise,
        }
    }
}

/// A place in the program, bound once laid out.
#[cfg(target_arch = "x86_64")]
type Label = usize;

/// Where a jump goes: the next instruction, or a label.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Next,
    To(Label),
}

/// What the accumulator holds: a word of `seccomp_data`, or something else.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    Word(u32),
    Other,
}

/// Lays out instructions with jumps to labels, resolved at the end, and
/// follows what the accumulator holds, so that a word already loaded on
/// every path to a test is not loaded again.
#[cfg(target_arch = "x86_64")]
#[derive(Default)]
struct Assembler {
    code: Vec<(Instruction, Target, Target)>,
    bound: Vec<Option<usize>>,
    /// What the accumulator holds on the jumps so far to each label.
    held_on_entry: Vec<Option<Held>>,
    /// What it holds here (None: no instruction falls through to here).
    held: Option<Held>,
    /// The return instructions, laid out last: a value, its label.
    returns: Vec<(u32, Label)>,
}

#[cfg(target_arch = "x86_64")]
fn merge(a: Option<Held>, b: Option<Held>) -> Option<Held> {
    match (a, b) {
        (Some(a), Some(b)) if a != b => Some(Held::Other),
        (a, b) => a.or(b),
    }
}

#[cfg(target_arch = "x86_64")]
impl Assembler {
    fn label(&mut self) -> Label {
        self.bound.push(None);
        self.held_on_entry.push(None);
        self.bound.len() - 1
    }

    fn bind(&mut self, label: Label) {
        self.bound[label] = Some(self.code.len());
        self.held = merge(self.held, self.held_on_entry[label]);
    }

    /// The label of the instruction that returns `value`.
    fn returning(&mut self, value: u32) -> Target {
        if let Some(&(_, label)) = self.returns.iter().find(|(v, _)| *v == value) {
            return Target::To(label);
        }
        let label = self.label();
        self.returns.push((value, label));
        Target::To(label)
    }

    fn load(&mut self, offset: u32) {
        if self.held != Some(Held::Word(offset)) {
            self.statement(op::LOAD, offset);
            self.held = Some(Held::Word(offset));
        }
    }

    fn statement(&mut self, code: u16, k: u32) {
        let instruction = Instruction {
            code,
            jt: 0,
            jf: 0,
            k,
        };
        self.code.push((instruction, Target::Next, Target::Next));
        if code == op::RET {
            self.held = None;
        }
        if code == op::AND {
            self.held = Some(Held::Other);
        }
    }

    fn jump(&mut self, code: u16, k: u32, jt: Target, jf: Target) {
        for target in [jt, jf] {
            if let Target::To(label) = target {
                self.held_on_entry[label] = merge(self.held_on_entry[label], self.held);
            }
        }
        let instruction = Instruction {
            code,
            jt: 0,
            jf: 0,
            k,
        };
        self.code.push((instruction, jt, jf));
        if jt != Target::Next && jf != Target::Next {
            self.held = None;
        }
    }

    /// Goes to `pass` if `test` holds, else to `fail`.
    fn test(&mut self, test: WordTest, pass: Target, fail: Target) {
        self.load(test.offset);
        let (code, k, holds_when_true) = if test.mask == u32::MAX {
            (op::JEQ, test.value, test.equal)
        } else if test.value == 0 {
            (op::JSET, test.mask, !test.equal)
        } else if test.value == test.mask && test.mask.is_power_of_two() {
            (op::JSET, test.mask, test.equal)
        } else {
            self.statement(op::AND, test.mask);
            (op::JEQ, test.value, test.equal)
        };
        if holds_when_true {
            self.jump(code, k, pass, fail);
        } else {
            self.jump(code, k, fail, pass);
        }
    }

    /// The rules of `answer`, each on failing going on to the next.
    fn answer(&mut self, answer: &Answer) {
        for (i, (tests, ret)) in answer.rules.iter().enumerate() {
            let pass = self.returning(*ret);
            let fail = if i + 1 == answer.rules.len() {
                self.returning(answer.otherwise)
            } else {
                Target::To(self.label())
            };
            for (j, test) in tests.iter().enumerate() {
                let last = j + 1 == tests.len();
                self.test(*test, if last { pass } else { Target::Next }, fail);
            }
            if let (Target::To(next), false) = (fail, i + 1 == answer.rules.len()) {
                self.bind(next);
            }
        }
    }

    /// A binary search of the call's number (in the accumulator) among
    /// `intervals[first..=last]` (each from its first number to the next
    /// one's, with where to go then), from here, split where `splits`
    /// says ([`best_splits`]); at least two.
    fn search(
        &mut self,
        intervals: &[(u32, Target)],
        splits: &[Vec<usize>],
        (first, last): (usize, usize),
    ) {
        let high_first = splits[first][last];
        // A part of one interval is where it goes; a longer one, a search
        // laid out after this jump.
        let mut to = |(from, to): (usize, usize)| {
            if from == to {
                (intervals[from].1, None)
            } else {
                let label = self.label();
                (Target::To(label), Some(label))
            }
        };
        let (low, high) = ((first, high_first - 1), (high_first, last));
        let ((to_low, low_search), (to_high, high_search)) = (to(low), to(high));
        self.jump(op::JGE, intervals[high_first].0, to_high, to_low);
        for (part, search) in [(low, low_search), (high, high_search)] {
            if let Some(label) = search {
                self.bind(label);
                self.search(intervals, splits, part);
            }
        }
    }

    /// The program: returns last, each jump resolved (an error if one is
    /// beyond the 255 instructions a conditional jump reaches).
    fn finish(mut self) -> Result<Vec<Instruction>, SeccompError> {
        for (value, label) in std::mem::take(&mut self.returns) {
            self.bind(label);
            self.statement(op::RET, value);
        }
        let bound = &self.bound;
        self.code
            .iter()
            .enumerate()
            .map(|(at, &(mut instruction, jt, jf))| {
                let offset = |target: Target| -> Result<u8, SeccompError> {
                    let Target::To(label) = target else {
                        return Ok(0);
                    };
                    let to = bound[label].expect("every label is bound");
                    u8::try_from(to - at - 1).map_err(|_| SeccompError::TooLong(self.code.len()))
                };
                instruction.jt = offset(jt)?;
                instruction.jf = offset(jf)?;
                Ok(instruction)
            })
            .collect()
    }
}

/// Compiles `tables` (each with its errno, in the order they would be
/// installed one by one) into one program that answers every call as
/// those filters would, with the x32 guard:
///
/// 1. another architecture than x86-64: the process is killed (what every
///    table compiled by seccompiler answers, first);
/// 2. a binary search of the call's number among the intervals where the
///    answer is the same: a listed call refused whatever its arguments
///    goes to its errno's return, one refused under rules to its
///    argument tests (the rules in the order the kernel would ask the
///    tables), every other call (most) to "allow", and the x32 calls
///    (the same calls under numbers the tables do not list) to EPERM.
///
/// Why so small: the kernel pays, at each install (once per bot, between
/// its fork and exec), a check of the program, its translation to eBPF
/// and its compilation to machine code (several passes), each as long as
/// the program, and, under the process's signal lock, its cache of the
/// calls always allowed: it runs the program on every call number, so
/// the search is shaped to take the fewest steps over all of them
/// ([`best_splits`]). seccompiler lays out each table as a list walked
/// call by call, with jumps of a few instructions to go round each: the
/// three tables, chained behind a guard and a search for the calls they
/// do not list, were some 690 instructions and cost three times as much
/// to install (docs/measurements.md).
#[cfg(target_arch = "x86_64")]
pub(crate) fn compile(tables: &[(Rules, i32)]) -> Result<Vec<Instruction>, SeccompError> {
    let tables: Vec<(BTreeMap<i64, Vec<Rule>>, u32)> = tables
        .iter()
        .map(|(rules, errno)| (rules.iter().cloned().collect(), seccomp_errno(*errno)))
        .collect();
    let listed: BTreeSet<i64> = tables.iter().flat_map(|(t, _)| t.keys().copied()).collect();
    let mut asm = Assembler::default();
    // Each interval of numbers with its answer; one answer's instructions
    // are shared by all its intervals.
    let mut intervals: Vec<(u32, Answer)> = Vec::new();
    let mut next = 0;
    let mut extend = |from: u32, answer: Answer| {
        if intervals.last().map(|(_, a)| a) != Some(&answer) {
            intervals.push((from, answer));
        }
    };
    for &nr in &listed {
        let number = u32::try_from(nr)
            .ok()
            .filter(|&n| n < X32_SYSCALL_BIT)
            .ok_or(SeccompError::Number(nr))?;
        if number > next {
            extend(next, Answer::ALLOW);
        }
        extend(number, Answer::of(nr, &tables));
        next = number + 1;
    }
    if next < X32_SYSCALL_BIT {
        extend(next, Answer::ALLOW);
    }
    // The x32 guard: a leaf of the search, not a test every call passes.
    extend(
        X32_SYSCALL_BIT,
        Answer {
            rules: Vec::new(),
            otherwise: SECCOMP_EPERM,
        },
    );
    let mut answers: Vec<(&Answer, Label)> = Vec::new();
    let mut targets = Vec::with_capacity(intervals.len());
    for (from, answer) in &intervals {
        let target = if answer.rules.is_empty() {
            asm.returning(answer.otherwise)
        } else if let Some(&(_, label)) = answers.iter().find(|(a, _)| *a == answer) {
            Target::To(label)
        } else {
            let label = asm.label();
            answers.push((answer, label));
            Target::To(label)
        };
        targets.push((*from, target));
    }
    // How many of the numbers the kernel's cache tries each interval
    // holds (plus one: the calls a bot makes).
    let weights: Vec<u64> = intervals
        .iter()
        .enumerate()
        .map(|(i, (from, _))| {
            let to = intervals
                .get(i + 1)
                .map_or(1 << 32, |(to, _)| u64::from(*to));
            to.min(CALL_NUMBERS) - u64::from(*from).min(CALL_NUMBERS) + 1
        })
        .collect();
    let kill = asm.returning(libc::SECCOMP_RET_KILL_PROCESS);
    asm.load(ARCH_OFFSET);
    asm.jump(op::JEQ, AUDIT_ARCH_X86_64, Target::Next, kill);
    asm.load(NR_OFFSET);
    asm.search(&targets, &best_splits(&weights), (0, targets.len() - 1));
    for (answer, label) in answers {
        asm.bind(label);
        asm.answer(answer);
    }
    asm.finish()
}

/// About how many x86-64 system call numbers there are (some 470): the
/// kernel's cache runs the program on each, at each install.
#[cfg(target_arch = "x86_64")]
const CALL_NUMBERS: u64 = 512;

/// Where the search tree of least total weighted depth splits each run of
/// intervals `i..=j` (`weights` theirs): `splits[i][j]` is the first
/// interval of its high part. By dynamic programming: a run costs its
/// weight (one step for each of its numbers) plus its parts' costs.
#[cfg(target_arch = "x86_64")]
fn best_splits(weights: &[u64]) -> Vec<Vec<usize>> {
    let n = weights.len();
    let mut below = vec![0u64; n + 1];
    for (i, weight) in weights.iter().enumerate() {
        below[i + 1] = below[i] + weight;
    }
    let mut cost = vec![vec![0u64; n]; n];
    let mut splits = vec![vec![0usize; n]; n];
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            let (best, at) = (i + 1..=j)
                .map(|k| (cost[i][k - 1] + cost[k][j], k))
                .min()
                .unwrap_or((0, i + 1));
            cost[i][j] = best + below[j + 1] - below[i];
            splits[i][j] = at;
        }
    }
    splits
}

/// The return of `errno`.
#[cfg(target_arch = "x86_64")]
fn seccomp_errno(errno: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | (errno as u32 & libc::SECCOMP_RET_DATA)
}

/// The program of the bot whose pid is `own` ([`compile`] of
/// [`seccomp_tables`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn bot_program(
    own: i32,
    policy: SeccompPolicy,
) -> Result<Vec<Instruction>, SeccompError> {
    compile(&seccomp_tables(own, policy))
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
    pub(crate) program: Vec<Instruction>,
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
    #[error("seccomp tables: {0} is not an x86-64 system call number")]
    Number(i64),
    #[error("seccomp program: {0} instructions, too long for its jumps")]
    TooLong(usize),
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
            let program = bot_program(PID_STAND_IN as i32, policy)?;
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
        self.program.is_empty() || install_filter(&self.program)
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

/// `seccomp(SECCOMP_SET_MODE_FILTER)` of `program` on the calling thread
/// (`no_new_privs` already set). No allocation. False if refused (errno
/// says why).
pub(crate) fn install_filter(program: &[Instruction]) -> bool {
    let Ok(len) = u16::try_from(program.len()) else {
        return false;
    };
    let fprog = libc::sock_fprog {
        len,
        filter: program.as_ptr().cast_mut().cast::<libc::sock_filter>(),
    };
    // SAFETY: `Instruction` has the layout of `struct sock_filter`, `fprog`
    // points to `len` of them, and the kernel only reads them (it copies
    // the program) during the call.
    let done = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0 as libc::c_ulong,
            &fprog as *const libc::sock_fprog,
        )
    };
    done == 0
}
