//! The UI's only door to the engine: one coordinator Web Worker, spoken to in JSON messages.
//!
//! The worker is started on first use. Requests sent before it says `ready` wait in a queue. If the
//! engine crashes, cannot load, or does not say `ready` within [`READY_LIMIT_MS`], every run in
//! progress is told why (the engine's files are fetched once more to name the one at fault), the
//! worker is discarded, and the next request starts a fresh one, so a failure costs the reader one
//! run, never the page. A run that does not stop within [`STOP_GRACE_MS`] of Stop is ended by
//! restarting the engine, so Stop always works.

use crate::i18n::{message, ui, Arg};
use experiments::protocol::{Failure, FailureKind, Request, Response, RunId, Stage};
use experiments::{Job, Measurement};
use futures_channel::{mpsc, oneshot};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// How long a new engine may take to say `ready` before it is given up (its files may be slow to
/// arrive, or one of them may never arrive).
const READY_LIMIT_MS: i32 = 15_000;
/// How long a run may take to stop after Stop before the engine is restarted to end it.
const STOP_GRACE_MS: i32 = 700;
/// How long each engine file may take to arrive when the page looks for the one at fault.
const DIAGNOSIS_LIMIT_MS: i32 = 4_000;

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

/// Why a run failed: a sentence in the reader's language, and the technical words that came with it
/// (the engine's or the browser's, usually English: for a bug report), if any.
#[derive(Clone, Debug, PartialEq)]
pub struct RunFailure {
    pub message: String,
    pub detail: Option<String>,
}

impl RunFailure {
    /// A failure the page words itself, with nothing technical to add.
    pub fn plain(message: impl Into<String>) -> Self {
        RunFailure { message: message.into(), detail: None }
    }

    /// A failure worded by the page, with the technical `detail` beside it (none if empty).
    fn detailed(message: impl Into<String>, detail: String) -> Self {
        RunFailure { message: message.into(), detail: Some(detail).filter(|d| !d.trim().is_empty()) }
    }

    /// What the engine reported, in the reader's language: its kind decides the sentence.
    pub fn from_engine(failure: Failure) -> Self {
        let t = ui();
        let sentence = match failure.kind {
            FailureKind::Refused => t.failure_refused,
            FailureKind::FileUnreadable => t.failure_file_unreadable,
            FailureKind::EngineNotStarted => t.failure_engine_not_started,
            FailureKind::WorkersNotStarted => t.failure_workers_not_started,
            FailureKind::TimedOut => t.failure_timed_out,
            FailureKind::NoSharedMemory => t.failure_no_shared_memory,
            FailureKind::TooMuchMemory => t.failure_too_much_memory,
            FailureKind::WorkerCrashed => t.failure_worker_crashed,
            FailureKind::EnginePanicked => t.failure_engine_panicked,
            FailureKind::Internal => t.failure_internal,
        };
        RunFailure::detailed(sentence, failure.detail)
    }
}

/// Why experiments cannot run at all on this page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The browser has no Web Workers or no WebAssembly.
    NoWorkers,
}

use experiments::catalog::ExperimentId;
/// How the page runs its engine (the catalog says which experiments run in which mode).
pub use experiments::catalog::Mode;

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

type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(Event)>);

#[derive(Default)]
struct Client {
    worker: Option<Worker>,
    handlers: Option<Handlers>,
    ready: bool,
    waiting: Vec<JsValue>,
    runs: HashMap<RunId, mpsc::UnboundedSender<EngineEvent>>,
    status_waiters: Vec<oneshot::Sender<EngineStatus>>,
    next_run: RunId,
    /// Counts the engines started, so a timer set for one engine leaves its successor alone.
    generation: u32,
}

thread_local! {
    static CLIENT: RefCell<Client> = RefCell::new(Client::default());
    /// Whether this page ever started an engine (its workers then wait on shared memory, which
    /// keeps the browser from measuring the page's memory, even after they end).
    static EVER_STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Whether this page fetched the engine's files ahead of a run ([`prefetch_for_page`]).
    static PREFETCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The engine files [`prefetch_for_page`] is still fetching, and who waits for the last one
    /// ([`prefetch_settled`]).
    static PREFETCHING: RefCell<(usize, Vec<oneshot::Sender<()>>)> = const { RefCell::new((0, Vec::new())) };
}

/// Whether an engine was ever started in this page.
pub fn ever_started() -> bool {
    EVER_STARTED.with(|e| e.get())
}

/// The folder the site is served from (the document's base URL), ending in `/`.
fn site_base() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_else(|| "/".into());
    if base.ends_with('/') {
        base
    } else {
        format!("{}/", base.rsplit_once('/').map_or("", |(b, _)| b))
    }
}

/// The engine's folder below the site's base: named after its build (`engine-<build>/`, so
/// browsers may keep its files for good and a warm page asks for none of them), or plain `engine/`
/// in a development build, whose page carries no build id.
fn engine_folder(mode: Mode) -> String {
    let name = match mode {
        Mode::Threads => "engine",
        Mode::SingleWorker => "engine-single",
    };
    match page_build() {
        Some(build) => format!("{name}-{build}"),
        None => name.to_string(),
    }
}

/// The engine build this page was written for (`<meta name="lab-engine-build">`, stamped by
/// `cargo xtask build`); `None` in a development build.
pub fn page_build() -> Option<String> {
    build_in(&web_sys::window()?.document()?)
}

/// The engine build a document names, if it names one.
fn build_in(document: &web_sys::Document) -> Option<String> {
    let meta = document.query_selector("meta[name=\"lab-engine-build\"]").ok().flatten()?;
    meta.get_attribute("content").filter(|build| !build.is_empty())
}

fn coordinator_url(mode: Mode) -> String {
    format!("{}{}/coordinator.js", site_base(), engine_folder(mode))
}

fn start_worker(client: &mut Client) -> Result<(), RunFailure> {
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
fn after_ms(ms: i32, then: impl FnOnce() + 'static) {
    if let Some(window) = web_sys::window() {
        let callback = Closure::once_into_js(then);
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), ms);
    }
}

fn send(request: &Request) -> Result<(), RunFailure> {
    send_with(request, None)
}

/// Post a request: its JSON alone, or `[JSON, file]` when it brings a file.
fn send_with(request: &Request, file: Option<web_sys::File>) -> Result<(), RunFailure> {
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
            worker.post_message(&message).map_err(|e| RunFailure::detailed(ui().engine_request_refused, describe(&e)))
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

/// Whether an engine of `build` belongs with this page: the same build as the page's
/// `<meta name="lab-engine-build">`, or either of them unstamped (a development build).
fn same_build(build: &str) -> bool {
    match page_build() {
        Some(page) => build.is_empty() || build == "dev" || page == build,
        None => true,
    }
}

/// End the engine and forget it (the next request starts a new one); returns the runs it had.
fn discard_engine() -> HashMap<RunId, mpsc::UnboundedSender<EngineEvent>> {
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
fn fail(failure: Option<RunFailure>) {
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

/// Whether the site now serves pages of another engine build than this page's: a new version was
/// deployed while the page was open, and this page's engine folder (named after its build) may be
/// gone. Reads the build id in the site's landing page, from the network (`no-store`, which the
/// service worker passes on), within [`DIAGNOSIS_LIMIT_MS`]; `false` in a development build,
/// offline, late, or when the answer names no build.
async fn site_has_another_build() -> bool {
    let Some(page) = page_build() else { return false };
    let Some((fetched, _abort)) = fetch_from_server(&site_base()) else { return false };
    let Ok(response) = fetched.await else { return false };
    let response: web_sys::Response = response.unchecked_into();
    let Ok(text) = response.text() else { return false };
    // The abort also ends a body that stalls.
    let Ok(html) = wasm_bindgen_futures::JsFuture::from(text).await else { return false };
    html.as_string().as_deref().and_then(build_named_in).is_some_and(|live| live != page)
}

/// The engine build a page's HTML names in its `<meta name="lab-engine-build" content="…">`, as
/// `cargo xtask build` writes it.
fn build_named_in(html: &str) -> Option<&str> {
    const META: &str = "<meta name=\"lab-engine-build\" content=\"";
    let start = html.find(META)? + META.len();
    let build = &html[start..start + html[start..].find('"')?];
    (!build.is_empty()).then_some(build)
}

/// The files the engine of `mode` loads, as paths below the site's base.
fn engine_files(mode: Mode) -> Vec<String> {
    let helper = match mode {
        Mode::Threads => "pool-worker.js",
        Mode::SingleWorker => "message-worker.js",
    };
    ["coordinator.js", "engine.js", "engine_bg.wasm", helper]
        .iter()
        .map(|file| format!("{}/{file}", engine_folder(mode)))
        .collect()
}

/// Fetch every file of the engine once more and say what is wrong with the first one that is
/// missing, late, or not what it should be; `None` if they all look right.
async fn diagnose(mode: Mode) -> Option<String> {
    let base = site_base();
    let checks = engine_files(mode).into_iter().map(|path| {
        let url = format!("{base}{path}");
        async move { check_file(&url, &path).await }
    });
    futures_util::future::join_all(checks).await.into_iter().flatten().next()
}

/// Ask the server itself for `url` (`no-store`: no cache answers, and the service worker passes it
/// on), given up after [`DIAGNOSIS_LIMIT_MS`]: the answer on its way, and the controller that
/// aborts it (its signal tells whether it was given up).
fn fetch_from_server(url: &str) -> Option<(wasm_bindgen_futures::JsFuture, web_sys::AbortController)> {
    let window = web_sys::window()?;
    let abort = web_sys::AbortController::new().ok()?;
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::NoStore);
    init.set_signal(Some(&abort.signal()));
    let give_up = abort.clone();
    after_ms(DIAGNOSIS_LIMIT_MS, move || give_up.abort());
    Some((wasm_bindgen_futures::JsFuture::from(window.fetch_with_str_and_init(url, &init)), abort))
}

/// What is wrong with the engine file at `url` (shown as `path`), if anything.
async fn check_file(url: &str, path: &str) -> Option<String> {
    let (fetched, abort) = fetch_from_server(url)?;
    let fetched = fetched.await;
    let t = ui();
    let response: web_sys::Response = match fetched {
        Ok(response) => response.unchecked_into(),
        Err(_) if abort.signal().aborted() => {
            let seconds = (DIAGNOSIS_LIMIT_MS / 1000) as u64;
            return Some(message(t.engine_file_late, &[("path", Arg::Text(path)), ("s", Arg::Count(seconds))]));
        }
        Err(error) => {
            let reason = describe(&error);
            return Some(message(
                t.engine_file_unfetched,
                &[("path", Arg::Text(path)), ("reason", Arg::Text(&reason))],
            ));
        }
    };
    // Only the headers were needed: do not download the rest.
    abort.abort();
    if !response.ok() {
        // The status code is a protocol token, shown as it is (like "404 Not Found").
        let status = format!("{} {}", response.status(), response.status_text()).trim_end().to_string();
        return Some(message(t.engine_file_status, &[("path", Arg::Text(path)), ("status", Arg::Text(&status))]));
    }
    let kind = response.headers().get("content-type").ok().flatten().unwrap_or_default();
    if path.ends_with(".js") && !kind.contains("javascript") {
        let kind = if kind.is_empty() { t.engine_file_no_content_type } else { &kind };
        return Some(message(t.engine_file_not_javascript, &[("path", Arg::Text(path)), ("kind", Arg::Text(kind))]));
    }
    None
}

/// A JavaScript error in a few words.
fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| ui().no_reason_given.into())
}

/// Start the engine now, before anything asks it to measure, so that downloading and compiling it
/// overlaps the page's own loading instead of the first run. Harmless if it is already running.
pub fn start_early() {
    let _ = CLIENT.with(|c| start_worker(&mut c.borrow_mut()));
}

/// Fetch the engine's files for a page that shows the experiments `shown`, as soon as the page is
/// there, so that they download while the reader reads instead of after the first Run: the
/// engine's folder is named after its build and kept for good, so the worker that a Run starts
/// finds every file in the browser's cache. Only the files are fetched, no worker is started: this
/// costs the core module a few hundred bytes, where starting the engine would pull the whole
/// protocol into it. Nothing is fetched when none of `shown` runs on the engine, when their chapter
/// weighs the page's own memory (`experiments::catalog::ENGINE_WITH_PAGE`, worked out at compile
/// time), in a development build (its engine folder is not content-addressed), or a second time.
pub fn prefetch_for_page(shown: &[ExperimentId]) {
    let wanted = shown.iter().any(|experiment| experiments::catalog::ENGINE_WITH_PAGE[*experiment as usize]);
    if !wanted || page_build().is_none() || PREFETCHED.with(|p| p.replace(true)) {
        return;
    }
    let Ok(mode) = availability() else { return };
    let base = site_base();
    let files = engine_files(mode);
    PREFETCHING.with(|p| p.borrow_mut().0 += files.len());
    for path in files {
        let url = format!("{base}{path}");
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(window) = web_sys::window() {
                // Read to the end, so the whole body lands in the cache; a failure is the Run's to report.
                if let Ok(response) = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&url)).await {
                    if let Ok(body) = response.unchecked_into::<web_sys::Response>().array_buffer() {
                        let _ = wasm_bindgen_futures::JsFuture::from(body).await;
                    }
                }
            }
            let waiting = PREFETCHING.with(|p| {
                let mut p = p.borrow_mut();
                p.0 -= 1;
                if p.0 == 0 {
                    std::mem::take(&mut p.1)
                } else {
                    Vec::new()
                }
            });
            for waiter in waiting {
                let _ = waiter.send(());
            }
        });
    }
}

/// Resolves once every engine file [`prefetch_for_page`] asked for has arrived (or failed), at once
/// if none is on its way: what a page fetches after it does not share the link with the engine.
pub async fn prefetch_settled() {
    let waiting = PREFETCHING.with(|p| {
        let mut p = p.borrow_mut();
        (p.0 > 0).then(|| {
            let (sender, receiver) = oneshot::channel();
            p.1.push(sender);
            receiver
        })
    });
    if let Some(receiver) = waiting {
        let _ = receiver.await;
    }
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

/// The address of a script of the threaded engine (e.g. `idle-worker.js`).
pub fn engine_script_url(script: &str) -> String {
    coordinator_url(Mode::Threads).replace("coordinator.js", script)
}

/// What the engine holds right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineStatus {
    /// Engine workers alive (the coordinator not counted).
    pub live_workers: u32,
    /// Workers of the executors kept for the next run.
    pub pool_workers: u32,
    /// Workers whose pool ended, parked for the next pool to reuse.
    pub parked_workers: u32,
    /// Heap bytes allocated and not freed, and the size of the engine's wasm memory.
    pub heap_bytes: u64,
    pub memory_bytes: u64,
}

/// How many engine workers are alive, how large the current pool is, and the engine's memory.
pub async fn status() -> Option<EngineStatus> {
    // No engine (never started, or ended by a crash or a Stop): nothing alive, and asking must not
    // start one.
    if CLIENT.with(|c| c.borrow().worker.is_none()) {
        return Some(EngineStatus {
            live_workers: 0,
            pool_workers: 0,
            parked_workers: 0,
            heap_bytes: 0,
            memory_bytes: 0,
        });
    }
    let (sender, receiver) = oneshot::channel();
    CLIENT.with(|c| c.borrow_mut().status_waiters.push(sender));
    send(&Request::Status).ok()?;
    receiver.await.ok()
}

#[cfg(test)]
mod tests {
    use super::build_named_in;

    #[test]
    fn a_page_names_its_engine_build_as_the_build_stamps_it() {
        let page = "<head>\n    <meta name=\"lab-engine-build\" content=\"0123456789abcdef\" />\n<title>x</title>";
        assert_eq!(build_named_in(page), Some("0123456789abcdef"));
        assert_eq!(build_named_in("<head><title>a development build</title></head>"), None);
        assert_eq!(build_named_in("<meta name=\"lab-engine-build\" content=\"\" />"), None);
        assert_eq!(build_named_in("<meta name=\"lab-engine-build\" content=\"cut off"), None);
    }
}
