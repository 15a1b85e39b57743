//! Starting and counting worker threads: OS threads natively, Web Workers in the browser.
//!
//! Every worker the engine starts goes through [`spawn_worker`], so [`live_workers`] is an exact count
//! of the workers alive right now. Pools hand rayon's per-thread main loop to it (see [`crate::executors`]).

use std::sync::atomic::{AtomicU32, Ordering};

static LIVE: AtomicU32 = AtomicU32::new(0);

/// Workers started and not yet finished.
pub fn live_workers() -> u32 {
    LIVE.load(Ordering::SeqCst)
}

#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
pub(crate) fn worker_started() {
    LIVE.fetch_add(1, Ordering::SeqCst);
}

#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
pub(crate) fn worker_finished() {
    LIVE.fetch_sub(1, Ordering::SeqCst);
}

/// `count` workers were just told to end (their executor was dropped). In the browser a new
/// executor waits briefly for them to park, so it can reuse them (see `web::workers`); natively
/// threads simply end.
pub(crate) fn workers_ending(count: u32) {
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    crate::web::workers::ending(count);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
    let _ = count;
}

/// The body of a worker: runs once, then the worker ends.
pub type WorkerMain = Box<dyn FnOnce() + Send + 'static>;

/// Start a worker running `main`. Natively an OS thread.
#[cfg(not(target_arch = "wasm32"))]
pub fn spawn_worker(name: String, main: WorkerMain) -> std::io::Result<()> {
    /// Counts the worker out when its thread ends, even by a panic.
    struct CountedOut;
    impl Drop for CountedOut {
        fn drop(&mut self) {
            worker_finished();
        }
    }
    worker_started();
    let spawned = std::thread::Builder::new().name(name).spawn(move || {
        let _counted_out = CountedOut;
        main();
    });
    if spawned.is_err() {
        worker_finished();
    }
    spawned.map(|_| ())
}

/// Start a worker running `main`. In the browser a module Web Worker that shares this module's
/// memory; it counts as finished when it reports back that it has exited (see `web::workers`).
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub fn spawn_worker(name: String, main: WorkerMain) -> std::io::Result<()> {
    crate::web::workers::spawn(&name, main).map_err(std::io::Error::other)
}

/// Without shared memory there is no second worker to start.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
pub fn spawn_worker(_name: String, _main: WorkerMain) -> std::io::Result<()> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "this page has no shared memory: one worker only"))
}

/// Whether this build can run more than one worker. False only for the browser build without
/// shared memory (pages that are not cross-origin isolated), where everything runs on one worker.
pub const SHARED_MEMORY: bool = cfg!(any(not(target_arch = "wasm32"), target_feature = "atomics"));

/// Hold the current worker for `duration`, like a blocking system call. Without shared memory the
/// browser offers no way to block, so the worker spins on the clock instead (same effect: the
/// worker can do nothing else meanwhile).
pub fn block_for(duration: std::time::Duration) {
    if SHARED_MEMORY {
        std::thread::sleep(duration);
    } else {
        let until = crate::clock::now_ms() + duration.as_secs_f64() * 1000.0;
        while crate::clock::now_ms() < until {
            std::hint::spin_loop();
        }
    }
}
