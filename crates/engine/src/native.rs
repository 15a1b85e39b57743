//! The engine on OS threads, blocking: used by the `lab` CLI, benchmarks and native tests.

use crate::cancel::{Cancel, Stopped};
use crate::executors::Executors;
use crate::measure::{run_job, run_job_on_runtime, Progress};
use experiments::{Job, Measurement, Variant};
use std::sync::Arc;

/// Runs jobs one after another on rayon pools of OS threads, keeping the last pool between jobs.
#[derive(Default)]
pub struct NativeEngine {
    executors: Executors,
}

impl NativeEngine {
    pub fn new() -> Self {
        Self::default()
    }

    /// Measure `job` on exactly `job.workers` threads (blocking): a rayon pool, or the task
    /// runtime for the Goroutines variant.
    pub fn run(&mut self, job: &Job, cancel: &Cancel) -> Result<Measurement, RunError> {
        job.validate().map_err(RunError::Failed)?;
        let progress = Arc::new(Progress::default());
        let measured = if job.variant == Variant::Goroutines {
            let (runtime, fresh) = self.executors.runtime(job.workers).map_err(RunError::Failed)?;
            runtime.block_on(run_job_on_runtime(job.clone(), runtime.handle(), fresh, cancel.clone(), progress))
        } else {
            let (pool, fresh) = self.executors.pool(job.workers).map_err(RunError::Failed)?;
            pool.install(|| run_job(job, fresh, cancel, &progress))
        };
        measured.map_err(|Stopped| RunError::Stopped)
    }

    /// Size of the executor currently kept alive.
    pub fn pool_workers(&self) -> u32 {
        self.executors.workers()
    }

    /// End the current executor and its threads.
    pub fn end_pool(&mut self) {
        self.executors.clear();
    }
}

/// Why a run did not produce a measurement.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    Stopped,
    Failed(String),
}
