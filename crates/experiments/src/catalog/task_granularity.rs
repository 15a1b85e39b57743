//! What a task costs, part one: x tiny tasks of each size as a loop, on a thread pool and as
//! goroutines, on one worker and on k.

use super::{Experiment, KnobReader, Machine, Mode, Query, Runs, EVERY_MODE};
use crate::job::{Job, Variant, Workload};
use crate::params::task_cost::{workers, REPETITIONS, SQRT_COUNTS, TASKS};

pub const EXPERIMENT: Experiment = Experiment {
    name: "task-granularity",
    chapter: "task-costs",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    variants: &[Variant::Sequential, Variant::ThreadPool, Variant::Goroutines],
    every_run,
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub tasks: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
}

/// The knobs, in the panel's order; without shared memory the worker count stays at one (the
/// slider is shown, disabled).
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    let workers = if machine.mode == Mode::Threads { r.value(&workers(machine.cores)) as u32 } else { 1 };
    Settings { workers, tasks: r.value(&TASKS) as u32, repetitions: r.value(&REPETITIONS) as u32 }
}

/// The (variant, workers) lines measured beside the loop: one worker, and k with shared memory.
pub fn kinds(s: &Settings, mode: Mode) -> Vec<(Variant, u32)> {
    let mut kinds = vec![(Variant::ThreadPool, 1), (Variant::Goroutines, 1)];
    if mode == Mode::Threads {
        kinds.extend([(Variant::ThreadPool, s.workers), (Variant::Goroutines, s.workers)]);
    }
    kinds
}

/// x tasks of `sqrt` square roots each.
pub fn job(s: &Settings, variant: Variant, workers: u32, sqrt: u32) -> Job {
    Job { workload: Workload::Granularity { sqrt }, variant, workers, tasks: s.tasks, repetitions: s.repetitions }
}

/// Run: for every task size, the loop and then each of [`kinds`].
pub fn run_jobs(s: &Settings, mode: Mode) -> Vec<Job> {
    let kinds = kinds(s, mode);
    let mut jobs = Vec::new();
    for &sqrt in &SQRT_COUNTS {
        jobs.push(job(s, Variant::Sequential, 1, sqrt));
        jobs.extend(kinds.iter().map(|&(variant, workers)| job(s, variant, workers, sqrt)));
    }
    jobs
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    vec![run_jobs(&read(r, machine), machine.mode)]
}
