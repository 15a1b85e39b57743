//! The workers a job runs on: a rayon pool or an M:N task runtime of exactly k workers, one at a
//! time. Asking for another size or kind ends the current one (and its threads or Web Workers).

use crate::clock::now_ms;
use crate::runtime::Runtime;
use crate::threads::spawn_worker;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::Arc;

enum Executor {
    Pool(Arc<ThreadPool>),
    Tasks(Runtime),
}

/// When a pool was built, and how much heap the engine held just before.
#[derive(Clone, Copy, Debug)]
pub struct PoolBuilt {
    pub at_ms: f64,
    pub live_bytes: isize,
}

struct Current {
    executor: Executor,
    workers: u32,
    built: PoolBuilt,
    /// No job has run on it yet (the first one measures the start-up time).
    fresh: bool,
}

/// Keeps the most recent executor alive between jobs so repeated runs with the same k start at once.
///
/// Without shared memory (see [`crate::threads::SHARED_MEMORY`]) both executors are the calling
/// thread itself, made once and kept: a one-thread rayon pool that uses the current thread, and a
/// runtime whose only worker is the current thread while a job runs.
#[derive(Default)]
pub struct Executors {
    current: Option<Current>,
    inline_pool: Option<Arc<ThreadPool>>,
    inline_runtime: Option<Runtime>,
}

fn one_worker_only(workers: u32) -> Result<(), String> {
    if workers == 1 {
        Ok(())
    } else {
        Err(format!("this page cannot share memory between threads, so it runs one worker, not {workers}"))
    }
}

impl Executors {
    /// A rayon pool of exactly `workers` threads, and when it was built if no job ran on it yet.
    pub fn pool(&mut self, workers: u32) -> Result<(Arc<ThreadPool>, Option<PoolBuilt>), String> {
        let workers = workers.max(1);
        if !crate::threads::SHARED_MEMORY {
            one_worker_only(workers)?;
            if self.inline_pool.is_none() {
                let pool = ThreadPoolBuilder::new()
                    .num_threads(1)
                    .use_current_thread()
                    .build()
                    .map_err(|e| format!("could not set up the single worker: {e}"))?;
                self.inline_pool = Some(Arc::new(pool));
            }
            return Ok((self.inline_pool.clone().expect("just set"), None));
        }
        if !matches!(&self.current, Some(Current { executor: Executor::Pool(_), workers: w, .. }) if *w == workers) {
            // End the old executor first so the two never hold workers at the same time.
            self.current = None;
            let built = PoolBuilt { at_ms: now_ms(), live_bytes: crate::alloc::live_bytes() };
            let pool = ThreadPoolBuilder::new()
                .num_threads(workers as usize)
                .thread_name(|i| format!("lab-worker-{i}"))
                .spawn_handler(|thread| {
                    let name = thread.name().unwrap_or("lab-worker").to_string();
                    spawn_worker(name, Box::new(move || thread.run()))
                })
                .build()
                .map_err(|e| format!("could not start {workers} workers: {e}"))?;
            self.current = Some(Current { executor: Executor::Pool(Arc::new(pool)), workers, built, fresh: true });
        }
        let current = self.current.as_mut().expect("just set");
        let fresh = std::mem::replace(&mut current.fresh, false).then_some(current.built);
        match &current.executor {
            Executor::Pool(pool) => Ok((pool.clone(), fresh)),
            Executor::Tasks(_) => unreachable!("matched a pool above"),
        }
    }

    /// An M:N task runtime of exactly `workers` workers, and whether no job ran on it yet.
    pub fn runtime(&mut self, workers: u32) -> Result<(&Runtime, bool), String> {
        let workers = workers.max(1);
        if !crate::threads::SHARED_MEMORY {
            one_worker_only(workers)?;
            return Ok((self.inline_runtime.get_or_insert_with(Runtime::new_inline), false));
        }
        if !matches!(&self.current, Some(Current { executor: Executor::Tasks(_), workers: w, .. }) if *w == workers) {
            self.current = None;
            let built = PoolBuilt { at_ms: now_ms(), live_bytes: crate::alloc::live_bytes() };
            let runtime = Runtime::new(workers)?;
            self.current = Some(Current { executor: Executor::Tasks(runtime), workers, built, fresh: true });
        }
        let current = self.current.as_mut().expect("just set");
        let fresh = std::mem::replace(&mut current.fresh, false);
        match &current.executor {
            Executor::Tasks(runtime) => Ok((runtime, fresh)),
            Executor::Pool(_) => unreachable!("matched a runtime above"),
        }
    }

    /// Size of the executor currently kept, 0 if none.
    pub fn workers(&self) -> u32 {
        self.current.as_ref().map_or(0, |c| c.workers)
    }

    /// End the current executor.
    pub fn clear(&mut self) {
        self.current = None;
    }
}
