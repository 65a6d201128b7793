//! A running bot: [`BotProcess`]'s exchanges under deadlines, its
//! measurement (CPU, memory, disk, stderr), its freezing between turns
//! and its end.

use super::*;

mod stopping;

impl BotProcess {
    /// Starts a bot in a fresh, empty working directory, in its own process
    /// group without a terminal, with a clean environment and its rlimits, under
    /// the sandbox of `limits`: by the referee itself under basic for a bot
    /// that may not fork, else through a launcher ([`launch`]); see
    /// `start::start`.
    pub fn spawn(command: &BotCommand, limits: &ProcessLimits) -> io::Result<BotProcess> {
        let workdir = tempfile::Builder::new()
            .prefix("referee-bot-")
            .tempdir_in(limits.footprint.workdirs(take_workdirs_folder)?)?;
        let quota = QuotaMount::over(workdir.path(), limits.disk_kb);
        let mut process = BotProcess::spawn_in(command, limits, workdir)?;
        process.quota_mount = quota;
        Ok(process)
    }

    /// [`BotProcess::spawn`] in a working directory the caller made (a
    /// compiler's, holding the source it compiles; the folder that holds it
    /// is hidden from the process like the bots' folder). The directory is
    /// removed when the process is dropped.
    pub fn spawn_in(
        command: &BotCommand,
        limits: &ProcessLimits,
        workdir: tempfile::TempDir,
    ) -> io::Result<BotProcess> {
        sandbox::protect_referee();
        no_stop_notices();
        let tag = sandbox::new_tag(limits.footprint.workdirs_folder().as_deref());
        let cgroup = match &limits.sandbox {
            Sandbox::Basic => None,
            Sandbox::Strict(roots) => Some(sandbox::BotCgroup::create(
                roots,
                &limits.footprint,
                &tag,
                limits.memory_cap_kb(),
            )?),
        };
        let spec = launch_spec(command, limits, workdir.path(), &tag, cgroup.as_ref());
        let started = start(&spec)?;
        for fd in [&started.stdin, &started.stdout, &started.stderr] {
            set_nonblocking(fd)?;
        }
        Ok(BotProcess {
            pid: started.bot,
            keeper: started.keeper,
            group: ProcessGroup(started.bot),
            pidfd: started.pidfd,
            stdin: Some(started.stdin),
            stdout: Some(started.stdout),
            stderr: Some(started.stderr),
            limits: limits.clone(),
            pending: Vec::with_capacity(256),
            outgoing: Vec::with_capacity(256),
            send_waited_from: None,
            stdout_total: 0,
            stderr_partial: Vec::new(),
            stderr_kept: 0,
            stderr_truncated: false,
            stderr_lines: Vec::new(),
            stderr_tail: std::collections::VecDeque::new(),
            stderr_tail_bytes: 0,
            stderr_left_out: 0,
            peak_memory_kb: 0,
            memory_checked: Instant::now(),
            disk_checked: Instant::now(),
            frozen: false,
            busy_when_idle: false,
            cpu_at_reply: None,
            cpu_at_freeze: None,
            frozen_at: Instant::now(),
            cpu_stopped: None,
            ran_while_stopped: None,
            queued: Vec::new(),
            stdio_inodes: None,
            exited: false,
            report: None,
            tag,
            cgroup,
            _footprint: limits.footprint.clone(),
            quota_mount: None,
            _workdir: WorkDir(workdir),
        })
    }

    pub fn pid(&self) -> i32 {
        self.pid.as_raw_nonzero().get()
    }

    /// The process's working directory (removed when it is dropped).
    pub fn workdir(&self) -> &std::path::Path {
        self._workdir.path()
    }

    /// Writes `line` and a newline, waiting at most until `deadline` for the
    /// bot to make room in the pipe.
    pub fn send_line(
        &mut self,
        line: &str,
        deadline: Instant,
        budget: Duration,
    ) -> Result<(), Fault> {
        self.send_line_until(line, Some(deadline), budget)
    }

    /// [`BotProcess::send_line`] waiting at most `budget` for room in the
    /// pipe from when it is found full: the clock is read only then (a
    /// line that fits, as every line of a game between quick bots does,
    /// costs no clock read).
    pub fn send_line_within(&mut self, line: &str, budget: Duration) -> Result<(), Fault> {
        self.send_line_until(line, None, budget)
    }

    /// When the last line sent found the pipe full and began to wait for
    /// room: the start of a wait that failed ([`Fault::InputNotRead`]).
    pub fn send_waited_from(&self) -> Option<Instant> {
        self.send_waited_from
    }

    fn send_line_until(
        &mut self,
        line: &str,
        deadline: Option<Instant>,
        budget: Duration,
    ) -> Result<(), Fault> {
        let mut bytes = std::mem::take(&mut self.outgoing);
        bytes.clear();
        // Notices that waited for it come first, as they were sent.
        bytes.append(&mut self.queued);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let sent = self.send_bytes(&bytes, deadline, budget);
        self.outgoing = bytes;
        sent
    }

    /// Sends a line that expects no reply. A stopped bot reads nothing: what
    /// its pipe cannot take now waits for its next request (or the game's
    /// end), where it goes first; a wait for room here would only run out
    /// its time, and a line cut short would lose it its next move.
    pub fn send_notice_line(&mut self, line: &str, budget: Duration) -> Result<(), Fault> {
        if !self.frozen && self.queued.is_empty() {
            return self.send_line_within(line, budget);
        }
        self.queued.extend_from_slice(line.as_bytes());
        self.queued.push(b'\n');
        if self.queued.len() > MAX_QUEUED_BYTES {
            return Err(Fault::InputNotRead { budget });
        }
        // As much as fits now, without waiting.
        let Some(stdin) = &self.stdin else {
            return Err(Fault::ClosedPipe("stdin"));
        };
        let mut written = 0;
        while written < self.queued.len() {
            match rustix::io::write(stdin, &self.queued[written..]) {
                Ok(n) => written += n,
                Err(Errno::INTR) => {}
                Err(Errno::AGAIN) => break,
                Err(_) => return Err(Fault::ClosedPipe("stdin")),
            }
        }
        self.queued.drain(..written);
        Ok(())
    }

    /// Writes `bytes`, waiting until `deadline` for room in the pipe (no
    /// deadline: `budget` from when the pipe is first found full).
    pub(crate) fn send_bytes(
        &mut self,
        bytes: &[u8],
        mut deadline: Option<Instant>,
        budget: Duration,
    ) -> Result<(), Fault> {
        self.send_waited_from = None;
        let mut written = 0;
        while written < bytes.len() {
            let Some(stdin) = &self.stdin else {
                return Err(Fault::ClosedPipe("stdin"));
            };
            match rustix::io::write(stdin, &bytes[written..]) {
                Ok(n) => written += n,
                Err(Errno::INTR) => {}
                Err(Errno::AGAIN) => {
                    if stop_requested() {
                        return Err(Fault::Interrupted);
                    }
                    let now = Instant::now();
                    self.send_waited_from.get_or_insert(now);
                    let deadline = *deadline.get_or_insert(now + budget);
                    if now >= deadline {
                        return Err(Fault::InputNotRead { budget });
                    }
                    let ready = self.wait(true, false, (deadline - now).min(MEMORY_POLL));
                    self.absorb(&ready)?;
                    if ready.exited {
                        return Err(self.exit_fault());
                    }
                    self.check_limits()?;
                }
                Err(_) => {
                    // EPIPE: the bot closed its stdin, most likely by exiting.
                    self.stdin = None;
                    if self.wait_exit(Instant::now() + Duration::from_millis(50)) {
                        return Err(self.exit_fault());
                    }
                    return Err(Fault::ClosedPipe("stdin"));
                }
            }
        }
        Ok(())
    }

    /// Waits until `deadline` for one complete line on stdout. Returns the line
    /// without its newline (and a `\r` before it) and when it was complete.
    pub fn recv_line(
        &mut self,
        deadline: Instant,
        budget: Duration,
    ) -> Result<(String, Instant), Fault> {
        self.recv_reply(deadline, budget, None, Instant::now())
    }

    /// [`BotProcess::recv_line`] for a reply to a request sent at
    /// `opponent.asked`, while the opponents wait: once the wait has lasted
    /// [`IDLE_GRACE`], every opponent is stopped ([`BotProcess::freeze`]).
    /// Before a timeout, the CPU time the opponents took since last at
    /// rest is excused: the deadline moves on by it
    /// ([`Opponent::excused`]). `now` is the time the wait starts (the
    /// caller has just read the clock: it is not read again before the
    /// first poll).
    pub fn recv_reply(
        &mut self,
        mut deadline: Instant,
        budget: Duration,
        mut opponent: Option<&mut Opponent<'_>>,
        mut now: Instant,
    ) -> Result<(String, Instant), Fault> {
        let mut to_freeze = opponent.is_some();
        // The first wait watches the pipes only, for at most IDLE_GRACE, in
        // a bot that may not fork: its stdout ends when it does (no other
        // process holds it), so its exit wakes the wait without the pidfd,
        // one file less to poll on every move. From the second wait on the
        // pidfd is watched too (a bot that handed its stdout to another
        // process over a socket is seen to exit within IDLE_GRACE).
        let mut first_wait = !self.limits.allow_fork && self.stdout.is_some();
        loop {
            if let Some(line) = self.take_line()? {
                return self.measured_reply(line);
            }
            if stop_requested() {
                return Err(Fault::Interrupted);
            }
            if now >= deadline {
                match opponent.as_mut().map(|o| o.excuse()) {
                    Some(more) if !more.is_zero() => {
                        deadline += more;
                        continue;
                    }
                    _ => return Err(Fault::Timeout { budget }),
                }
            }
            let mut until = deadline.min(now + MEMORY_POLL);
            if let Some(o) = opponent.as_mut().filter(|_| to_freeze) {
                let freeze_at = o.asked + IDLE_GRACE;
                if now >= freeze_at {
                    for process in o.processes.iter_mut() {
                        process.freeze();
                    }
                    to_freeze = false;
                } else {
                    until = until.min(freeze_at);
                }
            }
            if let Some(o) = opponent.as_mut() {
                for process in o.processes.iter_mut() {
                    process.settle();
                    if let Some(due) = process.settle_due() {
                        until = until.min(due.max(now));
                    }
                }
            }
            if first_wait {
                until = until.min(now + IDLE_GRACE);
            }
            let ready = self.wait_watching(false, true, !first_wait, until - now);
            first_wait = false;
            let stdout_open = self.stdout.is_some();
            self.absorb(&ready)?;
            if let Some(line) = self.take_line()? {
                return self.measured_reply(line);
            }
            if stdout_open && self.stdout.is_none() {
                // EOF: the bot closed stdout; it cannot answer any more.
                if self.wait_exit(deadline.min(Instant::now() + Duration::from_millis(100))) {
                    return Err(self.exit_fault());
                }
                return Err(Fault::ClosedPipe("stdout"));
            }
            if ready.exited {
                return Err(self.exit_fault());
            }
            // However the bot behaves (chatting on stderr, trickling
            // bytes), its memory and folder are measured on time.
            self.check_limits()?;
            now = Instant::now();
        }
    }

    /// A reply, once the bot's limits are measured if they are due: a bot
    /// that always replies within [`MEMORY_POLL`] is never measured while
    /// it waits, and what only a measure sees now (its threads, its sockets
    /// and pipes) would otherwise grow move after move, unmeasured until
    /// the end (its peak memory is judged then too, but thousands of
    /// threads would have taken the machine's pids long before).
    fn measured_reply(&mut self, line: String) -> Result<(String, Instant), Fault> {
        let at = Instant::now();
        let due = |since: Instant, every: Duration| at.saturating_duration_since(since) >= every;
        if due(self.memory_checked, MEMORY_POLL)
            || (self.limits.disk_kb > 0 && due(self.disk_checked, DISK_POLL))
        {
            self.check_limits()?;
        }
        Ok((line, at))
    }

    /// The lines the bot wrote on stdout that nobody asked for, if any:
    /// what arrived after its last reply and before its next request (read
    /// now, without waiting), each shortened for a verdict's detail; the
    /// last may lack its newline.
    pub fn unasked_output(&mut self) -> Result<Vec<String>, Fault> {
        if self.stdout.is_some() {
            self.read_stdout()?;
        }
        Ok(self.lines_beyond_reply())
    }

    /// The lines read beyond the reply just taken (they came in the same
    /// read), without reading more: what the bot writes later is found
    /// before its next request ([`BotProcess::unasked_output`]). Each is
    /// shortened for a verdict's detail; the last may lack its newline.
    pub fn lines_beyond_reply(&self) -> Vec<String> {
        if self.pending.is_empty() {
            return Vec::new();
        }
        String::from_utf8_lossy(&self.pending)
            .lines()
            .map(|line| crate::protocol::shorten(line.trim_end()))
            .collect()
    }

    /// What the bot has written of a line without ending it, if anything
    /// (a reply written without its newline), shortened for a verdict's
    /// detail.
    pub fn partial_line(&self) -> Option<String> {
        if self.pending.is_empty() || self.pending.contains(&b'\n') {
            return None;
        }
        let text = String::from_utf8_lossy(&self.pending);
        Some(crate::protocol::shorten(text.trim_end()))
    }

    /// Stderr lines kept since the last call: the head as it is read; once
    /// the bot is gone, the tail (its first line counts those left out).
    pub fn take_stderr(&mut self) -> Vec<StderrLine> {
        std::mem::take(&mut self.stderr_lines)
    }

    /// Ends the bot after a finished game: closes its stdin, lets it exit on
    /// its own for `grace`, then SIGTERM, then SIGKILL to the whole group.
    pub fn shut_down(&mut self, grace: Duration) -> ProcessReport {
        self.thaw();
        if !self.queued.is_empty() && !stop_requested() {
            // The notices that waited (the game's end among them).
            let queued = std::mem::take(&mut self.queued);
            let _ = self.send_bytes(&queued, Some(Instant::now() + grace), grace);
        }
        self.stdin = None;
        if stop_requested() {
            return self.kill();
        }
        if !self.wait_exit(Instant::now() + grace) {
            self.group.signal(Signal::TERM);
            if !self.wait_exit(Instant::now() + TERM_GRACE) {
                self.group.signal(Signal::KILL);
            }
        }
        self.finish()
    }

    /// Reads the bot's peak memory while it still runs (before it is told
    /// that the game ended): its final `ru_maxrss` may say only the
    /// referee's, the image the launcher was forked from (see
    /// `launch::own_peak_rss_kb`). The figure goes to the report; a peak
    /// over the cap is judged at the end.
    pub fn measure_before_end(&mut self) {
        if !self.exited && self.report.is_none() {
            let _ = self.check_memory();
        }
    }

    /// Ends the bot at once (it was disqualified, or the referee stops).
    pub fn kill(&mut self) -> ProcessReport {
        self.group.signal(Signal::KILL);
        self.finish()
    }

    /// CPU time the bot has used so far, cheap enough to read before and
    /// after every move: under strict with `allow_fork`, all its processes
    /// (its cgroup's `cpu.stat`); otherwise its own process, all threads
    /// but not its children (the kernel's per-process CPU clock). Exact while the bot
    /// waits; while it runs, the kernel's figure may lag by up to one
    /// scheduler tick (1 to 10 ms). `None` once the process is gone.
    pub fn cpu_time(&self) -> Option<Duration> {
        if self.exited {
            return None;
        }
        match &self.cgroup {
            // Only a bot that may fork has processes beyond its own; the
            // cgroup's file costs three system calls and a parse, the
            // process's clock one call.
            Some(cgroup) if self.limits.allow_fork => cgroup.cpu_time(),
            _ => process_cpu_time(self.pid),
        }
    }

    /// Peak resident memory seen so far, in KiB.
    pub fn peak_memory_kb(&self) -> u64 {
        self.peak_memory_kb
    }

    pub(crate) fn finish(&mut self) -> ProcessReport {
        if let Some(report) = &self.report {
            return report.clone();
        }
        self.stdin = None;
        // SIGKILL always ends a process, but wait_exit stays bounded in case
        // the bot is stuck in the kernel.
        if !self.wait_exit(Instant::now() + Duration::from_millis(50)) {
            self.group.signal(Signal::KILL);
            if let Some(cgroup) = &self.cgroup {
                cgroup.kill();
            }
            self.wait_exit(Instant::now() + LAUNCH_TIME);
        }
        // Under strict the cgroup counts the whole tree, exactly.
        let mut tree_cpu = None;
        if let Some(cgroup) = &self.cgroup {
            if let Some(kb) = cgroup.resident_kb() {
                self.peak_memory_kb = self.peak_memory_kb.max(kb);
            }
            cgroup.kill();
            tree_cpu = cgroup.cpu_time();
        }
        let (ended, launcher_exit) = match &mut self.keeper {
            // The launcher exits once the bot's tree is gone; its report
            // says how the bot ended. A launcher that does not (killed,
            // stuck) is killed, and the referee sweeps what the bot may
            // have left.
            Keeper::Launcher(Launcher { pid, report }) => {
                let ended = if self.exited {
                    report.rest().lines().find_map(launch::Ended::parse)
                } else {
                    None
                };
                if ended.is_none() {
                    let _ = rustix::process::kill_process(*pid, Signal::KILL);
                    self.group.signal(Signal::KILL);
                    sandbox::sweep(self.pid.as_raw_nonzero().get(), &self.tag);
                }
                (ended, reap(*pid))
            }
            // It cannot fork: its group is the bot alone, and SIGKILL (sent
            // above if it had not exited) ends it.
            Keeper::Referee => {
                let ended = reap_with_usage(self.pid);
                (ended, ended.map(|e| e.exit))
            }
        };
        let report = match ended {
            Some(ended) => ProcessReport {
                exit: Some(ended.exit),
                cpu_ms: tree_cpu.unwrap_or(ended.cpu).max(ended.cpu).as_secs_f64() * 1000.0,
                peak_memory_kb: self.peak_memory_kb.max(ended.max_rss_kb),
                stderr_truncated: self.stderr_truncated,
            },
            None => ProcessReport {
                exit: launcher_exit,
                cpu_ms: 0.0,
                peak_memory_kb: self.peak_memory_kb,
                stderr_truncated: self.stderr_truncated,
            },
        };
        self.peak_memory_kb = report.peak_memory_kb;
        // What the bot wrote before it exited is all in the pipe now: its
        // last lines (a crash's message) are read even when its exit was
        // seen first, as on a busy machine it can be.
        self.read_stderr();
        self.flush_stderr_partial();
        self.release_stderr_tail();
        self.stdout = None;
        self.stderr = None;
        self.report = Some(report.clone());
        report
    }

    /// Polls the pipes that are still open, and the pidfd.
    pub(crate) fn wait(&self, want_stdin: bool, want_stdout: bool, timeout: Duration) -> Ready {
        self.wait_watching(want_stdin, want_stdout, true, timeout)
    }

    /// [`BotProcess::wait`], the pidfd only if `want_exit`.
    fn wait_watching(
        &self,
        want_stdin: bool,
        want_stdout: bool,
        want_exit: bool,
        timeout: Duration,
    ) -> Ready {
        let wanted: [(Option<&OwnedFd>, u8, PollFlags); 4] = [
            (
                self.stdin.as_ref().filter(|_| want_stdin),
                0,
                PollFlags::OUT,
            ),
            (
                self.stdout.as_ref().filter(|_| want_stdout),
                1,
                PollFlags::IN,
            ),
            (self.stderr.as_ref(), 2, PollFlags::IN),
            (
                Some(&self.pidfd).filter(|_| want_exit && !self.exited),
                3,
                PollFlags::IN,
            ),
        ];
        // On the stack: this runs once or more per move.
        let mut fds: [PollFd<'_>; 4] =
            std::array::from_fn(|_| PollFd::new(&self.pidfd, PollFlags::empty()));
        let mut kinds = [0u8; 4];
        let mut count = 0;
        for (fd, kind, flags) in wanted {
            if let Some(fd) = fd {
                kinds[count] = kind;
                fds[count] = PollFd::new(fd, flags);
                count += 1;
            }
        }
        let fds = &mut fds[..count];
        let timeout = Timespec {
            tv_sec: timeout.as_secs() as _,
            tv_nsec: timeout.subsec_nanos() as _,
        };
        let mut ready = Ready::default();
        match rustix::event::poll(fds, Some(&timeout)) {
            Ok(0) | Err(_) => return ready,
            Ok(_) => {}
        }
        for (fd, kind) in fds.iter().zip(kinds) {
            if fd.revents().is_empty() {
                continue;
            }
            match kind {
                0 => ready.stdin = true,
                1 => ready.stdout = true,
                2 => ready.stderr = true,
                _ => ready.exited = true,
            }
        }
        ready
    }

    /// Reads what `wait` said is ready, enforcing the output caps.
    pub(crate) fn absorb(&mut self, ready: &Ready) -> Result<(), Fault> {
        if ready.stderr {
            self.read_stderr();
        }
        if ready.exited {
            self.exited = true;
        }
        if ready.stdout || ready.exited {
            self.read_stdout()?;
        }
        Ok(())
    }

    /// Reads all stdout available now (until it would block or ends).
    pub(crate) fn read_stdout(&mut self) -> Result<(), Fault> {
        const CHUNK: usize = 16 * 1024;
        while let Some(fd) = &self.stdout {
            // Straight into the buffer's spare room: nothing to zero first.
            self.pending.reserve(CHUNK);
            let room = self.pending.capacity() - self.pending.len();
            match rustix::io::read(fd, rustix::buffer::spare_capacity(&mut self.pending)) {
                Ok(0) => self.stdout = None,
                Ok(n) => {
                    self.stdout_total += n;
                    if self.stdout_total > self.limits.max_output_bytes {
                        return Err(Fault::TooMuchOutput {
                            limit: self.limits.max_output_bytes,
                        });
                    }
                    if self.pending.len() > self.limits.max_line_bytes + 2
                        && !self.pending.contains(&b'\n')
                    {
                        return Err(Fault::LineTooLong {
                            limit: self.limits.max_line_bytes,
                        });
                    }
                    // A short read emptied the pipe: asking again would
                    // only say so (what comes later is read later).
                    if n < room {
                        break;
                    }
                }
                Err(Errno::INTR) => {}
                Err(_) => break,
            }
        }
        Ok(())
    }

    /// Reads what stderr has now, keeping whole lines up to the cap.
    pub(crate) fn read_stderr(&mut self) {
        let mut chunk = [0u8; 16 * 1024];
        while let Some(fd) = &self.stderr {
            match rustix::io::read(fd, &mut chunk) {
                Ok(0) => {
                    self.stderr = None;
                    self.flush_stderr_partial();
                }
                Ok(n) => {
                    let now = Instant::now();
                    for &byte in &chunk[..n] {
                        if byte == b'\n' {
                            let line = std::mem::take(&mut self.stderr_partial);
                            self.keep_stderr(line, now);
                        } else if self.stderr_partial.len() < self.limits.max_line_bytes {
                            self.stderr_partial.push(byte);
                        }
                    }
                }
                Err(Errno::INTR) => {}
                Err(_) => break,
            }
        }
    }

    /// Keeps a stderr line: in the head while it has room (half the cap),
    /// else at the end of the tail, dropping the tail's oldest lines past
    /// the other half.
    pub(crate) fn keep_stderr(&mut self, line: Vec<u8>, at: Instant) {
        let size = line.len() + 1;
        let line = StderrLine {
            at,
            line: String::from_utf8_lossy(&line).into_owned(),
            left_out: 0,
        };
        let head_cap = self.limits.stderr_cap_bytes / 2;
        if self.stderr_tail.is_empty()
            && self.stderr_left_out == 0
            && self.stderr_kept + size <= head_cap
        {
            self.stderr_kept += size;
            self.stderr_lines.push(line);
            return;
        }
        self.stderr_tail_bytes += size;
        self.stderr_tail.push_back(line);
        while self.stderr_tail_bytes > self.limits.stderr_cap_bytes - head_cap {
            let Some(dropped) = self.stderr_tail.pop_front() else {
                break;
            };
            self.stderr_tail_bytes -= dropped.line.len() + 1;
            self.stderr_left_out += 1;
            self.stderr_truncated = true;
        }
    }

    /// Once the bot is gone: the tail joins the lines to take, its first
    /// line saying how many were left out before it.
    pub(crate) fn release_stderr_tail(&mut self) {
        if let Some(first) = self.stderr_tail.front_mut() {
            first.left_out = std::mem::take(&mut self.stderr_left_out);
        }
        self.stderr_lines.extend(self.stderr_tail.drain(..));
        self.stderr_tail_bytes = 0;
    }

    pub(crate) fn flush_stderr_partial(&mut self) {
        if !self.stderr_partial.is_empty() {
            let line = std::mem::take(&mut self.stderr_partial);
            self.keep_stderr(line, Instant::now());
        }
    }

    /// Takes one complete line from what was read, if there is one.
    pub(crate) fn take_line(&mut self) -> Result<Option<String>, Fault> {
        let Some(end) = self.pending.iter().position(|&b| b == b'\n') else {
            if self.pending.len() > self.limits.max_line_bytes {
                return Err(Fault::LineTooLong {
                    limit: self.limits.max_line_bytes,
                });
            }
            return Ok(None);
        };
        let mut line: Vec<u8> = self.pending.drain(..=end).collect();
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > self.limits.max_line_bytes {
            return Err(Fault::LineTooLong {
                limit: self.limits.max_line_bytes,
            });
        }
        match String::from_utf8(line) {
            Ok(text) => Ok(Some(text)),
            Err(e) => Err(Fault::NotText {
                text: crate::protocol::shorten(&String::from_utf8_lossy(e.as_bytes())),
            }),
        }
    }

    /// Waits until the bot exits or `deadline`, draining its output meanwhile
    /// so that a bot flushing at exit is not blocked. True if it exited.
    pub(crate) fn wait_exit(&mut self, deadline: Instant) -> bool {
        while !self.exited {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            let ready = self.wait(false, true, (deadline - now).min(MEMORY_POLL));
            if ready.stdout {
                // Output after the game is read and dropped, within the caps.
                if self.read_stdout().is_err() {
                    self.pending.clear();
                }
            }
            if ready.stderr {
                self.read_stderr();
            }
            if ready.exited {
                self.exited = true;
            }
        }
        true
    }

    /// The fault for a bot that exited during the game (reaps it).
    pub(crate) fn exit_fault(&mut self) -> Fault {
        let report = self.finish();
        if self.cgroup.as_ref().is_some_and(|c| c.oom_killed()) {
            // The cgroup's limit struck between two polls.
            return self.memory_fault(self.peak_memory_kb.max(self.limits.memory_cap_kb() + 1));
        }
        // Over its cap at its peak, then gone before the next poll (a
        // runtime that stops at its own heap limit, set to the cap, such as
        // the JVM's OutOfMemoryError): the memory limit is what it broke.
        let cap = self.limits.memory_cap_kb();
        if cap > 0 && report.peak_memory_kb > cap {
            return self.memory_fault(report.peak_memory_kb);
        }
        // Out of room in its folder (its own file system refuses writes
        // past the quota), and gone on the error: the quota is what it broke.
        if report.exit.is_some() {
            if let Some(fault) = self.disk_fault() {
                return fault;
            }
        }
        match report.exit {
            // A file past RLIMIT_FSIZE (the folder's quota, or the per-file
            // cap): the disk quota's verdict, not a crash.
            Some(Exit::Signal(libc::SIGXFSZ)) if self.limits.disk_kb > 0 => {
                let (used_kb, entries) = folder_usage_kb(self._workdir.path(), DISK_ENTRIES_LIMIT);
                Fault::Disk {
                    used_kb,
                    limit_kb: self.limits.disk_kb.min(FILE_SIZE_LIMIT_KB),
                    entries,
                }
            }
            Some(exit) => Fault::Exited(exit),
            None => Fault::ClosedPipe("stdout"),
        }
    }

    /// The disk quota's fault if the working folder holds more than its
    /// quota now (the end of a game: what a bot wrote after its last
    /// measure, e.g. in its last move, still counts).
    pub fn disk_fault(&self) -> Option<Fault> {
        if self.limits.disk_kb == 0 {
            return None;
        }
        let (used_kb, entries) = folder_usage_kb(self._workdir.path(), DISK_ENTRIES_LIMIT);
        (used_kb > self.limits.disk_kb || entries > DISK_ENTRIES_LIMIT).then_some(Fault::Disk {
            used_kb,
            limit_kb: self.limits.disk_kb,
            entries,
        })
    }

    /// Measures memory (every [`MEMORY_POLL`]) and the working folder
    /// (every [`DISK_POLL`]) if it is time to.
    pub(crate) fn check_limits(&mut self) -> Result<(), Fault> {
        if self.memory_checked.elapsed() >= MEMORY_POLL {
            self.memory_checked = Instant::now();
            self.check_memory()?;
        }
        if self.limits.disk_kb > 0 && self.disk_checked.elapsed() >= DISK_POLL {
            self.disk_checked = Instant::now();
            let (used_kb, entries) = folder_usage_kb(self._workdir.path(), DISK_ENTRIES_LIMIT);
            if used_kb > self.limits.disk_kb || entries > DISK_ENTRIES_LIMIT {
                return Err(Fault::Disk {
                    used_kb,
                    limit_kb: self.limits.disk_kb,
                    entries,
                });
            }
        }
        Ok(())
    }

    /// The inodes of the pipes of the bot's stdin, stdout and stderr (the
    /// referee's ends of them, while it holds them): found at the first
    /// measure, as few bots hold a pipe of their own to need them.
    fn stdio_pipes(&mut self) -> [u64; 3] {
        if self.stdio_inodes.is_none() {
            let inode = |fd: &Option<OwnedFd>| {
                fd.as_ref()
                    .and_then(|fd| rustix::fs::fstat(fd).ok())
                    .map_or(0, |stat| stat.st_ino)
            };
            self.stdio_inodes =
                Some([inode(&self.stdin), inode(&self.stdout), inode(&self.stderr)]);
        }
        self.stdio_inodes.unwrap_or_default()
    }

    pub(crate) fn check_memory(&mut self) -> Result<(), Fault> {
        let (measured, status) = measured_folder(self.pid);
        // Under basic nothing else bounds its threads: thousands of them
        // could take every pid of the machine, and its opponent could then
        // start none. It can start threads only while it runs, where it
        // is measured every MEMORY_POLL: a few thousand at most.
        if let Some(count) = status.threads.filter(|&n| n > sandbox::STRICT_PIDS_MAX) {
            if self.cgroup.is_none() {
                return Err(Fault::Threads { count });
            }
        }
        // Its sockets' and pipes' buffers count too: no resident measure
        // sees them. Under strict those of every process of its cgroup (a
        // bot may fork only there, and its children's memory counts
        // there); under basic its main process's, as its resident memory.
        let mut held = crate::HeldBuffers::default();
        match &self.cgroup {
            Some(cgroup) if self.limits.allow_fork => {
                for pid in cgroup.pids().into_iter().filter_map(Pid::from_raw) {
                    held.add_process(pid);
                }
            }
            _ => held.add_descriptors(&format!("{measured}/fd")),
        }
        let open_files = sandbox::open_files_for(self.limits.memory_cap_kb());
        let sockets_kb = held.charge_kb(&self.stdio_pipes(), open_files);
        if let Some(kb) = status.peak_kb {
            self.peak_memory_kb = self.peak_memory_kb.max(kb + sockets_kb);
        }
        // Under strict, the whole tree of processes counts.
        if let Some(kb) = self.cgroup.as_ref().and_then(|c| c.resident_kb()) {
            self.peak_memory_kb = self.peak_memory_kb.max(kb + sockets_kb);
        }
        let cap = self.limits.memory_cap_kb();
        if cap > 0 && self.peak_memory_kb > cap {
            return Err(self.memory_fault(self.peak_memory_kb));
        }
        Ok(())
    }

    /// The fault of a bot over its memory cap at `peak_kb`: the disk
    /// quota's if its working folder is over that too. Under strict a
    /// working folder in memory counts toward the bot's memory, so a bot
    /// filling it meets the memory limit, often before the folder's next
    /// measure: what it broke first is the quota.
    pub(crate) fn memory_fault(&self, peak_kb: u64) -> Fault {
        self.disk_fault().unwrap_or(Fault::Memory {
            peak_kb,
            limit_kb: self.limits.memory_kb,
            allowance_kb: self.limits.memory_allowance_kb,
        })
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.report.is_none() {
            self.kill();
        }
        // Every process of the bot gone before its folder is removed (the
        // fields then drop in order: the folder, then the cgroups), so
        // that a later bot handed these cgroups is not charged for files
        // of this one's folder held in memory.
        if let Some(cgroup) = &mut self.cgroup {
            cgroup.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gone(pid: i32) -> bool {
        let pid = Pid::from_raw(pid).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while rustix::process::test_kill_process(pid).is_ok() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    /// A bot's whole life, started by the referee itself (basic, no fork:
    /// the default): it answers, it exits on its own once its input ends,
    /// the referee reaps it and says how, and nothing of
    /// it (process, working directory) is left.
    #[test]
    fn a_bot_answers_then_exits_and_leaves_nothing() {
        let command = BotCommand::parse("/bin/cat", &Languages::built_in()).unwrap();
        let mut bot = BotProcess::spawn(&command, &ProcessLimits::default()).unwrap();
        let workdir = bot.workdir().to_path_buf();
        assert!(workdir.is_dir());
        let deadline = Instant::now() + Duration::from_secs(10);
        bot.send_line("hello", deadline, Duration::from_secs(10))
            .unwrap();
        let (line, _) = bot.recv_line(deadline, Duration::from_secs(10)).unwrap();
        assert_eq!(line, "hello");
        let pid = bot.pid();
        let report = bot.shut_down(Duration::from_secs(5));
        assert_eq!(report.exit, Some(Exit::Code(0)), "{report:?}");
        assert!(gone(pid), "the bot still runs");
        drop(bot);
        assert!(!workdir.exists(), "{} is left", workdir.display());
    }

    /// A bot started in a context outlives it: the context's folder of
    /// working directories stays while the bot runs, and goes with it.
    #[test]
    fn the_context_folder_goes_with_its_last_bot() {
        let arena = crate::Arena::new();
        let command = BotCommand::parse("/bin/cat", arena.languages()).unwrap();
        let limits = ProcessLimits {
            footprint: arena.footprint(),
            ..ProcessLimits::default()
        };
        let mut bot = BotProcess::spawn(&command, &limits).unwrap();
        drop(limits);
        let folder = bot.workdir().parent().unwrap().to_path_buf();
        assert_eq!(arena.footprint().workdirs_folder(), Some(folder.clone()));
        drop(arena);
        assert!(folder.is_dir(), "removed under a running bot");
        let deadline = Instant::now() + Duration::from_secs(10);
        bot.send_line("hello", deadline, Duration::from_secs(10))
            .unwrap();
        assert_eq!(
            bot.recv_line(deadline, Duration::from_secs(10)).unwrap().0,
            "hello"
        );
        let workdir = bot.workdir().to_path_buf();
        drop(bot);
        assert!(!workdir.exists(), "{} is left", workdir.display());
        assert!(!folder.exists(), "{} is left", folder.display());
    }

    /// A bot killed mid-thought: SIGKILL is its reported end, and neither
    /// it nor its working directory is left.
    #[test]
    fn a_killed_bot_is_reported_killed_and_leaves_nothing() {
        let command = BotCommand::parse("/bin/sleep 100", &Languages::built_in()).unwrap();
        let mut bot = BotProcess::spawn(&command, &ProcessLimits::default()).unwrap();
        let workdir = bot.workdir().to_path_buf();
        let pid = bot.pid();
        let report = bot.kill();
        assert_eq!(report.exit, Some(Exit::Signal(9)), "{report:?}");
        assert!(gone(pid), "the bot still runs");
        drop(bot);
        assert!(!workdir.exists(), "{} is left", workdir.display());
    }

    /// A program that cannot be run is the bot's own fault, told at the
    /// start, and leaves no process behind.
    #[test]
    fn a_program_that_cannot_run_is_the_bots_fault() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("not-a-program");
        std::fs::write(&program, "no exec bit").unwrap();
        // The spec's own checks would refuse it: made as a command that
        // passed them, then lost its exec bit.
        let mut command = BotCommand::parse("/bin/true", &Languages::built_in()).unwrap();
        command.program = program;
        let e = BotProcess::spawn(&command, &ProcessLimits::default())
            .err()
            .expect("a program without its exec bit cannot start");
        assert!(is_bots_fault(&e), "{e}");
    }
}
