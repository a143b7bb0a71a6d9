//! The one table of model calls under way (turns, panel votes, the swap
//! check, briefs), kept by the launcher by their task's number, with what
//! they sent while the debate was paused. It owns taking a call out of the
//! table: a call that ends, one the person cancels or rerolls, one whose
//! time ran out, and all of them at the end. A call taken out before it
//! ended is aborted and what it held is dropped with it, so nothing it sent
//! afterwards can reach the debate.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use super::flight::Flight;
use super::held::Held;
use super::task::CallMsg;
use crate::debate::call::Call;
use crate::debate::seat::Role;

/// The calls under way.
#[derive(Default)]
pub(super) struct Calls {
    flights: HashMap<u64, Flight>,
    /// What the calls sent while paused.
    held: Held,
    /// The last task number given out.
    last: u64,
}

impl Calls {
    /// A number for the next call's task, never given before.
    pub(super) fn next_number(&mut self) -> u64 {
        self.last += 1;
        self.last
    }

    /// Enters a call whose task was just spawned as `number`.
    pub(super) fn enter(&mut self, number: u64, flight: Flight) {
        self.flights.insert(number, flight);
    }

    /// The calls under way, as the planner is given them.
    pub(super) fn under_way(&self) -> Vec<Call> {
        self.flights.values().map(|f| f.call).collect()
    }

    /// When each timed call runs out.
    pub(super) fn deadlines(&self) -> impl Iterator<Item = Instant> + '_ {
        self.flights.values().filter_map(|f| f.deadline)
    }

    /// Every deadline moves on by `by`: the time spent paused is no one's.
    pub(super) fn shift_deadlines(&mut self, by: Duration) {
        for flight in self.flights.values_mut() {
            flight.deadline = flight.deadline.map(|d| d + by);
        }
    }

    pub(super) fn get(&self, task: u64) -> Option<&Flight> {
        self.flights.get(&task)
    }

    pub(super) fn get_mut(&mut self, task: u64) -> Option<&mut Flight> {
        self.flights.get_mut(&task)
    }

    /// Takes out a call that ended on its own (answered or failed).
    pub(super) fn ended(&mut self, task: u64) -> Option<Flight> {
        self.flights.remove(&task)
    }

    /// Holds what a call sent while paused; a call that ended hands back
    /// everything it sent, to be told now.
    pub(super) fn hold(&mut self, at: Instant, msg: CallMsg) -> Option<VecDeque<(Instant, CallMsg)>> {
        self.held.hold(at, msg)
    }

    /// Everything held while paused, in the order it arrived.
    pub(super) fn take_held(&mut self) -> VecDeque<(Instant, CallMsg)> {
        self.held.take_all()
    }

    /// Takes out and aborts the calls whose time ran out by `at`.
    pub(super) fn abort_due(&mut self, at: Instant) -> Vec<Flight> {
        self.abort_where(|f| f.deadline.is_some_and(|d| d <= at))
    }

    /// Takes out and aborts what the person cancelled (`seat`: only that
    /// seat's turn), in the order they are recorded: the swap check, the
    /// panel's votes by judge, then the turns by seat.
    pub(super) fn abort_cancelled(&mut self, seat: Option<Role>) -> Vec<Flight> {
        let mut cancelled = self.abort_where(|f| seat.is_none_or(|role| f.call.is_turn_of(role)));
        cancelled.sort_unstable_by_key(|f| match f.call {
            Call::SwapCheck { .. } => (0, 0, Role::Judge),
            Call::Vote { judge, .. } => (1, judge.number(), Role::Judge),
            Call::Turn { role, .. } => (2, 0, role),
            Call::Brief { role, round } => (3, round, role),
        });
        cancelled
    }

    /// Takes out and aborts `role`'s turn, unrecorded: it is about to be
    /// discarded and asked again.
    pub(super) fn abort_turn(&mut self, role: Role) {
        self.abort_where(|f| f.call.is_turn_of(role));
    }

    /// Aborts every call and drops everything held.
    pub(super) fn abort_all(&mut self) {
        for (_, flight) in self.flights.drain() {
            flight.handle.abort();
        }
        self.held.clear();
    }

    fn abort_where(&mut self, chosen: impl Fn(&Flight) -> bool) -> Vec<Flight> {
        let tasks: Vec<u64> = self.flights.iter().filter(|(_, f)| chosen(f)).map(|(&task, _)| task).collect();
        let mut taken = Vec::with_capacity(tasks.len());
        for task in tasks {
            if let Some(flight) = self.flights.remove(&task) {
                flight.handle.abort();
                self.held.drop_call(task);
                taken.push(flight);
            }
        }
        taken
    }
}
