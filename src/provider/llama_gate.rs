//! Quitting while the embedded model works. A process that exits while
//! llama.cpp is inside a call crashes in llama.cpp's teardown (its static
//! objects go while a model thread still uses them). Every model thread
//! passes a gate before calling into llama.cpp; a hard quit closes the gate
//! and waits, a bounded time, for the threads inside to come out, then
//! exits. A thread waiting for work, or for the consumer of its tokens, is
//! not inside, so it holds nothing up. A thread that finds the gate closed
//! waits there for the exit: it reports nothing, so the quit is not
//! recorded as a failed turn in the instant before the process ends.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The gate in front of llama.cpp for the whole process.
pub static LLAMA: Gate = Gate::new();

/// How long a hard quit waits for the model: one prompt step (512 tokens)
/// on two cores takes up to about 1.8 s; a generation step, 15 ms.
pub const QUIT_WAIT: Duration = Duration::from_secs(2);

/// Exits the process at once with `code`, after the embedded model (if it
/// is working) has come out of llama.cpp: see the module note.
pub fn exit_now(code: i32) -> ! {
    halt(QUIT_WAIT);
    std::process::exit(code)
}

/// Stops the embedded model before its next llama.cpp call and waits, at
/// most `limit`, for the calls under way to finish. For a hard quit, just
/// before the process exits; returns whether every call finished. Without
/// the embedded model (or with it idle) it returns at once.
pub fn halt(limit: Duration) -> bool {
    LLAMA.close(limit)
}

#[derive(Debug)]
pub struct Gate {
    closed: AtomicBool,
    inside: AtomicUsize,
}

/// A model thread's pass: held while it is inside llama.cpp.
#[derive(Debug)]
pub struct Inside<'a>(&'a Gate);

/// The gate is closed: heat is quitting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

impl Gate {
    pub const fn new() -> Gate {
        Gate { closed: AtomicBool::new(false), inside: AtomicUsize::new(0) }
    }

    /// Lets a thread in, unless the gate is closed.
    pub fn enter(&self) -> Result<Inside<'_>, Closed> {
        // Counted before the check, and `close` sets the flag before it
        // reads the count (both sequentially consistent): a thread either
        // sees the gate closed or is counted and waited for.
        self.inside.fetch_add(1, Ordering::SeqCst);
        if self.closed.load(Ordering::SeqCst) {
            self.inside.fetch_sub(1, Ordering::SeqCst);
            return Err(Closed);
        }
        Ok(Inside(self))
    }

    /// Lets a thread in; once the gate is closed (the process is exiting),
    /// the thread waits here for the exit instead.
    pub fn pass(&self) -> Inside<'_> {
        self.enter().unwrap_or_else(|Closed| wait_for_exit())
    }

    /// Whether the gate is closed.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Closes the gate; waits at most `limit` for the threads inside.
    pub fn close(&self, limit: Duration) -> bool {
        self.closed.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + limit;
        while self.inside.load(Ordering::SeqCst) > 0 {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }
}

impl Default for Gate {
    fn default() -> Self {
        Gate::new()
    }
}

impl Inside<'_> {
    /// Between two steps of a long call: once the gate is closed, the
    /// thread leaves it and waits for the exit.
    pub fn checkpoint(&self) {
        if self.0.is_closed() {
            // This pass is never dropped: the thread does not return.
            self.0.inside.fetch_sub(1, Ordering::SeqCst);
            wait_for_exit();
        }
    }
}

/// Where a model thread stays once the gate has closed.
fn wait_for_exit() -> ! {
    loop {
        std::thread::park();
    }
}

impl Drop for Inside<'_> {
    fn drop(&mut self) {
        self.0.inside.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use super::{Closed, Gate};

    #[test]
    fn closing_waits_for_the_thread_inside_and_turns_new_ones_away() {
        let gate = Arc::new(Gate::new());
        let done = Arc::new(AtomicBool::new(false));
        let (entered_tx, entered) = std::sync::mpsc::channel();
        let inside = {
            let (gate, done) = (gate.clone(), done.clone());
            std::thread::spawn(move || {
                let pass = gate.enter().expect("open");
                entered_tx.send(()).expect("test waits");
                std::thread::sleep(Duration::from_millis(150));
                done.store(true, Ordering::SeqCst);
                drop(pass);
            })
        };
        entered.recv().expect("thread entered");
        assert!(gate.close(Duration::from_secs(10)), "the thread inside came out");
        // Had close not waited, the thread would still be asleep inside.
        assert!(done.load(Ordering::SeqCst), "close returned before the thread left");
        assert_eq!(gate.enter().map(|_| ()), Err(Closed));
        assert!(gate.is_closed());
        inside.join().expect("thread ends");
    }

    #[test]
    fn a_thread_meeting_a_closed_gate_waits_there_and_is_not_waited_for() {
        let gate: &'static Gate = Box::leak(Box::new(Gate::new()));
        let (entered_tx, entered) = std::sync::mpsc::channel();
        let got_through = Arc::new(AtomicBool::new(false));
        let inside = {
            let got_through = got_through.clone();
            std::thread::spawn(move || {
                let pass = gate.pass();
                entered_tx.send(()).expect("test waits");
                while !gate.is_closed() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                pass.checkpoint();
                got_through.store(true, Ordering::SeqCst);
            })
        };
        entered.recv().expect("thread entered");
        // The thread leaves at its checkpoint, so closing does not wait 10 s.
        assert!(gate.close(Duration::from_secs(10)));
        let late = {
            let got_through = got_through.clone();
            std::thread::spawn(move || {
                let _pass = gate.pass();
                got_through.store(true, Ordering::SeqCst);
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        assert!(!got_through.load(Ordering::SeqCst), "a thread went got_through a closed gate");
        assert!(!inside.is_finished() && !late.is_finished());
    }

    #[test]
    fn closing_gives_up_at_its_limit() {
        let gate = Gate::new();
        let _stuck = gate.enter().expect("open");
        assert!(!gate.close(Duration::from_millis(30)));
    }

    #[test]
    fn an_idle_gate_closes_at_once() {
        let gate = Gate::new();
        drop(gate.enter().expect("open"));
        assert!(gate.close(Duration::ZERO));
    }
}
