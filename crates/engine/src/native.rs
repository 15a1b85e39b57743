//! The engine on OS threads, blocking: used by the `lab` CLI, benchmarks and native tests.

use crate::cancel::{Cancel, Stopped};
use crate::measure::{run_job, Progress};
use crate::pools::PoolCache;
use experiments::{Job, Measurement};

/// Runs jobs one after another on rayon pools of OS threads, keeping the last pool between jobs.
#[derive(Default)]
pub struct NativeEngine {
    pools: PoolCache,
}

impl NativeEngine {
    pub fn new() -> Self {
        Self::default()
    }

    /// Measure `job` on a pool of exactly `job.workers` threads (blocking).
    pub fn run(&mut self, job: &Job, cancel: &Cancel) -> Result<Measurement, RunError> {
        let pool = self.pools.get(job.workers).map_err(RunError::Failed)?;
        let fresh = std::mem::replace(&mut pool.fresh, false).then_some(pool.built_at_ms);
        let progress = Progress::default();
        pool.pool
            .install(|| run_job(job, fresh, cancel, &progress))
            .map_err(|Stopped| RunError::Stopped)
    }

    /// Size of the pool currently kept alive.
    pub fn pool_workers(&self) -> u32 {
        self.pools.workers()
    }

    /// End the current pool and its threads.
    pub fn end_pool(&mut self) {
        self.pools.clear();
    }
}

/// Why a run did not produce a measurement.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    Stopped,
    Failed(String),
}
