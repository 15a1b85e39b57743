//! Web Workers that share this module and its memory: how a rayon thread becomes a browser worker.
//!
//! The coordinator creates each worker from `pool-worker.js` and posts it the compiled module, the
//! shared memory and a pointer to the boxed thread body. The worker instantiates the module on that
//! memory, runs the body ([`pool_worker_entry`]), frees its stack and closes itself, and tells the
//! coordinator it exited. Only the coordinator thread calls [`spawn`], so the handles live in its
//! thread-local storage.

use super::describe;
use crate::threads::{worker_finished, worker_started, WorkerMain};
use experiments::protocol::Response;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

type MessageHandler = Closure<dyn FnMut(MessageEvent)>;
type ErrorHandler = Closure<dyn FnMut(Event)>;

thread_local! {
    /// Live workers by id. Holding the `Worker` keeps it from being garbage-collected.
    static HANDLES: RefCell<HashMap<u32, (Worker, MessageHandler, ErrorHandler)>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
}

/// Start a Web Worker running `main` on this module's shared memory.
pub fn spawn(name: &str, main: WorkerMain) -> Result<(), String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name(name);
    // Resolved against the coordinator's own URL: the two scripts sit side by side.
    let worker = Worker::new_with_options("./pool-worker.js", &options)
        .map_err(|e| format!("the browser refused to start a worker: {}", describe(e)))?;
    let id = NEXT_ID.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    let on_message = MessageHandler::new(move |event: MessageEvent| on_worker_message(id, event));
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let on_error = ErrorHandler::new(move |event: Event| on_worker_error(id, event));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));

    let body = Box::into_raw(Box::new(main));
    let init = js_sys::Array::of3(&wasm_bindgen::module(), &wasm_bindgen::memory(), &JsValue::from(body as u32));
    if let Err(error) = worker.post_message(&init) {
        // The worker never got the pointer: take the body back so it is freed.
        drop(unsafe { Box::from_raw(body) });
        worker.terminate();
        return Err(format!("could not hand work to a new worker: {}", describe(error)));
    }
    worker_started();
    HANDLES.with(|h| h.borrow_mut().insert(id, (worker, on_message, on_error)));
    Ok(())
}

/// Messages a pool worker sends its coordinator: `{type: "exited"}` or `{type: "crashed", message}`.
fn on_worker_message(id: u32, event: MessageEvent) {
    let data = event.data();
    let kind = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|v| v.as_string());
    match kind.as_deref() {
        Some("exited") => {
            count_out(id);
        }
        Some("crashed") => {
            let message = js_sys::Reflect::get(&data, &"message".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_else(|| "unknown error".into());
            super::post(&Response::Crashed { message: format!("a worker crashed: {message}") });
        }
        _ => {}
    }
}

/// A pool worker whose script failed to load (a plain `Event`: a 404, the wrong MIME type, a
/// refused or broken script) or that threw outside its thread body (an `ErrorEvent`). Its thread
/// never runs, so the pool it belongs to can never finish a job: the engine must be restarted,
/// which the page does on `crashed`.
fn on_worker_error(id: u32, event: Event) {
    event.prevent_default();
    let detail = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).filter(|m| !m.is_empty());
    let message = match detail {
        Some(detail) => format!("a worker of the pool failed: {detail}"),
        None => "a worker of the pool could not be loaded".to_string(),
    };
    // It will never say it exited: count it out now.
    if let Some(worker) = count_out(id) {
        worker.terminate();
    }
    super::post(&Response::Crashed { message });
}

/// Worker `id` has ended (or will never run): no longer live. Its handle is dropped after the
/// current event, since this may be running inside one of its closures. Returns the worker the
/// first time, `None` if it was already counted out.
fn count_out(id: u32) -> Option<Worker> {
    let (worker, on_message, on_error) = HANDLES.with(|h| h.borrow_mut().remove(&id))?;
    worker_finished();
    wasm_bindgen_futures::spawn_local(async move { drop((on_message, on_error)) });
    Some(worker)
}

/// Runs inside a pool worker, called by `pool-worker.js` with the pointer the coordinator posted.
#[wasm_bindgen]
pub fn pool_worker_entry(body: u32) {
    super::install_panic_hook(super::PanicListener::Coordinator);
    // SAFETY: `body` came from `Box::into_raw` in `spawn` and is posted to exactly one worker,
    // which calls this function exactly once.
    let main = unsafe { Box::from_raw(body as *mut WorkerMain) };
    main();
}
