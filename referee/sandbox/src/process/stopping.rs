//! A bot at rest between its reply and its next request: stopped
//! ([`BotProcess::freeze`]), continued ([`BotProcess::thaw`]), and found
//! out if it continued itself meanwhile.

use super::*;

impl BotProcess {
    /// After a reply: a bot ever seen busy while idle is stopped now;
    /// another keeps running until its opponent has been asked for
    /// [`IDLE_GRACE`] (it is then blocked reading, as a bot waiting for its
    /// next request should be, and a stop would only cost two wake-ups).
    /// `cpu` is its CPU time now.
    pub fn rest(&mut self, cpu: Option<Duration>) {
        self.cpu_at_reply = cpu;
        if self.busy_when_idle {
            self.freeze();
        }
    }

    /// Stops the bot's whole process group (SIGSTOP): until it is continued
    /// before its next request it gets no CPU, so it can neither ponder on
    /// its opponent's time nor slow the opponent down (when it is stopped:
    /// see [`BotProcess::rest`]). Its threads stop too;
    /// its children stay in its group (it cannot leave it: `setsid` and
    /// `setpgid` are refused), under both layers. Two system calls a move:
    /// cheaper than the cgroup freezer's file writes.
    pub fn freeze(&mut self) {
        if self.frozen || self.exited || self.report.is_some() {
            return;
        }
        self.group.signal(Signal::STOP);
        self.frozen = true;
        self.frozen_at = Instant::now();
        self.cpu_stopped = None;
        // What it used between its reply and now was used idle; and until
        // it is continued, this is its CPU time.
        self.cpu_at_freeze = self.cpu_time();
        if let (Some(now), Some(then)) = (self.cpu_at_freeze, self.cpu_at_reply) {
            if now.saturating_sub(then) > IDLE_CPU_TOLERANCE {
                self.busy_when_idle = true;
            }
        }
    }

    /// When a stopped bot's CPU time is read, as that of a bot that has
    /// surely stopped: [`STOP_SETTLE`] after its stop (`None`: not
    /// stopped, or read already).
    pub fn settle_due(&self) -> Option<Instant> {
        (self.frozen && self.cpu_stopped.is_none()).then(|| self.frozen_at + STOP_SETTLE)
    }

    /// Reads the CPU time of a bot stopped [`STOP_SETTLE`] ago or more:
    /// from then on it adds none, unless it continued itself (see
    /// [`BotProcess::thaw`]).
    pub fn settle(&mut self) {
        if self.settle_due().is_some_and(|due| Instant::now() >= due) {
            // User and system time alike (see `thaw`), of every process
            // the bot may have (`cpu_time`).
            self.cpu_stopped = self.cpu_time();
        }
    }

    /// CPU time the bot used while it should have been stopped, if it did
    /// (found when it was continued, [`BotProcess::thaw`]): it continued
    /// itself, with a SIGCONT of its own (a timer's), which the kernel
    /// honours whoever sends it. Taken once.
    pub fn take_escape(&mut self) -> Option<Duration> {
        self.ran_while_stopped.take()
    }

    /// The bot's CPU time as last read: when it was stopped, if it has
    /// been since its reply (it has used none since), else at its reply
    /// (what it used since, while idle, is then at most [`IDLE_GRACE`] a
    /// thread, as it would have been stopped otherwise). The start of its
    /// next move's CPU time, without a system call.
    pub fn cpu_at_rest(&self) -> Option<Duration> {
        if self.frozen {
            self.cpu_at_freeze
        } else {
            self.cpu_at_reply
        }
    }

    /// Lets a frozen bot run again (before its request is written).
    pub fn thaw(&mut self) {
        if !self.frozen {
            return;
        }
        // A stopped bot runs nothing: one whose CPU time grew after its
        // stop had settled ran on its opponent's time, continued by a
        // SIGCONT of its own (a timer's), which the kernel honours whoever
        // sends it. System time counts as much as user time: a bot that
        // continued itself only to make long system calls (`getrandom` of
        // megabytes, again and again) computes nothing, but takes the CPU
        // its opponent thinks on. What a stop lets finish (one system call
        // already under way) is within the tolerance.
        if let Some(stopped) = self.cpu_stopped {
            let ran = self
                .cpu_time()
                .map(|now| now.saturating_sub(stopped))
                .filter(|ran| *ran > STOPPED_CPU_TOLERANCE);
            if ran.is_some() {
                self.ran_while_stopped = ran;
            }
        }
        self.group.signal(Signal::CONT);
        self.frozen = false;
        self.cpu_stopped = None;
    }
}
