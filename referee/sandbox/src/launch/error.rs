//! Why a bot did not start: the step of its start that failed, where (the
//! path it was at, if any), and the system's error; or its program that
//! could not be run; or a file of the organiser's closed to the bot's user.

use std::fmt;

use super::*;

/// A step of a bot's start, in the launcher or in the bot's child between
/// fork and exec. Its name is what a user reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// The launcher becoming the subreaper of the bot's tree.
    Subreaper,
    /// The launcher's PID, network and IPC namespaces (strict).
    Namespaces,
    /// The pipe on which the bot's child tells which step failed.
    FailurePipe,
    /// The launcher's report to the referee.
    Report,
    JoiningItsCgroup,
    PrivateMounts,
    OwnSession,
    OwnProcessGroup,
    LeavingTheTerminal,
    ResourceLimits,
    GivingItsWorkingDirectory,
    GivingItsPipes,
    DroppingCapabilities,
    SwitchingGroup,
    SwitchingUser,
    NewUserNamespace,
    MappingItsUser,
    FileSystemConfinement,
    SeccompFilter,
    ParentDeathSignal,
}

impl Step {
    /// Every step, in the order of their codes.
    const ALL: [Step; 20] = [
        Step::Subreaper,
        Step::Namespaces,
        Step::FailurePipe,
        Step::Report,
        Step::JoiningItsCgroup,
        Step::PrivateMounts,
        Step::OwnSession,
        Step::OwnProcessGroup,
        Step::LeavingTheTerminal,
        Step::ResourceLimits,
        Step::GivingItsWorkingDirectory,
        Step::GivingItsPipes,
        Step::DroppingCapabilities,
        Step::SwitchingGroup,
        Step::SwitchingUser,
        Step::NewUserNamespace,
        Step::MappingItsUser,
        Step::FileSystemConfinement,
        Step::SeccompFilter,
        Step::ParentDeathSignal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Subreaper => "subreaper",
            Step::Namespaces => "new PID, network and IPC namespaces",
            Step::FailurePipe => "pipe",
            Step::Report => "report",
            Step::JoiningItsCgroup => "joining its cgroup",
            Step::PrivateMounts => "private mounts",
            Step::OwnSession => "own session",
            Step::OwnProcessGroup => "own process group",
            Step::LeavingTheTerminal => "leaving the terminal",
            Step::ResourceLimits => "resource limits",
            Step::GivingItsWorkingDirectory => "giving the bot its working directory",
            Step::GivingItsPipes => "giving the bot its pipes",
            Step::DroppingCapabilities => "dropping capabilities",
            Step::SwitchingGroup => "switching group",
            Step::SwitchingUser => "switching user",
            Step::NewUserNamespace => "new user namespace",
            Step::MappingItsUser => "mapping its user in its namespace",
            Step::FileSystemConfinement => "file-system confinement",
            Step::SeccompFilter => "seccomp filter",
            Step::ParentDeathSignal => "parent-death signal",
        }
    }

    /// The byte that names it on the bot's child's failure pipe.
    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(code: u8) -> Option<Step> {
        Step::ALL.get(usize::from(code)).copied()
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A step of a bot's start that failed: which, at which path if it was at
/// one, and the system's error.
#[derive(Debug)]
pub struct StepError {
    pub step: Step,
    pub path: Option<PathBuf>,
    pub error: io::Error,
}

impl StepError {
    pub fn new(step: Step, error: impl Into<io::Error>) -> StepError {
        StepError {
            step,
            path: None,
            error: error.into(),
        }
    }

    /// The step failed at `path`.
    pub fn at(step: Step, path: &Path, error: impl Into<io::Error>) -> StepError {
        StepError {
            step,
            path: Some(path.to_path_buf()),
            error: error.into(),
        }
    }

    /// The step failed with errno (a system call that returned -1).
    pub fn last(step: Step) -> StepError {
        StepError::new(step, io::Error::last_os_error())
    }

    /// Tells the step, its path and, for an error that is not the system's
    /// errno alone, its text on the bot's child's failure `pipe`, without
    /// allocating (the child may be past its address-space limit): std
    /// passes back from the child only an errno.
    pub(super) fn send(&self, pipe: &impl std::os::fd::AsFd) {
        let _ = rustix::io::write(pipe, &[self.step.code()]);
        if let Some(path) = &self.path {
            let _ = rustix::io::write(pipe, path.as_os_str().as_bytes());
        }
        if self.error.raw_os_error().is_none() {
            let mut text = [0u8; 512];
            let mut cursor = io::Cursor::new(&mut text[..]);
            let _ = write!(cursor, "\0{}", self.error);
            let written = cursor.position() as usize;
            let _ = rustix::io::write(pipe, &text[..written]);
        }
    }

    /// What [`StepError::send`] sent, with `exec_error`, the errno std
    /// passed back; `None` if nothing was sent (the exec itself failed).
    pub(super) fn received(sent: &[u8], exec_error: io::Error) -> Option<StepError> {
        let (&code, rest) = sent.split_first()?;
        let step = Step::from_code(code)?;
        let (path, text) = match rest.iter().position(|&b| b == 0) {
            Some(nul) => (&rest[..nul], Some(&rest[nul + 1..])),
            None => (rest, None),
        };
        Some(StepError {
            step,
            path: (!path.is_empty()).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(path))),
            error: match text {
                Some(text) => io::Error::other(String::from_utf8_lossy(text).into_owned()),
                None => exec_error,
            },
        })
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{} ({}): {}", self.step, path.display(), self.error),
            None => write!(f, "{}: {}", self.step, self.error),
        }
    }
}

impl std::error::Error for StepError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Whose a failure to start a bot is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The bot's own: its program cannot be run. Judged, not retried.
    Bots,
    /// The organiser's: the bot's files are closed to its user. Not
    /// retried; no game is played until it is fixed.
    Operators,
    /// The system's (no memory, no process slot, a sandbox step): retried,
    /// never judged.
    Systems,
}

/// Why a bot did not start.
#[derive(Debug)]
pub enum LaunchError {
    /// A step of its start failed.
    Step(StepError),
    /// Its program could not be exec'd.
    CannotRun {
        program: PathBuf,
        error: io::Error,
        /// It runs as a user of its own (strict, as root).
        own_user: bool,
    },
    /// Under strict, its program is not runnable or its script not
    /// readable by others, and so not by the bot's own user.
    ClosedToItsUser {
        path: PathBuf,
        mode: u32,
        needs: Needs,
    },
}

/// What a bot's user needs of a file of the organiser's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Its program: runnable by others (`o+x`).
    Run,
    /// Its script: readable by others (`o+r`).
    Read,
}

impl Needs {
    /// The bit of the file's mode that gives it to others.
    pub fn others_bit(self) -> u32 {
        match self {
            Needs::Run => 0o001,
            Needs::Read => 0o004,
        }
    }
}

impl From<StepError> for LaunchError {
    fn from(e: StepError) -> LaunchError {
        LaunchError::Step(e)
    }
}

impl LaunchError {
    pub fn fault(&self) -> Fault {
        match self {
            LaunchError::Step(_) => Fault::Systems,
            LaunchError::ClosedToItsUser { .. } => Fault::Operators,
            // The program itself is at fault (missing, not executable, not
            // a program), unlike the system's refusals (EAGAIN, ENOMEM).
            LaunchError::CannotRun { error, .. } => match error.raw_os_error() {
                Some(
                    libc::ENOENT
                    | libc::EACCES
                    | libc::ENOEXEC
                    | libc::ENOTDIR
                    | libc::ELOOP
                    | libc::EISDIR
                    | libc::ETXTBSY
                    | libc::ENAMETOOLONG
                    | libc::E2BIG,
                ) => Fault::Bots,
                _ => Fault::Systems,
            },
        }
    }

    /// The launcher's report line for it (after `error `): its fault's
    /// mark ([`BOTS_FAULT`], [`OPERATORS_FAULT`]), then what it says, on
    /// one line.
    pub fn report_line(&self) -> String {
        let mark = match self.fault() {
            Fault::Bots => BOTS_FAULT,
            Fault::Operators => OPERATORS_FAULT,
            Fault::Systems => "",
        };
        format!("{mark}{self}").replace('\n', " ")
    }
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Step(e) => e.fmt(f),
            LaunchError::CannotRun {
                program,
                error,
                own_user,
            } => {
                write!(f, "cannot run {}: {error}", program.display())?;
                if *own_user && error.raw_os_error() == Some(libc::EACCES) {
                    f.write_str(
                        " (strict runs each bot as an unprivileged user of its own: the bot's \
                         program, script and their folders must be readable by others, e.g. \
                         chmod o+rX)",
                    )?;
                }
                Ok(())
            }
            LaunchError::ClosedToItsUser { path, mode, needs } => write!(
                f,
                "{} is not {} by others (mode {:o}): under --sandbox strict each bot runs as \
                 a user of its own; make it so with chmod o+{} {}",
                path.display(),
                match needs {
                    Needs::Run => "runnable",
                    Needs::Read => "readable",
                },
                mode & 0o7777,
                match needs {
                    Needs::Run => 'x',
                    Needs::Read => 'r',
                },
                path.display()
            ),
        }
    }
}

impl std::error::Error for LaunchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LaunchError::Step(e) => Some(&e.error),
            LaunchError::CannotRun { error, .. } => Some(error),
            LaunchError::ClosedToItsUser { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the bot's child sends on its failure pipe reads back as the
    /// same step, path and error text.
    #[test]
    fn a_step_error_crosses_the_failure_pipe() {
        let (read, write) = rustix::pipe::pipe().unwrap();
        let sent = StepError::at(
            Step::PrivateMounts,
            Path::new("/tmp/x"),
            io::Error::other("a reason"),
        );
        sent.send(&write);
        drop(write);
        let mut bytes = Vec::new();
        File::from(read).read_to_end(&mut bytes).unwrap();
        let got = StepError::received(&bytes, io::Error::from_raw_os_error(libc::EINVAL)).unwrap();
        assert_eq!(got.to_string(), "private mounts (/tmp/x): a reason");

        let (read, write) = rustix::pipe::pipe().unwrap();
        StepError::new(
            Step::SeccompFilter,
            io::Error::from_raw_os_error(libc::EPERM),
        )
        .send(&write);
        drop(write);
        let mut bytes = Vec::new();
        File::from(read).read_to_end(&mut bytes).unwrap();
        let got = StepError::received(&bytes, io::Error::from_raw_os_error(libc::EPERM)).unwrap();
        assert_eq!(got.step, Step::SeccompFilter);
        assert_eq!(got.path, None);
        assert_eq!(got.error.raw_os_error(), Some(libc::EPERM));
        assert!(StepError::received(&[], io::Error::other("exec")).is_none());
        for step in Step::ALL {
            assert_eq!(Step::from_code(step.code()), Some(step));
        }
    }

    #[test]
    fn a_program_that_is_missing_is_the_bots_fault_and_said_so() {
        let e = LaunchError::CannotRun {
            program: "/no/such".into(),
            error: io::Error::from_raw_os_error(libc::ENOENT),
            own_user: false,
        };
        assert_eq!(e.fault(), Fault::Bots);
        assert!(
            e.report_line().starts_with(BOTS_FAULT),
            "{}",
            e.report_line()
        );
        assert!(e.to_string().starts_with("cannot run /no/such: "), "{e}");
        let e = LaunchError::CannotRun {
            program: "/bin/x".into(),
            error: io::Error::from_raw_os_error(libc::EAGAIN),
            own_user: false,
        };
        assert_eq!(e.fault(), Fault::Systems);
    }

    /// The organiser's file closed to the bot's user says which file, why
    /// and the chmod to make, and is the organiser's to fix.
    #[test]
    fn a_script_closed_to_others_names_the_chmod_to_make() {
        let e = LaunchError::ClosedToItsUser {
            path: "/home/t/bot.py".into(),
            mode: 0o100600,
            needs: Needs::Read,
        };
        assert_eq!(e.fault(), Fault::Operators);
        assert_eq!(
            e.to_string(),
            "/home/t/bot.py is not readable by others (mode 600): under --sandbox strict each \
             bot runs as a user of its own; make it so with chmod o+r /home/t/bot.py"
        );
        assert!(e.report_line().starts_with(OPERATORS_FAULT));
    }
}
