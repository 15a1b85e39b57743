//! Parallel work without shared memory: message-passing Web Workers, each with its own copy of the
//! engine, for pages that are not cross-origin isolated ("share memory by communicating").
//!
//! Two programs talk here. The coordinator keeps a pool of k such workers ([`pool`]). A task's input
//! is copied out of the coordinator's memory into a message, and from the message into the worker's
//! own memory; the worker ([`worker`]) posts back a small result and when it started and ended. The
//! coordinator hands out tasks one at a time to whichever worker is free, adds up the results and
//! turns the spans into the usual trace, so the page shows the same table and timeline as with
//! threads, copying cost included. What they say to each other is `crate::wire`.
//!
//! Only the CPU-bound kernels run this way: the sum and the first chapter's spin tasks (tasks go to
//! whichever worker is free) and hashing (hash j lives on worker j mod k; every slice is copied to
//! each worker that holds a hash, and the end of a slice is a barrier, as with threads). They are
//! where parallelism pays and where copying has something to teach.

mod pool;
mod worker;

pub use pool::{live, release, run_hash, run_job};

use crate::wire::{MessageWorkerAnswer, Order};
use experiments::{Job, Workload};
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

/// The answer a message worker sends when it panics (see [`super::install_panic_hook`]).
pub(super) fn panic_answer(message: &str) -> String {
    MessageWorkerAnswer::Failed { message: format!("it panicked: {message}") }.to_json()
}

type MessageHandler = Closure<dyn FnMut(MessageEvent)>;

/// Whether `job` runs on message workers in this build: split-by-data kernels on the ThreadPool variant.
pub fn handles(job: &Job) -> bool {
    job.variant == experiments::Variant::ThreadPool
        && matches!(job.workload, Workload::Sum { .. } | Workload::Spin { .. })
}
