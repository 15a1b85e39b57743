//! Handing work to a pool or a task runtime and awaiting it without blocking the driving thread,
//! waiting (within a limit) for new workers to start, and keeping idle workers awake while a job is
//! timed.

use super::Context;
use crate::cancel::Stopped;
use crate::clock::now_ms;
use crate::executors::{Executor, PoolBuilt};
use crate::outcome::Outcome;
use crate::runtime::Handle;
use crate::threads::SHARED_MEMORY;
use experiments::protocol::{Failure, FailureKind};
use futures_channel::oneshot;
use futures_util::future::{select, Either};
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

/// How long new workers may take to start before the run fails: whole seconds (its message says
/// them as an integer, see [`within`]).
pub(crate) const START_LIMIT_MS: f64 = 20_000.0;
const _: () = assert!(START_LIMIT_MS % 1000.0 == 0.0, "START_LIMIT_MS must be whole seconds");

/// Run `work` on a worker of `pool` and await its result. Without shared memory the pool is this
/// very thread, and the work runs right here.
pub async fn on_pool<T: Send + 'static>(
    pool: &Arc<rayon::ThreadPool>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    if !SHARED_MEMORY {
        return Ok(pool.install(work));
    }
    let (done, result) = oneshot::channel();
    pool.spawn(move || {
        let _ = done.send(work());
    });
    result.await.map_err(|_| "a worker ended without finishing its work".to_string())
}

/// Run `work` as a root task of a runtime and await its output (inline without shared memory).
pub async fn on_runtime<T: Send + 'static>(
    runtime: &Handle,
    work: impl Future<Output = T> + Send + 'static,
) -> Result<T, String> {
    if !SHARED_MEMORY {
        return Ok(runtime.run_inline(work));
    }
    let (done, result) = oneshot::channel();
    runtime.spawn_root(work, move |value| {
        let _ = done.send(value);
    });
    result.await.map_err(|_| match runtime.panic_message() {
        Some(panic) => format!("a task panicked: {panic}"),
        None => "a task worker ended without finishing its work".to_string(),
    })
}

/// `future`, or an error naming `what` if it takes longer than `limit_ms` or the run is stopped.
pub(crate) async fn within<T>(
    future: impl Future<Output = Result<T, String>>,
    limit_ms: f64,
    what: &str,
    cx: &Context<'_>,
) -> Outcome<T> {
    let deadline = now_ms() + limit_ms;
    let mut future = pin!(future);
    loop {
        match select(future.as_mut(), (cx.sleep)(50)).await {
            Either::Left((result, _)) => return result.map(Ok).map_err(Failure::from),
            Either::Right(_) if cx.cancel.is_stopped() => return Ok(Err(Stopped)),
            Either::Right(_) if now_ms() > deadline => {
                let kind = if what == STARTING { FailureKind::WorkersNotStarted } else { FailureKind::TimedOut };
                // Whole seconds, as an integer: formatting an `f64` would bring core's float
                // formatting (about 20 KB) into the engine's module for this one message.
                let seconds = limit_ms as u64 / 1000;
                return Err(Failure::new(kind, format!("{what} took longer than {seconds} s")));
            }
            Either::Right(_) => {}
        }
    }
}

/// What [`START_LIMIT_MS`] limits, for the message when it is exceeded.
pub(crate) const STARTING: &str = "starting the workers (their script may be slow to load, or blocked)";

/// Wait, at most `START_LIMIT_MS` and only until the run is stopped, until every worker of
/// `executor` runs (for kernels measured alone, such as load tests).
pub async fn started(executor: &Executor, cx: &Context<'_>) -> Outcome<()> {
    let built = PoolBuilt { at_ms: now_ms(), live_bytes: crate::alloc::live_bytes() };
    Ok(within(wait_started(executor, built, cx), START_LIMIT_MS, STARTING, cx).await?.map(drop))
}

/// Wait until every worker of a new executor runs; returns how long that took since it was built
/// and the heap bytes each worker took.
pub(crate) async fn wait_started(
    executor: &Executor,
    built: PoolBuilt,
    cx: &Context<'_>,
) -> Result<(f64, f64), String> {
    let workers = match executor {
        Executor::Pool(pool) => {
            // Returns once every worker of the pool has run it, i.e. once all of them are up.
            on_pool(pool, || rayon::broadcast(|_| ())).await?;
            pool.current_num_threads()
        }
        Executor::Runtime(runtime) => {
            while runtime.start_time_ms().is_none() {
                (cx.sleep)(1).await;
            }
            runtime.workers() as usize
        }
    };
    let bytes = (crate::alloc::live_bytes() - built.live_bytes) as f64 / workers.max(1) as f64;
    Ok((now_ms() - built.at_ms, bytes))
}

/// While alive, `workers - 1` other workers of the current pool stay awake: instead of going to
/// sleep when they run out of tasks, they keep looking for more (and run what they find).
///
/// Between two timed repetitions every worker but one runs out of work. A rayon worker then goes
/// to sleep within microseconds (in a browser, `std::thread::yield_now` does nothing, so its short
/// spin ends almost at once), and at the next repetition's first task it must be woken: by the
/// browser, the operating system and, on a virtual machine, the hypervisor, which measured here
/// took from 0.1 ms to several ms, so that one worker often did all of a short repetition's tasks
/// alone. Timing the sum of waking up and working would not show the reader what the work itself
/// gains from more workers; what waking costs is measured in the "What a task costs" chapter.
pub(crate) struct KeepAwake {
    done: Arc<AtomicBool>,
}

impl KeepAwake {
    /// How long [`KeepAwake::start`] waits, at most, for the others to be awake.
    const WAKE_LIMIT_MS: f64 = 20.0;

    /// Call on a worker of the pool; keeps `workers - 1` others awake (none if `workers` <= 1), and
    /// returns once they all are (or after [`KeepAwake::WAKE_LIMIT_MS`]), so a sample timed next
    /// does not begin with workers still being woken.
    pub(crate) fn start(workers: u32) -> KeepAwake {
        let done = Arc::new(AtomicBool::new(false));
        let me = rayon::current_thread_index();
        if workers > 1 && me.is_some() {
            let (stay, taken, awake) = (done.clone(), Arc::new(AtomicU32::new(1)), Arc::new(AtomicU32::new(1)));
            let woken = awake.clone();
            rayon::spawn_broadcast(move |worker| {
                // Not the starting worker, and no more than asked for.
                if Some(worker.index()) == me || taken.fetch_add(1, Ordering::SeqCst) >= workers {
                    return;
                }
                woken.fetch_add(1, Ordering::SeqCst);
                while !stay.load(Ordering::Relaxed) {
                    match rayon::yield_now() {
                        Some(rayon::Yield::Executed) => {}
                        _ => std::hint::spin_loop(),
                    }
                }
            });
            let since = now_ms();
            while awake.load(Ordering::SeqCst) < workers && now_ms() - since < Self::WAKE_LIMIT_MS {
                std::hint::spin_loop();
            }
        }
        KeepAwake { done }
    }
}

impl Drop for KeepAwake {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}
