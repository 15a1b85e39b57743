//! The coordinator's side of message passing: a pool of k message workers, the tasks handed to
//! whichever is free, hashing slice by slice on them, and the measurements that come of it.

use super::{MessageHandler, MessageWorkerAnswer, Order};
use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::kernel_api::Prepared;
use crate::kernels::hashing::{check_digests, slices};
use crate::kernels::spin::spin_seed;
use crate::kernels::{self, sum};
use crate::outcome::Outcome;
use crate::web::streams::HashInput;
use crate::web::{describe, post};
use experiments::protocol::{Failure, FailureKind, Response, RunId, Stage};
use experiments::{Job, Measurement, Span, Trace, Workload};
use futures_channel::mpsc;
use futures_util::future::{select, Either};
use futures_util::StreamExt;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};
use workloads::split::even_ranges;

/// How long workers may take to load their copy of the engine before the run gives up.
const START_TIMEOUT_MS: f64 = 20_000.0;
/// At most this many bytes of one slice's copies in flight to hashing workers at once.
const MAX_SLICE_COPIES_BYTES: u64 = 512 << 20;
/// How often the coordinator looks at the stop flag while it waits for answers.
const STOP_POLL_MS: i32 = 20;

type ErrorHandler = Closure<dyn FnMut(Event)>;

/// k message workers and the channel their answers arrive on, tagged with the worker's index.
struct MessagePool {
    workers: Vec<(Worker, MessageHandler, ErrorHandler)>,
    answers: mpsc::UnboundedReceiver<(u32, MessageWorkerAnswer)>,
}

impl Drop for MessagePool {
    fn drop(&mut self) {
        LIVE.with(|live| live.set(live.get().saturating_sub(self.workers.len() as u32)));
        for (worker, _, _) in &self.workers {
            // Unhooked first: an answer already queued must not reach a handler about to be freed.
            worker.set_onmessage(None);
            worker.set_onerror(None);
            worker.terminate();
        }
    }
}

thread_local! {
    /// The pool kept between runs, so repeated runs with the same k start at once.
    static POOL: RefCell<Option<MessagePool>> = const { RefCell::new(None) };
    /// Message workers started and not yet ended, kept or in use by a run.
    static LIVE: Cell<u32> = const { Cell::new(0) };
}

/// End the message workers kept for the next run.
pub fn release() {
    let kept = POOL.with(|p| p.borrow_mut().take());
    drop(kept);
}

/// Message workers alive right now (counted in the engine's status answer).
pub fn live() -> u32 {
    LIVE.with(Cell::get)
}

/// Start `workers` workers, each loading this module (already compiled: it is posted to them).
fn start_pool(workers: u32) -> Result<MessagePool, String> {
    let (sender, answers) = mpsc::unbounded();
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let mut pool = MessagePool { workers: Vec::new(), answers };
    for index in 0..workers {
        options.set_name(&format!("lab-message-worker-{index}"));
        // Resolved against the coordinator's own URL: the two scripts sit side by side.
        let worker = Worker::new_with_options("./message-worker.js", &options)
            .map_err(|e| format!("the browser refused to start a worker: {}", describe(e)))?;
        let to_coordinator = sender.clone();
        let on_message = MessageHandler::new(move |event: MessageEvent| {
            let text = event.data().as_string().unwrap_or_default();
            let answer = MessageWorkerAnswer::from_json(&text);
            let _ = to_coordinator.unbounded_send((index, answer));
        });
        let to_coordinator = sender.clone();
        let on_error = ErrorHandler::new(move |event: Event| {
            event.prevent_default();
            // A script that fails to load fires a plain Event, with no message to read.
            let message = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "message-worker.js could not be loaded".into());
            let _ = to_coordinator.unbounded_send((index, MessageWorkerAnswer::Failed { message }));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        worker
            .post_message(&wasm_bindgen::module())
            .map_err(|e| format!("could not hand the engine to a worker: {}", describe(e)))?;
        pool.workers.push((worker, on_message, on_error));
        LIVE.with(|live| live.set(live.get() + 1));
    }
    Ok(pool)
}

/// The next answer from any worker, `None` if none came by `deadline_ms` (engine clock), or
/// `Stopped` if the run was stopped meanwhile.
async fn next_answer_by(
    pool: &mut MessagePool,
    cancel: &Cancel,
    deadline_ms: f64,
) -> Result<Option<(u32, MessageWorkerAnswer)>, Stopped> {
    loop {
        cancel.check()?;
        match select(pool.answers.next(), Box::pin(crate::web::sleep_ms(STOP_POLL_MS))).await {
            Either::Left((Some(answer), _)) => return Ok(Some(answer)),
            // Every sender lives in the pool's own handlers, so the channel never ends while it lives.
            Either::Left((None, _)) => return Err(Stopped),
            Either::Right(_) if now_ms() > deadline_ms => return Ok(None),
            Either::Right(_) => {}
        }
    }
}

/// The next answer from any worker (however long the work takes), or `Stopped`.
async fn next_answer(pool: &mut MessagePool, cancel: &Cancel) -> Result<(u32, MessageWorkerAnswer), Stopped> {
    loop {
        if let Some(answer) = next_answer_by(pool, cancel, f64::INFINITY).await? {
            return Ok(answer);
        }
    }
}

/// Take the kept pool if it has exactly `workers` workers; otherwise end it and start a new one,
/// waiting until every worker has loaded the engine. Also returns the start-up time of a new pool.
async fn pool_of(workers: u32, cancel: &Cancel) -> Outcome<(MessagePool, Option<f64>)> {
    if let Some(pool) = POOL.with(|p| p.borrow_mut().take()) {
        if pool.workers.len() == workers as usize {
            return Ok(Ok((pool, None)));
        }
    }
    let started = now_ms();
    let mut pool = start_pool(workers)?;
    let mut ready = 0;
    while ready < workers {
        match next_answer_by(&mut pool, cancel, started + START_TIMEOUT_MS).await {
            Ok(Some((_, MessageWorkerAnswer::Ready))) => ready += 1,
            Ok(Some((index, MessageWorkerAnswer::Failed { message }))) => {
                let detail = format!("message worker {index} could not start: {message}");
                return Err(Failure::new(FailureKind::WorkersNotStarted, detail));
            }
            Ok(Some(_)) => {}
            Ok(None) => {
                let seconds = START_TIMEOUT_MS / 1000.0;
                let detail = format!("only {ready} of {workers} message workers loaded the engine within {seconds} s");
                return Err(Failure::new(FailureKind::WorkersNotStarted, detail));
            }
            Err(Stopped) => return Ok(Err(Stopped)),
        }
    }
    Ok(Ok((pool, Some(now_ms() - started))))
}

/// Data that travels beside an order: a typed array copied out of this worker's memory, whose buffer
/// is then handed over (not copied a second time). The worker copies it into its own memory.
struct Payload {
    array: JsValue,
    buffer: js_sys::ArrayBuffer,
}

impl Payload {
    fn numbers(numbers: &[i32]) -> Payload {
        let array = js_sys::Int32Array::from(numbers);
        Payload { buffer: array.buffer(), array: array.into() }
    }

    fn bytes(bytes: &[u8]) -> Payload {
        let array = js_sys::Uint8Array::from(bytes);
        Payload { buffer: array.buffer(), array: array.into() }
    }
}

/// Post `order` to worker `worker`, with its payload if it has one.
fn post_order(pool: &MessagePool, worker: u32, order: &Order, payload: Option<Payload>) -> Result<(), String> {
    let text = serde_json::to_string(order).map_err(|e| e.to_string())?;
    let (array, transfer) = match payload {
        Some(Payload { array, buffer }) => (array, js_sys::Array::of1(&buffer)),
        None => (JsValue::UNDEFINED, js_sys::Array::new()),
    };
    pool.workers[worker as usize]
        .0
        .post_message_with_transfer(&js_sys::Array::of2(&text.into(), &array), &transfer)
        .map_err(|e| format!("could not send work to worker {worker}: {}", describe(e)))
}

/// The tasks of a job on message workers: slices of the numbers to add, or spin work.
enum Tasks<'a> {
    Sum { numbers: &'a [i32], ranges: Vec<Range<usize>> },
    Spin { units: u32, tasks: u32 },
}

impl<'a> Tasks<'a> {
    /// The tasks of one run of `job`, on its prepared `input`.
    fn of(job: &Job, input: &'a dyn Prepared) -> Result<Tasks<'a>, String> {
        if let Some(sum) = input.input().downcast_ref::<sum::Numbers>() {
            let ranges = even_ranges(sum.numbers.len(), job.tasks as usize);
            return Ok(Tasks::Sum { numbers: &sum.numbers, ranges });
        }
        match job.workload {
            Workload::Spin { units } => Ok(Tasks::Spin { units, tasks: job.tasks }),
            _ => Err("only sum and spin jobs run on message workers".into()),
        }
    }

    fn count(&self) -> u32 {
        match self {
            Tasks::Sum { ranges, .. } => ranges.len() as u32,
            Tasks::Spin { tasks, .. } => *tasks,
        }
    }

    /// The order for task `task`, and the data that travels with it.
    fn order(&self, task: u32) -> (Order, Option<Payload>) {
        match self {
            Tasks::Sum { numbers, ranges } => {
                (Order::Sum { task }, Some(Payload::numbers(&numbers[ranges[task as usize].clone()])))
            }
            Tasks::Spin { units, .. } => (Order::Spin { task, units: *units, seed: spin_seed(task) }, None),
        }
    }
}

/// One run of `job`: hand tasks to whichever worker is free; returns the total and the trace.
async fn run_once(job: &Job, input: &dyn Prepared, pool: &mut MessagePool, cancel: &Cancel) -> Outcome<(u64, Trace)> {
    let split = Tasks::of(job, input)?;
    let tasks = split.count();
    let t0 = now_ms();
    let mut next_task = 0;
    let mut pending = 0;
    let mut total = 0u64;
    let mut spans = Vec::with_capacity(tasks as usize);
    let send = |worker: u32, task: u32, pool: &MessagePool| {
        let (order, payload) = split.order(task);
        post_order(pool, worker, &order, payload)
    };
    for worker in 0..pool.workers.len() as u32 {
        if next_task < tasks {
            send(worker, next_task, pool)?;
            next_task += 1;
            pending += 1;
        }
    }
    while pending > 0 {
        let (worker, answer) = match next_answer(pool, cancel).await {
            Ok(answer) => answer,
            Err(Stopped) => return Ok(Err(Stopped)),
        };
        match answer {
            MessageWorkerAnswer::Done { task, value, start_ms, end_ms } => {
                pending -= 1;
                total = total.wrapping_add(value);
                spans.push(Span { worker, task, start_ms: start_ms - t0, end_ms: end_ms - t0 });
                if next_task < tasks {
                    send(worker, next_task, pool)?;
                    next_task += 1;
                    pending += 1;
                }
            }
            MessageWorkerAnswer::Failed { message } => return Err(worker_failed(worker, &message)),
            _ => {}
        }
    }
    let wall_ms = now_ms() - t0;
    crate::trace::sort_by_start(&mut spans);
    Ok(Ok((total, Trace { spans, wall_ms, ..Trace::default() })))
}

/// Measure `job` on k message workers: input prepared here once, a warm-up, then the repetitions.
pub async fn run_job(job: &Job, cancel: &Cancel) -> Outcome<Measurement> {
    let copies = job.message_copies_bytes();
    if copies > experiments::job::limits::MAX_MESSAGE_COPIES_BYTES {
        let detail = format!(
            "without shared memory each busy worker gets its own copy of its task's numbers: {} MB at once, more \
             than this page should hold (at most {} MB): choose more tasks, fewer workers or fewer numbers",
            copies.div_ceil(1 << 20),
            experiments::job::limits::MAX_MESSAGE_COPIES_BYTES >> 20
        );
        return Err(Failure::new(FailureKind::TooMuchMemory, detail));
    }
    let input = match kernels::prepare(job, cancel)? {
        Ok(input) => input,
        Err(Stopped) => return Ok(Err(Stopped)),
    };
    let (mut pool, pool_start_ms) = match pool_of(job.workers.max(1), cancel).await? {
        Ok(pool) => pool,
        Err(Stopped) => return Ok(Err(Stopped)),
    };
    let outcome = measure(job, &*input, &mut pool, pool_start_ms, cancel).await;
    keep_if_measured(pool, &outcome);
    outcome
}

/// Wait for one answer of the wanted kind from each of `workers` workers; returns them by worker.
async fn gather(pool: &mut MessagePool, workers: u32, cancel: &Cancel) -> Outcome<Vec<(u32, MessageWorkerAnswer)>> {
    let mut answers = Vec::with_capacity(workers as usize);
    while answers.len() < workers as usize {
        match next_answer(pool, cancel).await {
            Ok((worker, MessageWorkerAnswer::Failed { message })) => return Err(worker_failed(worker, &message)),
            Ok((_, MessageWorkerAnswer::Ready)) => {}
            Ok(answer) => answers.push(answer),
            Err(Stopped) => return Ok(Err(Stopped)),
        }
    }
    Ok(Ok(answers))
}

/// A message worker answered that it failed (it panicked, or an order came incomplete).
fn worker_failed(worker: u32, message: &str) -> Failure {
    Failure::new(FailureKind::WorkerCrashed, format!("message worker {worker} failed: {message}"))
}

/// One pass of hashing on the workers in use: start their states, send every slice of `data` to
/// each of them and wait for all, then collect the digests. Returns digests in hash order and the
/// trace.
async fn hash_once(
    job: &Job,
    data: impl Iterator<Item = Result<Vec<u8>, Failure>>,
    pool: &mut MessagePool,
    cancel: &Cancel,
    mut on_slice: impl FnMut(),
) -> Outcome<(Vec<[u8; 32]>, Trace)> {
    let hashes = job.tasks.max(1);
    let in_use = (pool.workers.len() as u32).min(hashes);
    let t0 = now_ms();
    for worker in 0..in_use {
        let indices = (0..hashes).filter(|h| h % in_use == worker).collect();
        post_order(pool, worker, &Order::HashStart { indices, hashes }, None)?;
    }
    let mut spans = Vec::new();
    for (slice, bytes) in data.enumerate() {
        let bytes = bytes?;
        for worker in 0..in_use {
            post_order(pool, worker, &Order::HashSlice { slice: slice as u32 }, Some(Payload::bytes(&bytes)))?;
        }
        match gather(pool, in_use, cancel).await? {
            Ok(answers) => {
                for (worker, answer) in answers {
                    if let MessageWorkerAnswer::Advanced { spans: advanced } = answer {
                        spans.extend(advanced.into_iter().map(|(task, start_ms, end_ms)| Span {
                            worker,
                            task,
                            start_ms: start_ms - t0,
                            end_ms: end_ms - t0,
                        }));
                    }
                }
            }
            Err(Stopped) => return Ok(Err(Stopped)),
        }
        on_slice();
    }
    for worker in 0..in_use {
        post_order(pool, worker, &Order::HashFinish, None)?;
    }
    let mut digests = vec![[0u8; 32]; hashes as usize];
    match gather(pool, in_use, cancel).await? {
        Ok(answers) => {
            for (_, answer) in answers {
                if let MessageWorkerAnswer::Digests { digests: theirs } = answer {
                    for (index, digest) in theirs {
                        digests[index as usize] = digest;
                    }
                }
            }
        }
        Err(Stopped) => return Ok(Err(Stopped)),
    }
    let wall_ms = now_ms() - t0;
    crate::trace::sort_by_start(&mut spans);
    Ok(Ok((digests, Trace { spans, wall_ms, ..Trace::default() })))
}

/// Hash the job's data t times on k message workers, reporting progress per slice.
pub async fn run_hash(
    run_id: RunId,
    job_index: usize,
    job: &Job,
    file: Option<&web_sys::File>,
    cancel: &Cancel,
) -> Outcome<Measurement> {
    let input = HashInput::of(job, file)?;
    let copies = job.workers.max(1).min(job.tasks.max(1)) as u64;
    if copies * input.slice_bytes as u64 > MAX_SLICE_COPIES_BYTES {
        let detail = format!(
            "without shared memory each of the {copies} workers needs its own copy of every {} MB slice, more than \
             this page should hold at once: choose fewer workers",
            input.slice_bytes >> 20
        );
        return Err(Failure::new(FailureKind::TooMuchMemory, detail));
    }
    let (mut pool, _) = match pool_of(job.workers.max(1), cancel).await? {
        Ok(pool) => pool,
        Err(Stopped) => return Ok(Err(Stopped)),
    };
    let outcome = measure_hashing(run_id, job_index, job, &input, &mut pool, cancel).await;
    keep_if_measured(pool, &outcome);
    outcome
}

/// A warm-up pass over a short slice, then the timed repetitions, on `pool`.
async fn measure_hashing(
    run_id: RunId,
    job_index: usize,
    job: &Job,
    input: &HashInput,
    pool: &mut MessagePool,
    cancel: &Cancel,
) -> Outcome<Measurement> {
    // A short slice of zeros first, so the workers' compilers optimise SHA-256 untimed.
    let warm_up = std::iter::once(Ok(vec![0u8; 256 * 1024]));
    if let Err(Stopped) = hash_once(job, warm_up, pool, cancel, || {}).await? {
        return Ok(Err(Stopped));
    }
    let steps = slices(input.total, input.slice_bytes).count() as u32 * job.repetitions.max(1);
    let mut done = 0;
    let (mut samples, mut digests_seen) = (Vec::new(), Vec::new());
    for _ in 0..job.repetitions.max(1) {
        let progress = || {
            done += 1;
            post(&Response::Progress { run_id, job_index, done, total: steps, stage: Stage::Measuring, jobs: 1 });
        };
        let data = slices(input.total, input.slice_bytes).map(|(offset, length)| input.slice(offset, length));
        match hash_once(job, data, pool, cancel, progress).await? {
            Ok((digests, trace)) => {
                digests_seen.extend(digests);
                samples.push((trace.wall_ms, trace));
            }
            Err(Stopped) => return Ok(Err(Stopped)),
        }
    }
    Ok(Ok(Measurement::from_samples(job.clone(), samples, check_digests(&digests_seen), None)))
}

/// Keep `pool` for the next run if this one was measured. A pool that failed or was stopped
/// mid-task may be busy or broken: it is dropped, which ends its workers.
fn keep_if_measured(pool: MessagePool, outcome: &Outcome<Measurement>) {
    if matches!(outcome, Ok(Ok(_))) {
        POOL.with(|p| *p.borrow_mut() = Some(pool));
    }
}

/// A warm-up run, then the timed repetitions, on `pool`.
async fn measure(
    job: &Job,
    input: &dyn Prepared,
    pool: &mut MessagePool,
    pool_start_ms: Option<f64>,
    cancel: &Cancel,
) -> Outcome<Measurement> {
    // Lets each worker's wasm compiler tier up, as the threaded engine's warm-up does.
    if let Err(Stopped) = run_once(job, input, pool, cancel).await? {
        return Ok(Err(Stopped));
    }
    let mut samples = Vec::new();
    let mut values = Vec::new();
    for _ in 0..job.repetitions.max(1) {
        match run_once(job, input, pool, cancel).await? {
            Ok((value, trace)) => {
                samples.push((trace.wall_ms, trace));
                values.push(value);
            }
            Err(Stopped) => return Ok(Err(Stopped)),
        }
    }
    Ok(Ok(Measurement::from_samples(job.clone(), samples, input.check(&values), pool_start_ms)))
}
