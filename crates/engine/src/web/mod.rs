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

use crate::cancel::{Cancel, Stopped};
use crate::executors::Executors;
use crate::measure::{run_job, run_job_on_runtime, Progress};
use crate::threads::live_workers;
use experiments::protocol::{Request, Response, RunId};
use experiments::{Job, Measurement, Variant, Workload};
use futures_channel::{mpsc, oneshot};
use futures_util::future::{select, Either};
use futures_util::StreamExt;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// How often the coordinator reports progress of a running job to the UI.
const PROGRESS_INTERVAL_MS: i32 = 100;

thread_local! {
    pub(crate) static EXECUTORS: RefCell<Executors> = RefCell::new(Executors::default());
    static CURRENT_RUN: RefCell<Option<(RunId, Cancel)>> = const { RefCell::new(None) };
}

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
    let _ = scope().post_message(&JsValue::from_str(&response.to_json()));
}

/// Report panics to whoever listens: the UI for the coordinator, the coordinator for pool workers.
pub(crate) fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let message = format!("{info}");
        let report = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&report, &"type".into(), &"crashed".into());
        let _ = js_sys::Reflect::set(&report, &"message".into(), &message.into());
        let _ = scope().post_message(&report);
    }));
}

/// Entry point of the coordinator worker (called by `coordinator.js` once the module is loaded).
#[wasm_bindgen]
pub fn coordinator_start() {
    install_panic_hook();
    let (queue, runs) = mpsc::unbounded::<(RunId, Vec<Job>, Cancel)>();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        // A request is a JSON string, or [JSON string, File] when it brings a file to hash.
        let data = event.data();
        let text = if js_sys::Array::is_array(&data) {
            let parts = js_sys::Array::from(&data);
            let file = parts.get(1).dyn_into::<web_sys::File>().ok();
            streams::ATTACHED_FILE.with(|f| *f.borrow_mut() = file);
            parts.get(0).as_string().unwrap_or_default()
        } else {
            data.as_string().unwrap_or_default()
        };
        match Request::from_json(&text) {
            Ok(Request::Run { run_id, jobs }) => {
                if let Some(message) = jobs.iter().find_map(|job| job.validate().err()) {
                    post(&Response::Failed { run_id, message });
                    return;
                }
                let cancel = Cancel::new();
                let previous = CURRENT_RUN.with(|c| c.borrow_mut().replace((run_id, cancel.clone())));
                if let Some((_, previous_cancel)) = previous {
                    previous_cancel.stop();
                }
                let _ = queue.unbounded_send((run_id, jobs, cancel));
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
            }),
            Err(error) => post(&Response::Failed { run_id: 0, message: format!("unreadable request: {error}") }),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    wasm_bindgen_futures::spawn_local(run_loop(runs));
    post(&Response::Ready { threads: crate::threads::SHARED_MEMORY });
}

/// Runs requests one at a time, in arrival order (a newer request has already stopped older ones).
async fn run_loop(mut runs: mpsc::UnboundedReceiver<(RunId, Vec<Job>, Cancel)>) {
    while let Some((run_id, jobs, cancel)) = runs.next().await {
        let outcome = run(run_id, &jobs, &cancel).await;
        post(&outcome);
    }
}

/// Measure every job of a run on a pool of its worker count; returns the final message.
async fn run(run_id: RunId, jobs: &[Job], cancel: &Cancel) -> Response {
    for (job_index, job) in jobs.iter().enumerate() {
        if cancel.is_stopped() {
            return Response::Stopped { run_id };
        }
        // Hashing, load tests and message-passing workers are driven from here, step by step.
        let driven = match job.workload {
            Workload::Hash { .. } => Some(streams::run_hash(run_id, job_index, job, cancel).await),
            Workload::Qps { .. } => Some(streams::run_qps(job, cancel).await),
            #[cfg(not(target_feature = "atomics"))]
            _ if messages::handles(job) => Some(messages::run_job(job, cancel).await),
            _ => None,
        };
        if let Some(outcome) = driven {
            match outcome {
                Ok(Ok(measurement)) => {
                    post(&Response::Measured { run_id, job_index, measurement: Box::new(measurement) })
                }
                Ok(Err(Stopped)) => return Response::Stopped { run_id },
                Err(message) => return Response::Failed { run_id, message },
            }
            continue;
        }
        let progress = Arc::new(Progress::default());
        let mut result = match start_job(job, cancel, &progress) {
            Ok(receiver) => receiver,
            Err(message) => return Response::Failed { run_id, message },
        };
        let measured = loop {
            match select(result, Box::pin(sleep_ms(PROGRESS_INTERVAL_MS))).await {
                Either::Left((outcome, _)) => break outcome,
                Either::Right((_, pending)) => {
                    result = pending;
                    let (done, total) = progress.snapshot();
                    post(&Response::Progress { run_id, job_index, done, total });
                }
            }
        };
        match measured {
            Ok(Ok(measurement)) => post(&Response::Measured { run_id, job_index, measurement: Box::new(measurement) }),
            Ok(Err(Stopped)) => return Response::Stopped { run_id },
            Err(_) => return Response::Failed { run_id, message: "a worker ended without finishing its job".into() },
        }
    }
    Response::Finished { run_id }
}

type JobResult = Result<Measurement, Stopped>;

/// Hand `job` to an executor of its worker count: a rayon pool, or the task runtime for the
/// Goroutines variant. The result arrives on the returned channel.
fn start_job(job: &Job, cancel: &Cancel, progress: &Arc<Progress>) -> Result<oneshot::Receiver<JobResult>, String> {
    let (done, result) = oneshot::channel();
    let (job, cancel, progress) = (job.clone(), cancel.clone(), progress.clone());
    EXECUTORS.with(|executors| {
        let mut executors = executors.borrow_mut();
        if !crate::threads::SHARED_MEMORY {
            // One worker, and it is this thread: measure right here. The UI stops such a run by
            // ending this worker, since it cannot read "stop" messages meanwhile.
            let measured = if job.variant == Variant::Goroutines {
                let (runtime, fresh) = executors.runtime(job.workers)?;
                runtime.run_inline(run_job_on_runtime(job, runtime.handle(), fresh, cancel, progress))
            } else {
                let (pool, fresh) = executors.pool(job.workers)?;
                pool.install(|| run_job(&job, fresh, &cancel, &progress))
            };
            let _ = done.send(measured);
        } else if job.variant == Variant::Goroutines {
            let (runtime, fresh) = executors.runtime(job.workers)?;
            let measuring = run_job_on_runtime(job, runtime.handle(), fresh, cancel, progress);
            runtime.spawn_root(measuring, move |measured| {
                let _ = done.send(measured);
            });
        } else {
            let (pool, fresh) = executors.pool(job.workers)?;
            pool.spawn(move || {
                let _ = done.send(run_job(&job, fresh, &cancel, &progress));
            });
        }
        Ok(result)
    })
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
