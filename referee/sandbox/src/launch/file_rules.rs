//! The Landlock rules of a bot's launch: its policy from its spec
//! ([`landlock_policy`]), the rules of one command planned once and kept
//! by the context ([`CommandRules`]), the ruleset a basic bot's starter
//! makes before the fork ([`prepared_ruleset`]), and root's secrets'
//! layer.

use super::*;

/// What Landlock allows the bot (see [`landlock`]):
/// - reading only the system's folders ([`SYSTEM_READABLE`]) and what it
///   needs ([`needed_folders`]: its interpreter's tree, its own program,
///   script, build and folder), under both layers;
/// - of what it needs, nothing of the paths [`LaunchSpec::hidden`] names:
///   the referee's files and the other bots' own files (a folder of
///   one-file bots is the folder of each; the other bots' files in it are
///   not granted), but what the bot itself needs there;
/// - writes only beneath its working directory (under strict also its
///   private `/tmp` and `/dev/shm`);
/// - under basic, of `/proc` only its own process's folder (another
///   process's command line is readable to anyone else, and a parent's
///   may hold a secret); under strict `/proc` is its own PID namespace's;
/// - under basic, nothing of the folder holding every bot's working
///   directory (the other bot's included). Under strict its mounts hide it.
///
/// A hidden path that lies within one the bot needs cannot be hidden by
/// Landlock (rights only add up) and is left out. `with_secrets` false
/// leaves root's secrets ([`ROOTS_SECRETS`]) to a layer of their own (see
/// [`secrets_layer`]).
pub(crate) fn landlock_policy(spec: &LaunchSpec, with_secrets: bool) -> landlock::FsPolicy {
    let command = command_policy(spec, with_secrets, working_folders(spec).as_deref());
    let mut policy = command.policy;
    let writable = writable_paths(spec);
    policy
        .hidden
        .retain(|h| !writable.iter().any(|granted| h.starts_with(granted)));
    policy.writable = writable;
    policy
}

/// Every right beneath these: the bot's working directory, under strict
/// also its private `/tmp` and `/dev/shm`.
pub(crate) fn writable_paths(spec: &LaunchSpec) -> Vec<PathBuf> {
    let mut writable = vec![spec.workdir.clone()];
    if spec.strict.is_some() {
        writable.extend([TMP.into(), "/dev/shm".into()]);
    }
    writable
}

/// The real folder of every bot's working directory, hidden under basic
/// (the bot's own is writable, so granted again); under strict, its /tmp
/// and /dev/shm are its own.
pub(crate) fn working_folders(spec: &LaunchSpec) -> Option<PathBuf> {
    spec.workdir
        .canonicalize()
        .ok()
        .and_then(|w| w.parent().map(Path::to_path_buf))
        .filter(|f| f.parent().is_some() && spec.strict.is_none())
}

/// What [`landlock_policy`] makes of a spec but for its writable paths:
/// the same for every bot of one command (given the folder of the working
/// directories).
pub(crate) struct CommandPolicy {
    /// No writable path yet; its hidden paths are all of them, even one
    /// beneath a bot's working directory.
    pub(super) policy: landlock::FsPolicy,
    /// The paths of [`LaunchSpec::hidden`] that did not exist (to hide
    /// them once they do).
    pub(super) missing: Vec<PathBuf>,
}

pub(crate) fn command_policy(
    spec: &LaunchSpec,
    with_secrets: bool,
    working_folders: Option<&Path>,
) -> CommandPolicy {
    let strict = spec.strict.is_some();
    let mut hidden: Vec<PathBuf> = Vec::new();
    let mut missing: Vec<PathBuf> = Vec::new();
    for path in &spec.hidden {
        match path.canonicalize() {
            Ok(real) => hidden.push(real),
            Err(_) => missing.push(path.clone()),
        }
    }
    hidden.extend(working_folders.map(Path::to_path_buf));
    // A bot (or compiler) of a referee run as root keeps uid 0 under
    // basic: the files only root may read are hidden by name.
    if spec.identity.is_some() && with_secrets && !strict {
        hidden.extend(ROOTS_SECRETS.iter().map(PathBuf::from));
    }
    // Each is a real path, found once (a canonicalisation reads every
    // component of a path).
    let needed = needed_folders(spec);
    let program = spec.program.canonicalize().ok();
    // A hidden path the bot needs itself (its own file or folder, hidden
    // from every other bot; a judge's folder that is also its script's
    // folder) is not hidden from it, but what else is hidden inside it
    // stays so (the other bots' files, the judge's program beside it).
    hidden.retain(|h| !needed.iter().chain(&program).any(|wanted| wanted == h));
    // What it needs beneath a hidden folder (an example bot in the
    // judge's folder) is granted on its own, the rest of that folder not.
    let mut exposed: Vec<PathBuf> = needed
        .iter()
        .chain(&program)
        .filter(|dir| hidden.iter().any(|h| dir.starts_with(h)))
        .cloned()
        .collect();
    exposed.dedup();
    hidden.retain(|h| !exposed.iter().any(|granted| h.starts_with(granted)));
    // Reading is an allow-list: the system's folders, the bot's program and
    // the folders it needs (its interpreter's tree, its script's folder).
    // Every other folder (results of earlier tournaments, the user's home,
    // the other teams' submissions) is unreadable.
    let mut readable: Vec<PathBuf> = SYSTEM_READABLE.iter().map(PathBuf::from).collect();
    // The folders it needs may be listed even where another bot's files
    // beside its own are hidden (Python lists its script's folder to import
    // from it): names, not contents.
    let listable: Vec<PathBuf> = needed.iter().filter(|p| p.is_dir()).cloned().collect();
    readable.extend(needed);
    readable.extend(program);
    CommandPolicy {
        policy: landlock::FsPolicy {
            writable: Vec::new(),
            hidden,
            exposed,
            readable: Some(readable),
            own_proc_only: !strict,
            listable,
        },
        missing,
    }
}

/// The Landlock ruleset of a bot under basic ([`landlock_policy`]), made
/// by the referee before it forks the bot, which then only enforces it
/// (`landlock_restrict_self`, after the rule of its own `/proc` folder):
/// no path resolved, no folder walked, no rule added between its fork and
/// its exec. `None`: the kernel has no Landlock.
///
/// Only the rule of the bot's working directory is the bot's own; the rest
/// is planned once per command ([`CommandRules`]) and reused for every bot
/// of it. Not for strict: its `/tmp`, `/dev/shm` and `/proc` are mounts the
/// bot's child makes after the fork, which a ruleset made before could not
/// name (rules hold inodes).
pub(crate) fn prepared_ruleset(
    spec: &LaunchSpec,
    with_secrets: bool,
) -> Result<Option<OwnedFd>, StepError> {
    let confinement_error = |e: landlock::LandlockError| {
        StepError::new(
            Step::FileSystemConfinement,
            io::Error::other(crate::text::with_causes(&e)),
        )
    };
    debug_assert!(
        spec.strict.is_none(),
        "a strict bot's rules name its mounts"
    );
    let writable = writable_paths(spec);
    let command = CommandRules::of(spec, with_secrets).map_err(confinement_error)?;
    // A hidden path beneath the bot's own working directory is dropped by
    // `landlock_policy` (rights only add up): never so for a fresh folder,
    // but if so, the bot's policy is made whole, as in its child.
    if command
        .hidden
        .iter()
        .any(|h| writable.iter().any(|w| h.starts_with(w)))
    {
        return landlock::prepare(&landlock_policy(spec, with_secrets)).map_err(confinement_error);
    }
    command
        .rules
        .ruleset_with(&writable)
        .map_err(confinement_error)
}

/// The rules every bot of one command shares ([`landlock::SharedRules`]),
/// planned at its first start and kept by the context the bot starts in
/// ([`crate::Footprint`]).
///
/// Kept paths cannot open a hole: what they name changes only by the
/// organiser's hand or the referee's (a bot writes nowhere but beneath its
/// own working directory, which is not among them), and an anchor gone
/// stale grants less, never more (see [`landlock::SharedRules`]). The
/// change that would call for more hiding, a hidden path that did not
/// exist and now does (a results folder made later), makes a new plan; so
/// does one that would grant a bot less than it needs, a file or folder
/// it needs replaced (a new copy of a bot's folder renamed over the old).
pub(crate) struct CommandRules {
    /// What determines the rules: the command's paths.
    pub(super) key: CommandKey,
    pub(super) rules: landlock::SharedRules,
    /// The hidden paths of its policy, as [`landlock_policy`] checks them
    /// against the writable ones.
    pub(super) hidden: Vec<PathBuf>,
    /// The hidden paths that did not exist.
    pub(super) missing: Vec<PathBuf>,
    /// The files and folders the bot needs (its program, script and
    /// folders, real paths) as they were when planned: their device and
    /// inode, which the rules hold. One replaced since (an organiser's
    /// new copy of a bot's folder, renamed over the old one) makes a new
    /// plan, else the bot would be refused its own files.
    pub(super) needed: Vec<(PathBuf, Option<(u64, u64)>)>,
}

/// The device and inode at `path` now (`None`: nothing there).
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// What of a [`LaunchSpec`] its Landlock rules, but the working
/// directory's own, follow from ([`command_policy`]).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct CommandKey {
    pub(super) program: PathBuf,
    pub(super) args: Vec<OsString>,
    pub(super) readable: Vec<PathBuf>,
    pub(super) hidden: Vec<PathBuf>,
    pub(super) strict: bool,
    pub(super) as_root: bool,
    pub(super) with_secrets: bool,
    pub(super) working_folders: Option<PathBuf>,
}

/// The plans kept, newest last; the oldest goes past this many.
pub(crate) const KEPT_PLANS: usize = 32;
/// A plan holding more descriptors of its own than this (a walk of a
/// crowded folder) is not kept: the referee's descriptors are not the
/// plans' to spend.
pub(crate) const KEPT_PLAN_DESCRIPTORS: usize = 64;

impl CommandRules {
    /// The plan for `spec`'s command: a kept one, or a new one (kept).
    pub(crate) fn of(
        spec: &LaunchSpec,
        with_secrets: bool,
    ) -> Result<std::sync::Arc<CommandRules>, landlock::LandlockError> {
        use std::sync::Arc;
        let key = CommandKey {
            program: spec.program.clone(),
            args: spec.args.clone(),
            readable: spec.readable.clone(),
            hidden: spec.hidden.clone(),
            strict: spec.strict.is_some(),
            as_root: spec.identity.is_some(),
            with_secrets,
            working_folders: working_folders(spec),
        };
        let kept = |plans: &mut Vec<Arc<CommandRules>>| {
            let at = plans.iter().position(|plan| plan.key == key)?;
            // Still missing, what it needs still the same files, or
            // planned anew.
            let plan = &plans[at];
            if plan.missing.iter().all(|p| p.canonicalize().is_err())
                && plan.needed.iter().all(|(p, id)| identity(p) == *id)
            {
                return Some(plan.clone());
            }
            plans.remove(at);
            None
        };
        if let Some(plan) = kept(&mut spec.footprint.command_plans()) {
            return Ok(plan);
        }
        // Planned outside the lock: other games start meanwhile. What it
        // needs is identified before the rules are made, so that a file
        // replaced in between makes the next start plan anew.
        let mut needed: Vec<PathBuf> = needed_folders(spec);
        needed.extend(spec.program.canonicalize());
        let needed = needed
            .into_iter()
            .map(|path| {
                let id = identity(&path);
                (path, id)
            })
            .collect();
        let command = command_policy(spec, with_secrets, key.working_folders.as_deref());
        let plan = Arc::new(CommandRules {
            rules: landlock::SharedRules::plan(&command.policy)?,
            hidden: command.policy.hidden,
            missing: command.missing,
            needed,
            key,
        });
        if plan.rules.own_descriptors() <= KEPT_PLAN_DESCRIPTORS {
            let mut plans = spec.footprint.command_plans();
            plans.retain(|kept| kept.key != plan.key);
            if plans.len() >= KEPT_PLANS {
                plans.remove(0);
            }
            plans.push(plan.clone());
        }
        Ok(plan)
    }
}

/// Files of the system that only root may read, hidden from a bot that
/// runs with uid 0 (basic, as root).
/// The Landlock layer that hides root's secrets ([`ROOTS_SECRETS`]) from a
/// bot that keeps uid 0, built once for every bot, before the fork (`None`:
/// not root, or no Landlock).
pub(crate) fn secrets_layer() -> io::Result<Option<&'static OwnedFd>> {
    static LAYER: std::sync::OnceLock<Result<Option<OwnedFd>, String>> = std::sync::OnceLock::new();
    let layer = LAYER.get_or_init(|| {
        if !rustix::process::geteuid().is_root() {
            return Ok(None);
        }
        let secrets: Vec<PathBuf> = ROOTS_SECRETS.iter().map(PathBuf::from).collect();
        landlock::prepare_all_but(&secrets).map_err(|e| e.to_string())
    });
    match layer {
        Ok(fd) => Ok(fd.as_ref()),
        Err(e) => Err(io::Error::other(format!("hiding root's files: {e}"))),
    }
}

pub(crate) const ROOTS_SECRETS: &[&str] = &[
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh",
    "/etc/ssl/private",
    "/etc/security/opasswd",
];

/// What every bot under basic may read: the system's programs, libraries,
/// configuration and the kernel's views (not `/home`, `/root`, `/tmp`,
/// `/srv`, `/var` or `/run`, where sockets of other services live). Not
/// `/dev` either: the character devices a program needs are granted on
/// their own ([`landlock::DEVICES`]); the rest of it holds disks (a bot
/// that keeps uid 0 could read them raw, whatever Landlock hides by name)
/// and `/dev/shm`, where the working directories may lie.
pub(crate) const SYSTEM_READABLE: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys",
];
