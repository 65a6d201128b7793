//! The bot's resource limits (rlimits), set between fork and exec.

use super::*;

/// Every resource limit but the address space's ([`limit_address_space`]).
pub(super) fn set_rlimits(spec: &LaunchSpec) -> Result<(), StepError> {
    let own_user = matches!(spec.identity, Some(Identity { uid: Some(_), .. }));
    if !(set_limit(libc::RLIMIT_CORE, 0, 0)
        && set_limit(libc::RLIMIT_FSIZE, spec.file_size, spec.file_size)
        && set_limit(libc::RLIMIT_NOFILE, spec.open_files, spec.open_files)
        && set_limit(
            libc::RLIMIT_CPU,
            sandbox::CPU_SECONDS_LIMIT,
            sandbox::CPU_SECONDS_LIMIT + 5,
        )
        // With a user of its own, the process count of that user is the
        // bot's alone.
        && (!own_user
            || set_limit(
                libc::RLIMIT_NPROC,
                sandbox::STRICT_PIDS_MAX,
                sandbox::STRICT_PIDS_MAX,
            )))
    {
        return Err(StepError::last(Step::ResourceLimits));
    }
    first_for_the_oom_killer();
    Ok(())
}

/// Makes the bot the first process the kernel's OOM killer ends, should
/// the machine run out of memory: a bot, not the referee (the largest
/// process of a tournament), pays for it. Raising one's own score needs no
/// privilege; a kernel without the file leaves it as it was. No
/// allocation (the child of a fork).
fn first_for_the_oom_killer() {
    use rustix::fs::{Mode, OFlags};
    if let Ok(file) = rustix::fs::open(
        c"/proc/self/oom_score_adj",
        OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        let _ = rustix::io::write(&file, b"1000");
    }
}

/// RLIMIT_AS, the last step that may fail before exec: the child is a copy
/// of the launcher, itself a copy of the referee, whose address space (an
/// allocator's arena per thread) may be larger than the bot's limit. From
/// here until exec nothing may allocate.
pub(super) fn limit_address_space(spec: &LaunchSpec) -> Result<(), StepError> {
    let address_space = if spec.address_space == u64::MAX {
        libc::RLIM_INFINITY
    } else {
        spec.address_space
    };
    if !set_limit(libc::RLIMIT_AS, address_space, address_space) {
        return Err(StepError::last(Step::ResourceLimits));
    }
    Ok(())
}

pub(crate) fn set_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> bool {
    let value = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: a valid pointer to a local.
    unsafe { libc::setrlimit(resource, &value) == 0 }
}
