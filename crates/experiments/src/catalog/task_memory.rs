//! What a task costs, part two: the memory of parked tasks and of idle Web Workers.

use super::{Experiment, ExperimentId, KnobReader, Machine, Runs, EVERY_MODE};
use crate::job::{Job, Variant, Workload};
use crate::params::ParamRange;

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const PARKED: ParamRange = ParamRange::new("parked", 1_000, 200_000, 10_000);

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::TaskMemory,
    chapter: "task-costs",
    quick: "parked=1000",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: true,
    variants: &[Variant::ThreadPool, Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: None,
};

/// Extra workers started to weigh one Web Worker.
pub const WEIGHED_WORKERS: u32 = 8;

/// How many tasks to park.
pub fn read(r: &mut dyn KnobReader, _machine: Machine) -> u32 {
    r.value(&PARKED) as u32
}

/// A job that only makes the engine hold a pool of `workers` idle workers.
pub fn idle_pool(workers: u32) -> Job {
    Job { workload: Workload::Spin { units: 0 }, variant: Variant::ThreadPool, workers, tasks: workers, repetitions: 1 }
}

/// Measure: `parked` tasks parked on one worker (three times), then a pool of idle workers to weigh.
pub fn run_jobs(parked: u32) -> Vec<Job> {
    vec![
        Job { workload: Workload::TaskMemory, variant: Variant::Goroutines, workers: 1, tasks: parked, repetitions: 3 },
        idle_pool(WEIGHED_WORKERS),
    ]
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    vec![run_jobs(read(r, machine))]
}
