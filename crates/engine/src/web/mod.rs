//! The engine in the browser: a coordinator Web Worker that takes requests from the UI and runs jobs
//! on rayon pools whose workers are nested Web Workers sharing this module's memory.
//!
//! The UI never loads this module; it only exchanges JSON messages ([`experiments::protocol`]) with
//! the coordinator. The coordinator never blocks: it hands each job to the pool and awaits a
//! oneshot channel, so its event loop stays free to start workers and to receive "stop".

#[cfg(not(target_feature = "atomics"))]
mod messages;
mod streams;
#[cfg(target_feature = "atomics")]
pub mod workers;

use crate::cancel::Cancel;
use crate::driver::{Context, Report, SliceSource};
use crate::executors::Executors;
use crate::harness;
use crate::outcome::RunEnd;
use crate::threads::live_workers;
use experiments::protocol::{Failure, FailureKind, Request, Response, RunId};
use experiments::Job;
use futures_channel::mpsc;
use futures_util::StreamExt;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    pub(crate) static EXECUTORS: Rc<RefCell<Executors>> = Rc::new(RefCell::new(Executors::default()));
    static CURRENT_RUN: RefCell<Option<(RunId, Cancel)>> = const { RefCell::new(None) };
    /// Runs asked for so far: an idle release checks that none came since it was planned.
    static RUNS_ASKED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How long the workers of the last run are kept after it ends, so that the reader's next run with
/// the same settings starts at once; after that they are ended and only the coordinator is left.
const IDLE_RELEASE_MS: i32 = 15_000;

/// A JavaScript error as text for a message to the reader.
fn describe(error: JsValue) -> String {
    error.as_string().or_else(|| js_sys::JSON::stringify(&error).ok().map(String::from)).unwrap_or_default()
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Send a response to the UI (only valid on the coordinator).
pub(crate) fn post(response: &Response) {
    // Posting a string to our own parent cannot fail in practice; if it did, there is nobody to tell.
    let _ = scope().post_message(&JsValue::from_str(&answer_json(response)));
}

/// `response` as the page reads it: [`Response::to_json`]'s text, written with the engine's lighter
/// float writer ([`crate::json`]).
fn answer_json(response: &Response) -> String {
    crate::json::to_string(response).expect("responses always serialise")
}

/// Who hears about a panic on this thread, and in what form.
#[derive(Clone, Copy)]
pub(crate) enum PanicListener {
    /// The UI, which reads JSON [`Response`]s: a panic on the coordinator is a `crashed` response.
    Ui,
    /// The coordinator, which reads `crate::wire::PoolWorkerReport`s from pool workers.
    #[cfg(target_feature = "atomics")]
    Coordinator,
    /// The coordinator, which reads JSON answers from message workers (see `messages`).
    #[cfg(not(target_feature = "atomics"))]
    MessagePool,
}

/// Report panics to whoever listens on this thread, in the form it reads.
pub(crate) fn install_panic_hook(listener: PanicListener) {
    std::panic::set_hook(Box::new(move |info| {
        console_error_panic_hook::hook(info);
        let message = format!("{info}");
        let report: JsValue = match listener {
            PanicListener::Ui => {
                let failure = Failure::new(FailureKind::EnginePanicked, format!("the engine panicked: {message}"));
                answer_json(&Response::Crashed { failure }).into()
            }
            #[cfg(target_feature = "atomics")]
            PanicListener::Coordinator => crate::wire::PoolWorkerReport::Crashed { message }.to_json().into(),
            #[cfg(not(target_feature = "atomics"))]
            PanicListener::MessagePool => messages::panic_answer(&message).into(),
        };
        let _ = scope().post_message(&report);
    }));
}

/// Panic on purpose, with `message`: the failure-injection tests call it (from a replaced
/// `coordinator.js`) to check that a panic's own words reach the reader. Nothing else calls it.
#[wasm_bindgen]
pub fn fault_injection_panic(message: String) {
    panic!("{message}");
}

/// Entry point of the coordinator worker (called by `coordinator.js` once the module is loaded).
#[wasm_bindgen]
pub fn coordinator_start(build: String) {
    install_panic_hook(PanicListener::Ui);
    let (queue, runs) = mpsc::unbounded::<RunRequest>();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        // A request is its bytes (a Uint8Array, `Request::to_bytes`), or [bytes, File] when it
        // brings a file to hash. Anything else reads as no bytes, which is refused.
        let data = event.data();
        let (bytes, file) = if js_sys::Array::is_array(&data) {
            let parts = js_sys::Array::from(&data);
            (js_sys::Uint8Array::new(&parts.get(0)).to_vec(), parts.get(1).dyn_into::<web_sys::File>().ok())
        } else {
            (js_sys::Uint8Array::new(&data).to_vec(), None)
        };
        match Request::from_bytes(&bytes) {
            Ok(Request::Run { run_id, jobs }) => {
                if let Err(reason) = experiments::job::validate_run(&jobs) {
                    post(&Response::Failed { run_id, failure: Failure::new(FailureKind::Refused, reason) });
                    return;
                }
                RUNS_ASKED.with(|n| n.set(n.get() + 1));
                let cancel = Cancel::new();
                let previous = CURRENT_RUN.with(|c| c.borrow_mut().replace((run_id, cancel.clone())));
                if let Some((_, previous_cancel)) = previous {
                    previous_cancel.stop();
                }
                let _ = queue.unbounded_send(RunRequest { run_id, jobs, cancel, file });
            }
            Ok(Request::Stop { run_id }) => CURRENT_RUN.with(|c| {
                if let Some((current, cancel)) = c.borrow().as_ref() {
                    if *current == run_id {
                        cancel.stop();
                    }
                }
            }),
            Ok(Request::Status) => post(&Response::Status {
                live_workers: live_workers() + message_workers(),
                pool_workers: EXECUTORS.with(|e| e.borrow().workers()).max(message_workers()),
                parked_workers: parked_workers(),
                heap_bytes: crate::alloc::live_bytes().max(0) as u64,
                memory_bytes: wasm_memory_bytes(),
            }),
            Ok(Request::Warm { workers }) => warm(workers),
            Err(error) => post(&Response::Failed {
                run_id: 0,
                failure: Failure::new(FailureKind::Refused, format!("unreadable request: {error}")),
            }),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    wasm_bindgen_futures::spawn_local(run_loop(runs));
    post(&Response::Ready { threads: crate::threads::SHARED_MEMORY, build });
}

/// Start `workers` pool workers ahead of the first run (see `workers::warm`), parked until a pool
/// takes them, and released like the workers of a run if none comes within [`IDLE_RELEASE_MS`].
/// Only before any run: afterwards the workers of the last run are kept, and parked ones reused.
fn warm(workers: u32) {
    let idle = RUNS_ASKED.with(|n| n.get()) == 0 && EXECUTORS.with(|e| e.borrow().workers()) == 0;
    #[cfg(target_feature = "atomics")]
    {
        if idle && workers > 0 {
            // A worker that cannot start is the first run's to report (it starts its own then).
            let _ = workers::warm(workers.min(experiments::job::limits::MAX_WORKERS));
            release_when_idle();
        }
        // Workers `coordinator.js` started for this request that were not taken are not kept.
        workers::end_spare_workers();
    }
    #[cfg(not(target_feature = "atomics"))]
    let _ = (idle, workers);
}

/// A run asked for: its jobs, its stop flag, and the file it brought to hash, if any.
struct RunRequest {
    run_id: RunId,
    jobs: Vec<Job>,
    cancel: Cancel,
    file: Option<web_sys::File>,
}

/// Runs requests one at a time, in arrival order (a newer request has already stopped older ones).
async fn run_loop(mut runs: mpsc::UnboundedReceiver<RunRequest>) {
    while let Some(request) = runs.next().await {
        let outcome = run(&request).await;
        if matches!(outcome, Response::Failed { .. }) {
            // Workers that did not start, or a pool a failure left behind, are not reused.
            release_workers();
        }
        post(&outcome);
        release_when_idle();
    }
}

/// End every worker but the coordinator [`IDLE_RELEASE_MS`] from now, unless a run is asked for
/// meanwhile.
fn release_when_idle() {
    let asked = RUNS_ASKED.with(|n| n.get());
    wasm_bindgen_futures::spawn_local(async move {
        sleep_ms(IDLE_RELEASE_MS).await;
        if RUNS_ASKED.with(|n| n.get()) == asked {
            release_workers();
        }
    });
}

/// End every pool, runtime and message worker kept.
fn release_workers() {
    EXECUTORS.with(|e| e.borrow_mut().clear());
    #[cfg(target_feature = "atomics")]
    workers::release_parked();
    #[cfg(not(target_feature = "atomics"))]
    messages::release();
}

/// Logical processors, as the browser reports them (it may round or lower the figure).
fn cores() -> u32 {
    scope().navigator().hardware_concurrency().max(1.0) as u32
}

fn sleep(ms: u32) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> {
    Box::pin(sleep_ms(ms as i32))
}

/// Measure every job of a run: consecutive jobs side by side (see [`harness`]), load tests and
/// message-passing workers on their own. Returns the final message.
async fn run(request: &RunRequest) -> Response {
    let RunRequest { run_id, ref jobs, ref cancel, ref file } = *request;
    let report = move |r: Report| {
        post(&Response::Progress {
            run_id,
            job_index: r.job_index,
            done: r.done,
            total: r.total,
            stage: r.stage,
            jobs: r.jobs,
        })
    };
    let open_source = |job: &Job| -> Result<Box<dyn SliceSource>, String> {
        Ok(Box::new(streams::HashInput::of(job, file.as_ref())?))
    };
    let cx = Context {
        cancel,
        cores: cores(),
        quiet_limit_ms: harness::SETTLE_LIMIT_MS,
        sample_floor_ms: experiments::SAMPLE_FLOOR_MS,
        report: &report,
        hash_source: &open_source,
        sleep: &sleep,
    };
    let executors = EXECUTORS.with(Rc::clone);
    // Without shared memory every job is measured on its own: the one worker is this very thread.
    let groups = if crate::threads::SHARED_MEMORY {
        harness::groups(jobs)
    } else {
        (0..jobs.len()).map(|index| index..index + 1).collect()
    };
    for group in groups {
        if cancel.is_stopped() {
            return Response::Stopped { run_id };
        }
        let first = &jobs[group.start];
        let end = match on_message_workers(request, group.start, first).await {
            Some(end) => end,
            None => harness::measure_group(&executors, &jobs[group.clone()], group.start, &cx).await,
        };
        let (measurements, stopped) = match end {
            RunEnd::Measured(measurements) => (measurements, false),
            RunEnd::Stopped(measurements) => (measurements, true),
            RunEnd::Failed(failure) => return Response::Failed { run_id, failure },
        };
        // Posted together once the group is done, so the page renders while nothing is timed.
        for (offset, measurement) in measurements.into_iter().enumerate() {
            post(&Response::Measured { run_id, job_index: group.start + offset, measurement: Box::new(measurement) })
        }
        if stopped {
            return Response::Stopped { run_id };
        }
    }
    Response::Finished { run_id }
}

/// Measure `job` (the `job_index`th of the run) on message-passing workers, one job at a time, if
/// this build sends it there (see `messages`).
#[cfg(not(target_feature = "atomics"))]
async fn on_message_workers(request: &RunRequest, job_index: usize, job: &Job) -> Option<RunEnd> {
    let (run_id, cancel, file) = (request.run_id, &request.cancel, request.file.as_ref());
    if messages::handles(job) {
        Some(RunEnd::from(messages::run_job(job, cancel).await))
    } else if matches!(job.workload, experiments::Workload::Hash { .. })
        && job.variant == experiments::Variant::ThreadPool
    {
        Some(RunEnd::from(messages::run_hash(run_id, job_index, job, file, cancel).await))
    } else {
        None
    }
}

/// The threaded engine has no message workers: every job goes to the harness.
#[cfg(target_feature = "atomics")]
async fn on_message_workers(_: &RunRequest, _: usize, _: &Job) -> Option<RunEnd> {
    None
}

/// The size of this module's wasm memory (shared by every worker of the threaded engine).
fn wasm_memory_bytes() -> u64 {
    // An ArrayBuffer, or a SharedArrayBuffer in the threaded engine: both have `byteLength`.
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::Reflect::get(&memory.buffer(), &"byteLength".into()).ok().and_then(|n| n.as_f64()).unwrap_or(0.0) as u64
}

/// Pool workers parked for reuse (see `workers`).
fn parked_workers() -> u32 {
    #[cfg(target_feature = "atomics")]
    return workers::parked_workers();
    #[cfg(not(target_feature = "atomics"))]
    0
}

/// Message-passing workers alive (only pages without shared memory have them).
fn message_workers() -> u32 {
    #[cfg(not(target_feature = "atomics"))]
    return messages::live();
    #[cfg(target_feature = "atomics")]
    0
}

/// A future that resolves after `ms` milliseconds (a `setTimeout` on this worker).
async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
