//! The bot's identity when the referee runs as root: a group of its own,
//! under strict a user of its own in a user namespace of its own, and no
//! capabilities.

use super::*;

/// For a referee running as root: no capabilities now or after exec, a
/// group of its own (so no other process, the other bot included, passes
/// the kernel's same-credentials check for its memory or environment), and
/// under strict a user of its own, inside a user namespace of its own.
pub(crate) fn become_unprivileged(spec: &LaunchSpec, identity: &Identity) -> Result<(), StepError> {
    if let Some(uid) = identity.uid {
        // Its working directory becomes its own, and nobody else's.
        rustix::fs::chown(
            &spec.workdir,
            Some(rustix::process::Uid::from_raw(uid)),
            Some(rustix::process::Gid::from_raw(identity.gid)),
        )
        .and_then(|()| rustix::fs::chmod(&spec.workdir, rustix::fs::Mode::from_raw_mode(0o700)))
        .map_err(|e| StepError::at(Step::GivingItsWorkingDirectory, &spec.workdir, e))?;
        give_the_bot_its_pipes(uid, identity.gid)?;
    }
    // A user namespace of its own starts with a full bounding set, which
    // is dropped in it: dropping it before too would be undone.
    let own_namespace = identity.uid.is_some() && spec.strict.is_some();
    if !own_namespace && !sandbox::drop_bounding_set() {
        return Err(StepError::last(Step::DroppingCapabilities));
    }
    let gid = identity.gid;
    // The calls of the thread, as the process is single-threaded.
    let group = rustix::process::Gid::from_raw(gid);
    rustix::thread::set_thread_groups(&[])
        .and_then(|()| rustix::thread::set_thread_res_gid(group, group, group))
        .map_err(|e| StepError::new(Step::SwitchingGroup, e))?;
    let dropping = Step::DroppingCapabilities;
    match identity.uid {
        Some(uid) => {
            // Leaving uid 0 clears every capability.
            let user = rustix::process::Uid::from_raw(uid);
            rustix::thread::set_thread_res_uid(user, user, user)
                .map_err(|e| StepError::new(Step::SwitchingUser, e))?;
            if spec.strict.is_some() {
                enter_user_namespace(uid, gid)?;
                // A new user namespace comes with every capability in it.
                if !sandbox::drop_bounding_set() {
                    return Err(StepError::last(dropping));
                }
                sandbox::clear_capabilities().map_err(|e| StepError::new(dropping, e))?;
            }
        }
        None => sandbox::clear_capabilities().map_err(|e| StepError::new(dropping, e))?,
    }
    Ok(())
}

/// Its standard input, output and error, where they are pipes, become its
/// own user's: a program that opens `/dev/stdin`, `/dev/stdout` or
/// `/proc/self/fd/N` reopens the pipe by its inode, which the kernel
/// allows only to the pipe's owner (the referee's user made them), so such
/// a program failed under strict alone. The pipes are this bot's only: what
/// it may do with them (read back its own output, write to its own input)
/// touches nobody else.
pub(crate) fn give_the_bot_its_pipes(uid: u32, gid: u32) -> Result<(), StepError> {
    use std::os::fd::BorrowedFd;
    for fd in 0..=2 {
        // SAFETY: the standard descriptors are open for the whole call
        // (the launcher set them; a closed one fails fstat and is skipped).
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        let is_pipe = rustix::fs::fstat(fd).is_ok_and(|stat| {
            rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Fifo
        });
        if is_pipe {
            rustix::fs::fchown(
                fd,
                Some(rustix::process::Uid::from_raw(uid)),
                Some(rustix::process::Gid::from_raw(gid)),
            )
            .map_err(|e| StepError::new(Step::GivingItsPipes, e))?;
        }
    }
    Ok(())
}

/// A user namespace in which the bot is itself and nobody else exists:
/// its own user and group mapped to themselves, `setgroups` denied. The
/// capabilities it holds in it until exec are lost at exec (it is not uid 0
/// there).
pub(crate) fn enter_user_namespace(uid: u32, gid: u32) -> Result<(), StepError> {
    // Changing user made the process non-dumpable, which gives its /proc
    // files to root: it could not write its own maps. Exec sets this again.
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::Dumpable)
        .map_err(|e| StepError::new(Step::NewUserNamespace, e))?;
    sandbox::unshare_namespaces(libc::CLONE_NEWUSER)
        .map_err(|e| StepError::new(Step::NewUserNamespace, e))?;
    let write = |file: &str, text: String| {
        std::fs::write(file, text)
            .map_err(|e| StepError::at(Step::MappingItsUser, Path::new(file), e))
    };
    write("/proc/self/uid_map", format!("{uid} {uid} 1\n"))?;
    write("/proc/self/setgroups", "deny".to_string())?;
    write("/proc/self/gid_map", format!("{gid} {gid} 1\n"))?;
    Ok(())
}
