//! The context a command runs in: the table of languages its bots are
//! looked up in, and the clean-up of what the sandbox made for them on the
//! machine (the folder of the bots' working directories, the shared cgroup
//! folders), done when the context is dropped.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::language::Languages;

/// Arenas alive in this process. The working folder and the cgroup folders
/// are made on first use, deep in a bot's launch on whatever worker thread
/// starts it, and are one per process by design (one folder, so that the
/// sandbox can hide every other bot's directory from a bot): they are
/// removed when the last arena goes, not under another arena's bots.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// A command's context: made once per command (by the binary's
/// `cli::main`), dropped at its end, which removes what the sandbox left on
/// the machine. A tournament or check file's own languages go into its
/// plan's table, made from the built-in ones (see
/// `referee_engine::plan_file`): two files read in one process never see
/// each other's.
#[derive(Debug)]
pub struct Arena {
    languages: Languages,
}

impl Arena {
    /// A context with the built-in languages.
    pub fn new() -> Arena {
        LIVE.fetch_add(1, Ordering::SeqCst);
        Arena {
            languages: Languages::built_in(),
        }
    }

    /// The languages bots named on the command line are looked up in.
    pub fn languages(&self) -> &Languages {
        &self.languages
    }
}

impl Default for Arena {
    fn default() -> Self {
        Arena::new()
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        if LIVE.fetch_sub(1, Ordering::SeqCst) == 1 {
            crate::remove_workdirs_folder();
            crate::sandbox::remove_cgroup_roots();
        }
    }
}
