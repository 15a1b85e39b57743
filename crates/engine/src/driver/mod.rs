//! What whoever drives a run (the browser's coordinator, the native engine) gives the code that
//! measures it, and how that code hands work to executors: below both the harness and the kernels,
//! so a kernel that drives its own steps or its own run (hashing, load tests) needs nothing of the
//! harness.
//!
//! [`Context`] is the driver's side: the stop flag, the machine's cores, the limits, where progress
//! goes, where the bytes to hash come from, and a sleep that blocks no worker. [`handoff`] runs work
//! on a pool or a task runtime and awaits it without blocking the driving thread.

pub mod handoff;

pub use handoff::{on_pool, on_runtime, started};

use crate::cancel::Cancel;
use experiments::protocol::{Failure, Stage};
use experiments::Job;
use std::future::Future;

/// The bytes a hashing job hashes: a file or the generator, read one slice at a time.
pub trait SliceSource {
    fn slice(&mut self, offset: u64, length: usize) -> Result<Vec<u8>, Failure>;
}

/// One progress report, for the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// Index (in the whole run) of the job concerned (while starting: the group's first job).
    pub job_index: usize,
    pub stage: Stage,
    pub done: u32,
    pub total: u32,
    /// How many jobs from `job_index` on `done` and `total` count (more than one: taking turns).
    pub jobs: u32,
}

/// Opens the data of a hashing job.
pub type OpenSource<'a> = &'a dyn Fn(&Job) -> Result<Box<dyn SliceSource>, String>;

/// What the measuring code needs from whoever drives it.
pub struct Context<'a> {
    pub cancel: &'a Cancel,
    /// Logical processors of the machine (the quiet probe checks at most this many at once).
    pub cores: u32,
    /// How long a job may wait for the machine to become quiet
    /// ([`crate::harness::SETTLE_LIMIT_MS`]; 0: not at all, for tests that check results rather
    /// than speed).
    pub quiet_limit_ms: f64,
    /// How long one timed sample lasts at least ([`experiments::SAMPLE_FLOOR_MS`]; 0: one pass,
    /// for tests that check results rather than speed).
    pub sample_floor_ms: f64,
    pub report: &'a dyn Fn(Report),
    /// Opens the data of a hashing job.
    pub hash_source: OpenSource<'a>,
    /// Resolves after about `ms` milliseconds without blocking a worker.
    pub sleep: &'a dyn Fn(u32) -> std::pin::Pin<Box<dyn Future<Output = ()>>>,
}
