//! The wire to the engine: runs asked for, requests posted (queued until the engine is ready), and
//! its responses delivered to the runs that wait for them.

use super::failure_words::{describe, RunFailure};
use super::lifecycle::{discard_engine, fail, start_worker};
use super::site_build::same_build;
use super::status::EngineStatus;
use super::CLIENT;
use crate::i18n::ui;
use experiments::protocol::{Request, Response, RunId, Stage};
use experiments::{Job, Measurement};
use futures_channel::mpsc;
use wasm_bindgen::JsValue;

/// What a run reports back, in order: progress and measurements, then exactly one of the last three.
#[derive(Clone, Debug)]
pub enum EngineEvent {
    /// `done` of `total` steps of `stage` for job `job_index`.
    Progress {
        job_index: usize,
        stage: Stage,
        done: u32,
        total: u32,
        /// Jobs from `job_index` on that `done` and `total` count together (taking turns).
        jobs: u32,
    },
    Measured {
        job_index: usize,
        measurement: Box<Measurement>,
    },
    Finished,
    /// Stopped; `restarted` when the engine did not stop in time and was restarted to end the run.
    Stopped {
        restarted: bool,
    },
    Failed(RunFailure),
}

/// Start measuring `jobs`; events arrive on the returned channel. A new run stops the one in progress.
pub fn run(jobs: Vec<Job>) -> Result<(RunId, mpsc::UnboundedReceiver<EngineEvent>), RunFailure> {
    run_with(jobs, None)
}

/// [`run`], sending `file` along for jobs that hash a file the reader picked.
pub fn run_with_file(
    jobs: Vec<Job>,
    file: web_sys::File,
) -> Result<(RunId, mpsc::UnboundedReceiver<EngineEvent>), RunFailure> {
    run_with(jobs, Some(file))
}

fn run_with(
    jobs: Vec<Job>,
    file: Option<web_sys::File>,
) -> Result<(RunId, mpsc::UnboundedReceiver<EngineEvent>), RunFailure> {
    let (sender, receiver) = mpsc::unbounded();
    let run_id = CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        client.next_run += 1;
        let run_id = client.next_run;
        // Only one run at a time: the engine stops the previous one, so tell its listener now.
        for (_, previous) in client.runs.drain() {
            let _ = previous.unbounded_send(EngineEvent::Stopped { restarted: false });
        }
        client.runs.insert(run_id, sender);
        run_id
    });
    if let Err(error) = send_with(&Request::Run { run_id, jobs }, file) {
        CLIENT.with(|c| c.borrow_mut().runs.remove(&run_id));
        return Err(error);
    }
    Ok((run_id, receiver))
}

pub(super) fn send(request: &Request) -> Result<(), RunFailure> {
    send_with(request, None)
}

/// Post `request` at once, even before the engine said `ready` (its `coordinator.js` keeps what
/// arrives early and hands it to the engine once it is up): for `Request::Warm`, whose workers the
/// coordinator starts while the engine itself is still loading.
pub(super) fn send_now(request: &Request) -> Result<(), RunFailure> {
    CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        start_worker(&mut client)?;
        let bytes: JsValue = js_sys::Uint8Array::from(&request.to_bytes()[..]).into();
        let worker = client.worker.as_ref().expect("started above");
        worker.post_message(&bytes).map_err(|e| RunFailure::detailed(ui().engine_request_refused, describe(&e)))
    })
}

/// Post a request: its bytes alone ([`Request::to_bytes`]), or `[bytes, file]` when it brings a file.
fn send_with(request: &Request, file: Option<web_sys::File>) -> Result<(), RunFailure> {
    CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        start_worker(&mut client)?;
        let bytes: JsValue = js_sys::Uint8Array::from(&request.to_bytes()[..]).into();
        let message = match file {
            Some(file) => js_sys::Array::of2(&bytes, &file).into(),
            None => bytes,
        };
        if client.ready {
            let worker = client.worker.as_ref().expect("started above");
            worker.post_message(&message).map_err(|e| RunFailure::detailed(ui().engine_request_refused, describe(&e)))
        } else {
            client.waiting.push(message);
            Ok(())
        }
    })
}

pub(super) fn on_response(response: Response) {
    let deliver = |run_id: RunId, event: EngineEvent, last: bool| {
        CLIENT.with(|c| {
            let mut client = c.borrow_mut();
            if let Some(listener) = client.runs.get(&run_id) {
                let _ = listener.unbounded_send(event);
            }
            if last {
                client.runs.remove(&run_id);
            }
        })
    };
    match response {
        Response::Ready { build, .. } if !same_build(&build) => {
            // A new version of the site was installed while this page was open, and its engine is
            // what the browser now serves: this page must not mix the two.
            let runs = discard_engine();
            for (_, listener) in runs {
                let _ = listener.unbounded_send(EngineEvent::Failed(RunFailure::plain(ui().engine_new_version)));
            }
        }
        Response::Ready { .. } => CLIENT.with(|c| {
            let mut client = c.borrow_mut();
            client.ready = true;
            let waiting = std::mem::take(&mut client.waiting);
            if let Some(worker) = client.worker.as_ref() {
                for message in waiting {
                    let _ = worker.post_message(&message);
                }
            }
        }),
        Response::Progress { run_id, job_index, done, total, stage, jobs } => {
            deliver(run_id, EngineEvent::Progress { job_index, stage, done, total, jobs }, false)
        }
        Response::Measured { run_id, job_index, measurement } => {
            deliver(run_id, EngineEvent::Measured { job_index, measurement }, false)
        }
        Response::Finished { run_id } => deliver(run_id, EngineEvent::Finished, true),
        Response::Stopped { run_id } => deliver(run_id, EngineEvent::Stopped { restarted: false }, true),
        Response::Failed { run_id, failure } => {
            deliver(run_id, EngineEvent::Failed(RunFailure::from_engine(failure)), true)
        }
        Response::Status { live_workers, pool_workers, parked_workers, heap_bytes, memory_bytes } => CLIENT.with(|c| {
            for waiter in c.borrow_mut().status_waiters.drain(..) {
                let _ =
                    waiter.send(EngineStatus { live_workers, pool_workers, parked_workers, heap_bytes, memory_bytes });
            }
        }),
        Response::Crashed { failure } => fail(Some(RunFailure::from_engine(failure))),
    }
}
