//! What the coordinator reads or drives itself: the bytes to hash (from a `File` the UI attached or
//! from the generated stream, one slice at a time) and server load tests (the load generator gets
//! its own runtime).

use super::{describe, EXECUTORS};
use crate::cancel::Stopped;
use crate::executors::Executor;
use crate::harness::{started, Context, SliceSource};
use crate::hashing::hash_parameters;
use crate::qps::{load_test, qps_measurement, report, Load, Server};
use crate::runtime::Runtime;
use crate::threads::SHARED_MEMORY;
use experiments::{HashSource, Job, Measurement, Trace, Variant, Workload};
use futures_channel::oneshot;
use std::cell::RefCell;
use workloads::hashing::fill_generated;

thread_local! {
    /// The file the UI sent with its last request, for hashing jobs.
    pub(super) static ATTACHED_FILE: RefCell<Option<web_sys::File>> = const { RefCell::new(None) };
}

/// A run's outcome: measured, stopped, or failed with a reason.
pub type Outcome = Result<Result<Measurement, Stopped>, String>;

/// Read bytes `offset..offset + length` of the attached file (the coordinator is a worker, so it
/// may read synchronously).
fn read_file_slice(file: &web_sys::File, offset: u64, length: usize) -> Result<Vec<u8>, String> {
    let blob = file.slice_with_f64_and_f64(offset as f64, (offset + length as u64) as f64).map_err(describe)?;
    let reader = web_sys::FileReaderSync::new().map_err(describe)?;
    let buffer = reader.read_as_array_buffer(&blob).map_err(|e| format!("reading the file: {}", describe(e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Where a hashing job's bytes come from: the attached file, or the generator.
pub(super) struct HashInput {
    file: Option<web_sys::File>,
    source: HashSource,
    #[cfg_attr(target_feature = "atomics", allow(dead_code, reason = "read by message workers only"))]
    pub slice_bytes: u32,
    #[cfg_attr(target_feature = "atomics", allow(dead_code, reason = "read by message workers only"))]
    pub total: u64,
}

impl HashInput {
    pub fn of(job: &Job) -> Result<HashInput, String> {
        let (source, slice_bytes) = hash_parameters(job).expect("a hashing job");
        let file = match source {
            HashSource::File { .. } => Some(
                ATTACHED_FILE.with(|f| f.borrow().clone()).ok_or("no file was sent with the request".to_string())?,
            ),
            HashSource::Generated { .. } => None,
        };
        let total = match source {
            HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. } => *bytes,
        };
        Ok(HashInput { file, source: source.clone(), slice_bytes, total })
    }

    /// Bytes `offset..offset + length`: read from the file, or generated.
    pub fn slice(&self, offset: u64, length: usize) -> Result<Vec<u8>, String> {
        match (&self.file, &self.source) {
            (Some(file), _) => read_file_slice(file, offset, length),
            (None, HashSource::Generated { seed, .. }) => {
                let mut slice = vec![0u8; length];
                fill_generated(&mut slice, offset, *seed);
                Ok(slice)
            }
            (None, HashSource::File { .. }) => unreachable!("attached in HashInput::of"),
        }
    }
}

impl SliceSource for HashInput {
    fn slice(&mut self, offset: u64, length: usize) -> Result<Vec<u8>, String> {
        HashInput::slice(self, offset, length)
    }
}

/// Load-test the job's server; the load generator runs on a one-worker runtime of its own.
pub async fn run_qps(job: &Job, cx: &Context<'_>) -> Outcome {
    if !SHARED_MEMORY {
        return Err("a server and its load generator need two threads, which this page cannot share".into());
    }
    let cancel = cx.cancel;
    let Workload::Qps { requests, concurrency, work_us, wait_us } = job.workload else { unreachable!("a server job") };
    let load = Load { requests, concurrency, work_us, wait_us };
    let thread_pool = job.variant == Variant::Tasks;
    let server = EXECUTORS.with(|e| {
        let mut executors = e.borrow_mut();
        if thread_pool {
            executors.pool(job.workers).map(|(pool, _)| Server::ThreadPool(pool))
        } else {
            executors.runtime(job.workers).map(|(runtime, _)| Server::Goroutines(runtime))
        }
    })?;
    let executor = match &server {
        Server::ThreadPool(pool) => Executor::Pool(pool.clone()),
        Server::Goroutines(handle) => Executor::Runtime(handle.clone()),
    };
    if let Err(Stopped) = started(&executor, cx).await? {
        return Ok(Err(Stopped));
    }
    // Started per job and ended with it, so no worker outlives the run.
    let client = Runtime::new(1)?;
    if let Err(Stopped) = started(&Executor::Runtime(client.handle()), cx).await? {
        return Ok(Err(Stopped));
    }
    let mut samples = Vec::new();
    let mut reports = Vec::new();
    for _ in 0..job.repetitions.max(1) {
        let (answer, answered) = oneshot::channel();
        client.spawn_root(load_test(server.clone(), load, cancel.clone()), move |times| {
            let _ = answer.send(times);
        });
        let times = match answered.await.map_err(|_| "the load generator ended early".to_string())? {
            Ok(times) => times,
            Err(Stopped) => return Ok(Err(Stopped)),
        };
        let report = report(&times, job.workers, load, thread_pool);
        samples.push((report.elapsed_ms, Trace { wall_ms: report.elapsed_ms, ..Trace::default() }));
        reports.push(report);
    }
    Ok(Ok(qps_measurement(job, samples, reports)))
}
