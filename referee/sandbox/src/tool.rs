//! Trusted programs the referee runs for itself (`git` for `collect`), not
//! bots: no sandbox, but never a prompt and never a hang. The program runs
//! in a session of its own (no controlling terminal, so nothing it starts
//! can open `/dev/tty` to ask for a password), with stdin empty, dies with
//! the referee, and is killed with everything it started (its process
//! group) when its time is up or Ctrl-C stops the referee.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Why a trusted program gave no output.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// It could not be started (not installed, not executable).
    #[error("cannot be run (is it installed?)")]
    NotRun(#[source] io::Error),
    /// Still running after its time: killed.
    #[error("no answer within {}: stopped (a server that does not answer, or that waits for a password?)", crate::show_duration(*.0))]
    TimedOut(Duration),
    /// Ctrl-C stopped the referee meanwhile: killed.
    #[error("stopped by Ctrl-C")]
    Interrupted,
}

/// How often a running program is looked at.
const POLL: Duration = Duration::from_millis(20);

/// Runs `command` to its end, or kills it (and all it started) after
/// `limit` or at Ctrl-C; its stdout and stderr, whatever its status.
pub fn run(mut command: Command, limit: Duration) -> Result<Output, ToolError> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: between fork and exec only async-signal-safe calls (setsid,
    // prctl), no allocation.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(ToolError::NotRun)?;
    // The pipes are drained while it runs, so that a chatty program does
    // not block on a full pipe.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let ended = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) => {}
            Err(e) => break Err(ToolError::NotRun(e)),
        }
        if crate::stop_requested() {
            break Err(ToolError::Interrupted);
        }
        if started.elapsed() >= limit {
            break Err(ToolError::TimedOut(limit));
        }
        std::thread::sleep(POLL);
    };
    let status = match ended {
        Ok(status) => status,
        Err(e) => {
            // The session's group: its helpers too (ssh, git-remote-http).
            // Not yet reaped, so the group id is still the program's.
            if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
    };
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}
