//! Helper threads that stay awake through a generated token: each of a
//! token's matrix products is split between the calling thread and them, at
//! the cost of an atomic store and a spin rather than a wake-up.
//!
//! rayon's workers fall asleep between a token's products (the attention
//! and norms between two products take longer than they spin), and waking
//! one costs tens of microseconds, about what one of SmolLM2's products
//! takes on one thread: so split over rayon, a token was made no faster on
//! two threads than on one. Here a helper spins for a while after each
//! piece of work (a token's products come every few microseconds) and only
//! then parks, so a product's second half starts within a microsecond.
//!
//! The work is handed over as chunks claimed one at a time from a shared
//! counter, so a helper that is late (parked, or its core busy) takes none
//! and the caller does them all: the caller never waits for a helper that
//! has not started a chunk. One caller at a time: a second one meanwhile
//! is told so ([`Team::try_run`]) and computes alone.

// The helper runs a closure borrowed from the caller's stack: its lifetime
// is erased when it is handed over, which is sound because `run` does not
// return (or unwind) before every chunk it handed over has finished.
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the helper spins after its last piece of work before parking.
const AWAKE: Duration = Duration::from_micros(300);

/// One piece of work: `job(chunk)` for chunks `0..chunks`.
type Job<'a> = &'a (dyn Fn(usize) + Sync);

/// Helper threads that share a caller's products; see the module docs.
pub struct Team {
    slot: Arc<Slot>,
    helpers: Vec<JoinHandle<()>>,
    /// A caller is running work on the team.
    busy: AtomicBool,
}

/// Epoch `epoch`'s work: `job(chunk)` for chunks `0..chunks`.
#[derive(Clone, Copy)]
struct Work {
    epoch: u64,
    job: Job<'static>,
    chunks: u32,
}

/// What the caller and the helper share.
struct Slot {
    /// The work's epoch in the high 32 bits, the next chunk to claim in
    /// the low ones. A claim is a compare-and-swap on both, so no chunk of
    /// work that has ended can be claimed.
    state: AtomicU64,
    /// The current work, written before its epoch is published and
    /// cleared once all its chunks have finished.
    work: Mutex<Option<Work>>,
    /// Chunks of the current work finished, by either thread.
    done: AtomicU32,
    /// A chunk the helper ran panicked.
    failed: AtomicBool,
    /// Each helper is parked, or about to be: the caller unparks it.
    parked: Vec<AtomicBool>,
    stop: AtomicBool,
}

impl Slot {
    fn work(&self) -> Option<Work> {
        *self.work.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_work(&self, work: Option<Work>) {
        *self.work.lock().unwrap_or_else(PoisonError::into_inner) = work;
    }

    /// The next chunk of `work`, while it is the current work and has one left.
    fn claim(&self, work: &Work) -> Option<u32> {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            let next = (state & u64::from(u32::MAX)) as u32;
            if state >> 32 != work.epoch || next >= work.chunks {
                return None;
            }
            match self.state.compare_exchange_weak(state, state + 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(next),
                Err(now) => state = now,
            }
        }
    }
}

impl Team {
    /// Starts `helpers` helper threads.
    pub fn start(helpers: usize) -> std::io::Result<Self> {
        let slot = Arc::new(Slot {
            state: AtomicU64::new(0),
            work: Mutex::new(None),
            done: AtomicU32::new(0),
            failed: AtomicBool::new(false),
            parked: (0..helpers).map(|_| AtomicBool::new(false)).collect(),
            stop: AtomicBool::new(false),
        });
        let mut team = Self { slot, helpers: Vec::with_capacity(helpers), busy: AtomicBool::new(false) };
        for index in 0..helpers {
            let slot = Arc::clone(&team.slot);
            let name = format!("heat-model-helper-{index}");
            // On failure, dropping `team` stops the helpers already started.
            team.helpers.push(std::thread::Builder::new().name(name).spawn(move || help(&slot, index))?);
        }
        Ok(team)
    }

    /// Runs `job(chunk)` for every chunk in `0..chunks`, on this thread and
    /// the helpers, and returns `true` once all have run; `false`, having
    /// run nothing, while another thread is running work on the team.
    ///
    /// # Panics
    /// When a chunk panicked on a helper (after every chunk has run).
    pub fn try_run(&self, chunks: usize, job: &(dyn Fn(usize) + Sync)) -> bool {
        if self.busy.swap(true, Ordering::Acquire) {
            return false;
        }
        let _free = Free(&self.busy);
        self.run(chunks, job);
        true
    }

    fn run(&self, chunks: usize, job: &(dyn Fn(usize) + Sync)) {
        let slot = &*self.slot;
        let chunks = u32::try_from(chunks).unwrap_or(u32::MAX);
        // SAFETY: the borrow outlives its use: `Finished` below does not let
        // this call return or unwind before every chunk handed over has run,
        // and once they have, no chunk of this epoch can be claimed.
        let job: Job<'static> = unsafe { std::mem::transmute::<Job<'_>, Job<'static>>(job) };
        // Epochs wrap at 32 bits: only a change is looked for.
        let epoch = u64::from(((slot.state.load(Ordering::Relaxed) >> 32) as u32).wrapping_add(1));
        let work = Work { epoch, job, chunks };
        slot.set_work(Some(work));
        slot.done.store(0, Ordering::Relaxed);
        slot.state.store(epoch << 32, Ordering::SeqCst);
        for (parked, helper) in slot.parked.iter().zip(&self.helpers) {
            if parked.swap(false, Ordering::SeqCst) {
                helper.thread().unpark();
            }
        }
        let finished = Finished { slot, work };
        while let Some(chunk) = slot.claim(&work) {
            (work.job)(chunk as usize);
            slot.done.fetch_add(1, Ordering::AcqRel);
        }
        drop(finished);
        assert!(!slot.failed.swap(false, Ordering::AcqRel), "a product's share panicked on the helper thread");
    }
}

/// Waits, when dropped (also while unwinding), until every chunk of the
/// current work has run, then clears it.
struct Finished<'a> {
    slot: &'a Slot,
    work: Work,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        // Unwinding from a chunk that panicked on this thread: it and every
        // chunk no one has claimed yet count as run, so only the chunks a
        // helper has under way are waited for.
        if std::thread::panicking() {
            let mut given_up = 1;
            while self.slot.claim(&self.work).is_some() {
                given_up += 1;
            }
            self.slot.done.fetch_add(given_up, Ordering::AcqRel);
        }
        while self.slot.done.load(Ordering::Acquire) < self.work.chunks {
            std::hint::spin_loop();
        }
        self.slot.set_work(None);
    }
}

/// Marks the team free again when dropped.
struct Free<'a>(&'a AtomicBool);

impl Drop for Free<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.slot.stop.store(true, Ordering::SeqCst);
        for helper in self.helpers.drain(..) {
            helper.thread().unpark();
            let _ = helper.join();
        }
    }
}

/// Helper `index`'s loop: run chunks of each new work, spin a while, park.
fn help(slot: &Slot, index: usize) {
    let mut seen = 0;
    let mut idle_since = Instant::now();
    let mut spins = 0_u32;
    while !slot.stop.load(Ordering::Acquire) {
        let epoch = slot.state.load(Ordering::Acquire) >> 32;
        if epoch == seen {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(256) && idle_since.elapsed() > AWAKE {
                slot.parked[index].store(true, Ordering::SeqCst);
                // Work published after the flag was set unparks this thread; work before it is seen here.
                if slot.state.load(Ordering::SeqCst) >> 32 == seen && !slot.stop.load(Ordering::SeqCst) {
                    std::thread::park();
                }
                slot.parked[index].store(false, Ordering::Release);
                idle_since = Instant::now();
            }
            std::hint::spin_loop();
            continue;
        }
        seen = epoch;
        // The slot holds this epoch's work, a later one's, or none (it ended): only this epoch's is run.
        if let Some(work) = slot.work().filter(|work| work.epoch == epoch) {
            while let Some(chunk) = slot.claim(&work) {
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (work.job)(chunk as usize))).is_err() {
                    slot.failed.store(true, Ordering::Release);
                }
                slot.done.fetch_add(1, Ordering::AcqRel);
            }
        }
        idle_since = Instant::now();
        spins = 0;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::thread::ThreadId;

    use super::*;

    /// Runs `chunks` chunks on `team`, each after `wait` returns; the
    /// threads each chunk ran on.
    fn run_on(team: &Team, chunks: usize, wait: &(dyn Fn(ThreadId) + Sync)) -> Vec<ThreadId> {
        let ran: Vec<Mutex<Option<ThreadId>>> = (0..chunks).map(|_| Mutex::new(None)).collect();
        assert!(team.try_run(chunks, &|chunk| {
            let me = std::thread::current().id();
            wait(me);
            let before = ran[chunk].lock().unwrap().replace(me);
            assert!(before.is_none(), "chunk {chunk} ran twice");
        }));
        ran.into_iter().map(|r| r.into_inner().unwrap().expect("every chunk ran")).collect()
    }

    /// Holds a chunk on the caller's thread until a helper has run one (or
    /// ten seconds pass): so the helper's part does not depend on timing.
    fn until_a_helper_runs(caller: ThreadId, helped: &AtomicBool) -> impl Fn(ThreadId) + Sync + '_ {
        move |me| {
            if me == caller {
                let start = Instant::now();
                while !helped.load(Ordering::Acquire) && start.elapsed() < Duration::from_secs(10) {
                    std::thread::yield_now();
                }
            } else {
                helped.store(true, Ordering::Release);
            }
        }
    }

    #[test]
    fn every_chunk_runs_once_and_the_helper_takes_part() {
        let team = Team::start(1).unwrap();
        let caller = std::thread::current().id();
        for chunks in [1, 2, 5, 64] {
            for _ in 0..200 {
                run_on(&team, chunks, &|_| {});
            }
        }
        let helped = AtomicBool::new(false);
        let threads = run_on(&team, 4, &until_a_helper_runs(caller, &helped));
        assert!(threads.iter().any(|&t| t != caller), "the helper ran none of {threads:?}");
    }

    #[test]
    fn a_parked_helper_is_woken_by_new_work() {
        let team = Team::start(2).unwrap();
        let caller = std::thread::current().id();
        run_on(&team, 8, &|_| {});
        // Long past the time a helper stays awake: both have parked.
        std::thread::sleep(AWAKE * 20);
        let helped = AtomicBool::new(false);
        let threads = run_on(&team, 8, &until_a_helper_runs(caller, &helped));
        assert!(threads.iter().any(|&t| t != caller), "no parked helper woke: {threads:?}");
    }

    #[test]
    fn a_second_caller_is_turned_away_while_the_team_works() {
        let team = Team::start(1).unwrap();
        let turned_away = AtomicUsize::new(0);
        assert!(team.try_run(2, &|_| {
            if !team.try_run(1, &|_| {}) {
                turned_away.fetch_add(1, Ordering::Relaxed);
            }
        }));
        assert_eq!(turned_away.into_inner(), 2);
        assert!(team.try_run(1, &|_| {}), "free again afterwards");
    }

    #[test]
    fn a_chunk_that_panics_on_the_caller_gives_up_the_rest_and_the_team_goes_on() {
        let team = Team::start(1).unwrap();
        let caller = std::thread::current().id();
        let ran = AtomicUsize::new(0);
        // The caller's first chunk panics before any other is claimed by it;
        // whatever the helper took runs, the rest are given up, and it returns.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            team.try_run(64, &|_| {
                assert!(std::thread::current().id() != caller, "the caller's chunk fails");
                ran.fetch_add(1, Ordering::Relaxed);
            })
        }));
        assert!(outcome.is_err(), "the caller's panic goes on up");
        assert!(ran.into_inner() < 64, "not every chunk ran: the caller's failed");
        assert_eq!(run_on(&team, 3, &|_| {}).len(), 3, "and the team takes work again");
    }

    #[test]
    fn a_chunk_that_panics_on_a_helper_panics_the_caller_and_the_team_goes_on() {
        let team = Team::start(1).unwrap();
        let caller = std::thread::current().id();
        let helped = AtomicBool::new(false);
        let wait = until_a_helper_runs(caller, &helped);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            team.try_run(2, &|_| {
                let me = std::thread::current().id();
                wait(me);
                assert!(me == caller, "a helper's chunk fails");
            })
        }));
        assert!(outcome.is_err(), "the helper's panic reached the caller");
        assert_eq!(run_on(&team, 3, &|_| {}).len(), 3);
    }
}
