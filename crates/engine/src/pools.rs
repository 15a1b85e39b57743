//! Rayon pools of exactly k workers, one at a time: asking for another size ends the old pool.

use crate::clock::now_ms;
use crate::threads::spawn_worker;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::Arc;

/// A pool and the moment it was built (to measure how long its workers take to start).
pub struct Pool {
    pub pool: Arc<ThreadPool>,
    pub workers: u32,
    pub built_at_ms: f64,
    /// Whether no job has run on this pool yet (the first one measures the start-up time).
    pub fresh: bool,
}

/// Keeps the most recent pool alive between runs so repeated runs with the same k start instantly.
/// Dropping a pool lets its workers leave rayon's main loop; each then ends its thread or Web Worker.
#[derive(Default)]
pub struct PoolCache {
    current: Option<Pool>,
}

impl PoolCache {
    /// A pool of exactly `workers` workers, reusing the current one when its size matches.
    pub fn get(&mut self, workers: u32) -> Result<&mut Pool, String> {
        let workers = workers.max(1);
        if self.current.as_ref().map(|p| p.workers) != Some(workers) {
            // End the old pool first so the two never hold workers at the same time.
            self.current = None;
            let built_at_ms = now_ms();
            let pool = ThreadPoolBuilder::new()
                .num_threads(workers as usize)
                .thread_name(|i| format!("lab-worker-{i}"))
                .spawn_handler(|thread| {
                    let name = thread.name().unwrap_or("lab-worker").to_string();
                    spawn_worker(name, Box::new(move || thread.run()))
                })
                .build()
                .map_err(|e| format!("could not start {workers} workers: {e}"))?;
            self.current = Some(Pool {
                pool: Arc::new(pool),
                workers,
                built_at_ms,
                fresh: true,
            });
        }
        Ok(self.current.as_mut().expect("just set"))
    }

    /// Size of the pool currently kept, 0 if none.
    pub fn workers(&self) -> u32 {
        self.current.as_ref().map_or(0, |p| p.workers)
    }

    /// End the current pool.
    pub fn clear(&mut self) {
        self.current = None;
    }
}
