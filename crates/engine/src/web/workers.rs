//! Web Workers that share this module and its memory: how a rayon thread becomes a browser worker.
//!
//! The coordinator creates each worker from `pool-worker.js` and posts it the compiled module, the
//! shared memory and a pointer to the boxed thread body. The worker instantiates the module on that
//! memory and runs the body ([`pool_worker_entry`]). When the body returns (its pool has ended),
//! the worker *parks*: it waits for the next thread body, so the next pool reuses it instead of
//! starting a Web Worker. Parked workers end when [`release_parked`] is called (the coordinator
//! does so when it has been idle a while): the worker frees its stack, tells the coordinator it
//! exited, and closes. Only the coordinator thread calls [`spawn`], so the handles live in its
//! thread-local storage.
//!
//! Why park: WebAssembly threads never run their thread-local destructors (Rust's standard library
//! "just leaks everything" on wasm), so every thread that ends leaves its thread-local heap behind,
//! about 1.7 KiB each (mostly crossbeam-epoch's per-thread record, which also stays on the list
//! every rayon epoch advance walks). A soak of 300 runs that changed k found the engine's heap
//! growing by that much per Web Worker started. Reused threads keep their thread-locals.

use super::describe;
use crate::threads::{worker_finished, worker_started, WorkerMain};
use crate::wire::PoolWorkerReport;
use experiments::protocol::{Failure, FailureKind, Response};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// Workers parked, each waiting at its [`Handoff`] for its next thread body (shared by all threads);
/// `accepting` is false from a release until the next spawn, so a thread body that ends meanwhile
/// ends its worker instead of parking it. `on_way`: workers started ahead of a run ([`warm`]) that
/// have not run yet; `pending`: thread bodies handed to them before they arrived, which the next
/// worker to arrive or finish a body takes instead of parking.
struct Parked {
    accepting: bool,
    waiting: Vec<Arc<Handoff>>,
    on_way: u32,
    pending: Vec<WorkerMain>,
}

/// What a parked worker is waiting for: its next thread body, or to be released.
enum Next {
    Waiting,
    Body(WorkerMain),
    Released,
}

/// Where one parked worker waits for its next thread body (a slot and a condition variable rather
/// than `std::sync::mpsc`, whose three channel kinds cost the module 13 KB for this one use).
struct Handoff {
    next: Mutex<Next>,
    ready: Condvar,
}

impl Handoff {
    fn new() -> Self {
        Handoff { next: Mutex::new(Next::Waiting), ready: Condvar::new() }
    }

    fn next(&self) -> std::sync::MutexGuard<'_, Next> {
        self.next.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Hand `main` to the worker waiting here, or give it back if that worker waits no more.
    fn give(&self, main: WorkerMain) -> Result<(), WorkerMain> {
        let mut next = self.next();
        if !matches!(*next, Next::Waiting) {
            return Err(main);
        }
        *next = Next::Body(main);
        drop(next);
        self.ready.notify_one();
        Ok(())
    }

    /// Tell the worker waiting here to end.
    fn release(&self) {
        let mut next = self.next();
        if matches!(*next, Next::Waiting) {
            *next = Next::Released;
        }
        drop(next);
        self.ready.notify_one();
    }

    /// Wait for the next thread body; `None` once released. Either way nothing more is accepted.
    fn take(&self) -> Option<WorkerMain> {
        let mut next = self.next();
        loop {
            match std::mem::replace(&mut *next, Next::Released) {
                Next::Body(main) => return Some(main),
                Next::Released => return None,
                Next::Waiting => {
                    *next = Next::Waiting;
                    next = self.ready.wait(next).unwrap_or_else(|poisoned| poisoned.into_inner());
                }
            }
        }
    }
}

static PARKED: Mutex<Parked> =
    Mutex::new(Parked { accepting: true, waiting: Vec::new(), on_way: 0, pending: Vec::new() });
/// The most workers parked at once (a run's executors hold at most 64 workers at a time).
const MAX_PARKED: usize = 64;
/// Workers whose executor has been dropped and whose body has not returned yet.
static ENDING: AtomicU32 = AtomicU32::new(0);

/// `count` workers were just told to end: a new executor may wait for them to park.
pub fn ending(count: u32) {
    ENDING.fetch_add(count, Ordering::SeqCst);
}

/// Start Web Workers ahead of a run, with nothing to do but park, until `workers` are parked or on
/// their way: the first pool then takes them as it takes the workers of a pool just dropped. A pool
/// built while they are still starting hands them its thread bodies (`Parked::pending`) rather than
/// start workers beside them; it cannot block until they park, as it does for the workers of a
/// pool just dropped: a nested worker starts only while its parent's event loop turns. What that saves the first run is a worker's whole start-up, all of it the
/// browser's (measured on the 2-core VM: a thread and a JavaScript context, then `pool-worker.js`
/// and `engine.js` fetched and compiled, 15 to 80 ms for two workers started together); instantiating
/// the shared module and setting up a stack and thread-locals take under half a millisecond.
pub fn warm(workers: u32) -> Result<(), String> {
    let missing = {
        let mut parked = parked();
        let under_way = parked.waiting.len() as u32 + parked.on_way + ENDING.load(Ordering::SeqCst);
        let missing = workers.min(MAX_PARKED as u32).saturating_sub(under_way);
        parked.accepting = true;
        parked.on_way += missing;
        missing
    };
    for started in 0..missing {
        if let Err(error) = start("lab-worker", Box::new(|| ARRIVING.set(true))) {
            parked().on_way -= missing - started;
            return Err(error);
        }
    }
    Ok(())
}

/// Signalled whenever a worker parks.
static PARKED_ONE: Condvar = Condvar::new();
/// How long a new executor waits at most for the workers of a dropped one to park.
const PARK_WAIT: Duration = Duration::from_millis(300);

fn parked() -> std::sync::MutexGuard<'static, Parked> {
    PARKED.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Workers parked right now, waiting for a pool to reuse them.
pub fn parked_workers() -> u32 {
    parked().waiting.len() as u32
}

/// End every parked worker (each exits once it is released), and every worker whose thread body
/// ends from now until the next [`spawn`].
pub fn release_parked() {
    let waiting = {
        let mut parked = parked();
        parked.accepting = false;
        std::mem::take(&mut parked.waiting)
    };
    waiting.iter().for_each(|handoff| handoff.release());
}

type MessageHandler = Closure<dyn FnMut(MessageEvent)>;
type ErrorHandler = Closure<dyn FnMut(Event)>;
type Handles = (Worker, MessageHandler, ErrorHandler);

thread_local! {
    /// Live workers by id (a list: a few dozen at most). Holding the `Worker` keeps it from being
    /// garbage-collected.
    static HANDLES: RefCell<Vec<(u32, Handles)>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
    /// Set by the first body of a worker started by [`warm`]: it is no longer on its way.
    static ARRIVING: Cell<bool> = const { Cell::new(false) };
}

/// Run `main` on a parked worker if there is one, else on a new Web Worker sharing this module's
/// memory.
pub fn spawn(name: &str, main: WorkerMain) -> Result<(), String> {
    let mut main = main;
    let waited_until = crate::clock::now_ms() + PARK_WAIT.as_secs_f64() * 1000.0;
    parked().accepting = true;
    loop {
        let mut guard = parked();
        // Workers started ahead of the run and still on their way take the body when they arrive.
        if guard.waiting.is_empty() && guard.on_way > guard.pending.len() as u32 {
            guard.pending.push(main);
            return Ok(());
        }
        // The workers of an executor just dropped are still ending: wait (briefly) for them to
        // park rather than start a new Web Worker beside each. Blocking is allowed here: the
        // coordinator is a worker, and the wait is bounded.
        while guard.waiting.is_empty() && ENDING.load(Ordering::SeqCst) > 0 {
            let left_ms = waited_until - crate::clock::now_ms();
            if left_ms <= 0.0 {
                // Those workers are not coming (a crashed one never does): stop waiting for them.
                ENDING.store(0, Ordering::SeqCst);
                break;
            }
            let left = Duration::from_secs_f64(left_ms / 1000.0);
            guard = PARKED_ONE.wait_timeout(guard, left).unwrap_or_else(|p| p.into_inner()).0;
        }
        let Some(waiting) = guard.waiting.pop() else { break };
        drop(guard);
        match waiting.give(main) {
            Ok(()) => return Ok(()),
            // That worker has gone: try the next.
            Err(back) => main = back,
        }
    }
    start(name, main)
}

/// Start a Web Worker running `main` on this module's shared memory.
fn start(name: &str, main: WorkerMain) -> Result<(), String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name(name);
    // One that `coordinator.js` started before the engine was up, else a new one (resolved against
    // the coordinator's own URL: the two scripts sit side by side).
    let worker = match spare_worker() {
        Some(worker) => worker,
        None => Worker::new_with_options("./pool-worker.js", &options)
            .map_err(|e| format!("the browser refused to start a worker: {}", describe(e)))?,
    };
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
    HANDLES.with(|h| h.borrow_mut().push((id, (worker, on_message, on_error))));
    Ok(())
}

/// A pool worker `coordinator.js` started while the engine was loading, asked for by an early
/// `Request::Warm`, if one is left.
fn spare_worker() -> Option<Worker> {
    lab_spare_worker()
}

#[wasm_bindgen]
extern "C" {
    /// Defined by `coordinator.js`: a `Worker` or `undefined`.
    #[wasm_bindgen(js_name = labSpareWorker)]
    fn lab_spare_worker() -> Option<Worker>;
}

/// End the pool workers `coordinator.js` started early that no warming took.
pub fn end_spare_workers() {
    while let Some(worker) = spare_worker() {
        worker.terminate();
    }
}

/// Messages a pool worker sends its coordinator (`crate::wire`): it exited, or it crashed.
fn on_worker_message(id: u32, event: MessageEvent) {
    let Some(text) = event.data().as_string() else { return };
    match PoolWorkerReport::from_json(&text) {
        Some(PoolWorkerReport::Exited) => {
            count_out(id);
        }
        Some(PoolWorkerReport::Crashed { message }) => {
            let failure = Failure::new(FailureKind::WorkerCrashed, format!("a worker crashed: {message}"));
            super::post(&Response::Crashed { failure });
        }
        None => {}
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
    super::post(&Response::Crashed { failure: Failure::new(FailureKind::WorkerCrashed, message) });
}

/// Worker `id` has ended (or will never run): no longer live. Its handle is dropped after the
/// current event, since this may be running inside one of its closures. Returns the worker the
/// first time, `None` if it was already counted out.
fn count_out(id: u32) -> Option<Worker> {
    let (worker, on_message, on_error) = HANDLES.with(|h| {
        let mut handles = h.borrow_mut();
        let at = handles.iter().position(|(live, _)| *live == id)?;
        Some(handles.swap_remove(at).1)
    })?;
    worker_finished();
    wasm_bindgen_futures::spawn_local(async move { drop((on_message, on_error)) });
    Some(worker)
}

/// Runs inside a pool worker, called by `pool-worker.js` with the pointer the coordinator posted:
/// runs that thread body, then parks and runs each body handed to it, until it is released.
#[wasm_bindgen]
pub fn pool_worker_entry(body: u32) {
    super::install_panic_hook(super::PanicListener::Coordinator);
    // SAFETY: `body` came from `Box::into_raw` in `start` and is posted to exactly one worker,
    // which calls this function exactly once.
    let mut main: WorkerMain = *unsafe { Box::from_raw(body as *mut WorkerMain) };
    loop {
        main();
        let arrived = ARRIVING.replace(false);
        if !arrived {
            // One fewer ending (if any were).
            let _ = ENDING.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        }
        let handoff = Arc::new(Handoff::new());
        {
            let mut parked = parked();
            if arrived {
                parked.on_way = parked.on_way.saturating_sub(1);
            }
            if let Some(body) = parked.pending.pop() {
                main = body;
                continue;
            }
            if !parked.accepting || parked.waiting.len() >= MAX_PARKED {
                return;
            }
            parked.waiting.push(handoff.clone());
        }
        PARKED_ONE.notify_all();
        match handoff.take() {
            Some(body) => main = body,
            None => return,
        }
    }
}
