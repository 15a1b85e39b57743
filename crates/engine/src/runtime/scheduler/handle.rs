//! The runtime as the rest of the engine sees it: a [`Runtime`] that owns its workers, a [`Handle`]
//! to spawn root tasks, trace and ask about start-up, and [`spawn`] for tasks spawning tasks.

use super::{lock, Shared, POLLING_FAMILY};
use crate::clock::now_ms;
use crate::runtime::registry::Registry;
#[cfg(test)]
use crate::runtime::task::Task;
use crate::threads::spawn_worker;
use experiments::SchedulerEvent;
use std::cell::{Cell, RefCell};
use std::collections::{BinaryHeap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};

/// A running M:N runtime of k workers. Dropping it ends its workers (and drops unfinished tasks).
pub struct Runtime {
    shared: Arc<Shared>,
}

impl Runtime {
    /// Start `workers` workers (at least one).
    pub fn new(workers: u32) -> Result<Runtime, String> {
        let runtime = Runtime::unstarted(workers.max(1));
        for index in 0..runtime.shared.workers {
            let shared = runtime.shared.clone();
            spawn_worker(format!("lab-task-worker-{index}"), Box::new(move || shared.worker_main(index)))
                .map_err(|e| format!("could not start {} task workers: {e}", runtime.shared.workers))?;
        }
        Ok(runtime)
    }

    /// A runtime of one worker that is the calling thread itself, working only inside
    /// [`Runtime::run_inline`]. For builds without shared memory, where no other worker can start.
    pub fn new_inline() -> Runtime {
        let runtime = Runtime::unstarted(1);
        runtime.shared.mark_started();
        runtime
    }

    /// See [`Handle::run_inline`].
    pub fn run_inline<T: Send + 'static>(&self, future: impl Future<Output = T> + Send + 'static) -> T {
        self.handle().run_inline(future)
    }

    fn unstarted(workers: u32) -> Runtime {
        let shared = Arc::new(Shared {
            workers,
            locals: (0..workers).map(|_| Mutex::new(VecDeque::new())).collect(),
            global: Mutex::new(VecDeque::new()),
            timers: Mutex::new(BinaryHeap::new()),
            timer_seq: AtomicU64::new(0),
            earliest_deadline: AtomicU64::new(f64::INFINITY.to_bits()),
            epoch: AtomicU64::new(0),
            sleepers: AtomicUsize::new(0),
            sleep_lock: Mutex::new(()),
            wakeup: Condvar::new(),
            shutdown: AtomicBool::new(false),
            started: AtomicU32::new(0),
            built_at_ms: now_ms(),
            all_started_at_ms: Mutex::new(None),
            tracing: AtomicBool::new(false),
            polling_traced: AtomicUsize::new(0),
            event_seq: AtomicU64::new(0),
            events: (0..=workers).map(|_| Mutex::new(Vec::new())).collect(),
            registry: Registry::new(workers as usize + 1),
            next_family: AtomicU64::new(1),
            panics: Mutex::new(VecDeque::new()),
        });
        Runtime { shared }
    }

    pub fn workers(&self) -> u32 {
        self.shared.workers
    }

    /// See [`Handle::spawn_root`].
    pub fn spawn_root<T: Send + 'static>(
        &self,
        future: impl Future<Output = T> + Send + 'static,
        reply: impl FnOnce(T) + Send + 'static,
    ) {
        self.handle().spawn_root(future, reply)
    }

    /// See [`Handle::block_on`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn block_on<T: Send + 'static>(&self, future: impl Future<Output = T> + Send + 'static) -> T {
        self.handle().block_on(future)
    }

    /// A cheap handle for tracing and start-up queries, usable from inside tasks.
    pub fn handle(&self) -> Handle {
        Handle { shared: self.shared.clone() }
    }

    /// See [`Handle::start_time_ms`].
    pub fn start_time_ms(&self) -> Option<f64> {
        self.handle().start_time_ms()
    }

    /// See [`Handle::start_tracing`].
    pub fn start_tracing(&self) {
        self.handle().start_tracing()
    }

    /// See [`Handle::take_events`].
    pub fn take_events(&self) -> Vec<SchedulerEvent> {
        self.handle().take_events()
    }
}

/// Spawning, tracing and start-up queries of a runtime. Holding one does not keep the workers alive.
#[derive(Clone)]
pub struct Handle {
    shared: Arc<Shared>,
}

impl Handle {
    /// Run `future` as an untraced root task; `reply` gets its output (on whichever worker ran it).
    /// If a task of the root's family panics (natively), or the runtime is dropped first, `reply`
    /// is dropped without being called: await a channel it owns to see the run fail.
    pub fn spawn_root<T: Send + 'static>(
        &self,
        future: impl Future<Output = T> + Send + 'static,
        reply: impl FnOnce(T) + Send + 'static,
    ) {
        self.spawn_root_family(future, reply);
    }

    /// [`Handle::spawn_root`], returning the root's family.
    fn spawn_root_family<T: Send + 'static>(
        &self,
        future: impl Future<Output = T> + Send + 'static,
        reply: impl FnOnce(T) + Send + 'static,
    ) -> u64 {
        let family = self.shared.new_family();
        self.shared.spawn(u32::MAX, false, family, Box::pin(async move { reply(future.await) }));
        family
    }

    /// Run `future` to completion on the runtime and return its output, blocking this thread.
    /// Never call this on a browser's main thread or on one of this runtime's workers.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn block_on<T: Send + 'static>(&self, future: impl Future<Output = T> + Send + 'static) -> T {
        let (sender, receiver) = std::sync::mpsc::channel();
        let family = self.spawn_root_family(future, move |value| {
            let _ = sender.send(value);
        });
        receiver.recv().unwrap_or_else(|_| panic!("{}", self.shared.failure(family)))
    }

    /// Run `future` as an untraced root task, with the calling thread as worker 0, until it
    /// completes. Only for runtimes made by [`Runtime::new_inline`].
    pub fn run_inline<T: Send + 'static>(&self, future: impl Future<Output = T> + Send + 'static) -> T {
        let (sender, receiver) = std::sync::mpsc::channel();
        let family = self.spawn_root_family(future, move |value| {
            let _ = sender.send(value);
        });
        let output = RefCell::new(None);
        self.shared.work(0, || match receiver.try_recv() {
            Ok(value) => {
                *output.borrow_mut() = Some(value);
                true
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => false,
            // The root task was cancelled (a task of its family panicked): stop too.
            Err(std::sync::mpsc::TryRecvError::Disconnected) => true,
        });
        output.into_inner().unwrap_or_else(|| panic!("{}", self.shared.failure(family)))
    }

    /// How many workers the runtime has.
    pub fn workers(&self) -> u32 {
        self.shared.workers
    }

    /// Spawn an untraced task from outside the runtime's workers, onto its global queue. It is a
    /// family of its own: a panic in it fails it (and the tasks it spawns) alone.
    pub fn spawn(&self, id: u32, future: impl Future<Output = ()> + Send + 'static) {
        self.shared.spawn(id, false, self.shared.new_family(), Box::pin(future));
    }

    /// What the last task that panicked said ("task 3 panicked: ..."), if one did: for a message
    /// when a root task's reply is dropped (see [`Handle::spawn_root`]).
    pub fn panic_message(&self) -> Option<String> {
        lock(&self.shared.panics).back().map(|(_, panic)| panic.clone())
    }

    /// Milliseconds from creation until every worker was running, once they all are.
    pub fn start_time_ms(&self) -> Option<f64> {
        lock(&self.shared.all_started_at_ms).map(|at| at - self.shared.built_at_ms)
    }

    /// Start recording scheduler events (clears those recorded so far).
    pub fn start_tracing(&self) {
        for buffer in &self.shared.events {
            lock(buffer).clear();
        }
        self.shared.tracing.store(true, SeqCst);
    }

    /// Stop recording and return the events in the order they happened. Waits (briefly) for traced
    /// tasks still inside a poll to record how it ended, so no Finish or Park is lost.
    pub fn take_events(&self) -> Vec<SchedulerEvent> {
        // Stop first, so no new poll is counted; then let the counted ones record how they ended.
        self.shared.tracing.store(false, SeqCst);
        while self.shared.polling_traced.load(SeqCst) > 0 {
            std::hint::spin_loop();
        }
        let events: Vec<(u64, SchedulerEvent)> =
            self.shared.events.iter().flat_map(|buffer| std::mem::take(&mut *lock(buffer))).collect();
        // By sequence number, through the engine's one stable sort (`stable_order`: by float keys,
        // which hold every sequence number below 2^53 exactly).
        let order = crate::trace::stable_order(events.iter().map(|(seq, _)| *seq as f64).collect());
        order.into_iter().map(|index| events[index].1).collect()
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        let shared = &self.shared;
        shared.shutdown.store(true, SeqCst);
        {
            let _guard = lock(&shared.sleep_lock);
            shared.wakeup.notify_all();
        }
        for queue in shared.locals.iter().chain([&shared.global]) {
            let queued: Vec<_> = lock(queue).drain(..).collect();
            for task in queued {
                task.cancel();
            }
        }
        lock(&shared.timers).clear();
        // Parked tasks are held by whatever holds their wakers: a timer, or a gate or wait group
        // that their own futures hold (a cycle). Cancelling every live task drops those futures,
        // which frees them all. A task being polled right now is dropped when its poll returns.
        shared.cancel_registered(|_| true);
    }
}

/// Spawn a traced task from inside the runtime, onto the current worker's local queue.
/// Panics if called outside a runtime worker.
pub fn spawn(id: u32, future: impl Future<Output = ()> + Send + 'static) {
    let shared = Shared::current().expect("runtime::spawn must be called from a task of the runtime");
    let family = match POLLING_FAMILY.with(Cell::get) {
        0 => shared.new_family(),
        family => family,
    };
    shared.spawn(id, true, family, Box::pin(future));
}

/// White-box access for the runtime's tests: wake-ups, sleeping workers, queues.
#[cfg(test)]
impl Runtime {
    /// Workers asleep right now (waiting for a wake-up or a timer).
    pub(in crate::runtime) fn sleeping_workers(&self) -> usize {
        self.shared.sleepers.load(SeqCst)
    }

    /// Queue `future` as a root task on worker `queue`'s local queue (the global queue if `None`)
    /// *without* waking anyone: half of a spawn, to stage a lost or a shared wake-up.
    pub(in crate::runtime) fn queue_silently(
        &self,
        queue: Option<u32>,
        future: impl Future<Output = ()> + Send + 'static,
    ) {
        let shard = queue.unwrap_or(self.shared.workers);
        let task = Task::new(u32::MAX, false, self.shared.new_family(), shard, Box::pin(future), self.shared.clone());
        self.shared.registry.insert(&task);
        match queue {
            Some(index) => lock(&self.shared.locals[index as usize]).push_back(task),
            None => lock(&self.shared.global).push_back(task),
        }
    }

    /// The wake-up every push of work sends.
    pub(in crate::runtime) fn notify(&self) {
        self.shared.notify();
    }

    /// Weak, so a test can check that the runtime's state is freed after the runtime is dropped.
    pub(in crate::runtime) fn downgrade(&self) -> std::sync::Weak<Shared> {
        Arc::downgrade(&self.shared)
    }
}
