//! The engine worker's life: which engine can run here, starting it, discarding it when it fails,
//! and stopping a run (by restarting the engine when it does not stop in time).

use super::failure_words::{describe, RunFailure};
use super::faulty_file::diagnose;
use super::site_build::{coordinator_url, site_has_another_build};
use super::wire::{on_response, send, EngineEvent};
use super::{Client, Mode, CLIENT};
use crate::i18n::{message, ui, Arg};
use experiments::protocol::{Request, Response, RunId};
use futures_channel::mpsc;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// How long a new engine may take to say `ready` before it is given up (its files may be slow to
/// arrive, or one of them may never arrive).
pub(super) const READY_LIMIT_MS: i32 = 15_000;
/// How long a run may take to stop after Stop before the engine is restarted to end it.
pub(super) const STOP_GRACE_MS: i32 = 700;

thread_local! {
    /// Whether this page ever started an engine (its workers then wait on shared memory, which
    /// keeps the browser from measuring the page's memory, even after they end).
    static EVER_STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether an engine was ever started in this page.
pub fn ever_started() -> bool {
    EVER_STARTED.with(|e| e.get())
}

/// Why experiments cannot run at all on this page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The browser has no Web Workers or no WebAssembly.
    NoWorkers,
}

/// Which engine can run here, if any.
pub fn availability() -> Result<Mode, Unavailable> {
    let global = js_sys::global();
    let has = |name: &str| js_sys::Reflect::has(&global, &name.into()).unwrap_or(false);
    if !has("Worker") || !has("WebAssembly") {
        return Err(Unavailable::NoWorkers);
    }
    let machine = crate::environment::machine();
    Ok(if machine.isolated && machine.shared_memory { Mode::Threads } else { Mode::SingleWorker })
}

pub(super) fn start_worker(client: &mut Client) -> Result<(), RunFailure> {
    if client.worker.is_some() {
        return Ok(());
    }
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name("lab-engine");
    let t = ui();
    let mode = availability().map_err(|_| RunFailure::plain(t.engine_unsupported))?;
    let worker = Worker::new_with_options(&coordinator_url(mode), &options)
        .map_err(|e| RunFailure::detailed(t.engine_refused_to_start, describe(&e)))?;
    // Events of an engine already discarded (queued before it was ended) are ignored.
    let generation = client.generation + 1;
    let current = move || CLIENT.with(|c| c.borrow().generation == generation);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        if !current() {
            return;
        }
        let text = event.data().as_string().unwrap_or_default();
        match Response::from_json(&text) {
            Ok(response) => on_response(response),
            Err(error) => fail(Some(RunFailure::detailed(ui().engine_unreadable_message, error))),
        }
    });
    // A script that cannot be loaded (a 404, the wrong MIME type, offline, refused) fires a plain
    // `Event` with nothing to read; an error thrown while running fires an `ErrorEvent`.
    let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
        event.prevent_default();
        if !current() {
            return;
        }
        let detail = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).filter(|m| !m.is_empty());
        fail(detail.map(|detail| RunFailure::detailed(ui().engine_error, detail)));
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    EVER_STARTED.with(|e| e.set(true));
    client.worker = Some(worker);
    client.handlers = Some((on_message, on_error));
    client.ready = false;
    client.generation = generation;
    after_ms(READY_LIMIT_MS, move || {
        let late = CLIENT.with(|c| {
            let client = c.borrow();
            client.generation == generation && client.worker.is_some() && !client.ready
        });
        if late {
            let late = message(ui().engine_start_late, &[("s", Arg::Count((READY_LIMIT_MS / 1000) as u64))]);
            fail(Some(RunFailure::plain(late)));
        }
    });
    Ok(())
}

/// Call `then` once, `ms` from now.
pub(super) fn after_ms(ms: i32, then: impl FnOnce() + 'static) {
    if let Some(window) = web_sys::window() {
        let callback = Closure::once_into_js(then);
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), ms);
    }
}

/// Start the engine now, before anything asks it to measure, so that downloading and compiling it
/// overlaps the page's own loading instead of the first run, and have it start `workers` pool
/// workers at once (`Request::Warm`, posted before the engine is ready: its coordinator starts them
/// while the engine loads, so a Web Worker's start-up is not the first run's). Harmless if it is
/// already running: the engine warms nothing once a run was asked for.
pub fn start_early(workers: u32) {
    let _ = super::wire::send_now(&Request::Warm { workers });
}

/// Ask the engine to stop `run_id`. The single-worker engine measures on the very thread that would
/// read the request, so there the worker is ended instead (the next run starts a fresh one). A
/// threaded engine that has not stopped the run within [`STOP_GRACE_MS`] (a step that cannot be
/// interrupted, or an engine that hangs) is restarted the same way. Stopping a run that has
/// already ended does nothing.
pub fn stop(run_id: RunId) {
    let (running, generation) = CLIENT.with(|c| {
        let client = c.borrow();
        (client.runs.contains_key(&run_id), client.generation)
    });
    if !running {
        return;
    }
    if availability() == Ok(Mode::SingleWorker) {
        end_by_restart(run_id, false);
        return;
    }
    let _ = send(&Request::Stop { run_id });
    after_ms(STOP_GRACE_MS, move || {
        let still_running =
            CLIENT.with(|c| c.borrow().generation == generation && c.borrow().runs.contains_key(&run_id));
        if still_running {
            end_by_restart(run_id, true);
        }
    });
}

/// Stop `run_id` by ending the engine; the run is told it was stopped (`restarted`: although a
/// stop was asked for politely first).
fn end_by_restart(run_id: RunId, restarted: bool) {
    let runs = discard_engine();
    for (id, listener) in runs {
        let event = if id == run_id {
            EngineEvent::Stopped { restarted }
        } else {
            EngineEvent::Failed(RunFailure::plain(ui().engine_restarted_for_another_run))
        };
        let _ = listener.unbounded_send(event);
    }
}

/// End the engine and forget it (the next request starts a new one); returns the runs it had.
pub(super) fn discard_engine() -> HashMap<RunId, mpsc::UnboundedSender<EngineEvent>> {
    let (worker, runs, handlers) = CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        client.ready = false;
        client.waiting.clear();
        client.status_waiters.clear();
        (client.worker.take(), std::mem::take(&mut client.runs), client.handlers.take())
    });
    if let Some(worker) = worker {
        worker.set_onmessage(None);
        worker.set_onerror(None);
        worker.terminate();
    }
    // The closures stay alive until later: this function may be running inside one of them.
    if let Some(handlers) = handlers {
        wasm_bindgen_futures::spawn_local(async move { drop(handlers) });
    }
    runs
}

/// The engine failed (`failure` says how, if anything did): discard it, look for the engine file at
/// fault, and fail every run it had with a message that names what went wrong.
pub(super) fn fail(failure: Option<RunFailure>) {
    let runs = discard_engine();
    let Ok(mode) = availability() else { return };
    wasm_bindgen_futures::spawn_local(async move {
        let t = ui();
        let problem = diagnose(mode).await;
        // The engine did not load and one of its files is missing: a new version of the site may
        // have replaced this page's engine folder (its name carries the build).
        if failure.is_none() && problem.is_some() && site_has_another_build().await {
            for (_, listener) in runs {
                let _ = listener.unbounded_send(EngineEvent::Failed(RunFailure::plain(t.engine_new_version)));
            }
            return;
        }
        let failure = match (failure, problem) {
            (Some(failure), Some(problem)) => RunFailure {
                message: message(
                    t.engine_failure_and_cause,
                    &[("failure", Arg::Text(&failure.message)), ("cause", Arg::Text(&problem))],
                ),
                detail: failure.detail,
            },
            (Some(failure), None) => failure,
            (None, Some(problem)) => {
                RunFailure::plain(message(t.engine_not_loaded, &[("problem", Arg::Text(&problem))]))
            }
            (None, None) => RunFailure::plain(t.engine_not_loaded_files_fine),
        };
        for (_, listener) in runs {
            let _ = listener.unbounded_send(EngineEvent::Failed(failure.clone()));
        }
    });
}
