//! A task: a boxed future plus a small state machine that guarantees it is queued at most once.

use super::scheduler::Shared;
use experiments::SchedulerEventKind;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
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
/// Finished; wake-ups are ignored.
const DONE: u8 = 4;

pub(crate) struct Task {
    /// The id traces show (chosen by whoever spawned the task).
    pub id: u32,
    /// Whether this task's steps are recorded in traces (the root task of a job is not).
    pub traced: bool,
    state: AtomicU8,
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
    pub fn new(id: u32, traced: bool, future: BoxFuture, runtime: Arc<Shared>) -> Arc<Task> {
        Arc::new(Task { id, traced, state: AtomicU8::new(SCHEDULED), future: Mutex::new(Some(future)), runtime })
    }

    /// Poll once on `worker`, recording how the poll ended if its start was recorded (`recorded`):
    /// tracing may begin while an earlier task is mid-poll, and a Finish without its Run would not
    /// replay. Must only be called by the worker that took the task out of a queue.
    pub fn poll(self: &Arc<Self>, worker: u32, recorded: bool) -> Polled {
        let claimed = self.state.compare_exchange(SCHEDULED, RUNNING, Ordering::AcqRel, Ordering::Acquire);
        if claimed.is_err() {
            // Only DONE can be found here (a task dropped at shutdown); nothing to run.
            return Polled::Finished;
        }
        let waker = std::task::Waker::from(self.clone());
        let mut context = std::task::Context::from_waker(&waker);
        let mut slot = self.future.lock().unwrap_or_else(|p| p.into_inner());
        let ready = match slot.as_mut() {
            Some(future) => future.as_mut().poll(&mut context).is_ready(),
            None => true,
        };
        if ready {
            *slot = None;
            self.record(recorded, worker, SchedulerEventKind::Finish);
            self.state.store(DONE, Ordering::Release);
            return Polled::Finished;
        }
        drop(slot);
        // Recorded before the task becomes wakeable, so no Wake can be recorded ahead of its Park.
        self.record(recorded, worker, SchedulerEventKind::Park);
        match self.state.compare_exchange(RUNNING, IDLE, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => Polled::Parked,
            Err(_) => {
                // NOTIFIED: someone woke us while we ran. Queue again.
                self.record(recorded, worker, SchedulerEventKind::Wake);
                self.state.store(SCHEDULED, Ordering::Release);
                self.runtime.schedule(self.clone());
                Polled::Requeued
            }
        }
    }

    fn record(&self, recorded: bool, worker: u32, kind: SchedulerEventKind) {
        if recorded {
            self.runtime.record_anyway(Some(worker), self.id, kind);
        }
    }

    /// Drop the future without running it (shutdown).
    pub fn cancel(&self) {
        self.state.store(DONE, Ordering::Release);
        self.future.lock().unwrap_or_else(|p| p.into_inner()).take();
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
