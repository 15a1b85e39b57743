//! The shared vocabulary of Concurrency Lab: what a reader can ask for and what comes back.
//!
//! The UI, the engine and the native `lab` CLI all speak these types. Everything here is plain data and
//! pure functions (clamping, statistics); nothing runs an experiment.

pub mod catalog;
pub mod compare;
pub mod duration;
pub mod job;
pub mod latency;
pub mod params;
pub mod per_unit;
pub mod protocol;
pub mod published;
pub mod replay;

pub mod results;
pub mod stats;
pub mod trace_export;
pub mod trust;

pub use job::{HashSource, Job, ScenarioKind, SortAlgorithm, TotalKind, Variant, Workload, DEFAULT_SEED};

pub use results::{
    Check, FirstAttempt, Measurement, MemoryReport, QpsReport, SchedulerEvent, SchedulerEventKind, Span, Startup,
    Summary, Trace, WaitReport, SAMPLE_FLOOR_MS,
};
