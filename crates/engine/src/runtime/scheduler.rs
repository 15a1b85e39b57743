//! The scheduler: k workers with local run queues, a global queue, work stealing, timers, sleeping.

use super::registry::Registry;
use super::task::{BoxFuture, Task};

use super::timer::TimerEntry;
use crate::clock::now_ms;
use crate::threads::spawn_worker;
use experiments::{SchedulerEvent, SchedulerEventKind};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::{BinaryHeap, VecDeque};
use std::future::Future;
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

    /// Wake every task whose deadline has passed (they go to this worker's local queue).
    fn fire_due_timers(&self) {
        let now = now_ms();
        if now < self.earliest_deadline() {
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
        let mut events: Vec<(u64, SchedulerEvent)> =
            self.shared.events.iter().flat_map(|buffer| std::mem::take(&mut *lock(buffer))).collect();
        events.sort_by_key(|(seq, _)| *seq);
        events.into_iter().map(|(_, event)| event).collect()
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
    pub(super) fn sleeping_workers(&self) -> usize {
        self.shared.sleepers.load(SeqCst)
    }

    /// Queue `future` as a root task on worker `queue`'s local queue (the global queue if `None`)
    /// *without* waking anyone: half of a spawn, to stage a lost or a shared wake-up.
    pub(super) fn queue_silently(&self, queue: Option<u32>, future: impl Future<Output = ()> + Send + 'static) {
        let shard = queue.unwrap_or(self.shared.workers);
        let task = Task::new(u32::MAX, false, self.shared.new_family(), shard, Box::pin(future), self.shared.clone());
        self.shared.registry.insert(&task);
        match queue {
            Some(index) => lock(&self.shared.locals[index as usize]).push_back(task),
            None => lock(&self.shared.global).push_back(task),
        }
    }

    /// The wake-up every push of work sends.
    pub(super) fn notify(&self) {
        self.shared.notify();
    }

    /// Weak, so a test can check that the runtime's state is freed after the runtime is dropped.
    pub(super) fn downgrade(&self) -> std::sync::Weak<Shared> {
        Arc::downgrade(&self.shared)
    }
}

/// The index of the runtime worker running the calling code (tests).
#[cfg(test)]
pub(super) fn current_worker_index() -> Option<u32> {
    CURRENT.with(|c| c.borrow().as_ref().map(|(_, index)| *index))
}
