//! One repetition of a job, timed and traced, and the correctness check of all of them.
//!
//! Repetitions on rayon pools ([`rep_on_pool`]) run *on a worker of the pool* (the harness arranges
//! that), so `rayon::scope` spreads tasks over exactly that pool's workers. Repetitions on the M:N
//! runtime ([`rep_on_runtime`]) run as the runtime's root task and spawn their tasks there. When and
//! how often they run (warm-ups, rounds side by side) is [`crate::harness`]'s business.

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::inputs::{digest, spin_seed, Input};
use crate::runtime::{self, Handle, WaitGroup};
use crate::sorting::{sort_parallel, sort_sequential};
use experiments::{
    Check, Job, Measurement, ScenarioKind, SchedulerEvent, SchedulerEventKind, SortAlgorithm, Span, Trace, Variant,
    Workload,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use workloads::docsearch::{count_matching_items, DEFAULT_TOPIC};
use workloads::granularity::sqrt_task;
use workloads::spin::spin;
use workloads::split::even_ranges;
use workloads::sum::sum_cancellable;

/// Scheduler events beyond this many are dropped from a trace (spans are always kept).
const MAX_TRACE_EVENTS: usize = 20_000;

/// What one repetition produced.
pub struct Rep {
    /// The result to check against the expected one.
    pub value: u64,
    /// Its trace; `trace.wall_ms` is the repetition's time.
    pub trace: Trace,
    /// Digests of a hashing repetition (empty otherwise).
    pub digests: Vec<[u8; 32]>,
    /// Heap bytes held per parked task, for the parked-task memory job.
    pub held_per_task: Option<f64>,
}

/// Compare every repetition's value with the expected one and assemble the measurement.
pub(crate) fn finish(
    job: &Job,
    input: &Input,
    samples: Vec<(f64, Trace)>,
    values: Vec<u64>,
    pool_start_ms: Option<f64>,
) -> Measurement {
    let expected = input.expected();
    let wrong = values.iter().find(|&&v| v != expected);
    let check = match input {
        // A digest means nothing to a reader: say whether the list came out sorted.
        Input::Sort { .. } => Check {
            ok: wrong.is_none(),
            value: if wrong.is_none() { "sorted" } else { "not sorted" }.into(),
            expected: "sorted".into(),
        },
        _ => {
            Check { ok: wrong.is_none(), value: wrong.unwrap_or(&expected).to_string(), expected: expected.to_string() }
        }
    };

    Measurement::from_samples(job.clone(), samples, check, pool_start_ms)
}

fn total(values: Vec<Option<u64>>) -> Result<u64, Stopped> {
    values.into_iter().try_fold(0u64, |sum, v| v.map(|v| sum.wrapping_add(v)).ok_or(Stopped))
}

// ---------------------------------------------------------------------------------------------
// Jobs on rayon pools: Sequential and Tasks.

/// Untimed runs before the timed ones, except for work dominated by waiting: a sweep of 1 ms reads
/// would spend most of its time warming up, and waiting needs no warm caches.
pub fn needs_warm_up(job: &Job) -> bool {
    !matches!(job.workload, Workload::DocSearch { latency_us, .. } if latency_us > 0)
}

/// A blocking wait that holds the current thread, like a read system call.
fn blocking_read(latency_us: u32) {
    if latency_us > 0 {
        crate::threads::block_for(Duration::from_micros(latency_us as u64));
    }
}

fn search(document: &str) -> u64 {
    // A malformed document counts as an error and is skipped; generated corpora have none.
    count_matching_items(document, DEFAULT_TOPIC).map_or(0, u64::from)
}

/// One timed repetition on the current pool (call it on a worker of the job's pool).
///
/// Never inlined: every repetition (warm-ups included) is a call of this one function, so the
/// browser's optimised version of it, compiled while the warm-ups run, serves the timed ones.
/// (WebAssembly engines swap in optimised code only between calls; a loop over all repetitions
/// inlined into one call would run its first call, all of it, unoptimised.)
#[inline(never)]
pub fn rep_on_pool(job: &Job, input: &Input, cancel: &Cancel) -> Result<Rep, Stopped> {
    let keep_going = || !cancel.is_stopped();
    let (values, trace) = match (input, job.variant) {
        (Input::Expected { .. }, variant) if matches!(job.workload, Workload::Granularity { .. }) => {
            granularity_on_pool(job, variant, cancel)
        }
        (Input::Expected { .. }, Variant::Tasks) if matches!(job.workload, Workload::PingPong { .. }) => {
            ping_pong_threads(job, cancel)
        }
        (_, Variant::Goroutines) | (Input::Expected { .. }, _) => {
            unreachable!("goroutine jobs and scenarios run on the task runtime (Job::validate)")
        }

        (Input::Sort { values, .. }, variant) => {
            let mut copy = values.clone();
            let algorithm = sort_algorithm(job);
            let (done, trace) = if variant == Variant::Sequential {
                sort_sequential(algorithm, &mut copy, job.tasks, cancel)
            } else {
                sort_parallel(algorithm, &mut copy, job.tasks, cancel)
            };
            (vec![done.then(|| digest(&copy))], trace)
        }
        (Input::Sum { numbers, .. }, Variant::Sequential) => {
            traced_sequential(|| sum_cancellable(numbers, keep_going).map(|s| s as u64))
        }
        (Input::Sum { numbers, .. }, Variant::Tasks) => {
            let ranges = even_ranges(numbers.len(), job.tasks as usize);
            traced_tasks(ranges.len(), |task| {
                sum_cancellable(&numbers[ranges[task].clone()], keep_going).map(|s| s as u64)
            })
        }
        (Input::Spin { .. }, Variant::Sequential) => traced_sequential(|| {
            let units = spin_units(job);
            (0..job.tasks)
                .try_fold(0u64, |sum, task| keep_going().then(|| sum.wrapping_add(spin(units, spin_seed(task)))))
        }),
        (Input::Spin { .. }, Variant::Tasks) => {
            let units = spin_units(job);
            traced_tasks(job.tasks as usize, |task| keep_going().then(|| spin(units, spin_seed(task as u32))))
        }
        (Input::DocSearch { documents, .. }, Variant::Sequential) => traced_sequential(|| {
            let latency = latency_us(job);
            documents.iter().try_fold(0u64, |found, doc| {
                keep_going().then(|| {
                    blocking_read(latency);
                    found + search(doc)
                })
            })
        }),
        (Input::DocSearch { documents, .. }, Variant::Tasks) => {
            // Like the articles' version: the tasks take documents from one shared queue.
            let next = AtomicUsize::new(0);
            let latency = latency_us(job);
            traced_tasks(job.tasks as usize, |_| {
                let mut found = 0;
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(doc) = documents.get(index) else { return Some(found) };
                    if !keep_going() {
                        return None;
                    }
                    blocking_read(latency);
                    found += search(doc);
                }
            })
        }
    };
    cancel.check()?;
    Ok(Rep { value: total(values)?, trace, digests: Vec::new(), held_per_task: None })
}

/// The granularity experiment on a rayon pool: a plain loop (Sequential) or one task per item
/// (Tasks). Untraced: recording each task would be part of what is measured.
fn granularity_on_pool(job: &Job, variant: Variant, cancel: &Cancel) -> (Vec<Option<u64>>, Trace) {
    let Workload::Granularity { sqrt } = job.workload else { unreachable!("checked by the caller") };
    let tasks = job.tasks;
    let t0 = now_ms();
    let value = if variant == Variant::Sequential {
        let mut total = 0u64;
        for task in 0..tasks {
            if task % 4096 == 0 && cancel.is_stopped() {
                break;
            }
            total = total.wrapping_add(sqrt_task(sqrt, task));
        }
        total
    } else {
        let total = AtomicU64::new(0);
        rayon::scope(|scope| {
            for task in 0..tasks {
                let total = &total;
                scope.spawn(move |_| {
                    total.fetch_add(sqrt_task(sqrt, task), Ordering::Relaxed);
                });
            }
        });
        total.into_inner()
    };
    let wall_ms = now_ms() - t0;
    (vec![Some(value)], Trace { wall_ms, ..Trace::default() })
}

/// Two threads of the pool hand a turn back and forth, each blocking (a futex wait in the
/// browser) until the other wakes it: every hand-over is a thread switch through the OS.
fn ping_pong_threads(job: &Job, cancel: &Cancel) -> (Vec<Option<u64>>, Trace) {
    let Workload::PingPong { round_trips } = job.workload else { unreachable!("checked by the caller") };
    let turn = Mutex::new(0u32);
    let changed = std::sync::Condvar::new();
    let play = |me: u32| {
        for round in 0..round_trips {
            if round % 1024 == 0 && cancel.is_stopped() {
                // Let the other player out of its wait too.
                *turn.lock().unwrap_or_else(|p| p.into_inner()) = u32::MAX;
                changed.notify_all();
                return;
            }
            let mut current = turn.lock().unwrap_or_else(|p| p.into_inner());
            while *current != me && *current != u32::MAX {
                current = changed.wait(current).unwrap_or_else(|p| p.into_inner());
            }
            if *current == u32::MAX {
                return;
            }
            *current = 1 - me;
            changed.notify_one();
        }
    };
    let t0 = now_ms();
    rayon::join(|| play(0), || play(1));
    let wall_ms = now_ms() - t0;
    (vec![Some(round_trips as u64)], Trace { wall_ms, ..Trace::default() })
}

fn spin_units(job: &Job) -> u32 {
    match job.workload {
        Workload::Spin { units } => units,
        _ => 0,
    }
}

fn sort_algorithm(job: &Job) -> SortAlgorithm {
    match job.workload {
        Workload::Sort { algorithm, .. } => algorithm,
        _ => SortAlgorithm::Bubble,
    }
}

fn latency_us(job: &Job) -> u32 {
    match job.workload {
        Workload::DocSearch { latency_us, .. } => latency_us,
        _ => 0,
    }
}

fn current_worker() -> u32 {
    rayon::current_thread_index().unwrap_or(0) as u32
}

/// Run `work` once on this worker as a single traced span. The loop is the one worker of its
/// variant, worker 0, whichever worker of the group's pool it ran on.
fn traced_sequential(work: impl FnOnce() -> Option<u64>) -> (Vec<Option<u64>>, Trace) {
    let t0 = now_ms();
    let value = work();
    let t1 = now_ms();
    let span = Span { worker: 0, task: 0, start_ms: 0.0, end_ms: t1 - t0 };
    (vec![value], Trace { spans: vec![span], wall_ms: t1 - t0, ..Trace::default() })
}

/// Spawn `tasks` rayon tasks in one scope on the current pool, each computing `work(task)`, and record
/// on which worker and when each one ran. The wall time includes spawning and joining, as it would
/// for goroutines and a WaitGroup.
fn traced_tasks(tasks: usize, work: impl Fn(usize) -> Option<u64> + Sync) -> (Vec<Option<u64>>, Trace) {
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
    spans.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
    (values, Trace { spans, wall_ms, ..Trace::default() })
}

// ---------------------------------------------------------------------------------------------
// Jobs on the M:N task runtime: Goroutines.

/// One repetition on the task runtime (call it from a root task of the job's runtime): `job.tasks`
/// tasks spawned and awaited with a WaitGroup, traced when `traced` (costs are measured untraced:
/// recording every step would be part of what is measured).
pub async fn rep_on_runtime(
    job: &Job,
    input: &Arc<Input>,
    handle: &Handle,
    traced: bool,
    cancel: &Cancel,
) -> Result<Rep, Stopped> {
    if job.workload == Workload::TaskMemory {
        return task_memory_once(job, cancel).await;
    }
    let traced = traced && !matches!(job.workload, Workload::Granularity { .. } | Workload::PingPong { .. });
    if traced {
        handle.start_tracing();
    }
    let t0 = now_ms();
    let outcome = run_once_on_runtime(job, input, cancel).await;
    let wall_ms = now_ms() - t0;
    let events = if traced { handle.take_events() } else { Vec::new() };
    Ok(Rep { value: outcome?, trace: trace_from_events(events, t0, wall_ms), digests: Vec::new(), held_per_task: None })
}

/// Spawn `job.tasks` tasks that park at a gate; once all are parked, count the heap bytes they
/// hold; open the gate. The repetition's time is the time to spawn them all.
async fn task_memory_once(job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
    cancel.check()?;
    let tasks = job.tasks.max(1);
    let gate = runtime::Gate::new();
    let parked = Arc::new(AtomicU32::new(0));
    let group = WaitGroup::new(tasks as usize);
    let before = crate::alloc::live_bytes();
    let t0 = now_ms();
    for task in 0..tasks {
        let (gate, parked, group) = (gate.clone(), parked.clone(), group.clone());
        runtime::spawn(task, async move {
            parked.fetch_add(1, Ordering::SeqCst);
            gate.wait().await;
            group.done();
        });
    }
    let spawn_ms = now_ms() - t0;
    // Let every task run up to the gate and park there.
    while parked.load(Ordering::SeqCst) < tasks {
        runtime::yield_now().await;
    }
    let held = crate::alloc::live_bytes() - before;
    gate.open();
    group.wait().await;
    Ok(Rep {
        value: tasks as u64,
        trace: Trace { wall_ms: spawn_ms, ..Trace::default() },
        digests: Vec::new(),
        held_per_task: Some(held as f64 / tasks as f64),
    })
}

/// One timed run: `job.tasks` tasks spawned from the root task's worker, awaited with a WaitGroup.
async fn run_once_on_runtime(job: &Job, input: &Arc<Input>, cancel: &Cancel) -> Result<u64, Stopped> {
    // A ping-pong is always exactly two players.
    let tasks = if matches!(job.workload, Workload::PingPong { .. }) { 2 } else { job.tasks.max(1) };
    let turn = Arc::new(AtomicU32::new(0));
    let group = WaitGroup::new(tasks as usize);
    let sum = Arc::new(AtomicU64::new(0));
    let next_document = Arc::new(AtomicUsize::new(0));
    let ranges = Arc::new(match &**input {
        Input::Sum { numbers, .. } => even_ranges(numbers.len(), tasks as usize),
        _ => Vec::new(),
    });
    for task in 0..tasks {
        let (group, sum, input, cancel) = (group.clone(), sum.clone(), input.clone(), cancel.clone());
        let (next_document, ranges, workload) = (next_document.clone(), ranges.clone(), job.workload.clone());
        let turn = turn.clone();
        runtime::spawn(task, async move {
            let keep_going = || !cancel.is_stopped();
            let value = match (&*input, workload) {
                (Input::Sum { numbers, .. }, _) => ranges
                    .get(task as usize)
                    .map_or(Some(0), |r| sum_cancellable(&numbers[r.clone()], keep_going).map(|s| s as u64)),
                (Input::Spin { .. }, Workload::Spin { units }) => keep_going().then(|| spin(units, spin_seed(task))),
                (Input::DocSearch { documents, .. }, Workload::DocSearch { latency_us, .. }) => {
                    let mut found = 0;
                    loop {
                        let index = next_document.fetch_add(1, Ordering::Relaxed);
                        let Some(doc) = documents.get(index) else { break };
                        if !keep_going() {
                            break;
                        }
                        if latency_us > 0 {
                            // The simulated read: the task parks, its worker runs other tasks.
                            runtime::sleep(Duration::from_micros(latency_us as u64)).await;
                        }
                        found += search(doc);
                    }
                    Some(found)
                }
                (Input::Expected { .. }, Workload::Granularity { sqrt }) => Some(sqrt_task(sqrt, task)),
                (Input::Expected { .. }, Workload::PingPong { round_trips }) => {
                    ping_pong_task(task, round_trips, &turn, &cancel).await;
                    Some(if task == 0 { round_trips as u64 } else { 0 })
                }
                (Input::Expected { .. }, Workload::Scenario { scenario }) => {
                    run_scenario_task(scenario, task, &cancel).await;
                    Some(1)
                }
                _ => Some(0),
            };
            sum.fetch_add(value.unwrap_or(0), Ordering::Relaxed);
            group.done();
        });
    }
    group.wait().await;
    cancel.check()?;
    Ok(sum.load(Ordering::Relaxed))
}

/// Player `me` (0 or 1) of a ping-pong between two tasks on the runtime: wait for its turn by
/// yielding the worker, then hand the turn over. Every yield is a task switch.
async fn ping_pong_task(me: u32, round_trips: u32, turn: &AtomicU32, cancel: &Cancel) {
    for round in 0..round_trips {
        if round % 1024 == 0 && cancel.is_stopped() {
            return;
        }
        while turn.load(Ordering::Acquire) != me {
            if cancel.is_stopped() {
                return;
            }
            runtime::yield_now().await;
        }
        turn.store(1 - me, Ordering::Release);
    }
}

/// Spin units of about a millisecond natively (a few percent more in the browser).
const UNITS_PER_MS: u32 = 1_000;

/// The body of task `task` of a scheduler scenario (see [`ScenarioKind`]).
async fn run_scenario_task(kind: ScenarioKind, task: u32, cancel: &Cancel) {
    let compute = |ms_tenths: u32| {
        if !cancel.is_stopped() {
            std::hint::black_box(spin(ms_tenths * UNITS_PER_MS / 10, spin_seed(task)));
        }
    };
    match kind {
        ScenarioKind::SpawnOnOne => compute(15),
        ScenarioKind::ManyTasks => compute(3),
        ScenarioKind::LongTask => compute(if task == 0 { 250 } else { 15 }),
        ScenarioKind::IoMix => {
            for round in 0..3u32 {
                let wait_ms = 1 + (task + round) % 3;
                runtime::sleep(Duration::from_millis(wait_ms as u64)).await;
                compute(2);
            }
        }
    }
}

/// Turn scheduler events into running spans (task on worker) and parked spans (task waiting,
/// shown on the worker it left), relative to `t0`.
pub fn trace_from_events(events: Vec<SchedulerEvent>, t0: f64, wall_ms: f64) -> Trace {
    let mut trace = Trace { wall_ms, ..Trace::default() };
    // Per task: where and since when it runs, and where and since when it is parked.
    let mut running: HashMap<u32, (u32, f64)> = HashMap::new();
    let mut parked: HashMap<u32, (u32, f64)> = HashMap::new();
    for event in &events {
        let at = event.at_ms - t0;
        let worker = event.worker.unwrap_or(0);
        match event.kind {
            SchedulerEventKind::Run => {
                if let Some((parked_on, since)) = parked.remove(&event.task) {
                    trace.parked.push(Span { worker: parked_on, task: event.task, start_ms: since, end_ms: at });
                }
                running.insert(event.task, (worker, at));
            }
            SchedulerEventKind::Park | SchedulerEventKind::Finish => {
                if let Some((ran_on, since)) = running.remove(&event.task) {
                    trace.spans.push(Span { worker: ran_on, task: event.task, start_ms: since, end_ms: at });
                }
                if event.kind == SchedulerEventKind::Park {
                    parked.insert(event.task, (worker, at));
                }
            }
            _ => {}
        }
    }
    if events.len() <= MAX_TRACE_EVENTS {
        trace.events = events.into_iter().map(|e| SchedulerEvent { at_ms: e.at_ms - t0, ..e }).collect();
    }
    trace
}
