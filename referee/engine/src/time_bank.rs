//! A bot's time bank for one game, and the words of a `timeout` verdict
//! (protocol.md §1, "Limits"). Pure arithmetic on durations: the runner
//! reads the clocks and hands the measured times in.
//!
//! Each move keeps its own time limit; the time a move takes beyond its
//! limit is drawn from the bank. A move may therefore take its limit plus
//! what is left in the bank, and a move that would overdraw the bank is a
//! `timeout` at the moment the bank runs dry.

use std::time::Duration;

use crate::bot::show_duration;

/// What is left of a bot's time bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBank {
    /// The bank the bot started the game with (zero: no bank).
    total: Duration,
    left: Duration,
    /// Lateness past the limit and the bank forgiven as jitter: such a
    /// reply is taken, and is a strike (`MatchLimits::time_margin`).
    margin: Duration,
}

impl TimeBank {
    pub fn new(total: Duration) -> TimeBank {
        TimeBank {
            total,
            left: total,
            margin: Duration::ZERO,
        }
    }

    /// A bank whose moves may also run `margin` late, each such move a
    /// strike.
    pub fn with_margin(total: Duration, margin: Duration) -> TimeBank {
        TimeBank {
            margin,
            ..TimeBank::new(total)
        }
    }

    pub fn total(&self) -> Duration {
        self.total
    }

    pub fn left(&self) -> Duration {
        self.left
    }

    /// How long a move whose own limit is `limit` may take: its limit plus
    /// what is left in the bank.
    pub fn allowance(&self, limit: Duration) -> Duration {
        limit.saturating_add(self.left).saturating_add(self.margin)
    }

    /// How late a move with limit `limit` that took `took` was beyond its
    /// limit and the bank (to be asked before it is charged): `Some` when
    /// it came within the margin, a strike. With no margin nothing is a
    /// strike (a reply read microseconds after its deadline is taken, as
    /// it always was).
    pub fn strike(&self, limit: Duration, took: Duration) -> Option<Duration> {
        let covered = limit.saturating_add(self.left);
        (!self.margin.is_zero() && took > covered).then(|| took - covered)
    }

    /// Charges a move with limit `limit` that took `took`: the time beyond
    /// the limit comes out of the bank, which never goes below zero (a
    /// reply read just after its deadline is late by microseconds, and the
    /// reader took it). Returns what was drawn.
    pub fn charge(&mut self, limit: Duration, took: Duration) -> Duration {
        let drawn = took.saturating_sub(limit).min(self.left);
        self.left -= drawn;
        drawn
    }

    /// How a move with limit `limit` that got no reply in time is told: the
    /// limit, and what happened to the bank.
    pub fn missed(&self, limit: Duration) -> String {
        let missed = self.missed_limit(limit);
        if self.margin.is_zero() {
            missed
        } else {
            format!(
                "{missed} (nor within its {} margin)",
                show_duration(self.margin)
            )
        }
    }

    fn missed_limit(&self, limit: Duration) -> String {
        let limit = show_duration(limit);
        if self.total.is_zero() {
            format!("no reply within {limit}")
        } else if self.left.is_zero() {
            format!(
                "no reply within {limit}, and its {} time bank was already used up",
                show_duration(self.total)
            )
        } else {
            format!(
                "no reply within {limit} plus the {} left in its time bank, which is now used up",
                show_duration(self.left)
            )
        }
    }
}

/// What a bot did with the CPU while a reply was awaited for `waited` (wall
/// time) and none came, in words: `cpu` is the CPU time its process used
/// meanwhile. A bot that used little CPU was not slow, it was not running:
/// blocked on something, sleeping, or starved by an overloaded machine.
pub fn cpu_note(cpu: Duration, waited: Duration) -> String {
    let used = format!("it used {} of CPU in that time", show_cpu(cpu));
    if waited.is_zero() {
        return used;
    }
    let share = cpu.as_secs_f64() / waited.as_secs_f64();
    let why = if share >= 0.8 {
        "it was computing"
    } else if share >= 0.2 {
        "it was computing only part of it: blocked or sleeping the rest, \
         or slowed down by an overloaded machine"
    } else {
        "it was waiting, not computing: blocked or sleeping, \
         or starved by an overloaded machine"
    };
    format!("{used}, so {why}")
}

/// For a bot that timed out waiting, not computing, in a language whose
/// standard output is buffered when it is a pipe: its reply may be sitting
/// in the buffer. How to flush it in that language; `None` when the note
/// was not "waiting" or the language flushes by itself.
pub fn flush_hint(
    language: crate::bot::Language,
    cpu: Duration,
    waited: Duration,
) -> Option<&'static str> {
    let waiting = !waited.is_zero() && cpu.as_secs_f64() / waited.as_secs_f64() < 0.2;
    if !waiting {
        return None;
    }
    Some(language.def().flush_hint.as_str())
}

/// A CPU time for a person: tenths of a millisecond below 10 ms (a sleeping
/// bot's few hundred microseconds are not "0ms"), whole milliseconds above.
pub fn show_cpu(cpu: Duration) -> String {
    let ms = cpu.as_secs_f64() * 1000.0;
    if ms < 0.1 {
        "less than 0.1ms".to_string()
    } else if ms < 10.0 {
        format!("{ms:.1}ms")
    } else {
        format!("{ms:.0}ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn no_bank_leaves_the_limit_as_it_is() {
        let mut bank = TimeBank::new(Duration::ZERO);
        assert_eq!(bank.allowance(ms(300)), ms(300));
        assert_eq!(bank.charge(ms(300), ms(250)), Duration::ZERO);
        assert_eq!(bank.charge(ms(300), ms(301)), Duration::ZERO);
        assert_eq!(bank.missed(ms(300)), "no reply within 300ms");
    }

    #[test]
    fn time_beyond_the_limit_comes_out_of_the_bank() {
        let mut bank = TimeBank::new(ms(1000));
        assert_eq!(bank.allowance(ms(300)), ms(1300));
        // Within its limit: the bank is untouched.
        assert_eq!(bank.charge(ms(300), ms(299)), Duration::ZERO);
        assert_eq!(bank.left(), ms(1000));
        // 500 ms on a 300 ms limit draws 200 ms.
        assert_eq!(bank.charge(ms(300), ms(500)), ms(200));
        assert_eq!(bank.left(), ms(800));
        assert_eq!(bank.allowance(ms(300)), ms(1100));
        // The startup reply has its own limit and draws the same way.
        assert_eq!(bank.charge(ms(5000), ms(5100)), ms(100));
        assert_eq!(bank.left(), ms(700));
        assert_eq!(bank.total(), ms(1000));
    }

    #[test]
    fn the_bank_never_goes_below_zero() {
        let mut bank = TimeBank::new(ms(100));
        // A reply taken just after the deadline is charged what was left.
        assert_eq!(bank.charge(ms(300), ms(450)), ms(100));
        assert_eq!(bank.left(), Duration::ZERO);
        assert_eq!(bank.allowance(ms(300)), ms(300));
        assert_eq!(bank.charge(ms(300), ms(400)), Duration::ZERO);
    }

    #[test]
    fn a_missed_move_tells_what_became_of_the_bank() {
        let mut bank = TimeBank::new(ms(1000));
        bank.charge(ms(300), ms(600));
        assert_eq!(
            bank.missed(ms(300)),
            "no reply within 300ms plus the 700ms left in its time bank, which is now used up"
        );
        bank.charge(ms(300), ms(1000));
        assert_eq!(
            bank.missed(ms(300)),
            "no reply within 300ms, and its 1s time bank was already used up"
        );
    }

    #[test]
    fn a_margin_takes_late_replies_as_strikes() {
        let mut bank = TimeBank::with_margin(ms(200), ms(100));
        assert_eq!(bank.allowance(ms(300)), ms(600));
        // Within the limit and the bank: no strike.
        assert_eq!(bank.strike(ms(300), ms(450)), None);
        bank.charge(ms(300), ms(450));
        assert_eq!(bank.left(), ms(50));
        // 30 ms past the limit and what is left of the bank: a strike.
        assert_eq!(bank.strike(ms(300), ms(380)), Some(ms(30)));
        bank.charge(ms(300), ms(380));
        assert_eq!(bank.left(), Duration::ZERO);
        assert_eq!(
            bank.missed(ms(300)),
            "no reply within 300ms, and its 200ms time bank was already used up (nor within its 100ms margin)"
        );
        // No margin: nothing is a strike.
        assert_eq!(TimeBank::new(ms(0)).strike(ms(300), ms(301)), None);
    }

    #[test]
    fn cpu_far_below_the_wait_is_not_computing() {
        let waited = ms(1000);
        let note = cpu_note(Duration::from_micros(2_960), waited);
        assert!(note.starts_with("it used 3.0ms of CPU"), "{note}");
        assert!(
            note.contains("so it was waiting, not computing: blocked or sleeping"),
            "{note}"
        );
        let note = cpu_note(ms(998), waited);
        assert_eq!(
            note,
            "it used 998ms of CPU in that time, so it was computing"
        );
        let note = cpu_note(ms(500), waited);
        assert!(note.contains("computing only part of it"), "{note}");
        let note = cpu_note(Duration::from_micros(40), waited);
        assert!(note.starts_with("it used less than 0.1ms of CPU"), "{note}");
        // Several threads may use more CPU than wall time.
        assert!(cpu_note(ms(1900), waited).ends_with("it was computing"));
        assert_eq!(
            cpu_note(ms(2), Duration::ZERO),
            "it used 2.0ms of CPU in that time"
        );
    }
}
