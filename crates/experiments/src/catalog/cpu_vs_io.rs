//! CPU-bound versus IO-bound: the same document search with its reads waiting (IO) or the
//! documents already in memory (CPU), as goroutines on k workers, and a sweep over the task count.

use super::{
    sweep_counts, workers_for, Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE, SWEEP_MAX_TASKS,
};
use crate::job::{Job, Variant, Workload, DEFAULT_SEED};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const TASKS: ParamRange = ParamRange::new("tasks", 1, 64, 8);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 20, 3);

/// `kind=io` (each read waits) or `kind=cpu` (documents already in memory).
pub const KINDS: [&str; 2] = ["io", "cpu"];

pub const DOCUMENTS: u32 = 1_000;

pub const IO_LATENCY_US: u32 = 1_000;

pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), 2)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::CpuVsIo,
    chapter: "cpu-vs-io",
    quick: "workers=2&reps=1",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: None,
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// One of `KINDS`: `io` or `cpu`.
    pub kind: &'static str,
    pub workers: u32,
    pub tasks: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            ("kind", self.kind.to_string()),
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
}

/// The worker range on `machine` (one worker without shared memory).
pub fn workers_range(machine: Machine) -> ParamRange {
    workers_for(workers(machine.cores), machine.mode)
}

impl super::ExperimentSettings for Settings {
    const ID: ExperimentId = EXPERIMENT.id;

    fn read(r: &mut dyn KnobReader, machine: Machine) -> Self {
        read(r, machine)
    }

    fn query(&self) -> Query {
        Settings::query(self)
    }
}

/// The knobs, in the panel's order.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    Settings {
        kind: r.choice("kind", &KINDS, "io"),
        workers: r.value(&workers_range(machine)) as u32,
        tasks: r.value(&TASKS) as u32,
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// One job searching the documents in `kind`'s way.
pub fn job(kind: &str, variant: Variant, workers: u32, tasks: u32, repetitions: u32) -> Job {
    let latency_us = if kind == "io" { IO_LATENCY_US } else { 0 };
    Job {
        workload: Workload::DocSearch { documents: DOCUMENTS, latency_us, seed: DEFAULT_SEED },
        variant,
        workers,
        tasks,
        repetitions,
    }
}

/// Whether a job of this experiment waits on its reads (`io`) or not (`cpu`).
pub fn kind_of(job: &Job) -> &'static str {
    match job.workload {
        Workload::DocSearch { latency_us, .. } if latency_us > 0 => "io",
        _ => "cpu",
    }
}

/// Run: the loop, then t goroutines on k workers.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    vec![
        job(s.kind, Variant::Sequential, 1, 1, s.repetitions),
        job(s.kind, Variant::Goroutines, s.workers, s.tasks, s.repetitions),
    ]
}

/// Sweep: the loop, then every task count up to [`SWEEP_MAX_TASKS`] on k workers.
pub fn sweep_jobs(s: &Settings) -> Vec<Job> {
    let mut jobs = vec![job(s.kind, Variant::Sequential, 1, 1, s.repetitions)];
    jobs.extend(
        sweep_counts(SWEEP_MAX_TASKS)
            .into_iter()
            .map(|n| job(s.kind, Variant::Goroutines, s.workers, n, s.repetitions)),
    );
    jobs
}

/// Run and Sweep, for either kind of work (the reader can switch it after the page opened).
fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    let mut runs = Vec::new();
    for kind in KINDS {
        let s = Settings { kind, ..s };
        runs.push(run_jobs(&s));
        runs.push(sweep_jobs(&s));
    }
    runs
}
