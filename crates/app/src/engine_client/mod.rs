//! The UI's only door to the engine: one coordinator Web Worker, spoken to in JSON messages.
//!
//! The worker is started on first use. Requests sent before it says `ready` wait in a queue. If the
//! engine crashes, cannot load, or does not say `ready` within
//! [`READY_LIMIT_MS`](lifecycle::READY_LIMIT_MS), every run in progress is told why (the engine's
//! files are fetched once more to name the one at fault), the worker is discarded, and the next
//! request starts a fresh one, so a failure costs the reader one run, never the page. A run that
//! does not stop within [`STOP_GRACE_MS`](lifecycle::STOP_GRACE_MS) of Stop is ended by restarting
//! the engine, so Stop always works.
//!
//! One file per job: the worker's life (`lifecycle`), the messages to and from it (`wire`), the
//! reader's words for a failure (`failure_words`), which engine build the page and the site serve
//! and where its files are (`site_build`), naming the engine file at fault (`faulty_file`),
//! fetching the engine's files ahead of a run (`prefetch`) and what the engine holds (`status`).

mod failure_words;
mod faulty_file;
mod lifecycle;
mod prefetch;
mod site_build;
mod status;
mod wire;

/// How the page runs its engine (the catalog says which experiments run in which mode).
pub use experiments::catalog::Mode;
pub use failure_words::RunFailure;
pub use lifecycle::{availability, ever_started, start_early, stop, Unavailable};
pub use prefetch::{prefetch_for_page, prefetch_settled};
pub use site_build::{engine_script_url, page_build};
pub use status::{status, EngineStatus};
pub use wire::{run, run_with_file, EngineEvent};

use experiments::protocol::RunId;
use futures_channel::{mpsc, oneshot};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use web_sys::{Event, MessageEvent, Worker};

type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(Event)>);

/// The one engine of this page, and who waits for what from it.
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
}
