//! One repetition of a job, timed and traced: on a rayon pool or on the M:N task runtime.
//!
//! Repetitions on rayon pools ([`rep_on_pool`]) run *on a worker of the pool* (the harness arranges
//! that), so `rayon::scope` spreads tasks over exactly that pool's workers. Repetitions on the M:N
//! runtime ([`rep_on_runtime`]) run as the runtime's root task and spawn their tasks there. What a
//! repetition computes is its kernel's business ([`crate::kernels`]), which times and traces it with
//! the helpers here; when and how often it runs (warm-ups, rounds side by side) is
//! [`crate::harness`]'s.

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::kernel_api::{Prepared, Rep};
use crate::runtime::{self, Handle, WaitGroup};
use crate::trace::trace_from_events;
use experiments::{Job, Span, Trace};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// One timed repetition on the current pool (call it on a worker of the job's pool).
///
/// Never inlined: every repetition (warm-ups included) is a call of this one function, so the
/// browser's optimised version of it, compiled while the warm-ups run, serves the timed ones.
/// (WebAssembly engines swap in optimised code only between calls; a loop over all repetitions
/// inlined into one call would run its first call, all of it, unoptimised.)
#[inline(never)]
pub fn rep_on_pool(job: &Job, input: &dyn Prepared, cancel: &Cancel) -> Result<Rep, Stopped> {
    let rep = input.on_pool(job, cancel);
    cancel.check()?;
    rep
}

/// One repetition on the task runtime (call it from a root task of the job's runtime), traced when
/// `traced` (costs are measured untraced: recording every step would be part of what is measured).
pub async fn rep_on_runtime(
    job: &Job,
    input: &dyn Prepared,
    handle: &Handle,
    traced: bool,
    cancel: &Cancel,
) -> Result<Rep, Stopped> {
    input.on_runtime(job, handle, traced, cancel).await
}

/// One timed sample: passes of a job back to back until at least the floor has passed (see
/// [`experiments::SAMPLE_FLOOR_MS`]); its time is the mean pass.
pub struct Sample {
    /// The mean pass, in milliseconds: the passes' own timed spans, summed, over their count (what
    /// runs between two passes, such as turning a recording into a trace, is not timed).
    pub ms: f64,
    /// How many passes it ran.
    pub passes: u32,
    /// Each call's value, to check every one.
    pub values: Vec<u64>,
    /// The last pass: its trace, digests, memory and waits stand for the sample's.
    pub last: Rep,
}

/// The most repetitions one sample calls, however fast each one is.
const MOST_CALLS_PER_SAMPLE: u32 = 100_000;

/// Gathers the passes of one sample.
struct Passes {
    started: f64,
    timed_ms: f64,
    passes: u32,
    calls: u32,
    values: Vec<u64>,
}

impl Passes {
    fn new() -> Passes {
        Passes { started: now_ms(), timed_ms: 0.0, passes: 0, calls: 0, values: Vec::new() }
    }

    /// Add `rep`; `Some(sample)` once the sample has lasted `floor_ms`.
    fn add(&mut self, rep: Rep, floor_ms: f64) -> Option<Sample> {
        let passes = rep.trace.passes.unwrap_or(1);
        self.timed_ms += rep.trace.wall_ms * f64::from(passes);
        self.passes += passes;
        self.calls += 1;
        self.values.push(rep.value);
        let done = now_ms() - self.started >= floor_ms || self.calls >= MOST_CALLS_PER_SAMPLE;
        done.then(|| Sample {
            ms: self.timed_ms / f64::from(self.passes.max(1)),
            passes: self.passes,
            values: std::mem::take(&mut self.values),
            last: rep,
        })
    }
}

/// One sample on the current pool (call it on a worker of the job's pool): repetitions back to back
/// until `floor_ms` has passed.
pub fn sample_on_pool(job: &Job, input: &dyn Prepared, cancel: &Cancel, floor_ms: f64) -> Result<Sample, Stopped> {
    let mut passes = Passes::new();
    loop {
        if let Some(sample) = passes.add(rep_on_pool(job, input, cancel)?, floor_ms) {
            return Ok(sample);
        }
    }
}

/// One sample on the task runtime (call it from a root task of the job's runtime), every
/// repetition traced: repetitions back to back until `floor_ms` has passed.
pub async fn sample_on_runtime(
    job: &Job,
    input: &dyn Prepared,
    handle: &Handle,
    cancel: &Cancel,
    floor_ms: f64,
) -> Result<Sample, Stopped> {
    let mut passes = Passes::new();
    loop {
        if let Some(sample) = passes.add(rep_on_runtime(job, input, handle, true, cancel).await?, floor_ms) {
            return Ok(sample);
        }
    }
}

/// Gathers the passes of one sample of work driven step by step (hashing): add each pass's
/// [`Rep`]; `Some` once the sample has lasted `floor_ms`.
pub struct StepPasses(Passes);

impl Default for StepPasses {
    fn default() -> Self {
        StepPasses(Passes::new())
    }
}

impl StepPasses {
    pub fn add(&mut self, rep: Rep, floor_ms: f64) -> Option<Sample> {
        self.0.add(rep, floor_ms)
    }
}

// ---------------------------------------------------------------------------------------------
// Timing and tracing on a rayon pool.

fn current_worker() -> u32 {
    rayon::current_thread_index().unwrap_or(0) as u32
}

/// Run `work` once on this worker as a single traced span. The loop is the one worker of its
/// variant, worker 0, whichever worker of the group's pool it ran on.
pub fn traced_sequential(work: impl FnOnce() -> Option<u64>) -> Result<Rep, Stopped> {
    let t0 = now_ms();
    let value = work();
    let t1 = now_ms();
    let span = Span { worker: 0, task: 0, start_ms: 0.0, end_ms: t1 - t0 };
    Rep::of_tasks(vec![value], Trace { spans: vec![span], wall_ms: t1 - t0, ..Trace::default() })
}

/// Spawn `tasks` rayon tasks in one scope on the current pool, each computing `work(task)`, and record
/// on which worker and when each one ran. The wall time includes spawning and joining, as it would
/// for goroutines and a WaitGroup.
pub fn traced_tasks(tasks: usize, work: impl Fn(usize) -> Option<u64> + Sync) -> Result<Rep, Stopped> {
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
    let values = values.into_iter().map(|v| v.into_inner().unwrap_or_else(|p| p.into_inner())).collect();
    let mut spans = spans.into_inner().unwrap_or_else(|p| p.into_inner());
    crate::trace::sort_by_start(&mut spans);
    Rep::of_tasks(values, Trace { spans, wall_ms, ..Trace::default() })
}

/// Run `work` once, timed but untraced: for jobs that measure what spawning, waking or switching
/// costs (recording each task would be part of what is measured).
pub fn untraced(work: impl FnOnce() -> u64) -> Result<Rep, Stopped> {
    let t0 = now_ms();
    let value = work();
    let wall_ms = now_ms() - t0;
    Ok(Rep::new(value, Trace { wall_ms, ..Trace::default() }))
}

/// The shortest span a repetition of [`untraced_passes`] is timed over. Browsers step their clock
/// by 5 µs (by 100 µs on a page that is not cross-origin isolated): a loop of a thousand square
/// roots takes a few microseconds and would often read as 0 ms, and a ratio against 0 means
/// nothing. 2 ms is 400 steps of the isolated clock and 20 of the coarse one.
pub const SHORTEST_TIMED_MS: f64 = 2.0;

/// The most passes one repetition runs, however fast a pass seems.
pub(crate) const MOST_PASSES: u32 = 1 << 20;

/// Run `work` (a pure computation: every pass returns the same value) timed but untraced, as many
/// passes back to back as it takes to fill [`SHORTEST_TIMED_MS`], doubling the passes between two
/// looks at the clock. The repetition's time is the mean pass; `trace.passes` says how many were
/// timed when more than one.
pub fn untraced_passes(mut work: impl FnMut() -> u64, cancel: &Cancel) -> Result<Rep, Stopped> {
    let t0 = now_ms();
    let value = work();
    let (mut passes, mut batch) = (1u32, 1u32);
    let mut elapsed = now_ms() - t0;
    while elapsed < SHORTEST_TIMED_MS && passes < MOST_PASSES {
        cancel.check()?;
        for _ in 0..batch {
            std::hint::black_box(work());
        }
        passes += batch;
        batch = batch.saturating_mul(2);
        elapsed = now_ms() - t0;
    }
    let trace = Trace { wall_ms: elapsed / passes as f64, passes: (passes > 1).then_some(passes), ..Trace::default() };
    Ok(Rep::new(value, trace))
}

// ---------------------------------------------------------------------------------------------
// Timing and tracing on the M:N task runtime.

/// Time `run` (a repetition's tasks, as [`spawn_tasks`] runs them) and, when `traced`, record
/// every scheduling step of the runtime meanwhile and turn them into the trace.
pub async fn traced_on_runtime(
    handle: &Handle,
    traced: bool,
    run: impl Future<Output = Result<u64, Stopped>>,
) -> Result<Rep, Stopped> {
    if traced {
        handle.start_tracing();
    }
    let t0 = now_ms();
    let outcome = run.await;
    let wall_ms = now_ms() - t0;
    let events = if traced { handle.take_events() } else { Vec::new() };
    Ok(Rep::new(outcome?, trace_from_events(events, t0, wall_ms)))
}

/// Spawn `tasks` tasks from the current task, task `i` running `body(i)`, and wait for all of them
/// with a WaitGroup; the wrapping sum of their values (a stopped task counts 0), or `Stopped`.
pub async fn spawn_tasks<F>(tasks: u32, cancel: &Cancel, body: impl Fn(u32) -> F) -> Result<u64, Stopped>
where
    F: Future<Output = Option<u64>> + Send + 'static,
{
    let group = WaitGroup::new(tasks as usize);
    let sum = Arc::new(AtomicU64::new(0));
    for task in 0..tasks {
        let (group, sum, work) = (group.clone(), sum.clone(), body(task));
        runtime::spawn(task, async move {
            let value = work.await;
            sum.fetch_add(value.unwrap_or(0), Ordering::Relaxed);
            group.done();
        });
    }
    group.wait().await;
    cancel.check()?;
    Ok(sum.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_too_short_to_time_is_timed_over_many_and_its_mean_kept() {
        let cancel = Cancel::new();
        let mut calls = 0u32;
        let rep = untraced_passes(
            || {
                calls += 1;
                7
            },
            &cancel,
        )
        .expect("not stopped");
        assert_eq!(rep.value, 7);
        let passes = rep.trace.passes.expect("a trivial pass is repeated");
        assert_eq!(passes, calls, "every pass is counted");
        assert!(passes > 1);
        // A pass this trivial may take a nanosecond: then the cap ends the passes first.
        assert!(
            rep.trace.wall_ms * passes as f64 >= SHORTEST_TIMED_MS || passes >= MOST_PASSES,
            "the passes fill the shortest timed span, or reach the most a repetition runs"
        );
    }

    #[test]
    fn a_pass_long_enough_runs_once() {
        let cancel = Cancel::new();
        let mut calls = 0u32;
        let rep = untraced_passes(
            || {
                calls += 1;
                std::thread::sleep(std::time::Duration::from_secs_f64(SHORTEST_TIMED_MS * 2.0 / 1000.0));
                3
            },
            &cancel,
        )
        .expect("not stopped");
        assert_eq!((rep.value, calls, rep.trace.passes), (3, 1, None));
        assert!(rep.trace.wall_ms >= SHORTEST_TIMED_MS);
    }

    #[test]
    fn a_stop_ends_the_passes() {
        let cancel = Cancel::new();
        cancel.stop();
        assert!(untraced_passes(|| 1, &cancel).is_err());
    }
}
