//! The engine on OS threads, blocking: used by the `lab` CLI, benchmarks and native tests.

use crate::cancel::Cancel;
use crate::driver::{Context, SliceSource};
use crate::executors::Executors;
use crate::harness;
use crate::kernels::hashing::hash_parameters;
use crate::outcome::RunEnd;
use experiments::protocol::{Failure, FailureKind};
use experiments::{HashSource, Job, Measurement};
use std::cell::RefCell;
use std::io::{Read, Seek, SeekFrom};
use workloads::hashing::fill_generated;

/// Read exactly `buffer.len()` bytes of `file` from `offset`.
fn read_at(file: &mut std::fs::File, offset: u64, buffer: &mut [u8]) -> Result<(), String> {
    file.seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_exact(buffer))
        .map_err(|e| format!("reading the file: {e}"))
}

/// Runs jobs on rayon pools and task runtimes of OS threads, keeping the last run's executors.
pub struct NativeEngine {
    executors: RefCell<Executors>,
    quiet_limit_ms: f64,
    sample_floor_ms: f64,
}

impl Default for NativeEngine {
    fn default() -> Self {
        NativeEngine {
            executors: RefCell::default(),
            quiet_limit_ms: harness::SETTLE_LIMIT_MS,
            sample_floor_ms: experiments::SAMPLE_FLOOR_MS,
        }
    }
}

/// The bytes of a hashing job natively: a file on disk, or the generator.
struct NativeSource {
    file: Option<std::fs::File>,
    seed: u64,
}

impl SliceSource for NativeSource {
    fn slice(&mut self, offset: u64, length: usize) -> Result<Vec<u8>, Failure> {
        let mut slice = vec![0u8; length];
        match &mut self.file {
            Some(file) => {
                read_at(file, offset, &mut slice).map_err(|e| Failure::new(FailureKind::FileUnreadable, e))?
            }
            None => fill_generated(&mut slice, offset, self.seed),
        }
        Ok(slice)
    }
}

fn open_source(job: &Job) -> Result<Box<dyn SliceSource>, String> {
    let (source, _) = hash_parameters(job).ok_or("not a hashing job")?;
    Ok(Box::new(match source {
        HashSource::File { name, .. } => {
            NativeSource { file: Some(std::fs::File::open(name).map_err(|e| format!("{name}: {e}"))?), seed: 0 }
        }
        HashSource::Generated { seed, .. } => NativeSource { file: None, seed: *seed },
    }))
}

/// A future that resolves after `ms` milliseconds, timed by a helper thread.
fn sleep(ms: u32) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> {
    let (done, waited) = futures_channel::oneshot::channel::<()>();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(ms as u64));
        let _ = done.send(());
    });
    Box::pin(async move {
        let _ = waited.await;
    })
}

impl NativeEngine {
    pub fn new() -> Self {
        Self::default()
    }

    /// An engine that times every job at once instead of waiting for a quiet machine (it still
    /// warms up once), each sample one pass: for tests that check results and traces, not speed,
    /// on a busy test machine.
    pub fn impatient() -> Self {
        NativeEngine { quiet_limit_ms: 0.0, sample_floor_ms: 0.0, ..Self::default() }
    }

    /// Measure `job` on exactly `job.workers` threads (blocking): a rayon pool, or the task
    /// runtime for the Goroutines variant.
    pub fn run(&mut self, job: &Job, cancel: &Cancel) -> Result<Measurement, RunError> {
        let mut measured = self.run_all(std::slice::from_ref(job), cancel)?;
        Ok(measured.remove(0))
    }

    /// Measure `jobs` one after another as the browser does (see [`harness`]): the workers of
    /// consecutive jobs kept alive together, each job warmed up until the machine is quiet, then
    /// timed. Load tests run alone (see [`crate::kernels::qps`]).
    pub fn run_all(&mut self, jobs: &[Job], cancel: &Cancel) -> Result<Vec<Measurement>, RunError> {
        experiments::job::validate_run(jobs)
            .map_err(|reason| RunError::Failed(Failure::new(FailureKind::Refused, reason)))?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        let cx = Context {
            cancel,
            cores,
            quiet_limit_ms: self.quiet_limit_ms,
            sample_floor_ms: self.sample_floor_ms,
            report: &|_| {},
            hash_source: &open_source,
            sleep: &sleep,
        };
        let mut measurements = Vec::with_capacity(jobs.len());
        for group in harness::groups(jobs) {
            let group_jobs = &jobs[group.clone()];
            match futures_executor::block_on(harness::measure_group(&self.executors, group_jobs, group.start, &cx)) {
                RunEnd::Measured(measured) => measurements.extend(measured),
                RunEnd::Stopped(_) => return Err(RunError::Stopped),
                RunEnd::Failed(message) => return Err(RunError::Failed(message)),
            }
        }
        Ok(measurements)
    }

    /// Workers of the executors currently kept alive.
    pub fn pool_workers(&self) -> u32 {
        self.executors.borrow().workers()
    }

    /// End the kept executors and their threads.
    pub fn end_pool(&mut self) {
        self.executors.borrow_mut().clear();
    }
}

/// Why a run did not produce a measurement.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    Stopped,
    Failed(Failure),
}
