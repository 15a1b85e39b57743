//! Parallel work without shared memory: message-passing Web Workers, each with its own copy of the
//! engine, for pages that are not cross-origin isolated ("share memory by communicating").
//!
//! Two programs talk here. The coordinator keeps a pool of k such workers ([`pool`]). A task's input
//! is copied out of the coordinator's memory into a message, and from the message into the worker's
//! own memory; the worker ([`worker`]) posts back a small result and when it started and ended. The
//! coordinator hands out tasks one at a time to whichever worker is free, adds up the results and
//! turns the spans into the usual trace, so the page shows the same table and timeline as with
//! threads, copying cost included. This module holds what they say to each other.
//!
//! Only the CPU-bound kernels run this way: the sum and the first chapter's spin tasks (tasks go to
//! whichever worker is free) and hashing (hash j lives on worker j mod k; every slice is copied to
//! each worker that holds a hash, and the end of a slice is a barrier, as with threads). They are
//! where parallelism pays and where copying has something to teach.

mod pool;
mod worker;

pub use pool::{live, release, run_hash, run_job};

use experiments::{Job, Workload};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

/// What the coordinator asks of a worker. For a sum, the numbers travel beside it as an `Int32Array`.
#[derive(Serialize, Deserialize)]
enum Order {
    Sum {
        task: u32,
    },
    Spin {
        task: u32,
        units: u32,
        seed: u64,
    },
    /// Start fresh hash states with these indices; the hash of slice s is task `s * hashes + index`.
    HashStart {
        indices: Vec<u32>,
        hashes: u32,
    },
    /// Advance every hash state with the bytes that travel beside it, as slice `slice`.
    HashSlice {
        slice: u32,
    },
    /// Send back the digests.
    HashFinish,
}

/// The answer a message worker sends when it panics (see [`super::install_panic_hook`]).
pub(super) fn panic_answer(message: &str) -> String {
    serde_json::to_string(&Answer::Failed { message: format!("it panicked: {message}") }).unwrap_or_default()
}

/// What a worker answers: ready to work, a task's result and span (engine clock, ms), or a failure.
#[derive(Serialize, Deserialize)]
enum Answer {
    Ready,
    Done {
        task: u32,
        value: u64,
        start_ms: f64,
        end_ms: f64,
    },
    /// A slice went into every hash state this worker holds: one (task, start, end) per state.
    Advanced {
        spans: Vec<(u32, f64, f64)>,
    },
    /// The digests of this worker's hashes, by hash index.
    Digests {
        digests: Vec<(u32, [u8; 32])>,
    },
    Failed {
        message: String,
    },
}

type MessageHandler = Closure<dyn FnMut(MessageEvent)>;

/// Whether `job` runs on message workers in this build: split-by-data kernels on the ThreadPool variant.
pub fn handles(job: &Job) -> bool {
    job.variant == experiments::Variant::ThreadPool
        && matches!(job.workload, Workload::Sum { .. } | Workload::Spin { .. })
}
