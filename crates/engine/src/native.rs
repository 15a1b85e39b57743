//! The engine on OS threads, blocking: used by the `lab` CLI, benchmarks and native tests.

use crate::cancel::{Cancel, Stopped};
use crate::executors::Executors;
use crate::hashing::{check_digests, hash_parameters, slices, Hashing};
use crate::qps::{load_test, qps_measurement, report, Load, Server};
use crate::runtime::Runtime;
use experiments::{HashSource, Trace, Workload};
use std::io::{Read, Seek, SeekFrom};
use workloads::hashing::fill_generated;

/// Read exactly `buffer.len()` bytes of `file` from `offset`.
fn read_at(file: &mut std::fs::File, offset: u64, buffer: &mut [u8]) -> Result<(), String> {
    file.seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_exact(buffer))
        .map_err(|e| format!("reading the file: {e}"))
}
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
        match job.workload {
            Workload::Hash { .. } => return self.run_hash(job, cancel),
            Workload::Qps { .. } => return self.run_qps(job, cancel),
            _ => {}
        }
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

    /// Hash the job's data `job.tasks` times, slice by slice (a file is read from disk).
    fn run_hash(&mut self, job: &Job, cancel: &Cancel) -> Result<Measurement, RunError> {
        let (source, slice_bytes) = hash_parameters(job).expect("a hashing job");
        let workers = if job.variant == Variant::Sequential { 1 } else { job.workers };
        let (pool, _) = self.executors.pool(workers).map_err(RunError::Failed)?;
        let mut file = match source {
            HashSource::File { name, .. } => {
                Some(std::fs::File::open(name).map_err(|e| RunError::Failed(format!("{name}: {e}")))?)
            }
            HashSource::Generated { .. } => None,
        };
        let total = match source {
            HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. } => *bytes,
        };
        let mut samples = Vec::new();
        let mut digests_seen = Vec::new();
        let mut buffer = vec![0u8; slice_bytes as usize];
        for _ in 0..job.repetitions.max(1) {
            let mut hashing = Hashing::new(job.tasks, job.variant);
            for (offset, length) in slices(total, slice_bytes) {
                cancel.check().map_err(|Stopped| RunError::Stopped)?;
                let slice = &mut buffer[..length];
                match (&mut file, source) {
                    (Some(file), _) => read_at(file, offset, slice).map_err(RunError::Failed)?,
                    (None, HashSource::Generated { seed, .. }) => fill_generated(slice, offset, *seed),
                    (None, HashSource::File { .. }) => unreachable!("opened above"),
                }
                let slice = &buffer[..length];
                pool.install(|| hashing.advance(slice));
            }
            let (digests, trace) = hashing.finish();
            digests_seen.extend(digests);
            samples.push((trace.wall_ms, trace));
        }
        Ok(Measurement::from_samples(job.clone(), samples, check_digests(&digests_seen), None))
    }

    /// Load-test the job's server with a load generator on its own one-worker runtime.
    fn run_qps(&mut self, job: &Job, cancel: &Cancel) -> Result<Measurement, RunError> {
        let Workload::Qps { requests, concurrency, work_us, wait_us } = job.workload else {
            unreachable!("a server job")
        };
        let load = Load { requests, concurrency, work_us, wait_us };
        let thread_pool = job.variant == Variant::Tasks;
        let server = if thread_pool {
            Server::ThreadPool(self.executors.pool(job.workers).map_err(RunError::Failed)?.0)
        } else {
            Server::Goroutines(self.executors.runtime(job.workers).map_err(RunError::Failed)?.0.handle())
        };
        let client = Runtime::new(1).map_err(RunError::Failed)?;
        let mut samples = Vec::new();
        let mut reports = Vec::new();
        for _ in 0..job.repetitions.max(1) {
            let times = client
                .block_on(load_test(server.clone(), load, cancel.clone()))
                .map_err(|Stopped| RunError::Stopped)?;
            let report = report(&times, job.workers, load, thread_pool);
            samples.push((report.elapsed_ms, Trace { wall_ms: report.elapsed_ms, ..Trace::default() }));
            reports.push(report);
        }
        Ok(qps_measurement(job, samples, reports))
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
