//! The high-concurrency lab: a thread-pool server or a goroutine server answers N requests, each a
//! little CPU work and then a wait, while a load generator keeps C of them in flight (like
//! `ab -c C -n N`) and notes when each was sent, started, done computing and answered.
//!
//! The thread-pool server holds a worker for the whole request, wait included, as a thread blocked
//! in a system call does; the goroutine server parks the request's task during the wait. The load
//! generator runs on its own one-worker task runtime, so it never competes with the server.
//!
//! One driver ([`measure`]) for both worlds: the browser's coordinator awaits it, the native engine
//! blocks on it. As a [`Kernel`] it is measured by [`Method::Alone`]: the harness gives a load test a
//! group of its own and asks its kernel to measure it.

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::driver::{started, Context};
use crate::executors::{Executor, Executors};
use crate::kernel_api::{Kernel, Method};
use crate::outcome::Outcome;
use crate::runtime::{self, Handle, Runtime};
use crate::threads::{block_for, SHARED_MEMORY};
use experiments::latency::{in_flight_over_time, littles_law, percentiles, qps, time_weighted_in_flight};
use experiments::protocol::{Failure, FailureKind};
use experiments::{Check, Job, Measurement, QpsReport, Trace, Variant};
use futures_channel::oneshot;
use rayon::ThreadPool;
use std::cell::RefCell;
use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use workloads::spin::spin;

/// Which server answers the requests.
#[derive(Clone)]
pub enum Server {
    /// A pool of threads; a request holds its thread while it waits.
    ThreadPool(Arc<ThreadPool>),
    /// The task runtime; a request's task parks while it waits.
    Goroutines(Handle),
}

/// When one request was sent, started by the server, done computing, done waiting (its server
/// thread or task free again), and answered as the load generator saw it (engine ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestTimes {
    pub sent_ms: f64,
    pub started_ms: f64,
    pub computed_ms: f64,
    pub released_ms: f64,
    pub answered_ms: f64,
}

/// What the server notes about one request: started, done computing, done waiting.
type ServerTimes = (f64, f64, f64);

/// The shape of a load test.
#[derive(Clone, Copy, Debug)]
pub struct Load {
    pub requests: u32,
    pub concurrency: u32,
    pub work_us: u32,
    pub wait_us: u32,
}

/// Load-test a server: the load's shape.
#[derive(Clone)]
pub struct Qps(pub Load);

impl Kernel for Qps {
    /// Nothing prepared: each repetition is a whole load test.
    type Input = ();
    const METHOD: Method = Method::Alone;
    const VARIANTS: &'static [Variant] = &[Variant::ThreadPool, Variant::Goroutines];
    const INPUT_PER_TASK_COUNT: bool = false;

    fn measure_alone(
        &self,
        job: &Job,
        executors: &RefCell<Executors>,
        cx: &Context<'_>,
    ) -> impl Future<Output = Outcome<Measurement>> {
        measure(job, self.0, executors, cx)
    }
}

/// Spin units timed to learn how many make a microsecond on this machine (about 0.5–1 ms of work).
const CALIBRATION_UNITS: u32 = 500;

/// How many spin units take `work_us` microseconds here: the best of three timed runs, so a
/// request's CPU work lasts what the reader asked for on any machine, native or wasm. Work is still
/// counted in units while serving, so a server short of cores takes longer instead of doing less.
pub fn units_for(work_us: u32) -> u32 {
    if work_us == 0 {
        return 0;
    }
    let fastest_ms = (0..3)
        .map(|round| {
            let started = now_ms();
            std::hint::black_box(spin(CALIBRATION_UNITS, round));
            now_ms() - started
        })
        .fold(f64::INFINITY, f64::min)
        .max(1e-3);
    let units_per_us = CALIBRATION_UNITS as f64 / (fastest_ms * 1000.0);
    (work_us as f64 * units_per_us).round().clamp(1.0, u32::MAX as f64) as u32
}

/// Send `load.requests` requests to `server`, `load.concurrency` at a time, and time each one.
/// Must run on a task runtime other than the server's (see the module documentation).
pub async fn load_test(server: Server, load: Load, cancel: Cancel) -> Result<Vec<RequestTimes>, Stopped> {
    let work_units = units_for(load.work_us);
    let next = Arc::new(AtomicU32::new(0));
    let times = Arc::new(Mutex::new(Vec::with_capacity(load.requests as usize)));
    let clients = load.concurrency.clamp(1, load.requests.max(1));
    let group = runtime::WaitGroup::new(clients as usize);
    for client in 0..clients {
        let (server, next, times, group, cancel) =
            (server.clone(), next.clone(), times.clone(), group.clone(), cancel.clone());
        runtime::spawn(client, async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= load.requests || cancel.is_stopped() {
                    break;
                }
                let sent_ms = now_ms();
                let Ok((started_ms, computed_ms, released_ms)) = send(&server, index, load, work_units, &cancel).await
                else {
                    break;
                };
                let answered_ms = now_ms();
                times.lock().unwrap_or_else(|p| p.into_inner()).push(RequestTimes {
                    sent_ms,
                    started_ms,
                    computed_ms,
                    released_ms,
                    answered_ms,
                });
            }
            group.done();
        });
    }
    group.wait().await;
    cancel.check()?;
    let times = std::mem::take(&mut *times.lock().unwrap_or_else(|p| p.into_inner()));
    Ok(times)
}

/// One request: the server computes `work_units` spin units, then waits; the answer says when it
/// started, finished computing and finished waiting. Once the run is stopped, requests still queued
/// are dropped unanswered and waits end early, so Stop never waits for a queue of blocked requests.
// lesson-code: qps/send
async fn send(
    server: &Server,
    index: u32,
    load: Load,
    work_units: u32,
    cancel: &Cancel,
) -> Result<ServerTimes, oneshot::Canceled> {
    let (answer, answered) = oneshot::channel();
    let compute = move || {
        let started = now_ms();
        std::hint::black_box(spin(work_units, index as u64));
        (started, now_ms())
    };
    let cancel = cancel.clone();
    match server {
        Server::ThreadPool(pool) => pool.spawn(move || {
            if cancel.is_stopped() {
                return;
            }
            let (started, computed) = compute();
            // The thread is held for the whole wait: nothing else can run on it meanwhile.
            block_unless_stopped(Duration::from_micros(load.wait_us as u64), &cancel);
            let _ = answer.send((started, computed, now_ms()));
        }),
        Server::Goroutines(handle) => handle.spawn(index, async move {
            if cancel.is_stopped() {
                return;
            }
            let (started, computed) = compute();
            // The task parks; its worker serves other requests meanwhile.
            runtime::sleep(Duration::from_micros(load.wait_us as u64)).await;
            let _ = answer.send((started, computed, now_ms()));
        }),
    }
    answered.await
}
// lesson-code-end

/// The longest a blocked server thread goes without looking whether the run was stopped.
const BLOCK_SLICE: Duration = Duration::from_millis(20);

/// Block the calling thread for `duration` (in slices of at most [`BLOCK_SLICE`]), or until the run
/// is stopped. A wait of up to 20 ms, the usual case, is one uninterrupted block.
fn block_unless_stopped(duration: Duration, cancel: &Cancel) {
    let until = now_ms() + duration.as_secs_f64() * 1000.0;
    loop {
        let left_ms = until - now_ms();
        if left_ms <= 0.0 || cancel.is_stopped() {
            return;
        }
        block_for(Duration::from_secs_f64(left_ms / 1000.0).min(BLOCK_SLICE));
    }
}

/// Turn request times into the report the page shows, for a server of `workers` workers.
pub fn report(times: &[RequestTimes], workers: u32, load: Load, thread_pool: bool) -> QpsReport {
    let first = times.iter().map(|t| t.sent_ms).fold(f64::INFINITY, f64::min);
    let last = times.iter().map(|t| t.answered_ms).fold(f64::NEG_INFINITY, f64::max);
    let elapsed_ms = (last - first).max(1e-6);
    let mut latencies: Vec<f64> = times.iter().map(|t| t.answered_ms - t.sent_ms).collect();
    let mean_latency_ms = latencies.iter().sum::<f64>() / latencies.len().max(1) as f64;
    let p = percentiles(&mut latencies, &[50.0, 95.0, 99.0]);
    let intervals: Vec<(f64, f64)> = times.iter().map(|t| (t.sent_ms - first, t.answered_ms - first)).collect();
    let measured_in_flight = time_weighted_in_flight(&intervals);
    let throughput = qps(times.len() as u64, elapsed_ms);
    let capacity = workers.max(1) as f64 * elapsed_ms;
    let computing: f64 = times.iter().map(|t| t.computed_ms - t.started_ms).sum();
    // A thread-pool request holds its worker until answered; a goroutine only while computing.
    // (Until the server let go of it, not until the load generator noticed the answer.)
    let held: f64 = if thread_pool { times.iter().map(|t| t.released_ms - t.started_ms).sum() } else { computing };
    QpsReport {
        requests: times.len() as u32,
        concurrency: load.concurrency,
        qps: throughput,
        elapsed_ms,
        mean_latency_ms,
        p50_ms: p[0],
        p95_ms: p[1],
        p99_ms: p[2],
        in_flight: in_flight_over_time(&intervals, elapsed_ms / 60.0),
        little: littles_law(throughput, mean_latency_ms, measured_in_flight),
        computing_utilisation: computing / capacity,
        held_utilisation: held / capacity,
    }
}

/// Load-test `job`'s server (under `load`) `job.repetitions` times, on the executor it asks for (kept in
/// `executors`); the load generator runs on a one-worker runtime started for the job and ended with
/// it, so no worker outlives the run.
pub async fn measure(job: &Job, load: Load, executors: &RefCell<Executors>, cx: &Context<'_>) -> Outcome<Measurement> {
    if !SHARED_MEMORY {
        let detail = "a server and its load generator need two threads, which this page cannot share";
        return Err(Failure::new(FailureKind::NoSharedMemory, detail));
    }
    let thread_pool = job.variant == Variant::ThreadPool;
    let server = {
        let mut executors = executors.borrow_mut();
        if thread_pool {
            Server::ThreadPool(executors.pool(job.workers)?.0)
        } else {
            Server::Goroutines(executors.runtime(job.workers)?.0)
        }
    };
    let executor = match &server {
        Server::ThreadPool(pool) => Executor::Pool(pool.clone()),
        Server::Goroutines(handle) => Executor::Runtime(handle.clone()),
    };
    if let Err(Stopped) = started(&executor, cx).await? {
        return Ok(Err(Stopped));
    }
    let client = Runtime::new(1)?;
    if let Err(Stopped) = started(&Executor::Runtime(client.handle()), cx).await? {
        return Ok(Err(Stopped));
    }
    let mut samples = Vec::new();
    let mut reports = Vec::new();
    for _ in 0..job.repetitions.max(1) {
        let (answer, answered) = oneshot::channel();
        client.spawn_root(load_test(server.clone(), load, cx.cancel.clone()), move |times| {
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
    Ok(Ok(measurement(job, load.requests, samples, reports)))
}

/// A measurement of a server job from its repetitions: the median repetition's report.
fn measurement(job: &Job, requests: u32, samples: Vec<(f64, Trace)>, reports: Vec<QpsReport>) -> Measurement {
    let answered: u32 = reports.iter().map(|r| r.requests).min().unwrap_or(0);
    let check = Check { ok: answered == requests, value: answered.to_string(), expected: requests.to_string() };
    let times: Vec<f64> = samples.iter().map(|(t, _)| *t).collect();
    let median = experiments::stats::median_index(&times).unwrap_or(0);
    let mut measurement = Measurement::from_samples(job.clone(), samples, check, None);
    measurement.qps = reports.into_iter().nth(median);
    measurement
}
