//! The context a command runs in: the table of languages its bots are
//! looked up in, and what the sandbox makes on the machine for its bots
//! (the folder of their working directories, the cgroups), removed when
//! the last holder of it is dropped.

use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use crate::language::Languages;
use crate::sandbox::{CgroupRoots, Sandbox, SandboxChoice, SandboxError};

/// A command's context: made once per command (by the binary's
/// `cli::main`), dropped at its end. A tournament or check file's own
/// languages go into its plan's table, made from the built-in ones (see
/// `referee_engine::plan_file`): two files read in one process never see
/// each other's. The bots it starts carry its [`Footprint`] in their
/// limits, so that what the sandbox made for them is removed once the
/// context and its last bot are gone, and never under a running bot.
#[derive(Debug, Default)]
pub struct Arena {
    languages: Languages,
    footprint: Footprint,
    /// The layer in force, resolved once (the first choice asked for).
    sandbox: OnceLock<Result<Sandbox, SandboxError>>,
}

impl Arena {
    /// A context with the built-in languages, nothing made on the machine
    /// yet.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// The languages bots named on the command line are looked up in.
    pub fn languages(&self) -> &Languages {
        &self.languages
    }

    /// The sandbox layer of `choice`, resolved once per context (later
    /// calls get the first answer whatever they ask): `announce` is told
    /// of it the first time. The shared cgroup folders a strict layer
    /// made are removed with the context, even if no bot ran.
    pub fn sandbox(
        &self,
        choice: SandboxChoice,
        announce: impl FnOnce(&Sandbox),
    ) -> Result<Sandbox, SandboxError> {
        self.sandbox
            .get_or_init(|| {
                let resolved = choice.resolve();
                if let Ok(sandbox) = &resolved {
                    if let Sandbox::Strict(roots) = sandbox {
                        self.footprint.note_cgroup_roots(roots);
                    }
                    announce(sandbox);
                }
                resolved
            })
            .clone()
    }

    /// What this context's bots leave on the machine, for their limits
    /// ([`crate::ProcessLimits::footprint`]).
    pub fn footprint(&self) -> Footprint {
        self.footprint.clone()
    }
}

/// What the sandbox made on the machine for the bots of one context: the
/// folder of their working directories (made when the first bot starts),
/// the shared `referee` cgroup folders they were put under, and the
/// emptied cgroups of earlier bots kept for later ones. A handle: clones
/// share it, and the last one dropped removes it all.
///
/// Limits compare equal whatever footprint they hold: it is where a bot
/// runs, not what it may do.
#[derive(Clone, Default)]
pub struct Footprint(Arc<Made>);

#[derive(Default)]
struct Made {
    /// The folder of working directories, and the descriptor that holds
    /// its lock (see [`crate::workdir`]).
    workdirs: Mutex<Option<(PathBuf, OwnedFd)>>,
    /// The shared cgroup folders the bots' cgroups were made under.
    cgroup_roots: Mutex<Vec<CgroupRoots>>,
    /// Emptied cgroups of earlier bots: the parent they are in (the
    /// `referee` folder of the cgroup v2 hierarchy), and their folders.
    cgroup_pool: Mutex<Vec<(PathBuf, Vec<PathBuf>)>>,
    /// The Landlock rules planned per command, newest last (see
    /// `launch::CommandRules`): the context's, so that they and the
    /// descriptors they hold go with it.
    command_plans: Mutex<Vec<Arc<crate::launch::CommandRules>>>,
}

/// A lock of one of the footprint's parts: a bot that panicked while
/// holding it left nothing half-done that matters here.
fn held<T>(part: &Mutex<T>) -> MutexGuard<'_, T> {
    part.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Footprint {
    /// The Landlock rules planned per command so far, locked.
    pub(crate) fn command_plans(&self) -> MutexGuard<'_, Vec<Arc<crate::launch::CommandRules>>> {
        held(&self.0.command_plans)
    }

    /// The folder of working directories, taken by `make` if there is
    /// none yet: one maker, as two workers starting their first bots at
    /// once would otherwise each take a folder.
    pub(crate) fn workdirs(
        &self,
        make: impl FnOnce() -> std::io::Result<(PathBuf, OwnedFd)>,
    ) -> std::io::Result<PathBuf> {
        let mut folder = held(&self.0.workdirs);
        if let Some((dir, _)) = &*folder {
            return Ok(dir.clone());
        }
        let (dir, lock) = make()?;
        crate::workdir::note_live_folder(&dir);
        *folder = Some((dir.clone(), lock));
        Ok(dir)
    }

    /// Notes that a bot's cgroups are made under `roots`, to remove the
    /// shared folders when the footprint goes.
    pub(crate) fn note_cgroup_roots(&self, roots: &CgroupRoots) {
        let mut noted = held(&self.0.cgroup_roots);
        if !noted.contains(roots) {
            noted.push(roots.clone());
        }
    }

    /// An emptied cgroup under `root` kept for a later bot, if any.
    pub(crate) fn pooled_cgroup(&self, root: &std::path::Path) -> Option<Vec<PathBuf>> {
        let mut pool = held(&self.0.cgroup_pool);
        let at = pool.iter().position(|(r, _)| r == root)?;
        Some(pool.swap_remove(at).1)
    }

    /// Keeps an emptied cgroup for a later bot; gives it back when
    /// `room` are kept already.
    pub(crate) fn keep_cgroup(
        &self,
        root: PathBuf,
        dirs: Vec<PathBuf>,
        room: usize,
    ) -> Result<(), Vec<PathBuf>> {
        let mut pool = held(&self.0.cgroup_pool);
        if pool.len() >= room {
            return Err(dirs);
        }
        pool.push((root, dirs));
        Ok(())
    }

    /// The folder of working directories, if one was made.
    pub fn workdirs_folder(&self) -> Option<PathBuf> {
        held(&self.0.workdirs).as_ref().map(|(dir, _)| dir.clone())
    }
}

impl std::fmt::Debug for Footprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Footprint")
            .field("workdirs", &self.workdirs_folder())
            .finish_non_exhaustive()
    }
}

impl PartialEq for Footprint {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Footprint {}

impl Drop for Made {
    fn drop(&mut self) {
        // The pooled cgroups first: a cgroup folder that holds one cannot
        // be removed. The shared folders go only if no other referee's bot
        // is in them (rmdir of a cgroup that holds one fails).
        let pool = std::mem::take(
            self.cgroup_pool
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for dir in pool.iter().flat_map(|(_, dirs)| dirs) {
            let _ = std::fs::remove_dir(dir);
        }
        let roots = self
            .cgroup_roots
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        for roots in roots.iter() {
            roots.remove_if_empty();
        }
        // Each bot's own directory is removed with the bot, and no bot of
        // the context runs any more: anything still in the folder is left
        // over, and goes with it (under its lock, so that no other context
        // of this process takes the folder first and finds it).
        let folder = self
            .workdirs
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some((dir, _lock)) = folder {
            crate::workdir::remove_folder_of_bots(&dir);
            crate::workdir::forget_live_folder(&dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context's working folder is its own, made once for all its bots,
    /// and gone when the context and the last bot holding it are.
    #[test]
    fn the_last_holder_removes_the_working_folder() {
        let (first, second) = (Arena::new(), Arena::new());
        let spawned = |arena: &Arena| {
            let footprint = arena.footprint();
            let dir = footprint
                .workdirs(crate::workdir::take_workdirs_folder)
                .unwrap();
            (footprint, dir)
        };
        let (bot, dir) = spawned(&first);
        let (_, again) = spawned(&first);
        let (_, other) = spawned(&second);
        assert_eq!(dir, again, "one folder per context");
        assert_ne!(dir, other, "each context its own folder");
        drop(first);
        assert!(dir.is_dir(), "removed under a bot that holds it");
        drop(bot);
        assert!(!dir.exists(), "left behind: {}", dir.display());
        assert!(other.is_dir(), "another context's folder removed");
        drop(second);
        assert!(!other.exists(), "left behind: {}", other.display());
    }
}
