//! A task: a boxed future plus a small state machine that guarantees it is queued at most once.

use super::scheduler::Shared;
use experiments::SchedulerEventKind;

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Wake;

pub(crate) type BoxFuture = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Not queued, not running: parked, waiting for a wake-up.
const IDLE: u8 = 0;
/// In a run queue.
const SCHEDULED: u8 = 1;
/// Being polled by a worker.
const RUNNING: u8 = 2;
/// Woken while being polled: must be queued again when the poll returns.
const NOTIFIED: u8 = 3;
/// Finished or cancelled; wake-ups are ignored.
const DONE: u8 = 4;

pub(crate) struct Task {
    /// The id traces show (chosen by whoever spawned the task).
    pub id: u32,
    /// Whether this task's steps are recorded in traces (the root task of a job is not).
    pub traced: bool,
    /// The root task this one descends from (its own id for a root): a panic in any task of a
    /// family cancels the whole family, so its run fails instead of waiting forever.
    pub family: u64,
    state: AtomicU8,
    /// The shard of the runtime's registry of live tasks that holds this task (see `registry.rs`).
    pub shard: u32,
    /// Its entry in that shard, or `NO_SLOT`; read and written only under the shard's lock.
    pub slot: AtomicU32,
    future: Mutex<Option<BoxFuture>>,
    runtime: Arc<Shared>,
}

/// What happened when a worker polled a task.
pub(crate) enum Polled {
    Finished,
    Parked,
    /// Woken during its own poll (e.g. it yielded): already queued again.
    Requeued,
}

impl Task {
    /// A task to be queued at once (its state starts as scheduled), listed in registry shard `shard`.
    pub fn new(id: u32, traced: bool, family: u64, shard: u32, future: BoxFuture, runtime: Arc<Shared>) -> Arc<Task> {
        Arc::new(Task {
            id,
            traced,
            family,
            state: AtomicU8::new(SCHEDULED),
            shard,
            slot: AtomicU32::new(super::registry::NO_SLOT),
            future: Mutex::new(Some(future)),
            runtime,
        })
    }

    fn future(&self) -> MutexGuard<'_, Option<BoxFuture>> {
        // Poisoned only by a poll that panicked; the runtime then drops the future (`abandon`).
        self.future.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Poll once on `worker`, recording how the poll ended if its start was recorded (`recorded`):
    /// tracing may begin while an earlier task is mid-poll, and a Finish without its Run would not
    /// replay. Must only be called by the worker that took the task out of a queue.
    pub fn poll(self: &Arc<Self>, worker: u32, recorded: bool) -> Polled {
        let claimed = self.state.compare_exchange(SCHEDULED, RUNNING, Ordering::AcqRel, Ordering::Acquire);
        if claimed.is_err() {
            // Only DONE can be found here (a task cancelled while queued); nothing to run.
            return Polled::Finished;
        }
        let waker = std::task::Waker::from(self.clone());
        let mut context = std::task::Context::from_waker(&waker);
        let mut slot = self.future();
        let ready = match slot.as_mut() {
            Some(future) => future.as_mut().poll(&mut context).is_ready(),
            None => true,
        };
        if ready {
            *slot = None;
            self.record(recorded, worker, SchedulerEventKind::Finish);
            self.state.store(DONE, Ordering::Release);
            drop(slot);
            self.runtime.unregister(self);
            return Polled::Finished;
        }
        drop(slot);
        // Recorded before the task becomes wakeable, so no Wake can be recorded ahead of its Park.
        self.record(recorded, worker, SchedulerEventKind::Park);
        let mut state = RUNNING;
        loop {
            let next = match state {
                RUNNING => IDLE,
                // Someone woke us while we ran: queue again.
                NOTIFIED => SCHEDULED,
                // Cancelled during the poll: the canceller left the future to us.
                _ => {
                    self.drop_future();
                    return Polled::Finished;
                }
            };
            match self.state.compare_exchange(state, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => break,
                Err(actual) => state = actual,
            }
        }
        if state == RUNNING {
            return Polled::Parked;
        }
        self.record(recorded, worker, SchedulerEventKind::Wake);
        self.runtime.schedule(self.clone());
        Polled::Requeued
    }

    fn record(&self, recorded: bool, worker: u32, kind: SchedulerEventKind) {
        if recorded {
            self.runtime.record_anyway(Some(worker), self.id, kind);
        }
    }

    /// Drop the future, even if dropping it panics (the panic hook has reported that already).
    fn drop_future(&self) {
        let future = self.future().take();
        let _ = catch_unwind(AssertUnwindSafe(move || drop(future)));
    }

    /// Drop the future without running it again (shutdown, or another task of its family panicked).
    /// A task being polled right now keeps its future until the poll returns; its worker drops it then.
    pub fn cancel(&self) {
        let previous = self.state.swap(DONE, Ordering::AcqRel);
        self.runtime.unregister(self);
        if previous == IDLE || previous == SCHEDULED {
            self.drop_future();
        }
    }

    /// After a poll of this task panicked: it is done, and its future (left mid-poll) is dropped.
    pub fn abandon(&self) {
        self.state.store(DONE, Ordering::Release);
        self.runtime.unregister(self);
        self.drop_future();
    }
}

impl Wake for Task {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            let next = match state {
                IDLE => SCHEDULED,
                RUNNING => NOTIFIED,
                _ => return, // already queued, already notified, or done
            };
            match self.state.compare_exchange_weak(state, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => break,
                Err(actual) => state = actual,
            }
        }
        if state == IDLE {
            if self.traced {
                self.runtime.record_wake(self.id);
            }
            self.runtime.schedule(self.clone());
        }
    }
}
