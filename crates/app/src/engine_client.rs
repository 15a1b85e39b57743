//! The UI's only door to the engine: one coordinator Web Worker, spoken to in JSON messages.
//!
//! The worker is started on first use. Requests sent before it says `ready` wait in a queue. If the
//! engine crashes (or cannot load), every run in progress is told why, the worker is discarded, and
//! the next request starts a fresh one, so a crash costs the reader one run, never the page.

use experiments::protocol::{Request, Response, RunId, Stage};
use experiments::{Job, Measurement};
use futures_channel::{mpsc, oneshot};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// What a run reports back, in order: progress and measurements, then exactly one of the last three.
#[derive(Clone, Debug)]
pub enum EngineEvent {
    /// `done` of `total` steps of `stage` for job `job_index`.
    Progress {
        job_index: usize,
        stage: Stage,
        done: u32,
        total: u32,
    },
    Measured {
        job_index: usize,
        measurement: Box<Measurement>,
    },
    Finished,
    Stopped,
    Failed(String),
}

/// Why experiments cannot run at all on this page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The browser has no Web Workers or no WebAssembly.
    NoWorkers,
}

/// Which engine this page runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Cross-origin isolated: the threaded engine, with real pools of k workers.
    Threads,
    /// Not isolated (e.g. inside a course page): the engine without shared memory, one worker.
    SingleWorker,
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

type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(ErrorEvent)>);

#[derive(Default)]
struct Client {
    worker: Option<Worker>,
    handlers: Option<Handlers>,
    ready: bool,
    waiting: Vec<JsValue>,
    runs: HashMap<RunId, mpsc::UnboundedSender<EngineEvent>>,
    status_waiters: Vec<oneshot::Sender<(u32, u32)>>,
    next_run: RunId,
}

thread_local! {
    static CLIENT: RefCell<Client> = RefCell::new(Client::default());
    /// Whether this page ever started an engine (its workers then wait on shared memory, which
    /// keeps the browser from measuring the page's memory, even after they end).
    static EVER_STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether an engine was ever started in this page.
pub fn ever_started() -> bool {
    EVER_STARTED.with(|e| e.get())
}

fn coordinator_url(mode: Mode) -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_else(|| "/".into());
    let base = if base.ends_with('/') { base } else { format!("{}/", base.rsplit_once('/').map_or("", |(b, _)| b)) };
    let folder = match mode {
        Mode::Threads => "engine",
        Mode::SingleWorker => "engine-single",
    };
    format!("{base}{folder}/coordinator.js")
}

fn start_worker(client: &mut Client) -> Result<(), String> {
    if client.worker.is_some() {
        return Ok(());
    }
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name("lab-engine");
    let mode = availability().map_err(|_| "this browser cannot run Web Workers with WebAssembly".to_string())?;
    let worker = Worker::new_with_options(&coordinator_url(mode), &options)
        .map_err(|e| format!("the browser refused to start the engine: {e:?}"))?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        match Response::from_json(&text) {
            Ok(response) => on_response(response),
            Err(error) => crash(format!("the engine sent an unreadable message ({error})")),
        }
    });
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|event: ErrorEvent| {
        event.prevent_default();
        let message = event.message();
        crash(if message.is_empty() { "the engine could not be loaded".into() } else { message });
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    EVER_STARTED.with(|e| e.set(true));
    client.worker = Some(worker);
    client.handlers = Some((on_message, on_error));
    client.ready = false;
    Ok(())
}

fn send(request: &Request) -> Result<(), String> {
    send_with(request, None)
}

/// Post a request: its JSON alone, or `[JSON, file]` when it brings a file.
fn send_with(request: &Request, file: Option<web_sys::File>) -> Result<(), String> {
    CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        start_worker(&mut client)?;
        let text = JsValue::from_str(&request.to_json());
        let message = match file {
            Some(file) => js_sys::Array::of2(&text, &file).into(),
            None => text,
        };
        if client.ready {
            let worker = client.worker.as_ref().expect("started above");
            worker.post_message(&message).map_err(|e| format!("{e:?}"))
        } else {
            client.waiting.push(message);
            Ok(())
        }
    })
}

fn on_response(response: Response) {
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
        Response::Progress { run_id, job_index, done, total, stage } => {
            deliver(run_id, EngineEvent::Progress { job_index, stage, done, total }, false)
        }
        Response::Measured { run_id, job_index, measurement } => {
            deliver(run_id, EngineEvent::Measured { job_index, measurement }, false)
        }
        Response::Finished { run_id } => deliver(run_id, EngineEvent::Finished, true),
        Response::Stopped { run_id } => deliver(run_id, EngineEvent::Stopped, true),
        Response::Failed { run_id, message } => deliver(run_id, EngineEvent::Failed(message), true),
        Response::Status { live_workers, pool_workers } => CLIENT.with(|c| {
            for waiter in c.borrow_mut().status_waiters.drain(..) {
                let _ = waiter.send((live_workers, pool_workers));
            }
        }),
        Response::Crashed { message } => crash(message),
    }
}

/// Tell every run the engine died, and throw the engine away; the next request starts a new one.
fn crash(message: String) {
    let (worker, runs) = CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        client.ready = false;
        client.waiting.clear();
        client.status_waiters.clear();
        (client.worker.take(), std::mem::take(&mut client.runs))
    });
    if let Some(worker) = worker {
        worker.terminate();
    }
    for (_, listener) in runs {
        let _ = listener.unbounded_send(EngineEvent::Failed(message.clone()));
    }
    // The closures stay alive until here: this function may be running inside one of them.
    let handlers = CLIENT.with(|c| c.borrow_mut().handlers.take());
    if let Some(handlers) = handlers {
        wasm_bindgen_futures::spawn_local(async move { drop(handlers) });
    }
}

/// Start the engine now, before anything asks it to measure, so that downloading and compiling it
/// overlaps the page's own loading instead of the first run. Harmless if it is already running.
pub fn start_early() {
    let _ = CLIENT.with(|c| start_worker(&mut c.borrow_mut()));
}

/// Start measuring `jobs`; events arrive on the returned channel. A new run stops the one in progress.
pub fn run(jobs: Vec<Job>) -> Result<(RunId, mpsc::UnboundedReceiver<EngineEvent>), String> {
    run_with(jobs, None)
}

/// [`run`], sending `file` along for jobs that hash a file the reader picked.
pub fn run_with_file(
    jobs: Vec<Job>,
    file: web_sys::File,
) -> Result<(RunId, mpsc::UnboundedReceiver<EngineEvent>), String> {
    run_with(jobs, Some(file))
}

fn run_with(
    jobs: Vec<Job>,
    file: Option<web_sys::File>,
) -> Result<(RunId, mpsc::UnboundedReceiver<EngineEvent>), String> {
    let (sender, receiver) = mpsc::unbounded();
    let run_id = CLIENT.with(|c| {
        let mut client = c.borrow_mut();
        client.next_run += 1;
        let run_id = client.next_run;
        // Only one run at a time: the engine stops the previous one, so tell its listener now.
        for (_, previous) in client.runs.drain() {
            let _ = previous.unbounded_send(EngineEvent::Stopped);
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

/// Ask the engine to stop `run_id`. The single-worker engine measures on the very thread that would
/// read the request, so there the worker is ended instead (the next run starts a fresh one).
pub fn stop(run_id: RunId) {
    if availability() == Ok(Mode::SingleWorker) {
        let listener = CLIENT.with(|c| c.borrow_mut().runs.remove(&run_id));
        crash(String::new());
        if let Some(listener) = listener {
            let _ = listener.unbounded_send(EngineEvent::Stopped);
        }
        return;
    }
    let _ = send(&Request::Stop { run_id });
}

/// The address of a script of the threaded engine (e.g. `idle-worker.js`).
pub fn engine_script_url(script: &str) -> String {
    coordinator_url(Mode::Threads).replace("coordinator.js", script)
}

/// How many engine workers are alive, and how large the current pool is.
pub async fn status() -> Option<(u32, u32)> {
    let (sender, receiver) = oneshot::channel();
    CLIENT.with(|c| c.borrow_mut().status_waiters.push(sender));
    send(&Request::Status).ok()?;
    receiver.await.ok()
}
