//! What the compiled seccomp program is checked and measured against:
//! seccompiler's programs of the same tables, installed one by one behind
//! the x32 guard as a filter of its own (the kernel's answer is then
//! known without trusting the compiler), and the single program they were
//! chained into before the compiler ([`chained_behind_shortcut`]).

use super::seccomp::*;
use seccompiler::{SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompRule};

/// `rules` as seccompiler's.
fn seccompiler_rules(rules: &Rules) -> std::collections::BTreeMap<i64, Vec<SeccompRule>> {
    let condition = |c: &Condition| match *c {
        Condition::IntIsNot { arg, value } => SeccompCondition::new(
            arg,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            u64::from(value),
        ),
        Condition::Masked { arg, mask, value } => SeccompCondition::new(
            arg,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(mask),
            value,
        ),
    };
    rules
        .iter()
        .map(|(nr, rules)| {
            let rules = rules
                .iter()
                .map(|rule| {
                    SeccompRule::new(rule.iter().map(|c| condition(c).unwrap()).collect()).unwrap()
                })
                .collect();
            (*nr, rules)
        })
        .collect()
}

/// Each table as seccompiler compiles it, a program of its own, in the
/// order given.
pub(crate) fn programs_of(tables: &[(Rules, i32)]) -> Vec<Vec<Instruction>> {
    use seccompiler::{SeccompAction, SeccompFilter, TargetArch};
    tables
        .iter()
        .map(|(rules, errno)| {
            let filter = SeccompFilter::new(
                seccompiler_rules(rules),
                SeccompAction::Allow,
                SeccompAction::Errno(*errno as u32),
                TargetArch::x86_64,
            )
            .unwrap();
            let program: seccompiler::BpfProgram = filter.try_into().unwrap();
            program
                .iter()
                .map(|i| Instruction {
                    code: i.code,
                    jt: i.jt,
                    jf: i.jf,
                    k: i.k,
                })
                .collect()
        })
        .collect()
}

/// The guard as a filter of its own, as if installed first: x32 system
/// calls fail with EPERM; another architecture passes (the tables kill
/// it).
pub(crate) const X32_GUARD: [Instruction; 6] = {
    const fn op(code: u16, jt: u8, jf: u8, k: u32) -> Instruction {
        Instruction { code, jt, jf, k }
    }
    [
        /* 0 */ op(op::LOAD, 0, 0, 4),
        /* 1 */ op(op::JEQ, 0, 3, AUDIT_ARCH_X86_64), // else 5
        /* 2 */ op(op::LOAD, 0, 0, 0),
        /* 3 */ op(op::JGE, 0, 1, X32_SYSCALL_BIT), // x32: 4, else 5
        /* 4 */ op(op::RET, 0, 0, SECCOMP_EPERM),
        /* 5 */ op(op::RET, 0, 0, SECCOMP_ALLOW),
    ]
};

/// What the kernel installs one by one: the guard, then the tables.
pub(crate) fn installed_one_by_one(own: i32, policy: SeccompPolicy) -> Vec<Vec<Instruction>> {
    let mut installed = vec![X32_GUARD.to_vec()];
    installed.extend(programs_of(&seccomp_tables(own, policy)));
    installed
}

/// The one program the referee installed before [`compile`]: the guard
/// and seccompiler's tables chained, last installed first, each "allow"
/// but the last a jump to the next program, behind a binary search that
/// allows at once the calls no table lists. Kept to measure the install
/// against.
pub(crate) fn chained_behind_shortcut(own: i32, policy: SeccompPolicy) -> Vec<Instruction> {
    const JA: u16 = 0x05; // pc += 1 + k
    let tables = seccomp_tables(own, policy);
    let mut listed: Vec<u32> = tables
        .iter()
        .flat_map(|(rules, _)| rules.iter().map(|(nr, _)| *nr as u32))
        .collect();
    listed.sort_unstable();
    listed.dedup();
    let mut programs = vec![X32_GUARD.to_vec()];
    programs.extend(programs_of(&tables));
    let mut chain = Vec::new();
    let mut rest = programs.iter().rev().peekable();
    while let Some(program) = rest.next() {
        let last = rest.peek().is_none();
        for (i, instruction) in program.iter().enumerate() {
            if !last && instruction.code == op::RET && instruction.k == SECCOMP_ALLOW {
                let k = (program.len() - i - 1) as u32;
                chain.push(Instruction {
                    code: JA,
                    jt: 0,
                    jf: 0,
                    k,
                });
            } else {
                chain.push(*instruction);
            }
        }
    }
    // The shortcut: jumps (JA, to reach past 255) to `Allow` (the
    // instruction after it) or `Program` (the chain), resolved at the end.
    enum To {
        Allow,
        Program,
        At(usize),
    }
    struct Shortcut {
        code: Vec<Instruction>,
        jumps: Vec<(usize, To)>,
    }
    impl Shortcut {
        fn op(&mut self, code: u16, jt: u8, jf: u8, k: u32) {
            self.code.push(Instruction { code, jt, jf, k });
        }
        fn jump(&mut self, to: To) {
            self.jumps.push((self.code.len(), to));
            self.op(JA, 0, 0, 0);
        }
        fn jump_if(&mut self, test: u16, k: u32, to: To) {
            self.op(test, 0, 1, k);
            self.jump(to);
        }
        fn search(&mut self, sorted: &[u32]) {
            if sorted.len() <= 4 {
                for &nr in sorted {
                    self.jump_if(op::JEQ, nr, To::Program);
                }
                self.jump(To::Allow);
                return;
            }
            let (low, high) = sorted.split_at(sorted.len() / 2);
            let to_high = self.jumps.len();
            self.jump_if(op::JGE, high[0], To::At(0));
            self.search(low);
            self.jumps[to_high].1 = To::At(self.code.len());
            self.search(high);
        }
    }
    let mut shortcut = Shortcut {
        code: Vec::new(),
        jumps: Vec::new(),
    };
    shortcut.op(op::LOAD, 0, 0, 4);
    shortcut.op(op::JEQ, 1, 0, AUDIT_ARCH_X86_64);
    shortcut.jump(To::Program);
    shortcut.op(op::LOAD, 0, 0, 0);
    shortcut.jump_if(op::JGE, X32_SYSCALL_BIT, To::Program);
    shortcut.search(&listed);
    let allow = shortcut.code.len();
    for (at, to) in std::mem::take(&mut shortcut.jumps) {
        let target = match to {
            To::Allow => allow,
            To::Program => allow + 1,
            To::At(index) => index,
        };
        shortcut.code[at].k = (target - at - 1) as u32;
    }
    shortcut.op(op::RET, 0, 0, SECCOMP_ALLOW);
    shortcut.code.extend(chain);
    shortcut.code
}
