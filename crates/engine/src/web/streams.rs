//! Jobs the coordinator drives itself, step by step, instead of handing them whole to the pool:
//! hashing (it reads each slice, from a `File` the UI attached or from the generated stream, then
//! hands the slice to the pool) and server load tests (the load generator gets its own runtime).

use super::{describe, post, EXECUTORS};
use crate::cancel::{Cancel, Stopped};
use crate::hashing::{check_digests, hash_parameters, slices, Hashing};
use crate::qps::{load_test, qps_measurement, report, Load, Server};
use crate::runtime::Runtime;
use crate::threads::SHARED_MEMORY;
use experiments::protocol::{Response, RunId};
use experiments::{HashSource, Job, Measurement, Trace, Variant, Workload};
use futures_channel::oneshot;
use std::cell::RefCell;
use std::sync::{Arc, Mutex};
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
    pub slice_bytes: u32,
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

/// Hash the job's data, one slice at a time, reporting progress per slice.
pub async fn run_hash(run_id: RunId, job_index: usize, job: &Job, cancel: &Cancel) -> Outcome {
    #[cfg(not(target_feature = "atomics"))]
    if job.variant == Variant::Tasks {
        return super::messages::run_hash(run_id, job_index, job, cancel).await;
    }
    let input = HashInput::of(job)?;
    let (slice_bytes, total) = (input.slice_bytes, input.total);
    let workers = if job.variant == Variant::Sequential { 1 } else { job.workers };
    let pool = EXECUTORS.with(|e| e.borrow_mut().pool(workers).map(|(pool, _)| pool))?;
    warm_up(&pool, job).await?;
    let steps = slices(total, slice_bytes).count() as u32 * job.repetitions.max(1);
    let mut done = 0;
    let mut samples = Vec::new();
    let mut digests_seen = Vec::new();
    for _ in 0..job.repetitions.max(1) {
        let hashing = Arc::new(Mutex::new(Hashing::new(job.tasks, job.variant)));
        for (offset, length) in slices(total, slice_bytes) {
            if cancel.is_stopped() {
                return Ok(Err(Stopped));
            }
            let slice = input.slice(offset, length)?;
            let (advanced, waited) = oneshot::channel();
            let step = hashing.clone();
            let advance = move || {
                step.lock().unwrap_or_else(|p| p.into_inner()).advance(&slice);
                // Let go of the shared state before saying so: the coordinator unwraps it next.
                drop(step);
                let _ = advanced.send(());
            };
            if SHARED_MEMORY {
                pool.spawn(advance);
            } else {
                pool.install(advance);
            }
            waited.await.map_err(|_| "a worker ended without finishing its slice".to_string())?;
            done += 1;
            post(&Response::Progress { run_id, job_index, done, total: steps });
        }
        let hashing = Arc::try_unwrap(hashing).map_err(|_| "a slice was still being hashed".to_string())?;
        let (digests, trace) = hashing.into_inner().unwrap_or_else(|p| p.into_inner()).finish();
        digests_seen.extend(digests);
        samples.push((trace.wall_ms, trace));
    }
    Ok(Ok(Measurement::from_samples(job.clone(), samples, check_digests(&digests_seen), None)))
}

/// Untimed: wait until every worker of the pool has started, then hash a small slice the way the
/// job will, so neither worker start-up nor the first, unoptimised pass through SHA-256 lands in
/// the first timed run.
async fn warm_up(pool: &Arc<rayon::ThreadPool>, job: &Job) -> Result<(), String> {
    let hashing = Hashing::new(job.tasks, job.variant);
    let warm = move || {
        let mut hashing = hashing;
        hashing.advance(&[0u8; 256 * 1024]);
    };
    if !SHARED_MEMORY {
        pool.install(warm);
        return Ok(());
    }
    let (all_started, started) = oneshot::channel();
    let waiting = Arc::new(Mutex::new((pool.current_num_threads(), Some(all_started))));
    pool.spawn_broadcast(move |_| {
        let mut waiting = waiting.lock().unwrap_or_else(|p| p.into_inner());
        waiting.0 -= 1;
        if waiting.0 == 0 {
            if let Some(all_started) = waiting.1.take() {
                let _ = all_started.send(());
            }
        }
    });
    started.await.map_err(|_| "a worker did not start".to_string())?;
    let (warmed, waited) = oneshot::channel();
    pool.spawn(move || {
        warm();
        let _ = warmed.send(());
    });
    waited.await.map_err(|_| "a worker ended during the warm-up".to_string())
}

/// Load-test the job's server; the load generator runs on a one-worker runtime of its own.
pub async fn run_qps(job: &Job, cancel: &Cancel) -> Outcome {
    if !SHARED_MEMORY {
        return Err("a server and its load generator need two threads, which this page cannot share".into());
    }
    let Workload::Qps { requests, concurrency, work_us, wait_us } = job.workload else { unreachable!("a server job") };
    let load = Load { requests, concurrency, work_us, wait_us };
    let thread_pool = job.variant == Variant::Tasks;
    let server = EXECUTORS.with(|e| {
        let mut executors = e.borrow_mut();
        if thread_pool {
            executors.pool(job.workers).map(|(pool, _)| Server::ThreadPool(pool))
        } else {
            executors.runtime(job.workers).map(|(runtime, _)| Server::Goroutines(runtime.handle()))
        }
    })?;
    // Started per job and ended with it, so no worker outlives the run.
    let client = Runtime::new(1)?;
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
