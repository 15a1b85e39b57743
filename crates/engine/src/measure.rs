//! Measuring a job on the current pool: a warm-up, R timed repetitions, a trace and a correctness check.
//!
//! Everything here runs *on a worker of the pool* the job asked for (the native and web front ends
//! arrange that), so `rayon::scope` spreads tasks over exactly that pool's workers.

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::inputs::{self, spin_seed, Input};
use experiments::{Check, Job, Measurement, Span, Trace, Variant};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use workloads::spin::spin;
use workloads::split::even_ranges;
use workloads::sum::sum_cancellable;

/// Repetitions done so far, readable from another thread while the job runs.
#[derive(Default, Debug)]
pub struct Progress {
    pub done: AtomicU32,
    pub total: AtomicU32,
}

impl Progress {
    pub fn snapshot(&self) -> (u32, u32) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

/// Measure `job`. `fresh_pool_built_at` is set when the pool was just built: the job then waits until
/// every worker has started and reports that start-up time.
pub fn run_job(
    job: &Job,
    fresh_pool_built_at: Option<f64>,
    cancel: &Cancel,
    progress: &Progress,
) -> Result<Measurement, Stopped> {
    let pool_start_ms = fresh_pool_built_at.map(|built_at| {
        // Returns once every worker of the pool has run it, i.e. once all of them are up.
        rayon::broadcast(|_| ());
        now_ms() - built_at
    });
    let repetitions = job.repetitions.max(1);
    progress.total.store(repetitions, Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);

    let input = inputs::prepare(&job.workload, job.tasks, cancel)?;
    // Warm-up: touches the data, wakes the workers, fills caches. Not recorded.
    run_once(job, &input, cancel)?;

    let mut samples = Vec::with_capacity(repetitions as usize);
    let mut values = Vec::with_capacity(repetitions as usize);
    for _ in 0..repetitions {
        let (value, trace) = run_once(job, &input, cancel)?;
        samples.push((trace.wall_ms, trace));
        values.push(value);
        progress.done.fetch_add(1, Ordering::Relaxed);
    }
    let expected = match *input {
        Input::Sum { expected, .. } => expected as u64,
        Input::Spin { expected } => expected,
    };
    let wrong = values.iter().find(|&&v| v != expected);
    let check = Check {
        ok: wrong.is_none(),
        value: wrong.unwrap_or(&expected).to_string(),
        expected: expected.to_string(),
    };
    Ok(Measurement::from_samples(
        job.clone(),
        samples,
        check,
        pool_start_ms,
    ))
}

/// One timed run of the job; returns its result value and its trace (with the wall time).
fn run_once(job: &Job, input: &Input, cancel: &Cancel) -> Result<(u64, Trace), Stopped> {
    let (values, trace) = match (input, job.variant) {
        (Input::Sum { numbers, .. }, Variant::Sequential) => traced_sequential(|| {
            sum_cancellable(numbers, || !cancel.is_stopped()).map(|s| s as u64)
        }),
        (Input::Sum { numbers, .. }, Variant::Tasks) => {
            let ranges = even_ranges(numbers.len(), job.tasks as usize);
            traced_tasks(ranges.len(), |task| {
                sum_cancellable(&numbers[ranges[task].clone()], || !cancel.is_stopped())
                    .map(|s| s as u64)
            })
        }
        (Input::Spin { .. }, Variant::Sequential) => {
            let Job {
                workload: experiments::Workload::Spin { units },
                tasks,
                ..
            } = *job
            else {
                unreachable!("spin input comes from a spin workload")
            };
            traced_sequential(|| {
                let mut total = 0u64;
                for task in 0..tasks {
                    if cancel.is_stopped() {
                        return None;
                    }
                    total = total.wrapping_add(spin(units, spin_seed(task)));
                }
                Some(total)
            })
        }
        (Input::Spin { .. }, Variant::Tasks) => {
            let experiments::Workload::Spin { units } = job.workload else {
                unreachable!("spin input comes from a spin workload")
            };
            traced_tasks(job.tasks as usize, |task| {
                (!cancel.is_stopped()).then(|| spin(units, spin_seed(task as u32)))
            })
        }
    };
    cancel.check()?;
    let mut total = 0u64;
    for value in values {
        total = total.wrapping_add(value.ok_or(Stopped)?);
    }
    Ok((total, trace))
}

fn current_worker() -> u32 {
    rayon::current_thread_index().unwrap_or(0) as u32
}

/// Run `work` once on this worker as a single traced span.
fn traced_sequential(work: impl FnOnce() -> Option<u64>) -> (Vec<Option<u64>>, Trace) {
    let t0 = now_ms();
    let value = work();
    let t1 = now_ms();
    let span = Span {
        worker: current_worker(),
        task: 0,
        start_ms: 0.0,
        end_ms: t1 - t0,
    };
    (
        vec![value],
        Trace {
            spans: vec![span],
            wall_ms: t1 - t0,
        },
    )
}

/// Spawn `tasks` rayon tasks in one scope on the current pool, each computing `work(task)`, and record
/// on which worker and when each one ran. The wall time includes spawning and joining, as it would
/// for goroutines and a WaitGroup.
fn traced_tasks(
    tasks: usize,
    work: impl Fn(usize) -> Option<u64> + Sync,
) -> (Vec<Option<u64>>, Trace) {
    let values: Vec<Mutex<Option<u64>>> = (0..tasks).map(|_| Mutex::new(None)).collect();
    let spans = Mutex::new(Vec::with_capacity(tasks));
    let t0 = now_ms();
    rayon::scope(|scope| {
        for task in 0..tasks {
            let (values, spans, work) = (&values, &spans, &work);
            scope.spawn(move |_| {
                let start = now_ms();
                let value = work(task);
                let end = now_ms();
                *values[task].lock().unwrap_or_else(|p| p.into_inner()) = value;
                spans.lock().unwrap_or_else(|p| p.into_inner()).push(Span {
                    worker: current_worker(),
                    task: task as u32,
                    start_ms: start - t0,
                    end_ms: end - t0,
                });
            });
        }
    });
    let wall_ms = now_ms() - t0;
    let values = values
        .into_iter()
        .map(|v| v.into_inner().unwrap_or_else(|p| p.into_inner()))
        .collect();
    let mut spans = spans.into_inner().unwrap_or_else(|p| p.into_inner());
    spans.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
    (values, Trace { spans, wall_ms })
}
