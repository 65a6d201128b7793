//! The one worker pool of every command that plays games in parallel
//! (tournament, check, bench, sprt): `jobs` threads take work items one at a
//! time from a shared source, do them (a game, a pair of games), and take
//! each result themselves, one at a time under a lock, in the order they
//! finish; taking a result may stop the handing out of more. Items already
//! taken still finish and are taken: a game under way is never thrown away.
//!
//! The results are taken on the workers rather than sent to the calling
//! thread: waking that thread for each game put it on a CPU where the
//! other worker's game was running, a switch there and back per game (some
//! 3% of a `--jobs 2` tournament's time, docs/measurements.md).

use std::sync::{Mutex, PoisonError};

use crate::bot;

/// What the caller wants after a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Hand out more work.
    Go,
    /// Hand out no more (the items under way still finish and are taken).
    Stop,
}

/// How a pool runs.
#[derive(Clone, Copy, Debug)]
pub struct Pool<'a> {
    /// Worker threads (at least one).
    pub jobs: usize,
    /// The CPUs to pin each worker (and the bots it starts, which inherit
    /// it) to, one each; `None`: not pinned.
    pub pin: Option<&'a bot::CpuClaims>,
}

/// The shared source of work, behind the pool's lock.
struct Source<N> {
    next: N,
    stopped: bool,
}

impl Pool<'_> {
    /// Runs `work` on each item `next` hands out (called under a lock, one
    /// worker at a time) on the pool's threads; `take` sees each result
    /// (under another lock, one at a time) on the thread that made it.
    /// Handing out stops when `next` runs dry, `take` says [`Flow::Stop`],
    /// or the referee is asked to stop ([`bot::stop_requested`]).
    pub fn run<T, R, N, W, K>(self, next: N, work: W, take: K)
    where
        T: Send,
        R: Send,
        N: FnMut() -> Option<T> + Send,
        W: Fn(T) -> R + Sync,
        K: FnMut(R) -> Flow + Send,
    {
        let source = Mutex::new(Source {
            next,
            stopped: false,
        });
        let take = Mutex::new(take);
        // One worker's life: items until the source runs dry or stops.
        let worker_loop = |pin_as: Option<usize>| {
            if let (Some(claims), Some(worker)) = (self.pin, pin_as) {
                claims.pin_worker(worker);
            }
            loop {
                let item = {
                    let mut s = source.lock().unwrap_or_else(PoisonError::into_inner);
                    if s.stopped || bot::stop_requested() {
                        return;
                    }
                    (s.next)()
                };
                let Some(item) = item else { return };
                let result = work(item);
                let flow = (take.lock().unwrap_or_else(PoisonError::into_inner))(result);
                if flow == Flow::Stop {
                    source
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .stopped = true;
                }
            }
        };
        let worker_loop = &worker_loop;
        std::thread::scope(|scope| {
            let mut started = 0;
            for worker in 0..self.jobs.max(1) {
                let spawned = std::thread::Builder::new()
                    .name(format!("worker {worker}"))
                    .spawn_scoped(scope, move || worker_loop(Some(worker)));
                match spawned {
                    Ok(_) => started += 1,
                    // The system gives no more threads (a process limit):
                    // fewer workers, not a panic.
                    Err(_) => break,
                }
            }
            if started == 0 {
                // Not one: this thread does the work, unpinned (it goes on
                // after the pool, and a pin would stay).
                worker_loop(None);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_item_is_done_once_and_taken() {
        for jobs in [1, 2, 7] {
            let mut items = 0..100u32;
            let mut seen = Vec::new();
            Pool { jobs, pin: None }.run(
                || items.next(),
                |i| i * 2,
                |r| {
                    seen.push(r);
                    Flow::Go
                },
            );
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..100).map(|i| i * 2).collect::<Vec<_>>(),
                "{jobs} jobs"
            );
        }
    }

    #[test]
    fn stop_hands_out_no_more_but_finishes_what_is_under_way() {
        let started = AtomicUsize::new(0);
        let mut items = 0..1000u32;
        let mut taken = 0;
        Pool { jobs: 3, pin: None }.run(
            || items.next(),
            |i| {
                started.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(2));
                i
            },
            |_| {
                taken += 1;
                if taken == 5 {
                    Flow::Stop
                } else {
                    Flow::Go
                }
            },
        );
        let started = started.load(Ordering::SeqCst);
        // Every item started was taken; a few beyond the fifth at most
        // (those under way when it came), nowhere near all of them.
        assert_eq!(taken, started);
        assert!((5..100).contains(&started), "{started}");
    }
}
