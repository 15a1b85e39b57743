//! The scheduler: k workers with local run queues, a global queue, work stealing, timers, sleeping.
//! What the rest of the engine holds of it ([`Runtime`], [`Handle`], [`spawn`]) is in [`handle`].

mod handle;

pub use handle::{spawn, Handle, Runtime};

use super::registry::Registry;
use super::task::{BoxFuture, Task};

use super::timer::TimerEntry;
use crate::clock::now_ms;
use experiments::{SchedulerEvent, SchedulerEventKind};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::{BinaryHeap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::Waker;
use std::time::Duration;

/// Go's local run queues hold 256 goroutines; beyond that, half move to the global queue.
const LOCAL_QUEUE_CAPACITY: usize = 256;
/// How many panics a runtime remembers (see [`Handle::panic_message`]).
const PANICS_KEPT: usize = 16;
/// Every 61st look for work starts at the global queue, so it is never starved (Go does the same).
const GLOBAL_QUEUE_EVERY: u32 = 61;
/// A sleeping worker re-checks at least this often (a safety net; wake-ups are normally exact).
#[cfg(not(test))]
const MAX_SLEEP_MS: f64 = 50.0;
/// The engine's own tests have no safety net: a sleeping worker waits for a wake-up or its next
/// timer, nothing else, so a lost wake-up hangs a run and the test's deadline fails it.
#[cfg(test)]
const MAX_SLEEP_MS: f64 = f64::INFINITY;

type TaskQueue = Mutex<VecDeque<Arc<Task>>>;

/// Test builds only: now and then give up the CPU at a step of the sleep/wake protocol. The windows
/// a lost wake-up needs are nanoseconds wide; yielding there widens them, so the stress tests meet
/// those interleavings instead of almost never. Nothing at all outside tests.
#[cfg(test)]
fn shake() {
    thread_local! {
        static STATE: Cell<u32> = const { Cell::new(0x9E37_79B9) };
    }
    // xorshift32: cheap, and different on every thread after its first draws.
    let draw = STATE.with(|state| {
        let mut x = state.get();
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        state.set(x);
        x
    });
    if draw.is_multiple_of(4) {
        std::thread::yield_now();
    }
}

#[cfg(not(test))]
#[inline(always)]
fn shake() {}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

thread_local! {
    /// The runtime and worker index of the current thread, if it is one of a runtime's workers.
    static CURRENT: RefCell<Option<(Arc<Shared>, u32)>> = const { RefCell::new(None) };
    /// The family of the task this thread is polling (0: none): what a task it spawns joins.
    static POLLING_FAMILY: Cell<u64> = const { Cell::new(0) };
}

/// State shared by a runtime's workers, its tasks and its handle.
pub(crate) struct Shared {
    workers: u32,
    locals: Vec<TaskQueue>,
    global: TaskQueue,
    timers: Mutex<BinaryHeap<TimerEntry>>,
    timer_seq: AtomicU64,
    /// Bits of the earliest timer deadline (f64), so idle workers can skip locking the heap.
    earliest_deadline: AtomicU64,
    /// Bumped on every push of work or timer: a worker about to sleep re-checks if it changed.
    epoch: AtomicU64,
    sleepers: AtomicUsize,
    sleep_lock: Mutex<()>,
    wakeup: Condvar,
    shutdown: AtomicBool,
    started: AtomicU32,
    built_at_ms: f64,
    all_started_at_ms: Mutex<Option<f64>>,
    tracing: AtomicBool,
    /// Traced tasks being polled right now: their Finish or Park is not recorded yet.
    polling_traced: AtomicUsize,
    /// One event buffer per worker, plus one for events outside any worker, with sequence numbers.
    events: Vec<Mutex<Vec<(u64, SchedulerEvent)>>>,
    event_seq: AtomicU64,
    /// Every live task, from spawn to finish: what dropping the runtime or a panic cancels.
    registry: Registry,
    next_family: AtomicU64,
    /// What the last few tasks that panicked said, with their families, latest last.
    panics: Mutex<VecDeque<(u64, String)>>,
}

impl Shared {
    /// The runtime whose worker is running the calling code, if any.
    pub fn current() -> Option<Arc<Shared>> {
        CURRENT.with(|c| c.borrow().as_ref().map(|(shared, _)| shared.clone()))
    }

    fn current_worker(self: &Arc<Self>) -> Option<u32> {
        CURRENT.with(|c| match c.borrow().as_ref() {
            Some((shared, index)) if Arc::ptr_eq(shared, self) => Some(*index),
            _ => None,
        })
    }

    /// Record an event. A global sequence number orders events exactly, even when the clock
    /// cannot tell them apart (browsers give 5 µs resolution).
    pub(crate) fn record(&self, worker: Option<u32>, task: u32, kind: SchedulerEventKind) {
        if self.tracing.load(SeqCst) {
            self.record_anyway(worker, task, kind);
        }
    }

    /// Record an event even if tracing has just stopped: how a poll whose Run was recorded ended.
    pub(crate) fn record_anyway(&self, worker: Option<u32>, task: u32, kind: SchedulerEventKind) {
        let seq = self.event_seq.fetch_add(1, SeqCst);
        let buffer = worker.map_or(self.workers as usize, |w| w as usize);
        lock(&self.events[buffer]).push((seq, SchedulerEvent { at_ms: now_ms(), worker, task, kind }));
    }

    pub fn record_wake(self: &Arc<Self>, task: u32) {
        self.record(self.current_worker(), task, SchedulerEventKind::Wake);
    }

    /// Tell sleeping workers that something changed.
    fn notify(&self) {
        self.epoch.fetch_add(1, SeqCst);
        shake();
        if self.sleepers.load(SeqCst) > 0 {
            let _guard = lock(&self.sleep_lock);
            self.wakeup.notify_one();
        }
    }

    /// Wake one sleeping worker, if any, for work every worker's search can already see (so no
    /// epoch change is needed: a worker about to sleep has either seen that work or will be told).
    fn wake_a_sleeper(&self) {
        if self.sleepers.load(SeqCst) > 0 {
            let _guard = lock(&self.sleep_lock);
            self.wakeup.notify_one();
        }
    }

    /// Make `task` runnable: on the current worker's local queue if we are on one of this runtime's
    /// workers (the task will likely run soon, with warm caches), else on the global queue.
    pub fn schedule(self: &Arc<Self>, task: Arc<Task>) {
        self.schedule_on(self.current_worker(), task);
    }

    fn schedule_on(&self, here: Option<u32>, task: Arc<Task>) {
        if self.shutdown.load(SeqCst) {
            task.cancel();
            return;
        }
        match here {
            Some(index) => {
                let mut local = lock(&self.locals[index as usize]);
                local.push_back(task);
                if local.len() > LOCAL_QUEUE_CAPACITY {
                    let half: Vec<_> = local.drain(..LOCAL_QUEUE_CAPACITY / 2).collect();
                    drop(local);
                    lock(&self.global).extend(half);
                }
            }
            None => lock(&self.global).push_back(task),
        }
        shake();
        self.notify();
    }

    fn new_family(&self) -> u64 {
        self.next_family.fetch_add(1, SeqCst)
    }

    fn spawn(self: &Arc<Self>, id: u32, traced: bool, family: u64, future: BoxFuture) {
        let here = self.current_worker();
        // Listed in the registry shard of the worker spawning it (the last shard: from outside).
        let shard = here.unwrap_or(self.workers);
        let task = Task::new(id, traced, family, shard, future, self.clone());
        self.registry.insert(&task);
        if traced {
            self.record(here, id, SchedulerEventKind::Spawn { queue: here });
        }
        self.schedule_on(here, task);
    }

    /// Take a finished or cancelled task off the registry (later calls do nothing).
    pub(crate) fn unregister(&self, task: &Task) {
        self.registry.remove(task);
    }

    /// Cancel every live task that `wanted` selects.
    fn cancel_registered(&self, wanted: impl Fn(&Task) -> bool) {
        // Cancelled outside the registry's locks: dropping a future runs arbitrary code.
        for task in self.registry.take(wanted) {
            task.cancel();
        }
    }

    pub fn add_timer(&self, deadline_ms: f64, waker: Waker) {
        let seq = self.timer_seq.fetch_add(1, SeqCst);
        let mut timers = lock(&self.timers);
        timers.push(TimerEntry { deadline_ms, seq, waker });
        let earliest = timers.peek().map_or(f64::INFINITY, |t| t.deadline_ms);
        self.earliest_deadline.store(earliest.to_bits(), SeqCst);
        drop(timers);
        self.notify();
    }

    fn earliest_deadline(&self) -> f64 {
        f64::from_bits(self.earliest_deadline.load(SeqCst))
    }

    /// Wake every task whose deadline has passed (they go to this worker's local queue). With no
    /// timer set, not even the clock is read (Go's `checkTimers` returns early the same way): this
    /// runs on every turn of a worker's loop, and in a browser a clock read is a call out to
    /// JavaScript (`performance.now()`), dearer than the rest of a switch.
    fn fire_due_timers(&self) {
        let earliest = self.earliest_deadline();
        if earliest == f64::INFINITY {
            return;
        }
        let now = now_ms();
        if now < earliest {
            return;
        }
        let mut due = Vec::new();
        {
            let mut timers = lock(&self.timers);
            while timers.peek().is_some_and(|t| t.deadline_ms <= now) {
                due.extend(timers.pop().map(|t| t.waker));
            }
            let earliest = timers.peek().map_or(f64::INFINITY, |t| t.deadline_ms);
            self.earliest_deadline.store(earliest.to_bits(), SeqCst);
        }
        for waker in due {
            waker.wake();
        }
    }

    fn pop_local(&self, index: u32) -> Option<Arc<Task>> {
        lock(&self.locals[index as usize]).pop_front()
    }

    fn pop_global(&self) -> Option<Arc<Task>> {
        let mut global = lock(&self.global);
        let task = global.pop_front();
        let more = !global.is_empty();
        drop(global);
        if task.is_some() && more {
            // Work left behind (the global queue is also filled in batches, when a local queue
            // overflows, with one wake-up): wake another worker for it, as after a steal.
            self.wake_a_sleeper();
        }
        task
    }

    /// Take half of the first non-empty local queue after ours (Go steals half, from the head).
    fn steal(&self, thief: u32) -> Option<Arc<Task>> {
        for offset in 1..self.workers {
            let victim = (thief + offset) % self.workers;
            let mut taken: VecDeque<Arc<Task>> = {
                let mut queue = lock(&self.locals[victim as usize]);
                let count = queue.len().div_ceil(2);
                queue.drain(..count).collect()
            };
            let count = taken.len() as u32;
            // One event per stolen task, so a replay knows exactly which tasks moved.
            for task in taken.iter().filter(|t| t.traced) {
                self.record(Some(thief), task.id, SchedulerEventKind::Steal { victim, count });
            }
            let Some(first) = taken.pop_front() else { continue };
            if !taken.is_empty() {
                lock(&self.locals[thief as usize]).extend(taken);
                // Work left behind in our queue: wake an idle worker to steal some (Go's wakep), or
                // it would wait for this worker to get to it, one task at a time.
                self.notify();
            }
            return Some(first);
        }
        None
    }

    fn run(self: &Arc<Self>, task: Arc<Task>, index: u32) {
        // Counted only while tracing, so untraced runs pay one atomic load per poll, nothing more.
        // Tracing is checked again after counting: `take_events` stops tracing and then waits for
        // the count to drop, so a poll is either counted and recorded whole, or not at all.
        let counted = task.traced && self.tracing.load(SeqCst) && {
            self.polling_traced.fetch_add(1, SeqCst);
            let still_tracing = self.tracing.load(SeqCst);
            if !still_tracing {
                self.polling_traced.fetch_sub(1, SeqCst);
            }
            still_tracing
        };
        if counted {
            self.record_anyway(Some(index), task.id, SchedulerEventKind::Run);
        }
        // The task records how its poll ended (Finish, Park, or Park and Wake) itself. A task that
        // spawns puts the new task in its own family.
        let family = POLLING_FAMILY.with(|f| f.replace(task.family));
        let polled = catch_unwind(AssertUnwindSafe(|| task.poll(index, counted)));
        POLLING_FAMILY.with(|f| f.set(family));
        if let Err(panic) = polled {
            self.task_panicked(&task, index, counted, panic.as_ref());
        }
        // Last: `take_events` waits for this, and a panicked poll has recorded its end above.
        if counted {
            self.polling_traced.fetch_sub(1, SeqCst);
        }
    }

    /// A poll of `task` panicked (natively; in the browser a panic aborts the engine instead). The
    /// worker lives on; the task and its whole family are cancelled, so the root task's reply is
    /// dropped and whoever awaits it sees the run fail instead of waiting forever.
    fn task_panicked(&self, task: &Arc<Task>, worker: u32, counted: bool, panic: &(dyn Any + Send)) {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_string());
        let mut panics = lock(&self.panics);
        if panics.len() == PANICS_KEPT {
            panics.pop_front();
        }
        panics.push_back((task.family, format!("task {} panicked: {message}", task.id)));
        drop(panics);
        if counted {
            self.record_anyway(Some(worker), task.id, SchedulerEventKind::Finish);
        }
        task.abandon();
        let family = task.family;
        self.cancel_registered(|other| other.family == family);
    }

    /// Why the reply of the root task of `family` was dropped: a panic in the family, or the
    /// runtime's end.
    fn failure(&self, family: u64) -> String {
        let panics = lock(&self.panics);
        match panics.iter().rev().find(|(failed, _)| *failed == family) {
            Some((_, panic)) => format!("the run failed: {panic}"),
            None => "the runtime dropped a root task it was running (it was shut down)".to_string(),
        }
    }

    /// Sleep until new work, the next timer deadline, or shutdown, unless something changed
    /// since `seen` (then return at once and look again).
    fn sleep(&self, seen: u64) {
        if !crate::threads::SHARED_MEMORY {
            // One worker and no way to block: nothing but a timer can bring new work, so spin to it.
            let deadline = self.earliest_deadline().min(now_ms() + MAX_SLEEP_MS);
            while now_ms() < deadline {
                std::hint::spin_loop();
            }
            return;
        }
        shake();
        let guard = lock(&self.sleep_lock);
        self.sleepers.fetch_add(1, SeqCst);
        shake();
        if self.epoch.load(SeqCst) == seen && !self.shutdown.load(SeqCst) {
            shake();
            let until_deadline = self.earliest_deadline() - now_ms();
            let wait_ms = until_deadline.clamp(0.0, MAX_SLEEP_MS);
            if wait_ms == f64::INFINITY {
                // No timer and no safety net (tests): only a wake-up ends this.
                drop(self.wakeup.wait(guard));
            } else if wait_ms > 0.0 {
                let timeout = Duration::from_secs_f64(wait_ms / 1000.0);
                let _ = self.wakeup.wait_timeout(guard, timeout).map(|(g, _)| drop(g));
            }
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }

    fn mark_started(&self) {
        if self.started.fetch_add(1, SeqCst) + 1 == self.workers {
            *lock(&self.all_started_at_ms) = Some(now_ms());
        }
    }

    /// A worker's whole life: look for work in Go's order, run it, or sleep.
    fn worker_main(self: Arc<Self>, index: u32) {
        self.mark_started();
        self.work(index, || false);
        for task in lock(&self.locals[index as usize]).drain(..) {
            task.cancel();
        }
    }

    /// Be worker `index` until shutdown or until `done()` says so.
    fn work(self: &Arc<Self>, index: u32, done: impl Fn() -> bool) {
        let previous = CURRENT.with(|c| c.borrow_mut().replace((self.clone(), index)));
        let mut tick: u32 = 0;
        while !self.shutdown.load(SeqCst) && !done() {
            let seen = self.epoch.load(SeqCst);
            shake();
            self.fire_due_timers();
            tick = tick.wrapping_add(1);
            let next = if tick.is_multiple_of(GLOBAL_QUEUE_EVERY) {
                self.pop_global().or_else(|| self.pop_local(index))
            } else {
                self.pop_local(index).or_else(|| self.pop_global())
            };
            match next.or_else(|| self.steal(index)) {
                Some(task) => self.run(task, index),
                None => self.sleep(seen),
            }
        }
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// The index of the runtime worker running the calling code (tests).
#[cfg(test)]
pub(super) fn current_worker_index() -> Option<u32> {
    CURRENT.with(|c| c.borrow().as_ref().map(|(_, index)| *index))
}
